// SPDX-License-Identifier: GPL-2.0-only
/*
 * catalogue.c - what each metric name of a result means: unit, direction,
 * the floor a report's percentages are taken against, and how a metric
 * written as an object (per domain level, per quantile) becomes the one
 * number a bisection, a report or a trend compares.
 *
 * Host side only (it reads results as cJSON); the simulator writes the
 * values (metrics.c, power/, sim/main.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "metrics/metrics.h"

/* The report's columns first, in the order its tables show them. */
static const struct metric_def catalogue[] = {
	{ "balance_score", "weight^2", 0, 1000, METRIC_NUMBER, NULL, 1,
	  "LinSched's score: squared distance of the CPUs' loads from a greedy placement", NULL },
	{ "work_conservation", "fraction", 0, 0.01, METRIC_NUMBER, NULL, 1,
	  "CPU time idle while a task allowed there waits elsewhere", NULL },
	{ "wakeup_latency_ns", "ns", 0, 10000, METRIC_KEY, "p99", 1,
	  "wake-up to running, p99 (.p50 .max .count too)", NULL },
	{ "fairness", "", 1, 0.01, METRIC_NUMBER, NULL, 1,
	  "Jain's index of fair tasks' weighted CPU time", NULL },
	{ "throughput", "CPUs", 1, 0.01, METRIC_NUMBER, NULL, 1,
	  "run work per second, in CPUs of capacity 1024 at their top OPP", NULL },
	{ "migrations_per_s", "1/s", 0, 1, METRIC_SUM, NULL, 1,
	  "task migrations per second, all domain levels (.SMT .MC .PKG .NUMA)", NULL },
	{ "energy_j", "J", 0, 0.01, METRIC_NUMBER, NULL, 1,
	  "energy of the CPUs over the run", NULL },
	{ "idle_entries_per_s", "1/s", 0, 1, METRIC_NUMBER, NULL, 1,
	  "idle-state entries per second", NULL },
	{ "runqueue_wait_ns", "ns", 0, 10000, METRIC_NUMBER, NULL, 0,
	  "time the tasks were runnable but not running, summed", NULL },
	{ "migrations", "", 0, 1, METRIC_SUM, NULL, 0,
	  "task migrations, all domain levels (.SMT .MC .PKG .NUMA)", NULL },
	{ "mean_power_w", "W", 0, 0.01, METRIC_NUMBER, NULL, 0,
	  "mean power of the CPUs", NULL },
	{ "idle_entries", "", 0, 1, METRIC_NUMBER, NULL, 0,
	  "idle-state entries", NULL },
	{ "violations", "", 0, 1, METRIC_NUMBER, NULL, 0,
	  "invariants violated: idle CPU beside a waiting task, starvation, useless migrations, WARNs (\"invariants\" has each)", NULL },
	{ "kernel_work", "calls", 0, 1000, METRIC_KEY, "calls", 0,
	  "kernel function entries over the run, in a build made with --instrument work (.max_irq_calls: the worst single interrupt)",
	  "work" },
};

#define NR_CATALOGUE (sizeof(catalogue) / sizeof(catalogue[0]))

const struct metric_def *metric_catalogue(size_t *n)
{
	*n = NR_CATALOGUE;
	return catalogue;
}

/* @name without a leading "metrics." or "power.": the results' roots. */
static const char *bare(const char *name)
{
	if (!strncmp(name, "metrics.", 8))
		return name + 8;
	if (!strncmp(name, "power.", 6))
		return name + 6;
	return name;
}

const struct metric_def *metric_find(const char *name)
{
	size_t i, len;

	if (!name)
		return NULL;
	name = bare(name);
	len = strcspn(name, ".");
	for (i = 0; i < NR_CATALOGUE; i++)
		if (strlen(catalogue[i].name) == len &&
		    !strncmp(catalogue[i].name, name, len))
			return &catalogue[i];
	return NULL;
}

int metric_higher_is_better(const char *name)
{
	const struct metric_def *m = metric_find(name);

	return m && m->higher_is_better;
}

double metric_floor(const char *name)
{
	const struct metric_def *m = metric_find(name);

	return m ? m->floor : 0;
}

char *metric_path(const char *name, char *buf, size_t len)
{
	const struct metric_def *m = metric_find(name);

	if (m && m->reduce == METRIC_KEY && !strcmp(m->name, bare(name)))
		snprintf(buf, len, "%s.%s", name, m->key);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

/* The element of array @node whose "name" or "path" is @key. */
static const cJSON *named_item(const cJSON *node, const char *key)
{
	static const char *const ids[] = { "name", "path" };
	const cJSON *e, *id;
	size_t k;

	cJSON_ArrayForEach(e, node)
		for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
			id = cJSON_GetObjectItemCaseSensitive(e, ids[k]);
			if (cJSON_IsString(id) && !strcmp(id->valuestring, key))
				return e;
		}
	return NULL;
}

/*
 * The node at dotted @path below @node; NULL if there is none. An array
 * is indexed by a number, or by the "name" or "path" of an element
 * (tasks.ui.sum_exec_ns, taskgroups./bg.throttled_ns).
 */
static const cJSON *at_path(const cJSON *node, const char *path)
{
	char buf[256], *part, *save, *end;
	long i;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return NULL;
	for (part = strtok_r(buf, ".", &save); part && node;
	     part = strtok_r(NULL, ".", &save)) {
		if (cJSON_IsArray(node)) {
			i = strtol(part, &end, 10);
			node = *part && !*end && i >= 0 ?
			       cJSON_GetArrayItem(node, (int)i) :
			       named_item(node, part);
		} else {
			node = cJSON_GetObjectItemCaseSensitive(node, part);
		}
	}
	return node;
}

/* A sum of an object's numbers; -1 when a member is not a number. */
static int sum_of(const cJSON *node, double *out)
{
	const cJSON *m;
	double sum = 0;

	if (!node->child)
		return -1;
	cJSON_ArrayForEach(m, node) {
		if (!cJSON_IsNumber(m))
			return -1;
		sum += m->valuedouble;
	}
	*out = sum;
	return 0;
}

int metric_value(const struct cJSON *result, const char *name, double *out)
{
	static const char *const roots[] = { "metrics", "power", NULL };
	const struct metric_def *m = metric_find(name);
	const cJSON *node;
	char path[256];
	size_t r;

	if (!result || !name || !*name)
		return -1;
	metric_path(name, path, sizeof(path));
	for (r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		node = roots[r] ? cJSON_GetObjectItemCaseSensitive(result,
								   roots[r]) :
				  result;
		node = node ? at_path(node, path) : NULL;
		if (cJSON_IsNumber(node)) {
			*out = node->valuedouble;
			return 0;
		}
		if (cJSON_IsObject(node) && m && m->reduce == METRIC_SUM &&
		    !strcmp(m->name, bare(name)) && !sum_of(node, out))
			return 0;
	}
	return -1;
}
