// SPDX-License-Identifier: GPL-2.0-only
/*
 * slurm.c - units on a Slurm cluster: the prepared revisions and the units
 * go into a sweep directory in the cache, a probe job checks that a node
 * sees it and can write the cache, then job arrays run the units, each
 * array task its share one after another ('linsched sweep-worker'). The
 * driver follows the tasks with squeue, submits a task that failed or
 * vanished again up to a limit, and counts a unit once: a result is one
 * cache entry however often it was computed. The job arrays themselves
 * (driver_slurm_array()) serve other workers too: 'linsched hunt-worker'
 * runs a hunt's cases.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "common/common.h"
#include "driver/driver.h"
#include "driver/driver_internal.h"

#define SWEEP_VERSION 1
#define CMD_TIMEOUT_S 30	/* a Slurm client command that hangs */
#define POLL_US 200000

/*
 * Run a command, its standard output and error into @out (NUL-terminated,
 * cut at @len). Return its exit status, 127 when it could not be started,
 * 124 when it ran past @timeout_s, -1 on a system error.
 */
static int run_cmd(char *const argv[], char *out, size_t len, int timeout_s)
{
	double start;
	size_t used = 0;
	int fds[2], status, flags;
	pid_t pid;
	ssize_t n;

	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	flags = fcntl(fds[0], F_GETFL);
	fcntl(fds[0], F_SETFL, flags | O_NONBLOCK);
	start = lsb_now();
	out[0] = '\0';
	for (;;) {
		char buf[4096];

		n = read(fds[0], buf, sizeof(buf));
		if (n > 0) {
			size_t k = (size_t)n < len - 1 - used ? (size_t)n :
								len - 1 - used;

			memcpy(out + used, buf, k);
			used += k;
			out[used] = '\0';
			continue;
		}
		if (n == 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			break;
		if (lsb_now() - start > timeout_s) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(fds[0]);
			return 124;
		}
		usleep(10000);
	}
	close(fds[0]);
	/* a caller's signal handler (engine->stop) must not lose the status */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* ---- the sweep directory ---- */

static int write_text(const char *path, const char *text)
{
	if (!lsb_write_atomic(path, text, strlen(text)))
		return 0;
	driver_set_error("cannot write '%s': %s", path, strerror(errno));
	return -1;
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
}

/* An absolute path for a spec that names a file, else the spec. */
static const char *absolute(const char *spec, char *buf, size_t len)
{
	struct stat st;
	char cwd[PATH_MAX];

	if (!spec || spec[0] == '/' || stat(spec, &st) || !S_ISREG(st.st_mode) ||
	    !getcwd(cwd, sizeof(cwd)))
		return spec;
	lsb_pathf(buf, len, "%s/%s", cwd, spec);
	return buf;
}

cJSON *driver_target_json(const struct driver_target *t)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	add_str(o, "name", t->name);
	add_str(o, "commit", t->commit);
	add_str(o, "subset", t->subset);
	cJSON_AddNumberToObject(o, "status", t->status);
	add_str(o, "reason", t->reason);
	add_str(o, "build", t->build);
	add_str(o, "runtime", t->runtime);
	add_str(o, "exe", t->exe);
	add_str(o, "version", t->version);
	add_str(o, "failure_key", t->failure_key);
	return o;
}

