// SPDX-License-Identifier: GPL-2.0-only
/*
 * rt-app's synchronisation objects as plain structures: a waiter puts
 * itself on a list and sleeps through the kernel (lk_task_sleep(0)) until
 * its flag says it was taken off; the waker clears it off the list, sets
 * the flag and wakes it through the kernel's own wakeup path. One host
 * thread runs everything, so nothing needs a host lock; the flag covers a
 * wakeup that comes before the waiter is asleep, and a stray one.
 */
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
	if (m->owner == t)
		sim_refuse("workload '%s': task '%s': locks mutex '%s' it already holds",
			sim.cfg->wl->spec, t->name, m->w->name);
	if (!m->owner) {
		m->owner = t;
		return;
	}
	/* the unlocker hands the mutex over: no barging, no starvation */
	sim_block(m, t);
}

void sim_mutex_unlock(struct sim_res *m, struct sim_task *t)
{
	struct sim_task *next;

	if (m->owner != t)
		sim_refuse("workload '%s': task '%s': unlocks mutex '%s' it does not hold",
			sim.cfg->wl->spec, t->name, m->w->name);
	next = dequeue(m);
	m->owner = next;
	if (next)
		lk_task_wake(next->ktask);
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
