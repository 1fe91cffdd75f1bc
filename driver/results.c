// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - the result cache: a revision's result for a run spec, from
 * the cache, or by building and running the revision and keeping what it
 * gave, skips included.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <git2.h>

#include "adapters/adapters.h"
#include "bisect/bisect.h"
#include "common/common.h"
#include "driver/driver.h"
#include "driver/driver_internal.h"
#include "metrics/metrics.h"
#include "sim/sim.h"
#include "topologies/topologies.h"

#define ENTRY_MAGIC "lsbisect-result 1"

static const char *const status_names[] = {
	[DRIVER_OK] = "ok",
	[DRIVER_ERROR] = "error",
	[DRIVER_USAGE] = "usage",
	[DRIVER_BUILD_FAILED] = "build_failed",
	[DRIVER_CRASHED] = "crashed",
	[DRIVER_HUNG] = "hung",
	[DRIVER_UNSUPPORTED] = "unsupported",
};

const char *driver_cpuidle_name(const char *cpuidle)
{
	return sim_cpuidle_key(cpuidle);
}

const char *driver_status_name(int status)
{
	if (status < 0 || status >= (int)(sizeof(status_names) /
					  sizeof(status_names[0])) ||
	    !status_names[status])
		return "error";
	return status_names[status];
}

int driver_status_from_name(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(status_names) / sizeof(status_names[0]);
	     i++)
		if (status_names[i] && !strcmp(status_names[i], name))
			return (int)i;
	return -1;
}

void driver_result_release(struct driver_result *r)
{
	free(r->json);
	r->json = NULL;
}

/* The git blob id of @len bytes: the checksum and the key's hash. */
static int blob_id(const void *buf, size_t len, char out[41])
{
	if (lsb_blob_id(buf, len, out) < 0) {
		driver_set_error("cannot hash: %s", git_error_last() ?
				 git_error_last()->message : "unknown error");
		return -1;
	}
	return 0;
}

/* "file SHA1" for an rt-app file (its bytes), else "spec TEXT". */
static int workload_id(const char *workload, char **out)
{
	struct stat st;
	char hex[41], *text;
	size_t len;

	if (stat(workload, &st) || !S_ISREG(st.st_mode))
		return asprintf(out, "spec %s", workload) < 0 ? -1 : 0;
	text = lsb_read_file(workload, &len);
	if (!text) {
		driver_set_error("cannot read workload '%s': %s", workload,
				 strerror(errno));
		return -1;
	}
	if (blob_id(text, len, hex)) {
		free(text);
		return -1;
	}
	free(text);
	return asprintf(out, "file %s", hex) < 0 ? -1 : 0;
}

/* The hash of the machine's canonical JSON, whatever named it. */
static int topology_id(const char *spec, char out[41])
{
	struct topology *t = malloc(sizeof(*t));
	char err[512], *json = NULL;
	int ret = -1;

	if (!t) {
		driver_set_error("out of memory");
		return -1;
	}
	if (topology_from_spec(t, spec, err, sizeof(err))) {
		driver_set_error("%s", err);
		goto out;
	}
	json = topology_to_json(t);
	if (!json) {
		driver_set_error("out of memory");
		goto out;
	}
	ret = blob_id(json, strlen(json), out);
out:
	free(json);
	free(t);
	return ret;
}

/* The adapter and compiler, as the build key has them. */
static int toolchain_id(const struct driver_paths *p, char out[41])
{
	struct adapter_env env = { .share_dir = p->share_dir,
				   .cache_dir = p->cache_dir,
				   .variant = p->variant };

	if (!adapter_toolchain(&env, out))
		return 0;
	driver_set_error("%s", adapter_last_error());
	return -1;
}

