// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched trend - run every revision class of a range for some workloads
 * on some machines and draw, with gnuplot, how the metrics move along it.
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

int cmd_trend(int argc, char **argv);

static const char usage_trend[] =
"usage: linsched trend GOOD..BAD --workload W --topology T [options]\n"
"\n"
"Run every revision class of a range (GOOD itself, then the commits\n"
"reachable from BAD and not from GOOD, consecutive commits with the same\n"
"build subset run once, as lsbisect does) for each workload on each\n"
"topology, and draw with gnuplot, per workload and topology:\n"
"  balance-energy  balance score and energy across the revisions (two\n"
"                  y axes), x labelled with a revision's tag or short hash\n"
"  plane           energy against balance score, one labelled point per\n"
"                  revision, arrows in revision order\n"
"  metrics         small multiples of balance_score, work_conservation,\n"
"                  wakeup_latency_ns.p99, throughput, energy_j and\n"
"                  mean_power_w across the revisions\n"
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

#define NR_METRICS 6
#define MAX_SPECS 16

static const char *const metric_name[NR_METRICS] = {
	"balance_score", "work_conservation", "wakeup_latency_ns.p99",
	"throughput", "energy_j", "mean_power_w",
};

/* A point of the plots: GOOD, or a class of the range. */
struct point {
	char first[41];		/* its oldest commit */
	char last[41];		/* its newest */
	size_t n;		/* commits */
	char label[64];		/* a tag of it, else the short hash */
	/* filled per workload and topology */
	int ok;			/* seeds that ran */
	int status;		/* the last skip's status */
	char reason[512];	/* and its reason */
	double *v[NR_METRICS];	/* per seed, NAN when absent */
};

struct tag {
	char commit[41];
	char name[64];
};

static struct tag *tags;
static size_t nr_tags;

/* The tags of @repo and the commits they point at (peeled). */
static void read_tags(const char *repo)
{
	char cmd[4400], line[512], a[64], b[64], name[256];
	size_t cap = 0;
	FILE *p;

	lsb_pathf(cmd, sizeof(cmd),
		  "git -C '%s' for-each-ref refs/tags --format='%%(objectname) %%(*objectname) %%(refname:short)' 2>/dev/null",
		  repo);
	if (strchr(repo, '\''))
		return;
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		int k = sscanf(line, "%63s %63s %255s", a, b, name);
		const char *c = k == 3 ? b : a;

		if (k == 2)	/* a lightweight tag: no peeled id */
			snprintf(name, sizeof(name), "%s", b);
		if (k < 2 || strlen(c) != 40)
			continue;
		if (nr_tags == cap) {
			struct tag *t;

			cap = cap ? 2 * cap : 64;
			t = realloc(tags, cap * sizeof(*tags));
			if (!t)
				break;
			tags = t;
		}
		snprintf(tags[nr_tags].commit, 41, "%s", c);
		snprintf(tags[nr_tags].name, 64, "%.63s", name);
		nr_tags++;
	}
	pclose(p);
}

static const char *tag_of(const char *commit)
{
	size_t i;

	for (i = 0; i < nr_tags; i++)
		if (!strcmp(tags[i].commit, commit))
			return tags[i].name;
	return NULL;
}

/* The newest commit of a class with a tag names it, else its first's hash. */
static void label_point(struct point *p, struct bisect_classes *c,
			size_t first)
{
	const char *t = NULL;
	size_t i;

	for (i = p->n; i-- > 0 && !t;)
		t = tag_of(first == (size_t)-1 ? p->first :
			   c->commits[first + i]);
	if (t)
		snprintf(p->label, sizeof(p->label), "%s", t);
	else if (p->n > 1)
		snprintf(p->label, sizeof(p->label), "%.12s+%zu", p->first,
			 p->n - 1);
	else
		snprintf(p->label, sizeof(p->label), "%.12s", p->first);
}

/* Median, min and max of the values that are there; NAN when none. */
static void stats(const double *v, int n, double out[3])
{
	double s[64];
	int k = 0, i;

	for (i = 0; i < n && k < 64; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	if (!k) {
		out[0] = out[1] = out[2] = NAN;
		return;
	}
	out[0] = lsb_median(s, k);
	out[1] = s[0];
	out[2] = s[k - 1];
}


static void num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN", f);
	else
		fprintf(f, " %.15g", v);
}

