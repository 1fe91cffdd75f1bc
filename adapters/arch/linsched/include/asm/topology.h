/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated machine's topology, as arch/linsched/kernel/topology.c
 * filled it in from the simulator before boot.
 */
#ifndef _ASM_LINSCHED_TOPOLOGY_H
#define _ASM_LINSCHED_TOPOLOGY_H

#include <linux/cpumask.h>

struct cpumask;

const struct cpumask *linsched_sibling_mask(int cpu);
const struct cpumask *linsched_core_mask(int cpu);
const struct cpumask *cpu_coregroup_mask(int cpu);
int linsched_package_id(int cpu);
int linsched_core_id(int cpu);
unsigned long linsched_cpu_capacity(int cpu);

#define topology_physical_package_id(cpu)	linsched_package_id(cpu)
#define topology_core_id(cpu)			linsched_core_id(cpu)
#define topology_sibling_cpumask(cpu)		linsched_sibling_mask(cpu)
#define topology_core_cpumask(cpu)		linsched_core_mask(cpu)

#define arch_scale_cpu_capacity linsched_cpu_capacity

/* Frequency invariance: the current over the highest frequency, x 1024. */
extern unsigned long linsched_freq_scale[];
#define arch_scale_freq_capacity(cpu)	(linsched_freq_scale[(cpu)])

#ifdef CONFIG_NUMA
const struct cpumask *linsched_node_mask(int node);
int linsched_node_distance(int a, int b);

#define cpumask_of_node(node)		linsched_node_mask(node)
#define node_distance(a, b)		linsched_node_distance(a, b)
#define pcibus_to_node(bus)		((void)(bus), -1)
#define cpumask_of_pcibus(bus)		(cpu_online_mask)
#endif

#include <asm-generic/topology.h>

#endif
