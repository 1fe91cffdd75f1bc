// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - report.json: the settings, the columns, the summaries, the
 * ranked changes, the commits and every row with its seeds.
 */
#include <math.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/common.h"

#include "report/report_internal.h"
#include "suite/suite.h"

static cJSON *json_number(double v)
{
	return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

static cJSON *json_change(const struct report *rep,
			  const struct report_rank *k)
{
	const struct report_row *row = k->row;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "topology", rep->topo[row->topo].spec);
	cJSON_AddStringToObject(o, "pattern", suite_pattern_name(row->pattern));
	if (k->metric < 0) {
		cJSON_AddStringToObject(o, "metric", "run");
		cJSON_AddStringToObject(o, "old", report_run_state(rep, row, 0));
		cJSON_AddStringToObject(o, "new", report_run_state(rep, row, 1));
		cJSON_AddStringToObject(o, "reason",
					row->reason[row->ok[1] < rep->seeds]);
		return o;
	}
	cJSON_AddStringToObject(o, "metric", rep->label[k->metric]);
	cJSON_AddItemToObject(o, "old", json_number(row->med[0][k->metric]));
	cJSON_AddItemToObject(o, "new", json_number(row->med[1][k->metric]));
	cJSON_AddItemToObject(o, "change_pct", json_number(row->pct[k->metric]));
	return o;
}

static cJSON *json_rev(const struct driver_target *t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", t->name);
	cJSON_AddStringToObject(o, "commit", t->commit);
	cJSON_AddStringToObject(o, "subset", t->subset);
	return o;
}

static void json_settings(cJSON *root, const struct report *rep)
{
	cJSON *a, *o;
	int t, m;

	cJSON_AddNumberToObject(root, "report_version", 1);
	cJSON_AddItemToObject(root, "old", json_rev(rep->rev[0]));
	cJSON_AddItemToObject(root, "new", json_rev(rep->rev[1]));
	cJSON_AddStringToObject(root, "suite", rep->suite);
	cJSON_AddNumberToObject(root, "patterns", rep->nr_patterns);
	a = cJSON_AddArrayToObject(root, "topologies");
	for (t = 0; t < rep->nr_topos; t++)
		cJSON_AddItemToArray(a, cJSON_CreateString(rep->topo[t].spec));
	cJSON_AddStringToObject(root, "duration", rep->duration);
	cJSON_AddNumberToObject(root, "seeds", rep->seeds);
	cJSON_AddNumberToObject(root, "threshold_pct", rep->threshold);
	a = cJSON_AddArrayToObject(root, "metrics");
	for (m = 0; m < rep->nr_metrics; m++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", rep->label[m]);
		cJSON_AddStringToObject(o, "better",
					rep->metric[m]->higher_is_better ?
					"higher" : "lower");
		cJSON_AddNumberToObject(o, "floor", rep->metric[m]->floor);
		cJSON_AddItemToArray(a, o);
	}
}

static void json_summary(cJSON *root, const struct report *rep)
{
	cJSON *a = cJSON_AddArrayToObject(root, "summary"), *o;
	struct report_summary sm;
	int t, m;

	for (t = 0; t < rep->nr_topos; t++)
		for (m = -1; m < rep->nr_metrics; m++) {
			report_summarise(rep, t, m, &sm);
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "topology", rep->topo[t].spec);
			cJSON_AddStringToObject(o, "metric",
						m < 0 ? "run" : rep->label[m]);
			cJSON_AddNumberToObject(o, "compared", sm.compared);
			cJSON_AddNumberToObject(o, "regressions", sm.worse);
			cJSON_AddNumberToObject(o, "improvements", sm.better);
			if (m >= 0) {
				cJSON_AddNumberToObject(o, "noise", sm.noise);
				cJSON_AddItemToObject(o, "median_change_pct_worse",
						      json_number(sm.median_worse));
			}
			cJSON_AddItemToArray(a, o);
		}
}

