/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to workloads/: the rt-app JSON reader. */
#ifndef LSB_WORKLOADS_INTERNAL_H
#define LSB_WORKLOADS_INTERNAL_H

#include "workloads/workloads.h"

/* rtapp.c: fill @out (spec already set) from the rt-app file @path. */
int workload_rtapp_parse(struct workload *out, const char *path, char *err,
			 size_t errlen);

/* workloads.c: check @spec (its length, printable) and make it @out's. */
int workload_set_spec(struct workload *out, const char *spec, char *err,
		      size_t errlen);

#endif
