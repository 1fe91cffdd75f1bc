// SPDX-License-Identifier: GPL-2.0-only
/*
 * coverage.c - unit test of coverage/ on hand-made documents of gcov's
 * JSON (no kernel, no gcov): which files are kept and under which name,
 * a line of two objects counted once, a function's lines by its range
 * (inlined copies included), the ranking of the functions never reached,
 * the rounding of the percentages, the JSON and text, and the errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "coverage/coverage.h"
#include "t/tap.h"

/*
 * Two objects: fair.o has fair.c (and a header), build_policy.o has rt.c,
 * idle.c, a second copy of one fair.c line, and a file of another
 * directory. Lines 10-14 are big(), never run; 20-22 small(), called;
 * 30-31 inl(), whose body never ran but whose inlined copy did; 40-45
 * mid(), never run; 50 a line outside any function.
 */
static const char fair_o[] =
	"{\"format_version\": \"1\", \"files\": ["
	"{\"file\": \"/b/KEY.tmp.1/src/kernel/sched/fair.c\", \"lines\": ["
	"{\"line_number\": 10, \"count\": 0}, {\"line_number\": 11, \"count\": 0},"
	"{\"line_number\": 12, \"count\": 0}, {\"line_number\": 14, \"count\": 0},"
	"{\"line_number\": 20, \"count\": 5}, {\"line_number\": 21, \"count\": 5},"
	"{\"line_number\": 22, \"count\": 0},"
	"{\"line_number\": 30, \"count\": 0}, {\"line_number\": 31, \"count\": 7},"
	"{\"line_number\": 40, \"count\": 0}, {\"line_number\": 41, \"count\": 0},"
	"{\"line_number\": 45, \"count\": 0},"
	"{\"line_number\": 50, \"count\": 0}],"
	"\"functions\": ["
	"{\"name\": \"big\", \"start_line\": 9, \"end_line\": 15, \"execution_count\": 0},"
	"{\"name\": \"small\", \"start_line\": 19, \"end_line\": 23, \"execution_count\": 5},"
	"{\"name\": \"inl\", \"start_line\": 29, \"end_line\": 32, \"execution_count\": 0},"
	"{\"name\": \"mid\", \"start_line\": 39, \"end_line\": 46, \"execution_count\": 0},"
	"{\"name\": \"empty\", \"start_line\": 60, \"end_line\": 61, \"execution_count\": 0}]},"
	"{\"file\": \"/b/KEY.tmp.1/src/kernel/sched/sched.h\", \"lines\": ["
	"{\"line_number\": 1, \"count\": 3}], \"functions\": []}]}";

static const char policy_o[] =
	"{\"format_version\": \"1\", \"files\": ["
	"{\"file\": \"kernel/sched/rt.c\", \"lines\": ["
	"{\"line_number\": 1, \"count\": 1}, {\"line_number\": 2, \"count\": 0},"
	"{\"line_number\": 3, \"count\": 0}], \"functions\": ["
	"{\"name\": \"rt_a\", \"start_line\": 1, \"end_line\": 3, \"execution_count\": 1}]},"
	"{\"file\": \"/b/src/kernel/sched/fair.c\", \"lines\": ["
	"{\"line_number\": 22, \"count\": 2}, {\"line_number\": 50, \"count\": 0}],"
	"\"functions\": ["
	"{\"name\": \"small\", \"start_line\": 19, \"end_line\": 23, \"execution_count\": 2}]},"
	"{\"file\": \"/b/src/akernel/sched/idle.c\", \"lines\": ["
	"{\"line_number\": 1, \"count\": 1}], \"functions\": []},"
	"{\"file\": \"/b/src/kernel/sched/sub/x.c\", \"lines\": ["
	"{\"line_number\": 1, \"count\": 1}], \"functions\": []}]}";