static char *units_text(const struct driver_paths *paths,
			const struct driver_unit *units, const size_t *todo,
			size_t n, int ntasks)
{
	const struct driver_target **tgt = calloc(n ? n : 1, sizeof(*tgt));
	cJSON *root = cJSON_CreateObject(), *a, *o;
	size_t i, nt = 0, k;
	char buf[2][PATH_MAX + 1];
	char *text;

	if (!tgt) {
		driver_set_error("out of memory");
		cJSON_Delete(root);
		return NULL;
	}

	cJSON_AddNumberToObject(root, "sweep_version", SWEEP_VERSION);
	cJSON_AddStringToObject(root, "cache_dir", paths->cache_dir);
	cJSON_AddNumberToObject(root, "tasks", ntasks);
	a = cJSON_AddArrayToObject(root, "targets");
	for (i = 0; i < n; i++) {
		const struct driver_target *t = units[todo[i]].target;

		for (k = 0; k < nt && tgt[k] != t; k++)
			;
		if (k < nt)
			continue;
		tgt[nt++] = t;
		o = driver_target_json(t);
		if (!o) {
			free(tgt);
			cJSON_Delete(root);
			driver_set_error("out of memory");
			return NULL;
		}
		cJSON_AddItemToArray(a, o);
	}
	a = cJSON_AddArrayToObject(root, "units");
	for (i = 0; i < n; i++) {
		const struct driver_unit *u = &units[todo[i]];
		const struct driver_run_spec *s = &u->spec;

		for (k = 0; tgt[k] != u->target; k++)
			;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "target", (double)k);
		add_str(o, "workload", absolute(s->workload, buf[0], sizeof(buf[0])));
		add_str(o, "topology", absolute(s->topology, buf[1], sizeof(buf[1])));
		add_str(o, "duration", s->duration);
		cJSON_AddNumberToObject(o, "seed", (double)s->seed);
		add_str(o, "governor", s->governor);
		add_str(o, "cpuidle", s->cpuidle);
		add_str(o, "cmdline", s->cmdline);
		add_str(o, "jitter", s->jitter);
		cJSON_AddNumberToObject(o, "no_energy_model", s->no_energy_model);
		cJSON_AddNumberToObject(o, "metrics", s->metrics);
		cJSON_AddNumberToObject(o, "fatal_warnings", s->fatal_warnings);
		cJSON_AddNumberToObject(o, "timeout_s", s->timeout_s);
		cJSON_AddItemToArray(a, o);
	}
	free(tgt);
	text = lsb_json_print(root, 0);
	cJSON_Delete(root);
	if (!text)
		driver_set_error("out of memory");
	return text;
}

/* ---- the worker, on a node ---- */

static const char *get_str(cJSON *o, const char *k)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static double get_num(cJSON *o, const char *k)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int driver_target_from_json(struct driver_target *t, const cJSON *c)
{
	cJSON *o = (cJSON *)c;

	memset(t, 0, sizeof(*t));
	copy(t->name, sizeof(t->name), get_str(o, "name"));
	copy(t->commit, sizeof(t->commit), get_str(o, "commit"));
	copy(t->subset, sizeof(t->subset), get_str(o, "subset"));
	t->status = (int)get_num(o, "status");
	copy(t->reason, sizeof(t->reason), get_str(o, "reason"));
	copy(t->build, sizeof(t->build), get_str(o, "build"));
	copy(t->runtime, sizeof(t->runtime), get_str(o, "runtime"));
	copy(t->version, sizeof(t->version), get_str(o, "version"));
	copy(t->failure_key, sizeof(t->failure_key), get_str(o, "failure_key"));
	t->exe = get_str(o, "exe") ? strdup(get_str(o, "exe")) : NULL;
	return get_str(o, "exe") && !t->exe ? -1 : 0;
}

