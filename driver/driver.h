/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * driver - from a revision name to a simulator run: resolve it in a
 * repository (bisect/), export its build subset, build it (adapters/),
 * and run its simulator executable as a child process with a time limit,
 * so that a crash or hang is that revision's result.
 */
#ifndef LSB_DRIVER_H
#define LSB_DRIVER_H

#include <signal.h>
#include <stddef.h>

/**
 * struct driver_paths - where things are
 * @share_dir: the installed data (arch overlay, config, runtime library)
 * @data_dir: the output directory: cache/, kernels.git, results
 * @cache_dir: @data_dir/cache unless overridden
 * @repo: the default kernel repository (@data_dir/kernels.git)
 * @variant: the builds' enum adapter_variant (LSBISECT_INSTRUMENT: work,
 *	coverage; plain when unset): builds and results of each are their own;
 *	a coverage build's results keep their gcov counts too
 *	(driver_coverage_dir())
 * @reuse: build a revision from a neighbour's objects where it can
 *	(adapter_build_reuse(); LSBISECT_REUSE=0 turns it off: every build is
 *	a full kbuild, for comparisons); never for coverage builds
 */
struct driver_paths {
	char share_dir[4096];
	char data_dir[4096];
	char cache_dir[4096];
	char repo[4096];
	int variant;
	int reuse;
};

/**
 * driver_paths_init() - find the data beside the running executable
 * @out: filled in; LSBISECT_CACHE and LSBISECT_REPO override the defaults,
 *	LSBISECT_INSTRUMENT chooses the build variant
 *
 * Running from a build tree (build/bin), the output directory is build/;
 * installed, it is $XDG_CACHE_HOME/lsbisect (~/.cache/lsbisect).
 *
 * Return: 0, or -1 with driver_last_error() set.
 */
int driver_paths_init(struct driver_paths *out);

/* The name of @paths' build variant: "plain", "work" or "coverage". */
const char *driver_variant_name(const struct driver_paths *paths);

/**
 * enum driver_status - what became of a revision
 * @DRIVER_OK: built and ran to the end
 * @DRIVER_ERROR: a usage or environment error (not the revision's fault)
 * @DRIVER_USAGE: the simulator refused what it was asked (its status
 *	SIM_EXIT_USAGE): a machine larger than the build's NR_CPUS, tasks the
 *	kernel refuses (SCHED_DEADLINE admission), a bad option value; not the
 *	revision's fault, never cached. The message is the simulator's own
 *	(without its "error: "), which driver_run() has not passed to
 *	standard error: the caller says it
 * @DRIVER_BUILD_FAILED: the revision does not build
 * @DRIVER_CRASHED: the kernel hit BUG/panic or the process died of a fatal
 *	signal of its own (SEGV, BUS, FPE, ILL, ABRT, TRAP, SYS); killed by
 *	another signal (SIGKILL, SIGTERM, ...) from outside is DRIVER_ERROR
 * @DRIVER_HUNG: the simulated machine hung or the time limit passed
 * @DRIVER_UNSUPPORTED: no adapter covers the revision
 */
enum driver_status {
	DRIVER_OK = 0,
	DRIVER_ERROR = 1,
	DRIVER_USAGE = 2,
	DRIVER_BUILD_FAILED = 3,
	DRIVER_CRASHED = 4,
	DRIVER_HUNG = 5,
	DRIVER_UNSUPPORTED = 6,
};

/**
 * struct driver_revision - a revision made ready to run
 * @name: as the user wrote it
 * @commit: full hash
 * @subset: subset hash
 * @exe: the simulator executable (malloc()ed)
 */
struct driver_revision {
	char name[256];
	char commit[41];
	char subset[41];
	char *exe;
};

/**
 * driver_prepare() - resolve, export and build a revision
 * @out: filled in; release with driver_revision_release()
 * @paths: from driver_paths_init()
 * @repo: the repository path
 * @rev: the revision name
 * @jobs: parallel build jobs
 * @verbose: show kbuild's output
 *
 * Return: DRIVER_OK, DRIVER_ERROR, DRIVER_BUILD_FAILED or
 * DRIVER_UNSUPPORTED, with driver_last_error() set on failure.
 */
