// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched trend - run every revision class of a range for some workloads
 * on some machines and draw, with gnuplot, how the metrics move along it.
 * The command parses and runs; report/ collects, labels and draws.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "report/report.h"

static const char usage_head[] =
"usage: linsched trend GOOD..BAD --workload W --topology T [options]\n"
"\n"
"Run every revision class of a range (GOOD itself, then the commits\n"
"reachable from BAD and not from GOOD, consecutive commits with the same\n"
"build subset run once, as lsbisect does) for each workload on each\n"
"topology, and draw with gnuplot, per workload and topology:\n"
"  balance-energy  balance score and energy across the revisions (two\n"
"                  y axes), x labelled with a revision's tag or short hash\n"
"  plane           energy against balance score, one labelled point per\n"
"                  revision, arrows in revision order\n";

static const char usage_tail[] =
"each as .png and .svg, beside trend.dat (one revision a line) and the\n"
"gnuplot scripts (.gp: edit one and run 'gnuplot NAME.gp' there). With\n"
"--seeds N > 1 a value is the median over seeds 1..N, min and max drawn\n"
"as error bars. A revision that does not build, crashes or hangs is a gap\n"
"in the plots and listed with its reason. Results are cached and shared\n"
"with lsbisect and 'linsched suite': the same trend again runs nothing.\n"
"\n"
"  -w, --workload W    as for 'linsched run'; repeat for several\n"
"  -t, --topology T    as for 'linsched run'; repeat for several\n"
"  -n, --seeds N       seeds per revision (default 1)\n"
"  -d, --duration D    simulated time per run (default 2s)\n"
"      --first-parent  follow only BAD's first parents\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -o, --out DIR       output directory (default: DATA/trend-GOOD-BAD,\n"
"                      DATA being build/ in a build tree); one\n"
"                      subdirectory per workload and topology\n"
"      --timeout S     wall-clock limit of a simulation (default 600)\n"
"  -j, --jobs N        simulations at a time, and build jobs (default: the\n"
"                      number of CPUs)\n"
ENGINE_USAGE
"  -q, --quiet         no progress line (shown on a terminal only)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0 drawn, 1 error, 2 usage.\n";

#define MAX_SPECS 16
#define USAGE_WIDTH 76
#define USAGE_INDENT 18

/* @word on the line @col columns long, wrapped; the new length. */
static size_t usage_word(FILE *f, size_t col, const char *word)
{
	if (col + 1 + strlen(word) > USAGE_WIDTH) {
		fprintf(f, "\n%*s%s", USAGE_INDENT, "", word);
		return USAGE_INDENT + strlen(word);
	}
	fprintf(f, " %s", word);
	return col + 1 + strlen(word);
}

/* The usage, its list of the small multiples from report/. */
static void usage_trend(FILE *f)
{
	const char *const *names = report_trend_metrics();
	char word[160], path[128];
	size_t col;
	int m;

	fputs(usage_head, f);
	col = (size_t)fprintf(f, "  %-*ssmall multiples of", USAGE_INDENT - 2,
			      "metrics");
	for (m = 0; m < REPORT_TREND_METRICS; m++) {
		metric_path(names[m], path, sizeof(path));
		if (m == REPORT_TREND_METRICS - 1) {
			col = usage_word(f, col, "and");
			snprintf(word, sizeof(word), "%s", path);
		} else {
			snprintf(word, sizeof(word), "%s%s", path,
				 m < REPORT_TREND_METRICS - 2 ? "," : "");
		}
		col = usage_word(f, col, word);
	}
	col = usage_word(f, col, "across");
	col = usage_word(f, col, "the");
	usage_word(f, col, "revisions");
	fputc('\n', f);
	fputs(usage_tail, f);
}

/* What the command line asks for. */
struct trend_options {
	char good[256], bad[256];
	const char *workloads[MAX_SPECS];
	int nr_workloads;
	const char *topologies[MAX_SPECS];
	int nr_topologies;
	int seeds;
	const char *duration;
	int first_parent;
	const char *repo;
	const char *out;
	int timeout;
	int quiet;
	int verbose;
	struct driver_engine engine;
};

