// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched vm - the same release booted as a real kernel in QEMU, running
 * the workload with rt-app: the simulator's oracle (vm/).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "cmd/linsched-vm.h"
#include "common/common.h"
#include "sim/sim.h"
#include "topologies/topologies.h"
#include "vm/vm.h"
#include "workloads/workloads.h"

static const char usage_vm[] =
"usage: linsched vm REV --workload W --topology T [options]\n"
"   or: linsched vm REV --build-only [--repo R] [-j N] [--verbose]\n"
"\n"
"Build release REV as a real x86_64 kernel from its full tree (cached), boot\n"
"it in QEMU on the topology's shape and run the workload with rt-app; keep\n"
"the guest's ftrace text trace, each task's CPU time, its groups' cpu.stat\n"
"and its kernel log, for comparison with 'linsched run' of the same.\n"
"\n"
"  -r, --repo R        a clone holding whole trees: REV's tree is exported\n"
"                      from it (default: the bundled history, whose\n"
"                      releases are built from their cached Debian\n"
"                      linux-source package)\n"
"  -w, --workload W    an rt-app JSON file, or task groups ('hog*4'); every\n"
"                      instance becomes one rt-app task (with --compare:\n"
"                      repeatable, each in DIR/N-NAME, and DIR/realism.md)\n"
"      --workloads F   with --compare: the workloads listed in file F, one\n"
"                      a line ('#' comments; paths relative to F's folder)\n"
"  -t, --topology T    a preset, a JSON file or a shape PxCxT that QEMU can\n"
"                      mirror: sockets x cores x threads, NUMA nodes of\n"
"                      whole sockets with their distances; one capacity,\n"
"                      at most one OPP, up to 64 CPUs; its CPU numbers are\n"
"                      mapped onto QEMU's (SMT siblings neighbours there)\n"
"                      and the trace comes back in the topology's\n"
"  -d, --duration D    the measured window: 10s, 500ms, or a bare number of\n"
"                      seconds (default: the workload's global.duration,\n"
"                      else 10s)\n"
"  -n, --runs N        boots, each a run (default 1)\n"
"      --accel A       tcg-multi (default: a host thread per vCPU, guest\n"
"                      time is host time), tcg-icount (one thread, time\n"
"                      counts instructions: steady under host load, slower;\n"
"                      a vCPU slows while others are busy, which stretches\n"
"                      rt-app's calibrated runs: for busy loops' shares)\n"
"                      or kvm\n"
"  -o, --out DIR       results (default: vm-REV): run-N/trace.txt,\n"
"                      run-N/tasks.json, run-N/cgroups, run-N/dmesg,\n"
"                      run-N/console, summary.json\n"
"      --write FILE=VALUE  write a file of the guest before the workload\n"
"                      starts (repeatable, in order; debugfs is mounted\n"
"                      at /sys/kernel/debug), e.g.\n"
"                      /sys/kernel/debug/sched/cgroup_mode=smp; what it\n"
"                      reads back afterwards is in run-N/writes\n"
"      --keep          keep the initramfs and each run's raw disk\n"
"      --timeout S     wall-clock limit of a boot (default: 120 + 10 times\n"
"                      the window, 4 times that with tcg-icount)\n"
"      --recalibrate   let rt-app measure its loop's speed again (the first\n"
"                      boot of a kernel under an accel does, and later\n"
"                      boots reuse what it measured)\n"
"  -j, --jobs N        parallel kernel build jobs (default 2)\n"
"      --build-only    build REV's kernel (or find it cached), print its\n"
"                      bzImage's path and boot nothing; a build of the same\n"
"                      kernel under way in another process is waited for\n"
"      --compare       then run the simulator on the same release, workload,\n"
"                      topology and window for seeds 1..N (results cached),\n"
"                      score each boot's trace over the measured window, and\n"
"                      per metric print the simulator's median, the VM's\n"
"                      median and band (min-max over boots), the tolerance\n"
"                      and a verdict: agree when the simulator's median lies\n"
"                      in the band widened by the tolerance, else differ;\n"
"                      writes DIR/compare.json and DIR/realism.md\n"
"      --seeds N       the simulator's seeds (default: --runs, at least 3)\n"
"      --jitter F      the simulator's runs with --jitter F (each run\n"
"                      event's work varied by up to +-F: a fraction 0-0.5\n"
"                      or a percentage, '1%'), recorded in compare.json\n"
"                      and realism.md; default 0, exact\n"
"      --tolerance K=V a kind's tolerance instead of the default (README,\n"
"                      \"Comparing\"): share, conservation, fairness, latency\n"
"                      (absolute: of a CPU, of CPU time, of the index, ns),\n"
"                      migrations, balance (relative: 0.5 is 50%); repeatable\n"
"      --no-boot       with --compare: compare the boots already in DIR\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0 every run ran (--build-only: the kernel is built), 1 error,\n"
"2 usage (what QEMU or the guest cannot mirror included), 3 the kernel does\n"
"not build, 4 a guest kernel panicked or wrote nothing, 5 a guest hung past\n"
"the time limit (the other runs still run), 6 no full tree for REV,\n"
"8 (--compare) a metric differs.\n";

