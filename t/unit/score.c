// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading traces: sim/score.c's lines (tracefs's with flags and 6
 * decimals, trace-cmd report's without flags and 9, comms with spaces,
 * large pids) on hand-made traces whose CPU times are known, its errors,
 * and common/trace.c's lsb_trace_line() on 6 and 9 decimals.
 */
#include "common/common.h"
#include "sim/sim.h"
#include "t/tap.h"

static struct topology dual;

static int score(const char *text, const struct workload *wl,
		 struct sim_score *s, char *err, size_t len)
{
	struct sim_score_opts o = { .topo = &dual, .wl = wl };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f)
		return -1;
	ret = sim_score_trace(f, "t", &o, s, err, len);
	fclose(f);
	return ret;
}

/* tracefs: flags, 6 decimals, a comm with a space; kthreads not scored */
static bool test_tracefs(void)
{
	static const char t[] =
"# tracer: nop\n"
"#\n"
"          <idle>-0       [000] d..2. 100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=Web Content next_pid=500 next_prio=120\n"
"     kworker/1:1-20      [001] d..2. 100.100000: sched_switch: prev_comm=kworker/1:1 prev_pid=20 prev_prio=120 prev_state=I ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"     Web Content-500     [000] d..2. 100.250000: sched_switch: prev_comm=Web Content prev_pid=500 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"          <idle>-0       [000] d..2. 100.500000: sched_waking: comm=Web Content pid=500 prio=120 target_cpu=000\n";
	struct sim_score s;
	char err[256];

	ASSERT_EQ(score(t, NULL, &s, err, sizeof(err)), 0);
	ASSERT_EQ(s.ours, 0);
	ASSERT_EQ(s.start_ns, 100000000000ULL);
	ASSERT_EQ(s.duration_ns, 500000000);
	ASSERT_EQ(s.nr_tasks, 1);
	ASSERT_STREQ(s.tasks[0].name, "Web Content");
	ASSERT_EQ(s.tasks[0].pid, 500);
	ASSERT_EQ(s.tasks[0].cpu_ns, 250000000);
	sim_score_release(&s);
	return true;
}

/* trace-cmd report -t: no flags, 9 decimals; nice 19 from prio 139 */
static bool test_trace_cmd(void)
{
	static const char t[] =
"cpus=2\n"
"          <idle>-0     [001]     4.000000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=hog next_pid=7 next_prio=139\n"
"             hog-7     [001]     5.000000001: sched_switch: prev_comm=hog prev_pid=7 prev_prio=139 prev_state=R+ ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";
	struct sim_score s;
	char err[256];

	ASSERT_EQ(score(t, NULL, &s, err, sizeof(err)), 0);
	ASSERT_EQ(s.duration_ns, 1000000001);
	ASSERT_EQ(s.nr_tasks, 1);
	ASSERT_EQ(s.tasks[0].cpu_ns, 1000000001);
	/* scored alone: one fair task, runnable and waiting nowhere */
	ASSERT_EQ(s.metrics.nr_fair, 1);
	ASSERT_EQ(s.metrics.runqueue_wait_ns, 0);
	sim_score_release(&s);
	return true;
}

/*
 * trace-cmd report without -N: its sched plugin's "COMM:PID [PRIO] STATE
 * ==> COMM:PID [PRIO]" and "COMM:PID [PRIO] CPU:NNN" (a comm with a space
 * and the padding after the event's name too)
 */
static bool test_trace_cmd_plugin(void)
{
	static const char t[] =
"          <idle>-0     [001]     4.000000000: sched_switch:         swapper/1:0 [120] R ==> hog:7 [139]\n"
"             hog-7     [001]     5.000000000: sched_wakeup:         my task:8 [120] CPU:000\n"
"             hog-7     [001]     5.500000000: sched_switch:         hog:7 [139] S ==> swapper/1:0 [120]\n"
"          <idle>-0     [000]     5.700000000: sched_switch:         swapper/0:0 [120] R ==> my task:8 [120]\n"
"         my task-8     [000]     6.000000000: sched_switch:         my task:8 [120] D|W ==> swapper/0:0 [120]\n";
	struct sim_score s;
	char err[256];

	ASSERT_EQ(score(t, NULL, &s, err, sizeof(err)), 0);
	ASSERT_EQ(s.nr_tasks, 2);
	ASSERT_STREQ(s.tasks[0].name, "hog");
	ASSERT_EQ(s.tasks[0].cpu_ns, 1500000000);
	ASSERT_STREQ(s.tasks[1].name, "my task");
	ASSERT_EQ(s.tasks[1].pid, 8);
	ASSERT_EQ(s.tasks[1].cpu_ns, 300000000);
	/* woken at 5.0 s, run at 5.7 s */
	ASSERT_EQ(s.metrics.nr_wakeups, 1);
	ASSERT_EQ(s.metrics.wakeup_max_ns, 700000000);
	sim_score_release(&s);
	return true;
}

