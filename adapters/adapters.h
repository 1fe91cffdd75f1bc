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
#define ADAPTER_LOGIC_VERSION 4

/**
 * enum adapter_error - failures the callers act on
 * @ADAPTER_OK: success
 * @ADAPTER_EUNSUPPORTED: no adapter covers this tree
 * @ADAPTER_EBUILD: kbuild or the link failed: the revision's build failure
 * @ADAPTER_EIO: a file, directory or process could not be made
 * @ADAPTER_ENOREUSE: a build from a neighbour's objects cannot be made
 *	(adapter_build_reuse()): make a full one
 */
enum adapter_error {
	ADAPTER_OK = 0,
	ADAPTER_EUNSUPPORTED = -1,
	ADAPTER_EBUILD = -2,
	ADAPTER_EIO = -3,
	ADAPTER_ENOREUSE = -4,
};

/**
 * struct adapter_probe - what a tree is
 * @version: "6.1.192" or "7.3.0-rc7" from the top Makefile, for messages
 *	only: no decision reads it
 * @major, @minor, @sublevel: its numbers
 * @found: bit i set when probe i of probe.c's table matched the tree
 *
 * Every difference between kernel versions that the arch absorbs is one
 * probe: a pattern looked for in named files of the tree (README,
 * "Supported kernels", lists them all).
 */
struct adapter_probe {
	char version[48];
	int major, minor, sublevel;
	unsigned long long found;
};

/**
 * enum adapter_variant - what the kernel objects are compiled with besides
 *	kbuild's own flags (part of the build key when not plain)
 * @ADAPTER_PLAIN: nothing
 * @ADAPTER_WORK: -finstrument-functions, arch/linsched excluded: every
 *	kernel function entry calls the simulator, which counts the
 *	kernel's work ("kernel_work" in the results)
 * @ADAPTER_COVERAGE: gcov (-fprofile-arcs -ftest-coverage): a run given
 *	--coverage DIR writes its line counts there, for `linsched coverage`
 */
enum adapter_variant {
	ADAPTER_PLAIN,
	ADAPTER_WORK,
	ADAPTER_COVERAGE,
};

/* "plain", "work", "coverage": what --instrument takes */
#define ADAPTER_VARIANT_EXPECTED "expected work, coverage or plain"

/**
 * adapter_variant_parse() - a variant from its name
 * @name: "plain" (or ""), "work" or "coverage"
 *
 * Return: the variant, or -1 for any other name.
 */
int adapter_variant_parse(const char *name);

/* The name of @variant ("plain" for ADAPTER_PLAIN). */
const char *adapter_variant_name(int variant);

/**
 * struct adapter_env - where the adapter's files and caches are
 * @share_dir: holds arch/linsched, linsched.config, linsched.lds, libsim.a
 * @cache_dir: holds trees/ (exports) and builds/
 * @jobs: parallel kbuild jobs
 * @verbose: show kbuild's output
 * @variant: enum adapter_variant
 */
struct adapter_env {
	const char *share_dir;
	const char *cache_dir;
	int jobs;
	int verbose;
	int variant;
};

/**
 * adapter_probe() - probe an exported tree
 * @out: filled in
 * @tree: the tree's top directory
 *
 * Return: 0; ADAPTER_EUNSUPPORTED when the tree is not a kernel tree, is
 * older than any the arch handles, or has something the arch does not
 * handle (the message names the probe, the file and what it found);
 * ADAPTER_EIO.
 */
int adapter_probe(struct adapter_probe *out, const char *tree);

/**
 * adapter_build_version() - the kernel release a build was made from
 * @exe: the build's linsched-sim, as adapter_build() made it
 * @out: receives "6.1.192" (the top Makefile's VERSION, PATCHLEVEL,
 *	SUBLEVEL and EXTRAVERSION)
 * @len: its size
 *
 * Return: 0, or ADAPTER_EUNSUPPORTED or ADAPTER_EIO with
 * adapter_last_error() set.
 */
