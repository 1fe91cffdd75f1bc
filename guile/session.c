// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - a bisection's state: the range, the runs, the steps, and the
 * log that keeps them (one JSON object a line, fsync()ed as written).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"
#include "guile/guile_internal.h"
#include "metrics/metrics.h"

/*
 * 2: a skipped build's neighbours of the same build are skipped with it
 * ("joined" in its step) and the search tests away from skipped classes;
 * 1: one class at a time, the next nearest the middle. A log is decided
 * again (--continue, --replay) by the rules of its format.
 */
#define LOG_FORMAT 2

LSB_DEFINE_LAST_ERROR(guile)

static void report_progress(struct session *s, const char *running,
			    const struct guile_step *decided);
static int log_begin(struct session *s);

/* Write @len bytes of @text to the log and make them durable. */
static int log_write(struct session *s, const char *text, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(s->log_fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	if (done != len || fsync(s->log_fd)) {
		guile_set_error("cannot write the log '%s': %s",
				s->answer->log_path, strerror(errno));
		return SESSION_STOP;
	}
	return 0;
}

/*
 * Append one event to the log and make it durable before going on; while
 * the log is deferred and @keep allows, keep it for later instead.
 */
static int log_event(struct session *s, const cJSON *ev, int keep)
{
	char *text;
	size_t len;
	int ret;

	if (s->log_state == LOG_NONE)
		return 0;
	text = lsb_json_print(ev, 0);
	if (!text) {
		guile_set_error("out of memory");
		return SESSION_STOP;
	}
	if (s->log_state == LOG_DEFERRED && keep &&
	    s->cfg.mode == GUILE_NEW) {
		if (LSB_GROW(s->pending, s->nr_pending + 1, s->cap_pending)) {
			free(text);
			guile_set_error("out of memory");
			return SESSION_STOP;
		}
		s->pending[s->nr_pending++] = text;
		return 0;
	}
	ret = log_begin(s);
	if (!ret) {
		len = strlen(text);
		text[len++] = '\n';	/* replaces the NUL: not a string now */
		ret = log_write(s, text, len);
	}
	free(text);
	return ret;
}

static int log_append(struct session *s, const cJSON *ev)
{
	return log_event(s, ev, 0);
}

static struct run_entry *add_run(struct session *s)
{
	struct run_entry *e;

	if (LSB_GROW(s->runs, s->nr_runs + 1, s->cap_runs))
		return NULL;
	e = &s->runs[s->nr_runs++];
	memset(e, 0, sizeof(*e));
	return e;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const char *v = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(o, key));

	return v ? v : "";
}

