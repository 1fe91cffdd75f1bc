// SPDX-License-Identifier: GPL-2.0-only
/*
 * lsbisect - find the kernel commit that made the scheduler worse for a
 * workload: a bisection whose strategy and judge are Scheme (guile/).
 */
#include <ctype.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters/adapters.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "guile/guile.h"
#include "metrics/metrics.h"

static const char usage_head[] =
"usage: lsbisect GOOD BAD WORKLOAD [options]\n"
"       lsbisect --continue [GOOD BAD WORKLOAD] [options]\n"
"       lsbisect --replay LOG [options]\n"
"       lsbisect --repl [GOOD BAD WORKLOAD] [options]\n"
"       lsbisect --scheme FILE [GOOD BAD WORKLOAD] [options]\n"
"\n"
"Bisect the kernel history between GOOD and BAD to the first commit whose\n"
"scheduler scores WORKLOAD worse than GOOD does. Each revision is built\n"
"from its own sources and run on a simulated machine; consecutive commits\n"
"with the same build subset form one class, built and run once.\n"
"\n"
"  -r, --repo R        kernel repository (default: the bundled history,\n"
"                      %s)\n"
"  -t, --topology T    the machine (default quad-smt)\n"
"  -d, --duration D    simulated time per run (default 2s)\n"
"  -m, --metric NAME   what is compared (default balance_score): a metric\n"
"                      of the catalogue, below, or a dotted path into the\n"
"                      results (wakeup_latency_ns.p50, migrations_per_s.MC,\n"
"                      power.idle_residency.0.C6); higher is worse unless\n"
"                      the catalogue says otherwise:\n";

static const char usage_tail[] =
"      --threshold PCT  how much worse than GOOD is bad (default 5)\n"
"      --seeds N       seeds per revision, GOOD's too (default 1). With N > 1\n"
"                      a revision is bad only when its median passes the\n"
"                      threshold and a one-sided Mann-Whitney test over the\n"
"                      seeds agrees (p < 0.05); runs that all give one value\n"
"                      decide at once. A revision's seeds run at once on\n"
"                      the engine (--jobs at a time, or one Slurm array)\n"
"      --max-seeds M   seeds an undecided revision may get before it is\n"
"                      skipped (default 4N, 1 with one seed)\n"
"      --script F      a Scheme file: a predicate (lambda (good this) ...)\n"
"                      that says whether THIS result is bad against GOOD's,\n"
"                      or definitions of predicate, judge or strategy\n"
"                      (guile/README.md)\n"
"      --first-parent  follow only first parents (merges are single steps)\n"
"  -j, --jobs N        build jobs, and the runs made at a time (default:\n"
"                      the number of CPUs)\n"
"      --width J       test J revisions at once, in rounds: a round cuts\n"
"                      the open classes into J + 1 parts, so about\n"
"                      log_(J+1) C rounds for C classes instead of log_2 C\n"
"                      steps, with the same answer; a round's revisions are\n"
"                      built side by side (sharing --jobs) and run --jobs at\n"
"                      a time (or as one Slurm array). Default 1, the\n"
"                      halving: --jobs does not set it, since a wider round\n"
"                      tests more revisions in all (a parallel bisection on\n"
"                      N CPUs: --jobs N --width N)\n"
ENGINE_USAGE
"  -o, --out DIR       output directory (default: under %s/bisect/,\n"
"                      named after the arguments)\n"
"      --continue      resume the bisection logged in the output directory:\n"
"                      logged runs are not built or run again\n"
"      --replay LOG    make every decision again from a log, building and\n"
"                      running nothing; the settings are the log's (options\n"
"                      given override them); output in LOG's directory/replay\n"
"      --timeout S     wall-clock limit of each run (default 600); a time-out\n"
"                      is a skip\n"
"      --governor G, --cpuidle G, --no-energy-model, --fatal-warnings\n"
"                      simulator options, as for 'linsched run'\n"
"      --jitter F      vary each run event's work by up to +-F, from the\n"
"                      seed (a fraction 0-0.5 or a percentage, '1%%'), as\n"
"                      for 'linsched run': seeds differ in timing too;\n"
"                      the log records it (default 0)\n"
"      --repl          a Guile REPL with (lsbisect) and (lsbisect strategy)\n"
"      --scheme FILE   evaluate FILE with those modules, then exit\n"
"  -q, --quiet         no progress: a line redrawn on a terminal, else one\n"
"                      line a step decided (on standard error)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"A revision that does not build, crashes (BUG, panic, signal), hangs or\n"
"times out is skipped, as git bisect skips on exit status 125, and so is\n"
"one whose runs stay neither good nor bad after --max-seeds seeds: with\n"
"every neighbouring class of the same build at once. The next revision\n"
"tested is taken away from skipped ones, as git bisect's skip does. The\n"
"output directory gets log.jsonl (every step, appended and fsync()ed as\n"
"made; a log there is not touched until a revision of the range is\n"
"decided, so arguments found bad on the way leave it as it was),\n"
"report.txt, report.json and plot.png (with plot.dat and plot.gp).\n"
"\n"
"Exit status: 0 the first bad commit was found, 1 no regression (BAD is\n"
"not worse than GOOD), 2 usage (also: GOOD not an ancestor of BAD, GOOD or\n"
"BAD cannot be tested, GOOD does not score as good, a script that does\n"
"not load, an unknown metric), 3 skipped revisions leave a range: the\n"
"first bad commit is one of the classes listed, with the figures of the\n"
"builds that did not decide and what may decide them (git bisect exits 2\n"
"here; 2 is a usage error in lsbisect), 4 an error stopped the bisection\n"
"(the log keeps it: --continue).\n";

