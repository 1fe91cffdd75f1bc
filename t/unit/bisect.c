// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisect.c - unit test of bisect/: a real repository made with the git CLI,
 * revisions resolved, subset hashes checked against a manifest the git CLI
 * computes, exports compared with git archive, and the repository checked
 * unchanged at the end.
 *
 * LSB_KERNEL_REPO=PATH also times bisect_subset_hash() and bisect_export()
 * on a kernel repository's HEAD.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "common/common.h"
#include "t/tap.h"

static char tmp[64], repo[128];

static char *vfmt(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	return s;
}

/* Run a shell command; return its exit status. */
static int sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int st;

	va_start(ap, fmt);
	cmd = vfmt(fmt, ap);
	va_end(ap);
	st = system(cmd);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run a shell command; return its standard output, to be freed. */
static char *out(const char *fmt, ...)
{
	size_t len = 0, cap = 4096, n;
	char *cmd, *buf = malloc(cap);
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	cmd = vfmt(fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	if (!f || !buf)
		abort();
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *p = realloc(buf, cap *= 2);

			if (!p)
				abort();
			buf = p;
		}
	}
	buf[len] = '\0';
	pclose(f);
	free(cmd);
	return buf;
}

/* git rev-parse, without the newline. */
static void rev_parse(const char *rev, char hex[41])
{
	char *s = out("git -C %s rev-parse '%s'", repo, rev);

	snprintf(hex, 41, "%s", s);
	free(s);
}

static const char make_repo[] =
	"set -e; cd %s; git init -q -b main;"
	"mkdir -p include/linux kernel/sched lib scripts drivers/foo "
	"  io_uring arch/x86/kernel init;"
	"echo all: > Makefile; echo readme > README;"
	"echo 'source \"lib/Kconfig\"' > Kconfig; echo config X > lib/Kconfig;"
	"echo 'struct task;' > include/linux/sched.h;"
	"echo 'int core;' > kernel/sched/core.c; echo 'int i;' > init/main.c;"
	"printf '#!/bin/sh\\necho run\\n' > scripts/run.sh;"
	"chmod 755 scripts/run.sh; ln -s run.sh scripts/link;"
	"echo config FOO > drivers/foo/Kconfig; echo 'int foo;' > "
	"  drivers/foo/foo.c;"
	"echo 'struct io_wq;' > io_uring/io-wq.h;"
	"echo 'int uring;' > io_uring/io_uring.c;"
	"echo config DEBUG > arch/x86/Kconfig.debug;"
	"echo 'int x86;' > arch/x86/kernel/setup.c;"
	"git add -A; git commit -q -m c1; git tag v1;"
	/* c2: only outside the subset */
	"echo 'int foo2;' > drivers/foo/foo.c; echo readme2 > README;"
	"echo 'int uring2;' > io_uring/io_uring.c;"
	"git commit -q -am c2;"
	/* c3: a Kconfig outside the directory rules */
	"echo 'config FOO2' >> drivers/foo/Kconfig; git commit -q -am c3;"
	"git tag -a -m three v3;"
	/* c4: a file inside a directory rule */
	"echo 'int core2;' > kernel/sched/core.c; git commit -q -am c4;"
	"git branch release;"
	/* c5: a file rule disappears */
	"git rm -q io_uring/io-wq.h; git commit -q -m c5;"
	"git --no-optional-locks status --porcelain >/dev/null";

/* Everything about the repository that a reader must not change. */
static char *snapshot(void)
{
	return out("cd %s && { git --no-optional-locks status --porcelain; "
		   "git for-each-ref; find . -printf '%%p %%m %%s %%T@\\n' | "
		   "LC_ALL=C sort; find . -type f -print0 | LC_ALL=C sort -z |"
		   " xargs -0 sha256sum; } | sha256sum", repo);
}

/*
 * The subset hash of @rev computed independently, with the git CLI: the
 * entries of git ls-tree that the rules select, sorted, hashed as a blob.
 * With @files, also the list of the files an export must hold.
 */
