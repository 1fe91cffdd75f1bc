/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * topologies - the simulated machines: CPUs with their SMT siblings,
 * cluster (last-level cache), package, NUMA node and capacity; per CPU type
 * the cpuidle states and the OPP table (the kernel's energy model).
 *
 * Machines come from compiled-in presets, PxCxT shapes, JSON files (the
 * format is in topologies/README.md) or a real machine's sysfs.  Parses,
 * checks and describes only; the simulator boots the kernel on it.
 *
 * A struct topology is plain data (about 50 KiB, no pointers): callers own
 * it, usually as a static; nothing in it needs freeing.
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
#define TOPOLOGY_CAPACITY_SCALE 1024	/* the biggest CPU's capacity */
#define TOPOLOGY_LOCAL_DISTANCE 10
#define TOPOLOGY_REMOTE_DISTANCE 20	/* the default between two nodes */

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
	int no_polling_state;		/* 1: the cpuidle driver has no polling
					   state 0 before them (Arm's psci and
					   arm drivers); 0: it has POLL (x86's
					   intel_idle and acpi_idle) */
	int nr_opps;			/* 0: a fixed frequency */
	struct topology_opp opps[TOPOLOGY_MAX_OPPS];	/* ascending */
	int dvfs_per_core;		/* 1: each core has its own frequency
					   (x86); 0: a cluster shares one */
	double smt_speed;		/* a thread's speed while an SMT
					   sibling is busy, (0, 1]; 0: 1 */
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
	char description[128];	/* one line, may be empty */
	int nr_cpus;
	struct topology_cpu cpu[TOPOLOGY_MAX_CPUS];
	int nr_types;
	struct topology_type types[TOPOLOGY_MAX_TYPES];
	int nr_nodes;
	int distance[TOPOLOGY_MAX_NODES][TOPOLOGY_MAX_NODES];	/* SLIT: 10 local */
	char cmdline[256];	/* boot parameters: "isolcpus=domain,3"; "" none */
};

/**
 * topology_from_spec() - build a machine from a preset, a shape or a file
 * @out: filled in
 * @spec: a JSON file when it contains '/' or ends in ".json"; else a preset
 *        name (see topology_presets()); else "P x C x T": packages, cores
 *        per package, threads per core, e.g. "2x4x2", "8" or "4x2" (cores x
 *        threads); else an existing file
 * @err: receives a message on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int topology_from_spec(struct topology *out, const char *spec, char *err,
		       size_t errlen);

/**
 * topology_cpulist() - a CPU list as the kernel's cpulist_parse() reads
 *	it ("1,3-5"), each CPU below @n
 * @s: the text
 * @n: CPUs of the machine
 * @set: receives 1 for each CPU in the list, 0 for the others (@n
 *	entries), or NULL
 * @count: receives the number of CPUs in the list (with @set: distinct)
 *
 * Return: 0, or -1 when @s is not such a list or names no CPU.
 */
int topology_cpulist(const char *s, int n, char *set, int *count);

/**
 * topology_set_cmdline() - check and set the machine's boot parameters
 * @t: the machine
 * @cmdline: "isolcpus=[domain,nohz,managed_irq,]CPULIST ..." (space
 *           separated); the kernel's own handlers read them at boot
 * @err: receives what is wrong and where, on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 when a parameter is unknown, a CPU is beyond @t, no
 * CPU would be left for housekeeping, or two isolcpus= give one flag
 * (the kernel refuses the second).
 */
int topology_set_cmdline(struct topology *t, const char *cmdline, char *err,
			 size_t errlen);

/**
 * topology_presets() - the preset names
 * @n: receives the count
 *
 * Return: a static array of static strings.
 */
const char *const *topology_presets(size_t *n);

/**
 * topology_from_json() - parse a machine from JSON text
 * @out: filled in (all of it: unused entries are zero)
 * @text: the JSON, NUL-terminated (the format is in topologies/README.md)
 * @name_for_errors: how messages name the text, e.g. its file name
 * @err: receives a message on failure, with line:column of the offending
 *       value, e.g. "topology 'm.json':12:18: cpus[3]: unknown key 'cor'
 *       (expected id, type, package, cluster, core or node)"
 * @errlen: size of @err
 *
 * Everything written is checked (see topology_validate()); what is not
 * written gets the documented default.
 *
 * Return: 0, or -1 with @err set.
 */
int topology_from_json(struct topology *out, const char *text,
		       const char *name_for_errors, char *err, size_t errlen);

/**
 * topology_from_file() - read a machine from a JSON file
 * @out: filled in
 * @path: the file
 * @err: receives a message on failure, naming @path
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int topology_from_file(struct topology *out, const char *path, char *err,
		       size_t errlen);

/**
 * topology_to_json() - write a machine as JSON
 * @t: the machine
 *
 * The explicit form (every CPU listed), which topology_from_json() reads
 * back into an identical struct.
 *
 * Return: a malloc'd NUL-terminated string the caller frees, or NULL when
 * out of memory.
 */
