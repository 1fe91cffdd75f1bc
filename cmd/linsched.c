// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched - run a kernel revision's own scheduler on a simulated machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bisect/bisect.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "plots/plots.h"
#include "sim/sim.h"

static const char usage_main[] =
"usage: linsched <command> [options]\n"
"\n"
"Run the real scheduler code of Linux kernel revisions, deterministically,\n"
"on simulated machines.\n"
"\n"
"commands:\n"
"  run REV       build revision REV and run a workload on it\n"
"  build REV     build revision REV and print its simulator executable\n"
"  domains REV   print the sched domains REV builds for a machine\n"
"  kernels       make the bundled kernel history from Debian's packages\n"
"  topology      list, show or capture (--from-sysfs) machines\n"
"  suite         list, write or run the workload suite\n"
"  timeline REV  draw which task ran when on each CPU, with idle states\n"
"                and frequency (gnuplot)\n"
"  score TRACE   the scores of a trace: a run's own, or a real kernel's\n"
"                (tracefs, trace-cmd), as 'run --json' gives them\n"
"  classes A..B  list the commits of a range with their build subset\n"
"                hashes and classes (what lsbisect and trend run)\n"
"  trend A..B    run every revision of a range and draw how balance,\n"
"                energy and other metrics move along it (gnuplot)\n"
"  report A B    a release regression report: the suite on two revisions\n"
"                over several machines, ranked changes, plots (HTML, text)\n"
"  check [BASE]  the pre-submit gate: a clone's uncommitted changes or a\n"
"                patch series through the suite against BASE (JUnit, TAP)\n"
"  sweep REV...  run revisions x workloads x topologies x seeds into the\n"
"                result cache, here or on a Slurm cluster\n"
"  sweep-worker  internal: one Slurm array task of a sweep\n"
"  bugs          the catalogue of real upstream scheduler bugs: list, show,\n"
"                run the buggy and fixed kernels side by side\n"
"  hunt REV      search a revision for unreported scheduler bugs: random\n"
"                cases, invariants, WARNs and crashes, each failure shrunk\n"
"                to a minimal workload\n"
"  hunt-worker   internal: one Slurm array task of a hunt\n"
"  coverage REV  line coverage of kernel/sched/*.c (gcov) over the suite\n"
"                or given workloads, with the biggest functions never run\n"
"  vm REV        the same release as a real kernel in QEMU, running the\n"
"                workload with rt-app: its trace and tasks' CPU times\n"
"\n"
"Run 'linsched <command> --help' for a command's options.\n"
"Environment: LSBISECT_REPO (default repository), LSBISECT_CACHE (builds),\n"
"LSBISECT_INSTRUMENT (build variant: work, coverage), LSBISECT_REUSE=0 (every\n"
"build a full kbuild, none made from a built neighbour's objects).\n";

