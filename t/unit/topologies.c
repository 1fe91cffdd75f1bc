// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machines: every preset, the JSON format both ways, what bad files say
 * (with line:column), and capture from a sysfs tree made here and from this
 * machine's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "t/tap.h"
#include "topologies/topologies.h"

static struct topology topo, again;
static char err[1024];

struct expect {
	const char *name;
	int cpus, types, nodes;
	unsigned int cap0;	/* capacity of CPU 0 */
};

static const struct expect presets[] = {
	{ "up", 1, 1, 1, 1024 },
	{ "dual", 2, 1, 1, 1024 },
	{ "quad", 4, 1, 1, 1024 },
	{ "dual-socket-dual-core", 4, 1, 1, 1024 },
	{ "quad-smt", 8, 1, 1, 1024 },
	{ "dual-socket-quad-core", 8, 1, 1, 1024 },
	{ "hex", 6, 1, 1, 1024 },
	{ "dual-socket-hex-smt", 24, 1, 1, 1024 },
	{ "biglittle-4+4", 8, 2, 1, 398 },
	{ "dynamiq-1+3+4", 8, 3, 1, 300 },
	{ "numa-2", 8, 1, 2, 1024 },
	{ "numa-4", 16, 1, 4, 1024 },
	{ "server-64", 64, 1, 2, 1024 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* to_json, from_json: the same machine, byte for byte */
static int round_trips(const struct topology *t)
{
	char *json = topology_to_json(t);
	int same;

	if (!json)
		return 0;
	same = !topology_from_json(&again, json, "round-trip", err,
				   sizeof(err)) &&
	       !memcmp(t, &again, sizeof(*t));
	if (!same)
		tap_diag("%s: %s", t->name, err);
	free(json);
	return same;
}

static int json_ok(const char *text)
{
	int ret = topology_from_json(&topo, text, "ok.json", err, sizeof(err));

	if (ret)
		tap_diag("%s", err);
	return !ret;
}

/* @text is refused with a message holding @where and @expect */
static void bad(const char *what, const char *text, const char *where,
		const char *expect)
{
	int ret = topology_from_json(&topo, text, "bad.json", err,
				     sizeof(err));

	tap_ok(ret && strstr(err, where) && strstr(err, expect), "%s: %s",
	       what, err);
}

static const char two_types[] =
	"\"cpu_types\": {\"little\": {\"capacity\": 446}, \"big\": {\"capacity\": 1024}}";

static void errors(void)
{
	char text[2048];

	bad("malformed JSON", "{\n  \"cpus\": [\n    {\"id\": 0,}\n  ]\n}",
	    "'bad.json':3:", "malformed JSON");
	bad("truncated JSON", "{\"cpus\": [", "'bad.json':1:11", "malformed");
	bad("unknown key", "{\n  \"cpus\": [\n    {\"id\": 0, \"cor\": 1}\n  ]\n}",
	    "'bad.json':3:15:", "cpus[0]: unknown key 'cor' (expected id, type, package, cluster, core or node)");
	bad("unknown top-level key", "{\"cpus\": [{\"id\": 0}], \"numa\": 1}",
	    ":1:23:", "unknown key 'numa'");
	bad("a key twice", "{\"cpus\": [{\"id\": 0, \"core\": 0, \"core\": 1}]}",
	    ":1:32:", "key 'core' is given twice");
	bad("wrong type", "{\"cpus\": [{\"id\": 0, \"package\": \"0\"}]}",
	    ":1:32:", "'package': expected an integer from 0 to 511, got the string \"0\"");
	bad("a fraction", "{\"cpus\": [{\"id\": 0.5}]}", ":1:18:",
	    "expected an integer");
	bad("CPU id twice", "{\"cpus\": [{\"id\": 0},\n {\"id\": 0}]}",
	    ":2:9:", "cpus[1]: CPU id 0 is given twice (also cpus[0])");
	bad("CPU id missing", "{\"cpus\": [{\"id\": 0}, {\"id\": 2}]}",
	    ":1:29:", "'id' 2 is out of range: 2 CPUs are listed, so ids go from 0 to 1");
	bad("no id", "{\"cpus\": [{\"core\": 0}]}", ":1:11:",
	    "cpus[0]: 'id' is required");
	bad("capacity 0",
	    "{\"cpu_types\": {\"a\": {\"capacity\": 0}}, \"cpus\": [{\"id\": 0}]}",
	    ":1:34:", "cpu_types.a: 'capacity': expected an integer from 1 to 1024, got 0");
	bad("capacity over 1024",
	    "{\"cpu_types\": {\"a\": {\"capacity\": 2048}}, \"cpus\": [{\"id\": 0}]}",
	    ":1:34:", "got 2048");
	bad("no type at 1024",
	    "{\"cpu_types\": {\"a\": {\"capacity\": 800}}, \"cpus\": [{\"id\": 0}]}",
	    ":1:21:", "type 'a': capacity 800, but the biggest CPU type has capacity 1024 by definition");
	bad("several types need capacities",
	    "{\"cpu_types\": {\"a\": {}, \"b\": {}}, \"cpus\": [{\"id\": 0}]}",
	    ":1:21:", "cpu_types.a: 'capacity' is required when there are several types");
	snprintf(text, sizeof(text),
		 "{%s,\n \"cpus\": [{\"id\": 0, \"type\": \"medium\"}]}",
		 two_types);
	bad("undefined type", text, ":2:29:",
	    "cpus[0] (cpu 0): type 'medium' is not defined in cpu_types (defined: little, big)");
	snprintf(text, sizeof(text), "{%s,\n \"cpus\": [{\"id\": 0}]}",
		 two_types);
	bad("type left out", text, ":2:11:", "'type' is required");
	bad("undefined node",
	    "{\"cpus\": [{\"id\": 0, \"node\": 2}],\n \"node_distances\": [[10, 20], [20, 10]]}",
	    ":1:29:", "cpus[0] (cpu 0): node 2 is not defined: node_distances describes 2 nodes");
	bad("asymmetric distances",
	    "{\"cpus\": [{\"id\": 0}],\n \"node_distances\": [[10, 20],\n  [21, 10]]}",
	    ":2:", "nodes 0 and 1: distance 20 one way, 21 the other: distances are symmetric");
	bad("local distance not 10",
	    "{\"cpus\": [{\"id\": 0}], \"node_distances\": [[12]]}", ":1:43:",
	    "node 0: distance to itself 12: expected 10");
	bad("remote distance 10",
	    "{\"cpus\": [{\"id\": 0}], \"node_distances\": [[10, 10], [10, 10]]}",
	    ":1:47:", "expected 11 to 254");
	bad("ragged distances",
	    "{\"cpus\": [{\"id\": 0}], \"node_distances\": [[10, 20], [20]]}",
	    ":1:52:", "node_distances[1]: expected an array of 2 distances");
	bad("unordered OPPs",
	    "{\"cpu_types\": {\"cpu\": {\"opps\": [\n"
	    "  {\"khz\": 2000000, \"power_mw\": 500},\n"
	    "  {\"khz\": 1000000, \"power_mw\": 200}]}},\n"
	    " \"cpus\": [{\"id\": 0}]}",
	    ":3:3:", "cpu_types.cpu.opps[1]: 'khz' 1000000 is not above OPP 0's 2000000: OPPs go in ascending frequency");
	bad("OPP power falling",
	    "{\"cpu_types\": {\"cpu\": {\"opps\": [\n"
	    "  {\"khz\": 1000000, \"power_mw\": 500},\n"
	    "  {\"khz\": 2000000, \"power_mw\": 200}]}},\n"
	    " \"cpus\": [{\"id\": 0}]}",
	    ":3:3:", "power grows with frequency");
	bad("top OPP below the type's capacity",
	    "{\"cpu_types\": {\"cpu\": {\"opps\": [\n"
	    "  {\"khz\": 1000000, \"capacity\": 500}]}},\n"
	    " \"cpus\": [{\"id\": 0}]}",
	    ":2:3:", "the highest OPP has capacity 500, not the type's 1024");
	bad("unordered idle states",
	    "{\"cpu_types\": {\"cpu\": {\"idle_states\": [\n"
	    "  {\"name\": \"C6\", \"exit_latency_us\": 133, \"target_residency_us\": 600},\n"
	    "  {\"name\": \"C1\", \"exit_latency_us\": 2, \"target_residency_us\": 2}]}},\n"
	    " \"cpus\": [{\"id\": 0}]}",
	    ":3:3:", "idle state 'C1' (target residency 2 us) comes after 'C6' (600 us)");
	bad("idle state without a name",
	    "{\"cpu_types\": {\"cpu\": {\"idle_states\": [{\"exit_latency_us\": 1, \"target_residency_us\": 1}]}}, \"cpus\": [{\"id\": 0}]}",
	    ":1:40:", "cpu_types.cpu.idle_states[0]: 'name' is required");
	bad("SMT siblings apart",
	    "{\"cpus\": [{\"id\": 0, \"core\": 0},\n {\"id\": 1, \"core\": 0, \"package\": 1}]}",
	    ":2:2:", "cpu 1: an SMT sibling of cpu 0 (core 0) but not in the same package");
	bad("both cpus and shape",
	    "{\"cpus\": [{\"id\": 0}], \"shape\": {\"packages\": 1}}", ":1:23:",
	    "give either 'cpus' or 'shape', not both");
	bad("no CPUs", "{\"name\": \"x\"}", ":1:1:", "no CPUs");
	bad("shape too big",
	    "{\"shape\": {\"packages\": 64, \"cores_per_cluster\": 64}}", ":1:11:",
	    "at most 512");
	bad("name too long",
	    "{\"cpu_types\": {\"a-very-long-type-name-of-forty-characters\": {}}, \"cpus\": [{\"id\": 0}]}",
	    ":1:16:", "a type's name has 1 to 31 characters");
}

static void defaults_and_shapes(void)
{
	tap_ok(json_ok("{\"cpus\": [{\"id\": 1}, {\"id\": 0}]}") &&
	       topo.nr_cpus == 2 && topo.nr_types == 1 &&
	       !strcmp(topo.types[0].name, "cpu") &&
	       topo.types[0].capacity == 1024 && topo.types[0].nr_states == 2 &&
	       topo.types[0].nr_opps == 0 && topo.nr_nodes == 1 &&
	       topo.distance[0][0] == 10 && topo.cpu[1].core == 1 &&
	       topo.cpu[1].cluster == 0 && !strcmp(topo.name, "ok.json"),
	       "defaults: type 'cpu' at 1024 with two idle states, node 0, core = id");
	tap_ok(json_ok("{\"shape\": {\"packages\": 2, \"cores_per_cluster\": 4, \"threads_per_core\": 2, \"node_per_package\": true},\n"
		       " \"node_distances\": [[10, 21], [21, 10]]}") &&
	       topo.nr_cpus == 16 && topo.nr_nodes == 2 &&
	       topo.cpu[8].core == topo.cpu[0].core &&
	       topo.cpu[1].core != topo.cpu[0].core &&
	       topo.cpu[4].package == 1 && topo.cpu[4].node == 1 &&
	       topo.cpu[12].node == 1 && topo.distance[1][0] == 21,
	       "the compact shape: 2 x 4 x 2, siblings numbered apart, a node a package");
	tap_ok(json_ok("{\"cpu_types\": {\"cpu\": {\"opps\": [{\"khz\": 1000000}, {\"khz\": 3000000}]}},"
		       " \"cpus\": [{\"id\": 0}]}") &&
	       topo.types[0].opps[0].capacity == 341 &&
	       topo.types[0].opps[1].capacity == 1024,
	       "an OPP's capacity defaults to the type's scaled by frequency");
	tap_ok(json_ok("{\"cpu_types\": {\"cpu\": {\"idle_states\": [{\"name\": \"C1\", \"exit_latency_us\": 1.5, \"target_residency_us\": 3}]}},"
		       " \"cpus\": [{\"id\": 0}]}") &&
	       topo.types[0].nr_states == 1 &&
	       topo.types[0].states[0].exit_latency_ns == 1500,
	       "fractional microseconds are kept in ns");
	tap_ok(!topology_from_spec(&topo, "16", err, sizeof(err)) &&
	       topo.nr_cpus == 16 && round_trips(&topo),
	       "a shape round-trips");
	tap_ok(topology_from_spec(&topo, "2x", err, sizeof(err)) &&
	       strstr(err, "'2x'"), "a shape with a dangling x is refused: %s",
	       err);
	tap_ok(topology_from_spec(&topo, "9x9x9", err, sizeof(err)) &&
	       strstr(err, "729 CPUs: at most 512"), "too many CPUs: %s", err);
}

static void files(void)
{
	char dir[] = "/tmp/lsb-topo-XXXXXX", path[256];
	FILE *f;

	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/m.json", dir);
	f = fopen(path, "w");
	fputs("{\"name\": \"mine\", \"cpus\": [{\"id\": 0}, {\"id\": 1, \"core\": 0}]}\n", f);
	fclose(f);
	tap_ok(!topology_from_spec(&topo, path, err, sizeof(err)) &&
	       !strcmp(topo.name, "mine") && topo.nr_cpus == 2 &&
	       topo.cpu[1].core == 0, "a spec with '/' is a file: %s", err);
	f = fopen(path, "w");
	fputs("{\"cpus\": [\n\t{\"id\": 0, \"node\": -1}]}\n", f);
	fclose(f);
	tap_ok(topology_from_file(&topo, path, err, sizeof(err)) &&
	       strstr(err, path) && strstr(err, ":2:20: cpus[0]: 'node'"),
	       "a file's errors name it with line:column: %s", err);
	unlink(path);
	snprintf(path, sizeof(path), "%s/none.json", dir);
	tap_ok(topology_from_spec(&topo, path, err, sizeof(err)) &&
	       strstr(err, "none.json") && strstr(err, "No such file"),
	       "a missing file is named: %s", err);
	rmdir(dir);
}

/* ---- a sysfs tree ---- */

static void wr(const char *root, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void wr(const char *root, const char *rel, const char *fmt, ...)
{
	char path[1024], *p;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * 2 packages x 2 cores x 2 threads, numbered as x86 does (siblings apart):
 * package 0 has CPUs 0, 1, 4, 5; an L3 per package; POLL, C1, C6; cpufreq
 * frequencies listed high to low; no cpu_capacity; two NUMA nodes.
 */
static void fake_sysfs(const char *top)
{
	char rel[256], cpu[64];
	int i;

	wr(top, "cpu/online", "0-7\n");
	wr(top, "cpu/possible", "0-7\n");
	for (i = 0; i < 8; i++) {
		int pkg = (i / 2) % 2, core = i % 2;
		int first = i % 4;

		snprintf(cpu, sizeof(cpu), "cpu/cpu%d", i);
#define W(path, ...) (snprintf(rel, sizeof(rel), "%s/" path, cpu), wr(top, rel, __VA_ARGS__))
		W("topology/physical_package_id", "%d\n", pkg);
		W("topology/core_id", "%d\n", core);
		W("topology/cluster_id", "%d\n", core);
		W("topology/thread_siblings_list", "%d,%d\n", first, first + 4);
		W("cache/index0/level", "1\n");
		W("cache/index0/type", "Data\n");
		W("cache/index0/shared_cpu_list", "%d,%d\n", first, first + 4);
		W("cache/index1/level", "1\n");
		W("cache/index1/type", "Instruction\n");
		W("cache/index1/shared_cpu_list", "%d,%d\n", first, first + 4);
		W("cache/index2/level", "2\n");
		W("cache/index2/type", "Unified\n");
		W("cache/index2/shared_cpu_list", "%d,%d\n", first, first + 4);
		W("cache/index3/level", "3\n");
		W("cache/index3/type", "Unified\n");
		W("cache/index3/shared_cpu_list", "%d-%d,%d-%d\n", pkg * 2,
		  pkg * 2 + 1, pkg * 2 + 4, pkg * 2 + 5);
		W("cpuidle/state0/name", "POLL\n");
		W("cpuidle/state0/latency", "0\n");
		W("cpuidle/state0/residency", "0\n");
		W("cpuidle/state0/power", "4294967295\n");
		W("cpuidle/state1/name", "C1\n");
		W("cpuidle/state1/latency", "2\n");
		W("cpuidle/state1/residency", "2\n");
		W("cpuidle/state1/power", "0\n");
		W("cpuidle/state2/name", "C6\n");
		W("cpuidle/state2/latency", "133\n");
		W("cpuidle/state2/residency", "600\n");
		W("cpuidle/state2/power", "10\n");
		W("cpufreq/scaling_available_frequencies",
		  "3000000 2000000 1000000 \n");
		W("cpufreq/cpuinfo_max_freq", "3000000\n");
#undef W
		snprintf(rel, sizeof(rel), "%s/node%d/.keep", cpu, pkg);
		wr(top, rel, "%s", "");
	}
	wr(top, "node/node0/distance", "10 21\n");
	wr(top, "node/node1/distance", "21 10\n");
}

/* notes come a line each: keep TAP's one line a test */
static const char *one_line(char *s)
{
	char *p;

	while ((p = strchr(s, '\n')) && p[1])
		*p = ';';
	if (p)
		*p = 0;
	return s;
}

static void sysfs(void)
{
	char top[] = "/tmp/lsb-sysfs-XXXXXX", root[256];
	long online;
	int ret;

	if (!mkdtemp(top)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	fake_sysfs(top);
	snprintf(root, sizeof(root), "%s/cpu", top);
	ret = topology_from_sysfs(&topo, root, err, sizeof(err));
	tap_ok(!ret && topo.nr_cpus == 8 && topo.nr_types == 1 &&
	       topo.cpu[0].package == 0 && topo.cpu[1].package == 0 &&
	       topo.cpu[2].package == 1 && topo.cpu[5].package == 0 &&
	       topo.cpu[7].package == 1,
	       "fake sysfs: 8 CPUs in 2 packages (%s)", ret ? err : "ok");
	tap_ok(!ret && topo.cpu[0].core == topo.cpu[4].core &&
	       topo.cpu[0].core != topo.cpu[1].core &&
	       topo.cpu[2].core == topo.cpu[6].core &&
	       topo.cpu[0].cluster == topo.cpu[5].cluster &&
	       topo.cpu[0].cluster != topo.cpu[2].cluster,
	       "fake sysfs: SMT siblings 0/4 and 2/6; a cluster (L3) a package");
	tap_ok(!ret && topo.types[0].nr_states == 2 &&
	       !topo.types[0].no_polling_state &&
	       !strcmp(topo.types[0].states[0].name, "C1") &&
	       !strcmp(topo.types[0].states[1].name, "C6") &&
	       topo.types[0].states[1].exit_latency_ns == 133000 &&
	       topo.types[0].states[1].target_residency_ns == 600000 &&
	       topo.types[0].states[1].power_mw == 10 &&
	       topo.types[0].states[0].exit_latency_ns == 2000,
	       "fake sysfs: POLL is the driver's polling state; C1, C6 with latency and residency");
	tap_ok(!ret && topo.types[0].nr_opps == 3 &&
	       topo.types[0].opps[0].khz == 1000000 &&
	       topo.types[0].opps[2].khz == 3000000 &&
	       topo.types[0].opps[0].capacity == 341 &&
	       topo.types[0].capacity == 1024,
	       "fake sysfs: OPPs ascending, capacity by frequency");
	tap_ok(!ret && topo.nr_nodes == 2 && topo.cpu[0].node == 0 &&
	       topo.cpu[6].node == 1 && topo.distance[0][1] == 21 &&
	       topo.distance[1][1] == 10,
	       "fake sysfs: two NUMA nodes at distance 21");
	tap_ok(!ret && strstr(err, "cpu_capacity") && strstr(err, "OPP power"),
	       "fake sysfs: the defaults are noted: %s", one_line(err));
	tap_ok(!ret && round_trips(&topo), "fake sysfs: the capture round-trips");
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	/* a bare VM: no caches, cpuidle, cpufreq nor nodes */
	if (!mkdtemp(strcpy(top, "/tmp/lsb-sysfs-XXXXXX")))
		return;
	wr(top, "cpu/cpu0/topology/physical_package_id", "0\n");
	wr(top, "cpu/cpu1/topology/physical_package_id", "0\n");
	snprintf(root, sizeof(root), "%s/cpu", top);
	ret = topology_from_sysfs(&topo, root, err, sizeof(err));
	tap_ok(!ret && topo.nr_cpus == 2 && topo.types[0].nr_opps == 0 &&
	       topo.types[0].nr_states == 2 && topo.cpu[1].core == 1 &&
	       strstr(err, "no cpufreq") && strstr(err, "no cpuidle"),
	       "a bare sysfs gets defaults, noted: %s", one_line(err));
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	tap_ok(topology_from_sysfs(&topo, "/nonexistent/cpu", err,
				   sizeof(err)) && strstr(err, "/nonexistent"),
	       "a missing sysfs is an error: %s", err);

	online = sysconf(_SC_NPROCESSORS_ONLN);
	ret = topology_from_sysfs(&topo, NULL, err, sizeof(err));
	tap_ok(!ret && topo.nr_cpus == online && round_trips(&topo),
	       "this machine's sysfs: %d CPUs (online %ld), %d type(s), %d node(s)%s%s",
	       topo.nr_cpus, online, topo.nr_types, topo.nr_nodes,
	       ret ? ": " : "", ret ? err : "");
}

/*
 * A small tree: 4 CPUs of package 0, no SMT, L1 and L2 of their own, the
 * L3 (the last-level cache) as @llc[i] says, cpu_capacity 1024.
 */
static void small_sysfs(const char *top, const char *const llc[4])
{
	char rel[128];
	int i;

	wr(top, "cpu/online", "0-3\n");
	for (i = 0; i < 4; i++) {
#define W(file, ...) do {						\
		snprintf(rel, sizeof(rel), "cpu/cpu%d/%s", i, file);	\
		wr(top, rel, __VA_ARGS__);				\
	} while (0)
		W("topology/physical_package_id", "0\n");
		W("topology/thread_siblings_list", "%d\n", i);
		W("cpu_capacity", "1024\n");
		W("cache/index0/level", "1\n");
		W("cache/index0/type", "Data\n");
		W("cache/index0/shared_cpu_list", "%d\n", i);
		W("cache/index1/level", "1\n");
		W("cache/index1/type", "Instruction\n");
		W("cache/index1/shared_cpu_list", "%d\n", i);
		W("cache/index2/level", "2\n");
		W("cache/index2/type", "Unified\n");
		W("cache/index2/shared_cpu_list", "%d\n", i);
		W("cache/index3/level", "3\n");
		W("cache/index3/type", "Unified\n");
		W("cache/index3/shared_cpu_list", "%s\n", llc[i]);
#undef W
	}
}

static const char *const llc_two[4] = { "0-1", "0-1", "2-3", "2-3" };

/* Capture @top/cpu into topo (err: the note or error), then remove @top. */
static int capture(const char *top)
{
	char root[256];
	int ret;

	snprintf(root, sizeof(root), "%s/cpu", top);
	ret = topology_from_sysfs(&topo, root, err, sizeof(err));
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}

/* @file of CPU @cpu in @top: @text, or gone when NULL. */
static void sysfs_file(const char *top, int cpu, const char *file,
		       const char *text)
{
	char rel[128], path[512];

	snprintf(rel, sizeof(rel), "cpu/cpu%d/%s", cpu, file);
	snprintf(path, sizeof(path), "%s/%s", top, rel);
	remove(path);
	if (text)
		wr(top, rel, "%s", text);
}

static bool test_sysfs_llc_disagree(void)
{
	static const char *const llc[4] = { "0-1", "1-2", "1-2", "3" };
	char top[] = "/tmp/lsb-sysfs-XXXXXX", want[1024];

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc);
	snprintf(want, sizeof(want), "topology from sysfs '%s/cpu': cpu0/cache/index3/shared_cpu_list says '0-1' but cpu1/cache/index3/shared_cpu_list says '1-2': CPUs 0 and 1 disagree on their last-level cache",
		 top);
	ASSERT_EQ(capture(top), -1);
	ASSERT_STREQ(err, want);
	return true;
}

static bool test_sysfs_llc_without_itself(void)
{
	static const char *const llc[4] = { "0-1", "0-1", "3", "3" };
	char top[] = "/tmp/lsb-sysfs-XXXXXX", want[1024];

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc);
	snprintf(want, sizeof(want), "topology from sysfs '%s/cpu': cpu2/cache/index3/shared_cpu_list says '3', without CPU 2 itself",
		 top);
	ASSERT_EQ(capture(top), -1);
	ASSERT_STREQ(err, want);
	return true;
}

/* lists that agree make the clusters; files all there: nothing "missing" */
static bool test_sysfs_llc_agree(void)
{
	char top[] = "/tmp/lsb-sysfs-XXXXXX";

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc_two);
	ASSERT_EQ(capture(top), 0);
	ASSERT_EQ(topo.nr_cpus, 4);
	ASSERT_EQ(topo.cpu[1].cluster, 0);
	ASSERT_EQ(topo.cpu[2].cluster, 1);
	ASSERT_EQ(topo.cpu[3].cluster, 1);
	ASSERT_TRUE(topo.cpu[0].core != topo.cpu[1].core);
	ASSERT_FALSE(strstr(err, "missing"));
	return true;
}

/* a cpu_capacity that is there says a capacity, or the capture fails */
static bool test_sysfs_capacity_bad(void)
{
	static const char *const bad[] = { "abc", "0", "1025", "", "-3" };
	char top[64], want[1024];
	size_t i;

	for (i = 0; i < N(bad); i++) {
		ASSERT_TRUE(mkdtemp(strcpy(top, "/tmp/lsb-sysfs-XXXXXX")));
		small_sysfs(top, llc_two);
		sysfs_file(top, 1, "cpu_capacity", bad[i]);
		snprintf(want, sizeof(want), "topology from sysfs '%s/cpu': cpu1/cpu_capacity says '%s': expected a capacity from 1 to 1024",
			 top, bad[i]);
		ASSERT_EQ(capture(top), -1);
		ASSERT_STREQ(err, want);
	}
	return true;
}

static bool test_sysfs_capacity_unreadable(void)
{
	char top[] = "/tmp/lsb-sysfs-XXXXXX", want[1024];

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc_two);
	sysfs_file(top, 1, "cpu_capacity", NULL);
	wr(top, "cpu/cpu1/cpu_capacity/.keep", "%s", "");	/* a directory */
	snprintf(want, sizeof(want), "topology from sysfs '%s/cpu': cpu1/cpu_capacity: cannot read it: Is a directory",
		 top);
	ASSERT_EQ(capture(top), -1);
	ASSERT_STREQ(err, want);
	return true;
}