static double num_of(const cJSON *o, const char *key, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* A run event of the log, as a known run. */
static int load_run(struct session *s, cJSON *ev)
{
	struct run_entry *e = add_run(s);
	cJSON *result;

	if (!e) {
		guile_set_error("out of memory");
		return SESSION_STOP;
	}
	lsb_pathf(e->commit, sizeof(e->commit), "%s", str_of(ev, "commit"));
	lsb_pathf(e->subset, sizeof(e->subset), "%s", str_of(ev, "subset"));
	e->seed = (unsigned long long)num_of(ev, "seed", 1);
	e->cls = (long)num_of(ev, "class", -2);
	e->status = driver_status_from_name(str_of(ev, "outcome"));
	e->reason = strdup(str_of(ev, "reason"));
	e->source = RUN_LOG;
	result = cJSON_DetachItemFromObjectCaseSensitive(ev, "result");
	if (e->status < 0 || strlen(e->subset) != 40 ||
	    (e->status == DRIVER_OK && !cJSON_IsObject(result))) {
		cJSON_Delete(result);
		s->nr_runs--;
		free(e->reason);
		guile_set_error("log '%s': a run event lacks its outcome, subset or results",
				s->answer->log_path);
		return SESSION_STOP;
	}
	e->result = result;
	if (result)
		e->has_value = !metric_value(result, s->cfg.metric, &e->value);
	return 0;
}

/*
 * Read a log: its start event, runs, steps and end. A last line cut short
 * (a process killed while writing) is left out; when @cut is not NULL it
 * receives where that line begins (-1: none), for log_begin() to cut off.
 */
static int log_load(struct session *s, const char *path, long *cut,
		    cJSON **start)
{
	size_t len, line = 0;
	char *text = lsb_read_file(path, &len), *p, *nl;
	int ret = 0;

	*start = NULL;
	if (cut)
		*cut = -1;
	if (!text) {
		guile_set_error("cannot read the log '%s': %s", path,
				strerror(errno));
		return SESSION_USAGE;
	}
	s->logged_steps = cJSON_CreateArray();
	for (p = text; p < text + len && !ret; p = nl + 1) {
		cJSON *ev;
		const char *kind;

		line++;
		nl = memchr(p, '\n', text + len - p);
		ev = nl ? cJSON_ParseWithLength(p, nl - p) : NULL;
		if (!ev) {
			if (nl && memchr(nl + 1, '\n', text + len - nl - 1)) {
				guile_set_error("log '%s': line %zu is not JSON",
						path, line);
				ret = SESSION_STOP;
				break;
			}
			/* the last line, cut short */
			if (cut)
				*cut = (long)(p - text);
			break;
		}
		kind = str_of(ev, "event");
		if (!*start && strcmp(kind, "start")) {
			guile_set_error("log '%s' does not begin with a start event",
					path);
			cJSON_Delete(ev);
			ret = SESSION_USAGE;
			break;
		}
		if (!strcmp(kind, "start") && !*start) {
			*start = ev;
			continue;
		}
		if (!strcmp(kind, "run"))
			ret = load_run(s, ev);
		if (!strcmp(kind, "step")) {
			cJSON_AddItemToArray(s->logged_steps, ev);
			continue;
		}
		if (!strcmp(kind, "end")) {
			cJSON_Delete(s->logged_end);
			s->logged_end = ev;
			continue;
		}
		cJSON_Delete(ev);
	}
	free(text);
	if (!ret && !*start) {
		guile_set_error("log '%s' is empty", path);
		ret = SESSION_USAGE;
	}
	return ret;
}

static int file_id(const char *path, char out[41])
{
	size_t len;
	char *text = lsb_read_file(path, &len);
	int ret;

	if (!text)
		return -1;
	ret = lsb_blob_id(text, len, out);
	free(text);
	return ret;
}

/* The settings a log's runs and steps depend on. */
static cJSON *start_event(const struct session *s)
{
	const struct guile_config *c = &s->cfg;
	cJSON *o = cJSON_CreateObject();
	char id[41] = "", wl[41] = "";

	cJSON_AddStringToObject(o, "event", "start");
	cJSON_AddNumberToObject(o, "format", LOG_FORMAT);
	cJSON_AddStringToObject(o, "tool_version", lsb_version());
	cJSON_AddStringToObject(o, "repo", c->repo);
	cJSON_AddStringToObject(o, "good", c->good);
	cJSON_AddStringToObject(o, "bad", c->bad);
	cJSON_AddStringToObject(o, "good_commit", s->classes->good);
	cJSON_AddStringToObject(o, "bad_commit", s->classes->bad);
	cJSON_AddStringToObject(o, "workload", c->run.workload);
	if (!file_id(c->run.workload, wl))
		cJSON_AddStringToObject(o, "workload_hash", wl);
	cJSON_AddStringToObject(o, "topology", c->run.topology);
	if (c->run.duration)
		cJSON_AddStringToObject(o, "duration", c->run.duration);
	else
		cJSON_AddNullToObject(o, "duration");
	cJSON_AddStringToObject(o, "governor",
				c->run.governor ? c->run.governor : "schedutil");
	/* "kernel": the default; logs before it said "menu" (the model) */
	cJSON_AddStringToObject(o, "cpuidle",
				driver_cpuidle_name(c->run.cpuidle));
	cJSON_AddBoolToObject(o, "energy_model", !c->run.no_energy_model);
	cJSON_AddBoolToObject(o, "fatal_warnings", c->run.fatal_warnings);
	/* a run without has none, as logs had before it */
	if (c->run.jitter)
		cJSON_AddStringToObject(o, "jitter", c->run.jitter);
	cJSON_AddNumberToObject(o, "timeout_s", c->run.timeout_s);
	cJSON_AddStringToObject(o, "metric", c->metric);
	cJSON_AddNumberToObject(o, "threshold", c->threshold);
	cJSON_AddNumberToObject(o, "seeds", c->seeds);
	cJSON_AddNumberToObject(o, "max_seeds", c->max_seeds);
	cJSON_AddBoolToObject(o, "first_parent", c->first_parent);
	/* a search one revision at a time has none, as logs had before */
	if (c->width > 1)
		cJSON_AddNumberToObject(o, "width", c->width);
	/* a plain build's log has none, as logs had before variants */
	if (c->paths->variant)
		cJSON_AddStringToObject(o, "instrument",
					driver_variant_name(c->paths));
	if (c->script) {
		cJSON_AddStringToObject(o, "script", c->script);
		if (!file_id(c->script, id))
			cJSON_AddStringToObject(o, "script_hash", id);
	} else {
		cJSON_AddNullToObject(o, "script");
	}
	cJSON_AddNumberToObject(o, "commits", (double)s->classes->nr_commits);
	cJSON_AddNumberToObject(o, "classes", (double)s->classes->nr_classes);
	cJSON_AddNumberToObject(o, "time", (double)time(NULL));
	return o;
}

/* A resumed log must be of the same bisection. */
static int same_bisection(const cJSON *logged, const cJSON *now,
			  const char *path)
{
	static const char *const keys[] = {
		"good_commit", "bad_commit", "workload", "workload_hash",
		"topology", "duration", "governor", "cpuidle", "energy_model",
		"fatal_warnings", "metric", "threshold", "seeds", "max_seeds",
		"first_parent", "instrument", "width", "jitter",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(logged, keys[i]);
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(now, keys[i]);
		char *was;

		if ((!a && !b) || (a && b && cJSON_Compare(a, b, 1)))
			continue;
		was = a ? lsb_json_print(a, 0) : NULL;
		guile_set_error("the log '%s' is of another bisection: its %s was %s; run with the same arguments, or without --continue to start again",
				path, keys[i], was ? was : "not set");
		free(was);
		return SESSION_USAGE;
	}
	return 0;
}

static int open_log(struct session *s)
{
	const char *path = s->answer->log_path;

	s->log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			 0644);
	if (s->log_fd < 0) {
		guile_set_error("cannot write the log '%s': %s", path,
				strerror(errno));
		return SESSION_STOP;
	}
	return 0;
}

/*
 * One bisection at a time in a directory: OUT/.lock, locked with fcntl()
 * (F_GETLK names the holder to the one refused). The directory and the
 * file are made when missing and removed again when the session keeps
 * nothing (session_close()); a lock file that is there is not written
 * until the log begins. A lock taken on a file another session removed
 * meanwhile is taken again on the new one.
 */
static int lock_out_dir(struct session *s, const char *dir)
{
	char lock[4300], why[4600];
	struct stat st, at;
	int tries;

	lsb_pathf(lock, sizeof(lock), "%s/.lock", dir);
	if (stat(dir, &st)) {
		char *slash;

		/* the first missing directory, for log_end() to remove */
		lsb_pathf(s->made_top, sizeof(s->made_top), "%s", dir);
		lsb_pathf(lock, sizeof(lock), "%s", dir);
		while ((slash = strrchr(lock, '/')) && slash != lock) {
			*slash = '\0';
			if (!stat(lock, &st))
				break;
			lsb_pathf(s->made_top, sizeof(s->made_top), "%s",
				  lock);
		}
		lsb_pathf(lock, sizeof(lock), "%s/.lock", dir);
		if (lsb_mkdir_p(dir)) {
			guile_set_error("cannot create '%s': %s", dir,
					strerror(errno));
			return SESSION_STOP;
		}
		s->made_dir = 1;
	}
	for (tries = 0; tries < 10; tries++) {
		s->made_lock = 0;
		s->lock_fd = open(lock, O_RDWR | O_CLOEXEC);
		if (s->lock_fd < 0 && errno == ENOENT) {
			s->lock_fd = open(lock, O_RDWR | O_CREAT | O_EXCL |
					  O_CLOEXEC, 0644);
			s->made_lock = s->lock_fd >= 0;
			if (s->lock_fd < 0 && errno == EEXIST)
				continue;
		}
		if (s->lock_fd < 0) {
			guile_set_error("cannot open the lock '%s': %s", lock,
					strerror(errno));
			return SESSION_USAGE;
		}
		if (lsb_lock_take(s->lock_fd, dir, lock, why, sizeof(why))) {
			guile_set_error("%s", why);
			return SESSION_USAGE;
		}
		/* the file locked must still be the one of that name */
		if (!fstat(s->lock_fd, &st) && !stat(lock, &at) &&
		    st.st_ino == at.st_ino && st.st_dev == at.st_dev) {
			if (s->made_lock)
				lsb_lock_holder(s->lock_fd, "lsbisect");
			return 0;
		}
		close(s->lock_fd);
		s->lock_fd = -1;
	}
	guile_set_error("cannot lock '%s': it keeps being removed", lock);
	return SESSION_USAGE;
}