#define VM_MAX_WRITES 16

struct vm_opts {
	const char *repo, *workload, *topology, *duration, *out;
	const char *writes[VM_MAX_WRITES];
	int nr_writes;
	enum vm_accel accel;
	int runs, keep, timeout, jobs, verbose, full_repo;
	/* --compare */
	int compare, seeds, no_boot;
	int recalibrate;
	int build_only;
	int boot_opt;		/* an option --build-only does not take */
	const char *jitter;	/* as given; @jitter_canon its number */
	char jitter_canon[32];
	const char *workloads_file;
	char **wls;		/* every --workload, then --workloads' */
	int nr_wls;
	struct vm_cmp_tol tol[VM_CMP_NR_KINDS];
};

enum { OPT_COMPARE = 0x2000, OPT_SEEDS, OPT_TOLERANCE, OPT_NO_BOOT,
       OPT_WORKLOADS, OPT_RECALIBRATE, OPT_JITTER, OPT_BUILD_ONLY };

static int add_workload(struct vm_opts *o, const char *w)
{
	o->wls = realloc(o->wls, (size_t)(o->nr_wls + 1) * sizeof(*o->wls));
	if (!o->wls || !(o->wls[o->nr_wls] = strdup(w))) {
		fprintf(stderr, "error: out of memory\n");
		return -1;
	}
	o->nr_wls++;
	return 0;
}

/* --workloads F: a workload a line, relative paths from F's folder. */
static int read_workloads(struct vm_opts *o, const char *file)
{
	char *text = lsb_read_file(file, NULL), *line, *save = NULL;
	const char *slash = strrchr(file, '/');
	char path[4300];
	int n = 0, ret = 0;

	if (!text) {
		fprintf(stderr, "error: --workloads '%s': cannot read it\n", file);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *e = line + strlen(line);

		while (*line == ' ' || *line == '\t')
			line++;
		while (e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = 0;
		if (!*line || *line == '#')
			continue;
		snprintf(path, sizeof(path), "%.*s%s", slash && *line != '/' ?
			 (int)(slash - file + 1) : 0, file, line);
		ret = add_workload(o, access(path, F_OK) ? line : path);
		n++;
	}
	free(text);
	if (!ret && !n) {
		fprintf(stderr, "error: --workloads '%s': no workload in it\n", file);
		return -1;
	}
	return ret;
}

static int vm_option(struct vm_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'r': o->repo = arg; o->full_repo = 1; break;
	case 'w': o->workload = arg; return add_workload(o, arg);
	case OPT_WORKLOADS: o->workloads_file = arg; break;
	case OPT_COMPARE: o->compare = 1; break;
	case OPT_SEEDS: return opt_int("--seeds", arg, 1, 1000, &o->seeds);
	case OPT_TOLERANCE: return vm_cmp_tolerance_arg(o->tol, arg);
	case OPT_NO_BOOT: o->no_boot = 1; break;
	case OPT_RECALIBRATE: o->recalibrate = 1; break;
	case OPT_BUILD_ONLY: o->build_only = 1; break;
	case OPT_JITTER:
		o->jitter = arg;
		return opt_jitter(arg, o->jitter_canon,
				  sizeof(o->jitter_canon));
	case 't':
		o->topology = arg;
		return cmd_topology_arg(&o->topology);
	case 'd':
		o->duration = arg;
		return cmd_opt_duration("--duration", arg);
	case 'n': return opt_int("--runs", arg, 1, 1000, &o->runs);
	case 'A':
		if (!vm_accel_parse(arg, &o->accel))
			break;
		fprintf(stderr, "error: --accel '%s': expected tcg-multi, tcg-icount or kvm\n",
			arg);
		return -1;
	case 'o': o->out = arg; break;
	case 'k': o->keep = 1; break;
	case 'W':
		if (o->nr_writes == VM_MAX_WRITES) {
			fprintf(stderr, "error: --write: at most %d\n",
				VM_MAX_WRITES);
			return -1;
		}
		o->writes[o->nr_writes++] = arg;
		break;
	case 'O': return opt_int("--timeout", arg, 1, 1000000, &o->timeout);
	case 'j': return opt_int("--jobs", arg, 1, 256, &o->jobs);
	case 'v': o->verbose = 1; break;
	default:
		fputs(usage_vm, stderr);
		return -1;
	}
	return 0;
}

