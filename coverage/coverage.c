// SPDX-License-Identifier: GPL-2.0-only
/*
 * coverage.c - gcov's JSON read, summed per source file and per function,
 * and the functions no run reached, ranked; the figures as JSON and text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include "coverage/coverage.h"
#include "coverage/coverage_internal.h"

LSB_DEFINE_LAST_ERROR(coverage)

/* One source line with code, and how often it ran. */
struct coverage_line {
	size_t file;
	int line;
	unsigned long long count;
};

void coverage_init(struct coverage *c)
{
	memset(c, 0, sizeof(*c));
}

void coverage_release(struct coverage *c)
{
	size_t i;

	for (i = 0; i < c->nr_files; i++)
		free(c->files[i].name);
	for (i = 0; i < c->nr_funcs; i++)
		free(c->funcs[i].name);
	free(c->files);
	free(c->funcs);
	free(c->lines);
	coverage_init(c);
}

double coverage_percent(long executed, long lines)
{
	/* rounded half up, in integers: no libm */
	if (lines <= 0)
		return 0;
	return (double)((executed * 20000LL + lines) / (2LL * lines)) / 100;
}

/*
 * The name in the tree of a gcov file name, when it is a C file directly
 * in @subdir ("/x/src/kernel/sched/fair.c" → "kernel/sched/fair.c"), into
 * @out; else 0.
 */
static int tree_name(const char *path, const char *subdir, char *out,
		     size_t len)
{
	size_t sl = strlen(subdir), pl = strlen(path);
	const char *base = strrchr(path, '/'), *dir;

	if (!base || pl < 3 || strcmp(path + pl - 2, ".c") || base[1] == '.')
		return 0;
	dir = base - sl;
	if (dir < path || strncmp(dir, subdir, sl) ||
	    (dir > path && dir[-1] != '/'))
		return 0;
	return snprintf(out, len, "%s%s", subdir, base) < (int)len;
}

/* The index of file @name, added if new; -1 when out of memory. */
static long file_index(struct coverage *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr_files; i++)
		if (!strcmp(c->files[i].name, name))
			return (long)i;
	if (LSB_GROW(c->files, c->nr_files + 1, c->cap_files))
		return -1;
	c->files[c->nr_files].name = strdup(name);
	if (!c->files[c->nr_files].name)
		return -1;
	return (long)c->nr_files++;
}

/* A number member @key of @o, as gcov writes it: a whole, >= 0. */
static int number(const cJSON *o, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
	    v->valuedouble >= 1.8e19 ||
	    v->valuedouble != (double)(unsigned long long)v->valuedouble)
		return -1;
	*out = v->valuedouble;
	return 0;
}

static int add_lines(struct coverage *c, size_t file, const cJSON *lines,
		     const char *path)
{
	const cJSON *l;
	double line, count;

	cJSON_ArrayForEach(l, lines) {
		if (number(l, "line_number", &line) ||
		    number(l, "count", &count) || line < 1 || line > 1e9) {
			coverage_set_error("gcov's JSON: file '%s': a line without a line_number and count",
					   path);
			return -1;
		}
		if (LSB_GROW(c->lines, c->nr_lines + 1, c->cap_lines))
			goto nomem;
		c->lines[c->nr_lines++] = (struct coverage_line){
			.file = file, .line = (int)line,
			.count = (unsigned long long)count };
	}
	return 0;
nomem:
	coverage_set_error("out of memory");
	return -1;
}

static int add_functions(struct coverage *c, size_t file,
			 const cJSON *funcs, const char *path)
{
	const cJSON *f;
	double start, end, calls;
	const char *name;

	cJSON_ArrayForEach(f, funcs) {
		name = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(f, "name"));
		if (!name || number(f, "start_line", &start) ||
		    number(f, "end_line", &end) ||
		    number(f, "execution_count", &calls) || start > 1e9 ||
		    end > 1e9) {
			coverage_set_error("gcov's JSON: file '%s': a function without a name, start_line, end_line and execution_count",
					   path);
			return -1;
		}
		if (LSB_GROW(c->funcs, c->nr_funcs + 1, c->cap_funcs))
			goto nomem;
		c->funcs[c->nr_funcs] = (struct coverage_function){
			.name = strdup(name), .file = file, .start = (int)start,
			.end = (int)end, .calls = (unsigned long long)calls };
		if (!c->funcs[c->nr_funcs++].name)
			goto nomem;
	}
	return 0;
nomem:
	coverage_set_error("out of memory");
	return -1;
}

int coverage_add_gcov_json(struct coverage *c, const char *json,
			   const char *subdir)
{
	cJSON *root = cJSON_Parse(json), *f;
	const char *path;
	char name[1024];
	long file;
	int ret = -1;

	f = cJSON_GetObjectItemCaseSensitive(root, "files");
	if (!cJSON_IsArray(f)) {
		coverage_set_error("gcov's JSON: %s", root ?
				   "no \"files\" array" : "does not parse");
		goto out;
	}
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(root, "files")) {
		path = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(f, "file"));
		if (!path) {
			coverage_set_error("gcov's JSON: a file without its \"file\" name");
			goto out;
		}
		if (!tree_name(path, subdir, name, sizeof(name)))
			continue;
		file = file_index(c, name);
		if (file < 0) {
			coverage_set_error("out of memory");
			goto out;
		}
		if (add_lines(c, (size_t)file,
			      cJSON_GetObjectItemCaseSensitive(f, "lines"), path) ||
		    add_functions(c, (size_t)file,
				  cJSON_GetObjectItemCaseSensitive(f, "functions"),
				  path))
			goto out;
	}
	ret = 0;
