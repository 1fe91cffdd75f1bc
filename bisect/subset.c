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

static int has_glob(void)
{
	size_t i;

	for (i = 0; i < NR_RULES; i++)
		if (is_glob(subset_rules[i]))
			return 1;
	return 0;
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

#define PATH_LEN 4096

/* A blob (or any entry not a tree) whose base name matches a glob rule. */
struct glob_match {
	char *name;
	git_oid oid;
	git_filemode_t mode;
};

struct glob_sub {
	char *name;
	struct glob_dir *dir;
};

/*
 * One directory of the last tree a subset_walk read, outside the directory
 * rules: its id, its own matches and its subdirectories, both in tree
 * order, and how many matches it holds with everything below it. The
 * matches below a directory depend only on its tree id and its path, and
 * the path is where the node sits, so an unchanged id means unchanged
 * matches.
 */
struct glob_dir {
	git_oid oid;
	int read;
	struct glob_match *match;
	size_t nr_match;
	struct glob_sub *sub;
	size_t nr_sub;
	size_t total;
};

static int glob_match(const char *name)
{
	size_t i;

	for (i = 0; i < NR_RULES; i++)
		if (is_glob(subset_rules[i]) &&
		    !fnmatch(subset_rules[i] + strlen(GLOB_PREFIX), name, 0))
			return 1;
	return 0;
}

static void dir_release(struct glob_dir *d)
{
	size_t i;

	for (i = 0; i < d->nr_match; i++)
		free(d->match[i].name);
	for (i = 0; i < d->nr_sub; i++) {
		free(d->sub[i].name);
		if (d->sub[i].dir)
			dir_release(d->sub[i].dir);
		free(d->sub[i].dir);
	}
	free(d->match);
	free(d->sub);
	memset(d, 0, sizeof(*d));
}

/* Git orders tree entries by name, a tree's name as if it ended in '/'. */
static int sub_cmp(const void *key, const void *elem)
{
	const unsigned char *a = key;
	const unsigned char *b =
		(const unsigned char *)((const struct glob_sub *)elem)->name;

	while (*a && *a == *b)
		a++, b++;
	return (*a ? *a : '/') - (*b ? *b : '/');
}

static int same_matches(const struct glob_dir *a, const struct glob_dir *b)
{
	size_t i;

	if (a->nr_match != b->nr_match)
		return 0;
	for (i = 0; i < a->nr_match; i++)
		if (strcmp(a->match[i].name, b->match[i].name) ||
		    !git_oid_equal(&a->match[i].oid, &b->match[i].oid) ||
		    a->match[i].mode != b->match[i].mode)
			return 0;
	return 1;
}

/*
 * Make @d the glob state of tree @oid at @path (@plen bytes, "" or ending in
 * '/'): the entries of a tree that @d already holds are not read again, nor
 * are the subdirectories that kept their ids. Set *@changed when what the
 * glob rules select below @path differs from before. On failure @d is left
 * empty, as never read.
 */
static int dir_update(bisect_repo *r, struct glob_dir *d, const git_oid *oid,
		      char *path, size_t plen, int *changed)
{
	struct glob_dir old = *d, new = { .read = 1 };
	git_tree *tree = NULL;
	size_t i, n;
	int err;

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
	new.match = calloc(n ? n : 1, sizeof(*new.match));
	new.sub = calloc(n ? n : 1, sizeof(*new.sub));
	if (!new.match || !new.sub) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		const git_tree_entry *te = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(te);
		size_t nlen = strlen(name);
		struct glob_sub *o, *s;

		if (plen + nlen + 1 >= PATH_LEN) {
			err = bisect_error(BISECT_EGIT, "path '%.*s%s' too long",
					   (int)plen, path, name);
			break;
		}
		memcpy(path + plen, name, nlen + 1);
		if (git_tree_entry_type(te) != GIT_OBJECT_TREE) {
			struct glob_match *m = &new.match[new.nr_match];

			if (!glob_match(name))
				continue;
			m->name = strdup(name);
			if (!m->name) {
				err = bisect_error(BISECT_ENOMEM,
						   "out of memory");
				break;
			}
			git_oid_cpy(&m->oid, git_tree_entry_id(te));
			m->mode = git_tree_entry_filemode(te);
			new.nr_match++;
			continue;
		}
		/* A directory rule's tree id covers it. */
		if (is_dir_rule(path, plen + nlen))
			continue;
		s = &new.sub[new.nr_sub];
		o = bsearch(name, old.sub, old.nr_sub, sizeof(*old.sub),
			    sub_cmp);
		if (o && o->dir) {
			*s = *o;
			o->name = NULL;
			o->dir = NULL;
		} else {
			s->name = strdup(name);
			s->dir = calloc(1, sizeof(*s->dir));
			if (!s->name || !s->dir) {
				free(s->name);
				free(s->dir);
				err = bisect_error(BISECT_ENOMEM,
						   "out of memory");
				break;
			}
		}
		new.nr_sub++;
		path[plen + nlen] = '/';
		path[plen + nlen + 1] = '\0';
		err = dir_update(r, s->dir, git_tree_entry_id(te), path,
				 plen + nlen + 1, changed);
		new.total += s->dir->total;
	}
	new.total += new.nr_match;
	if (!same_matches(&old, &new))
		*changed = 1;
	/* What is left of the old subdirectories was removed. */
	for (i = 0; i < old.nr_sub; i++)
		if (old.sub[i].dir && old.sub[i].dir->total)
			*changed = 1;
out:
	git_tree_free(tree);
	dir_release(&old);
	if (err)
		dir_release(&new);
	*d = new;
	return err;
}

/* Add what the glob rules select in @d, at @path (@plen bytes), to @out. */
static int dir_list(const struct glob_dir *d, char *path, size_t plen,
		    struct subset *out)
{
	size_t i, nlen;
	int err = 0;

