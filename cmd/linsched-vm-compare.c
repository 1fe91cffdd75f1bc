// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched vm --compare - the simulator against the real kernel: the same
 * release, workload, topology and window run by the simulator for seeds
 * 1..N (driver/, results cached) and by the VM's boots (scored by
 * sim/score.c over the measured window); per metric the simulator's
 * median, the VM's median and band, and a verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "cmd/linsched-vm.h"
#include "common/common.h"
#include "sim/sim.h"

/*
 * The tolerances, one per kind of metric (README "Comparing" has the same
 * table): the VM's band [min, max] widens by max(abs, rel * the band's
 * larger magnitude) on each side.
 */
static const struct vm_cmp_tol default_tol[VM_CMP_NR_KINDS] = {
	{ "share", 0.05, 0,
	  "a task's or group's share of a CPU: +-0.05 of a CPU" },
	{ "conservation", 0.02, 0,
	  "work conservation: +-0.02 of all CPU time" },
	{ "fairness", 0.05, 0, "Jain's index: +-0.05" },
	{ "migrations", 1.0, 0.5,
	  "migrations per second per level: +-50%, at least 1/s" },
	{ "latency", 1e6, 0.5,
	  "wakeup latency: +-50%, at least 1 ms (the VM's wakeup path takes real time)" },
	{ "balance", 104858, 0.5,
	  "balance score: +-50%, at least 1024^2/10 weight units^2" },
};

enum { K_SHARE, K_CONS, K_FAIR, K_MIGR, K_LAT, K_BAL };

void vm_cmp_tolerances(struct vm_cmp_tol tab[VM_CMP_NR_KINDS])
{
	memcpy(tab, default_tol, sizeof(default_tol));
}

int vm_cmp_tolerance_arg(struct vm_cmp_tol tab[VM_CMP_NR_KINDS],
			 const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;
	double v;
	int k;

	for (k = 0; eq && k < VM_CMP_NR_KINDS; k++)
		if (strlen(tab[k].kind) == (size_t)(eq - arg) &&
		    !strncmp(arg, tab[k].kind, eq - arg))
			break;
	if (!eq || k == VM_CMP_NR_KINDS) {
		fprintf(stderr, "error: --tolerance '%s': %s%.*s%s: expected KIND=V, KIND one of share, conservation, fairness, migrations, latency, balance\n",
			arg, eq ? "unknown kind '" : "no '='",
			eq ? (int)(eq - arg) : 0, arg, eq ? "'" : "");
		return -1;
	}
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || !(v >= 0) || isinf(v)) {
		fprintf(stderr, "error: --tolerance '%s': expected a number of 0 or more after '='\n",
			arg);
		return -1;
	}
	if (k == K_MIGR || k == K_BAL) {
		tab[k].rel = v;
		tab[k].abs = 0;
	} else {
		tab[k].abs = v;
		tab[k].rel = 0;
	}
	tab[k].why = "set by --tolerance";
	return 0;
}

/* ---- the rows: a metric's values on each side ---- */

#define MAX_VALUES 1000

struct row {
	char name[96];
	int kind;
	int n[2];		/* 0: the simulator's seeds, 1: the VM's boots */
	double v[2][MAX_VALUES];
};

struct rows {
	struct row *r;
	int n;
};

static void add(struct rows *rs, const char *name, int kind, int side,
		double v)
{
	struct row *r;
	int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].name, name))
			break;
	if (i == rs->n) {
		rs->r = realloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
		if (!rs->r)
			abort();
		r = &rs->r[rs->n++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->kind = kind;
	}
	r = &rs->r[i];
	if (r->n[side] < MAX_VALUES)
		r->v[side][r->n[side]++] = v;
}

static double num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItem(o, a);

	if (b)
		x = cJSON_GetObjectItem(x, b);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* The "metrics" object of a simulation or a scored trace, as rows. */