/* A revision's place in the plane; -1 when it has none. */
static int plane_xy(const struct point *p, int seeds, double *x, double *y)
{
	double s[3];

	if (!p->ok)
		return -1;
	stats(p->v[0], seeds, s);
	*x = s[0];
	stats(p->v[4], seeds, s);
	*y = s[0];
	return isnan(*x) || isnan(*y) ? -1 : 0;
}

/*
 * plane.dat: one line per place in the plane, with the labels of every
 * revision there (revisions often share one); arrows.dat: a vector from
 * each revision to the next one that moved, gaps skipped.
 *
 * Return: the number of arrows, or -1 with errno set.
 */
static int write_plane(const char *dir, const struct point *pts, size_t n,
		       int seeds)
{
	char path[4200], label[200];
	double x, y, px = NAN, py = NAN, qx, qy;
	size_t i, j, k, len;
	int arrows = 0;
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/plane.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# balance_score energy_j revisions (the revisions at that place)\n");
	for (i = 0; i < n; i++) {
		if (plane_xy(&pts[i], seeds, &x, &y))
			continue;
		for (j = 0; j < i; j++)	/* drawn already */
			if (!plane_xy(&pts[j], seeds, &qx, &qy) &&
			    qx == x && qy == y)
				break;
		if (j < i)
			continue;
		label[0] = '\0';
		for (j = i, k = 0; j < n; j++) {
			if (plane_xy(&pts[j], seeds, &qx, &qy) || qx != x ||
			    qy != y)
				continue;
			len = strlen(label);
			if (k++ < 3)
				snprintf(label + len, sizeof(label) - len,
					 "%s%s", k > 1 ? ", " : "",
					 pts[j].label);
			else if (k == 4)
				snprintf(label + len, sizeof(label) - len,
					 ", ...");
		}
		if (k > 4)
			snprintf(label + strlen(label),
				 sizeof(label) - strlen(label), " (%zu)", k);
		fprintf(f, "%.15g %.15g \"%s\"\n", x, y, label);
	}
	if (fclose(f))
		return -1;

	lsb_pathf(path, sizeof(path), "%s/arrows.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# balance_score energy_j d_balance d_energy (revision order, gaps skipped)\n");
	for (i = 0; i < n; i++) {
		if (plane_xy(&pts[i], seeds, &x, &y))
			continue;
		if (!isnan(px) && (x != px || y != py)) {
			fprintf(f, "%.15g %.15g %.15g %.15g\n", px, py,
				x - px, y - py);
			arrows++;
		}
		px = x;
		py = y;
	}
	return fclose(f) ? -1 : arrows;
}

static int write_dat(const char *dir, struct point *pts, size_t n, int seeds)
{
	char path[4200];
	double s[3];
	size_t i;
	int m;
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/trend.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# index label first_commit last_commit commits status");
	for (m = 0; m < NR_METRICS; m++)
		fprintf(f, " %s %s.min %s.max", metric_name[m], metric_name[m],
			metric_name[m]);
	fprintf(f, "\n# a value is the median over %d seed%s; NaN: no value (a gap)\n",
		seeds, seeds > 1 ? "s" : "");
	for (i = 0; i < n; i++) {
		const struct point *p = &pts[i];

		fprintf(f, "%zu \"%s\" %s %s %zu %s", i, p->label, p->first,
			p->last, p->n,
			driver_status_name(p->ok ? DRIVER_OK : p->status));
		for (m = 0; m < NR_METRICS; m++) {
			if (p->ok) {
				stats(p->v[m], seeds, s);
			} else {
				s[0] = NAN;
				s[1] = NAN;
				s[2] = NAN;
			}
			num(f, s[0]);
			num(f, s[1]);
			num(f, s[2]);
		}
		fputc('\n', f);
	}
	if (fclose(f))
		return -1;

	return write_plane(dir, pts, n, seeds);
}

