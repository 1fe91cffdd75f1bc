// SPDX-License-Identifier: GPL-2.0-only
/*
 * score.c - the scores of a trace in ftrace's text format (linsched
 * score): the kernel's sched and power events fed to metrics/ and power/
 * as the simulator feeds them, so that a simulation's own --trace gives
 * its --json scores again, byte for byte, and a real kernel's trace
 * (tracefs's `trace`, `trace-cmd report` with or without its sched
 * plugin) is scored by the same code.
 *
 * The simulator's trace carries lines of ours, lsb_EVENT, for what the
 * tracepoints do not: which pids are the workload's tasks and their
 * class, weight and allowed CPUs (lsb_task, lsb_affinity, lsb_weight), a
 * switch whose prev reads R but is held by its group's bandwidth
 * (lsb_prev_blocked), queued tasks that bandwidth holds back and queues
 * again (lsb_throttle, lsb_unthrottle), CPU hotplug (lsb_cpu_offline/online) and the run's
 * end (lsb_end). A real trace has none: then the workload's tasks, their
 * class and weight are inferred (sim.h).
 *
 * Host side: linked into `linsched` (libsim-host.a) and, unused, into the
 * simulator.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

enum {
	EV_SWITCH, EV_WAKEUP, EV_WAKEUP_NEW, EV_MIGRATE,	/* metrics' */
	EV_IDLE, EV_FREQ, EV_WAKING,
	EV_TASK, EV_AFFINITY, EV_WEIGHT, EV_BLOCKED, EV_OFFLINE, EV_ONLINE,
	EV_THROTTLE, EV_UNTHROTTLE,
};

struct ev {
	uint64_t t;		/* ns, as in the trace */
	int kind, cpu, pid, arg;
	int state;		/* switch: prev reads R; lsb_task: class */
	int prio, prio2;	/* of pid, of arg (switch); -2: none */
	int nr_cpus;		/* lsb_task, lsb_affinity: 0 for all */
	int *cpus;
};

struct ptask {
	int pid;		/* the trace's */
	int id;			/* the scores' pid */
	char comm[16];
	char name[64];		/* lsb_task's, or the comm */
	int wl;			/* index in the workload's tasks, -1 */
	int known;		/* a workload task */
	int told;		/* metrics_task() done */
	int prio;		/* last seen, -2: none */
	int running;
	int gaps;		/* switches around it with events missing */
	uint64_t since, cpu_ns;
	uint64_t first, last;	/* its events' times */
};

struct reader {
	const char *path;
	const struct sim_score_opts *o;
	char *err;
	size_t errlen;
	int line;
	struct ev *ev;
	size_t nr_ev, cap_ev;
	struct ptask *task;	/* by first appearance */
	int nr_task, cap_task;
	int *hash;		/* pid -> index + 1, open addressing */
	int hash_cap;
	int ours, ended;
	int driver_idle;	/* lsb_end: cpu_idle's states are a cpuidle
				   driver's (POLL first), not the topology's */
	size_t nr_sched;	/* sched_* events */
	int nr_lsb_tasks;	/* lsb_task lines */
	int any;		/* an event line was read */
	uint64_t t_first, t_last;	/* of every event line */
	uint64_t end_ns, warnings, work_ns;
};

static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, r->errlen, "trace '%s': line %d: ", r->path,
		     r->line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return SIM_SCORE_BAD;
}

static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p) {
		fputs("error: out of memory for the trace\n", stderr);
		exit(1);
	}
	return p;
}

/* ---- pids ---- */

static unsigned int pid_slot(const struct reader *r, int pid)
{
	return ((unsigned int)pid * 2654435761u) & (unsigned int)(r->hash_cap - 1);
}

static void hash_rebuild(struct reader *r)
{
	int i;

	r->hash_cap = r->hash_cap ? 2 * r->hash_cap : 1024;
	free(r->hash);
	r->hash = grow(NULL, (size_t)r->hash_cap, sizeof(*r->hash));
	memset(r->hash, 0, (size_t)r->hash_cap * sizeof(*r->hash));
	for (i = 0; i < r->nr_task; i++) {
		unsigned int s = pid_slot(r, r->task[i].pid);

		while (r->hash[s])
			s = (s + 1) & (unsigned int)(r->hash_cap - 1);
		r->hash[s] = i + 1;
	}
}

/* The pid's entry, made at its first appearance (with @comm, if given). */
static struct ptask *ptask(struct reader *r, int pid, const char *comm,
			   uint64_t t)
{
	unsigned int s;
	struct ptask *p;

	if (2 * (r->nr_task + 1) > r->hash_cap)
		hash_rebuild(r);
	for (s = pid_slot(r, pid); r->hash[s];
	     s = (s + 1) & (unsigned int)(r->hash_cap - 1)) {
		p = &r->task[r->hash[s] - 1];
		if (p->pid == pid)
			goto found;
	}
	if (r->nr_task == r->cap_task) {
		r->cap_task = r->cap_task ? 2 * r->cap_task : 256;
		r->task = grow(r->task, (size_t)r->cap_task, sizeof(*r->task));
	}
	p = &r->task[r->nr_task];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->id = pid;
	p->wl = -1;
	p->prio = -2;
	p->first = t;
	r->hash[s] = ++r->nr_task;
found:
	if (comm && *comm)
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->last = t;
	return p;
}

