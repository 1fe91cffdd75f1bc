// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge.c - a run's results as one verdict: the checks it broke, the worst
 * first, with a signature that names the failure the same way in every
 * case that shows it; and what is new against a reference release.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hunt/hunt_internal.h"
#include "topologies/topologies.h"

/* the status values of driver/driver.h that a case can end with */
#define STATUS_OK 0
#define STATUS_CRASHED 4
#define STATUS_HUNG 5

static const char *const names[HUNT_NR_CHECKS] = {
	[HUNT_CLEAN] = "clean",
	[HUNT_USELESS] = "useless-migration",
	[HUNT_ENERGY] = "energy",
	[HUNT_ORACLE] = "oracle",
	[HUNT_CPU_TIME] = "cpu-time",
	[HUNT_IDLE] = "idle-while-waiting",
	[HUNT_STARVED] = "starvation",
	[HUNT_WARN] = "warn",
	[HUNT_HUNG] = "hang",
	[HUNT_CRASHED] = "crash",
};

const char *hunt_check_name(int check)
{
	return check >= 0 && check < HUNT_NR_CHECKS ? names[check] : "?";
}

/* @text without its numbers ("at 123 ns" -> "at N ns"), at most @len */
static void no_numbers(char *out, size_t len, const char *text)
{
	size_t o = 0;

	for (; *text && o + 1 < len; text++) {
		if (isdigit((unsigned char)*text)) {
			out[o++] = 'N';
			while (isdigit((unsigned char)text[1]))
				text++;
		} else {
			out[o++] = *text;
		}
	}
	out[o] = '\0';
}

/*
 * A WARN's site: "WARNING: CPU: 0 PID: 0 at kernel/sched/fair.c:5730
 * fn+0x..." gives "kernel/sched/fair.c:5730"; else the text without its
 * numbers.
 */
static void warn_site(char *out, size_t len, const char *msg)
{
	const char *at = strstr(msg, " at ");
	size_t n;

	if (at) {
		at += 4;
		n = strcspn(at, " \n");
		snprintf(out, len, "%.*s", (int)n, at);
	} else {
		no_numbers(out, len, msg);
	}
}

#define PATH_WORDS "kernel path: "

/* a crash's words without a work build's "kernel path: ..." among them */
static void without_path(char *out, size_t len, const char *reason)
{
	const char *p = strstr(reason, PATH_WORDS), *end;
	size_t n;

	if (!p) {
		snprintf(out, len, "%s", reason);
		return;
	}
	end = strstr(p, "; ");
	n = (size_t)(p - reason);
	/* with the "; " before it, or the one after it when it comes first */
	if (n >= 2 && !strncmp(p - 2, "; ", 2))
		n -= 2;
	else if (end)
		end += 2;
	snprintf(out, len, "%.*s%s", (int)n, reason, end ? end : "");
}

cJSON *hunt_kernel_path(int check, const char *reason, const char *json)
{
	cJSON *root, *path = NULL, *name;
	const char *p, *end;
	char word[128];
	size_t n;

	if (check == HUNT_WARN && json && (root = cJSON_Parse(json))) {
		path = cJSON_DetachItemFromObject(cJSON_GetObjectItem(root,
			"kernel_warning_first"), "path");
		cJSON_Delete(root);
		if (cJSON_IsArray(path) && cJSON_GetArraySize(path))
			return path;
		cJSON_Delete(path);
		return NULL;
	}
	if (check != HUNT_CRASHED || !reason ||
	    !(p = strstr(reason, PATH_WORDS)) || !(path = cJSON_CreateArray()))
		return NULL;
	p += strlen(PATH_WORDS);
	end = p + strcspn(p, ";");
	while (p < end) {
		n = strcspn(p, " ;");
		if (n > (size_t)(end - p))
			n = (size_t)(end - p);
		if (n && strncmp(p, "<-", n)) {
			snprintf(word, sizeof(word), "%.*s", (int)n, p);
			if (!(name = cJSON_CreateString(word)))
				break;
			cJSON_AddItemToArray(path, name);
		}
		p += n;
		while (p < end && *p == ' ')
			p++;
	}
	if (!cJSON_GetArraySize(path)) {
		cJSON_Delete(path);
		return NULL;
	}
	return path;
}

