/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report - what `linsched report`, `linsched trend` and lsbisect write:
 *
 * - the release report: the suite's patterns on two revisions over some
 *   topologies, each metric of the catalogue's report columns judged
 *   (threshold against the metric's floor, the seeds' noise rule), the
 *   changes ranked, a summary per topology, the commits between the two
 *   that changed the build subset, plots, and the text, JSON and HTML
 *   files (report/report.c, text.c, json.c, html.c, plots.c);
 * - the trend: one point per revision class of a range, labelled by tag,
 *   its values per seed, trend.dat and the gnuplot scripts (trend.c);
 * - the answer of a bisection as report.txt, report.json and a plot
 *   (bisection.c).
 *
 * The module never exits and prints only to the FILE it is given;
 * failures return -1 with report_last_error() set. Structs are filled by
 * the caller as each says, and released with their *_release().
 */
#ifndef LSB_REPORT_H
#define LSB_REPORT_H

#include <stddef.h>

struct driver_paths;
#include <stdio.h>

#include "bisect/bisect.h"
#include "driver/driver.h"
#include "metrics/metrics.h"

/**
 * report_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, lowercase, no final period; "" if none.
 */
const char *report_last_error(void);

/* ---- the release report ---- */

#define REPORT_MAX_TOPOS 8
#define REPORT_MAX_SEEDS 16
#define REPORT_MAX_METRICS 16
#define REPORT_MAX_TIMELINES 20

/**
 * enum report_verdict - a change's judgement
 * @REPORT_SAME: within the threshold, or not compared
 * @REPORT_NOISE: past the threshold, but within the seeds' spread
 * @REPORT_WORSE: a regression
 * @REPORT_BETTER: an improvement
 */
enum report_verdict {
	REPORT_SAME,
	REPORT_NOISE,
	REPORT_WORSE,
	REPORT_BETTER,
};

/**
 * report_verdict_name() - a verdict as the JSON names it
 * @v: the verdict
 *
 * Return: "same", "noise", "regression" or "improvement".
 */
const char *report_verdict_name(enum report_verdict v);

/**
 * struct report_topology - a machine of the report
 * @spec: as the user named it (a preset or a file); borrowed
 * @name: a file-name-safe short name, unique in the report (the plots')
 * @nr_cpus: its CPUs (the suite's files are written for that many)
 */
struct report_topology {
	const char *spec;
	char name[128];
	int nr_cpus;
};

/**
 * struct report_row - one pattern on one topology, on OLD (0) and NEW (1)
 * @topo: index in report.topo
 * @pattern: the suite's pattern index
 * @ok: seeds that ran to the end
 * @status: the worst skip's enum driver_status, DRIVER_OK if none
 * @reason: its reason
 * @v: per column and seed, NAN when absent
 * @med: per column, the median over the seeds (NAN unless all ran);
 *	set by report_judge_row()
 * @pct: the change in percent of max(|OLD|, floor); NAN: none
 * @worse: the same, positive when worse
 * @verdict: per column
 * @run_verdict: REPORT_WORSE when every seed finished on OLD and not on
 *	NEW, REPORT_BETTER the other way round
 * @warns: per side and seed, the kernel WARNs of a run that finished (its
 *	result's "kernel_warnings"; a WARN does not stop a run), -1 for a
 *	seed that did not finish
 * @warning: per side, the first WARN of its lowest seed that had one, ""
 *	when none did
 * @violations: per side and seed, the invariants a run that finished
 *	violated (the catalogue's "violations"), NAN for a seed that did not
 */
struct report_row {
	int topo;
	int pattern;
	int ok[2];
	int status[2];
	char reason[2][256];
	double v[2][REPORT_MAX_METRICS][REPORT_MAX_SEEDS];
	double med[2][REPORT_MAX_METRICS];
	double pct[REPORT_MAX_METRICS];
	double worse[REPORT_MAX_METRICS];
	enum report_verdict verdict[REPORT_MAX_METRICS];
	enum report_verdict run_verdict;
	int warns[2][REPORT_MAX_SEEDS];
	char warning[2][256];
	double violations[2][REPORT_MAX_SEEDS];
};

