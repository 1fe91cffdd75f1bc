// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated tasks' user-mode code: each runs its workload's phases of
 * events on its own stack as a kernel task. "run" work occupies the CPU
 * for work x 1024 / capacity ns of the CPU time the kernel actually gives
 * it; "runtime" occupies it until that much simulated time has passed;
 * sleeps and every wait go through the kernel's own blocking and wakeup
 * paths. Mutexes, conditions, barriers and suspend points are plain
 * structures here (sim/sync.c) with wait lists of these tasks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <asm/door.h>

#include "sim/sim_internal.h"

#define FORKS_LIMIT 1024	/* per forking task, as rt-app */

static struct sim_task **tasks;
static int nr_tasks, cap_tasks;
static struct sim_res *res;	/* one per workload resource */
static unsigned int nr_forked;
static int *allowed_buf, *online_buf;	/* scratch lists of CPUs, nr_cpus */

static struct sim_task *task_add(const struct workload_task *w,
				 const char *name)
{
	struct sim_task *t = calloc(1, sizeof(*t));

	if (!t)
		sim_die("out of memory for tasks");
	if (nr_tasks == cap_tasks) {
		cap_tasks = cap_tasks ? 2 * cap_tasks : 64;
		tasks = realloc(tasks, cap_tasks * sizeof(*tasks));
		if (!tasks)
			sim_die("out of memory for tasks");
	}
	t->w = w;
	t->index = nr_tasks;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->segment.type = SIM_EV_SEGMENT;
	t->segment.heap_idx = -1;
	/* per-task draws: the run's seed and the task's index */
	sim_rng_seed(t->rng, sim.cfg->seed * 0x100000001b3ULL + t->index);
	if (sim.cfg->wl->nr_res) {
		t->timers = calloc(sim.cfg->wl->nr_res, sizeof(*t->timers));
		if (!t->timers)
			sim_die("out of memory for tasks");
	}
	tasks[nr_tasks++] = t;
	return t;
}