int driver_prepare(struct driver_revision *out,
		   const struct driver_paths *paths, const char *repo,
		   const char *rev, int jobs, int verbose);

void driver_revision_release(struct driver_revision *rev);

/**
 * driver_same_build() - whether a revision builds what a built one did
 * @paths: from driver_paths_init()
 * @repo: the repository
 * @built: a revision whose build is in the cache
 * @other: another revision
 *
 * Known without building @other: the files of the build subset it changes
 * from @built are files no target of @built's build read (kbuild's
 * records), so its simulator is @built's, and so is every result. Two
 * revisions with one subset build the same too.
 *
 * Return: 1 when they build the same; 0 when not, or when it is not known
 * (@built not built, too many changes, a repository error).
 */
int driver_same_build(const struct driver_paths *paths, const char *repo,
		      const char *built, const char *other);

/**
 * driver_build_reads() - which of some files the build of a subset read
 * @paths: from driver_paths_init()
 * @subset: the subset hash of a built revision
 * @files, @n: paths relative to the top of the tree
 * @read: receives 1 per file the build read (or that shapes every
 *	build: Makefiles, Kconfig, scripts/), 0 per file it did not
 *
 * Return: 0, or -1 when that build is not in the cache (or predates
 * kbuild's records being kept): nothing is known.
 */
int driver_build_reads(const struct driver_paths *paths, const char *subset,
		       char *const *files, size_t n, int *read);

/**
 * driver_sim_identity() - the arguments every simulator run starts with
 * @argv: receives DRIVER_SIM_IDENTITY entries: @rev's executable, then
 *	--revision, --commit, --subset and --tool-version (this build's
 *	version) with their values, which the results record
 * @rev: the prepared revision
 *
 * The caller appends the run's own options and the terminating NULL.
 *
 * Return: the number of entries written, DRIVER_SIM_IDENTITY.
 */
#define DRIVER_SIM_IDENTITY 9
int driver_sim_identity(char **argv, const struct driver_revision *rev);

/**
 * driver_run() - run a simulator executable with a time limit
 * @exe: the executable
 * @argv: its arguments, NULL-terminated, argv[0] included
 * @timeout_s: wall-clock limit in seconds (0: none)
 * @quiet: keep its standard error to itself; else it is copied to ours
 *	when it ends, but for its "error: " lines when driver_last_error()
 *	holds them (DRIVER_USAGE, DRIVER_ERROR): the caller says them once
 *
 * Its standard error is read through a pipe, so its words reach the
 * message even when no file can be written (a full disk). The child gets
 * SIGKILL when the calling process dies (PR_SET_PDEATHSIG), and SIGTERM
 * first when a signal stops it (lsb_cleanup_child()): a killed driver
 * leaves no simulator behind to write its files later.
 *
 * Return: DRIVER_OK, DRIVER_CRASHED, DRIVER_HUNG, DRIVER_USAGE (the
 * simulator refused its arguments) or DRIVER_ERROR (another failure of the
 * simulator process, its own error, e.g. an output it could not write, in
 * its words; or of starting it), with driver_last_error() describing a
 * failure.
 */
int driver_run(const char *exe, char *const argv[], int timeout_s, int quiet);

/**
 * struct driver_run_spec - what decides a run's result, besides the revision
 * @workload: a workload spec or an rt-app file
 * @topology: a preset, a shape or a JSON file
 * @duration: simulated time ("2s"); NULL for the simulator's default (an
 *	rt-app file's global.duration, else 10s)
 * @seed: the seed
 * @governor: "schedutil", "performance" or "powersave"; NULL: schedutil
 * @cpuidle: "menu" or "poll"; NULL: menu
 * @cmdline: boot parameters ("isolcpus=domain,3"), added to the
 *	topology's own; NULL: none
 * @jitter: each run event's work varied by up to this fraction ("0.01",
 *	"1%": sim_parse_jitter()); NULL: none, as "0"
 * @no_energy_model: keep the OPPs out of the kernel's energy model
 * @metrics: add the load-balance scores ("metrics")
 * @fatal_warnings: a kernel WARN ends the run as a crash
 * @timeout_s: wall-clock limit of the simulation (0: none); not part of
 *	the key, but a cached time-out is only trusted by a run whose limit
 *	is no longer than the one that timed out
 */