/**
 * struct report_rank - a ranked change
 * @row: its row
 * @metric: its column; -1: the run itself (finished on one side only)
 */
struct report_rank {
	const struct report_row *row;
	int metric;
};

/**
 * struct report_summary - a topology's verdicts for one column
 * @worse: regressions
 * @better: improvements
 * @noise: changes within the seeds' noise
 * @compared: patterns with a value on both sides
 * @median_worse: the median change, positive worse (NAN: none)
 */
struct report_summary {
	int worse, better, noise, compared;
	double median_worse;
};

/**
 * struct report_change - a commit between OLD and NEW that changed the
 *	build subset
 * @id: the commit
 * @subject: its subject (malloc()ed)
 * @author: its author (malloc()ed)
 * @time: author time
 * @files: the files it changed under kernel/sched/ by name, those under
 *	include/ counted
 */
struct report_change {
	char id[41];
	char *subject;
	char *author;
	long long time;
	char files[512];
};

/**
 * struct report - a release report
 * @suite: the suite's name ("quick"), as the texts show it
 * @duration: simulated time per run
 * @seeds: seeds 1..@seeds per run, at most REPORT_MAX_SEEDS
 * @threshold: the regression threshold, percent
 * @top: changes listed in the text and the HTML
 * @timeout: wall-clock limit of a run, seconds (0: none)
 * @topo: the machines
 * @nr_topos: their number
 * @patterns: the suite's patterns (borrowed)
 * @nr_patterns: their number
 * @rev: OLD and NEW, prepared (borrowed)
 * @out: the output directory
 * @wall_s: the report's wall-clock time so far, for report.json
 * @runs: OLD's and NEW's runs, set by whoever ran them (cmd/),
 * @cached: and how many of them came from the result cache
 * @metric: the columns: the catalogue's entries marked reported, in its
 *	order; set by report_init()
 * @nr_metrics: their number
 * @label: each column's label, metric_path() of its name
 *	("wakeup_latency_ns.p99")
 * @rows: per topology and pattern, topology-major; set by
 *	report_collect()
 * @nr_rows: their number
 * @worse: every regression, worst first; set by report_rank()
 * @nr_worse: their number
 * @better: every improvement, best first
 * @nr_better: their number
 * @changes: set by report_find_changes()
 * @nr_changes: their number
 * @nr_range_commits: the commits from OLD to NEW
 * @nr_unread_changes: commits left out of @changes because they change
 *	the subset only in files neither OLD's nor NEW's build read
 * @range_note: why the commits are not listed, or ""
 * @timelines: the worst regressions' rows whose timelines were drawn
 *	(the first @timelines of report_timeline_rows(), in
 *	report_timeline_dir()), embedded in report.html; 0: none. Set by the
 *	command that drew them.
 * @timeline_window: what the timelines show, for their captions ("seed 1,
 *	500 ms to 600 ms")
 * @files: the workload files of report_units() (private)
 *
 * The caller sets everything up to @wall_s after report_init().
 */
struct report {
	const char *suite;
	const char *duration;
	int seeds;
	double threshold;
	int top;
	int timeout;
	struct report_topology topo[REPORT_MAX_TOPOS];
	int nr_topos;
	const int *patterns;
	int nr_patterns;
	const struct driver_target *rev[2];
	char out[4096];
	double wall_s;
	size_t runs[2], cached[2];

	const struct metric_def *metric[REPORT_MAX_METRICS];
	int nr_metrics;
	char label[REPORT_MAX_METRICS][64];
	struct report_row *rows;
	size_t nr_rows;
	struct report_rank *worse;
	size_t nr_worse;
	struct report_rank *better;
	size_t nr_better;
	struct report_change *changes;
	size_t nr_changes;
	size_t nr_range_commits;
	size_t nr_unread_changes;
	char range_note[512];
	int timelines;
	char timeline_window[128];
	char (*files)[4352];
};

/**
 * report_init() - an empty report with the catalogue's columns
 * @rep: zeroed and given its columns; release with report_release()
 *
 * Return: 0, or -1 when the catalogue has more report columns than
 * REPORT_MAX_METRICS.
 */
