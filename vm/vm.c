// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/vm.c - the kernel (vm/kernel.sh, cached), the initramfs, QEMU, and
 * what the guest wrote.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bisect/bisect.h"
#include "common/common.h"
#include "vm/vm.h"
#include "vm/vm_internal.h"

LSB_DEFINE_LAST_ERROR(vm)

int vm_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vm_vset_error(fmt, ap);
	va_end(ap);
	return code;
}

void vm_arg(struct vm_machine *m, const char *s)
{
	size_t max = sizeof(m->args) / sizeof(m->args[0]);

	if ((size_t)m->nr_args >= max || strlen(s) >= sizeof(m->args[0])) {
		m->overflow = 1;
		return;
	}
	snprintf(m->args[m->nr_args++], sizeof(m->args[0]), "%s", s);
}

void vm_argf(struct vm_machine *m, const char *fmt, ...)
{
	char buf[sizeof(m->args[0]) + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	vm_arg(m, buf);
}

/* Run @argv with stdout to @out_path (NULL: ours); its exit status or -1. */
static int run(char *const argv[], const char *out_path)
{
	pid_t pid = fork();
	int status, fd;

	if (pid < 0)
		return -1;
	if (!pid) {
		if (out_path) {
			fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(127);
			close(fd);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "error: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	lsb_cleanup_child(pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	lsb_cleanup_child(0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The first line of `cc --version`, for the build key. */
static void cc_version(char *out, size_t len)
{
	FILE *f = popen("cc --version 2>/dev/null", "r");

	snprintf(out, len, "unknown");
	if (f) {
		if (fgets(out, (int)len, f))
			out[strcspn(out, "\n")] = '\0';
		pclose(f);
	}
}

/* The blob id of a file's bytes ("" when unreadable). */
static int file_id(const char *path, char out[41])
{
	size_t n;
	char *text = lsb_read_file(path, &n);
	int ret;

	if (!text)
		return vm_error(VM_EIO, "cannot read '%s': %s", path,
				strerror(errno));
	ret = lsb_blob_id(text, n, out);
	free(text);
	return ret ? vm_error(VM_EIO, "out of memory") : 0;
}

/*
 * The Debian package of the release a bundled commit names: its subject
 * is "Linux 7.3.4 (Debian linux-source-7.3 7.3.4-1~bpo13+1)".
 */
static int deb_of(struct vm_kernel *out, const struct vm_paths *p,
		  bisect_repo *r, const char *rev, const char *commit)
{
	struct bisect_commit_info info;
	char pkg[64], ver[64];
	int ret = 0;

	if (bisect_commit_info(&info, r, commit, NULL, 0)) {
		bisect_commit_info_release(&info);
		return vm_error(VM_EIO, "%s", bisect_last_error());
	}
	if (sscanf(info.subject, "Linux %63s (Debian %63s %63[^)])",
		   out->release, pkg, ver) != 3 ||
	    strncmp(pkg, "linux-source-", 13)) {
		ret = vm_error(VM_ENOTREE,
			"revision '%s' (%.12s): no full tree: it is not a release of the bundled history (its subject names no Debian package) and the repository holds only the build subset; give a clone with the whole tree with --repo",
			rev, commit);
		out->release[0] = '\0';
	} else if (lsb_pathf(out->source, sizeof(out->source),
			     "%s/debs/%s_%s_all.deb", p->cache, pkg, ver) < 0 ||
		   access(out->source, R_OK)) {
		ret = vm_error(VM_ENOTREE,
			"revision '%s' (release %s): no full tree: the package '%s' is not in the cache (where 'linsched kernels' keeps the packages it fetched)",
			rev, out->release, out->source);
	}
	bisect_commit_info_release(&info);
	return ret;
}

/* The build key: source, vm.config, kernel.sh, compiler. */
static int kernel_key(struct vm_kernel *out, const struct vm_paths *p,
		      const char *source)
{
	char path[4200], cfg[41], script[41], cc[256], text[9000];

	if (lsb_pathf(path, sizeof(path), "%s/vm/vm.config", p->share) < 0 ||
	    file_id(path, cfg))
		return VM_EIO;
	if (lsb_pathf(path, sizeof(path), "%s/vm/kernel.sh", p->share) < 0 ||
	    file_id(path, script))
		return VM_EIO;
	cc_version(cc, sizeof(cc));
	snprintf(text, sizeof(text),
		 "linsched vm kernel\nsource %s\nconfig %s\nscript %s\ncc %s\n",
		 source, cfg, script, cc);
	return lsb_blob_id(text, strlen(text), out->key) ?
	       vm_error(VM_EIO, "out of memory") : 0;
}

static void read_line(const char *dir, const char *file, char *out,
		      size_t len)
{
	char path[4400];
	char *text;

	out[0] = '\0';
	if (lsb_pathf(path, sizeof(path), "%s/%s", dir, file) < 0)
		return;
	text = lsb_read_file(path, NULL);
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		snprintf(out, len, "%s", text);
		free(text);
	}
}

/* kernel.sh into @dir: 0, or the vm_error its status says. */
static int build(const struct vm_paths *p, const char *rev,
		 const char *tree_opt, const char *tree, const char *check,
		 const char *dir, int jobs, int verbose)
{
	char script[4200], cfg[4200], j[16];
	char *argv[16];
	int n = 0, st;

	if (lsb_pathf(script, sizeof(script), "%s/vm/kernel.sh", p->share) < 0 ||
	    lsb_pathf(cfg, sizeof(cfg), "%s/vm/vm.config", p->share) < 0)
		return vm_error(VM_EIO, "path too long");
	snprintf(j, sizeof(j), "-j%d", jobs);
	argv[n++] = "bash";
	argv[n++] = script;
	argv[n++] = (char *)tree_opt;
	argv[n++] = (char *)tree;
	argv[n++] = "--config";
	argv[n++] = cfg;
	argv[n++] = "--out";
	argv[n++] = (char *)dir;
	if (check) {
		argv[n++] = "--check";
		argv[n++] = (char *)check;
	}
	argv[n++] = j;
	if (verbose)
		argv[n++] = "--verbose";
	argv[n] = NULL;
	st = run(argv, NULL);
	if (st == 0)
		return 0;
	if (st == 2)
		return vm_error(VM_ENOTREE,
			"revision '%s': no full tree: %s has no arch/x86/Makefile (the bundled history's commits hold only the build subset)",
			rev, p->full_repo ? "the repository's tree" : "the package");
	if (st == 3)
		return vm_error(VM_EBUILD, "the VM kernel did not build (kbuild's output: '%s.log')",
				dir);
	return vm_error(VM_EIO, "'%s' failed (status %d)", script, st);
}

/*
 * One build of a key at a time: @dir.lock, beside the entry, is held with
 * flock(2) for the build (a process that ends releases it; kernel.sh does
 * not inherit it). A second process waits, saying so once: the file
 * descriptor, or -1 with vm_last_error() set.
 */
static int lock_key(const char *dir, const char *key)
{
	char lock[4300];
	int fd, ret;

	if (lsb_pathf(lock, sizeof(lock), "%s.lock", dir) < 0)
		return vm_error(-1, "path too long");
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return vm_error(-1, "cannot open the lock '%s': %s", lock,
				strerror(errno));
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	if (errno == EWOULDBLOCK) {
		fprintf(stderr, "linsched vm: waiting for another build of the VM kernel %.12s (the lock '%s' is held)\n",
			key, lock);
		while ((ret = flock(fd, LOCK_EX)) && errno == EINTR)
			;
		if (!ret)
			return fd;
	}
	vm_error(-1, "cannot lock '%s': %s", lock, strerror(errno));
	close(fd);
	return -1;
}

int vm_kernel_prepare(struct vm_kernel *out, const struct vm_paths *p,
		      const char *rev, int jobs, int verbose)
{
	char commit[41], subset[41], tree_id[41], check[4200], dir[4200];
	char src[4200], bz[4200], source_key[4300];
	bisect_repo *r = NULL;
	int ret, exported = 0, handle = -1, lock = -1;
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (bisect_repo_open(&r, p->repo))
		return vm_error(VM_EIO, "%s", bisect_last_error());
	if (bisect_resolve(r, rev, commit)) {
		ret = vm_error(VM_EUSAGE, "%s", bisect_last_error());
		goto cleanup;
	}
	if (lsb_pathf(dir, sizeof(dir), "%s/vm", p->cache) < 0 || lsb_mkdir_p(dir)) {
		ret = vm_error(VM_EIO, "cannot create '%s/vm': %s", p->cache,
			       strerror(errno));
		goto cleanup;
	}
	if (p->full_repo) {
		/* the whole tree of the commit, straight from git objects */
		if (lsb_pathf(src, sizeof(src), "%s/vm/tree.tmp.%ld", p->cache,
			      (long)getpid()) < 0) {
			ret = vm_error(VM_EIO, "path too long");
			goto cleanup;
		}
		fprintf(stderr, "linsched vm: exporting %.12s from '%s'\n",
			commit, p->repo);
		handle = lsb_cleanup_add(src);
		if (bisect_export_tree(r, commit, src, tree_id)) {
			ret = vm_error(VM_EIO, "%s", bisect_last_error());
			goto cleanup;
		}
		exported = 1;
		snprintf(out->source, sizeof(out->source), "repo %s", commit);
		snprintf(source_key, sizeof(source_key), "tree %s", tree_id);
		check[0] = '\0';
	} else {
		ret = deb_of(out, p, r, rev, commit);
		if (ret)
			goto cleanup;
		snprintf(source_key, sizeof(source_key), "deb %s",
			 strrchr(out->source, '/') + 1);
		/* the bundled history's subset, to compare kernel/sched with */
		if (bisect_subset_hash(r, commit, subset) ||
		    lsb_pathf(check, sizeof(check), "%s/trees/%s", p->cache,
			      subset) < 0 ||
		    bisect_export(r, commit, check)) {
			ret = vm_error(VM_EIO, "%s", bisect_last_error());
			goto cleanup;
		}
	}
	ret = kernel_key(out, p, source_key);
	if (ret)
		goto cleanup;
	if (lsb_pathf(dir, sizeof(dir), "%s/vm/%s", p->cache, out->key) < 0 ||
	    lsb_pathf(bz, sizeof(bz), "%s/bzImage", dir) < 0) {
		ret = vm_error(VM_EIO, "path too long");
		goto cleanup;
	}
	/* not built: build it, unless another process did while we waited */
	if (stat(bz, &st)) {
		lock = lock_key(dir, out->key);
		if (lock < 0) {
			ret = VM_EIO;
			goto cleanup;
		}
	}
	if (lock >= 0 && stat(bz, &st)) {
		fprintf(stderr, "linsched vm: building the VM kernel %.12s (cached in '%s')\n",
			out->key, dir);
		ret = build(p, rev, exported ? "--tree" : "--deb",
			    exported ? src : out->source,
			    *check ? check : NULL, dir, jobs, verbose);
		if (ret)
			goto cleanup;
	}
	snprintf(out->bzimage, sizeof(out->bzimage), "%s", bz);
	read_line(dir, "preempt", out->preempt, sizeof(out->preempt));
	read_line(dir, "check", out->check, sizeof(out->check));
	ret = 0;
cleanup:
	if (lock >= 0)
		close(lock);
	if (exported)
		lsb_rm_rf(src);
	lsb_cleanup_done(handle);
	bisect_repo_free(r);
	return ret;
}

static const char initramfs_script[] =
"set -e\n"
"d=$1 out=$2\n"
"mkdir -p \"$d/bin\" \"$d/proc\" \"$d/sys\" \"$d/dev\" \"$d/tmp\"\n"
"cp /bin/busybox \"$d/bin/busybox\"\n"
"cp /usr/bin/rt-app \"$d/bin/rt-app\"\n"
"# rt-app is dynamic: its libraries and loader where ldd finds them\n"
"for lib in $(ldd /usr/bin/rt-app | sed -n 's|.*=> \\(/[^ ]*\\).*|\\1|p; s|^[[:space:]]*\\(/[^ ]*\\) .*|\\1|p'); do\n"
"\tmkdir -p \"$d${lib%/*}\"\n"
"\tcp -L \"$lib\" \"$d$lib\"\n"
"done\n"
"# glibc loads libgcc_s at pthread_exit() (its unwinder): ldd does not say\n"
"lib=$(ldconfig -p | sed -n 's|.*libgcc_s.so.1 (libc6,x86-64) => ||p' | head -n1)\n"
"[ -z \"$lib\" ] || { mkdir -p \"$d${lib%/*}\"; cp -L \"$lib\" \"$d$lib\"; }\n"
"(cd \"$d\" && find . | cpio -o -H newc --quiet) | gzip -1 >\"$out\"\n";

static int write_file(const char *path, const char *text, mode_t mode)
{
	if (lsb_write_atomic(path, text, strlen(text)) || chmod(path, mode))
		return vm_error(VM_EIO, "cannot write '%s': %s", path,
				strerror(errno));
	return 0;
}

static void calibration_path(char *buf, size_t len, const struct vm_paths *p,
			     const struct vm_kernel *k, enum vm_accel a)
{
	lsb_pathf(buf, len, "%s/vm/%s.calibration-%s", p->cache, k->key,
		  vm_accel_name(a));
}

int vm_calibration_get(const struct vm_paths *p, const struct vm_kernel *k,
		       enum vm_accel a)
{
	char path[4300], *text;
	long ns = 0;

	calibration_path(path, sizeof(path), p, k, a);
	text = lsb_read_file(path, NULL);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	if (text && lsb_parse_long(text, 1, 1000000, &ns))
		ns = 0;
	free(text);
	return (int)ns;
}

void vm_calibration_save(const struct vm_paths *p, const struct vm_kernel *k,
			 enum vm_accel a, const char *run_dir)
{
	char path[4300], buf[32], *log, *at;
	long ns;

	lsb_pathf(path, sizeof(path), "%s/rt-app.log", run_dir);
	log = lsb_read_file(path, NULL);
	at = log ? strstr(log, "pLoad = ") : NULL;
	ns = at ? strtol(at + strlen("pLoad = "), NULL, 10) : 0;
	free(log);
	if (ns < 1 || ns > 1000000)
		return;
	calibration_path(path, sizeof(path), p, k, a);
	snprintf(buf, sizeof(buf), "%ld\n", ns);
	/* a cache: a write that fails leaves the next boot to measure */
	(void)lsb_write_atomic(path, buf, strlen(buf));
}

int vm_initramfs(const struct vm_guest *g, const char *path)
{
	char d[4200], f[4300];
	char *argv[] = { "sh", "-c", (char *)initramfs_script, "sh", d,
			 (char *)path, NULL };
	int ret;

	if (lsb_pathf(d, sizeof(d), "%s.d", path) < 0)
		return vm_error(VM_EIO, "path too long");
	lsb_rm_rf(d);
	if (lsb_mkdir_p(d))
		return vm_error(VM_EIO, "cannot create '%s': %s", d,
				strerror(errno));
	ret = lsb_pathf(f, sizeof(f), "%s/init", d) < 0 ? VM_EIO :
	      write_file(f, g->init, 0755);
	if (!ret)
		ret = lsb_pathf(f, sizeof(f), "%s/w.json", d) < 0 ? VM_EIO :
		      write_file(f, g->rtapp, 0644);
	if (!ret && g->writes)
		ret = lsb_pathf(f, sizeof(f), "%s/writes", d) < 0 ? VM_EIO :
		      write_file(f, g->writes, 0644);
	if (!ret && run(argv, NULL))
		ret = vm_error(VM_EIO,
			"cannot make the initramfs '%s' (busybox-static, rt-app, cpio and gzip are needed)",
			path);
	lsb_rm_rf(d);
	return ret;
}

/* The last line of the console that says the kernel panicked, if any. */
static int panic_line(const char *console, char *out, size_t len)
{
	char *text = lsb_read_file(console, NULL), *p, *line = NULL;

	if (!text)
		return 0;
	for (p = text; (p = strstr(p, "Kernel panic")); p++)
		line = p;
	if (line) {
		line[strcspn(line, "\r\n")] = '\0';
		snprintf(out, len, "%s", line);
	}
	free(text);
	return line != NULL;
}

static int unpack(const struct vm_boot *b, const char *disk,
		  const char *console, int status, double *boot_s);

int vm_boot_run(const struct vm_boot *b, double *boot_s, double *wall_s)
{
	char console[4300], disk[4300], drive[4400], mem[32];
	char *argv[64 + sizeof(b->machine->args) / sizeof(b->machine->args[0])];
	int n = 0, i, fd, status = 0, timed_out = 0;
	double start, now;
	pid_t pid;

	*boot_s = -1;
	*wall_s = 0;
	if (lsb_mkdir_p(b->dir))
		return vm_error(VM_EIO, "cannot create '%s': %s", b->dir,
				strerror(errno));
	if (lsb_pathf(console, sizeof(console), "%s/console", b->dir) < 0 ||
	    lsb_pathf(disk, sizeof(disk), "%s/disk.raw", b->dir) < 0 ||
	    lsb_pathf(drive, sizeof(drive),
		      "file=%s,format=raw,if=virtio,cache=unsafe", disk) < 0)
		return vm_error(VM_EIO, "path too long");
	/* a sparse raw disk the guest writes its tar stream to */
	fd = open(disk, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 1024L << 20)) {
		if (fd >= 0)
			close(fd);
		return vm_error(VM_EIO, "cannot make '%s': %s", disk,
				strerror(errno));
	}
	close(fd);
	snprintf(mem, sizeof(mem), "%d", b->memory_mb);
	argv[n++] = "qemu-system-x86_64";
	argv[n++] = "-nographic";
	argv[n++] = "-no-reboot";
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-kernel";
	argv[n++] = (char *)b->kernel;
	argv[n++] = "-initrd";
	argv[n++] = (char *)b->initramfs;
	argv[n++] = "-append";
	argv[n++] = "console=ttyS0 quiet panic=-1";
	argv[n++] = "-drive";
	argv[n++] = drive;
	argv[n++] = "-accel";
	if (b->accel == VM_KVM) {
		argv[n++] = "kvm";
		argv[n++] = "-cpu";
		argv[n++] = "host";
	} else if (b->accel == VM_TCG_ICOUNT) {
		argv[n++] = "tcg,thread=single";
		argv[n++] = "-icount";
		argv[n++] = "shift=0,sleep=off";
		argv[n++] = "-cpu";
		argv[n++] = "max";
	} else {
		argv[n++] = "tcg,thread=multi";
		argv[n++] = "-cpu";
		argv[n++] = "max";
	}
	for (i = 0; i < b->machine->nr_args; i++)
		argv[n++] = (char *)b->machine->args[i];
	argv[n] = NULL;

	start = lsb_now();
	pid = fork();
	if (pid < 0)
		return vm_error(VM_EIO, "fork: %s", strerror(errno));
	if (!pid) {
		int in = open("/dev/null", O_RDONLY);

		fd = open(console, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || in < 0 || dup2(in, 0) < 0 || dup2(fd, 1) < 0 ||
		    dup2(fd, 2) < 0)
			_exit(127);
		setpgid(0, 0);
		execvp(argv[0], argv);
		dprintf(fd, "error: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	lsb_cleanup_child(pid);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return vm_error(VM_EIO, "waitpid: %s", strerror(errno));
		now = lsb_now();
		if (now - start > b->timeout_s) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			timed_out = 1;
			break;
		}
		usleep(100000);
	}
	lsb_cleanup_child(0);
	*wall_s = lsb_now() - start;
	if (timed_out) {
		if (!b->keep)
			unlink(disk);
		return VM_BOOT_HUNG;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return vm_error(VM_EIO, "cannot run qemu-system-x86_64 (see '%s')",
				console);
	return unpack(b, disk, console, status, boot_s);
}

/*
 * The guest's trace in the topology's CPU numbers: trace.txt, the
 * guest's own kept as trace.guest.txt.
 */
static int renumber(const struct vm_boot *b)
{
	char path[4300], raw[4300];
	struct vm_text t;
	size_t n;
	char *text;
	int ret;

	snprintf(path, sizeof(path), "%s/trace.txt", b->dir);
	snprintf(raw, sizeof(raw), "%s/trace.guest.txt", b->dir);
	text = lsb_read_file(path, &n);
	if (!text)
		return vm_error(VM_EIO, "cannot read '%s': %s", path,
				strerror(errno));
	ret = vm_trace_renumber(b->machine, text, n, &t);
	free(text);
	if (ret)
		return vm_error(VM_EIO, "out of memory");
	if (rename(path, raw))
		ret = vm_error(VM_EIO, "cannot rename '%s': %s", path,
			       strerror(errno));
	else if (lsb_write_atomic(path, t.text, t.len))
		ret = vm_error(VM_EIO, "cannot write '%s'", path);
	free(t.text);
	return ret ? ret : VM_BOOT_OK;
}

/* What the guest wrote, from the raw disk into @b->dir. */
static int unpack(const struct vm_boot *b, const char *disk,
		  const char *console, int status, double *boot_s)
{
	char *tar[] = { "tar", "-xf", (char *)disk, "-C", (char *)b->dir, NULL };
	char uptime[64], error[256], window[64], buf[512];
	int bad = run(tar, "/dev/null");

	if (!b->keep)
		unlink(disk);
	read_line(b->dir, "init_uptime", uptime, sizeof(uptime));
	if (*uptime)
		*boot_s = strtod(uptime, NULL);
	read_line(b->dir, "error", error, sizeof(error));
	if (*error)
		return vm_error(VM_EUSAGE, "guest: %s", error);
	read_line(b->dir, "window", window, sizeof(window));
	if (!bad && *window)
		return b->machine->renumbered ? renumber(b) : VM_BOOT_OK;
	if (!panic_line(console, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "the guest wrote no results (QEMU %s %d)",
			 WIFEXITED(status) ? "exited with" : "was killed by signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	vm_error(VM_BOOT_PANIC, "%s; its console: '%s'", buf, console);
	return VM_BOOT_PANIC;
}

/*
 * "TID NS CPU COMM" lines: @ns[i] and @cpu[i] for the task whose comm is
 * COMM (-1: none).
 */
static int read_snap(const char *dir, const char *file,
		     const struct vm_guest *g, long long *ns, long *tid,
		     int *cpu)
{
	char path[4400], comm[64];
	char *text, *line, *save = NULL;
	long long v;
	long t;
	int i, off, c;

	for (i = 0; i < g->nr_tasks; i++) {
		ns[i] = -1;
		if (cpu)
			cpu[i] = -1;
	}
	if (lsb_pathf(path, sizeof(path), "%s/%s", dir, file) < 0)
		return -1;
	text = lsb_read_file(path, NULL);
	if (!text)
		return vm_error(-1, "cannot read '%s': %s", path,
				strerror(errno));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%ld %lld %d %n", &t, &v, &c, &off) != 3)
			continue;
		snprintf(comm, sizeof(comm), "%s", line + off);
		for (i = 0; i < g->nr_tasks; i++)
			if (!strcmp(g->comms[i], comm)) {
				ns[i] = v;
				if (tid)
					tid[i] = t;
				if (cpu)
					cpu[i] = c;
			}
	}
	free(text);
	return 0;
}

cJSON *vm_run_tasks(const char *dir, const struct vm_guest *g,
		    const struct vm_machine *m, double *window_ns)
{
	long long *a = calloc((size_t)g->nr_tasks + 1, sizeof(*a));
	long long *z = calloc((size_t)g->nr_tasks + 1, sizeof(*z));
	long *tid = calloc((size_t)g->nr_tasks + 1, sizeof(*tid));
	int *cpu = calloc((size_t)g->nr_tasks + 1, sizeof(*cpu));
	cJSON *arr = NULL, *o;
	char buf[256], path[4400];
	double up0 = 0, up1 = 0;
	int i;

	read_line(dir, "window", buf, sizeof(buf));
	if (!a || !z || !tid || !cpu ||
	    sscanf(buf, "%lf %lf", &up0, &up1) != 2 || !(up1 > up0) ||
	    read_snap(dir, "start", g, a, tid, NULL) ||
	    read_snap(dir, "end", g, z, NULL, cpu)) {
		if (a && z && tid && cpu)
			vm_error(-1, "'%s': no measured window in what the guest wrote",
				 dir);
		goto out;
	}
	*window_ns = (up1 - up0) * 1e9;
	arr = cJSON_CreateArray();
	for (i = 0; arr && i < g->nr_tasks; i++) {
		o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(arr, o))
			break;
		cJSON_AddStringToObject(o, "name", g->names[i]);
		cJSON_AddStringToObject(o, "comm", g->comms[i]);
		cJSON_AddNumberToObject(o, "tid", a[i] >= 0 ? tid[i] : -1);
		if (a[i] >= 0 && z[i] >= a[i])
			cJSON_AddNumberToObject(o, "cpu_ns", (double)(z[i] - a[i]));
		else
			cJSON_AddNullToObject(o, "cpu_ns");
		cJSON_AddNumberToObject(o, "cpu",
					(double)vm_topology_cpu(m, cpu[i]));
		cJSON_AddStringToObject(o, "group", g->groups[i]);
	}
	if (lsb_pathf(path, sizeof(path), "%s/tasks.json", dir) < 0 ||
	    lsb_write_json(path, arr)) {
		vm_error(-1, "cannot write '%s/tasks.json': %s", dir,
			 strerror(errno));
		cJSON_Delete(arr);
		arr = NULL;
	}
out:
	free(a);
	free(z);
	free(tid);
	free(cpu);
	return arr;
}
