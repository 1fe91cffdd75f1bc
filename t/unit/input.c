// SPDX-License-Identifier: GPL-2.0-only
/*
 * Input hardening of the workload and topology parsers: a file is read
 * once and never past 16 MiB; a key given twice is refused (events
 * excepted) with the line of both; names are printable UTF-8 ("\u0000"
 * included); compact specs, durations and seeds are strict decimal with
 * the character of the fault; a phase that would loop in no time is
 * refused. One case per function.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/sim.h"
#include "t/tap.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

static char dir[] = "/tmp/lsb-input-XXXXXX";
static struct workload wl;
static struct topology topo;
static char err[WORKLOAD_ERR_MAX];

/* Write @text to @name in @dir; its path (a static buffer). */
static const char *file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
	return path;
}

/* @len bytes into @name in @dir; its path (a static buffer). */
static const char *file_bytes(const char *name, const char *bytes, size_t len)
{
	const char *path = file(name, "");
	FILE *f = fopen(path, "w");

	if (!f || fwrite(bytes, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
	return path;
}

/* @spec parses; on failure the message is a diagnostic. */
static bool parses(const char *spec)
{
	if (!workload_parse(&wl, spec, err, sizeof(err)))
		return true;
	tap_diag("'%s': %s", spec, err);
	return false;
}

/* @spec is refused with a message holding @expect. */
static bool refused(const char *spec, const char *expect)
{
	if (!workload_parse(&wl, spec, err, sizeof(err))) {
		workload_release(&wl);
		tap_diag("'%s': accepted", spec);
		return false;
	}
	if (strstr(err, expect))
		return true;
	tap_diag("'%s': %s", spec, err);
	return false;
}

/* The rt-app text @text, as the file @name, is refused with @expect. */
static bool file_refused(const char *name, const char *text,
			 const char *expect)
{
	return refused(file(name, text), expect);
}

static bool test_read_caps_the_size(void)
{
	size_t len;

	/* /dev/zero grows without end: the read stops at the cap */
	ASSERT_FALSE(topology_read_input("/dev/zero", "workload", &len, err,
					 sizeof(err)));
	ASSERT_STREQ(err, "workload '/dev/zero': larger than 16 MiB, the most a workload file may hold");
	ASSERT_TRUE(refused("/dev/zero", "larger than 16 MiB"));
	ASSERT_TRUE(topology_from_spec(&topo, "/dev/zero", err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "topology '/dev/zero': larger than 16 MiB"));
	return true;
}

static bool test_read_directory_and_nul(void)
{
	ASSERT_TRUE(topology_from_spec(&topo, "/tmp", err, sizeof(err)));
	ASSERT_STREQ(err, "topology '/tmp': a directory, not a JSON file");
	ASSERT_TRUE(refused("/tmp", "workload '/tmp': a directory, not a JSON file"));
	ASSERT_TRUE(refused(file("empty.json", ""), "malformed JSON near the end of the file"));
	ASSERT_TRUE(refused(file_bytes("nul-byte.json", "{\"tasks\"\0: 1}", 14),
			    "a NUL byte at offset 8: not a JSON text"));
	ASSERT_TRUE(refused("/tmp/lsb-absent/x.json", "cannot read it: No such file"));
	return true;
}

/* A FIFO is read once, as the simulator reads it: no hang, no second read. */
static bool test_read_fifo(void)
{
	char path[300];
	pid_t pid;
	int status;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	ASSERT_EQ(mkfifo(path, 0600), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (!pid) {
		FILE *f = fopen(path, "w");

		fputs("{\"tasks\": {\"t\": {\"instance\": 2, \"run\": 10, \"sleep\": 10}}}", f);
		_exit(fclose(f) ? 1 : 0);
	}
	alarm(10);	/* a hang is a failure, not a stuck test */
	ASSERT_TRUE(parses(path));
	alarm(0);
	waitpid(pid, &status, 0);
	ASSERT_EQ(wl.nr_tasks, 2);
	ASSERT_STREQ(wl.spec, path);
	workload_release(&wl);
	unlink(path);
	return true;
}

static bool test_parse_json_text_named(void)
{
	ASSERT_FALSE(workload_parse_json(&wl, "/dev/fd/63",
		"{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10}}}", err,
		sizeof(err)));
	ASSERT_STREQ(wl.spec, "/dev/fd/63");
	ASSERT_EQ(wl.nr_tasks, 1);
	workload_release(&wl);
	ASSERT_TRUE(workload_parse_json(&wl, "/dev/fd/63",
		"{\"tasks\": {\"t\": {\"run\": 10,\n \"instance\": 1, \"instance\": 2}}}",
		err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "workload '/dev/fd/63': line 2, column 17: task 't': 'instance': given twice (the first at line 2, column 2)"));
	return true;
}

static bool test_key_twice_refused(void)
{
	ASSERT_TRUE(file_refused("instance.json",
		"{\"tasks\": {\n \"t\": {\"instance\": 2,\n  \"run\": 10,\n  \"instance\": 3}}}",
		"line 4, column 3: task 't': 'instance': given twice (the first at line 2, column 8): rt-app's json-c keeps the last, its workgen the first; give it once"));
	ASSERT_TRUE(file_refused("policy.json",
		"{\"tasks\": {\"t\": {\"policy\": \"SCHED_OTHER\", \"run\": 10, \"policy\": \"SCHED_FIFO\"}}}",
		"task 't': 'policy': given twice"));
	ASSERT_TRUE(file_refused("tasks.json",
		"{\"tasks\": {\"a\": {\"run\": 10}},\n \"tasks\": {\"b\": {\"run\": 10}}}",
		"line 2, column 2: 'tasks': given twice (the first at line 1, column 2)"));
	ASSERT_TRUE(file_refused("global.json",
		"{\"global\": {\"duration\": 1, \"duration\": 2}, \"tasks\": {\"a\": {\"run\": 10}}}",
		"'duration': given twice"));
	ASSERT_TRUE(file_refused("phase.json",
		"{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 10, \"loop\": 2, \"loop\": 3}}}}}",
		"task 't': phase 'p': 'loop': given twice"));
	ASSERT_TRUE(file_refused("phases.json",
		"{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 10}, \"p\": {\"run\": 20}}}}}",
		"task 't': 'p': given twice"));
	/* item 22: the second "time" was an "unknown key" */
	ASSERT_TRUE(file_refused("time.json",
		"{\"tasks\": {\"a\": {\"run\": 10}},\n \"lsb-events\": [{\"time\": 1, \"time\": 2, \"cpu\": 1, \"online\": false}]}",
		"line 2, column 29: 'time': given twice (the first at line 2, column 18)"));
	ASSERT_TRUE(file_refused("timer.json",
		"{\"tasks\": {\"a\": {\"timer\": {\"ref\": \"x\", \"period\": 10, \"period\": 20}}}}",
		"'period': given twice"));
	ASSERT_TRUE(file_refused("task.json",
		"{\"tasks\": {\"t\": {\"run\": 10}, \"t\": {\"run\": 5}}}",
		"line 1, column 30: task 't': a second task of this name (the first is at line 1, column 12)"));
	return true;
}

/* Events may repeat: all count, in order, as rt-app's workgen makes them. */
static bool test_events_twice_count(void)
{
	ASSERT_TRUE(parses(file("events.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 20, \"run\": 30, \"sleep\": 40}}}")));
	ASSERT_EQ(wl.defs[0].phases[0].nr_events, 4);
	ASSERT_EQ(wl.defs[0].phases[0].events[2].len.a, 30000);
	workload_release(&wl);
	return true;
}

static bool test_names_printable(void)
{
	ASSERT_TRUE(file_refused("nl.json", "{\"tasks\": {\"a\\nb\": {\"run\": 10}}}",
		"task 'a\\x0ab': the name 'a\\x0ab' holds a control character (\\x0a at byte 2)"));
	ASSERT_TRUE(file_refused("utf8.json", "{\"tasks\": {\"a\xff" "b\": {\"run\": 10}}}",
		"holds bytes that are not UTF-8 (\\xff at byte 2)"));
	ASSERT_TRUE(file_refused("c1.json", "{\"tasks\": {\"a\\u0085\": {\"run\": 10}}}",
		"a control character (\\xc2\\x85 at byte 2)"));
	ASSERT_TRUE(file_refused("nul.json", "{\"tasks\": {\"a\\u0000b\": {\"run\": 10}}}",
		"line 1, column 14: \\u0000 in a string: no name or value may hold a NUL character"));
	ASSERT_TRUE(file_refused("phase-name.json",
		"{\"tasks\": {\"t\": {\"phases\": {\"p\\t\": {\"run\": 10}}}}}",
		"phase 'p\\x09': the name 'p\\x09' holds a control character"));
	ASSERT_TRUE(file_refused("mutex.json",
		"{\"tasks\": {\"t\": {\"lock\": \"m\\u0007\", \"unlock\": \"m\\u0007\"}}}",
		"'lock': the name 'm\\x07' holds a control character"));
	ASSERT_TRUE(file_refused("fork.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"fork\": \"k\\r\"}}}",
		"'fork': the task 'k\\x0d' holds a control character"));
	ASSERT_TRUE(file_refused("group.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"taskgroup\": \"/a\\u001b\"}}}",
		"taskgroup '/a\\x1b': holds a control character"));
	ASSERT_TRUE(file_refused("value.json",
		"{\"lsb-taskgroups\": {\"/a\": {\"cpu.max\": \"max\\n100\"}}, \"tasks\": {\"t\": {\"run\": 10}}}",
		"'cpu.max': the value 'max\\x0a100' holds a control character"));
	/* a message never carries raw bytes, whatever it quotes */
	ASSERT_TRUE(file_refused("policy-bytes.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"policy\": \"SCHED_\x01\"}}}",
		"unknown policy 'SCHED_\\x01'"));
	ASSERT_TRUE(refused("hog:name=a\x01", "workload 'hog:name=a\\x01': holds a control character (\\x01 at byte 11)"));
	ASSERT_TRUE(topology_from_spec(&topo, file("nl-topo.json",
		"{\"name\": \"m\\n\", \"shape\": {\"packages\": 1}}"),
		err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "'name': \"m\\x0a\" holds a control character"));
	return true;
}

/* UTF-8 names are names: an instance's cut keeps whole characters. */
static bool test_utf8_names_cut_whole(void)
{
	/* "xété-àçé-long": its 10th byte is the first half of ç */
	ASSERT_TRUE(parses(file("accents.json",
		"{\"tasks\": {\"x\xc3\xa9t\xc3\xa9-\xc3\xa0\xc3\xa7\xc3\xa9-long\": {\"instance\": 2, \"run\": 10, \"sleep\": 10}}}")));
	ASSERT_STREQ(wl.tasks[1].name, "x\xc3\xa9t\xc3\xa9-\xc3\xa0-1");
	workload_release(&wl);
	ASSERT_EQ(topology_utf8_cut("ab\xc3\xa9", 3), 2);
	ASSERT_EQ(topology_utf8_cut("ab\xc3\xa9", 4), 4);
	ASSERT_EQ(topology_utf8_cut("abc", 15), 3);
	return true;
}

static bool test_printable_escapes(void)
{
	char s[32] = "a\x01\xff\xc3\xa9z";

	topology_printable(s, sizeof(s));
	ASSERT_STREQ(s, "a\\x01\\xff\xc3\xa9z");
	snprintf(s, sizeof(s), "%s", "plain");
	topology_printable(s, sizeof(s));
	ASSERT_STREQ(s, "plain");
	return true;
}

static bool test_compact_grammar(void)
{
	ASSERT_TRUE(refused("hog+", "workload 'hog+': character 5: group 2 is empty"));
	ASSERT_TRUE(refused("+hog", "character 1: group 1 is empty"));
	ASSERT_TRUE(refused("hog++hog", "character 5: group 2 is empty"));
	ASSERT_TRUE(refused("hog::nice=1", "character 5: group 1: an empty KEY=VALUE"));
	ASSERT_TRUE(refused("hog:", "character 5: group 1: an empty KEY=VALUE"));
	ASSERT_TRUE(refused("hog:=1", "character 5: group 1: '=1' is not KEY=VALUE"));
	ASSERT_TRUE(refused("hog:name=", "character 10: group 1: name '': expected 1 to 10 characters"));
	ASSERT_TRUE(refused("hog:name=abcdefghijk", "character 10: group 1: name 'abcdefghijk': expected 1 to 10 characters"));
	ASSERT_TRUE(refused("hog:nice=1:nice=2", "character 12: group 1: 'nice' is given twice (the first at character 5)"));
	ASSERT_TRUE(refused("hog*+3", "character 5: group 1: count '' is not 1..4096"));
	ASSERT_TRUE(refused("hog*+2", "count ''"));
	ASSERT_TRUE(refused("hog:nice=+3", "character 10: group 1: bad value '' for 'nice'"));
	ASSERT_TRUE(refused("hog:nice= 3", "bad value ' 3' for 'nice'"));
	ASSERT_TRUE(refused("hog:cpus=0..1", "bad value '0..1' for 'cpus'"));
	ASSERT_TRUE(refused("hog:cpus=0.", "bad value '0.' for 'cpus'"));
	ASSERT_TRUE(refused("periodic:run=0x10:sleep=1ms", "character 14: group 1: bad value '0x10' for 'run'"));
	ASSERT_TRUE(refused("hog*2x", "count '2x'"));
	ASSERT_TRUE(parses("hog:name=abcdefghij"));
	ASSERT_STREQ(wl.tasks[0].name, "abcdefghij-0");
	workload_release(&wl);
	return true;
}

/* A CPU named twice counts once: no list grows past the CPUs. */
static bool test_cpus_named_twice(void)
{
	char json[8192];
	size_t n;
	int i;

	ASSERT_TRUE(parses("hog:cpus=0-511.0-511.0-511.3"));
	ASSERT_EQ(wl.tasks[0].nr_cpus, 512);
	workload_release(&wl);
	n = (size_t)snprintf(json, sizeof(json), "{\"tasks\": {\"t\": {\"run\": 10, \"cpus\": [");
	for (i = 0; i < 1200; i++)
		n += (size_t)snprintf(json + n, sizeof(json) - n, "%s%d",
				      i ? ", " : "", i % 3);
	snprintf(json + n, sizeof(json) - n, "]}}}");
	ASSERT_TRUE(parses(file("cpus-twice.json", json)));
	ASSERT_EQ(wl.defs[0].nr_cpus, 3);
	workload_release(&wl);
	return true;
}

static bool test_durations_decimal(void)
{
	uint64_t ns;

	ASSERT_TRUE(workload_parse_duration(&ns, "0x10"));
	ASSERT_TRUE(workload_parse_duration(&ns, "0x10ms"));
	ASSERT_TRUE(workload_parse_duration(&ns, " 5ms"));
	ASSERT_TRUE(workload_parse_duration(&ns, "+5ms"));
	ASSERT_TRUE(workload_parse_duration(&ns, "5e"));
	ASSERT_EQ(workload_parse_duration(&ns, "1e3us"), 0);
	ASSERT_EQ(ns, 1000000);
	ASSERT_TRUE(sim_parse_duration(&ns, "0x10"));
	ASSERT_TRUE(sim_parse_duration(&ns, " 1"));
	ASSERT_TRUE(sim_parse_duration(&ns, "18000000000"));
	ASSERT_EQ(sim_parse_duration(&ns, "17999999999"), 0);
	ASSERT_TRUE(ns > 17999999998999990000ULL);	/* a double's precision */
	ASSERT_EQ(sim_parse_duration(&ns, ".5"), 0);
	ASSERT_EQ(ns, 500000000);
	return true;
}

/* global.duration in seconds wrapped past 2^64 ns: 18446744074 s ran 0.29 s */
static bool test_global_duration_overflow(void)
{
	ASSERT_TRUE(file_refused("wrap.json",
		"{\"global\": {\"duration\": 18446744074}, \"tasks\": {\"t\": {\"run\": 10}}}",
		"'duration': expected a positive number of seconds below 18000000000 (570 years) or -1, got 18446744074"));
	ASSERT_TRUE(parses(file("long.json",
		"{\"global\": {\"duration\": 17999999999}, \"tasks\": {\"t\": {\"run\": 10, \"sleep\": 10}}}")));
	ASSERT_EQ(wl.duration_ns, 17999999999000000000ULL);
	workload_release(&wl);
	return true;
}

static bool test_seeds(void)
{
	uint64_t seed = 7;

	ASSERT_EQ(sim_parse_seed(&seed, "18446744073709551615"), 0);
	ASSERT_TRUE(seed == UINT64_MAX);
	ASSERT_EQ(sim_parse_seed(&seed, "0"), 0);
	ASSERT_EQ(seed, 0);
	ASSERT_TRUE(sim_parse_seed(&seed, "-1"));
	ASSERT_TRUE(sim_parse_seed(&seed, "18446744073709551616"));
	ASSERT_TRUE(sim_parse_seed(&seed, "0x10"));
	ASSERT_TRUE(sim_parse_seed(&seed, " 5"));
	ASSERT_TRUE(sim_parse_seed(&seed, "+5"));
	ASSERT_TRUE(sim_parse_seed(&seed, ""));
	ASSERT_EQ(seed, 0);	/* untouched by the refusals */
	return true;
}

static bool test_zero_time_phases(void)
{
	ASSERT_TRUE(file_refused("yield.json", "{\"tasks\": {\"t\": {\"yield\": \"\"}}}",
		"task 't': 'yield': every event of the phase is a yield: it would loop without time passing"));
	ASSERT_TRUE(file_refused("yield-sleep.json",
		"{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"yield\": \"\", \"sleep\": 0}}}}}",
		"phase 'p': 'yield': every event of the phase is a yield or a sleep of 0"));
	ASSERT_TRUE(parses(file("yield-run.json",
		"{\"tasks\": {\"t\": {\"yield\": \"\", \"run\": 10}}}")));
	workload_release(&wl);
	return true;
}

/* A long taskgroup path leaves room for the reason after it. */
static bool test_long_path_keeps_the_reason(void)
{
	char path[300], json[1024];

	memset(path, 'a', 240);
	path[0] = '/';
	path[120] = '/';
	path[240] = '\0';
	snprintf(json, sizeof(json),
		 "{\"lsb-taskgroups\": {\"%s\": {\"cpu.wieght\": 100}}, \"tasks\": {\"t\": {\"run\": 10, \"taskgroup\": \"%s\"}}}",
		 path, path);
	ASSERT_TRUE(file_refused("long-path.json", json,
				 "unknown control file 'cpu.wieght' (expected cpu.weight, cpu.weight.nice, cpu.max, cpu.max.burst, cpu.idle, cpu.uclamp.min, cpu.uclamp.max, cgroup v1's cpu.shares, cpu.cfs_quota_us, cpu.cfs_period_us, cpu.cfs_burst_us, or cpuset.cpus, cpuset.cpus.partition)"));
	return true;
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		tap_skip_all("cannot make a temporary directory");
	tap_plan(16);
	TEST(test_read_caps_the_size);
	TEST(test_read_directory_and_nul);
	TEST(test_read_fifo);
	TEST(test_parse_json_text_named);
	TEST(test_key_twice_refused);
	TEST(test_events_twice_count);
	TEST(test_names_printable);
	TEST(test_utf8_names_cut_whole);
	TEST(test_printable_escapes);
	TEST(test_compact_grammar);
	TEST(test_cpus_named_twice);
	TEST(test_durations_decimal);
	TEST(test_global_duration_overflow);
	TEST(test_seeds);
	TEST(test_zero_time_phases);
	TEST(test_long_path_keeps_the_reason);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("cannot remove %s", dir);
	return tap_done();
}
