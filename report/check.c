// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the pre-submit check (`linsched check`): each change of a
 * series judged against its predecessor as a release report is, the
 * invariants gate, and what CI reads: the text, the change table in the
 * kernel test robot's form, JUnit XML and TAP.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "suite/suite.h"

/* A stddev this many percent of the mean is shown beside the value. */
#define NOTABLE_STDDEV_PCT 1.0

int report_row_violated(const struct report *rep, const struct report_row *row)
{
	double old_max = -INFINITY, new_min = INFINITY;
	int s;

	if (row->ok[0] != rep->seeds || row->ok[1] != rep->seeds)
		return 0;
	for (s = 0; s < rep->seeds; s++) {
		if (isnan(row->violations[0][s]) || isnan(row->violations[1][s]))
			return 0;
		if (row->violations[0][s] > old_max)
			old_max = row->violations[0][s];
		if (row->violations[1][s] < new_min)
			new_min = row->violations[1][s];
	}
	return new_min > old_max;
}

/* Whether @row fails the check: a regression, or an invariant broken. */
static int row_fails(const struct report_check *c, const struct report *rep,
		     const struct report_row *row)
{
	int m;

	if (row->run_verdict == REPORT_WORSE)
		return 1;
	for (m = 0; m < rep->nr_metrics; m++)
		if (row->verdict[m] == REPORT_WORSE)
			return 1;
	return c->invariants && report_row_violated(rep, row);
}

int report_check_bug_back(const struct report_check_bug *b)
{
	return !isnan(b->value[0]) && !isnan(b->value[1]) && !b->buggy[0] &&
	       b->buggy[1];
}

void report_check_judge(struct report_check *c)
{
	size_t i, k;

	for (i = 0; i < c->nr_steps; i++) {
		struct report_check_step *st = &c->steps[i];

		st->nr_violated = 0;
		st->nr_failed = 0;
		st->nr_bugs_back = 0;
		for (k = 0; k < st->nr_bugs; k++)
			st->nr_bugs_back += report_check_bug_back(&st->bugs[k]);
		if (!st->rep)
			continue;
		for (k = 0; k < st->rep->nr_rows; k++) {
			const struct report_row *row = &st->rep->rows[k];

			st->nr_violated += c->invariants &&
					   report_row_violated(st->rep, row);
			st->nr_failed += row_fails(c, st->rep, row);
		}
	}
}

long report_check_first_failure(const struct report_check *c)
{
	size_t i;

	for (i = 0; i < c->nr_steps; i++)
		if (c->steps[i].nr_failed || c->steps[i].build_error ||
		    c->steps[i].nr_bugs_back)
			return (long)i;
	return -1;
}

/* The mean and the relative standard deviation (percent) of a side. */
static void side_stats(const struct report *rep, const struct report_row *row,
		       int r, int m, double *mean, double *rsd)
{
	double sum = 0, sq = 0;
	int s, n = 0;

	for (s = 0; s < rep->seeds; s++) {
		double v = row->v[r][m][s];

		if (isnan(v))
			continue;
		sum += v;
		n++;
	}
	*mean = n ? sum / n : NAN;
	*rsd = NAN;
	if (n < 2 || *mean == 0)
		return;
	for (s = 0; s < rep->seeds; s++)
		if (!isnan(row->v[r][m][s]))
			sq += (row->v[r][m][s] - *mean) *
			      (row->v[r][m][s] - *mean);
	*rsd = 100 * sqrt(sq / (n - 1)) / fabs(*mean);
}

/* "  12345 ± 3%" or "  12345     ": a value and its notable stddev. */
static void table_value(char *buf, size_t len, double v, double rsd)
{
	char val[32];

	report_fmt_value(val, sizeof(val), v);
	if (!isnan(rsd) && rsd >= NOTABLE_STDDEV_PCT)
		snprintf(buf, len, "%14s \xc2\xb1%3.0f%%", val, rsd);
	else
		snprintf(buf, len, "%14s      ", val);
}