static struct ptask *ptask_find(const struct reader *r, int pid)
{
	unsigned int s;

	for (s = pid_slot(r, pid); r->hash_cap && r->hash[s];
	     s = (s + 1) & (unsigned int)(r->hash_cap - 1))
		if (r->task[r->hash[s] - 1].pid == pid)
			return &r->task[r->hash[s] - 1];
	return NULL;
}

/* ---- one line ---- */

/*
 * "COMM-PID [CPU] FLAGS SECS.FRAC: EVENT: FIELDS", FLAGS optional (not in
 * trace-cmd report's lines); FRAC of 1 to 9 digits. The comm may hold
 * spaces and brackets: the first "[digits]" followed by a timestamp wins.
 */
static int line_head(char *line, int *cpu, uint64_t *t, char **event,
		     char **fields)
{
	char *p, *q, *e;

	for (p = strchr(line, '['); p; p = strchr(p + 1, '[')) {
		unsigned long long sec, frac;
		int a, b, digits, n = 0;

		if (sscanf(p, "[%d]%n", cpu, &n) != 1 || !n || *cpu < 0)
			continue;
		q = p + n;
		while (*q == ' ')
			q++;
		/* flags: a word without a '.'-separated number and ':' */
		a = b = 0;
		if (sscanf(q, "%llu.%n%llu%n", &sec, &a, &frac, &b) != 2 ||
		    q[b] != ':') {
			q = strchr(q, ' ');
			if (!q)
				continue;
			while (*q == ' ')
				q++;
			a = b = 0;
			if (sscanf(q, "%llu.%n%llu%n", &sec, &a, &frac, &b) != 2 ||
			    q[b] != ':')
				continue;
		}
		digits = b - a;
		if (digits < 1 || digits > 9 || q[a] < '0' || q[a] > '9')
			continue;
		while (digits++ < 9)
			frac *= 10;
		*t = sec * 1000000000ULL + frac;
		e = q + b + 1;
		while (*e == ' ')
			e++;
		q = strchr(e, ':');
		if (!q || q == e)
			continue;
		*q = '\0';
		*event = e;
		q++;
		while (*q == ' ')
			q++;
		*fields = q;
		return 0;
	}
	return -1;
}

/* Where "KEY=" starts a field of @f (at its start or after a space). */
static const char *field(const char *f, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = f; (p = strstr(p, key)); p++)
		if ((p == f || p[-1] == ' ') && p[len] == '=')
			return p + len + 1;
	return NULL;
}

static int num(struct reader *r, const char *event, const char *f,
	       const char *key, long long *v)
{
	const char *p = field(f, key);
	char *end;

	if (!p)
		return fail(r, "%s: no %s= field", event, key);
	errno = 0;
	*v = strtoll(p, &end, 10);
	if (end == p || errno || (*end && *end != ' '))
		return fail(r, "%s: %s=: expected a number", event, key);
	return 0;
}

static int num_int(struct reader *r, const char *event, const char *f,
		   const char *key, int *v)
{
	long long x;

	if (num(r, event, f, key, &x))
		return SIM_SCORE_BAD;
	if (x < -1 || x > 0x7fffffff)
		return fail(r, "%s: %s=%lld: out of range", event, key, x);
	*v = (int)x;
	return 0;
}

/* The comm between "KEY=" and " NEXT=" (a comm may hold spaces). */
static int comm(struct reader *r, const char *event, const char *f,
		const char *key, const char *next, char *out, size_t len)
{
	const char *p = field(f, key), *q;
	char pat[32];

	snprintf(pat, sizeof(pat), " %s=", next);
	q = p ? strstr(p, pat) : NULL;
	if (!q)
		return fail(r, "%s: no %s= field before %s=", event, key, next);
	snprintf(out, len, "%.*s", (int)(q - p), p);
	return 0;
}

static int cpu_ok(struct reader *r, const char *event, int cpu)
{
	if (cpu < 0 || cpu >= r->o->topo->nr_cpus)
		return fail(r, "%s: CPU %d, but topology '%s' has %d CPUs",
			    event, cpu, r->o->topo->name, r->o->topo->nr_cpus);
	return 0;
}

static struct ev *ev_new(struct reader *r, int kind, uint64_t t, int cpu)
{
	struct ev *e;

