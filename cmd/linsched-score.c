// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched score - the scores of a trace: a simulation's own --trace, or a
 * real kernel's (tracefs, trace-cmd report), by the code that scores a
 * simulation (sim/score.c feeds metrics/ and power/; metrics/json.c writes
 * "metrics" and "invariants" as `linsched run --json` does).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "common/common.h"
#include "sim/sim.h"

static const char usage_score[] =
"usage: linsched score TRACE --topology T [--workload W] [--json FILE]\n"
"                      [--window D] [--starvation D] [-q]\n"
"\n"
"Score a trace in ftrace's text format or trace-cmd's trace.dat (a run's\n"
"--trace FILE.dat, or `trace-cmd record -e sched` on a real machine, read\n"
"through libtracecmd): balance, work conservation,\n"
"wakeup latency, migrations per level, fairness, energy and the\n"
"invariants, by the code that scores a simulation, and each workload\n"
"task's CPU time (from the switches). TRACE ('-': standard input) is a\n"
"simulation's --trace, whose scores are exactly its --json's, or a real\n"
"kernel's: tracefs's trace file, or `trace-cmd report` (-t for 9 decimals;\n"
"its sched plugin's lines or, with -N, ftrace's; the events\n"
"sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task;\n"
"cpu_idle and cpu_frequency for the energy; 6 or 9 decimals).\n"
"\n"
"  -t, --topology T   the machine the trace ran on: a preset, a PxCxT\n"
"                     shape or a JSON file (`linsched topology\n"
"                     --from-sysfs` captures this one)\n"
"  -w, --workload W   the workload that ran (an rt-app file or a spec):\n"
"                     its tasks' names pick the scored tasks of a real\n"
"                     trace, its \"cpus\" their CPUs, its task groups the\n"
"                     per-group CPU time\n"
"      --json FILE    write the scores as JSON ('-': standard output)\n"
"      --window D     the idle-while-waiting window (default: 2 ms per\n"
"                     CPU, a tick and two idle exits; 4ms after a fork)\n"
"      --starvation D the starvation bound (default 1s)\n"
"  -q, --quiet        print nothing but errors\n"
"  -h, --help         this text\n"
"\n"
"A real kernel's trace has none of the simulator's lsb_ lines: the\n"
"scored tasks are those whose comm is a task's name of W (\"hog\",\n"
"\"hog-3\"; rt-app names its threads after their task), or without W\n"
"every task but the idle tasks, kernel threads (swapper, migration/N,\n"
"ksoftirqd/N, kworker/*, rcu_*, cpuhp/N, idle_inject/N, irq/*,\n"
"kthreadd, ...), init, rt-app's main thread, trace-cmd and the shell\n"
"(bash, sh, sleep, cat, timeout); a task's class comes from its prio\n"
"(below 100 or -1: RT, weighing as nice 0), its weight from its nice\n"
"(prio - 120); its CPUs are W's \"cpus\" or all. Time runs from the first\n"
"to the last event of the scored tasks with W, else of the trace;\n"
"throughput is their CPU ""time per second (run work needs the simulator).\n"
"\n"
"Exit status: 0 done, 1 error, 2 usage or a malformed trace (its file and\n"
"line named).\n";

struct score_opts {
	const char *trace, *topology, *workload, *json;
	uint64_t window_ns, starvation_ns;
	int quiet;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("error: ", stderr);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n%s", usage_score);
	return 2;
}

static int parse(int argc, char **argv, struct score_opts *o)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "workload", required_argument, NULL, 'w' },
		{ "json", required_argument, NULL, 'J' },
		{ "window", required_argument, NULL, 'W' },
		{ "starvation", required_argument, NULL, 'X' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:w:qh", opts, NULL)) != -1) {
		switch (c) {
		case 't': o->topology = optarg; break;
		case 'w': o->workload = optarg; break;
		case 'J': o->json = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'W':
		case 'X':
			if (sim_parse_duration(c == 'W' ? &o->window_ns :
					       &o->starvation_ns, optarg)) {
				fprintf(stderr, "error: --%s '%s': "
					SIM_DURATION_EXPECTED "\n",
					c == 'W' ? "window" : "starvation",
					optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage_score, stdout);
			return 1;
		default:
			fprintf(stderr, "\n%s", usage_score);
			return 2;
		}
	}
	if (optind == argc)
		return usage_error("%s", "a trace is needed");
	o->trace = argv[optind++];
	if (optind != argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->topology)
		return usage_error("%s", "--topology is needed");
	return 0;
}