struct driver_run_spec {
	const char *workload;
	const char *topology;
	const char *duration;
	unsigned long long seed;
	const char *governor;
	const char *cpuidle;
	const char *cmdline;
	const char *jitter;
	int no_energy_model;
	int metrics;
	int fatal_warnings;
	int timeout_s;
};

/**
 * struct driver_result - a revision's result for a run spec
 * @status: DRIVER_OK, or a skip: DRIVER_BUILD_FAILED, DRIVER_CRASHED,
 *	DRIVER_HUNG
 * @reason: for a skip, why (the compiler's or the kernel's first words)
 * @json: for DRIVER_OK, the simulator's JSON results (malloc()ed)
 * @commit: the revision's commit
 * @subset: its subset hash
 * @key: the result's cache key (40 hex digits; "" when not cached)
 * @from_cache: the result came from the cache: nothing was built or run
 * @built: this call built the revision (a relink does not count)
 * @removed_corrupt: a corrupt or partial cache entry was found, removed
 *	and recomputed
 */
struct driver_result {
	int status;
	char reason[2048];
	char *json;
	char commit[41];
	char subset[41];
	char key[41];
	int from_cache;
	int built;
	int removed_corrupt;
};

/**
 * driver_result() - a revision's result, from the result cache or by
 *	building and running it
 * @out: filled in; release with driver_result_release()
 * @paths: from driver_paths_init(); results live in @paths->cache_dir/results
 * @repo: the repository path
 * @rev: the revision name
 * @spec: the run
 * @jobs: parallel build jobs
 * @verbose: show kbuild's output
 *
 * Results are keyed by the SHA-1 of a text naming the subset hash, the
 * build key (adapter version and compiler, as the build directory is
 * named), the simulator runtime, the workload's content (the file's bytes
 * for a file, else the spec), the topology's content (its canonical JSON),
 * the duration in ns, the seed, the governor, the cpuidle governor, the
 * energy model, --metrics and --fatal-warnings, and only when given the
 * boot parameters and a nonzero jitter (as a number: "1%" is "0.01"), so
 * that the keys of runs without them stay. A build failure is cached
 * under the subset hash and the toolchain (the adapter's logic version and
 * files, the compiler), so it is found before anything is exported or
 * built. Skips (build failure, crash, hang or time-out) are results too,
 * with their reason.
 *
 * An entry is one file, results/XX/KEY: a header line "lsbisect-result 1
 * SHA1 LENGTH" and a JSON body holding the key text, the status, the
 * reason and the results; SHA1 is the git blob id of the body. It is
 * written to a temporary file, fsync()ed and renamed, so two processes may
 * share the cache; an entry whose header, length, checksum or key text
 * does not match is removed and recomputed, never trusted.
 *
 * Return: DRIVER_OK also for a skip (see @out->status); DRIVER_ERROR or
 * DRIVER_UNSUPPORTED (not cached) with driver_last_error() set.
 */
int driver_result(struct driver_result *out,
		  const struct driver_paths *paths, const char *repo,
		  const char *rev, const struct driver_run_spec *spec,
		  int jobs, int verbose);