/* Both documents added and summed, or abort. */
static void load(struct coverage *c)
{
	coverage_init(c);
	if (coverage_add_gcov_json(c, fair_o, "kernel/sched") ||
	    coverage_add_gcov_json(c, policy_o, "kernel/sched") ||
	    coverage_finish(c)) {
		tap_diag("%s", coverage_last_error());
		abort();
	}
}

/* The function @name of @c (the first of that name), or NULL. */
static const struct coverage_function *func(const struct coverage *c,
					    const char *name)
{
	size_t i;

	for (i = 0; i < c->nr_funcs; i++)
		if (!strcmp(c->funcs[i].name, name))
			return &c->funcs[i];
	return NULL;
}

static bool test_files_kept(void)
{
	struct coverage c;

	load(&c);
	/* headers, other directories and subdirectories are left out */
	ASSERT_EQ(c.nr_files, 2);
	ASSERT_STREQ(c.files[0].name, "kernel/sched/fair.c");
	ASSERT_STREQ(c.files[1].name, "kernel/sched/rt.c");
	ASSERT_EQ(coverage_find_file(&c, "kernel/sched/rt.c"), 1);
	ASSERT_EQ(coverage_find_file(&c, "kernel/sched/sched.h"), -1);
	coverage_release(&c);
	return true;
}

static bool test_lines_once(void)
{
	struct coverage c;

	load(&c);
	/* 13 lines of fair.o; 22 and 50 again from build_policy.o */
	ASSERT_EQ(c.files[0].lines, 13);
	/* 20, 21, 31, and 22 which only the second object ran */
	ASSERT_EQ(c.files[0].executed, 4);
	ASSERT_EQ(c.files[1].lines, 3);
	ASSERT_EQ(c.files[1].executed, 1);
	coverage_release(&c);
	return true;
}

static bool test_function_lines(void)
{
	const struct coverage_function *f;
	struct coverage c;

	load(&c);
	f = func(&c, "small");
	ASSERT_TRUE(f);
	/* one record for both objects' copies, calls summed */
	ASSERT_EQ(f->calls, 7);
	ASSERT_EQ(f->lines, 3);
	ASSERT_EQ(f->executed, 3);
	f = func(&c, "inl");
	ASSERT_TRUE(f);
	ASSERT_EQ(f->calls, 0);
	ASSERT_EQ(f->executed, 1);	/* its inlined copy ran */
	f = func(&c, "big");
	ASSERT_EQ(f->lines, 4);
	ASSERT_EQ(f->executed, 0);
	ASSERT_EQ(func(&c, "empty")->lines, 0);
	ASSERT_EQ(c.nr_funcs, 6);
	coverage_release(&c);
	return true;
}

static bool test_unreached(void)
{
	struct coverage c;
	size_t idx[8], n;

	load(&c);
	n = coverage_unreached(&c, 0, idx, 8);
	/* big (4 lines) before mid (3); inl ran inlined, empty has none */
	ASSERT_EQ(n, 2);
	ASSERT_STREQ(c.funcs[idx[0]].name, "big");
	ASSERT_STREQ(c.funcs[idx[1]].name, "mid");
	ASSERT_EQ(coverage_unreached(&c, 0, idx, 1), 1);
	ASSERT_STREQ(c.funcs[idx[0]].name, "big");
	ASSERT_EQ(coverage_unreached(&c, 1, idx, 8), 0);
	coverage_release(&c);
	return true;
}

static bool test_percent(void)
{
	ASSERT_NEAR(coverage_percent(1, 3), 33.33, 1e-9);
	ASSERT_NEAR(coverage_percent(2, 3), 66.67, 1e-9);
	ASSERT_NEAR(coverage_percent(1, 8), 12.5, 1e-9);
	ASSERT_NEAR(coverage_percent(5, 5), 100, 1e-9);
	ASSERT_NEAR(coverage_percent(0, 0), 0, 1e-9);
	return true;
}

