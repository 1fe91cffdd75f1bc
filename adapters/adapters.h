/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * adapters - turn an exported kernel tree into a simulator executable.
 *
 * Probe the tree for its version and for the symbols and signatures that
 * changed between versions, overlay arch/linsched with a generated header
 * that absorbs those differences, configure and build kernel/sched plus a
 * few lib/ objects with the tree's own kbuild, and link them with the
 * simulator runtime. Builds are cached by (subset hash, adapter version,
 * config, compiler); the executable is relinked when the runtime changes.
 */
#ifndef LSB_ADAPTERS_H
#define LSB_ADAPTERS_H

#include <stddef.h>

/* Bumped when the adapter logic (not its data files) changes. */
#define ADAPTER_LOGIC_VERSION 1

/**
 * enum adapter_error - failures the callers act on
 * @ADAPTER_OK: success
 * @ADAPTER_EUNSUPPORTED: no adapter covers this tree
 * @ADAPTER_EBUILD: kbuild or the link failed: the revision's build failure
 * @ADAPTER_EIO: a file, directory or process could not be made
 */
enum adapter_error {
	ADAPTER_OK = 0,
	ADAPTER_EUNSUPPORTED = -1,
	ADAPTER_EBUILD = -2,
	ADAPTER_EIO = -3,
};

/**
 * struct adapter_probe - what a tree is
 * @version: "6.1.192" from the top Makefile
 * @major, @minor, @sublevel: its numbers
 * @sched_tick: scheduler_tick() is named sched_tick() (6.10+)
 * @sched_balance_rq: load_balance() is named sched_balance_rq() (6.10+)
 * @softirq_void: softirq handlers take no argument (6.10+)
 * @kmalloc_noprof: allocators are the *_noprof variants (6.10+)
 * @arch_resched_ipi: the arch sends reschedule IPIs via
 *	arch_smp_send_reschedule()
 * @dl_server: the fair deadline server exists (6.8+)
 * @eevdf: fair.c picks by EEVDF (6.6+)
 * @kvfree_ptr: kvfree_call_rcu() takes the object pointer
 * @devm_named: __devm_add_action() takes a name
 * @sized_strscpy: strscpy() is a macro over sized_strscpy()
 * @sd_share_llc: the LLC domain flag is SD_SHARE_LLC, not
 *	SD_SHARE_PKG_RESOURCES (6.10+)
 * @cpufreq_pressure: cpufreq core owns the per-CPU cpufreq_pressure (6.10+)
 * @cpu_subsys_const: cpu_subsys is a const struct bus_type (6.11+)
 */
struct adapter_probe {
	char version[32];
	int major, minor, sublevel;
	int sched_tick;
	int sched_balance_rq;
	int softirq_void;
	int kmalloc_noprof;
	int arch_resched_ipi;
	int dl_server;
	int eevdf;
	int kvfree_ptr;
	int devm_named;
	int sized_strscpy;
	int sd_share_llc;
	int cpufreq_pressure;
	int cpu_subsys_const;
};

/**
 * struct adapter_env - where the adapter's files and caches are
 * @share_dir: holds arch/linsched, linsched.config, linsched.lds, libsim.a
 * @cache_dir: holds trees/ (exports) and builds/
 * @jobs: parallel kbuild jobs
 * @verbose: show kbuild's output
 */
struct adapter_env {
	const char *share_dir;
	const char *cache_dir;
	int jobs;
	int verbose;
};

/**
 * adapter_probe() - probe an exported tree
 * @out: filled in
 * @tree: the tree's top directory
 *
 * Return: 0; ADAPTER_EUNSUPPORTED when no adapter covers the tree (the
 * message says what was found and what is supported); ADAPTER_EIO.
 */
int adapter_probe(struct adapter_probe *out, const char *tree);

/**
 * adapter_header() - the arch header that absorbs the probed differences
 * @p: a probe
 *
 * Return: a malloc()ed string the caller frees, or NULL.
 */
char *adapter_header(const struct adapter_probe *p);

/**
 * adapter_toolchain() - what decides whether a subset builds, besides it
 * @env: files and caches (only share_dir is read)
 * @out: receives 40 hex digits: a hash of the adapter (its logic version
 *	 and every file it overlays) and the compiler, as in the build key
 *
 * Computed once per process and share directory.
 *
 * Return: 0, or ADAPTER_EIO with adapter_last_error() set.
 */
int adapter_toolchain(const struct adapter_env *env, char out[41]);

/**
 * adapter_build() - build (or find cached) the simulator of a tree
 * @env: files and caches
 * @tree: the exported tree (not modified)
 * @subset_hash: its subset hash (part of the cache key)
 * @out_exe: receives the executable's path (malloc()ed, caller frees)
 *
 * On ADAPTER_EBUILD the message holds the compiler's first errors and the
 * full log stays in the build directory.
 *
 * Return: 0, ADAPTER_EUNSUPPORTED, ADAPTER_EBUILD or ADAPTER_EIO.
 */
int adapter_build(const struct adapter_env *env, const char *tree,
		  const char *subset_hash, char **out_exe);

/**
 * adapter_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, "" if none.
 */
const char *adapter_last_error(void);

#endif
