// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cpuidle driver of the simulated machine: one per CPU type, its
 * states a POLL state 0 (as x86's intel_idle and acpi_idle have; not on a
 * type with no_polling_state, as Arm's drivers) and the topology's idle
 * states after it, so that the revision's own core (drivers/cpuidle/
 * cpuidle.c, driver.c, governor.c) and governor (menu, teo, ladder: the
 * highest-rated unless machine->cpuidle names one, as "cpuidle.governor="
 * does) choose the state and the tick-stop; kernel/sched/idle.c then
 * takes its governor branch instead of default_idle_call(). The state
 * entered is told to the simulator through the cpu_idle tracepoint
 * (trace.c), which cpuidle_enter_state() fires with the index before
 * ->enter().
 *
 * What the core and governors read around them: the next timer events
 * (tick_nohz_get_sleep_length(), tick_nohz_get_next_hrtimer(): the
 * simulator's queue through lh_next_timer()), the CPU latency QoS (no
 * request is ever made here: the default, below; kernel/power/qos.c
 * compiles but wants notifier chains and a misc device), local_clock()
 * (sched_clock here) and nr_iowait_cpu() (kernel/sched/core.c).
 * drivers/cpuidle/sysfs.c is not built: its entry points are below and
 * do nothing; so are the module parameters' ops (cpuidle.off,
 * cpuidle.governor: the arch sets param_governor itself).
 */
#include <asm/linsched_adapter.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pm_qos.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/idle.h>
#include <linux/interrupt.h>

#include "../../../drivers/cpuidle/cpuidle.h"
#include "linsched.h"

/* ---- drivers/cpuidle/sysfs.c: no sysfs here ---- */

int cpuidle_add_interface(LINSCHED_CPUIDLE_IFACE_ARGS)
{
	return 0;
}

void cpuidle_remove_interface(struct device *dev)
{
}

int cpuidle_add_device_sysfs(struct cpuidle_device *device)
{
	return 0;
}

void cpuidle_remove_device_sysfs(struct cpuidle_device *device)
{
}

int cpuidle_add_sysfs(struct cpuidle_device *dev)
{
	return 0;
}

void cpuidle_remove_sysfs(struct cpuidle_device *dev)
{
}

/* cpuidle.c's module_param()s: nothing parses them here */
const struct kernel_param_ops param_ops_int;
const struct kernel_param_ops param_ops_string;

/* kernel/power/qos.c's, with no request: the default limit */
s32 cpu_latency_qos_limit(void)
{
	return PM_QOS_CPU_LATENCY_DEFAULT_VALUE;
}

/* kernel/smp.c's: the core kicks idle CPUs when it pauses or switches */
void wake_up_all_idle_cpus(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		preempt_disable();
		if (cpu != smp_processor_id() && cpu_online(cpu))
			wake_up_if_idle(cpu);
		preempt_enable();
	}
}

/* ---- what the governors ask of NO_HZ ---- */

static ktime_t linsched_until(unsigned long long when)
{
	u64 now = lh_now();

	if (when == ~0ULL)
		return KTIME_MAX;
	return when > now ? (ktime_t)(when - now) : 0;
}

/*
 * A Debian kernel has the softlockup watchdog (SOFTLOCKUP_DETECTOR): a
 * pinned hrtimer on every CPU, every 2 * watchdog_thresh / 5 = 4 s. So a
 * real CPU's next timer event is never further than that, and the
 * governors count on it: menu multiplies the sleep length by its
 * correction factor, which overflows for a KTIME_MAX one and then
 * predicts an endless idle period after every wakeup by an IPI. The arch
 * has no watchdog; the timer's expiries bound the sleep length as they
 * would (its own wakeups, and the stopper work it queues, are not
 * modelled).
 */
#define LINSCHED_WATCHDOG_PERIOD_NS (4ULL * NSEC_PER_SEC)

static unsigned long long linsched_next_hrtimer(int cpu, int tick)
{
	unsigned long long next = lh_next_timer(cpu, tick);
	unsigned long long dog = (lh_now() / LINSCHED_WATCHDOG_PERIOD_NS + 1) *
				 LINSCHED_WATCHDOG_PERIOD_NS;

	return min(next, dog);
}

