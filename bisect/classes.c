// SPDX-License-Identifier: GPL-2.0-only
/*
 * classes.c - the commits a bisection searches, grouped into classes of
 * consecutive commits with one build subset; ancestry; what a report says
 * about a commit.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

int bisect_is_ancestor(bisect_repo *r, const char *ancestor,
		       const char *descendant)
{
	git_commit *a = NULL, *d = NULL;
	int err;

	err = bisect_lookup_commit(r, ancestor, &a);
	if (!err)
		err = bisect_lookup_commit(r, descendant, &d);
	if (!err) {
		err = git_graph_descendant_of(r->git, git_commit_id(d),
					      git_commit_id(a));
		if (err < 0)
			err = bisect_git_error(err,
				"cannot tell whether '%s' is an ancestor of '%s' in repository '%s'",
				ancestor, descendant, r->path);
	}
	git_commit_free(a);
	git_commit_free(d);
	return err;
}

/*
 * Subset hashes by root tree: a revert, an empty commit or a merge that
 * changed nothing has the tree of an earlier commit. Open addressing on
 * the tree id, sized for the range.
 */
struct tree_memo {
	git_oid *trees;
	char (*subsets)[41];
	unsigned char *used;
	size_t cap;
};

static int memo_init(struct tree_memo *m, size_t n)
{
	m->cap = 16;
	while (m->cap < 2 * n)
		m->cap *= 2;
	m->trees = calloc(m->cap, sizeof(*m->trees));
	m->subsets = calloc(m->cap, sizeof(*m->subsets));
	m->used = calloc(m->cap, 1);
	return m->trees && m->subsets && m->used ? 0 : -1;
}

static void memo_release(struct tree_memo *m)
{
	free(m->trees);
	free(m->subsets);
	free(m->used);
}

/* The slot of @tree: where it is, or the free slot where it belongs. */
static size_t memo_slot(const struct tree_memo *m, const git_oid *tree)
{
	size_t i;

	memcpy(&i, tree->id, sizeof(i));
	for (i &= m->cap - 1; m->used[i]; i = (i + 1) & (m->cap - 1))
		if (git_oid_equal(&m->trees[i], tree))
			break;
	return i;
}

void bisect_classes_free(struct bisect_classes *c)
{
	if (!c)
		return;
	free(c->commits);
	free(c->subsets);
	free(c->classes);
	free(c);
}

/*
 * The subset hash of commit @rev into @out: from @memo when its root tree
 * was seen before, else from @w, which reads only what changed since the
 * last tree it read. Counts a merge in *@nr_merges unless it is NULL.
 */
static int hash_commit(bisect_repo *r, struct subset_walk *w,
		       struct tree_memo *memo, const char *rev, char out[41],
		       size_t *nr_merges)
{
	git_commit *commit;
	git_tree *tree;
	size_t slot;
	int err;

	err = bisect_lookup_commit(r, rev, &commit);
	if (err)
		return err;
	if (nr_merges && git_commit_parentcount(commit) > 1)
		(*nr_merges)++;
	slot = memo_slot(memo, git_commit_tree_id(commit));
	if (memo->used[slot]) {
		memcpy(out, memo->subsets[slot], 41);
		git_commit_free(commit);
		return 0;
	}
	err = git_commit_tree(&tree, commit);
	if (err < 0) {
		err = bisect_git_error(err,
			"cannot read the tree of '%s' in repository '%s'",
			rev, r->path);
	} else {
		err = subset_walk_hash(w, tree, out);
		git_tree_free(tree);
	}
	if (!err) {
		git_oid_cpy(&memo->trees[slot], git_commit_tree_id(commit));
		memcpy(memo->subsets[slot], out, 41);
		memo->used[slot] = 1;
	}
	git_commit_free(commit);
	return err;
}

/* Subset hashes of GOOD and every commit of the range. */
static int hash_commits(bisect_repo *r, struct bisect_classes *c)
{
	struct subset_walk walk;
	struct tree_memo memo;
	size_t i;
	int err;

	if (memo_init(&memo, c->nr_commits + 1)) {
		memo_release(&memo);
		return bisect_error(BISECT_ENOMEM, "out of memory");
	}
	err = subset_walk_init(&walk, r);
	if (!err)
		err = hash_commit(r, &walk, &memo, c->good, c->good_subset,
				  NULL);
	for (i = 0; i < c->nr_commits && !err; i++)
		err = hash_commit(r, &walk, &memo, c->commits[i],
				  c->subsets[i], &c->nr_merges);
	subset_walk_release(&walk);
	memo_release(&memo);
	return err;
}

static int make_classes(struct bisect_classes *c)
{
	size_t i;

	c->classes = calloc(c->nr_commits, sizeof(*c->classes));
	if (!c->classes)
		return bisect_error(BISECT_ENOMEM, "out of memory");
	for (i = 0; i < c->nr_commits; i++) {
		struct bisect_class *k;

		if (i && !strcmp(c->subsets[i - 1], c->subsets[i])) {
			c->classes[c->nr_classes - 1].n++;
			continue;
		}
		k = &c->classes[c->nr_classes++];
		k->first = i;
		k->n = 1;
		memcpy(k->subset, c->subsets[i], 41);
	}
	return 0;
}

