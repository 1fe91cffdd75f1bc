// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rt-app JSON reader: the hand-written files of t/workloads give the
 * model they say, and every class of bad input is refused with a message
 * naming the file and where in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t/tap.h"
#include "workloads/workloads.h"

static char dir[] = "/tmp/lsb-wl-XXXXXX";

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

static int refused(const char *name, const char *text, const char *expect)
{
	struct workload wl;
	char err[1024] = "";
	const char *path = file(name, text);
	int ret = workload_parse(&wl, path, err, sizeof(err));

	if (!ret)
		workload_release(&wl);
	return tap_ok(ret && strstr(err, expect) && strstr(err, path),
		      "%s is refused: %s", name, err);
}

static const struct workload_resource *res_named(const struct workload *wl,
						 const char *name)
{
	int i;

	for (i = 0; i < wl->nr_res; i++)
		if (!strcmp(wl->res[i].name, name))
			return &wl->res[i];
	return NULL;
}

static int parse(struct workload *wl, const char *path)
{
	char err[1024] = "";
	int ret = workload_parse(wl, path, err, sizeof(err));

	if (ret)
		tap_diag("%s: %s", path, err);
	return ret;
}

int main(void)
{
	static const char *const files[] = {
		"periodic", "run-runtime", "fifo", "mutex", "condvar", "sync",
		"barrier", "suspend", "fork-yield", "policies", "phases-random",
	};
	const struct workload_resource *r;
	const struct workload_event *e;
	struct workload wl;
	char err[1024], path[256];
	size_t i;
	int ok;

	if (!mkdtemp(dir))
		tap_skip_all("cannot make a temporary directory");
	tap_plan(60);

	/* the compact spec still parses, now as one generated phase */
	ok = !workload_parse(&wl, "hog*2+periodic:run=1ms:sleep=9ms", err,
			     sizeof(err));
	tap_ok(ok && wl.nr_tasks == 3 && wl.nr_defs == 2 &&
	       wl.tasks[2].nr_phases == 1 &&
	       wl.tasks[2].phases[0].nr_events == 2 &&
	       wl.tasks[2].phases[0].events[1].type == WL_EV_SLEEP &&
	       wl.tasks[2].phases[0].events[1].len.a == 9000000 &&
	       wl.tasks[0].loop == -1,
	       "a compact spec becomes tasks of one phase of events");
	if (ok)
		workload_release(&wl);

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "t/workloads/%s.json", files[i]);
		ok = !parse(&wl, path);
		tap_ok(ok && wl.nr_tasks > 0 && !strcmp(wl.spec, path),
		       "%s parses (%d tasks)", path, ok ? wl.nr_tasks : 0);
		if (ok)
			workload_release(&wl);
	}

	ok = !parse(&wl, "t/workloads/periodic.json");
	e = ok ? &wl.tasks[0].phases[0].events[1] : NULL;
	r = ok ? res_named(&wl, "tick") : NULL;
	tap_ok(ok && wl.duration_ns == 2000000000ULL && e &&
	       e->type == WL_EV_TIMER && e->len.a == 10000000 && r &&
	       r->absolute && !r->unique &&
	       wl.tasks[0].phases[0].events[0].len.a == 2500000 &&
	       strstr(wl.notes, "calibration: not applicable"),
	       "periodic.json: 2 s, run 2.5 ms, absolute timer of 10 ms, calibration noted");
	r = ok ? res_named(&wl, "unique@rel") : NULL;
	tap_ok(r && r->unique && !r->absolute && wl.nr_tasks == 4 &&
	       !strcmp(wl.tasks[3].name, "shared-1"),
	       "a 'unique' timer is per instance, instances are numbered");
	if (ok)
		workload_release(&wl);

	ok = !parse(&wl, "t/workloads/barrier.json");
	r = ok ? res_named(&wl, "meet") : NULL;
	tap_ok(r && r->type == WL_RES_BARRIER && r->users == 4,
	       "a barrier counts the instances that use it (%d)", r ? r->users : 0);
	if (ok)
		workload_release(&wl);

	ok = !parse(&wl, "t/workloads/fork-yield.json");
	tap_ok(ok && wl.nr_defs == 3 && wl.nr_tasks == 3 &&
	       wl.tasks[0].phases[0].events[0].type == WL_EV_FORK &&
	       wl.tasks[0].phases[0].events[0].res == 1 &&
	       wl.defs[1].instances == 0 && wl.tasks[0].loop == 3,
	       "fork names a definition; instance 0 starts none at boot");
	if (ok)
		workload_release(&wl);

	ok = !parse(&wl, "t/workloads/policies.json");
	tap_ok(ok && wl.tasks[0].policy == 6 &&
	       wl.tasks[0].dl_runtime_ns == 2000000 &&
	       wl.tasks[0].dl_period_ns == 10000000 &&
	       wl.tasks[0].dl_deadline_ns == 10000000 &&
	       wl.tasks[1].policy == 2 && wl.tasks[1].prio == 20 &&
	       wl.tasks[3].policy == 5 && wl.tasks[4].policy == 3 &&
	       wl.tasks[5].nice == 5 && wl.tasks[5].policy == 0,
	       "policies: DEADLINE defaults its deadline to the period, a fair priority is nice");
	if (ok)
		workload_release(&wl);

	ok = !parse(&wl, "t/workloads/phases-random.json");
	tap_ok(ok && wl.randomised &&
	       wl.tasks[0].phases[0].events[0].len.kind == WL_DIST_EXPONENTIAL &&
	       wl.tasks[4].phases[0].events[0].len.kind == WL_DIST_LOGNORMAL &&
	       wl.tasks[4].phases[0].events[0].len.b == 1000000 &&
	       wl.tasks[4].phases[0].events[1].len.kind == WL_DIST_UNIFORM &&
	       wl.tasks[8].phases[0].events[0].len.kind == WL_DIST_NORMAL &&
	       wl.tasks[12].nr_phases == 2 && wl.tasks[12].phases[1].cpus[0] == 2 &&
	       wl.tasks[12].phases[1].set_nice && wl.tasks[12].delay_ns == 50000000,
	       "lsb-run/lsb-sleep draw from distributions; phases carry cpus and priority");
	tap_ok(ok && workload_check(&wl, 2, err, sizeof(err)) &&
	       strstr(err, "task 'mover': phase 'right': CPU 2 is beyond the topology's 2 CPUs"),
	       "a phase's CPU beyond the topology: %s", err);
	tap_ok(ok && !workload_check(&wl, 4, err, sizeof(err)),
	       "and the same workload fits 4 CPUs");
	if (ok)
		workload_release(&wl);

	ok = !workload_parse(&wl, file("cpu.json",
		"{\"tasks\": {\"t\": {\"cpus\": [0, 7], \"run\": 10}}}"),
		err, sizeof(err));
	tap_ok(ok && workload_check(&wl, 4, err, sizeof(err)) &&
	       strstr(err, "task 't': CPU 7 is beyond the topology's 4 CPUs"),
	       "a task's CPU beyond the topology: %s", err);
	if (ok)
		workload_release(&wl);

	/* every class of bad input */
	/* found by the fuzzer: a huge number was cast before it was checked */
	refused("huge.json",
		"{\"tasks\": {\"t\": {\"loop\": 2e104, \"run\": 1000}}}",
		"expected an integer");
	refused("malformed.json", "{\n  \"tasks\": {\n    \"t\": { \"run\": 10,, }\n  }\n}\n",
		"line 3, column");
	refused("trailing.json", "{\"tasks\": {\"t\": {\"run\": 10}}} x", "malformed JSON");
	refused("unknown-key.json", "{\"tasks\": {\"t\": {\"run\": 10, \"speed\": 3}}}",
		"task 't': 'speed': unknown key");
	refused("unknown-phase-key.json",
		"{\"tasks\": {\"t\": {\"phases\": {\"p\": {\"run\": 10, \"instance\": 2}}}}}",
		"task 't': phase 'p': 'instance': unknown key");
	refused("unknown-global.json", "{\"global\": {\"durations\": 3}, \"tasks\": {\"t\": {\"run\": 10}}}",
		"'durations': unknown key in global");
	refused("unknown-top.json", "{\"task\": {\"t\": {\"run\": 10}}}",
		"'task': unknown key at the top level");
	refused("mem.json", "{\"tasks\": {\"t\": {\"run\": 10, \"mem\": 4096}}}",
		"'mem': unsupported event");
	refused("iorun.json", "{\"tasks\": {\"t\": {\"iorun\": 4096}}}",
		"'iorun': unsupported event");
	refused("type-run.json", "{\"tasks\": {\"t\": {\"run\": \"10ms\"}}}",
		"'run': expected a duration in microseconds (an integer), got a string");
	refused("type-lock.json", "{\"tasks\": {\"t\": {\"lock\": 3, \"unlock\": \"m\"}}}",
		"'lock': expected a string, got a number");
	refused("type-cpus.json", "{\"tasks\": {\"t\": {\"cpus\": 3, \"run\": 10}}}",
		"'cpus': expected an array of CPU numbers");
	refused("type-timer.json", "{\"tasks\": {\"t\": {\"timer\": 10000}}}",
		"'timer': expected an object");
	refused("zero.json", "{\"tasks\": {\"t\": {\"run\": 0}}}",
		"'run': expected a positive duration in microseconds, got 0");
	refused("negative.json", "{\"tasks\": {\"t\": {\"run\": 10, \"sleep\": -5}}}",
		"'sleep': expected a positive duration in microseconds, got -5");
	refused("negative-period.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"x\", \"period\": -1}}}}",
		"'timer': expected a positive duration");
	refused("negative-delay.json", "{\"tasks\": {\"t\": {\"delay\": -1, \"run\": 10}}}",
		"'delay': expected a duration in microseconds >= 0");
	refused("loop0.json", "{\"tasks\": {\"t\": {\"loop\": 0, \"run\": 10}}}",
		"'loop': expected -1 (forever) or a positive count");
	refused("big-cpu.json", "{\"tasks\": {\"t\": {\"cpus\": [600], \"run\": 10}}}",
		"CPU 600 is not 0..511");
	refused("undefined-lock.json", "{\"tasks\": {\"t\": {\"run\": 10, \"unlock\": \"m\"}}}",
		"mutex 'm' is never locked");
	refused("undefined-mutex.json",
		"{\"tasks\": {\"t\": {\"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}}, \"u\": {\"signal\": \"c\"}}}",
		"mutex 'm' is never locked");
	refused("undefined-cond.json", "{\"tasks\": {\"t\": {\"run\": 10, \"signal\": \"c\"}}}",
		"no task waits on condition 'c'");
	refused("unsignalled.json",
		"{\"tasks\": {\"t\": {\"lock\": \"m\", \"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}, \"unlock\": \"m\"}}}",
		"nothing signals condition 'c'");
	refused("undefined-barrier.json", "{\"tasks\": {\"t\": {\"run\": 10, \"barrier\": \"b\"}}}",
		"barrier 'b' has 1 user");
	refused("undefined-resume.json", "{\"tasks\": {\"t\": {\"run\": 10, \"resume\": \"x\"}}}",
		"no task suspends on 'x'");
	refused("undefined-suspend.json", "{\"tasks\": {\"t\": {\"run\": 10, \"suspend\": \"\"}}}",
		"nothing resumes 't'");
	refused("undefined-fork.json", "{\"tasks\": {\"t\": {\"run\": 10, \"fork\": \"kid\"}}}",
		"no task 'kid' in tasks to fork");
	refused("timer-ref.json", "{\"tasks\": {\"t\": {\"timer\": {\"period\": 1000}}}}",
		"expected \"ref\"");
	refused("timer-modes.json",
		"{\"tasks\": {\"t\": {\"timer\": {\"ref\": \"x\", \"period\": 10, \"mode\": \"absolute\"}},"
		" \"u\": {\"timer\": {\"ref\": \"x\", \"period\": 10}}}}",
		"timer 'x' is used both in relative and absolute mode");
	refused("taskgroup.json", "{\"tasks\": {\"t\": {\"taskgroup\": \"/tg\", \"run\": 10}}}",
		"taskgroup needs a kernel built with group scheduling; not supported yet");
	refused("policy.json", "{\"tasks\": {\"t\": {\"policy\": \"SCHED_FAST\", \"run\": 10}}}",
		"unknown policy 'SCHED_FAST'");
	refused("prio.json", "{\"tasks\": {\"t\": {\"policy\": \"SCHED_FIFO\", \"priority\": 100, \"run\": 10}}}",
		"'priority': expected 1..99, got 100");
	refused("dl.json", "{\"tasks\": {\"t\": {\"policy\": \"SCHED_DEADLINE\", \"run\": 10}}}",
		"SCHED_DEADLINE needs dl-runtime");
	refused("pi.json", "{\"global\": {\"pi_enabled\": true}, \"tasks\": {\"t\": {\"run\": 10}}}",
		"priority inheritance is not simulated");
	refused("dist.json",
		"{\"tasks\": {\"t\": {\"lsb-run\": {\"distribution\": \"pareto\", \"mean\": 10}}}}",
		"unknown distribution 'pareto'");
	refused("no-event.json", "{\"tasks\": {\"t\": {\"loop\": 3}}}", "no event");
	refused("no-tasks.json", "{\"global\": {\"duration\": 1}}",
		"expected an object of one or more tasks");
	refused("event-beside-phases.json",
		"{\"tasks\": {\"t\": {\"run\": 10, \"phases\": {\"p\": {\"run\": 10}}}}}",
		"an event next to \"phases\"");
	ok = workload_parse(&wl, "t/workloads/absent.json", err, sizeof(err));
	tap_ok(ok && strstr(err, "'t/workloads/absent.json': cannot read it"),
	       "a missing file is named: %s", err);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		tap_diag("cannot remove %s", dir);
	return tap_done();
}
