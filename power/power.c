// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle, frequency and energy accounting. Each CPU keeps the time it has
 * been accounted up to and is brought forward only when something about it
 * changes (or at the end), so an event costs O(1) whatever the machine's
 * size; clusters and packages count their busy CPUs and time the periods
 * when that count is 0. Time is summed in integer ns; joules are computed
 * once, at the end, in a fixed order.
 */
#include <stdlib.h>
#include <string.h>

#include "power/power.h"

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * The distinct values of @id[0..n) as domains in ascending order, each
 * with its CPUs counted (all busy); @idx[i] receives CPU i's domain index.
 */
static struct power_domain *make_domains(const int *id, int n, int *idx,
					 int *nr_out)
{
	int *ids = zalloc((size_t)n, sizeof(*ids));
	struct power_domain *d;
	int nr = 0, i;

	memcpy(ids, id, (size_t)n * sizeof(*ids));
	qsort(ids, (size_t)n, sizeof(*ids), cmp_int);
	for (i = 0; i < n; i++)
		if (!nr || ids[nr - 1] != ids[i])
			ids[nr++] = ids[i];
	d = zalloc((size_t)nr, sizeof(*d));
	for (i = 0; i < nr; i++)
		d[i].id = ids[i];
	for (i = 0; i < n; i++) {
		const int *hit = bsearch(&id[i], ids, (size_t)nr, sizeof(*ids),
					 cmp_int);

		idx[i] = (int)(hit - ids);
		d[idx[i]].nr_cpus++;
		d[idx[i]].nr_busy++;
	}
	free(ids);
	*nr_out = nr;
	return d;
}

int power_init(struct power *p, const struct topology *topo, uint64_t now)
{
	int n = topo->nr_cpus, i;
	int *id, *idx;

	memset(p, 0, sizeof(*p));
	if (n <= 0 || n > TOPOLOGY_MAX_CPUS)
		return -1;
	p->topo = topo;
	p->nr_cpus = n;
	p->start = now;
	p->last = now;
	p->cpu = zalloc((size_t)n, sizeof(*p->cpu));
	for (i = 0; i < n; i++) {
		struct power_cpu *c = &p->cpu[i];

		c->type = &topo->types[topo->cpu[i].type];
		c->state = POWER_BUSY;
		c->opp = c->type->nr_opps - 1;	/* -1: fixed frequency */
		c->tick_on = 1;
		c->since = now;
	}
	id = zalloc((size_t)n, sizeof(*id));
	idx = zalloc((size_t)n, sizeof(*idx));
	for (i = 0; i < n; i++)
		id[i] = topo->cpu[i].cluster;
	p->cluster = make_domains(id, n, idx, &p->nr_clusters);
	for (i = 0; i < n; i++) {
		p->cpu[i].cluster = idx[i];
		id[i] = topo->cpu[i].package;
	}
	p->package = make_domains(id, n, idx, &p->nr_packages);
	for (i = 0; i < n; i++)
		p->cpu[i].package = idx[i];
	free(id);
	free(idx);
	for (i = 0; i < p->nr_clusters; i++)
		p->cluster[i].since = now;
	for (i = 0; i < p->nr_packages; i++)
		p->package[i].since = now;
	return 0;
}

void power_release(struct power *p)
{
	free(p->cpu);
	free(p->cluster);
	free(p->package);
	memset(p, 0, sizeof(*p));
}

/* Events never go back in time: a late one is taken as the latest. */
static uint64_t clamp_now(struct power *p, uint64_t now)
{
	if (now < p->last)
		now = p->last;
	p->last = now;
	return now;
}

/* Bring a CPU's accounting forward to now, in its current state. */
static void account(struct power_cpu *c, uint64_t now)
{
	uint64_t dt = now - c->since;

	if (!dt)
		return;
	c->since = now;
	if (c->opp >= 0)
		c->opp_ns[c->opp] += dt;
	if (c->state == POWER_BUSY) {
		c->busy_ns += dt;
		if (c->opp >= 0)
			c->opp_busy_ns[c->opp] += dt;
		else
			c->busy_fixed_ns += dt;
		return;
	}
	if (!c->tick_on)
		c->tick_stopped_ns += dt;
	if (c->state < c->type->nr_states)
		c->state_ns[c->state] += dt;
	else
		c->unlisted_ns += dt;
}

static void domain_idle(struct power_domain *d, uint64_t now)
{
	if (--d->nr_busy == 0)
		d->since = now;
}

static void domain_busy(struct power_domain *d, uint64_t now)
{
	if (d->nr_busy++ == 0)
		d->all_idle_ns += now - d->since;
}

void power_idle(struct power *p, uint64_t now, int cpu, int state)
{
	struct power_cpu *c;

	if (cpu < 0 || cpu >= p->nr_cpus)
		return;
	now = clamp_now(p, now);
	c = &p->cpu[cpu];
	if (state < 0)
		state = POWER_BUSY;
	if (state == c->state)
		return;
	account(c, now);
	if (c->state == POWER_BUSY) {
		c->idle_entries++;
		domain_idle(&p->cluster[c->cluster], now);
		domain_idle(&p->package[c->package], now);
	} else if (state == POWER_BUSY) {
		domain_busy(&p->cluster[c->cluster], now);
		domain_busy(&p->package[c->package], now);
	}
	c->state = state;
}