/* pids past 65535 are numbered densely for metrics/, written as traced */
static bool test_large_pids(void)
{
	static const char t[] =
"          <idle>-0     [000]     1.000000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=4000000 next_prio=120\n"
"          <idle>-0     [001]     1.000000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=3999999 next_prio=120\n"
"               a-4000000 [000]   1.300000000: sched_switch: prev_comm=a prev_pid=4000000 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"               b-3999999 [001]   1.600000000: sched_switch: prev_comm=b prev_pid=3999999 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";
	struct sim_score s;
	char err[256];

	ASSERT_EQ(score(t, NULL, &s, err, sizeof(err)), 0);
	ASSERT_EQ(s.nr_tasks, 2);
	ASSERT_EQ(s.tasks[0].pid, 4000000);
	ASSERT_EQ(s.tasks[0].cpu_ns, 300000000);
	ASSERT_EQ(s.tasks[1].pid, 3999999);
	ASSERT_EQ(s.tasks[1].cpu_ns, 600000000);
	ASSERT_TRUE(s.tasks[0].id < 65536 && s.tasks[1].id < s.tasks[0].id);
	ASSERT_EQ(s.run.task_pid(s.run.ctx, s.tasks[0].id), 4000000);
	sim_score_release(&s);
	return true;
}

static bool test_errors(void)
{
	static const char back[] =
"          <idle>-0     [000]     2.000000000: sched_wakeup: comm=a pid=9 prio=120 target_cpu=000\n"
"          <idle>-0     [000]     1.000000000: sched_wakeup: comm=a pid=9 prio=120 target_cpu=000\n";
	static const char cpu[] =
"          <idle>-0     [000]     2.000000000: sched_wakeup: comm=a pid=9 prio=120 target_cpu=002\n";
	static const char none[] = "# tracer: nop\n";
	struct sim_score s;
	char err[256];

	ASSERT_EQ(score(back, NULL, &s, err, sizeof(err)), SIM_SCORE_BAD);
	ASSERT_STREQ(err, "trace 't': line 2: sched_wakeup: time 1.000000000 is before the line above's");
	ASSERT_EQ(score(cpu, NULL, &s, err, sizeof(err)), SIM_SCORE_BAD);
	ASSERT_STREQ(err, "trace 't': line 1: sched_wakeup: CPU 2, but topology 'dual' has 2 CPUs");
	ASSERT_EQ(score(none, NULL, &s, err, sizeof(err)), SIM_SCORE_BAD);
	ASSERT_TRUE(!strncmp(err, "trace 't': no scheduler events (1 lines)", 40));
	return true;
}

/* common/trace.c: the same microsecond from 6 or 9 decimals, not 7 */
static bool test_trace_line(void)
{
	const char *ev;
	uint64_t us;
	int cpu;

	ASSERT_EQ(lsb_trace_line("  a-1 [003] ..... 12.345678: sched_switch: x",
				 &cpu, &us, &ev), 0);
	ASSERT_EQ(us, 12345678);
	ASSERT_EQ(cpu, 3);
	ASSERT_STREQ(ev, "sched_switch: x");
	ASSERT_EQ(lsb_trace_line("  a-1 [002] ..... 12.345678999: sched_switch: x",
				 &cpu, &us, &ev), 0);
	ASSERT_EQ(us, 12345678);
	ASSERT_EQ(cpu, 2);
	ASSERT_EQ(lsb_trace_line("  a-1 [002] ..... 12.3456789: sched_switch: x",
				 &cpu, &us, &ev), -1);
	return true;
}

int main(void)
{
	char err[512];

	if (topology_from_spec(&dual, "dual", err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	tap_plan(6);
	TEST(test_tracefs);
	TEST(test_trace_cmd);
	TEST(test_trace_cmd_plugin);
	TEST(test_large_pids);
	TEST(test_errors);
	TEST(test_trace_line);
	return tap_done();
}
