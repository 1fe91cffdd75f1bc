// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cross-CPU work: reschedule and call-function IPIs, the call-single queue
 * (queued remote wakeups, async calls), irq_work, softirqs, the per-CPU
 * stopper threads (active balancing, migration), and the deferred work
 * that RCU callbacks and workqueue items become.
 */
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/completion.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/stop_machine.h>
#include <linux/workqueue.h>
#include <uapi/linux/sched/types.h>

#include "../../../kernel/workqueue_internal.h"
#include "linsched.h"

/* Defined by kernel/sched (core.c); smp.c would call it. */
void sched_ttwu_pending(void *arg);

static struct llist_head call_single_queue[NR_CPUS];

void __smp_call_single_queue(int cpu, struct llist_node *node)
{
	if (llist_add(node, &call_single_queue[cpu]))
		lh_ipi(cpu, LINSCHED_IRQ_CALL_FUNC, NULL);
}

void arch_send_call_function_single_ipi(int cpu)
{
	lh_ipi(cpu, LINSCHED_IRQ_CALL_FUNC, NULL);
}

void LINSCHED_SEND_RESCHEDULE(int cpu)
{
	lh_ipi(cpu, LINSCHED_IRQ_RESCHED, NULL);
}

/* Call-single entries in queue order; queued wakeups last, as smp.c does. */
void flush_smp_call_function_queue(void)
{
	struct llist_node *entry, *next, *ttwu = NULL, **ttwu_tail = &ttwu;
	unsigned long flags;

	local_irq_save(flags);
	entry = llist_del_all(&call_single_queue[smp_processor_id()]);
	entry = llist_reverse_order(entry);
	for (; entry; entry = next) {
		struct __call_single_node *node =
			container_of(entry, struct __call_single_node, llist);
		unsigned int type = node->u_flags & CSD_FLAG_TYPE_MASK;

		next = entry->next;
		if (type == CSD_TYPE_TTWU) {
			entry->next = NULL;
			*ttwu_tail = entry;
			ttwu_tail = &entry->next;
		} else if (type == CSD_TYPE_IRQ_WORK) {
			linsched_run_irq_work(container_of(node,
						struct irq_work, node));
		} else {
			call_single_data_t *csd = container_of(node,
						call_single_data_t, node);
			smp_call_func_t func = csd->func;
			void *info = csd->info;

			if (type == CSD_TYPE_SYNC) {
				func(info);
				csd->node.u_flags &= ~CSD_FLAG_LOCK;
			} else {
				csd->node.u_flags &= ~CSD_FLAG_LOCK;
				func(info);
			}
		}
	}
	if (ttwu)
		sched_ttwu_pending(ttwu);
	local_irq_restore(flags);
}

int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	if (csd->node.u_flags & CSD_FLAG_LOCK)
		return -EBUSY;
	csd->node.u_flags = CSD_FLAG_LOCK | CSD_TYPE_ASYNC;
	__smp_call_single_queue(cpu, &csd->node.llist);
	return 0;
}

/* ---- irq_work ---- */

bool irq_work_queue_on(struct irq_work *work, int cpu)
{
	int flags = atomic_read(&work->node.a_flags);

	if (flags & IRQ_WORK_PENDING)
		return false;
	atomic_or(IRQ_WORK_CLAIMED, &work->node.a_flags);
	lh_ipi(cpu, LINSCHED_IRQ_WORK, work);
	return true;
}

bool irq_work_queue(struct irq_work *work)
{
	return irq_work_queue_on(work, smp_processor_id());
}

void linsched_run_irq_work(void *arg)
{
	struct irq_work *work = arg;

	atomic_andnot(IRQ_WORK_PENDING, &work->node.a_flags);
	work->func(work);
	atomic_andnot(IRQ_WORK_BUSY, &work->node.a_flags);
}

/* ---- softirqs ---- */

DEFINE_PER_CPU_ALIGNED(irq_cpustat_t, irq_stat);
static struct softirq_action softirq_vec[NR_SOFTIRQS];

void open_softirq(int nr, LINSCHED_SOFTIRQ_HANDLER(action))
{
	softirq_vec[nr].action = action;
}

void __raise_softirq_irqoff(unsigned int nr)
{
	or_softirq_pending(1UL << nr);
}

void raise_softirq_irqoff(unsigned int nr)
{
	__raise_softirq_irqoff(nr);
	if (!in_interrupt())
		lh_ipi(smp_processor_id(), LINSCHED_IRQ_SOFTIRQ, NULL);
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	raise_softirq_irqoff(nr);
	local_irq_restore(flags);
}

/* Runs with interrupts disabled, at interrupt exit. */
void linsched_do_softirq(void)
{
	int restart = 10;
	u32 pending;

	preempt_count_add(SOFTIRQ_OFFSET);
	while ((pending = local_softirq_pending()) && restart--) {
		struct softirq_action *h = softirq_vec;

		set_softirq_pending(0);
		local_irq_enable();
		for (; pending; pending >>= 1, h++)
			if ((pending & 1) && h->action)
				LINSCHED_SOFTIRQ_CALL(h);
		local_irq_disable();
	}
	preempt_count_sub(SOFTIRQ_OFFSET);
}

