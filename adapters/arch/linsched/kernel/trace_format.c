// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat's events as the revision's own TRACE_EVENT()s define them:
 * <trace/events/sched.h>, <trace/events/power.h> and
 * <trace/events/cgroup.h> are read again (TRACE_HEADER_MULTI_READ) with
 * the tree's include/trace/stages/ macros, in the order
 * include/trace/trace_events.h uses them: stage 1 makes each class's
 * record struct, stage 4 its field descriptors, stages 2, 5 and 6 (sched.h
 * only) a function that runs its TP_fast_assign into a record of ours,
 * stage 7 its print fmt (the stringified TP_printk). The fields' offsets
 * are laid out as the kernel's event_define_fields() does (each aligned,
 * after struct trace_entry), checked against the stage 1 struct, and the
 * text handed to the simulator is tracefs's format file
 * (kernel/trace/trace_events.c's f_show()). Allnoconfig builds no event
 * tracing: nothing else of the stages is used. The power and cgroup
 * events' records are packed by the simulator from their text lines
 * (sim/tracedat.c).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/trace_events.h>
#include <linux/stringify.h>

#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>

#include "linsched.h"

#include "trace_format.h"

/* stage 1: the records */
#include <trace/stages/stage1_struct_define.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	struct linsched_raw_##name {					\
		struct trace_entry ent;					\
		tstruct							\
		char __data[];						\
	};
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
#define TRACE_HEADER_MULTI_READ
#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>

/* stage 4: the field descriptors */
#include <trace/stages/stage4_event_fields.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static const struct trace_event_fields linsched_fields_##name[] = { \
		tstruct {}						\
	};
#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>

/*
 * Stages 2, 5 and 6 for sched.h: each class's TP_fast_assign fills its
 * record, as the kernel's trace_event_raw_event_<class>() does, into a
 * buffer of ours instead of the ring buffer (lh_trace_record()). The
 * probe's data is the event's name. CREATE_TRACE_POINTS for this pass
 * only: sched.h defines __trace_sched_switch_state() under it; its
 * define_trace.h then reads an empty file, so no tracepoint is defined
 * again here.
 */
#include <trace/stages/stage2_data_offsets.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	struct linsched_offsets_##call {				\
		tstruct;						\
	};
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
#include <trace/events/sched.h>

/* stage 3's macros, which stage 6 may use (6.1's __get_str) */
#include <trace/stages/stage3_trace_output.h>
#include <trace/stages/stage5_get_offsets.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
static inline notrace int linsched_get_offsets_##call(			\
	struct linsched_offsets_##call *__data_offsets, proto)		\
{									\
	int __data_size = 0;						\
	int __maybe_unused __item_length;				\
	struct linsched_raw_##call __maybe_unused *entry;		\
									\
	tstruct;							\
									\
	return __data_size;						\
}
#include <trace/events/sched.h>

static u64 linsched_record_buf[128];

#include <trace/stages/stage6_event_callback.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
static notrace __maybe_unused void					\
linsched_record_##call(void *__data, proto)				\
{									\
	struct linsched_offsets_##call __maybe_unused __data_offsets;	\
	struct linsched_raw_##call *entry;				\
	int __data_size;						\
									\
	__data_size = linsched_get_offsets_##call(&__data_offsets, args); \
	if (sizeof(*entry) + __data_size > sizeof(linsched_record_buf)) \
		return;							\
	entry = (void *)linsched_record_buf;				\
	memset(entry, 0, sizeof(*entry) + __data_size);			\
									\
	tstruct								\
									\
	{ assign; }							\
									\
	lh_trace_record(smp_processor_id(), current->comm, current->pid, \
			__data, entry, sizeof(*entry) + __data_size);	\
}
#define TRACE_INCLUDE_PATH asm
#define TRACE_INCLUDE_FILE linsched_trace_none
#define CREATE_TRACE_POINTS
#include <trace/events/sched.h>
#undef CREATE_TRACE_POINTS
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#include "trace_format.h"
#define TRACE_HEADER_MULTI_READ

/* stage 7: the print fmts */
#include <trace/stages/stage7_class_define.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static const char linsched_print_##name[] = print;
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)
#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>

#undef TRACE_HEADER_MULTI_READ

/*
 * The sched events whose records their own TP_fast_assign fills: what
 * trace.c attaches to their tracepoints in a trace.dat (@data: the name).
 */
