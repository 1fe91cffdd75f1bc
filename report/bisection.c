// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisection.c - the answer of a bisection: report.txt (which the command
 * prints too), report.json, and a gnuplot plot of the metric over the
 * tested revisions (plot.dat, plot.gp, plot.png).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include "driver/driver.h"
#include "plots/plots.h"
#include "report/report_internal.h"


/* files of the culprit the text lists (report.json has all) */
#define MAX_FILES 20

/* The smaller and the larger of two numbers (no NaN): report/ needs no libm */
static double min_of(double a, double b)
{
	return b < a ? b : a;
}

static double max_of(double a, double b)
{
	return b > a ? b : a;
}

/* "2024-05-01 12:00:00 +0200" */
static void format_date(char *out, size_t len, long long t, int offset)
{
	time_t local = (time_t)(t + (long long)offset * 60);
	struct tm tm;

	gmtime_r(&local, &tm);
	strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(out + strlen(out), len - strlen(out), " %c%02d%02d",
		 offset < 0 ? '-' : '+', abs(offset) / 60, abs(offset) % 60);
}

#define SAME_BUILD "same build as "

/* Whether @cls took @st's verdict with it (the same build). */
static int joins(const struct report_step *st, long cls)
{
	size_t i;

	for (i = 0; i < st->nr_joined; i++)
		if (st->joined[i] == cls)
			return 1;
	return 0;
}

/* The step that decided @cls: its own, or one it was joined to. */
static const struct report_step *own_step(const struct report_bisection *b,
					  long cls)
{
	size_t i;

	for (i = 0; i < b->nr_steps; i++)
		if (b->steps[i].cls == cls)
			return &b->steps[i];
	for (i = 0; i < b->nr_steps; i++)
		if (joins(&b->steps[i], cls))
			return &b->steps[i];
	return NULL;
}

/*
 * "@before classes 3-4, 6@after" for a step's joined classes ("class 3"
 * for one), or "" when it has none
 */
static void joined_text(char *out, size_t len, const struct report_step *st,
			const char *before, const char *after)
{
	size_t n;

	*out = '\0';
	if (!st->nr_joined)
		return;
	n = (size_t)snprintf(out, len, "%sclass%s ", before,
			     st->nr_joined == 1 ? "" : "es");
	if (n >= len)
		return;
	lsb_ranges_text(out + n, len - n, st->joined, st->nr_joined);
	n = strlen(out);
	snprintf(out + n, len - n, "%s", after);
}

static cJSON *longs_json(const long *v, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)v[i]));
	return arr;
}

/* Whether @st was joined to a tested class: neither built nor run. */
static int joined(const struct report_step *st)
{
	return !st->has_value && st->reason &&
	       !strncmp(st->reason, SAME_BUILD, strlen(SAME_BUILD));
}

/*
 * The step of class @cls; for a class the strategy joined to a tested one
 * ("same build as GOOD", "same build as class K": it was neither built
 * nor run), that one's step, whose figures are its own too.
 */
static const struct report_step *step_of(const struct report_bisection *b,
					 long cls)
{
	const struct report_step *st = own_step(b, cls);
	size_t hops;

	for (hops = 0; st && hops < b->nr_steps; hops++) {
		const char *to;

		if (!joined(st))
			break;
		to = st->reason + strlen(SAME_BUILD);
		if (!strcmp(to, "GOOD"))
			st = own_step(b, -1);
		else if (!strncmp(to, "class ", 6))
			st = own_step(b, strtol(to + 6, NULL, 10));
		else
			break;
	}
	return st;
}

static const char *first_commit(const struct report_bisection *b, long cls)
{
	const struct bisect_classes *c = b->classes;

	return cls < 0 ? c->good : c->commits[c->classes[cls].first];
}

static char *subject_of(bisect_repo *r, const char *commit)
{
	struct bisect_commit_info info;
	char *s = NULL;

	if (!bisect_commit_info(&info, r, commit, NULL, 0))
		s = strdup(info.subject);
	bisect_commit_info_release(&info);
	return s ? s : strdup("");
}

