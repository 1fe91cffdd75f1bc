// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machines from specs (preset, shape or file), the defaults, and the checks
 * every machine passes whatever it came from.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topologies/topologies_internal.h"

void topology_default_type(struct topology_type *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "cpu");
	out->capacity = TOPOLOGY_CAPACITY_SCALE;
	/* an Arm WFI / x86 C1 and a core power-down, in round numbers */
	out->nr_states = 2;
	out->states[0] = (struct topology_idle_state){
		.name = "WFI", .exit_latency_ns = 1000,
		.target_residency_ns = 1000, .power_mw = 20,
	};
	out->states[1] = (struct topology_idle_state){
		.name = "off", .exit_latency_ns = 150000,
		.target_residency_ns = 1000000, .power_mw = 0,
	};
}

void topology_default_distances(struct topology *t)
{
	int i, j;

	for (i = 0; i < t->nr_nodes; i++)
		for (j = 0; j < t->nr_nodes; j++)
			t->distance[i][j] = i == j ? TOPOLOGY_LOCAL_DISTANCE :
					    TOPOLOGY_REMOTE_DISTANCE;
}

int topology_build_shape(struct topology *out, int packages, int clusters,
			 int cores, int threads, int node_per_package,
			 char *err, size_t errlen)
{
	int p, cl, c, th, per_thread;

	if (packages < 1 || clusters < 1 || cores < 1 || threads < 1 ||
	    (long)packages * clusters * cores * threads > TOPOLOGY_MAX_CPUS) {
		snprintf(err, errlen,
			 "a machine needs 1 to %d CPUs, not %d x %d x %d x %d",
			 TOPOLOGY_MAX_CPUS, packages, clusters, cores, threads);
		return -1;
	}
	if (node_per_package && packages > TOPOLOGY_MAX_NODES) {
		snprintf(err, errlen, "%d packages, one node each: at most %d nodes",
			 packages, TOPOLOGY_MAX_NODES);
		return -1;
	}
	per_thread = packages * clusters * cores;
	for (p = 0; p < packages; p++)
		for (cl = 0; cl < clusters; cl++)
			for (c = 0; c < cores; c++)
				for (th = 0; th < threads; th++) {
					int core = (p * clusters + cl) * cores + c;

					/* siblings are numbered apart, as on x86 */
					out->cpu[th * per_thread + core] =
						(struct topology_cpu){
						.package = p,
						.cluster = p * clusters + cl,
						.core = core,
						.node = node_per_package ? p : 0,
						.type = 0,
						.capacity = out->types[0].capacity,
					};
				}
	out->nr_cpus = per_thread * threads;
	out->nr_nodes = node_per_package ? packages : 1;
	topology_default_distances(out);
	return 0;
}

