// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rt-app JSON reader: the hand-written files of t/workloads give the
 * model they say; what rt-app's parser takes (comments, trailing commas,
 * keys it never reads, "sleep": 0, names sharing 15 characters) is taken;
 * every class of bad input is refused with a message naming the file and
 * where in it. One case per function; the refusals are a table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t/tap.h"
#include "workloads/workloads.h"

static char dir[] = "/tmp/lsb-wl-XXXXXX";
static struct workload wl;
static char err[1024];

/* Write @text to a file of @dir and return its path (static buffer). */
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

/* Parse @path into wl: true on success, the error as a diagnostic. */
static bool parse(const char *path)
{
	err[0] = '\0';
	if (!workload_parse(&wl, path, err, sizeof(err)))
		return true;
	tap_diag("%s: %s", path, err);
	return false;
}

/* Parse @text as the file @name; on failure @err holds the message. */
static bool parse_text(const char *name, const char *text)
{
	return parse(file(name, text));
}

/* @text as the file @name is refused: @err holds the message. */
static bool refuse_text(const char *name, const char *text)
{
	if (workload_parse(&wl, file(name, text), err, sizeof(err)))
		return true;
	workload_release(&wl);
	tap_diag("%s: accepted", name);
	return false;
}

static const struct workload_resource *res_named(const char *name)
{
	int i;

	for (i = 0; i < wl.nr_res; i++)
		if (!strcmp(wl.res[i].name, name))
			return &wl.res[i];
	return NULL;
}

static bool test_compact_spec(void)
{
	ASSERT_FALSE(workload_parse(&wl, "hog*2+periodic:run=1ms:sleep=9ms",
				    err, sizeof(err)));
	ASSERT_EQ(wl.nr_tasks, 3);
	ASSERT_EQ(wl.nr_defs, 2);
	ASSERT_EQ(wl.tasks[2].nr_phases, 1);
	ASSERT_EQ(wl.tasks[2].phases[0].nr_events, 2);
	ASSERT_EQ(wl.tasks[2].phases[0].events[1].type, WL_EV_SLEEP);
	ASSERT_EQ(wl.tasks[2].phases[0].events[1].len.a, 9000000);
	ASSERT_EQ(wl.tasks[0].loop, -1);
	workload_release(&wl);
	return true;
}

static bool test_example_files(void)
{
	static const char *const files[] = {
		"periodic", "run-runtime", "fifo", "mutex", "condvar", "sync",
		"barrier", "suspend", "fork-yield", "policies", "phases-random",
	};
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "t/workloads/%s.json", files[i]);
		ASSERT_TRUE(parse(path));
		ASSERT_TRUE(wl.nr_tasks > 0);
		ASSERT_STREQ(wl.spec, path);
		workload_release(&wl);
	}
	return true;
}

static bool test_periodic(void)
{
	const struct workload_event *e;
	const struct workload_resource *r;

	ASSERT_TRUE(parse("t/workloads/periodic.json"));
	e = &wl.tasks[0].phases[0].events[1];
	r = res_named("tick");
	ASSERT_EQ(wl.duration_ns, 2000000000ULL);
	ASSERT_EQ(e->type, WL_EV_TIMER);
	ASSERT_EQ(e->len.a, 10000000);
	ASSERT_TRUE(r && r->absolute && !r->unique);
	ASSERT_EQ(wl.tasks[0].phases[0].events[0].len.a, 2500000);
	ASSERT_TRUE(strstr(wl.notes, "calibration: not applicable"));
	/* a 'unique' timer is per instance, instances are numbered */
	r = res_named("unique@rel");
	ASSERT_TRUE(r && r->unique && !r->absolute);
	ASSERT_EQ(wl.nr_tasks, 4);
	ASSERT_STREQ(wl.tasks[3].name, "shared-1");
	workload_release(&wl);
	return true;
}

static bool test_barrier_counts_instances(void)
{
	const struct workload_resource *r;

	ASSERT_TRUE(parse("t/workloads/barrier.json"));
	r = res_named("meet");
	ASSERT_TRUE(r && r->type == WL_RES_BARRIER);
	ASSERT_EQ(r->users, 4);
	workload_release(&wl);
	return true;
}

