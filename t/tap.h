/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - a tiny TAP producer for the C tests, after kselftest.h.
 *
 * Exit codes follow kselftest: 0 pass, 1 fail, 4 skip.
 */
#ifndef LSB_TAP_H
#define LSB_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline void __attribute__((noreturn)) tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(4);
}

static inline int tap_done(void)
{
	if (tap_failed)
		tap_diag("%d of %d failed", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

#endif
