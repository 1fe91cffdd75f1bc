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

int bisect_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int bisect_git_error(int git_code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int bisect_lookup_commit(bisect_repo *r, const char *rev, git_commit **out);

int subset_of_rev(bisect_repo *r, const char *rev, struct subset *s,
		  char hash_hex[41]);
void subset_release(struct subset *s);

#endif
