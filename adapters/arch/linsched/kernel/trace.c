// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own tracepoints feed the simulator: probes are attached to
 * sched_switch, sched_wakeup(_new), sched_migrate_task, cpu_idle and (in a
 * trace) sched_waking, cpu_frequency, sched_pi_setprio, sched_stat_runtime
 * and the bare sched_overutilized_tp without
 * kernel/tracepoint.c (static keys are plain counters here). They always
 * pass the event to the simulator's metrics (lh_sched_event, plain
 * integers), and when a trace is written also print the fields ftrace
 * prints.
 */
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/trace_events.h>
#include <linux/jump_label.h>

#include <trace/events/sched.h>

/* kernel/trace/power-traces.c defines these; the idle loop fires cpu_idle */
#define CREATE_TRACE_POINTS
#include <trace/events/power.h>
#undef CREATE_TRACE_POINTS

#include "linsched.h"

#ifdef LINSCHED_TRACEPOINT_SRCU_FAST
/* 7.x's tracepoints are read under SRCU; kernel/tracepoint.c's own */
DEFINE_SRCU_FAST(tracepoint_srcu);
#endif

static const char *linsched_state_char(unsigned int state, bool preempt)
{
	if (preempt)
		return "R+";
	if (state & TASK_REPORT_MAX)
		return "I";
	switch (state & (TASK_REPORT | TASK_PARKED | TASK_DEAD)) {
	case 0: return "R";
	case TASK_INTERRUPTIBLE: return "S";
	case TASK_UNINTERRUPTIBLE: return "D";
	case TASK_DEAD: return "X";
	default: return "S";
	}
}

static void linsched_emit(struct task_struct *cur, const char *event,
			  const char *fmt, ...)
{
	char fields[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fields, sizeof(fields), fmt, ap);
	va_end(ap);
	lh_trace(smp_processor_id(), cur->comm, cur->pid, event, fields);
}

/*
 * The frequent events' fields are built by hand: vsnprintf() was most of
 * what a trace line cost. @v in decimal at @p, at least @width digits
 * (zeros before it); the end.
 */
char *linsched_put_dec(char *p, unsigned long v, int width)
{
	char digits[24];
	int n = 0;

	if (v < 10 && width <= 1) {	/* a CPU, a state: most numbers */
		*p++ = '0' + v;
		return p;
	}
	do
		digits[n++] = '0' + v % 10;
	while ((v /= 10));
	while (width-- > n)
		*p++ = '0';
	while (n)
		*p++ = digits[--n];
	return p;
}

/* "@key@s" at @p; the end */
static char *put_str(char *p, const char *key, const char *s)
{
	while (*key)
		*p++ = *key++;
	while (*s)
		*p++ = *s++;
	return p;
}

/* "@key@v" at @p, @v signed, at least @width digits; the end */
static char *put_int(char *p, const char *key, long v, int width)
{
	while (*key)
		*p++ = *key++;
	if (v < 0)
		*p++ = '-';
	return linsched_put_dec(p, v < 0 ? -(unsigned long)v : (unsigned long)v,
				width);
}

/* "comm=%s pid=%d prio=%d" of @p, the start of most sched events */
static char *put_task(char *p, struct task_struct *t)
{
	p = put_str(p, "comm=", t->comm);
	p = put_int(p, " pid=", t->pid, 0);
	return put_int(p, " prio=", t->prio, 0);
}

/* sched_waking, sched_wakeup, sched_wakeup_new of @p */
static void emit_wakeup(const char *event, struct task_struct *p)
{
	char fields[96];

	*put_int(put_task(fields, p), " target_cpu=", task_cpu(p), 3) = '\0';
	lh_trace(smp_processor_id(), current->comm, current->pid, event,
		 fields);
}

static bool tracing;
/* a trace.dat: the sched events' records are their TP_fast_assign's */
static bool records;

void linsched_trace(const char *event, const char *fmt, ...)
{
	char fields[256];
	va_list ap;

	if (!tracing)
		return;
	va_start(ap, fmt);
	vsnprintf(fields, sizeof(fields), fmt, ap);
	va_end(ap);
	lh_trace(smp_processor_id(), current->comm, current->pid, event,
		 fields);
}

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	/* still runnable: preempted or not blocked, nor held by bandwidth */
	bool queued = preempt || prev_state == TASK_RUNNING;
	bool held = queued && linsched_task_throttled(prev);
	bool runnable = queued && !held;
	char fields[160], *q;

	lh_sched_event(LINSCHED_EV_SWITCH, smp_processor_id(), next->pid,
		       next->prio, prev->pid, held ? 2 : runnable);
	if (!tracing)
		return;
	/*
	 * ours, for linsched score: the prev_state below reads R, but prev
	 * does not stay runnable (its group's bandwidth holds it)
	 */
	if (!runnable && *linsched_state_char(prev_state, preempt) == 'R')
		linsched_emit(prev, "lsb_prev_blocked", "prev_pid=%d throttled=%d",
			      prev->pid, linsched_task_throttled(prev) ? 1 : 0);
	if (records)
		return;
	q = put_str(fields, "prev_comm=", prev->comm);
	q = put_int(q, " prev_pid=", prev->pid, 0);
	q = put_int(q, " prev_prio=", prev->prio, 0);
	q = put_str(q, " prev_state=",
		    linsched_state_char(prev_state, preempt));
	q = put_str(q, " ==> next_comm=", next->comm);
	q = put_int(q, " next_pid=", next->pid, 0);
	*put_int(q, " next_prio=", next->prio, 0) = '\0';
	lh_trace(smp_processor_id(), prev->comm, prev->pid, "sched_switch",
		 fields);
}