/*
 * The log as the mode says: a replay reads its log; --continue checks the
 * log is of this bisection, before anything in the output directory
 * changes, and writes from its first new event; a new bisection writes
 * at once where there is no log, else once it has something to keep
 * (log_begin()). Either locks the directory.
 */
static int session_log(struct session *s)
{
	const struct guile_config *c = &s->cfg;
	const char *path = s->answer->log_path;
	cJSON *logged = NULL;
	struct stat st;
	int ret = 0;

	s->start = start_event(s);
	s->format = LOG_FORMAT;
	if (c->mode == GUILE_REPLAY) {
		ret = log_load(s, c->replay_log, NULL, &logged);
		if (!ret)
			s->format = (int)num_of(logged, "format", 1);
		cJSON_Delete(logged);
		return ret;
	}
	if (!c->out_dir)
		return 0;
	if (c->mode == GUILE_CONTINUE && (stat(path, &st) || !st.st_size)) {
		guile_set_error("there is no bisection to continue in '%s'",
				c->out_dir);
		return SESSION_USAGE;
	}
	ret = lock_out_dir(s, c->out_dir);
	if (ret)
		return ret;
	s->log_state = LOG_DEFERRED;
	if (c->mode == GUILE_NEW) {
		/* a log there is kept until this one has something to keep */
		s->had_log = !stat(path, &st) && st.st_size;
		return s->had_log ? 0 : log_begin(s);
	}
	ret = log_load(s, path, &s->cut_at, &logged);
	if (!ret)
		ret = same_bisection(logged, s->start, path);
	if (!ret)
		s->format = (int)num_of(logged, "format", 1);
	cJSON_Delete(logged);
	return ret;
}

/*
 * Write the log from here on: a new bisection moves a log that is there
 * to log.prev.jsonl and writes its start and the events it kept; a
 * continued one cuts off a last line cut short. The lock names its
 * holder from now.
 */
static int log_begin(struct session *s)
{
	const struct guile_config *c = &s->cfg;
	const char *path = s->answer->log_path;
	char prev[4300], msg[4500];
	size_t i;
	int ret = 0;

	if (s->log_state != LOG_DEFERRED)
		return 0;
	s->log_state = LOG_OPEN;
	s->answer->log_begun = 1;
	lsb_lock_holder(s->lock_fd, "lsbisect");
	if (c->mode == GUILE_CONTINUE) {
		if (s->cut_at >= 0 && truncate(path, s->cut_at)) {
			guile_set_error("cannot repair the log '%s': %s",
					path, strerror(errno));
			return SESSION_STOP;
		}
		return open_log(s);
	}
	if (s->had_log) {
		/* start afresh; the result cache still has the runs */
		lsb_pathf(prev, sizeof(prev), "%s/log.prev.jsonl", c->out_dir);
		if (rename(path, prev)) {
			guile_set_error("cannot move the log '%s' aside: %s",
					path, strerror(errno));
			return SESSION_STOP;
		}
		lsb_pathf(msg, sizeof(msg),
			  "a bisection was logged in '%s' already: its log is now '%s' (--continue resumes one)",
			  c->out_dir, prev);
		if (c->on_message)
			c->on_message(msg, c->payload);
	} else {
		unlink(path);	/* an empty one */
	}
	ret = open_log(s);
	if (!ret)
		ret = log_append(s, s->start);
	for (i = 0; i < s->nr_pending && !ret; i++) {
		size_t len = strlen(s->pending[i]);

		s->pending[i][len] = '\n';
		ret = log_write(s, s->pending[i], len + 1);
		s->pending[i][len] = '\0';
	}
	return ret;
}

int session_open(struct session *s, const struct guile_config *cfg,
		 struct guile_answer *answer)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->log_fd = -1;
	s->lock_fd = -1;
	s->cut_at = -1;
	s->format = LOG_FORMAT;
	s->answer = answer;
	if (!s->cfg.metric)
		s->cfg.metric = "balance_score";
	if (s->cfg.seeds < 1)
		s->cfg.seeds = 1;
	if (s->cfg.max_seeds < s->cfg.seeds)
		s->cfg.max_seeds = s->cfg.seeds;
	lsb_pathf(answer->metric, sizeof(answer->metric), "%s", s->cfg.metric);
	if (cfg->mode == GUILE_REPLAY)
		lsb_pathf(answer->log_path, sizeof(answer->log_path), "%s",
			  cfg->replay_log);
	else if (cfg->out_dir)
		lsb_pathf(answer->log_path, sizeof(answer->log_path),
			  "%s/log.jsonl", cfg->out_dir);
	if (bisect_repo_open(&s->repo, cfg->repo)) {
		guile_set_error("%s", bisect_last_error());
		/* a REPL or a script may do without one */
		return cfg->good && cfg->bad ? SESSION_USAGE : 0;
	}
	if (!cfg->good || !cfg->bad)
		return 0;
	err = bisect_classes_new(&answer->classes, s->repo, cfg->good,
				 cfg->bad, cfg->first_parent);
	if (err) {
		guile_set_error("%s", bisect_last_error());
		return err == BISECT_ENOTFOUND || err == BISECT_EINVAL ?
		       SESSION_USAGE : SESSION_STOP;
	}
	s->classes = answer->classes;
	return session_log(s);
}

/*
 * A session that made no bisection (a usage error) leaves the output
 * directory as it found it: the log it began there when there was none,
 * the lock file and the directory go if it made them; a log it deferred
 * was never written.
 */
static void log_end(struct session *s)
{
	char path[4300];
	int drop = s->log_state == LOG_OPEN && s->cfg.mode == GUILE_NEW &&
		   !s->had_log && s->answer->outcome == GUILE_USAGE;

	if (s->log_state == LOG_NONE || (s->log_state == LOG_OPEN && !drop))
		return;
	if (drop) {
		close(s->log_fd);
		s->log_fd = -1;
		unlink(s->answer->log_path);
		s->answer->log_begun = 0;
	}
	lsb_pathf(path, sizeof(path), "%s/.lock", s->cfg.out_dir);
	if (s->made_lock)
		unlink(path);	/* before the lock goes: see lock_out_dir() */
	if (!s->made_dir)
		return;
	/* the directories made, from OUT up to the first that was missing */
	lsb_pathf(path, sizeof(path), "%s", s->cfg.out_dir);
	while (!rmdir(path) && strcmp(path, s->made_top)) {
		char *slash = strrchr(path, '/');

		if (!slash || slash == path)
			break;
		*slash = '\0';
	}
}

