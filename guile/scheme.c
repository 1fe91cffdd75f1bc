// SPDX-License-Identifier: GPL-2.0-only
/*
 * scheme.c - the (lsbisect) module: its primitives, the loader that
 * compiles Scheme files so errors carry file:line:column, the safe call
 * every entry from C into Scheme goes through, and the entry points.
 *
 * Primitives hold no C resources when they raise a Scheme error: strings
 * taken from Scheme are freed by dynwind, everything else is released
 * before scm_error() is called. No Scheme exception crosses a C frame of
 * another module.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libguile.h>

#include "common/common.h"
#include "guile/guile_internal.h"
#include "metrics/metrics.h"

/* The session the primitives act on (one at a time, in Guile's thread). */
static struct session *cur;

#define KEY_ERROR "lsbisect-error"
#define KEY_USAGE "lsbisect-usage"
#define KEY_METRIC "lsbisect-metric"

static void __attribute__((noreturn))
throw_error(const char *key, const char *subr, const char *msg)
{
	scm_error(scm_from_utf8_symbol(key), subr, "~A",
		  scm_list_1(scm_from_utf8_string(msg)), SCM_BOOL_F);
}

/* Raise the session's error as its code says. */
static void __attribute__((noreturn)) raise_session(const char *subr, int err)
{
	throw_error(err == SESSION_USAGE ? KEY_USAGE : KEY_ERROR, subr,
	      guile_last_error());
}

static struct session *session(const char *subr)
{
	if (!cur)
		throw_error(KEY_ERROR, subr, "no bisection session");
	return cur;
}

/* A string or symbol argument as a C string freed when dynwind ends. */
static char *arg_str(SCM s, int pos, const char *subr)
{
	char *c;

	if (scm_is_symbol(s))
		s = scm_symbol_to_string(s);
	if (!scm_is_string(s))
		scm_wrong_type_arg_msg(subr, pos, s, "string or symbol");
	c = scm_to_utf8_string(s);
	scm_dynwind_free(c);
	return c;
}

static SCM str(const char *s)
{
	return scm_from_utf8_string(s ? s : "");
}

static SCM sym(const char *s)
{
	return scm_from_utf8_symbol(s);
}

/* JSON as Scheme: objects are alists with string keys, arrays vectors. */
/* A JSON number as Scheme: exact when it is an integer a double holds. */
static SCM number_to_scm(double d)
{
	if (d == floor(d) && fabs(d) < 9007199254740992.0)
		return scm_from_int64((int64_t)d);
	return scm_from_double(d);
}

static SCM json_to_scm(const cJSON *j)
{
	const cJSON *c;
	SCM l = SCM_EOL, v;
	size_t i, n;

	if (cJSON_IsObject(j)) {
		cJSON_ArrayForEach(c, j) {
			l = scm_cons(scm_cons(str(c->string), json_to_scm(c)),
				     l);
		}
		return scm_reverse_x(l, SCM_EOL);
	}
	if (cJSON_IsArray(j)) {
		n = (size_t)cJSON_GetArraySize(j);
		v = scm_c_make_vector(n, SCM_BOOL_F);
		i = 0;
		cJSON_ArrayForEach(c, j) {
			scm_c_vector_set_x(v, i++, json_to_scm(c));
		}
		return v;
	}
	if (cJSON_IsNumber(j))
		return number_to_scm(j->valuedouble);
	if (cJSON_IsString(j))
		return str(j->valuestring);
	if (cJSON_IsBool(j))
		return scm_from_bool(cJSON_IsTrue(j));
	return sym("null");
}

static int is_alist(SCM x)
{
	if (!scm_is_pair(x))
		return 0;
	for (; scm_is_pair(x); x = scm_cdr(x)) {
		SCM p = scm_car(x);

		if (!scm_is_pair(p) ||
		    !(scm_is_symbol(scm_car(p)) || scm_is_string(scm_car(p))))
			return 0;
	}
	return scm_is_null(x);
}

/* Scheme as JSON, for what a strategy logs; the result is the caller's. */
static cJSON *scm_to_json(SCM x)
{
	cJSON *o;
	char *s;

	if (scm_is_bool(x))
		return cJSON_CreateBool(scm_is_true(x));
	if (scm_is_real(x)) {
		double d = scm_to_double(x);

		return isfinite(d) ? cJSON_CreateNumber(d) : cJSON_CreateNull();
	}
	if (scm_is_string(x) || scm_is_symbol(x)) {
		s = scm_to_utf8_string(scm_is_symbol(x) ?
				       scm_symbol_to_string(x) : x);
		o = cJSON_CreateString(s);
		free(s);
		return o;
	}
	if (is_alist(x)) {
		o = cJSON_CreateObject();
		for (; scm_is_pair(x); x = scm_cdr(x)) {
			SCM k = scm_car(scm_car(x));

			s = scm_to_utf8_string(scm_is_symbol(k) ?
					       scm_symbol_to_string(k) : k);
			cJSON_AddItemToObject(o, s, scm_to_json(scm_cdr(scm_car(x))));
			free(s);
		}
		return o;
	}
	if (scm_is_null(x) || scm_is_pair(x) || scm_is_vector(x)) {
		o = cJSON_CreateArray();
		if (scm_is_vector(x))
			x = scm_vector_to_list(x);
		for (; scm_is_pair(x); x = scm_cdr(x))
			cJSON_AddItemToArray(o, scm_to_json(scm_car(x)));
		return o;
	}
	s = scm_to_utf8_string(scm_simple_format(SCM_BOOL_F, str("~S"),
						 scm_list_1(x)));
	o = cJSON_CreateString(s);
	free(s);
	return o;
}

