// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app's JSON grammar (rt-app doc/tutorial.txt), read into the workload
 * model. Differences from rt-app are on purpose and listed in
 * workloads/README.md: whatever rt-app would ignore or default silently
 * is an error here, naming the file and the task, phase and key.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "topologies/topologies.h"
#include "workloads/workloads_internal.h"

#define US 1000ULL
#define RTAPP_MAX_DEPTH 32	/* json-c's default depth, as rt-app parses */

/* Where we are in the file, for messages. */
struct rp {
	struct workload *wl;
	const char *file;
	const char *text;	/* the file's, comments blanked */
	long at;		/* >= 0: the offset in @text a message is at */
	char *err;
	size_t errlen;
	int default_policy;
	int pi_enabled;		/* global.pi_enabled */
	const char *where;	/* in our extension: "lsb-events, event 2" */
	const char *task;	/* the rt-app task's key */
	const char *phase;	/* NULL: the task level */
	/* per resource: who uses it, to find references to nothing */
	struct rp_use {
		int lock, unlock, wait, signal, suspend, resume;
	} *use;
};

static void line_col(const char *text, const char *at, int *line, int *col);

/*
 * "workload 'F': line L, column C: task 'T': phase 'P': 'KEY': " and the
 * message, into @buf (the line when the message is at a place in the text)
 */
static void vwhere(const struct rp *p, char *buf, size_t len, const char *key,
		   const char *fmt, va_list ap)
{
	int n = snprintf(buf, len, "workload '%s'", p->file), line, col;

	if (p->at >= 0 && n >= 0 && (size_t)n < len) {
		line_col(p->text, p->text + p->at, &line, &col);
		n += snprintf(buf + n, len - n, ": line %d, column %d", line,
			      col);
	}
	if (p->where && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ": %s", p->where);
	if (p->task && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ": task '%s'", p->task);
	if (p->phase && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ": phase '%s'", p->phase);
	if (key && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ": '%s'", key);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ": ");
	if (n >= 0 && (size_t)n < len)
		vsnprintf(buf + n, len - n, fmt, ap);
}

static int fail(struct rp *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct rp *p, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwhere(p, p->err, p->errlen, key, fmt, ap);
	va_end(ap);
	return -1;
}