	for (i = 0; i < d->nr_match && !err; i++) {
		strcpy(path + plen, d->match[i].name);
		err = subset_add(out, path, &d->match[i].oid,
				 d->match[i].mode);
	}
	for (i = 0; i < d->nr_sub && !err; i++) {
		if (!d->sub[i].dir->total)
			continue;
		nlen = strlen(d->sub[i].name);
		memcpy(path + plen, d->sub[i].name, nlen);
		path[plen + nlen] = '/';
		path[plen + nlen + 1] = '\0';
		err = dir_list(d->sub[i].dir, path, plen + nlen + 1, out);
	}
	return err;
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
 * The directory and file rules of @tree, looked up by path: the trees of
 * directory rules into @dirs, the blobs of file rules into @files.
 */
static int fixed_collect(bisect_repo *r, const git_tree *tree,
			 struct subset *files, struct subset *dirs)
{
	size_t i;
	int err = 0;

	for (i = 0; i < NR_RULES && !err; i++) {
		const char *rule = subset_rules[i];
		size_t dlen = dir_rule_len(rule);
		git_tree_entry *te;
		char path[PATH_LEN];
		int is_tree;

		if (is_glob(rule))
			continue;
		snprintf(path, sizeof(path), "%.*s",
			 (int)(dlen ? dlen : strlen(rule)), rule);
		err = git_tree_entry_bypath(&te, tree, path);
		if (err == GIT_ENOTFOUND) {
			err = 0;
			continue;
		}
		if (err < 0)
			return bisect_git_error(err,
				"cannot read '%s' in repository '%s'",
				path, r->path);
		is_tree = git_tree_entry_type(te) == GIT_OBJECT_TREE;
		if (is_tree == !!dlen)
			err = subset_add(is_tree ? dirs : files, path,
					 git_tree_entry_id(te),
					 git_tree_entry_filemode(te));
		git_tree_entry_free(te);
	}
	return err;
}

static int same_subset(const struct subset *a, const struct subset *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i].path, b->v[i].path) ||
		    !git_oid_equal(&a->v[i].oid, &b->v[i].oid) ||
		    a->v[i].mode != b->v[i].mode)
			return 0;
	return 1;
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
	subset_release(&w->files);
	subset_release(&w->dirs);
	memset(w, 0, sizeof(*w));
}

/*
 * Move @w to @tree; set *@changed when its subset may differ from the
 * previous tree's. On failure @w holds no tree.
 */
static int walk_update(struct subset_walk *w, const git_tree *tree,
		       int *changed)
{
	struct subset files = { 0 }, dirs = { 0 };
	char path[PATH_LEN] = "";
	int err;

	err = fixed_collect(w->r, tree, &files, &dirs);
	if (!err && has_glob())
		err = dir_update(w->r, w->root, git_tree_id(tree), path, 0,
				 changed);
	if (err) {
		subset_release(&files);
		subset_release(&dirs);
		subset_release(&w->files);
		subset_release(&w->dirs);
		w->hashed = 0;
		return err;
	}
	if (!same_subset(&files, &w->files) || !same_subset(&dirs, &w->dirs))
		*changed = 1;
	subset_release(&w->files);
	subset_release(&w->dirs);
	w->files = files;
	w->dirs = dirs;
	return 0;
}

/*
 * The subset of @w's tree, sorted by path, no path twice and none inside a
 * directory rule's tree. Release @out with subset_release(), also on
 * failure.
 */
static int walk_list(const struct subset_walk *w, struct subset *out)
{
	const struct subset *dirs = &w->dirs;
	char path[PATH_LEN] = "";
	size_t i;
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < w->files.n && !err; i++)
		err = subset_add(out, w->files.v[i].path, &w->files.v[i].oid,
				 w->files.v[i].mode);
	if (!err && has_glob())
		err = dir_list(w->root, path, 0, out);
	/* Merge the directories in, then drop what they cover. */
	for (i = 0; i < dirs->n && !err; i++)
		if (!covered(dirs, dirs->v[i].path))
			err = subset_add(out, dirs->v[i].path, &dirs->v[i].oid,
					 dirs->v[i].mode);
	if (!err)
		sort_unique(out, dirs);
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

int subset_walk_hash(struct subset_walk *w, const git_tree *tree,
		     char hash_hex[41])
{
	struct subset s;
	int changed = 0, err;
	git_oid oid;

	err = walk_update(w, tree, &changed);
	if (err)
		return err;
	if (w->hashed && !changed) {
		memcpy(hash_hex, w->hash, 41);
		return 0;
	}
	w->hashed = 0;
	err = walk_list(w, &s);
	if (!err)
		err = manifest_hash(&s, &oid);
	subset_release(&s);
	if (err)
		return err;
	git_oid_tostr(w->hash, sizeof(w->hash), &oid);
	w->hashed = 1;
	memcpy(hash_hex, w->hash, 41);
	return 0;
}

/*
 * The subset of revision @rev and its hash. Release @s with subset_release(),
 * also on failure.
 */
int subset_of_rev(bisect_repo *r, const char *rev, struct subset *s,
		  char hash_hex[41])
{
	struct subset_walk w;
	git_tree *tree = NULL;
	int changed = 0, err;
	git_oid oid;

	memset(s, 0, sizeof(*s));
	err = subset_walk_init(&w, r);
	if (!err)
		err = rev_tree(r, rev, &tree);
	if (!err)
		err = walk_update(&w, tree, &changed);
	if (!err)
		err = walk_list(&w, s);
	if (!err)
		err = manifest_hash(s, &oid);
	if (!err)
		git_oid_tostr(hash_hex, GIT_OID_HEXSZ + 1, &oid);
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
