// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched hunt - search a revision for scheduler bugs nobody has
 * reported: random cases (hunt/) run with the invariants, the kernel's
 * WARNs and crashes checked, optionally against a reference release; the
 * distinct failures ranked, each shrunk by delta debugging to a minimal
 * case and written as a finding directory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "adapters/adapters.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "hunt/hunt.h"
#include "sim/sim.h"
#include "topologies/topologies.h"

static const char usage_hunt[] =
"usage: linsched hunt REV [options]\n"
"\n"
"Search revision REV for scheduler bugs: generate random test cases (tasks\n"
"of the suite's kinds with random lengths, nice values, policies, affinity,\n"
"uclamp and slices; task groups with weights, bandwidth, idle and uclamp;\n"
"CPU hotplug and group writes in time; machines with SMT, clusters, NUMA\n"
"and asymmetric capacity), run each with the invariants, the kernel's WARNs\n"
"and crashes checked, and rank what broke by severity (crash, hang, WARN,\n"
"starvation, an idle CPU beside a waiting task, a task's CPU time against\n"
"the reference, the work against the oracle's variant, the machine's\n"
"energy, a useless migration) and rarity. With --reference, a failure\n"
"counts only when the reference release does not show it on the same\n"
"case. Each distinct failure is shrunk by delta debugging to the smallest\n"
"case that fails the same way and written to OUT/findings/: case.json\n"
"(rt-app), command, finding.json, results.json, trace.txt, timeline/ (its\n"
"per-CPU timeline around the first violation, marked) and entry.json, a\n"
"draft catalogue entry ('linsched bugs'); the oracle's, variant.json too.\n"
"A WARN's or crash's minimal case runs once more on a work build of\n"
"REV (--instrument work, made at the first such finding): finding.json's\n"
"kernel_path names the kernel functions it came in, innermost first\n"
"([\"entity_tick\", \"task_tick_fair\", \"sched_tick\"]), and so does the\n"
"entry's summary; without that build the finding has none (a note says\n"
"so). Failures are told apart by their signature, the check and for a\n"
"WARN its site, for a crash the kernel's words: a path is a work build's,\n"
"the search runs plain builds, and the site already names the check.\n"
"\n"
"  -R, --reference REF  judge against REF: what REF shows too is not new;\n"
"                      every case runs on both, and a task's CPU time far\n"
"                      from REF's counts (--tolerance)\n"
"  -n, --runs N        cases to run (default 2000; 0: until --time)\n"
"  -T, --time D        stop after this wall time (2h, 10m, 90s, 600; default:\n"
"                      none), whichever of --runs and --time ends first\n"
"  -t, --topology T    a machine to draw from (repeatable; default: quad-smt,\n"
"                      numa-2, biglittle-4+4, dynamiq-1+3+4 and the shapes\n"
"                      2x2x2, 1x4x2, 2x4x1, 1x4x1, 1x2x1); the shapes PxCxT\n"
"                      also shrink\n"
"  -d, --duration D    simulated time of a case (default 500ms)\n"
"  -s, --seed S        the hunt's seed: case N is a function of S and N\n"
"                      (default 1)\n"
"      --max-tasks N   tasks per case at most (default 16)\n"
"      --starvation D  the starvation bound (default 200ms)\n"
"      --tolerance F   a task's CPU time may differ from the reference's by\n"
"                      this fraction and 5 ms (default 0.2)\n"
"      --oracle O      run each case again as a variant a correct scheduler\n"
"                      runs alike, where the relation O applies; the check\n"
"                      'oracle' fails (signature oracle:O) when the work\n"
"                      (CPU time at full speed) differs by more than\n"
"                      --tolerance and 5 ms, or the variant crashes or hangs:\n"
"                      weights  every group's cpu.weight doubled, when every\n"
"                               task is in a group below the root (none\n"
"                               idle, none past 10000): each task's work\n"
"                      order    the tasks defined in the reverse order: all\n"
"                               the tasks' work together\n"
"                      grow     a shape PxCxT as Px(C+1)xT, the case's CPU\n"
"                               numbers renumbered: all the tasks' work\n"
"                               together must not fall\n"
"                      renumber a shape PxCxT's packages and cores numbered\n"
"                               backwards (package p is P-1-p, core c\n"
"                               C-1-c), the case's CPU numbers alike: all\n"
"                               the tasks' work together\n"
"      --vm            boot each finding's minimal case on REV as a real\n"
"                      kernel in QEMU ('linsched vm', where the machine can\n"
"                      be mirrored) and score its trace ('linsched score')\n"
"                      by the same check: finding.json's \"vm\" says\n"
"                      confirmed, not confirmed, or why not judged (a check\n"
"                      against the reference or an oracle, a machine QEMU\n"
"                      cannot mirror, no full tree); files in FINDING/vm\n"
"      --idle-windows N  an idle CPU beside a waiting task counts when it\n"
"                      lasted N of the invariant's windows in all (default\n"
"                      2: longer than the kernel's slowest balancing)\n"
"      --shrink-runs N simulator runs to shrink a finding with (default 200)\n"
"      --findings N    shrink and write the N highest ranked (default 10)\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -o, --out DIR       output directory (default: DATA/hunt/REV)\n"
"      --case N        print case N of the hunt the options name (its\n"
"                      machine and duration in a comment, then the rt-app\n"
"                      file) and exit: nothing is built or run\n"
"  -c, --continue      go on with the hunt in DIR: its cases are not run\n"
"                      again (the same revisions, seed, machines and\n"
"                      checks, or an error); --runs counts them too,\n"
"                      --time is more time; ranking and shrinking take all\n"
"  -j, --jobs N        cases at a time, and build jobs (default 2)\n"
"      --engine E      where the search runs: local (default: --jobs worker\n"
"                      processes) or slurm (job arrays whose tasks run\n"
"                      their share of the cases, 'linsched hunt-worker';\n"
"                      OUT, the cache and the topology files must be on a\n"
"                      file system every node sees); ranking, shrinking and\n"
"                      the findings stay here. The same cases, records and\n"
"                      findings as here. With --time, the cases go in\n"
"                      batches of 16 per array task and the time is\n"
"                      checked between them: the hunt ends with the batch\n"
"                      that passes it. Ctrl-C cancels the jobs (scancel)\n"
"                      and keeps the cases they ran, for --continue\n"
"      --partition P   Slurm partition (default: the cluster's default)\n"
"      --slurm-opt O   more sbatch options, e.g. \"--qos=low --time=30\"\n"
"      --slurm-tasks N array tasks per batch (default: one per CPU)\n"
"      --slurm-retries N  submit a failed or vanished task again up to N\n"
"                      times (default 2)\n"
"      --timeout S     wall-clock limit of each simulation (default 60)\n"
"  -v, --verbose       show kbuild's output; say every failing case\n"
"  -h, --help          this text\n"
"\n"
"Writes OUT/hunt.json (counts, cases a second, the ranked failures),\n"
"OUT/hunt.txt (as printed) and OUT/cases.jsonl (every case that broke\n"
"something, in order). The same REV, options and seed give the same cases,\n"
"findings and minimal files.\n"
"\n"
"Exit status: 0 no finding, 7 findings, 1 error, 2 usage, 3 a revision\n"
"does not build.\n";

#define MAX_TOPO 16

static const char *const default_topologies[] = {
	"quad-smt", "numa-2", "biglittle-4+4", "dynamiq-1+3+4",
	"2x2x2", "1x4x2", "2x4x1", "1x4x1", "1x2x1",
};

struct hunt_opts {
	const char *rev, *ref, *repo, *duration, *starvation;
	char out[4096];
	const char *topo[MAX_TOPO];
	int nr_cpus[MAX_TOPO];
	int ntopo;
	struct hunt_space space;
	long runs;
	double time_s, deadline, tolerance, idle_windows;
	int jobs, shrink_runs, findings, timeout_s, verbose, resume;
	int show, show_case;	/* --case N */
	int oracle;	/* --oracle: enum hunt_oracle_kind */
	int vm;		/* --vm */
	int work;	/* the work build w: 0 not tried, 1 made, -1 cannot be */
	size_t resumed;	/* cases of the hunt continued */
	struct driver_engine engine;	/* --engine slurm: the search there */
	int slurm_tasks;	/* the array tasks of each of its batches */
	int argc;		/* the options, for the Slurm tasks */
	char **argv;
	struct driver_paths paths;
	struct driver_target t, r, w;
};

/* one case's outcome, as the search records it */
struct rec {
	int check;	/* enum hunt_check; -1 refused, -2 not run */
	double magnitude;
	char signature[160];
	char detail[320];
	int varied;	/* the oracle's variant ran */
};

/* a distinct failure */
struct sig {
	char signature[160];
	int check;
	size_t count;
	unsigned long long first;
	double worst;
};

/* a wall time: "2h", "10m", or what sim_parse_duration() reads ("90s") */
static int wall_time(const char *arg, double *out)
{
	size_t len = strlen(arg);
	char num[64], *end;
	uint64_t ns;
	double v;

	if (len > 1 && len < sizeof(num) && (arg[len - 1] == 'h' ||
	    (arg[len - 1] == 'm' && arg[len - 2] != 'm' &&
	     arg[len - 2] != 'u' && arg[len - 2] != 'n'))) {
		memcpy(num, arg, len - 1);
		num[len - 1] = '\0';
		errno = 0;
		v = strtod(num, &end);
		if (errno || *end || end == num || !(v > 0) || v > 1e6)
			return -1;
		*out = v * (arg[len - 1] == 'h' ? 3600 : 60);
		return 0;
	}
	if (sim_parse_duration(&ns, arg))
		return -1;
	*out = (double)ns / 1e9;
	return 0;
}

enum { OPT_MAX_TASKS = 0x2000, OPT_STARV, OPT_TOL, OPT_SHRINK, OPT_FINDINGS,
       OPT_TIMEOUT, OPT_IDLE, OPT_CASE, OPT_ORACLE, OPT_VM };

/* the options of the checks and of shrinking: 0, -1 (said), 1 not one */
static int check_option(struct hunt_opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_MAX_TASKS:
		if (opt_int("--max-tasks", arg, 1, 256, &o->space.max_tasks))
			return -1;
		break;
	case OPT_STARV: o->starvation = arg; break;
	case OPT_TOL:
		if (opt_double("--tolerance", arg, 0, 10, &o->tolerance))
			return -1;
		break;
	case OPT_IDLE:
		if (opt_double("--idle-windows", arg, 0, 1e6, &o->idle_windows))
			return -1;
		break;
	case OPT_SHRINK:
		if (opt_int("--shrink-runs", arg, 0, 100000, &o->shrink_runs))
			return -1;
		break;
	case OPT_FINDINGS:
		if (opt_int("--findings", arg, 0, 1000, &o->findings))
			return -1;
		break;
	case OPT_CASE:
		if (opt_int("--case", arg, 0, 2000000000, &o->show_case))
			return -1;
		o->show = 1;
		break;
	case OPT_VM:
		o->vm = 1;
		break;
	case OPT_ORACLE:
		o->oracle = hunt_oracle_parse(arg);
		if (o->oracle < 0) {
			fprintf(stderr, "error: --oracle '%s': expected weights, order, grow or renumber\n",
				arg);
			return -1;
		}
		break;
	default:
		return 1;
	}
	return 0;
}

