// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - unit test of report/ on hand-made rows (no kernel): the
 * columns come from the catalogue; the verdicts follow the threshold, the
 * metric's floor and the seeds' noise rule; a crash on NEW is a
 * regression; the ranking's order; the summaries; the text writer's
 * summary; the kernel WARNs per side, topology and row in the text and
 * the JSON, and as a result's JSON gives them; the trend's labels from
 * tags, with the tags of a real repository made by the git CLI; the
 * pre-submit check's invariants rule, first failure, change table, JUnit
 * XML (escaped), TAP and catalogued bugs.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "report/report.h"
#include "common/common.h"
#include "report/report_internal.h"
#include "t/tap.h"

static struct driver_target old_rev = { .name = "v1", .commit = "1111" };
static struct driver_target new_rev = { .name = "v2", .commit = "2222" };

/* A report of one topology, @seeds seeds, a 5 % threshold. */
static void make_report(struct report *rep, int seeds)
{
	if (report_init(rep))
		abort();
	rep->suite = "quick";
	rep->duration = "1s";
	rep->seeds = seeds;
	rep->threshold = 5;
	rep->top = 20;
	rep->nr_topos = 1;
	rep->topo[0].spec = "quad-smt";
	snprintf(rep->topo[0].name, sizeof(rep->topo[0].name), "quad-smt");
	rep->topo[0].nr_cpus = 8;
	rep->rev[0] = &old_rev;
	rep->rev[1] = &new_rev;
}

/* A row where every seed ran and every column is @v on both sides. */
static void make_row(const struct report *rep, struct report_row *row,
		     double v)
{
	int r, m, s;

	memset(row, 0, sizeof(*row));
	for (r = 0; r < 2; r++) {
		row->ok[r] = rep->seeds;
		for (m = 0; m < rep->nr_metrics; m++)
			for (s = 0; s < rep->seeds; s++)
				row->v[r][m][s] = v;
	}
}

/* Column @name's seeds on side @r. */
static void set_seeds(const struct report *rep, struct report_row *row,
		      const char *name, int r, double a, double b, double c)
{
	int m = report_column(rep, name);

	row->v[r][m][0] = a;
	row->v[r][m][1] = b;
	row->v[r][m][2] = c;
}

static void test_columns(void)
{
	static const char *const want[] = {
		"balance_score", "work_conservation", "wakeup_latency_ns.p99",
		"fairness", "throughput", "migrations_per_s", "energy_j",
		"idle_entries_per_s",
	};
	struct report rep;
	int m, ok;

	make_report(&rep, 3);
	ok = rep.nr_metrics == 8;
	for (m = 0; ok && m < rep.nr_metrics; m++)
		ok = !strcmp(rep.label[m], want[m]) &&
		     rep.metric[m]->reported;
	tap_ok(ok, "the columns are the catalogue's reported metrics in its order, labelled by path (%d)",
	       rep.nr_metrics);
	report_release(&rep);
}

static void test_judge_regression(void)
{
	struct report rep;
	struct report_row row;
	int m;

	make_report(&rep, 3);
	m = report_column(&rep, "balance_score");
	make_row(&rep, &row, 5000);
	set_seeds(&rep, &row, "balance_score", 0, 2000, 2100, 2050);
	set_seeds(&rep, &row, "balance_score", 1, 3100, 3000, 3050);
	report_judge_row(&rep, &row);
	tap_ok(row.verdict[m] == REPORT_WORSE && row.med[0][m] == 2050 &&
	       row.med[1][m] == 3050 &&
	       fabs(row.pct[m] - 100000.0 / 2050) < 1e-9 &&
	       row.worse[m] == row.pct[m] &&
	       row.run_verdict == REPORT_SAME,
	       "a higher balance score past the threshold, seeds apart, is a regression (%+.1f%%)",
	       row.pct[m]);
	report_release(&rep);
}

static void test_judge_improvement(void)
{
	struct report rep;
	struct report_row row;
	int m;

	make_report(&rep, 3);
	m = report_column(&rep, "throughput");
	make_row(&rep, &row, 1);
	set_seeds(&rep, &row, "throughput", 0, 3.0, 3.1, 2.9);
	set_seeds(&rep, &row, "throughput", 1, 3.6, 3.7, 3.5);
	report_judge_row(&rep, &row);
	tap_ok(row.verdict[m] == REPORT_BETTER && row.pct[m] > 19 &&
	       row.worse[m] == -row.pct[m],
	       "a higher throughput (higher is better) is an improvement, its change negative when worse is positive (%+.1f%%)",
	       row.pct[m]);
	report_release(&rep);
}

