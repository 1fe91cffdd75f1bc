/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workloads - what the simulated tasks do.
 *
 * Parses and describes only; sim/ runs the tasks. A workload is either an
 * rt-app JSON file (see workloads/README.md for the grammar we accept) or a
 * compact spec of task groups:
 *
 *   GROUP[+GROUP...]   GROUP = KIND[*COUNT][:KEY=VALUE...]
 *
 * KIND: hog (always running), periodic (run, then sleep), random (run and
 * sleep lengths drawn from exponential distributions of the given means),
 * yield (run, then sched_yield()).
 * KEY: run, sleep (durations: 10ms, 500us, 2s, 100ns), nice (-20..19),
 * cpus (allowed CPUs: 0-3 or 1.3.5), unpin (after this long the task
 * allows itself every CPU, through the kernel's set_cpus_allowed_ptr),
 * policy (other, batch, idle, fifo, rr), prio (1..99 for fifo/rr), loops
 * (the task exits after this many run/sleep rounds), name (1 to 10
 * characters: instances are NAME-N). Numbers are decimal; a group, a
 * KEY=VALUE or a key given twice that is empty is an error naming the
 * character where it starts.
 *
 * Both become one model: tasks made of phases made of events, the way
 * rt-app describes them. A compact group is a task definition whose one
 * phase holds the events of its kind.
 */
#ifndef LSB_WORKLOADS_H
#define LSB_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#define WORKLOAD_MAX_TASKS 4096
/* a task's name, as rt-app keeps it; the kernel's comm keeps 15 of it */
#define WORKLOAD_NAME_MAX 64
#define WORKLOAD_MAX_CPUS 512
#define WORKLOAD_MAX_GROUPS 256
#define WORKLOAD_GROUP_PATH_MAX 256
/*
 * Every duration is below 1.8e19 ns (570 years): uint64_t nanoseconds end
 * at 1.84e19, and the simulator adds lengths to the time.
 */
#define WORKLOAD_DURATION_LIMIT_NS 1.8e19
/*
 * A buffer for the parsers' messages (workloads' and topologies'): big
 * enough for the longest names they quote (a taskgroup path of 255
 * characters, twice, and a file's path) and still the reason after them.
 */
#define WORKLOAD_ERR_MAX 4096

enum workload_kind {
	WORKLOAD_HOG,
	WORKLOAD_PERIODIC,
	WORKLOAD_RANDOM,
	WORKLOAD_YIELD,
	WORKLOAD_RTAPP,		/* from an rt-app file: only phases say what */
};

/* What a task does, one step of a phase, in rt-app's terms. */
enum workload_event_type {
	WL_EV_RUN,		/* work: stretches with capacity */
	WL_EV_RUNTIME,		/* wall time on the CPU, preemption included */
	WL_EV_SLEEP,
	WL_EV_TIMER,		/* sleep until the timer's next period */
	WL_EV_LOCK,
	WL_EV_UNLOCK,
	WL_EV_WAIT,		/* condition variable, with its mutex held */
	WL_EV_SIGNAL,
	WL_EV_BROAD,
	WL_EV_SYNC,		/* signal, then wait, on one condition */
	WL_EV_BARRIER,
	WL_EV_SUSPEND,
	WL_EV_RESUME,
	WL_EV_YIELD,
	WL_EV_FORK,		/* start a task from a definition */
	WL_EV_SET_AFFINITY,	/* generated: a compact group's unpin */
};

/* A length in ns: fixed, or drawn per use from the task's seeded PRNG. */
enum workload_dist_kind {
	WL_DIST_FIXED,		/* a */
	WL_DIST_EXPONENTIAL,	/* mean a */
	WL_DIST_LOGNORMAL,	/* mean a, standard deviation b */
	WL_DIST_NORMAL,		/* mean a, standard deviation b */
	WL_DIST_UNIFORM,	/* between a and b */
};

struct workload_dist {
	enum workload_dist_kind kind;
	uint64_t a, b;
};

struct workload_event {
	enum workload_event_type type;
	char key[WORKLOAD_NAME_MAX];	/* as written, for messages */
	struct workload_dist len;	/* run, runtime, sleep; timer period */
	int res;			/* resource; fork: definition index */
	int dep;			/* wait, sync: the mutex resource */
};

enum workload_res_type {
	WL_RES_TIMER,
	WL_RES_MUTEX,
	WL_RES_COND,		/* wait/signal/broad/sync */
	WL_RES_BARRIER,
	WL_RES_SUSPEND,		/* suspend/resume: rt-app's per-name condition */
};

/* A named synchronisation object, shared by every task that names it. */
struct workload_resource {
	char name[64];
	enum workload_res_type type;
	int absolute;		/* timer: period grid fixed at first use */
	int unique;		/* timer: one per task instance ("unique*") */
	int users;		/* barrier: instances that meet there */
};

struct workload_phase {
	char name[32];
	int group;			/* taskgroup to move to: 1 + its index
					   in groups, 0: stay where it is */
	long loop;			/* >= 1 */
	int nr_events;
	struct workload_event *events;
	int nr_cpus;			/* 0: the task's affinity */
	int *cpus;
	int set_nice;			/* the phase gives a new priority */
	int nice;
};

struct workload_task {
	char name[WORKLOAD_NAME_MAX];
	int def;			/* index of its definition in defs */
	/* compact groups: what the spec said (kept for callers) */
	enum workload_kind kind;
	uint64_t run_ns;
	uint64_t sleep_ns;
	uint64_t unpin_ns;	/* 0: never */
	uint64_t loops;		/* 0: forever */
	/* both */
	int nice;
	int policy;		/* SCHED_* number */
	int prio;
	uint64_t dl_runtime_ns, dl_deadline_ns, dl_period_ns;
	int util_min, util_max;	/* -1: unset */
	uint64_t delay_ns;	/* before the first phase */
	long loop;		/* rounds of all phases; -1: forever */
	int instances;		/* started at boot */
	int nr_phases;
	struct workload_phase *phases;	/* owned by the definition */
	int group;		/* taskgroup it starts in: 1 + its index in
				   groups, 0: none (the root) */
	int nr_cpus;		/* 0: all */
	int cpus[WORKLOAD_MAX_CPUS];
};

/*
 * Task groups (cgroups of the cpu controller, and cpusets) and the
 * system's events: rt-app's "taskgroup" names them by path; our
 * extension ("lsb-taskgroups", "lsb-events", workloads/README.md) gives
 * their control files values, at boot or at a time, and takes CPUs
 * offline and back.
 */

/* A write to a group's control file, as "echo VALUE > FILE" does it. */
struct workload_setting {
	char file[32];		/* "cpu.weight", "cpuset.cpus", ... */
	char value[96];
};

struct workload_group {
	char path[WORKLOAD_GROUP_PATH_MAX];	/* "/", "/a", "/a/b" */
	int parent;		/* index in groups; -1 for the root "/" */
	int nr_settings;
	struct workload_setting *settings;	/* at boot, in order */
};

enum workload_sys_type {
	WL_SYS_WRITE,		/* a group's control file */
	WL_SYS_CPU_DOWN,	/* a CPU goes offline */
	WL_SYS_CPU_UP,		/* and comes back */
};

struct workload_sysevent {
	uint64_t time_ns;
	enum workload_sys_type type;
	int group;		/* WL_SYS_WRITE: index in groups */
	struct workload_setting set;
	int cpu;		/* WL_SYS_CPU_* */
};

struct workload {
	char spec[256];
	int nr_tasks;
	struct workload_task *tasks;	/* started at boot; point into defs */
	int nr_defs;
	struct workload_task *defs;	/* one per group or rt-app task */
	int nr_res;
	struct workload_resource *res;
	int randomised;		/* draws from the seeded PRNG */
	int pi_enabled;		/* rt-app global.pi_enabled: PI mutexes */
	uint64_t duration_ns;	/* rt-app global.duration; 0: not given */
	int nr_groups;		/* 0, or groups[0] is the root "/" */
	struct workload_group *groups;	/* parents before their children */
	int nr_sysevents;
	struct workload_sysevent *sysevents;	/* in time order */
	int cpusets;		/* some group sets cpuset.* */
	char notes[1024];	/* what was accepted but does not apply */
};

/**
 * workload_parse() - parse a compact spec or an rt-app JSON file
 * @out: filled in; release with workload_release()
 * @spec: a compact spec (see the top of this header), or the path of an
 *        rt-app JSON file: a spec ending in .json, holding a '/' or naming
 *        a file (a FIFO too; not a directory); printable UTF-8, as the
 *        results and the trace carry it
 * @err: receives a message naming the group and key, or the file with
 *       its line and column or the task, phase and key, on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int workload_parse(struct workload *out, const char *spec, char *err,
		   size_t errlen);

/**
 * workload_parse_json() - parse the text of an rt-app JSON file
 * @out: filled in; release with workload_release()
 * @name: how messages and @out->spec name it (its file's path)
 * @text: the file's text, NUL-terminated (read once by the caller, as a
 *        FIFO or a process substitution can be: topology_read_input())
 * @err: as workload_parse()'s
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int workload_parse_json(struct workload *out, const char *name,
			const char *text, char *err, size_t errlen);

void workload_release(struct workload *wl);

/**
 * workload_check() - check the workload against the machine
 * @wl: a parsed workload
 * @nr_cpus: CPUs of the topology
 * @err: receives a message naming the task and the CPU on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 when a task or phase names a CPU the machine lacks.
 */
int workload_check(const struct workload *wl, int nr_cpus, char *err,
		   size_t errlen);

/**
 * workload_group() - the group of @path, made (with its ancestors) if new
 * @wl: the workload
 * @path: "/" or "/a/b"
 * @err: receives a message naming the path on failure
 * @errlen: size of @err
 *
 * Return: 1 + its index in @wl->groups (the form of a task's and a
 * phase's group), or -1 with @err set: not an absolute path of names,
 * too long, or too many groups.
 */
int workload_group(struct workload *wl, const char *path, char *err,
		   size_t errlen);

/**
 * workload_setting() - check and fill a control-file write
 * @out: filled in
 * @file: cpu.weight, cpu.weight.nice, cpu.max, cpu.max.burst, cpu.idle,
 *	cpu.uclamp.min, cpu.uclamp.max (cgroup v2), cpu.shares,
 *	cpu.cfs_quota_us, cpu.cfs_period_us, cpu.cfs_burst_us (v1),
 *	cpuset.cpus, cpuset.cpus.partition
 * @value: as written to the file; the cpu controller's own handler in
 *	the revision reads it (and may refuse it); cpuset values are
 *	checked here: a CPU list, member/root/isolated
 * @err: receives a message naming the file and what it expects
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int workload_setting(struct workload_setting *out, const char *file,
		     const char *value, char *err, size_t errlen);

/**
 * workload_parse_duration() - "10ms", "2s", "500us", "100ns" or plain ns,
 *	the number decimal ("1.5", "1e-3"; no sign, no "0x10")
 * @out: nanoseconds
 * @s: the text
 *
 * Return: 0, or -1 when @s is not a positive duration below
 * WORKLOAD_DURATION_LIMIT_NS (rounded to the nanosecond).
 */
int workload_parse_duration(uint64_t *out, const char *s);

#endif
