// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen.c - the hunt's test cases: each one a function of the hunt's seed
 * and the case's index, drawn from its own generator, so that case 1234
 * is the same case whatever ran before it, in whichever process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include "hunt/hunt_internal.h"

/* splitmix64: one state per case */
unsigned long long hunt_rand(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned below(unsigned long long *r, unsigned n)
{
	return n ? (unsigned)(hunt_rand(r) % n) : 0;
}

/* true with probability @pct percent */
static int chance(unsigned long long *r, unsigned pct)
{
	return below(r, 100) < pct;
}

/* @lo..@hi microseconds, spread evenly over the logarithm (1-2-5 steps) */
static long log_us(unsigned long long *r, long lo, long hi)
{
	static const long steps[] = {
		10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000,
		50000, 100000, 200000, 500000, 1000000,
	};
	size_t i, first = 0, n = 0;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i] < lo)
			first = i + 1;
		else if (steps[i] <= hi)
			n++;
	}
	return n ? steps[first + below(r, (unsigned)n)] : lo;
}

static cJSON *cpu_set(unsigned long long *r, int nr_cpus)
{
	cJSON *a = cJSON_CreateArray();
	int i, lo, hi;

	switch (below(r, 3)) {
	case 0:	/* one CPU */
		cJSON_AddItemToArray(a, cJSON_CreateNumber(below(r, nr_cpus)));
		break;
	case 1:	/* a range, as a cluster or a node */
		lo = (int)below(r, nr_cpus);
		hi = lo + 1 + (int)below(r, nr_cpus - lo);
		for (i = lo; i < hi; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
		break;
	default:	/* any CPUs, at least one */
		for (i = 0; i < nr_cpus; i++)
			if (chance(r, 50))
				cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
		if (!cJSON_GetArraySize(a))
			cJSON_AddItemToArray(a, cJSON_CreateNumber(below(r, nr_cpus)));
	}
	return a;
}

/* the events of one phase: what the task does in a loop */
static void add_events(cJSON *o, unsigned long long *r, int kind)
{
	long run = log_us(r, 50, 20000), sleep = log_us(r, 50, 50000);
	cJSON *d, *t;

	switch (kind) {
	case 0:	/* hog */
		cJSON_AddNumberToObject(o, "run", 100000);
		break;
	case 1:	/* periodic */
		cJSON_AddNumberToObject(o, "run", (double)run);
		cJSON_AddNumberToObject(o, "sleep", (double)sleep);
		break;
	case 2:	/* timer: run a part of each period */
		cJSON_AddNumberToObject(o, "run", (double)run);
		t = cJSON_AddObjectToObject(o, "timer");
		cJSON_AddStringToObject(t, "ref", "unique");
		cJSON_AddNumberToObject(t, "period",
					(double)(run + log_us(r, run, 100000)));
		break;
	default:	/* random lengths */
		d = cJSON_AddObjectToObject(o, "lsb-run");
		cJSON_AddStringToObject(d, "distribution", "exponential");
		cJSON_AddNumberToObject(d, "mean", (double)run);
		d = cJSON_AddObjectToObject(o, "lsb-sleep");
		cJSON_AddStringToObject(d, "distribution", "exponential");
		cJSON_AddNumberToObject(d, "mean", (double)sleep);
	}
}

static void add_group(cJSON *groups, unsigned long long *r, const char *path,
		      int nr_cpus)
{
	static const int weights[] = { 1, 10, 50, 100, 200, 1000, 10000 };
	cJSON *g = cJSON_AddObjectToObject(groups, path);
	char v[32];
	int lo, hi;

	if (chance(r, 60))
		cJSON_AddNumberToObject(g, "cpu.weight", weights[below(r, 7)]);
	if (chance(r, 20)) {
		snprintf(v, sizeof(v), "%ld 100000", log_us(r, 5000, 100000) *
			 (long)(1 + below(r, 4)));
		cJSON_AddStringToObject(g, "cpu.max", v);
	}
	if (chance(r, 10))
		cJSON_AddNumberToObject(g, "cpu.idle", 1);
	if (chance(r, 10))
		cJSON_AddStringToObject(g, "cpu.uclamp.min",
					chance(r, 50) ? "20" : "80");
	if (nr_cpus > 1 && chance(r, 15)) {	/* a cpuset: CPUs lo-hi */
		lo = (int)below(r, (unsigned)nr_cpus);
		hi = lo + (int)below(r, (unsigned)(nr_cpus - lo));
		snprintf(v, sizeof(v), lo == hi ? "%d" : "%d-%d", lo, hi);
		cJSON_AddStringToObject(g, "cpuset.cpus", v);
	}
}

/* a task of @kind (0 hog, 1 periodic, 2 timer, 3 random, 4 fork, 5 phases) */
static void add_task(cJSON *tasks, unsigned long long *r,
		     const struct hunt_space *s, int nr_cpus, int t,
		     int instances, int ngroups)
{
	int kind = (int)below(r, 6), rt = 0, nice, i, nph;
	char name[16], child[16], ph[8], grp[8];
	cJSON *o, *c, *phases, *p;

	snprintf(name, sizeof(name), "t%d", t);
	o = cJSON_AddObjectToObject(tasks, name);
	if (instances > 1)
		cJSON_AddNumberToObject(o, "instance", instances);
	cJSON_AddNumberToObject(o, "loop", -1);
	if ((kind == 1 || kind == 2) && chance(r, 5)) {
		cJSON_AddStringToObject(o, "policy", "SCHED_FIFO");
		cJSON_AddNumberToObject(o, "priority", 1 + below(r, 99));
		rt = 1;
	} else if (chance(r, 12)) {
		cJSON_AddStringToObject(o, "policy", chance(r, 55) ?
					"SCHED_BATCH" : "SCHED_IDLE");
	}
	if (!rt && chance(r, 30)) {
		nice = (int)below(r, 40) - 20;
		cJSON_AddNumberToObject(o, "priority", nice);
	}
	if (!rt && chance(r, 5))
		cJSON_AddNumberToObject(o, "dl-runtime", (double)log_us(r, 100, 5000));
	if (kind == 0 && chance(r, 40)) {	/* a hog pinned to one CPU */
		c = cJSON_AddArrayToObject(o, "cpus");
		cJSON_AddItemToArray(c, cJSON_CreateNumber(below(r, nr_cpus)));
	} else if (kind != 5 && chance(r, 35)) {
		cJSON_AddItemToObject(o, "cpus", cpu_set(r, nr_cpus));
	}
	if (chance(r, 5))
		cJSON_AddNumberToObject(o, "util_min", below(r, 1025));
	if (!rt && ngroups && chance(r, 60)) {
		snprintf(grp, sizeof(grp), "/g%u", below(r, (unsigned)ngroups));
		cJSON_AddStringToObject(o, "taskgroup", grp);
	}
	if (chance(r, 20))
		cJSON_AddNumberToObject(o, "delay", (double)(hunt_rand(r) %
					(s->duration_ns / 2000 + 1)));
	switch (kind) {
	case 4:	/* a fork storm: children that run once and exit */
		snprintf(child, sizeof(child), "t%dc", t);
		c = cJSON_AddObjectToObject(tasks, child);
		cJSON_AddNumberToObject(c, "instance", 0);
		cJSON_AddNumberToObject(c, "loop", 1);
		if (chance(r, 50))
			cJSON_AddItemToObject(c, "cpus", cpu_set(r, nr_cpus));
		cJSON_AddNumberToObject(c, "run", (double)log_us(r, 100, 20000));
		cJSON_AddStringToObject(o, "fork", child);
		cJSON_AddNumberToObject(o, "sleep", (double)log_us(r, 1000, 50000));
		break;
	case 5:	/* phases moving between CPU sets */
		phases = cJSON_AddObjectToObject(o, "phases");
		nph = 2 + (int)below(r, 2);
		for (i = 0; i < nph; i++) {
			snprintf(ph, sizeof(ph), "p%d", i);
			p = cJSON_AddObjectToObject(phases, ph);
			if (chance(r, 70))
				cJSON_AddItemToObject(p, "cpus",
						      cpu_set(r, nr_cpus));
			if (!rt && chance(r, 25))	/* a nice change */
				cJSON_AddNumberToObject(p, "priority",
							(int)below(r, 40) - 20);
			add_events(p, r, (int)below(r, 4));
		}
		break;
	default:
		add_events(o, r, kind);
	}
}

/* one hog pinned to each of some CPUs, "p<cpu>": at most @left */
static int add_per_cpu(cJSON *tasks, unsigned long long *r, int nr_cpus,
		       int left)
{
	int cpu, n = 0, periodic = chance(r, 30);
	long run = log_us(r, 100, 10000), sleep = log_us(r, 100, 10000);
	char name[16];
	cJSON *o;

	for (cpu = 0; cpu < nr_cpus && n < left - 1; cpu++) {
		if (!chance(r, 50))
			continue;
		snprintf(name, sizeof(name), "p%d", cpu);
		o = cJSON_AddObjectToObject(tasks, name);
		cJSON_AddNumberToObject(o, "loop", -1);
		cJSON_AddItemToObject(o, "cpus", cJSON_CreateIntArray(&cpu, 1));
		cJSON_AddNumberToObject(o, "run", periodic ? (double)run : 100000);
		if (periodic)
			cJSON_AddNumberToObject(o, "sleep", (double)sleep);
		n++;
	}
	return n;
}

static int cmp_time(const void *a, const void *b)
{
	const cJSON *x = *(cJSON *const *)a, *y = *(cJSON *const *)b;
	double tx = cJSON_GetNumberValue(cJSON_GetObjectItem(x, "time"));
	double ty = cJSON_GetNumberValue(cJSON_GetObjectItem(y, "time"));

	return tx < ty ? -1 : tx > ty;
}

static void add_events_system(cJSON *root, unsigned long long *r,
			      const struct hunt_space *s, int nr_cpus,
			      int ngroups)
{
	unsigned long long dur_us = s->duration_ns / 1000;
	cJSON *ev[4], *e, *list;
	int n = 0, cpu;
	unsigned long long t;
	char grp[8];

	if (nr_cpus > 1 && chance(r, 60)) {	/* a CPU goes away, maybe back */
		cpu = 1 + (int)below(r, (unsigned)nr_cpus - 1);
		t = hunt_rand(r) % (dur_us / 2 + 1);
		e = ev[n++] = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "time", (double)t);
		cJSON_AddNumberToObject(e, "cpu", cpu);
		cJSON_AddFalseToObject(e, "online");
		if (chance(r, 60)) {
			e = ev[n++] = cJSON_CreateObject();
			cJSON_AddNumberToObject(e, "time", (double)(t + 1 +
						hunt_rand(r) % (dur_us / 2)));
			cJSON_AddNumberToObject(e, "cpu", cpu);
			cJSON_AddTrueToObject(e, "online");
		}
	}
	snprintf(grp, sizeof(grp), "/g%u", below(r, (unsigned)ngroups));
	/* a group's weight changes; an idle group's has none to change */
	if (ngroups && (!n || chance(r, 40)) &&
	    !cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root,
				"lsb-taskgroups"), grp), "cpu.idle")) {
		e = ev[n++] = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "time", (double)(hunt_rand(r) % dur_us));
		cJSON_AddStringToObject(e, "taskgroup", grp);
		cJSON_AddNumberToObject(e, "cpu.weight", 1 + below(r, 10000));
	}
	if (!n)
		return;
	qsort(ev, (size_t)n, sizeof(ev[0]), cmp_time);
	list = cJSON_AddArrayToObject(root, "lsb-events");
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(list, ev[i]);
}

