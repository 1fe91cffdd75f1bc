// SPDX-License-Identifier: GPL-2.0-only
/*
 * plots.c - the report's plots per topology: heat-TOPO, the median change
 * per family (rows) and metric (columns), positive worse; plane-TOPO, each
 * pattern's change of balance score against its change of energy,
 * clipped to +-100 %. Data and gnuplot scripts in OUT/plots, drawn there.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"
#include "plots/plots.h"
#include "report/report_internal.h"
#include "suite/suite.h"

/* The median change of family @fam in column @m on topology @t. */
static int family_median(const struct report *rep, int t, const char *fam,
			 int m, double *out)
{
	double w[1024];
	size_t i;
	int k = 0;

	for (i = 0; i < rep->nr_rows && k < 1024; i++)
		if (rep->rows[i].topo == t &&
		    !strcmp(suite_pattern_family(rep->rows[i].pattern), fam) &&
		    !isnan(rep->rows[i].worse[m]))
			w[k++] = rep->rows[i].worse[m];
	if (!k)
		return -1;
	*out = lsb_median(w, k);
	return 0;
}

/* heat-NAME.dat; *@lim receives the colour range. */
static int heat_dat(const struct report *rep, const char *dir, int t,
		    double *lim)
{
	const char *const *fams;
	char path[4300];
	size_t nf, f;
	double v;
	FILE *h;
	int m;

	fams = suite_families(&nf);
	*lim = 10;
	lsb_pathf(path, sizeof(path), "%s/heat-%s.dat", dir, rep->topo[t].name);
	h = fopen(path, "w");
	if (!h)
		return -1;
	fprintf(h, "# metric_index family_index median_change_pct_worse (NaN: no pattern)\n");
	for (f = 0; f < nf; f++)
		for (m = 0; m < rep->nr_metrics; m++) {
			if (family_median(rep, t, fams[f], m, &v)) {
				fprintf(h, "%d %zu NaN\n", m, f);
				continue;
			}
			if (fabs(v) > *lim)
				*lim = fabs(v) > 50 ? 50 : fabs(v);
			fprintf(h, "%d %zu %.15g\n", m, f, v);
		}
	return fclose(h);
}

static int heat_gp(const struct report *rep, const char *dir, int t,
		   double lim)
{
	const char *name = rep->topo[t].name;
	const char *const *fams;
	char path[4300], title[800], topo[300];
	size_t nf, f;
	FILE *g;
	int m;

	fams = suite_families(&nf);
	lsb_pathf(path, sizeof(path), "%s/heat-%s.gp", dir, name);
	g = fopen(path, "w");
	if (!g)
		return -1;
	snprintf(title, sizeof(title),
		 "%s -> %s on %s: median change per family (%%, positive = worse)",
		 rep->rev[0]->name, rep->rev[1]->name,
		 lsb_short_name(topo, sizeof(topo), rep->topo[t].spec));
	snprintf(path, sizeof(path), "heat-%s", name);
	plot_begin(g, path, 1000, 620, title);
	fprintf(g, "set xrange [-0.5:%d.5]\nset yrange [%zu.5:-0.5]\n"
		"set cbrange [-%g:%g]\nset cblabel 'change (%%): negative better, positive worse'\n"
		"set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')\n"
		"set xtics (", rep->nr_metrics - 1, nf - 1, lim, lim);
	for (m = 0; m < rep->nr_metrics; m++)
		fprintf(g, "%s'%s' %d", m ? ", " : "", rep->label[m], m);
	fprintf(g, ") rotate by 20 right scale 0\nset ytics (");
	for (f = 0; f < nf; f++)
		fprintf(g, "%s'%s' %zu", f ? ", " : "", fams[f], f);
	fprintf(g, ") scale 0\nset key off\nset bmargin 6\n"
		"plot 'heat-%s.dat' using 1:2:(0.5):(0.5):($3 > %g ? %g : $3 < -%g ? -%g : $3) with boxxyerror fs solid 1.0 noborder fc palette, \\\n"
		"     '' using 1:2:(strcol(3) ne 'NaN' ? sprintf('%%+.1f', $3) : '') with labels font 'sans,9'\n",
		name, lim, lim, lim, lim);
	plot_end(g);
	return fclose(g);
}

