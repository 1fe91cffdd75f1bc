// SPDX-License-Identifier: GPL-2.0-only
/*
 * main() of a revision's simulator executable (linked by the adapters with
 * that revision's kernel objects). `linsched run` drives it; it also runs
 * on its own and under gdb.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include <asm/door.h>

#include "sim/sim.h"
#include "sim/sim_internal.h"

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
"usage: %s --topology T --workload W [options]\n"
"\n"
"Run the scheduler of kernel %s, built into this executable, on a\n"
"simulated machine.\n"
"\n"
"  -t, --topology T     a preset (up, dual, quad, quad-smt, hex, ...) or a\n"
"                       shape PxCxT (packages x cores x threads)\n"
"  -w, --workload W     an rt-app JSON file, or task groups, e.g. 'hog*8'\n"
"                       or 'periodic*32:run=1ms:sleep=9ms+hog*2:cpus=0-1'\n"
"  -d, --duration D     simulated time: 10s, 500ms, 100us, 1ns, or a bare\n"
"                       number of seconds (default: the rt-app file's\n"
"                       global.duration, else 10s)\n"
"  -s, --seed S         seed of every random choice (default 1)\n"
"      --jitter F       vary each run event's work by up to +-F, uniformly,\n"
"                       from the task's own seeded draws: a fraction 0-0.5\n"
"                       or a percentage ('1%%'); default 0, exact\n"
"      --trace FILE     write sched/idle events in ftrace text format, or\n"
"                       trace-cmd's trace.dat when FILE ends in .dat\n"
"      --trace-format F text or dat: the --trace file's format, whatever\n"
"                       its name\n"
"      --trace-events E also trace these frequent ones, off by default: "
"sched_stat_runtime,\n"
"                       nr_running and pelt (counters), comma-separated, or all\n"
"      --json FILE      write the results as JSON ('-' for stdout)\n"
"      --log FILE       write the kernel log\n"
"      --revision NAME  revision name recorded in the results\n"
"      --commit HASH    its commit, recorded in the results\n"
"      --subset HASH    its build subset hash, recorded in the results\n"
"      --tool-version V the driver's version, recorded in the results (the\n"
"                       runtime itself carries none, so that a new version\n"
"                       of the tools keeps the results of an unchanged one)\n"
"      --fatal-warnings make a kernel WARN end the run (exit %d)\n"
"      --domains        boot, print the sched domains the kernel built, exit\n"
"      --no-metrics     leave the load-balance scores (\"metrics\") out of the\n"
"                       results: about 10 %% faster on event-heavy runs\n"
"      --metrics        score load balancing (the default)\n"
"      --window D       the idle-while-waiting invariant's window: an idle\n"
"                       CPU beside a task that may run there for longer is\n"
"                       a violation (default: the kernel's longest balance\n"
"                       interval, 2 ms per CPU, a tick and two idle exits;\n"
"                       4ms after a fork that placed the task there)\n"
"      --starvation D   the starvation bound (default 1s): a runnable task\n"
"                       not run for longer is a violation\n"
"      --governor G     who sets the frequency of CPUs with OPPs: schedutil\n"
"                       (the kernel's own, default), performance (highest\n"
"                       OPP) or powersave (lowest OPP)\n"
"      --no-energy-model  do not register the OPPs as the kernel's energy\n"
"                       model (energy-aware placement stays off)\n"
"      --cpuidle G      who picks idle states: the revision's own cpuidle\n"
"                       governor (default: its highest-rated, menu),\n"
"                       menu, teo or ladder (that one of the revision's),\n"
"                       poll (no idle states, no exit latency; counted as\n"
"                       state 0) or sim (the simulator's model of menu,\n"
"                       for trees built without drivers/cpuidle/)\n"
"      --cmdline S      boot parameters, given to the kernel's own handlers:\n"
"                       isolcpus=[domain,managed_irq,]CPULIST (replaces\n"
"                       the topology's \"cmdline\")\n"
"      --coverage DIR   in a build made with --instrument coverage: write\n"
"                       the run's gcov counts as DIR/o/kernel/sched/*.gcda\n"
"                       (without it they add up beside the objects, in\n"
"                       the build's o/; GCOV_PREFIX, if set, wins); in\n"
"                       another build an error (exit 2)\n"
"  -h, --help           this text\n"
"\n"
"Exit status: 0 done, 2 usage, %d kernel BUG or panic, %d hang, 1 other\n"
"errors; a crash ends with the signal.\n",
		argv0, lk_version(), SIM_EXIT_WARN, SIM_EXIT_PANIC,
		SIM_EXIT_HANG);
}

/*
 * libgcov: linked only into a build made with --instrument coverage
 * (adapters/), whose kernel objects call it; NULL in any other build.
 */
