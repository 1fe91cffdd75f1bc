// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated machine's topology for the kernel's own topology code:
 * SMT sibling masks, core groups (CPUs sharing a last-level cache), package
 * ids and CPU capacities, from the machine the simulator described.
 */
#include <linux/cpumask.h>
#include <linux/sched/topology.h>
#include <asm/topology.h>

#include "linsched.h"

static struct cpumask sibling_mask[NR_CPUS];
static struct cpumask coregroup_mask[NR_CPUS];
static struct cpumask package_mask[NR_CPUS];
static int package_id[NR_CPUS], core_id[NR_CPUS];
static unsigned long capacity[NR_CPUS];

void linsched_topology_init(const struct linsched_machine *m)
{
	int i, j;

	for (i = 0; i < m->nr_cpus; i++) {
		const struct linsched_cpu_desc *a = &m->cpu[i];

		package_id[i] = a->package;
		core_id[i] = a->core;
		capacity[i] = a->capacity ? a->capacity : SCHED_CAPACITY_SCALE;
		for (j = 0; j < m->nr_cpus; j++) {
			const struct linsched_cpu_desc *b = &m->cpu[j];

			if (a->package != b->package)
				continue;
			cpumask_set_cpu(j, &package_mask[i]);
			if (a->cluster == b->cluster)
				cpumask_set_cpu(j, &coregroup_mask[i]);
			if (a->cluster == b->cluster && a->core == b->core)
				cpumask_set_cpu(j, &sibling_mask[i]);
		}
	}
}

const struct cpumask *linsched_sibling_mask(int cpu)
{
	return &sibling_mask[cpu];
}

const struct cpumask *linsched_core_mask(int cpu)
{
	return &package_mask[cpu];
}

const struct cpumask *cpu_coregroup_mask(int cpu)
{
	return &coregroup_mask[cpu];
}

int linsched_package_id(int cpu)
{
	return package_id[cpu];
}

int linsched_core_id(int cpu)
{
	return core_id[cpu];
}

unsigned long linsched_cpu_capacity(int cpu)
{
	return capacity[cpu];
}
