/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guile_internal.h - shared between the files of guile/, not installed.
 */
#ifndef LSB_GUILE_INTERNAL_H
#define LSB_GUILE_INTERNAL_H

#include <cjson/cJSON.h>

#include "guile/guile.h"

/* Where a run's result came from. */
enum run_source {
	RUN_RAN,	/* built and run now */
	RUN_CACHE,	/* the result cache */
	RUN_LOG,	/* the log (--continue, --replay) or earlier in this session */
};

/**
 * struct run_entry - one run of a revision with one seed
 * @commit: the commit it ran
 * @subset: its subset hash: runs are found again by (@subset, @seed)
 * @seed: the seed
 * @cls: its class in the range, -1 for GOOD, -2 outside the range
 * @status: an enum driver_status: DRIVER_OK or a skip
 * @reason: why it was skipped ("" otherwise)
 * @result: the simulator's results (NULL for a skip)
 * @source: where it came from
 * @built: this session built the revision for it
 * @value: the session's metric, when @has_value
 * @has_value: whether the results hold the metric
 * @used: this session has used it (counts a logged run once)
 */
struct run_entry {
	char commit[41];
	char subset[41];
	unsigned long long seed;
	long cls;
	int status;
	char *reason;
	cJSON *result;
	enum run_source source;
	int built;
	double value;
	int has_value;
	int used;
};

/**
 * struct prefetched - what (prefetch REV K) did for a run that (run REV
 *	SEED) will read from the cache, so that its log event and counts say
 *	what they would have said had the run been made by (run REV SEED)
 * @subset: the run's subset
 * @seed: its seed; 0: the revision's, told to its first run
 * @ran: the run was made now, not found in the cache
 * @built: the revision was built now (@seed 0)
 * @corrupt: a corrupt cache entry was removed on the way
 */
struct prefetched {
	char subset[41];
	unsigned long long seed;
	int ran;
	int built;
	int corrupt;
};

/*
 * Where a session's log is. A log in the output directory is not touched
 * until the session has something to keep: a new bisection keeps its
 * events (GOOD's runs and step, BAD's when it is skipped) in memory until
 * its first decided revision of the range (a step of a class that is not
 * a skip), a note or its end; --continue writes from its first event. So
 * arguments found bad on the way (an unknown metric, GOOD or BAD
 * untestable) leave a finished bisection's directory as it was. Where
 * there is no log, a new one is written at once (and removed again on a
 * usage error).
 */
enum log_state {
	LOG_NONE,	/* no log: a replay, the REPL, a script */
	LOG_DEFERRED,	/* to be written from the first event kept */
	LOG_OPEN,	/* written */
};

/* Failures a session reports: a usage error, or one that stops it. */
enum session_error {
	SESSION_USAGE = -2,
	SESSION_STOP = -1,
};

/**
 * struct session - a bisection's state, shared by the primitives
 * @cfg: the settings (strings borrowed from the caller)
 * @repo: the repository
 * @classes: the range (NULL without GOOD and BAD)
 * @answer: what the report will say; steps are added as they are decided
 * @log_fd: the log, appended to (-1: none, as in a replay)
 * @lock_fd: OUT/.lock, flock()ed while the session writes there (-1: none)
 * @commits_left: the last progress the strategy reported
 * @steps_left: likewise
 * @runs: the runs known: logged, cached or made
 * @nr_runs: their number
 * @logged_steps: the step events the log held at the start
 * @logged_end: the end event the log held, if any
 * @start: the start event of this session
 * @step: steps decided in this session
 * @pre: what (prefetch) did for runs not read yet
 * @nr_pre: their number
 * @format: the log format the session decides by: the log's own with
 *	--continue and --replay (1 for logs made before skips were joined
 *	and searched away from), else LOG_FORMAT
 * @log_state: see enum log_state
 * @pending: the events kept while the log is deferred, as their lines
 * @nr_pending: their number
 * @had_log: the output directory held a log when the session began
 * @cut_at: with --continue, where a last line cut short begins (-1: none)
 * @made_dir: the session made the output directory, and its parents up
 *	to @made_top, the first that was missing
 * @made_lock: the session made OUT/.lock
 */
struct session {
	struct guile_config cfg;
	bisect_repo *repo;
	struct bisect_classes *classes;
	struct guile_answer *answer;
	int log_fd;
	int lock_fd;
	size_t commits_left;
	int steps_left;
	struct run_entry *runs;
	size_t nr_runs;
	size_t cap_runs;
	cJSON *logged_steps;
	cJSON *logged_end;
	cJSON *start;
	int step;
	struct prefetched *pre;
	size_t nr_pre;
	size_t cap_pre;
	int format;
	enum log_state log_state;
	char **pending;
	size_t nr_pending;
	size_t cap_pending;
	int had_log;
	long cut_at;
	int made_dir;
	char made_top[4200];
	int made_lock;
};

void guile_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

int session_open(struct session *s, const struct guile_config *cfg,
		 struct guile_answer *answer);
void session_close(struct session *s);
void session_steps_free(struct guile_step *steps, size_t n);
int session_resolve(struct session *s, const char *rev, char out[41]);
long session_class_of(const struct session *s, const char *commit);
int session_run(struct session *s, const char *rev, unsigned long long seed,
		const struct run_entry **out);
int session_prefetch(struct session *s, const char *const *revs, size_t nr,
		     int k, size_t *ran);
int session_build(struct session *s, const char *rev, int *status,
		  char **exe_or_reason);
int session_step(struct session *s, long cls, const char *verdict,
		 const char *reason, cJSON *details, long round,
		 const long *joined, size_t nr_joined);
void session_progress(struct session *s, size_t commits_left,
		      int steps_left);
int session_note(struct session *s, const char *msg);
int session_end(struct session *s);


#endif
