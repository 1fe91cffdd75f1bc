/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vm - the same release booted as a real kernel: the simulator's oracle.
 *
 * A revision's full tree (the cached Debian linux-source package of the
 * release it names, or an export of a user's clone) is built as an x86_64
 * bzImage with vm/vm.config (vm/kernel.sh; cached per tree and config in
 * CACHE/vm/KEY), the workload becomes an rt-app file and a busybox /init
 * in an initramfs, and QEMU boots it on the topology's shape. The guest
 * writes its trace, its tasks' CPU times, its groups' cpu.stat and its
 * kernel log as a tar stream to a raw virtio disk, read back into
 * OUT/run-N/. Only cmd/ prints; errors through vm_last_error().
 */
#ifndef LSB_VM_H
#define LSB_VM_H

#include <stddef.h>
#include <stdint.h>

struct topology;
struct workload;

/**
 * enum vm_error - what went wrong, as the command's exit status says it
 * @VM_EIO: the host: a file, a tool, QEMU missing (exit 1)
 * @VM_EUSAGE: what the VM cannot mirror or run (exit 2)
 * @VM_EBUILD: the kernel did not configure or build (exit 3)
 * @VM_ENOTREE: no full tree for the revision (exit 6)
 */
enum vm_error {
	VM_EIO = -1,
	VM_EUSAGE = -2,
	VM_EBUILD = -3,
	VM_ENOTREE = -6,
};

enum vm_accel {
	VM_TCG_MULTI,	/* one host thread per vCPU; guest time = host time */
	VM_TCG_ICOUNT,	/* one thread; time counts instructions */
	VM_KVM,
};

/* "tcg-multi", "tcg-icount", "kvm" into @out: 0, or -1. */
int vm_accel_parse(const char *name, enum vm_accel *out);
const char *vm_accel_name(enum vm_accel a);

/* The most vCPUs: vm.config's NR_CPUS. */
#define VM_MAX_CPUS 64

/**
 * struct vm_machine - QEMU's view of a topology
 * @args: QEMU's arguments for it (-smp; -object, -numa per node and
 *	distance), @nr_args of them
 * @nr_cpus: vCPUs
 * @note: what is not mirrored but allowed ("" when nothing): the
 *	topology's idle states (the guest has no cpuidle driver)
 * @overflow: more arguments than @args holds
 * @guest_cpu: the vCPU that plays the topology's CPU i (QEMU numbers
 *	SMT siblings next to each other, Linux on x86 and the topologies'
 *	shapes number them apart): workloads' CPU numbers go through it into
 *	the guest, the guest's trace back through its inverse
 * @topology_cpu: its inverse, the topology's CPU that vCPU i plays
 * @renumbered: @guest_cpu is not the identity
 */
struct vm_machine {
	char args[4 + 3 * 64 + 2 * 64 * 63][80];
	int nr_args;
	int nr_cpus;
	int guest_cpu[VM_MAX_CPUS];
	int topology_cpu[VM_MAX_CPUS];
	int renumbered;
	char note[256];
	int overflow;
};

/**
 * vm_machine_from_topology() - the QEMU flags that mirror @t
 * @out: filled in
 * @t: the machine
 * @memory_mb: the guest's memory (split among NUMA nodes)
 * @err: receives why QEMU cannot mirror it: asymmetric capacity, more
 *	than one OPP, a slower SMT sibling, more CPUs than the kernel's
 *	NR_CPUS, boot parameters, a shape QEMU does not make (every socket
 *	alike, one last-level cache a socket, a NUMA node whole sockets);
 *	any numbering is mapped onto QEMU's (@out->guest_cpu)
 * @len: size of @err
 *
 * Return: 0, or VM_EUSAGE with @err set.
 */
int vm_machine_from_topology(struct vm_machine *out, const struct topology *t,
			     int memory_mb, char *err, size_t len);

/* The topology's CPU that vCPU @vcpu plays; a number outside stays. */
long vm_topology_cpu(const struct vm_machine *m, long vcpu);

/* A growing text: @len bytes at @text (malloc()ed, NUL-terminated). */
struct vm_text {
	char *text;
	size_t len, cap;
};