static bool test_fork_names_a_definition(void)
{
	ASSERT_TRUE(parse("t/workloads/fork-yield.json"));
	ASSERT_EQ(wl.nr_defs, 3);
	ASSERT_EQ(wl.nr_tasks, 3);
	ASSERT_EQ(wl.tasks[0].phases[0].events[0].type, WL_EV_FORK);
	ASSERT_EQ(wl.tasks[0].phases[0].events[0].res, 1);
	ASSERT_EQ(wl.defs[1].instances, 0);	/* a template: none at boot */
	ASSERT_EQ(wl.tasks[0].loop, 3);
	workload_release(&wl);
	return true;
}

static bool test_policies(void)
{
	ASSERT_TRUE(parse("t/workloads/policies.json"));
	ASSERT_EQ(wl.tasks[0].policy, 6);
	ASSERT_EQ(wl.tasks[0].dl_runtime_ns, 2000000);
	ASSERT_EQ(wl.tasks[0].dl_period_ns, 10000000);
	ASSERT_EQ(wl.tasks[0].dl_deadline_ns, 10000000);	/* the period */
	ASSERT_EQ(wl.tasks[1].policy, 2);
	ASSERT_EQ(wl.tasks[1].prio, 20);
	ASSERT_EQ(wl.tasks[3].policy, 5);
	ASSERT_EQ(wl.tasks[4].policy, 3);
	ASSERT_EQ(wl.tasks[5].nice, 5);		/* a fair priority is nice */
	ASSERT_EQ(wl.tasks[5].policy, 0);
	workload_release(&wl);
	return true;
}

static bool test_distributions_and_phases(void)
{
	ASSERT_TRUE(parse("t/workloads/phases-random.json"));
	ASSERT_TRUE(wl.randomised);
	ASSERT_EQ(wl.tasks[0].phases[0].events[0].len.kind, WL_DIST_EXPONENTIAL);
	ASSERT_EQ(wl.tasks[4].phases[0].events[0].len.kind, WL_DIST_LOGNORMAL);
	ASSERT_EQ(wl.tasks[4].phases[0].events[0].len.b, 1000000);
	ASSERT_EQ(wl.tasks[4].phases[0].events[1].len.kind, WL_DIST_UNIFORM);
	ASSERT_EQ(wl.tasks[8].phases[0].events[0].len.kind, WL_DIST_NORMAL);
	ASSERT_EQ(wl.tasks[12].nr_phases, 2);
	ASSERT_EQ(wl.tasks[12].phases[1].cpus[0], 2);
	ASSERT_TRUE(wl.tasks[12].phases[1].set_nice);
	ASSERT_EQ(wl.tasks[12].delay_ns, 50000000);
	/* a phase's CPU beyond the topology, and the same on 4 CPUs */
	ASSERT_TRUE(workload_check(&wl, 2, err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "task 'mover': phase 'right': CPU 2 is beyond the topology's 2 CPUs"));
	ASSERT_FALSE(workload_check(&wl, 4, err, sizeof(err)));
	workload_release(&wl);
	return true;
}

static bool test_cpu_beyond_topology(void)
{
	ASSERT_TRUE(parse_text("cpu.json",
			       "{\"tasks\": {\"t\": {\"cpus\": [0, 7], \"run\": 10}}}"));
	ASSERT_TRUE(workload_check(&wl, 4, err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "task 't': CPU 7 is beyond the topology's 4 CPUs"));
	workload_release(&wl);
	return true;
}

