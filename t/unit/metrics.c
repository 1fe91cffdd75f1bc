// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scores from synthetic event streams: a placement equal to the greedy
 * one scores 0, stacked tasks score what the definition gives (derived
 * here), idle CPUs beside waiting tasks count against work conservation,
 * migrations go to the right domain level, wakeup latency and fairness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t/tap.h"
#include "metrics/metrics.h"

#define SEC 1000000000ULL

static struct topology topo;
static struct metrics m;
static struct metrics_result r;
static char err[512];

static void machine(const char *spec)
{
	if (topology_from_spec(&topo, spec, err, sizeof(err))) {
		printf("Bail out! topology %s: %s\n", spec, err);
		exit(1);
	}
	metrics_init(&m, &topo);
}

/* a fair task forked onto cpu at time now */
static void fork_on(uint64_t now, int pid, int cpu, unsigned int weight,
		    int nr, const int *cpus)
{
	metrics_event(&m, now, METRICS_EV_WAKEUP_NEW, 0, pid, cpu, 0);
	metrics_task(&m, now, pid, METRICS_FAIR, weight, nr, cpus);
}

static void run(uint64_t now, int cpu, int next, int prev, int prev_runnable)
{
	metrics_event(&m, now, METRICS_EV_SWITCH, cpu, next, prev,
		      prev_runnable);
}

static void finish(uint64_t now)
{
	metrics_finish(&m, now, &r);
	metrics_release(&m);
}

static int near(double a, double b)
{
	double d = a > b ? a - b : b - a;

	return d <= 1e-9 * (b > 1 ? b : 1);
}

/* ---- a reference: the definition, recomputed from scratch ---- */

#define RN 40
struct rtask {
	int runnable, running, cpu, nr;
	unsigned int weight;
	uint64_t mask[METRICS_MASK_WORDS];
};
static struct rtask rt[RN];
static int rcurr[TOPOLOGY_MAX_CPUS];	/* pid running there, 0: idle */
static uint64_t rng_state = 42;
static int uniform;	/* every task nice 0 and allowed everywhere */
static int huge;	/* weights far beyond the kernel's: loads past 2^32 */

static uint64_t rnd(uint64_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rng_state >> 33) % n;
}

static int rcmp(const void *a, const void *b)
{
	const struct rtask *x = &rt[*(const int *)a], *y = &rt[*(const int *)b];
	int w;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	for (w = 0; w < METRICS_MASK_WORDS; w++)
		if (x->mask[w] != y->mask[w])
			return x->mask[w] < y->mask[w] ? -1 : 1;
	return 0;
}

static int ucmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static unsigned __int128 ref_imbalance(int C)
{
	uint64_t g[TOPOLOGY_MAX_CPUS] = { 0 }, a[TOPOLOGY_MAX_CPUS] = { 0 };
	unsigned __int128 sum = 0;
	int idx[RN] = { 0 }, n = 0, i, c;

	for (i = 0; i < RN; i++)
		if (rt[i].runnable) {
			idx[n++] = i;
			a[rt[i].cpu] += rt[i].weight;
		}
	qsort(idx, (size_t)n, sizeof(*idx), rcmp);
	for (i = 0; i < n; i++) {
		int best = -1;

		for (c = 0; c < C; c++)
			if ((rt[idx[i]].mask[c / 64] >> (c % 64) & 1) &&
			    (best < 0 || g[c] < g[best]))
				best = c;
		if (best >= 0)
			g[best] += rt[idx[i]].weight;
	}
	qsort(g, (size_t)C, sizeof(*g), ucmp);
	qsort(a, (size_t)C, sizeof(*a), ucmp);
	for (c = 0; c < C; c++) {
		uint64_t d = g[c] > a[c] ? g[c] - a[c] : a[c] - g[c];

		sum += (unsigned __int128)d * d;
	}
	return sum;
}

/* idle CPUs with a waiting task allowed there queued on another CPU */
static uint64_t ref_lost(int C)
{
	uint64_t n = 0;
	int c, i;

	for (c = 0; c < C; c++) {
		if (rcurr[c])
			continue;
		for (i = 0; i < RN; i++)
			if (rt[i].runnable && !rt[i].running &&
			    rt[i].cpu != c &&
			    (rt[i].mask[c / 64] >> (c % 64) & 1))
				break;
		n += i < RN;
	}
	return n;
}

