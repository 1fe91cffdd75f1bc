// SPDX-License-Identifier: GPL-2.0-only
/*
 * reuse.c - a build made from a neighbour's (the donor's) objects.
 *
 * kbuild writes, for every target, the command that made it and every file
 * it read (o/.../.TARGET.cmd, fixdep's output). A revision that differs
 * from the donor in files no target read is the donor's build: its key
 * becomes a symbolic link to it. One that differs only in files that
 * linked objects read gets the donor's o/ (checked against the ids the
 * donor recorded), those objects compiled again with kbuild's own
 * commands, and a new link. Anything else - a Makefile, a Kconfig file,
 * scripts/, a file a generated header read - is kbuild's to decide: the
 * donor's o/ with the paths its records name made the new build's, the
 * changed files written afresh, allnoconfig again if the configuration's
 * inputs changed, then make, as after a "git checkout". The sources are a
 * tree of symbolic links into the donor's, with the changed files
 * pointing at their blobs (or, for kbuild, copies of them).
 *
 * cache/builds/KEY/reuse    "commit ID\nsubset ID\ntoolchain ID\n"
 * cache/builds/KEY/objects  "BLOBID PATH\n" for every linked object
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "adapters/adapters_internal.h"
#include "common/common.h"

/* ---- kbuild's .cmd files ---- */

struct target {
	char *name;	/* relative to o/ */
	char *cmd;	/* as saved: make's escapes, the maker's paths */
	char *prefix;	/* the maker's build directory, "" if none */
	char **deps;	/* relative to src/ */
	size_t n_deps, cap;
	int linked, redo;
};

struct targets {
	struct target *v;
	size_t n, cap;
	int err;
};

static struct targets *walking;

/*
 * The part of an absolute path below a build's src/: builds are made in
 * ".../builds/KEY.tmp.PID/src/", so the path has a "/src/" after a
 * component of 40 hex digits.
 */
static const char *below_src(const char *path)
{
	const char *p = path;

	while ((p = strstr(p, "/src/"))) {
		const char *c = p;
		int hex = 0;

		while (c > path && c[-1] != '/')
			c--;
		while (hex < 40 && strchr("0123456789abcdef", c[hex]))
			hex++;
		if (hex == 40 && (c[40] == '/' || c[40] == '.'))
			return p + 5;
		p++;
	}
	return NULL;
}

static int add_dep(struct target *t, const char *rel)
{
	if (LSB_GROW(t->deps, t->n_deps + 1, t->cap))
		return -1;
	t->deps[t->n_deps] = strdup(rel);
	return t->deps[t->n_deps++] ? 0 : -1;
}

static void target_release(struct target *t)
{
	size_t j;

	for (j = 0; j < t->n_deps; j++)
		free(t->deps[j]);
	free(t->deps);
	free(t->name);
	free(t->cmd);
	free(t->prefix);
	memset(t, 0, sizeof(*t));
}

static void targets_free(struct targets *ts)
{
	size_t i;

	for (i = 0; i < ts->n; i++)
		target_release(&ts->v[i]);
	free(ts->v);
	memset(ts, 0, sizeof(*ts));
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One .cmd file: its saved command, source and dependencies. */
static int parse_cmd(struct targets *ts, const char *path)
{
	char *text = lsb_read_file(path, NULL), *line, *save = NULL;
	struct target t = { 0 };
	int in_deps = 0, ret = -1;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);
		int more = len && line[len - 1] == '\\';
		char *eq = strstr(line, " := ");

		if (in_deps) {
			char *tok = line + strspn(line, " \t");
			const char *rel;

			tok[strcspn(tok, " \t\\")] = '\0';
			rel = *tok == '/' ? below_src(tok) : NULL;
			if (rel && add_dep(&t, rel))
				goto out;
			in_deps = more;
		} else if (eq && !t.cmd && (!strncmp(line, "savedcmd_", 9) ||
					    !strncmp(line, "cmd_", 4))) {
			*eq = '\0';
			t.name = strdup(strchr(line, '_') + 1);
			t.cmd = strdup(eq + 4);
			if (!t.name || !t.cmd)
				goto out;
		} else if (eq && !t.prefix && !strncmp(line, "source_", 7)) {
			const char *src = eq + 4, *rel = below_src(src);

			t.prefix = rel ? strndup(src, (size_t)(rel - src) - 5) :
					 strdup("");
			if (!t.prefix || (rel && add_dep(&t, rel)))
				goto out;
		} else if (eq && !strncmp(line, "deps_", 5)) {
			in_deps = more;
		}
	}
	ret = 0;
	if (t.name && t.cmd) {
		if (!t.prefix && !(t.prefix = strdup("")))
			ret = -1;
		else if (LSB_GROW(ts->v, ts->n + 1, ts->cap))
			ret = -1;
		else {
			t.linked = adapter_is_linked(t.name);
			/* sorted, for reads()' binary search */
			if (t.n_deps)
				qsort(t.deps, t.n_deps, sizeof(*t.deps),
				      cmp_path);
			ts->v[ts->n++] = t;
			memset(&t, 0, sizeof(t));
		}
	}