out:
	cJSON_Delete(root);
	return ret;
}

static int cmp_line(const void *a, const void *b)
{
	const struct coverage_line *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int cmp_func(const void *a, const void *b)
{
	const struct coverage_function *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct file_order {
	const char *name;
	size_t old;
};

static int cmp_order(const void *a, const void *b)
{
	return strcmp(((const struct file_order *)a)->name,
		      ((const struct file_order *)b)->name);
}

/* The files sorted by name, the lines' and functions' indexes with them. */
static int sort_files(struct coverage *c)
{
	struct file_order *o = calloc(c->nr_files + 1, sizeof(*o));
	size_t *to = calloc(c->nr_files + 1, sizeof(*to)), i;
	struct coverage_file *sorted = calloc(c->nr_files + 1, sizeof(*sorted));

	if (!o || !to || !sorted) {
		free(o);
		free(to);
		free(sorted);
		coverage_set_error("out of memory");
		return -1;
	}
	for (i = 0; i < c->nr_files; i++)
		o[i] = (struct file_order){ c->files[i].name, i };
	qsort(o, c->nr_files, sizeof(*o), cmp_order);
	for (i = 0; i < c->nr_files; i++) {
		to[o[i].old] = i;
		sorted[i] = c->files[o[i].old];
	}
	for (i = 0; i < c->nr_lines; i++)
		c->lines[i].file = to[c->lines[i].file];
	for (i = 0; i < c->nr_funcs; i++)
		c->funcs[i].file = to[c->funcs[i].file];
	free(c->files);
	c->files = sorted;
	c->cap_files = c->nr_files + 1;
	free(o);
	free(to);
	return 0;
}

/* One record per (file, line), counts summed; each file's figures. */
static void sum_lines(struct coverage *c)
{
	size_t i, n = 0;

	qsort(c->lines, c->nr_lines, sizeof(*c->lines), cmp_line);
	for (i = 0; i < c->nr_lines; i++) {
		if (n && !cmp_line(&c->lines[n - 1], &c->lines[i]))
			c->lines[n - 1].count += c->lines[i].count;
		else
			c->lines[n++] = c->lines[i];
	}
	c->nr_lines = n;
	for (i = 0; i < c->nr_files; i++)
		c->files[i].lines = c->files[i].executed = 0;
	for (i = 0; i < n; i++) {
		c->files[c->lines[i].file].lines++;
		c->files[c->lines[i].file].executed += c->lines[i].count > 0;
	}
}

/* The first line record of @file at or after @line. */
static size_t line_at(const struct coverage *c, size_t file, int line)
{
	struct coverage_line key = { .file = file, .line = line };
	size_t lo = 0, hi = c->nr_lines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_line(&c->lines[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One record per function, calls summed; the lines of each. */
static void sum_functions(struct coverage *c)
{
	struct coverage_function *f;
	size_t i, k, n = 0;

	qsort(c->funcs, c->nr_funcs, sizeof(*c->funcs), cmp_func);
	for (i = 0; i < c->nr_funcs; i++) {
		f = &c->funcs[i];
		if (n && !cmp_func(&c->funcs[n - 1], f)) {
			c->funcs[n - 1].calls += f->calls;
			if (f->end > c->funcs[n - 1].end)
				c->funcs[n - 1].end = f->end;
			free(f->name);
		} else {
			c->funcs[n++] = *f;
		}
	}
	c->nr_funcs = n;
	for (i = 0; i < n; i++) {
		f = &c->funcs[i];
		f->lines = f->executed = 0;
		for (k = line_at(c, f->file, f->start);
		     k < c->nr_lines && c->lines[k].file == f->file &&
		     c->lines[k].line <= f->end; k++) {
			f->lines++;
			f->executed += c->lines[k].count > 0;
		}
	}
}

int coverage_finish(struct coverage *c)
{
	if (sort_files(c))
		return -1;
	sum_lines(c);
	sum_functions(c);
	return 0;
}

long coverage_find_file(const struct coverage *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr_files; i++)
		if (!strcmp(c->files[i].name, name))
			return (long)i;
	return -1;
}

struct rank {
	long lines;
	int start;
	size_t func;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	if (x->lines != y->lines)
		return x->lines > y->lines ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->func > y->func) - (x->func < y->func);
}

size_t coverage_unreached(const struct coverage *c, size_t file,
			  size_t *out, size_t max)
{
	struct rank *r = calloc(c->nr_funcs + 1, sizeof(*r));
	size_t i, n = 0;

	if (!r)
		return 0;
	for (i = 0; i < c->nr_funcs; i++)
		if (c->funcs[i].file == file && c->funcs[i].lines &&
		    !c->funcs[i].executed)
			r[n++] = (struct rank){ c->funcs[i].lines,
						c->funcs[i].start, i };
	qsort(r, n, sizeof(*r), cmp_rank);
	if (n > max)
		n = max;
	for (i = 0; i < n; i++)
		out[i] = r[i].func;
	free(r);
	return n;
}

static void figures_json(cJSON *o, long lines, long executed)
{
	cJSON_AddNumberToObject(o, "lines", (double)lines);
	cJSON_AddNumberToObject(o, "executed", (double)executed);
	cJSON_AddNumberToObject(o, "percent", coverage_percent(executed, lines));
}

static cJSON *function_json(const struct coverage *c, size_t i, int full)
{
	const struct coverage_function *f = &c->funcs[i];
	cJSON *o = cJSON_CreateObject();

	if (full)
		cJSON_AddStringToObject(o, "file", c->files[f->file].name);
	cJSON_AddStringToObject(o, "function", f->name);
	cJSON_AddNumberToObject(o, "start_line", f->start);
	cJSON_AddNumberToObject(o, "end_line", f->end);
	cJSON_AddNumberToObject(o, "lines", (double)f->lines);
	if (full) {
		cJSON_AddNumberToObject(o, "executed", (double)f->executed);
		cJSON_AddNumberToObject(o, "calls", (double)f->calls);
	}
	return o;
}

cJSON *coverage_to_json(const struct coverage *c, size_t top, cJSON *root)
{
	size_t *idx = calloc(top + 1, sizeof(*idx)), i, k, n;
	cJSON *made = root ? NULL : cJSON_CreateObject(), *files, *o, *un, *list;
	long lines = 0, executed = 0;

	root = root ? root : made;
	if (!root || !idx) {
		cJSON_Delete(made);
		free(idx);
		return NULL;
	}
	files = cJSON_AddArrayToObject(root, "files");
	for (i = 0; i < c->nr_files; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "file", c->files[i].name);
		figures_json(o, c->files[i].lines, c->files[i].executed);
		cJSON_AddItemToArray(files, o);
		lines += c->files[i].lines;
		executed += c->files[i].executed;
	}
	figures_json(cJSON_AddObjectToObject(root, "total"), lines, executed);
	un = cJSON_AddObjectToObject(root, "unreached");
	for (i = 0; i < c->nr_files; i++) {
		n = coverage_unreached(c, i, idx, top);
		list = cJSON_AddArrayToObject(un, c->files[i].name);
		for (k = 0; k < n; k++)
			cJSON_AddItemToArray(list, function_json(c, idx[k], 0));
	}
	list = cJSON_AddArrayToObject(root, "functions");
	for (i = 0; i < c->nr_funcs; i++)
		cJSON_AddItemToArray(list, function_json(c, i, 1));
	free(idx);
	return root;
}

/* A growing text. */
struct text {
	char *buf;
	size_t len, cap;
	int failed;
};

static void __attribute__((format(printf, 2, 3)))
add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->failed || n < 0 || LSB_GROW(t->buf, t->len + n + 1, t->cap)) {
		t->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, n + 1, fmt, ap);
	va_end(ap);
	t->len += n;
}