static void oracle(const char *rev, char hex[41], char **files)
{
	char *ls = out("git -C %s ls-tree -r -t --full-tree %s", repo, rev);
	char *sel[256], *line, *save = NULL, *p;
	size_t n = 0, nrules, i, j, k;
	const char *const *rules = bisect_subset_rules(&nrules);
	FILE *f;

	for (line = strtok_r(ls, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *path = strchr(line, '\t') + 1;
		const char *base = strrchr(path, '/');
		int tree = strstr(line, " tree ") != NULL, hit = 0;

		base = base ? base + 1 : path;
		for (i = 0; i < nrules && !hit; i++) {
			size_t len = strlen(rules[i]);

			if (!strncmp(rules[i], "**/", 3))
				hit = !tree && !fnmatch(rules[i] + 3, base, 0);
			else if (rules[i][len - 1] == '/')
				hit = tree && len - 1 == strlen(path) &&
				      !strncmp(rules[i], path, len - 1);
			else
				hit = !tree && !strcmp(rules[i], path);
		}
		if (hit && n < 256)
			sel[n++] = line;
	}
	/* Drop what a selected tree covers; sort by path. */
	for (i = k = 0; i < n; i++) {
		char *pi = strchr(sel[i], '\t') + 1;
		int in = 0;

		for (j = 0; j < n; j++) {
			char *pj = strchr(sel[j], '\t') + 1;
			size_t lj = strlen(pj);

			in |= strstr(sel[j], " tree ") && !strncmp(pi, pj, lj)
			      && pi[lj] == '/';
		}
		if (!in)
			sel[k++] = sel[i];
	}
	n = k;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strcmp(strchr(sel[i], '\t'),
				   strchr(sel[j], '\t')) > 0) {
				p = sel[i];
				sel[i] = sel[j];
				sel[j] = p;
			}
	f = fopen("manifest", "w");
	for (i = 0; i < n; i++) {
		/* "MODE TYPE OID\tPATH" -> "MODE OID PATH" */
		char mode[8], type[8], oid[41], *path = strchr(sel[i], '\t');

		sscanf(sel[i], "%7s %7s %40s", mode, type, oid);
		fprintf(f, "%s %s %s\n", mode, oid, path + 1);
	}
	fclose(f);
	p = out("git hash-object manifest");
	snprintf(hex, 41, "%s", p);
	free(p);
	if (files) {
		f = fopen("files.sh", "w");
		fprintf(f, "{\n");
		for (i = 0; i < n; i++)
			fprintf(f, "git -C %s ls-tree -r --name-only %s -- "
				"'%s'\n", repo, rev, strchr(sel[i], '\t') + 1);
		fprintf(f, "} | LC_ALL=C sort\n");
		fclose(f);
		*files = out("sh files.sh");
	}
	free(ls);
}

