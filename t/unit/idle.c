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

static struct sim_idle_gov g;
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

/* @timer from now and no history: the state picked */
static int pick(const struct topology_type *t, uint64_t timer)
{
	sim_idle_gov_init(&g);
	return sim_idle_select(&g, t, timer);
}

/* No history: the prediction is the next timer itself. */
static bool test_timer_only(void)
{
	ASSERT_EQ(pick(&x86, 10 * MS), 2);		/* C6 */
	ASSERT_EQ(g.predicted_ns, 10 * MS);
	ASSERT_EQ(pick(&x86, UINT64_MAX), 2);		/* no timer: C6 */
	ASSERT_EQ(pick(&x86, 15 * US), 0);		/* C1E's 20 us does not fit */
	ASSERT_EQ(pick(&x86, 599 * US), 1);		/* 1 ns short of C6 */
	ASSERT_EQ(pick(&x86, 1 * US), 0);		/* nothing fits: state 0 */
	return true;
}

/* Eight 30 us periods (woken by something else than the 1 s timer). */
static bool test_typical_interval(void)
{
	uint64_t len = 30 * US;

	sim_idle_gov_init(&g);
	history(&g, 1000 * MS, 7, &len, 1);
	/* 7 periods are not a history yet */
	ASSERT_EQ(sim_idle_select(&g, &x86, 1000 * MS), 2);
	sim_idle_reflect(&g, 30 * US);
	/* the 8th makes 30 us typical: C1E with a timer in 1 s */
	ASSERT_EQ(sim_idle_select(&g, &x86, 1000 * MS), 1);
	ASSERT_EQ(g.predicted_ns, 30 * US);
	return true;
}

/* One outlier among them is dropped: 7 x 100 us and 5 ms. */
static bool test_outlier_dropped(void)
{
	uint64_t len[8];
	int i;

	for (i = 0; i < 7; i++)
		len[i] = 100 * US;
	len[7] = 5 * MS;
	sim_idle_gov_init(&g);
	history(&g, 1000 * MS, 8, len, 8);
	ASSERT_EQ(sim_idle_select(&g, &x86, 1000 * MS), 1);
	ASSERT_EQ(g.predicted_ns, 100 * US);
	return true;
}

/*
 * 50 and 500 us alternating: too spread as a whole, but with the 500s
 * dropped as outliers the 50s agree.
 */
static bool test_alternating(void)
{
	const uint64_t len[2] = { 50 * US, 500 * US };

	sim_idle_gov_init(&g);
	history(&g, 20 * MS, 8, len, 2);
	ASSERT_EQ(sim_idle_select(&g, &x86, 1000 * MS), 1);
	ASSERT_EQ(g.predicted_ns, 50 * US);
	sim_idle_reflect(&g, 50 * US);
	return true;
}

/*
 * 10 us doubling up to 1280 us: no typical period; with a timer at 90 ms
 * they end it early, so the correction factor of that decade falls (each
 * period keeps 7/8 of it and adds 1024 x measured / timer, rounded down:
 * 0, 0, 0, 0, 1, 3, 7, 14) until a 90 ms timer predicts a shallow state;
 * periods ended by their timer restore it.
 */
static bool test_correction_factor(void)
{
	static const unsigned int add[8] = { 0, 0, 0, 0, 1, 3, 7, 14 };
	unsigned int f = SIM_IDLE_UNITY;
	uint64_t len[8];
	int i;

	for (i = 0; i < 8; i++)
		len[i] = (10 * US) << i;
	sim_idle_gov_init(&g);
	history(&g, 90 * MS, 8, len, 8);
	/* a timer of another decade is unchanged: C6 */
	ASSERT_EQ(sim_idle_select(&g, &x86, 1000 * MS), 2);
	ASSERT_EQ(g.predicted_ns, 1000 * MS);
	sim_idle_reflect(&g, 1000 * MS);
	for (i = 0; i < 8; i++)
		f = f - f / 8 + add[i];
	ASSERT_EQ(g.correction[4], f);
	history(&g, 90 * MS, 120, len, 8);
	ASSERT_EQ(sim_idle_select(&g, &x86, 90 * MS), 1);
	ASSERT_TRUE(g.predicted_ns < 600 * US);
	sim_idle_reflect(&g, 50 * US);
	history(&g, 20 * MS, 40, (const uint64_t[]){ 20 * MS }, 1);
	ASSERT_EQ(sim_idle_select(&g, &x86, 20 * MS), 2);
	ASSERT_TRUE(g.predicted_ns > 19 * MS);
	return true;
}

/* A state whose exit latency exceeds the prediction is passed over. */
static bool test_exit_latency(void)
{
	/* 'slow' fits 300 us by its 100 us residency, not its 500 us exit */
	ASSERT_EQ(pick(&odd, 300 * US), 0);
	ASSERT_EQ(pick(&odd, 600 * US), 1);
	ASSERT_EQ(pick(&odd, 1000 * US), 2);
	return true;
}

/* A type with no states, and a reflect without a select. */
static bool test_no_states(void)
{
	struct topology_type none;

	memset(&none, 0, sizeof(none));
	ASSERT_EQ(pick(&none, 10 * MS), 0);
	sim_idle_reflect(&g, 10 * US);
	sim_idle_reflect(&g, 10 * US);
	ASSERT_EQ(g.nr_intervals, 1);
	return true;
}

int main(void)
{
	state(&x86, "C1", 2 * US, 2 * US);
	state(&x86, "C1E", 10 * US, 20 * US);
	state(&x86, "C6", 133 * US, 600 * US);
	state(&odd, "WFI", 1 * US, 1 * US);
	state(&odd, "slow", 500 * US, 100 * US);
	state(&odd, "deep", 200 * US, 1000 * US);
	tap_plan(7);
	TEST(test_timer_only);
	TEST(test_typical_interval);
	TEST(test_outlier_dropped);
	TEST(test_alternating);
	TEST(test_correction_factor);
	TEST(test_exit_latency);
	TEST(test_no_states);
	return tap_done();
}
