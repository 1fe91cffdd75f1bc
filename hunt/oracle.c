// SPDX-License-Identifier: GPL-2.0-only
/*
 * oracle.c - the variants of a case that a correct scheduler must run
 * alike: the metamorphic relations of the hunt's oracles. Its verdict is
 * judge.c's (hunt_oracle_weights()).
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

int hunt_weights_variant(struct hunt_case *out, const struct hunt_case *c,
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
