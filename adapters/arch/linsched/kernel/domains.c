// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched-domain hierarchy the kernel built, as text: per CPU, each
 * level with its span and flags. The level's name comes from its flags
 * (the kernel keeps names only with SCHED_DEBUG). And the fair servers
 * that sched_init_smp() sets up beside the domains.
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

/* "SD_A|SD_B": the flag names, made once per set of flags */
static const char *flag_text(unsigned int flags)
{
	static char text[1024];
	static unsigned int last;
	static bool made;
	const char *sep = "";
	size_t n = 0, i;

	if (made && flags == last)
		return text;
	text[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(sd_flag_names); i++)
		if (flags & sd_flag_names[i].flag) {
			n += scnprintf(text + n, sizeof(text) - n, "%s%s", sep,
				       sd_flag_names[i].name);
			sep = "|";
		}
	last = flags;
	made = true;
	return text;
}

int lk_domains(char *buf, unsigned long len)
{
	struct sched_domain *sd;
	size_t n = 0;
	int cpu;

	rcu_read_lock();
	for_each_online_cpu(cpu) {
		n += scnprintf(buf + n, len - n, "cpu%d capacity %lu\n", cpu,
			       arch_scale_cpu_capacity(cpu));
		for (sd = rcu_dereference(cpu_rq(cpu)->sd); sd; sd = sd->parent) {
			n += scnprintf(buf + n, len - n, "  %-4s span ",
				       level_name(sd->flags));
			n += put_span(buf + n, len - n, sched_domain_span(sd));
			n += scnprintf(buf + n, len - n, " flags %s\n",
				       flag_text(sd->flags));
		}
	}
	rcu_read_unlock();
	return n >= len - 1 ? -1 : (int)n;
}

/*
 * Where the tree has sched_init_dl_servers() (7.x), sched_init_smp()
 * sets each online CPU's fair server up but leaves it stopped:
 * enqueue_task_fair() starts it when a fair task makes the CPU's empty
 * CFS runqueue non-empty. init runs sched_init_smp() on the boot CPU, so
 * that runqueue is not empty (init is on it), and here the workload's
 * tasks are forked beside init at once: a fair task that stays runnable
 * there (a hog beside an RT hog) keeps the server stopped, and starves,
 * for ever. A real boot empties that runqueue many times before user
 * space runs (init sleeps, the CPU idles). Start the server of each CPU
 * with fair tasks queued, as the next of those enqueues would.
 */
void linsched_fair_servers_start(void)
{
#ifdef LINSCHED_SCHED_INIT_DL_SERVERS
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		struct rq_flags rf;

		rq_lock_irqsave(rq, &rf);
		update_rq_clock(rq);
		if (rq->cfs.h_nr_queued)
			dl_server_start(&rq->fair_server);
		rq_unlock_irqrestore(rq, &rf);
	}
#endif
}

void linsched_rd_span(struct root_domain *rd, char *buf, size_t len)
{
	buf[0] = 0;
	put_span(buf, len, rd->span);
}
