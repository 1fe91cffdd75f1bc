// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - the release report's rows: the runs it makes, their values
 * from the result cache, the verdicts, the ranking, the summaries per
 * topology and the commits between OLD and NEW. The writers are in
 * text.c, json.c, html.c and plots.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "driver/driver.h"
#include "report/report_internal.h"
#include "suite/suite.h"

LSB_DEFINE_LAST_ERROR(report)

static const char *const verdict_names[] = {
	[REPORT_SAME] = "same",
	[REPORT_NOISE] = "noise",
	[REPORT_WORSE] = "regression",
	[REPORT_BETTER] = "improvement",
};

const char *report_verdict_name(enum report_verdict v)
{
	return verdict_names[v];
}

void report_fmt_value(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.6g", v);
}

void report_fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", v == 0 ? 0.0 : v);
}

int report_init(struct report *rep)
{
	const struct metric_def *cat;
	size_t n, i;

	memset(rep, 0, sizeof(*rep));
	cat = metric_catalogue(&n);
	for (i = 0; i < n; i++) {
		if (!cat[i].reported)
			continue;
		if (rep->nr_metrics == REPORT_MAX_METRICS) {
			report_set_error("the catalogue has more than %d report columns",
					 REPORT_MAX_METRICS);
			return -1;
		}
		metric_path(cat[i].name, rep->label[rep->nr_metrics],
			    sizeof(rep->label[0]));
		rep->metric[rep->nr_metrics++] = &cat[i];
	}
	return 0;
}

void report_release(struct report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr_changes; i++) {
		free(rep->changes[i].subject);
		free(rep->changes[i].author);
	}
	free(rep->changes);
	free(rep->worse);
	free(rep->better);
	free(rep->rows);
	free(rep->files);
	rep->changes = NULL;
	rep->worse = rep->better = NULL;
	rep->rows = NULL;
	rep->files = NULL;
	rep->nr_changes = rep->nr_worse = rep->nr_better = rep->nr_rows = 0;
}

int report_column(const struct report *rep, const char *name)
{
	int m;

	for (m = 0; m < rep->nr_metrics; m++)
		if (!strcmp(rep->metric[m]->name, name))
			return m;
	return -1;
}

/* ---- running and collecting ---- */

void report_workload_dir(const struct report *rep, int t, char *buf,
			 size_t len)
{
	lsb_pathf(buf, len, "%s/workloads/%dcpus", rep->out,
		  rep->topo[t].nr_cpus);
}

int report_units(struct report *rep, struct driver_unit **out, size_t *n)
{
	size_t nr = (size_t)rep->nr_topos * rep->nr_patterns * 2 * rep->seeds;
	struct driver_unit *units;
	char dir[4200];
	size_t u = 0;
	int t, p, r, s;

	*out = NULL;
	*n = 0;
	free(rep->files);
	units = calloc(nr ? nr : 1, sizeof(*units));
	rep->files = calloc((size_t)rep->nr_topos * rep->nr_patterns + 1,
			    sizeof(*rep->files));
	if (!units || !rep->files) {
		free(units);
		report_set_error("out of memory");
		return -1;
	}
	for (t = 0; t < rep->nr_topos; t++) {
		report_workload_dir(rep, t, dir, sizeof(dir));
		for (p = 0; p < rep->nr_patterns; p++) {
			char *f = rep->files[t * rep->nr_patterns + p];

			lsb_pathf(f, sizeof(rep->files[0]), "%s/%s.json", dir,
				  suite_pattern_name(rep->patterns[p]));
			for (r = 0; r < 2; r++)
				for (s = 0; s < rep->seeds; s++, u++) {
					struct driver_run_spec *sp =
						&units[u].spec;

					units[u].target = rep->rev[r];
					sp->workload = f;
					sp->topology = rep->topo[t].spec;
					sp->duration = rep->duration;
					sp->seed = s + 1;
					sp->metrics = 1;
					sp->timeout_s = rep->timeout;
				}
		}
	}
	*out = units;
	*n = nr;
	return 0;
}

/*
 * Seed @s's WARNs on side @r of @row; the first message is kept from the
 * lowest seed that had one (the seeds are collected in order).
 */