static int rand_cpu_in(int i, int C)
{
	int c;

	do
		c = (int)rnd((uint64_t)C);
	while (!(rt[i].mask[c / 64] >> (c % 64) & 1));
	return c;
}

static void rand_mask(int i, int C, int *cpus, int *nr)
{
	int c, kind = uniform ? 0 : (int)rnd(4);

	*nr = 0;
	memset(rt[i].mask, 0, sizeof(rt[i].mask));
	for (c = 0; c < C; c++) {
		int in = kind == 0 ? 1 : kind == 1 ? c == i % C :
			 kind == 2 ? c < C / 2 : rnd(3) == 0;

		if (in || (c == C - 1 && !*nr)) {
			rt[i].mask[c / 64] |= 1ULL << (c % 64);
			cpus[(*nr)++] = c;
		}
	}
	rt[i].nr = *nr;
}

static double rel_err(double got, double want)
{
	return want ? (got - want) / want : got;
}

/* a switch on cpu to pid next (0: idle), as the metrics read it */
static void ref_switch(uint64_t now, int pid0, int cpu, int next, int prev,
		       int prev_runnable)
{
	if (prev >= pid0 && prev < pid0 + RN) {
		rt[prev - pid0].running = 0;
		rt[prev - pid0].runnable = prev_runnable;
	}
	if (next >= pid0 && next < pid0 + RN) {
		rt[next - pid0].cpu = cpu;
		rt[next - pid0].runnable = 1;
		rt[next - pid0].running = 1;
	}
	rcurr[cpu] = next;
	metrics_event(&m, now, METRICS_EV_SWITCH, cpu, next, prev,
		      prev_runnable);
}

/*
 * Random streams against the references: the balance score's and work
 * conservation's largest relative error (*wc_err).
 */
static double random_stream(const char *spec, int steps, double *wc_err)
{
	static const unsigned int weights[] = { 1024, 1024, 335, 88761, 15, 3 };
	static const unsigned int heavy[] = { 4000000000u, 2147483648u,
					      1024, 3, 3000000000u, 88761 };
	int cpus[TOPOLOGY_MAX_CPUS], nr, i, k, C, c, pid0 = 100;
	unsigned __int128 ref = 0, ref_wc = 0;
	uint64_t now = 0;
	double got;

	machine(spec);
	C = topo.nr_cpus;
	memset(rt, 0, sizeof(rt));
	memset(rcurr, 0, sizeof(rcurr));
	for (i = 0; i < RN; i++) {
		rt[i].weight = uniform ? 1024 :
			       huge ? heavy[rnd(6)] : weights[rnd(6)];
		rand_mask(i, C, cpus, &nr);
		rt[i].cpu = rand_cpu_in(i, C);
		metrics_task(&m, 0, pid0 + i, METRICS_FAIR, rt[i].weight, nr,
			     cpus);
	}
	for (k = 0; k < steps; k++) {
		uint64_t dt = rnd(4) ? 1 + rnd(1000) : 0;

		ref += ref_imbalance(C) * dt;
		ref_wc += (unsigned __int128)ref_lost(C) * dt;
		now += dt;
		i = (int)rnd(RN);
		switch (rnd(8)) {
		case 0:
		case 1:	/* wake on an allowed CPU */
			if (rt[i].runnable)
				break;
			rt[i].cpu = rand_cpu_in(i, C);
			rt[i].runnable = 1;
			metrics_event(&m, now, METRICS_EV_WAKEUP, 0, pid0 + i,
				      rt[i].cpu, 0);
			break;
		case 2:	/* block (running there or not) */
			if (!rt[i].runnable)
				break;
			ref_switch(now, pid0, rt[i].cpu, 0, pid0 + i, 0);
			break;
		case 3:	/* migrate */
			nr = rand_cpu_in(i, C);
			metrics_event(&m, now, METRICS_EV_MIGRATE, rt[i].cpu,
				      pid0 + i, nr, 0);
			rt[i].cpu = nr;
			break;
		case 4:	/* new affinity or weight */
			if (rnd(2)) {
				rand_mask(i, C, cpus, &nr);
				metrics_affinity(&m, now, pid0 + i, nr, cpus);
			} else {
				rt[i].weight = uniform ? 1024 :
			       huge ? heavy[rnd(6)] : weights[rnd(6)];
				metrics_weight(&m, now, pid0 + i, rt[i].weight);
			}
			break;
		case 5:
		case 6:	/* run it where it is queued (woken or not) */
			c = rt[i].cpu;
			if (rcurr[c] == pid0 + i)
				break;
			ref_switch(now, pid0, c, pid0 + i, rcurr[c],
				   (int)rnd(3) != 0);
			break;
		case 7:	/* a kernel thread or idle takes a CPU */
			c = (int)rnd((uint64_t)C);
			ref_switch(now, pid0, c, rnd(2) ? 5 : 0, rcurr[c],
				   (int)rnd(2));
			break;
		}
	}
	ref += ref_imbalance(C) * 1000;
	ref_wc += (unsigned __int128)ref_lost(C) * 1000;
	now += 1000;
	finish(now);
	got = r.balance_score;
	tap_diag("%s: balance score %.3f, work conservation %.6f", spec, got,
		 r.work_conservation);
	*wc_err = rel_err(r.work_conservation,
			  (double)ref_wc / ((double)now * (double)C));
	return rel_err(got, (double)ref / (double)now);
}

