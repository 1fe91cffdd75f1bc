// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched report - a release regression report: the workload suite on two
 * revisions over some topologies, every metric's change, the worst
 * regressions and best improvements, plots, and the commits between the
 * two that changed what is built. Text, JSON and one self-contained HTML
 * file; exit 1 when a regression passes the threshold. The command parses
 * and runs; report/ judges, ranks and writes.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "report/report.h"
#include "sim/sim.h"
#include "suite/suite.h"
#include "topologies/topologies.h"

static const char usage_report[] =
"usage: linsched report OLD NEW [options]\n"
"\n"
"Run the workload suite on revisions OLD and NEW over some topologies and\n"
"report, per pattern and topology, every metric's change: OLD's and NEW's\n"
"median over the seeds, the change in percent, and whether it passes the\n"
"threshold and the seeds' noise. Ranks the worst regressions and the best\n"
"improvements, summarises each topology, draws per topology a heat map\n"
"(family x metric, median change) and the balance-vs-energy plane of the\n"
"patterns' changes, and names the commits from OLD to NEW that changed the\n"
"build subset. Writes report.txt, report.json and report.html (one file,\n"
"plots and timelines embedded; its tables sort by the column clicked, its\n"
"ranked patterns link to their rows) with the plots' data, gnuplot\n"
"scripts, PNGs and SVGs in plots/. Results are cached and shared with\n"
"trend and lsbisect: the same report again runs nothing but its\n"
"timelines.\n"
"\n"
"A change is a regression when NEW's median is worse than OLD's by more\n"
"than the threshold (percent of OLD's median, or of the metric's floor\n"
"when that is larger) and, with two seeds or more, every NEW seed is worse\n"
"than every OLD seed. A pattern that finished on OLD and crashed, hung or\n"
"failed on NEW is a regression too.\n"
"\n"
"  -s, --suite NAME    full (default: every pattern), quick (two of each\n"
"                      family) or a family ('linsched suite list -f')\n"
"  -m, --match GLOB    only patterns matching GLOB (repeatable)\n"
"  -t, --topology T    a machine (repeatable; default quad-smt,\n"
"                      dynamiq-1+3+4 and numa-2: SMT, asymmetric, NUMA)\n"
"  -T, --threshold PCT regression threshold in percent (default 5)\n"
"  -n, --seeds N       seeds 1..N per run (default 3)\n"
"  -d, --duration D    simulated time per run (default 10s)\n"
"      --top N         regressions and improvements ranked (default 20)\n"
"      --timelines N   draw OLD's and NEW's timeline ('linsched timeline',\n"
"                      seed 1, 100 ms from the middle of the run) of the N\n"
"                      worst regressions' patterns into timelines/ and\n"
"                      report.html (default 5; 0: none)\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -o, --out DIR       output directory (default: DATA/report-OLD-NEW,\n"
"                      DATA being build/ in a build tree)\n"
"  -j, --jobs N        simulations at a time, and build jobs (default: the\n"
"                      number of CPUs)\n"
ENGINE_USAGE
"      --timeout S     wall-clock limit of a simulation (default 600)\n"
"  -q, --quiet         no progress line (shown on a terminal only)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0 no regression, 1 regressions past the threshold, 2 usage,\n"
"4 an error stopped it (OLD or NEW does not build, a run could not be\n"
"made).\n";

/* What the command line asks for. */
struct report_options {
	const char *old, *new;
	struct cmd_suite_opts s;
	int top;
	int timelines;
	const char *repo;
	const char *out;
	int quiet;
	int verbose;
	struct driver_engine engine;
};

