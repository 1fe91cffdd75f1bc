// SPDX-License-Identifier: GPL-2.0-only
/*
 * bugs.c - the catalogue of real scheduler bugs: reading and checking its
 * entries, making each entry's buggy and fixed revisions, judging a
 * figure, and the signal drawn over time from a run's trace. A finding
 * (an entry with "finding" instead of "fix") has no upstream fix: its
 * edits take the upstream change it comes from out of the fixed side.
 */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "bugs/bugs.h"
#include "common/common.h"

void bugs_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
LSB_DEFINE_LAST_ERROR(bugs)

/* The keys an entry may have; anything else is a misspelling. */
static const char *const keys[] = {
	"fix", "finding", "source", "series", "summary", "files", "workload", "topology",
	"duration", "seed", "metric", "buggy_if", "threshold", "signal",
	"buggy", "fixed", "edits", "instrument", "cpuidle", "starvation",
};

/* The message of a revision the repository lacks, with the way to add it. */
static void missing(const struct bug *b, const char *side, const char *rev)
{
	bugs_set_error("%s: %s revision: %s%s%s%s", b->name, side,
		       bisect_last_error(),
		       rev[0] == 'v' ? " (a release: 'linsched kernels --versions " : "",
		       rev[0] == 'v' ? rev + 1 : "", rev[0] == 'v' ? "' adds it)" : "");
}

/* A string member @key of @o, copied; NULL (and an error) if it is not. */
static char *str_key(const cJSON *o, const char *key, const char *path,
		     const char *what, int *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v) || !*v->valuestring) {
		if (!*bad)
			bugs_set_error("%s: '%s': expected %s", path, key,
				       what);
		*bad = 1;
		return NULL;
	}
	return strdup(v->valuestring);
}

static int known_key(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return 1;
	return 0;
}

static void bug_release(struct bug *b)
{
	size_t i;

	free(b->name);
	free(b->fix_commit);
	free(b->fix_subject);
	free(b->source);
	free(b->series);
	free(b->summary);
	for (i = 0; i < b->nr_files; i++)
		free(b->files[i]);
	free(b->files);
	free(b->workload);
	free(b->topology);
	free(b->duration);
	free(b->metric);
	free(b->signal_task);
	free(b->instrument);
	free(b->cpuidle);
	free(b->starvation);
	free(b->buggy);
	free(b->fixed);
	for (i = 0; i < b->nr_edits; i++) {
		free((char *)b->edits[i].file);
		free((char *)b->edits[i].old);
		free((char *)b->edits[i].new);
	}
	free(b->edits);
	memset(b, 0, sizeof(*b));
}

static int parse_edits(struct bug *b, const cJSON *arr, const char *path)
{
	const cJSON *e;
	int bad = 0;
	size_t i = 0;

	if (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr)) {
		bugs_set_error("%s: 'edits': expected a list of {\"file\", \"old\", \"new\"}",
			       path);
		return -1;
	}
	b->nr_edits = (size_t)cJSON_GetArraySize(arr);
	b->edits = calloc(b->nr_edits, sizeof(*b->edits));
	if (!b->edits) {
		bugs_set_error("out of memory");
		return -1;
	}
	cJSON_ArrayForEach(e, arr) {
		char where[4200];
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "new");

		lsb_pathf(where, sizeof(where), "%s: edits[%zu]", path, i);
		b->edits[i].file = str_key(e, "file", where, "a file of the tree", &bad);
		b->edits[i].old = str_key(e, "old", where, "the text the edit replaces", &bad);
		if (!bad && !cJSON_IsString(n)) {
			bugs_set_error("%s: 'new': expected a string", where);
			bad = 1;
		}
		b->edits[i].new = bad ? NULL : strdup(n->valuestring);
		if (bad)
			return -1;
		i++;
	}
	return 0;
}

