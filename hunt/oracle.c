// SPDX-License-Identifier: GPL-2.0-only
/*
 * oracle.c - the variants of a case that a correct scheduler must run
 * alike: the metamorphic relations of the hunt's oracles. Their verdict
 * is judge.c's (hunt_oracle()).
 *
 * "weights": every task group's cpu.weight times a factor. The kernel
 * turns a weight into shares as weight * 1024 / 100, rounded
 * (sched_weight_from_cgroup()), so a doubled weight's shares are twice
 * the weight's within one unit (weight 2: 20, weight 4: 41; 2.5 % at
 * most), far inside the tolerance. scale_load() scales alike; the
 * MIN_SHARES floor of a group entity's weight (2, against the 10240 of a
 * weight of 1, scaled) binds only on a CPU with a sliver of the group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hunt/hunt_internal.h"
#include "topologies/topologies.h"

#define WEIGHT_MIN 1
#define WEIGHT_MAX 10000
#define WEIGHT_DEFAULT 100

/* a group directly below the root: "/name" */
static int top_group(const char *path)
{
	return path && path[0] == '/' && path[1] && !strchr(path + 1, '/');
}

/*
 * Whether @o (a task or a phase) keeps its task in a group below the
 * root: @own, a task's own key, must name one; a phase may name none.
 */
static int in_group(const cJSON *o, int own)
{
	const cJSON *g = cJSON_GetObjectItem(o, "taskgroup"), *ph;

	if (g ? !top_group(cJSON_GetStringValue(g)) : own)
		return 0;
	cJSON_ArrayForEach(ph, cJSON_GetObjectItem(o, "phases")) {
		if (!in_group(ph, 0))
			return 0;
	}
	return 1;
}

/*
 * The control files of a group's write @w times @factor: 0 when one of
 * them does not scale (an idle group, another weight's file, a weight
 * outside the range then).
 */
static int scale(cJSON *w, int factor)
{
	cJSON *f, *idle;
	double x;
	char *end;

	idle = cJSON_GetObjectItem(w, "cpu.idle");
	if (idle && (cJSON_IsNumber(idle) ? idle->valuedouble != 0 :
		     !cJSON_IsString(idle) || strtol(idle->valuestring, NULL, 10)))
		return 0;
	if (cJSON_GetObjectItem(w, "cpu.weight.nice") ||
	    cJSON_GetObjectItem(w, "cpu.shares"))
		return 0;
	f = cJSON_GetObjectItem(w, "cpu.weight");
	if (!f)
		return 1;
	if (cJSON_IsNumber(f)) {
		x = f->valuedouble;
	} else if (cJSON_IsString(f)) {
		x = strtod(f->valuestring, &end);
		if (end == f->valuestring || *end)
			return 0;
	} else {
		return 0;
	}
	if (x != (long)x || x < WEIGHT_MIN || x * factor > WEIGHT_MAX)
		return 0;
	cJSON_ReplaceItemInObjectCaseSensitive(w, "cpu.weight",
					       cJSON_CreateNumber(x * factor));
	return 1;
}

/* @path's entry in @groups, made with the default weight when missing */
static cJSON *group_of(cJSON *groups, const char *path)
{
	cJSON *g = cJSON_GetObjectItem(groups, path);

	if (g)
		return g;
	return cJSON_AddObjectToObject(groups, path);
}

static int weights_variant(struct hunt_case *out, const struct hunt_case *c,
			   int factor)
{
	cJSON *root, *groups, *g, *t, *ph, *e;
	const char *p;

	if (factor < 1)
		return 0;
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(c->workload, "tasks")) {
		if (!in_group(t, 1))
			return 0;
	}
	if (hunt_case_copy(out, c))
		return -1;
	root = out->workload;
	groups = cJSON_GetObjectItem(root, "lsb-taskgroups");
	if (!groups && !(groups = cJSON_AddObjectToObject(root, "lsb-taskgroups")))
		goto nomem;
	/* every group the tasks join is in the list, to write its weight */
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(root, "tasks")) {
		p = cJSON_GetStringValue(cJSON_GetObjectItem(t, "taskgroup"));
		if (!group_of(groups, p))
			goto nomem;
		cJSON_ArrayForEach(ph, cJSON_GetObjectItem(t, "phases")) {
			p = cJSON_GetStringValue(cJSON_GetObjectItem(ph, "taskgroup"));
			if (p && !group_of(groups, p))
				goto nomem;
		}
	}
	cJSON_ArrayForEach(g, groups) {
		if (!top_group(g->string) || !cJSON_IsObject(g) || !scale(g, factor))
			goto no;
		if (!cJSON_GetObjectItem(g, "cpu.weight") &&
		    !cJSON_AddNumberToObject(g, "cpu.weight",
					     WEIGHT_DEFAULT * factor))
			goto nomem;
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "lsb-events")) {
		p = cJSON_GetStringValue(cJSON_GetObjectItem(e, "taskgroup"));
		if (p && (!top_group(p) || !scale(e, factor)))
			goto no;
	}
	return 1;