int report_init(struct report *rep);

/**
 * report_release() - free what the report_*() calls made
 * @rep: the report (what the caller set is left alone)
 */
void report_release(struct report *rep);

/**
 * report_column() - a column's index by the catalogue's name
 * @rep: the report
 * @name: "energy_j"
 *
 * Return: the index, or -1.
 */
int report_column(const struct report *rep, const char *name);

/**
 * report_workload_dir() - where the suite's files of a topology go
 * @rep: the report
 * @t: the topology's index
 * @buf: receives "OUT/workloads/NCPUScpus"
 * @len: its size
 */
void report_workload_dir(const struct report *rep, int t, char *buf,
			 size_t len);

/**
 * report_units() - every run of the report
 * @rep: the report, its settings made
 * @out: receives a malloc()ed array of @rep's units, in the order
 *	report_collect() reads them: topology, pattern, OLD then NEW, seed;
 *	free() it. The specs point into @rep, which must outlive them.
 * @n: receives their number
 *
 * The workloads are the files report_workload_dir() names, one per
 * pattern ("NAME.json"); the caller writes them.
 *
 * Return: 0, or -1 (out of memory).
 */
int report_units(struct report *rep, struct driver_unit **out, size_t *n);

/**
 * report_collect() - the rows, from the result cache
 * @rep: the report
 * @paths: from driver_paths_init()
 * @units: report_units()'s, each of which has its result now
 *
 * Return: 0, or -1 when a result is missing.
 */
int report_collect(struct report *rep, const struct driver_paths *paths,
		   const struct driver_unit *units);

/**
 * report_judge_row() - a row's medians, changes and verdicts
 * @rep: the report (seeds, threshold and columns)
 * @row: its seeds' values and @row->ok set
 *
 * A change is a regression when NEW's median is worse than OLD's by more
 * than @rep->threshold percent of max(|OLD|, the metric's floor) and, with
 * two seeds or more, every NEW seed lies beyond every OLD seed (else it is
 * noise). A row whose every seed finished on OLD but not on NEW is a
 * regression of the run itself.
 */
void report_judge_row(const struct report *rep, struct report_row *row);

/**
 * report_judge() - report_judge_row() of every row, then report_rank()
 * @rep: the report, collected
 *
 * Return: 0, or -1 (out of memory).
 */
int report_judge(struct report *rep);

/**
 * report_rank() - the regressions and improvements, ranked
 * @rep: the report, judged
 *
 * The largest change first, a run that stopped (or started) finishing
 * before any; ties by topology, pattern and column.
 *
 * Return: 0, or -1 (out of memory).
 */
int report_rank(struct report *rep);

/**
 * report_summarise() - a topology's verdicts in one column
 * @rep: the report, judged
 * @t: the topology's index
 * @m: the column, -1 for the runs themselves
 * @out: filled in
 */
void report_summarise(const struct report *rep, int t, int m,
		      struct report_summary *out);

/**
 * report_run_state() - how a side of a row ended
 * @rep: the report
 * @row: the row
 * @r: 0 OLD, 1 NEW
 *
 * Return: "finished", or the status name of its worst skip.
 */
const char *report_run_state(const struct report *rep,
			     const struct report_row *row, int r);

/**
 * struct report_warnings - kernel WARNs of one side, over some runs
 * @warns: the WARNs, summed
 * @runs: the runs that had one or more
 * @of: the runs that finished (a run that did not has no count)
 */
struct report_warnings {
	int warns, runs, of;
};

/**
 * report_row_warnings() - the WARNs of a side of a row, over its seeds
 * @rep: the report
 * @row: the row, collected
 * @r: 0 OLD, 1 NEW
 * @out: filled in
 */
void report_row_warnings(const struct report *rep,
			 const struct report_row *row, int r,
			 struct report_warnings *out);

/**
 * report_warnings() - the WARNs of a side over a topology's rows
 * @rep: the report, collected
 * @t: the topology's index, -1 for every topology
 * @r: 0 OLD, 1 NEW
 * @out: filled in
 */
void report_warnings(const struct report *rep, int t, int r,
		     struct report_warnings *out);