static SCM acons(const char *key, SCM value, SCM alist)
{
	return scm_cons(scm_cons(str(key), value), alist);
}

/* A run as Scheme: a header of strings keys, then the simulator's JSON. */
static SCM run_to_scm(const struct run_entry *e)
{
	static const char *const sources[] = { "ran", "cache", "log" };
	SCM l = e->result ? json_to_scm(e->result) : SCM_EOL;

	l = acons("source", str(sources[e->source]), l);
	l = acons("subset", str(e->subset), l);
	l = acons("class", scm_from_long(e->cls), l);
	l = acons("seed", scm_from_ulong(e->seed), l);
	l = acons("commit", str(e->commit), l);
	l = acons("reason", str(e->reason), l);
	l = acons("outcome", str(driver_status_name(e->status)), l);
	return l;
}

static SCM class_to_scm(const struct bisect_classes *c, size_t i)
{
	const struct bisect_class *k = &c->classes[i];
	SCM commits = SCM_EOL;
	size_t j;

	for (j = k->n; j-- > 0;)
		commits = scm_cons(str(c->commits[k->first + j]), commits);
	return scm_list_4(scm_cons(sym("index"), scm_from_size_t(i)),
			  scm_cons(sym("commit"), str(c->commits[k->first])),
			  scm_cons(sym("commits"), commits),
			  scm_cons(sym("subset"), str(k->subset)));
}

static SCM classes_to_scm(const struct bisect_classes *c)
{
	SCM v = scm_c_make_vector(c ? c->nr_classes : 0, SCM_BOOL_F);
	size_t i;

	for (i = 0; c && i < c->nr_classes; i++)
		scm_c_vector_set_x(v, i, class_to_scm(c, i));
	return v;
}

/* (resolve REV) → the commit's 40 hex digits */
static SCM p_resolve(SCM rev)
{
	struct session *s = session("resolve");
	char hex[41], *r;
	int err;

	scm_dynwind_begin(0);
	r = arg_str(rev, 1, "resolve");
	err = session_resolve(s, r, hex);
	scm_dynwind_end();
	if (err)
		raise_session("resolve", err);
	return str(hex);
}

/* (revision-range GOOD BAD [FIRST-PARENT]) → a vector of classes */
static SCM p_revision_range(SCM good, SCM bad, SCM first_parent)
{
	struct session *s = session("revision-range");
	struct bisect_classes *c = NULL;
	char *g, *b;
	SCM v;
	int err;

	if (!s->repo)
		throw_error(KEY_ERROR, "revision-range", "no repository");
	scm_dynwind_begin(0);
	g = arg_str(good, 1, "revision-range");
	b = arg_str(bad, 2, "revision-range");
	err = bisect_classes_new(&c, s->repo, g, b,
				 !SCM_UNBNDP(first_parent) &&
				 scm_is_true(first_parent));
	scm_dynwind_end();
	if (err) {
		guile_set_error("%s", bisect_last_error());
		raise_session("revision-range", SESSION_STOP);
	}
	v = classes_to_scm(c);
	bisect_classes_free(c);
	return v;
}

/* (session KEY) → a setting or the range of the session */
static SCM p_session(SCM key)
{
	struct session *s = session("session");
	const struct guile_config *c = &s->cfg;
	const struct bisect_classes *k = s->classes;
	SCM v = SCM_UNDEFINED;
	char *name;

	scm_dynwind_begin(0);
	name = arg_str(key, 1, "session");
	if (!strcmp(name, "good"))
		v = k ? str(k->good) : SCM_BOOL_F;
	else if (!strcmp(name, "bad"))
		v = k ? str(k->bad) : SCM_BOOL_F;
	else if (!strcmp(name, "good-name"))
		v = c->good ? str(c->good) : SCM_BOOL_F;
	else if (!strcmp(name, "bad-name"))
		v = c->bad ? str(c->bad) : SCM_BOOL_F;
	else if (!strcmp(name, "classes"))
		v = classes_to_scm(k);
	else if (!strcmp(name, "metric"))
		v = str(c->metric);
	else if (!strcmp(name, "threshold"))
		v = scm_from_double(c->threshold);
	else if (!strcmp(name, "seeds"))
		v = scm_from_int(c->seeds);
	else if (!strcmp(name, "max-seeds"))
		v = scm_from_int(c->max_seeds);
	else if (!strcmp(name, "workload"))
		v = str(c->run.workload);
	else if (!strcmp(name, "topology"))
		v = str(c->run.topology);
	else if (!strcmp(name, "duration"))
		v = c->run.duration ? str(c->run.duration) : SCM_BOOL_F;
	else if (!strcmp(name, "first-parent"))
		v = scm_from_bool(c->first_parent);
	else if (!strcmp(name, "repo"))
		v = str(c->repo);
	else if (!strcmp(name, "engine"))
		v = sym(c->engine && c->engine->slurm ? "slurm" : "local");
	else if (!strcmp(name, "width"))
		v = scm_from_int(c->width > 1 ? c->width : 1);
	else if (!strcmp(name, "jobs"))
		v = scm_from_int(c->engine ? c->engine->jobs : c->jobs);
	else if (!strcmp(name, "log"))
		v = *s->answer->log_path ? str(s->answer->log_path) : SCM_BOOL_F;
	else if (!strcmp(name, "mode"))
		v = sym(c->mode == GUILE_NEW ? "new" :
			c->mode == GUILE_CONTINUE ? "continue" : "replay");
	else if (!strcmp(name, "format"))
		v = scm_from_int(s->format);
	scm_dynwind_end();
	if (SCM_UNBNDP(v))
		scm_misc_error("session", "unknown key ~S: good, bad, good-name, bad-name, classes, metric, threshold, seeds, max-seeds, workload, topology, duration, first-parent, width, repo, engine, jobs, log, mode, format",
			       scm_list_1(key));
	return v;
}

