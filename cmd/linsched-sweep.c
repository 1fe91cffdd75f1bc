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

int cmd_sweep(int argc, char **argv);
int cmd_sweep_worker(int argc, char **argv);

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
	if (*n == *cap) {
		struct rev *r;

		*cap = *cap ? 2 * *cap : 16;
		r = realloc(*revs, *cap * sizeof(**revs));
		if (!r)
			return -1;
		*revs = r;
	}
	memset(&(*revs)[*n], 0, sizeof(**revs));
	snprintf((*revs)[(*n)++].name, sizeof((*revs)->name), "%s", name);
	return 0;
}

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
		snprintf(good, sizeof(good), "%.*s", (int)(dots - args[a]),
			 args[a]);
		snprintf(bad, sizeof(bad), "%s", dots + 2);
		if (!*good || !*bad || bisect_repo_open(&r, repo) ||
		    bisect_classes_new(&cls, r, good, bad, 0)) {
			fprintf(stderr, "error: '%s': %s\n", args[a],
				*good && *bad ? bisect_last_error() :
				"expected GOOD..BAD");
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
	text = cJSON_PrintUnformatted(o);
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

int cmd_sweep(int argc, char **argv)
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
	static struct driver_paths paths;
	const char *topos[MAX_SPECS], *specs[MAX_SPECS], *globs[MAX_MATCH];
	const char *suite = NULL, *duration = "10s", *repo = NULL, *out = NULL;
	int c, nt = 0, nw = 0, nglobs = 0, seeds = 1, timeout = 600, quiet = 0;
	int verbose = 0, ret = 1, *patterns = NULL, np = 0, i, t, s, cpus[MAX_SPECS];
	struct driver_engine engine;
	struct units_progress prog = { 0 };
	struct driver_unit *units = NULL;
	char (*wl)[4400] = NULL, dir[4200], path[4300], *end;
	const char **wl_name = NULL;
	struct rev *revs = NULL;
	size_t nrev = 0, n = 0, u, k, cached = 0, counts[8] = { 0 };
	double t0 = lsb_now(), wall;
	FILE *f = NULL;

	engine_defaults(&engine);
	while ((c = getopt_long(argc, argv, "s:m:w:t:n:d:r:o:j:qvh", opts,
				NULL)) != -1) {
		switch (c) {
		case 's': suite = optarg; break;
		case 'm':
			if (nglobs == MAX_MATCH)
				goto usage;
			globs[nglobs++] = optarg;
			break;
		case 'w':
			if (nw == MAX_SPECS)
				goto usage;
			specs[nw++] = optarg;
			break;
		case 't':
			if (nt == MAX_SPECS)
				goto usage;
			topos[nt++] = optarg;
			break;
		case 'n':
			seeds = (int)strtol(optarg, &end, 10);
			if (*end || seeds < 1 || seeds > 64) {
				fprintf(stderr, "error: --seeds '%s': expected 1 to 64\n",
					optarg);
				return 2;
			}
			break;
		case 'd': duration = optarg; break;
		case 'r': repo = optarg; break;
		case 'o': out = optarg; break;
		case 'O': timeout = atoi(optarg); break;
		case 'q': quiet = 1; break;
		case 'v': verbose = 1; break;
		case 'h':
			fputs(usage_sweep, stdout);
			return 0;
		default:
			if (!engine_option(&engine, c, optarg))
				break;
			goto usage;
		}
	}
	if (optind == argc || !nt) {
		fprintf(stderr, "error: %s\n", optind == argc ?
			"linsched sweep takes revisions or ranges" :
			"at least one --topology is required");
		goto usage;
	}
	if (!suite && (nglobs || !nw))
		suite = "full";
	if (suite) {
		ret = suite_select(suite, globs, nglobs, &patterns, &np);
		if (ret)
			goto out;
		ret = 1;
	}
	for (t = 0; t < nt; t++) {
		static struct topology topo;
		char err[512];

		if (topology_from_spec(&topo, topos[t], err, sizeof(err))) {
			fprintf(stderr, "error: %s\n", err);
			ret = 2;
			goto out;
		}
		cpus[t] = topo.nr_cpus;
	}
	for (i = 0; i < (nw ? nw : 1); i++)
		if (driver_check_specs(nw ? specs[i] : "hog", topos[0], duration)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			ret = 2;
			goto out;
		}
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	if (!repo)
		repo = paths.repo;
	if (out)
		snprintf(dir, sizeof(dir), "%s", out);
	else
		lsb_pathf(dir, sizeof(dir), "%s/sweep", paths.data_dir);
	if (expand(repo, argv + optind, argc - optind, &revs, &nrev))
		goto out;
	tty = !quiet && isatty(2);

	/* the workloads, per topology: suite files for its CPU count */
	wl = calloc((size_t)nt * (np + nw), sizeof(*wl));
	wl_name = calloc((size_t)nt * (np + nw), sizeof(*wl_name));
	if (!wl || !wl_name)
		goto nomem;
	for (t = 0; t < nt; t++) {
		char sub[4300];

		lsb_pathf(sub, sizeof(sub), "%s/workloads/%dcpus", dir, cpus[t]);
		if (np && suite_files(sub, patterns, np, cpus[t]))
			goto out;
		for (i = 0; i < np; i++) {
			lsb_pathf(wl[t * (np + nw) + i], sizeof(*wl), "%s/%s.json",
				  sub, suite_pattern_name(patterns[i]));
			wl_name[t * (np + nw) + i] = suite_pattern_name(patterns[i]);
		}
		for (i = 0; i < nw; i++) {
			snprintf(wl[t * (np + nw) + np + i], sizeof(*wl), "%s",
				 specs[i]);
			wl_name[t * (np + nw) + np + i] = specs[i];
		}
	}

	/* build every revision here, once */
	for (k = 0; k < nrev; k++) {
		if (tty)
			fprintf(stderr, "\rsweep: preparing %s (%zu of %zu)...\033[K",
				revs[k].name, k + 1, nrev);
		if (driver_target_prepare(&revs[k].t, &paths, repo, revs[k].name,
					  engine.jobs, verbose)) {
			if (tty)
				fputc('\n', stderr);
			fprintf(stderr, "error: %s\n", driver_last_error());
			goto out;
		}
	}
	if (tty)
		fputs("\r\033[K", stderr);

	n = nrev * nt * (np + nw) * seeds;
	units = calloc(n ? n : 1, sizeof(*units));
	if (!units)
		goto nomem;
	u = 0;
	for (k = 0; k < nrev; k++)
		for (t = 0; t < nt; t++)
			for (i = 0; i < np + nw; i++)
				for (s = 0; s < seeds; s++, u++) {
					struct driver_run_spec *sp = &units[u].spec;

					units[u].target = &revs[k].t;
					sp->workload = wl[t * (np + nw) + i];
					sp->topology = topos[t];
					sp->duration = duration;
					sp->seed = s + 1;
					sp->metrics = 1;
					sp->timeout_s = timeout;
				}
	prog.what = "sweep";
	prog.tty = tty;
	ret = units_run(&paths, units, n, &engine, &prog);
	cached = prog.cached;
	if (ret < 0) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = 1;
		goto out;
	}
	if (ret) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = 4;
	}

	if (lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", dir,
			strerror(errno));
		ret = 1;
		goto out;
	}
	lsb_pathf(path, sizeof(path), "%s/results.jsonl", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		ret = 1;
		goto out;
	}
	for (u = 0, k = 0; k < nrev; k++)
		for (t = 0; t < nt; t++)
			for (i = 0; i < np + nw; i++)
				for (s = 0; s < seeds; s++, u++) {
					struct driver_result r;

					if (units[u].state == DRIVER_UNIT_FAILED ||
					    driver_target_result(&r, &paths,
								 units[u].target,
								 &units[u].spec,
								 DRIVER_RESULT_LOOKUP)) {
						counts[7]++;
						continue;
					}
					counts[r.status < 7 ? r.status : 1]++;
					write_line(f, &revs[k], topos[t],
						   wl_name[t * (np + nw) + i],
						   units[u].spec.seed, &r);
					driver_result_release(&r);
				}
	if (fclose(f)) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		f = NULL;
		ret = 1;
		goto out;
	}
	f = NULL;
	wall = lsb_now() - t0;
	{
		cJSON *o = cJSON_CreateObject();
		char *text;

		cJSON_AddNumberToObject(o, "units", (double)n);
		cJSON_AddNumberToObject(o, "cached", (double)cached);
		cJSON_AddNumberToObject(o, "ran", (double)(n - cached - counts[7]));
		cJSON_AddNumberToObject(o, "failed", (double)counts[7]);
		cJSON_AddNumberToObject(o, "ok", (double)counts[DRIVER_OK]);
		cJSON_AddNumberToObject(o, "build_failed",
					(double)counts[DRIVER_BUILD_FAILED]);
		cJSON_AddNumberToObject(o, "crashed", (double)counts[DRIVER_CRASHED]);
		cJSON_AddNumberToObject(o, "hung", (double)counts[DRIVER_HUNG]);
		cJSON_AddStringToObject(o, "engine", engine.slurm ? "slurm" : "local");
		cJSON_AddNumberToObject(o, "resubmitted", engine.resubmitted);
		cJSON_AddNumberToObject(o, "wall_s", wall);
		text = cJSON_Print(o);
		cJSON_Delete(o);
		lsb_pathf(path, sizeof(path), "%s/sweep.json", dir);
		f = text ? fopen(path, "w") : NULL;
		if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0) {
			fprintf(stderr, "error: cannot write '%s'\n", path);
			ret = 1;
		}
		if (f && fclose(f))
			ret = 1;
		f = NULL;
		free(text);
	}
	printf("sweep: %zu units (%zu revision%s x %d workload%s x %d topolog%s x %d seed%s), %zu from the cache, %zu ran, %zu failed, %.1f s (%s)\n",
	       n, nrev, nrev == 1 ? "" : "s", np + nw, np + nw == 1 ? "" : "s",
	       nt, nt == 1 ? "y" : "ies", seeds, seeds == 1 ? "" : "s", cached,
	       n - cached - counts[7], counts[7], wall,
	       engine.slurm ? "slurm" : "local");
	printf("results: ok %zu, build failed %zu, crashed %zu, hung %zu\n",
	       counts[DRIVER_OK], counts[DRIVER_BUILD_FAILED],
	       counts[DRIVER_CRASHED], counts[DRIVER_HUNG]);
	if (engine.resubmitted)
		printf("slurm: %d array task%s submitted again (failed or vanished)\n",
		       engine.resubmitted, engine.resubmitted == 1 ? "" : "s");
	printf("%s/results.jsonl\n%s/sweep.json\n", dir, dir);
	goto out;
nomem:
	fprintf(stderr, "error: out of memory\n");
	ret = 1;
out:
	if (f)
		fclose(f);
	for (k = 0; k < nrev; k++)
		driver_target_release(&revs[k].t);
	free(revs);
	free(units);
	free(wl);
	free(wl_name);
	free(patterns);
	return ret;
usage:
	fputs(usage_sweep, stderr);
	return 2;
}

int cmd_sweep_worker(int argc, char **argv)
{
	static struct driver_paths paths;
	int probe = 0, task;
	char *end;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_worker, stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--probe")) {
		probe = 1;
		argc--;
		argv++;
	}
	if (argc != 3) {
		fputs(usage_worker, stderr);
		return 2;
	}
	task = (int)strtol(argv[2], &end, 10);
	if (*end || end == argv[2] || task < 0) {
		fprintf(stderr, "error: task '%s': expected an array task index\n",
			argv[2]);
		return 2;
	}
	if (driver_paths_init(&paths) ||
	    driver_sweep_worker(&paths, argv[1], task, probe)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	return 0;
}
