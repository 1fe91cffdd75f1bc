// SPDX-License-Identifier: GPL-2.0-only
/*
 * lsbisect-report.c - the answer of a bisection: on standard output, as
 * report.txt and report.json, and as a gnuplot plot of the metric over
 * the tested revisions (plot.dat, plot.gp, plot.png).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bisect/bisect.h"
#include "common/common.h"
#include "guile/guile.h"
#include "plots/plots.h"

static const char *const prefixes[] = { "kernel/sched/", "include/" };

/* files of the culprit the text lists (report.json has all) */
#define MAX_FILES 20

int report_write(const struct guile_config *cfg,
		 const struct guile_answer *a, const char *out_dir);

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

static const struct guile_step *step_of(const struct guile_answer *a,
					long cls)
{
	size_t i;

	for (i = 0; i < a->nr_steps; i++)
		if (a->steps[i].cls == cls)
			return &a->steps[i];
	return NULL;
}

static const char *first_commit(const struct guile_answer *a, long cls)
{
	const struct bisect_classes *c = a->classes;

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

static void value_text(char *out, size_t len, const struct guile_step *st)
{
	if (!st)
		snprintf(out, len, "not tested");
	else if (st->has_value)
		snprintf(out, len, "%.6g", st->value);
	else
		snprintf(out, len, "-");
}

/* The steps as a table. */
static void steps_text(FILE *f, const struct guile_answer *a)
{
	size_t i;

	fprintf(f, "step  class  commit        verdict  %s\n", a->metric);
	for (i = 0; i < a->nr_steps; i++) {
		const struct guile_step *st = &a->steps[i];
		char cls[24], val[64];

		if (st->cls < 0)
			snprintf(cls, sizeof(cls), "GOOD");
		else
			snprintf(cls, sizeof(cls), "%ld", st->cls);
		value_text(val, sizeof(val), st);
		fprintf(f, "%4d  %5s  %.12s  %-7s  %s", st->step, cls,
			st->commit, st->verdict,
			strcmp(st->verdict, "skip") ? val : "");
		if (!strcmp(st->verdict, "skip"))
			fprintf(f, "%.200s", st->reason);
		if (st->nr_runs > 1)
			fprintf(f, "  (%d runs)", st->nr_runs);
		fputc('\n', f);
	}
}

static void culprit_text(FILE *f, bisect_repo *r,
			 const struct guile_answer *a, cJSON *json)
{
	const struct bisect_classes *c = a->classes;
	const struct bisect_class *k = &c->classes[a->culprit];
	const struct guile_step *good = step_of(a, -1);
	const struct guile_step *parent = step_of(a, a->culprit - 1);
	const struct guile_step *bad = step_of(a, a->culprit);
	struct bisect_commit_info info;
	cJSON *o = cJSON_AddObjectToObject(json, "culprit"), *arr;
	char date[64], v1[64], v2[64], v3[64];
	size_t i, shown;
	int pass;

	if (bisect_commit_info(&info, r, c->commits[k->first], prefixes, 2)) {
		fprintf(f, "first bad commit: %s\n", c->commits[k->first]);
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
	cJSON_AddNumberToObject(o, "class", a->culprit);
	fprintf(f, "    changed under kernel/sched and include/:%s",
		info.nr_files ? "\n" : " nothing\n");
	arr = cJSON_AddArrayToObject(o, "files");
	/* kernel/sched first; the text shows the first MAX_FILES */
	for (pass = 0, shown = 0; pass < 2; pass++)
		for (i = 0; i < info.nr_files; i++) {
			if (!strncmp(info.files[i], prefixes[0],
				     strlen(prefixes[0])) != !pass)
				continue;
			if (shown++ < MAX_FILES)
				fprintf(f, "        %s\n", info.files[i]);
			cJSON_AddItemToArray(arr,
					     cJSON_CreateString(info.files[i]));
		}
	if (shown > MAX_FILES)
		fprintf(f, "        ... and %zu more (report.json lists them)\n",
			shown - MAX_FILES);
	arr = cJSON_AddArrayToObject(o, "same_class");
	if (k->n > 1) {
		fprintf(f, "    class %ld has %zu commits with one build subset; the others:\n",
			a->culprit, k->n);
		for (i = 1; i < k->n; i++) {
			char *s = subject_of(r, c->commits[k->first + i]);

			fprintf(f, "        %.12s %s\n", c->commits[k->first + i],
				s);
			cJSON_AddItemToArray(arr, cJSON_CreateString(
				c->commits[k->first + i]));
			free(s);
		}
	}
	bisect_commit_info_release(&info);
	value_text(v1, sizeof(v1), good);
	value_text(v2, sizeof(v2), a->culprit ? parent : good);
	value_text(v3, sizeof(v3), bad);
	fprintf(f, "%s: GOOD %s, parent %.12s %s, culprit %s", a->metric, v1,
		a->culprit ? first_commit(a, a->culprit - 1) : c->good, v2, v3);
	if (good && bad && good->has_value && bad->has_value &&
	    good->value != 0)
		fprintf(f, " (%+.1f %%)",
			100 * (bad->value - good->value) / fabs(good->value));
	fputc('\n', f);
	if (good && good->has_value)
		cJSON_AddNumberToObject(o, "value_good", good->value);
	parent = a->culprit ? parent : good;
	if (parent && parent->has_value)
		cJSON_AddNumberToObject(o, "value_parent", parent->value);
	if (bad && bad->has_value)
		cJSON_AddNumberToObject(o, "value", bad->value);
}

static void candidates_text(FILE *f, bisect_repo *r,
			    const struct guile_answer *a, cJSON *json)
{
	cJSON *arr = cJSON_AddArrayToObject(json, "candidates");
	size_t i;

	fprintf(f, "skipped revisions leave %zu candidates for the first bad commit:\n",
		a->nr_candidates);
	for (i = 0; i < a->nr_candidates; i++) {
		long cls = a->candidates[i];
		const struct bisect_class *k = &a->classes->classes[cls];
		const struct guile_step *st = step_of(a, cls);
		char *s = subject_of(r, first_commit(a, cls));
		cJSON *o = cJSON_CreateObject();

		fprintf(f, "    class %ld: %.12s %s (%zu commit%s)", cls,
			first_commit(a, cls), s, k->n, k->n == 1 ? "" : "s");
		if (st && !strcmp(st->verdict, "skip"))
			fprintf(f, ": skipped: %.200s", st->reason);
		else if (st)
			fprintf(f, ": %s", st->verdict);
		fputc('\n', f);
		cJSON_AddNumberToObject(o, "class", cls);
		cJSON_AddStringToObject(o, "commit", first_commit(a, cls));
		cJSON_AddStringToObject(o, "subject", s);
		cJSON_AddItemToArray(arr, o);
		free(s);
	}
}

static void json_steps(cJSON *json, const struct guile_answer *a)
{
	cJSON *arr = cJSON_AddArrayToObject(json, "steps");
	size_t i;

	for (i = 0; i < a->nr_steps; i++) {
		const struct guile_step *st = &a->steps[i];
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

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	bad = fputs(text, f) < 0;
	if (fclose(f) || bad) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The plot: x is the position in the range (GOOD at 0, a class at its
 * first commit), y the metric; good, bad and skipped revisions apart.
 */
static int plot(const struct guile_config *cfg, const struct guile_answer *a,
		const char *dir)
{
	static const char *const kinds[] = { "good", "bad", "skip" };
	char path[4300], title[700], wl[300], marker[300] = "";
	char range[128] = "";
	const char *topo;
	double lo = INFINITY, hi = -INFINITY;
	FILE *f;
	size_t i, k, n = 0;
	int status;

	for (i = 0; i < a->nr_steps; i++)
		if (a->steps[i].has_value) {
			lo = fmin(lo, a->steps[i].value);
			hi = fmax(hi, a->steps[i].value);
			n++;
		}
	if (!n)
		lo = hi = 0;
	snprintf(path, sizeof(path), "%s/plot.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# position in the range, %s, commit, class\n", a->metric);
	for (k = 0; k < 3; k++) {
		fprintf(f, "# %s\n", kinds[k]);
		for (i = 0; i < a->nr_steps; i++) {
			const struct guile_step *st = &a->steps[i];
			size_t x = st->cls < 0 ? 0 :
				   a->classes->classes[st->cls].first + 1;

			if (strcmp(st->verdict, kinds[k]))
				continue;
			fprintf(f, "%zu %.10g %.7s %ld\n", x,
				k < 2 && st->has_value ? st->value : lo,
				st->commit, st->cls);
		}
		/* gnuplot needs something in each block */
		fprintf(f, "-1 NaN \"\" -1\n\n\n");
	}
	if (fclose(f))
		return -1;

	if (lo > 0 && hi / lo > 100)
		snprintf(range, sizeof(range), "set logscale y\n");
	else if (hi == lo)	/* one value: gnuplot needs a range */
		snprintf(range, sizeof(range), "set yrange [%.10g:%.10g]\n",
			 lo - fmax(fabs(lo) * 0.1, 1e-9),
			 hi + fmax(fabs(hi) * 0.1, 1e-9));
	if (a->outcome == GUILE_CULPRIT)
		snprintf(marker, sizeof(marker),
			 "set arrow from %zu, graph 0 to %zu, graph 1 nohead dt 2 lc rgb '#d73027'\n"
			 "set label 'first bad' at %zu, graph 0.95 offset 0.5,0 font ',9'\n",
			 a->classes->classes[a->culprit].first + 1,
			 a->classes->classes[a->culprit].first + 1,
			 a->classes->classes[a->culprit].first + 1);
	snprintf(wl, sizeof(wl), "%s", cfg->run.workload);
	topo = strrchr(cfg->run.topology, '/');
	topo = topo ? topo + 1 : cfg->run.topology;
	/* two lines: the range, then the workload (long specs get cut) */
	snprintf(title, sizeof(title), "%s over %s..%s\n%.90s on %s", a->metric,
		 cfg->good, cfg->bad, wl, topo);
	snprintf(path, sizeof(path), "%s/plot.gp", dir);
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
		a->classes->nr_commits, a->metric,
		a->higher_is_better ? "better" : "worse",
		a->classes->nr_commits + 1,
		range, marker);
	if (fclose(f))
		return -1;
	status = plot_run(dir, "plot.gp");
	if (status)
		fprintf(stderr, "warning: %s: no '%s/plot.png' (plot.gp and plot.dat are there)\n",
			plot_strerror(status), dir);
	return 0;
}

int report_write(const struct guile_config *cfg,
		 const struct guile_answer *a, const char *out_dir)
{
	static const char *const outcomes[] = {
		[GUILE_CULPRIT] = "culprit",
		[GUILE_NO_REGRESSION] = "no-regression",
		[GUILE_AMBIGUOUS] = "ambiguous",
	};
	const struct bisect_classes *c = a->classes;
	cJSON *json = cJSON_CreateObject(), *o;
	char *text = NULL, *jtext, path[4300];
	bisect_repo *r = NULL;
	size_t len = 0, i;
	FILE *f;
	int ret = 0;

	if (lsb_mkdir_p(out_dir)) {
		fprintf(stderr, "error: cannot create '%s': %s\n", out_dir,
			strerror(errno));
		cJSON_Delete(json);
		return -1;
	}
	if (bisect_repo_open(&r, cfg->repo)) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		cJSON_Delete(json);
		return -1;
	}
	f = open_memstream(&text, &len);
	if (!f) {
		bisect_repo_free(r);
		cJSON_Delete(json);
		return -1;
	}
	fprintf(f, "lsbisect %s..%s: %zu commits in %zu classes (%s)\n",
		cfg->good, cfg->bad, c->nr_commits, c->nr_classes,
		cfg->first_parent ? "first parents" : "full history");
	fprintf(f, "workload '%s' on %s, %s, metric %s, threshold %g %%, %d seed%s\n\n",
		cfg->run.workload, cfg->run.topology,
		cfg->run.duration ? cfg->run.duration : "default duration",
		a->metric, cfg->threshold, cfg->seeds,
		cfg->seeds == 1 ? "" : "s");
	steps_text(f, a);
	fputc('\n', f);
	if (cfg->script)
		fprintf(f, "the script '%s' decided; the values shown are %s's (--metric sets which)\n\n",
			cfg->script, a->metric);
	cJSON_AddStringToObject(json, "outcome", outcomes[a->outcome]);
	cJSON_AddStringToObject(json, "good", c->good);
	cJSON_AddStringToObject(json, "bad", c->bad);
	cJSON_AddNumberToObject(json, "commits", (double)c->nr_commits);
	cJSON_AddNumberToObject(json, "classes", (double)c->nr_classes);
	cJSON_AddStringToObject(json, "metric", a->metric);
	if (a->outcome == GUILE_CULPRIT) {
		culprit_text(f, r, a, json);
	} else if (a->outcome == GUILE_AMBIGUOUS) {
		candidates_text(f, r, a, json);
	} else {
		const struct guile_step *g = step_of(a, -1);
		const struct guile_step *b = step_of(a, (long)c->nr_classes - 1);
		char v1[64], v2[64];

		value_text(v1, sizeof(v1), g);
		value_text(v2, sizeof(v2), b);
		fprintf(f, "no regression: BAD scores %s %s against GOOD's %s (threshold %g %%)\n",
			a->metric, v2, v1, cfg->threshold);
	}
	o = cJSON_AddArrayToObject(json, "skipped");
	for (i = 0; i < a->nr_steps; i++) {
		const struct guile_step *st = &a->steps[i];
		cJSON *s;

		if (strcmp(st->verdict, "skip"))
			continue;
		fprintf(f, "skipped class %ld (%.12s): %.300s\n", st->cls,
			st->commit, st->reason);
		s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "class", st->cls);
		cJSON_AddStringToObject(s, "commit", st->commit);
		cJSON_AddStringToObject(s, "reason", st->reason);
		cJSON_AddItemToArray(o, s);
	}
	json_steps(json, a);
	o = cJSON_AddObjectToObject(json, "counts");
	cJSON_AddNumberToObject(o, "built", a->nr_built);
	cJSON_AddNumberToObject(o, "ran", a->nr_ran);
	cJSON_AddNumberToObject(o, "cached", a->nr_cached);
	cJSON_AddNumberToObject(o, "from_log", a->nr_from_log);
	cJSON_AddNumberToObject(o, "corrupt_removed", a->nr_corrupt);
	fprintf(f, "%d built, %d run, %d from the result cache, %d from the log",
		a->nr_built, a->nr_ran, a->nr_cached, a->nr_from_log);
	if (a->nr_corrupt)
		fprintf(f, ", %d corrupt cache entries removed", a->nr_corrupt);
	fprintf(f, "\noutput: %s (report.txt, report.json, plot.png); log: %s\n",
		out_dir, a->log_path);
	if (fclose(f)) {
		bisect_repo_free(r);
		cJSON_Delete(json);
		free(text);
		return -1;
	}
	bisect_repo_free(r);
	fputs(text, stdout);
	fflush(stdout);
	snprintf(path, sizeof(path), "%s/report.txt", out_dir);
	ret |= write_text(path, text);
	free(text);
	jtext = cJSON_Print(json);
	cJSON_Delete(json);
	snprintf(path, sizeof(path), "%s/report.json", out_dir);
	if (!jtext || asprintf(&text, "%s\n", jtext) < 0)
		text = NULL;
	ret |= text ? write_text(path, text) : -1;
	free(text);
	free(jtext);
	if (plot(cfg, a, out_dir)) {
		fprintf(stderr, "error: cannot write the plot in '%s': %s\n",
			out_dir, strerror(errno));
		ret = -1;
	}
	return ret;
}
