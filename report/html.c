// SPDX-License-Identifier: GPL-2.0-only
/*
 * html.c - report.html: one self-contained file, the plots' PNGs
 * embedded as data URIs, with the summary, the ranked changes, the
 * commits and every row's medians.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "report/report_internal.h"
#include "suite/suite.h"

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

static void base64(FILE *f, const unsigned char *p, size_t len)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

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
}

/* OUT/plots/@name embedded; -1 when it cannot be read. */
static int html_image(FILE *f, const struct report *rep, const char *name,
		      const char *alt)
{
	char path[4400];
	unsigned char *p;
	size_t len;

	lsb_pathf(path, sizeof(path), "%s/plots/%s", rep->out, name);
	p = (unsigned char *)lsb_read_file(path, &len);
	if (!p)
		return -1;
	fputs("<figure><img alt=\"", f);
	html_text(f, alt);
	fputs("\" src=\"data:image/png;base64,", f);
	base64(f, p, len);
	fputs("\"><figcaption>", f);
	html_text(f, alt);
	fprintf(f, " (<a href=\"plots/%s\">png</a>)</figcaption></figure>\n",
		name);
	free(p);
	return 0;
}

static void html_change_row(FILE *f, const struct report *rep, size_t i,
			    const struct report_rank *k)
{
	const struct report_row *row = k->row;
	const char *topo = rep->topo[row->topo].spec;
	char a[32], b[32], p[32];

	fprintf(f, "<tr class=\"change\" data-key=\"%s/%s/%s\"><td>%zu</td><td>",
		topo, suite_pattern_name(row->pattern),
		k->metric < 0 ? "run" : rep->label[k->metric], i + 1);
	html_text(f, topo);
	fprintf(f, "</td><td>%s</td>", suite_pattern_name(row->pattern));
	if (k->metric < 0) {
		fprintf(f, "<td>run</td><td>%s</td><td>%s</td><td>",
			report_run_state(rep, row, 0),
			report_run_state(rep, row, 1));
		html_text(f, row->reason[row->ok[1] < rep->seeds]);
		fputs("</td></tr>\n", f);
		return;
	}
	report_fmt_value(a, sizeof(a), row->med[0][k->metric]);
	report_fmt_value(b, sizeof(b), row->med[1][k->metric]);
	report_fmt_pct(p, sizeof(p), row->pct[k->metric]);
	fprintf(f, "<td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
		rep->label[k->metric], a, b, p);
}

static void html_ranked(FILE *f, const struct report *rep, const char *title,
			const struct report_rank *list, size_t n)
{
	size_t top = (size_t)rep->top, i;

	fprintf(f, "<h2>%s (%zu of %zu)</h2>\n", title, n < top ? n : top, n);
	if (!n) {
		fputs("<p>none</p>\n", f);
		return;
	}
	fputs("<table><tr><th>#</th><th>topology</th><th>pattern</th><th>metric</th><th>OLD</th><th>NEW</th><th>change</th></tr>\n", f);
	for (i = 0; i < n && i < top; i++)
		html_change_row(f, rep, i, &list[i]);
	fputs("</table>\n", f);
}

static void html_head(FILE *f, const struct report *rep)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>linsched report: ", f);
	html_text(f, rep->rev[0]->name);
	fputs(" -&gt; ", f);
	html_text(f, rep->rev[1]->name);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:2em;max-width:78em;color:#222}\n"
	      "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
	      "td,th{border:1px solid #ccc;padding:.2em .5em;font-size:.9em}\n"
	      "th{background:#f0f0f0}td.n{text-align:right;font-family:monospace}\n"
	      "td.worse{background:#f6d0d0}td.better{background:#d0e4f6}td.noise{color:#888}\n"
	      "pre{background:#f7f7f7;padding:.8em}figure{display:inline-block;margin:.5em}\n"
	      "img{max-width:100%;border:1px solid #ddd}\n"
	      "</style></head><body>\n<h1>linsched report: ", f);
	html_text(f, rep->rev[0]->name);
	fputs(" &rarr; ", f);
	html_text(f, rep->rev[1]->name);
	fputs("</h1>\n<pre>", f);
	{
		char *hdr = NULL;
		size_t hl = 0;
		FILE *m = open_memstream(&hdr, &hl);

		if (m) {
			report_text_header(m, rep);
			fclose(m);
			html_text(f, hdr);
		}
		free(hdr);
	}
	fputs("</pre>\n", f);
}

