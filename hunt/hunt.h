/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hunt - the search for scheduler bugs nobody has reported: random test
 * cases (rt-app workloads on machines), the judging of a case's results
 * into one verdict with a signature, and the reductions that shrink a
 * failing case by delta debugging. Pure functions of their inputs: no
 * clock, no process, no file; cmd/linsched-hunt.c runs the cases.
 */
#ifndef LSB_HUNT_H
#define LSB_HUNT_H

#include <stddef.h>

struct cJSON;
struct topology;

/**
 * struct hunt_case - one test case
 * @topology: the machine, as --topology takes it (a preset, a shape or
 *	a file), shorter than HUNT_TOPOLOGY_MAX
 * @nr_cpus: its CPU count
 * @duration_ns: simulated time
 * @seed: the simulator's seed it runs with (0: the simulator's own, 1)
 * @workload: the rt-app document (owned)
 */
#define HUNT_TOPOLOGY_MAX 1024	/* a machine's spec, a file's path too */
#define HUNT_SEEDS 4		/* a finding's minimal case runs on seeds 1-4 */

struct hunt_case {
	char topology[HUNT_TOPOLOGY_MAX];
	int nr_cpus;
	unsigned long long duration_ns;
	unsigned long long seed;
	struct cJSON *workload;
};

/**
 * struct hunt_space - what cases are drawn from
 * @topology: machines to draw from (preset names or shapes)
 * @nr_cpus: each one's CPU count
 * @ntopo: their number (at least one)
 * @duration_ns: every case's simulated time
 * @max_tasks: tasks per case at most (instances and forked children)
 * @seed: the hunt's seed
 */
struct hunt_space {
	const char *const *topology;
	const int *nr_cpus;
	size_t ntopo;
	unsigned long long duration_ns;
	int max_tasks;
	unsigned long long seed;
};

/*
 * The generator's version: a case is a function of the space, its index
 * and this; a change of what hunt_generate() draws changes it, and a hunt
 * on disk made by another version is not continued.
 */
#define HUNT_GENERATOR_VERSION 1

/**
 * hunt_generate() - the case of an index: a function of @s and @index only
 * @c: filled in; release with hunt_case_release()
 * @s: the space
 * @index: the case's number in the hunt
 *
 * Tasks of the suite's kinds (hogs, periodic, timers, random lengths, fork
 * storms, phase sequences moving between CPU sets) with random nice values,
 * policies, affinities, uclamp and slice requests; task groups with
 * weights, bandwidth, idle and uclamp; timed events (hotplug, group
 * writes). Every case is valid rt-app for the machine.
 *
 * Return: 0, or -1 when memory ran out.
 */
int hunt_generate(struct hunt_case *c, const struct hunt_space *s,
		  unsigned long long index);

void hunt_case_release(struct hunt_case *c);

/* A deep copy of @from into @to. Return 0, or -1 (memory). */
int hunt_case_copy(struct hunt_case *to, const struct hunt_case *from);

/**
 * hunt_case_text() - the case's workload as an rt-app file
 * @c: the case
 * @comment: a line put in a comment at the top (may be NULL)
 *
 * Return: malloc()ed text, NULL when memory ran out.
 */
char *hunt_case_text(const struct hunt_case *c, const char *comment);

/* The tasks a case starts: instances, and one per task it forks. */
int hunt_case_tasks(const struct hunt_case *c);

/**
 * enum hunt_check - what a case broke, in rising severity
 * @HUNT_CLEAN: nothing
 * @HUNT_USELESS: a waiting task moved to a busier CPU
 * @HUNT_ENERGY: the machine's energy far from the reference release's
 * @HUNT_ORACLE: a metamorphic relation broken: the case and its variant
 *	(--oracle, hunt_variant()) ran too differently (hunt_oracle())
 * @HUNT_CPU_TIME: a task's CPU time far from the reference release's
 * @HUNT_IDLE: an idle CPU beside a waiting task past the window
 * @HUNT_STARVED: a runnable task not run for longer than the bound
 * @HUNT_WARN: a kernel WARN
 * @HUNT_HUNG: the simulated machine hung, or the time limit passed
 * @HUNT_CRASHED: a BUG, panic or fatal signal in the kernel code
 */
enum hunt_check {
	HUNT_CLEAN,
	HUNT_USELESS,
	HUNT_ENERGY,
	HUNT_ORACLE,
	HUNT_CPU_TIME,
	HUNT_IDLE,
	HUNT_STARVED,
	HUNT_WARN,
	HUNT_HUNG,
	HUNT_CRASHED,
	HUNT_NR_CHECKS,
};

