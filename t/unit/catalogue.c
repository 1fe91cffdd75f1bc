// SPDX-License-Identifier: GPL-2.0-only
/*
 * catalogue.c - unit test of metrics/catalogue.c on hand-written results:
 * what a name means (its entry, direction, floor, path) and how a result's
 * number is found and reduced, as every command reads it.
 */
#include <cjson/cJSON.h>

#include "metrics/metrics.h"
#include "t/tap.h"

static const char result_json[] =
	"{\"metrics\": {\"balance_score\": 12.5, \"fairness\": 0.9,"
	" \"migrations_per_s\": {\"SMT\": 3, \"MC\": 4.5, \"PKG\": 0},"
	" \"migrations\": {\"SMT\": 30, \"MC\": 45},"
	" \"wakeup_latency_ns\": {\"p50\": 100, \"p99\": 900, \"max\": 2000},"
	" \"empty\": {}, \"words\": {\"a\": \"x\"}},"
	" \"power\": {\"energy_j\": 1.25, \"idle_residency\": [{\"C6\": 0.5}]},"
	" \"cpus\": [{\"busy_ns\": 7}, {\"busy_ns\": 8}],"
	" \"tasks\": [{\"name\": \"ui\", \"sum_exec_ns\": 3},"
	"  {\"name\": \"bg\", \"sum_exec_ns\": 4}],"
	" \"taskgroups\": [{\"path\": \"/a/b\", \"nr_throttled\": 2}],"
	" \"throughput\": 99}";

static cJSON *result;

static bool value_is(const char *name, double want)
{
	double v = -1;

	return !metric_value(result, name, &v) && v == want;
}

static bool test_find(void)
{
	ASSERT_STREQ(metric_find("balance_score")->name, "balance_score");
	ASSERT_STREQ(metric_find("wakeup_latency_ns.p50")->name,
		     "wakeup_latency_ns");
	ASSERT_STREQ(metric_find("metrics.fairness")->name, "fairness");
	ASSERT_STREQ(metric_find("power.energy_j")->name, "energy_j");
	ASSERT_TRUE(metric_find("balance") == NULL);
	ASSERT_TRUE(metric_find("balance_score_x") == NULL);
	ASSERT_TRUE(metric_find("cpus.0.busy_ns") == NULL);
	ASSERT_TRUE(metric_find(NULL) == NULL);
	return true;
}

static bool test_catalogue_is_whole(void)
{
	size_t i, n, reported = 0;
	const struct metric_def *m = metric_catalogue(&n);

	ASSERT_TRUE(n >= 8);
	for (i = 0; i < n; i++) {
		ASSERT_TRUE(m[i].name && m[i].unit && m[i].doc && *m[i].doc);
		ASSERT_TRUE(metric_find(m[i].name) == &m[i]);
		ASSERT_EQ(m[i].reduce == METRIC_KEY, m[i].key != NULL);
		/* the report's columns come first */
		ASSERT_TRUE(!m[i].reported || reported == i);
		reported += m[i].reported;
	}
	ASSERT_EQ(reported, 8);
	return true;
}

static bool test_direction_and_floor(void)
{
	ASSERT_TRUE(metric_higher_is_better("throughput"));
	ASSERT_TRUE(metric_higher_is_better("fairness"));
	ASSERT_TRUE(metric_higher_is_better("metrics.fairness"));
	ASSERT_FALSE(metric_higher_is_better("balance_score"));
	ASSERT_FALSE(metric_higher_is_better("wakeup_latency_ns.p99"));
	ASSERT_FALSE(metric_higher_is_better("no_such_metric"));
	ASSERT_NEAR(metric_floor("balance_score"), 1000, 0);
	ASSERT_NEAR(metric_floor("migrations_per_s.MC"), 1, 0);
	ASSERT_NEAR(metric_floor("no_such_metric"), 0, 0);
	return true;
}

static bool test_path(void)
{
	char buf[64];

	ASSERT_STREQ(metric_path("wakeup_latency_ns", buf, sizeof(buf)),
		     "wakeup_latency_ns.p99");
	ASSERT_STREQ(metric_path("wakeup_latency_ns.max", buf, sizeof(buf)),
		     "wakeup_latency_ns.max");
	ASSERT_STREQ(metric_path("migrations_per_s", buf, sizeof(buf)),
		     "migrations_per_s");
	return true;
}

static bool test_numbers_and_paths(void)
{
	ASSERT_TRUE(value_is("balance_score", 12.5));
	ASSERT_TRUE(value_is("energy_j", 1.25));		/* power */
	ASSERT_TRUE(value_is("throughput", 99));		/* top level */
	ASSERT_TRUE(value_is("migrations_per_s.MC", 4.5));
	ASSERT_TRUE(value_is("power.idle_residency.0.C6", 0.5));
	ASSERT_TRUE(value_is("idle_residency.0.C6", 0.5));
	ASSERT_TRUE(value_is("cpus.1.busy_ns", 8));
	/* an array's element by its name or path */
	ASSERT_TRUE(value_is("tasks.bg.sum_exec_ns", 4));
	ASSERT_TRUE(value_is("tasks.1.sum_exec_ns", 4));
	ASSERT_TRUE(value_is("taskgroups./a/b.nr_throttled", 2));
	return true;
}

static bool test_reductions(void)
{
	ASSERT_TRUE(value_is("migrations_per_s", 7.5));	/* sum */
	ASSERT_TRUE(value_is("migrations", 75));
	ASSERT_TRUE(value_is("wakeup_latency_ns", 900));	/* its p99 */
	ASSERT_TRUE(value_is("wakeup_latency_ns.p50", 100));
	ASSERT_TRUE(value_is("metrics.migrations_per_s", 7.5));
	ASSERT_TRUE(value_is("metrics.wakeup_latency_ns", 900));
	return true;
}

static bool test_refusals(void)
{
	double v = 42;

	ASSERT_EQ(metric_value(result, "no_such_metric", &v), -1);
	ASSERT_EQ(metric_value(result, "cpus.2.busy_ns", &v), -1);
	ASSERT_EQ(metric_value(result, "cpus.x.busy_ns", &v), -1);
	ASSERT_EQ(metric_value(result, "cpus.-1.busy_ns", &v), -1);
	ASSERT_EQ(metric_value(result, "tasks.nobody.sum_exec_ns", &v), -1);
	ASSERT_EQ(metric_value(result, "taskgroups./a.nr_throttled", &v), -1);
	/* objects only reduce as the catalogue says */
	ASSERT_EQ(metric_value(result, "cpus", &v), -1);
	ASSERT_EQ(metric_value(result, "empty", &v), -1);
	ASSERT_EQ(metric_value(result, "words", &v), -1);
	ASSERT_EQ(metric_value(result, "", &v), -1);
	ASSERT_EQ(metric_value(NULL, "balance_score", &v), -1);
	ASSERT_NEAR(v, 42, 0);
	return true;
}

int main(void)
{
	result = cJSON_Parse(result_json);
	if (!result)
		return 1;
	tap_plan(7);
	TEST(test_find);
	TEST(test_catalogue_is_whole);
	TEST(test_direction_and_floor);
	TEST(test_path);
	TEST(test_numbers_and_paths);
	TEST(test_reductions);
	TEST(test_refusals);
	cJSON_Delete(result);
	return tap_done();
}
