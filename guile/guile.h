/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guile - the (lsbisect) Scheme module and the bisection session it drives.
 *
 * GNU Guile 3.0 is embedded. The module (lsbisect) holds C primitives over
 * bisect/ and driver/: resolve, revision-range, build, run, prefetch,
 * metric, log, log-step, progress, session, commit-info. The bisection itself (the
 * strategy) and the decision whether a revision is bad (the judge or
 * predicate) are Scheme, in (lsbisect strategy), installed as
 * share/lsbisect/guile/lsbisect/strategy.scm; a user's script can replace
 * either (guile/README.md has the API).
 *
 * The session keeps the bisection's state in a log in its output
 * directory: one JSON object a line, appended and fsync()ed before the next
 * step begins. Every run is logged with its whole result, so a log holds
 * everything a decision used: --continue takes the runs it holds instead
 * of building or running again, --replay makes every decision again from
 * a log alone.
 *
 * The module never prints: messages and progress go to callbacks. Strings
 * in the configuration are borrowed for the duration of a call.
 */
#ifndef LSB_GUILE_H
#define LSB_GUILE_H

#include <stddef.h>

#include "bisect/bisect.h"
#include "driver/driver.h"

/**
 * enum guile_mode - how a session treats its log
 * @GUILE_NEW: start a bisection; a log in the output directory is moved to
 *	log.prev.jsonl once the new one has something to keep (its first
 *	decided revision of the range), never before
 * @GUILE_CONTINUE: resume the log in the output directory: logged runs are
 *	taken from it, logged steps must come out the same
 * @GUILE_REPLAY: make every decision again from another log, without
 *	building or running anything; a run the log lacks is an error
 */
enum guile_mode {
	GUILE_NEW,
	GUILE_CONTINUE,
	GUILE_REPLAY,
};

struct guile_step;

/**
 * struct guile_progress - where a bisection is
 * @step: steps made (GOOD and BAD count)
 * @cls: the class just decided (-1: GOOD)
 * @verdict: "good", "bad" or "skip"
 * @commits_left: commits that may still be the first bad one
 * @steps_left: an estimate of the steps to go
 * @running: the commit being built and run now, or NULL after a step
 * @decided: the step just decided, once for each step (NULL otherwise)
 */
struct guile_progress {
	int step;
	long cls;
	const char *verdict;
	size_t commits_left;
	int steps_left;
	const char *running;
	const struct guile_step *decided;
};

/**
 * struct guile_config - a bisection's settings
 * @paths: from driver_paths_init()
 * @repo: the kernel repository
 * @good: the good revision, as the user named it
 * @bad: the bad revision
 * @run: workload, topology, duration, governor, ... (@run.seed is ignored,
 *	@run.metrics is forced on)
 * @metric: the metric the default judge compares ("balance_score")
 * @threshold: percent by which a revision must be worse than GOOD
 * @seeds: seeds per revision
 * @max_seeds: the most seeds an undecided revision gets before it is
 *	skipped
 * @script: a user's Scheme file (NULL: the default judge and strategy)
 * @first_parent: follow first parents only
 * @width: revisions the default strategy tests at once, in rounds (< 2:
 *	one at a time, the halving); (session 'width) gives it
 * @jobs: parallel build jobs
 * @engine: where the runs of several seeds go at once ((prefetch REV K)):
 *	local children (@engine->jobs at a time) or Slurm job arrays; NULL:
 *	local, @jobs at a time
 * @verbose: show kbuild's output
 * @out_dir: the output directory (the log is @out_dir/log.jsonl)
 * @mode: see enum guile_mode
 * @replay_log: the log to replay (GUILE_REPLAY)
 * @on_progress: called after each step and before each build and run
 *	(may be NULL)
 * @on_message: called with notes and the strategy's log messages (may be
 *	NULL)
 * @payload: passed to the callbacks
 * @owned: private; see guile_config_from_log()
 */
struct guile_config {
	const struct driver_paths *paths;
	const char *repo;
	const char *good;
	const char *bad;
	struct driver_run_spec run;
	const char *metric;
	double threshold;
	int seeds;
	int max_seeds;
	const char *script;
	int first_parent;
	int width;
	int jobs;
	struct driver_engine *engine;
	int verbose;
	const char *out_dir;
	enum guile_mode mode;
	const char *replay_log;
	void (*on_progress)(const struct guile_progress *p, void *payload);
	void (*on_message)(const char *msg, void *payload);
	void *payload;
	void *owned;
};

/**
 * guile_config_from_log() - take a bisection's settings from its log
 * @cfg: its settings found in the log's first line (revisions, repository,
 *	workload, topology, duration, metric, threshold, seeds, script,
 *	first-parent, width, simulator options) are set; the rest is left alone
 * @log: the log file
 *
 * The strings set live until guile_config_release(@cfg).
 *
 * Return: 0, or -1 with guile_last_error() set.
 */
int guile_config_from_log(struct guile_config *cfg, const char *log);

/**
 * guile_config_release() - free what guile_config_from_log() kept
 * @cfg: the settings
 */
void guile_config_release(struct guile_config *cfg);