static int parse_opts(struct hunt_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "reference", required_argument, NULL, 'R' },
		{ "runs", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, 'T' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
		{ "starvation", required_argument, NULL, OPT_STARV },
		{ "tolerance", required_argument, NULL, OPT_TOL },
		{ "idle-windows", required_argument, NULL, OPT_IDLE },
		{ "shrink-runs", required_argument, NULL, OPT_SHRINK },
		{ "findings", required_argument, NULL, OPT_FINDINGS },
		{ "repo", required_argument, NULL, 'r' },
		{ "out", required_argument, NULL, 'o' },
		{ "continue", no_argument, NULL, 'c' },
		{ "case", required_argument, NULL, OPT_CASE },
		{ "oracle", required_argument, NULL, OPT_ORACLE },
		{ "vm", no_argument, NULL, OPT_VM },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "partition", required_argument, NULL, OPT_PARTITION },
		{ "slurm-opt", required_argument, NULL, OPT_SLURM_OPT },
		{ "slurm-tasks", required_argument, NULL, OPT_SLURM_TASKS },
		{ "slurm-retries", required_argument, NULL, OPT_SLURM_RETRIES },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *out = NULL;
	uint64_t ns;
	int c, n, r;

	o->runs = 2000;
	o->jobs = 2;
	o->tolerance = 0.2;
	o->idle_windows = 2;
	o->shrink_runs = 200;
	o->findings = 10;
	o->timeout_s = 60;
	o->duration = "500ms";
	o->starvation = "200ms";
	o->space.seed = 1;
	o->space.max_tasks = 16;
	engine_defaults(&o->engine);
	o->argc = argc;
	o->argv = argv;
	while ((c = getopt_long(argc, argv, "R:n:T:t:d:s:r:o:cj:vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'R': o->ref = optarg; break;
		case 'n':
			if (opt_int("--runs", optarg, 0, 100000000, &n))
				return 2;
			o->runs = n;
			break;
		case 'T':
			if (wall_time(optarg, &o->time_s)) {
				fprintf(stderr, "error: --time '%s': expected a duration such as 2h, 10m, 90s or 600\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			if (o->ntopo == MAX_TOPO) {
				fprintf(stderr, "error: --topology: at most %d machines\n",
					MAX_TOPO);
				return 2;
			}
			o->topo[o->ntopo++] = optarg;
			break;
		case 'd': o->duration = optarg; break;
		case 's':
			if (cmd_opt_seed(optarg, &o->space.seed))
				return 2;
			break;
		case 'r': o->repo = optarg; break;
		case 'o': out = optarg; break;
		case 'c': o->resume = 1; break;
		case 'j':
			if (opt_int("--jobs", optarg, 1, 1024, &o->jobs))
				return 2;
			break;
		case OPT_TIMEOUT:
			if (opt_int("--timeout", optarg, 1, 86400, &o->timeout_s))
				return 2;
			break;
		case 'v': o->verbose = 1; break;
		case 'h': fputs(usage_hunt, stdout); exit(0);
		case OPT_ENGINE: case OPT_PARTITION: case OPT_SLURM_OPT:
		case OPT_SLURM_TASKS: case OPT_SLURM_RETRIES:
			if (engine_option(&o->engine, c, optarg))
				return 2;
			break;
		default:
			if (c < OPT_MAX_TASKS || (r = check_option(o, c, optarg)) == 1) {
				fputs(usage_hunt, stderr);
				return 2;
			}
			if (r)
				return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_hunt, stderr);
		return 2;
	}
	o->rev = argv[optind];
	if (!o->runs && !o->time_s) {
		fprintf(stderr, "error: --runs 0 needs --time: the hunt would not end\n");
		return 2;
	}
	if (cmd_opt_duration("--duration", o->duration) < 0 ||
	    cmd_opt_duration("--starvation", o->starvation) < 0)
		return 2;
	sim_parse_duration(&ns, o->duration);
	o->space.duration_ns = ns;
	if (out)
		snprintf(o->out, sizeof(o->out), "%s", out);
	return 0;
}

/* the machines: their CPU counts, every one checked before anything runs */
static int machines(struct hunt_opts *o)
{
	struct topology *t = malloc(sizeof(*t));
	char err[512];
	int i;

	if (!t)
		return 1;
	if (!o->ntopo) {
		o->ntopo = (int)(sizeof(default_topologies) / sizeof(default_topologies[0]));
		memcpy(o->topo, default_topologies, sizeof(default_topologies));
	}
	for (i = 0; i < o->ntopo; i++) {
		if (strlen(o->topo[i]) >= HUNT_TOPOLOGY_MAX) {
			fprintf(stderr, "error: --topology '%.60s...': a name or path of at most %d bytes\n",
				o->topo[i], HUNT_TOPOLOGY_MAX - 1);
			free(t);
			return 2;
		}
		if (cmd_topology_arg(&o->topo[i]) ||
		    topology_from_spec(t, o->topo[i], err, sizeof(err))) {
			if (!strstr(err, o->topo[i]))
				fprintf(stderr, "error: --topology '%s': %s\n",
					o->topo[i], err);
			else
				fprintf(stderr, "error: %s\n", err);
			free(t);
			return 2;
		}
		o->nr_cpus[i] = t->nr_cpus;
	}
	free(t);
	o->space.topology = o->topo;
	o->space.nr_cpus = o->nr_cpus;
	o->space.ntopo = (size_t)o->ntopo;
	return 0;
}

/* a scratch file of one run: no fsync(), which would cost more than the run */
static int write_scratch(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(text, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/*
 * The machine of @spec for hunt_judge() (malloc()ed), or NULL: a machine
 * that does not build is judged without one
 */
static struct topology *machine_of(const char *spec)
{
	struct topology *machine = malloc(sizeof(*machine));
	char err[256];

	if (machine && topology_from_spec(machine, spec, err, sizeof(err))) {
		free(machine);
		machine = NULL;
	}
	return machine;
}

/*
 * Run case @c on @t: its workload written to @work.json, the results read
 * from @work.out.json into *@json (NULL when the run did not end), the
 * verdict in @v. With @trace, the run writes its trace there.
 * Return: a driver_status; DRIVER_USAGE when the simulator refused the
 * case (driver_last_error() says why), DRIVER_ERROR on a failure of ours.
 */
static int run_on(const struct hunt_opts *o, const struct driver_target *t,
		  const struct hunt_case *c, const char *work, const char *trace,
		  struct hunt_verdict *v, char **json)
{
	struct driver_revision rev = { 0 };
	char wl[4200], res[4200], dur[32], seed[32];
	char *argv[DRIVER_SIM_IDENTITY + 20], *text;
	struct topology *machine;
	int n, ret;

	*json = NULL;
	snprintf(rev.name, sizeof(rev.name), "%s", t->name);
	snprintf(rev.commit, sizeof(rev.commit), "%s", t->commit);
	snprintf(rev.subset, sizeof(rev.subset), "%s", t->subset);
	rev.exe = t->exe;
	snprintf(wl, sizeof(wl), "%s.json", work);
	snprintf(res, sizeof(res), "%s.out.json", work);
	snprintf(dur, sizeof(dur), "%lluns", c->duration_ns);
	text = hunt_case_text(c, NULL);
	if (!text || write_scratch(wl, text)) {
		free(text);
		fprintf(stderr, "error: %s: %s\n", wl, strerror(errno));
		return DRIVER_ERROR;
	}
	free(text);
	unlink(res);
	n = driver_sim_identity(argv, &rev);
	argv[n++] = "--topology";
	argv[n++] = (char *)c->topology;
	argv[n++] = "--workload";
	argv[n++] = wl;
	argv[n++] = "--duration";
	argv[n++] = dur;
	argv[n++] = "--starvation";
	argv[n++] = (char *)o->starvation;
	argv[n++] = "--json";
	argv[n++] = res;
	if (c->seed) {
		snprintf(seed, sizeof(seed), "%llu", c->seed);
		argv[n++] = "--seed";
		argv[n++] = seed;
	}
	if (trace) {
		argv[n++] = "--trace";
		argv[n++] = (char *)trace;
	}
	argv[n] = NULL;
	ret = driver_run(t->exe, argv, o->timeout_s, 1);
	if (ret == DRIVER_USAGE || ret == DRIVER_ERROR)
		return ret;
	if (ret == DRIVER_OK)
		*json = lsb_read_file(res, NULL);
	machine = machine_of(c->topology);
	ret = hunt_judge(v, ret, driver_last_error(), *json, machine,
			 o->idle_windows);
	free(machine);
	if (ret) {
		fprintf(stderr, "error: %s: results that do not parse\n", res);
		return DRIVER_ERROR;
	}
	return DRIVER_OK;
}

/* @msg with the scratch file @work.json (or @work.ref.json) as "case.json" */
static void scratch_named(char *out, size_t len, const char *msg,
			  const char *work)
{
	size_t wl = strlen(work), o = 0;
	const char *p = msg;

	while (*p && o + 1 < len) {
		if (!strncmp(p, work, wl) && (!strncmp(p + wl, ".json", 5) ||
					      !strncmp(p + wl, ".ref.json", 9))) {
			p += wl + (p[wl + 1] == 'r' ? 9 : 5);
			o += (size_t)snprintf(out + o, len - o, "case.json");
			continue;
		}
		out[o++] = *p++;
	}
	out[o < len ? o : len - 1] = '\0';
}

/*
 * The oracle: @w, the variant of a case whose results on @t are @json,
 * run on @t as @work.w; its verdict into @v, the case's. A variant the
 * simulator refuses is not judged.
 */
static int oracle_run(const struct hunt_opts *o, const struct driver_target *t,
		      const struct hunt_case *w, const char *work,
		      struct hunt_verdict *v, const char *json)
{
	struct hunt_verdict wv;
	char wwork[4300], *wjson;
	int ret;

	snprintf(wwork, sizeof(wwork), "%s.w", work);
	ret = run_on(o, t, w, wwork, NULL, &wv, &wjson);
	if (ret == DRIVER_OK &&
	    hunt_oracle(v, o->oracle, json, wjson, &wv, o->tolerance) < 0) {
		fprintf(stderr, "error: %s.out.json: results that do not parse\n",
			wwork);
		ret = DRIVER_ERROR;
	}
	free(wjson);
	return ret == DRIVER_USAGE ? DRIVER_OK : ret;
}

/*
 * A case's verdict on REV, and against the reference when there is one;
 * when only @check matters (not HUNT_CLEAN) and REV does not break it,
 * the reference is not run. With the oracle, the case's variant runs too
 * unless only a worse check than its own matters; on the reference only
 * when REV breaks it. *@used: the simulator runs; *@varied (may be
 * NULL): whether the variant ran on REV.
 * Return: DRIVER_OK, DRIVER_USAGE (refused: @why says why) or
 * DRIVER_ERROR (said).
 */
static int judge_case(const struct hunt_opts *o, const struct hunt_case *c,
		      const char *work, int check, struct hunt_verdict *v,
		      char *why, size_t len, int *used, int *varied)
{
	struct hunt_verdict rv;
	struct hunt_case w = { .workload = NULL };
	char *json, *rjson = NULL, rwork[4200];
	int ret, needs_ref, vary = 0;

	ret = run_on(o, &o->t, c, work, NULL, v, &json);
	*used = 1;
	if (varied)
		*varied = 0;
	if (ret == DRIVER_OK && json && o->oracle && check <= HUNT_ORACLE) {
		vary = hunt_variant(&w, c, o->oracle);
		if (vary < 0) {
			fprintf(stderr, "error: out of memory\n");
			ret = DRIVER_ERROR;
		} else if (vary) {
			ret = oracle_run(o, &o->t, &w, work, v, json);
			(*used)++;
			if (varied)
				*varied = 1;
		}
	}
	/* a change of CPU time or energy shows only beside the reference */
	needs_ref = check == HUNT_CLEAN || check == HUNT_CPU_TIME ||
		    check == HUNT_ENERGY || (v->broken & 1u << check);
	if (ret == DRIVER_OK && o->ref && needs_ref) {
		snprintf(rwork, sizeof(rwork), "%s.ref", work);
		ret = run_on(o, &o->r, c, rwork, NULL, &rv, &rjson);
		(*used)++;
		/* what the reference breaks too is not new */
		if (ret == DRIVER_OK && rjson && vary > 0 &&
		    (v->broken & 1u << HUNT_ORACLE)) {
			ret = oracle_run(o, &o->r, &w, rwork, &rv, rjson);
			(*used)++;
		}
		if (ret == DRIVER_OK)
			hunt_differ(v, &rv, json, rjson, o->tolerance);
	}
	if (ret == DRIVER_USAGE)	/* the scratch file's name is no one's */
		scratch_named(why, len, driver_last_error(), work);
	if (vary > 0)
		hunt_case_release(&w);
	free(json);
	free(rjson);
	return ret;
}

/* a text for a tab-separated line: no tabs, no line breaks */
static void flat(char *s)
{
	for (; *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

/* the signal that stopped the search (SIGINT, SIGTERM, SIGHUP), or 0 */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* the search's handlers (@on), or the default ones back */
static void catch_stops(int on)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_interrupt : SIG_DFL;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

/*
 * Case @i judged, as the search's record line into @line (a case, the
 * check, the magnitude, the signature, the detail and whether the
 * oracle's variant ran, separated by tabs; put_rec() reads it), with
 * @work the prefix of its scratch files.
 * Return: the line's length, or -1 on an error (said).
 */
static int case_line(const struct hunt_opts *o, unsigned long long i,
		     const char *work, char *line, size_t size)
{
	struct hunt_verdict v;
	struct hunt_case c;
	char why[2048];
	int ret, len, used, varied;

	if (hunt_generate(&c, &o->space, i))
		return -1;
	why[0] = '\0';
	ret = judge_case(o, &c, work, HUNT_CLEAN, &v, why, sizeof(why), &used,
			 &varied);
	hunt_case_release(&c);
	if (ret == DRIVER_ERROR)
		return -1;
	flat(v.signature);
	flat(v.detail);
	flat(why);
	if (ret == DRIVER_USAGE)
		len = snprintf(line, size, "%llu\t-1\t0\trefused\t%.3000s\t0\n",
			       i, why);
	else
		len = snprintf(line, size, "%llu\t%d\t%.17g\t%s\t%s\t%d\n", i,
			       v.check, v.magnitude, v.signature, v.detail,
			       varied);
	if (len >= (int)size)
		len = (int)size - 1;
	return len;
}

/* a worker: cases @w, @w + jobs, ... not in @recs yet, as lines on @fd */
static void worker(const struct hunt_opts *o, const struct rec *recs,
		   size_t n, int w, int fd)
{
	char work[4200], line[4096];
	unsigned long long i;
	int len;

	catch_stops(0);	/* a stop ends it; its simulator dies with it */
	prctl(PR_SET_PDEATHSIG, SIGTERM);	/* and so does the hunt's death */
	if (getppid() == 1)
		_exit(1);
	snprintf(work, sizeof(work), "%s/work/w%d", o->out, w);
	for (i = (unsigned long long)w; !o->runs || i < (unsigned long long)o->runs;
	     i += (unsigned long long)o->jobs) {
		if (o->deadline && lsb_now() > o->deadline)
			break;
		if (i < n && recs[i].check != -2)
			continue;	/* run by the hunt this one continues */
		len = case_line(o, i, work, line, sizeof(line));
		if (len < 0 || write(fd, line, (size_t)len) != len)
			_exit(1);
	}
	_exit(0);
}

/*
 * A worker's line: case, check, magnitude, signature, detail (maybe
 * empty) and whether the oracle's variant ran (a hunt's cases.partial
 * before the oracle has no such field).
 */
static int put_rec(struct rec **recs, size_t *n, size_t *cap, char *line,
		   int *check)
{
	char *f[6] = { NULL };
	unsigned long long i;
	struct rec *r;
	int k;

	line[strcspn(line, "\n")] = '\0';
	for (k = 0; k < 6 && line; k++)
		f[k] = strsep(&line, "\t");
	if (!f[0] || !f[1] || !f[2] || !f[3] || !*f[0] || !*f[3])
		return -1;
	i = strtoull(f[0], NULL, 10);
	if (lsb_grow(recs, cap, (size_t)i + 1, sizeof(**recs)))
		return -1;
	while (*n <= i)
		(*recs)[(*n)++].check = -2;
	r = &(*recs)[i];
	r->check = atoi(f[1]);
	r->magnitude = strtod(f[2], NULL);
	snprintf(r->signature, sizeof(r->signature), "%s", f[3]);
	snprintf(r->detail, sizeof(r->detail), "%s", f[4] ? f[4] : "");
	r->varied = f[5] ? atoi(f[5]) : 0;
	*check = r->check;
	return 0;
}

static void progress(const struct hunt_opts *o, size_t done, size_t bad,
		     double start, int tty, int end)
{
	double t = lsb_now() - start;

	if (!tty && !end)
		fprintf(stderr, "hunt: %zu cases, %zu broke something, %.0f s\n",
			done, bad, t);
	else if (tty)
		fprintf(stderr, "\rhunt: %zu%s%ld cases, %zu broke something, %.0f s%s",
			done, o->runs ? " of " : "", o->runs ? o->runs : 0L, bad,
			t, end ? "\r\033[K" : "");
}

/* run the search: every case's record in *@recs, *@n of them */
static int search(struct hunt_opts *o, struct rec **recs, size_t *n,
		  double *wall)
{
	size_t cap = *n, done = 0, bad = 0;	/* a continued hunt's records */
	int fds[2], w, status = 0, failed = 0, tty = isatty(2), check = 0;
	int stopped = 0;
	pid_t r;
	double start = lsb_now(), last = start;
	char line[4096], path[4300];
	FILE *partial;
	pid_t *pids;
	FILE *in;

	if (pipe(fds))
		return -1;
	pids = calloc((size_t)o->jobs, sizeof(*pids));
	if (!pids)
		return -1;
	if (o->time_s)
		o->deadline = start + o->time_s;
	fflush(NULL);
	catch_stops(1);
	for (w = 0; w < o->jobs; w++) {
		pids[w] = fork();
		if (pids[w] == 0) {
			close(fds[0]);
			worker(o, *recs, *n, w, fds[1]);
		}
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	snprintf(path, sizeof(path), "%s/cases.partial", o->out);
	partial = fopen(path, "a");	/* what a kill would lose otherwise */
	if (!partial)
		fprintf(stderr, "warning: %s: %s: a kill would lose the cases run\n",
			path, strerror(errno));
	while (in) {
		if (!fgets(line, sizeof(line), in)) {
			if (!ferror(in) || errno != EINTR)
				break;
			clearerr(in);
			/* stopped: so are the workers, and what they did is kept */
			if (interrupted && !stopped++)
				for (w = 0; w < o->jobs; w++)
					kill(pids[w], SIGTERM);
			continue;
		}
		if (partial && (fputs(line, partial) < 0 || fflush(partial)))
			failed = 1;
		if (put_rec(recs, n, &cap, line, &check))
			failed = 1;
		done++;
		bad += check > 0;
		if (lsb_now() - last >= (tty ? 1 : 60)) {
			last = lsb_now();
			progress(o, done, bad, start, tty, 0);
		}
	}
	if (in)
		fclose(in);
	if (partial && fclose(partial))
		failed = 1;
	for (w = 0; w < o->jobs; w++) {
		if (pids[w] <= 0) {	/* fork() failed */
			failed = 1;
			continue;
		}
		while ((r = waitpid(pids[w], &status, 0)) < 0 && errno == EINTR)
			;
		if (r < 0 || (!interrupted && (!WIFEXITED(status) ||
					       WEXITSTATUS(status))))
			failed = 1;
	}
	catch_stops(0);
	free(pids);
	progress(o, done, bad, start, tty, 1);
	*wall = lsb_now() - start;
	return failed ? -1 : 0;
}

static int cmp_sig(const void *a, const void *b)
{
	const struct sig *x = a, *y = b;

	if (x->check != y->check)
		return y->check - x->check;	/* the most severe first */
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;	/* the rarest first */
	return x->first < y->first ? -1 : x->first > y->first;
}

/* the distinct failures, ranked: *@sigs, *@nsig of them */
static int rank(const struct rec *recs, size_t n, struct sig **sigs,
		size_t *nsig)
{
	size_t cap = 0, i, k;

	*sigs = NULL;
	*nsig = 0;
	for (i = 0; i < n; i++) {
		if (recs[i].check <= 0)
			continue;
		for (k = 0; k < *nsig; k++)
			if (!strcmp((*sigs)[k].signature, recs[i].signature))
				break;
		if (k == *nsig) {
			if (lsb_grow(sigs, &cap, k + 1, sizeof(**sigs)))
				return -1;
			memset(&(*sigs)[k], 0, sizeof((*sigs)[k]));
			snprintf((*sigs)[k].signature, sizeof((*sigs)[k].signature),
				 "%s", recs[i].signature);
			(*sigs)[k].check = recs[i].check;
			(*sigs)[k].first = i;
			(*nsig)++;
		}
		(*sigs)[k].count++;
		if (recs[i].magnitude > (*sigs)[k].worst)
			(*sigs)[k].worst = recs[i].magnitude;
	}
	qsort(*sigs, *nsig, sizeof(**sigs), cmp_sig);
	return 0;
}

/*
 * One smaller case: judged, and taken into *@c when it fails as @sig.
 * Return: 1 taken, 0 not (@cand released), -1 on an error.
 */
static int try_smaller(const struct hunt_opts *o, struct hunt_case *c,
		       struct hunt_case *cand, const char *sig, int check,
		       int *runs, struct hunt_verdict *last)
{
	struct hunt_verdict v;
	char work[4200], why[2048];
	int ret, used;

	snprintf(work, sizeof(work), "%s/work/shrink", o->out);
	ret = judge_case(o, cand, work, check, &v, why, sizeof(why), &used,
			 NULL);
	*runs += used;
	if (ret == DRIVER_OK && !strcmp(v.signature, sig)) {
		hunt_case_release(c);
		*c = *cand;
		*last = v;
		return 1;
	}
	hunt_case_release(cand);
	return ret == DRIVER_ERROR ? -1 : 0;
}

/* the simulator runs of a step of shrinking for @check, at most */
static int step_runs(const struct hunt_opts *o, int check)
{
	return (o->ref ? 2 : 1) * (o->oracle && check <= HUNT_ORACLE ? 2 : 1);
}

/*
 * Two steps at once, when no single one keeps the failure (a task that
 * only matters with another): the first pair that does.
 * Return: 1 taken, 0 none, -1 on an error.
 */
static int shrink_pair(const struct hunt_opts *o, struct hunt_case *c,
		       const char *sig, int check, int *runs,
		       struct hunt_verdict *last)
{
	struct hunt_case a, b;
	int i, j, r = 0, step = step_runs(o, check);

	for (i = 0; r == 0 && *runs + step <= o->shrink_runs; i++) {
		if ((r = hunt_reduce(&a, c, i)) <= 0)
			return r;
		for (j = i; r == 0 && *runs + step <= o->shrink_runs; j++) {
			if ((r = hunt_reduce(&b, &a, j)) <= 0)
				break;
			r = try_smaller(o, c, &b, sig, check, runs, last);
		}
		hunt_case_release(&a);
	}
	return r < 0 ? -1 : r;
}

/*
 * Shrink @c, failing as @sig (its check @check), by delta debugging: take
 * each smaller case in hunt_reduce()'s order that still fails with the
 * same signature; when a whole pass takes none, two steps at once; until
 * neither does or @o->shrink_runs simulator runs are spent (*@runs).
 */
static int shrink(const struct hunt_opts *o, struct hunt_case *c,
		  const char *sig, int check, int *runs,
		  struct hunt_verdict *last)
{
	struct hunt_case cand;
	int k = 0, took = 0, r;

	*runs = 0;
	while (*runs + step_runs(o, check) <= o->shrink_runs) {
		r = hunt_reduce(&cand, c, k);
		if (r < 0)
			return -1;
		if (r == 0) {
			if (!took)
				r = shrink_pair(o, c, sig, check, runs, last);
			if (r < 0)
				return -1;
			if (!took && !r)
				break;
			took = 0;	/* another pass over the smaller case */
			k = 0;
			continue;
		}
		r = try_smaller(o, c, &cand, sig, check, runs, last);
		if (r < 0)
			return -1;
		if (r)
			took = 1;	/* the same k is now the next step */
		else
			k++;
	}
	return 0;
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lsb_write_atomic(path, text, strlen(text)))
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
}

/* the figure a draft catalogue entry shows the failure by */
static void entry_metric(const struct hunt_verdict *v, char *out, size_t len)
{
	switch (v->check) {
	case HUNT_WARN: snprintf(out, len, "kernel_warnings"); break;
	case HUNT_STARVED: snprintf(out, len, "invariants.starvation.count"); break;
	case HUNT_IDLE: snprintf(out, len, "invariants.idle_while_waiting.count"); break;
	case HUNT_USELESS: snprintf(out, len, "invariants.useless_migrations.count"); break;
	default:
		snprintf(out, len, "tasks.%s.sum_exec_ns", v->task[0] ? v->task : "?");
	}
}

/*
 * The kernel functions a WARN or crash finding came in: its minimal case
 * @c once more on a work build of REV (made at the first such finding,
 * as 'linsched run --instrument work' makes it), the path as that run
 * names it. NULL for another check, or with a note when the build cannot
 * be made or the run does not fail as @check.
 */
static cJSON *kernel_path(struct hunt_opts *o, const struct hunt_case *c,
			  int check)
{
	struct driver_paths paths = o->paths;
	struct hunt_verdict v;
	char work[4200], *json;
	cJSON *path;
	int ret;

	if (check != HUNT_WARN && check != HUNT_CRASHED)
		return NULL;
	if (!o->work) {
		paths.variant = ADAPTER_WORK;
		o->work = cmd_target_prepare(&o->w, &paths, o->repo, o->rev,
					     o->jobs, o->verbose) ? -1 : 1;
	}
	if (o->work < 0) {
		fprintf(stderr, "note: no work build of '%s': the finding has no kernel_path\n",
			o->rev);
		return NULL;
	}
	snprintf(work, sizeof(work), "%s/work/path", o->out);
	ret = run_on(o, &o->w, c, work, NULL, &v, &json);
	path = ret == DRIVER_OK && v.check == check ?
	       hunt_kernel_path(check, driver_last_error(), json) : NULL;
	free(json);
	if (!path)
		fprintf(stderr, "note: the work build of '%s' named no kernel path for %s: the finding has no kernel_path\n",
			o->rev, hunt_check_name(check));
	return path;
}

/* "a <- b <- c" of a kernel path, "" for none */
static void path_text(char *out, size_t len, const cJSON *path)
{
	const cJSON *name;
	size_t at = 0;

	out[0] = '\0';
	cJSON_ArrayForEach(name, path)
		if (at < len)
			at += (size_t)snprintf(out + at, len - at, "%s%s",
					       at ? " <- " : "",
					       cJSON_GetStringValue(name) ?: "?");
}

/* entry.json: a draft 'linsched bugs' entry, to triage and promote */
static void write_entry(const struct hunt_opts *o, const char *dir,
			const char *name, const struct hunt_case *c,
			const struct hunt_verdict *v, const cJSON *kpath)
{
	cJSON *e = cJSON_CreateObject(), *f, *sig;
	char metric[128], dur[32], summary[1400], path[4300], in[600];

	f = cJSON_AddObjectToObject(e, "finding");
	cJSON_AddStringToObject(f, "commit", "TODO");
	cJSON_AddStringToObject(f, "subject", "TODO: the upstream change it comes from");
	cJSON_AddStringToObject(e, "source", "linsched hunt (untriaged draft)");
	cJSON_AddStringToObject(e, "series", "TODO");
	cJSON_AddItemToObject(e, "files", cJSON_CreateStringArray(
		(const char *[]){ "kernel/sched/fair.c" }, 1));
	path_text(in, sizeof(in), kpath);
	snprintf(summary, sizeof(summary),
		 "TODO: the function and the mechanism. Found by linsched hunt on %s%s%s: %s%s%s.",
		 o->rev, o->ref ? " against " : "", o->ref ? o->ref : "", v->detail,
		 *in ? ", in " : "", in);
	cJSON_AddStringToObject(e, "summary", summary);
	snprintf(path, sizeof(path), "%s.json", name);
	cJSON_AddStringToObject(e, "workload", path);
	cJSON_AddStringToObject(e, "topology", c->topology);
	snprintf(dur, sizeof(dur), "%llums", c->duration_ns / 1000000);
	cJSON_AddStringToObject(e, "duration", dur);
	cJSON_AddNumberToObject(e, "seed", 1);
	entry_metric(v, metric, sizeof(metric));
	cJSON_AddStringToObject(e, "metric", metric);
	cJSON_AddStringToObject(e, "buggy_if", "above");
	cJSON_AddNumberToObject(e, "threshold", 0);
	sig = cJSON_AddObjectToObject(e, "signal");
	if (v->task[0])
		cJSON_AddStringToObject(sig, "task", v->task);
	else
		cJSON_AddNumberToObject(sig, "cpu", 0);
	cJSON_AddStringToObject(e, "buggy", o->rev);
	cJSON_AddStringToObject(e, "fixed", o->ref ? o->ref : o->rev);
	if (snprintf(path, sizeof(path), "%s/entry.json", dir) >= (int)sizeof(path) ||
	    lsb_write_json(path, e))
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
	cJSON_Delete(e);
}

/* the command that runs a finding's @file, as a user types it */
static void command_line(const struct hunt_opts *o, const char *rev,
			 const char *file, const struct hunt_case *c,
			 char *out, size_t len)
{
	snprintf(out, len,
		 "linsched run %s --workload %s --topology %s --duration %llums --seed 1 --starvation %s --check\n",
		 rev, file, c->topology, c->duration_ns / 1000000,
		 o->starvation);
}

/*
 * This program run on a finding's minimal case @c: 'linsched CMD REV
 * --workload DIR/case.json --topology T --duration D', the options that
 * follow added by self_opt(), and by self_run() --repo R last, unless R
 * is the bundled history
 */
struct self_cmd {
	char *argv[24];
	int n;
	char wl[4400], dur[32];
};

static void self_case(struct self_cmd *s, const struct hunt_opts *o,
		      const char *cmd, const char *dir,
		      const struct hunt_case *c)
{
	snprintf(s->wl, sizeof(s->wl), "%s/case.json", dir);
	snprintf(s->dur, sizeof(s->dur), "%lluns", c->duration_ns);
	s->n = 0;
	s->argv[s->n++] = "linsched";
	s->argv[s->n++] = (char *)cmd;
	s->argv[s->n++] = (char *)o->rev;
	s->argv[s->n++] = "--workload";
	s->argv[s->n++] = s->wl;
	s->argv[s->n++] = "--topology";
	s->argv[s->n++] = (char *)c->topology;
	s->argv[s->n++] = "--duration";
	s->argv[s->n++] = s->dur;
}

static void self_opt(struct self_cmd *s, const char *opt, const char *value)
{
	s->argv[s->n++] = (char *)opt;
	s->argv[s->n++] = (char *)value;
}

static int self_run(struct self_cmd *s, const struct hunt_opts *o,
		    const char *log)
{
	if (o->repo && strcmp(o->repo, o->paths.repo))
		self_opt(s, "--repo", o->repo);
	s->argv[s->n] = NULL;
	return cmd_run_self(s->argv, log);
}

/* the last line of @path, into @out ("" when none) */
static void last_line(char *out, size_t len, const char *path)
{
	char *text = lsb_read_file(path, NULL);

	snprintf(out, len, "%s", text ? lsb_last_line(text) : "");
	free(text);
}

/* boots of a finding's case in QEMU (--vm) */
#define HUNT_VM_BOOTS 4

/*
 * The invariant of @check in results @json, as @vm's "invariant" (its
 * count and length; its first violation apart, as "first_violation")
 */
static void add_invariant(cJSON *vm, const char *json, int check)
{
	cJSON *root = cJSON_Parse(json), *inv, *first;

	inv = cJSON_DetachItemFromObjectCaseSensitive(
		cJSON_GetObjectItem(root, "invariants"),
		hunt_invariant_key(check));
	first = cJSON_DetachItemFromObjectCaseSensitive(inv, "first");
	if (inv)
		cJSON_AddItemToObject(vm, "invariant", inv);
	if (first)
		cJSON_AddItemToObject(vm, "first_violation", first);
	cJSON_Delete(root);
}

/*
 * The finding's minimal case (DIR/case.json) booted HUNT_VM_BOOTS times
 * on REV in QEMU (a real kernel's timing differs from boot to boot) and
 * each trace scored by the finding's check: the verdict into @f's "vm",
 * confirmed when a boot breaks it alike.
 * Only the invariants' checks are judged there: a crash, a WARN or a
 * hang of the simulated kernel, a change against the reference or an
 * oracle's relation are not what one boot's trace shows.
 */
static void confirm_vm(const struct hunt_opts *o, const char *dir,
		       const struct hunt_case *c, const struct sig *s,
		       cJSON *f)
{
	char vmdir[4400], log[4500], trace[4500], score[4500];
	char runs[16], why[512] = "", *json;
	struct self_cmd cmd = { .n = 0 };
	const char *verdict;
	struct hunt_verdict vv;
	struct topology *machine;
	cJSON *vm, *boots;
	int st, b, confirmed = 0, failed = 0;

	vm = cJSON_AddObjectToObject(f, "vm");
	if (!hunt_invariant_key(s->check)) {
		cJSON_AddStringToObject(vm, "verdict", "not judged");
		cJSON_AddStringToObject(vm, "detail", "the VM judges the invariants only (starvation, idle-while-waiting, useless-migration)");
		return;
	}
	snprintf(vmdir, sizeof(vmdir), "%s/vm", dir);
	snprintf(log, sizeof(log), "%s/vm.log", dir);
	fprintf(stderr, "hunt: booting %s's finding %s in QEMU\n", o->rev,
		s->signature);
	self_case(&cmd, o, "vm", dir, c);
	self_opt(&cmd, "--out", vmdir);
	snprintf(runs, sizeof(runs), "%d", HUNT_VM_BOOTS);
	self_opt(&cmd, "--runs", runs);
	st = self_run(&cmd, o, log);
	if (st) {
		last_line(why, sizeof(why), log);
		cJSON_AddStringToObject(vm, "verdict", st == 2 ? "not mirrored" :
					st == 6 ? "no full tree" : st == 5 ?
					"hung" : "failed");
		cJSON_AddStringToObject(vm, "detail", why);
		cJSON_AddNumberToObject(vm, "status", st);
		return;
	}
	machine = machine_of(c->topology);
	/* each boot's trace judged as a simulation's results are */
	boots = cJSON_CreateArray();
	for (b = 1; b <= HUNT_VM_BOOTS; b++) {
		char run[64];
		cJSON *one = cJSON_CreateObject();

		snprintf(run, sizeof(run), "vm/run-%d/trace.txt", b);
		snprintf(trace, sizeof(trace), "%s/run-%d/trace.txt", vmdir, b);
		snprintf(score, sizeof(score), "%s/run-%d/score.json", vmdir, b);
		snprintf(log, sizeof(log), "%s/run-%d/score.log", vmdir, b);
		{
			char *argv[] = { "linsched", "score", trace, "--topology",
					 (char *)c->topology, "--workload", cmd.wl,
					 "--starvation", (char *)o->starvation,
					 "--json", score, "--quiet", NULL };

			st = cmd_run_self(argv, log);
		}
		json = st ? NULL : lsb_read_file(score, NULL);
		cJSON_AddStringToObject(one, "trace", run);
		if (!json || hunt_judge(&vv, 0, NULL, json, machine,
					o->idle_windows)) {
			last_line(why, sizeof(why), log);
			cJSON_AddStringToObject(one, "verdict", "failed");
			cJSON_AddStringToObject(one, "detail", why);
			failed++;
		} else {
			int same = vv.broken & 1u << s->check &&
				   !strcmp(vv.signature_of[s->check],
					   s->signature);

			cJSON_AddStringToObject(one, "verdict", same ?
						"confirmed" : "not confirmed");
			add_invariant(one, json, s->check);
			confirmed += same;
		}
		cJSON_AddItemToArray(boots, one);
		free(json);
	}
	free(machine);
	verdict = confirmed ? "confirmed" : failed == HUNT_VM_BOOTS ?
		  "failed" : "not confirmed";
	cJSON_AddStringToObject(vm, "verdict", verdict);
	snprintf(why, sizeof(why), "%s on %d of %d boots%s", s->signature,
		 confirmed, HUNT_VM_BOOTS,
		 failed ? " (some boots' traces not scored)" : "");
	cJSON_AddStringToObject(vm, "detail", why);
	cJSON_AddNumberToObject(vm, "boots", HUNT_VM_BOOTS);
	cJSON_AddNumberToObject(vm, "boots_failing", confirmed);
	cJSON_AddItemToObject(vm, "runs", boots);
	fprintf(stderr, "hunt: %s in QEMU: %s\n", s->signature, why);
}

/*
 * The finding's timeline (FINDING/timeline/, 'linsched timeline'): the
 * minimal case's CPUs, with the first violation @first (NULL: none, the
 * whole run drawn) marked over the lanes of the CPUs it names, from 20 ms
 * before to 20 ms after it. Return: the PNG's path in the finding, NULL
 * when the case did not draw (its log in timeline.log says why).
 */
static const char *plot_finding(const struct hunt_opts *o, const char *dir,
				const struct hunt_case *c, int check,
				const char *first)
{
	char out[4400], log[4400], from[32], to[32], mark[400] = "";
	char span[64], cpus[32] = "";
	struct self_cmd cmd = { .n = 0 };
	const char *task = "";
	double t0 = 0, t1, pad = 20e6;
	cJSON *f = first ? cJSON_Parse(first) : NULL;

	t1 = (double)c->duration_ns;
	if (cJSON_IsNumber(cJSON_GetObjectItem(f, "time_ns"))) {
		double at = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "time_ns"));
		double len = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "length_ns"));
		const cJSON *x;
		int cpu[2] = { -1, -1 };

		task = cJSON_GetStringValue(cJSON_GetObjectItem(f, "task"));
		len = len > 0 ? len : 0;
		x = cJSON_GetObjectItem(f, "cpu");
		cpu[0] = cJSON_IsNumber(x) ? x->valueint : -1;
		if ((x = cJSON_GetObjectItem(f, "idle_cpu")) ||
		    (x = cJSON_GetObjectItem(f, "from_cpu")))
			cpu[0] = x->valueint;
		if ((x = cJSON_GetObjectItem(f, "task_cpu")) ||
		    (x = cJSON_GetObjectItem(f, "to_cpu")))
			cpu[1] = x->valueint;
		t0 = at - pad > 0 ? at - pad : 0;
		if (at + len + pad < t1)
			t1 = at + len + pad;
		if (len > 0)
			snprintf(span, sizeof(span), "%.0fns-%.0fns", at, at + len);
		else
			snprintf(span, sizeof(span), "%.0fns", at);
		if (cpu[0] >= 0 && cpu[1] >= 0 && cpu[1] != cpu[0])
			snprintf(cpus, sizeof(cpus), "@%d,%d", cpu[0], cpu[1]);
		else if (cpu[0] >= 0 || cpu[1] >= 0)
			snprintf(cpus, sizeof(cpus), "@%d",
				 cpu[0] >= 0 ? cpu[0] : cpu[1]);
		snprintf(mark, sizeof(mark), "%s%s:%s: %s", span, cpus,
			 hunt_check_name(check), task ? task : "?");
		if (len > 0)
			snprintf(mark + strlen(mark), sizeof(mark) - strlen(mark),
				 ", %.1f ms", len / 1e6);
	}
	cJSON_Delete(f);
	snprintf(out, sizeof(out), "%s/timeline", dir);
	snprintf(log, sizeof(log), "%s/timeline.log", dir);
	snprintf(from, sizeof(from), "%.0fns", t0);
	snprintf(to, sizeof(to), "%.0fns", t1);
	self_case(&cmd, o, "timeline", dir, c);
	self_opt(&cmd, "--from", from);
	self_opt(&cmd, "--to", to);
	if (*mark)
		self_opt(&cmd, "--mark", mark);
	self_opt(&cmd, "--out", out);
	if (self_run(&cmd, o, log))
		return NULL;
	unlink(log);
	/* the same run as the finding's trace.txt and results.json */
	snprintf(log, sizeof(log), "%s/timeline/trace.txt", dir);
	unlink(log);
	snprintf(log, sizeof(log), "%s/timeline/run.json", dir);
	unlink(log);
	return "timeline/timeline.png";
}

/*
 * A finding's directory: the minimal case run once more with a trace on
 * REV (and the reference), its files, and its record in @list.
 */
static int write_finding(struct hunt_opts *o, const struct sig *s,
			 int rank_no, unsigned long long start,
			 const struct hunt_case *orig,
			 const struct hunt_case *c, const struct hunt_verdict *v,
			 int runs, int seeds, cJSON *list)
{
	char name[200], dir[4300], work[4400], trace[4400], cmd[5000], *json;
	char comment[2400], line[HUNT_TOPOLOGY_MAX + 200], *text, *first;
	const char *png;
	struct hunt_verdict fv;
	struct hunt_case w;
	cJSON *f, *kpath;
	int ret;

	hunt_signature_file(name, sizeof(name), s->signature);
	if (snprintf(dir, sizeof(dir), "%s/findings/%02d-%s", o->out, rank_no,
		     name) >= (int)sizeof(dir) || lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(comment, sizeof(comment),
		 "linsched hunt: %s on %s%s%s, case %llu shrunk in %d runs to %d tasks on %s, %llu ms%s; the same on %d of %d seeds",
		 s->signature, o->rev, o->ref ? " (not on " : "",
		 o->ref ? o->ref : "", start, runs, hunt_case_tasks(c),
		 c->topology, c->duration_ns / 1000000, o->ref ? ")" : "",
		 seeds, HUNT_SEEDS);
	text = hunt_case_text(orig, "the case as the hunt drew it");
	write_text(dir, "original.json", text ? text : "");
	free(text);
	command_line(o, o->rev, "case.json", c, cmd, sizeof(cmd));
	if (o->ref)
		command_line(o, o->ref, "case.json", c, cmd + strlen(cmd),
			     sizeof(cmd) - strlen(cmd));
	/* the oracle's: the case beside its variant, which runs alike */
	if (s->check == HUNT_ORACLE && hunt_variant(&w, c, o->oracle) == 1) {
		snprintf(line, sizeof(line), "the variant of the oracle '%s' (%s): %s",
			 hunt_oracle_name(o->oracle), w.topology,
			 hunt_oracle_relation(o->oracle));
		text = hunt_case_text(&w, line);
		write_text(dir, "variant.json", text ? text : "");
		free(text);
		command_line(o, o->rev, "variant.json", &w, cmd + strlen(cmd),
			     sizeof(cmd) - strlen(cmd));
		hunt_case_release(&w);
	}
	write_text(dir, "command", cmd);

	snprintf(work, sizeof(work), "%s/case", dir);
	snprintf(trace, sizeof(trace), "%s/trace.txt", dir);
	ret = run_on(o, &o->t, c, work, trace, &fv, &json);	/* case.json */
	if (ret != DRIVER_OK) {
		fprintf(stderr, "error: %s: %s\n", dir, driver_last_error());
		return -1;
	}
	text = hunt_case_text(c, comment);
	write_text(dir, "case.json", text ? text : "");
	free(text);
	if (json) {
		write_text(dir, "results.json", json);
		snprintf(work, sizeof(work), "%s/case.out.json", dir);
		unlink(work);
	}
	f = cJSON_CreateObject();
	cJSON_AddNumberToObject(f, "rank", rank_no);
	cJSON_AddStringToObject(f, "signature", s->signature);
	cJSON_AddStringToObject(f, "check", hunt_check_name(s->check));
	cJSON_AddStringToObject(f, "detail", v->detail);
	cJSON_AddStringToObject(f, "revision", o->rev);
	cJSON_AddStringToObject(f, "commit", o->t.commit);
	if (o->ref) {
		cJSON_AddStringToObject(f, "reference", o->ref);
		cJSON_AddStringToObject(f, "reference_commit", o->r.commit);
	}
	cJSON_AddNumberToObject(f, "cases", (double)s->count);
	cJSON_AddNumberToObject(f, "first_case", (double)s->first);
	cJSON_AddNumberToObject(f, "shrunk_case", (double)start);
	cJSON_AddNumberToObject(f, "tasks", hunt_case_tasks(c));
	cJSON_AddNumberToObject(f, "original_tasks", hunt_case_tasks(orig));
	cJSON_AddStringToObject(f, "topology", c->topology);
	cJSON_AddNumberToObject(f, "duration_ns", (double)c->duration_ns);
	cJSON_AddNumberToObject(f, "shrink_runs", runs);
	cJSON_AddNumberToObject(f, "seeds", HUNT_SEEDS);
	cJSON_AddNumberToObject(f, "seeds_failing", seeds);
	cJSON_AddStringToObject(f, "command", cmd);
	first = json ? hunt_first_violation(json, s->check) : NULL;
	if (first)
		cJSON_AddItemToObject(f, "first_violation", cJSON_Parse(first));
	png = plot_finding(o, dir, c, s->check, first);
	if (png)
		cJSON_AddStringToObject(f, "timeline", png);
	free(first);
	free(json);
	kpath = kernel_path(o, c, s->check);
	if (kpath)
		cJSON_AddItemToObject(f, "kernel_path", kpath);
	if (o->vm)
		confirm_vm(o, dir, c, s, f);
	snprintf(work, sizeof(work), "%s/finding.json", dir);
	if (lsb_write_json(work, f))
		fprintf(stderr, "error: %s: %s\n", work, strerror(errno));
	cJSON_AddStringToObject(f, "dir", dir);
	cJSON_AddItemToArray(list, f);
	write_entry(o, dir, name, c, v, kpath);
	return 0;
}

/* cases.jsonl: every case that broke something or was refused, in order */
static int write_cases(const struct hunt_opts *o, const struct rec *recs,
		       size_t n)
{
	char path[4300], *line;
	size_t i, len = 0, cap = 0;
	char *buf = NULL;
	cJSON *l;
	int ret;

	for (i = 0; i < n; i++) {
		if (recs[i].check == 0 || recs[i].check == -2)
			continue;
		l = cJSON_CreateObject();
		cJSON_AddNumberToObject(l, "case", (double)i);
		cJSON_AddStringToObject(l, "check", recs[i].check < 0 ? "refused" :
					hunt_check_name(recs[i].check));
		cJSON_AddStringToObject(l, "signature", recs[i].signature);
		cJSON_AddNumberToObject(l, "magnitude", recs[i].magnitude);
		cJSON_AddStringToObject(l, "detail", recs[i].detail);
		line = lsb_json_print(l, 0);
		cJSON_Delete(l);
		if (!line || lsb_grow(&buf, &cap, len + strlen(line) + 2, 1)) {
			free(line);
			free(buf);
			return -1;
		}
		len += (size_t)sprintf(buf + len, "%s\n", line);
		free(line);
	}
	snprintf(path, sizeof(path), "%s/cases.jsonl", o->out);
	ret = lsb_write_atomic(path, buf ? buf : "", len);
	free(buf);
	return ret;
}

static void counts(const struct rec *recs, size_t n, size_t *per,
		   size_t *done, size_t *refused, size_t *varied)
{
	size_t i;

	memset(per, 0, sizeof(*per) * HUNT_NR_CHECKS);
	*done = *refused = *varied = 0;
	for (i = 0; i < n; i++) {
		if (recs[i].check == -2)
			continue;
		(*done)++;
		*varied += recs[i].varied != 0;
		if (recs[i].check < 0)
			(*refused)++;
		else
			per[recs[i].check]++;
	}
}

/* what decides a hunt's cases and verdicts: --continue checks it */
static cJSON *identity(const struct hunt_opts *o)
{
	cJSON *id = cJSON_CreateObject();

	cJSON_AddNumberToObject(id, "generator", HUNT_GENERATOR_VERSION);
	cJSON_AddStringToObject(id, "commit", o->t.commit);
	if (o->ref)
		cJSON_AddStringToObject(id, "reference_commit", o->r.commit);
	cJSON_AddNumberToObject(id, "seed", (double)o->space.seed);
	cJSON_AddItemToObject(id, "topologies",
			      cJSON_CreateStringArray(o->topo, o->ntopo));
	cJSON_AddNumberToObject(id, "duration_ns", (double)o->space.duration_ns);
	cJSON_AddNumberToObject(id, "max_tasks", o->space.max_tasks);
	cJSON_AddStringToObject(id, "starvation", o->starvation);
	cJSON_AddNumberToObject(id, "tolerance", o->tolerance);
	cJSON_AddNumberToObject(id, "idle_windows", o->idle_windows);
	if (o->oracle)
		cJSON_AddStringToObject(id, "oracle", hunt_oracle_name(o->oracle));
	return id;
}

/* which cases ran: all below "done_below", and those of "done_beyond" */
static void add_done(cJSON *j, const struct rec *recs, size_t n)
{
	size_t below = 0, i;
	cJSON *beyond;

	while (below < n && recs[below].check != -2)
		below++;
	cJSON_AddNumberToObject(j, "done_below", (double)below);
	beyond = cJSON_AddArrayToObject(j, "done_beyond");
	for (i = below; i < n; i++)
		if (recs[i].check != -2)
			cJSON_AddItemToArray(beyond, cJSON_CreateNumber((double)i));
}

/*
 * Before the search: cases.jsonl and hunt.json as far as the hunt got
 * (a continued one's cases, a killed one's cases.partial among them),
 * "complete": false; the search then appends each case to cases.partial,
 * which a --continue after a kill reads back.
 */
static int checkpoint(const struct hunt_opts *o, const struct rec *recs,
		      size_t n)
{
	cJSON *j = cJSON_CreateObject();
	char path[4300];
	int ret;

	cJSON_AddStringToObject(j, "revision", o->rev);
	cJSON_AddItemToObject(j, "identity", identity(o));
	add_done(j, recs, n);
	cJSON_AddFalseToObject(j, "complete");
	snprintf(path, sizeof(path), "%s/hunt.json", o->out);
	ret = write_cases(o, recs, n) || lsb_write_json(path, j);
	cJSON_Delete(j);
	snprintf(path, sizeof(path), "%s/cases.partial", o->out);
	if (!ret && unlink(path) && errno != ENOENT)
		ret = -1;
	if (ret)
		fprintf(stderr, "error: %s: %s\n", o->out, strerror(errno));
	return ret;
}

/* the summary, printed and kept as OUT/hunt.txt and OUT/hunt.json */
static int report(const struct hunt_opts *o, const struct rec *recs,
		  size_t n, const struct sig *sigs, size_t nsig, double wall,
		  cJSON *findings)
{
	size_t per[HUNT_NR_CHECKS], done, refused, varied, i, len = 0;
	char text[65536], path[4300], where[64];
	cJSON *j = cJSON_CreateObject(), *c, *s;
	int k;

	counts(recs, n, per, &done, &refused, &varied);
	if (o->engine.slurm)
		snprintf(where, sizeof(where), "slurm, %d array tasks",
			 o->slurm_tasks);
	else
		snprintf(where, sizeof(where), "%d jobs", o->jobs);
	len += (size_t)snprintf(text + len, sizeof(text) - len,
		"hunt: %s%s%s, seed %llu: %zu cases in %.1f s (%.1f a second, %s), %zu refused\n",
		o->rev, o->ref ? " against " : "", o->ref ? o->ref : "",
		o->space.seed, done - o->resumed, wall,
		wall > 0 ? (double)(done - o->resumed) / wall : 0, where, refused);
	if (o->engine.resubmitted)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"  slurm: %d array task%s submitted again (failed or vanished)\n",
			o->engine.resubmitted,
			o->engine.resubmitted == 1 ? "" : "s");
	if (o->resumed)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"  continuing a hunt of %zu cases: %zu in all\n",
			o->resumed, done);
	if (o->oracle)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"  oracle %s: %zu cases run again as its variant\n",
			hunt_oracle_name(o->oracle), varied);
	for (k = HUNT_NR_CHECKS - 1; k > 0; k--)
		if (per[k])
			len += (size_t)snprintf(text + len, sizeof(text) - len,
				"  %-20s %zu cases\n", hunt_check_name(k), per[k]);
	if (nsig)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"\n%4s  %-18s %6s %6s  %s\n", "RANK", "CHECK", "CASES",
			"FIRST", "SIGNATURE");
	for (i = 0; i < nsig && len < sizeof(text) - 512; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"%4zu  %-18s %6zu %6llu  %s\n", i + 1,
			hunt_check_name(sigs[i].check), sigs[i].count,
			sigs[i].first, sigs[i].signature);
	if (cJSON_GetArraySize(findings))
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"\nfindings (minimal cases) in %s/findings\n", o->out);
	fputs(text, stdout);
	write_text(o->out, "hunt.txt", text);

	cJSON_AddStringToObject(j, "revision", o->rev);
	cJSON_AddStringToObject(j, "commit", o->t.commit);
	if (o->ref)
		cJSON_AddStringToObject(j, "reference", o->ref);
	cJSON_AddNumberToObject(j, "seed", (double)o->space.seed);
	cJSON_AddItemToObject(j, "topologies", cJSON_CreateStringArray(o->topo, o->ntopo));
	cJSON_AddNumberToObject(j, "duration_ns", (double)o->space.duration_ns);
	cJSON_AddItemToObject(j, "identity", identity(o));
	cJSON_AddNumberToObject(j, "cases", (double)done);
	cJSON_AddNumberToObject(j, "cases_run", (double)(done - o->resumed));
	cJSON_AddNumberToObject(j, "refused", (double)refused);
	if (o->oracle) {	/* of the cases run this time */
		cJSON_AddStringToObject(j, "oracle", hunt_oracle_name(o->oracle));
		cJSON_AddNumberToObject(j, "oracle_runs", (double)varied);
	}
	cJSON_AddNumberToObject(j, "wall_s", wall);
	cJSON_AddNumberToObject(j, "cases_per_s",
				wall > 0 ? (double)(done - o->resumed) / wall : 0);
	add_done(j, recs, n);
	cJSON_AddNumberToObject(j, "jobs", o->jobs);
	if (o->engine.slurm) {	/* a local hunt's file stays as it was */
		cJSON_AddStringToObject(j, "engine", "slurm");
		cJSON_AddNumberToObject(j, "slurm_tasks", o->slurm_tasks);
		cJSON_AddNumberToObject(j, "resubmitted", o->engine.resubmitted);
	}
	cJSON_AddBoolToObject(j, "interrupted", interrupted != 0);
	cJSON_AddTrueToObject(j, "complete");
	c = cJSON_AddObjectToObject(j, "checks");
	for (k = 1; k < HUNT_NR_CHECKS; k++)
		cJSON_AddNumberToObject(c, hunt_check_name(k), (double)per[k]);
	c = cJSON_AddArrayToObject(j, "failures");
	for (i = 0; i < nsig; i++) {
		s = cJSON_CreateObject();
		cJSON_AddStringToObject(s, "signature", sigs[i].signature);
		cJSON_AddStringToObject(s, "check", hunt_check_name(sigs[i].check));
		cJSON_AddNumberToObject(s, "cases", (double)sigs[i].count);
		cJSON_AddNumberToObject(s, "first_case", (double)sigs[i].first);
		cJSON_AddNumberToObject(s, "worst", sigs[i].worst);
		cJSON_AddItemToArray(c, s);
	}
	cJSON_AddItemReferenceToObject(j, "findings", findings);
	snprintf(path, sizeof(path), "%s/hunt.json", o->out);
	k = lsb_write_json(path, j);
	cJSON_Delete(j);
	return k;
}