/*
 * A seed the log keeps exactly: its JSON numbers are doubles, so seeds
 * stop at 2^53 (the simulator takes any 64-bit one).
 */
static unsigned long long seed_arg(SCM seed, const char *subr)
{
	if (SCM_UNBNDP(seed))
		return 1;
	if (!scm_is_unsigned_integer(seed, 0, 1ULL << 53))
		scm_wrong_type_arg_msg(subr, 2, seed,
				       "integer from 0 to 2^53 (the log's JSON keeps no larger one exactly)");
	return scm_to_uint64(seed);
}

/* (run REV [SEED]) → a result, maybe a skip */
static SCM p_run(SCM rev, SCM seed)
{
	struct session *s = session("run");
	unsigned long long sd = seed_arg(seed, "run");
	const struct run_entry *e;
	char *r;
	int err;

	scm_dynwind_begin(0);
	r = arg_str(rev, 1, "run");
	err = session_run(s, r, sd, &e);
	scm_dynwind_end();
	if (err)
		raise_session("run", err);
	return run_to_scm(e);
}

static int seeds_arg(SCM k, const char *subr)
{
	if (!scm_is_signed_integer(k, 0, 100000))
		scm_wrong_type_arg_msg(subr, 2, k,
				       "number of seeds (0 to 100000)");
	return scm_to_int(k);
}

/*
 * (prefetch REV K) → how many of seeds 1..K it ran: those the session
 * (its log) lacks, as one list of units on the engine; (run REV SEED)
 * then reads them from the cache
 */
static SCM p_prefetch(SCM rev, SCM k)
{
	struct session *s = session("prefetch");
	int seeds = seeds_arg(k, "prefetch");
	size_t ran;
	const char *r;
	int err;

	scm_dynwind_begin(0);
	r = arg_str(rev, 1, "prefetch");
	err = session_prefetch(s, &r, 1, seeds, &ran);
	scm_dynwind_end();
	if (err)
		raise_session("prefetch", err);
	return scm_from_size_t(ran);
}

/*
 * (prefetch-many (REV ...) K) → how many runs it made: (prefetch) of
 * every REV at once, their builds side by side, their runs one list of
 * units
 */
static SCM p_prefetch_many(SCM revs, SCM k)
{
	struct session *s = session("prefetch-many");
	int seeds = seeds_arg(k, "prefetch-many");
	long i, n = scm_ilength(revs);
	const char **r;
	size_t ran;
	int err;

	if (n < 0)
		scm_wrong_type_arg_msg("prefetch-many", 1, revs,
				       "list of revisions");
	scm_dynwind_begin(0);
	r = scm_gc_malloc_pointerless((n + 1) * sizeof(*r), "prefetch-many");
	for (i = 0; i < n; i++, revs = scm_cdr(revs))
		r[i] = arg_str(scm_car(revs), 1, "prefetch-many");
	err = session_prefetch(s, r, (size_t)n, seeds, &ran);
	scm_dynwind_end();
	if (err)
		raise_session("prefetch-many", err);
	return scm_from_size_t(ran);
}

/* (build REV) → the simulator's path, or a skip */
static SCM p_build(SCM rev)
{
	struct session *s = session("build");
	char *r, *what = NULL;
	int err, status;
	SCM v;

	scm_dynwind_begin(0);
	r = arg_str(rev, 1, "build");
	err = session_build(s, r, &status, &what);
	scm_dynwind_end();
	if (err)
		raise_session("build", err);
	if (status == DRIVER_OK)
		v = str(what);
	else
		v = scm_list_2(scm_cons(str("outcome"),
					str(driver_status_name(status))),
			       scm_cons(str("reason"), str(what)));
	free(what);
	return v;
}

static SCM ref(SCM alist, const char *key)
{
	SCM p = scm_is_pair(alist) || scm_is_null(alist) ?
		scm_assoc(str(key), alist) : SCM_BOOL_F;

	return scm_is_pair(p) ? scm_cdr(p) : SCM_BOOL_F;
}

/* (skip? R) → whether a result is a skip */
static SCM p_skip_p(SCM r)
{
	SCM o = ref(r, "outcome");

	return scm_from_bool(scm_is_string(o) &&
			     scm_is_false(scm_string_equal_p(o, str("ok"))));
}

/* (skip-reason R) → why, or #f */
static SCM p_skip_reason(SCM r)
{
	return scm_is_true(p_skip_p(r)) ? ref(r, "reason") : SCM_BOOL_F;
}