static void test_judge_noise(void)
{
	struct report rep;
	struct report_row row;
	int m;

	make_report(&rep, 3);
	m = report_column(&rep, "energy_j");
	make_row(&rep, &row, 1);
	/* the median moves 20 %, but one NEW seed lies among OLD's */
	set_seeds(&rep, &row, "energy_j", 0, 10, 9, 13);
	set_seeds(&rep, &row, "energy_j", 1, 12, 11.5, 14);
	report_judge_row(&rep, &row);
	tap_ok(row.verdict[m] == REPORT_NOISE && row.pct[m] == 20,
	       "a change past the threshold within the seeds' spread is noise");
	report_release(&rep);
}

static void test_judge_same(void)
{
	struct report rep;
	struct report_row row;
	int m, ok = 1;

	make_report(&rep, 3);
	make_row(&rep, &row, 100);
	m = report_column(&rep, "energy_j");
	set_seeds(&rep, &row, "energy_j", 1, 104, 104, 104);
	report_judge_row(&rep, &row);
	ok = row.verdict[m] == REPORT_SAME && row.pct[m] == 4;
	for (m = 0; m < rep.nr_metrics; m++)
		ok &= row.verdict[m] == REPORT_SAME;
	tap_ok(ok && row.run_verdict == REPORT_SAME,
	       "equal values, and a change within the threshold, are the same");
	report_release(&rep);
}

static void test_judge_floor(void)
{
	struct report rep;
	struct report_row row, small;
	int m;

	make_report(&rep, 3);
	m = report_column(&rep, "balance_score");
	make_row(&rep, &row, 0);
	set_seeds(&rep, &row, "balance_score", 1, 500, 500, 500);
	report_judge_row(&rep, &row);
	make_row(&rep, &small, 0);
	set_seeds(&rep, &small, "balance_score", 1, 30, 30, 30);
	report_judge_row(&rep, &small);
	tap_ok(rep.metric[m]->floor == 1000 && row.pct[m] == 50 &&
	       row.verdict[m] == REPORT_WORSE && small.pct[m] == 3 &&
	       small.verdict[m] == REPORT_SAME,
	       "from 0, a change is a percentage of the metric's floor (1000: 500 is +50%%, 30 is +3%%)");
	report_release(&rep);
}

static void test_judge_crash(void)
{
	struct report rep;
	struct report_row row, back;
	int m;

	make_report(&rep, 3);
	m = report_column(&rep, "balance_score");
	make_row(&rep, &row, 1);
	row.ok[1] = 1;
	row.status[1] = DRIVER_CRASHED;
	snprintf(row.reason[1], sizeof(row.reason[1]), "BUG: oops");
	report_judge_row(&rep, &row);
	make_row(&rep, &back, 1);
	back.ok[0] = 0;
	back.status[0] = DRIVER_HUNG;
	report_judge_row(&rep, &back);
	tap_ok(row.run_verdict == REPORT_WORSE && isnan(row.med[1][m]) &&
	       isnan(row.pct[m]) && row.verdict[m] == REPORT_SAME &&
	       !strcmp(report_run_state(&rep, &row, 0), "finished") &&
	       !strcmp(report_run_state(&rep, &row, 1), "crashed") &&
	       back.run_verdict == REPORT_BETTER,
	       "a pattern that finished on OLD and crashed on NEW is a regression of the run (%s), the other way an improvement",
	       report_run_state(&rep, &row, 1));
	report_release(&rep);
}

static void test_judge_one_seed(void)
{
	struct report rep;
	struct report_row row;
	int m;

	make_report(&rep, 1);
	m = report_column(&rep, "energy_j");
	make_row(&rep, &row, 10);
	row.v[1][m][0] = 11;
	report_judge_row(&rep, &row);
	tap_ok(row.verdict[m] == REPORT_WORSE,
	       "with one seed, noise is not judged: past the threshold is a regression");
	report_release(&rep);
}