void session_close(struct session *s)
{
	size_t i;

	log_end(s);
	for (i = 0; i < s->nr_pending; i++)
		free(s->pending[i]);
	free(s->pending);
	for (i = 0; i < s->nr_runs; i++) {
		free(s->runs[i].reason);
		cJSON_Delete(s->runs[i].result);
	}
	free(s->runs);
	free(s->pre);
	cJSON_Delete(s->logged_steps);
	cJSON_Delete(s->logged_end);
	cJSON_Delete(s->start);
	if (s->log_fd >= 0)
		close(s->log_fd);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	bisect_repo_free(s->repo);
	memset(s, 0, sizeof(*s));
	s->log_fd = -1;
	s->lock_fd = -1;
}

void session_steps_free(struct guile_step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(steps[i].joined);
		free(steps[i].values);
		free(steps[i].good_values);
		free(steps[i].details);
	}
	free(steps);
}

int session_resolve(struct session *s, const char *rev, char out[41])
{
	if (!s->repo) {
		guile_set_error("no repository: '%s' did not open",
				s->cfg.repo);
		return SESSION_STOP;
	}
	if (bisect_resolve(s->repo, rev, out)) {
		guile_set_error("%s", bisect_last_error());
		return SESSION_STOP;
	}
	return 0;
}

long session_class_of(const struct session *s, const char *commit)
{
	size_t lo = 0, hi, i;

	if (!s->classes)
		return -2;
	if (!strcmp(commit, s->classes->good))
		return -1;
	for (i = 0; i < s->classes->nr_commits; i++)
		if (!strcmp(s->classes->commits[i], commit))
			break;
	if (i == s->classes->nr_commits)
		return -2;
	hi = s->classes->nr_classes;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->classes->classes[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

/* A commit's subset hash, from the range when it is there. */
static int subset_of(struct session *s, const char *commit, long cls,
		     char out[41])
{
	if (cls == -1) {
		memcpy(out, s->classes->good_subset, 41);
		return 0;
	}
	if (cls >= 0) {
		memcpy(out, s->classes->classes[cls].subset, 41);
		return 0;
	}
	if (bisect_subset_hash(s->repo, commit, out)) {
		guile_set_error("%s", bisect_last_error());
		return SESSION_STOP;
	}
	return 0;
}

/* A revision's commit, its class (as session_class_of()) and subset hash. */
static int locate(struct session *s, const char *rev, char commit[41],
		  long *cls, char subset[41])
{
	int ret = session_resolve(s, rev, commit);

	if (ret)
		return ret;
	*cls = session_class_of(s, commit);
	return subset_of(s, commit, *cls, subset);
}

static cJSON *run_event(const struct run_entry *e, const char *key)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "event", "run");
	cJSON_AddNumberToObject(o, "class", e->cls);
	cJSON_AddStringToObject(o, "commit", e->commit);
	cJSON_AddStringToObject(o, "subset", e->subset);
	cJSON_AddNumberToObject(o, "seed", (double)e->seed);
	cJSON_AddStringToObject(o, "outcome", driver_status_name(e->status));
	cJSON_AddStringToObject(o, "reason", e->reason);
	cJSON_AddStringToObject(o, "source",
				e->source == RUN_RAN ? "ran" : "cache");
	cJSON_AddBoolToObject(o, "built", e->built);
	cJSON_AddStringToObject(o, "key", key);
	if (e->has_value)
		cJSON_AddNumberToObject(o, "value", e->value);
	else
		cJSON_AddNullToObject(o, "value");
	if (e->result)
		cJSON_AddItemReferenceToObject(o, "result", e->result);
	return o;
}

/* The run of (@subset, @seed) the session knows, or NULL. */
static struct run_entry *known_run(struct session *s, const char *subset,
				   unsigned long long seed)
{
	size_t i;

	for (i = 0; i < s->nr_runs; i++)
		if (s->runs[i].seed == seed &&
		    !strcmp(s->runs[i].subset, subset))
			return &s->runs[i];
	return NULL;
}

/* Note what (prefetch) did for a run, or for the revision (@seed 0). */
static int add_prefetched(struct session *s, const char *subset,
			  unsigned long long seed, int ran, int built,
			  int corrupt)
{
	struct prefetched *p;

	if (!ran && !built && !corrupt)
		return 0;	/* (run) finds it as it would have */
	if (LSB_GROW(s->pre, s->nr_pre + 1, s->cap_pre)) {
		guile_set_error("out of memory");
		return SESSION_STOP;
	}
	p = &s->pre[s->nr_pre++];
	memcpy(p->subset, subset, 41);
	p->seed = seed;
	p->ran = ran;
	p->built = built;
	p->corrupt = corrupt;
	return 0;
}

/*
 * A result (prefetch) made, read from the cache, says what it would have
 * said had (run) made it: made now, not cached; the revision built by its
 * first run; the corrupt entries removed.
 */
static void take_prefetched(struct session *s, const char *subset,
			    unsigned long long seed, struct driver_result *r)
{
	size_t i = 0;

	while (i < s->nr_pre) {
		struct prefetched *p = &s->pre[i];

		if (strcmp(p->subset, subset) || (p->seed && p->seed != seed)) {
			i++;
			continue;
		}
		if (p->ran)
			r->from_cache = 0;
		r->built |= p->built;
		r->removed_corrupt |= p->corrupt;
		*p = s->pre[--s->nr_pre];
	}
}