/* json-c's grammar, as rt-app reads it: comments and trailing commas */
static bool test_comments_and_trailing_commas(void)
{
	ASSERT_TRUE(parse_text("relaxed.json",
		"{\n"
		"\t/* a comment, \"with a string\" and a , in it */\n"
		"\t\"tasks\": {\n"
		"\t\t\"t\": { \"run\": 10, // to the end of the line\n"
		"\t\t\t\"cpus\": [0, 1,], \"sleep\": 90, },\n"
		"\t\t\"u/*not a comment*/\": { \"run\": 5 },\n"
		"\t},\n"
		"}\n"));
	ASSERT_EQ(wl.nr_tasks, 2);
	ASSERT_EQ(wl.tasks[0].nr_cpus, 2);
	ASSERT_EQ(wl.tasks[0].phases[0].nr_events, 2);
	ASSERT_STREQ(wl.tasks[1].name, "u/*not a comment*/");
	workload_release(&wl);
	return true;
}

/* a key rt-app never reads is skipped with a warning naming it */
static bool test_keys_rtapp_ignores(void)
{
	ASSERT_TRUE(parse_text("frag.json",
		"{\"global\": {\"frag\": 1, \"duration\": 2},"
		" \"tasks\": {\"t\": {\"speed\": 3,"
		" \"phases\": {\"p\": {\"run\": 10, \"instance\": 2}}}},"
		" \"comment\": \"x\"}"));
	ASSERT_EQ(wl.duration_ns, 2000000000ULL);
	ASSERT_TRUE(strstr(wl.notes, "'global.frag': ignored, as rt-app ignores it"));
	ASSERT_TRUE(strstr(wl.notes, "task 't': 'speed': ignored, as rt-app ignores it"));
	ASSERT_TRUE(strstr(wl.notes, "task 't': phase 'p': 'instance': ignored"));
	ASSERT_TRUE(strstr(wl.notes, "'comment': ignored"));
	workload_release(&wl);
	return true;
}

static bool test_sleep_zero(void)
{
	ASSERT_TRUE(parse_text("sleep0.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": 0}}}"));
	ASSERT_EQ(wl.tasks[0].phases[0].events[1].type, WL_EV_SLEEP);
	ASSERT_EQ(wl.tasks[0].phases[0].events[1].len.a, 0);
	workload_release(&wl);
	/* alone, it would loop without time passing */
	ASSERT_TRUE(refuse_text("sleep0-only.json",
		"{\"tasks\": {\"t\": {\"sleep\": 0}}}"));
	ASSERT_TRUE(strstr(err, "every event of the phase is a sleep of 0"));
	return true;
}

/* pi_enabled: true makes the mutexes PI mutexes */
static bool test_pi_enabled(void)
{
	ASSERT_TRUE(parse_text("pi.json",
		"{\"global\": {\"pi_enabled\": true}, \"tasks\": {\"t\":"
		" {\"lock\": \"m\", \"run\": 10, \"unlock\": \"m\"}}}"));
	ASSERT_TRUE(wl.pi_enabled);
	workload_release(&wl);
	ASSERT_TRUE(parse_text("nopi.json",
		"{\"global\": {\"pi_enabled\": false}, \"tasks\": {\"t\": {\"run\": 10}}}"));
	ASSERT_FALSE(wl.pi_enabled);
	workload_release(&wl);
	ASSERT_TRUE(refuse_text("pi-type.json",
		"{\"global\": {\"pi_enabled\": 1}, \"tasks\": {\"t\": {\"run\": 10}}}"));
	ASSERT_TRUE(strstr(err, "'pi_enabled': expected true or false, got a number"));
	return true;
}

/* rt-app keeps whole names; only the kernel's comm is cut to 15 */
static bool test_names_sharing_15_characters(void)
{
	ASSERT_TRUE(parse_text("names.json",
		"{\"tasks\": {\"render_thread_main\": {\"run\": 10},"
		" \"render_thread_mainloop\": {\"instance\": 2, \"run\": 10},"
		" \"x\": {\"fork\": \"render_thread_main\", \"run\": 1}}}"));
	ASSERT_EQ(wl.nr_tasks, 4);
	ASSERT_STREQ(wl.tasks[0].name, "render_thread_main");
	ASSERT_STREQ(wl.tasks[1].name, "render_thread_mainloop-0");
	ASSERT_STREQ(wl.tasks[2].name, "render_thread_mainloop-1");
	ASSERT_EQ(wl.tasks[3].phases[0].events[0].res, 0);
	workload_release(&wl);
	ASSERT_TRUE(refuse_text("twice.json",
		"{\"tasks\": {\"t\": {\"run\": 10}, \"t\": {\"run\": 5}}}"));
	ASSERT_TRUE(strstr(err, "line 1, column 30: task 't': a second task of this name (the first is at line 1, column 12)"));
	return true;
}