/**
 * struct driver_target - a revision made ready for many results
 * @name: as the user wrote it
 * @commit: full hash
 * @subset: subset hash
 * @status: DRIVER_OK when it built, DRIVER_BUILD_FAILED when it does not
 * @reason: for a build failure, the compiler's first words
 * @build: the build key (the build directory's name)
 * @runtime: the simulator runtime's stamp
 * @exe: the simulator executable (malloc()ed; NULL for a build failure)
 * @version: the kernel release it was built from ("6.1.192"; "" for a
 *	build failure or when the build's tree cannot tell)
 * @failure_key: the cache key a build failure is kept under
 * @built: preparing it built the revision
 * @from_cache: a build failure known from a cache
 * @removed_corrupt: a corrupt cached build failure was removed
 * @libgit2: holds a libgit2 initialisation (internal)
 *
 * driver_result() resolves, hashes and checks the build of a revision on
 * every call; a command that asks for thousands of results of one revision
 * prepares it once and asks driver_target_result().
 */
struct driver_target {
	char name[256];
	char commit[41];
	char subset[41];
	int status;
	char reason[2048];
	char build[41];
	char runtime[41];
	char *exe;
	char version[32];
	char failure_key[41];
	int built;
	int from_cache;
	int removed_corrupt;
	int libgit2;
};

/**
 * driver_target_prepare() - resolve a revision and build it, or learn
 *	from the cache that it does not build
 * @t: filled in; release with driver_target_release(), also on failure
 * @paths: from driver_paths_init()
 * @repo: the repository path
 * @rev: the revision name
 * @jobs: parallel build jobs
 * @verbose: show kbuild's output
 *
 * A build failure is cached as driver_result() does and is not an error:
 * see @t->status.
 *
 * Return: DRIVER_OK, or DRIVER_ERROR or DRIVER_UNSUPPORTED with
 * driver_last_error() set.
 */
int driver_target_prepare(struct driver_target *t,
			  const struct driver_paths *paths, const char *repo,
			  const char *rev, int jobs, int verbose);

void driver_target_release(struct driver_target *t);

/* driver_target_result() with a cache-only @mode: no entry (not a status) */
#define DRIVER_NOT_CACHED 7

/**
 * enum driver_result_mode - what driver_target_result() may do
 * @DRIVER_RESULT_RUN: look in the cache, else build and run
 * @DRIVER_RESULT_LOOKUP: only look in the cache
 * @DRIVER_RESULT_CHECK: only check that the cache has a whole entry
 *	(corrupt ones are removed); @out->json is left NULL, which saves
 *	printing the results again
 */
enum driver_result_mode {
	DRIVER_RESULT_RUN,
	DRIVER_RESULT_LOOKUP,
	DRIVER_RESULT_CHECK,
};

/**
 * driver_target_result() - a prepared revision's result for a run spec
 * @out: filled in as by driver_result(); release with
 *	driver_result_release()
 * @paths: from driver_paths_init()
 * @t: from driver_target_prepare()
 * @spec: the run
 * @mode: an enum driver_result_mode
 *
 * Safe to call from several processes at once: each run writes its own
 * temporary files and the entry is renamed into place.
 *
 * When @paths->variant is ADAPTER_COVERAGE, the simulator runs with
 * --coverage CACHE/results/run.PID.HOST.coverage, which is renamed to
 * driver_coverage_dir() of the result's key after the run and before the
 * entry is written: a cached result has its counts (an empty directory
 * when the run was killed: a fatal signal, the time limit). An entry
 * whose counts directory is missing (removed by hand) counts as not
 * cached, and DRIVER_RESULT_RUN runs it again.
 *
 * Return: as driver_result(); DRIVER_NOT_CACHED when @mode is not
 * DRIVER_RESULT_RUN and the cache has no entry.
 */
int driver_target_result(struct driver_result *out,
			 const struct driver_paths *paths,
			 const struct driver_target *t,
			 const struct driver_run_spec *spec, int mode);

/**
 * driver_coverage_dir() - where a coverage build's result keeps its counts
 * @out: receives CACHE/coverage/KEY, which holds o/kernel/sched/NAME.gcda
 *	(and the other kernel objects' counts) of that one run
 * @len: its size
 * @paths: from driver_paths_init()
 * @key: the result's key (struct driver_result's @key)
 *
 * Return: 0, or -1 when the path is too long.
 */
