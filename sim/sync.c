// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app's synchronisation objects as plain structures: a waiter puts
 * itself on a list and sleeps through the kernel (lk_task_sleep(0)) until
 * its flag says it was taken off; the waker clears it off the list, sets
 * the flag and wakes it through the kernel's own wakeup path. One host
 * thread runs everything, so nothing needs a host lock; the flag covers a
 * wakeup that comes before the waiter is asleep, and a stray one.
 *
 * With rt-app's pi_enabled, mutexes are PI mutexes as the kernel's
 * rt_mutex makes them: waiters queue by priority (first come first among
 * equals; a heap, not the list), and a holder runs at the priority of its
 * best waiter, through the revision's rt_mutex_setprio() (lk_task_pi()),
 * along the whole chain of holders waiting in turn. Without it, a mutex
 * is a plain FIFO one.
 */
#include <stdlib.h>

#include <asm/door.h>

#include "sim/sim_internal.h"

static void enqueue(struct sim_res *r, struct sim_task *t)
{
	t->woken = 0;
	t->wait_next = NULL;
	if (r->tail)
		r->tail->wait_next = t;
	else
		r->head = t;
	r->tail = t;
}

static struct sim_task *dequeue(struct sim_res *r)
{
	struct sim_task *t = r->head;

	if (!t)
		return NULL;
	r->head = t->wait_next;
	if (!r->head)
		r->tail = NULL;
	t->wait_next = NULL;
	t->woken = 1;
	return t;
}

static void wait_woken(struct sim_task *t)
{
	while (!t->woken)
		lk_task_sleep(0);
}

/* ---- priority inheritance ---- */

#define PI_MAX_CHAIN 1024	/* the kernel's max_lock_depth */

static int prio_of(struct sim_task *t)
{
	struct linsched_task_stats st;

	lk_task_stats(t->ktask, &st);
	return st.prio;
}

/*
 * A PI mutex's waiters are a binary heap ordered as the kernel's rbtree
 * of rt_mutex_waiters: by the priority each was queued at, then by order
 * of arrival (a requeue arrives anew, after its equals). Queueing,
 * requeueing and taking the first cost O(log n) in the waiters.
 */
static uint64_t pi_arrivals;

static int pi_before(const struct sim_task *a, const struct sim_task *b)
{
	return a->wprio < b->wprio ||
	       (a->wprio == b->wprio && a->warrival < b->warrival);
}

static void pi_place(struct sim_res *m, size_t i, struct sim_task *t)
{
	m->pi[i] = t;
	t->pi_idx = i;
}