/* messages point at the offending token and never echo raw bytes */
static bool test_syntax_positions(void)
{
	ASSERT_TRUE(refuse_text("comma.json", "{\"tasks\": {\"t\": {\"run\": 10 \"sleep\": 5}}}"));
	ASSERT_TRUE(strstr(err, "line 1, column 28: malformed JSON near '\"sleep\": 5}}'"));
	ASSERT_TRUE(refuse_text("comment.json", "{\"tasks\":\n /* {\"t\": {\"run\": 10}}}"));
	ASSERT_TRUE(strstr(err, "line 2, column 2: a comment is not closed"));
	ASSERT_TRUE(refuse_text("bytes.json", "{\"tasks\": \x01\xff}"));
	ASSERT_TRUE(strstr(err, "line 1, column 11: a control character (\\x01) outside a string"));
	ASSERT_TRUE(refuse_text("high.json", "{\"tasks\": \xff\xfe}"));
	ASSERT_TRUE(strstr(err, "malformed JSON near '\\xff\\xfe}'"));
	ASSERT_TRUE(refuse_text("string.json", "{\"tasks\": \"open"));
	ASSERT_TRUE(strstr(err, "line 1, column 11: a string is not closed"));
	return true;
}

static bool test_nesting_depth(void)
{
	char text[256];
	int i, n = 0;

	n += snprintf(text + n, sizeof(text) - n, "{\"tasks\": {\"t\": {\"run\": 10}}, \"x\": ");
	for (i = 0; i < 40; i++)
		text[n++] = '[';
	for (i = 0; i < 40; i++)
		text[n++] = ']';
	snprintf(text + n, sizeof(text) - n, "}");
	ASSERT_TRUE(refuse_text("deep.json", text));
	ASSERT_TRUE(strstr(err, "line 1, column 67: nested deeper than 32 levels"));
	return true;
}

static bool test_integer_out_of_range(void)
{
	/* found by the fuzzer: a huge number was cast before it was checked */
	ASSERT_TRUE(refuse_text("huge.json",
		"{\"tasks\": {\"t\": {\"loop\": 2e104, \"run\": 1000}}}"));
	ASSERT_TRUE(strstr(err, "task 't': 'loop': 2e+104 is out of range"));
	ASSERT_TRUE(refuse_text("fraction.json",
		"{\"tasks\": {\"t\": {\"run\": 10.5}}}"));
	ASSERT_TRUE(strstr(err, "'run': expected an integer, got 10.5"));
	return true;
}

/* rt-app's taskgroup paths: every directory made, parents first, once. */
static bool test_taskgroups(void)
{
	ASSERT_TRUE(parse_text("tg.json",
		"{\"tasks\": {"
		" \"a\": {\"taskgroup\": \"/tg1/tg11/\", \"run\": 10},"
		" \"b\": {\"taskgroup\": \"\", \"phases\": {"
		"  \"p0\": {\"taskgroup\": \"//tg1\", \"run\": 10},"
		"  \"p1\": {\"run\": 10},"
		"  \"p2\": {\"taskgroup\": \"/\", \"run\": 10}}}}}"));
	ASSERT_EQ(wl.nr_groups, 3);
	ASSERT_STREQ(wl.groups[0].path, "/");
	ASSERT_STREQ(wl.groups[1].path, "/tg1");
	ASSERT_STREQ(wl.groups[2].path, "/tg1/tg11");
	ASSERT_EQ(wl.groups[2].parent, 1);
	ASSERT_EQ(wl.tasks[0].group, 3);
	ASSERT_EQ(wl.tasks[1].group, 0);
	ASSERT_EQ(wl.tasks[1].phases[0].group, 2);
	ASSERT_EQ(wl.tasks[1].phases[1].group, 0);
	ASSERT_EQ(wl.tasks[1].phases[2].group, 1);
	ASSERT_FALSE(wl.cpusets);
	workload_release(&wl);
	return true;
}