out:
	target_release(&t);
	free(text);
	return ret;
}

static int walk_cb(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t len = strlen(base);

	(void)st;
	if (type != FTW_F || base[0] != '.' || len < 5 ||
	    strcmp(base + len - 4, ".cmd"))
		return 0;
	if (parse_cmd(walking, path)) {
		walking->err = -1;
		return 1;
	}
	return 0;
}

/* Every target of a build's o/ with its command and what it read. */
static int targets_read(struct targets *ts, const char *o)
{
	memset(ts, 0, sizeof(*ts));
	walking = ts;
	if (nftw(o, walk_cb, 16, FTW_PHYS) || ts->err) {
		targets_free(ts);
		adapter_set_error("cannot read kbuild's records in '%s'", o);
		return -1;
	}
	return 0;
}

/* ---- the record a later build starts from ---- */

static int hash_object(const char *path, char id[41])
{
	size_t len;
	char *data = lsb_read_file(path, &len);
	int ret;

	if (!data)
		return -1;
	ret = lsb_blob_id(data, len, id);
	free(data);
	return ret;
}

int adapter_reuse_record(const struct adapter_env *env, const char *dir,
			 const char *commit, const char *subset_hash)
{
	char o[4200], path[4400], tool[41], id[41];
	struct targets ts;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;
	int ret = ADAPTER_EIO;

	if (!commit || !*commit)
		return 0;	/* nothing to diff a later revision against */
	if (adapter_toolchain(env, tool))
		return ADAPTER_EIO;
	lsb_pathf(o, sizeof(o), "%s/o", dir);
	if (targets_read(&ts, o))
		return ADAPTER_EIO;
	f = open_memstream(&buf, &len);
	if (!f)
		goto out;
	for (i = 0; i < ts.n; i++) {
		if (!ts.v[i].linked)
			continue;
		lsb_pathf(path, sizeof(path), "%s/%s", o, ts.v[i].name);
		if (hash_object(path, id)) {
			fclose(f);
			adapter_set_error("cannot read '%s'", path);
			goto out;
		}
		fprintf(f, "%s %s\n", id, ts.v[i].name);
	}
	if (fclose(f))
		goto out;
	lsb_pathf(path, sizeof(path), "%s/objects", dir);
	if (lsb_write_atomic(path, buf, len))
		goto out;
	free(buf);
	buf = NULL;
	if (asprintf(&buf, "commit %s\nsubset %s\ntoolchain %s\n", commit,
		     subset_hash, tool) < 0) {
		buf = NULL;
		goto out;
	}
	lsb_pathf(path, sizeof(path), "%s/reuse", dir);
	if (!lsb_write_atomic(path, buf, strlen(buf)))
		ret = 0;
out:
	free(buf);
	targets_free(&ts);
	return ret;
}

/* ---- donors ---- */

static int by_mtime(const void *a, const void *b)
{
	const struct adapter_donor *x = a, *y = b;

	return x->mtime < y->mtime ? 1 : x->mtime > y->mtime ? -1 :
	       strcmp(x->key, y->key);
}

static int read_record(const char *path, struct adapter_donor *d,
		       char tool[41])
{
	char *text = lsb_read_file(path, NULL);
	int ok;

	if (!text)
		return -1;
	ok = sscanf(text, "commit %40s subset %40s toolchain %40s", d->commit,
		    d->subset, tool) == 3;
	free(text);
	return ok ? 0 : -1;
}

