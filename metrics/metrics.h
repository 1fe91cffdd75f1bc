/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics - scores of a run, computed online from the scheduler's event
 * stream (sched_switch, sched_wakeup(_new), sched_migrate_task) and the
 * topology. A pure consumer: it never calls into sim/ or kernel code, and
 * uses nothing but libc and libm. See metrics/README.md for the
 * definitions and units.
 *
 * Usage: metrics_init(); for each workload task metrics_task() once its pid
 * is known (events for that pid before are tracked but not scored), then
 * metrics_affinity()/metrics_weight() as they change; metrics_event() for
 * every event in time order; metrics_finish() at the end; metrics_release().
 */
#ifndef LSB_METRICS_H
#define LSB_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "topologies/topologies.h"

#define METRICS_MASK_WORDS ((TOPOLOGY_MAX_CPUS + 63) / 64)
#define METRICS_HIST_BUCKETS (128 + 57 * 64)

/* Event kinds: the kernel tracepoints, as the door passes them. */
enum metrics_event_kind {
	METRICS_EV_SWITCH,	/* pid: next, arg: prev pid, state: enum
				   metrics_prev_state */
	METRICS_EV_WAKEUP,	/* pid woke on cpu arg */
	METRICS_EV_WAKEUP_NEW,	/* pid forked, runnable on cpu arg */
	METRICS_EV_MIGRATE,	/* pid moves from cpu to cpu arg */
	METRICS_EV_THROTTLE,	/* pid's group is throttled on cpu (its CPU
				   bandwidth): held there, not moved there */
	METRICS_EV_UNTHROTTLE,	/* ... no longer throttled on cpu */
};

/* What a METRICS_EV_SWITCH's prev does, as the door passes it. */
enum metrics_prev_state {
	METRICS_PREV_BLOCKED,	/* it blocked or died */
	METRICS_PREV_RUNNABLE,	/* preempted, or still TASK_RUNNING */
	METRICS_PREV_HELD,	/* TASK_RUNNING, but its group's bandwidth is
				   used up: held on its CPU until unthrottled */
};

/* Migration levels: the lowest sched-domain level spanning both CPUs. */
enum metrics_level {
	METRICS_SMT,		/* same core */
	METRICS_MC,		/* same cluster (shared LLC) */
	METRICS_PKG,		/* same NUMA node (the kernel's PKG/DIE) */
	METRICS_NUMA,		/* different nodes */
	METRICS_NR_LEVELS,
};

extern const char *const metrics_level_names[METRICS_NR_LEVELS];

/* Scheduling classes as far as the scores care. */
enum metrics_class {
	METRICS_FAIR,		/* SCHED_OTHER, SCHED_BATCH, SCHED_IDLE */
	METRICS_RT,		/* SCHED_FIFO, SCHED_RR, SCHED_DEADLINE */
};

/*
 * Per pid. What every event reads or writes comes first, in one cache line
 * (the array is 64-byte aligned and the struct 128 bytes); the mask is
 * read only for tasks not allowed everywhere.
 */
struct metrics_task {
	/* flags in one word: the usual cases are one test */
	unsigned int known:1;		/* a workload task: scored */
	unsigned int runnable:1;	/* running or queued */
	unsigned int running:1;
	unsigned int wake_pending:1;	/* woken, not yet run */
	unsigned int held:1;		/* queued on cpu, but its group is
					   throttled there: not runnable */
	int cpu;		/* -1: not seen yet */
	unsigned int weight;
	int nr_allowed;
	int cls;		/* enum metrics_class */
	uint64_t wake_at;
	uint64_t since;		/* start of the current run or wait */
	uint64_t exec_ns;
	uint64_t pad[2];
	/* where it may run: its affinity, less where its group is throttled */
	uint64_t allowed[METRICS_MASK_WORDS];
	uint64_t affinity[METRICS_MASK_WORDS];	/* the workload's */
	uint64_t throttled[METRICS_MASK_WORDS];	/* CPUs its group is throttled on */
};

/* Per CPU, together for the same reason. */
struct metrics_cpu {
	uint64_t load;		/* actual: weights of runnable tasks */
	int curr;		/* pid running there (0: idle) */
	int need;		/* see struct metrics */
	int run;		/* the run of its load in metrics.run */
	int nr;			/* runnable workload tasks */
	int refused;		/* metrics.ep_seq of the episode its balance
				   was refused in (balance_refused()) */
};

