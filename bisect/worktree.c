// SPDX-License-Identifier: GPL-2.0-only
/*
 * worktree.c - a user's uncommitted changes and patches as commits of our
 * own object store, for `linsched check`. The store is a bare repository
 * under the cache whose alternates name the user's objects, so it reads
 * every commit of theirs and writes only into itself: the user's index,
 * refs, objects and work tree are read, never written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>

#include "bisect/bisect_internal.h"
#include "common/common.h"

/*
 * The user's objects, read-only: a backend without write and without
 * freshen. libgit2 "freshens" an object it is asked to write and finds
 * (it touches the loose file or the pack), in every backend that can, so
 * a store reading the user's objects through a plain alternate would
 * change the times of their objects whenever a change holds a blob or
 * tree they have. Found here, an object is only found: nothing is written.
 */
struct ro_backend {
	git_odb_backend parent;
	git_odb *odb;
};

static int ro_read(void **buf, size_t *len, git_object_t *type,
		   git_odb_backend *b, const git_oid *id)
{
	struct ro_backend *ro = (struct ro_backend *)b;
	git_odb_object *o;
	int err = git_odb_read(&o, ro->odb, id);

	if (err)
		return err;
	*len = git_odb_object_size(o);
	*type = git_odb_object_type(o);
	*buf = git_odb_backend_data_alloc(b, *len);
	if (!*buf) {
		git_odb_object_free(o);
		return -1;
	}
	memcpy(*buf, git_odb_object_data(o), *len);
	git_odb_object_free(o);
	return 0;
}

static int ro_read_prefix(git_oid *out, void **buf, size_t *len,
			  git_object_t *type, git_odb_backend *b,
			  const git_oid *short_id, size_t n)
{
	struct ro_backend *ro = (struct ro_backend *)b;
	git_odb_object *o;
	int err = git_odb_read_prefix(&o, ro->odb, short_id, n);

	if (err)
		return err;
	git_oid_cpy(out, git_odb_object_id(o));
	git_odb_object_free(o);
	return ro_read(buf, len, type, b, out);
}

static int ro_read_header(size_t *len, git_object_t *type,
			  git_odb_backend *b, const git_oid *id)
{
	return git_odb_read_header(len, type, ((struct ro_backend *)b)->odb,
				   id);
}

static int ro_exists(git_odb_backend *b, const git_oid *id)
{
	return git_odb_exists(((struct ro_backend *)b)->odb, id);
}

static int ro_exists_prefix(git_oid *out, git_odb_backend *b,
			    const git_oid *short_id, size_t n)
{
	return git_odb_exists_prefix(out, ((struct ro_backend *)b)->odb,
				     short_id, n);
}

static void ro_free(git_odb_backend *b)
{
	git_odb_free(((struct ro_backend *)b)->odb);
	free(b);
}

/*
 * @store's object database: its own loose objects, where everything new
 * is written, then the user's objects at @user_objects, read-only.
 */
static int store_odb(git_repository *store, const char *store_objects,
		     const char *user_objects)
{
	git_odb_backend *loose = NULL;
	struct ro_backend *ro = NULL;
	git_odb *odb = NULL;
	int err;

	err = git_odb_new(&odb);
	if (!err)
		err = git_odb_backend_loose(&loose, store_objects, -1, 0, 0, 0);
	if (!err) {
		err = git_odb_add_backend(odb, loose, 2);
		if (err)
			loose->free(loose);
	}
	if (!err) {
		ro = calloc(1, sizeof(*ro));
		err = ro ? git_odb_init_backend(&ro->parent,
						GIT_ODB_BACKEND_VERSION) : -1;
	}
	if (!err)
		err = git_odb_open(&ro->odb, user_objects);
	if (!err) {
		ro->parent.read = ro_read;
		ro->parent.read_prefix = ro_read_prefix;
		ro->parent.read_header = ro_read_header;
		ro->parent.exists = ro_exists;
		ro->parent.exists_prefix = ro_exists_prefix;
		ro->parent.free = ro_free;
		err = git_odb_add_backend(odb, &ro->parent, 1);
	}
	if (err) {
		if (ro && !ro->parent.free) {
			git_odb_free(ro->odb);
			free(ro);
		}
		git_odb_free(odb);
		return bisect_git_error(err, "cannot read the objects of '%s'",
					user_objects);
	}
	git_repository_set_odb(store, odb);
	git_odb_free(odb);
	return 0;
}