void report_check_table(FILE *f, const struct report *rep)
{
	size_t k;
	int m, any = 0;

	for (k = 0; k < rep->nr_rows; k++) {
		const struct report_row *row = &rep->rows[k];

		for (m = 0; m < rep->nr_metrics; m++) {
			double a, b, ra, rb, scale, d;
			char va[64], vb[64], p[32];
			int frac;

			if (row->verdict[m] == REPORT_SAME)
				continue;
			if (!any++) {
				fprintf(f, "%20.12s %10s %20.12s\n%s\n%s\n%s\n",
					rep->rev[0]->commit, "",
					rep->rev[1]->commit,
					"-------------------- ---------- --------------------",
					"             %stddev    %change              %stddev",
					"                   \\          |                    \\");
			}
			/*
			 * a fraction in percent, its change in points, as
			 * the robot shows a percentage ("+0.82")
			 */
			frac = !strcmp(rep->metric[m]->unit, "fraction");
			scale = frac ? 100 : 1;
			side_stats(rep, row, 0, m, &a, &ra);
			side_stats(rep, row, 1, m, &b, &rb);
			table_value(va, sizeof(va), row->med[0][m] * scale, ra);
			table_value(vb, sizeof(vb), row->med[1][m] * scale, rb);
			d = (row->med[1][m] - row->med[0][m]) * 100;
			if (!frac)
				report_fmt_pct(p, sizeof(p), row->pct[m]);
			else if (isnan(d))
				snprintf(p, sizeof(p), "-");
			else
				snprintf(p, sizeof(p), "%+.3g", d == 0 ? 0.0 : d);
			fprintf(f, "%s %10s %s  %s/%s.%s%s%s\n", va, p, vb,
				rep->topo[row->topo].name,
				suite_pattern_name(row->pattern),
				rep->label[m], frac ? "%" : "",
				row->verdict[m] == REPORT_WORSE ? "  (regression)" :
				row->verdict[m] == REPORT_BETTER ?
				"  (improvement)" : "  (noise)");
		}
	}
	if (!any)
		fprintf(f, "no change past %g%% in any metric\n", rep->threshold);
}

/*
 * Why @row fails, one line each ("balance_score: 0.81 -> 1.02 (+25.9%,
 * threshold 5%)"), after @prefix; the number of lines.
 */
static int row_reasons(FILE *f, const char *prefix,
		       const struct report_check *c, const struct report *rep,
		       const struct report_row *row)
{
	int m, n = 0;
	char a[32], b[32], p[32];

	if (row->run_verdict == REPORT_WORSE) {
		fprintf(f, "%srun: %s -> %s: %s\n", prefix,
			report_run_state(rep, row, 0),
			report_run_state(rep, row, 1), row->reason[1]);
		n++;
	}
	for (m = 0; m < rep->nr_metrics; m++) {
		if (row->verdict[m] != REPORT_WORSE)
			continue;
		report_fmt_value(a, sizeof(a), row->med[0][m]);
		report_fmt_value(b, sizeof(b), row->med[1][m]);
		report_fmt_pct(p, sizeof(p), row->pct[m]);
		fprintf(f, "%s%s: %s -> %s (%s, threshold %g%%)\n", prefix,
			rep->label[m], a, b, p, rep->threshold);
		n++;
	}
	if (c->invariants && report_row_violated(rep, row)) {
		int s;

		fprintf(f, "%sinvariants violated:", prefix);
		for (s = 0; s < rep->seeds; s++)
			fprintf(f, "%s%g", s ? "," : " ", row->violations[0][s]);
		fputs(" ->", f);
		for (s = 0; s < rep->seeds; s++)
			fprintf(f, "%s%g", s ? "," : " ", row->violations[1][s]);
		fputs(" (per seed)\n", f);
		n++;
	}
	return n;
}