static const char usage_run[] =
"usage: linsched run REV --workload W --topology T [options]\n"
"\n"
"Build revision REV of the kernel repository (cached) and run the workload\n"
"on the machine with the revision's own scheduler.\n"
"\n"
"  -r, --repo R        kernel repository (default: the bundled history,\n"
"                      %s)\n"
"  -w, --workload W    an rt-app JSON file, or task groups, e.g. 'hog*8' or\n"
"                      'periodic*32:run=1ms:sleep=9ms+hog*2:cpus=0-1'\n"
"  -t, --topology T    a preset ('linsched topology list'), a JSON file or\n"
"                      a shape PxCxT\n"
"  -d, --duration D    simulated time: 10s, 500ms, 100us, or a bare number\n"
"                      of seconds (default: an rt-app file's\n"
"                      global.duration, else 10s)\n"
"  -s, --seed S        seed of every random choice (default 1)\n"
"      --jitter F      vary each run event's work by up to +-F, uniformly,\n"
"                      drawn from the seed: a fraction 0-0.5 or a\n"
"                      percentage ('1%%'); default 0 (exact work: identical\n"
"                      periodic tasks stay in lockstep)\n"
"      --trace FILE    write sched and idle events in ftrace text format, or\n"
"                      trace-cmd's binary trace.dat when FILE ends in .dat\n"
"                      (trace-cmd report, KernelShark, linsched score)\n"
"      --trace-format F text or dat: --trace's format, whatever its name\n"
"      --trace-events E also trace these frequent ones (off by default):\n"
"                      sched_stat_runtime, nr_running and pelt (Perfetto\n"
"                      counters), comma-separated, or all\n"
"      --json FILE     write the results as JSON ('-': standard output)\n"
"      --log FILE      write the kernel log\n"
"      --timeout S     wall-clock limit of the simulation (default 600)\n"
"      --fatal-warnings  a kernel WARN ends the run as a crash\n"
"  -j, --jobs N        parallel build jobs (default 2)\n"
"  -v, --verbose       show kbuild's output\n"
"  -q, --quiet         no summary table (it is printed unless --json -)\n"
"      --no-metrics    leave out the load-balance scores (balance score, work\n"
"                      conservation, wakeup latency, migrations per domain\n"
"                      level, fairness: metrics/README.md); ~10 %% faster\n"
"      --governor G    who sets the frequency of CPUs with OPPs: schedutil\n"
"                      (the revision's own, default), performance, powersave\n"
"      --no-energy-model  keep the OPPs out of the kernel's energy model\n"
"                      (no energy-aware placement)\n"
"      --cpuidle G     who picks idle states: the revision's cpuidle governor\n"
"                      (default: its highest-rated, menu), menu, teo,\n"
"                      ladder, poll (no idle states, no exit latency) or\n"
"                      sim (the simulator's model of menu)\n"
"      --cmdline S     boot parameters for the kernel's own handlers:\n"
"                      isolcpus=[domain,managed_irq,]CPULIST (instead of\n"
"                      the topology's \"cmdline\"); each flag in one\n"
"                      isolcpus= only, as the kernel refuses a second\n"
"      --window D      the idle-while-waiting invariant's window (default:\n"
"                      2 ms per CPU, a tick and two idle exits, the\n"
"                      kernel's longest balance interval; 4ms after a\n"
"                      fork that placed the task there)\n"
"      --starvation D  the starvation invariant's bound (default 1s)\n"
"      --check         a violated invariant (an idle CPU beside a task that\n"
"                      may run there, longer than the window; a runnable\n"
"                      task not run for longer than the bound; a waiting\n"
"                      task moved to a busier CPU; a kernel WARN) is a\n"
"                      failure: its first occurrence is printed with the\n"
"                      trace around it, and the exit status is 7\n"
INSTRUMENT_USAGE
"  -h, --help          this text\n"
"\n"
"Exit status: 0 ran, 1 error, 2 usage, 3 the revision does not build,\n"
"4 the kernel crashed (BUG, panic, signal), 5 hang or time-out,\n"
"6 no adapter covers the revision, 7 an invariant was violated (--check).\n";

static const char usage_build[] =
"usage: linsched build REV [--repo R] [--jobs N] [--verbose] [--instrument V]\n"
"\n"
"Build revision REV (cached by its build subset, the adapter and the\n"
"compiler) and print the path of its simulator executable, which runs on\n"
"its own and under gdb ('--help' lists its options).\n"
"\n"
INSTRUMENT_USAGE;

static struct driver_paths paths;

static cJSON *json_first(const cJSON *root, const char *array)
{
	const cJSON *a = cJSON_GetObjectItem(root, array);

	return a ? a->child : NULL;
}

static double num(const cJSON *o, const char *key)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(o, key));
}

/* Time-weighted mean frequency of one CPU in MHz, 0 when fixed. */
static double mean_mhz(const cJSON *freqs)
{
	const cJSON *it;
	double t = 0, w = 0;

	cJSON_ArrayForEach(it, freqs) {
		t += it->valuedouble;
		w += it->valuedouble * atof(it->string) / 1000;
	}
	return t > 0 ? w / t : 0;
}