int adapter_donors(const struct adapter_env *env, struct adapter_donor **out,
		   size_t *n)
{
	char builds[4096], path[4400], tool[41], want[41];
	struct adapter_donor *v = NULL;
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (adapter_toolchain(env, want))
		return ADAPTER_EIO;
	lsb_pathf(builds, sizeof(builds), "%s/builds", env->cache_dir);
	d = opendir(builds);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct adapter_donor x = { 0 };
		struct stat st;

		if (strlen(de->d_name) != 40)
			continue;	/* KEY.failed, KEY.tmp.PID */
		lsb_pathf(path, sizeof(path), "%s/%s", builds, de->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			continue;	/* a revision that is another's build */
		lsb_pathf(path, sizeof(path), "%s/%s/reuse", builds, de->d_name);
		if (stat(path, &st) || read_record(path, &x, tool) ||
		    strcmp(tool, want))
			continue;
		lsb_pathf(x.key, sizeof(x.key), "%s", de->d_name);
		x.mtime = (long long)st.st_mtime;
		if (LSB_GROW(v, *n + 1, cap)) {
			closedir(d);
			free(v);
			*n = 0;
			return ADAPTER_EIO;
		}
		v[(*n)++] = x;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_mtime);
	*out = v;
	return 0;
}

void adapter_donors_free(struct adapter_donor *v)
{
	free(v);
}

/* ---- the sources: symbolic links into the donor's, changed files to blobs ---- */

/* Whether @rel is @prefix or below it ("kernel" holds "kernel/sched/x.c"). */
static int under(const char *rel, const char *prefix)
{
	size_t len = strlen(prefix);

	return !strncmp(rel, prefix, len) && (!rel[len] || rel[len] == '/');
}

/*
 * What a link standing for the donor's @path holds: the donor's own link
 * (into the neighbour it came from, to a blob, or the tree's own relative
 * link, which the farm's mirrored directories resolve alike), or the
 * absolute path of its real file or directory.
 */
static int link_target(const char *path, char *out, size_t len)
{
	ssize_t n = readlink(path, out, len - 1);

	if (n >= 0) {
		out[n] = '\0';
		return 0;
	}
	if (errno != EINVAL)
		return -1;
	lsb_pathf(out, len, "%s", path);
	return 0;
}

static int farm_dir(const char *from, const char *to, const char *rel,
		    const struct adapter_change *ch, size_t n)
{
	char src[PATH_MAX], dst[PATH_MAX], sub[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	DIR *d;
	size_t i;
	int ret = 0;

	if (!realpath(from, target))
		return -1;
	d = opendir(target);
	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		const struct adapter_change *exact = NULL;
		int below = 0;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		lsb_pathf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "",
			  de->d_name);
		lsb_pathf(src, sizeof(src), "%s/%s", target, de->d_name);
		lsb_pathf(dst, sizeof(dst), "%s/%s", to, de->d_name);
		for (i = 0; i < n; i++) {
			if (!strcmp(ch[i].path, sub))
				exact = &ch[i];
			else if (under(ch[i].path, sub))
				below = 1;
		}
		if (exact) {
			if (exact->blob && symlink(exact->blob, dst))
				ret = -1;
		} else if (below) {
			ret = mkdir(dst, 0755) ||
			      farm_dir(src, dst, sub, ch, n);
		} else {
			char t[PATH_MAX];

			ret = link_target(src, t, sizeof(t)) || symlink(t, dst);
		}
	}
	closedir(d);
	return ret;
}

/* The files a revision adds, in directories the farm may lack. */
static int farm_additions(const char *to, const struct adapter_change *ch,
			  size_t n)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!ch[i].added)
			continue;
		lsb_pathf(path, sizeof(path), "%s/%s", to, ch[i].path);
		*strrchr(path, '/') = '\0';
		if (lsb_mkdir_p(path))
			return -1;
		lsb_pathf(path, sizeof(path), "%s/%s", to, ch[i].path);
		if (symlink(ch[i].blob, path) && errno != EEXIST)
			return -1;
	}
	return 0;
}

/*
 * The changed files as files of their own, written now: kbuild decides by
 * times, and a shared blob may be older than the donor's outputs.
 */