/* an absent one is 1024, and the note says it is missing */
static bool test_sysfs_capacity_missing(void)
{
	char top[] = "/tmp/lsb-sysfs-XXXXXX";
	int i;

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc_two);
	for (i = 0; i < 4; i++)
		sysfs_file(top, i, "cpu_capacity", i == 2 ? "512\n" : NULL);
	ASSERT_EQ(capture(top), 0);
	ASSERT_TRUE(strstr(err, "cpu_capacity missing: capacity 1024"));
	ASSERT_EQ(topo.cpu[0].capacity, 1024);
	ASSERT_EQ(topo.cpu[2].capacity, 512);
	return true;
}

static bool test_sysfs_package(void)
{
	char top[] = "/tmp/lsb-sysfs-XXXXXX", want[1024];
	int i;

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc_two);
	sysfs_file(top, 2, "topology/physical_package_id", "x\n");
	snprintf(want, sizeof(want), "topology from sysfs '%s/cpu': cpu2/topology/physical_package_id says 'x': expected a number (or -1: unknown)",
		 top);
	ASSERT_EQ(capture(top), -1);
	ASSERT_STREQ(err, want);

	/* -1: the architecture does not know; absent: missing */
	ASSERT_TRUE(mkdtemp(strcpy(top, "/tmp/lsb-sysfs-XXXXXX")));
	small_sysfs(top, llc_two);
	for (i = 0; i < 4; i++)
		sysfs_file(top, i, "topology/physical_package_id", "-1\n");
	ASSERT_EQ(capture(top), 0);
	ASSERT_TRUE(strstr(err, "physical_package_id -1 (unknown): package 0"));
	ASSERT_FALSE(strstr(err, "missing"));
	ASSERT_EQ(topo.cpu[3].package, 0);
	return true;
}

