// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracedat.c - --trace FILE.dat: trace-cmd's binary trace.dat (version 6,
 * trace-cmd.dat.v6(5)), the file `trace-cmd record` writes and trace-cmd
 * report and KernelShark read.
 *
 * The events' formats are the revision's own: the arch makes each one's
 * tracefs format file from the tree's TRACE_EVENT (its struct, field
 * descriptors and stringified TP_printk, kernel/trace_format.c) and hands
 * it over with lh_trace_format(). The sched events' records come filled
 * by their own TP_fast_assign (lh_trace_record()); another event's record
 * (power, cgroup) is packed from the fields of its text line (the same
 * fields ftrace prints, by the names its print fmt prints them under) at
 * the offsets and sizes its format gives; an event without a format (our
 * lsb_* lines, the bare tracepoints written as lines of ours) is a
 * "lsbisect" event whose one string field is that text, printed as is.
 *
 * Records go into per-CPU ring-buffer pages (4096 bytes: a 16-byte page
 * header, then 4-byte event headers with 27-bit time deltas, a time
 * extend before a larger gap), in memory until the end of the run (past
 * 64 MB, a CPU's full pages go on to a temporary file); the header, the formats, the tasks' names
 * (saved cmdlines) and the CPU count are written before them.
 * libtracecmd 3.1's development package declares only its reading
 * functions (trace-cmd.h), so the writer is ours; the tests read its
 * output with the real trace-cmd.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

#define TD_PAGE 4096
#define TD_PAGE_HDR 16
#define TD_DELTA_MAX ((1U << 27) - 1)
#define TD_SMALL_MAX 112	/* type_len 1..28: the data in words */
#define TD_MAX_FIELDS 24
#define TD_MAX_RECORD 1024

enum td_kind { TD_INT, TD_CHARS, TD_STRING };

struct td_field {
	char name[48];
	int offset, size, is_signed, kind;
	char key[48];		/* the name its value follows in the text */
};

struct td_event {
	char system[32], name[64];
	int id;
	char *format;		/* the format file's text */
	int nr_fields, size;	/* size: the fixed part */
	int ours;		/* one string, the text */
	struct td_field f[TD_MAX_FIELDS];
};

struct td_cpu {
	unsigned char *mem;	/* the latest pages, the last being filled */
	size_t nr_mem, cap;	/* in pages */
	FILE *full;		/* the pages before them (a temporary file) */
	size_t nr_pages;	/* all of them */
	size_t used;		/* bytes of the last page's data */
	uint64_t last_ns;
};

struct td_comm {
	int pid;
	char comm[16];
};

#define TD_MEM_BUDGET (64 << 20)	/* bytes of pages kept in memory */
#define TD_HITS 64

struct sim_tracedat {
	int nr_cpus;
	struct td_cpu *cpu;
	struct td_event *ev;
	int nr_ev;
	struct td_comm *comm;
	int nr_comm;
	int next_id;
	size_t mem;		/* bytes of pages in memory */
	struct {		/* events by their name's address */
		const char *name;
		int idx;
	} hit[TD_HITS];
};

static void *td_realloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "error: trace.dat: out of memory\n");
		exit(SIM_EXIT_USAGE);
	}
	return p;
}

struct sim_tracedat *sim_tracedat_new(int nr_cpus)
{
	struct sim_tracedat *td = td_realloc(NULL, sizeof(*td));

	memset(td, 0, sizeof(*td));
	td->nr_cpus = nr_cpus;
	td->cpu = td_realloc(NULL, sizeof(*td->cpu) * (size_t)nr_cpus);
	memset(td->cpu, 0, sizeof(*td->cpu) * (size_t)nr_cpus);
	td->next_id = 1000;
	return td;
}

static struct td_event *td_find(struct sim_tracedat *td, const char *name)
{
	/* the callers' names are mostly string constants */
	unsigned int h = (unsigned int)((uintptr_t)name >> 3) % TD_HITS;
	int i;

	if (td->hit[h].name == name && !strcmp(td->ev[td->hit[h].idx].name, name))
		return &td->ev[td->hit[h].idx];
	for (i = 0; i < td->nr_ev; i++)
		if (!strcmp(td->ev[i].name, name)) {
			td->hit[h].name = name;
			td->hit[h].idx = i;
			return &td->ev[i];
		}
	return NULL;
}

