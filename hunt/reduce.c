// SPDX-License-Identifier: GPL-2.0-only
/*
 * reduce.c - the smaller cases of a case, for delta debugging: each one a
 * single step (drop a task, an event, a group, a phase, an attribute;
 * halve the duration or an instance count; a smaller machine; rounder
 * numbers), listed from the steps that remove most to the finest, in an
 * order that depends on the case alone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hunt/hunt_internal.h"

enum step {
	DROP_TASK,
	DROP_EVENT,
	DROP_GROUP,
	HALVE_DURATION,
	ONE_INSTANCE,
	HALF_INSTANCES,
	LESS_INSTANCES,
	DROP_PHASE,
	DROP_ATTR,
	DROP_PHASE_CPUS,
	FEWER_CPUS,
	ROUND,
	NR_STEPS,
};

/* what a task may lose; a FIFO task loses its policy with its priority */
static const char *const attrs[] = {
	"cpus", "taskgroup", "policy", "priority", "util_min", "dl-runtime",
	"delay",
};
#define NR_ATTRS (sizeof(attrs) / sizeof(attrs[0]))

static cJSON *tasks_of(const struct hunt_case *c)
{
	return cJSON_GetObjectItem(c->workload, "tasks");
}

/* whether another task forks @name */
static int forked(const cJSON *tasks, const char *name)
{
	const cJSON *t;

	cJSON_ArrayForEach(t, tasks) {
		const char *f = cJSON_GetStringValue(cJSON_GetObjectItem(t, "fork"));

		if (f && !strcmp(f, name))
			return 1;
	}
	return 0;
}

static int drop_task(struct hunt_case *c, int i)
{
	cJSON *tasks = tasks_of(c), *t = cJSON_GetArrayItem(tasks, i);
	const char *f;

	if (!t || cJSON_GetArraySize(tasks) < 2 || forked(tasks, t->string))
		return 0;
	f = cJSON_GetStringValue(cJSON_GetObjectItem(t, "fork"));
	if (f)	/* its children's template goes with it */
		cJSON_DeleteItemFromObjectCaseSensitive(tasks, f);
	cJSON_DeleteItemFromObjectCaseSensitive(tasks, t->string);
	return cJSON_GetArraySize(tasks) > 0;
}

static void drop_group_uses(cJSON *o, const char *path)
{
	const char *g = cJSON_GetStringValue(cJSON_GetObjectItem(o, "taskgroup"));
	cJSON *ph;

	if (g && !strcmp(g, path))
		cJSON_DeleteItemFromObjectCaseSensitive(o, "taskgroup");
	cJSON_ArrayForEach(ph, cJSON_GetObjectItem(o, "phases")) {
		drop_group_uses(ph, path);
	}
}

static int drop_group(struct hunt_case *c, int i)
{
	cJSON *groups = cJSON_GetObjectItem(c->workload, "lsb-taskgroups");
	cJSON *g = cJSON_GetArrayItem(groups, i), *t, *ev;
	char path[64];
	int k;

	if (!g)
		return 0;
	snprintf(path, sizeof(path), "%s", g->string);
	cJSON_DeleteItemFromObjectCaseSensitive(groups, path);
	if (!cJSON_GetArraySize(groups))
		cJSON_DeleteItemFromObjectCaseSensitive(c->workload,
							"lsb-taskgroups");
	cJSON_ArrayForEach(t, tasks_of(c)) {
		drop_group_uses(t, path);
	}
	ev = cJSON_GetObjectItem(c->workload, "lsb-events");
	for (k = cJSON_GetArraySize(ev) - 1; k >= 0; k--) {
		const char *p = cJSON_GetStringValue(cJSON_GetObjectItem(
			cJSON_GetArrayItem(ev, k), "taskgroup"));

		if (p && !strcmp(p, path))
			cJSON_DeleteItemFromArray(ev, k);
	}
	return 1;
}