#ifdef LINSCHED_STAT_RUNTIME_VRUNTIME
#define LINSCHED_STAT_RUNTIME_ARGS , u64 vruntime
#define LINSCHED_STAT_RUNTIME_PASS , vruntime
#else
#define LINSCHED_STAT_RUNTIME_ARGS
#define LINSCHED_STAT_RUNTIME_PASS
#endif

void linsched_record_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
	linsched_record_sched_switch(data, preempt, prev, next, prev_state);
}

void linsched_record_wakeup(void *data, struct task_struct *p)
{
	linsched_record_sched_wakeup_template(data, p);
}

void linsched_record_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	linsched_record_sched_migrate_task(data, p, dest_cpu);
}

void linsched_record_pi_setprio(void *data, struct task_struct *p,
				struct task_struct *pi_task)
{
	linsched_record_sched_pi_setprio(data, p, pi_task);
}

void linsched_record_stat_runtime(void *data, struct task_struct *p,
				  u64 runtime LINSCHED_STAT_RUNTIME_ARGS)
{
	linsched_record_sched_stat_runtime(data, p, runtime
					   LINSCHED_STAT_RUNTIME_PASS);
}

void linsched_record_fork(struct task_struct *parent, struct task_struct *child)
{
	linsched_record_sched_process_fork("sched_process_fork", parent, child);
}

void linsched_record_exit(struct task_struct *p)
{
#ifdef LINSCHED_EXIT_GROUP_DEAD
	linsched_record_sched_process_exit("sched_process_exit", p, true);
#else
	linsched_record_sched_process_template("sched_process_exit", p);
#endif
}

static char linsched_format_text[8192];

/* One field's line of the format file, as f_show() prints it. */
static int linsched_format_field(char *buf, int len, const char *type,
				 const char *name, unsigned int offset,
				 unsigned int size, int is_signed)
{
	const char *array = strchr(type, '[');

	if (!strncmp(type, "__data_loc", 10))
		array = NULL;
	if (!array)
		return scnprintf(buf, len,
				 "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
				 type, name, offset, size, !!is_signed);
	return scnprintf(buf, len,
			 "\tfield:%.*s %s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			 (int)(array - type), type, name, array, offset, size,
			 !!is_signed);
}

static void linsched_format_one(const char *system, const char *name,
				const char *print,
				const struct trace_event_fields *fields,
				size_t data_offset)
{
	const struct trace_event_fields *f;
	unsigned int offset = sizeof(struct trace_entry);
	char *buf = linsched_format_text;
	int len = sizeof(linsched_format_text), n;

	n = scnprintf(buf, len, "format:\n");
	n += linsched_format_field(buf + n, len - n, "unsigned short",
				   "common_type", 0, 2, 0);
	n += linsched_format_field(buf + n, len - n, "unsigned char",
				   "common_flags", 2, 1, 0);
	n += linsched_format_field(buf + n, len - n, "unsigned char",
				   "common_preempt_count", 3, 1, 0);
	n += linsched_format_field(buf + n, len - n, "int", "common_pid", 4,
				   4, 1);
	n += scnprintf(buf + n, len - n, "\n");
	for (f = fields; f->type; f++) {
		offset = ALIGN(offset, f->align);
		n += linsched_format_field(buf + n, len - n, f->type, f->name,
					   offset, f->size, f->is_signed);
		offset += f->size;
	}
	/* the layout is the record struct's */
	WARN_ON_ONCE(offset != data_offset);
	scnprintf(buf + n, len - n, "\nprint fmt: %s\n", print);
	lh_trace_format(system, name, buf);
}

/*
 * Every sched, power and cgroup event's format, before the first event: each
 * event of the headers becomes a call (its ';' ends the statement).
 */
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)			\
	linsched_format_one(__stringify(TRACE_SYSTEM), #name,		\
			    linsched_print_##template,			\
			    linsched_fields_##template,			\
			    offsetof(struct linsched_raw_##template, __data))
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	linsched_format_one(__stringify(TRACE_SYSTEM), #name, print,	\
			    linsched_fields_##template,			\
			    offsetof(struct linsched_raw_##template, __data))
#define TRACE_HEADER_MULTI_READ
void linsched_trace_formats(void)
{
#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>
}
#undef TRACE_HEADER_MULTI_READ