/*
 * Of the cases failing as @s, the one with the fewest tasks (the first of
 * those): the smallest start makes the smallest minimal case, in fewer
 * runs.
 */
static unsigned long long smallest_case(const struct hunt_opts *o,
					const struct rec *recs, size_t n,
					const struct sig *s)
{
	unsigned long long best = s->first;
	struct hunt_case c;
	int tasks, fewest = -1;
	size_t i;

	for (i = s->first; i < n; i++) {
		if (strcmp(recs[i].signature, s->signature) ||
		    hunt_generate(&c, &o->space, i))
			continue;
		tasks = hunt_case_tasks(&c);
		hunt_case_release(&c);
		if (fewest < 0 || tasks < fewest) {
			fewest = tasks;
			best = i;
		}
	}
	return best;
}

/*
 * On how many of HUNT_SEEDS simulator seeds (1, the hunt's, and more)
 * minimal case @c fails as @sig: a failure that one seed deals and the
 * next takes back (which instance waits where, the phase of the
 * balancers against the tick) is luck more than a change of the kernel's.
 * Return: the count (at least 1: seed 1 is the shrink's), or -1 on an
 * error.
 */
static int new_on_seeds(const struct hunt_opts *o, const struct hunt_case *c,
			const char *sig)
{
	struct hunt_verdict v;
	struct hunt_case s;
	char why[2048], work[4200];
	unsigned long long seed;
	int used, ret, n = 1;

	snprintf(work, sizeof(work), "%s/work/seed", o->out);
	for (seed = 2; seed <= HUNT_SEEDS; seed++) {
		if (hunt_case_copy(&s, c))
			return -1;
		s.seed = seed;
		ret = judge_case(o, &s, work, HUNT_CLEAN, &v, why, sizeof(why),
				 &used, NULL);
		hunt_case_release(&s);
		if (ret == DRIVER_ERROR)
			return -1;
		n += ret == DRIVER_OK && !strcmp(v.signature, sig);
	}
	return n;
}