int session_run(struct session *s, const char *rev, unsigned long long seed,
		const struct run_entry **out)
{
	struct driver_run_spec spec = s->cfg.run;
	char commit[41], subset[41];
	struct driver_result r;
	struct run_entry *e;
	cJSON *ev;
	long cls;
	int ret;

	*out = NULL;
	ret = locate(s, rev, commit, &cls, subset);
	if (ret)
		return ret;
	e = known_run(s, subset, seed);
	if (e) {
		if (e->source == RUN_LOG && !e->used)
			s->answer->nr_from_log++;
		e->used = 1;
		*out = e;
		return 0;
	}
	if (s->cfg.mode == GUILE_REPLAY) {
		guile_set_error("replay: the log '%s' has no run of %.12s (subset %.12s) with seed %llu",
				s->cfg.replay_log, commit, subset, seed);
		return SESSION_STOP;
	}
	spec.seed = seed;
	spec.metrics = 1;
	report_progress(s, commit, NULL);
	ret = driver_result(&r, s->cfg.paths, s->cfg.repo, commit, &spec,
			    s->cfg.jobs, s->cfg.verbose);
	if (ret == DRIVER_UNSUPPORTED) {
		/* a revision no adapter covers cannot be tested: a skip */
		memset(&r, 0, sizeof(r));
		r.status = DRIVER_UNSUPPORTED;
		lsb_pathf(r.reason, sizeof(r.reason), "%s",
			  driver_last_error());
	} else if (ret) {
		guile_set_error("%s", driver_last_error());
		/* the simulator refused the workload or machine: the user's */
		return ret == DRIVER_USAGE ? SESSION_USAGE : SESSION_STOP;
	} else {
		take_prefetched(s, subset, seed, &r);
	}
	e = add_run(s);
	if (!e) {
		driver_result_release(&r);
		guile_set_error("out of memory");
		return SESSION_STOP;
	}
	memcpy(e->commit, commit, 41);
	memcpy(e->subset, subset, 41);
	e->seed = seed;
	e->cls = cls;
	e->status = r.status;
	e->reason = strdup(r.reason);
	e->source = r.from_cache ? RUN_CACHE : RUN_RAN;
	e->built = r.built;
	if (r.json) {
		e->result = cJSON_Parse(r.json);
		if (e->result)
			e->has_value = !metric_value(e->result, s->cfg.metric,
						    &e->value);
	}
	s->answer->nr_built += r.built;
	s->answer->nr_corrupt += r.removed_corrupt;
	if (r.from_cache)
		s->answer->nr_cached++;
	else if (r.status == DRIVER_OK || r.status == DRIVER_CRASHED ||
		 r.status == DRIVER_HUNG)
		s->answer->nr_ran++;
	ev = run_event(e, r.key);
	driver_result_release(&r);
	ret = log_event(s, ev, 1);
	cJSON_Delete(ev);
	*out = e;
	return ret;
}

/**
 * struct pre_rev - a revision (prefetch) makes runs of
 * @commit: its commit
 * @subset: its subset hash
 * @t: the prepared revision, when @prepared
 * @prepared: @t is to be released
 * @missing: the seeds among 1..K the session lacks
 * @pid: the child that builds it beside the others' (0: none)
 * @child: what that child's preparing did (PRE_*), when @pid ended well
 */
struct pre_rev {
	char commit[41];
	char subset[41];
	struct driver_target t;
	int prepared;
	size_t missing;
	pid_t pid;
	int child;
};

/* What a build child did, as its exit status. */
enum {
	PRE_BUILT = 1,		/* it built the revision */
	PRE_FRESH_FAILURE = 2,	/* the build failed now, not from the cache */
	PRE_CORRUPT = 4,	/* a corrupt cached failure was removed */
	PRE_ERROR = 64,		/* anything else: the parent prepares it again */
};

/* In a build child: prepare one revision; the exit status says how. */
static void __attribute__((noreturn))
build_child(struct session *s, const struct pre_rev *r, int jobs)
{
	struct driver_target t;
	int ret, code = PRE_ERROR;

	/* a bisection killed mid-round leaves no build behind it */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	ret = driver_target_prepare(&t, s->cfg.paths, s->cfg.repo, r->commit,
				    jobs, s->cfg.verbose);
	if (ret == DRIVER_OK)
		code = (t.built ? PRE_BUILT : 0) |
		       (t.status == DRIVER_BUILD_FAILED && !t.from_cache ?
			PRE_FRESH_FAILURE : 0) |
		       (t.removed_corrupt ? PRE_CORRUPT : 0);
	else if (ret == DRIVER_UNSUPPORTED)
		code = 0;	/* the parent finds that again at once */
	driver_target_release(&t);
	_exit(code);
}

/*
 * Prepare a revision that lacks runs: from the cache after a build child,
 * told what the child did. Its build failure is every seed's result, and
 * a revision no adapter covers is (run)'s to skip: @r->missing becomes 0.
 */
static int prepare_rev(struct session *s, struct pre_rev *r)
{
	int ret;

	if (!r->missing || r->prepared)
		return 0;
	report_progress(s, r->commit, NULL);
	ret = driver_target_prepare(&r->t, s->cfg.paths, s->cfg.repo,
				    r->commit, s->cfg.jobs, s->cfg.verbose);
	r->prepared = 1;
	if (ret == DRIVER_UNSUPPORTED) {
		r->missing = 0;
		return 0;
	}
	if (ret) {
		guile_set_error("%s", driver_last_error());
		return SESSION_STOP;
	}
	if (r->pid) {
		r->t.built |= !!(r->child & PRE_BUILT);
		if (r->child & PRE_FRESH_FAILURE)
			r->t.from_cache = 0;
		r->t.removed_corrupt |= !!(r->child & PRE_CORRUPT);
	}
	ret = add_prefetched(s, r->subset, 0, r->t.status == DRIVER_BUILD_FAILED &&
			     !r->t.from_cache, r->t.built, r->t.removed_corrupt);
	if (r->t.status != DRIVER_OK)
		r->missing = 0;
	return ret;
}

/* Whether a revision of this session ran: its build is a neighbour. */
static int ran_one(const struct session *s)
{
	size_t i;

	for (i = 0; i < s->nr_runs; i++)
		if (s->runs[i].status == DRIVER_OK)
			return 1;
	return 0;
}

/*
 * The revisions of a round that lack runs are built at once, a child
 * process each with its share of the build jobs; the parent then finds
 * each build (or build failure) in the cache. A child that fails leaves
 * its revision to the parent, which builds it and reports its error.
 * Before any revision of the session ran, the first is built alone, with
 * every job: the others can then be built from its objects (driver/'s
 * builds from a neighbour) rather than each from nothing.
 */