	if (r->nr_ev == r->cap_ev) {
		r->cap_ev = r->cap_ev ? 2 * r->cap_ev : 4096;
		r->ev = grow(r->ev, r->cap_ev, sizeof(*r->ev));
	}
	e = &r->ev[r->nr_ev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->t = t;
	e->cpu = cpu;
	e->prio = e->prio2 = -2;
	return e;
}

/*
 * trace-cmd report's sched plugin (libtraceevent's plugin_sched_switch.c):
 * "COMM:PID [PRIO]" then, in a switch, the prev's state ("R", "S",
 * "D|W", ...: its bits; a preempted task's is "R") or, in a wakeup, an
 * optional " success=N" and " CPU:NNN". @end: where the part ends. The
 * comm may hold ':' and " [": the last ones before @end are taken.
 */
static int plugin_task(struct reader *r, const char *event, const char *p,
		       const char *end, char *comm, size_t len, int *pid,
		       int *prio, const char **after)
{
	const char *b = NULL, *q, *colon = NULL;
	char *x;

	for (q = p; (q = strstr(q, " [")) && q < end; q++)
		b = q;
	for (q = p; b && (q = memchr(q, ':', (size_t)(b - q))); q++)
		colon = q;
	if (!b || !colon)
		return fail(r, "%s: expected 'COMM:PID [PRIO]'", event);
	*pid = (int)strtol(colon + 1, &x, 10);
	if (x != b || *pid < 0)
		return fail(r, "%s: expected 'COMM:PID [PRIO]'", event);
	*prio = (int)strtol(b + 2, &x, 10);
	if (x == b + 2 || *x != ']')
		return fail(r, "%s: expected 'COMM:PID [PRIO]'", event);
	snprintf(comm, len, "%.*s", (int)(colon - p), p);
	*after = x + 1;
	return 0;
}

static int parse_switch_plugin(struct reader *r, struct ev *e, const char *f)
{
	const char *arrow = strstr(f, " ==> "), *st, *end;
	char pc[64], nc[64];

	if (!arrow)
		return fail(r, "sched_switch: expected prev_comm= or 'COMM:PID [PRIO] STATE ==> COMM:PID [PRIO]'");
	end = arrow + strlen(arrow);
	if (plugin_task(r, "sched_switch", f, arrow, pc, sizeof(pc), &e->arg,
			&e->prio2, &st) ||
	    plugin_task(r, "sched_switch", arrow + 5, end, nc, sizeof(nc),
			&e->pid, &e->prio, &end))
		return SIM_SCORE_BAD;
	while (*st == ' ')
		st++;
	if (st == arrow)
		return fail(r, "sched_switch: no prev state before ==>");
	e->state = *st == 'R';
	ptask(r, e->arg, pc, e->t);
	ptask(r, e->pid, nc, e->t);
	return 0;
}

static int parse_switch(struct reader *r, struct ev *e, const char *f)
{
	char pc[64], nc[64];
	const char *st;

	if (!field(f, "prev_comm"))
		return parse_switch_plugin(r, e, f);
	if (comm(r, "sched_switch", f, "prev_comm", "prev_pid", pc, sizeof(pc)) ||
	    comm(r, "sched_switch", f, "next_comm", "next_pid", nc, sizeof(nc)) ||
	    num_int(r, "sched_switch", f, "prev_pid", &e->arg) ||
	    num_int(r, "sched_switch", f, "next_pid", &e->pid) ||
	    num_int(r, "sched_switch", f, "prev_prio", &e->prio2) ||
	    num_int(r, "sched_switch", f, "next_prio", &e->prio))
		return SIM_SCORE_BAD;
	st = field(f, "prev_state");
	if (!st || *st == ' ' || !*st)
		return fail(r, "sched_switch: no prev_state= field");
	e->state = *st == 'R';
	if (e->arg < 0 || e->pid < 0)
		return fail(r, "sched_switch: a negative pid");
	ptask(r, e->arg, pc, e->t);
	ptask(r, e->pid, nc, e->t);
	return 0;
}

static int parse_wakeup_plugin(struct reader *r, struct ev *e,
			       const char *event, const char *f)
{
	const char *cpu = NULL, *q, *after;
	char c[64], *x;

	for (q = f; (q = strstr(q, " CPU:")); q++)
		cpu = q;
	if (!cpu)
		return fail(r, "%s: expected comm= or 'COMM:PID [PRIO] CPU:NNN'",
			    event);
	if (plugin_task(r, event, f, cpu, c, sizeof(c), &e->pid, &e->prio,
			&after))
		return SIM_SCORE_BAD;
	e->arg = (int)strtol(cpu + 5, &x, 10);
	if (x == cpu + 5 || (*x && *x != ' '))
		return fail(r, "%s: CPU: expected a number", event);
	if (cpu_ok(r, event, e->arg))
		return SIM_SCORE_BAD;
	if (e->pid <= 0)
		return fail(r, "%s: pid %d: expected a task's", event, e->pid);
	ptask(r, e->pid, c, e->t);
	return 0;
}

static int parse_wakeup(struct reader *r, struct ev *e, const char *event,
			const char *f)
{
	char c[64];

	if (e->kind != EV_MIGRATE && !field(f, "comm"))
		return parse_wakeup_plugin(r, e, event, f);
	if (comm(r, event, f, "comm", "pid", c, sizeof(c)) ||
	    num_int(r, event, f, "pid", &e->pid) ||
	    num_int(r, event, f, "prio", &e->prio) ||
	    num_int(r, event, f, e->kind == EV_MIGRATE ? "orig_cpu" :
		    "target_cpu", e->kind == EV_MIGRATE ? &e->cpu : &e->arg) ||
	    (e->kind == EV_MIGRATE &&
	     num_int(r, event, f, "dest_cpu", &e->arg)) ||
	    cpu_ok(r, event, e->cpu) || cpu_ok(r, event, e->arg))
		return SIM_SCORE_BAD;
	if (e->pid <= 0)
		return fail(r, "%s: pid=%d: expected a task's", event, e->pid);
	ptask(r, e->pid, c, e->t);
	return 0;
}

/* "cpus=all" or a CPU list, as sim_trace_cpus() writes it */
static int parse_cpus(struct reader *r, const char *event, struct ev *e,
		      const char *f)
{
	const char *p = field(f, "cpus");
	char list[TOPOLOGY_MAX_CPUS * 5 + 8], set[TOPOLOGY_MAX_CPUS];
	int n = r->o->topo->nr_cpus, c, count;

	if (!p)
		return fail(r, "%s: no cpus= field", event);
	snprintf(list, sizeof(list), "%.*s", (int)strcspn(p, " "), p);
	if (!strcmp(list, "all"))
		return 0;
	if (topology_cpulist(list, n, set, &count))
		return fail(r, "%s: cpus=%s: expected 'all' or CPUs of the %d of topology '%s'",
			    event, list, n, r->o->topo->name);
	e->cpus = grow(NULL, (size_t)count, sizeof(int));
	for (c = 0; c < n; c++)
		if (set[c])
			e->cpus[e->nr_cpus++] = c;
	return 0;
}

static int parse_lsb(struct reader *r, struct ev *e, const char *event,
		     const char *f)
{
	struct ptask *p;
	const char *name;
	long long x;

	r->ours = 1;
	if (!strcmp(event, "lsb_end")) {
		r->nr_ev--;
		if (num(r, event, f, "duration_ns", &x) || x < 0)
			return SIM_SCORE_BAD;
		r->end_ns = (uint64_t)x;
		if (num(r, event, f, "kernel_warnings", &x) || x < 0)
			return SIM_SCORE_BAD;
		r->warnings = (uint64_t)x;
		if (num(r, event, f, "run_work_ns", &x) || x < 0)
			return SIM_SCORE_BAD;
		r->work_ns = (uint64_t)x;
		r->driver_idle = !!field(f, "cpuidle");
		r->ended = 1;
		return 0;
	}
	if (!strcmp(event, "lsb_task") || !strcmp(event, "lsb_affinity") ||
	    !strcmp(event, "lsb_weight") || !strcmp(event, "lsb_prev_blocked")) {
		e->kind = event[4] == 't' ? EV_TASK : event[4] == 'a' ?
			  EV_AFFINITY : event[4] == 'w' ? EV_WEIGHT : EV_BLOCKED;
		if (num_int(r, event, f, e->kind == EV_BLOCKED ? "prev_pid" :
			    "pid", &e->pid))
			return SIM_SCORE_BAD;
		if (e->kind == EV_WEIGHT || e->kind == EV_TASK) {
			if (num_int(r, event, f, "weight", &e->arg))
				return SIM_SCORE_BAD;
		}
		/* held by its group's bandwidth (every such line so far) */
		if (e->kind == EV_BLOCKED) {
			e->arg = 1;
			if (field(f, "throttled") &&
			    num_int(r, event, f, "throttled", &e->arg))
				return SIM_SCORE_BAD;
		}
		if ((e->kind == EV_TASK || e->kind == EV_AFFINITY) &&
		    parse_cpus(r, event, e, f))
			return SIM_SCORE_BAD;
		if (e->kind != EV_TASK)
			return 0;
		name = field(f, "name");
		if (!name || !field(f, "class"))
			return fail(r, "%s: expected class= and name= fields",
				    event);
		e->state = !strncmp(field(f, "class"), "rt ", 3) ?
			   METRICS_RT : METRICS_FAIR;
		r->nr_lsb_tasks++;
		p = ptask(r, e->pid, NULL, e->t);
		snprintf(p->name, sizeof(p->name), "%s", name);
		p->known = 1;
		return 0;
	}
	if (!strcmp(event, "lsb_throttle") || !strcmp(event, "lsb_unthrottle")) {
		e->kind = event[4] == 't' ? EV_THROTTLE : EV_UNTHROTTLE;
		if (num_int(r, event, f, "pid", &e->pid) ||
		    num_int(r, event, f, "cpu", &e->cpu) ||
		    cpu_ok(r, event, e->cpu))
			return SIM_SCORE_BAD;
		return 0;
	}
	if (!strcmp(event, "lsb_cpu_offline") || !strcmp(event, "lsb_cpu_online")) {
		e->kind = event[9] == 'f' ? EV_OFFLINE : EV_ONLINE;
		if (num_int(r, event, f, "cpu", &e->cpu) ||
		    cpu_ok(r, event, e->cpu) ||
		    (e->kind == EV_OFFLINE &&
		     num_int(r, event, f, "prev_pid", &e->arg)))
			return SIM_SCORE_BAD;
		return 0;
	}
	r->nr_ev--;		/* another of ours (lsb_kernel_work): nothing */
	return 0;
}

static int parse_line(struct reader *r, char *line)
{
	static const char *const sched[] = {
		"sched_switch", "sched_wakeup", "sched_wakeup_new",
		"sched_migrate_task",
	};
	char *event, *f;
	uint64_t t;
	struct ev *e;
	int cpu, k;

	line[strcspn(line, "\n")] = '\0';
	if (!*line || *line == '#' || !strncmp(line, "cpus=", 5) ||
	    !strncmp(line, "version = ", 10) ||
	    (!strncmp(line, "CPU ", 4) && strstr(line, " is empty")))
		return 0;
	if (line_head(line, &cpu, &t, &event, &f))
		return fail(r, "expected 'COMM-PID [CPU] SECONDS.FRACTION: EVENT: FIELDS'");
	if (strstr(f, "[LOST") || strstr(event, "LOST"))
		return fail(r, "events were lost: record with a larger buffer");
	if (r->ended)
		return fail(r, "%s after lsb_end", event);
	if (r->any && t < r->t_last)
		return fail(r, "%s: time %llu.%09llu is before the line above's",
			    event, (unsigned long long)(t / 1000000000ULL),
			    (unsigned long long)(t % 1000000000ULL));
	if (!r->any)
		r->t_first = t;
	r->any = 1;
	r->t_last = t;
	if (cpu_ok(r, event, cpu))
		return SIM_SCORE_BAD;
	for (k = 0; k < 4; k++)
		if (!strcmp(event, sched[k]))
			break;
	if (k < 4) {
		r->nr_sched++;
		e = ev_new(r, k, t, cpu);
		return k == EV_SWITCH ? parse_switch(r, e, f) :
		       parse_wakeup(r, e, event, f);
	}
	if (!strcmp(event, "sched_waking")) {
		/* read and checked; the scores count from sched_wakeup */
		e = ev_new(r, EV_WAKING, t, cpu);
		return parse_wakeup(r, e, event, f);
	}
	if (!strcmp(event, "cpu_idle") || !strcmp(event, "cpu_frequency")) {
		long long state;

		e = ev_new(r, event[4] == 'i' ? EV_IDLE : EV_FREQ, t, cpu);
		if (num(r, event, f, "state", &state) ||
		    num_int(r, event, f, "cpu_id", &e->cpu) ||
		    cpu_ok(r, event, e->cpu))
			return SIM_SCORE_BAD;
		if (state < 0 || state > 0xffffffffLL)
			return fail(r, "%s: state=%lld: out of range", event, state);
		/* PWR_EVENT_EXIT, (u32)-1: left idle */
		e->arg = state == 0xffffffffLL ? -1 : (int)state;
		return 0;
	}
	if (!strncmp(event, "lsb_", 4)) {
		e = ev_new(r, EV_TASK, t, cpu);
		return parse_lsb(r, e, event, f);
	}
	return 0;	/* the rest: not scored */
}

/* ---- which tasks are the workload's (a real kernel's trace) ---- */

/* The workload task a name or comm is: "hog", "hog-3", cut to 15 bytes. */
static int wl_task(const struct workload *wl, const char *name)
{
	int i;

	for (i = 0; wl && i < wl->nr_tasks; i++) {
		const struct workload_task *w = &wl->tasks[i];
		const char *def = w->def >= 0 && w->def < wl->nr_defs ?
				  wl->defs[w->def].name : w->name;
		size_t n = strlen(name);

		if (!strcmp(name, w->name) || !strcmp(name, def) ||
		    (n == 15 && (!strncmp(name, w->name, 15) ||
				 !strncmp(name, def, 15))))
			return i;
	}
	return -1;
}

/*
 * Not a task of anybody's workload: the idle tasks, kernel threads, the
 * tracer and the shell around it (sim.h says the rule).
 */
static int system_comm(const char *c)
{
	static const char *const prefix[] = {
		"swapper/", "migration/", "ksoftirqd/", "kworker/", "rcu_",
		"rcuc/", "rcuog/", "rcuop/", "rcub/", "cpuhp/", "idle_inject/",
		"irq/", "watchdog/", "jbd2/", "kcompactd", "kswapd",
	};
	static const char *const exact[] = {
		"swapper", "<idle>", "kthreadd", "khugepaged", "ksmd",
		"kauditd", "oom_reaper", "writeback", "kblockd", "kdevtmpfs",
		"pool_workqueue_", "trace-cmd", "rt-app", "bash", "sh", "dash",
		"sleep", "cat", "timeout", "init", "systemd",
	};
	size_t i;

	if (!*c)
		return 1;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(c, prefix[i], strlen(prefix[i])))
			return 1;
	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(c, exact[i]))
			return 1;
	return 0;
}

