// SPDX-License-Identifier: GPL-2.0-only
/* Workload and topology specs: what they give, and what bad ones say. */
#include <string.h>

#include "t/tap.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

static int wl_error(const char *spec, const char *expect)
{
	struct workload wl;
	char err[512] = "";
	int ret = workload_parse(&wl, spec, err, sizeof(err));

	if (!ret)
		workload_release(&wl);
	return tap_ok(ret && strstr(err, expect), "workload '%s' is refused: %s",
		      spec, err);
}

int main(void)
{
	static struct topology topo;
	struct workload wl;
	char err[512];
	uint64_t ns;

	tap_plan(23);
	tap_ok(!topology_from_spec(&topo, "quad-smt", err, sizeof(err)) &&
	       topo.nr_cpus == 8 && topo.cpu[0].core == topo.cpu[4].core &&
	       topo.cpu[0].core != topo.cpu[1].core,
	       "quad-smt: 8 CPUs, CPU 0 and 4 are SMT siblings");
	tap_ok(!topology_from_spec(&topo, "2x4x2", err, sizeof(err)) &&
	       topo.nr_cpus == 16 && topo.cpu[0].package == 0 &&
	       topo.cpu[4].package == 1 && topo.cpu[8].core == topo.cpu[0].core,
	       "2x4x2: two packages of 4 cores of 2 threads");
	tap_ok(!topology_from_spec(&topo, "server-64", err, sizeof(err)) &&
	       topo.nr_cpus == 64, "server-64 has 64 CPUs");
	tap_ok(!topology_from_spec(&topo, "16", err, sizeof(err)) &&
	       topo.nr_cpus == 16 && topo.cpu[15].core == 15,
	       "16: sixteen single-thread cores");
	tap_ok(topology_from_spec(&topo, "quadd", err, sizeof(err)) &&
	       strstr(err, "'quadd'"), "an unknown topology is named: %s", err);
	tap_ok(topology_from_spec(&topo, "9x9x9", err, sizeof(err)) &&
	       strstr(err, "512"), "too many CPUs: %s", err);

	tap_ok(!workload_parse_duration(&ns, "1.5ms") && ns == 1500000,
	       "1.5ms is 1500000 ns");
	tap_ok(!workload_parse_duration(&ns, "2s") && ns == 2000000000ULL,
	       "2s is 2e9 ns");
	tap_ok(workload_parse_duration(&ns, "-1ms") &&
	       workload_parse_duration(&ns, "0") &&
	       workload_parse_duration(&ns, "3 parsecs"),
	       "negative, zero and unknown-unit durations are refused");

	tap_ok(!workload_parse(&wl, "hog*3+periodic*2:run=1ms:sleep=9ms:cpus=0-1.5",
			       err, sizeof(err)) && wl.nr_tasks == 5 &&
	       wl.tasks[3].kind == WORKLOAD_PERIODIC &&
	       wl.tasks[3].run_ns == 1000000 && wl.tasks[4].nr_cpus == 3 &&
	       wl.tasks[4].cpus[2] == 5 && !strcmp(wl.tasks[4].name, "periodic-1") &&
	       !wl.randomised, "a two-group spec gives 5 named tasks");
	workload_release(&wl);
	tap_ok(!workload_parse(&wl, "hog*2+hog*2:nice=3", err, sizeof(err)) &&
	       !strcmp(wl.tasks[3].name, "hog-3") && wl.tasks[3].nice == 3,
	       "names go on across groups of one kind");
	workload_release(&wl);
	tap_ok(!workload_parse(&wl, "random*2:run=1ms:sleep=1ms", err,
			       sizeof(err)) && wl.randomised,
	       "a random group makes the workload randomised");
	workload_release(&wl);

	wl_error("hogg*2", "unknown kind 'hogg'");
	wl_error("hog*0", "count '0'");
	wl_error("hog:speed=3", "unknown key 'speed'");
	wl_error("periodic*2:run=1ms", "needs run= and sleep=");
	wl_error("periodic:run=-3ms:sleep=1ms", "bad value '-3ms' for 'run'");
	wl_error("hog:nice=40", "bad value '40' for 'nice'");
	wl_error("hog:policy=fifo", "prio= goes with policy=fifo");
	wl_error("hog:cpus=3-1", "bad value '3-1' for 'cpus'");
	wl_error("hog:unpin=1ms", "unpin= needs cpus=");
	wl_error("periodic*64:run=1ms:sleep=9ms+:", "group 2 is empty");
	wl_error("periodic:run=6666666666666666666666666666666s:sleep=1ms",
		 "bad value");
	return tap_done();
}
