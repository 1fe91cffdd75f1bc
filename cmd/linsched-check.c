// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched check - the pre-submit gate: a kernel clone's uncommitted
 * changes, or a series of patches, built and run through the suite
 * against BASE, each patch against the one before it; exit 1 naming the
 * first change that regresses. bisect/ makes the changes commits of our
 * own object store (nothing is written into the user's repository),
 * driver/ builds and runs them like any revision, report/ judges and
 * writes.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "bugs/bugs.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "report/report.h"
#include "suite/suite.h"

static const char usage_check[] =
"usage: linsched check [BASE] [options]\n"
"\n"
"The pre-submit gate. Run inside a kernel clone (or name it with --repo):\n"
"the work tree's changes to the build subset, staged or not, against BASE\n"
"(default HEAD), as 'git diff BASE' shows them; untracked files are left\n"
"out. With --patch, the patches applied to BASE instead (an mbox from 'git\n"
"format-patch', or 'git diff' output), each patch of a series checked\n"
"against the one before it. Nothing is written into the repository: the\n"
"changed files become a commit of lsbisect's own object store under the\n"
"cache, which reads the repository's objects, and are built, run and cached\n"
"by content like any revision.\n"
"\n"
"Each change runs the workload suite on both sides over some machines and\n"
"is judged as 'linsched report' judges: a regression is a median worse by\n"
"more than the threshold, with every seed beyond the other side's. The\n"
"verdict names the first change that fails, with the patterns and metrics;\n"
"a table in the kernel test robot's form lists every change past the\n"
"threshold (medians, the seeds' relative standard deviation where it is 1%\n"
"or more, the change).\n"
"\n"
"  -r, --repo DIR      the kernel clone (default: the current directory)\n"
"  -p, --patch FILE    a patch or an mbox of patches (repeatable; the\n"
"                      files' patches in order make one series)\n"
"      --each          check each patch against the one before it (the\n"
"                      default for a series of several)\n"
"      --whole         check the series applied whole against BASE\n"
"  -s, --suite NAME    quick (default: two patterns of each family), full,\n"
"                      or a family ('linsched suite list -f')\n"
"  -m, --match GLOB    only patterns matching GLOB (repeatable)\n"
"  -t, --topology T    a machine (repeatable; default quad-smt,\n"
"                      dynamiq-1+3+4 and numa-2: SMT, asymmetric, NUMA)\n"
"  -T, --threshold PCT regression threshold in percent (default 5)\n"
"  -n, --seeds N       seeds 1..N per run (default 3)\n"
"  -d, --duration D    simulated time per run (default 10s)\n"
"      --bugs LIST     the bug catalogue's gate: all (default: the entries\n"
"                      of BASE's series, 6.1 for 6.1.192), none, or\n"
"                      entries by name, comma-separated ('linsched bugs\n"
"                      list'): each entry's workload and machine on both\n"
"                      sides; a change whose figure crosses to the buggy\n"
"                      side of the entry's threshold brings the bug back\n"
"                      and fails (entries of an instrumented build are\n"
"                      left out)\n"
"      --check         the invariants gate too: a run whose every seed\n"
"                      breaks more invariants (idle CPU beside a waiting\n"
"                      task, starvation, useless migrations, WARNs) than\n"
"                      every seed of its predecessor fails\n"
"      --junit FILE    the verdicts as JUnit XML: a testsuite per change, a\n"
"                      testcase per pattern and machine\n"
"      --tap FILE      the verdicts as TAP\n"
"  -o, --out DIR       the report of the change, as 'linsched report'\n"
"                      writes it (report.html, report.txt, report.json,\n"
"                      plots/, the suite's workload files); for a series,\n"
"                      DIR/N for patch N (default: DATA/check-COMMIT,\n"
"                      DATA being build/ in a build tree)\n"
"  -j, --jobs N        simulations at a time, and build jobs (default: the\n"
"                      number of CPUs)\n"
ENGINE_USAGE
"      --timeout S     wall-clock limit of a simulation (default 600)\n"
"  -q, --quiet         no progress line (shown on a terminal only)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0 no regression (or no change to the build subset), 1 a\n"
"change regresses past the threshold, brings a catalogued bug back, or\n"
"breaks an invariant (--check), 2 usage or a patch that does not apply\n"
"(its file and hunk named), 3 a change that does not build (the compiler's\n"
"message printed), 4 an error stopped it (BASE does not build, a run could\n"
"not be made).\n";

#define MAX_PATCH_FILES 64

enum { OPT_EACH = 0x2000, OPT_WHOLE, OPT_CHECK, OPT_JUNIT, OPT_TAP,
       OPT_BUGS };

/* What the command line asks for. */
struct check_options {
	const char *base;
	const char *repo;
	const char *patch_files[MAX_PATCH_FILES];
	int nr_patch_files;
	int each;		/* -1: by the series' length */
	struct cmd_suite_opts s;
	int invariants;
	const char *bugs;	/* "all", "none" or names */
	const char *junit, *tap, *out;
	int quiet, verbose;
	struct driver_engine engine;
};

static const struct option check_long_options[] = {
	{ "repo", required_argument, NULL, 'r' },
	{ "patch", required_argument, NULL, 'p' },
	{ "each", no_argument, NULL, OPT_EACH },
	{ "whole", no_argument, NULL, OPT_WHOLE },
	CMD_SUITE_OPTIONS,
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "bugs", required_argument, NULL, OPT_BUGS },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "tap", required_argument, NULL, OPT_TAP },
	{ "out", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	ENGINE_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* One option into @o: 0, or 2 (usage, printed). */
static int check_option(struct check_options *o, int c, const char *arg)
{
	int ret = cmd_suite_option(&o->s, c, arg);

	if (ret >= 0)
		return ret;
	switch (c) {
	case 'r': o->repo = arg; return 0;
	case 'p':
		if (o->nr_patch_files == MAX_PATCH_FILES) {
			fprintf(stderr, "error: at most %d --patch options\n",
				MAX_PATCH_FILES);
			return 2;
		}
		o->patch_files[o->nr_patch_files++] = arg;
		return 0;
	case OPT_EACH: o->each = 1; return 0;
	case OPT_WHOLE: o->each = 0; return 0;
	case OPT_CHECK: o->invariants = 1; return 0;
	case OPT_BUGS: o->bugs = arg; return 0;
	case OPT_JUNIT: o->junit = arg; return 0;
	case OPT_TAP: o->tap = arg; return 0;
	case 'o': o->out = arg; return 0;
	case 'q': o->quiet = 1; return 0;
	case 'v': o->verbose = 1; return 0;
	default:
		c = engine_option(&o->engine, c, arg);
		if (c > 0)
			fputs(usage_check, stderr);
		return c ? 2 : 0;
	}
}

/* The command line into @o: 0, 1 after --help, or 2 (usage, printed). */
static int parse_check_options(struct check_options *o, int argc, char **argv)
{
	struct lsb_path_arg paths[MAX_PATCH_FILES + 3];
	size_t np = 0;
	int c, ret, i;

	memset(o, 0, sizeof(*o));
	cmd_suite_defaults(&o->s, "quick");
	o->each = -1;
	o->repo = ".";
	o->base = "HEAD";
	o->bugs = "all";
	engine_defaults(&o->engine);
	while ((c = getopt_long(argc, argv, "r:p:s:m:t:T:n:d:o:j:qvh",
				check_long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_check, stdout);
			return 1;
		}
		ret = check_option(o, c, optarg);
		if (ret)
			return ret;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "error: linsched check takes one revision, BASE\n");
		fputs(usage_check, stderr);
		return 2;
	}
	if (optind < argc)
		o->base = argv[optind];
	if (o->each >= 0 && !o->nr_patch_files) {
		fprintf(stderr, "error: --each and --whole are for a series of --patch files\n");
		return 2;
	}
	for (i = 0; i < o->nr_patch_files; i++)
		paths[np++] = (struct lsb_path_arg){ "--patch",
						     o->patch_files[i], LSB_IN };
	if (o->junit)
		paths[np++] = (struct lsb_path_arg){ "--junit", o->junit,
						     LSB_OUT_FILE };
	if (o->tap)
		paths[np++] = (struct lsb_path_arg){ "--tap", o->tap,
						     LSB_OUT_FILE };
	if (o->out)
		paths[np++] = (struct lsb_path_arg){ "--out", o->out,
						     LSB_OUT_DIR };
	if (cmd_check_paths(paths, np))
		return 2;
	cmd_suite_default_topologies(&o->s);
	return 0;
}

