// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time: sched_clock, jiffies, the periodic tick with NO_HZ idle, and the
 * hrtimer API on top of the simulator's event queue. Simulated time is
 * the only clock; kernel code takes no simulated time to run.
 */
#include <asm/linsched_adapter.h>
#include <linux/hrtimer.h>
#ifdef LINSCHED_HRTIMER_BASES_H
#include <linux/hrtimer_bases.h>
#endif
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/loadavg.h>
#include <linux/sched/nohz.h>
#include <linux/tick.h>
#include <linux/interrupt.h>

#include "linsched.h"

unsigned long volatile __cacheline_aligned_in_smp jiffies = INITIAL_JIFFIES;

static struct hrtimer_cpu_base bases[NR_CPUS];
static bool tick_stopped[NR_CPUS];
static bool in_idle[NR_CPUS];
static bool got_idle_tick[NR_CPUS];
static unsigned long idle_calls[NR_CPUS];

/*
 * On a real machine sched_clock() has been counting for a while when the
 * first task forks; here the boot and the workload's first forks all
 * happen at simulated time 0. PELT takes a last_update_time of 0 for
 * "not attached to a cfs_rq" (update_load_avg() attaches only at
 * enqueue, and ages only a non-zero one): a task enqueued on a CPU whose
 * rq clock still reads 0 copies the cfs_rq's 0, and its load and
 * utilization stay frozen for as long as it stays queued. So the clock
 * starts as if the kernel had booted one second before simulated time 0.
 * The scheduler already lives with sched_clock() and the hrtimers'
 * CLOCK_MONOTONIC having different origins, as they do on real hardware.
 */
#define LINSCHED_SCHED_CLOCK_START NSEC_PER_SEC

notrace unsigned long long sched_clock(void)
{
	return LINSCHED_SCHED_CLOCK_START + lh_now();
}

static ktime_t linsched_get_time(void)
{
	return ns_to_ktime(lh_now());
}

#if defined(CONFIG_HIGH_RES_TIMERS) && defined(LINSCHED_HRES_KEY)
DEFINE_STATIC_KEY_FALSE(hrtimer_highres_enabled_key);
#endif

/*
 * Every timer lives on its CPU's first clock base: there is one clock.
 * Each base is in high resolution mode from the start (a real one
 * switches once its clock event device can do one-shot): hrtick_enabled()
 * reads it, through the base (6.x) or a static key (7.x).
 */
void linsched_timers_init(void)
{
	int cpu;

#if defined(CONFIG_HIGH_RES_TIMERS) && defined(LINSCHED_HRES_KEY)
	static_branch_enable(&hrtimer_highres_enabled_key);
#endif
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		bases[cpu].cpu = cpu;
#ifdef CONFIG_HIGH_RES_TIMERS
		bases[cpu].hres_active = 1;
#endif
		bases[cpu].clock_base[0].cpu_base = &bases[cpu];
#ifdef LINSCHED_HRTIMER_BASE_GET_TIME
		bases[cpu].clock_base[0].get_time = linsched_get_time;
#endif
	}
}

#ifndef LINSCHED_HRTIMER_BASE_GET_TIME
ktime_t hrtimer_cb_get_time(const struct hrtimer *timer)
{
	return linsched_get_time();
}
#endif

/*
 * Whether a timer is queued: a state byte with HRTIMER_STATE_ENQUEUED up
 * to 6.x, an is_queued flag in 7.x; hrtimer_is_queued() reads either.
 */
static void linsched_set_queued(struct hrtimer *timer, bool queued)
{
#ifdef LINSCHED_HRTIMER_IS_QUEUED
	WRITE_ONCE(timer->is_queued, queued);
#else
	timer->state = queued ? HRTIMER_STATE_ENQUEUED : HRTIMER_STATE_INACTIVE;
#endif
}

void linsched_jiffies_update(void)
{
	unsigned long now = INITIAL_JIFFIES + lh_now() / TICK_NSEC;

	if (now != jiffies) {
		jiffies = now;
		calc_global_load();
	}
}

void linsched_tick(int cpu)
{
	/* the idle loop stops the tick once one came while idle */
	if (in_idle[cpu])
		got_idle_tick[cpu] = true;
	LINSCHED_SCHED_TICK();
}

/* A CPU coming back online starts with its tick running. */
void linsched_tick_cpu_up(int cpu)
{
	tick_stopped[cpu] = false;
	in_idle[cpu] = false;
	got_idle_tick[cpu] = false;
}

/* ---- NO_HZ idle: the tick stops on an idle CPU and restarts on exit ---- */