static char *exported(const char *dir)
{
	return out("cd %s && find . ! -type d ! -name .lsbisect-export "
		   "-printf '%%P\\n' | LC_ALL=C sort", dir);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Classes: a second repository (so the first stays byte for byte as it
 * was) with commits outside and inside the subset and a merge:
 *   A(g) - B - C - D - E - F(lin) - H(merge of G) - I(full)
 *                   \------------ G --/
 * B, C, E and I touch only files outside the subset.
 */
static const char make_repo2[] =
	"set -e; mkdir %s/repo2; cd %s/repo2; git init -q -b main;"
	"mkdir -p kernel/sched drivers; echo 'int a;' > kernel/sched/core.c;"
	"echo a > drivers/x.c; git add -A; git commit -q -m A; git tag g;"
	"echo b > drivers/x.c; git commit -q -am B;"
	"echo c > drivers/x.c; git commit -q -am C;"
	"echo 'int d;' >> kernel/sched/core.c; echo d > drivers/d.c;"
	"git add -A; git commit -q -m 'sched: D'; git tag d;"
	"git checkout -q -b side;"
	"echo 'int g;' > kernel/sched/side.c; git add -A; git commit -q -m G;"
	"git checkout -q main;"
	"echo e > drivers/x.c; git commit -q -am E;"
	"echo 'int f;' >> kernel/sched/core.c; git commit -q -am F;"
	"git tag lin;"
	"git merge -q --no-edit side -m H;"
	"echo i > drivers/x.c; git commit -q -am I; git tag full";

/* git rev-parse in the second repository. */
static void rev_parse2(const char *rev, char hex[41])
{
	char *s = out("git -C %s/repo2 rev-parse '%s'", tmp, rev);

	snprintf(hex, 41, "%s", s);
	free(s);
}

static void test_classes(void)
{
	char path[256], want[41], d[41], g[41];
	struct bisect_classes *c = NULL;
	struct bisect_commit_info info;
	const char *const pre[] = { "kernel/sched/" };
	bisect_repo *r2;
	int err;

	if (sh(make_repo2, tmp, tmp)) {
		tap_ok(0, "make a second repository with a merge");
		return;
	}
	snprintf(path, sizeof(path), "%s/repo2", tmp);
	if (bisect_repo_open(&r2, path)) {
		tap_ok(0, "open it: %s", bisect_last_error());
		return;
	}
	tap_ok(bisect_is_ancestor(r2, "g", "lin") == 1 &&
	       bisect_is_ancestor(r2, "lin", "g") == 0 &&
	       bisect_is_ancestor(r2, "g", "g") == 0,
	       "ancestry: g is an ancestor of lin, not the reverse, not itself");

	err = bisect_classes_new(&c, r2, "g", "lin", 0);
	tap_ok(!err && c->nr_commits == 5 && c->nr_classes == 3 &&
	       c->classes[0].first == 0 && c->classes[0].n == 2 &&
	       c->classes[1].first == 2 && c->classes[1].n == 2 &&
	       c->classes[2].first == 4 && c->classes[2].n == 1 &&
	       !c->nr_merges,
	       "g..lin: B C | D E | F, three classes of consecutive commits with one subset");
	bisect_subset_hash(r2, "g", want);
	tap_ok(!err && !strcmp(c->good_subset, want) &&
	       !strcmp(c->classes[0].subset, want) &&
	       !strcmp(c->subsets[3], c->classes[1].subset),
	       "the first class has GOOD's subset; every commit's subset is kept");
	if (!err) {
		rev_parse2("lin", want);
		tap_ok(!strcmp(c->bad, want) &&
		       !strcmp(c->commits[c->nr_commits - 1], want),
		       "BAD is the last commit");
	} else {
		tap_ok(0, "BAD is the last commit");
	}
	bisect_classes_free(c);

	err = bisect_classes_new(&c, r2, "lin", "g", 0);
	tap_ok(err == BISECT_EINVAL && !c &&
	       strstr(bisect_last_error(), "is not an ancestor of BAD") &&
	       strstr(bisect_last_error(), "swapped"),
	       "swapped: %s", bisect_last_error());
	err = bisect_classes_new(&c, r2, "g", "g^{commit}", 0);
	tap_ok(err == BISECT_EINVAL && strstr(bisect_last_error(), "same commit"),
	       "the same commit twice: %s", bisect_last_error());
	err = bisect_classes_new(&c, r2, "g", "nosuch", 0);
	tap_ok(err == BISECT_ENOTFOUND, "an unknown revision: %s",
	       bisect_last_error());

	err = bisect_classes_new(&c, r2, "g", "full", 0);
	tap_ok(!err && c->nr_commits == 8 && c->nr_merges == 1,
	       "g..full, full history: 8 commits, one merge");
	bisect_classes_free(c);
	err = bisect_classes_new(&c, r2, "g", "full", 1);
	rev_parse2("side", want);
	tap_ok(!err && c->nr_commits == 7 && c->nr_merges == 1,
	       "first parents: 7 commits, the side branch's G left out");
	bisect_classes_free(c);

	rev_parse2("d", d);
	rev_parse2("d~1", g);
	err = bisect_commit_info(&info, r2, "d", pre, 1);
	tap_ok(!err && !strcmp(info.id, d) && !strcmp(info.parent, g) &&
	       !strcmp(info.subject, "sched: D") &&
	       !strcmp(info.author, "t <t@example.org>") && info.time > 0 &&
	       info.nr_files == 1 &&
	       !strcmp(info.files[0], "kernel/sched/core.c"),
	       "commit info: subject, author, parent, and the file under kernel/sched/ only");
	bisect_commit_info_release(&info);
	err = bisect_commit_info(&info, r2, "d", NULL, 0);
	tap_ok(!err && info.nr_files == 2 &&
	       !strcmp(info.files[0], "drivers/d.c"),
	       "without prefixes every file, sorted");
	bisect_commit_info_release(&info);
	err = bisect_commit_info(&info, r2, "full~1", pre, 1);
	tap_ok(!err && info.nr_files == 1 &&
	       !strcmp(info.files[0], "kernel/sched/side.c"),
	       "a merge against its first parent: what the side branch brought");
	bisect_commit_info_release(&info);
	bisect_repo_free(r2);
}

static void test_kernel(void)
{
	const char *path = getenv("LSB_KERNEL_REPO");
	char head[41], hash[41], dir[128];
	bisect_repo *r;
	double t0, t1, t2;
	int err;

	if (!path) {
		tap_ok(1, "kernel timing # SKIP LSB_KERNEL_REPO not set");
		return;
	}
	if (bisect_repo_open(&r, path) || bisect_resolve(r, "HEAD", head)) {
		tap_ok(0, "kernel repository: %s", bisect_last_error());
		bisect_repo_free(r);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/kernel", tmp);
	t0 = now();
	err = bisect_subset_hash(r, head, hash);
	t1 = now();
	err = err ? err : bisect_export(r, head, dir);
	t2 = now();
	tap_diag("kernel subset %s: hash %.3f s, export %.3f s", hash,
		 t1 - t0, t2 - t1);
	if (err)
		tap_diag("%s", bisect_last_error());
	tap_ok(!err && t1 - t0 < 0.5, "kernel subset hash and export");
	sh("{ du -sh %s; find %s ! -type d | wc -l; } | sed 's/^/# /'", dir,
	   dir);
	bisect_repo_free(r);
}

/* The subset files two revisions differ in; a blob into a file. */
static void test_diff(bisect_repo *r, char c[6][41])
{
	struct bisect_change *ch;
	char path[256], oid[41];
	size_t n;
	char *text;
	int err;

	err = bisect_subset_diff(r, c[1], c[2], 10, &ch, &n);
	tap_ok(!err && !n && !ch, "c1..c2 changes nothing of the subset");
	err = bisect_subset_diff(r, c[1], c[5], 10, &ch, &n);
	tap_ok(!err && n == 3 && !strcmp(ch[0].path, "drivers/foo/Kconfig") &&
	       ch[0].status == BISECT_MODIFIED &&
	       !strcmp(ch[1].path, "io_uring/io-wq.h") &&
	       ch[1].status == BISECT_DELETED && !*ch[1].oid && !ch[1].mode &&
	       !strcmp(ch[2].path, "kernel/sched/core.c") &&
	       ch[2].status == BISECT_MODIFIED && ch[2].mode == 0100644,
	       "c1..c5: a glob rule's file, a file rule gone, a directory rule's file, sorted");
	snprintf(oid, sizeof(oid), "%s", n == 3 ? ch[2].oid : "");
	bisect_changes_free(ch, n);
	err = bisect_subset_diff(r, c[5], c[1], 10, &ch, &n);
	tap_ok(!err && n == 3 && ch[1].status == BISECT_ADDED,
	       "c5..c1: the file rule's file comes back as added");
	bisect_changes_free(ch, n);
	err = bisect_subset_diff(r, c[1], c[5], 2, &ch, &n);
	tap_ok(err == BISECT_ETOOMANY && !ch && !n &&
	       strstr(bisect_last_error(), "more than 2 files"),
	       "past the limit: %s", bisect_last_error());
	snprintf(path, sizeof(path), "%s/blob", tmp);
	err = bisect_blob_write(r, oid, path);
	text = lsb_read_file(path, NULL);
	tap_ok(!err && text && !strcmp(text, "int core2;\n"),
	       "a blob written to a file");
	free(text);
	tap_ok(bisect_blob_write(r, "0123", path) == 0,
	       "an existing blob file is taken as it is");
}

int main(void)
{
	char c[6][41], hex[41], h[6][41], want[41], abbrev[8], path[256];
	char *before, *after, *files, *got, *s;
	const char *const *rules;
	char (*range)[41];
	bisect_repo *r, *r2;
	struct stat st;
	size_t n, i;
	pid_t pid;
	int err, ok;

	snprintf(tmp, sizeof(tmp), "/tmp/lsb-bisect-XXXXXX");
	if (!mkdtemp(tmp))
		tap_skip_all("cannot create a temporary directory");
	snprintf(repo, sizeof(repo), "%s/repo", tmp);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	setenv("GIT_AUTHOR_NAME", "t", 1);
	setenv("GIT_AUTHOR_EMAIL", "t@example.org", 1);
	setenv("GIT_COMMITTER_NAME", "t", 1);
	setenv("GIT_COMMITTER_EMAIL", "t@example.org", 1);
	if (chdir(tmp) || sh("mkdir %s", repo) || sh(make_repo, repo))
		tap_skip_all("cannot make a git repository with the git CLI");
	for (i = 1; i <= 5; i++) {
		snprintf(path, sizeof(path), "main~%zu", 5 - i);
		rev_parse(path, c[i]);
	}
	before = snapshot();

	rules = bisect_subset_rules(&n);
	for (i = 0, ok = 0; i < n; i++)
		ok |= !strcmp(rules[i], "include/") << 0 |
		      !strcmp(rules[i], "**/Kconfig*") << 1;
	tap_ok(ok == 3, "subset rules come from subset.list (%zu rules)", n);

	/* Opening */
	err = bisect_repo_open(&r, tmp);
	tap_ok(err == BISECT_ENOTFOUND && !r &&
	       strstr(bisect_last_error(), tmp),
	       "a directory that is no repository: %s", bisect_last_error());
	snprintf(path, sizeof(path), "%s/.git", repo);
	err = bisect_repo_open(&r2, path);
	tap_ok(!err && !bisect_resolve(r2, "v1", hex) && !strcmp(hex, c[1]),
	       "open the .git directory");
	bisect_repo_free(r2);
	sh("git clone -q --bare %s %s/bare.git", repo, tmp);
	snprintf(path, sizeof(path), "%s/bare.git", tmp);
	err = bisect_repo_open(&r2, path);
	tap_ok(!err && !bisect_resolve(r2, "v3", hex) && !strcmp(hex, c[3]),
	       "open a bare repository");
	bisect_repo_free(r2);
	err = bisect_repo_open(&r, repo);
	if (!tap_ok(!err, "open the work tree")) {
		tap_diag("%s", bisect_last_error());
		return tap_done();
	}

	/* Resolving */
	tap_ok(!bisect_resolve(r, "v1", hex) && !strcmp(hex, c[1]),
	       "resolve a lightweight tag");
	tap_ok(!bisect_resolve(r, "v3", hex) && !strcmp(hex, c[3]),
	       "resolve an annotated tag to its commit");
	tap_ok(!bisect_resolve(r, "v3^{commit}", hex) && !strcmp(hex, c[3]),
	       "resolve v3^{commit}");
	tap_ok(!bisect_resolve(r, "release", hex) && !strcmp(hex, c[4]),
	       "resolve a branch");
	tap_ok(!bisect_resolve(r, "HEAD~1", hex) && !strcmp(hex, c[4]),
	       "resolve HEAD~1");
	snprintf(abbrev, sizeof(abbrev), "%.7s", c[2]);
	tap_ok(!bisect_resolve(r, abbrev, hex) && !strcmp(hex, c[2]),
	       "resolve an abbreviated hash");
	tap_ok(!bisect_resolve(r, c[2], hex) && !strcmp(hex, c[2]),
	       "resolve a full hash");
	err = bisect_resolve(r, "v9.9", hex);
	tap_ok(err == BISECT_ENOTFOUND &&
	       strstr(bisect_last_error(), "revision 'v9.9' not found") &&
	       strstr(bisect_last_error(), repo),
	       "a bad revision is named: %s", bisect_last_error());
	rev_parse("main^{tree}", want);
	err = bisect_resolve(r, want, hex);
	tap_ok(err == BISECT_ENOTFOUND && strstr(bisect_last_error(), want),
	       "a tree is no commit: %s", bisect_last_error());

	/* Subset hashes */
	for (i = 1, ok = 1; i <= 5; i++) {
		err = bisect_subset_hash(r, c[i], h[i]);
		oracle(c[i], want, NULL);
		if (err || strcmp(h[i], want)) {
			tap_diag("c%zu: %s, want %s: %s", i, h[i], want,
				 bisect_last_error());
			ok = 0;
		}
	}
	tap_ok(ok, "subset hashes equal the git CLI's manifest hash");
	tap_ok(!strcmp(h[1], h[2]),
	       "files outside the subset do not change the hash");
	tap_ok(strcmp(h[2], h[3]), "drivers/foo/Kconfig changes the hash");
	tap_ok(strcmp(h[3], h[4]),
	       "kernel/sched/core.c changes the hash");
	tap_ok(strcmp(h[4], h[5]), "removing io_uring/io-wq.h changes it");
	tap_ok(!bisect_subset_hash(r, "v3", hex) && !strcmp(hex, h[3]),
	       "a revision name works as well as a hash");

	/* Export */
	snprintf(path, sizeof(path), "%s/exp4", tmp);
	err = bisect_export(r, c[4], path);
	if (!tap_ok(!err, "export c4"))
		tap_diag("%s", bisect_last_error());
	oracle(c[4], want, &files);
	got = exported(path);
	tap_ok(!strcmp(got, files), "the export holds exactly the subset");
	if (strcmp(got, files))
		tap_diag("got:\n%s# want:\n%s", got, files);
	free(got);
	free(files);
	tap_ok(sh("test -f exp4/drivers/foo/Kconfig && test -f "
		  "exp4/arch/x86/Kconfig.debug && test -f exp4/io_uring/io-wq.h"
		  " && test ! -e exp4/drivers/foo/foo.c && test ! -e "
		  "exp4/README && test ! -e exp4/io_uring/io_uring.c") == 0,
	       "Kconfig files in, drivers/foo/foo.c and README out");
	tap_ok(!stat("exp4/scripts/run.sh", &st) && (st.st_mode & S_IXUSR) &&
	       !stat("exp4/kernel/sched/core.c", &st) &&
	       !(st.st_mode & S_IXUSR), "the exec bit is kept");
	s = out("readlink exp4/scripts/link");
	tap_ok(!lstat("exp4/scripts/link", &st) && S_ISLNK(st.st_mode) &&
	       !strcmp(s, "run.sh\n"), "the symlink is kept");
	free(s);
	sh("mkdir ref4 && git -C %s archive %s | tar -x -C ref4", repo, c[4]);
	s = out("cd exp4 && find . -type f ! -name .lsbisect-export | "
		"while read f; do cmp -s \"$f\" \"../ref4/$f\" || echo \"$f\";"
		" done");
	tap_ok(!*s, "file contents equal git archive's %s", s);
	free(s);
	s = out("cat exp4/.lsbisect-export");
	tap_ok(!strncmp(s, h[4], 40) && s[40] == '\n' && !s[41],
	       "the marker holds the subset hash");
	free(s);
	tap_ok(sh("ls -d exp4.tmp.* 2>/dev/null") != 0,
	       "no temporary directory is left");
	sh("touch exp4/sentinel");
	err = bisect_export(r, c[4], path);
	tap_ok(!err && !access("exp4/sentinel", F_OK),
	       "exporting again does nothing");
	err = bisect_export(r, c[3], path);
	tap_ok(err == BISECT_EEXIST && strstr(bisect_last_error(), path),
	       "exporting another subset there fails: %s",
	       bisect_last_error());
	snprintf(path, sizeof(path), "%s/exp1", tmp);
	tap_ok(!bisect_export(r, c[1], path) &&
	       !bisect_export(r, c[2], path),
	       "revisions with one subset share an export");

	/* Leftovers: this process's and a dead one's */
	pid = fork();
	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	sh("mkdir -p exp5.tmp.%ld/junk exp5.tmp.%ld/junk exp5.tmp.1x",
	   (long)getpid(), (long)pid);
	snprintf(path, sizeof(path), "%s/exp5/", tmp);
	err = bisect_export(r, c[5], path);
	tap_ok(!err && !access("exp5/Makefile", F_OK) &&
	       access("exp5/io_uring", F_OK), "export c5 into 'exp5/'");
	tap_ok(sh("test -e exp5.tmp.%ld || test -e exp5.tmp.%ld",
		  (long)getpid(), (long)pid) &&
	       !access("exp5.tmp.1x", F_OK),
	       "leftover temporary directories are removed");
	snprintf(path, sizeof(path), "%s/no/such/dir", tmp);
	err = bisect_export(r, c[5], path);
	tap_ok(err == BISECT_EIO && strstr(bisect_last_error(), "no/such"),
	       "a missing parent fails: %s", bisect_last_error());

	/* Ranges */
	err = bisect_range(r, "v1", "main", 0, &range, &n);
	tap_ok(!err && n == 4 && !strcmp(range[0], c[2]) &&
	       !strcmp(range[3], c[5]), "range v1..main, oldest first");
	free(range);
	err = bisect_range(r, "main", "v1", 1, &range, &n);
	tap_ok(!err && n == 0 && !range, "an empty range");

	test_classes();
	test_kernel();
	test_diff(r, c);
	bisect_repo_free(r);

	after = snapshot();
	tap_ok(!strcmp(before, after),
	       "the repository is byte for byte unchanged");
	free(before);
	free(after);
	if (!tap_failed)
		sh("rm -rf %s", tmp);
	else
		tap_diag("left %s", tmp);
	tap_plan(tap_n);
	return tap_done();
}