/* Three rows: a crash, a large and a small regression, an improvement. */
static void judged_rows(struct report *rep, struct report_row *rows)
{
	int i;

	for (i = 0; i < 3; i++) {
		make_row(rep, &rows[i], 5000);
		rows[i].pattern = 2 - i;
	}
	rows[0].ok[1] = 0;
	rows[0].status[1] = DRIVER_HUNG;
	set_seeds(rep, &rows[1], "balance_score", 1, 6000, 6000, 6000);
	set_seeds(rep, &rows[1], "energy_j", 1, 5500, 5500, 5500);
	set_seeds(rep, &rows[2], "balance_score", 1, 7500, 7500, 7500);
	set_seeds(rep, &rows[2], "energy_j", 1, 4000, 4000, 4000);
	rep->rows = rows;
	rep->nr_rows = 3;
}

static void test_rank(void)
{
	struct report_row *rows = calloc(3, sizeof(*rows));
	int b, e, ok;
	struct report rep;

	make_report(&rep, 3);
	b = report_column(&rep, "balance_score");
	e = report_column(&rep, "energy_j");
	judged_rows(&rep, rows);
	ok = !report_judge(&rep);
	ok = ok && rep.nr_worse == 4 && rep.nr_better == 1;
	/* the hung run first, then +50 %, then the two +20 %/+10 % */
	ok = ok && rep.worse[0].row == &rows[0] && rep.worse[0].metric < 0 &&
	     rep.worse[1].row == &rows[2] && rep.worse[1].metric == b &&
	     rep.worse[2].row == &rows[1] && rep.worse[2].metric == b &&
	     rep.worse[3].row == &rows[1] && rep.worse[3].metric == e &&
	     rep.better[0].row == &rows[2] && rep.better[0].metric == e;
	tap_ok(ok, "the run's regression ranks first, then the largest change; %zu regressions, %zu improvement",
	       rep.nr_worse, rep.nr_better);
	report_release(&rep);
}

static void test_rank_ties(void)
{
	struct report_row *rows = calloc(2, sizeof(*rows));
	struct report rep;
	int b, ok;

	make_report(&rep, 3);
	b = report_column(&rep, "balance_score");
	make_row(&rep, &rows[0], 1000);
	make_row(&rep, &rows[1], 1000);
	rows[0].pattern = 7;
	rows[1].pattern = 3;
	set_seeds(&rep, &rows[0], "balance_score", 1, 2000, 2000, 2000);
	set_seeds(&rep, &rows[1], "balance_score", 1, 2000, 2000, 2000);
	rep.rows = rows;
	rep.nr_rows = 2;
	ok = !report_judge(&rep) && rep.nr_worse == 2 &&
	     rep.worse[0].row == &rows[1] && rep.worse[1].row == &rows[0] &&
	     rep.worse[0].metric == b;
	tap_ok(ok, "equal changes rank by topology, then pattern");
	report_release(&rep);
}

static void test_summary(void)
{
	struct report_row *rows = calloc(3, sizeof(*rows));
	struct report_summary run, bal, en;
	struct report rep;

	make_report(&rep, 3);
	judged_rows(&rep, rows);
	report_judge(&rep);
	report_summarise(&rep, 0, -1, &run);
	report_summarise(&rep, 0, report_column(&rep, "balance_score"), &bal);
	report_summarise(&rep, 0, report_column(&rep, "energy_j"), &en);
	tap_ok(run.compared == 3 && run.worse == 1 && run.better == 0 &&
	       bal.compared == 2 && bal.worse == 2 && bal.median_worse == 35 &&
	       en.compared == 2 && en.worse == 1 && en.better == 1 &&
	       en.median_worse == -5,
	       "per topology: runs 1 of 3 worse; balance 2 of 2 worse, median %+.0f%%; energy 1 worse 1 better, median %+.0f%%",
	       bal.median_worse, en.median_worse);
	report_release(&rep);
}

static void test_text_summary(void)
{
	struct report_row *rows = calloc(3, sizeof(*rows));
	char *full = NULL, *sum = NULL;
	size_t lf = 0, ls = 0;
	struct report rep;
	FILE *f;
	int ok;

	make_report(&rep, 3);
	judged_rows(&rep, rows);
	report_judge(&rep);
	f = open_memstream(&full, &lf);
	report_text(f, &rep, 0);
	fclose(f);
	f = open_memstream(&sum, &ls);
	report_text(f, &rep, 1);
	fclose(f);
	ok = ls < lf && !strncmp(full, sum, ls) &&
	     !strcmp(full + ls, "Every pattern, metric and seed: report.json; tables and plots: report.html\n") &&
	     strstr(sum, "verdict: 4 regressions, 1 improvement\n") &&
	     strstr(sum, "  wakeup_latency_ns.p99 ");
	tap_ok(ok, "the printed summary is report.txt without its last line");
	free(full);
	free(sum);
	report_release(&rep);
}