static void note(struct rp *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct rp *p, const char *fmt, ...)
{
	size_t n = strlen(p->wl->notes);
	char *at = p->wl->notes + n;
	va_list ap;

	if (n + 1 >= sizeof(p->wl->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(at, sizeof(p->wl->notes) - n, fmt, ap);
	va_end(ap);
	/* a key quoted as the file wrote it: no raw bytes to a terminal */
	topology_printable(at, sizeof(p->wl->notes) - n);
	n = strlen(p->wl->notes);
	if (n + 1 < sizeof(p->wl->notes))
		strcat(p->wl->notes, "\n");
}

/* A warning with the place it is about, kept in the workload's notes
 * (whoever runs the workload prints them). */
static void warn(struct rp *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct rp *p, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vwhere(p, buf, sizeof(buf), key, fmt, ap);
	va_end(ap);
	note(p, "warning: %s", buf);
}

/*
 * A name the run will write (a task's, a phase's, a resource's): traces,
 * the summary and the results carry it as it is, so it must be printable
 * UTF-8.
 */
static int check_name(struct rp *p, const char *key, const char *what,
		      const char *name)
{
	char why[80];

	if (!topology_unprintable(name, why, sizeof(why)))
		return 0;
	return fail(p, key, "%s '%s' holds %s: not a name", what, name, why);
}

/* A key that rt-app never reads: it is skipped, as rt-app skips it. */
static void skipped(struct rp *p, const char *key)
{
	warn(p, key, "ignored, as rt-app ignores it");
}

static const char *type_name(const cJSON *v)
{
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "null";
}

static int get_int(struct rp *p, const cJSON *v, long *out)
{
	double d;

	if (!cJSON_IsNumber(v))
		return fail(p, v->string, "expected an integer, got %s",
			    type_name(v));
	d = v->valuedouble;
	/* the range first: casting a double beyond long is undefined */
	if (d > 1e15 || d < -1e15)
		return fail(p, v->string, "%g is out of range (an integer of at most 15 digits)",
			    d);
	if (d != (double)(long)d)
		return fail(p, v->string, "expected an integer, got %g", d);
	*out = (long)d;
	return 0;
}

static int get_range(struct rp *p, const cJSON *v, long lo, long hi,
		     long *out)
{
	if (get_int(p, v, out))
		return -1;
	if (*out < lo || *out > hi)
		return fail(p, v->string, "expected %ld..%ld, got %ld", lo, hi,
			    *out);
	return 0;
}

/* A duration in microseconds, as rt-app writes them: an integer >= @min. */
static int get_us_from(struct rp *p, const cJSON *v, const char *key,
		       long min, uint64_t *ns)
{
	long us;

	if (!cJSON_IsNumber(v))
		return fail(p, key, "expected a duration in microseconds (an integer), got %s",
			    type_name(v));
	if (get_int(p, v, &us))
		return -1;
	if (us < min)
		return fail(p, key, "expected a %s duration in microseconds, got %ld",
			    min ? "positive" : "non-negative", us);
	*ns = (uint64_t)us * US;
	return 0;
}

static int get_us(struct rp *p, const cJSON *v, const char *key, uint64_t *ns)
{
	return get_us_from(p, v, key, 1, ns);
}

static int get_string(struct rp *p, const cJSON *v, const char *key,
		      const char **out)
{
	if (!cJSON_IsString(v))
		return fail(p, key, "expected a string, got %s", type_name(v));
	*out = v->valuestring;
	return 0;
}

static int get_bool(struct rp *p, const cJSON *v, int *out)
{
	if (!cJSON_IsBool(v))
		return fail(p, v->string, "expected true or false, got %s",
			    type_name(v));
	*out = cJSON_IsTrue(v);
	return 0;
}

static int parse_policy_name(struct rp *p, const cJSON *v, int *out)
{
	static const char *const names[] = {
		"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", NULL,
		"SCHED_IDLE", "SCHED_DEADLINE",
	};
	const char *s = NULL;
	int i;

	if (get_string(p, v, v->string, &s))
		return -1;
	for (i = 0; i < 7; i++)
		if (names[i] && !strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	return fail(p, v->string,
		    "unknown policy '%s' (expected SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE)",
		    s);
}

/* A CPU named twice counts once, as in rt-app's CPU_SET(). */
static int parse_cpu_list(struct rp *p, const cJSON *v, int *n, int *cpus)
{
	char seen[WORKLOAD_MAX_CPUS] = { 0 };
	const cJSON *c;
	long cpu;

	if (!cJSON_IsArray(v))
		return fail(p, "cpus", "expected an array of CPU numbers, got %s",
			    type_name(v));
	*n = 0;
	cJSON_ArrayForEach(c, v) {
		if (!cJSON_IsNumber(c) || get_int(p, c, &cpu))
			return fail(p, "cpus", "expected an array of CPU numbers, got %s in it",
				    type_name(c));
		if (cpu < 0 || cpu >= WORKLOAD_MAX_CPUS)
			return fail(p, "cpus", "CPU %ld is not 0..%d", cpu,
				    WORKLOAD_MAX_CPUS - 1);
		if (!seen[cpu]) {
			seen[cpu] = 1;
			cpus[(*n)++] = (int)cpu;
		}
	}
	if (!*n)
		return fail(p, "cpus", "expected at least one CPU");
	return 0;
}

/* ---- resources ---- */

static int resource(struct rp *p, const char *name, enum workload_res_type type,
		    const char *key)
{
	struct workload *wl = p->wl;
	struct workload_resource *r;
	struct rp_use *use;
	int i;

	if (!*name)
		return fail(p, key, "expected a resource name, got an empty string");
	if (check_name(p, key, "the name", name))
		return -1;
	if (strlen(name) >= sizeof(wl->res[0].name))
		return fail(p, key, "the name '%s' is longer than %zu characters",
			    name, sizeof(wl->res[0].name) - 1);
	for (i = 0; i < wl->nr_res; i++)
		if (wl->res[i].type == type && !strcmp(wl->res[i].name, name))
			return i;
	r = realloc(wl->res, (wl->nr_res + 1) * sizeof(*r));
	if (!r)
		return fail(p, key, "out of memory");
	wl->res = r;
	use = realloc(p->use, (wl->nr_res + 1) * sizeof(*use));
	if (!use)
		return fail(p, key, "out of memory");
	p->use = use;
	memset(&use[wl->nr_res], 0, sizeof(*use));
	r = &wl->res[wl->nr_res];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->type = type;
	return wl->nr_res++;
}

/* ---- events ---- */

/*
 * rt-app tells events by the start of their key (workgen numbers repeated
 * ones: run0, run1); the table is searched in order, so "runtime" comes
 * before "run". Ours start with "lsb-", which rt-app ignores.
 */
static const struct {
	const char *prefix;
	int type;		/* enum workload_event_type, or -1: refused */
} event_keys[] = {
	{ "lock", WL_EV_LOCK }, { "unlock", WL_EV_UNLOCK },
	{ "wait", WL_EV_WAIT }, { "signal", WL_EV_SIGNAL },
	{ "broad", WL_EV_BROAD }, { "sync", WL_EV_SYNC },
	{ "sleep", WL_EV_SLEEP }, { "runtime", WL_EV_RUNTIME },
	{ "run", WL_EV_RUN }, { "timer", WL_EV_TIMER },
	{ "suspend", WL_EV_SUSPEND }, { "resume", WL_EV_RESUME },
	{ "mem", -1 }, { "iorun", -1 }, { "yield", WL_EV_YIELD },
	{ "barrier", WL_EV_BARRIER }, { "fork", WL_EV_FORK },
	{ "lsb-run", WL_EV_RUN }, { "lsb-sleep", WL_EV_SLEEP },
};

static int event_key(const char *key, int *type)
{
	size_t i;

	for (i = 0; i < sizeof(event_keys) / sizeof(event_keys[0]); i++)
		if (!strncmp(key, event_keys[i].prefix,
			     strlen(event_keys[i].prefix))) {
			*type = event_keys[i].type;
			return 1;
		}
	return 0;
}

/* Our extension: {"distribution": "lognormal", "mean": us, "stddev": us}. */
static int parse_dist(struct rp *p, const cJSON *v, struct workload_dist *d)
{
	static const char *const names[] = {
		NULL, "exponential", "lognormal", "normal", "uniform",
	};
	const char *key = v->string, *s = NULL;
	uint64_t mean = 0, sd = 0, lo = 0, hi = 0;
	int has_sd = 0, has_mean = 0, has_lo = 0, has_hi = 0, i;
	const cJSON *f;

	if (!cJSON_IsObject(v))
		return fail(p, key, "expected an object {\"distribution\": ..., \"mean\": us, ...}, got %s",
			    type_name(v));
	cJSON_ArrayForEach(f, v) {
		if (!strcmp(f->string, "distribution")) {
			if (get_string(p, f, key, &s))
				return -1;
		} else if (!strcmp(f->string, "mean")) {
			has_mean = 1;
			if (get_us(p, f, key, &mean))
				return -1;
		} else if (!strcmp(f->string, "stddev")) {
			has_sd = 1;
			if (get_us(p, f, key, &sd))
				return -1;
		} else if (!strcmp(f->string, "min")) {
			has_lo = 1;
			if (get_us(p, f, key, &lo))
				return -1;
		} else if (!strcmp(f->string, "max")) {
			has_hi = 1;
			if (get_us(p, f, key, &hi))
				return -1;
		} else {
			return fail(p, key, "unknown key '%s' (expected distribution, mean, stddev, min or max)",
				    f->string);
		}
	}
	if (!s)
		return fail(p, key, "expected \"distribution\": exponential, lognormal, normal or uniform");
	for (i = 1; i < 5; i++)
		if (!strcmp(s, names[i]))
			break;
	if (i == 5)
		return fail(p, key, "unknown distribution '%s' (expected exponential, lognormal, normal or uniform)",
			    s);
	d->kind = (enum workload_dist_kind)i;
	if (d->kind == WL_DIST_UNIFORM) {
		if (!has_lo || !has_hi || has_mean || has_sd || hi < lo)
			return fail(p, key, "uniform takes \"min\" and \"max\" (min <= max), nothing else");
		d->a = lo;
		d->b = hi;
		return 0;
	}
	if (!has_mean || has_lo || has_hi)
		return fail(p, key, "%s takes \"mean\"%s, nothing else", s,
			    d->kind == WL_DIST_EXPONENTIAL ? "" : " and \"stddev\"");
	if (has_sd != (d->kind != WL_DIST_EXPONENTIAL))
		return fail(p, key, "%s takes \"mean\"%s, nothing else", s,
			    d->kind == WL_DIST_EXPONENTIAL ? "" : " and \"stddev\"");
	d->a = mean;
	d->b = sd;
	return 0;
}

static int ref_object(struct rp *p, const cJSON *v, const char **ref,
		      const char **mutex)
{
	const char *key = v->string;
	const cJSON *f;

	*ref = *mutex = NULL;
	if (!cJSON_IsObject(v))
		return fail(p, key, "expected an object {\"ref\": condition, \"mutex\": mutex}, got %s",
			    type_name(v));
	cJSON_ArrayForEach(f, v) {
		if (!strcmp(f->string, "ref")) {
			if (get_string(p, f, key, ref))
				return -1;
		} else if (!strcmp(f->string, "mutex")) {
			if (get_string(p, f, key, mutex))
				return -1;
		} else {
			return fail(p, key, "unknown key '%s' (expected ref and mutex)",
				    f->string);
		}
	}
	if (!*ref || !*mutex)
		return fail(p, key, "expected both \"ref\" and \"mutex\"");
	return 0;
}

static int parse_timer(struct rp *p, const cJSON *v, struct workload_event *e)
{
	const char *key = v->string, *ref = NULL, *mode = NULL;
	char name[64];
	const cJSON *f;
	int absolute = 0, unique;

	if (!cJSON_IsObject(v))
		return fail(p, key, "expected an object {\"ref\": name, \"period\": us}, got %s",
			    type_name(v));
	e->len.kind = WL_DIST_FIXED;
	cJSON_ArrayForEach(f, v) {
		if (!strcmp(f->string, "ref")) {
			if (get_string(p, f, key, &ref))
				return -1;
		} else if (!strcmp(f->string, "period")) {
			if (get_us(p, f, key, &e->len.a))
				return -1;
		} else if (!strcmp(f->string, "mode")) {
			if (get_string(p, f, key, &mode))
				return -1;
			if (strcmp(mode, "relative") && strcmp(mode, "absolute"))
				return fail(p, key, "unknown mode '%s' (expected relative or absolute)",
					    mode);
			absolute = !strcmp(mode, "absolute");
		} else {
			return fail(p, key, "unknown key '%s' (expected ref, period and mode)",
				    f->string);
		}
	}
	if (!ref)
		return fail(p, key, "expected \"ref\": the timer's name");
	if (!e->len.a)
		return fail(p, key, "expected \"period\": a positive duration in microseconds");
	/* rt-app: "unique*" timers are per task instance */
	unique = !strncmp(ref, "unique", 6);
	if (snprintf(name, sizeof(name), "%s%s%s", ref, unique ? "@" : "",
		     unique ? p->task : "") >= (int)sizeof(name))
		return fail(p, key, "the timer name '%s' is too long", ref);
	e->res = resource(p, name, WL_RES_TIMER, key);
	if (e->res < 0)
		return -1;
	if (p->use[e->res].wait && p->wl->res[e->res].absolute != absolute)
		return fail(p, key, "timer '%s' is used both in relative and absolute mode",
			    ref);
	p->use[e->res].wait = 1;
	p->wl->res[e->res].absolute = absolute;
	p->wl->res[e->res].unique = unique;
	return 0;
}

static int parse_event(struct rp *p, const cJSON *v, int type,
		       struct workload_event *e)
{
	const char *key = v->string, *s = NULL, *mutex = NULL;
	int r;

	snprintf(e->key, sizeof(e->key), "%s", key);
	e->type = (enum workload_event_type)type;
	e->res = e->dep = -1;
	switch (e->type) {
	case WL_EV_RUN:
	case WL_EV_SLEEP:
		if (!strncmp(key, "lsb-", 4)) {
			p->wl->randomised = 1;
			return parse_dist(p, v, &e->len);
		}
		/* fall through */
	case WL_EV_RUNTIME:
		e->len.kind = WL_DIST_FIXED;
		/* rt-app sleeps 0 as asked: the task goes on at once */
		return get_us_from(p, v, key, e->type == WL_EV_SLEEP ? 0 : 1,
				   &e->len.a);
	case WL_EV_TIMER:
		return parse_timer(p, v, e);
	case WL_EV_LOCK:
	case WL_EV_UNLOCK:
		if (get_string(p, v, key, &s))
			return -1;
		r = e->res = resource(p, s, WL_RES_MUTEX, key);
		if (r < 0)
			return -1;
		if (e->type == WL_EV_LOCK)
			p->use[r].lock = 1;
		else
			p->use[r].unlock = 1;
		return 0;
	case WL_EV_WAIT:
	case WL_EV_SYNC:
		if (ref_object(p, v, &s, &mutex))
			return -1;
		r = e->res = resource(p, s, WL_RES_COND, key);
		if (r < 0 || (e->dep = resource(p, mutex, WL_RES_MUTEX, key)) < 0)
			return -1;
		p->use[r].wait = 1;
		if (e->type == WL_EV_SYNC)
			p->use[r].signal = 1;
		p->use[e->dep].unlock = 1;
		return 0;
	case WL_EV_SIGNAL:
	case WL_EV_BROAD:
		if (get_string(p, v, key, &s))
			return -1;
		r = e->res = resource(p, s, WL_RES_COND, key);
		if (r < 0)
			return -1;
		p->use[r].signal = 1;
		return 0;
	case WL_EV_BARRIER:
		if (get_string(p, v, key, &s))
			return -1;
		return (e->res = resource(p, s, WL_RES_BARRIER, key)) < 0 ? -1 : 0;
	case WL_EV_SUSPEND:
	case WL_EV_RESUME:
		if (get_string(p, v, key, &s))
			return -1;
		/* rt-app's workgen fills an empty suspend with the task's name */
		if (!*s && e->type == WL_EV_SUSPEND)
			s = p->task;
		r = e->res = resource(p, s, WL_RES_SUSPEND, key);
		if (r < 0)
			return -1;
		if (e->type == WL_EV_SUSPEND)
			p->use[r].suspend = 1;
		else
			p->use[r].resume = 1;
		return 0;
	case WL_EV_YIELD:
		return 0;
	case WL_EV_FORK:
		if (get_string(p, v, key, &s))
			return -1;
		/* resolved once every task is known */
		if (check_name(p, key, "the task", s))
			return -1;
		if (strlen(s) >= sizeof(e->key))
			return fail(p, key, "no task '%s' in tasks to fork", s);
		snprintf(e->key, sizeof(e->key), "%s", s);
		return 0;
	case WL_EV_SET_AFFINITY:
		break;
	}
	return fail(p, key, "unsupported event");
}

/* ---- tasks and phases ---- */

/* Keys of a task or phase other than events. */
enum { K_TASK = 1, K_PHASE = 2, K_BOTH = 3 };

static const struct {
	const char *key;
	int where;
} prop_keys[] = {
	{ "instance", K_TASK }, { "delay", K_TASK }, { "phases", K_TASK },
	{ "loop", K_BOTH }, { "policy", K_BOTH }, { "priority", K_BOTH },
	{ "dl-runtime", K_BOTH }, { "dl-period", K_BOTH },
	{ "dl-deadline", K_BOTH }, { "cpus", K_BOTH }, { "util_min", K_BOTH },
	{ "util_max", K_BOTH }, { "taskgroup", K_BOTH },
	{ "nodes_membind", K_BOTH },
};

static int prop_key(const char *key, int where)
{
	size_t i;

	for (i = 0; i < sizeof(prop_keys) / sizeof(prop_keys[0]); i++)
		if (!strcmp(key, prop_keys[i].key))
			return (prop_keys[i].where & where) != 0;
	return 0;
}

static int check_keys(struct rp *p, const cJSON *obj, int where)
{
	const cJSON *f;
	int type;

	cJSON_ArrayForEach(f, obj) {
		if (prop_key(f->string, where))
			continue;
		if (event_key(f->string, &type)) {
			if (type < 0)
				return fail(p, f->string, "unsupported event (memory and I/O load are not simulated)");
			continue;
		}
		skipped(p, f->string);
	}
	return 0;
}

/* rt-app's "taskgroup": a path; "" is none. @group: as a task keeps it. */
static int taskgroup(struct rp *p, const cJSON *v, int *group)
{
	const char *s = NULL;
	char msg[WORKLOAD_ERR_MAX];

	if (get_string(p, v, "taskgroup", &s))
		return -1;
	if (!*s) {
		*group = 0;
		return 0;
	}
	*group = workload_group(p->wl, s, msg, sizeof(msg));
	return *group < 0 ? fail(p, "taskgroup", "%s", msg) : 0;
}

/*
 * A phase of nothing but "sleep": 0 and "yield" would loop in no simulated
 * time: a yield with nothing else to run returns at once, and a task's
 * own steps take no time.
 */
static int zero_time(struct rp *p, const struct workload_phase *ph)
{
	const struct workload_event *e;
	int i, yields = 0;

	for (i = 0; i < ph->nr_events; i++) {
		e = &ph->events[i];
		yields += e->type == WL_EV_YIELD;
		if (e->type != WL_EV_YIELD &&
		    (e->type != WL_EV_SLEEP || e->len.kind != WL_DIST_FIXED ||
		     e->len.a))
			return 0;
	}
	return fail(p, ph->events[0].key, "every event of the phase is %s: it would loop without time passing",
		    !yields ? "a sleep of 0" : yields == ph->nr_events ?
		    "a yield" : "a yield or a sleep of 0");
}

static int parse_phase(struct rp *p, const cJSON *obj,
		       struct workload_task *t, struct workload_phase *ph)
{
	const cJSON *f;
	long l;
	int type, n = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, NULL, "expected an object of events, got %s",
			    type_name(obj));
	if (check_keys(p, obj, K_PHASE | (p->phase ? 0 : K_TASK)))
		return -1;
	ph->loop = 1;
	cJSON_ArrayForEach(f, obj)
		if (event_key(f->string, &type))
			n++;
	if (!n)
		return fail(p, NULL, "no event (expected at least one of run, runtime, sleep, timer, ...)");
	ph->events = calloc(n, sizeof(*ph->events));
	if (!ph->events)
		return fail(p, NULL, "out of memory");
	cJSON_ArrayForEach(f, obj) {
		if (event_key(f->string, &type)) {
			if (parse_event(p, f, type, &ph->events[ph->nr_events++]))
				return -1;
			continue;
		}
		if (!p->phase || !prop_key(f->string, K_PHASE))
			continue;	/* the task's own keys, or skipped */
		if (!strcmp(f->string, "loop")) {
			if (get_int(p, f, &l))
				return -1;
			if (l != -1 && l < 1)
				return fail(p, "loop", "expected -1 (forever) or a positive count, got %ld",
					    l);
			ph->loop = l;
		} else if (!strcmp(f->string, "cpus")) {
			ph->cpus = calloc(WORKLOAD_MAX_CPUS, sizeof(int));
			if (!ph->cpus)
				return fail(p, "cpus", "out of memory");
			if (parse_cpu_list(p, f, &ph->nr_cpus, ph->cpus))
				return -1;
		} else if (!strcmp(f->string, "priority")) {
			if (t->policy != 0 && t->policy != 3 && t->policy != 5)
				return fail(p, "priority", "a phase can change the nice value of a SCHED_OTHER, SCHED_BATCH or SCHED_IDLE task only (no door for sched_setattr on a running task)");
			if (get_range(p, f, -20, 19, &l))
				return -1;
			ph->set_nice = 1;
			ph->nice = (int)l;
		} else if (!strcmp(f->string, "policy")) {
			int policy;

			if (parse_policy_name(p, f, &policy))
				return -1;
			if (policy != t->policy)
				return fail(p, "policy", "changing the policy in a phase is not supported (no door for sched_setattr on a running task)");
		} else if (!strcmp(f->string, "taskgroup")) {
			if (taskgroup(p, f, &ph->group))
				return -1;
		} else {
			return fail(p, f->string, "not supported in a phase (set it on the task)");
		}
	}
	return zero_time(p, ph);
}

/* The task's scheduling keys, rt-app's defaults for what is not given. */
static int parse_sched(struct rp *p, const cJSON *obj, struct workload_task *t)
{
	const cJSON *prio = cJSON_GetObjectItemCaseSensitive(obj, "priority");
	const cJSON *pol = cJSON_GetObjectItemCaseSensitive(obj, "policy");
	const cJSON *rt = cJSON_GetObjectItemCaseSensitive(obj, "dl-runtime");
	const cJSON *per = cJSON_GetObjectItemCaseSensitive(obj, "dl-period");
	const cJSON *dl = cJSON_GetObjectItemCaseSensitive(obj, "dl-deadline");
	const cJSON *f;
	long l;

	t->policy = p->default_policy;
	if (pol && parse_policy_name(p, pol, &t->policy))
		return -1;
	switch (t->policy) {
	case 1:
	case 2:
		t->prio = 10;	/* rt-app's default RT priority */
		if (prio && get_range(p, prio, 1, 99, &l))
			return -1;
		if (prio)
			t->prio = (int)l;
		break;
	case 6:
		if (prio)
			return fail(p, "priority", "does not apply to SCHED_DEADLINE (give dl-runtime, dl-period, dl-deadline)");
		if (!rt)
			return fail(p, "dl-runtime", "SCHED_DEADLINE needs dl-runtime (microseconds)");
		if (get_us(p, rt, "dl-runtime", &t->dl_runtime_ns))
			return -1;
		t->dl_period_ns = t->dl_runtime_ns;
		if (per && get_us(p, per, "dl-period", &t->dl_period_ns))
			return -1;
		t->dl_deadline_ns = t->dl_period_ns;
		if (dl && get_us(p, dl, "dl-deadline", &t->dl_deadline_ns))
			return -1;
		if (t->dl_runtime_ns > t->dl_deadline_ns ||
		    t->dl_deadline_ns > t->dl_period_ns)
			return fail(p, "dl-runtime", "expected dl-runtime <= dl-deadline <= dl-period");
		break;
	default:
		/* rt-app: the priority of a fair task is its nice value */
		if (prio && get_range(p, prio, -20, 19, &l))
			return -1;
		if (prio)
			t->nice = (int)l;
		/*
		 * rt-app passes a fair task's dl-runtime as
		 * sched_attr.sched_runtime: the slice it asks for, which
		 * EEVDF kernels (6.12 on) honour and older ones ignore.
		 */
		if (t->policy != 1 && t->policy != 2 && rt &&
		    get_us(p, rt, "dl-runtime", &t->dl_runtime_ns))
			return -1;
		break;
	}
	if (t->policy != 6 &&
	    (per || dl || (rt && (t->policy == 1 || t->policy == 2))))
		return fail(p, per ? "dl-period" : dl ? "dl-deadline" : "dl-runtime",
			    per || dl ? "goes with policy SCHED_DEADLINE" :
			    "goes with SCHED_DEADLINE, or with a fair policy as its slice");
	t->util_min = t->util_max = -1;
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "util_min"))) {
		if (get_range(p, f, 0, 1024, &l))
			return -1;
		t->util_min = (int)l;
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "util_max"))) {
		if (get_range(p, f, 0, 1024, &l))
			return -1;
		t->util_max = (int)l;
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "taskgroup")) &&
	    taskgroup(p, f, &t->group))
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(obj, "nodes_membind"))
		return fail(p, "nodes_membind", "NUMA memory binding is not simulated");
	return 0;
}

