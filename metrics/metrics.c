// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scores of a run, online: the state the event stream describes
 * (which workload task is runnable where, what each CPU runs) is kept up
 * to date event by event, and so are the instantaneous imbalance and
 * work-conservation loss, which are integrated exactly (integers) over the
 * time until the next change.
 *
 * Each event costs O(1) when the tasks involved may run on every CPU:
 *  - the imbalance Σ (g_i − a_i)² over the sorted greedy loads g and
 *    sorted actual loads a changes by (g_i − x)² − (g_i − y)² for each
 *    entry that goes from y to x. A load that changes moves one entry of
 *    the sorted actual loads past the runs of loads strictly between its
 *    old and new value (usually none); each CPU knows the run of equal
 *    loads its own is in, so no search is needed;
 *  - while every runnable task is allowed everywhere and weighs the same,
 *    the greedy loads have a closed form, and a task more or less changes
 *    one entry of it; otherwise the greedy placement is redone (or taken
 *    from a cache) when time moves, and only the entries that differ
 *    change the imbalance;
 *  - an idle CPU loses work when a waiting task allowed there is queued
 *    elsewhere: counted per CPU, and the idle CPUs are counted by how many
 *    waiting tasks allowed everywhere they would need to lose work.
 * The imbalance is kept modulo 2^128, as the integrals: the results are
 * the same integers as a recomputation from scratch.
 */
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"

typedef unsigned __int128 u128;

_Static_assert(sizeof(struct metrics_task) % 64 == 0,
	       "a task's event state in the first cache line of its own");

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

static void task_grow(struct metrics *m, int pid);
static int level_of(const struct topology *topo, int a, int b);

/*
 * The groups of the largest sched domain (the one spanning every CPU):
 * the spans of the level below it (cores on an SMT machine of one
 * cluster). Each CPU gets the first CPU of its group; *@shared says
 * whether a group has more than one.
 */
static void top_groups(struct metrics *m, int *shared)
{
	int n = m->nr_cpus, top = 0, a, b;

	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++)
			if (level_of(m->topo, a, b) > top)
				top = level_of(m->topo, a, b);
	*shared = 0;
	for (a = 0; a < n; a++) {
		for (b = 0; b < a && level_of(m->topo, a, b) >= top; b++)
			;
		m->top_first[a] = n > 1 ? b : a;
		if (b < a)
			*shared = 1;
	}
}

int metrics_init(struct metrics *m, const struct topology *topo)
{
	int n = topo->nr_cpus, i;

	memset(m, 0, sizeof(*m));
	m->topo = topo;
	m->nr_cpus = n;
	m->mask_words = (n + 63) / 64;
	m->closed = 1;		/* no task: all zero */
	m->cpu = zalloc(n, sizeof(*m->cpu));
	m->sorted = zalloc(n, sizeof(*m->sorted));
	/* one run, slot 0: every CPU at 0 (and a slot for a run coming in) */
	m->run = zalloc(n + 1, sizeof(*m->run));
	m->run_free = zalloc(n + 1, sizeof(*m->run_free));
	m->run[0].end = n;
	m->run[0].prev = m->run[0].next = -1;
	for (i = n; i >= 1; i--)
		m->run_free[m->nr_free++] = i;
	m->greedy_sorted = zalloc(n, sizeof(*m->greedy_sorted));
	m->greedy = zalloc(n, sizeof(*m->greedy));
	m->fresh = zalloc(n, sizeof(*m->fresh));
	m->heap = zalloc(n, sizeof(*m->heap));
	task_grow(m, 1);	/* and by_need: need is 0 on every CPU, all idle */
	m->inv.window_ns = metrics_window(topo);
	m->inv.fork_window_ns = METRICS_FORK_WINDOW_NS;
	m->top_first = zalloc(n, sizeof(*m->top_first));
	top_groups(m, &i);
	m->inv.refused_ns = i ? m->inv.window_ns : 0;
	m->inv.bound_ns = METRICS_STARVATION_NS;
	return 0;
}

uint64_t metrics_window(const struct topology *topo)
{
	uint64_t exit = 0;
	int t, s;

	for (t = 0; t < topo->nr_types; t++)
		for (s = 0; s < topo->types[t].nr_states; s++)
			if (topo->types[t].states[s].exit_latency_ns > exit)
				exit = topo->types[t].states[s].exit_latency_ns;
	return METRICS_WINDOW_PER_CPU_NS * (uint64_t)topo->nr_cpus +
		METRICS_TICK_NS + 2 * exit;
}

void metrics_limits(struct metrics *m, uint64_t window_ns, uint64_t bound_ns)
{
	if (window_ns) {
		m->inv.window_ns = m->inv.fork_window_ns = window_ns;
		m->inv.refused_ns = 0;
	}
	if (bound_ns)
		m->inv.bound_ns = bound_ns;
}

void metrics_release(struct metrics *m)
{
	int i;

	free(m->task);
	free(m->group);
	for (i = 0; i < METRICS_CACHE; i++)
		free(m->cache[i].loads);
	free(m->cpu);
	free(m->sorted);
	free(m->run);
	free(m->run_free);
	free(m->greedy_sorted);
	free(m->greedy);
	free(m->fresh);
	free(m->heap);
	free(m->by_need);
	free(m->top_first);
	memset(m, 0, sizeof(*m));
}

/*
 * need[c] lies within ±(known tasks) < ±nr_pids: by_need spans that, and is
 * rebuilt from the idle CPUs when the pid table grows.
 */