/**
 * report_find_changes() - the commits from OLD to NEW that changed the
 *	build subset in files the builds read
 * @rep: the report
 * @repo: the repository
 * @paths: where the builds of OLD and NEW are: their kbuild records say
 *	which files they read; a commit that changed none of them is only
 *	counted (@nr_unread_changes), and a listed commit's headers that no
 *	build read are only counted
 *
 * When they cannot be listed, @rep->range_note says why; not an error.
 */
void report_find_changes(struct report *rep, const char *repo,
			 const struct driver_paths *paths);

/**
 * report_timeline_rows() - the rows whose OLD and NEW timelines the report
 *	shows: the worst regressions' rows, each once, worst first
 * @rep: the report, judged
 * @rows: receives up to @max rows
 * @max: the most wanted
 *
 * Return: their number.
 */
size_t report_timeline_rows(const struct report *rep,
			    const struct report_row **rows, size_t max);

/**
 * report_timeline_dir() - where a row's timeline of one side is drawn
 * @rep: the report
 * @row: the row
 * @side: 0 OLD, 1 NEW
 * @buf: receives "OUT/timelines/TOPO-PATTERN-old" (or "-new")
 * @len: its size
 */
void report_timeline_dir(const struct report *rep, const struct report_row *row,
			 int side, char *buf, size_t len);

/**
 * report_plots() - per topology the heat map and the plane
 * @rep: the report, judged
 *
 * Writes OUT/plots/{heat,plane}-NAME.{dat,gp} and runs gnuplot on each.
 *
 * Return: 0, or -1.
 */
int report_plots(const struct report *rep);

/**
 * report_text() - report.txt
 * @f: where it goes
 * @rep: the report, judged
 * @summary: leave out the last line (the pointer to the other files), as
 *	the command prints it
 */
void report_text(FILE *f, const struct report *rep, int summary);

/**
 * report_json() - report.json
 * @rep: the report, judged
 *
 * Return: the text, malloc()ed; NULL when memory ran out.
 */
char *report_json(const struct report *rep);

/**
 * report_html() - report.html, the plots' PNGs embedded
 * @f: where it goes
 * @rep: the report, judged, its plots drawn
 *
 * One self-contained file: the plots and timelines as data: URIs, a
 * little inline script that sorts a table by the column header clicked
 * (numbers as numbers; again: the other way) and opens the collapsed
 * section an anchor points into. Every pattern's row has an id
 * ("p-TOPO-PATTERN"), each timeline section too ("tl-TOPO-PATTERN"); the
 * ranked lists link to them.
 *
 * Return: 0, or -1 when a plot's PNG cannot be read (a timeline that
 * cannot is said in the page).
 */
int report_html(FILE *f, const struct report *rep);

/**
 * report_write_files() - report.json, report.txt and report.html in OUT
 * @rep: the report, judged, its plots drawn
 *
 * Each file is replaced at once (lsb_write_atomic()).
 *
 * Return: 0, or -1.
 */
int report_write_files(const struct report *rep);

/* ---- the pre-submit check ---- */

/**
 * struct report_check_bug - a catalogued bug's figure on both sides of a
 *	change (bugs/ judges each side; the check says whether it came back)
 * @name: the catalogue's entry
 * @fix: the upstream fix it is known by ("82d6e01a0699 sched/fair: ...")
 * @metric: the figure
 * @value: OLD's and NEW's, NAN for a run that did not finish
 * @buggy: per side, whether the figure is on the buggy side
 * @buggy_above: the bug shows as the figure above @threshold, else below
 * @threshold: the entry's boundary
 * Strings are borrowed.
 */
struct report_check_bug {
	const char *name;
	const char *fix;
	const char *metric;
	double value[2];
	int buggy[2];
	int buggy_above;
	double threshold;
};

/* Whether @b came back: fixed on OLD, buggy on NEW. */
int report_check_bug_back(const struct report_check_bug *b);