int main(void)
{
	static const int cpu0[] = { 0 };
	const double w0 = 1024.0;
	double want;
	int i, a, b, k;

	tap_plan(39);

	/* greedy = actual: one nice-0 hog per CPU */
	machine("dual");
	fork_on(0, 10, 0, 1024, 0, NULL);
	fork_on(0, 11, 1, 1024, 0, NULL);
	run(0, 0, 10, 0, 0);
	run(0, 1, 11, 0, 0);
	finish(SEC);
	tap_ok(r.balance_score == 0, "one hog per CPU of dual: balance score 0 (%g)",
	       r.balance_score);
	tap_ok(r.work_conservation == 0, "and no CPU idles (%g)",
	       r.work_conservation);

	/* greedy = actual with mixed weights and affinities on quad */
	machine("quad");
	fork_on(0, 10, 0, 88761, 1, cpu0);	/* nice -20 pinned to 0 */
	fork_on(0, 11, 1, 1024, 0, NULL);
	fork_on(0, 12, 2, 1024, 0, NULL);
	fork_on(0, 13, 3, 335, 0, NULL);
	fork_on(0, 14, 3, 335, 0, NULL);
	for (i = 0; i < 4; i++)
		run(0, i, 10 + i, 0, 0);
	finish(SEC);
	tap_ok(r.balance_score == 0,
	       "a pinned heavy task, two nice 0 and two nice 5 placed as greedy on quad: 0 (%g)",
	       r.balance_score);

	/*
	 * Two nice-0 hogs allowed everywhere, both on CPU 0 of dual: loads
	 * {2048, 0} against the greedy {1024, 1024}; sorted, the squares of
	 * the differences are 1024² + 1024².
	 */
	machine("dual");
	fork_on(0, 10, 0, 1024, 0, NULL);
	fork_on(0, 11, 0, 1024, 0, NULL);
	run(0, 0, 10, 0, 0);
	finish(SEC);
	want = 2 * w0 * w0;
	tap_ok(near(r.balance_score, want),
	       "two hogs stacked on CPU 0 of dual: 2 x 1024^2 = %.0f (%.0f)",
	       want, r.balance_score);
	tap_ok(near(r.work_conservation, 0.5),
	       "CPU 1 idles all along while one of them waits: 1/2 of CPU time (%g)",
	       r.work_conservation);

	/* the same for the first quarter, then one moves to CPU 1 */
	machine("dual");
	fork_on(0, 10, 0, 1024, 0, NULL);
	fork_on(0, 11, 0, 1024, 0, NULL);
	run(0, 0, 10, 0, 0);
	metrics_event(&m, SEC / 4, METRICS_EV_MIGRATE, 0, 11, 1, 0);
	run(SEC / 4, 1, 11, 0, 0);
	finish(SEC);
	want = 2 * w0 * w0 / 4;
	tap_ok(near(r.balance_score, want),
	       "stacked for a quarter of the run: 2 x 1024^2 / 4 = %.0f (%.0f)",
	       want, r.balance_score);
	tap_ok(near(r.work_conservation, 0.125),
	       "one idle CPU of two for a quarter: 1/8 (%g)", r.work_conservation);

	/* pinned to CPU 0: the greedy placement stacks them too */
	machine("dual");
	fork_on(0, 10, 0, 1024, 1, cpu0);
	fork_on(0, 11, 0, 1024, 1, cpu0);
	run(0, 0, 10, 0, 0);
	finish(SEC);
	tap_ok(r.balance_score == 0 && r.work_conservation == 0,
	       "two hogs pinned to CPU 0 of dual: 0 and 0 (%g, %g)",
	       r.balance_score, r.work_conservation);

	/* weights: nice 0 and nice 5 stacked: greedy {1024, 335}, actual {1359, 0} */
	machine("dual");
	fork_on(0, 10, 0, 1024, 0, NULL);
	fork_on(0, 11, 0, 335, 0, NULL);
	run(0, 0, 10, 0, 0);
	finish(SEC);
	want = 2.0 * 335 * 335;
	tap_ok(near(r.balance_score, want),
	       "nice 0 and nice 5 stacked: sorted {0, 1359} vs {335, 1024}: 2 x 335^2 = %.0f (%.0f)",
	       want, r.balance_score);

	/* a task that sleeps leaves the runnable set */
	machine("dual");
	fork_on(0, 10, 0, 1024, 0, NULL);
	fork_on(0, 11, 0, 1024, 0, NULL);
	run(0, 0, 10, 0, 0);
	run(SEC / 2, 0, 11, 10, 0);	/* 10 blocks */
	finish(SEC);
	tap_ok(near(r.balance_score, w0 * w0) && near(r.work_conservation, 0.25),
	       "stacked until one blocks half-way: 1024^2 and 1/4 (%.0f, %g)",
	       r.balance_score, r.work_conservation);
	tap_ok(r.runqueue_wait_ns == SEC / 2,
	       "the second waited half a second (%llu ns)",
	       (unsigned long long)r.runqueue_wait_ns);

	/* events before the pid is a workload task's do not count */
	machine("dual");
	metrics_event(&m, 0, METRICS_EV_WAKEUP_NEW, 0, 5, 0, 0);
	metrics_event(&m, 0, METRICS_EV_WAKEUP_NEW, 0, 6, 0, 0);
	run(0, 0, 5, 0, 0);
	finish(SEC);
	tap_ok(r.balance_score == 0 && r.work_conservation == 0,
	       "kernel threads are not scored");

	/* migrations by level on dual-socket-hex-smt */
	machine("dual-socket-hex-smt");
	fork_on(0, 10, 0, 1024, 0, NULL);
	a = -1;
	b = -1;
	for (i = 1; i < topo.nr_cpus; i++) {
		if (topo.cpu[i].core == topo.cpu[0].core && a < 0)
			a = i;
		if (topo.cpu[i].package != topo.cpu[0].package && b < 0)
			b = i;
	}
	metrics_event(&m, SEC / 10, METRICS_EV_MIGRATE, 0, 10, a, 0);
	metrics_event(&m, SEC / 5, METRICS_EV_MIGRATE, a, 10, b, 0);
	metrics_event(&m, SEC / 5, METRICS_EV_MIGRATE, b, 99, 0, 0);
	finish(2 * SEC);
	/* one node: the kernel's PKG level spans both sockets */
	tap_ok(r.migrations[METRICS_SMT] == 1 && r.migrations[METRICS_PKG] == 1 &&
	       r.migrations[METRICS_MC] == 0 && r.migrations[METRICS_NUMA] == 0,
	       "to the sibling (CPU %d) is SMT, to the other socket of the node (CPU %d) is PKG",
	       a, b);
	tap_ok(near(r.migrations_per_s[METRICS_SMT], 0.5),
	       "per second of the run (%g)", r.migrations_per_s[METRICS_SMT]);

	/* wakeup latency */
	machine("dual");
	fork_on(0, 10, 1, 1024, 0, NULL);
	run(100, 1, 10, 0, 0);
	for (i = 0; i < 99; i++) {
		uint64_t t0 = 1000 + (uint64_t)i * 1000;

		run(t0, 1, 0, 10, 0);
		metrics_event(&m, t0 + 10, METRICS_EV_WAKEUP, 0, 10, 1, 0);
		run(t0 + 10 + (i == 98 ? 500 : 20), 1, 10, 0, 0);
	}
	finish(SEC);
	tap_ok(r.nr_wakeups == 100 && r.wakeup_p50_ns == 20 &&
	       r.wakeup_p99_ns == 100 && r.wakeup_max_ns == 500,
	       "wakeup latency: 100 wakeups, p50 20, p99 100, max 500 (%llu, %llu, %llu, %llu)",
	       (unsigned long long)r.nr_wakeups,
	       (unsigned long long)r.wakeup_p50_ns,
	       (unsigned long long)r.wakeup_p99_ns,
	       (unsigned long long)r.wakeup_max_ns);

	/* fairness: two nice-0 tasks share CPU 0 3:1, then nice 0 and 5 by weight */
	machine("dual");
	fork_on(0, 10, 0, 1024, 1, cpu0);
	fork_on(0, 11, 0, 1024, 1, cpu0);
	run(0, 0, 10, 0, 0);
	run(3 * SEC / 4, 0, 11, 10, 1);
	finish(SEC);
	/* x = 3, 1: (3 + 1)² / (2 (9 + 1)) */
	tap_ok(near(r.fairness, 0.8), "3:1 between equal weights: Jain 0.8 (%g)",
	       r.fairness);
	machine("dual");
	fork_on(0, 10, 0, 1024, 1, cpu0);
	fork_on(0, 11, 0, 335, 1, cpu0);
	run(0, 0, 10, 0, 0);
	run(SEC * 1024 / 1359, 0, 11, 10, 1);
	finish(SEC);
	tap_ok(r.fairness > 0.999999, "CPU time in proportion to weight: Jain 1 (%.9f)",
	       r.fairness);

	/* an affinity change makes the same placement a stacked one */
	machine("dual");
	fork_on(0, 10, 0, 1024, 1, cpu0);
	fork_on(0, 11, 0, 1024, 1, cpu0);
	run(0, 0, 10, 0, 0);
	metrics_affinity(&m, SEC / 2, 11, 0, NULL);
	finish(SEC);
	tap_ok(near(r.balance_score, w0 * w0) && near(r.work_conservation, 0.25),
	       "unpinned half-way and left there: 1024^2 and 1/4 (%.0f, %g)",
	       r.balance_score, r.work_conservation);

	/* invariants: a pinned pair beside an idle CPU is no violation ... */
	machine("dual");
	metrics_limits(&m, 0, SEC / 2);
	fork_on(0, 10, 0, 1024, 1, cpu0);
	fork_on(0, 11, 0, 1024, 1, cpu0);
	run(0, 0, 10, 0, 0);
	finish(SEC);
	tap_ok(r.inv.idle_count == 0 && r.inv.idle_ns == 0 &&
	       !r.inv.idle_first.seen && r.inv.window_ns == metrics_window(&topo),
	       "a pinned pair beside an idle CPU: no idle-while-waiting violation");
	tap_ok(r.inv.starved_count == 1 && r.inv.starved_max_ns == SEC &&
	       r.inv.starved_first.pid == 11 && r.inv.starved_first.time_ns == 0 &&
	       r.inv.starved_first.cpu == 0,
	       "but the one never run waited 1 s past a 0.5 s bound: starved, from 0 on CPU 0 (%llu, pid %d)",
	       (unsigned long long)r.inv.starved_max_ns, r.inv.starved_first.pid);

	/* ... an unpinned waiter beside it for longer than the window is */
	for (i = 0; i < 2; i++) {
		machine("dual");
		metrics_limits(&m, i ? 20000000 : 0, 0);
		fork_on(0, 10, 0, 1024, 0, NULL);
		fork_on(0, 11, 0, 1024, 0, NULL);
		run(0, 0, 10, 0, 0);
		metrics_event(&m, 10000000, METRICS_EV_MIGRATE, 0, 11, 1, 0);
		run(10000000, 1, 11, 0, 0);
		finish(SEC);
		if (i)
			tap_ok(r.inv.idle_count == 0,
			       "with a 20 ms window the same 10 ms is none (%llu)",
			       (unsigned long long)r.inv.idle_count);
		else
			tap_ok(r.inv.idle_count == 1 && r.inv.idle_ns == 10000000 &&
			       r.inv.idle_first.time_ns == 0 &&
			       r.inv.idle_first.length_ns == 10000000 &&
			       r.inv.idle_first.cpu == 1 && r.inv.idle_first.cpu2 == 0 &&
			       r.inv.idle_first.pid == 11,
			       "an unpinned waiter on CPU 0 beside idle CPU 1 for 10 ms: one violation from 0, 10 ms, task 11 (%llu, %llu ns, pid %d)",
			       (unsigned long long)r.inv.idle_count,
			       (unsigned long long)r.inv.idle_ns,
			       r.inv.idle_first.pid);
	}

	/*
	 * the default windows: 4 ms beside an idle CPU is the balancer's
	 * reaction time (dual: 2 x 2 ms + a tick + exits), but not after a
	 * fork that placed the task there
	 */
	for (i = 0; i < 2; i++) {
		machine("dual");
		fork_on(0, 10, 0, 1024, 0, NULL);
		run(0, 0, 10, 0, 0);
		if (i) {
			fork_on(0, 11, 0, 1024, 0, NULL);
		} else {
			fork_on(0, 11, 1, 1024, 0, NULL);
			run(0, 1, 11, 0, 0);
			run(1000000, 1, 0, 11, 1);
			metrics_event(&m, 1000000, METRICS_EV_MIGRATE, 1, 11, 0, 0);
		}
		run(5000000, 1, 11, 0, 0);
		finish(SEC);
		tap_ok(r.inv.idle_count == (uint64_t)i &&
		       r.inv.fork_window_ns == METRICS_FORK_WINDOW_NS &&
		       r.inv.window_ns > 5000000,
		       i ? "forked beside an idle CPU, waiting 5 ms past the 4 ms fork window: a violation (%llu)" :
		       "moved beside an idle CPU, waiting 4 ms within the balancer's window: none (%llu)",
		       (unsigned long long)r.inv.idle_count);
	}

	/*
	 * CPU bandwidth: 11 waits on CPU 0 beside idle CPU 1; its group
	 * throttled on CPU 0 holds it (not waiting); throttled on CPU 1 it
	 * may not go there (the balancer moves no task to a CPU its group
	 * is throttled on), until its group is unthrottled there at 100 ms
	 */
	for (i = 0; i < 2; i++) {
		machine("dual");
		fork_on(0, 10, 0, 1024, 0, NULL);
		fork_on(0, 11, 0, 1024, 0, NULL);
		run(0, 0, 10, 0, 0);
		metrics_event(&m, 0, METRICS_EV_THROTTLE, i, 11, i, 0);
		if (i)
			metrics_event(&m, SEC / 10, METRICS_EV_UNTHROTTLE, 1,
				      11, 1, 0);
		finish(SEC);
		tap_ok(i ? r.inv.idle_count == 1 &&
			   r.inv.idle_first.time_ns == SEC / 10 :
			   r.inv.idle_count == 0 && r.runqueue_wait_ns == 0 &&
			   r.work_conservation == 0,
		       i ? "a task beside a CPU its group is throttled on may not go there, until unthrottled at 100 ms: %llu violation from %llu ns" :
		       "a task its group's bandwidth holds on its CPU does not wait: %llu violations, %llu ns waited",
		       (unsigned long long)r.inv.idle_count,
		       (unsigned long long)(i ? r.inv.idle_first.time_ns :
					    r.runqueue_wait_ns));
	}

	/*
	 * quad-smt (cores 0+4, 1+5, 2+6, 3+7): 30 waits on CPU 6 from 1 us
	 * beside idle CPUs 0 and 4; 1.7 ms later 31 wakes on one of them.
	 * On CPU 0, CPU 4's balance was refused for it (should_we_balance())
	 * and CPU 4 waits a whole interval from then: 30 moving to CPU 4 at
	 * 0.45 ms past the window is none. 31 on CPU 4, CPU 0 balances for
	 * itself: then the same wait is a violation.
	 */
	for (i = 0; i < 2; i++) {
		uint64_t w;

		machine("quad-smt");
		w = m.inv.window_ns;
		for (a = 1; a < 8; a++) {
			if (a == 4)
				continue;
			fork_on(0, 10 + a, a, 1024, 0, NULL);
			run(0, a, 10 + a, 0, 0);
		}
		fork_on(0, 30, 0, 1024, 0, NULL);
		run(0, 0, 30, 0, 0);
		fork_on(0, 31, 4, 1024, 0, NULL);
		run(0, 4, 31, 0, 0);
		run(1000, 4, 0, 31, 0);
		run(1000, 0, 0, 30, 1);
		metrics_event(&m, 1000, METRICS_EV_MIGRATE, 0, 30, 6, 0);
		b = i ? 4 : 0;
		metrics_event(&m, 1701000, METRICS_EV_WAKEUP, b, 31, b, 0);
		run(1701000, b, 31, 0, 0);
		metrics_event(&m, 1000 + w + 450000, METRICS_EV_MIGRATE, 6, 30,
			      4 - b, 0);
		run(1000 + w + 450000, 4 - b, 30, 0, 0);
		finish(SEC);
		tap_ok(r.inv.idle_count == (uint64_t)i &&
		       r.inv.refused_ns == r.inv.window_ns,
		       i ? "CPU 0 idle beside a waiter past the window while its sibling got a task: a violation (%llu)" :
		       "CPU 4 idle beside a waiter past the window from the start, but within it from when CPU 0, first of its core, got a task: none (%llu)",
		       (unsigned long long)r.inv.idle_count);
	}

	/* a waiting task moved to a busier CPU is a useless migration */
	machine("quad");
	fork_on(0, 10, 0, 1024, 0, NULL);	/* CPU 0: 10 runs, 11 waits */
	fork_on(0, 11, 0, 1024, 0, NULL);
	fork_on(0, 12, 1, 1024, 0, NULL);	/* CPU 1: 12 runs, 13 and 14 wait */
	fork_on(0, 13, 1, 1024, 0, NULL);
	fork_on(0, 14, 1, 1024, 0, NULL);
	fork_on(0, 15, 2, 1024, 0, NULL);	/* CPU 2: 15 runs, 16 waits */
	fork_on(0, 16, 2, 1024, 0, NULL);
	run(0, 0, 10, 0, 0);
	run(0, 1, 12, 0, 0);
	run(0, 2, 15, 0, 0);
	metrics_event(&m, 1000, METRICS_EV_MIGRATE, 0, 11, 2, 0);	/* 2 to 2 */
	metrics_event(&m, 2000, METRICS_EV_MIGRATE, 2, 16, 0, 0);	/* 3 to 1 */
	metrics_event(&m, 2500, METRICS_EV_MIGRATE, 0, 10, 3, 0);	/* running */
	metrics_event(&m, 3000, METRICS_EV_MIGRATE, 2, 11, 1, 0);	/* 2 to 3 */
	finish(SEC);
	tap_ok(r.inv.useless_count == 1 && r.inv.useless_first.time_ns == 3000 &&
	       r.inv.useless_first.pid == 11 && r.inv.useless_first.cpu == 2 &&
	       r.inv.useless_first.cpu2 == 1,
	       "waiting tasks moved: to a CPU as busy or less is not useless, to a busier one is (%llu, pid %d at %llu)",
	       (unsigned long long)r.inv.useless_count, r.inv.useless_first.pid,
	       (unsigned long long)r.inv.useless_first.time_ns);

	/* ... but not to one with more tasks and less weight (nice 19) */
	machine("quad");
	fork_on(0, 10, 0, 1024, 0, NULL);	/* CPU 0: 10 runs, 11 waits */
	fork_on(0, 11, 0, 1024, 0, NULL);
	fork_on(0, 12, 1, 15, 0, NULL);		/* CPU 1: 12 runs, 13, 14 wait */
	fork_on(0, 13, 1, 15, 0, NULL);
	fork_on(0, 14, 1, 15, 0, NULL);
	run(0, 0, 10, 0, 0);
	run(0, 1, 12, 0, 0);
	metrics_event(&m, 1000, METRICS_EV_MIGRATE, 0, 11, 1, 0);
	finish(SEC);
	tap_ok(r.inv.useless_count == 0,
	       "a waiting task moved to a CPU with more tasks but less weight (3 x 15 against 2 x 1024) is not useless (%llu)",
	       (unsigned long long)r.inv.useless_count);

	/*
	 * ... nor to a busier CPU of a less busy core: on quad-smt CPU 0's
	 * core (0 and 4) has 3 tasks, CPU 1's (1 and 5) 4; the balancer
	 * pulls into core 0 and may pick CPU 0 (LBF_DST_PINNED)
	 */
	for (i = 0; i < 2; i++) {
		machine("quad-smt");
		fork_on(0, 10, 0, 1024, 0, NULL);	/* CPU 0: 10, 11, 12 */
		fork_on(0, 11, 0, 1024, 0, NULL);
		fork_on(0, 12, 0, 1024, 0, NULL);
		fork_on(0, 13, 1, 1024, 0, NULL);	/* CPU 1: 13, 14 */
		fork_on(0, 14, 1, 1024, 0, NULL);
		fork_on(0, 15, 5, 1024, 0, NULL);	/* CPU 5: 15, 16 */
		fork_on(0, 16, 5, 1024, 0, NULL);
		if (i)					/* CPU 4: 17, 18 */
			for (k = 17; k < 19; k++)
				fork_on(0, k, 4, 1024, 0, NULL);
		run(0, 0, 10, 0, 0);
		run(0, 1, 13, 0, 0);
		run(0, 5, 15, 0, 0);
		if (i)
			run(0, 4, 17, 0, 0);
		metrics_event(&m, 1000, METRICS_EV_MIGRATE, 1, 14, 0, 0);
		finish(SEC);
		tap_ok(r.inv.useless_count == (uint64_t)i,
		       i ? "the same move when core 0 has 5 tasks to core 1's 4: useless (%llu)" :
		       "a waiting task moved to a busier CPU of a less busy core (3 tasks against 4): not useless (%llu)",
		       (unsigned long long)r.inv.useless_count);
	}

	/* random streams against the definition recomputed from scratch */
	{
		static const char *const specs[] = { "quad", "quad-smt", "server-64" };
		double e, w;

		for (i = 0; i < 3; i++) {
			e = random_stream(specs[i], 20000, &w);
			tap_ok(e < 1e-12 && e > -1e-12 && w < 1e-12 && w > -1e-12,
			       "%s: 20000 random events, 40 tasks of mixed weights and affinities: the references' balance score and work conservation (relative errors %g, %g)",
			       specs[i], e, w);
		}
		huge = 1;
		e = random_stream("quad-smt", 20000, &w);
		tap_ok(e < 1e-12 && e > -1e-12 && w < 1e-12 && w > -1e-12,
		       "quad-smt: the same with weights up to 4e9, loads past 2^32 (relative errors %g, %g)",
		       e, w);
		huge = 0;
		uniform = 1;
		for (i = 0; i < 3; i++) {
			e = random_stream(specs[i], 20000, &w);
			tap_ok(e < 1e-12 && e > -1e-12 && w < 1e-12 && w > -1e-12,
			       "%s: the same with 40 nice-0 tasks allowed everywhere (relative errors %g, %g)",
			       specs[i], e, w);
		}
	}
	return tap_done();
}