/* Pick the workload's tasks; the window [*from, *to] of the trace. */
static void infer(struct reader *r, uint64_t *from, uint64_t *to)
{
	const struct workload *wl = r->o->wl;
	int i, any = 0;

	*from = r->t_first;
	*to = r->t_last;
	for (i = 0; i < r->nr_task; i++) {
		struct ptask *p = &r->task[i];

		if (p->pid <= 0)
			continue;
		snprintf(p->name, sizeof(p->name), "%s", p->comm);
		p->wl = wl_task(wl, p->comm);
		p->known = wl ? p->wl >= 0 : !system_comm(p->comm);
		if (!p->known || !wl)
			continue;
		if (!any || p->first < *from)
			*from = p->first;
		if (!any || p->last > *to)
			*to = p->last;
		any = 1;
	}
}

/* Dense ids in pid order when pids are large (metrics keeps an array). */
static void dense_ids(struct reader *r)
{
	int *pids, i, max = 0, n = 0;

	for (i = 0; i < r->nr_task; i++)
		if (r->task[i].pid > max)
			max = r->task[i].pid;
	if (max < 65536)
		return;
	pids = grow(NULL, (size_t)r->nr_task + 1, sizeof(int));
	for (i = 0; i < r->nr_task; i++)
		pids[n++] = r->task[i].pid;
	for (i = 1; i < n; i++) {	/* insertion sort: mostly in order */
		int v = pids[i], j = i;

		for (; j > 0 && pids[j - 1] > v; j--)
			pids[j] = pids[j - 1];
		pids[j] = v;
	}
	for (i = 0; i < n; i++)
		ptask_find(r, pids[i])->id = pids[i] ? i + !pids[0] : 0;
	free(pids);
}