/* The status of vm/'s error @ret, said. */
static int vm_status(int ret)
{
	fprintf(stderr, "error: %s\n", vm_last_error());
	return ret == VM_EUSAGE ? 2 : ret == VM_EBUILD ? 3 :
	       ret == VM_ENOTREE ? 6 : 1;
}

/* The specs, before anything is built: 0, or 2 after the error. */
static int load_specs(const struct vm_opts *o, struct topology *t,
		      struct workload *wl, uint64_t *window_ns)
{
	char err[WORKLOAD_ERR_MAX];

	if (topology_from_spec(t, o->topology, err, sizeof(err)) ||
	    workload_parse(wl, o->workload, err, sizeof(err)) ||
	    workload_check(wl, t->nr_cpus, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return 2;
	}
	if (o->duration)
		sim_parse_duration(window_ns, o->duration);
	else
		*window_ns = wl->duration_ns ? wl->duration_ns : 10000000000ULL;
	return 0;
}

/* One run's entry of the summary, its shares added up in @sum. */
static cJSON *run_entry(int i, int status, double boot_s, double wall_s,
			cJSON *tasks, double window_ns)
{
	static const char *const names[] = { [VM_BOOT_OK] = "ok",
		[VM_BOOT_PANIC] = "panic", [VM_BOOT_HUNG] = "hung" };
	cJSON *o = cJSON_CreateObject(), *t;

	cJSON_AddNumberToObject(o, "run", i);
	cJSON_AddStringToObject(o, "status", names[status]);
	if (boot_s >= 0)
		cJSON_AddNumberToObject(o, "boot_s", boot_s);
	cJSON_AddNumberToObject(o, "wall_s", wall_s);
	if (!tasks)
		return o;
	cJSON_AddNumberToObject(o, "window_ns", window_ns);
	cJSON_ArrayForEach(t, tasks) {
		const cJSON *ns = cJSON_GetObjectItem(t, "cpu_ns");

		cJSON_DeleteItemFromObject(t, "comm");
		cJSON_DeleteItemFromObject(t, "tid");
		if (cJSON_IsNumber(ns))
			cJSON_AddNumberToObject(t, "share",
				(double)(long long)(1e4 * ns->valuedouble / window_ns + 0.5) / 1e4);
	}
	cJSON_AddItemToObject(o, "tasks", tasks);
	return o;
}

/* The table: each task's share per run. */
static void print_shares(const cJSON *runs, const struct vm_guest *g)
{
	const cJSON *r;
	int i;

	printf("%-16s %-12s %s\n", "task", "group", "share of a CPU, per run");
	for (i = 0; i < g->nr_tasks; i++) {
		printf("%-16s %-12s", g->names[i], g->groups[i]);
		cJSON_ArrayForEach(r, runs) {
			const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "tasks"), i);
			const cJSON *s = cJSON_GetObjectItem(t, "share");

			if (cJSON_IsNumber(s))
				printf(" %.3f", s->valuedouble);
			else
				printf(" -");
		}
		printf("\n");
	}
}

