// SPDX-License-Identifier: GPL-2.0-only
/*
 * hunt.c - unit test of hunt/ without a kernel: a case is a function of
 * the seed and its index, every case parses as rt-app for its machine,
 * the reductions are smaller and end, the verdicts of hand-made results
 * (the worst check, a WARN's site, a crash without its numbers, the
 * level of an idle CPU, the windows), what is new against a reference,
 * and the oracle's variant and verdict.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hunt/hunt.h"
#include "t/tap.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

static const char *const topo[] = { "quad-smt", "numa-2", "2x2x2", "1x2x1" };
static const int cpus[] = { 8, 8, 8, 2 };

static struct hunt_space space(unsigned long long seed)
{
	return (struct hunt_space){ topo, cpus, 4, 500000000ULL, 16, seed };
}

static char *text_of(unsigned long long seed, unsigned long long i)
{
	struct hunt_space s = space(seed);
	struct hunt_case c;
	char *t;

	if (hunt_generate(&c, &s, i))
		return NULL;
	t = hunt_case_text(&c, NULL);
	hunt_case_release(&c);
	return t;
}

static bool test_deterministic(void)
{
	char *a = text_of(1, 17), *b = text_of(1, 17), *c = text_of(1, 18);
	char *d = text_of(2, 17);

	ASSERT_STREQ(a, b);
	ASSERT_TRUE(strcmp(a, c) != 0);
	ASSERT_TRUE(strcmp(a, d) != 0);
	free(a);
	free(b);
	free(c);
	free(d);
	return true;
}

/* 300 cases: each parses as rt-app and keeps within its task budget */
static bool test_valid_cases(void)
{
	struct hunt_space s = space(7);
	struct workload w;
	struct hunt_case c;
	char err[512], *t;
	unsigned long long i;
	int bad;

	for (i = 0; i < 300; i++) {
		ASSERT_EQ(hunt_generate(&c, &s, i), 0);
		t = hunt_case_text(&c, "a comment");
		bad = workload_parse_json(&w, "case.json", t, err, sizeof(err)) ||
		      workload_check(&w, c.nr_cpus, err, sizeof(err));
		if (bad)
			tap_diag("case %llu: %s\n%s", i, err, t);
		ASSERT_FALSE(bad);
		ASSERT_TRUE(hunt_case_tasks(&c) <= s.max_tasks + 6);
		workload_release(&w);
		free(t);
		hunt_case_release(&c);
	}
	return true;
}

/* every reduction of a case is smaller text, and the list ends */
static bool test_reductions(void)
{
	struct hunt_space s = space(3);
	struct hunt_case c, r;
	char *orig, *t;
	int k, n = 0, ret;

	ASSERT_EQ(hunt_generate(&c, &s, 5), 0);
	orig = hunt_case_text(&c, NULL);
	for (k = 0; (ret = hunt_reduce(&r, &c, k)) == 1; k++) {
		t = hunt_case_text(&r, NULL);
		ASSERT_TRUE(strcmp(t, orig) != 0 || r.duration_ns < c.duration_ns ||
			    r.nr_cpus < c.nr_cpus);
		ASSERT_TRUE(strlen(t) <= strlen(orig) ||
			    hunt_case_tasks(&r) <= hunt_case_tasks(&c));
		free(t);
		hunt_case_release(&r);
		n++;
	}
	ASSERT_EQ(ret, 0);
	ASSERT_TRUE(n > 0);
	free(orig);
	hunt_case_release(&c);
	return true;
}

/* a shape loses CPUs, and the CPU lists lose theirs */
static bool test_fewer_cpus(void)
{
	struct hunt_case c = { "2x2x2", 8, 400000000ULL, 0, NULL }, r;
	int k, ret, shrunk = 0;
	char *t;

	c.workload = cJSON_Parse("{\"tasks\": {\"a\": {\"cpus\": [1, 6], \"run\": 1000}}}");
	for (k = 0; (ret = hunt_reduce(&r, &c, k)) == 1; k++) {
		if (r.nr_cpus < 8) {
			t = hunt_case_text(&r, NULL);
			ASSERT_EQ(r.nr_cpus, 4);
			ASSERT_TRUE(strstr(t, "6") == NULL);
			free(t);
			shrunk++;
		}
		hunt_case_release(&r);
	}
	ASSERT_EQ(shrunk, 3);
	hunt_case_release(&c);
	return true;
}