/* nohz=on: read by the ladder cpuidle governor */
bool tick_nohz_enabled __read_mostly = true;

void tick_nohz_idle_enter(void)
{
	in_idle[smp_processor_id()] = true;
}

/*
 * Idle entries per CPU that left the tick stopped and that kept it
 * running: kernel/sched/idle.c calls one of the two below per entry, as
 * the cpuidle governor said (lk_cpuidle_stats()).
 */
unsigned long long linsched_idle_tick_stopped[NR_CPUS];
unsigned long long linsched_idle_tick_kept[NR_CPUS];

/*
 * As kernel/time/tick-sched.c's tick_nohz_next_event() decides in high
 * resolution mode: the tick stops unless a timer on the CPU's timer
 * wheel is due within a tick of the last jiffy (hrtimers, the tasks'
 * sleeps among them, program the clock event device themselves and do
 * not count). The wheel here holds the delayed works' timers; RCU,
 * irq_work and the arch never ask for the tick. Returns 0 when the tick
 * must stay, else the wheel's next timer (KTIME_MAX: none).
 */
u64 linsched_wheel_next_event(int cpu)
{
	u64 basemono = lh_now() / TICK_NSEC * TICK_NSEC;
	u64 next = linsched_dwork_next(cpu);

	if (next != KTIME_MAX &&
	    (next <= basemono || next - basemono <= TICK_NSEC))
		return 0;
	return next;
}

void tick_nohz_idle_stop_tick(void)
{
	int cpu = smp_processor_id();

	idle_calls[cpu]++;
	if (tick_stopped[cpu] || need_resched() || local_softirq_pending() ||
	    !linsched_wheel_next_event(cpu)) {
		if (tick_stopped[cpu])
			linsched_idle_tick_stopped[cpu]++;
		else
			linsched_idle_tick_kept[cpu]++;
		return;
	}
	linsched_idle_tick_stopped[cpu]++;
	tick_stopped[cpu] = true;
	lh_tick(cpu, 0);
	calc_load_nohz_start();
	nohz_balance_enter_idle(cpu);
}

static void linsched_tick_restart(int cpu)
{
	if (!tick_stopped[cpu])
		return;
	tick_stopped[cpu] = false;
	lh_tick(cpu, 1);
	calc_load_nohz_stop();
}

void tick_nohz_idle_retain_tick(void)
{
	linsched_idle_tick_kept[smp_processor_id()]++;
}

void tick_nohz_idle_restart_tick(void)
{
	linsched_tick_restart(smp_processor_id());
}

void tick_nohz_idle_exit(void)
{
	int cpu = smp_processor_id();

	in_idle[cpu] = false;
	linsched_tick_restart(cpu);
}

bool tick_nohz_idle_got_tick(void)
{
	int cpu = smp_processor_id();
	bool got = got_idle_tick[cpu];

	got_idle_tick[cpu] = false;
	return got;
}

bool tick_nohz_tick_stopped(void)
{
	return tick_stopped[smp_processor_id()];
}

bool tick_nohz_tick_stopped_cpu(int cpu)
{
	return tick_stopped[cpu];
}

/* schedutil: has the CPU been idle since it last looked? */
unsigned long tick_nohz_get_idle_calls_cpu(int cpu)
{
	return idle_calls[cpu];
}

/* ---- hrtimers: one simulator event per armed timer ---- */

static void linsched_hrtimer_init(struct hrtimer *timer,
				  enum hrtimer_mode mode)
{
	memset(timer, 0, sizeof(*timer));
	timer->base = &bases[smp_processor_id()].clock_base[0];
	timer->is_rel = !!(mode & HRTIMER_MODE_REL);
	timer->is_soft = !!(mode & HRTIMER_MODE_SOFT);
	timer->is_hard = !!(mode & HRTIMER_MODE_HARD);
}

/* For the arch's own timers, whichever setup API the tree has. */
void linsched_hrtimer_setup(struct hrtimer *timer,
			    enum hrtimer_restart (*function)(struct hrtimer *))
{
	linsched_hrtimer_init(timer, HRTIMER_MODE_REL);
	ACCESS_PRIVATE(timer, function) = function;
}

#ifdef LINSCHED_HRTIMER_INIT
void hrtimer_init(struct hrtimer *timer, clockid_t clock_id,
		  enum hrtimer_mode mode)
{
	linsched_hrtimer_init(timer, mode);
}
#endif

#ifdef LINSCHED_HRTIMER_SETUP
void hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*function)(struct hrtimer *),
		   clockid_t clock_id, enum hrtimer_mode mode)
{
	linsched_hrtimer_init(timer, mode);
	ACCESS_PRIVATE(timer, function) = function;
}