static int parse_signal(struct bug *b, const cJSON *s, const char *path)
{
	const cJSON *task = cJSON_GetObjectItemCaseSensitive(s, "task");
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(s, "cpu");
	const cJSON *work = cJSON_GetObjectItemCaseSensitive(s, "work");

	b->signal_cpu = -1;
	if (cJSON_IsString(work) && !task && !cpu &&
	    (!strcmp(work->valuestring, "sum") ||
	     !strcmp(work->valuestring, "max"))) {
		b->signal_work = !strcmp(work->valuestring, "sum") ?
				 BUG_WORK_SUM : BUG_WORK_MAX;
		if (!b->instrument || strcmp(b->instrument, "work")) {
			bugs_set_error("%s: 'signal': {\"work\": ...} needs \"instrument\": \"work\"",
				       path);
			return -1;
		}
		return 0;
	}
	if (cJSON_IsString(task) && *task->valuestring && !cpu && !work) {
		b->signal_task = strdup(task->valuestring);
		return 0;
	}
	if (cJSON_IsNumber(cpu) && !task && !work && cpu->valuedouble >= 0 &&
	    cpu->valuedouble < 4096 && cpu->valuedouble == (int)cpu->valuedouble) {
		b->signal_cpu = (int)cpu->valuedouble;
		return 0;
	}
	bugs_set_error("%s: 'signal': expected {\"task\": NAME}, {\"cpu\": N} or {\"work\": \"sum\"|\"max\"}",
		       path);
	return -1;
}

/*
 * Key @key's file name *@name, of entry @path, as the path of a file in
 * @dir/workloads (what @what says it may be): 0, or -1 with the error set.
 */
static int entry_file(char **name, const char *key, const char *what,
		      const char *path, const char *dir)
{
	char file[4200], *full;
	struct stat st;

	if (strchr(*name, '/')) {
		bugs_set_error("%s: '%s': expected %s in %s/workloads", path,
			       key, what, dir);
		return -1;
	}
	lsb_pathf(file, sizeof(file), "%s/workloads/%s", dir, *name);
	if (stat(file, &st) || !S_ISREG(st.st_mode)) {
		bugs_set_error("%s: '%s': no file %s", path, key, file);
		return -1;
	}
	full = strdup(file);
	if (!full) {
		bugs_set_error("out of memory");
		return -1;
	}
	free(*name);
	*name = full;
	return 0;
}