/* a run's results: warnings, idle-while-waiting count and time, energy */
#define RESULTS_HEAD \
	"{\"kernel_warnings\": %d, \"kernel_warning_first\": {\"message\": " \
	"\"WARNING: CPU: 1 PID: 0 at kernel/sched/fair.c:5730 fn+0x1/0x2\"}," \
	"\"invariants\": {" \
	"\"idle_while_waiting\": {\"window_ns\": 10000000, \"count\": %d, " \
	"\"time_ns\": %d, \"first\": {\"idle_cpu\": 0, \"task_cpu\": 5, \"task\": \"t1\"}}," \
	"\"starvation\": {\"bound_ns\": 200000000, \"count\": 0, \"max_ns\": 0}," \
	"\"useless_migrations\": {\"count\": 3}}," \
	"\"power\": {\"energy_j\": %.3f},"

static const char results[] = RESULTS_HEAD
	"\"tasks\": [{\"name\": \"t1\", \"sum_exec_ns\": %d}]}";

static bool judge(struct hunt_verdict *v, int warns, int idle, int idle_ns,
		  int exec, const struct topology *t)
{
	char json[2048];

	snprintf(json, sizeof(json), results, warns, idle, idle_ns, 1.5, exec);
	return !hunt_judge(v, 0, NULL, json, t, 2);
}

static bool test_judge(void)
{
	struct topology *t = malloc(sizeof(*t));
	struct hunt_verdict v;
	char err[256];

	ASSERT_EQ(topology_from_spec(t, "numa-2", err, sizeof(err)), 0);
	ASSERT_TRUE(judge(&v, 2, 1, 30000000, 0, t));
	ASSERT_EQ(v.check, HUNT_WARN);
	ASSERT_STREQ(v.signature, "warn:kernel/sched/fair.c:5730");
	ASSERT_EQ(v.broken, 1u << HUNT_WARN | 1u << HUNT_IDLE | 1u << HUNT_USELESS);
	/* CPUs 0 and 5 of numa-2 are on two nodes */
	ASSERT_TRUE(judge(&v, 0, 1, 30000000, 0, t));
	ASSERT_STREQ(v.signature, "idle-while-waiting:numa");
	ASSERT_STREQ(v.task, "t1");
	/* one window in all is the kernel's reaction time, not a failure */
	ASSERT_TRUE(judge(&v, 0, 1, 15000000, 0, t));
	ASSERT_EQ(v.check, HUNT_USELESS);
	ASSERT_EQ(hunt_judge(&v, 4, "kernel panic at 123 ns on CPU 3: BUG", NULL, t, 2), 0);
	ASSERT_STREQ(v.signature, "crash:kernel panic at N ns on CPU N: BUG");
	ASSERT_EQ(hunt_judge(&v, 0, NULL, "{", t, 2), -1);
	free(t);
	return true;
}