/* The numeric leaves of an alist, as dotted names, for a message. */
static void leaves(SCM alist, const char *prefix, char *out, size_t len)
{
	for (; scm_is_pair(alist); alist = scm_cdr(alist)) {
		SCM p = scm_car(alist);
		char name[256], *k;
		size_t used = strlen(out);

		if (!scm_is_pair(p) || !scm_is_string(scm_car(p)))
			continue;
		k = scm_to_utf8_string(scm_car(p));
		snprintf(name, sizeof(name), "%s%s", prefix, k);
		free(k);
		if (scm_is_real(scm_cdr(p)))
			snprintf(out + used, len - used, "%s%s", used ? ", " : "",
				 name);
		else if (is_alist(scm_cdr(p)) && !strchr(prefix, '.')) {
			strncat(name, ".", sizeof(name) - strlen(name) - 1);
			leaves(scm_cdr(p), name, out, len);
		}
	}
}

/* (metric R NAME) → a number, as metrics/catalogue.c reads NAME */
static SCM p_metric(SCM r, SCM name)
{
	char *n, msg[2048] = "";
	const struct metric_def *cat;
	size_t i, nc;
	cJSON *j;
	double v;
	int err;

	if (!scm_is_string(ref(r, "outcome")))
		scm_wrong_type_arg_msg("metric", 1, r, "result");
	scm_dynwind_begin(0);
	n = arg_str(name, 2, "metric");
	if (scm_is_true(p_skip_p(r))) {
		char *why = scm_to_utf8_string(p_skip_reason(r));

		snprintf(msg, sizeof(msg), "metric '%s' of a skipped run (%s)",
			 n, why);
		free(why);
		scm_dynwind_end();
		throw_error(KEY_ERROR, "metric", msg);
	}
	j = scm_to_json(r);
	err = metric_value(j, n, &v);
	cJSON_Delete(j);
	if (!err) {
		scm_dynwind_end();
		return number_to_scm(v);
	}
	snprintf(msg, sizeof(msg), "unknown metric '%s'; the catalogue has: ",
		 n);
	scm_dynwind_end();
	cat = metric_catalogue(&nc);
	for (i = 0; i < nc; i++)
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "%s%s",
			 i ? ", " : "", cat[i].name);
	strncat(msg, "; the results also have: ", sizeof(msg) - strlen(msg) - 1);
	leaves(ref(r, "metrics"), "", msg + strlen(msg),
	       sizeof(msg) - strlen(msg));
	strncat(msg, "; and in power: ", sizeof(msg) - strlen(msg) - 1);
	leaves(ref(r, "power"), "", msg + strlen(msg),
	       sizeof(msg) - strlen(msg));
	throw_error(KEY_METRIC, "metric", msg);
}

/* (higher-is-better? NAME) → the catalogue's direction of NAME */
static SCM p_higher_is_better(SCM name)
{
	char *n;
	SCM v;

	if (scm_is_symbol(name))
		name = scm_symbol_to_string(name);
	scm_dynwind_begin(0);
	n = arg_str(name, 1, "higher-is-better?");
	v = scm_from_bool(metric_higher_is_better(n));
	scm_dynwind_end();
	return v;
}

/* (log MESSAGE) → a note in the log, shown to the user */
static SCM p_log(SCM message)
{
	struct session *s = session("log");
	char *m;
	int err;

	if (!scm_is_string(message))
		message = scm_simple_format(SCM_BOOL_F, str("~A"),
					    scm_list_1(message));
	scm_dynwind_begin(0);
	m = arg_str(message, 1, "log");
	err = session_note(s, m);
	scm_dynwind_end();
	if (err)
		raise_session("log", err);
	return SCM_UNSPECIFIED;
}

/*
 * (log-step CLASS VERDICT [REASON [DETAILS [ROUND [JOINED]]]]) → a
 * decided step; JOINED, the classes that take its verdict with it
 */
static SCM p_log_step(SCM cls, SCM verdict, SCM reason, SCM details,
		      SCM round, SCM joined)
{
	struct session *s = session("log-step");
	char *v, *r = "";
	cJSON *d = NULL;
	long rd = 0, *jl = NULL, n = 0, i;
	int err;

	if (!scm_is_signed_integer(cls, -1, LONG_MAX))
		scm_wrong_type_arg_msg("log-step", 1, cls,
				       "class index (-1 for GOOD)");
	if (!SCM_UNBNDP(round) && scm_is_true(round)) {
		if (!scm_is_signed_integer(round, 1, LONG_MAX))
			scm_wrong_type_arg_msg("log-step", 5, round,
					       "round number (from 1) or #f");
		rd = scm_to_long(round);
	}
	if (!SCM_UNBNDP(joined)) {
		SCM l;

		n = scm_ilength(joined);
		for (l = joined; n > 0 && scm_is_pair(l); l = scm_cdr(l))
			if (!scm_is_signed_integer(scm_car(l), 0, LONG_MAX))
				n = -1;
		if (n < 0)
			scm_wrong_type_arg_msg("log-step", 6, joined,
					       "list of class indexes");
	}
	scm_dynwind_begin(0);
	if (n) {
		SCM l = joined;

		jl = scm_gc_malloc_pointerless(n * sizeof(*jl), "log-step");
		for (i = 0; i < n; i++, l = scm_cdr(l))
			jl[i] = scm_to_long(scm_car(l));
	}
	v = arg_str(verdict, 2, "log-step");
	if (!SCM_UNBNDP(reason) && scm_is_true(reason))
		r = arg_str(reason, 3, "log-step");
	if (!SCM_UNBNDP(details))
		d = scm_to_json(details);
	err = session_step(s, scm_to_long(cls), v, r, d, rd, jl, (size_t)n);
	scm_dynwind_end();
	if (err)
		raise_session("log-step", err);
	return SCM_UNSPECIFIED;
}

