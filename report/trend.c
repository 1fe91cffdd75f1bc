// SPDX-License-Identifier: GPL-2.0-only
/*
 * trend.c - the points of a trend: GOOD and each revision class of the
 * range, labelled by tag, their runs and values per seed. The data files
 * and gnuplot scripts are in trend_plot.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

/* Read as metric_value() reads them: "wakeup_latency_ns" is its p99. */
static const char *const trend_metrics[REPORT_TREND_METRICS] = {
	"balance_score", "work_conservation", "wakeup_latency_ns",
	"throughput", "energy_j", "mean_power_w",
};

const char *const *report_trend_metrics(void)
{
	return trend_metrics;
}

const char *report_tag_of(const char *commit, const struct bisect_tag *tags,
			  size_t nr_tags)
{
	size_t i;

	for (i = 0; i < nr_tags; i++)
		if (!strcmp(tags[i].commit, commit))
			return tags[i].name;
	return NULL;
}

void report_trend_label(struct report_trend_point *p,
			const char (*commits)[41],
			const struct bisect_tag *tags, size_t nr_tags)
{
	const char *t = NULL;
	size_t i;

	for (i = p->n; i-- > 0 && !t;)
		t = report_tag_of(commits[i], tags, nr_tags);
	if (t)
		snprintf(p->label, sizeof(p->label), "%.63s", t);
	else if (p->n > 1)
		snprintf(p->label, sizeof(p->label), "%.12s+%zu", p->first,
			 p->n - 1);
	else
		snprintf(p->label, sizeof(p->label), "%.12s", p->first);
}

/* GOOD, then the classes, labelled; the tags are only for labels. */
static void make_points(struct report_trend *tr, bisect_repo *r)
{
	const struct bisect_classes *cls = tr->classes;
	struct bisect_tag *tags = NULL;
	size_t nr_tags = 0, i;

	if (bisect_tags(r, &tags, &nr_tags))
		nr_tags = 0;	/* no tags: hashes label the points */
	memcpy(tr->pts[0].first, cls->good, 41);
	memcpy(tr->pts[0].last, cls->good, 41);
	tr->pts[0].n = 1;
	report_trend_label(&tr->pts[0], &cls->good, tags, nr_tags);
	for (i = 1; i < tr->n; i++) {
		const struct bisect_class *k = &cls->classes[i - 1];
		struct report_trend_point *p = &tr->pts[i];

		memcpy(p->first, cls->commits[k->first], 41);
		memcpy(p->last, cls->commits[k->first + k->n - 1], 41);
		p->n = k->n;
		report_trend_label(p, (const char (*)[41])&cls->commits[k->first],
				   tags, nr_tags);
	}
	bisect_tags_free(tags, nr_tags);
}

int report_trend_init(struct report_trend *tr, bisect_repo *r,
		      const char *good, const char *bad, int first_parent,
		      int seeds)
{
	size_t i;
	int m;

	memset(tr, 0, sizeof(*tr));
	tr->seeds = seeds;
	if (bisect_classes_new(&tr->classes, r, good, bad, first_parent)) {
		report_set_error("%s", bisect_last_error());
		return -1;
	}
	tr->n = tr->classes->nr_classes + 1;
	tr->pts = calloc(tr->n, sizeof(*tr->pts));
	if (!tr->pts)
		goto nomem;
	for (i = 0; i < tr->n; i++)
		for (m = 0; m < REPORT_TREND_METRICS; m++) {
			tr->pts[i].v[m] = calloc(seeds, sizeof(double));
			if (!tr->pts[i].v[m])
				goto nomem;
		}
	make_points(tr, r);
	return 0;
nomem:
	report_set_error("out of memory");
	return -1;
}

void report_trend_release(struct report_trend *tr)
{
	size_t i;
	int m;

	for (i = 0; tr->pts && i < tr->n; i++)
		for (m = 0; m < REPORT_TREND_METRICS; m++)
			free(tr->pts[i].v[m]);
	free(tr->pts);
	bisect_classes_free(tr->classes);
	memset(tr, 0, sizeof(*tr));
}

int report_trend_units(const struct report_trend *tr,
		       const struct driver_target *targets,
		       const char *const *workloads, int nw,
		       const char *const *topologies, int nt,
		       const struct driver_run_spec *base,
		       struct driver_unit **out, size_t *n)
{
	size_t nr = (size_t)nw * nt * tr->n * tr->seeds, i;
	struct driver_unit *units, *u;
	int c, s;

	*out = NULL;
	*n = 0;
	units = calloc(nr ? nr : 1, sizeof(*units));
	if (!units) {
		report_set_error("out of memory");
		return -1;
	}
	u = units;
	for (c = 0; c < nw * nt; c++)
		for (i = 0; i < tr->n; i++)
			for (s = 0; s < tr->seeds; s++, u++) {
				u->target = &targets[i];
				u->spec = *base;
				u->spec.workload = workloads[c / nt];
				u->spec.topology = topologies[c % nt];
				u->spec.seed = s + 1;
			}
	*out = units;
	*n = nr;
	return 0;
}

/* Seed @s of point @p from its unit's result. */
static int collect_one(struct report_trend_point *p,
		       const struct driver_paths *paths,
		       const struct driver_unit *u, int s)
{
	double vals[REPORT_TREND_METRICS];
	struct driver_result res;
	int m, ret;

	for (m = 0; m < REPORT_TREND_METRICS; m++)
		p->v[m][s] = NAN;
	ret = driver_target_result(&res, paths, u->target, &u->spec,
				   DRIVER_RESULT_LOOKUP);
	if (ret) {
		report_set_error("%s: no result for %s (%.12s), seed %d",
				 ret == DRIVER_NOT_CACHED ?
				 "the cache lost it" : driver_last_error(),
				 p->label, p->first, s + 1);
		return -1;
	}
	if (res.status != DRIVER_OK) {
		p->status = res.status;
		snprintf(p->reason, sizeof(p->reason), "%.511s", res.reason);
	} else if (!driver_result_metrics(res.json, trend_metrics,
					  REPORT_TREND_METRICS, vals)) {
		for (m = 0; m < REPORT_TREND_METRICS; m++)
			p->v[m][s] = vals[m];
		p->ok++;
	}
	driver_result_release(&res);
	return 0;
}

int report_trend_collect(struct report_trend *tr,
			 const struct driver_paths *paths,
			 const struct driver_unit *units)
{
	size_t i;
	int s;

	for (i = 0; i < tr->n; i++) {
		struct report_trend_point *p = &tr->pts[i];

		p->ok = 0;
		p->status = DRIVER_OK;
		p->reason[0] = '\0';
		for (s = 0; s < tr->seeds; s++)
			if (collect_one(p, paths, &units[i * tr->seeds + s], s))
				return -1;
	}
	return 0;
}