char *topology_to_json(const struct topology *t);

/**
 * topology_from_sysfs() - capture a real machine from its sysfs
 * @out: filled in
 * @root: the cpu directory, NULL for "/sys/devices/system/cpu"; NUMA nodes
 *        are read from @root/../node when it exists
 * @err: on failure a message; on success a note listing what sysfs did not
 *       say and was defaulted (empty when nothing was), one item a line
 * @errlen: size of @err
 *
 * Reads cpuN/topology (package, core siblings, cluster), the last-level
 * cache's shared_cpu_list (the cluster, as in the model), cpu_capacity,
 * cpuidle states and cpufreq frequencies.  Missing parts (a VM without
 * cpufreq, say) get defaults and are listed in the note, never an error;
 * a topology, cache or capacity file that is there but cannot be read or
 * parsed, and SMT or last-level cache lists that disagree, are errors.
 * sysfs knows no power figures: OPP power is 0 (unknown) and noted.
 *
 * Return: 0 (note in @err), or -1 with @err set.
 */
int topology_from_sysfs(struct topology *out, const char *root, char *err,
			size_t errlen);

/**
 * topology_validate() - check a machine's consistency
 * @t: the machine
 * @err: receives a message naming the CPU or type on failure
 * @errlen: size of @err
 *
 * CPU count 1..TOPOLOGY_MAX_CPUS; SMT siblings (CPUs of one core) share
 * package, cluster, node and type; a cluster lies in one package; types
 * defined, capacity 1..1024 and some type at 1024; idle states ordered by
 * target residency; OPPs ascending in frequency and capacity, power not
 * decreasing, the highest at the type's capacity; nodes used by CPUs
 * defined; distances symmetric, 10 on the diagonal, 11..254 off it.
 *
 * Return: 0, or -1 with @err set.
 */
int topology_validate(const struct topology *t, char *err, size_t errlen);

/**
 * topology_default_type() - the type of CPUs nobody described
 * @out: filled in: "cpu", capacity 1024, a WFI-like and a deep idle state,
 *       no OPPs (a fixed frequency)
 */
void topology_default_type(struct topology_type *out);

/*
 * Input files and the names they give, shared with workloads/ (the lowest
 * module of the simulator's side holds them; topologies/text.c).
 */

/* The most a topology or workload file may hold: 16 MiB. */
#define TOPOLOGY_INPUT_MAX (16u << 20)

/**
 * topology_read_input() - the whole of an input file, read once
 * @path: the file: a regular one, or one that can be read only once (a
 *	FIFO, a process substitution's /dev/fd/N)
 * @what: "topology" or "workload": how messages name the file
 * @len: receives the length (may be NULL)
 * @err: receives "WHAT 'PATH': ..." on failure
 * @errlen: size of @err
 *
 * Return: the text, NUL-terminated and malloc()ed (the caller frees it),
 * or NULL with @err set: the file cannot be opened or read (the system's
 * reason), is a directory, holds a NUL byte or more than
 * TOPOLOGY_INPUT_MAX bytes (read no further: /dev/zero ends there).
 */
char *topology_read_input(const char *path, const char *what, size_t *len,
			  char *err, size_t errlen);

/**
 * topology_unprintable() - what keeps @s from being a printable name
 * @s: a name, as a trace line, a summary and a JSON result will carry it
 * @buf: receives the reason
 * @len: size of @buf
 *
 * Return: NULL when @s is valid UTF-8 holding no control character (C0,
 * DEL, C1); else @buf: "a control character (\x0a at byte 3)" or "bytes
 * that are not UTF-8 (\xff at byte 1)".
 */
const char *topology_unprintable(const char *s, char *buf, size_t len);

/**
 * topology_printable() - make a message safe to print, in place
 * @s: the message
 * @size: the size of its buffer
 *
 * Every control character and every byte that is not UTF-8 becomes \xNN
 * (the text is cut to @size on a character's boundary): a message that
 * quotes bad input never sends raw bytes to a terminal.
 */
void topology_printable(char *s, size_t size);

/**
 * topology_utf8_cut() - where to cut @s to at most @max bytes
 * @s: a name
 * @max: the most bytes to keep
 *
 * Return: the length of the longest prefix of at most @max bytes that
 * splits no UTF-8 character (the kernel's comm, 15 bytes, and an
 * instance's "<first 10>-<i>" keep whole characters).
 */
size_t topology_utf8_cut(const char *s, size_t max);

/**
 * topology_json_nul() - a "\u0000" in a string of JSON @text
 * @text: JSON (without comments)
 *
 * cJSON reads "\u0000" as the end of the string: a name "a\u0000b" would
 * become "a" without a word. Return: where the escape starts, or NULL.
 */
const char *topology_json_nul(const char *text);

#endif