static bool events;	/* the probes are attached */

/*
 * @p, queued on @cpu, is held by its group's bandwidth (@held) or queued
 * there again: told from the revision's throttle_cfs_rq() and
 * unthrottle_cfs_rq() (cgroup.c), which no tracepoint shows.
 */
void linsched_sched_held(struct task_struct *p, int cpu, bool held)
{
	if (!events)
		return;
	lh_sched_event(held ? LINSCHED_EV_THROTTLE : LINSCHED_EV_UNTHROTTLE,
		       cpu, p->pid, p->prio, cpu, 0);
	if (tracing)
		linsched_emit(current, held ? "lsb_throttle" : "lsb_unthrottle",
			      "pid=%d cpu=%d", p->pid, cpu);
}

/* try_to_wake_up()'s first word, before the wakee is placed */
static void probe_waking(void *data, struct task_struct *p)
{
	if (!records)
		emit_wakeup("sched_waking", p);
}

static void probe_wakeup(void *data, struct task_struct *p)
{
	lh_sched_event(LINSCHED_EV_WAKEUP, smp_processor_id(), p->pid,
		       p->prio, task_cpu(p), 0);
	if (tracing && !records)
		emit_wakeup("sched_wakeup", p);
	/* woken onto a runqueue its group's bandwidth holds back */
	if (linsched_task_throttled(p))
		linsched_sched_held(p, task_cpu(p), true);
}

static void probe_wakeup_new(void *data, struct task_struct *p)
{
	lh_sched_event(LINSCHED_EV_WAKEUP_NEW, smp_processor_id(), p->pid,
		       p->prio, task_cpu(p), 0);
	if (tracing && !records)
		emit_wakeup("sched_wakeup_new", p);
	if (linsched_task_throttled(p))
		linsched_sched_held(p, task_cpu(p), true);
}

static void probe_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	char fields[112], *q;

	/* cpu: the CPU it leaves (set_task_cpu has not moved it yet) */
	lh_sched_event(LINSCHED_EV_MIGRATE, task_cpu(p), p->pid, p->prio,
		       dest_cpu, 0);
	if (!tracing || records)
		return;
	q = put_int(put_task(fields, p), " orig_cpu=", task_cpu(p), 0);
	*put_int(q, " dest_cpu=", dest_cpu, 0) = '\0';
	lh_trace(smp_processor_id(), current->comm, current->pid,
		 "sched_migrate_task", fields);
}

/* rt_mutex_setprio(), the kernel's priority inheritance (lk_task_pi) */
static void probe_pi_setprio(void *data, struct task_struct *p,
			     struct task_struct *pi_task)
{
	if (records)
		return;
	linsched_emit(current, "sched_pi_setprio",
		      "comm=%s pid=%d oldprio=%d newprio=%d",
		      p->comm, p->pid, p->prio,
		      pi_task ? min(p->normal_prio, pi_task->prio) :
		      p->normal_prio);
}

#ifdef LINSCHED_STAT_RUNTIME_VRUNTIME
static void probe_stat_runtime(void *data, struct task_struct *p, u64 runtime,
			       u64 vruntime)
{
	if (!records)
		linsched_emit(current, "sched_stat_runtime",
			      "comm=%s pid=%d runtime=%llu [ns] vruntime=%llu [ns]",
			      p->comm, p->pid, (unsigned long long)runtime,
			      (unsigned long long)vruntime);
}
#else
static void probe_stat_runtime(void *data, struct task_struct *p, u64 runtime)
{
	if (!records)
		linsched_emit(current, "sched_stat_runtime",
			      "comm=%s pid=%d runtime=%llu [ns]", p->comm,
			      p->pid, (unsigned long long)runtime);
}
#endif

/*
 * A bare tracepoint (no format, no line in tracefs): a line of ours, its
 * root domain's span as a CPU list.
 */
static void probe_overutilized(void *data, struct root_domain *rd,
			       bool overutilized)
{
	char list[128];

	linsched_rd_span(rd, list, sizeof(list));
	linsched_emit(current, "sched_overutilized", "overutilized=%d span=%s",
		      overutilized ? 1 : 0, list);
}