extern void __gcov_init(void *info) __attribute__((weak));

/*
 * Where a coverage build's counts go. gcc wrote each object's count file
 * into it as an absolute path under the directory the build was made in,
 * BUILD.tmp.PID/o/kernel/sched/fair.gcda, renamed BUILD since (the
 * directory of this executable, as deep). libgcov reads GCOV_PREFIX and
 * GCOV_PREFIX_STRIP when it writes them at exit: strip as many leading
 * components as BUILD has and put @dir in front, so that they land as
 * DIR/o/kernel/sched/fair.gcda; without @dir, in BUILD itself, beside the
 * objects' .gcno files, where gcov looks and where runs add up. Return 0,
 * or -1 after printing the error.
 */
static int coverage_setup(const char *dir)
{
	char exe[PATH_MAX], prefix[PATH_MAX + 1], strip[16], *slash;
	const char *p;
	int n = 0;

	if (!__gcov_init) {
		if (!dir)
			return 0;
		fprintf(stderr, "error: --coverage '%s': this executable has no gcov counters; build it with 'linsched build --instrument coverage'\n",
			dir);
		return -1;
	}
	if (!dir && getenv("GCOV_PREFIX"))
		return 0;	/* the user's own choice */
	if (!realpath("/proc/self/exe", exe) || !(slash = strrchr(exe, '/'))) {
		if (!dir)
			return 0;	/* libgcov's own default, then */
		fprintf(stderr, "error: --coverage: cannot find this executable: %s\n",
			strerror(errno));
		return -1;
	}
	*slash = '\0';
	for (p = exe; *p; p++)
		n += *p == '/' && p[1] && p[1] != '/';
	snprintf(strip, sizeof(strip), "%d", n);
	if (!dir) {
		dir = exe;
	} else if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "error: --coverage '%s': cannot make the directory: %s\n",
			dir, strerror(errno));
		return -1;
	}
	if (!realpath(dir, prefix)) {
		fprintf(stderr, "error: --coverage '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (setenv("GCOV_PREFIX", prefix, 1) ||
	    setenv("GCOV_PREFIX_STRIP", strip, 1)) {
		fprintf(stderr, "error: --coverage: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* --trace-format dat, or --trace FILE.dat without --trace-format */
static int trace_is_dat(const char *path, int format)
{
	size_t n = strlen(path);

	if (format >= 0)
		return format == SIM_TRACE_DAT;
	return n > 4 && !strcmp(path + n - 4, ".dat");
}

static FILE *open_out(const char *path, const char *what)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "error: cannot write %s '%s': %s\n", what, path,
			strerror(errno));
		exit(1);
	}
	return f;
}

/*
 * Flush and close an output (standard output is only flushed): 0, or 1
 * after saying why it could not be written, errno's words included.
 */
static int close_out(FILE *f, const char *path, const char *what)
{
	int err = ferror(f) ? EIO : 0;

	/* a failed write keeps its bytes buffered: fflush() fails again */
	if (fflush(f))
		err = errno;
	if (f != stdout && fclose(f) && !err)
		err = errno;
	if (!err)
		return 0;
	fprintf(stderr, "error: cannot write %s '%s': %s\n", what,
		f == stdout ? "-" : path, strerror(err));
	return 1;
}