static bool test_differ(void)
{
	struct hunt_verdict v, ref;
	char a[2048], b[2048];

	/* the same idle CPU on the reference: only the CPU time is new */
	snprintf(a, sizeof(a), results, 0, 1, 30000000, 1.5, 100000000);
	snprintf(b, sizeof(b), results, 0, 1, 30000000, 1.5, 50000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&ref, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_differ(&v, &ref, a, b, 0.2), HUNT_CPU_TIME);
	ASSERT_STREQ(v.task, "t1");
	/* a fork storm's children by rank, not by name: luck is no change */
	{
		static const char storm[] =
			"{\"tasks\": [{\"name\": \"s\", \"sum_exec_ns\": 1000000},"
			"{\"name\": \"kid-f1\", \"sum_exec_ns\": %d},"
			"{\"name\": \"kid-f2\", \"sum_exec_ns\": %d},"
			"{\"name\": \"kid-f13\", \"sum_exec_ns\": %d}]}";
		struct hunt_verdict c0 = { 0 }, c1 = { 0 };
		char x[512], y[512];

		snprintf(x, sizeof(x), storm, 7000000, 1400000, 10000000);
		snprintf(y, sizeof(y), storm, 1400000, 7000000, 10000000);
		ASSERT_EQ(hunt_differ(&c0, &c1, x, y, 0.2), HUNT_CLEAN);
		snprintf(y, sizeof(y), storm, 1400000, 1000000, 10000000);
		ASSERT_EQ(hunt_differ(&c0, &c1, x, y, 0.2), HUNT_CPU_TIME);
		ASSERT_STREQ(c0.task, "kid-f1");
		ASSERT_TRUE(strstr(c0.detail, "kid's tasks, the busiest first: number 2 of 3 ran 7.000 ms against 1.400 ms") != NULL);
	}
	/* within the tolerance: nothing new */
	snprintf(b, sizeof(b), results, 0, 1, 30000000, 1.5, 90000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&ref, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_differ(&v, &ref, a, b, 0.2), HUNT_CLEAN);
	ASSERT_STREQ(v.signature, "clean");
	/* a WARN on both, an idle CPU only here: that, with its level */
	{
		struct topology *t = malloc(sizeof(*t));
		char err[256], c[2048];

		ASSERT_EQ(topology_from_spec(t, "numa-2", err, sizeof(err)), 0);
		snprintf(a, sizeof(a), results, 1, 2, 30000000, 1.5, 100000000);
		snprintf(c, sizeof(c), results, 1, 0, 0, 1.5, 100000000);
		ASSERT_EQ(hunt_judge(&v, 0, NULL, a, t, 2), 0);
		ASSERT_EQ(hunt_judge(&ref, 0, NULL, c, t, 2), 0);
		ASSERT_EQ(hunt_differ(&v, &ref, a, c, 0.2), HUNT_IDLE);
		ASSERT_STREQ(v.signature, "idle-while-waiting:numa");
		free(t);
	}
	/* a WARN the reference has not */
	snprintf(a, sizeof(a), results, 1, 0, 0, 1.5, 100000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&ref, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_differ(&v, &ref, a, b, 0.2), HUNT_WARN);
	ASSERT_STREQ(v.signature, "warn:kernel/sched/fair.c:5730");
	/* energy: a fraction beyond the tolerance, and 10 mJ */
	snprintf(a, sizeof(a), results, 0, 0, 0, 2.0, 100000000);
	snprintf(b, sizeof(b), results, 0, 0, 0, 1.5, 100000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&ref, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_differ(&v, &ref, a, b, 0.2), HUNT_ENERGY);
	snprintf(a, sizeof(a), results, 0, 0, 0, 0.004, 100000000);
	snprintf(b, sizeof(b), results, 0, 0, 0, 0.001, 100000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&ref, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_differ(&v, &ref, a, b, 0.2), HUNT_CLEAN);
	/* and only more of it: a saving is no failure */
	snprintf(a, sizeof(a), results, 0, 0, 0, 1.5, 100000000);
	snprintf(b, sizeof(b), results, 0, 0, 0, 2.0, 100000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&ref, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_differ(&v, &ref, a, b, 0.2), HUNT_CLEAN);
	return true;
}

/*
 * @text's variant of the oracle @kind on @machine as text (the variant's
 * machine into @grown, 64 bytes, when not NULL), or NULL when the relation does not
 * apply
 */
static char *variant_on(const char *machine, int nr_cpus, const char *text,
			int kind, int *ret, char *grown)
{
	struct hunt_case c = { "", nr_cpus, 500000000ULL, 0, NULL }, w;
	char *out = NULL;

	snprintf(c.topology, sizeof(c.topology), "%s", machine);
	c.workload = cJSON_Parse(text);
	*ret = hunt_variant(&w, &c, kind);
	if (*ret == 1) {
		out = cJSON_PrintUnformatted(w.workload);
		if (grown)
			snprintf(grown, 64, "%.40s %d", w.topology, w.nr_cpus);
		hunt_case_release(&w);
	}
	hunt_case_release(&c);
	return out;
}

static char *variant_of(const char *text, int *ret)
{
	return variant_on("quad-smt", 8, text, HUNT_ORACLE_WEIGHTS, ret, NULL);
}

