// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched timeline - run a revision with a trace and draw, per CPU, which
 * task ran when, the idle states and the frequency, with gnuplot.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"
#include "plots/plots.h"
#include "sim/sim.h"
#include "topologies/topologies.h"

static const char usage_timeline[] =
"usage: linsched timeline REV --workload W --topology T [options]\n"
"\n"
"Run revision REV like 'linsched run' with a trace, and draw a per-CPU\n"
"timeline with gnuplot: one lane per CPU with the tasks it ran (the 12\n"
"busiest named in the legend, the rest as \"other\"), its idle time shaded\n"
"by idle state (lighter: shallower) and its frequency as a line in a strip\n"
"at the bottom of the lane (0 to the CPU's highest OPP); an offline CPU's\n"
"lane is blank. Writes, in the output directory: timeline.dat (one\n"
"interval a line: cpu, start and end in ms, colour index, pid, label),\n"
"freq.dat, timeline.gp (the gnuplot script: edit it and run 'gnuplot\n"
"timeline.gp' there), timeline.png, timeline.svg, and the run's trace.txt\n"
"and run.json.\n"
"\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -w, --workload W    as for 'linsched run'\n"
"  -t, --topology T    as for 'linsched run'\n"
"  -d, --duration D    simulated time (default: an rt-app file's\n"
"                      global.duration, else 10s)\n"
"  -s, --seed S        seed of every random choice (default 1)\n"
"      --from T0       start of the window drawn (default 0)\n"
"      --to T1         its end (default: T0 + 100ms, or the run's end)\n"
"      --mark M        mark a moment or a span, as T[-T2][@CPUS][:TEXT]:\n"
"                      a red line at T, or a red band from T to T2, over\n"
"                      the CPU list CPUS' lanes (default all), labelled\n"
"                      TEXT (e.g. 97ms-341ms@0:t3 starved); repeatable,\n"
"                      up to 4\n"
"  -o, --out DIR       output directory (default: DATA/timeline-REV-W-T,\n"
"                      DATA being build/ in a build tree)\n"
"      --governor G    schedutil (default), performance or powersave\n"
"      --cpuidle G     the revision's governor (default), menu, teo, ladder,\n"
"                      poll or sim\n"
"      --no-energy-model  keep the OPPs out of the kernel's energy model\n"
"      --timeout S     wall-clock limit of the simulation (default 600)\n"
"  -j, --jobs N        parallel build jobs (default 2)\n"
"  -v, --verbose       show kbuild's output\n"
"  -h, --help          this text\n"
"\n"
"Times take a unit: 10ms, 500us, 2s. Exit status as for 'linsched run':\n"
"0 drawn, 1 error, 2 usage, 3 the revision does not build, 4 the kernel\n"
"crashed, 5 hang or time-out, 6 no adapter covers the revision.\n";

#define NAMED 12		/* tasks named in the legend */
#define C_OTHER NAMED		/* colour index of the other tasks */
#define C_IDLE (NAMED + 1)	/* idle, no idle state (polling, exit) */
#define C_STATE (NAMED + 2)	/* + state index: idle in a state */
#define NO_STATE 4294967295UL	/* cpu_idle on exit */

static const char *const task_rgb[NAMED + 1] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939",
	"#303030",
};

/* Lighter is shallower; deeper states than these take the last. */
static const char *const idle_rgb[] = {
	"#e4e4e4", "#c4c4c4", "#a8a8a8", "#8c8c8c", "#707070",
};

struct seg {
	int cpu;
	uint64_t start, end;	/* us */
	int pid;		/* 0: idle */
	int state;		/* idle: the state index, -1 none */
};

struct task {
	int pid;
	char comm[32];
	uint64_t total;		/* us in the window */
	int colour;
};

struct cpu_now {
	int known;
	uint64_t since;
	int pid;
	int state;
	size_t last;		/* its last interval + 1; 0: none yet */
};

struct freq {
	int cpu;
	uint64_t t;
	unsigned long khz;
};