/* A name made of the arguments, safe as one path component. */
static void name_part(char *out, size_t len, const char *s, size_t max)
{
	size_t n = strlen(out), i;
	const char *base = strrchr(s, '/');

	if (base && base[1])
		s = base + 1;
	for (i = 0; i < max && s[i] && n + i + 1 < len; i++)
		out[n + i] = s[i];
	out[n + i] = '\0';
	lsb_safe_name(out + n);
}

static void default_out(char *out, size_t len, const struct driver_paths *p,
			const struct guile_config *c)
{
	char name[400] = "";

	name_part(name, sizeof(name), c->good, 60);
	strcat(name, "..");
	name_part(name, sizeof(name), c->bad, 60);
	strcat(name, "_");
	name_part(name, sizeof(name), c->run.workload, 100);
	strcat(name, "_");
	name_part(name, sizeof(name), c->run.topology, 40);
	strcat(name, "_");
	name_part(name, sizeof(name), c->metric, 40);
	snprintf(out, len, "%s/bisect/%s", p->data_dir, name);
}

static int isatty_err;

/*
 * Off a terminal the progress is one line a step, so that a bisection
 * whose output goes to a file is seen to move: what was decided, and
 * how.
 */
static void step_line(const struct guile_step *st, const char *metric)
{
	char joined[300];

	fprintf(stderr, "lsbisect: step %d: ", st->step);
	if (st->cls < 0)
		fprintf(stderr, "GOOD");
	else
		fprintf(stderr, "class %ld", st->cls);
	fprintf(stderr, " (%.12s) %s", st->commit, st->verdict);
	if (*st->reason)
		fprintf(stderr, ": %.200s", st->reason);
	if (st->has_value)
		fprintf(stderr, ", %s %.6g (%d run%s)", metric, st->value,
			st->nr_runs, st->nr_runs == 1 ? "" : "s");
	if (st->nr_joined) {
		lsb_ranges_text(joined, sizeof(joined), st->joined,
				st->nr_joined);
		fprintf(stderr, "; with class%s %s (the same build)",
			st->nr_joined == 1 ? "" : "es", joined);
	}
	fputc('\n', stderr);
}

struct progress_payload {
	int quiet;
	const char *metric;
};

static void on_progress(const struct guile_progress *p, void *payload)
{
	const struct progress_payload *pp = payload;

	if (pp->quiet)
		return;
	if (!isatty_err) {
		if (p->decided)
			step_line(p->decided, pp->metric);
		return;
	}
	if (!p->step) {
		fprintf(stderr, "\r\033[Klsbisect: testing GOOD %.12s",
			p->running ? p->running : "");
		fflush(stderr);
		return;
	}
	if (p->cls < 0)
		fprintf(stderr, "\r\033[Klsbisect: step %d (GOOD: %s)",
			p->step, p->verdict);
	else
		fprintf(stderr, "\r\033[Klsbisect: step %d (class %ld: %s)",
			p->step, p->cls, p->verdict);
	fprintf(stderr, ": %zu commit%s left, about %d step%s to go",
		p->commits_left, p->commits_left == 1 ? "" : "s",
		p->steps_left, p->steps_left == 1 ? "" : "s");
	if (p->running)
		fprintf(stderr, "; testing %.12s", p->running);
	fflush(stderr);
}