/*
 * Three rows of three seeds: the first WARNs on NEW in seeds 1 and 3, the
 * second on OLD in seed 2, its seed 1 unfinished; the third never.
 */
static void warned_rows(struct report *rep, struct report_row *rows)
{
	static const int w[3][2][3] = {
		{ { 0, 0, 0 }, { 2, 0, 1 } },
		{ { -1, 1, 0 }, { 0, 0, 0 } },
		{ { 0, 0, 0 }, { 0, 0, 0 } },
	};
	int i, r, s;

	for (i = 0; i < 3; i++) {
		make_row(rep, &rows[i], 1000);
		rows[i].pattern = i;
		for (r = 0; r < 2; r++)
			for (s = 0; s < 3; s++)
				rows[i].warns[r][s] = w[i][r][s];
	}
	rows[1].ok[0] = 2;
	snprintf(rows[0].warning[1], sizeof(rows[0].warning[1]),
		 "WARNING: CPU: 1 PID: 0 at kernel/sched/deadline.c:233");
	snprintf(rows[1].warning[0], sizeof(rows[1].warning[0]),
		 "WARNING: CPU: 0 PID: 7 at kernel/sched/fair.c:99");
	rep->rows = rows;
	rep->nr_rows = 3;
}

static void test_warnings(void)
{
	struct report_row *rows = calloc(3, sizeof(*rows));
	struct report_warnings a, b, old, new;
	const struct report_row *w0 = NULL, *w1 = NULL;
	struct report rep;
	int s0 = -1, s1 = -1;
	size_t n;

	make_report(&rep, 3);
	warned_rows(&rep, rows);
	report_row_warnings(&rep, &rows[0], 1, &a);
	report_row_warnings(&rep, &rows[1], 0, &b);
	report_warnings(&rep, 0, 0, &old);
	report_warnings(&rep, -1, 1, &new);
	n = report_warned(&rep, 0, NULL, NULL);
	report_warned(&rep, 0, &w0, &s0);
	report_warned(&rep, 1, &w1, &s1);
	tap_ok(a.warns == 3 && a.runs == 2 && a.of == 3 &&
	       b.warns == 1 && b.runs == 1 && b.of == 2 &&
	       old.warns == 1 && old.runs == 1 && old.of == 8 &&
	       new.warns == 3 && new.runs == 2 && new.of == 9 &&
	       n == 2 && w0 == &rows[0] && s0 == 1 && w1 == &rows[1] &&
	       s1 == 0,
	       "WARNs per side summed over the seeds that finished (NEW %d in %d of %d runs, OLD %d in %d of %d); %zu sides warned, in row order",
	       new.warns, new.runs, new.of, old.warns, old.runs, old.of, n);
	report_release(&rep);
}