static void collect_warnings(struct report_row *row, int r, int s,
			     const char *json)
{
	char first[sizeof(row->warning[0])];

	row->warns[r][s] = driver_result_warnings(json, first, sizeof(first));
	if (row->warns[r][s] > 0 && !*row->warning[r])
		memcpy(row->warning[r], first, sizeof(first));
}

/* Seed @s of side @r of @row, from its unit's result. */
static int collect_one(struct report *rep, const struct driver_paths *paths,
		       const struct driver_unit *unit, struct report_row *row,
		       int r, int s)
{
	const char *names[REPORT_MAX_METRICS + 1];
	double vals[REPORT_MAX_METRICS + 1];
	struct driver_result res;
	int m, ret;

	for (m = 0; m < rep->nr_metrics; m++) {
		names[m] = rep->metric[m]->name;
		row->v[r][m][s] = NAN;
	}
	names[m] = "violations";
	row->warns[r][s] = -1;
	row->violations[r][s] = NAN;
	ret = driver_target_result(&res, paths, unit->target, &unit->spec,
				   DRIVER_RESULT_LOOKUP);
	if (ret) {
		report_set_error("%s: no result for %s on %s",
				 ret == DRIVER_NOT_CACHED ?
				 "the cache lost it" : driver_last_error(),
				 suite_pattern_name(row->pattern),
				 rep->topo[row->topo].spec);
		return -1;
	}
	if (res.status != DRIVER_OK) {
		row->status[r] = res.status;
		snprintf(row->reason[r], sizeof(row->reason[r]), "%.255s",
			 res.reason);
	} else if (!driver_result_metrics(res.json, names,
					  (size_t)rep->nr_metrics + 1, vals)) {
		for (m = 0; m < rep->nr_metrics; m++)
			row->v[r][m][s] = vals[m];
		row->violations[r][s] = vals[m];
		row->ok[r]++;
		collect_warnings(row, r, s, res.json);
	}
	driver_result_release(&res);
	return 0;
}

int report_collect(struct report *rep, const struct driver_paths *paths,
		   const struct driver_unit *units)
{
	size_t nr_rows = (size_t)rep->nr_topos * rep->nr_patterns;
	size_t n = nr_rows * 2 * rep->seeds, u;

	free(rep->rows);
	rep->nr_rows = 0;
	rep->rows = calloc(nr_rows ? nr_rows : 1, sizeof(*rep->rows));
	if (!rep->rows) {
		report_set_error("out of memory");
		return -1;
	}
	for (u = 0; u < n; u++) {
		size_t k = u / (2 * rep->seeds);
		struct report_row *row = &rep->rows[k];

		row->topo = (int)(k / rep->nr_patterns);
		row->pattern = rep->patterns[k % rep->nr_patterns];
		if (collect_one(rep, paths, &units[u], row,
				(int)(u / rep->seeds % 2), (int)(u % rep->seeds)))
			return -1;
	}
	rep->nr_rows = nr_rows;
	return 0;
}

/* ---- judging ---- */

/* The median of the values that are there; NAN when none. */
static double median(const double *v, int n)
{
	double s[REPORT_MAX_SEEDS];
	int k = 0, i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	return lsb_median(s, k);
}

/* Column @m of @row: its medians, change and verdict. */
static void judge_metric(const struct report *rep, struct report_row *row,
			 int m)
{
	double lo[2] = { INFINITY, INFINITY };
	double hi[2] = { -INFINITY, -INFINITY };
	double base, worse;
	int r, s, up, beyond;

	for (r = 0; r < 2; r++) {
		row->med[r][m] = row->ok[r] == rep->seeds ?
			median(row->v[r][m], rep->seeds) : NAN;
		for (s = 0; s < rep->seeds; s++) {
			double v = row->v[r][m][s];

			if (isnan(v))
				continue;
			lo[r] = v < lo[r] ? v : lo[r];
			hi[r] = v > hi[r] ? v : hi[r];
		}
	}
	row->verdict[m] = REPORT_SAME;
	row->pct[m] = row->worse[m] = NAN;
	if (isnan(row->med[0][m]) || isnan(row->med[1][m]))
		return;
	base = fabs(row->med[0][m]);
	if (base < rep->metric[m]->floor)
		base = rep->metric[m]->floor;
	row->pct[m] = 100 * (row->med[1][m] - row->med[0][m]) / base;
	worse = rep->metric[m]->higher_is_better ? -row->pct[m] : row->pct[m];
	worse += 0.0;	/* no -0 in the reports */
	row->worse[m] = worse;
	if (fabs(worse) <= rep->threshold)
		return;
	/* every NEW seed beyond every OLD seed, in the median's way */
	up = row->med[1][m] > row->med[0][m];
	beyond = rep->seeds < 2 || (up ? lo[1] > hi[0] : hi[1] < lo[0]);
	row->verdict[m] = !beyond ? REPORT_NOISE :
			  worse > 0 ? REPORT_WORSE : REPORT_BETTER;
}