/* "fork_affinity-6.1: tasks.busy0.sum_exec_ns 4.99e+09 -> 3.1e+09 (buggy below 4.5e+09)" */
static void bug_line(FILE *f, const char *prefix, const struct report_check_bug *b)
{
	char a[32], n[32], t[32];

	report_fmt_value(a, sizeof(a), b->value[0]);
	report_fmt_value(n, sizeof(n), b->value[1]);
	report_fmt_value(t, sizeof(t), b->threshold);
	fprintf(f, "%s%s: %s %s -> %s (buggy %s %s; fix %s)\n", prefix,
		b->name, b->metric, a, n, b->buggy_above ? "above" : "below",
		t, b->fix);
}

/* The bug gate of a step: how many ran, and each that came back. */
static void bugs_text(FILE *f, const struct report_check_step *st)
{
	size_t k;

	if (!st->bugs)
		return;
	fprintf(f, "  catalogued bugs: %zu run, %d back\n", st->nr_bugs,
		st->nr_bugs_back);
	for (k = 0; k < st->nr_bugs; k++)
		if (report_check_bug_back(&st->bugs[k]))
			bug_line(f, "  BACK ", &st->bugs[k]);
}

/* What a step that was not run failed at: "build" or "apply". */
static const char *failure_kind(const struct report_check_step *st)
{
	return st->not_applied ? "apply" : "build";
}

/* What was checked against what, from the first step that ran. */
static void check_header(FILE *f, const struct report_check *c)
{
	const struct report *rep = NULL;
	size_t i;
	int t;

	for (i = 0; i < c->nr_steps && !rep; i++)
		rep = c->steps[i].rep;
	fprintf(f, "linsched check: %zu change%s", c->nr_steps,
		c->nr_steps == 1 ? "" : "s");
	if (c->base && rep)
		fprintf(f, " on %s (%.12s)", c->base, rep->rev[0]->commit);
	fputc('\n', f);
	if (!rep)
		return;
	fprintf(f, "suite %s: %d pattern%s on", rep->suite, rep->nr_patterns,
		rep->nr_patterns == 1 ? "" : "s");
	for (t = 0; t < rep->nr_topos; t++)
		fprintf(f, "%s %s", t ? "," : "", rep->topo[t].spec);
	fprintf(f, "; %s each, seeds 1..%d; threshold %g%%\n\n",
		rep->duration, rep->seeds, rep->threshold);
}

void report_check_text(FILE *f, const struct report_check *c)
{
	long first = report_check_first_failure(c);
	size_t i, k;

	check_header(f, c);
	for (i = 0; i < c->nr_steps; i++) {
		const struct report_check_step *st = &c->steps[i];
		const struct report *rep = st->rep;

		fprintf(f, "%s\n", st->name);
		if (st->build_error) {
			fprintf(f, "  does not %s:\n%s\n", failure_kind(st),
				st->build_error);
			continue;
		}
		if (!rep) {
			fputs("  not checked\n", f);
			continue;
		}
		fprintf(f, "  %.12s -> %.12s: %zu regression%s, %zu improvement%s",
			rep->rev[0]->commit, rep->rev[1]->commit,
			rep->nr_worse, rep->nr_worse == 1 ? "" : "s",
			rep->nr_better, rep->nr_better == 1 ? "" : "s");
		if (c->invariants)
			fprintf(f, ", invariants broken in %d run%s",
				st->nr_violated, st->nr_violated == 1 ? "" : "s");
		fputc('\n', f);
		for (k = 0; k < rep->nr_rows; k++) {
			const struct report_row *row = &rep->rows[k];

			if (!row_fails(c, rep, row))
				continue;
			fprintf(f, "  FAIL %s %s\n", rep->topo[row->topo].name,
				suite_pattern_name(row->pattern));
			row_reasons(f, "    ", c, rep, row);
		}
		bugs_text(f, st);
		fputc('\n', f);
		report_check_table(f, rep);
		fprintf(f, "\n  %s/report.html\n\n", rep->out);
	}
	if (first < 0)
		fprintf(f, "verdict: no regression in %zu change%s\n",
			c->nr_steps, c->nr_steps == 1 ? "" : "s");
	else if (c->steps[first].build_error)
		fprintf(f, "verdict: %s does not %s\n", c->steps[first].name,
			failure_kind(&c->steps[first]));
	else if (!c->steps[first].nr_failed)
		fprintf(f, "verdict: %s brings back %d catalogued bug%s\n",
			c->steps[first].name, c->steps[first].nr_bugs_back,
			c->steps[first].nr_bugs_back == 1 ? "" : "s");
	else
		fprintf(f, "verdict: %s regresses (%d run%s fail%s%s)\n",
			c->steps[first].name, c->steps[first].nr_failed,
			c->steps[first].nr_failed == 1 ? "" : "s",
			c->steps[first].nr_failed == 1 ? "s" : "",
			c->steps[first].nr_bugs_back ?
			", catalogued bugs back" : "");
}