static void add_metrics(struct rows *rs, const cJSON *m, int side)
{
	const cJSON *lv;
	char name[96];

	add(rs, "work conservation", K_CONS, side,
	    num(m, "work_conservation", NULL));
	cJSON_ArrayForEach(lv, cJSON_GetObjectItem(m, "migrations_per_s")) {
		snprintf(name, sizeof(name), "migrations/s %s", lv->string);
		add(rs, name, K_MIGR, side, lv->valuedouble);
	}
	add(rs, "fairness", K_FAIR, side, num(m, "fairness", NULL));
	/* no wakeup of the workload's tasks: no latency to compare */
	if (num(m, "wakeup_latency_ns", "count") > 0) {
		add(rs, "wakeup p50 ns", K_LAT, side,
		    num(m, "wakeup_latency_ns", "p50"));
		add(rs, "wakeup p99 ns", K_LAT, side,
		    num(m, "wakeup_latency_ns", "p99"));
	}
	add(rs, "balance score", K_BAL, side, num(m, "balance_score", NULL));
}

/* The definition @name is an instance of in @wl, -1: none. */
static int task_def(const struct workload *wl, const char *name)
{
	int i;

	for (i = 0; i < wl->nr_tasks; i++)
		if (!strcmp(wl->tasks[i].name, name))
			return wl->tasks[i].def;
	return -1;
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/*
 * Tasks' shares (cpu_ns / window) and their groups' sums, as rows. The
 * instances of one definition (rt-app's "instance", a spec's *N) are
 * interchangeable: which of them a CPU favours is chance (the order the
 * threads start in, a vCPU's timing), not policy. So they are compared by
 * rank: in each run the first instance's row gets the largest share among
 * them, the second the next, and so on.
 */
static void add_shares(struct rows *rs, const struct workload *wl,
		       const cJSON *tasks, const char *ns_key,
		       const char *group_key, double window_ns, int side)
{
	struct { char path[96]; double share; } g[64];
	int n = cJSON_GetArraySize(tasks), ng = 0, nt = 0, i, j, k;
	const char **name = calloc((size_t)n + 1, sizeof(*name));
	const char **group = calloc((size_t)n + 1, sizeof(*group));
	double *share = calloc((size_t)n + 1, sizeof(*share));
	double *ranked = calloc((size_t)n + 1, sizeof(*ranked));
	int *def = calloc((size_t)n + 1, sizeof(*def));
	const cJSON *t;
	char row[160];

	if (!name || !group || !share || !ranked || !def)
		abort();
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *nm = cJSON_GetObjectItem(t, "name");
		const cJSON *gp = cJSON_GetObjectItem(t, group_key);
		double s = num(t, ns_key, NULL) / window_ns;

		if (!cJSON_IsString(nm) || isnan(s))
			continue;
		name[nt] = nm->valuestring;
		group[nt] = cJSON_IsString(gp) ? gp->valuestring : "/";
		def[nt] = task_def(wl, nm->valuestring);
		share[nt++] = s;
	}
	/* each definition's shares, largest first, to its rows in order */
	for (i = 0; i < nt; i++) {
		if (def[i] < 0) {
			snprintf(row, sizeof(row), "share %s", name[i]);
			add(rs, row, K_SHARE, side, share[i]);
			continue;
		}
		for (j = 0; j < i && def[j] != def[i]; j++)
			;
		if (j < i)
			continue;	/* done with its first instance */
		for (k = 0, j = i; j < nt; j++)
			if (def[j] == def[i])
				ranked[k++] = share[j];
		qsort(ranked, (size_t)k, sizeof(*ranked), cmp_desc);
		for (k = 0, j = i; j < nt; j++)
			if (def[j] == def[i]) {
				snprintf(row, sizeof(row), "share %s", name[j]);
				add(rs, row, K_SHARE, side, ranked[k++]);
			}
	}
	for (i = 0; wl->nr_groups && i < nt; i++) {
		for (j = 0; j < ng; j++)
			if (!strcmp(g[j].path, group[i]))
				break;
		if (j == ng && ng < 64) {
			snprintf(g[ng].path, sizeof(g[ng].path), "%s", group[i]);
			g[ng++].share = 0;
		}
		if (j < 64)
			g[j].share += share[i];
	}
	for (i = 0; i < ng; i++) {
		snprintf(row, sizeof(row), "share group %.96s", g[i].path);
		add(rs, row, K_SHARE, side, g[i].share);
	}
	free(name);
	free(group);
	free(share);
	free(ranked);
	free(def);
}