int bisect_classes_new(struct bisect_classes **out, bisect_repo *r,
		       const char *good, const char *bad, int first_parent)
{
	struct bisect_classes *c;
	int err;

	if (!out)
		return bisect_error(BISECT_EINVAL, "no output classes");
	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return bisect_error(BISECT_ENOMEM, "out of memory");
	err = bisect_resolve(r, good, c->good);
	if (!err)
		err = bisect_resolve(r, bad, c->bad);
	if (err)
		goto cleanup;
	if (!strcmp(c->good, c->bad)) {
		err = bisect_error(BISECT_EINVAL,
			"GOOD '%s' and BAD '%s' are the same commit (%.12s)",
			good, bad, c->good);
		goto cleanup;
	}
	err = bisect_is_ancestor(r, c->good, c->bad);
	if (err == 0) {
		int swapped = bisect_is_ancestor(r, c->bad, c->good) == 1;

		err = bisect_error(BISECT_EINVAL,
			"GOOD '%s' (%.12s) is not an ancestor of BAD '%s' (%.12s)%s",
			good, c->good, bad, c->bad,
			swapped ? ": BAD is an ancestor of GOOD (swapped?)" :
				  "");
		goto cleanup;
	}
	if (err < 0)
		goto cleanup;
	err = bisect_range(r, c->good, c->bad, first_parent,
			   &c->commits, &c->nr_commits);
	if (err)
		goto cleanup;
	if (!c->nr_commits ||
	    strcmp(c->commits[c->nr_commits - 1], c->bad)) {
		err = bisect_error(BISECT_EGIT,
			"the range '%s..%s' does not end with BAD", good, bad);
		goto cleanup;
	}
	c->subsets = calloc(c->nr_commits, sizeof(*c->subsets));
	if (!c->subsets) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	err = hash_commits(r, c);
	if (!err)
		err = make_classes(c);
	if (!err) {
		*out = c;
		return 0;
	}
cleanup:
	bisect_classes_free(c);
	return err;
}

const char *const bisect_report_prefixes[BISECT_NR_REPORT_PREFIXES] = {
	"kernel/sched/", "drivers/cpuidle/", "include/",
};

void bisect_commit_info_release(struct bisect_commit_info *info)
{
	size_t i;

	free(info->subject);
	free(info->author);
	for (i = 0; i < info->nr_files; i++)
		free(info->files[i]);
	free(info->files);
	memset(info, 0, sizeof(*info));
}

struct files_payload {
	struct bisect_commit_info *info;
	const char *const *prefixes;
	size_t nr_prefixes;
	size_t cap;
};

static int file_cb(const git_diff_delta *delta, float progress, void *data)
{
	struct files_payload *p = data;
	const char *path = delta->new_file.path ? delta->new_file.path :
						 delta->old_file.path;
	size_t i;
	int match = !p->nr_prefixes;

	(void)progress;
	for (i = 0; i < p->nr_prefixes && !match; i++)
		match = !strncmp(path, p->prefixes[i], strlen(p->prefixes[i]));
	if (!match)
		return 0;
	if (LSB_GROW(p->info->files, p->info->nr_files + 1, p->cap))
		return -1;
	p->info->files[p->info->nr_files] = strdup(path);
	if (!p->info->files[p->info->nr_files])
		return -1;
	p->info->nr_files++;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bisect_commit_info(struct bisect_commit_info *out, bisect_repo *r,
		       const char *rev, const char *const *prefixes,
		       size_t nr_prefixes)
{
	struct files_payload p = {
		.info = out, .prefixes = prefixes, .nr_prefixes = nr_prefixes,
	};
	git_commit *c = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff *diff = NULL;
	const git_signature *who;
	const char *summary;
	int err;

	if (!out)
		return bisect_error(BISECT_EINVAL, "no output commit info");
	memset(out, 0, sizeof(*out));
	err = bisect_lookup_commit(r, rev, &c);
	if (err)
		return err;
	git_oid_tostr(out->id, sizeof(out->id), git_commit_id(c));
	summary = git_commit_summary(c);
	who = git_commit_author(c);
	out->subject = strdup(summary ? summary : "");
	if (who && asprintf(&out->author, "%s <%s>", who->name,
			    who->email) < 0)
		out->author = NULL;
	if (!out->subject || !out->author) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	out->time = who->when.time;
	out->offset = who->when.offset;
	err = git_commit_tree(&tree, c);
	if (!err && git_commit_parentcount(c)) {
		err = git_commit_parent(&parent, c, 0);
		if (!err) {
			git_oid_tostr(out->parent, sizeof(out->parent),
				      git_commit_id(parent));
			err = git_commit_tree(&ptree, parent);
		}
	}
	if (!err)
		err = git_diff_tree_to_tree(&diff, r->git, ptree, tree, NULL);
	if (err < 0) {
		err = bisect_git_error(err,
			"cannot diff commit '%s' against its parent in repository '%s'",
			rev, r->path);
		goto cleanup;
	}
	if (git_diff_foreach(diff, file_cb, NULL, NULL, NULL, &p)) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	qsort(out->files, out->nr_files, sizeof(char *), str_cmp);
cleanup:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(c);
	return err;
}