static void by_need_resize(struct metrics *m, int cap)
{
	int c;

	free(m->by_need);
	m->by_need = zalloc((size_t)(2 * cap + 1), sizeof(*m->by_need));
	m->need_cap = cap;
	for (c = 0; c < m->nr_cpus; c++)
		if (!m->cpu[c].curr)
			m->by_need[m->cpu[c].need + cap]++;
}

static __attribute__((noinline)) void task_grow(struct metrics *m, int pid)
{
	int n = m->nr_pids ? m->nr_pids : 256, i;
	struct metrics_task *t;

	while (n <= pid)
		n *= 2;
	/* cache-line aligned, so that the first line of a task is its state */
	t = aligned_alloc(64, (size_t)n * sizeof(*t));
	if (!t)
		abort();
	if (m->nr_pids)
		memcpy(t, m->task, (size_t)m->nr_pids * sizeof(*t));
	free(m->task);
	m->task = t;
	memset(m->task + m->nr_pids, 0,
	       (size_t)(n - m->nr_pids) * sizeof(*m->task));
	for (i = m->nr_pids; i < n; i++)
		m->task[i].cpu = -1;
	m->nr_pids = n;
	by_need_resize(m, n);
}

static inline struct metrics_task *task_get(struct metrics *m, int pid)
{
	/* one test for the usual 0 < pid < nr_pids (nr_pids >= 256) */
	if ((unsigned int)pid - 1 >= (unsigned int)m->nr_pids - 1) {
		if (pid <= 0)
			return NULL;
		task_grow(m, pid);
	}
	return &m->task[pid];
}

static inline int allowed_on(const struct metrics_task *t, int c)
{
	return t->allowed[c / 64] >> (c % 64) & 1;
}

static inline int is_full(const struct metrics *m, const struct metrics_task *t)
{
	return t->nr_allowed == m->nr_cpus;
}

static inline int throttled_on(const struct metrics_task *t, int c)
{
	return t->throttled[c / 64] >> (c % 64) & 1;
}

/* ---- the sorted loads and the sums of the imbalance ---- */

/*
 * (g − x)² − (g − y)²: what the imbalance gains when the entry of one list
 * against g goes from y to x. Modulo 2^128, as the sums: exact whatever
 * the signs.
 */
static inline u128 sq_delta(uint64_t g, uint64_t y, uint64_t x)
{
	/* loads below 2^31 (every real run): one 64-bit product */
	if (!((g | y | x) >> 31))
		return (u128)(__int128)((int64_t)(y - x) *
					(int64_t)(2 * g - x - y));
	return ((u128)y - x) * (2 * (u128)g - x - y);
}

/* entry i of the greedy loads becomes x */
static inline void greedy_set(struct metrics *m, int i, uint64_t x)
{
	m->imbalance += sq_delta(m->sorted[i], m->greedy_sorted[i], x);
	m->greedy_sorted[i] = x;
}

/* A new run of value x ending at end, between runs prev and next. */
static int run_link(struct metrics *m, int prev, int next, uint64_t x, int end)
{
	int k = m->run_free[--m->nr_free];
	struct metrics_run *r = m->run;

	r[k].val = x;
	r[k].end = end;
	r[k].prev = prev;
	r[k].next = next;
	if (prev >= 0)
		r[prev].next = k;
	else
		m->run_head = k;
	if (next >= 0)
		r[next].prev = k;
	return k;
}

static void run_unlink(struct metrics *m, int k)
{
	struct metrics_run *r = m->run;
	int prev = r[k].prev, next = r[k].next;

	if (prev >= 0)
		r[prev].next = next;
	else
		m->run_head = next;
	if (next >= 0)
		r[next].prev = prev;
	m->run_free[m->nr_free++] = k;
}

/*
 * CPU c's actual load goes up from old to x: an entry equal to old leaves
 * the sorted loads and x comes in. The sorted loads are also kept as runs
 * of equal values, and each CPU knows the run of its load, so the entry
 * that leaves is the last of old's run, found without a search; the runs
 * strictly between old and x shift down by one place each.
 */
static __attribute__((noinline)) void sorted_up_across(struct metrics *m,
						       int c, uint64_t old,
						       uint64_t x)
{
	struct metrics_run *r = m->run;
	uint64_t *v = m->sorted, *g = m->greedy_sorted;
	uint64_t y = old;		/* the value the hole at h held */
	int k = m->cpu[c].run, last = k, h = r[k].end - 1, j = r[k].next, p;
	u128 imb = m->imbalance;

	for (; j >= 0 && r[j].val < x; j = r[j].next) {
		/* run j moves down one place into the hole */
		imb += sq_delta(g[h], y, r[j].val);
		v[h] = y = r[j].val;
		r[last].end = h;
		h = r[j].end - 1;
		last = j;
	}
	r[last].end = h;
	v[h] = x;
	m->imbalance = imb + sq_delta(g[h], y, x);
	m->cpu[c].run = j >= 0 && r[j].val == x ? j :
			run_link(m, last, j, x, h + 1);
	p = r[k].prev;
	if (r[k].end == (p >= 0 ? r[p].end : 0))
		run_unlink(m, k);
}

/* ... most often no run lies strictly between */
static inline __attribute__((always_inline)) void sorted_up(struct metrics *m, int c, uint64_t old,
			     uint64_t x)
{
	struct metrics_run *r = m->run;
	int k = m->cpu[c].run, j = r[k].next, h, p;

	if (j >= 0 && r[j].val < x) {
		sorted_up_across(m, c, old, x);
		return;
	}
	h = --r[k].end;
	m->sorted[h] = x;
	m->imbalance += sq_delta(m->greedy_sorted[h], old, x);
	m->cpu[c].run = j >= 0 && r[j].val == x ? j :
			run_link(m, k, j, x, h + 1);
	p = r[k].prev;
	if (h == (p >= 0 ? r[p].end : 0))
		run_unlink(m, k);
}

