/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect.h - read a kernel git history: resolve revisions, hash and export
 * the build subset of a revision's tree.
 *
 * Everything is read from git objects with libgit2. The module never checks
 * out and never writes the repository: not its index, refs, config or work
 * tree (bisect_commit_edits() adds objects and a ref of its own; a user's
 * uncommitted changes and patches become commits of a separate object
 * store, bisect_store_open()). It never prints and never exits; failures return a negative
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
 * @BISECT_ETOOMANY: more changes than the caller asked for (diff)
 * @BISECT_EAPPLY: a patch does not apply (the message names its file and
 *	hunk)
 */
enum bisect_error {
	BISECT_OK = 0,
	BISECT_ENOTFOUND = -1,
	BISECT_EGIT = -2,
	BISECT_EIO = -3,
	BISECT_EEXIST = -4,
	BISECT_EINVAL = -5,
	BISECT_ENOMEM = -6,
	BISECT_ETOOMANY = -7,
	BISECT_EAPPLY = -8,
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
 * bisect_export_tree() - write the whole tree of a revision into a directory
 * @r: the repository
 * @rev: the revision, as for bisect_resolve()
 * @dir: the directory to create (it must not exist; its parent must)
 * @tree_hex: receives the id of the commit's tree (40 hex digits, NUL)
 *
 * Every file of the commit, as bisect_export() writes the subset's (modes,
 * symlinks), with no marker and no temporary name: for a tree used once
 * (a full kernel build). On failure what was written is removed.
 *
 * Return: 0, or BISECT_EEXIST, BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EIO,
 * BISECT_EINVAL, BISECT_ENOMEM.
 */
int bisect_export_tree(bisect_repo *r, const char *rev, const char *dir,
		       char tree_hex[41]);

/**
 * struct bisect_change - a file of the build subset that differs
 * @path: relative to the top of the tree (malloc()ed)
 * @oid: its blob id in the newer revision, "" when deleted
 * @mode: its git file mode there (0100644, 0100755, 0120000), 0 when deleted
 * @status: BISECT_ADDED, BISECT_MODIFIED or BISECT_DELETED
 *
 * A rename is a deletion and an addition.
 */
struct bisect_change {
	char *path;
	char oid[41];
	unsigned mode;
	int status;
};

enum { BISECT_ADDED = 1, BISECT_MODIFIED, BISECT_DELETED };

/**
 * bisect_subset_diff() - the files of the build subset that differ
 * @r: the repository
 * @from: a revision, as for bisect_resolve()
 * @to: another
 * @max: the most changes wanted
 * @out: receives a malloc()ed array, sorted by path (free it with
 *	bisect_changes_free()); NULL when none
 * @n: receives their number
 *
 * Only trees whose ids differ are read, so close revisions compare fast,
 * and the comparison stops at the first change past @max.
 *
 * Return: 0; BISECT_ETOOMANY when more than @max files differ;
 * BISECT_ENOTFOUND, BISECT_EGIT, BISECT_ENOMEM.
 */
int bisect_subset_diff(bisect_repo *r, const char *from, const char *to,
		       size_t max, struct bisect_change **out, size_t *n);

void bisect_changes_free(struct bisect_change *v, size_t n);

/**
 * bisect_blob_write() - a blob's content into a file, unless it is there
 * @r: the repository
 * @oid_hex: the blob id
 * @path: the file; written whole or not at all (lsb_write_atomic()). An
 *	existing file is taken as it is: its name is its content's id.
 *
 * Return: 0, or BISECT_EINVAL, BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EIO.
 */
int bisect_blob_write(bisect_repo *r, const char *oid_hex, const char *path);

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

/**
 * bisect_is_ancestor() - whether one commit is an ancestor of another
 * @r: the repository
 * @ancestor: a revision, as for bisect_resolve()
 * @descendant: another
 *
 * A commit is not its own ancestor here (git_graph_descendant_of()).
 *
 * Return: 1 when @ancestor is an ancestor of @descendant, 0 when not;
 * BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EINVAL.
 */