/* Our extension: control files at boot, events in time order. */
static bool test_group_settings_and_events(void)
{
	ASSERT_TRUE(parse_text("ext.json",
		"{\"lsb-taskgroups\": {\"/bg\": {\"cpu.max\": \"50000 100000\","
		"  \"cpu.weight\": 50}, \"/rt\": {\"cpuset.cpus\": \"2-3\"}},"
		" \"lsb-events\": ["
		"  {\"time\": 2000, \"cpu\": 3, \"online\": true},"
		"  {\"time\": 1000, \"cpu\": 3, \"online\": false},"
		"  {\"time\": 1000, \"taskgroup\": \"/bg\", \"cpu.max\": \"max\"}],"
		" \"tasks\": {\"t\": {\"taskgroup\": \"/bg\", \"run\": 10}}}"));
	ASSERT_EQ(wl.nr_groups, 3);
	ASSERT_EQ(wl.groups[1].nr_settings, 2);
	ASSERT_STREQ(wl.groups[1].settings[0].file, "cpu.max");
	ASSERT_STREQ(wl.groups[1].settings[0].value, "50000 100000");
	ASSERT_STREQ(wl.groups[1].settings[1].value, "50");
	ASSERT_TRUE(wl.cpusets);
	ASSERT_EQ(wl.nr_sysevents, 3);
	ASSERT_EQ(wl.sysevents[0].type, WL_SYS_CPU_DOWN);
	ASSERT_EQ(wl.sysevents[0].time_ns, 1000000);
	ASSERT_EQ(wl.sysevents[1].type, WL_SYS_WRITE);
	ASSERT_EQ(wl.sysevents[1].group, 1);
	ASSERT_STREQ(wl.sysevents[1].set.value, "max");
	ASSERT_EQ(wl.sysevents[2].type, WL_SYS_CPU_UP);
	ASSERT_EQ(wl.sysevents[2].cpu, 3);
	ASSERT_FALSE(workload_check(&wl, 4, err, sizeof(err)));
	ASSERT_TRUE(workload_check(&wl, 3, err, sizeof(err)));
	ASSERT_TRUE(strstr(err, "CPU 3 is beyond the topology's 3 CPUs") != NULL);
	workload_release(&wl);
	return true;
}

static bool test_missing_file(void)
{
	ASSERT_TRUE(workload_parse(&wl, "t/workloads/absent.json", err,
				   sizeof(err)));
	ASSERT_TRUE(strstr(err, "'t/workloads/absent.json': cannot read it"));
	return true;
}