static int farm_fresh(const char *to, const struct adapter_change *ch,
		      size_t n)
{
	char path[PATH_MAX];
	size_t i, len;

	for (i = 0; i < n; i++) {
		char *data;
		int fd, ok;

		if (!ch[i].blob)
			continue;
		lsb_pathf(path, sizeof(path), "%s/%s", to, ch[i].path);
		data = lsb_read_file(ch[i].blob, &len);
		if (!data || (unlink(path) && errno != ENOENT)) {
			free(data);
			return -1;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL,
			  ch[i].exec ? 0755 : 0644);
		ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;
		free(data);
		if (fd < 0 || close(fd) || !ok)
			return -1;
	}
	return 0;
}

static int dangling;

static int intact_cb(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	struct stat target;

	(void)st;
	(void)ftw;
	if (type == FTW_SL && stat(path, &target))
		dangling = 1;
	return dangling;
}

/* Whether every link of the farm still reaches its file. */
static int farm_intact(const char *src)
{
	dangling = 0;
	return !nftw(src, intact_cb, 16, FTW_PHYS) && !dangling;
}

/* ---- what the changes touch ---- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Files that decide the configuration, the rules or the generated headers
 * whatever the .cmd files say: kbuild reads Makefiles and Kconfig files
 * without recording them per target.
 */
static int shapes_build(const char *path)
{
	const char *base = base_name(path);

	return !strncmp(base, "Makefile", 8) || !strncmp(base, "Kbuild", 6) ||
	       !strncmp(base, "Kconfig", 7) || !strncmp(path, "scripts/", 8) ||
	       !strncmp(path, "arch/", 5) || !strncmp(path, "tools/", 6);
}

/*
 * Files that can change what allnoconfig makes of the tree; cpuidle.c's
 * presence decides CPU_IDLE (adapter_kbuild_config()).
 */
static int shapes_config(const char *path)
{
	return !strncmp(base_name(path), "Kconfig", 7) ||
	       !strncmp(path, "scripts/", 8) || !strcmp(path, "Makefile") ||
	       !strcmp(path, "drivers/cpuidle/cpuidle.c");
}

static int reads(const struct target *t, const char *path, int by_name)
{
	size_t i;

	if (!by_name)
		return t->n_deps && bsearch(&path, t->deps, t->n_deps,
					    sizeof(*t->deps), cmp_path);
	for (i = 0; i < t->n_deps; i++)
		if (!strcmp(base_name(t->deps[i]), base_name(path)))
			return 1;
	return 0;
}

/*
 * Mark the linked targets a change makes stale. A changed file read by
 * anything else, or one that shapes the build, needs a full build: return
 * it. An added or removed file may take another's place in an include
 * search: it touches every target that read a file of its name.
 */
static const char *mark(struct targets *ts, const struct adapter_change *ch,
			size_t n, size_t *redo)
{
	size_t i, j;

	*redo = 0;
	for (i = 0; i < n; i++) {
		int by_name = ch[i].added || !ch[i].blob;

		if (shapes_build(ch[i].path))
			return ch[i].path;
		for (j = 0; j < ts->n; j++) {
			if (!reads(&ts->v[j], ch[i].path, by_name))
				continue;
			if (!ts->v[j].linked)
				return ch[i].path;
			*redo += !ts->v[j].redo;
			ts->v[j].redo = 1;
		}
	}
	return NULL;
}

/* ---- compiling again with kbuild's commands ---- */

/* @s with every @from replaced by @to (malloc()ed). */
static char *replace_all(const char *s, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	const char *p, *hit;
	char *out, *q;

	for (p = s; fl && (p = strstr(p, from)); p += fl)
		n++;
	out = malloc(strlen(s) + n * (tl > fl ? tl - fl : 0) + 1);
	if (!out)
		return NULL;
	q = out;
	p = s;
	while (fl && (hit = strstr(p, from))) {
		memcpy(q, p, (size_t)(hit - p));
		q += hit - p;
		memcpy(q, to, tl);
		q += tl;
		p = hit + fl;
	}
	strcpy(q, p);
	return out;
}

/* A saved command as the shell runs it: make's "$$" and "$(pound)" undone. */
static char *unescape(const char *saved)
{
	char *a = replace_all(saved, "$$", "$"), *b;

	if (!a)
		return NULL;
	b = replace_all(a, "$(pound)", "#");
	free(a);
	if (b && strstr(b, "$(")) {
		free(b);
		return NULL;	/* a make expansion we do not know */
	}
	return b;
}