/* "\tfield:TYPE NAME[N];\toffset:O;\tsize:S;\tsigned:G;" */
static void td_parse_field(struct td_event *e, const char *line)
{
	const char *semi = strchr(line, ';'), *name, *p;
	struct td_field *f;
	int n;

	if (!semi || e->nr_fields == TD_MAX_FIELDS)
		return;
	for (name = semi; name > line && name[-1] != ' '; name--)
		;
	f = &e->f[e->nr_fields];
	memset(f, 0, sizeof(*f));
	for (n = 0; name + n < semi && name[n] != '[' &&
	     n < (int)sizeof(f->name) - 1; n++)
		f->name[n] = name[n];
	if (!strncmp(f->name, "common_", 7))
		return;
	p = strstr(semi, "offset:");
	if (!p || sscanf(p, "offset:%d;\tsize:%d;\tsigned:%d", &f->offset,
			 &f->size, &f->is_signed) != 3)
		return;
	/* the type, before the name */
	if (!strncmp(line, "\tfield:__data_loc char", 22))
		f->kind = TD_STRING;
	else if (name[n] == '[' && !strncmp(line, "\tfield:char ", 12))
		f->kind = TD_CHARS;
	if (f->offset + f->size > e->size)
		e->size = f->offset + f->size;
	e->nr_fields++;
}

static struct td_field *td_field(struct td_event *e, const char *name,
				 size_t len)
{
	int i;

	for (i = 0; i < e->nr_fields; i++)
		if (strlen(e->f[i].name) == len &&
		    !strncmp(e->f[i].name, name, len))
			return &e->f[i];
	return NULL;
}

/*
 * Which text key each field's value follows, from the print fmt: each
 * "KEY=%..." conversion takes the next argument, and the first REC->FIELD
 * or __get_str(FIELD) in that argument is the field ("comm=%s" prints
 * __get_str(parent_comm) in 6.16+'s sched_process_fork).
 */