/* The same, down: the first entry of old's run leaves. */
static __attribute__((noinline)) void sorted_down_across(struct metrics *m,
							 int c, uint64_t old,
							 uint64_t x)
{
	struct metrics_run *r = m->run;
	uint64_t *v = m->sorted, *g = m->greedy_sorted;
	uint64_t y = old;
	int k = m->cpu[c].run, j = r[k].prev, h = j >= 0 ? r[j].end : 0, p;
	u128 imb = m->imbalance;

	while (j >= 0 && r[j].val > x) {
		/* run j moves up one place into the hole */
		p = r[j].prev;
		imb += sq_delta(g[h], y, r[j].val);
		v[h] = y = r[j].val;
		r[j].end = h + 1;
		h = p >= 0 ? r[p].end : 0;
		j = p;
	}
	v[h] = x;
	m->imbalance = imb + sq_delta(g[h], y, x);
	if (j >= 0 && r[j].val == x) {
		r[j].end = h + 1;
		m->cpu[c].run = j;
	} else {
		m->cpu[c].run = run_link(m, j, j >= 0 ? r[j].next :
					 m->run_head, x, h + 1);
	}
	if (r[k].end == r[r[k].prev].end)
		run_unlink(m, k);
}

static inline __attribute__((always_inline)) void sorted_down(struct metrics *m, int c, uint64_t old,
			       uint64_t x)
{
	struct metrics_run *r = m->run;
	int k = m->cpu[c].run, j = r[k].prev, h;

	if (j >= 0 && r[j].val > x) {
		sorted_down_across(m, c, old, x);
		return;
	}
	h = j >= 0 ? r[j].end : 0;
	m->sorted[h] = x;
	m->imbalance += sq_delta(m->greedy_sorted[h], old, x);
	if (j >= 0 && r[j].val == x) {
		r[j].end = h + 1;
		m->cpu[c].run = j;
	} else {
		m->cpu[c].run = run_link(m, j, k, x, h + 1);
	}
	if (r[k].end == h + 1)
		run_unlink(m, k);
}

/* A weight more (load_up) or less (load_down) on CPU c. */
static inline __attribute__((always_inline)) void load_up(struct metrics *m, int c, unsigned int w)
{
	uint64_t old;

	if ((unsigned int)c >= (unsigned int)m->nr_cpus)
		return;
	m->cpu[c].nr++;
	if (!w)
		return;
	old = m->cpu[c].load;
	m->cpu[c].load = old + w;
	sorted_up(m, c, old, old + w);
}

static inline __attribute__((always_inline)) void load_down(struct metrics *m, int c, unsigned int w)
{
	uint64_t old;

	if ((unsigned int)c >= (unsigned int)m->nr_cpus)
		return;
	m->cpu[c].nr--;
	if (!w)
		return;
	old = m->cpu[c].load;
	m->cpu[c].load = old - w;
	sorted_down(m, c, old, old - w);
}

/* ---- the greedy reference ---- */

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

/* a min-heap of CPUs by (load, cpu) */
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

/* The greedy placement of the groups, sorted, into m->fresh. */
static void greedy_place_groups(struct metrics *m)
{
	int i, j, c, C = m->nr_cpus, heaped = 0;

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
	memcpy(m->fresh, m->greedy, (size_t)C * sizeof(*m->greedy));
	sort_loads(m->fresh, C);
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

/* The greedy loads of the groups into m->fresh, from the cache if it can. */
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
		memcpy(m->fresh, e->loads, C * sizeof(*e->loads));
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
	memcpy(e->loads, m->fresh, C * sizeof(*e->loads));
}