static double num(const cJSON *o, const char *a, const char *b)
{
	const cJSON *x = cJSON_GetObjectItem(o, a);

	if (b)
		x = cJSON_GetObjectItem(x, b);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

static void mark(struct hunt_verdict *v, int check, const char *sig,
		 double magnitude, const char *detail)
{
	v->broken |= 1u << check;
	snprintf(v->signature_of[check], sizeof(v->signature_of[check]), "%s",
		 sig);
	if (check <= v->check)
		return;
	v->check = check;
	v->task[0] = '\0';
	snprintf(v->signature, sizeof(v->signature), "%s", sig);
	v->magnitude = magnitude;
	snprintf(v->detail, sizeof(v->detail), "%s", detail);
}

/* the task of @key's first violation, when that is @v's worst check */
static void first_task(struct hunt_verdict *v, const cJSON *inv,
		       const char *key)
{
	const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(
		cJSON_GetObjectItem(cJSON_GetObjectItem(inv, key), "first"),
		"task"));

	snprintf(v->task, sizeof(v->task), "%s", t ? t : "");
}

/* the lowest level of @t spanning CPUs @a and @b: "smt", "llc", ... */
static const char *level(const struct topology *t, int a, int b)
{
	const struct topology_cpu *x, *y;

	if (a < 0 || b < 0 || a >= t->nr_cpus || b >= t->nr_cpus)
		return "?";
	x = &t->cpu[a];
	y = &t->cpu[b];
	if (x->node != y->node)
		return "numa";
	if (x->package != y->package)
		return "package";
	if (x->cluster != y->cluster)
		return "llc";
	return x->core == y->core ? "smt" : "core";
}

int hunt_judge(struct hunt_verdict *v, int status, const char *reason,
	       const char *json, const struct topology *machine,
	       double idle_windows)
{
	char sig[160], text[150], d[320];
	const cJSON *inv, *first;
	cJSON *root;
	double n, w;

	memset(v, 0, sizeof(*v));
	snprintf(v->signature, sizeof(v->signature), "clean");
	if (status == STATUS_CRASHED || status == STATUS_HUNG) {
		without_path(d, sizeof(d), reason ? reason : "");
		no_numbers(text, sizeof(text), d);
		snprintf(sig, sizeof(sig), "%s:%s",
			 status == STATUS_HUNG ? "hang" : "crash", text);
		mark(v, status == STATUS_HUNG ? HUNT_HUNG : HUNT_CRASHED,
		     status == STATUS_HUNG ? "hang" : sig, 1,
		     reason ? reason : "");
		return 0;
	}
	root = json ? cJSON_Parse(json) : NULL;
	if (!root)
		return -1;
	inv = cJSON_GetObjectItem(root, "invariants");
	n = num(inv, "useless_migrations", "count");
	if (n > 0) {
		snprintf(d, sizeof(d), "%.0f useless migrations", n);
		mark(v, HUNT_USELESS, names[HUNT_USELESS], n, d);
		first_task(v, inv, "useless_migrations");
	}
	n = num(inv, "idle_while_waiting", "count");
	w = num(inv, "idle_while_waiting", "window_ns");
	if (n > 0 && num(inv, "idle_while_waiting", "time_ns") >= idle_windows * w) {
		snprintf(d, sizeof(d), "%.0f times an idle CPU beside a waiting task past %.3f ms, %.3f ms in all",
			 n, w / 1e6, num(inv, "idle_while_waiting", "time_ns") / 1e6);
		first = cJSON_GetObjectItem(cJSON_GetObjectItem(inv,
				"idle_while_waiting"), "first");
		snprintf(sig, sizeof(sig), "%s", names[HUNT_IDLE]);
		if (machine)
			snprintf(sig, sizeof(sig), "%s:%s", names[HUNT_IDLE],
				 level(machine, (int)num(first, "idle_cpu", NULL),
				       (int)num(first, "task_cpu", NULL)));
		mark(v, HUNT_IDLE, sig, n, d);
		first_task(v, inv, "idle_while_waiting");
	}
	n = num(inv, "starvation", "count");
	if (n > 0) {
		first = cJSON_GetObjectItem(cJSON_GetObjectItem(inv, "starvation"),
					    "first");
		snprintf(d, sizeof(d), "%.0f tasks not run for over %.0f ms (longest %.3f ms; first %s)",
			 n, num(inv, "starvation", "bound_ns") / 1e6,
			 num(inv, "starvation", "max_ns") / 1e6,
			 cJSON_GetStringValue(cJSON_GetObjectItem(first, "task")) ?: "?");
		mark(v, HUNT_STARVED, names[HUNT_STARVED], n, d);
		first_task(v, inv, "starvation");
	}
	n = num(root, "kernel_warnings", NULL);
	if (n > 0) {
		first = cJSON_GetObjectItem(root, "kernel_warning_first");
		warn_site(text, sizeof(text),
			  cJSON_GetStringValue(cJSON_GetObjectItem(first, "message")) ?: "");
		snprintf(sig, sizeof(sig), "warn:%s", text);
		snprintf(d, sizeof(d), "%.0f kernel WARNs, the first: %s", n,
			 cJSON_GetStringValue(cJSON_GetObjectItem(first, "message")) ?: "?");
		mark(v, HUNT_WARN, sig, n, d);
	}
	cJSON_Delete(root);
	return 0;
}