static int build_at_once(struct session *s, struct pre_rev *revs, size_t nr)
{
	size_t i, nb = 0;
	int jobs, st, ret;

	for (i = 0; i < nr; i++)
		nb += revs[i].missing > 0;
	for (i = 0; nb > 1 && !ran_one(s) && i < nr; i++)
		if (revs[i].missing) {
			ret = prepare_rev(s, &revs[i]);
			if (ret)
				return ret;
			nb--;
			break;
		}
	if (nb < 2)
		return 0;	/* prepared in this process, as for one */
	jobs = s->cfg.jobs / (int)nb > 1 ? s->cfg.jobs / (int)nb : 1;
	report_progress(s, revs[0].commit, NULL);
	for (i = 0; i < nr; i++) {
		if (!revs[i].missing || revs[i].prepared)
			continue;
		fflush(NULL);	/* the child must not write our buffers */
		revs[i].pid = fork();
		if (!revs[i].pid)
			build_child(s, &revs[i], jobs);
		if (revs[i].pid < 0)
			revs[i].pid = 0;
	}
	for (i = 0; i < nr; i++) {
		if (!revs[i].pid)
			continue;
		while (waitpid(revs[i].pid, &st, 0) < 0 && errno == EINTR)
			;
		revs[i].child = WIFEXITED(st) && WEXITSTATUS(st) < PRE_ERROR ?
				WEXITSTATUS(st) : PRE_ERROR;
		if (revs[i].child == PRE_ERROR)
			revs[i].pid = 0;
	}
	return 0;
}

/* The units of the prepared revisions, made at once into the cache. */
static int run_units(struct session *s, struct pre_rev *revs, size_t nr,
		     int k, struct driver_engine *engine, size_t *ran)
{
	struct driver_unit *units = calloc(nr * k, sizeof(*units));
	int *corrupt = calloc(nr * k, sizeof(*corrupt));
	struct driver_result r;
	size_t i, n = 0, u;
	int ret = 0;

	if (!units || !corrupt) {
		guile_set_error("out of memory");
		ret = SESSION_STOP;
		goto out;
	}
	for (i = 0; i < nr; i++)
		for (u = 1; revs[i].missing && u <= (size_t)k; u++) {
			if (known_run(s, revs[i].subset, u))
				continue;
			units[n].spec = s->cfg.run;
			units[n].spec.seed = u;
			units[n].spec.metrics = 1;
			units[n].target = &revs[i].t;
			/* a corrupt entry is removed here: count it as (run) would */
			driver_target_result(&r, s->cfg.paths, &revs[i].t,
					     &units[n].spec, DRIVER_RESULT_CHECK);
			corrupt[n++] = r.removed_corrupt;
			driver_result_release(&r);
		}
	if (n && driver_units_run(s->cfg.paths, units, n, engine, NULL,
				  NULL) < 0) {
		guile_set_error("%s", driver_last_error());
		ret = SESSION_STOP;
		goto out;
	}
	/* a unit that failed is made again by (run), which stops on its error */
	for (u = 0; u < n && !ret; u++) {
		int did = units[u].state == DRIVER_UNIT_RAN;

		*ran += did;
		ret = add_prefetched(s, units[u].target->subset,
				     units[u].spec.seed, did, 0, corrupt[u]);
	}
out:
	free(units);
	free(corrupt);
	return ret;
}

/* The revisions, located; the seeds each lacks; their total. */
static int missing_runs(struct session *s, const char *const *revs,
			struct pre_rev *r, size_t nr, int k, size_t *total)
{
	size_t i, j, u;
	long cls;
	int ret;

	*total = 0;
	for (i = 0; i < nr; i++) {
		ret = locate(s, revs[i], r[i].commit, &cls, r[i].subset);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(r[j].subset, r[i].subset))
				break;
		for (u = 1; j == i && u <= (size_t)k; u++)
			r[i].missing += !known_run(s, r[i].subset, u);
		*total += r[i].missing;
	}
	return 0;
}

int session_prefetch(struct session *s, const char *const *revs, size_t nr,
		     int k, size_t *ran)
{
	struct driver_engine *engine = s->cfg.engine;
	struct driver_engine local = { 0 };
	struct pre_rev *r;
	size_t i, n;
	int ret;

	*ran = 0;
	if (s->cfg.mode == GUILE_REPLAY || k < 1 || !nr)
		return 0;	/* a replay runs nothing: (run) reads the log */
	if (!engine) {
		local.jobs = s->cfg.jobs;
		local.retries = 2;
		engine = &local;
	}
	r = calloc(nr, sizeof(*r));
	if (!r) {
		guile_set_error("out of memory");
		return SESSION_STOP;
	}
	ret = missing_runs(s, revs, r, nr, k, &n);
	/* one at a time here: (run) makes them as well, one by one */
	if (ret || !n || (!engine->slurm && (n == 1 || engine->jobs <= 1)))
		goto out;
	ret = build_at_once(s, r, nr);
	for (i = 0; i < nr && !ret; i++)
		ret = prepare_rev(s, &r[i]);
	if (!ret)
		ret = run_units(s, r, nr, k, engine, ran);
out:
	for (i = 0; i < nr; i++)
		if (r[i].prepared)
			driver_target_release(&r[i].t);
	free(r);
	return ret;
}