/* Redo the greedy loads from the groups; the imbalance follows the change. */
static __attribute__((noinline)) void greedy_refresh(struct metrics *m)
{
	int c, C = m->nr_cpus;

	m->dirty_greedy = 0;
	if (!m->nr_group ||
	    (m->nr_group == 1 && m->group[0].nr_allowed == C)) {
		/*
		 * Every task may run anywhere and all weigh the same: n / C on
		 * each CPU, one more on n % C of them (already ascending).
		 * Kept in place from now on.
		 */
		int n = m->nr_group ? m->group[0].count : 0;
		uint64_t w = m->nr_group ? m->group[0].weight : 0;
		uint64_t q = (uint64_t)(n / C);
		int r = n % C;

		for (c = 0; c < C; c++)
			m->fresh[c] = (q + (c >= C - r)) * w;
		m->closed = 1;
		m->closed_w = (unsigned int)w;
		m->closed_r = r;
	} else {
		greedy_place(m);
	}
	for (c = 0; c < C; c++)
		if (m->fresh[c] != m->greedy_sorted[c])
			greedy_set(m, c, m->fresh[c]);
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

static void group_insert(struct metrics *m, int i, int nr_allowed,
			 unsigned int weight, const uint64_t *mask, int count)
{
	if (m->nr_group == m->cap_group) {
		m->cap_group = m->cap_group ? 2 * m->cap_group : 16;
		m->group = realloc(m->group,
				   (size_t)m->cap_group * sizeof(*m->group));
		if (!m->group)
			abort();
	}
	memmove(m->group + i + 1, m->group + i,
		(size_t)(m->nr_group - i) * sizeof(*m->group));
	m->group[i].nr_allowed = nr_allowed;
	m->group[i].weight = weight;
	m->group[i].count = count;
	memcpy(m->group[i].mask, mask, sizeof(m->group[i].mask));
	m->nr_group++;
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
	group_insert(m, i, t->nr_allowed, t->weight, t->allowed, delta);
}

/* A task joins (sign 1) or leaves (-1) the runnable set of the greedy. */
static __attribute__((noinline)) void greedy_add(struct metrics *m,
						 const struct metrics_task *t,
						 int sign)
{
	int C = m->nr_cpus, n = m->nr_rq;

	m->nr_rq += sign;
	if (m->closed && is_full(m, t) && (!n || t->weight == m->closed_w)) {
		/* the closed form of n ± 1 tasks differs in one entry */
		int r = m->closed_r, i;

		m->closed_w = t->weight;
		if (sign > 0) {
			i = C - 1 - r;
			m->closed_r = r + 1 == C ? 0 : r + 1;
			greedy_set(m, i, m->greedy_sorted[i] + t->weight);
		} else {
			i = r ? C - r : 0;
			m->closed_r = r ? r - 1 : C - 1;
			greedy_set(m, i, m->greedy_sorted[i] - t->weight);
		}
		return;
	}
	if (m->closed) {
		/* the groups were not kept: they are one, or none */
		uint64_t full[METRICS_MASK_WORDS] = { 0 };
		int c;

		m->nr_group = 0;
		if (n) {
			for (c = 0; c < C; c++)
				full[c / 64] |= 1ULL << (c % 64);
			group_insert(m, 0, C, m->closed_w, full, n);
		}
		m->closed = 0;
	}
	group_add(m, t, sign);
	m->dirty_greedy = 1;
}

/* ... inline while the closed form holds and stays */
static inline void greedy_up(struct metrics *m, const struct metrics_task *t)
{
	int r = m->closed_r, i = m->nr_cpus - 1 - r;

	if (!m->closed || !is_full(m, t) ||
	    (m->nr_rq && t->weight != m->closed_w)) {
		greedy_add(m, t, 1);
		return;
	}
	m->nr_rq++;
	m->closed_w = t->weight;
	m->closed_r = i ? r + 1 : 0;
	greedy_set(m, i, m->greedy_sorted[i] + t->weight);
}

static inline void greedy_down(struct metrics *m,
			       const struct metrics_task *t)
{
	int r = m->closed_r, i = r ? m->nr_cpus - r : 0;

	if (!m->closed || !is_full(m, t) || t->weight != m->closed_w) {
		greedy_add(m, t, -1);
		return;
	}
	m->nr_rq--;
	m->closed_r = r ? r - 1 : m->nr_cpus - 1;
	greedy_set(m, i, m->greedy_sorted[i] - t->weight);
}

/* ---- work conservation ---- */

/* need[c] changes by d */
static inline void need_add(struct metrics *m, int c, int d)
{
	int a = m->cpu[c].need, b = a + d;

	m->cpu[c].need = b;
	if (!m->cpu[c].curr) {
		m->by_need[a + m->need_cap]--;
		m->by_need[b + m->need_cap]++;
		m->wc_cpus += (b < m->wait_full) - (a < m->wait_full);
	}
}

static void balance_refused(struct metrics *m, int c);

/* CPU c goes idle (on 1) or busy (on 0) */
static void idle_set(struct metrics *m, int c, int on)
{
	int lost = m->cpu[c].need < m->wait_full;

	if (!on && m->ep_on)
		balance_refused(m, c);
	m->cpu[c].refused = 0;

	m->by_need[m->cpu[c].need + m->need_cap] += on ? 1 : -1;
	m->wc_cpus += on ? lost : -lost;
}

/* A waiting task with a narrower mask joins (d 1) or leaves (-1) the pool */
static __attribute__((noinline)) void
wait_pool_narrow(struct metrics *m, const struct metrics_task *t, int d)
{
	int w;

	for (w = 0; w < m->mask_words; w++) {
		uint64_t bits = t->allowed[w];

		while (bits) {
			int c = w * 64 + __builtin_ctzll(bits);

			bits &= bits - 1;
			need_add(m, c, -d);
		}
	}
}

/*
 * A waiting task joins (d 1) or leaves (-1) the tasks that could move:
 * one allowed everywhere moves the idle CPUs whose need equals the count
 * of such tasks to the other side.
 */
static inline void wait_pool(struct metrics *m, const struct metrics_task *t,
			     int d)
{
	if (!is_full(m, t))
		wait_pool_narrow(m, t, d);
	else if (d > 0)
		m->wc_cpus += m->by_need[m->wait_full++ + m->need_cap];
	else
		m->wc_cpus -= m->by_need[--m->wait_full + m->need_cap];
}

/* ... and is queued on CPU c (it could not move there) */
static inline void wait_on(struct metrics *m, const struct metrics_task *t,
			   int c, int d)
{
	if ((unsigned int)c < (unsigned int)m->nr_cpus &&
	    (is_full(m, t) || allowed_on(t, c)))
		need_add(m, c, d);
}

/* ---- the state the events describe ---- */

/*
 * A task's runnable and running flags and CPU become these; the loads,
 * the greedy set and the waiting tasks follow when it is a workload task.
 */
static __attribute__((noinline)) void task_set(struct metrics *m,
					       struct metrics_task *t,
					       int runnable, int running,
					       int cpu)
{
	int was_wait, now_wait, old_cpu = t->cpu;

	runnable = !!runnable;
	running = !!running;
	if (!t->known) {
		t->runnable = runnable;
		t->running = running;
		t->cpu = cpu;
		return;
	}
	was_wait = t->runnable && !t->running;
	now_wait = runnable && !running;
	if (was_wait && (!now_wait || cpu != t->cpu))
		wait_on(m, t, t->cpu, -1);
	if (was_wait && !now_wait)
		wait_pool(m, t, -1);
	if (t->runnable && runnable) {
		if (cpu != t->cpu) {
			load_down(m, t->cpu, t->weight);
			load_up(m, cpu, t->weight);
		}
	} else if (runnable) {
		load_up(m, cpu, t->weight);
		greedy_add(m, t, 1);
	} else if (t->runnable) {
		load_down(m, t->cpu, t->weight);
		greedy_add(m, t, -1);
	}
	if (now_wait && !was_wait)
		wait_pool(m, t, 1);
	t->runnable = runnable;
	t->running = running;
	t->cpu = cpu;
	if (now_wait && (!was_wait || cpu != old_cpu))
		wait_on(m, t, cpu, 1);
}

/* ---- invariants ---- */

/*
 * The first idle-while-waiting episode past the window, as the state
 * still is: an idle CPU that loses work and a waiting task that may run
 * there, queued elsewhere.
 */
static void idle_first(struct metrics *m)
{
	struct metrics_violation *v = &m->inv.idle_first;
	int c, pid;

	v->seen = 1;
	v->time_ns = m->ep_start;
	v->cpu = v->cpu2 = v->pid = -1;
	for (c = 0; c < m->nr_cpus; c++)
		if (!m->cpu[c].curr && m->cpu[c].need < m->wait_full)
			break;
	for (pid = 1; c < m->nr_cpus && pid < m->nr_pids; pid++) {
		const struct metrics_task *t = &m->task[pid];

		if (t->known && t->runnable && !t->running && t->cpu != c &&
		    (is_full(m, t) || allowed_on(t, c))) {
			v->cpu = c;
			v->cpu2 = t->cpu;
			v->pid = pid;
			return;
		}
	}
}

/*
 * Idle CPU c goes busy during an episode. The kernel balances a sched
 * group from one idle CPU: should_we_balance() lets only the group's
 * first idle CPU balance the domain, and the balance of another idle CPU
 * of the group is refused, yet still doubles its sd->balance_interval,
 * up to max_interval (sched_balance_rq(): out_balanced, "tune up the
 * balancing interval"). When that first CPU pulls a task for itself (the
 * idle balance runs the refused CPU's, then its own) and goes busy, an
 * idle CPU after it in the group, losing work, waits a whole
 * max_interval from then. Such CPUs are marked; when, at the end of the
 * episode's window, every CPU losing work is one (refused_check()), the
 * window runs from the last mark instead. Only the balancer's window,
 * not a fork's, and only marks made within it. Seen on quad-smt: CPU 4
 * refused beside idle CPU 0, which pulled a task, then CPU 4's next
 * balance of the MC domain 16 ms later (periodic-d50-p100ms-x2.0,
 * barrier-w50ms-even-x2.0 on v7.3.4).
 */
static __attribute__((noinline)) void balance_refused(struct metrics *m,
						      int c)
{
	int d, g = m->top_first[c];
	uint64_t w = m->last - m->ep_start + m->inv.window_ns;

	if (!m->inv.refused_ns || m->ep_fork ||
	    m->last - m->ep_start > m->ep_window)
		return;
	for (d = c + 1; d < m->nr_cpus; d++)
		if (m->top_first[d] == g && !m->cpu[d].curr &&
		    m->cpu[d].need < m->wait_full) {
			m->cpu[d].refused = m->ep_seq;
			m->ep_check = 1;
			if (w > m->ep_ext)
				m->ep_ext = w;
		}
}

/*
 * The episode reaches the end of its window (the state is the one at
 * that instant): if every CPU losing work was refused its balance in it,
 * the window is the last refusal's.
 */
static void refused_check(struct metrics *m)
{
	int c;

	m->ep_check = 0;
	for (c = 0; c < m->nr_cpus; c++)
		if (!m->cpu[c].curr && m->cpu[c].need < m->wait_full &&
		    m->cpu[c].refused != m->ep_seq)
			return;
	if (m->ep_ext > m->ep_window)
		m->ep_window = m->ep_ext;
}

/* An idle-while-waiting episode of @len ended (or the run did). */
static void episode_end(struct metrics *m, uint64_t len)
{
	struct metrics_invariants *inv = &m->inv;

	m->ep_on = 0;
	if (len <= m->ep_window)
		return;
	inv->idle_count++;
	inv->idle_ns += len;
	if (!inv->idle_first.length_ns)
		inv->idle_first.length_ns = len;
}

/*
 * An episode of at least one CPU losing work begins or ends (at the last
 * event: the state has not changed since), or one in progress passes the
 * window before any other did. An episode a fork began (the new task
 * placed where it waits beside an idle CPU it may use) has the fork
 * window: the kernel places a new task by searching every domain with
 * SD_BALANCE_FORK for the idlest group and CPU at once (wake_up_new_task(),
 * sched_balance_find_dst_cpu()), so no balance interval excuses it. Any
 * other has the balancer's window (metrics_window()).
 */
static __attribute__((noinline)) void episode(struct metrics *m, uint64_t now)
{
	struct metrics_invariants *inv = &m->inv;

	if (!m->ep_on && m->wc_cpus) {
		m->ep_on = 1;
		m->ep_start = m->last;
		m->ep_fork = m->fork_mark == m->last + 1;
		m->ep_window = m->ep_fork ? inv->fork_window_ns :
			inv->window_ns;
		m->ep_seq++;
		m->ep_check = 0;
		m->ep_ext = 0;
	} else if (m->ep_on && !m->wc_cpus) {
		episode_end(m, m->last - m->ep_start);
		return;
	}
	if (m->ep_check && now - m->ep_start > m->ep_window)
		refused_check(m);
	if (m->ep_on && !inv->idle_first.seen &&
	    now - m->ep_start > m->ep_window)
		idle_first(m);
}

/* A workload task waited @wait before it ran (or until the end). */
static __attribute__((noinline)) void starved(struct metrics *m,
					      const struct metrics_task *t,
					      uint64_t wait)
{
	struct metrics_violation *v = &m->inv.starved_first;

	m->inv.starved_count++;
	if (wait > m->inv.starved_max_ns)
		m->inv.starved_max_ns = wait;
	if (v->seen)
		return;
	*v = (struct metrics_violation){ 1, t->cpu, -1, (int)(t - m->task),
					 t->since, wait };
}

/*
 * Integrate up to now. Half the events come at the instant of the one
 * before: nothing to add then, but adding 0 costs less than a branch
 * that goes either way.
 */
static inline void advance(struct metrics *m, uint64_t now)
{
	uint64_t last = m->last, dt;

	if (__builtin_expect(m->ep_on ? !m->wc_cpus || !m->inv.idle_first.seen ||
			     m->ep_check : m->wc_cpus != 0, 0))
		episode(m, now);
	if (__builtin_expect(m->dirty_greedy, 0) && now > last)
		greedy_refresh(m);
	dt = (now - last) & -(uint64_t)(now > last);
	m->imbalance_int += m->imbalance * dt;
	m->wc_int += (u128)(uint64_t)m->wc_cpus * dt;
	m->last = last + dt;
}

void metrics_advance(struct metrics *m, uint64_t now)
{
	advance(m, now);
}

/* Where it may run: its affinity, less the CPUs its group is throttled on. */
static void mask_apply(struct metrics *m, struct metrics_task *t)
{
	int w;

	t->nr_allowed = 0;
	for (w = 0; w < METRICS_MASK_WORDS; w++) {
		t->allowed[w] = t->affinity[w] & ~t->throttled[w];
		t->nr_allowed += __builtin_popcountll(t->allowed[w]);
	}
	(void)m;
}

static inline int affine_on(const struct metrics_task *t, int c)
{
	return t->affinity[c / 64] >> (c % 64) & 1;
}

static void set_mask(struct metrics *m, struct metrics_task *t,
		     int nr_allowed, const int *allowed)
{
	int i;

	memset(t->affinity, 0, sizeof(t->affinity));
	if (nr_allowed <= 0) {
		for (i = 0; i < m->nr_cpus; i++)
			t->affinity[i / 64] |= 1ULL << (i % 64);
	}
	for (i = 0; i < nr_allowed; i++) {
		int c = allowed[i];

		if (c < 0 || c >= m->nr_cpus || affine_on(t, c))
			continue;
		t->affinity[c / 64] |= 1ULL << (c % 64);
	}
	mask_apply(m, t);
}

/*
 * A new task was placed at @now: when that made a CPU lose work (@was:
 * m->wc_cpus before), the episode it begins at the next advance() is a
 * fork's (see episode()).
 */
static void fork_placed(struct metrics *m, int was, uint64_t now)
{
	if (!was && m->wc_cpus && !m->ep_on)
		m->fork_mark = now + 1;
}

void metrics_task(struct metrics *m, uint64_t now, int pid, int cls,
		  unsigned int weight, int nr_allowed, const int *allowed)
{
	struct metrics_task *t = task_get(m, pid);
	int runnable, running, was = m->wc_cpus, fresh;

	if (!t)
		return;
	metrics_advance(m, now);
	runnable = t->runnable;
	running = t->running;
	fresh = !t->known;
	if (t->known)
		task_set(m, t, 0, 0, t->cpu);
	t->runnable = t->running = 0;	/* in no set yet */
	t->known = 1;
	t->cls = cls;
	t->weight = weight;
	set_mask(m, t, nr_allowed, allowed);
	task_set(m, t, runnable, running, t->cpu);
	/* known from its fork on: the fork's placement (see episode()) */
	if (fresh && runnable && !running)
		fork_placed(m, was, now);
}

void metrics_affinity(struct metrics *m, uint64_t now, int pid,
		      int nr_allowed, const int *allowed)
{
	struct metrics_task *t = task_get(m, pid);
	int runnable, running;

	if (!t || !t->known)
		return;
	metrics_advance(m, now);
	runnable = t->runnable;
	running = t->running;
	task_set(m, t, 0, 0, t->cpu);
	set_mask(m, t, nr_allowed, allowed);
	task_set(m, t, runnable, running, t->cpu);
}

void metrics_weight(struct metrics *m, uint64_t now, int pid,
		    unsigned int weight)
{
	struct metrics_task *t = task_get(m, pid);
	int runnable, running;

	if (!t || !t->known)
		return;
	metrics_advance(m, now);
	runnable = t->runnable;
	running = t->running;
	task_set(m, t, 0, 0, t->cpu);
	t->weight = weight;
	task_set(m, t, runnable, running, t->cpu);
}

/* The lowest domain level spanning two CPUs. */
static int level_of(const struct topology *topo, int a, int b)
{
	const struct topology_cpu *x = &topo->cpu[a], *y = &topo->cpu[b];

	/* the kernel's PKG (DIE) level spans a NUMA node, packages and all */
	if (x->node != y->node)
		return METRICS_NUMA;
	if (x->package != y->package || x->cluster != y->cluster)
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
	m->hist[idx].count++;
	if (v > m->hist[idx].max)
		m->hist[idx].max = v;
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
		seen += m->hist[i].count;
		if (seen >= want)
			return m->hist[i].max;
	}
	return m->wakeup_max;
}