static void value_text(char *out, size_t len, const struct report_step *st)
{
	if (!st)
		snprintf(out, len, "not tested");
	else if (st->has_value)
		snprintf(out, len, "%.6g", st->value);
	else
		snprintf(out, len, "-");
}

static int is_skip(const struct report_step *st)
{
	return !strcmp(st->verdict, "skip");
}

/* The steps as a table. */
static void steps_text(FILE *f, const struct report_bisection *b)
{
	size_t i;

	fprintf(f, "step  class  commit        verdict  %s\n", b->metric);
	for (i = 0; i < b->nr_steps; i++) {
		const struct report_step *st = &b->steps[i];
		char cls[24], val[64];

		if (st->cls < 0)
			snprintf(cls, sizeof(cls), "GOOD");
		else
			snprintf(cls, sizeof(cls), "%ld", st->cls);
		value_text(val, sizeof(val), step_of(b, st->cls));
		fprintf(f, "%4d  %5s  %.12s  %-7s  %s", st->step, cls,
			st->commit, st->verdict, is_skip(st) ? "" : val);
		if (is_skip(st)) {
			char with[300];

			joined_text(with, sizeof(with), st, " (with ",
				    ": the same build)");
			fprintf(f, "%.200s%s", st->reason, with);
		} else if (joined(st))
			fprintf(f, "  (%.60s)", st->reason);
		if (st->nr_runs > 1)
			fprintf(f, "  (%d runs)", st->nr_runs);
		fputc('\n', f);
	}
}

/*
 * The culprit's files under kernel/sched/ and include/, those its build
 * read first; the others (headers no object of the build includes) are
 * only counted when the build's records say which they are.
 */
static void culprit_files(FILE *f, const struct report_bisection *b,
			  const struct bisect_commit_info *info, cJSON *o)
{
	/* a class joined to a tested one read what that one's build read */
	const struct report_step *st = step_of(b, b->culprit);
	long k = st ? st->cls : b->culprit;
	const char *subset = k < 0 ? b->classes->good_subset :
				     b->classes->classes[k].subset;
	cJSON *arr = cJSON_AddArrayToObject(o, "files");
	int *read = calloc(info->nr_files ? info->nr_files : 1, sizeof(*read));
	int known = read && b->paths &&
		    !driver_build_reads(b->paths, subset, info->files,
					info->nr_files, read);
	size_t i, shown, unread;
	int pass;

	fprintf(f, "    changed under kernel/sched, drivers/cpuidle and include/%s:%s",
		known ? ", read by its build" : "",
		info->nr_files ? "\n" : " nothing\n");
	for (pass = 0, shown = 0; pass < 2; pass++)
		for (i = 0; i < info->nr_files; i++) {
			if (!strncmp(info->files[i], bisect_report_prefixes[0],
				     strlen(bisect_report_prefixes[0])) != !pass)
				continue;
			if (known && !read[i])
				continue;
			if (shown++ < MAX_FILES)
				fprintf(f, "        %s\n", info->files[i]);
			cJSON_AddItemToArray(arr,
					     cJSON_CreateString(info->files[i]));
		}
	if (shown > MAX_FILES)
		fprintf(f, "        ... and %zu more (report.json lists them)\n",
			shown - MAX_FILES);
	if (known) {
		for (i = 0, unread = 0; i < info->nr_files; i++)
			unread += !read[i];
		if (unread)
			fprintf(f, "        (and %zu file%s no object of the build reads)\n",
				unread, unread == 1 ? "" : "s");
		cJSON_AddNumberToObject(o, "files_unread", (double)unread);
	}
	free(read);
}

