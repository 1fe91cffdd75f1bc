// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched coverage - line coverage of the C files of kernel/sched over a set of runs
 * of one revision: the suite (or its matching patterns, or the workloads
 * given), run in a build made with --instrument coverage through the
 * result cache, their gcov counts summed and read back (coverage/).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "adapters/adapters.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "coverage/coverage.h"
#include "driver/driver.h"
#include "sim/sim.h"
#include "suite/suite.h"
#include "topologies/topologies.h"

static const char usage_coverage[] =
"usage: linsched coverage REV [options]\n"
"\n"
"Line coverage of the revision's kernel/sched/*.c over a set of runs: build\n"
"REV with gcov (--instrument coverage), run the workload suite's patterns\n"
"(or the matching ones, or only the given workloads) as units through the\n"
"result cache, each run keeping its counts beside its result, sum exactly\n"
"those runs' counts (gcov-tool merge) and read them with gcov. Prints and\n"
"writes, per source file (the files build_policy.c and build_utility.c\n"
"include are themselves), the lines executed of the executable lines, and\n"
"the biggest functions of fair.c and core.c no run reached: OUT/coverage.txt,\n"
"OUT/coverage.json (every function too), OUT/merged (the summed .gcda files\n"
"of kernel/sched, with links to the build's .gcno files: gcov reads them).\n"
"\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -t, --topology T    the machine (default quad-smt)\n"
"  -d, --duration D    simulated time of each run (default 10s)\n"
"  -s, --seed S        seed of every random choice (default 1)\n"
"  -m, --match GLOB    only the suite patterns matching GLOB (repeatable)\n"
"  -w, --workload W    run W instead of the suite (repeatable): a file or a\n"
"                      task-group spec, as 'linsched run' takes\n"
"      --top N         never-reached functions listed per file (default 15)\n"
"  -o, --out DIR       output directory (default: DATA/coverage/REV-TOPOLOGY,\n"
"                      DATA being build/ in a build tree)\n"
"  -j, --jobs N        simulations at a time, and build jobs (default 2)\n"
ENGINE_USAGE_BASE
"      --timeout S     wall-clock limit of each simulation (default 600)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Runs that crashed or hung count with the counts they wrote (a run killed\n"
"by a signal or the time limit wrote none). Needs gcc's gcov and gcov-tool.\n"
"\n"
"Exit status: 0 written, 1 error (also: a run failed), 2 usage, 3 the\n"
"revision does not build, 6 no adapter covers REV.\n";

#define MAX_MATCH 32
#define MAX_WORKLOADS 256
#define OPT_TOP 0x2000
#define OPT_TIMEOUT 0x2001

/* The files whose never-reached functions the text lists. */
static const char *const listed[] = { "kernel/sched/fair.c",
				      "kernel/sched/core.c" };

/* What 'coverage' was asked, and what it made. */
struct cov_run {
	const char *rev, *repo, *out_opt, *seed;
	struct driver_run_spec spec;
	const char *globs[MAX_MATCH];
	int nr_globs;
	const char *workloads[MAX_WORKLOADS];
	int nr_workloads;
	int verbose, nr_cpus, top;
	struct driver_engine engine;
	struct driver_paths paths;
	struct driver_target target;
	int *patterns, np;
	size_t n;		/* units: the patterns, or the workloads */
	char out[4096], wl_dir[4200];
	char (*wl)[4400];
	const char **names;
	struct driver_unit *units;
	int *status;		/* each unit's driver_status */
	char (*keys)[41];	/* each unit's result key */
	char **dirs;		/* the counts of the units that wrote some */
	size_t nr_dirs;
	int counts[DRIVER_UNSUPPORTED + 1];
	struct coverage cov;
};

static int add_arg(const char **list, int *n, int max, const char *opt,
		   const char *arg)
{
	if (*n == max) {
		fprintf(stderr, "error: at most %d %s options\n", max, opt);
		return -1;
	}
	list[(*n)++] = arg;
	return 0;
}