/* (progress COMMITS-LEFT STEPS-LEFT) → shown after a step */
static SCM p_progress(SCM left, SCM steps)
{
	struct session *s = session("progress");

	if (!scm_is_unsigned_integer(left, 0, SIZE_MAX))
		scm_wrong_type_arg_msg("progress", 1, left, "count");
	if (!scm_is_signed_integer(steps, 0, INT_MAX))
		scm_wrong_type_arg_msg("progress", 2, steps, "count");
	session_progress(s, scm_to_size_t(left), scm_to_int(steps));
	return SCM_UNSPECIFIED;
}

/* (commit-info REV) → id, parent, subject, author, time, files */
static SCM p_commit_info(SCM rev)
{
	struct session *s = session("commit-info");
	struct bisect_commit_info info;
	SCM files = SCM_EOL, v;
	char *r;
	size_t i;
	int err;

	if (!s->repo)
		throw_error(KEY_ERROR, "commit-info", "no repository");
	scm_dynwind_begin(0);
	r = arg_str(rev, 1, "commit-info");
	err = bisect_commit_info(&info, s->repo, r, bisect_report_prefixes,
				 BISECT_NR_REPORT_PREFIXES);
	scm_dynwind_end();
	if (err) {
		bisect_commit_info_release(&info);
		guile_set_error("%s", bisect_last_error());
		raise_session("commit-info", SESSION_STOP);
	}
	for (i = info.nr_files; i-- > 0;)
		files = scm_cons(str(info.files[i]), files);
	v = scm_list_n(scm_cons(sym("id"), str(info.id)),
		       scm_cons(sym("parent"), str(info.parent)),
		       scm_cons(sym("subject"), str(info.subject)),
		       scm_cons(sym("author"), str(info.author)),
		       scm_cons(sym("time"), scm_from_int64(info.time)),
		       scm_cons(sym("files"), files), SCM_UNDEFINED);
	bisect_commit_info_release(&info);
	return v;
}

/*
 * (same-build? BUILT OTHER) → whether OTHER builds what BUILT's build is,
 * known without building OTHER: BUILT is built and OTHER changes nothing
 * its objects and configuration read (driver_same_build()).
 */
static SCM p_same_build_p(SCM built, SCM other)
{
	struct session *s = session("same-build?");
	char *a, *b;
	int same;

	scm_dynwind_begin(0);
	a = arg_str(built, 1, "same-build?");
	b = arg_str(other, 2, "same-build?");
	same = driver_same_build(s->cfg.paths, s->cfg.repo, a, b);
	scm_dynwind_end();
	return scm_from_bool(same == 1);
}

/*
 * The loader: a file's forms are read with their positions and compiled
 * one by one, so that an error in them reports file:line:column (the
 * evaluator's frames know no source). A file that begins with
 * define-module makes that module; anything else is evaluated in MODULE.
 */
static const char loader[] =
"(define* (load-scheme-file file #:optional (module (current-module)))\n"
"  (call-with-input-file file\n"
"    (lambda (port)\n"
"      (set-port-filename! port file)\n"
"      (save-module-excursion\n"
"        (lambda ()\n"
"          (set-current-module module)\n"
"          (let loop ((value (if #f #f)))\n"
"            (let ((form (read-syntax port)))\n"
"              (if (eof-object? form)\n"
"                  value\n"
"                  (let ((datum (syntax->datum form))\n"
"                        (v (compile form #:env (current-module) #:from 'scheme\n"
"                                    #:to 'value #:warning-level 0\n"
"                                    #:optimization-level 1)))\n"
"                    ;; compile keeps the module it was given: follow\n"
"                    ;; define-module by hand\n"
"                    (when (and (pair? datum) (eq? (car datum) 'define-module))\n"
"                      (set-current-module (resolve-module (cadr datum))))\n"
"                    (loop v))))))))))\n"
"(define (script-module)\n"
"  (let ((m (make-fresh-user-module)))\n"
"    (module-use! m (resolve-interface '(lsbisect)))\n"
"    (module-use! m (resolve-interface '(lsbisect strategy)))\n"
"    m))\n";

static void define_module(void *data)
{
	static const struct {
		const char *name;
		int req, opt;
		scm_t_subr fn;
	} prims[] = {
		{ "resolve", 1, 0, (scm_t_subr)p_resolve },
		{ "revision-range", 2, 1, (scm_t_subr)p_revision_range },
		{ "session", 1, 0, (scm_t_subr)p_session },
		{ "run", 1, 1, (scm_t_subr)p_run },
		{ "prefetch", 2, 0, (scm_t_subr)p_prefetch },
		{ "prefetch-many", 2, 0, (scm_t_subr)p_prefetch_many },
		{ "build", 1, 0, (scm_t_subr)p_build },
		{ "skip?", 1, 0, (scm_t_subr)p_skip_p },
		{ "skip-reason", 1, 0, (scm_t_subr)p_skip_reason },
		{ "metric", 2, 0, (scm_t_subr)p_metric },
		{ "higher-is-better?", 1, 0, (scm_t_subr)p_higher_is_better },
		{ "log", 1, 0, (scm_t_subr)p_log },
		{ "log-step", 2, 4, (scm_t_subr)p_log_step },
		{ "progress", 2, 0, (scm_t_subr)p_progress },
		{ "commit-info", 1, 0, (scm_t_subr)p_commit_info },
		{ "same-build?", 2, 0, (scm_t_subr)p_same_build_p },
	};
	size_t i;

	(void)data;
	for (i = 0; i < sizeof(prims) / sizeof(prims[0]); i++) {
		scm_c_define_gsubr(prims[i].name, prims[i].req, prims[i].opt,
				   0, prims[i].fn);
		scm_c_export(prims[i].name, NULL);
	}
	scm_c_use_module("system base compile");
	scm_c_eval_string(loader);
	scm_c_export("load-scheme-file", "script-module", NULL);
}