/* ---- the replay ---- */

struct replay {
	struct reader *r;
	struct metrics m;
	struct power pw;
	uint64_t from, to;
	char *idle;		/* per CPU */
	int *curr;		/* per CPU: the trace's pid running, -1: unknown */
	int gaps;
	uint64_t first_gap;	/* the trace's time */
};

/*
 * The power state of a cpu_idle's state: the topology's own index in a
 * simulation that ran without a cpuidle driver (--cpuidle sim or poll);
 * else the driver's, as a real kernel's trace has it and as the
 * simulator's arch driver registers them: a POLL state first (a busy CPU,
 * spinning) unless the type has none, then the topology's.
 */
static int idle_state(const struct replay *y, const struct ev *e)
{
	const struct topology *t = y->r->o->topo;
	const struct topology_type *ty = &t->types[t->cpu[e->cpu].type];
	int k;

	if (!ty->nr_states)
		return 0;
	if (y->r->ours && !y->r->driver_idle)
		return e->arg;
	k = ty->no_polling_state ? e->arg : e->arg - 1;
	if (k < 0)
		return POWER_BUSY;
	return k < ty->nr_states ? k : ty->nr_states - 1;
}

static int id_of(struct replay *y, int pid)
{
	struct ptask *p = pid > 0 ? ptask_find(y->r, pid) : NULL;

	return p ? p->id : pid;
}