/* Can this node write the cache? A file made and removed says so. */
static int probe_cache(const char *cache_dir)
{
	char dir[4200], path[4300];
	int fd;

	lsb_pathf(dir, sizeof(dir), "%s/results", cache_dir);
	lsb_pathf(path, sizeof(path), "%s/probe.%d", dir, (int)getpid());
	if (lsb_mkdir_p(dir) ||
	    (fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0) {
		driver_set_error("this node cannot write the cache directory '%s': %s",
				 cache_dir, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(path);
	return 0;
}

int driver_sweep_worker(const struct driver_paths *base, const char *dir,
			int task, int probe)
{
	static struct driver_paths paths;
	struct driver_target *targets = NULL;
	char path[4300], host[256] = "?", *text;
	cJSON *root, *a, *o;
	int nt = 0, ntasks, i, ret = -1, failed = 0, done = 0;
	size_t nu;

	gethostname(host, sizeof(host) - 1);
	lsb_pathf(path, sizeof(path), "%s/units.json", dir);
	text = lsb_read_file(path, NULL);
	root = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!root) {
		driver_set_error("node %s cannot read the sweep '%s': %s", host,
				 path, errno ? strerror(errno) : "not JSON");
		return -1;
	}
	paths = *base;
	copy(paths.cache_dir, sizeof(paths.cache_dir),
	     get_str(root, "cache_dir"));
	if (get_num(root, "sweep_version") != SWEEP_VERSION) {
		driver_set_error("'%s' is not a sweep of this version", path);
		goto out;
	}
	if (probe_cache(paths.cache_dir)) {
		char msg[4300];

		snprintf(msg, sizeof(msg), "node %s: %s", host, driver_last_error());
		driver_set_error("%s", msg);
		goto out;
	}
	if (probe) {
		lsb_pathf(path, sizeof(path), "%s/probe.ok", dir);
		ret = write_text(path, host);
		goto out;
	}
	a = cJSON_GetObjectItemCaseSensitive(root, "targets");
	nt = cJSON_GetArraySize(a);
	targets = calloc(nt ? nt : 1, sizeof(*targets));
	if (!targets) {
		driver_set_error("out of memory");
		goto out;
	}
	i = 0;
	cJSON_ArrayForEach(o, a) {
		if (driver_target_from_json(&targets[i++], o)) {
			driver_set_error("out of memory");
			goto out;
		}
	}
	a = cJSON_GetObjectItemCaseSensitive(root, "units");
	nu = cJSON_GetArraySize(a);
	ntasks = (int)get_num(root, "tasks");
	if (ntasks < 1 || task < 0 || task >= ntasks) {
		driver_set_error("array task %d of a sweep of %d tasks", task,
				 ntasks);
		goto out;
	}
	/* task k runs units k, k + ntasks, ...: costs spread evenly */
	i = 0;
	cJSON_ArrayForEach(o, a) {
		struct driver_run_spec s = { 0 };
		struct driver_result r;
		int k = (int)get_num(o, "target");

		if (i++ % ntasks != task)
			continue;
		if (k < 0 || k >= nt) {
			driver_set_error("unit %d: no target %d", i - 1, k);
			goto out;
		}
		s.workload = get_str(o, "workload");
		s.topology = get_str(o, "topology");
		s.duration = get_str(o, "duration");
		s.seed = (unsigned long long)get_num(o, "seed");
		s.governor = get_str(o, "governor");
		s.cpuidle = get_str(o, "cpuidle");
		s.cmdline = get_str(o, "cmdline");
		s.jitter = get_str(o, "jitter");
		s.no_energy_model = (int)get_num(o, "no_energy_model");
		s.metrics = (int)get_num(o, "metrics");
		s.fatal_warnings = (int)get_num(o, "fatal_warnings");
		s.timeout_s = (int)get_num(o, "timeout_s");
		if (driver_target_result(&r, &paths, &targets[k], &s,
					 DRIVER_RESULT_RUN)) {
			/* the task's output says which; the others go on */
			fprintf(stderr, "linsched sweep-worker: unit %d: %s\n",
				i - 1, driver_last_error());
			failed++;
		} else {
			done++;
		}
		driver_result_release(&r);
	}
	if (failed) {
		driver_set_error("node %s, array task %d: %d of %d units failed",
				 host, task, failed, failed + done);
		goto out;
	}
	lsb_pathf(path, sizeof(path), "%s/task-%d.done", dir, task);
	ret = write_text(path, host);
out:
	for (i = 0; i < nt && targets; i++)
		driver_target_release(&targets[i]);
	free(targets);
	cJSON_Delete(root);
	(void)nu;
	return ret;
}

/* ---- the driver, on the submitting host ---- */

struct sweep {
	const struct driver_array *a;
	const char *dir;
	struct driver_engine *e;
	char tool[PATH_MAX];
	int ntasks;
	long *job;		/* per task: the job id running it, 0 when done */
	int *tries;
};

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* Append the --partition and --slurm-opt words to @argv at @n. */
static int slurm_args(struct driver_engine *e, char **argv, int n,
		      int max, char *buf, size_t len)
{
	char *save, *w;

	if (e->partition) {
		argv[n++] = "--partition";
		argv[n++] = (char *)e->partition;
	}
	if (e->slurm_opt) {
		copy(buf, len, e->slurm_opt);
		for (w = strtok_r(buf, " \t", &save); w && n < max - 4;
		     w = strtok_r(NULL, " \t", &save))
			argv[n++] = w;
	}
	return n;
}

/* sbatch a script; the job id, or -1 with the error set. */
static long submit(const struct sweep *sw, const char *array,
		   const char *output, const char *script)
{
	char *argv[64], opt[2048], out[4096], name[128], *end;
	int n = 0, st;
	long id;

	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	snprintf(name, sizeof(name), "--job-name=%s", sw->a->name);
	argv[n++] = name;
	argv[n++] = "--cpus-per-task=1";
	argv[n++] = "--no-requeue";
	argv[n++] = "--output";
	argv[n++] = (char *)output;
	if (array) {
		argv[n++] = "--array";
		argv[n++] = (char *)array;
	}
	n = slurm_args(sw->e, argv, n, 64, opt, sizeof(opt));
	argv[n++] = (char *)script;
	argv[n] = NULL;
	st = run_cmd(argv, out, sizeof(out), CMD_TIMEOUT_S);
	id = strtol(out, &end, 10);
	if (st || id <= 0 || (*end && *end != ';' && *end != '\n')) {
		driver_set_error("sbatch failed (%s): %s",
				 st == 127 ? "is slurm-client installed?" :
				 st == 124 ? "timed out" : "exit status",
				 lsb_last_line(out));
		return -1;
	}
	return id;
}

/* Ask the controller; -1 with the error set when none answers. */
static int ping(void)
{
	char *argv[] = { "scontrol", "ping", NULL }, out[4096];
	int st = run_cmd(argv, out, sizeof(out), CMD_TIMEOUT_S);

	if (st == 127) {
		driver_set_error("--engine slurm: cannot run scontrol: is Slurm's client installed (Debian: slurm-client)?");
		return -1;
	}
	if (st || !strstr(out, " is UP")) {
		char *line = strstr(out, "Slurmctld");

		if (line)	/* its first line says who is down */
			line[strcspn(line, "\n")] = '\0';
		driver_set_error("--engine slurm: no reachable Slurm controller (scontrol ping: %s)",
				 line ? line : *out ? lsb_last_line(out) :
				 "no answer");
		return -1;
	}
	return 0;
}

/* The CPUs the cluster (or the partition) has; 0 when unknown. */
static int cluster_cpus(const struct driver_engine *e)
{
	char *argv[8], out[4096];
	int n = 0, a, i, o, t;

	argv[n++] = "sinfo";
	argv[n++] = "-h";
	argv[n++] = "-o";
	argv[n++] = "%C";
	if (e->partition) {
		argv[n++] = "-p";
		argv[n++] = (char *)e->partition;
	}
	argv[n] = NULL;
	if (run_cmd(argv, out, sizeof(out), CMD_TIMEOUT_S) ||
	    sscanf(out, "%d/%d/%d/%d", &a, &i, &o, &t) != 4)
		return 0;
	return t;
}

/*
 * The array tasks of @job still in the queue, by task index, into @in
 * (1 pending, 2 running or completing); -1 when squeue failed.
 */
static int queued(long job, char *in, int ntasks)
{
	char *argv[8], jobs[32], out[1 << 16], *line, *save;
	int st;

	snprintf(jobs, sizeof(jobs), "%ld", job);
	argv[0] = "squeue";
	argv[1] = "-h";
	argv[2] = "-r";
	argv[3] = "-j";
	argv[4] = jobs;
	argv[5] = "-o";
	argv[6] = "%K %t";
	argv[7] = NULL;
	st = run_cmd(argv, out, sizeof(out), CMD_TIMEOUT_S);
	if (st) {
		/* a job that left the controller's memory is "invalid" */
		if (strstr(out, "Invalid job id"))
			return 0;
		driver_set_error("squeue failed: %s", lsb_last_line(out));
		return -1;
	}
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end;
		long k = strtol(line, &end, 10);

		if (end == line)
			k = 0;	/* "N/A": the probe, not an array job */
		if (k >= 0 && k < ntasks && !strstr(line, " CA") &&
		    !strstr(line, " F") && !strstr(line, " NF") &&
		    !strstr(line, " TO") && !strstr(line, " OOM"))
			in[k] = strstr(line, " PD") ? 1 : 2;
	}
	return 0;
}

static int write_script(const struct sweep *sw, const char *name,
			const char *args)
{
	char path[4300], *text;
	int ret;

	lsb_pathf(path, sizeof(path), "%s/%s", sw->dir, name);
	if (asprintf(&text, "#!/bin/sh\n# %s: one array task's share of the units\nexec '%s' %s %s '%s' \"${SLURM_ARRAY_TASK_ID:-0}\"\n",
		     sw->a->name, sw->tool, sw->a->worker, args, sw->dir) < 0) {
		driver_set_error("out of memory");
		return -1;
	}
	ret = write_text(path, text);
	free(text);
	return ret ? -1 : chmod(path, 0755);
}

/* Whether the engine's caller asked to stop. */
static int stopping(const struct sweep *sw)
{
	return sw->e->stop && *sw->e->stop;
}

/* scancel the jobs @job[0..@n) (0: none); errors are not ours to fix */
static void cancel(const long *job, int n)
{
	char *argv[2 + 64 + 1], ids[64][24];
	char out[4096];
	int k, j, m = 0;

	argv[m++] = "scancel";
	argv[m++] = "--quiet";
	for (k = 0; k < n && m < 2 + 64; k++) {
		if (!job[k])
			continue;
		for (j = 2; j < m && strtol(argv[j], NULL, 10) != job[k]; j++)
			;
		if (j < m)
			continue;
		snprintf(ids[m - 2], sizeof(ids[0]), "%ld", job[k]);
		argv[m] = ids[m - 2];
		m++;
	}
	argv[m] = NULL;
	if (m > 2)
		run_cmd(argv, out, sizeof(out), CMD_TIMEOUT_S);
}

/* A probe job: a node must see the sweep and write the cache. */
static int probe(struct sweep *sw)
{
	char path[4300], out[4300], script[4300], *text;
	char in[1] = { 0 };
	long job;
	int i;

	lsb_pathf(script, sizeof(script), "%s/probe.sh", sw->dir);
	lsb_pathf(out, sizeof(out), "%s/probe.out", sw->dir);
	job = submit(sw, NULL, out, script);
	if (job < 0)
		return -1;
	for (i = 0;; i++) {
		in[0] = 0;
		if (stopping(sw)) {
			cancel(&job, 1);
			return 1;
		}
		if (queued(job, in, 1))
			return -1;
		if (!in[0])
			break;
		usleep(i < 20 ? 50000 : POLL_US);
	}
	lsb_pathf(path, sizeof(path), "%s/probe.ok", sw->dir);
	for (i = 0; i < 10 && !exists(path); i++)
		usleep(50000);	/* the file system catching up */
	if (exists(path))
		return 0;
	text = lsb_read_file(out, NULL);
	driver_set_error("--engine slurm: the nodes cannot write %s (it must be on a file system every node sees and can write): the probe job %ld %s",
			 sw->a->shared, job, text && *text ? lsb_last_line(text) :
			 "could not even write its output there");
	free(text);
	return -1;
}

static int submit_tasks(struct sweep *sw, int first, int last)
{
	char array[64], out[4300], script[4300];
	long job;
	int k;

	snprintf(array, sizeof(array), "%d-%d", first, last);
	lsb_pathf(out, sizeof(out), "%s/task-%%a.out", sw->dir);
	lsb_pathf(script, sizeof(script), "%s/task.sh", sw->dir);
	job = submit(sw, array, out, script);
	if (job < 0)
		return -1;
	for (k = first; k <= last; k++) {
		sw->job[k] = job;
		sw->tries[k]++;
	}
	return 0;
}

static int follow(struct sweep *sw, driver_progress_fn progress, void *arg)
{
	size_t before = sw->a->before, total = sw->a->total;
	char *in = calloc(sw->ntasks, 1), path[4300];
	char *gone = calloc(sw->ntasks, 1);
	long *seen = calloc(sw->ntasks, sizeof(*seen));
	int retries = sw->e->retries < 0 ? 2 : sw->e->retries;
	int k, left = sw->ntasks, fails = 0, ret = -1;
	size_t done = before;

	if (!in || !seen || !gone) {
		driver_set_error("out of memory");
		goto out;
	}
	while (left) {
		int nseen = 0, j;

		usleep(POLL_US);
		if (stopping(sw)) {
			cancel(sw->job, sw->ntasks);
			ret = 1;
			goto out;
		}
		memset(in, 0, sw->ntasks);
		/* one squeue per job id still in use */
		for (k = 0; k < sw->ntasks; k++) {
			if (!sw->job[k])
				continue;
			for (j = 0; j < nseen && seen[j] != sw->job[k]; j++)
				;
			if (j < nseen)
				continue;
			seen[nseen++] = sw->job[k];
			if (queued(sw->job[k], in, sw->ntasks)) {
				if (++fails < 5)
					goto next;
				goto out;
			}
		}
		fails = 0;
		sw->e->task_pending = sw->e->task_running = 0;
		for (k = 0; k < sw->ntasks; k++) {
			sw->e->task_pending += sw->job[k] && in[k] == 1;
			sw->e->task_running += sw->job[k] && in[k] == 2;
		}
		for (k = 0; k < sw->ntasks; k++) {
			if (!sw->job[k] || in[k])
				continue;
			lsb_pathf(path, sizeof(path), "%s/task-%d.done",
				  sw->dir, k);
			if (exists(path)) {
				sw->job[k] = 0;
				left--;
				sw->e->task_done++;
				done += sw->a->size ? sw->a->size[k] : 1;
				continue;
			}
			/*
			 * Failed, cancelled or its node lost: again. Out of
			 * the queue twice first: on a shared file system the
			 * marker may show a moment after the task ended.
			 */
			if (!gone[k]++)
				continue;
			gone[k] = 0;
			if (sw->tries[k] > retries) {
				char *text;

				lsb_pathf(path, sizeof(path), "%s/task-%d.out",
					  sw->dir, k);
				text = lsb_read_file(path, NULL);
				driver_set_error("array task %d failed %d times; its output %s: %s",
						 k, sw->tries[k], path,
						 text && *text ? lsb_last_line(text) :
						 "(none)");
				free(text);
				goto out;
			}
			if (submit_tasks(sw, k, k))
				goto out;
			sw->e->resubmitted++;
		}
		if (progress)
			progress(done, total, done - before, arg);
next:;
	}
	ret = 0;
out:
	free(in);
	free(gone);
	free(seen);
	return ret;
}

int driver_slurm_tasks(const struct driver_engine *e, size_t n)
{
	int cpus, ntasks;

	if (ping())
		return -1;
	cpus = cluster_cpus(e);
	/* one wave: the controller starts tasks about once a second */
	ntasks = e->tasks > 0 ? e->tasks : cpus > 0 ? cpus : 8;
	if ((size_t)ntasks > n)
		ntasks = n ? (int)n : 1;
	return ntasks > 1000 ? 1000 : ntasks;
}

int driver_slurm_array(const struct driver_array *a, struct driver_engine *e,
		       driver_progress_fn progress, void *arg)
{
	static struct sweep sw;
	ssize_t len;
	int ret = -1;

	memset(&sw, 0, sizeof(sw));
	sw.a = a;
	sw.dir = a->dir;
	sw.e = e;
	sw.ntasks = a->ntasks;
	if (e->tool) {
		copy(sw.tool, sizeof(sw.tool), e->tool);
	} else {
		len = readlink("/proc/self/exe", sw.tool, sizeof(sw.tool) - 1);
		if (len <= 0) {
			driver_set_error("cannot find the running executable: %s",
					 strerror(errno));
			return -1;
		}
		sw.tool[len] = '\0';
	}
	if (strchr(sw.tool, '\'')) {
		driver_set_error("the tool's path '%s' has a quote", sw.tool);
		return -1;
	}
	if (strchr(sw.dir, '\'')) {
		driver_set_error("the directory '%s' has a quote", sw.dir);
		return -1;
	}
	if (sw.ntasks < 1) {
		driver_set_error("a job array of %d tasks", sw.ntasks);
		return -1;
	}
	if (write_script(&sw, "probe.sh", "--probe") ||
	    write_script(&sw, "task.sh", ""))
		return -1;
	if (a->probe && (ret = probe(&sw)))
		return ret;
	ret = -1;
	sw.job = calloc(sw.ntasks, sizeof(*sw.job));
	sw.tries = calloc(sw.ntasks, sizeof(*sw.tries));
	if (!sw.job || !sw.tries) {
		driver_set_error("out of memory");
		goto out;
	}
	e->task_total = sw.ntasks;
	e->task_done = 0;
	if (!submit_tasks(&sw, 0, sw.ntasks - 1))
		ret = follow(&sw, progress, arg);
out:
	free(sw.job);
	free(sw.tries);
	sw.job = NULL;
	sw.tries = NULL;
	return ret;
}

int driver_slurm_run(const struct driver_paths *paths,
		     struct driver_unit *units, size_t n,
		     struct driver_engine *e, driver_progress_fn progress,
		     void *arg)
{
	struct driver_array a = { .worker = "sweep-worker",
				  .name = "lsbisect-sweep", .probe = 1 };
	size_t *todo, *size = NULL, nt = 0, i;
	char dir[4200], shared[4300], path[4300], *text = NULL;
	int ret = -1, ntasks;

	todo = calloc(n ? n : 1, sizeof(*todo));
	if (!todo) {
		driver_set_error("out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (units[i].state == DRIVER_UNIT_TODO)
			todo[nt++] = i;
	ntasks = driver_slurm_tasks(e, nt);
	if (ntasks < 0)
		goto out;
	lsb_pathf(dir, sizeof(dir), "%s/sweeps/%ld-%d", paths->cache_dir,
		  (long)time(NULL), (int)getpid());
	if (strchr(dir, '\'')) {
		driver_set_error("the cache directory '%s' has a quote",
				 paths->cache_dir);
		goto out;
	}
	if (lsb_mkdir_p(dir)) {
		driver_set_error("cannot make '%s': %s", dir, strerror(errno));
		goto out;
	}
	text = units_text(paths, units, todo, nt, ntasks);
	lsb_pathf(path, sizeof(path), "%s/units.json", dir);
	if (!text || write_text(path, text))
		goto out;
	size = calloc(ntasks, sizeof(*size));
	if (!size) {
		driver_set_error("out of memory");
		goto out;
	}
	for (i = 0; i < nt; i++)
		size[i % ntasks]++;
	lsb_pathf(shared, sizeof(shared), "the cache directory '%s'",
		  paths->cache_dir);
	a.dir = dir;
	a.shared = shared;
	a.ntasks = ntasks;
	a.size = size;
	a.before = n - nt;
	a.total = n;
	ret = driver_slurm_array(&a, e, progress, arg);
	if (ret > 0) {
		driver_set_error("stopped");
		ret = -1;
	}
	if (ret)
		goto out;
	for (i = 0; i < nt; i++)
		units[todo[i]].state = DRIVER_UNIT_RAN;
	lsb_rm_rf(dir);	/* kept when something failed, to look at */
out:
	free(text);
	free(todo);
	free(size);
	return ret;
}
