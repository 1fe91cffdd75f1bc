// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU hotplug, the scheduler's part of kernel/cpu.c: a CPU goes offline
 * through sched_cpu_deactivate() and sched_cpu_wait_empty() on its own
 * hotplug thread (cpuhp/N), then take_cpu_down()'s dying steps
 * (sched_cpu_dying()) in its stopper, and its idle loop plays dead; it
 * comes back through sched_cpu_starting(), its idle loop and
 * sched_cpu_activate() on its hotplug thread. Between them the tree's
 * own code moves the tasks off (balance_push), rebuilds the sched domains
 * (cpuset_cpu_inactive/active) and refuses what it must (dl_bw).
 *
 * Sched-domain partitions as cpusets make them (partition_sched_domains)
 * are here too: the simulator's cpuset side says which CPUs form a root
 * domain.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/rcuwait.h>
#include <linux/sched.h>
#include <linux/sched/hotplug.h>
#include <linux/sched/isolation.h>
#include <linux/sched/task.h>
#include <linux/sched/topology.h>
#include <linux/smp.h>
#include <linux/stop_machine.h>

#include "linsched.h"

/* cpus_read_lock(): nothing runs beside the simulator's one thread */
void cpus_read_lock(void)
{
}

void cpus_read_unlock(void)
{
}

/* ---- rcuwait, kernel/exit.c's: the hotplug thread waits on one ---- */

int rcuwait_wake_up(struct rcuwait *w)
{
	struct task_struct *task = rcu_dereference(w->task);

	return task ? wake_up_process(task) : 0;
}

void finish_rcuwait(struct rcuwait *w)
{
	rcu_assign_pointer(w->task, NULL);
	__set_current_state(TASK_RUNNING);
}

/* ---- the per-CPU hotplug threads: a CPU's own steps run on it ---- */

struct cpuhp_step {
	const char *name;
	int (*fn)(unsigned int cpu);
	int state;			/* enum cpuhp_state */
};

static struct {
	struct task_struct *thread;
	const struct cpuhp_step *step;
	int target;
	int ret;
	struct completion done;
} cpuhp[NR_CPUS];

static int cpuhp_invoke(int cpu, const struct cpuhp_step *step, int target)
{
	int ret;

	linsched_trace("cpuhp_enter", "cpu: %04u target: %3d step: %3d (%s)",
		       cpu, target, step->state, step->name);
	ret = step->fn(cpu);
	linsched_trace("cpuhp_exit", "cpu: %04u  state: %3d step: %3d ret: %d",
		       cpu, ret ? step->state : step->state - 1, step->state,
		       ret);
	return ret;
}

static void cpuhp_thread_main(void *arg)
{
	int cpu = (long)arg;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!cpuhp[cpu].step) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		if (smp_processor_id() != cpu)
			panic("linsched: cpuhp/%d runs on CPU %d", cpu,
			      smp_processor_id());
		cpuhp[cpu].ret = cpuhp_invoke(cpu, cpuhp[cpu].step,
					      cpuhp[cpu].target);
		cpuhp[cpu].step = NULL;
		complete(&cpuhp[cpu].done);
	}
}

/* Run @step on @cpu's hotplug thread and wait for it, as cpuhp_kick_ap(). */
static int cpuhp_on_ap(int cpu, const struct cpuhp_step *step, int target)
{
	if (!cpuhp[cpu].thread) {
		char name[TASK_COMM_LEN];
		struct task_struct *p;

		snprintf(name, sizeof(name), "cpuhp/%d", cpu);
		p = linsched_fork(name, cpuhp_thread_main, (void *)(long)cpu,
				  LT_KTHREAD);
		LINSCHED_SET_CPUS_ALLOWED_FORCE(p, cpumask_of(cpu));
		kthread_set_per_cpu(p, cpu);
		cpuhp[cpu].thread = p;
		wake_up_new_task(p);
	}
	init_completion(&cpuhp[cpu].done);
	cpuhp[cpu].step = step;
	cpuhp[cpu].target = target;
	wake_up_process(cpuhp[cpu].thread);
	wait_for_completion(&cpuhp[cpu].done);
	return cpuhp[cpu].ret;
}

