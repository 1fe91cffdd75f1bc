// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle-state governor on hand-made histories: a far timer picks the
 * deepest state, a near one a shallow state; consistent short idle periods
 * (the typical interval) or timers that rarely end the idle (the
 * correction factor) make a far timer pick a shallow state; a state whose
 * exit latency exceeds the prediction is passed over.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "t/tap.h"
#include "sim/idle.h"

#define US 1000ULL
#define MS 1000000ULL

static struct topology_type x86;	/* C1 2/2 us, C1E 10/20 us, C6 133/600 us */
static struct topology_type odd;	/* a shallow state slower to leave than a deep one */

static void state(struct topology_type *t, const char *name, uint64_t exit_ns,
		  uint64_t target_ns)
{
	struct topology_idle_state *s = &t->states[t->nr_states++];

	snprintf(s->name, sizeof(s->name), "%s", name);
	s->exit_latency_ns = exit_ns;
	s->target_residency_ns = target_ns;
}

/* n idle periods of the given lengths, each after a select at timer */
static void history(struct sim_idle_gov *g, uint64_t timer, int n,
		    const uint64_t *len, int nr_len)
{
	int i;

	for (i = 0; i < n; i++) {
		sim_idle_select(g, &x86, timer);
		sim_idle_reflect(g, len[i % nr_len]);
	}
}

