// SPDX-License-Identifier: GPL-2.0-only
/*
 * The power scores on hand-made event streams, each figure derived by
 * hand: an idle machine, a 10 %-busy CPU at one OPP, frequency changes
 * splitting residency, all-idle time of clusters and packages with sparse
 * ids, tick-stopped residency, and a type without OPPs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "t/tap.h"
#include "power/power.h"

#define MS 1000000ULL
#define SEC 1000000000ULL

static struct topology topo;
static struct power p;
static struct power_result r;
static char err[512];

/*
 * A type "c": WFI 10 mW and "off" 0.5 mW; OPPs 1 GHz at 500 mW and 2 GHz
 * at 1600 mW. The CPUs are given as JSON objects.
 */
#define TYPE_C \
	"\"c\": {\"capacity\": 1024, \"idle_states\": [" \
	"{\"name\": \"WFI\", \"exit_latency_us\": 1, \"target_residency_us\": 1, \"power_mw\": 10}," \
	"{\"name\": \"off\", \"exit_latency_us\": 150, \"target_residency_us\": 1000, \"power_mw\": 0.5}]," \
	"\"opps\": [{\"khz\": 1000000, \"power_mw\": 500}, {\"khz\": 2000000, \"power_mw\": 1600}]}"

static void machine(const char *types, const char *cpus)
{
	char json[4096];

	snprintf(json, sizeof(json),
		 "{\"name\": \"t\", \"cpu_types\": {%s}, \"cpus\": [%s]}", types,
		 cpus);
	if (topology_from_json(&topo, json, "t", err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	if (power_init(&p, &topo, 0)) {
		printf("Bail out! power_init\n");
		exit(1);
	}
}

static void finish(uint64_t now)
{
	power_finish(&p, now, &r);
	power_release(&p);
}

static int near(double a, double b)
{
	double d = a > b ? a - b : b - a;

	return d <= 1e-12 * (b > 1 ? b : 1);
}

#define U(x) ((unsigned long long)(x))

int main(void)
{
	double e;
	int i;

	tap_plan(23);

	/* an idle machine: two CPUs in "off" from the start for a second */
	machine(TYPE_C, "{\"id\": 0}, {\"id\": 1}");
	power_idle(&p, 0, 0, 1);
	power_idle(&p, 0, 1, 1);
	finish(SEC);
	tap_ok(r.duration_ns == SEC && r.nr_cpus == 2 &&
		       r.cpu[0].state_ns[1] == SEC && r.cpu[1].state_ns[1] == SEC &&
		       r.cpu[0].state_ns[0] == 0 && r.cpu[0].busy_ns == 0 &&
		       r.cpu[0].idle_ns == SEC && r.cpu[0].nr_states == 2,
	       "idle machine: 1 s in 'off' on each CPU (%llu, %llu ns)",
	       U(r.cpu[0].state_ns[1]), U(r.cpu[1].state_ns[1]));
	/* 2 CPUs x 1 s x 0.5 mW = 1 mJ */
	tap_ok(near(r.energy_j, 1e-3) && near(r.mean_power_w, 1e-3) &&
		       near(r.cpu[1].energy_j, 5e-4) && r.energy_complete,
	       "idle machine: 2 x 0.5 mW x 1 s = 1 mJ, 1 mW (%.15g J, %.15g W)",
	       r.energy_j, r.mean_power_w);
	tap_ok(r.idle_entries == 2 && near(r.idle_entries_per_s, 2) &&
		       r.nr_clusters == 1 && r.cluster[0].all_idle_ns == SEC &&
		       r.nr_packages == 1 && r.package[0].all_idle_ns == SEC,
	       "idle machine: 2 entries (%g/s), cluster and package all idle 1 s",
	       r.idle_entries_per_s);
	tap_ok(r.cpu[0].nr_freqs == 2 && r.cpu[0].freq_khz[1] == 2000000 &&
		       r.cpu[0].freq_ns[1] == SEC && r.cpu[0].freq_ns[0] == 0,
	       "idle machine: the whole second at the highest OPP, 2 GHz (%llu ns)",
	       U(r.cpu[0].freq_ns[1]));
	power_result_release(&r);

	/* 10 % busy at 1 GHz: 1 ms busy, 9 ms in WFI, 100 times */
	machine(TYPE_C, "{\"id\": 0}");
	power_freq(&p, 0, 0, 1000000);
	for (i = 0; i < 100; i++) {
		power_idle(&p, i * 10 * MS + MS, 0, 0);
		power_idle(&p, (i + 1) * 10 * MS, 0, POWER_BUSY);
	}
	finish(SEC);
	tap_ok(r.cpu[0].busy_ns == 100 * MS && r.cpu[0].state_ns[0] == 900 * MS &&
		       r.cpu[0].idle_entries == 100 &&
		       near(r.idle_entries_per_s, 100),
	       "10 %% busy: 100 ms busy, 900 ms in WFI, 100 entries/s (%llu, %llu, %g)",
	       U(r.cpu[0].busy_ns), U(r.cpu[0].state_ns[0]),
	       r.idle_entries_per_s);
	/* 0.1 s x 500 mW + 0.9 s x 10 mW = 0.05 + 0.009 J */
	tap_ok(near(r.energy_j, 0.059) && near(r.mean_power_w, 0.059) &&
		       r.energy_complete,
	       "10 %% busy: 0.1 s x 500 mW + 0.9 s x 10 mW = 0.059 J, 0.059 W (%.15g J)",
	       r.energy_j);
	tap_ok(r.cpu[0].freq_ns[0] == SEC && r.cpu[0].freq_ns[1] == 0,
	       "10 %% busy: all the time at 1 GHz, idle included (%llu ns)",
	       U(r.cpu[0].freq_ns[0]));
	power_result_release(&r);

	/*
	 * Frequency changes: busy at 2 GHz, 1 GHz at 300 ms, 1.5 GHz (taken
	 * as 2 GHz, the lowest OPP at or above) at 700 ms, idle in "off" at
	 * 800 ms, 1 GHz at 900 ms, 5 GHz (the highest: 2 GHz) at 950 ms.
	 */
	machine(TYPE_C, "{\"id\": 0}");
	power_freq(&p, 300 * MS, 0, 1000000);
	power_freq(&p, 700 * MS, 0, 1500000);
	power_idle(&p, 800 * MS, 0, 1);
	power_freq(&p, 900 * MS, 0, 1000000);
	power_freq(&p, 950 * MS, 0, 5000000);
	finish(SEC);
	/* 1 GHz: 300-700 and 900-950; 2 GHz: 0-300, 700-900 and 950-1000 */
	tap_ok(r.cpu[0].freq_ns[0] == 450 * MS && r.cpu[0].freq_ns[1] == 550 * MS,
	       "frequency changes: 450 ms at 1 GHz, 550 ms at 2 GHz (%llu, %llu)",
	       U(r.cpu[0].freq_ns[0]), U(r.cpu[0].freq_ns[1]));
	/* busy 400 ms at each; 200 ms off: 0.64 + 0.2 + 0.0001 J */
	tap_ok(near(r.energy_j, 0.8401) && r.cpu[0].busy_ns == 800 * MS,
	       "frequency changes: 0.4 s x 1600 mW + 0.4 s x 500 mW + 0.2 s x 0.5 mW = 0.8401 J (%.15g)",
	       r.energy_j);
	power_result_release(&r);

	/*
	 * Clusters and packages, sparse ids: package 0 holds clusters 0
	 * (CPUs 0, 1) and 2 (CPUs 2, 3); package 5 is cluster 9 (CPUs 4, 5).
	 */
	machine(TYPE_C,
		"{\"id\": 0, \"package\": 0, \"cluster\": 0},"
		"{\"id\": 1, \"package\": 0, \"cluster\": 0},"
		"{\"id\": 2, \"package\": 0, \"cluster\": 2},"
		"{\"id\": 3, \"package\": 0, \"cluster\": 2},"
		"{\"id\": 4, \"package\": 5, \"cluster\": 9},"
		"{\"id\": 5, \"package\": 5, \"cluster\": 9}");
	power_idle(&p, 0, 4, 0);
	power_idle(&p, 100 * MS, 0, 0);
	power_idle(&p, 200 * MS, 1, 0);
	power_idle(&p, 300 * MS, 2, 1);
	power_idle(&p, 400 * MS, 3, 1);
	power_idle(&p, 500 * MS, 1, POWER_BUSY);
	power_idle(&p, 500 * MS, 4, 1);		/* a state change, no entry */
	power_idle(&p, 600 * MS, 1, 1);
	power_idle(&p, 800 * MS, 1, POWER_BUSY);	/* out and back at once */
	power_idle(&p, 800 * MS, 1, 0);
	finish(SEC);
	/* cluster 0: 200-500 and 600-1000; cluster 2: 400-1000 */
	tap_ok(r.nr_clusters == 3 && r.cluster[0].id == 0 && r.cluster[1].id == 2 &&
		       r.cluster[2].id == 9 && r.cluster[0].nr_cpus == 2 &&
		       r.cluster[0].all_idle_ns == 700 * MS &&
		       r.cluster[1].all_idle_ns == 600 * MS &&
		       r.cluster[2].all_idle_ns == 0,
	       "clusters 0, 2, 9 all idle 700, 600, 0 ms (%llu, %llu, %llu)",
	       U(r.cluster[0].all_idle_ns), U(r.cluster[1].all_idle_ns),
	       U(r.cluster[2].all_idle_ns));
	/* package 0: 400-500 and 600-1000 */
	tap_ok(r.nr_packages == 2 && r.package[0].id == 0 && r.package[1].id == 5 &&
		       r.package[0].nr_cpus == 4 &&
		       r.package[0].all_idle_ns == 500 * MS &&
		       r.package[1].all_idle_ns == 0,
	       "packages 0, 5 all idle 500, 0 ms (%llu, %llu)",
	       U(r.package[0].all_idle_ns), U(r.package[1].all_idle_ns));
	tap_ok(r.idle_entries == 7 && r.cpu[1].idle_entries == 3 &&
		       r.cpu[4].idle_entries == 1 &&
		       r.cpu[4].state_ns[0] == 500 * MS &&
		       r.cpu[4].state_ns[1] == 500 * MS &&
		       r.cpu[1].busy_ns == 300 * MS,
	       "entries: 7 in all, a switch of state while idle is none (%llu; CPU 4 %llu + %llu ns)",
	       U(r.idle_entries), U(r.cpu[4].state_ns[0]),
	       U(r.cpu[4].state_ns[1]));
	power_result_release(&r);

	/*
	 * Tick-stopped: idle from 0 with the tick on, stopped at 100 ms;
	 * busy and tick on at 400 ms; tick stopped while busy at 500 ms
	 * (not idle: not counted); idle again at 600 ms.
	 */
	machine(TYPE_C, "{\"id\": 0}");
	power_idle(&p, 0, 0, 1);
	power_tick(&p, 100 * MS, 0, 0);
	power_idle(&p, 400 * MS, 0, POWER_BUSY);
	power_tick(&p, 400 * MS, 0, 1);
	power_tick(&p, 500 * MS, 0, 0);
	power_idle(&p, 600 * MS, 0, 0);
	finish(SEC);
	tap_ok(r.cpu[0].tick_stopped_ns == 700 * MS && r.cpu[0].idle_ns == 800 * MS &&
		       r.cpu[0].busy_ns == 200 * MS,
	       "tick stopped while idle: 100-400 and 600-1000 ms = 700 ms (%llu)",
	       U(r.cpu[0].tick_stopped_ns));
	power_result_release(&r);

	/* A type without OPPs: busy 250 ms, then WFI at 20 mW */
#define TYPE_P \
	"\"p\": {\"capacity\": 1024, \"idle_states\": [" \
	"{\"name\": \"WFI\", \"exit_latency_us\": 1, \"target_residency_us\": 1, \"power_mw\": 20}," \
	"{\"name\": \"off\", \"exit_latency_us\": 150, \"target_residency_us\": 1000, \"power_mw\": 0}]}"
	machine(TYPE_P, "{\"id\": 0}");
	power_freq(&p, 100 * MS, 0, 1000000);	/* nothing to change */
	power_idle(&p, 250 * MS, 0, 0);
	finish(SEC);
	tap_ok(r.cpu[0].nr_freqs == 0 && r.cpu[0].busy_ns == 250 * MS &&
		       r.cpu[0].state_ns[0] == 750 * MS,
	       "no OPPs: no frequency residency, 250 ms busy, 750 ms WFI");
	/* only the idle part has a figure: 0.75 s x 20 mW */
	tap_ok(near(r.energy_j, 0.015) && !r.energy_complete &&
		       !r.cpu[0].energy_complete,
	       "no OPPs: 0.75 s x 20 mW = 0.015 J, flagged incomplete (%.15g J, complete %d)",
	       r.energy_j, r.energy_complete);
	power_result_release(&r);
	machine(TYPE_P, "{\"id\": 0}");
	power_idle(&p, 0, 0, 1);
	finish(SEC);
	tap_ok(r.energy_j == 0 && r.energy_complete,
	       "no OPPs but never busy: 1 s at 0 mW, 0 J, complete");
	power_result_release(&r);

	/* two types: one without OPPs makes the whole machine's incomplete */
	machine(TYPE_C "," TYPE_P,
		"{\"id\": 0, \"type\": \"c\"}, {\"id\": 1, \"type\": \"p\"}");
	power_idle(&p, 500 * MS, 0, 0);
	finish(SEC);
	/* CPU 0: 0.5 s x 1600 mW + 0.5 s x 10 mW; CPU 1: busy, no figure */
	tap_ok(near(r.energy_j, 0.805) && near(r.cpu[0].energy_j, 0.805) &&
		       r.cpu[0].energy_complete && !r.cpu[1].energy_complete &&
		       !r.energy_complete && r.cpu[0].type == 0 && r.cpu[1].type == 1,
	       "two types: 0.805 J from the one with OPPs, incomplete (%.15g)",
	       r.energy_j);
	power_result_release(&r);

	/* a state the type does not list, and an OPP without a power figure */
	machine(TYPE_C, "{\"id\": 0}");
	power_idle(&p, 0, 0, 5);
	finish(SEC);
	tap_ok(r.cpu[0].unlisted_ns == SEC && r.cpu[0].idle_ns == SEC &&
		       r.energy_j == 0 && !r.energy_complete &&
		       r.cluster[0].all_idle_ns == SEC,
	       "an unlisted state: idle, all idle, no figure");
	power_result_release(&r);
	machine("\"z\": {\"opps\": [{\"khz\": 1000000}]}", "{\"id\": 0}");
	finish(SEC);
	tap_ok(r.cpu[0].busy_ns == SEC && r.cpu[0].freq_ns[0] == SEC &&
		       r.energy_j == 0 && !r.energy_complete,
	       "busy at an OPP of power 0 (unknown): incomplete");
	power_result_release(&r);

	/* finish, more events, finish again */
	machine(TYPE_C, "{\"id\": 0}");
	power_finish(&p, 500 * MS, &r);
	tap_ok(r.cpu[0].busy_ns == 500 * MS && r.duration_ns == 500 * MS,
	       "a first finish at 500 ms: 500 ms busy");
	power_result_release(&r);
	power_idle(&p, 500 * MS, 0, 0);
	power_idle(&p, 400 * MS, 0, 1);		/* late: taken as 500 ms */
	finish(SEC);
	tap_ok(r.cpu[0].busy_ns == 500 * MS && r.cpu[0].state_ns[1] == 500 * MS &&
		       r.cpu[0].state_ns[0] == 0 && r.duration_ns == SEC,
	       "then idle: the second finish adds 500 ms in 'off' (a late event counts as the latest time)");
	power_result_release(&r);

	/* a preset: biglittle-4+4 idle in the deepest state */
	if (topology_from_spec(&topo, "biglittle-4+4", err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	power_init(&p, &topo, 5 * SEC);
	e = 0;
	for (i = 0; i < topo.nr_cpus; i++) {
		const struct topology_type *t = &topo.types[topo.cpu[i].type];

		power_idle(&p, 5 * SEC, i, t->nr_states - 1);
		e += t->states[t->nr_states - 1].power_mw * 1e-3 * 2;
	}
	finish(7 * SEC);
	tap_ok(r.duration_ns == 2 * SEC && r.nr_clusters == 2 &&
		       r.cluster[0].all_idle_ns == 2 * SEC &&
		       r.cluster[1].all_idle_ns == 2 * SEC,
	       "biglittle-4+4 idle from 5 s to 7 s: both clusters all idle 2 s");
	tap_ok(near(r.energy_j, e) && near(r.mean_power_w, e / 2) &&
		       r.energy_complete,
	       "biglittle-4+4 idle: Σ deepest-state power x 2 s = %.15g J (%.15g)",
	       e, r.energy_j);
	power_result_release(&r);

	return tap_done();
}