/* A change to check: a commit of the store and what the texts call it. */
struct change {
	char commit[41];
	char name[512];
};

/* The work tree's changes as one commit: 0, 1 when there are none, -1. */
static int worktree_change(bisect_repo *store, const struct check_options *o,
			   const char *base_hex, struct change *ch)
{
	size_t files, outside;

	if (bisect_commit_worktree(store, o->repo, base_hex, ch->commit,
				   &files, &outside)) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		return -1;
	}
	fprintf(stderr, "check: the work tree of %s changes %zu file%s of the build subset against %s (%.12s)",
		o->repo, files, files == 1 ? "" : "s", o->base, base_hex);
	if (outside)
		fprintf(stderr, "; %zu more outside it, which no build reads",
			outside);
	fputc('\n', stderr);
	if (!files)
		return 1;
	snprintf(ch->name, sizeof(ch->name), "the work tree of %s", o->repo);
	return 0;
}

/*
 * Every patch of every file applied in turn, from BASE: @out receives a
 * change per patch; 0, or 2 (a patch that does not apply or a file
 * that holds none, printed), or -1 (printed).
 */
static int patch_changes(bisect_repo *store, const struct check_options *o,
			 const char *base_hex, struct change **out, size_t *n,
			 struct change *failed, char *why, size_t len)
{
	struct bisect_patch *all = NULL;
	const char **from = NULL;
	size_t nr = 0, cap = 0, cap2 = 0, i;
	struct change *ch = NULL;
	int f, ret = -1;

