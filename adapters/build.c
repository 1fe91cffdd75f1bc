// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building a tree: a hard-linked copy of the exported tree with the arch
 * overlaid, the tree's own kbuild for kernel/sched and a few lib/ objects,
 * and a plain link with the simulator runtime.
 *
 * cache/builds/KEY/        a finished build: o/ (kbuild output),
 *                          linsched-sim, build.log, runtime (stamp)
 * cache/builds/KEY.failed/ a build that failed: build.log
 * Both appear by rename(2) only, so concurrent runs never see half a build.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "adapters/adapters_internal.h"
#include "common/common.h"

LSB_DEFINE_LAST_ERROR(adapter)

/* lib/ objects that compile unmodified and carry part of the link. */
static const char *const lib_objects[] = {
	"lib/bitmap.o", "lib/cpumask.o", "lib/find_bit.o", "lib/rbtree.o",
	"lib/plist.o", "lib/kstrtox.o", "lib/math/div64.o", "lib/refcount.o",
	"lib/random32.o", "lib/ctype.o", "lib/hweight.o", "lib/ratelimit.o",
	"lib/llist.o", "lib/sort.o", "lib/once.o", "lib/math/int_pow.o",
	"kernel/locking/spinlock.o", "kernel/time/time.o", "init/init_task.o",
	"kernel/power/energy_model.o", "lib/bitmap-str.o",
	/* the cpuidle core and governors; sysfs.c is the arch's stubs */
	"drivers/cpuidle/cpuidle.o", "drivers/cpuidle/driver.o",
	"drivers/cpuidle/governor.o", "drivers/cpuidle/governors/menu.o",
	"drivers/cpuidle/governors/teo.o", "drivers/cpuidle/governors/ladder.o",
};

#define NR_LIB_OBJECTS (sizeof(lib_objects) / sizeof(lib_objects[0]))

/* Whether kbuild's target @target (relative to o/) goes into the link. */
int adapter_is_linked(const char *target)
{
	size_t i, len = strlen(target);

	if (len < 3 || strcmp(target + len - 2, ".o"))
		return 0;
	if (!strncmp(target, "kernel/sched/", 13) ||
	    !strncmp(target, "arch/linsched/kernel/", 21))
		return 1;
	for (i = 0; i < NR_LIB_OBJECTS; i++)
		if (!strcmp(target, lib_objects[i]))
			return 1;
	return 0;
}

/* Each variant's name, compiler flags for the kernel objects and link. */
static const struct {
	const char *name, *kcflags, *ldflag;
} variants[] = {
	[ADAPTER_PLAIN] = { "plain", NULL, NULL },
	[ADAPTER_WORK] = { "work",
		"KCFLAGS=-finstrument-functions -finstrument-functions-exclude-file-list=arch/linsched/",
		NULL },
	[ADAPTER_COVERAGE] = { "coverage",
		"KCFLAGS=-fprofile-arcs -ftest-coverage", "--coverage" },
};

#define NR_VARIANTS (int)(sizeof(variants) / sizeof(variants[0]))

int adapter_variant_parse(const char *name)
{
	int i;

	if (!name || !*name)
		return ADAPTER_PLAIN;
	for (i = 0; i < NR_VARIANTS; i++)
		if (!strcmp(name, variants[i].name))
			return i;
	return -1;
}

const char *adapter_variant_name(int variant)
{
	return variant > 0 && variant < NR_VARIANTS ? variants[variant].name :
						      "plain";
}

/* The key text's line for a variant: none for a plain build. */
static void variant_key(FILE *f, int variant)
{
	if (variant > 0 && variant < NR_VARIANTS)
		fprintf(f, "variant %s\n", variants[variant].name);
}

/* ---- hashing: SHA-1 of a growing text, through libgit2 ---- */

struct hashbuf {
	char *buf;
	size_t len;
	FILE *f;
};

static int hash_open(struct hashbuf *h)
{
	h->buf = NULL;
	h->len = 0;
	h->f = open_memstream(&h->buf, &h->len);
	return h->f ? 0 : -1;
}

