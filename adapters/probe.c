// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probing a tree: the symbols and signatures that differ between kernel
 * versions. Every decision follows what the tree contains, never its
 * version number: stable kernels carry backports of newer names, and a
 * user's clone may sit anywhere between two releases.
 *
 * A probe looks for a pattern (POSIX extended, per line) in one or more
 * files of the tree and writes one line or another into the arch's
 * generated header. The checks after the probes turn a tree whose shape
 * the arch does not know into a message naming the probe, the files and
 * what was found, instead of a compile error in arch code.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "adapters/adapters_internal.h"
#include "common/common.h"

enum probe_id {
	P_SCHED_TICK,
	P_ARCH_RESCHED,
	P_SOFTIRQ_VOID,
	P_SOFTIRQ_ACTION,
	P_SD_SHARE_LLC,
	P_SIZED_STRSCPY,
	P_KMALLOC_NOPROF,
	P_KVFREE_RCU_HEAD,
	P_KVFREE_KVFREE_HEAD,
	P_DEVM_NAMED,
	P_SCHED_BALANCE_RQ,
	P_DL_SERVER,
	P_EEVDF,
	P_CPUFREQ_PRESSURE,
	P_CPU_SUBSYS_CONST,
	P_HRTIMER_BASES_H,
	P_HRTIMER_GET_TIME,
	P_HRTIMER_IS_QUEUED,
	P_HRTIMER_STATE,
	P_HRTIMER_INIT,
	P_HRTIMER_SETUP,
	P_SET_CPUS_FORCE,
	P_STOP_NOWAIT_VOID,
	P_MUTEX_INIT_GENERIC,
	P_TP_KEY_FALSE,
	P_TP_SRCU_FAST,
	P_PUT_TASK_RCU_CB,
	P_SET_CPU_POSSIBLE,
	P_INIT_UCOUNTS,
	P_IRQ_DISABLE_STATE,
	P_RANDOM_BELOW,
	P_CPUFREQ_READY_EAS,
	P_KMEM_CACHE_ARGS,
	P_INIT_DL_SERVERS,
	P_PREEMPT_LAZY,
	P_HRES_KEY,
	P_HRTICK_DEFERRED,
	P_CPUIDLE_IFACE_DEV,
	P_TG_CFS_RQ,
	P_STAT_RUNTIME_VRUNTIME,
	P_EXIT_GROUP_DEAD,
	P_TP_NR_RUNNING,
	P_TP_PELT_CFS,
	P_TP_PELT_SE,
	NR_PROBES
};

/**
 * struct probe - one difference between kernel versions
 * @name: how messages and the README call it
 * @files: the files looked in, separated by spaces (missing ones are
 *	not an error: the pattern is simply not found there)
 * @pattern: what is looked for
 * @on: the header's line when found, or NULL
 * @off: the header's line when not found, or NULL
 */
struct probe {
	const char *name;
	const char *files;
	const char *pattern;
	const char *on;
	const char *off;
};