/* The name of workload task @pid ("" when it is none of them). */
static const char *task_name(const void *ctx, int pid)
{
	const struct sim_result *res = ctx;
	int i;

	for (i = 0; pid > 0 && i < res->nr_tasks; i++)
		if (res->tasks[i].pid == pid)
			return res->tasks[i].name;
	return "";
}

/* What the scores' writer takes besides the scores (metrics/json.c). */
static struct metrics_json_run json_run(const struct sim_result *res,
					uint64_t duration_ns)
{
	struct metrics_json_run run = {
		.energy_j = res->power.energy_j,
		.mean_power_w = res->power.mean_power_w,
		.duration_ns = duration_ns,
		.kernel_warnings = res->warnings,
		.task_name = task_name,
		.ctx = res,
	};
	int i;

	for (i = 0; i < res->nr_tasks; i++)
		run.work_ns += (double)res->tasks[i].run_work_ns;
	return run;
}

/* A work build's kernel path, "a b c": "path": ["a", "b", "c"]. */
static void path_json(cJSON *to, const char *text)
{
	cJSON *arr = cJSON_AddArrayToObject(to, "path");
	char name[SIM_PATH_NAME];
	size_t n;

	while (*text) {
		n = strcspn(text, " ");
		snprintf(name, sizeof(name), "%.*s", (int)n, text);
		cJSON_AddItemToArray(arr, cJSON_CreateString(name));
		text += n + (text[n] == ' ');
	}
}

/* The kernel's own work, in an instrumented build (sim.h). */
static void work_json(cJSON *root, const struct sim_kernel_work *w)
{
	cJSON *o, *m;

	if (!w->boot_calls)
		return;
	o = cJSON_AddObjectToObject(root, "kernel_work");
	cJSON_AddNumberToObject(o, "calls", (double)w->calls);
	cJSON_AddNumberToObject(o, "irqs", (double)w->irqs);
	cJSON_AddNumberToObject(o, "irq_calls", (double)w->irq_calls);
	cJSON_AddNumberToObject(o, "task_calls",
				(double)(w->calls - w->irq_calls));
	cJSON_AddNumberToObject(o, "max_irq_calls", (double)w->max_irq_calls);
	cJSON_AddNumberToObject(o, "boot_calls", (double)w->boot_calls);
	if (!w->max_irq_calls)
		return;
	m = cJSON_AddObjectToObject(o, "max_irq");
	cJSON_AddNumberToObject(m, "time_ns", (double)w->max_irq_time_ns);
	cJSON_AddNumberToObject(m, "cpu", w->max_irq_cpu);
	cJSON_AddStringToObject(m, "kind", sim_irq_name(w->max_irq_kind));
}

