// SPDX-License-Identifier: GPL-2.0-only
/*
 * cleanup.c - temporaries a process makes in the caches (a build's
 * KEY.tmp.PID, an export's SUBSET.tmp.PID, a run's files): removed when
 * the process is stopped by SIGINT, SIGTERM or SIGHUP, and, when one was
 * left by a process that died otherwise (SIGKILL, a power cut), by the
 * next process that makes the same one.
 *
 * The signal handler allocates nothing and calls only async-signal-safe
 * functions: the temporaries' paths are kept in a fixed table, and a tree
 * is removed with openat(), getdents64() and unlinkat().
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"

#define MAX_TEMPS 16

/* A slot is used when @owner is not 0; @path is written before it is. */
static struct {
	char path[4096];
	volatile pid_t owner;
} temps[MAX_TEMPS];

static volatile pid_t child, child_owner;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* ---- removal of a tree, async-signal-safe ---- */

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int rm_at(int dirfd, const char *name, int depth);

/*
 * Empty the directory @fd: entries removed while it is read may make
 * getdents64() skip others, so it is read again while a pass removes
 * something.
 */
static void rm_entries(int fd, int depth)
{
	char buf[2048] __attribute__((aligned(8)));
	long n, i;
	int removed;

	do {
		removed = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
			for (i = 0; i < n;) {
				struct linux_dirent64 *d = (void *)(buf + i);

				i += d->d_reclen;
				if (strcmp(d->d_name, ".") &&
				    strcmp(d->d_name, "..") &&
				    !rm_at(fd, d->d_name, depth + 1))
					removed = 1;
			}
	} while (removed && n == 0);
}

/* Remove @name in @dirfd, a tree too: 0, or -1 when it is still there. */
static int rm_at(int dirfd, const char *name, int depth)
{
	int fd;

	if (!unlinkat(dirfd, name, 0) || errno == ENOENT)
		return 0;
	if (depth > 64)
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return -1;
	rm_entries(fd, depth);
	close(fd);
	return unlinkat(dirfd, name, AT_REMOVEDIR) ? -1 : 0;
}

int lsb_rm_rf_safe(const char *path)
{
	return rm_at(AT_FDCWD, path, 0);
}

/* ---- the handler ---- */

/* Stop the child: SIGTERM (make passes it on), SIGKILL after 5 s. */
static void stop_child(pid_t pid)
{
	struct timespec slice = { 0, 10000000 };
	int i;

	kill(pid, SIGTERM);
	for (i = 0; i < 500; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&slice, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void on_stop(int sig)
{
	pid_t me = getpid();
	int i;

	if (child && child_owner == me)
		stop_child(child);
	for (i = 0; i < MAX_TEMPS; i++)
		if (temps[i].owner == me)
			lsb_rm_rf_safe(temps[i].path);
	/* die of it, as without the handler (SA_RESETHAND reset it) */
	raise(sig);
}

static void install(void)
{
	static int done;
	struct sigaction sa, old;
	size_t i;

	if (done)
		return;
	done = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		/* a signal ignored (nohup, a background job) stays so */
		if (sigaction(stop_signals[i], NULL, &old) ||
		    old.sa_handler != SIG_DFL)
			continue;
		sigaction(stop_signals[i], &sa, NULL);
	}
}

int lsb_cleanup_add(const char *path)
{
	int i;

	install();
	for (i = 0; i < MAX_TEMPS; i++)
		if (temps[i].owner == getpid() && !strcmp(temps[i].path, path))
			return i;
	/* a slot a parent process used (this is its fork) is free here */
	for (i = 0; i < MAX_TEMPS; i++) {
		if (temps[i].owner == getpid())
			continue;
		temps[i].owner = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (lsb_pathf(temps[i].path, sizeof(temps[i].path), "%s",
			      path) < 0)
			return -1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		temps[i].owner = getpid();
		return i;
	}
	return -1;
}

void lsb_cleanup_done(int handle)
{
	if (handle >= 0 && handle < MAX_TEMPS &&
	    temps[handle].owner == getpid())
		temps[handle].owner = 0;
}

void lsb_cleanup_child(pid_t pid)
{
	install();
	child = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	child_owner = getpid();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	child = pid;
}

/* ---- temporaries left by processes that are gone ---- */

/*
 * When process @pid started, in seconds since the epoch; -1 when it does
 * not exist (or /proc cannot say).
 */
static double started(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0, btime = 0;
	FILE *f;
	int i, ok = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'))) {
		/* after "pid (comm)": state is field 3, starttime field 22 */
		for (i = 3; p && i <= 22; i++)
			p = strchr(p + 1, ' ');
		ok = p && sscanf(p, " %llu", &ticks) == 1;
	}
	fclose(f);
	f = fopen("/proc/stat", "r");
	while (ok && f && fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	if (f)
		fclose(f);
	if (!ok || !btime)
		return -1;
	return (double)btime + (double)ticks / sysconf(_SC_CLK_TCK);
}

int lsb_tmp_is_stale(pid_t pid, const struct stat *st)
{
	double start;

	if (pid == getpid())
		return 1;	/* this process's own, from a failed attempt */
	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	/* alive: it made the temporary only if it started before it changed */
	start = started(pid);
	return start > 0 && start > (double)st->st_mtime + 1;
}

int lsb_remove_stale_tmp(const char *path)
{
	char parent[4096], prefix[512], entry[4600];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct dirent *de;
	struct stat st;
	size_t plen;
	int removed = 0;
	DIR *d;

	if (lsb_pathf(parent, sizeof(parent), "%.*s",
		      slash ? (int)(slash == path ? 1 : slash - path) : 1,
		      slash ? path : ".") < 0 ||
	    lsb_pathf(prefix, sizeof(prefix), "%s.tmp.", base) < 0)
		return 0;
	plen = strlen(prefix);
	d = opendir(parent);
	while (d && (de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, prefix, plen))
			continue;
		errno = 0;
		pid = strtol(de->d_name + plen, &end, 10);
		if (errno || *end || end == de->d_name + plen || pid <= 0 ||
		    pid > 0x7fffffffL)
			continue;
		if (lsb_pathf(entry, sizeof(entry), "%s/%s", parent,
			      de->d_name) < 0 || lstat(entry, &st) ||
		    !lsb_tmp_is_stale((pid_t)pid, &st))
			continue;
		lsb_rm_rf(entry);
		removed++;
	}
	if (d)
		closedir(d);
	return removed;
}
