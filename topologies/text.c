// SPDX-License-Identifier: GPL-2.0-only
/*
 * The input files of the simulator's side, topologies' and workloads' (the
 * workloads' parser reads with these too: topologies/ is the lowest module
 * of libsim): read once, whatever the file is, and never more than a
 * workload or a machine can need; and the names they give, which end up in
 * traces, summaries and results, kept to printable UTF-8.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topologies/topologies.h"

char *topology_read_input(const char *path, const char *what, size_t *len,
			  char *err, size_t errlen)
{
	size_t n = 0, cap = 0;
	struct stat st;
	char *buf = NULL, *nbuf;
	ssize_t got;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s '%s': cannot read it: %s", what, path,
			 strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s '%s': a directory, not a JSON file",
			 what, path);
		goto fail;
	}
	/* one read at a time, so that a FIFO or /dev/zero stops at the cap */
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf) {
				snprintf(err, errlen, "%s '%s': out of memory",
					 what, path);
				goto fail;
			}
			buf = nbuf;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(err, errlen, "%s '%s': cannot read it: %s",
				 what, path, strerror(errno));
			goto fail;
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > TOPOLOGY_INPUT_MAX) {
			snprintf(err, errlen, "%s '%s': larger than %u MiB, the most a %s file may hold",
				 what, path, TOPOLOGY_INPUT_MAX >> 20, what);
			goto fail;
		}
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		snprintf(err, errlen, "%s '%s': a NUL byte at offset %zu: not a JSON text",
			 what, path, strlen(buf));
		goto fail;
	}
	close(fd);
	if (len)
		*len = n;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* The length of the UTF-8 character at @s (1..4), or 0 when it is none. */
static size_t utf8_char(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing beyond U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* A C0 or C1 control character, or DEL, at @s (@n bytes long). */
static int is_control(const unsigned char *s, size_t n)
{
	return (n == 1 && (s[0] < 0x20 || s[0] == 0x7f)) ||
	       (n == 2 && s[0] == 0xc2 && s[1] < 0xa0);
}

const char *topology_unprintable(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_char(p);

		if (!n) {
			snprintf(buf, len, "bytes that are not UTF-8 (\\x%02x at byte %zu)",
				 *p, (size_t)(p - (const unsigned char *)s) + 1);
			return buf;
		}
		if (is_control(p, n)) {
			char hex[9];

			snprintf(hex, sizeof(hex), n == 1 ? "\\x%02x" :
				 "\\x%02x\\x%02x", p[0], p[1]);
			snprintf(buf, len, "a control character (%s at byte %zu)",
				 hex, (size_t)(p - (const unsigned char *)s) + 1);
			return buf;
		}
		p += n;
	}
	return NULL;
}

size_t topology_utf8_cut(const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0, n;

	while (at < max && p[at]) {
		n = utf8_char(p + at);
		if (!n)
			n = 1;	/* not UTF-8: bytes are bytes */
		if (at + n > max)
			break;
		at += n;
	}
	return at;
}

void topology_printable(char *s, size_t size)
{
	char *out, *copy, why[1];
	size_t i = 0, o = 0, n;

	if (!size || !topology_unprintable(s, why, sizeof(why)))
		return;
	copy = strdup(s);
	if (!copy)
		return;
	out = s;
	while (copy[i]) {
		n = utf8_char((const unsigned char *)copy + i);
		if (n && !is_control((const unsigned char *)copy + i, n)) {
			if (o + n >= size)
				break;
			memcpy(out + o, copy + i, n);
			o += n;
			i += n;
			continue;
		}
		/* a control character or a stray byte: one \xNN per byte */
		n = n ? n : 1;
		for (; n; n--, i++) {
			if (o + 4 >= size)
				goto done;
			snprintf(out + o, size - o, "\\x%02x",
				 (unsigned char)copy[i]);
			o += 4;
		}
	}
done:
	out[o] = '\0';
	free(copy);
}

const char *topology_json_nul(const char *text)
{
	const char *p;

	for (p = text; *p; p++) {
		if (*p != '"')
			continue;
		for (p++; *p && *p != '"'; p++) {
			if (*p != '\\' || !p[1])
				continue;
			if (!strncmp(p + 1, "u0000", 5))
				return p;
			p++;
		}
		if (!*p)
			break;
	}
	return NULL;
}