/* The per-group CPU time: the workload's groups, each of its tasks' */
static void groups_json(cJSON *root, const struct workload *wl,
			const struct sim_score *s)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "taskgroups");
	int g, i;

	for (g = 0; g <= wl->nr_groups; g++) {
		uint64_t ns = 0;
		cJSON *o;

		if (g && !strcmp(wl->groups[g - 1].path, "/"))
			continue;	/* the root: g == 0 */
		for (i = 0; i < s->nr_tasks; i++)
			if (s->tasks[i].group == g)
				ns += s->tasks[i].cpu_ns;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "path", g ? wl->groups[g - 1].path :
					"/");
		cJSON_AddNumberToObject(o, "cpu_ns", (double)ns);
		cJSON_AddItemToArray(arr, o);
	}
}

static cJSON *score_json(const struct score_opts *o,
			 const struct topology *topo,
			 const struct workload *wl, const struct sim_score *s)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	int i;

	cJSON_AddStringToObject(root, "trace", o->trace);
	cJSON_AddStringToObject(root, "trace_kind", s->ours ? "linsched" :
				"kernel");
	cJSON_AddStringToObject(root, "topology", topo->name);
	cJSON_AddStringToObject(root, "workload", wl ? wl->spec : "");
	cJSON_AddNumberToObject(root, "start_ns", (double)s->start_ns);
	cJSON_AddNumberToObject(root, "duration_ns", (double)s->duration_ns);
	cJSON_AddNumberToObject(root, "trace_gaps", s->gaps);
	if (s->gaps)
		cJSON_AddNumberToObject(root, "first_gap_ns",
					(double)s->first_gap_ns);
	metrics_json(root, &s->metrics, &s->run);
	metrics_invariants_json(root, &s->metrics, &s->run);
	arr = cJSON_AddArrayToObject(root, "tasks");
	for (i = 0; i < s->nr_tasks; i++) {
		cJSON *t = cJSON_CreateObject();

		cJSON_AddStringToObject(t, "name", s->tasks[i].name);
		cJSON_AddNumberToObject(t, "pid", s->tasks[i].pid);
		cJSON_AddNumberToObject(t, "cpu_ns", (double)s->tasks[i].cpu_ns);
		if (s->tasks[i].gaps)
			cJSON_AddNumberToObject(t, "trace_gaps", s->tasks[i].gaps);
		if (wl && wl->nr_groups)
			cJSON_AddStringToObject(t, "taskgroup", s->tasks[i].group ?
				wl->groups[s->tasks[i].group - 1].path : "/");
		cJSON_AddItemToArray(arr, t);
	}
	if (wl && wl->nr_groups)
		groups_json(root, wl, s);
	return root;
}

static int write_json(const char *path, cJSON *root)
{
	char *text;
	int ret = 0;

	if (strcmp(path, "-")) {
		if (lsb_write_json(path, root)) {
			fprintf(stderr, "error: cannot write --json '%s': %s\n",
				path, strerror(errno));
			return 1;
		}
		return 0;
	}
	text = lsb_json_print(root, 1);
	if (!text || printf("%s\n", text) < 0 || fflush(stdout)) {
		fprintf(stderr, "error: cannot write --json '-': %s\n",
			text ? strerror(errno) : "out of memory");
		clearerr(stdout);
		ret = 1;
	}
	free(text);
	return ret;
}