static int set_instances(struct hunt_case *c, int i, int step)
{
	cJSON *t = cJSON_GetArrayItem(tasks_of(c), i);
	cJSON *inst = cJSON_GetObjectItem(t, "instance");
	int n = inst ? (int)cJSON_GetNumberValue(inst) : 1, to;

	to = step == ONE_INSTANCE ? (n > 2 ? 1 : n) :
	     step == HALF_INSTANCES ? (n >= 4 ? n / 2 : n) : n - 1;
	if (to == n || to < 1)
		return 0;
	if (to == 1)	/* rt-app's default */
		cJSON_DeleteItemFromObjectCaseSensitive(t, "instance");
	else
		cJSON_SetNumberValue(inst, to);
	return 1;
}

static int drop_phase(struct hunt_case *c, int i, int j)
{
	cJSON *phases = cJSON_GetObjectItem(cJSON_GetArrayItem(tasks_of(c), i),
					    "phases");

	if (cJSON_GetArraySize(phases) < 2 || j >= cJSON_GetArraySize(phases))
		return 0;
	cJSON_DeleteItemFromArray(phases, j);
	return 1;
}

static int drop_attr(struct hunt_case *c, int i, int j)
{
	cJSON *t = cJSON_GetArrayItem(tasks_of(c), i);
	const char *pol = cJSON_GetStringValue(cJSON_GetObjectItem(t, "policy"));
	int rt = pol && (!strcmp(pol, "SCHED_FIFO") || !strcmp(pol, "SCHED_RR"));

	if (!t || j >= (int)NR_ATTRS || !cJSON_GetObjectItem(t, attrs[j]))
		return 0;
	if (rt && !strcmp(attrs[j], "priority"))
		return 0;	/* it goes with the policy */
	cJSON_DeleteItemFromObjectCaseSensitive(t, attrs[j]);
	if (rt && !strcmp(attrs[j], "policy"))
		cJSON_DeleteItemFromObjectCaseSensitive(t, "priority");
	return 1;
}

static int drop_phase_cpus(struct hunt_case *c, int i, int j)
{
	cJSON *phases = cJSON_GetObjectItem(cJSON_GetArrayItem(tasks_of(c), i),
					    "phases");
	cJSON *p = cJSON_GetArrayItem(phases, j);

	if (!cJSON_GetObjectItem(p, "cpus"))
		return 0;
	cJSON_DeleteItemFromObjectCaseSensitive(p, "cpus");
	return 1;
}

/* CPUs @n and above out of every list; 0 when a list would be empty */
static int clip_cpus(cJSON *o, int n)
{
	cJSON *cpus = cJSON_GetObjectItem(o, "cpus"), *ph;
	int k;

	for (k = cJSON_GetArraySize(cpus) - 1; k >= 0; k--)
		if (cJSON_GetNumberValue(cJSON_GetArrayItem(cpus, k)) >= n)
			cJSON_DeleteItemFromArray(cpus, k);
	if (cpus && !cJSON_GetArraySize(cpus))
		return 0;
	cJSON_ArrayForEach(ph, cJSON_GetObjectItem(o, "phases")) {
		if (!clip_cpus(ph, n))
			return 0;
	}
	return 1;
}

/* a shape PxCxT with one fewer packages (@j 0), cores (1) or threads (2) */
static int fewer_cpus(struct hunt_case *c, int j)
{
	int d[3], n, k;
	char end;
	cJSON *t, *ev;

	if (sscanf(c->topology, "%dx%dx%d%c", &d[0], &d[1], &d[2], &end) != 3 ||
	    d[j] < 2)
		return 0;
	d[j]--;
	n = d[0] * d[1] * d[2];
	cJSON_ArrayForEach(t, tasks_of(c)) {
		if (!clip_cpus(t, n))
			return 0;
	}
	ev = cJSON_GetObjectItem(c->workload, "lsb-events");
	for (k = cJSON_GetArraySize(ev) - 1; k >= 0; k--) {
		const cJSON *cpu = cJSON_GetObjectItem(cJSON_GetArrayItem(ev, k),
						       "cpu");

		if (cpu && cJSON_GetNumberValue(cpu) >= n)
			cJSON_DeleteItemFromArray(ev, k);
	}
	snprintf(c->topology, sizeof(c->topology), "%dx%dx%d", d[0], d[1], d[2]);
	c->nr_cpus = n;
	return 1;
}