/* "balance_score +25.9%, run crashed": what fails in @row, in short. */
static void row_summary(char *buf, size_t len, const struct report_check *c,
			const struct report *rep, const struct report_row *row)
{
	size_t at = 0;
	char p[32];
	int m;

	buf[0] = '\0';
	if (row->run_verdict == REPORT_WORSE)
		at += (size_t)snprintf(buf + at, len - at, "run %s",
				       report_run_state(rep, row, 1));
	for (m = 0; m < rep->nr_metrics && at < len; m++) {
		if (row->verdict[m] != REPORT_WORSE)
			continue;
		report_fmt_pct(p, sizeof(p), row->pct[m]);
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s",
				       at ? ", " : "", rep->label[m], p);
	}
	if (at < len && c->invariants && report_row_violated(rep, row))
		snprintf(buf + at, len - at, "%sinvariants violated",
			 at ? ", " : "");
}

/* @s with XML's five characters escaped, and control characters dropped. */
static void xml_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' ||
			    *s == '\t')
				fputc(*s, f);
		}
	}
}

/* The failures of a step: its rows that fail, or 1 when it does not build. */
static size_t step_failures(const struct report_check_step *st)
{
	return st->build_error ? 1 : (size_t)st->nr_failed +
	       (size_t)st->nr_bugs_back;
}

static size_t step_tests(const struct report_check_step *st)
{
	return st->build_error ? 1 : st->rep ? st->rep->nr_rows + st->nr_bugs :
	       0;
}

/* A testcase's name: the pattern, after the step's number in a series. */
static void case_name(char *buf, size_t len, const struct report_check *c,
		      size_t i, const char *what)
{
	if (c->nr_steps > 1)
		snprintf(buf, len, "%zu: %s", i + 1, what);
	else
		snprintf(buf, len, "%s", what);
}

/* A step's catalogued bugs as testcases: 0, or -1 (out of memory). */
static int junit_bugs(FILE *f, const struct report_check *c, size_t i)
{
	const struct report_check_step *st = &c->steps[i];
	char name[512], *text;
	size_t k, len;
	FILE *m;

	for (k = 0; k < st->nr_bugs; k++) {
		const struct report_check_bug *b = &st->bugs[k];

		case_name(name, sizeof(name), c, i, b->name);
		fputs("    <testcase classname=\"bugs\" name=\"", f);
		xml_put(f, name);
		if (!report_check_bug_back(b)) {
			fputs("\"/>\n", f);
			continue;
		}
		fputs("\">\n      <failure type=\"bug\" message=\"", f);
		xml_put(f, b->name);
		fputs(" is back\">", f);
		text = NULL;
		m = open_memstream(&text, &len);
		if (!m) {
			report_set_error("out of memory");
			return -1;
		}
		bug_line(m, "", b);
		fclose(m);
		xml_put(f, text);
		free(text);
		fputs("</failure>\n    </testcase>\n", f);
	}
	return 0;
}

