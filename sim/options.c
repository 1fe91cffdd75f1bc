// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's option values: the duration, the frequency governor and
 * the idle governor. linsched-sim parses its command line with these, and
 * the host programs link this file too (libsim-host.a), so that a command
 * refuses what the simulator would refuse before it builds anything.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int sim_parse_duration(uint64_t *out, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	/* nan, inf (and "nanms", "infs") are no durations */
	if (end == s || !isfinite(v) || v <= 0)
		return -1;
	if (*end)	/* a unit: the workloads' parser, the one for units */
		return workload_parse_duration(out, s);
	/* a bare number is seconds, as rt-app's global.duration */
	if (v * 1e9 >= 1.8e19)	/* beyond, uint64_t ns overflow */
		return -1;
	*out = (uint64_t)(v * 1e9 + 0.5);
	return *out ? 0 : -1;
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

int sim_parse_cpuidle(const char *name)
{
	if (!strcmp(name, "menu"))
		return 0;
	if (!strcmp(name, "poll"))
		return 1;
	return -1;
}
