// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - write a revision's build subset into a directory, straight from
 * git objects, atomically (write a temporary directory, then rename it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

struct export {
	bisect_repo *r;
	char path[PATH_MAX];	/* "DIR.tmp.PID/" then the entry's path */
	size_t len;		/* of the prefix the walk is under */
	int err;
};

static int rm_cb(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) && errno != ENOENT ? -1 : 0;
}

static int rm_rf(const char *path)
{
	if (nftw(path, rm_cb, 32, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return bisect_error(BISECT_EIO, "cannot remove '%s': %s", path,
				    strerror(errno));
	return 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

static int write_file(const char *path, const void *buf, size_t len,
		      mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, mode);

	if (fd < 0)
		goto fail;
	if (write_all(fd, buf, len)) {
		close(fd);
		goto fail;
	}
	if (close(fd))
		goto fail;
	return 0;
fail:
	return bisect_error(BISECT_EIO, "cannot write '%s': %s", path,
			    strerror(errno));
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return bisect_error(BISECT_EIO, "cannot create '%s': %s",
				    path, strerror(errno));
	return 0;
}

/* Create the directories of @path after its first @skip bytes. */
static int make_parents(char *path, size_t skip)
{
	char *p;

	for (p = path + skip; (p = strchr(p, '/')); p++) {
		int err;

		*p = '\0';
		err = make_dir(path);
		*p = '/';
		if (err)
			return err;
	}
	return 0;
}

/* Write the blob, symlink or submodule @oid to x->path. */
static int write_entry(struct export *x, const git_oid *oid,
		       git_filemode_t mode)
{
	git_blob *blob;
	const void *data;
	size_t size;
	char *target;
	int err;

	if (mode == GIT_FILEMODE_COMMIT)	/* as git checks it out */
		return make_dir(x->path);
	err = git_blob_lookup(&blob, x->r->git, oid);
	if (err < 0)
		return bisect_git_error(err,
			"cannot read '%s' from repository '%s'",
			x->path, x->r->path);
	data = git_blob_rawcontent(blob);
	size = (size_t)git_blob_rawsize(blob);
	if (mode != GIT_FILEMODE_LINK) {
		err = write_file(x->path, data, size,
				 mode == GIT_FILEMODE_BLOB_EXECUTABLE ?
				 0755 : 0644);
		goto cleanup;
	}
	target = malloc(size + 1);	/* the content is not NUL-terminated */
	if (!target) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	memcpy(target, data, size);
	target[size] = '\0';
	err = 0;
	if (symlink(target, x->path))
		err = bisect_error(BISECT_EIO, "cannot create symlink '%s': %s",
				   x->path, strerror(errno));
	free(target);
cleanup:
	git_blob_free(blob);
	return err;
}

/* git_tree_walk() callback under the directory x->path[0..x->len). */
static int export_cb(const char *root, const git_tree_entry *te,
		     void *payload)
{
	struct export *x = payload;
	const char *name = git_tree_entry_name(te);
	size_t rlen = strlen(root), nlen = strlen(name);

	/* A crafted tree must not write outside the export. */
	if (!strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/')) {
		x->err = bisect_error(BISECT_EGIT,
			"invalid path '%s%s' in repository '%s'",
			root, name, x->r->path);
		return -1;
	}
	if (x->len + rlen + nlen >= sizeof(x->path)) {
		x->err = bisect_error(BISECT_EIO, "path '%s%s' too long",
				      root, name);
		return -1;
	}
	memcpy(x->path + x->len, root, rlen);
	memcpy(x->path + x->len + rlen, name, nlen + 1);
	if (git_tree_entry_type(te) == GIT_OBJECT_TREE)
		x->err = make_dir(x->path);
	else
		x->err = write_entry(x, git_tree_entry_id(te),
				     git_tree_entry_filemode(te));
	return x->err ? -1 : 0;
}

static int export_tree(struct export *x, const git_oid *oid)
{
	git_tree *tree;
	int err;

	err = git_tree_lookup(&tree, x->r->git, oid);
	if (err < 0)
		return bisect_git_error(err,
			"cannot read '%s' from repository '%s'",
			x->path, x->r->path);
	err = make_dir(x->path);
	if (!err) {
		x->len = strlen(x->path);
		x->path[x->len++] = '/';
		x->err = 0;
		err = git_tree_walk(tree, GIT_TREEWALK_PRE, export_cb, x);
		if (err < 0 && x->err)
			err = x->err;
		else if (err < 0)
			err = bisect_git_error(err,
				"cannot read a tree in repository '%s'",
				x->r->path);
	}
	git_tree_free(tree);
	return err;
}

/* Does @dir hold a complete export whose subset hash is @hash? */
static int export_complete(const char *dir, const char *hash)
{
	char path[PATH_MAX], buf[GIT_OID_HEXSZ + 2];
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
			     BISECT_EXPORT_MARKER) >= sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == GIT_OID_HEXSZ + 1 && !memcmp(buf, hash, GIT_OID_HEXSZ) &&
	       buf[GIT_OID_HEXSZ] == '\n';
}

static int export_subset(struct export *x, const struct subset *s,
			 const char *hash)
{
	char *rel = x->path + x->len, line[GIT_OID_HEXSZ + 2];
	size_t room = sizeof(x->path) - x->len, i;
	size_t base = x->len;
	int err = 0;

	for (i = 0; i < s->n && !err; i++) {
		if ((size_t)snprintf(rel, room, "%s", s->v[i].path) >= room)
			return bisect_error(BISECT_EIO, "path '%s' too long",
					    s->v[i].path);
		err = make_parents(x->path, base);
		if (err)
			break;
		if (s->v[i].mode == GIT_FILEMODE_TREE)
			err = export_tree(x, &s->v[i].oid);
		else
			err = write_entry(x, &s->v[i].oid, s->v[i].mode);
		x->len = base;
	}
	if (err)
		return err;
	/* Last: the marker says the export is complete. */
	snprintf(rel, room, "%s", BISECT_EXPORT_MARKER);
	snprintf(line, sizeof(line), "%s\n", hash);
	return write_file(x->path, line, GIT_OID_HEXSZ + 1, 0644);
}

int bisect_export(bisect_repo *r, const char *rev_hex, const char *dir)
{
	char target[PATH_MAX], tmp[PATH_MAX], hash[GIT_OID_HEXSZ + 1];
	struct export *x = NULL;
	struct subset s = { 0 };
	size_t len;
	int err, made_tmp = 0, handle = -1;

	if (!r || !rev_hex || !dir || !*dir)
		return bisect_error(BISECT_EINVAL,
				    "no repository, revision or directory");
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len >= sizeof(target) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%.*s.tmp.%ld", (int)len, dir,
			     (long)getpid()) >= sizeof(tmp))
		return bisect_error(BISECT_EINVAL, "path '%s' too long", dir);
	snprintf(target, sizeof(target), "%.*s", (int)len, dir);

	err = subset_of_rev(r, rev_hex, &s, hash);
	if (err)
		goto cleanup;
	if (export_complete(target, hash))
		goto cleanup;
	if (access(target, F_OK) == 0 || errno != ENOENT) {
		err = bisect_error(BISECT_EEXIST,
			"'%s' exists and is not an export of '%s' (subset %s)",
			target, rev_hex, hash);
		goto cleanup;
	}
	/* what exports killed on their way left (a signal removes its own) */
	lsb_remove_stale_tmp(target);
	x = calloc(1, sizeof(*x));
	if (!x) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	x->r = r;
	handle = lsb_cleanup_add(tmp);
	if (mkdir(tmp, 0755)) {
		err = bisect_error(BISECT_EIO, "cannot create '%s': %s", tmp,
				   strerror(errno));
		goto cleanup;
	}
	made_tmp = 1;
	x->len = (size_t)snprintf(x->path, sizeof(x->path), "%s/", tmp);
	err = export_subset(x, &s, hash);
	if (err)
		goto cleanup;
	if (rename(tmp, target)) {
		int e = errno;

		/* Another process may have finished the same export first. */
		if ((e == EEXIST || e == ENOTEMPTY) &&
		    export_complete(target, hash))
			goto cleanup;
		err = bisect_error(BISECT_EIO, "cannot rename '%s' to '%s': %s",
				   tmp, target, strerror(e));
		goto cleanup;
	}
	made_tmp = 0;
