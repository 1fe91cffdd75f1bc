// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch.c - patches as commits of an object store: a file of `git diff`
 * output or an mbox of `git format-patch` split into its messages, each
 * applied in memory with libgit2's apply to its parent's tree; no work
 * tree, no index file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

static const char *next_line(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));

	return nl ? nl + 1 : end;
}

/*
 * Whether the line at @s starts a message of an mbox: "From <commit id> "
 * as git format-patch writes it, or any "From " line followed by a header
 * line ("From git@z ..." of b4, a mail client's "From user@host ..."). A
 * diff's lines start with ' ', '+', '-' or '@': never "From ".
 */
static int mbox_from(const char *s, const char *end)
{
	const char *h;
	int i;

	if (end - s < 5 || strncmp(s, "From ", 5))
		return 0;
	for (i = 5; s + i < end && isxdigit((unsigned char)s[i]); i++)
		;
	if (i == 5 + GIT_OID_HEXSZ && s + i < end && s[i] == ' ')
		return 1;
	h = next_line(s, end);
	for (i = 0; h + i < end && (isalnum((unsigned char)h[i]) ||
				   (i && h[i] == '-')); i++)
		;
	return i && h + i + 1 < end && h[i] == ':' && h[i + 1] == ' ';
}

/* The Subject header of the message in [@s, @end), unfolded; NULL: none. */
static char *subject_of(const char *s, const char *end)
{
	const char *l, *e;
	char *out = NULL;
	size_t len = 0;

	for (l = s; l < end && *l != '\n'; l = next_line(l, end))
		if (!strncasecmp(l, "Subject:", 8))
			break;
	if (l >= end || *l == '\n')
		return NULL;
	for (l += 8; l < end; l = e) {
		const char *nl;
		char *o;

		e = next_line(l, end);
		nl = e > l && e[-1] == '\n' ? e - 1 : e;
		while (l < nl && isspace((unsigned char)*l))
			l++;
		o = realloc(out, len + (size_t)(nl - l) + 2);
		if (!o) {
			free(out);
			return NULL;
		}
		out = o;
		if (len)
			out[len++] = ' ';
		memcpy(out + len, l, (size_t)(nl - l));
		len += (size_t)(nl - l);
		out[len] = '\0';
		/* a folded header goes on on lines that start with a blank */
		if (e >= end || (*e != ' ' && *e != '\t'))
			break;
	}
	return out;
}

/* One message or diff in [@s, @end) into @p; 0, or -1 without a diff. */
static int patch_of(struct bisect_patch *p, const char *s, const char *end,
		    const char *name, size_t i)
{
	const char *d, *l;
	char buf[64];

	for (d = s; d < end && strncmp(d, "diff --git ", 11);
	     d = next_line(d, end))
		;
	if (d >= end)
		return -1;
	/* format-patch's signature ends the diff */
	for (l = d; l < end && strncmp(l, "-- \n", 4); l = next_line(l, end))
		;
	p->len = (size_t)(l - d);
	p->text = malloc(p->len + 1);
	p->subject = subject_of(s, d);
	if (!p->subject) {
		snprintf(buf, sizeof(buf), " (%zu)", i + 1);
		p->subject = malloc(strlen(name) + sizeof(buf));
		if (p->subject)
			sprintf(p->subject, "%s%s", name, i ? buf : "");
	}
	if (!p->text || !p->subject)
		return -2;
	/* the subject without format-patch's "[PATCH n/m] " */
	p->title = p->subject;
	if (p->title[0] == '[' && strchr(p->title, ']'))
		p->title = strchr(p->title, ']') + 1;
	p->title += strspn(p->title, " ");
	memcpy(p->text, d, p->len);
	p->text[p->len] = '\0';
	return 0;
}

/* Whether a message is a series' cover letter: "[PATCH 0/3]", "[PATCH v2 00/10]". */
static int cover_letter(const char *s, const char *end)
{
	char *subj = subject_of(s, end), *p;
	int cover = 0;

	for (p = subj; p && *p && *p != ']'; p++) {
		size_t z = strspn(p, "0");

		if (z && (p == subj || p[-1] == ' ' || p[-1] == '[') &&
		    p[z] == '/' && isdigit((unsigned char)p[z + 1])) {
			cover = 1;
			break;
		}
	}
	free(subj);
	return cover;
}

int bisect_patches_parse(const char *text, size_t len, const char *name,
			 struct bisect_patch **out, size_t *n)
{
	const char *end = text + len, *s, *l;
	struct bisect_patch *v = NULL;
	size_t cap = 0, k = 0;
	int err;