/* Column of metric @m's median in trend.dat (1-based). */
static int col(int m)
{
	return 7 + 3 * m;
}

static void gp_head(FILE *f, const char *name, const char *title, int w,
		    int h)
{
	fprintf(f, "# linsched trend: gnuplot %s.gp (in this directory)\n"
		"# trend.dat: index label first_commit last_commit commits status,\n"
		"# then per metric its median, min and max (NaN: a gap)\n"
		"set terminal pngcairo size %d,%d font 'sans,10'\n"
		"set output '%s.png'\nset termoption noenhanced\n"
		"set title ", name, w, h, name);
	plot_quote(f, title);
	fputc('\n', f);
}

static void gp_tail(FILE *f, const char *name, int w, int h)
{
	fprintf(f, "\nset terminal svg size %d,%d font 'sans,10' background rgb 'white'\n"
		"set termoption noenhanced\n"
		"set output '%s.svg'\nreplot\nunset output\n", w, h, name);
}

/*
 * A shaded band with the reason's status at each gap; tic labels slanted
 * when more than @flat of them would have to share the width side by side
 * (8 on a full-width plot, fewer in the panels of the small multiples).
 */
static void gp_xtics(FILE *f, const struct point *pts, size_t n, size_t flat)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!pts[i].ok)
			fprintf(f, "set object rectangle from first %zu - 0.4, graph 0 to first %zu + 0.4, graph 1 fc rgb '#f6dada' fs solid 1.0 noborder behind\n"
				"set label '%s' at first %zu, graph 0.5 center rotate by 90 tc rgb '#a03030'\n",
				i, i, driver_status_name(pts[i].status), i);
	fprintf(f, "set xrange [-0.5:%zu.5]\n", n - 1);
	if (n > flat)
		fprintf(f, "set xtics rotate by 35 right nomirror\n");
	else
		fprintf(f, "set xtics nomirror\n");
	fprintf(f, "set grid xtics ytics lc rgb '#e0e0e0'\n");
}

/*
 * The range of axis @axis for metric @m: its values and a margin, at least
 * a hundredth of their size wide; 0 to 1 when it has no value and around
 * its one value when it has only one (in the lower third for @below > 0, the
 * upper for @below < 0), where gnuplot's autoscale would fail or warn. Over
 * the medians only with @medians, else their min and max too. Tic labels are
 * printed with %g: gnuplot's default, %h, rounds small numbers to a fixed
 * number of decimals, so that neighbouring tics of, say, a work conservation
 * around 4e-7 read the same.
 */
static void gp_range(FILE *f, const char *axis, const struct point *pts,
		     size_t n, int seeds, int m, int below, int medians)
{
	double lo = INFINITY, hi = -INFINITY, s[3], d;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!pts[i].ok)
			continue;
		stats(pts[i].v[m], seeds, s);
		if (isnan(s[0]))
			continue;
		lo = s[medians ? 0 : 1] < lo ? s[medians ? 0 : 1] : lo;
		hi = s[medians ? 0 : 2] > hi ? s[medians ? 0 : 2] : hi;
	}
	fprintf(f, "set format %s '%%g'\n", axis);
	if (lo > hi) {
		fprintf(f, "set %srange [0:1]\n", axis);
	} else if (lo == hi) {
		d = lo ? (lo < 0 ? -lo : lo) * 0.05 : 1;
		/* two constant lines on two axes should not hide each other */
		fprintf(f, "set %srange [%.15g:%.15g]\n", axis,
			lo - d * (below < 0 ? 2 : 1), hi + d * (below > 0 ? 2 : 1));
	} else {
		/*
		 * At least a hundredth of the values' size wide: a change of a
		 * few parts per million is drawn as the flat line it is, not
		 * as a cliff like a real step beside it (and %g's six digits
		 * tell the tics apart).
		 */
		d = (-lo > hi ? -lo : hi) / 100;
		if (hi - lo < d) {
			lo = (lo + hi - d) / 2;
			hi = lo + d;
		}
		d = (hi - lo) * 0.08;
		fprintf(f, "set %srange [%.15g:%.15g]\n", axis, lo - d, hi + d);
	}
}