int sim_tasks_init(const struct sim_config *cfg)
{
	char err[WORKLOAD_ERR_MAX];
	int i;

	if (workload_check(cfg->wl, cfg->topo->nr_cpus, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return -1;
	}
	res = calloc(cfg->wl->nr_res ? cfg->wl->nr_res : 1, sizeof(*res));
	allowed_buf = calloc(cfg->topo->nr_cpus, sizeof(*allowed_buf));
	online_buf = calloc(cfg->topo->nr_cpus, sizeof(*online_buf));
	if (!res || !allowed_buf || !online_buf)
		sim_die("out of memory for tasks");
	for (i = 0; i < cfg->wl->nr_res; i++)
		res[i].w = &cfg->wl->res[i];
	nr_tasks = 0;
	for (i = 0; i < cfg->wl->nr_tasks; i++)
		task_add(&cfg->wl->tasks[i], cfg->wl->tasks[i].name);
	return 0;
}

/* Run work from now on at the speed of the task's CPU. */
static void segment_start(struct sim_task *t)
{
	unsigned int speed = sim_cpu_speed(t->seg_cpu);
	/* a 128-bit division only where 64 bits would overflow: it is slow */
	uint64_t dur = t->work < (UINT64_MAX >> 11) ?
		       (t->work * 1024 + speed - 1) / speed :
		       (uint64_t)(((unsigned __int128)t->work * 1024 + speed - 1) /
				  speed);

	t->seg_t0 = sim.now;
	t->seg_end = dur > UINT64_MAX - sim.now ? UINT64_MAX : sim.now + dur;
	sim_event_push(&t->segment, t->seg_end, t->seg_cpu);
}

/* The work done since the segment started, at most what was left. */
static uint64_t segment_done(const struct sim_task *t)
{
	uint64_t done;

	if (sim.now >= t->seg_end)
		return t->work;
	done = (uint64_t)((unsigned __int128)(sim.now - t->seg_t0) *
			  sim_cpu_speed(t->seg_cpu) / 1024);
	return done < t->work ? done : t->work;
}

/* Count the work done since the segment started. */
static void segment_account(struct sim_task *t)
{
	uint64_t done = segment_done(t);

	sim_event_cancel(&t->segment);
	t->work -= done;
	t->work_done += done;
}

/* The CPU that t runs work on changed frequency (its speed is about to). */
void sim_task_speed_changed(struct sim_task *t)
{
	segment_account(t);
	t->seg_t0 = sim.now;
}

/*
 * Always a new segment, even with no work left: a change at the very instant
 * the segment ends has cancelled its event, and the task must still see its
 * work done (an empty segment ends at once).
 */
void sim_task_speed_resume(struct sim_task *t)
{
	segment_start(t);
}

/* Occupy the CPU until @work ns of work at full capacity are done. */
static void task_run(struct sim_task *t, uint64_t work)
{
	t->work = work;
	while (t->work) {
		lk_task_user_return();
		t->seg_cpu = lk_this_cpu();
		segment_start(t);
		sim.cpu[t->seg_cpu].runner = t;
		lk_yield();
		sim.cpu[t->seg_cpu].runner = NULL;
		segment_account(t);
	}
}

/* Occupy the CPU until simulated time @until, preempted time included. */
static void task_run_until(struct sim_task *t, uint64_t until)
{
	while (sim.now < until) {
		lk_task_user_return();
		if (sim.now >= until)
			break;
		sim_event_push(&t->segment, until, lk_this_cpu());
		lk_yield();
		sim_event_cancel(&t->segment);
	}
}

static void sim_task_sleep_until(uint64_t until)
{
	/* a stray wakeup returns early: sleep again */
	while (sim.now < until)
		lk_task_sleep(until - sim.now);
}

/* (0, 1] from 53 random bits */
static double unit(struct sim_task *t)
{
	return ((sim_rng_next(t->rng) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

static double gauss(struct sim_task *t)
{
	return sqrt(-2.0 * log(unit(t))) * cos(2.0 * M_PI * unit(t));
}

static uint64_t draw(struct sim_task *t, const struct workload_dist *d)
{
	double m, s, v, sigma2;

	/* most lengths are fixed: no conversions to double for them */
	if (d->kind == WL_DIST_FIXED)
		return d->a;
	m = (double)d->a;
	s = (double)d->b;
	switch (d->kind) {
	case WL_DIST_EXPONENTIAL:
		v = sim_rng_exp(t->rng, m);
		break;
	case WL_DIST_NORMAL:
		v = m + s * gauss(t);
		break;
	case WL_DIST_LOGNORMAL:
		/* the mean and deviation given are the lengths', not the log's */
		sigma2 = log(1.0 + (s * s) / (m * m));
		v = exp(log(m) - sigma2 / 2 + sqrt(sigma2) * gauss(t));
		break;
	case WL_DIST_UNIFORM:
		v = m + (s - m) * (1.0 - unit(t));
		break;
	default:
		v = m;
		break;
	}
	/* lengths are at least 1 ns (a normal draw can fall below 0) */
	return v < 1.0 ? 1 : v > 1e18 ? (uint64_t)1e18 : (uint64_t)v;
}

/*
 * A run event's work under --jitter F: times 1 + F(2u - 1), u uniform in
 * (0, 1] from the task's own draws, rounded to ns, at least 1 ns. Real
 * calibrated work never takes exactly as long twice (interrupts, caches):
 * without it identical periodic tasks forked at one instant stay in
 * lockstep for ever. Without jitter nothing is drawn, so that every other
 * draw, and every result, stays as it was.
 */
static uint64_t jittered(struct sim_task *t, uint64_t work)
{
	double v;

	if (!(sim.cfg->jitter > 0))
		return work;
	v = (double)work * (1.0 + sim.cfg->jitter * (2.0 * unit(t) - 1.0));
	if (v >= 18446744073709551615.0)	/* 2^64: past any uint64_t */
		return UINT64_MAX;
	return v < 1.0 ? 1 : (uint64_t)(v + 0.5);
}

/*
 * Run until simulated time @until, then allow every CPU. Wall time, not
 * work: work at full capacity would stretch on a slower CPU.
 */
static void task_unpin(struct sim_task *t, uint64_t until)
{
	task_run_until(t, until);
	sim_task_set_affinity(t, 0, NULL);
}

static void task_timer(struct sim_task *t, const struct workload_event *e)
{
	struct sim_res *r = &res[e->res];
	struct sim_timer *tm = r->w->unique ? &t->timers[e->res] : &r->timer;

	/* rt-app: the first use starts the grid at the task's start */
	if (!tm->init) {
		tm->init = 1;
		tm->next = t->t_first;
	}
	tm->next += e->len.a;
	if (sim.now < tm->next)
		sim_task_sleep_until(tm->next);
	else if (!r->w->absolute)
		tm->next = sim.now;	/* missed: relative mode starts over */
}

static void task_fork(struct sim_task *t, const struct workload_event *e)
{
	const struct workload_task *d = &sim.cfg->wl->defs[e->res];
	struct sim_task *c;
	char name[16];

	if (t->nr_forks >= FORKS_LIMIT)
		sim_refuse("workload '%s': task '%s': more than %d forks",
			sim.cfg->wl->spec, t->name, FORKS_LIMIT);
	snprintf(name, sizeof(name), "%.*s-f%u",
		 (int)topology_utf8_cut(d->name, 10), d->name,
		 nr_forked++ % 1000u);
	t->nr_forks++;
	c = task_add(d, name);
	/* rt-app's default affinity is the one a new thread inherits */
	if (t->own) {
		if (!(c->dflt = malloc(sim.nr_cpus)))
			sim_die("out of memory");
		memcpy(c->dflt, t->own, sim.nr_cpus);
	}
	sim_task_start(c);
}

static void task_event(struct sim_task *t, const struct workload_event *e)
{
	switch (e->type) {
	case WL_EV_RUN:
		task_run(t, jittered(t, draw(t, &e->len)));
		break;
	case WL_EV_RUNTIME:
		task_run_until(t, sim.now + draw(t, &e->len));
		break;
	case WL_EV_SLEEP:
		sim_task_sleep_until(sim.now + draw(t, &e->len));
		break;
	case WL_EV_TIMER:
		task_timer(t, e);
		break;
	case WL_EV_LOCK:
		sim_mutex_lock(&res[e->res], t);
		break;
	case WL_EV_UNLOCK:
		sim_mutex_unlock(&res[e->res], t);
		break;
	case WL_EV_WAIT:
		sim_cond_wait(&res[e->res], &res[e->dep], t);
		break;
	case WL_EV_SIGNAL:
		sim_wake(&res[e->res], 1);
		break;
	case WL_EV_BROAD:
		sim_wake(&res[e->res], -1);
		break;
	case WL_EV_SYNC:
		sim_wake(&res[e->res], 1);
		sim_cond_wait(&res[e->res], &res[e->dep], t);
		break;
	case WL_EV_BARRIER:
		sim_barrier(&res[e->res], t);
		break;
	case WL_EV_SUSPEND:
		sim_block(&res[e->res], t);
		break;
	case WL_EV_RESUME:
		sim_wake(&res[e->res], -1);
		break;
	case WL_EV_YIELD:
		lk_task_yield();
		break;
	case WL_EV_FORK:
		task_fork(t, e);
		break;
	case WL_EV_SET_AFFINITY:
		break;
	}
}

static void task_affinity(struct sim_task *t, const struct workload_phase *ph)
{
	const struct workload_task *w = t->w;

	if (ph->nr_cpus) {
		sim_task_set_affinity(t, ph->nr_cpus, ph->cpus);
		t->phase_cpus = 1;
		return;
	}
	if (!t->phase_cpus)
		return;
	/* back to the task's own affinity after a phase with its own */
	t->phase_cpus = 0;
	sim_task_set_affinity(t, w->nr_cpus, w->cpus);
}

/* What the metrics count a task as: RT and deadline tasks weigh as nice 0. */
static int task_class(int policy)
{
	return policy == 1 || policy == 2 || policy == 6 ? METRICS_RT :
		METRICS_FAIR;
}

static unsigned int task_weight(int policy, int nice)
{
	if (task_class(policy) == METRICS_RT)
		return 1024;
	if (policy == 5)	/* SCHED_IDLE: WEIGHT_IDLEPRIO */
		return 3;
	return metrics_nice_weight(nice);
}

/*
 * Where @t may run in @group: its own affinity within the cpuset, as
 * cpuset's set_cpus_allowed_ptr() makes it (the cpuset's alone when the
 * two share no CPU). Fills @cpus, ascending, and returns how many; 0 when
 * nothing restricts it (every CPU).
 */
static int task_allowed_in(const struct sim_task *t, int group, int *cpus)
{
	const char *eff = sim_group_cpus(group);
	int c, n = 0;

	if (!t->own && !eff)
		return 0;
	for (c = 0; c < sim.nr_cpus; c++)
		if ((!t->own || t->own[c]) && (!eff || eff[c]))
			cpus[n++] = c;
	for (c = 0; !n && c < sim.nr_cpus; c++)
		if (eff[c])
			cpus[n++] = c;
	return n;
}

static int task_allowed(const struct sim_task *t, int *cpus)
{
	return task_allowed_in(t, t->group, cpus);
}

static int usable(int c)
{
	return !sim.cpu[c].offline && !sim.cpu[c].leaving;
}

/*
 * Where the metrics count it as allowed: those of @cpus (every CPU when
 * @n is 0) that are online and not going offline (the kernel no longer
 * places tasks there); when none is, those going offline (the kernel
 * leaves a task there until the CPU dies: sched_cpu_dying() is where
 * select_fallback_rq() breaks its affinity); when none is online at all,
 * every usable CPU (its affinity is broken). Returns how many are in
 * @out, 0 for all.
 */
static int task_allowed_online(int n, const int *cpus, int *out)
{
	int i, k = 0, pass;

	if (!sim.nr_offline && !sim.nr_leaving) {
		memcpy(out, cpus, n * sizeof(*out));
		return n;
	}
	for (pass = 0; pass < 2 && !k; pass++) {
		for (i = 0; i < (n ? n : sim.nr_cpus); i++) {
			int c = n ? cpus[i] : i;

			if (pass ? !sim.cpu[c].offline : usable(c))
				out[k++] = c;
		}
	}
	for (i = 0; !k && i < sim.nr_cpus; i++)
		if (usable(i))
			out[k++] = i;
	return k;
}

/* what the metrics are told @t may use, kept to tell them again */
static void task_told(struct sim_task *t, int n, const int *cpus)
{
	if (!t->told && !(t->told = malloc(sim.nr_cpus * sizeof(*t->told))))
		sim_die("out of memory");
	memcpy(t->told, cpus, n * sizeof(*cpus));
	t->nr_told = n;
}

static void task_metrics_affinity(struct sim_task *t, int n, const int *cpus)
{
	char list[TOPOLOGY_MAX_CPUS * 5 + 8];
	int k;

	if (!sim.cfg->metrics)
		return;
	task_told(t, n, cpus);
	k = task_allowed_online(n, cpus, online_buf);
	if (sim.cfg->trace) {
		sim_trace_cpus(list, sizeof(list), k, online_buf);
		sim_trace_lsb("lsb_affinity", "pid=%d %s", t->pid, list);
	}
	metrics_affinity(&sim.metrics, sim.now, t->pid, k, online_buf);
}

/*
 * The kernel's set_cpus_allowed_ptr() sets the mask at once and moves the
 * task after, through a stopper when it runs, which blocks the caller
 * until it is done and the task has run again (a wait that may last: a
 * task woken behind a heavier one). The metrics have the new CPUs from
 * the call on, and the ones before back when the kernel refuses them.
 * The lists are the call's own, not the scratch one: another task may
 * set its affinity while this one is blocked.
 */
int sim_task_affinity_apply(struct sim_task *t)
{
	int *cpus = malloc(2 * sim.nr_cpus * sizeof(*cpus)), *was;
	int n, ret, c, nr_was = t->nr_told;

	if (!cpus)
		sim_die("out of memory");
	was = cpus + sim.nr_cpus;
	if (t->told)
		memcpy(was, t->told, nr_was * sizeof(*was));
	n = task_allowed(t, cpus);
	if (!n)
		for (c = 0; c < sim.nr_cpus; c++)
			cpus[n++] = c;
	task_metrics_affinity(t, n, cpus);
	ret = lk_task_set_affinity(t->ktask, n, cpus);
	if (ret)
		task_metrics_affinity(t, nr_was, was);
	free(cpus);
	return ret;
}

int sim_task_set_affinity(struct sim_task *t, int nr, const int *cpus)
{
	int i;

	if (!nr && !t->dflt) {
		free(t->own);
		t->own = NULL;
	} else if (!nr) {	/* back to its default */
		if (!t->own && !(t->own = malloc(sim.nr_cpus)))
			sim_die("out of memory");
		memcpy(t->own, t->dflt, sim.nr_cpus);
	} else {
		if (!t->own && !(t->own = malloc(sim.nr_cpus)))
			sim_die("out of memory");
		memset(t->own, 0, sim.nr_cpus);
		for (i = 0; i < nr; i++)
			t->own[cpus[i]] = 1;
	}
	return sim_task_affinity_apply(t);
}

void sim_task_join_told(struct sim_task *t, int group)
{
	int n = task_allowed_in(t, group, allowed_buf);

	task_metrics_affinity(t, n, allowed_buf);
}

void sim_task_pushed(int pid, int to)
{
	struct sim_task *t = NULL;
	const char *eff;
	int i, n = 0, *cpus;

	for (i = 0; i < nr_tasks && !t; i++)
		if (tasks[i]->pid == pid && !tasks[i]->exited)
			t = tasks[i];
	if (!t || !t->nr_told)
		return;
	for (i = 0; i < t->nr_told; i++)
		if (t->told[i] == to)
			return;
	/*
	 * select_fallback_rq(): its cpuset's CPUs, or every one. Not the
	 * scratch list: this comes from inside the kernel, which a caller
	 * of it (lk_task_new()) may be in.
	 */
	if (!(cpus = malloc(sim.nr_cpus * sizeof(*cpus))))
		sim_die("out of memory");
	eff = sim_group_cpus(t->group);
	for (i = 0; eff && i < sim.nr_cpus; i++)
		if (eff[i])
			cpus[n++] = i;
	task_metrics_affinity(t, n, cpus);
	free(cpus);
}

void sim_tasks_affinity_refresh(int kernel)
{
	int i, n;

	for (i = 0; i < nr_tasks; i++) {
		struct sim_task *t = tasks[i];

		if (!t->ktask || t->exited)
			continue;
		if (kernel) {
			sim_task_affinity_apply(t);
			continue;
		}
		n = task_allowed(t, allowed_buf);
		task_metrics_affinity(t, n, allowed_buf);
	}
}

static void task_metrics_weight(struct sim_task *t, unsigned int weight)
{
	sim_trace_lsb("lsb_weight", "pid=%d weight=%u", t->pid, weight);
	metrics_weight(&sim.metrics, sim.now, t->pid, weight);
}

static void task_main(void *payload)
{
	struct sim_task *t = payload;
	const struct workload_task *w = t->w;
	long round, l;
	int p, k;

	/* rt-app: a thread puts itself in its taskgroup first */
	if (w->group)
		sim_task_join(t, w->group);
	if (w->delay_ns)
		sim_task_sleep_until(sim.now + w->delay_ns);
	t->t_first = sim.now;
	if (w->unpin_ns)
		task_unpin(t, w->unpin_ns);
	for (round = 0; w->loop < 0 || round < w->loop; round++) {
		for (p = 0; p < w->nr_phases; p++) {
			const struct workload_phase *ph = &w->phases[p];

			if (ph->group)
				sim_task_join(t, ph->group);
			if (w->nr_phases > 1 || ph->nr_cpus)
				task_affinity(t, ph);
			if (ph->set_nice && !lk_task_set_nice(t->ktask, ph->nice) &&
			    sim.cfg->metrics &&
			    task_class(w->policy) == METRICS_FAIR)
				task_metrics_weight(t, task_weight(w->policy,
								   ph->nice));
			for (l = 0; ph->loop < 0 || l < ph->loop; l++)
				for (k = 0; k < ph->nr_events; k++)
					task_event(t, &ph->events[k]);
		}
	}
	t->exited = 1;
}

void sim_task_start(struct sim_task *t)
{
	const struct workload_task *w = t->w;
	char comm[16];
	struct linsched_task_attr attr = {
		.name = comm,
		.policy = w->policy,
		.nice = w->nice,
		.rt_priority = w->prio,
		.dl_runtime = w->dl_runtime_ns,
		.dl_deadline = w->dl_deadline_ns,
		.dl_period = w->dl_period_ns,
		.util_min = w->util_min,
		.util_max = w->util_max,
		.main = task_main,
		.payload = t,
	};
	struct linsched_task_stats st;
	const char *why = NULL;
	int i, n;

	/* the kernel keeps 15 bytes: whole UTF-8 characters, for the trace */
	snprintf(comm, sizeof(comm), "%.*s",
		 (int)topology_utf8_cut(t->name, sizeof(comm) - 1), t->name);
	if (w->nr_cpus) {
		if (!(t->own = calloc(sim.nr_cpus, 1)))
			sim_die("out of memory");
		for (i = 0; i < w->nr_cpus; i++)
			t->own[w->cpus[i]] = 1;
	} else if (t->dflt) {
		if (!(t->own = malloc(sim.nr_cpus)))
			sim_die("out of memory");
		memcpy(t->own, t->dflt, sim.nr_cpus);
	}
	/* forked in the root group: its cpuset, if any, applies */
	attr.nr_allowed = n = task_allowed(t, allowed_buf);
	attr.allowed = allowed_buf;
	t->ktask = lk_task_new(&attr, &why);
	if (!t->ktask)
		sim_refuse("workload '%s': task '%s': %s", sim.cfg->wl->spec,
			t->name, why);
	/* the events so far came under its pid: from now on they count */
	lk_task_stats(t->ktask, &st);
	t->pid = st.pid;
	if (sim.cfg->metrics) {
		char list[TOPOLOGY_MAX_CPUS * 5 + 8];

		task_told(t, n, allowed_buf);
		n = task_allowed_online(n, allowed_buf, online_buf);
		if (sim.cfg->trace) {
			sim_trace_cpus(list, sizeof(list), n, online_buf);
			sim_trace_lsb("lsb_task", "pid=%d class=%s weight=%u %s name=%s",
				      t->pid, task_class(w->policy) == METRICS_RT ?
				      "rt" : "fair", task_weight(w->policy, w->nice),
				      list, t->name);
		}
		metrics_task(&sim.metrics, sim.now, t->pid,
			     task_class(w->policy),
			     task_weight(w->policy, w->nice), n, online_buf);
	}
}

/*
 * Called by init (pid 1) once the machine is up: fork every task, with
 * preemption off. A task of another policy than fair is set before its
 * first wakeup (lk_task_new()), so in a kernel built with PREEMPTION
 * (7.x's PREEMPT_LAZY) an RT child would preempt init inside
 * wake_up_new_task(), and run before init has its handle or counted its
 * pid (a NULL task in sim_mutex_lock()'s prio_of(): the suite's
 * pi-*-on patterns crashed on 7.3.4). rt-app's children are forked fair
 * and set their policy themselves; here init forks them all first, in
 * every model, and the best of them runs when it lets preemption go.
 */
void sim_tasks_start(void)
{
	int i, n = nr_tasks;

	lk_preempt_disable();
	for (i = 0; i < n; i++)
		sim_task_start(tasks[i]);
	lk_preempt_enable();
}

/* Work done so far by a segment still running at the end of the run. */
static uint64_t work_in_flight(const struct sim_task *t)
{
	if (!t->work || sim.cpu[t->seg_cpu].runner != t)
		return 0;
	return segment_done(t);
}

int sim_tasks_results(struct sim_result *out)
{
	int i, has_mutexes = 0;

	for (i = 0; i < sim.cfg->wl->nr_res; i++)
		if (sim.cfg->wl->res[i].type == WL_RES_MUTEX)
			has_mutexes = 1;
	out->nr_tasks = nr_tasks;
	out->tasks = calloc(nr_tasks ? nr_tasks : 1, sizeof(*out->tasks));
	if (!out->tasks)
		sim_die("out of memory");
	for (i = 0; i < nr_tasks; i++) {
		struct sim_task_result *r = &out->tasks[i];
		struct linsched_task_stats st;

		snprintf(r->name, sizeof(r->name), "%s", tasks[i]->name);
		/*
		 * The workload's tasks are in the table from sim_tasks_init(),
		 * but the kernel has them only once the machine is up
		 * (lh_boot_done()): a run that ends sooner has tasks that were
		 * never forked, with no time, no CPU (-1) and no pid (0).
		 */
		if (!tasks[i]->ktask) {
			r->cpu = -1;
			continue;
		}
		lk_task_stats(tasks[i]->ktask, &st);
		r->pid = st.pid;
		r->cpu = st.cpu;
		r->sum_exec_ns = st.sum_exec_ns;
		r->nr_migrations = st.nr_migrations;
		r->nr_switches = st.nr_switches;
		r->nr_voluntary = st.nr_voluntary;
		r->nr_involuntary = st.nr_involuntary;
		r->run_work_ns = tasks[i]->work_done + work_in_flight(tasks[i]);
		r->locks = has_mutexes;
		sim_lock_wait(tasks[i], &r->lock_wait_ns, &r->lock_wait_max_ns);
		r->group = tasks[i]->group;
	}
	return 0;
}