	*out = NULL;
	*n = 0;
	for (s = text; s < end; s = l) {
		/* the message runs to the next "From <id> " line */
		for (l = next_line(s, end); l < end && !mbox_from(l, end);
		     l = next_line(l, end))
			;
		if (LSB_GROW(v, k + 1, cap)) {
			err = bisect_error(BISECT_ENOMEM, "out of memory");
			goto fail;
		}
		memset(&v[k], 0, sizeof(*v));
		err = patch_of(&v[k], s, l, name, k);
		if (err == -2) {
			k++;
			err = bisect_error(BISECT_ENOMEM, "out of memory");
			goto fail;
		}
		if (err) {
			if (mbox_from(s, l) && !cover_letter(s, l)) {
				err = bisect_error(BISECT_EINVAL,
					"'%s': message %zu has no diff",
					name, k + 1);
				goto fail;
			}
			continue;	/* a cover letter, or text before the first message */
		}
		k++;
	}
	if (!k) {
		err = bisect_error(BISECT_EINVAL,
				   "'%s': no patch in it (no 'diff --git' line)",
				   name);
		goto fail;
	}
	*out = v;
	*n = k;
	return 0;
fail:
	bisect_patches_free(v, k);
	return err;
}

void bisect_patches_free(struct bisect_patch *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].subject);
		free(v[i].text);
	}
	free(v);
}

/* Where the apply is, for the message of a hunk that does not apply. */
struct apply_at {
	char file[1024];
	char hunk[256];
	int nr_hunk;
};

static int apply_delta(const git_diff_delta *d, void *payload)
{
	struct apply_at *at = payload;

	snprintf(at->file, sizeof(at->file), "%s",
		 d->old_file.path ? d->old_file.path : d->new_file.path);
	at->nr_hunk = 0;
	at->hunk[0] = '\0';
	return 0;
}

static int apply_hunk(const git_diff_hunk *h, void *payload)
{
	struct apply_at *at = payload;
	size_t len = h->header_len;

	while (len && (h->header[len - 1] == '\n' || h->header[len - 1] == '\r'))
		len--;
	if (len >= sizeof(at->hunk))
		len = sizeof(at->hunk) - 1;
	memcpy(at->hunk, h->header, len);
	at->hunk[len] = '\0';
	at->nr_hunk++;
	return 0;
}

int bisect_commit_patch(bisect_repo *store, const char *parent_rev,
			const struct bisect_patch *p, char out_hex[41])
{
	git_apply_options opts;
	struct apply_at at = { "", "", 0 };
	git_commit *parent = NULL;
	git_tree *tree = NULL;
	git_index *index = NULL;
	git_diff *diff = NULL;
	git_oid tree_id;
	char *msg = NULL;
	int err;

	if (!store || !parent_rev || !p)
		return bisect_error(BISECT_EINVAL, "no store, parent or patch");
	err = bisect_lookup_commit(store, parent_rev, &parent);
	if (err)
		return err;
	err = git_commit_tree(&tree, parent);
	if (err) {
		err = bisect_git_error(err, "'%s': cannot read its tree",
				       parent_rev);
		goto out;
	}
	err = git_diff_from_buffer(&diff, p->text, p->len);
	if (err) {
		err = bisect_git_error(err, "patch '%s' does not parse",
				       p->subject);
		if (err != BISECT_ENOMEM)
			err = BISECT_EINVAL;
		goto out;
	}
	git_apply_options_init(&opts, GIT_APPLY_OPTIONS_VERSION);
	opts.delta_cb = apply_delta;
	opts.hunk_cb = apply_hunk;
	opts.payload = &at;
	err = git_apply_to_tree(&index, store->git, tree, diff, &opts);
	if (err) {
		const git_error *e = git_error_last();

		if (at.nr_hunk)
			bisect_set_error("patch '%s' does not apply: %s, hunk %d '%s': %s",
					 p->subject, at.file, at.nr_hunk,
					 at.hunk, e ? e->message : "");
		else
			bisect_set_error("patch '%s' does not apply: %s: %s",
					 p->subject, at.file[0] ? at.file : "?",
					 e ? e->message : "");
		err = BISECT_EAPPLY;
		goto out;
	}
	err = git_index_write_tree_to(&tree_id, index, store->git);
	if (err) {
		err = bisect_git_error(err, "cannot write the tree of patch '%s'",
				       p->subject);
		goto out;
	}
	msg = malloc(strlen(p->title) + 2);
	if (!msg) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto out;
	}
	sprintf(msg, "%s\n", p->title);
	err = bisect_commit_tree(store, parent, &tree_id, msg, out_hex);
out:
	free(msg);
	git_index_free(index);
	git_diff_free(diff);
	git_tree_free(tree);
	git_commit_free(parent);
	return err;
}
