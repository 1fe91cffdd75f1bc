// SPDX-License-Identifier: GPL-2.0-only
/*
 * common/: the check of a command's outputs before it starts, the
 * temporaries a signal or a later process removes, and the helpers that
 * compute (ranges of numbers as text), and JSON printed exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include "t/tap.h"

static char dir[] = "/tmp/lsb-common-XXXXXX", err[8400];

/* DIR/NAME into a static buffer (two at a time). */
static const char *in_dir(const char *name)
{
	static char buf[2][4200];
	static int k;

	k ^= 1;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd >= 0)
		close(fd);
}

/* lsb_check_paths() of --trace, --json and --log: 0, or -1 with err. */
static int outputs(const char *trace, const char *json, const char *log,
		   const char *workload)
{
	const struct lsb_path_arg args[] = {
		{ "--trace", trace, LSB_OUT_FILE },
		{ "--json", json, LSB_OUT_FILE },
		{ "--log", log, LSB_OUT_FILE },
		{ "--workload", workload, LSB_IN },
		{ "--topology", "quad", LSB_IN },
	};

	*err = '\0';
	return lsb_check_paths(args, 5, err, sizeof(err));
}

static bool test_good_outputs(void)
{
	ASSERT_EQ(outputs(NULL, NULL, NULL, "hog*2"), 0);
	ASSERT_EQ(outputs(in_dir("t"), in_dir("j"), "-", "hog"), 0);
	/* an existing file is overwritten; a device may be given twice */
	touch(in_dir("old"));
	ASSERT_EQ(outputs(in_dir("old"), "/dev/null", "/dev/null", "hog"), 0);
	return true;
}

static bool test_empty_and_directories(void)
{
	char sub[4200];

	ASSERT_EQ(outputs(NULL, "", NULL, "hog"), -1);
	ASSERT_STREQ(err, "--json '': expected a file name");
	ASSERT_EQ(outputs(dir, NULL, NULL, "hog"), -1);
	snprintf(sub, sizeof(sub), "--trace '%s': a directory, expected a file",
		 dir);
	ASSERT_STREQ(err, sub);
	ASSERT_EQ(outputs(NULL, NULL, in_dir("none/x.log"), "hog"), -1);
	snprintf(sub, sizeof(sub), "--log '%s': no directory '%s'",
		 in_dir("none/x.log"), in_dir("none"));
	ASSERT_STREQ(err, sub);
	touch(in_dir("file"));
	ASSERT_EQ(outputs(NULL, in_dir("file/deeper/x.json"), NULL, "hog"), -1);
	snprintf(sub, sizeof(sub), "--json '%s': '%s' is not a directory",
		 in_dir("file/deeper/x.json"), in_dir("file"));
	ASSERT_STREQ(err, sub);
	return true;
}

static bool test_one_file_twice(void)
{
	char want[9000], name[4200];

	ASSERT_EQ(outputs("-", "-", NULL, "hog"), -1);
	ASSERT_STREQ(err, "--trace and --json both write to standard output ('-')");
	/* the same name, not there yet */
	ASSERT_EQ(outputs(in_dir("x"), in_dir("x"), NULL, "hog"), -1);
	snprintf(want, sizeof(want), "--trace '%s' and --json '%s' are one file",
		 in_dir("x"), in_dir("x"));
	ASSERT_STREQ(err, want);
	/* two names of one new file */
	snprintf(name, sizeof(name), "%s/./x", dir);
	ASSERT_EQ(outputs(NULL, in_dir("x"), name, "hog"), -1);
	/* two names of one existing file: a hard link */
	touch(in_dir("a"));
	ASSERT_EQ(link(in_dir("a"), in_dir("b")), 0);
	ASSERT_EQ(outputs(in_dir("a"), NULL, in_dir("b"), "hog"), -1);
	snprintf(want, sizeof(want), "--trace '%s' and --log '%s' are one file",
		 in_dir("a"), in_dir("b"));
	ASSERT_STREQ(err, want);
	return true;
}

static bool test_output_is_an_input(void)
{
	char want[9000];

	touch(in_dir("w.json"));
	ASSERT_EQ(outputs(in_dir("w.json"), NULL, NULL, in_dir("w.json")), -1);
	snprintf(want, sizeof(want), "--trace '%s' is the file --workload '%s' reads: it would be overwritten",
		 in_dir("w.json"), in_dir("w.json"));
	ASSERT_STREQ(err, want);
	return true;
}

