/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim - the linsched runtime: a deterministic discrete-event machine that
 * runs a kernel revision's own scheduler.
 *
 * Linked into each revision's simulator executable together with that
 * revision's kernel objects; it talks to them only through the door
 * (adapters/arch/linsched/include/uapi/asm/door.h).
 */
#ifndef LSB_SIM_H
#define LSB_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "metrics/metrics.h"
#include "power/power.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

/* Exit statuses of a simulator process, read by the driver. */
enum sim_exit {
	SIM_EXIT_OK = 0,
	SIM_EXIT_USAGE = 2,
	SIM_EXIT_PANIC = 70,	/* kernel BUG() or panic() */
	SIM_EXIT_WARN = 71,	/* WARN with --fatal-warnings */
	SIM_EXIT_HANG = 72,	/* simulated machine stopped making progress */
};

struct sim_tracedat;

struct sim_config {
	const struct topology *topo;
	const struct workload *wl;
	uint64_t duration_ns;
	uint64_t seed;
	FILE *trace;		/* ftrace text, or NULL */
	/* with trace: its events kept for trace.dat, written at the end */
	struct sim_tracedat *trace_dat;
	unsigned int trace_events;	/* with trace: SIM_TRACE_* */
	FILE *log;		/* kernel log, or NULL */
	int fatal_warnings;
	int domains;		/* print the sched domains after boot, exit */
	int metrics;		/* score the run (metrics/); costs time */
	int governor;		/* enum sim_governor */
	int energy_model;	/* register the OPPs as the kernel's EM */
	int idle;		/* enum sim_idle: who picks idle states */
	const char *idle_governor;	/* with SIM_IDLE_KERNEL: "menu",
					   "teo" or "ladder"; NULL: the
					   revision's default */
	uint64_t window_ns;	/* the invariants' window (0: default) */
	uint64_t starvation_ns;	/* and starvation bound (0: default) */
	double jitter;		/* each run event's work times 1 + jitter x
				   uniform(-1, 1] (the task's own draws);
				   0: exact, and nothing drawn */
};

/* Who sets CPU frequencies (CPU types with OPPs; others run fixed). */
/* Who picks the idle state of an idle CPU (--cpuidle). */
enum sim_idle {
	SIM_IDLE_KERNEL,	/* the revision's cpuidle governor, through
				   the arch's driver (default) */
	SIM_IDLE_POLL,		/* none: idle CPUs poll, no idle states, no
				   exit latency (accounted in state 0) */
	SIM_IDLE_SIM,		/* sim/idle.c's model of menu, for trees
				   without drivers/cpuidle/ */
};

enum sim_governor {
	SIM_GOV_SCHEDUTIL,	/* the revision's own schedutil */
	SIM_GOV_PERFORMANCE,	/* the highest OPP, always */
	SIM_GOV_POWERSAVE,	/* the lowest OPP, always */
};

struct sim_cpu_result {
	uint64_t busy_ns;
	uint64_t idle_ns;
	uint64_t offline_ns;	/* taken offline (lsb-events) */
};

struct sim_task_result {
	char name[WORKLOAD_NAME_MAX];
	int pid;
	int cpu;
	uint64_t sum_exec_ns;
	uint64_t nr_migrations;
	uint64_t nr_switches;
	uint64_t nr_voluntary;
	uint64_t nr_involuntary;
	uint64_t run_work_ns;	/* run work done, ns at capacity 1024 */
	int locks;		/* the workload has mutexes: the two below */
	uint64_t lock_wait_ns;	/* time spent waiting for mutexes */
	uint64_t lock_wait_max_ns;	/* the longest single wait */
	int group;		/* its taskgroup at the end: 1 + index in the
				   workload's groups, 0: never moved */
};

/* What the kernel charged and limited a task group (its cpu.stat). */
struct sim_group_result {
	const char *path;	/* the workload's */
	uint64_t usage_ns;	/* CPU time, its descendants' included */
	uint64_t nr_periods;	/* bandwidth periods it was active in */
	uint64_t nr_throttled;	/* periods it ran out of quota in */
	uint64_t throttled_ns;	/* time its runqueues were throttled */
};

/*
 * A timed event of the workload (lsb-events), or the cpusets at boot, and
 * what came of it. Every event of the workload has one, in its order,
 * done or not.
 */