int driver_coverage_dir(char *out, size_t len,
			const struct driver_paths *paths, const char *key);

/**
 * enum driver_unit_state - where a unit stands
 * @DRIVER_UNIT_TODO: not in the cache yet
 * @DRIVER_UNIT_CACHED: its result was in the cache already
 * @DRIVER_UNIT_RAN: computed now (a skip is a result too)
 * @DRIVER_UNIT_FAILED: an error stopped it (not the revision's fault)
 */
enum driver_unit_state {
	DRIVER_UNIT_TODO,
	DRIVER_UNIT_CACHED,
	DRIVER_UNIT_RAN,
	DRIVER_UNIT_FAILED,
};

/**
 * struct driver_unit - one result to make: a prepared revision and a run
 * @target: from driver_target_prepare()
 * @spec: the run; its strings must outlive driver_units_run()
 * @state: set by driver_units_run()
 * @status: set with DRIVER_UNIT_FAILED: the enum driver_status that
 *	stopped it; DRIVER_USAGE when the simulator refused the run spec
 */
struct driver_unit {
	const struct driver_target *target;
	struct driver_run_spec spec;
	int state;
	int status;
};

/**
 * typedef driver_progress_fn - told after each unit
 * @done: units with a result (cached ones included)
 * @total: all units
 * @ran: units computed by this call so far
 * @arg: as given to driver_units_run()
 */
typedef void (*driver_progress_fn)(size_t done, size_t total, size_t ran,
				   void *arg);

/**
 * struct driver_engine - where units run
 * @slurm: 0: a pool of child processes on this machine; 1: Slurm job
 *	arrays (the cache directory and the workload files must be on a
 *	file system every node sees)
 * @jobs: local: children at a time (< 1: one)
 * @partition: Slurm partition (NULL: the cluster's default)
 * @slurm_opt: more sbatch options, split at blanks (NULL: none)
 * @tasks: Slurm array tasks per submission (0: one per CPU the cluster
 *	has); each task runs its share of the units one after another
 * @retries: how often an array task that failed or vanished (node
 *	failure, scancel) is submitted again (< 0: 2)
 * @tool: the linsched executable the array tasks run ('linsched
 *	sweep-worker'); NULL: the running one (/proc/self/exe)
 * @stop: NULL, or a flag (a signal handler's) that, once nonzero, makes
 *	the Slurm engine cancel the jobs it submitted (scancel) and return
 *	(driver_slurm_array())
 * @resubmitted: set by driver_units_run(): Slurm array tasks submitted
 *	again after they failed or vanished
 * @task_total: set during a Slurm run, for a progress line: array tasks,
 * @task_pending: those waiting in the queue,
 * @task_running: those running,
 * @task_done: and those done
 */
struct driver_engine {
	int slurm;
	int jobs;
	const char *partition;
	const char *slurm_opt;
	int tasks;
	int retries;
	const char *tool;
	const volatile sig_atomic_t *stop;
	int resubmitted;
	int task_total, task_pending, task_running, task_done;
};

/**
 * driver_units_run() - put every unit's result into the result cache
 * @paths: from driver_paths_init()
 * @units: the units
 * @n: their number
 * @engine: where they run
 * @progress: called once after the cache was consulted, whenever units
 *	were computed and, with Slurm, after every look at the queue (see
 *	@engine's task counts); NULL for none
 * @arg: passed to @progress
 *
 * Units already in the cache are not run again; a unit is never counted
 * twice (the cache is keyed by content: a unit computed twice, e.g. by a
 * resubmitted array task, is one entry). Afterwards driver_target_result()
 * finds every unit that did not fail. A kernel crash or hang in a unit is
 * that unit's result, not a failure.
 *
 * Return: 0 when every unit has its result, the number of failed units
 * (driver_last_error() says how many and the first one's error), or -1
 * when the engine itself failed (no Slurm controller, nodes that cannot
 * write the cache, ...; driver_last_error() says which).
 */
