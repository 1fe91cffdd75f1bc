// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched report - a release regression report: the workload suite on two
 * revisions over some topologies, every metric's change, the worst
 * regressions and best improvements, plots, and the commits between the
 * two that changed what is built. Text, JSON and one self-contained HTML
 * file; exit 1 when a regression passes the threshold.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bisect/bisect.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "plots/plots.h"
#include "suite/suite.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

int cmd_report(int argc, char **argv);

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
"plots embedded) with the plots' data, gnuplot scripts, PNGs and SVGs in\n"
"plots/. Results are cached and shared with trend and lsbisect: the same\n"
"report again runs nothing.\n"
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

#define MAX_TOPOS 8
#define MAX_SEEDS 16
#define MAX_MATCH 32
#define NR_METRICS 8

/* A metric the report compares; its floor keeps percentages of ~0 sane. */
static const struct metric {
	const char *name;
	int higher_is_better;
	double floor;
} metrics[NR_METRICS] = {
	{ "balance_score", 0, 1000 },
	{ "work_conservation", 0, 0.01 },
	{ "wakeup_latency_ns.p99", 0, 10000 },
	{ "fairness", 1, 0.01 },
	{ "throughput", 1, 0.01 },
	{ "migrations_per_s", 0, 1 },
	{ "energy_j", 0, 0.01 },
	{ "idle_entries_per_s", 0, 1 },
};

enum verdict { SAME, NOISE, WORSE, BETTER };

static const char *const verdict_name[] = {
	[SAME] = "same", [NOISE] = "noise", [WORSE] = "regression",
	[BETTER] = "improvement",
};

/* One pattern on one topology, on OLD (0) and NEW (1). */
struct row {
	int topo;
	int pattern;
	int ok[2];			/* seeds that ran */
	int status[2];			/* the worst skip, DRIVER_OK if none */
	char reason[2][256];
	double v[2][NR_METRICS][MAX_SEEDS];
	double med[2][NR_METRICS];
	double pct[NR_METRICS];		/* change, percent; NAN: none */
	double worse[NR_METRICS];	/* the same, positive when worse */
	enum verdict verdict[NR_METRICS];
	enum verdict run_verdict;	/* finished on one, not the other */
};

/* A ranked change: a row and a metric (-1: the run itself). */
struct rank {
	const struct row *row;
	int metric;
};

static struct {
	const char *topo[MAX_TOPOS];
	char topo_name[MAX_TOPOS][128];
	int topo_cpus[MAX_TOPOS];
	int nt;
	int *patterns;
	int np;
	int seeds;
	double threshold;
	const char *suite;
	const char *duration;
	int top;
	struct driver_target rev[2];
	struct row *rows;
	size_t nr_rows;
	char out[4096];
	int tty;
} R;

/* ---- small helpers ---- */


/* The median of the values that are there; NAN when none. */
static double median(const double *v, int n)
{
	double s[MAX_SEEDS];
	int k = 0, i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	return lsb_median(s, k);
}

/* The number formats of the text and the HTML: tests hold them to JSON. */
static void fmt_value(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.6g", v);
}

static void fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", v == 0 ? 0.0 : v);
}

/* An open memory stream and where it goes. */
struct doc {
	char *buf;
	size_t len;
	FILE *f;
	char path[4300];
};

static int doc_open(struct doc *d, const char *name)
{
	lsb_pathf(d->path, sizeof(d->path), "%s/%s", R.out, name);
	d->buf = NULL;
	d->len = 0;
	d->f = open_memstream(&d->buf, &d->len);
	return d->f ? 0 : -1;
}

static int doc_close(struct doc *d)
{
	int ret = fclose(d->f);

	if (!ret)
		ret = lsb_write_atomic(d->path, d->buf, d->len);
	if (ret)
		fprintf(stderr, "error: cannot write '%s': %s\n", d->path,
			strerror(errno));
	free(d->buf);
	return ret;
}

/* ---- running ---- */

static int write_workloads(char wl[][4200])
{
	int t;

	for (t = 0; t < R.nt; t++) {
		lsb_pathf(wl[t], 4200, "%s/workloads/%dcpus", R.out,
			  R.topo_cpus[t]);
		if (suite_files(wl[t], R.patterns, R.np, R.topo_cpus[t]))
			return -1;
	}
	return 0;
}

static int run_all(const struct driver_paths *paths,
		   struct driver_engine *engine, int timeout)
{
	static char wl[MAX_TOPOS][4200];
	char (*files)[4300];
	struct driver_unit *units;
	size_t n = (size_t)R.nt * R.np * 2 * R.seeds, u = 0;
	struct units_progress prog = { 0 };
	const char *names[NR_METRICS];
	int t, p, r, s, ret;

	for (t = 0; t < NR_METRICS; t++)
		names[t] = metrics[t].name;

	if (write_workloads(wl))
		return -1;
	units = calloc(n, sizeof(*units));
	files = calloc((size_t)R.nt * R.np, sizeof(*files));
	R.rows = calloc((size_t)R.nt * R.np, sizeof(*R.rows));
	if (!units || !files || !R.rows) {
		fprintf(stderr, "error: out of memory\n");
		free(units);
		free(files);
		return -1;
	}
	for (t = 0; t < R.nt; t++)
		for (p = 0; p < R.np; p++) {
			char *f = files[t * R.np + p];

			lsb_pathf(f, 4300, "%s/%s.json", wl[t],
				  suite_pattern_name(R.patterns[p]));
			for (r = 0; r < 2; r++)
				for (s = 0; s < R.seeds; s++, u++) {
					units[u].target = &R.rev[r];
					units[u].spec.workload = f;
					units[u].spec.topology = R.topo[t];
					units[u].spec.duration = R.duration;
					units[u].spec.seed = s + 1;
					units[u].spec.metrics = 1;
					units[u].spec.timeout_s = timeout;
				}
		}
	prog.what = "report";
	prog.tty = R.tty;
	ret = units_run(paths, units, n, engine, &prog);
	if (ret) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	fprintf(stderr, "report: %zu runs, %zu from the cache, %.1f s\n", n,
		prog.cached, lsb_now() - prog.start);

