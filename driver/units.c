// SPDX-License-Identifier: GPL-2.0-only
/*
 * units.c - many results at once: what the cache has already, then a pool
 * of child processes that fill the result cache, one unit (a prepared
 * revision and a run spec) each, or Slurm job arrays (slurm.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/driver.h"
#include "driver/driver_internal.h"

struct slot {
	pid_t pid;
	int fd;			/* the read end of the child's error pipe */
	size_t unit;
};

/* In the child: compute one result; its error, if any, into @fd. */
static void __attribute__((noreturn))
unit_child(const struct driver_paths *paths, const struct driver_unit *u,
	   int fd)
{
	struct driver_result r;
	const char *msg;
	int ret;

	ret = driver_target_result(&r, paths, u->target, &u->spec,
				   DRIVER_RESULT_RUN);
	driver_result_release(&r);
	if (ret) {
		msg = driver_last_error();
		if (write(fd, msg, strnlen(msg, 4000)) < 0)
			ret = DRIVER_ERROR;
	}
	/* the status says what stopped it: the simulator's refusal is usage */
	_exit(ret >= 0 && ret < 126 ? ret : DRIVER_ERROR);
}

/*
 * Reap one child: its unit's state, and the first error's message. A
 * child killed in its run leaves that run's temporaries: they go here.
 */
static void reap(const struct driver_paths *paths, struct slot *s,
		 int wstatus, struct driver_unit *units, char *first_error,
		 size_t len, size_t *failed)
{
	struct driver_unit *u = &units[s->unit];
	char msg[4001];
	ssize_t n;

	n = read(s->fd, msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(s->fd);
	driver_run_files_remove(paths, s->pid);
	s->pid = 0;
	if (WIFEXITED(wstatus) && !WEXITSTATUS(wstatus)) {
		u->state = DRIVER_UNIT_RAN;
		return;
	}
	u->state = DRIVER_UNIT_FAILED;
	u->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : DRIVER_ERROR;
	if (!(*failed)++)
		snprintf(first_error, len, "%s", *msg ? msg :
			 WIFSIGNALED(wstatus) ? strsignal(WTERMSIG(wstatus)) :
			 "a unit's process failed");
}

int driver_units_run(const struct driver_paths *paths,
		     struct driver_unit *units, size_t n,
		     struct driver_engine *engine,
		     driver_progress_fn progress, void *arg)
{
	struct driver_result r;
	struct slot *slots;
	size_t i, next = 0, done = 0, failed = 0, ran = 0;
	char first_error[4096] = "";
	int running = 0, k, ret, jobs = engine->jobs;

	if (jobs < 1)
		jobs = 1;
	for (i = 0; i < n; i++) {
		ret = driver_target_result(&r, paths, units[i].target,
					   &units[i].spec, DRIVER_RESULT_CHECK);
		driver_result_release(&r);
		if (ret && ret != DRIVER_NOT_CACHED)
			return -1;	/* driver_last_error() says why */
		units[i].state = ret ? DRIVER_UNIT_TODO : DRIVER_UNIT_CACHED;
		done += !ret;
	}
	if (progress)
		progress(done, n, 0, arg);
	if (done == n)
		return 0;
	if (engine->slurm)
		return driver_slurm_run(paths, units, n, engine, progress, arg);
	slots = calloc(jobs, sizeof(*slots));
	if (!slots) {
		driver_set_error("out of memory");
		return -1;
	}
	while (done < n) {
		int wstatus, fds[2];
		pid_t pid;

		while (running < jobs && next < n) {
			if (units[next].state != DRIVER_UNIT_TODO) {
				next++;
				continue;
			}
			for (k = 0; slots[k].pid; k++)
				;
			if (pipe2(fds, O_CLOEXEC)) {
				driver_set_error("cannot make a pipe: %s",
						 strerror(errno));
				goto fail;
			}
			fflush(NULL);	/* the child must not write our buffers */
			pid = fork();
			if (pid < 0) {
				driver_set_error("cannot fork: %s",
						 strerror(errno));
				close(fds[0]);
				close(fds[1]);
				goto fail;
			}
			if (!pid) {
				close(fds[0]);
				unit_child(paths, &units[next], fds[1]);
			}
			close(fds[1]);
			slots[k].pid = pid;
			slots[k].fd = fds[0];
			slots[k].unit = next++;
			running++;
		}
		if (!running)
			break;
		pid = waitpid(-1, &wstatus, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			driver_set_error("waitpid: %s", strerror(errno));
			goto fail;
		}
		for (k = 0; k < jobs && slots[k].pid != pid; k++)
			;
		if (k == jobs)
			continue;	/* not ours */
		reap(paths, &slots[k], wstatus, units, first_error,
		     sizeof(first_error), &failed);
		running--;
		done++;
		ran++;
		if (progress)
			progress(done, n, ran, arg);
	}
	free(slots);
	if (failed) {
		driver_set_error("%zu of %zu units failed; the first: %s",
				 failed, n, first_error);
		return (int)(failed < 0x7fffffff ? failed : 0x7fffffff);
	}
	return 0;
fail:
	for (k = 0; k < jobs; k++)
		if (slots[k].pid) {
			kill(slots[k].pid, SIGTERM);
			waitpid(slots[k].pid, NULL, 0);
			close(slots[k].fd);
			driver_run_files_remove(paths, slots[k].pid);
		}
	free(slots);
	return -1;
}

int driver_engine_set(struct driver_engine *e, const char *key,
		      const char *value)
{
	char *end;
	long v;

	if (!strcmp(key, "engine")) {
		if (strcmp(value, "local") && strcmp(value, "slurm")) {
			driver_set_error("--engine '%s': expected local or slurm",
					 value);
			return -1;
		}
		e->slurm = !strcmp(value, "slurm");
		return 0;
	}
	if (!strcmp(key, "partition")) {
		e->partition = value;
		return 0;
	}
	if (!strcmp(key, "slurm-opt")) {
		e->slurm_opt = value;
		return 0;
	}
	v = strtol(value, &end, 10);
	if (*end || end == value || v < 0 || v > 100000) {
		driver_set_error("--%s '%s': expected a number from 0 to 100000",
				 key, value);
		return -1;
	}
	if (!strcmp(key, "jobs") && v >= 1 && v <= 256)
		e->jobs = (int)v;
	else if (!strcmp(key, "slurm-tasks"))
		e->tasks = (int)v;
	else if (!strcmp(key, "slurm-retries"))
		e->retries = (int)v;
	else {
		driver_set_error("--%s '%s': not an engine option, or out of range",
				 key, value);
		return -1;
	}
	return 0;
}