/* The idle state a CPU spent most time in, and the share of time. */
static const char *main_state(const cJSON *states, double dur, double *share)
{
	const cJSON *it, *best = NULL;

	cJSON_ArrayForEach(it, states)
		if (!best || it->valuedouble > best->valuedouble)
			best = it;
	*share = best ? 100.0 * best->valuedouble / dur : 0;
	return best ? best->string : "-";
}

/*
 * The kernel's WARNs of a result, when it had any: how many and the
 * first; @first_ns receives its time (-1 when none).
 */
static int print_warnings(const cJSON *root, double *first_ns)
{
	const cJSON *f = cJSON_GetObjectItem(root, "kernel_warning_first");
	double n = num(root, "kernel_warnings");

	*first_ns = -1;
	if (!(n > 0))
		return 0;
	printf("kernel WARN: %g", n);
	if (f) {
		*first_ns = num(f, "time_ns");
		printf("; the first at %.6f s: %s", *first_ns / 1e9,
		       cJSON_GetStringValue(cJSON_GetObjectItem(f, "message")));
	}
	printf(" (the kernel log has them: --log)\n");
	return 1;
}

static void summary(const char *json_path)
{
	FILE *f = fopen(json_path, "r");
	char *text;
	long len;
	cJSON *root, *it, *power, *metrics, *cpuidle;
	double dur, warn_ns;

	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, len + 1);
	if (!text || fread(text, 1, len, f) != (size_t)len) {
		free(text);
		fclose(f);
		return;
	}
	fclose(f);
	root = cJSON_Parse(text);
	free(text);
	if (!root)
		return;
	dur = cJSON_GetNumberValue(cJSON_GetObjectItem(root, "duration_ns"));
	printf("Linux %s on %s, %s, %.3f s simulated\n\n",
	       cJSON_GetStringValue(cJSON_GetObjectItem(root, "kernel_version")),
	       cJSON_GetStringValue(cJSON_GetObjectItem(root, "topology")),
	       cJSON_GetStringValue(cJSON_GetObjectItem(root, "workload")),
	       dur / 1e9);
	power = cJSON_GetObjectItem(root, "power");
	printf("%-5s %-10s %7s %8s %-12s %6s %10s\n", "cpu", "type", "busy%",
	       "avg-MHz", "idle-state", "%", "energy-mJ");
	for (it = json_first(root, "cpus"); it; it = it->next) {
		char id[16];
		const char *state;
		double mhz, share;

		snprintf(id, sizeof(id), "%d", (int)num(it, "id"));
		mhz = mean_mhz(cJSON_GetObjectItem(
			cJSON_GetObjectItem(power, "freq_residency"), id));
		state = main_state(cJSON_GetObjectItem(
			cJSON_GetObjectItem(power, "idle_residency"), id), dur,
			&share);
		printf("%-5s %-10s %7.2f ", id,
		       cJSON_GetStringValue(cJSON_GetObjectItem(it, "type")),
		       100.0 * num(it, "busy_ns") / dur);
		if (mhz > 0)
			printf("%8.0f ", mhz);
		else
			printf("%8s ", "fixed");
		printf("%-12s %6.2f %10.3f\n", state, share,
		       1000 * num(cJSON_GetObjectItem(power, "energy_j_per_cpu"),
				  id));
	}
	printf("\nenergy %.4f J, mean power %.4f W%s; %.1f idle entries/s\n",
	       num(power, "energy_j"), num(power, "mean_power_w"),
	       cJSON_IsTrue(cJSON_GetObjectItem(power, "energy_complete")) ?
	       "" : " (incomplete: some CPU types have no power figures)",
	       num(power, "idle_entries_per_s"));
	cpuidle = cJSON_GetObjectItem(root, "cpuidle");
	if (cpuidle)	/* the revision's governor picked: its core's counts */
		printf("cpuidle %s: %.0f entries, %.0f too deep, %.0f too shallow; tick stopped %.0f, kept %.0f\n",
		       cJSON_GetStringValue(cJSON_GetObjectItem(cpuidle,
								"governor")),
		       num(cpuidle, "usage"), num(cpuidle, "above"),
		       num(cpuidle, "below"), num(cpuidle, "tick_stopped"),
		       num(cpuidle, "tick_kept"));
	metrics = cJSON_GetObjectItem(root, "metrics");
	if (metrics)
		printf("balance score %.4g, work conservation %.4g, wakeup latency p99 %.0f us, fairness %.4f\n",
		       num(metrics, "balance_score"),
		       num(metrics, "work_conservation"),
		       num(cJSON_GetObjectItem(metrics, "wakeup_latency_ns"),
			   "p99") / 1000,
		       num(metrics, "fairness"));
	print_warnings(root, &warn_ns);
	printf("\n%-16s %6s %8s %10s %10s\n", "task", "pid", "cpu%",
	       "migrations", "switches");
	for (it = json_first(root, "tasks"); it; it = it->next)
		printf("%-16s %6d %8.2f %10.0f %10.0f\n",
		       cJSON_GetStringValue(cJSON_GetObjectItem(it, "name")),
		       (int)cJSON_GetNumberValue(cJSON_GetObjectItem(it, "pid")),
		       100.0 * cJSON_GetNumberValue(cJSON_GetObjectItem(it, "sum_exec_ns")) / dur,
		       cJSON_GetNumberValue(cJSON_GetObjectItem(it, "nr_migrations")),
		       cJSON_GetNumberValue(cJSON_GetObjectItem(it, "nr_switches")));
	cJSON_Delete(root);
}