static int is_file_spec(const char *spec)
{
	size_t n = strlen(spec);

	return strchr(spec, '/') || (n > 5 && !strcmp(spec + n - 5, ".json"));
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int topology_from_spec(struct topology *out, const char *spec, char *err,
		       size_t errlen)
{
	int v[3], n = 0;
	const char *s = spec;
	char *end;

	if (is_file_spec(spec))
		return topology_from_file(out, spec, err, errlen);
	if (!topology_preset(out, spec)) {
		struct topology_fault f;
		char msg[256];

		/* the presets are tested; this keeps a bad edit from booting */
		if (!topology_check(out, &f, msg, sizeof(msg)))
			return 0;
		snprintf(err, errlen, "preset '%s': %s", spec, msg);
		return -1;
	}
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
	if (!n || *s || s[-1] == 'x') {
		if (is_file(spec))
			return topology_from_file(out, spec, err, errlen);
		snprintf(err, errlen,
			 "topology '%s': not a preset name, a shape such as 2x4x2 (packages x cores x threads) nor a file",
			 spec);
		topology_printable(err, errlen);
		return -1;
	}
	if (n == 1)
		v[2] = 1, v[1] = v[0], v[0] = 1;
	else if (n == 2)
		v[2] = v[1], v[1] = v[0], v[0] = 1;
	if ((long)v[0] * v[1] * v[2] > TOPOLOGY_MAX_CPUS) {
		snprintf(err, errlen, "topology '%s': %ld CPUs: at most %d",
			 spec, (long)v[0] * v[1] * v[2], TOPOLOGY_MAX_CPUS);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", spec);
	out->nr_types = 1;
	topology_default_type(&out->types[0]);
	topology_build_shape(out, v[0], 1, v[1], v[2], 0, err, errlen);
	snprintf(out->description, sizeof(out->description),
		 "%d package%s x %d core%s x %d thread%s", v[0],
		 v[0] > 1 ? "s" : "", v[1], v[1] > 1 ? "s" : "", v[2],
		 v[2] > 1 ? "s" : "");
	return 0;
}

static int fault(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fault(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int check_type(const struct topology_type *ty, struct topology_fault *f,
		      char *err, size_t errlen)
{
	const char *n = ty->name;
	int i;

	if (!ty->name[0])
		return fault(err, errlen, "a CPU type has no name");
	if (ty->capacity < 1 || ty->capacity > TOPOLOGY_CAPACITY_SCALE)
		return fault(err, errlen,
			     "type '%s': capacity %u is out of range: expected 1 to %d",
			     n, ty->capacity, TOPOLOGY_CAPACITY_SCALE);
	if (ty->nr_states < 0 || ty->nr_states > TOPOLOGY_MAX_STATES)
		return fault(err, errlen,
			     "type '%s': %d idle states, at most %d", n,
			     ty->nr_states, TOPOLOGY_MAX_STATES);
	for (i = 0; i < ty->nr_states; i++) {
		const struct topology_idle_state *s = &ty->states[i];

		f->state = i;
		if (!s->name[0])
			return fault(err, errlen,
				     "type '%s': idle state %d has no name", n, i);
		if (s->power_mw < 0)
			return fault(err, errlen,
				     "type '%s': idle state '%s': power %g mW is negative",
				     n, s->name, s->power_mw);
		if (i && s->target_residency_ns < s[-1].target_residency_ns)
			return fault(err, errlen,
				     "type '%s': idle state '%s' (target residency %g us) comes after '%s' (%g us): states go shallowest first, by target residency",
				     n, s->name, s->target_residency_ns / 1e3,
				     s[-1].name, s[-1].target_residency_ns / 1e3);
	}
	f->state = -1;
	if (ty->nr_opps < 0 || ty->nr_opps > TOPOLOGY_MAX_OPPS)
		return fault(err, errlen, "type '%s': %d OPPs, at most %d", n,
			     ty->nr_opps, TOPOLOGY_MAX_OPPS);
	for (i = 0; i < ty->nr_opps; i++) {
		const struct topology_opp *o = &ty->opps[i];

		f->opp = i;
		if (!o->khz)
			return fault(err, errlen, "type '%s': OPP %d has 0 kHz",
				     n, i);
		if (o->capacity < 1 || o->capacity > ty->capacity)
			return fault(err, errlen,
				     "type '%s': OPP %d (%llu kHz): capacity %u is out of range: expected 1 to the type's %u",
				     n, i, (unsigned long long)o->khz,
				     o->capacity, ty->capacity);
		if (o->power_mw < 0)
			return fault(err, errlen,
				     "type '%s': OPP %d (%llu kHz): power %g mW is negative",
				     n, i, (unsigned long long)o->khz,
				     o->power_mw);
		if (!i)
			continue;
		if (o->khz <= o[-1].khz)
			return fault(err, errlen,
				     "type '%s': OPP %d (%llu kHz) is not above OPP %d (%llu kHz): OPPs go in ascending frequency",
				     n, i, (unsigned long long)o->khz, i - 1,
				     (unsigned long long)o[-1].khz);
		if (o->capacity < o[-1].capacity)
			return fault(err, errlen,
				     "type '%s': OPP %d (%llu kHz) has capacity %u, below OPP %d's %u: capacity grows with frequency",
				     n, i, (unsigned long long)o->khz,
				     o->capacity, i - 1, o[-1].capacity);
		if (o->power_mw < o[-1].power_mw)
			return fault(err, errlen,
				     "type '%s': OPP %d (%llu kHz) draws %g mW, less than OPP %d's %g mW: power grows with frequency",
				     n, i, (unsigned long long)o->khz,
				     o->power_mw, i - 1, o[-1].power_mw);
	}
	if (ty->nr_opps && ty->opps[ty->nr_opps - 1].capacity != ty->capacity) {
		f->opp = ty->nr_opps - 1;
		return fault(err, errlen,
			     "type '%s': the highest OPP has capacity %u, not the type's %u",
			     n, ty->opps[ty->nr_opps - 1].capacity,
			     ty->capacity);
	}
	f->opp = -1;
	return 0;
}

int topology_cpulist(const char *s, int n, char *set, int *count)
{
	char *end;
	long c;

	*count = 0;
	if (set)
		memset(set, 0, (size_t)n);
	while (*s) {
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a >= n)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= n)
				return -1;
			s = end;
		}
		for (c = a; c <= b; c++) {
			*count += !set || !set[c];
			if (set)
				set[c] = 1;
		}
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return *count ? 0 : -1;
}

/*
 * isolcpus='s flags that take CPUs out of something, each a housekeeping
 * mask of the kernel's, set by the first isolcpus= that gives the flag.
 * housekeeping_setup() refuses a later one with the same flag ("Housekeeping:
 * nohz_full= must match isolcpus="): in every release when its CPUs
 * differ, and in 7.2 and 7.3 even when they are the same (it compares
 * them with housekeeping_cpumask(), which is cpu_possible_mask until
 * housekeeping_init() runs, after the parameters).
 */
enum { ISOL_DOMAIN, ISOL_MANAGED_IRQ, NR_ISOL };

static const char *const isol_flag[NR_ISOL] = {
	[ISOL_DOMAIN] = "the domain flag (isolcpus's default)",
	[ISOL_MANAGED_IRQ] = "the managed_irq flag",
};

/*
 * One isolcpus= parameter @param, its value at @v: against the machine and
 * the earlier ones (@seen: the first to give each flag, or NULL).
 * Return: 0, or -1 with @err.
 */
static int isolcpus_check(const struct topology *t, const char *param,
			  const char *v, const char **seen, char *err,
			  size_t errlen)
{
	int flags = 0, n, k;

	/* the flags, as housekeeping_isolcpus_setup() takes them */
	for (;;) {
		if (!strncmp(v, "domain,", 7)) {
			v += 7;
			flags |= 1 << ISOL_DOMAIN;
		} else if (!strncmp(v, "managed_irq,", 12)) {
			v += 12;
			flags |= 1 << ISOL_MANAGED_IRQ;
		} else if (!strncmp(v, "nohz,", 5)) {
			snprintf(err, errlen, "boot parameter '%s': isolcpus's nohz flag needs CONFIG_NO_HZ_FULL, which the linsched arch does not have",
				 param);
			return -1;
		} else {
			break;
		}
	}
	if (!flags)
		flags = 1 << ISOL_DOMAIN;
	if (topology_cpulist(v, t->nr_cpus, NULL, &n)) {
		snprintf(err, errlen, "boot parameter '%s': expected a list of CPUs from 0 to %d after the flags, such as 2-3",
			 param, t->nr_cpus - 1);
		return -1;
	}
	if (n >= t->nr_cpus) {
		snprintf(err, errlen, "boot parameter '%s': isolates every CPU; at least one must stay for housekeeping",
			 param);
		return -1;
	}
	for (k = 0; k < NR_ISOL; k++) {
		if (!(flags & 1 << k))
			continue;
		if (seen[k]) {
			snprintf(err, errlen, "boot parameters '%s' and '%s' both give %s: the kernel would refuse the second (\"Housekeeping: nohz_full= must match isolcpus=\", in 7.2 and 7.3 even for the same CPUs); give each flag once",
				 seen[k], param, isol_flag[k]);
			return -1;
		}
		seen[k] = param;
	}
	return 0;
}

int topology_set_cmdline(struct topology *t, const char *cmdline, char *err,
			 size_t errlen)
{
	char line[sizeof(t->cmdline)], *param, *save = NULL;
	const char *seen[NR_ISOL] = { NULL };

	if (strlen(cmdline) >= sizeof(line)) {
		snprintf(err, errlen, "boot parameters: longer than %zu characters",
			 sizeof(line) - 1);
		return -1;
	}
	snprintf(line, sizeof(line), "%s", cmdline);
	for (param = strtok_r(line, " ", &save); param;
	     param = strtok_r(NULL, " ", &save)) {
		if (!strncmp(param, "nohz_full=", 10)) {
			snprintf(err, errlen, "boot parameter '%s': nohz_full needs CONFIG_NO_HZ_FULL, which needs context tracking the linsched arch does not have",
				 param);
			return -1;
		}
		if (strncmp(param, "isolcpus=", 9)) {
			snprintf(err, errlen, "boot parameter '%s': expected isolcpus=[domain,nohz,managed_irq,]CPULIST",
				 param);
			return -1;
		}
		if (isolcpus_check(t, param, param + 9, seen, err, errlen))
			return -1;
	}
	snprintf(t->cmdline, sizeof(t->cmdline), "%s", cmdline);
	return 0;
}

int topology_check(const struct topology *t, struct topology_fault *f,
		   char *err, size_t errlen)
{
	unsigned int max_cap = 0;
	int i, j, biggest = 0;

	*f = (struct topology_fault){ -1, -1, -1, -1, -1, -1 };
	if (t->nr_cpus < 1 || t->nr_cpus > TOPOLOGY_MAX_CPUS)
		return fault(err, errlen, "%d CPUs: expected 1 to %d",
			     t->nr_cpus, TOPOLOGY_MAX_CPUS);
	if (t->nr_types < 1 || t->nr_types > TOPOLOGY_MAX_TYPES)
		return fault(err, errlen, "%d CPU types: expected 1 to %d",
			     t->nr_types, TOPOLOGY_MAX_TYPES);
	if (t->nr_nodes < 1 || t->nr_nodes > TOPOLOGY_MAX_NODES)
		return fault(err, errlen, "%d NUMA nodes: expected 1 to %d",
			     t->nr_nodes, TOPOLOGY_MAX_NODES);
	for (i = 0; i < t->nr_types; i++) {
		f->type = i;
		if (check_type(&t->types[i], f, err, errlen))
			return -1;
		for (j = 0; j < i; j++)
			if (!strcmp(t->types[i].name, t->types[j].name))
				return fault(err, errlen,
					     "type '%s' is defined twice",
					     t->types[i].name);
		if (t->types[i].capacity > max_cap) {
			max_cap = t->types[i].capacity;
			biggest = i;
		}
	}
	if (max_cap != TOPOLOGY_CAPACITY_SCALE) {
		f->type = biggest;
		return fault(err, errlen,
			     "type '%s': capacity %u, but the biggest CPU type has capacity %d by definition (scale the others to it)",
			     t->types[biggest].name, max_cap,
			     TOPOLOGY_CAPACITY_SCALE);
	}
	f->type = -1;
	for (i = 0; i < t->nr_cpus; i++) {
		const struct topology_cpu *a = &t->cpu[i];

		f->cpu = i;
		if (a->type < 0 || a->type >= t->nr_types)
			return fault(err, errlen,
				     "cpu %d: type %d is not defined (%d types)",
				     i, a->type, t->nr_types);
		if (a->capacity != t->types[a->type].capacity)
			return fault(err, errlen,
				     "cpu %d: capacity %u differs from its type '%s''s %u",
				     i, a->capacity, t->types[a->type].name,
				     t->types[a->type].capacity);
		if (a->package < 0 || a->package >= TOPOLOGY_MAX_CPUS ||
		    a->cluster < 0 || a->cluster >= TOPOLOGY_MAX_CPUS ||
		    a->core < 0 || a->core >= TOPOLOGY_MAX_CPUS)
			return fault(err, errlen,
				     "cpu %d: package %d, cluster %d, core %d: ids go from 0 to %d",
				     i, a->package, a->cluster, a->core,
				     TOPOLOGY_MAX_CPUS - 1);
		if (a->node < 0 || a->node >= t->nr_nodes)
			return fault(err, errlen,
				     "cpu %d: node %d is not defined (%d node%s)",
				     i, a->node, t->nr_nodes,
				     t->nr_nodes > 1 ? "s" : "");
		for (j = 0; j < i; j++) {
			const struct topology_cpu *b = &t->cpu[j];

			if (a->core == b->core &&
			    (a->package != b->package || a->cluster != b->cluster ||
			     a->node != b->node || a->type != b->type))
				return fault(err, errlen,
					     "cpu %d: an SMT sibling of cpu %d (core %d) but not in the same package, cluster, node and type",
					     i, j, a->core);
			if (a->cluster == b->cluster && a->package != b->package)
				return fault(err, errlen,
					     "cpu %d: in package %d, but its cluster %d holds cpu %d of package %d: a cluster lies in one package",
					     i, a->package, a->cluster, j,
					     b->package);
		}
	}
	f->cpu = -1;
	for (i = 0; i < t->nr_nodes; i++)
		for (j = 0; j < t->nr_nodes; j++) {
			int d = t->distance[i][j];

			f->node = i;
			f->node2 = j;
			if (i == j && d != TOPOLOGY_LOCAL_DISTANCE)
				return fault(err, errlen,
					     "node %d: distance to itself %d: expected %d",
					     i, d, TOPOLOGY_LOCAL_DISTANCE);
			if (i != j && (d <= TOPOLOGY_LOCAL_DISTANCE || d > 254))
				return fault(err, errlen,
					     "nodes %d and %d: distance %d: expected 11 to 254 between two nodes",
					     i, j, d);
			if (d != t->distance[j][i])
				return fault(err, errlen,
					     "nodes %d and %d: distance %d one way, %d the other: distances are symmetric",
					     i, j, d, t->distance[j][i]);
		}
	f->node = f->node2 = -1;
	return 0;
}

int topology_validate(const struct topology *t, char *err, size_t errlen)
{
	struct topology_fault f;

	return topology_check(t, &f, err, errlen);
}