/* The depfile of a compile command: "-Wp,-MMD,DIR/.NAME.o.d". */
static char *depfile_of(const char *cmd)
{
	const char *p = strstr(cmd, "-Wp,-MMD,");

	if (!p)
		return NULL;
	p += 9;
	return strndup(p, strcspn(p, " \t"));
}

/* DIR/.NAME.cmd of a target DIR/NAME. */
static void dot_cmd(const char *target, char *out, size_t len)
{
	const char *base = base_name(target);

	lsb_pathf(out, len, "%.*s.%s.cmd", (int)(base - target), target, base);
}

static int log_line(const char *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int log_line(const char *log, const char *fmt, ...)
{
	FILE *f = fopen(log, "a");
	va_list ap;

	if (!f)
		return -1;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f);
}

/* In a child: compile @t in @o again, then record its new .cmd by fixdep. */
static int redo_one(const struct target *t, const char *o, const char *tmp,
		    const char *log)
{
	char *saved = NULL, *cmd = NULL, *dep = NULL;
	char from[PATH_MAX], to[PATH_MAX], dotcmd[PATH_MAX], part[PATH_MAX];
	int ret = 1, fd;

	lsb_pathf(from, sizeof(from), "%s/", t->prefix);
	lsb_pathf(to, sizeof(to), "%s/", tmp);
	saved = replace_all(t->cmd, from, to);
	cmd = saved ? unescape(saved) : NULL;
	dep = cmd ? depfile_of(cmd) : NULL;
	if (!dep)
		goto out;
	{
		char *sh[] = { "sh", "-c", cmd, NULL };
		double t0 = lsb_now();

		if (adapter_run(o, log, 0, sh))
			goto out;
		/* what took the time: gcc on one file is most of such a build */
		log_line(log, "  CC %s: %.2f s\n", t->name, lsb_now() - t0);
	}
	dot_cmd(t->name, dotcmd, sizeof(dotcmd));
	lsb_pathf(part, sizeof(part), "%s/%s.tmp", o, dotcmd);
	fd = open(part, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		goto out;
	{
		char *fixdep[] = { "scripts/basic/fixdep", dep, t->name, saved,
				   NULL };
		pid_t pid = fork();
		int status;

		if (!pid) {
			if (chdir(o))
				_exit(127);
			dup2(fd, 1);
			execv(fixdep[0], fixdep);
			_exit(127);
		}
		close(fd);
		if (pid < 0 || waitpid(pid, &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			goto out;
	}
	lsb_pathf(to, sizeof(to), "%s/%s", o, dotcmd);
	lsb_pathf(from, sizeof(from), "%s/%s", o, dep);
	ret = rename(part, to) || unlink(from);
out:
	free(saved);
	free(cmd);
	free(dep);
	return ret;
}

/* Compile the marked targets again, @jobs at a time. */
static int redo_all(const struct targets *ts, const char *o, const char *tmp,
		    const char *log, int jobs)
{
	size_t i = 0;
	int running = 0, failed = 0, status;

	fflush(NULL);
	for (;;) {
		while (i < ts->n && running < (jobs > 0 ? jobs : 1)) {
			pid_t pid;

			if (!ts->v[i].redo) {
				i++;
				continue;
			}
			pid = fork();
			if (pid < 0)
				return -1;
			if (!pid)
				_exit(redo_one(&ts->v[i], o, tmp, log));
			running++;
			i++;
		}
		if (!running)
			break;
		if (wait(&status) < 0)
			return -1;
		running--;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	}
	return failed;
}

/* Make the archives of the directories whose objects were compiled again. */
static int rearchive(const struct targets *ts, const char *o, const char *log)
{
	size_t i, j;

	for (i = 0; i < ts->n; i++) {
		const struct target *a = &ts->v[i];
		const char *base = base_name(a->name);
		size_t dlen = (size_t)(base - a->name);
		int stale = 0;
		char *cmd;

		if (strcmp(base, "built-in.a"))
			continue;
		for (j = 0; j < ts->n; j++)
			stale |= ts->v[j].redo &&
				 !strncmp(ts->v[j].name, a->name, dlen) &&
				 !strchr(ts->v[j].name + dlen, '/');
		if (!stale)
			continue;
		cmd = unescape(a->cmd);
		if (!cmd)
			return -1;
		{
			char *sh[] = { "sh", "-c", cmd, NULL };
			int ret = adapter_run(o, log, 0, sh);

			free(cmd);
			if (ret)
				return -1;
		}
	}
	return 0;
}

/* Whether the linked objects of @o are the ones @dir recorded. */
static int objects_match(const char *dir, const char *o)
{
	char path[PATH_MAX], id[41];
	char *text, *line, *save = NULL;
	int ok = 1, n = 0;

	lsb_pathf(path, sizeof(path), "%s/objects", dir);
	text = lsb_read_file(path, NULL);
	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); ok && line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) < 42 || line[40] != ' ') {
			ok = 0;
			break;
		}
		lsb_pathf(path, sizeof(path), "%s/%s", o, line + 41);
		ok = !hash_object(path, id) && !memcmp(id, line, 40);
		n++;
	}
	free(text);
	return ok && n;
}