/* Idle, frequency and energy (power/README.md has the definitions). */
static void power_json(cJSON *root, const struct topology *topo,
		       const struct power_result *pr)
{
	cJSON *o = cJSON_AddObjectToObject(root, "power"), *res, *sub;
	char key[32];
	int i, k;

	cJSON_AddNumberToObject(o, "energy_j", pr->energy_j);
	cJSON_AddNumberToObject(o, "mean_power_w", pr->mean_power_w);
	cJSON_AddBoolToObject(o, "energy_complete", pr->energy_complete);
	cJSON_AddNumberToObject(o, "idle_entries", (double)pr->idle_entries);
	cJSON_AddNumberToObject(o, "idle_entries_per_s", pr->idle_entries_per_s);
	res = cJSON_AddObjectToObject(o, "idle_residency");
	for (i = 0; i < pr->nr_cpus; i++) {
		const struct power_cpu_result *c = &pr->cpu[i];
		const struct topology_type *t = &topo->types[c->type];

		snprintf(key, sizeof(key), "%d", i);
		sub = cJSON_AddObjectToObject(res, key);
		for (k = 0; k < c->nr_states; k++)
			cJSON_AddNumberToObject(sub, t->states[k].name,
						(double)c->state_ns[k]);
		if (c->unlisted_ns)
			cJSON_AddNumberToObject(sub, "unlisted",
						(double)c->unlisted_ns);
	}
	res = cJSON_AddObjectToObject(o, "tick_stopped_ns");
	for (i = 0; i < pr->nr_cpus; i++) {
		snprintf(key, sizeof(key), "%d", i);
		cJSON_AddNumberToObject(res, key,
					(double)pr->cpu[i].tick_stopped_ns);
	}
	res = cJSON_AddObjectToObject(o, "freq_residency");
	for (i = 0; i < pr->nr_cpus; i++) {
		const struct power_cpu_result *c = &pr->cpu[i];

		snprintf(key, sizeof(key), "%d", i);
		sub = cJSON_AddObjectToObject(res, key);
		for (k = 0; k < c->nr_freqs; k++) {
			char khz[24];

			snprintf(khz, sizeof(khz), "%" PRIu64, c->freq_khz[k]);
			cJSON_AddNumberToObject(sub, khz, (double)c->freq_ns[k]);
		}
	}
	res = cJSON_AddObjectToObject(o, "energy_j_per_cpu");
	for (i = 0; i < pr->nr_cpus; i++) {
		snprintf(key, sizeof(key), "%d", i);
		cJSON_AddNumberToObject(res, key, pr->cpu[i].energy_j);
	}
	res = cJSON_AddObjectToObject(o, "cluster_all_idle_ns");
	for (i = 0; i < pr->nr_clusters; i++) {
		snprintf(key, sizeof(key), "%d", pr->cluster[i].id);
		cJSON_AddNumberToObject(res, key,
					(double)pr->cluster[i].all_idle_ns);
	}
	res = cJSON_AddObjectToObject(o, "package_all_idle_ns");
	for (i = 0; i < pr->nr_packages; i++) {
		snprintf(key, sizeof(key), "%d", pr->package[i].id);
		cJSON_AddNumberToObject(res, key,
					(double)pr->package[i].all_idle_ns);
	}
}

/*
 * The revision's cpuidle governor picked: its core's own counts per CPU
 * and state, and the machine's totals (sim.h).
 */
static void cpuidle_json(cJSON *root, const struct sim_result *res)
{
	cJSON *o, *cpus, *c, *states, *st;
	uint64_t usage = 0, above = 0, below = 0, stopped = 0, kept = 0;
	char key[32];
	int i, k;

	if (!res->cpuidle)
		return;
	o = cJSON_AddObjectToObject(root, "cpuidle");
	cJSON_AddStringToObject(o, "governor", res->cpuidle_governor);
	cpus = cJSON_CreateObject();
	for (i = 0; i < res->nr_cpus; i++) {
		const struct sim_cpuidle_result *r = &res->cpuidle[i];

		if (!r->nr_states)
			continue;
		snprintf(key, sizeof(key), "%d", i);
		c = cJSON_AddObjectToObject(cpus, key);
		states = cJSON_AddObjectToObject(c, "states");
		for (k = 0; k < r->nr_states; k++) {
			const struct sim_idle_usage *u = &r->state[k];

			st = cJSON_AddObjectToObject(states, u->name);
			cJSON_AddNumberToObject(st, "usage", (double)u->usage);
			cJSON_AddNumberToObject(st, "time_ns", (double)u->time_ns);
			cJSON_AddNumberToObject(st, "above", (double)u->above);
			cJSON_AddNumberToObject(st, "below", (double)u->below);
			usage += u->usage;
			above += u->above;
			below += u->below;
		}
		cJSON_AddNumberToObject(c, "tick_stopped", (double)r->tick_stopped);
		cJSON_AddNumberToObject(c, "tick_kept", (double)r->tick_kept);
		stopped += r->tick_stopped;
		kept += r->tick_kept;
	}
	cJSON_AddNumberToObject(o, "usage", (double)usage);
	cJSON_AddNumberToObject(o, "above", (double)above);
	cJSON_AddNumberToObject(o, "below", (double)below);
	cJSON_AddNumberToObject(o, "tick_stopped", (double)stopped);
	cJSON_AddNumberToObject(o, "tick_kept", (double)kept);
	cJSON_AddItemToObject(o, "cpus", cpus);
}

