// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frequency and energy: a cpufreq core and driver for the simulated
 * machine, just enough for the revision's own schedutil governor
 * (kernel/sched/cpufreq_schedutil.c) and energy model
 * (kernel/power/energy_model.c), plus the CPU devices they hang on.
 *
 * One policy per frequency domain of the machine. The driver switches fast,
 * from scheduler context, among the domain's OPPs (cpufreq-dt style,
 * CPUFREQ_RELATION_L), updates the frequency-invariance scale the
 * scheduler reads (arch_scale_freq_capacity) and tells the simulator
 * (lh_cpufreq), whose CPUs then run at that OPP's capacity. There is no
 * slow path: the kthread worker API fails loudly if a revision asks for it.
 */
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/irq_work.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/sched/topology.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <trace/events/power.h>

#include "linsched.h"

/* full speed until a policy says otherwise, as arch_topology.c starts */
unsigned long linsched_freq_scale[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = SCHED_CAPACITY_SCALE
};

static const struct linsched_machine *machine;
static struct cpufreq_policy *cpu_policy[NR_CPUS];
static struct device cpu_dev[NR_CPUS];
static char cpu_dev_name[NR_CPUS][12];

#ifdef LINSCHED_HAVE_CPUFREQ_PRESSURE
DEFINE_PER_CPU(unsigned long, cpufreq_pressure);
#endif

/* ---- CPU devices: what the energy model registers against ---- */

LINSCHED_CPU_SUBSYS_CONST struct bus_type cpu_subsys = {
	.name = "cpu",
	.dev_name = "cpu",
};

struct device *get_cpu_device(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? &cpu_dev[cpu] : NULL;
}

static void linsched_dev_printk(const char *level, const struct device *dev,
				const char *fmt, va_list ap)
{
	char msg[256], format[16];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* the level prefix must open the format to be taken as one */
	snprintf(format, sizeof(format), "%s%%s: %%s", level);
	printk(format, dev_name(dev), msg);
}

#define LINSCHED_DEV_PRINTK(fn, level)					\
	void fn(const struct device *dev, const char *fmt, ...)	\
	{								\
		va_list ap;						\
									\
		va_start(ap, fmt);					\
		linsched_dev_printk(level, dev, fmt, ap);		\
		va_end(ap);						\
	}

LINSCHED_DEV_PRINTK(_dev_err, KERN_ERR)
LINSCHED_DEV_PRINTK(_dev_warn, KERN_WARNING)
LINSCHED_DEV_PRINTK(_dev_info, KERN_INFO)

/* ---- kobjects: governors' sysfs directories, never shown ---- */

int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
			 struct kobject *parent, const char *fmt, ...)
{
	memset(kobj, 0, sizeof(*kobj));
	kobj->ktype = ktype;
	kobj->parent = parent;
	kref_init(&kobj->kref);
	return 0;
}

static void linsched_kobject_release(struct kref *kref)
{
	struct kobject *kobj = container_of(kref, struct kobject, kref);

	if (kobj->ktype && kobj->ktype->release)
		kobj->ktype->release(kobj);
}

void kobject_put(struct kobject *kobj)
{
	if (kobj)
		kref_put(&kobj->kref, linsched_kobject_release);
}

const struct sysfs_ops governor_sysfs_ops;

void gov_attr_set_init(struct gov_attr_set *attr_set,
		       struct list_head *list_node)
{
	INIT_LIST_HEAD(&attr_set->policy_list);
	mutex_init(&attr_set->update_lock);
	attr_set->usage_count = 1;
	list_add(list_node, &attr_set->policy_list);
}

void gov_attr_set_get(struct gov_attr_set *attr_set,
		      struct list_head *list_node)
{
	attr_set->usage_count++;
	list_add(list_node, &attr_set->policy_list);
}

unsigned int gov_attr_set_put(struct gov_attr_set *attr_set,
			      struct list_head *list_node)
{
	list_del(list_node);
	if (--attr_set->usage_count)
		return attr_set->usage_count;
	kobject_put(&attr_set->kobj);
	return 0;
}

/* ---- the cpufreq core ---- */

struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu)
{
	return cpu < nr_cpu_ids ? cpu_policy[cpu] : NULL;
}

void cpufreq_cpu_put(struct cpufreq_policy *policy)
{
}

bool have_governor_per_policy(void)
{
	return true;
}

struct kobject *get_governor_parent_kobj(struct cpufreq_policy *policy)
{
	return &policy->kobj;
}