/* An option of the table, or the engine's; 0, or the exit status. */
static int cov_option(struct cov_run *r, int c, const char *arg)
{
	switch (c) {
	case 'r': r->repo = arg; break;
	case 't':
		r->spec.topology = arg;
		return cmd_topology_arg(&r->spec.topology) ? 2 : 0;
	case 'd': r->spec.duration = arg; break;
	case 's': r->seed = arg; break;
	case 'o': r->out_opt = arg; break;
	case 'v': r->verbose = 1; break;
	case 'm':
		return add_arg(r->globs, &r->nr_globs, MAX_MATCH, "--match",
			       arg) ? 2 : 0;
	case 'w':
		return add_arg(r->workloads, &r->nr_workloads, MAX_WORKLOADS,
			       "--workload", arg) ? 2 : 0;
	case OPT_TOP:
		return opt_int("--top", arg, 0, 10000, &r->top) ? 2 : 0;
	case OPT_TIMEOUT:
		return opt_int("--timeout", arg, 0, 1000000,
			       &r->spec.timeout_s) ? 2 : 0;
	case OPT_INSTRUMENT:
		if (adapter_variant_parse(arg) == ADAPTER_COVERAGE)
			return 0;
		fprintf(stderr, "error: --instrument '%s': linsched coverage builds with coverage\n",
			arg);
		return 2;
	default:
		c = engine_option(&r->engine, c, arg);
		if (c > 0)
			fputs(usage_coverage, stderr);
		return c ? 2 : 0;
	}
	return 0;
}

/* Each --match names a pattern: a typo is an error, not a smaller set. */
static int check_globs(const struct cov_run *r)
{
	int g, i;

	for (g = 0; g < r->nr_globs; g++) {
		for (i = 0; i < suite_count(); i++)
			if (!fnmatch(r->globs[g], suite_pattern_name(i), 0))
				break;
		if (i == suite_count()) {
			fprintf(stderr, "error: --match '%s': no suite pattern matches ('linsched suite list' names them)\n",
				r->globs[g]);
			return -1;
		}
	}
	return 0;
}

/* What the options leave to check: the revision, seed, duration, specs. */
static int check_opts(struct cov_run *r, int argc, char **argv)
{
	int i;

	if (optind + 1 != argc) {
		fprintf(stderr, "error: linsched coverage takes one revision\n");
		fputs(usage_coverage, stderr);
		return 2;
	}
	r->rev = argv[optind];
	if (cmd_opt_seed(r->seed, &r->spec.seed) ||
	    cmd_opt_duration("--duration", r->spec.duration) ||
	    cmd_check_out_dir("--out", r->out_opt))
		return 2;
	if (r->nr_workloads && r->nr_globs) {
		fprintf(stderr, "error: --match chooses suite patterns, --workload replaces the suite: give one or the other\n");
		return 2;
	}
	for (i = 0; i < r->nr_workloads; i++)
		if (cmd_check_specs(&r->workloads[i], r->spec.topology,
				    r->spec.duration, NULL))
			return 2;
	if (!r->nr_workloads &&
	    (check_globs(r) || suite_select("full", r->globs, r->nr_globs,
					    &r->patterns, &r->np)))
		return 2;
	return -1;
}

/* Parse argv: -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, struct cov_run *r)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "match", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "out", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		ENGINE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	engine_defaults(&r->engine);
	r->engine.jobs = 2;
	r->spec.topology = "quad-smt";
	r->spec.duration = "10s";
	r->spec.timeout_s = 600;
	r->seed = "1";
	r->top = 15;
	optind = 1;
	while ((c = getopt_long(argc, argv, "r:t:d:s:m:w:o:j:vh", opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_coverage, stdout);
			return 0;
		}
		if (c == '?') {
			fputs(usage_coverage, stderr);
			return 2;
		}
		ret = cov_option(r, c, optarg);
		if (ret)
			return ret;
	}
	return check_opts(r, argc, argv);
}

/* The output directory, made: --out, or DATA/coverage/REV-TOPOLOGY. */
static int make_out(struct cov_run *r)
{
	char name[512];

	if (r->out_opt) {
		lsb_pathf(r->out, sizeof(r->out), "%s", r->out_opt);
	} else {
		snprintf(name, sizeof(name), "%s-%s", r->rev,
			 r->spec.topology);
		lsb_safe_name(name);
		lsb_pathf(r->out, sizeof(r->out), "%s/coverage/%s",
			  r->paths.data_dir, name);
	}
	lsb_pathf(r->wl_dir, sizeof(r->wl_dir), "%s/workloads", r->out);
	if (cmd_out_dir(r->out, "linsched coverage"))
		return -1;
	return 0;
}