	for (f = 0; f < o->nr_patch_files; f++) {
		struct bisect_patch *v;
		size_t k, len;
		char *text = lsb_read_file(o->patch_files[f], &len);

		if (!text) {
			fprintf(stderr, "error: --patch '%s': %s\n",
				o->patch_files[f], strerror(errno));
			ret = 2;
			goto out;
		}
		ret = bisect_patches_parse(text, len, o->patch_files[f], &v, &k);
		free(text);
		if (ret) {
			fprintf(stderr, "error: --patch %s\n", bisect_last_error());
			ret = ret == BISECT_EINVAL ? 2 : -1;
			goto out;
		}
		if (LSB_GROW(all, nr + k, cap) || LSB_GROW(from, nr + k, cap2)) {
			bisect_patches_free(v, k);
			fprintf(stderr, "error: out of memory\n");
			ret = -1;
			goto out;
		}
		memcpy(all + nr, v, k * sizeof(*v));
		for (i = 0; i < k; i++)
			from[nr + i] = o->patch_files[f];
		free(v);
		nr += k;
	}
	ch = calloc(nr, sizeof(*ch));
	if (!ch) {
		fprintf(stderr, "error: out of memory\n");
		ret = -1;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		int err = bisect_commit_patch(store, i ? ch[i - 1].commit :
					      base_hex, &all[i], ch[i].commit);

		if (err) {
			fprintf(stderr, "error: patch %zu/%zu of '%s': %s\n",
				i + 1, nr, from[i], bisect_last_error());
			/* kept for --junit and --tap */
			snprintf(failed->name, sizeof(failed->name),
				 "patch %zu/%zu '%.400s'", i + 1, nr,
				 all[i].title);
			snprintf(why, len, "%s", bisect_last_error());
			ret = err == BISECT_EAPPLY || err == BISECT_EINVAL ?
			      2 : -1;
			goto out;
		}
		snprintf(ch[i].name, sizeof(ch[i].name), "patch %zu/%zu '%.400s'",
			 i + 1, nr, all[i].title);
	}
	fprintf(stderr, "check: %zu patch%s applied to %s (%.12s)\n", nr,
		nr == 1 ? "" : "es", o->base, base_hex);
	*out = ch;
	*n = nr;
	ch = NULL;
	ret = 0;
out:
	free(ch);
	free(from);
	bisect_patches_free(all, nr);
	return ret;
}

/*
 * The changes, as commits of the store: 0, 1 when there is nothing to
 * check, or the exit status (2, 4; printed).
 */
