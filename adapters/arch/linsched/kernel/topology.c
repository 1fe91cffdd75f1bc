// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated machine's topology for the kernel's own topology code:
 * SMT sibling masks, core groups (CPUs sharing a last-level cache), package
 * ids and CPU capacities, from the machine the simulator described.
 */
#include <linux/cpumask.h>
#include <linux/sched/topology.h>
#include <asm/topology.h>
#include <linux/nodemask.h>
#include <linux/topology.h>

#include "linsched.h"

static struct cpumask sibling_mask[NR_CPUS];
static struct cpumask coregroup_mask[NR_CPUS];
static struct cpumask package_mask[NR_CPUS];
static int package_id[NR_CPUS], core_id[NR_CPUS];
static unsigned long capacity[NR_CPUS];
#ifdef CONFIG_NUMA
static struct cpumask node_mask[MAX_NUMNODES];
static int distance[MAX_NUMNODES][MAX_NUMNODES];
static int nr_nodes = 1;
#endif

void linsched_topology_init(const struct linsched_machine *m)
{
	int i, j;

#ifdef CONFIG_NUMA
	nr_nodes = m->nr_nodes > 0 ? m->nr_nodes : 1;
	if (nr_nodes > MAX_NUMNODES)
		panic("linsched: %d NUMA nodes, the kernel was built for %d",
		      nr_nodes, MAX_NUMNODES);
	for (i = 0; i < nr_nodes; i++) {
		for (j = 0; j < nr_nodes; j++)
			distance[i][j] = m->nr_nodes > 0 ? m->distance[i][j] :
					 LOCAL_DISTANCE;
		node_set_online(i);
		node_set_state(i, N_CPU);
	}
	nr_node_ids = nr_nodes;
	for (i = 0; i < m->nr_cpus; i++) {
		cpumask_set_cpu(i, &node_mask[m->cpu[i].node]);
		set_cpu_numa_node(i, m->cpu[i].node);
	}
#endif

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

#ifdef CONFIG_NUMA
const struct cpumask *linsched_node_mask(int node)
{
	return node >= 0 && node < nr_nodes ? &node_mask[node] : cpu_none_mask;
}

int linsched_node_distance(int a, int b)
{
	return distance[a][b];
}

/* mm/mempolicy.c's (6.7+): the nearest node in @state, by distance */
int numa_nearest_node(int node, unsigned int state)
{
	int n, dist, min_dist = INT_MAX, min_node = node;

	if (state >= NR_NODE_STATES)
		return -EINVAL;
	if (node == NUMA_NO_NODE || node_state(node, state))
		return node;
	for_each_node_state(n, state) {
		dist = node_distance(node, n);
		if (dist < min_dist) {
			min_dist = dist;
			min_node = n;
		}
	}
	return min_node;
}
#endif

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