void cpufreq_enable_fast_switch(struct cpufreq_policy *policy)
{
	policy->fast_switch_enabled = policy->fast_switch_possible;
}

void cpufreq_disable_fast_switch(struct cpufreq_policy *policy)
{
	policy->fast_switch_enabled = false;
}

bool cpufreq_driver_test_flags(u16 flags)
{
	return false;	/* no CPUFREQ_NEED_UPDATE_LIMITS and the like */
}

bool cpufreq_driver_has_adjust_perf(void)
{
	return false;
}


/* cpufreq's default when a driver states no latency: 1 ms between changes */
#define LINSCHED_TRANSITION_DELAY_US	1000

unsigned int cpufreq_policy_transition_delay_us(struct cpufreq_policy *policy)
{
	return policy->transition_delay_us ? policy->transition_delay_us :
	       LINSCHED_TRANSITION_DELAY_US;
}

int cpufreq_register_governor(struct cpufreq_governor *governor)
{
	return 0;	/* governors are started by linsched_cpufreq_init() */
}

static const struct linsched_cpu_type *policy_type(struct cpufreq_policy *p)
{
	return &machine->type[machine->cpu[p->cpu].type];
}

/* The lowest OPP at or above target, within the policy's limits. */
unsigned int cpufreq_driver_resolve_freq(struct cpufreq_policy *policy,
					 unsigned int target_freq)
{
	const struct linsched_cpu_type *t = policy_type(policy);
	int i;

	target_freq = clamp_val(target_freq, policy->min, policy->max);
	for (i = 0; i < t->nr_opps - 1; i++)
		if (t->opp[i].khz >= target_freq)
			break;
	return t->opp[i].khz;
}

static void linsched_set_freq(struct cpufreq_policy *policy, unsigned int khz)
{
	int cpu;

	policy->cur = khz;
	for_each_cpu(cpu, policy->related_cpus) {
		linsched_freq_scale[cpu] = (unsigned long)khz *
			SCHED_CAPACITY_SCALE / policy->cpuinfo.max_freq;
		lh_cpufreq(cpu, khz);
		trace_cpu_frequency(khz, cpu);
	}
}

unsigned int cpufreq_driver_fast_switch(struct cpufreq_policy *policy,
					unsigned int target_freq)
{
	unsigned int khz = cpufreq_driver_resolve_freq(policy, target_freq);

	if (khz != policy->cur)
		linsched_set_freq(policy, khz);
	return khz;
}

int __cpufreq_driver_target(struct cpufreq_policy *policy,
			    unsigned int target_freq, unsigned int relation)
{
	const struct linsched_cpu_type *t = policy_type(policy);
	unsigned int khz = cpufreq_driver_resolve_freq(policy, target_freq);
	int i;

	/* RELATION_H: the highest OPP at or below the target */
	if ((relation & ~CPUFREQ_RELATION_E) == CPUFREQ_RELATION_H &&
	    khz > target_freq) {
		for (i = t->nr_opps - 1; i > 0; i--)
			if (t->opp[i].khz <= target_freq)
				break;
		khz = max_t(unsigned int, t->opp[i].khz, policy->min);
	}
	if (khz != policy->cur)
		linsched_set_freq(policy, khz);
	return 0;
}

/* ---- no slow path: schedutil's kthread worker is never started ---- */

static void __noreturn linsched_no_slow_path(const char *fn)
{
	panic("linsched: %s(): the cpufreq slow path (a kthread worker) is not modelled; the simulated driver switches fast",
	      fn);
}

struct task_struct *kthread_create_on_node(int (*threadfn)(void *data),
					   void *data, int node,
					   const char namefmt[], ...)
{
	linsched_no_slow_path(__func__);
}

void kthread_bind_mask(struct task_struct *k, const struct cpumask *mask)
{
	linsched_no_slow_path(__func__);
}

int kthread_worker_fn(void *worker_ptr)
{
	linsched_no_slow_path(__func__);
}

void __kthread_init_worker(struct kthread_worker *worker, const char *name,
			   struct lock_class_key *key)
{
	linsched_no_slow_path(__func__);
}

bool kthread_queue_work(struct kthread_worker *worker,
			struct kthread_work *work)
{
	linsched_no_slow_path(__func__);
}

void kthread_flush_worker(struct kthread_worker *worker)
{
	linsched_no_slow_path(__func__);
}

bool kthread_cancel_work_sync(struct kthread_work *work)
{
	linsched_no_slow_path(__func__);
}

