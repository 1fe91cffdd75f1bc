// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched sweep - run a list of units (revisions x workloads x topologies
 * x seeds) on the local machine or a Slurm cluster, into the result cache;
 * and sweep-worker, what a Slurm array task runs.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bisect/bisect.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "suite/suite.h"
#include "topologies/topologies.h"

static const char usage_sweep[] =
"usage: linsched sweep REV|GOOD..BAD... [--suite NAME] [--workload W...]\n"
"                      --topology T... [options]\n"
"\n"
"Run every unit of: the revisions (a range GOOD..BAD stands for GOOD and\n"
"the first commit of each build class of the range, as trend and lsbisect\n"
"run it) x the workloads (suite patterns and --workload specs or files) x\n"
"the topologies x seeds 1..N, into the result cache that report, trend and\n"
"lsbisect read. Units already in the cache are not run again. Writes\n"
"results.jsonl (one unit a line, in order: revision, commit, topology,\n"
"workload, seed, status, reason, and the simulator's result) and\n"
"sweep.json (counts, time, engine) in the output directory.\n"
"\n"
"  -s, --suite NAME    full, quick (two of each family) or a family\n"
"  -m, --match GLOB    only suite patterns matching GLOB (repeatable;\n"
"                      implies --suite full when --suite is not given)\n"
"  -w, --workload W    a workload spec or rt-app file (repeatable)\n"
"  -t, --topology T    a machine (repeatable; at least one)\n"
"  -n, --seeds N       seeds 1..N (default 1)\n"
"  -d, --duration D    simulated time per run (default 10s)\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -o, --out DIR       output directory (default: DATA/sweep)\n"
"  -j, --jobs N        local simulations at a time, and build jobs\n"
"                      (default: the number of CPUs)\n"
ENGINE_USAGE
"      --timeout S     wall-clock limit of a simulation (default 600)\n"
"  -q, --quiet         no progress line (shown on a terminal only)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Every revision is built once, here, before any unit runs (with Slurm the\n"
"build directory must be visible to the nodes, as the cache is). A kernel\n"
"crash or hang is a unit's result, and so is a revision that does not\n"
"build: its units say so.\n"
"\n"
"Exit status: 0 every unit has its result, 1 error (no Slurm controller,\n"
"nodes that cannot write the cache, ...), 2 usage, 4 some units failed\n"
"(the first one's error is printed).\n";

static const char usage_worker[] =
"usage: linsched sweep-worker [--probe] DIR TASK\n"
"\n"
"Internal: what one Slurm array task of 'linsched sweep --engine slurm'\n"
"(or report, trend, lsbisect with --engine slurm) runs. Reads the sweep\n"
"directory DIR (units.json) and runs units TASK, TASK + tasks, ... into the\n"
"cache, then writes DIR/task-TASK.done. With --probe it only checks that\n"
"this node can read DIR and write the cache, and writes DIR/probe.ok.\n";

#define MAX_SPECS 64
#define MAX_MATCH 32

static int tty;

/* The revisions to run: a range's GOOD and classes, or one revision. */
struct rev {
	char name[256];
	struct driver_target t;
};

static int add_rev(struct rev **revs, size_t *n, size_t *cap, const char *name)
{
	if (LSB_GROW(*revs, *n + 1, *cap))
		return -1;
	memset(&(*revs)[*n], 0, sizeof(**revs));
	snprintf((*revs)[(*n)++].name, sizeof((*revs)->name), "%s", name);
	return 0;
}

/* The revisions of @args, ranges expanded: 0, -1 (error) or -2 (usage). */
static int expand(const char *repo, char **args, int nargs, struct rev **revs,
		  size_t *n)
{
	size_t cap = 0, i;
	int a;

	for (a = 0; a < nargs; a++) {
		const char *dots = strstr(args[a], "..");
		struct bisect_classes *cls = NULL;
		bisect_repo *r = NULL;
		char good[256], bad[256];

		if (!dots) {
			if (add_rev(revs, n, &cap, args[a]))
				return -1;
			continue;
		}
		if (cmd_split_range(args[a], good, bad, sizeof(good)))
			return -2;	/* usage */
		if (bisect_repo_open(&r, repo) ||
		    bisect_classes_new(&cls, r, good, bad, 0)) {
			fprintf(stderr, "error: '%s': %s\n", args[a],
				bisect_last_error());
			bisect_repo_free(r);
			return -1;
		}
		if (add_rev(revs, n, &cap, cls->good))
			return -1;
		for (i = 0; i < cls->nr_classes; i++)
			if (add_rev(revs, n, &cap,
				    cls->commits[cls->classes[i].first]))
				return -1;
		bisect_classes_free(cls);
		bisect_repo_free(r);
	}
	return 0;
}