/* linsched run's command line. */
struct run_opts {
	const char *repo, *workload, *topology, *governor, *cpuidle, *cmdline;
	const char *duration, *seed, *jitter, *trace, *json, *log;
	const char *window, *starvation, *trace_format, *trace_events;
	int jobs, verbose, timeout, fatal, quiet, metrics, no_em, check;
};

/* One option into @o: 0, or -1 after printing the error. */
static int run_option(struct run_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'r': o->repo = arg; break;
	case 'w': o->workload = arg; break;
	case 't':
		o->topology = arg;
		return cmd_topology_arg(&o->topology);
	case 'd': o->duration = arg; break;
	case 's': o->seed = arg; return cmd_opt_seed(arg, NULL);
	case 'Y': o->jitter = arg; return opt_jitter(arg, NULL, 0);
	case 'T': o->trace = arg; break;
	case 'J': o->json = arg; break;
	case 'L': o->log = arg; break;
	case 'O': return opt_int("--timeout", arg, 0, 1000000, &o->timeout);
	case 'F': o->fatal = 1; break;
	case 'j': return opt_int("--jobs", arg, 1, 256, &o->jobs);
	case 'v': o->verbose = 1; break;
	case 'q': o->quiet = 1; break;
	case 'M': o->metrics = 1; break;
	case 'N': o->metrics = 0; break;
	case 'G': o->governor = arg; return opt_governor(arg);
	case 'E': o->no_em = 1; break;
	case 'I': o->cpuidle = arg; return opt_cpuidle(arg);
	case 'B': o->cmdline = arg; break;
	case 'W': o->window = arg; return cmd_opt_duration("--window", arg);
	case 'X': o->starvation = arg; return cmd_opt_duration("--starvation", arg);
	case 'K': o->check = 1; break;
	case OPT_INSTRUMENT: return cmd_instrument(&paths, arg);
	case OPT_TRACE_FORMAT:
		o->trace_format = arg;
		if (sim_parse_trace_format(arg) >= 0)
			break;
		fprintf(stderr, "error: --trace-format '%s': %s\n", arg,
			SIM_TRACE_FORMAT_EXPECTED);
		return -1;
	case OPT_TRACE_EVENTS: {
		unsigned int bits;

		o->trace_events = arg;
		if (!sim_parse_trace_events(&bits, arg))
			break;
		fprintf(stderr, "error: --trace-events '%s': %s\n", arg,
			SIM_TRACE_EVENTS_EXPECTED);
		return -1;
	}
	default:
		fprintf(stderr, usage_run, paths.repo);
		return -1;
	}
	return 0;
}

