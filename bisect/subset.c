// SPDX-License-Identifier: GPL-2.0-only
/*
 * subset.c - the build subset of a revision: which tree entries belong to it
 * and their content hash, from tree and blob ids alone.
 *
 * The manifest lists the directory rules' trees, the file rules' entries and
 * the glob rules' matches, sorted by path (strcmp). Git keeps the entries of
 * a tree sorted by name, a subtree's name as if it ended in '/', which is
 * also the strcmp() order of the full paths below them (a file "a" sorts as
 * "a", the files of a directory "a" as "a/...", and names hold no '/'). So
 * one walk of the tree in tree order, not descending into directory rules,
 * writes the manifest in order (a tree that is not sorted so, which git
 * never writes, is sorted when read). It lists what looking the rules up by
 * path, walking for the globs and sorting listed before: an entry inside a
 * directory rule, which was dropped, is never reached, and an entry that a
 * file rule and a glob both take is one entry of one directory. The lines
 * below a directory depend only on its tree id and path: a subset_walk
 * keeps each directory's lines with its id, so that the next tree reads
 * only the directories that changed.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

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

	if (LSB_GROW(s->v, s->n + 1, s->cap))
		return bisect_error(BISECT_ENOMEM, "out of memory");
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

static int is_file_rule(const char *path)
{
	size_t i;

	for (i = 0; i < NR_RULES; i++)
		if (!is_glob(subset_rules[i]) &&
		    !dir_rule_len(subset_rules[i]) &&
		    !strcmp(subset_rules[i], path))
			return 1;
	return 0;
}

static int glob_match(const char *name)
{
	size_t i;

	for (i = 0; i < NR_RULES; i++)
		if (is_glob(subset_rules[i]) &&
		    !fnmatch(subset_rules[i] + strlen(GLOB_PREFIX), name, 0))
			return 1;
	return 0;
}

int subset_contains(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i;

	for (i = 0; i < NR_RULES; i++) {
		size_t len = dir_rule_len(subset_rules[i]);

		if (len && !strncmp(path, subset_rules[i], len + 1))
			return 1;
	}
	return is_file_rule(path) || glob_match(base ? base + 1 : path);
}

#define PATH_LEN 4096

/*
 * An entry of a walk_dir: a directory to descend into (@dir; NULL once it
 * moved to a newer walk_dir) or a line of the manifest (a directory rule's
 * tree, a file rule's or a glob rule's entry).
 */
struct walk_entry {
	char *name;
	struct walk_dir *dir;
	int is_tree;
	int moved;
	git_oid oid;
	git_filemode_t mode;
};

/*
 * A directory of the last tree a subset_walk read: its tree id, the entries
 * the subset cares about in tree order, and the manifest lines of all that
 * is below it, in order (@text, @len bytes).
 */
struct walk_dir {
	git_oid oid;
	int read;
	struct walk_entry *v;
	size_t n;
	char *text;
	size_t len;
};

static void dir_release(struct walk_dir *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (d->v[i].moved)
			continue;
		free(d->v[i].name);
		if (d->v[i].dir)
			dir_release(d->v[i].dir);
		free(d->v[i].dir);
	}
	free(d->v);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

/* Git's order of tree entries (see the top of this file). */
static int tree_order(const char *a, int a_tree, const char *b, int b_tree)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	while (*x && *x == *y)
		x++, y++;
	return (*x ? *x : a_tree ? '/' : 0) - (*y ? *y : b_tree ? '/' : 0);
}

static int entry_order(const void *a, const void *b)
{
	const struct walk_entry *x = a, *y = b;

	return tree_order(x->name, x->is_tree, y->name, y->is_tree);
}

static int subdir_cmp(const void *key, const void *elem)
{
	const struct walk_entry *e = elem;

	return tree_order(key, 1, e->name, e->is_tree);
}

/* Do @a and @b hold the same lines of their own, in the same order? */
static int same_lines(const struct walk_dir *a, const struct walk_dir *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->n && a->v[i].dir)
			i++;
		while (j < b->n && b->v[j].dir)
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (strcmp(a->v[i].name, b->v[j].name) ||
		    !git_oid_equal(&a->v[i].oid, &b->v[j].oid) ||
		    a->v[i].mode != b->v[j].mode)
			return 0;
		i++, j++;
	}
}

/* "MODE OID PATH\n": MODE as "%06o" (a tree entry's mode has 16 bits). */
#define LINE_LEN(plen) (7 + GIT_OID_HEXSZ + 1 + (plen) + 1)