static int parse_task(struct rp *p, const cJSON *obj, struct workload_task *t)
{
	const cJSON *phases, *f;
	long l;

	memset(t, 0, sizeof(*t));
	t->kind = WORKLOAD_RTAPP;
	if (strlen(obj->string) >= sizeof(t->name))
		return fail(p, NULL, "a name longer than %zu characters",
			    sizeof(t->name) - 1);
	snprintf(t->name, sizeof(t->name), "%s", obj->string);
	if (!cJSON_IsObject(obj))
		return fail(p, NULL, "expected an object, got %s", type_name(obj));
	if (!*obj->string)
		return fail(p, NULL, "a task needs a name");
	if (check_name(p, NULL, "the name", obj->string))
		return -1;
	phases = cJSON_GetObjectItemCaseSensitive(obj, "phases");
	/* without phases, the one phase's check covers the task's keys */
	if (phases && check_keys(p, obj, K_TASK))
		return -1;
	if (parse_sched(p, obj, t))
		return -1;
	t->instances = 1;
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "instance"))) {
		if (get_range(p, f, 0, WORKLOAD_MAX_TASKS, &l))
			return -1;
		t->instances = (int)l;
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "delay"))) {
		if (get_int(p, f, &l))
			return -1;
		if (l < 0)
			return fail(p, "delay", "expected a duration in microseconds >= 0, got %ld",
				    l);
		t->delay_ns = (uint64_t)l * US;
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "cpus")) &&
	    parse_cpu_list(p, f, &t->nr_cpus, t->cpus))
		return -1;
	t->loop = -1;
	if ((f = cJSON_GetObjectItemCaseSensitive(obj, "loop"))) {
		if (get_int(p, f, &l))
			return -1;
		if (l != -1 && l < 1)
			return fail(p, "loop", "expected -1 (forever) or a positive count, got %ld",
				    l);
		t->loop = l;
	}
	if (!phases) {
		/* one phase: the task object holds the events */
		t->phases = calloc(1, sizeof(*t->phases));
		if (!t->phases)
			return fail(p, NULL, "out of memory");
		t->nr_phases = 1;
		snprintf(t->phases[0].name, sizeof(t->phases[0].name), "%s", "phase0");
		return parse_phase(p, obj, t, &t->phases[0]);
	}
	if (!cJSON_IsObject(phases))
		return fail(p, "phases", "expected an object of phases, got %s",
			    type_name(phases));
	cJSON_ArrayForEach(f, obj) {
		int type;

		if (event_key(f->string, &type))
			return fail(p, f->string, "an event next to \"phases\" (put it in a phase)");
	}
	t->phases = calloc(cJSON_GetArraySize(phases) + 1, sizeof(*t->phases));
	if (!t->phases)
		return fail(p, NULL, "out of memory");
	cJSON_ArrayForEach(f, phases) {
		struct workload_phase *ph = &t->phases[t->nr_phases++];

		snprintf(ph->name, sizeof(ph->name), "%s", f->string);
		p->phase = f->string;
		if (check_name(p, NULL, "the name", f->string) ||
		    parse_phase(p, f, t, ph))
			return -1;
	}
	p->phase = NULL;
	if (!t->nr_phases)
		return fail(p, "phases", "no phase");
	return 0;
}