/**
 * struct report_check_step - one change of a check: a patch of a series
 *	(against the one before it), the series whole, or the work tree
 * @name: what the texts call it ("patch 2/3 'sched/fair: ...'")
 * @rep: its report against its predecessor, judged; NULL when it was not
 *	run (it or a change before it does not build)
 * @build_error: the compiler's message when it does not build, or with
 *	@not_applied why it does not apply; else NULL
 * @not_applied: the change is a patch that does not apply
 * @nr_violated: rows whose invariants NEW broke (set by
 *	report_check_judge() when the gate is on)
 * @nr_failed: rows that fail: a regression, or an invariant broken (set
 *	by report_check_judge())
 * @bugs: the bug catalogue's entries run on both sides (NULL: that gate
 *	is off)
 * @nr_bugs: their number
 * @nr_bugs_back: those that came back (set by report_check_judge())
 * Strings are borrowed.
 */
struct report_check_step {
	const char *name;
	struct report *rep;
	const char *build_error;
	int not_applied;
	int nr_violated;
	int nr_failed;
	struct report_check_bug *bugs;
	size_t nr_bugs;
	int nr_bugs_back;
};

/**
 * struct report_check - the changes of a check
 * @base: BASE as the user named it (NULL: not said)
 * @steps: in the series' order
 * @nr_steps: their number
 * @invariants: the invariants gate is on: a row fails too when its every
 *	NEW seed broke more invariants than its every OLD seed
 *	(report_row_violated())
 * @wall_s: the check's wall-clock time, for the JUnit XML
 */
struct report_check {
	const char *base;
	struct report_check_step *steps;
	size_t nr_steps;
	int invariants;
	double wall_s;
};

/**
 * report_row_violated() - whether NEW broke invariants OLD did not
 * @rep: the report
 * @row: the row, collected
 * Return: 1 when every seed finished on both sides and each NEW seed's
 * "violations" (idle CPU beside a waiting task, starvation, useless
 * migrations, WARNs) is more than each OLD seed's; else 0.
 */
int report_row_violated(const struct report *rep,
			const struct report_row *row);

/**
 * report_check_judge() - each step's failing rows
 * @c: the check, each step's report judged (report_judge())
 */
void report_check_judge(struct report_check *c);

/**
 * report_check_first_failure() - the first step that fails
 * @c: the check, judged
 * Return: its index (a regression, an invariant broken, a catalogued bug
 * back, or no build), or -1 when none fails.
 */
long report_check_first_failure(const struct report_check *c);

/**
 * report_check_table() - a step's changes in the kernel test robot's form
 * @f: where it goes
 * @rep: the step's report, judged
 * One line per pattern, machine and metric whose verdict is not "same":
 * OLD's median, its relative standard deviation over the seeds ("±N%",
 * only when 1% or more), the change, NEW's, and the name
 * MACHINE/PATTERN.METRIC with the verdict; under a header of the two
 * commits. A fraction (work_conservation) is shown in percent, its name
 * ending in '%', and its change in points ("+0.82"), as the robot shows
 * a percentage.
 */
void report_check_table(FILE *f, const struct report *rep);

/**
 * report_check_text() - the check's summary
 * @f: where it goes
 * @c: the check, judged
 * A header (BASE, the suite, machines, seeds and threshold); per step:
 * its verdicts, the rows that fail and why, its change table and its
 * report.html; then the verdict naming the first step that fails.
 */
void report_check_text(FILE *f, const struct report_check *c);

/**
 * report_check_junit() - the check as JUnit XML
 * @f: where it goes
 * @c: the check, judged
 * testsuites, a testsuite per step, a testcase per pattern and machine
 * (classname the machine, name the pattern, after the step's number in a
 * series: unique), a failure naming each regression with its numbers; a
 * testcase per catalogued bug (classname "bugs"), failing when it came
 * back; a step that does not build is one failing testcase "build" with
 * the compiler's message (one that does not apply, "apply" and why).
 * Return: 0, or -1 when writing failed.
 */
int report_check_junit(FILE *f, const struct report_check *c);

/**
 * report_check_tap() - the check as TAP (version 13)
 * @f: where it goes
 * @c: the check, judged
 * A test per step, pattern and machine, and per catalogued bug, as in the
 * JUnit XML; the reasons of a failure as comments.
 * Return: 0, or -1 when writing failed.
 */