/* shrink and write the @o->findings highest ranked failures */
static int findings(struct hunt_opts *o, const struct rec *recs,
		    size_t n, const struct sig *sigs, size_t nsig, cJSON *list)
{
	struct hunt_case orig, c;
	struct hunt_verdict v;
	char why[2048], work[4200];
	unsigned long long start;
	size_t i;
	int runs, seeds, ret = 0;

	snprintf(work, sizeof(work), "%s/work/shrink", o->out);
	for (i = 0; i < nsig && (int)i < o->findings && !ret; i++) {
		start = smallest_case(o, recs, n, &sigs[i]);
		if (hunt_generate(&orig, &o->space, start) ||
		    hunt_case_copy(&c, &orig))
			return -1;
		fprintf(stderr, "hunt: shrinking %s (case %llu, %d tasks)\n",
			sigs[i].signature, start, hunt_case_tasks(&c));
		ret = judge_case(o, &c, work, HUNT_CLEAN, &v, why, sizeof(why),
				 &runs, NULL);
		if (ret == DRIVER_OK && strcmp(v.signature, sigs[i].signature))
			/* not the tool's death: say it, shrink the others */
			fprintf(stderr, "warning: case %llu fails as %s now, not as %s (another version of the simulator judged it?): not shrunk\n",
				start, v.signature, sigs[i].signature);
		else if (ret == DRIVER_OK)
			ret = shrink(o, &c, sigs[i].signature, sigs[i].check,
				     &runs, &v) ||
			      (seeds = new_on_seeds(o, &c, sigs[i].signature)) < 0 ||
			      write_finding(o, &sigs[i], (int)i + 1, start, &orig,
					    &c, &v, runs, seeds, list);
		hunt_case_release(&orig);
		hunt_case_release(&c);
	}
	return ret ? -1 : 0;
}

