// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compiled-in machines.  Their numbers and where they come from are in
 * topologies/README.md; the OPP power is the kernel's energy model formula
 * P = C * f * V^2 (dynamic-power-coefficient in uW/MHz/V^2).
 */
#include <stdio.h>
#include <string.h>

#include "topologies/topologies_internal.h"

struct opp_v {
	unsigned int mhz, mv;
};

struct state_v {
	const char *name;
	unsigned int exit_us, residency_us;
	double power_mw;
};

struct type_v {
	const char *name;
	unsigned int capacity;
	unsigned int dpc;		/* uW/MHz/V^2 */
	const struct state_v *states;
	int nr_states;
	const struct opp_v *opps;
	int nr_opps;
	int dvfs_per_core;
	int no_polling_state;	/* Arm: WFI is the driver's state 0 */
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * x86 server core: intel_idle's Skylake-SP table for the states; P-states
 * and power are round estimates (about 6 W a core at 3 GHz).
 */
static const struct state_v x86_states[] = {
	{ "C1", 2, 2, 600 }, { "C1E", 10, 20, 300 }, { "C6", 133, 600, 20 },
};
static const struct opp_v x86_opps[] = {
	{ 1000, 700 }, { 1400, 760 }, { 1800, 820 }, { 2200, 880 },
	{ 2600, 960 }, { 3000, 1050 },
};
static const struct type_v x86_core = {
	"core", 1024, 1800, x86_states, N(x86_states), x86_opps, N(x86_opps), 1,
	0,
};

/*
 * Rockchip RK3588's Cortex-A55 and A76 (upstream rk3588s.dtsi: capacity-
 * dmips-mhz 530 and 1024, dynamic-power-coefficient 228 and 416, CPU_SLEEP
 * entry 100 + exit 120 us, min-residency 1000 us; OPPs after rk3588's OPP
 * tables).  Little capacity: 1024 * 530 * 1800 / (1024 * 2400) = 398.
 */
static const struct state_v a55_states[] = {
	{ "WFI", 1, 1, 10 }, { "cpu-sleep", 220, 1000, 0.5 },
};
static const struct opp_v a55_opps[] = {
	{ 408, 675 }, { 600, 675 }, { 816, 675 }, { 1008, 675 },
	{ 1200, 712 }, { 1416, 762 }, { 1608, 850 }, { 1800, 950 },
};
static const struct state_v a76_states[] = {
	{ "WFI", 1, 1, 30 }, { "cpu-sleep", 220, 1000, 1.5 },
};
static const struct opp_v a76_opps[] = {
	{ 408, 675 }, { 600, 675 }, { 816, 675 }, { 1008, 675 },
	{ 1200, 675 }, { 1416, 725 }, { 1608, 762 }, { 1800, 850 },
	{ 2016, 925 }, { 2208, 987 }, { 2400, 1000 },
};
static const struct type_v rk_little = {
	"little", 398, 228, a55_states, N(a55_states), a55_opps, N(a55_opps), 0,
	1,
};
static const struct type_v rk_big = {
	"big", 1024, 416, a76_states, N(a76_states), a76_opps, N(a76_opps), 0,
	1,
};

/*
 * A Snapdragon 888-class DynamIQ: X1 2.84 GHz, A78 2.42 GHz, A55 1.80 GHz.
 * Idle states from Qualcomm's sm8350-generation dtsi (silver/gold rail
 * power collapse: entry + exit latency, min-residency); capacities, OPP
 * voltages and power coefficients are estimates in line with per-clock
 * performance ratios (A78 ~1.07 x A76, X1 ~1.3 x A76).
 */
static const struct state_v silver_states[] = {
	{ "WFI", 1, 1, 5 }, { "rail-pc", 891, 3934, 0.3 },
};
static const struct state_v gold_states[] = {
	{ "WFI", 1, 1, 15 }, { "rail-pc", 1763, 4488, 1 },
};
static const struct state_v prime_states[] = {
	{ "WFI", 1, 1, 25 }, { "rail-pc", 1763, 4488, 1.5 },
};
static const struct opp_v silver_opps[] = {
	{ 300, 570 }, { 576, 600 }, { 806, 640 }, { 1017, 680 },
	{ 1248, 720 }, { 1478, 780 }, { 1708, 850 }, { 1804, 880 },
};
static const struct opp_v gold_opps[] = {
	{ 710, 600 }, { 960, 640 }, { 1209, 680 }, { 1497, 730 },
	{ 1766, 790 }, { 2035, 860 }, { 2265, 930 }, { 2419, 980 },
};
static const struct opp_v prime_opps[] = {
	{ 844, 620 }, { 1113, 660 }, { 1420, 710 }, { 1766, 780 },
	{ 2112, 860 }, { 2419, 930 }, { 2649, 990 }, { 2841, 1050 },
};
static const struct type_v dq_little = {
	"little", 300, 228, silver_states, N(silver_states), silver_opps,
	N(silver_opps), 0, 1,
};
static const struct type_v dq_big = {
	"big", 750, 400, gold_states, N(gold_states), gold_opps, N(gold_opps), 0,
	1,
};
static const struct type_v dq_prime = {
	"prime", 1024, 600, prime_states, N(prime_states), prime_opps,
	N(prime_opps), 0, 1,
};

enum layout {
	REGULAR,	/* packages x cores x threads of type 0 */
	CLUSTER_PER_TYPE,	/* one package; each type its own cluster */
	ONE_CLUSTER,	/* one package, one cluster of all types */
};

struct preset {
	const char *name, *description;
	enum layout layout;
	int packages, cores, threads;	/* REGULAR: cores per package */
	int node_per_package;
	const struct type_v *types[3];
	int cores_of_type[3];		/* the other layouts */
	int distance[4][4];		/* when node_per_package */
};

#define LINSCHED(n, d, p, c, t) {					\
	.name = n, .description = d " (LinSched)", .layout = REGULAR,	\
	.packages = p, .cores = c, .threads = t, .types = { &x86_core },	\
}

