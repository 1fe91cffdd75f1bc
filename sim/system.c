// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system around the workload's tasks, as an administrator's shell
 * makes it: task groups (cgroups of the kernel's own cpu controller,
 * made and written through the door), cpusets (their effective CPUs and
 * partitions, computed here as cgroup v2's cpuset does and handed to the
 * kernel as task affinities and sched-domain partitions), and the
 * workload's timed events (control-file writes, CPUs going offline and
 * coming back), which init (pid 1) carries out at their times.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <asm/door.h>

#include "sim/sim_internal.h"

_Static_assert(WORKLOAD_GROUP_PATH_MAX <= LINSCHED_CGROUP_PATH_MAX,
	       "a workload's taskgroup path fits the kernel side's");

enum { P_MEMBER, P_ROOT, P_ISOLATED };

struct sys_group {
	struct lk_cgroup *cg;
	char *cpus;		/* cpuset.cpus, nr_cpus bytes; NULL: not set */
	int partition;		/* P_* */
	char *eff;		/* its effective CPUs (cpusets only) */
};

static struct {
	const struct workload *wl;
	struct sys_group *g;
	int partitioned;	/* the kernel's domains follow the cpusets */
	int nr_results, cap_results;
	struct sim_sysevent_result *results;
	/* where init is in the timed events, for those it did not do */
	int at_events;		/* it started the tasks, then the events */
	int next;		/* the first event it has not carried out */
	int doing;		/* the result of the one it is carrying out,
				   or -1 */
} sys;

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		sim_die("out of memory");
	return p;
}

int sim_system_init(const struct sim_config *cfg)
{
	int i;

	memset(&sys, 0, sizeof(sys));
	sys.wl = cfg->wl;
	sys.doing = -1;
	if (!sys.wl->nr_groups)
		return 0;
	sys.g = zalloc(sys.wl->nr_groups, sizeof(*sys.g));
	if (sys.wl->cpusets)
		for (i = 0; i < sys.wl->nr_groups; i++)
			sys.g[i].eff = zalloc(sim.nr_cpus, 1);
	return 0;
}

static const char *group_path(int g)
{
	return sys.wl->groups[g].path;
}

/* ---- cpusets: cgroup v2's effective CPUs, partitions at the top ---- */

/*
 * Effective CPUs: a partition (a child of the root, "root" or "isolated")
 * has its cpuset.cpus, online, for itself alone; the root has the online
 * CPUs no partition has; any other group its cpuset.cpus within its
 * parent's effective ones, or all of its parent's when it sets none or
 * when they share none.
 */
static void cpusets_update(void)
{
	const struct workload *wl = sys.wl;
	int i, c, any;

	for (c = 0; c < sim.nr_cpus; c++)
		sys.g[0].eff[c] = !sim.cpu[c].offline;
	for (i = 1; i < wl->nr_groups; i++) {
		struct sys_group *g = &sys.g[i];

		if (g->partition == P_MEMBER)
			continue;
		for (c = 0; c < sim.nr_cpus; c++) {
			g->eff[c] = g->cpus[c] && !sim.cpu[c].offline;
			if (g->eff[c])
				sys.g[0].eff[c] = 0;
		}
	}
	for (i = 1; i < wl->nr_groups; i++) {
		struct sys_group *g = &sys.g[i];
		const char *up = sys.g[wl->groups[i].parent].eff;

		if (g->partition != P_MEMBER) {
			for (c = any = 0; c < sim.nr_cpus; c++)
				any |= g->eff[c];
			if (!any)	/* all its CPUs offline: the root's */
				memcpy(g->eff, sys.g[0].eff, sim.nr_cpus);
			continue;
		}
		for (c = any = 0; c < sim.nr_cpus; c++) {
			g->eff[c] = up[c] && (!g->cpus || g->cpus[c]);
			any |= g->eff[c];
		}
		if (!any)
			memcpy(g->eff, up, sim.nr_cpus);
	}
}