/* builds/KEY as a link to the donor's directory @real: the same build. */
static int alias(const char *dir, const char *real)
{
	char tmp[PATH_MAX];

	lsb_pathf(tmp, sizeof(tmp), "%s.tmp.%d", dir, (int)getpid());
	unlink(tmp);
	if (symlink(base_name(real), tmp) || rename(tmp, dir)) {
		unlink(tmp);
		adapter_set_error("cannot link '%s' to '%s': %s", dir, real,
				  strerror(errno));
		return ADAPTER_EIO;
	}
	return 0;
}

/* The header the probes give the new sources must be the donor's. */
static int same_probe(const char *src, const char *donor_src, char *version,
		      size_t len)
{
	struct adapter_probe probe;
	char path[PATH_MAX];
	char *mine, *theirs;
	int same;

	if (adapter_probe(&probe, src))
		return 0;
	lsb_pathf(version, len, "%s", probe.version);
	lsb_pathf(path, sizeof(path),
		  "%s/arch/linsched/include/asm/linsched_adapter.h", donor_src);
	mine = adapter_header(&probe);
	theirs = lsb_read_file(path, NULL);
	same = mine && theirs && !strcmp(mine, theirs);
	free(mine);
	free(theirs);
	return same;
}

/* The donor @real's o/ copied to @o, times kept, checked against its record. */
static int take_outputs(const char *real, const char *o, const char *log)
{
	char donor_o[PATH_MAX];
	char *cp[] = { "cp", "-a", donor_o, (char *)o, NULL };

	lsb_pathf(donor_o, sizeof(donor_o), "%s/o", real);
	if (adapter_run(NULL, log, 0, cp) || !objects_match(real, o)) {
		log_line(log, "the donor's objects are not the ones it recorded\n");
		return -1;
	}
	return 0;
}

/* The objects of @real copied into @tmp, the stale ones made again, linked. */
static int incremental(const struct adapter_env *env, struct targets *ts,
		       const char *real, const char *tmp, const char *log,
		       const char *version)
{
	char src[PATH_MAX], o[PATH_MAX];

	lsb_pathf(src, sizeof(src), "%s/src", tmp);
	lsb_pathf(o, sizeof(o), "%s/o", tmp);
	if (take_outputs(real, o, log))
		return ADAPTER_ENOREUSE;
	if (redo_all(ts, o, tmp, log, env->jobs)) {
		if (!farm_intact(src)) {
			log_line(log, "the donor's sources are gone\n");
			return ADAPTER_ENOREUSE;
		}
		adapter_set_error("Linux %s does not build", version);
		return ADAPTER_EBUILD;
	}
	if (rearchive(ts, o, log) || adapter_link(env, tmp, log))
		return farm_intact(src) ? ADAPTER_EBUILD : ADAPTER_ENOREUSE;
	return 0;
}

/* ---- kbuild's own incremental build, from the donor's o/ ---- */

/* "DIR/" of each build directory the donor's records name, and this one */
static char **renaming;
static size_t nr_renaming;
static const char *renaming_to;
static int rename_err;

/* @text with each of those directories made @renaming_to (malloc()ed). */
static char *renamed(const char *text)
{
	char *out = strdup(text), *next;
	size_t i;

	for (i = 0; out && i < nr_renaming; i++) {
		if (!strstr(out, renaming[i]))
			continue;
		next = replace_all(out, renaming[i], renaming_to);
		free(out);
		out = next;
	}
	return out;
}

