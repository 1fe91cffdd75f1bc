// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "workloads/workloads.h"
#include "topologies/topologies.h"
#include "workloads/workloads_internal.h"

int workload_parse_duration(uint64_t *out, const char *s)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "", 1 },
	};
	char *end;
	double v = strtod(s, &end);
	size_t i;

	if (end == s || !(v > 0) || !isfinite(v))	/* nan is not > 0 */
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].suffix)) {
			/* at most ~584 years: beyond, uint64_t ns overflow */
			if (v * units[i].mult >= 1.8e19)
				return -1;
			*out = (uint64_t)(v * units[i].mult + 0.5);
			return *out ? 0 : -1;
		}
	return -1;
}

static int parse_cpus(struct workload_task *t, const char *v)
{
	char *end;

	t->nr_cpus = 0;
	while (*v) {
		long a = strtol(v, &end, 10), b;

		if (end == v || a < 0 || a >= WORKLOAD_MAX_CPUS)
			return -1;
		b = a;
		v = end;
		if (*v == '-') {
			b = strtol(v + 1, &end, 10);
			if (end == v + 1 || b < a || b >= WORKLOAD_MAX_CPUS)
				return -1;
			v = end;
		}
		for (; a <= b; a++)
			t->cpus[t->nr_cpus++] = (int)a;
		if (*v == '.')
			v++;
		else if (*v)
			return -1;
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

/* A whole decimal integer from @lo to @hi; -1 for anything else. */
static int spec_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/* A whole decimal count of at least 1; -1 for anything else. */
static int spec_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || *end || errno || !v || *s == '-')
		return -1;
	*out = v;
	return 0;
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

static int parse_group(struct workload *wl, char *group, int index, char *err,
		       size_t errlen)
{
	struct workload_task t = { .policy = 0, .util_min = -1, .util_max = -1 };
	char *kind = strtok(group, ":"), *kv, *star;
	long count = 1;
	int i, n;

	if (!kind || !*kind) {
		snprintf(err, errlen, "group %d is empty (expected KIND[*COUNT][:KEY=VALUE...])",
			 index);
		return -1;
	}
	star = strchr(kind, '*');
	if (star) {
		char *end;

		*star = '\0';
		count = strtol(star + 1, &end, 10);
		if (*end || count < 1 || count > WORKLOAD_MAX_TASKS) {
			snprintf(err, errlen, "group %d: count '%s' is not 1..%d",
				 index, star + 1, WORKLOAD_MAX_TASKS);
			return -1;
		}
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
		snprintf(err, errlen,
			 "group %d: unknown kind '%s' (expected hog, periodic, random or yield)",
			 index, kind);
		return -1;
	}
	snprintf(t.name, sizeof(t.name), "%s", kind);
	while ((kv = strtok(NULL, ":"))) {
		char *val = strchr(kv, '=');
		int bad = 0;

		if (!val) {
			snprintf(err, errlen, "group %d: '%s' is not KEY=VALUE",
				 index, kv);
			return -1;
		}
		*val++ = '\0';
		if (!strcmp(kv, "run"))
			bad = workload_parse_duration(&t.run_ns, val);
		else if (!strcmp(kv, "sleep"))
			bad = workload_parse_duration(&t.sleep_ns, val);
		else if (!strcmp(kv, "nice"))
			bad = spec_int(val, -20, 19, &t.nice);
		else if (!strcmp(kv, "loops"))
			bad = spec_count(val, &t.loops);
		else if (!strcmp(kv, "unpin"))
			bad = workload_parse_duration(&t.unpin_ns, val);
		else if (!strcmp(kv, "cpus"))
			bad = parse_cpus(&t, val);
		else if (!strcmp(kv, "policy"))
			bad = parse_policy(&t.policy, val);
		else if (!strcmp(kv, "prio"))
			bad = spec_int(val, 1, 99, &t.prio);
		else if (!strcmp(kv, "name"))
			bad = snprintf(t.name, sizeof(t.name), "%s", val) >=
			      (int)sizeof(t.name) - 5;
		else {
			snprintf(err, errlen,
				 "group %d: unknown key '%s' (expected run, sleep, nice, cpus, unpin, loops, policy, prio or name)",
				 index, kv);
			return -1;
		}
		if (bad) {
			snprintf(err, errlen, "group %d: bad value '%s' for '%s'",
				 index, val, kv);
			return -1;
		}
	}
	if ((t.kind == WORKLOAD_PERIODIC || t.kind == WORKLOAD_RANDOM) &&
	    (!t.run_ns || !t.sleep_ns)) {
		snprintf(err, errlen, "group %d: '%s' needs run= and sleep=",
			 index, kind);
		return -1;
	}
	if (t.kind == WORKLOAD_HOG && t.loops && !t.run_ns) {
		snprintf(err, errlen, "group %d: a hog with loops= needs run=",
			 index);
		return -1;
	}
	if (t.kind == WORKLOAD_YIELD && !t.run_ns) {
		snprintf(err, errlen, "group %d: 'yield' needs run=", index);
		return -1;
	}
	if (t.unpin_ns && !t.nr_cpus) {
		snprintf(err, errlen, "group %d: unpin= needs cpus=", index);
		return -1;
	}
	if ((t.policy == 1 || t.policy == 2) != (t.prio != 0)) {
		snprintf(err, errlen,
			 "group %d: prio= goes with policy=fifo or rr, and they need it",
			 index);
		return -1;
	}
	if (wl->nr_tasks + count > WORKLOAD_MAX_TASKS) {
		snprintf(err, errlen, "more than %d tasks", WORKLOAD_MAX_TASKS);
		return -1;
	}
	/* numbered on from earlier groups of the same name */
	for (i = 0, n = 0; i < wl->nr_tasks; i++)
		if (!strncmp(wl->tasks[i].name, t.name, strlen(t.name)) &&
		    wl->tasks[i].name[strlen(t.name)] == '-')
			n++;
	if (compact_phases(wl, &t, err, errlen))
		return -1;
	for (i = 0; i < count; i++) {
		struct workload_task *d = &wl->tasks[wl->nr_tasks++];

		*d = t;
		snprintf(d->name, sizeof(d->name), "%.10s-%u", t.name,
			 (unsigned int)(n + i) % 10000u);
	}
	return 0;
}

static int is_json_spec(const char *spec)
{
	size_t n = strlen(spec);
	struct stat st;

	/* a compact spec never holds a '/': a path, even to nothing */
	return (n > 5 && !strcasecmp(spec + n - 5, ".json")) ||
	       strchr(spec, '/') || (!stat(spec, &st) && S_ISREG(st.st_mode));
}

static int compact_parse(struct workload *out, const char *spec, char *err,
			 size_t errlen)
{
	char *copy, *group, *save = NULL;
	int index = 0;

	out->tasks = calloc(WORKLOAD_MAX_TASKS, sizeof(*out->tasks));
	copy = strdup(spec);
	if (!out->tasks || !copy) {
		free(copy);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (group = strtok_r(copy, "+", &save); group;
	     group = strtok_r(NULL, "+", &save)) {
		if (parse_group(out, group, ++index, err, errlen)) {
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (!out->nr_tasks) {
		snprintf(err, errlen, "workload '%s' has no task", spec);
		return -1;
	}
	return 0;
}

int workload_parse(struct workload *out, const char *spec, char *err,
		   size_t errlen)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (strlen(spec) >= sizeof(out->spec)) {
		snprintf(err, errlen, "workload spec longer than %zu characters",
			 sizeof(out->spec) - 1);
		return -1;
	}
	snprintf(out->spec, sizeof(out->spec), "%s", spec);
	if (is_json_spec(spec))
		ret = workload_rtapp_parse(out, spec, err, errlen);
	else
		ret = compact_parse(out, spec, err, errlen);
	if (ret)
		workload_release(out);
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