/* A run of equal actual loads: a list entry that keeps its slot. */
struct metrics_run {
	uint64_t val;
	int end;		/* in metrics.sorted, exclusive */
	int prev, next;		/* slots, -1: none */
	int pad;
};

struct metrics_group {
	int nr_allowed;
	unsigned int weight;
	int count;
	uint64_t mask[METRICS_MASK_WORDS];
};

#define METRICS_CACHE 64		/* greedy placements kept */
#define METRICS_CACHE_GROUPS 8		/* of runnable sets of at most these groups */

struct metrics_cache {
	uint64_t hash;
	int nr_group;
	struct metrics_group group[METRICS_CACHE_GROUPS];
	uint64_t *loads;		/* the greedy loads, sorted */
};

/*
 * The first violation of an invariant: when it began, how long it lasted
 * (0: not known), the CPU it was seen on, the other CPU (where the
 * waiting task was queued, or where a migration went), the task's pid.
 */
struct metrics_violation {
	int seen;
	int cpu, cpu2, pid;
	uint64_t time_ns;
	uint64_t length_ns;
};

/*
 * Invariants checked online: Wasted Cores' (an idle CPU while a task that
 * may run there waits, for longer than a window: episodes of at least one
 * such CPU), starvation (a runnable workload task not run for longer than
 * a bound) and useless migrations (a waiting task moved to a CPU with more
 * runnable workload tasks than the one it leaves, both counted before the
 * move; not when it may no longer stay where it was).
 */
struct metrics_invariants {
	uint64_t window_ns, bound_ns;
	/*
	 * the window of an episode a fork began: the new task placed where
	 * it waits while a CPU it may use is idle (fork placement searches
	 * every domain at once, no balance interval to wait for)
	 */
	uint64_t fork_window_ns;
	/*
	 * the most an episode's window can grow by when the kernel refused
	 * an idle CPU's balance for an idle CPU before it in its group of
	 * the largest domain, which then went busy (balance_refused() in
	 * metrics.c): the window again, from the refusal; 0 with --window
	 * or when no group of that domain has two CPUs
	 */
	uint64_t refused_ns;
	uint64_t idle_count, idle_ns;
	uint64_t starved_count, starved_max_ns;
	uint64_t useless_count;
	struct metrics_violation idle_first, starved_first, useless_first;
};

struct metrics_bucket {
	uint64_t count;
	uint64_t max;			/* the largest sample in it */
};

/*
 * The state is kept so that each event costs O(1) for tasks allowed
 * everywhere (see metrics.c): the imbalance over the sorted greedy loads
 * g and actual loads a follows the entries that change, modulo 2^128 as
 * the integrals (exact). What events touch comes first.
 */
struct metrics {
	uint64_t last;			/* time integrated up to */
	unsigned __int128 imbalance;	/* Σ (g_i − a_i)², kept up to date */
	unsigned __int128 imbalance_int;	/* weight units² x ns */
	unsigned __int128 wc_int;		/* CPU x ns */
	int nr_cpus;
	int mask_words;			/* of allowed masks in use */
	struct metrics_task *task;	/* per pid */
	int nr_pids;
	int nr_rq;			/* runnable workload tasks */
	/*
	 * closed: every runnable task is allowed everywhere and weighs
	 * closed_w, so the greedy loads are n / C x closed_w and one more on
	 * closed_r = n % C CPUs; they are updated in place and the groups
	 * are not kept (they are one group).
	 */
	int closed, closed_r;
	unsigned int closed_w;
	int dirty_greedy;		/* groups changed, greedy not redone */
	/*
	 * Work conservation: an idle CPU c loses work when more waiting tasks
	 * could run there than are queued there: wait_full (waiting tasks
	 * allowed everywhere) > cpu[c].need (those queued on c and allowed
	 * there, minus the waiting tasks with a narrower mask allowed on c).
	 * by_need counts the idle CPUs by need (index need + need_cap).
	 */
	int wait_full;
	int wc_cpus;			/* idle CPUs a waiting task could use */
	int *by_need, need_cap;
	struct metrics_cpu *cpu;
	uint64_t *sorted;		/* the actual loads, ascending */
	uint64_t *greedy_sorted;	/* the greedy loads, ascending */
	struct metrics_run *run;	/* the runs of sorted, ascending */
	int run_head;
	int *run_free, nr_free;		/* unused slots */
	uint64_t wait_ns;			/* runqueue wait of workload tasks */
	uint64_t migrations[METRICS_NR_LEVELS];
	uint64_t nr_wakeups;
	uint64_t wakeup_max;
	int ep_on;			/* an idle-while-waiting episode */
	uint64_t ep_start;
	uint64_t ep_window;		/* its window */
	uint64_t fork_mark;		/* 1 + the time of the last fork that
					   left a CPU losing work; 0: none */
	int ep_fork;			/* the episode has the fork window */
	int ep_seq;			/* episodes begun */
	int ep_check;			/* CPUs refused in it: see
					   balance_refused() */
	uint64_t ep_ext;		/* the window that would give them */
	int *top_first;			/* per CPU: the first CPU of its group
					   in the largest sched domain */
	struct metrics_invariants inv;
	const struct topology *topo;
	/* the greedy placement when it has no closed form */
	struct metrics_group *group;	/* runnable tasks alike, greedy order */
	int nr_group, cap_group;
	uint64_t *greedy;		/* scratch: the reference placement */
	uint64_t *fresh;		/* scratch: new greedy loads, sorted */
	int *heap;			/* scratch: CPUs by greedy load */
	struct metrics_cache cache[METRICS_CACHE];
	struct metrics_bucket hist[METRICS_HIST_BUCKETS];	/* log-linear: 64 per octave */
};

