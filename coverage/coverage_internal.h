/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * coverage_internal.h - shared between the files of coverage/, not
 * installed.
 */
#ifndef LSB_COVERAGE_INTERNAL_H
#define LSB_COVERAGE_INTERNAL_H

/* Set the message coverage_last_error() returns. */
void coverage_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