static bool test_sysfs_siblings_bad(void)
{
	char top[] = "/tmp/lsb-sysfs-XXXXXX", want[1024];

	ASSERT_TRUE(mkdtemp(top));
	small_sysfs(top, llc_two);
	sysfs_file(top, 0, "topology/thread_siblings_list", "0-\n");
	snprintf(want, sizeof(want), "topology from sysfs '%s/cpu': cpu0/topology/thread_siblings_list says '0-': expected a CPU list",
		 top);
	ASSERT_EQ(capture(top), -1);
	ASSERT_STREQ(err, want);
	return true;
}

/* A type's cpuidle driver with or without a POLL state 0: JSON, presets */
static bool test_polling_state(void)
{
	char *json;

	ASSERT_FALSE(topology_from_json(&topo,
		"{\"cpu_types\": {\"a\": {\"polling_state\": false}}, \"shape\": {}}",
		"arm", err, sizeof(err)));
	ASSERT_EQ(topo.types[0].no_polling_state, 1);
	json = topology_to_json(&topo);
	ASSERT_TRUE(json && strstr(json, "\"polling_state\": false"));
	free(json);
	ASSERT_FALSE(topology_from_json(&topo,
		"{\"cpu_types\": {\"a\": {\"polling_state\": true}}, \"shape\": {}}",
		"x86", err, sizeof(err)));
	ASSERT_EQ(topo.types[0].no_polling_state, 0);
	json = topology_to_json(&topo);
	ASSERT_TRUE(json && !strstr(json, "polling_state"));
	free(json);
	ASSERT_TRUE(topology_from_json(&topo,
		"{\"cpu_types\": {\"a\": {\"polling_state\": 0}}, \"shape\": {}}",
		"bad", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "topology 'bad':1:39: cpu_types.a: 'polling_state': expected true"));
	ASSERT_FALSE(topology_from_spec(&topo, "biglittle-4+4", err, sizeof(err)));
	ASSERT_EQ(topo.types[0].no_polling_state + topo.types[1].no_polling_state, 2);
	ASSERT_FALSE(topology_from_spec(&topo, "quad-smt", err, sizeof(err)));
	ASSERT_EQ(topo.types[0].no_polling_state, 0);
	return true;
}

