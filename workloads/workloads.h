/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workloads - what the simulated tasks do.
 *
 * Parses and describes only; sim/ runs the tasks. Until the rt-app JSON
 * grammar lands, a workload is a compact spec of task groups:
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
 * (the task exits after this many run/sleep rounds), name.
 */
#ifndef LSB_WORKLOADS_H
#define LSB_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#define WORKLOAD_MAX_TASKS 4096
#define WORKLOAD_MAX_CPUS 512

enum workload_kind {
	WORKLOAD_HOG,
	WORKLOAD_PERIODIC,
	WORKLOAD_RANDOM,
	WORKLOAD_YIELD,
};

struct workload_task {
	char name[16];
	enum workload_kind kind;
	uint64_t run_ns;
	uint64_t sleep_ns;
	int nice;
	int policy;		/* SCHED_* number */
	int prio;
	uint64_t unpin_ns;	/* 0: never */
	uint64_t loops;		/* 0: forever */
	int nr_cpus;		/* 0: all */
	int cpus[WORKLOAD_MAX_CPUS];
};

struct workload {
	char spec[256];
	int nr_tasks;
	struct workload_task *tasks;
	int randomised;		/* draws from the seeded PRNG */
};

/**
 * workload_parse() - parse a workload spec
 * @out: filled in; release with workload_release()
 * @spec: the spec, see the top of this header
 * @err: receives a message naming the group and key on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 with @err set.
 */
int workload_parse(struct workload *out, const char *spec, char *err,
		   size_t errlen);

void workload_release(struct workload *wl);

/**
 * workload_parse_duration() - "10ms", "2s", "500us", "100ns" or plain ns
 * @out: nanoseconds
 * @s: the text
 *
 * Return: 0, or -1 when @s is not a positive duration.
 */
int workload_parse_duration(uint64_t *out, const char *s);

#endif