/* The other commits of the culprit's class. */
static void culprit_class(FILE *f, bisect_repo *r,
			  const struct report_bisection *b, cJSON *o)
{
	const struct bisect_classes *c = b->classes;
	const struct bisect_class *k = &c->classes[b->culprit];
	cJSON *arr = cJSON_AddArrayToObject(o, "same_class");
	size_t i;

	if (k->n < 2)
		return;
	fprintf(f, "    class %ld has %zu commits with one build subset; the others:\n",
		b->culprit, k->n);
	for (i = 1; i < k->n; i++) {
		char *s = subject_of(r, c->commits[k->first + i]);

		fprintf(f, "        %.12s %s\n", c->commits[k->first + i], s);
		cJSON_AddItemToArray(arr, cJSON_CreateString(
			c->commits[k->first + i]));
		free(s);
	}
}

/* GOOD's, the parent's and the culprit's values. */
static void culprit_values(FILE *f, const struct report_bisection *b,
			   cJSON *o)
{
	const struct report_step *good = step_of(b, -1);
	const struct report_step *parent = step_of(b, b->culprit - 1);
	const struct report_step *bad = step_of(b, b->culprit);
	char v1[64], v2[64], v3[64];

	value_text(v1, sizeof(v1), good);
	value_text(v2, sizeof(v2), b->culprit ? parent : good);
	value_text(v3, sizeof(v3), bad);
	fprintf(f, "%s: GOOD %s, parent %.12s %s, culprit %s", b->metric, v1,
		b->culprit ? first_commit(b, b->culprit - 1) : b->classes->good,
		v2, v3);
	if (good && bad && good->has_value && bad->has_value &&
	    good->value != 0)
		fprintf(f, " (%+.1f %%)",
			100 * (bad->value - good->value) / fabs(good->value));
	fputc('\n', f);
	if (good && good->has_value)
		cJSON_AddNumberToObject(o, "value_good", good->value);
	parent = b->culprit ? parent : good;
	if (parent && parent->has_value)
		cJSON_AddNumberToObject(o, "value_parent", parent->value);
	if (bad && bad->has_value)
		cJSON_AddNumberToObject(o, "value", bad->value);
}

static void culprit_text(FILE *f, bisect_repo *r,
			 const struct report_bisection *b, cJSON *json)
{
	const struct bisect_classes *c = b->classes;
	const char *id = c->commits[c->classes[b->culprit].first];
	cJSON *o = cJSON_AddObjectToObject(json, "culprit");
	struct bisect_commit_info info;
	char date[64];

	if (bisect_commit_info(&info, r, id, bisect_report_prefixes,
			       BISECT_NR_REPORT_PREFIXES)) {
		fprintf(f, "first bad commit: %s\n", id);
		fprintf(f, "(cannot describe it: %s)\n", bisect_last_error());
		bisect_commit_info_release(&info);
		return;
	}
	format_date(date, sizeof(date), info.time, info.offset);
	fprintf(f, "first bad commit: %s\n", info.id);
	fprintf(f, "    %s\n", info.subject);
	fprintf(f, "    Author: %s\n    Date:   %s\n", info.author, date);
	cJSON_AddStringToObject(o, "commit", info.id);
	cJSON_AddStringToObject(o, "subject", info.subject);
	cJSON_AddStringToObject(o, "author", info.author);
	cJSON_AddStringToObject(o, "date", date);
	cJSON_AddNumberToObject(o, "class", b->culprit);
	culprit_files(f, b, &info, o);
	culprit_class(f, r, b, o);
	bisect_commit_info_release(&info);
	culprit_values(f, b, o);
}

/* the commits of the candidates the text lists one by one (JSON: all) */
#define MAX_CANDIDATE_COMMITS 20

/* How a candidate class was decided, after its commit and subject. */
static void candidate_verdict(FILE *f, const struct report_step *st,
			      long cls)
{
	if (!st)
		fprintf(f, ": not tested");
	else if (is_skip(st) && st->cls != cls)
		fprintf(f, ": skipped with class %ld, the same build: %.200s",
			st->cls, st->reason);
	else if (is_skip(st))
		fprintf(f, ": skipped: %.200s", st->reason);
	else
		fprintf(f, ": %s", st->verdict);
	fputc('\n', f);
}

