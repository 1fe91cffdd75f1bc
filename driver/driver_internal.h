/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * driver_internal.h - shared between the files of driver/, not installed.
 */
#ifndef LSB_DRIVER_INTERNAL_H
#define LSB_DRIVER_INTERNAL_H

/* Set the message driver_last_error() returns. */
void driver_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