/*
 * The safe call: every entry from C into Scheme. The pre-unwind handler
 * describes the error while its stack is still there: the message as
 * Guile prints it, and the innermost frame whose source is not Guile's
 * own (the user's script or the strategy) as file:line:column.
 */
struct safe_call {
	SCM (*body)(void *data);
	void *data;
	SCM result;
	int failed;
	int usage;		/* a usage error, or a metric the results lack */
	int quit;		/* (exit N) was called: N + 1 */
	char message[3500];
};

static SCM print_body(void *data)
{
	SCM *v = data;	/* port, key, args */

	return scm_call_4(scm_c_public_ref("guile", "print-exception"), v[0],
			  SCM_BOOL_F, v[1], v[2]);
}

static SCM print_failed(void *data, SCM key, SCM args)
{
	(void)data;
	(void)key;
	(void)args;
	return SCM_BOOL_F;
}

static int guile_own(const char *file)
{
	static const char *const dirs[] = {
		"ice-9/", "system/", "srfi/", "language/", "rnrs/", "oop/",
		"scheme/", "web/", "sxml/",
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(file, dirs[i], strlen(dirs[i])))
			return 1;
	return 0;
}

static void where(SCM stack, char *out, size_t len)
{
	long i, n;

	*out = '\0';
	if (scm_is_false(stack))
		return;
	n = scm_to_long(scm_stack_length(stack));
	for (i = 0; i < n; i++) {
		SCM src = scm_frame_source(scm_stack_ref(stack,
							 scm_from_long(i)));
		char *file;

		/* (address file line . column), line and column from 0 */
		if (!scm_is_pair(src) || !scm_is_pair(scm_cdr(src)) ||
		    !scm_is_string(scm_cadr(src)) ||
		    !scm_is_pair(scm_cddr(src)))
			continue;
		file = scm_to_utf8_string(scm_cadr(src));
		if (!guile_own(file) &&
		    scm_is_integer(scm_car(scm_cddr(src))) &&
		    scm_is_integer(scm_cdr(scm_cddr(src)))) {
			snprintf(out, len, "%s:%ld:%ld: ", file,
				 scm_to_long(scm_car(scm_cddr(src))) + 1,
				 scm_to_long(scm_cdr(scm_cddr(src))) + 1);
			free(file);
			return;
		}
		free(file);
	}
}

static void describe(struct safe_call *c, SCM key, SCM args, SCM stack)
{
	char loc[700], *text;
	SCM v[3];
	const char *k;

	c->failed = 1;
	if (!scm_is_symbol(key))
		return;
	text = scm_to_utf8_string(scm_symbol_to_string(key));
	c->usage = !strcmp(text, KEY_USAGE) || !strcmp(text, KEY_METRIC);
	if (!strcmp(text, "quit")) {
		c->quit = 1 + (scm_is_pair(args) &&
			       scm_is_integer(scm_car(args)) ?
			       scm_to_int(scm_car(args)) : 0);
		if (scm_is_pair(args) && scm_is_false(scm_car(args)))
			c->quit = 2;
		free(text);
		snprintf(c->message, sizeof(c->message), "exit");
		return;
	}
	k = text;
	where(stack, loc, sizeof(loc));
	if (!strcmp(k, KEY_USAGE) && scm_ilength(args) == 4 &&
	    scm_is_pair(scm_caddr(args)) &&
	    scm_is_string(scm_car(scm_caddr(args)))) {
		/* a session's usage error, as throw_error() raises it */
		char *m = scm_to_utf8_string(scm_car(scm_caddr(args)));

		snprintf(c->message, sizeof(c->message), "%s", m);
		free(m);
	} else if (!strcmp(k, KEY_USAGE) && scm_is_pair(args) &&
		   scm_is_string(scm_car(args))) {
		char *m = scm_to_utf8_string(scm_car(args));

		snprintf(c->message, sizeof(c->message), "%s", m);
		free(m);
	} else if ((!strcmp(k, KEY_ERROR) || !strcmp(k, KEY_METRIC)) &&
		   scm_ilength(args) == 4 && scm_is_string(scm_car(args)) &&
		   scm_is_pair(scm_caddr(args)) &&
		   scm_is_string(scm_car(scm_caddr(args)))) {
		/* (subr "~A" (message) #f), as throw_error() raises it */
		char *subr = scm_to_utf8_string(scm_car(args));
		char *m = scm_to_utf8_string(scm_car(scm_caddr(args)));

		/* the session's own failures: where in our strategy is noise */
		if (strstr(loc, "/lsbisect/strategy.scm:") &&
		    !strcmp(k, KEY_ERROR))
			*loc = '\0';
		snprintf(c->message, sizeof(c->message), "%sIn procedure %s: %s",
			 loc, subr, m);
		free(subr);
		free(m);
	} else {
		v[0] = scm_open_output_string();
		v[1] = key;
		v[2] = args;
		scm_c_catch(SCM_BOOL_T, print_body, v, print_failed, NULL,
			    NULL, NULL);
		free(text);
		text = scm_to_utf8_string(scm_get_output_string(v[0]));
		text[strcspn(text, "\n")] = '\0';
		snprintf(c->message, sizeof(c->message), "%s%s", loc,
			 *text ? text : "a Scheme error");
	}
	free(text);
}