static struct topology topo;
/*
 * cpu_idle's states are a cpuidle driver's (POLL first, unless the type
 * has no polling state), as the revision's governor picks by default;
 * with --cpuidle poll or sim, the type's own indexes.
 */
static int driver_idle = 1;

/* The type's idle state of a cpu_idle index on @cpu; -1: none (POLL). */
static int idle_state_of(int cpu, unsigned long index)
{
	const struct topology_type *ty = &topo.types[topo.cpu[cpu].type];
	long k = (long)index;

	if (driver_idle && !ty->no_polling_state && ty->nr_states)
		k--;
	if (k < 0)
		return -1;
	return k < TOPOLOGY_MAX_STATES ? (int)k : TOPOLOGY_MAX_STATES - 1;
}
static struct seg *segs;
static size_t nr_segs, cap_segs;
static struct task *tasks;
static size_t nr_tasks, cap_tasks;
static struct freq *freqs;
static size_t nr_freqs, cap_freqs;
static uint64_t win_from, win_to;

/* --mark: a moment or span (us) over some CPUs' lanes, labelled */
#define MAX_MARKS 4
static struct mark {
	uint64_t from, to;
	char cpus[TOPOLOGY_MAX_CPUS];	/* all zero: every lane */
	const char *text;
} marks[MAX_MARKS];
static int nr_marks;
static int freq_lines;		/* CPUs with a line in freq.dat */

/* Room for element @n of *@array; out of memory ends the command. */
static void grow(void *array, size_t *cap, size_t n, size_t size)
{
	if (lsb_grow(array, cap, n + 1, size)) {
		perror("linsched timeline");
		exit(1);
	}
}

static struct task *task_get(int pid, const char *comm)
{
	size_t i;

	for (i = 0; i < nr_tasks; i++)
		if (tasks[i].pid == pid)
			break;
	if (i == nr_tasks) {
		grow(&tasks, &cap_tasks, nr_tasks, sizeof(*tasks));
		memset(&tasks[i], 0, sizeof(*tasks));
		tasks[i].pid = pid;
		nr_tasks++;
	}
	if (comm)	/* the newest name: exec() and prctl() rename */
		snprintf(tasks[i].comm, sizeof(tasks[i].comm), "%s", comm);
	return &tasks[i];
}

/* Close what CPU @cpu did since its last event, clipped to the window. */
static void cpu_close(struct cpu_now *c, int cpu, uint64_t t)
{
	uint64_t s = c->since > win_from ? c->since : win_from;
	uint64_t e = t < win_to ? t : win_to;
	struct seg *last = c->last ? &segs[c->last - 1] : NULL;

	if (!c->known || e <= s) {
		c->since = t;
		return;
	}
	if (c->pid)
		task_get(c->pid, NULL)->total += e - s;
	c->since = t;
	/* A task's time across its own switch events is one interval. */
	if (last && last->end == s &&
	    last->pid == c->pid && last->state == c->state) {
		last->end = e;
		return;
	}
	grow(&segs, &cap_segs, nr_segs, sizeof(*segs));
	segs[nr_segs++] = (struct seg){ cpu, s, e, c->pid, c->state };
	c->last = nr_segs;
}

