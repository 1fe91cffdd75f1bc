// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle-state governor, after the kernel's menu governor: the next
 * timer corrected by how long idle periods really lasted, and the typical
 * length of the recent ones when they agree. Integer arithmetic only, so
 * the same history always gives the same choice.
 *
 * Where it differs from menu: times are kept in ns, not us; no typical
 * period until SIM_IDLE_INTERVALS periods were measured (menu counts its
 * zero-filled slots); the measured time excludes the exit latency already
 * (the caller gives entry to wakeup), so none is deducted; there is no
 * latency QoS limit, only the prediction bounds the exit latency; and the
 * tick is the caller's affair (next_timer_ns includes it while it runs),
 * so menu's tick-stop and polling-state refinements have no part here.
 */
#include <string.h>

#include "sim/idle.h"

#define NS_PER_US 1000ULL
#define DECAY 8				/* a factor keeps 7/8 of its past */
#define RESOLUTION (SIM_IDLE_UNITY / DECAY)	/* one period's full weight */
/* Idle periods at least this long count as "the timer was right". */
#define MAX_INTERESTING_NS (50000 * NS_PER_US)
/* A spread this small makes the periods consistent whatever their mean. */
#define SMALL_VARIANCE ((unsigned __int128)(20 * NS_PER_US) * (20 * NS_PER_US))
/* Periods are kept up to about 73 minutes, so squares sum in 128 bits. */
#define INTERVAL_CAP (1ULL << 42)

void sim_idle_gov_init(struct sim_idle_gov *g)
{
	int i;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < SIM_IDLE_BUCKETS; i++)
		g->correction[i] = SIM_IDLE_UNITY;
}

/* The order of magnitude of the next timer: < 10 us, < 100 us, ... */
static int bucket_of(uint64_t ns)
{
	uint64_t limit = 10 * NS_PER_US;
	int b;

	for (b = 0; b < SIM_IDLE_BUCKETS - 1; b++, limit *= 10)
		if (ns < limit)
			break;
	return b;
}

/*
 * The mean of the recent idle periods if they are consistent: a standard
 * deviation within 20 us, or below a sixth of the mean with at least 3/4 of
 * the periods counted. Otherwise the outlier farthest from the mean is
 * dropped (with every period equal to it) and the rest tried again, down
 * to 3/4 of them. UINT64_MAX: no typical period (or too little history).
 */
static uint64_t typical_interval(const struct sim_idle_gov *g)
{
	int64_t lo = -1;		/* periods kept are > lo and < hi */
	uint64_t hi = UINT64_MAX;

	if (g->nr_intervals < SIM_IDLE_INTERVALS)
		return UINT64_MAX;
	for (;;) {
		unsigned __int128 sq = 0, var;
		uint64_t sum = 0, min = UINT64_MAX, max = 0, avg;
		unsigned int n = 0;
		int i;

		for (i = 0; i < SIM_IDLE_INTERVALS; i++) {
			uint64_t v = g->interval[i];

			if ((int64_t)v <= lo || v >= hi)
				continue;
			n++;
			sum += v;
			sq += (unsigned __int128)v * v;
			if (v > max)
				max = v;
			if (v < min)
				min = v;
		}
		if (!max)
			return UINT64_MAX;
		avg = sum / n;
		/* floor(Σv²/n) >= floor(Σv/n)²: no wrap */
		var = sq / n - (unsigned __int128)avg * avg;
		if (var <= SMALL_VARIANCE ||
		    ((unsigned __int128)avg * avg > var * 36 &&
		     n * 4 >= SIM_IDLE_INTERVALS * 3))
			return avg;
		if (n * 4 <= SIM_IDLE_INTERVALS * 3)
			return UINT64_MAX;
		if (avg - min > max - avg)
			lo = (int64_t)min;
		else
			hi = max;
	}
}

int sim_idle_select(struct sim_idle_gov *g, const struct topology_type *type,
		    uint64_t next_timer_ns)
{
	uint64_t typical = typical_interval(g), predicted;
	unsigned __int128 corrected;
	int i, idx = 0;

	g->pending = 1;
	g->next_timer_ns = next_timer_ns;
	g->bucket = bucket_of(next_timer_ns);
	corrected = ((unsigned __int128)next_timer_ns *
			     g->correction[g->bucket] +
		     SIM_IDLE_UNITY / 2) / SIM_IDLE_UNITY;
	predicted = corrected < typical ? (uint64_t)corrected : typical;
	g->predicted_ns = predicted;
	/*
	 * States go by ascending target residency; exit latency need not
	 * follow, so every state is weighed.
	 */
	for (i = 0; i < type->nr_states; i++) {
		const struct topology_idle_state *s = &type->states[i];

		if (s->target_residency_ns <= predicted &&
		    s->exit_latency_ns <= predicted)
			idx = i;
	}
	return idx;
}

void sim_idle_reflect(struct sim_idle_gov *g, uint64_t measured_ns)
{
	unsigned int f;

	if (!g->pending)
		return;
	g->pending = 0;
	/* A factor never exceeds 1: later wakeups are the timer's. */
	if (measured_ns > g->next_timer_ns)
		measured_ns = g->next_timer_ns;
	f = g->correction[g->bucket];
	f -= f / DECAY;
	if (g->next_timer_ns && measured_ns < MAX_INTERESTING_NS)
		f += (unsigned int)(RESOLUTION * measured_ns / g->next_timer_ns);
	else
		f += RESOLUTION;
	g->correction[g->bucket] = f;
	g->interval[g->interval_next] =
		measured_ns < INTERVAL_CAP ? measured_ns : INTERVAL_CAP;
	g->interval_next = (g->interval_next + 1) % SIM_IDLE_INTERVALS;
	if (g->nr_intervals < SIM_IDLE_INTERVALS)
		g->nr_intervals++;
}
