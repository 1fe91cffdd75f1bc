/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * door.h - the one door between kernel code and the lsbisect simulator.
 *
 * Everything the kernel side (arch/linsched/kernel/, compiled by the
 * revision's own kbuild) needs from the simulated machine goes through the
 * lh_*() host operations, implemented by sim/. Everything the simulator asks
 * of the kernel goes through the lk_*() entry points, implemented by
 * arch/linsched/kernel/. Only plain C types and the opaque handles below
 * cross the door, so the same simulator library links with every kernel
 * version. LINSCHED_DOOR_VERSION changes whenever an entry changes its
 * binary interface; the simulator refuses kernel objects built against
 * another one (lk_door_version()).
 *
 * Execution model: one host thread. Every simulated task (idle tasks
 * included) runs on its own host stack; __switch_to() switches stacks. The
 * simulator's event loop runs on the main stack, delivers interrupts there
 * (lk_irq) and resumes a CPU's current task (lk_resume) when it has
 * something to do; a task returns control with lk_yield() when it waits
 * for the next event: in user mode, or halted in the idle loop.
 */
#ifndef _UAPI_ASM_LINSCHED_DOOR_H
#define _UAPI_ASM_LINSCHED_DOOR_H

#define LINSCHED_DOOR_VERSION	12
#define LINSCHED_MAX_CPUS	512
#define LINSCHED_MAX_NODES	64
#define LINSCHED_MAX_TYPES	8
#define LINSCHED_MAX_OPPS	32
#define LINSCHED_MAX_IDLE_STATES 10	/* the kernel's CPUIDLE_STATE_MAX */
#define LINSCHED_CGROUP_PATH_MAX 256

/*
 * Opaque handles: each side holds the other's objects only as pointers to
 * these incomplete types, so a task cannot be passed where a context is
 * expected (as LKL's host_ops.h does with its lkl_sem and lkl_thread_t).
 */
struct lk_task;		/* a kernel task, made by lk_task_new() */
struct lh_context;	/* a host execution context, made by lh_context_new() */
struct lh_stack;	/* the memory behind a context, for lh_context_free() */
struct lk_cgroup;	/* a cgroup of the cpu controller, made by lk_cgroup_new() */

/* Interrupt kinds delivered by lk_irq(). */
enum linsched_irq {
	LINSCHED_IRQ_TICK,		/* periodic tick */
	LINSCHED_IRQ_TIMER,		/* an hrtimer expired: arg is its key */
	LINSCHED_IRQ_RESCHED,		/* reschedule IPI */
	LINSCHED_IRQ_CALL_FUNC,		/* call-function IPI */
	LINSCHED_IRQ_WORK,		/* irq_work: arg is the work */
	LINSCHED_IRQ_DEFERRED,		/* RCU callbacks and work items */
	LINSCHED_IRQ_SOFTIRQ,		/* softirqs raised outside interrupts */
};

/*
 * Scheduler events for lh_sched_event(), sent by the kernel's own
 * tracepoints whether or not a trace is written (no formatting).
 */
enum linsched_sched_event {
	LINSCHED_EV_SWITCH,	/* pid: next; arg: prev's pid; state: 1 if
				   prev stays runnable (preempted or still
				   TASK_RUNNING), 2 if it would but its
				   group's bandwidth holds it, 0 if it
				   blocked or died */
	LINSCHED_EV_WAKEUP,	/* pid woke; arg: its CPU */
	LINSCHED_EV_WAKEUP_NEW,	/* pid forked and runnable; arg: its CPU */
	LINSCHED_EV_MIGRATE,	/* pid moves from cpu to arg */
	/*
	 * From the revision's own throttle_cfs_rq()/unthrottle_cfs_rq() (no
	 * tracepoint): pid, queued on CPU arg, is held by its group's CPU
	 * bandwidth (its cfs_rq's throttle_count), waiting for quota and
	 * not for a CPU (THROTTLE); it is queued there again (UNTHROTTLE)
	 */
	LINSCHED_EV_THROTTLE,
	LINSCHED_EV_UNTHROTTLE,
};

struct linsched_cpu_desc {
	int package;		/* socket */
	int cluster;		/* cores sharing a last-level cache */
	int core;		/* SMT siblings share a core id */
	int node;		/* NUMA node */
	unsigned int capacity;	/* 1..1024 */
	int type;		/* index into linsched_machine.type */
	int policy;		/* frequency domain: its CPUs share a frequency */
};

/* An operating performance point, as the energy model takes it. */
struct linsched_opp {
	unsigned long khz;
	unsigned long power_uw;	/* busy power at this frequency */
};

/* An idle state, as the arch's cpuidle driver gives it to the kernel. */
struct linsched_idle_state {
	char name[16];
	unsigned long long exit_latency_ns;
	unsigned long long target_residency_ns;
	unsigned long power_uw;
};

struct linsched_cpu_type {
	int nr_opps;		/* 0: a fixed frequency, no cpufreq */
	struct linsched_opp opp[LINSCHED_MAX_OPPS];	/* ascending */
	int nr_idle_states;	/* by ascending target residency */
	struct linsched_idle_state idle[LINSCHED_MAX_IDLE_STATES];
	int no_polling_state;	/* the cpuidle driver's state 0 is idle[0],
				   not a POLL state before it (Arm) */
};

/* Who sets the frequency of CPUs with OPPs. */
enum linsched_governor {
	LINSCHED_GOV_SCHEDUTIL,		/* the kernel's schedutil */
	LINSCHED_GOV_PERFORMANCE,	/* fixed at the highest OPP */
	LINSCHED_GOV_POWERSAVE,		/* fixed at the lowest OPP */
};

struct linsched_machine {
	int nr_cpus;
	struct linsched_cpu_desc cpu[LINSCHED_MAX_CPUS];
	int nr_nodes;
	int distance[LINSCHED_MAX_NODES][LINSCHED_MAX_NODES];	/* 10: local */
	int nr_types;
	struct linsched_cpu_type type[LINSCHED_MAX_TYPES];
	enum linsched_governor governor;
	int energy_model;	/* register each policy's OPPs as its EM */
	/*
	 * cpuidle_driver: the arch registers a cpuidle driver per CPU type
	 * with the type's idle states, the revision's cpuidle governor picks
	 * them and lh_cpu_idle() is told the state the kernel entered. 0: no
	 * driver, the simulator picks. cpuidle: that governor ("menu", "teo",
	 * "ladder", as "cpuidle.governor="); empty: the revision's default,
	 * its highest-rated registered governor.
	 */
	int cpuidle_driver;
	char cpuidle[16];
	/*
	 * Boot parameters, "isolcpus=domain,3 ...": each is given to the
	 * kernel's own __setup() handler at boot, as start_kernel's
	 * parse_args() does. Empty: none.
	 */
	char cmdline[256];
};

/* What a simulated task is, as the simulator creates it. */
struct linsched_task_attr {
	const char *name;
	int policy;			/* OTHER=0 FIFO=1 RR=2 BATCH=3 IDLE=5 DEADLINE=6 */
	int nice;
	int rt_priority;
	unsigned long long dl_runtime;	/* SCHED_DEADLINE=6: ns */
	unsigned long long dl_deadline;
	unsigned long long dl_period;
	int util_min, util_max;		/* uclamp 0..1024, -1: unset */
	int nr_allowed;			/* 0: all CPUs */
	const int *allowed;		/* the allowed CPUs */
	void (*main)(void *payload);	/* its user-mode code */
	void *payload;
};

struct linsched_task_stats {
	int pid;
	int cpu;
	unsigned long long sum_exec_ns;
	unsigned long long nr_migrations;
	unsigned long long nr_switches;
	unsigned long long nr_voluntary;
	unsigned long long nr_involuntary;
	int prio;		/* the kernel's effective prio (0..139, -1 DL) */
};

/* What the kernel charged and limited a cgroup (its cpu.stat). */
struct linsched_cgroup_stats {
	unsigned long long usage_ns;	/* CPU time of its tasks and its
					   descendants' tasks */
	unsigned long long nr_periods;	/* bandwidth periods it was active in */
	unsigned long long nr_throttled;	/* periods it ran out of quota */
	unsigned long long throttled_ns;	/* time its runqueues were throttled */
};

/*
 * The revision's cpuidle core's own statistics of one CPU (its
 * struct cpuidle_device's states_usage[]), and how its idle entries left
 * the tick, read at the end of a run by lk_cpuidle_stats().
 */
struct linsched_idle_usage {
	char name[16];			/* the driver's state name */
	unsigned long long usage;	/* entries */
	unsigned long long time_ns;	/* time in the state, by the core */
	unsigned long long above;	/* too deep: woke before its target
					   residency */
	unsigned long long below;	/* too shallow: a deeper state would
					   have fit */
};

struct linsched_cpuidle_stats {
	int nr_states;
	struct linsched_idle_usage state[LINSCHED_MAX_IDLE_STATES];
	unsigned long long tick_stopped;	/* idle entries with the tick
						   stopped */
	unsigned long long tick_kept;		/* and with it running */
};

/* ---- host operations: kernel -> simulator (sim/) ---- */

/* Simulated time in ns since boot. */
unsigned long long lh_now(void);
/* Arm (or re-arm) the timer identified by key on cpu; fires lk_irq(TIMER). */
void lh_timer_arm(void *key, int cpu, unsigned long long expires);
/* Disarm; returns 1 if it was armed. */
int lh_timer_cancel(void *key);
/* Start or stop the periodic tick of cpu (NO_HZ idle). */
void lh_tick(int cpu, int on);
/* Post an interrupt to cpu at the current time. */
void lh_ipi(int cpu, enum linsched_irq kind, void *arg);
/* Zeroed memory; never fails (the simulator dies cleanly if it must). */
void *lh_zalloc(unsigned long size);
void lh_free(void *p);
/*
 * A host stack for a new task: returns the context to switch to, which
 * starts in lk_task_entry(task); *stack receives what to free.
 */
struct lh_context *lh_context_new(struct lk_task *task,
				  struct lh_stack **stack);
void lh_context_free(struct lh_stack *stack);
/* Save the running context in *from and continue in to. */
void lh_context_switch(struct lh_context **from, struct lh_context *to);
/* A line of kernel log; level is the printk level digit or -1. */
void lh_log(int level, const char *line);
/* A kernel BUG()/panic(): ends the run (the process exits with a status
   the driver reads as a kernel crash). */
void lh_panic(const char *msg) __attribute__((noreturn));
/* A WARN: counted; fatal with --fatal-warnings. */
void lh_warn(const char *where);
/* Is a trace being written? (formatting events costs time) */
int lh_tracing(void);
/*
 * Is optional trace event @name on (--trace-events): sched_stat_runtime,
 * nr_running, pelt? Never without a trace.
 */
int lh_trace_event(const char *name);
/* Does the simulator want lh_sched_event()s? (probes cost time) */
int lh_sched_events(void);
/* Trace event from a tracepoint, already formatted after the event name. */
void lh_trace(int cpu, const char *comm, int pid, const char *event,
	      const char *fields);
/*
 * An event's format as tracefs's events/SYSTEM/NAME/format prints it from
 * "format:" on (its fields and print fmt), before the first lh_trace() of
 * it: trace.dat's records are packed by it (unused for text traces).
 */
void lh_trace_format(const char *system, const char *name,
		     const char *format);
/* Is the trace trace.dat? Then the sched events come as records: */
int lh_trace_binary(void);
/*
 * A record of event @event (its format given before), as its TRACE_EVENT's
 * TP_fast_assign filled it after struct trace_entry (whose type and pid
 * the simulator sets), on @cpu at the current time.
 */
void lh_trace_record(int cpu, const char *comm, int pid, const char *event,
		     const void *rec, int len);
/*
 * A scheduler event (enum linsched_sched_event) on cpu, at the current
 * time: feeds the simulator's metrics. The idle tasks have pid 0.
 */
void lh_sched_event(enum linsched_sched_event kind, int cpu, int pid,
		    int prio, int arg, long state);
/* Deterministic random bits from the run's seed. */
unsigned long long lh_random(void);
/*
 * The idle loop of cpu is about to halt (state >= 0) or has woken (-1).
 * On halting, the simulator's idle governor picks the idle state (whose
 * exit latency will delay the wakeup) and returns its index; else -1.
 * With machine.cpuidle_driver set, state is the index the kernel's
 * cpuidle governor chose and entered in the arch's driver: 0 its POLL
 * state (the CPU spins: no idle state, no exit latency), k the type's
 * idle state k - 1 (k, with the type's no_polling_state); the simulator
 * takes it and returns it.
 */
int lh_cpu_idle(int cpu, int state);
/*
 * When cpu's next timer event comes (absolute ns, ~0ULL if none): with
 * tick != 0 its periodic tick counts too (if running), else only its
 * hrtimers do. The arch's tick_nohz_get_sleep_length() reads it.
 */
unsigned long long lh_next_timer(int cpu, int tick);
/* The frequency of cpu is now khz (one of its type's OPPs). */
void lh_cpufreq(int cpu, unsigned long khz);
/* Boot finished: the simulator creates its tasks now, from init (pid 1). */
void lh_boot_done(void);
/*
 * cpu stops (0: an offline CPU's idle loop plays dead: the simulator
 * moves its timers to an online CPU and drops what else was pending for
 * it) or starts again (1: it is being brought up).
 */
void lh_cpu_online(int cpu, int online);

/* ---- kernel entry points: simulator -> kernel (arch/linsched/kernel) ---- */

/* LINSCHED_DOOR_VERSION as the kernel objects were built with it. */
int lk_door_version(void);
/*
 * Take the machine (kept, not copied) and make init the current task of
 * CPU 0: the first lk_resume(0) boots the kernel, which calls
 * lh_boot_done() when it is up. Returns 0, or -1 when the kernel cannot
 * take the machine (more CPUs than its NR_CPUS).
 */
int lk_boot(const struct linsched_machine *m);
/* Deliver an interrupt to cpu (runs on the simulator's stack). */
void lk_irq(int cpu, enum linsched_irq kind, void *arg);
/* Resume cpu's current task if it has something to do; returns when it yields. */
void lk_resume(int cpu);
/* Does cpu's current task need to run (resched, pending work)? */
int lk_needs_resume(int cpu);
/*
 * Fork a task from the current one (kernel's sched_fork/wake_up_new_task),
 * from init or from a running simulated task. Returns NULL when the kernel
 * refuses its attributes (then *why says so).
 */
struct lk_task *lk_task_new(const struct linsched_task_attr *attr,
			    const char **why);
/* Calls from a task's user-mode code (its own context). */
void lk_task_sleep(unsigned long long ns);	/* 0: until lk_task_wake() */
int lk_task_wake(struct lk_task *task);
void lk_task_yield(void);
void lk_task_exit(void) __attribute__((noreturn));
int lk_task_set_affinity(struct lk_task *task, int nr, const int *cpus);
int lk_task_set_nice(struct lk_task *task, int nice);
/*
 * Priority inheritance, as the kernel's rt_mutex code does it: @task runs
 * at @donor's priority (its top waiter's) or, with NULL, at its own again,
 * through the revision's rt_mutex_setprio(). The waiter chain is the
 * simulator's; this is the boost of one link.
 */
void lk_task_pi(struct lk_task *task, struct lk_task *donor);
/*
 * Preemption off and on again around a sequence of the simulator's own
 * that the kernel runs with preemption off (a mutex unlock's deboost and
 * wakeup of the next owner: rt_mutex_slowunlock()'s preempt_disable() in
 * mark_wakeup_next_waiter() and preempt_enable() in rt_mutex_wake_up_q()).
 * From a task's context only; lk_preempt_enable() may schedule, in a
 * kernel built with PREEMPTION (PREEMPT_LAZY). Both do nothing otherwise.
 */
void lk_preempt_disable(void);
void lk_preempt_enable(void);
/* Wait for the next event (lk_resume of this task's CPU). */
void lk_yield(void);
/* Preemption point at the return to user mode. */
void lk_task_user_return(void);
void lk_task_stats(struct lk_task *task, struct linsched_task_stats *out);
/* The simulated CPU the calling code runs on. */
int lk_this_cpu(void);
/* Where a new context starts (lh_context_new()): the task's first run. */
void lk_task_entry(struct lk_task *task) __attribute__((noreturn));
/*
 * Task groups: the cgroup core is the arch's, the cpu controller the
 * revision's. From task context (the simulator's init), as a shell
 * works on cgroupfs.
 */
struct lk_cgroup *lk_cgroup_root(void);
/* mkdir @name under @parent; NULL with *err (-errno) if the kernel refuses. */
struct lk_cgroup *lk_cgroup_new(struct lk_cgroup *parent, const char *name,
				int *err);
/*
 * Write @value to the control file @file ("cpu.weight", "cpu.max", ...
 * and cgroup v1's "cpu.shares", "cpu.cfs_quota_us", ...) through the
 * revision's own handler. Returns 0, -ENOENT when this revision has no
 * such file for that group, or the handler's -errno.
 */
int lk_cgroup_write(struct lk_cgroup *cg, const char *file,
		    const char *value);
/* Move @task into @cg (the controller's can_attach and attach). */
int lk_cgroup_attach(struct lk_task *task, struct lk_cgroup *cg);
void lk_cgroup_stats(struct lk_cgroup *cg, struct linsched_cgroup_stats *out);
/*
 * CPU hotplug through the scheduler's own callbacks, from task context;
 * they return when the CPU is down (or up). 0, or -errno: the kernel
 * refused (e.g. -EBUSY: deadline bandwidth would not fit).
 */
int lk_cpu_down(int cpu);
int lk_cpu_up(int cpu);
/*
 * Partition the sched domains as cpusets do: @dom[cpu] is the root
 * domain of each CPU of the machine (0, 1, ...), -1 for none (no load
 * balancing); offline and isolcpus=domain CPUs are left out.
 */
int lk_sched_domains(const int *dom);
/* The sched domains the kernel built, as text; -1 if len is too small. */
int lk_domains(char *buf, unsigned long len);
/* NR_CPUS of the kernel build. */
int lk_max_cpus(void);
/*
 * What of drivers/cpuidle/ the tree has built in (machine.cpuidle_driver
 * works when LK_CPUIDLE_CORE is set): an or of the bits below.
 */
#define LK_CPUIDLE_CORE		0x1
#define LK_CPUIDLE_MENU		0x2
#define LK_CPUIDLE_TEO		0x4
#define LK_CPUIDLE_LADDER	0x8
int lk_cpuidle(void);
/* The cpuidle governor in use after boot ("menu"...), or NULL: none. */
const char *lk_cpuidle_governor(void);
/*
 * The cpuidle core's statistics of @cpu into @out; 0 states when no
 * cpuidle driver covers it (no machine.cpuidle_driver, or no drivers/cpuidle/).
 */
int lk_cpuidle_stats(int cpu, struct linsched_cpuidle_stats *out);
/* The kernel version string the tree was built from. */
const char *lk_version(void);
/*
 * The preemption model the tree was configured with: "none", "voluntary",
 * "full", "lazy" or "rt" (CONFIG_PREEMPT_*).
 */
const char *lk_preempt_model(void);

#endif