/* Read and check one entry; @dir holds it and its workloads/. */
static int bug_parse(struct bug *b, const char *dir, const char *file)
{
	char path[4200];
	const cJSON *fix, *v, *m;
	cJSON *o = NULL;
	char *text;
	size_t len, n;
	int bad = 0;

	memset(b, 0, sizeof(*b));
	b->signal_cpu = -1;
	lsb_pathf(path, sizeof(path), "%s/%s", dir, file);
	text = lsb_read_file(path, &len);
	if (!text) {
		bugs_set_error("%s: cannot read it", path);
		return -1;
	}
	o = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(o)) {
		bugs_set_error("%s: not a JSON object", path);
		goto fail;
	}
	cJSON_ArrayForEach(m, o)
		if (!known_key(m->string)) {
			bugs_set_error("%s: unknown key '%s'", path, m->string);
			goto fail;
		}
	b->name = strndup(file, strlen(file) - 5);
	/* a fix, or a finding: the upstream change the behaviour comes from */
	fix = cJSON_GetObjectItemCaseSensitive(o, "fix");
	v = cJSON_GetObjectItemCaseSensitive(o, "finding");
	if (fix && v) {
		bugs_set_error("%s: 'fix' and 'finding': expected one of them (a finding has no upstream fix)",
			       path);
		goto fail;
	}
	b->finding = v != NULL;
	if (v)
		fix = v;
	if (!cJSON_IsObject(fix)) {
		bugs_set_error("%s: '%s': expected {\"commit\", \"subject\"}%s", path,
			       b->finding ? "finding" : "fix",
			       b->finding ? " (the upstream change it comes from)" :
			       " (or 'finding': a behaviour with no upstream fix)");
		goto fail;
	}
	b->fix_commit = str_key(fix, "commit", path, b->finding ?
				"the change's commit id" : "the fix's commit id", &bad);
	b->fix_subject = str_key(fix, "subject", path, b->finding ?
				 "the change's subject" : "the fix's subject", &bad);
	b->source = str_key(o, "source", path, "where the bug is known from", &bad);
	b->series = str_key(o, "series", path, "a kernel series", &bad);
	b->summary = str_key(o, "summary", path, "a paragraph", &bad);
	b->workload = str_key(o, "workload", path, "a file in workloads/", &bad);
	b->topology = str_key(o, "topology", path, "a topology", &bad);
	b->duration = str_key(o, "duration", path, "a time (\"5s\")", &bad);
	b->metric = str_key(o, "metric", path, "a figure of the results", &bad);
	b->buggy = str_key(o, "buggy", path, "a revision", &bad);
	b->fixed = str_key(o, "fixed", path, "a revision", &bad);
	if (bad)
		goto fail;
	v = cJSON_GetObjectItemCaseSensitive(o, "files");
	if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v)) {
		bugs_set_error("%s: 'files': expected a list of kernel files", path);
		goto fail;
	}
	b->files = calloc((size_t)cJSON_GetArraySize(v), sizeof(char *));
	if (!b->files) {
		bugs_set_error("out of memory");
		goto fail;
	}
	cJSON_ArrayForEach(m, v) {
		if (!cJSON_IsString(m)) {
			bugs_set_error("%s: 'files': expected strings", path);
			goto fail;
		}
		b->files[b->nr_files++] = strdup(m->valuestring);
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "seed");
	if (!v)
		b->seed = 1;
	else if (cJSON_IsNumber(v) && v->valuedouble >= 0 &&
		 v->valuedouble < 1e15 && v->valuedouble == floor(v->valuedouble))
		b->seed = (unsigned long long)v->valuedouble;
	else {
		bugs_set_error("%s: 'seed': expected a whole number", path);
		goto fail;
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "buggy_if");
	if (!cJSON_IsString(v) || (strcmp(v->valuestring, "above") &&
				   strcmp(v->valuestring, "below"))) {
		bugs_set_error("%s: 'buggy_if': expected \"above\" or \"below\" (the threshold)",
			       path);
		goto fail;
	}
	b->buggy_above = !strcmp(v->valuestring, "above");
	v = cJSON_GetObjectItemCaseSensitive(o, "threshold");
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
		bugs_set_error("%s: 'threshold': expected a number", path);
		goto fail;
	}
	b->threshold = v->valuedouble;
	v = cJSON_GetObjectItemCaseSensitive(o, "instrument");
	if (v && (!cJSON_IsString(v) || strcmp(v->valuestring, "work"))) {
		bugs_set_error("%s: 'instrument': expected \"work\" (the kernel's work counted), or no key",
			       path);
		goto fail;
	}
	if (v && !(b->instrument = strdup(v->valuestring))) {
		bugs_set_error("out of memory");
		goto fail;
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "cpuidle");
	if (v && (!cJSON_IsString(v) ||
		  (strcmp(v->valuestring, "menu") && strcmp(v->valuestring, "teo") &&
		   strcmp(v->valuestring, "ladder")))) {
		bugs_set_error("%s: 'cpuidle': expected the revision's governor, \"menu\", \"teo\" or \"ladder\", or no key (its default)",
			       path);
		goto fail;
	}
	if (v && !(b->cpuidle = strdup(v->valuestring))) {
		bugs_set_error("out of memory");
		goto fail;
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "starvation");
	if (v && (!cJSON_IsString(v) || !*v->valuestring)) {
		bugs_set_error("%s: 'starvation': expected the starvation invariant's bound, a time (\"200ms\"), or no key (the simulator's 1s)",
			       path);
		goto fail;
	}
	if (v && !(b->starvation = strdup(v->valuestring))) {
		bugs_set_error("out of memory");
		goto fail;
	}
	if (parse_signal(b, cJSON_GetObjectItemCaseSensitive(o, "signal"), path))
		goto fail;
	v = cJSON_GetObjectItemCaseSensitive(o, "edits");
	if (v && parse_edits(b, v, path))
		goto fail;
	if (!v && !strcmp(b->buggy, b->fixed)) {
		bugs_set_error("%s: 'buggy' and 'fixed' are the same revision and there are no 'edits'",
			       path);
		goto fail;
	}
	/*
	 * The workload beside the entries, checked now; so is a machine of
	 * the entry's own (NAME.json): a preset or a shape has no ".json"
	 */
	if (entry_file(&b->workload, "workload", "a file name", path, dir))
		goto fail;
	n = strlen(b->topology);
	if (n > 5 && !strcmp(b->topology + n - 5, ".json") &&
	    entry_file(&b->topology, "topology",
		       "a preset, a shape or a file name", path, dir))
		goto fail;
	cJSON_Delete(o);
	return 0;