static char *put_line(char *p, const struct walk_entry *e, const char *path,
		      size_t plen)
{
	unsigned int bits = e->mode;
	size_t nlen = strlen(e->name);
	int i;

	for (i = 5; i >= 0; i--, bits >>= 3)
		p[i] = '0' + (bits & 7);
	p[6] = ' ';
	git_oid_fmt(p + 7, &e->oid);
	p += 7 + GIT_OID_HEXSZ;
	*p++ = ' ';
	memcpy(p, path, plen);
	memcpy(p + plen, e->name, nlen);
	p[plen + nlen] = '\n';
	return p + plen + nlen + 1;
}

/* Write @d's text: its own lines (at @path, @plen bytes) and its subdirs'. */
static int dir_text(struct walk_dir *d, const char *path, size_t plen)
{
	size_t i, len = 0;
	char *p;

	for (i = 0; i < d->n; i++)
		len += d->v[i].dir ? d->v[i].dir->len :
		       LINE_LEN(plen + strlen(d->v[i].name));
	free(d->text);
	d->text = NULL;
	d->len = 0;
	if (!len)
		return 0;
	d->text = p = malloc(len);
	if (!p)
		return bisect_error(BISECT_ENOMEM, "out of memory");
	for (i = 0; i < d->n; i++) {
		const struct walk_entry *e = &d->v[i];

		if (!e->dir) {
			p = put_line(p, e, path, plen);
		} else if (e->dir->len) {
			memcpy(p, e->dir->text, e->dir->len);
			p += e->dir->len;
		}
	}
	d->len = len;
	return 0;
}

/*
 * One entry of the tree at @path (@plen bytes, "" or ending in '/') into
 * @new: as a manifest line, as a directory to descend into (taken from
 * @old when it has one of that name), or not at all.
 */
static int add_entry(struct walk_dir *new, struct walk_dir *old,
		     const git_tree_entry *te, char *path, size_t plen)
{
	const char *name = git_tree_entry_name(te);
	struct walk_entry *e = &new->v[new->n], *o;
	size_t nlen = strlen(name);

	if (plen + nlen + 1 >= PATH_LEN)
		return bisect_error(BISECT_EGIT, "path '%.*s%s' too long",
				    (int)plen, path, name);
	memcpy(path + plen, name, nlen + 1);
	e->is_tree = git_tree_entry_type(te) == GIT_OBJECT_TREE;
	if (e->is_tree ? !is_dir_rule(path, plen + nlen) :
	    !is_file_rule(path) && !glob_match(name)) {
		if (!e->is_tree)
			return 0;
		/* A directory outside the directory rules: descend. */
		o = !old->n ? NULL : bsearch(name, old->v, old->n,
					     sizeof(*old->v), subdir_cmp);
		if (o && o->dir && !o->moved) {
			*e = *o;
			o->moved = 1;
		} else {
			e->dir = calloc(1, sizeof(*e->dir));
			if (!e->dir)
				return bisect_error(BISECT_ENOMEM,
						    "out of memory");
		}
	}
	if (!e->name)
		e->name = strdup(name);
	if (!e->name) {
		free(e->dir);
		e->dir = NULL;
		return bisect_error(BISECT_ENOMEM, "out of memory");
	}
	git_oid_cpy(&e->oid, git_tree_entry_id(te));
	e->mode = git_tree_entry_filemode(te);
	new->n++;
	return 0;
}

/*
 * Make @d the state of tree @oid at @path (@plen bytes, "" or ending in
 * '/'): a directory whose id @d holds already is not read again. Set
 * *@changed when @d's text changed. On failure @d is left empty, as never
 * read.
 */