int bisect_is_ancestor(bisect_repo *r, const char *ancestor,
		       const char *descendant);

/**
 * struct bisect_class - consecutive commits of a range with one build subset
 * @first: index of its first (oldest) commit in bisect_classes.commits
 * @n: number of commits, at least 1
 * @subset: their subset hash
 *
 * The commits of a class export identical files, so they cannot differ in
 * the simulator: a class is built and run once, and when it is the first
 * bad one, its first commit is the culprit.
 */
struct bisect_class {
	size_t first;
	size_t n;
	char subset[41];
};

/**
 * struct bisect_classes - the revisions a bisection searches
 * @good: the good commit (40 hex digits)
 * @bad: the bad commit
 * @good_subset: the subset hash of @good
 * @commits: the commits reachable from @bad and not from @good, in the
 *	order the bisection uses: oldest first, topological, @bad last
 * @subsets: the subset hash of each commit
 * @nr_commits: their number
 * @classes: the classes, in the same order
 * @nr_classes: their number
 * @nr_merges: merge commits among @commits
 *
 * With full history the order is one linearisation of the graph
 * (git_revwalk's topological order, reversed): "consecutive" means
 * consecutive in that order, and the search that uses it assumes the
 * metric goes bad once along it, which a side branch need not respect.
 * With first-parent history the order is the first-parent chain itself.
 */
struct bisect_classes {
	char good[41];
	char bad[41];
	char good_subset[41];
	char (*commits)[41];
	char (*subsets)[41];
	size_t nr_commits;
	struct bisect_class *classes;
	size_t nr_classes;
	size_t nr_merges;
};

/**
 * bisect_classes_new() - the commits between two revisions and their classes
 * @out: receives the result, freed with bisect_classes_free()
 * @r: the repository
 * @good: the good revision, as for bisect_resolve()
 * @bad: the bad revision
 * @first_parent: nonzero to follow only first parents from @bad
 *
 * @good must be an ancestor of @bad: otherwise (also when they are the
 * same commit) the result is BISECT_EINVAL with a message that says so.
 * Subset hashes are computed once per distinct root tree, and each reads
 * only the directories whose tree ids changed since the tree hashed before
 * it (the manifest lines below each directory are kept with its id), so
 * the cost grows with what the commits change, not with the tree's size.
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EINVAL,
 * BISECT_ENOMEM; *@out is NULL on failure.
 */
int bisect_classes_new(struct bisect_classes **out, bisect_repo *r,
		       const char *good, const char *bad, int first_parent);

/**
 * bisect_classes_free() - free what bisect_classes_new() made
 * @c: the classes; NULL is allowed
 */
void bisect_classes_free(struct bisect_classes *c);

/**
 * struct bisect_commit_info - what a report says about a commit
 * @id: the commit (40 hex digits)
 * @parent: its first parent, "" for a root commit
 * @subject: the first line of its message
 * @author: "Name <email>"
 * @time: author time, seconds since the epoch
 * @offset: author time zone, minutes east of UTC
 * @files: paths it changed against its first parent (all of them for a
 *	root commit) that start with one of the prefixes asked for, sorted
 * @nr_files: their number
 *
 * Strings are malloc()ed; release with bisect_commit_info_release().
 */
struct bisect_commit_info {
	char id[41];
	char parent[41];
	char *subject;
	char *author;
	long long time;
	int offset;
	char **files;
	size_t nr_files;
};

/**
 * bisect_commit_info() - describe a commit
 * @out: filled in; release with bisect_commit_info_release(), also on failure
 * @r: the repository
 * @rev: the revision, as for bisect_resolve()
 * @prefixes: path prefixes of the files to list ("kernel/sched/",
 *	"include/"); NULL with @nr_prefixes 0 lists every changed file
 * @nr_prefixes: their number
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EINVAL, BISECT_ENOMEM.
 */
