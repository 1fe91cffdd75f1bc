// SPDX-License-Identifier: GPL-2.0-only
/*
 * html.c - report.html: one self-contained file, the plots' and the
 * timelines' PNGs embedded as data URIs, with the summary, the ranked
 * changes linked to each pattern's row and timelines, the commits and
 * every row's medians; its tables sort by the column clicked (a little
 * inline script, nothing loaded from elsewhere).
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

/*
 * The PNG OUT/@rel embedded, captioned @alt and linked as a file; -1 when
 * it cannot be read.
 */
static int html_png(FILE *f, const struct report *rep, const char *rel,
		    const char *alt)
{
	char path[4400];
	unsigned char *p;
	size_t len;

	lsb_pathf(path, sizeof(path), "%s/%s", rep->out, rel);
	p = (unsigned char *)lsb_read_file(path, &len);
	if (!p)
		return -1;
	fputs("<figure><img alt=\"", f);
	html_text(f, alt);
	fputs("\" src=\"data:image/png;base64,", f);
	base64(f, p, len);
	fputs("\"><figcaption>", f);
	html_text(f, alt);
	fputs(" (<a href=\"", f);
	html_text(f, rel);
	fputs("\">png</a>)</figcaption></figure>\n", f);
	free(p);
	return 0;
}

/* OUT/plots/@name embedded; -1 when it cannot be read. */
static int html_image(FILE *f, const struct report *rep, const char *name,
		      const char *alt)
{
	char rel[400];

	snprintf(rel, sizeof(rel), "plots/%s", name);
	return html_png(f, rep, rel, alt);
}

/* A row's anchor: "p-TOPO-PATTERN" ("tl-" for its timelines). */
static void row_id(char *buf, size_t len, const struct report *rep,
		   const char *prefix, const struct report_row *row)
{
	snprintf(buf, len, "%s-%s-%s", prefix, rep->topo[row->topo].name,
		 suite_pattern_name(row->pattern));
}

/* Whether @row's timelines are in the page. */
static int has_timeline(const struct report *rep, const struct report_row *row)
{
	const struct report_row *rows[REPORT_MAX_TIMELINES];
	size_t n, i;

	n = report_timeline_rows(rep, rows, rep->timelines < REPORT_MAX_TIMELINES ?
				 (size_t)rep->timelines : REPORT_MAX_TIMELINES);
	for (i = 0; i < n; i++)
		if (rows[i] == row)
			return 1;
	return 0;
}

/* A pattern's cell: its name, linked to its row of "Every pattern". */
static void html_pattern_cell(FILE *f, const struct report *rep,
			      const struct report_row *row)
{
	char id[300];

	row_id(id, sizeof(id), rep, "p", row);
	fprintf(f, "<td><a href=\"#%s\">%s</a></td>", id,
		suite_pattern_name(row->pattern));
}

/* The header row of a sortable table: each column's data-col. */
static void html_thead(FILE *f, const char *const *cols, int n)
{
	int i;

	fputs("<thead><tr>", f);
	for (i = 0; i < n; i++)
		fprintf(f, "<th data-col=\"%d\">%s</th>", i, cols[i]);
	fputs("</tr></thead><tbody>\n", f);
}

static void html_change_row(FILE *f, const struct report *rep, size_t i,
			    const struct report_rank *k)
{
	const struct report_row *row = k->row;
	const char *topo = rep->topo[row->topo].spec;
	char a[32], b[32], p[32];

	char id[300] = "";

	fprintf(f, "<tr class=\"change\" data-key=\"%s/%s/%s\"><td class=\"n\">%zu</td><td>",
		topo, suite_pattern_name(row->pattern),
		k->metric < 0 ? "run" : rep->label[k->metric], i + 1);
	html_text(f, topo);
	fputs("</td>", f);
	html_pattern_cell(f, rep, row);
	if (has_timeline(rep, row))
		row_id(id, sizeof(id), rep, "tl", row);
	if (k->metric < 0) {
		fprintf(f, "<td>run</td><td>%s</td><td>%s</td><td>",
			report_run_state(rep, row, 0),
			report_run_state(rep, row, 1));
		html_text(f, row->reason[row->ok[1] < rep->seeds]);
		fputs("</td><td></td></tr>\n", f);
		return;
	}
	report_fmt_value(a, sizeof(a), row->med[0][k->metric]);
	report_fmt_value(b, sizeof(b), row->med[1][k->metric]);
	report_fmt_pct(p, sizeof(p), row->pct[k->metric]);
	fprintf(f, "<td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td>",
		rep->label[k->metric], a, b, p);
	if (*id)
		fprintf(f, "<a href=\"#%s\">timelines</a>", id);
	fputs("</td></tr>\n", f);
}