/**
 * vm_trace_renumber() - a guest's ftrace text in the topology's numbering
 * @m: the machine (its @guest_cpu)
 * @text: the trace as the guest's tracefs wrote it, @len bytes
 * @out: receives the same text with every CPU number the topology's: the
 *	ring buffer's CPU of each event line (the first " [digits]"), the
 *	"CPU:N" and "##### CPU N" notes, and the fields target_cpu,
 *	orig_cpu, dest_cpu and cpu_id; widths kept where they fit
 *
 * Return: 0, or -1 when out of memory.
 */
int vm_trace_renumber(const struct vm_machine *m, const char *text,
		      size_t len, struct vm_text *out);

/**
 * struct vm_guest - what the guest runs, made from a workload
 * @rtapp: rt-app's JSON (malloc()ed): one task per instance, named as the
 *	simulator names it, without our extension keys
 * @init: the /init script (malloc()ed)
 * @nr_tasks: the instances started at boot
 * @names: their names (@nr_tasks, pointing into the workload)
 * @comms: the names rt-app gives their threads: the name itself when the
 *	kernel's comm holds it (15 bytes) and no other task has it, else
 *	"lsbN" (N the instance's index)
 * @groups: their task groups' paths ("/" for none)
 * @writes: "FILE VALUE" lines /init writes before the workload starts
 *	(vm_guest_writes()), NULL for none
 */
struct vm_guest {
	char *rtapp;
	char *init;
	char *writes;
	int nr_tasks;
	const char **names;
	char (*comms)[16];
	const char **groups;
};

/**
 * vm_guest_new() - the rt-app file and /init of a workload
 * @out: filled in; release with vm_guest_release()
 * @wl: the parsed workload (it must outlive @out)
 * @duration_ns: the measured window
 * @m: the machine (its CPU count sizes the trace buffers; CPU numbers go
 *	into the guest through its @guest_cpu)
 * @err: receives what cannot run in the guest: the task, phase or group
 *	and the key (a distribution, a phase's taskgroup, fork, cpusets, ...)
 * @len: size of @err
 *
 * /init mounts proc, sysfs, devtmpfs, tracefs and cgroup v1's cpu
 * controller at /cg (Debian's rt-app 1.0 has no taskgroup support: /init
 * makes the groups, writes their settings, cgroup v2 names turned into v1
 * files, and moves each thread into its group by its name), enables the
 * sched and power events, starts rt-app, marks the window's start in the
 * trace once every thread is placed, reads each thread's
 * /proc/PID/task/TID/schedstat at the start and after @duration_ns, runs
 * the workload's events at their times, then writes the tar stream to
 * /dev/vda and reboots.
 *
 * Return: 0, VM_EUSAGE with @err set, or VM_EIO (memory).
 */
int vm_guest_new(struct vm_guest *out, const struct workload *wl,
		 uint64_t duration_ns, const struct vm_machine *m, char *err,
		 size_t len);
void vm_guest_release(struct vm_guest *g);

/**
 * vm_guest_writes() - files of the guest written before the workload
 * @g: from vm_guest_new()
 * @writes: "FILE=VALUE" each: FILE an absolute path under /sys or /proc
 *	(debugfs is mounted at /sys/kernel/debug), VALUE one line
 * @nr: how many
 * @err: receives which one is refused and why
 * @len: size of @err
 *
 * /init writes each in order once the groups are made; a failed write ends
 * the run with the kernel's error, and run-N/writes keeps what each file
 * reads back afterwards.
 *
 * Return: 0, VM_EUSAGE with @err set, or VM_EIO (memory).
 */
int vm_guest_writes(struct vm_guest *g, const char *const *writes, int nr,
		    char *err, size_t len);

/**
 * struct vm_paths - where things are
 * @share: the installed data (kernel.sh, vm.config)
 * @cache: the cache directory (debs/, vm/)
 * @repo: the kernel repository REV is resolved in
 * @full_repo: nonzero when @repo holds whole trees (--repo): the tree is
 *	exported from it; else the release's Debian package in @cache/debs
 */
struct vm_paths {
	const char *share;
	const char *cache;
	const char *repo;
	int full_repo;
};

/**
 * struct vm_kernel - a built kernel
 * @bzimage: its path
 * @key: the build key (40 hex digits)
 * @release: the release the revision names ("7.3.4"), "" if none
 * @source: the .deb file or "repo COMMIT"
 * @preempt: the preemption model chosen ("PREEMPT_LAZY")
 * @check: what the comparison of the tree's kernel/sched with the
 *	bundled history's found ("identical", the files, or "" not made)
 */
