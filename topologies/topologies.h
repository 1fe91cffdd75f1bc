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
#include <stdint.h>

#define TOPOLOGY_MAX_CPUS 512
#define TOPOLOGY_MAX_NODES 64
#define TOPOLOGY_MAX_TYPES 8
#define TOPOLOGY_MAX_STATES 8
#define TOPOLOGY_MAX_OPPS 32

/* A cpuidle state, shallowest first in a type's list. */
struct topology_idle_state {
	char name[16];
	uint64_t exit_latency_ns;
	uint64_t target_residency_ns;
	double power_mw;		/* power while in the state */
};

/* An operating performance point: the kernel's energy model entry. */
struct topology_opp {
	uint64_t khz;
	unsigned int capacity;		/* at this frequency, <= the type's */
	double power_mw;		/* busy power at this frequency */
};

/* A kind of CPU: all CPUs of a type share capacity, states and OPPs. */
struct topology_type {
	char name[32];
	unsigned int capacity;		/* 1..1024 at the highest OPP */
	int nr_states;
	struct topology_idle_state states[TOPOLOGY_MAX_STATES];
	int nr_opps;			/* 0: a fixed frequency */
	struct topology_opp opps[TOPOLOGY_MAX_OPPS];	/* ascending */
};

struct topology_cpu {
	int package;
	int cluster;		/* cores sharing a last-level cache */
	int core;		/* SMT siblings share a core id */
	int node;		/* NUMA node */
	int type;		/* index into topology.types */
	unsigned int capacity;	/* its type's */
};

struct topology {
	char name[64];
	int nr_cpus;
	struct topology_cpu cpu[TOPOLOGY_MAX_CPUS];
	int nr_types;
	struct topology_type types[TOPOLOGY_MAX_TYPES];
	int nr_nodes;
	int distance[TOPOLOGY_MAX_NODES][TOPOLOGY_MAX_NODES];	/* SLIT: 10 local */
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
