// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "bisect/bisect.h"
#include "common/common.h"
#include "driver/driver.h"
#include "driver/driver_internal.h"
#include "sim/sim.h"
#include "topologies/topologies.h"
#include "workloads/workloads.h"

LSB_DEFINE_LAST_ERROR(driver)

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int driver_paths_init(struct driver_paths *out)
{
	char exe[3900], *slash;
	const char *env;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		driver_set_error("cannot find the running executable: %s",
			  strerror(errno));
		return -1;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';				/* .../bin */
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';			/* the prefix or build dir */
	lsb_pathf(out->share_dir, sizeof(out->share_dir), "%s/share/lsbisect",
		 exe);
	if (!is_dir(out->share_dir)) {
		driver_set_error("the data directory '%s' is missing: run make (or make install) again",
			  out->share_dir);
		return -1;
	}
	lsb_pathf(out->data_dir, sizeof(out->data_dir), "%s/CFLAGS", exe);
	if (!access(out->data_dir, F_OK)) {
		lsb_pathf(out->data_dir, sizeof(out->data_dir), "%s", exe);
	} else if ((env = getenv("XDG_CACHE_HOME")) && *env) {
		lsb_pathf(out->data_dir, sizeof(out->data_dir), "%s/lsbisect",
			 env);
	} else {
		env = getenv("HOME");
		lsb_pathf(out->data_dir, sizeof(out->data_dir),
			 "%s/.cache/lsbisect", env ? env : "/tmp");
	}
	env = getenv("LSBISECT_CACHE");
	lsb_pathf(out->cache_dir, sizeof(out->cache_dir), "%s",
		 env && *env ? env : "");
	/* kbuild runs in another directory: the cache's path is absolute */
	if (*out->cache_dir && *out->cache_dir != '/') {
		char cwd[2048];

		if (!getcwd(cwd, sizeof(cwd))) {
			driver_set_error("cannot read the current directory: %s",
					 strerror(errno));
			return -1;
		}
		lsb_pathf(out->cache_dir, sizeof(out->cache_dir), "%s/%s", cwd,
			  env);
	}
	if (!*out->cache_dir)
		lsb_pathf(out->cache_dir, sizeof(out->cache_dir), "%s/cache",
			 out->data_dir);
	env = getenv("LSBISECT_REPO");
	lsb_pathf(out->repo, sizeof(out->repo), "%s", env && *env ? env : "");
	if (!*out->repo)
		lsb_pathf(out->repo, sizeof(out->repo), "%s/kernels.git",
			 out->data_dir);
	env = getenv("LSBISECT_REUSE");
	out->reuse = !env || strcmp(env, "0");
	env = getenv("LSBISECT_INSTRUMENT");
	out->variant = adapter_variant_parse(env);
	if (out->variant < 0) {
		driver_set_error("LSBISECT_INSTRUMENT='%s': %s", env,
				 ADAPTER_VARIANT_EXPECTED);
		return -1;
	}
	return 0;
}

const char *driver_variant_name(const struct driver_paths *paths)
{
	return adapter_variant_name(paths->variant);
}

/* The most files a neighbour may differ in to be built from. */
#define REUSE_MAX_CHANGES 256
/* The most finished builds compared with a revision. */
#define REUSE_MAX_DONORS 32

/* The changes as adapters/ takes them; blobs not written yet (""). */
static struct adapter_change *as_changes(const struct bisect_change *ch,
					 size_t n)
{
	struct adapter_change *ac = calloc(n ? n : 1, sizeof(*ac));
	size_t i;

	for (i = 0; ac && i < n; i++) {
		ac[i].path = ch[i].path;
		ac[i].added = ch[i].status == BISECT_ADDED;
		ac[i].blob = ch[i].status == BISECT_DELETED ? NULL : "";
		ac[i].exec = ch[i].mode == 0100755;
	}
	return ac;
}

