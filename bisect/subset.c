// SPDX-License-Identifier: GPL-2.0-only
/*
 * subset.c - the build subset of a revision: which tree entries belong to it
 * and their content hash, from tree and blob ids alone.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"

static const char *const subset_rules[] = {
#include "subset_list.h"
};

#define NR_RULES (sizeof(subset_rules) / sizeof(subset_rules[0]))
#define GLOB_PREFIX "**/"

const char *const *bisect_subset_rules(size_t *n)
{
	if (n)
		*n = NR_RULES;
	return subset_rules;
}

static int is_glob(const char *rule)
{
	return !strncmp(rule, GLOB_PREFIX, strlen(GLOB_PREFIX));
}

/* A directory rule's length without its '/', or 0 for other rules. */
static size_t dir_rule_len(const char *rule)
{
	size_t len = strlen(rule);

	if (is_glob(rule) || len < 2 || rule[len - 1] != '/')
		return 0;
	return len - 1;
}

static int is_dir_rule(const char *path, size_t len)
{
	size_t i;

	for (i = 0; i < NR_RULES; i++)
		if (dir_rule_len(subset_rules[i]) == len &&
		    !memcmp(subset_rules[i], path, len))
			return 1;
	return 0;
}

static int subset_add(struct subset *s, const char *path,
		      const git_oid *oid, git_filemode_t mode)
{
	struct subset_entry *e;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		void *p = realloc(s->v, cap * sizeof(*s->v));

		if (!p)
			return bisect_error(BISECT_ENOMEM, "out of memory");
		s->v = p;
		s->cap = cap;
	}
	e = &s->v[s->n];
	e->path = strdup(path);
	if (!e->path)
		return bisect_error(BISECT_ENOMEM, "out of memory");
	git_oid_cpy(&e->oid, oid);
	e->mode = mode;
	s->n++;
	return 0;
}