int main(void)
{
	struct sim_idle_gov g;
	uint64_t len[8];
	int s, i;

	tap_plan(17);
	state(&x86, "C1", 2 * US, 2 * US);
	state(&x86, "C1E", 10 * US, 20 * US);
	state(&x86, "C6", 133 * US, 600 * US);
	state(&odd, "WFI", 1 * US, 1 * US);
	state(&odd, "slow", 500 * US, 100 * US);
	state(&odd, "deep", 200 * US, 1000 * US);

	/* no history: the prediction is the next timer itself */
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &x86, 10 * MS);
	tap_ok(s == 2 && g.predicted_ns == 10 * MS,
	       "timer in 10 ms: C6 (state %d, predicted %llu ns)", s,
	       (unsigned long long)g.predicted_ns);
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &x86, UINT64_MAX);
	tap_ok(s == 2, "no timer: C6 (state %d)", s);
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &x86, 15 * US);
	tap_ok(s == 0, "timer in 15 us: C1, C1E's 20 us does not fit (state %d)", s);
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &x86, 599 * US);
	tap_ok(s == 1, "timer in 599 us: C1E, 1 ns short of C6 (state %d)", s);
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &x86, 1 * US);
	tap_ok(s == 0, "timer in 1 us: nothing fits, state 0 (state %d)", s);

	/* eight 30 us periods (woken by something else than the 1 s timer) */
	sim_idle_gov_init(&g);
	len[0] = 30 * US;
	history(&g, 1000 * MS, 7, len, 1);
	s = sim_idle_select(&g, &x86, 1000 * MS);
	tap_ok(s == 2, "7 periods of 30 us are not a history yet: C6 (state %d)", s);
	sim_idle_reflect(&g, 30 * US);
	s = sim_idle_select(&g, &x86, 1000 * MS);
	tap_ok(s == 1 && g.predicted_ns == 30 * US,
	       "the 8th makes 30 us typical: C1E with a timer in 1 s (state %d, predicted %llu ns)",
	       s, (unsigned long long)g.predicted_ns);

	/* one outlier among them is dropped: 7 x 100 us and 5 ms */
	sim_idle_gov_init(&g);
	for (i = 0; i < 7; i++)
		len[i] = 100 * US;
	len[7] = 5 * MS;
	history(&g, 1000 * MS, 8, len, 8);
	s = sim_idle_select(&g, &x86, 1000 * MS);
	tap_ok(s == 1 && g.predicted_ns == 100 * US,
	       "7 x 100 us and one 5 ms: 100 us typical, C1E (state %d, predicted %llu ns)",
	       s, (unsigned long long)g.predicted_ns);

	/*
	 * 50 and 500 us alternating: too spread as a whole, but with the 500s
	 * dropped as outliers the 50s agree.
	 */
	sim_idle_gov_init(&g);
	len[0] = 50 * US;
	len[1] = 500 * US;
	history(&g, 20 * MS, 8, len, 2);
	s = sim_idle_select(&g, &x86, 1000 * MS);
	tap_ok(s == 1 && g.predicted_ns == 50 * US,
	       "50 and 500 us alternating: the shorter is typical, C1E (state %d, predicted %llu ns)",
	       s, (unsigned long long)g.predicted_ns);
	sim_idle_reflect(&g, 50 * US);

	/* 10 us doubling up to 1280 us: no typical period at any count */
	sim_idle_gov_init(&g);
	for (i = 0; i < 8; i++)
		len[i] = (10 * US) << i;
	history(&g, 90 * MS, 8, len, 8);
	s = sim_idle_select(&g, &x86, 1000 * MS);
	tap_ok(s == 2 && g.predicted_ns == 1000 * MS,
	       "10 us to 1280 us: no typical period, a timer of another decade unchanged: C6 (state %d)",
	       s);
	sim_idle_reflect(&g, 1000 * MS);
	/*
	 * With a timer at 90 ms they end it early: each period keeps 7/8 of
	 * the factor and adds 1024 x measured / timer, rounded down:
	 * 0, 0, 0, 0, 1, 3, 7, 14.
	 */
	{
		static const unsigned int add[8] = { 0, 0, 0, 0, 1, 3, 7, 14 };
		unsigned int f = SIM_IDLE_UNITY;

		for (i = 0; i < 8; i++)
			f = f - f / 8 + add[i];
		tap_ok(g.correction[4] == f,
		       "correction of the 10-100 ms decade after 8 periods: %u (expected %u)",
		       g.correction[4], f);
		history(&g, 90 * MS, 120, len, 8);
		s = sim_idle_select(&g, &x86, 90 * MS);
		tap_ok(s == 1 && g.predicted_ns < 600 * US,
		       "after 128: a 90 ms timer predicts %llu ns, C1E (state %d)",
		       (unsigned long long)g.predicted_ns, s);
		sim_idle_reflect(&g, 50 * US);
	}

	/* long periods restore it: the timer was right */
	history(&g, 20 * MS, 40, (const uint64_t[]){ 20 * MS }, 1);
	s = sim_idle_select(&g, &x86, 20 * MS);
	tap_ok(s == 2 && g.predicted_ns > 19 * MS,
	       "40 periods ended by their 20 ms timer: C6 again (predicted %llu ns)",
	       (unsigned long long)g.predicted_ns);
	sim_idle_reflect(&g, 20 * MS);

	/* exit latency */
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &odd, 300 * US);
	tap_ok(s == 0,
	       "300 us predicted: 'slow' fits its 100 us residency but not its 500 us exit latency (state %d)",
	       s);
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &odd, 600 * US);
	tap_ok(s == 1, "600 us predicted: 'slow' (state %d)", s);
	sim_idle_gov_init(&g);
	s = sim_idle_select(&g, &odd, 1000 * US);
	tap_ok(s == 2, "1 ms predicted: 'deep' (state %d)", s);

	/* a type with no states, and a reflect without a select */
	{
		struct topology_type none;

		memset(&none, 0, sizeof(none));
		sim_idle_gov_init(&g);
		s = sim_idle_select(&g, &none, 10 * MS);
		sim_idle_reflect(&g, 10 * US);
		sim_idle_reflect(&g, 10 * US);
		tap_ok(s == 0 && g.nr_intervals == 1,
		       "no states: 0; a second reflect is ignored (%d periods)",
		       g.nr_intervals);
	}
	return tap_done();
}