/*
 * The donor of @commit: the finished build that needs the fewest objects
 * compiled again (none: the same build), then the fewest files changed.
 */
static int nearest_donor(bisect_repo *r, const struct adapter_env *env,
			 const char *commit, struct adapter_donor *best,
			 struct bisect_change **ch, size_t *n)
{
	struct adapter_donor *d;
	size_t nd, i, max = REUSE_MAX_CHANGES;
	int found = 0, best_cost = -1;

	*ch = NULL;
	*n = 0;
	if (adapter_donors(env, &d, &nd))
		return 0;
	for (i = 0; i < nd && i < REUSE_MAX_DONORS && best_cost; i++) {
		struct adapter_change *ac;
		struct bisect_change *c;
		size_t k;
		char id[41];
		int cost;

		if (bisect_resolve(r, d[i].commit, id) ||
		    bisect_subset_diff(r, d[i].commit, commit, max, &c, &k))
			continue;	/* another repository's, or too far */
		ac = as_changes(c, k);
		cost = ac && k ? adapter_reuse_cost(env, d[i].key, ac, k) : -1;
		free(ac);
		if (cost < 0 || (found && cost > best_cost) ||
		    (found && cost == best_cost && k >= *n)) {
			bisect_changes_free(c, k);
			continue;
		}
		bisect_changes_free(*ch, *n);
		*ch = c;
		*n = k;
		*best = d[i];
		best_cost = cost;
		found = 1;
	}
	adapter_donors_free(d);
	return found;
}

/*
 * Build @out from the nearest finished build: ADAPTER_ENOREUSE when there
 * is none or a full build is needed.
 */
static int build_from_neighbour(bisect_repo *r, const struct adapter_env *env,
				struct driver_revision *out)
{
	struct adapter_donor donor;
	struct bisect_change *ch;
	struct adapter_change *ac = NULL;
	char (*blobs)[4200] = NULL, cache[PATH_MAX];
	size_t n, i;
	int ret = ADAPTER_ENOREUSE;

	/* the sources link to the blobs: their paths must be absolute */
	if (!realpath(env->cache_dir, cache) ||
	    !nearest_donor(r, env, out->commit, &donor, &ch, &n))
		return ADAPTER_ENOREUSE;
	ac = as_changes(ch, n);
	blobs = calloc(n, sizeof(*blobs));
	if (!ac || !blobs)
		goto out;
	for (i = 0; i < n; i++) {
		if (!ac[i].blob)
			continue;
		if (ch[i].mode != 0100644 && ch[i].mode != 0100755)
			goto out;	/* a symbolic link or a submodule */
		lsb_pathf(blobs[i], sizeof(blobs[i]), "%s/blobs/%.2s", cache,
			  ch[i].oid);
		if (lsb_mkdir_p(blobs[i]))
			goto out;
		lsb_pathf(blobs[i], sizeof(blobs[i]), "%s/blobs/%.2s/%s", cache,
			  ch[i].oid, ch[i].oid + 2);
		if (bisect_blob_write(r, ch[i].oid, blobs[i]))
			goto out;
		ac[i].blob = blobs[i];
	}
	ret = adapter_build_reuse(env, donor.key, out->subset, out->commit, ac,
				  n, &out->exe);
out:
	free(ac);
	free(blobs);
	bisect_changes_free(ch, n);
	return ret;
}

