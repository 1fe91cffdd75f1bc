/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * power - the idle and energy scores of a run: where each CPU's time went
 * (busy, each idle state, each frequency), idle entries, tick-stopped and
 * cluster/package all-idle residency, and the energy the topology's model
 * gives for it. A pure consumer like metrics/: it never calls into sim/ or
 * kernel code and uses nothing but libc. See power/README.md for the
 * definitions and units.
 *
 * Usage: power_init() at boot; power_idle(), power_freq() and power_tick()
 * as the simulated machine changes, in time order; power_finish() at the
 * end, which fills a result the caller frees with power_result_release();
 * power_release().
 */
#ifndef LSB_POWER_H
#define LSB_POWER_H

#include <stdint.h>

#include "topologies/topologies.h"

/* The state of power_idle(): not idle. */
#define POWER_BUSY (-1)

/* One CPU as the accounting sees it. */
struct power_cpu {
	const struct topology_type *type;
	int cluster, package;	/* dense indices into power.cluster/package */
	int state;		/* POWER_BUSY or the idle state index */
	int opp;		/* index in the type's OPPs; -1: fixed frequency */
	int tick_on;
	uint64_t since;		/* accounted up to */
	uint64_t busy_ns;
	uint64_t idle_entries;
	uint64_t tick_stopped_ns;	/* idle with the tick stopped */
	uint64_t unlisted_ns;	/* idle in a state the type does not list */
	uint64_t busy_fixed_ns;	/* busy on a fixed-frequency type */
	uint64_t state_ns[TOPOLOGY_MAX_STATES];
	uint64_t opp_ns[TOPOLOGY_MAX_OPPS];	/* all time at the OPP */
	uint64_t opp_busy_ns[TOPOLOGY_MAX_OPPS];	/* busy time at the OPP */
};

/* A cluster or a package: the CPUs that must all idle together. */
struct power_domain {
	int id;			/* topology_cpu.cluster or .package */
	int nr_cpus;
	int nr_busy;		/* of them not idle */
	uint64_t since;		/* start of the current all-idle period */
	uint64_t all_idle_ns;
};

struct power {
	const struct topology *topo;
	int nr_cpus;
	uint64_t start;
	uint64_t last;		/* the latest event's time */
	struct power_cpu *cpu;
	struct power_domain *cluster, *package;	/* ascending ids */
	int nr_clusters, nr_packages;
};

struct power_cpu_result {
	int type;			/* index into topology.types */
	uint64_t busy_ns;
	uint64_t idle_ns;		/* all idle time, every state */
	uint64_t idle_entries;
	uint64_t tick_stopped_ns;
	int nr_states;			/* the type's */
	uint64_t state_ns[TOPOLOGY_MAX_STATES];	/* by the type's state index */
	uint64_t unlisted_ns;		/* idle in a state index >= nr_states */
	int nr_freqs;			/* the type's OPPs; 0: fixed frequency */
	uint64_t freq_khz[TOPOLOGY_MAX_OPPS];	/* ascending */
	uint64_t freq_ns[TOPOLOGY_MAX_OPPS];	/* time at freq_khz[i] */
	double energy_j;
	int energy_complete;		/* 0: some time had no power figure */
};

struct power_domain_result {
	int id;
	int nr_cpus;
	uint64_t all_idle_ns;
};

struct power_result {
	uint64_t duration_ns;
	int nr_cpus;
	struct power_cpu_result *cpu;		/* nr_cpus of them */
	int nr_clusters, nr_packages;
	struct power_domain_result *cluster;	/* ascending ids */
	struct power_domain_result *package;	/* ascending ids */
	uint64_t idle_entries;			/* all CPUs */
	double idle_entries_per_s;
	double energy_j;
	double mean_power_w;			/* energy_j / duration */
	int energy_complete;			/* every CPU's */
};

/**
 * power_init() - start the accounting
 * @p: filled in
 * @topo: the machine; must outlive @p
 * @now: the time accounting starts (ns)
 *
 * Every CPU starts busy, at its type's highest OPP (or its fixed
 * frequency), with the tick on.
 *
 * Return: 0, or -1 when @topo has no CPUs. Out of memory aborts, as in
 * metrics/.
 */
int power_init(struct power *p, const struct topology *topo, uint64_t now);

/**
 * power_idle() - a CPU entered an idle state or left idle
 * @p: the accounting
 * @now: the time of the change (ns), not before the last event's
 * @cpu: the CPU
 * @state: >= 0: the index of the idle state entered in its type's list
 *         (from busy, or switching states while idle: not a new entry);
 *         POWER_BUSY (-1): it left idle. An index the type does not list
 *         counts as idle time without a power figure.
 */
void power_idle(struct power *p, uint64_t now, int cpu, int state);

/**
 * power_freq() - a CPU's frequency changed
 * @p: the accounting
 * @now: the time of the change (ns)
 * @cpu: the CPU
 * @khz: the new frequency, an OPP of its type; another value means the
 *       lowest OPP at or above it (the highest when none is). Ignored on
 *       a fixed-frequency type.
 */
void power_freq(struct power *p, uint64_t now, int cpu, uint64_t khz);

/**
 * power_tick() - the periodic tick started or stopped on a CPU
 * @p: the accounting
 * @now: the time of the change (ns)
 * @cpu: the CPU
 * @on: 1: the tick runs, 0: it is stopped
 */
void power_tick(struct power *p, uint64_t now, int cpu, int on);

/**
 * power_finish() - the scores up to now
 * @p: the accounting; may take more events afterwards
 * @now: the end of the run (ns)
 * @out: filled in; its arrays are malloc'd: free them with
 *       power_result_release() (out of memory aborts)
 */
void power_finish(struct power *p, uint64_t now, struct power_result *out);

/**
 * power_result_release() - free what power_finish() allocated
 * @r: the result; zeroed, so releasing twice is harmless
 */
void power_result_release(struct power_result *r);

/**
 * power_release() - free the accounting
 * @p: the accounting; zeroed
 */
void power_release(struct power *p);

#endif
