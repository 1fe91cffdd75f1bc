/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to sim/: the event queue, per-CPU state and the task runner. */
#ifndef LSB_SIM_INTERNAL_H
#define LSB_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "power/power.h"
#include "sim/idle.h"
#include "sim/sim.h"

enum sim_event_type {
	SIM_EV_TICK,
	SIM_EV_TIMER,
	SIM_EV_IPI,
	SIM_EV_SEGMENT,		/* a running task's work ends */
};

struct sim_event {
	uint64_t time;
	uint64_t seq;		/* pushed after those of lower ones */
	int cpu;
	int type;
	int kind;		/* SIM_EV_IPI: enum linsched_irq */
	void *arg;
	long heap_idx;		/* -1 when not queued; a tick: 0 when queued */
	struct sim_event *next;	/* timer hash chain, free list */
};

/* the time beside the event: most comparisons end at it */
struct sim_heap_ent {
	uint64_t time;
	struct sim_event *ev;
};

/* a CPU's events but its tick: a 4-ary heap by (time, sequence) */
struct sim_queue {
	struct sim_heap_ent *ent;
	size_t n, cap;
};

struct sim_task;

struct sim_cpu {
	struct sim_queue q;		/* its hrtimers, IPIs, run segments */
	struct sim_event tick;		/* queued apart from them */
	unsigned int speed;		/* capacity at the current OPP */
	double smt_speed;		/* its type's factor beside a busy
					   sibling; 0: none, or no sibling */
	int *siblings;			/* the other SMT threads of its core */
	int nr_siblings;
	uint64_t khz;			/* current frequency, 0: fixed */
	struct sim_task *runner;	/* doing run work here, or NULL */
	int tick_on;
	int idle;
	uint64_t idle_since;
	uint64_t idle_ns;
	int state;			/* idle state chosen, -1: busy */
	int offline;			/* the kernel took it down */
	int leaving;			/* init is taking it down: inactive */
	uint64_t offline_since, offline_ns;
	int waking;			/* leaving it until wake_at */
	uint64_t wake_at;
	struct sim_idle_gov gov;
};

struct sim {
	const struct sim_config *cfg;
	uint64_t now;
	uint64_t seq;
	uint64_t events;
	int nr_cpus;
	int idle_driver;	/* the revision's cpuidle picks idle states */
	struct sim_cpu *cpu;
	/*
	 * A winner tree over the CPUs' earliest events: leaf tree_leaves + i
	 * is CPU i's earliest event and its time (NULL and UINT64_MAX for
	 * none, and beyond the CPUs), node i the earlier of nodes 2i and
	 * 2i + 1 (a tie goes to 2i, the lower CPUs); node 1 is the next
	 * event. The CPU whose event was taken last (tree_dirty, or -1) has a
	 * stale leaf until the next pop: its event may be gone, but only a
	 * leaf made again is read.
	 */
	uint64_t *tree_time;
	struct sim_event **tree_ev;
	size_t tree_leaves;
	int tree_dirty;
	struct sim_event **timers;
	struct sim_event *free_events;
	uint64_t kernel_rng[4];
	struct metrics metrics;		/* fed by lh_sched_event() */
	struct power power;		/* fed by idle, tick and frequency */
	int nr_offline;			/* CPUs offline now */
	int nr_leaving;			/* CPUs going offline */
	char *log_ring[64];
	size_t log_next;
	unsigned int warnings;
	char warning_first[512];
	uint64_t warning_first_ns;
	uint64_t kernel_calls;		/* __cyg_profile_func_enter() */
	struct sim_kernel_work work;
	char warning_first_path[SIM_PATH_MAX * SIM_PATH_NAME];
};

extern struct sim sim;

/*
 * path.c: the kernel call path of the running context, in a build made
 * with -finstrument-functions; none (0, "") in any other.
 */