static const struct option trend_long_options[] = {
	{ "repo", required_argument, NULL, 'r' },
	{ "workload", required_argument, NULL, 'w' },
	{ "topology", required_argument, NULL, 't' },
	{ "seeds", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'd' },
	{ "first-parent", no_argument, NULL, 'F' },
	{ "out", required_argument, NULL, 'o' },
	{ "timeout", required_argument, NULL, 'O' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	ENGINE_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* One option into @o: 0, or -1 (a usage error). */
static int trend_option(struct trend_options *o, int c, const char *arg)
{
	switch (c) {
	case 'r': o->repo = arg; return 0;
	case 'w':
		if (o->nr_workloads == MAX_SPECS)
			return -1;
		o->workloads[o->nr_workloads++] = arg;
		return 0;
	case 't':
		if (o->nr_topologies == MAX_SPECS)
			return -1;
		o->topologies[o->nr_topologies] = arg;
		return cmd_topology_arg(&o->topologies[o->nr_topologies++]);
	case 'n': return opt_int("--seeds", arg, 1, 64, &o->seeds);
	case 'd': o->duration = arg; return 0;
	case 'F': o->first_parent = 1; return 0;
	case 'o': o->out = arg; return 0;
	case 'O': return opt_int("--timeout", arg, 0, 1000000, &o->timeout);
	case 'q': o->quiet = 1; return 0;
	case 'v': o->verbose = 1; return 0;
	default: return engine_option(&o->engine, c, arg) ? -1 : 0;
	}
}

/* The command line into @o: 0, 1 after --help, or 2 (usage, printed). */
static int parse_trend_options(struct trend_options *o, int argc,
			       char **argv)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->seeds = 1;
	o->duration = "2s";
	o->timeout = 600;
	engine_defaults(&o->engine);
	while ((c = getopt_long(argc, argv, "r:w:t:n:d:o:j:qvh",
				trend_long_options, NULL)) != -1) {
		if (c == 'h') {
			usage_trend(stdout);
			return 1;
		}
		if (trend_option(o, c, optarg))
			goto usage;
	}
	if (optind + 1 != argc || !o->nr_workloads || !o->nr_topologies) {
		fprintf(stderr, "error: %s\n", optind + 1 != argc ?
			"linsched trend takes one range GOOD..BAD" :
			"--workload and --topology are required");
		goto usage;
	}
	if (cmd_split_range(argv[optind], o->good, o->bad, sizeof(o->good)))
		goto usage;
	return 0;
usage:
	usage_trend(stderr);
	return 2;
}

/*
 * Every workload and topology valid: 0, or 2 (printed). A workload read
 * once becomes the path of its kept bytes (driver_check_specs()).
 */
static int check_specs(struct trend_options *o)
{
	int c, nw = o->nr_workloads, nt = o->nr_topologies;

	for (c = 0; c < nw || c < nt; c++)
		if (driver_check_specs(&o->workloads[c < nw ? c : 0],
				       o->topologies[c < nt ? c : 0],
				       o->duration, NULL)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 2;
		}
	return 0;
}

/*
 * Prepare each point's revision (its first commit) once. A revision that
 * does not build is prepared too: its runs are that build failure.
 */
static int prepare_points(const struct report_trend *tr,
			  struct driver_target *tg,
			  const struct driver_paths *paths, const char *repo,
			  const struct trend_options *o, int tty)
{
	size_t i;

	for (i = 0; i < tr->n; i++) {
		if (tty)
			fprintf(stderr, "\rtrend: preparing %s (%zu of %zu)\033[K",
				tr->pts[i].label, i + 1, tr->n);
		if (driver_target_prepare(&tg[i], paths, repo,
					  tr->pts[i].first, o->engine.jobs,
					  o->verbose)) {
			if (tty)
				fputc('\n', stderr);
			fprintf(stderr, "error: %s\n", driver_last_error());
			return -1;
		}
	}
	return 0;
}

/* The revisions that did not run every seed; the number of gaps. */
static size_t print_gaps(const struct report_trend *tr)
{
	size_t i, gaps = 0;

	for (i = 0; i < tr->n; i++) {
		const struct report_trend_point *p = &tr->pts[i];

		if (p->ok == tr->seeds)
			continue;
		if (p->ok)
			printf("  %d of %d seeds skipped: %s (%.12s): %s: %s\n",
			       tr->seeds - p->ok, tr->seeds, p->label, p->first,
			       driver_status_name(p->status), p->reason);
		else
			printf("  gap: %s (%.12s): %s\n", p->label, p->first,
			       *p->reason ? p->reason :
			       driver_status_name(p->status));
		gaps += !p->ok;
	}
	return gaps;
}

/* Workload @w on topology @t: collect, draw, print; the gaps, or -1. */
static long trend_pair(struct report_trend *tr, const struct driver_paths *paths,
		       const struct driver_unit *units, const char *dir,
		       const struct trend_options *o, const char *w,
		       const char *t)
{
	char name[300], sub[4400], title[1024], wl[300], tl[300];
	size_t gaps;

	if (report_trend_collect(tr, paths, units))
		goto fail;
	snprintf(name, sizeof(name), "%.120s-%.60s", cmd_base_name(w),
		 cmd_base_name(t));
	lsb_safe_name(name);
	lsb_pathf(sub, sizeof(sub), "%s/%s", dir, name);
	/* a file by its short name, a spec as it is (a long one cut) */
	lsb_short_name(wl, sizeof(wl), w);
	lsb_short_name(tl, sizeof(tl), t);
	snprintf(title, sizeof(title), "%.110s%s on %s\n%.60s..%.60s (%zu revisions%s%s)",
		 wl, strlen(wl) > 110 ? "..." : "", tl, o->good,
		 o->bad, tr->n, tr->seeds > 1 ?
		 ", median of seeds, min to max" : "",
		 o->first_parent ? ", first parents" : "");
	if (report_trend_plot(tr, sub, title))
		goto fail;
	printf("%s on %s:\n", w, t);
	gaps = print_gaps(tr);
	printf("  %s/balance-energy.png\n  %s/plane.png\n  %s/metrics.png\n  %s/trend.dat\n",
	       sub, sub, sub, sub);
	return (long)gaps;
fail:
	fprintf(stderr, "error: %s\n", report_last_error());
	return -1;
}

/*
 * Prepare, run and draw every pair into @dir: 0, or 1 (printed); 2 when
 * the failed runs were all refused by the simulator (usage).
 */
static int trend_run(struct report_trend *tr, const struct driver_paths *paths,
		     const char *repo, const char *dir,
		     struct trend_options *o)
{
	int nw = o->nr_workloads, nt = o->nr_topologies, c, ret = 1;
	int tty = !o->quiet && isatty(2);
	struct driver_run_spec spec = {
		.duration = o->duration, .metrics = 1, .timeout_s = o->timeout,
	};
	struct units_progress prog = { .what = "trend", .tty = tty };
	struct driver_target *tg = calloc(tr->n, sizeof(*tg));
	struct driver_unit *units = NULL;
	size_t total = 0, gaps = 0, i;
	long g;

	if (!tg) {
		fprintf(stderr, "error: out of memory\n");
		return 1;
	}
	if (prepare_points(tr, tg, paths, repo, o, tty))
		goto out;
	if (report_trend_units(tr, tg, o->workloads, nw, o->topologies, nt,
			       &spec, &units, &total)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		goto out;
	}
	g = units_run(paths, units, total, &o->engine, &prog);
	if (g) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		if (g > 0)
			ret = cmd_units_status(units, total, ret);
		goto out;
	}
	if (tty)
		fprintf(stderr, "trend: %zu runs, %zu from the cache, %.1f s\n",
			total, prog.cached, lsb_now() - prog.start);
	for (c = 0; c < nw * nt; c++) {
		g = trend_pair(tr, paths, units + (size_t)c * tr->n * tr->seeds,
			       dir, o, o->workloads[c / nt],
			       o->topologies[c % nt]);
		if (g < 0)
			goto out;
		gaps += (size_t)g;
	}
	printf("%zu revision%s, %d workload%s x %d topolog%s, %zu gap%s; SVGs and gnuplot scripts beside the PNGs\n",
	       tr->n, tr->n == 1 ? "" : "s", nw, nw == 1 ? "" : "s", nt,
	       nt == 1 ? "y" : "ies", gaps, gaps == 1 ? "" : "s");
	ret = 0;
out:
	for (i = 0; i < tr->n; i++)
		driver_target_release(&tg[i]);
	free(tg);
	free(units);
	return ret;
}