static int make_changes(const struct check_options *o,
			const struct driver_paths *paths, char *store_path,
			size_t len, char base_hex[41], struct change **out,
			size_t *n, struct change *failed, char *why,
			size_t why_len)
{
	bisect_repo *store = NULL;
	char parent[4200];
	int ret;

	*out = NULL;
	*n = 0;
	lsb_pathf(parent, sizeof(parent), "%s/check", paths->cache_dir);
	ret = bisect_store_open(&store, parent, o->repo, o->base, base_hex,
				store_path, len);
	if (ret) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		/* no repository there, or no BASE in it: the user's words */
		return ret == BISECT_ENOTFOUND ? 2 : 4;
	}
	if (o->nr_patch_files) {
		ret = patch_changes(store, o, base_hex, out, n, failed, why,
				    why_len);
		ret = ret < 0 ? 4 : ret;
	} else {
		*out = calloc(1, sizeof(**out));
		ret = *out ? worktree_change(store, o, base_hex, *out) : -1;
		if (!*out)
			fprintf(stderr, "error: out of memory\n");
		*n = ret == 0;
		ret = ret < 0 ? 4 : ret;
	}
	bisect_repo_free(store);
	return ret;
}

/* The steps: each change against the one before it, or the last whole. */
static size_t check_steps(const struct check_options *o, size_t nr_changes,
			  int *each)
{
	*each = o->each >= 0 ? o->each : 1;
	return *each ? nr_changes : 1;
}

/*
 * A step's report, made, judged and written into @out (what 'linsched
 * report OLD NEW' writes, read from the store @repo): 0, or the exit
 * status (printed).
 */
static int step_report(struct report *rep, const struct check_options *o,
		       const int *patterns, int np,
		       const struct driver_target *old,
		       const struct driver_target *new,
		       const struct driver_paths *paths, const char *repo,
		       struct driver_engine *engine, const char *out, int tty)
{
	double t0 = lsb_now();
	int ret;

	if (report_init(rep)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		return 4;
	}
	ret = cmd_report_topologies(rep, &o->s);
	if (ret)
		return ret;
	rep->suite = o->s.suite;
	rep->duration = o->s.duration;
	rep->seeds = o->s.seeds;
	rep->threshold = o->s.threshold;
	rep->top = 20;
	rep->timeout = o->s.timeout;
	rep->patterns = patterns;
	rep->nr_patterns = np;
	rep->rev[0] = old;
	rep->rev[1] = new;
	lsb_pathf(rep->out, sizeof(rep->out), "%s", out);
	ret = cmd_report_run(rep, paths, engine, tty, "check");
	if (ret)
		return ret;
	if (report_judge(rep)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		return 4;
	}
	return cmd_report_files(rep, paths, repo, t0) ? 4 : 0;
}