int report_check_tap(FILE *f, const struct report_check *c);

/* ---- the trend ---- */

#define REPORT_TREND_METRICS 6

/**
 * report_trend_metrics() - the metrics a trend draws, catalogue names
 *
 * Return: a static array of REPORT_TREND_METRICS names.
 */
const char *const *report_trend_metrics(void);

/**
 * struct report_trend_point - GOOD, or a class of the range
 * @first: its oldest commit
 * @last: its newest
 * @n: its commits
 * @label: the newest tag on one of its commits, else the short hash
 *	(with "+N" for N more commits)
 * @ok: seeds that ran (set per workload and topology)
 * @status: the last skip's enum driver_status
 * @reason: its reason
 * @v: per metric and seed, NAN when absent
 */
struct report_trend_point {
	char first[41];
	char last[41];
	size_t n;
	char label[64];
	int ok;
	int status;
	char reason[512];
	double *v[REPORT_TREND_METRICS];
};

/**
 * struct report_trend - the points of a range
 * @seeds: seeds per point
 * @classes: the range's classes (owned)
 * @pts: GOOD, then one point per class
 * @n: their number
 */
struct report_trend {
	int seeds;
	struct bisect_classes *classes;
	struct report_trend_point *pts;
	size_t n;
};

/**
 * report_trend_init() - the points of GOOD..BAD, labelled
 * @tr: filled in; release with report_trend_release(), also on failure
 * @r: the repository
 * @good: the good revision
 * @bad: the bad one
 * @first_parent: follow only BAD's first parents
 * @seeds: seeds per point, 1 to 64
 *
 * Return: 0, or -1.
 */
int report_trend_init(struct report_trend *tr, bisect_repo *r,
		      const char *good, const char *bad, int first_parent,
		      int seeds);

/**
 * report_trend_release() - free what report_trend_init() made
 * @tr: the trend
 */
void report_trend_release(struct report_trend *tr);

/**
 * report_trend_label() - a point's label from the tags
 * @p: the point, @p->first and @p->n set
 * @commits: its commits, oldest first (@p->n of them)
 * @tags: the repository's tags, as bisect_tags() lists them
 * @nr_tags: their number
 *
 * The newest commit with a tag gives its tag (the first by name when it
 * has several); else the short hash of @p->first, "+N" when N more.
 */
void report_trend_label(struct report_trend_point *p,
			const char (*commits)[41],
			const struct bisect_tag *tags, size_t nr_tags);

/**
 * report_trend_units() - every run of the trend
 * @tr: the trend
 * @targets: per point, its first commit prepared
 * @workloads: the workloads
 * @nw: their number
 * @topologies: the topologies
 * @nt: their number
 * @base: the run's other settings (duration, timeout, ...)
 * @out: receives a malloc()ed array in the order report_trend_collect()
 *	takes them: workload, topology, point, seed; free() it. The specs
 *	borrow the strings of @base and of the lists.
 * @n: receives their number
 *
 * Return: 0, or -1 (out of memory).
 */
int report_trend_units(const struct report_trend *tr,
		       const struct driver_target *targets,
		       const char *const *workloads, int nw,
		       const char *const *topologies, int nt,
		       const struct driver_run_spec *base,
		       struct driver_unit **out, size_t *n);

/**
 * report_trend_collect() - one workload and topology's values
 * @tr: the trend
 * @paths: from driver_paths_init()
 * @units: that pair's @tr->n * @tr->seeds units, which have their results
 *
 * Return: 0, or -1 when a result is missing.
 */
int report_trend_collect(struct report_trend *tr,
			 const struct driver_paths *paths,
			 const struct driver_unit *units);

/**
 * report_trend_plot() - one pair's data, scripts and plots
 * @tr: the trend, collected
 * @dir: the pair's directory (made if missing)
 * @title: the plots' title
 *
 * Writes trend.dat, plane.dat, arrows.dat, balance-energy.gp, plane.gp and
 * metrics.gp and runs gnuplot on each script.
 *
 * Return: 0, or -1.
 */
int report_trend_plot(const struct report_trend *tr, const char *dir,
		      const char *title);