static void json_changes(cJSON *root, const struct report *rep)
{
	cJSON *a, *o;
	size_t i;

	a = cJSON_AddArrayToObject(root, "worst_regressions");
	for (i = 0; i < rep->nr_worse; i++)
		cJSON_AddItemToArray(a, json_change(rep, &rep->worse[i]));
	a = cJSON_AddArrayToObject(root, "best_improvements");
	for (i = 0; i < rep->nr_better; i++)
		cJSON_AddItemToArray(a, json_change(rep, &rep->better[i]));
	a = cJSON_AddArrayToObject(root, "subset_changes");
	for (i = 0; i < rep->nr_changes; i++) {
		const struct report_change *c = &rep->changes[i];

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "commit", c->id);
		cJSON_AddStringToObject(o, "subject", c->subject);
		cJSON_AddStringToObject(o, "author", c->author);
		cJSON_AddNumberToObject(o, "time", (double)c->time);
		cJSON_AddStringToObject(o, "files", c->files);
		cJSON_AddItemToArray(a, o);
	}
	cJSON_AddNumberToObject(root, "range_commits",
				(double)rep->nr_range_commits);
	if (*rep->range_note)
		cJSON_AddStringToObject(root, "range_note", rep->range_note);
}

static cJSON *json_warnings(const struct report_warnings *w)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "warnings", w->warns);
	cJSON_AddNumberToObject(o, "runs", w->runs);
	cJSON_AddNumberToObject(o, "of", w->of);
	return o;
}

/*
 * The kernel's WARNs: OLD's and NEW's over every topology, then each
 * topology's, then every side of a row that had one.
 */
static void json_kernel_warnings(cJSON *root, const struct report *rep)
{
	cJSON *o = cJSON_AddObjectToObject(root, "kernel_warnings"), *a, *e;
	struct report_warnings w;
	size_t n, i;
	int t, r;

	for (r = 0; r < 2; r++) {
		report_warnings(rep, -1, r, &w);
		cJSON_AddItemToObject(o, r ? "new" : "old", json_warnings(&w));
	}
	a = cJSON_AddArrayToObject(o, "per_topology");
	for (t = 0; t < rep->nr_topos; t++) {
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "topology", rep->topo[t].spec);
		for (r = 0; r < 2; r++) {
			report_warnings(rep, t, r, &w);
			cJSON_AddItemToObject(e, r ? "new" : "old",
					      json_warnings(&w));
		}
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "warned");
	n = report_warned(rep, 0, NULL, NULL);
	for (i = 0; i < n; i++) {
		const struct report_row *row;

		report_warned(rep, i, &row, &r);
		report_row_warnings(rep, row, r, &w);
		e = json_warnings(&w);
		cJSON_AddStringToObject(e, "topology",
					rep->topo[row->topo].spec);
		cJSON_AddStringToObject(e, "pattern",
					suite_pattern_name(row->pattern));
		cJSON_AddStringToObject(e, "side", r ? "new" : "old");
		cJSON_AddStringToObject(e, "first", row->warning[r]);
		cJSON_AddItemToArray(a, e);
	}
}

/* One side of a row: its state and its seeds' values. */
static void json_side(cJSON *o, const struct report *rep,
		      const struct report_row *row, int r)
{
	cJSON *b = cJSON_AddObjectToObject(o, r ? "new" : "old"), *c, *v;
	int m, s;

	cJSON_AddStringToObject(b, "status", report_run_state(rep, row, r));
	if (row->ok[r] < rep->seeds)
		cJSON_AddStringToObject(b, "reason", row->reason[r]);
	c = cJSON_AddObjectToObject(b, "seeds");
	for (m = 0; m < rep->nr_metrics; m++) {
		v = cJSON_AddArrayToObject(c, rep->label[m]);
		for (s = 0; s < rep->seeds; s++)
			cJSON_AddItemToArray(v, json_number(row->v[r][m][s]));
	}
	/* per seed, null for one that did not finish */
	v = cJSON_AddArrayToObject(b, "kernel_warnings");
	for (s = 0; s < rep->seeds; s++)
		cJSON_AddItemToArray(v, row->warns[r][s] < 0 ?
				     cJSON_CreateNull() :
				     cJSON_CreateNumber(row->warns[r][s]));
	if (*row->warning[r])
		cJSON_AddStringToObject(b, "first_warning", row->warning[r]);
}

