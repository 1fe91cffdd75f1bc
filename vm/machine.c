// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/machine.c - a topology as QEMU's -smp and -numa flags, or why not.
 */
#define _GNU_SOURCE	/* memmem() */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topologies.h"
#include "vm/vm.h"
#include "vm/vm_internal.h"

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
 * QEMU numbers vCPU i as thread i % T of core (i / T) % C of socket
 * i / (T C), every socket alike with one last-level cache. A topology may
 * number its CPUs otherwise (Linux on x86 numbers SMT siblings apart, as
 * the shapes do): @guest[i] becomes the vCPU that plays CPU i, sockets in
 * the order of their first CPU, cores likewise within a socket, threads
 * by CPU number within a core.
 */
static int check_shape(const struct topology *t, int *sockets, int *cores,
		       int *threads, int *guest, char *err, size_t len)
{
	int n = t->nr_cpus, nr_s = 0, i, j;
	int sock[VM_MAX_CPUS], core[VM_MAX_CPUS], th[VM_MAX_CPUS];
	int head[VM_MAX_CPUS];	/* the first CPU of its core */
	int nr_core[VM_MAX_CPUS] = { 0 }, nr_th[VM_MAX_CPUS] = { 0 };

	for (i = 0; i < n; i++) {
		const struct topology_cpu *p = &t->cpu[i];

		for (j = 0; j < i && t->cpu[j].package != p->package; j++)
			;
		if (j == i) {
			sock[i] = nr_s++;
		} else {
			sock[i] = sock[j];
			if (p->cluster != t->cpu[j].cluster)
				return refuse(err, len, t,
					"the package of CPU %d holds several clusters (last-level caches): QEMU's x86 -smp gives a socket one",
					i);
		}
		for (j = 0; j < i && (t->cpu[j].package != p->package ||
				      t->cpu[j].core != p->core); j++)
			;
		head[i] = j;
		if (j == i)
			core[i] = nr_core[sock[i]]++;
		else
			core[i] = core[j];
		th[i] = nr_th[j]++;
	}
	/* every socket as many cores as the first, every core as many threads */
	for (i = 0; i < n; i++)
		if (nr_core[sock[i]] != nr_core[0] ||
		    nr_th[head[i]] != nr_th[0])
			return refuse(err, len, t,
				"its %d CPUs are not sockets of equal cores of equal threads (CPU %d: %d cores in its package, %d threads in its core; CPU 0: %d and %d)",
				n, i, nr_core[sock[i]], nr_th[head[i]],
				nr_core[0], nr_th[0]);
	*sockets = nr_s;
	*cores = nr_core[0];
	*threads = nr_th[0];
	for (i = 0; i < n; i++)
		guest[i] = (sock[i] * *cores + core[i]) * *threads + th[i];
	return 0;
}