static void print_scores(const struct sim_score *s)
{
	const struct metrics_result *m = &s->metrics;
	int i;

	printf("%s trace, %.6f s scored from %.6f s\n",
	       s->ours ? "linsched" : "kernel", s->duration_ns / 1e9,
	       s->start_ns / 1e9);
	printf("balance score      %.6g\n", m->balance_score);
	printf("work conservation  %.6f\n", m->work_conservation);
	printf("wakeup latency     p50 %llu ns, p99 %llu ns, max %llu ns (%llu wakeups)\n",
	       (unsigned long long)m->wakeup_p50_ns,
	       (unsigned long long)m->wakeup_p99_ns,
	       (unsigned long long)m->wakeup_max_ns,
	       (unsigned long long)m->nr_wakeups);
	printf("migrations         ");
	for (i = 0; i < METRICS_NR_LEVELS; i++)
		printf("%s%s %llu", i ? ", " : "", metrics_level_names[i],
		       (unsigned long long)m->migrations[i]);
	printf("\nfairness           %.6f (%d tasks)\n", m->fairness, m->nr_fair);
	printf("energy             %.6f J\n", s->power.energy_j);
	printf("violations         idle-while-waiting %llu, starvation %llu, useless migrations %llu\n",
	       (unsigned long long)m->inv.idle_count,
	       (unsigned long long)m->inv.starved_count,
	       (unsigned long long)m->inv.useless_count);
	printf("\n%-16s %8s %14s %7s\n", "task", "pid", "cpu_ns", "cpu%");
	for (i = 0; i < s->nr_tasks; i++)
		printf("%-16s %8d %14llu %7.2f%s\n", s->tasks[i].name,
		       s->tasks[i].pid, (unsigned long long)s->tasks[i].cpu_ns,
		       s->duration_ns ? 100.0 * s->tasks[i].cpu_ns /
		       s->duration_ns : 0, s->tasks[i].gaps ? " *" : "");
}

static int score(const struct score_opts *o, const struct topology *topo,
		 const struct workload *wl)
{
	struct sim_score_opts so = { .topo = topo, .wl = wl,
				     .window_ns = o->window_ns,
				     .starvation_ns = o->starvation_ns };
	struct sim_score s;
	char err[1024];
	FILE *f;
	int ret;

	if (strcmp(o->trace, "-") && lsb_trace_is_dat(o->trace)) {
		f = lsb_trace_dat_text(o->trace, err, sizeof(err));
		if (!f) {
			fprintf(stderr, "error: %s\n", err);
			return 2;
		}
	} else {
		f = strcmp(o->trace, "-") ? fopen(o->trace, "r") : stdin;
	}
	if (!f) {
		fprintf(stderr, "error: trace '%s': %s\n", o->trace,
			strerror(errno));
		return errno == ENOENT ? 2 : 1;
	}
	ret = sim_score_trace(f, o->trace, &so, &s, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (ret) {
		fprintf(stderr, "error: %s\n", err);
		return ret == SIM_SCORE_BAD ? 2 : 1;
	}
	if (!o->quiet)
		print_scores(&s);
	if (s.gaps)
		fprintf(stderr, "warning: trace '%s': %d sched_switch events name a prev task other than the one the trace put on that CPU, the first at %llu.%06llu: events are missing from the trace; the CPU times of the tasks involved (\"trace_gaps\" in --json%s) are bounds\n",
			o->trace, s.gaps,
			(unsigned long long)(s.first_gap_ns / 1000000000),
			(unsigned long long)(s.first_gap_ns / 1000 % 1000000),
			o->quiet ? "" : ", * above");
	if (o->json) {
		cJSON *root = score_json(o, topo, wl, &s);

		ret = write_json(o->json, root);
		cJSON_Delete(root);
	}
	sim_score_release(&s);
	return ret;
}

int cmd_score(int argc, char **argv)
{
	static struct topology topo;
	struct score_opts o = { 0 };
	struct workload wl;
	char err[WORKLOAD_ERR_MAX];
	int ret = parse(argc, argv, &o);

	if (ret)
		return ret == 1 ? 0 : ret;
	{
		const struct lsb_path_arg args[] = {
			{ "--json", o.json, LSB_OUT_FILE },
			{ "TRACE", strcmp(o.trace, "-") ? o.trace : NULL, LSB_IN },
			{ "--topology", o.topology, LSB_IN },
			{ "--workload", o.workload, LSB_IN },
		};

		if (cmd_check_paths(args, sizeof(args) / sizeof(args[0])))
			return 2;
	}
	if (topology_from_spec(&topo, o.topology, err, sizeof(err)) ||
	    (o.workload && workload_parse(&wl, o.workload, err, sizeof(err)))) {
		fprintf(stderr, "error: %s\n", err);
		return 2;
	}
	ret = score(&o, &topo, o.workload ? &wl : NULL);
	if (o.workload)
		workload_release(&wl);
	return ret;
}
