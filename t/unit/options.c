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

static bool test_jitter(void)
{
	static const struct {
		const char *text;
		double v;
	} good[] = {
		{ "0", 0 }, { "0%", 0 }, { "0.0", 0 }, { "0.", 0 },
		{ "0.01", 0.01 }, { "1%", 0.01 }, { ".5", 0.5 }, { "0.5", 0.5 },
		{ "50%", 0.5 }, { "2.5%", 0.025 }, { "0.7%", 0.007 },
		{ "5.%", 0.05 }, { "12.5%", 0.125 }, { "0.1", 0.1 },
		{ "10%", 0.1 },
	};
	static const char *const bad[] = {
		"", "%", ".", ".%", "2x", "-0.01", "+0.01", "0.51", "50.01%",
		"1", "100%", "1e-2", "0x0.1", "nan", "inf", " 0.01", "0.01 ",
		"1%%", "1 %", "0..1", "1.2.3", "%1", "0,01",
	};
	double v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = -1;
		ASSERT_EQ(sim_parse_jitter(&v, good[i].text), 0);
		/* exactly the double of the fraction's text */
		ASSERT_TRUE(v == good[i].v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = -1;
		ASSERT_TRUE(sim_parse_jitter(&v, bad[i]));
		ASSERT_TRUE(v == -1);	/* untouched */
	}
	return true;
}

static bool test_governors(void)
{
	const char *gov;

	ASSERT_EQ(sim_parse_governor("schedutil"), SIM_GOV_SCHEDUTIL);
	ASSERT_EQ(sim_parse_governor("performance"), SIM_GOV_PERFORMANCE);
	ASSERT_EQ(sim_parse_governor("powersave"), SIM_GOV_POWERSAVE);
	ASSERT_EQ(sim_parse_governor("turbo"), -1);
	ASSERT_EQ(sim_parse_governor(""), -1);
	ASSERT_EQ(sim_parse_cpuidle("menu", &gov), SIM_IDLE_KERNEL);
	ASSERT_STREQ(gov, "menu");
	ASSERT_EQ(sim_parse_cpuidle("kernel:teo", &gov), SIM_IDLE_KERNEL);
	ASSERT_STREQ(gov, "teo");
	ASSERT_EQ(sim_parse_cpuidle("poll", &gov), SIM_IDLE_POLL);
	ASSERT_EQ(gov == NULL, 1);
	ASSERT_EQ(sim_parse_cpuidle("sim", &gov), SIM_IDLE_SIM);
	ASSERT_EQ(sim_parse_cpuidle("haltpoll", &gov), -1);
	ASSERT_EQ(sim_parse_cpuidle("kernel:", &gov), -1);
	ASSERT_STREQ(sim_cpuidle_key(NULL), "kernel");
	ASSERT_STREQ(sim_cpuidle_key("kernel:ladder"), "ladder");
	ASSERT_STREQ(sim_cpuidle_key("ladder"), "ladder");
	ASSERT_EQ(sim_cpuidle_key("deep") == NULL, 1);
	return true;
}

static bool test_trace_options(void)
{
	unsigned int bits = 7;

	ASSERT_EQ(sim_parse_trace_events(&bits, "pelt"), 0);
	ASSERT_EQ(bits, SIM_TRACE_PELT);
	ASSERT_EQ(sim_parse_trace_events(&bits, "nr_running,sched_stat_runtime"), 0);
	ASSERT_EQ(bits, SIM_TRACE_NR_RUNNING | SIM_TRACE_STAT_RUNTIME);
	ASSERT_EQ(sim_parse_trace_events(&bits, "all"), 0);
	ASSERT_EQ(bits, SIM_TRACE_STAT_RUNTIME | SIM_TRACE_NR_RUNNING |
			SIM_TRACE_PELT);
	/* refused: unknown, empty, a prefix; @out untouched */
	ASSERT_EQ(sim_parse_trace_events(&bits, "pelt,sched_switch"), -1);
	ASSERT_EQ(sim_parse_trace_events(&bits, ""), -1);
	ASSERT_EQ(sim_parse_trace_events(&bits, "pelt,"), -1);
	ASSERT_EQ(sim_parse_trace_events(&bits, "pel"), -1);
	ASSERT_EQ(bits, SIM_TRACE_STAT_RUNTIME | SIM_TRACE_NR_RUNNING |
			SIM_TRACE_PELT);
	ASSERT_EQ(sim_trace_event_bits("pelt", 4), SIM_TRACE_PELT);
	ASSERT_EQ(sim_trace_event_bits("pelts", 4), SIM_TRACE_PELT);
	ASSERT_EQ(sim_trace_event_bits("cpu_idle", 8), 0);
	ASSERT_EQ(sim_parse_trace_format("text"), SIM_TRACE_TEXT);
	ASSERT_EQ(sim_parse_trace_format("dat"), SIM_TRACE_DAT);
	ASSERT_EQ(sim_parse_trace_format("binary"), -1);
	return true;
}

int main(void)
{
	tap_plan(6);
	TEST(test_duration_units);
	TEST(test_duration_bare_seconds);
	TEST(test_duration_refused);
	TEST(test_jitter);
	TEST(test_governors);
	TEST(test_trace_options);
	return tap_done();
}