static bool test_out_dirs(void)
{
	struct lsb_path_arg a = { "--out", "", LSB_OUT_DIR };
	char want[9000];

	ASSERT_EQ(lsb_check_paths(&a, 1, err, sizeof(err)), -1);
	ASSERT_STREQ(err, "--out '': expected a directory name");
	a.path = in_dir("new/deeper");	/* made with its parents */
	ASSERT_EQ(lsb_check_paths(&a, 1, err, sizeof(err)), 0);
	a.path = dir;
	ASSERT_EQ(lsb_check_paths(&a, 1, err, sizeof(err)), 0);
	touch(in_dir("file"));
	a.path = in_dir("file");
	ASSERT_EQ(lsb_check_paths(&a, 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "--out '%s': not a directory",
		 in_dir("file"));
	ASSERT_STREQ(err, want);
	a.path = in_dir("file/out");
	ASSERT_EQ(lsb_check_paths(&a, 1, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "--out '%s': '%s' is not a directory",
		 in_dir("file/out"), in_dir("file"));
	ASSERT_STREQ(err, want);
	return true;
}

/* A tree of a few levels and files under @path. */
static void make_tree(const char *path)
{
	char p[4300];
	int i;

	mkdir(path, 0755);
	for (i = 0; i < 40; i++) {
		snprintf(p, sizeof(p), "%s/d%d", path, i % 4);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/d%d/e", path, i % 4);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/d%d/e/f%d", path, i % 4, i);
		touch(p);
	}
	snprintf(p, sizeof(p), "%s/link", path);
	if (symlink(dir, p))	/* removed, not followed */
		return;
}

static bool test_rm_rf_safe(void)
{
	make_tree(in_dir("tree"));
	ASSERT_EQ(lsb_rm_rf_safe(in_dir("tree")), 0);
	ASSERT_TRUE(access(in_dir("tree"), F_OK) && errno == ENOENT);
	ASSERT_EQ(access(in_dir("a"), F_OK), 0);	/* the link's target */
	ASSERT_EQ(lsb_rm_rf_safe(in_dir("tree")), 0);	/* gone already */
	return true;
}

/*
 * A child makes a temporary and a grandchild writing into it, registers
 * both, and gets @sig: it dies of it, and they are gone.
 */
static bool stopped_by(int sig)
{
	int status, fds[2];
	char c;
	pid_t pid;

	ASSERT_EQ(pipe(fds), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid) {
		pid_t worker;

		signal(sig, SIG_DFL);
		make_tree(in_dir("tmp.1"));
		lsb_cleanup_add(in_dir("tmp.1"));
		worker = fork();
		if (!worker) {
			for (;;)
				pause();
		}
		lsb_cleanup_child(worker);
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	ASSERT_EQ(read(fds[0], &c, 1), 1);
	close(fds[0]);
	kill(pid, sig);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(WTERMSIG(status), sig);
	ASSERT_TRUE(access(in_dir("tmp.1"), F_OK) && errno == ENOENT);
	return true;
}

static bool test_signals_remove_temporaries(void)
{
	ASSERT_TRUE(stopped_by(SIGTERM));
	ASSERT_TRUE(stopped_by(SIGINT));
	ASSERT_TRUE(stopped_by(SIGHUP));
	return true;
}

static bool test_forked_child_keeps_parents(void)
{
	int status, h = lsb_cleanup_add(in_dir("mine"));
	pid_t pid;

	ASSERT_TRUE(h >= 0);
	make_tree(in_dir("mine"));
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid) {
		raise(SIGTERM);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	ASSERT_EQ(access(in_dir("mine"), F_OK), 0);
	lsb_cleanup_done(h);
	return true;
}

static bool test_stale_temporaries(void)
{
	struct timeval old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	char name[4200];
	pid_t dead = fork();

	if (!dead)
		_exit(0);
	waitpid(dead, NULL, 0);
	/* a dead maker's, this process's, a live maker's, a reused PID's */
	snprintf(name, sizeof(name), "KEY.tmp.%d", (int)dead);
	make_tree(in_dir(name));
	snprintf(name, sizeof(name), "KEY.tmp.%d", (int)getpid());
	make_tree(in_dir(name));
	snprintf(name, sizeof(name), "KEY.tmp.%d", (int)getppid());
	mkdir(in_dir(name), 0755);
	snprintf(name, sizeof(name), "KEY.tmp.1");
	mkdir(in_dir(name), 0755);
	utimes(in_dir(name), old);	/* changed before init started */
	mkdir(in_dir("KEY.tmp.x"), 0755);	/* not a temporary's name */
	mkdir(in_dir("OTHER.tmp.1"), 0755);
	utimes(in_dir("OTHER.tmp.1"), old);

	ASSERT_EQ(lsb_remove_stale_tmp(in_dir("KEY")), 3);
	snprintf(name, sizeof(name), "KEY.tmp.%d", (int)getppid());
	ASSERT_EQ(access(in_dir(name), F_OK), 0);
	ASSERT_EQ(access(in_dir("KEY.tmp.x"), F_OK), 0);
	ASSERT_EQ(access(in_dir("OTHER.tmp.1"), F_OK), 0);
	ASSERT_TRUE(access(in_dir("KEY.tmp.1"), F_OK));
	return true;
}

static bool test_ranges_text(void)
{
	static const long one[] = { 4 };
	static const long mixed[] = { 0, 1, 2, 5, 7, 8, 12 };
	static const long pairs[] = { 3, 4, 6 };
	char out[64];

	lsb_ranges_text(out, sizeof(out), NULL, 0);
	ASSERT_STREQ(out, "");
	lsb_ranges_text(out, sizeof(out), one, 1);
	ASSERT_STREQ(out, "4");
	lsb_ranges_text(out, sizeof(out), mixed, 7);
	ASSERT_STREQ(out, "0-2, 5, 7-8, 12");
	lsb_ranges_text(out, sizeof(out), pairs, 3);
	ASSERT_STREQ(out, "3-4, 6");
	return true;
}

static bool test_ranges_text_cut(void)
{
	static const long v[] = { 100, 200, 300, 400 };
	char out[10];

	lsb_ranges_text(out, sizeof(out), v, 4);
	ASSERT_STREQ(out, "100, 200,");
	lsb_ranges_text(out, 1, v, 4);
	ASSERT_STREQ(out, "");
	return true;
}

/*
 * The double one bit above 0.66 prints as 0.66 through cJSON (15 digits
 * read back within an epsilon); lsb_json_print() gives it 17 digits, so it
 * reads back as itself, and leaves the others as cJSON prints them.
 */
static bool test_json_print_exact(void)
{
	const double above = nextafter(0.66, 1);
	const double v[] = { above, 0.66, 3, 1e15, -2, 2.5, 1e-5 };
	cJSON *a = cJSON_CreateDoubleArray(v, 7), *back, *e;
	char *ours = lsb_json_print(a, 0), *theirs = cJSON_PrintUnformatted(a);
	size_t i = 0;

	ASSERT_TRUE(ours && theirs);
	ASSERT_STREQ(theirs, "[0.66,0.66,3,1e+15,-2,2.5,1e-05]");
	ASSERT_STREQ(ours, "[0.66000000000000014,0.66,3,1e+15,-2,2.5,1e-05]");
	back = cJSON_Parse(ours);
	ASSERT_TRUE(back);
	cJSON_ArrayForEach(e, back)
		ASSERT_TRUE(e->valuedouble == v[i++]);
	/* the tree printed is as it was: numbers, no text */
	cJSON_ArrayForEach(e, a)
		ASSERT_TRUE(cJSON_IsNumber(e) && !e->valuestring);
	cJSON_Delete(back);
	cJSON_Delete(a);
	free(ours);
	free(theirs);
	return true;
}

/* A plot's title names a file by its last part without ".json". */
static bool test_short_name(void)
{
	char b[64];

	ASSERT_TRUE(!strcmp(lsb_short_name(b, sizeof(b), "bugs/catalogue/workloads/x.json"), "x"));
	ASSERT_TRUE(!strcmp(lsb_short_name(b, sizeof(b), "/t/asym-smt.JSON"), "asym-smt"));
	ASSERT_TRUE(!strcmp(lsb_short_name(b, sizeof(b), "dir/rtapp"), "rtapp"));
	ASSERT_TRUE(!strcmp(lsb_short_name(b, sizeof(b), "hog*4:cpus=0"), "hog*4:cpus=0"));
	ASSERT_TRUE(!strcmp(lsb_short_name(b, sizeof(b), ".json"), ".json"));
	ASSERT_TRUE(!strcmp(lsb_short_name(b, sizeof(b), "quad"), "quad"));
	return true;
}

int main(void)
{
	int ret;

	if (!mkdtemp(dir))
		tap_skip_all("cannot make a temporary directory");
	tap_plan(13);
	TEST(test_good_outputs);
	TEST(test_empty_and_directories);
	TEST(test_one_file_twice);
	TEST(test_output_is_an_input);
	TEST(test_out_dirs);
	TEST(test_rm_rf_safe);
	TEST(test_signals_remove_temporaries);
	TEST(test_forked_child_keeps_parents);
	TEST(test_stale_temporaries);
	TEST(test_ranges_text);
	TEST(test_ranges_text_cut);
	TEST(test_json_print_exact);
	TEST(test_short_name);
	ret = tap_done();
	lsb_rm_rf(dir);
	return ret;
}