int driver_same_build(const struct driver_paths *paths, const char *repo,
		      const char *built, const char *other)
{
	struct adapter_env env = {
		.share_dir = paths->share_dir,
		.cache_dir = paths->cache_dir,
		.variant = paths->variant,
	};
	char a[41], b[41], sa[41], sb[41];
	struct bisect_change *ch = NULL;
	struct adapter_change *ac = NULL;
	bisect_repo *r = NULL;
	size_t n = 0;
	int same = 0;

	if (bisect_repo_open(&r, repo) || bisect_resolve(r, built, a) ||
	    bisect_resolve(r, other, b) || bisect_subset_hash(r, a, sa) ||
	    bisect_subset_hash(r, b, sb))
		goto out;
	if (!strcmp(sa, sb)) {
		same = 1;
		goto out;
	}
	if (paths->variant == ADAPTER_COVERAGE ||
	    bisect_subset_diff(r, a, b, REUSE_MAX_CHANGES, &ch, &n))
		goto out;
	ac = as_changes(ch, n);
	same = ac && n && adapter_same_build(&env, sa, ac, n);
out:
	free(ac);
	bisect_changes_free(ch, n);
	bisect_repo_free(r);
	return same;
}

int driver_prepare(struct driver_revision *out,
		   const struct driver_paths *paths, const char *repo,
		   const char *rev, int jobs, int verbose)
{
	struct adapter_env env = {
		.share_dir = paths->share_dir,
		.cache_dir = paths->cache_dir,
		.jobs = jobs,
		.verbose = verbose,
		.variant = paths->variant,
	};
	char trees[4200], tree[4300];
	bisect_repo *r = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	lsb_pathf(out->name, sizeof(out->name), "%s", rev);
	if (bisect_repo_open(&r, repo)) {
		driver_set_error("%s", bisect_last_error());
		return DRIVER_ERROR;
	}
	if (bisect_resolve(r, rev, out->commit) ||
	    bisect_subset_hash(r, out->commit, out->subset)) {
		driver_set_error("%s", bisect_last_error());
		bisect_repo_free(r);
		return DRIVER_ERROR;
	}
	ret = ADAPTER_ENOREUSE;
	if (paths->reuse && paths->variant != ADAPTER_COVERAGE &&
	    !adapter_build_cached(&env, out->subset))
		ret = build_from_neighbour(r, &env, out);
	if (ret == ADAPTER_ENOREUSE) {
		lsb_pathf(trees, sizeof(trees), "%s/trees", paths->cache_dir);
		lsb_pathf(tree, sizeof(tree), "%s/%s", trees, out->subset);
		if (lsb_mkdir_p(trees)) {
			driver_set_error("cannot create '%s': %s", trees,
					 strerror(errno));
			bisect_repo_free(r);
			return DRIVER_ERROR;
		}
		ret = bisect_export(r, out->commit, tree);
		if (ret) {
			driver_set_error("%s", bisect_last_error());
			bisect_repo_free(r);
			return DRIVER_ERROR;
		}
		ret = adapter_build(&env, tree, out->subset, out->commit,
				    &out->exe);
	}
	bisect_repo_free(r);
	switch (ret) {
	case ADAPTER_OK:
		return DRIVER_OK;
	case ADAPTER_EUNSUPPORTED:
		driver_set_error("revision '%s' (%.12s): %s", rev, out->commit,
			  adapter_last_error());
		return DRIVER_UNSUPPORTED;
	case ADAPTER_EBUILD:
		driver_set_error("revision '%s' (%.12s): build failed: %s", rev,
			  out->commit, adapter_last_error());
		return DRIVER_BUILD_FAILED;
	default:
		driver_set_error("revision '%s' (%.12s): %s", rev, out->commit,
			  adapter_last_error());
		return DRIVER_ERROR;
	}
}

int driver_build_reads(const struct driver_paths *paths, const char *subset,
		       char *const *files, size_t n, int *read)
{
	struct adapter_env env = {
		.share_dir = paths->share_dir,
		.cache_dir = paths->cache_dir,
		.variant = paths->variant,
	};

	return adapter_build_reads(&env, subset, files, n, read);
}

void driver_revision_release(struct driver_revision *rev)
{
	free(rev->exe);
	rev->exe = NULL;
}

/* What the simulator wrote on its standard error, kept in memory. */
struct capture {
	char *buf;		/* NUL-terminated */
	size_t len, cap;
	size_t dropped;		/* bytes past CAPTURE_MAX, not kept */
};

