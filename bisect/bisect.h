/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect.h - read a kernel git history: resolve revisions, hash and export
 * the build subset of a revision's tree.
 *
 * Everything is read from git objects with libgit2. The module never checks
 * out and never writes the repository: not its index, refs, config or work
 * tree. It never prints and never exits; failures return a negative
 * enum bisect_error and leave a message for bisect_last_error().
 *
 * Strings passed in are borrowed for the duration of the call. Objects the
 * module allocates are freed by the matching *_free() or, where a plain
 * array is returned, by free(); each function says which.
 */
#ifndef LSB_BISECT_H
#define LSB_BISECT_H

#include <stddef.h>

/**
 * enum bisect_error - failures a caller may act on
 * @BISECT_OK: success
 * @BISECT_ENOTFOUND: the repository, a revision or an object does not exist,
 *	or a revision is ambiguous or names no commit
 * @BISECT_EGIT: libgit2 failed for another reason (corrupt object, ...)
 * @BISECT_EIO: a file system operation failed (export)
 * @BISECT_EEXIST: the export directory exists and is not a complete export
 *	of the same subset
 * @BISECT_EINVAL: a bad argument (NULL, malformed hash)
 * @BISECT_ENOMEM: out of memory
 */
enum bisect_error {
	BISECT_OK = 0,
	BISECT_ENOTFOUND = -1,
	BISECT_EGIT = -2,
	BISECT_EIO = -3,
	BISECT_EEXIST = -4,
	BISECT_EINVAL = -5,
	BISECT_ENOMEM = -6,
};

/* An open repository: opaque, freed with bisect_repo_free(). */
typedef struct bisect_repo bisect_repo;

/* Name of the marker file a complete export holds (its subset hash). */
#define BISECT_EXPORT_MARKER ".lsbisect-export"

/**
 * bisect_last_error() - the message of the last failure in this thread
 *
 * Lowercase, no final period, subjects quoted, e.g.
 * "revision 'v9.9' not found in repository 'linux': ...". Valid until the
 * next bisect_*() call in the same thread.
 *
 * Return: a borrowed string; "" if nothing failed yet.
 */
const char *bisect_last_error(void);

/**
 * bisect_repo_open() - open a git repository for reading
 * @out: receives the repository, to be freed with bisect_repo_free()
 * @path: a work tree, a .git directory or a bare repository; parent
 *	directories are not searched
 *
 * Initialises libgit2 on the first open; bisect_repo_free() of the last
 * open repository shuts it down again.
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EINVAL, BISECT_ENOMEM.
 * On failure *@out is NULL.
 */
int bisect_repo_open(bisect_repo **out, const char *path);

/**
 * bisect_repo_free() - close a repository opened by bisect_repo_open()
 * @r: the repository; NULL is allowed
 */
void bisect_repo_free(bisect_repo *r);

/**
 * bisect_resolve() - resolve a revision to a commit id
 * @r: the repository
 * @name: anything git rev-parse takes: tag, branch, full or abbreviated
 *	hash, "HEAD~3", "v6.1.170^{commit}"; tags are peeled to their commit
 * @out_hex: receives the 40 hex digits of the commit and a NUL
 *
 * Return: 0; BISECT_ENOTFOUND when @name names nothing, is ambiguous or
 * does not peel to a commit (the message names @name and the repository);
 * BISECT_EGIT, BISECT_EINVAL.
 */
int bisect_resolve(bisect_repo *r, const char *name, char out_hex[41]);

/**
 * bisect_subset_rules() - the rules of the build subset (bisect/subset.list)
 * @n: receives the number of rules
 *
 * A rule is "NAME" (one file), "NAME/" (a whole directory) or "**\/GLOB"
 * (every file whose base name matches the fnmatch(3) GLOB, anywhere).
 *
 * Return: a static array of @n strings; not to be freed.
 */
const char *const *bisect_subset_rules(size_t *n);

/**
 * bisect_subset_hash() - content hash of a revision's build subset
 * @r: the repository
 * @rev_hex: the commit, as 40 hex digits (any revision bisect_resolve()
 *	takes works too)
 * @out_hex: receives 40 hex digits and a NUL
 *
 * The hash is the git blob id of a manifest, one line "MODE OID PATH\n" per
 * present directory rule (the tree's id), file rule and GLOB match outside
 * the directory rules (the blob's id), sorted by PATH (strcmp); MODE is
 * six octal digits as in git ls-tree, PATH has no trailing slash. Only tree
 * and blob ids are read, never blob contents. A rule whose path is absent
 * from the tree contributes nothing. Two revisions with the same hash export
 * identical subsets.
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EINVAL, BISECT_ENOMEM.
 */
int bisect_subset_hash(bisect_repo *r, const char *rev_hex,
		       char out_hex[41]);

/**
 * bisect_export() - write the build subset of a revision into a directory
 * @r: the repository
 * @rev_hex: the commit, as for bisect_subset_hash()
 * @dir: the directory to create; its parent must exist
 *
 * Files get mode 0755 when git records them executable, 0644 otherwise
 * (both less the umask); symlinks are made as symlinks. The export is
 * written into "@dir.tmp.PID", finished by the marker file
 * BISECT_EXPORT_MARKER holding the subset hash, then renamed to @dir.
 * Leftover "@dir.tmp.PID" directories of processes that no longer run are
 * removed first. Files are not fsync()ed: this is a cache.
 *
 * Return: 0, also when @dir already holds a complete export of the same
 * subset (then nothing is written); BISECT_EEXIST when @dir exists
 * otherwise; BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EIO, BISECT_EINVAL,
 * BISECT_ENOMEM.
 */
int bisect_export(bisect_repo *r, const char *rev_hex, const char *dir);

/**
 * bisect_range() - the commits reachable from @bad_hex but not @good_hex
 * @r: the repository
 * @good_hex: the good revision (excluded with its ancestors)
 * @bad_hex: the bad revision (included)
 * @first_parent: nonzero to follow only first parents
 * @out: receives a malloc()ed array of commit ids, oldest first in
 *	topological order, each 40 hex digits and a NUL; free() it.
 *	NULL when there are none.
 * @n: receives the number of commits
 *
 * Revisions are taken as by bisect_resolve().
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EINVAL, BISECT_ENOMEM.
 */
int bisect_range(bisect_repo *r, const char *good_hex, const char *bad_hex,
		 int first_parent, char (**out)[41], size_t *n);

#endif