/* ---- the two sides ---- */

static int sim_side(const struct vm_cmp_in *in, struct rows *rs)
{
	char duration[32];
	int seed;

	/* the window in ns: the same result key as "4" or "4s" */
	snprintf(duration, sizeof(duration), "%lluns",
		 (unsigned long long)in->window_ns);

	for (seed = 1; seed <= in->seeds; seed++) {
		/*
		 * --cpuidle poll: the guest has no cpuidle driver, its idle
		 * loop takes default_idle_call() and its vCPUs halt with no
		 * exit latency; so do the simulator's CPUs with it.
		 */
		struct driver_run_spec spec = {
			.workload = in->workload, .topology = in->topology_spec,
			.duration = duration, .seed = seed, .metrics = 1,
			.jitter = in->jitter, .cpuidle = "poll",
		};
		struct driver_result res;
		cJSON *j;
		int ret;

		ret = driver_result(&res, in->paths, in->repo, in->rev, &spec,
				    in->jobs, in->verbose);
		if (ret) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 1;
		}
		if (res.status != DRIVER_OK) {
			fprintf(stderr, "error: revision '%s': the simulator of seed %d did not run: %s\n",
				in->rev, seed, res.reason);
			driver_result_release(&res);
			return 1;
		}
		j = cJSON_Parse(res.json);
		driver_result_release(&res);
		if (!j) {
			fprintf(stderr, "error: revision '%s': seed %d: unreadable results\n",
				in->rev, seed);
			return 1;
		}
		add_shares(rs, in->wl, cJSON_GetObjectItem(j, "tasks"),
			   "sum_exec_ns", "taskgroup", num(j, "duration_ns", NULL),
			   0);
		add_metrics(rs, cJSON_GetObjectItem(j, "metrics"), 0);
		cJSON_Delete(j);
	}
	return 0;
}

/*
 * A run's trace between /init's marks of the window ("lsb-vm: window
 * start", "... end"), in memory: what is scored. NULL after the error.
 */
static char *window_trace(const char *path, size_t *len)
{
	char *text = lsb_read_file(path, len), *a, *b;

	if (!text) {
		fprintf(stderr, "error: cannot read trace '%s'\n", path);
		return NULL;
	}
	a = strstr(text, "lsb-vm: window start");
	b = a ? strstr(a, "lsb-vm: window end") : NULL;
	if (!a || !b) {
		fprintf(stderr, "error: trace '%s': no 'lsb-vm: window start' and 'lsb-vm: window end' marks: not a linsched vm run's\n",
			path);
		free(text);
		return NULL;
	}
	a = strchr(a, '\n');
	while (b > text && b[-1] != '\n')
		b--;
	*len = a && a < b ? (size_t)(b - a - 1) : 0;
	memmove(text, a ? a + 1 : text, *len);
	text[*len] = 0;
	return text;
}

static int vm_run_side(const struct vm_cmp_in *in, const cJSON *run,
		       struct rows *rs)
{
	struct sim_score_opts so = { .topo = in->topo, .wl = in->wl };
	struct sim_score s;
	char path[4300], err[1024];
	size_t len;
	char *text;
	FILE *f;
	cJSON *root;
	int ret;

