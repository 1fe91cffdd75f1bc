/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topologies_internal.h - shared by the topologies/ files only.
 */
#ifndef LSB_TOPOLOGIES_INTERNAL_H
#define LSB_TOPOLOGIES_INTERNAL_H

#include "topologies/topologies.h"

/*
 * Where topology_check() found a fault: the most specific of these that is
 * not -1 names the culprit (the JSON reader turns it into line:column).
 */
struct topology_fault {
	int cpu, type, state, opp, node, node2;
};

int topology_check(const struct topology *t, struct topology_fault *f,
		   char *err, size_t errlen);

/*
 * A regular machine of type 0: @packages x @clusters (per package) x
 * @cores (per cluster) x @threads (per core).  SMT siblings are numbered
 * apart, as on x86: CPU t * (all cores) + core.  With @node_per_package each
 * package is a NUMA node, else all is node 0; distances are the defaults.
 * Types are left as they are.
 */
int topology_build_shape(struct topology *out, int packages, int clusters,
			 int cores, int threads, int node_per_package,
			 char *err, size_t errlen);

/* 10 on the diagonal, 20 elsewhere, for t->nr_nodes nodes. */
void topology_default_distances(struct topology *t);

/* Fill @out with preset @name. Return: 0, or 1 when there is none. */
int topology_preset(struct topology *out, const char *name);

/* Round to the nearest integer without libm; @x >= 0. */
static inline uint64_t topology_round(double x)
{
	return (uint64_t)(x + 0.5);
}

#endif