static void candidates_text(FILE *f, bisect_repo *r,
			    const struct report_bisection *b, cJSON *json)
{
	cJSON *arr = cJSON_AddArrayToObject(json, "candidates");
	size_t i, j, commits = 0;

	for (i = 0; i < b->nr_candidates; i++)
		commits += b->classes->classes[b->candidates[i]].n;
	fprintf(f, "skipped revisions leave %zu candidates: the first bad commit is one of these classes (%zu commit%s)\n",
		b->nr_candidates, commits, commits == 1 ? "" : "s");
	for (i = 0; i < b->nr_candidates; i++) {
		long cls = b->candidates[i];
		const struct bisect_class *k = &b->classes->classes[cls];
		const struct report_step *st = step_of(b, cls);
		char *s = subject_of(r, first_commit(b, cls));
		cJSON *o = cJSON_CreateObject(), *all;

		fprintf(f, "    class %ld: %.12s %s (%zu commit%s)", cls,
			first_commit(b, cls), s, k->n, k->n == 1 ? "" : "s");
		candidate_verdict(f, st, cls);
		cJSON_AddNumberToObject(o, "class", cls);
		cJSON_AddStringToObject(o, "commit", first_commit(b, cls));
		cJSON_AddStringToObject(o, "subject", s);
		if (st) {
			cJSON_AddStringToObject(o, "verdict", st->verdict);
			cJSON_AddStringToObject(o, "reason", st->reason);
			if (st->cls != cls)
				cJSON_AddNumberToObject(o, "with_class",
							st->cls);
		}
		all = cJSON_AddArrayToObject(o, "commits");
		for (j = 0; j < k->n; j++) {
			const char *id = b->classes->commits[k->first + j];

			cJSON_AddItemToArray(all, cJSON_CreateString(id));
			if (!j || commits > MAX_CANDIDATE_COMMITS)
				continue;
			free(s);
			s = subject_of(r, id);
			fprintf(f, "        %.12s %s\n", id, s);
		}
		cJSON_AddItemToArray(arr, o);
		free(s);
	}
}

/* Whether a step is a build that ran and did not decide, in the range. */
static int undecided_candidate(const struct report_bisection *b,
			       const struct report_step *st)
{
	size_t i;

	if (!is_skip(st) || !st->has_value)
		return 0;
	for (i = 0; i < b->nr_candidates; i++)
		if (b->candidates[i] == st->cls || joins(st, b->candidates[i]))
			return 1;
	return 0;
}

static void figures_text(FILE *f, const char *what, const double *v,
			 size_t n, cJSON *o, const char *key)
{
	cJSON *arr = cJSON_AddArrayToObject(o, key);
	double *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	size_t i;

	fprintf(f, "        %-14s", what);
	for (i = 0; i < n; i++) {
		if (i < 32)
			fprintf(f, " %.6g", v[i]);
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[i]));
	}
	if (n > 32)
		fprintf(f, " ...");
	if (sorted && n) {
		memcpy(sorted, v, n * sizeof(*sorted));
		fprintf(f, " (median %.6g)", lsb_median(sorted, n));
	}
	fputc('\n', f);
	free(sorted);
}

/* What the judge said of a build that did not decide, from its details. */
static void judged_text(FILE *f, const struct report_bisection *b,
			const struct report_step *st, cJSON *o)
{
	cJSON *d = st->details ? cJSON_Parse(st->details) : NULL;
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(d, "p");
	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(d, "change_pct");
	const cJSON *bad = cJSON_GetObjectItemCaseSensitive(d, "bad_seeds");
	const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(d, "seeds");

	if (cJSON_IsNumber(pct) && cJSON_IsNumber(p))
		fprintf(f, "        median %+.1f %% from GOOD's (bad beyond %g %%), Mann-Whitney p = %.3g (bad below 0.05)\n",
			pct->valuedouble, b->threshold, p->valuedouble);
	else if (cJSON_IsNumber(bad) && cJSON_IsNumber(seeds))
		fprintf(f, "        %d of %d seeds bad by the predicate (bad: all of them)\n",
			bad->valueint, seeds->valueint);
	if (d)
		cJSON_AddItemToObject(o, "details", d);
}

