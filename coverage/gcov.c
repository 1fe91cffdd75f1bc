// SPDX-License-Identifier: GPL-2.0-only
/*
 * gcov.c - gcc's tools on a coverage build's counts: gcov-tool sums the
 * runs' .gcda files, gcov reads them with the build's .gcno files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/common.h"
#include "coverage/coverage.h"
#include "coverage/coverage_internal.h"

/* At most this many processes sum counts at once. */
#define COVERAGE_MAX_JOBS 64

/*
 * Run @argv (a program on PATH) in @cwd (NULL: here), its standard output
 * into @out (NULL: /dev/null) and its standard error into @err. Return its
 * exit status, or -1 when it could not be started or was killed.
 */
static int run_tool(char *const argv[], const char *cwd, const char *out,
		    const char *err)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int o = open(out ? out : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0 ||
		    (cwd && chdir(cwd)))
			_exit(126);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first line of the file @path (a tool's standard error), or "". */
static void first_line(const char *path, char *out, size_t len)
{
	char *text = lsb_read_file(path, NULL);

	snprintf(out, len, "%.*s", text ? (int)strcspn(text, "\n") : 0,
		 text ? text : "");
	free(text);
}

/* @argv failed with @status: the error names it and its first words. */
static void tool_failed(char *const argv[], int status, const char *err)
{
	char words[1024];

	first_line(err, words, sizeof(words));
	coverage_set_error("%s %s failed (%s %d)%s%s", argv[0], argv[1],
			   status < 0 ? "killed or not started:" : "exit status",
			   status, *words ? ": " : "", words);
}

/*
 * Sum @dirs (@n >= 1) one after another in @work/0 and @work/1: gcov-tool
 * merge of the sum so far and the next (rewrite, a copy, for a single
 * one). @sum receives the directory of the whole sum; @done is told how
 * many of @dirs each step added. Return 0 or -1 with the error set.
 */
static int chain(const char *const *dirs, size_t n, const char *work,
		 char *sum, size_t len, void (*done)(size_t, void *),
		 void *arg)
{
	char step[2][4300], err[4300];
	const char *prev = dirs[0];
	size_t k;
	int status;

	if (lsb_mkdir_p(work)) {
		coverage_set_error("cannot create '%s': %s", work,
				   strerror(errno));
		return -1;
	}
	lsb_pathf(step[0], sizeof(step[0]), "%s/0", work);
	lsb_pathf(step[1], sizeof(step[1]), "%s/1", work);
	lsb_pathf(err, sizeof(err), "%s/gcov-tool.err", work);
	for (k = n > 1; k < n; k++) {
		char *merge[] = { "gcov-tool", "merge", "-o", step[k % 2],
				  (char *)prev, (char *)dirs[k], NULL };
		char *rewrite[] = { "gcov-tool", "rewrite", "-o", step[0],
				    (char *)dirs[0], NULL };
		char **argv = n == 1 ? rewrite : merge;

		lsb_rm_rf(step[k % 2]);
		status = run_tool(argv, NULL, NULL, err);
		if (status) {
			tool_failed(argv, status, err);
			return -1;
		}
		prev = step[k % 2];
		if (done)
			done(k == 1 ? 2 : 1, arg);
	}
	lsb_pathf(sum, len, "%s", prev);
	return 0;
}

/* A child's step, told to the parent through the pipe: one byte a dir. */
static void pipe_done(size_t dirs, void *arg)
{
	static const char bytes[2] = { 1, 1 };

	if (write(*(int *)arg, bytes, dirs) < 0)
		return;	/* only the progress line misses it */
}

/*
 * Sum part @j of @jobs of @dirs in a child, into @work/J: its error, if
 * any, in @work/J.err. Return the child's pid, or -1.
 */
static pid_t chain_child(const char *const *dirs, size_t n, int j, int jobs,
			 const char *work, int fd)
{
	size_t from = n * j / jobs, to = n * (j + 1) / jobs;
	char dir[4300], sum[4300], err[4400];
	const char *msg;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	lsb_pathf(dir, sizeof(dir), "%s/%d", work, j);
	lsb_pathf(err, sizeof(err), "%s/%d.err", work, j);
	if (chain(dirs + from, to - from, dir, sum, sizeof(sum), pipe_done,
		  &fd)) {
		msg = coverage_last_error();
		lsb_write_atomic(err, msg, strlen(msg));
		_exit(1);
	}
	_exit(0);
}

/* The part sums of the children into @sums; 0, or -1 with the error. */
static int chain_parts(const char *const *dirs, size_t n, int jobs,
		       const char *work, char (*sums)[4400],
		       coverage_progress_fn progress, void *arg)
{
	pid_t pids[COVERAGE_MAX_JOBS];
	int fds[2], j, status, ret = 0;
	size_t done = 0;
	char err[4400], *msg, byte;

	if (pipe2(fds, O_CLOEXEC)) {
		coverage_set_error("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	for (j = 0; j < jobs; j++)
		pids[j] = chain_child(dirs, n, j, jobs, work, fds[1]);
	close(fds[1]);
	while (read(fds[0], &byte, 1) == 1)
		if (progress)
			progress(++done, n, arg);
	close(fds[0]);
	for (j = 0; j < jobs; j++) {
		size_t m = n * (j + 1) / jobs - n * j / jobs;

		if (pids[j] < 0 || waitpid(pids[j], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			lsb_pathf(err, sizeof(err), "%s/%d.err", work, j);
			msg = lsb_read_file(err, NULL);
			if (!ret)
				coverage_set_error("%s", msg ? msg :
						   "a summing process failed");
			free(msg);
			ret = -1;
		}
		/* where chain() left the part's sum */
		lsb_pathf(sums[j], sizeof(sums[j]), "%s/%d/%d", work, j,
			  m > 1 ? (int)((m - 1) % 2) : 0);
	}
	return ret;
}

/* Tell @progress of @n dirs, from chain() in this process. */
struct local_progress {
	coverage_progress_fn fn;
	void *arg;
	size_t done, n;
};

static void local_done(size_t dirs, void *arg)
{
	struct local_progress *p = arg;

	p->done += dirs;
	if (p->fn)
		p->fn(p->done, p->n, p->arg);
}

int coverage_merge(const char *out, const char *const *dirs, size_t n,
		   int jobs, coverage_progress_fn progress, void *arg)
{
	struct local_progress lp = { progress, arg, 0, n };
	char work[4200], last[4300], sum[4400], (*sums)[4400] = NULL;
	const char *parts[COVERAGE_MAX_JOBS];
	int j, ret = -1;

	if (!n || !dirs) {
		coverage_set_error("no run's counts to merge");
		return -1;
	}
	if (jobs < 1 || (size_t)jobs > n / 4)	/* a part of 4 at least */
		jobs = 1;
	if (jobs > COVERAGE_MAX_JOBS)
		jobs = COVERAGE_MAX_JOBS;
	lsb_pathf(work, sizeof(work), "%s.tmp", out);
	lsb_rm_rf(work);
	lsb_pathf(last, sizeof(last), "%s/sum", work);
	if (jobs == 1) {
		if (chain(dirs, n, work, sum, sizeof(sum), local_done, &lp))
			goto out;
	} else {
		sums = calloc(jobs, sizeof(*sums));
		if (!sums || lsb_mkdir_p(work)) {
			coverage_set_error("cannot create '%s': %s", work,
					   strerror(errno));
			goto out;
		}
		if (chain_parts(dirs, n, jobs, work, sums, progress, arg))
			goto out;
		for (j = 0; j < jobs; j++)
			parts[j] = sums[j];
		if (chain(parts, (size_t)jobs, last, sum, sizeof(sum), NULL,
			  NULL))
			goto out;
	}
	lsb_rm_rf(out);
	if (rename(sum, out)) {
		coverage_set_error("cannot rename '%s' to '%s': %s", sum, out,
				   strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(sums);
	lsb_rm_rf(work);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of @dir's .gcno files without the suffix, sorted. */
static char **gcno_names(const char *dir, size_t *n)
{
	char **names = NULL;
	size_t cap = 0, len;
	struct dirent *d;
	DIR *dp = opendir(dir);

	*n = 0;
	while (dp && (d = readdir(dp))) {
		len = strlen(d->d_name);
		if (len < 6 || strcmp(d->d_name + len - 5, ".gcno"))
			continue;
		if (LSB_GROW(names, *n + 2, cap))
			break;
		names[*n] = strndup(d->d_name, len - 5);
		if (!names[*n])
			break;
		++*n;
	}
	if (dp)
		closedir(dp);
	if (names)
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

/*
 * gcov on one object: OBJS/NAME.gcno linked beside COUNTS/NAME.gcda, its
 * JSON into COUNTS/NAME.gcov.json, read and removed.
 */
static int gcov_one(struct coverage *c, const char *counts, const char *objs,
		    const char *name, const char *subdir)
{
	char gcno[PATH_MAX + 300], link[4400], src[300], json[4400],
	     err[4400], *text;
	char *argv[] = { "gcov", "--json-format", "--stdout", "-o",
			 ".", src, NULL };
	int status, ret;

	lsb_pathf(gcno, sizeof(gcno), "%s/%s.gcno", objs, name);
	lsb_pathf(link, sizeof(link), "%s/%s.gcno", counts, name);
	lsb_pathf(src, sizeof(src), "%s.c", name);
	lsb_pathf(json, sizeof(json), "%s/%s.gcov.json", counts, name);
	lsb_pathf(err, sizeof(err), "%s/%s.gcov.err", counts, name);
	unlink(link);
	if (symlink(gcno, link)) {
		coverage_set_error("cannot link '%s' to '%s': %s", link, gcno,
				   strerror(errno));
		return -1;
	}
	status = run_tool(argv, counts, json, err);
	if (status) {
		tool_failed(argv, status, err);
		return -1;
	}
	text = lsb_read_file(json, NULL);
	if (!text) {
		coverage_set_error("cannot read '%s': %s", json,
				   strerror(errno));
		return -1;
	}
	ret = coverage_add_gcov_json(c, text, subdir);
	if (ret)
		coverage_set_error("%s/%s.gcno: %s", objs, name,
				   coverage_last_error());
	free(text);
	unlink(json);
	unlink(err);
	return ret;
}

int coverage_gcov(struct coverage *c, const char *counts, const char *objs,
		  const char *subdir)
{
	char odir[PATH_MAX], **names;
	size_t n, i;
	int ret = 0;

	if (!realpath(objs, odir)) {
		coverage_set_error("no objects in '%s': %s", objs,
				   strerror(errno));
		return -1;
	}
	if (lsb_mkdir_p(counts)) {
		coverage_set_error("cannot create '%s': %s", counts,
				   strerror(errno));
		return -1;
	}
	names = gcno_names(odir, &n);
	if (!n) {
		coverage_set_error("no .gcno files in '%s': not a build made with --instrument coverage",
				   odir);
		ret = -1;
	}
	for (i = 0; !ret && i < n; i++)
		ret = gcov_one(c, counts, odir, names[i], subdir);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}