/* One unit per pattern (its file under OUT/workloads) or workload. */
static int make_units(struct cov_run *r)
{
	size_t k;

	r->n = r->nr_workloads ? (size_t)r->nr_workloads : (size_t)r->np;
	if (!r->nr_workloads &&
	    suite_files(r->wl_dir, r->patterns, r->np, r->nr_cpus))
		return -1;
	r->wl = calloc(r->n, sizeof(*r->wl));
	r->names = calloc(r->n, sizeof(*r->names));
	r->units = calloc(r->n, sizeof(*r->units));
	r->status = calloc(r->n, sizeof(*r->status));
	r->dirs = calloc(r->n, sizeof(*r->dirs));
	r->keys = calloc(r->n, sizeof(*r->keys));
	if (!r->wl || !r->names || !r->units || !r->status || !r->dirs ||
	    !r->keys) {
		fprintf(stderr, "error: coverage: out of memory\n");
		return -1;
	}
	for (k = 0; k < r->n; k++) {
		if (r->nr_workloads) {
			r->names[k] = r->workloads[k];
			lsb_pathf(r->wl[k], sizeof(*r->wl), "%s",
				  r->workloads[k]);
		} else {
			r->names[k] = suite_pattern_name(r->patterns[k]);
			lsb_pathf(r->wl[k], sizeof(*r->wl), "%s/%s.json",
				  r->wl_dir, r->names[k]);
		}
		r->units[k].target = &r->target;
		r->units[k].spec = r->spec;
		r->units[k].spec.workload = r->wl[k];
	}
	return 0;
}