int bisect_commit_info(struct bisect_commit_info *out, bisect_repo *r,
		       const char *rev, const char *const *prefixes,
		       size_t nr_prefixes);

/*
 * The paths a report names a commit's changes under, for
 * bisect_commit_info(): the scheduler's own first (reports list them
 * first), then the cpuidle core and governors, then the headers.
 */
#define BISECT_NR_REPORT_PREFIXES 3
extern const char *const bisect_report_prefixes[BISECT_NR_REPORT_PREFIXES];

/**
 * bisect_commit_info_release() - free the strings of a commit description
 * @info: as filled in by bisect_commit_info()
 */
void bisect_commit_info_release(struct bisect_commit_info *info);

/**
 * struct bisect_tag - a tag and the commit it names
 * @name: the tag's name without "refs/tags/" ("v6.12.118"), malloc()ed
 * @commit: the commit it peels to (40 hex digits)
 */
struct bisect_tag {
	char *name;
	char commit[41];
};

/**
 * bisect_tags() - the tags of a repository that name commits
 * @r: the repository
 * @out: receives a malloc()ed array, sorted by name (strcmp, as git
 *	for-each-ref sorts); free it with bisect_tags_free(). NULL when
 *	there are none.
 * @n: receives its length
 *
 * Annotated tags are peeled to their commit; tags of trees or blobs are
 * left out.
 *
 * Return: 0, or BISECT_EGIT, BISECT_EINVAL, BISECT_ENOMEM.
 */
int bisect_tags(bisect_repo *r, struct bisect_tag **out, size_t *n);

/**
 * bisect_tags_free() - free what bisect_tags() made
 * @tags: the array; NULL is allowed
 * @n: its length
 */
void bisect_tags_free(struct bisect_tag *tags, size_t n);

/**
 * struct bisect_edit - one substitution in a file of a tree
 * @file: the path in the tree ("kernel/sched/core.c")
 * @old: text that occurs exactly once in the file
 * @new: what replaces it
 */
struct bisect_edit {
	const char *file;
	const char *old;
	const char *new;
};

/**
 * bisect_commit_edits() - a commit that is @base with text substituted
 * @r: the repository; the commit and its objects are written into it
 * @base: the parent, as for bisect_resolve()
 * @edits: the substitutions, applied in order (several may edit a file)
 * @nr_edits: their number
 * @message: the commit message
 * @ref: a reference to point at the commit ("refs/lsbisect/bugs/x"), so
 *	that git gc keeps it; NULL: none
 * @out_hex: receives the commit id
 *
 * Author, committer and date are fixed, so the same base, edits and
 * message give the same commit id every time, and the build and result
 * caches keep what they made from it. Nothing is checked out; no branch
 * or HEAD moves.
 *
 * Return: 0; BISECT_ENOTFOUND when @base, a file or an edit's old text is
 * not found (an old text found more than once is BISECT_EINVAL), with a
 * message naming the file and the edit; BISECT_EGIT, BISECT_ENOMEM.
 */
int bisect_commit_edits(bisect_repo *r, const char *base,
			const struct bisect_edit *edits, size_t nr_edits,
			const char *message, const char *ref,
			char out_hex[41]);

/* ---- changes that are not commits yet (linsched check) ---- */

/**
 * bisect_store_open() - our own object store for a user's repository
 * @out: receives the store, to be freed with bisect_repo_free()
 * @parent: the directory stores live in (made if missing)
 * @user_repo: the user's repository (a work tree or git directory;
 *	parents are searched as git does)
 * @base: a revision of @user_repo ("HEAD"), resolved there
 * @base_hex: receives its commit id, which the store reads too
 * @path: receives the store's path (the repository name the driver
 *	takes); NULL: not wanted
 * @len: its size
 *
 * The store is a bare repository, @parent/ID.git (ID names the user's
 * object directory), whose alternates file names the user's objects: it
 * reads every commit of theirs by id and writes new objects only into
 * itself. Nothing of the user's repository is written. Made once, by
 * rename(2), so two checks may start together.
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EIO, BISECT_EINVAL,
 * BISECT_ENOMEM.
 */