/*
 * The length of the definition's name in a task's that is one of many:
 * an instance ("t0-3": 2) or a forked child ("kid-f12": 3); 0 for a task
 * of its own. Which instance or which of a fork storm's children gets
 * which share is luck that any change of timing deals again: a
 * definition's tasks are compared as a whole, the busiest with the
 * busiest.
 */
static size_t one_of_many(const char *name)
{
	size_t n = strlen(name), i = n;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	if (i == n || i < 2)
		return 0;
	if (name[i - 1] == '-')
		return i - 1;
	return i >= 3 && name[i - 1] == 'f' && name[i - 2] == '-' ? i - 2 : 0;
}

struct member {
	double time;
	const char *name;
};

static int by_time_down(const void *x, const void *y)
{
	const struct member *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* the tasks of definition @t (@len bytes), busiest first */
static size_t members(const cJSON *r, const char *t, size_t len,
		       const char *field, struct member **out)
{
	const cJSON *k;
	size_t n = 0;

	*out = NULL;
	cJSON_ArrayForEach(k, cJSON_GetObjectItem(r, "tasks")) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(k, "name"));
		struct member *more;

		if (!name || one_of_many(name) != len || strncmp(name, t, len))
			continue;
		if (!(more = realloc(*out, (n + 1) * sizeof(**out))))
			break;
		*out = more;
		(*out)[n].time = num(k, field, NULL);
		(*out)[n++].name = name;
	}
	if (n)
		qsort(*out, n, sizeof(**out), by_time_down);
	return n;
}

/* a change of CPU time @x against @y past the tolerance, and 5 ms; or 0 */
static double time_change(double x, double y, double tolerance)
{
	double change = fabs(x - y) / fmax(fmax(x, y), 1);

	return fabs(x - y) > 5e6 && change > tolerance ? change : 0;
}

/*
 * The largest change of a task's CPU time between two results, or of the
 * work it did (@work: run_work_ns, the nanoseconds of run work at capacity
 * 1024, which the CPU's speed does not change); @other names the second
 * run in @d ("on the reference").
 */
