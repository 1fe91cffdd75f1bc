// SPDX-License-Identifier: GPL-2.0-only
/*
 * edit.c - commits made from a revision by substituting text in its files
 * (a bug re-introduced into a release, for the catalogue of bugs/), with
 * git's objects and fixed names and dates: no checkout, no work tree.
 */
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"

/* A file the edits change: its text so far and its tree entry's mode. */
struct edited {
	const char *path;
	char *text;
	git_filemode_t mode;
};

/* Read @path of @tree into @f. */
static int read_file(bisect_repo *r, git_tree *tree, const char *path,
		     const char *base, struct edited *f)
{
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	size_t len;
	int err;

	err = git_tree_entry_bypath(&entry, tree, path);
	if (err)
		return bisect_git_error(err, "'%s' has no file '%s'", base,
					path);
	f->path = path;
	f->mode = git_tree_entry_filemode(entry);
	err = git_blob_lookup(&blob, r->git, git_tree_entry_id(entry));
	git_tree_entry_free(entry);
	if (err)
		return bisect_git_error(err, "'%s': cannot read '%s'", base,
					path);
	len = (size_t)git_blob_rawsize(blob);
	f->text = malloc(len + 1);
	if (!f->text) {
		git_blob_free(blob);
		return bisect_error(BISECT_ENOMEM, "out of memory");
	}
	memcpy(f->text, git_blob_rawcontent(blob), len);
	f->text[len] = '\0';
	git_blob_free(blob);
	return 0;
}

/* Substitute @e in @f: its old text must occur exactly once. */
static int substitute(struct edited *f, const struct bisect_edit *e,
		      size_t i, const char *base)
{
	size_t lo = strlen(e->old), ln = strlen(e->new), len;
	char *at, *text;

	at = lo ? strstr(f->text, e->old) : NULL;
	if (!at)
		return bisect_error(BISECT_ENOTFOUND,
			"edit %zu: its old text is not in %s of '%s' (does the edit still apply to this revision?)",
			i + 1, f->path, base);
	if (strstr(at + 1, e->old))
		return bisect_error(BISECT_EINVAL,
			"edit %zu: its old text occurs more than once in %s of '%s'; give more context",
			i + 1, f->path, base);
	len = strlen(f->text) - lo + ln;
	text = malloc(len + 1);
	if (!text)
		return bisect_error(BISECT_ENOMEM, "out of memory");
	memcpy(text, f->text, (size_t)(at - f->text));
	memcpy(text + (at - f->text), e->new, ln);
	strcpy(text + (at - f->text) + ln, at + lo);
	free(f->text);
	f->text = text;
	return 0;
}

int bisect_commit_edits(bisect_repo *r, const char *base,
			const struct bisect_edit *edits, size_t nr_edits,
			const char *message, const char *ref,
			char out_hex[41])
{
	struct edited *files = calloc(nr_edits ? nr_edits : 1, sizeof(*files));
	git_tree_update *upd = calloc(nr_edits ? nr_edits : 1, sizeof(*upd));
	const git_commit *parents[1];
	git_commit *parent = NULL;
	git_tree *tree = NULL, *new_tree = NULL;
	git_signature *sig = NULL;
	git_reference *refo = NULL;
	git_oid tree_id, commit_id;
	size_t i, j, n = 0;
	int err;

	if (!files || !upd) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto out;
	}
	if (!r || !edits || !nr_edits || !message) {
		err = bisect_error(BISECT_EINVAL, "no repository or edits");
		goto out;
	}
	err = bisect_lookup_commit(r, base, &parent);
	if (err)
		goto out;
	err = git_commit_tree(&tree, parent);
	if (err) {
		err = bisect_git_error(err, "'%s': cannot read its tree", base);
		goto out;
	}
	for (i = 0; i < nr_edits; i++) {
		for (j = 0; j < n && strcmp(files[j].path, edits[i].file); j++)
			;
		if (j == n) {
			err = read_file(r, tree, edits[i].file, base, &files[n]);
			if (err)
				goto out;
			n++;
		}
		err = substitute(&files[j], &edits[i], i, base);
		if (err)
			goto out;
	}
	for (j = 0; j < n; j++) {
		upd[j].action = GIT_TREE_UPDATE_UPSERT;
		upd[j].filemode = files[j].mode;
		upd[j].path = files[j].path;
		err = git_blob_create_from_buffer(&upd[j].id, r->git,
						  files[j].text,
						  strlen(files[j].text));
		if (err) {
			err = bisect_git_error(err, "cannot write %s",
					       files[j].path);
			goto out;
		}
	}
	err = git_tree_create_updated(&tree_id, r->git, tree, n, upd);
	if (!err)
		err = git_tree_lookup(&new_tree, r->git, &tree_id);
	/* fixed names and date: the same edits give the same commit */
	if (!err)
		err = git_signature_new(&sig, "lsbisect", "lsbisect@localhost",
					1700000000, 0);
	parents[0] = parent;
	if (!err)
		err = git_commit_create(&commit_id, r->git, NULL, sig, sig,
					NULL, message, new_tree, 1, parents);
	if (!err && ref)
		err = git_reference_create(&refo, r->git, ref, &commit_id, 1,
					   "lsbisect: an edited revision");
	if (err) {
		err = bisect_git_error(err, "cannot write the edited commit of '%s' in '%s'",
				       base, r->path);
		goto out;
	}
	git_oid_tostr(out_hex, GIT_OID_HEXSZ + 1, &commit_id);
out:
	for (j = 0; files && j < n; j++)
		free(files[j].text);
	free(files);
	free(upd);
	git_reference_free(refo);
	git_signature_free(sig);
	git_tree_free(new_tree);
	git_tree_free(tree);
	git_commit_free(parent);
	return err;
}