/* A fair task's weight of a prio: nice = prio - 120. */
static unsigned int prio_weight(int prio)
{
	return prio >= 100 && prio < 140 ? metrics_nice_weight(prio - 120) :
	       1024;
}

/* A real trace's workload task, before its first event: scored from here. */
static void tell(struct replay *y, struct ptask *p, uint64_t now, int prio)
{
	const struct workload *wl = y->r->o->wl;
	const struct workload_task *w = p->wl >= 0 ? &wl->tasks[p->wl] : NULL;
	int cls = prio >= 0 && prio < 100 ? METRICS_RT :
		  prio == -1 ? METRICS_RT : METRICS_FAIR;
	int cpus[WORKLOAD_MAX_CPUS], n = 0, i;

	p->told = 1;
	p->prio = prio;
	for (i = 0; w && i < w->nr_cpus; i++)
		if (w->cpus[i] < y->r->o->topo->nr_cpus)
			cpus[n++] = w->cpus[i];
	metrics_task(&y->m, now, p->id, cls,
		     cls == METRICS_FAIR ? prio_weight(prio) : 1024, n, cpus);
}

/* A real trace: a task's prio as an event shows it. */
static void seen(struct replay *y, int pid, int prio, uint64_t now)
{
	struct ptask *p;

	if (y->r->ours || pid <= 0 || !(p = ptask_find(y->r, pid)) ||
	    !p->known)
		return;
	if (!p->told) {
		tell(y, p, now, prio);
	} else if (prio != -2 && prio != p->prio) {
		if (prio >= 100 && p->prio >= 100)
			metrics_weight(&y->m, now, p->id, prio_weight(prio));
		p->prio = prio;
	}
}

