// SPDX-License-Identifier: GPL-2.0-only
/*
 * tags.c - the tags of a repository and the commits they name, for
 * labels (a trend's x axis names a revision by its tag).
 */
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

#define TAG_PREFIX "refs/tags/"

static int by_name(const void *a, const void *b)
{
	const struct bisect_tag *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Append @ref's tag to @v when it peels to a commit; -1: out of memory. */
static int add_tag(struct bisect_tag **v, size_t *n, size_t *cap,
		   git_reference *ref)
{
	const char *name = git_reference_name(ref);
	git_object *commit = NULL;
	struct bisect_tag *t;

	if (strncmp(name, TAG_PREFIX, strlen(TAG_PREFIX)))
		return 0;
	/* a tag of a tree or a blob labels no commit */
	if (git_reference_peel(&commit, ref, GIT_OBJECT_COMMIT) < 0)
		return 0;
	if (LSB_GROW(*v, *n + 1, *cap)) {
		git_object_free(commit);
		return -1;
	}
	t = &(*v)[*n];
	t->name = strdup(name + strlen(TAG_PREFIX));
	git_oid_tostr(t->commit, sizeof(t->commit), git_object_id(commit));
	git_object_free(commit);
	if (!t->name)
		return -1;
	(*n)++;
	return 0;
}

int bisect_tags(bisect_repo *r, struct bisect_tag **out, size_t *n)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	struct bisect_tag *v = NULL;
	size_t len = 0, cap = 0;
	int err;

	if (!out || !n)
		return bisect_error(BISECT_EINVAL, "no output array");
	*out = NULL;
	*n = 0;
	if (!r)
		return bisect_error(BISECT_EINVAL, "no repository");
	err = git_reference_iterator_new(&it, r->git);
	if (err < 0)
		return bisect_git_error(err,
			"cannot list the tags of repository '%s'", r->path);
	while (!(err = git_reference_next(&ref, it))) {
		err = add_tag(&v, &len, &cap, ref);
		git_reference_free(ref);
		if (err) {
			err = bisect_error(BISECT_ENOMEM, "out of memory");
			goto cleanup;
		}
	}
	if (err != GIT_ITEROVER) {
		err = bisect_git_error(err,
			"cannot list the tags of repository '%s'", r->path);
		goto cleanup;
	}
	if (len)
		qsort(v, len, sizeof(*v), by_name);
	*out = v;
	*n = len;
	v = NULL;
	len = 0;
	err = 0;
cleanup:
	bisect_tags_free(v, len);
	git_reference_iterator_free(it);
	return err;
}

void bisect_tags_free(struct bisect_tag *tags, size_t n)
{
	size_t i;

	for (i = 0; tags && i < n; i++)
		free(tags[i].name);
	free(tags);
}