/* --case N: the case, as the hunt would run it */
static int show_case(const struct hunt_opts *o)
{
	struct hunt_case c;
	char comment[HUNT_TOPOLOGY_MAX + 200], *text;

	if (hunt_generate(&c, &o->space, (unsigned long long)o->show_case))
		return 1;
	snprintf(comment, sizeof(comment),
		 "case %d of seed %llu: --topology %s --duration %lluns, %d tasks",
		 o->show_case, o->space.seed, c.topology, c.duration_ns,
		 hunt_case_tasks(&c));
	text = hunt_case_text(&c, comment);
	hunt_case_release(&c);
	if (!text)
		return 1;
	fputs(text, stdout);
	free(text);
	return 0;
}

/* a case of cases.jsonl into @recs (marked run already) */
static int load_case(const cJSON *l, struct rec *recs, size_t n)
{
	const cJSON *i = cJSON_GetObjectItem(l, "case");
	const char *check = cJSON_GetStringValue(cJSON_GetObjectItem(l, "check"));
	const char *sig = cJSON_GetStringValue(cJSON_GetObjectItem(l, "signature"));
	const char *detail = cJSON_GetStringValue(cJSON_GetObjectItem(l, "detail"));
	struct rec *r;
	int k;

	if (!cJSON_IsNumber(i) || i->valuedouble < 0 ||
	    i->valuedouble >= (double)n || !check || !sig)
		return -1;
	r = &recs[(size_t)i->valuedouble];
	r->check = -1;
	for (k = 0; k < HUNT_NR_CHECKS; k++)
		if (!strcmp(check, hunt_check_name(k)))
			r->check = k;
	if (r->check < 0 && strcmp(check, "refused"))
		return -1;
	r->magnitude = cJSON_GetNumberValue(cJSON_GetObjectItem(l, "magnitude"));
	snprintf(r->signature, sizeof(r->signature), "%s", sig);
	snprintf(r->detail, sizeof(r->detail), "%s", detail ? detail : "");
	return 0;
}