static bool test_cmdline(void)
{
	ASSERT_FALSE(topology_from_spec(&topo, "quad", err, sizeof(err)));
	ASSERT_FALSE(topology_set_cmdline(&topo, "isolcpus=domain,managed_irq,1,3", err,
					  sizeof(err)));
	ASSERT_STREQ(topo.cmdline, "isolcpus=domain,managed_irq,1,3");
	ASSERT_FALSE(topology_set_cmdline(&topo, "isolcpus=2-3", err, sizeof(err)));
	ASSERT_TRUE(topology_set_cmdline(&topo, "isolcpus=0-3", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "isolates every CPU"));
	ASSERT_TRUE(topology_set_cmdline(&topo, "isolcpus=4", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "from 0 to 3"));
	ASSERT_TRUE(topology_set_cmdline(&topo, "isolcpus=3-1", err, sizeof(err)));
	ASSERT_TRUE(topology_set_cmdline(&topo, "nohz_full=3", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "CONFIG_NO_HZ_FULL"));
	ASSERT_TRUE(topology_set_cmdline(&topo, "quiet", err, sizeof(err)));
	ASSERT_STREQ(topo.cmdline, "isolcpus=2-3");	/* a refusal keeps it */
	/* and a JSON machine's "cmdline", checked there, printed back */
	ASSERT_TRUE(topology_from_json(&topo,
		"{\"cmdline\": \"isolcpus=9\", \"shape\": {\"cores_per_cluster\": 2}}",
		"iso", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "topology 'iso':1:13: boot parameter 'isolcpus=9'"));
	return true;
}