static const struct option report_long_options[] = {
	CMD_SUITE_OPTIONS,
	{ "top", required_argument, NULL, 'K' },
	{ "timelines", required_argument, NULL, 'L' },
	{ "repo", required_argument, NULL, 'r' },
	{ "out", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	ENGINE_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

int cmd_suite_option(struct cmd_suite_opts *o, int c, const char *arg)
{
	switch (c) {
	case 's': o->suite = arg; return 0;
	case 'm':
		if (o->nr_globs == CMD_MAX_MATCH) {
			fprintf(stderr, "error: at most %d --match options\n",
				CMD_MAX_MATCH);
			return 2;
		}
		o->globs[o->nr_globs++] = arg;
		return 0;
	case 't':
		if (o->nr_topos == REPORT_MAX_TOPOS) {
			fprintf(stderr, "error: at most %d --topology options\n",
				REPORT_MAX_TOPOS);
			return 2;
		}
		o->topo[o->nr_topos] = arg;
		return cmd_topology_arg(&o->topo[o->nr_topos++]) ? 2 : 0;
	case 'T':
		return opt_double("--threshold", arg, 0, 1e6, &o->threshold) ?
		       2 : 0;
	case 'n':
		return opt_int("--seeds", arg, 1, REPORT_MAX_SEEDS,
			       &o->seeds) ? 2 : 0;
	case 'd': o->duration = arg; return 0;
	case 'O':
		return opt_int("--timeout", arg, 0, 1000000, &o->timeout) ?
		       2 : 0;
	default:
		return -1;
	}
}

void cmd_suite_defaults(struct cmd_suite_opts *o, const char *suite)
{
	memset(o, 0, sizeof(*o));
	o->suite = suite;
	o->seeds = 3;
	o->threshold = 5;
	o->duration = "10s";
	o->timeout = 600;
}

void cmd_suite_default_topologies(struct cmd_suite_opts *o)
{
	/* SMT, asymmetric, NUMA */
	static const char *const topos[] = {
		"quad-smt", "dynamiq-1+3+4", "numa-2",
	};
	size_t i;

	if (!o->nr_topos)
		for (i = 0; i < sizeof(topos) / sizeof(topos[0]); i++)
			o->topo[o->nr_topos++] = topos[i];
}

/* One option into @o: 0, or 2 (usage, printed). */
static int report_option(struct report_options *o, int c, const char *arg)
{
	int ret = cmd_suite_option(&o->s, c, arg);

	if (ret >= 0)
		return ret;
	switch (c) {
	case 'K': return opt_int("--top", arg, 1, 100000, &o->top) ? 2 : 0;
	case 'L':
		return opt_int("--timelines", arg, 0, REPORT_MAX_TIMELINES,
			       &o->timelines) ? 2 : 0;
	case 'r': o->repo = arg; return 0;
	case 'o': o->out = arg; return 0;
	case 'q': o->quiet = 1; return 0;
	case 'v': o->verbose = 1; return 0;
	default:
		c = engine_option(&o->engine, c, arg);
		if (c > 0)
			fputs(usage_report, stderr);
		return c ? 2 : 0;
	}
}

/* The command line into @o: 0, 1 after --help, or 2 (usage, printed). */
static int parse_report_options(struct report_options *o, int argc,
				char **argv)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	cmd_suite_defaults(&o->s, "full");
	o->top = 20;
	o->timelines = 5;
	engine_defaults(&o->engine);
	while ((c = getopt_long(argc, argv, "s:m:t:T:n:d:r:o:j:qvh",
				report_long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_report, stdout);
			return 1;
		}
		ret = report_option(o, c, optarg);
		if (ret)
			return ret;
	}
	if (optind + 2 != argc) {
		fprintf(stderr, "error: linsched report takes two revisions, OLD and NEW\n");
		fputs(usage_report, stderr);
		return 2;
	}
	o->old = argv[optind];
	o->new = argv[optind + 1];
	cmd_suite_default_topologies(&o->s);
	return 0;
}

int cmd_report_topologies(struct report *rep, const struct cmd_suite_opts *o)
{
	static struct topology topo;
	char err[512];
	int t, i;

	for (t = 0; t < o->nr_topos; t++) {
		struct report_topology *rt = &rep->topo[t];

		const char *hog = "hog";	/* the topology and duration */

		if (driver_check_specs(&hog, o->topo[t], o->duration, NULL)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 2;
		}
		if (topology_from_spec(&topo, o->topo[t], err, sizeof(err))) {
			fprintf(stderr, "error: %s\n", err);
			return 2;
		}
		rt->spec = o->topo[t];
		rt->nr_cpus = topo.nr_cpus;
		snprintf(rt->name, sizeof(rt->name), "%s",
			 cmd_base_name(o->topo[t]));
		lsb_safe_name(rt->name);
		for (i = 0; i < t; i++)
			if (!strcmp(rep->topo[i].name, rt->name)) {
				fprintf(stderr, "error: --topology '%s' given twice (or two files of one name)\n",
					o->topo[t]);
				return 2;
			}
	}
	rep->nr_topos = o->nr_topos;
	return 0;
}

/* OLD and NEW built: 0, or -1 (printed). */
static int prepare_revisions(struct driver_target rev[2],
			     const struct driver_paths *paths,
			     const char *repo, const struct report_options *o,
			     int tty)
{
	int r;

	for (r = 0; r < 2; r++) {
		const char *name = r ? o->new : o->old;

		if (tty)
			fprintf(stderr, "report: preparing %s...\033[K\r", name);
		if (driver_target_prepare(&rev[r], paths, repo, name,
					  o->engine.jobs, o->verbose)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return -1;
		}
		if (rev[r].status != DRIVER_OK) {
			fprintf(stderr, "error: %s %s does not build: %s\n",
				r ? "NEW" : "OLD", name, rev[r].reason);
			return -1;
		}
	}
	if (tty)
		fputs("\033[K", stderr);
	return 0;
}

/* The output directory, made: 0, or -1 (printed). */
static int report_out(struct report *rep, const struct report_options *o,
		      const struct driver_paths *paths)
{
	if (o->out) {
		lsb_pathf(rep->out, sizeof(rep->out), "%s", o->out);
	} else {
		char name[600];

		snprintf(name, sizeof(name), "report-%s-%s", o->old, o->new);
		lsb_safe_name(name);
		lsb_pathf(rep->out, sizeof(rep->out), "%s/%s", paths->data_dir,
			  name);
	}
	return cmd_out_dir(rep->out, "linsched report");
}

/* @t as a progress line names it, into @buf: a commit id shortened. */
static const char *short_name(const struct driver_target *t, char *buf,
			      size_t len)
{
	int id = strlen(t->name) == 40 &&
		 strspn(t->name, "0123456789abcdef") == 40;

	snprintf(buf, len, "%.*s", id ? 12 : (int)sizeof(t->name), t->name);
	return buf;
}

int cmd_report_run(struct report *rep, const struct driver_paths *paths,
		   struct driver_engine *engine, int tty, const char *what)
{
	struct units_progress prog = { .what = what, .tty = tty };
	struct driver_unit *units = NULL;
	char dir[4200], name[2][256];
	size_t n, i;
	int t, ret = 4;

	for (t = 0; t < rep->nr_topos; t++) {
		report_workload_dir(rep, t, dir, sizeof(dir));
		if (suite_files(dir, rep->patterns, rep->nr_patterns,
				rep->topo[t].nr_cpus))
			return 4;
	}
	if (report_units(rep, &units, &n)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		return 4;
	}
	t = units_run(paths, units, n, engine, &prog);
	if (t) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		if (t > 0)
			ret = cmd_units_status(units, n, 4);
		goto out;
	}
	for (i = 0; i < n; i++) {
		int r = units[i].target == rep->rev[1];

		rep->runs[r]++;
		rep->cached[r] += units[i].state == DRIVER_UNIT_CACHED;
	}
	fprintf(stderr, "%s: %zu runs, %zu from the cache (%s: %zu of %zu, %s: %zu of %zu), %.1f s\n",
		what, n, prog.cached,
		short_name(rep->rev[0], name[0], sizeof(name[0])),
		rep->cached[0], rep->runs[0],
		short_name(rep->rev[1], name[1], sizeof(name[1])),
		rep->cached[1], rep->runs[1], lsb_now() - prog.start);
	if (report_collect(rep, paths, units)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		goto out;
	}
	ret = 0;
out:
	free(units);
	return ret;
}