static bool test_weights_variant(void)
{
	static const char *const not[] = {
		/* a task in the root group, beside the groups */
		"{\"lsb-taskgroups\": {\"/a\": {}}, \"tasks\": {"
		"\"x\": {\"taskgroup\": \"/a\", \"run\": 1},"
		"\"y\": {\"run\": 1}}}",
		/* no group at all */
		"{\"tasks\": {\"x\": {\"run\": 1}}}",
		/* a forked template without a group: its children in the root */
		"{\"lsb-taskgroups\": {\"/a\": {}}, \"tasks\": {"
		"\"x\": {\"taskgroup\": \"/a\", \"fork\": \"c\", \"sleep\": 1000},"
		"\"c\": {\"instance\": 0, \"loop\": 1, \"run\": 1}}}",
		/* a weight past 10000 doubled, in the groups or in time */
		"{\"lsb-taskgroups\": {\"/a\": {\"cpu.weight\": 5001}}, \"tasks\": {"
		"\"x\": {\"taskgroup\": \"/a\", \"run\": 1}}}",
		"{\"lsb-taskgroups\": {\"/a\": {}}, \"tasks\": {"
		"\"x\": {\"taskgroup\": \"/a\", \"run\": 1}}, \"lsb-events\": ["
		"{\"time\": 10, \"taskgroup\": \"/a\", \"cpu.weight\": 6000}]}",
		/* an idle group's weight is fixed */
		"{\"lsb-taskgroups\": {\"/a\": {\"cpu.idle\": 1}, \"/b\": {}}, \"tasks\": {"
		"\"x\": {\"taskgroup\": \"/a\", \"run\": 1},"
		"\"y\": {\"taskgroup\": \"/b\", \"run\": 1}}}",
		/* a nested group: its parent's tasks weigh by nice */
		"{\"tasks\": {\"x\": {\"taskgroup\": \"/a/b\", \"run\": 1}}}",
		/* a phase back in the root */
		"{\"tasks\": {\"x\": {\"taskgroup\": \"/a\", \"phases\": {"
		"\"p0\": {\"run\": 1}, \"p1\": {\"taskgroup\": \"/\", \"run\": 1}}}}}",
		/* a weight set another way */
		"{\"lsb-taskgroups\": {\"/a\": {\"cpu.shares\": 2048}}, \"tasks\": {"
		"\"x\": {\"taskgroup\": \"/a\", \"run\": 1}}}",
	};
	char *t;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(not) / sizeof(not[0]); i++) {
		t = variant_of(not[i], &ret);
		if (ret)
			tap_diag("not %zu: %d %s", i, ret, t);
		ASSERT_EQ(ret, 0);
		ASSERT_TRUE(t == NULL);
	}
	/* every weight doubled; the default's too; a group named only by a task */
	t = variant_of("{\"lsb-taskgroups\": {\"/a\": {\"cpu.weight\": 1, \"cpu.max\": \"5000 100000\"},"
		       "\"/b\": {\"cpu.uclamp.min\": \"20\"}}, \"tasks\": {"
		       "\"x\": {\"taskgroup\": \"/a\", \"fork\": \"c\", \"sleep\": 1000},"
		       "\"c\": {\"instance\": 0, \"taskgroup\": \"/b\", \"loop\": 1, \"run\": 1},"
		       "\"y\": {\"taskgroup\": \"/c\", \"run\": 1}},"
		       "\"lsb-events\": [{\"time\": 5, \"cpu\": 1, \"online\": false},"
		       "{\"time\": 10, \"taskgroup\": \"/b\", \"cpu.weight\": 5000}]}",
		       &ret);
	ASSERT_EQ(ret, 1);
	ASSERT_STREQ(t, "{\"lsb-taskgroups\":{\"/a\":{\"cpu.weight\":2,\"cpu.max\":\"5000 100000\"},"
		     "\"/b\":{\"cpu.uclamp.min\":\"20\",\"cpu.weight\":200},\"/c\":{\"cpu.weight\":200}},"
		     "\"tasks\":{\"x\":{\"taskgroup\":\"/a\",\"fork\":\"c\",\"sleep\":1000},"
		     "\"c\":{\"instance\":0,\"taskgroup\":\"/b\",\"loop\":1,\"run\":1},"
		     "\"y\":{\"taskgroup\":\"/c\",\"run\":1}},"
		     "\"lsb-events\":[{\"time\":5,\"cpu\":1,\"online\":false},"
		     "{\"time\":10,\"taskgroup\":\"/b\",\"cpu.weight\":10000}]}");
	free(t);
	return true;
}