/* cpufreq's CPUFREQ_RELATION_L: the lowest OPP at or above khz. */
static int resolve_opp(const struct topology_type *t, uint64_t khz)
{
	int i;

	for (i = 0; i < t->nr_opps; i++)
		if (t->opps[i].khz >= khz)
			return i;
	return t->nr_opps - 1;
}

void power_freq(struct power *p, uint64_t now, int cpu, uint64_t khz)
{
	struct power_cpu *c;
	int opp;

	if (cpu < 0 || cpu >= p->nr_cpus)
		return;
	now = clamp_now(p, now);
	c = &p->cpu[cpu];
	if (c->opp < 0)
		return;
	opp = resolve_opp(c->type, khz);
	if (opp == c->opp)
		return;
	account(c, now);
	c->opp = opp;
}

void power_tick(struct power *p, uint64_t now, int cpu, int on)
{
	struct power_cpu *c;

	if (cpu < 0 || cpu >= p->nr_cpus)
		return;
	now = clamp_now(p, now);
	c = &p->cpu[cpu];
	on = !!on;
	if (on == c->tick_on)
		return;
	account(c, now);
	c->tick_on = on;
}

/* mW x ns = 1e-3 W x 1e-9 s */
#define MW_NS_TO_J 1e-12

static void cpu_result(const struct power_cpu *c, int type,
		       struct power_cpu_result *r)
{
	const struct topology_type *t = c->type;
	double mw_ns = 0;
	int i;

	r->type = type;
	r->busy_ns = c->busy_ns;
	r->idle_entries = c->idle_entries;
	r->tick_stopped_ns = c->tick_stopped_ns;
	r->unlisted_ns = c->unlisted_ns;
	r->idle_ns = c->unlisted_ns;
	r->nr_states = t->nr_states;
	for (i = 0; i < t->nr_states; i++) {
		r->state_ns[i] = c->state_ns[i];
		r->idle_ns += c->state_ns[i];
	}
	r->nr_freqs = t->nr_opps;
	for (i = 0; i < t->nr_opps; i++) {
		r->freq_khz[i] = t->opps[i].khz;
		r->freq_ns[i] = c->opp_ns[i];
	}
	/*
	 * Power 0 on an OPP is "unknown" (a machine read from sysfs); on an
	 * idle state it may be true (power-gated), so it is taken as given.
	 */
	r->energy_complete = !c->busy_fixed_ns && !c->unlisted_ns;
	for (i = 0; i < t->nr_opps; i++) {
		mw_ns += (double)c->opp_busy_ns[i] * t->opps[i].power_mw;
		if (c->opp_busy_ns[i] && !(t->opps[i].power_mw > 0))
			r->energy_complete = 0;
	}
	for (i = 0; i < t->nr_states; i++)
		mw_ns += (double)c->state_ns[i] * t->states[i].power_mw;
	r->energy_j = mw_ns * MW_NS_TO_J;
}

static struct power_domain_result *
domains_result(const struct power_domain *d, int nr, uint64_t now)
{
	struct power_domain_result *r = zalloc((size_t)nr, sizeof(*r));
	int i;

	for (i = 0; i < nr; i++) {
		r[i].id = d[i].id;
		r[i].nr_cpus = d[i].nr_cpus;
		r[i].all_idle_ns = d[i].all_idle_ns;
		if (!d[i].nr_busy)
			r[i].all_idle_ns += now - d[i].since;
	}
	return r;
}

void power_finish(struct power *p, uint64_t now, struct power_result *out)
{
	double secs;
	int i;

	memset(out, 0, sizeof(*out));
	now = clamp_now(p, now);
	out->duration_ns = now - p->start;
	out->nr_cpus = p->nr_cpus;
	out->cpu = zalloc((size_t)p->nr_cpus, sizeof(*out->cpu));
	out->energy_complete = 1;
	for (i = 0; i < p->nr_cpus; i++) {
		struct power_cpu_result *r = &out->cpu[i];

		account(&p->cpu[i], now);
		cpu_result(&p->cpu[i], p->topo->cpu[i].type, r);
		out->idle_entries += r->idle_entries;
		out->energy_j += r->energy_j;
		if (!r->energy_complete)
			out->energy_complete = 0;
	}
	out->nr_clusters = p->nr_clusters;
	out->cluster = domains_result(p->cluster, p->nr_clusters, now);
	out->nr_packages = p->nr_packages;
	out->package = domains_result(p->package, p->nr_packages, now);
	secs = (double)out->duration_ns * 1e-9;
	if (secs > 0) {
		out->idle_entries_per_s = (double)out->idle_entries / secs;
		out->mean_power_w = out->energy_j / secs;
	}
}

void power_result_release(struct power_result *r)
{
	free(r->cpu);
	free(r->cluster);
	free(r->package);
	memset(r, 0, sizeof(*r));
}