/* "clean", "useless-migration", "cpu-time", ... */
const char *hunt_check_name(int check);

/**
 * struct hunt_verdict - what one run of a case broke, the worst first
 * @check: the worst enum hunt_check
 * @signature: what identifies the failure across cases: the check, and
 *	for a WARN its site ("warn:kernel/sched/fair.c:5730"), for a crash
 *	the kernel's first words (without a work build's "kernel path:
 *	...": a signature is the same in every build variant)
 * @magnitude: how much: violations, WARNs, the largest relative change
 * @detail: one line for a person
 * @task: the task it shows in most ("" when none stands out): the
 *	first violation's, or the one whose CPU time changed most
 * @broken: the checks broken, a bit per enum hunt_check
 * @signature_of: each broken check's signature
 */
struct hunt_verdict {
	int check;
	char signature[160];
	double magnitude;
	char detail[320];
	char task[64];
	unsigned broken;
	char signature_of[HUNT_NR_CHECKS][160];
};

/**
 * hunt_judge() - the verdict of a run
 * @v: filled in
 * @status: the driver's status (DRIVER_OK, DRIVER_CRASHED, DRIVER_HUNG)
 * @reason: for a crash or hang, the kernel's words (may be NULL)
 * @json: for DRIVER_OK, the simulator's results
 * @machine: the case's machine: an idle CPU beside a waiting task is
 *	signed with the lowest level spanning both CPUs
 *	("idle-while-waiting:numa"); NULL: not signed so
 * @idle_windows: an idle CPU beside a waiting task counts when it lasted
 *	this many windows in all (the kernel's reaction time: a correct
 *	kernel's slow reactions are not reported)
 *
 * Return: 0, or -1 when @json does not parse.
 */
int hunt_judge(struct hunt_verdict *v, int status, const char *reason,
	       const char *json, const struct topology *machine,
	       double idle_windows);

/**
 * hunt_differ() - the novelty of a verdict against the reference's run
 *	of the same case
 * @v: the revision's verdict; its worst check becomes the worst one the
 *	reference did not break, or a change of a task's CPU time or of
 *	the energy
 * @ref: the reference's verdict
 * @json: the revision's results (NULL when it did not run to the end)
 * @ref_json: the reference's (NULL likewise)
 * @tolerance: a task's CPU time may change by this fraction (and 5 ms),
 *	the energy by this fraction, before it counts
 *
 * Return: the check @v keeps (HUNT_CLEAN: nothing new).
 */
int hunt_differ(struct hunt_verdict *v, const struct hunt_verdict *ref,
		const char *json, const char *ref_json, double tolerance);

/**
 * enum hunt_oracle_kind - the metamorphic relations: a variant of a case
 *	that a correct scheduler must run alike
 * @HUNT_ORACLE_NONE: none
 * @HUNT_ORACLE_WEIGHTS: every task group's cpu.weight doubled: a group's
 *	weight counts only against its siblings', so no task's work moves
 * @HUNT_ORACLE_ORDER: the tasks defined in the reverse order (they are
 *	created, numbered and placed in another order): the work all tasks
 *	did together moves no further than noise
 * @HUNT_ORACLE_GROW: one more core in every package of a shape PxCxT
 *	(each CPU the case names keeps its place: the case's CPU numbers
 *	are renumbered): the tasks do no less work together
 * @HUNT_ORACLE_RENUMBER: a shape PxCxT's packages and cores numbered
 *	backwards, the case's CPU numbers renumbered alike (the same
 *	machine, each task where it was): the work all tasks did together
 *	moves no further than noise
 */
enum hunt_oracle_kind {
	HUNT_ORACLE_NONE,
	HUNT_ORACLE_WEIGHTS,
	HUNT_ORACLE_ORDER,
	HUNT_ORACLE_GROW,
	HUNT_ORACLE_RENUMBER,
	HUNT_NR_ORACLES,
};

#define HUNT_WEIGHTS_FACTOR 2

/* "weights", "order", "grow", "renumber" ("" for none); NULL beyond */
const char *hunt_oracle_name(int kind);

/* How oracle @kind's variant differs: "with the tasks in the reverse order" */
const char *hunt_oracle_with(int kind);

/* What a correct scheduler does with it: "the tasks' work together ..." */
const char *hunt_oracle_relation(int kind);