/* The summary's head: what was booted. */
static cJSON *summary_new(const struct vm_opts *o, const char *rev,
			  const struct vm_kernel *k, const struct topology *t,
			  const struct vm_machine *m, uint64_t window_ns)
{
	cJSON *s = cJSON_CreateObject(), *q;
	char path[4300], id[41] = "";
	char *cfg;
	size_t n;
	int i;

	snprintf(path, sizeof(path), "%.*s/config",
		 (int)(strlen(k->bzimage) - strlen("/bzImage")), k->bzimage);
	cfg = lsb_read_file(path, &n);
	if (cfg)
		lsb_blob_id(cfg, n, id);
	free(cfg);
	cJSON_AddStringToObject(s, "revision", rev);
	cJSON_AddStringToObject(s, "release", k->release);
	cJSON_AddStringToObject(s, "source", k->source);
	cJSON_AddStringToObject(s, "kernel_key", k->key);
	cJSON_AddStringToObject(s, "config_id", id);
	cJSON_AddStringToObject(s, "preempt", k->preempt);
	if (*k->check)
		cJSON_AddStringToObject(s, "kernel_sched_vs_bundled", k->check);
	cJSON_AddStringToObject(s, "accel", vm_accel_name(o->accel));
	cJSON_AddStringToObject(s, "workload", o->workload);
	cJSON_AddStringToObject(s, "topology", t->name);
	q = cJSON_AddArrayToObject(s, "qemu_machine");
	for (i = 0; i < m->nr_args; i++)
		cJSON_AddItemToArray(q, cJSON_CreateString(m->args[i]));
	if (m->renumbered) {
		q = cJSON_AddArrayToObject(s, "guest_cpu");
		for (i = 0; i < m->nr_cpus; i++)
			cJSON_AddItemToArray(q,
					cJSON_CreateNumber(m->guest_cpu[i]));
	}
	if (*m->note)
		cJSON_AddStringToObject(s, "not_mirrored", m->note);
	cJSON_AddNumberToObject(s, "window_ns", (double)window_ns);
	q = cJSON_AddArrayToObject(s, "writes");
	for (i = 0; i < o->nr_writes; i++)
		cJSON_AddItemToArray(q, cJSON_CreateString(o->writes[i]));
	return s;
}

/* The boots: 0, 4 or 5 (the first failure's), or 1/2 after the error. */
static int boot_all(const struct vm_opts *o, const struct vm_kernel *k,
		    const struct vm_machine *m, const struct vm_guest *g,
		    const char *initrd, uint64_t window_ns, cJSON *summary,
		    const struct vm_paths *p, int calibration)
{
	cJSON *runs = cJSON_AddArrayToObject(summary, "runs");
	int i, ret = 0, st;
	char dir[4200];

	for (i = 1; i <= o->runs; i++) {
		struct vm_boot b = {
			.kernel = k->bzimage, .initramfs = initrd, .machine = m,
			.accel = o->accel, .memory_mb = 512, .dir = dir,
			.keep = o->keep,
		};
		double boot_s, wall_s, win = 0;
		cJSON *tasks = NULL;

		b.timeout_s = o->timeout ? o->timeout :
			      (int)(120 + 10 * window_ns / 1e9) *
			      (o->accel == VM_TCG_ICOUNT ? 4 : 1);
		snprintf(dir, sizeof(dir), "%s/run-%d", o->out, i);
		lsb_rm_rf(dir);
		fprintf(stderr, "linsched vm: boot %d/%d (%s)...\n", i, o->runs,
			vm_accel_name(o->accel));
		st = vm_boot_run(&b, &boot_s, &wall_s);
		if (st < 0)
			return vm_status(st);
		if (st == VM_BOOT_OK) {
			tasks = vm_run_tasks(dir, g, m, &win);
			if (!tasks)
				return vm_status(VM_EIO);
			if (!calibration) {
				vm_calibration_save(p, k, o->accel, dir);
				calibration = -1;
			}
		} else if (st == VM_BOOT_HUNG) {
			fprintf(stderr, "linsched vm: run %d: the guest hung: no end in %d s (its console: '%s/console')\n",
				i, b.timeout_s, dir);
		} else {
			fprintf(stderr, "linsched vm: run %d: %s\n", i,
				vm_last_error());
		}
		if (st && !ret)
			ret = st;
		cJSON_AddItemToArray(runs, run_entry(i, st, boot_s, wall_s,
						     tasks, win));
		if (st == VM_BOOT_OK)
			fprintf(stderr, "linsched vm: run %d: ok, %.1f s wall, /init at %.2f s of guest time\n",
				i, wall_s, boot_s);
	}
	print_shares(runs, g);
	return ret;
}

