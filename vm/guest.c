// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/guest.c - a workload as the guest runs it: rt-app's JSON (one task a
 * thread, nothing of our extensions) and the busybox /init around it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/common.h"

#include "workloads/workloads.h"
#include "vm/vm.h"
#include "vm/vm_internal.h"

/* A growing string: a memory stream, as the rest of the house makes text. */
struct sb {
	FILE *f;
	char *s;
	size_t len;
};

static int sb_open(struct sb *b)
{
	b->s = NULL;
	b->len = 0;
	b->f = open_memstream(&b->s, &b->len);
	return b->f ? 0 : vm_error(VM_EIO, "out of memory");
}

#define sb_printf(b, ...) fprintf((b)->f, __VA_ARGS__)

/* The string (malloc()ed), or NULL when memory ran out. */
static char *sb_close(struct sb *b)
{
	int bad = ferror(b->f);

	if (fclose(b->f) || bad) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

/* @s in single quotes for sh. */
static void sb_quote(struct sb *b, const char *s)
{
	sb_printf(b, "'");
	for (; *s; s++) {
		if (*s == '\'')
			sb_printf(b, "'\\''");
		else
			sb_printf(b, "%c", *s);
	}
	sb_printf(b, "'");
}

struct gen {
	const struct workload *wl;
	const int *guest_cpu;	/* the vCPU of each topology CPU */
	char *err;
	size_t len;
	const char *task;	/* for messages */
};

__attribute__((format(printf, 2, 3)))
static int refuse(struct gen *g, const char *fmt, ...)
{
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (g->task)
		snprintf(g->err, g->len, "workload '%s': task '%s': %s",
			 g->wl->spec, g->task, what);
	else
		snprintf(g->err, g->len, "workload '%s': %s", g->wl->spec,
			 what);
	return VM_EUSAGE;
}

/* rt-app's microseconds, or -1 when @ns is not a whole number of them. */
static double us_of(struct gen *g, const char *key, uint64_t ns)
{
	if (ns % 1000) {
		refuse(g, "'%s': %" PRIu64 " ns is not a whole number of microseconds, which rt-app takes",
		       key, ns);
		return -1;
	}
	return (double)(ns / 1000);
}

static int add_us(struct gen *g, cJSON *o, const char *key, const char *what,
		  uint64_t ns)
{
	double us = us_of(g, what, ns);

	if (us < 0)
		return VM_EUSAGE;
	return cJSON_AddNumberToObject(o, key, us) ? 0 : VM_EIO;
}

static const char *const event_names[] = {
	[WL_EV_RUN] = "run", [WL_EV_RUNTIME] = "runtime",
	[WL_EV_SLEEP] = "sleep", [WL_EV_TIMER] = "timer",
	[WL_EV_LOCK] = "lock", [WL_EV_UNLOCK] = "unlock",
	[WL_EV_WAIT] = "wait", [WL_EV_SIGNAL] = "signal",
	[WL_EV_BROAD] = "broad", [WL_EV_SYNC] = "sync",
	[WL_EV_BARRIER] = "barrier", [WL_EV_SUSPEND] = "suspend",
	[WL_EV_RESUME] = "resume", [WL_EV_YIELD] = "yield",
	[WL_EV_FORK] = "fork", [WL_EV_SET_AFFINITY] = "unpin",
};

/* One event as rt-app's "<type><n>" key (rt-app matches the start). */
static int add_event(struct gen *g, cJSON *ph, const struct workload_event *e,
		     int n)
{
	const struct workload_resource *res = g->wl->res;
	char key[64];
	cJSON *o;

	snprintf(key, sizeof(key), "%s%d", event_names[e->type], n);
	switch (e->type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		if (e->len.kind != WL_DIST_FIXED)
			return refuse(g, "'%s': a length drawn from a distribution (lsb-run, lsb-sleep, random) is not rt-app's",
				      e->key);
		/* a hog's one endless run: rt-app loops 1 s runs */
		if (e->len.a >= UINT64_MAX / 4)
			return cJSON_AddNumberToObject(ph, key, 1000000) ? 0 : VM_EIO;
		return add_us(g, ph, key, e->key, e->len.a);
	case WL_EV_TIMER:
		o = cJSON_AddObjectToObject(ph, key);
		if (!o || !cJSON_AddStringToObject(o, "ref", res[e->res].name) ||
		    !cJSON_AddStringToObject(o, "mode", res[e->res].absolute ?
					     "absolute" : "relative"))
			return VM_EIO;
		return add_us(g, o, "period", e->key, e->len.a);
	case WL_EV_WAIT:
	case WL_EV_SYNC:
		o = cJSON_AddObjectToObject(ph, key);
		if (!o || !cJSON_AddStringToObject(o, "ref", res[e->res].name) ||
		    !cJSON_AddStringToObject(o, "mutex", res[e->dep].name))
			return VM_EIO;
		return 0;
	case WL_EV_LOCK:
	case WL_EV_UNLOCK:
	case WL_EV_SIGNAL:
	case WL_EV_BROAD:
	case WL_EV_BARRIER:
	case WL_EV_SUSPEND:
	case WL_EV_RESUME:
		return cJSON_AddStringToObject(ph, key, res[e->res].name) ?
		       0 : VM_EIO;
	case WL_EV_YIELD:
		return cJSON_AddStringToObject(ph, key, "") ? 0 : VM_EIO;
	case WL_EV_FORK:
		return refuse(g, "'%s': fork is not run in the VM (its tasks would start in no group and outside the measured threads)",
			      e->key);
	case WL_EV_SET_AFFINITY:
		return refuse(g, "'unpin': rt-app has no affinity change of its own; give the task a phase with 'cpus' instead");
	}
	return refuse(g, "'%s': unknown event", e->key);
}

/* An affinity, in the guest's numbering. */
static int add_cpus(const struct gen *g, cJSON *o, const int *cpus, int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, "cpus");
	int i;

	for (i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a,
				cJSON_CreateNumber(g->guest_cpu[cpus[i]])))
			return VM_EIO;
	return a ? 0 : VM_EIO;
}