/* The key text of a run: everything that decides its result. */
static char *run_key(const struct driver_revision *rev, const char *build,
		     const char *runtime, const struct driver_run_spec *spec)
{
	char topo[41], dur[32] = "default", jitter[48] = "", *wl = NULL;
	char *key = NULL;
	double f = 0;
	uint64_t ns;

	if (workload_id(spec->workload, &wl) || topology_id(spec->topology,
							     topo))
		goto out;
	if (spec->duration) {
		if (sim_parse_duration(&ns, spec->duration)) {
			driver_set_error("--duration '%s': " SIM_DURATION_EXPECTED,
					 spec->duration);
			goto out;
		}
		snprintf(dur, sizeof(dur), "%llu", (unsigned long long)ns);
	}
	if (spec->jitter && sim_parse_jitter(&f, spec->jitter)) {
		driver_set_error("--jitter '%s': %s", spec->jitter,
				 SIM_JITTER_EXPECTED);
		goto out;
	}
	if (!sim_cpuidle_key(spec->cpuidle)) {
		driver_set_error("--cpuidle '%s': " SIM_CPUIDLE_EXPECTED,
				 spec->cpuidle);
		goto out;
	}
	/* a number, only when nonzero: the keys of runs without stay */
	if (f > 0)
		snprintf(jitter, sizeof(jitter), "jitter %.17g\n", f);
	if (asprintf(&key,
		     "lsbisect result\nsubset %s\nbuild %s\nruntime %s\n"
		     "workload %s\ntopology %s\nduration %s\nseed %llu\n"
		     "governor %s\ncpuidle %s\nenergy_model %d\nmetrics %d\n"
		     "fatal_warnings %d\n%s%s%s%s",
		     rev->subset, build, runtime, wl, topo, dur, spec->seed,
		     spec->governor ? spec->governor : "schedutil",
		     sim_cpuidle_key(spec->cpuidle),
		     !spec->no_energy_model, !!spec->metrics,
		     !!spec->fatal_warnings,
		     /* only when given: the keys of runs without stay */
		     spec->cmdline ? "cmdline " : "",
		     spec->cmdline ? spec->cmdline : "",
		     spec->cmdline ? "\n" : "", jitter) < 0) {
		key = NULL;
		driver_set_error("out of memory");
	}
out:
	free(wl);
	return key;
}

/* The build key of a finished build: the name of its directory. */
static int build_of_exe(const char *exe, char build[41], char runtime[41])
{
	char dir[4096], path[4200], *text;

	lsb_pathf(dir, sizeof(dir), "%s", exe);
	lsb_pathf(build, 41, "%s", basename(dirname(dir)));
	lsb_pathf(dir, sizeof(dir), "%s", exe);
	lsb_pathf(path, sizeof(path), "%s/runtime", dirname(dir));
	text = lsb_read_file(path, NULL);
	if (!text || strlen(build) != 40) {
		free(text);
		driver_set_error("cannot read the runtime stamp '%s'", path);
		return -1;
	}
	lsb_pathf(runtime, 41, "%.40s", text);
	free(text);
	return 0;
}

/* The first words of a message: the reason a skip records. */
static void set_reason(struct driver_result *out, const char *msg)
{
	lsb_pathf(out->reason, sizeof(out->reason), "%s", msg);
}

/*
 * A build failure's reason: the compiler's first errors with paths
 * relative to the tree, on one line, then the log's path.
 */
static void set_build_reason(struct driver_result *out, const char *msg)
{
	const char *line = strchr(msg, '\n'), *log = strstr(msg, "log: ");
	size_t used, len = sizeof(out->reason);

	used = (size_t)snprintf(out->reason, len, "build failed");
	while (line && used < len) {
		const char *next = strchr(++line, '\n'), *src;
		size_t n = next ? (size_t)(next - line) : strlen(line);

		while (n && *line == ' ') {
			line++;
			n--;
		}
		src = memmem(line, n, "/src/", 5);
		if (src && memmem(line, src - line, "/builds/", 8)) {
			n -= src + 5 - line;
			line = src + 5;
		}
		if (n)
			used += (size_t)snprintf(out->reason + used, len - used,
						 "%s%.*s", used == 12 ? ": " : "; ",
						 (int)n, line);
		line = next;
	}
	if (log && used < len)
		snprintf(out->reason + used, len - used, " (%.*s)",
			 (int)strcspn(log, ")"), log);
}

