// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched bugs - the catalogue of real upstream scheduler bugs: list it,
 * show an entry, and run an entry's buggy and fixed kernels side by side
 * with a verdict and a gnuplot figure of its signal over time.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "adapters/adapters.h"
#include "bugs/bugs.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "metrics/metrics.h"
#include "plots/plots.h"

static const char usage_bugs[] =
"usage: linsched bugs list\n"
"       linsched bugs show NAME\n"
"       linsched bugs run NAME... | --all [options]\n"
"\n"
"The catalogue of real upstream scheduler bugs, each reproduced by running\n"
"the buggy and the fixed kernel code. An entry names the upstream fix, the\n"
"kernel files, the series, a workload and a topology, the figure of the\n"
"results that shows the bug with its threshold, and how the pair is made:\n"
"two releases of the bundled history that straddle the fix, or a release\n"
"and the same release with the bug put back by an edit, which is committed\n"
"in the bundled history under refs/lsbisect/bugs/NAME (fixed names and\n"
"date: the same commit every time). A finding has no upstream fix: it\n"
"names the upstream change the behaviour comes from, its buggy side is a\n"
"release and its fixed side the same release with the change taken out by\n"
"its edits.\n"
"\n"
"  list         the entries: name, series, fix (\"finding\": none; the\n"
"               change it comes from instead)\n"
"  show NAME    an entry in full, its edits as a diff-like listing\n"
"  run NAME...  build both kernels of each entry (the build cache keeps\n"
"               them), run the workload on both with a trace, print the\n"
"               figure side by side with the verdict, and draw the signal\n"
"               over time for both with gnuplot\n"
"\n"
"  -a, --all           run every entry\n"
"  -c, --catalogue DIR  read the entries from DIR (NAME.json, workloads in\n"
"                      DIR/workloads) instead of the installed catalogue\n"
"  -o, --out DIR       where each entry's files go, in DIR/NAME (default:\n"
"                      DATA/bugs, DATA being build/ in a build tree):\n"
"                      buggy.json, fixed.json, their traces, signal.dat,\n"
"                      signal.gp, signal.png, signal.svg, verdict.json\n"
"      --timeout S     wall-clock limit of each simulation (default 600)\n"
"  -j, --jobs N        parallel build jobs (default 2)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"The entries are read from the catalogue in the installed data\n"
"(bugs/catalogue in the source tree). They run on the bundled history,\n"
"DATA/kernels.git, whatever LSBISECT_REPO says (an edit is committed\n"
"there, never in a repository of yours); the releases they name must be\n"
"in it ('linsched kernels --versions 6.1.176,...' adds them). Exit status: 0 every entry run reproduced (the buggy kernel's\n"
"figure past the threshold, the fixed kernel's not), 1 one did not or\n"
"could not be run, or its files could not be written, 2 usage.\n";

#define BINS 100

struct bugs_opts {
	const char *out, *catalogue;
	int timeout, jobs, verbose;
};

/* One side of an entry: the revision, its status and its figure. */
struct side {
	const char *label;	/* "buggy", "fixed" */
	const char *rev;	/* as the entry names it */
	char shown[300];	/* and as printed ("v6.12.118+bug") */
	char commit[41];
	int status;		/* a driver_status */
	double value;
	int has_value;
	double signal[BINS];
	unsigned long long end_us;
};

static struct driver_paths paths;
/*
 * The bundled history, always: the entries name its releases, and an
 * edited revision is committed there, never in a repository of the
 * user's that LSBISECT_REPO names.
 */
static char history[4200];

static int load(const char *catalogue, struct bug **bugs, size_t *n)
{
	char dir[4200];

	if (catalogue)
		lsb_pathf(dir, sizeof(dir), "%s", catalogue);
	else
		lsb_pathf(dir, sizeof(dir), "%s/bugs", paths.share_dir);
	if (bugs_load(dir, bugs, n)) {
		fprintf(stderr, "error: %s\n", bugs_last_error());
		return -1;
	}
	return 0;
}

/* The side (0 buggy, 1 fixed) the entry's edits make, or -1: none. */
static int edited_side(const struct bug *b)
{
	if (!b->nr_edits)
		return -1;
	return b->finding ? 1 : 0;
}