/*
 * REV's VM kernel built or found cached, @p set up for it; a full tree
 * whose kernel/sched differs from the bundled commit's is said, @where
 * naming the files: 0, or the exit status (printed).
 */
static int kernel_prepare(const struct vm_opts *o, const char *rev,
			  const struct driver_paths *paths, struct vm_paths *p,
			  struct vm_kernel *k, const char *where)
{
	int ret;

	*p = (struct vm_paths){ .share = paths->share_dir,
				.cache = paths->cache_dir, .repo = o->repo,
				.full_repo = o->full_repo };
	ret = vm_kernel_prepare(k, p, rev, o->jobs, o->verbose);
	if (ret)
		return vm_status(ret);
	if (strcmp(k->check, "identical") && *k->check)
		fprintf(stderr, "warning: the full tree's kernel/sched differs from the bundled commit's (%s says which files)\n",
			where);
	return 0;
}

/* Everything after the specs: kernel, initramfs, boots, summary. */
static int vm_main(const struct vm_opts *o, const char *rev,
		   const struct topology *t, const struct workload *wl,
		   uint64_t window_ns, const struct driver_paths *paths)
{
	struct vm_paths p;
	static struct vm_machine m;
	char err[WORKLOAD_ERR_MAX], initrd[4300], path[4300];
	struct vm_guest g;
	struct vm_kernel k;
	cJSON *summary;
	int ret, calibration;

	if (vm_machine_from_topology(&m, t, 512, err, sizeof(err)) ||
	    vm_guest_new(&g, wl, window_ns, &m, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return 2;
	}
	if (vm_guest_writes(&g, o->writes, o->nr_writes, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		vm_guest_release(&g);
		return 2;
	}
	if (*m.note)
		fprintf(stderr, "note: topology '%s': %s\n", t->name, m.note);
	if (cmd_out_dir(o->out, "linsched vm")) {
		ret = 1;
		goto out;
	}
	ret = kernel_prepare(o, rev, paths, &p, &k, "summary.json");
	if (ret)
		goto out;
	calibration = o->recalibrate ? 0 : vm_calibration_get(&p, &k, o->accel);
	if (calibration && vm_guest_calibration(&g, calibration)) {
		fprintf(stderr, "error: out of memory\n");
		ret = 1;
		goto out;
	}
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio.gz", o->out);
	snprintf(path, sizeof(path), "%s/rtapp.json", o->out);
	if (lsb_write_atomic(path, g.rtapp, strlen(g.rtapp))) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		ret = 1;
		goto out;
	}
	ret = vm_initramfs(&g, initrd);
	if (ret) {
		ret = vm_status(ret);
		goto out;
	}
	summary = summary_new(o, rev, &k, t, &m, window_ns);
	if (calibration)
		cJSON_AddNumberToObject(summary, "rtapp_calibration_ns",
					calibration);
	else
		cJSON_AddStringToObject(summary, "rtapp_calibration_ns",
					"measured");
	ret = boot_all(o, &k, &m, &g, initrd, window_ns, summary, &p,
		       calibration);
	snprintf(path, sizeof(path), "%s/summary.json", o->out);
	if (lsb_write_json(path, summary)) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		ret = ret ? ret : 1;
	}
	cJSON_Delete(summary);
	if (!o->keep)
		unlink(initrd);
out:
	vm_guest_release(&g);
	return ret;
}

/* --build-only: REV's kernel built (or found cached), its path printed. */
static int build_only(const struct vm_opts *o, const char *rev,
		      const struct driver_paths *paths)
{
	struct vm_paths p;
	struct vm_kernel k;
	int ret = kernel_prepare(o, rev, paths, &p, &k,
				 "the kernel's 'check' file beside it");

	if (!ret)
		printf("%s\n", k.bzimage);
	return ret;
}