static cJSON *json_row(const struct report *rep, const struct report_row *row)
{
	cJSON *o = cJSON_CreateObject(), *b, *c;
	int m;

	cJSON_AddStringToObject(o, "topology", rep->topo[row->topo].spec);
	cJSON_AddStringToObject(o, "pattern", suite_pattern_name(row->pattern));
	cJSON_AddStringToObject(o, "family", suite_pattern_family(row->pattern));
	json_side(o, rep, row, 0);
	json_side(o, rep, row, 1);
	c = cJSON_AddObjectToObject(o, "changes");
	for (m = 0; m < rep->nr_metrics; m++) {
		b = cJSON_AddObjectToObject(c, rep->label[m]);
		cJSON_AddItemToObject(b, "old", json_number(row->med[0][m]));
		cJSON_AddItemToObject(b, "new", json_number(row->med[1][m]));
		cJSON_AddItemToObject(b, "change_pct", json_number(row->pct[m]));
		cJSON_AddStringToObject(b, "verdict",
					report_verdict_name(row->verdict[m]));
	}
	cJSON_AddStringToObject(o, "run_verdict",
				report_verdict_name(row->run_verdict));
	return o;
}

/*
 * The worst regressions' timelines the page shows: per row its window
 * and each side's PNG (relative to OUT), null when it was not drawn.
 */
static void json_timelines(cJSON *root, const struct report *rep)
{
	const struct report_row *rows[REPORT_MAX_TIMELINES];
	cJSON *a = cJSON_AddArrayToObject(root, "timelines"), *o;
	char name[300], rel[400], path[4500];
	size_t n, i;
	int r;

	n = report_timeline_rows(rep, rows, rep->timelines < REPORT_MAX_TIMELINES ?
				 (size_t)rep->timelines : REPORT_MAX_TIMELINES);
	for (i = 0; i < n; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "topology",
					rep->topo[rows[i]->topo].spec);
		cJSON_AddStringToObject(o, "pattern",
					suite_pattern_name(rows[i]->pattern));
		cJSON_AddStringToObject(o, "window", rep->timeline_window);
		for (r = 0; r < 2; r++) {
			report_timeline_name(rep, rows[i], r, name, sizeof(name));
			snprintf(rel, sizeof(rel), "timelines/%s/timeline.png",
				 name);
			lsb_pathf(path, sizeof(path), "%s/%s", rep->out, rel);
			if (access(path, R_OK))
				cJSON_AddNullToObject(o, r ? "new" : "old");
			else
				cJSON_AddStringToObject(o, r ? "new" : "old", rel);
		}
		cJSON_AddItemToArray(a, o);
	}
}

char *report_json(const struct report *rep)
{
	cJSON *root = cJSON_CreateObject(), *a;
	char *text;
	size_t i;

	if (!root)
		return NULL;
	json_settings(root, rep);
	cJSON_AddNumberToObject(root, "regressions", (double)rep->nr_worse);
	cJSON_AddNumberToObject(root, "improvements", (double)rep->nr_better);
	json_summary(root, rep);
	json_kernel_warnings(root, rep);
	json_changes(root, rep);
	json_timelines(root, rep);
	a = cJSON_AddArrayToObject(root, "results");
	for (i = 0; i < rep->nr_rows; i++)
		cJSON_AddItemToArray(a, json_row(rep, &rep->rows[i]));
	cJSON_AddNumberToObject(root, "wall_s", rep->wall_s);
	text = lsb_json_print(root, 1);
	cJSON_Delete(root);
	return text;
}
