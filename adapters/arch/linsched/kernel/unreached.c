// SPDX-License-Identifier: GPL-2.0-only
/*
 * Functions the kernel's objects link against but the simulation never
 * reaches: the ftrace output side of TRACE_EVENT (no ftrace event is ever
 * enabled here; the tracepoints' probes are the arch's own, trace.c) and
 * the cpufreq driver's adjust_perf (the simulated driver has none), and
 * what 7.x's housekeeping_update() calls when cpusets change, and the
 * seq_buf text of 7.x's preempt_model_str().
 *
 * Their signatures change between kernel versions and nothing here calls
 * them, so this file includes no kernel header: each is defined as taking
 * nothing, which the linker does not distinguish, and panics if reached.
 */
#include <asm/door.h>

#define LINSCHED_UNREACHED(name)					\
	void name(void);						\
	void name(void)							\
	{								\
		lh_panic("linsched: " #name "() is not simulated");	\
	}

LINSCHED_UNREACHED(trace_event_buffer_reserve)
LINSCHED_UNREACHED(trace_event_buffer_commit)
LINSCHED_UNREACHED(trace_event_raw_init)
LINSCHED_UNREACHED(trace_event_reg)
LINSCHED_UNREACHED(trace_raw_output_prep)
LINSCHED_UNREACHED(trace_handle_return)
LINSCHED_UNREACHED(__trace_trigger_soft_disabled)
LINSCHED_UNREACHED(trace_print_flags_seq)
LINSCHED_UNREACHED(trace_print_bitmask_seq)
LINSCHED_UNREACHED(trace_print_symbols_seq)
LINSCHED_UNREACHED(trace_event_printf)
LINSCHED_UNREACHED(trace_output_call)
LINSCHED_UNREACHED(cpufreq_driver_adjust_perf)
/* cpuidle: broadcast timers (no state has CPUIDLE_FLAG_TIMER_STOP and no
   driver a bctimer) */
LINSCHED_UNREACHED(tick_broadcast_oneshot_control)
LINSCHED_UNREACHED(on_each_cpu_cond_mask)
/* 7.x's housekeeping_update(), for cpuset's isolated partitions (no cpuset) */
LINSCHED_UNREACHED(kthreads_update_housekeeping)
LINSCHED_UNREACHED(tmigr_isolated_exclude_cpumask)
LINSCHED_UNREACHED(vmstat_flush_workqueue)
LINSCHED_UNREACHED(workqueue_unbound_housekeeping_update)
/* /proc and debugfs output of kernel/sched/debug.c and core.c's cgroup files */
LINSCHED_UNREACHED(seq_printf)
LINSCHED_UNREACHED(seq_puts)
LINSCHED_UNREACHED(seq_write)
LINSCHED_UNREACHED(kernfs_path_from_node)
/* 7.x's preempt_model_str() (PREEMPT_BUILD), for oops and dump_stack() lines */
LINSCHED_UNREACHED(seq_buf_puts)
LINSCHED_UNREACHED(seq_buf_printf)