/*
 * A flag in two isolcpus=: the kernel refuses the second, with other CPUs
 * in every release and with the same ones in 7.2 and 7.3 (the boot would
 * stop): refused here, before any build. Flags apart are fine.
 */
static bool test_cmdline_flag_once(void)
{
	static const char *const twice[][3] = {
		{ "isolcpus=3 isolcpus=2", "'isolcpus=3' and 'isolcpus=2'",
		  "the domain flag (isolcpus's default)" },
		{ "isolcpus=3  isolcpus=domain,3", "'isolcpus=3' and 'isolcpus=domain,3'",
		  "the domain flag" },
		{ "isolcpus=managed_irq,1 isolcpus=domain,2 isolcpus=managed_irq,1",
		  "'isolcpus=managed_irq,1' and 'isolcpus=managed_irq,1'",
		  "the managed_irq flag" },
	};
	char want[512];
	size_t i;

	ASSERT_FALSE(topology_from_spec(&topo, "quad", err, sizeof(err)));
	for (i = 0; i < N(twice); i++) {
		snprintf(want, sizeof(want), "boot parameters %s both give %s",
			 twice[i][1], twice[i][2]);
		ASSERT_TRUE(topology_set_cmdline(&topo, twice[i][0], err,
						 sizeof(err)));
		ASSERT_TRUE(strstr(err, want));
		ASSERT_TRUE(strstr(err, "the kernel would refuse the second (\"Housekeeping: nohz_full= must match isolcpus=\""));
	}
	ASSERT_STREQ(topo.cmdline, "");
	ASSERT_FALSE(topology_set_cmdline(&topo, "isolcpus=domain,2 isolcpus=managed_irq,3",
					  err, sizeof(err)));
	ASSERT_STREQ(topo.cmdline, "isolcpus=domain,2 isolcpus=managed_irq,3");
	ASSERT_FALSE(topology_set_cmdline(&topo, "isolcpus=managed_irq,3 isolcpus=1",
					  err, sizeof(err)));
	/* a JSON machine's "cmdline" is checked the same way */
	ASSERT_TRUE(topology_from_json(&topo,
		"{\"cmdline\": \"isolcpus=1 isolcpus=1\", \"shape\": {\"cores_per_cluster\": 2}}",
		"iso", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "topology 'iso':1:13: boot parameters 'isolcpus=1' and 'isolcpus=1' both give the domain flag"));
	return true;
}