static void pi_sift_up(struct sim_res *m, size_t i)
{
	struct sim_task *t = m->pi[i];

	while (i && pi_before(t, m->pi[(i - 1) / 2])) {
		pi_place(m, i, m->pi[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	pi_place(m, i, t);
}

static void pi_sift_down(struct sim_res *m, size_t i)
{
	struct sim_task *t = m->pi[i];
	size_t c;

	while ((c = 2 * i + 1) < m->nr_pi) {
		if (c + 1 < m->nr_pi && pi_before(m->pi[c + 1], m->pi[c]))
			c++;
		if (!pi_before(m->pi[c], t))
			break;
		pi_place(m, i, m->pi[c]);
		i = c;
	}
	pi_place(m, i, t);
}

/*
 * Queue @t at @prio, after the waiters of its own or a better one. The
 * priority stays with the waiter, as the kernel's rt_mutex_waiter keeps
 * it, until a chain walk requeues it.
 */
static void enqueue_prio(struct sim_res *m, struct sim_task *t, int prio)
{
	if (m->nr_pi == m->cap_pi) {
		m->cap_pi = m->cap_pi ? 2 * m->cap_pi : 8;
		m->pi = realloc(m->pi, m->cap_pi * sizeof(*m->pi));
		if (!m->pi)
			sim_die("out of memory for mutex waiters");
	}
	t->wprio = prio;
	t->warrival = ++pi_arrivals;
	pi_place(m, m->nr_pi++, t);
	pi_sift_up(m, t->pi_idx);
}

static void unqueue(struct sim_res *m, struct sim_task *t)
{
	size_t i = t->pi_idx;
	struct sim_task *last = m->pi[--m->nr_pi];

	if (last == t)
		return;
	pi_place(m, i, last);
	if (i && pi_before(last, m->pi[(i - 1) / 2]))
		pi_sift_up(m, i);
	else
		pi_sift_down(m, i);
}

static struct sim_task *first_waiter(const struct sim_res *m)
{
	return m->nr_pi ? m->pi[0] : NULL;
}

/* The best first waiter of the mutexes @t holds: whom it inherits from. */
static struct sim_task *top_donor(struct sim_task *t)
{
	struct sim_task *best = NULL, *w;
	struct sim_res *m;

	for (m = t->held; m; m = m->held_next)
		if ((w = first_waiter(m)) && (!best || w->wprio < best->wprio))
			best = w;
	return best;
}

/*
 * @owner's waiters changed: boost or deboost it, and when it waits for a
 * mutex itself at a priority that changed, requeue it there and go on
 * with that mutex's holder. A waiter whose priority stays keeps its place
 * among its equals, and the walk ends there, as the kernel's
 * rt_mutex_adjust_prio_chain() ends it: nothing further changes.
 */
static void pi_adjust(struct sim_task *owner)
{
	int depth, prio;

	for (depth = 0; owner && depth < PI_MAX_CHAIN; depth++) {
		struct sim_task *donor = top_donor(owner);
		struct sim_res *m = owner->blocked_on;

		lk_task_pi(owner->ktask, donor ? donor->ktask : NULL);
		if (!m)
			return;
		prio = prio_of(owner);
		if (prio == owner->wprio)
			return;
		unqueue(m, owner);
		enqueue_prio(m, owner, prio);
		owner = m->owner;
	}
}

static void hold(struct sim_res *m, struct sim_task *t)
{
	m->owner = t;
	m->held_next = t->held;
	t->held = m;
}

static void release(struct sim_res *m, struct sim_task *t)
{
	struct sim_res **pp;

	for (pp = &t->held; *pp; pp = &(*pp)->held_next)
		if (*pp == m) {
			*pp = m->held_next;
			break;
		}
	m->held_next = NULL;
	m->owner = NULL;
}

/* ---- waiting ---- */

void sim_block(struct sim_res *r, struct sim_task *t)
{
	enqueue(r, t);
	wait_woken(t);
}

/* Wake @n waiters in their order of arrival; -1: all. */
void sim_wake(struct sim_res *r, int n)
{
	struct sim_task *t;

	while (n-- && (t = dequeue(r)))
		lk_task_wake(t->ktask);
}

void sim_mutex_lock(struct sim_res *m, struct sim_task *t)
{
	uint64_t wait;

	if (m->owner == t)
		sim_refuse("workload '%s': task '%s': locks mutex '%s' it already holds",
			sim.cfg->wl->spec, t->name, m->w->name);
	if (!m->owner) {
		hold(m, t);
		return;
	}
	/* the unlocker hands the mutex over: no barging, no starvation */
	t->lock_wait_t0 = sim.now;
	t->lock_waiting = 1;
	if (sim.cfg->wl->pi_enabled) {
		t->blocked_on = m;
		t->woken = 0;
		enqueue_prio(m, t, prio_of(t));
		pi_adjust(m->owner);
		wait_woken(t);
	} else {
		sim_block(m, t);
	}
	t->lock_waiting = 0;
	wait = sim.now - t->lock_wait_t0;
	t->lock_wait_ns += wait;
	if (wait > t->lock_wait_max_ns)
		t->lock_wait_max_ns = wait;
}

/*
 * @t's time waiting for mutexes, in all and its longest wait, a wait still
 * going on at the end of the run included.
 */
void sim_lock_wait(const struct sim_task *t, uint64_t *total, uint64_t *max)
{
	uint64_t wait = t->lock_waiting ? sim.now - t->lock_wait_t0 : 0;

	*total = t->lock_wait_ns + wait;
	*max = wait > t->lock_wait_max_ns ? wait : t->lock_wait_max_ns;
}

void sim_mutex_unlock(struct sim_res *m, struct sim_task *t)
{
	struct sim_task *next;

	if (m->owner != t)
		sim_refuse("workload '%s': task '%s': unlocks mutex '%s' it does not hold",
			sim.cfg->wl->spec, t->name, m->w->name);
	release(m, t);
	if (!sim.cfg->wl->pi_enabled) {
		next = dequeue(m);
	} else if ((next = first_waiter(m))) {
		unqueue(m, next);
		next->woken = 1;
	}
	if (next) {
		/*
		 * It owns the mutex from now on, before it runs: a waiter
		 * that comes meanwhile boosts it, and no chain walk may
		 * take it for a waiter and queue it on its own mutex again
		 * (a lost wakeup). Its waiters are no better than it was.
		 */
		hold(m, next);
		next->blocked_on = NULL;
	}
	/*
	 * No preemption between the deboost and the wakeup of the next
	 * owner, as rt_mutex_slowunlock() has it: a kernel built with
	 * PREEMPTION would otherwise run a medium task first, the
	 * inversion PI is there to prevent.
	 */
	if (sim.cfg->wl->pi_enabled) {
		lk_preempt_disable();
		pi_adjust(t);	/* m's waiters no longer lend it theirs */
	}
	if (next)
		lk_task_wake(next->ktask);
	if (sim.cfg->wl->pi_enabled)
		lk_preempt_enable();
}

/* pthread_cond_wait(): the mutex is held, let go while waiting. */
void sim_cond_wait(struct sim_res *c, struct sim_res *m, struct sim_task *t)
{
	if (m->owner != t)
		sim_refuse("workload '%s': task '%s': waits on '%s' without holding mutex '%s' (lock it first, as pthread_cond_wait needs)",
			sim.cfg->wl->spec, t->name, c->w->name, m->w->name);
	enqueue(c, t);
	sim_mutex_unlock(m, t);
	wait_woken(t);
	sim_mutex_lock(m, t);
}

/* All users of the barrier meet; the last to arrive lets everyone go. */
void sim_barrier(struct sim_res *b, struct sim_task *t)
{
	if (++b->arrived < b->w->users) {
		sim_block(b, t);
		return;
	}
	b->arrived = 0;
	sim_wake(b, -1);
}