static void held_move(struct metrics *m, uint64_t now,
		      struct metrics_task *t, int cpu);

/*
 * The events in their usual form take the short ways below; anything else
 * (kernel threads, tasks seen before they were known, a wakeup of a task
 * still queued...) goes through task_set(), which covers every case.
 */
static inline void ev_switch_out(struct metrics *m, uint64_t now,
				 struct metrics_task *t, long state)
{
	if (t->running) {
		t->exec_ns += now - t->since;
		t->since = now;
	}
	/*
	 * not runnable where its group is throttled: held there; a task that
	 * went to sleep as its group used up the quota is asleep, not held
	 */
	t->held = state == METRICS_PREV_HELD && !is_full(m, t) &&
		  (unsigned int)t->cpu < (unsigned int)m->nr_cpus &&
		  throttled_on(t, t->cpu);
	if (!t->known || !t->running || !t->runnable) {
		task_set(m, t, state == METRICS_PREV_RUNNABLE, 0, t->cpu);
		return;
	}
	t->running = 0;
	if (state == METRICS_PREV_RUNNABLE) {	/* preempted: waits where it is */
		wait_pool(m, t, 1);
		wait_on(m, t, t->cpu, 1);
	} else {			/* blocked */
		t->runnable = 0;
		load_down(m, t->cpu, t->weight);
		greedy_down(m, t);
	}
}