	add_shares(rs, in->wl, cJSON_GetObjectItem(run, "tasks"), "cpu_ns",
		   "group", num(run, "window_ns", NULL), 1);
	snprintf(path, sizeof(path), "%s/run-%d/trace.txt", in->dir,
		 (int)num(run, "run", NULL));
	text = window_trace(path, &len);
	if (!text)
		return 1;
	f = fmemopen(text, len ? len : 1, "r");
	if (!f) {
		free(text);
		fprintf(stderr, "error: out of memory\n");
		return 1;
	}
	ret = sim_score_trace(f, path, &so, &s, err, sizeof(err));
	fclose(f);
	free(text);
	if (ret) {
		fprintf(stderr, "error: %s\n", err);
		return ret == SIM_SCORE_BAD ? 2 : 1;
	}
	root = cJSON_CreateObject();
	metrics_json(root, &s.metrics, &s.run);
	add_metrics(rs, cJSON_GetObjectItem(root, "metrics"), 1);
	cJSON_Delete(root);
	sim_score_release(&s);
	return 0;
}

/* ---- the verdicts ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "+-0.05", "+-50%, >= 1e+06": the tolerance of a kind, said. */
static void tol_text(const struct vm_cmp_tol *t, char *buf, size_t len)
{
	if (t->rel && t->abs)
		snprintf(buf, len, "+-%g%%,>=%g", 100 * t->rel, t->abs);
	else if (t->rel)
		snprintf(buf, len, "+-%g%%", 100 * t->rel);
	else
		snprintf(buf, len, "+-%g", t->abs);
}

/* A row's verdict, as JSON; NaN values (none measured) are dropped. */
static cJSON *judge(struct row *r, const struct vm_cmp_tol *t, int *verdict)
{
	cJSON *o = cJSON_CreateObject(), *a;
	double w, lo, hi, sm, vm;
	char tol[64];
	int side, i, n;

	cJSON_AddStringToObject(o, "metric", r->name);
	cJSON_AddStringToObject(o, "kind", t->kind);
	for (side = 0; side < 2; side++) {
		for (i = n = 0; i < r->n[side]; i++)
			if (!isnan(r->v[side][i]))
				r->v[side][n++] = r->v[side][i];
		r->n[side] = n;
		a = cJSON_AddArrayToObject(o, side ? "vm" : "sim");
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(r->v[side][i]));
	}
	tol_text(t, tol, sizeof(tol));
	cJSON_AddStringToObject(o, "tolerance", tol);
	if (!r->n[0] || !r->n[1]) {
		*verdict = -1;
		cJSON_AddStringToObject(o, "verdict", "n/a");
		return o;
	}
	sm = median(r->v[0], r->n[0]);
	vm = median(r->v[1], r->n[1]);
	lo = r->v[1][0];
	hi = r->v[1][r->n[1] - 1];
	w = dmax(t->abs, t->rel * dmax(lo < 0 ? -lo : lo, hi < 0 ? -hi : hi));
	*verdict = sm >= lo - w && sm <= hi + w;
	cJSON_AddNumberToObject(o, "sim_median", sm);
	cJSON_AddNumberToObject(o, "vm_median", vm);
	cJSON_AddNumberToObject(o, "vm_min", lo);
	cJSON_AddNumberToObject(o, "vm_max", hi);
	cJSON_AddNumberToObject(o, "low", lo - w);
	cJSON_AddNumberToObject(o, "high", hi + w);
	cJSON_AddStringToObject(o, "verdict", *verdict ? "agree" : "differ");
	return o;
}

static void print_row(const cJSON *o)
{
	const char *v = cJSON_GetObjectItem(o, "verdict")->valuestring;
	char band[64] = "-", sm[32] = "-", vm[32] = "-";

	if (strcmp(v, "n/a")) {
		snprintf(sm, sizeof(sm), "%.4g", num(o, "sim_median", NULL));
		snprintf(vm, sizeof(vm), "%.4g", num(o, "vm_median", NULL));
		snprintf(band, sizeof(band), "%.4g-%.4g", num(o, "vm_min", NULL),
			 num(o, "vm_max", NULL));
	}
	printf("%-22s %11s %11s %23s %14s  %s\n",
	       cJSON_GetObjectItem(o, "metric")->valuestring, sm, vm, band,
	       cJSON_GetObjectItem(o, "tolerance")->valuestring, v);
}