/* The root domains the partitions make, to the kernel. */
static void cpusets_partition(void)
{
	int *dom = zalloc(sim.nr_cpus, sizeof(*dom)), i, c, next = 1;

	for (c = 0; c < sim.nr_cpus; c++)
		dom[c] = sys.g[0].eff[c] ? 0 : -1;
	for (i = 1; i < sys.wl->nr_groups; i++) {
		if (sys.g[i].partition == P_MEMBER)
			continue;
		for (c = 0; c < sim.nr_cpus; c++)
			if (sys.g[i].cpus[c] && !sim.cpu[c].offline)
				dom[c] = sys.g[i].partition == P_ROOT ? next : -1;
		next += sys.g[i].partition == P_ROOT;
	}
	lk_sched_domains(dom);
	sys.partitioned = 1;
	free(dom);
}

/* After a cpuset write or a CPU's change: masks, domains, tasks. */
static void cpusets_apply(void)
{
	int i, parts = 0;

	cpusets_update();
	for (i = 1; i < sys.wl->nr_groups; i++)
		parts |= sys.g[i].partition != P_MEMBER;
	if (parts || sys.partitioned)
		cpusets_partition();
	sim_tasks_affinity_refresh(1);
}

const char *sim_group_cpus(int group)
{
	if (!sys.wl->cpusets)
		return NULL;
	return sys.g[group > 0 ? group - 1 : 0].eff;
}

/* A partition must be a child of the root with CPUs no other one has. */
static void partition_check(int i)
{
	const struct workload *wl = sys.wl;
	struct sys_group *g = &sys.g[i];
	int j, c, left = 0;

	if (g->partition == P_MEMBER)
		return;
	if (wl->groups[i].parent != 0)
		sim_refuse("workload '%s': taskgroup '%s': cpuset.cpus.partition: only a child of the root can be a partition here (nested partitions are not simulated)",
			   wl->spec, group_path(i));
	if (!g->cpus)
		sim_refuse("workload '%s': taskgroup '%s': cpuset.cpus.partition: set its cpuset.cpus first",
			   wl->spec, group_path(i));
	for (j = 1; j < wl->nr_groups; j++) {
		if (j == i || sys.g[j].partition == P_MEMBER)
			continue;
		for (c = 0; c < sim.nr_cpus; c++)
			if (g->cpus[c] && sys.g[j].cpus[c])
				sim_refuse("workload '%s': taskgroup '%s': cpuset.cpus.partition: CPU %d is partition '%s''s already (partitions are exclusive)",
					   wl->spec, group_path(i), c,
					   group_path(j));
	}
	for (c = 0; c < sim.nr_cpus; c++) {
		int taken = 0;

		for (j = 1; j < wl->nr_groups; j++)
			taken |= sys.g[j].partition != P_MEMBER &&
				 sys.g[j].cpus[c];
		left += !taken && !sim.cpu[c].offline;
	}
	if (!left)
		sim_refuse("workload '%s': taskgroup '%s': cpuset.cpus.partition: the partitions would leave the root group no CPU",
			   wl->spec, group_path(i));
}

/* ---- control files ---- */

static void group_write(int i, const struct workload_setting *s)
{
	struct sys_group *g = &sys.g[i];
	int ret, n;

	if (!strcmp(s->file, "cpuset.cpus")) {
		if (!i)
			goto root;
		if (!g->cpus)
			g->cpus = zalloc(sim.nr_cpus, 1);
		/* checked against the machine by workload_check() */
		topology_cpulist(s->value, sim.nr_cpus, g->cpus, &n);
	} else if (!strcmp(s->file, "cpuset.cpus.partition")) {
		if (!i)
			goto root;
		g->partition = !strcmp(s->value, "root") ? P_ROOT :
			       !strcmp(s->value, "isolated") ? P_ISOLATED :
			       P_MEMBER;
	} else {
		ret = lk_cgroup_write(g->cg, s->file, s->value);
		if (ret == -ENOENT)
			sim_refuse("workload '%s': taskgroup '%s': '%s': this kernel has no such file for %s",
				   sys.wl->spec, group_path(i), s->file,
				   i ? "a task group" : "the root group");
		if (ret)
			sim_refuse("workload '%s': taskgroup '%s': '%s' '%s': the kernel refused it: %s",
				   sys.wl->spec, group_path(i), s->file,
				   s->value, strerror(-ret));
		return;
	}
	partition_check(i);
	return;
root:
	sim_refuse("workload '%s': taskgroup '/': '%s': the root group's cpuset is every CPU",
		   sys.wl->spec, s->file);
}

