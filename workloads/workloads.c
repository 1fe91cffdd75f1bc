// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "workloads/workloads.h"
#include "topologies/topologies.h"
#include "workloads/workloads_internal.h"

/*
 * A decimal number as durations are written: digits, a fraction, an
 * exponent ("1e-9"); no sign, blank, hexadecimal ("0x10") or infinity,
 * which strtod() would take. Return where the number ends, or NULL.
 */
static const char *decimal_end(const char *s)
{
	const char *p = s;
	int digits = 0;

	for (; isdigit((unsigned char)*p); p++)
		digits = 1;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits = 1;
	if (!digits)
		return NULL;
	if (*p == 'e' || *p == 'E') {
		const char *e = p + 1;

		if (*e == '+' || *e == '-')
			e++;
		if (!isdigit((unsigned char)*e))
			return p;	/* not an exponent: the unit's text */
		for (p = e; isdigit((unsigned char)*p); p++)
			;
	}
	return p;
}

int workload_parse_duration(uint64_t *out, const char *s)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "", 1 },
	};
	const char *num_end = decimal_end(s);
	char *end;
	double v;
	size_t i;

	if (!num_end)
		return -1;
	v = strtod(s, &end);
	if (end != num_end || !(v > 0) || !isfinite(v))	/* nan is not > 0 */
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].suffix)) {
			if (v * units[i].mult >= WORKLOAD_DURATION_LIMIT_NS)
				return -1;
			*out = (uint64_t)(v * units[i].mult + 0.5);
			return *out ? 0 : -1;
		}
	return -1;
}

/* Where a compact spec is wrong: "workload 'SPEC': character N: ..." */
struct cspec {
	const char *spec;
	char *err;
	size_t errlen;
	int group;		/* 1, 2, ... */
};