int bisect_store_open(bisect_repo **out, const char *parent,
		      const char *user_repo, const char *base,
		      char base_hex[41], char *path, size_t len);

/**
 * bisect_commit_worktree() - a user's uncommitted changes as a commit
 * @store: from bisect_store_open() for @user_repo
 * @user_repo: the user's repository; it must have a work tree
 * @base_hex: the commit the changes are taken against (40 hex digits,
 *	from bisect_store_open())
 * @out_hex: receives the commit: @base's tree with every tracked file of
 *	the build subset that differs in the work tree (staged or not, as
 *	`git diff BASE` shows them; untracked files left out) taken from
 *	the work tree, deleted ones removed; @base itself when none differs
 * @nr_files: receives the files of the build subset taken (NULL: no)
 * @nr_outside: receives the changed files outside the subset, which no
 *	build reads (NULL: no)
 *
 * The user's index and work tree are read, never written (no index
 * refresh); the blobs, tree and commit are written into @store, the
 * commit with fixed names and date, so the same changes give the same id.
 * Work-tree files are taken as they are, without git's filters.
 *
 * Return: 0, or BISECT_ENOTFOUND, BISECT_EGIT, BISECT_EIO, BISECT_EINVAL,
 * BISECT_ENOMEM.
 */
int bisect_commit_worktree(bisect_repo *store, const char *user_repo,
			   const char *base_hex, char out_hex[41],
			   size_t *nr_files, size_t *nr_outside);

/**
 * struct bisect_patch - one patch of a file
 * @subject: the message's Subject ("[PATCH 2/3] sched/fair: ..."), or
 *	for a plain diff the file's name (malloc()ed)
 * @title: @subject without format-patch's "[PATCH n/m] " (points into it)
 * @text: the diff, from its first "diff --git" line to its end or to
 *	format-patch's signature line "-- " (malloc()ed)
 * @len: its length
 */
struct bisect_patch {
	char *subject;
	const char *title;
	char *text;
	size_t len;
};

/**
 * bisect_patches_parse() - the patches of a file
 * @text: the file's bytes: an mbox of `git format-patch` messages (each
 *	starting "From <commit id> ", or "From " and a header line, as b4
 *	and mail clients write them), or one `git diff`
 * @len: their length
 * @name: the file's name, for messages and a plain diff's subject
 * @out: receives a malloc()ed array in the file's order; free it with
 *	bisect_patches_free()
 * @n: receives their number
 *
 * A series' cover letter ("[PATCH 0/3]", no diff) is left out.
 *
 * Return: 0, or BISECT_EINVAL when the file holds no diff (or a message
 * other than a cover letter holds none), BISECT_ENOMEM.
 */
int bisect_patches_parse(const char *text, size_t len, const char *name,
			 struct bisect_patch **out, size_t *n);

void bisect_patches_free(struct bisect_patch *v, size_t n);

/**
 * bisect_commit_patch() - a patch applied to a revision, as a commit
 * @store: the repository the commit is written into (a store)
 * @parent: the revision it applies to, as for bisect_resolve()
 * @p: the patch
 * @out_hex: receives the commit (message: @p's title; fixed names and
 *	date)
 *
 * Applied in memory (git_apply_to_tree()): no work tree, no index file.
 *
 * Return: 0; BISECT_EAPPLY when it does not apply, the message naming the
 * patch, the file and the hunk (its number in the file and its header);
 * BISECT_EINVAL when it does not parse; BISECT_ENOTFOUND, BISECT_EGIT,
 * BISECT_ENOMEM.
 */
int bisect_commit_patch(bisect_repo *store, const char *parent,
			const struct bisect_patch *p, char out_hex[41]);

#endif