static void html_ranked(FILE *f, const struct report *rep, const char *id,
			const char *title, const struct report_rank *list,
			size_t n)
{
	static const char *const cols[] = {
		"#", "topology", "pattern", "metric", "OLD", "NEW", "change",
		"details",
	};
	size_t top = (size_t)rep->top, i;

	fprintf(f, "<h2 id=\"%s\">%s (%zu of %zu)</h2>\n", id, title,
		n < top ? n : top, n);
	if (!n) {
		fputs("<p>none</p>\n", f);
		return;
	}
	fputs("<table class=\"sortable\">", f);
	html_thead(f, cols, 8);
	for (i = 0; i < n && i < top; i++)
		html_change_row(f, rep, i, &list[i]);
	fputs("</tbody></table>\n", f);
}

static void html_head(FILE *f, const struct report *rep)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<link rel=\"icon\" href=\"data:,\">\n<title>linsched report: ", f);
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
	      "table.sortable thead th[data-col]{cursor:pointer;user-select:none}\n"
	      "th[aria-sort=ascending]::after{content:\" \\25b2\"}\n"
	      "th[aria-sort=descending]::after{content:\" \\25bc\"}\n"
	      "tr:target,section:target h3{background:#fff3b0}\n"
	      "section.timeline figure{max-width:48%;vertical-align:top}\n"
	      "details{overflow-x:auto}\n"
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
	static const char *const cols[] = {
		"metric", "better", "regressions", "improvements", "noise",
		"compared", "median change (positive worse)",
	};
	const char *topo = rep->topo[t].spec;
	char name[300], alt[512], a[64], b[64], p[32];
	struct report_warnings w;
	struct report_summary sm;
	int m;

	fputs("<h3>", f);
	html_text(f, topo);
	fputs("</h3>\n<table class=\"sortable\">", f);
	html_thead(f, cols, 7);
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
	fputs("</tbody></table>\n", f);
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
	static const char *const cols[] = {
		"#", "topology", "pattern", "side", "WARNs", "runs with one",
		"runs", "the first",
	};
	size_t n = report_warned(rep, 0, NULL, NULL), top = rep->top, i;

	fprintf(f, "<h2 id=\"warnings\">Kernel WARNs per pattern and side (%zu of %zu)</h2>\n",
		n < top ? n : top, n);
	if (!n) {
		fputs("<p>none</p>\n", f);
		return;
	}
	fputs("<p>A WARN does not stop a run: it finishes, its metrics are judged as any other's.</p>\n<table class=\"sortable\">", f);
	html_thead(f, cols, 8);
	for (i = 0; i < n && i < top; i++) {
		const struct report_row *row;
		struct report_warnings w;
		const char *topo;
		int r;

		report_warned(rep, i, &row, &r);
		report_row_warnings(rep, row, r, &w);
		topo = rep->topo[row->topo].spec;
		fprintf(f, "<tr class=\"warned\" data-key=\"%s/%s/%s\"><td class=\"n\">%zu</td><td>",
			topo, suite_pattern_name(row->pattern),
			r ? "new" : "old", i + 1);
		html_text(f, topo);
		fputs("</td>", f);
		html_pattern_cell(f, rep, row);
		fprintf(f, "<td>%s</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td><td><code>",
			r ? "NEW" : "OLD", w.warns, w.runs, w.of);
		html_text(f, row->warning[r]);
		fputs("</code></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void html_commits(FILE *f, const struct report *rep)
{
	size_t i;
	static const char *const cols[] = {
		"commit", "subject", "files under kernel/sched/ and include/",
	};

	fprintf(f, "<h2 id=\"commits\">Commits from OLD to NEW that changed the build subset (%zu of %zu commits)</h2>\n<table class=\"sortable\">",
		rep->nr_changes, rep->nr_range_commits);
	html_thead(f, cols, 3);
	for (i = 0; i < rep->nr_changes; i++) {
		fprintf(f, "<tr><td><code>%.12s</code></td><td>",
			rep->changes[i].id);
		html_text(f, rep->changes[i].subject);
		fputs("</td><td>", f);
		html_text(f, rep->changes[i].files);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
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

	char id[300];

	row_id(id, sizeof(id), rep, "p", row);
	fprintf(f, "<tr class=\"result\" id=\"%s\" data-key=\"%s/%s\"><td>%s</td><td%s>%s%s%s</td>",
		id, rep->topo[row->topo].spec, name, name, cls[row->run_verdict],
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

	fputs("<h2 id=\"patterns\">Every pattern</h2>\n<p>Medians over the seeds; coloured: past the threshold (red worse, blue better, grey within the seeds' noise).</p>\n", f);
	for (t = 0; t < rep->nr_topos; t++) {
		fprintf(f, "<details><summary>");
		html_text(f, rep->topo[t].spec);
		fputs("</summary>\n<table class=\"sortable\"><thead><tr><th rowspan=\"2\" data-col=\"0\">pattern</th><th rowspan=\"2\" data-col=\"1\">run</th>", f);
		for (m = 0; m < rep->nr_metrics; m++)
			fprintf(f, "<th colspan=\"3\">%s (%s better)</th>",
				rep->label[m],
				rep->metric[m]->higher_is_better ? "higher" :
				"lower");
		fputs("</tr>\n<tr>", f);
		for (m = 0; m < rep->nr_metrics; m++)
			fprintf(f, "<th data-col=\"%d\">OLD</th><th data-col=\"%d\">NEW</th><th data-col=\"%d\">change</th>",
				2 + 3 * m, 3 + 3 * m, 4 + 3 * m);
		fputs("</tr></thead><tbody>\n", f);
		for (i = 0; i < rep->nr_rows; i++)
			if (rep->rows[i].topo == t)
				html_row(f, rep, &rep->rows[i]);
		fputs("</tbody></table></details>\n", f);
	}
}

/* A row's regressions, as "balance_score 1.5 -> 3 (+100.0%)". */
static void html_regressions(FILE *f, const struct report *rep,
			     const struct report_row *row)
{
	char a[32], b[32], p[32];
	int m, first = 1;

	for (m = 0; m < rep->nr_metrics; m++) {
		if (row->verdict[m] != REPORT_WORSE)
			continue;
		report_fmt_value(a, sizeof(a), row->med[0][m]);
		report_fmt_value(b, sizeof(b), row->med[1][m]);
		report_fmt_pct(p, sizeof(p), row->pct[m]);
		fprintf(f, "%s%s %s &rarr; %s (%s)", first ? "" : "; ",
			rep->label[m], a, b, p);
		first = 0;
	}
}

/* The worst regressions' rows: their changes, OLD's and NEW's timelines. */
static void html_timelines(FILE *f, const struct report *rep)
{
	const struct report_row *rows[REPORT_MAX_TIMELINES];
	char id[300], name[300], rel[400], alt[600];
	size_t n, i;
	int r;

	n = report_timeline_rows(rep, rows, rep->timelines < REPORT_MAX_TIMELINES ?
				 (size_t)rep->timelines : REPORT_MAX_TIMELINES);
	if (!n)
		return;
	fprintf(f, "<h2 id=\"timelines\">Timelines of the worst regressions (%zu)</h2>\n<p>Each pattern on OLD and on NEW, ",
		n);
	html_text(f, rep->timeline_window);
	fputs(": per CPU the tasks it ran, its idle states and its frequency (<code>linsched timeline</code>).</p>\n", f);
	for (i = 0; i < n; i++) {
		row_id(id, sizeof(id), rep, "tl", rows[i]);
		fprintf(f, "<section class=\"timeline\" id=\"%s\"><h3>", id);
		html_text(f, rep->topo[rows[i]->topo].spec);
		fprintf(f, ": %s</h3>\n<p>", suite_pattern_name(rows[i]->pattern));
		html_regressions(f, rep, rows[i]);
		row_id(id, sizeof(id), rep, "p", rows[i]);
		fprintf(f, " (<a href=\"#%s\">every metric</a>)</p>\n", id);
		for (r = 0; r < 2; r++) {
			report_timeline_name(rep, rows[i], r, name,
					     sizeof(name));
			snprintf(rel, sizeof(rel), "timelines/%s/timeline.png",
				 name);
			snprintf(alt, sizeof(alt), "%s %s", r ? "NEW" : "OLD",
				 rep->rev[r]->name);
			if (!html_png(f, rep, rel, alt))
				continue;
			fprintf(f, "<p class=\"missing\">%s: no timeline (see <a href=\"timelines/%s/timeline.log\">its log</a>)</p>\n",
				r ? "NEW" : "OLD", name);
		}
		fputs("</section>\n", f);
	}
}

/*
 * The page's script: a click on a header with a data-col sorts its
 * table's body by that column, again the other way: numbers ("+1.5%",
 * "2e+06") as numbers, before any other text ("-", a reason) whichever
 * the way; text by its digits' values ("hog-n2" before "hog-n10"); ties
 * keep their order. An anchor into a closed <details> opens it.
 */
static const char html_script[] =
"<script>\n"
"(function () {\n"
"\t'use strict';\n"
"\tvar NUM = /^[-+]?(\\d+\\.?\\d*|\\.\\d+)(e[-+]?\\d+)?%?$/i;\n"
"\tfunction cell(row, col) {\n"
"\t\tvar c = row.cells[col];\n"
"\t\treturn c ? c.textContent.trim() : '';\n"
"\t}\n"
"\tfunction sortBy(table, th) {\n"
"\t\tvar col = Number(th.getAttribute('data-col'));\n"
"\t\tvar asc = th.getAttribute('aria-sort') !== 'ascending';\n"
"\t\tvar body = table.tBodies[0];\n"
"\t\tvar rows = Array.prototype.slice.call(body.rows);\n"
"\t\tvar keyed = rows.map(function (r, i) {\n"
"\t\t\tvar v = cell(r, col);\n"
"\t\t\treturn { row: r, i: i, s: v, n: NUM.test(v) ? parseFloat(v) : NaN };\n"
"\t\t});\n"
"\t\tvar num = keyed.some(function (k) { return !isNaN(k.n); });\n"
"\t\tkeyed.sort(function (a, b) {\n"
"\t\t\tvar d;\n"
"\t\t\tif (num && isNaN(a.n) !== isNaN(b.n))\n"
"\t\t\t\treturn isNaN(a.n) ? 1 : -1;\n"
"\t\t\tif (num && !isNaN(a.n))\n"
"\t\t\t\td = a.n - b.n;\n"
"\t\t\telse\n"
"\t\t\t\td = a.s.localeCompare(b.s, 'en', { numeric: true });\n"
"\t\t\treturn (asc ? d : -d) || a.i - b.i;\n"
"\t\t});\n"
"\t\tArray.prototype.forEach.call(table.querySelectorAll('thead th'), function (h) {\n"
"\t\t\th.removeAttribute('aria-sort');\n"
"\t\t});\n"
"\t\tth.setAttribute('aria-sort', asc ? 'ascending' : 'descending');\n"
"\t\tkeyed.forEach(function (k) { body.appendChild(k.row); });\n"
"\t}\n"
"\tArray.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {\n"
"\t\tArray.prototype.forEach.call(table.querySelectorAll('thead th[data-col]'), function (th) {\n"
"\t\t\tth.title = 'sort by this column (again: the other way)';\n"
"\t\t\tth.addEventListener('click', function () { sortBy(table, th); });\n"
"\t\t});\n"
"\t});\n"
"\tfunction reveal() {\n"
"\t\tvar id = decodeURIComponent(location.hash.slice(1));\n"
"\t\tvar e = id && document.getElementById(id);\n"
"\t\tif (!e)\n"
"\t\t\treturn;\n"
"\t\tfor (var d = e.parentElement; d; d = d.parentElement)\n"
"\t\t\tif (d.tagName === 'DETAILS')\n"
"\t\t\t\td.open = true;\n"
"\t\te.scrollIntoView();\n"
"\t}\n"
"\twindow.addEventListener('hashchange', reveal);\n"
"\treveal();\n"
"})();\n"
"</script>\n";

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
	html_ranked(f, rep, "regressions", "Worst regressions", rep->worse,
		    rep->nr_worse);
	html_ranked(f, rep, "improvements", "Best improvements", rep->better,
		    rep->nr_better);
	html_timelines(f, rep);
	html_commits(f, rep);
	html_rows(f, rep);
	fputs(html_script, f);
	fputs("</body></html>\n", f);
	return 0;
}