void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	preempt_count_sub(cnt);
	if (!in_interrupt() && local_softirq_pending() && !irqs_disabled()) {
		local_irq_disable();
		linsched_do_softirq();
		local_irq_enable();
	}
}

/* ---- the stopper: one stop-class thread per CPU, as kernel/stop_machine.c ---- */

struct cpu_stop_done {
	int ret;
	struct completion completion;
};

static struct {
	struct task_struct *task;
	struct list_head works;
	bool enabled;		/* parked while its CPU is offline */
} stoppers[NR_CPUS];

static void linsched_stopper_main(void *arg)
{
	int cpu = (long)arg;
	struct cpu_stop_work *work;
	int ret;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (list_empty(&stoppers[cpu].works)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		if (smp_processor_id() != cpu)
			panic("linsched: stopper of CPU %d runs on CPU %d",
			      cpu, smp_processor_id());
		work = list_first_entry(&stoppers[cpu].works,
					struct cpu_stop_work, list);
		list_del_init(&work->list);
		preempt_count_inc();
		ret = work->fn(work->arg);
		preempt_count_dec();
		if (work->done) {
			work->done->ret = ret;
			complete(&work->done->completion);
		}
	}
}

/* Make @cpu's stopper, or unpark it when its CPU comes back. */
void linsched_stoppers_create(int cpu)
{
	struct sched_param param = { .sched_priority = MAX_RT_PRIO - 1 };
	char name[TASK_COMM_LEN];
	struct task_struct *p;

	stoppers[cpu].enabled = true;
	if (stoppers[cpu].task)
		return;
	INIT_LIST_HEAD(&stoppers[cpu].works);
	snprintf(name, sizeof(name), "migration/%d", cpu);
	p = linsched_fork(name, linsched_stopper_main, (void *)(long)cpu,
			  LT_KTHREAD);
	LINSCHED_SET_CPUS_ALLOWED_FORCE(p, cpumask_of(cpu));
	kthread_set_per_cpu(p, cpu);
	sched_setscheduler_nocheck(p, SCHED_FIFO, &param);
	sched_set_stop_task(cpu, p);
	stoppers[cpu].task = p;
	wake_up_new_task(p);
}

/* stop_machine_park(): the stopper of a CPU going offline takes no work. */
void linsched_stopper_park(int cpu)
{
	stoppers[cpu].enabled = false;
}

/* cpu_stop_queue_work(): false when the CPU's stopper is parked. */
static bool linsched_stop_queue(unsigned int cpu, struct cpu_stop_work *work)
{
	if (!stoppers[cpu].enabled)
		return false;
	list_add_tail(&work->list, &stoppers[cpu].works);
	wake_up_process(stoppers[cpu].task);
	return true;
}

LINSCHED_STOP_ONE_CPU_NOWAIT_RET stop_one_cpu_nowait(unsigned int cpu,
		cpu_stop_fn_t fn, void *arg, struct cpu_stop_work *work_buf)
{
	*work_buf = (struct cpu_stop_work){ .fn = fn, .arg = arg,
					    .caller = _RET_IP_ };
	LINSCHED_STOP_ONE_CPU_NOWAIT_RETURN(linsched_stop_queue(cpu, work_buf));
}

int stop_one_cpu(unsigned int cpu, cpu_stop_fn_t fn, void *arg)
{
	struct cpu_stop_done done = { };
	struct cpu_stop_work work = { .fn = fn, .arg = arg, .done = &done,
				      .caller = _RET_IP_ };

	init_completion(&done.completion);
	if (!linsched_stop_queue(cpu, &work))
		return -ENOENT;
	wait_for_completion(&done.completion);
	return done.ret;
}

void print_stop_info(const char *log_lvl, struct task_struct *task)
{
}

/* ---- deferred work: RCU callbacks and workqueue items ---- */

static LIST_HEAD(deferred_works);
static struct rcu_head *rcu_head_list, **rcu_tail = &rcu_head_list;
static bool deferred_posted;

static void linsched_defer(void)
{
	if (!deferred_posted) {
		deferred_posted = true;
		lh_ipi(smp_processor_id(), LINSCHED_IRQ_DEFERRED, NULL);
	}
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	head->func = func;
	head->next = NULL;
	*rcu_tail = head;
	rcu_tail = &head->next;
	linsched_defer();
}

#ifdef LINSCHED_KVFREE_CALL_RCU_HEAD
/*
 * The object is freed after a grace period. Its head may be NULL (the
 * single-argument kvfree_rcu()) or, in 7.x, too small to hold a pointer
 * and a link, so the pointers wait in a list of their own.
 */
static void **kvfree_ptrs;
static unsigned long nr_kvfree, kvfree_cap;

