// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/: what QEMU is told of a topology, and what the guest runs of a
 * workload (rt-app's JSON and /init), on parsed specs.
 */
#include <cjson/cJSON.h>

#include "t/tap.h"
#include "topologies/topologies.h"
#include "vm/vm.h"
#include "workloads/workloads.h"

static struct topology topo;
static struct vm_machine machine;
static char err[WORKLOAD_ERR_MAX];

static int machine_of(const char *spec)
{
	if (topology_from_spec(&topo, spec, err, sizeof(err))) {
		tap_diag("%s", err);
		return -99;
	}
	return vm_machine_from_topology(&machine, &topo, 512, err, sizeof(err));
}

static bool has_arg(const char *a)
{
	int i;

	for (i = 0; i < machine.nr_args; i++)
		if (!strcmp(machine.args[i], a))
			return true;
	return false;
}

static bool test_shapes(void)
{
	ASSERT_EQ(machine_of("1x2x1"), 0);
	ASSERT_STREQ(machine.args[0], "-smp");
	ASSERT_STREQ(machine.args[1], "cpus=2,sockets=1,cores=2,threads=1");
	ASSERT_EQ(machine.nr_args, 2);
	/* shapes have idle states: allowed, and said */
	ASSERT_TRUE(strstr(machine.note, "idle states") != NULL);
	ASSERT_EQ(machine_of("2x4x1"), 0);
	ASSERT_STREQ(machine.args[1], "cpus=8,sockets=2,cores=4,threads=1");
	return true;
}

static bool test_numa(void)
{
	static const char numa[] =
		"{\"name\": \"n2\", \"cpu_types\": {\"c\": {\"capacity\": 1024}},"
		" \"cpus\": ["
		"{\"id\": 0, \"type\": \"c\", \"package\": 0, \"core\": 0, \"node\": 0},"
		"{\"id\": 1, \"type\": \"c\", \"package\": 0, \"core\": 1, \"node\": 0},"
		"{\"id\": 2, \"type\": \"c\", \"package\": 1, \"core\": 2, \"node\": 1},"
		"{\"id\": 3, \"type\": \"c\", \"package\": 1, \"core\": 3, \"node\": 1}],"
		" \"node_distances\": [[10, 21], [21, 10]]}";

	if (topology_from_json(&topo, numa, "n2", err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	ASSERT_EQ(vm_machine_from_topology(&machine, &topo, 512, err,
					   sizeof(err)), 0);
	ASSERT_STREQ(machine.args[1], "cpus=4,sockets=2,cores=2,threads=1");
	ASSERT_TRUE(has_arg("memory-backend-ram,id=m1,size=256M"));
	ASSERT_TRUE(has_arg("node,nodeid=1,cpus=2-3,memdev=m1"));
	ASSERT_TRUE(has_arg("dist,src=0,dst=1,val=21"));
	ASSERT_TRUE(has_arg("dist,src=1,dst=0,val=21"));
	return true;
}

static bool test_refused(void)
{
	ASSERT_EQ(machine_of("biglittle-4+4"), VM_EUSAGE);
	ASSERT_STREQ(err, "topology 'biglittle-4+4': QEMU cannot mirror it: asymmetric capacity (CPU type 'big' has 1024, 'little' 398): every vCPU is the same");
	ASSERT_EQ(machine_of("dual"), VM_EUSAGE);
	ASSERT_STREQ(err, "topology 'dual': QEMU cannot mirror it: CPU type 'core' has 6 OPPs: a vCPU has no frequencies to choose from (give it one OPP, or none)");
	ASSERT_EQ(machine_of("server-64"), VM_EUSAGE);
	ASSERT_TRUE(strstr(err, "OPPs") != NULL);
	ASSERT_EQ(machine_of("2x40x1"), VM_EUSAGE);
	ASSERT_STREQ(err, "topology '2x40x1': QEMU cannot mirror it: 80 CPUs, more than the VM kernel's NR_CPUS (64)");
	return true;
}

/*
 * The shapes number SMT siblings as Linux does on x86 (CPU 0's sibling is
 * CPU 8 on 2x4x2), QEMU makes them neighbours (vCPUs 0 and 1): the
 * machine says which vCPU plays which CPU.
 */
static bool test_smt(void)
{
	static const char numa_smt[] =
		"{\"name\": \"n2s\", \"cpu_types\": {\"c\": {\"capacity\": 1024}},"
		" \"cpus\": ["
		"{\"id\": 0, \"type\": \"c\", \"package\": 0, \"core\": 0, \"node\": 0},"
		"{\"id\": 1, \"type\": \"c\", \"package\": 0, \"core\": 1, \"node\": 0},"
		"{\"id\": 2, \"type\": \"c\", \"package\": 1, \"core\": 2, \"node\": 1},"
		"{\"id\": 3, \"type\": \"c\", \"package\": 1, \"core\": 3, \"node\": 1},"
		"{\"id\": 4, \"type\": \"c\", \"package\": 0, \"core\": 0, \"node\": 0},"
		"{\"id\": 5, \"type\": \"c\", \"package\": 0, \"core\": 1, \"node\": 0},"
		"{\"id\": 6, \"type\": \"c\", \"package\": 1, \"core\": 2, \"node\": 1},"
		"{\"id\": 7, \"type\": \"c\", \"package\": 1, \"core\": 3, \"node\": 1}],"
		" \"node_distances\": [[10, 21], [21, 10]]}";
	static const char uneven[] =
		"{\"name\": \"u\", \"cpu_types\": {\"c\": {\"capacity\": 1024}},"
		" \"cpus\": ["
		"{\"id\": 0, \"type\": \"c\", \"package\": 0, \"core\": 0},"
		"{\"id\": 1, \"type\": \"c\", \"package\": 0, \"core\": 1},"
		"{\"id\": 2, \"type\": \"c\", \"package\": 1, \"core\": 2}]}";

	ASSERT_EQ(machine_of("1x2x1"), 0);
	ASSERT_EQ(machine.renumbered, 0);
	ASSERT_EQ(machine_of("2x4x2"), 0);
	ASSERT_STREQ(machine.args[1], "cpus=16,sockets=2,cores=4,threads=2");
	ASSERT_EQ(machine.renumbered, 1);
	ASSERT_EQ(machine.guest_cpu[0], 0);
	ASSERT_EQ(machine.guest_cpu[8], 1);	/* CPU 0's sibling */
	ASSERT_EQ(machine.guest_cpu[1], 2);
	ASSERT_EQ(machine.guest_cpu[4], 8);	/* the second socket */
	ASSERT_EQ(machine.guest_cpu[12], 9);
	ASSERT_EQ(machine.guest_cpu[15], 15);
	/* NUMA nodes of SMT sockets: ranges in the guest's numbering */
	if (topology_from_json(&topo, numa_smt, "n2s", err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	ASSERT_EQ(vm_machine_from_topology(&machine, &topo, 512, err,
					   sizeof(err)), 0);
	ASSERT_STREQ(machine.args[1], "cpus=8,sockets=2,cores=2,threads=2");
	ASSERT_TRUE(has_arg("node,nodeid=0,cpus=0-3,memdev=m0"));
	ASSERT_TRUE(has_arg("node,nodeid=1,cpus=4-7,memdev=m1"));
	ASSERT_EQ(machine.guest_cpu[4], 1);
	ASSERT_EQ(machine.guest_cpu[2], 4);
	if (topology_from_json(&topo, uneven, "u", err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	ASSERT_EQ(vm_machine_from_topology(&machine, &topo, 512, err,
					   sizeof(err)), VM_EUSAGE);
	ASSERT_STREQ(err, "topology 'u': QEMU cannot mirror it: its 3 CPUs are not sockets of equal cores of equal threads (CPU 2: 1 cores in its package, 1 threads in its core; CPU 0: 2 and 1)");
	return true;
}

/* The guest's trace back in the topology's numbers (1x2x2: 1 <-> 2). */
static bool test_renumber(void)
{
	static const char in[] =
		"# tracer: nop\n"
		"##### CPU 1 buffer started ####\n"
		"          rt-app-80      [001] d..2.    12.000100: sched_switch: prev_comm=rt-app prev_pid=80 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
		"          <idle>-0       [002] dNh2.    12.000200: sched_wakeup: comm=lsb3 pid=81 prio=120 target_cpu=001\n"
		"     kworker/3:1-40      [003] d..2.    12.000300: sched_migrate_task: comm=lsb3 pid=81 prio=120 orig_cpu=1 dest_cpu=2\n"
		"          <idle>-0       [001] d..1.    12.000400: cpu_idle: state=1 cpu_id=1\n"
		"CPU:2 [LOST 3 EVENTS]\n"
		"          <idle>-0       [000] d..1.    12.000500: cpu_idle: state=4294967295 cpu_id=0";
	static const char want[] =
		"# tracer: nop\n"
		"##### CPU 2 buffer started ####\n"
		"          rt-app-80      [002] d..2.    12.000100: sched_switch: prev_comm=rt-app prev_pid=80 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
		"          <idle>-0       [001] dNh2.    12.000200: sched_wakeup: comm=lsb3 pid=81 prio=120 target_cpu=002\n"
		"     kworker/3:1-40      [003] d..2.    12.000300: sched_migrate_task: comm=lsb3 pid=81 prio=120 orig_cpu=2 dest_cpu=1\n"
		"          <idle>-0       [002] d..1.    12.000400: cpu_idle: state=1 cpu_id=2\n"
		"CPU:1 [LOST 3 EVENTS]\n"
		"          <idle>-0       [000] d..1.    12.000500: cpu_idle: state=4294967295 cpu_id=0";
	struct vm_text t;

	ASSERT_EQ(machine_of("1x2x2"), 0);
	ASSERT_EQ(machine.guest_cpu[1], 2);
	ASSERT_EQ(machine.guest_cpu[2], 1);
	ASSERT_EQ(vm_trace_renumber(&machine, in, strlen(in), &t), 0);
	ASSERT_STREQ(t.text, want);
	ASSERT_EQ(t.len, strlen(want));
	free(t.text);
	return true;
}

static bool guest_of(struct vm_guest *g, struct workload *wl, const char *spec)
{
	if (workload_parse(wl, spec, err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	return vm_guest_new(g, wl, 8000000000ULL, &machine, err,
			    sizeof(err)) == 0;
}

/* Affinities and hotplug in the guest's numbers (1x2x2: 1 <-> 2). */
static bool test_guest_cpus(void)
{
	struct workload wl;
	struct vm_guest g;
	cJSON *root, *tasks, *cpus;

	ASSERT_EQ(machine_of("1x2x2"), 0);
	ASSERT_TRUE(guest_of(&g, &wl, "hog*1:cpus=1+hog*1:cpus=2-3"));
	root = cJSON_Parse(g.rtapp);
	ASSERT_TRUE(root != NULL);
	tasks = cJSON_GetObjectItem(root, "tasks");
	cpus = cJSON_GetObjectItem(cJSON_GetObjectItem(tasks, "hog-0"), "cpus");
	ASSERT_EQ(cJSON_GetArraySize(cpus), 1);
	ASSERT_EQ(cJSON_GetNumberValue(cJSON_GetArrayItem(cpus, 0)), 2);
	cpus = cJSON_GetObjectItem(cJSON_GetObjectItem(tasks, "hog-1"), "cpus");
	ASSERT_EQ(cJSON_GetArraySize(cpus), 2);
	ASSERT_EQ(cJSON_GetNumberValue(cJSON_GetArrayItem(cpus, 0)), 1);
	ASSERT_EQ(cJSON_GetNumberValue(cJSON_GetArrayItem(cpus, 1)), 3);
	cJSON_Delete(root);
	vm_guest_release(&g);
	workload_release(&wl);
	ASSERT_TRUE(guest_of(&g, &wl, "t/workloads/vm-events.json"));
	ASSERT_TRUE(strstr(g.init, "/sys/devices/system/cpu/cpu2/online 0") != NULL);
	ASSERT_TRUE(strstr(g.init, "/sys/devices/system/cpu/cpu1/online") == NULL);
	vm_guest_release(&g);
	workload_release(&wl);
	return true;
}

static bool test_two_groups(void)
{
	struct workload wl;
	struct vm_guest g;
	cJSON *root, *tasks, *t;

	ASSERT_EQ(machine_of("1x2x1"), 0);
	ASSERT_TRUE(guest_of(&g, &wl, "t/workloads/vm-two-groups.json"));
	ASSERT_EQ(g.nr_tasks, 5);
	ASSERT_STREQ(g.names[0], "lone");
	ASSERT_STREQ(g.groups[0], "/a");
	ASSERT_STREQ(g.names[4], "crowd-3");
	ASSERT_STREQ(g.comms[4], "crowd-3");
	ASSERT_STREQ(g.groups[4], "/b");
	root = cJSON_Parse(g.rtapp);
	ASSERT_TRUE(root != NULL);
	/* our extension keys are gone; one rt-app task per instance */
	ASSERT_TRUE(cJSON_GetObjectItem(root, "lsb-taskgroups") == NULL);
	tasks = cJSON_GetObjectItem(root, "tasks");
	ASSERT_EQ(cJSON_GetArraySize(tasks), 5);
	t = cJSON_GetObjectItem(tasks, "crowd-0");
	ASSERT_EQ(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "instance")), 1);
	ASSERT_TRUE(cJSON_GetObjectItem(t, "taskgroup") == NULL);
	cJSON_Delete(root);
	/* groups made and weighted through cgroup v1's cpu.shares */
	ASSERT_TRUE(strstr(g.init, "mkdir -p /cg/a\n") != NULL);
	ASSERT_TRUE(strstr(g.init, "wr '/cg/b/cpu.shares' '1024'") != NULL);
	ASSERT_TRUE(strstr(g.init, "'crowd-3') echo '/b' ;;") != NULL);
	vm_guest_release(&g);
	workload_release(&wl);
	return true;
}

static bool test_refused_workloads(void)
{
	struct workload wl;
	struct vm_guest g;

	ASSERT_FALSE(guest_of(&g, &wl, "random*2:run=1ms:sleep=2ms"));
	ASSERT_TRUE(strstr(err, "distribution") != NULL);
	workload_release(&wl);
	ASSERT_FALSE(guest_of(&g, &wl, "periodic:run=1500ns:sleep=1ms"));
	ASSERT_TRUE(strstr(err, "1500 ns is not a whole number of microseconds") != NULL);
	workload_release(&wl);
	ASSERT_FALSE(guest_of(&g, &wl, "t/workloads/cpuset-partition.json"));
	ASSERT_TRUE(strstr(err, "cpuset") != NULL);
	workload_release(&wl);
	return true;
}

int main(void)
{
	tap_plan(8);
	TEST(test_shapes);
	TEST(test_numa);
	TEST(test_refused);
	TEST(test_smt);
	TEST(test_renumber);
	TEST(test_two_groups);
	TEST(test_guest_cpus);
	TEST(test_refused_workloads);
	return tap_done();
}
