// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch.c - unit test of bisect/'s changes that are not commits yet
 * (linsched check): an mbox split into its patches (cover letter left
 * out, signature cut, subjects and titles; b4's separators), a plain diff; patches applied
 * in memory into an object store, and one that does not apply named by
 * file and hunk; a work tree's staged and unstaged changes as one commit,
 * with the user's repository (index, refs, objects, files' times) left
 * exactly as it was. Repositories are made by the git CLI.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bisect/bisect.h"
#include "t/tap.h"

static char tmp[] = "/tmp/lsb-patch-XXXXXX";

/* @cmd in @dir (relative to the test's directory), output discarded. */
static int sh(const char *dir, const char *cmd)
{
	char *full;
	int st;

	if (asprintf(&full, "cd '%s/%s' && { %s; } >/dev/null 2>&1", tmp,
		     dir, cmd) < 0)
		abort();
	st = system(full);
	free(full);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The first line @cmd prints in the test's directory, into @out. */
static void first_line(const char *cmd, char *out, size_t len)
{
	char *full;
	FILE *p;

	out[0] = '\0';
	if (asprintf(&full, "cd '%s' && %s", tmp, cmd) < 0)
		abort();
	p = popen(full, "r");
	free(full);
	if (!p)
		return;
	if (fgets(out, (int)len, p))
		out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

#define GIT "git -c user.name=t -c user.email=t@e "

static const char mbox[] =
"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
"From: t <t@e>\n"
"Subject: [PATCH 0/2] the series\n"
"\n"
"a cover letter, no diff\n"
"\n"
"From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
"From: t <t@e>\n"
"Subject: [PATCH 1/2] sched/fair: a subject folded\n"
" over two lines\n"
"\n"
"why\n"
"---\n"
" kernel/sched/fair.c | 2 +-\n"
"\n"
"diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n"
"--- a/kernel/sched/fair.c\n"
"+++ b/kernel/sched/fair.c\n"
"@@ -1,3 +1,3 @@\n"
" one\n"
"-two\n"
"+TWO\n"
" three\n"
"-- \n"
"2.39.5\n"
"\n"
"From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001\n"
"From: t <t@e>\n"
"Subject: [PATCH 2/2] sched/core: another\n"
"\n"
"diff --git a/kernel/sched/core.c b/kernel/sched/core.c\n"
"--- a/kernel/sched/core.c\n"
"+++ b/kernel/sched/core.c\n"
"@@ -1,2 +1,2 @@\n"
"-a\n"
"+A\n"
" b\n"
"-- \n"
"2.39.5\n";

static bool test_mbox(void)
{
	struct bisect_patch *v = NULL;
	size_t n = 0;

	ASSERT_EQ(bisect_patches_parse(mbox, strlen(mbox), "s.mbox", &v, &n),
		  0);
	ASSERT_EQ(n, 2);	/* the cover letter left out */
	ASSERT_STREQ(v[0].subject,
		     "[PATCH 1/2] sched/fair: a subject folded over two lines");
	ASSERT_STREQ(v[0].title, "sched/fair: a subject folded over two lines");
	ASSERT_TRUE(!strncmp(v[0].text, "diff --git a/kernel/sched/fair.c", 32));
	ASSERT_TRUE(strstr(v[0].text, "2.39.5") == NULL);	/* signature cut */
	ASSERT_EQ(v[0].len, strlen(v[0].text));
	ASSERT_STREQ(v[1].title, "sched/core: another");
	bisect_patches_free(v, n);
	return true;
}

/* b4 am's separators: "From git@z ...", each followed by a header. */
static bool test_b4(void)
{
	char *b4 = strdup(mbox), *p;
	struct bisect_patch *v = NULL;
	size_t n = 0;

	while ((p = strstr(b4, "From 1111")) || (p = strstr(b4, "From 2222")) ||
	       (p = strstr(b4, "From 3333")))
		memcpy(p + 5, "git@z ", 6);	/* "From git@z 11111..." */
	ASSERT_EQ(bisect_patches_parse(b4, strlen(b4), "b4.mbx", &v, &n), 0);
	free(b4);
	ASSERT_EQ(n, 2);
	ASSERT_STREQ(v[0].title, "sched/fair: a subject folded over two lines");
	ASSERT_STREQ(v[1].title, "sched/core: another");
	bisect_patches_free(v, n);
	return true;
}

static bool test_plain_and_empty(void)
{
	const char *plain = strstr(mbox, "diff --git a/kernel/sched/core.c");
	static const char none[] = "From 4444444444444444444444444444444444444444 Mon Sep 17 00:00:00 2001\n"
				   "Subject: [PATCH 1/1] words only\n\nno diff\n";
	struct bisect_patch *v = NULL;
	size_t n = 0;

	ASSERT_EQ(bisect_patches_parse(plain, strlen(plain), "c.diff", &v, &n),
		  0);
	ASSERT_EQ(n, 1);
	ASSERT_STREQ(v[0].subject, "c.diff");
	ASSERT_STREQ(v[0].title, "c.diff");
	bisect_patches_free(v, n);
	ASSERT_EQ(bisect_patches_parse(none, strlen(none), "w.mbox", &v, &n),
		  BISECT_EINVAL);
	ASSERT_STREQ(bisect_last_error(), "'w.mbox': message 1 has no diff");
	ASSERT_EQ(bisect_patches_parse("x\n", 2, "x", &v, &n), BISECT_EINVAL);
	return true;
}

/* The user's repository: kernel/sched/{fair,core}.c committed, tagged base. */
static int make_user(void)
{
	return sh(".", "git init -q user && cd user && mkdir -p kernel/sched && "
		  "printf 'one\\ntwo\\nthree\\n' > kernel/sched/fair.c && "
		  "printf 'a\\nb\\n' > kernel/sched/core.c && echo r > README && "
		  "git add . && " GIT "commit -q -m base && git tag base");
}

/* Everything git and the file system say about the user's repository. */
static void user_state(char *out, size_t len)
{
	first_line("cd user && { git for-each-ref; sha1sum < .git/index; "
		   "find . -printf '%p %T@ %s\\n' | LC_ALL=C sort; } | sha1sum",
		   out, len);
}

static bool test_apply(void)
{
	struct bisect_patch *v = NULL;
	bisect_repo *store = NULL;
	char base[41], c1[41], c2[41], path[4200], got[64], before[64],
	     after[64];
	size_t n = 0;
	char *bad;

	user_state(before, sizeof(before));
	ASSERT_EQ(bisect_store_open(&store, "/tmp/nonexistent-parent/x", "/",
				    "HEAD", base, path, sizeof(path)),
		  BISECT_ENOTFOUND);
	snprintf(path, sizeof(path), "%s/stores", tmp);
	{
		char parent[4200], user[4200];

		snprintf(parent, sizeof(parent), "%s", path);
		snprintf(user, sizeof(user), "%s/user", tmp);
		ASSERT_EQ(bisect_store_open(&store, parent, user, "base", base,
					    path, sizeof(path)), 0);
	}
	ASSERT_EQ(bisect_patches_parse(mbox, strlen(mbox), "s.mbox", &v, &n),
		  0);
	ASSERT_EQ(bisect_commit_patch(store, base, &v[0], c1), 0);
	ASSERT_EQ(bisect_commit_patch(store, c1, &v[1], c2), 0);
	{
		char cmd[4400];

		snprintf(cmd, sizeof(cmd), "git --git-dir='%s' show %s:kernel/sched/fair.c | sed -n 2p",
			 path, c2);
		first_line(cmd, got, sizeof(got));
		ASSERT_STREQ(got, "TWO");
		snprintf(cmd, sizeof(cmd), "git --git-dir='%s' log -1 --format=%%s %s",
			 path, c2);
		first_line(cmd, got, sizeof(got));
		ASSERT_STREQ(got, "sched/core: another");
	}
	/* applied again on its own result, the first patch's hunk fails */
	ASSERT_EQ(bisect_commit_patch(store, c1, &v[0], c2), BISECT_EAPPLY);
	bad = strstr(bisect_last_error(),
		     "does not apply: kernel/sched/fair.c, hunk 1 '@@ -1,3 +1,3 @@'");
	ASSERT_TRUE(bad != NULL);
	bisect_patches_free(v, n);
	bisect_repo_free(store);
	user_state(after, sizeof(after));
	ASSERT_STREQ(before, after);
	return true;
}

static bool test_worktree(void)
{
	bisect_repo *store = NULL;
	char base[41], c[41], c0[41], path[4200], parent[4200], user[4200],
	     cmd[4400], got[64], before[64], after[64];
	size_t files = 0, outside = 0;

	/* staged in core.c, unstaged in fair.c, outside the subset README */
	ASSERT_EQ(sh("user", "echo B >> kernel/sched/core.c && git add kernel/sched/core.c && "
		     "echo four >> kernel/sched/fair.c && echo more >> README"), 0);
	user_state(before, sizeof(before));
	snprintf(parent, sizeof(parent), "%s/stores", tmp);
	snprintf(user, sizeof(user), "%s/user", tmp);
	ASSERT_EQ(bisect_store_open(&store, parent, user, "HEAD", base, path,
				    sizeof(path)), 0);
	ASSERT_EQ(bisect_commit_worktree(store, user, base, c, &files,
					 &outside), 0);
	ASSERT_EQ(files, 2);
	ASSERT_EQ(outside, 1);
	snprintf(cmd, sizeof(cmd), "git --git-dir='%s' show %s:kernel/sched/fair.c | sed -n 4p",
		 path, c);
	first_line(cmd, got, sizeof(got));
	ASSERT_STREQ(got, "four");
	snprintf(cmd, sizeof(cmd), "git --git-dir='%s' show %s:kernel/sched/core.c | sed -n 3p",
		 path, c);
	first_line(cmd, got, sizeof(got));
	ASSERT_STREQ(got, "B");
	/* the same changes, the same commit */
	ASSERT_EQ(bisect_commit_worktree(store, user, base, c0, NULL, NULL), 0);
	ASSERT_STREQ(c0, c);
	user_state(after, sizeof(after));
	ASSERT_STREQ(before, after);
	/* a file removed from the work tree is removed; an untracked one left out */
	ASSERT_EQ(sh("user", "rm kernel/sched/core.c && echo n > kernel/sched/new.c"), 0);
	ASSERT_EQ(bisect_commit_worktree(store, user, base, c0, &files, NULL), 0);
	ASSERT_EQ(files, 2);
	snprintf(cmd, sizeof(cmd), "git --git-dir='%s' ls-tree -r --name-only %s kernel/sched | tr '\\n' ' '",
		 path, c0);
	first_line(cmd, got, sizeof(got));
	ASSERT_STREQ(got, "kernel/sched/fair.c ");
	bisect_repo_free(store);
	return true;
}

int main(void)
{
	char cmd[256];

	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	tap_plan(5);
	TEST(test_mbox);
	TEST(test_b4);
	TEST(test_plain_and_empty);
	if (!mkdtemp(tmp) || make_user()) {
		tap_ok(1, "# SKIP no git CLI to make a repository");
		tap_ok(1, "# SKIP no git CLI to make a repository");
		return tap_done();
	}
	TEST(test_apply);
	TEST(test_worktree);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		tap_diag("cannot remove %s", tmp);
	return tap_done();
}