static int rename_cb(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	char old[PATH_MAX], *text, *next = NULL;
	size_t len;
	ssize_t k;

	(void)ftw;
	if (type == FTW_SL) {
		k = readlink(path, old, sizeof(old) - 1);
		if (k < 0)
			goto fail;
		old[k] = '\0';
		next = renamed(old);
		if (!next || (strcmp(next, old) &&
			      (unlink(path) || symlink(next, path))))
			goto fail;
		free(next);
		return 0;
	}
	if (type != FTW_F)
		return 0;
	text = lsb_read_file(path, &len);
	if (!text)
		goto fail;
	if (memchr(text, '\0', len)) {
		free(text);	/* an object or a host program */
		return 0;
	}
	next = renamed(text);
	if (next && strcmp(next, text)) {
		/* in place, with its times: kbuild compares them */
		struct timespec times[2] = { st->st_atim, st->st_mtim };
		int fd = open(path, O_WRONLY | O_TRUNC);
		size_t nl = strlen(next);
		int ok = fd >= 0 && write(fd, next, nl) == (ssize_t)nl &&
			 !futimens(fd, times);

		if (fd < 0 || close(fd) || !ok) {
			free(text);
			goto fail;
		}
	}
	free(text);
	if (!next)
		goto fail;
	free(next);
	return 0;
fail:
	free(next);
	rename_err = -1;
	return 1;
}

/*
 * kbuild's records name the directory each target was made in; made the
 * new build's, its commands are the ones kbuild would give now, so only
 * what a change made stale is made again.
 */
static int rename_paths(const struct targets *ts, const char *o,
			const char *tmp)
{
	char to[PATH_MAX];
	size_t i, j, cap = 0;
	int ret = -1;

	renaming = NULL;
	nr_renaming = 0;
	for (i = 0; i < ts->n; i++) {
		char *dir;

		for (j = 0; j < i && strcmp(ts->v[j].prefix, ts->v[i].prefix);)
			j++;
		if (!*ts->v[i].prefix || j < i)
			continue;	/* none, or named already */
		if (LSB_GROW(renaming, nr_renaming + 1, cap) ||
		    asprintf(&dir, "%s/", ts->v[i].prefix) < 0)
			goto out;
		renaming[nr_renaming++] = dir;
	}
	lsb_pathf(to, sizeof(to), "%s/", tmp);
	renaming_to = to;
	rename_err = 0;
	ret = nftw(o, rename_cb, 16, FTW_PHYS) || rename_err ? -1 : 0;
out:
	while (nr_renaming)
		free(renaming[--nr_renaming]);
	free(renaming);
	renaming = NULL;
	return ret;
}

/*
 * A change kbuild's records do not place (a Makefile, a Kconfig file, a
 * header a generated one read): the donor's o/ with its paths made this
 * build's, and kbuild decides as after a "git checkout": allnoconfig
 * again when the configuration's inputs changed, then make. Anything that
 * goes wrong here is left to a full build.
 */
static int by_kbuild(const struct adapter_env *env, const struct targets *ts,
		     const char *real, const char *tmp, const char *log,
		     const struct adapter_change *ch, size_t n)
{
	char src[PATH_MAX], o[PATH_MAX];
	size_t i;
	int config = 0;

	lsb_pathf(src, sizeof(src), "%s/src", tmp);
	lsb_pathf(o, sizeof(o), "%s/o", tmp);
	if (take_outputs(real, o, log))
		return ADAPTER_ENOREUSE;
	if (farm_fresh(src, ch, n) || rename_paths(ts, o, tmp)) {
		log_line(log, "cannot make the donor's outputs this build's\n");
		return ADAPTER_ENOREUSE;
	}
	for (i = 0; i < n; i++)
		config |= shapes_config(ch[i].path);
	if ((config && adapter_kbuild_config(env, tmp, log)) ||
	    adapter_kbuild_make(env, tmp, log) || adapter_link(env, tmp, log)) {
		log_line(log, "kbuild failed from the donor's outputs\n");
		return ADAPTER_ENOREUSE;
	}
	return 0;
}