/* The trace put another task than @prev on @cpu: events are missing. */
static void gap(struct replay *y, int cpu, int prev, uint64_t t)
{
	struct ptask *p;

	if (!y->gaps++)
		y->first_gap = t;
	if (y->curr[cpu] > 0 && (p = ptask_find(y->r, y->curr[cpu])))
		p->gaps++;
	if (prev > 0 && (p = ptask_find(y->r, prev)))
		p->gaps++;
}

/*
 * @cpu switches from @prev to @next. The time since the CPU's last switch
 * is its current task's: when that is not @prev, the switch that put @prev
 * there is missing, and @prev's time from it unknown.
 */
static void run_time(struct replay *y, int cpu, int prev, int next,
		     uint64_t now, uint64_t t)
{
	struct ptask *p;

	if (y->curr[cpu] >= 0 && y->curr[cpu] != prev)
		gap(y, cpu, prev, t);
	if (y->curr[cpu] > 0 && (p = ptask_find(y->r, y->curr[cpu])) &&
	    p->running) {
		p->cpu_ns += now - p->since;
		p->running = 0;
	}
	y->curr[cpu] = next;
	if (next > 0 && (p = ptask_find(y->r, next))) {
		p->running = 1;
		p->since = now;
	}
}

/*
 * @e, and in *@blocked the lsb_prev_blocked line just before it (NULL:
 * none): a switch whose prev reads R but that line names blocked or held
 */
static void replay_one(struct replay *y, const struct ev *e,
		       const struct ev **blocked)
{
	uint64_t now = e->t < y->from ? 0 : e->t - y->from;
	const struct topology_type *ty;
	struct ptask *p;

	switch (e->kind) {
	case EV_SWITCH:
		seen(y, e->arg, e->prio2, now);
		seen(y, e->pid, e->prio, now);
		metrics_event(&y->m, now, METRICS_EV_SWITCH, e->cpu,
			      id_of(y, e->pid), id_of(y, e->arg),
			      !e->state ? METRICS_PREV_BLOCKED :
			      !*blocked || (*blocked)->pid != e->arg ?
			      METRICS_PREV_RUNNABLE : (*blocked)->arg ?
			      METRICS_PREV_HELD : METRICS_PREV_BLOCKED);
		*blocked = NULL;
		run_time(y, e->cpu, e->arg, e->pid, now, e->t);
		break;
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_MIGRATE:
		seen(y, e->pid, e->prio, now);
		metrics_event(&y->m, now, e->kind, e->cpu, id_of(y, e->pid),
			      e->arg, 0);
		break;
	case EV_IDLE:
		if (e->arg >= 0 && !y->idle[e->cpu])
			power_idle(&y->pw, now, e->cpu, idle_state(y, e));
		else if (e->arg < 0 && y->idle[e->cpu])
			power_idle(&y->pw, now, e->cpu, POWER_BUSY);
		y->idle[e->cpu] = e->arg >= 0;
		break;
	case EV_FREQ:
		power_freq(&y->pw, now, e->cpu, (uint64_t)(unsigned int)e->arg);
		break;
	case EV_WAKING:
		break;
	case EV_TASK:
		p = ptask_find(y->r, e->pid);
		p->told = 1;
		metrics_task(&y->m, now, p->id, e->state, (unsigned int)e->arg,
			     e->nr_cpus, e->cpus);
		break;
	case EV_AFFINITY:
		metrics_affinity(&y->m, now, id_of(y, e->pid), e->nr_cpus,
				 e->cpus);
		break;
	case EV_WEIGHT:
		metrics_weight(&y->m, now, id_of(y, e->pid),
			       (unsigned int)e->arg);
		break;
	case EV_BLOCKED:
		*blocked = e;
		break;
	case EV_THROTTLE:
	case EV_UNTHROTTLE:
		metrics_event(&y->m, now, e->kind == EV_THROTTLE ?
			      METRICS_EV_THROTTLE : METRICS_EV_UNTHROTTLE,
			      e->cpu, id_of(y, e->pid), e->cpu, 0);
		break;
	case EV_OFFLINE:
		ty = &y->r->o->topo->types[y->r->o->topo->cpu[e->cpu].type];
		power_idle(&y->pw, now, e->cpu,
			   ty->nr_states ? ty->nr_states - 1 : 0);
		y->idle[e->cpu] = 1;
		metrics_event(&y->m, now, METRICS_EV_SWITCH, e->cpu, 0,
			      id_of(y, e->arg), 0);
		run_time(y, e->cpu, y->curr[e->cpu], 0, now, e->t);
		break;
	case EV_ONLINE:
		power_idle(&y->pw, now, e->cpu, POWER_BUSY);
		y->idle[e->cpu] = 0;
		break;
	}
}

static const char *score_task_name(const void *ctx, int id)
{
	const struct sim_score *s = ctx;
	int i;

	for (i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].id == id)
			return s->tasks[i].name;
	return "";
}

static int score_task_pid(const void *ctx, int id)
{
	const struct sim_score *s = ctx;
	int i;

	for (i = 0; i < s->nr_ids; i++)
		if (s->ids[i] == id)
			return s->id_pids[i];
	return id;
}