static void list(const struct bug *bugs, size_t n)
{
	size_t i;

	printf("%-24s %-6s %-14s %s\n", "NAME", "SERIES", "FIX", "SUBJECT");
	for (i = 0; i < n; i++)
		if (bugs[i].finding)
			printf("%-24s %-6s %-14s no upstream fix; from %s %s\n",
			       bugs[i].name, bugs[i].series, "finding",
			       bugs[i].fix_commit, bugs[i].fix_subject);
		else
			printf("%-24s %-6s %-14s %s\n", bugs[i].name,
			       bugs[i].series, bugs[i].fix_commit,
			       bugs[i].fix_subject);
}

/* Each line of @text after @prefix. */
static void lines(const char *prefix, const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		printf("%s%.*s\n", prefix, (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

/* @text's words, in lines of at most 76 columns after two spaces. */
static void wrap(const char *text)
{
	const char *p = text, *w;
	int col = 0, len;

	while (*p) {
		while (*p == ' ' || *p == '\n')
			p++;
		for (w = p; *p && *p != ' ' && *p != '\n'; p++)
			;
		len = (int)(p - w);
		if (!len)
			break;
		if (col && col + 1 + len > 74) {
			putchar('\n');
			col = 0;
		}
		printf("%s%.*s", col ? " " : "  ", len, w);
		col += len + 1;
	}
	if (col)
		putchar('\n');
}

static void show(const struct bug *b)
{
	size_t i;

	printf("name:      %s\n", b->name);
	if (b->finding) {
		printf("fix:       none (a finding)\n");
		printf("change:    %s %s\n", b->fix_commit, b->fix_subject);
	} else {
		printf("fix:       %s %s\n", b->fix_commit, b->fix_subject);
	}
	printf("source:    %s\n", b->source);
	printf("series:    %s\n", b->series);
	printf("files:    ");
	for (i = 0; i < b->nr_files; i++)
		printf(" %s", b->files[i]);
	printf("\nworkload:  %s\n", b->workload);
	printf("topology:  %s, %s simulated, seed %llu\n", b->topology,
	       b->duration, b->seed);
	printf("figure:    %s, buggy when %s %g\n", b->metric,
	       b->buggy_above ? "above" : "below", b->threshold);
	if (b->instrument)
		printf("build:     --instrument %s\n", b->instrument);
	if (b->cpuidle)
		printf("cpuidle:   --cpuidle %s\n", b->cpuidle);
	if (b->starvation)
		printf("bound:     --starvation %s\n", b->starvation);
	if (b->signal_work)
		printf("signal:    kernel function calls per window, %s\n",
		       b->signal_work == BUG_WORK_SUM ? "all told" :
		       "in the worst interrupt");
	else if (b->signal_task)
		printf("signal:    CPU share of the tasks named %s*\n",
		       b->signal_task);
	else
		printf("signal:    busy share of CPU %d\n", b->signal_cpu);
	if (b->nr_edits && !b->finding)
		printf("buggy:     %s with the edits below\n", b->buggy);
	else
		printf("buggy:     %s\n", b->buggy);
	if (b->nr_edits && b->finding)
		printf("fixed:     %s with the edits below (the change taken out)\n\n",
		       b->fixed);
	else
		printf("fixed:     %s\n\n", b->fixed);
	wrap(b->summary);
	for (i = 0; i < b->nr_edits; i++) {
		printf("\nedit %zu of %s:\n", i + 1, b->edits[i].file);
		lines("- ", b->edits[i].old);
		lines("+ ", b->edits[i].new);
	}
}

/* Build and run one side into @dir; its figure and signal into @s. */
static void run_side(const struct bug *b, struct side *s, const char *dir,
		     const struct bugs_opts *o)
{
	char json[4300], trace[4300], seed[32], *args[40], *text;
	struct driver_revision rev;
	cJSON *root;
	int n;

	paths.variant = adapter_variant_parse(b->instrument);
	s->status = cmd_prepare(&rev, &paths, history, s->commit, o->jobs,
				o->verbose);
	if (s->status)
		return;
	lsb_pathf(json, sizeof(json), "%s/%s.json", dir, s->label);
	lsb_pathf(trace, sizeof(trace), "%s/%s.trace", dir, s->label);
	n = driver_sim_identity(args, &rev);
	args[n++] = "--workload";
	args[n++] = b->workload;
	args[n++] = "--topology";
	args[n++] = b->topology;
	args[n++] = "--duration";
	args[n++] = b->duration;
	snprintf(seed, sizeof(seed), "%llu", b->seed);
	args[n++] = "--seed";
	args[n++] = seed;
	args[n++] = "--json";
	args[n++] = json;
	args[n++] = "--trace";
	args[n++] = trace;
	if (b->cpuidle) {
		args[n++] = "--cpuidle";
		args[n++] = b->cpuidle;
	}
	if (b->starvation) {
		args[n++] = "--starvation";
		args[n++] = b->starvation;
	}
	args[n] = NULL;
	s->status = cmd_sim_status(&rev, driver_run(rev.exe, args, o->timeout,
						    0));
	driver_revision_release(&rev);
	if (s->status)
		return;
	text = lsb_read_file(json, NULL);
	root = text ? cJSON_Parse(text) : NULL;
	free(text);
	s->has_value = root && !metric_value(root, b->metric, &s->value);
	s->end_us = root ? (unsigned long long)cJSON_GetNumberValue(
				cJSON_GetObjectItem(root, "duration_ns")) / 1000 : 0;
	cJSON_Delete(root);
	if (!s->has_value)
		fprintf(stderr, "error: %s: the %s kernel's results have no figure '%s'\n",
			b->name, s->label, b->metric);
	if (bug_signal(b, trace, s->end_us, BINS, s->signal)) {
		fprintf(stderr, "error: %s\n", bugs_last_error());
		s->has_value = 0;
	}
}

/*
 * signal.dat and signal.gp in @dir; on failure @path (of @len bytes) names
 * the file and errno says why.
 */
static int write_signal(const struct bug *b, const struct side *sd,
			const char *dir, char *path, size_t len)
{
	char title[1024], ylabel[256];
	FILE *f;
	int i, k;

	lsb_pathf(path, len, "%s/signal.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# time_s %s(%s) %s(%s)\n", sd[0].label, sd[0].rev,
		sd[1].label, sd[1].rev);
	for (i = 0; i < BINS; i++)
		fprintf(f, "%.6f %.6f %.6f\n",
			(i + 0.5) * (double)sd[0].end_us / BINS / 1e6,
			sd[0].signal[i], sd[1].signal[i]);
	if (fclose(f))
		return -1;
	if (b->signal_work)
		snprintf(ylabel, sizeof(ylabel), "kernel calls per window%s",
			 b->signal_work == BUG_WORK_MAX ? ", worst interrupt" : "");
	else if (b->signal_task)
		snprintf(ylabel, sizeof(ylabel), "CPU share of %s", b->signal_task);
	else
		snprintf(ylabel, sizeof(ylabel), "CPU %d busy", b->signal_cpu);
	snprintf(title, sizeof(title), "%s: %s%s (%s)\n%s on %s", b->name,
		 b->finding ? "finding, from " : "", b->fix_subject,
		 b->fix_commit, cmd_base_name(b->workload),
		 cmd_base_name(b->topology));
	lsb_pathf(path, len, "%s/signal.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	plot_begin(f, "signal", 900, 420, title);
	fprintf(f, "set xlabel \"simulated time (s)\"\nset ylabel ");
	plot_quote(f, ylabel);
	fprintf(f, "\nset key outside bottom center horizontal\n"
		"set yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\nset grid\n");
	fprintf(f, "plot ");
	for (k = 0; k < 2; k++) {
		char key[512];

		snprintf(key, sizeof(key), "%s: %s%s", sd[k].label, sd[k].rev,
			 k != edited_side(b) ? "" : b->finding ?
			 " with the change taken out" : " with the bug put back");
		fprintf(f, "%s\"signal.dat\" using 1:%d with steps lw 2 lc rgb \"%s\" title ",
			k ? ", " : "", k + 2, k ? "#2a9d3a" : "#c0392b");
		plot_quote(f, key);
	}
	fprintf(f, "\n");
	plot_end(f);
	return fclose(f);
}

/* signal.dat and signal.gp in @dir, and gnuplot run on them. */
static int draw(const struct bug *b, const struct side *sd, const char *dir)
{
	char path[4300];

	if (write_signal(b, sd, dir, path, sizeof(path))) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	return run_gnuplot(dir, "signal.gp");
}

/* verdict.json: both sides and the verdict, for scripts. */
static int write_verdict(const struct bug *b, const struct side *sd,
			 const char *verdict, const char *dir)
{
	cJSON *o = cJSON_CreateObject(), *s;
	char path[4300];
	int k, ret;

	cJSON_AddStringToObject(o, "name", b->name);
	/* a finding has no fix: the change it comes from instead */
	cJSON_AddStringToObject(o, b->finding ? "finding" : "fix", b->fix_commit);
	cJSON_AddStringToObject(o, "metric", b->metric);
	cJSON_AddStringToObject(o, "buggy_if", b->buggy_above ? "above" : "below");
	cJSON_AddNumberToObject(o, "threshold", b->threshold);
	for (k = 0; k < 2; k++) {
		s = cJSON_AddObjectToObject(o, sd[k].label);
		cJSON_AddStringToObject(s, "revision", sd[k].rev);
		cJSON_AddStringToObject(s, "commit", sd[k].commit);
		cJSON_AddStringToObject(s, "status",
					driver_status_name(sd[k].status));
		if (sd[k].has_value)
			cJSON_AddNumberToObject(s, "value", sd[k].value);
	}
	cJSON_AddStringToObject(o, "verdict", verdict);
	lsb_pathf(path, sizeof(path), "%s/verdict.json", dir);
	ret = lsb_write_json(path, o);
	cJSON_Delete(o);
	return ret;
}

/* Run one entry. Return 0 reproduced, 1 not (or not run). */
static int run_bug(const struct bug *b, bisect_repo *repo,
		   const struct bugs_opts *o)
{
	struct side sd[2] = { { .label = "buggy", .rev = b->buggy },
			      { .label = "fixed", .rev = b->fixed } };
	const char *verdict;
	char dir[4200];
	double t0 = lsb_now();
	int k, ok;

	if (o->out)
		lsb_pathf(dir, sizeof(dir), "%s/%s", o->out, b->name);
	else
		lsb_pathf(dir, sizeof(dir), "%s/bugs/%s", paths.data_dir,
			  b->name);
	if (lsb_mkdir_p(dir)) {
		fprintf(stderr, "error: cannot make '%s': %s\n", dir,
			strerror(errno));
		return 1;
	}
	if (bug_revisions(b, repo, sd[0].commit, sd[1].commit)) {
		fprintf(stderr, "error: %s\n", bugs_last_error());
		return 1;
	}
	for (k = 0; k < 2; k++)
		snprintf(sd[k].shown, sizeof(sd[k].shown), "%s%s", sd[k].rev,
			 k != edited_side(b) ? "" : b->finding ? "-change" : "+bug");
	for (k = 0; k < 2; k++)
		run_side(b, &sd[k], dir, o);
	ok = !sd[0].status && !sd[1].status && sd[0].has_value &&
	     sd[1].has_value;
	if (!ok)
		verdict = "not run";
	else if (bug_is_buggy(b, sd[0].value) && !bug_is_buggy(b, sd[1].value))
		verdict = "reproduced";
	else
		verdict = "not reproduced";
	if (b->finding)
		printf("%s: finding, no upstream fix; from %s (%s)\n", b->name,
		       b->fix_subject, b->fix_commit);
	else
		printf("%s: %s (%s)\n", b->name, b->fix_subject, b->fix_commit);
	for (k = 0; k < 2; k++) {
		printf("  %s %-14s %-12.12s ", sd[k].label, sd[k].shown,
		       sd[k].commit);
		if (sd[k].has_value)
			printf("%s = %.6g\n", b->metric, sd[k].value);
		else
			printf("%s\n", driver_status_name(sd[k].status));
	}
	printf("  buggy when %s %g: %s (%.1f s)\n",
	       b->buggy_above ? "above" : "below", b->threshold, verdict,
	       lsb_now() - t0);
	if (write_verdict(b, sd, verdict, dir)) {
		fprintf(stderr, "error: cannot write '%s/verdict.json': %s\n",
			dir, strerror(errno));
		return 1;
	}
	if (ok) {
		if (draw(b, sd, dir))
			return 1;
		printf("  figure: %s/signal.png\n", dir);
	}
	return strcmp(verdict, "reproduced") != 0;
}

static int bugs_run(const struct bug *bugs, size_t n, char **names,
		    int nr_names, int all, const struct bugs_opts *o)
{
	const struct bug **todo = calloc(n ? n : 1, sizeof(*todo));
	bisect_repo *repo = NULL;
	size_t k = 0, i, failed = 0;
	char top[4200];
	int j;

	if (!todo)
		return 1;
	for (i = 0; all && i < n; i++)
		todo[k++] = &bugs[i];
	for (j = 0; !all && j < nr_names; j++) {
		todo[k] = bug_find(bugs, n, names[j]);
		if (!todo[k]) {
			fprintf(stderr, "error: no entry '%s' in the catalogue (linsched bugs list)\n",
				names[j]);
			free(todo);
			return 2;
		}
		k++;
	}
	if (o->out)
		lsb_pathf(top, sizeof(top), "%s", o->out);
	else
		lsb_pathf(top, sizeof(top), "%s/bugs", paths.data_dir);
	if (cmd_out_dir(top, "linsched bugs run")) {
		free(todo);
		return 1;
	}
	if (bisect_repo_open(&repo, history)) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		free(todo);
		return 1;
	}
	for (i = 0; i < k; i++)
		failed += run_bug(todo[i], repo, o) != 0;
	if (k > 1)
		printf("%zu of %zu reproduced\n", k - failed, k);
	bisect_repo_free(repo);
	free(todo);
	return failed ? 1 : 0;
}

int cmd_bugs(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "catalogue", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bugs_opts o = { .timeout = 600, .jobs = 2 };
	const char *sub;
	struct bug *bugs;
	size_t n;
	long v;
	int c, all = 0, ret;

	/* GNU getopt: options before and after the subcommand and names */
	while ((c = getopt_long(argc, argv, "ac:o:j:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'a': all = 1; break;
		case 'c': o.catalogue = optarg; break;
		case 'o': o.out = optarg; break;
		case 'T':
		case 'j':
			if (lsb_parse_long(optarg, 1, c == 'j' ? 256 : 86400, &v)) {
				fprintf(stderr, "error: --%s: expected a whole number, got '%s'\n",
					c == 'j' ? "jobs" : "timeout", optarg);
				return 2;
			}
			*(c == 'j' ? &o.jobs : &o.timeout) = (int)v;
			break;
		case 'v': o.verbose = 1; break;
		case 'h':
			fputs(usage_bugs, stdout);
			return 0;
		default:
			fputs(usage_bugs, stderr);
			return 2;
		}
	}
	sub = optind < argc ? argv[optind++] : NULL;
	if (!sub || (strcmp(sub, "list") && strcmp(sub, "show") &&
		     strcmp(sub, "run"))) {
		if (sub)
			fprintf(stderr, "error: unknown subcommand '%s'\n\n", sub);
		fputs(usage_bugs, stderr);
		return 2;
	}
	if (cmd_check_out_dir("--out", o.out))
		return 2;
	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	lsb_pathf(history, sizeof(history), "%s/kernels.git", paths.data_dir);
	if (load(o.catalogue, &bugs, &n))
		return 1;
	ret = 0;
	if (!strcmp(sub, "list")) {
		list(bugs, n);
	} else if (!strcmp(sub, "show")) {
		const struct bug *b = optind + 1 == argc ?
				      bug_find(bugs, n, argv[optind]) : NULL;

		if (b)
			show(b);
		else if (optind + 1 == argc)
			fprintf(stderr, "error: no entry '%s' in the catalogue (linsched bugs list)\n",
				argv[optind]);
		else
			fprintf(stderr, "error: linsched bugs show takes one name\n");
		ret = b ? 0 : 2;
	} else if (all == (optind < argc)) {
		fprintf(stderr, "error: linsched bugs run takes names or --all\n");
		ret = 2;
	} else {
		ret = bugs_run(bugs, n, argv + optind, argc - optind, all, &o);
	}
	bugs_free(bugs, n);
	return ret;
}