static double cpu_time_change(const cJSON *a, const cJSON *b,
			      double tolerance, int work, const char *other,
			      char *d, size_t len, char *task, size_t tlen)
{
	const char *field = work ? "run_work_ns" : "sum_exec_ns";
	const char *verb = work ? "did the work of" : "ran";
	const cJSON *ta, *tb;
	double worst = 0, x, y, change;
	struct member *xs, *ys;
	const char *name;
	size_t k, i, nx, ny;

	cJSON_ArrayForEach(ta, cJSON_GetObjectItem(a, "tasks")) {
		name = cJSON_GetStringValue(cJSON_GetObjectItem(ta, "name"));
		if (!name)
			continue;
		if ((k = one_of_many(name))) {
			/* a definition's tasks, once: at its busiest */
			nx = members(a, name, k, field, &xs);
			if (nx && !strcmp(xs[0].name, name)) {
				ny = members(b, name, k, field, &ys);
				for (i = 0; i < (nx > ny ? nx : ny); i++) {
					x = i < nx ? xs[i].time : 0;
					y = i < ny ? ys[i].time : 0;
					change = time_change(x, y, tolerance);
					if (change <= worst)
						continue;
					worst = change;
					snprintf(d, len, "%.*s's tasks, the busiest first: number %zu of %zu %s %.3f ms against %.3f ms %s (of %zu)",
						 (int)k, name, i + 1, nx, verb,
						 x / 1e6, y / 1e6, other, ny);
					snprintf(task, tlen, "%s",
						 i < nx ? xs[i].name : name);
				}
				free(ys);
			}
			free(xs);
			continue;
		}
		cJSON_ArrayForEach(tb, cJSON_GetObjectItem(b, "tasks")) {
			const char *nb = cJSON_GetStringValue(
				cJSON_GetObjectItem(tb, "name"));

			if (!nb || strcmp(nb, name))
				continue;
			x = num(ta, field, NULL);
			y = num(tb, field, NULL);
			change = time_change(x, y, tolerance);
			if (change > worst) {
				worst = change;
				snprintf(d, len, "task %s %s %.3f ms against %.3f ms %s",
					 name, verb, x / 1e6, y / 1e6, other);
				snprintf(task, tlen, "%s", name);
			}
			break;
		}
	}
	return worst;
}

/* how much more energy the machine used than on the reference: 0 for less */
static double energy_change(const cJSON *a, const cJSON *b, char *d,
			    size_t len)
{
	double x = num(cJSON_GetObjectItem(a, "power"), "energy_j", NULL);
	double y = num(cJSON_GetObjectItem(b, "power"), "energy_j", NULL);

	snprintf(d, len, "the machine used %.6f J against %.6f J on the reference",
		 x, y);
	/* a machine without a power model uses next to nothing */
	return x - y < 0.01 ? 0 : (x - y) / x;
}