static void results(struct replay *y, struct sim_score *out)
{
	struct reader *r = y->r;
	const struct workload *wl = r->o->wl;
	int i;

	out->tasks = grow(NULL, (size_t)r->nr_task + 1, sizeof(*out->tasks));
	out->ids = grow(NULL, (size_t)r->nr_task + 1, sizeof(int));
	out->id_pids = grow(NULL, (size_t)r->nr_task + 1, sizeof(int));
	for (i = 0; i < r->nr_task; i++) {
		struct ptask *p = &r->task[i];
		struct sim_score_task *t;

		out->ids[out->nr_ids] = p->id;
		out->id_pids[out->nr_ids++] = p->pid;
		if (p->running)
			p->cpu_ns += out->duration_ns - p->since;
		if (!p->known || p->pid <= 0)
			continue;
		t = &out->tasks[out->nr_tasks++];
		snprintf(t->name, sizeof(t->name), "%s", p->name);
		t->pid = p->pid;
		t->id = p->id;
		t->cpu_ns = p->cpu_ns;
		t->gaps = p->gaps;
		t->group = 0;
		if (p->wl < 0)
			p->wl = wl_task(wl, p->name);
		if (p->wl >= 0)
			t->group = wl->tasks[p->wl].group;
	}
	out->run.energy_j = out->power.energy_j;
	out->run.mean_power_w = out->power.mean_power_w;
	out->run.duration_ns = out->duration_ns;
	out->run.kernel_warnings = r->warnings;
	out->gaps = y->gaps;
	out->first_gap_ns = y->first_gap;
	/* a real trace: the tasks' CPU time, as at capacity 1024 */
	if (r->ours) {
		out->run.work_ns = (double)r->work_ns;
	} else {
		for (i = 0; i < out->nr_tasks; i++)
			out->run.work_ns += (double)out->tasks[i].cpu_ns;
	}
	out->run.task_name = score_task_name;
	out->run.task_pid = score_task_pid;
	out->run.ctx = out;
}

static int replay(struct reader *r, struct sim_score *out)
{
	struct replay y = { .r = r };
	const struct ev *blocked = NULL;
	size_t i;

	if (r->ours) {
		if (!r->ended)
			return fail(r, "a simulation's trace without its lsb_end line: cut short?");
		/* --no-metrics: the simulator told no scores its tasks */
		if (!r->nr_lsb_tasks)
			return fail(r, "a simulation's trace without lsb_task lines: was it run with --no-metrics?");
		y.from = 0;
		y.to = r->end_ns;
	} else {
		infer(r, &y.from, &y.to);
		dense_ids(r);
	}
	out->ours = r->ours;
	out->start_ns = y.from;
	out->duration_ns = y.to - y.from;
	y.idle = grow(NULL, (size_t)r->o->topo->nr_cpus, 1);
	y.curr = grow(NULL, (size_t)r->o->topo->nr_cpus, sizeof(int));
	memset(y.idle, 0, (size_t)r->o->topo->nr_cpus);
	memset(y.curr, 0xff, (size_t)r->o->topo->nr_cpus * sizeof(int));
	metrics_init(&y.m, r->o->topo);
	metrics_limits(&y.m, r->o->window_ns, r->o->starvation_ns);
	power_init(&y.pw, r->o->topo, 0);
	for (i = 0; i < r->nr_ev && r->ev[i].t <= y.to; i++)
		replay_one(&y, &r->ev[i], &blocked);
	metrics_finish(&y.m, out->duration_ns, &out->metrics);
	power_finish(&y.pw, out->duration_ns, &out->power);
	results(&y, out);
	metrics_release(&y.m);
	power_release(&y.pw);
	free(y.idle);
	free(y.curr);
	return 0;
}

int sim_score_trace(FILE *f, const char *path,
		    const struct sim_score_opts *o, struct sim_score *out,
		    char *err, size_t errlen)
{
	struct reader r = { .path = path, .o = o, .err = err,
			    .errlen = errlen };
	char *line = NULL;
	size_t cap = 0, i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	while (getline(&line, &cap, f) >= 0) {
		r.line++;
		if ((ret = parse_line(&r, line)))
			break;
	}
	if (!ret && ferror(f)) {
		snprintf(err, errlen, "trace '%s': cannot read: %s", path,
			 strerror(errno));
		ret = SIM_SCORE_IO;
	}
	if (!ret && !r.nr_sched) {
		snprintf(err, errlen, "trace '%s': no scheduler events (%d lines): expected sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task lines in ftrace's text format",
			 path, r.line);
		ret = SIM_SCORE_BAD;
	}
	if (!ret)
		ret = replay(&r, out);
	free(line);
	for (i = 0; i < r.nr_ev; i++)
		free(r.ev[i].cpus);
	free(r.ev);
	free(r.task);
	free(r.hash);
	return ret;
}

void sim_score_release(struct sim_score *s)
{
	power_result_release(&s->power);
	free(s->tasks);
	free(s->ids);
	free(s->id_pids);
	memset(s, 0, sizeof(*s));
}
