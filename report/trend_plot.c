// SPDX-License-Identifier: GPL-2.0-only
/*
 * trend_plot.c - a trend's files for one workload and topology: trend.dat
 * (one revision a line), plane.dat and arrows.dat (the power-vs-balance
 * plane), and the gnuplot scripts balance-energy.gp, plane.gp and
 * metrics.gp, which draw PNGs and SVGs beside them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "plots/plots.h"
#include "report/report_internal.h"

/* The metrics of the plane, in report_trend_metrics(). */
enum { BALANCE = 0, ENERGY = 4 };

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
static int plane_xy(const struct report_trend *tr, size_t i, double *x,
		    double *y)
{
	const struct report_trend_point *p = &tr->pts[i];
	double s[3];

	if (!p->ok)
		return -1;
	stats(p->v[BALANCE], tr->seeds, s);
	*x = s[0];
	stats(p->v[ENERGY], tr->seeds, s);
	*y = s[0];
	return isnan(*x) || isnan(*y) ? -1 : 0;
}

/* The labels of every revision at point @i's place, from @i on. */
static void place_label(const struct report_trend *tr, size_t i, char *label,
			size_t size)
{
	double x, y, qx, qy;
	size_t j, k, len;

	plane_xy(tr, i, &x, &y);
	label[0] = '\0';
	for (j = i, k = 0; j < tr->n; j++) {
		if (plane_xy(tr, j, &qx, &qy) || qx != x || qy != y)
			continue;
		len = strlen(label);
		if (k++ < 3)
			snprintf(label + len, size - len, "%s%s",
				 k > 1 ? ", " : "", tr->pts[j].label);
		else if (k == 4)
			snprintf(label + len, size - len, ", ...");
	}
	if (k > 4)
		snprintf(label + strlen(label), size - strlen(label), " (%zu)",
			 k);
}

/*
 * plane.dat: one line per place in the plane, with the labels of every
 * revision there (revisions often share one); arrows.dat: a vector from
 * each revision to the next one that moved, gaps skipped.
 *
 * Return: the number of arrows, or -1 with errno set.
 */
