// SPDX-License-Identifier: GPL-2.0-only
/* The simulator's option values (sim/options.c), as the commands check them. */
#include "sim/sim.h"
#include "t/tap.h"

static bool test_duration_units(void)
{
	uint64_t ns;

	ASSERT_EQ(sim_parse_duration(&ns, "10ms"), 0);
	ASSERT_EQ(ns, 10000000);
	ASSERT_EQ(sim_parse_duration(&ns, "1.5us"), 0);
	ASSERT_EQ(ns, 1500);
	ASSERT_EQ(sim_parse_duration(&ns, "1ns"), 0);
	ASSERT_EQ(ns, 1);
	ASSERT_EQ(sim_parse_duration(&ns, "2s"), 0);
	ASSERT_EQ(ns, 2000000000LL);
	return true;
}

static bool test_duration_bare_seconds(void)
{
	uint64_t ns;

	ASSERT_EQ(sim_parse_duration(&ns, "10"), 0);
	ASSERT_EQ(ns, 10000000000ULL);
	ASSERT_EQ(sim_parse_duration(&ns, "0.5"), 0);
	ASSERT_EQ(ns, 500000000);
	ASSERT_EQ(sim_parse_duration(&ns, "1e-9"), 0);
	ASSERT_EQ(ns, 1);
	return true;
}

static bool test_duration_refused(void)
{
	static const char *const bad[] = {
		"nan", "-nan", "nanms", "inf", "infs", "-inf", "-1s", "-1",
		"0", "0s", "0.0000000001", "", "s", "10 s", "10m", "1e11",
		"1e300s", "3 parsecs",
	};
	uint64_t ns;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ASSERT_TRUE(sim_parse_duration(&ns, bad[i]));
	return true;
}

static bool test_governors(void)
{
	ASSERT_EQ(sim_parse_governor("schedutil"), SIM_GOV_SCHEDUTIL);
	ASSERT_EQ(sim_parse_governor("performance"), SIM_GOV_PERFORMANCE);
	ASSERT_EQ(sim_parse_governor("powersave"), SIM_GOV_POWERSAVE);
	ASSERT_EQ(sim_parse_governor("turbo"), -1);
	ASSERT_EQ(sim_parse_governor(""), -1);
	ASSERT_EQ(sim_parse_cpuidle("menu"), 0);
	ASSERT_EQ(sim_parse_cpuidle("poll"), 1);
	ASSERT_EQ(sim_parse_cpuidle("ladder"), -1);
	return true;
}

int main(void)
{
	tap_plan(4);
	TEST(test_duration_units);
	TEST(test_duration_bare_seconds);
	TEST(test_duration_refused);
	TEST(test_governors);
	return tap_done();
}
