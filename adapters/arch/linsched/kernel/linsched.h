/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to arch/linsched/kernel: per-task arch data and shared helpers. */
#ifndef _LINSCHED_KERNEL_H
#define _LINSCHED_KERNEL_H

#include <linux/hrtimer.h>
#include <linux/sched.h>
#include <asm/door.h>
#include <asm/linsched_adapter.h>

enum linsched_task_kind {
	LT_BOOT,	/* init_task: boots the kernel, then idles CPU 0 */
	LT_IDLE,	/* a secondary CPU's idle task */
	LT_USER,	/* a simulated task: runs its user-mode main */
	LT_KTHREAD,	/* a kernel thread of ours: the CPU stoppers */
};

struct linsched_task {
	struct task_struct *p;
	enum linsched_task_kind kind;
	void (*main)(void *payload);
	void *payload;
	struct hrtimer sleep_timer;
	struct lh_stack *stack;	/* the host stack, for lh_context_free() */
	int kthread;		/* kthread_set_per_cpu() was called */
	int kthread_cpu;
};

static inline struct linsched_task *task_lt(struct task_struct *p)
{
	return p->thread.priv;
}

struct linsched_task *linsched_task_attach(struct task_struct *p,
					   enum linsched_task_kind kind);
struct task_struct *linsched_fork(const char *name,
				  void (*main)(void *), void *payload,
				  enum linsched_task_kind kind);
void linsched_yield(void);
void linsched_secondary_start(int cpu, bool boot);

/* timer.c */
void linsched_sleep_timer_init(struct linsched_task *lt);
void linsched_timer_fire(int cpu, void *key);
void linsched_tick(int cpu);
void linsched_tick_cpu_up(int cpu);
extern unsigned long long linsched_idle_tick_stopped[NR_CPUS];
extern unsigned long long linsched_idle_tick_kept[NR_CPUS];
void linsched_jiffies_update(void);
void linsched_timers_init(void);
void linsched_features_init(void);
void linsched_hrtimer_setup(struct hrtimer *timer,
			    enum hrtimer_restart (*function)(struct hrtimer *));

/* prototypes of kernel/ internals we stand in for */
void idle_thread_set_boot_cpu(void);
void timekeeping_warp_clock(void);
int numa_nearest_node(int node, unsigned int state);
void resched_cpu(int cpu);

/* smp.c */
void flush_smp_call_function_queue(void);
void linsched_do_softirq(void);
void linsched_run_irq_work(void *work);
void linsched_stoppers_create(int cpu);
void linsched_stopper_park(int cpu);
void linsched_run_deferred(void);
/* The cpusets' partition made again (hotplug.c), after deferred works. */
void linsched_partition_again(void);
u64 linsched_dwork_next(int cpu);
u64 linsched_wheel_next_event(int cpu);

/* mem.c */
void linsched_percpu_setup(void);

/* trace.c */
void linsched_trace_init(void);
/* trace.c: the fork and exit events kernel/fork.c and kernel/exit.c fire */
void linsched_trace_fork(struct task_struct *parent, struct task_struct *child);
void linsched_trace_exit(struct task_struct *p);
/* trace_format.c: each sched, power and cgroup event's format, to
   lh_trace_format() */
void linsched_trace_formats(void);
/*
 * trace_format.c: the sched events' records filled by their own
 * TP_fast_assign, for a trace.dat (@data: the event's name)
 */
void linsched_record_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state);
void linsched_record_wakeup(void *data, struct task_struct *p);
void linsched_record_migrate(void *data, struct task_struct *p, int dest_cpu);
void linsched_record_pi_setprio(void *data, struct task_struct *p,
				struct task_struct *pi_task);
#ifdef LINSCHED_STAT_RUNTIME_VRUNTIME
void linsched_record_stat_runtime(void *data, struct task_struct *p,
				  u64 runtime, u64 vruntime);
#else
void linsched_record_stat_runtime(void *data, struct task_struct *p,
				  u64 runtime);
#endif
void linsched_record_fork(struct task_struct *parent, struct task_struct *child);
void linsched_record_exit(struct task_struct *p);
/* domains.c: a root domain's span (struct root_domain is kernel/sched's) */
struct root_domain;
/* "0-3,6", as the kernel's %*pbl prints it */
void linsched_rd_span(struct root_domain *rd, char *buf, size_t len);
/* an event of the kernel's own in the trace, from the current task */
__printf(2, 3) void linsched_trace(const char *event, const char *fmt, ...);
/* @p on @cpu is held by its group's bandwidth, or queued again */
void linsched_sched_held(struct task_struct *p, int cpu, bool held);
/*
 * @fn the one probe of tracepoint @tp, attached without
 * kernel/tracepoint.c (static keys are plain counters here)
 */
#define LINSCHED_PROBE(tp, fn)						\
	do {								\
		static struct tracepoint_func funcs[2];			\
		funcs[0].func = (void *)(fn);				\
		funcs[0].prio = TRACEPOINT_DEFAULT_PRIO;		\
		rcu_assign_pointer(__tracepoint_##tp.funcs, funcs);	\
		LINSCHED_TRACEPOINT_KEY_INC(&__tracepoint_##tp.key);	\
	} while (0)

/* trace.c: @v in decimal at @p, at least @width digits; the end */
char *linsched_put_dec(char *p, unsigned long v, int width);

/* counters.c: Perfetto's counter lines in a trace */
void linsched_counters_init(void);
/* @group (its path) is throttled on @cpu now, or not */
void linsched_counter_throttled(const char *group, int cpu, bool throttled);

/* cpuidle.c */
void linsched_cpuidle_init(const struct linsched_machine *m);
extern struct cpumask linsched_cpuidle_cpus;

/* cgroup.c */
void linsched_cgroup_init(void);
void linsched_cgroup_fork(struct task_struct *p);
bool linsched_task_throttled(struct task_struct *p);
/* declared by 7.x's linux/cgroup.h, called by its finish_task_switch() */
void cgroup_task_dead(struct task_struct *p);

/* cpufreq.c */
void linsched_cpufreq_init(const struct linsched_machine *m);

/* domains.c */
void linsched_fair_servers_start(void);

/* topology.c */
void linsched_topology_init(const struct linsched_machine *m);

#endif
