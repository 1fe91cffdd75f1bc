// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scores of a run, online: the state the event stream describes
 * (which workload task is runnable where, what each CPU runs) is kept up
 * to date event by event; the instantaneous imbalance and work-conservation
 * loss are recomputed only when simulated time moves after a change, and
 * integrated exactly (integers) over the time until the next change.
 */
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"

const char *const metrics_level_names[METRICS_NR_LEVELS] = {
	"SMT", "MC", "PKG", "NUMA",
};

/* kernel/sched/core.c: sched_prio_to_weight[] */
static const unsigned int nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

unsigned int metrics_nice_weight(int nice)
{
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return nice_weight[nice + 20];
}

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

int metrics_init(struct metrics *m, const struct topology *topo)
{
	int n = topo->nr_cpus, i;

	memset(m, 0, sizeof(*m));
	m->topo = topo;
	m->nr_cpus = n;
	m->nr_idle = n;		/* until a switch says otherwise */
	m->mask_words = (n + 63) / 64;
	m->curr = zalloc(n, sizeof(*m->curr));
	m->load = zalloc(n, sizeof(*m->load));
	m->greedy = zalloc(n, sizeof(*m->greedy));
	m->greedy_sorted = zalloc(n, sizeof(*m->greedy_sorted));
	m->sorted = zalloc(n, sizeof(*m->sorted));
	m->heap = zalloc(n, sizeof(*m->heap));
	m->sorted_cpu = zalloc(n, sizeof(*m->sorted_cpu));
	m->pos = zalloc(n, sizeof(*m->pos));
	for (i = 0; i < n; i++)
		m->sorted_cpu[i] = m->pos[i] = i;
	return 0;
}

void metrics_release(struct metrics *m)
{
	int i;

	free(m->task);
	free(m->keys);
	free(m->group);
	for (i = 0; i < METRICS_CACHE; i++)
		free(m->cache[i].loads);
	free(m->curr);
	free(m->load);
	free(m->greedy);
	free(m->greedy_sorted);
	free(m->sorted);
	free(m->heap);
	free(m->sorted_cpu);
	free(m->pos);
	memset(m, 0, sizeof(*m));
}