/*
 * Read the entry at @path into @out. Return 1 when it is valid and its key
 * text is @key, 0 when there is none (or it is a time-out a longer limit
 * may not repeat), -1 when it was corrupt or partial (then it is removed).
 * The result names @workload (when not NULL) as its workload: the key has
 * a file's content, not its name, and two files of one content share an
 * entry, written by whichever ran first. Without @want_json the result is
 * checked but not printed into @out->json.
 */
static int entry_read(const char *path, const char *key, int timeout_s,
		      const char *workload, int want_json,
		      struct driver_result *out)
{
	char hex[41], sum[41];
	struct stat st, now;
	cJSON *body = NULL, *item;
	size_t len, body_len;
	char *buf, *nl;
	int fd, status, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st)) {
		close(fd);
		return 0;
	}
	close(fd);
	buf = lsb_read_file(path, &len);
	if (!buf)
		return 0;
	nl = memchr(buf, '\n', len);
	if (!nl || sscanf(buf, ENTRY_MAGIC " %40s %zu", sum, &body_len) != 2 ||
	    strncmp(buf, ENTRY_MAGIC " ", strlen(ENTRY_MAGIC) + 1) ||
	    (size_t)(buf + len - (nl + 1)) != body_len ||
	    blob_id(nl + 1, body_len, hex) || strcmp(hex, sum))
		goto corrupt;
	body = cJSON_ParseWithLength(nl + 1, body_len);
	item = cJSON_GetObjectItemCaseSensitive(body, "key");
	if (!body || !cJSON_IsString(item) || strcmp(item->valuestring, key))
		goto corrupt;
	status = driver_status_from_name(cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(body, "status")));
	if (status != DRIVER_OK && status != DRIVER_BUILD_FAILED &&
	    status != DRIVER_CRASHED && status != DRIVER_HUNG)
		goto corrupt;
	item = cJSON_GetObjectItemCaseSensitive(body, "timeout_s");
	if (status == DRIVER_HUNG && cJSON_IsNumber(item) &&
	    item->valuedouble > 0 &&
	    (timeout_s <= 0 || timeout_s > item->valuedouble)) {
		ret = 0;	/* a longer limit may see it finish */
		goto out;
	}
	out->status = status;
	item = cJSON_GetObjectItemCaseSensitive(body, "reason");
	set_reason(out, cJSON_IsString(item) ? item->valuestring : "");
	if (status == DRIVER_OK) {
		item = cJSON_GetObjectItemCaseSensitive(body, "result");
		if (!cJSON_IsObject(item))
			goto corrupt;
	}
	if (status == DRIVER_OK && want_json) {
		if (workload &&
		    cJSON_GetObjectItemCaseSensitive(item, "workload"))
			cJSON_ReplaceItemInObjectCaseSensitive(item, "workload",
				cJSON_CreateString(workload));
		out->json = lsb_json_print(item, 0);
		if (!out->json)
			goto out;
	}
	ret = 1;
	goto out;
corrupt:
	/* remove it, unless another process has replaced it meanwhile */
	if (!stat(path, &now) && now.st_ino == st.st_ino &&
	    now.st_dev == st.st_dev)
		unlink(path);
	out->removed_corrupt = 1;
out:
	cJSON_Delete(body);
	free(buf);
	return ret;
}

/* Write an entry: temporary file, fsync, rename. */
static int entry_write(const char *path, const char *body)
{
	char sum[41], *text = NULL, dir[4096];
	int len, ret = 0;

	lsb_pathf(dir, sizeof(dir), "%s", path);
	if (lsb_mkdir_p(dirname(dir))) {
		driver_set_error("cannot create '%s': %s", dir,
				 strerror(errno));
		return -1;
	}
	if (blob_id(body, strlen(body), sum))
		return -1;
	len = asprintf(&text, ENTRY_MAGIC " %s %zu\n%s", sum, strlen(body),
		       body);
	if (len < 0) {
		driver_set_error("out of memory");
		return -1;
	}
	if (lsb_write_atomic(path, text, len)) {
		driver_set_error("cannot write the result cache entry '%s': %s",
				 path, strerror(errno));
		ret = -1;
	}
	free(text);
	return ret;
}