	/* collect: every unit is in the cache now */
	for (u = 0; u < n; u++) {
		size_t k = u / (2 * R.seeds);
		struct row *row = &R.rows[k];
		struct driver_result res;
		double vals[NR_METRICS];
		int m;

		r = u / R.seeds % 2;
		s = u % R.seeds;
		row->topo = k / R.np;
		row->pattern = R.patterns[k % R.np];
		for (m = 0; m < NR_METRICS; m++)
			row->v[r][m][s] = NAN;
		ret = driver_target_result(&res, paths, units[u].target,
					   &units[u].spec, DRIVER_RESULT_LOOKUP);
		if (ret) {
			fprintf(stderr, "error: %s: no result for %s on %s\n",
				ret == DRIVER_NOT_CACHED ? "the cache lost it" :
				driver_last_error(),
				suite_pattern_name(row->pattern),
				R.topo[row->topo]);
			ret = -1;
			goto out;
		}
		if (res.status != DRIVER_OK) {
			row->status[r] = res.status;
			snprintf(row->reason[r], sizeof(row->reason[r]),
				 "%.255s", res.reason);
		} else if (!driver_result_metrics(res.json, names,
						  NR_METRICS, vals)) {
			for (m = 0; m < NR_METRICS; m++)
				row->v[r][m][s] = vals[m];
			row->ok[r]++;
		}
		driver_result_release(&res);
	}
	R.nr_rows = (size_t)R.nt * R.np;
out:
	free(units);
	free(files);
	return ret;
}

/* ---- judging ---- */

static void judge(struct row *row)
{
	int m, r, s, a, b;

	for (m = 0; m < NR_METRICS; m++) {
		double lo[2] = { INFINITY, INFINITY };
		double hi[2] = { -INFINITY, -INFINITY };
		double base, worse;
		int beyond;

		for (r = 0; r < 2; r++) {
			row->med[r][m] = row->ok[r] == R.seeds ?
				median(row->v[r][m], R.seeds) : NAN;
			for (s = 0; s < R.seeds; s++) {
				double v = row->v[r][m][s];

				if (isnan(v))
					continue;
				lo[r] = v < lo[r] ? v : lo[r];
				hi[r] = v > hi[r] ? v : hi[r];
			}
		}
		row->verdict[m] = SAME;
		row->pct[m] = row->worse[m] = NAN;
		if (isnan(row->med[0][m]) || isnan(row->med[1][m]))
			continue;
		base = fabs(row->med[0][m]);
		if (base < metrics[m].floor)
			base = metrics[m].floor;
		row->pct[m] = 100 * (row->med[1][m] - row->med[0][m]) / base;
		worse = metrics[m].higher_is_better ? -row->pct[m] :
			row->pct[m];
		worse += 0.0;	/* no -0 in the reports */
		row->worse[m] = worse;
		if (fabs(worse) <= R.threshold)
			continue;
		/* every NEW seed beyond every OLD seed, in the median's way */
		a = row->med[1][m] > row->med[0][m];
		beyond = R.seeds < 2 || (a ? lo[1] > hi[0] : hi[1] < lo[0]);
		b = worse > 0;
		row->verdict[m] = !beyond ? NOISE : b ? WORSE : BETTER;
	}
	row->run_verdict = SAME;
	if (row->ok[0] == R.seeds && row->ok[1] < R.seeds)
		row->run_verdict = WORSE;
	else if (row->ok[0] < R.seeds && row->ok[1] == R.seeds)
		row->run_verdict = BETTER;
}

static const char *run_state(const struct row *row, int r)
{
	if (row->ok[r] == R.seeds)
		return "finished";
	return driver_status_name(row->status[r]);
}

/*
 * Largest change in the direction @dir (1 worse, -1 better) first, a run
 * that stopped (or started) finishing before any; then by topology,
 * pattern and metric.
 */
static int rank_cmp(const struct rank *x, const struct rank *y, int dir)
{
	double wx = x->metric < 0 ? INFINITY : dir * x->row->worse[x->metric];
	double wy = y->metric < 0 ? INFINITY : dir * y->row->worse[y->metric];
	int c;

	if (wx != wy)
		return wx > wy ? -1 : 1;
	if (x->row->topo != y->row->topo)
		return x->row->topo - y->row->topo;
	c = x->row->pattern - y->row->pattern;
	return c ? c : x->metric - y->metric;
}

static int by_worse(const void *a, const void *b)
{
	return rank_cmp(a, b, 1);
}

static int by_better(const void *a, const void *b)
{
	return rank_cmp(a, b, -1);
}

/* Every regression (@v WORSE) or improvement, ranked; their count. */
static struct rank *ranked(enum verdict v, size_t *n)
{
	struct rank *list = NULL, *l;
	size_t i, cap = 0;
	int m;

	*n = 0;
	for (i = 0; i < R.nr_rows; i++)
		for (m = -1; m < NR_METRICS; m++) {
			const struct row *row = &R.rows[i];

			if ((m < 0 ? row->run_verdict : row->verdict[m]) != v)
				continue;
			if (*n == cap) {
				cap = cap ? 2 * cap : 64;
				l = realloc(list, cap * sizeof(*list));
				if (!l)
					break;
				list = l;
			}
			list[*n].row = row;
			list[(*n)++].metric = m;
		}
	if (*n)
		qsort(list, *n, sizeof(*list), v == WORSE ? by_worse : by_better);
	return list;
}

/* Per topology and metric: counts and the median change. */
struct summary {
	int worse, better, noise, compared;
	double median_worse;
};

static void summarise(int t, int m, struct summary *out)
{
	double *w = malloc(R.np * sizeof(*w));
	size_t i;
	int k = 0;

	memset(out, 0, sizeof(*out));
	out->median_worse = NAN;
	for (i = 0; i < R.nr_rows; i++) {
		const struct row *row = &R.rows[i];

		if (row->topo != t)
			continue;
		if (m < 0) {	/* the runs themselves */
			out->worse += row->run_verdict == WORSE;
			out->better += row->run_verdict == BETTER;
			out->compared++;
			continue;
		}
		if (isnan(row->worse[m]))
			continue;
		out->compared++;
		out->worse += row->verdict[m] == WORSE;
		out->better += row->verdict[m] == BETTER;
		out->noise += row->verdict[m] == NOISE;
		if (w)
			w[k++] = row->worse[m];
	}
	if (w)
		out->median_worse = lsb_median(w, k);
	free(w);
}

