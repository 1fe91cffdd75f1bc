// SPDX-License-Identifier: GPL-2.0-only
/*
 * The linsched machine: boot, interrupts, context switches and the tasks
 * the simulator drives through the kernel's own paths.
 *
 * Every task runs on its own host stack. The simulator's event loop runs
 * on the main stack; it delivers interrupts with lk_irq() and lets a CPU's
 * current task run with lk_resume(). A task gives control back with
 * linsched_yield() only where a real CPU would wait for an interrupt: in
 * user mode, or halted in the idle loop.
 */
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/hotplug.h>
#include <linux/sched/idle.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/sched/signal.h>
#include <linux/sched/init.h>
#include <linux/sched/isolation.h>
#include <linux/init.h>
#include <linux/sched/mm.h>
#include <linux/sched/rt.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/task_work.h>
#include <linux/jump_label.h>
#include <asm/switch_to.h>
#include <uapi/linux/sched/types.h>
#include <generated/utsrelease.h>

#include "linsched.h"

int linsched_cpu;
struct task_struct *linsched_curr[NR_CPUS];
unsigned long linsched_irqflags[NR_CPUS];

static struct lh_context *main_ctx;	/* the simulator's event loop */
static struct task_struct *switch_from;	/* "last" for the task switched to */
static const struct linsched_machine *machine;
static int next_pid = 1;

struct linsched_task *linsched_task_attach(struct task_struct *p,
					   enum linsched_task_kind kind)
{
	struct linsched_task *lt = lh_zalloc(sizeof(*lt));

	lt->p = p;
	lt->kind = kind;
	linsched_sleep_timer_init(lt);
	p->thread.priv = lt;
	p->thread.ctx = lh_context_new((struct lk_task *)p, &lt->stack);
	return lt;
}

void linsched_yield(void)
{
	lh_context_switch(&current->thread.ctx, main_ctx);
}

void lk_resume(int cpu)
{
	linsched_cpu = cpu;
	lh_context_switch(&main_ctx, linsched_curr[cpu]->thread.ctx);
}

/*
 * The bits the return to user mode reschedules on: under PREEMPT_LAZY a
 * fair wakeup preemption sets only TIF_NEED_RESCHED_LAZY, with no IPI to
 * a remote CPU; the tick makes it TIF_NEED_RESCHED (sched_tick()), which
 * alone preempts kernel code, and exit_to_user_mode_loop() acts on both.
 * A task gives the CPU back only in user mode (lk_yield()), so its CPU's
 * next interrupt of any kind returns to user mode and acts on both bits.
 */
#ifdef LINSCHED_HAVE_PREEMPT_LAZY
#ifndef CONFIG_ARCH_HAS_PREEMPT_LAZY
#error "probe preempt_lazy found ARCH_HAS_PREEMPT_LAZY in kernel/Kconfig.preempt, but the configuration does not select it"
#endif
#define LINSCHED_TIF_RESCHED_USER (_TIF_NEED_RESCHED | _TIF_NEED_RESCHED_LAZY)
#else
#define LINSCHED_TIF_RESCHED_USER _TIF_NEED_RESCHED
#endif

/*
 * After an interrupt: a task with need_resched set (either bit) must run
 * to call schedule(), one with task works to run them (the return to user
 * mode does both); an idle CPU goes round its idle loop, as on real
 * hardware (the idle task only ever gets TIF_NEED_RESCHED:
 * __resched_curr() makes a lazy request for it a full one).
 */
int lk_needs_resume(int cpu)
{
	struct task_struct *p = linsched_curr[cpu];

	return (READ_ONCE(task_thread_info(p)->flags) &
		LINSCHED_TIF_RESCHED_USER) ||
	       is_idle_task(p) || p->task_works;
}

/* Halt: wait for the next interrupt, with interrupts enabled. */
void arch_cpu_idle(void)
{
#ifdef CONFIG_CPU_IDLE
	/* default_idle_call(): cpuidle_idle_call()'s branch without a driver */
	WARN_ONCE(cpumask_test_cpu(linsched_cpu, &linsched_cpuidle_cpus),
		  "linsched: CPU %d halts without cpuidle, with a driver registered",
		  linsched_cpu);
#endif
	raw_local_irq_enable();
	linsched_yield();
}