/* The body of an entry. */
static char *entry_body(const char *key, const struct driver_result *r,
			int timeout_s, cJSON *result)
{
	cJSON *o = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(o, "key", key);
	cJSON_AddStringToObject(o, "status", driver_status_name(r->status));
	cJSON_AddStringToObject(o, "reason", r->reason);
	cJSON_AddStringToObject(o, "commit", r->commit);
	cJSON_AddStringToObject(o, "subset", r->subset);
	cJSON_AddNumberToObject(o, "timeout_s", timeout_s);
	cJSON_AddNumberToObject(o, "time", (double)time(NULL));
	if (result)
		cJSON_AddItemToObject(o, "result", result);
	text = lsb_json_print(o, 0);
	cJSON_Delete(o);
	if (!text)
		driver_set_error("out of memory");
	return text;
}

static int entry_path(char *path, size_t len, const struct driver_paths *p,
		      const char *key_text, char key[41])
{
	if (blob_id(key_text, strlen(key_text), key))
		return -1;
	lsb_pathf(path, len, "%s/results/%.2s/%s", p->cache_dir, key, key + 2);
	return 0;
}

/*
 * The temporaries of a run: CACHE/results/run.PID.HOST.json (.err, the
 * simulator's standard error, in older versions) and in a coverage build
 * the directory of its counts, .coverage. The
 * host is in the name because a cache may be shared by the nodes of a
 * cluster, where only the node that made a temporary can tell whether its
 * process still lives.
 */
static const char *host_name(void)
{
	static char host[256];

	if (!*host) {
		if (gethostname(host, sizeof(host) - 1) || !*host)
			snprintf(host, sizeof(host), "localhost");
		lsb_safe_name(host);
	}
	return host;
}

static void run_file(char *out, size_t len, const struct driver_paths *p,
		     pid_t pid, const char *suffix)
{
	lsb_pathf(out, len, "%s/results/run.%d.%s.%s", p->cache_dir, (int)pid,
		  host_name(), suffix);
}

void driver_run_files_remove(const struct driver_paths *paths, pid_t pid)
{
	char path[4200];

	run_file(path, sizeof(path), paths, pid, "json");
	unlink(path);
	run_file(path, sizeof(path), paths, pid, "err");	/* older versions' */
	unlink(path);
	run_file(path, sizeof(path), paths, pid, "coverage");
	lsb_rm_rf(path);
}

int driver_coverage_dir(char *out, size_t len, const struct driver_paths *p,
			const char *key)
{
	return lsb_pathf(out, len, "%s/coverage/%s", p->cache_dir, key) < 0 ?
	       -1 : 0;
}

/*
 * The PID of a temporary of this host ("run.PID.HOST.json"; "run.PID.json"
 * as older versions named them), else 0.
 */
static pid_t run_file_pid(const char *name)
{
	const char *host = host_name(), *rest, *dot;
	size_t hl = strlen(host);
	char *end;
	long pid;

	if (strncmp(name, "run.", 4))
		return 0;
	pid = strtol(name + 4, &end, 10);
	if (end == name + 4 || *end != '.' || pid <= 0 || pid > INT32_MAX)
		return 0;
	rest = end + 1;
	if (!strncmp(rest, host, hl) && rest[hl] == '.')
		rest += hl + 1;
	dot = strchr(rest, '.');
	if (dot || (strcmp(rest, "json") && strcmp(rest, "err") &&
		    strcmp(rest, "coverage")))
		return 0;
	return (pid_t)pid;
}

/*
 * Once a process: remove the temporaries a process of this host left when
 * it died (SIGKILL, a power cut) before it could.
 */
