// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event loop and the host side of the door.
 *
 * Events are ordered by (time, cpu, sequence number), so a run depends on
 * nothing but its inputs and seed. Kernel code runs in zero simulated
 * time; simulated time passes only between events.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <asm/door.h>

#include "sim/sim.h"
#include "sim/sim_internal.h"

_Static_assert((int)LINSCHED_EV_SWITCH == (int)METRICS_EV_SWITCH &&
	       (int)LINSCHED_EV_WAKEUP == (int)METRICS_EV_WAKEUP &&
	       (int)LINSCHED_EV_WAKEUP_NEW == (int)METRICS_EV_WAKEUP_NEW &&
	       (int)LINSCHED_EV_MIGRATE == (int)METRICS_EV_MIGRATE &&
	       (int)LINSCHED_EV_THROTTLE == (int)METRICS_EV_THROTTLE &&
	       (int)LINSCHED_EV_UNTHROTTLE == (int)METRICS_EV_UNTHROTTLE,
	       "door events and metrics events differ");
_Static_assert((int)LINSCHED_GOV_SCHEDUTIL == (int)SIM_GOV_SCHEDUTIL &&
	       (int)LINSCHED_GOV_PERFORMANCE == (int)SIM_GOV_PERFORMANCE &&
	       (int)LINSCHED_GOV_POWERSAVE == (int)SIM_GOV_POWERSAVE,
	       "door governors and sim governors differ");

#define TICK_NS		1000000ULL	/* HZ=1000 */
#define STACK_SIZE	(128 * 1024)
#define GUARD_SIZE	4096
#define LOG_RING	64
#define HANG_EVENTS	5000000ULL	/* events at one instant before a hang */

struct sim sim;

/*
 * ---- the event queue ----
 * Events are ordered by (time, cpu, sequence), and the queue is cut by
 * CPU along that order:
 *
 * - each CPU has a small 4-ary heap of its hrtimers, IPIs and run
 *   segments, ordered by (time, sequence): a few entries, a level or two;
 *   its tick is kept beside it, fired and armed again without heap work;
 * - a winner tree over the CPUs' earliest events names the next one in
 *   log2(CPUs) comparisons of times (a tie goes to the lower CPU), and is
 *   replayed only when a CPU's earliest time changes.
 *
 * A CPU's own events are then at hand: the idle governor's next timer and
 * a dying CPU's events are a walk over a few entries, not the whole queue.
 */

#define HEAP_ARITY 4