/* Task groups: what the kernel charged and limited each (cpu.stat). */
static void groups_json(cJSON *root, const struct sim_result *res)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "taskgroups");
	int i;

	for (i = 0; i < res->nr_groups; i++) {
		const struct sim_group_result *g = &res->groups[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", g->path);
		cJSON_AddNumberToObject(o, "usage_ns", (double)g->usage_ns);
		cJSON_AddNumberToObject(o, "nr_periods", (double)g->nr_periods);
		cJSON_AddNumberToObject(o, "nr_throttled",
					(double)g->nr_throttled);
		cJSON_AddNumberToObject(o, "throttled_ns",
					(double)g->throttled_ns);
		cJSON_AddItemToArray(arr, o);
	}
}

/* The workload's timed events, as they went, or why they did not. */
static void sysevents_json(cJSON *root, const struct sim_result *res)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "system_events");
	int i;

	for (i = 0; i < res->nr_sysevents; i++) {
		const struct sim_sysevent_result *e = &res->sysevents[i];
		cJSON *o = cJSON_CreateObject();

		if (e->done || e->begun)
			cJSON_AddNumberToObject(o, e->done ? "time_ns" :
						"started_ns", (double)e->time_ns);
		if (e->timed)
			cJSON_AddNumberToObject(o, "planned_ns",
						(double)e->planned_ns);
		cJSON_AddStringToObject(o, "event", e->what);
		cJSON_AddBoolToObject(o, "done", e->done);
		cJSON_AddStringToObject(o, "status", e->status);
		if (e->domains)
			cJSON_AddStringToObject(o, "domains", e->domains);
		cJSON_AddItemToArray(arr, o);
	}
}

/*
 * A user relies on the workload's events having happened: one line when
 * some did not, the first of them with why (the results have each).
 */
static void sysevents_warn(const struct workload *wl,
			   const struct sim_result *res)
{
	const struct sim_sysevent_result *first = NULL;
	int i, n = 0;

	for (i = 0; i < res->nr_sysevents; i++)
		if (!res->sysevents[i].done) {
			first = first ? first : &res->sysevents[i];
			n++;
		}
	if (!n)
		return;
	fprintf(stderr, "warning: workload '%s': %d of %d lsb-events did not happen: '%s' at %.6g s: %s (system_events has each one's status)\n",
		wl->spec, n, wl->nr_sysevents, first->what,
		first->planned_ns / 1e9, first->status);
}

/*
 * The column legend tracefs's trace file prints (the four flags of
 * kernels before 5.12: what the simulator writes, sim.c's lh_trace())
 */
static void trace_columns(FILE *f)
{
	fputs("#\n"
	      "#                                _-----=> irqs-off\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| /     delay\n"
	      "#           TASK-PID     CPU#  ||||    TIMESTAMP  FUNCTION\n"
	      "#              | |         |   ||||       |         |\n", f);
}

/* Where a result came from, as the driver knows it. */
struct run_meta {
	const char *revision;
	const char *commit;
	const char *subset;
	const char *tool_version;
};

