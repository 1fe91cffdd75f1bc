/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topologies - the simulated machines: CPUs with their SMT siblings,
 * cluster (last-level cache), package, NUMA node and capacity.
 *
 * Parses and describes only; the simulator boots the kernel on it.
 */
#ifndef LSB_TOPOLOGIES_H
#define LSB_TOPOLOGIES_H

#include <stddef.h>

#define TOPOLOGY_MAX_CPUS 512

struct topology_cpu {
	int package;
	int cluster;		/* cores sharing a last-level cache */
	int core;		/* SMT siblings share a core id */
	int node;
	unsigned int capacity;	/* 1..1024 */
};

struct topology {
	char name[64];
	int nr_cpus;
	struct topology_cpu cpu[TOPOLOGY_MAX_CPUS];
};

/**
 * topology_from_spec() - build a machine from a preset name or a shape
 * @out: filled in
 * @spec: a preset name (see topology_presets()) or "P x C x T": packages,
 *        cores per package, threads per core, e.g. "2x4x2", "8" or "4x2"
 *        (cores x threads)
 * @err: receives a message on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int topology_from_spec(struct topology *out, const char *spec, char *err,
		       size_t errlen);

/**
 * topology_presets() - the preset names
 * @n: receives the count
 *
 * Return: a static array of static strings.
 */
const char *const *topology_presets(size_t *n);

#endif