/* The simulator's arguments after its identity; return their end. */
static int run_args(char **args, int n, const struct run_opts *o,
		    const char *json)
{
	const char *pairs[][2] = {
		{ "--topology", o->topology }, { "--workload", o->workload },
		/* without --duration the simulator's: the workload's or 10s */
		{ "--duration", o->duration }, { "--seed", o->seed },
		{ "--jitter", o->jitter },
		{ "--trace", o->trace }, { "--json", json }, { "--log", o->log },
		{ "--cmdline", o->cmdline }, { "--window", o->window },
		{ "--starvation", o->starvation },
		{ "--trace-format", o->trace_format },
		{ "--trace-events", o->trace_events },
	};
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!pairs[i][1])
			continue;
		args[n++] = (char *)pairs[i][0];
		args[n++] = (char *)pairs[i][1];
	}
	if (o->fatal)
		args[n++] = "--fatal-warnings";
	if (!o->metrics)
		args[n++] = "--no-metrics";
	if (o->governor) {
		args[n++] = "--governor";
		args[n++] = (char *)o->governor;
	}
	if (o->no_em)
		args[n++] = "--no-energy-model";
	if (o->cpuidle) {
		args[n++] = "--cpuidle";
		args[n++] = (char *)o->cpuidle;
	}
	args[n] = NULL;
	return n;
}

/* One invariant's first violation, in words, and when it began. */
static int violation(const cJSON *inv, const char *key, const char *what,
		     double *first)
{
	const cJSON *o = cJSON_GetObjectItem(inv, key);
	const cJSON *f = cJSON_GetObjectItem(o, "first");
	double n = num(o, "count"), t;

	if (!(n > 0) || !f)
		return 0;
	t = num(f, "time_ns");
	printf("%s: %g violation%s; the first at %.6f s: task %s (pid %g)",
	       what, n, n == 1 ? "" : "s", t / 1e9,
	       cJSON_GetStringValue(cJSON_GetObjectItem(f, "task")),
	       num(f, "pid"));
	if (!strcmp(key, "idle_while_waiting"))
		printf(" waited on CPU %g while CPU %g was idle for %.3f ms",
		       num(f, "task_cpu"), num(f, "idle_cpu"),
		       num(f, "length_ns") / 1e6);
	else if (!strcmp(key, "starvation"))
		printf(" waited %.3f ms on CPU %g", num(f, "length_ns") / 1e6,
		       num(f, "cpu"));
	else
		printf(" moved from CPU %g to the busier CPU %g",
		       num(f, "from_cpu"), num(f, "to_cpu"));
	printf("\n");
	if (*first < 0 || t < *first)
		*first = t;
	return 1;
}

/* The trace's lines from 1 ms before @t_ns to 1 ms after (40 at most). */
static void trace_excerpt(const char *trace, double t_ns)
{
	char line[1024];
	FILE *f = lsb_trace_is_dat(trace) ?
		lsb_trace_dat_text(trace, line, sizeof(line)) :
		fopen(trace, "r");

	const char *ev;
	uint64_t t;
	int cpu, n = 0;

	if (!f)
		return;
	printf("trace around %.6f s:\n", t_ns / 1e9);
	while (n < 40 && fgets(line, sizeof(line), f)) {
		/* the counters (tracing_mark_write) would crowd the events out */
		if (lsb_trace_line(line, &cpu, &t, &ev) ||
		    !strncmp(ev, "tracing_mark_write:", 19) ||
		    (double)t * 1000 + 1e6 < t_ns)
			continue;
		if ((double)t * 1000 > t_ns + 1e6)
			break;
		fputs(line, stdout);
		n++;
	}
	fclose(f);
}

