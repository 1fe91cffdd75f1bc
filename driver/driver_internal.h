/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * driver_internal.h - shared between the files of driver/, not installed.
 */
#ifndef LSB_DRIVER_INTERNAL_H
#define LSB_DRIVER_INTERNAL_H

#include <stddef.h>
#include <sys/types.h>

/* Set the message driver_last_error() returns. */
void driver_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Run the units still DRIVER_UNIT_TODO as Slurm job arrays (slurm.c);
 * as driver_units_run() returns.
 */
struct driver_paths;
struct driver_unit;
struct driver_engine;
int driver_slurm_run(const struct driver_paths *paths,
		     struct driver_unit *units, size_t n,
		     struct driver_engine *engine,
		     void (*progress)(size_t, size_t, size_t, void *),
		     void *arg);

/*
 * The temporaries a run of process @pid makes in the result cache (its
 * simulator's JSON and stderr): removed by whoever sees @pid die (results.c).
 */
void driver_run_files_remove(const struct driver_paths *paths, pid_t pid);

#endif