/* every class of bad input the table holds: file, what, where */
static const struct {
	const char *name, *text, *expect;
} refusals[] = {
	{ "malformed.json", "{\n  \"tasks\": {\n    \"t\": { \"run\": 10,, }\n  }\n}\n",
	  "line 3, column 22: a ',' where a value or key was expected" },
	{ "trailing.json", "{\"tasks\": {\"t\": {\"run\": 10}}} x", "malformed JSON" },
	{ "mem.json", "{\"tasks\": {\"t\": {\"run\": 10, \"mem\": 4096}}}",
	  "'mem': unsupported event" },
	{ "iorun.json", "{\"tasks\": {\"t\": {\"iorun\": 4096}}}",
	  "'iorun': unsupported event" },
	{ "type-run.json", "{\"tasks\": {\"t\": {\"run\": \"10ms\"}}}",
	  "'run': expected a duration in microseconds (an integer), got a string" },
	{ "type-lock.json", "{\"tasks\": {\"t\": {\"lock\": 3, \"unlock\": \"m\"}}}",
	  "'lock': expected a string, got a number" },
	{ "type-cpus.json", "{\"tasks\": {\"t\": {\"cpus\": 3, \"run\": 10}}}",
	  "'cpus': expected an array of CPU numbers" },
	{ "type-timer.json", "{\"tasks\": {\"t\": {\"timer\": 10000}}}",
	  "'timer': expected an object" },
	{ "zero.json", "{\"tasks\": {\"t\": {\"run\": 0}}}",
	  "'run': expected a positive duration in microseconds, got 0" },
	{ "negative.json", "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": -5}}}",
	  "'sleep': expected a non-negative duration in microseconds, got -5" },
	{ "negative-period.json",
	  "{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"x\", \"period\": -1}}}}",
	  "'timer': expected a positive duration" },
	{ "negative-delay.json", "{\"tasks\": {\"t\": {\"delay\": -1, \"run\": 10}}}",
	  "'delay': expected a duration in microseconds >= 0" },
	{ "loop0.json", "{\"tasks\": {\"t\": {\"loop\": 0, \"run\": 10}}}",
	  "'loop': expected -1 (forever) or a positive count" },
	{ "big-cpu.json", "{\"tasks\": {\"t\": {\"cpus\": [600], \"run\": 10}}}",
	  "CPU 600 is not 0..511" },
	{ "undefined-lock.json", "{\"tasks\": {\"t\": {\"run\": 10, \"unlock\": \"m\"}}}",
	  "mutex 'm' is never locked" },
	{ "undefined-mutex.json",
	  "{\"tasks\": {\"t\": {\"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}}, \"u\": {\"signal\": \"c\"}}}",
	  "mutex 'm' is never locked" },
	{ "undefined-cond.json", "{\"tasks\": {\"t\": {\"run\": 10, \"signal\": \"c\"}}}",
	  "no task waits on condition 'c'" },
	{ "unsignalled.json",
	  "{\"tasks\": {\"t\": {\"lock\": \"m\", \"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}, \"unlock\": \"m\"}}}",
	  "nothing signals condition 'c'" },
	{ "undefined-barrier.json", "{\"tasks\": {\"t\": {\"run\": 10, \"barrier\": \"b\"}}}",
	  "barrier 'b' has 1 user" },
	{ "undefined-resume.json", "{\"tasks\": {\"t\": {\"run\": 10, \"resume\": \"x\"}}}",
	  "no task suspends on 'x'" },
	{ "undefined-suspend.json", "{\"tasks\": {\"t\": {\"run\": 10, \"suspend\": \"\"}}}",
	  "nothing resumes 't'" },
	{ "undefined-fork.json", "{\"tasks\": {\"t\": {\"run\": 10, \"fork\": \"kid\"}}}",
	  "no task 'kid' in tasks to fork" },
	{ "timer-ref.json", "{\"tasks\": {\"t\": {\"timer\": {\"period\": 1000}}}}",
	  "expected \"ref\"" },
	{ "timer-modes.json",
	  "{\"tasks\": {\"t\": {\"timer\": {\"ref\": \"x\", \"period\": 10, \"mode\": \"absolute\"}},"
	  " \"u\": {\"timer\": {\"ref\": \"x\", \"period\": 10}}}}",
	  "timer 'x' is used both in relative and absolute mode" },
	{ "taskgroup.json", "{\"tasks\": {\"t\": {\"taskgroup\": \"tg\", \"run\": 10}}}",
	  "taskgroup 'tg': expected an absolute path" },
	{ "taskgroup-dots.json", "{\"tasks\": {\"t\": {\"taskgroup\": \"/a/../b\", \"run\": 10}}}",
	  "'.' and '..' name no new group" },
	{ "group-file.json",
	  "{\"lsb-taskgroups\": {\"/a\": {\"cpu.wieght\": 100}}, \"tasks\": {\"t\": {\"run\": 10}}}",
	  "lsb-taskgroups: '/a': unknown control file 'cpu.wieght'" },
	{ "group-value.json",
	  "{\"lsb-taskgroups\": {\"/a\": {\"cpu.max\": [1]}}, \"tasks\": {\"t\": {\"run\": 10}}}",
	  "'cpu.max': expected what is written to the file (a string or an integer), got an array" },
	{ "group-cpuset.json",
	  "{\"lsb-taskgroups\": {\"/a\": {\"cpuset.cpus\": \"3-1\"}}, \"tasks\": {\"t\": {\"run\": 10}}}",
	  "'cpuset.cpus': expected a list of CPUs such as 0-3,6, got '3-1'" },
	{ "group-partition.json",
	  "{\"lsb-taskgroups\": {\"/a\": {\"cpuset.cpus.partition\": \"exclusive\"}}, \"tasks\": {\"t\": {\"run\": 10}}}",
	  "expected member, root or isolated, got 'exclusive'" },
	{ "event-time.json",
	  "{\"lsb-events\": [{\"cpu\": 1, \"online\": false}], \"tasks\": {\"t\": {\"run\": 10}}}",
	  "lsb-events: event 1: expected \"time\"" },
	{ "event-both.json",
	  "{\"lsb-events\": [{\"time\": 5, \"cpu\": 1, \"online\": false, \"taskgroup\": \"/a\"}], \"tasks\": {\"t\": {\"run\": 10}}}",
	  "not both" },
	{ "event-online.json",
	  "{\"lsb-events\": [{\"time\": 5, \"cpu\": 1, \"online\": 0}], \"tasks\": {\"t\": {\"run\": 10}}}",
	  "'online': expected true or false, got a number" },
	{ "event-nothing.json",
	  "{\"lsb-events\": [{\"time\": 5, \"taskgroup\": \"/a\"}], \"tasks\": {\"t\": {\"run\": 10}}}",
	  "no control file to write" },
	{ "policy.json", "{\"tasks\": {\"t\": {\"policy\": \"SCHED_FAST\", \"run\": 10}}}",
	  "unknown policy 'SCHED_FAST'" },
	{ "prio.json", "{\"tasks\": {\"t\": {\"policy\": \"SCHED_FIFO\", \"priority\": 100, \"run\": 10}}}",
	  "'priority': expected 1..99, got 100" },
	{ "dl.json", "{\"tasks\": {\"t\": {\"policy\": \"SCHED_DEADLINE\", \"run\": 10}}}",
	  "SCHED_DEADLINE needs dl-runtime" },
	{ "dist.json",
	  "{\"tasks\": {\"t\": {\"lsb-run\": {\"distribution\": \"pareto\", \"mean\": 10}}}}",
	  "unknown distribution 'pareto'" },
	{ "no-event.json", "{\"tasks\": {\"t\": {\"loop\": 3}}}", "no event" },
	{ "no-tasks.json", "{\"global\": {\"duration\": 1}}",
	  "expected an object of one or more tasks" },
	{ "event-beside-phases.json",
	  "{\"tasks\": {\"t\": {\"run\": 10, \"phases\": {\"p\": {\"run\": 10}}}}}",
	  "an event next to \"phases\"" },
};