static const struct preset presets[] = {
	LINSCHED("up", "uniprocessor", 1, 1, 1),
	LINSCHED("dual", "two cores", 1, 2, 1),
	LINSCHED("quad", "four cores", 1, 4, 1),
	LINSCHED("dual-socket-dual-core", "2 sockets x 2 cores", 2, 2, 1),
	LINSCHED("quad-smt", "4 cores x 2 threads", 1, 4, 2),
	LINSCHED("dual-socket-quad-core", "2 sockets x 4 cores", 2, 4, 1),
	LINSCHED("hex", "six cores", 1, 6, 1),
	LINSCHED("dual-socket-hex-smt", "2 sockets x 6 cores x 2 threads",
		 2, 6, 2),
	{
		.name = "biglittle-4+4",
		.description = "big.LITTLE: 4 Cortex-A55 + 4 Cortex-A76 in two clusters (RK3588-like)",
		.layout = CLUSTER_PER_TYPE, .packages = 1, .threads = 1,
		.types = { &rk_little, &rk_big }, .cores_of_type = { 4, 4 },
	}, {
		.name = "dynamiq-1+3+4",
		.description = "DynamIQ: 4 A55 + 3 A78 + 1 X1 sharing one L3 (Snapdragon 888-like)",
		.layout = ONE_CLUSTER, .packages = 1, .threads = 1,
		.types = { &dq_little, &dq_big, &dq_prime },
		.cores_of_type = { 4, 3, 1 },
	}, {
		.name = "numa-2",
		.description = "2 NUMA nodes (sockets) x 4 cores, distance 20",
		.layout = REGULAR, .packages = 2, .cores = 4, .threads = 1,
		.node_per_package = 1, .types = { &x86_core },
		.distance = { { 10, 20 }, { 20, 10 } },
	}, {
		.name = "numa-4",
		.description = "4 NUMA nodes x 4 cores in a ring: neighbours 16, across 22",
		.layout = REGULAR, .packages = 4, .cores = 4, .threads = 1,
		.node_per_package = 1, .types = { &x86_core },
		.distance = { { 10, 16, 22, 16 }, { 16, 10, 16, 22 },
			      { 22, 16, 10, 16 }, { 16, 22, 16, 10 } },
	}, {
		.name = "server-64",
		.description = "2 sockets (NUMA nodes, distance 21) x 16 cores x 2 threads",
		.layout = REGULAR, .packages = 2, .cores = 16, .threads = 2,
		.node_per_package = 1, .types = { &x86_core },
		.distance = { { 10, 21 }, { 21, 10 } },
	},
};