/* -numa: each node a set of whole sockets, its share of the memory. */
static int numa_args(struct vm_machine *out, const struct topology *t,
		     int per_socket, int memory_mb, char *err, size_t len)
{
	int node, i, j, first, last, count;

	for (node = 0; node < t->nr_nodes; node++) {
		first = last = -1;
		count = 0;
		for (i = 0; i < t->nr_cpus; i++) {
			int g = out->guest_cpu[i];

			if (t->cpu[i].node != node)
				continue;
			if (first < 0 || g < first)
				first = g;
			if (g > last)
				last = g;
			count++;
		}
		if (first < 0 || count != last - first + 1 ||
		    first % per_socket || (last + 1) % per_socket)
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
	int sockets = 0, cores = 0, threads = 0, ret, i;

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
		ret = check_shape(t, &sockets, &cores, &threads,
				  out->guest_cpu, err, len);
	if (ret)
		return ret;
	out->nr_cpus = t->nr_cpus;
	for (i = 0; i < t->nr_cpus; i++) {
		out->topology_cpu[out->guest_cpu[i]] = i;
		if (out->guest_cpu[i] != i)
			out->renumbered = 1;
	}
	if (t->types[0].nr_states)
		snprintf(out->note, sizeof(out->note),
			 "the topology's idle states are not mirrored: the guest has no cpuidle driver and its vCPUs halt with no exit latency (--compare runs the simulator with --cpuidle poll, which does the same)");
	vm_arg(out, "-smp");
	vm_argf(out, "cpus=%d,sockets=%d,cores=%d,threads=%d", t->nr_cpus,
		sockets, cores, threads);
	if (t->nr_nodes > 1)
		ret = numa_args(out, t, cores * threads, memory_mb, err, len);
	if (!ret && out->overflow)
		ret = refuse(err, len, t, "too many QEMU arguments");
	return ret;
}

/* Append @s (@n bytes) to @out; 0, or -1 when out of memory. */
static int put(struct vm_text *out, const char *s, size_t n)
{
	if (out->len + n + 1 > out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 65536;
		char *p;

		while (cap < out->len + n + 1)
			cap *= 2;
		p = realloc(out->text, cap);
		if (!p)
			return -1;
		out->text = p;
		out->cap = cap;
	}
	memcpy(out->text + out->len, s, n);
	out->len += n;
	out->text[out->len] = '\0';
	return 0;
}

long vm_topology_cpu(const struct vm_machine *m, long vcpu)
{
	return vcpu >= 0 && vcpu < m->nr_cpus ? m->topology_cpu[vcpu] : vcpu;
}

/* A CPU number of the guest's as the topology's, @width digits at least. */
static int put_cpu(struct vm_text *out, const struct vm_machine *m, long cpu,
		   int width)
{
	char buf[24];
	int n;

	n = snprintf(buf, sizeof(buf), "%0*ld", width, vm_topology_cpu(m, cpu));
	return put(out, buf, (size_t)n);
}

/*
 * Where a line names a CPU: the first " [digits]" (the ring buffer's CPU
 * of an event line), "CPU:" and "CPU " heads of the lost-events and
 * buffer-started notes, and the fields of the events /init enables.
 */
static const char *const cpu_marks[] = {
	" [", "target_cpu=", "orig_cpu=", "dest_cpu=", "cpu_id=",
	"CPU:", "##### CPU ",
};

static const char *next_mark(const char *s, const char *end, int seen_head,
			     size_t *mark_len)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < sizeof(cpu_marks) / sizeof(cpu_marks[0]); i++) {
		const char *p = s;
		size_t n = strlen(cpu_marks[i]);

		if (i == 0 && seen_head)
			continue;
		while ((p = memmem(p, (size_t)(end - p), cpu_marks[i], n))) {
			if (p + n < end && p[n] >= '0' && p[n] <= '9')
				break;
			p += n;
		}
		if (p && (!best || p < best)) {
			best = p;
			*mark_len = n;
		}
	}
	return best;
}

int vm_trace_renumber(const struct vm_machine *m, const char *text,
		      size_t len, struct vm_text *out)
{
	const char *end = text + len, *line = text, *eol, *p, *mark;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (put(out, "", 0))
		return -1;
	for (; line < end; line = eol) {
		int seen_head = 0;

		eol = memchr(line, '\n', (size_t)(end - line));
		eol = eol ? eol + 1 : end;
		for (p = line; (mark = next_mark(p, eol, seen_head, &n)); ) {
			char *stop;
			long cpu = strtol(mark + n, &stop, 10);

			if (put(out, p, (size_t)(mark + n - p)) ||
			    put_cpu(out, m, cpu,
				    (int)(stop - (mark + n))))
				goto oom;
			seen_head |= mark[0] == ' ' && mark[1] == '[';
			p = stop;
		}
		if (put(out, p, (size_t)(eol - p)))
			goto oom;
	}
	return 0;
oom:
	free(out->text);
	memset(out, 0, sizeof(*out));
	return -1;
}