static void refused(const char *name, const char *text, const char *expect)
{
	const char *path = file(name, text);
	int ret = workload_parse(&wl, path, err, sizeof(err));

	if (!ret)
		workload_release(&wl);
	tap_ok(ret && strstr(err, expect) && strstr(err, path),
	       "%s is refused: %s", name, err);
}

int main(void)
{
	char cmd[300];
	size_t i;

	if (!mkdtemp(dir))
		tap_skip_all("cannot make a temporary directory");
	TEST(test_compact_spec);
	TEST(test_example_files);
	TEST(test_periodic);
	TEST(test_barrier_counts_instances);
	TEST(test_fork_names_a_definition);
	TEST(test_policies);
	TEST(test_distributions_and_phases);
	TEST(test_cpu_beyond_topology);
	TEST(test_comments_and_trailing_commas);
	TEST(test_keys_rtapp_ignores);
	TEST(test_sleep_zero);
	TEST(test_pi_enabled);
	TEST(test_names_sharing_15_characters);
	TEST(test_syntax_positions);
	TEST(test_nesting_depth);
	TEST(test_integer_out_of_range);
	TEST(test_taskgroups);
	TEST(test_group_settings_and_events);
	TEST(test_missing_file);
	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		refused(refusals[i].name, refusals[i].text, refusals[i].expect);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("cannot remove %s", dir);
	return tap_done_testing();
}