struct metrics_result {
	double balance_score;		/* weight units², time average */
	double work_conservation;	/* fraction of all CPU time */
	uint64_t nr_wakeups;
	uint64_t wakeup_p50_ns, wakeup_p99_ns, wakeup_max_ns;
	uint64_t runqueue_wait_ns;	/* total over the workload's tasks */
	uint64_t migrations[METRICS_NR_LEVELS];
	double migrations_per_s[METRICS_NR_LEVELS];
	double fairness;		/* Jain's index, fair class; 1: < 2 tasks */
	int nr_fair;			/* tasks in the fairness index */
	struct metrics_invariants inv;
};

/*
 * The invariants' default window is the kernel's own reaction time on the
 * machine (metrics_window()): per CPU of the largest sched domain, 2 ms of
 * its longest balance interval, plus a tick (HZ=1000). The starvation
 * bound is fixed.
 */
#define METRICS_WINDOW_PER_CPU_NS 2000000ULL
#define METRICS_TICK_NS 1000000ULL
/*
 * An episode a fork began has no balance interval to wait for (see
 * episode() in metrics.c): it keeps the window all episodes had before,
 * four ticks, which the bug catalogue's fork_affinity was shown with.
 */
#define METRICS_FORK_WINDOW_NS (4 * METRICS_TICK_NS)
#define METRICS_STARVATION_NS 1000000000ULL

/**
 * metrics_window() - the idle-while-waiting window of a machine
 * @topo: the machine
 *
 * An idle CPU beside a waiting task it may run is the load balancer's to
 * fix, and the kernel gives it this long (sd_init(), sched_balance_domains(),
 * nohz_balancer_kick()): an idle CPU balances each domain once per
 * sd->balance_interval, which starts at the domain's weight in ms and
 * doubles after failed balances up to max_interval, twice the weight; the
 * largest domain spans every CPU. A CPU in tickless idle is balanced by
 * another idle CPU that a busy CPU kicks at its tick once the interval has
 * passed (a tick more), and the task starts there after two exits from an
 * idle state (the kicked CPU's and its own). Shorter episodes are the
 * balancer's ordinary reaction time: newidle balance is skipped when the
 * CPU's average idle is shorter than its cost, and a task that ran in the
 * last 0.5 ms is cache hot.
 *
 * Return: 2 ms per CPU, a tick, and twice the deepest idle state's exit
 * latency, in ns.
 */
uint64_t metrics_window(const struct topology *topo);

/* CFS weight of a nice level (-20..19), as the kernel's table. */
unsigned int metrics_nice_weight(int nice);

int metrics_init(struct metrics *m, const struct topology *topo);
/*
 * The invariants' window, of every episode, and starvation bound (0: keep
 * the defaults).
 */
void metrics_limits(struct metrics *m, uint64_t window_ns, uint64_t bound_ns);
/* A workload task: nr_allowed 0 means every CPU. */
void metrics_task(struct metrics *m, uint64_t now, int pid, int cls,
		  unsigned int weight, int nr_allowed, const int *allowed);