static int hash_close(struct hashbuf *h, char out[41])
{
	int ret;

	if (fclose(h->f)) {
		free(h->buf);
		return -1;
	}
	ret = lsb_blob_id(h->buf, h->len, out);
	free(h->buf);
	return ret;
}

static int hash_file_into(struct hashbuf *h, const char *path,
			  const char *name)
{
	size_t len;
	char *text = lsb_read_file(path, &len);

	if (!text)
		return -1;
	fprintf(h->f, "%s %zu\n", name, len);
	fwrite(text, 1, len, h->f);
	free(text);
	return 0;
}

/* nftw visits in directory order: collect, sort, then hash. */
struct pathlist {
	char **v;
	size_t n, cap;
};

static struct pathlist *walk_list;

static int collect_one(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	if (LSB_GROW(walk_list->v, walk_list->n + 1, walk_list->cap))
		return -1;
	walk_list->v[walk_list->n++] = strdup(path);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The adapter's version: its data files and its logic version. */
static int adapter_version(const struct adapter_env *env, char out[41])
{
	struct pathlist list = { 0 };
	struct hashbuf h;
	char path[4096];
	size_t i, root_len;
	int ret = 0;

	if (hash_open(&h))
		return -1;
	fprintf(h.f, "adapter logic %d\n", ADAPTER_LOGIC_VERSION);
	lsb_pathf(path, sizeof(path), "%s/arch/linsched", env->share_dir);
	walk_list = &list;
	if (nftw(path, collect_one, 16, FTW_PHYS))
		ret = -1;
	qsort(list.v, list.n, sizeof(char *), cmp_str);
	root_len = strlen(env->share_dir);
	for (i = 0; i < list.n; i++) {
		if (!ret && hash_file_into(&h, list.v[i], list.v[i] + root_len))
			ret = -1;
		free(list.v[i]);
	}
	free(list.v);
	lsb_pathf(path, sizeof(path), "%s/linsched.config", env->share_dir);
	if (!ret && hash_file_into(&h, path, "linsched.config"))
		ret = -1;
	lsb_pathf(path, sizeof(path), "%s/linsched.lds", env->share_dir);
	if (!ret && hash_file_into(&h, path, "linsched.lds"))
		ret = -1;
	if (hash_close(&h, out) || ret) {
		adapter_set_error("cannot read the adapter's files in '%s'",
				  env->share_dir);
		return -1;
	}
	return 0;
}

static int compiler_id(char *out, size_t len)
{
	FILE *p = popen("cc --version 2>/dev/null", "r");

	if (!p || !fgets(out, (int)len, p)) {
		if (p)
			pclose(p);
		adapter_set_error("cannot run the C compiler 'cc --version'");
		return -1;
	}
	pclose(p);
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/* ---- processes ---- */

/*
 * The first child of the build under way that could not be run or was
 * killed by a signal: whatever it was, not the tree's doing. Read and
 * cleared when the build ends.
 */
static char run_fault[512];

static void note_fault(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void note_fault(const char *fmt, ...)
{
	va_list ap;

	if (*run_fault)
		return;
	va_start(ap, fmt);
	vsnprintf(run_fault, sizeof(run_fault), fmt, ap);
	va_end(ap);
}

/* Run argv in dir with output appended to log (or inherited). */
int adapter_run(const char *dir, const char *log, int verbose,
		char *const argv[])
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		note_fault("cannot fork '%s': %s", argv[0], strerror(errno));
		return -1;
	}
	if (!pid) {
		if (dir && chdir(dir))
			_exit(127);
		if (!verbose) {
			int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

			if (fd < 0)
				_exit(127);
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	/* a signal that stops this process stops the child first */
	lsb_cleanup_child(pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			lsb_cleanup_child(0);
			note_fault("cannot wait for '%s': %s", argv[0],
				   strerror(errno));
			return -1;
		}
	lsb_cleanup_child(0);
	if (WIFSIGNALED(status))
		note_fault("'%s' was killed by signal %d (%s)", argv[0],
			   WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) == 127)
		note_fault("'%s' could not be run (status 127: a program not found?)",
			   argv[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * What a tool says when the system failed it, not the code it was given:
 * errno's words of the failures no source file causes, and the compiler
 * driver's words for a compiler that was killed (the OOM killer).
 */
static const char *const outside_words[] = {
	"No space left on device", "Disk quota exceeded",
	"Input/output error", "Read-only file system",
	"Cannot allocate memory", "virtual memory exhausted",
	"out of memory allocating", "Too many open files",
	"Resource temporarily unavailable", "Killed signal terminated program",
	"Stale file handle", "Transport endpoint is not connected",
};

int adapter_outside_cause(const char *text, char *why, size_t len)
{
	const char *hit = NULL, *start, *end;
	size_t i;

	for (i = 0; i < sizeof(outside_words) / sizeof(outside_words[0]); i++) {
		const char *p = strstr(text, outside_words[i]);

		if (p && (!hit || p < hit))
			hit = p;
	}
	if (!hit)
		return 0;
	for (start = hit; start > text && start[-1] != '\n'; start--)
		;
	end = strchr(hit, '\n');
	if (!end)
		end = hit + strlen(hit);
	while (start < end && *start == ' ')
		start++;
	lsb_pathf(why, len, "%.*s", (int)(end - start), start);
	return 1;
}

/* Less free space than this after a failed build: the disk is full. */
#define FULL_BYTES (16ULL << 20)

/* Whether the file system of @path has (nearly) no room left; in @why. */
static int fs_full(const char *path, char *why, size_t len)
{
	char dir[4096], *slash;
	struct statvfs sv;
	unsigned long long kib;

	if (statvfs(path, &sv))
		return 0;
	kib = (unsigned long long)sv.f_bavail * sv.f_frsize / 1024;
	/* named by the directory that stays: builds/, not the temporary */
	lsb_pathf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	if (kib * 1024 < FULL_BYTES)
		lsb_pathf(why, len, "the file system of '%s' is full (%llu KiB free)",
			  dir, kib);
	else if (sv.f_files && sv.f_favail < 64)
		lsb_pathf(why, len, "the file system of '%s' is full (%llu inodes free)",
			  dir, (unsigned long long)sv.f_favail);
	else
		return 0;
	return 1;
}

/*
 * Whether the build that failed in @dir (log @log) failed for a cause
 * outside the tree: a child that could not run or was killed, a system
 * error in the log, or a file system left (nearly) full. @why receives
 * what says so.
 */
static int outside_cause(const char *dir, const char *log, char *why,
			 size_t len)
{
	char line[1024] = "", full[4400] = "", *text;
	const char *src;
	size_t used = 0;

	*why = '\0';
	if (*run_fault)
		used = (size_t)snprintf(why, len, "%s", run_fault);
	text = log ? lsb_read_file(log, NULL) : NULL;
	if (text && adapter_outside_cause(text, line, sizeof(line)) &&
	    used < len) {
		/* the file's path in the tree, not in the temporary */
		src = strstr(line, "/src/");
		src = src && strstr(line, ".tmp.") ? src + 5 : line;
		used += (size_t)snprintf(why + used, len - used, "%s%s",
					 used ? "; " : "", src);
	}
	free(text);
	if (fs_full(dir, full, sizeof(full)) && used < len)
		used += (size_t)snprintf(why + used, len - used, "%s%s",
					 used ? "; " : "", full);
	return used > 0;
}

int adapter_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The first compiler or linker errors of a log, for the message. */
void adapter_log_errors(const char *log, char *out, size_t len)
{
	char line[1024];
	size_t used = 0;
	int lines = 0;
	FILE *f = fopen(log, "r");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && lines < 12) {
		if (!strstr(line, "error") && !strstr(line, "undefined reference"))
			continue;
		if (strstr(line, "[") && strstr(line, "Error "))
			continue;	/* make's own "*** [...] Error 1" */
		used += snprintf(out + used, len - used, "  %s", line);
		if (used >= len)
			break;
		lines++;
	}
	fclose(f);
}

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* ---- the build ---- */

/* "make ARCH=linsched" in @tmp's src/ and o/, with @tail's words after it. */
static int make_in(const struct adapter_env *env, const char *tmp,
		   const char *log, char *const *tail)
{
	char o[4096], odir[4200], srcdir[4200], jobs[16];
	char *argv[64];
	int n = 0;

	lsb_pathf(srcdir, sizeof(srcdir), "%s/src", tmp);
	lsb_pathf(o, sizeof(o), "%s/o", tmp);
	lsb_pathf(odir, sizeof(odir), "O=%s", o);
	lsb_pathf(jobs, sizeof(jobs), "-j%d", env->jobs > 0 ? env->jobs : 2);
	argv[n++] = "make";
	argv[n++] = "-s";
	argv[n++] = "-C";
	argv[n++] = srcdir;
	argv[n++] = odir;
	argv[n++] = "ARCH=linsched";
	argv[n++] = jobs;
	while (*tail && n < 63)
		argv[n++] = *tail++;
	argv[n] = NULL;
	return adapter_run(NULL, log, env->verbose, argv);
}

/*
 * A tree without drivers/cpuidle/'s code (a history made from an older
 * subset.list: its Kconfig files are there, its C files not) is built
 * without CPU_IDLE: the fragment with "CONFIG_CPU_IDLE=n" appended, in
 * @tmp. Its idle loop then takes the no-driver branch, as before.
 */
static int config_fragment(const struct adapter_env *env, const char *tmp,
			   char *out, size_t len)
{
	char path[4200], *text;
	int ret;

	lsb_pathf(out, len, "%s/linsched.config", env->share_dir);
	lsb_pathf(path, sizeof(path), "%s/src/drivers/cpuidle/cpuidle.c", tmp);
	if (exists(path))
		return 0;
	text = lsb_read_file(out, NULL);
	if (!text)
		return -1;
	lsb_pathf(out, len, "%s/linsched.config", tmp);
	{
		FILE *f = fopen(out, "w");

		if (!f) {
			free(text);
			return -1;
		}
		fputs(text, f);
		fputs("# no drivers/cpuidle/ in this tree\nCONFIG_CPU_IDLE=n\n", f);
		ret = fclose(f);
	}
	free(text);
	return ret;
}

int adapter_kbuild_config(const struct adapter_env *env, const char *tmp,
			  const char *log)
{
	char allconfig[4300], fragment[4200];
	char *tail[] = { allconfig, "allnoconfig", NULL };

	if (config_fragment(env, tmp, fragment, sizeof(fragment))) {
		adapter_set_error("cannot write '%s'", fragment);
		return ADAPTER_EIO;
	}
	/* -j: kconfig's conf is a dozen host objects, built before it runs */
	lsb_pathf(allconfig, sizeof(allconfig), "KCONFIG_ALLCONFIG=%s",
		  fragment);
	return make_in(env, tmp, log, tail) ? ADAPTER_EBUILD : 0;
}

int adapter_kbuild_make(const struct adapter_env *env, const char *tmp,
			const char *log)
{
	char *tail[8 + NR_LIB_OBJECTS];
	char c[4096];
	size_t i;
	int n = 0;

	if (variants[env->variant].kcflags)
		tail[n++] = (char *)variants[env->variant].kcflags;
	tail[n++] = "kernel/sched/";
	tail[n++] = "arch/linsched/kernel/";
	for (i = 0; i < NR_LIB_OBJECTS; i++) {
		lsb_pathf(c, sizeof(c), "%s/src/%s", tmp, lib_objects[i]);
		c[strlen(c) - 1] = 'c';
		if (exists(c))
			tail[n++] = (char *)lib_objects[i];
	}
	tail[n] = NULL;
	return make_in(env, tmp, log, tail) ? ADAPTER_EBUILD : 0;
}

static int kbuild(const struct adapter_env *env, const char *tmp,
		  const struct adapter_probe *probe, const char *log)
{
	char src[4096], path[4096];
	char *header;
	int ret;

	lsb_pathf(src, sizeof(src), "%s/src", tmp);

	/* the overlay: the arch and the header the probes chose */
	lsb_pathf(path, sizeof(path), "%s/arch/linsched", env->share_dir);
	{
		char *cp[] = { "cp", "-R", path, src, NULL };
		char dst[4200];

		lsb_pathf(dst, sizeof(dst), "%s/arch/", src);
		cp[3] = dst;
		if (lsb_mkdir_p(dst) || adapter_run(NULL, log, 0, cp)) {
			adapter_set_error("cannot overlay arch/linsched into '%s'",
					  src);
			return ADAPTER_EIO;
		}
	}
	header = adapter_header(probe);
	lsb_pathf(path, sizeof(path),
		 "%s/arch/linsched/include/asm/linsched_adapter.h", src);
	if (!header || adapter_write_text(path, header)) {
		free(header);
		adapter_set_error("cannot write '%s'", path);
		return ADAPTER_EIO;
	}
	free(header);
	ret = adapter_kbuild_config(env, tmp, log);
	return ret ? ret : adapter_kbuild_make(env, tmp, log);
}

/*
 * drivers/cpuidle/'s objects belong to a build configured with CPU_IDLE
 * only: a build reused from a donor that had them (adapters/reuse.c) may
 * still hold its stale ones after its configuration turned CPU_IDLE off.
 */
static int object_configured(const char *o, const char *obj)
{
	static const char want[] = "\nCONFIG_CPU_IDLE=y\n";
	char path[4200], *text;
	int ret;

	if (strncmp(obj, "drivers/cpuidle/", 16))
		return 1;
	lsb_pathf(path, sizeof(path), "%s/include/config/auto.conf", o);
	text = lsb_read_file(path, NULL);
	ret = text && (strstr(text, want) ||
		       !strncmp(text, want + 1, sizeof(want) - 2));
	free(text);
	return ret;
}

int adapter_link(const struct adapter_env *env, const char *dir,
		 const char *log)
{
	char o[4096], exe[4096], tmp_exe[4200], lds[4096], libsim[4096];
	char sched[4200], arch[4200];
	char *argv[64];
	size_t i;
	int n = 0, handle, ret;
	char objs[NR_LIB_OBJECTS][4200];

	lsb_pathf(o, sizeof(o), "%s/o", dir);
	lsb_pathf(exe, sizeof(exe), "%s/linsched-sim", dir);
	lsb_pathf(tmp_exe, sizeof(tmp_exe), "%s.tmp.%d", exe, (int)getpid());
	lsb_pathf(lds, sizeof(lds), "-Wl,-T,%s/linsched.lds", env->share_dir);
	lsb_pathf(libsim, sizeof(libsim), "%s/libsim.a", env->share_dir);
	lsb_pathf(sched, sizeof(sched), "%s/kernel/sched/built-in.a", o);
	lsb_pathf(arch, sizeof(arch), "%s/arch/linsched/kernel/built-in.a", o);

	argv[n++] = "cc";
	argv[n++] = "-no-pie";
	argv[n++] = "-o";
	argv[n++] = tmp_exe;
	argv[n++] = "-Wl,--whole-archive";
	argv[n++] = sched;
	argv[n++] = arch;
	argv[n++] = "-Wl,--no-whole-archive";
	for (i = 0; i < NR_LIB_OBJECTS; i++) {
		lsb_pathf(objs[i], sizeof(objs[i]), "%s/%s", o, lib_objects[i]);
		if (exists(objs[i]) && object_configured(o, lib_objects[i]))
			argv[n++] = objs[i];
	}
	argv[n++] = libsim;
	argv[n++] = lds;
	/* fair.c's bandwidth walks, seen by arch/linsched's cgroup.c */
	argv[n++] = "-Wl,--wrap=walk_tg_tree_from";
	if (variants[env->variant].ldflag)
		argv[n++] = (char *)variants[env->variant].ldflag;
	argv[n++] = "-lcjson";
	argv[n++] = "-lm";
	argv[n] = NULL;
	lsb_remove_stale_tmp(exe);
	handle = lsb_cleanup_add(tmp_exe);
	if (adapter_run(NULL, log, env->verbose, argv)) {
		unlink(tmp_exe);
		lsb_cleanup_done(handle);
		return ADAPTER_EBUILD;
	}
	ret = rename(tmp_exe, exe);
	if (ret) {
		adapter_set_error("cannot rename '%s': %s", tmp_exe,
				  strerror(errno));
		unlink(tmp_exe);
	}
	lsb_cleanup_done(handle);
	return ret ? ADAPTER_EIO : 0;
}

static int runtime_id(const struct adapter_env *env, char out[41])
{
	struct hashbuf h;
	char path[4096];

	lsb_pathf(path, sizeof(path), "%s/libsim.a", env->share_dir);
	if (hash_open(&h))
		return -1;
	if (hash_file_into(&h, path, "libsim.a")) {
		hash_close(&h, out);
		adapter_set_error("cannot read the simulator runtime '%s'", path);
		return -1;
	}
	return hash_close(&h, out);
}

static int stamp_matches(const char *path, const char *id)
{
	char *text = lsb_read_file(path, NULL);
	int same = text && !strcmp(text, id);

	free(text);
	return same;
}

/*
 * The adapter's version and the compiler's first line, read once per
 * process and share directory: every build key and the toolchain hash
 * start from them, and a revision asks for several keys.
 */
static int tool_parts(const struct adapter_env *env, char version[41],
		      char cc[256])
{
	static char memo_version[41], memo_cc[256], memo_share[4096];

	if (!*memo_version || strcmp(memo_share, env->share_dir)) {
		if (adapter_version(env, memo_version) ||
		    compiler_id(memo_cc, sizeof(memo_cc))) {
			*memo_version = '\0';
			return ADAPTER_EIO;
		}
		lsb_pathf(memo_share, sizeof(memo_share), "%s", env->share_dir);
	}
	memcpy(version, memo_version, sizeof(memo_version));
	memcpy(cc, memo_cc, sizeof(memo_cc));
	return 0;
}

int adapter_toolchain(const struct adapter_env *env, char out[41])
{
	char version[41], cc[256];
	struct hashbuf h;

	if (tool_parts(env, version, cc) || hash_open(&h))
		return ADAPTER_EIO;
	fprintf(h.f, "adapter %s\ncompiler %s\n", version, cc);
	variant_key(h.f, env->variant);
	return hash_close(&h, out) ? ADAPTER_EIO : 0;
}

/* The build key of a subset, and the runtime stamp a build must carry. */
static int build_key(const struct adapter_env *env, const char *subset_hash,
		     char key[41], char runtime[41])
{
	char version[41], cc[256];
	struct hashbuf h;

	if (tool_parts(env, version, cc) || runtime_id(env, runtime) ||
	    hash_open(&h))
		return ADAPTER_EIO;
	fprintf(h.f, "subset %s\nadapter %s\ncompiler %s\n", subset_hash,
		version, cc);
	variant_key(h.f, env->variant);
	if (hash_close(&h, key))
		return ADAPTER_EIO;
	return 0;
}

int adapter_build_paths(const struct adapter_env *env, const char *subset_hash,
			char *dir, size_t len, char runtime[41])
{
	char builds[4096], key[41], rt[41];
	int ret = build_key(env, subset_hash, key, runtime ? runtime : rt);

	if (ret)
		return ret;
	lsb_pathf(builds, sizeof(builds), "%s/builds", env->cache_dir);
	if (lsb_mkdir_p(builds)) {
		adapter_set_error("cannot create '%s': %s", builds,
				  strerror(errno));
		return ADAPTER_EIO;
	}
	lsb_pathf(dir, len, "%s/%s", builds, key);
	return 0;
}

int adapter_build_cached(const struct adapter_env *env, const char *subset_hash)
{
	char dir[4200], failed[4300];

	if (adapter_build_paths(env, subset_hash, dir, sizeof(dir), NULL))
		return 0;
	lsb_pathf(failed, sizeof(failed), "%s.failed/build.log", dir);
	return exists(dir) || exists(failed);
}

/* A finished build @dir: relink it if the runtime changed since. */
int adapter_build_finish(const struct adapter_env *env, const char *dir,
			 const char *runtime, const char *version,
			 char **out_exe)
{
	char path[4400], log[4400], errors[1500], why[1200];
	int ret;

	lsb_pathf(path, sizeof(path), "%s/runtime", dir);
	if (!stamp_matches(path, runtime)) {
		/* the runtime changed: relink the kept kernel objects */
		lsb_pathf(log, sizeof(log), "%s/link.log", dir);
		ret = adapter_link(env, dir, log);
		if (ret == ADAPTER_EBUILD &&
		    outside_cause(dir, log, why, sizeof(why))) {
			*run_fault = '\0';
			adapter_set_error("Linux %s: relinking failed for a cause outside the tree (not cached): %s",
					  version, why);
			return ADAPTER_EIO;
		}
		*run_fault = '\0';
		if (ret) {
			adapter_log_errors(log, errors, sizeof(errors));
			adapter_set_error("Linux %s: relinking failed (log: %s):\n%s",
					  version, log, errors);
			return ret;
		}
		if (adapter_write_text(path, runtime))
			return ADAPTER_EIO;
	}
	lsb_pathf(path, sizeof(path), "%s/linsched-sim", dir);
	*out_exe = strdup(path);
	return *out_exe ? 0 : ADAPTER_EIO;
}

/* The build under way's temporary, removed if a signal stops the process. */
static int tmp_handle = -1;

int adapter_build_tmp(const char *dir, char *tmp, size_t len)
{
	lsb_remove_stale_tmp(dir);
	if (lsb_pathf(tmp, len, "%s.tmp.%d", dir, (int)getpid()) < 0) {
		adapter_set_error("path too long: '%s'", dir);
		return ADAPTER_EIO;
	}
	lsb_cleanup_done(tmp_handle);
	tmp_handle = lsb_cleanup_add(tmp);
	*run_fault = '\0';
	return 0;
}

/* A failed build's log becomes KEY.failed; the message names its errors. */
static int build_failed(const char *tmp, const char *dir,
			const char *version)
{
	char failed[4300], path[4400], log[4400], errors[1500];

	lsb_pathf(failed, sizeof(failed), "%s.failed", dir);
	lsb_pathf(log, sizeof(log), "%s/build.log", tmp);
	adapter_log_errors(log, errors, sizeof(errors));
	lsb_rm_rf(failed);
	lsb_pathf(path, sizeof(path), "%s/src", tmp);
	lsb_rm_rf(path);
	if (rename(tmp, failed))
		lsb_rm_rf(tmp);
	lsb_pathf(log, sizeof(log), "%s/build.log", failed);
	adapter_set_error("Linux %s does not build (log: %s):\n%s", version,
			  log, errors);
	return ADAPTER_EBUILD;
}

/*
 * The end of a build in @tmp whose outcome is @ret: a failure's log
 * becomes KEY.failed, a success gets its runtime stamp and its record and
 * is renamed to @dir (or another run's is taken), as a finished build;
 * anything else is removed.
 */
int adapter_build_end(const struct adapter_env *env, int ret, const char *tmp,
		      const char *dir, const char *version,
		      const char *runtime, const char *commit,
		      const char *subset_hash, char **out_exe)
{
	char path[4400], why[1200];

	lsb_pathf(path, sizeof(path), "%s/build.log", tmp);
	if (ret == ADAPTER_EBUILD && outside_cause(tmp, path, why, sizeof(why))) {
		/* a full disk, a signal, a missing tool: never a verdict */
		adapter_set_error("Linux %s: the build failed for a cause outside the tree (not cached as its failure): %s",
				  version, why);
		ret = ADAPTER_EIO;
	}
	*run_fault = '\0';
	if (ret == ADAPTER_EBUILD) {
		ret = build_failed(tmp, dir, version);
		goto out;
	}
	lsb_pathf(path, sizeof(path), "%s/runtime", tmp);
	if (!ret && adapter_write_text(path, runtime)) {
		adapter_set_error("cannot write '%s': %s", path,
				  strerror(errno));
		ret = ADAPTER_EIO;
	}
	if (!ret && adapter_reuse_record(env, tmp, commit, subset_hash))
		ret = ADAPTER_EIO;
	if (ret) {
		lsb_rm_rf(tmp);
		goto out;
	}
	if (rename(tmp, dir)) {
		/* another run finished the same build first: use theirs */
		lsb_rm_rf(tmp);
		if (!exists(dir)) {
			adapter_set_error("cannot rename '%s': %s", tmp,
					  strerror(errno));
			ret = ADAPTER_EIO;
			goto out;
		}
	}
	ret = adapter_build_finish(env, dir, runtime, version, out_exe);
out:
	lsb_cleanup_done(tmp_handle);
	tmp_handle = -1;
	return ret;
}

/*
 * A cached failure whose log says the system failed the build (one kept
 * before such failures were told apart) is removed: the revision is
 * built again. Return 1 when the failure stands.
 */
static int failure_stands(const char *dir, const char *log)
{
	char failed[4300], why[1024], *text = lsb_read_file(log, NULL);
	int outside = text && adapter_outside_cause(text, why, sizeof(why));

	free(text);
	if (!outside)
		return 1;
	lsb_pathf(failed, sizeof(failed), "%s.failed", dir);
	lsb_rm_rf(failed);
	return 0;
}

int adapter_build(const struct adapter_env *env, const char *tree,
		  const char *subset_hash, const char *commit, char **out_exe)
{
	char runtime[41], dir[4200], tmp[4300], path[4400];
	char log[4400], errors[1500];
	struct adapter_probe probe;
	int ret;

	*out_exe = NULL;
	ret = adapter_probe(&probe, tree);
	if (ret)
		return ret;
	ret = adapter_build_paths(env, subset_hash, dir, sizeof(dir), runtime);
	if (ret)
		return ret;

	/* what a build of this key killed on its way left */
	lsb_remove_stale_tmp(dir);
	/* a failed build fails the same way again: say so at once */
	lsb_pathf(log, sizeof(log), "%s.failed/build.log", dir);
	if (exists(log) && failure_stands(dir, log)) {
		adapter_log_errors(log, errors, sizeof(errors));
		adapter_set_error("Linux %s does not build (cached failure; log: %s):\n%s",
				  probe.version, log, errors);
		return ADAPTER_EBUILD;
	}
	if (exists(dir)) {
		/* a build made before records were kept: record it now */
		lsb_pathf(path, sizeof(path), "%s/reuse", dir);
		if (!exists(path))
			adapter_reuse_record(env, dir, commit, subset_hash);
		return adapter_build_finish(env, dir, runtime, probe.version,
					    out_exe);
	}

	ret = adapter_build_tmp(dir, tmp, sizeof(tmp));
	if (ret)
		return ret;
	if (lsb_mkdir_p(tmp)) {
		adapter_set_error("cannot create '%s': %s", tmp, strerror(errno));
		return adapter_build_end(env, ADAPTER_EIO, tmp, dir, "", "",
					 NULL, NULL, NULL);
	}
	lsb_pathf(log, sizeof(log), "%s/build.log", tmp);
	lsb_pathf(path, sizeof(path), "%s/src", tmp);
	{
		char *cp[] = { "cp", "-al", (char *)tree, path, NULL };

		if (adapter_run(NULL, log, 0, cp)) {
			adapter_set_error("cannot copy the tree '%s' into '%s'",
					  tree, path);
			return adapter_build_end(env, ADAPTER_EIO, tmp, dir, "",
						 "", NULL, NULL, NULL);
		}
	}
	ret = kbuild(env, tmp, &probe, log);
	if (!ret)
		ret = adapter_link(env, tmp, log);
	/* a failed build keeps only its log; a good one keeps src/ for gdb */
	return adapter_build_end(env, ret, tmp, dir, probe.version, runtime,
				 commit, subset_hash, out_exe);
}