void hrtimer_setup_on_stack(struct hrtimer *timer,
			    enum hrtimer_restart (*function)(struct hrtimer *),
			    clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_setup(timer, function, clock_id, mode);
}
#endif

static void linsched_hrtimer_arm(struct hrtimer *timer, int cpu)
{
	u64 expires = ktime_to_ns(hrtimer_get_softexpires(timer));

	linsched_set_queued(timer, true);
	lh_timer_arm(timer, cpu, expires);
}

void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim,
			    u64 delta_ns, const enum hrtimer_mode mode)
{
	int cpu = smp_processor_id();
	s64 now = lh_now();

	if (mode & HRTIMER_MODE_REL) {
		tim = ktime_add_ns(tim, now);
		if (tim < now)	/* overflow */
			tim = KTIME_MAX;
	}
	hrtimer_set_expires_range_ns(timer, tim, delta_ns);
	if (timer->base->running != timer)
		timer->base = &bases[cpu].clock_base[0];
	linsched_hrtimer_arm(timer, timer->base->cpu_base->cpu);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	int ret = 0;

	if (hrtimer_is_queued(timer)) {
		lh_timer_cancel(timer);
		linsched_set_queued(timer, false);
		ret = 1;
	}
	if (timer->base && timer->base->running == timer)
		return -1;
	return ret;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	int ret = hrtimer_try_to_cancel(timer);

	if (ret < 0)
		panic("linsched: hrtimer_cancel() of a running timer would wait forever");
	return ret;
}

bool hrtimer_active(const struct hrtimer *timer)
{
	return hrtimer_is_queued((struct hrtimer *)timer) ||
	       (timer->base && timer->base->running == timer);
}

u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	s64 delta = ktime_sub(now, hrtimer_get_expires(timer));
	u64 overruns = 1;

	if (delta < 0)
		return 0;
	if (WARN_ON(hrtimer_is_queued(timer)))
		return 0;
	if (interval < 1)
		interval = 1;
	if (delta >= interval) {
		overruns = div64_u64(delta, interval);
		hrtimer_add_expires_ns(timer, interval * overruns);
		if (hrtimer_get_expires(timer) > now)
			return overruns;
		overruns++;
	}
	hrtimer_add_expires(timer, interval);
	return overruns;
}

void linsched_timer_fire(int cpu, void *key)
{
	struct hrtimer *timer = key;
	struct hrtimer_clock_base *base = timer->base;
	enum hrtimer_restart restart;

	if (!hrtimer_is_queued(timer))
		return;
	linsched_set_queued(timer, false);
	base->running = timer;
	restart = ACCESS_PRIVATE(timer, function)(timer);
	base->running = NULL;
	if (restart == HRTIMER_RESTART && !hrtimer_is_queued(timer))
		linsched_hrtimer_arm(timer, cpu);
}

/* ---- sleeping with a timeout, from task context ---- */

static enum hrtimer_restart linsched_sleep_wakeup(struct hrtimer *timer)
{
	struct linsched_task *lt =
		container_of(timer, struct linsched_task, sleep_timer);

	wake_up_process(lt->p);
	return HRTIMER_NORESTART;
}

/* Every sleep with a timeout (task sleeps, schedule_timeout) uses it. */
void linsched_sleep_timer_init(struct linsched_task *lt)
{
	linsched_hrtimer_setup(&lt->sleep_timer, linsched_sleep_wakeup);
}

signed long schedule_timeout(signed long timeout)
{
	struct linsched_task *lt = task_lt(current);
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	hrtimer_start(&lt->sleep_timer, ns_to_ktime((u64)timeout * TICK_NSEC),
		      HRTIMER_MODE_REL);
	schedule();
	hrtimer_try_to_cancel(&lt->sleep_timer);
	timeout = expire - jiffies;
	return timeout < 0 ? 0 : timeout;
}

int schedule_hrtimeout(ktime_t *expires, const enum hrtimer_mode mode)
{
	struct linsched_task *lt = task_lt(current);
	int fired;

	if (!expires) {
		schedule();
		return -EINTR;
	}
	hrtimer_start(&lt->sleep_timer, *expires, mode);
	schedule();
	fired = !hrtimer_is_queued(&lt->sleep_timer);
	hrtimer_try_to_cancel(&lt->sleep_timer);
	return fired ? 0 : -EINTR;
}

ktime_t ktime_get(void)
{
	return linsched_get_time();
}

void ktime_get_real_ts64(struct timespec64 *ts)
{
	*ts = ns_to_timespec64(lh_now());
}