static int add_phase(struct gen *g, cJSON *phases,
		     const struct workload_task *t,
		     const struct workload_phase *ph)
{
	cJSON *o = cJSON_AddObjectToObject(phases, ph->name);
	int i, ret;

	if (!o)
		return VM_EIO;
	if (ph->group && ph->group != t->group)
		return refuse(g, "phase '%s': 'taskgroup' '%s': /init places a thread in its group once, at the start; a phase cannot move it in the VM",
			      ph->name, g->wl->groups[ph->group - 1].path);
	if (!cJSON_AddNumberToObject(o, "loop", (double)ph->loop))
		return VM_EIO;
	if (ph->nr_cpus && add_cpus(g, o, ph->cpus, ph->nr_cpus))
		return VM_EIO;
	if (ph->set_nice && !cJSON_AddNumberToObject(o, "priority", ph->nice))
		return VM_EIO;
	for (i = 0; i < ph->nr_events; i++) {
		ret = add_event(g, o, &ph->events[i], i);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *policy_name(int policy)
{
	static const char *const names[] = {
		"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH",
		"SCHED_ISO", "SCHED_IDLE", "SCHED_DEADLINE",
	};

	return policy >= 0 && policy <= 6 ? names[policy] : "SCHED_OTHER";
}

/* One instance as an rt-app task of one instance named @name. */
static int add_task(struct gen *g, cJSON *tasks, const struct workload_task *t,
		    const char *name)
{
	cJSON *o = cJSON_AddObjectToObject(tasks, name), *phases;
	int fair = t->policy == 0 || t->policy == 3 || t->policy == 5;
	int i, ret = 0;

	if (!o || !cJSON_AddNumberToObject(o, "instance", 1) ||
	    !cJSON_AddStringToObject(o, "policy", policy_name(t->policy)) ||
	    !cJSON_AddNumberToObject(o, "priority", fair ? t->nice : t->prio) ||
	    !cJSON_AddNumberToObject(o, "loop", (double)t->loop))
		return VM_EIO;
	if (t->delay_ns)
		ret = add_us(g, o, "delay", "delay", t->delay_ns);
	if (!ret && t->dl_runtime_ns)
		ret = add_us(g, o, "dl-runtime", "dl-runtime", t->dl_runtime_ns);
	if (!ret && t->dl_period_ns)
		ret = add_us(g, o, "dl-period", "dl-period", t->dl_period_ns);
	if (!ret && t->dl_deadline_ns)
		ret = add_us(g, o, "dl-deadline", "dl-deadline", t->dl_deadline_ns);
	if (!ret && t->nr_cpus)
		ret = add_cpus(g, o, t->cpus, t->nr_cpus);
	if (!ret && t->util_min >= 0 &&
	    !cJSON_AddNumberToObject(o, "util_min", t->util_min))
		ret = VM_EIO;
	if (!ret && t->util_max >= 0 &&
	    !cJSON_AddNumberToObject(o, "util_max", t->util_max))
		ret = VM_EIO;
	if (ret)
		return ret;
	phases = cJSON_AddObjectToObject(o, "phases");
	if (!phases)
		return VM_EIO;
	for (i = 0; i < t->nr_phases && !ret; i++)
		ret = add_phase(g, phases, t, &t->phases[i]);
	return ret;
}

/*
 * The thread name rt-app gives instance @i: its own name when the kernel's
 * comm holds it whole (15 bytes) and no other task has it; else "lsb<i>".
 */
static void comm_of(const struct workload *wl, int i, char out[16])
{
	const char *name = wl->tasks[i].name;
	int j;

	if (strlen(name) <= 15 && strcmp(name, "rt-app") &&
	    strncmp(name, "lsb", 3)) {
		for (j = 0; j < wl->nr_tasks; j++)
			if (j != i && !strcmp(wl->tasks[j].name, name))
				break;
		if (j == wl->nr_tasks) {
			snprintf(out, 16, "%s", name);
			return;
		}
	}
	snprintf(out, 16, "lsb%d", i);
}

static int make_rtapp(struct gen *g, struct vm_guest *out, uint64_t dur_ns)
{
	const struct workload *wl = g->wl;
	cJSON *root = cJSON_CreateObject(), *glob, *tasks;
	char comm[16];
	int i, ret = 0;

	glob = cJSON_AddObjectToObject(root, "global");
	/* the window plus the start; /init stops rt-app at the window's end */
	if (!glob ||
	    !cJSON_AddNumberToObject(glob, "duration",
				     (double)(dur_ns / 1000000000 + 600)) ||
	    !cJSON_AddStringToObject(glob, "calibration", "CPU0") ||
	    !cJSON_AddStringToObject(glob, "default_policy", "SCHED_OTHER") ||
	    !cJSON_AddBoolToObject(glob, "pi_enabled", wl->pi_enabled) ||
	    !cJSON_AddStringToObject(glob, "logdir", "/tmp") ||
	    !cJSON_AddStringToObject(glob, "log_size", "disable"))
		ret = VM_EIO;
	tasks = ret ? NULL : cJSON_AddObjectToObject(root, "tasks");
	if (!tasks)
		ret = VM_EIO;
	for (i = 0; !ret && i < wl->nr_defs; i++)
		if (!wl->defs[i].instances) {
			g->task = wl->defs[i].name;
			ret = refuse(g, "a template for fork (instance 0) is not run in the VM");
		}
	for (i = 0; !ret && i < wl->nr_tasks; i++) {
		g->task = wl->tasks[i].name;
		comm_of(wl, i, comm);
		ret = add_task(g, tasks, &wl->tasks[i], comm);
	}
	g->task = NULL;
	if (!ret) {
		out->rtapp = lsb_json_print(root, 1);
		if (!out->rtapp)
			ret = VM_EIO;
	}
	cJSON_Delete(root);
	return ret;
}

/*
 * A control file and its value as cgroup v1's cpu controller takes them
 * (the guest mounts v1: threads of one process in several groups).
 * Several writes for cpu.max; return their number, or VM_EUSAGE.
 */
static int v1_writes(struct gen *g, const char *path,
		     const struct workload_setting *s, char file[2][32],
		     char value[2][96])
{
	char a[96];
	long q, p;

	if (!strcmp(s->file, "cpu.weight")) {
		long w = strtol(s->value, NULL, 10);

		/* the kernel's sched_weight_from_cgroup(): w * 1024 / 100 */
		snprintf(file[0], 32, "cpu.shares");
		snprintf(value[0], 96, "%ld", (w * 1024 + 50) / 100);
		return 1;
	}
	if (!strcmp(s->file, "cpu.max")) {
		if (sscanf(s->value, "%95s %ld", a, &p) != 2)
			return refuse(g, "group '%s': 'cpu.max' '%s': expected \"QUOTA PERIOD\" or \"max PERIOD\"",
				      path, s->value);
		q = strcmp(a, "max") ? strtol(a, NULL, 10) : -1;
		snprintf(file[0], 32, "cpu.cfs_period_us");
		snprintf(value[0], 96, "%ld", p);
		snprintf(file[1], 32, "cpu.cfs_quota_us");
		snprintf(value[1], 96, "%ld", q);
		return 2;
	}
	if (!strcmp(s->file, "cpu.max.burst")) {
		snprintf(file[0], 32, "cpu.cfs_burst_us");
		snprintf(value[0], 96, "%s", s->value);
		return 1;
	}
	if (!strcmp(s->file, "cpu.weight.nice") || !strncmp(s->file, "cpuset.", 7))
		return refuse(g, "group '%s': '%s': not written in the VM (its /init mounts cgroup v1's cpu controller alone)",
			      path, s->file);
	/* cpu.shares, cpu.cfs_*, cpu.idle, cpu.uclamp.*: the same in v1 */
	snprintf(file[0], 32, "%s", s->file);
	snprintf(value[0], 96, "%s", s->value);
	return 1;
}

/* "echo VALUE > /cg/PATH/FILE", its failure said and fatal. */
static int group_write(struct gen *g, struct sb *b, const char *path,
		       const struct workload_setting *s, const char *log)
{
	char file[2][32], value[2][96], full[WORKLOAD_GROUP_PATH_MAX + 40];
	int n = v1_writes(g, path, s, file, value), i;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		snprintf(full, sizeof(full), "/cg%s/%s",
			 strcmp(path, "/") ? path : "", file[i]);
		sb_printf(b, "\twr ");
		sb_quote(b, full);
		sb_printf(b, " ");
		sb_quote(b, value[i]);
		sb_printf(b, " %s\n", log);
	}
	return 0;
}

static const char init_head[] =
"#!/bin/busybox sh\n"
"# generated by linsched vm: the workload's run in the guest\n"
"/bin/busybox --install -s /bin\n"
"export PATH=/bin\n"
"mount -t proc proc /proc\n"
"mount -t sysfs sysfs /sys\n"
"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
"# the initramfs has no /dev/console of its own (made without root)\n"
"exec </dev/console >/dev/console 2>&1\n"
"mount -t tmpfs tmpfs /tmp\n"
"mkdir -p /out /cg\n"
"read up rest </proc/uptime\n"
"echo \"lsb-vm: init at $up s\" >/dev/console\n"
"echo \"$up\" >/out/init_uptime\n"
"T=/sys/kernel/tracing\n"
"mount -t tracefs nodev $T\n"
"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
"mount -t cgroup -o cpu cpu /cg\n"
"# the end: results as a tar stream on the raw disk, then off\n"
"finish() {\n"
"\t[ -n \"$1\" ] && echo \"$1\" >/out/error && echo \"lsb-vm: error: $1\" >/dev/console\n"
"\techo 0 >$T/tracing_on\n"
"\tcat $T/trace >/out/trace.txt\n"
"\tfor g in $GROUPS; do echo \"== $g\"; cat /cg$g/cpu.stat; done >/out/cgroups 2>&1\n"
"\tdmesg >/out/dmesg\n"
"\ttar -cf /dev/vda -C /out . && sync\n"
"\techo 'lsb-vm: done' >/dev/console\n"
"\treboot -f\n"
"}\n"
"# wr FILE VALUE [LOG]: a control-file write; at boot a failure ends the run\n"
"wr() {\n"
"\tif echo \"$2\" >\"$1\" 2>/tmp/wr.err; then\n"
"\t\t[ -n \"$3\" ] && echo \"$3 ok $1 $2\" >>/out/events\n"
"\telif [ -n \"$3\" ]; then\n"
"\t\techo \"$3 error $1 $2: $(cat /tmp/wr.err)\" >>/out/events\n"
"\telse\n"
"\t\tfinish \"cannot write '$2' to '$1': $(cat /tmp/wr.err)\"\n"
"\tfi\n"
"}\n";

static const char init_trace[] =
"# the files --write names, in order, and what each reads back\n"
"if [ -r /writes ]; then\n"
"\twhile read -r f v; do\n"
"\t\twr \"$f\" \"$v\"\n"
"\t\techo \"$f: $(tr '\\n' ' ' <\"$f\" 2>&1)\" >>/out/writes\n"
"\tdone </writes\n"
"fi\n"
"wr $T/buffer_size_kb $BUF\n"
"for e in sched/sched_switch sched/sched_waking sched/sched_wakeup \\\n"
"\t sched/sched_wakeup_new sched/sched_migrate_task power/cpu_idle \\\n"
"\t power/cpu_frequency; do\n"
"\twr $T/events/$e/enable 1\n"
"done\n"
"echo 0 >$T/tracing_on\n"
"echo >$T/trace\n"
"cd /tmp\n"
"rt-app /w.json >/out/rt-app.log 2>&1 &\n"
"RT=$!\n"
"# rt-app calibrates, then starts its threads, which name themselves\n"
"# TID NS CPU COMM: CPU the last one it ran on (stat's 39th field)\n"
"snap() {\n"
"\tfor d in /proc/$RT/task/*; do\n"
"\t\t[ \"${d##*/}\" = \"$RT\" ] && continue\n"
"\t\tread c <$d/comm 2>/dev/null || continue\n"
"\t\tread ns rest <$d/schedstat 2>/dev/null || continue\n"
"\t\tread st <$d/stat 2>/dev/null || continue\n"
"\t\tset -- ${st##*) }\n"
"\t\techo \"${d##*/} $ns ${37:--1} $c\"\n"
"\tdone\n"
"}\n"
"n=0\n"
"while :; do\n"
"\tplaced=0\n"
"\tfor d in /proc/$RT/task/*; do\n"
"\t\tread c <$d/comm 2>/dev/null || continue\n"
"\t\tgroup_of \"$c\" >/dev/null && placed=$((placed + 1))\n"
"\tdone\n"
"\t[ $placed -ge $NTASKS ] && break\n"
"\t[ -d /proc/$RT ] || finish \"rt-app ended before its threads started: $(tail -n 3 /out/rt-app.log)\"\n"
"\tn=$((n + 1))\n"
"\t[ $n -gt 6000 ] && finish \"rt-app started $placed of $NTASKS threads in 600 s\"\n"
"\tsleep 0.1\n"
"done\n"
"for d in /proc/$RT/task/*; do\n"
"\tread c <$d/comm 2>/dev/null || continue\n"
"\tg=$(group_of \"$c\") || continue\n"
"\t[ \"$g\" = / ] || wr /cg$g/tasks ${d##*/}\n"
"\techo \"${d##*/} $g $c\" >>/out/threads\n"
"done\n"
"echo 1 >$T/tracing_on\n"
"echo 'lsb-vm: window start' >$T/trace_marker\n"
"read up0 rest </proc/uptime\n"
"snap >/out/start\n"
"echo 'lsb-vm: window' >/dev/console\n";

static const char init_tail[] =
"sleep $WINDOW\n"
"read up1 rest </proc/uptime\n"
"snap >/out/end\n"
"echo 'lsb-vm: window end' >$T/trace_marker\n"
"echo 0 >$T/tracing_on\n"
"echo \"$up0 $up1\" >/out/window\n"
"[ -n \"$EV\" ] && kill $EV 2>/dev/null\n"
"kill $RT 2>/dev/null\n"
"wait $RT\n"
"finish\n";

/* The workload's timed events, in a background shell from the window. */
static int events(struct gen *g, struct sb *b)
{
	const struct workload *wl = g->wl;
	uint64_t now = 0;
	char log[64];
	int i, ret;

	if (!wl->nr_sysevents)
		return 0;
	sb_printf(b, "(\n");
	for (i = 0; i < wl->nr_sysevents; i++) {
		const struct workload_sysevent *e = &wl->sysevents[i];

		if (e->time_ns > now)
			sb_printf(b, "\tsleep %.6f\n", (e->time_ns - now) / 1e9);
		now = e->time_ns;
		snprintf(log, sizeof(log), "%.6f", e->time_ns / 1e9);
		if (e->type == WL_SYS_WRITE) {
			ret = group_write(g, b, wl->groups[e->group].path,
					  &e->set, log);
			if (ret)
				return ret;
		} else {
			char f[80];

			snprintf(f, sizeof(f),
				 "/sys/devices/system/cpu/cpu%d/online",
				 g->guest_cpu[e->cpu]);
			sb_printf(b, "\twr %s %d %s\n", f,
				  e->type == WL_SYS_CPU_UP, log);
		}
	}
	sb_printf(b, ") &\nEV=$!\n");
	return 0;
}

static int make_init(struct gen *g, struct vm_guest *out, uint64_t dur_ns,
		     int nr_cpus)
{
	const struct workload *wl = g->wl;
	struct sb b;
	char comm[16];
	int i, j, ret = 0;

	if (sb_open(&b))
		return VM_EIO;
	sb_printf(&b, "%s", init_head);
	sb_printf(&b, "NTASKS=%d\nWINDOW=%.6f\nBUF=%d\nGROUPS='",
		  wl->nr_tasks, dur_ns / 1e9,
		  nr_cpus > 8 ? 131072 / nr_cpus : 16384);
	for (i = 1; i < wl->nr_groups; i++)
		sb_printf(&b, "%s ", wl->groups[i].path);
	sb_printf(&b, "'\n# each thread's group, by the name rt-app gave it\ngroup_of() {\n\tcase \"$1\" in\n");
	for (i = 0; i < wl->nr_tasks; i++) {
		int grp = wl->tasks[i].group;

		comm_of(wl, i, comm);
		sb_printf(&b, "\t");
		sb_quote(&b, comm);
		sb_printf(&b, ") echo ");
		sb_quote(&b, grp ? wl->groups[grp - 1].path : "/");
		sb_printf(&b, " ;;\n");
	}
	sb_printf(&b, "\t*) return 1 ;;\n\tesac\n}\n# the groups, with their settings\n");
	for (i = 1; i < wl->nr_groups && !ret; i++) {
		const struct workload_group *gr = &wl->groups[i];

		if (strchr(gr->path, '\'')) {
			ret = refuse(g, "group '%s': a quote in a path", gr->path);
			break;
		}
		sb_printf(&b, "mkdir -p /cg%s\n", gr->path);
		for (j = 0; j < gr->nr_settings && !ret; j++)
			ret = group_write(g, &b, gr->path, &gr->settings[j], "");
	}
	if (!ret && wl->nr_groups && wl->groups[0].nr_settings)
		ret = refuse(g, "group '/': the root group's files are not written in the VM");
	if (!ret) {
		sb_printf(&b, "%s", init_trace);
		ret = events(g, &b);
	}
	sb_printf(&b, "%s", init_tail);
	out->init = sb_close(&b);
	if (ret) {
		free(out->init);
		out->init = NULL;
		return ret;
	}
	return out->init ? 0 : vm_error(VM_EIO, "out of memory");
}

int vm_guest_new(struct vm_guest *out, const struct workload *wl,
		 uint64_t duration_ns, const struct vm_machine *m, char *err,
		 size_t len)
{
	struct gen g = { .wl = wl, .guest_cpu = m->guest_cpu, .err = err,
			 .len = len };
	int i, ret;

	memset(out, 0, sizeof(*out));
	if (wl->cpusets)
		return refuse(&g, "cpuset files are not written in the VM (its /init mounts cgroup v1's cpu controller alone)");
	ret = make_rtapp(&g, out, duration_ns);
	if (!ret)
		ret = make_init(&g, out, duration_ns, m->nr_cpus);
	if (!ret) {
		out->nr_tasks = wl->nr_tasks;
		out->names = calloc((size_t)wl->nr_tasks, sizeof(*out->names));
		out->comms = calloc((size_t)wl->nr_tasks, sizeof(*out->comms));
		out->groups = calloc((size_t)wl->nr_tasks, sizeof(*out->groups));
		if (!out->names || !out->groups || !out->comms)
			ret = VM_EIO;
	}
	for (i = 0; !ret && i < wl->nr_tasks; i++) {
		int grp = wl->tasks[i].group;

		out->names[i] = wl->tasks[i].name;
		comm_of(wl, i, out->comms[i]);
		out->groups[i] = grp ? wl->groups[grp - 1].path : "/";
	}
	if (ret == VM_EIO)
		snprintf(err, len, "out of memory");
	if (ret)
		vm_guest_release(out);
	return ret;
}

int vm_guest_calibration(struct vm_guest *g, int ns)
{
	cJSON *root = cJSON_Parse(g->rtapp), *glob;
	char *text = NULL;

	glob = cJSON_GetObjectItemCaseSensitive(root, "global");
	if (glob && cJSON_ReplaceItemInObjectCaseSensitive(glob, "calibration",
							   cJSON_CreateNumber(ns)))
		text = lsb_json_print(root, 1);
	cJSON_Delete(root);
	if (!text)
		return VM_EIO;
	free(g->rtapp);
	g->rtapp = text;
	return 0;
}

int vm_guest_writes(struct vm_guest *g, const char *const *writes, int nr,
		    char *err, size_t len)
{
	struct sb b;
	char *text;
	int i;

	if (sb_open(&b)) {
		snprintf(err, len, "out of memory");
		return VM_EIO;
	}
	for (i = 0; i < nr; i++) {
		const char *w = writes[i], *eq = strchr(w, '=');
		size_t n = eq ? (size_t)(eq - w) : 0;

		if (!eq || (strncmp(w, "/sys/", 5) && strncmp(w, "/proc/", 6)) ||
		    strcspn(w, " \t\n'\"\\$`") < n || strstr(w, "/../") ||
		    n < 6 || w[n - 1] == '/') {
			free(sb_close(&b));
			snprintf(err, len, "--write '%s': expected FILE=VALUE, FILE an absolute path under /sys or /proc without spaces, quotes or '..'",
				 w);
			return VM_EUSAGE;
		}
		if (!eq[1] || strchr(eq + 1, '\n')) {
			free(sb_close(&b));
			snprintf(err, len, "--write '%s': expected a value of one line after '='",
				 w);
			return VM_EUSAGE;
		}
		sb_printf(&b, "%.*s %s\n", (int)n, w, eq + 1);
	}
	text = sb_close(&b);
	if (!text) {
		snprintf(err, len, "out of memory");
		return VM_EIO;
	}
	free(g->writes);
	g->writes = nr ? text : NULL;
	if (!nr)
		free(text);
	return 0;
}

void vm_guest_release(struct vm_guest *g)
{
	free(g->writes);
	free(g->rtapp);
	free(g->init);
	free(g->names);
	free(g->comms);
	free(g->groups);
	memset(g, 0, sizeof(*g));
}