int hunt_differ(struct hunt_verdict *v, const struct hunt_verdict *ref,
		const char *json, const char *ref_json, double tolerance)
{
	struct hunt_verdict nv = { 0 };
	cJSON *a = json ? cJSON_Parse(json) : NULL;
	cJSON *b = ref_json ? cJSON_Parse(ref_json) : NULL;
	char d[320];
	double change;
	int check;

	/*
	 * The worst check broken here and not there; or the worst one, when
	 * it is a WARN at another site or another crash than there.
	 */
	for (check = HUNT_NR_CHECKS - 1; check > HUNT_CLEAN; check--) {
		if (!(v->broken & 1u << check))
			continue;
		if (check == v->check && (!(ref->broken & 1u << check) ||
		    (check >= HUNT_WARN && strcmp(v->signature, ref->signature)))) {
			nv = *v;
			break;
		}
		if (!(ref->broken & 1u << check)) {
			nv.check = check;
			snprintf(nv.signature, sizeof(nv.signature), "%s",
				 v->signature_of[check]);
			nv.magnitude = 1;
			snprintf(nv.detail, sizeof(nv.detail),
				 "%s, which the reference does not break",
				 v->signature_of[check]);
			break;
		}
	}
	if (nv.check < HUNT_CPU_TIME && a && b) {
		change = cpu_time_change(a, b, tolerance, 0, "on the reference",
					 d, sizeof(d), nv.task, sizeof(nv.task));
		if (change > 0) {
			nv.check = HUNT_CPU_TIME;
			snprintf(nv.signature, sizeof(nv.signature), "%s",
				 names[HUNT_CPU_TIME]);
			nv.magnitude = change;
			snprintf(nv.detail, sizeof(nv.detail), "%s", d);
		}
	}
	if (nv.check < HUNT_ENERGY && a && b) {
		change = energy_change(a, b, d, sizeof(d));
		if (change > tolerance) {	/* and 10 mJ: energy_change() */
			nv.check = HUNT_ENERGY;
			snprintf(nv.signature, sizeof(nv.signature), "%s",
				 names[HUNT_ENERGY]);
			nv.magnitude = change;
			snprintf(nv.detail, sizeof(nv.detail), "%s", d);
		}
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	nv.broken = v->broken & ~ref->broken;
	if (!nv.check)
		snprintf(nv.signature, sizeof(nv.signature), "clean");
	*v = nv;
	return v->check;
}

/* the work of all the tasks of results @r together */
static double total_work(const cJSON *r)
{
	const cJSON *t;
	double sum = 0;

	cJSON_ArrayForEach(t, cJSON_GetObjectItem(r, "tasks"))
		sum += num(t, "run_work_ns", NULL);
	return sum;
}

int hunt_oracle(struct hunt_verdict *v, int kind, const char *json,
		const char *variant_json, const struct hunt_verdict *variant,
		double tolerance)
{
	const char *with = hunt_oracle_with(kind);
	char sig[32], d[320], task[64] = "";
	double change, x, y;
	cJSON *a, *b;

	if (kind <= HUNT_ORACLE_NONE || kind >= HUNT_NR_ORACLES)
		return 0;
	snprintf(sig, sizeof(sig), "oracle:%s", hunt_oracle_name(kind));
	if (variant->check >= HUNT_HUNG) {
		snprintf(d, sizeof(d), "%s: %.260s", with, variant->detail);
		mark(v, HUNT_ORACLE, sig, 1, d);
		return 1;
	}
	a = json ? cJSON_Parse(json) : NULL;
	b = variant_json ? cJSON_Parse(variant_json) : NULL;
	if (!a || !b) {
		cJSON_Delete(a);
		cJSON_Delete(b);
		return -1;
	}
	if (kind == HUNT_ORACLE_WEIGHTS) {
		change = cpu_time_change(a, b, tolerance, 1, with, d,
					 sizeof(d), task, sizeof(task));
	} else {
		x = total_work(a);
		y = total_work(b);
		/* a machine with more cores may do more, never less */
		change = kind == HUNT_ORACLE_GROW && y >= x ? 0 :
			 time_change(x, y, tolerance);
		snprintf(d, sizeof(d), "the tasks did the work of %.3f ms together, %.3f ms %s",
			 x / 1e6, y / 1e6, with);
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	if (change <= 0)
		return 0;
	mark(v, HUNT_ORACLE, sig, change, d);
	if (v->check == HUNT_ORACLE)
		snprintf(v->task, sizeof(v->task), "%s", task);
	return 1;
}

const char *hunt_invariant_key(int check)
{
	static const char *const keys[HUNT_NR_CHECKS] = {
		[HUNT_USELESS] = "useless_migrations",
		[HUNT_IDLE] = "idle_while_waiting",
		[HUNT_STARVED] = "starvation",
	};

	return check >= 0 && check < HUNT_NR_CHECKS ? keys[check] : NULL;
}

char *hunt_first_violation(const char *json, int check)
{
	const char *key = hunt_invariant_key(check);
	cJSON *root;
	const cJSON *f;
	char *out = NULL;

	if (!key)
		return NULL;
	root = cJSON_Parse(json);
	f = cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(root, "invariants"), key), "first");
	if (f)
		out = cJSON_Print(f);
	cJSON_Delete(root);
	return out;
}

void hunt_signature_file(char *out, size_t len, const char *signature)
{
	size_t o = 0;

	for (; *signature && o + 1 < len; signature++) {
		unsigned char ch = (unsigned char)*signature;

		out[o++] = islower(ch) || isdigit(ch) || ch == '.' ||
			   ch == '-' ? (char)ch : isupper(ch) ?
			   (char)tolower(ch) : '_';
	}
	out[o] = '\0';
}
