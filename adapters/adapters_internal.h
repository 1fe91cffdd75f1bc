/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to adapters/. */
#ifndef LSB_ADAPTERS_INTERNAL_H
#define LSB_ADAPTERS_INTERNAL_H

#include <stddef.h>

void adapter_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
