// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - the "metrics" and "invariants" objects of a result, written
 * the same way for a simulation (sim/main.c) and for a trace scored
 * afterwards (linsched score): one writer, so that the two are byte for
 * byte the same when they saw the same events.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "metrics/metrics.h"

/* The invariants violated, all told (the metric "violations"). */
static double violations(const struct metrics_result *mr,
			 const struct metrics_json_run *run)
{
	const struct metrics_invariants *inv = &mr->inv;

	return (double)(inv->idle_count + inv->starved_count +
			inv->useless_count + run->kernel_warnings);
}

void metrics_json(struct cJSON *root, const struct metrics_result *mr,
		  const struct metrics_json_run *run)
{
	cJSON *o = cJSON_AddObjectToObject(root, "metrics"), *sub;
	int l;

	cJSON_AddNumberToObject(o, "balance_score", mr->balance_score);
	cJSON_AddNumberToObject(o, "work_conservation", mr->work_conservation);
	sub = cJSON_AddObjectToObject(o, "wakeup_latency_ns");
	cJSON_AddNumberToObject(sub, "p50", (double)mr->wakeup_p50_ns);
	cJSON_AddNumberToObject(sub, "p99", (double)mr->wakeup_p99_ns);
	cJSON_AddNumberToObject(sub, "max", (double)mr->wakeup_max_ns);
	cJSON_AddNumberToObject(sub, "count", (double)mr->nr_wakeups);
	cJSON_AddNumberToObject(o, "runqueue_wait_ns",
				(double)mr->runqueue_wait_ns);
	sub = cJSON_AddObjectToObject(o, "migrations_per_s");
	for (l = 0; l < METRICS_NR_LEVELS; l++)
		cJSON_AddNumberToObject(sub, metrics_level_names[l],
					mr->migrations_per_s[l]);
	sub = cJSON_AddObjectToObject(o, "migrations");
	for (l = 0; l < METRICS_NR_LEVELS; l++)
		cJSON_AddNumberToObject(sub, metrics_level_names[l],
					(double)mr->migrations[l]);
	cJSON_AddNumberToObject(o, "fairness", mr->fairness);
	cJSON_AddNumberToObject(o, "fairness_tasks", mr->nr_fair);
	cJSON_AddNumberToObject(o, "violations", violations(mr, run));
	cJSON_AddNumberToObject(o, "energy_j", run->energy_j);
	cJSON_AddNumberToObject(o, "mean_power_w", run->mean_power_w);
	/* run work done, in CPUs of capacity 1024 at their highest OPP */
	cJSON_AddNumberToObject(o, "throughput", run->duration_ns ?
				run->work_ns / (double)run->duration_ns : 0);
}

static void violation_json(cJSON *o, const char *key,
			   const struct metrics_violation *v,
			   const struct metrics_json_run *run,
			   const char *cpu, const char *cpu2)
{
	const char *name = NULL;
	cJSON *f;

	if (!v->seen)
		return;
	f = cJSON_AddObjectToObject(o, key);
	cJSON_AddNumberToObject(f, "time_ns", (double)v->time_ns);
	if (v->length_ns)
		cJSON_AddNumberToObject(f, "length_ns", (double)v->length_ns);
	cJSON_AddNumberToObject(f, cpu, v->cpu);
	if (cpu2)
		cJSON_AddNumberToObject(f, cpu2, v->cpu2);
	if (run->task_name && v->pid > 0)
		name = run->task_name(run->ctx, v->pid);
	cJSON_AddStringToObject(f, "task", name ? name : "");
	cJSON_AddNumberToObject(f, "pid", run->task_pid ?
				run->task_pid(run->ctx, v->pid) : v->pid);
}

void metrics_invariants_json(struct cJSON *root,
			     const struct metrics_result *mr,
			     const struct metrics_json_run *run)
{
	const struct metrics_invariants *inv = &mr->inv;
	cJSON *o = cJSON_AddObjectToObject(root, "invariants"), *s;

	cJSON_AddNumberToObject(o, "violations", violations(mr, run));
	s = cJSON_AddObjectToObject(o, "idle_while_waiting");
	cJSON_AddNumberToObject(s, "window_ns", (double)inv->window_ns);
	cJSON_AddNumberToObject(s, "fork_window_ns",
				(double)inv->fork_window_ns);
	cJSON_AddNumberToObject(s, "refused_window_ns",
				(double)inv->refused_ns);
	cJSON_AddNumberToObject(s, "count", (double)inv->idle_count);
	cJSON_AddNumberToObject(s, "time_ns", (double)inv->idle_ns);
	violation_json(s, "first", &inv->idle_first, run, "idle_cpu",
		       "task_cpu");
	s = cJSON_AddObjectToObject(o, "starvation");
	cJSON_AddNumberToObject(s, "bound_ns", (double)inv->bound_ns);
	cJSON_AddNumberToObject(s, "count", (double)inv->starved_count);
	cJSON_AddNumberToObject(s, "max_ns", (double)inv->starved_max_ns);
	violation_json(s, "first", &inv->starved_first, run, "cpu", NULL);
	s = cJSON_AddObjectToObject(o, "useless_migrations");
	cJSON_AddNumberToObject(s, "count", (double)inv->useless_count);
	violation_json(s, "first", &inv->useless_first, run, "from_cpu",
		       "to_cpu");
	cJSON_AddNumberToObject(o, "kernel_warnings",
				(double)run->kernel_warnings);
}