fail:
	cJSON_Delete(o);
	bug_release(b);
	return -1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct bug *)a)->name,
		      ((const struct bug *)b)->name);
}

int bugs_load(const char *dir, struct bug **out, size_t *n)
{
	struct bug *v = NULL;
	size_t cap = 0, k = 0, len;
	struct dirent *d;
	DIR *dh;

	*out = NULL;
	*n = 0;
	dh = opendir(dir);
	if (!dh) {
		bugs_set_error("cannot read the catalogue '%s'", dir);
		return -1;
	}
	while ((d = readdir(dh))) {
		len = strlen(d->d_name);
		if (len <= 5 || strcmp(d->d_name + len - 5, ".json") ||
		    d->d_name[0] == '.')
			continue;
		if (lsb_grow(&v, &cap, k + 1, sizeof(*v)))
			bugs_set_error("out of memory");
		else if (!bug_parse(&v[k], dir, d->d_name)) {
			k++;
			continue;
		}
		closedir(dh);
		bugs_free(v, k);
		return -1;
	}
	closedir(dh);
	if (k)
		qsort(v, k, sizeof(*v), by_name);
	*out = v;
	*n = k;
	return 0;
}

void bugs_free(struct bug *bugs, size_t n)
{
	size_t i;

	for (i = 0; bugs && i < n; i++)
		bug_release(&bugs[i]);
	free(bugs);
}

const struct bug *bug_find(const struct bug *bugs, size_t n,
			   const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(bugs[i].name, name))
			return &bugs[i];
	return NULL;
}

int bug_revisions(const struct bug *b, bisect_repo *r, char buggy_hex[41],
		  char fixed_hex[41])
{
	/*
	 * One side is always a revision as it is (the fixed one; a finding's
	 * buggy one); the other is one too, or the revision its edits are
	 * made on (the bug put back; a finding's change taken out).
	 */
	const char *asis = b->finding ? b->buggy : b->fixed;
	const char *base = b->finding ? b->fixed : b->buggy;
	char *asis_hex = b->finding ? buggy_hex : fixed_hex;
	char *base_hex = b->finding ? fixed_hex : buggy_hex;
	char ref[512], *msg;
	size_t len;

	if (bisect_resolve(r, asis, asis_hex)) {
		missing(b, b->finding ? "buggy" : "fixed", asis);
		return -1;
	}
	if (!b->nr_edits) {
		if (bisect_resolve(r, base, base_hex)) {
			missing(b, b->finding ? "fixed" : "buggy", base);
			return -1;
		}
		return 0;
	}
	len = strlen(b->name) + strlen(b->fix_subject) + strlen(base) + 256;
	msg = malloc(len);
	if (!msg) {
		bugs_set_error("out of memory");
		return -1;
	}
	if (b->finding)
		snprintf(msg, len,
			 "%s: take out upstream %s\n\n"
			 "Reverts \"%s\"\n"
			 "in %s, as lsbisect's catalogue of findings describes, to\n"
			 "show the kernel without it in the simulator.\n",
			 b->name, b->fix_commit, b->fix_subject, base);
	else
		snprintf(msg, len,
			 "%s: put back the bug that upstream %s fixed\n\n"
			 "Reverts the effect of \"%s\" in %s, as lsbisect's catalogue\n"
			 "of bugs describes, to show it in the simulator.\n",
			 b->name, b->fix_commit, b->fix_subject, base);
	lsb_pathf(ref, sizeof(ref), "refs/lsbisect/bugs/%s", b->name);
	if (bisect_commit_edits(r, base, b->edits, b->nr_edits, msg, ref,
				base_hex)) {
		bugs_set_error("%s: %s", b->name, bisect_last_error());
		free(msg);
		return -1;
	}
	free(msg);
	return 0;
}