int hunt_generate(struct hunt_case *c, const struct hunt_space *s,
		  unsigned long long index)
{
	unsigned long long r = s->seed * 0x2545f4914f6cdd1dULL ^
			       (index + 1) * 0x9e3779b97f4a7c15ULL;
	size_t ti = below(&r, (unsigned)s->ntopo);
	int nr_cpus = s->nr_cpus[ti], ngroups = 0, left = s->max_tasks, t;
	int inst;
	cJSON *root, *tasks, *groups, *g;
	char path[8];

	memset(c, 0, sizeof(*c));
	snprintf(c->topology, sizeof(c->topology), "%s", s->topology[ti]);
	c->nr_cpus = nr_cpus;
	c->duration_ns = s->duration_ns;
	root = c->workload = cJSON_CreateObject();
	if (!root)
		return -1;
	g = cJSON_AddObjectToObject(root, "global");
	cJSON_AddNumberToObject(g, "duration", -1);
	if (chance(&r, 40)) {
		ngroups = 1 + (int)below(&r, 2);
		groups = cJSON_AddObjectToObject(root, "lsb-taskgroups");
		for (int i = 0; i < ngroups; i++) {
			snprintf(path, sizeof(path), "/g%d", i);
			add_group(groups, &r, path, nr_cpus);
		}
	}
	tasks = cJSON_AddObjectToObject(root, "tasks");
	if (chance(&r, 25))	/* per-CPU work pinned to some CPUs, as kthreads */
		left -= add_per_cpu(tasks, &r, nr_cpus, left);
	for (t = 0; left > 0 && (t == 0 || chance(&r, 65)) && t < 6; t++) {
		inst = chance(&r, 50) ? 1 : 1 + (int)below(&r, (unsigned)nr_cpus * 2);
		if (inst > left)
			inst = left;
		add_task(tasks, &r, s, nr_cpus, t, inst, ngroups);
		left -= inst;
	}
	if (chance(&r, 30))
		add_events_system(root, &r, s, nr_cpus, ngroups);
	return cJSON_GetArraySize(tasks) ? 0 : -1;
}

void hunt_case_release(struct hunt_case *c)
{
	cJSON_Delete(c->workload);
	c->workload = NULL;
}

int hunt_case_copy(struct hunt_case *to, const struct hunt_case *from)
{
	*to = *from;
	to->workload = cJSON_Duplicate(from->workload, 1);
	return to->workload ? 0 : -1;
}

char *hunt_case_text(const struct hunt_case *c, const char *comment)
{
	char *body = cJSON_Print(c->workload), *out;
	size_t len;

	if (!body || !comment)
		return body;
	len = strlen(comment) + strlen(body) + 16;
	out = malloc(len);
	if (out)
		snprintf(out, len, "/* %s */\n%s\n", comment, body);
	free(body);
	return out;
}

int hunt_case_tasks(const struct hunt_case *c)
{
	const cJSON *tasks = cJSON_GetObjectItem(c->workload, "tasks"), *t;
	const cJSON *inst;
	int n = 0;

	cJSON_ArrayForEach(t, tasks) {
		inst = cJSON_GetObjectItem(t, "instance");
		n += inst ? (int)cJSON_GetNumberValue(inst) : 1;
		if (cJSON_GetObjectItem(t, "fork"))
			n++;	/* its children, one at a time or more */
	}
	return n;
}