static struct metrics_task *task_get(struct metrics *m, int pid)
{
	if (pid <= 0)
		return NULL;
	if (pid >= m->nr_pids) {
		int n = m->nr_pids ? m->nr_pids : 256, i;

		while (n <= pid)
			n *= 2;
		m->task = realloc(m->task, (size_t)n * sizeof(*m->task));
		m->keys = realloc(m->keys, (size_t)n * sizeof(*m->keys));
		if (!m->task || !m->keys)
			abort();
		memset(m->task + m->nr_pids, 0,
		       (size_t)(n - m->nr_pids) * sizeof(*m->task));
		for (i = m->nr_pids; i < n; i++) {
			m->task[i].cpu = -1;
			m->task[i].rq_idx = -1;
		}
		m->nr_pids = n;
	}
	return &m->task[pid];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Ascending; insertion sort for the few CPUs of most machines. */
static void sort_loads(uint64_t *v, int n)
{
	int i, j;

	if (n > 32) {
		qsort(v, (size_t)n, sizeof(*v), cmp_u64);
		return;
	}
	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* ---- the greedy reference: a min-heap of CPUs by (load, cpu) ---- */

static int heap_less(const struct metrics *m, int a, int b)
{
	uint64_t x = m->greedy[a], y = m->greedy[b];

	return x < y || (x == y && a < b);
}

static void heap_down(struct metrics *m, int i, int n)
{
	for (;;) {
		int l = 2 * i + 1, s = i, t;

		if (l < n && heap_less(m, m->heap[l], m->heap[s]))
			s = l;
		if (l + 1 < n && heap_less(m, m->heap[l + 1], m->heap[s]))
			s = l + 1;
		if (s == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[s];
		m->heap[s] = t;
		i = s;
	}
}

/* The least loaded CPU of the greedy placement, the lowest on a tie. */
static int least_loaded(const struct metrics *m)
{
	int c, best = 0;

	for (c = 1; c < m->nr_cpus; c++)
		if (m->greedy[c] < m->greedy[best])
			best = c;
	return best;
}

/*
 * Workloads go through the same few runnable sets again and again: the
 * greedy loads of recent sets of few groups are kept, keyed by the groups
 * themselves (compared in full: a hit is exact).
 */
static uint64_t groups_hash(const struct metrics *m)
{
	uint64_t h = 1469598103934665603ULL;
	int i, w;

	for (i = 0; i < m->nr_group; i++) {
		const struct metrics_group *g = &m->group[i];

		h = (h ^ (uint64_t)g->nr_allowed) * 1099511628211ULL;
		h = (h ^ g->weight) * 1099511628211ULL;
		h = (h ^ (uint64_t)g->count) * 1099511628211ULL;
		for (w = 0; w < m->mask_words; w++)
			h = (h ^ g->mask[w]) * 1099511628211ULL;
	}
	return h;
}

static int groups_equal(const struct metrics *m, const struct metrics_group *a,
			int n)
{
	int i, w;

	if (n != m->nr_group)
		return 0;
	for (i = 0; i < n; i++) {
		const struct metrics_group *b = &m->group[i];

		if (a[i].nr_allowed != b->nr_allowed ||
		    a[i].weight != b->weight || a[i].count != b->count)
			return 0;
		for (w = 0; w < m->mask_words; w++)
			if (a[i].mask[w] != b->mask[w])
				return 0;
	}
	return 1;
}

static void greedy_place_groups(struct metrics *m);

static void greedy_place(struct metrics *m)
{
	struct metrics_cache *e;
	size_t C = (size_t)m->nr_cpus;
	uint64_t h;

	if (m->nr_group > METRICS_CACHE_GROUPS) {
		greedy_place_groups(m);
		return;
	}
	h = groups_hash(m);
	e = &m->cache[h % METRICS_CACHE];
	if (e->loads && e->hash == h && groups_equal(m, e->group, e->nr_group)) {
		memcpy(m->greedy_sorted, e->loads, C * sizeof(*e->loads));
		return;
	}
	greedy_place_groups(m);
	if (!e->loads && !(e->loads = malloc(C * sizeof(*e->loads))))
		abort();
	e->hash = h;
	e->nr_group = m->nr_group;
	if (m->nr_group)
		memcpy(e->group, m->group,
		       (size_t)m->nr_group * sizeof(*m->group));
	memcpy(e->loads, m->greedy_sorted, C * sizeof(*e->loads));
}

static void greedy_place_groups(struct metrics *m)
{
	int i, j, c, n = m->nr_rq, C = m->nr_cpus, heaped = 0;

	if (m->nr_full == n && n &&
	    (unsigned __int128)n * m->sum_w2 ==
	    (unsigned __int128)m->sum_w * m->sum_w) {
		/*
		 * Every task may run anywhere and all weigh the same (the
		 * Cauchy-Schwarz equality): n / C on each CPU, one more on
		 * n % C of them. Already ascending.
		 */
		uint64_t w = m->sum_w / (uint64_t)n, q = (uint64_t)(n / C);
		int r = n % C;

		for (c = 0; c < C; c++)
			m->greedy_sorted[c] = (q + (c >= C - r)) * w;
		return;
	}
	memset(m->greedy, 0, (size_t)C * sizeof(*m->greedy));
	for (i = 0; i < m->nr_group; i++) {
		const struct metrics_group *k = &m->group[i];

		for (j = 0; j < k->count; j++) {
			int best = -1;

			if (k->nr_allowed == C && C <= 16) {
				m->greedy[least_loaded(m)] += k->weight;
				continue;
			}
			if (k->nr_allowed == C) {
				/* every later task may run anywhere too */
				if (!heaped) {
					for (c = 0; c < C; c++)
						m->heap[c] = c;
					for (c = C / 2 - 1; c >= 0; c--)
						heap_down(m, c, C);
					heaped = 1;
				}
				m->greedy[m->heap[0]] += k->weight;
				heap_down(m, 0, C);
				continue;
			}
			for (c = 0; c < C; c++)
				if ((k->mask[c / 64] >> (c % 64) & 1) &&
				    (best < 0 || m->greedy[c] < m->greedy[best]))
					best = c;
			if (best >= 0)
				m->greedy[best] += k->weight;
		}
	}
	memcpy(m->greedy_sorted, m->greedy, (size_t)C * sizeof(*m->greedy));
	sort_loads(m->greedy_sorted, C);
}

static void recompute(struct metrics *m)
{
	int c, i;

	if (m->dirty_greedy)
		greedy_place(m);
	if (m->dirty_greedy || m->dirty_actual) {
		unsigned __int128 sum = 0;

		/* m->sorted is kept up to date by load_move() */
		for (c = 0; c < m->nr_cpus; c++) {
			uint64_t a = m->greedy_sorted[c], b = m->sorted[c];
			uint64_t d = a > b ? a - b : b - a;

			sum += (unsigned __int128)d * d;
		}
		m->imbalance = sum;
	}
	if (m->dirty_wc && !m->nr_idle) {
		m->wc_cpus = 0;
	} else if (m->dirty_wc) {
		uint64_t could[METRICS_MASK_WORDS] = { 0 };
		int w, n = 0;

		for (i = 0; i < m->nr_rq; i++) {
			const struct metrics_task *t = &m->task[m->keys[i].pid];

			if (t->running)
				continue;
			for (w = 0; w < m->mask_words; w++)
				could[w] |= t->allowed[w];
		}
		for (c = 0; c < m->nr_cpus; c++) {
			if (m->curr[c] || !(could[c / 64] >> (c % 64) & 1))
				continue;
			/* idle, and a waiting task allowed here: is it elsewhere? */
			for (i = 0; i < m->nr_rq; i++) {
				const struct metrics_task *t = &m->task[m->keys[i].pid];

				if (!t->running && t->cpu != c &&
				    (t->allowed[c / 64] >> (c % 64) & 1)) {
					n++;
					break;
				}
			}
		}
		m->wc_cpus = n;
	}
	m->dirty_greedy = m->dirty_actual = m->dirty_wc = 0;
}

void metrics_advance(struct metrics *m, uint64_t now)
{
	uint64_t dt;

	if (now <= m->last)
		return;
	if (m->dirty_greedy || m->dirty_actual || m->dirty_wc)
		recompute(m);
	dt = now - m->last;
	m->imbalance_int += m->imbalance * dt;
	m->wc_int += (unsigned __int128)m->wc_cpus * dt;
	m->last = now;
}

/* ---- the state the events describe ---- */

/* The waiting tasks changed: only idle CPUs can lose work. */
static inline void wc_touch(struct metrics *m)
{
	if (m->nr_idle)
		m->dirty_wc = 1;
}

/*
 * CPU c's load changes to x: keep m->sorted ascending, with m->sorted_cpu
 * and m->pos mapping positions and CPUs. It moves only past the loads
 * strictly between the old and the new value.
 */
static void sorted_update(struct metrics *m, int c, uint64_t x)
{
	uint64_t *v = m->sorted;
	int *sc = m->sorted_cpu, i = m->pos[c], n = m->nr_cpus;

	if (x > v[i]) {
		for (; i + 1 < n && v[i + 1] < x; i++) {
			v[i] = v[i + 1];
			sc[i] = sc[i + 1];
			m->pos[sc[i]] = i;
		}
	} else {
		for (; i > 0 && v[i - 1] > x; i--) {
			v[i] = v[i - 1];
			sc[i] = sc[i - 1];
			m->pos[sc[i]] = i;
		}
	}
	v[i] = x;
	sc[i] = c;
	m->pos[c] = i;
}

static void load_move(struct metrics *m, const struct metrics_task *t,
		      int from, int to)
{
	if (from >= 0 && from < m->nr_cpus) {
		m->load[from] -= t->weight;
		sorted_update(m, from, m->load[from]);
	}
	if (to >= 0 && to < m->nr_cpus) {
		m->load[to] += t->weight;
		sorted_update(m, to, m->load[to]);
	}
	m->dirty_actual = 1;
}

/* greedy order: fewest allowed CPUs, heaviest, then the mask (any order) */
static int group_cmp(const struct metrics *m, const struct metrics_group *x,
		     int nr_allowed, unsigned int weight, const uint64_t *mask)
{
	int w;

	if (x->nr_allowed != nr_allowed)
		return x->nr_allowed < nr_allowed ? -1 : 1;
	if (x->weight != weight)
		return x->weight > weight ? -1 : 1;
	for (w = 0; w < m->mask_words; w++)
		if (x->mask[w] != mask[w])
			return x->mask[w] < mask[w] ? -1 : 1;
	return 0;
}

/*
 * The runnable tasks by (allowed CPUs, weight), in greedy order: tasks
 * alike are interchangeable, so the greedy pass needs no sort.
 */
static void group_add(struct metrics *m, const struct metrics_task *t,
		      int delta)
{
	int i = 0, r = 1;

	while (i < m->nr_group &&
	       (r = group_cmp(m, &m->group[i], t->nr_allowed, t->weight,
			      t->allowed)) < 0)
		i++;
	if (i < m->nr_group && !r) {
		m->group[i].count += delta;
		if (!m->group[i].count) {
			memmove(m->group + i, m->group + i + 1,
				(size_t)(m->nr_group - i - 1) * sizeof(*m->group));
			m->nr_group--;
		}
		return;
	}
	if (m->nr_group == m->cap_group) {
		m->cap_group = m->cap_group ? 2 * m->cap_group : 16;
		m->group = realloc(m->group,
				   (size_t)m->cap_group * sizeof(*m->group));
		if (!m->group)
			abort();
	}
	memmove(m->group + i + 1, m->group + i,
		(size_t)(m->nr_group - i) * sizeof(*m->group));
	m->group[i].nr_allowed = t->nr_allowed;
	m->group[i].weight = t->weight;
	m->group[i].count = delta;
	memcpy(m->group[i].mask, t->allowed, sizeof(t->allowed));
	m->nr_group++;
}

static void set_runnable(struct metrics *m, int pid, struct metrics_task *t,
			 int on)
{
	if (!t->known || !on == !t->runnable) {
		t->runnable = on;
		return;
	}
	t->runnable = on;
	if (on) {
		t->rq_idx = m->nr_rq;
		m->keys[m->nr_rq++] = (struct metrics_key){
			.nr_allowed = t->nr_allowed, .weight = t->weight,
			.pid = pid,
		};
		load_move(m, t, -1, t->cpu);
		group_add(m, t, 1);
		m->nr_full += t->nr_allowed == m->nr_cpus;
		m->sum_w += t->weight;
		m->sum_w2 += (unsigned __int128)t->weight * t->weight;
	} else {
		struct metrics_key last = m->keys[--m->nr_rq];

		m->keys[t->rq_idx] = last;
		m->task[last.pid].rq_idx = t->rq_idx;
		t->rq_idx = -1;
		load_move(m, t, t->cpu, -1);
		group_add(m, t, -1);
		m->nr_full -= t->nr_allowed == m->nr_cpus;
		m->sum_w -= t->weight;
		m->sum_w2 -= (unsigned __int128)t->weight * t->weight;
	}
	m->dirty_greedy = 1;
	wc_touch(m);
}

static void set_cpu(struct metrics *m, struct metrics_task *t, int cpu)
{
	if (t->cpu == cpu)
		return;
	if (t->known && t->runnable) {
		load_move(m, t, t->cpu, cpu);
		wc_touch(m);
	}
	t->cpu = cpu;
}

static void set_mask(struct metrics *m, struct metrics_task *t,
		     int nr_allowed, const int *allowed)
{
	int i;

	memset(t->allowed, 0, sizeof(t->allowed));
	t->nr_allowed = 0;
	if (nr_allowed <= 0) {
		for (i = 0; i < m->nr_cpus; i++)
			t->allowed[i / 64] |= 1ULL << (i % 64);
		t->nr_allowed = m->nr_cpus;
		return;
	}
	for (i = 0; i < nr_allowed; i++) {
		int c = allowed[i];

		if (c < 0 || c >= m->nr_cpus || (t->allowed[c / 64] >> (c % 64) & 1))
			continue;
		t->allowed[c / 64] |= 1ULL << (c % 64);
		t->nr_allowed++;
	}
}

void metrics_task(struct metrics *m, uint64_t now, int pid, int cls,
		  unsigned int weight, int nr_allowed, const int *allowed)
{
	struct metrics_task *t = task_get(m, pid);
	int runnable;

	if (!t)
		return;
	metrics_advance(m, now);
	runnable = t->runnable;
	if (t->known)
		set_runnable(m, pid, t, 0);
	t->runnable = 0;
	t->known = 1;
	t->cls = cls;
	t->weight = weight;
	set_mask(m, t, nr_allowed, allowed);
	set_runnable(m, pid, t, runnable);
	m->dirty_greedy = 1;
	wc_touch(m);
}

void metrics_affinity(struct metrics *m, uint64_t now, int pid,
		      int nr_allowed, const int *allowed)
{
	struct metrics_task *t = task_get(m, pid);
	int runnable;

	if (!t || !t->known)
		return;
	metrics_advance(m, now);
	runnable = t->runnable;
	set_runnable(m, pid, t, 0);
	set_mask(m, t, nr_allowed, allowed);
	set_runnable(m, pid, t, runnable);
	m->dirty_greedy = 1;
	wc_touch(m);
}

void metrics_weight(struct metrics *m, uint64_t now, int pid,
		    unsigned int weight)
{
	struct metrics_task *t = task_get(m, pid);
	int runnable;

	if (!t || !t->known)
		return;
	metrics_advance(m, now);
	runnable = t->runnable;
	set_runnable(m, pid, t, 0);
	t->weight = weight;
	set_runnable(m, pid, t, runnable);
}

/* The lowest domain level spanning two CPUs. */
static int level_of(const struct topology *topo, int a, int b)
{
	const struct topology_cpu *x = &topo->cpu[a], *y = &topo->cpu[b];

	if (x->package != y->package || x->node != y->node)
		return METRICS_NUMA;
	if (x->cluster != y->cluster)
		return METRICS_PKG;
	if (x->core != y->core)
		return METRICS_MC;
	return METRICS_SMT;
}

static void hist_add(struct metrics *m, uint64_t v)
{
	int e, idx;

	if (v < 128) {
		idx = (int)v;
	} else {
		e = 63 - __builtin_clzll(v);
		idx = 128 + (e - 7) * 64 + (int)((v >> (e - 6)) & 63);
	}
	m->hist[idx]++;
	if (v > m->hist_max[idx])
		m->hist_max[idx] = v;
	m->nr_wakeups++;
	if (v > m->wakeup_max)
		m->wakeup_max = v;
}

static uint64_t hist_quantile(const struct metrics *m, double q)
{
	uint64_t want, seen = 0;
	int i;

	if (!m->nr_wakeups)
		return 0;
	want = (uint64_t)(q * (double)m->nr_wakeups);
	if ((double)want < q * (double)m->nr_wakeups)
		want++;
	if (!want)
		want = 1;
	for (i = 0; i < METRICS_HIST_BUCKETS; i++) {
		seen += m->hist[i];
		if (seen >= want)
			return m->hist_max[i];
	}
	return m->wakeup_max;
}

static void stop_running(struct metrics *m, struct metrics_task *t,
			 uint64_t now)
{
	(void)m;
	if (!t->running)
		return;
	t->running = 0;
	t->exec_ns += now - t->since;
	t->since = now;
}

void metrics_event(struct metrics *m, uint64_t now, int kind, int cpu,
		   int pid, int arg, long state)
{
	struct metrics_task *t, *prev;

	if (cpu < 0 || cpu >= m->nr_cpus)
		return;
	metrics_advance(m, now);
	switch (kind) {
	case METRICS_EV_SWITCH:
		prev = task_get(m, arg);
		if (prev) {
			stop_running(m, prev, now);
			set_runnable(m, arg, prev, state != 0);
		}
		t = task_get(m, pid);
		if (t) {
			set_cpu(m, t, cpu);
			if (!t->runnable) {	/* missed its wakeup */
				t->since = now;
				set_runnable(m, pid, t, 1);
			}
			if (t->known) {
				m->wait_ns += now - t->since;
				if (t->wake_pending)
					hist_add(m, now - t->wake_at);
			}
			t->wake_pending = 0;
			t->running = 1;
			t->since = now;
		}
		if (!m->curr[cpu] != !pid) {
			m->nr_idle += pid ? -1 : 1;
			m->dirty_wc = 1;
		}
		m->curr[cpu] = pid;
		if ((prev && prev->known) || (t && t->known))
			wc_touch(m);
		break;
	case METRICS_EV_WAKEUP:
	case METRICS_EV_WAKEUP_NEW:
		t = task_get(m, pid);
		if (!t || arg < 0 || arg >= m->nr_cpus)
			break;
		set_cpu(m, t, arg);
		if (!t->running && !t->wake_pending) {
			t->wake_pending = 1;
			t->wake_at = now;
		}
		if (!t->running && !t->runnable)
			t->since = now;
		set_runnable(m, pid, t, 1);
		break;
	case METRICS_EV_MIGRATE:
		t = task_get(m, pid);
		if (!t || arg < 0 || arg >= m->nr_cpus)
			break;
		if (t->known && cpu != arg)
			m->migrations[level_of(m->topo, cpu, arg)]++;
		set_cpu(m, t, arg);
		break;
	}
}

void metrics_finish(struct metrics *m, uint64_t now,
		    struct metrics_result *out)
{
	double sum = 0, sum2 = 0, secs;
	int pid, l;

	metrics_advance(m, now);
	memset(out, 0, sizeof(*out));
	secs = (double)now / 1e9;
	if (now) {
		out->balance_score = (double)m->imbalance_int / (double)now;
		out->work_conservation = (double)m->wc_int /
			((double)now * (double)m->nr_cpus);
	}
	out->nr_wakeups = m->nr_wakeups;
	out->wakeup_p50_ns = hist_quantile(m, 0.50);
	out->wakeup_p99_ns = hist_quantile(m, 0.99);
	out->wakeup_max_ns = m->wakeup_max;
	out->runqueue_wait_ns = m->wait_ns;
	for (l = 0; l < METRICS_NR_LEVELS; l++) {
		out->migrations[l] = m->migrations[l];
		out->migrations_per_s[l] = secs > 0 ? (double)m->migrations[l] / secs : 0;
	}
	/* Jain's index of exec time / weight, pid order */
	for (pid = 1; pid < m->nr_pids; pid++) {
		struct metrics_task *t = &m->task[pid];
		double x;

		if (!t->known || t->cls != METRICS_FAIR || !t->weight)
			continue;
		if (t->running)
			t->exec_ns += now - t->since;
		x = (double)t->exec_ns * 1024.0 / (double)t->weight;
		sum += x;
		sum2 += x * x;
		out->nr_fair++;
	}
	out->fairness = out->nr_fair >= 2 && sum2 > 0 ?
		sum * sum / ((double)out->nr_fair * sum2) : 1.0;
}