int session_build(struct session *s, const char *rev, int *status,
		  char **exe_or_reason)
{
	struct driver_revision r;
	int ret;

	*exe_or_reason = NULL;
	ret = driver_prepare(&r, s->cfg.paths, s->cfg.repo, rev, s->cfg.jobs,
			     s->cfg.verbose);
	*status = ret;
	if (ret == DRIVER_OK) {
		*exe_or_reason = r.exe;
		return 0;
	}
	driver_revision_release(&r);
	if (ret == DRIVER_BUILD_FAILED || ret == DRIVER_UNSUPPORTED) {
		*exe_or_reason = strdup(driver_last_error());
		return 0;
	}
	guile_set_error("%s", driver_last_error());
	return SESSION_STOP;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The run of GOOD with @seed the session knows, or NULL. */
static const struct run_entry *good_run(const struct session *s,
					unsigned long long seed)
{
	size_t i;

	for (i = 0; i < s->nr_runs; i++)
		if (s->runs[i].seed == seed &&
		    !strcmp(s->runs[i].subset, s->classes->good_subset))
			return &s->runs[i];
	return NULL;
}

/*
 * The metric over the runs of a subset, their count and median, as a JSON
 * array; with @good, GOOD's metric for the same seeds into
 * @st->good_values and *@good.
 */
static cJSON *step_values(const struct session *s, const char *subset,
			  struct guile_step *st, cJSON **good)
{
	cJSON *arr = cJSON_CreateArray();
	double *v = calloc(s->nr_runs + 1, sizeof(double));
	double *g = good ? calloc(s->nr_runs + 1, sizeof(double)) : NULL;
	size_t i, n = 0;

	if (good)
		*good = cJSON_CreateArray();
	for (i = 0; i < s->nr_runs; i++) {
		const struct run_entry *gr;

		if (strcmp(s->runs[i].subset, subset))
			continue;
		st->nr_runs++;
		if (!s->runs[i].has_value || !v)
			continue;
		v[n++] = s->runs[i].value;
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(s->runs[i].value));
		gr = good ? good_run(s, s->runs[i].seed) : NULL;
		if (gr && gr->has_value && g) {
			g[st->nr_good_values++] = gr->value;
			cJSON_AddItemToArray(*good,
					     cJSON_CreateNumber(gr->value));
		}
	}
	if (n) {
		st->values = malloc(n * sizeof(double));
		if (st->values) {
			memcpy(st->values, v, n * sizeof(double));
			st->nr_values = n;
		}
		qsort(v, n, sizeof(double), dbl_cmp);
		st->has_value = 1;
		st->value = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	if (st->nr_good_values)
		st->good_values = g;
	else
		free(g);
	free(v);
	return arr;
}

/* The classes joined to a step, checked and kept with it. */
static int step_joined(const struct session *s, struct guile_step *st,
		       const long *joined, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (joined[i] < 0 || joined[i] >= (long)s->classes->nr_classes ||
		    joined[i] == st->cls || (i && joined[i] <= joined[i - 1])) {
			guile_set_error("log-step: the joined classes must be classes of the range other than %ld, ascending",
					st->cls);
			return SESSION_STOP;
		}
	if (!nr)
		return 0;
	st->joined = malloc(nr * sizeof(long));
	if (!st->joined) {
		guile_set_error("out of memory");
		return SESSION_STOP;
	}
	memcpy(st->joined, joined, nr * sizeof(long));
	st->nr_joined = nr;
	return 0;
}

/* Whether a logged step decided as @st: class, verdict, joined classes. */
static int same_step(const cJSON *logged, const struct guile_step *st)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(logged, "joined");
	const cJSON *c;
	size_t i = 0;

	if ((long)num_of(logged, "class", -9) != st->cls ||
	    strcmp(str_of(logged, "verdict"), st->verdict))
		return 0;
	cJSON_ArrayForEach(c, j) {
		if (i >= st->nr_joined || !cJSON_IsNumber(c) ||
		    (long)c->valuedouble != st->joined[i])
			return 0;
		i++;
	}
	return i == st->nr_joined;
}

/* " with classes 3-4, 6" for a step's joined classes, or "" */
static void joined_text(char *out, size_t len, const long *v, size_t n)
{
	*out = '\0';
	if (n) {
		lsb_pathf(out, len, " with class%s ", n == 1 ? "" : "es");
		lsb_ranges_text(out + strlen(out), len - strlen(out), v, n);
	}
}

/* The error of a resumed or replayed step that decides otherwise. */
static int step_differs(const struct session *s, const cJSON *logged,
			const struct guile_step *st)
{
	const cJSON *c;
	char was[300], now[300];
	long jl[64];
	size_t n = 0;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(logged,
								"joined"))
		if (n < 64 && cJSON_IsNumber(c))
			jl[n++] = (long)c->valuedouble;
	joined_text(was, sizeof(was), jl, n);
	joined_text(now, sizeof(now), st->joined, st->nr_joined);
	guile_set_error("step %d differs from the log '%s': the log has class %ld %s%s, now class %ld is %s%s%s",
			st->step, s->answer->log_path,
			(long)num_of(logged, "class", -9),
			str_of(logged, "verdict"), was, st->cls, st->verdict,
			now, s->cfg.mode == GUILE_REPLAY ? "" :
			" (did the script change? run without --continue to start again: the result cache keeps the runs)");
	return SESSION_STOP;
}

int session_step(struct session *s, long cls, const char *verdict,
		 const char *reason, cJSON *details, long round,
		 const long *joined, size_t nr_joined)
{
	struct guile_answer *a = s->answer;
	struct guile_step *st;
	const char *commit, *subset;
	cJSON *ev, *logged, *values, *good = NULL;
	void *p;
	int ret = 0, skip;

	if (!s->classes || cls < -1 || cls >= (long)s->classes->nr_classes) {
		guile_set_error("log-step: no class %ld in the range", cls);
		cJSON_Delete(details);
		return SESSION_STOP;
	}
	if (strcmp(verdict, "good") && strcmp(verdict, "bad") &&
	    strcmp(verdict, "skip")) {
		guile_set_error("log-step: the verdict '%s' is not good, bad or skip",
				verdict);
		cJSON_Delete(details);
		return SESSION_STOP;
	}
	skip = !strcmp(verdict, "skip");
	commit = cls < 0 ? s->classes->good :
		 s->classes->commits[s->classes->classes[cls].first];
	subset = cls < 0 ? s->classes->good_subset :
		 s->classes->classes[cls].subset;
	p = realloc(a->steps, (a->nr_steps + 1) * sizeof(*a->steps));
	if (!p) {
		guile_set_error("out of memory");
		cJSON_Delete(details);
		return SESSION_STOP;
	}
	a->steps = p;
	st = &a->steps[a->nr_steps++];
	memset(st, 0, sizeof(*st));
	st->step = ++s->step;
	st->cls = cls;
	lsb_pathf(st->commit, sizeof(st->commit), "%s", commit);
	lsb_pathf(st->verdict, sizeof(st->verdict), "%s", verdict);
	lsb_pathf(st->reason, sizeof(st->reason), "%s", reason ? reason : "");
	if (step_joined(s, st, joined, nr_joined)) {
		cJSON_Delete(details);
		return SESSION_STOP;
	}
	if (details)
		st->details = lsb_json_print(details, 0);

	ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "event", "step");
	cJSON_AddNumberToObject(ev, "step", st->step);
	/* a step alone in its round (--width 1) has none, as logs had */
	if (round > 0)
		cJSON_AddNumberToObject(ev, "round", round);
	cJSON_AddNumberToObject(ev, "class", cls);
	cJSON_AddStringToObject(ev, "commit", commit);
	cJSON_AddStringToObject(ev, "subset", subset);
	cJSON_AddStringToObject(ev, "verdict", verdict);
	cJSON_AddStringToObject(ev, "reason", st->reason);
	cJSON_AddStringToObject(ev, "metric", s->cfg.metric);
	/* a revision that ran and did not decide: GOOD's figures beside */
	values = step_values(s, subset, st, skip && cls >= 0 ? &good : NULL);
	cJSON_AddItemToObject(ev, "values", values);
	if (good && st->has_value)
		cJSON_AddItemToObject(ev, "good_values", good);
	else
		cJSON_Delete(good);
	if (st->has_value)
		cJSON_AddNumberToObject(ev, "value", st->value);
	else
		cJSON_AddNullToObject(ev, "value");
	if (nr_joined) {
		cJSON *arr = cJSON_AddArrayToObject(ev, "joined");
		size_t i;

		for (i = 0; i < nr_joined; i++)
			cJSON_AddItemToArray(arr,
					     cJSON_CreateNumber(joined[i]));
	}
	if (details)
		cJSON_AddItemToObject(ev, "details", details);

	logged = cJSON_GetArrayItem(s->logged_steps, st->step - 1);
	if (logged) {
		/* a resumed or replayed step must decide as the log did */
		if (!same_step(logged, st))
			ret = step_differs(s, logged, st);
	} else {
		/* GOOD, and skips, do not begin a new bisection's log */
		ret = log_event(s, ev, cls < 0 || skip);
	}
	cJSON_Delete(ev);
	if (!ret)
		report_progress(s, NULL, st);
	return ret;
}