/* One line of results.jsonl. */
static void write_line(FILE *f, const struct rev *rv, const char *topo,
		       const char *wl, unsigned long long seed,
		       const struct driver_result *r)
{
	cJSON *o = cJSON_CreateObject();
	char *text;
	size_t len;

	cJSON_AddStringToObject(o, "revision", rv->name);
	cJSON_AddStringToObject(o, "commit", r->commit);
	cJSON_AddStringToObject(o, "topology", topo);
	cJSON_AddStringToObject(o, "workload", wl);
	cJSON_AddNumberToObject(o, "seed", (double)seed);
	cJSON_AddStringToObject(o, "status", driver_status_name(r->status));
	cJSON_AddStringToObject(o, "reason", r->reason);
	text = lsb_json_print(o, 0);
	cJSON_Delete(o);
	if (!text)
		return;
	len = strlen(text);
	if (r->json)
		fprintf(f, "%.*s,\"result\":%s}\n", (int)len - 1, text, r->json);
	else
		fprintf(f, "%s\n", text);
	free(text);
}

/* What the command line asks, and what the sweep makes of it. */
struct sweep {
	const char *topos[MAX_SPECS], *specs[MAX_SPECS], *globs[MAX_MATCH];
	const char *suite, *duration, *repo, *out;
	int nt, nw, nglobs, seeds, timeout, quiet, verbose;
	int *patterns, np, cpus[MAX_SPECS];
	struct driver_engine engine;
	struct driver_paths paths;
	char dir[4200];
	struct rev *revs;
	size_t nrev;
	char (*wl)[4400];	/* per topology, then per workload */
	const char **wl_name;
	struct driver_unit *units;
	size_t n, cached, counts[8];	/* counts[7]: failed units */
};

static int add_spec(const char **list, int *n, int max, const char *arg,
		    const char *opt)
{
	if (*n == max) {
		fprintf(stderr, "error: at most %d %s options\n", max, opt);
		return -1;
	}
	list[(*n)++] = arg;
	return 0;
}

/* One option into @w: 0, or -1 after printing the error. */
static int sweep_option(struct sweep *w, int c, const char *arg)
{
	switch (c) {
	case 's': w->suite = arg; return 0;
	case 'm': return add_spec(w->globs, &w->nglobs, MAX_MATCH, arg, "--match");
	case 'w': return add_spec(w->specs, &w->nw, MAX_SPECS, arg, "--workload");
	case 't':
		return add_spec(w->topos, &w->nt, MAX_SPECS, arg, "--topology") ||
		       cmd_topology_arg(&w->topos[w->nt - 1]) ? -1 : 0;
	case 'n': return opt_int("--seeds", arg, 1, 64, &w->seeds);
	case 'd': w->duration = arg; return 0;
	case 'r': w->repo = arg; return 0;
	case 'o': w->out = arg; return 0;
	case 'O': return opt_int("--timeout", arg, 0, 1000000, &w->timeout);
	case 'q': w->quiet = 1; return 0;
	case 'v': w->verbose = 1; return 0;
	default:
		c = engine_option(&w->engine, c, arg);
		if (c > 0)
			fputs(usage_sweep, stderr);
		return c ? -1 : 0;
	}
}

/* The command line and the specs checked: -1 to go on, else the status. */
static int parse_sweep(struct sweep *w, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "match", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "topology", required_argument, NULL, 't' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "repo", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		ENGINE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *hog = "hog";	/* the topology and duration alone */
	int c, i, t;

	w->duration = "10s";
	w->seeds = 1;
	w->timeout = 600;
	engine_defaults(&w->engine);
	while ((c = getopt_long(argc, argv, "s:m:w:t:n:d:r:o:j:qvh", opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_sweep, stdout);
			return 0;
		}
		if (sweep_option(w, c, optarg))
			return 2;
	}
	if (optind == argc || !w->nt) {
		fprintf(stderr, "error: %s\n", optind == argc ?
			"linsched sweep takes revisions or ranges" :
			"at least one --topology is required");
		fputs(usage_sweep, stderr);
		return 2;
	}
	if (!w->suite && (w->nglobs || !w->nw))
		w->suite = "full";
	if (w->suite &&
	    (c = suite_select(w->suite, w->globs, w->nglobs, &w->patterns,
			      &w->np)))
		return c;
	for (t = 0; t < w->nt; t++) {
		static struct topology topo;
		char err[512];

		if (topology_from_spec(&topo, w->topos[t], err, sizeof(err))) {
			fprintf(stderr, "error: %s\n", err);
			return 2;
		}
		w->cpus[t] = topo.nr_cpus;
	}
	for (i = 0; i < (w->nw ? w->nw : 1); i++)
		if (driver_check_specs(w->nw ? &w->specs[i] : &hog, w->topos[0],
				       w->duration, NULL)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 2;
		}
	return cmd_check_out_dir("--out", w->out) ? 2 : -1;
}

