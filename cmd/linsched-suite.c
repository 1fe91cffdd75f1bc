// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched suite - list, write and run the generated workload suite on one
 * revision and one topology.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include "driver/driver.h"
#include "suite/suite.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

int cmd_suite(int argc, char **argv);

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
"Build revision REV once and run every pattern of the suite on it, N\n"
"simulations at a time. Each pattern's workload, result (the simulator's\n"
"JSON, or its failure) and log go under the output directory, with\n"
"summary.json; a progress line is shown on a terminal.\n"
"\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -t, --topology T    the machine (default quad-smt)\n"
"  -d, --duration D    simulated time of each pattern (default 10s)\n"
"  -s, --seed S        seed of every random choice (default 1)\n"
"  -o, --out DIR       output directory (default: DATA/suite/REV-TOPOLOGY,\n"
"                      DATA being build/ in a build tree)\n"
"  -j, --jobs N        simulations at a time, and build jobs (default 2)\n"
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

static int selected(const struct selection *sel, int i)
{
	const char *name = suite_pattern_name(i);
	int k;

	if (!sel->nr_globs)
		return 1;
	for (k = 0; k < sel->nr_globs; k++)
		if (!fnmatch(sel->globs[k], name, 0))
			return 1;
	return 0;
}

static int parse_cpus(int *out, const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (*end || end == s || n < 1 || n > TOPOLOGY_MAX_CPUS) {
		fprintf(stderr, "error: --cpus '%s': expected 1 to %d\n", s,
			TOPOLOGY_MAX_CPUS);
		return -1;
	}
	*out = n;
	return 0;
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
	int c, i, cpus = 8, longfmt = 0, families = 0, n = suite_count();
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
	if (families) {
		fams = suite_families(&nf);
		for (f = 0; f < nf; f++) {
			int k = 0;

			for (i = 0; i < n; i++)
				k += selected(&sel, i) &&
				     !strcmp(suite_pattern_family(i), fams[f]);
			printf("%-10s %4d  %s\n", fams[f], k,
			       suite_family_description(fams[f]));
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		char *json;

		if (!selected(&sel, i))
			continue;
		if (!longfmt) {
			printf("%s\n", suite_pattern_name(i));
			continue;
		}
		json = suite_pattern_json(i, cpus);
		if (!json) {
			fprintf(stderr, "error: suite: out of memory\n");
			return 1;
		}
		printf("%-44s %-10s %4d tasks\n", suite_pattern_name(i),
		       suite_pattern_family(i), task_count(json));
		free(json);
	}
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
	int c, i, cpus = 8, n = suite_count(), written = 0;
	char path[4096];

	while ((c = getopt_long(argc, argv, "c:t:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_cpus(&cpus, optarg))
				return 2;
			break;
		case 't':
			if (topology_cpus(&cpus, optarg))
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
	if (lsb_mkdir_p(argv[optind])) {
		fprintf(stderr, "error: cannot make '%s': %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (!selected(&sel, i))
			continue;
		if (write_pattern(argv[optind], i, cpus, path, sizeof(path)))
			return 1;
		written++;
	}
	if (!written) {
		fprintf(stderr, "error: suite: no pattern matches\n");
		return 1;
	}
	return 0;
}

/* ---- run ---- */

static const char *const status_names[] = {
	[DRIVER_OK] = "finished",
	[DRIVER_ERROR] = "error",
	[2] = "error",
	[DRIVER_BUILD_FAILED] = "error",
	[DRIVER_CRASHED] = "crashed",
	[DRIVER_HUNG] = "hung",
	[DRIVER_UNSUPPORTED] = "error",
};

static const char *status_name(int st)
{
	return st >= 0 && st <= DRIVER_UNSUPPORTED ? status_names[st] : "error";
}

struct run_ctx {
	struct driver_revision rev;
	const char *topology;
	const char *duration;
	const char *seed;
	int timeout;
	char out[4096];
	char wl_dir[4200];
	char res_dir[4200];
	char log_dir[4200];
};

struct outcome {
	int status;		/* enum driver_status; -1: not run */
	double wall;
};

static void fmt_secs(char *buf, size_t len, double s)
{
	int t = (int)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%dh%02dm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%dm%02ds", t / 60, t % 60);
	else
		snprintf(buf, len, "%ds", t);
}

static void pattern_paths(const struct run_ctx *ctx, int i, char *wl,
			  char *res, char *log, size_t len)
{
	const char *name = suite_pattern_name(i);

	lsb_pathf(wl, len, "%s/%s.json", ctx->wl_dir, name);
	lsb_pathf(res, len, "%s/%s.json", ctx->res_dir, name);
	lsb_pathf(log, len, "%s/%s.log", ctx->log_dir, name);
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* The failure's result: what became of the pattern, and why. */
static void write_failure(const struct run_ctx *ctx, int i, int status,
			  const char *msg, const char *res, const char *log)
{
	cJSON *root = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(root, "pattern", suite_pattern_name(i));
	cJSON_AddStringToObject(root, "family", suite_pattern_family(i));
	cJSON_AddStringToObject(root, "status", status_name(status));
	cJSON_AddStringToObject(root, "error", msg);
	cJSON_AddStringToObject(root, "revision", ctx->rev.name);
	cJSON_AddStringToObject(root, "commit", ctx->rev.commit);
	cJSON_AddStringToObject(root, "topology", ctx->topology);
	cJSON_AddStringToObject(root, "duration", ctx->duration);
	cJSON_AddStringToObject(root, "seed", ctx->seed);
	cJSON_AddStringToObject(root, "log", log);
	text = cJSON_Print(root);
	if (text)
		write_text(res, text);
	free(text);
	cJSON_Delete(root);
}

/*
 * In a child of its own, so that N simulations run at once while
 * driver_run() keeps waiting for exactly one child with its time limit.
 */
static void run_one(const struct run_ctx *ctx, int i)
{
	char wl[4400], res[4400], log[4400];
	char *args[24];
	int n = 0, ret;
	FILE *f;

	pattern_paths(ctx, i, wl, res, log, sizeof(wl));
	n = driver_sim_identity(args, &ctx->rev);
	args[n++] = "--topology";
	args[n++] = (char *)ctx->topology;
	args[n++] = "--workload";
	args[n++] = wl;
	args[n++] = "--duration";
	args[n++] = (char *)ctx->duration;
	args[n++] = "--seed";
	args[n++] = (char *)ctx->seed;
	args[n++] = "--json";
	args[n++] = res;
	args[n] = NULL;
	ret = driver_run(ctx->rev.exe, args, ctx->timeout, log);
	if (ret == DRIVER_OK) {
		if (file_size(log) == 0)
			unlink(log);
		_exit(DRIVER_OK);
	}
	f = fopen(log, "a");
	if (f) {
		fprintf(f, "linsched: %s: %s\n", status_name(ret),
			driver_last_error());
		fclose(f);
	}
	write_failure(ctx, i, ret, driver_last_error(), res, log);
	_exit(ret);
}

/* The message of a failure, from its result file. */
static char *failure_message(const struct run_ctx *ctx, int i)
{
	char wl[4400], res[4400], log[4400], *text, *msg = NULL;
	cJSON *root;

	pattern_paths(ctx, i, wl, res, log, sizeof(wl));
	text = lsb_read_file(res, NULL);
	root = text ? cJSON_Parse(text) : NULL;
	if (cJSON_IsString(cJSON_GetObjectItem(root, "error")))
		msg = strdup(cJSON_GetObjectItem(root, "error")->valuestring);
	cJSON_Delete(root);
	free(text);
	return msg ? msg : strdup("no result written");
}

static void progress(int done, int total, int failed, double start)
{
	double t = lsb_now() - start, rate = t > 0 ? done / t : 0;
	char left[32] = "?";

	if (rate > 0)
		fmt_secs(left, sizeof(left), (total - done) / rate);
	fprintf(stderr, "\r\033[Ksuite: %d/%d, %.2f patterns/s, %s left",
		done, total, rate, left);
	if (failed)
		fprintf(stderr, ", %d not finished", failed);
}

static int write_summary(const struct run_ctx *ctx, const int *todo, int nr,
			 const struct outcome *res, int nr_cpus, double wall,
			 const int *counts)
{
	cJSON *root = cJSON_CreateObject(), *list, *o;
	char path[4400], *text, *msg;
	int k, ret = -1;

	cJSON_AddStringToObject(root, "revision", ctx->rev.name);
	cJSON_AddStringToObject(root, "commit", ctx->rev.commit);
	cJSON_AddStringToObject(root, "subset", ctx->rev.subset);
	cJSON_AddStringToObject(root, "topology", ctx->topology);
	cJSON_AddNumberToObject(root, "nr_cpus", nr_cpus);
	cJSON_AddStringToObject(root, "duration", ctx->duration);
	cJSON_AddStringToObject(root, "seed", ctx->seed);
	cJSON_AddNumberToObject(root, "patterns", nr);
	cJSON_AddNumberToObject(root, "finished", counts[DRIVER_OK]);
	cJSON_AddNumberToObject(root, "crashed", counts[DRIVER_CRASHED]);
	cJSON_AddNumberToObject(root, "hung", counts[DRIVER_HUNG]);
	cJSON_AddNumberToObject(root, "errors", counts[DRIVER_ERROR]);
	cJSON_AddNumberToObject(root, "wall_s", wall);
	list = cJSON_AddArrayToObject(root, "results");
	for (k = 0; k < nr; k++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "pattern", suite_pattern_name(todo[k]));
		cJSON_AddStringToObject(o, "family", suite_pattern_family(todo[k]));
		cJSON_AddStringToObject(o, "status", status_name(res[k].status));
		cJSON_AddNumberToObject(o, "wall_s", res[k].wall);
		if (res[k].status != DRIVER_OK) {
			msg = failure_message(ctx, todo[k]);
			cJSON_AddStringToObject(o, "error", msg);
			free(msg);
		}
		cJSON_AddItemToArray(list, o);
	}
	text = cJSON_Print(root);
	if (text && lsb_pathf(path, sizeof(path), "%s/summary.json", ctx->out) >= 0)
		ret = write_text(path, text);
	if (ret)
		fprintf(stderr, "error: cannot write '%s/summary.json'\n", ctx->out);
	free(text);
	cJSON_Delete(root);
	return ret;
}

/* REV-TOPOLOGY, with what a file name cannot hold replaced */
static void default_out(char *buf, size_t len, const struct driver_paths *paths,
			const char *rev, const char *topo)
{
	char name[512], *p;

	snprintf(name, sizeof(name), "%s-%s", rev, topo);
	for (p = name; *p; p++)
		if (*p == '/' || *p == ' ' || (*p == '.' && p == name))
			*p = '_';
	lsb_pathf(buf, len, "%s/suite/%s", paths->data_dir, name);
}

static int suite_run(int argc, char **argv)
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
		{ NULL, 0, NULL, 0 },
	};
	static struct run_ctx ctx;
	static struct driver_paths paths;
	struct selection sel = { .nr_globs = 0 };
	const char *repo = NULL, *out = NULL;
	int c, i, k, jobs = 2, verbose = 0, nr_cpus, n = suite_count(), nr = 0;
	int counts[DRIVER_UNSUPPORTED + 1] = { 0 }, done = 0, running = 0;
	int failed = 0, tty = isatty(2), ret = 0, *todo = NULL, next = 0;
	pid_t *slots = NULL;
	int *slot_task = NULL;	/* the index into todo a slot runs */
	struct outcome *res = NULL;
	double *started = NULL, start, wall;
	char wl[4400], rs[4400], log[4400];
	uint64_t ns;

	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	ctx.topology = "quad-smt";
	ctx.duration = "10s";
	ctx.seed = "1";
	ctx.timeout = 600;
	while ((c = getopt_long(argc, argv, "r:t:d:s:o:j:m:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': repo = optarg; break;
		case 't': ctx.topology = optarg; break;
		case 'd': ctx.duration = optarg; break;
		case 's': ctx.seed = optarg; break;
		case 'o': out = optarg; break;
		case 'j': jobs = atoi(optarg); break;
		case 'O': ctx.timeout = atoi(optarg); break;
		case 'v': verbose = 1; break;
		case 'm':
			if (add_glob(&sel, optarg))
				return 2;
			break;
		case 'h':
			fputs(usage_run, stdout);
			return 0;
		default:
			fputs(usage_run, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "error: linsched suite run takes one revision\n");
		fputs(usage_run, stderr);
		return 2;
	}
	if (jobs < 1 || jobs > 256) {
		fprintf(stderr, "error: --jobs '%d': expected 1 to 256\n", jobs);
		return 2;
	}
	if (workload_parse_duration(&ns, ctx.duration)) {
		fprintf(stderr, "error: --duration '%s': expected a positive duration such as 10s or 500ms\n",
			ctx.duration);
		return 2;
	}
	if (topology_cpus(&nr_cpus, ctx.topology))
		return 2;

	todo = calloc(n, sizeof(*todo));
	res = calloc(n, sizeof(*res));
	slots = calloc(jobs, sizeof(*slots));
	started = calloc(jobs, sizeof(*started));
	slot_task = calloc(jobs, sizeof(*slot_task));
	if (!todo || !res || !slots || !started || !slot_task) {
		fprintf(stderr, "error: suite: out of memory\n");
		ret = 1;
		goto cleanup;
	}
	for (i = 0; i < n; i++)
		if (selected(&sel, i))
			todo[nr++] = i;
	if (!nr) {
		fprintf(stderr, "error: suite: no pattern matches\n");
		ret = 2;
		goto cleanup;
	}

	if (tty)
		fprintf(stderr, "linsched: preparing %s...\r", argv[optind]);
	ret = driver_prepare(&ctx.rev, &paths, repo ? repo : paths.repo,
			     argv[optind], jobs, verbose);
	if (tty)
		fprintf(stderr, "\033[K");
	if (ret) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto cleanup;
	}
	if (out)
		lsb_pathf(ctx.out, sizeof(ctx.out), "%s", out);
	else
		default_out(ctx.out, sizeof(ctx.out), &paths, ctx.rev.name,
			    ctx.topology);
	lsb_pathf(ctx.wl_dir, sizeof(ctx.wl_dir), "%s/workloads", ctx.out);
	lsb_pathf(ctx.res_dir, sizeof(ctx.res_dir), "%s/results", ctx.out);
	lsb_pathf(ctx.log_dir, sizeof(ctx.log_dir), "%s/logs", ctx.out);
	if (lsb_mkdir_p(ctx.wl_dir) || lsb_mkdir_p(ctx.res_dir) ||
	    lsb_mkdir_p(ctx.log_dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", ctx.out,
			strerror(errno));
		ret = 1;
		goto release;
	}
	/* every workload first: a pattern the parser refuses is our bug */
	for (k = 0; k < nr; k++) {
		struct workload w;
		char err[1024];

		pattern_paths(&ctx, todo[k], wl, rs, log, sizeof(wl));
		if (write_pattern(ctx.wl_dir, todo[k], nr_cpus, wl, sizeof(wl))) {
			ret = 1;
			goto release;
		}
		if (workload_parse(&w, wl, err, sizeof(err))) {
			fprintf(stderr, "error: suite pattern '%s': %s\n",
				suite_pattern_name(todo[k]), err);
			ret = 1;
			goto release;
		}
		if (workload_check(&w, nr_cpus, err, sizeof(err))) {
			fprintf(stderr, "error: suite pattern '%s': %s\n",
				suite_pattern_name(todo[k]), err);
			workload_release(&w);
			ret = 1;
			goto release;
		}
		workload_release(&w);
		unlink(rs);
		unlink(log);
	}

	start = lsb_now();
	while (done < nr) {
		int status;
		pid_t pid;

		while (running < jobs && next < nr) {
			for (k = 0; slots[k]; k++)
				;
			fflush(NULL);	/* the child must not write our buffers */
			pid = fork();
			if (pid < 0) {
				fprintf(stderr, "error: cannot fork: %s\n",
					strerror(errno));
				ret = 1;
				if (!running)
					goto release;
				break;
			}
			if (!pid)
				run_one(&ctx, todo[next]);
			slots[k] = pid;
			slot_task[k] = next;
			started[k] = lsb_now();
			next++;
			running++;
		}
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (k = 0; k < jobs && slots[k] != pid; k++)
			;
		if (k == jobs)
			continue;
		i = slot_task[k];
		slots[k] = 0;
		running--;
		done++;
		res[i].wall = lsb_now() - started[k];
		res[i].status = WIFEXITED(status) ? WEXITSTATUS(status) :
						     DRIVER_CRASHED;
		if (res[i].status > DRIVER_UNSUPPORTED || res[i].status == 2 ||
		    res[i].status == DRIVER_BUILD_FAILED ||
		    res[i].status == DRIVER_UNSUPPORTED)
			res[i].status = DRIVER_ERROR;
		counts[res[i].status]++;
		if (res[i].status != DRIVER_OK) {
			failed++;
			if (tty)
				fprintf(stderr, "\r\033[K");
			fprintf(stderr, "suite: %s: %s\n",
				suite_pattern_name(todo[i]),
				status_name(res[i].status));
		}
		if (tty)
			progress(done, nr, failed, start);
	}
	wall = lsb_now() - start;
	if (tty)
		fprintf(stderr, "\r\033[K");
	if (ret)
		goto release;

	write_summary(&ctx, todo, nr, res, nr_cpus, wall, counts);
	printf("suite: %d patterns on %s (%.12s), %s (%d CPUs), %s each, seed %s\n",
	       nr, ctx.rev.name, ctx.rev.commit, ctx.topology, nr_cpus,
	       ctx.duration, ctx.seed);
	printf("finished %d, crashed %d, hung %d, errors %d in %.1f s (%.2f patterns/s, %d at a time)\n",
	       counts[DRIVER_OK], counts[DRIVER_CRASHED], counts[DRIVER_HUNG],
	       counts[DRIVER_ERROR], wall, wall > 0 ? nr / wall : 0.0, jobs);
	for (k = 0; k < nr; k++) {
		char *msg;

		if (res[k].status == DRIVER_OK)
			continue;
		msg = failure_message(&ctx, todo[k]);
		printf("%s: %s: %s\n", status_name(res[k].status),
		       suite_pattern_name(todo[k]), msg);
		free(msg);
	}
	printf("results in %s\n", ctx.out);
	ret = counts[DRIVER_ERROR] ? DRIVER_ERROR :
	      counts[DRIVER_CRASHED] ? DRIVER_CRASHED :
	      counts[DRIVER_HUNG] ? DRIVER_HUNG : 0;
release:
	driver_revision_release(&ctx.rev);
cleanup:
	free(todo);
	free(res);
	free(slots);
	free(started);
	free(slot_task);
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