static void sweep_run_files(const struct driver_paths *p)
{
	static int swept;
	char dir[4200], path[4300];
	struct dirent *d;
	DIR *dp;
	pid_t pid;

	if (swept)
		return;
	swept = 1;
	lsb_pathf(dir, sizeof(dir), "%s/results", p->cache_dir);
	dp = opendir(dir);
	while (dp && (d = readdir(dp))) {
		pid = run_file_pid(d->d_name);
		if (!pid || !kill(pid, 0) || errno != ESRCH)
			continue;
		lsb_pathf(path, sizeof(path), "%s/%s", dir, d->d_name);
		lsb_rm_rf(path);	/* a file, or a coverage build's counts */
	}
	if (dp)
		closedir(dp);
}

/* Run the built simulator: the result, or a skip with its reason. */
static int run_sim(struct driver_result *out, const struct driver_paths *p,
		   const struct driver_revision *rev,
		   const struct driver_run_spec *spec, const char *counts,
		   cJSON **result)
{
	char json[4200], dir[4200], seed[32], *args[40], *text;
	int n = 0, ret, handle, fd;

	*result = NULL;
	run_file(json, sizeof(json), p, getpid(), "json");
	snprintf(seed, sizeof(seed), "%llu", spec->seed);
	n = driver_sim_identity(args, rev);
	args[n++] = "--topology";
	args[n++] = (char *)spec->topology;
	args[n++] = "--workload";
	args[n++] = (char *)spec->workload;
	if (spec->duration) {
		args[n++] = "--duration";
		args[n++] = (char *)spec->duration;
	}
	args[n++] = "--seed";
	args[n++] = seed;
	args[n++] = "--json";
	args[n++] = json;
	if (spec->metrics)
		args[n++] = "--metrics";
	if (spec->fatal_warnings)
		args[n++] = "--fatal-warnings";
	if (spec->governor) {
		args[n++] = "--governor";
		args[n++] = (char *)spec->governor;
	}
	if (spec->no_energy_model)
		args[n++] = "--no-energy-model";
	if (spec->cpuidle) {
		args[n++] = "--cpuidle";
		args[n++] = (char *)spec->cpuidle;
	}
	if (spec->cmdline) {
		args[n++] = "--cmdline";
		args[n++] = (char *)spec->cmdline;
	}
	if (spec->jitter) {
		args[n++] = "--jitter";
		args[n++] = (char *)spec->jitter;
	}
	if (counts) {
		args[n++] = "--coverage";
		args[n++] = (char *)counts;
	}
	args[n] = NULL;
	lsb_pathf(dir, sizeof(dir), "%s/results", p->cache_dir);
	if (lsb_mkdir_p(dir)) {
		driver_set_error("cannot create '%s': %s", dir,
				 strerror(errno));
		return DRIVER_ERROR;
	}
	/*
	 * The run's mark in the cache from its start (the simulator writes
	 * the file at its end): what a process killed in it leaves, for the
	 * next one to sweep; a signal that stops this one removes it.
	 */
	handle = lsb_cleanup_add(json);
	fd = open(json, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		driver_set_error("cannot create '%s': %s", json,
				 strerror(errno));
		lsb_cleanup_done(handle);
		return DRIVER_ERROR;
	}
	close(fd);
	ret = driver_run(rev->exe, args, spec->timeout_s, 1);
	lsb_cleanup_done(handle);
	if (ret == DRIVER_CRASHED || ret == DRIVER_HUNG) {
		out->status = ret;
		set_reason(out, driver_last_error());
		unlink(json);
		return DRIVER_OK;
	}
	if (ret) {
		unlink(json);
		return ret;
	}
	text = lsb_read_file(json, NULL);
	unlink(json);
	*result = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!*result) {
		driver_set_error("revision '%s': the simulator wrote no readable results",
				 rev->name);
		return DRIVER_ERROR;
	}
	out->status = DRIVER_OK;
	out->json = lsb_json_print(*result, 0);
	if (!out->json) {
		driver_set_error("out of memory");
		return DRIVER_ERROR;
	}
	return DRIVER_OK;
}

/*
 * In a coverage build, whether the counts of the result @key are kept
 * (CACHE/coverage/KEY); in any other build, always.
 */