/* The revision built with gcov, the output directory, the units. */
static int setup(struct cov_run *r)
{
	struct topology *topo = malloc(sizeof(*topo));
	char err[512];
	int ret;

	if (!topo || topology_from_spec(topo, r->spec.topology, err,
					sizeof(err))) {
		fprintf(stderr, "error: %s\n", topo ? err : "out of memory");
		free(topo);
		return 2;
	}
	r->nr_cpus = topo->nr_cpus;
	free(topo);
	/* the children and Slurm tasks read the variant from the environment */
	if (cmd_instrument(NULL, "coverage"))
		return 1;
	if (driver_paths_init(&r->paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	/* a directory that cannot be had is known before a build */
	if (make_out(r))
		return 1;
	ret = cmd_target_prepare(&r->target, &r->paths,
				 r->repo ? r->repo : r->paths.repo, r->rev,
				 r->engine.jobs, r->verbose);
	if (ret)
		return ret;
	return make_units(r) ? 1 : 0;
}

/* The run's counts of kernel/sched, if it wrote any (not when killed). */
static int sched_counts(char *dir, size_t len, const struct cov_run *r,
			const char *key)
{
	char run[4200];
	struct stat st;

	driver_coverage_dir(run, sizeof(run), &r->paths, key);
	lsb_pathf(dir, len, "%s/o/kernel/sched", run);
	return !stat(dir, &st) && S_ISDIR(st.st_mode);
}

/* Each unit's status and counts, from the cache. */
static int collect(struct cov_run *r)
{
	char dir[4300];
	size_t k;
	int st, ret;

	for (k = 0; k < r->n; k++) {
		struct driver_result res;

		if (driver_target_result(&res, &r->paths, &r->target,
					 &r->units[k].spec,
					 DRIVER_RESULT_CHECK)) {
			fprintf(stderr, "error: run '%s': not in the cache after its run: %s\n",
				r->names[k], driver_last_error());
			return -1;
		}
		st = res.status;
		r->status[k] = st;
		memcpy(r->keys[k], res.key, sizeof(r->keys[k]));
		r->counts[st >= 0 && st <= DRIVER_UNSUPPORTED ? st :
			  DRIVER_ERROR]++;
		ret = sched_counts(dir, sizeof(dir), r, res.key);
		driver_result_release(&res);
		if (!ret)
			continue;
		r->dirs[r->nr_dirs] = strdup(dir);
		if (!r->dirs[r->nr_dirs++]) {
			fprintf(stderr, "error: coverage: out of memory\n");
			return -1;
		}
	}
	if (!r->nr_dirs) {
		fprintf(stderr, "error: no run of %s wrote gcov counts\n",
			r->rev);
		return -1;
	}
	return 0;
}

static void merge_progress(size_t done, size_t total, void *arg)
{
	(void)arg;
	fprintf(stderr, "\rcoverage: summing the counts of %zu/%zu runs\033[K",
		done, total);
}

/* The runs' counts summed into OUT/merged, read with gcov. */
static int measure(struct cov_run *r)
{
	char merged[4200], objs[4200], exe[4096];
	int tty = isatty(2), ret;

	lsb_pathf(merged, sizeof(merged), "%s/merged", r->out);
	ret = coverage_merge(merged, (const char *const *)r->dirs, r->nr_dirs,
			     r->engine.jobs, tty ? merge_progress : NULL,
			     NULL);
	if (tty)
		fputs("\r\033[K", stderr);
	if (ret) {
		fprintf(stderr, "error: %s\n", coverage_last_error());
		return -1;
	}
	lsb_pathf(exe, sizeof(exe), "%s", r->target.exe);
	lsb_pathf(objs, sizeof(objs), "%s/o/kernel/sched", dirname(exe));
	coverage_init(&r->cov);
	if (coverage_gcov(&r->cov, merged, objs, "kernel/sched") ||
	    coverage_finish(&r->cov)) {
		fprintf(stderr, "error: %s\n", coverage_last_error());
		return -1;
	}
	return 0;
}

/* The runs of coverage.json: each name and status. */
static cJSON *runs_json(const struct cov_run *r)
{
	cJSON *list = cJSON_CreateArray(), *o;
	size_t k;

	for (k = 0; k < r->n; k++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "workload", r->names[k]);
		cJSON_AddStringToObject(o, "status",
					driver_status_name(r->status[k]));
		/* its counts: CACHE/coverage/KEY */
		cJSON_AddStringToObject(o, "key", r->keys[k]);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

/* What the figures are of: the header of coverage.json and .txt. */
static cJSON *header_json(const struct cov_run *r)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddStringToObject(root, "revision", r->target.name);
	cJSON_AddStringToObject(root, "commit", r->target.commit);
	cJSON_AddStringToObject(root, "build", r->target.build);
	cJSON_AddStringToObject(root, "topology", r->spec.topology);
	cJSON_AddNumberToObject(root, "nr_cpus", r->nr_cpus);
	cJSON_AddStringToObject(root, "duration", r->spec.duration);
	cJSON_AddStringToObject(root, "seed", r->seed);
	cJSON_AddNumberToObject(root, "runs", (double)r->n);
	cJSON_AddNumberToObject(root, "finished", r->counts[DRIVER_OK]);
	cJSON_AddNumberToObject(root, "crashed", r->counts[DRIVER_CRASHED]);
	cJSON_AddNumberToObject(root, "hung", r->counts[DRIVER_HUNG]);
	cJSON_AddNumberToObject(root, "without_counts",
				(double)(r->n - r->nr_dirs));
	cJSON_AddItemToObject(root, "workloads", runs_json(r));
	return root;
}

/* OUT/coverage.json and OUT/coverage.txt, the text on standard output. */
static int write_report(struct cov_run *r)
{
	cJSON *root = coverage_to_json(&r->cov, (size_t)r->top,
				       header_json(r));
	char path[4200], *table, *text = NULL;
	int ret = -1;

	table = coverage_to_text(&r->cov, listed,
				 sizeof(listed) / sizeof(listed[0]),
				 (size_t)r->top);
	if (!root || !table ||
	    asprintf(&text, "coverage of kernel/sched/*.c: %s (%.12s), %zu runs on %s (%d CPUs), %s each, seed %s\n"
		     "runs: %d finished, %d crashed, %d hung; %zu without counts\n\n%s",
		     r->target.name, r->target.commit, r->n, r->spec.topology,
		     r->nr_cpus, r->spec.duration, r->seed,
		     r->counts[DRIVER_OK], r->counts[DRIVER_CRASHED],
		     r->counts[DRIVER_HUNG], r->n - r->nr_dirs, table) < 0) {
		fprintf(stderr, "error: coverage: out of memory\n");
		text = NULL;
		goto out;
	}
	lsb_pathf(path, sizeof(path), "%s/coverage.json", r->out);
	if (lsb_write_json(path, root))
		goto failed;
	lsb_pathf(path, sizeof(path), "%s/coverage.txt", r->out);
	if (lsb_write_atomic(path, text, strlen(text)))
		goto failed;
	fputs(text, stdout);
	printf("\nwritten: %s/coverage.txt, %s/coverage.json\n", r->out,
	       r->out);
	ret = 0;
	goto out;
failed:
	fprintf(stderr, "error: cannot write '%s': %s\n", path,
		strerror(errno));
out:
	cJSON_Delete(root);
	free(table);
	free(text);
	return ret;
}

int cmd_coverage(int argc, char **argv)
{
	static struct cov_run r;
	struct units_progress prog = { .what = "coverage" };
	size_t k;
	int ret;

	ret = parse_opts(argc, argv, &r);
	if (ret >= 0)
		goto out;
	ret = setup(&r);
	if (ret)
		goto out;
	prog.tty = isatty(2);
	ret = units_run(&r.paths, r.units, r.n, &r.engine, &prog);
	if (ret) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = 1;
		goto out;
	}
	ret = collect(&r) || measure(&r) || write_report(&r) ? 1 : 0;
out:
	driver_target_release(&r.target);
	coverage_release(&r.cov);
	for (k = 0; k < r.nr_dirs; k++)
		free(r.dirs[k]);
	free(r.dirs);
	free(r.patterns);
	free(r.wl);
	free(r.names);
	free(r.units);
	free(r.status);
	free(r.keys);
	return ret;
}