int lk_this_cpu(void)
{
	return linsched_cpu;
}

struct task_struct *__switch_to(struct task_struct *prev,
				struct task_struct *next)
{
	linsched_curr[linsched_cpu] = next;
	switch_from = prev;
	lh_context_switch(&prev->thread.ctx, next->thread.ctx);
	/* prev runs again, switched to by another task, maybe on another CPU */
	return switch_from;
}

/* A copy of the current task made the way dup_task_struct() makes one. */
static struct task_struct *linsched_dup_task(struct task_struct *orig,
					     const char *name)
{
	struct task_struct *p = lh_zalloc(sizeof(*p));

	memcpy(p, orig, sizeof(*p));
	p->thread.ctx = NULL;
	p->thread.priv = NULL;
	p->stack = NULL;
	refcount_set(&p->usage, 1);
	refcount_set(&p->rcu_users, 2);
	if (orig->cpus_ptr == &orig->cpus_mask)
		p->cpus_ptr = &p->cpus_mask;
	p->user_cpus_ptr = NULL;
	p->migration_pending = NULL;
	p->migration_disabled = 0;
	raw_spin_lock_init(&p->pi_lock);
#ifdef CONFIG_RT_MUTEXES
	p->pi_waiters = RB_ROOT_CACHED;
	p->pi_top_task = NULL;
	p->pi_blocked_on = NULL;
#endif
	p->wake_q.next = NULL;
	p->task_works = NULL;
	INIT_LIST_HEAD(&p->cg_list);
	task_thread_info(p)->flags = 0;
	p->flags &= ~(PF_KTHREAD | PF_NO_SETAFFINITY | PF_IDLE | PF_WQ_WORKER);
	p->nvcsw = p->nivcsw = 0;
	p->pid = p->tgid = next_pid++;
	p->group_leader = p;
	p->real_parent = p->parent = orig;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	strscpy(p->comm, name, sizeof(p->comm));
	return p;
}

struct task_struct *linsched_fork(const char *name, void (*main)(void *),
				  void *payload, enum linsched_task_kind kind)
{
	struct task_struct *p = linsched_dup_task(current, name);
	struct kernel_clone_args args = { };
	struct linsched_task *lt;

	if (kind == LT_KTHREAD)
		p->flags |= PF_KTHREAD | PF_NO_SETAFFINITY;
	lt = linsched_task_attach(p, kind);
	lt->main = main;
	lt->payload = payload;
	if (sched_fork(0, p))
		panic("linsched: sched_fork failed for %s", name);
	/* cgroup_can_fork(): the child starts in its parent's css_set */
	args.cset = current->cgroups;
	sched_cgroup_fork(p, &args);
	sched_post_fork(p);
	linsched_cgroup_fork(p);
	linsched_trace_fork(current, p);
	return p;
}

/* The door's handle of a task is its task_struct. */
static struct task_struct *task_of(struct lk_task *task)
{
	return (struct task_struct *)task;
}

static int linsched_task_setattr(struct task_struct *p,
				 const struct sched_attr *sa, const char **why)
{
	int ret = sched_setattr_nocheck(p, sa);

	if (ret)
		*why = ret == -EOPNOTSUPP ?
			"util_min/util_max need a kernel built with CONFIG_UCLAMP_TASK" :
			ret == -EBUSY ?
			"the kernel refused the SCHED_DEADLINE parameters (admission control: not enough bandwidth)" :
			"the kernel refused the policy and its parameters (sched_setattr)";
	return ret;
}