/* the tasks in the reverse order; not with one task */
static bool test_order_variant(void)
{
	char *t;
	int ret;

	t = variant_on("quad-smt", 8, "{\"tasks\": {\"x\": {\"run\": 1}}}",
		       HUNT_ORACLE_ORDER, &ret, NULL);
	ASSERT_EQ(ret, 0);
	/* random lengths are drawn by the task's index: not with them */
	t = variant_on("quad-smt", 8, "{\"tasks\": {\"x\": {\"run\": 1}, \"y\": {\"phases\": {"
		       "\"p\": {\"lsb-run\": {\"distribution\": \"exponential\", \"mean\": 9}}}}}}",
		       HUNT_ORACLE_ORDER, &ret, NULL);
	ASSERT_EQ(ret, 0);
	t = variant_on("quad-smt", 8, "{\"global\": {\"duration\": 1}, \"tasks\": {"
		       "\"x\": {\"run\": 1}, \"y\": {\"run\": 2}, \"z\": {\"run\": 3}}}",
		       HUNT_ORACLE_ORDER, &ret, NULL);
	ASSERT_EQ(ret, 1);
	ASSERT_STREQ(t, "{\"global\":{\"duration\":1},\"tasks\":{"
		     "\"z\":{\"run\":3},\"y\":{\"run\":2},\"x\":{\"run\":1}}}");
	free(t);
	ASSERT_STREQ(hunt_oracle_name(hunt_oracle_parse("order")), "order");
	ASSERT_EQ(hunt_oracle_parse("nice"), -1);
	return true;
}

/*
 * One more core in each package: every CPU the case names keeps its
 * place (SMT siblings are numbered apart, so a sibling's number moves);
 * not on a preset.
 */
static bool test_grow_variant(void)
{
	char m[64], *t;
	int ret;

	t = variant_on("quad-smt", 8, "{\"tasks\": {\"x\": {\"run\": 1}}}",
		       HUNT_ORACLE_GROW, &ret, m);
	ASSERT_EQ(ret, 0);
	/* 1x3x2: CPU 3 is core 0's second thread, CPU 4 on 1x4x2 */
	t = variant_on("1x3x2", 6, "{\"lsb-taskgroups\": {\"/a\": {\"cpuset.cpus\": \"0-3\"}},"
		       "\"tasks\": {\"x\": {\"cpus\": [2, 3], \"phases\": {\"p\": {\"cpus\": [5], \"run\": 1}}}},"
		       "\"lsb-events\": [{\"time\": 5, \"cpu\": 5, \"online\": false},"
		       "{\"time\": 6, \"taskgroup\": \"/a\", \"cpuset.cpus\": \"1,5\"}]}",
		       HUNT_ORACLE_GROW, &ret, m);
	ASSERT_EQ(ret, 1);
	ASSERT_STREQ(m, "1x4x2 8");
	ASSERT_STREQ(t, "{\"lsb-taskgroups\":{\"/a\":{\"cpuset.cpus\":\"0,1,2,4\"}},"
		     "\"tasks\":{\"x\":{\"cpus\":[2,4],\"phases\":{\"p\":{\"cpus\":[6],\"run\":1}}}},"
		     "\"lsb-events\":[{\"time\":5,\"cpu\":6,\"online\":false},"
		     "{\"time\":6,\"taskgroup\":\"/a\",\"cpuset.cpus\":\"1,6\"}]}");
	free(t);
	/* 2x2x1: package 1's first core, CPU 2, is CPU 3 on 2x3x1 */
	t = variant_on("2x2x1", 4, "{\"tasks\": {\"x\": {\"cpus\": [1, 2, 3]}}}",
		       HUNT_ORACLE_GROW, &ret, m);
	ASSERT_EQ(ret, 1);
	ASSERT_STREQ(m, "2x3x1 6");
	ASSERT_STREQ(t, "{\"tasks\":{\"x\":{\"cpus\":[1,3,4]}}}");
	free(t);
	/* a CPU the machine does not have: no variant */
	t = variant_on("2x2x1", 4, "{\"tasks\": {\"x\": {\"cpus\": [4]}}}",
		       HUNT_ORACLE_GROW, &ret, m);
	ASSERT_EQ(ret, 0);
	return true;
}

/*
 * The same machine numbered backwards: package p is P-1-p, its core c
 * is C-1-c, a thread keeps its rank; not on one core or a preset.
 */