cleanup:
	if (made_tmp) {
		/* Keep the first error's message. */
		char saved[1024];

		snprintf(saved, sizeof(saved), "%s", bisect_last_error());
		if (rm_rf(tmp) && !err)
			err = BISECT_EIO;
		else
			bisect_error(err, "%s", saved);
	}
	lsb_cleanup_done(handle);
	free(x);
	subset_release(&s);
	return err;
}

int bisect_export_tree(bisect_repo *r, const char *rev, const char *dir,
		       char tree_hex[41])
{
	git_commit *c = NULL;
	struct export *x = NULL;
	int err;

	if (!r || !rev || !dir || !*dir)
		return bisect_error(BISECT_EINVAL,
				    "no repository, revision or directory");
	if (strlen(dir) + 2 >= sizeof(x->path))
		return bisect_error(BISECT_EINVAL, "path '%s' too long", dir);
	if (access(dir, F_OK) == 0 || errno != ENOENT)
		return bisect_error(BISECT_EEXIST, "'%s' exists", dir);
	err = bisect_lookup_commit(r, rev, &c);
	if (err)
		return err;
	x = calloc(1, sizeof(*x));
	if (!x) {
		err = bisect_error(BISECT_ENOMEM, "out of memory");
		goto cleanup;
	}
	x->r = r;
	snprintf(x->path, sizeof(x->path), "%s", dir);
	git_oid_tostr(tree_hex, 41, git_commit_tree_id(c));
	err = export_tree(x, git_commit_tree_id(c));
	if (err)
		rm_rf(dir);
cleanup:
	free(x);
	git_commit_free(c);
	return err;
}
