// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text trace's bytes reach its file from a second thread. A trace is
 * written by the hundred megabytes, and the page cache's copies were a
 * third of what tracing cost a run: the simulation fills one buffer
 * while the writer thread write()s the other, so on a machine with a
 * second core the run waits for the disk only when the writer falls a
 * whole buffer behind. The bytes and their order are those of a single
 * thread: only where the write() happens changes.
 *
 * A run that ends by exit() (a kernel panic, a fatal WARN, a hang) still
 * writes all it traced (an atexit() handler); one killed by a signal
 * loses its last buffer, as stdio's buffer was lost before.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_internal.h"

#define OUT_BUF (4u << 20)

static struct {
	int fd;			/* -1: not open */
	char *buf[2];
	size_t len[2];
	int cur;		/* the buffer being filled */
	int busy;		/* the other one is being written */
	int stop;
	int err;		/* the first write()'s errno */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
} out = { .fd = -1 };

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *writer(void *arg)
{
	int which, err;

	(void)arg;
	pthread_mutex_lock(&out.lock);
	for (;;) {
		while (!out.busy && !out.stop)
			pthread_cond_wait(&out.cond, &out.lock);
		if (!out.busy)
			break;
		which = !out.cur;
		pthread_mutex_unlock(&out.lock);
		err = write_all(out.fd, out.buf[which], out.len[which]);
		pthread_mutex_lock(&out.lock);
		if (err && !out.err)
			out.err = err;
		out.len[which] = 0;
		out.busy = 0;
		pthread_cond_broadcast(&out.cond);
	}
	pthread_mutex_unlock(&out.lock);
	return NULL;
}

/* Hand the filled buffer to the writer, once it is done with the other. */
static void hand_over(void)
{
	pthread_mutex_lock(&out.lock);
	while (out.busy)
		pthread_cond_wait(&out.cond, &out.lock);
	out.cur = !out.cur;
	out.busy = 1;
	pthread_cond_broadcast(&out.cond);
	pthread_mutex_unlock(&out.lock);
}

static void at_exit(void)
{
	sim_trace_out_close();
}

int sim_trace_out_open(FILE *f)
{
	static int registered;
	sigset_t all, old;
	int failed;

	if (fflush(f))
		return -1;
	out.buf[0] = malloc(OUT_BUF);
	out.buf[1] = malloc(OUT_BUF);
	if (!out.buf[0] || !out.buf[1] ||
	    pthread_mutex_init(&out.lock, NULL) ||
	    pthread_cond_init(&out.cond, NULL))
		goto fail;
	out.fd = fileno(f);
	out.cur = out.busy = out.stop = out.err = 0;
	out.len[0] = out.len[1] = 0;
	/* the simulation's signals (faults, alarms) stay with it */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	failed = pthread_create(&out.thread, NULL, writer, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (failed) {
		out.fd = -1;
		goto fail;
	}
	if (!registered++)
		atexit(at_exit);
	return 0;
fail:
	free(out.buf[0]);
	free(out.buf[1]);
	out.buf[0] = out.buf[1] = NULL;
	return -1;
}

int sim_trace_out_active(void)
{
	return out.fd >= 0;
}

void sim_trace_out_put(const char *p, size_t n)
{
	while (n) {
		size_t room = OUT_BUF - out.len[out.cur];
		size_t k = n < room ? n : room;

		memcpy(out.buf[out.cur] + out.len[out.cur], p, k);
		out.len[out.cur] += k;
		p += k;
		n -= k;
		if (out.len[out.cur] == OUT_BUF)
			hand_over();
	}
}

int sim_trace_out_close(void)
{
	int err;

	if (out.fd < 0)
		return 0;
	if (out.len[out.cur])
		hand_over();
	pthread_mutex_lock(&out.lock);
	while (out.busy)
		pthread_cond_wait(&out.cond, &out.lock);
	out.stop = 1;
	pthread_cond_broadcast(&out.cond);
	pthread_mutex_unlock(&out.lock);
	pthread_join(out.thread, NULL);
	err = out.err;
	out.fd = -1;
	free(out.buf[0]);
	free(out.buf[1]);
	out.buf[0] = out.buf[1] = NULL;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