/* Up to @max names, innermost first; return how many. */
int sim_path(char names[][SIM_PATH_NAME], int max);
/* Up to SIM_PATH_MAX names, innermost first, between them @sep. */
void sim_path_text(char *out, size_t len, const char *sep);
/* The running context's depth of kernel functions. */
unsigned int sim_path_depth(void);

void sim_event_push(struct sim_event *ev, uint64_t time, int cpu);
unsigned int sim_cpu_speed_smt(const struct sim_cpu *c);

/*
 * How fast run work goes on cpu: its OPP's capacity, times its type's
 * smt_speed while another thread of its core is busy.
 */
static inline unsigned int sim_cpu_speed(int cpu)
{
	const struct sim_cpu *c = &sim.cpu[cpu];

	if (__builtin_expect(c->smt_speed == 0, 1))
		return c->speed;
	return sim_cpu_speed_smt(c);
}

void sim_event_remove(struct sim_event *ev);

/* Take @ev off the queue, if it is queued. */
static inline void sim_event_cancel(struct sim_event *ev)
{
	if (ev->heap_idx >= 0)
		sim_event_remove(ev);
}

/* "error: ..." and exit 1: the simulator's own failure */
/*
 * A line of ours in the trace (when one is written), for what the kernel's
 * tracepoints do not carry and `linsched score` needs to give a run's own
 * scores again: "lsb_EVENT: FIELDS" (sim/sim.c).
 */