static int write_plane(const struct report_trend *tr, const char *dir)
{
	char path[4200], label[200];
	double x, y, px = NAN, py = NAN, qx, qy;
	size_t i, j;
	int arrows = 0;
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/plane.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# balance_score energy_j revisions (the revisions at that place)\n");
	for (i = 0; i < tr->n; i++) {
		if (plane_xy(tr, i, &x, &y))
			continue;
		for (j = 0; j < i; j++)	/* drawn already */
			if (!plane_xy(tr, j, &qx, &qy) && qx == x && qy == y)
				break;
		if (j < i)
			continue;
		place_label(tr, i, label, sizeof(label));
		fprintf(f, "%.15g %.15g \"%s\"\n", x, y, label);
	}
	if (fclose(f))
		return -1;

	lsb_pathf(path, sizeof(path), "%s/arrows.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# balance_score energy_j d_balance d_energy (revision order, gaps skipped)\n");
	for (i = 0; i < tr->n; i++) {
		if (plane_xy(tr, i, &x, &y))
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

/* Metric @m's label, its path ("wakeup_latency_ns.p99"). */
static const char *label_of(int m, char *buf, size_t len)
{
	return metric_path(report_trend_metrics()[m], buf, len);
}

static int write_dat(const struct report_trend *tr, const char *dir)
{
	char path[4200], name[128];
	double s[3];
	size_t i;
	int m;
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/trend.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# index label first_commit last_commit commits status");
	for (m = 0; m < REPORT_TREND_METRICS; m++) {
		label_of(m, name, sizeof(name));
		fprintf(f, " %s %s.min %s.max", name, name, name);
	}
	fprintf(f, "\n# a value is the median over %d seed%s; NaN: no value (a gap)\n",
		tr->seeds, tr->seeds > 1 ? "s" : "");
	for (i = 0; i < tr->n; i++) {
		const struct report_trend_point *p = &tr->pts[i];

		fprintf(f, "%zu \"%s\" %s %s %zu %s", i, p->label, p->first,
			p->last, p->n,
			driver_status_name(p->ok ? DRIVER_OK : p->status));
		for (m = 0; m < REPORT_TREND_METRICS; m++) {
			if (p->ok)
				stats(p->v[m], tr->seeds, s);
			else
				s[0] = s[1] = s[2] = NAN;
			num(f, s[0]);
			num(f, s[1]);
			num(f, s[2]);
		}
		fputc('\n', f);
	}
	return fclose(f);
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
static void gp_xtics(FILE *f, const struct report_trend *tr, size_t flat)
{
	size_t i;

	for (i = 0; i < tr->n; i++)
		if (!tr->pts[i].ok)
			fprintf(f, "set object rectangle from first %zu - 0.4, graph 0 to first %zu + 0.4, graph 1 fc rgb '#f6dada' fs solid 1.0 noborder behind\n"
				"set label '%s' at first %zu, graph 0.5 center rotate by 90 tc rgb '#a03030'\n",
				i, i, driver_status_name(tr->pts[i].status), i);
	fprintf(f, "set xrange [-0.5:%zu.5]\n", tr->n - 1);
	if (tr->n > flat)
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
static void gp_range(FILE *f, const char *axis, const struct report_trend *tr,
		     int m, int below, int medians)
{
	double lo = INFINITY, hi = -INFINITY, s[3], d;
	size_t i;

	for (i = 0; i < tr->n; i++) {
		if (!tr->pts[i].ok)
			continue;
		stats(tr->pts[i].v[m], tr->seeds, s);
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

/* The width of the plots along the revisions. */
static int gp_width(const struct report_trend *tr)
{
	return tr->n > 12 ? 1000 + 30 * (int)tr->n : 1000;
}

/* (a) balance and energy on two y axes */
static int gp_balance_energy(const struct report_trend *tr, const char *dir,
			     const char *title)
{
	int w = gp_width(tr), b = col(BALANCE), e = col(ENERGY);
	char path[4200];
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/balance-energy.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	gp_head(f, "balance-energy", title, w, 560);
	gp_xtics(f, tr, 8);
	gp_range(f, "y", tr, BALANCE, 1, 0);
	gp_range(f, "y2", tr, ENERGY, -1, 0);
	fprintf(f, "set xlabel 'revision'\nset ylabel 'balance score (lower is better)' tc rgb '#1f77b4'\n"
		"set y2label 'energy (J)' tc rgb '#d62728'\n"
		"set ytics nomirror tc rgb '#1f77b4'\nset y2tics tc rgb '#d62728'\n"
		"set key below horizontal\n"
		"plot 'trend.dat' using 1:%d:xtic(2) with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'balance score', \\\n"
		"     '' using 1:%d axes x1y2 with linespoints pt 5 lw 2 lc rgb '#d62728' title 'energy (J)'",
		b, e);
	if (tr->seeds > 1)
		fprintf(f, ", \\\n     '' using 1:%d:%d:%d with yerrorbars pt 7 lc rgb '#1f77b4' notitle, \\\n"
			"     '' using 1:%d:%d:%d axes x1y2 with yerrorbars pt 5 lc rgb '#d62728' notitle",
			b, b + 1, b + 2, e, e + 1, e + 2);
	fputc('\n', f);
	gp_tail(f, "balance-energy", w, 560);
	return fclose(f);
}

/* (b) the power-vs-balance plane */
static int gp_plane(const struct report_trend *tr, const char *dir,
		    const char *title, int arrows)
{
	double lo = INFINITY, hi = -INFINITY, x, y;
	char path[4200], mid[32], right[32];
	size_t i;
	FILE *f;

	lsb_pathf(path, sizeof(path), "%s/plane.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	gp_head(f, "plane", title, 900, 700);
	gp_range(f, "x", tr, BALANCE, 0, 1);
	gp_range(f, "y", tr, ENERGY, 0, 1);
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
	for (i = 0; i < tr->n; i++) {
		if (plane_xy(tr, i, &x, &y))
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
	return fclose(f);
}

/* (c) small multiples */
static int gp_metrics(const struct report_trend *tr, const char *dir,
		      const char *title)
{
	char path[4200], name[128];
	FILE *f;
	int m;

	lsb_pathf(path, sizeof(path), "%s/metrics.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# trend.dat: index label first_commit last_commit commits status,\n"
		"# then per metric its median, min and max (NaN: a gap)\n");
	plot_begin(f, "metrics", gp_width(tr), 900, NULL);
	fputs("set multiplot layout 3,2 title ", f);
	plot_quote(f, title);
	fputc('\n', f);
	/* two panels a row: half the width for the labels */
	gp_xtics(f, tr, 4);
	fprintf(f, "set key off\n");
	for (m = 0; m < REPORT_TREND_METRICS; m++) {
		fprintf(f, "set title '%s'\n", label_of(m, name, sizeof(name)));
		gp_range(f, "y", tr, m, 0, 0);
		fprintf(f, "plot 'trend.dat' using 1:%d:xtic(2) with linespoints pt 7 lw 2 lc rgb '#1f77b4'",
			col(m));
		if (tr->seeds > 1)
			fprintf(f, ", '' using 1:%d:%d:%d with yerrorbars pt 7 lc rgb '#1f77b4'",
				col(m), col(m) + 1, col(m) + 2);
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	plot_end(f);
	return fclose(f);
}

int report_trend_plot(const struct report_trend *tr, const char *dir,
		      const char *title)
{
	static const char *const scripts[] = {
		"balance-energy.gp", "plane.gp", "metrics.gp",
	};
	int arrows, status;
	size_t i;

	if (lsb_mkdir_p(dir)) {
		report_set_error("cannot make '%s': %m", dir);
		return -1;
	}
	if (write_dat(tr, dir) || (arrows = write_plane(tr, dir)) < 0 ||
	    gp_balance_energy(tr, dir, title) ||
	    gp_plane(tr, dir, title, arrows) || gp_metrics(tr, dir, title)) {
		report_set_error("cannot write in '%s': %m", dir);
		return -1;
	}
	for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		status = plot_run(dir, scripts[i]);
		if (status) {
			report_set_error("%s/%s: %s", dir, scripts[i],
					 plot_strerror(status));
			return -1;
		}
	}
	return 0;
}