static inline int ev_before(const struct sim_event *a,
			    const struct sim_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline int ent_before(const struct sim_heap_ent *a,
			     const struct sim_heap_ent *b)
{
	return a->time < b->time ||
	       (a->time == b->time && a->ev->seq < b->ev->seq);
}

static inline void heap_set(struct sim_queue *q, size_t i,
			    struct sim_heap_ent e)
{
	q->ent[i] = e;
	e.ev->heap_idx = (long)i;
}

static inline void heap_up(struct sim_queue *q, size_t i,
			   struct sim_heap_ent e)
{
	while (i) {
		size_t parent = (i - 1) / HEAP_ARITY;

		if (!ent_before(&e, &q->ent[parent]))
			break;
		heap_set(q, i, q->ent[parent]);
		i = parent;
	}
	heap_set(q, i, e);
}

static void heap_down(struct sim_queue *q, size_t i, struct sim_heap_ent e)
{
	size_t c, k, m, last;

	while ((c = i * HEAP_ARITY + 1) < q->n) {
		last = c + HEAP_ARITY < q->n ? c + HEAP_ARITY : q->n;
		for (m = c, k = c + 1; k < last; k++)
			if (ent_before(&q->ent[k], &q->ent[m]))
				m = k;
		if (!ent_before(&q->ent[m], &e))
			break;
		heap_set(q, i, q->ent[m]);
		i = m;
	}
	heap_set(q, i, e);
}

static void heap_remove(struct sim_queue *q, size_t i)
{
	struct sim_heap_ent last;

	q->ent[i].ev->heap_idx = -1;
	last = q->ent[--q->n];
	if (i == q->n)
		return;
	if (i && ent_before(&last, &q->ent[(i - 1) / HEAP_ARITY]))
		heap_up(q, i, last);
	else
		heap_down(q, i, last);
}

/* The root out: what fills it comes from the end, so it only goes down. */
static inline void heap_pop(struct sim_queue *q)
{
	q->ent[0].ev->heap_idx = -1;
	if (--q->n)
		heap_down(q, 0, q->ent[q->n]);
}

/* @c's earliest event, NULL if none */
static inline struct sim_event *cpu_first(struct sim_cpu *c)
{
	struct sim_event *h = c->q.n ? c->q.ent[0].ev : NULL;

	if (c->tick.heap_idx >= 0 && (!h || ev_before(&c->tick, h)))
		return &c->tick;
	return h;
}

/*
 * @cpu's earliest event is now @ev, at @t: replay its matches up the tree.
 * Between CPUs a tie goes to the lower one, which the left subtree holds.
 * No stop where a node keeps its winner: the check costs more than the
 * levels it saves (a pop's CPU was the winner all the way up).
 */
static void tree_update(int cpu, struct sim_event *ev, uint64_t t)
{
	size_t i = sim.tree_leaves + (size_t)cpu;

	sim.tree_time[i] = t;
	sim.tree_ev[i] = ev;
	for (; i > 1; i /= 2) {
		uint64_t st = sim.tree_time[i ^ 1];

		if (st < t || (st == t && (i & 1))) {
			t = st;
			ev = sim.tree_ev[i ^ 1];
		}
		sim.tree_time[i / 2] = t;
		sim.tree_ev[i / 2] = ev;
	}
}

/* @cpu's earliest event may have changed: its leaf again, if it did. */
static inline void tree_refresh(int cpu)
{
	struct sim_event *ev = cpu_first(&sim.cpu[cpu]);
	uint64_t t = ev ? ev->time : UINT64_MAX;
	size_t i = sim.tree_leaves + (size_t)cpu;

	if (t != sim.tree_time[i] || ev != sim.tree_ev[i])
		tree_update(cpu, ev, t);
}

static void queue_init(void)
{
	size_t i, n;

	for (sim.tree_leaves = 1; sim.tree_leaves < (size_t)sim.nr_cpus;)
		sim.tree_leaves *= 2;
	n = 2 * sim.tree_leaves;
	sim.tree_time = malloc(n * sizeof(*sim.tree_time));
	sim.tree_ev = calloc(n, sizeof(*sim.tree_ev));
	if (!sim.tree_time || !sim.tree_ev)
		sim_die("out of memory for events");
	for (i = 0; i < n; i++)
		sim.tree_time[i] = UINT64_MAX;
	sim.tree_dirty = -1;
}

static __attribute__((noinline, cold)) void queue_grow(struct sim_queue *q)
{
	q->cap = q->cap ? 2 * q->cap : 16;
	q->ent = realloc(q->ent, q->cap * sizeof(*q->ent));
	if (!q->ent)
		sim_die("out of memory for events");
}

void sim_event_push(struct sim_event *ev, uint64_t time, int cpu)
{
	struct sim_queue *q = &sim.cpu[cpu].q;
	struct sim_heap_ent e;

	if (ev->heap_idx >= 0)
		sim_event_cancel(ev);
	ev->time = time < sim.now ? sim.now : time;
	ev->cpu = cpu;
	ev->seq = sim.seq++;
	if (ev->type == SIM_EV_TICK) {
		/* a CPU's own tick, always pushed for that CPU */
		ev->heap_idx = 0;
	} else {
		if (q->n == q->cap)
			queue_grow(q);
		e.time = ev->time;
		e.ev = ev;
		heap_up(q, q->n++, e);
	}
	/*
	 * The dirty CPU's leaf is made again at the next pop; another's
	 * changes if this event is earlier (at its time, it comes after).
	 */
	if (cpu != sim.tree_dirty &&
	    ev->time < sim.tree_time[sim.tree_leaves + (size_t)cpu])
		tree_update(cpu, ev, ev->time);
}

void sim_event_remove(struct sim_event *ev)
{
	if (ev->type == SIM_EV_TICK)
		ev->heap_idx = -1;
	else
		heap_remove(&sim.cpu[ev->cpu].q, (size_t)ev->heap_idx);
	if (ev->cpu != sim.tree_dirty)
		tree_refresh(ev->cpu);
}

/*
 * Take the earliest event off the queue, NULL if none is due by @end. Its
 * CPU's leaf is left stale: what the event's delivery queues for that CPU
 * (the tick again, a run segment) then costs one replay, at the next pop.
 */
static struct sim_event *event_pop(uint64_t end)
{
	struct sim_event *ev;
	int cpu = sim.tree_dirty;

	if (cpu >= 0) {
		sim.tree_dirty = -1;
		tree_refresh(cpu);
	}
	ev = sim.tree_ev[1];
	/* none left, or only some at the end of time (UINT64_MAX) */
	if (sim.tree_time[1] > end || !ev)
		return NULL;
	cpu = ev->cpu;
	if (ev->type == SIM_EV_TICK)
		ev->heap_idx = -1;
	else
		heap_pop(&sim.cpu[cpu].q);
	sim.tree_dirty = cpu;
	return ev;
}

static struct sim_event *event_alloc(int type)
{
	struct sim_event *ev = sim.free_events;

	if (ev)
		sim.free_events = ev->next;
	else if (!(ev = calloc(1, sizeof(*ev))))
		sim_die("out of memory for events");
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->heap_idx = -1;
	return ev;
}

static void event_free(struct sim_event *ev)
{
	ev->next = sim.free_events;
	sim.free_events = ev;
}

/* ---- timers: at most one event per key ---- */

#define TIMER_BUCKETS 4096

static size_t timer_hash(const void *key)
{
	uintptr_t k = (uintptr_t)key;

	return (size_t)((k >> 4) ^ (k >> 16)) & (TIMER_BUCKETS - 1);
}

static struct sim_event **timer_find(const void *key)
{
	struct sim_event **pp = &sim.timers[timer_hash(key)];

	while (*pp && (*pp)->arg != key)
		pp = &(*pp)->next;
	return pp;
}

void lh_timer_arm(void *key, int cpu, unsigned long long expires)
{
	struct sim_event **pp = timer_find(key), *ev = *pp;

	if (!ev) {
		ev = event_alloc(SIM_EV_TIMER);
		ev->arg = key;
		*pp = ev;
	}
	sim_event_push(ev, expires, cpu);
}

int lh_timer_cancel(void *key)
{
	struct sim_event **pp = timer_find(key), *ev = *pp;

	if (!ev)
		return 0;
	*pp = ev->next;
	sim_event_cancel(ev);
	event_free(ev);
	return 1;
}

/* ---- host operations ---- */

unsigned long long lh_now(void)
{
	return sim.now;
}

void lh_tick(int cpu, int on)
{
	struct sim_event *ev = &sim.cpu[cpu].tick;

	if (sim.cpu[cpu].tick_on != on)
		power_tick(&sim.power, sim.now, cpu, on);
	sim.cpu[cpu].tick_on = on;
	if (!on) {
		sim_event_cancel(ev);
		return;
	}
	if (ev->heap_idx < 0)
		sim_event_push(ev, (sim.now / TICK_NS + 1) * TICK_NS, cpu);
}

void lh_ipi(int cpu, enum linsched_irq kind, void *arg)
{
	struct sim_event *ev = event_alloc(SIM_EV_IPI);

	ev->kind = kind;
	ev->arg = arg;
	sim_event_push(ev, sim.now, cpu);
}

void *lh_zalloc(unsigned long size)
{
	void *p = calloc(1, size);

	if (!p)
		sim_die("out of memory (%lu bytes for the kernel)", size);
	return p;
}

void lh_free(void *p)
{
	free(p);
}

void sim_context_start(void);

struct lh_context *lh_context_new(struct lk_task *task,
				  struct lh_stack **stack)
{
	char *base = mmap(NULL, STACK_SIZE + GUARD_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t *sp;

	if (base == MAP_FAILED)
		sim_die("out of memory for a task stack");
	mprotect(base, GUARD_SIZE, PROT_NONE);
	*stack = (struct lh_stack *)base;
	sp = (uint64_t *)(base + STACK_SIZE + GUARD_SIZE) - 8;
	sp[0] = 0;				/* r15 */
	sp[1] = 0;				/* r14 */
	sp[2] = (uint64_t)(uintptr_t)lk_task_entry;	/* r13 */
	sp[3] = (uint64_t)(uintptr_t)task;	/* r12 */
	sp[4] = 0;				/* rbx */
	sp[5] = 0;				/* rbp */
	sp[6] = 0;		/* sim_shadow_cur: made at its first call */
	sp[7] = (uint64_t)(uintptr_t)sim_context_start;
	return (struct lh_context *)sp;
}

void lh_context_free(struct lh_stack *stack)
{
	if (stack)
		munmap((void *)stack, STACK_SIZE + GUARD_SIZE);
}

void lh_log(int level, const char *line)
{
	size_t len = strlen(line);
	char *copy;

	while (len && line[len - 1] == '\n')
		len--;
	copy = malloc(len + 48);
	if (!copy)
		return;
	snprintf(copy, len + 48, "[%5llu.%06llu] %.*s",
		 (unsigned long long)(sim.now / 1000000000ULL),
		 (unsigned long long)(sim.now % 1000000000ULL / 1000),
		 (int)len, line);
	if (sim.cfg->log)
		fprintf(sim.cfg->log, "%s\n", copy);
	free(sim.log_ring[sim.log_next % LOG_RING]);
	sim.log_ring[sim.log_next++ % LOG_RING] = copy;
	(void)level;
}

static void sim_dump_log(void)
{
	size_t i = sim.log_next > LOG_RING ? sim.log_next - LOG_RING : 0;

	for (; i < sim.log_next; i++)
		fprintf(stderr, "  %s\n", sim.log_ring[i % LOG_RING]);
}

/*
 * In a work build, "kernel path: update_curr <- task_tick_fair <- ..."
 * on standard error: the functions a crash came in (its only record, as
 * a crashed run writes no results).
 */
static void say_path(void)
{
	char path[SIM_PATH_MAX * (SIM_PATH_NAME + 4)];

	if (!sim_path_depth())
		return;
	sim_path_text(path, sizeof(path), " <- ");
	fprintf(stderr, "kernel path: %s\n", path);
}

void lh_panic(const char *msg)
{
	fflush(NULL);
	fprintf(stderr, "kernel panic at %llu ns on CPU %d: %s\n",
		(unsigned long long)sim.now, lk_this_cpu(), msg);
	say_path();
	fputs("last kernel messages:\n", stderr);
	sim_dump_log();
	exit(SIM_EXIT_PANIC);
}

/* A work build's WARN: its path in the log, the first's in the results. */
static __attribute__((noinline, cold)) void warn_path(void)
{
	char line[SIM_PATH_MAX * (SIM_PATH_NAME + 4) + 16];

	if (sim.warnings == 1)
		sim_path_text(sim.warning_first_path,
			      sizeof(sim.warning_first_path), " ");
	memcpy(line, "kernel path: ", 14);
	sim_path_text(line + 13, sizeof(line) - 13, " <- ");
	lh_log(4, line);
}

void lh_warn(const char *where)
{
	if (!sim.warnings++) {
		snprintf(sim.warning_first, sizeof(sim.warning_first), "%s",
			 where);
		sim.warning_first_ns = sim.now;
	}
	lh_log(4, where);
	if (sim_path_depth())
		warn_path();
	if (sim.cfg->fatal_warnings) {
		fflush(NULL);
		fprintf(stderr, "kernel warning (fatal by --fatal-warnings): %s\n",
			where);
		say_path();
		sim_dump_log();
		exit(SIM_EXIT_WARN);
	}
}

int lh_tracing(void)
{
	return sim.cfg->trace != NULL;
}

int lh_trace_event(const char *name)
{
	unsigned int bits = sim_trace_event_bits(name, strlen(name));

	return sim.cfg->trace && bits && (sim.cfg->trace_events & bits) == bits;
}

/* A trace's bytes: to the writer thread, or stdio's (standard output) */
static void trace_put(const char *p, size_t n)
{
	if (sim_trace_out_active())
		sim_trace_out_put(p, n);
	else
		fwrite_unlocked(p, 1, n, sim.cfg->trace);
}

/* @v in decimal at @p, at least @width characters, @pad before it */
static char *put_dec(char *p, unsigned long long v, int width, char pad)
{
	char digits[24];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (width-- > n)
		*p++ = pad;
	while (n)
		*p++ = digits[--n];
	return p;
}

/*
 * "%16.16s-%-7d [%03d] .... %5llu.%09llu: EVENT: FIELDS\n": nanoseconds,
 * as `trace-cmd report -t` prints them; four flags, ftrace's columns
 * before 5.12, the widest every version of Perfetto's systrace importer
 * reads (README "Traces"). Formatted by hand: printf's parsing of the
 * format was most of what a trace cost.
 */
void lh_trace(int cpu, const char *comm, int pid, const char *event,
	      const char *fields)
{
	/* most lines share their instant with the one before */
	static char stamp[32];
	static size_t stamp_len;
	static uint64_t stamp_at = UINT64_MAX;
	char line[512], *p = line;
	size_t n, ev, fl;

	if (!sim.cfg->trace)
		return;
	if (sim.cfg->trace_dat) {
		sim_tracedat_event(sim.cfg->trace_dat, cpu, sim.now, comm, pid,
				   event, fields);
		return;
	}
	if (!pid)
		comm = "<idle>";
	n = strnlen(comm, 16);
	memset(p, ' ', 16 - n);
	memcpy(p + 16 - n, comm, n);
	p += 16;
	*p++ = '-';
	n = (size_t)(put_dec(p, (unsigned int)pid, 0, ' ') - p);
	memset(p + n, ' ', n < 7 ? 7 - n : 0);
	p += n < 7 ? 7 : n;
	memcpy(p, " [", 2);
	p = put_dec(p + 2, (unsigned int)cpu, 3, '0');
	memcpy(p, "] .... ", 7);
	p += 7;
	if (stamp_at != sim.now) {
		char *q = put_dec(stamp, sim.now / 1000000000ULL, 5, ' ');

		*q++ = '.';
		q = put_dec(q, sim.now % 1000000000ULL, 9, '0');
		stamp_len = (size_t)(q - stamp);
		stamp_at = sim.now;
	}
	memcpy(p, stamp, stamp_len);
	p += stamp_len;
	memcpy(p, ": ", 2);
	p += 2;
	ev = strlen(event);
	fl = strlen(fields);
	/* one write of the whole line, but for a long lsb_* one */
	if ((size_t)(p - line) + ev + fl + 3 > sizeof(line)) {
		trace_put(line, (size_t)(p - line));
		p = line;
	}
	memcpy(p, event, ev);
	p += ev;
	*p++ = ':';
	*p++ = ' ';
	if ((size_t)(p - line) + fl + 1 > sizeof(line)) {
		trace_put(line, (size_t)(p - line));
		trace_put(fields, fl);
		p = line;
	} else {
		memcpy(p, fields, fl);
		p += fl;
	}
	*p++ = '\n';
	trace_put(line, (size_t)(p - line));
}

void lh_trace_format(const char *system, const char *name,
		     const char *format)
{
	if (sim.cfg->trace_dat)
		sim_tracedat_format(sim.cfg->trace_dat, system, name, format);
}

int lh_trace_binary(void)
{
	return sim.cfg->trace_dat != NULL;
}

void lh_trace_record(int cpu, const char *comm, int pid, const char *event,
		     const void *rec, int len)
{
	if (sim.cfg->trace_dat)
		sim_tracedat_record(sim.cfg->trace_dat, cpu, sim.now, comm, pid,
				    event, rec, len);
}

void sim_trace_lsb(const char *event, const char *fmt, ...)
{
	char fields[TOPOLOGY_MAX_CPUS * 5 + 256];
	va_list ap;

	if (!sim.cfg->trace)
		return;
	va_start(ap, fmt);
	vsnprintf(fields, sizeof(fields), fmt, ap);
	va_end(ap);
	lh_trace(0, "", 0, event, fields);
}

void sim_trace_cpus(char *buf, size_t len, int n, const int *cpus)
{
	size_t at;
	int i, j;

	at = (size_t)snprintf(buf, len, "cpus=%s", n ? "" : "all");
	for (i = 0; i < n && at < len; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "," : "",
				       cpus[i]);
		if (j > i && at < len)
			at += (size_t)snprintf(buf + at, len - at, "-%d",
					       cpus[j]);
	}
}

int lh_sched_events(void)
{
	return sim.cfg->metrics;
}

void lh_sched_event(enum linsched_sched_event kind, int cpu, int pid,
		    int prio, int arg, long state)
{
	(void)prio;
	if (!sim.cfg->metrics)
		return;
	if (kind == LINSCHED_EV_MIGRATE && sim.nr_leaving &&
	    sim.cpu[cpu].leaving)
		sim_task_pushed(pid, arg);
	metrics_event(&sim.metrics, sim.now, kind, cpu, pid, arg, state);
}

unsigned long long lh_random(void)
{
	return sim_rng_next(sim.kernel_rng);
}

/* sim_cpu_speed() of a CPU whose type slows down beside a busy sibling */
unsigned int sim_cpu_speed_smt(const struct sim_cpu *c)
{
	double f = c->smt_speed;
	unsigned int s;
	int i;

	for (i = 0; i < c->nr_siblings; i++)
		if (!sim.cpu[c->siblings[i]].idle)
			break;
	if (i == c->nr_siblings)
		return c->speed;
	s = (unsigned int)(c->speed * f + 0.5);
	return s ? s : 1;
}

/* cpu goes idle or busy: its siblings' run work changes speed. */
static void siblings_speed(int cpu, int resume)
{
	const struct sim_cpu *c = &sim.cpu[cpu];
	int i;

	for (i = 0; i < c->nr_siblings; i++) {
		struct sim_task *r = sim.cpu[c->siblings[i]].runner;

		if (!r)
			continue;
		if (resume)
			sim_task_speed_resume(r);
		else
			sim_task_speed_changed(r);
	}
}

/* When cpu's next timer event (tick or hrtimer) comes, UINT64_MAX if none. */
static uint64_t next_timer(int cpu)
{
	const struct sim_cpu *c = &sim.cpu[cpu];
	uint64_t next = c->tick.heap_idx >= 0 ? c->tick.time : UINT64_MAX;
	size_t i;

	for (i = 0; i < c->q.n; i++)
		if (c->q.ent[i].ev->type == SIM_EV_TIMER &&
		    c->q.ent[i].time < next)
			next = c->q.ent[i].time;
	return next;
}

unsigned long long lh_next_timer(int cpu, int tick)
{
	const struct sim_cpu *c = &sim.cpu[cpu];
	uint64_t next = UINT64_MAX;
	size_t i;

	if (tick)
		return next_timer(cpu);
	for (i = 0; i < c->q.n; i++)
		if (c->q.ent[i].ev->type == SIM_EV_TIMER &&
		    c->q.ent[i].time < next)
			next = c->q.ent[i].time;
	return next;
}

int lh_cpu_idle(int cpu, int state)
{
	struct sim_cpu *c = &sim.cpu[cpu];
	const struct topology_type *type =
		&sim.cfg->topo->types[sim.cfg->topo->cpu[cpu].type];
	uint64_t next;
	int pstate;

	if (state >= 0 && !c->idle) {
		siblings_speed(cpu, 0);
		c->idle = 1;
		siblings_speed(cpu, 1);
		c->idle_since = sim.now;
		if (sim.cfg->idle == SIM_IDLE_POLL || !type->nr_states) {
			c->state = -1;
		} else if (sim.idle_driver) {
			/*
			 * The state the revision's governor entered: 0 is the
			 * driver's POLL, k the type's state k - 1; without a
			 * polling state, k is the type's k.
			 */
			int k = type->no_polling_state ? state : state - 1;

			c->state = k < type->nr_states ? k : type->nr_states - 1;
		} else {
			next = next_timer(cpu);
			c->state = sim_idle_select(&c->gov, type,
						   next == UINT64_MAX ?
						   UINT64_MAX : next - sim.now);
		}
		pstate = c->state >= 0 ? c->state : 0;
		/* the driver's POLL spins: busy power at its OPP */
		if (sim.idle_driver && type->nr_states && c->state < 0)
			pstate = POWER_BUSY;
		power_idle(&sim.power, sim.now, cpu, pstate);
		if (sim.idle_driver && type->nr_states)
			return state;	/* the trace says the kernel's */
	} else if (state < 0 && c->idle) {
		siblings_speed(cpu, 0);
		c->idle = 0;
		siblings_speed(cpu, 1);
		c->idle_ns += sim.now - c->idle_since;
		c->state = -1;
		power_idle(&sim.power, sim.now, cpu, POWER_BUSY);
	}
	return c->idle ? (c->state >= 0 ? c->state : 0) : -1;
}

/*
 * An event for an idle CPU wakes it from its idle state: the governor
 * learns how long the CPU slept, and the state's exit latency delays this
 * event and every other one for the CPU until it is awake. Returns 1 when
 * the event was put back for later.
 */
static int cpu_wakeup_delayed(struct sim_event *ev, int cpu)
{
	struct sim_cpu *c = &sim.cpu[cpu];
	const struct topology_type *type;
	uint64_t lat;

	if (c->waking) {
		if (sim.now < c->wake_at) {
			sim_event_push(ev, c->wake_at, cpu);
			return 1;
		}
		c->waking = 0;
		return 0;
	}
	if (!c->idle || c->state < 0)
		return 0;
	sim_idle_reflect(&c->gov, sim.now - c->idle_since);
	type = &sim.cfg->topo->types[sim.cfg->topo->cpu[cpu].type];
	lat = type->states[c->state].exit_latency_ns;
	c->state = -2;		/* awake to the kernel's next idle exit */
	if (!lat)
		return 0;
	c->waking = 1;
	c->wake_at = sim.now + lat;
	sim_event_push(ev, c->wake_at, cpu);
	return 1;
}

void lh_cpufreq(int cpu, unsigned long khz)
{
	const struct topology_type *type =
		&sim.cfg->topo->types[sim.cfg->topo->cpu[cpu].type];
	struct sim_cpu *c = &sim.cpu[cpu];
	int i;

	for (i = 0; i < type->nr_opps - 1; i++)
		if (type->opps[i].khz >= khz)
			break;
	if (type->opps[i].khz != khz)
		sim_die("the kernel set CPU %d to %lu kHz, not an OPP of its type '%s'",
			cpu, khz, type->name);
	if (c->runner)
		sim_task_speed_changed(c->runner);
	if (c->khz != khz)
		power_freq(&sim.power, sim.now, cpu, khz);
	c->khz = khz;
	c->speed = type->opps[i].capacity;
	if (c->runner)
		sim_task_speed_resume(c->runner);
}

void lh_boot_done(void)
{
	if (sim.cfg->domains) {
		static char buf[1 << 20];

		if (lk_domains(buf, sizeof(buf)) < 0)
			sim_die("the domain hierarchy does not fit in %zu bytes",
				sizeof(buf));
		fputs(buf, stdout);
		fflush(stdout);
		exit(0);
	}
	sim_system_boot();
	sim_tasks_start();
	sim_system_run();
}

static int ent_cmp(const void *a, const void *b)
{
	return ent_before(b, a) - ent_before(a, b);
}

/*
 * What is queued for @cpu: to @to (timers) or dropped (the rest). Timers
 * move in their queued order, as the kernel's migrate_hrtimer_list() takes
 * them, so that those due at one instant keep it (not the order of the
 * heap's array, which its workings decide).
 */
static void cpu_events_away(int cpu, int to)
{
	struct sim_queue *q = &sim.cpu[cpu].q;
	struct sim_heap_ent *moved = NULL;
	size_t i, n = q->n;

	sim_event_cancel(&sim.cpu[cpu].tick);
	if (n && !(moved = calloc(n, sizeof(*moved))))
		sim_die("out of memory");
	for (i = 0; i < n; i++)
		moved[i] = q->ent[i];
	qsort(moved, n, sizeof(*moved), ent_cmp);
	for (i = 0; i < n; i++) {
		struct sim_event *ev = moved[i].ev;

		sim_event_cancel(ev);
		if (ev->type == SIM_EV_TIMER)
			sim_event_push(ev, ev->time, to);
		else if (ev->type == SIM_EV_IPI)
			event_free(ev);
	}
	free(moved);
}

/*
 * The kernel's CPU hotplug: an offline CPU's idle loop played dead, or the
 * CPU is being brought up. An offline CPU is counted in its deepest idle
 * state (real ones power off), runs nothing and takes no interrupt: its
 * hrtimers move to an online CPU, as the kernel's hrtimers_cpu_dying()
 * moves them.
 */
void lh_cpu_online(int cpu, int online)
{
	struct sim_cpu *c = &sim.cpu[cpu];
	const struct topology_type *type =
		&sim.cfg->topo->types[sim.cfg->topo->cpu[cpu].type];
	int to;

	if (online == !c->offline)
		return;
	if (!online) {
		for (to = 0; to < sim.nr_cpus; to++)
			if (to != cpu && !sim.cpu[to].offline)
				break;
		lh_tick(cpu, 0);
		cpu_events_away(cpu, to);
		siblings_speed(cpu, 0);
		if (c->idle)
			c->idle_ns += sim.now - c->idle_since;
		c->idle = 1;
		siblings_speed(cpu, 1);
		c->state = -1;
		c->waking = 0;
		power_idle(&sim.power, sim.now, cpu,
			   type->nr_states ? type->nr_states - 1 : 0);
		/*
		 * the kernel traces nothing on an offline CPU, not even this:
		 * our line says it
		 */
		if (sim.cfg->metrics) {
			sim_trace_lsb("lsb_cpu_offline", "cpu=%d prev_pid=%d",
				      cpu, sim.metrics.cpu[cpu].curr);
			metrics_event(&sim.metrics, sim.now, METRICS_EV_SWITCH,
				      cpu, 0, sim.metrics.cpu[cpu].curr, 0);
		}
		c->offline = 1;
		c->offline_since = sim.now;
		sim.nr_offline++;
		return;
	}
	sim_trace_lsb("lsb_cpu_online", "cpu=%d", cpu);
	c->offline = 0;
	c->offline_ns += sim.now - c->offline_since;
	sim.nr_offline--;
	/* it runs the kernel's bring-up until its idle loop says otherwise */
	siblings_speed(cpu, 0);
	c->idle = 0;
	siblings_speed(cpu, 1);
	power_idle(&sim.power, sim.now, cpu, POWER_BUSY);
}

static void say(const char *fmt, va_list ap)
{
	fflush(NULL);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void sim_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(1);
}

void sim_refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(SIM_EXIT_USAGE);
}

