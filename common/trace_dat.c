// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_dat.c - trace-cmd's binary trace.dat (a run's --trace FILE.dat, or
 * `trace-cmd record` on a real machine) read through libtracecmd and
 * libtraceevent, as the ftrace text its readers take: each event in time
 * order, its fields as the event's own print fmt prints them (no plugins:
 * trace-cmd's sched_switch plugin prints another shape).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "common/common.h"

static const char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				  'i', 'n', 'g' };

int lsb_trace_is_dat(const char *path)
{
	char head[sizeof(dat_magic)];
	FILE *f = fopen(path, "rb");
	int is;

	if (!f)
		return 0;
	is = fread(head, sizeof(head), 1, f) == 1 &&
	     !memcmp(head, dat_magic, sizeof(head));
	fclose(f);
	return is;
}

struct dat_text {
	FILE *out;
	struct trace_seq seq;
	char *end;	/* a simulation's lsb_end, written last */
	unsigned long long end_ns;
};

static int dat_line(struct tracecmd_input *in, struct tep_record *rec,
		    int cpu, void *data)
{
	struct dat_text *t = data;
	struct tep_handle *tep = tracecmd_get_tep(in);
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	int pid = tep_data_pid(tep, rec);

	if (!ev)
		return 0;
	trace_seq_reset(&t->seq);
	tep_print_event(tep, &t->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	/*
	 * lsb_end closes a simulation's trace: the other CPUs' events of its
	 * time come after it in CPU order, but were before it in the run
	 */
	if (!strcmp(ev->name, "lsb_end") && !t->end) {
		t->end = strdup(t->seq.buffer);
		t->end_ns = rec->ts;
		return 0;
	}
	/* the simulator's own --trace line, nanoseconds */
	fprintf(t->out, "%16.16s-%-7d [%03d] ..... %5llu.%09llu: %s: %s\n",
		pid ? tep_data_comm_from_pid(tep, pid) : "<idle>", pid, cpu,
		rec->ts / 1000000000ULL, rec->ts % 1000000000ULL, ev->name,
		t->seq.buffer);
	return 0;
}

FILE *lsb_trace_dat_text(const char *path, char *err, size_t len)
{
	struct tracecmd_input *in;
	struct dat_text t;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	in = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!in) {
		snprintf(err, len, "trace '%s': not a trace.dat libtracecmd reads",
			 path);
		return NULL;
	}
	t.out = tmpfile();
	if (!t.out) {
		snprintf(err, len, "trace '%s': temporary file: %s", path,
			 strerror(errno));
		tracecmd_close(in);
		return NULL;
	}
	trace_seq_init(&t.seq);
	t.end = NULL;
	tracecmd_iterate_events(in, NULL, 0, dat_line, &t);
	if (t.end)
		fprintf(t.out, "%16.16s-%-7d [000] ..... %5llu.%09llu: lsb_end: %s\n",
			"<idle>", 0, t.end_ns / 1000000000ULL,
			t.end_ns % 1000000000ULL, t.end);
	free(t.end);
	trace_seq_destroy(&t.seq);
	tracecmd_close(in);
	if (fflush(t.out) || fseek(t.out, 0, SEEK_SET)) {
		snprintf(err, len, "trace '%s': temporary file: %s", path,
			 strerror(errno));
		fclose(t.out);
		return NULL;
	}
	return t.out;
}