static double clip100(double v)
{
	return v < -100 ? -100 : v > 100 ? 100 : v;
}

/* plane-NAME.dat; *@lim receives the axes' range. */
static int plane_dat(const struct report *rep, const char *dir, int t,
		     double *lim)
{
	int mb = report_column(rep, "balance_score");
	int me = report_column(rep, "energy_j");
	char path[4300];
	size_t i;
	FILE *h;
	int m;

	/* wide enough for its points, at least +-10 % */
	*lim = 10;
	for (i = 0; i < rep->nr_rows; i++) {
		const struct report_row *row = &rep->rows[i];

		if (row->topo != t || isnan(row->pct[mb]) || isnan(row->pct[me]))
			continue;
		if (fabs(row->pct[mb]) * 1.1 > *lim)
			*lim = fabs(row->pct[mb]) * 1.1;
		if (fabs(row->pct[me]) * 1.1 > *lim)
			*lim = fabs(row->pct[me]) * 1.1;
	}
	*lim = *lim > 105 ? 105 : *lim;
	lsb_pathf(path, sizeof(path), "%s/plane-%s.dat", dir,
		  rep->topo[t].name);
	h = fopen(path, "w");
	if (!h)
		return -1;
	fprintf(h, "# balance_score_change_pct energy_j_change_pct (clipped to +-100) kind pattern\n"
		"# kind 0: no regression or improvement, 1: a regression, 2: an improvement only\n");
	for (i = 0; i < rep->nr_rows; i++) {
		const struct report_row *row = &rep->rows[i];
		int kind = 0;

		if (row->topo != t || isnan(row->pct[mb]) || isnan(row->pct[me]))
			continue;
		for (m = 0; m < rep->nr_metrics; m++) {
			if (row->verdict[m] == REPORT_WORSE)
				kind = 1;
			else if (row->verdict[m] == REPORT_BETTER && !kind)
				kind = 2;
		}
		fprintf(h, "%.15g %.15g %d %s\n", clip100(row->pct[mb]),
			clip100(row->pct[me]), kind,
			suite_pattern_name(row->pattern));
	}
	return fclose(h);
}

static int plane_gp(const struct report *rep, const char *dir, int t,
		    double lim)
{
	const char *name = rep->topo[t].name;
	char path[4300], title[800], topo[300];
	FILE *g;

	lsb_pathf(path, sizeof(path), "%s/plane-%s.gp", dir, name);
	g = fopen(path, "w");
	if (!g)
		return -1;
	snprintf(title, sizeof(title),
		 "%s -> %s on %s: each pattern's change (%%, clipped to +-100)",
		 rep->rev[0]->name, rep->rev[1]->name,
		 lsb_short_name(topo, sizeof(topo), rep->topo[t].spec));
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
	return fclose(g);
}

/* Run gnuplot on @dir/@kind-NAME.gp. */
static int draw(const char *dir, const char *kind, const char *name)
{
	char script[300];
	int status;

	snprintf(script, sizeof(script), "%s-%s.gp", kind, name);
	status = plot_run(dir, script);
	if (status) {
		report_set_error("%s/%s: %s", dir, script,
				 plot_strerror(status));
		return -1;
	}
	return 0;
}

int report_plots(const struct report *rep)
{
	char dir[4300];
	double lim;
	int t;

	if (report_column(rep, "balance_score") < 0 ||
	    report_column(rep, "energy_j") < 0) {
		report_set_error("the report has no balance_score or energy_j column");
		return -1;
	}
	lsb_pathf(dir, sizeof(dir), "%s/plots", rep->out);
	if (lsb_mkdir_p(dir)) {
		report_set_error("cannot make '%s': %m", dir);
		return -1;
	}
	for (t = 0; t < rep->nr_topos; t++) {
		if (heat_dat(rep, dir, t, &lim) || heat_gp(rep, dir, t, lim) ||
		    plane_dat(rep, dir, t, &lim) || plane_gp(rep, dir, t, lim)) {
			report_set_error("cannot write in '%s': %m", dir);
			return -1;
		}
		if (draw(dir, "heat", rep->topo[t].name) ||
		    draw(dir, "plane", rep->topo[t].name))
			return -1;
	}
	return 0;
}