/* ---- global ---- */

static int parse_global(struct rp *p, const cJSON *g)
{
	const cJSON *f;
	const char *s = NULL;
	long l;
	int b = 0;

	if (!cJSON_IsObject(g))
		return fail(p, "global", "expected an object, got %s", type_name(g));
	p->default_policy = 0;
	cJSON_ArrayForEach(f, g) {
		const char *k = f->string;

		if (!strcmp(k, "duration")) {
			if (get_int(p, f, &l))
				return -1;
			if (l == -1)
				note(p, "note: workload '%s': global.duration -1 (until the tasks end): the run lasts --duration",
				     p->file);
			else if (l <= 0 ||
				 (double)l * 1e9 >= WORKLOAD_DURATION_LIMIT_NS)
				return fail(p, "duration", "expected a positive number of seconds below %.0f (570 years) or -1, got %ld",
					    WORKLOAD_DURATION_LIMIT_NS / 1e9, l);
			else
				p->wl->duration_ns = (uint64_t)l * 1000000000ULL;
		} else if (!strcmp(k, "default_policy")) {
			if (parse_policy_name(p, f, &p->default_policy))
				return -1;
		} else if (!strcmp(k, "calibration")) {
			if (!cJSON_IsNumber(f) && !cJSON_IsString(f))
				return fail(p, k, "expected \"CPUn\" or an integer, got %s",
					    type_name(f));
			note(p, "note: workload '%s': global.calibration: not applicable, a simulated run event is exact work",
			     p->file);
		} else if (!strcmp(k, "pi_enabled")) {
			if (get_bool(p, f, &p->pi_enabled))
				return -1;
		} else if (!strcmp(k, "lock_pages") || !strcmp(k, "gnuplot") ||
			   !strcmp(k, "cumulative_slack")) {
			if (get_bool(p, f, &b))
				return -1;
			note(p, "note: workload '%s': global.%s: not applicable in the simulator",
			     p->file, k);
		} else if (!strcmp(k, "logdir") || !strcmp(k, "log_basename") ||
			   !strcmp(k, "io_device")) {
			if (get_string(p, f, k, &s))
				return -1;
			note(p, "note: workload '%s': global.%s: not applicable in the simulator",
			     p->file, k);
		} else if (!strcmp(k, "log_size") || !strcmp(k, "ftrace") ||
			   !strcmp(k, "mem_buffer_size")) {
			if (cJSON_IsObject(f) || cJSON_IsArray(f) || cJSON_IsNull(f))
				return fail(p, k, "expected a string, integer or boolean, got %s",
					    type_name(f));
			note(p, "note: workload '%s': global.%s: not applicable in the simulator (use --trace for the kernel's events)",
			     p->file, k);
		} else {
			char key[96];

			snprintf(key, sizeof(key), "global.%.80s", k);
			skipped(p, key);
		}
	}
	return 0;
}

