// SPDX-License-Identifier: GPL-2.0-only
/*
 * text.c - report.txt: the header, the summary per topology, the ranked
 * changes and the commits that changed the build subset.
 */
#include <stdio.h>

#include "report/report_internal.h"
#include "suite/suite.h"

static void text_change(FILE *f, const struct report *rep, size_t i,
			const struct report_rank *k)
{
	const struct report_row *row = k->row;
	char a[32], b[32], p[32];

	if (k->metric < 0) {
		fprintf(f, "%3zu. %-14s %-44s run: %s -> %s: %s\n", i + 1,
			rep->topo[row->topo].spec,
			suite_pattern_name(row->pattern),
			report_run_state(rep, row, 0),
			report_run_state(rep, row, 1),
			row->reason[row->ok[1] < rep->seeds]);
		return;
	}
	report_fmt_value(a, sizeof(a), row->med[0][k->metric]);
	report_fmt_value(b, sizeof(b), row->med[1][k->metric]);
	report_fmt_pct(p, sizeof(p), row->pct[k->metric]);
	fprintf(f, "%3zu. %-14s %-44s %-22s %12s -> %-12s %9s\n", i + 1,
		rep->topo[row->topo].spec, suite_pattern_name(row->pattern),
		rep->label[k->metric], a, b, p);
}

/* @prefix, then OLD's and NEW's WARNs over topology @t (-1: all). */
static void text_warnings(FILE *f, const struct report *rep,
			  const char *prefix, int t)
{
	struct report_warnings w;
	char a[64], b[64];

	report_warnings(rep, t, 0, &w);
	report_fmt_warnings(a, sizeof(a), &w);
	report_warnings(rep, t, 1, &w);
	report_fmt_warnings(b, sizeof(b), &w);
	fprintf(f, "%sOLD %s, NEW %s\n", prefix, a, b);
}

/* The header the text and the HTML start with. */
void report_text_header(FILE *f, const struct report *rep)
{
	const struct driver_target *o = rep->rev[0], *n = rep->rev[1];
	size_t nw = rep->nr_worse, nb = rep->nr_better;
	int t;

	fprintf(f, "linsched report: %s (%.12s) -> %s (%.12s)\n", o->name,
		o->commit, n->name, n->commit);
	fprintf(f, "suite %s: %d patterns on", rep->suite, rep->nr_patterns);
	for (t = 0; t < rep->nr_topos; t++)
		fprintf(f, "%s %s", t ? "," : "", rep->topo[t].spec);
	fprintf(f, "; %s each, seeds 1..%d\n", rep->duration, rep->seeds);
	fprintf(f, "a change counts past %g%% of OLD's median (or of the metric's floor)%s\n",
		rep->threshold, rep->seeds > 1 ?
		" with every NEW seed beyond every OLD seed" :
		"; one seed: noise not judged");
	fprintf(f, "verdict: %zu regression%s, %zu improvement%s\n", nw,
		nw == 1 ? "" : "s", nb, nb == 1 ? "" : "s");
	text_warnings(f, rep, "kernel WARNs (a run goes on past one): ", -1);
}

static void text_summary(FILE *f, const struct report *rep, int t)
{
	struct report_summary sm;
	char p[32];
	int m;

	fprintf(f, "%s\n", rep->topo[t].spec);
	report_summarise(rep, t, -1, &sm);
	fprintf(f, "  %-22s %4d regressions %4d improvements           of %d\n",
		"run", sm.worse, sm.better, sm.compared);
	for (m = 0; m < rep->nr_metrics; m++) {
		report_summarise(rep, t, m, &sm);
		report_fmt_pct(p, sizeof(p), sm.median_worse);
		fprintf(f, "  %-22s %4d regressions %4d improvements %4d noise of %d, median %s\n",
			rep->label[m], sm.worse, sm.better, sm.noise,
			sm.compared, p);
	}
	text_warnings(f, rep, "  kernel WARNs           ", t);
}

/*
 * Every side of a row that had a WARN (the first @rep->top), unnumbered:
 * numbered lines are the ranked changes'.
 */
static void text_warned(FILE *f, const struct report *rep)
{
	size_t n = report_warned(rep, 0, NULL, NULL), top = rep->top, i;

	fprintf(f, "\nKernel WARNs per pattern and side: how many, in how many of the runs, the first (%zu of %zu)\n",
		n < top ? n : top, n);
	for (i = 0; i < n && i < top; i++) {
		const struct report_row *row;
		struct report_warnings w;
		char c[64];
		int r;

		report_warned(rep, i, &row, &r);
		report_row_warnings(rep, row, r, &w);
		report_fmt_warnings(c, sizeof(c), &w);
		fprintf(f, "  %-14s %-44s %s: %s; the first: %s\n",
			rep->topo[row->topo].spec,
			suite_pattern_name(row->pattern), r ? "NEW" : "OLD", c,
			row->warning[r]);
	}
	if (!n)
		fprintf(f, "  none\n");
}

static void text_ranked(FILE *f, const struct report *rep, const char *title,
			const struct report_rank *list, size_t n)
{
	size_t top = (size_t)rep->top, i;

	fprintf(f, "\n%s (%zu of %zu)\n", title, n < top ? n : top, n);
	for (i = 0; i < n && i < top; i++)
		text_change(f, rep, i, &list[i]);
	if (!n)
		fprintf(f, "  none\n");
}

void report_text(FILE *f, const struct report *rep, int summary)
{
	size_t i;
	int t;

	report_text_header(f, rep);
	fprintf(f, "\nPer topology (regressions / improvements / noise of compared patterns; median change, positive = worse)\n");
	for (t = 0; t < rep->nr_topos; t++)
		text_summary(f, rep, t);
	text_warned(f, rep);
	text_ranked(f, rep, "Worst regressions", rep->worse, rep->nr_worse);
	text_ranked(f, rep, "Best improvements", rep->better, rep->nr_better);
	fprintf(f, "\nCommits from OLD to NEW that changed the build subset (%zu of %zu commits)\n",
		rep->nr_changes, rep->nr_range_commits);
	for (i = 0; i < rep->nr_changes; i++) {
		const struct report_change *c = &rep->changes[i];

		fprintf(f, "  %.12s %s\n%s%s%s", c->id, c->subject,
			*c->files ? "      " : "", c->files,
			*c->files ? "\n" : "");
	}
	if (*rep->range_note)
		fprintf(f, "  %s\n", rep->range_note);
	fputc('\n', f);
	if (!summary)
		fprintf(f, "Every pattern, metric and seed: report.json; tables and plots: report.html\n");
}