/* The child of linsched_fork(), as kernel/fork.c's kernel_clone() says it. */
void linsched_trace_fork(struct task_struct *parent, struct task_struct *child)
{
	if (records)
		linsched_record_fork(parent, child);
	else if (tracing)
		linsched_emit(current, "sched_process_fork",
			      "comm=%s pid=%d child_comm=%s child_pid=%d",
			      parent->comm, parent->pid, child->comm,
			      child->pid);
}

/* A task's end, as kernel/exit.c's do_exit() says it: each its own group. */
void linsched_trace_exit(struct task_struct *p)
{
	if (records)
		linsched_record_exit(p);
	if (!tracing || records)
		return;
#ifdef LINSCHED_EXIT_GROUP_DEAD
	linsched_emit(current, "sched_process_exit",
		      "comm=%s pid=%d prio=%d group_dead=true", p->comm,
		      p->pid, p->prio);
#else
	linsched_emit(current, "sched_process_exit", "comm=%s pid=%d prio=%d",
		      p->comm, p->pid, p->prio);
#endif
}

/* Idle accounting needs this event whether or not a trace is written. */
/* the idle state in the trace is the one the simulator chose */
static void probe_cpu_idle(void *data, unsigned int state, unsigned int cpu)
{
	int chosen = lh_cpu_idle(cpu, state == PWR_EVENT_EXIT ? -1 : (int)state);
	char fields[48];

	if (!tracing)
		return;
	*put_int(put_int(fields, "state=", chosen < 0 ? PWR_EVENT_EXIT :
			 (unsigned int)chosen, 0), " cpu_id=", cpu, 0) = '\0';
	lh_trace(smp_processor_id(), current->comm, current->pid, "cpu_idle",
		 fields);
}

static void probe_cpu_frequency(void *data, unsigned int khz, unsigned int cpu)
{
	if (tracing)
		linsched_emit(current, "cpu_frequency", "state=%u cpu_id=%u",
			      khz, cpu);
}

/*
 * @fn, and in a trace.dat @rec (the tree's TP_fast_assign filling the
 * event's record, given the event's name) on tracepoint @tp: before @fn,
 * whose lines of ours follow the event in the text, or after it with
 * @after (sched_switch's lsb_prev_blocked comes before it).
 */
#define LINSCHED_PROBE_AT(tp, fn, rec, after)				\
	do {								\
		static struct tracepoint_func funcs[3];			\
		void *rec_ = (void *)(rec);				\
		int n = 0;						\
		if (records && rec_ && !(after)) {			\
			funcs[n].func = rec_;				\
			funcs[n].data = (void *)#tp;			\
			funcs[n++].prio = TRACEPOINT_DEFAULT_PRIO;	\
		}							\
		funcs[n].func = (void *)(fn);				\
		funcs[n++].prio = TRACEPOINT_DEFAULT_PRIO;		\
		if (records && rec_ && (after)) {			\
			funcs[n].func = rec_;				\
			funcs[n].data = (void *)#tp;			\
			funcs[n++].prio = TRACEPOINT_DEFAULT_PRIO;	\
		}							\
		rcu_assign_pointer(__tracepoint_##tp.funcs, funcs);	\
		LINSCHED_TRACEPOINT_KEY_INC(&__tracepoint_##tp.key);	\
	} while (0)
#define LINSCHED_PROBE_REC(tp, fn, rec) LINSCHED_PROBE_AT(tp, fn, rec, 0)

void linsched_trace_init(void)
{
	LINSCHED_PROBE(cpu_idle, probe_cpu_idle);
	tracing = lh_tracing();
	records = tracing && lh_trace_binary();
	if (tracing) {
		linsched_trace_formats();
		LINSCHED_PROBE(cpu_frequency, probe_cpu_frequency);
		LINSCHED_PROBE_REC(sched_pi_setprio, probe_pi_setprio,
				   linsched_record_pi_setprio);
		LINSCHED_PROBE_REC(sched_waking, probe_waking,
				   linsched_record_wakeup);
		if (lh_trace_event("sched_stat_runtime"))
			LINSCHED_PROBE_REC(sched_stat_runtime,
					   probe_stat_runtime,
					   linsched_record_stat_runtime);
		LINSCHED_PROBE(sched_overutilized_tp, probe_overutilized);
	}
	if (!tracing && !lh_sched_events())
		return;
	events = true;
	LINSCHED_PROBE_AT(sched_switch, probe_switch, linsched_record_switch, 1);
	LINSCHED_PROBE_REC(sched_wakeup, probe_wakeup, linsched_record_wakeup);
	LINSCHED_PROBE_REC(sched_wakeup_new, probe_wakeup_new,
			   linsched_record_wakeup);
	LINSCHED_PROBE_REC(sched_migrate_task, probe_migrate,
			   linsched_record_migrate);
}