/*
 * The builds in the range that ran and did not decide: their seeds'
 * figures beside GOOD's, what the judge said, and what may decide them.
 */
static void undecided_text(FILE *f, const struct report_bisection *b,
			   cJSON *json)
{
	cJSON *arr = cJSON_AddArrayToObject(json, "undecided"), *o;
	char with[300], advice[600];
	size_t i, n = 0;

	for (i = 0; i < b->nr_steps; i++) {
		const struct report_step *st = &b->steps[i];

		if (!undecided_candidate(b, st))
			continue;
		if (!n++)
			fprintf(f, "builds that did not decide (their runs neither good nor bad against GOOD's):\n");
		joined_text(with, sizeof(with), st, " with ",
			    " (the same build)");
		fprintf(f, "    class %ld (%.12s)%s, %zu seed%s:\n", st->cls,
			st->commit, with, st->nr_values,
			st->nr_values == 1 ? "" : "s");
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "class", st->cls);
		cJSON_AddStringToObject(o, "commit", st->commit);
		cJSON_AddItemToObject(o, "joined",
				      longs_json(st->joined, st->nr_joined));
		cJSON_AddStringToObject(o, "reason", st->reason);
		cJSON_AddNumberToObject(o, "value", st->value);
		figures_text(f, b->metric, st->values, st->nr_values, o,
			     "values");
		if (st->nr_good_values)
			figures_text(f, "GOOD", st->good_values,
				     st->nr_good_values, o, "good_values");
		judged_text(f, b, st, o);
		cJSON_AddItemToArray(arr, o);
	}
	if (!n)
		return;
	snprintf(advice, sizeof(advice),
		 "more seeds (--max-seeds %d: a test over more seeds can tell smaller differences), longer runs (--duration, now %s: a run's figure varies less), or a metric that varies less from seed to seed (--metric; lsbisect --help lists them)",
		 2 * (b->max_seeds > 0 ? b->max_seeds : b->seeds),
		 b->duration ? b->duration : "the default");
	fprintf(f, "to decide %s: %s\n", n == 1 ? "it" : "them", advice);
	cJSON_AddStringToObject(json, "advice", advice);
}

static void no_regression_text(FILE *f, const struct report_bisection *b)
{
	const struct report_step *g = step_of(b, -1);
	const struct report_step *s =
		step_of(b, (long)b->classes->nr_classes - 1);
	char v1[64], v2[64];

	value_text(v1, sizeof(v1), g);
	value_text(v2, sizeof(v2), s);
	fprintf(f, "no regression: BAD scores %s %s against GOOD's %s (threshold %g %%)\n",
		b->metric, v2, v1, b->threshold);
}

static void json_steps(cJSON *json, const struct report_bisection *b)
{
	cJSON *arr = cJSON_AddArrayToObject(json, "steps");
	size_t i;

	for (i = 0; i < b->nr_steps; i++) {
		const struct report_step *st = &b->steps[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "step", st->step);
		cJSON_AddNumberToObject(o, "class", st->cls);
		cJSON_AddStringToObject(o, "commit", st->commit);
		cJSON_AddStringToObject(o, "verdict", st->verdict);
		cJSON_AddStringToObject(o, "reason", st->reason);
		if (st->has_value)
			cJSON_AddNumberToObject(o, "value", st->value);
		else
			cJSON_AddNullToObject(o, "value");
		cJSON_AddNumberToObject(o, "runs", st->nr_runs);
		cJSON_AddItemToArray(arr, o);
	}
}