static int counts_kept(const struct driver_paths *p, const char *key)
{
	char dir[4200];
	struct stat st;

	if (p->variant != ADAPTER_COVERAGE)
		return 1;
	return !driver_coverage_dir(dir, sizeof(dir), p, key) &&
	       !stat(dir, &st) && S_ISDIR(st.st_mode);
}

/*
 * A coverage build's run is over: its counts directory @tmp becomes
 * CACHE/coverage/KEY, before the result's entry is written. A run that
 * ended (or hung) of itself wrote its counts; one killed by a signal or
 * the time limit has none, and keeps an empty directory.
 */
static int keep_counts(const struct driver_paths *p,
		       const struct driver_result *r, const char *tmp,
		       const char *rev)
{
	char dir[4200], objs[4200];
	struct stat st;

	lsb_pathf(objs, sizeof(objs), "%s/o", tmp);
	if (r->status == DRIVER_OK && stat(objs, &st)) {
		driver_set_error("revision '%s': the run wrote no gcov counts under '%s' (has the build directory moved since it was made?)",
				 rev, tmp);
		return -1;
	}
	lsb_pathf(dir, sizeof(dir), "%s/coverage", p->cache_dir);
	if (lsb_mkdir_p(dir) || driver_coverage_dir(dir, sizeof(dir), p, r->key)) {
		driver_set_error("cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (!rename(tmp, dir))
		return 0;
	if (errno == ENOTEMPTY || errno == EEXIST) {
		lsb_rm_rf(tmp);	/* another process kept this run's counts */
		return 0;
	}
	driver_set_error("cannot rename '%s' to '%s': %s", tmp, dir,
			 strerror(errno));
	return -1;
}

/*
 * Run @rev's simulator for @spec: in a coverage build with --coverage,
 * the counts kept as keep_counts() says.
 */
static int run_counted(struct driver_result *out,
		       const struct driver_paths *p,
		       const struct driver_revision *rev,
		       const struct driver_run_spec *spec, cJSON **result)
{
	char tmp[4200];
	int ret, handle;

	if (p->variant != ADAPTER_COVERAGE)
		return run_sim(out, p, rev, spec, NULL, result);
	run_file(tmp, sizeof(tmp), p, getpid(), "coverage");
	lsb_rm_rf(tmp);
	handle = lsb_cleanup_add(tmp);
	if (lsb_mkdir_p(tmp)) {
		driver_set_error("cannot create '%s': %s", tmp, strerror(errno));
		ret = DRIVER_ERROR;
	} else {
		ret = run_sim(out, p, rev, spec, tmp, result);
		if (!ret && keep_counts(p, out, tmp, rev->name))
			ret = DRIVER_ERROR;
	}
	if (ret)
		lsb_rm_rf(tmp);
	lsb_cleanup_done(handle);
	return ret;
}

/*
 * Whether the build's kernel objects (o/) appeared since @since: this call
 * built the revision (a relink after a runtime change does not count).
 */
static int changed_since(const char *exe, const struct timespec *since)
{
	char dir[4096], objs[4200];
	struct stat st;

	lsb_pathf(dir, sizeof(dir), "%s", exe);
	lsb_pathf(objs, sizeof(objs), "%s/o", dirname(dir));
	if (stat(objs, &st))
		return 0;
	return st.st_ctim.tv_sec > since->tv_sec ||
	       (st.st_ctim.tv_sec == since->tv_sec &&
		st.st_ctim.tv_nsec >= since->tv_nsec);
}

/* A revision's commit and subset hash, before anything is built. */
static int commit_and_subset(const char *repo, const char *rev,
			     char commit[41], char subset[41])
{
	bisect_repo *r = NULL;
	int err;

	err = bisect_repo_open(&r, repo);
	if (!err)
		err = bisect_resolve(r, rev, commit);
	if (!err)
		err = bisect_subset_hash(r, commit, subset);
	bisect_repo_free(r);
	if (err)
		driver_set_error("%s", bisect_last_error());
	return err ? DRIVER_ERROR : 0;
}

/*
 * A cached build failure whose reason says the system failed the build
 * (a full disk: kept before such failures were told apart) is removed, and
 * the revision built again. Return 1 when the failure stands.
 */
static int failure_stands(const char *path, const struct driver_result *r)
{
	char why[1024];

	if (!adapter_outside_cause(r->reason, why, sizeof(why)))
		return 1;
	unlink(path);
	return 0;
}

int driver_target_prepare(struct driver_target *t,
			  const struct driver_paths *paths, const char *repo,
			  const char *rev_name, int jobs, int verbose)
{
	struct driver_revision rev = { 0 };
	struct driver_result failed = { 0 };
	char tool[41], fpath[4200], *failure = NULL;
	struct timespec start;
	int ret;

	memset(t, 0, sizeof(*t));
	lsb_pathf(t->name, sizeof(t->name), "%s", rev_name);
	/*
	 * Held until driver_target_release(): initialising libgit2 again
	 * for every result reloads its TLS certificates (milliseconds).
	 */
	if (git_libgit2_init() < 0) {
		driver_set_error("cannot initialise libgit2");
		return DRIVER_ERROR;
	}
	t->libgit2 = 1;
	/* a build failure is known without exporting or building */
	ret = commit_and_subset(repo, rev_name, t->commit, t->subset);
	if (!ret)
		ret = toolchain_id(paths, tool) ? DRIVER_ERROR : 0;
	if (ret)
		goto out;
	if (asprintf(&failure, "lsbisect build failure\nsubset %s\ntoolchain %s\n",
		     t->subset, tool) < 0) {
		failure = NULL;
		driver_set_error("out of memory");
		ret = DRIVER_ERROR;
		goto out;
	}
	ret = DRIVER_ERROR;
	if (entry_path(fpath, sizeof(fpath), paths, failure, t->failure_key))
		goto out;
	ret = entry_read(fpath, failure, 0, NULL, 1, &failed);
	t->removed_corrupt = failed.removed_corrupt;
	if (ret == 1 && failed.status == DRIVER_BUILD_FAILED &&
	    !failure_stands(fpath, &failed))
		ret = 0;	/* built again */
	if (ret == 1 && failed.status == DRIVER_BUILD_FAILED) {
		t->status = DRIVER_BUILD_FAILED;
		lsb_pathf(t->reason, sizeof(t->reason), "%s", failed.reason);
		t->from_cache = 1;
		ret = DRIVER_OK;
		goto out;
	}
	driver_result_release(&failed);
	memset(&failed, 0, sizeof(failed));

	clock_gettime(CLOCK_REALTIME, &start);
	ret = driver_prepare(&rev, paths, repo, t->commit, jobs, verbose);
	if (ret == DRIVER_BUILD_FAILED) {
		char *body;

		t->status = DRIVER_BUILD_FAILED;
		set_build_reason(&failed, driver_last_error());
		lsb_pathf(t->reason, sizeof(t->reason), "%s", failed.reason);
		t->built = !strstr(driver_last_error(), "cached failure");
		t->from_cache = !t->built;	/* the build cache knew it */
		failed.status = DRIVER_BUILD_FAILED;
		lsb_pathf(failed.commit, sizeof(failed.commit), "%s", t->commit);
		lsb_pathf(failed.subset, sizeof(failed.subset), "%s", t->subset);
		body = entry_body(failure, &failed, 0, NULL);
		ret = body && !entry_write(fpath, body) ? DRIVER_OK :
			DRIVER_ERROR;
		free(body);
		goto out;
	}
	if (ret)
		goto out;
	t->status = DRIVER_OK;
	t->built = changed_since(rev.exe, &start);
	if (build_of_exe(rev.exe, t->build, t->runtime)) {
		ret = DRIVER_ERROR;
		goto out;
	}
	t->exe = rev.exe;
	rev.exe = NULL;
	if (adapter_build_version(t->exe, t->version, sizeof(t->version)))
		t->version[0] = '\0';
out:
	driver_result_release(&failed);
	driver_revision_release(&rev);
	free(failure);
	return ret;
}

void driver_target_release(struct driver_target *t)
{
	free(t->exe);
	t->exe = NULL;
	if (t->libgit2)
		git_libgit2_shutdown();
	t->libgit2 = 0;
}

int driver_target_result(struct driver_result *out,
			 const struct driver_paths *paths,
			 const struct driver_target *t,
			 const struct driver_run_spec *spec, int mode)
{
	struct driver_revision rev = { 0 };
	char path[4200], *key = NULL, *body = NULL;
	cJSON *result = NULL;
	int ret = DRIVER_ERROR;

	memset(out, 0, sizeof(*out));
	sweep_run_files(paths);
	lsb_pathf(out->commit, sizeof(out->commit), "%s", t->commit);
	lsb_pathf(out->subset, sizeof(out->subset), "%s", t->subset);
	out->built = t->built;
	if (t->status == DRIVER_BUILD_FAILED) {
		out->status = DRIVER_BUILD_FAILED;
		set_reason(out, t->reason);
		lsb_pathf(out->key, sizeof(out->key), "%s", t->failure_key);
		out->from_cache = t->from_cache;
		return DRIVER_OK;
	}
	if (git_libgit2_init() < 0) {
		driver_set_error("cannot initialise libgit2");
		return DRIVER_ERROR;
	}
	lsb_pathf(rev.name, sizeof(rev.name), "%s", t->name);
	memcpy(rev.commit, t->commit, sizeof(rev.commit));
	memcpy(rev.subset, t->subset, sizeof(rev.subset));
	rev.exe = t->exe;
	key = run_key(&rev, t->build, t->runtime, spec);
	if (!key || entry_path(path, sizeof(path), paths, key, out->key))
		goto done;
	/* a coverage build's result without its counts is run again */
	if (entry_read(path, key, spec->timeout_s, spec->workload,
		       mode != DRIVER_RESULT_CHECK, out) == 1 &&
	    counts_kept(paths, out->key)) {
		out->from_cache = 1;
		ret = DRIVER_OK;
		goto done;
	}
	driver_result_release(out);
	out->status = DRIVER_OK;
	*out->reason = '\0';
	if (mode != DRIVER_RESULT_RUN) {
		ret = DRIVER_NOT_CACHED;
		goto done;
	}
	ret = run_counted(out, paths, &rev, spec, &result);
	if (ret)
		goto done;
	body = entry_body(key, out, spec->timeout_s, result);
	result = NULL;	/* the body's now; freed below with it */
	if (!body || entry_write(path, body))
		ret = DRIVER_ERROR;
done:
	cJSON_Delete(result);
	free(body);
	free(key);
	git_libgit2_shutdown();
	if (ret)
		driver_result_release(out);
	return ret;
}

int driver_result(struct driver_result *out,
		  const struct driver_paths *paths, const char *repo,
		  const char *rev, const struct driver_run_spec *spec,
		  int jobs, int verbose)
{
	struct driver_target t;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = driver_target_prepare(&t, paths, repo, rev, jobs, verbose);
	if (!ret)
		ret = driver_target_result(out, paths, &t, spec,
					   DRIVER_RESULT_RUN);
	if (!ret)
		out->removed_corrupt |= t.removed_corrupt;
	driver_target_release(&t);
	return ret;
}

int driver_result_metrics(const char *json, const char *const *names,
			  size_t n, double *out)
{
	cJSON *root = json ? cJSON_Parse(json) : NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (metric_value(root, names[i], &out[i]))
			out[i] = NAN;
	cJSON_Delete(root);
	return root ? 0 : -1;
}

int driver_result_warnings(const char *json, char *first, size_t len)
{
	cJSON *root = json ? cJSON_Parse(json) : NULL;
	const cJSON *n = cJSON_GetObjectItem(root, "kernel_warnings");
	const cJSON *f = cJSON_GetObjectItem(root, "kernel_warning_first");
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(f, "message"));
	int ret = cJSON_IsNumber(n) ? (int)n->valuedouble : -1;

	snprintf(first, len, "%s", ret > 0 && msg ? msg : "");
	cJSON_Delete(root);
	return ret;
}