static void report_progress(struct session *s, const char *running,
			    const struct guile_step *decided)
{
	const struct guile_step *st;
	struct guile_progress p = { 0 };

	if (!s->cfg.on_progress)
		return;
	st = s->answer->nr_steps ? &s->answer->steps[s->answer->nr_steps - 1] :
				   NULL;
	p.step = st ? st->step : 0;
	p.cls = st ? st->cls : -1;
	p.verdict = st ? st->verdict : "";
	p.commits_left = s->commits_left;
	p.steps_left = s->steps_left;
	p.running = running;
	p.decided = decided;
	s->cfg.on_progress(&p, s->cfg.payload);
}

void session_progress(struct session *s, size_t commits_left,
		      int steps_left)
{
	s->commits_left = commits_left;
	s->steps_left = steps_left;
	report_progress(s, NULL, NULL);
}

int session_note(struct session *s, const char *msg)
{
	cJSON *ev = cJSON_CreateObject();
	int ret;

	if (s->cfg.on_message)
		s->cfg.on_message(msg, s->cfg.payload);
	cJSON_AddStringToObject(ev, "event", "note");
	cJSON_AddStringToObject(ev, "message", msg);
	ret = log_append(s, ev);
	cJSON_Delete(ev);
	return ret;
}

static const char *outcome_name(enum guile_outcome o)
{
	switch (o) {
	case GUILE_CULPRIT: return "culprit";
	case GUILE_NO_REGRESSION: return "no-regression";
	case GUILE_AMBIGUOUS: return "ambiguous";
	case GUILE_USAGE: return "usage";
	default: return "stopped";
	}
}

int session_end(struct session *s)
{
	const struct guile_answer *a = s->answer;
	cJSON *ev = cJSON_CreateObject(), *arr;
	size_t i;
	int ret = 0;

	cJSON_AddStringToObject(ev, "event", "end");
	cJSON_AddStringToObject(ev, "outcome", outcome_name(a->outcome));
	if (a->outcome == GUILE_CULPRIT) {
		cJSON_AddNumberToObject(ev, "class", a->culprit);
		cJSON_AddStringToObject(ev, "commit",
			s->classes->commits[s->classes->classes[a->culprit].first]);
	}
	arr = cJSON_AddArrayToObject(ev, "candidates");
	for (i = 0; i < a->nr_candidates; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(a->candidates[i]));
	if (s->logged_end) {
		if (strcmp(str_of(s->logged_end, "outcome"),
			   outcome_name(a->outcome)) ||
		    num_of(s->logged_end, "class", -1) !=
		    num_of(ev, "class", -1)) {
			guile_set_error("the answer differs from the log '%s': it ended with %s, now %s",
					a->log_path,
					str_of(s->logged_end, "outcome"),
					outcome_name(a->outcome));
			ret = SESSION_STOP;
		}
	} else {
		ret = log_append(s, ev);
	}
	cJSON_Delete(ev);
	return ret;
}

int guile_config_from_log(struct guile_config *cfg, const char *log)
{
	size_t len;
	char *text = lsb_read_file(log, &len), *nl;
	cJSON *o, *v;

	if (!text) {
		guile_set_error("cannot read the log '%s': %s", log,
				strerror(errno));
		return -1;
	}
	nl = strchr(text, '\n');
	o = nl ? cJSON_ParseWithLength(text, nl - text) : NULL;
	free(text);
	if (!o || strcmp(str_of(o, "event"), "start")) {
		cJSON_Delete(o);
		guile_set_error("log '%s' does not begin with a start event",
				log);
		return -1;
	}
	guile_config_release(cfg);
	cfg->owned = o;
	cfg->repo = str_of(o, "repo");
	cfg->good = str_of(o, "good_commit");
	cfg->bad = str_of(o, "bad_commit");
	cfg->run.workload = str_of(o, "workload");
	cfg->run.topology = str_of(o, "topology");
	v = cJSON_GetObjectItemCaseSensitive(o, "duration");
	cfg->run.duration = cJSON_IsString(v) ? v->valuestring : NULL;
	cfg->run.governor = str_of(o, "governor");
	cfg->run.cpuidle = str_of(o, "cpuidle");
	if (!*cfg->run.cpuidle || !strcmp(cfg->run.cpuidle, "kernel"))
		cfg->run.cpuidle = NULL;
	v = cJSON_GetObjectItemCaseSensitive(o, "jitter");
	cfg->run.jitter = cJSON_IsString(v) ? v->valuestring : NULL;
	cfg->run.no_energy_model = cJSON_IsFalse(
		cJSON_GetObjectItemCaseSensitive(o, "energy_model"));
	cfg->run.fatal_warnings = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(o, "fatal_warnings"));
	cfg->run.timeout_s = (int)num_of(o, "timeout_s", 600);
	cfg->metric = str_of(o, "metric");
	cfg->threshold = num_of(o, "threshold", 5);
	cfg->seeds = (int)num_of(o, "seeds", 1);
	cfg->max_seeds = (int)num_of(o, "max_seeds", cfg->seeds);
	cfg->width = (int)num_of(o, "width", 1);
	cfg->first_parent = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(o, "first_parent"));
	v = cJSON_GetObjectItemCaseSensitive(o, "script");
	cfg->script = cJSON_IsString(v) ? v->valuestring : NULL;
	return 0;
}

void guile_config_release(struct guile_config *cfg)
{
	cJSON_Delete(cfg->owned);
	cfg->owned = NULL;
}