int driver_units_run(const struct driver_paths *paths,
		     struct driver_unit *units, size_t n,
		     struct driver_engine *engine,
		     driver_progress_fn progress, void *arg);

/**
 * driver_engine_set() - set an engine option from the command line
 * @e: the engine (zeroed, @jobs and @retries set, before the first call)
 * @key: "engine" (local or slurm), "jobs", "partition", "slurm-opt",
 *	"slurm-tasks" or "slurm-retries"
 * @value: the option's value; kept, not copied
 *
 * Return: 0, or -1 with driver_last_error() saying what was expected.
 */
int driver_engine_set(struct driver_engine *e, const char *key,
		      const char *value);

/**
 * driver_slurm_tasks() - ask the Slurm controller, and how many array
 *	tasks to submit
 * @e: the engine: its @tasks, else one task per CPU the cluster (or
 *	@partition) has
 * @n: the units there are to share out (at most that many tasks)
 *
 * Return: the number of tasks (1 to 1000), or -1 with driver_last_error()
 * set when no controller answers.
 */
int driver_slurm_tasks(const struct driver_engine *e, size_t n);

/**
 * struct driver_array - a command's own work as one Slurm job array
 * @dir: a directory every node sees and can write, made by the caller:
 *	the scripts, the tasks' output and their markers go there
 * @worker: the command the tasks run: 'TOOL WORKER DIR TASK' runs array
 *	task TASK's share and writes DIR/task-TASK.done last;
 *	'TOOL WORKER --probe DIR 0' writes DIR/probe.ok when that node can
 *	do the work ("sweep-worker", "hunt-worker")
 * @name: the jobs' name ("lsbisect-sweep")
 * @shared: what the nodes must see and write, as the probe's error names
 *	it ("the cache directory '/x'")
 * @ntasks: array tasks (from driver_slurm_tasks())
 * @size: units per task, for @progress (NULL: one each)
 * @probe: submit a probe job first
 * @before: units done before, @total: all, for @progress
 */
struct driver_array {
	const char *dir;
	const char *worker;
	const char *name;
	const char *shared;
	int ntasks;
	const size_t *size;
	int probe;
	size_t before, total;
};

/**
 * driver_slurm_array() - run a job array and follow it to its end
 * @a: the array
 * @e: the engine (@partition, @slurm_opt, @retries, @tool, @stop); its
 *	task counts are set as the array runs, @resubmitted counted up
 * @progress: called after every look at the queue (NULL: none)
 * @arg: passed to @progress
 *
 * A task that leaves the queue without its done marker (failed,
 * cancelled, its node lost) is submitted again, up to @e->retries times;
 * the jobs are submitted with --no-requeue. The engine of
 * driver_units_run() with Slurm is this, with 'linsched sweep-worker'.
 *
 * Return: 0 when every task wrote its marker; 1 when @e->stop was set
 * (the jobs are cancelled); -1 with driver_last_error() set (no
 * controller, a probe that failed, a task that failed too often).
 */
int driver_slurm_array(const struct driver_array *a, struct driver_engine *e,
		       driver_progress_fn progress, void *arg);

/**
 * driver_target_json() - a prepared revision as JSON, for a worker on
 *	another node (driver_target_from_json())
 * @t: from driver_target_prepare()
 *
 * Return: a new object, or NULL (out of memory).
 */
struct cJSON;
struct cJSON *driver_target_json(const struct driver_target *t);

/**
 * driver_target_from_json() - a prepared revision back from JSON
 * @t: filled in (zeroed first); release with driver_target_release()
 * @o: from driver_target_json()
 *
 * Return: 0, or -1 (out of memory).
 */
int driver_target_from_json(struct driver_target *t, const struct cJSON *o);

/**
 * driver_sweep_worker() - run one Slurm array task's share of a sweep
 * @paths: from driver_paths_init() (the cache directory is the sweep's)
 * @dir: the sweep's directory, as driver_units_run() made it
 * @task: the array task's index
 * @probe: only check that this node can read @dir and write the cache
 *
 * Return: 0 when every unit of the share has its result, else -1 with
 * driver_last_error() set.
 */