/* The user's objects directory, absolute: the store's alternate. */
static int objects_dir(git_repository *user, char *out, size_t len)
{
	const char *common = git_repository_commondir(user);
	char *real;

	if (!common)
		return bisect_error(BISECT_EGIT, "repository has no git directory");
	real = realpath(common, NULL);
	if (!real)
		return bisect_error(BISECT_EIO, "'%s': %s", common,
				    strerror(errno));
	if (lsb_pathf(out, len, "%s%sobjects", real,
		      real[strlen(real) - 1] == '/' ? "" : "/") < 0) {
		free(real);
		return bisect_error(BISECT_EINVAL, "path too long");
	}
	free(real);
	return 0;
}

/* The store's temporary @tmp made: a bare repository, its alternate @alt. */
static int store_fill(const char *tmp, const char *dir, const char *alt)
{
	git_repository *git = NULL;
	char file[4300], line[4200];
	int err;

	err = git_repository_init(&git, tmp, 1);
	git_repository_free(git);
	if (err)
		return bisect_git_error(err, "cannot make the object store '%s'",
					dir);
	lsb_pathf(file, sizeof(file), "%s/objects/info/alternates", tmp);
	lsb_pathf(line, sizeof(line), "%s\n", alt);
	if (lsb_write_atomic(file, line, strlen(line)))
		return bisect_error(BISECT_EIO, "'%s': %s", file,
				    strerror(errno));
	return 0;
}

/*
 * A bare repository at @dir whose alternate is @alt, made whole by
 * rename(2); what a killed maker left is removed first, or by a signal.
 */
static int store_make(const char *dir, const char *alt)
{
	char tmp[4200];
	int err, e, h;

	lsb_remove_stale_tmp(dir);
	lsb_pathf(tmp, sizeof(tmp), "%s.tmp.%ld", dir, (long)getpid());
	h = lsb_cleanup_add(tmp);
	err = store_fill(tmp, dir, alt);
	e = err ? 0 : rename(tmp, dir) ? errno : 0;
	if (err || e)
		lsb_rm_rf_safe(tmp);
	lsb_cleanup_done(h);
	/* another check of the same repository made it first: that one */
	if (!err && e && e != EEXIST && e != ENOTEMPTY)
		err = bisect_error(BISECT_EIO, "'%s': %s", dir, strerror(e));
	return err;
}

/* @rev of @user as 40 hex digits. */
static int resolve_in(git_repository *user, const char *user_repo,
		      const char *rev, char hex[41])
{
	git_object *obj = NULL, *peeled = NULL;
	int err;

	err = git_revparse_single(&obj, user, rev);
	if (!err)
		err = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err)
		return bisect_git_error(err, "revision '%s' not found in repository '%s'",
					rev, user_repo);
	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, git_object_id(peeled));
	git_object_free(peeled);
	return 0;
}