/* --check: 7 when the results show a violated invariant, with detail. */
static int check_invariants(const char *json, const char *trace)
{
	char *text = lsb_read_file(json, NULL);
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	const cJSON *inv = cJSON_GetObjectItem(root, "invariants");
	double first = -1, warn_ns;
	int bad = 0;

	free(text);
	if (!inv) {
		fprintf(stderr, "error: --check: the results have no invariants (--no-metrics?)\n");
		cJSON_Delete(root);
		return 1;
	}
	bad |= violation(inv, "idle_while_waiting",
			 "idle CPU while a task that may run there waits", &first);
	bad |= violation(inv, "starvation", "starvation", &first);
	bad |= violation(inv, "useless_migrations", "useless migration", &first);
	if (print_warnings(root, &warn_ns)) {
		bad = 1;
		if (warn_ns >= 0 && (first < 0 || warn_ns < first))
			first = warn_ns;
	}
	if (first >= 0 && trace)
		trace_excerpt(trace, first);
	cJSON_Delete(root);
	return bad ? 7 : 0;
}

/* The outputs, before anything is built: 0, or -1 (printed). */
static int run_check_paths(const struct run_opts *o)
{
	const struct lsb_path_arg args[] = {
		{ "--trace", o->trace, LSB_OUT_FILE },
		{ "--json", o->json, LSB_OUT_FILE },
		{ "--log", o->log, LSB_OUT_FILE },
		{ "--workload", o->workload, LSB_IN },
		{ "--topology", o->topology, LSB_IN },
	};

	return cmd_check_paths(args, sizeof(args) / sizeof(args[0]));
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "workload", required_argument, NULL, 'w' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "jitter", required_argument, NULL, 'Y' },
		{ "trace", required_argument, NULL, 'T' },
		{ "json", required_argument, NULL, 'J' },
		{ "log", required_argument, NULL, 'L' },
		{ "timeout", required_argument, NULL, 'O' },
		{ "fatal-warnings", no_argument, NULL, 'F' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "metrics", no_argument, NULL, 'M' },
		{ "no-metrics", no_argument, NULL, 'N' },
		{ "governor", required_argument, NULL, 'G' },
		{ "no-energy-model", no_argument, NULL, 'E' },
		{ "cpuidle", required_argument, NULL, 'I' },
		{ "cmdline", required_argument, NULL, 'B' },
		{ "window", required_argument, NULL, 'W' },
		{ "starvation", required_argument, NULL, 'X' },
		{ "check", no_argument, NULL, 'K' },
		{ "instrument", required_argument, NULL, OPT_INSTRUMENT },
		{ "trace-format", required_argument, NULL, OPT_TRACE_FORMAT },
		{ "trace-events", required_argument, NULL, OPT_TRACE_EVENTS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = {
		.repo = paths.repo, .seed = "1", .jobs = 2, .timeout = 600,
		.metrics = 1,
	};
	char tmp_json[4200] = "", tmp_trace[4200] = "", *args[48];
	const char *json;
	struct driver_revision rev;
	int c, ret;

	while ((c = getopt_long(argc, argv, "r:w:t:d:s:j:vqh", opts, NULL)) != -1) {
		if (c == 'h') {
			printf(usage_run, paths.repo);
			return 0;
		}
		if (run_option(&o, c, optarg))
			return 2;
	}
	if (optind + 1 != argc || !o.workload || !o.topology) {
		fprintf(stderr, "error: %s\n", optind + 1 != argc ?
			"linsched run takes one revision" :
			"--workload and --topology are required");
		fprintf(stderr, usage_run, paths.repo);
		return 2;
	}
	if (o.check && (!o.metrics || (o.json && !strcmp(o.json, "-")))) {
		fprintf(stderr, "error: --check reads the results' invariants: not with --no-metrics or --json -\n");
		return 2;
	}
	if (run_check_paths(&o) ||
	    cmd_check_specs(&o.workload, o.topology, o.duration, o.cmdline))
		return 2;
	ret = cmd_prepare(&rev, &paths, o.repo, argv[optind], o.jobs,
			  o.verbose);
	if (ret)
		return ret;
	json = o.json;
	if (!json) {
		snprintf(tmp_json, sizeof(tmp_json), "%s/run-%d.json",
			 paths.cache_dir, (int)getpid());
		json = tmp_json;
		lsb_cleanup_add(tmp_json);	/* gone if a signal stops it */
	}
	if (o.check && !o.trace) {	/* for the excerpt */
		snprintf(tmp_trace, sizeof(tmp_trace), "%s/run-%d.trace",
			 paths.cache_dir, (int)getpid());
		o.trace = tmp_trace;
		lsb_cleanup_add(tmp_trace);
	}
	run_args(args, driver_sim_identity(args, &rev), &o, json);
	ret = cmd_sim_status(&rev, driver_run(rev.exe, args, o.timeout, 0));
	if (!ret && !o.quiet && strcmp(json, "-"))
		summary(json);
	if (!ret && o.check)
		ret = check_invariants(json, o.trace);
	if (*tmp_json)
		unlink(tmp_json);
	if (*tmp_trace)
		unlink(tmp_trace);
	driver_revision_release(&rev);
	return ret;
}

