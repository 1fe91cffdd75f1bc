// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched, power and cgroup events' formats for trace.dat, as the
 * revision's own TRACE_EVENT()s define them: <trace/events/sched.h>,
 * <trace/events/power.h> and <trace/events/cgroup.h> are read again
 * (TRACE_HEADER_MULTI_READ) with the tree's include/trace/stages/ macros,
 * the way include/trace/trace_events.h does it: stage 1 makes each class's
 * record struct, stage 4 its field descriptors, stage 7 its print fmt (the
 * stringified TP_printk). The fields' offsets are laid out as the kernel's
 * event_define_fields() does (each aligned, after struct trace_entry),
 * checked against the stage 1 struct, and the text is tracefs's format
 * file (kernel/trace/trace_events.c's f_show()). Allnoconfig builds no
 * event tracing, so nothing else of the stages is used: the records are
 * packed by the simulator from the text fields (sim/tracedat.c).
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

/* every form of event a header may use: classes and events, or nothing */
#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)) \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign, print, \
			    reg, unreg)					\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(name, value)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(name, expr...)
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)
/* bare tracepoints have no format */
#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args...)
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(name, proto, args, cond)
#undef DECLARE_TRACE_WRITABLE
#define DECLARE_TRACE_WRITABLE(name, proto, args, size)
#undef DECLARE_TRACE_EVENT
#define DECLARE_TRACE_EVENT(name, proto, args...)
#undef DECLARE_EVENT_CLASS_NOP
#define DECLARE_EVENT_CLASS_NOP(name, proto, args, tstruct, assign, print)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(template, name, proto, args)
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(name, proto, args, struct, assign, print)

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

/* stage 7: the print fmts */
#include <trace/stages/stage7_class_define.h>
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)	\
	static const char linsched_print_##name[] = print;
#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>

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
void linsched_trace_formats(void)
{
#include <trace/events/sched.h>
#include <trace/events/power.h>
#include <trace/events/cgroup.h>
}
#undef TRACE_HEADER_MULTI_READ