static bool test_json(void)
{
	struct coverage c;
	cJSON *a, *b, *un;
	char *ta, *tb;
	bool same;

	load(&c);
	a = coverage_to_json(&c, 1, NULL);
	b = coverage_to_json(&c, 1, cJSON_CreateObject());
	ta = cJSON_Print(a);
	tb = cJSON_Print(b);
	same = ta && tb && !strcmp(ta, tb);
	free(tb);
	ASSERT_TRUE(same);
	ASSERT_TRUE(strstr(ta, "\"percent\":\t30.77"));	/* 4 of 13 */
	un = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "unreached"),
				 "kernel/sched/fair.c");
	ASSERT_EQ(cJSON_GetArraySize(un), 1);
	ASSERT_STREQ(cJSON_GetStringValue(cJSON_GetObjectItem(
		cJSON_GetArrayItem(un, 0), "function")), "big");
	ASSERT_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(a, "functions")), 6);
	ASSERT_EQ(cJSON_GetNumberValue(cJSON_GetObjectItem(
		cJSON_GetObjectItem(a, "total"), "lines")), 16);
	free(ta);
	cJSON_Delete(a);
	cJSON_Delete(b);
	coverage_release(&c);
	return true;
}

static bool test_text(void)
{
	static const char *const files[] = { "kernel/sched/fair.c",
					     "kernel/sched/core.c" };
	struct coverage c;
	char *t;

	load(&c);
	t = coverage_to_text(&c, files, 2, 5);
	ASSERT_TRUE(t);
	ASSERT_TRUE(strstr(t, "kernel/sched/fair.c                   13         4   30.77\n"));
	ASSERT_TRUE(strstr(t, "total                                 16         5   31.25\n"));
	ASSERT_TRUE(strstr(t, "the 2 biggest functions of kernel/sched/fair.c no run reached:"));
	ASSERT_TRUE(strstr(t, "      4  big                                      fair.c:9-15\n"));
	ASSERT_TRUE(strstr(t, "kernel/sched/core.c: not in these objects"));
	free(t);
	coverage_release(&c);
	return true;
}

static bool test_errors(void)
{
	struct coverage c;

	coverage_init(&c);
	ASSERT_EQ(coverage_add_gcov_json(&c, "{", "kernel/sched"), -1);
	ASSERT_STREQ(coverage_last_error(), "gcov's JSON: does not parse");
	ASSERT_EQ(coverage_add_gcov_json(&c, "{}", "kernel/sched"), -1);
	ASSERT_STREQ(coverage_last_error(), "gcov's JSON: no \"files\" array");
	ASSERT_EQ(coverage_add_gcov_json(&c,
		"{\"files\": [{\"file\": \"kernel/sched/a.c\", \"lines\": [{\"line_number\": 3}]}]}",
		"kernel/sched"), -1);
	ASSERT_STREQ(coverage_last_error(),
		     "gcov's JSON: file 'kernel/sched/a.c': a line without a line_number and count");
	ASSERT_EQ(coverage_add_gcov_json(&c,
		"{\"files\": [{\"file\": \"kernel/sched/a.c\", \"lines\": [], \"functions\": [{\"name\": \"f\", \"start_line\": -1, \"end_line\": 2, \"execution_count\": 0}]}]}",
		"kernel/sched"), -1);
	ASSERT_TRUE(strstr(coverage_last_error(), "a function without"));
	/* a file of another directory is not read at all */
	ASSERT_EQ(coverage_add_gcov_json(&c,
		"{\"files\": [{\"file\": \"kernel/a.c\", \"lines\": 7}]}",
		"kernel/sched"), 0);
	ASSERT_EQ(coverage_merge("/nonexistent/x", NULL, 0, 1, NULL, NULL), -1);
	ASSERT_STREQ(coverage_last_error(), "no run's counts to merge");
	coverage_release(&c);
	return true;
}

int main(void)
{
	tap_plan(8);
	TEST(test_files_kept);
	TEST(test_lines_once);
	TEST(test_function_lines);
	TEST(test_unreached);
	TEST(test_percent);
	TEST(test_json);
	TEST(test_text);
	TEST(test_errors);
	return tap_done();
}