/* A topology's summary table and its two plots. */
static int html_topology(FILE *f, const struct report *rep, int t)
{
	const char *topo = rep->topo[t].spec;
	char name[300], alt[512], a[64], b[64], p[32];
	struct report_warnings w;
	struct report_summary sm;
	int m;

	fputs("<h3>", f);
	html_text(f, topo);
	fputs("</h3>\n<table><tr><th>metric</th><th>better</th><th>regressions</th><th>improvements</th><th>noise</th><th>compared</th><th>median change (positive worse)</th></tr>\n", f);
	for (m = -1; m < rep->nr_metrics; m++) {
		const char *label = m < 0 ? "run" : rep->label[m];

		report_summarise(rep, t, m, &sm);
		report_fmt_pct(p, sizeof(p), sm.median_worse);
		snprintf(a, sizeof(a), "%d", sm.noise);
		fprintf(f, "<tr class=\"summary\" data-key=\"%s/%s\"><td>%s</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%s</td><td class=\"n\">%d</td><td class=\"n\">%s</td></tr>\n",
			topo, label, label,
			m < 0 ? "finishes" : rep->metric[m]->higher_is_better ?
			"higher" : "lower", sm.worse, sm.better,
			m < 0 ? "-" : a, sm.compared, m < 0 ? "-" : p);
	}
	fputs("</table>\n", f);
	report_warnings(rep, t, 0, &w);
	report_fmt_warnings(a, sizeof(a), &w);
	report_warnings(rep, t, 1, &w);
	report_fmt_warnings(b, sizeof(b), &w);
	fprintf(f, "<p class=\"warnings\" data-key=\"%s\">kernel WARNs: OLD %s, NEW %s</p>\n",
		topo, a, b);
	snprintf(name, sizeof(name), "heat-%s.png", rep->topo[t].name);
	snprintf(alt, sizeof(alt), "%s: median change per family and metric",
		 topo);
	if (html_image(f, rep, name, alt))
		return -1;
	snprintf(name, sizeof(name), "plane-%s.png", rep->topo[t].name);
	snprintf(alt, sizeof(alt), "%s: balance score vs energy change per pattern",
		 topo);
	return html_image(f, rep, name, alt);
}