int adapter_build_version(const char *exe, char *out, size_t len);

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
 * Its parts (the adapter's files, `cc --version`) are read once per
 * process and share directory.
 *
 * Return: 0, or ADAPTER_EIO with adapter_last_error() set.
 */
int adapter_toolchain(const struct adapter_env *env, char out[41]);

/**
 * adapter_build() - build (or find cached) the simulator of a tree
 * @env: files and caches
 * @tree: the exported tree (not modified)
 * @subset_hash: its subset hash (part of the cache key)
 * @commit: a commit whose subset this is (40 hex digits), recorded for
 *	adapter_build_reuse() of a later revision; NULL records nothing
 * @out_exe: receives the executable's path (malloc()ed, caller frees)
 *
 * On ADAPTER_EBUILD the message holds the compiler's first errors and the
 * full log stays in the build directory. A build that failed for a cause
 * outside the tree (adapter_outside_cause()) is ADAPTER_EIO and leaves
 * nothing; so does one a signal stopped (SIGINT, SIGTERM, SIGHUP: its
 * temporary KEY.tmp.PID is removed before the process dies), and what a
 * build of the key killed otherwise (SIGKILL) left is removed here.
 *
 * Return: 0, ADAPTER_EUNSUPPORTED, ADAPTER_EBUILD or ADAPTER_EIO.
 */
int adapter_build(const struct adapter_env *env, const char *tree,
		  const char *subset_hash, const char *commit, char **out_exe);

/**
 * adapter_outside_cause() - whether a build's words say the system failed
 *	it, not the tree
 * @text: a build log, or a build failure's message
 * @why: receives the first line that says so
 * @len: its size
 *
 * The words are errno's for what no source file causes (no space left on
 * device, disk quota, I/O error, read-only file system, out of memory,
 * too many open files, fork failing) and the compiler driver's for a
 * compiler killed by a signal. A build that failed so, or in which a
 * tool could not run or was killed, or that left its file system full,
 * is ADAPTER_EIO: never cached as the revision's failure.
 *
 * Return: 1 when @text has such words, else 0.
 */
int adapter_outside_cause(const char *text, char *why, size_t len);

/* Whether a subset's build (or its failure) is in the cache already. */
int adapter_build_cached(const struct adapter_env *env,
			 const char *subset_hash);

/**
 * struct adapter_donor - a finished build a later one may start from
 * @key: its build key (a directory of cache/builds)
 * @commit: the commit it was built from
 * @subset: that commit's subset hash
 * @mtime: when it was recorded
 */
struct adapter_donor {
	char key[41];
	char commit[41];
	char subset[41];
	long long mtime;
};

/**
 * adapter_donors() - the finished builds of this adapter, compiler and
 *	variant that recorded their revision, newest first
 * @env: files and caches
 * @out: receives a malloc()ed array (adapter_donors_free()), NULL if none
 * @n: receives its length
 *
 * Return: 0 or ADAPTER_EIO.
 */
int adapter_donors(const struct adapter_env *env, struct adapter_donor **out,
		   size_t *n);
void adapter_donors_free(struct adapter_donor *v);

/**
 * struct adapter_change - a file of the tree that differs from the donor's
 * @path: relative to the top of the tree
 * @blob: a file holding its new content (absolute path; never changes
 *	while builds use it), NULL when the file is removed
 * @added: the donor's tree has no such file
 * @exec: the new file is executable (a script kbuild runs)
 */
struct adapter_change {
	const char *path;
	const char *blob;
	int added;
	int exec;
};

/**
 * adapter_build_reads() - which files a finished build read
 * @env: files and caches
 * @subset_hash: the build's subset
 * @files: paths relative to the top of the tree
 * @n: their number
 * @read: receives, per file, 1 when a target of the build read it (or it
 *	is a Makefile, Kconfig file or script that shapes every build), 0
 *	when nothing did: changing it cannot change the simulator
 *
 * Return: 0, or -1 when the subset has no finished build with kbuild's
 * records.
 */
int adapter_build_reads(const struct adapter_env *env, const char *subset_hash,
			char *const *files, size_t n, int *read);

/**
 * adapter_reuse_cost() - what building from @donor would compile
 * @env, @donor, @ch, @n: as for adapter_build_reuse() (@ch's blobs are
 *	not read: non-NULL means the file is there)
 *
 * Return: the number of kbuild targets to compile again, 0 when the
 * revision's build is the donor's, every target when kbuild must decide;
 * -1 when the donor cannot be read.
 */
int adapter_reuse_cost(const struct adapter_env *env, const char *donor,
		       const struct adapter_change *ch, size_t n);

/**
 * adapter_same_build() - whether changes from a built subset leave its build
 * @env: files and caches
 * @subset_hash: a subset whose build is finished
 * @ch, @n: the files another revision changes from it, as for
 *	adapter_build_reuse()
 *
 * Return: 1 when no target of that build read a changed file (and none
 * shapes the build): the other revision builds the same simulator; 0 when
 * it does not or the build is not there.
 */
int adapter_same_build(const struct adapter_env *env, const char *subset_hash,
		       const struct adapter_change *ch, size_t n);

/**
 * adapter_build_reuse() - build a revision from a neighbour's objects
 * @env: files and caches
 * @donor: the key of a finished build (adapter_donors())
 * @subset_hash: the revision's subset hash
 * @commit: the revision, recorded as adapter_build() does
 * @ch: every file of the build subset where the revision differs from
 *	the donor's, sorted by path
 * @n: their number
 * @out_exe: receives the executable's path (malloc()ed, caller frees)
 *
 * kbuild's records of the donor say which files each target read. When
 * no target read a changed file, the revision's build is the donor's (its
 * key becomes a link to it: nothing is compiled). When only objects the
 * simulator links read them, the donor's objects are copied (and checked
 * against the ids it recorded), those objects compiled again with the
 * commands kbuild recorded, and linked: the objects are the ones a full
 * build makes. A change to what the records do not place (a Makefile, a
 * Kconfig file, scripts/, a file a generated header read) is kbuild's own
 * incremental build in a copy of the donor's outputs, as after a "git
 * checkout". The revision's tree is never exported.
 *
 * Return: 0; ADAPTER_ENOREUSE when a full build is needed (the donor is
 * damaged or gone, the probes give another header, kbuild failed from the
 * donor's outputs; the message or log says why); ADAPTER_EBUILD when an
 * object does not compile (cached as the revision's failure);
 * ADAPTER_EIO.
 */
int adapter_build_reuse(const struct adapter_env *env, const char *donor,
			const char *subset_hash, const char *commit,
			const struct adapter_change *ch, size_t n,
			char **out_exe);

/**
 * adapter_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, "" if none.
 */
const char *adapter_last_error(void);

#endif