/*
 * As kernel/time/tick-sched.c's: @delta_next gets the time to the next
 * event of the CPU's clock event device (the tick while it runs, or an
 * hrtimer), the return value the time to the next timer if the tick were
 * stopped; when the tick cannot be stopped (work pending, or a timer-wheel
 * timer within a tick: tick_nohz_next_event() says 0), the same as
 * @delta_next.
 */
ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	int cpu = smp_processor_id();
	u64 wheel;

	*delta_next = linsched_until(linsched_next_hrtimer(cpu, 1));
	if (need_resched() || local_softirq_pending())
		return *delta_next;
	wheel = linsched_wheel_next_event(cpu);
	if (!wheel)
		return *delta_next;
	return linsched_until(min_t(u64, wheel, linsched_next_hrtimer(cpu, 0)));
}

ktime_t tick_nohz_get_next_hrtimer(void)
{
	return (ktime_t)linsched_next_hrtimer(smp_processor_id(), 1);
}

/* ---- the driver ---- */

/* Halt as arch_cpu_idle() does; called and returning with IRQs off. */
static int __cpuidle linsched_idle_enter(struct cpuidle_device *dev,
					 struct cpuidle_driver *drv, int index)
{
	raw_local_irq_enable();
	linsched_yield();
	raw_local_irq_disable();
	return index;
}

/*
 * State 0, as intel_idle and acpi_idle have it (poll_state.c's
 * poll_idle()): the CPU does not halt, it waits for need_resched() or
 * for cpuidle_poll_time() to pass, then sets dev->poll_time_limit and
 * returns so that the idle loop selects again. poll_idle() spins on
 * local_clock(), which never advances inside kernel code here: an
 * hrtimer at the limit wakes the CPU instead, and the simulator counts
 * the time as busy (lh_cpu_idle() with index 0).
 */
static struct hrtimer linsched_poll_timers[NR_CPUS];

