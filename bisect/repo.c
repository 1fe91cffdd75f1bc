// SPDX-License-Identifier: GPL-2.0-only
/*
 * repo.c - open a repository, resolve revisions, list ranges; the module's
 * error message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

LSB_DEFINE_LAST_ERROR(bisect)

/* The last message, followed by ": @suffix". */
static void set_error(const char *fmt, va_list ap, const char *suffix)
{
	size_t len;

	bisect_vset_error(fmt, ap);
	len = strlen(bisect_error_text);
	if (suffix)
		lsb_pathf(bisect_error_text + len,
			  sizeof(bisect_error_text) - len, ": %s", suffix);
}

/* Record a message and return @code, so that "return bisect_error(...)". */
int bisect_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(fmt, ap, NULL);
	va_end(ap);
	return code;
}

/*
 * Record a message followed by libgit2's own and return the bisect_error
 * matching @git_code.
 */
int bisect_git_error(int git_code, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	va_list ap;

	va_start(ap, fmt);
	set_error(fmt, ap, e && e->message ? e->message : "unknown error");
	va_end(ap);
	switch (git_code) {
	case GIT_ENOTFOUND:
	case GIT_EAMBIGUOUS:
	case GIT_EINVALIDSPEC:
	case GIT_EPEEL:
		return BISECT_ENOTFOUND;
	default:
		return BISECT_EGIT;
	}
}

int bisect_repo_open(bisect_repo **out, const char *path)
{
	bisect_repo *r;
	int err;

	if (!out)
		return bisect_error(BISECT_EINVAL, "no output repository");
	*out = NULL;
	if (!path)
		return bisect_error(BISECT_EINVAL, "no repository path");
	err = git_libgit2_init();
	if (err < 0)
		return bisect_git_error(err, "cannot initialise libgit2");
	r = calloc(1, sizeof(*r));
	if (r)
		r->path = strdup(path);
	if (!r || !r->path) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	err = git_repository_open_ext(&r->git, path,
				      GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (err < 0) {
		err = bisect_git_error(err, "cannot open repository '%s'",
				       path);
		goto cleanup;
	}
	*out = r;
	return 0;
cleanup:
	if (r)
		free(r->path);
	free(r);
	git_libgit2_shutdown();
	return err;
}

void bisect_repo_free(bisect_repo *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r->path);
	free(r);
	git_libgit2_shutdown();
}

static int is_full_hex(const char *s)
{
	size_t i;

	for (i = 0; i < GIT_OID_HEXSZ; i++)
		if (!s[i] || !strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	return s[i] == '\0';
}

/*
 * Look up the commit @rev names. A full hash is looked up directly (no ref
 * name can shadow it); anything else goes through git_revparse_single().
 * The caller frees *@out with git_commit_free().
 */
int bisect_lookup_commit(bisect_repo *r, const char *rev, git_commit **out)
{
	git_object *obj = NULL, *peeled = NULL;
	git_oid oid;
	int err;

	*out = NULL;
	if (!r || !rev)
		return bisect_error(BISECT_EINVAL, "no repository or revision");
	if (is_full_hex(rev)) {
		err = git_oid_fromstr(&oid, rev);
		if (!err)
			err = git_object_lookup(&obj, r->git, &oid,
						GIT_OBJECT_ANY);
	} else {
		err = git_revparse_single(&obj, r->git, rev);
	}
	if (err == GIT_EAMBIGUOUS)
		return bisect_git_error(err,
			"revision '%s' is ambiguous in repository '%s'",
			rev, r->path);
	if (err < 0)
		return bisect_git_error(err,
			"revision '%s' not found in repository '%s'",
			rev, r->path);
	err = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err < 0)
		return bisect_git_error(err,
			"revision '%s' in repository '%s' is not a commit",
			rev, r->path);
	*out = (git_commit *)peeled;
	return 0;
}

int bisect_resolve(bisect_repo *r, const char *name, char out_hex[41])
{
	git_commit *c;
	int err;

	if (!out_hex)
		return bisect_error(BISECT_EINVAL, "no output buffer");
	err = bisect_lookup_commit(r, name, &c);
	if (err)
		return err;
	git_oid_tostr(out_hex, GIT_OID_HEXSZ + 1, git_commit_id(c));
	git_commit_free(c);
	return 0;
}

int bisect_range(bisect_repo *r, const char *good_hex, const char *bad_hex,
		 int first_parent, char (**out)[41], size_t *n)
{
	git_commit *good = NULL, *bad = NULL;
	git_revwalk *walk = NULL;
	char (*v)[41] = NULL;
	size_t len = 0, cap = 0;
	git_oid oid;
	int err;

	if (!out || !n)
		return bisect_error(BISECT_EINVAL, "no output array");
	*out = NULL;
	*n = 0;
	err = bisect_lookup_commit(r, good_hex, &good);
	if (!err)
		err = bisect_lookup_commit(r, bad_hex, &bad);
	if (err)
		goto cleanup;
	err = git_revwalk_new(&walk, r->git);
	if (!err)
		err = git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL |
					  GIT_SORT_REVERSE);
	if (!err)
		err = git_revwalk_push(walk, git_commit_id(bad));
	if (!err)
		err = git_revwalk_hide(walk, git_commit_id(good));
	if (!err && first_parent)
		err = git_revwalk_simplify_first_parent(walk);
	if (err < 0)
		goto git_fail;
	while (!(err = git_revwalk_next(&oid, walk))) {
		if (LSB_GROW(v, len + 1, cap)) {
			err = bisect_error(BISECT_ENOMEM, "out of memory");
			goto cleanup;
		}
		git_oid_tostr(v[len++], sizeof(v[0]), &oid);
	}
	if (err != GIT_ITEROVER)
		goto git_fail;
	*out = v;
	*n = len;
	v = NULL;
	err = 0;
	goto cleanup;
git_fail:
	err = bisect_git_error(err,
		"cannot list commits '%s..%s' in repository '%s'",
		good_hex, bad_hex, r->path);
cleanup:
	free(v);
	git_revwalk_free(walk);
	git_commit_free(good);
	git_commit_free(bad);
	return err;
}