int bisect_store_open(bisect_repo **out, const char *parent,
		      const char *user_repo, const char *base,
		      char base_hex[41], char *path, size_t len)
{
	git_repository *user = NULL;
	char alt[4096], id[41], dir[4200], objects[4300];
	struct stat st;
	int err;

	if (!out || !parent || !user_repo || !base || !base_hex)
		return bisect_error(BISECT_EINVAL, "no store or repository");
	*out = NULL;
	err = git_libgit2_init();
	if (err < 0)
		return bisect_git_error(err, "cannot initialise libgit2");
	err = git_repository_open_ext(&user, user_repo, 0, NULL);
	if (err) {
		err = bisect_git_error(err, "cannot open repository '%s'",
				       user_repo);
		goto out;
	}
	err = resolve_in(user, user_repo, base, base_hex);
	if (err)
		goto out;
	err = objects_dir(user, alt, sizeof(alt));
	if (err)
		goto out;
	/* one store per repository: named after its objects' path */
	lsb_blob_id(alt, strlen(alt), id);
	if (lsb_mkdir_p(parent)) {
		err = bisect_error(BISECT_EIO, "'%s': %s", parent,
				   strerror(errno));
		goto out;
	}
	lsb_pathf(dir, sizeof(dir), "%s/%.16s.git", parent, id);
	if (stat(dir, &st)) {
		err = store_make(dir, alt);
		if (err)
			goto out;
	}
	if (path && lsb_pathf(path, len, "%s", dir) < 0) {
		err = bisect_error(BISECT_EINVAL, "path too long");
		goto out;
	}
	err = bisect_repo_open(out, dir);
	if (err)
		goto out;
	/* the alternates file is for readers (the driver); we write */
	lsb_pathf(objects, sizeof(objects), "%s/objects", dir);
	err = store_odb((*out)->git, objects, alt);
	if (err) {
		bisect_repo_free(*out);
		*out = NULL;
	}
out:
	git_repository_free(user);
	git_libgit2_shutdown();
	return err;
}

/* The bytes of a work-tree file as git would store them (no filters). */
static int workdir_blob(git_repository *store, const char *workdir,
			const char *rel, git_oid *id)
{
	char path[4200], *buf;
	struct stat st;
	size_t len;
	int err;

	lsb_pathf(path, sizeof(path), "%s%s", workdir, rel);
	if (lstat(path, &st))
		return bisect_error(BISECT_EIO, "'%s': %s", path,
				    strerror(errno));
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target));

		if (n < 0)
			return bisect_error(BISECT_EIO, "'%s': %s", path,
					    strerror(errno));
		err = git_blob_create_from_buffer(id, store, target, (size_t)n);
	} else {
		buf = lsb_read_file(path, &len);
		if (!buf)
			return bisect_error(BISECT_EIO, "'%s': %s", path,
					    strerror(errno));
		err = git_blob_create_from_buffer(id, store, buf, len);
		free(buf);
	}
	if (err)
		return bisect_git_error(err, "cannot store '%s'", path);
	return 0;
}

int bisect_commit_tree(bisect_repo *store, git_commit *parent,
		       const git_oid *tree_id, const char *message,
		       char out_hex[41])
{
	const git_commit *parents[1] = { parent };
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid id;
	int err;

	err = git_tree_lookup(&tree, store->git, tree_id);
	/* the same change gives the same commit, so its builds are kept */
	if (!err)
		err = git_signature_new(&sig, "lsbisect", "lsbisect@localhost",
					1700000000, 0);
	if (!err)
		err = git_commit_create(&id, store->git, NULL, sig, sig, NULL,
					message, tree, 1, parents);
	git_signature_free(sig);
	git_tree_free(tree);
	if (err)
		return bisect_git_error(err, "cannot write a commit in '%s'",
					store->path);
	git_oid_tostr(out_hex, GIT_OID_HEXSZ + 1, &id);
	return 0;
}

