// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/machine.c - a topology as QEMU's -smp and -numa flags, or why not.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "topologies/topologies.h"
#include "vm/vm.h"
#include "vm/vm_internal.h"

/* The most vCPUs: vm.config's NR_CPUS. */
#define VM_MAX_CPUS 64

int vm_accel_parse(const char *name, enum vm_accel *out)
{
	static const char *const names[] = { "tcg-multi", "tcg-icount", "kvm" };
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(name, names[i])) {
			*out = (enum vm_accel)i;
			return 0;
		}
	return -1;
}

const char *vm_accel_name(enum vm_accel a)
{
	return a == VM_TCG_ICOUNT ? "tcg-icount" : a == VM_KVM ? "kvm" :
	       "tcg-multi";
}

__attribute__((format(printf, 4, 5)))
static int refuse(char *err, size_t len, const struct topology *t,
		  const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	snprintf(err, len, "topology '%s': QEMU cannot mirror it: %s",
		 t->name, reason);
	return VM_EUSAGE;
}

/* What the vCPUs cannot be: different capacities, frequencies, SMT speed. */
static int check_types(const struct topology *t, char *err, size_t len)
{
	int i;

	for (i = 1; i < t->nr_types; i++)
		if (t->types[i].capacity != t->types[0].capacity)
			return refuse(err, len, t,
				"asymmetric capacity (CPU type '%s' has %u, '%s' %u): every vCPU is the same",
				t->types[i].name, t->types[i].capacity,
				t->types[0].name, t->types[0].capacity);
	for (i = 0; i < t->nr_types; i++) {
		const struct topology_type *ty = &t->types[i];

		if (ty->nr_opps > 1)
			return refuse(err, len, t,
				"CPU type '%s' has %d OPPs: a vCPU has no frequencies to choose from (give it one OPP, or none)",
				ty->name, ty->nr_opps);
		if (ty->smt_speed > 0 && ty->smt_speed < 1)
			return refuse(err, len, t,
				"CPU type '%s' slows an SMT sibling down (smt_speed %g): vCPUs are host threads and do not",
				ty->name, ty->smt_speed);
	}
	return 0;
}

/*
 * QEMU's numbering: CPU i is thread i % T of core (i / T) % C of socket
 * i / (T C), every socket alike; a socket shares one last-level cache.
 */
static int check_shape(const struct topology *t, int *sockets, int *cores,
		       int *threads, char *err, size_t len)
{
	int n = t->nr_cpus, c = 0, th = 0, i;

	for (i = 0; i < n; i++) {
		const struct topology_cpu *p = &t->cpu[i];

		if (p->package == t->cpu[0].package && p->core == t->cpu[0].core)
			th++;
		if (p->package == t->cpu[0].package)
			c++;
	}
	c /= th;
	if (n % (c * th))
		return refuse(err, len, t,
			"its %d CPUs are not sockets of equal cores of equal threads", n);
	for (i = 0; i < n; i++) {
		const struct topology_cpu *p = &t->cpu[i];
		const struct topology_cpu *first = &t->cpu[i / (th * c) * th * c];
		int same = i && p->package == p[-1].package &&
			   p->core == p[-1].core;

		if ((i % (th * c) == 0) != (!i || p->package != p[-1].package) ||
		    (i % th != 0) != same)
			return refuse(err, len, t,
				"CPU %d is not numbered as QEMU numbers its vCPUs (socket by socket, core by core, thread by thread; %d cores of %d threads a socket)",
				i, c, th);
		if (p->cluster != first->cluster)
			return refuse(err, len, t,
				"the package of CPU %d holds several clusters (last-level caches): QEMU's x86 -smp gives a socket one",
				i);
	}
	*sockets = n / (c * th);
	*cores = c;
	*threads = th;
	return 0;
}

/* -numa: each node a set of whole sockets, its share of the memory. */
static int numa_args(struct vm_machine *out, const struct topology *t,
		     int per_socket, int memory_mb, char *err, size_t len)
{
	int node, i, j, first, last;

	for (node = 0; node < t->nr_nodes; node++) {
		first = last = -1;
		for (i = 0; i < t->nr_cpus; i++) {
			if (t->cpu[i].node != node)
				continue;
			if (first < 0)
				first = i;
			else if (i != last + 1)
				return refuse(err, len, t,
					"NUMA node %d: its CPUs are not consecutive (a node is a range of whole sockets here)",
					node);
			last = i;
		}
		if (first < 0 || first % per_socket || (last + 1) % per_socket)
			return refuse(err, len, t,
				"NUMA node %d: not a range of whole sockets",
				node);
		vm_arg(out, "-object");
		vm_argf(out, "memory-backend-ram,id=m%d,size=%dM", node,
			memory_mb / t->nr_nodes);
		vm_arg(out, "-numa");
		vm_argf(out, "node,nodeid=%d,cpus=%d-%d,memdev=m%d", node,
			first, last, node);
	}
	for (i = 0; i < t->nr_nodes; i++)
		for (j = 0; j < t->nr_nodes; j++) {
			if (i == j)
				continue;
			vm_arg(out, "-numa");
			vm_argf(out, "dist,src=%d,dst=%d,val=%d", i, j,
				t->distance[i][j]);
		}
	return 0;
}

int vm_machine_from_topology(struct vm_machine *out, const struct topology *t,
			     int memory_mb, char *err, size_t len)
{
	int sockets = 0, cores = 0, threads = 0, ret;

	memset(out, 0, sizeof(*out));
	if (t->nr_cpus > VM_MAX_CPUS)
		return refuse(err, len, t,
			"%d CPUs, more than the VM kernel's NR_CPUS (%d)",
			t->nr_cpus, VM_MAX_CPUS);
	if (t->cmdline[0])
		return refuse(err, len, t,
			"boot parameters (\"%s\") are not passed to the guest",
			t->cmdline);
	ret = check_types(t, err, len);
	if (!ret)
		ret = check_shape(t, &sockets, &cores, &threads, err, len);
	if (ret)
		return ret;
	out->nr_cpus = t->nr_cpus;
	if (t->types[0].nr_states)
		snprintf(out->note, sizeof(out->note),
			 "the topology's idle states are not mirrored: the guest has no cpuidle driver and its vCPUs halt with no exit latency");
	vm_arg(out, "-smp");
	vm_argf(out, "cpus=%d,sockets=%d,cores=%d,threads=%d", t->nr_cpus,
		sockets, cores, threads);
	if (t->nr_nodes > 1)
		ret = numa_args(out, t, cores * threads, memory_mb, err, len);
	if (!ret && out->overflow)
		ret = refuse(err, len, t, "too many QEMU arguments");
	return ret;
}