static const struct probe probes[NR_PROBES] = {
	[P_SCHED_TICK] = { "sched_tick", "kernel/sched/core.c",
		"^void sched_tick\\(void\\)",
		"#define LINSCHED_SCHED_TICK() sched_tick()",
		"#define LINSCHED_SCHED_TICK() scheduler_tick()" },
	[P_ARCH_RESCHED] = { "arch_smp_send_reschedule", "include/linux/smp.h",
		"arch_smp_send_reschedule\\(",
		"#define LINSCHED_SEND_RESCHEDULE arch_smp_send_reschedule",
		"#define LINSCHED_SEND_RESCHEDULE smp_send_reschedule" },
	[P_SOFTIRQ_VOID] = { "softirq_void", "include/linux/interrupt.h",
		"open_softirq\\(int nr, void \\(\\*action\\)\\(void\\)\\)",
		"#define LINSCHED_SOFTIRQ_HANDLER(n) void (*n)(void)\n"
		"#define LINSCHED_SOFTIRQ_CALL(h) (h)->action()",
		"#define LINSCHED_SOFTIRQ_HANDLER(n) void (*n)(struct softirq_action *)\n"
		"#define LINSCHED_SOFTIRQ_CALL(h) (h)->action(h)" },
	[P_SOFTIRQ_ACTION] = { "softirq_action", "include/linux/interrupt.h",
		"open_softirq\\(int nr, void \\(\\*action\\)\\(struct softirq_action \\*\\)\\)",
		NULL, NULL },
	[P_SD_SHARE_LLC] = { "sd_share_llc", "include/linux/sched/sd_flags.h",
		"SD_FLAG\\(SD_SHARE_LLC,",
		"#define LINSCHED_SD_LLC SD_SHARE_LLC",
		"#define LINSCHED_SD_LLC SD_SHARE_PKG_RESOURCES" },
	[P_SIZED_STRSCPY] = { "sized_strscpy", "include/linux/string.h",
		"sized_strscpy\\(",
		"#define LINSCHED_STRSCPY sized_strscpy",
		"#define LINSCHED_STRSCPY strscpy" },
	[P_KMALLOC_NOPROF] = { "kmalloc_noprof", "include/linux/slab.h",
		"__kmalloc_noprof\\(",
		"#define LINSCHED_KMALLOC_NOPROF 1", NULL },
	[P_KVFREE_RCU_HEAD] = { "kvfree_call_rcu(rcu_head, ptr)",
		"include/linux/rcutree.h include/linux/rcupdate.h include/linux/rcutiny.h",
		"void kvfree_call_rcu\\(struct rcu_head \\*head, void \\*ptr\\)",
		"#define LINSCHED_KVFREE_CALL_RCU_HEAD struct rcu_head", NULL },
	[P_KVFREE_KVFREE_HEAD] = { "kvfree_call_rcu(kvfree_rcu_head, ptr)",
		"include/linux/rcutree.h include/linux/rcupdate.h include/linux/rcutiny.h",
		"void kvfree_call_rcu\\(struct kvfree_rcu_head \\*head, void \\*ptr\\)",
		"#define LINSCHED_KVFREE_CALL_RCU_HEAD struct kvfree_rcu_head", NULL },
	[P_DEVM_NAMED] = { "devm_add_action_named",
		"include/linux/device.h include/linux/device/devres.h",
		"int __devm_add_action\\(",
		"#define LINSCHED_DEVM_ADD_ACTION_NAMED 1", NULL },
	[P_SCHED_BALANCE_RQ] = { "sched_balance_rq", "kernel/sched/fair.c",
		"^static int sched_balance_rq\\(",
		"#define LINSCHED_HAVE_SCHED_BALANCE_RQ 1", NULL },
	[P_DL_SERVER] = { "dl_server", "kernel/sched/deadline.c",
		"dl_server_start\\(",
		"#define LINSCHED_HAVE_DL_SERVER 1", NULL },
	[P_EEVDF] = { "eevdf", "kernel/sched/fair.c", "pick_eevdf\\(",
		"#define LINSCHED_HAVE_EEVDF 1", NULL },
	[P_CPUFREQ_PRESSURE] = { "cpufreq_pressure", "include/linux/cpufreq.h",
		"DECLARE_PER_CPU\\(unsigned long, cpufreq_pressure\\)",
		"#define LINSCHED_HAVE_CPUFREQ_PRESSURE 1", NULL },
	[P_CPU_SUBSYS_CONST] = { "cpu_subsys_const", "include/linux/cpu.h",
		"extern const struct bus_type cpu_subsys",
		"#define LINSCHED_CPU_SUBSYS_CONST const",
		"#define LINSCHED_CPU_SUBSYS_CONST" },
	[P_HRTIMER_BASES_H] = { "hrtimer_bases_h", "include/linux/hrtimer_bases.h",
		"^struct hrtimer_clock_base \\{",
		"#define LINSCHED_HRTIMER_BASES_H 1", NULL },
	[P_HRTIMER_GET_TIME] = { "hrtimer_base_get_time",
		"include/linux/hrtimer.h include/linux/hrtimer_defs.h include/linux/hrtimer_bases.h",
		"ktime_t[[:space:]]+\\(\\*get_time\\)\\(void\\);",
		"#define LINSCHED_HRTIMER_BASE_GET_TIME 1", NULL },
	[P_HRTIMER_IS_QUEUED] = { "hrtimer_is_queued",
		"include/linux/hrtimer.h include/linux/hrtimer_types.h",
		"^[[:space:]]+bool[[:space:]]+is_queued;",
		"#define LINSCHED_HRTIMER_IS_QUEUED 1", NULL },
	[P_HRTIMER_STATE] = { "hrtimer_state",
		"include/linux/hrtimer.h include/linux/hrtimer_types.h",
		"^[[:space:]]+u8[[:space:]]+state;", NULL, NULL },
	[P_HRTIMER_INIT] = { "hrtimer_init", "include/linux/hrtimer.h",
		"^extern void hrtimer_init\\(struct hrtimer \\*timer,",
		"#define LINSCHED_HRTIMER_INIT 1", NULL },
	[P_HRTIMER_SETUP] = { "hrtimer_setup", "include/linux/hrtimer.h",
		"^extern void hrtimer_setup\\(struct hrtimer \\*timer,",
		"#define LINSCHED_HRTIMER_SETUP 1", NULL },
	[P_SET_CPUS_FORCE] = { "set_cpus_allowed_force", "include/linux/sched.h",
		"^extern void set_cpus_allowed_force\\(",
		"#define LINSCHED_SET_CPUS_ALLOWED_FORCE set_cpus_allowed_force",
		"#define LINSCHED_SET_CPUS_ALLOWED_FORCE do_set_cpus_allowed" },
	[P_STOP_NOWAIT_VOID] = { "stop_one_cpu_nowait_void",
		"include/linux/stop_machine.h", "^void stop_one_cpu_nowait\\(",
		"#define LINSCHED_STOP_ONE_CPU_NOWAIT_RET void\n"
		"#define LINSCHED_STOP_ONE_CPU_NOWAIT_RETURN(queued) (void)(queued)",
		"#define LINSCHED_STOP_ONE_CPU_NOWAIT_RET bool\n"
		"#define LINSCHED_STOP_ONE_CPU_NOWAIT_RETURN(queued) return (queued)" },
	[P_MUTEX_INIT_GENERIC] = { "mutex_init_generic", "include/linux/mutex.h",
		"^extern void mutex_init_generic\\(struct mutex \\*lock\\);",
		"#define LINSCHED_MUTEX_INIT_GENERIC 1", NULL },
	[P_TP_KEY_FALSE] = { "tracepoint_key_false",
		"include/linux/tracepoint-defs.h",
		"^[[:space:]]+struct static_key_false[[:space:]]+key;",
		"#define LINSCHED_TRACEPOINT_KEY_INC static_branch_inc",
		"#define LINSCHED_TRACEPOINT_KEY_INC static_key_slow_inc" },
	[P_TP_SRCU_FAST] = { "tracepoint_srcu_fast", "include/linux/tracepoint.h",
		"srcu_fast_notrace\\)\\(&tracepoint_srcu\\)",
		"#define LINSCHED_TRACEPOINT_SRCU_FAST 1", NULL },
	[P_PUT_TASK_RCU_CB] = { "put_task_struct_rcu_cb",
		"include/linux/sched/task.h",
		"^extern void __put_task_struct_rcu_cb\\(",
		"#define LINSCHED_PUT_TASK_STRUCT_RCU_CB 1", NULL },
	[P_SET_CPU_POSSIBLE] = { "set_cpu_possible_extern",
		"include/linux/cpumask.h", "^void set_cpu_possible\\(",
		"#define LINSCHED_SET_CPU_POSSIBLE_EXTERN 1", NULL },
	[P_INIT_UCOUNTS] = { "init_ucounts", "include/linux/user_namespace.h",
		"^extern struct ucounts init_ucounts;",
		"#define LINSCHED_INIT_UCOUNTS 1", NULL },
	[P_IRQ_DISABLE_STATE] = { "local_interrupt_disable_state",
		"include/linux/interrupt_rc.h",
		"DECLARE_PER_CPU\\(unsigned long, local_interrupt_disable_state\\)",
		"#define LINSCHED_LOCAL_INTERRUPT_DISABLE_STATE 1", NULL },
	[P_RANDOM_BELOW] = { "get_random_u32_below", "include/linux/random.h",
		"^u32 __get_random_u32_below\\(u32 ceil\\);",
		"#define LINSCHED_GET_RANDOM_U32_BELOW 1", NULL },
	[P_CPUFREQ_READY_EAS] = { "cpufreq_ready_for_eas",
		"include/linux/cpufreq.h", "^bool cpufreq_ready_for_eas\\(",
		"#define LINSCHED_CPUFREQ_READY_FOR_EAS 1", NULL },
	[P_KMEM_CACHE_ARGS] = { "kmem_cache_create_args", "include/linux/slab.h",
		"^struct kmem_cache \\*__kmem_cache_create_args\\(",
		"#define LINSCHED_KMEM_CACHE_CREATE_ARGS 1", NULL },
	[P_INIT_DL_SERVERS] = { "sched_init_dl_servers", "kernel/sched/deadline.c",
		"^void sched_init_dl_servers\\(",
		"#define LINSCHED_SCHED_INIT_DL_SERVERS 1", NULL },
	/*
	 * Lazy preemption (6.13 on): x86 selects ARCH_HAS_PREEMPT_LAZY, and
	 * the tree's Kconfig then makes PREEMPT_LAZY the default model (and
	 * no longer offers VOLUNTARY); the arch selects it too, so that the
	 * tree is built as real x86 kernels of it are
	 */
	[P_PREEMPT_LAZY] = { "preempt_lazy", "kernel/Kconfig.preempt",
		"^config ARCH_HAS_PREEMPT_LAZY$",
		"#define LINSCHED_HAVE_PREEMPT_LAZY 1", NULL },
	/* 7.x: high resolution mode is a static key, not a base's flag */
	[P_HRES_KEY] = { "hrtimer_highres_enabled_key", "include/linux/hrtimer.h",
		"^extern struct static_key_false hrtimer_highres_enabled_key;",
		"#define LINSCHED_HRES_KEY 1", NULL },
	/*
	 * HRTICK (slices ended by an hrtimer, not the tick) defaults to on
	 * with HRTIMER_REARM_DEFERRED, which x86 has (GENERIC_ENTRY and the
	 * generic TIF bits) and the arch has not: the arch turns the feature
	 * on at boot, as the tree's default on x86
	 */
	[P_HRTICK_DEFERRED] = { "hrtick_rearm_deferred", "kernel/sched/features.h",
		"^#ifdef CONFIG_HRTIMER_REARM_DEFERRED$",
		"#define LINSCHED_HRTICK_AS_X86 1", NULL },
	/* drivers/cpuidle/sysfs.c's, stubbed by the arch: 6.1 passes the
	   CPU subsystem's root device, later none */
	[P_CPUIDLE_IFACE_DEV] = { "cpuidle_add_interface(dev)",
		"drivers/cpuidle/cpuidle.h",
		"int cpuidle_add_interface\\(struct device \\*dev\\)",
		"#define LINSCHED_CPUIDLE_IFACE_ARGS struct device *dev",
		"#define LINSCHED_CPUIDLE_IFACE_ARGS void" },
	/* 7.x keeps a group's cfs_rqs per CPU; 6.x in an array of pointers */
	[P_TG_CFS_RQ] = { "tg_cfs_rq", "kernel/sched/sched.h",
		"^static inline struct cfs_rq \\*tg_cfs_rq\\(",
		"#define LINSCHED_TG_CFS_RQ(tg, cpu) tg_cfs_rq(tg, cpu)",
		"#define LINSCHED_TG_CFS_RQ(tg, cpu) ((tg)->cfs_rq[cpu])" },
	/* 6.8+: sched_stat_runtime has no vruntime */
	[P_STAT_RUNTIME_VRUNTIME] = { "sched_stat_runtime_vruntime",
		"include/trace/events/sched.h",
		"TP_PROTO\\(struct task_struct \\*tsk, u64 runtime, u64 vruntime\\)",
		"#define LINSCHED_STAT_RUNTIME_VRUNTIME 1", NULL },
	/* 6.16+: sched_process_exit says whether the thread group died */
	[P_EXIT_GROUP_DEAD] = { "sched_process_exit_group_dead",
		"include/trace/events/sched.h",
		"TP_PROTO\\(struct task_struct \\*p, bool group_dead\\)",
		"#define LINSCHED_EXIT_GROUP_DEAD 1", NULL },
	/*
	 * the bare tracepoints the trace's counters come from (counters.c);
	 * 6.16 on declares them without the _tp their symbols still end in
	 */
	[P_TP_NR_RUNNING] = { "sched_update_nr_running_tp",
		"include/trace/events/sched.h",
		"^DECLARE_TRACE\\(sched_update_nr_running(_tp)?,",
		"#define LINSCHED_HAVE_TP_NR_RUNNING 1", NULL },
	[P_TP_PELT_CFS] = { "pelt_cfs_tp", "include/trace/events/sched.h",
		"^DECLARE_TRACE\\(pelt_cfs(_tp)?,",
		"#define LINSCHED_HAVE_TP_PELT_CFS 1", NULL },
	[P_TP_PELT_SE] = { "pelt_se_tp", "include/trace/events/sched.h",
		"^DECLARE_TRACE\\(pelt_se(_tp)?,",
		"#define LINSCHED_HAVE_TP_PELT_SE 1", NULL },
};