static void free_workloads(struct vm_opts *o)
{
	int i;

	for (i = 0; i < o->nr_wls; i++)
		free(o->wls[i]);
	free(o->wls);
	o->wls = NULL;
	o->nr_wls = 0;
}

/* Whether a --tolerance changed the table. */
static int memcmp_tol(const struct vm_opts *o)
{
	struct vm_cmp_tol def[VM_CMP_NR_KINDS];
	int i;

	vm_cmp_tolerances(def);
	for (i = 0; i < VM_CMP_NR_KINDS; i++)
		if (def[i].abs != o->tol[i].abs || def[i].rel != o->tol[i].rel)
			return 1;
	return 0;
}

/*
 * One workload's boots (unless --no-boot) and comparison: 0, 8, or the
 * first failure's status; @rows receives its metrics.
 */
static int compare_one(struct vm_opts *o, const char *rev,
		       struct topology *t, const struct driver_paths *paths,
		       cJSON **rows)
{
	struct vm_cmp_in in = {
		.rev = rev, .repo = o->repo, .workload = o->workload,
		.topology_spec = o->topology, .dir = o->out, .topo = t, .paths = paths,
		.seeds = o->seeds ? o->seeds : o->runs > 3 ? o->runs : 3,
		.jobs = o->jobs, .verbose = o->verbose, .tol = o->tol,
		/* its number, none for zero: the result keys without it */
		.jitter = *o->jitter_canon ? o->jitter_canon : NULL,
	};
	struct workload wl;
	uint64_t window_ns;
	int boots = 0, ret;

	*rows = NULL;
	ret = load_specs(o, t, &wl, &window_ns);
	if (ret)
		return ret;
	in.wl = &wl;
	in.window_ns = window_ns;
	if (!o->no_boot) {
		/* a guest panicked or hung (4, 5): the other boots count */
		boots = vm_main(o, rev, t, &wl, window_ns, paths);
		if (boots && boots != 4 && boots != 5) {
			workload_release(&wl);
			return boots;
		}
	} else {
		char path[4300];

		snprintf(path, sizeof(path), "%s/summary.json", o->out);
		ret = access(path, R_OK) ? 2 :
		      cmd_out_dir(o->out, "linsched vm --compare") ? 1 : 0;
		if (ret == 2)
			fprintf(stderr, "error: --no-boot: no boots in '%s': '%s' is missing\n",
				o->out, path);
		if (ret) {
			workload_release(&wl);
			return ret;
		}
	}
	ret = vm_compare(&in, rows);
	workload_release(&wl);
	return boots && (!ret || ret == VM_EXIT_DIFFER) ? boots : ret;
}

/* --compare: every workload's, then realism.md: 0, 8 or a failure's. */
static int compare_all(struct vm_opts *o, const char *rev, struct topology *t,
		       const struct driver_paths *paths)
{
	const char *dir = o->out;
	char (*sub)[4300] = calloc((size_t)o->nr_wls, sizeof(*sub));
	const char **names = calloc((size_t)o->nr_wls, sizeof(*names));
	cJSON **rows = calloc((size_t)o->nr_wls, sizeof(*rows));
	char path[4300];
	int i, ret = 0, st;

	if (!sub || !names || !rows) {
		fprintf(stderr, "error: out of memory\n");
		ret = 1;
		goto out;
	}
	for (i = 0; i < o->nr_wls; i++) {
		const char *b = strrchr(o->wls[i], '/');
		char name[256];

		snprintf(name, sizeof(name), "%s", b ? b + 1 : o->wls[i]);
		if (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".json"))
			name[strlen(name) - 5] = 0;
		lsb_safe_name(name);
		if (o->nr_wls > 1)
			snprintf(sub[i], sizeof(sub[i]), "%s/%d-%s", dir, i + 1,
				 name);
		else
			snprintf(sub[i], sizeof(sub[i]), "%s", dir);
		names[i] = o->wls[i];
		if (o->nr_wls > 1) {
			printf("%s== %s\n", i ? "\n" : "", o->wls[i]);
			fflush(stdout);
		}
		o->workload = o->wls[i];
		o->out = sub[i];
		st = compare_one(o, rev, t, paths, &rows[i]);
		if (st && st != VM_EXIT_DIFFER && st != 4 && st != 5) {
			ret = st;
			goto out;
		}
		if (st && (!ret || ret == VM_EXIT_DIFFER))
			ret = st;
	}
	snprintf(path, sizeof(path), "%s/realism.md", dir);
	if (vm_realism_md(path, rev, o->topology,
			  *o->jitter_canon ? o->jitter_canon : NULL, names,
			  rows, o->nr_wls))
		ret = 1;