static int dir_update(bisect_repo *r, struct walk_dir *d, const git_oid *oid,
		      char *path, size_t plen, int *changed)
{
	struct walk_dir old = *d, new = { .read = 1 };
	git_tree *tree = NULL;
	int err, sub_changed = 0;
	size_t i, n;

	if (d->read && git_oid_equal(&d->oid, oid))
		return 0;
	git_oid_cpy(&new.oid, oid);
	err = git_tree_lookup(&tree, r->git, oid);
	if (err < 0) {
		err = bisect_git_error(err,
			"cannot read tree '%.*s' in repository '%s'",
			(int)plen, path, r->path);
		goto out;
	}
	n = git_tree_entrycount(tree);
	new.v = calloc(n ? n : 1, sizeof(*new.v));
	if (!new.v) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n && !err; i++)
		err = add_entry(&new, &old, git_tree_entry_byindex(tree, i),
				path, plen);
	/* Most entries of most directories are not kept. */
	if (!err && new.n < n) {
		void *v = realloc(new.v, (new.n ? new.n : 1) * sizeof(*new.v));

		if (v)
			new.v = v;
	}
	/* Git writes trees sorted; the manifest is sorted in any case. */
	for (i = 1; i < new.n && !err; i++)
		if (entry_order(&new.v[i - 1], &new.v[i]) > 0) {
			qsort(new.v, new.n, sizeof(*new.v), entry_order);
			break;
		}
	for (i = 0; i < new.n && !err; i++) {
		struct walk_entry *e = &new.v[i];
		size_t nlen = strlen(e->name);

		if (!e->dir)
			continue;
		memcpy(path + plen, e->name, nlen);
		path[plen + nlen] = '/';
		path[plen + nlen + 1] = '\0';
		err = dir_update(r, e->dir, &e->oid, path, plen + nlen + 1,
				 &sub_changed);
	}
	if (err)
		goto out;
	/* The old directories that were not moved over are gone. */
	for (i = 0; i < old.n; i++)
		if (old.v[i].dir && !old.v[i].moved && old.v[i].dir->len)
			sub_changed = 1;
	if (sub_changed || !same_lines(&old, &new)) {
		path[plen] = '\0';
		err = dir_text(&new, path, plen);
		*changed = 1;
	} else {
		new.text = old.text;
		new.len = old.len;
		old.text = NULL;
	}
out:
	git_tree_free(tree);
	dir_release(&old);
	if (err)
		dir_release(&new);
	*d = new;
	return err;
}

/* Add the entries of @d's text, with their paths at @path, to @out. */
static int dir_list(const struct walk_dir *d, char *path, size_t plen,
		    struct subset *out)
{
	size_t i, nlen;
	int err = 0;

	for (i = 0; i < d->n && !err; i++) {
		const struct walk_entry *e = &d->v[i];

		nlen = strlen(e->name);
		memcpy(path + plen, e->name, nlen + 1);
		if (!e->dir) {
			err = subset_add(out, path, &e->oid, e->mode);
		} else if (e->dir->len) {
			path[plen + nlen] = '/';
			path[plen + nlen + 1] = '\0';
			err = dir_list(e->dir, path, plen + nlen + 1, out);
		}
	}
	return err;
}

int subset_walk_init(struct subset_walk *w, bisect_repo *r)
{
	memset(w, 0, sizeof(*w));
	w->r = r;
	w->root = calloc(1, sizeof(*w->root));
	if (!w->root)
		return bisect_error(BISECT_ENOMEM, "out of memory");
	return 0;
}

void subset_walk_release(struct subset_walk *w)
{
	if (w->root)
		dir_release(w->root);
	free(w->root);
	memset(w, 0, sizeof(*w));
}

/* Move @w to @tree; the subset hash into @w->hash. */
static int walk_hash(struct subset_walk *w, const git_tree *tree)
{
	char path[PATH_LEN] = "";
	int changed = 0, err;

	err = dir_update(w->r, w->root, git_tree_id(tree), path, 0, &changed);
	if (err) {
		w->hashed = 0;
		return err;
	}
	if (w->hashed && !changed)
		return 0;
	w->hashed = 0;
	if (lsb_blob_id(w->root->text, w->root->len, w->hash) < 0)
		return bisect_git_error(GIT_ERROR, "cannot hash the subset manifest");
	w->hashed = 1;
	return 0;
}

int subset_walk_hash(struct subset_walk *w, const git_tree *tree,
		     char hash_hex[41])
{
	int err = walk_hash(w, tree);

	if (!err)
		memcpy(hash_hex, w->hash, 41);
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
 * The subset of revision @rev, sorted by path, and its hash. Release @s
 * with subset_release(), also on failure.
 */
int subset_of_rev(bisect_repo *r, const char *rev, struct subset *s,
		  char hash_hex[41])
{
	char path[PATH_LEN] = "";
	struct subset_walk w;
	git_tree *tree = NULL;
	int err;

	memset(s, 0, sizeof(*s));
	err = subset_walk_init(&w, r);
	if (!err)
		err = rev_tree(r, rev, &tree);
	if (!err)
		err = walk_hash(&w, tree);
	if (!err)
		err = dir_list(w.root, path, 0, s);
	if (!err)
		memcpy(hash_hex, w.hash, 41);
	git_tree_free(tree);
	subset_walk_release(&w);
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