static void td_keys(struct td_event *e, const char *fmt)
{
	const char *q = strchr(fmt, '"'), *end, *arg, *p;
	int depth;

	if (!q || !(end = strchr(q + 1, '"')))
		return;
	arg = strchr(end, ',');
	for (p = q + 1; p < end && arg; p++) {
		const char *k = p, *a, *n;
		struct td_field *f;
		size_t klen = 0;

		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		while (k > q + 1 && k[-1] != ' ' && k[-1] != '%' && k[-1] != '"')
			k--;
		if (p > k && p[-1] == '=')
			klen = (size_t)(p - 1 - k);
		a = arg + 1;	/* this conversion's argument, to its comma */
		for (depth = 0, arg = a; *arg && (depth || *arg != ','); arg++)
			depth += (*arg == '(') - (*arg == ')');
		if (!*arg)
			arg = NULL;
		n = strstr(a, "REC->");
		if (n && (!arg || n < arg))
			n += 5;
		else if ((n = strstr(a, "__get_str(")) && (!arg || n < arg))
			n += 10;
		else
			continue;
		f = td_field(e, n, strspn(n, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"));
		if (f && klen && klen < sizeof(f->key) && !*f->key)
			memcpy(f->key, k, klen);
	}
}

/*
 * An event's format, as tracefs prints it with "ID: N" after the name
 * line: the ID is ours (the records' common_type).
 */
static struct td_event *td_add(struct sim_tracedat *td, const char *system,
			       const char *name, const char *body)
{
	struct td_event *e;
	const char *p;
	size_t len;

	td->ev = td_realloc(td->ev, sizeof(*td->ev) * (size_t)(td->nr_ev + 1));
	e = &td->ev[td->nr_ev++];
	memset(e, 0, sizeof(*e));
	snprintf(e->system, sizeof(e->system), "%s", system);
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->id = td->next_id++;
	e->size = 8;
	len = strlen(name) + strlen(body) + 64;
	e->format = td_realloc(NULL, len);
	snprintf(e->format, len, "name: %s\nID: %d\n%s", name, e->id, body);
	for (p = body; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "\tfield:", 7))
			td_parse_field(e, p);
	p = strstr(body, "\nprint fmt: ");
	if (p)
		td_keys(e, p + 12);
	return e;
}

void sim_tracedat_format(struct sim_tracedat *td, const char *system,
			 const char *name, const char *body)
{
	if (!td_find(td, name))
		td_add(td, system, name, body);
}

static const char td_common[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/* A line of ours: its text is its one field. */
static struct td_event *td_ours(struct sim_tracedat *td, const char *name)
{
	struct td_event *e;
	char body[1024];

	snprintf(body, sizeof(body),
		 "format:\n%s\tfield:__data_loc char[] text;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		 "print fmt: \"%%s\", __get_str(text)\n", td_common);
	e = td_add(td, "lsbisect", name, body);
	e->ours = 1;
	return e;
}

/* sched_switch's prev_state as the kernel stores what it prints */
static long long td_state(const char *v)
{
	static const char letters[] = "SDTtXZPI";
	long long s = 0;
	const char *l;

	for (; *v && *v != ' '; v++) {
		if (*v == '+')
			s |= 0x100;	/* TASK_REPORT_MAX: preempted */
		else if ((l = strchr(letters, *v)) && *v)
			s |= 1LL << (l - letters);
	}
	return s;
}

/* The value after " NAME=" (or at the start), up to the next space. */
static const char *td_value(const char *fields, const char *name, size_t *len)
{
	size_t n = strlen(name);
	const char *p = fields;

	while ((p = strstr(p, name))) {
		if ((p == fields || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			*len = strcspn(p, " ");
			return p;
		}
		p += n;
	}
	return NULL;
}

static void td_put(unsigned char *rec, const struct td_field *f, long long v)
{
	/* little-endian, the file says so */
	int i;

	for (i = 0; i < f->size && i < 8; i++)
		rec[f->offset + i] = (unsigned char)((unsigned long long)v >> (8 * i));
}

static int td_pack(const struct td_event *e, int pid, const char *fields,
		   unsigned char *rec)
{
	int i, len = e->size;

	memset(rec, 0, TD_MAX_RECORD);
	rec[0] = (unsigned char)e->id;
	rec[1] = (unsigned char)(e->id >> 8);
	memcpy(rec + 4, &pid, 4);
	for (i = 0; i < e->nr_fields; i++) {
		const struct td_field *f = &e->f[i];
		size_t n = 0;
		const char *v = e->ours ? fields :
				*f->key ? td_value(fields, f->key, &n) : NULL;

		if (v && e->ours)	/* our lines: the whole text */
			n = strlen(fields);
		if (!v) {
			continue;
		} else if (f->kind == TD_STRING) {
			if (len + (int)n + 1 > TD_MAX_RECORD)
				n = (size_t)(TD_MAX_RECORD - len - 1);
			memcpy(rec + len, v, n);
			td_put(rec, f, (long long)((n + 1) << 16 | (size_t)len));
			len += (int)n + 1;
		} else if (f->kind == TD_CHARS) {
			memcpy(rec + f->offset, v,
			       n < (size_t)f->size - 1 ? n : (size_t)f->size - 1);
		} else if (!strcmp(f->name, "prev_state")) {
			td_put(rec, f, td_state(v));
		} else if (!strncmp(v, "true", n) || !strncmp(v, "false", n)) {
			td_put(rec, f, *v == 't');	/* "x ? \"true\" : ..." */
		} else if (f->is_signed && strncmp(v, "0x", 2)) {
			td_put(rec, f, strtoll(v, NULL, 10));
		} else {	/* a u64 past LLONG_MAX too; %#x's hex */
			td_put(rec, f, (long long)strtoull(v, NULL,
				strncmp(v, "0x", 2) ? 10 : 16));
		}
	}
	return len;
}

static unsigned char *td_page(struct td_cpu *c)
{
	return c->mem + (c->nr_mem - 1) * TD_PAGE;
}

/* A CPU's pages in memory to its temporary file. */
static void td_spill(struct sim_tracedat *td, struct td_cpu *c)
{
	if (!c->full)
		c->full = tmpfile();
	if (!c->full || fwrite(c->mem, TD_PAGE, c->nr_mem, c->full) != c->nr_mem) {
		perror("error: trace.dat: temporary file");
		exit(SIM_EXIT_USAGE);
	}
	td->mem -= c->nr_mem * TD_PAGE;
	c->nr_mem = 0;
}

/* Past the budget, the CPU's full pages wait in its temporary file. */
static void td_new_page(struct sim_tracedat *td, struct td_cpu *c, uint64_t ns)
{
	unsigned char *pg;

	if (td->mem + TD_PAGE > TD_MEM_BUDGET && c->nr_mem)
		td_spill(td, c);
	if (c->nr_mem == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->mem = td_realloc(c->mem, c->cap * TD_PAGE);
	}
	c->nr_mem++;
	c->nr_pages++;
	td->mem += TD_PAGE;
	pg = td_page(c);
	memset(pg, 0, TD_PAGE);
	memcpy(pg, &ns, 8);
	c->used = 0;
	c->last_ns = ns;
}

static void td_word(unsigned char *at, uint32_t w)
{
	memcpy(at, &w, 4);
}

static void td_append(struct sim_tracedat *td, struct td_cpu *c, uint64_t ns,
		      const unsigned char *rec, int len)
{
	int data = (len + 3) & ~3, big = data > TD_SMALL_MAX;
	int need = 4 + (big ? 4 : 0) + data;
	uint64_t delta;
	unsigned char *at;
	uint64_t commit;

	if (ns < c->last_ns)
		ns = c->last_ns;
	delta = ns - c->last_ns;
	if (!c->nr_pages ||
	    TD_PAGE_HDR + c->used + (size_t)need + (delta > TD_DELTA_MAX ? 8 : 0) >
	    TD_PAGE) {
		td_new_page(td, c, ns);
		delta = 0;
	}
	at = td_page(c) + TD_PAGE_HDR + c->used;
	if (delta > TD_DELTA_MAX) {	/* type 30, time extend */
		td_word(at, 30 | (uint32_t)(delta & TD_DELTA_MAX) << 5);
		td_word(at + 4, (uint32_t)(delta >> 27));
		at += 8;
		c->used += 8;
		delta = 0;
	}
	if (big) {
		td_word(at, (uint32_t)delta << 5);
		td_word(at + 4, (uint32_t)data + 4);
		at += 8;
	} else {
		td_word(at, (uint32_t)(data / 4) | (uint32_t)delta << 5);
		at += 4;
	}
	memcpy(at, rec, (size_t)len);
	c->used += (size_t)need;
	c->last_ns = ns;
	commit = c->used;
	memcpy(td_page(c) + 8, &commit, 8);
}

static void td_comm(struct sim_tracedat *td, int pid, const char *comm)
{
	int lo = 0, hi = td->nr_comm;

	if (!pid)
		return;
	while (lo < hi) {	/* sorted by pid */
		int mid = (lo + hi) / 2;

		if (td->comm[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < td->nr_comm && td->comm[lo].pid == pid) {
		if (strncmp(td->comm[lo].comm, comm, sizeof(td->comm[lo].comm) - 1))
			snprintf(td->comm[lo].comm, sizeof(td->comm[lo].comm),
				 "%s", comm);
		return;
	}
	td->comm = td_realloc(td->comm, sizeof(*td->comm) * (size_t)(td->nr_comm + 1));
	memmove(td->comm + lo + 1, td->comm + lo,
		sizeof(*td->comm) * (size_t)(td->nr_comm - lo));
	td->comm[lo].pid = pid;
	snprintf(td->comm[lo].comm, sizeof(td->comm[lo].comm), "%s", comm);
	td->nr_comm++;
}

void sim_tracedat_event(struct sim_tracedat *td, int cpu, uint64_t ns,
			const char *comm, int pid, const char *event,
			const char *fields)
{
	unsigned char rec[TD_MAX_RECORD];
	struct td_event *e = td_find(td, event);
	int len;

	if (cpu < 0 || cpu >= td->nr_cpus)
		cpu = 0;
	if (!e)
		e = td_ours(td, event);
	td_comm(td, pid, comm);
	len = td_pack(e, pid, fields, rec);
	td_append(td, &td->cpu[cpu], ns, rec, len);
}

/* A record the revision's TP_fast_assign filled (its format given). */
void sim_tracedat_record(struct sim_tracedat *td, int cpu, uint64_t ns,
			 const char *comm, int pid, const char *event,
			 const void *rec, int len)
{
	unsigned char buf[TD_MAX_RECORD];
	struct td_event *e = td_find(td, event);

	if (!e || len < 8 || len > TD_MAX_RECORD)
		return;
	if (cpu < 0 || cpu >= td->nr_cpus)
		cpu = 0;
	memcpy(buf, rec, (size_t)len);
	memset(buf, 0, 8);	/* struct trace_entry: type, flags, pid */
	buf[0] = (unsigned char)e->id;
	buf[1] = (unsigned char)(e->id >> 8);
	memcpy(buf + 4, &pid, 4);
	td_comm(td, pid, comm);
	td_append(td, &td->cpu[cpu], ns, buf, len);
}

static void td_u32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}

static void td_u64(FILE *f, uint64_t v)
{
	fwrite(&v, 8, 1, f);
}

static void td_section(FILE *f, const char *name, const char *text)
{
	fwrite(name, strlen(name) + 1, 1, f);
	td_u64(f, strlen(text));
	fputs(text, f);
}

static const char td_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char td_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static void td_systems(FILE *f, const struct sim_tracedat *td)
{
	const char *sys[16];
	int nr_sys = 0, i, j, n;

	for (i = 0; i < td->nr_ev; i++) {
		for (j = 0; j < nr_sys && strcmp(sys[j], td->ev[i].system); j++)
			;
		if (j == nr_sys && nr_sys < 16)
			sys[nr_sys++] = td->ev[i].system;
	}
	td_u32(f, (uint32_t)nr_sys);
	for (j = 0; j < nr_sys; j++) {
		fwrite(sys[j], strlen(sys[j]) + 1, 1, f);
		for (n = 0, i = 0; i < td->nr_ev; i++)
			n += !strcmp(td->ev[i].system, sys[j]);
		td_u32(f, (uint32_t)n);
		for (i = 0; i < td->nr_ev; i++) {
			if (strcmp(td->ev[i].system, sys[j]))
				continue;
			td_u64(f, strlen(td->ev[i].format));
			fputs(td->ev[i].format, f);
		}
	}
}

/* A CPU's pages: those in its temporary file, then those in memory. */
static int td_copy_pages(struct td_cpu *c, FILE *f)
{
	unsigned char buf[TD_PAGE];
	size_t i;

	if (c->full && fseek(c->full, 0, SEEK_SET))
		return -1;
	for (i = 0; i < c->nr_pages - c->nr_mem; i++)
		if (fread(buf, TD_PAGE, 1, c->full) != 1 ||
		    fwrite(buf, TD_PAGE, 1, f) != 1)
			return -1;
	if (c->nr_mem && fwrite(c->mem, TD_PAGE, c->nr_mem, f) != c->nr_mem)
		return -1;
	return 0;
}

int sim_tracedat_write(struct sim_tracedat *td, FILE *f)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				      'i', 'n', 'g' };
	char line[64];
	uint64_t off;
	long pos;
	int i;

	fwrite(magic, sizeof(magic), 1, f);
	fwrite("6", 2, 1, f);
	fputc(0, f);		/* little-endian */
	fputc(8, f);		/* sizeof(long) */
	td_u32(f, TD_PAGE);
	td_section(f, "header_page", td_header_page);
	td_section(f, "header_event", td_header_event);
	td_u32(f, 0);		/* ftrace's own events */
	td_systems(f, td);
	td_u32(f, 0);		/* kallsyms */
	td_u32(f, 0);		/* printk formats */
	off = 0;
	for (i = 0; i < td->nr_comm; i++)
		off += (uint64_t)snprintf(line, sizeof(line), "%d %s\n",
					  td->comm[i].pid, td->comm[i].comm);
	td_u64(f, off);
	for (i = 0; i < td->nr_comm; i++)
		fprintf(f, "%d %s\n", td->comm[i].pid, td->comm[i].comm);
	td_u32(f, (uint32_t)td->nr_cpus);
	fwrite("flyrecord", 10, 1, f);
	pos = ftell(f);
	if (pos < 0)
		return -1;
	/* each CPU's pages at a page-aligned offset after the table */
	off = ((uint64_t)pos + 16ULL * (uint64_t)td->nr_cpus + TD_PAGE - 1) &
	      ~(uint64_t)(TD_PAGE - 1);
	for (i = 0; i < td->nr_cpus; i++) {
		td_u64(f, off);
		td_u64(f, td->cpu[i].nr_pages * TD_PAGE);
		off += td->cpu[i].nr_pages * TD_PAGE;
	}
	pos = ftell(f);
	while (pos >= 0 && pos++ % TD_PAGE)
		fputc(0, f);
	for (i = 0; i < td->nr_cpus; i++)
		if (td_copy_pages(&td->cpu[i], f))
			return -1;
	return ferror(f) ? -1 : 0;
}

void sim_tracedat_free(struct sim_tracedat *td)
{
	int i;

	if (!td)
		return;
	for (i = 0; i < td->nr_cpus; i++) {
		if (td->cpu[i].full)
			fclose(td->cpu[i].full);
		free(td->cpu[i].mem);
	}
	for (i = 0; i < td->nr_ev; i++)
		free(td->ev[i].format);
	free(td->cpu);
	free(td->ev);
	free(td->comm);
	free(td);
}