/**
 * enum guile_outcome - how a bisection ended (the exit status of lsbisect)
 * @GUILE_CULPRIT: the first bad commit was found
 * @GUILE_NO_REGRESSION: BAD is not worse than GOOD
 * @GUILE_USAGE: the arguments do not make a bisection: a revision, GOOD not
 *	an ancestor of BAD, GOOD or BAD untestable, GOOD not good, an unknown
 *	metric, a script that does not load
 * @GUILE_AMBIGUOUS: skipped revisions leave several candidates
 * @GUILE_STOPPED: an error stopped the bisection (a Scheme error in the
 *	strategy, the repository, the file system, a replay that differs);
 *	the log keeps what was done
 */
enum guile_outcome {
	GUILE_CULPRIT = 0,
	GUILE_NO_REGRESSION = 1,
	GUILE_USAGE = 2,
	GUILE_AMBIGUOUS = 3,
	GUILE_STOPPED = 4,
};

/**
 * struct guile_step - a revision the bisection decided
 * @step: its number, from 1
 * @cls: its class (-1: GOOD)
 * @commit: the commit it ran (the first of its class)
 * @verdict: "good", "bad" or "skip"
 * @reason: why it was skipped, or what decided it
 * @value: the median of the metric over its runs, when @has_value
 * @has_value: whether the runs gave the metric
 * @nr_runs: runs (seeds) it took
 * @joined: the other classes that took this verdict with it, as their
 *	build is this one's (a skip of a build that did not decide skips
 *	every class of that build at once), ascending; NULL when none
 * @nr_joined: their number
 * @values: the metric over its runs, in the order they were made
 * @nr_values: their number
 * @good_values: GOOD's metric for the same seeds (a skip with values
 *	only: a revision that ran but did not decide); NULL otherwise
 * @nr_good_values: their number
 * @details: the judge's details as JSON text, or NULL
 */
struct guile_step {
	int step;
	long cls;
	char commit[41];
	char verdict[16];
	char reason[1024];
	double value;
	int has_value;
	int nr_runs;
	long *joined;
	size_t nr_joined;
	double *values;
	size_t nr_values;
	double *good_values;
	size_t nr_good_values;
	char *details;
};

/**
 * struct guile_answer - the outcome of a bisection
 * @outcome: see enum guile_outcome
 * @message: for GUILE_USAGE and GUILE_STOPPED the error (a Scheme error
 *	with its file:line:column); else a note or ""
 * @culprit: the first bad class (GUILE_CULPRIT)
 * @candidates: the classes that may hold the first bad commit
 *	(GUILE_AMBIGUOUS), oldest first
 * @nr_candidates: their number
 * @steps: the decided revisions in order
 * @nr_steps: their number
 * @classes: the range (NULL when it could not be made)
 * @metric: the metric name the values are of
 * @log_path: the log
 * @log_begun: this session wrote to the log and keeps it (a new
 *	bisection in a directory that has a log writes nothing until it has
 *	decided a revision of the range)
 * @nr_built: revisions built by this session (relinks do not count)
 * @nr_ran: simulations run by this session
 * @nr_cached: runs taken from the result cache
 * @nr_from_log: runs taken from the log (--continue, --replay)
 * @nr_corrupt: corrupt cache entries found, removed and recomputed
 */
struct guile_answer {
	enum guile_outcome outcome;
	char message[4096];
	long culprit;
	long *candidates;
	size_t nr_candidates;
	struct guile_step *steps;
	size_t nr_steps;
	struct bisect_classes *classes;
	char metric[128];
	int higher_is_better;		/* the metric's direction, from Scheme */
	char log_path[4200];
	int log_begun;
	int nr_built;
	int nr_ran;
	int nr_cached;
	int nr_from_log;
	int nr_corrupt;
};

/**
 * guile_bisect() - run a bisection
 * @cfg: its settings
 * @out: receives the answer, freed with guile_answer_free(), also when the
 *	bisection stopped
 *
 * Starts Guile in this thread (once per process), loads (lsbisect
 * strategy) and @cfg->script, and calls the strategy. SIGCHLD stays
 * blocked in every thread Guile starts, so the driver can wait for its
 * children.
 *
 * Return: @out->outcome; *@out is NULL only when out of memory.
 */
int guile_bisect(const struct guile_config *cfg, struct guile_answer **out);

/**
 * guile_answer_free() - free an answer
 * @a: the answer; NULL is allowed
 */
void guile_answer_free(struct guile_answer *a);

/**
 * guile_repl() - a Guile REPL with (lsbisect) and (lsbisect strategy)
 * @cfg: settings; @cfg->good and @cfg->bad may be NULL (then the session's
 *	range is empty); nothing is logged unless @cfg->out_dir is set
 *
 * Return: 0 when the REPL ends, or -1 with guile_last_error() set.
 */
int guile_repl(const struct guile_config *cfg);

/**
 * guile_run_file() - evaluate a Scheme file with the modules loaded
 * @cfg: as for guile_repl()
 * @file: the file; its (exit N) ends the process
 *
 * Return: 0, or -1 with guile_last_error() set (a Scheme error with its
 * location).
 */
int guile_run_file(const struct guile_config *cfg, const char *file);

/**
 * guile_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, "" if none.
 */
const char *guile_last_error(void);

#endif