/* Every side of a row that had a WARN (the first @rep->top). */
static void html_warned(FILE *f, const struct report *rep)
{
	size_t n = report_warned(rep, 0, NULL, NULL), top = rep->top, i;

	fprintf(f, "<h2>Kernel WARNs per pattern and side (%zu of %zu)</h2>\n",
		n < top ? n : top, n);
	if (!n) {
		fputs("<p>none</p>\n", f);
		return;
	}
	fputs("<p>A WARN does not stop a run: it finishes, its metrics are judged as any other's.</p>\n<table><tr><th>#</th><th>topology</th><th>pattern</th><th>side</th><th>WARNs</th><th>runs with one</th><th>runs</th><th>the first</th></tr>\n", f);
	for (i = 0; i < n && i < top; i++) {
		const struct report_row *row;
		struct report_warnings w;
		const char *topo;
		int r;

		report_warned(rep, i, &row, &r);
		report_row_warnings(rep, row, r, &w);
		topo = rep->topo[row->topo].spec;
		fprintf(f, "<tr class=\"warned\" data-key=\"%s/%s/%s\"><td>%zu</td><td>",
			topo, suite_pattern_name(row->pattern),
			r ? "new" : "old", i + 1);
		html_text(f, topo);
		fprintf(f, "</td><td>%s</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td><code>",
			suite_pattern_name(row->pattern), r ? "NEW" : "OLD",
			w.warns, w.runs, w.of);
		html_text(f, row->warning[r]);
		fputs("</code></td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void html_commits(FILE *f, const struct report *rep)
{
	size_t i;

	fprintf(f, "<h2>Commits from OLD to NEW that changed the build subset (%zu of %zu commits)</h2>\n<table><tr><th>commit</th><th>subject</th><th>files under kernel/sched/ and include/</th></tr>\n",
		rep->nr_changes, rep->nr_range_commits);
	for (i = 0; i < rep->nr_changes; i++) {
		fprintf(f, "<tr><td><code>%.12s</code></td><td>",
			rep->changes[i].id);
		html_text(f, rep->changes[i].subject);
		fputs("</td><td>", f);
		html_text(f, rep->changes[i].files);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (*rep->range_note) {
		fputs("<p>", f);
		html_text(f, rep->range_note);
		fputs("</p>\n", f);
	}
}

static void html_row(FILE *f, const struct report *rep,
		     const struct report_row *row)
{
	static const char *const cls[] = {
		[REPORT_SAME] = "", [REPORT_NOISE] = " class=\"noise\"",
		[REPORT_WORSE] = " class=\"worse\"",
		[REPORT_BETTER] = " class=\"better\"",
	};
	static const char *const cell[] = {
		[REPORT_SAME] = "", [REPORT_NOISE] = " noise",
		[REPORT_WORSE] = " worse", [REPORT_BETTER] = " better",
	};
	const char *name = suite_pattern_name(row->pattern);
	const char *s0 = report_run_state(rep, row, 0);
	const char *s1 = report_run_state(rep, row, 1);
	char a[32], b[32], p[32];
	int m;

	fprintf(f, "<tr class=\"result\" data-key=\"%s/%s\"><td>%s</td><td%s>%s%s%s</td>",
		rep->topo[row->topo].spec, name, name, cls[row->run_verdict],
		s0, strcmp(s0, s1) ? " -&gt; " : "", strcmp(s0, s1) ? s1 : "");
	for (m = 0; m < rep->nr_metrics; m++) {
		report_fmt_value(a, sizeof(a), row->med[0][m]);
		report_fmt_value(b, sizeof(b), row->med[1][m]);
		report_fmt_pct(p, sizeof(p), row->pct[m]);
		fprintf(f, "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n%s\">%s</td>",
			a, b, cell[row->verdict[m]], p);
	}
	fputs("</tr>\n", f);
}

static void html_rows(FILE *f, const struct report *rep)
{
	size_t i;
	int t, m;

	fputs("<h2>Every pattern</h2>\n<p>Medians over the seeds; coloured: past the threshold (red worse, blue better, grey within the seeds' noise).</p>\n", f);
	for (t = 0; t < rep->nr_topos; t++) {
		fprintf(f, "<details><summary>");
		html_text(f, rep->topo[t].spec);
		fputs("</summary>\n<table><tr><th>pattern</th><th>run</th>", f);
		for (m = 0; m < rep->nr_metrics; m++)
			fprintf(f, "<th colspan=\"3\">%s (%s better)</th>",
				rep->label[m],
				rep->metric[m]->higher_is_better ? "higher" :
				"lower");
		fputs("</tr>\n", f);
		for (i = 0; i < rep->nr_rows; i++)
			if (rep->rows[i].topo == t)
				html_row(f, rep, &rep->rows[i]);
		fputs("</table></details>\n", f);
	}
}

int report_html(FILE *f, const struct report *rep)
{
	int t;

	html_head(f, rep);
	fputs("<h2>Per topology</h2>\n", f);
	for (t = 0; t < rep->nr_topos; t++)
		if (html_topology(f, rep, t)) {
			report_set_error("cannot embed the plots of '%s': %m",
					 rep->out);
			return -1;
		}
	html_warned(f, rep);
	html_ranked(f, rep, "Worst regressions", rep->worse, rep->nr_worse);
	html_ranked(f, rep, "Best improvements", rep->better, rep->nr_better);
	html_commits(f, rep);
	html_rows(f, rep);
	fputs("</body></html>\n", f);
	return 0;
}