int bug_is_buggy(const struct bug *b, double value)
{
	return b->buggy_above ? value > b->threshold : value < b->threshold;
}

/* Add the interval [@s, @e) to the windows of @out. */
static void credit(double *out, size_t bins, unsigned long long end,
		   unsigned long long s, unsigned long long e)
{
	double width = (double)end / (double)bins;
	size_t i;

	if (e > end)
		e = end;
	while (s < e) {
		unsigned long long w_end;

		i = (size_t)((double)s / width);
		if (i >= bins)
			break;
		w_end = (unsigned long long)ceil((double)(i + 1) * width);
		if (w_end <= s)
			w_end = s + 1;
		if (w_end > e)
			w_end = e;
		out[i] += (double)(w_end - s) / width;
		s = w_end;
	}
}

struct on_cpu {
	unsigned long long since;
	int counts;
};

/* The kernel's work per window: every line's calls, or the worst. */
static void work_signal(const struct bug *b, FILE *f,
			unsigned long long end_us, size_t bins, double *out)
{
	static const char tag[] = "lsb_kernel_work: ";
	char line[1024];
	const char *ev, *calls;
	uint64_t t;
	double n;
	size_t i;
	int cpu;

	while (fgets(line, sizeof(line), f)) {
		if (lsb_trace_line(line, &cpu, &t, &ev) ||
		    strncmp(ev, tag, sizeof(tag) - 1) ||
		    !(calls = strstr(ev, "calls=")) || t >= end_us)
			continue;
		/* the task's own run is no interrupt */
		if (b->signal_work == BUG_WORK_MAX &&
		    !strncmp(ev + sizeof(tag) - 1, "task ", 5))
			continue;
		n = strtod(calls + 6, NULL);
		i = (size_t)((double)t * (double)bins / (double)end_us);
		if (b->signal_work == BUG_WORK_SUM)
			out[i] += n;
		else if (n > out[i])
			out[i] = n;
	}
}

int bug_signal(const struct bug *b, const char *trace, unsigned long long end_us,
	       size_t bins, double *out)
{
	struct on_cpu *now = NULL;
	size_t cap = 0, i;
	char line[1024], comm[64];
	const char *ev;
	uint64_t t;
	int cpu, pid, counts;
	FILE *f;

	memset(out, 0, bins * sizeof(*out));
	if (!end_us || !bins) {
		bugs_set_error("%s: an empty run", trace);
		return -1;
	}
	f = fopen(trace, "r");
	if (!f) {
		bugs_set_error("cannot read the trace '%s'", trace);
		return -1;
	}
	if (b->signal_work) {
		work_signal(b, f, end_us, bins, out);
		fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (lsb_trace_line(line, &cpu, &t, &ev) || cpu < 0 ||
		    cpu >= 4096 ||
		    lsb_trace_switch(ev, comm, sizeof(comm), &pid))
			continue;
		/* new entries come zeroed: nothing counted on them yet */
		if (lsb_grow(&now, &cap, (size_t)cpu + 1, sizeof(*now))) {
			fclose(f);
			free(now);
			bugs_set_error("out of memory");
			return -1;
		}
		if (now[cpu].counts)
			credit(out, bins, end_us, now[cpu].since, t);
		counts = b->signal_task ?
			 !strncmp(comm, b->signal_task, strlen(b->signal_task)) :
			 cpu == b->signal_cpu && pid != 0;
		now[cpu] = (struct on_cpu){ t, counts };
	}
	fclose(f);
	for (i = 0; i < cap; i++)
		if (now[i].counts)
			credit(out, bins, end_us, now[i].since, end_us);
	free(now);
	return 0;
}