void sim_trace_lsb(const char *event, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "cpus=all" (@n 0) or "cpus=0-3,6": the fields of an allowed set */
void sim_trace_cpus(char *buf, size_t len, int n, const int *cpus);

/*
 * traceout.c: the text trace's bytes, written by a second thread. open
 * after the header's stdio writes (it flushes @f; -1: not started, stdio
 * goes on), put the lines, close before @f's fclose(): 0, or -1 with
 * errno (the first failed write's).
 */
int sim_trace_out_open(FILE *f);
int sim_trace_out_active(void);
void sim_trace_out_put(const char *p, size_t n);
int sim_trace_out_close(void);

/* tracedat.c: --trace FILE.dat, trace-cmd's binary format */
struct sim_tracedat *sim_tracedat_new(int nr_cpus);
void sim_tracedat_format(struct sim_tracedat *td, const char *system,
			 const char *name, const char *body);
void sim_tracedat_event(struct sim_tracedat *td, int cpu, uint64_t ns,
			const char *comm, int pid, const char *event,
			const char *fields);
void sim_tracedat_record(struct sim_tracedat *td, int cpu, uint64_t ns,
			 const char *comm, int pid, const char *event,
			 const void *rec, int len);
int sim_tracedat_write(struct sim_tracedat *td, FILE *f);
void sim_tracedat_free(struct sim_tracedat *td);
void sim_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* "error: ..." and exit SIM_EXIT_USAGE: the workload asked what cannot be */
void sim_refuse(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* rng.c: xoshiro256** seeded through splitmix64 */
void sim_rng_seed(uint64_t s[4], uint64_t seed);
uint64_t sim_rng_next(uint64_t s[4]);
double sim_rng_exp(uint64_t s[4], double mean);

/* tasks.c: the workload's tasks */
struct sim_timer {
	int init;
	uint64_t next;		/* the next period's start */
};

struct sim_task {
	const struct workload_task *w;
	char name[WORKLOAD_NAME_MAX];
	int index;
	struct lk_task *ktask;
	int pid;
	struct sim_event segment;
	uint64_t work;		/* run work left, ns at capacity 1024 */
	uint64_t work_done;	/* run work done in all */
	uint64_t seg_t0;	/* the current segment started */
	uint64_t seg_end;	/* and ends, at the CPU's speed */
	int seg_cpu;
	uint64_t rng[4];
	uint64_t t_first;	/* start of the first phase */
	struct sim_timer *timers;	/* "unique" timers: per resource */
	int phase_cpus;		/* a phase set its own affinity */
	char *own;		/* its own affinity, nr_cpus flags; NULL: all */
	char *dflt;		/* its default one, rt-app's: its forker's own when
				 * forked (a thread inherits it); NULL: all */
	int *told;		/* the CPUs the metrics have (nr_told, 0: all) */
	int nr_told;
	int group;		/* taskgroup: 1 + index, 0: the root, unmoved */
	int exited;
	int nr_forks;
	struct sim_task *wait_next;	/* on a wait list */
	int woken;		/* taken off a wait list: go on */
	/* priority inheritance (global.pi_enabled) */
	struct sim_res *held;		/* the mutexes it holds */
	struct sim_res *blocked_on;	/* the mutex it waits for */
	int wprio;			/* and its priority there, */
	uint64_t warrival;		/* its order among equals, */
	size_t pi_idx;			/* its place in the mutex's pi[] */
	uint64_t lock_wait_ns, lock_wait_max_ns;	/* waiting for mutexes */
	int lock_waiting;		/* for one now, since lock_wait_t0 */
	uint64_t lock_wait_t0;
};

int sim_tasks_init(const struct sim_config *cfg);
void sim_tasks_start(void);
void sim_task_start(struct sim_task *t);
int sim_tasks_results(struct sim_result *out);
/* Set the task's own affinity (@nr 0: its default, t->dflt) and apply it. */
int sim_task_set_affinity(struct sim_task *t, int nr, const int *cpus);
/* Its own affinity within its cpuset, to the kernel and the metrics. */
int sim_task_affinity_apply(struct sim_task *t);
/*
 * The metrics' CPUs of @t in @group, told before the kernel's attach moves
 * it there (the attach applies the cpuset at once, and blocks the task).
 */
void sim_task_join_told(struct sim_task *t, int group);
/*
 * The kernel moves task @pid off a CPU going offline to CPU @to, outside
 * the CPUs the metrics have for it: select_fallback_rq() broke its
 * affinity (balance_push() moves such a task from sched_cpu_deactivate()
 * on, before lk_cpu_down() returns and the tasks' CPUs are told again).
 */
void sim_task_pushed(int pid, int to);
/* Every live task again: to the kernel too (cpusets) or the metrics alone. */
void sim_tasks_affinity_refresh(int kernel);
void sim_task_speed_changed(struct sim_task *t);
void sim_task_speed_resume(struct sim_task *t);

/* system.c: task groups, cpusets, the workload's timed events */
int sim_system_init(const struct sim_config *cfg);
void sim_system_boot(void);		/* from init, before the tasks */
void sim_system_run(void);		/* from init, after them */
void sim_task_join(struct sim_task *t, int group);
/* a group's effective CPUs (nr_cpus flags), NULL without cpusets */
const char *sim_group_cpus(int group);
void sim_system_results(struct sim_result *out);

/* sync.c: rt-app's resources, with wait lists of tasks */
struct sim_res {
	const struct workload_resource *w;
	struct sim_task *head, *tail;	/* waiting, first come first */
	struct sim_task **pi;		/* a PI mutex's waiters: a heap */
	size_t nr_pi, cap_pi;
	struct sim_task *owner;		/* mutex */
	struct sim_res *held_next;	/* mutex: the owner's next held one */
	int arrived;			/* barrier */
	struct sim_timer timer;		/* shared timer */
};

void sim_block(struct sim_res *r, struct sim_task *t);
void sim_wake(struct sim_res *r, int n);
void sim_mutex_lock(struct sim_res *m, struct sim_task *t);
void sim_mutex_unlock(struct sim_res *m, struct sim_task *t);
void sim_cond_wait(struct sim_res *c, struct sim_res *m, struct sim_task *t);
void sim_barrier(struct sim_res *b, struct sim_task *t);
void sim_lock_wait(const struct sim_task *t, uint64_t *total, uint64_t *max);

#endif