/* The workloads, per topology: suite files for its CPU count. */
static int sweep_workloads(struct sweep *w)
{
	int t, i, nwl = w->np + w->nw;

	w->wl = calloc((size_t)w->nt * nwl + 1, sizeof(*w->wl));
	w->wl_name = calloc((size_t)w->nt * nwl + 1, sizeof(*w->wl_name));
	if (!w->wl || !w->wl_name) {
		fprintf(stderr, "error: out of memory\n");
		return -1;
	}
	for (t = 0; t < w->nt; t++) {
		char sub[4300];

		lsb_pathf(sub, sizeof(sub), "%s/workloads/%dcpus", w->dir,
			  w->cpus[t]);
		if (w->np && suite_files(sub, w->patterns, w->np, w->cpus[t]))
			return -1;
		for (i = 0; i < w->np; i++) {
			const char *name = suite_pattern_name(w->patterns[i]);

			lsb_pathf(w->wl[t * nwl + i], sizeof(*w->wl),
				  "%s/%s.json", sub, name);
			w->wl_name[t * nwl + i] = name;
		}
		for (i = 0; i < w->nw; i++) {
			snprintf(w->wl[t * nwl + w->np + i], sizeof(*w->wl),
				 "%s", w->specs[i]);
			w->wl_name[t * nwl + w->np + i] = w->specs[i];
		}
	}
	return 0;
}

/* Every revision built here, once; then the units, in output order. */
static int sweep_units(struct sweep *w)
{
	int t, i, s, nwl = w->np + w->nw;
	size_t k, u = 0;

	for (k = 0; k < w->nrev; k++) {
		if (tty)
			fprintf(stderr, "\rsweep: preparing %s (%zu of %zu)...\033[K",
				w->revs[k].name, k + 1, w->nrev);
		if (driver_target_prepare(&w->revs[k].t, &w->paths, w->repo,
					  w->revs[k].name, w->engine.jobs,
					  w->verbose)) {
			if (tty)
				fputc('\n', stderr);
			fprintf(stderr, "error: %s\n", driver_last_error());
			return -1;
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);
	w->n = w->nrev * w->nt * nwl * w->seeds;
	w->units = calloc(w->n ? w->n : 1, sizeof(*w->units));
	if (!w->units) {
		fprintf(stderr, "error: out of memory\n");
		return -1;
	}
	for (k = 0; k < w->nrev; k++)
		for (t = 0; t < w->nt; t++)
			for (i = 0; i < nwl; i++)
				for (s = 0; s < w->seeds; s++, u++) {
					struct driver_run_spec *sp = &w->units[u].spec;

					w->units[u].target = &w->revs[k].t;
					sp->workload = w->wl[t * nwl + i];
					sp->topology = w->topos[t];
					sp->duration = w->duration;
					sp->seed = s + 1;
					sp->metrics = 1;
					sp->timeout_s = w->timeout;
				}
	return 0;
}

/* results.jsonl, one unit a line in the units' order. */
static int write_results(struct sweep *w)
{
	int t, i, s, nwl = w->np + w->nw;
	char path[4300];
	size_t k, u = 0;
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/results.jsonl", w->dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	for (k = 0; k < w->nrev; k++)
		for (t = 0; t < w->nt; t++)
			for (i = 0; i < nwl; i++)
				for (s = 0; s < w->seeds; s++, u++) {
					struct driver_unit *un = &w->units[u];
					struct driver_result r;

					if (un->state == DRIVER_UNIT_FAILED ||
					    driver_target_result(&r, &w->paths,
								 un->target, &un->spec,
								 DRIVER_RESULT_LOOKUP)) {
						w->counts[7]++;
						continue;
					}
					w->counts[r.status < 7 ? r.status : 1]++;
					write_line(f, &w->revs[k], w->topos[t],
						   w->wl_name[t * nwl + i],
						   un->spec.seed, &r);
					driver_result_release(&r);
				}
	if (fclose(f)) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		return -1;
	}
	return 0;
}