int report_check_junit(FILE *f, const struct report_check *c)
{
	size_t i, k, tests = 0, fails = 0;
	char name[512];

	for (i = 0; i < c->nr_steps; i++) {
		tests += step_tests(&c->steps[i]);
		fails += step_failures(&c->steps[i]);
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"linsched check\" tests=\"%zu\" failures=\"%zu\" time=\"%.3f\">\n",
		tests, fails, c->wall_s);
	for (i = 0; i < c->nr_steps; i++) {
		const struct report_check_step *st = &c->steps[i];
		const struct report *rep = st->rep;

		fputs("  <testsuite name=\"", f);
		xml_put(f, st->name);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\">\n",
			step_tests(st), step_failures(st));
		if (st->build_error) {
			const char *kind = failure_kind(st);

			case_name(name, sizeof(name), c, i, kind);
			fprintf(f, "    <testcase classname=\"%s\" name=\"", kind);
			xml_put(f, name);
			fprintf(f, "\">\n      <failure type=\"%s\" message=\"does not %s\">",
				kind, kind);
			xml_put(f, st->build_error);
			fputs("</failure>\n    </testcase>\n", f);
		}
		for (k = 0; rep && k < rep->nr_rows; k++) {
			const struct report_row *row = &rep->rows[k];

			case_name(name, sizeof(name), c, i,
				  suite_pattern_name(row->pattern));
			fputs("    <testcase classname=\"", f);
			xml_put(f, rep->topo[row->topo].name);
			fputs("\" name=\"", f);
			xml_put(f, name);
			if (!row_fails(c, rep, row)) {
				fputs("\"/>\n", f);
				continue;
			}
			fputs("\">\n      <failure type=\"regression\" message=\"", f);
			row_summary(name, sizeof(name), c, rep, row);
			xml_put(f, name);
			fputs("\">", f);
			{
				char *text = NULL;
				size_t len = 0;
				FILE *m = open_memstream(&text, &len);

				if (!m) {
					report_set_error("out of memory");
					return -1;
				}
				row_reasons(m, "", c, rep, row);
				fclose(m);
				xml_put(f, text);
				free(text);
			}
			fputs("</failure>\n    </testcase>\n", f);
		}
		if (!st->build_error && rep && junit_bugs(f, c, i))
			return -1;
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}

int report_check_tap(FILE *f, const struct report_check *c)
{
	size_t i, k, n = 0, tests = 0;
	char name[512];

	for (i = 0; i < c->nr_steps; i++)
		tests += step_tests(&c->steps[i]);
	fprintf(f, "TAP version 13\n1..%zu\n", tests);
	for (i = 0; i < c->nr_steps; i++) {
		const struct report_check_step *st = &c->steps[i];
		const struct report *rep = st->rep;

		fputs("# ", f);
		fputs(st->name, f);
		fputc('\n', f);
		if (st->build_error) {
			const char *l = st->build_error, *e;

			case_name(name, sizeof(name), c, i, failure_kind(st));
			fprintf(f, "not ok %zu - %s\n", ++n, name);
			for (; *l; l = *e ? e + 1 : e) {
				e = strchr(l, '\n');
				if (!e)
					e = l + strlen(l);
				fprintf(f, "#   %.*s\n", (int)(e - l), l);
			}
		}
		for (k = 0; rep && k < rep->nr_rows; k++) {
			const struct report_row *row = &rep->rows[k];
			int fails = row_fails(c, rep, row);

			case_name(name, sizeof(name), c, i,
				  suite_pattern_name(row->pattern));
			fprintf(f, "%s %zu - %s on %s", fails ? "not ok" : "ok",
				++n, name, rep->topo[row->topo].name);
			if (fails) {
				row_summary(name, sizeof(name), c, rep, row);
				fprintf(f, ": %s", name);
			}
			fputc('\n', f);
			if (fails)
				row_reasons(f, "#   ", c, rep, row);
		}
		for (k = 0; rep && !st->build_error && k < st->nr_bugs; k++) {
			const struct report_check_bug *b = &st->bugs[k];
			int back = report_check_bug_back(b);

			case_name(name, sizeof(name), c, i, b->name);
			fprintf(f, "%s %zu - bug %s%s\n", back ? "not ok" : "ok",
				++n, name, back ? " is back" : "");
			if (back)
				bug_line(f, "#   ", b);
		}
	}
	return ferror(f) ? -1 : 0;
}