/* The most of a simulator's standard error kept (it writes a few lines). */
#define CAPTURE_MAX (1 << 20)

/* Read what @fd has now into @c: 1 at its end, else 0. */
static int capture_read(int fd, struct capture *c)
{
	char chunk[8192];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno != EAGAIN;
		if (!n)
			return 1;
		if (c->len + n > CAPTURE_MAX ||
		    (c->len + n + 1 > c->cap &&
		     LSB_GROW(c->buf, c->len + n + 1, c->cap))) {
			c->dropped += n;
			continue;
		}
		memcpy(c->buf + c->len, chunk, n);
		c->len += n;
		c->buf[c->len] = '\0';
	}
}

/*
 * The kernel's own words about a crash, or the simulator's error, from its
 * standard error.
 */
static void crash_message(const char *text, char *out, size_t len)
{
	const char *line, *next;
	size_t used = 0;

	out[0] = '\0';
	for (line = text; line && *line && used < len; line = next) {
		size_t n;

		next = strchr(line, '\n');
		n = next ? (size_t)(next - line) : strlen(line);
		if (next)
			next++;
		if (strncmp(line, "kernel ", 7) && !memmem(line, n, "BUG:", 4) &&
		    !memmem(line, n, "WARNING:", 8) &&
		    strncmp(line, "error: ", 7))
			continue;
		while (n && *line == ' ') {
			line++;
			n--;
		}
		used += snprintf(out + used, len - used, "%s%.*s",
				 used ? "; " : "", (int)n, line);
	}
}

/*
 * A signal the simulated kernel dies of (the simulator re-raises them
 * after its report); any other came from outside: the OOM killer, a user.
 */
static int own_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
	       sig == SIGILL || sig == SIGABRT || sig == SIGTRAP ||
	       sig == SIGSYS;
}

/*
 * The simulator's standard error on ours; without its "error: " lines
 * when the message the caller prints holds them (@said).
 */
static void pass_through(const struct capture *c, int said)
{
	const char *line, *next;

	for (line = c->buf; line && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (!said || strncmp(line, "error: ", 7))
			fwrite(line, 1, next - line, stderr);
	}
	if (c->dropped)
		fprintf(stderr, "note: %zu more bytes of the simulator's standard error were dropped\n",
			c->dropped);
}

int driver_sim_identity(char **argv, const struct driver_revision *rev)
{
	int n = 0;

	argv[n++] = rev->exe;
	argv[n++] = "--revision";
	argv[n++] = (char *)rev->name;
	argv[n++] = "--commit";
	argv[n++] = (char *)rev->commit;
	argv[n++] = "--subset";
	argv[n++] = (char *)rev->subset;
	argv[n++] = "--tool-version";
	argv[n++] = (char *)lsb_version();
	return n;
}

/* The driver status of a simulator that exited with @code; its words @msg. */
static int sim_outcome(const char *exe, int code, const char *msg)
{
	switch (code) {
	case SIM_EXIT_OK:
		return DRIVER_OK;
	case SIM_EXIT_USAGE:
		/* its own words: "error: " is the caller's to add */
		driver_set_error("%s", !strncmp(msg, "error: ", 7) ? msg + 7 :
				 *msg ? msg : "the simulator refused its arguments");
		return DRIVER_USAGE;
	case SIM_EXIT_PANIC:
	case SIM_EXIT_WARN:
		driver_set_error("crashed: %s", *msg ? msg : "kernel panic");
		return DRIVER_CRASHED;
	case SIM_EXIT_HANG:
		driver_set_error("hung: %s", *msg ? msg : "no progress");
		return DRIVER_HUNG;
	default:
		/* its error, as it said it (an output it could not write) */
		if (!strncmp(msg, "error: ", 7))
			driver_set_error("%s", msg + 7);
		else
			driver_set_error("the simulator '%s' failed with status %d%s%s",
					 exe, code, *msg ? ": " : "", msg);
		return DRIVER_ERROR;
	}
}