static int cfail(const struct cspec *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cfail(const struct cspec *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "workload '%s': character %d: ",
		     c->spec, (int)(at - c->spec) + 1);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A whole decimal integer from @lo to @hi (a '-' only when @lo < 0). */
static int spec_long(const char *s, long lo, long hi, long *out)
{
	const char *d = *s == '-' && lo < 0 ? s + 1 : s;
	char *end;
	long v;

	if (!isdigit((unsigned char)*d))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int spec_int(const char *s, int lo, int hi, int *out)
{
	long v;

	if (spec_long(s, lo, hi, &v))
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * "0-3.5": CPUs and ranges joined by '.'; a CPU named twice counts once,
 * as in a CPU set.
 */
static int parse_cpus(struct workload_task *t, const char *v)
{
	char seen[WORKLOAD_MAX_CPUS] = { 0 };
	long a, b;

	t->nr_cpus = 0;
	while (*v) {
		char num[16], *dash;
		size_t n = strcspn(v, ".");

		if (!n || n >= sizeof(num))
			return -1;
		snprintf(num, sizeof(num), "%.*s", (int)n, v);
		dash = strchr(num, '-');
		if (dash)
			*dash = '\0';
		if (spec_long(num, 0, WORKLOAD_MAX_CPUS - 1, &a))
			return -1;
		b = a;
		if (dash && spec_long(dash + 1, a, WORKLOAD_MAX_CPUS - 1, &b))
			return -1;
		for (; a <= b; a++)
			if (!seen[a]) {
				seen[a] = 1;
				t->cpus[t->nr_cpus++] = (int)a;
			}
		v += n;
		if (*v == '.' && !*++v)
			return -1;	/* "0." */
	}
	return t->nr_cpus ? 0 : -1;
}

static int parse_policy(int *out, const char *v)
{
	static const char *const names[] = {
		"other", "fifo", "rr", "batch", NULL, "idle",
	};
	int i;

	for (i = 0; i < 6; i++)
		if (names[i] && !strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	return -1;
}

/* A compact group's kind as the events of its one phase. */
static int compact_phases(struct workload *wl, struct workload_task *t,
			  char *err, size_t errlen)
{
	struct workload_phase *ph = calloc(1, sizeof(*ph));
	struct workload_event *ev = calloc(2, sizeof(*ev));
	struct workload_task *defs;

	defs = realloc(wl->defs, (wl->nr_defs + 1) * sizeof(*wl->defs));
	if (!ph || !ev || !defs) {
		free(ph);
		free(ev);
		if (defs)
			wl->defs = defs;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	wl->defs = defs;
	snprintf(ph->name, sizeof(ph->name), "%s", "compact");
	ph->loop = 1;
	ph->events = ev;
	ev[0].type = WL_EV_RUN;
	snprintf(ev[0].key, sizeof(ev[0].key), "run");
	ev[0].len.kind = WL_DIST_FIXED;
	ev[0].len.a = t->run_ns;
	ph->nr_events = 1;
	switch (t->kind) {
	case WORKLOAD_HOG:
		if (!t->loops)
			ev[0].len.a = UINT64_MAX / 2;
		break;
	case WORKLOAD_YIELD:
		ev[1].type = WL_EV_YIELD;
		snprintf(ev[1].key, sizeof(ev[1].key), "yield");
		ph->nr_events = 2;
		break;
	case WORKLOAD_RANDOM:
		ev[0].len.kind = WL_DIST_EXPONENTIAL;
		/* fall through */
	case WORKLOAD_PERIODIC:
		ev[1].type = WL_EV_SLEEP;
		snprintf(ev[1].key, sizeof(ev[1].key), "sleep");
		ev[1].len.kind = ev[0].len.kind;
		ev[1].len.a = t->sleep_ns;
		ph->nr_events = 2;
		break;
	case WORKLOAD_RTAPP:
		break;
	}
	t->def = wl->nr_defs;
	t->loop = t->loops ? (long)t->loops : -1;
	t->instances = 1;
	t->nr_phases = 1;
	t->phases = ph;
	wl->defs[wl->nr_defs++] = *t;
	return 0;
}

/*
 * An instance is named NAME-N; the kernel's comm keeps 15 bytes, and N
 * takes up to 5 with its '-': a name= has at most 10.
 */
#define COMPACT_NAME_MAX 10

static const char *const group_keys[] = {
	"run", "sleep", "nice", "loops", "unpin", "cpus", "policy", "prio",
	"name",
};
#define NR_GROUP_KEYS (sizeof(group_keys) / sizeof(group_keys[0]))

/* KEY=VALUE of a group into @t; @at: where the pair starts in the spec. */
static int group_key(const struct cspec *c, struct workload_task *t,
		     const char *at, const char **seen)
{
	char pair[256], *val;
	size_t k, n = strcspn(at, ":+");
	int bad = 0;
	long l;

	if (!n)
		return cfail(c, at, "group %d: an empty KEY=VALUE (':' with nothing after it)",
			     c->group);
	snprintf(pair, sizeof(pair), "%.*s", (int)n, at);
	val = strchr(pair, '=');
	if (!val || val == pair)
		return cfail(c, at, "group %d: '%s' is not KEY=VALUE", c->group,
			     pair);
	*val++ = '\0';
	for (k = 0; k < NR_GROUP_KEYS; k++)
		if (!strcmp(pair, group_keys[k]))
			break;
	if (k == NR_GROUP_KEYS)
		return cfail(c, at, "group %d: unknown key '%s' (expected run, sleep, nice, cpus, unpin, loops, policy, prio or name)",
			     c->group, pair);
	/* as in a workload file, a key given twice is refused */
	if (seen[k])
		return cfail(c, at, "group %d: '%s' is given twice (the first at character %d)",
			     c->group, pair, (int)(seen[k] - c->spec) + 1);
	seen[k] = at;
	at += val - pair;	/* the value, for the messages about it */
	if (!strcmp(pair, "run")) {
		bad = workload_parse_duration(&t->run_ns, val);
	} else if (!strcmp(pair, "sleep")) {
		bad = workload_parse_duration(&t->sleep_ns, val);
	} else if (!strcmp(pair, "nice")) {
		bad = spec_int(val, -20, 19, &t->nice);
	} else if (!strcmp(pair, "loops")) {
		bad = spec_long(val, 1, LONG_MAX, &l);
		t->loops = (uint64_t)l;
	} else if (!strcmp(pair, "unpin")) {
		bad = workload_parse_duration(&t->unpin_ns, val);
	} else if (!strcmp(pair, "cpus")) {
		bad = parse_cpus(t, val);
	} else if (!strcmp(pair, "policy")) {
		bad = parse_policy(&t->policy, val);
	} else if (!strcmp(pair, "prio")) {
		bad = spec_int(val, 1, 99, &t->prio);
	} else {
		if (!*val || strlen(val) > COMPACT_NAME_MAX)
			return cfail(c, at, "group %d: name '%s': expected 1 to %d characters (instances are NAME-N, and the kernel's comm keeps 15)",
				     c->group, val, COMPACT_NAME_MAX);
		snprintf(t->name, sizeof(t->name), "%s", val);
	}
	if (bad)
		return cfail(c, at, "group %d: bad value '%s' for '%s'", c->group,
			     val, pair);
	return 0;
}

/* The group at @g (up to the next '+' or the end). */
static int parse_group(struct workload *wl, const struct cspec *c,
		       const char *g)
{
	struct workload_task t = { .policy = 0, .util_min = -1, .util_max = -1 };
	const char *seen[NR_GROUP_KEYS] = { NULL }, *p;
	size_t n = strcspn(g, ":+");
	char kind[256], *star;
	long count = 1;
	int i, k;

	if (!strcspn(g, "+"))
		return cfail(c, g, "group %d is empty (expected KIND[*COUNT][:KEY=VALUE...])",
			     c->group);
	if (!n)
		return cfail(c, g, "group %d has no kind (expected KIND[*COUNT][:KEY=VALUE...])",
			     c->group);
	snprintf(kind, sizeof(kind), "%.*s", (int)n, g);
	star = strchr(kind, '*');
	if (star) {
		*star = '\0';
		if (spec_long(star + 1, 1, WORKLOAD_MAX_TASKS, &count))
			return cfail(c, g + (star + 1 - kind),
				     "group %d: count '%s' is not 1..%d",
				     c->group, star + 1, WORKLOAD_MAX_TASKS);
	}
	if (!strcmp(kind, "hog")) {
		t.kind = WORKLOAD_HOG;
	} else if (!strcmp(kind, "periodic")) {
		t.kind = WORKLOAD_PERIODIC;
	} else if (!strcmp(kind, "yield")) {
		t.kind = WORKLOAD_YIELD;
	} else if (!strcmp(kind, "random")) {
		t.kind = WORKLOAD_RANDOM;
		wl->randomised = 1;
	} else {
		return cfail(c, g, "group %d: unknown kind '%s' (expected hog, periodic, random or yield)",
			     c->group, kind);
	}
	snprintf(t.name, sizeof(t.name), "%.10s", kind);	/* a known kind */
	for (p = g + n; *p == ':'; p += strcspn(p, ":+"))
		if (group_key(c, &t, ++p, seen))
			return -1;
	if ((t.kind == WORKLOAD_PERIODIC || t.kind == WORKLOAD_RANDOM) &&
	    (!t.run_ns || !t.sleep_ns))
		return cfail(c, g, "group %d: '%s' needs run= and sleep=",
			     c->group, kind);
	if (t.kind == WORKLOAD_HOG && t.loops && !t.run_ns)
		return cfail(c, g, "group %d: a hog with loops= needs run=",
			     c->group);
	if (t.kind == WORKLOAD_YIELD && !t.run_ns)
		return cfail(c, g, "group %d: 'yield' needs run=", c->group);
	if (t.unpin_ns && !t.nr_cpus)
		return cfail(c, g, "group %d: unpin= needs cpus=", c->group);
	if ((t.policy == 1 || t.policy == 2) != (t.prio != 0))
		return cfail(c, g, "group %d: prio= goes with policy=fifo or rr, and they need it",
			     c->group);
	if (wl->nr_tasks + count > WORKLOAD_MAX_TASKS)
		return cfail(c, g, "group %d: more than %d tasks", c->group,
			     WORKLOAD_MAX_TASKS);
	/* numbered on from earlier groups of the same name */
	for (i = 0, k = 0; i < wl->nr_tasks; i++)
		if (!strncmp(wl->tasks[i].name, t.name, strlen(t.name)) &&
		    wl->tasks[i].name[strlen(t.name)] == '-')
			k++;
	if (compact_phases(wl, &t, c->err, c->errlen))
		return -1;
	for (i = 0; i < count; i++) {
		struct workload_task *d = &wl->tasks[wl->nr_tasks++];

		*d = t;
		snprintf(d->name, sizeof(d->name), "%s-%u", t.name,
			 (unsigned int)(k + i) % 10000u);
	}
	return 0;
}

static int is_json_spec(const char *spec)
{
	size_t n = strlen(spec);
	struct stat st;

	/*
	 * a compact spec never holds a '/': a path, even to nothing; an
	 * existing file of any kind but a directory (a FIFO too)
	 */
	return (n > 5 && !strcasecmp(spec + n - 5, ".json")) ||
	       strchr(spec, '/') || (!stat(spec, &st) && !S_ISDIR(st.st_mode));
}

/* GROUP[+GROUP...]: every group, every ':' and '+' followed by something. */
static int compact_parse(struct workload *out, const char *spec, char *err,
			 size_t errlen)
{
	struct cspec c = { .spec = spec, .err = err, .errlen = errlen };
	const char *g = spec;

	out->tasks = calloc(WORKLOAD_MAX_TASKS, sizeof(*out->tasks));
	if (!out->tasks) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (;;) {
		c.group++;
		if (parse_group(out, &c, g))
			return -1;
		g += strcspn(g, "+");
		if (!*g++)
			break;
	}
	return 0;
}

int workload_set_spec(struct workload *out, const char *spec, char *err,
		      size_t errlen)
{
	char why[80];

	if (strlen(spec) >= sizeof(out->spec)) {
		snprintf(err, errlen, "workload spec longer than %zu characters",
			 sizeof(out->spec) - 1);
		return -1;
	}
	/* the results and the trace's header carry it */
	if (topology_unprintable(spec, why, sizeof(why))) {
		snprintf(err, errlen, "workload '%s': holds %s: not a workload's name",
			 spec, why);
		topology_printable(err, errlen);
		return -1;
	}
	snprintf(out->spec, sizeof(out->spec), "%s", spec);
	return 0;
}

int workload_parse(struct workload *out, const char *spec, char *err,
		   size_t errlen)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (workload_set_spec(out, spec, err, errlen))
		return -1;
	if (is_json_spec(spec))
		ret = workload_rtapp_parse(out, spec, err, errlen);
	else
		ret = compact_parse(out, spec, err, errlen);
	if (ret) {
		/* a message quotes the input: no raw bytes to a terminal */
		topology_printable(err, errlen);
		workload_release(out);
	}
	return ret;
}

static int check_cpus(const struct workload *wl, const char *task,
		      const char *phase, int n, const int *cpus, int nr_cpus,
		      char *err, size_t errlen)
{
	int i;

	for (i = 0; i < n; i++)
		if (cpus[i] >= nr_cpus) {
			snprintf(err, errlen,
				 "workload '%s': task '%s'%s%s%s: CPU %d is beyond the topology's %d CPUs",
				 wl->spec, task, phase ? ": phase '" : "",
				 phase ? phase : "", phase ? "'" : "", cpus[i],
				 nr_cpus);
			return -1;
		}
	return 0;
}

int workload_check(const struct workload *wl, int nr_cpus, char *err,
		   size_t errlen)
{
	int i, j, n;

	for (i = 0; i < wl->nr_defs; i++) {
		const struct workload_task *d = &wl->defs[i];

		if (check_cpus(wl, d->name, NULL, d->nr_cpus, d->cpus, nr_cpus,
			       err, errlen))
			return -1;
		for (j = 0; j < d->nr_phases; j++)
			if (check_cpus(wl, d->name, d->phases[j].name,
				       d->phases[j].nr_cpus, d->phases[j].cpus,
				       nr_cpus, err, errlen))
				return -1;
	}
	for (i = 0; i < wl->nr_sysevents; i++) {
		const struct workload_sysevent *e = &wl->sysevents[i];

		if (e->type != WL_SYS_WRITE && e->cpu >= nr_cpus) {
			snprintf(err, errlen, "workload '%s': lsb-events: CPU %d is beyond the topology's %d CPUs",
				 wl->spec, e->cpu, nr_cpus);
			return -1;
		}
		if (e->type == WL_SYS_WRITE &&
		    !strcmp(e->set.file, "cpuset.cpus") &&
		    topology_cpulist(e->set.value, nr_cpus, NULL, &n)) {
			snprintf(err, errlen, "workload '%s': lsb-events: taskgroup '%s': cpuset.cpus '%s' names a CPU beyond the topology's %d CPUs",
				 wl->spec, wl->groups[e->group].path,
				 e->set.value, nr_cpus);
			return -1;
		}
	}
	for (i = 0; i < wl->nr_groups; i++)
		for (j = 0; j < wl->groups[i].nr_settings; j++) {
			const struct workload_setting *s = &wl->groups[i].settings[j];

			if (!strcmp(s->file, "cpuset.cpus") &&
			    topology_cpulist(s->value, nr_cpus, NULL, &n)) {
				snprintf(err, errlen, "workload '%s': taskgroup '%s': cpuset.cpus '%s' names a CPU beyond the topology's %d CPUs",
					 wl->spec, wl->groups[i].path, s->value,
					 nr_cpus);
				return -1;
			}
		}
	return 0;
}

void workload_release(struct workload *wl)
{
	int i, j;

	for (i = 0; i < wl->nr_defs; i++) {
		for (j = 0; j < wl->defs[i].nr_phases; j++) {
			free(wl->defs[i].phases[j].events);
			free(wl->defs[i].phases[j].cpus);
		}
		free(wl->defs[i].phases);
	}
	for (i = 0; i < wl->nr_groups; i++)
		free(wl->groups[i].settings);
	free(wl->groups);
	free(wl->sysevents);
	wl->groups = NULL;
	wl->sysevents = NULL;
	wl->nr_groups = 0;
	wl->nr_sysevents = 0;
	free(wl->defs);
	free(wl->tasks);
	free(wl->res);
	wl->defs = NULL;
	wl->tasks = NULL;
	wl->res = NULL;
	wl->nr_defs = 0;
	wl->nr_tasks = 0;
	wl->nr_res = 0;
}