static void skipped_text(FILE *f, const struct report_bisection *b,
			 cJSON *json)
{
	cJSON *o = cJSON_AddArrayToObject(json, "skipped"), *s;
	size_t i;

	for (i = 0; i < b->nr_steps; i++) {
		const struct report_step *st = &b->steps[i];

		char with[300];

		if (!is_skip(st))
			continue;
		joined_text(with, sizeof(with), st, " (with ",
			    ": the same build)");
		fprintf(f, "skipped class %ld (%.12s): %.300s%s\n", st->cls,
			st->commit, st->reason, with);
		s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "class", st->cls);
		cJSON_AddStringToObject(s, "commit", st->commit);
		cJSON_AddStringToObject(s, "reason", st->reason);
		if (st->nr_joined)
			cJSON_AddItemToObject(s, "joined",
					      longs_json(st->joined,
							 st->nr_joined));
		cJSON_AddItemToArray(o, s);
	}
}

static void counts_text(FILE *f, const struct report_bisection *b,
			cJSON *json)
{
	cJSON *o = cJSON_AddObjectToObject(json, "counts");

	cJSON_AddNumberToObject(o, "built", b->nr_built);
	cJSON_AddNumberToObject(o, "ran", b->nr_ran);
	cJSON_AddNumberToObject(o, "cached", b->nr_cached);
	cJSON_AddNumberToObject(o, "from_log", b->nr_from_log);
	cJSON_AddNumberToObject(o, "corrupt_removed", b->nr_corrupt);
	fprintf(f, "%d built, %d run, %d from the result cache, %d from the log",
		b->nr_built, b->nr_ran, b->nr_cached, b->nr_from_log);
	if (b->nr_corrupt)
		fprintf(f, ", %d corrupt cache entries removed", b->nr_corrupt);
	fputc('\n', f);
}

/*
 * The text into @f and the JSON into @json, which go together; the line
 * naming the files comes once they are written.
 */
static void compose(FILE *f, bisect_repo *r, const struct report_bisection *b,
		    cJSON *json)
{
	static const char *const outcomes[] = {
		[REPORT_CULPRIT] = "culprit",
		[REPORT_NO_REGRESSION] = "no-regression",
		[REPORT_AMBIGUOUS] = "ambiguous",
	};
	const struct bisect_classes *c = b->classes;

	fprintf(f, "lsbisect %s..%s: %zu commits in %zu classes (%s)\n",
		b->good, b->bad, c->nr_commits, c->nr_classes,
		b->first_parent ? "first parents" : "full history");
	fprintf(f, "workload '%s' on %s, %s, metric %s, threshold %g %%, %d seed%s\n\n",
		b->workload, b->topology,
		b->duration ? b->duration : "default duration", b->metric,
		b->threshold, b->seeds, b->seeds == 1 ? "" : "s");
	steps_text(f, b);
	fputc('\n', f);
	if (b->script)
		fprintf(f, "the script '%s' decided; the values shown are %s's (--metric sets which)\n\n",
			b->script, b->metric);
	cJSON_AddStringToObject(json, "outcome", outcomes[b->outcome]);
	cJSON_AddStringToObject(json, "good", c->good);
	cJSON_AddStringToObject(json, "bad", c->bad);
	cJSON_AddNumberToObject(json, "commits", (double)c->nr_commits);
	cJSON_AddNumberToObject(json, "classes", (double)c->nr_classes);
	cJSON_AddStringToObject(json, "metric", b->metric);
	if (b->outcome == REPORT_CULPRIT)
		culprit_text(f, r, b, json);
	else if (b->outcome == REPORT_AMBIGUOUS) {
		candidates_text(f, r, b, json);
		undecided_text(f, b, json);
	}
	else
		no_regression_text(f, b);
	skipped_text(f, b, json);
	json_steps(json, b);
	counts_text(f, b, json);
}

/*
 * plot.dat: the steps by verdict, each labelled by its commit's tag (a
 * release's "v6.1.170"), else its short hash; *@lo, *@hi: the values'
 * range.
 */