static int write_gp(const char *dir, const char *title,
		    const struct point *pts, size_t n, int seeds, int arrows)
{
	char path[4200], mid[32], right[32];
	int m, w = n > 12 ? 1000 + 30 * (int)n : 1000;
	double lo = INFINITY, hi = -INFINITY, x, y;
	size_t i;
	FILE *f;

	/* (a) balance and energy on two y axes */
	lsb_pathf(path, sizeof(path), "%s/balance-energy.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	gp_head(f, "balance-energy", title, w, 560);
	gp_xtics(f, pts, n, 8);
	gp_range(f, "y", pts, n, seeds, 0, 1, 0);
	gp_range(f, "y2", pts, n, seeds, 4, -1, 0);
	fprintf(f, "set xlabel 'revision'\nset ylabel 'balance score (lower is better)' tc rgb '#1f77b4'\n"
		"set y2label 'energy (J)' tc rgb '#d62728'\n"
		"set ytics nomirror tc rgb '#1f77b4'\nset y2tics tc rgb '#d62728'\n"
		"set key below horizontal\n"
		"plot 'trend.dat' using 1:%d:xtic(2) with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'balance score', \\\n"
		"     '' using 1:%d axes x1y2 with linespoints pt 5 lw 2 lc rgb '#d62728' title 'energy (J)'",
		col(0), col(4));
	if (seeds > 1)
		fprintf(f, ", \\\n     '' using 1:%d:%d:%d with yerrorbars pt 7 lc rgb '#1f77b4' notitle, \\\n"
			"     '' using 1:%d:%d:%d axes x1y2 with yerrorbars pt 5 lc rgb '#d62728' notitle",
			col(0), col(0) + 1, col(0) + 2, col(4), col(4) + 1,
			col(4) + 2);
	fputc('\n', f);
	gp_tail(f, "balance-energy", w, 560);
	if (fclose(f))
		return -1;

	/* (b) the power-vs-balance plane */
	lsb_pathf(path, sizeof(path), "%s/plane.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	gp_head(f, "plane", title, 900, 700);
	gp_range(f, "x", pts, n, seeds, 0, 0, 1);
	gp_range(f, "y", pts, n, seeds, 4, 0, 1);
	fprintf(f, "set xlabel 'balance score (lower is better)'\nset ylabel 'energy (J)'\n"
		"set grid lc rgb '#e0e0e0'\n"
		"set key below horizontal\n"
		"plot %s'plane.dat' using 1:2 with points pt 7 ps 1.5 lc rgb '#1f77b4' title 'revision', \\\n",
		arrows ? "'arrows.dat' using 1:2:3:4 with vectors head filled size screen 0.015,20 lw 1.5 lc rgb '#909090' title 'revision order', \\\n     " : "");
	/*
	 * The labels of places right of the middle go left of them, not off
	 * the plot. Only when there are such places, as plane.dat writes them
	 * (15 digits): gnuplot 5.4 crashes on a labels plot whose every point
	 * is filtered out.
	 */
	for (i = 0; i < n; i++) {
		if (plane_xy(&pts[i], seeds, &x, &y))
			continue;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	snprintf(mid, sizeof(mid), "%.15g", (lo + hi) / 2);
	snprintf(right, sizeof(right), "%.15g", hi);
	if (lo < hi && strcmp(mid, right))
		fprintf(f, "     '' using ($1 <= %s ? $1 : NaN):2:3 with labels left offset char 1,0.6 font 'sans,9' notitle, \\\n"
			"     '' using ($1 > %s ? $1 : NaN):2:3 with labels right offset char -1,0.6 font 'sans,9' notitle\n",
			mid, mid);
	else
		fprintf(f, "     '' using 1:2:3 with labels left offset char 1,0.6 font 'sans,9' notitle\n");
	gp_tail(f, "plane", 900, 700);
	if (fclose(f))
		return -1;

	/* (c) small multiples */
	lsb_pathf(path, sizeof(path), "%s/metrics.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# trend.dat: index label first_commit last_commit commits status,\n"
		"# then per metric its median, min and max (NaN: a gap)\n");
	plot_begin(f, "metrics", w, 900, NULL);
	fputs("set multiplot layout 3,2 title ", f);
	plot_quote(f, title);
	fputc('\n', f);
	/* two panels a row: half the width for the labels */
	gp_xtics(f, pts, n, 4);
	fprintf(f, "set key off\n");
	for (m = 0; m < NR_METRICS; m++) {
		fprintf(f, "set title '%s'\n", metric_name[m]);
		gp_range(f, "y", pts, n, seeds, m, 0, 0);
		fprintf(f, "plot 'trend.dat' using 1:%d:xtic(2) with linespoints pt 7 lw 2 lc rgb '#1f77b4'",
			col(m));
		if (seeds > 1)
			fprintf(f, ", '' using 1:%d:%d:%d with yerrorbars pt 7 lc rgb '#1f77b4'",
				col(m), col(m) + 1, col(m) + 2);
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	plot_end(f);
	return fclose(f) ? -1 : 0;
}

static int show_progress;

/*
 * Prepare each point's revision (its first commit) once. A revision that
 * does not build is prepared too: its runs are that build failure.
 */
static int prepare_points(const struct driver_paths *paths, const char *repo,
			  const struct point *pts, size_t n,
			  struct driver_target *tg, int jobs, int verbose)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (show_progress)
			fprintf(stderr, "\rtrend: preparing %s (%zu of %zu)\033[K",
				pts[i].label, i + 1, n);
		if (driver_target_prepare(&tg[i], paths, repo, pts[i].first,
					  jobs, verbose)) {
			if (show_progress)
				fputc('\n', stderr);
			fprintf(stderr, "error: %s\n", driver_last_error());
			return -1;
		}
	}
	return 0;
}

/*
 * Every run of the trend as a unit, in the order the results are read
 * back: workload, topology, point, seed. The specs borrow the strings of
 * @base and of the option lists, which outlive the units.
 */
static struct driver_unit *make_units(const struct driver_target *tg,
				      size_t n, const char *const *workloads,
				      int nw, const char *const *topologies,
				      int nt, const struct driver_run_spec *base,
				      int seeds)
{
	struct driver_unit *units, *u;
	size_t i;
	int c, s;

	units = calloc((size_t)nw * nt * n * seeds, sizeof(*units));
	if (!units)
		return NULL;
	u = units;
	for (c = 0; c < nw * nt; c++)
		for (i = 0; i < n; i++)
			for (s = 0; s < seeds; s++, u++) {
				u->target = &tg[i];
				u->spec = *base;
				u->spec.workload = workloads[c / nt];
				u->spec.topology = topologies[c % nt];
				u->spec.seed = s + 1;
			}
	return units;
}

/*
 * The results of one workload on one topology, from the cache: @units are
 * that pair's n * seeds units, which driver_units_run() has run.
 */
static int collect_pair(const struct driver_paths *paths,
			const struct driver_unit *units, struct point *pts,
			size_t n, int seeds)
{
	struct driver_result res;
	size_t i;
	int s, m, ret;

	for (i = 0; i < n; i++) {
		struct point *p = &pts[i];

		p->ok = 0;
		p->status = DRIVER_OK;
		p->reason[0] = '\0';
		for (s = 0; s < seeds; s++) {
			const struct driver_unit *u = &units[i * seeds + s];
			double vals[NR_METRICS];

			for (m = 0; m < NR_METRICS; m++)
				p->v[m][s] = NAN;
			ret = driver_target_result(&res, paths, u->target,
						   &u->spec,
						   DRIVER_RESULT_LOOKUP);
			if (ret) {
				fprintf(stderr, "error: %s: no result for %s (%.12s), seed %d\n",
					ret == DRIVER_NOT_CACHED ? "the cache lost it" :
					driver_last_error(), p->label,
					p->first, s + 1);
				return -1;
			}
			if (res.status != DRIVER_OK) {
				p->status = res.status;
				snprintf(p->reason, sizeof(p->reason), "%.511s",
					 res.reason);
			} else if (!driver_result_metrics(res.json,
							  metric_name,
							  NR_METRICS, vals)) {
				for (m = 0; m < NR_METRICS; m++)
					p->v[m][s] = vals[m];
				p->ok++;
			}
			driver_result_release(&res);
		}
	}
	return 0;
}

int cmd_trend(int argc, char **argv)
{
	static const struct option opts[] = {
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
	static struct driver_paths paths;
	const char *workloads[MAX_SPECS], *topologies[MAX_SPECS];
	const char *repo = NULL, *duration = "2s", *out = NULL;
	int nw = 0, nt = 0, seeds = 1, first_parent = 0, timeout = 600;
	int quiet = 0, verbose = 0, c, ret = 1, m, arrows;
	char good[256], bad[256], dir[4200], sub[4400], title[1024];
	struct bisect_classes *cls = NULL;
	struct point *pts = NULL;
	bisect_repo *r = NULL;
	size_t n = 0, i, total = 0, gaps = 0;
	struct units_progress prog = { 0 };
	struct driver_run_spec spec = { 0 };
	struct driver_target *tg = NULL;
	struct driver_unit *units = NULL;
	struct driver_engine engine;

	engine_defaults(&engine);

	while ((c = getopt_long(argc, argv, "r:w:t:n:d:o:j:qvh", opts,
				NULL)) != -1) {
		switch (c) {
		case 'r': repo = optarg; break;
		case 'w':
			if (nw == MAX_SPECS)
				goto usage;
			workloads[nw++] = optarg;
			break;
		case 't':
			if (nt == MAX_SPECS)
				goto usage;
			topologies[nt++] = optarg;
			break;
		case 'n': seeds = atoi(optarg); break;
		case 'd': duration = optarg; break;
		case 'F': first_parent = 1; break;
		case 'o': out = optarg; break;
		case 'O': timeout = atoi(optarg); break;
		case 'q': quiet = 1; break;
		case 'v': verbose = 1; break;
		case 'h':
			fputs(usage_trend, stdout);
			return 0;
		default:
			if (!engine_option(&engine, c, optarg))
				break;
			goto usage;
		}
	}
	if (optind + 1 != argc || !nw || !nt) {
		fprintf(stderr, "error: %s\n", optind + 1 != argc ?
			"linsched trend takes one range GOOD..BAD" :
			"--workload and --topology are required");
		goto usage;
	}
	if (cmd_split_range(argv[optind], good, bad, sizeof(good))) {
		fprintf(stderr, "error: '%s' is not a range GOOD..BAD\n",
			argv[optind]);
		goto usage;
	}
	if (seeds < 1 || seeds > 64) {
		fprintf(stderr, "error: --seeds: '%d' is not from 1 to 64\n",
			seeds);
		goto usage;
	}
	for (c = 0; c < nw || c < nt; c++)
		if (driver_check_specs(workloads[c < nw ? c : 0],
				       topologies[c < nt ? c : 0], duration)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 2;
		}
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	if (!repo)
		repo = paths.repo;

	if (bisect_repo_open(&r, repo) ||
	    bisect_classes_new(&cls, r, good, bad, first_parent)) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		goto out;
	}
	read_tags(repo);
	n = cls->nr_classes + 1;
	pts = calloc(n, sizeof(*pts));
	if (!pts)
		goto nomem;
	memcpy(pts[0].first, cls->good, 41);
	memcpy(pts[0].last, cls->good, 41);
	pts[0].n = 1;
	label_point(&pts[0], cls, (size_t)-1);
	for (i = 1; i < n; i++) {
		const struct bisect_class *k = &cls->classes[i - 1];

		memcpy(pts[i].first, cls->commits[k->first], 41);
		memcpy(pts[i].last, cls->commits[k->first + k->n - 1], 41);
		pts[i].n = k->n;
		label_point(&pts[i], cls, k->first);
	}
	for (i = 0; i < n; i++)
		for (m = 0; m < NR_METRICS; m++) {
			pts[i].v[m] = calloc(seeds, sizeof(double));
			if (!pts[i].v[m])
				goto nomem;
		}

	if (out) {
		snprintf(dir, sizeof(dir), "%s", out);
	} else {
		char name[600];

		snprintf(name, sizeof(name), "trend-%s-%s", good, bad);
		lsb_safe_name(name);
		lsb_pathf(dir, sizeof(dir), "%s/%s", paths.data_dir, name);
	}

	spec.duration = duration;
	spec.metrics = 1;
	spec.timeout_s = timeout;
	show_progress = !quiet && isatty(2);
	tg = calloc(n, sizeof(*tg));
	if (!tg)
		goto nomem;
	if (prepare_points(&paths, repo, pts, n, tg, engine.jobs, verbose))
		goto out;
	units = make_units(tg, n, workloads, nw, topologies, nt, &spec,
			   seeds);
	if (!units)
		goto nomem;
	total = (size_t)nw * nt * n * seeds;
	prog.what = "trend";
	prog.tty = show_progress;
	c = units_run(&paths, units, total, &engine, &prog);
	if (c) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		goto out;
	}
	if (show_progress)
		fprintf(stderr, "trend: %zu runs, %zu from the cache, %.1f s\n",
			total, prog.cached, lsb_now() - prog.start);
	for (c = 0; c < nw * nt; c++) {
		const char *w = workloads[c / nt], *t = topologies[c % nt];
		char name[300];

		if (collect_pair(&paths, units + (size_t)c * n * seeds, pts, n,
				 seeds))
			goto out;
		snprintf(name, sizeof(name), "%.120s-%.60s",
			 cmd_base_name(w), cmd_base_name(t));
		lsb_safe_name(name);
		lsb_pathf(sub, sizeof(sub), "%s/%s", dir, name);
		if (lsb_mkdir_p(sub)) {
			fprintf(stderr, "error: cannot make '%s': %s\n", sub,
				strerror(errno));
			goto out;
		}
		snprintf(title, sizeof(title), "%.110s%s on %s\n%.60s..%.60s (%zu revisions%s%s)",
			 w, strlen(w) > 110 ? "..." : "", cmd_base_name(t), good, bad, n, seeds > 1 ?
			 ", median of seeds, min to max" : "",
			 first_parent ? ", first parents" : "");
		if ((arrows = write_dat(sub, pts, n, seeds)) < 0 ||
		    write_gp(sub, title, pts, n, seeds, arrows)) {
			fprintf(stderr, "error: cannot write in '%s': %s\n",
				sub, strerror(errno));
			goto out;
		}
		if (run_gnuplot(sub, "balance-energy.gp") ||
		    run_gnuplot(sub, "plane.gp") || run_gnuplot(sub, "metrics.gp"))
			goto out;
		printf("%s on %s:\n", w, t);
		for (i = 0; i < n; i++) {
			if (pts[i].ok == seeds)
				continue;
			if (pts[i].ok)
				printf("  %d of %d seeds skipped: %s (%.12s): %s: %s\n",
				       seeds - pts[i].ok, seeds, pts[i].label,
				       pts[i].first,
				       driver_status_name(pts[i].status),
				       pts[i].reason);
			else
				printf("  gap: %s (%.12s): %s\n",
				       pts[i].label, pts[i].first,
				       *pts[i].reason ? pts[i].reason :
				       driver_status_name(pts[i].status));
			gaps += !pts[i].ok;
		}
		printf("  %s/balance-energy.png\n  %s/plane.png\n  %s/metrics.png\n  %s/trend.dat\n",
		       sub, sub, sub, sub);
	}
	printf("%zu revision%s, %d workload%s x %d topolog%s, %zu gap%s; SVGs and gnuplot scripts beside the PNGs\n",
	       n, n == 1 ? "" : "s", nw, nw == 1 ? "" : "s", nt,
	       nt == 1 ? "y" : "ies", gaps, gaps == 1 ? "" : "s");
	ret = 0;
	goto out;
nomem:
	fprintf(stderr, "error: out of memory\n");
out:
	for (i = 0; tg && i < n; i++)
		driver_target_release(&tg[i]);
	free(tg);
	free(units);
	for (i = 0; pts && i < n; i++)
		for (m = 0; m < NR_METRICS; m++)
			free(pts[i].v[m]);
	free(pts);
	free(tags);
	bisect_classes_free(cls);
	bisect_repo_free(r);
	return ret;
usage:
	fputs(usage_trend, stderr);
	return 2;
}