void report_judge_row(const struct report *rep, struct report_row *row)
{
	int m;

	for (m = 0; m < rep->nr_metrics; m++)
		judge_metric(rep, row, m);
	row->run_verdict = REPORT_SAME;
	if (row->ok[0] == rep->seeds && row->ok[1] < rep->seeds)
		row->run_verdict = REPORT_WORSE;
	else if (row->ok[0] < rep->seeds && row->ok[1] == rep->seeds)
		row->run_verdict = REPORT_BETTER;
}

int report_judge(struct report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr_rows; i++)
		report_judge_row(rep, &rep->rows[i]);
	return report_rank(rep);
}

const char *report_run_state(const struct report *rep,
			     const struct report_row *row, int r)
{
	if (row->ok[r] == rep->seeds)
		return "finished";
	return driver_status_name(row->status[r]);
}

void report_row_warnings(const struct report *rep,
			 const struct report_row *row, int r,
			 struct report_warnings *out)
{
	int s;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < rep->seeds; s++) {
		if (row->warns[r][s] < 0)
			continue;
		out->of++;
		out->warns += row->warns[r][s];
		out->runs += row->warns[r][s] > 0;
	}
}

void report_warnings(const struct report *rep, int t, int r,
		     struct report_warnings *out)
{
	struct report_warnings w;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < rep->nr_rows; i++) {
		if (t >= 0 && rep->rows[i].topo != t)
			continue;
		report_row_warnings(rep, &rep->rows[i], r, &w);
		out->warns += w.warns;
		out->runs += w.runs;
		out->of += w.of;
	}
}

void report_fmt_warnings(char *buf, size_t len,
			 const struct report_warnings *w)
{
	snprintf(buf, len, "%d in %d of %d run%s", w->warns, w->runs, w->of,
		 w->of == 1 ? "" : "s");
}

size_t report_warned(const struct report *rep, size_t i,
		     const struct report_row **row, int *side)
{
	size_t k, n = 0;
	int r, s;

	for (k = 0; k < rep->nr_rows; k++)
		for (r = 0; r < 2; r++) {
			int warned = 0;

			for (s = 0; s < rep->seeds; s++)
				warned |= rep->rows[k].warns[r][s] > 0;
			if (!warned)
				continue;
			if (row && n == i) {
				*row = &rep->rows[k];
				*side = r;
			}
			n++;
		}
	return n;
}

/* ---- ranking and summaries ---- */

/*
 * Largest change in the direction @dir (1 worse, -1 better) first, a run
 * that stopped (or started) finishing before any; then by topology,
 * pattern and metric.
 */
static int rank_cmp(const struct report_rank *x, const struct report_rank *y,
		    int dir)
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

/* Every change of verdict @v, ranked, into *@out. */
static int ranked(const struct report *rep, enum report_verdict v,
		  struct report_rank **out, size_t *n)
{
	struct report_rank *list = NULL;
	size_t i, cap = 0;
	int m;

	*n = 0;
	for (i = 0; i < rep->nr_rows; i++)
		for (m = -1; m < rep->nr_metrics; m++) {
			const struct report_row *row = &rep->rows[i];

			if ((m < 0 ? row->run_verdict : row->verdict[m]) != v)
				continue;
			if (LSB_GROW(list, *n + 1, cap)) {
				free(list);
				*n = 0;
				report_set_error("out of memory");
				return -1;
			}
			list[*n].row = row;
			list[(*n)++].metric = m;
		}
	if (*n)
		qsort(list, *n, sizeof(*list),
		      v == REPORT_WORSE ? by_worse : by_better);
	*out = list;
	return 0;
}

