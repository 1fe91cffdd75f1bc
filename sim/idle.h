/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to sim/: --cpuidle sim, the simulator's model of the kernel's
 * menu governor (drivers/cpuidle/governors/menu.c), for trees built
 * without drivers/cpuidle/ (by default the revision's own governor picks,
 * through the arch's driver). With it the kernel has no cpuidle driver,
 * so the choice of a state happens on the simulator's side: one struct
 * sim_idle_gov per CPU, no globals.
 *
 * The prediction of an idle period is the time until the CPU's next timer,
 * scaled by a correction factor (how much of the timer's distance recent
 * idle periods of that order of magnitude really lasted), and shortened to
 * the typical length of the last SIM_IDLE_INTERVALS periods when they are
 * consistent. The state chosen is the deepest whose target residency and
 * exit latency both fit in the prediction; state 0 when none does.
 */
#ifndef LSB_SIM_IDLE_H
#define LSB_SIM_IDLE_H

#include <stdint.h>

#include "topologies/topologies.h"

#define SIM_IDLE_INTERVALS 8	/* idle periods kept for the typical one */
#define SIM_IDLE_BUCKETS 6	/* correction factors: by decade of next timer */
#define SIM_IDLE_UNITY 8192	/* a correction factor of 1 */

struct sim_idle_gov {
	int pending;			/* selected, not reflected yet */
	int bucket;			/* of the pending period */
	uint64_t next_timer_ns;		/* of the pending period */
	uint64_t predicted_ns;		/* the last prediction */
	unsigned int correction[SIM_IDLE_BUCKETS];	/* SIM_IDLE_UNITY = 1 */
	uint64_t interval[SIM_IDLE_INTERVALS];	/* measured, ring */
	int interval_next;
	int nr_intervals;		/* up to SIM_IDLE_INTERVALS */
};

/**
 * sim_idle_gov_init() - a CPU's governor with no history
 * @g: filled in: correction factors 1, no idle periods measured
 */
void sim_idle_gov_init(struct sim_idle_gov *g);

/**
 * sim_idle_select() - the idle state for an idle period starting now
 * @g: the CPU's governor
 * @type: the CPU's type (its states, shallowest first)
 * @next_timer_ns: time until the CPU's next timer event (the tick's when
 *                 it runs), UINT64_MAX if it has none
 *
 * Records the prediction in @g->predicted_ns; follow with
 * sim_idle_reflect() when the period ends.
 *
 * Return: the index of the chosen state in @type->states; 0 when no state
 * fits the prediction, and also when @type has no states at all.
 */
int sim_idle_select(struct sim_idle_gov *g, const struct topology_type *type,
		    uint64_t next_timer_ns);

/**
 * sim_idle_reflect() - how long the idle period that began with the last
 * sim_idle_select() lasted
 * @g: the CPU's governor
 * @measured_ns: from idle entry to the event that woke the CPU, without
 *               the exit latency that follows it
 *
 * Ignored when no selection is pending.
 */
void sim_idle_reflect(struct sim_idle_gov *g, uint64_t measured_ns);

#endif