int kthread_stop(struct task_struct *k)
{
	linsched_no_slow_path(__func__);
}

/* irq_work runs to completion as its own event: nothing is ever in flight. */
void irq_work_sync(struct irq_work *work)
{
}

/* ---- the energy model, from the machine's OPP tables ---- */

static int linsched_active_power(struct device *dev, unsigned long *power,
				 unsigned long *freq)
{
	int cpu = dev - cpu_dev;
	const struct linsched_cpu_type *t =
		&machine->type[machine->cpu[cpu].type];
	int i;

	for (i = 0; i < t->nr_opps; i++) {
		if (t->opp[i].khz >= *freq) {
			*freq = t->opp[i].khz;
			*power = t->opp[i].power_uw;
			return 0;
		}
	}
	return -EINVAL;
}

#ifdef LINSCHED_CPUFREQ_READY_FOR_EAS
/* 7.x asks cpufreq whether EAS may run: schedutil on every policy. */
bool cpufreq_ready_for_eas(const struct cpumask *cpu_mask)
{
	int cpu;

	for_each_cpu(cpu, cpu_mask) {
		struct cpufreq_policy *p = cpu_policy[cpu];

		if (!p || p->governor != cpufreq_default_governor())
			return false;
	}
	return true;
}
#endif

/* ---- boot: policies, the energy model, governors ---- */

static struct cpufreq_governor linsched_fixed_gov = {
	.name = "linsched-fixed",
};

static struct cpufreq_policy *linsched_policy_new(int first)
{
	const struct linsched_cpu_type *t =
		&machine->type[machine->cpu[first].type];
	struct cpufreq_policy *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int cpu;

	if (!p)
		panic("linsched: out of memory for a cpufreq policy");
	p->cpu = first;
	for (cpu = first; cpu < machine->nr_cpus; cpu++) {
		if (machine->cpu[cpu].policy != machine->cpu[first].policy)
			continue;
		cpumask_set_cpu(cpu, p->cpus);
		cpumask_set_cpu(cpu, p->related_cpus);
		cpu_policy[cpu] = p;
	}
	p->cpuinfo.min_freq = t->opp[0].khz;
	p->cpuinfo.max_freq = t->opp[t->nr_opps - 1].khz;
	p->min = p->cpuinfo.min_freq;
	p->max = p->cpuinfo.max_freq;
	p->fast_switch_possible = true;
	p->dvfs_possible_from_any_cpu = true;
	return p;
}

void linsched_cpufreq_init(const struct linsched_machine *m)
{
	static struct em_data_callback em_cb = EM_DATA_CB(linsched_active_power);
	int cpu, ret;

	machine = m;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		snprintf(cpu_dev_name[cpu], sizeof(cpu_dev_name[cpu]), "cpu%d",
			 cpu);
		cpu_dev[cpu].init_name = cpu_dev_name[cpu];
		cpu_dev[cpu].bus = &cpu_subsys;
		cpu_dev[cpu].id = cpu;
		linsched_freq_scale[cpu] = SCHED_CAPACITY_SCALE;
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct cpufreq_policy *p;
		const struct linsched_cpu_type *t = &m->type[m->cpu[cpu].type];

		if (cpu_policy[cpu] || !t->nr_opps)
			continue;
		p = linsched_policy_new(cpu);
		linsched_set_freq(p, m->governor == LINSCHED_GOV_POWERSAVE ?
				  p->cpuinfo.min_freq : p->cpuinfo.max_freq);
		if (!m->energy_model)
			continue;
		ret = em_dev_register_perf_domain(get_cpu_device(cpu),
						  t->nr_opps, &em_cb,
						  p->related_cpus, true);
		if (ret)
			pr_err("linsched: energy model of the policy of CPU %d: error %d\n",
			       cpu, ret);
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct cpufreq_policy *p = cpu_policy[cpu];

		if (!p || p->cpu != cpu)
			continue;
		if (m->governor != LINSCHED_GOV_SCHEDUTIL) {
			p->governor = &linsched_fixed_gov;
			continue;
		}
		p->governor = cpufreq_default_governor();
		ret = p->governor->init(p);
		if (!ret)
			ret = p->governor->start(p);
		if (ret)
			panic("linsched: schedutil on the policy of CPU %d: error %d",
			      cpu, ret);
	}
	/* perf domains are built when the domains are partitioned again */
	if (m->energy_model)
		rebuild_sched_domains_energy();
}