/* ---- our extension: the groups' control files, the system's events ---- */

/* What is written to a control file: a string as it is, or an integer. */
static int parse_setting(struct rp *p, const cJSON *f,
			 struct workload_setting *out)
{
	char num[32], msg[WORKLOAD_ERR_MAX];
	const char *v = num;
	long l;

	if (cJSON_IsString(f)) {
		v = f->valuestring;
	} else if (cJSON_IsNumber(f)) {
		if (get_int(p, f, &l))
			return -1;
		snprintf(num, sizeof(num), "%ld", l);
	} else {
		return fail(p, f->string, "expected what is written to the file (a string or an integer), got %s",
			    type_name(f));
	}
	if (workload_setting(out, f->string, v, msg, sizeof(msg)))
		return fail(p, NULL, "%s", msg);
	if (!strncmp(out->file, "cpuset.", 7))
		p->wl->cpusets = 1;
	return 0;
}

/* "lsb-taskgroups": {PATH: {FILE: VALUE, ...}, ...}, written at boot */
static int parse_taskgroups(struct rp *p, const cJSON *obj)
{
	char where[WORKLOAD_GROUP_PATH_MAX + 32], msg[WORKLOAD_ERR_MAX];
	const cJSON *g, *f;

	if (!cJSON_IsObject(obj))
		return fail(p, "lsb-taskgroups", "expected an object of taskgroup paths, each an object of control files and their values, got %s",
			    type_name(obj));
	p->where = where;
	cJSON_ArrayForEach(g, obj) {
		struct workload_group *grp;
		int idx;

		snprintf(where, sizeof(where), "lsb-taskgroups: '%.*s'",
			 WORKLOAD_GROUP_PATH_MAX, g->string);
		if (!cJSON_IsObject(g))
			return fail(p, NULL, "expected an object of control files and their values, got %s",
				    type_name(g));
		idx = workload_group(p->wl, g->string, msg, sizeof(msg));
		if (idx < 0)
			return fail(p, NULL, "%s", msg);
		grp = &p->wl->groups[idx - 1];
		cJSON_ArrayForEach(f, g) {
			struct workload_setting *set;

			set = realloc(grp->settings, (grp->nr_settings + 1) *
				      sizeof(*set));
			if (!set)
				return fail(p, NULL, "out of memory");
			grp->settings = set;
			if (parse_setting(p, f, &set[grp->nr_settings++]))
				return -1;
		}
	}
	p->where = NULL;
	return 0;
}