/*
 * --continue: the cases of the hunt in @o->out, which must have been made
 * with the same identity(), into *@recs.
 */
static int load_previous(struct hunt_opts *o, struct rec **recs, size_t *n)
{
	char path[4300], *text = NULL, *line, *save = NULL;
	cJSON *j = NULL, *id = identity(o), *l;
	const cJSON *below, *x;
	size_t cap = 0, i;
	int ret = -1, check;

	snprintf(path, sizeof(path), "%s/hunt.json", o->out);
	text = lsb_read_file(path, NULL);
	j = text ? cJSON_Parse(text) : NULL;
	free(text);
	text = NULL;
	below = cJSON_GetObjectItem(j, "done_below");
	if (!j || !cJSON_IsNumber(below)) {
		fprintf(stderr, "error: %s: no hunt to continue (%s)\n", path,
			j ? "no done_below" : strerror(errno));
		goto out;
	}
	if (!cJSON_Compare(cJSON_GetObjectItem(j, "identity"), id, 1)) {
		fprintf(stderr, "error: %s: a hunt of other revisions, seed, machines or checks; it continues with the options it was made with (its \"identity\")\n",
			path);
		goto out;
	}
	*n = (size_t)below->valuedouble;
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(j, "done_beyond")) {
		if (x->valuedouble + 1 > (double)*n)
			*n = (size_t)x->valuedouble + 1;
	}
	if (lsb_grow(recs, &cap, *n + 1, sizeof(**recs)))
		goto out;
	for (i = 0; i < *n; i++)
		(*recs)[i] = (struct rec){ i < below->valuedouble ? 0 : -2, 0,
					   "clean", "", 0 };
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(j, "done_beyond")) {
		(*recs)[(size_t)x->valuedouble].check = 0;
	}
	snprintf(path, sizeof(path), "%s/cases.jsonl", o->out);
	text = lsb_read_file(path, NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		l = cJSON_Parse(line);
		if (!l || load_case(l, *recs, *n)) {
			cJSON_Delete(l);
			fprintf(stderr, "error: %s: a line that is not a case of the hunt: %.80s\n",
				path, line);
			goto out;
		}
		cJSON_Delete(l);
	}
	free(text);
	snprintf(path, sizeof(path), "%s/cases.partial", o->out);
	text = lsb_read_file(path, NULL);	/* a killed search's cases */
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (put_rec(recs, n, &cap, line, &check)) {
			fprintf(stderr, "error: %s: a line that is not a case of the hunt: %.80s\n",
				path, line);
			goto out;
		}
	}
	for (i = 0; i < *n; i++) {
		o->resumed += (*recs)[i].check != -2;
		(*recs)[i].varied = 0;	/* oracle_runs: of this run's cases */
	}
	ret = 0;