int main(void)
{
	const char *const *names;
	size_t n, i;

	tap_plan(2 + 2 * (int)N(presets) + 6 + 30 + 7 + 3 + 11 + 1 + 10);

	names = topology_presets(&n);
	tap_ok(n == N(presets), "%zu presets", n);
	for (i = 0; i < N(presets); i++) {
		const struct expect *e = &presets[i];
		int ok = i < n && !strcmp(names[i], e->name) &&
			 !topology_from_spec(&topo, e->name, err, sizeof(err)) &&
			 !topology_validate(&topo, err, sizeof(err));

		tap_ok(ok && topo.nr_cpus == e->cpus && topo.nr_types == e->types &&
		       topo.nr_nodes == e->nodes && topo.cpu[0].capacity == e->cap0 &&
		       !strcmp(topo.name, e->name) && topo.description[0],
		       "preset %s: %d CPUs, %d types, %d nodes, CPU 0 at %u",
		       e->name, e->cpus, e->types, e->nodes, e->cap0);
		tap_ok(ok && round_trips(&topo), "preset %s round-trips",
		       e->name);
	}
	tap_ok(topology_from_spec(&topo, "quadd", err, sizeof(err)) &&
	       strstr(err, "'quadd'"), "an unknown name is named: %s", err);

	topology_from_spec(&topo, "biglittle-4+4", err, sizeof(err));
	tap_ok(topo.cpu[0].cluster == 0 && topo.cpu[3].cluster == 0 &&
	       topo.cpu[4].cluster == 1 && topo.cpu[4].capacity == 1024 &&
	       !strcmp(topo.types[topo.cpu[0].type].name, "little") &&
	       topo.types[0].nr_opps == 8 &&
	       topo.types[0].opps[0].khz == 408000 &&
	       topo.types[1].opps[10].khz == 2400000 &&
	       topo.types[1].opps[10].capacity == 1024 &&
	       topo.types[1].opps[10].power_mw > 900,
	       "biglittle-4+4: little 0-3 and big 4-7 in two clusters, OPPs to 2.4 GHz");
	topology_from_spec(&topo, "dynamiq-1+3+4", err, sizeof(err));
	tap_ok(topo.cpu[0].cluster == 0 && topo.cpu[7].cluster == 0 &&
	       topo.cpu[0].capacity == 300 && topo.cpu[4].capacity == 750 &&
	       topo.cpu[6].capacity == 750 && topo.cpu[7].capacity == 1024,
	       "dynamiq-1+3+4: 4 little, 3 big, 1 prime in one cluster");
	topology_from_spec(&topo, "numa-4", err, sizeof(err));
	tap_ok(topo.distance[0][1] == 16 && topo.distance[0][2] == 22 &&
	       topo.distance[0][3] == 16 && topo.distance[1][3] == 22 &&
	       topo.cpu[5].node == 1 && topo.cpu[15].node == 3,
	       "numa-4: a ring, neighbours 16, across 22");
	topology_from_spec(&topo, "server-64", err, sizeof(err));
	tap_ok(topo.cpu[0].core == topo.cpu[32].core &&
	       topo.cpu[0].core != topo.cpu[1].core &&
	       topo.cpu[16].package == 1 && topo.cpu[16].node == 1 &&
	       topo.cpu[48].package == 1 && topo.types[0].nr_states == 3,
	       "server-64: siblings 32 apart, a node a socket, C1/C1E/C6");
	topology_from_spec(&topo, "quad-smt", err, sizeof(err));
	tap_ok(topo.nr_cpus == 8 && topo.cpu[0].core == topo.cpu[4].core &&
	       topo.cpu[0].core != topo.cpu[1].core,
	       "quad-smt: CPU 0 and 4 are SMT siblings");
	topology_from_spec(&topo, "dual-socket-hex-smt", err, sizeof(err));
	tap_ok(topo.nr_cpus == 24 && topo.cpu[6].package == 1 &&
	       topo.cpu[12].core == topo.cpu[0].core,
	       "dual-socket-hex-smt: 24 CPUs, siblings 12 apart");

	errors();
	defaults_and_shapes();
	files();
	sysfs();
	TEST(test_polling_state);
	TEST(test_cmdline);
	TEST(test_cmdline_flag_once);
	TEST(test_sysfs_llc_disagree);
	TEST(test_sysfs_llc_without_itself);
	TEST(test_sysfs_llc_agree);
	TEST(test_sysfs_capacity_bad);
	TEST(test_sysfs_capacity_unreadable);
	TEST(test_sysfs_capacity_missing);
	TEST(test_sysfs_package);
	TEST(test_sysfs_siblings_bad);
	return tap_done();
}