static int plot_dat(const struct report_bisection *b, bisect_repo *r,
		    const char *dir, double *lo, double *hi)
{
	struct bisect_tag *tags = NULL;
	size_t nr_tags = 0;
	static const char *const kinds[] = { "good", "bad", "skip" };
	const char *tag;
	char path[4300];
	size_t i, k, n = 0;
	FILE *f;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < b->nr_steps; i++)
		if (b->steps[i].has_value) {
			*lo = min_of(*lo, b->steps[i].value);
			*hi = max_of(*hi, b->steps[i].value);
			n++;
		}
	if (!n)
		*lo = *hi = 0;
	lsb_pathf(path, sizeof(path), "%s/plot.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (bisect_tags(r, &tags, &nr_tags))
		nr_tags = 0;	/* no tags: hashes label the points */
	fprintf(f, "# position in the range, %s, label (tag or commit), class\n",
		b->metric);
	for (k = 0; k < 3; k++) {
		fprintf(f, "# %s\n", kinds[k]);
		for (i = 0; i < b->nr_steps; i++) {
			const struct report_step *st = &b->steps[i];
			size_t x = st->cls < 0 ? 0 :
				   b->classes->classes[st->cls].first + 1;

			if (strcmp(st->verdict, kinds[k]))
				continue;
			tag = report_tag_of(st->commit, tags, nr_tags);
			if (!tag || strchr(tag, '"'))	/* a data file's quote */
				tag = NULL;
			fprintf(f, "%zu %.10g \"%.*s\" %ld\n", x,
				k < 2 && st->has_value ? st->value : *lo,
				tag ? 63 : 7, tag ? tag : st->commit, st->cls);
		}
		/* gnuplot needs something in each block */
		fprintf(f, "-1 NaN \"\" -1\n\n\n");
	}
	bisect_tags_free(tags, nr_tags);
	return fclose(f);
}

/*
 * plot.gp: x is the position in the range (GOOD at 0, a class at its
 * first commit), y the metric; good, bad and skipped revisions apart.
 */
static int plot_gp(const struct report_bisection *b, const char *dir,
		   double lo, double hi)
{
	char path[4300], title[700], wl[300], marker[300] = "";
	char range[128] = "", topo[300];
	size_t x;
	FILE *f;

	if (lo > 0 && hi / lo > 100)
		snprintf(range, sizeof(range), "set logscale y\n");
	else if (hi == lo)	/* one value: gnuplot needs a range */
		snprintf(range, sizeof(range), "set yrange [%.10g:%.10g]\n",
			 lo - max_of(fabs(lo) * 0.1, 1e-9),
			 hi + max_of(fabs(hi) * 0.1, 1e-9));
	if (b->outcome == REPORT_CULPRIT) {
		x = b->classes->classes[b->culprit].first + 1;
		snprintf(marker, sizeof(marker),
			 "set arrow from %zu, graph 0 to %zu, graph 1 nohead dt 2 lc rgb '#d73027'\n"
			 "set label 'first bad' at %zu, graph 0.95 offset 0.5,0 font ',9'\n",
			 x, x, x);
	}
	lsb_short_name(wl, sizeof(wl), b->workload);
	lsb_short_name(topo, sizeof(topo), b->topology);
	/* two lines: the range, then the workload (long specs get cut) */
	snprintf(title, sizeof(title), "%s over %s..%s\n%.90s on %s", b->metric,
		 b->good, b->bad, wl, topo);
	lsb_pathf(path, sizeof(path), "%s/plot.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f,
		"# gnuplot plot.gp (in this directory) makes plot.png\n"
		"set terminal pngcairo size 1000,560 noenhanced\n"
		"set output 'plot.png'\n"
		"set title ");
	plot_quote(f, title);
	fprintf(f, " font ',11'\n"
		"set xlabel 'commits after GOOD (%zu in the range)'\n"
		"set ylabel '%s (higher is %s)'\n"
		"set xrange [-1:%zu]\n"
		"set xtics rotate by -60 font ',8'\n"
		"set key outside right\n"
		"set grid ytics\n"
		"%s%s"
		"plot 'plot.dat' index 0 using 1:2:xtic(3) with points pt 7 ps 1.5 lc rgb '#1a9850' title 'good', \\\n"
		"     '' index 1 using 1:2:xtic(3) with points pt 7 ps 1.5 lc rgb '#d73027' title 'bad', \\\n"
		"     '' index 2 using 1:2:xtic(3) with points pt 2 ps 2 lc rgb '#404040' title 'skipped'\n",
		b->classes->nr_commits, b->metric,
		b->higher_is_better ? "better" : "worse",
		b->classes->nr_commits + 1, range, marker);
	return fclose(f);
}