no:
	hunt_case_release(out);
	return 0;
nomem:
	hunt_case_release(out);
	return -1;
}

/* whether a key @key is anywhere below @o */
static int has_key(const cJSON *o, const char *key)
{
	const cJSON *x;

	cJSON_ArrayForEach(x, o) {
		if ((x->string && !strcmp(x->string, key)) || has_key(x, key))
			return 1;
	}
	return 0;
}

/*
 * "order": the task definitions in the reverse order. rt-app creates the
 * tasks in the order of the file: their pids, the order of their forks
 * and the CPUs they are placed on change, not what they ask for. Not
 * with random lengths ({"distribution": ...}): the simulator draws a
 * task's from a stream seeded by its index, which the order changes.
 */
static int order_variant(struct hunt_case *out, const struct hunt_case *c)
{
	const cJSON *tasks0 = cJSON_GetObjectItem(c->workload, "tasks");
	cJSON *tasks, *t, *rest;

	if (cJSON_GetArraySize(tasks0) < 2 || has_key(tasks0, "distribution"))
		return 0;
	if (hunt_case_copy(out, c))
		return -1;
	tasks = cJSON_GetObjectItem(out->workload, "tasks");
	rest = cJSON_CreateObject();
	if (!rest)
		goto nomem;
	/* the first of what is left goes in front of what is moved */
	while ((t = tasks->child)) {
		cJSON_DetachItemViaPointer(tasks, t);
		if (!cJSON_AddItemToObject(rest, t->string, t)) {
			cJSON_Delete(t);
			goto nomem;
		}
		if (rest->child != t) {	/* appended: move it to the front */
			cJSON_DetachItemViaPointer(rest, t);
			t->next = rest->child;
			t->prev = rest->child->prev;
			rest->child->prev = t;
			rest->child = t;
		}
	}
	cJSON_ReplaceItemInObjectCaseSensitive(out->workload, "tasks", rest);
	return 1;
nomem:
	cJSON_Delete(rest);
	hunt_case_release(out);
	return -1;
}

/*
 * "grow" and "renumber": a shape PxCxT's CPUs numbered anew, as
 * Px(C+1)xT (@grow) or on the same shape with its packages and its
 * cores numbered backwards (threads keep their rank)
 */
struct renum {
	int from[3], nr_cpus, grow;
};

static int renumbered(const struct renum *g, int cpu)
{
	int per_thread = g->from[0] * g->from[1], cores = g->from[1] + g->grow;
	int th = cpu / per_thread, core = cpu % per_thread;
	int p = core / g->from[1], c = core % g->from[1];

	if (!g->grow) {
		p = g->from[0] - 1 - p;
		c = g->from[1] - 1 - c;
	}
	/* topology_build_shape()'s numbering: siblings apart, packages' cores in a row */
	return th * g->from[0] * cores + p * cores + c;
}

/* a CPU number of the case renumbered; 0 when it is none of the machine's */
static int renum_cpu(const struct renum *g, cJSON *x)
{
	double v = cJSON_GetNumberValue(x);

	if (!cJSON_IsNumber(x) || v != (int)v || v < 0 || v >= g->nr_cpus)
		return 0;
	cJSON_SetNumberValue(x, renumbered(g, (int)v));
	return 1;
}

/* a cpuset's list renumbered ("0-2" on 1x3x2 is "0-2" on 1x4x2: "0,1,2") */
static int renum_list(const struct renum *g, cJSON *x)
{
	char set[TOPOLOGY_MAX_CPUS], text[TOPOLOGY_MAX_CPUS * 6] = "";
	char moved[TOPOLOGY_MAX_CPUS] = { 0 };
	size_t o = 0;
	int count, i;

	if (!cJSON_IsString(x) ||
	    topology_cpulist(x->valuestring, g->nr_cpus, set, &count))
		return 0;
	for (i = 0; i < g->nr_cpus; i++)
		if (set[i])
			moved[renumbered(g, i)] = 1;
	for (i = 0; i < TOPOLOGY_MAX_CPUS; i++)
		if (moved[i])
			o += (size_t)snprintf(text + o, sizeof(text) - o, "%s%d",
					      o ? "," : "", i);
	return cJSON_SetValuestring(x, text) != NULL;
}