/*
 * A task of every other policy is set before its first wakeup, so that a
 * refused one stays TASK_NEW, unseen. A SCHED_DEADLINE task is woken
 * first, as a fair task, and set once queued, as rt-app's thread sets
 * itself: the kernel never forks a deadline task (sched_fork() refuses
 * one), and deadline.c gives a task its first runtime and deadline
 * (setup_new_dl_entity()) and counts it in running_bw only when it enters
 * the class queued (ENQUEUE_RESTORE/MOVE) or by a wakeup (ENQUEUE_WAKEUP).
 * wake_up_new_task()'s ENQUEUE_INITIAL does neither: the task would be
 * throttled at once with runtime 0 ("DL replenish lagged too much") and
 * its first block would take its bandwidth out of a running_bw that never
 * had it (the underflow WARN of 7.x's __sub_running_bw(); 6.x compiled
 * the same check out without CONFIG_SCHED_DEBUG). A refusal ends the run,
 * so the woken task is never seen.
 */
struct lk_task *lk_task_new(const struct linsched_task_attr *attr,
			    const char **why)
{
	struct sched_attr sa = {
		.size = sizeof(sa),
		.sched_policy = attr->policy,
		.sched_priority = attr->rt_priority,
		.sched_nice = attr->nice,
		.sched_runtime = attr->dl_runtime,
		.sched_deadline = attr->dl_deadline,
		.sched_period = attr->dl_period,
	};
	bool deadline = attr->policy == SCHED_DEADLINE;
	struct task_struct *p;
	int ret;

	if (attr->util_min >= 0) {
		sa.sched_flags |= SCHED_FLAG_UTIL_CLAMP_MIN;
		sa.sched_util_min = attr->util_min;
	}
	if (attr->util_max >= 0) {
		sa.sched_flags |= SCHED_FLAG_UTIL_CLAMP_MAX;
		sa.sched_util_max = attr->util_max;
	}
	p = linsched_fork(attr->name, attr->main, attr->payload, LT_USER);
	/*
	 * A fair task's dl_runtime is its slice request (sched_runtime). A
	 * task forked by a workload task inherits its policy and nice value;
	 * rt-app's new thread sets its own (set_thread_param()), the
	 * defaults too: so does the task here, when they differ.
	 */
	if (!deadline &&
	    (attr->policy || attr->nice || sa.sched_flags || attr->dl_runtime ||
	     p->policy != SCHED_NORMAL || task_nice(p)) &&
	    linsched_task_setattr(p, &sa, why))
		return NULL;
	if (attr->nr_allowed) {
		ret = lk_task_set_affinity((struct lk_task *)p, attr->nr_allowed,
					   attr->allowed);
		if (ret) {
			*why = "the kernel refused the CPU affinity (set_cpus_allowed_ptr)";
			return NULL;
		}
	}
	wake_up_new_task(p);
	if (deadline && linsched_task_setattr(p, &sa, why))
		return NULL;
	return (struct lk_task *)p;
}

/* Task works (7.x throttles a bandwidth-limited task with one). */
static void linsched_task_work_run(void)
{
	struct callback_head *work, *next;

	while ((work = current->task_works)) {
		current->task_works = NULL;
		for (; work; work = next) {
			next = work->next;
			work->func(work);
		}
	}
}

int task_work_add(struct task_struct *task, struct callback_head *work,
		  enum task_work_notify_mode notify)
{
	/* run at its next return to user mode (TWA_RESUME and the rest) */
	work->next = task->task_works;
	task->task_works = work;
	return 0;
}

/*
 * The return to user mode: reschedule (on either bit, as
 * exit_to_user_mode_loop() does), run task works, until neither.
 */
void lk_task_user_return(void)
{
	for (;;) {
		if (READ_ONCE(current_thread_info()->flags) &
		    LINSCHED_TIF_RESCHED_USER)
			schedule();
		else if (current->task_works)
			linsched_task_work_run();
		else
			break;
	}
}

void lk_task_sleep(unsigned long long ns)
{
	ktime_t expires = ns_to_ktime(ns);

	set_current_state(TASK_INTERRUPTIBLE);
	schedule_hrtimeout(ns ? &expires : NULL, HRTIMER_MODE_REL);
	/* the system call returns to user mode: its pending work runs */
	if (current->task_works)
		lk_task_user_return();
}

int lk_task_wake(struct lk_task *task)
{
	return wake_up_process(task_of(task));
}

void lk_task_yield(void)
{
	yield();
	if (current->task_works)
		lk_task_user_return();
}