/* The summary of the boots, or NULL after the error. */
static cJSON *read_summary(const char *dir)
{
	char path[4300];
	char *text;
	cJSON *s;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	text = lsb_read_file(path, NULL);
	s = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!s)
		fprintf(stderr, "error: cannot read '%s': no boots to compare\n",
			path);
	return s;
}

static cJSON *head(const struct vm_cmp_in *in, const cJSON *summary,
		   const cJSON *runs_ok)
{
	cJSON *c = cJSON_CreateObject(), *a, *t;
	int i;

	cJSON_AddStringToObject(c, "revision", in->rev);
	cJSON_AddStringToObject(c, "workload", in->workload);
	cJSON_AddStringToObject(c, "topology", in->topology_spec);
	cJSON_AddNumberToObject(c, "window_ns", num(summary, "window_ns", NULL));
	a = cJSON_AddArrayToObject(c, "seeds");
	for (i = 1; i <= in->seeds; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
	/* a comparison without has none, as before */
	if (in->jitter)
		cJSON_AddNumberToObject(c, "jitter", strtod(in->jitter, NULL));
	cJSON_AddItemToObject(c, "vm_runs", cJSON_Duplicate(runs_ok, 1));
	t = cJSON_AddObjectToObject(c, "tolerances");
	for (i = 0; i < VM_CMP_NR_KINDS; i++) {
		cJSON *k = cJSON_AddObjectToObject(t, in->tol[i].kind);

		cJSON_AddNumberToObject(k, "abs", in->tol[i].abs);
		cJSON_AddNumberToObject(k, "rel", in->tol[i].rel);
		cJSON_AddStringToObject(k, "means", in->tol[i].why);
	}
	return c;
}

static int all_zero(const struct row *r)
{
	int side, i;

	for (side = 0; side < 2; side++)
		for (i = 0; i < r->n[side]; i++)
			if (r->v[side][i] != 0)
				return 0;
	return 1;
}

int vm_compare(const struct vm_cmp_in *in, cJSON **rows_out)
{
	struct rows rs = { 0 };
	cJSON *summary, *run, *ok, *c, *arr;
	int ret = 0, i, agree = 0, differ = 0, v;
	char path[4300];

	*rows_out = NULL;
	summary = read_summary(in->dir);
	if (!summary)
		return 2;
	/* --no-boot: the boots were made with another window */
	if (num(summary, "window_ns", NULL) != (double)in->window_ns) {
		fprintf(stderr, "error: '%s/summary.json': the boots measured a %g s window, not %g s: compare with the same --duration\n",
			in->dir, num(summary, "window_ns", NULL) / 1e9,
			in->window_ns / 1e9);
		cJSON_Delete(summary);
		return 2;
	}
	ok = cJSON_CreateArray();
	cJSON_ArrayForEach(run, cJSON_GetObjectItem(summary, "runs")) {
		const cJSON *st = cJSON_GetObjectItem(run, "status");

		if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok"))
			continue;
		cJSON_AddItemToArray(ok, cJSON_CreateNumber(num(run, "run", NULL)));
		ret = vm_run_side(in, run, &rs);
		if (ret)
			goto out;
	}
	if (!cJSON_GetArraySize(ok)) {
		fprintf(stderr, "error: '%s': no boot ran to its end: nothing to compare\n",
			in->dir);
		ret = 1;
		goto out;
	}
	fprintf(stderr, "linsched vm: the simulator, seeds 1-%d%s%s...\n",
		in->seeds, in->jitter ? ", --jitter " : "",
		in->jitter ? in->jitter : "");
	ret = sim_side(in, &rs);
	if (ret)
		goto out;
	c = head(in, summary, ok);
	arr = cJSON_AddArrayToObject(c, "metrics");
	printf("\n%-22s %11s %11s %23s %14s  %s\n", "metric", "sim median",
	       "VM median", "VM band", "tolerance", "verdict");
	for (i = 0; i < rs.n; i++) {
		struct row *r = &rs.r[i];
		cJSON *o;

		/* a level no task migrated across on either side */
		if (r->kind == K_MIGR && all_zero(r))
			continue;
		o = judge(r, &in->tol[r->kind], &v);
		agree += v == 1;
		differ += v == 0;
		print_row(o);
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddNumberToObject(c, "agree", agree);
	cJSON_AddNumberToObject(c, "differ", differ);
	cJSON_AddStringToObject(c, "verdict", differ ? "differ" : "agree");
	printf("verdict: %s: %d of %d metrics agree (%d simulator seeds%s%s, %d boots)\n",
	       differ ? "differ" : "agree", agree, agree + differ, in->seeds,
	       in->jitter ? " with --jitter " : "",
	       in->jitter ? in->jitter : "", cJSON_GetArraySize(ok));
	snprintf(path, sizeof(path), "%s/compare.json", in->dir);
	if (lsb_write_json(path, c)) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		cJSON_Delete(c);
		ret = 1;
		goto out;
	}
	*rows_out = cJSON_DetachItemFromObject(c, "metrics");
	cJSON_Delete(c);
	ret = differ ? VM_EXIT_DIFFER : 0;
out:
	cJSON_Delete(ok);
	cJSON_Delete(summary);
	free(rs.r);
	return ret;
}

/* ---- the realism report ---- */

int vm_realism_md(const char *path, const char *rev, const char *topology,
		  const char *jitter, const char *const *names,
		  cJSON *const *rows, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, agree = 0, total = 0, ret = 0;
	const cJSON *o;

	if (!f)
		return 1;
	fprintf(f, "# Realism: the simulator against the real kernel\n\n");
	fprintf(f, "Release `%s`, topology `%s`: per workload and metric, the simulator's\n"
		"median over its seeds against the VM's median and band over its boots\n"
		"(`linsched vm --compare`; tolerances in README, \"Comparing\").\n\n",
		rev, topology);
	if (jitter)
		fprintf(f, "The simulator ran with `--jitter %s`: each run event's work varied by\n"
			"up to +-%g %%, uniformly, from the seed (without it identical periodic\n"
			"tasks stay in lockstep).\n\n", jitter,
			100 * strtod(jitter, NULL));
	fprintf(f, "| workload | metric | %s: sim median | VM median | VM band | tolerance | verdict |\n",
		rev);
	fprintf(f, "|---|---|---:|---:|---:|---|---|\n");
	for (i = 0; i < n; i++) {
		cJSON_ArrayForEach(o, rows[i]) {
			const char *v = cJSON_GetObjectItem(o, "verdict")->valuestring;

			fprintf(f, "| %s | %s | ", names[i],
				cJSON_GetObjectItem(o, "metric")->valuestring);
			if (strcmp(v, "n/a"))
				fprintf(f, "%.4g | %.4g | %.4g-%.4g | ",
					num(o, "sim_median", NULL),
					num(o, "vm_median", NULL),
					num(o, "vm_min", NULL),
					num(o, "vm_max", NULL));
			else
				fprintf(f, "- | - | - | ");
			fprintf(f, "%s | %s |\n",
				cJSON_GetObjectItem(o, "tolerance")->valuestring, v);
			total += strcmp(v, "n/a") != 0;
			agree += !strcmp(v, "agree");
		}
	}
	fprintf(f, "\nAgree: %d of %d comparisons (%.1f%%).\n", agree, total,
		total ? 100.0 * agree / total : 0);
	printf("\nrealism: %d of %d comparisons agree (%s)\n", agree, total,
	       path);
	if (fclose(f) || lsb_write_atomic(path, buf, len)) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		ret = 1;
	}
	free(buf);
	return ret;
}