static void unreached_text(struct text *t, const struct coverage *c,
			   const char *name, size_t *idx, size_t top)
{
	long file = coverage_find_file(c, name);
	const struct coverage_function *f;
	size_t k, n;

	if (file < 0) {
		add(t, "\n%s: not in these objects\n", name);
		return;
	}
	n = coverage_unreached(c, (size_t)file, idx, top);
	add(t, "\nthe %zu biggest functions of %s no run reached:\n", n, name);
	add(t, "  %5s  %-40s %s\n", "lines", "function", "at");
	for (k = 0; k < n; k++) {
		f = &c->funcs[idx[k]];
		add(t, "  %5ld  %-40s %s:%d-%d\n", f->lines, f->name,
		    strrchr(name, '/') ? strrchr(name, '/') + 1 : name,
		    f->start, f->end);
	}
}

char *coverage_to_text(const struct coverage *c, const char *const *files,
		       size_t nr_files, size_t top)
{
	struct text t = { 0 };
	size_t *idx = calloc(top + 1, sizeof(*idx)), i;
	long lines = 0, executed = 0;

	if (!idx)
		return NULL;
	add(&t, "%-32s %7s %9s %7s\n", "file", "lines", "executed", "%");
	for (i = 0; i < c->nr_files; i++) {
		const struct coverage_file *f = &c->files[i];

		add(&t, "%-32s %7ld %9ld %7.2f\n", f->name, f->lines,
		    f->executed, coverage_percent(f->executed, f->lines));
		lines += f->lines;
		executed += f->executed;
	}
	add(&t, "%-32s %7ld %9ld %7.2f\n", "total", lines, executed,
	    coverage_percent(executed, lines));
	for (i = 0; i < nr_files; i++)
		unreached_text(&t, c, files[i], idx, top);
	free(idx);
	if (t.failed) {
		free(t.buf);
		return NULL;
	}
	return t.buf;
}
