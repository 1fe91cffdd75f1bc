// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff.c - what changed in the build subset between two revisions, and
 * one blob written to a file: what a build made from a neighbour's objects
 * needs to know and to read (driver/, adapters/reuse.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

struct diff_walk {
	struct bisect_change *v;
	size_t n, cap, max;
	int err;
};

static void change_fill(struct bisect_change *c, const git_diff_delta *d)
{
	const git_diff_file *f = d->status == GIT_DELTA_DELETED ?
				 &d->old_file : &d->new_file;

	c->status = d->status == GIT_DELTA_ADDED ? BISECT_ADDED :
		    d->status == GIT_DELTA_DELETED ? BISECT_DELETED :
						     BISECT_MODIFIED;
	c->mode = d->status == GIT_DELTA_DELETED ? 0 : f->mode;
	if (d->status == GIT_DELTA_DELETED)
		c->oid[0] = '\0';
	else
		git_oid_tostr(c->oid, sizeof(c->oid), &f->id);
}

/* Counts each delta inside the subset; stops the diff past w->max. */
static int notify_cb(const git_diff *diff, const git_diff_delta *d,
		     const char *pathspec, void *payload)
{
	struct diff_walk *w = payload;
	const char *path = d->status == GIT_DELTA_DELETED ? d->old_file.path :
							    d->new_file.path;
	struct bisect_change *c;

	(void)diff;
	(void)pathspec;
	if (!subset_contains(path))
		return 1;	/* skip it */
	if (w->n == w->max) {
		w->err = BISECT_ETOOMANY;
		return -1;
	}
	if (LSB_GROW(w->v, w->n + 1, w->cap)) {
		w->err = bisect_error(BISECT_ENOMEM, "out of memory");
		return -1;
	}
	c = &w->v[w->n];
	c->path = strdup(path);
	if (!c->path) {
		w->err = bisect_error(BISECT_ENOMEM, "out of memory");
		return -1;
	}
	change_fill(c, d);
	w->n++;
	return 0;
}

static int commit_tree(bisect_repo *r, const char *rev, git_tree **out)
{
	git_commit *c;
	int err = bisect_lookup_commit(r, rev, &c);

	if (err)
		return err;
	err = git_commit_tree(out, c);
	git_commit_free(c);
	if (err < 0)
		return bisect_git_error(err, "cannot read the tree of '%s'", rev);
	return 0;
}

void bisect_changes_free(struct bisect_change *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i].path);
	free(v);
}

int bisect_subset_diff(bisect_repo *r, const char *from, const char *to,
		       size_t max, struct bisect_change **out, size_t *n)
{
	git_diff_options opts;
	struct diff_walk w = { .max = max };
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	int err;

	*out = NULL;
	*n = 0;
	err = commit_tree(r, from, &a);
	if (!err)
		err = commit_tree(r, to, &b);
	if (err)
		goto out;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.notify_cb = notify_cb;
	opts.payload = &w;
	err = git_diff_tree_to_tree(&diff, r->git, a, b, &opts);
	if (err < 0 && !w.err)
		err = bisect_git_error(err, "cannot compare '%s' with '%s'",
				       from, to);
	else if (w.err == BISECT_ETOOMANY)
		err = bisect_error(BISECT_ETOOMANY,
				   "more than %zu files of the build subset differ between '%s' and '%s'",
				   max, from, to);
	else
		err = w.err;
out:
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	if (err) {
		bisect_changes_free(w.v, w.n);
		return err;
	}
	*out = w.v;
	*n = w.n;
	return 0;
}

int bisect_blob_write(bisect_repo *r, const char *oid_hex, const char *path)
{
	git_oid oid;
	git_blob *blob;
	int err;

	if (!access(path, F_OK))
		return 0;	/* a blob's file never changes */
	if (git_oid_fromstrn(&oid, oid_hex, strlen(oid_hex)) < 0)
		return bisect_error(BISECT_EINVAL, "bad object id '%s'", oid_hex);
	err = git_blob_lookup(&blob, r->git, &oid);
	if (err < 0)
		return bisect_git_error(err, "cannot read blob %s from repository '%s'",
					oid_hex, r->path);
	err = lsb_write_atomic(path, git_blob_rawcontent(blob),
			       (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	if (err)
		return bisect_error(BISECT_EIO, "cannot write '%s': %s", path,
				    strerror(errno));
	return 0;
}
