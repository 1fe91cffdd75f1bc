// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	int fd, err;

	if (lsb_pathf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
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
	if (!rename(tmp, path))
		return 0;
	fd = -1;
fail:
	err = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = err;
	return -1;
}