static bool test_renumber_variant(void)
{
	char m[64], *t;
	int ret;

	t = variant_on("quad-smt", 8, "{\"tasks\": {\"x\": {\"run\": 1}}}",
		       HUNT_ORACLE_RENUMBER, &ret, m);
	ASSERT_EQ(ret, 0);
	t = variant_on("1x1x2", 2, "{\"tasks\": {\"x\": {\"cpus\": [1]}}}",
		       HUNT_ORACLE_RENUMBER, &ret, m);
	ASSERT_EQ(ret, 0);
	/* 2x2x2: package 0's cores 0, 1 and their siblings 4, 5 */
	t = variant_on("2x2x2", 8, "{\"lsb-taskgroups\": {\"/a\": {\"cpuset.cpus\": \"0-2\"}},"
		       "\"tasks\": {\"x\": {\"cpus\": [0, 5], \"phases\": {\"p\": {\"cpus\": [7], \"run\": 1}}}},"
		       "\"lsb-events\": [{\"time\": 5, \"cpu\": 3, \"online\": false}]}",
		       HUNT_ORACLE_RENUMBER, &ret, m);
	ASSERT_EQ(ret, 1);
	ASSERT_STREQ(m, "2x2x2 8");
	ASSERT_STREQ(t, "{\"lsb-taskgroups\":{\"/a\":{\"cpuset.cpus\":\"1,2,3\"}},"
		     "\"tasks\":{\"x\":{\"cpus\":[3,6],\"phases\":{\"p\":{\"cpus\":[4],\"run\":1}}}},"
		     "\"lsb-events\":[{\"time\":5,\"cpu\":0,\"online\":false}]}");
	free(t);
	ASSERT_STREQ(hunt_oracle_name(hunt_oracle_parse("renumber")), "renumber");
	return true;
}

/* the generator's cases: every oracle's variants parse, and some are */
static bool test_variants_valid(void)
{
	static const char *const shapes[] = { "2x2x2", "1x3x2", "2x2x1", "1x2x1" };
	static const int nr[] = { 8, 6, 4, 2 };
	struct hunt_space s = space(11);
	struct workload w;
	struct hunt_case c, v;
	char err[512], *t;
	unsigned long long i;
	int n[HUNT_NR_ORACLES] = { 0 }, bad, k;

	s.topology = shapes;
	s.nr_cpus = nr;
	for (i = 0; i < 1600; i++) {
		k = HUNT_ORACLE_WEIGHTS + (int)(i % 4);
		ASSERT_EQ(hunt_generate(&c, &s, i), 0);
		if (hunt_variant(&v, &c, k) == 1) {
			t = hunt_case_text(&v, NULL);
			bad = workload_parse_json(&w, "variant.json", t, err, sizeof(err)) ||
			      workload_check(&w, v.nr_cpus, err, sizeof(err));
			if (bad)
				tap_diag("case %llu: %s\n%s", i, err, t);
			ASSERT_FALSE(bad);
			workload_release(&w);
			free(t);
			hunt_case_release(&v);
			n[k]++;
		}
		hunt_case_release(&c);
	}
	tap_diag("variants of 400 cases each: weights %d, order %d, grow %d, renumber %d",
		 n[HUNT_ORACLE_WEIGHTS], n[HUNT_ORACLE_ORDER], n[HUNT_ORACLE_GROW],
		 n[HUNT_ORACLE_RENUMBER]);
	ASSERT_TRUE(n[HUNT_ORACLE_WEIGHTS] > 0);
	ASSERT_TRUE(n[HUNT_ORACLE_ORDER] > 100);
	ASSERT_TRUE(n[HUNT_ORACLE_GROW] > 300);
	ASSERT_TRUE(n[HUNT_ORACLE_RENUMBER] > 250);
	return true;
}

/* the same, with the work the task did (the CPU time alike everywhere) */
static const char work_results[] = RESULTS_HEAD
	"\"tasks\": [{\"name\": \"t1\", \"sum_exec_ns\": 1, \"run_work_ns\": %d}]}";
/* two tasks' work */
static const char two_results[] = RESULTS_HEAD
	"\"tasks\": [{\"name\": \"a\", \"run_work_ns\": %d},"
	"{\"name\": \"b\", \"run_work_ns\": %d}]}";