int report_rank(struct report *rep)
{
	free(rep->worse);
	free(rep->better);
	rep->worse = rep->better = NULL;
	rep->nr_worse = rep->nr_better = 0;
	if (ranked(rep, REPORT_WORSE, &rep->worse, &rep->nr_worse))
		return -1;
	return ranked(rep, REPORT_BETTER, &rep->better, &rep->nr_better);
}

size_t report_timeline_rows(const struct report *rep,
			    const struct report_row **rows, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < rep->nr_worse && n < max; i++) {
		const struct report_row *row = rep->worse[i].row;

		/* a run that did not finish has no trace to draw */
		if (rep->worse[i].metric < 0)
			continue;
		for (k = 0; k < n && rows[k] != row; k++)
			;
		if (k == n)
			rows[n++] = row;
	}
	return n;
}

void report_timeline_name(const struct report *rep,
			  const struct report_row *row, int side, char *buf,
			  size_t len)
{
	snprintf(buf, len, "%s-%s-%s", rep->topo[row->topo].name,
		 suite_pattern_name(row->pattern), side ? "new" : "old");
}

void report_timeline_dir(const struct report *rep, const struct report_row *row,
			 int side, char *buf, size_t len)
{
	char name[300];

	report_timeline_name(rep, row, side, name, sizeof(name));
	lsb_pathf(buf, len, "%s/timelines/%s", rep->out, name);
}

void report_summarise(const struct report *rep, int t, int m,
		      struct report_summary *out)
{
	double *w = malloc((rep->nr_rows ? rep->nr_rows : 1) * sizeof(*w));
	size_t i, k = 0;

	memset(out, 0, sizeof(*out));
	out->median_worse = NAN;
	for (i = 0; i < rep->nr_rows; i++) {
		const struct report_row *row = &rep->rows[i];

		if (row->topo != t)
			continue;
		if (m < 0) {	/* the runs themselves */
			out->worse += row->run_verdict == REPORT_WORSE;
			out->better += row->run_verdict == REPORT_BETTER;
			out->compared++;
			continue;
		}
		if (isnan(row->worse[m]))
			continue;
		out->compared++;
		out->worse += row->verdict[m] == REPORT_WORSE;
		out->better += row->verdict[m] == REPORT_BETTER;
		out->noise += row->verdict[m] == REPORT_NOISE;
		if (w)
			w[k++] = row->worse[m];
	}
	if (w)
		out->median_worse = lsb_median(w, k);
	free(w);
}

/* ---- the commits between ---- */


/*
 * Which of @info's files OLD's or NEW's build read: -1 when neither build
 * has records, else the number read (@read filled in).
 */
static int files_read(const struct report *rep,
		      const struct driver_paths *paths,
		      const struct bisect_commit_info *info, int *read)
{
	int *other = calloc(info->nr_files ? info->nr_files : 1, sizeof(int));
	int known = 0, n = 0, k;
	size_t f;

	if (!other || !paths)
		goto out;
	memset(read, 0, info->nr_files * sizeof(*read));
	for (k = 0; k < 2; k++) {
		if (driver_build_reads(paths, rep->rev[k]->subset, info->files,
				       info->nr_files, other))
			continue;
		known = 1;
		for (f = 0; f < info->nr_files; f++)
			read[f] |= other[f];
	}
	for (f = 0; f < info->nr_files; f++)
		n += read[f];
out:
	free(other);
	return known ? n : -1;
}

/*
 * The scheduler's files of @info by name, then the headers a build read
 * (@read, NULL when unknown: all counted), the others counted.
 */
static void change_files(struct report_change *c,
			 const struct bisect_commit_info *info, const int *read)
{
	const char *sched = bisect_report_prefixes[0];
	const char *inc = bisect_report_prefixes[BISECT_NR_REPORT_PREFIXES - 1];
	size_t f, used = 0, headers = 0, more = 0;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (f = 0; f < info->nr_files; f++) {
			const char *name = info->files[f];
			int is_sched = !strncmp(name, sched, strlen(sched));

			if (pass != !is_sched)
				continue;
			if (!is_sched && !(read && read[f])) {
				headers += !strncmp(name, inc, strlen(inc));
				continue;
			}
			if (used + strlen(name) + 80 < sizeof(c->files))
				used += snprintf(c->files + used,
						 sizeof(c->files) - used,
						 "%s%s", used ? " " : "", name);
			else
				more++;
		}
	if (more)
		used += snprintf(c->files + used, sizeof(c->files) - used,
				 " and %zu more", more);
	if (headers)
		snprintf(c->files + used, sizeof(c->files) - used,
			 "%s%zu file%s under include/%s", used ? "; " : "",
			 headers, headers == 1 ? "" : "s",
			 read ? " no build read" : "");
}