static SCM safe_body(void *data)
{
	struct safe_call *c = data;

	return c->body(c->data);
}

static SCM safe_pre_unwind(void *data, SCM key, SCM args)
{
	describe(data, key, args, scm_make_stack(SCM_BOOL_T, SCM_EOL));
	return SCM_UNSPECIFIED;
}

static SCM safe_handler(void *data, SCM key, SCM args)
{
	struct safe_call *c = data;

	if (!*c->message)
		describe(c, key, args, SCM_BOOL_F);
	c->failed = 1;
	return SCM_BOOL_F;
}

static int safe_call(struct safe_call *c, SCM (*body)(void *), void *data)
{
	memset(c, 0, sizeof(*c));
	c->body = body;
	c->data = data;
	c->result = scm_c_catch(SCM_BOOL_T, safe_body, c, safe_handler, c,
				safe_pre_unwind, c);
	if (c->failed)
		guile_set_error("%s", c->message);
	return c->failed ? -1 : 0;
}

/* Define (lsbisect) and load (lsbisect strategy), once per process. */
static SCM load_modules(void *data)
{
	static int loaded;
	const struct driver_paths *paths = data;
	char file[4200];

	if (loaded)
		return SCM_BOOL_T;
	scm_c_define_module("lsbisect", define_module, NULL);
	lsb_pathf(file, sizeof(file), "%s/guile/lsbisect/strategy.scm",
		  paths->share_dir);
	scm_call_2(scm_c_public_ref("lsbisect", "load-scheme-file"),
		   str(file), scm_c_resolve_module("guile-user"));
	loaded = 1;
	return SCM_BOOL_T;
}

/*
 * A user's script: what it defines as strategy, judge or predicate, or
 * else the procedure its last expression gives: a predicate when it takes
 * two arguments.
 */
struct script {
	const char *file;
	SCM strategy, judge, predicate;
};

static SCM bound(SCM module, const char *name)
{
	SCM var = scm_module_variable(module, sym(name));

	return scm_is_true(var) && scm_is_true(scm_variable_bound_p(var)) &&
	       scm_is_true(scm_procedure_p(scm_variable_ref(var))) ?
	       scm_variable_ref(var) : SCM_BOOL_F;
}

static SCM load_script(void *data)
{
	struct script *s = data;
	SCM m = scm_call_0(scm_c_public_ref("lsbisect", "script-module"));
	SCM last = scm_call_2(scm_c_public_ref("lsbisect", "load-scheme-file"),
			      str(s->file), m);
	SCM arity;

	s->strategy = bound(m, "strategy");
	s->judge = bound(m, "judge");
	s->predicate = bound(m, "predicate");
	if (scm_is_true(s->strategy) || scm_is_true(s->judge) ||
	    scm_is_true(s->predicate))
		return SCM_BOOL_T;
	if (scm_is_true(scm_procedure_p(last))) {
		arity = scm_call_1(scm_c_public_ref("guile",
						    "procedure-minimum-arity"),
				   last);
		if (scm_is_pair(arity) && scm_is_eq(scm_car(arity),
						    scm_from_int(2))) {
			s->predicate = last;
			return SCM_BOOL_T;
		}
	}
	scm_error(sym(KEY_USAGE), "load-script", "~A",
		  scm_list_1(str("the script defines no strategy, judge or predicate, and does not end with a predicate (lambda (good this) ...)")),
		  SCM_BOOL_F);
	return SCM_BOOL_F;
}

struct bisect_call {
	struct script script;
	SCM answer;
};

static SCM call_strategy(void *data)
{
	struct bisect_call *b = data;

	return scm_call_3(scm_c_public_ref("lsbisect strategy", "bisect-with"),
			  b->script.strategy, b->script.judge,
			  b->script.predicate);
}

/* The strategy's answer: (culprit I), (no-regression), (ambiguous I ...) */
static int take_answer(struct guile_answer *a, SCM v, size_t nr_classes)
{
	char *what;
	SCM l;
	size_t n = 0;

	if (!scm_is_pair(v) || !scm_is_symbol(scm_car(v)))
		goto bad;
	what = scm_to_utf8_string(scm_symbol_to_string(scm_car(v)));
	if (!strcmp(what, "culprit") && scm_is_pair(scm_cdr(v)) &&
	    scm_is_unsigned_integer(scm_cadr(v), 0, nr_classes - 1)) {
		a->outcome = GUILE_CULPRIT;
		a->culprit = scm_to_long(scm_cadr(v));
	} else if (!strcmp(what, "no-regression")) {
		a->outcome = GUILE_NO_REGRESSION;
	} else if (!strcmp(what, "ambiguous")) {
		a->outcome = GUILE_AMBIGUOUS;
		for (l = scm_cdr(v); scm_is_pair(l); l = scm_cdr(l))
			n++;
		a->candidates = calloc(n ? n : 1, sizeof(long));
		for (l = scm_cdr(v), n = 0; a->candidates && scm_is_pair(l);
		     l = scm_cdr(l)) {
			if (!scm_is_unsigned_integer(scm_car(l), 0,
						     nr_classes - 1))
				break;
			a->candidates[n++] = scm_to_long(scm_car(l));
		}
		a->nr_candidates = n;
		if (!a->candidates || scm_is_pair(l)) {
			free(what);
			goto bad;
		}
	} else {
		free(what);
		goto bad;
	}
	free(what);
	return 0;
bad:
	a->outcome = GUILE_STOPPED;
	lsb_pathf(a->message, sizeof(a->message),
		  "the strategy's answer is not (culprit CLASS), (no-regression) or (ambiguous CLASS ...)");
	return -1;
}