_Static_assert(NR_PROBES <= 64, "adapter_probe.found holds 64 probes");

#define FOUND(p, id) (((p)->found >> (id)) & 1)

/* 1 if @pattern matches one of @files (space-separated) of @tree. */
static int tree_has(const char *tree, const char *files, const char *pattern)
{
	char path[4096], name[256];
	const char *f = files;
	regex_t re;
	int found = 0;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB))
		return 0;
	while (!found && *f) {
		size_t n = strcspn(f, " ");
		char *text;

		lsb_pathf(name, sizeof(name), "%.*s", (int)n, f);
		f += n + (f[n] == ' ');
		lsb_pathf(path, sizeof(path), "%s/%s", tree, name);
		text = lsb_read_file(path, NULL);
		if (!text)
			continue;
		found = !regexec(&re, text, 0, NULL, 0);
		free(text);
	}
	regfree(&re);
	return found;
}

static int tree_file_exists(const char *tree, const char *file)
{
	char path[4096];

	lsb_pathf(path, sizeof(path), "%s/%s", tree, file);
	return access(path, R_OK) == 0;
}

/* "VERSION = 7" and its kin; EXTRAVERSION may be empty. */
static int makefile_field(const char *text, const char *name, char *out,
			  size_t len)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		if ((p == text || p[-1] == '\n') && !strncmp(p + n, " =", 2)) {
			p += n + 2;
			p += strspn(p, " \t");
			lsb_pathf(out, len, "%.*s", (int)strcspn(p, " \t\n"),
				  p);
			return 0;
		}
		p += n;
	}
	return -1;
}

