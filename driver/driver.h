/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * driver - from a revision name to a simulator run: resolve it in a
 * repository (bisect/), export its build subset, build it (adapters/),
 * and run its simulator executable as a child process with a time limit,
 * so that a crash or hang is that revision's result.
 */
#ifndef LSB_DRIVER_H
#define LSB_DRIVER_H

#include <stddef.h>

/**
 * struct driver_paths - where things are
 * @share_dir: the installed data (arch overlay, config, runtime library)
 * @data_dir: the output directory: cache/, kernels.git, results
 * @cache_dir: @data_dir/cache unless overridden
 * @repo: the default kernel repository (@data_dir/kernels.git)
 */
struct driver_paths {
	char share_dir[4096];
	char data_dir[4096];
	char cache_dir[4096];
	char repo[4096];
};

/**
 * driver_paths_init() - find the data beside the running executable
 * @out: filled in; LSBISECT_CACHE and LSBISECT_REPO override the defaults
 *
 * Running from a build tree (build/bin), the output directory is build/;
 * installed, it is $XDG_CACHE_HOME/lsbisect (~/.cache/lsbisect).
 *
 * Return: 0, or -1 with driver_last_error() set.
 */
int driver_paths_init(struct driver_paths *out);

/**
 * enum driver_status - what became of a revision
 * @DRIVER_OK: built and ran to the end
 * @DRIVER_ERROR: a usage or environment error (not the revision's fault)
 * @DRIVER_BUILD_FAILED: the revision does not build
 * @DRIVER_CRASHED: the kernel hit BUG/panic or the process died on a signal
 * @DRIVER_HUNG: the simulated machine hung or the time limit passed
 * @DRIVER_UNSUPPORTED: no adapter covers the revision
 */
enum driver_status {
	DRIVER_OK = 0,
	DRIVER_ERROR = 1,
	DRIVER_BUILD_FAILED = 3,
	DRIVER_CRASHED = 4,
	DRIVER_HUNG = 5,
	DRIVER_UNSUPPORTED = 6,
};

/**
 * struct driver_revision - a revision made ready to run
 * @name: as the user wrote it
 * @commit: full hash
 * @subset: subset hash
 * @exe: the simulator executable (malloc()ed)
 */
struct driver_revision {
	char name[256];
	char commit[41];
	char subset[41];
	char *exe;
};

/**
 * driver_prepare() - resolve, export and build a revision
 * @out: filled in; release with driver_revision_release()
 * @paths: from driver_paths_init()
 * @repo: the repository path
 * @rev: the revision name
 * @jobs: parallel build jobs
 * @verbose: show kbuild's output
 *
 * Return: DRIVER_OK, DRIVER_ERROR, DRIVER_BUILD_FAILED or
 * DRIVER_UNSUPPORTED, with driver_last_error() set on failure.
 */
int driver_prepare(struct driver_revision *out,
		   const struct driver_paths *paths, const char *repo,
		   const char *rev, int jobs, int verbose);

void driver_revision_release(struct driver_revision *rev);

/**
 * driver_run() - run a simulator executable with a time limit
 * @exe: the executable
 * @argv: its arguments, NULL-terminated, argv[0] included
 * @timeout_s: wall-clock limit in seconds (0: none)
 * @stderr_path: where its standard error goes (NULL: inherited)
 *
 * Return: DRIVER_OK, DRIVER_CRASHED, DRIVER_HUNG or DRIVER_ERROR (a usage
 * error of the simulator), with driver_last_error() describing a failure.
 */
int driver_run(const char *exe, char *const argv[], int timeout_s,
	       const char *stderr_path);

/**
 * driver_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, "" if none.
 */
const char *driver_last_error(void);

#endif