static void on_message(const char *msg, void *payload)
{
	(void)payload;
	if (isatty_err)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "note: %s\n", msg);
}

/*
 * Slurm array tasks run 'linsched sweep-worker': the linsched beside this
 * executable, not this one.
 */
static int linsched_beside(char *out, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0) {
		fprintf(stderr, "error: cannot find the running executable\n");
		return -1;
	}
	exe[n] = '\0';
	snprintf(out, len, "%s/linsched", dirname(exe));
	if (access(out, X_OK)) {
		fprintf(stderr, "error: --engine slurm: no linsched beside lsbisect ('%s')\n",
			out);
		return -1;
	}
	return 0;
}

/* What the command line says, before the settings are made of it. */
struct bisect_opts {
	const char *out_dir, *scheme;
	const char *repo, *topology, *duration, *metric, *script;
	const char *jitter;	/* as given; @jitter_canon its number */
	char jitter_canon[32];
	const char *governor, *cpuidle;
	int no_energy_model, fatal_warnings;
	int repl, quiet, max_seeds, seeds, timeout, width;
	double threshold;
	struct driver_engine engine;
	char tool[4200];
};

static const struct option long_opts[] = {
	{ "repo", required_argument, NULL, 'r' },
	{ "topology", required_argument, NULL, 't' },
	{ "duration", required_argument, NULL, 'd' },
	{ "metric", required_argument, NULL, 'm' },
	{ "threshold", required_argument, NULL, 'T' },
	{ "seeds", required_argument, NULL, 'S' },
	{ "max-seeds", required_argument, NULL, 'M' },
	{ "script", required_argument, NULL, 's' },
	{ "first-parent", no_argument, NULL, 'F' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "width", required_argument, NULL, 'L' },
	{ "out", required_argument, NULL, 'o' },
	{ "continue", no_argument, NULL, 'C' },
	{ "replay", required_argument, NULL, 'R' },
	{ "timeout", required_argument, NULL, 'O' },
	{ "governor", required_argument, NULL, 'G' },
	{ "cpuidle", required_argument, NULL, 'I' },
	{ "jitter", required_argument, NULL, 'Y' },
	{ "no-energy-model", no_argument, NULL, 'E' },
	{ "fatal-warnings", no_argument, NULL, 'W' },
	{ "repl", no_argument, NULL, 'P' },
	{ "scheme", required_argument, NULL, 'X' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	ENGINE_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void print_usage(FILE *f, const struct driver_paths *paths)
{
	size_t i, n;
	const struct metric_def *m = metric_catalogue(&n);

	fprintf(f, usage_head, paths->repo);
	for (i = 0; i < n; i++) {
		char line[160];
		size_t len;

		len = (size_t)snprintf(line, sizeof(line), "%24s%-20s %s%s%s",
				       "", m[i].name, m[i].unit,
				       *m[i].unit && m[i].higher_is_better ?
				       ", " : "", m[i].higher_is_better ?
				       "higher is better" : "");
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
	}
	fprintf(f, usage_tail, paths->data_dir);
}

/* getopt: -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, struct bisect_opts *o,
		      struct guile_config *cfg)
{
	int c;

	o->timeout = -1;
	o->threshold = -1;
	engine_defaults(&o->engine);
	while ((c = getopt_long(argc, argv, "r:t:d:m:j:o:qvh", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'r': o->repo = optarg; break;
		case 't':
			o->topology = optarg;
			if (cmd_topology_arg(&o->topology))
				return 2;
			break;
		case 'd': o->duration = optarg; break;
		case 'm': o->metric = optarg; break;
		case 'T':
			if (opt_double("--threshold", optarg, 0, 1e9,
				       &o->threshold))
				return 2;
			break;
		case 'S':
			if (opt_int("--seeds", optarg, 1, 1000000, &o->seeds))
				return 2;
			break;
		case 'M':
			if (opt_int("--max-seeds", optarg, 1, 1000000,
				    &o->max_seeds))
				return 2;
			break;
		case 'L':
			if (opt_int("--width", optarg, 1, 64, &o->width))
				return 2;
			break;
		case 's': o->script = optarg; break;
		case 'F': cfg->first_parent = 1; break;
		case 'o': o->out_dir = optarg; break;
		case 'C': cfg->mode = GUILE_CONTINUE; break;
		case 'R':
			cfg->mode = GUILE_REPLAY;
			cfg->replay_log = optarg;
			break;
		case 'O':
			if (opt_int("--timeout", optarg, 0, 1000000,
				    &o->timeout))
				return 2;
			break;
		case 'G':
			o->governor = optarg;
			if (opt_governor(optarg))
				return 2;
			break;
		case 'I':
			o->cpuidle = optarg;
			if (opt_cpuidle(optarg))
				return 2;
			break;
		case 'Y':
			o->jitter = optarg;
			if (opt_jitter(optarg, o->jitter_canon,
				       sizeof(o->jitter_canon)))
				return 2;
			break;
		case 'E': o->no_energy_model = 1; break;
		case 'W': o->fatal_warnings = 1; break;
		case 'P': o->repl = 1; break;
		case 'X': o->scheme = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'v': cfg->verbose = 1; break;
		case 'h':
			print_usage(stdout, cfg->paths);
			return 0;
		case 'V':
			printf("lsbisect %s\n", lsb_version());
			return 0;
		default:
			c = engine_option(&o->engine, c, optarg);
			if (!c)
				break;
			if (c > 0)
				print_usage(stderr, cfg->paths);
			return 2;
		}
	}
	cfg->jobs = o->engine.jobs;
	cfg->engine = &o->engine;
	if (o->engine.slurm) {
		if (linsched_beside(o->tool, sizeof(o->tool)))
			return 2;
		o->engine.tool = o->tool;
	}
	return -1;
}

static void config_defaults(struct guile_config *cfg)
{
	cfg->repo = cfg->paths->repo;
	cfg->run.topology = "quad-smt";
	cfg->run.duration = "2s";
	cfg->metric = "balance_score";
	cfg->threshold = 5;
	cfg->seeds = 1;
	cfg->width = 1;
	cfg->run.timeout_s = 600;
}

/* The settings: from the arguments or from the log, then the options. */
static int make_config(int argc, char **argv, const struct bisect_opts *o,
		       struct guile_config *cfg)
{
	if (argc - optind == 3) {
		cfg->good = argv[optind];
		cfg->bad = argv[optind + 1];
		cfg->run.workload = argv[optind + 2];
		config_defaults(cfg);
	} else if (argc != optind) {
		fprintf(stderr, "error: expected GOOD BAD WORKLOAD\n\n");
		print_usage(stderr, cfg->paths);
		return 2;
	} else if (cfg->mode == GUILE_REPLAY ||
		   (cfg->mode == GUILE_CONTINUE && o->out_dir)) {
		char log[4300] = "";

		if (cfg->mode == GUILE_CONTINUE)
			snprintf(log, sizeof(log), "%s/log.jsonl", o->out_dir);
		if (guile_config_from_log(cfg, cfg->mode == GUILE_REPLAY ?
					  cfg->replay_log : log)) {
			fprintf(stderr, "error: %s\n", guile_last_error());
			return 2;
		}
	} else if (!o->repl && !o->scheme) {
		fprintf(stderr, "error: %s\n\n", cfg->mode == GUILE_CONTINUE ?
			"--continue needs GOOD BAD WORKLOAD or --out DIR" :
			"expected GOOD BAD WORKLOAD");
		print_usage(stderr, cfg->paths);
		return 2;
	} else {
		config_defaults(cfg);
	}
	if (o->repo)
		cfg->repo = o->repo;
	if (o->topology)
		cfg->run.topology = o->topology;
	if (o->duration)
		cfg->run.duration = o->duration;
	if (o->metric)
		cfg->metric = o->metric;
	if (o->script)
		cfg->script = o->script;
	if (o->threshold >= 0)
		cfg->threshold = o->threshold;
	if (o->seeds)
		cfg->seeds = o->seeds;
	if (o->width)
		cfg->width = o->width;
	if (o->timeout >= 0)
		cfg->run.timeout_s = o->timeout;
	/*
	 * After the log's settings, as the options above: with --continue
	 * one that differs from the log's is refused (same_bisection()),
	 * never silently replaced by it.
	 */
	if (o->governor)
		cfg->run.governor = o->governor;
	if (o->cpuidle)
		cfg->run.cpuidle = o->cpuidle;
	if (o->no_energy_model)
		cfg->run.no_energy_model = 1;
	if (o->fatal_warnings)
		cfg->run.fatal_warnings = 1;
	/* as a number, none for zero: the log and the result keys agree */
	if (o->jitter)
		cfg->run.jitter = *o->jitter_canon ? o->jitter_canon : NULL;
	if (o->max_seeds)
		cfg->max_seeds = o->max_seeds;
	else if (!cfg->max_seeds || o->seeds)
		cfg->max_seeds = cfg->seeds > 1 ? 4 * cfg->seeds : 1;
	if (cfg->max_seeds < cfg->seeds) {
		fprintf(stderr, "error: --max-seeds %d is below --seeds %d\n",
			cfg->max_seeds, cfg->seeds);
		return 2;
	}
	cfg->run.metrics = 1;
	if (cmd_check_out_dir("--out", o->out_dir) ||
	    cmd_check_metric(cfg->metric, cfg->paths))
		return 2;
	if (cfg->run.workload &&
	    cmd_check_specs(&cfg->run.workload, cfg->run.topology,
			    cfg->run.duration, NULL))
		return 2;
	if (cfg->script && access(cfg->script, R_OK)) {
		fprintf(stderr, "error: script '%s' cannot be read\n",
			cfg->script);
		return 2;
	}
	return -1;
}

/* The bisection itself, its answer printed and written; the exit status. */
static int bisect(struct guile_config *cfg, struct bisect_opts *o)
{
	static char out[4200];
	static struct progress_payload pp;
	struct guile_answer *a = NULL;
	int ret;

	if (!o->out_dir && cfg->mode == GUILE_REPLAY) {
		char log[4200];

		snprintf(log, sizeof(log), "%s", cfg->replay_log);
		snprintf(out, sizeof(out), "%s/replay", dirname(log));
		o->out_dir = out;
	} else if (!o->out_dir) {
		default_out(out, sizeof(out), cfg->paths, cfg);
		o->out_dir = out;
	}
	cfg->out_dir = o->out_dir;
	isatty_err = isatty(2);
	pp.quiet = o->quiet;
	pp.metric = cfg->metric;
	cfg->on_progress = on_progress;
	cfg->on_message = on_message;
	cfg->payload = &pp;

	ret = guile_bisect(cfg, &a);
	if (isatty_err && !o->quiet)
		fputs("\r\033[K", stderr);
	if (!a) {
		fprintf(stderr, "error: %s\n", guile_last_error());
		return 4;
	}
	if (ret == GUILE_USAGE || ret == GUILE_STOPPED) {
		fprintf(stderr, "error: %s\n", a->message);
		if (ret == GUILE_STOPPED &&
		    (a->log_begun || cfg->mode == GUILE_CONTINUE))
			fprintf(stderr, "the log '%s' keeps what was done (%zu steps): resume with --continue\n",
				a->log_path, a->nr_steps);
	} else if (lsbisect_report(cfg, a, o->out_dir)) {
		ret = GUILE_STOPPED;
	}
	guile_answer_free(a);
	return ret;
}

int main(int argc, char **argv)
{
	static struct driver_paths paths;
	static struct bisect_opts o;
	struct guile_config cfg = { 0 };
	int ret;

	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 2;
	}
	cfg.paths = &paths;
	cfg.mode = GUILE_NEW;
	ret = parse_opts(argc, argv, &o, &cfg);
	/* --instrument (an engine option) came after the paths: it set this */
	paths.variant = adapter_variant_parse(getenv("LSBISECT_INSTRUMENT"));
	if (ret < 0)
		ret = make_config(argc, argv, &o, &cfg);
	if (ret >= 0)
		return ret;
	if (o.repl || o.scheme) {
		ret = o.repl ? guile_repl(&cfg) : guile_run_file(&cfg, o.scheme);
		if (ret)
			fprintf(stderr, "error: %s\n", guile_last_error());
		guile_config_release(&cfg);
		return ret ? 4 : 0;
	}
	ret = bisect(&cfg, &o);
	guile_config_release(&cfg);
	return cmd_exit(ret);
}
