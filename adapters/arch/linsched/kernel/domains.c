// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched-domain hierarchy the kernel built, as text: per CPU, each
 * level with its span and flags. The level's name comes from its flags
 * (the kernel keeps names only with SCHED_DEBUG).
 */
#include <linux/types.h>
#include <linux/sched.h>
#include <linux/mm_types.h>
#include <linux/mmu_context.h>
#include <linux/sched/cputime.h>

#include "../../../kernel/sched/sched.h"
#include "linsched.h"

static const struct {
	unsigned int flag;
	const char *name;
} sd_flag_names[] = {
#define SD_FLAG(name, mflags) { name, #name },
#include <linux/sched/sd_flags.h>
#undef SD_FLAG
};

static const char *level_name(unsigned int flags)
{
	if (flags & SD_NUMA)
		return "NUMA";
	if (flags & SD_SHARE_CPUCAPACITY)
		return "SMT";
	if (flags & LINSCHED_SD_LLC)
		return "MC";
	return "PKG";
}

static size_t put_span(char *buf, size_t len, const struct cpumask *mask)
{
	size_t n = 0;
	int cpu, first = -1, last = -2;

	for_each_cpu(cpu, mask) {
		if (cpu == last + 1) {
			last = cpu;
			continue;
		}
		if (first >= 0)
			n += scnprintf(buf + n, len - n, first == last ?
				       "%d," : "%d-%d,", first, last);
		first = last = cpu;
	}
	if (first >= 0)
		n += scnprintf(buf + n, len - n, first == last ? "%d" : "%d-%d",
			       first, last);
	return n;
}

int lk_domains(char *buf, unsigned long len)
{
	struct sched_domain *sd;
	size_t n = 0, i;
	int cpu;

	rcu_read_lock();
	for_each_online_cpu(cpu) {
		n += scnprintf(buf + n, len - n, "cpu%d capacity %lu\n", cpu,
			       arch_scale_cpu_capacity(cpu));
		for (sd = rcu_dereference(cpu_rq(cpu)->sd); sd; sd = sd->parent) {
			const char *sep = "";

			n += scnprintf(buf + n, len - n, "  %-4s span ",
				       level_name(sd->flags));
			n += put_span(buf + n, len - n, sched_domain_span(sd));
			n += scnprintf(buf + n, len - n, " flags ");
			for (i = 0; i < ARRAY_SIZE(sd_flag_names); i++)
				if (sd->flags & sd_flag_names[i].flag) {
					n += scnprintf(buf + n, len - n, "%s%s", sep,
						       sd_flag_names[i].name);
					sep = "|";
				}
			n += scnprintf(buf + n, len - n, "\n");
		}
	}
	rcu_read_unlock();
	return n >= len - 1 ? -1 : (int)n;
}