static enum hrtimer_restart linsched_poll_wakeup(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

static int __cpuidle linsched_poll_enter(struct cpuidle_device *dev,
					 struct cpuidle_driver *drv, int index)
{
	struct hrtimer *timer = &linsched_poll_timers[smp_processor_id()];
	u64 start = local_clock(), limit;

	dev->poll_time_limit = false;
	raw_local_irq_enable();
	limit = cpuidle_poll_time(drv, dev);
	linsched_hrtimer_setup(timer, linsched_poll_wakeup);
	hrtimer_start(timer, ns_to_ktime(limit), HRTIMER_MODE_REL_PINNED);
	while (!need_resched()) {
		if (local_clock() - start >= limit) {
			dev->poll_time_limit = true;
			break;
		}
		linsched_yield();	/* until an interrupt */
	}
	hrtimer_cancel(timer);
	raw_local_irq_disable();
	return index;
}

static void linsched_poll_state_init(struct cpuidle_driver *drv)
{
	struct cpuidle_state *s = &drv->states[0];

	strscpy(s->name, "POLL", CPUIDLE_NAME_LEN);
	strscpy(s->desc, "CPUIDLE CORE POLL IDLE", CPUIDLE_DESC_LEN);
	s->exit_latency_ns = 0;
	s->target_residency_ns = 0;
	s->power_usage = -1;
	s->enter = linsched_poll_enter;
	s->flags = CPUIDLE_FLAG_POLLING;
}

static struct cpuidle_driver linsched_idle_drivers[LINSCHED_MAX_TYPES];
/* CPUs whose idle loop must take cpuidle's governor branch from now on */
struct cpumask linsched_cpuidle_cpus;
static struct cpumask linsched_idle_masks[LINSCHED_MAX_TYPES];

/* The linker script bounds drivers/cpuidle's initcalls. */
extern initcall_entry_t __linsched_cpuidle_initcall_start[];
extern initcall_entry_t __linsched_cpuidle_initcall_end[];

void linsched_cpuidle_init(const struct linsched_machine *m)
{
	initcall_entry_t *fn;
	int cpu, t, k, p, ret;

	/*
	 * "cpuidle.governor=": the core switches to it as it registers.
	 * Without it, the core keeps the highest-rated governor registered,
	 * as a kernel booted without the parameter does.
	 */
	strscpy(param_governor, m->cpuidle, CPUIDLE_NAME_LEN);
	for (fn = __linsched_cpuidle_initcall_start;
	     fn < __linsched_cpuidle_initcall_end; fn++)
		initcall_from_entry(fn)();
	if (!m->cpuidle_driver)
		return;		/* no driver: the simulator's governor */
	/* the simulator checked lk_cpuidle() for the governor's bit */
	if (!cpuidle_curr_governor ||
	    (m->cpuidle[0] && strncmp(cpuidle_curr_governor->name, m->cpuidle,
				      CPUIDLE_NAME_LEN)))
		panic("linsched: cpuidle governor '%s' is not in this revision",
		      m->cpuidle[0] ? m->cpuidle : "(default)");
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		cpumask_set_cpu(cpu, &linsched_idle_masks[m->cpu[cpu].type]);
	for (t = 0; t < m->nr_types; t++) {
		const struct linsched_cpu_type *ty = &m->type[t];
		struct cpuidle_driver *drv = &linsched_idle_drivers[t];

		if (!ty->nr_idle_states ||
		    cpumask_empty(&linsched_idle_masks[t]))
			continue;
		drv->name = "linsched_idle";
		drv->owner = THIS_MODULE;
		drv->cpumask = &linsched_idle_masks[t];
		/*
		 * POLL, then the topology's states: state k is its k - 1;
		 * or, on a type without a polling state (Arm's WFI is the
		 * drivers' state 0), the topology's states alone.
		 */
		p = ty->no_polling_state ? 0 : 1;
		drv->state_count = min(ty->nr_idle_states + p, CPUIDLE_STATE_MAX);
		if (p)
			linsched_poll_state_init(drv);
		for (k = p; k < drv->state_count; k++) {
			const struct linsched_idle_state *i = &ty->idle[k - p];
			struct cpuidle_state *s = &drv->states[k];

			strscpy(s->name, i->name, CPUIDLE_NAME_LEN);
			strscpy(s->desc, i->name, CPUIDLE_DESC_LEN);
			/* the _ns fields, with the us ones 0: exact */
			s->exit_latency_ns = i->exit_latency_ns;
			s->target_residency_ns = i->target_residency_ns;
			s->power_usage = i->power_uw / 1000;
			s->enter = linsched_idle_enter;
		}
		ret = cpuidle_register(drv, NULL);
		if (ret)
			panic("linsched: cpuidle driver of CPU type %d: error %d",
			      t, ret);
		pr_info("linsched: cpuidle driver for CPU type %d (%u CPUs): %d states, governor %s\n",
			t, cpumask_weight(drv->cpumask), drv->state_count,
			cpuidle_curr_governor->name);
		cpumask_or(&linsched_cpuidle_cpus, &linsched_cpuidle_cpus,
			   drv->cpumask);
	}
}

const char *lk_cpuidle_governor(void)
{
	return cpuidle_curr_governor ? cpuidle_curr_governor->name : NULL;
}

/**
 * lk_cpuidle_stats() - the cpuidle core's statistics of a CPU
 * @cpu: the CPU
 * @out: its states' usage, time, above and below as the core counted
 *       them in its cpuidle_device's states_usage[], and its idle entries
 *       with the tick stopped and kept (timer.c)
 *
 * An entry under way at the end of the run is not in usage and time_ns
 * yet (the core counts both as the state is left).
 *
 * Return: the number of states, 0 when no driver covers @cpu.
 */
int lk_cpuidle_stats(int cpu, struct linsched_cpuidle_stats *out)
{
	struct cpuidle_device *dev;
	struct cpuidle_driver *drv;
	int k;

	memset(out, 0, sizeof(*out));
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return 0;
	dev = per_cpu(cpuidle_devices, cpu);
	drv = dev ? cpuidle_get_cpu_driver(dev) : NULL;
	if (!drv || !dev->registered)
		return 0;
	out->nr_states = min(drv->state_count, LINSCHED_MAX_IDLE_STATES);
	for (k = 0; k < out->nr_states; k++) {
		const struct cpuidle_state_usage *u = &dev->states_usage[k];
		struct linsched_idle_usage *o = &out->state[k];

		strscpy(o->name, drv->states[k].name, sizeof(o->name));
		o->usage = u->usage;
		o->time_ns = u->time_ns;
		o->above = u->above;
		o->below = u->below;
	}
	out->tick_stopped = linsched_idle_tick_stopped[cpu];
	out->tick_kept = linsched_idle_tick_kept[cpu];
	return out->nr_states;
}