static const struct cpuhp_step step_activate = {
	"sched_cpu_activate", sched_cpu_activate, CPUHP_AP_ACTIVE,
};
static const struct cpuhp_step step_deactivate = {
	"sched_cpu_deactivate", sched_cpu_deactivate, CPUHP_AP_ACTIVE,
};
static const struct cpuhp_step step_wait_empty = {
	"sched_cpu_wait_empty", sched_cpu_wait_empty,
	CPUHP_AP_SCHED_WAIT_EMPTY,
};
static const struct cpuhp_step step_dying = {
	"sched_cpu_dying", sched_cpu_dying, CPUHP_AP_SCHED_STARTING,
};

/* ---- down ---- */

static DECLARE_COMPLETION(cpu_dead);

static void cpuhp_complete_idle_dead(void *unused)
{
	complete(&cpu_dead);
}

static call_single_data_t dead_csd = CSD_INIT(cpuhp_complete_idle_dead, NULL);

/* take_cpu_down(), in the dying CPU's stopper. */
static int linsched_take_cpu_down(void *unused)
{
	int cpu = smp_processor_id();

	/* __cpu_disable(): no more interrupts for it */
	set_cpu_online(cpu, false);
	/* the dying steps: smpcfd_dying_cpu(), then the scheduler's */
	flush_smp_call_function_queue();
	cpuhp_invoke(cpu, &step_dying, CPUHP_OFFLINE);
	/* stop_machine_park() */
	linsched_stopper_park(cpu);
	return 0;
}

/* The dying CPU's idle loop tells the control CPU, by an IPI. */
void cpuhp_report_idle_dead(void)
{
	smp_call_function_single_async(cpumask_first(cpu_online_mask),
				       &dead_csd);
}

/* Its idle task plays dead: the CPU stops until it is brought up again. */
void arch_cpu_idle_dead(void)
{
	lh_cpu_online(smp_processor_id(), 0);
	for (;;)
		linsched_yield();
}

int lk_cpu_down(int cpu)
{
	int ret;

	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	if (num_online_cpus() == 1)
		return -EBUSY;
	set_cpu_dying(cpu, true);
	ret = cpuhp_on_ap(cpu, &step_deactivate, CPUHP_OFFLINE);
	if (ret) {
		set_cpu_dying(cpu, false);
		return ret;
	}
	cpuhp_on_ap(cpu, &step_wait_empty, CPUHP_OFFLINE);
	reinit_completion(&cpu_dead);
	stop_one_cpu(cpu, linsched_take_cpu_down, NULL);
	wait_for_completion(&cpu_dead);
	return 0;
}

/* ---- up ---- */

int lk_cpu_up(int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || cpu_online(cpu))
		return -EINVAL;
	set_cpu_dying(cpu, false);
	linsched_secondary_start(cpu, false);
	return cpuhp_on_ap(cpu, &step_activate, CPUHP_ONLINE);
}

/* ---- partitions: what cpuset's rebuild_sched_domains() hands over ---- */

/*
 * The partition last made, made again after the kernel rebuilds its
 * domains of its own accord: with cpusets, rebuild_sched_domains() asks
 * cpuset for the partitions each time; without them (this arch has no
 * kernel/cgroup/cpuset.c) it makes one domain of every CPU. The energy
 * model does so from a work queued when schedutil starts (sugov_init():
 * rebuild_sd_work), which runs after the workload's cpusets made their
 * partitions, and would undo them.
 */
static int part_dom[NR_CPUS];
static bool part_made;

static int make_partition(const int *dom);

void linsched_partition_again(void)
{
	if (part_made)
		make_partition(part_dom);
}

int lk_sched_domains(const int *dom)
{
	int cpu;

	for_each_possible_cpu(cpu)
		part_dom[cpu] = dom[cpu];
	part_made = true;
	return make_partition(dom);
}

static int make_partition(const int *dom)
{
	cpumask_var_t *doms;
	int n = 0, ndoms = 0, cpu, i;

	for_each_possible_cpu(cpu)
		n = max(n, dom[cpu] + 1);
	doms = n ? alloc_sched_domains(n) : NULL;
	if (n && !doms)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		cpumask_clear(doms[ndoms]);
		for_each_cpu_and(cpu, cpu_active_mask,
				 housekeeping_cpumask(HK_TYPE_DOMAIN))
			if (dom[cpu] == i)
				cpumask_set_cpu(cpu, doms[ndoms]);
		if (!cpumask_empty(doms[ndoms]))
			ndoms++;
	}
	partition_sched_domains(ndoms, ndoms ? doms : NULL, NULL);
	if (!ndoms && doms)
		free_sched_domains(doms, n);
	return 0;
}
