/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - what the linsched subcommands share (cmd/linsched.c and
 * cmd/linsched-units.c): gnuplot, the engine options, the suite's files
 * and the progress line; lsbisect links cmd/linsched-units.c for the
 * engine options. Not a module's public header: the CLI layer's.
 */
#ifndef LSB_CMD_H
#define LSB_CMD_H

#include <getopt.h>
#include <stddef.h>

#include "driver/driver.h"
#include "report/report.h"

/*
 * The linsched subcommands (cmd/linsched-NAME.c), each called with its
 * own argv (argv[0] is its name); the exit status is returned.
 */
int cmd_bugs(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_classes(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_hunt(int argc, char **argv);
int cmd_hunt_worker(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_sweep_worker(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_topology(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_vm(int argc, char **argv);

struct guile_config;
struct guile_answer;

/*
 * lsbisect's answer (cmd/lsbisect-report.c): printed, and written as
 * report.txt, report.json and the plot in @out_dir. Return 0 or -1.
 */
int lsbisect_report(const struct guile_config *cfg,
		    const struct guile_answer *a, const char *out_dir);

/* Run gnuplot on SCRIPT in DIR; an error is printed. Return 0 or -1. */
int run_gnuplot(const char *dir, const char *script);

/*
 * Make the output directory DIR and hold it until the process ends
 * (lsb_out_dir(): a second command on DIR is refused, naming this one,
 * WHO); an error is printed. Return 0 or -1.
 */
int cmd_out_dir(const char *dir, const char *who);

/*
 * This program (linsched) run as @argv (argv[0] unused) in a child that
 * dies with its parent, its output into the file @log. Return: its exit
 * status, 128 + a signal's number, or -1 (not started).
 */
int cmd_run_self(char *argv[], const char *log);

/*
 * The arguments of a Slurm array task's worker ('sweep-worker',
 * 'hunt-worker'): [--probe] DIR TASK into @dir, @task and @probe; --help
 * prints @usage. Return: -1 to go on, else the exit status (0 after
 * --help, 2 for a usage error, printed).
 */
int cmd_worker_args(int argc, char **argv, const char *usage,
		    const char **dir, int *task, int *probe);

/* The engine options, for usage texts and getopt_long tables. */
#define ENGINE_USAGE ENGINE_USAGE_BASE INSTRUMENT_USAGE

/* The engine options but --instrument (a command that chooses the build) */
#define ENGINE_USAGE_BASE \
"      --engine E      where runs go: local (default: --jobs children) or\n" \
"                      slurm (job arrays; the cache and the workload files\n" \
"                      must be on a file system every node sees)\n" \
"      --partition P   Slurm partition (default: the cluster's default)\n" \
"      --slurm-opt O   more sbatch options, e.g. \"--qos=low --time=30\"\n" \
"      --slurm-tasks N array tasks per submission (default: one per CPU)\n" \
"      --slurm-retries N  submit a failed or vanished task again up to N\n" \
"                      times (default 2)\n"

/* --instrument, for the commands that build */
#define INSTRUMENT_USAGE \
"      --instrument V  build variant: work (count the kernel's function\n" \
"                      calls: kernel_work), coverage (gcov), plain (default;\n" \
"                      LSBISECT_INSTRUMENT sets it too)\n"

enum {
	OPT_ENGINE = 0x1000,
	OPT_PARTITION,
	OPT_SLURM_OPT,
	OPT_SLURM_TASKS,
	OPT_SLURM_RETRIES,
	OPT_INSTRUMENT,
	OPT_TRACE_FORMAT,	/* linsched run --trace-format */
	OPT_TRACE_EVENTS,	/* linsched run --trace-events */
};

#define ENGINE_OPTIONS \
	{ "engine", required_argument, NULL, OPT_ENGINE }, \
	{ "partition", required_argument, NULL, OPT_PARTITION }, \
	{ "slurm-opt", required_argument, NULL, OPT_SLURM_OPT }, \
	{ "slurm-tasks", required_argument, NULL, OPT_SLURM_TASKS }, \
	{ "slurm-retries", required_argument, NULL, OPT_SLURM_RETRIES }, \
	{ "instrument", required_argument, NULL, OPT_INSTRUMENT }

/* A duration @arg for option @opt (zero refused), or -1 after the error. */
int cmd_opt_duration(const char *opt, const char *arg);

/*
 * --seed @arg into @out (may be NULL: checked only), as linsched-sim reads
 * it (sim_parse_seed(): 0 to 2^64 - 1), or -1 after the error.
 */
int cmd_opt_seed(const char *arg, unsigned long long *out);

/*
 * --instrument V: check V and put it in LSBISECT_INSTRUMENT, which
 * driver_paths_init() and every child and Slurm task read, and in
 * @paths (NULL when driver_paths_init() comes after the options).
 * Return 0, or -1 after printing the error.
 */
int cmd_instrument(struct driver_paths *paths, const char *arg);

/* Local engine, as many jobs as CPUs, 2 retries. */
void engine_defaults(struct driver_engine *e);

/*
 * Handle getopt's @opt if it is an engine option (or 'j', --jobs): 0 when
 * it was, -1 after printing the error, 1 when it is not one.
 */
int engine_option(struct driver_engine *e, int opt, const char *arg);

/*
 * Write suite patterns as DIR/NAME.json for a machine of @nr_cpus CPUs
 * (a file with the same bytes is left alone: its cache keys stay) and
 * check that each parses. Errors are printed. Return 0 or -1.
 */
int suite_files(const char *dir, const int *patterns, int np, int nr_cpus);

/*
 * The suite patterns a command runs: @suite "full", "quick" (two of each
 * family) or a family, narrowed by @globs when there are any. *@patterns
 * is malloc()ed. Errors are printed. Return 0, or 2 (usage) or 1.
 */
int suite_select(const char *suite, const char *const *globs, int nglobs,
		 int **patterns, int *np);

/*
 * Option values, checked: @arg of option @opt ("--jobs") as an integer or
 * a finite number from @lo to @hi. Anything else ("x", "nan", "1e3" for
 * an integer, out of range) prints "error: --jobs 'x': expected an
 * integer from 1 to 4096" and returns -1: the command exits 2 (usage).
 */
int opt_int(const char *opt, const char *arg, long lo, long hi, int *out);
int opt_double(const char *opt, const char *arg, double lo, double hi,
	       double *out);

/*
 * The simulator's --governor and --cpuidle, checked as linsched-sim checks
 * them (sim/options.c), before anything is built: 0, or -1 after printing
 * "error: --governor 'x': expected ...".
 */
int opt_governor(const char *arg);

/*
 * A --topology as a command takes it: a FIFO or process substitution is
 * read now and kept (driver_keep_topology()), *TOPOLOGY becoming the
 * kept file. Return 0, or -1 (printed).
 */
int cmd_topology_arg(const char **topology);

/*
 * Bad specs are the user's error: say so ("error: ..." on stderr) before
 * anything is built. @duration and @cmdline may be NULL. A workload file
 * that can be read only once is read then and *@workload becomes the path
 * of its bytes (driver_check_specs()).
 */
int cmd_check_specs(const char **workload, const char *topology,
		    const char *duration, const char *cmdline);
int opt_cpuidle(const char *arg);

/*
 * The simulator's --jitter @arg, checked as linsched-sim checks it
 * (sim_parse_jitter()): 0, or -1 after printing "error: --jitter 'x':
 * expected ...". @canon (NULL: not wanted) receives the fraction as the
 * results print it ("1%" and "0.01" both "0.01"; %.15g, %.17g where that
 * loses bits), "" for zero: what a command records, so that one jitter
 * in two spellings is one; @len is its size (32 holds any).
 */
int opt_jitter(const char *arg, char *canon, size_t len);

/*
 * driver_prepare() with a progress line on a terminal ("preparing REV...",
 * erased after) and its error said on standard error: a driver_status.
 */
int cmd_prepare(struct driver_revision *rev, const struct driver_paths *paths,
		const char *repo, const char *name, int jobs, int verbose);

/*
 * driver_target_prepare() the same way; a revision that does not build is
 * said too and is DRIVER_BUILD_FAILED. Return 0 or a driver_status.
 */
int cmd_target_prepare(struct driver_target *t,
		       const struct driver_paths *paths, const char *repo,
		       const char *name, int jobs, int verbose);

/*
 * What driver_run() of @rev's simulator gave, said once on standard error
 * (a usage error of the simulator in its own words, without the
 * revision): @ret, the command's exit status.
 */
int cmd_sim_status(const struct driver_revision *rev, int ret);

/* The last part of a path ("topologies/x.json" → "x.json"); @s if none. */
const char *cmd_base_name(const char *s);

/*
 * Split "GOOD..BAD" into @good and @bad, @len bytes each. Return 0, or -1
 * after printing the error when @range is not such a range (git's A...B
 * included) or a part is too long.
 */
int cmd_split_range(const char *range, char *good, char *bad, size_t len);

struct lsb_path_arg;

/*
 * The files and directories a command writes, checked before anything is
 * built (lsb_check_paths(): named, no directory for a file, the directory
 * there, no two outputs one file nor an output the file an input is read
 * from). Return 0, or -1 after printing the error: the command exits 2.
 */
int cmd_check_paths(const struct lsb_path_arg *args, size_t n);

/* cmd_check_paths() of one output directory @dir of option @opt (NULL: none) */
int cmd_check_out_dir(const char *opt, const char *dir);

/*
 * A metric @metric the runs of @paths' build variant have (kernel_work
 * only a work build's): 0, or -1 after saying which --instrument it needs
 * (the command exits 2, before anything is built).
 */
int cmd_check_metric(const char *metric, const struct driver_paths *paths);

/*
 * The exit status @ret once standard output is flushed: a write error of
 * it (a full disk, /dev/full) is said, and is 1 when @ret was 0.
 */
int cmd_exit(int ret);

/*
 * The exit status for units of which some failed: 2 (usage) when every
 * failure was the simulator refusing its run spec (DRIVER_USAGE: a
 * machine past the build's NR_CPUS, deadline tasks its admission control
 * rejects), as 'linsched run' exits; else @other.
 */
int cmd_units_status(const struct driver_unit *units, size_t n, int other);

/*
 * A command's units with a progress line on a terminal: done/total,
 * cached, rate, time left and, with Slurm, the array tasks pending,
 * running and done.
 */
struct units_progress {
	const char *what;	/* the command, as the line names it */
	int tty;		/* draw the line */
	double start;		/* set by units_run() */
	size_t cached;		/* set: units found in the cache */
	const struct driver_engine *engine;
};

/* driver_units_run() with @p's progress line, cleared at the end. */
int units_run(const struct driver_paths *paths, struct driver_unit *units,
	      size_t n, struct driver_engine *engine,
	      struct units_progress *p);

/*
 * What 'linsched report' and 'linsched check' share (linsched-report.c):
 * the suite, machine and judging options (-s -m -t -T -n -d and
 * --timeout, as 's' 'm' 't' 'T' 'n' 'd' 'O'), their defaults, the
 * machines checked into a report, and a report's runs.
 */
#define CMD_MAX_MATCH 32
struct cmd_suite_opts {
	const char *suite;
	const char *globs[CMD_MAX_MATCH];
	int nr_globs;
	const char *topo[REPORT_MAX_TOPOS];
	int nr_topos;
	double threshold;
	int seeds;
	const char *duration;
	int timeout;
};

/* Those options, for getopt_long tables (their letters: "s:m:t:T:n:d:"). */
#define CMD_SUITE_OPTIONS \
	{ "suite", required_argument, NULL, 's' }, \
	{ "match", required_argument, NULL, 'm' }, \
	{ "topology", required_argument, NULL, 't' }, \
	{ "threshold", required_argument, NULL, 'T' }, \
	{ "seeds", required_argument, NULL, 'n' }, \
	{ "duration", required_argument, NULL, 'd' }, \
	{ "timeout", required_argument, NULL, 'O' }

/* Defaults: @suite, 3 seeds, 5 %, 10 s, a 600 s limit, no machine yet. */
void cmd_suite_defaults(struct cmd_suite_opts *o, const char *suite);
/* One option: 0, 2 (usage, printed), or -1 when it is not one of these. */
int cmd_suite_option(struct cmd_suite_opts *o, int c, const char *arg);
/* No --topology: quad-smt, dynamiq-1+3+4 and numa-2. */
void cmd_suite_default_topologies(struct cmd_suite_opts *o);
/* @o's machines into @rep, checked, each with a unique short name: 0 or 2. */
int cmd_report_topologies(struct report *rep, const struct cmd_suite_opts *o);
/*
 * Write the suite's files, run every unit of @rep, read its rows: 0, or
 * the exit status (2 when the simulator refused the runs, as 'run'
 * exits; else 4). @what names the command on the progress line.
 */
int cmd_report_run(struct report *rep, const struct driver_paths *paths,
		   struct driver_engine *engine, int tty, const char *what);
/*
 * A judged report's files into @rep->out: the commits from OLD to NEW
 * that change the subset (read from @repo), the plots, report.json,
 * report.txt and report.html; @t0 is when the report began. 0, or -1
 * (printed).
 */
int cmd_report_files(struct report *rep, const struct driver_paths *paths,
		     const char *repo, double t0);

#endif