/* lengths to one significant digit: 1234 -> 1000 */
static int round_numbers(cJSON *o)
{
	static const char *const keys[] = { "run", "sleep", "period", "mean" };
	int changed = 0;
	cJSON *x;
	double v, p;

	cJSON_ArrayForEach(x, o) {
		if (cJSON_IsObject(x)) {
			changed |= round_numbers(x);
			continue;
		}
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			if (!cJSON_IsNumber(x) || strncmp(x->string, keys[k],
							  strlen(keys[k])))
				continue;
			v = x->valuedouble;
			if (v < 10)
				break;
			p = pow(10, floor(log10(v)));
			if (floor(v / p) * p != v) {
				cJSON_SetNumberValue(x, floor(v / p) * p);
				changed = 1;
			}
			break;
		}
	}
	return changed;
}

static int apply(struct hunt_case *c, int step, int i, int j)
{
	cJSON *ev;

	switch (step) {
	case DROP_TASK:
		return j == 0 && drop_task(c, i);
	case DROP_EVENT:
		ev = cJSON_GetObjectItem(c->workload, "lsb-events");
		if (j || i >= cJSON_GetArraySize(ev))
			return 0;
		cJSON_DeleteItemFromArray(ev, i);
		if (!cJSON_GetArraySize(ev))
			cJSON_DeleteItemFromObjectCaseSensitive(c->workload,
								"lsb-events");
		return 1;
	case DROP_GROUP:
		return j == 0 && drop_group(c, i);
	case HALVE_DURATION:
		if (i || j || c->duration_ns < 100000000ULL)
			return 0;
		c->duration_ns = c->duration_ns / 2000000 * 1000000;
		return 1;
	case ONE_INSTANCE:
	case HALF_INSTANCES:
	case LESS_INSTANCES:
		return j == 0 && set_instances(c, i, step);
	case DROP_PHASE:
		return drop_phase(c, i, j);
	case DROP_ATTR:
		return drop_attr(c, i, j);
	case DROP_PHASE_CPUS:
		return drop_phase_cpus(c, i, j);
	case FEWER_CPUS:
		return i == 0 && j < 3 && fewer_cpus(c, j);
	case ROUND:
		return i == 0 && j == 0 && round_numbers(c->workload);
	}
	return 0;
}

/* the bounds of i (a task, event or group) and j of each step */
static const unsigned char max_i[NR_STEPS] = {
	[DROP_TASK] = 16, [DROP_EVENT] = 16, [DROP_GROUP] = 16,
	[HALVE_DURATION] = 1, [ONE_INSTANCE] = 16, [HALF_INSTANCES] = 16,
	[LESS_INSTANCES] = 16, [DROP_PHASE] = 16, [DROP_ATTR] = 16,
	[DROP_PHASE_CPUS] = 16, [FEWER_CPUS] = 1, [ROUND] = 1,
};
static const unsigned char max_j[NR_STEPS] = {
	[DROP_TASK] = 1, [DROP_EVENT] = 1, [DROP_GROUP] = 1,
	[HALVE_DURATION] = 1, [ONE_INSTANCE] = 1, [HALF_INSTANCES] = 1,
	[LESS_INSTANCES] = 1, [DROP_PHASE] = 4, [DROP_ATTR] = NR_ATTRS,
	[DROP_PHASE_CPUS] = 4, [FEWER_CPUS] = 3, [ROUND] = 1,
};

int hunt_reduce(struct hunt_case *out, const struct hunt_case *c, int k)
{
	struct hunt_case t;
	int step, i, j, seen = 0;

	for (step = 0; step < NR_STEPS; step++) {
		for (i = 0; i < max_i[step]; i++) {
			for (j = 0; j < max_j[step]; j++) {
				if (hunt_case_copy(&t, c))
					return -1;
				if (!apply(&t, step, i, j)) {
					hunt_case_release(&t);
					continue;
				}
				if (seen++ == k) {
					*out = t;
					return 1;
				}
				hunt_case_release(&t);
			}
		}
	}
	return 0;
}