/* @write's output into @path at once ("-": standard output): 0 or 4. */
static int write_output(const char *path, const struct report_check *c,
			int (*write)(FILE *, const struct report_check *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret = 4;

	if (!f || write(f, c)) {
		if (f)
			fclose(f);
		fprintf(stderr, "error: %s: out of memory\n", path);
		goto out;
	}
	fclose(f);
	if (!strcmp(path, "-")) {
		fwrite(text, 1, len, stdout);
		ret = 0;
	} else if (lsb_write_atomic(path, text, len)) {
		fprintf(stderr, "error: '%s': %s\n", path, strerror(errno));
	} else {
		ret = 0;
	}
out:
	free(text);
	return ret;
}

/* --junit and --tap: 0, or 4 (printed). */
static int write_outputs(const struct report_check *c,
			 const struct check_options *o)
{
	if (o->junit && write_output(o->junit, c, report_check_junit))
		return 4;
	if (o->tap && write_output(o->tap, c, report_check_tap))
		return 4;
	return 0;
}

/* The check's state, released by check_release(). */
struct check {
	struct driver_paths paths;
	char store[4200];
	char base_hex[41];
	struct change *changes;
	size_t nr_changes;
	struct driver_target *targets;	/* BASE, then each change */
	size_t nr_targets;
	struct report *reps;
	struct report_check_step *steps;
	struct report_check c;
	int *patterns;
	int nr_patterns;
	char out[4200];
	struct bug *catalogue;		/* the bug gate's entries, */
	size_t nr_catalogue;
	const struct bug **bugs;	/* those chosen */
	char (*fixes)[320];		/* and their fixes, in words */
	size_t nr_bugs;
	char series[32];		/* BASE's ("6.1"), or "" */
	struct change not_applied;	/* a patch that does not apply, */
	char why[2048];			/* and why */
};

static void check_release(struct check *k)
{
	size_t i;

	for (i = 0; k->reps && i < k->c.nr_steps; i++)
		report_release(&k->reps[i]);
	for (i = 0; k->targets && i < k->nr_targets; i++)
		driver_target_release(&k->targets[i]);
	for (i = 0; k->steps && i < k->c.nr_steps; i++)
		free(k->steps[i].bugs);
	free(k->reps);
	free(k->steps);
	free(k->targets);
	free(k->changes);
	free(k->patterns);
	free(k->bugs);
	free(k->fixes);
	bugs_free(k->catalogue, k->nr_catalogue);
}

/*
 * A patch that does not apply, for CI: --junit and --tap say so as a
 * failing "apply" testcase. 0, or 4 (printed).
 */
static int write_not_applied(struct check *k, const struct check_options *o)
{
	struct report_check_step st = {
		.name = k->not_applied.name,
		.build_error = k->why,
		.not_applied = 1,
	};
	struct report_check c = { .steps = &st, .nr_steps = 1 };

	report_check_judge(&c);
	return write_outputs(&c, o);
}

/* Whether @name is in the comma-separated @list. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return 1;
	return 0;
}

/* The --bugs list's names are entries: 0, or 2 (printed). */
static int check_bug_names(const struct check *k, const char *list)
{
	char name[256];
	const char *p, *e;

	for (p = list; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		snprintf(name, sizeof(name), "%.*s", (int)(e - p), p);
		if (!bug_find(k->catalogue, k->nr_catalogue, name)) {
			fprintf(stderr, "error: --bugs: no entry '%s' in the catalogue ('linsched bugs list')\n",
				name);
			return 2;
		}
	}
	return 0;
}

/*
 * The bug catalogue, before anything is built, and the --bugs list's
 * names checked against it. 0, 2 (an unknown name), 4; printed.
 */
static int load_bugs(struct check *k, const struct check_options *o)
{
	char dir[4200];

	if (!strcmp(o->bugs, "none"))
		return 0;
	lsb_pathf(dir, sizeof(dir), "%s/bugs", k->paths.share_dir);
	if (bugs_load(dir, &k->catalogue, &k->nr_catalogue)) {
		fprintf(stderr, "error: %s\n", bugs_last_error());
		return 4;
	}
	if (strcmp(o->bugs, "all") && check_bug_names(k, o->bugs))
		return 2;
	return 0;
}

/*
 * The catalogue's entries the bug gate runs: with --bugs all, those of
 * BASE's series ("6.1" of BASE's release 6.1.192: an entry's workload
 * and threshold are its series'), every one when BASE's release is not
 * known; or those --bugs names. An instrumented build's are left out:
 * the gate builds plain. 0 or 4 (printed).
 */
static int choose_bugs(struct check *k, const struct check_options *o)
{
	int all = !strcmp(o->bugs, "all");
	const char *v = k->targets[0].version;
	const char *dot = strchr(v, '.');
	size_t i, len = dot ? strcspn(dot + 1, ".") + (size_t)(dot + 1 - v) : 0;

	if (!k->nr_catalogue)
		return 0;
	k->bugs = calloc(k->nr_catalogue + 1, sizeof(*k->bugs));
	k->fixes = calloc(k->nr_catalogue + 1, sizeof(*k->fixes));
	if (!k->bugs || !k->fixes) {
		fprintf(stderr, "error: out of memory\n");
		return 4;
	}
	snprintf(k->series, sizeof(k->series), "%.*s", (int)len, v);
	for (i = 0; i < k->nr_catalogue; i++) {
		const struct bug *b = &k->catalogue[i];

		if (b->instrument || (!all && !listed(o->bugs, b->name)) ||
		    (all && len && strcmp(b->series, k->series)))
			continue;
		snprintf(k->fixes[k->nr_bugs], sizeof(k->fixes[0]), "%s%s '%s'",
			 b->finding ? "finding, from " : "", b->fix_commit,
			 b->fix_subject);
		k->bugs[k->nr_bugs++] = b;
	}
	return 0;
}

/* The run of entry @b on target @t. */
static void bug_unit(struct driver_unit *u, const struct driver_target *t,
		     const struct bug *b, int timeout)
{
	memset(u, 0, sizeof(*u));
	u->target = t;
	u->spec.workload = b->workload;
	u->spec.topology = b->topology;
	u->spec.duration = b->duration;
	u->spec.seed = b->seed;
	u->spec.cpuidle = b->cpuidle;	/* the governor its sides run */
	u->spec.timeout_s = timeout;
}

/* Entry @b's figure on target @t, from the cache: NAN when it has none. */
static double bug_value(const struct check *k, const struct driver_target *t,
			const struct bug *b, int timeout)
{
	const char *metric = b->metric;
	struct driver_unit u;
	struct driver_result res;
	double v = NAN;

	bug_unit(&u, t, b, timeout);
	if (driver_target_result(&res, &k->paths, t, &u.spec,
				 DRIVER_RESULT_LOOKUP))
		return NAN;
	if (res.status == DRIVER_OK &&
	    driver_result_metrics(res.json, &metric, 1, &v))
		v = NAN;
	driver_result_release(&res);
	return v;
}

/* Step @s's entries, OLD and NEW, from the cache: 0 or 4 (printed). */
static int bug_step(struct check *k, size_t s, const struct driver_target *old,
		    const struct driver_target *new, int timeout)
{
	struct report_check_step *st = &k->steps[s];
	size_t i;
	int r;

	st->bugs = calloc(k->nr_bugs + 1, sizeof(*st->bugs));
	if (!st->bugs) {
		fprintf(stderr, "error: out of memory\n");
		return 4;
	}
	st->nr_bugs = k->nr_bugs;
	for (i = 0; i < k->nr_bugs; i++) {
		const struct bug *b = k->bugs[i];
		struct report_check_bug *cb = &st->bugs[i];

		cb->name = b->name;
		cb->fix = k->fixes[i];
		cb->metric = b->metric;
		cb->buggy_above = b->buggy_above;
		cb->threshold = b->threshold;
		for (r = 0; r < 2; r++) {
			cb->value[r] = bug_value(k, r ? new : old, b, timeout);
			cb->buggy[r] = !isnan(cb->value[r]) &&
				       bug_is_buggy(b, cb->value[r]);
		}
	}
	return 0;
}

/*
 * The bug gate: every chosen entry on every built target, then each
 * checked step's OLD and NEW. 0, or the exit status (printed).
 */
static int run_bugs(struct check *k, const struct check_options *o,
		    struct driver_engine *engine, int tty)
{
	struct units_progress prog = { .what = "check: bugs", .tty = tty };
	struct driver_unit *units;
	char scope[64];
	size_t t, i, n = 0;
	int ret = 4;

	if (!k->nr_bugs)
		return 0;
	units = calloc(k->nr_targets * k->nr_bugs + 1, sizeof(*units));
	if (!units) {
		fprintf(stderr, "error: out of memory\n");
		return 4;
	}
	for (t = 0; t < k->nr_targets; t++)
		for (i = 0; k->targets[t].exe && i < k->nr_bugs; i++)
			bug_unit(&units[n++], &k->targets[t], k->bugs[i],
				 o->s.timeout);
	i = (size_t)units_run(&k->paths, units, n, engine, &prog);
	if (i) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = (int)i > 0 ? cmd_units_status(units, n, 4) : 4;
		goto out;
	}
	if (strcmp(o->bugs, "all"))
		snprintf(scope, sizeof(scope), "named");
	else if (*k->series)
		snprintf(scope, sizeof(scope), "of the %s series", k->series);
	else
		snprintf(scope, sizeof(scope), "of every series (BASE's release unknown)");
	fprintf(stderr, "check: %zu catalogued bug%s %s on %zu build%s, %zu runs from the cache\n",
		k->nr_bugs, k->nr_bugs == 1 ? "" : "s", scope, n / k->nr_bugs,
		n / k->nr_bugs == 1 ? "" : "s", prog.cached);
	ret = 0;
	for (i = 0; !ret && i < k->c.nr_steps; i++)
		if (k->steps[i].rep)
			ret = bug_step(k, i, k->steps[i].rep->rev[0],
				       k->steps[i].rep->rev[1], o->s.timeout);
out:
	free(units);
	return ret;
}