static int read_trace(const char *path, uint64_t end)
{
	struct cpu_now *now = calloc(topo.nr_cpus, sizeof(*now));
	FILE *f = fopen(path, "r");
	char line[1024], comm[64];
	const char *ev, *p;
	unsigned long state;
	uint64_t t;
	int cpu, pid, i;

	if (!f || !now) {
		fprintf(stderr, "error: cannot read the trace '%s': %s\n",
			path, strerror(errno));
		free(now);
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (lsb_trace_line(line, &cpu, &t, &ev))
			continue;
		if (!strncmp(ev, "sched_switch:", 13)) {
			if (lsb_trace_switch(ev, comm, sizeof(comm), &pid) ||
			    cpu < 0 || cpu >= topo.nr_cpus)
				continue;
			cpu_close(&now[cpu], cpu, t);
			now[cpu].known = 1;
			now[cpu].pid = pid;
			now[cpu].state = -1;
			if (pid)
				task_get(pid, comm);
		} else if (!strncmp(ev, "cpuhp_enter:", 12) &&
			   strstr(ev, "(sched_cpu_dying)")) {
			/* the CPU is gone: a blank lane until it runs again */
			if (cpu < 0 || cpu >= topo.nr_cpus)
				continue;
			cpu_close(&now[cpu], cpu, t);
			now[cpu].known = 0;
		} else if (!strncmp(ev, "cpu_idle:", 9) ||
			   !strncmp(ev, "cpu_frequency:", 14)) {
			p = strchr(ev, ':') + 1;
			if (sscanf(p, " state=%lu cpu_id=%d", &state, &cpu) != 2 ||
			    cpu < 0 || cpu >= topo.nr_cpus)
				continue;
			if (*ev == 'c' && ev[4] == 'f') {
				grow(&freqs, &cap_freqs, nr_freqs, sizeof(*freqs));
				freqs[nr_freqs++] = (struct freq){ cpu, t, state };
				continue;
			}
			cpu_close(&now[cpu], cpu, t);
			now[cpu].known = 1;
			now[cpu].state = state == NO_STATE ? -1 :
				idle_state_of(cpu, state);
		}
	}
	fclose(f);
	for (i = 0; i < topo.nr_cpus; i++)
		cpu_close(&now[i], i, end);
	free(now);
	return 0;
}

static int by_total(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->pid - y->pid;
}

static int colour_of(const struct seg *s)
{
	size_t i;

	if (!s->pid)
		return s->state < 0 ? C_IDLE : C_STATE + s->state;
	for (i = 0; i < nr_tasks; i++)
		if (tasks[i].pid == s->pid)
			return tasks[i].colour;
	return C_OTHER;
}

static const char *type_of(int cpu)
{
	return topo.types[topo.cpu[cpu].type].name;
}

static unsigned long max_khz(int cpu)
{
	const struct topology_type *ty = &topo.types[topo.cpu[cpu].type];

	return ty->nr_opps ? ty->opps[ty->nr_opps - 1].khz : 0;
}