struct sim_sysevent_result {
	uint64_t time_ns;	/* done: when init carried it out; begun
				   but not finished: when init began it */
	int timed;		/* an lsb-event: @planned_ns is its time */
	uint64_t planned_ns;
	int done;		/* init carried it out (the kernel may
				   have refused it: @status) */
	int begun;		/* not done, but init was carrying it out */
	char what[WORKLOAD_GROUP_PATH_MAX + 160];	/* "cpu 3 offline" */
	char status[96];	/* "ok", or why not, or why not done */
	char *domains;		/* after a CPU or cpuset change: the sched
				   domains the kernel built (lk_domains) */
};

/*
 * The kernel's own work, in a build instrumented with
 * -finstrument-functions (linsched run --instrument work): function
 * entries in the kernel objects, counted from the first event; an
 * interrupt's count includes the softirqs run at its exit.
 */
struct sim_kernel_work {
	uint64_t boot_calls;	/* during lk_boot() and init's first run */
	uint64_t calls;		/* from then to the end */
	uint64_t irqs;		/* interrupts delivered */
	uint64_t irq_calls;	/* of @calls, inside them */
	uint64_t max_irq_calls;	/* the worst single interrupt */
	uint64_t max_irq_time_ns;
	int max_irq_cpu;
	int max_irq_kind;	/* enum linsched_irq */
};

/*
 * When the revision's governor picks, its cpuidle core's own view of a
 * CPU's idle at the end (its cpuidle_device's states_usage[]): entries,
 * time, and how often a state was too deep (above: the CPU woke before
 * its target residency) or too shallow (below: a deeper one would have
 * fit); and its idle entries that left the tick stopped or running.
 */
struct sim_idle_usage {
	char name[16];
	uint64_t usage;
	uint64_t time_ns;
	uint64_t above;
	uint64_t below;
};

struct sim_cpuidle_result {
	int nr_states;		/* 0: no driver on this CPU */
	struct sim_idle_usage state[TOPOLOGY_MAX_STATES];
	uint64_t tick_stopped;
	uint64_t tick_kept;
};

/* "tick", "hrtimer", ... for an enum linsched_irq */
const char *sim_irq_name(int kind);

/*
 * A kernel call path (a work build's, sim/path.c): its frames at most,
 * innermost first, and the room for a function's name.
 */
#define SIM_PATH_MAX	8
#define SIM_PATH_NAME	64

struct sim_result {
	const char *kernel_version;
	const char *preempt;		/* the build's model: lk_preempt_model() */
	int nr_cpus;
	struct sim_cpu_result *cpus;	/* nr_cpus entries */
	int nr_tasks;
	struct sim_task_result *tasks;	/* nr_tasks entries */
	unsigned int warnings;
	char warning_first[512];	/* the first WARN's line, "" if none */
	uint64_t warning_first_ns;	/* when it came */
	/*
	 * in a work build, the kernel functions it was in, innermost
	 * first, separated by spaces (at most SIM_PATH_MAX); "" otherwise
	 */
	char warning_first_path[SIM_PATH_MAX * SIM_PATH_NAME];
	uint64_t events;
	struct metrics_result metrics;	/* scores of the workload's tasks */
	struct power_result power;	/* idle, frequency and energy */
	int nr_groups;			/* the workload's, but "/" */
	struct sim_group_result *groups;
	int nr_sysevents;
	struct sim_sysevent_result *sysevents;
	struct sim_kernel_work work;	/* all zero in a plain build */
	const char *cpuidle_governor;	/* the revision's governor that
					   picked, or NULL: none did */
	struct sim_cpuidle_result *cpuidle;	/* with it: nr_cpus entries */
};

/**
 * sim_run() - boot the kernel on the machine and run the workload
 * @cfg: what to run
 * @out: the results; release with sim_result_release()
 *
 * A kernel BUG()/panic() does not return: the process exits with
 * SIM_EXIT_PANIC after printing the kernel's message.
 *
 * Return: 0, or -1 on a bad configuration (message on stderr).
 */
int sim_run(const struct sim_config *cfg, struct sim_result *out);

void sim_result_release(struct sim_result *res);