/* sweep.json, then the summary on stdout. */
static int write_summary(const struct sweep *w, double wall)
{
	const size_t *counts = w->counts;
	cJSON *o = cJSON_CreateObject();
	char path[4300];
	int ret = 0, nwl = w->np + w->nw;

	cJSON_AddNumberToObject(o, "units", (double)w->n);
	cJSON_AddNumberToObject(o, "cached", (double)w->cached);
	cJSON_AddNumberToObject(o, "ran", (double)(w->n - w->cached - counts[7]));
	cJSON_AddNumberToObject(o, "failed", (double)counts[7]);
	cJSON_AddNumberToObject(o, "ok", (double)counts[DRIVER_OK]);
	cJSON_AddNumberToObject(o, "build_failed",
				(double)counts[DRIVER_BUILD_FAILED]);
	cJSON_AddNumberToObject(o, "crashed", (double)counts[DRIVER_CRASHED]);
	cJSON_AddNumberToObject(o, "hung", (double)counts[DRIVER_HUNG]);
	cJSON_AddStringToObject(o, "engine", w->engine.slurm ? "slurm" : "local");
	cJSON_AddNumberToObject(o, "resubmitted", w->engine.resubmitted);
	cJSON_AddNumberToObject(o, "wall_s", wall);
	lsb_pathf(path, sizeof(path), "%s/sweep.json", w->dir);
	if (lsb_write_json(path, o)) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		ret = -1;
	}
	cJSON_Delete(o);
	printf("sweep: %zu units (%zu revision%s x %d workload%s x %d topolog%s x %d seed%s), %zu from the cache, %zu ran, %zu failed, %.1f s (%s)\n",
	       w->n, w->nrev, w->nrev == 1 ? "" : "s", nwl, nwl == 1 ? "" : "s",
	       w->nt, w->nt == 1 ? "y" : "ies", w->seeds,
	       w->seeds == 1 ? "" : "s", w->cached,
	       w->n - w->cached - counts[7], counts[7], wall,
	       w->engine.slurm ? "slurm" : "local");
	printf("results: ok %zu, build failed %zu, crashed %zu, hung %zu\n",
	       counts[DRIVER_OK], counts[DRIVER_BUILD_FAILED],
	       counts[DRIVER_CRASHED], counts[DRIVER_HUNG]);
	if (w->engine.resubmitted)
		printf("slurm: %d array task%s submitted again (failed or vanished)\n",
		       w->engine.resubmitted,
		       w->engine.resubmitted == 1 ? "" : "s");
	printf("%s/results.jsonl\n%s/sweep.json\n", w->dir, w->dir);
	return ret;
}

int cmd_sweep(int argc, char **argv)
{
	static struct sweep w;
	struct units_progress prog = { .what = "sweep" };
	double t0 = lsb_now();
	size_t k;
	int ret;

	ret = parse_sweep(&w, argc, argv);
	if (ret >= 0)
		goto out;
	ret = 1;
	if (driver_paths_init(&w.paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	if (!w.repo)
		w.repo = w.paths.repo;
	if (w.out)
		snprintf(w.dir, sizeof(w.dir), "%s", w.out);
	else
		lsb_pathf(w.dir, sizeof(w.dir), "%s/sweep", w.paths.data_dir);
	ret = expand(w.repo, argv + optind, argc - optind, &w.revs, &w.nrev);
	if (ret) {
		ret = ret == -2 ? 2 : 1;
		goto out;
	}
	ret = 1;
	if (cmd_out_dir(w.dir, "linsched sweep"))
		goto out;
	tty = !w.quiet && isatty(2);
	if (sweep_workloads(&w) || sweep_units(&w))
		goto out;
	prog.tty = tty;
	ret = units_run(&w.paths, w.units, w.n, &w.engine, &prog);
	w.cached = prog.cached;
	if (ret)
		fprintf(stderr, "error: %s\n", driver_last_error());
	ret = ret < 0 ? 1 : ret ? cmd_units_status(w.units, w.n, 4) : 0;
	if (ret == 1)
		goto out;
	if (write_results(&w) || write_summary(&w, lsb_now() - t0))
		ret = 1;
out:
	for (k = 0; k < w.nrev; k++)
		driver_target_release(&w.revs[k].t);
	free(w.revs);
	free(w.units);
	free(w.wl);
	free(w.wl_name);
	free(w.patterns);
	return ret;
}

int cmd_sweep_worker(int argc, char **argv)
{
	static struct driver_paths paths;
	const char *dir;
	int probe, task, ret;

	ret = cmd_worker_args(argc, argv, usage_worker, &dir, &task, &probe);
	if (ret >= 0)
		return ret;
	if (driver_paths_init(&paths) ||
	    driver_sweep_worker(&paths, dir, task, probe)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	return 0;
}
