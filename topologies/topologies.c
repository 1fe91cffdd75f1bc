// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topologies.h"

struct preset {
	const char *name;
	int packages, cores, threads;
};

/* LinSched's eight machines and a large server. */
static const struct preset presets[] = {
	{ "up", 1, 1, 1 },
	{ "dual", 1, 2, 1 },
	{ "quad", 1, 4, 1 },
	{ "dual-socket-dual-core", 2, 2, 1 },
	{ "quad-smt", 1, 4, 2 },
	{ "dual-socket-quad-core", 2, 4, 1 },
	{ "hex", 1, 6, 1 },
	{ "dual-socket-hex-smt", 2, 6, 2 },
	{ "server-64", 2, 16, 2 },
};

static const char *const preset_names[] = {
	"up", "dual", "quad", "dual-socket-dual-core", "quad-smt",
	"dual-socket-quad-core", "hex", "dual-socket-hex-smt", "server-64",
};

const char *const *topology_presets(size_t *n)
{
	*n = sizeof(preset_names) / sizeof(preset_names[0]);
	return preset_names;
}

static int topology_shape(struct topology *out, int packages, int cores,
			  int threads, char *err, size_t errlen)
{
	int p, c, t, cpu = 0;

	if (packages < 1 || cores < 1 || threads < 1 ||
	    packages * cores * threads > TOPOLOGY_MAX_CPUS) {
		snprintf(err, errlen,
			 "a machine needs 1 to %d CPUs, not %d x %d x %d",
			 TOPOLOGY_MAX_CPUS, packages, cores, threads);
		return -1;
	}
	for (p = 0; p < packages; p++)
		for (c = 0; c < cores; c++)
			for (t = 0; t < threads; t++, cpu++) {
				/* siblings are numbered apart, as on x86 */
				int id = t * packages * cores + p * cores + c;

				out->cpu[id] = (struct topology_cpu){
					.package = p,
					.cluster = p,
					.core = p * cores + c,
					.node = 0,
					.type = 0,
					.capacity = 1024,
				};
			}
	out->nr_cpus = cpu;
	out->nr_types = 1;
	snprintf(out->types[0].name, sizeof(out->types[0].name), "cpu");
	out->types[0].capacity = 1024;
	out->nr_nodes = 1;
	out->distance[0][0] = 10;
	return 0;
}

int topology_from_spec(struct topology *out, const char *spec, char *err,
		       size_t errlen)
{
	int v[3], n = 0;
	const char *s = spec;
	char *end;
	size_t i;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", spec);
	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(spec, presets[i].name))
			return topology_shape(out, presets[i].packages,
					      presets[i].cores,
					      presets[i].threads, err, errlen);
	while (n < 3) {
		long x = strtol(s, &end, 10);

		if (end == s || x < 1 || x > TOPOLOGY_MAX_CPUS)
			break;
		v[n++] = (int)x;
		s = end;
		if (*s != 'x')
			break;
		s++;
	}
	if (!n || *s) {
		snprintf(err, errlen,
			 "topology '%s': not a preset name nor a shape such as 2x4x2 (packages x cores x threads)",
			 spec);
		return -1;
	}
	if (n == 1)
		return topology_shape(out, 1, v[0], 1, err, errlen);
	if (n == 2)
		return topology_shape(out, 1, v[0], v[1], err, errlen);
	return topology_shape(out, v[0], v[1], v[2], err, errlen);
}
