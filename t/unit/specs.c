// SPDX-License-Identifier: GPL-2.0-only
/* Workload and topology specs: what they give, and what bad ones say. */
#include <string.h>

#include "t/tap.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

static struct topology topo;
static char err[512];

static bool test_topology_presets(void)
{
	ASSERT_EQ(topology_from_spec(&topo, "quad-smt", err, sizeof(err)), 0);
	ASSERT_EQ(topo.nr_cpus, 8);
	ASSERT_EQ(topo.cpu[0].core, topo.cpu[4].core);	/* SMT siblings */
	ASSERT_TRUE(topo.cpu[0].core != topo.cpu[1].core);
	ASSERT_EQ(topology_from_spec(&topo, "server-64", err, sizeof(err)), 0);
	ASSERT_EQ(topo.nr_cpus, 64);
	return true;
}

static bool test_topology_shapes(void)
{
	ASSERT_EQ(topology_from_spec(&topo, "2x4x2", err, sizeof(err)), 0);
	ASSERT_EQ(topo.nr_cpus, 16);
	ASSERT_EQ(topo.cpu[0].package, 0);
	ASSERT_EQ(topo.cpu[4].package, 1);
	ASSERT_EQ(topo.cpu[8].core, topo.cpu[0].core);
	ASSERT_EQ(topology_from_spec(&topo, "16", err, sizeof(err)), 0);
	ASSERT_EQ(topo.nr_cpus, 16);
	ASSERT_EQ(topo.cpu[15].core, 15);
	return true;
}

static bool test_topology_errors(void)
{
	ASSERT_TRUE(topology_from_spec(&topo, "quadd", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "'quadd'"));
	ASSERT_TRUE(topology_from_spec(&topo, "9x9x9", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "512"));
	return true;
}

static bool test_durations(void)
{
	uint64_t ns;

	ASSERT_EQ(workload_parse_duration(&ns, "1.5ms"), 0);
	ASSERT_EQ(ns, 1500000);
	ASSERT_EQ(workload_parse_duration(&ns, "2s"), 0);
	ASSERT_EQ(ns, 2000000000LL);
	ASSERT_TRUE(workload_parse_duration(&ns, "-1ms"));
	ASSERT_TRUE(workload_parse_duration(&ns, "0"));
	ASSERT_TRUE(workload_parse_duration(&ns, "3 parsecs"));
	/* nan passes every comparison but != */
	ASSERT_TRUE(workload_parse_duration(&ns, "nan"));
	ASSERT_TRUE(workload_parse_duration(&ns, "nanms"));
	ASSERT_TRUE(workload_parse_duration(&ns, "-nan"));
	ASSERT_TRUE(workload_parse_duration(&ns, "inf"));
	ASSERT_TRUE(workload_parse_duration(&ns, "1e300s"));
	return true;
}

static bool test_task_groups(void)
{
	struct workload wl;

	ASSERT_EQ(workload_parse(&wl, "hog*3+periodic*2:run=1ms:sleep=9ms:cpus=0-1.5",
				 err, sizeof(err)), 0);
	ASSERT_EQ(wl.nr_tasks, 5);
	ASSERT_EQ(wl.tasks[3].kind, WORKLOAD_PERIODIC);
	ASSERT_EQ(wl.tasks[3].run_ns, 1000000);
	ASSERT_EQ(wl.tasks[4].nr_cpus, 3);
	ASSERT_EQ(wl.tasks[4].cpus[2], 5);
	ASSERT_STREQ(wl.tasks[4].name, "periodic-1");
	ASSERT_FALSE(wl.randomised);
	workload_release(&wl);
	/* names go on across groups of one kind */
	ASSERT_EQ(workload_parse(&wl, "hog*2+hog*2:nice=3:run=1ms:loops=9",
				 err, sizeof(err)), 0);
	ASSERT_STREQ(wl.tasks[3].name, "hog-3");
	ASSERT_EQ(wl.tasks[3].nice, 3);
	ASSERT_EQ(wl.tasks[3].loops, 9);
	workload_release(&wl);
	ASSERT_EQ(workload_parse(&wl, "random*2:run=1ms:sleep=1ms", err,
				 sizeof(err)), 0);
	ASSERT_TRUE(wl.randomised);
	workload_release(&wl);
	return true;
}

static bool test_bad_task_groups(void)
{
	static const struct {
		const char *spec, *expect;
	} bad[] = {
		{ "hogg*2", "unknown kind 'hogg'" },
		{ "hog*0", "count '0'" },
		{ "hog:speed=3", "unknown key 'speed'" },
		{ "periodic*2:run=1ms", "needs run= and sleep=" },
		{ "periodic:run=-3ms:sleep=1ms", "bad value '-3ms' for 'run'" },
		{ "hog:nice=40", "bad value '40' for 'nice'" },
		{ "hog:nice=3x", "bad value '3x' for 'nice'" },
		{ "hog:nice=", "bad value '' for 'nice'" },
		{ "hog:policy=fifo:prio=99x", "bad value '99x' for 'prio'" },
		{ "hog:loops=0", "bad value '0' for 'loops'" },
		{ "hog:loops=-2", "bad value '-2' for 'loops'" },
		{ "hog:policy=fifo", "prio= goes with policy=fifo" },
		{ "hog:cpus=3-1", "bad value '3-1' for 'cpus'" },
		{ "hog:unpin=1ms", "unpin= needs cpus=" },
		{ "periodic*64:run=1ms:sleep=9ms+:", "character 31: group 2 has no kind" },
		{ "periodic:run=6666666666666666666666666666666s:sleep=1ms",
		  "bad value" },
	};
	struct workload wl;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = workload_parse(&wl, bad[i].spec, err, sizeof(err));

		if (!ret)
			workload_release(&wl);
		if (!ret || !strstr(err, bad[i].expect))
			tap_diag("'%s': %s", bad[i].spec, ret ? err : "accepted");
		ASSERT_TRUE(ret && strstr(err, bad[i].expect));
	}
	return true;
}

int main(void)
{
	tap_plan(6);
	TEST(test_topology_presets);
	TEST(test_topology_shapes);
	TEST(test_topology_errors);
	TEST(test_durations);
	TEST(test_task_groups);
	TEST(test_bad_task_groups);
	return tap_done();
}