static void ms(FILE *f, uint64_t us)
{
	fprintf(f, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
}

static int write_dat(const char *dir)
{
	char path[4200];
	FILE *f;
	size_t i;
	int cpu;

	lsb_pathf(path, sizeof(path), "%s/timeline.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# cpu start_ms end_ms colour pid label\n");
	for (i = 0; i < nr_segs; i++) {
		const struct seg *s = &segs[i];

		fprintf(f, "%d ", s->cpu);
		ms(f, s->start);
		fputc(' ', f);
		ms(f, s->end);
		if (s->pid)
			fprintf(f, " %d %d \"%s\"\n", colour_of(s), s->pid,
				task_get(s->pid, NULL)->comm);
		else if (s->state < 0)
			fprintf(f, " %d 0 \"idle\"\n", colour_of(s));
		else
			fprintf(f, " %d 0 \"idle:%d\"\n", colour_of(s),
				s->state);
	}
	if (fclose(f))
		return -1;

	/* Per CPU a step line: the value at the window's start, each change
	 * in it and the value at its end; a blank line between CPUs. */
	lsb_pathf(path, sizeof(path), "%s/freq.dat", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# cpu time_ms khz fraction_of_max\n");
	for (cpu = 0; cpu < topo.nr_cpus; cpu++) {
		unsigned long top = max_khz(cpu), cur = 0;
		int any = 0;

		for (i = 0; i < nr_freqs && top; i++) {
			if (freqs[i].cpu != cpu || freqs[i].t > win_to)
				continue;
			if (freqs[i].t > win_from && cur && !any) {
				fprintf(f, "%d ", cpu);
				ms(f, win_from);
				fprintf(f, " %lu %.4f\n", cur, (double)cur / top);
				any = 1;
			}
			cur = freqs[i].khz;
			if (freqs[i].t < win_from)
				continue;
			fprintf(f, "%d ", cpu);
			ms(f, freqs[i].t);
			fprintf(f, " %lu %.4f\n", cur, (double)cur / top);
			any = 1;
		}
		if (cur) {
			freq_lines++;
			fprintf(f, "%d ", cpu);
			ms(f, win_to);
			fprintf(f, " %lu %.4f\n\n", cur, (double)cur / top);
		}
	}
	return fclose(f) ? -1 : 0;
}

/* "WFI", or "WFI | C1" when CPU types name state @s differently. */
static void state_name(char *buf, size_t len, int s)
{
	int i, n = 0;

	*buf = '\0';
	for (i = 0; i < topo.nr_types; i++) {
		const char *name;

		if (s >= topo.types[i].nr_states)
			continue;
		name = topo.types[i].states[s].name;
		if (*buf && strstr(buf, name))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? " | " : "", name);
		if ((size_t)n >= len)
			break;
	}
}

/* a point at time @us, at the bottom or top (@top) of CPU @cpu's lane or
 * (@cpu < 0) of the graph */
static void mark_at(FILE *f, uint64_t us, int cpu, int top)
{
	fputs("first ", f);
	ms(f, us);
	if (cpu < 0)
		fprintf(f, ", graph %d", top);
	else
		fprintf(f, ", first Y(%d) %c 0.5", cpu, top ? '+' : '-');
}

/* --mark's lines and bands, in front of the lanes, and their labels */
static void write_marks(FILE *f)
{
	const struct mark *m;
	int c, all;

	if (nr_marks)
		fputs("set style textbox opaque fc rgb 'white' noborder\n", f);
	for (m = marks; m < marks + nr_marks; m++) {
		for (all = 1, c = 0; c < topo.nr_cpus; c++)
			all &= !m->cpus[c];
		for (c = all ? -1 : 0; c < (all ? 0 : topo.nr_cpus); c++) {
			if (c >= 0 && !m->cpus[c])
				continue;
			fputs(m->to > m->from ? "set object rectangle from " :
			      "set arrow from ", f);
			mark_at(f, m->from, c, 0);
			fputs(" to ", f);
			mark_at(f, m->to > m->from ? m->to : m->from, c, 1);
			fputs(m->to > m->from ?
			      " fc rgb '#ff0000' fs transparent solid 0.18 border lc rgb '#c00000' front\n" :
			      " nohead lw 2 lc rgb '#c00000' front\n", f);
		}
		if (m->text) {
			fputs("set label ", f);
			plot_quote(f, m->text);
			fputs(" at first ", f);
			ms(f, m->from);
			fprintf(f, ", graph 1 offset 0.3,-%d tc rgb '#c00000' boxed front\n",
				1 + (int)(m - marks));
		}
	}
}

static int write_gp(const char *dir, const char *title, int *width,
		    int *height)
{
	int used[C_STATE + TOPOLOGY_MAX_STATES] = { 0 };
	int n = topo.nr_cpus, lane = n <= 16 ? 64 : n <= 48 ? 28 : 14;
	int keys = 1, i, k, first = 1;
	char path[4200], name[128];
	size_t j;
	FILE *f;

	for (j = 0; j < nr_segs; j++)
		used[colour_of(&segs[j])] = 1;
	for (k = 0; k < C_STATE + TOPOLOGY_MAX_STATES; k++)
		keys += used[k];
	*width = 1400;
	*height = 150 + lane * n;
	if (*height < 120 + 20 * keys)	/* the legend's height */
		*height = 120 + 20 * keys;

	lsb_pathf(path, sizeof(path), "%s/timeline.gp", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# linsched timeline: gnuplot timeline.gp (in this directory)\n"
		"# timeline.dat: cpu start_ms end_ms colour pid label\n"
		"# freq.dat: cpu time_ms khz fraction_of_max\n"
		"N = %d\nY(c) = N - 1 - c\t# cpu 0 at the top\n"
		"set terminal pngcairo size %d,%d font 'sans,10'\n"
		"set output 'timeline.png'\n"
		"set termoption noenhanced\nset title ", n, *width, *height);
	plot_quote(f, title);
	fprintf(f, "\nset xlabel 'time (ms)'\nset xrange [");
	ms(f, win_from);
	fputc(':', f);
	ms(f, win_to);
	fprintf(f, "]\nset yrange [-0.5:N - 0.5]\nset ytics scale 0 (");
	for (i = 0; i < n; i++)
		fprintf(f, "%s'cpu %d (%s)' Y(%d)", i ? ", " : "", i,
			type_of(i), i);
	fprintf(f, ")\n");
	for (i = 0; i < n; i++)	/* the frequency strips */
		if (max_khz(i))
			fprintf(f, "set object rectangle from graph 0, first Y(%d) - 0.44 to graph 1, first Y(%d) - 0.12 fc rgb '#e4ecf8' fs solid 1.0 noborder behind\n",
				i, i);
	write_marks(f);
	fprintf(f, "set xtics out nomirror\nset mxtics\n"
		"set grid xtics lc rgb '#e0e0e0' lw 1\n"
		"do for [c = 1:N - 1] {\n"
		"\tset arrow from graph 0, first c - 0.5 to graph 1, first c - 0.5 nohead lc rgb '#b0b0b0' front\n"
		"}\n"
		"set key outside right top vertical Left reverse samplen 1.5 spacing 1.1\n"
		"set style fill solid 1.0 noborder\n"
		"# a lane: tasks and idle from Y - 0.06 to Y + 0.42; the frequency\n"
		"# strip below, from Y - 0.44 (0 kHz) to Y - 0.12 (the CPU's max)\n"
		"box(k) = (column(4) == k ? (column(2) + column(3)) / 2 : NaN)\n"
		"plot \\\n");
	for (k = 0; k < C_STATE + TOPOLOGY_MAX_STATES; k++) {
		const char *rgb;

		if (!used[k])
			continue;
		if (k < C_OTHER) {
			rgb = task_rgb[k];
			for (j = 0; j < nr_tasks; j++)
				if (tasks[j].colour == k)
					break;
			snprintf(name, sizeof(name), "%s", tasks[j].comm);
		} else if (k == C_OTHER) {
			rgb = task_rgb[k];
			snprintf(name, sizeof(name), "other tasks");
		} else if (k == C_IDLE) {
			rgb = "#ffffff";
			snprintf(name, sizeof(name), "idle, no state");
		} else {
			i = k - C_STATE;
			rgb = idle_rgb[i < 5 ? i : 4];
			memcpy(name, "idle: ", 6);
			state_name(name + 6, sizeof(name) - 6, i);
		}
		/* without a frequency strip, the boxes fill the lane */
		fprintf(f, "%s  'timeline.dat' using (box(%d)):(Y($1) + %s) with boxxyerror lc rgb '%s' title ",
			first ? "" : ", \\\n", k,
			freq_lines ? "0.18):(($3 - $2) / 2):(0.24" :
			"0):(($3 - $2) / 2):(0.38", rgb);
		plot_quote(f, name);
		first = 0;
	}
	if (freq_lines)
		fprintf(f, "%s  'freq.dat' using 2:(Y($1) - 0.44 + 0.32 * $4) with steps lw 1.5 lc rgb '#000060' title 'frequency (0 to the max)'",
			first ? "" : ", \\\n");
	fputc('\n', f);
	fprintf(f, "\nset terminal svg size %d,%d font 'sans,10' background rgb 'white'\n"
		"set termoption noenhanced\n"
		"set output 'timeline.svg'\nreplot\nunset output\n",
		*width, *height);
	return fclose(f) ? -1 : 0;
}

/* "0", or a duration, in microseconds. */
static int parse_time(uint64_t *us, const char *s, const char *opt)
{
	uint64_t ns = 0;

	if (strcmp(s, "0") && sim_parse_duration(&ns, s)) {
		fprintf(stderr, "error: %s: '%s' is not a time (e.g. 20ms)\n",
			opt, s);
		return -1;
	}
	*us = ns / 1000;
	return 0;
}

/*
 * --mark T[-T2][@CPUS][:TEXT] into @m (the machine known): the text is
 * what follows the first ':', the CPU list what follows '@' before it
 */
static int parse_mark(struct mark *m, const char *arg)
{
	char spec[128], *text, *at, *dash;
	int count;

	snprintf(spec, sizeof(spec), "%s", arg);
	text = strchr(arg, ':');
	if (text) {
		m->text = text + 1;
		spec[text - arg < (long)sizeof(spec) ? text - arg : 0] = '\0';
	}
	at = strchr(spec, '@');
	if (at) {
		*at++ = '\0';
		if (topology_cpulist(at, topo.nr_cpus, m->cpus, &count) ||
		    !count) {
			fprintf(stderr, "error: --mark '%s': '%s' is not a list of the machine's CPUs (0-%d)\n",
				arg, at, topo.nr_cpus - 1);
			return -1;
		}
	}
	dash = strchr(spec, '-');
	if (dash)
		*dash++ = '\0';
	if (parse_time(&m->from, spec, "--mark") ||
	    (dash && parse_time(&m->to, dash, "--mark")))
		return -1;
	if (dash && m->to < m->from) {
		fprintf(stderr, "error: --mark '%s': the span ends before it starts\n",
			arg);
		return -1;
	}
	return 0;
}

/* The run's JSON: its duration (us) and a title; -1 when unreadable. */
static int read_json(const char *path, uint64_t *dur, char *title,
		     size_t len)
{
	char *text = lsb_read_file(path, NULL);
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	const char *wl;
	char name[300];

	free(text);
	if (!root)
		return -1;
	*dur = (uint64_t)cJSON_GetNumberValue(
		cJSON_GetObjectItem(root, "duration_ns")) / 1000;
	/* a workload file by its short name, not its whole path */
	wl = cJSON_GetStringValue(cJSON_GetObjectItem(root, "workload"));
	snprintf(title, len, "Linux %s on %s: %s (seed %g)",
		 cJSON_GetStringValue(cJSON_GetObjectItem(root, "kernel_version")),
		 cJSON_GetStringValue(cJSON_GetObjectItem(root, "topology")),
		 wl ? lsb_short_name(name, sizeof(name), wl) : "?",
		 cJSON_GetNumberValue(cJSON_GetObjectItem(root, "seed")));
	cJSON_Delete(root);
	return 0;
}

static int run(struct driver_revision *rev, char **extra, int nr_extra,
	       const char *dir, int timeout)
{
	char trace[4200], json[4200], *args[40];
	int n = 0, i;

	lsb_pathf(trace, sizeof(trace), "%s/trace.txt", dir);
	lsb_pathf(json, sizeof(json), "%s/run.json", dir);
	n = driver_sim_identity(args, rev);
	for (i = 0; i < nr_extra; i++)
		args[n++] = extra[i];
	args[n++] = "--trace";
	args[n++] = trace;
	args[n++] = "--json";
	args[n++] = json;
	args[n++] = "--no-metrics";
	args[n] = NULL;
	return cmd_sim_status(rev, driver_run(rev->exe, args, timeout, 0));
}

/* The command line, checked. */
struct timeline_opts {
	const char *rev, *repo, *workload, *topology, *duration, *seed;
	const char *out, *from, *to;
	const char *mark[MAX_MARKS];	/* --mark, parsed once the machine is */
	int nr_mark;
	char *extra[24];	/* the simulator's arguments */
	int n, jobs, verbose, timeout;
	char dir[4200];
};

static int timeline_option(struct timeline_opts *o, int c, char *arg)
{
	switch (c) {
	case 'r': o->repo = arg; break;
	case 'w': o->workload = arg; break;
	case 't':
		o->topology = arg;
		return cmd_topology_arg(&o->topology);
	case 'd': o->duration = arg; break;
	case 's': o->seed = arg; return cmd_opt_seed(arg, NULL);
	case 'F': o->from = arg; break;
	case 'T': o->to = arg; break;
	case 'M':
		if (o->nr_mark == MAX_MARKS) {
			fprintf(stderr, "error: --mark '%s': %d marks at most\n",
				arg, MAX_MARKS);
			return -1;
		}
		o->mark[o->nr_mark++] = arg;
		break;
	case 'o': o->out = arg; break;
	case 'G':
		if (opt_governor(arg))
			return -1;
		o->extra[o->n++] = "--governor";
		o->extra[o->n++] = arg;
		break;
	case 'I':
		if (opt_cpuidle(arg))
			return -1;
		driver_idle = strcmp(arg, "poll") && strcmp(arg, "sim");
		o->extra[o->n++] = "--cpuidle";
		o->extra[o->n++] = arg;
		break;
	case 'E': o->extra[o->n++] = "--no-energy-model"; break;
	case 'O': return opt_int("--timeout", arg, 0, 1000000, &o->timeout);
	case 'j': return opt_int("--jobs", arg, 1, 256, &o->jobs);
	case 'v': o->verbose = 1; break;
	default:
		fputs(usage_timeline, stderr);
		return -1;
	}
	if (o->n > 8) {	/* repeated options */
		fputs(usage_timeline, stderr);
		return -1;
	}
	return 0;
}

/* The options into @o and the window: -1 to go on, else the status. */
static int parse_timeline(struct timeline_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "workload", required_argument, NULL, 'w' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "mark", required_argument, NULL, 'M' },
		{ "out", required_argument, NULL, 'o' },
		{ "governor", required_argument, NULL, 'G' },
		{ "cpuidle", required_argument, NULL, 'I' },
		{ "no-energy-model", no_argument, NULL, 'E' },
		{ "timeout", required_argument, NULL, 'O' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	uint64_t dns;
	int c;

	o->seed = "1";
	o->jobs = 2;
	o->timeout = 600;
	while ((c = getopt_long(argc, argv, "r:w:t:d:s:o:j:vh", opts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_timeline, stdout);
			return 0;
		}
		if (timeline_option(o, c, optarg))
			return 2;
	}
	if (optind + 1 != argc || !o->workload || !o->topology) {
		fprintf(stderr, "error: %s\n", optind + 1 != argc ?
			"linsched timeline takes one revision" :
			"--workload and --topology are required");
		fputs(usage_timeline, stderr);
		return 2;
	}
	o->rev = argv[optind];
	if (driver_check_specs(&o->workload, o->topology, o->duration, NULL) ||
	    topology_from_spec(&topo, o->topology, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", *driver_last_error() ?
			driver_last_error() : err);
		return 2;
	}
	if ((o->from && parse_time(&win_from, o->from, "--from")) ||
	    (o->to && parse_time(&win_to, o->to, "--to")))
		return 2;
	for (c = 0; c < o->nr_mark; c++)
		if (parse_mark(&marks[nr_marks++], o->mark[c]))
			return 2;
	if (o->to && win_to <= win_from) {
		fprintf(stderr, "error: --to (%s) must come after --from (%s)\n",
			o->to, o->from ? o->from : "0");
		return 2;
	}
	if (o->duration && !sim_parse_duration(&dns, o->duration) &&
	    win_from >= dns / 1000) {
		fprintf(stderr, "error: --from %s is not before the run's end (%s)\n",
			o->from, o->duration);
		return 2;
	}
	o->extra[o->n++] = "--workload";
	o->extra[o->n++] = (char *)o->workload;
	o->extra[o->n++] = "--topology";
	o->extra[o->n++] = (char *)o->topology;
	o->extra[o->n++] = "--seed";
	o->extra[o->n++] = (char *)o->seed;
	if (o->duration) {
		o->extra[o->n++] = "--duration";
		o->extra[o->n++] = (char *)o->duration;
	}
	return -1;
}

/* The output directory made, the revision built and run with a trace. */
static int timeline_run(struct timeline_opts *o)
{
	static struct driver_paths paths;
	struct driver_revision rev;
	int ret;

	if (driver_paths_init(&paths)) {
		fprintf(stderr, "error: %s\n", driver_last_error());
		return 1;
	}
	if (o->out) {
		snprintf(o->dir, sizeof(o->dir), "%s", o->out);
	} else {
		char name[300];

		snprintf(name, sizeof(name), "timeline-%s-%.120s-%.60s",
			 o->rev, o->workload, o->topology);
		lsb_safe_name(name);
		lsb_pathf(o->dir, sizeof(o->dir), "%s/%s", paths.data_dir,
			  name);
	}
	if (cmd_out_dir(o->dir, "linsched timeline"))
		return 1;
	ret = cmd_prepare(&rev, &paths, o->repo ? o->repo : paths.repo,
			  o->rev, o->jobs, o->verbose);
	if (ret)
		return ret;
	ret = run(&rev, o->extra, o->n, o->dir, o->timeout);
	driver_revision_release(&rev);
	return ret;
}

/* The trace of the window drawn: timeline.{dat,gp,png,svg}. */
static int timeline_draw(const struct timeline_opts *o)
{
	const char *dir = o->dir;
	char path[4300], title[1024];
	uint64_t dur = 0;
	int w, h;

	lsb_pathf(path, sizeof(path), "%s/run.json", dir);
	if (read_json(path, &dur, title, sizeof(title))) {
		fprintf(stderr, "error: cannot read the run's results '%s'\n",
			path);
		return 1;
	}
	if (win_from >= dur) {
		fprintf(stderr, "error: --from %s is not before the run's end (%" PRIu64 " ms)\n",
			o->from, dur / 1000);
		return 2;
	}
	if (!o->to)
		win_to = win_from + 100000;
	if (win_to > dur)
		win_to = dur;
	lsb_pathf(path, sizeof(path), "%s/trace.txt", dir);
	if (read_trace(path, dur))
		return 1;
	qsort(tasks, nr_tasks, sizeof(*tasks), by_total);
	for (size_t i = 0; i < nr_tasks; i++)
		tasks[i].colour = i < NAMED && tasks[i].total ? (int)i : C_OTHER;
	if (write_dat(dir) || write_gp(dir, title, &w, &h)) {
		fprintf(stderr, "error: cannot write in '%s': %s\n", dir,
			strerror(errno));
		return 1;
	}
	if (run_gnuplot(dir, "timeline.gp"))
		return 1;
	if (win_from || win_to < dur)
		printf("timeline: %" PRIu64 ".%03" PRIu64 " to %" PRIu64
		       ".%03" PRIu64 " ms of a %" PRIu64 ".%03" PRIu64
		       " ms run%s\n", win_from / 1000, win_from % 1000,
		       win_to / 1000, win_to % 1000, dur / 1000, dur % 1000,
		       o->to ? "" : " (--from/--to choose the window)");
	printf("%s/timeline.png (%dx%d)\n%s/timeline.svg\n%s/timeline.gp\n%s/timeline.dat\n",
	       dir, w, h, dir, dir, dir);
	return 0;
}

int cmd_timeline(int argc, char **argv)
{
	static struct timeline_opts o;
	int ret;

	ret = parse_timeline(&o, argc, argv);
	if (ret >= 0)
		return ret;
	if (cmd_check_out_dir("--out", o.out))
		return 2;
	ret = timeline_run(&o);
	if (!ret)
		ret = timeline_draw(&o);
	free(segs);
	free(tasks);
	free(freqs);
	return ret;
}
