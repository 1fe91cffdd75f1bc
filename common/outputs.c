// SPDX-License-Identifier: GPL-2.0-only
/*
 * outputs.c - the files and directories a command will write, checked
 * before it builds or runs anything: one check for every command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/common.h"

/* What a path is, to tell whether two name one file. */
struct ident {
	int kind;		/* ID_NONE, ID_STDOUT, ID_FILE or ID_NEW */
	dev_t dev;		/* the file's, or the new file's directory's */
	ino_t ino;
	const char *base;	/* ID_NEW: the name in that directory */
};

enum { ID_NONE, ID_STDOUT, ID_FILE, ID_NEW };

/* The directory part of @path ("." for none), into @out. */
static void dir_part(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		lsb_pathf(out, len, ".");
	else if (slash == path)
		lsb_pathf(out, len, "/");
	else
		lsb_pathf(out, len, "%.*s", (int)(slash - path), path);
}

/*
 * The nearest ancestor of @path that exists (@path itself maybe), into
 * @out with its stat. Return 0, or -1 when none can be read.
 */
static int existing(const char *path, char *out, size_t len, struct stat *st)
{
	char *slash;

	lsb_pathf(out, len, "%s", path);
	for (;;) {
		if (!stat(out, st))
			return 0;
		if (errno != ENOENT && errno != ENOTDIR)
			return -1;
		slash = strrchr(out, '/');
		while (slash && slash > out && slash[-1] == '/')
			slash--;
		if (!slash) {
			lsb_pathf(out, len, ".");
			return stat(out, st);
		}
		slash[slash == out] = '\0';
	}
}

/* An output directory @a: it is one, or it can be made. */
static int check_dir(const struct lsb_path_arg *a, char *err, size_t len)
{
	char anc[PATH_MAX];
	struct stat st;

	if (!*a->path) {
		lsb_pathf(err, len, "%s '': expected a directory name",
			  a->opt);
		return -1;
	}
	if (existing(a->path, anc, sizeof(anc), &st)) {
		lsb_pathf(err, len, "%s '%s': cannot read '%s': %s", a->opt,
			  a->path, anc, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (!strcmp(anc, a->path))
			lsb_pathf(err, len, "%s '%s': not a directory", a->opt,
				  a->path);
		else
			lsb_pathf(err, len, "%s '%s': '%s' is not a directory",
				  a->opt, a->path, anc);
		return -1;
	}
	return 0;
}

/* An output file @a: named, not a directory, in a directory that exists. */
static int check_file(const struct lsb_path_arg *a, struct ident *id,
		      char *err, size_t len)
{
	char dir[PATH_MAX], anc[PATH_MAX];
	struct stat st;
	const char *slash;

	if (!*a->path) {
		lsb_pathf(err, len, "%s '': expected a file name", a->opt);
		return -1;
	}
	if (!strcmp(a->path, "-")) {
		id->kind = ID_STDOUT;
		return 0;
	}
	if (!stat(a->path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			lsb_pathf(err, len, "%s '%s': a directory, expected a file",
				  a->opt, a->path);
			return -1;
		}
		/* a device or a pipe may be written by several outputs */
		id->kind = S_ISREG(st.st_mode) ? ID_FILE : ID_NONE;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return 0;
	}
	slash = strrchr(a->path, '/');
	if (slash && !slash[1]) {
		lsb_pathf(err, len, "%s '%s': a directory's name, expected a file",
			  a->opt, a->path);
		return -1;
	}
	dir_part(a->path, dir, sizeof(dir));
	if (existing(dir, anc, sizeof(anc), &st)) {
		lsb_pathf(err, len, "%s '%s': cannot read '%s': %s", a->opt,
			  a->path, anc, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		lsb_pathf(err, len, "%s '%s': '%s' is not a directory", a->opt,
			  a->path, anc);
		return -1;
	}
	if (strcmp(anc, dir)) {
		lsb_pathf(err, len, "%s '%s': no directory '%s'", a->opt,
			  a->path, dir);
		return -1;
	}
	id->kind = ID_NEW;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->base = slash ? slash + 1 : a->path;
	return 0;
}

/* An input @a: an existing file, else nothing an output could be. */
static void input_ident(const struct lsb_path_arg *a, struct ident *id)
{
	struct stat st;

	if (*a->path && strcmp(a->path, "-") && !stat(a->path, &st) &&
	    S_ISREG(st.st_mode)) {
		id->kind = ID_FILE;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
	}
}

static int same(const struct ident *a, const struct ident *b)
{
	if (a->kind == ID_NONE || a->kind != b->kind)
		return 0;
	if (a->kind == ID_STDOUT)
		return 1;
	return a->dev == b->dev && a->ino == b->ino &&
	       (a->kind == ID_FILE || !strcmp(a->base, b->base));
}

int lsb_check_paths(const struct lsb_path_arg *args, size_t n, char *err,
		    size_t len)
{
	struct ident ids[LSB_MAX_PATH_ARGS] = { { 0 } };
	size_t i, j;

	if (n > LSB_MAX_PATH_ARGS)
		n = LSB_MAX_PATH_ARGS;
	for (i = 0; i < n; i++) {
		const struct lsb_path_arg *a = &args[i];

		if (!a->path)
			continue;
		if (a->kind == LSB_IN)
			input_ident(a, &ids[i]);
		else if (a->kind == LSB_OUT_DIR ? check_dir(a, err, len) :
			 check_file(a, &ids[i], err, len))
			return -1;
	}
	for (i = 0; i < n; i++) {
		if (args[i].kind != LSB_OUT_FILE)
			continue;
		for (j = 0; j < n; j++) {
			if (j == i || (j < i && args[j].kind == LSB_OUT_FILE) ||
			    !same(&ids[i], &ids[j]))
				continue;
			if (ids[i].kind == ID_STDOUT)
				lsb_pathf(err, len, "%s and %s both write to standard output ('-')",
					  args[i].opt, args[j].opt);
			else if (args[j].kind == LSB_IN)
				lsb_pathf(err, len, "%s '%s' is the file %s '%s' reads: it would be overwritten",
					  args[i].opt, args[i].path,
					  args[j].opt, args[j].path);
			else
				lsb_pathf(err, len, "%s '%s' and %s '%s' are one file",
					  args[i].opt, args[i].path,
					  args[j].opt, args[j].path);
			return -1;
		}
	}
	return 0;
}