static const char *const preset_names[] = {
	"up", "dual", "quad", "dual-socket-dual-core", "quad-smt",
	"dual-socket-quad-core", "hex", "dual-socket-hex-smt",
	"biglittle-4+4", "dynamiq-1+3+4", "numa-2", "numa-4", "server-64",
};

_Static_assert(sizeof(preset_names) / sizeof(preset_names[0]) ==
	       sizeof(presets) / sizeof(presets[0]),
	       "every preset is listed, once");

const char *const *topology_presets(size_t *n)
{
	*n = sizeof(preset_names) / sizeof(preset_names[0]);
	return preset_names;
}

static double round_tenth(double x)
{
	return (double)topology_round(x * 10) / 10;
}

static void make_type(struct topology_type *out, const struct type_v *v)
{
	unsigned int fmax = v->opps[v->nr_opps - 1].mhz;
	int i;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", v->name);
	out->capacity = v->capacity;
	out->nr_states = v->nr_states;
	out->no_polling_state = v->no_polling_state;
	for (i = 0; i < v->nr_states; i++) {
		struct topology_idle_state *s = &out->states[i];

		snprintf(s->name, sizeof(s->name), "%s", v->states[i].name);
		s->exit_latency_ns = v->states[i].exit_us * 1000ULL;
		s->target_residency_ns = v->states[i].residency_us * 1000ULL;
		s->power_mw = v->states[i].power_mw;
	}
	out->nr_opps = v->nr_opps;
	out->dvfs_per_core = v->dvfs_per_core;
	for (i = 0; i < v->nr_opps; i++) {
		double volt = v->opps[i].mv / 1000.0;
		struct topology_opp *o = &out->opps[i];

		o->khz = v->opps[i].mhz * 1000ULL;
		o->capacity = (unsigned int)topology_round(
			(double)v->capacity * v->opps[i].mhz / fmax);
		o->power_mw = round_tenth(v->dpc * v->opps[i].mhz * volt *
					  volt / 1000);
	}
}

int topology_preset(struct topology *out, const char *name)
{
	const struct preset *p = NULL;
	char err[128];
	size_t i;
	int j, k, cpu = 0;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(name, presets[i].name))
			p = &presets[i];
	if (!p)
		return 1;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", p->name);
	snprintf(out->description, sizeof(out->description), "%s",
		 p->description);
	for (j = 0; j < 3 && p->types[j]; j++)
		make_type(&out->types[j], p->types[j]);
	out->nr_types = j;
	if (p->layout == REGULAR) {
		/* the table's shapes are all valid: topology_check agrees */
		topology_build_shape(out, p->packages, 1, p->cores, p->threads,
				     p->node_per_package, err, sizeof(err));
		for (j = 0; p->node_per_package && j < out->nr_nodes; j++)
			for (k = 0; k < out->nr_nodes; k++)
				out->distance[j][k] = p->distance[j][k];
		return 0;
	}
	for (j = 0; j < out->nr_types; j++)
		for (k = 0; k < p->cores_of_type[j]; k++, cpu++)
			out->cpu[cpu] = (struct topology_cpu){
				.package = 0,
				.cluster = p->layout == CLUSTER_PER_TYPE ? j : 0,
				.core = cpu,
				.node = 0,
				.type = j,
				.capacity = out->types[j].capacity,
			};
	out->nr_cpus = cpu;
	out->nr_nodes = 1;
	topology_default_distances(out);
	return 0;
}