/* ---- the commits between ---- */

struct change {
	char id[41];
	char *subject;
	char *author;
	long long time;
	char files[512];
};

static struct change *changes;
static size_t nr_changes, nr_range_commits;
static char range_note[512];

static void find_changes(const char *repo)
{
	static const char *const prefixes[] = { "kernel/sched/", "include/" };
	struct bisect_classes *cls = NULL;
	bisect_repo *r = NULL;
	const char *prev;
	size_t i;

	if (bisect_repo_open(&r, repo) ||
	    bisect_classes_new(&cls, r, R.rev[0].commit, R.rev[1].commit, 0)) {
		snprintf(range_note, sizeof(range_note),
			 "commits not listed: %s", bisect_last_error());
		goto out;
	}
	nr_range_commits = cls->nr_commits;
	changes = calloc(cls->nr_classes ? cls->nr_classes : 1,
			 sizeof(*changes));
	if (!changes)
		goto out;
	prev = cls->good_subset;
	for (i = 0; i < cls->nr_classes; i++) {
		const struct bisect_class *k = &cls->classes[i];
		struct bisect_commit_info info;
		struct change *c = &changes[nr_changes];
		size_t f, used = 0, headers = 0, more = 0;

		if (!strcmp(k->subset, prev))
			continue;
		prev = k->subset;
		memcpy(c->id, cls->commits[k->first], 41);
		if (bisect_commit_info(&info, r, c->id, prefixes, 2)) {
			bisect_commit_info_release(&info);
			continue;
		}
		c->subject = strdup(info.subject ? info.subject : "");
		c->author = strdup(info.author ? info.author : "");
		c->time = info.time;
		/* the scheduler's files by name, the headers counted */
		for (f = 0; f < info.nr_files; f++) {
			if (strncmp(info.files[f], prefixes[0],
				    strlen(prefixes[0]))) {
				headers++;
				continue;
			}
			if (used + strlen(info.files[f]) + 80 < sizeof(c->files))
				used += snprintf(c->files + used,
						 sizeof(c->files) - used, "%s%s",
						 used ? " " : "", info.files[f]);
			else
				more++;
		}
		if (more)
			used += snprintf(c->files + used, sizeof(c->files) - used,
					 " and %zu more", more);
		if (headers)
			snprintf(c->files + used, sizeof(c->files) - used,
				 "%s%zu file%s under include/", used ? "; " : "",
				 headers, headers == 1 ? "" : "s");
		bisect_commit_info_release(&info);
		nr_changes++;
	}
out:
	bisect_classes_free(cls);
	bisect_repo_free(r);
}

/* ---- plots ---- */

static int metric_index(const char *name)
{
	int m;

	for (m = 0; m < NR_METRICS; m++)
		if (!strcmp(metrics[m].name, name))
			return m;
	return -1;
}

/*
 * heat-TOPO: the median change per family (rows) and metric (columns),
 * positive worse; plane-TOPO: each pattern's change of balance score
 * against its change of energy, clipped to +-100 %.
 */
