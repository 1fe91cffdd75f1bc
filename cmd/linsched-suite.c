// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched suite - list, write and run the generated workload suite on one
 * revision and one topology.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "sim/sim.h"
#include "suite/suite.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

static const char usage_suite[] =
"usage: linsched suite list [--cpus N] [--long] [--families] [--match GLOB]\n"
"   or: linsched suite write DIR [--cpus N | --topology T] [--match GLOB]\n"
"   or: linsched suite run REV [--topology T] [--duration D] [options]\n"
"\n"
"The generated workload suite: named rt-app patterns in families (hogs,\n"
"periodic grids, bursts, distributions, wake chains, producer/consumer,\n"
"fork storms, nice levels, pinning, RT with fair, SCHED_IDLE/BATCH,\n"
"barriers, locks, mostly idle). Task counts relative to CPUs are resolved\n"
"for the machine. Run 'linsched suite <subcommand> --help' for options.\n";

static const char usage_list[] =
"usage: linsched suite list [--cpus N] [--long] [--families] [--match GLOB]\n"
"\n"
"Print the pattern names, one a line.\n"
"\n"
"  -c, --cpus N        resolve task counts for N CPUs (default 8; --long)\n"
"  -l, --long          also print each pattern's family and task count\n"
"  -f, --families      print the families with their pattern counts\n"
"  -m, --match GLOB    only names matching GLOB (repeatable: any matches)\n"
"  -h, --help          this text\n";

static const char usage_write[] =
"usage: linsched suite write DIR [--cpus N | --topology T] [--match GLOB]\n"
"\n"
"Write each pattern as DIR/NAME.json (rt-app JSON) for a machine of N CPUs\n"
"(default 8) or of topology T. The same arguments always write the same\n"
"bytes.\n"
"\n"
"  -c, --cpus N        the machine's CPU count\n"
"  -t, --topology T    take the CPU count of a topology\n"
"  -m, --match GLOB    only names matching GLOB (repeatable: any matches)\n"
"  -h, --help          this text\n";

static const char usage_run[] =
"usage: linsched suite run REV [options]\n"
"\n"
"Build revision REV once and run every pattern of the suite on it, as\n"
"units on the engine (--jobs at a time here, or Slurm job arrays) through\n"
"the result cache that report, trend, sweep and lsbisect share: a pattern\n"
"whose result is cached is not run again. Each pattern's workload and\n"
"result (the simulator's JSON, or what became of it and why) go under the\n"
"output directory, with summary.json; a progress line is shown on a\n"
"terminal.\n"
"\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -t, --topology T    the machine (default quad-smt)\n"
"  -d, --duration D    simulated time of each pattern (default 10s)\n"
"  -s, --seed S        seed of every random choice (default 1)\n"
"  -o, --out DIR       output directory (default: DATA/suite/REV-TOPOLOGY,\n"
"                      DATA being build/ in a build tree)\n"
"  -j, --jobs N        simulations at a time, and build jobs (default 2)\n"
ENGINE_USAGE
"  -m, --match GLOB    only names matching GLOB (repeatable: any matches)\n"
"      --timeout S     wall-clock limit of each simulation (default 600)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0 every pattern finished, 1 error (also: a simulator refused\n"
"a pattern), 2 usage, 3 the revision does not build, 4 a pattern crashed\n"
"the kernel, 5 a pattern hung or timed out, 6 no adapter covers REV.\n";

#define MAX_MATCH 32

struct selection {
	const char *globs[MAX_MATCH];
	int nr_globs;
};

static int add_glob(struct selection *sel, const char *glob)
{
	if (sel->nr_globs == MAX_MATCH) {
		fprintf(stderr, "error: at most %d --match options\n", MAX_MATCH);
		return -1;
	}
	sel->globs[sel->nr_globs++] = glob;
	return 0;
}

/* The patterns @sel names, by the one selector (cmd/linsched-units.c). */
static int select_patterns(const struct selection *sel, int **patterns,
			   int *np)
{
	return suite_select("full", sel->globs, sel->nr_globs, patterns, np);
}

static int parse_cpus(int *out, const char *s)
{
	return opt_int("--cpus", s, 1, TOPOLOGY_MAX_CPUS, out);
}