static struct workload_sysevent *sysevent_add(struct rp *p, uint64_t time,
					      enum workload_sys_type type)
{
	struct workload *wl = p->wl;
	struct workload_sysevent *e;

	e = realloc(wl->sysevents, (wl->nr_sysevents + 1) * sizeof(*e));
	if (!e) {
		fail(p, NULL, "out of memory");
		return NULL;
	}
	wl->sysevents = e;
	e = &e[wl->nr_sysevents++];
	memset(e, 0, sizeof(*e));
	e->time_ns = time;
	e->type = type;
	return e;
}

static int parse_sysevent(struct rp *p, const cJSON *obj)
{
	const cJSON *time = cJSON_GetObjectItemCaseSensitive(obj, "time");
	const cJSON *tg = cJSON_GetObjectItemCaseSensitive(obj, "taskgroup");
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(obj, "cpu");
	const cJSON *online = cJSON_GetObjectItemCaseSensitive(obj, "online");
	struct workload_sysevent *e;
	const cJSON *f;
	uint64_t t;
	char msg[WORKLOAD_ERR_MAX];
	int group, on = 0, n = 0;
	long c;

	if (!cJSON_IsObject(obj))
		return fail(p, NULL, "expected an object, got %s", type_name(obj));
	if (!time)
		return fail(p, NULL, "expected \"time\": when, in microseconds from the start");
	if (get_us_from(p, time, "time", 0, &t))
		return -1;
	if (tg && (cpu || online))
		return fail(p, NULL, "an event writes a taskgroup's files or takes a CPU offline or online, not both");
	if (tg) {
		const char *path = NULL;

		if (get_string(p, tg, "taskgroup", &path))
			return -1;
		group = workload_group(p->wl, path, msg, sizeof(msg));
		if (group < 0)
			return fail(p, "taskgroup", "%s", msg);
		cJSON_ArrayForEach(f, obj) {
			if (f == time || f == tg)
				continue;
			if (!(e = sysevent_add(p, t, WL_SYS_WRITE)))
				return -1;
			e->group = group - 1;
			if (parse_setting(p, f, &e->set))
				return -1;
			n++;
		}
		return n ? 0 : fail(p, "taskgroup", "no control file to write (such as \"cpu.weight\": 200)");
	}
	if (!cpu || !online)
		return fail(p, NULL, "expected \"taskgroup\" and control files to write, or \"cpu\" and \"online\"");
	cJSON_ArrayForEach(f, obj)
		if (f != time && f != cpu && f != online)
			return fail(p, f->string, "unknown key in a CPU's event (expected time, cpu and online)");
	if (get_range(p, cpu, 0, WORKLOAD_MAX_CPUS - 1, &c) ||
	    get_bool(p, online, &on))
		return -1;
	if (!(e = sysevent_add(p, t, on ? WL_SYS_CPU_UP : WL_SYS_CPU_DOWN)))
		return -1;
	e->cpu = (int)c;
	return 0;
}

/* "lsb-events": [{"time": us, ...}, ...], run in time order */
static int parse_sysevents(struct rp *p, const cJSON *arr)
{
	struct workload *wl = p->wl;
	char where[64];
	const cJSON *e;
	int k = 0, i, j;

	if (!cJSON_IsArray(arr))
		return fail(p, "lsb-events", "expected an array of events, got %s",
			    type_name(arr));
	p->where = where;
	cJSON_ArrayForEach(e, arr) {
		snprintf(where, sizeof(where), "lsb-events: event %d", ++k);
		if (parse_sysevent(p, e))
			return -1;
	}
	p->where = NULL;
	/* stable: writes at one time keep their order */
	for (i = 1; i < wl->nr_sysevents; i++) {
		struct workload_sysevent x = wl->sysevents[i];

		for (j = i; j > 0 && wl->sysevents[j - 1].time_ns > x.time_ns; j--)
			wl->sysevents[j] = wl->sysevents[j - 1];
		wl->sysevents[j] = x;
	}
	return 0;
}

/* ---- after every task is read: references and counts ---- */

static int resolve(struct rp *p)
{
	struct workload *wl = p->wl;
	int i, j, k, d;

	for (i = 0; i < wl->nr_defs; i++) {
		struct workload_task *t = &wl->defs[i];

		p->task = t->name;
		for (j = 0; j < t->nr_phases; j++) {
			struct workload_phase *ph = &t->phases[j];

			p->phase = t->nr_phases > 1 ? ph->name : NULL;
			for (k = 0; k < ph->nr_events; k++) {
				struct workload_event *e = &ph->events[k];
				struct rp_use *u = e->res >= 0 ? &p->use[e->res] : NULL;
				const char *name = e->res >= 0 ? wl->res[e->res].name : "";

				switch (e->type) {
				case WL_EV_FORK:
					for (d = 0; d < wl->nr_defs; d++)
						if (!strcmp(wl->defs[d].name, e->key))
							break;
					if (d == wl->nr_defs)
						return fail(p, "fork", "no task '%s' in tasks to fork",
							    e->key);
					e->res = d;
					snprintf(e->key, sizeof(e->key), "fork");
					break;
				case WL_EV_BARRIER:
					if (!t->instances)
						return fail(p, e->key, "barrier '%s' in a task started by fork (rt-app: the number of users must be known)",
							    name);
					wl->res[e->res].users += t->instances;
					break;
				case WL_EV_UNLOCK:
				case WL_EV_WAIT:
				case WL_EV_SYNC:
					d = e->type == WL_EV_UNLOCK ? e->res : e->dep;
					if (!p->use[d].lock)
						return fail(p, e->key, "mutex '%s' is never locked (no lock event names it)",
							    wl->res[d].name);
					if (e->type != WL_EV_UNLOCK && !u->signal)
						return fail(p, e->key, "nothing signals condition '%s' (no signal, broad or sync names it)",
							    name);
					break;
				case WL_EV_LOCK:
					if (!u->unlock)
						return fail(p, e->key, "mutex '%s' is never unlocked (no unlock, wait or sync names it)",
							    name);
					break;
				case WL_EV_SIGNAL:
				case WL_EV_BROAD:
					if (!u->wait)
						return fail(p, e->key, "no task waits on condition '%s' (no wait or sync names it)",
							    name);
					break;
				case WL_EV_SUSPEND:
					if (!u->resume)
						return fail(p, e->key, "nothing resumes '%s' (no resume event names it)",
							    name);
					break;
				case WL_EV_RESUME:
					if (!u->suspend)
						return fail(p, e->key, "no task suspends on '%s' (no suspend event names it)",
							    name);
					break;
				default:
					break;
				}
			}
		}
	}
	p->phase = NULL;
	for (i = 0; i < wl->nr_res; i++)
		if (wl->res[i].type == WL_RES_BARRIER && wl->res[i].users < 2) {
			p->task = NULL;
			return fail(p, "barrier", "barrier '%s' has %d user (rt-app: at least a pair of task instances)",
				    wl->res[i].name, wl->res[i].users);
		}
	p->task = NULL;
	return 0;
}