static int write_plots(const char *dir, int t)
{
	const char *const *fams;
	size_t nf, f, i;
	char path[4300], title[800];
	const char *name = R.topo_name[t];
	double lim = 10;
	int m, mb = metric_index("balance_score"), me = metric_index("energy_j");
	FILE *h, *g;

	fams = suite_families(&nf);
	lsb_pathf(path, sizeof(path), "%s/heat-%s.dat", dir, name);
	h = fopen(path, "w");
	if (!h)
		return -1;
	fprintf(h, "# metric_index family_index median_change_pct_worse (NaN: no pattern)\n");
	for (f = 0; f < nf; f++)
		for (m = 0; m < NR_METRICS; m++) {
			double w[1024];
			int k = 0;

			for (i = 0; i < R.nr_rows && k < 1024; i++)
				if (R.rows[i].topo == t &&
				    !strcmp(suite_pattern_family(R.rows[i].pattern),
					    fams[f]) &&
				    !isnan(R.rows[i].worse[m]))
					w[k++] = R.rows[i].worse[m];
			if (k) {
				double v;

				v = lsb_median(w, k);
				if (fabs(v) > lim)
					lim = fabs(v) > 50 ? 50 : fabs(v);
				fprintf(h, "%d %zu %.15g\n", m, f, v);
			} else {
				fprintf(h, "%d %zu NaN\n", m, f);
			}
		}
	if (fclose(h))
		return -1;

	lsb_pathf(path, sizeof(path), "%s/heat-%s.gp", dir, name);
	g = fopen(path, "w");
	if (!g)
		return -1;
	snprintf(title, sizeof(title),
		 "%s -> %s on %s: median change per family (%%, positive = worse)",
		 R.rev[0].name, R.rev[1].name, R.topo[t]);
	snprintf(path, sizeof(path), "heat-%s", name);
	plot_begin(g, path, 1000, 620, title);
	fprintf(g, "set xrange [-0.5:%d.5]\nset yrange [%zu.5:-0.5]\n"
		"set cbrange [-%g:%g]\nset cblabel 'change (%%): negative better, positive worse'\n"
		"set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')\n"
		"set xtics (", NR_METRICS - 1, nf - 1, lim, lim);
	for (m = 0; m < NR_METRICS; m++)
		fprintf(g, "%s'%s' %d", m ? ", " : "", metrics[m].name, m);
	fprintf(g, ") rotate by 20 right scale 0\nset ytics (");
	for (f = 0; f < nf; f++)
		fprintf(g, "%s'%s' %zu", f ? ", " : "", fams[f], f);
	fprintf(g, ") scale 0\nset key off\nset bmargin 6\n"
		"plot 'heat-%s.dat' using 1:2:(0.5):(0.5):($3 > %g ? %g : $3 < -%g ? -%g : $3) with boxxyerror fs solid 1.0 noborder fc palette, \\\n"
		"     '' using 1:2:(sprintf('%%+.1f', $3)) with labels font 'sans,9'\n",
		name, lim, lim, lim, lim);
	plot_end(g);
	if (fclose(g))
		return -1;

	/* the plane: wide enough for its points, at least +-10 % */
	lim = 10;
	for (i = 0; i < R.nr_rows; i++) {
		const struct row *row = &R.rows[i];

		if (row->topo != t || isnan(row->pct[mb]) || isnan(row->pct[me]))
			continue;
		if (fabs(row->pct[mb]) * 1.1 > lim)
			lim = fabs(row->pct[mb]) * 1.1;
		if (fabs(row->pct[me]) * 1.1 > lim)
			lim = fabs(row->pct[me]) * 1.1;
	}
	lim = lim > 105 ? 105 : lim;
	lsb_pathf(path, sizeof(path), "%s/plane-%s.dat", dir, name);
	h = fopen(path, "w");
	if (!h)
		return -1;
	fprintf(h, "# balance_score_change_pct energy_j_change_pct (clipped to +-100) kind pattern\n"
		"# kind 0: no regression or improvement, 1: a regression, 2: an improvement only\n");
	for (i = 0; i < R.nr_rows; i++) {
		const struct row *row = &R.rows[i];
		int kind = 0;
		double x, y;

		if (row->topo != t || isnan(row->pct[mb]) || isnan(row->pct[me]))
			continue;
		for (m = 0; m < NR_METRICS; m++) {
			if (row->verdict[m] == WORSE)
				kind = 1;
			else if (row->verdict[m] == BETTER && !kind)
				kind = 2;
		}
		x = row->pct[mb] < -100 ? -100 : row->pct[mb] > 100 ? 100 :
		    row->pct[mb];
		y = row->pct[me] < -100 ? -100 : row->pct[me] > 100 ? 100 :
		    row->pct[me];
		fprintf(h, "%.15g %.15g %d %s\n", x, y, kind,
			suite_pattern_name(row->pattern));
	}
	if (fclose(h))
		return -1;
	lsb_pathf(path, sizeof(path), "%s/plane-%s.gp", dir, name);
	g = fopen(path, "w");
	if (!g)
		return -1;
	snprintf(title, sizeof(title),
		 "%s -> %s on %s: each pattern's change (%%, clipped to +-100)",
		 R.rev[0].name, R.rev[1].name, R.topo[t]);
	snprintf(path, sizeof(path), "plane-%s", name);
	plot_begin(g, path, 900, 700, title);
	fprintf(g, "set xlabel 'balance score change (%%, lower is better)'\n"
		"set ylabel 'energy change (%%, lower is better)'\n"
		"set xrange [-%.3g:%.3g]\nset yrange [-%.3g:%.3g]\n"
		"set grid lc rgb '#e0e0e0'\nset key below horizontal\nset bmargin 5\n"
		"set xzeroaxis lt -1\nset yzeroaxis lt -1\n"
		"plot 'plane-%s.dat' using ($3 == 0 ? $1 : NaN):2 with points pt 7 ps 0.8 lc rgb '#a0a0a0' title 'within threshold or noise', \\\n"
		"     '' using ($3 == 2 ? $1 : NaN):2 with points pt 7 ps 1 lc rgb '#2166ac' title 'an improvement', \\\n"
		"     '' using ($3 == 1 ? $1 : NaN):2 with points pt 7 ps 1 lc rgb '#b2182b' title 'a regression (any metric)'\n",
		lim, lim, lim, lim, name);
	plot_end(g);
	if (fclose(g))
		return -1;
	return 0;
}