int adapter_build_reads(const struct adapter_env *env, const char *subset_hash,
			char *const *files, size_t n, int *read)
{
	char dir[PATH_MAX], o[PATH_MAX];
	struct targets ts;
	size_t i, j;

	if (adapter_build_paths(env, subset_hash, dir, sizeof(dir), NULL))
		return -1;
	lsb_pathf(o, sizeof(o), "%s/o/include/config/auto.conf", dir);
	if (access(o, F_OK))
		return -1;	/* not built, or built before kbuild's records */
	lsb_pathf(o, sizeof(o), "%s/o", dir);
	if (targets_read(&ts, o))
		return -1;
	for (i = 0; i < n; i++) {
		read[i] = shapes_build(files[i]);
		for (j = 0; j < ts.n && !read[i]; j++)
			read[i] = reads(&ts.v[j], files[i], 0);
	}
	targets_free(&ts);
	return 0;
}

int adapter_same_build(const struct adapter_env *env, const char *subset_hash,
		       const struct adapter_change *ch, size_t n)
{
	char dir[PATH_MAX], real[PATH_MAX];

	if (adapter_build_paths(env, subset_hash, dir, sizeof(dir), NULL) ||
	    !realpath(dir, real))
		return 0;
	return adapter_reuse_cost(env, base_name(real), ch, n) == 0;
}

int adapter_reuse_cost(const struct adapter_env *env, const char *donor,
		       const struct adapter_change *ch, size_t n)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct targets ts;
	size_t redo;
	int cost;

	lsb_pathf(path, sizeof(path), "%s/builds/%s", env->cache_dir, donor);
	if (!realpath(path, real))
		return -1;
	lsb_pathf(path, sizeof(path), "%s/o", real);
	if (targets_read(&ts, path))
		return -1;
	/* kbuild's own decision: priced as if everything were made again */
	cost = mark(&ts, ch, n, &redo) ? (int)ts.n : (int)redo;
	targets_free(&ts);
	return cost;
}

int adapter_build_reuse(const struct adapter_env *env, const char *donor,
			const char *subset_hash, const char *commit,
			const struct adapter_change *ch, size_t n,
			char **out_exe)
{
	char dir[PATH_MAX], real[PATH_MAX], path[PATH_MAX], runtime[41];
	char tmp[PATH_MAX], log[PATH_MAX], src[PATH_MAX], version[48] = "";
	struct targets ts;
	const char *why;
	size_t redo;
	int ret;

	*out_exe = NULL;
	ret = adapter_build_paths(env, subset_hash, dir, sizeof(dir), runtime);
	if (ret)
		return ret;
	lsb_pathf(path, sizeof(path), "%s/builds/%s", env->cache_dir, donor);
	if (!realpath(path, real))
		return ADAPTER_ENOREUSE;
	lsb_pathf(path, sizeof(path), "%s/o", real);
	if (targets_read(&ts, path))
		return ADAPTER_ENOREUSE;
	why = mark(&ts, ch, n, &redo);
	if (!why && !redo) {
		targets_free(&ts);
		return alias(dir, real) ? ADAPTER_EIO :
		       adapter_build_finish(env, dir, runtime, "", out_exe);
	}

	ret = adapter_build_tmp(dir, tmp, sizeof(tmp));
	if (ret) {
		targets_free(&ts);
		return ret;
	}
	lsb_pathf(src, sizeof(src), "%s/src", tmp);
	lsb_pathf(log, sizeof(log), "%s/build.log", tmp);
	lsb_pathf(path, sizeof(path), "%s/src", real);
	if (lsb_mkdir_p(src) || farm_dir(path, src, "", ch, n) ||
	    farm_additions(src, ch, n)) {
		adapter_set_error("cannot make the sources in '%s': %s", src,
				  strerror(errno));
		ret = ADAPTER_EIO;
	} else if (!same_probe(src, path, version, sizeof(version))) {
		ret = ADAPTER_ENOREUSE;
	} else if (why) {
		log_line(log, "from %s: kbuild, as '%s' changed\n",
			 base_name(real), why);
		ret = by_kbuild(env, &ts, real, tmp, log, ch, n);
	} else {
		log_line(log, "from %s: %zu of %zu targets compiled again\n",
			 base_name(real), redo, ts.n);
		ret = incremental(env, &ts, real, tmp, log, version);
	}
	targets_free(&ts);
	return adapter_build_end(env, ret, tmp, dir, version, runtime, commit,
				 subset_hash, out_exe);
}