struct vm_kernel {
	char bzimage[4200];
	char key[41];
	char release[64];
	char source[4200];
	char preempt[32];
	char check[256];
};

/**
 * vm_kernel_prepare() - resolve @rev, find its full tree, build (cached)
 * @out: filled in
 * @p: paths
 * @rev: the revision
 * @jobs: make -j
 * @verbose: show kbuild's output
 *
 * A key is built by one process at a time: @p->cache/vm/KEY.lock is held
 * with flock(2) while it builds; another process that needs the key waits
 * for it (saying so on stderr), then finds it built or builds it itself.
 *
 * Return: 0, or VM_ENOTREE, VM_EBUILD, VM_EIO with vm_last_error() set.
 */
int vm_kernel_prepare(struct vm_kernel *out, const struct vm_paths *p,
		      const char *rev, int jobs, int verbose);

/*
 * rt-app's calibration (ns per loop of its busy work) that an earlier boot
 * of @k under @a measured, kept as @p->cache/vm/KEY.calibration-ACCEL: 0
 * when none. rt-app measures it at every start otherwise, 6-7 s of guest
 * time with tcg-icount and up to 30 s with tcg-multi, before the window.
 */
int vm_calibration_get(const struct vm_paths *p, const struct vm_kernel *k,
		       enum vm_accel a);
/* Keep what @run_dir/rt-app.log measured ("pLoad = Nns"), atomically. */
void vm_calibration_save(const struct vm_paths *p, const struct vm_kernel *k,
			 enum vm_accel a, const char *run_dir);
/*
 * Give @g's rt-app the calibration @ns instead of measuring it ("CPU0").
 * Return: 0, or VM_EIO (memory).
 */
int vm_guest_calibration(struct vm_guest *g, int ns);

/**
 * vm_initramfs() - write the guest's initramfs (newc cpio, gzip) to @path
 * @g: the guest
 * @path: the file
 *
 * busybox-static as /bin/busybox, rt-app and the libraries ldd names,
 * /init and /w.json; staged in @path.d and packed by cpio -o -H newc (no
 * root needed: every file is the caller's). Return: 0, or VM_EIO.
 */
int vm_initramfs(const struct vm_guest *g, const char *path);

/**
 * struct vm_boot - one boot
 * @kernel, @initramfs: what to boot
 * @machine: the vCPUs
 * @accel: how
 * @memory_mb: guest RAM
 * @timeout_s: wall-clock limit (then SIGKILL: a hung guest)
 * @dir: the run's directory: console (the serial log), disk.raw (removed
 *	unless @keep), and what the guest wrote
 * @keep: keep disk.raw
 */
struct vm_boot {
	const char *kernel, *initramfs;
	const struct vm_machine *machine;
	enum vm_accel accel;
	int memory_mb;
	int timeout_s;
	const char *dir;
	int keep;
};

/* What became of a boot. */
enum vm_boot_status {
	VM_BOOT_OK = 0,
	VM_BOOT_PANIC = 4,	/* the guest kernel panicked, or wrote nothing */
	VM_BOOT_HUNG = 5,	/* the time limit passed */
};

/**
 * vm_boot_run() - boot once and unpack the guest's results into @b->dir
 * @b: the boot
 * @boot_s: receives the seconds from QEMU's start to /init's first line
 *	(-1 when not seen)
 * @wall_s: receives QEMU's wall time
 *
 * Return: a vm_boot_status, or VM_EIO with vm_last_error() set.
 */
int vm_boot_run(const struct vm_boot *b, double *boot_s, double *wall_s);

/**
 * vm_run_tasks() - tasks.json of a run from the guest's schedstat reads
 * @dir: the run's directory (its start, end and window files)
 * @g: the guest (names and groups)
 * @m: the machine (the CPU numbers back into the topology's)
 * @window_ns: receives the measured window
 *
 * Writes @dir/tasks.json: [{name, tid, cpu_ns, cpu, group}], cpu_ns over
 * the window (null when the thread had exited by its end), cpu the one
 * it last ran on at the window's end (/proc's stat, -1 when gone).
 * Return: a cJSON array of the same (the caller frees it), or NULL with
 * vm_last_error().
 */
struct cJSON *vm_run_tasks(const char *dir, const struct vm_guest *g,
			   const struct vm_machine *m,
			   double *window_ns);

const char *vm_last_error(void);

#endif