static inline void ev_switch_in(struct metrics *m, uint64_t now,
				struct metrics_task *t, int cpu)
{
	if (!t->runnable)		/* missed its wakeup */
		t->since = now;
	t->held = 0;
	if (t->known && t->runnable && !t->running && t->cpu == cpu) {
		wait_on(m, t, cpu, -1);
		wait_pool(m, t, -1);
		t->running = 1;
	} else {
		task_set(m, t, 1, 1, cpu);
	}
	if (t->known) {
		m->wait_ns += now - t->since;
		if (t->wake_pending)
			hist_add(m, now - t->wake_at);
		if (__builtin_expect(now - t->since > m->inv.bound_ns, 0))
			starved(m, t, now - t->since);
	}
	t->wake_pending = 0;
	t->since = now;
}

static inline void ev_wakeup(struct metrics *m, uint64_t now,
			     struct metrics_task *t, int cpu)
{
	if (t->running) {
		task_set(m, t, 1, 1, cpu);
		return;
	}
	if (__builtin_expect(!is_full(m, t) && throttled_on(t, cpu), 0)) {
		held_move(m, now, t, cpu);	/* woken where it is held */
		return;
	}
	if (!t->wake_pending) {
		t->wake_pending = 1;
		t->wake_at = now;
	}
	if (t->runnable || !t->known) {
		if (!t->runnable)
			t->since = now;
		task_set(m, t, 1, 0, cpu);
		return;
	}
	t->since = now;
	t->runnable = 1;
	t->cpu = cpu;
	load_up(m, cpu, t->weight);
	greedy_up(m, t);
	wait_pool(m, t, 1);
	wait_on(m, t, cpu, 1);
}