static void test_warnings_written(void)
{
	struct report_row *rows = calloc(3, sizeof(*rows));
	const cJSON *kw, *first, *seeds;
	char *text = NULL, *json;
	struct report rep;
	size_t len = 0;
	cJSON *root;
	FILE *f;
	int ok;

	make_report(&rep, 3);
	warned_rows(&rep, rows);
	report_judge(&rep);
	f = open_memstream(&text, &len);
	report_text(f, &rep, 0);
	fclose(f);
	json = report_json(&rep);
	root = cJSON_Parse(json);
	kw = cJSON_GetObjectItem(root, "kernel_warnings");
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(kw, "warned"), 0);
	seeds = cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 1),
		"old"), "kernel_warnings");
	ok = text &&
	     strstr(text, "kernel WARNs (a run goes on past one): OLD 1 in 1 of 8 runs, NEW 3 in 2 of 9 runs\n") &&
	     strstr(text, "  kernel WARNs           OLD 1 in 1 of 8 runs, NEW 3 in 2 of 9 runs\n") &&
	     strstr(text, "(2 of 2)\n  quad-smt") &&
	     strstr(text, " NEW: 3 in 2 of 3 runs; the first: WARNING: CPU: 1 PID: 0 at kernel/sched/deadline.c:233\n  quad-smt") &&
	     strstr(text, " OLD: 1 in 1 of 2 runs; the first: WARNING: CPU: 0 PID: 7 at kernel/sched/fair.c:99\n");
	ok = ok && kw &&
	     cJSON_GetNumberValue(cJSON_GetObjectItem(
		     cJSON_GetObjectItem(kw, "new"), "warnings")) == 3 &&
	     cJSON_GetNumberValue(cJSON_GetObjectItem(
		     cJSON_GetObjectItem(kw, "old"), "of")) == 8 &&
	     !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(first, "side")), "new") &&
	     cJSON_GetNumberValue(cJSON_GetObjectItem(first, "runs")) == 2 &&
	     strstr(cJSON_GetStringValue(cJSON_GetObjectItem(first, "first")),
		    "deadline.c:233") &&
	     cJSON_GetArraySize(seeds) == 3 &&
	     cJSON_IsNull(cJSON_GetArrayItem(seeds, 0)) &&
	     cJSON_GetNumberValue(cJSON_GetArrayItem(seeds, 1)) == 1;
	tap_ok(ok, "report.txt names the WARNs in its header, per topology and per pattern and side; report.json has them per seed (null: unfinished) and the list");
	cJSON_Delete(root);
	free(json);
	free(text);
	report_release(&rep);
}

static void test_result_warnings(void)
{
	char first[64] = "x", none[64] = "x", bad[64] = "x";
	int n = driver_result_warnings("{\"kernel_warnings\": 2, \"kernel_warning_first\": {\"time_ns\": 5, \"message\": \"WARNING: CPU: 0 PID: 0 at a.c:1\"}}",
				       first, sizeof(first));
	int z = driver_result_warnings("{\"kernel_warnings\": 0}", none,
				       sizeof(none));
	int e = driver_result_warnings("not json", bad, sizeof(bad));

	tap_ok(n == 2 && !strcmp(first, "WARNING: CPU: 0 PID: 0 at a.c:1") &&
	       z == 0 && !*none && e == -1 && !*bad,
	       "a result's WARNs: the count and the first's line (%d, %d, %d)",
	       n, z, e);
}

static void test_verdict_names(void)
{
	tap_ok(!strcmp(report_verdict_name(REPORT_SAME), "same") &&
	       !strcmp(report_verdict_name(REPORT_NOISE), "noise") &&
	       !strcmp(report_verdict_name(REPORT_WORSE), "regression") &&
	       !strcmp(report_verdict_name(REPORT_BETTER), "improvement"),
	       "verdicts are named as report.json names them");
}