static void sim_fault(int sig)
{
	static const char msg[] = "kernel crash: fatal signal in the simulated kernel\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(128 + sig);
	fprintf(stderr, "signal %d at %llu ns on CPU %d%s",
		sig, (unsigned long long)sim.now, lk_this_cpu(),
		sim_path_depth() ? "\n" : "; ");
	say_path();
	fputs("last kernel messages:\n", stderr);
	sim_dump_log();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A task's stack overflow hits its guard page: report on another stack. */
static void sim_fault_handlers(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa = { .sa_handler = sim_fault, .sa_flags = SA_ONSTACK };
	stack_t ss = { .ss_size = 64 * 1024 };
	size_t i;

	ss.ss_sp = malloc(ss.ss_size);
	if (ss.ss_sp)
		sigaltstack(&ss, NULL);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* ---- the loop ---- */

/* An event for an offline CPU: a timer goes on elsewhere, the rest is lost. */
static void offline_event(struct sim_event *ev)
{
	int to;

	if (ev->type == SIM_EV_IPI) {
		event_free(ev);
	} else if (ev->type == SIM_EV_TIMER) {
		for (to = 0; sim.cpu[to].offline; to++)
			;
		sim_event_push(ev, sim.now, to);
	}
}

static const char *const irq_names[] = {
	[LINSCHED_IRQ_TICK] = "tick", [LINSCHED_IRQ_TIMER] = "hrtimer",
	[LINSCHED_IRQ_RESCHED] = "resched",
	[LINSCHED_IRQ_CALL_FUNC] = "call_function",
	[LINSCHED_IRQ_WORK] = "irq_work", [LINSCHED_IRQ_DEFERRED] = "deferred",
	[LINSCHED_IRQ_SOFTIRQ] = "softirq",
};

const char *sim_irq_name(int kind)
{
	return kind >= 0 && kind < (int)(sizeof(irq_names) / sizeof(irq_names[0])) &&
	       irq_names[kind] ? irq_names[kind] : "?";
}

/* The trace's line for @n kernel calls in an interrupt or a task's run. */
static __attribute__((noinline, cold)) void
trace_work(int cpu, const char *what, uint64_t n)
{
	char fields[64];

	if (!n || !sim.cfg->trace)
		return;
	snprintf(fields, sizeof(fields), "%s calls=%llu", what,
		 (unsigned long long)n);
	lh_trace(cpu, "", 0, "lsb_kernel_work", fields);
}

/*
 * Back on the event loop's stack, in a work build: no kernel function is
 * left on its path (a task's own wait on the task's).
 */
static __attribute__((noinline, cold)) void path_balanced(const char *after)
{
	if (sim_path_depth())
		sim_die("the kernel call path is unbalanced after %s: %u functions left",
			after, sim_path_depth());
}

/* The kernel work of an interrupt: none in a plain build, which skips it. */
static __attribute__((noinline, cold)) void irq_work(int cpu, int kind,
						     uint64_t n)
{
	path_balanced("an interrupt");
	sim.work.irq_calls += n;
	if (n > sim.work.max_irq_calls) {
		sim.work.max_irq_calls = n;
		sim.work.max_irq_time_ns = sim.now;
		sim.work.max_irq_cpu = cpu;
		sim.work.max_irq_kind = kind;
	}
	trace_work(cpu, sim_irq_name(kind), n);
}

/* An interrupt, its softirqs included, and the kernel work it took. */
static inline void irq(int cpu, int kind, void *arg)
{
	uint64_t before = sim.kernel_calls;

	lk_irq(cpu, kind, arg);
	sim.work.irqs++;
	if (__builtin_expect(sim.kernel_calls != before, 0))
		irq_work(cpu, kind, sim.kernel_calls - before);
}

/* A CPU's task (or idle loop) runs on, and the kernel work it did. */
static inline void resume(int cpu)
{
	uint64_t before = sim.kernel_calls;

	lk_resume(cpu);
	if (__builtin_expect(sim.kernel_calls != before, 0)) {
		path_balanced("a task's run");
		trace_work(cpu, "task", sim.kernel_calls - before);
	}
}

static void sim_loop(uint64_t end)
{
	uint64_t last = UINT64_MAX, same = 0;
	struct sim_event *ev;

	while ((ev = event_pop(end))) {
		int cpu = ev->cpu, run_on = 0, kind;
		void *arg;

		sim.now = ev->time;
		sim.events++;
		if (sim.cpu[cpu].offline) {
			offline_event(ev);
			continue;
		}
		if (ev->type != SIM_EV_SEGMENT && cpu_wakeup_delayed(ev, cpu))
			continue;
		same = sim.now == last ? same + 1 : 0;
		last = sim.now;
		if (__builtin_expect(same > HANG_EVENTS, 0)) {
			fprintf(stderr, "kernel hang: %llu events at %llu ns without time passing\n",
				(unsigned long long)same,
				(unsigned long long)sim.now);
			sim_dump_log();
			exit(SIM_EXIT_HANG);
		}
		switch (ev->type) {
		case SIM_EV_TICK:
			/*
			 * sim_event_push() of the next tick, which has nothing
			 * else to do: the CPU's leaf is made at the next pop
			 */
			ev->time = sim.now + TICK_NS < sim.now ? sim.now :
				   sim.now + TICK_NS;
			ev->seq = sim.seq++;
			ev->heap_idx = 0;
			irq(cpu, LINSCHED_IRQ_TICK, NULL);
			break;
		case SIM_EV_TIMER:
			arg = ev->arg;
			*timer_find(arg) = ev->next;
			event_free(ev);
			irq(cpu, LINSCHED_IRQ_TIMER, arg);
			break;
		case SIM_EV_IPI:
			kind = ev->kind;
			arg = ev->arg;
			event_free(ev);
			irq(cpu, kind, arg);
			break;
		case SIM_EV_SEGMENT:
			run_on = 1;
			break;
		}
		if (run_on || lk_needs_resume(cpu))
			resume(cpu);
	}
	sim.now = end;
}

/*
 * Frequency domains: the CPUs of one type in one cluster share a policy,
 * as on Arm SoCs, or with per-core DVFS (x86) the SMT siblings of a core
 * do; a domain is named by its first CPU.
 */
static int cpu_policy(const struct topology *t, int cpu)
{
	const struct topology_cpu *c = &t->cpu[cpu];
	int i;

	for (i = 0; i < cpu; i++) {
		const struct topology_cpu *o = &t->cpu[i];

		if (o->package == c->package && o->cluster == c->cluster &&
		    o->type == c->type &&
		    (!t->types[c->type].dvfs_per_core || o->core == c->core))
			return i;
	}
	return cpu;
}

/* The revision's cpuidle core's statistics of each CPU, when it picked. */
static void sim_cpuidle_results(struct sim_result *out, const char *governor)
{
	struct linsched_cpuidle_stats st;
	int i, k;

	out->cpuidle_governor = governor;
	out->cpuidle = calloc(sim.nr_cpus, sizeof(*out->cpuidle));
	if (!out->cpuidle)
		sim_die("out of memory");
	for (i = 0; i < sim.nr_cpus; i++) {
		struct sim_cpuidle_result *r = &out->cpuidle[i];
		int n = lk_cpuidle_stats(i, &st);

		if (n > TOPOLOGY_MAX_STATES)
			n = TOPOLOGY_MAX_STATES;
		for (k = 0; k < n; k++) {
			struct sim_idle_usage *u = &r->state[k];

			snprintf(u->name, sizeof(u->name), "%s", st.state[k].name);
			u->usage = st.state[k].usage;
			u->time_ns = st.state[k].time_ns;
			u->above = st.state[k].above;
			u->below = st.state[k].below;
		}
		r->nr_states = n;
		r->tick_stopped = st.tick_stopped;
		r->tick_kept = st.tick_kept;
	}
}

/*
 * The revision's governor picks idle states: its tree must have built
 * drivers/cpuidle/ and the governor asked for.
 */
static int sim_cpuidle_check(const struct sim_config *cfg)
{
	static const struct {
		const char *name;
		int bit;
	} govs[] = {
		{ "menu", LK_CPUIDLE_MENU },
		{ "teo", LK_CPUIDLE_TEO },
		{ "ladder", LK_CPUIDLE_LADDER },
	};
	int have = lk_cpuidle();
	size_t i;

	if (!(have & LK_CPUIDLE_CORE)) {
		fprintf(stderr, "error: --cpuidle %s: this tree was built without drivers/cpuidle/ (a history made from an older subset.list: 'linsched kernels' makes it again; --cpuidle sim runs the simulator's model instead)\n",
			cfg->idle_governor ? cfg->idle_governor :
					     "(default: the revision's)");
		return -1;
	}
	for (i = 0; cfg->idle_governor && i < sizeof(govs) / sizeof(govs[0]);
	     i++)
		if (!strcmp(cfg->idle_governor, govs[i].name) &&
		    !(have & govs[i].bit)) {
			fprintf(stderr, "error: --cpuidle %s: this revision has no such cpuidle governor\n",
				cfg->idle_governor);
			return -1;
		}
	return 0;
}

int sim_run(const struct sim_config *cfg, struct sim_result *out)
{
	static struct linsched_machine machine;
	int i;

	memset(&sim, 0, sizeof(sim));
	sim.cfg = cfg;
	sim.nr_cpus = cfg->topo->nr_cpus;
	sim.timers = calloc(TIMER_BUCKETS, sizeof(*sim.timers));
	sim.cpu = calloc(sim.nr_cpus, sizeof(*sim.cpu));
	if (!sim.timers || !sim.cpu)
		sim_die("out of memory");
	queue_init();
	sim_rng_seed(sim.kernel_rng, cfg->seed ^ 0x6b65726e656cULL);
	for (i = 0; i < sim.nr_cpus; i++) {
		const struct topology_cpu *t = &cfg->topo->cpu[i];

		sim.cpu[i].tick.type = SIM_EV_TICK;
		sim.cpu[i].tick.heap_idx = -1;
		sim.cpu[i].speed = t->capacity;
		machine.cpu[i] = (struct linsched_cpu_desc){
			.package = t->package, .cluster = t->cluster,
			.core = t->core, .node = t->node,
			.capacity = t->capacity, .type = t->type,
			.policy = cpu_policy(cfg->topo, i),
		};
	}
	machine.nr_types = cfg->topo->nr_types;
	for (i = 0; i < cfg->topo->nr_types; i++) {
		const struct topology_type *ty = &cfg->topo->types[i];
		int k;

		machine.type[i].nr_opps = ty->nr_opps;
		for (k = 0; k < ty->nr_opps; k++) {
			machine.type[i].opp[k].khz = ty->opps[k].khz;
			machine.type[i].opp[k].power_uw =
				(unsigned long)(ty->opps[k].power_mw * 1000 + 0.5);
		}
		machine.type[i].nr_idle_states =
			ty->nr_states < LINSCHED_MAX_IDLE_STATES ?
			ty->nr_states : LINSCHED_MAX_IDLE_STATES;
		machine.type[i].no_polling_state = ty->no_polling_state;
		for (k = 0; k < machine.type[i].nr_idle_states; k++) {
			struct linsched_idle_state *d = &machine.type[i].idle[k];

			snprintf(d->name, sizeof(d->name), "%s",
				 ty->states[k].name);
			d->exit_latency_ns = ty->states[k].exit_latency_ns;
			d->target_residency_ns =
				ty->states[k].target_residency_ns;
			d->power_uw = (unsigned long)(ty->states[k].power_mw *
						      1000 + 0.5);
		}
	}
	machine.governor = cfg->governor;
	machine.energy_model = cfg->energy_model;
	/* a driver when the revision's governor picks and there is a choice */
	if (cfg->idle == SIM_IDLE_KERNEL)
		for (i = 0; i < cfg->topo->nr_types; i++)
			if (cfg->topo->types[i].nr_states)
				machine.cpuidle_driver = sim.idle_driver = 1;
	if (cfg->idle_governor)
		snprintf(machine.cpuidle, sizeof(machine.cpuidle), "%s",
			 cfg->idle_governor);
	snprintf(machine.cmdline, sizeof(machine.cmdline), "%s",
		 cfg->topo->cmdline);
	machine.nr_cpus = sim.nr_cpus;
	machine.nr_nodes = cfg->topo->nr_nodes;
	for (i = 0; i < cfg->topo->nr_nodes && i < LINSCHED_MAX_NODES; i++) {
		int j;

		for (j = 0; j < cfg->topo->nr_nodes && j < LINSCHED_MAX_NODES; j++)
			machine.distance[i][j] = cfg->topo->distance[i][j];
	}
	if (cfg->metrics) {
		metrics_init(&sim.metrics, cfg->topo);
		metrics_limits(&sim.metrics, cfg->window_ns, cfg->starvation_ns);
	}
	if (power_init(&sim.power, cfg->topo, 0))
		sim_die("no CPUs to account power for");
	for (i = 0; i < sim.nr_cpus; i++) {
		const struct topology_cpu *t = &cfg->topo->cpu[i];
		double f;
		int j;

		sim.cpu[i].siblings = calloc(sim.nr_cpus, sizeof(int));
		if (!sim.cpu[i].siblings)
			sim_die("out of memory");
		for (j = 0; j < sim.nr_cpus; j++)
			if (j != i && cfg->topo->cpu[j].package == t->package &&
			    cfg->topo->cpu[j].core == t->core)
				sim.cpu[i].siblings[sim.cpu[i].nr_siblings++] = j;
		f = cfg->topo->types[t->type].smt_speed;
		if (f > 0 && f < 1 && sim.cpu[i].nr_siblings)
			sim.cpu[i].smt_speed = f;
		sim.cpu[i].state = -1;
		sim.cpu[i].tick_on = 1;
		sim_idle_gov_init(&sim.cpu[i].gov);
	}
	if (sim_tasks_init(cfg) || sim_system_init(cfg))
		return -1;
	sim_fault_handlers();

	if (lk_door_version() != LINSCHED_DOOR_VERSION) {
		fprintf(stderr, "error: the kernel objects were built for door version %d, this simulator speaks %d: rebuild the revision\n",
			lk_door_version(), LINSCHED_DOOR_VERSION);
		return -1;
	}
	if (machine.cpuidle_driver && sim_cpuidle_check(cfg))
		return -1;
	if (lk_boot(&machine)) {
		fprintf(stderr, "error: topology '%s': %d CPUs, but this kernel was built for at most %d\n",
			cfg->topo->name, sim.nr_cpus, lk_max_cpus());
		return -1;
	}
	lk_resume(0);
	sim.work.boot_calls = sim.kernel_calls;
	sim_loop(cfg->duration_ns);
	sim.work.calls = sim.kernel_calls - sim.work.boot_calls;

	memset(out, 0, sizeof(*out));
	out->kernel_version = lk_version();
	out->preempt = lk_preempt_model();
	out->nr_cpus = sim.nr_cpus;
	out->cpus = calloc(sim.nr_cpus, sizeof(*out->cpus));
	if (!out->cpus)
		sim_die("out of memory");
	for (i = 0; i < sim.nr_cpus; i++) {
		struct sim_cpu *c = &sim.cpu[i];

		if (c->offline)
			c->offline_ns += sim.now - c->offline_since;
		else if (c->idle)
			c->idle_ns += sim.now - c->idle_since;
		out->cpus[i].idle_ns = c->idle_ns;
		out->cpus[i].offline_ns = c->offline_ns;
		out->cpus[i].busy_ns = sim.now - c->idle_ns - c->offline_ns;
	}
	out->warnings = sim.warnings;
	memcpy(out->warning_first, sim.warning_first,
	       sizeof(out->warning_first));
	out->warning_first_ns = sim.warning_first_ns;
	memcpy(out->warning_first_path, sim.warning_first_path,
	       sizeof(out->warning_first_path));
	out->events = sim.events;
	out->work = sim.work;
	if (cfg->metrics) {
		metrics_finish(&sim.metrics, sim.now, &out->metrics);
		metrics_release(&sim.metrics);
	}
	power_finish(&sim.power, sim.now, &out->power);
	power_release(&sim.power);
	if (machine.cpuidle_driver)
		sim_cpuidle_results(out, lk_cpuidle_governor());
	sim_system_results(out);
	if (sim_tasks_results(out))
		return -1;
	if (sim.cfg->trace) {
		uint64_t work = 0;

		for (i = 0; i < out->nr_tasks; i++)
			work += out->tasks[i].run_work_ns;
		/* cpuidle=: cpu_idle's states were the kernel driver's */
		sim_trace_lsb("lsb_end", "duration_ns=%llu kernel_warnings=%u run_work_ns=%llu%s%s",
			      (unsigned long long)sim.now, out->warnings,
			      (unsigned long long)work,
			      sim.idle_driver ? " cpuidle=" : "",
			      sim.idle_driver ? out->cpuidle_governor : "");
	}
	return 0;
}

void sim_result_release(struct sim_result *res)
{
	int i;

	free(res->cpuidle);
	for (i = 0; i < res->nr_sysevents; i++)
		free(res->sysevents[i].domains);
	free(res->sysevents);
	free(res->groups);
	power_result_release(&res->power);
	free(res->cpus);
	free(res->tasks);
	memset(res, 0, sizeof(*res));
}