void report_find_changes(struct report *rep, const char *repo,
			 const struct driver_paths *paths)
{
	struct bisect_classes *cls = NULL;
	bisect_repo *r = NULL;
	const char *prev;
	size_t i;

	if (bisect_repo_open(&r, repo) ||
	    bisect_classes_new(&cls, r, rep->rev[0]->commit,
			       rep->rev[1]->commit, 0)) {
		snprintf(rep->range_note, sizeof(rep->range_note),
			 "commits not listed: %s", bisect_last_error());
		goto out;
	}
	rep->nr_range_commits = cls->nr_commits;
	rep->changes = calloc(cls->nr_classes ? cls->nr_classes : 1,
			      sizeof(*rep->changes));
	if (!rep->changes)
		goto out;
	prev = cls->good_subset;
	for (i = 0; i < cls->nr_classes; i++) {
		const struct bisect_class *k = &cls->classes[i];
		struct report_change *c = &rep->changes[rep->nr_changes];
		struct bisect_commit_info info;
		int *read = NULL, nread = -1;

		if (!strcmp(k->subset, prev))
			continue;
		prev = k->subset;
		memcpy(c->id, cls->commits[k->first], 41);
		if (bisect_commit_info(&info, r, c->id, NULL, 0)) {
			bisect_commit_info_release(&info);
			continue;
		}
		read = calloc(info.nr_files ? info.nr_files : 1, sizeof(*read));
		if (read)
			nread = files_read(rep, paths, &info, read);
		if (!nread) {
			rep->nr_unread_changes++;
		} else {
			c->subject = strdup(info.subject ? info.subject : "");
			c->author = strdup(info.author ? info.author : "");
			c->time = info.time;
			change_files(c, &info, nread > 0 ? read : NULL);
			rep->nr_changes++;
		}
		free(read);
		bisect_commit_info_release(&info);
	}
	if (rep->nr_unread_changes)
		snprintf(rep->range_note, sizeof(rep->range_note),
			 "%zu more commit%s changed only files neither build read",
			 rep->nr_unread_changes,
			 rep->nr_unread_changes == 1 ? "" : "s");
out:
	bisect_classes_free(cls);
	bisect_repo_free(r);
}

/* ---- the files ---- */

/* Write @len bytes of @buf as OUT/@name, all at once. */
static int write_file(const struct report *rep, const char *name,
		      const char *buf, size_t len)
{
	char path[4300];

	lsb_pathf(path, sizeof(path), "%s/%s", rep->out, name);
	if (lsb_write_atomic(path, buf, len)) {
		report_set_error("cannot write '%s': %m", path);
		return -1;
	}
	return 0;
}

/* @name made by @text (0) or @html (1) in memory, then written. */
static int write_doc(const struct report *rep, const char *name, int html)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = 0;

	if (!f) {
		report_set_error("cannot write '%s/%s': %m", rep->out, name);
		return -1;
	}
	if (html)
		ret = report_html(f, rep);
	else
		report_text(f, rep, 0);
	if (fclose(f) && !ret) {
		report_set_error("cannot write '%s/%s': %m", rep->out, name);
		ret = -1;
	}
	if (!ret)
		ret = write_file(rep, name, buf, len);
	free(buf);
	return ret;
}

int report_write_files(const struct report *rep)
{
	char *json = report_json(rep);
	int ret;

	if (!json) {
		report_set_error("out of memory");
		return -1;
	}
	ret = write_file(rep, "report.json", json, strlen(json));
	free(json);
	if (!ret)
		ret = write_doc(rep, "report.txt", 0);
	if (!ret)
		ret = write_doc(rep, "report.html", 1);
	return ret;
}