static int topology_cpus(int *out, const char *spec)
{
	static struct topology topo;
	char err[512];

	if (topology_from_spec(&topo, spec, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return -1;
	}
	*out = topo.nr_cpus;
	return 0;
}

/* the number of tasks a pattern starts with (fork templates excluded) */
static int task_count(const char *json)
{
	cJSON *root = cJSON_Parse(json), *t, *inst;
	int n = 0;

	cJSON_ArrayForEach(t, cJSON_GetObjectItem(root, "tasks")) {
		inst = cJSON_GetObjectItem(t, "instance");
		n += inst ? (int)cJSON_GetNumberValue(inst) : 1;
	}
	cJSON_Delete(root);
	return n;
}

static int suite_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "long", no_argument, NULL, 'l' },
		{ "families", no_argument, NULL, 'f' },
		{ "match", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct selection sel = { .nr_globs = 0 };
	int c, i, cpus = 8, longfmt = 0, families = 0, *pat, np;
	const char *const *fams;
	size_t nf, f;

	while ((c = getopt_long(argc, argv, "c:lfm:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_cpus(&cpus, optarg))
				return 2;
			break;
		case 'l': longfmt = 1; break;
		case 'f': families = 1; break;
		case 'm':
			if (add_glob(&sel, optarg))
				return 2;
			break;
		case 'h':
			fputs(usage_list, stdout);
			return 0;
		default:
			fputs(usage_list, stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fputs(usage_list, stderr);
		return 2;
	}
	c = select_patterns(&sel, &pat, &np);
	if (c)
		return c;
	if (families) {
		fams = suite_families(&nf);
		for (f = 0; f < nf; f++) {
			int k = 0;

			for (i = 0; i < np; i++)
				k += !strcmp(suite_pattern_family(pat[i]), fams[f]);
			printf("%-10s %4d  %s\n", fams[f], k,
			       suite_family_description(fams[f]));
		}
		free(pat);
		return 0;
	}
	for (i = 0; i < np; i++) {
		char *json;

		if (!longfmt) {
			printf("%s\n", suite_pattern_name(pat[i]));
			continue;
		}
		json = suite_pattern_json(pat[i], cpus);
		if (!json) {
			fprintf(stderr, "error: suite: out of memory\n");
			free(pat);
			return 1;
		}
		printf("%-44s %-10s %4d tasks\n", suite_pattern_name(pat[i]),
		       suite_pattern_family(pat[i]), task_count(json));
		free(json);
	}
	free(pat);
	return 0;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	size_t len = strlen(text);

	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static int write_pattern(const char *dir, int i, int cpus, char *path,
			 size_t len)
{
	char *json = suite_pattern_json(i, cpus);
	int ret;

	if (!json) {
		fprintf(stderr, "error: suite pattern '%s': out of memory\n",
			suite_pattern_name(i));
		return -1;
	}
	if (lsb_pathf(path, len, "%s/%s.json", dir, suite_pattern_name(i)) < 0) {
		fprintf(stderr, "error: '%s': path too long\n", dir);
		free(json);
		return -1;
	}
	ret = write_text(path, json);
	free(json);
	if (ret)
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
	return ret;
}

static int suite_write(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "topology", required_argument, NULL, 't' },
		{ "match", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct selection sel = { .nr_globs = 0 };
	int c, i, cpus = 8, *pat, np;
	const char *machine = NULL, *opt;	/* who gave the CPU count */
	char path[4096];

	while ((c = getopt_long(argc, argv, "c:t:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 't':
			/* two answers to one question: which is meant? */
			opt = c == 'c' ? "--cpus" : "--topology";
			if (machine && strcmp(machine, opt)) {
				fprintf(stderr, "error: --cpus and --topology: give one or the other (both say the CPU count)\n");
				return 2;
			}
			machine = opt;
			if (c == 'c' ? parse_cpus(&cpus, optarg) :
			    topology_cpus(&cpus, optarg))
				return 2;
			break;
		case 'm':
			if (add_glob(&sel, optarg))
				return 2;
			break;
		case 'h':
			fputs(usage_write, stdout);
			return 0;
		default:
			fputs(usage_write, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_write, stderr);
		return 2;
	}
	c = select_patterns(&sel, &pat, &np);
	if (c)
		return c;
	if (lsb_mkdir_p(argv[optind])) {
		fprintf(stderr, "error: cannot make '%s': %s\n", argv[optind],
			strerror(errno));
		free(pat);
		return 1;
	}
	for (i = 0; i < np; i++)
		if (write_pattern(argv[optind], pat[i], cpus, path,
				  sizeof(path)))
			break;
	free(pat);
	return i < np;
}

/* ---- run ---- */

/* What 'suite run' was asked, and what it made. */
struct suite_run {
	const char *rev, *repo, *out_opt;
	struct driver_run_spec spec;
	const char *seed;
	struct selection sel;
	int verbose, nr_cpus;
	struct driver_engine engine;
	struct driver_paths paths;
	struct driver_target target;
	int *patterns, np;
	char out[4096], wl_dir[4200], res_dir[4200];
	char (*wl)[4400];
	struct driver_unit *units;
	size_t cached;
	int counts[DRIVER_UNSUPPORTED + 1];
	double wall;
};

/* A result's status as the suite counts it: finished, crashed or hung. */
static int suite_status(const struct driver_unit *u,
			const struct driver_result *r, int found)
{
	if (!found || u->state == DRIVER_UNIT_FAILED)
		return DRIVER_ERROR;
	return r->status == DRIVER_CRASHED || r->status == DRIVER_HUNG ?
	       r->status : r->status == DRIVER_OK ? DRIVER_OK : DRIVER_ERROR;
}

static const char *status_name(int st)
{
	return st == DRIVER_OK ? "finished" : st == DRIVER_CRASHED ?
	       "crashed" : st == DRIVER_HUNG ? "hung" : "error";
}

static int parse_run_opts(int argc, char **argv, struct suite_run *r)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "match", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 'O' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		ENGINE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c;

	engine_defaults(&r->engine);
	r->engine.jobs = 2;
	r->spec.topology = "quad-smt";
	r->spec.duration = "10s";
	r->seed = "1";
	r->spec.timeout_s = 600;
	while ((c = getopt_long(argc, argv, "r:t:d:s:o:j:m:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': r->repo = optarg; break;
		case 't':
			r->spec.topology = optarg;
			if (cmd_topology_arg(&r->spec.topology))
				return 2;
			break;
		case 'd': r->spec.duration = optarg; break;
		case 's': r->seed = optarg; break;
		case 'o': r->out_opt = optarg; break;
		case 'O':
			if (opt_int("--timeout", optarg, 0, 1000000,
				    &r->spec.timeout_s))
				return 2;
			break;
		case 'v': r->verbose = 1; break;
		case 'm':
			if (add_glob(&r->sel, optarg))
				return 2;
			break;
		case 'h':
			fputs(usage_run, stdout);
			return 0;
		default:
			c = engine_option(&r->engine, c, optarg);
			if (!c)
				break;
			if (c > 0)
				fputs(usage_run, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "error: linsched suite run takes one revision\n");
		fputs(usage_run, stderr);
		return 2;
	}
	r->rev = argv[optind];
	if (cmd_opt_seed(r->seed, &r->spec.seed) ||
	    cmd_opt_duration("--duration", r->spec.duration))
		return 2;
	if (topology_cpus(&r->nr_cpus, r->spec.topology) ||
	    cmd_check_out_dir("--out", r->out_opt))
		return 2;
	return select_patterns(&r->sel, &r->patterns, &r->np) ? 2 : -1;
}

/* The revision built, the output directory made, the workloads written. */
static int run_setup(struct suite_run *r)
{
	int ret, k;

	if (driver_paths_init(&r->paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	if (r->out_opt) {
		lsb_pathf(r->out, sizeof(r->out), "%s", r->out_opt);
	} else {
		char name[512];

		snprintf(name, sizeof(name), "%s-%s", r->rev,
			 r->spec.topology);
		lsb_safe_name(name);
		lsb_pathf(r->out, sizeof(r->out), "%s/suite/%s",
			  r->paths.data_dir, name);
	}
	lsb_pathf(r->wl_dir, sizeof(r->wl_dir), "%s/workloads", r->out);
	lsb_pathf(r->res_dir, sizeof(r->res_dir), "%s/results", r->out);
	/* a directory that cannot be had is known before a build */
	if (cmd_out_dir(r->out, "linsched suite run"))
		return 1;
	if (lsb_mkdir_p(r->res_dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", r->res_dir,
			strerror(errno));
		return 1;
	}
	ret = cmd_target_prepare(&r->target, &r->paths,
				 r->repo ? r->repo : r->paths.repo, r->rev,
				 r->engine.jobs, r->verbose);
	if (ret)
		return ret;
	/* every workload first: a pattern the parser refuses is our bug */
	if (suite_files(r->wl_dir, r->patterns, r->np, r->nr_cpus))
		return 1;
	r->wl = calloc(r->np, sizeof(*r->wl));
	r->units = calloc(r->np, sizeof(*r->units));
	if (!r->wl || !r->units) {
		fprintf(stderr, "error: suite: out of memory\n");
		return 1;
	}
	for (k = 0; k < r->np; k++) {
		struct workload w;
		char err[WORKLOAD_ERR_MAX];

		lsb_pathf(r->wl[k], sizeof(*r->wl), "%s/%s.json", r->wl_dir,
			  suite_pattern_name(r->patterns[k]));
		if (workload_parse(&w, r->wl[k], err, sizeof(err))) {
			ret = -1;
		} else {
			ret = workload_check(&w, r->nr_cpus, err, sizeof(err));
			workload_release(&w);
		}
		if (ret) {
			fprintf(stderr, "error: suite pattern '%s': %s\n",
				suite_pattern_name(r->patterns[k]), err);
			return 1;
		}
		r->units[k].target = &r->target;
		r->units[k].spec = r->spec;
		r->units[k].spec.workload = r->wl[k];
	}
	return 0;
}

/* results/NAME.json: the simulator's result, or what became of it. */
static int write_result(const struct suite_run *r, int k,
			const struct driver_result *res, int status)
{
	cJSON *root = res->json ? cJSON_Parse(res->json) : NULL;
	char path[4500];
	int ret;

	if (status == DRIVER_OK && root && cJSON_HasObjectItem(root, "workload"))
		/* a cached result may have been made from another copy */
		cJSON_ReplaceItemInObjectCaseSensitive(root, "workload",
			cJSON_CreateString(r->wl[k]));
	if (status != DRIVER_OK || !root) {
		cJSON_Delete(root);
		root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "pattern",
					suite_pattern_name(r->patterns[k]));
		cJSON_AddStringToObject(root, "family",
					suite_pattern_family(r->patterns[k]));
		cJSON_AddStringToObject(root, "status", status_name(status));
		cJSON_AddStringToObject(root, "error", *res->reason ?
					res->reason : driver_last_error());
		cJSON_AddStringToObject(root, "revision", r->target.name);
		cJSON_AddStringToObject(root, "commit", r->target.commit);
		cJSON_AddStringToObject(root, "topology", r->spec.topology);
		cJSON_AddStringToObject(root, "duration", r->spec.duration);
		cJSON_AddStringToObject(root, "seed", r->seed);
	}
	lsb_pathf(path, sizeof(path), "%s/%s.json", r->res_dir,
		  suite_pattern_name(r->patterns[k]));
	ret = lsb_write_json(path, root);
	if (ret)
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
	cJSON_Delete(root);
	return ret;
}

/* Every result written, with summary.json; failures listed on stdout. */
static int run_report(struct suite_run *r)
{
	cJSON *root = cJSON_CreateObject(), *list, *o;
	char path[4400];
	int k, st, ret = 0;

	list = cJSON_CreateArray();
	for (k = 0; k < r->np; k++) {
		struct driver_result res = { 0 };
		int found = !driver_target_result(&res, &r->paths, &r->target,
						  &r->units[k].spec,
						  DRIVER_RESULT_LOOKUP);

		st = suite_status(&r->units[k], &res, found);
		r->counts[st]++;
		ret |= write_result(r, k, &res, st);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "pattern",
					suite_pattern_name(r->patterns[k]));
		cJSON_AddStringToObject(o, "family",
					suite_pattern_family(r->patterns[k]));
		cJSON_AddStringToObject(o, "status", status_name(st));
		if (st != DRIVER_OK) {
			const char *why = *res.reason ? res.reason :
					  driver_last_error();

			cJSON_AddStringToObject(o, "error", why);
			printf("%s: %s: %s\n", status_name(st),
			       suite_pattern_name(r->patterns[k]), why);
		}
		cJSON_AddItemToArray(list, o);
		driver_result_release(&res);
	}
	cJSON_AddStringToObject(root, "revision", r->target.name);
	cJSON_AddStringToObject(root, "commit", r->target.commit);
	cJSON_AddStringToObject(root, "subset", r->target.subset);
	cJSON_AddStringToObject(root, "topology", r->spec.topology);
	cJSON_AddNumberToObject(root, "nr_cpus", r->nr_cpus);
	cJSON_AddStringToObject(root, "duration", r->spec.duration);
	cJSON_AddStringToObject(root, "seed", r->seed);
	cJSON_AddNumberToObject(root, "patterns", r->np);
	cJSON_AddNumberToObject(root, "finished", r->counts[DRIVER_OK]);
	cJSON_AddNumberToObject(root, "crashed", r->counts[DRIVER_CRASHED]);
	cJSON_AddNumberToObject(root, "hung", r->counts[DRIVER_HUNG]);
	cJSON_AddNumberToObject(root, "errors", r->counts[DRIVER_ERROR]);
	cJSON_AddNumberToObject(root, "cached", (double)r->cached);
	cJSON_AddNumberToObject(root, "wall_s", r->wall);
	cJSON_AddItemToObject(root, "results", list);
	lsb_pathf(path, sizeof(path), "%s/summary.json", r->out);
	if (lsb_write_json(path, root)) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		ret = -1;
	}
	cJSON_Delete(root);
	return ret;
}

static int suite_run(int argc, char **argv)
{
	static struct suite_run r;
	struct units_progress prog = { .what = "suite" };
	double start;
	int ret;

	ret = parse_run_opts(argc, argv, &r);
	if (ret >= 0)
		goto out;
	ret = run_setup(&r);
	if (ret)
		goto out;
	start = lsb_now();
	prog.tty = isatty(2);
	ret = units_run(&r.paths, r.units, r.np, &r.engine, &prog);
	r.cached = prog.cached;
	r.wall = lsb_now() - start;
	if (ret < 0) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = 1;
		goto out;
	}
	printf("suite: %d patterns on %s (%.12s), %s (%d CPUs), %s each, seed %s\n",
	       r.np, r.target.name, r.target.commit, r.spec.topology,
	       r.nr_cpus, r.spec.duration, r.seed);
	if (run_report(&r)) {
		ret = 1;
		goto out;
	}
	printf("finished %d, crashed %d, hung %d, errors %d in %.1f s (%zu from the cache, %d at a time)\n",
	       r.counts[DRIVER_OK], r.counts[DRIVER_CRASHED],
	       r.counts[DRIVER_HUNG], r.counts[DRIVER_ERROR], r.wall,
	       r.cached, r.engine.jobs);
	printf("results in %s\n", r.out);
	ret = r.counts[DRIVER_ERROR] ? DRIVER_ERROR :
	      r.counts[DRIVER_CRASHED] ? DRIVER_CRASHED :
	      r.counts[DRIVER_HUNG] ? DRIVER_HUNG : 0;
out:
	driver_target_release(&r.target);
	free(r.patterns);
	free(r.wl);
	free(r.units);
	return ret;
}

int cmd_suite(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	optind = 1;
	if (sub && !strcmp(sub, "list"))
		return suite_list(argc - 1, argv + 1);
	if (sub && !strcmp(sub, "write"))
		return suite_write(argc - 1, argv + 1);
	if (sub && !strcmp(sub, "run"))
		return suite_run(argc - 1, argv + 1);
	if (sub && (!strcmp(sub, "--help") || !strcmp(sub, "-h"))) {
		fputs(usage_suite, stdout);
		return 0;
	}
	if (sub)
		fprintf(stderr, "error: unknown suite command '%s'\n", sub);
	fputs(usage_suite, stderr);
	return 2;
}