int driver_sweep_worker(const struct driver_paths *paths, const char *dir,
			int task, int probe);

/**
 * driver_result_metrics() - metrics of a result, by name
 * @json: a result's JSON (struct driver_result's @json)
 * @names: metric names, read as metric_value() (metrics/metrics.h) reads
 *	them: "balance_score", "wakeup_latency_ns" (its p99),
 *	"migrations_per_s" (summed over domain levels), "idle_residency.0.C6"
 * @n: their number
 * @out: receives each value, NAN when the result has none
 *
 * Return: 0, or -1 when @json does not parse (every @out NAN).
 */
int driver_result_metrics(const char *json, const char *const *names,
			  size_t n, double *out);

/**
 * driver_result_warnings() - the kernel WARNs of a result
 * @json: a result's JSON (struct driver_result's @json)
 * @first: receives the first WARN's line ("WARNING: CPU: 0 PID: 0 at
 *	kernel/sched/deadline.c:233"), "" when none
 * @len: its size
 *
 * Return: the result's "kernel_warnings", the WARNs the run counted (a
 * WARN does not stop a run without --fatal-warnings); -1 when @json does
 * not parse or has no count.
 */
int driver_result_warnings(const char *json, char *first, size_t len);

/**
 * driver_result_release() - free what driver_result() allocated
 * @r: the result
 */
void driver_result_release(struct driver_result *r);

/**
 * driver_status_name() - a status as results and logs name it
 * @status: an enum driver_status
 *
 * Return: "ok", "error", "build_failed", "crashed", "hung" or
 * "unsupported"; a static string.
 */
const char *driver_status_name(int status);

/**
 * driver_cpuidle_name() - a run spec's --cpuidle as result keys and logs
 * name it
 * @cpuidle: struct driver_run_spec's cpuidle, NULL for the default
 *
 * Return: "kernel" (the revision's default governor), the governor's
 * name ("menu", "teo", "ladder"), "poll" or "sim": two spellings of one
 * choice give one name; NULL for a name --cpuidle does not take.
 */
const char *driver_cpuidle_name(const char *cpuidle);

/**
 * driver_status_from_name() - the inverse of driver_status_name()
 * @name: a name
 *
 * Return: the status, or -1 for an unknown name.
 */
int driver_status_from_name(const char *name);

/**
 * driver_check_specs() - check a run's specs before anything is built
 * @workload: the address of a workload spec (a file or task groups). A
 *	file that can be read only once (a FIFO, a process substitution's
 *	/dev/fd/N) is read here, once, checked under the name given, and its
 *	bytes kept as @paths' CACHE/workloads/BLOB.json: *@workload becomes
 *	that path (valid until the process ends), which the runs read, the
 *	result keys hash (as they would the same bytes in any regular file)
 *	and the results name
 * @topology: a topology spec (a preset, a shape or a file)
 * @duration: a duration such as "2s", or NULL
 * @cmdline: boot parameters for that machine ("isolcpus=3"), or NULL
 *
 * Bad specs are the user's error: commands say so before building a
 * revision, with the parsers' messages (file:line:column or key).
 *
 * Return: 0, or -1 with driver_last_error() saying what is wrong.
 */
int driver_check_specs(const char **workload, const char *topology,
		       const char *duration, const char *cmdline);

/**
 * driver_keep_topology() - a topology file that can be read only once,
 *	read now and kept
 * @topology: the address of a topology spec. A FIFO or a process
 *	substitution's /dev/fd/N is read once and its bytes kept as
 *	CACHE/topologies/BLOB.json, which *@topology then names (until the
 *	process ends) for every later reader: the checks, the result keys,
 *	the simulator; any other spec is left as it is
 *
 * Commands call it on each --topology as they take the option.
 *
 * Return: 0, or -1 with driver_last_error() saying why.
 */
int driver_keep_topology(const char **topology);

/**
 * driver_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, "" if none.
 */
const char *driver_last_error(void);

#endif