void subset_release(struct subset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

struct glob_walk {
	struct subset *s;
	int err;
};

/*
 * git_tree_walk() callback: collect the blobs whose base name matches a glob
 * rule; do not descend into directory rules, their tree id covers them.
 */
static int glob_walk_cb(const char *root, const git_tree_entry *te,
			void *payload)
{
	struct glob_walk *w = payload;
	const char *name = git_tree_entry_name(te);
	size_t rlen = strlen(root), nlen = strlen(name), i;
	char path[4096];

	if (rlen + nlen >= sizeof(path)) {
		w->err = bisect_error(BISECT_EGIT, "path '%s%s' too long",
				      root, name);
		return -1;
	}
	memcpy(path, root, rlen);
	memcpy(path + rlen, name, nlen + 1);
	if (git_tree_entry_type(te) == GIT_OBJECT_TREE)
		return is_dir_rule(path, rlen + nlen) ? 1 : 0;
	for (i = 0; i < NR_RULES; i++) {
		if (!is_glob(subset_rules[i]) ||
		    fnmatch(subset_rules[i] + strlen(GLOB_PREFIX), name, 0))
			continue;
		w->err = subset_add(w->s, path, git_tree_entry_id(te),
				    git_tree_entry_filemode(te));
		return w->err ? -1 : 0;
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct subset_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* Is @path strictly inside a directory rule that @s holds? */
static int covered(const struct subset *s, const char *path)
{
	size_t i, len;

	for (i = 0; i < s->n; i++) {
		if (s->v[i].mode != GIT_FILEMODE_TREE)
			continue;
		len = strlen(s->v[i].path);
		if (!strncmp(path, s->v[i].path, len) && path[len] == '/')
			return 1;
	}
	return 0;
}

/* Sort @s by path; drop duplicates and the files that @dirs cover. */
static void sort_unique(struct subset *s, const struct subset *dirs)
{
	struct subset_entry *v = s->v;
	size_t i, j;

	qsort(v, s->n, sizeof(*v), entry_cmp);
	for (i = j = 0; i < s->n; i++) {
		if ((j && !strcmp(v[i].path, v[j - 1].path)) ||
		    (v[i].mode != GIT_FILEMODE_TREE &&
		     covered(dirs, v[i].path))) {
			free(v[i].path);
			continue;
		}
		v[j++] = v[i];
	}
	s->n = j;
}

/*
 * Fill @out with the subset of @tree, sorted by path, no path twice and none
 * inside a directory rule's tree. Release @out with subset_release(), also
 * on failure.
 */
static int subset_collect(bisect_repo *r, const git_tree *tree,
			  struct subset *out)
{
	struct subset dirs = { 0 };
	struct glob_walk w = { .s = out };
	int has_glob = 0, err = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	/* The directory and file rules, looked up by path. */
	for (i = 0; i < NR_RULES && !err; i++) {
		const char *rule = subset_rules[i];
		size_t dlen = dir_rule_len(rule);
		git_tree_entry *te;
		char path[4096];
		int is_tree;

		if (is_glob(rule)) {
			has_glob = 1;
			continue;
		}
		snprintf(path, sizeof(path), "%.*s",
			 (int)(dlen ? dlen : strlen(rule)), rule);
		err = git_tree_entry_bypath(&te, tree, path);
		if (err == GIT_ENOTFOUND) {
			err = 0;
			continue;
		}
		if (err < 0) {
			err = bisect_git_error(err,
				"cannot read '%s' in repository '%s'",
				path, r->path);
			break;
		}
		is_tree = git_tree_entry_type(te) == GIT_OBJECT_TREE;
		if (is_tree == !!dlen)
			err = subset_add(is_tree ? &dirs : out, path,
					 git_tree_entry_id(te),
					 git_tree_entry_filemode(te));
		git_tree_entry_free(te);
	}
	if (!err && has_glob) {
		err = git_tree_walk(tree, GIT_TREEWALK_PRE, glob_walk_cb, &w);
		if (err < 0 && w.err)
			err = w.err;
		else if (err < 0)
			err = bisect_git_error(err,
				"cannot read a tree in repository '%s'",
				r->path);
	}
	/* Merge the directories in, then drop what they cover. */
	for (i = 0; i < dirs.n && !err; i++)
		if (!covered(&dirs, dirs.v[i].path))
			err = subset_add(out, dirs.v[i].path, &dirs.v[i].oid,
					 dirs.v[i].mode);
	if (!err)
		sort_unique(out, &dirs);
	subset_release(&dirs);
	return err;
}

static int manifest_hash(const struct subset *s, git_oid *out)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, i;
	int err = 0;

	for (i = 0; i < s->n; i++) {
		/* "MODE OID PATH\n" */
		size_t need = 7 + GIT_OID_HEXSZ + 1 + strlen(s->v[i].path) + 2;
		char hex[GIT_OID_HEXSZ + 1];

		if (len + need > cap) {
			size_t ncap = cap ? 2 * cap : 65536;
			char *p;

			while (ncap < len + need)
				ncap *= 2;
			p = realloc(buf, ncap);
			if (!p) {
				err = bisect_error(BISECT_ENOMEM,
						   "out of memory");
				goto cleanup;
			}
			buf = p;
			cap = ncap;
		}
		git_oid_tostr(hex, sizeof(hex), &s->v[i].oid);
		len += snprintf(buf + len, cap - len, "%06o %s %s\n",
				(unsigned int)s->v[i].mode, hex,
				s->v[i].path);
	}
	err = git_odb_hash(out, len ? buf : "", len, GIT_OBJECT_BLOB);
	if (err < 0)
		err = bisect_git_error(err, "cannot hash the subset manifest");
cleanup:
	free(buf);
	return err;
}

/* The tree of revision @rev; free with git_tree_free(). */
static int rev_tree(bisect_repo *r, const char *rev, git_tree **out)
{
	git_commit *c;
	int err;

	*out = NULL;
	err = bisect_lookup_commit(r, rev, &c);
	if (err)
		return err;
	err = git_commit_tree(out, c);
	git_commit_free(c);
	if (err < 0)
		return bisect_git_error(err,
			"cannot read the tree of '%s' in repository '%s'",
			rev, r->path);
	return 0;
}

/*
 * The subset of revision @rev and its hash. Release @s with subset_release(),
 * also on failure.
 */
int subset_of_rev(bisect_repo *r, const char *rev, struct subset *s,
		  char hash_hex[41])
{
	git_tree *tree;
	git_oid oid;
	int err;

	memset(s, 0, sizeof(*s));
	err = rev_tree(r, rev, &tree);
	if (err)
		return err;
	err = subset_collect(r, tree, s);
	if (!err)
		err = manifest_hash(s, &oid);
	if (!err)
		git_oid_tostr(hash_hex, GIT_OID_HEXSZ + 1, &oid);
	git_tree_free(tree);
	return err;
}

int bisect_subset_hash(bisect_repo *r, const char *rev_hex,
		       char out_hex[41])
{
	struct subset s;
	int err;

	if (!out_hex)
		return bisect_error(BISECT_EINVAL, "no output buffer");
	err = subset_of_rev(r, rev_hex, &s, out_hex);
	subset_release(&s);
	return err;
}