static int make_plots(void)
{
	char dir[4300], script[300];
	int t;

	lsb_pathf(dir, sizeof(dir), "%s/plots", R.out);
	if (lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (t = 0; t < R.nt; t++) {
		if (write_plots(dir, t)) {
			fprintf(stderr, "error: cannot write in '%s': %s\n",
				dir, strerror(errno));
			return -1;
		}
		snprintf(script, sizeof(script), "heat-%s.gp", R.topo_name[t]);
		if (run_gnuplot(dir, script))
			return -1;
		snprintf(script, sizeof(script), "plane-%s.gp", R.topo_name[t]);
		if (run_gnuplot(dir, script))
			return -1;
	}
	return 0;
}

/* ---- JSON ---- */

static cJSON *json_number(double v)
{
	return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

static cJSON *json_change(const struct rank *k)
{
	const struct row *row = k->row;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "topology", R.topo[row->topo]);
	cJSON_AddStringToObject(o, "pattern", suite_pattern_name(row->pattern));
	if (k->metric < 0) {
		cJSON_AddStringToObject(o, "metric", "run");
		cJSON_AddStringToObject(o, "old", run_state(row, 0));
		cJSON_AddStringToObject(o, "new", run_state(row, 1));
		cJSON_AddStringToObject(o, "reason", row->reason[row->ok[1] < R.seeds]);
		return o;
	}
	cJSON_AddStringToObject(o, "metric", metrics[k->metric].name);
	cJSON_AddItemToObject(o, "old", json_number(row->med[0][k->metric]));
	cJSON_AddItemToObject(o, "new", json_number(row->med[1][k->metric]));
	cJSON_AddItemToObject(o, "change_pct", json_number(row->pct[k->metric]));
	return o;
}

static cJSON *json_rev(const struct driver_target *t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", t->name);
	cJSON_AddStringToObject(o, "commit", t->commit);
	cJSON_AddStringToObject(o, "subset", t->subset);
	return o;
}

static char *report_json(const struct rank *worse, size_t nw,
			 const struct rank *better, size_t nb, double wall)
{
	cJSON *root = cJSON_CreateObject(), *a, *o, *b, *c;
	size_t i;
	int t, m, r, s;
	char *text;

	cJSON_AddNumberToObject(root, "report_version", 1);
	cJSON_AddItemToObject(root, "old", json_rev(&R.rev[0]));
	cJSON_AddItemToObject(root, "new", json_rev(&R.rev[1]));
	cJSON_AddStringToObject(root, "suite", R.suite);
	cJSON_AddNumberToObject(root, "patterns", R.np);
	a = cJSON_AddArrayToObject(root, "topologies");
	for (t = 0; t < R.nt; t++)
		cJSON_AddItemToArray(a, cJSON_CreateString(R.topo[t]));
	cJSON_AddStringToObject(root, "duration", R.duration);
	cJSON_AddNumberToObject(root, "seeds", R.seeds);
	cJSON_AddNumberToObject(root, "threshold_pct", R.threshold);
	a = cJSON_AddArrayToObject(root, "metrics");
	for (m = 0; m < NR_METRICS; m++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", metrics[m].name);
		cJSON_AddStringToObject(o, "better", metrics[m].higher_is_better ?
					"higher" : "lower");
		cJSON_AddNumberToObject(o, "floor", metrics[m].floor);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddNumberToObject(root, "regressions", (double)nw);
	cJSON_AddNumberToObject(root, "improvements", (double)nb);
	a = cJSON_AddArrayToObject(root, "summary");
	for (t = 0; t < R.nt; t++)
		for (m = -1; m < NR_METRICS; m++) {
			struct summary sm;

			summarise(t, m, &sm);
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "topology", R.topo[t]);
			cJSON_AddStringToObject(o, "metric", m < 0 ? "run" :
						metrics[m].name);
			cJSON_AddNumberToObject(o, "compared", sm.compared);
			cJSON_AddNumberToObject(o, "regressions", sm.worse);
			cJSON_AddNumberToObject(o, "improvements", sm.better);
			if (m >= 0) {
				cJSON_AddNumberToObject(o, "noise", sm.noise);
				cJSON_AddItemToObject(o, "median_change_pct_worse",
						      json_number(sm.median_worse));
			}
			cJSON_AddItemToArray(a, o);
		}
	a = cJSON_AddArrayToObject(root, "worst_regressions");
	for (i = 0; i < nw; i++)
		cJSON_AddItemToArray(a, json_change(&worse[i]));
	a = cJSON_AddArrayToObject(root, "best_improvements");
	for (i = 0; i < nb; i++)
		cJSON_AddItemToArray(a, json_change(&better[i]));
	a = cJSON_AddArrayToObject(root, "subset_changes");
	for (i = 0; i < nr_changes; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "commit", changes[i].id);
		cJSON_AddStringToObject(o, "subject", changes[i].subject);
		cJSON_AddStringToObject(o, "author", changes[i].author);
		cJSON_AddNumberToObject(o, "time", (double)changes[i].time);
		cJSON_AddStringToObject(o, "files", changes[i].files);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddNumberToObject(root, "range_commits", (double)nr_range_commits);
	if (*range_note)
		cJSON_AddStringToObject(root, "range_note", range_note);
	a = cJSON_AddArrayToObject(root, "results");
	for (i = 0; i < R.nr_rows; i++) {
		const struct row *row = &R.rows[i];

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "topology", R.topo[row->topo]);
		cJSON_AddStringToObject(o, "pattern",
					suite_pattern_name(row->pattern));
		cJSON_AddStringToObject(o, "family",
					suite_pattern_family(row->pattern));
		for (r = 0; r < 2; r++) {
			b = cJSON_AddObjectToObject(o, r ? "new" : "old");
			cJSON_AddStringToObject(b, "status", run_state(row, r));
			if (row->ok[r] < R.seeds)
				cJSON_AddStringToObject(b, "reason",
							row->reason[r]);
			c = cJSON_AddObjectToObject(b, "seeds");
			for (m = 0; m < NR_METRICS; m++) {
				cJSON *v = cJSON_AddArrayToObject(c,
							metrics[m].name);

				for (s = 0; s < R.seeds; s++)
					cJSON_AddItemToArray(v,
						json_number(row->v[r][m][s]));
			}
		}
		c = cJSON_AddObjectToObject(o, "changes");
		for (m = 0; m < NR_METRICS; m++) {
			b = cJSON_AddObjectToObject(c, metrics[m].name);
			cJSON_AddItemToObject(b, "old", json_number(row->med[0][m]));
			cJSON_AddItemToObject(b, "new", json_number(row->med[1][m]));
			cJSON_AddItemToObject(b, "change_pct",
					      json_number(row->pct[m]));
			cJSON_AddStringToObject(b, "verdict",
						verdict_name[row->verdict[m]]);
		}
		cJSON_AddStringToObject(o, "run_verdict",
					verdict_name[row->run_verdict]);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddNumberToObject(root, "wall_s", wall);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

/* ---- text ---- */

static void text_change(FILE *f, size_t i, const struct rank *k)
{
	const struct row *row = k->row;
	char a[32], b[32], p[32];

	if (k->metric < 0) {
		fprintf(f, "%3zu. %-14s %-44s run: %s -> %s: %s\n", i + 1,
			R.topo[row->topo], suite_pattern_name(row->pattern),
			run_state(row, 0), run_state(row, 1),
			row->reason[row->ok[1] < R.seeds]);
		return;
	}
	fmt_value(a, sizeof(a), row->med[0][k->metric]);
	fmt_value(b, sizeof(b), row->med[1][k->metric]);
	fmt_pct(p, sizeof(p), row->pct[k->metric]);
	fprintf(f, "%3zu. %-14s %-44s %-22s %12s -> %-12s %9s\n", i + 1,
		R.topo[row->topo], suite_pattern_name(row->pattern),
		metrics[k->metric].name, a, b, p);
}

static void text_header(FILE *f, size_t nw, size_t nb)
{
	int t;

	fprintf(f, "linsched report: %s (%.12s) -> %s (%.12s)\n",
		R.rev[0].name, R.rev[0].commit, R.rev[1].name, R.rev[1].commit);
	fprintf(f, "suite %s: %d patterns on", R.suite, R.np);
	for (t = 0; t < R.nt; t++)
		fprintf(f, "%s %s", t ? "," : "", R.topo[t]);
	fprintf(f, "; %s each, seeds 1..%d\n", R.duration, R.seeds);
	fprintf(f, "a change counts past %g%% of OLD's median (or of the metric's floor)%s\n",
		R.threshold, R.seeds > 1 ?
		" with every NEW seed beyond every OLD seed" :
		"; one seed: noise not judged");
	fprintf(f, "verdict: %zu regression%s, %zu improvement%s\n", nw,
		nw == 1 ? "" : "s", nb, nb == 1 ? "" : "s");
}

static int write_text(const struct rank *worse, size_t nw,
		      const struct rank *better, size_t nb)
{
	struct doc d;
	size_t i;
	int t, m;
	FILE *f;

	if (doc_open(&d, "report.txt"))
		return -1;
	f = d.f;
	text_header(f, nw, nb);
	fprintf(f, "\nPer topology (regressions / improvements / noise of compared patterns; median change, positive = worse)\n");
	for (t = 0; t < R.nt; t++) {
		fprintf(f, "%s\n", R.topo[t]);
		for (m = -1; m < NR_METRICS; m++) {
			struct summary sm;
			char p[32];

			summarise(t, m, &sm);
			if (m < 0) {
				fprintf(f, "  %-22s %4d regressions %4d improvements           of %d\n",
					"run", sm.worse, sm.better, sm.compared);
				continue;
			}
			fmt_pct(p, sizeof(p), sm.median_worse);
			fprintf(f, "  %-22s %4d regressions %4d improvements %4d noise of %d, median %s\n",
				metrics[m].name, sm.worse, sm.better, sm.noise,
				sm.compared, p);
		}
	}
	fprintf(f, "\nWorst regressions (%zu of %zu)\n", nw < (size_t)R.top ?
		nw : (size_t)R.top, nw);
	for (i = 0; i < nw && i < (size_t)R.top; i++)
		text_change(f, i, &worse[i]);
	if (!nw)
		fprintf(f, "  none\n");
	fprintf(f, "\nBest improvements (%zu of %zu)\n", nb < (size_t)R.top ?
		nb : (size_t)R.top, nb);
	for (i = 0; i < nb && i < (size_t)R.top; i++)
		text_change(f, i, &better[i]);
	if (!nb)
		fprintf(f, "  none\n");
	fprintf(f, "\nCommits from OLD to NEW that changed the build subset (%zu of %zu commits)\n",
		nr_changes, nr_range_commits);
	for (i = 0; i < nr_changes; i++)
		fprintf(f, "  %.12s %s\n%s%s%s", changes[i].id,
			changes[i].subject, *changes[i].files ? "      " : "",
			changes[i].files, *changes[i].files ? "\n" : "");
	if (*range_note)
		fprintf(f, "  %s\n", range_note);
	fprintf(f, "\nEvery pattern, metric and seed: report.json; tables and plots: report.html\n");
	return doc_close(&d);
}

/* ---- HTML ---- */

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static int html_image(FILE *f, const char *name, const char *alt)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char path[4400];
	unsigned char *p;
	size_t len, i;

	lsb_pathf(path, sizeof(path), "%s/plots/%s", R.out, name);
	p = (unsigned char *)lsb_read_file(path, &len);
	if (!p)
		return -1;
	fputs("<figure><img alt=\"", f);
	html_text(f, alt);
	fputs("\" src=\"data:image/png;base64,", f);
	for (i = 0; i + 2 < len; i += 3)
		fprintf(f, "%c%c%c%c", b64[p[i] >> 2],
			b64[(p[i] & 3) << 4 | p[i + 1] >> 4],
			b64[(p[i + 1] & 15) << 2 | p[i + 2] >> 6],
			b64[p[i + 2] & 63]);
	if (len - i == 1)
		fprintf(f, "%c%c==", b64[p[i] >> 2], b64[(p[i] & 3) << 4]);
	else if (len - i == 2)
		fprintf(f, "%c%c%c=", b64[p[i] >> 2],
			b64[(p[i] & 3) << 4 | p[i + 1] >> 4],
			b64[(p[i + 1] & 15) << 2]);
	fputs("\"><figcaption>", f);
	html_text(f, alt);
	fprintf(f, " (<a href=\"plots/%s\">png</a>)</figcaption></figure>\n",
		name);
	free(p);
	return 0;
}

static void html_change_row(FILE *f, size_t i, const struct rank *k)
{
	const struct row *row = k->row;
	char a[32], b[32], p[32];

	fprintf(f, "<tr class=\"change\" data-key=\"%s/%s/%s\"><td>%zu</td><td>",
		R.topo[row->topo], suite_pattern_name(row->pattern),
		k->metric < 0 ? "run" : metrics[k->metric].name, i + 1);
	html_text(f, R.topo[row->topo]);
	fprintf(f, "</td><td>%s</td>", suite_pattern_name(row->pattern));
	if (k->metric < 0) {
		fprintf(f, "<td>run</td><td>%s</td><td>%s</td><td>", run_state(row, 0),
			run_state(row, 1));
		html_text(f, row->reason[row->ok[1] < R.seeds]);
		fputs("</td></tr>\n", f);
		return;
	}
	fmt_value(a, sizeof(a), row->med[0][k->metric]);
	fmt_value(b, sizeof(b), row->med[1][k->metric]);
	fmt_pct(p, sizeof(p), row->pct[k->metric]);
	fprintf(f, "<td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
		metrics[k->metric].name, a, b, p);
}

static void html_ranked(FILE *f, const char *title, const struct rank *list,
			size_t n)
{
	size_t i;

	fprintf(f, "<h2>%s (%zu of %zu)</h2>\n", title,
		n < (size_t)R.top ? n : (size_t)R.top, n);
	if (!n) {
		fputs("<p>none</p>\n", f);
		return;
	}
	fputs("<table><tr><th>#</th><th>topology</th><th>pattern</th><th>metric</th><th>OLD</th><th>NEW</th><th>change</th></tr>\n", f);
	for (i = 0; i < n && i < (size_t)R.top; i++)
		html_change_row(f, i, &list[i]);
	fputs("</table>\n", f);
}

static int write_html(const struct rank *worse, size_t nw,
		      const struct rank *better, size_t nb)
{
	static const char *const cls[] = {
		[SAME] = "", [NOISE] = " class=\"noise\"",
		[WORSE] = " class=\"worse\"", [BETTER] = " class=\"better\"",
	};
	char name[300], alt[512], a[32], b[32], p[32];
	struct doc d;
	size_t i;
	int t, m;
	FILE *f;

	if (doc_open(&d, "report.html"))
		return -1;
	f = d.f;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>linsched report: ", f);
	html_text(f, R.rev[0].name);
	fputs(" -&gt; ", f);
	html_text(f, R.rev[1].name);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;max-width:78em;color:#222}\n"
	      "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
	      "td,th{border:1px solid #ccc;padding:.2em .5em;font-size:.9em}\n"
	      "th{background:#f0f0f0}td.n{text-align:right;font-family:monospace}\n"
	      "td.worse{background:#f6d0d0}td.better{background:#d0e4f6}td.noise{color:#888}\n"
	      "pre{background:#f7f7f7;padding:.8em}figure{display:inline-block;margin:.5em}\n"
	      "img{max-width:100%;border:1px solid #ddd}\n"
	      "</style></head><body>\n<h1>linsched report: ", f);
	html_text(f, R.rev[0].name);
	fputs(" &rarr; ", f);
	html_text(f, R.rev[1].name);
	fputs("</h1>\n<pre>", f);
	{
		char *hdr = NULL;
		size_t hl = 0;
		FILE *m2 = open_memstream(&hdr, &hl);

		if (m2) {
			text_header(m2, nw, nb);
			fclose(m2);
			html_text(f, hdr);
		}
		free(hdr);
	}
	fputs("</pre>\n<h2>Per topology</h2>\n", f);
	for (t = 0; t < R.nt; t++) {
		fputs("<h3>", f);
		html_text(f, R.topo[t]);
		fputs("</h3>\n<table><tr><th>metric</th><th>better</th><th>regressions</th><th>improvements</th><th>noise</th><th>compared</th><th>median change (positive worse)</th></tr>\n", f);
		for (m = -1; m < NR_METRICS; m++) {
			struct summary sm;

			summarise(t, m, &sm);
			fmt_pct(p, sizeof(p), sm.median_worse);
			fprintf(f, "<tr class=\"summary\" data-key=\"%s/%s\"><td>%s</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%s</td><td class=\"n\">%d</td><td class=\"n\">%s</td></tr>\n",
				R.topo[t], m < 0 ? "run" : metrics[m].name,
				m < 0 ? "run" : metrics[m].name,
				m < 0 ? "finishes" : metrics[m].higher_is_better ?
				"higher" : "lower", sm.worse, sm.better,
				m < 0 ? "-" : (snprintf(a, sizeof(a), "%d", sm.noise), a),
				sm.compared, m < 0 ? "-" : p);
		}
		fputs("</table>\n", f);
		snprintf(name, sizeof(name), "heat-%s.png", R.topo_name[t]);
		snprintf(alt, sizeof(alt), "%s: median change per family and metric",
			 R.topo[t]);
		if (html_image(f, name, alt))
			goto fail;
		snprintf(name, sizeof(name), "plane-%s.png", R.topo_name[t]);
		snprintf(alt, sizeof(alt), "%s: balance score vs energy change per pattern",
			 R.topo[t]);
		if (html_image(f, name, alt))
			goto fail;
	}
	html_ranked(f, "Worst regressions", worse, nw);
	html_ranked(f, "Best improvements", better, nb);
	fprintf(f, "<h2>Commits from OLD to NEW that changed the build subset (%zu of %zu commits)</h2>\n<table><tr><th>commit</th><th>subject</th><th>files under kernel/sched/ and include/</th></tr>\n",
		nr_changes, nr_range_commits);
	for (i = 0; i < nr_changes; i++) {
		fprintf(f, "<tr><td><code>%.12s</code></td><td>", changes[i].id);
		html_text(f, changes[i].subject);
		fputs("</td><td>", f);
		html_text(f, changes[i].files);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (*range_note) {
		fputs("<p>", f);
		html_text(f, range_note);
		fputs("</p>\n", f);
	}
	fputs("<h2>Every pattern</h2>\n<p>Medians over the seeds; coloured: past the threshold (red worse, blue better, grey within the seeds' noise).</p>\n", f);
	for (t = 0; t < R.nt; t++) {
		fprintf(f, "<details><summary>");
		html_text(f, R.topo[t]);
		fputs("</summary>\n<table><tr><th>pattern</th><th>run</th>", f);
		for (m = 0; m < NR_METRICS; m++)
			fprintf(f, "<th colspan=\"3\">%s (%s better)</th>",
				metrics[m].name,
				metrics[m].higher_is_better ? "higher" : "lower");
		fputs("</tr>\n", f);
		for (i = 0; i < R.nr_rows; i++) {
			const struct row *row = &R.rows[i];

			if (row->topo != t)
				continue;
			fprintf(f, "<tr class=\"result\" data-key=\"%s/%s\"><td>%s</td><td%s>%s%s%s</td>",
				R.topo[t], suite_pattern_name(row->pattern),
				suite_pattern_name(row->pattern),
				cls[row->run_verdict], run_state(row, 0),
				strcmp(run_state(row, 0), run_state(row, 1)) ?
				" -&gt; " : "",
				strcmp(run_state(row, 0), run_state(row, 1)) ?
				run_state(row, 1) : "");
			for (m = 0; m < NR_METRICS; m++) {
				fmt_value(a, sizeof(a), row->med[0][m]);
				fmt_value(b, sizeof(b), row->med[1][m]);
				fmt_pct(p, sizeof(p), row->pct[m]);
				fprintf(f, "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n%s\">%s</td>",
					a, b, row->verdict[m] == WORSE ? " worse" :
					row->verdict[m] == BETTER ? " better" :
					row->verdict[m] == NOISE ? " noise" : "",
					p);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table></details>\n", f);
	}
	fputs("</body></html>\n", f);
	return doc_close(&d);
fail:
	fclose(f);
	free(d.buf);
	fprintf(stderr, "error: cannot embed the plots of '%s': %s\n", R.out,
		strerror(errno));
	return -1;
}

/* ---- main ---- */

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || end == s || v < lo || v > hi) {
		fprintf(stderr, "error: %s '%s': expected %d to %d\n", opt, s,
			lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "match", required_argument, NULL, 'm' },
		{ "topology", required_argument, NULL, 't' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "seeds", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "top", required_argument, NULL, 'K' },
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
	static const char *const default_topos[] = {
		"quad-smt", "dynamiq-1+3+4", "numa-2",
	};
	static struct driver_paths paths;
	const char *globs[MAX_MATCH], *repo = NULL, *out = NULL;
	int c, i, t, nglobs = 0, timeout = 600, quiet = 0, verbose = 0;
	int ret = 4, r;
	struct rank *worse = NULL, *better = NULL;
	size_t nw = 0, nb = 0;
	char *json = NULL, *end;
	double t0 = lsb_now();
	struct driver_engine engine;

	memset(&R, 0, sizeof(R));
	R.seeds = 3;
	R.threshold = 5;
	R.suite = "full";
	R.duration = "10s";
	R.top = 20;
	engine_defaults(&engine);
	while ((c = getopt_long(argc, argv, "s:m:t:T:n:d:r:o:j:qvh", opts,
				NULL)) != -1) {
		switch (c) {
		case 's': R.suite = optarg; break;
		case 'm':
			if (nglobs == MAX_MATCH) {
				fprintf(stderr, "error: at most %d --match options\n",
					MAX_MATCH);
				return 2;
			}
			globs[nglobs++] = optarg;
			break;
		case 't':
			if (R.nt == MAX_TOPOS) {
				fprintf(stderr, "error: at most %d --topology options\n",
					MAX_TOPOS);
				return 2;
			}
			R.topo[R.nt++] = optarg;
			break;
		case 'T':
			R.threshold = strtod(optarg, &end);
			if (*end || end == optarg || !(R.threshold >= 0) ||
			    R.threshold > 1e6) {
				fprintf(stderr, "error: --threshold '%s': expected a percentage such as 5\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
			if (parse_int("--seeds", optarg, 1, MAX_SEEDS, &R.seeds))
				return 2;
			break;
		case 'd': R.duration = optarg; break;
		case 'K':
			if (parse_int("--top", optarg, 1, 100000, &R.top))
				return 2;
			break;
		case 'r': repo = optarg; break;
		case 'o': out = optarg; break;
		case 'O':
			if (parse_int("--timeout", optarg, 0, 1000000, &timeout))
				return 2;
			break;
		case 'q': quiet = 1; break;
		case 'v': verbose = 1; break;
		case 'h':
			fputs(usage_report, stdout);
			return 0;
		default:
			if (!engine_option(&engine, c, optarg))
				break;
			fputs(usage_report, stderr);
			return 2;
		}
	}
	if (optind + 2 != argc) {
		fprintf(stderr, "error: linsched report takes two revisions, OLD and NEW\n");
		fputs(usage_report, stderr);
		return 2;
	}
	if (!R.nt)
		for (t = 0; t < 3; t++)
			R.topo[R.nt++] = default_topos[t];
	for (t = 0; t < R.nt; t++) {
		static struct topology topo;
		char err[512];

		if (driver_check_specs("hog", R.topo[t], R.duration)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 2;
		}
		if (topology_from_spec(&topo, R.topo[t], err, sizeof(err))) {
			fprintf(stderr, "error: %s\n", err);
			return 2;
		}
		R.topo_cpus[t] = topo.nr_cpus;
		snprintf(R.topo_name[t], sizeof(R.topo_name[t]), "%s",
			 cmd_base_name(R.topo[t]));
		lsb_safe_name(R.topo_name[t]);
		for (i = 0; i < t; i++)
			if (!strcmp(R.topo_name[i], R.topo_name[t])) {
				fprintf(stderr, "error: --topology '%s' given twice (or two files of one name)\n",
					R.topo[t]);
				return 2;
			}
	}
	ret = suite_select(R.suite, globs, nglobs, &R.patterns, &R.np);
	if (ret) {
		ret = ret == 2 ? 2 : 4;
		goto out;
	}
	ret = 4;
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	if (!repo)
		repo = paths.repo;
	R.tty = !quiet && isatty(2);

	for (r = 0; r < 2; r++) {
		const char *name = argv[optind + r];

		if (R.tty)
			fprintf(stderr, "report: preparing %s...\033[K\r", name);
		if (driver_target_prepare(&R.rev[r], &paths, repo, name,
					  engine.jobs, verbose)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			goto out;
		}
		if (R.rev[r].status != DRIVER_OK) {
			fprintf(stderr, "error: %s %s does not build: %s\n",
				r ? "NEW" : "OLD", name, R.rev[r].reason);
			goto out;
		}
	}
	if (R.tty)
		fputs("\033[K", stderr);
	if (out) {
		lsb_pathf(R.out, sizeof(R.out), "%s", out);
	} else {
		char name[600];

		snprintf(name, sizeof(name), "report-%s-%s", argv[optind],
			 argv[optind + 1]);
		lsb_safe_name(name);
		lsb_pathf(R.out, sizeof(R.out), "%s/%s", paths.data_dir, name);
	}
	if (lsb_mkdir_p(R.out)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", R.out,
			strerror(errno));
		goto out;
	}
	if (run_all(&paths, &engine, timeout))
		goto out;
	for (i = 0; (size_t)i < R.nr_rows; i++)
		judge(&R.rows[i]);
	worse = ranked(WORSE, &nw);
	better = ranked(BETTER, &nb);
	find_changes(repo);
	if (make_plots())
		goto out;
	json = report_json(worse, nw, better, nb, lsb_now() - t0);
	if (!json) {
		fprintf(stderr, "error: out of memory\n");
		goto out;
	}
	{
		char path[4300];

		lsb_pathf(path, sizeof(path), "%s/report.json", R.out);
		if (lsb_write_atomic(path, json, strlen(json))) {
			fprintf(stderr, "error: cannot write '%s': %s\n", path,
				strerror(errno));
			goto out;
		}
	}
	if (write_text(worse, nw, better, nb) || write_html(worse, nw, better, nb))
		goto out;

	{
		char path[4300], *text;

		lsb_pathf(path, sizeof(path), "%s/report.txt", R.out);
		text = lsb_read_file(path, NULL);
		if (text) {
			/* the summary, without the full lists */
			char *cut = strstr(text, "\nEvery pattern");

			if (cut)
				cut[1] = '\0';
			fputs(text, stdout);
		}
		free(text);
	}
	printf("\n%s/report.html\n%s/report.txt\n%s/report.json\n%s/plots/\n",
	       R.out, R.out, R.out, R.out);
	ret = nw ? 1 : 0;
out:
	free(json);
	free(worse);
	free(better);
	for (i = 0; (size_t)i < nr_changes; i++) {
		free(changes[i].subject);
		free(changes[i].author);
	}
	free(changes);
	changes = NULL;
	nr_changes = 0;
	free(R.rows);
	free(R.patterns);
	driver_target_release(&R.rev[0]);
	driver_target_release(&R.rev[1]);
	return ret;
}
