// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <git2.h>

#include "common/common.h"

int lsb_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

void lsb_vformat(char *buf, size_t len, const char *fmt, va_list ap)
{
	vsnprintf(buf, len, fmt, ap);
}

int lsb_mkdir_p(const char *path)
{
	char tmp[4096], *p;

	if (lsb_pathf(tmp, sizeof(tmp), "%s", path) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

/* The whole of a lock file, as fcntl() locks it (@cmd F_SETLK, F_GETLK). */
static int lock_op(int fd, int cmd, struct flock *l)
{
	memset(l, 0, sizeof(*l));
	l->l_type = F_WRLCK;
	l->l_whence = SEEK_SET;
	return fcntl(fd, cmd, l);
}

int lsb_lock_take(int fd, const char *dir, const char *lock, char *err,
		  size_t len)
{
	struct flock l;
	char *holder = NULL, *name = NULL;
	int e, tries;

	if (!lock_op(fd, F_SETLK, &l))
		return 0;
	e = errno;
	if (e != EAGAIN && e != EACCES) {
		snprintf(err, len, "cannot lock '%s': %s", lock, strerror(e));
		errno = e;
		return -1;
	}
	/*
	 * The kernel knows the holder; its name is in the file once it has
	 * written it, just after taking the lock: give it a moment (0.5 s)
	 */
	for (tries = 0; tries < 100; tries++) {
		free(holder);
		name = NULL;
		holder = lsb_read_file(lock, NULL);
		if (holder && (name = strchr(holder, ' '))) {
			name++;
			name[strcspn(name, "\n")] = '\0';
		}
		if ((name && *name) || lock_op(fd, F_GETLK, &l) ||
		    l.l_type == F_UNLCK)
			break;
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
	if (!name || !*name)
		name = "command";
	if (!lock_op(fd, F_GETLK, &l) && l.l_type != F_UNLCK && l.l_pid > 0)
		snprintf(err, len, "another %s works in '%s': the lock '%s' is held by pid %d",
			 name, dir, lock, (int)l.l_pid);
	else
		snprintf(err, len, "another %s works in '%s': the lock '%s' is held",
			 name, dir, lock);
	free(holder);
	errno = EWOULDBLOCK;
	return -1;
}

void lsb_lock_holder(int fd, const char *who)
{
	char text[300];
	int n = snprintf(text, sizeof(text), "%d %s\n", (int)getpid(), who);

	if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)n, 0) != n) {
		/* held all the same; fcntl() says by whom */
	}
}

int lsb_out_dir(const char *dir, const char *who, char *err, size_t len)
{
	char lock[4300];
	int fd;

	if (lsb_mkdir_p(dir)) {
		snprintf(err, len, "cannot make '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (lsb_pathf(lock, sizeof(lock), "%s/.lock", dir) < 0) {
		snprintf(err, len, "'%s': %s", dir, strerror(ENAMETOOLONG));
		return -1;
	}
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, len, "cannot open the lock '%s': %s", lock,
			 strerror(errno));
		return -1;
	}
	if (lsb_lock_take(fd, dir, lock, err, len)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	lsb_lock_holder(fd, who);
	return fd;
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

void lsb_rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *lsb_last_line(char *s)
{
	char *end = s + strlen(s), *p;

	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	p = strrchr(s, '\n');
	return p ? p + 1 : s;
}

char *lsb_read_file(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !(buf = malloc(st.st_size + 1)))
		goto fail;
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, st.st_size - got);
		if (n <= 0)
			goto fail;
		got += n;
	}
	buf[got] = '\0';
	close(fd);
	if (len)
		*len = got;
	return buf;
fail:
	err = errno;
	free(buf);
	close(fd);
	errno = err;
	return NULL;
}

int lsb_write_atomic(const char *path, const void *buf, size_t len)
{
	char tmp[4200];
	size_t done = 0;
	ssize_t n;
	int fd, err, handle;

	if (lsb_pathf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	/* stopped before the rename (a slow fsync): no PATH.tmp.PID left */
	handle = lsb_cleanup_add(tmp);
	while (done < len) {
		n = write(fd, (const char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += n;
	}
	if (fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	if (!rename(tmp, path)) {
		lsb_cleanup_done(handle);
		return 0;
	}
	fd = -1;
fail:
	err = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	lsb_cleanup_done(handle);
	errno = err;
	return -1;
}

int lsb_write_json(const char *path, const cJSON *json)
{
	char *text = lsb_json_print(json, 1), *line;
	size_t len;
	int ret;

	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	len = strlen(text);
	line = realloc(text, len + 2);
	if (!line) {
		free(text);
		errno = ENOMEM;
		return -1;
	}
	memcpy(line + len, "\n", 2);
	ret = lsb_write_atomic(path, line, len + 1);
	free(line);
	return ret;
}

int lsb_grow(void *p, size_t *cap, size_t need, size_t size)
{
	void **array = p;
	size_t n = *cap, bytes;
	void *q;

	if (need <= n)
		return 0;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			errno = EOVERFLOW;
			return -1;
		}
		n *= 2;
	}
	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = EOVERFLOW;
		return -1;
	}
	q = realloc(*array, bytes);
	if (!q)
		return -1;
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*array = q;
	*cap = n;
	return 0;
}

int lsb_blob_id(const void *buf, size_t len, char out[41])
{
	git_oid oid;
	int ret;

	if (git_libgit2_init() < 0)
		return -1;
	ret = git_odb_hash(&oid, len ? buf : "", len, GIT_OBJECT_BLOB);
	if (!ret)
		git_oid_tostr(out, 41, &oid);
	git_libgit2_shutdown();
	return ret < 0 ? -1 : 0;
}

const char *lsb_short_name(char *buf, size_t len, const char *spec)
{
	const char *base = strrchr(spec, '/');
	size_t n;

	base = base && base[1] ? base + 1 : spec;
	n = strlen(base);
	if (n > 5 && !strcasecmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, base);
	return buf;
}

void lsb_safe_name(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+-=", *s))
			*s = '_';
}

int lsb_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!s || !(isdigit((unsigned char)*s) ||
		    ((*s == '-' || *s == '+') && isdigit((unsigned char)s[1]))))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int lsb_parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double lsb_median(double *v, size_t k)
{
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), by_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

void lsb_ranges_text(char *out, size_t len, const long *v, size_t n)
{
	size_t i, j, used = 0;
	int k;

	*out = '\0';
	for (i = 0; i < n && used + 1 < len; i = j) {
		for (j = i + 1; j < n && v[j] == v[j - 1] + 1; j++)
			;
		k = j - i > 1 ?
		    snprintf(out + used, len - used, "%s%ld-%ld", i ? ", " : "",
			     v[i], v[j - 1]) :
		    snprintf(out + used, len - used, "%s%ld", i ? ", " : "",
			     v[i]);
		if (k < 0)
			break;
		used += (size_t)k;
	}
}

double lsb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