/*
 * BASE and the changes of the steps built in order, as far as they
 * build: 0, 3 when a change does not build (its step says so), 4.
 */
static int prepare_targets(struct check *k, const struct check_options *o,
			   int each, int tty)
{
	size_t i, s;

	k->targets = calloc(k->nr_changes + 1, sizeof(*k->targets));
	if (!k->targets)
		return 4;
	for (i = 0; i <= k->nr_changes; i++) {
		const char *hex = i ? k->changes[i - 1].commit : k->base_hex;
		struct driver_target *t = &k->targets[i];

		/* --whole builds BASE and the series' last commit only */
		if (!each && i && i < k->nr_changes)
			continue;
		if (tty)
			fprintf(stderr, "check: building %s...\033[K\r",
				i ? k->changes[i - 1].name : o->base);
		k->nr_targets = i + 1;
		if (driver_target_prepare(t, &k->paths, k->store, hex,
					  o->engine.jobs, o->verbose)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 4;
		}
		if (tty)
			fputs("\033[K", stderr);
		if (t->status == DRIVER_OK)
			continue;
		if (!i) {
			fprintf(stderr, "error: BASE %s does not build: %s\n",
				o->base, t->reason);
			return 4;
		}
		s = each ? i - 1 : 0;
		k->steps[s].build_error = t->reason;
		fprintf(stderr, "error: %s does not build:\n%s\n",
			k->changes[i - 1].name, t->reason);
		return 3;
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	static struct check k;
	struct check_options o;
	double t0 = lsb_now();
	size_t i, nr_steps;
	int ret, each, tty, built;
	long first;

	memset(&k, 0, sizeof(k));
	ret = parse_check_options(&o, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	ret = suite_select(o.s.suite, o.s.globs, o.s.nr_globs, &k.patterns,
			   &k.nr_patterns);
	if (ret)
		return ret == 2 ? 2 : 4;
	ret = 4;
	if (driver_paths_init(&k.paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	ret = load_bugs(&k, &o);
	if (ret)
		goto out;
	ret = 4;
	tty = !o.quiet && isatty(2);
	ret = make_changes(&o, &k.paths, k.store, sizeof(k.store), k.base_hex,
			   &k.changes, &k.nr_changes, &k.not_applied, k.why,
			   sizeof(k.why));
	if (ret == 2 && k.why[0] && write_not_applied(&k, &o))
		ret = 4;
	if (ret)
		goto out;
	nr_steps = check_steps(&o, k.nr_changes, &each);
	k.steps = calloc(nr_steps, sizeof(*k.steps));
	k.reps = calloc(nr_steps, sizeof(*k.reps));
	if (!k.steps || !k.reps)
		goto out;
	k.c.steps = k.steps;
	k.c.nr_steps = nr_steps;
	k.c.invariants = o.invariants;
	k.c.base = o.base;
	for (i = 0; i < nr_steps; i++)
		k.steps[i].name = each ? k.changes[i].name :
				  nr_steps == k.nr_changes ? k.changes[0].name :
				  "the series whole";
	if (o.out)
		lsb_pathf(k.out, sizeof(k.out), "%s", o.out);
	else
		lsb_pathf(k.out, sizeof(k.out), "%s/check-%.12s",
			  k.paths.data_dir, k.changes[k.nr_changes - 1].commit);
	if (cmd_out_dir(k.out, "linsched check"))
		goto out;
	built = prepare_targets(&k, &o, each, tty);
	if (built == 4 || choose_bugs(&k, &o))
		goto out;
	for (i = 0; i < nr_steps; i++) {
		const struct driver_target *old, *new;
		char out[4300];

		new = each ? &k.targets[i + 1] : &k.targets[k.nr_changes];
		old = each ? &k.targets[i] : &k.targets[0];
		if (new >= k.targets + k.nr_targets || new->status != DRIVER_OK)
			break;
		/* a series' steps each in a folder of their own */
		if (nr_steps > 1)
			lsb_pathf(out, sizeof(out), "%s/%zu", k.out, i + 1);
		else
			lsb_pathf(out, sizeof(out), "%s", k.out);
		fprintf(stderr, "check: %s\n", k.steps[i].name);
		ret = step_report(&k.reps[i], &o, k.patterns, k.nr_patterns,
				  old, new, &k.paths, k.store, &o.engine, out,
				  tty);
		if (ret)
			goto out;
		k.steps[i].rep = &k.reps[i];
	}
	ret = run_bugs(&k, &o, &o.engine, tty);
	if (ret)
		goto out;
	ret = 4;
	report_check_judge(&k.c);
	k.c.wall_s = lsb_now() - t0;
	report_check_text(stdout, &k.c);
	fflush(stdout);
	if (write_outputs(&k.c, &o))
		goto out;
	first = report_check_first_failure(&k.c);
	ret = first < 0 ? 0 : k.steps[first].build_error ? 3 : 1;
	fprintf(stderr, "check: %.1f s\n", lsb_now() - t0);
out:
	if (ret == 1 && k.nr_changes == 0)
		ret = 0;	/* nothing to check */
	check_release(&k);
	return ret;
}