/*
 * @t's group is throttled on @cpu (@on), or no longer: the kernel's
 * throttle_cfs_rq() and unthrottle_cfs_rq() (no tracepoint). The load
 * balancer moves no task to a CPU its group is throttled on
 * (can_migrate_task(): throttled_lb_pair(), 7.x's lb_throttled_hierarchy()),
 * so that CPU is not one it may run on; and on its own CPU it is held:
 * queued, but not runnable for the scores (no load, not waiting, not
 * starving) until the group is unthrottled there, when it waits for a
 * CPU again. A pending wakeup of a held task is no latency sample: it
 * waited for quota, not for the scheduler. The task running there is
 * switched out held (ev_switch_out()).
 */
static __attribute__((noinline)) void ev_throttle(struct metrics *m,
						  uint64_t now,
						  struct metrics_task *t,
						  int cpu, int on)
{
	int runnable = t->runnable, running = t->running;

	if (throttled_on(t, cpu) == on)
		return;
	task_set(m, t, 0, 0, t->cpu);
	t->throttled[cpu / 64] ^= 1ULL << (cpu % 64);
	mask_apply(m, t);
	if (cpu == t->cpu && on && runnable && !running) {
		t->held = 1;
		t->wake_pending = 0;
		runnable = 0;
	} else if (cpu == t->cpu && !on && t->held) {
		t->held = 0;
		t->since = now;
		runnable = 1;
	}
	task_set(m, t, runnable, running, t->cpu);
}

/*
 * A held task (or one woken or moved where its group is throttled) comes
 * to @cpu: held there, or queued and waiting.
 */
static __attribute__((noinline)) void held_move(struct metrics *m,
						uint64_t now,
						struct metrics_task *t, int cpu)
{
	if (throttled_on(t, cpu)) {
		t->held = 1;
		t->wake_pending = 0;
		task_set(m, t, 0, 0, cpu);
		return;
	}
	t->held = 0;
	t->since = now;
	task_set(m, t, 1, 0, cpu);
}