/*
 * Instances are named <first 10 characters>-<i>, unless another task shares
 * those 10 characters (rt-app's names are whole; only the comm is cut).
 * The cut keeps whole UTF-8 characters: 10 bytes or a little fewer.
 */
static int short_names(const struct workload *wl, int def)
{
	const char *name = wl->defs[def].name;
	size_t cut = topology_utf8_cut(name, 10);
	int i;

	if (!name[cut])
		return 1;
	for (i = 0; i < wl->nr_defs; i++)
		if (i != def && !strncmp(wl->defs[i].name, name, cut) &&
		    topology_utf8_cut(wl->defs[i].name, 10) == cut)
			return 0;
	return 1;
}

static int instances(struct rp *p)
{
	struct workload *wl = p->wl;
	int i, j, n = 0;

	for (i = 0; i < wl->nr_defs; i++)
		n += wl->defs[i].instances;
	if (n > WORKLOAD_MAX_TASKS)
		return fail(p, "tasks", "more than %d task instances", WORKLOAD_MAX_TASKS);
	if (!n)
		return fail(p, "tasks", "no task is started (every instance is 0)");
	wl->tasks = calloc(n, sizeof(*wl->tasks));
	if (!wl->tasks)
		return fail(p, NULL, "out of memory");
	for (i = 0; i < wl->nr_defs; i++) {
		const struct workload_task *d = &wl->defs[i];
		int cut = d->instances > 1 && short_names(wl, i);

		for (j = 0; j < d->instances; j++) {
			struct workload_task *t = &wl->tasks[wl->nr_tasks++];

			*t = *d;
			t->def = i;
			if (d->instances > 1)
				snprintf(t->name, sizeof(t->name), "%.*s-%u",
					 cut ? (int)topology_utf8_cut(d->name, 10) :
					 (int)strlen(d->name), d->name,
					 (unsigned int)j % 10000u);
		}
	}
	return 0;
}