/* "order" and "grow" judge the tasks' work together */
static bool test_oracle_total(void)
{
	struct hunt_verdict v, w = { 0 };
	char a[2048], b[2048];

	/* the shares move between the tasks: the relation holds */
	snprintf(a, sizeof(a), two_results, 0, 0, 0, 1.5, 100000000, 20000000);
	snprintf(b, sizeof(b), two_results, 0, 0, 0, 1.5, 20000000, 100000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_ORDER, a, b, &w, 0.2), 0);
	/* less work together in the reverse order */
	snprintf(b, sizeof(b), two_results, 0, 0, 0, 1.5, 20000000, 60000000);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_ORDER, a, b, &w, 0.2), 1);
	ASSERT_EQ(v.check, HUNT_ORACLE);
	ASSERT_STREQ(v.signature, "oracle:order");
	ASSERT_STREQ(hunt_check_name(HUNT_ORACLE), "oracle");
	ASSERT_STREQ(v.detail, "the tasks did the work of 120.000 ms together, 80.000 ms with the tasks in the reverse order");
	/* and more: a change either way */
	ASSERT_EQ(hunt_judge(&v, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_ORDER, b, a, &w, 0.2), 1);
	/* a core more: more work is no failure, less is */
	ASSERT_EQ(hunt_judge(&v, 0, NULL, b, NULL, 2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_GROW, b, a, &w, 0.2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_GROW, a, b, &w, 0.2), 1);
	ASSERT_STREQ(v.signature, "oracle:grow");
	return true;
}

static bool test_oracle_verdict(void)
{
	struct hunt_verdict v, w = { 0 };
	char a[2048], b[2048];

	/* a task's work past the tolerance: worse than a useless migration */
	snprintf(a, sizeof(a), work_results, 0, 0, 0, 1.5, 100000000);
	snprintf(b, sizeof(b), work_results, 0, 0, 0, 1.5, 60000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(v.check, HUNT_USELESS);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, b, &w, 0.2), 1);
	ASSERT_EQ(v.check, HUNT_ORACLE);
	ASSERT_STREQ(v.signature, "oracle:weights");
	ASSERT_STREQ(v.task, "t1");
	ASSERT_STREQ(v.detail, "task t1 did the work of 100.000 ms against 60.000 ms with every group's weight doubled");
	ASSERT_TRUE(v.broken & 1u << HUNT_USELESS);
	/* within the tolerance, or under 5 ms: the relation holds */
	snprintf(b, sizeof(b), work_results, 0, 0, 0, 1.5, 85000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, b, &w, 0.2), 0);
	ASSERT_EQ(v.check, HUNT_USELESS);
	snprintf(a, sizeof(a), work_results, 0, 0, 0, 1.5, 4000000);
	snprintf(b, sizeof(b), work_results, 0, 0, 0, 1.5, 1000);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, b, &w, 0.2), 0);
	/* below a WARN */
	snprintf(a, sizeof(a), work_results, 1, 0, 0, 1.5, 100000000);
	snprintf(b, sizeof(b), work_results, 1, 0, 0, 1.5, 10000000);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, b, &w, 0.2), 1);
	ASSERT_EQ(v.check, HUNT_WARN);
	ASSERT_STREQ(v.signature_of[HUNT_ORACLE], "oracle:weights");
	/* a variant that crashed breaks it */
	ASSERT_EQ(hunt_judge(&w, 4, "kernel BUG at 12", NULL, NULL, 2), 0);
	ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
	ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, NULL, &w, 0.2), 1);
	ASSERT_TRUE(v.broken & 1u << HUNT_ORACLE);
	/* with the reference breaking it too, it is not new */
	{
		struct hunt_verdict ref, none = { 0 };

		snprintf(a, sizeof(a), work_results, 0, 0, 0, 1.5, 100000000);
		snprintf(b, sizeof(b), work_results, 0, 0, 0, 1.5, 60000000);
		ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
		ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, b, &none, 0.2), 1);
		ASSERT_EQ(hunt_judge(&ref, 0, NULL, a, NULL, 2), 0);
		ASSERT_EQ(hunt_oracle(&ref, HUNT_ORACLE_WEIGHTS, a, b, &none, 0.2), 1);
		ASSERT_EQ(hunt_differ(&v, &ref, a, a, 0.2), HUNT_CLEAN);
		ASSERT_EQ(hunt_judge(&v, 0, NULL, a, NULL, 2), 0);
		ASSERT_EQ(hunt_oracle(&v, HUNT_ORACLE_WEIGHTS, a, b, &none, 0.2), 1);
		ASSERT_EQ(hunt_judge(&ref, 0, NULL, a, NULL, 2), 0);
		ASSERT_EQ(hunt_differ(&v, &ref, a, a, 0.2), HUNT_ORACLE);
		ASSERT_STREQ(v.signature, "oracle:weights");
	}
	return true;
}

