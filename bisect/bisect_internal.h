/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_internal.h - shared between the files of bisect/, not installed.
 */
#ifndef LSB_BISECT_INTERNAL_H
#define LSB_BISECT_INTERNAL_H

#include <git2.h>

#include "bisect/bisect.h"

struct bisect_repo {
	git_repository *git;
	char *path;		/* as the caller named it, for messages */
};

/* One line of the subset manifest: a rule's tree or a file. */
struct subset_entry {
	char *path;
	git_oid oid;
	git_filemode_t mode;
};

struct subset {
	struct subset_entry *v;
	size_t n, cap;
};

/* A directory of a tree and what the build subset holds below it. */
struct walk_dir;

/**
 * struct subset_walk - the subsets of many trees, one after the other
 * @r: the repository
 * @root: the last tree read: per directory, its tree id and the manifest
 *	lines below it, so that the next tree reads only the directories
 *	whose ids changed (bisect/subset.c)
 * @hash: the subset hash of the last tree, when @hashed
 * @hashed: whether @hash is valid
 *
 * Trees may come in any order; the closer two consecutive trees are, the
 * less is read. The hash of a tree is the one bisect_subset_hash() gives.
 */
struct subset_walk {
	bisect_repo *r;
	struct walk_dir *root;
	char hash[41];
	int hashed;
};

/* Set the message bisect_last_error() returns. */
void bisect_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
int bisect_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int bisect_git_error(int git_code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int bisect_lookup_commit(bisect_repo *r, const char *rev, git_commit **out);

/*
 * The commit of @tree_id on @parent in @store, with fixed names and date:
 * the same tree and message give the same commit.
 */
int bisect_commit_tree(bisect_repo *store, git_commit *parent,
		       const git_oid *tree_id, const char *message,
		       char out_hex[41]);

/* Whether @path (relative to the top of a tree) belongs to the subset. */
int subset_contains(const char *path);

int subset_of_rev(bisect_repo *r, const char *rev, struct subset *s,
		  char hash_hex[41]);
void subset_release(struct subset *s);

/* Start @w in @r with no tree; release it with subset_walk_release(). */
int subset_walk_init(struct subset_walk *w, bisect_repo *r);
/* The subset hash of @tree, read from what changed since the last tree. */
int subset_walk_hash(struct subset_walk *w, const git_tree *tree,
		     char hash_hex[41]);
void subset_walk_release(struct subset_walk *w);

#endif