/* Start @exe with its standard error into a pipe, *@fd its read end. */
static pid_t start(const char *exe, char *const argv[], int *fd)
{
	pid_t pid, parent = getpid();
	int fds[2];

	if (pipe2(fds, O_CLOEXEC)) {
		driver_set_error("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		driver_set_error("cannot fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		/* dies with its parent; which may have died already */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		dup2(fds[1], 2);
		execv(exe, argv);
		fprintf(stderr, "error: cannot run '%s': %s\n", exe,
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	*fd = fds[0];
	lsb_cleanup_child(pid);
	return pid;
}

/*
 * Wait for @pid, reading its standard error from @fd into @c, at most
 * @timeout_s seconds (0: no limit; then SIGKILL). Return 1 when it timed
 * out.
 */
static int wait_capturing(pid_t pid, int fd, int timeout_s, struct capture *c,
			  int *status)
{
	double deadline = lsb_now() + timeout_s;
	int eof = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct timespec slice = { 0, 100000000 };
		long left_ms = 100;

		if (waitpid(pid, status, WNOHANG) == pid)
			break;
		if (timeout_s > 0) {
			left_ms = (long)((deadline - lsb_now()) * 1000);
			if (left_ms <= 0) {
				kill(pid, SIGKILL);
				waitpid(pid, status, 0);
				return 1;
			}
			if (left_ms > 100)
				left_ms = 100;
		}
		/*
		 * Its output, or its end: polled, not waited for by a
		 * signal, which in a process with other threads (an
		 * embedded Guile's) may go to one that does not block it.
		 */
		if (!eof && poll(&p, 1, (int)left_ms) > 0)
			eof = capture_read(fd, c);
		else if (eof) {
			slice.tv_nsec = left_ms * 1000000;
			nanosleep(&slice, NULL);
		}
	}
	if (!eof)
		capture_read(fd, c);	/* the rest, up to its end */
	return 0;
}

int driver_run(const char *exe, char *const argv[], int timeout_s, int quiet)
{
	struct capture c = { 0 };
	char msg[2048];
	int status, fd, timed_out, ret;
	pid_t pid;

	pid = start(exe, argv, &fd);
	if (pid < 0)
		return DRIVER_ERROR;
	timed_out = wait_capturing(pid, fd, timeout_s, &c, &status);
	lsb_cleanup_child(0);
	close(fd);
	crash_message(c.buf ? c.buf : "", msg, sizeof(msg));

	if (timed_out) {
		driver_set_error("timed out after %d s of wall time", timeout_s);
		ret = DRIVER_HUNG;
	} else if (WIFSIGNALED(status) && !own_fault(WTERMSIG(status))) {
		driver_set_error("the simulator was killed by signal %d (%s) from outside",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
		ret = DRIVER_ERROR;
	} else if (WIFSIGNALED(status)) {
		driver_set_error("crashed: killed by signal %d (%s)%s%s",
			  WTERMSIG(status), strsignal(WTERMSIG(status)),
			  *msg ? ": " : "", msg);
		ret = DRIVER_CRASHED;
	} else {
		ret = sim_outcome(exe, WEXITSTATUS(status), msg);
	}
	/* an error's own words are the message: said once, by the caller */
	if (!quiet && c.buf)
		pass_through(&c, (ret == DRIVER_USAGE || ret == DRIVER_ERROR) &&
			     !strncmp(msg, "error: ", 7));
	free(c.buf);
	return ret;
}

/*
 * An input file that can be read only once (a FIFO, a process
 * substitution's /dev/fd/N, a character device): not a regular file, not
 * a directory.
 */
static int read_once(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode) &&
	       !S_ISDIR(st.st_mode);
}

/*
 * Keep the @len bytes of @what ("workload", "topology") @name, read once,
 * as CACHE/@dirname/BLOB.json (BLOB their git blob id: the same bytes, the
 * same file), the regular file the runs read as often as they need.
 * Return its path, malloc()ed and never freed (the caller's spec points
 * to it until the process ends), or NULL with the driver's error set.
 */
static char *keep_input(const char *what, const char *dirname,
			const char *name, const char *text, size_t len)
{
	struct driver_paths paths;
	char dir[4200], path[4300], hex[41], *old;
	int same;

	if (driver_paths_init(&paths))
		return NULL;
	if (lsb_blob_id(text, len, hex) < 0) {
		driver_set_error("%s '%s': cannot hash its bytes", what, name);
		return NULL;
	}
	lsb_pathf(dir, sizeof(dir), "%s/%s", paths.cache_dir, dirname);
	lsb_pathf(path, sizeof(path), "%s/%s.json", dir, hex);
	old = lsb_read_file(path, NULL);
	same = old && !strcmp(old, text);
	free(old);
	if (!same && (lsb_mkdir_p(dir) || lsb_write_atomic(path, text, len))) {
		driver_set_error("%s '%s': cannot keep its bytes in '%s': %s",
				 what, name, path, strerror(errno));
		return NULL;
	}
	old = strdup(path);
	if (!old)
		driver_set_error("out of memory");
	return old;
}

int driver_keep_topology(const char **topology)
{
	static struct topology topo;
	char err[WORKLOAD_ERR_MAX], *text, *kept;
	size_t len;

	if (!read_once(*topology))
		return 0;
	text = topology_read_input(*topology, "topology", &len, err,
				   sizeof(err));
	if (!text) {
		topology_printable(err, sizeof(err));
		driver_set_error("%s", err);
		return -1;
	}
	/* checked under the name given, not the kept file's */
	if (topology_from_json(&topo, text, *topology, err, sizeof(err))) {
		driver_set_error("%s", err);
		kept = NULL;
	} else {
		kept = keep_input("topology", "topologies", *topology, text,
				  len);
	}
	free(text);
	if (!kept)
		return -1;
	*topology = kept;
	return 0;
}

int driver_check_specs(const char **workload, const char *topology,
		       const char *duration, const char *cmdline)
{
	static struct topology topo;
	struct workload wl;
	char err[WORKLOAD_ERR_MAX], *text = NULL, *kept;
	size_t len = 0;
	uint64_t ns;
	int ret = -1;

	if (topology_from_spec(&topo, topology, err, sizeof(err))) {
		driver_set_error("%s", err);
		return -1;
	}
	/* read once, checked under the name given, then kept */
	if (read_once(*workload)) {
		text = topology_read_input(*workload, "workload", &len, err,
					   sizeof(err));
		if (!text) {
			topology_printable(err, sizeof(err));
			driver_set_error("%s", err);
			return -1;
		}
	}
	if (text ? workload_parse_json(&wl, *workload, text, err, sizeof(err)) :
	    workload_parse(&wl, *workload, err, sizeof(err))) {
		driver_set_error("%s", err);
		goto out;
	}
	if (cmdline && topology_set_cmdline(&topo, cmdline, err, sizeof(err))) {
		driver_set_error("--cmdline: %s", err);
		workload_release(&wl);
		goto out;
	}
	if (workload_check(&wl, topo.nr_cpus, err, sizeof(err))) {
		driver_set_error("%s", err);
		workload_release(&wl);
		goto out;
	}
	workload_release(&wl);
	if (duration && sim_parse_duration(&ns, duration)) {
		driver_set_error("--duration '%s': " SIM_DURATION_EXPECTED,
				 duration);
		goto out;
	}
	if (text) {
		kept = keep_input("workload", "workloads", *workload, text, len);
		if (!kept)
			goto out;
		*workload = kept;
	}
	ret = 0;
out:
	free(text);
	return ret;
}