static cJSON *results_json(const struct sim_config *cfg,
			   const struct sim_result *res,
			   const struct run_meta *meta)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char seed[24];
	int i;

	cJSON_AddStringToObject(root, "revision",
				meta->revision ? meta->revision : "");
	cJSON_AddStringToObject(root, "commit", meta->commit ? meta->commit : "");
	cJSON_AddStringToObject(root, "subset_hash",
				meta->subset ? meta->subset : "");
	cJSON_AddStringToObject(root, "tool_version",
				meta->tool_version ? meta->tool_version : "");
	cJSON_AddNumberToObject(root, "door_version", LINSCHED_DOOR_VERSION);
	cJSON_AddStringToObject(root, "kernel_version", res->kernel_version);
	cJSON_AddStringToObject(root, "preempt", res->preempt);
	cJSON_AddStringToObject(root, "topology", cfg->topo->name);
	cJSON_AddStringToObject(root, "workload", cfg->wl->spec);
	/* a seed is any 64-bit integer: its digits, never a double's */
	snprintf(seed, sizeof(seed), "%" PRIu64, cfg->seed);
	cJSON_AddRawToObject(root, "seed", seed);
	/* only when asked: runs without keep their bytes */
	if (cfg->jitter > 0)
		cJSON_AddNumberToObject(root, "jitter", cfg->jitter);
	cJSON_AddNumberToObject(root, "duration_ns", (double)cfg->duration_ns);
	cJSON_AddNumberToObject(root, "kernel_warnings", res->warnings);
	if (res->warnings) {
		cJSON *w = cJSON_AddObjectToObject(root, "kernel_warning_first");

		cJSON_AddNumberToObject(w, "time_ns",
					(double)res->warning_first_ns);
		cJSON_AddStringToObject(w, "message", res->warning_first);
		if (res->warning_first_path[0])
			path_json(w, res->warning_first_path);
	}
	cJSON_AddNumberToObject(root, "events", (double)res->events);
	if (cfg->metrics) {
		struct metrics_json_run run = json_run(res, cfg->duration_ns);

		metrics_json(root, &res->metrics, &run);
		metrics_invariants_json(root, &res->metrics, &run);
	}
	work_json(root, &res->work);
	power_json(root, cfg->topo, &res->power);
	cpuidle_json(root, res);
	arr = cJSON_AddArrayToObject(root, "cpus");
	for (i = 0; i < res->nr_cpus; i++) {
		cJSON *c = cJSON_CreateObject();

		cJSON_AddNumberToObject(c, "id", i);
		cJSON_AddNumberToObject(c, "busy_ns", (double)res->cpus[i].busy_ns);
		cJSON_AddNumberToObject(c, "idle_ns", (double)res->cpus[i].idle_ns);
		if (res->cpus[i].offline_ns)
			cJSON_AddNumberToObject(c, "offline_ns",
						(double)res->cpus[i].offline_ns);
		cJSON_AddStringToObject(c, "type", cfg->topo->types[cfg->topo->cpu[i].type].name);
		cJSON_AddItemToArray(arr, c);
	}
	arr = cJSON_AddArrayToObject(root, "tasks");
	for (i = 0; i < res->nr_tasks; i++) {
		const struct sim_task_result *t = &res->tasks[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", t->name);
		cJSON_AddNumberToObject(o, "pid", t->pid);
		cJSON_AddNumberToObject(o, "cpu", t->cpu);
		cJSON_AddNumberToObject(o, "sum_exec_ns", (double)t->sum_exec_ns);
		cJSON_AddNumberToObject(o, "nr_migrations", (double)t->nr_migrations);
		cJSON_AddNumberToObject(o, "nr_switches", (double)t->nr_switches);
		cJSON_AddNumberToObject(o, "nr_voluntary_switches",
					(double)t->nr_voluntary);
		cJSON_AddNumberToObject(o, "nr_involuntary_switches",
					(double)t->nr_involuntary);
		cJSON_AddNumberToObject(o, "run_work_ns", (double)t->run_work_ns);
		if (t->locks) {
			cJSON_AddNumberToObject(o, "lock_wait_ns",
						(double)t->lock_wait_ns);
			cJSON_AddNumberToObject(o, "lock_wait_max_ns",
						(double)t->lock_wait_max_ns);
		}
		if (cfg->wl->nr_groups)
			cJSON_AddStringToObject(o, "taskgroup", t->group ?
				cfg->wl->groups[t->group - 1].path : "/");
		cJSON_AddItemToArray(arr, o);
	}
	if (res->nr_groups)
		groups_json(root, res);
	if (res->nr_sysevents)
		sysevents_json(root, res);
	return root;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "workload", required_argument, NULL, 'w' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "trace", required_argument, NULL, 'T' },
		{ "json", required_argument, NULL, 'J' },
		{ "log", required_argument, NULL, 'L' },
		{ "revision", required_argument, NULL, 'R' },
		{ "commit", required_argument, NULL, 'C' },
		{ "subset", required_argument, NULL, 'S' },
		{ "tool-version", required_argument, NULL, 'V' },
		{ "fatal-warnings", no_argument, NULL, 'F' },
		{ "domains", no_argument, NULL, 'D' },
		{ "metrics", no_argument, NULL, 'M' },
		{ "no-metrics", no_argument, NULL, 'N' },
		{ "window", required_argument, NULL, 'W' },
		{ "starvation", required_argument, NULL, 'X' },
		{ "governor", required_argument, NULL, 'G' },
		{ "no-energy-model", no_argument, NULL, 'E' },
		{ "cpuidle", required_argument, NULL, 'I' },
		{ "cmdline", required_argument, NULL, 'B' },
		{ "coverage", required_argument, NULL, 'O' },
		{ "jitter", required_argument, NULL, 'Y' },
		{ "trace-format", required_argument, NULL, 'K' },
		{ "trace-events", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *topo_spec = NULL, *wl_spec = NULL, *json = NULL;
	const char *trace = NULL, *log = NULL, *cmdline = NULL;
	const char *coverage = NULL;
	int trace_format = -1;	/* -1: by --trace's name */
	struct run_meta meta = { 0 };
	struct sim_config cfg = { .duration_ns = 10000000000ULL, .seed = 1,
				  .governor = SIM_GOV_SCHEDUTIL, .metrics = 1,
				  .energy_model = 1 };
	static struct topology topo;
	struct workload wl;
	struct sim_result res;
	char err[WORKLOAD_ERR_MAX], jitter[32];
	int c, ret, duration_given = 0;

	while ((c = getopt_long(argc, argv, "t:w:d:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			topo_spec = optarg;
			break;
		case 'w':
			wl_spec = optarg;
			break;
		case 'd':
			if (sim_parse_duration(&cfg.duration_ns, optarg)) {
				fprintf(stderr, "error: --duration '%s': "
					SIM_DURATION_EXPECTED "\n", optarg);
				return SIM_EXIT_USAGE;
			}
			duration_given = 1;
			break;
		case 's':
			if (sim_parse_seed(&cfg.seed, optarg)) {
				fprintf(stderr, "error: --seed '%s': "
					SIM_SEED_EXPECTED "\n", optarg);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'T':
			trace = optarg;
			break;
		case 'J':
			json = optarg;
			break;
		case 'L':
			log = optarg;
			break;
		case 'R':
			meta.revision = optarg;
			break;
		case 'C':
			meta.commit = optarg;
			break;
		case 'V':
			meta.tool_version = optarg;
			break;
		case 'S':
			meta.subset = optarg;
			break;
		case 'F':
			cfg.fatal_warnings = 1;
			break;
		case 'D':
			cfg.domains = 1;
			break;
		case 'M':
			cfg.metrics = 1;
			break;
		case 'N':
			cfg.metrics = 0;
			break;
		case 'W':
		case 'X':
			if (sim_parse_duration(c == 'W' ? &cfg.window_ns :
					       &cfg.starvation_ns, optarg)) {
				fprintf(stderr, "error: --%s '%s': "
					SIM_DURATION_EXPECTED "\n",
					c == 'W' ? "window" : "starvation", optarg);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'G':
			cfg.governor = sim_parse_governor(optarg);
			if (cfg.governor < 0) {
				fprintf(stderr, "error: --governor '%s': "
					SIM_GOVERNOR_EXPECTED "\n", optarg);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'E':
			cfg.energy_model = 0;
			break;
		case 'B':
			cmdline = optarg;
			break;
		case 'O':
			coverage = optarg;
			break;
		case 'I':
			/* the last --cpuidle wins */
			cfg.idle = sim_parse_cpuidle(optarg, &cfg.idle_governor);
			if (cfg.idle < 0) {
				fprintf(stderr, "error: --cpuidle '%s': "
					SIM_CPUIDLE_EXPECTED "\n", optarg);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'Y':
			if (sim_parse_jitter(&cfg.jitter, optarg)) {
				fprintf(stderr, "error: --jitter '%s': %s\n",
					optarg, SIM_JITTER_EXPECTED);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'K':
			trace_format = sim_parse_trace_format(optarg);
			if (trace_format < 0) {
				fprintf(stderr, "error: --trace-format '%s': "
					SIM_TRACE_FORMAT_EXPECTED "\n", optarg);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'Q':
			if (sim_parse_trace_events(&cfg.trace_events, optarg)) {
				fprintf(stderr, "error: --trace-events '%s': "
					SIM_TRACE_EVENTS_EXPECTED "\n", optarg);
				return SIM_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return SIM_EXIT_USAGE;
		}
	}
	if (optind != argc || !topo_spec || !wl_spec) {
		fprintf(stderr, "error: %s\n", optind != argc ?
			"unexpected argument" : "--topology and --workload are required");
		usage(stderr, argv[0]);
		return SIM_EXIT_USAGE;
	}
	if (coverage_setup(coverage))
		return SIM_EXIT_USAGE;
	if (topology_from_spec(&topo, topo_spec, err, sizeof(err)) ||
	    (cmdline && topology_set_cmdline(&topo, cmdline, err, sizeof(err))) ||
	    workload_parse(&wl, wl_spec, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return SIM_EXIT_USAGE;
	}
	fputs(wl.notes, stderr);
	if (!duration_given && wl.duration_ns)
		cfg.duration_ns = wl.duration_ns;
	cfg.topo = &topo;
	cfg.wl = &wl;
	if (trace) {
		cfg.trace = open_out(trace, "trace");
		/* trace.dat's, or the text's should its thread not start */
		if (cfg.trace != stdout)
			setvbuf(cfg.trace, NULL, _IOFBF, 1 << 20);
	}
	if (log)
		cfg.log = open_out(log, "log");
	if (cfg.trace && trace_is_dat(trace, trace_format))
		cfg.trace_dat = sim_tracedat_new(topo.nr_cpus);
	else if (cfg.trace && cfg.trace != stdout) {
		fprintf(cfg.trace, "# tracer: nop\n#\n");
		fprintf(cfg.trace, "# linsched: kernel %s, topology %s, workload %s, seed %" PRIu64,
			lk_version(), topo.name, wl.spec, cfg.seed);
		if (cfg.jitter > 0) {	/* as the results print it */
			lsb_json_number(jitter, sizeof(jitter), cfg.jitter);
			fprintf(cfg.trace, ", jitter %s", jitter);
		}
		fputc('\n', cfg.trace);
		trace_columns(cfg.trace);
		/*
		 * the lines go to the file from a second thread; through
		 * stdio if it cannot start (or the header did not go out:
		 * close_out() says why)
		 */
		sim_trace_out_open(cfg.trace);
	}
	ret = sim_run(&cfg, &res);
	if (ret)
		return SIM_EXIT_USAGE;
	sysevents_warn(&wl, &res);
	ret = 0;
	if (json) {
		cJSON *root = results_json(&cfg, &res, &meta);
		char *text;
		FILE *f = open_out(json, "results");

		text = lsb_json_print(root, 1);

		fprintf(f, "%s\n", text);
		ret |= close_out(f, json, "results");
		free(text);
		cJSON_Delete(root);
	}
	if (cfg.trace_dat && sim_tracedat_write(cfg.trace_dat, cfg.trace))
		ret |= close_out(cfg.trace, trace, "trace") | 1;
	else if (cfg.trace) {
		if (sim_trace_out_close()) {
			fprintf(stderr, "error: cannot write trace '%s': %s\n",
				trace, strerror(errno));
			ret |= 1;
		}
		ret |= close_out(cfg.trace, trace, "trace");
	}
	sim_tracedat_free(cfg.trace_dat);
	if (cfg.log)
		ret |= close_out(cfg.log, log, "log");
	sim_result_release(&res);
	workload_release(&wl);
	return ret;
}