void metrics_affinity(struct metrics *m, uint64_t now, int pid,
		      int nr_allowed, const int *allowed);
void metrics_weight(struct metrics *m, uint64_t now, int pid,
		    unsigned int weight);
void metrics_event(struct metrics *m, uint64_t now, int kind, int cpu,
		   int pid, int arg, long state);
/* Integrate up to now (metrics_event does it too). */
void metrics_advance(struct metrics *m, uint64_t now);
void metrics_finish(struct metrics *m, uint64_t now,
		    struct metrics_result *out);
void metrics_release(struct metrics *m);

/*
 * Writing a result's "metrics" and "invariants" (metrics/json.c): the one
 * writer of the simulator's --json and of `linsched score`. What the
 * scores do not hold comes from the caller.
 */
struct cJSON;

struct metrics_json_run {
	double energy_j, mean_power_w;	/* power/'s */
	double work_ns;			/* run work done by the workload's tasks */
	uint64_t duration_ns;		/* for the throughput */
	uint64_t kernel_warnings;
	/* the workload task's name of a pid (NULL: none), or no callback */
	const char *(*task_name)(const void *ctx, int pid);
	/* the pid to write for a pid of the scores; NULL: the same */
	int (*task_pid)(const void *ctx, int pid);
	const void *ctx;
};

/* Add "metrics" to @root. */
void metrics_json(struct cJSON *root, const struct metrics_result *mr,
		  const struct metrics_json_run *run);
/* Add "invariants" to @root. */
void metrics_invariants_json(struct cJSON *root,
			     const struct metrics_result *mr,
			     const struct metrics_json_run *run);

/*
 * The catalogue: every named metric of a result (metrics/catalogue.c), the
 * one place that says what a name means. The driver, Guile, the report,
 * the trend and the help texts all read it.
 */

/* How a metric whose value is a JSON object becomes one number. */
enum metric_reduce {
	METRIC_NUMBER,		/* the value is a number */
	METRIC_SUM,		/* an object of numbers: their sum */
	METRIC_KEY,		/* an object: its member named by ->key */
};

struct metric_def {
	const char *name;	/* as --metric takes it, under "metrics"/"power" */
	const char *unit;	/* "" when it has none */
	int higher_is_better;
	double floor;		/* changes are percent of max(|old|, floor) */
	enum metric_reduce reduce;
	const char *key;	/* METRIC_KEY's member */
	int reported;		/* one of the report's columns */
	const char *doc;	/* one line, for --help */
	const char *variant;	/* the build variant whose results have it
				 * (--instrument); NULL: every build's */
};

/* The catalogue, in the report's order first; *@n receives its length. */
const struct metric_def *metric_catalogue(size_t *n);

/**
 * metric_find() - the catalogue's entry of a metric name
 * @name: a name as --metric takes it: a catalogued name, or a dotted path
 *	into the result ("wakeup_latency_ns.p50", "idle_residency.0.C6"),
 *	with or without the root it is under ("metrics.fairness")
 *
 * Return: the entry of @name, or of its first component when @name is a
 * path below a catalogued metric; NULL for other names.
 */
const struct metric_def *metric_find(const char *name);

/*
 * Whether a larger value of @name is better: the catalogue's direction,
 * lower is better for names it does not hold.
 */
int metric_higher_is_better(const char *name);

/*
 * The floor of @name: a report takes its changes in percent of
 * max(|old|, floor); 0 for names the catalogue does not hold.
 */
double metric_floor(const char *name);

/**
 * metric_path() - the dotted path a metric's number is read at
 * @name: the name
 * @buf: receives @name, with ".KEY" appended for a METRIC_KEY metric
 *	("wakeup_latency_ns" → "wakeup_latency_ns.p99")
 * @len: its size
 *
 * Return: @buf.
 */
char *metric_path(const char *name, char *buf, size_t len);

struct cJSON;

/**
 * metric_value() - a metric of a result
 * @result: a run's result (the JSON `linsched run --json` writes)
 * @name: the metric: looked up under "metrics", then "power", then the
 *	top level; a dotted path goes down objects by key and arrays by
 *	index or by an element's "name" or "path" (tasks.ui.sum_exec_ns);
 *	an object reduces as the catalogue says
 * @out: receives the number
 *
 * Return: 0; -1 when the result has no such number (absent, not a
 * number, or an object the catalogue does not reduce).
 */
int metric_value(const struct cJSON *result, const char *name, double *out);

#endif