int cmd_report_files(struct report *rep, const struct driver_paths *paths,
		     const char *repo, double t0)
{
	report_find_changes(rep, repo, paths);
	if (report_plots(rep))
		goto fail;
	rep->wall_s = lsb_now() - t0;
	if (report_write_files(rep))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "error: %s\n", report_last_error());
	return -1;
}

/*
 * Side @r of @row's timeline, by 'linsched timeline' on the run's
 * settings (seed 1) over @from..@to: 0, or its exit status (its output in
 * DIR/timeline.log, named on stderr).
 */
static int draw_timeline(const struct report *rep, const struct report_row *row,
			 int r, const char *repo, const char *from,
			 const char *to)
{
	char dir[4400], log[4500], wl[4400], timeout[16], *argv[24];
	int n = 0, st;

	report_timeline_dir(rep, row, r, dir, sizeof(dir));
	report_workload_dir(rep, row->topo, wl, sizeof(wl));
	lsb_pathf(wl + strlen(wl), sizeof(wl) - strlen(wl), "/%s.json",
		  suite_pattern_name(row->pattern));
	lsb_pathf(log, sizeof(log), "%s/timeline.log", dir);
	snprintf(timeout, sizeof(timeout), "%d", rep->timeout);
	if (lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	argv[n++] = "linsched";
	argv[n++] = "timeline";
	argv[n++] = (char *)rep->rev[r]->commit;
	argv[n++] = "--workload";
	argv[n++] = wl;
	argv[n++] = "--topology";
	argv[n++] = (char *)rep->topo[row->topo].spec;
	argv[n++] = "--duration";
	argv[n++] = (char *)rep->duration;
	argv[n++] = "--seed";
	argv[n++] = "1";
	argv[n++] = "--from";
	argv[n++] = (char *)from;
	argv[n++] = "--to";
	argv[n++] = (char *)to;
	argv[n++] = "--timeout";
	argv[n++] = timeout;
	argv[n++] = "--out";
	argv[n++] = dir;
	argv[n++] = "--repo";
	argv[n++] = (char *)repo;
	argv[n] = NULL;
	st = cmd_run_self(argv, log);
	if (st)
		fprintf(stderr, "report: no timeline of %s on %s (%s): status %d, see %s\n",
			suite_pattern_name(row->pattern),
			rep->topo[row->topo].spec, r ? "NEW" : "OLD", st, log);
	else
		unlink(log);
	return st;
}

/*
 * The worst regressions' patterns on OLD and NEW as timelines, 100 ms
 * from the middle of the run (past its start), for report.html; one that
 * cannot be drawn is said and left out.
 */
static void draw_timelines(struct report *rep, int max, const char *repo,
			   int tty)
{
	const struct report_row *rows[REPORT_MAX_TIMELINES];
	uint64_t ns = 0, from, to;
	char a[32], b[32];
	size_t n, i;
	int r;

	n = report_timeline_rows(rep, rows, (size_t)max);
	if (!n || sim_parse_duration(&ns, rep->duration))
		return;
	from = ns / 2 / 1000000 * 1000000;
	to = from + 100000000 < ns ? from + 100000000 : ns;
	snprintf(a, sizeof(a), "%" PRIu64 "ns", from);
	snprintf(b, sizeof(b), "%" PRIu64 "ns", to);
	snprintf(rep->timeline_window, sizeof(rep->timeline_window),
		 "seed 1, %.6g ms to %.6g ms of the run", from / 1e6, to / 1e6);
	for (i = 0; i < n; i++)
		for (r = 0; r < 2; r++) {
			if (tty)
				fprintf(stderr, "report: timeline %zu of %zu...\033[K\r",
					2 * i + r + 1, 2 * n);
			draw_timeline(rep, rows[i], r, repo, a, b);
		}
	if (tty)
		fputs("\033[K", stderr);
	rep->timelines = (int)n;
}

/* Judge, plot and write the report, then print its summary: 0 or -1. */
static int report_finish(struct report *rep, const struct driver_paths *paths,
			 const char *repo, const struct report_options *opt,
			 int tty, double t0)
{
	const char *o = rep->out;

	if (report_judge(rep)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		return -1;
	}
	draw_timelines(rep, opt->timelines, repo, tty);
	if (cmd_report_files(rep, paths, repo, t0))
		return -1;
	report_text(stdout, rep, 1);
	printf("\n%s/report.html\n%s/report.txt\n%s/report.json\n%s/plots/\n",
	       o, o, o, o);
	if (rep->timelines)
		printf("%s/timelines/\n", o);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static struct driver_paths paths;
	struct driver_target rev[2] = { 0 };
	struct report_options o;
	struct report rep;
	int *patterns = NULL, ret, tty;
	double t0 = lsb_now();
	const char *repo;

	ret = parse_report_options(&o, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (cmd_check_out_dir("--out", o.out))
		return 2;
	if (report_init(&rep)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		return 4;
	}
	ret = cmd_report_topologies(&rep, &o.s);
	if (ret)
		goto out;
	ret = suite_select(o.s.suite, o.s.globs, o.s.nr_globs, &patterns,
			   &rep.nr_patterns);
	if (ret) {
		ret = ret == 2 ? 2 : 4;
		goto out;
	}
	ret = 4;
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	repo = o.repo ? o.repo : paths.repo;
	tty = !o.quiet && isatty(2);
	rep.suite = o.s.suite;
	rep.duration = o.s.duration;
	rep.seeds = o.s.seeds;
	rep.threshold = o.s.threshold;
	rep.top = o.top;
	rep.timeout = o.s.timeout;
	rep.patterns = patterns;
	rep.rev[0] = &rev[0];
	rep.rev[1] = &rev[1];
	/* an output directory that cannot be made is known before a build */
	if (report_out(&rep, &o, &paths) ||
	    prepare_revisions(rev, &paths, repo, &o, tty))
		goto out;
	ret = cmd_report_run(&rep, &paths, &o.engine, tty, "report");
	if (ret)
		goto out;
	ret = 4;
	if (report_finish(&rep, &paths, repo, &o, tty, t0))
		goto out;
	ret = rep.nr_worse ? 1 : 0;
out:
	report_release(&rep);
	free(patterns);
	driver_target_release(&rev[0]);
	driver_target_release(&rev[1]);
	return ret;
}