static struct sim_sysevent_result *
result_add(const struct workload_sysevent *e);
static void result_domains(struct sim_sysevent_result *r);

/* From init, before the tasks: mkdir every group, write its files. */
void sim_system_boot(void)
{
	const struct workload *wl = sys.wl;
	int i, j, err;

	if (!wl->nr_groups)
		return;
	sys.g[0].cg = lk_cgroup_root();
	for (i = 1; i < wl->nr_groups; i++) {
		const char *name = strrchr(group_path(i), '/') + 1;

		sys.g[i].cg = lk_cgroup_new(sys.g[wl->groups[i].parent].cg,
					    name, &err);
		if (!sys.g[i].cg)
			sim_refuse("workload '%s': taskgroup '%s': the kernel refused to make it: %s",
				   wl->spec, group_path(i), strerror(-err));
	}
	for (i = 0; i < wl->nr_groups; i++)
		for (j = 0; j < wl->groups[i].nr_settings; j++)
			group_write(i, &wl->groups[i].settings[j]);
	if (wl->cpusets) {
		struct sim_sysevent_result *r = result_add(NULL);

		snprintf(r->what, sizeof(r->what), "cpusets at boot");
		cpusets_apply();
		result_domains(r);
	}
}

void sim_task_join(struct sim_task *t, int group)
{
	int ret;

	if (group == t->group)
		return;
	if (sys.wl->cpusets)
		sim_task_join_told(t, group);
	ret = lk_cgroup_attach(t->ktask, sys.g[group - 1].cg);
	if (ret)
		sim_refuse("workload '%s': task '%s': taskgroup '%s': the kernel refused the move: %s",
			   sys.wl->spec, t->name, group_path(group - 1),
			   strerror(-ret));
	t->group = group;
	if (sys.wl->cpusets)
		sim_task_affinity_apply(t);
}

/* ---- the timed events ---- */

/* Done now, unless the run ends first; @e: the workload's, or NULL. */
static struct sim_sysevent_result *
result_add(const struct workload_sysevent *e)
{
	struct sim_sysevent_result *r;

	if (sys.nr_results == sys.cap_results) {
		sys.cap_results = sys.cap_results ? 2 * sys.cap_results : 16;
		sys.results = realloc(sys.results, sys.cap_results *
				      sizeof(*sys.results));
		if (!sys.results)
			sim_die("out of memory");
	}
	r = &sys.results[sys.nr_results++];
	memset(r, 0, sizeof(*r));
	r->time_ns = sim.now;
	r->done = 1;
	if (e) {
		r->timed = 1;
		r->planned_ns = e->time_ns;
	}
	snprintf(r->status, sizeof(r->status), "ok");
	return r;
}

/* The domains the kernel built, after a change of CPUs or partitions. */
static void result_domains(struct sim_sysevent_result *r)
{
	/* one pass: a CPU's lines (three levels with their flags) fit 1 KiB */
	size_t len = 4096 + 1024 * (size_t)sim.nr_cpus;

	for (;;) {
		r->domains = realloc(r->domains, len);
		if (!r->domains)
			sim_die("out of memory");
		if (lk_domains(r->domains, len) >= 0)
			return;
		len *= 2;
	}
}

/* "cpu 3 offline", "/bg cpu.max max" */
static void event_what(char *buf, size_t size,
		       const struct workload_sysevent *e)
{
	if (e->type == WL_SYS_WRITE)
		snprintf(buf, size, "%s %s %s", group_path(e->group),
			 e->set.file, e->set.value);
	else
		snprintf(buf, size, "cpu %d %s", e->cpu,
			 e->type == WL_SYS_CPU_UP ? "online" : "offline");
}

