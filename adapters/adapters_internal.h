/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to adapters/. */
#ifndef LSB_ADAPTERS_INTERNAL_H
#define LSB_ADAPTERS_INTERNAL_H

#include <stddef.h>

void adapter_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

struct adapter_env;

/* Run @argv in @dir (NULL: here), its output appended to @log. */
int adapter_run(const char *dir, const char *log, int verbose,
		char *const argv[]);
int adapter_write_text(const char *path, const char *text);
/* The first compiler or linker errors of @log, for a message. */
void adapter_log_errors(const char *log, char *out, size_t len);
/* Whether kbuild's target (relative to o/) is linked into the simulator. */
int adapter_is_linked(const char *target);
/*
 * kbuild in @tmp's src/ and o/: the configuration (allnoconfig with
 * linsched.config), then the objects the simulator links.
 */
int adapter_kbuild_config(const struct adapter_env *env, const char *tmp,
			  const char *log);
int adapter_kbuild_make(const struct adapter_env *env, const char *tmp,
			const char *log);
/* Link DIR/o's objects with the runtime into DIR/linsched-sim. */
int adapter_link(const struct adapter_env *env, const char *dir,
		 const char *log);
/* builds/KEY of a subset (@dir), and the runtime stamp it must carry. */
int adapter_build_paths(const struct adapter_env *env, const char *subset_hash,
			char *dir, size_t len, char runtime[41]);
int adapter_build_finish(const struct adapter_env *env, const char *dir,
			 const char *runtime, const char *version,
			 char **out_exe);
/*
 * The temporary of a build of @dir, DIR.tmp.PID, into @tmp: the ones
 * builds of @dir left when they were killed are removed, and this one
 * will be if a signal stops the process (until adapter_build_end()).
 * Return 0 or ADAPTER_EIO.
 */
int adapter_build_tmp(const char *dir, char *tmp, size_t len);
/*
 * A build in @tmp ends (@ret its outcome): failed, published or removed.
 * A failure for a cause outside the tree (a full disk, a signal, a tool
 * that could not run) is ADAPTER_EIO, never KEY.failed.
 */
int adapter_build_end(const struct adapter_env *env, int ret, const char *tmp,
		      const char *dir, const char *version,
		      const char *runtime, const char *commit,
		      const char *subset_hash, char **out_exe);
/*
 * Write what a later build reads to start from this one (reuse.c): the
 * revision and the ids of the linked objects, into the finished @dir.
 */
int adapter_reuse_record(const struct adapter_env *env, const char *dir,
			 const char *commit, const char *subset_hash);

#endif
