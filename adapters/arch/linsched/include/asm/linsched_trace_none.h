/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Empty: what <trace/define_trace.h> reads for arch/linsched/kernel/
 * trace_format.c, whose CREATE_TRACE_POINTS defines no tracepoint.
 */