int cmd_trend(int argc, char **argv)
{
	static struct driver_paths paths;
	struct report_trend tr = { 0 };
	struct trend_options o;
	bisect_repo *r = NULL;
	const char *repo;
	char dir[4200];
	int ret;

	ret = parse_trend_options(&o, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (check_specs(&o) || cmd_check_out_dir("--out", o.out))
		return 2;
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	repo = o.repo ? o.repo : paths.repo;
	ret = 1;
	if (bisect_repo_open(&r, repo)) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		goto out;
	}
	if (report_trend_init(&tr, r, o.good, o.bad, o.first_parent,
			      o.seeds)) {
		fprintf(stderr, "error: %s\n", report_last_error());
		goto out;
	}
	if (o.out) {
		snprintf(dir, sizeof(dir), "%s", o.out);
	} else {
		char name[600];

		snprintf(name, sizeof(name), "trend-%s-%s", o.good, o.bad);
		lsb_safe_name(name);
		lsb_pathf(dir, sizeof(dir), "%s/%s", paths.data_dir, name);
	}
	if (cmd_out_dir(dir, "linsched trend"))
		goto out;
	ret = trend_run(&tr, &paths, repo, dir, &o);
out:
	report_trend_release(&tr);
	bisect_repo_free(r);
	return ret;
}