/*
 * `linsched score`: the scores of a trace in ftrace's text format
 * (sim/score.c, linked into the host programs too). The simulator's own
 * --trace carries lines of ours (lsb_task, lsb_affinity, lsb_weight,
 * lsb_prev_blocked, lsb_cpu_offline/online, lsb_end) with which its
 * scores come out as its --json's. A real kernel's trace has none: then
 * the workload's tasks are those whose comm is a task's name of @wl
 * ("hog", "hog-3", cut to 15 bytes as the kernel keeps it), or without
 * @wl every task but the idle tasks, kernel threads (swapper/N,
 * migration/N, ksoftirqd/N, kworker/..., rcu_*, cpuhp/N, idle_inject/N,
 * irq/..., kthreadd, ...), init, rt-app's main thread, trace-cmd and the
 * shell (bash, sh, sleep, cat, timeout); a task's class and weight come
 * from its prio (below 100 or -1: RT, counted as 1024; 100..139: nice
 * prio - 120), its CPUs from @wl's "cpus", else all; the scores cover
 * the first to the last event of the workload's tasks (with @wl), else
 * of the trace.
 */
#define SIM_SCORE_IO 1		/* cannot read the trace */
#define SIM_SCORE_BAD 2		/* a malformed trace */

struct sim_score_opts {
	const struct topology *topo;
	const struct workload *wl;	/* NULL: none */
	uint64_t window_ns, starvation_ns;	/* 0: the defaults */
};

struct sim_score_task {
	char name[64];		/* the workload's name, or the comm */
	int pid;		/* the trace's */
	int id;			/* the scores' */
	int group;		/* 1 + index in the workload's groups; 0: root */
	uint64_t cpu_ns;	/* run time, from the switches */
	int gaps;		/* switches around it with events missing */
};

struct sim_score {
	int ours;			/* a simulation's own trace */
	uint64_t start_ns;		/* in the trace's time */
	uint64_t duration_ns;		/* scored from start_ns */
	struct metrics_result metrics;
	struct power_result power;
	struct metrics_json_run run;	/* for metrics_json() */
	int nr_tasks;
	struct sim_score_task *tasks;	/* the workload's, first seen first */
	int nr_ids, *ids, *id_pids;	/* the scores' pids to the trace's */
	/*
	 * Switches whose prev was not the task the trace had put on that CPU:
	 * events are missing (a real kernel drops some, as a container's
	 * tracefs does those of tasks outside it); the CPU times of the tasks
	 * involved are bounds, not measures.
	 */
	int gaps;
	uint64_t first_gap_ns;		/* in the trace's time */
};

/**
 * sim_score_trace() - score a trace
 * @f: the trace, read to its end
 * @path: its name, for messages
 * @o: the machine, the workload and the invariants' limits
 * @out: the scores; release with sim_score_release()
 * @err: receives "trace 'PATH': line N: ..." or why else it failed
 * @errlen: its size
 *
 * Return: 0, SIM_SCORE_BAD for a malformed trace or one without
 * scheduler events, SIM_SCORE_IO when it cannot be read.
 */
int sim_score_trace(FILE *f, const char *path,
		    const struct sim_score_opts *o, struct sim_score *out,
		    char *err, size_t errlen);
void sim_score_release(struct sim_score *s);

/*
 * The option values of linsched-sim (sim/options.c, linked into the host
 * programs too): the commands check them with these before any build.
 */

/* What a bad --duration, --governor or --cpuidle is told it should be. */
#define SIM_DURATION_EXPECTED \
	"expected a positive duration such as 10s, 500ms or 2 (seconds)"
#define SIM_GOVERNOR_EXPECTED "expected schedutil, performance or powersave"
#define SIM_CPUIDLE_EXPECTED \
	"expected menu, teo, ladder (the revision's governors), poll or sim"
#define SIM_SEED_EXPECTED \
	"expected a decimal integer from 0 to 18446744073709551615"
/* holds a '%': print it with "%s", never as part of a format */
#define SIM_JITTER_EXPECTED \
	"expected a fraction 0-0.5 or a percentage 0-50%"
#define SIM_JITTER_MAX 0.5