static int cmd_build(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "instrument", required_argument, NULL, OPT_INSTRUMENT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *repo = paths.repo;
	struct driver_revision rev;
	int c, jobs = 2, verbose = 0, ret;

	while ((c = getopt_long(argc, argv, "r:j:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': repo = optarg; break;
		case 'j':
			if (opt_int("--jobs", optarg, 1, 256, &jobs))
				return 2;
			break;
		case 'v': verbose = 1; break;
		case OPT_INSTRUMENT:
			if (cmd_instrument(&paths, optarg))
				return 2;
			break;
		case 'h':
			fputs(usage_build, stdout);
			return 0;
		default:
			fputs(usage_build, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fputs(usage_build, stderr);
		return 2;
	}
	ret = cmd_prepare(&rev, &paths, repo, argv[optind], jobs, verbose);
	if (ret)
		return ret;
	printf("%s\n", rev.exe);
	driver_revision_release(&rev);
	return 0;
}

static const char usage_domains[] =
"usage: linsched domains REV --topology T [--repo R] [--jobs N]\n"
"\n"
"Boot revision REV on machine T and print the sched-domain hierarchy its\n"
"own topology code built: per CPU, each level (SMT, MC, PKG, NUMA, named\n"
"from its flags) with its span and SD_* flags.\n";

static int cmd_domains(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "topology", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *repo = paths.repo, *topology = NULL, *hog = "hog";
	struct driver_revision rev;
	char *args[8];
	int c, jobs = 2, ret;

	while ((c = getopt_long(argc, argv, "r:t:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': repo = optarg; break;
		case 't':
			topology = optarg;
			if (cmd_topology_arg(&topology))
				return 2;
			break;
		case 'j':
			if (opt_int("--jobs", optarg, 1, 256, &jobs))
				return 2;
			break;
		case 'h':
			fputs(usage_domains, stdout);
			return 0;
		default:
			fputs(usage_domains, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc || !topology) {
		fputs(usage_domains, stderr);
		return 2;
	}
	if (cmd_check_specs(&hog, topology, "1s", NULL))
		return 2;
	ret = cmd_prepare(&rev, &paths, repo, argv[optind], jobs, 0);
	if (ret)
		return ret;
	args[0] = rev.exe;
	args[1] = "--topology";
	args[2] = (char *)topology;
	args[3] = "--workload";
	args[4] = "hog";
	args[5] = "--domains";
	args[6] = NULL;
	ret = cmd_sim_status(&rev, driver_run(rev.exe, args, 600, 0));
	driver_revision_release(&rev);
	return ret;
}

/* The history builder is a shell script: apt, dpkg and tar are its tools. */
static int cmd_kernels(int argc, char **argv)
{
	char script[4200], out[4200], cache[4200], *subset = NULL;
	const char *const *rules;
	size_t n, i, len = 0;
	char **args = calloc(argc + 8, sizeof(char *));
	int have_out = 0, have_cache = 0, k = 0;
	FILE *f;

	if (!args)
		return 1;
	snprintf(script, sizeof(script), "%s/kernels.sh", paths.share_dir);
	snprintf(out, sizeof(out), "--out=%s", paths.repo);
	snprintf(cache, sizeof(cache), "--cache=%s/debs", paths.cache_dir);
	for (i = 1; i < (size_t)argc; i++) {
		have_out |= !strncmp(argv[i], "--out", 5);
		have_cache |= !strncmp(argv[i], "--cache", 7);
	}
	args[k++] = script;
	if (!have_out)
		args[k++] = out;
	if (!have_cache)
		args[k++] = cache;
	for (i = 1; i < (size_t)argc; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	rules = bisect_subset_rules(&n);
	f = open_memstream(&subset, &len);
	for (i = 0; f && i < n; i++)
		fprintf(f, "%s\n", rules[i]);
	if (!f || fclose(f)) {
		free(args);
		return 1;
	}
	setenv("LINSCHED_SUBSET", subset, 1);
	setenv("LINSCHED_PROG", "linsched kernels", 1);	/* its messages' name */
	execv(script, args);
	fprintf(stderr, "error: cannot run '%s': %s\n", script, strerror(errno));
	free(args);
	return 1;
}

/*
 * cmd/linsched-topology.c, cmd/linsched-suite.c, cmd/linsched-timeline.c,
 * cmd/linsched-trend.c
 */
/* Run gnuplot on SCRIPT in DIR (the timeline and trend plots). */
int run_gnuplot(const char *dir, const char *script)
{
	int status = plot_run(dir, script);

	if (status)
		fprintf(stderr, "error: %s/%s: %s\n", dir, script,
			plot_strerror(status));
	return status ? -1 : 0;
}

int cmd_out_dir(const char *dir, const char *who)
{
	char err[4600];

	if (lsb_out_dir(dir, who, err, sizeof(err)) < 0) {
		fprintf(stderr, "error: %s\n", err);
		return -1;
	}
	return 0;
}

int cmd_run_self(char *argv[], const char *log)
{
	pid_t pid;
	int status, fd;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

int cmd_worker_args(int argc, char **argv, const char *usage,
		    const char **dir, int *task, int *probe)
{
	char *end;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	*probe = argc > 1 && !strcmp(argv[1], "--probe");
	if (*probe) {
		argc--;
		argv++;
	}
	if (argc != 3) {
		fputs(usage, stderr);
		return 2;
	}
	*task = (int)strtol(argv[2], &end, 10);
	if (*end || end == argv[2] || *task < 0) {
		fprintf(stderr, "error: task '%s': expected an array task index\n",
			argv[2]);
		return 2;
	}
	*dir = argv[1];
	return -1;
}

/* The subcommands, as 'linsched NAME' runs them. */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },
	{ "build", cmd_build },
	{ "kernels", cmd_kernels },
	{ "suite", cmd_suite },
	{ "domains", cmd_domains },
	{ "topology", cmd_topology },
	{ "timeline", cmd_timeline },
	{ "score", cmd_score },
	{ "classes", cmd_classes },
	{ "trend", cmd_trend },
	{ "report", cmd_report },
	{ "check", cmd_check },
	{ "sweep", cmd_sweep },
	{ "hunt", cmd_hunt },
	{ "hunt-worker", cmd_hunt_worker },
	{ "sweep-worker", cmd_sweep_worker },
	{ "bugs", cmd_bugs },
	{ "coverage", cmd_coverage },
	{ "vm", cmd_vm },
};

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	size_t i;

	if (!cmd || !strcmp(cmd, "--help") || !strcmp(cmd, "-h") ||
	    !strcmp(cmd, "help")) {
		fputs(usage_main, cmd ? stdout : stderr);
		return cmd ? 0 : 2;
	}
	if (!strcmp(cmd, "--version")) {
		printf("linsched %s\n", lsb_version());
		return 0;
	}
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return cmd_exit(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "error: unknown command '%s'\n\n%s", cmd, usage_main);
	return 2;
}