static void cpu_event(const struct workload_sysevent *e)
{
	struct sim_sysevent_result *r = result_add(e);
	int up = e->type == WL_SYS_CPU_UP, ret;

	event_what(r->what, sizeof(r->what), e);
	if (up != !!sim.cpu[e->cpu].offline) {
		snprintf(r->status, sizeof(r->status), "already %s",
			 up ? "online" : "offline");
		return;
	}
	if (!up) {	/* inactive from the first step down: no CPU to use */
		sim.cpu[e->cpu].leaving = 1;
		sim.nr_leaving++;
		sim_tasks_affinity_refresh(0);
	}
	ret = up ? lk_cpu_up(e->cpu) : lk_cpu_down(e->cpu);
	if (!up) {
		sim.cpu[e->cpu].leaving = 0;
		sim.nr_leaving--;
	}
	if (ret)
		snprintf(r->status, sizeof(r->status), "refused by the kernel: %s",
			 strerror(-ret));
	/* the kernel keeps a task's affinity; cpusets and the metrics do not */
	if (sys.wl->cpusets)
		cpusets_apply();
	else
		sim_tasks_affinity_refresh(0);
	result_domains(r);
}

/*
 * From init, once the tasks are started: each event at its time. A CPU's
 * change and a cpuset's new affinities wait for the kernel's threads: the
 * run may end in one (sys.doing), or before init ran again (sys.next).
 */
void sim_system_run(void)
{
	const struct workload *wl = sys.wl;
	int i;

	sys.at_events = 1;
	for (i = 0; i < wl->nr_sysevents; i++) {
		const struct workload_sysevent *e = &wl->sysevents[i];
		struct sim_sysevent_result *r;

		sys.next = i;
		while (sim.now < e->time_ns)
			lk_task_sleep(e->time_ns - sim.now);
		sys.doing = sys.nr_results;
		if (e->type != WL_SYS_WRITE) {
			cpu_event(e);
			sys.doing = -1;
			continue;
		}
		r = result_add(e);
		event_what(r->what, sizeof(r->what), e);
		group_write(e->group, &e->set);
		if (!strncmp(e->set.file, "cpuset.", 7)) {
			cpusets_apply();
			result_domains(r);
		}
		sys.doing = -1;
	}
	sys.next = wl->nr_sysevents;
}

/* The events init did not carry out, each with why, at the end. */
static void results_not_done(void)
{
	const struct workload *wl = sys.wl;
	int i = sys.next;

	if (sys.doing >= 0) {
		struct sim_sysevent_result *r = &sys.results[sys.doing];

		r->done = 0;
		r->begun = 1;
		snprintf(r->status, sizeof(r->status),
			 "init was still carrying it out at the end");
		i++;
	}
	for (; i < wl->nr_sysevents; i++) {
		const struct workload_sysevent *e = &wl->sysevents[i];
		struct sim_sysevent_result *r = result_add(e);

		r->done = 0;
		r->time_ns = 0;
		event_what(r->what, sizeof(r->what), e);
		if (e->time_ns > sim.now)
			snprintf(r->status, sizeof(r->status),
				 "the run ended before its time");
		else if (!sys.at_events)
			snprintf(r->status, sizeof(r->status),
				 "init had not finished starting the workload at the end");
		else if (i == sys.next)
			snprintf(r->status, sizeof(r->status),
				 "init did not run from its time to the end");
		else
			snprintf(r->status, sizeof(r->status),
				 "still queued at the end, behind %d earlier events not done",
				 i - sys.next);
	}
}

/* ---- results ---- */

void sim_system_results(struct sim_result *out)
{
	int i;

	/* the workload's groups; the root's figures are the machine's */
	out->nr_groups = sys.wl->nr_groups ? sys.wl->nr_groups - 1 : 0;
	out->groups = zalloc(out->nr_groups, sizeof(*out->groups));
	for (i = 0; i < out->nr_groups; i++) {
		struct sim_group_result *r = &out->groups[i];
		struct linsched_cgroup_stats st = { 0 };

		r->path = group_path(i + 1);
		if (sys.g[i + 1].cg)
			lk_cgroup_stats(sys.g[i + 1].cg, &st);
		r->usage_ns = st.usage_ns;
		r->nr_periods = st.nr_periods;
		r->nr_throttled = st.nr_throttled;
		r->throttled_ns = st.throttled_ns;
	}
	results_not_done();
	out->nr_sysevents = sys.nr_results;
	out->sysevents = sys.results;
	sys.results = NULL;
	for (i = 0; sys.g && i < sys.wl->nr_groups; i++) {
		free(sys.g[i].cpus);
		free(sys.g[i].eff);
	}
	free(sys.g);
	sys.g = NULL;
}