static void line_col(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (; text < at && *text; text++) {
		if (*text == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

/* "line L, column C" of @at: the shared start of every syntax message */
static int syntax(const char *path, const char *text, const char *at,
		  char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int syntax(const char *path, const char *text, const char *at,
		  char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int line, col, n;

	line_col(text, at, &line, &col);
	n = snprintf(err, errlen, "workload '%s': line %d, column %d: ", path,
		     line, col);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * What json-c, rt-app's parser, takes and cJSON does not: comments (slash-star
 * and slash-slash) and a comma before a closing bracket. Both are blanked in
 * place, newlines kept, so that lines and columns stay those of the file.
 * json-c's default depth limit is checked here too, and a comma where no
 * value was is reported where it stands.
 */
static int relax(const char *path, char *text, char *err, size_t errlen)
{
	char *p, *last = NULL;	/* the last character that is not blank */
	int depth = 0;

	for (p = text; *p; p++) {
		if (*p == '"') {
			for (last = p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return syntax(path, text, last, err, errlen,
					      "a string is not closed");
			last = p;
		} else if (p[0] == '/' && p[1] == '*') {
			char *start = p, *end = strstr(p + 2, "*/");

			if (!end)
				return syntax(path, text, start, err, errlen,
					      "a comment is not closed (no */ after it)");
			for (; p < end + 2; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			if (!*p)
				break;
		} else if (*p == ',' && (!last || strchr(",{[:", *last))) {
			return syntax(path, text, p, err, errlen,
				      "a ',' where a value or key was expected");
		} else if (*p == '}' || *p == ']') {
			if (last && *last == ',')
				*last = ' ';	/* json-c takes a trailing comma */
			depth--;
			last = p;
		} else if (*p == '{' || *p == '[') {
			if (++depth > RTAPP_MAX_DEPTH)
				return syntax(path, text, p, err, errlen,
					      "nested deeper than %d levels (rt-app's JSON parser stops there)",
					      RTAPP_MAX_DEPTH);
			last = p;
		} else if ((unsigned char)*p < 0x20 && !strchr("\t\r\n", *p)) {
			return syntax(path, text, p, err, errlen,
				      "a control character (\\x%02x) outside a string",
				      (unsigned char)*p);
		} else if (!strchr(" \t\r\n", *p)) {
			last = p;
		}
	}
	return 0;
}

/* Up to 12 characters of the file at @at, for a message: printable ASCII,
 * anything else as \xNN, never raw bytes to a terminal. */
static const char *excerpt(const char *at, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	if (!*at)
		return "the end of the file";
	buf[n++] = '\'';
	for (i = 0; i < 12 && at[i] && at[i] != '\n' && at[i] != '\r' &&
		    n + 6 < len; i++) {
		unsigned char c = (unsigned char)at[i];

		if (c >= 0x20 && c < 0x7f)
			buf[n++] = (char)c;
		else
			n += (size_t)snprintf(buf + n, len - n, "\\x%02x", c);
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/* ---- a key given twice ---- */

/*
 * Where each key of @text starts, in the order of the text: cJSON keeps an
 * object's members in that order too, so a walk of the tree that takes a
 * member's key and then its value's keys meets them one by one. Return 0,
 * or -1 when out of memory.
 */
static int key_offsets(const char *text, size_t **out, size_t *n)
{
	size_t *at = NULL, *nat, cap = 0, k = 0;
	const char *p, *start, *q;

	for (p = text; *p; p++) {
		if (*p != '"')
			continue;
		start = p;
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		if (!*p)
			break;
		for (q = p + 1; *q == ' ' || *q == '\t' || *q == '\n' ||
		     *q == '\r'; q++)
			;
		if (*q != ':')
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 256;
			nat = realloc(at, cap * sizeof(*at));
			if (!nat) {
				free(at);
				return -1;
			}
			at = nat;
		}
		at[k++] = (size_t)(start - text);
	}
	*out = at;
	*n = k;
	return 0;
}

/* What an object of the file is, for the one rule on keys given twice. */
enum { IN_OTHER, IN_ROOT, IN_TASKS, IN_TASK, IN_PHASES, IN_PHASE };

struct keys {
	const size_t *at;	/* from key_offsets() */
	size_t n, next;
};

struct member {
	const char *key;
	size_t at;
};

static int by_key_then_place(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/*
 * Whether @node (an object of kind @in) gives a key twice, and below it.
 * rt-app's two readers disagree on such a key: json-c, its parser, keeps
 * the last value, while workgen, the front end rt-app's tutorial runs
 * first, renames the second to KEY1, which rt-app never reads, so the
 * first counts. Either choice would run another workload than one of
 * them: a key given twice is refused, with the line of both. Events in a
 * task or phase are the exception: workgen numbers them and rt-app reads
 * all of them in order (run, run1, ...), and so do we.
 */
static int unique_keys(struct rp *p, struct keys *k, const cJSON *node,
		       int in)
{
	const char *task = p->task, *phase = p->phase;
	struct member *m = NULL, *dup = NULL;
	const cJSON *c;
	size_t nm = 0, i, j;
	int ret = -1, type, line, col;

	if (cJSON_IsObject(node) && node->child &&
	    !(m = calloc(cJSON_GetArraySize(node), sizeof(*m))))
		return fail(p, NULL, "out of memory");
	for (c = node->child; c; c = c->next) {
		int cin = IN_OTHER;

		if (m) {
			if (k->next == k->n)	/* cJSON and we disagree */
				break;
			m[nm].key = c->string;
			m[nm++].at = k->at[k->next++];
			if (in == IN_ROOT && !strcmp(c->string, "tasks"))
				cin = IN_TASKS;
			else if (in == IN_TASKS)
				cin = IN_TASK;
			else if (in == IN_TASK && !strcmp(c->string, "phases"))
				cin = IN_PHASES;
			else if (in == IN_PHASES)
				cin = IN_PHASE;
		}
		if (!c->child)
			continue;
		if (cin == IN_TASK)
			p->task = c->string;
		else if (cin == IN_PHASE)
			p->phase = c->string;
		if (unique_keys(p, k, c, cin))
			goto out;
		p->task = task;
		p->phase = phase;
	}
	if (nm)
		qsort(m, nm, sizeof(*m), by_key_then_place);
	for (i = 0; i < nm; i = j) {
		for (j = i + 1; j < nm && !strcmp(m[j].key, m[i].key); j++)
			;
		if (j == i + 1 ||
		    ((in == IN_TASK || in == IN_PHASE) &&
		     event_key(m[i].key, &type)))
			continue;
		if (!dup || m[i + 1].at < dup[1].at)
			dup = &m[i];
	}
	ret = 0;
	if (dup) {
		line_col(p->text, p->text + dup[0].at, &line, &col);
		p->at = (long)dup[1].at;
		if (in == IN_TASKS) {
			p->task = dup[0].key;
			fail(p, NULL, "a second task of this name (the first is at line %d, column %d)",
			     line, col);
		} else {
			fail(p, dup[0].key, "given twice (the first at line %d, column %d): rt-app's json-c keeps the last, its workgen the first; give it once",
			     line, col);
		}
		ret = -1;
	}
out:
	p->task = task;
	p->phase = phase;
	p->at = -1;
	free(m);
	return ret;
}

/*
 * Parse @text (the file @name's, NUL-terminated; changed in place) into
 * @out. Return 0, or -1 with @err set.
 */
static int rtapp_parse_text(struct workload *out, const char *name,
			    char *text, char *err, size_t errlen)
{
	struct rp p = { .wl = out, .file = name, .text = text, .at = -1,
			.err = err, .errlen = errlen };
	struct keys keys = { 0 };
	size_t *at = NULL;
	const char *end = NULL;
	cJSON *root = NULL;
	const cJSON *f, *tasks = NULL;
	char near[80];
	int ret = -1;

	if (relax(name, text, err, errlen))
		goto cleanup;
	if ((end = topology_json_nul(text))) {
		syntax(name, text, end, err, errlen,
		       "\\u0000 in a string: no name or value may hold a NUL character");
		goto cleanup;
	}
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (!root) {
		if (!end)
			end = cJSON_GetErrorPtr();
		if (!end)
			end = text;
		syntax(name, text, end, err, errlen,
		       "malformed JSON near %s (expected a JSON value, ',' ':' or a closing bracket)",
		       excerpt(end, near, sizeof(near)));
		goto cleanup;
	}
	if (!cJSON_IsObject(root)) {
		fail(&p, NULL, "expected a JSON object with \"tasks\", got %s",
		     type_name(root));
		goto cleanup;
	}
	if (key_offsets(text, &at, &keys.n)) {
		snprintf(err, errlen, "out of memory");
		goto cleanup;
	}
	keys.at = at;
	if (unique_keys(&p, &keys, root, IN_ROOT))
		goto cleanup;
	cJSON_ArrayForEach(f, root) {
		if (!strcmp(f->string, "global")) {
			if (parse_global(&p, f))
				goto cleanup;
		} else if (!strcmp(f->string, "tasks")) {
			tasks = f;
		} else if (!strcmp(f->string, "lsb-taskgroups")) {
			if (parse_taskgroups(&p, f))
				goto cleanup;
		} else if (!strcmp(f->string, "lsb-events")) {
			if (parse_sysevents(&p, f))
				goto cleanup;
		} else if (!strcmp(f->string, "resources")) {
			note(&p, "note: workload '%s': resources: rt-app creates them on first use; the section is not needed",
			     name);
		} else {
			skipped(&p, f->string);
		}
	}
	if (!tasks || !cJSON_IsObject(tasks) || !cJSON_GetArraySize(tasks)) {
		fail(&p, "tasks", "expected an object of one or more tasks");
		goto cleanup;
	}
	out->defs = calloc(cJSON_GetArraySize(tasks), sizeof(*out->defs));
	if (!out->defs) {
		snprintf(err, errlen, "out of memory");
		goto cleanup;
	}
	cJSON_ArrayForEach(f, tasks) {
		struct workload_task *t = &out->defs[out->nr_defs++];

		p.task = f->string;
		if (parse_task(&p, f, t))
			goto cleanup;
		t->def = out->nr_defs - 1;
		p.task = NULL;
		p.phase = NULL;
	}
	if (resolve(&p) || instances(&p))
		goto cleanup;
	out->pi_enabled = p.pi_enabled;
	ret = 0;
cleanup:
	free(at);
	free(p.use);
	cJSON_Delete(root);
	return ret;
}

int workload_rtapp_parse(struct workload *out, const char *path, char *err,
			 size_t errlen)
{
	char *text = topology_read_input(path, "workload", NULL, err, errlen);
	int ret;

	if (!text)
		return -1;
	ret = rtapp_parse_text(out, path, text, err, errlen);
	free(text);
	return ret;
}

int workload_parse_json(struct workload *out, const char *name,
			const char *text, char *err, size_t errlen)
{
	char *copy;
	int ret;

	memset(out, 0, sizeof(*out));
	if (workload_set_spec(out, name, err, errlen))
		return -1;
	copy = strdup(text);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ret = rtapp_parse_text(out, name, copy, err, errlen);
	free(copy);
	if (ret) {
		topology_printable(err, errlen);
		workload_release(out);
	}
	return ret;
}