/**
 * sim_parse_duration() - a duration of the command line: "10ms", "2s",
 *	"500us", "100ns", or a bare number of seconds ("10", "0.5"), as
 *	rt-app's global.duration
 * @out: nanoseconds
 * @s: the text
 *
 * Workload specs keep their own units (workload_parse_duration(): a bare
 * number there is nanoseconds).
 *
 * Return: 0, or -1 when @s is not a positive decimal duration ("0x10",
 * "inf" and " 1" are not) below 570 years (WORKLOAD_DURATION_LIMIT_NS).
 */
int sim_parse_duration(uint64_t *out, const char *s);

/**
 * sim_parse_seed() - a seed of the command line
 * @out: the seed
 * @s: decimal digits, 0 to 2^64 - 1 (no sign: "-1" is not 2^64 - 1; no
 *	"0x10")
 *
 * Return: 0, or -1 (@out untouched).
 */
int sim_parse_seed(uint64_t *out, const char *s);

/**
 * sim_parse_jitter() - a --jitter of the command line
 * @out: the fraction, 0 to SIM_JITTER_MAX
 * @s: a decimal fraction ("0.01", ".5", "0") or a decimal percentage
 *	("1%", "2.5%"), 0 to 0.5 or 0% to 50%, both inclusive; no sign, no
 *	exponent, no blank, no "0x10", "nan" or "inf". A percentage is read
 *	as its fraction's text would be ("1%" and "0.01" give one double)
 *
 * Return: 0, or -1 (@out untouched).
 */
int sim_parse_jitter(double *out, const char *s);

/*
 * The trace's optional events (--trace-events): off unless named, because
 * each fires about as often as all the others together (16 CPUs, 64
 * tasks: sched_stat_runtime at every update_curr(), nr_running at every
 * enqueue and dequeue, PELT at every update crossing a 1024 us period).
 */
#define SIM_TRACE_STAT_RUNTIME	(1u << 0)	/* sched_stat_runtime */
#define SIM_TRACE_NR_RUNNING	(1u << 1)	/* counter nr_running cpuN */
#define SIM_TRACE_PELT		(1u << 2)	/* counters util_avg, load_avg */
#define SIM_TRACE_EVENTS_EXPECTED \
	"a comma-separated list of sched_stat_runtime, nr_running, pelt, or all"

/**
 * sim_trace_event_bits() - the SIM_TRACE_* bits of one --trace-events name
 * @name: its first @len characters are the name (all: every bit)
 *
 * Return: the bits, or 0 for no such name.
 */
unsigned int sim_trace_event_bits(const char *name, size_t len);

/* --trace-format's values */
enum { SIM_TRACE_TEXT, SIM_TRACE_DAT };
#define SIM_TRACE_FORMAT_EXPECTED "text or dat"

/**
 * sim_parse_trace_format() - a --trace-format of the command line
 * @s: SIM_TRACE_FORMAT_EXPECTED
 *
 * Return: SIM_TRACE_TEXT or SIM_TRACE_DAT, or -1.
 */
int sim_parse_trace_format(const char *s);

/**
 * sim_parse_trace_events() - a --trace-events of the command line
 * @out: receives the SIM_TRACE_* bits
 * @s: SIM_TRACE_EVENTS_EXPECTED
 *
 * Return: 0, or -1 (@out untouched).
 */
int sim_parse_trace_events(unsigned int *out, const char *s);

/**
 * sim_parse_governor() - a frequency governor by name
 * @name: schedutil, performance or powersave
 *
 * Return: its enum sim_governor, or -1.
 */
int sim_parse_governor(const char *name);

/**
 * sim_parse_cpuidle() - who picks idle states, by --cpuidle's name
 * @name: menu, teo or ladder (the revision's own cpuidle governor,
 *        through the arch's driver; "kernel:menu"... is the same), poll,
 *        or sim (sim/idle.c's model)
 * @governor: set to the governor's name with SIM_IDLE_KERNEL, else NULL
 *
 * Return: its enum sim_idle, or -1.
 */
int sim_parse_cpuidle(const char *name, const char **governor);

/**
 * sim_cpuidle_key() - the canonical name of a --cpuidle choice
 * @name: --cpuidle's argument, or NULL for the default
 *
 * Return: "kernel" (the revision's default governor), its governor's
 * name, "poll" or "sim"; NULL if @name is not one sim_parse_cpuidle()
 * takes. For result keys: two spellings of one choice give one key.
 */
const char *sim_cpuidle_key(const char *name);

#endif