out:
	free(text);
	cJSON_Delete(j);
	cJSON_Delete(id);
	return ret;
}

static int prepare(struct hunt_opts *o)
{
	char dir[4300], name[200];
	int ret;

	if (!o->repo)
		o->repo = o->paths.repo;
	if (!o->out[0]) {
		hunt_signature_file(name, sizeof(name), o->rev);
		if (snprintf(o->out, sizeof(o->out), "%s/hunt/%s",
			     o->paths.data_dir, name) >= (int)sizeof(o->out)) {
			fprintf(stderr, "error: %s: a path too long\n", o->paths.data_dir);
			return 1;
		}
	}
	if (cmd_out_dir(o->out, "linsched hunt"))
		return 1;
	snprintf(dir, sizeof(dir), "%s/work", o->out);
	if (lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/findings", o->out);
	lsb_rm_rf(dir);
	ret = cmd_target_prepare(&o->t, &o->paths, o->repo, o->rev, o->jobs,
				 o->verbose);
	if (!ret && o->ref)
		ret = cmd_target_prepare(&o->r, &o->paths, o->repo, o->ref,
					 o->jobs, o->verbose);
	return ret;
}

/*
 * --engine slurm: the search as Slurm job arrays (driver_slurm_array()),
 * in batches. A batch's directory, OUT/work/slurm/B, holds batch.json:
 * the hunt's options as given, its machines, the prepared revisions, its
 * identity() and the cases to run; array task K of T runs the cases at
 * K, K + T, ... of that list ('linsched hunt-worker DIR K'), each record
 * a line of DIR/task-K.recs (the lines the local workers send), and
 * writes DIR/task-K.done last. The hunt then reads the records in, as
 * the local search does: a case's record is a function of the hunt's
 * options and the case's number wherever it ran.
 */

/* cases per array task in a batch when --time bounds the hunt */
#define HUNT_SLURM_BATCH 16
/* cases in a batch at most otherwise (batch.json's size) */
#define HUNT_SLURM_MAX 100000

#define HUNT_BATCH_VERSION 1

static int add_target(cJSON *j, const char *key, const struct driver_target *t)
{
	cJSON *o = driver_target_json(t);

	return o ? !cJSON_AddItemToObject(j, key, o) : -1;
}

static int write_batch(const struct hunt_opts *o, const char *dir,
		       const unsigned long long *cases, size_t nc, int ntasks)
{
	cJSON *j = cJSON_CreateObject(), *a;
	char path[4400], cwd[4096];
	size_t i;
	int ret;

	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	cJSON_AddNumberToObject(j, "hunt_batch", HUNT_BATCH_VERSION);
	cJSON_AddStringToObject(j, "cwd", cwd);
	cJSON_AddItemToObject(j, "argv", cJSON_CreateStringArray(
		(const char *const *)o->argv, o->argc));
	cJSON_AddItemToObject(j, "topologies",
			      cJSON_CreateStringArray(o->topo, o->ntopo));
	cJSON_AddItemToObject(j, "identity", identity(o));
	ret = add_target(j, "target", &o->t);
	if (!ret && o->ref)
		ret = add_target(j, "reference", &o->r);
	cJSON_AddNumberToObject(j, "tasks", ntasks);
	a = cJSON_AddArrayToObject(j, "cases");
	for (i = 0; i < nc; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)cases[i]));
	snprintf(path, sizeof(path), "%s/batch.json", dir);
	if (!ret)
		ret = lsb_write_json(path, j);
	cJSON_Delete(j);
	return ret;
}

/* what the progress line of a batch knows */
struct batch_progress {
	const struct hunt_opts *o;
	size_t done;	/* the hunt's records before the batch */
	double start;
	int tty;
};

static void batch_progress(size_t done, size_t total, size_t ran, void *arg)
{
	struct batch_progress *p = arg;
	const struct driver_engine *e = &p->o->engine;

	(void)total;
	(void)ran;
	if (p->tty)
		fprintf(stderr, "\rhunt: %zu cases, slurm: %d of %d array tasks done, %d running, %d pending, %.0f s\033[K",
			p->done + done, e->task_done, e->task_total,
			e->task_running, e->task_pending, lsb_now() - p->start);
}

/*
 * The records array tasks wrote in @dir into *@recs and @partial;
 * *@done and *@bad counted up. An incomplete last line (a task killed
 * while it wrote) is not a record.
 */
static int read_batch(const struct hunt_opts *o, const char *dir, int ntasks,
		      struct rec **recs, size_t *n, size_t *cap, FILE *partial,
		      size_t *done, size_t *bad)
{
	char path[4400], *text, *line, *end;
	int k, check, ret = 0;

	(void)o;
	for (k = 0; k < ntasks; k++) {
		snprintf(path, sizeof(path), "%s/task-%d.recs", dir, k);
		text = lsb_read_file(path, NULL);
		for (line = text; line && (end = strchr(line, '\n')); line = end + 1) {
			*end = '\0';
			if (partial && (fprintf(partial, "%s\n", line) < 0 ||
					fflush(partial)))
				ret = -1;
			if (put_rec(recs, n, cap, line, &check)) {
				fprintf(stderr, "error: %s: a line that is not a case of the hunt: %.80s\n",
					path, line);
				ret = -1;
				break;
			}
			(*done)++;
			*bad += check > 0;
		}
		free(text);
	}
	return ret;
}

/*
 * One batch: the cases @cases[0..@nc) on @ntasks array tasks, their
 * records read in. Return: 0, 1 when stopped, -1 on an error (said).
 */