static int makefile_number(const char *text, const char *name, int *out)
{
	char buf[32], *end;
	long v;

	if (makefile_field(text, name, buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || *end || v < 0 || v > 1000)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * Shapes the arch knows in one of two forms: a tree with neither is one
 * the arch does not handle yet.
 */
static const struct {
	enum probe_id a, b;
	const char *what;
} either[] = {
	{ P_HRTIMER_IS_QUEUED, P_HRTIMER_STATE,
	  "struct hrtimer has neither 'bool is_queued;' nor 'u8 state;'" },
	{ P_HRTIMER_SETUP, P_HRTIMER_INIT,
	  "neither hrtimer_setup() nor hrtimer_init() is declared" },
	{ P_SOFTIRQ_VOID, P_SOFTIRQ_ACTION,
	  "open_softirq() takes neither 'void (*action)(void)' nor 'void (*action)(struct softirq_action *)'" },
};

/* The release @tree's top Makefile names, into @out: 0 or an ADAPTER_E*. */
static int tree_version(struct adapter_probe *out, const char *tree)
{
	char path[4096], extra[32] = "";
	char *mk;

	lsb_pathf(path, sizeof(path), "%s/Makefile", tree);
	mk = lsb_read_file(path, NULL);
	if (!mk) {
		adapter_set_error("tree '%s' is not a kernel tree: cannot read its top Makefile: %s",
				  tree, strerror(errno));
		return errno == ENOENT ? ADAPTER_EUNSUPPORTED : ADAPTER_EIO;
	}
	if (makefile_number(mk, "VERSION", &out->major) ||
	    makefile_number(mk, "PATCHLEVEL", &out->minor) ||
	    makefile_number(mk, "SUBLEVEL", &out->sublevel)) {
		free(mk);
		adapter_set_error("tree '%s' is not a kernel tree: its top Makefile names no kernel version (VERSION, PATCHLEVEL, SUBLEVEL)",
				  tree);
		return ADAPTER_EUNSUPPORTED;
	}
	makefile_field(mk, "EXTRAVERSION", extra, sizeof(extra));
	free(mk);
	lsb_pathf(out->version, sizeof(out->version), "%d.%d.%d%s",
		  out->major, out->minor, out->sublevel, extra);
	return 0;
}

int adapter_build_version(const char *exe, char *out, size_t len)
{
	struct adapter_probe p;
	char tree[4096];
	const char *slash = strrchr(exe, '/');
	int ret;

	/* the build's directory holds its exported tree in src/ */
	lsb_pathf(tree, sizeof(tree), "%.*s/src",
		  slash ? (int)(slash - exe) : 1, slash ? exe : ".");
	memset(&p, 0, sizeof(p));
	ret = tree_version(&p, tree);
	if (!ret)
		lsb_pathf(out, len, "%s", p.version);
	return ret;
}

int adapter_probe(struct adapter_probe *out, const char *tree)
{
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = tree_version(out, tree);
	if (ret)
		return ret;
	if (!tree_file_exists(tree, "kernel/sched/core.c")) {
		adapter_set_error("tree '%s' (Linux %s) is not a kernel tree the arch can build: it has no kernel/sched/core.c",
				  tree, out->version);
		return ADAPTER_EUNSUPPORTED;
	}
	/*
	 * The arch builds kernel/sched as its four units (core, fair,
	 * build_policy, build_utility), which 5.18 introduced; before them
	 * each class was its own object and much else differed.
	 */
	if (!tree_file_exists(tree, "kernel/sched/build_policy.c") ||
	    !tree_file_exists(tree, "kernel/sched/build_utility.c")) {
		adapter_set_error("tree '%s' (Linux %s) is older than any the arch handles: probe 'sched_build_units' found no kernel/sched/build_policy.c and build_utility.c (the arch needs the scheduler built as core, fair, build_policy and build_utility)",
				  tree, out->version);
		return ADAPTER_EUNSUPPORTED;
	}
	for (i = 0; i < NR_PROBES; i++)
		if (tree_has(tree, probes[i].files, probes[i].pattern))
			out->found |= 1ULL << i;
	for (i = 0; i < sizeof(either) / sizeof(either[0]); i++) {
		if (FOUND(out, either[i].a) || FOUND(out, either[i].b))
			continue;
		adapter_set_error("tree '%s' (Linux %s): probes '%s' and '%s' found nothing in %s: %s; the arch does not handle this tree",
				  tree, out->version, probes[either[i].a].name,
				  probes[either[i].b].name,
				  probes[either[i].a].files, either[i].what);
		return ADAPTER_EUNSUPPORTED;
	}
	return 0;
}

char *adapter_header(const struct adapter_probe *p)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	/*
	 * No version here: two trees whose probes agree get the same header,
	 * so one can be built from the other's objects (reuse.c).
	 */
	fprintf(f, "/* Generated by the lsbisect adapter from probes of the tree. */\n");
	fprintf(f, "#ifndef _ASM_LINSCHED_ADAPTER_H\n#define _ASM_LINSCHED_ADAPTER_H\n\n");
	for (i = 0; i < NR_PROBES; i++) {
		const char *line = FOUND(p, i) ? probes[i].on : probes[i].off;

		fprintf(f, "/* %s: %s */\n", probes[i].name,
			FOUND(p, i) ? "found" : "not found");
		if (line)
			fprintf(f, "%s\n", line);
	}
	fprintf(f, "\n#endif\n");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