struct entry {
	const struct guile_config *cfg;
	struct guile_answer *answer;
	const char *file;
	int ret;
};

static void fail(struct guile_answer *a, enum guile_outcome o,
		 const char *msg)
{
	a->outcome = o;
	lsb_pathf(a->message, sizeof(a->message), "%s", msg);
}

static void *bisect_in_guile(void *data)
{
	struct entry *e = data;
	struct guile_answer *a = e->answer;
	struct session s;
	struct safe_call c;
	struct bisect_call b = { 0 };
	int err;

	err = session_open(&s, e->cfg, a);
	if (err) {
		fail(a, err == SESSION_USAGE ? GUILE_USAGE : GUILE_STOPPED,
		     guile_last_error());
		session_close(&s);
		return NULL;
	}
	cur = &s;
	if (safe_call(&c, load_modules, (void *)e->cfg->paths)) {
		fail(a, GUILE_STOPPED, c.message);
		goto out;
	}
	b.script.file = e->cfg->script;
	b.script.strategy = b.script.judge = b.script.predicate = SCM_BOOL_F;
	if (e->cfg->script && safe_call(&c, load_script, &b.script)) {
		char msg[4000];

		snprintf(msg, sizeof(msg), "script '%s': %s", e->cfg->script,
			 c.message);
		fail(a, GUILE_USAGE, msg);
		goto out;
	}
	if (safe_call(&c, call_strategy, &b)) {
		fail(a, c.usage ? GUILE_USAGE : GUILE_STOPPED, c.message);
		goto out;
	}
	if (take_answer(a, c.result, s.classes->nr_classes))
		goto out;
	/* which way the metric goes is the strategy's to say */
	a->higher_is_better = scm_is_true(scm_call_1(
		scm_c_public_ref("lsbisect strategy", "higher-is-better?"),
		scm_from_utf8_string(a->metric)));
	if (session_end(&s))
		fail(a, GUILE_STOPPED, guile_last_error());
out:
	cur = NULL;
	session_close(&s);
	return NULL;
}

int guile_bisect(const struct guile_config *cfg, struct guile_answer **out)
{
	struct entry e = { .cfg = cfg };

	*out = e.answer = calloc(1, sizeof(**out));
	if (!e.answer) {
		guile_set_error("out of memory");
		return GUILE_STOPPED;
	}
	scm_with_guile(bisect_in_guile, &e);
	return e.answer->outcome;
}

void guile_answer_free(struct guile_answer *a)
{
	if (!a)
		return;
	free(a->candidates);
	session_steps_free(a->steps, a->nr_steps);
	bisect_classes_free(a->classes);
	free(a);
}

static SCM repl_body(void *data)
{
	(void)data;
	scm_c_use_module("lsbisect");
	scm_c_use_module("lsbisect strategy");
	return scm_c_eval_string("((@ (system repl repl) start-repl))");
}

static SCM file_body(void *data)
{
	struct script *s = data;

	return scm_call_2(scm_c_public_ref("lsbisect", "load-scheme-file"),
			  str(s->file),
			  scm_call_0(scm_c_public_ref("lsbisect",
						      "script-module")));
}

/* The REPL and a file share this: a session without a bisection. */
static void *tool_in_guile(void *data)
{
	struct entry *e = data;
	struct session s;
	struct safe_call c;
	struct script sc = { .file = e->file };
	int err;

	e->ret = -1;
	err = session_open(&s, e->cfg, e->answer);
	if (err) {
		session_close(&s);
		return NULL;
	}
	cur = &s;
	if (!safe_call(&c, load_modules, (void *)e->cfg->paths)) {
		scm_c_use_module("lsbisect");
		if (!safe_call(&c, e->file ? file_body : repl_body, &sc))
			e->ret = 0;
	}
	cur = NULL;
	session_close(&s);
	if (c.quit) {
		fflush(NULL);
		exit(c.quit - 1);
	}
	return NULL;
}

static int tool(const struct guile_config *cfg, const char *file)
{
	struct guile_config c = *cfg;
	struct guile_answer a = { 0 };
	struct entry e = { .cfg = &c, .answer = &a, .file = file };

	/* no bisection: a range only when both revisions are given */
	if (!c.good || !c.bad)
		c.good = c.bad = NULL;
	scm_with_guile(tool_in_guile, &e);
	bisect_classes_free(a.classes);
	session_steps_free(a.steps, a.nr_steps);
	free(a.candidates);
	return e.ret;
}

int guile_repl(const struct guile_config *cfg)
{
	return tool(cfg, NULL);
}

int guile_run_file(const struct guile_config *cfg, const char *file)
{
	return tool(cfg, file);
}