static int run_batch(struct hunt_opts *o, int b, const unsigned long long *cases,
		     size_t nc, int ntasks, struct rec **recs, size_t *n,
		     size_t *cap, FILE *partial, size_t *done, size_t *bad,
		     double start)
{
	struct batch_progress bp = { o, *done, start, isatty(2) };
	struct driver_array a = { .worker = "hunt-worker",
				  .name = "lsbisect-hunt" };
	char dir[4300], shared[8800];
	size_t *size = calloc((size_t)ntasks, sizeof(*size)), i;
	int ret;

	snprintf(dir, sizeof(dir), "%s/work/slurm/%d", o->out, b);
	lsb_rm_rf(dir);
	if (!size || lsb_mkdir_p(dir) || write_batch(o, dir, cases, nc, ntasks)) {
		fprintf(stderr, "error: %s: %s\n", dir, strerror(errno));
		free(size);
		return -1;
	}
	for (i = 0; i < nc; i++)
		size[i % (size_t)ntasks]++;
	snprintf(shared, sizeof(shared),
		 "the hunt's directory '%s' or run the builds of the cache directory '%s'",
		 o->out, o->paths.cache_dir);
	a.dir = dir;
	a.shared = shared;
	a.ntasks = ntasks;
	a.size = size;
	a.probe = b == 0;	/* the first batch's nodes stand for all */
	a.total = nc;
	ret = driver_slurm_array(&a, &o->engine, batch_progress, &bp);
	if (bp.tty)
		fputs("\r\033[K", stderr);
	free(size);
	if (ret < 0)
		fprintf(stderr, "error: %s\n", driver_last_error());
	/* what the tasks did is kept, also when one failed or was stopped */
	if (read_batch(o, dir, ntasks, recs, n, cap, partial, done, bad))
		ret = -1;
	if (ret >= 0)	/* kept when something failed, to look at */
		lsb_rm_rf(dir);
	return ret;
}

/* the search through Slurm, in batches: as search() does */
static int search_slurm(struct hunt_opts *o, struct rec **recs, size_t *n,
			double *wall)
{
	size_t cap = *n, done = 0, bad = 0, nc, want, todo = 0, i;
	unsigned long long next = 0, *cases = NULL;
	double start = lsb_now(), last = start;
	int ntasks, b = 0, ret = 0, r, tty = isatty(2);
	char path[4300];
	FILE *partial;

	if (o->time_s)
		o->deadline = start + o->time_s;
	for (i = 0; o->runs && i < (size_t)o->runs; i++)
		todo += i >= *n || (*recs)[i].check == -2;
	ntasks = driver_slurm_tasks(&o->engine, o->runs ? todo : (size_t)-1);
	if (ntasks < 0) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return -1;
	}
	o->slurm_tasks = ntasks;
	want = o->time_s ? (size_t)ntasks * HUNT_SLURM_BATCH : HUNT_SLURM_MAX;
	cases = malloc(want * sizeof(*cases));
	if (!cases) {
		fprintf(stderr, "error: out of memory\n");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cases.partial", o->out);
	partial = fopen(path, "a");	/* what a kill would lose otherwise */
	if (!partial)
		fprintf(stderr, "warning: %s: %s: a kill would lose the cases run\n",
			path, strerror(errno));
	catch_stops(1);
	o->engine.stop = &interrupted;
	while (!interrupted && !(o->deadline && lsb_now() > o->deadline)) {
		for (nc = 0; nc < want && (!o->runs ||
					   next < (unsigned long long)o->runs); next++)
			if (next >= *n || (*recs)[next].check == -2)
				cases[nc++] = next;
		if (!nc)
			break;
		r = run_batch(o, b++, cases, nc,
			      nc < (size_t)ntasks ? (int)nc : ntasks, recs, n,
			      &cap, partial, &done, &bad, start);
		if (r < 0)
			ret = -1;
		if (r)
			break;
		if (lsb_now() - last >= (tty ? 1 : 60)) {
			last = lsb_now();
			progress(o, done, bad, start, tty, 0);
		}
	}
	o->engine.stop = NULL;
	catch_stops(0);
	if (partial && fclose(partial)) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	free(cases);
	snprintf(path, sizeof(path), "%s/work/slurm", o->out);
	rmdir(path);	/* empty unless a batch failed, to look at */
	progress(o, done, bad, start, tty, 1);
	*wall = lsb_now() - start;
	return ret;
}

static const char usage_worker[] =
"usage: linsched hunt-worker [--probe] DIR TASK\n"
"\n"
"Internal: what one Slurm array task of 'linsched hunt --engine slurm'\n"
"runs. Reads the batch directory DIR (batch.json), runs the cases TASK,\n"
"TASK + tasks, ... of its list and writes their records to\n"
"DIR/task-TASK.recs, then DIR/task-TASK.done. With --probe it only checks\n"
"that this node can read DIR, write there and run the builds, and writes\n"
"DIR/probe.ok.\n";

/* a batch's hunt, as its batch.json says, into @o; -1 when it cannot be */
static int load_batch(struct hunt_opts *o, cJSON *j, const char *path)
{
	const cJSON *a = cJSON_GetObjectItem(j, "argv"), *x;
	static char *argv[256];
	cJSON *id;
	int argc = 0, ret;

	if (cJSON_GetNumberValue(cJSON_GetObjectItem(j, "hunt_batch")) !=
	    HUNT_BATCH_VERSION || !cJSON_IsArray(a) ||
	    cJSON_GetArraySize(a) >= 255 ||
	    !cJSON_GetStringValue(cJSON_GetObjectItem(j, "cwd"))) {
		fprintf(stderr, "error: %s: not a batch of this version of the hunt\n",
			path);
		return -1;
	}
	if (chdir(cJSON_GetStringValue(cJSON_GetObjectItem(j, "cwd")))) {
		fprintf(stderr, "error: %s: %s\n",
			cJSON_GetStringValue(cJSON_GetObjectItem(j, "cwd")),
			strerror(errno));
		return -1;
	}
	cJSON_ArrayForEach(x, a) {
		argv[argc++] = cJSON_GetStringValue(x);
		if (!argv[argc - 1])
			return -1;
	}
	argv[argc] = NULL;
	optind = 0;
	if (parse_opts(o, argc, argv))
		return -1;
	/* the machines as the hunt resolved them (a FIFO is read once) */
	a = cJSON_GetObjectItem(j, "topologies");
	o->ntopo = 0;
	cJSON_ArrayForEach(x, a) {
		if (o->ntopo == MAX_TOPO || !cJSON_GetStringValue(x))
			return -1;
		o->topo[o->ntopo++] = cJSON_GetStringValue(x);
	}
	if (machines(o) ||
	    driver_target_from_json(&o->t, cJSON_GetObjectItem(j, "target")))
		return -1;
	if (o->ref && driver_target_from_json(&o->r,
					      cJSON_GetObjectItem(j, "reference")))
		return -1;
	id = identity(o);
	ret = cJSON_Compare(id, cJSON_GetObjectItem(j, "identity"), 1);
	cJSON_Delete(id);
	if (!ret) {
		fprintf(stderr, "error: %s: this linsched draws or judges the cases otherwise than the hunt's (another version on this node?)\n",
			path);
		return -1;
	}
	return 0;
}

/* a node can run @t's simulator: its executable is there */
static int can_run(const struct driver_target *t)
{
	if (!t->exe || !access(t->exe, X_OK))
		return 0;
	fprintf(stderr, "error: %s: %s\n", t->exe, strerror(errno));
	return -1;
}

static int hunt_worker(struct hunt_opts *o, const char *dir, int task,
		       int probe)
{
	char path[4400], work[4400], line[4096], host[256] = "?", *text;
	const cJSON *cases, *x;
	cJSON *j;
	int fd, ntasks, k = 0, len, ret = -1;

	gethostname(host, sizeof(host) - 1);
	snprintf(path, sizeof(path), "%s/batch.json", dir);
	text = lsb_read_file(path, NULL);
	j = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!j) {
		fprintf(stderr, "error: node %s cannot read the batch '%s': %s\n",
			host, path, errno ? strerror(errno) : "not JSON");
		return -1;
	}
	if (load_batch(o, j, path))
		goto out;
	if (probe) {
		snprintf(path, sizeof(path), "%s/probe.ok", dir);
		if (can_run(&o->t) || (o->ref && can_run(&o->r)))
			goto out;
		if (lsb_write_atomic(path, host, strlen(host))) {
			fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
			goto out;
		}
		ret = 0;
		goto out;
	}
	ntasks = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(j, "tasks"));
	cases = cJSON_GetObjectItem(j, "cases");
	if (ntasks < 1 || task >= ntasks || !cJSON_IsArray(cases)) {
		fprintf(stderr, "error: %s: no array task %d\n", path, task);
		goto out;
	}
	/* a task submitted again starts over: its records are its own */
	snprintf(path, sizeof(path), "%s/task-%d.recs", dir, task);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
		goto out;
	}
	snprintf(work, sizeof(work), "%s/w%d", dir, task);
	cJSON_ArrayForEach(x, cases) {
		if (k++ % ntasks != task)
			continue;
		len = case_line(o, (unsigned long long)x->valuedouble, work,
				line, sizeof(line));
		if (len < 0 || write(fd, line, (size_t)len) != len) {
			if (len >= 0)
				fprintf(stderr, "error: %s: %s\n", path,
					strerror(errno));
			close(fd);
			goto out;
		}
	}
	if (close(fd)) {
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/task-%d.done", dir, task);
	if (lsb_write_atomic(path, host, strlen(host)))
		fprintf(stderr, "error: %s: %s\n", path, strerror(errno));
	else
		ret = 0;
out:
	cJSON_Delete(j);
	return ret;
}

int cmd_hunt_worker(int argc, char **argv)
{
	struct hunt_opts o = { 0 };
	const char *dir;
	int probe, task, ret;

	ret = cmd_worker_args(argc, argv, usage_worker, &dir, &task, &probe);
	if (ret >= 0)
		return ret;
	ret = hunt_worker(&o, dir, task, probe) ? 1 : 0;
	driver_target_release(&o.t);
	driver_target_release(&o.r);
	return ret;
}

int cmd_hunt(int argc, char **argv)
{
	struct hunt_opts o = { 0 };
	struct rec *recs = NULL;
	struct sig *sigs = NULL;
	size_t n = 0, nsig = 0;
	cJSON *list = cJSON_CreateArray();
	char partial[4200];
	double wall = 0;
	int ret;

	ret = parse_opts(&o, argc, argv);
	if (!ret)
		ret = machines(&o);
	if (!ret && o.show)
		return show_case(&o);
	if (!ret && driver_paths_init(&o.paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = 1;
	}
	/* a cluster that does not answer is said before anything is built */
	if (!ret && o.engine.slurm && driver_slurm_tasks(&o.engine, 1) < 0) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		ret = 1;
	}
	if (!ret)
		ret = prepare(&o);
	if (!ret && o.resume && load_previous(&o, &recs, &n))
		ret = 1;
	if (!ret && checkpoint(&o, recs, n))
		ret = 1;
	if (!ret && o.engine.slurm) {
		if (search_slurm(&o, &recs, &n, &wall))
			ret = 1;	/* said: the engine's words */
	} else if (!ret && search(&o, &recs, &n, &wall)) {
		fprintf(stderr, "error: the search failed: a simulator run could not be made or read\n");
		ret = 1;
	}
	if (!ret && (rank(recs, n, &sigs, &nsig) || write_cases(&o, recs, n)))
		ret = 1;
	if (!ret && !interrupted && findings(&o, recs, n, sigs, nsig, list))
		ret = 1;
	if (!ret && report(&o, recs, n, sigs, nsig, wall, list))
		ret = 1;
	if (!ret)	/* cases.jsonl and hunt.json have every case now */
		unlink(strcat(strcpy(partial, o.out), "/cases.partial"));
	if (!ret && interrupted) {
		fprintf(stderr, "hunt: stopped by signal %d: the cases run are in %s, not shrunk\n",
			(int)interrupted, o.out);
		ret = 128 + interrupted;
	} else if (!ret && cJSON_GetArraySize(list)) {
		ret = 7;
	}
	cJSON_Delete(list);
	free(recs);
	free(sigs);
	driver_target_release(&o.t);
	driver_target_release(&o.r);
	if (o.work > 0)
		driver_target_release(&o.w);
	return ret;
}
