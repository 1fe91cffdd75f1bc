// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.c - reading the simulator's traces, which are in ftrace's text
 * format (linsched timeline, linsched bugs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"

/*
 * "sssss.uuuuuu" (tracefs) or "sssss.nnnnnnnnn" (trace-cmd report -t, and
 * the simulator's) after the flags column, in microseconds.
 */
int lsb_trace_line(const char *line, int *cpu, uint64_t *t_us,
		   const char **event)
{
	const char *p = strchr(line, '[');
	unsigned long long sec, frac;
	int a = 0, b = 0, n = 0;

	if (*line == '#' || !p ||
	    sscanf(p, "[%d] %*s %llu.%n%llu%n: %n", cpu, &sec, &a, &frac, &b,
		   &n) != 3 || !n)
		return -1;
	if (b - a == 9)
		frac /= 1000;
	else if (b - a != 6)
		return -1;
	*t_us = sec * 1000000 + frac;
	*event = p + n;
	return 0;
}

int lsb_trace_switch(const char *event, char *comm, size_t len, int *pid)
{
	const char *q, *p;

	if (strncmp(event, "sched_switch:", 13))
		return -1;
	q = strstr(event, "next_comm=");
	p = q ? strstr(q, " next_pid=") : NULL;
	if (!p)
		return -1;
	snprintf(comm, len, "%.*s", (int)(p - q - 10), q + 10);
	*pid = (int)strtol(p + 10, NULL, 10);
	return 0;
}