void lk_task_exit(void)
{
	linsched_trace_exit(current);
	/* cgroup_exit(): it leaves its css_set */
	cgroup_task_dead(current);
	/*
	 * exit_notify(): a thread nobody waits for is reaped at once, as
	 * rt-app's are; sched_switch's prev_state then reads X
	 */
	current->exit_state = EXIT_DEAD;
	preempt_disable();
	do_task_dead();
}

int lk_task_set_affinity(struct lk_task *task, int nr, const int *cpus)
{
	struct cpumask *mask = lh_zalloc(cpumask_size());
	int i, ret;

	for (i = 0; i < nr; i++)
		cpumask_set_cpu(cpus[i], mask);
	ret = set_cpus_allowed_ptr(task_of(task), mask);
	lh_free(mask);
	return ret;
}

int lk_task_set_nice(struct lk_task *task, int nice)
{
	set_user_nice(task_of(task), nice);
	return 0;
}

void lk_task_pi(struct lk_task *task, struct lk_task *donor)
{
	struct task_struct *p = task_of(task);
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	rt_mutex_setprio(p, donor ? task_of(donor) : NULL);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

void lk_preempt_disable(void)
{
	preempt_disable();
}

void lk_preempt_enable(void)
{
	preempt_enable();
}

/*
 * sched_setattr() rechecks the PI chain of a task whose priority it set.
 * The chain is the simulator's (its mutexes are not rt_mutexes, so no
 * task is ever pi_blocked_on one), and no policy changes while a task
 * holds or waits: there is nothing to walk.
 */
void rt_mutex_adjust_pi(struct task_struct *task)
{
	WARN_ON_ONCE(task->pi_blocked_on);
}

void lk_task_stats(struct lk_task *task, struct linsched_task_stats *out)
{
	struct task_struct *p = task_of(task);

	out->pid = p->pid;
	out->cpu = task_cpu(p);
	out->sum_exec_ns = p->se.sum_exec_runtime;
	out->nr_migrations = p->se.nr_migrations;
	out->nr_voluntary = p->nvcsw;
	out->nr_involuntary = p->nivcsw;
	out->nr_switches = p->nvcsw + p->nivcsw;
	out->prio = p->prio;
}

void lk_yield(void)
{
	linsched_yield();
}

/* ---- boot ---- */

static void linsched_set_online(int cpu)
{
	set_cpu_online(cpu, true);
}

static DECLARE_COMPLETION(linsched_ap_online);

/*
 * A secondary's idle task got to its idle loop: cpu_startup_entry() has
 * marked it PF_IDLE. Until then is_idle_task() is false on that CPU, and
 * the kernel takes it for busy (its PELT clock does not follow the rq
 * clock while idle). The boot CPU waits for this, as kernel/cpu.c's
 * bringup does.
 */
void cpuhp_online_idle(enum cpuhp_state state)
{
	if (state == CPUHP_AP_ONLINE_IDLE)
		complete(&linsched_ap_online);
}

/* Each CPU's idle task, kept while it is offline for its next bring-up. */
static struct task_struct *linsched_idle[NR_CPUS];

/*
 * Bring @cpu up, from init or the hotplug control: its idle task (a new
 * one at boot, the same one again after it went offline, on a fresh
 * stack, as an AP starts in start_secondary()), its starting steps, its
 * stopper, and its idle loop. At boot sched_cpu_activate() follows at
 * once; a CPU coming back runs it on its hotplug thread (hotplug.c).
 */
void linsched_secondary_start(int cpu, bool boot)
{
	struct task_struct *idle = linsched_idle[cpu];

	if (boot) {
		idle = linsched_dup_task(&init_task, "swapper");
		idle->pid = 0;
		next_pid--;
		linsched_task_attach(idle, LT_IDLE);
		init_idle(idle, cpu);
		/* as an arch's cpu_init(): the idle task borrows init_mm */
		mmgrab(&init_mm);
		idle->active_mm = &init_mm;
		linsched_idle[cpu] = idle;
	} else {
		struct linsched_task *lt = task_lt(idle);

		lh_cpu_online(cpu, 1);
		/* CPU 0's is init_task: it boots no more, it idles */
		lt->kind = LT_IDLE;
		lh_context_free(lt->stack);
		idle->thread.ctx = lh_context_new((struct lk_task *)idle,
						  &lt->stack);
		init_idle_preempt_count(idle, cpu);
		clear_tsk_need_resched(idle);
		linsched_tick_cpu_up(cpu);
	}
	linsched_curr[cpu] = idle;
	/* it starts in its idle loop, interrupts enabled, at its first event */
	linsched_irqflags[cpu] = ARCH_IRQ_ENABLED;
	sched_cpu_starting(cpu);
	linsched_set_online(cpu);
	/* a per-CPU kthread may only be woken on an online CPU */
	linsched_stoppers_create(cpu);
	if (boot)
		sched_cpu_activate(cpu);
	lh_tick(cpu, 1);
	/* the secondary's idle loop starts at its first event */
	lh_ipi(cpu, LINSCHED_IRQ_RESCHED, NULL);
	wait_for_completion(&linsched_ap_online);
}

/* pid 1: brings up the other CPUs, builds the domains, starts the workload */
static void linsched_init_main(void *unused)
{
	int cpu;

	for (cpu = 1; cpu < machine->nr_cpus; cpu++)
		linsched_secondary_start(cpu, true);
	sched_init_smp();
	linsched_fair_servers_start();
	linsched_cpufreq_init(machine);
#ifdef CONFIG_CPU_IDLE
	linsched_cpuidle_init(machine);
#endif
	/*
	 * The secondaries went idle before they had sched domains, so their
	 * stopped ticks never entered nohz balancing (on_null_domain). Real
	 * CPUs soon wake for other reasons; these would sleep for ever and
	 * never be idle-balanced. Send each round its idle loop once more.
	 */
	for (cpu = 1; cpu < machine->nr_cpus; cpu++)
		resched_cpu(cpu);
	/* as kernel_init() does once the init code is done */
	system_state = SYSTEM_RUNNING;
	lh_boot_done();
	for (;;)
		lk_task_sleep(0);
}

/*
 * The machine's boot parameters, each to the kernel's own __setup()
 * handler, as parse_args() in start_kernel() hands them out. A parameter
 * no handler takes, or one its handler refuses, stops the boot.
 */
/* init/main.c's: maxcpus= is not a parameter here */
unsigned int setup_max_cpus = NR_CPUS;
/* linux/init.h has them from 6.2 on, init/main.c before; the linker
 * script bounds the section */
extern const struct obs_kernel_param __setup_start[], __setup_end[];

static void __init linsched_parse_cmdline(void)
{
	static char line[sizeof(machine->cmdline)];
	char *param, *rest = line;

	strscpy(line, machine->cmdline, sizeof(line));
	while ((param = strsep(&rest, " ")) != NULL) {
		const struct obs_kernel_param *p;
		int done = 0;

		if (!*param)
			continue;
		for (p = __setup_start; p < __setup_end; p++) {
			size_t n = strlen(p->str);

			if (p->early || strncmp(param, p->str, n))
				continue;
			if (!p->setup_func(param + n))
				panic("linsched: boot parameter '%s': the kernel refused it (see its messages)",
				      param);
			done = 1;
			break;
		}
		if (!done)
			panic("linsched: boot parameter '%s': no __setup() handler in this revision takes it",
			      param);
	}
}

static void linsched_boot_main(void)
{
	int cpu;

	linsched_cpu = 0;
	static_key_initialized = true;
	for (cpu = 0; cpu < machine->nr_cpus; cpu++) {
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
	}
	nr_cpu_ids = machine->nr_cpus;
	linsched_percpu_setup();
	linsched_topology_init(machine);
	linsched_timers_init();
	linsched_trace_init();
	linsched_counters_init();
	linsched_set_online(0);
	set_cpu_active(0, true);
	linsched_parse_cmdline();
	linsched_features_init();
	sched_init();
	linsched_cgroup_init();
	sched_clock_init();
	/* as start_kernel() does after sched_init() */
	housekeeping_init();
	/* as rest_init() does before the first task is forked */
	system_state = SYSTEM_SCHEDULING;
	wake_up_new_task(linsched_fork("init", linsched_init_main, NULL,
				       LT_USER));
	linsched_stoppers_create(0);
}

void lk_task_entry(struct lk_task *task)
{
	struct task_struct *p = task_of(task);
	struct linsched_task *lt = task_lt(p);

	switch (lt->kind) {
	case LT_BOOT:
		linsched_boot_main();
		local_irq_enable();
		lh_tick(0, 1);
		cpu_startup_entry(CPUHP_ONLINE);
		break;
	case LT_IDLE:
		local_irq_enable();
		cpu_startup_entry(CPUHP_AP_ONLINE_IDLE);
		break;
	case LT_USER:
	case LT_KTHREAD:
		schedule_tail(switch_from);
		lt->main(lt->payload);
		lk_task_exit();
	}
	panic("linsched: task %s/%d returned from its entry", p->comm, p->pid);
}

int lk_boot(const struct linsched_machine *m)
{
	if (m->nr_cpus < 1 || m->nr_cpus > NR_CPUS)
		return -1;
	machine = m;
	linsched_cpu = 0;
	linsched_irqflags[0] = ARCH_IRQ_DISABLED;
	linsched_curr[0] = &init_task;
	linsched_idle[0] = &init_task;
	linsched_task_attach(&init_task, LT_BOOT);
	return 0;
}

int lk_door_version(void)
{
	return LINSCHED_DOOR_VERSION;
}

int lk_cpuidle(void)
{
	if (!IS_ENABLED(CONFIG_CPU_IDLE))
		return 0;
	return LK_CPUIDLE_CORE |
	       (IS_ENABLED(CONFIG_CPU_IDLE_GOV_MENU) ? LK_CPUIDLE_MENU : 0) |
	       (IS_ENABLED(CONFIG_CPU_IDLE_GOV_TEO) ? LK_CPUIDLE_TEO : 0) |
	       (IS_ENABLED(CONFIG_CPU_IDLE_GOV_LADDER) ? LK_CPUIDLE_LADDER : 0);
}

#ifndef CONFIG_CPU_IDLE
const char *lk_cpuidle_governor(void)
{
	return NULL;
}

/* No drivers/cpuidle/: no statistics (cpuidle.c has the real one). */
int lk_cpuidle_stats(int cpu, struct linsched_cpuidle_stats *out)
{
	memset(out, 0, sizeof(*out));
	return 0;
}
#endif

int lk_max_cpus(void)
{
	return NR_CPUS;
}

const char *lk_version(void)
{
	return UTS_RELEASE;
}

const char *lk_preempt_model(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return "rt";
	if (IS_ENABLED(CONFIG_PREEMPT_LAZY))
		return "lazy";
	if (IS_ENABLED(CONFIG_PREEMPT))
		return "full";
	if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		return "voluntary";
	return "none";
}

/* ---- interrupts ---- */

void lk_irq(int cpu, enum linsched_irq kind, void *arg)
{
	linsched_cpu = cpu;
	if (arch_irqs_disabled_flags(linsched_irqflags[cpu]))
		panic("linsched: interrupt %d delivered to CPU %d with interrupts disabled",
		      kind, cpu);
	local_irq_disable();
	preempt_count_add(HARDIRQ_OFFSET);
	linsched_jiffies_update();
	switch (kind) {
	case LINSCHED_IRQ_TICK:
		linsched_tick(cpu);
		break;
	case LINSCHED_IRQ_TIMER:
		linsched_timer_fire(cpu, arg);
		break;
	case LINSCHED_IRQ_RESCHED:
		scheduler_ipi();
		break;
	case LINSCHED_IRQ_CALL_FUNC:
		flush_smp_call_function_queue();
		break;
	case LINSCHED_IRQ_WORK:
		linsched_run_irq_work(arg);
		break;
	case LINSCHED_IRQ_DEFERRED:
		linsched_run_deferred();
		break;
	case LINSCHED_IRQ_SOFTIRQ:
		break;		/* they run at the exit, below */
	}
	preempt_count_sub(HARDIRQ_OFFSET);
	if (local_softirq_pending())
		linsched_do_softirq();
	local_irq_enable();
}
