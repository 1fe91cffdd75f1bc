// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched-units.c - what report, sweep and trend share: the engine
 * options, the suite's pattern files and the progress line.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "metrics/metrics.h"
#include "sim/sim.h"
#include "suite/suite.h"
#include "workloads/workloads.h"

void engine_defaults(struct driver_engine *e)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(e, 0, sizeof(*e));
	e->jobs = cpus > 0 && cpus <= 256 ? (int)cpus : 2;
	e->retries = 2;
}

int cmd_opt_duration(const char *opt, const char *arg)
{
	uint64_t ns;

	if (!sim_parse_duration(&ns, arg))
		return 0;
	fprintf(stderr, "error: %s '%s': " SIM_DURATION_EXPECTED "\n", opt, arg);
	return -1;
}

int cmd_opt_seed(const char *arg, unsigned long long *out)
{
	uint64_t seed;

	if (sim_parse_seed(&seed, arg)) {
		fprintf(stderr, "error: --seed '%s': " SIM_SEED_EXPECTED "\n",
			arg);
		return -1;
	}
	if (out)
		*out = seed;
	return 0;
}

int cmd_instrument(struct driver_paths *paths, const char *arg)
{
	int variant = adapter_variant_parse(arg);

	if (variant >= 0 && !setenv("LSBISECT_INSTRUMENT", arg, 1)) {
		if (paths)
			paths->variant = variant;
		return 0;
	}
	fprintf(stderr, "error: --instrument '%s': %s\n", arg,
		ADAPTER_VARIANT_EXPECTED);
	return -1;
}

int engine_option(struct driver_engine *e, int opt, const char *arg)
{
	static const char *const keys[] = {
		[OPT_ENGINE - OPT_ENGINE] = "engine",
		[OPT_PARTITION - OPT_ENGINE] = "partition",
		[OPT_SLURM_OPT - OPT_ENGINE] = "slurm-opt",
		[OPT_SLURM_TASKS - OPT_ENGINE] = "slurm-tasks",
		[OPT_SLURM_RETRIES - OPT_ENGINE] = "slurm-retries",
	};
	const char *key;

	if (opt == OPT_INSTRUMENT)
		return cmd_instrument(NULL, arg);
	if (opt == 'j')
		key = "jobs";
	else if (opt >= OPT_ENGINE && opt <= OPT_SLURM_RETRIES)
		key = keys[opt - OPT_ENGINE];
	else
		return 1;
	if (!driver_engine_set(e, key, arg))
		return 0;
	if (!strcmp(key, "jobs"))
		fprintf(stderr, "error: --jobs '%s': expected an integer from 1 to 256\n",
			arg);
	else
		fprintf(stderr, "error: %s\n", driver_last_error());
	return -1;
}

