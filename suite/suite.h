/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suite - the generated workload suite: a fixed list of named patterns in
 * families (hogs, periodic grids, bursts, distributions, wake chains,
 * producer/consumer pairs, fork storms, nice mixes, pinning, RT with fair,
 * SCHED_IDLE/BATCH, barriers, locks, mostly idle), each written as rt-app
 * JSON for a machine of a given CPU count.
 *
 * The list and every pattern's text depend on nothing but this code and the
 * CPU count: no clock, no environment, no random choice (the patterns that
 * draw lengths from distributions leave the draws to the run's seed). A
 * name never depends on the CPU count; task counts "relative to CPUs" are
 * resolved when the text is made.
 */
#ifndef LSB_SUITE_H
#define LSB_SUITE_H

#include <stddef.h>

/**
 * suite_count() - the number of patterns
 *
 * Return: the count (the same on every call).
 */
int suite_count(void);

/**
 * suite_pattern_name() - a pattern's stable name, e.g. "periodic-d25-p16ms-x1.0-cpus"
 * @i: 0 <= @i < suite_count()
 *
 * Return: a static string, NULL when @i is out of range.
 */
const char *suite_pattern_name(int i);

/**
 * suite_pattern_family() - the family a pattern belongs to, e.g. "periodic"
 * @i: 0 <= @i < suite_count()
 *
 * Return: a static string, NULL when @i is out of range.
 */
const char *suite_pattern_family(int i);

/**
 * suite_find() - a pattern's index by name
 * @name: the name
 *
 * Return: the index, or -1.
 */
int suite_find(const char *name);

/**
 * suite_families() - the family names, in suite order
 * @n: receives the count
 *
 * Return: a static array of static strings.
 */
const char *const *suite_families(size_t *n);

/**
 * suite_family_description() - one line saying what a family exercises
 * @family: a name from suite_families()
 *
 * Return: a static string, NULL for an unknown family.
 */
const char *suite_family_description(const char *family);

/**
 * suite_pattern_json() - a pattern as rt-app JSON for a machine
 * @i: 0 <= @i < suite_count()
 * @nr_cpus: the machine's CPU count (1..4096)
 *
 * The text has a "global" object without a duration (the run decides it)
 * and a "tasks" object; every task name is at most 12 characters.
 *
 * Return: a malloc()ed NUL-terminated text the caller frees, or NULL when
 * @i or @nr_cpus is out of range or memory ran out.
 */
char *suite_pattern_json(int i, int nr_cpus);

#endif