static int level_of(const struct topology *topo, int a, int b);

/*
 * A migration the CPUs alone call useless, from @from to @to: whether
 * the sched groups the kernel balanced between say so too. The balancer
 * compares the groups of the lowest domain spanning both CPUs
 * (cores at MC, clusters at PKG, nodes at NUMA) and may pull into any CPU
 * of the destination group (LBF_DST_PINNED picks another when the task
 * may not run on the first): useless when the destination's group has
 * more runnable workload tasks and more weight per CPU than the source's.
 */
static __attribute__((noinline)) int useless_groups(const struct metrics *m,
						    int from, int to)
{
	int level = level_of(m->topo, from, to), c, n_from = 0, n_to = 0;
	u128 nr_from = 0, nr_to = 0, w_from = 0, w_to = 0;

	if (level == METRICS_SMT)
		return 1;		/* the groups are the CPUs */
	for (c = 0; c < m->nr_cpus; c++) {
		if (level_of(m->topo, c, from) < level) {
			n_from++;
			nr_from += (unsigned int)m->cpu[c].nr;
			w_from += m->cpu[c].load;
		} else if (level_of(m->topo, c, to) < level) {
			n_to++;
			nr_to += (unsigned int)m->cpu[c].nr;
			w_to += m->cpu[c].load;
		}
	}
	return nr_to * n_from > nr_from * n_to && w_to * n_from > w_from * n_to;
}

static inline void ev_migrate(struct metrics *m, uint64_t now,
			      struct metrics_task *t, int cpu)
{
	int from = t->cpu;

	if (__builtin_expect(t->held || (!is_full(m, t) && !t->running &&
					 t->runnable && throttled_on(t, cpu)), 0)) {
		held_move(m, now, t, cpu);
		return;
	}
	if (!t->known || !t->runnable || t->running || from == cpu) {
		task_set(m, t, t->runnable, t->running, cpu);
		return;
	}
	/*
	 * A waiting task moves: useless when to a CPU busier than the one it
	 * leaves, both before the move, by the number of runnable tasks and
	 * by their weight, unless it may no longer stay there. The kernel
	 * balances by either: by weighted load between overloaded groups
	 * (migrate_load: a CPU with more tasks of lower nice weight can be
	 * the less loaded), by the number of tasks or utilisation where
	 * there is spare capacity (migrate_task, migrate_util). A move that
	 * is wrong by both measures is useless whichever it used, between
	 * the CPUs and between their groups (useless_groups()).
	 */
	if (__builtin_expect(m->cpu[cpu].nr > m->cpu[from].nr, 0) &&
	    m->cpu[cpu].load > m->cpu[from].load &&
	    (is_full(m, t) || allowed_on(t, from)) &&
	    useless_groups(m, from, cpu)) {
		struct metrics_violation *v = &m->inv.useless_first;

		if (!m->inv.useless_count++)
			*v = (struct metrics_violation){ 1, from, cpu,
							 (int)(t - m->task),
							 m->last, 0 };
	}
	wait_on(m, t, from, -1);
	load_down(m, from, t->weight);
	load_up(m, cpu, t->weight);
	t->cpu = cpu;
	wait_on(m, t, cpu, 1);
}

void metrics_event(struct metrics *m, uint64_t now, int kind, int cpu,
		   int pid, int arg, long state)
{
	struct metrics_task *t;

	if ((unsigned int)cpu >= (unsigned int)m->nr_cpus)
		return;
	advance(m, now);
	switch (kind) {
	case METRICS_EV_SWITCH:
		t = task_get(m, arg);
		if (t)
			ev_switch_out(m, now, t, state);
		t = task_get(m, pid);
		if (t)
			ev_switch_in(m, now, t, cpu);
		if (!m->cpu[cpu].curr != !pid)
			idle_set(m, cpu, !pid);
		m->cpu[cpu].curr = pid;
		break;
	case METRICS_EV_WAKEUP:
		t = task_get(m, pid);
		if (t && (unsigned int)arg < (unsigned int)m->nr_cpus)
			ev_wakeup(m, now, t, arg);
		break;
	case METRICS_EV_WAKEUP_NEW:
		t = task_get(m, pid);
		if (t && (unsigned int)arg < (unsigned int)m->nr_cpus) {
			int was = m->wc_cpus;

			ev_wakeup(m, now, t, arg);
			fork_placed(m, was, now);
		}
		break;
	case METRICS_EV_MIGRATE:
		t = task_get(m, pid);
		if (!t || (unsigned int)arg >= (unsigned int)m->nr_cpus)
			break;
		if (t->known && cpu != arg)
			m->migrations[level_of(m->topo, cpu, arg)]++;
		ev_migrate(m, now, t, arg);
		break;
	case METRICS_EV_THROTTLE:
	case METRICS_EV_UNTHROTTLE:
		t = task_get(m, pid);
		if (!t || (unsigned int)arg >= (unsigned int)m->nr_cpus)
			break;
		ev_throttle(m, now, t, arg, kind == METRICS_EV_THROTTLE);
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
	/* what is still going on at the end counts as it stands */
	if (m->ep_on)
		episode_end(m, now - m->ep_start);
	for (pid = 1; pid < m->nr_pids; pid++) {
		const struct metrics_task *t = &m->task[pid];

		if (t->known && t->runnable && !t->running &&
		    now - t->since > m->inv.bound_ns)
			starved(m, t, now - t->since);
	}
	out->inv = m->inv;
}
