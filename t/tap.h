/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - a tiny TAP producer for the C tests, after kselftest.h.
 *
 * Exit codes follow kselftest: 0 pass, 1 fail, 4 skip.
 */
#ifndef LSB_TAP_H
#define LSB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The plan after the tests, for a count a table decides. */
static inline int tap_done_testing(void)
{
	printf("1..%d\n", tap_n);
	if (tap_failed)
		tap_diag("%d of %d failed", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

static inline int tap_done(void)
{
	if (tap_failed)
		tap_diag("%d of %d failed", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

/*
 * One case per function, after the kernel's tools/testing/vma:
 * static bool test_x(void) { ASSERT_EQ(...); ... return true; } and
 * TEST(test_x) in main(). A failed assertion prints file:line, the
 * expression and both values, and returns false from the case.
 */
#define TEST(fn)	tap_ok(fn(), "%s", #fn + 5)

#define ASSERT_TRUE(c) do {						\
	if (!(c)) {							\
		tap_diag("%s:%d: expected %s", __FILE__, __LINE__, #c);	\
		return false;						\
	}								\
} while (0)

#define ASSERT_FALSE(c)	ASSERT_TRUE(!(c))

#define ASSERT_EQ(a, b) do {						\
	long long a_ = (long long)(a), b_ = (long long)(b);		\
	if (a_ != b_) {							\
		tap_diag("%s:%d: %s == %s: %lld != %lld", __FILE__,	\
			 __LINE__, #a, #b, a_, b_);			\
		return false;						\
	}								\
} while (0)

/* |a - b| <= eps (two NaNs are not equal). */
#define ASSERT_NEAR(a, b, eps) do {					\
	double a_ = (a), b_ = (b);					\
	if (!(fabs(a_ - b_) <= (eps))) {				\
		tap_diag("%s:%d: %s == %s: %.17g != %.17g", __FILE__,	\
			 __LINE__, #a, #b, a_, b_);			\
		return false;						\
	}								\
} while (0)

#define ASSERT_STREQ(a, b) do {						\
	const char *a_ = (a), *b_ = (b);				\
	if (!a_ || !b_ || strcmp(a_, b_)) {				\
		tap_diag("%s:%d: %s == %s: \"%s\" != \"%s\"", __FILE__,	\
			 __LINE__, #a, #b, a_ ? a_ : "(null)",		\
			 b_ ? b_ : "(null)");				\
		return false;						\
	}								\
} while (0)

#endif