/* the names of a kernel path, "a b c" */
static void path_names(char *out, size_t len, cJSON *path)
{
	const cJSON *n;
	size_t at = 0;

	out[0] = '\0';
	cJSON_ArrayForEach(n, path)
		at += (size_t)snprintf(out + at, len - at, "%s%s", at ? " " : "",
				       cJSON_GetStringValue(n));
	cJSON_Delete(path);
}

static bool test_kernel_path(void)
{
	static const char warned[] =
		"{\"kernel_warnings\": 1, \"kernel_warning_first\": {\"time_ns\": 1000000,"
		" \"message\": \"WARNING: CPU: 0 PID: 5 at kernel/sched/fair.c:5722\","
		" \"path\": [\"entity_tick\", \"task_tick_fair\", \"sched_tick\"]}}";
	static const char crashed[] =
		"kernel panic at 1000000 ns on CPU 1: BUG!; kernel path: entity_tick <- task_tick_fair <- sched_tick;"
		" [    0.001000] BUG: failure at kernel/sched/fair.c:5722/entity_tick()!";
	struct hunt_verdict v;
	char names[256];

	/* a WARN's from the results, a crash's from its words */
	path_names(names, sizeof(names), hunt_kernel_path(HUNT_WARN, NULL, warned));
	ASSERT_STREQ(names, "entity_tick task_tick_fair sched_tick");
	path_names(names, sizeof(names), hunt_kernel_path(HUNT_CRASHED, crashed, NULL));
	ASSERT_STREQ(names, "entity_tick task_tick_fair sched_tick");
	/* at the end of the words too */
	path_names(names, sizeof(names), hunt_kernel_path(HUNT_CRASHED,
		   "kernel panic at 1 ns on CPU 0: BUG!; kernel path: pick_task_fair", NULL));
	ASSERT_STREQ(names, "pick_task_fair");
	/* none: a plain build's, another check's */
	ASSERT_TRUE(hunt_kernel_path(HUNT_CRASHED, "kernel panic at 1 ns on CPU 0: BUG!", NULL) == NULL);
	ASSERT_TRUE(hunt_kernel_path(HUNT_WARN, NULL, "{\"kernel_warnings\": 0}") == NULL);
	ASSERT_TRUE(hunt_kernel_path(HUNT_STARVED, crashed, warned) == NULL);
	/* a crash signs alike in a plain and a work build */
	ASSERT_EQ(hunt_judge(&v, 4, crashed, NULL, NULL, 2), 0);
	ASSERT_STREQ(v.signature, "crash:kernel panic at N ns on CPU N: BUG!; [    N.N] BUG: failure at kernel/sched/fair.c:N/entity_tick()!");
	ASSERT_EQ(hunt_judge(&v, 4, "kernel panic at 1 ns on CPU 0: BUG!; kernel path: a <- b", NULL, NULL, 2), 0);
	ASSERT_STREQ(v.signature, "crash:kernel panic at N ns on CPU N: BUG!");
	ASSERT_EQ(hunt_judge(&v, 4, "kernel path: a <- b; kernel crash: fatal signal", NULL, NULL, 2), 0);
	ASSERT_STREQ(v.signature, "crash:kernel crash: fatal signal");
	return true;
}

static bool test_signature_file(void)
{
	char f[64];

	hunt_signature_file(f, sizeof(f), "warn:kernel/sched/fair.c:5730");
	ASSERT_STREQ(f, "warn_kernel_sched_fair.c_5730");
	return true;
}

int main(void)
{
	TEST(test_deterministic);
	TEST(test_valid_cases);
	TEST(test_reductions);
	TEST(test_fewer_cpus);
	TEST(test_judge);
	TEST(test_differ);
	TEST(test_weights_variant);
	TEST(test_order_variant);
	TEST(test_grow_variant);
	TEST(test_renumber_variant);
	TEST(test_variants_valid);
	TEST(test_oracle_total);
	TEST(test_oracle_verdict);
	TEST(test_kernel_path);
	TEST(test_signature_file);
	return tap_done_testing();
}