/* Write @text as @dir/@name; -1 with the error set. */
static int write_text(const char *dir, const char *name, const char *text)
{
	char path[4300];

	lsb_pathf(path, sizeof(path), "%s/%s", dir, name);
	if (lsb_write_atomic(path, text, strlen(text))) {
		report_set_error("cannot write '%s': %m", path);
		return -1;
	}
	return 0;
}

/* report.json, as cJSON prints it and a newline. */
static int write_json(const char *dir, const cJSON *json)
{
	char path[4300];

	lsb_pathf(path, sizeof(path), "%s/report.json", dir);
	if (lsb_write_json(path, json)) {
		report_set_error("cannot write '%s': %m", path);
		return -1;
	}
	return 0;
}

/* Remember the first failure's message of a write: -1. */
static int failed(char *first, size_t len)
{
	if (!*first)
		snprintf(first, len, "%s", report_last_error());
	return -1;
}

int report_bisection_write(const struct report_bisection *b,
			   const char *out_dir, FILE *echo, int *plot_status)
{
	cJSON *json = NULL;
	bisect_repo *r = NULL;
	char *text = NULL, *full = NULL, first[4400] = "";
	size_t len = 0;
	double lo, hi;
	int ret = -1, drawn = 0;
	FILE *f;

	*plot_status = PLOT_OK;
	if (lsb_mkdir_p(out_dir)) {
		report_set_error("cannot create '%s': %m", out_dir);
		return -1;
	}
	if (bisect_repo_open(&r, b->repo)) {
		report_set_error("%s", bisect_last_error());
		return -1;
	}
	json = cJSON_CreateObject();
	f = open_memstream(&text, &len);
	if (!json || !f) {
		report_set_error("out of memory");
		goto cleanup;
	}
	compose(f, r, b, json);
	if (fclose(f)) {
		report_set_error("out of memory");
		goto cleanup;
	}
	ret = write_json(out_dir, json) ? failed(first, sizeof(first)) : 0;
	if (plot_dat(b, r, out_dir, &lo, &hi) || plot_gp(b, out_dir, lo, hi)) {
		report_set_error("cannot write the plot in '%s': %m", out_dir);
		ret = failed(first, sizeof(first));
	} else {
		*plot_status = plot_run(out_dir, "plot.gp");
		drawn = *plot_status == PLOT_OK;
	}
	/* report.txt names the files: it is the last one written */
	if (asprintf(&full, "%soutput: %s (report.txt, report.json, %s); log: %s\n",
		     text, out_dir, drawn ? "plot.png" : "plot.dat, plot.gp",
		     b->log_path) < 0) {
		full = NULL;
		report_set_error("out of memory");
		ret = -1;
		goto cleanup;
	}
	if (write_text(out_dir, "report.txt", full))
		ret = failed(first, sizeof(first));
	if (ret)	/* the answer, but no file named as written */
		report_set_error("%s", first);
	if (echo) {
		fputs(ret ? text : full, echo);
		fflush(echo);
	}
cleanup:
	cJSON_Delete(json);
	free(full);
	free(text);
	bisect_repo_free(r);
	return ret;
}