void kvfree_call_rcu(LINSCHED_KVFREE_CALL_RCU_HEAD *head, void *ptr)
{
	if (nr_kvfree == kvfree_cap) {
		unsigned long cap = kvfree_cap ? 2 * kvfree_cap : 64;
		void **v = lh_zalloc(cap * sizeof(*v));

		if (!v)
			panic("linsched: out of memory in kvfree_call_rcu()");
		if (nr_kvfree)
			memcpy(v, kvfree_ptrs, nr_kvfree * sizeof(*v));
		lh_free(kvfree_ptrs);
		kvfree_ptrs = v;
		kvfree_cap = cap;
	}
	kvfree_ptrs[nr_kvfree++] = ptr;
	linsched_defer();
}
#endif

void synchronize_rcu(void)
{
	/* no reader can be running: the simulator is single-threaded */
}

void rcu_all_qs(void)
{
}

void rcu_note_context_switch(bool preempt)
{
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
		return false;
	list_add_tail(&work->entry, &deferred_works);
	linsched_defer();
	return true;
}

/*
 * Delayed work (there is no timer_list here): an hrtimer queues the work
 * when its delay is over. Few delayed works exist (the 6.12 energy
 * model's capacity re-check is the one the scheduler's objects use), each
 * keeps its slot.
 */
struct linsched_dwork {
	struct hrtimer timer;
	struct delayed_work *dwork;
	int cpu;		/* whose wheel the kernel's timer is on */
};

static struct linsched_dwork linsched_dworks[16];

static enum hrtimer_restart linsched_dwork_fire(struct hrtimer *timer)
{
	struct linsched_dwork *d =
		container_of(timer, struct linsched_dwork, timer);
	struct delayed_work *dwork = d->dwork;

	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&dwork->work));
	queue_work_on(dwork->cpu, dwork->wq, &dwork->work);
	return HRTIMER_NORESTART;
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	struct linsched_dwork *d = NULL;
	size_t i;

	if (!delay)
		return queue_work_on(cpu, wq, &dwork->work);
	if (test_and_set_bit(WORK_STRUCT_PENDING_BIT,
			     work_data_bits(&dwork->work)))
		return false;
	for (i = 0; i < ARRAY_SIZE(linsched_dworks) && !d; i++)
		if (linsched_dworks[i].dwork == dwork ||
		    !linsched_dworks[i].dwork)
			d = &linsched_dworks[i];
	if (!d)
		panic("linsched: more than %zu delayed works",
		      ARRAY_SIZE(linsched_dworks));
	if (!d->dwork) {
		d->dwork = dwork;
		linsched_hrtimer_setup(&d->timer, linsched_dwork_fire);
	}
	dwork->wq = wq;
	dwork->cpu = cpu;
	d->cpu = smp_processor_id();
	hrtimer_start(&d->timer, ns_to_ktime((u64)delay * TICK_NSEC),
		      HRTIMER_MODE_REL);
	return true;
}

/*
 * When the next delayed work of @cpu is due (ns, KTIME_MAX: none): its
 * timer is a timer_list on @cpu's timer wheel in the kernel, the one
 * kind of timer that keeps the tick of an idle CPU (timer.c).
 */
u64 linsched_dwork_next(int cpu)
{
	u64 next = KTIME_MAX;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(linsched_dworks); i++) {
		struct hrtimer *t = &linsched_dworks[i].timer;

		if (linsched_dworks[i].dwork && hrtimer_is_queued(t) &&
		    linsched_dworks[i].cpu == cpu)
			next = min_t(u64, next,
				     ktime_to_ns(hrtimer_get_softexpires(t)));
	}
	return next;
}

void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = container_of(t, struct delayed_work, timer);

	queue_work_on(dwork->cpu, dwork->wq, &dwork->work);
}

struct workqueue_struct *system_wq;
struct workqueue_struct *system_percpu_wq;

void linsched_run_deferred(void)
{
	deferred_posted = false;
#ifdef LINSCHED_KVFREE_CALL_RCU_HEAD
	while (nr_kvfree)
		lh_free(kvfree_ptrs[--nr_kvfree]);
#endif
	while (rcu_head_list) {
		struct rcu_head *head = rcu_head_list;

		rcu_head_list = head->next;
		if (!rcu_head_list)
			rcu_tail = &rcu_head_list;
		head->func(head);
	}
	if (list_empty(&deferred_works))
		return;
	while (!list_empty(&deferred_works)) {
		struct work_struct *work = list_first_entry(&deferred_works,
						struct work_struct, entry);

		list_del_init(&work->entry);
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
		work->func(work);
	}
	/* a work that rebuilt the domains undid the cpusets' partition */
	linsched_partition_again();
}

void wq_worker_running(struct task_struct *task)
{
}

void wq_worker_sleeping(struct task_struct *task)
{
}

void wq_worker_tick(struct task_struct *task)
{
}

void print_worker_info(const char *log_lvl, struct task_struct *task)
{
}