out:
	o->out = dir;
	for (i = 0; rows && i < o->nr_wls; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	free(names);
	free(sub);
	return ret;
}

int cmd_vm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "workload", required_argument, NULL, 'w' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "runs", required_argument, NULL, 'n' },
		{ "accel", required_argument, NULL, 'A' },
		{ "out", required_argument, NULL, 'o' },
		{ "keep", no_argument, NULL, 'k' },
		{ "write", required_argument, NULL, 'W' },
		{ "timeout", required_argument, NULL, 'O' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "seeds", required_argument, NULL, OPT_SEEDS },
		{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
		{ "no-boot", no_argument, NULL, OPT_NO_BOOT },
		{ "workloads", required_argument, NULL, OPT_WORKLOADS },
		{ "recalibrate", no_argument, NULL, OPT_RECALIBRATE },
		{ "jitter", required_argument, NULL, OPT_JITTER },
		{ "build-only", no_argument, NULL, OPT_BUILD_ONLY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct driver_paths paths;
	struct vm_opts o = { .runs = 1, .jobs = 2 };
	static struct topology t;
	struct workload wl;
	uint64_t window_ns;
	char out[300];
	int c, ret;

	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	o.repo = paths.repo;
	vm_cmp_tolerances(o.tol);
	while ((c = getopt_long(argc, argv, "r:w:t:d:n:o:j:vh", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_vm, stdout);
			return 0;
		}
		if (c != 'r' && c != 'j' && c != 'v' && c != OPT_BUILD_ONLY)
			o.boot_opt = 1;
		if (vm_option(&o, c, optarg)) {
			free_workloads(&o);
			return 2;
		}
	}
	if (o.build_only) {
		ret = 2;
		if (o.boot_opt)
			fprintf(stderr, "error: --build-only boots nothing: it takes --repo, --jobs and --verbose only\n");
		else if (optind + 1 != argc)
			fprintf(stderr, "error: linsched vm takes one revision\n");
		else
			ret = build_only(&o, argv[optind], &paths);
		free_workloads(&o);
		return ret;
	}
	if (o.workloads_file && read_workloads(&o, o.workloads_file)) {
		free_workloads(&o);
		return 2;
	}
	if (!o.compare && (o.nr_wls > 1 || o.workloads_file || o.seeds ||
			   o.no_boot || o.jitter || memcmp_tol(&o))) {
		fprintf(stderr, "error: %s needs --compare\n",
			o.nr_wls > 1 ? "more than one --workload" :
			o.workloads_file ? "--workloads" : o.seeds ? "--seeds" :
			o.no_boot ? "--no-boot" : o.jitter ? "--jitter" :
			"--tolerance");
		free_workloads(&o);
		return 2;
	}
	if (o.nr_wls)
		o.workload = o.wls[0];
	if (optind + 1 != argc || !o.workload || !o.topology) {
		free_workloads(&o);
		fprintf(stderr, "error: %s\n", optind + 1 != argc ?
			"linsched vm takes one revision" :
			"--workload and --topology are required");
		fputs(usage_vm, stderr);
		return 2;
	}
	if (!o.out) {
		snprintf(out, sizeof(out), "vm-%s", argv[optind]);
		lsb_safe_name(out + 3);
		o.out = out;
	}
	if (cmd_check_out_dir("--out", o.out)) {
		free_workloads(&o);
		return 2;
	}
	if (!o.compare) {
		ret = load_specs(&o, &t, &wl, &window_ns);
		if (!ret) {
			ret = vm_main(&o, argv[optind], &t, &wl, window_ns, &paths);
			workload_release(&wl);
		}
	} else {
		ret = compare_all(&o, argv[optind], &t, &paths);
	}
	free_workloads(&o);
	return ret;
}
