// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's option values: the duration, the seed, the jitter, the
 * frequency governor and the idle governor. linsched-sim parses its
 * command line with these, and the host programs link this file too
 * (libsim-host.a), so that a command refuses what the simulator would
 * refuse before it builds anything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int sim_parse_duration(uint64_t *out, const char *s)
{
	char secs[64], *end;

	strtod(s, &end);
	if (end == s || *end)	/* a unit: the workloads' parser of units */
		return workload_parse_duration(out, s);
	/* a bare number is seconds, as rt-app's global.duration */
	if (strlen(s) + 2 > sizeof(secs))
		return -1;
	snprintf(secs, sizeof(secs), "%ss", s);
	return workload_parse_duration(out, secs);
}

int sim_parse_seed(uint64_t *out, const char *s)
{
	unsigned long long v;
	const char *p;
	char *end;

	for (p = s; *p >= '0' && *p <= '9'; p++)
		;
	if (p == s || *p)
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	*out = v;
	return 0;
}

unsigned int sim_trace_event_bits(const char *name, size_t len)
{
	static const struct {
		const char *name;
		unsigned int bits;
	} names[] = {
		{ "sched_stat_runtime", SIM_TRACE_STAT_RUNTIME },
		{ "nr_running", SIM_TRACE_NR_RUNNING },
		{ "pelt", SIM_TRACE_PELT },
		{ "all", SIM_TRACE_STAT_RUNTIME | SIM_TRACE_NR_RUNNING |
			 SIM_TRACE_PELT },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == len &&
		    !strncmp(names[i].name, name, len))
			return names[i].bits;
	return 0;
}

int sim_parse_trace_events(unsigned int *out, const char *s)
{
	unsigned int bits = 0, one;
	const char *p = s, *end;

	do {
		end = strchr(p, ',');
		one = sim_trace_event_bits(p, end ? (size_t)(end - p) :
					   strlen(p));
		if (!one)
			return -1;
		bits |= one;
		p = end + 1;
	} while (end);
	*out = bits;
	return 0;
}

int sim_parse_trace_format(const char *s)
{
	if (!strcmp(s, "text"))
		return SIM_TRACE_TEXT;
	if (!strcmp(s, "dat"))
		return SIM_TRACE_DAT;
	return -1;
}

int sim_parse_jitter(double *out, const char *s)
{
	size_t digits = 0, dots = 0, len = strlen(s), i;
	int percent = len && s[len - 1] == '%';
	char *text;
	double v;

	/* plain decimal digits with one point at most, then maybe '%' */
	for (i = 0; i < len - percent; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] == '.' && !dots)
			dots++;
		else
			return -1;
	}
	if (!digits)
		return -1;
	/* "2.5%" is read as "2.5e-2": the double "0.025" reads as */
	text = malloc(len + 4);
	if (!text)
		return -1;
	snprintf(text, len + 4, "%.*s%s", (int)(len - percent), s,
		 percent ? "e-2" : "");
	v = strtod(text, NULL);
	free(text);
	if (!(v >= 0 && v <= SIM_JITTER_MAX))
		return -1;
	*out = v;
	return 0;
}

int sim_parse_governor(const char *name)
{
	static const char *const names[] = {
		[SIM_GOV_SCHEDUTIL] = "schedutil",
		[SIM_GOV_PERFORMANCE] = "performance",
		[SIM_GOV_POWERSAVE] = "powersave",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

int sim_parse_cpuidle(const char *name, const char **governor)
{
	static const char *const governors[] = { "menu", "teo", "ladder" };
	size_t i;

	*governor = NULL;
	if (!strcmp(name, "poll"))
		return SIM_IDLE_POLL;
	if (!strcmp(name, "sim"))
		return SIM_IDLE_SIM;
	/* kernel:GOV, as an earlier release spelt the revision's */
	if (!strncmp(name, "kernel:", 7))
		name += 7;
	for (i = 0; i < sizeof(governors) / sizeof(governors[0]); i++)
		if (!strcmp(name, governors[i])) {
			*governor = governors[i];
			return SIM_IDLE_KERNEL;
		}
	return -1;
}

const char *sim_cpuidle_key(const char *name)
{
	const char *governor;

	if (!name)
		return "kernel";
	switch (sim_parse_cpuidle(name, &governor)) {
	case SIM_IDLE_KERNEL:
		return governor;
	case SIM_IDLE_POLL:
		return "poll";
	case SIM_IDLE_SIM:
		return "sim";
	}
	return NULL;
}