/* The kind of an oracle's name, -1 when no oracle has it. */
int hunt_oracle_parse(const char *name);

/**
 * hunt_variant() - the variant of @c that the oracle @kind runs beside it
 * @out: receives it (release with hunt_case_release())
 * @c: the case
 * @kind: an enum hunt_oracle_kind
 *
 * "weights" sets every group's cpu.weight in "lsb-taskgroups" (a group
 * without one gets the default 100's multiple) and in the group writes of
 * "lsb-events" to HUNT_WEIGHTS_FACTOR times its own. The relation holds
 * only when the groups are all the CPU time's claimants: every task
 * (forked templates too) in a group, every group a child of the root;
 * and only when every weight scales: no idle group, no weight set
 * another way (cpu.weight.nice, cpu.shares), none that would leave
 * 1..10000. "order" applies to a case of two task definitions or more
 * without random lengths (the simulator's draws follow a task's index);
 * "grow" to a case on a shape PxCxT, its CPU lists (tasks', phases',
 * events', cpusets') renumbered onto Px(C+1)xT; "renumber" to a case on
 * a shape of more than one core, its CPU lists renumbered onto the same
 * shape numbered backwards (package p is P-1-p, its core c is C-1-c).
 *
 * Return: 1 with @out set, 0 when the relation does not apply to @c, -1
 * when memory ran out.
 */
int hunt_variant(struct hunt_case *out, const struct hunt_case *c, int kind);

/**
 * hunt_oracle() - the oracle's verdict on a case and its variant
 * @v: the case's verdict; HUNT_ORACLE is marked broken ("oracle:KIND")
 *	when the relation does not hold: for "weights" a task's work differs
 *	between the two runs past @tolerance (and 5 ms), as hunt_differ()'s
 *	cpu-time; for "order" the tasks' work together differs so; for
 *	"grow" it is less so with the core added; and for every kind when
 *	the variant crashed or hung
 * @kind: the enum hunt_oracle_kind that made the variant
 * @json: the case's results
 * @variant_json: the variant's (NULL when it did not run to the end)
 * @variant: the variant's own verdict
 * @tolerance: as hunt_differ()'s
 *
 * Return: 1 when the relation is broken, 0 when it holds, -1 when a
 * result does not parse.
 */
int hunt_oracle(struct hunt_verdict *v, int kind, const char *json,
		const char *variant_json, const struct hunt_verdict *variant,
		double tolerance);

/**
 * hunt_reduce() - the @k-th smaller case of @c, for delta debugging
 * @out: receives it (release with hunt_case_release())
 * @c: the case
 * @k: 0, 1, ...: from coarse to fine: drop a task, an event, a task
 *	group, halve the duration, fewer instances, drop a phase or a
 *	task's affinity, nice, policy, group, uclamp, slice or delay, fewer
 *	CPUs (a shape's packages, cores, threads), rounder numbers
 *
 * Return: 1 with @out set, 0 when @c has fewer reductions than @k + 1,
 * -1 when memory ran out.
 */
int hunt_reduce(struct hunt_case *out, const struct hunt_case *c, int k);

/*
 * The key of the results' "invariants" that a check of theirs reads
 * ("starvation" for HUNT_STARVED, "idle_while_waiting", and
 * "useless_migrations"), NULL for the other checks.
 */
const char *hunt_invariant_key(int check);

/**
 * hunt_first_violation() - the results' first violation of a check
 * @json: the simulator's results
 * @check: an enum hunt_check of the invariants (HUNT_IDLE, HUNT_STARVED,
 *	HUNT_USELESS)
 *
 * Return: a malloc()ed copy of its "first" object, printed, or NULL.
 */
char *hunt_first_violation(const char *json, int check);

/**
 * hunt_kernel_path() - the kernel functions a WARN or a crash came in, as
 *	a run of a work build (linsched run --instrument work) says them
 * @check: the run's worst enum hunt_check: HUNT_WARN or HUNT_CRASHED
 * @reason: for a crash, the kernel's words (its "kernel path: a <- b"
 *	among them); may be NULL
 * @json: for a WARN, the run's results ("kernel_warning_first"'s
 *	"path"); may be NULL
 *
 * Return: a new cJSON array of the names, innermost first, or NULL when
 * the run names none (another check, a plain build, no memory).
 */
struct cJSON *hunt_kernel_path(int check, const char *reason,
			       const char *json);

/* A signature as a file name: [a-z0-9.-] and '_' for the rest. */
void hunt_signature_file(char *out, size_t len, const char *signature);

#endif