/* The work tree's changes from @base_tree (of the build subset) as updates. */
static int worktree_updates(git_repository *user, bisect_repo *store,
			    git_tree *base_tree, git_diff **diffp,
			    git_tree_update **out, size_t *n, size_t *outside)
{
	git_diff_options opts;
	const char *workdir = git_repository_workdir(user);
	git_tree_update *upd = NULL;
	git_diff *diff = NULL;
	size_t i, nd, cap = 0;
	int err;

	*out = NULL;
	*n = *outside = 0;
	if (!workdir)
		return bisect_error(BISECT_EINVAL, "repository '%s' has no work tree",
				    git_repository_path(user));
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	/* read-only: no GIT_DIFF_UPDATE_INDEX, untracked files left out */
	opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
	err = git_diff_tree_to_workdir_with_index(&diff, user, base_tree,
						  &opts);
	if (err)
		return bisect_git_error(err, "cannot compare the work tree of '%s'",
					workdir);
	nd = git_diff_num_deltas(diff);
	for (i = 0; i < nd; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		int gone = d->status == GIT_DELTA_DELETED;
		const char *p = gone ? d->old_file.path : d->new_file.path;

		if (!subset_contains(p)) {
			(*outside)++;
			continue;
		}
		if (LSB_GROW(upd, *n + 1, cap)) {
			err = bisect_error(BISECT_ENOMEM, "out of memory");
			goto fail;
		}
		memset(&upd[*n], 0, sizeof(*upd));
		upd[*n].path = p;
		if (gone) {
			upd[*n].action = GIT_TREE_UPDATE_REMOVE;
		} else {
			upd[*n].action = GIT_TREE_UPDATE_UPSERT;
			upd[*n].filemode = d->new_file.mode;
			err = workdir_blob(store->git, workdir, p, &upd[*n].id);
			if (err)
				goto fail;
		}
		(*n)++;
	}
	/* the paths point into the diff: the caller keeps it with them */
	*out = upd;
	*diffp = diff;
	return 0;
fail:
	free(upd);
	git_diff_free(diff);
	return err;
}

int bisect_commit_worktree(bisect_repo *store, const char *user_repo,
			   const char *base_hex, char out_hex[41],
			   size_t *nr_files, size_t *nr_outside)
{
	git_repository *user = NULL;
	git_commit *ucommit = NULL, *parent = NULL;
	git_tree *utree = NULL, *tree = NULL;
	git_tree_update *upd = NULL;
	git_diff *diff = NULL;
	size_t n = 0, outside = 0;
	git_oid tree_id;
	char msg[4300];
	int err;

	git_oid oid;

	if (!store || !user_repo || !base_hex)
		return bisect_error(BISECT_EINVAL, "no store, repository or base");
	err = git_repository_open_ext(&user, user_repo, 0, NULL);
	if (err)
		return bisect_git_error(err, "cannot open repository '%s'",
					user_repo);
	err = git_oid_fromstr(&oid, base_hex);
	if (!err)
		err = git_commit_lookup(&ucommit, user, &oid);
	if (!err)
		err = git_commit_tree(&utree, ucommit);
	if (err) {
		err = bisect_git_error(err, "'%s': cannot read commit '%s'",
				       user_repo, base_hex);
		goto out;
	}
	err = worktree_updates(user, store, utree, &diff, &upd, &n, &outside);
	if (err)
		goto out;
	/* the base through the store's alternate: the tree is written there */
	err = bisect_lookup_commit(store, base_hex, &parent);
	if (err)
		goto out;
	err = git_commit_tree(&tree, parent);
	if (!err && n)
		err = git_tree_create_updated(&tree_id, store->git, tree, n, upd);
	if (err) {
		err = bisect_git_error(err, "cannot write the work tree's tree in '%s'",
				       store->path);
		goto out;
	}
	if (nr_files)
		*nr_files = n;
	if (nr_outside)
		*nr_outside = outside;
	if (!n) {
		/* nothing changed in the build subset: the base itself */
		strcpy(out_hex, base_hex);
		goto out;
	}
	/* no path in it: the same changes give one commit in any clone */
	lsb_pathf(msg, sizeof(msg), "the work tree's changes on %.12s\n",
		  base_hex);
	err = bisect_commit_tree(store, parent, &tree_id, msg, out_hex);
out:
	free(upd);
	git_diff_free(diff);
	git_tree_free(tree);
	git_commit_free(parent);
	git_tree_free(utree);
	git_commit_free(ucommit);
	git_repository_free(user);
	return err;
}