/* ---- the answer of a bisection ---- */

/**
 * enum report_outcome - how a bisection ended
 * @REPORT_CULPRIT: the first bad commit was found
 * @REPORT_NO_REGRESSION: BAD is not worse than GOOD
 * @REPORT_AMBIGUOUS: skipped revisions leave several candidates
 */
enum report_outcome {
	REPORT_CULPRIT,
	REPORT_NO_REGRESSION,
	REPORT_AMBIGUOUS,
};

/**
 * struct report_step - a revision the bisection decided
 * @step: its number, from 1
 * @cls: its class (-1: GOOD)
 * @commit: the commit it ran
 * @verdict: "good", "bad" or "skip"
 * @reason: why it was skipped, or what decided it
 * @value: the metric's median over its runs, when @has_value
 * @has_value: whether the runs gave the metric
 * @nr_runs: runs it took
 * @joined: the classes that took its verdict with it, their build being
 *	its own (ascending; none: NULL)
 * @nr_joined: their number
 * @values: the metric over its runs
 * @nr_values: their number
 * @good_values: GOOD's for the same seeds, for a skip whose runs did not
 *	decide (NULL otherwise)
 * @nr_good_values: their number
 * @details: the judge's details, JSON text, or NULL
 */
struct report_step {
	int step;
	long cls;
	const char *commit;
	const char *verdict;
	const char *reason;
	double value;
	int has_value;
	int nr_runs;
	const long *joined;
	size_t nr_joined;
	const double *values;
	size_t nr_values;
	const double *good_values;
	size_t nr_good_values;
	const char *details;
};

/**
 * struct report_bisection - what a bisection asked and found
 * @repo: the repository
 * @good: GOOD as the user named it
 * @bad: BAD
 * @workload: the run's workload
 * @topology: its topology
 * @duration: its duration (NULL: the default)
 * @threshold: percent
 * @seeds: seeds per revision
 * @max_seeds: the most seeds a revision that does not decide gets
 * @script: the user's Scheme file, NULL for none
 * @first_parent: followed first parents only
 * @outcome: see enum report_outcome
 * @classes: the range
 * @culprit: the first bad class (REPORT_CULPRIT)
 * @candidates: the classes that may hold it (REPORT_AMBIGUOUS)
 * @nr_candidates: their number
 * @steps: the decided revisions in order
 * @nr_steps: their number
 * @metric: the metric the values are of
 * @higher_is_better: its direction
 * @log_path: the bisection's log
 * @nr_built: revisions built
 * @nr_ran: simulations run
 * @nr_cached: runs from the result cache
 * @nr_from_log: runs from the log
 * @nr_corrupt: corrupt cache entries removed
 *
 * Everything is borrowed.
 */
struct report_bisection {
	const char *repo;
	const struct driver_paths *paths;
	const char *good;
	const char *bad;
	const char *workload;
	const char *topology;
	const char *duration;
	double threshold;
	int seeds;
	int max_seeds;
	const char *script;
	int first_parent;
	enum report_outcome outcome;
	const struct bisect_classes *classes;
	long culprit;
	const long *candidates;
	size_t nr_candidates;
	const struct report_step *steps;
	size_t nr_steps;
	const char *metric;
	int higher_is_better;
	const char *log_path;
	int nr_built, nr_ran, nr_cached, nr_from_log, nr_corrupt;
};

/**
 * report_bisection_write() - the answer, as text, JSON and a plot
 * @b: the bisection
 * @out_dir: where report.txt, report.json, plot.dat, plot.gp and plot.png
 *	go (made if missing)
 * @echo: the text goes there too (and is flushed) once the files are
 *	written: all of it, or, when a file could not be, the answer without
 *	the line that names the files; NULL for nowhere
 * @plot_status: receives plot_run()'s enum plot_status: a plot gnuplot
 *	could not draw is not an error
 *
 * Return: 0, or -1 when a file could not be written (every file is
 * tried; the message is the first failure's, naming the file).
 */
int report_bisection_write(const struct report_bisection *b,
			   const char *out_dir, FILE *echo, int *plot_status);

#endif