static void test_trend_label(void)
{
	static const char commits[3][41] = {
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
		"cccccccccccccccccccccccccccccccccccccccc",
	};
	struct bisect_tag tags[] = {
		{ "v1-rc1", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
		{ "v2", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" },
		{ "v2-alias", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" },
	};
	struct report_trend_point p = { .n = 3 }, q = { .n = 3 },
				  one = { .n = 1 };

	memcpy(p.first, commits[0], 41);
	report_trend_label(&p, commits, tags, 3);
	memcpy(q.first, commits[0], 41);
	report_trend_label(&q, commits, tags, 0);
	memcpy(one.first, commits[2], 41);
	report_trend_label(&one, &commits[2], tags, 3);
	tap_ok(!strcmp(p.label, "v2") && !strcmp(q.label, "aaaaaaaaaaaa+2") &&
	       !strcmp(one.label, "cccccccccccc"),
	       "a point is named by its newest tagged commit's first tag (%s), else its short hash (%s, %s)",
	       p.label, q.label, one.label);
}

/* Run a shell command in @dir; its exit status. */
static int sh(const char *dir, const char *cmd)
{
	char *full;
	int st;

	if (asprintf(&full, "cd '%s' && { %s; } >/dev/null 2>&1", dir, cmd) < 0)
		abort();
	st = system(full);
	free(full);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_bisect_tags(void)
{
	char dir[] = "/tmp/lsb-report-XXXXXX", head[41] = "", cmd[256];
	struct bisect_tag *tags = NULL;
	bisect_repo *r = NULL;
	size_t n = 0;
	FILE *p;
	int ok;

	if (!mkdtemp(dir) ||
	    sh(dir, "git init -q . && echo x > f && git add f && "
		    "git -c user.name=t -c user.email=t@e commit -q -m one && "
		    "git tag b && git -c user.name=t -c user.email=t@e tag -a -m a a && "
		    "git tag tree 'HEAD^{tree}'")) {
		tap_ok(1, "# SKIP no git CLI to make a repository");
		return;
	}
	snprintf(cmd, sizeof(cmd), "git -C '%s' rev-parse HEAD", dir);
	p = popen(cmd, "r");
	if (p) {
		if (!fgets(head, sizeof(head), p))
			head[0] = '\0';
		pclose(p);
	}
	ok = !bisect_repo_open(&r, dir) && !bisect_tags(r, &tags, &n) &&
	     n == 2 && !strcmp(tags[0].name, "a") &&
	     !strcmp(tags[1].name, "b") && !strcmp(tags[0].commit, head) &&
	     !strcmp(tags[1].commit, head);
	tap_ok(ok, "bisect_tags(): annotated and lightweight tags by name, peeled to their commit, a tree's tag left out (%zu)",
	       n);
	bisect_tags_free(tags, n);
	bisect_repo_free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	sh("/", cmd);
}

/* Write @text as @dir/@rel, its directories made. */
static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[4400], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	if (lsb_mkdir_p(path))
		abort();
	*slash = '/';
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

/* Every href="#X" of @doc names an id="X", and no id is there twice. */
static int anchors_resolve(const char *doc, int *links)
{
	const char *p = doc, *q;
	char want[400];

	*links = 0;
	for (p = strstr(doc, " id=\""); p; p = strstr(p + 1, " id=\"")) {
		q = strchr(p + 5, '"');
		snprintf(want, sizeof(want), " id=\"%.*s\"", (int)(q - p - 5),
			 p + 5);
		if (strstr(p + 1, want))
			return 0;
	}
	for (p = strstr(doc, "href=\"#"); p; p = strstr(p + 1, "href=\"#")) {
		q = strchr(p + 7, '"');
		snprintf(want, sizeof(want), " id=\"%.*s\"", (int)(q - p - 7),
			 p + 7);
		if (!strstr(doc, want))
			return 0;
		(*links)++;
	}
	return 1;
}

static int occurrences(const char *doc, const char *what)
{
	int n = 0;

	for (doc = strstr(doc, what); doc; doc = strstr(doc + 1, what))
		n++;
	return n;
}

/*
 * report.html: the worst regressions' rows for timelines, each once,
 * worst first, a run that did not finish left out; their sections
 * embed what was drawn and say what was not; every table sorts; every
 * link into the page resolves; nothing from elsewhere.
 */
static void test_html(void)
{
	struct report_row *rows = calloc(3, sizeof(*rows));
	const struct report_row *tl[8];
	char dir[] = "/tmp/lsb-report-XXXXXX", tdir[4400], *doc = NULL;
	size_t n, len = 0;
	struct report rep;
	int ok, links = 0;
	FILE *f;

	make_report(&rep, 3);
	judged_rows(&rep, rows);
	if (report_judge(&rep) || !mkdtemp(dir))
		abort();
	snprintf(rep.out, sizeof(rep.out), "%s", dir);
	n = report_timeline_rows(&rep, tl, 8);
	ok = n == 2 && tl[0] == &rows[2] && tl[1] == &rows[1] &&
	     report_timeline_rows(&rep, tl, 1) == 1 && tl[0] == &rows[2];
	report_timeline_dir(&rep, &rows[1], 1, tdir, sizeof(tdir));
	ok = ok && !strncmp(tdir, dir, strlen(dir)) &&
	     !strncmp(tdir + strlen(dir), "/timelines/quad-smt-", 20) &&
	     !strcmp(tdir + strlen(tdir) - 4, "-new");
	put_file(dir, "plots/heat-quad-smt.png", "heat");
	put_file(dir, "plots/plane-quad-smt.png", "plane");
	rep.timelines = 2;
	snprintf(rep.timeline_window, sizeof(rep.timeline_window),
		 "seed 1, 500 ms to 600 ms");
	for (int i = 0; i < 2; i++)
		for (int r = 0; r < 2; r++) {
			char name[300], rel[400];

			if (i == 1 && r == 1)
				continue;	/* NEW of the second not drawn */
			report_timeline_name(&rep, tl[i], r, name, sizeof(name));
			snprintf(rel, sizeof(rel), "timelines/%s/timeline.png",
				 name);
			put_file(dir, rel, "png");
		}
	f = open_memstream(&doc, &len);
	ok = !report_html(f, &rep) && ok;
	fclose(f);
	if (getenv("LSB_REPORT_HTML"))	/* a page to look at */
		put_file(getenv("LSB_REPORT_HTML"), "report.html", doc);
	ok = ok && anchors_resolve(doc, &links);
	tap_ok(ok && links >= 8 &&
	       occurrences(doc, "<section class=\"timeline\" id=\"tl-quad-smt-") == 2 &&
	       occurrences(doc, "src=\"data:image/png;base64,") == 5 &&
	       occurrences(doc, "<p class=\"missing\">NEW: no timeline") == 1 &&
	       occurrences(doc, "<table class=\"sortable\">") == 5 &&
	       occurrences(doc, "<script>") == 1 && !strstr(doc, "=\"http") &&
	       !strstr(doc, "=\"//"),
	       "report.html: timelines of the 2 worst rows (the hung run left out), 5 images embedded, 1 missing said; %d links resolve to unique ids; 5 sortable tables; nothing from elsewhere",
	       links);
	free(doc);
	doc = report_json(&rep);
	{
		cJSON *root = cJSON_Parse(doc);
		const cJSON *t = cJSON_GetObjectItem(root, "timelines");
		const cJSON *a = cJSON_GetArrayItem(t, 0);
		const cJSON *b = cJSON_GetArrayItem(t, 1);

		tap_ok(cJSON_GetArraySize(t) == 2 &&
		       cJSON_IsString(cJSON_GetObjectItem(a, "new")) &&
		       !strncmp(cJSON_GetStringValue(cJSON_GetObjectItem(a, "old")),
				"timelines/quad-smt-", 19) &&
		       cJSON_IsNull(cJSON_GetObjectItem(b, "new")) &&
		       cJSON_IsString(cJSON_GetObjectItem(b, "old")),
		       "report.json lists the 2 timelines, the one not drawn null");
		cJSON_Delete(root);
	}
	free(doc);
	lsb_rm_rf(dir);
	report_release(&rep);
}

/* ---- the pre-submit check (report/check.c) ---- */

/* A report of one row: balance score 1000 -> about @new, violations given. */
static void check_report(struct report *rep, double new, const double *vo,
			 const double *vn)
{
	struct report_row *row = calloc(1, sizeof(*row));
	int s;

	make_report(rep, 3);
	make_row(rep, row, 1000);
	set_seeds(rep, row, "balance_score", 1, new, new * 1.1, new * 0.9);
	for (s = 0; s < 3; s++) {
		row->violations[0][s] = vo[s];
		row->violations[1][s] = vn[s];
	}
	rep->rows = row;
	rep->nr_rows = 1;
	if (report_judge(rep))
		abort();
}

/* What a writer of the check writes, malloc()ed; @text: the summary. */
static char *check_written(int (*fn)(FILE *, const struct report_check *),
			   const struct report_check *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	if (fn) {
		if (fn(f, c))
			abort();
	} else {
		report_check_text(f, c);
	}
	fclose(f);
	return text;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (; (text = strstr(text, what)); text++)
		n++;
	return n;
}

static bool test_check_violated(void)
{
	static const double none[3] = { 0, 0, 0 }, more[3] = { 2, 3, 4 };
	struct report rep;
	int a, b, c;

	check_report(&rep, 1000, none, more);
	a = report_row_violated(&rep, &rep.rows[0]);
	rep.rows[0].violations[1][1] = 0;
	b = report_row_violated(&rep, &rep.rows[0]);
	rep.rows[0].violations[1][1] = NAN;
	c = report_row_violated(&rep, &rep.rows[0]);
	report_release(&rep);
	ASSERT_EQ(a, 1);
	ASSERT_EQ(b, 0);	/* one NEW seed broke none */
	ASSERT_EQ(c, 0);	/* a seed without a count judges nothing */
	return true;
}

/* Two patches, the second regresses: named, tabled, in XML and TAP. */
static bool test_check_series(void)
{
	static const double none[3] = { 0, 0, 0 };
	struct report rep[2];
	struct report_check_step st[2] = {
		{ .name = "patch 1/2 'a'", .rep = &rep[0] },
		{ .name = "patch 2/2 '<b> & \"c\"'", .rep = &rep[1] },
	};
	struct report_check c = { .steps = st, .nr_steps = 2 };
	char *text, *xml, *tap;
	long first;
	bool ok;

	check_report(&rep[0], 1010, none, none);
	check_report(&rep[1], 2000, none, none);
	report_check_judge(&c);
	first = report_check_first_failure(&c);
	text = check_written(NULL, &c);
	xml = check_written(report_check_junit, &c);
	tap = check_written(report_check_tap, &c);
	ok = st[0].nr_failed == 0 && st[1].nr_failed == 1 && first == 1 &&
	     strstr(text, "verdict: patch 2/2 '<b> & \"c\"' regresses (1 run fails)\n") &&
	     /* the table: OLD's median, the change, NEW's with its spread */
	     strstr(text, "\n          1000          +100.0%           2000 \xc2\xb1 10%  quad-smt/") &&
	     strstr(text, ".balance_score  (regression)\n") &&
	     strstr(xml, "<testsuite name=\"patch 2/2 &apos;&lt;b&gt; &amp; &quot;c&quot;&apos;\" tests=\"1\" failures=\"1\">") &&
	     strstr(xml, "<testsuites name=\"linsched check\" tests=\"2\" failures=\"1\"") &&
	     count(xml, "<failure ") == 1 &&
	     strstr(xml, "message=\"balance_score +100.0%\">balance_score: 1000 -&gt; 2000 (+100.0%, threshold 5%)") &&
	     strstr(tap, "TAP version 13\n1..2\n") && count(tap, "\nok ") == 1 &&
	     strstr(tap, "\nnot ok 2 - 2: ");
	if (!ok)
		tap_diag("%s%s%s", text, xml, tap);
	free(text);
	free(xml);
	free(tap);
	report_release(&rep[0]);
	report_release(&rep[1]);
	ASSERT_TRUE(ok);
	return true;
}

/* A bug back: fixed on OLD, buggy on NEW; not when a side has no figure. */
static bool test_check_bug(void)
{
	static const double none[3] = { 0, 0, 0 };
	struct report_check_bug b[2] = {
		{ .name = "x", .fix = "abc 'f'", .metric = "m",
		  .value = { 5, 3 }, .buggy = { 0, 1 }, .threshold = 4 },
		{ .name = "y", .fix = "def 'g'", .metric = "m",
		  .value = { 5, NAN }, .buggy = { 0, 0 }, .threshold = 4 },
	};
	struct report rep;
	struct report_check_step st = { .name = "w", .rep = &rep, .bugs = b,
					.nr_bugs = 2 };
	struct report_check c = { .steps = &st, .nr_steps = 1 };
	char *text, *xml;
	bool ok;

	check_report(&rep, 1000, none, none);
	report_check_judge(&c);
	text = check_written(NULL, &c);
	xml = check_written(report_check_junit, &c);
	ok = report_check_bug_back(&b[0]) && !report_check_bug_back(&b[1]) &&
	     st.nr_bugs_back == 1 && st.nr_failed == 0 &&
	     report_check_first_failure(&c) == 0 &&
	     strstr(text, "  BACK x: m 5 -> 3 (buggy below 4; fix abc 'f')\n") &&
	     strstr(text, "verdict: w brings back 1 catalogued bug\n") &&
	     strstr(xml, "<testcase classname=\"bugs\" name=\"y\"/>") &&
	     strstr(xml, "tests=\"3\" failures=\"1\"");
	if (!ok)
		tap_diag("%s%s", text, xml);
	free(text);
	free(xml);
	report_release(&rep);
	ASSERT_TRUE(ok);
	return true;
}

int main(void)
{
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	tap_plan(23);
	test_columns();
	test_judge_regression();
	test_judge_improvement();
	test_judge_noise();
	test_judge_same();
	test_judge_floor();
	test_judge_crash();
	test_judge_one_seed();
	test_rank();
	test_rank_ties();
	test_summary();
	test_text_summary();
	test_warnings();
	test_warnings_written();
	test_result_warnings();
	test_verdict_names();
	test_html();
	test_trend_label();
	test_bisect_tags();
	TEST(test_check_violated);
	TEST(test_check_series);
	TEST(test_check_bug);
	return tap_done();
}
