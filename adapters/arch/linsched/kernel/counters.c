// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counters in the trace, as Perfetto reads them: `tracing_mark_write:
 * C|TGID|NAME|VALUE` lines (the systrace importer's counter), each a
 * counter track named NAME under process TGID. Written only when a trace
 * is, from the kernel's bare tracepoints (no TRACE_EVENT, no ftrace
 * format: made for modules like this one) where the revision has them:
 *
 *   nr_running cpuN		sched_update_nr_running_tp: rq->nr_running
 *   util_avg cpuN, load_avg cpuN	pelt_cfs_tp on a CPU's root cfs_rq
 *   util_avg T-PID, load_avg T-PID	pelt_se_tp on a task's entity
 *   throttled PATH cpuN	the group's cfs_rq throttled there (1) or not
 *				(0), after the bandwidth walks cgroup.c sees
 *
 * The CPUs' and groups' counters are under TGID 0, a task's under its
 * own pid. PELT values are updated at every tick, enqueue and dequeue
 * that crosses one of PELT's 1024 us periods: one is written only when it
 * moved by 1/16 of the last one written or more (or to or from 0): the
 * shape a track draws, in half the lines of a change of 1/64 (bench's
 * 16-CPU run: 0.23 against 0.48 million PELT lines in 8 s simulated).
 */
#include <linux/sched.h>
#include <linux/mmu_context.h>
#include <linux/sched/cputime.h>
#include <linux/tracepoint.h>

#include <trace/events/sched.h>

#include "../../../kernel/sched/sched.h"
#include "linsched.h"

static bool counting;

/* the last value written per counter, plus one (0: none yet) */
static unsigned long cpu_last[3][NR_CPUS];
#define TASK_LAST_MAX 8192	/* pids beyond are written at every change */
static unsigned long task_last[2][TASK_LAST_MAX];

enum { C_NR_RUNNING, C_UTIL, C_LOAD };

/* "C|TGID|NAMEID|VALUE", by hand: snprintf() was most of its cost */
static void counter_emit(int tgid, const char *name, int id,
			 unsigned long value)
{
	char fields[LINSCHED_CGROUP_PATH_MAX + 96], *p = fields;
	size_t n = strnlen(name, LINSCHED_CGROUP_PATH_MAX + 32);

	*p++ = 'C';
	*p++ = '|';
	p = linsched_put_dec(p, tgid, 0);
	*p++ = '|';
	memcpy(p, name, n);
	p = linsched_put_dec(p + n, id, 0);
	*p++ = '|';
	p = linsched_put_dec(p, value, 0);
	*p = '\0';
	lh_trace(smp_processor_id(), current->comm, current->pid,
		 "tracing_mark_write", fields);
}

/* Has @value moved enough from the one written (@last, plus one)? */
static bool counter_moved(unsigned long *last, unsigned long value,
			  bool exact)
{
	unsigned long prev = *last - 1, step;

	if (*last && value == prev)
		return false;
	if (*last && !exact && value && prev) {
		step = max(prev / 16, 1UL);
		if (value < prev + step && value + step > prev)
			return false;
	}
	*last = value + 1;
	return true;
}

#ifdef LINSCHED_HAVE_TP_NR_RUNNING
static void probe_nr_running(void *data, struct rq *rq, int change)
{
	int cpu = cpu_of(rq);

	if (counter_moved(&cpu_last[C_NR_RUNNING][cpu], rq->nr_running, true))
		counter_emit(0, "nr_running cpu", cpu, rq->nr_running);
}
#endif

#ifdef LINSCHED_HAVE_TP_PELT_CFS
static void probe_pelt_cfs(void *data, struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	int cpu = cpu_of(rq);

	if (cfs_rq != &rq->cfs)		/* a group's: not the CPU's */
		return;
	if (counter_moved(&cpu_last[C_UTIL][cpu], cfs_rq->avg.util_avg, false))
		counter_emit(0, "util_avg cpu", cpu, cfs_rq->avg.util_avg);
	if (counter_moved(&cpu_last[C_LOAD][cpu], cfs_rq->avg.load_avg, false))
		counter_emit(0, "load_avg cpu", cpu, cfs_rq->avg.load_avg);
}
#endif

#ifdef LINSCHED_HAVE_TP_PELT_SE
/* @p's last value written of counter @which, or @scratch beyond the table */
static unsigned long *task_slot(int which, pid_t pid, unsigned long *scratch)
{
	*scratch = 0;
	return pid >= 0 && pid < TASK_LAST_MAX ? &task_last[which][pid] :
						 scratch;
}

static void probe_pelt_se(void *data, struct sched_entity *se)
{
	struct task_struct *p;
	unsigned long scratch;

	if (!entity_is_task(se))	/* a group's entity */
		return;
	p = task_of(se);
	if (counter_moved(task_slot(0, p->pid, &scratch), se->avg.util_avg,
			  false))
		counter_emit(p->pid, "util_avg T-", p->pid, se->avg.util_avg);
	if (counter_moved(task_slot(1, p->pid, &scratch), se->avg.load_avg,
			  false))
		counter_emit(p->pid, "load_avg T-", p->pid, se->avg.load_avg);
}
#endif

void linsched_counter_throttled(const char *group, int cpu, bool throttled)
{
	char name[LINSCHED_CGROUP_PATH_MAX + 32];

	if (!counting)
		return;
	snprintf(name, sizeof(name), "throttled %s cpu", group);
	counter_emit(0, name, cpu, throttled);
}

void linsched_counters_init(void)
{
	counting = lh_tracing();
	if (!counting)
		return;
	/* the frequent ones only when asked for (--trace-events) */
#ifdef LINSCHED_HAVE_TP_NR_RUNNING
	if (lh_trace_event("nr_running"))
		LINSCHED_PROBE(sched_update_nr_running_tp, probe_nr_running);
#endif
#ifdef LINSCHED_HAVE_TP_PELT_CFS
	if (lh_trace_event("pelt"))
		LINSCHED_PROBE(pelt_cfs_tp, probe_pelt_cfs);
#endif
#ifdef LINSCHED_HAVE_TP_PELT_SE
	if (lh_trace_event("pelt"))
		LINSCHED_PROBE(pelt_se_tp, probe_pelt_se);
#endif
}