int suite_files(const char *dir, const int *patterns, int np, int nr_cpus)
{
	char path[4300], err[1024];
	int p;

	if (lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (p = 0; p < np; p++) {
		char *json = suite_pattern_json(patterns[p], nr_cpus), *old;
		struct workload w;

		if (!json) {
			fprintf(stderr, "error: out of memory\n");
			return -1;
		}
		lsb_pathf(path, sizeof(path), "%s/%s.json", dir,
			  suite_pattern_name(patterns[p]));
		old = lsb_read_file(path, NULL);
		/* the same bytes: keep the file (and its cache keys) */
		if ((!old || strcmp(old, json)) && lsb_write_atomic(path, json, strlen(json))) {
			fprintf(stderr, "error: cannot write '%s': %s\n", path,
				strerror(errno));
			free(old);
			free(json);
			return -1;
		}
		free(old);
		free(json);
		if (workload_parse(&w, path, err, sizeof(err))) {
			fprintf(stderr, "error: suite pattern '%s': %s\n",
				suite_pattern_name(patterns[p]), err);
			return -1;
		}
		workload_release(&w);
	}
	return 0;
}

const char *cmd_base_name(const char *s)
{
	const char *b = strrchr(s, '/');

	return b && b[1] ? b + 1 : s;
}

int opt_int(const char *opt, const char *arg, long lo, long hi, int *out)
{
	long v;

	if (lo < INT_MIN || hi > INT_MAX || lsb_parse_long(arg, lo, hi, &v)) {
		fprintf(stderr, "error: %s '%s': expected an integer from %ld to %ld\n",
			opt, arg, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int opt_double(const char *opt, const char *arg, double lo, double hi,
	       double *out)
{
	if (lsb_parse_double(arg, lo, hi, out)) {
		fprintf(stderr, "error: %s '%s': expected a number from %g to %g\n",
			opt, arg, lo, hi);
		return -1;
	}
	return 0;
}

int cmd_topology_arg(const char **topology)
{
	if (!driver_keep_topology(topology))
		return 0;
	fprintf(stderr, "error: %s\n", driver_last_error());
	return -1;
}

int cmd_check_specs(const char **workload, const char *topology,
		    const char *duration, const char *cmdline)
{
	if (!driver_check_specs(workload, topology, duration, cmdline))
		return 0;
	fprintf(stderr, "error: %s\n", driver_last_error());
	return -1;
}

int opt_governor(const char *arg)
{
	if (sim_parse_governor(arg) >= 0)
		return 0;
	fprintf(stderr, "error: --governor '%s': " SIM_GOVERNOR_EXPECTED "\n",
		arg);
	return -1;
}

int opt_cpuidle(const char *arg)
{
	const char *governor;

	if (sim_parse_cpuidle(arg, &governor) >= 0)
		return 0;
	fprintf(stderr, "error: --cpuidle '%s': " SIM_CPUIDLE_EXPECTED "\n",
		arg);
	return -1;
}

int opt_jitter(const char *arg, char *canon, size_t len)
{
	double f;

	if (sim_parse_jitter(&f, arg)) {
		fprintf(stderr, "error: --jitter '%s': %s\n", arg,
			SIM_JITTER_EXPECTED);
		return -1;
	}
	if (!canon)
		return 0;
	lsb_json_number(canon, len, f);
	if (!(f > 0))
		*canon = '\0';
	return 0;
}

/* The progress line while @name is prepared, on a terminal only. */
static void preparing(const char *name)
{
	if (!isatty(2))
		return;
	if (name)
		fprintf(stderr, "linsched: preparing %s...\r", name);
	else
		fprintf(stderr, "\033[K");
}

int cmd_prepare(struct driver_revision *rev, const struct driver_paths *paths,
		const char *repo, const char *name, int jobs, int verbose)
{
	int ret;

	preparing(name);
	ret = driver_prepare(rev, paths, repo, name, jobs, verbose);
	preparing(NULL);
	if (ret)
		fprintf(stderr, "error: %s\n", driver_last_error());
	return ret;
}

int cmd_target_prepare(struct driver_target *t,
		       const struct driver_paths *paths, const char *repo,
		       const char *name, int jobs, int verbose)
{
	int ret;

	preparing(name);
	ret = driver_target_prepare(t, paths, repo, name, jobs, verbose);
	preparing(NULL);
	if (ret) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return ret;
	}
	if (t->status != DRIVER_OK) {
		fprintf(stderr, "error: revision '%s' does not build: %s\n",
			name, t->reason);
		return DRIVER_BUILD_FAILED;
	}
	return 0;
}

int cmd_sim_status(const struct driver_revision *rev, int ret)
{
	if (ret == DRIVER_USAGE)	/* the user's: no revision to name */
		fprintf(stderr, "error: %s\n", driver_last_error());
	else if (ret == DRIVER_ERROR)
		fprintf(stderr, "error: revision '%s': %s\n", rev->name,
			driver_last_error());
	else if (ret)
		fprintf(stderr, "error: revision '%s' (%.12s): %s\n", rev->name,
			rev->commit, driver_last_error());
	return ret;
}

int cmd_split_range(const char *range, char *good, char *bad, size_t len)
{
	const char *dots = strstr(range, "..");

	if (dots && dots[2] == '.') {
		fprintf(stderr, "error: '%s': expected GOOD..BAD (two dots; git's A...B, the commits of either side, is not a range of a history)\n",
			range);
		return -1;
	}
	if (!dots || dots == range || !dots[2] || strstr(dots + 2, "..") ||
	    (size_t)(dots - range) >= len || strlen(dots + 2) >= len) {
		fprintf(stderr, "error: '%s' is not a range GOOD..BAD\n", range);
		return -1;
	}
	snprintf(good, len, "%.*s", (int)(dots - range), range);
	snprintf(bad, len, "%s", dots + 2);
	return 0;
}

int cmd_check_paths(const struct lsb_path_arg *args, size_t n)
{
	char err[8400];

	if (!lsb_check_paths(args, n, err, sizeof(err)))
		return 0;
	fprintf(stderr, "error: %s\n", err);
	return -1;
}

int cmd_check_out_dir(const char *opt, const char *dir)
{
	struct lsb_path_arg a = { opt, dir, LSB_OUT_DIR };

	return cmd_check_paths(&a, 1);
}

int cmd_check_metric(const char *metric, const struct driver_paths *paths)
{
	const struct metric_def *m = metric_find(metric);
	const char *variant = driver_variant_name(paths);

	if (!m || !m->variant || !strcmp(m->variant, variant))
		return 0;
	fprintf(stderr, "error: --metric '%s': only a build made with --instrument %s has it (this one is %s): add --instrument %s\n",
		metric, m->variant, variant, m->variant);
	return -1;
}

int cmd_exit(int ret)
{
	int err = ferror(stdout) ? EIO : 0;

	if (fflush(stdout))
		err = errno;
	if (!err)
		return ret;
	fprintf(stderr, "error: cannot write standard output: %s\n",
		strerror(err));
	return ret ? ret : 1;
}

int cmd_units_status(const struct driver_unit *units, size_t n, int other)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (units[i].state == DRIVER_UNIT_FAILED &&
		    units[i].status != DRIVER_USAGE)
			return other;
	return 2;
}

static void progress(size_t done, size_t total, size_t ran, void *arg)
{
	struct units_progress *p = arg;
	const struct driver_engine *e = p->engine;
	double el = lsb_now() - p->start, rate = el > 0 ? ran / el : 0;

	if (!ran)
		p->cached = done;
	if (!p->tty)
		return;
	fprintf(stderr, "\r%s: %zu/%zu runs (%zu cached)", p->what, done,
		total, p->cached);
	if (ran && rate > 0)
		fprintf(stderr, ", %.1f/s, ~%.0fs left", rate,
			(total - done) / rate);
	if (e && e->slurm && e->task_total) {
		fprintf(stderr, "; slurm tasks: %d pending, %d running, %d/%d done",
			e->task_pending, e->task_running, e->task_done,
			e->task_total);
		if (e->resubmitted)
			fprintf(stderr, ", %d resubmitted", e->resubmitted);
	}
	fputs("\033[K", stderr);
}

int units_run(const struct driver_paths *paths, struct driver_unit *units,
	      size_t n, struct driver_engine *engine,
	      struct units_progress *p)
{
	int ret;

	p->start = lsb_now();
	p->engine = engine;
	p->cached = 0;
	ret = driver_units_run(paths, units, n, engine, progress, p);
	if (p->tty)
		fputs("\r\033[K", stderr);
	return ret;
}

static int in_suite(const char *suite, const char *const *globs, int nglobs,
		    int i)
{
	const char *fam = suite_pattern_family(i);
	int k, first;

	if (!strcmp(suite, "quick")) {
		for (first = i; first > 0 &&
		     !strcmp(suite_pattern_family(first - 1), fam); first--)
			;
		if (i - first >= 2)
			return 0;
	} else if (strcmp(suite, "full") && strcmp(suite, fam)) {
		return 0;
	}
	for (k = 0; k < nglobs; k++)
		if (!fnmatch(globs[k], suite_pattern_name(i), 0))
			return 1;
	return !nglobs;
}

int suite_select(const char *suite, const char *const *globs, int nglobs,
		 int **patterns, int *np)
{
	const char *const *fams = NULL;
	size_t nf = 0, j;
	int i;

	*np = 0;
	*patterns = NULL;
	if (strcmp(suite, "full") && strcmp(suite, "quick")) {
		fams = suite_families(&nf);
		for (j = 0; j < nf && strcmp(fams[j], suite); j++)
			;
		if (j == nf) {
			fprintf(stderr, "error: --suite '%s': expected full, quick or a family ('linsched suite list --families')\n",
				suite);
			return 2;
		}
	}
	*patterns = calloc(suite_count(), sizeof(**patterns));
	if (!*patterns) {
		fprintf(stderr, "error: out of memory\n");
		return 1;
	}
	for (i = 0; i < suite_count(); i++)
		if (in_suite(suite, globs, nglobs, i))
			(*patterns)[(*np)++] = i;
	if (!*np) {
		fprintf(stderr, "error: no pattern of suite '%s' matches\n",
			suite);
		free(*patterns);
		*patterns = NULL;
		return 2;
	}
	return 0;
}