/* every CPU number below @o renumbered: 0 when one is not a CPU's */
static int renum_all(const struct renum *g, cJSON *o)
{
	cJSON *x, *k;

	cJSON_ArrayForEach(x, o) {
		const char *key = x->string ? x->string : "";

		if (!strcmp(key, "cpus")) {
			if (!cJSON_IsArray(x))
				return 0;
			cJSON_ArrayForEach(k, x) {
				if (!renum_cpu(g, k))
					return 0;
			}
		} else if (!strcmp(key, "cpu")) {
			if (!renum_cpu(g, x))
				return 0;
		} else if (!strcmp(key, "cpuset.cpus")) {
			if (!renum_list(g, x))
				return 0;
		} else if ((cJSON_IsObject(x) || cJSON_IsArray(x)) &&
			   !renum_all(g, x)) {
			return 0;
		}
	}
	return 1;
}

static int renum_variant(struct hunt_case *out, const struct hunt_case *c,
			 int grow)
{
	struct renum g = { .grow = grow };
	char end;

	if (sscanf(c->topology, "%dx%dx%d%c", &g.from[0], &g.from[1],
		   &g.from[2], &end) != 3 || g.from[0] < 1 || g.from[1] < 1 ||
	    g.from[2] < 1 ||
	    g.from[0] * (g.from[1] + grow) * g.from[2] > TOPOLOGY_MAX_CPUS)
		return 0;
	/* one package of one core: renumbering moves nothing */
	if (!grow && g.from[0] * g.from[1] == 1)
		return 0;
	g.nr_cpus = g.from[0] * g.from[1] * g.from[2];
	if (hunt_case_copy(out, c))
		return -1;
	if (!renum_all(&g, out->workload)) {
		hunt_case_release(out);
		return 0;
	}
	snprintf(out->topology, sizeof(out->topology), "%dx%dx%d", g.from[0],
		 g.from[1] + grow, g.from[2]);
	out->nr_cpus = g.from[0] * (g.from[1] + grow) * g.from[2];
	return 1;
}

/*
 * Each oracle's name, how its variant differs ("the work ... %s") and
 * what a correct scheduler does with it.
 */
static const struct {
	const char *name, *with, *relation;
} oracles[HUNT_NR_ORACLES] = {
	[HUNT_ORACLE_NONE] = { "", "", "" },
	[HUNT_ORACLE_WEIGHTS] = { "weights", "with every group's weight doubled",
				  "each task's work should be the case's" },
	[HUNT_ORACLE_ORDER] = { "order", "with the tasks in the reverse order",
				"the tasks' work together should be the case's" },
	[HUNT_ORACLE_GROW] = { "grow", "with one more core in each package",
			       "the tasks' work together should not be less than the case's" },
	[HUNT_ORACLE_RENUMBER] = { "renumber", "with the packages and cores numbered backwards",
				   "the tasks' work together should be the case's" },
};

const char *hunt_oracle_name(int kind)
{
	return kind >= 0 && kind < HUNT_NR_ORACLES ? oracles[kind].name : NULL;
}

const char *hunt_oracle_with(int kind)
{
	return kind > 0 && kind < HUNT_NR_ORACLES ? oracles[kind].with : "";
}

const char *hunt_oracle_relation(int kind)
{
	return kind > 0 && kind < HUNT_NR_ORACLES ? oracles[kind].relation : "";
}

int hunt_oracle_parse(const char *name)
{
	int k;

	for (k = HUNT_ORACLE_WEIGHTS; k < HUNT_NR_ORACLES; k++)
		if (!strcmp(name, oracles[k].name))
			return k;
	return -1;
}

int hunt_variant(struct hunt_case *out, const struct hunt_case *c, int kind)
{
	switch (kind) {
	case HUNT_ORACLE_WEIGHTS:
		return weights_variant(out, c, HUNT_WEIGHTS_FACTOR);
	case HUNT_ORACLE_ORDER:
		return order_variant(out, c);
	case HUNT_ORACLE_GROW:
		return renum_variant(out, c, 1);
	case HUNT_ORACLE_RENUMBER:
		return renum_variant(out, c, 0);
	default:
		return 0;
	}
}
