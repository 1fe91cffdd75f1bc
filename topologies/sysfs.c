// SPDX-License-Identifier: GPL-2.0-only
/*
 * A real machine's topology from sysfs (Documentation/ABI/testing/
 * sysfs-devices-system-cpu): what is missing gets a default and a note;
 * what is there but cannot be read, or says what no machine is, is an
 * error naming the file and what it says.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topologies/topologies_internal.h"

#define MAX_SYSFS_ID 65536	/* beyond any kernel's NR_CPUS */

/*
 * A list of CPUs that share something (thread_siblings_list, the
 * last-level cache's shared_cpu_list), when read: its file under cpuN/,
 * as written, and as a set of the captured CPUs (bit i: the CPU of index
 * i).
 */
struct sysfs_list {
	char file[48];
	char text[64];
	int has;
	unsigned char set[TOPOLOGY_MAX_CPUS / 8];
};

enum { LIST_SMT, LIST_LLC, NR_LISTS };

static const char *const list_what[NR_LISTS] = {
	[LIST_SMT] = "SMT siblings",
	[LIST_LLC] = "last-level cache",
};

struct sysfs_cpu {
	int sid;		/* its number in sysfs */
	long package, core_key, cluster_key, node;
	struct topology_type type;
	struct sysfs_list list[NR_LISTS];
};

struct sysfs_ctx {
	const char *root;
	char *err;		/* the caller's, for fail() */
	size_t errlen;
	char note[2048];
	unsigned int noted;	/* bit per note, each given once */
	struct sysfs_cpu cpu[TOPOLOGY_MAX_CPUS];
	int nr;
};

enum {
	NOTE_RENUMBERED, NOTE_PACKAGE, NOTE_SIBLINGS, NOTE_CLUSTER_ID,
	NOTE_CLUSTER_PACKAGE, NOTE_CAPACITY, NOTE_CPUIDLE, NOTE_IDLE_POWER,
	NOTE_CPUFREQ, NOTE_CPUFREQ_RANGE, NOTE_OPP_POWER, NOTE_RESCALED,
	NOTE_NODES, NOTE_DISTANCES,
};

/* @c's error: "topology from sysfs 'ROOT': " and @fmt.  Return: -1. */
static int fail(struct sysfs_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct sysfs_ctx *c, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	snprintf(c->err, c->errlen, "topology from sysfs '%s': ", c->root);
	n = strlen(c->err);
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static void note(struct sysfs_ctx *c, int which, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(struct sysfs_ctx *c, int which, const char *fmt, ...)
{
	size_t n = strlen(c->note);
	va_list ap;

	if (c->noted & (1u << which) || n + 2 >= sizeof(c->note))
		return;
	c->noted |= 1u << which;
	va_start(ap, fmt);
	vsnprintf(c->note + n, sizeof(c->note) - n, fmt, ap);
	va_end(ap);
	n = strlen(c->note);
	if (n + 1 < sizeof(c->note))
		strcpy(c->note + n, "\n");
}

/* Read a small file, trailing newline dropped.  Return: 0, or -1. */
static int read_text(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int read_text(char *buf, size_t len, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	size_t n;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

static int parse_long(const char *s, long *out)
{
	char *end;

	*out = strtol(s, &end, 10);
	return end == s || (*end && *end != '\n') ? -1 : 0;
}

static int read_long(long *out, const char *fmt, const char *a, int b)
{
	char buf[64];

	if (read_text(buf, sizeof(buf), fmt, a, b))
		return -1;
	return parse_long(buf, out);
}

/*
 * CPU @sid's file @rel (under cpuN/), trailing newline dropped.
 * Return: 0, 1 when there is no such file, or -1 (fail()) when there is
 * one that cannot be read.
 */
static int cpu_text(struct sysfs_ctx *c, int sid, const char *rel,
		    char *buf, size_t len)
{
	char path[4096];
	size_t n;
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/cpu%d/%s", c->root, sid, rel);
	f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return 1;
	if (!f)
		return fail(c, "cpu%d/%s: cannot read it: %s", sid, rel,
			    strerror(errno));
	n = fread(buf, 1, len - 1, f);
	bad = ferror(f) ? errno : 0;
	fclose(f);
	if (bad)
		return fail(c, "cpu%d/%s: cannot read it: %s", sid, rel,
			    strerror(bad));
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/*
 * CPU @sid's number @rel, from @min to @max (@expected says what that
 * is).  Return: as cpu_text(); one that says anything else is -1.
 */
static int cpu_long(struct sysfs_ctx *c, int sid, const char *rel, long *out,
		    long min, long max, const char *expected)
{
	char buf[64];
	int ret = cpu_text(c, sid, rel, buf, sizeof(buf));

	if (ret)
		return ret;
	if (parse_long(buf, out) || *out < min || *out > max)
		return fail(c, "cpu%d/%s says '%s': expected %s", sid, rel,
			    buf, expected);
	return 0;
}

/* The smallest number of a CPU list such as "0-3,8-11", or -1. */
static long list_min(const char *s)
{
	long min = -1, v;
	char *end;

	while (*s) {
		v = strtol(s, &end, 10);
		if (end == s)
			return -1;
		if (min < 0 || v < min)
			min = v;
		s = end;
		if (*s == '-') {
			strtol(s + 1, &end, 10);
			s = end;
		}
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return min;
}

/* Set @in[i] for each i of the CPU list @s below @max.  Return: 0, or -1. */
static int list_parse(const char *s, unsigned char *in, long max)
{
	long a, b, i;
	char *end;

	while (*s) {
		a = strtol(s, &end, 10);
		if (end == s || a < 0)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (i = a; i <= b && i < max; i++)
			in[i] = 1;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

static int is_dir(const char *fmt, const char *a, int b)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), fmt, a, b);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int cmp_int(const void *a, const void *b)
{
	long x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The CPUs: the online ones that have a directory, ascending. */
static int list_cpus(struct sysfs_ctx *c, char *err, size_t errlen)
{
	static unsigned char online[MAX_SYSFS_ID];
	static char buf[65536];
	int ids[TOPOLOGY_MAX_CPUS], n = 0, have_online, i;
	struct dirent *d;
	DIR *dir;

	memset(online, 0, sizeof(online));
	have_online = !read_text(buf, sizeof(buf), "%s/online", c->root) &&
		      !list_parse(buf, online, MAX_SYSFS_ID);
	dir = opendir(c->root);
	if (!dir) {
		snprintf(err, errlen, "topology from sysfs '%s': cannot read the directory",
			 c->root);
		return -1;
	}
	while ((d = readdir(dir))) {
		long id;

		if (strncmp(d->d_name, "cpu", 3) ||
		    parse_long(d->d_name + 3, &id) || id < 0 ||
		    id >= MAX_SYSFS_ID || (have_online && !online[id]) ||
		    !is_dir("%s/cpu%d", c->root, (int)id))
			continue;
		if (n == TOPOLOGY_MAX_CPUS) {
			closedir(dir);
			snprintf(err, errlen, "topology from sysfs '%s': more than %d CPUs",
				 c->root, TOPOLOGY_MAX_CPUS);
			return -1;
		}
		ids[n++] = (int)id;
	}
	closedir(dir);
	if (!n) {
		snprintf(err, errlen, "topology from sysfs '%s': no cpuN directories",
			 c->root);
		return -1;
	}
	qsort(ids, n, sizeof(ids[0]), cmp_int);
	for (i = 0; i < n; i++) {
		c->cpu[i].sid = ids[i];
		if (ids[i] != i)
			note(c, NOTE_RENUMBERED,
			     "sysfs CPU numbers are not 0..%d: renumbered in order (cpu%d is cpu %d)",
			     n - 1, ids[i], i);
	}
	c->nr = n;
	return 0;
}

static void read_idle(struct sysfs_ctx *c, int sid, struct topology_type *ty)
{
	char base[4096], buf[64];
	long lat, res, power;
	int k;

	for (k = 0; k < TOPOLOGY_MAX_STATES; k++) {
		struct topology_idle_state *s = &ty->states[k];

		snprintf(base, sizeof(base), "%s/cpu%d/cpuidle/state%d",
			 c->root, sid, k);
		if (read_text(buf, sizeof(buf), "%s/latency", base) ||
		    parse_long(buf, &lat) || lat < 0 ||
		    read_text(buf, sizeof(buf), "%s/residency", base) ||
		    parse_long(buf, &res) || res < 0)
			break;
		if (read_text(s->name, sizeof(s->name), "%s/name", base) ||
		    !s->name[0])
			snprintf(s->name, sizeof(s->name), "state%d", k & 7);
		/* the driver's text, into traces and results: escaped */
		topology_printable(s->name, sizeof(s->name));
		s->exit_latency_ns = (uint64_t)lat * 1000;
		s->target_residency_ns = (uint64_t)res * 1000;
		/* cpuidle shows an unknown power as a huge or negative value */
		if (read_text(buf, sizeof(buf), "%s/power", base) ||
		    parse_long(buf, &power) || power < 0 || power > 1000000) {
			power = 0;
			note(c, NOTE_IDLE_POWER,
			     "idle state power unknown (cpuidle's 'power'): 0 mW");
		}
		s->power_mw = (double)power;
	}
	ty->nr_states = k;
	/*
	 * x86's drivers show their POLL state as state0: it is the arch
	 * driver's own polling state here, not one of the type's; a driver
	 * without it (Arm's) has a real state there.
	 */
	if (k && !strcmp(ty->states[0].name, "POLL") &&
	    !ty->states[0].exit_latency_ns) {
		memmove(&ty->states[0], &ty->states[1],
			(size_t)(k - 1) * sizeof(ty->states[0]));
		memset(&ty->states[k - 1], 0, sizeof(ty->states[0]));
		ty->nr_states = --k;
	} else if (k) {
		ty->no_polling_state = 1;
	}
	if (!k) {
		struct topology_type def;

		topology_default_type(&def);
		ty->nr_states = def.nr_states;
		memcpy(ty->states, def.states, sizeof(def.states));
		note(c, NOTE_CPUIDLE,
		     "no cpuidle states: the default WFI and off states");
	}
}

static void read_opps(struct sysfs_ctx *c, int sid, struct topology_type *ty)
{
	uint64_t khz[TOPOLOGY_MAX_OPPS];
	char buf[4096], *p, *end;
	int n = 0, i;
	long lo, hi;

	if (!read_text(buf, sizeof(buf),
		       "%s/cpu%d/cpufreq/scaling_available_frequencies",
		       c->root, sid)) {
		for (p = buf; n < TOPOLOGY_MAX_OPPS; p = end) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			if (v)
				khz[n++] = v;
		}
	}
	if (!n && !read_long(&hi, "%s/cpu%d/cpufreq/cpuinfo_max_freq", c->root,
			     sid) && hi > 0) {
		khz[n++] = (uint64_t)hi;
		if (!read_long(&lo, "%s/cpu%d/cpufreq/cpuinfo_min_freq",
			       c->root, sid) && lo > 0 && lo < hi)
			khz[0] = (uint64_t)lo, khz[n++] = (uint64_t)hi;
		note(c, NOTE_CPUFREQ_RANGE,
		     "no scaling_available_frequencies: OPPs are cpuinfo_min_freq and cpuinfo_max_freq");
	}
	if (!n) {
		note(c, NOTE_CPUFREQ, "no cpufreq: a fixed frequency (no OPPs)");
		ty->nr_opps = 0;
		return;
	}
	qsort(khz, n, sizeof(khz[0]), cmp_u64);
	ty->nr_opps = 0;
	for (i = 0; i < n; i++)
		if (!i || khz[i] != khz[i - 1])
			ty->opps[ty->nr_opps++].khz = khz[i];
	note(c, NOTE_OPP_POWER,
	     "sysfs has no energy model: OPP power is 0 mW (unknown)");
}

/* Dense ids for @key[0..n-1], in order of first appearance. */
static void densify(long *key, int n)
{
	long seen[TOPOLOGY_MAX_CPUS];
	int nr = 0, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nr && seen[j] != key[i]; j++)
			;
		if (j == nr)
			seen[nr++] = key[i];
		key[i] = j;
	}
}

static int same_type(const struct topology_type *a,
		     const struct topology_type *b)
{
	int i;

	if (a->capacity != b->capacity || a->nr_states != b->nr_states ||
	    a->no_polling_state != b->no_polling_state ||
	    a->nr_opps != b->nr_opps)
		return 0;
	for (i = 0; i < a->nr_states; i++)
		if (strcmp(a->states[i].name, b->states[i].name) ||
		    a->states[i].exit_latency_ns != b->states[i].exit_latency_ns ||
		    a->states[i].target_residency_ns !=
		    b->states[i].target_residency_ns ||
		    a->states[i].power_mw != b->states[i].power_mw)
			return 0;
	for (i = 0; i < a->nr_opps; i++)
		if (a->opps[i].khz != b->opps[i].khz)
			return 0;
	return 1;
}

/* The NUMA nodes: from @root/../node when it is there. */
static void read_nodes(struct sysfs_ctx *c, struct topology *t)
{
	long node[TOPOLOGY_MAX_CPUS];
	int ids[TOPOLOGY_MAX_NODES], n = 0, i, j;
	char dir_path[4096], buf[4096];
	struct dirent *d;
	DIR *dir;

	snprintf(dir_path, sizeof(dir_path), "%s/../node", c->root);
	dir = opendir(dir_path);
	while (dir && (d = readdir(dir))) {
		long id;

		if (!strncmp(d->d_name, "node", 4) &&
		    !parse_long(d->d_name + 4, &id) && id >= 0 &&
		    id < MAX_SYSFS_ID && n < TOPOLOGY_MAX_NODES)
			ids[n++] = (int)id;
	}
	if (dir)
		closedir(dir);
	qsort(ids, n, sizeof(ids[0]), cmp_int);
	for (i = 0; n && i < c->nr; i++) {
		for (j = 0; j < n && ids[j] != c->cpu[i].node; j++)
			;
		if (j == n)
			break;
		node[i] = j;
	}
	if (n && i == c->nr) {
		t->nr_nodes = n;
		for (i = 0; i < n; i++) {
			char *p = buf, *end;

			if (read_text(buf, sizeof(buf), "%s/node%d/distance",
				      dir_path, ids[i]))
				break;
			for (j = 0; j < n; j++, p = end) {
				long v = strtol(p, &end, 10);

				if (end == p)
					break;
				t->distance[i][j] = (int)v;
			}
			if (j < n || *skip_blank(end))
				break;
		}
		if (i < n) {
			topology_default_distances(t);
			note(c, NOTE_DISTANCES,
			     "node distances unreadable or not one per node: 10 local, 20 remote");
		}
		for (i = 0; i < c->nr; i++)
			t->cpu[i].node = (int)node[i];
		return;
	}
	/* no node directory: the CPUs' nodeN links, default distances */
	for (i = 0; i < c->nr; i++)
		node[i] = c->cpu[i].node;
	densify(node, c->nr);
	t->nr_nodes = 1;
	for (i = 0; i < c->nr; i++) {
		t->cpu[i].node = (int)node[i];
		if (node[i] + 1 > t->nr_nodes)
			t->nr_nodes = (int)node[i] + 1;
	}
	if (t->nr_nodes > TOPOLOGY_MAX_NODES)
		t->nr_nodes = TOPOLOGY_MAX_NODES;	/* topology_check says */
	topology_default_distances(t);
	if (t->nr_nodes > 1)
		note(c, NOTE_NODES, "no %s: distances 10 local, 20 remote",
		     dir_path);
}

/*
 * @cpu's list @which from its file @rel, kept as a set of the captured
 * CPUs.  Return: as cpu_text(); a file that is no CPU list is -1.
 */
static int list_read(struct sysfs_ctx *c, struct sysfs_cpu *cpu, int which,
		     const char *rel)
{
	static unsigned char in[MAX_SYSFS_ID];
	struct sysfs_list *l = &cpu->list[which];
	char buf[4096];
	int j, ret;

	ret = cpu_text(c, cpu->sid, rel, buf, sizeof(buf));
	if (ret)
		return ret;
	memset(in, 0, sizeof(in));
	if (list_parse(buf, in, MAX_SYSFS_ID))
		return fail(c, "cpu%d/%s says '%.63s': expected a CPU list",
			    cpu->sid, rel, buf);
	memset(l, 0, sizeof(*l));
	snprintf(l->file, sizeof(l->file), "%s", rel);
	snprintf(l->text, sizeof(l->text), "%.63s", buf);
	l->has = 1;
	for (j = 0; j < c->nr; j++)
		if (in[c->cpu[j].sid])
			l->set[j / 8] |= (unsigned char)(1u << (j % 8));
	return 0;
}

static int in_list(const struct sysfs_list *l, int j)
{
	return l->set[j / 8] >> (j % 8) & 1;
}

/*
 * CPUs that share a core (SMT siblings) or a last-level cache are a
 * partition: each CPU's list names the CPU itself, and the CPUs it names
 * say the same. Anything else (CPU 0 says 0-1, CPU 1 says 1-2) matches no
 * machine: an error naming the files and the CPUs.  Return: 0, or -1.
 */
static int check_lists(struct sysfs_ctx *c, int which)
{
	int i, j;

	for (i = 0; i < c->nr; i++) {
		const struct sysfs_cpu *a = &c->cpu[i];
		const struct sysfs_list *la = &a->list[which];

		if (!la->has)
			continue;
		if (!in_list(la, i))
			return fail(c, "cpu%d/%s says '%s', without CPU %d itself",
				    a->sid, la->file, la->text, a->sid);
		for (j = 0; j < c->nr; j++) {
			const struct sysfs_cpu *b = &c->cpu[j];
			const struct sysfs_list *lb = &b->list[which];

			if (j == i || !lb->has ||
			    (!in_list(la, j) && !in_list(lb, i)) ||
			    !memcmp(la->set, lb->set, sizeof(la->set)))
				continue;
			return fail(c, "cpu%d/%s says '%s' but cpu%d/%s says '%s': CPUs %d and %d disagree on their %s",
				    a->sid, la->file, la->text, b->sid,
				    lb->file, lb->text, a->sid, b->sid,
				    list_what[which]);
		}
	}
	return 0;
}

/*
 * The last-level cache: the data or unified cache of the highest level,
 * its shared_cpu_list's smallest CPU the key (-1: no cache information).
 * Return: 0, or -1.
 */
static int read_llc(struct sysfs_ctx *c, struct sysfs_cpu *cpu)
{
	char rel[64], type[32];
	long level, best_level = 0;
	int k, ret;

	cpu->cluster_key = -1;
	for (k = 0; k < 16; k++) {
		snprintf(rel, sizeof(rel), "cache/index%d/level", k);
		ret = cpu_long(c, cpu->sid, rel, &level, 0, 255,
			       "a cache level");
		if (ret < 0)
			return -1;
		if (ret)
			break;
		snprintf(rel, sizeof(rel), "cache/index%d/type", k);
		ret = cpu_text(c, cpu->sid, rel, type, sizeof(type));
		if (ret < 0)
			return -1;
		if ((!ret && !strcmp(type, "Instruction")) ||
		    level <= best_level)
			continue;
		snprintf(rel, sizeof(rel), "cache/index%d/shared_cpu_list", k);
		ret = list_read(c, cpu, LIST_LLC, rel);
		if (ret < 0)
			return -1;
		if (ret)
			continue;
		best_level = level;
		cpu->cluster_key = list_min(cpu->list[LIST_LLC].text);
	}
	return 0;
}

/*
 * A CPU's id file: @out, or -1 when it is missing or says -1 (what the
 * kernel shows for an id the architecture does not know).  The note's
 * words for the two, in @why.  Return: 0, or -1.
 */
static int read_id(struct sysfs_ctx *c, int sid, const char *rel, long *out,
		   const char **why)
{
	int ret = cpu_long(c, sid, rel, out, -1, INT_MAX,
			   "a number (or -1: unknown)");

	if (ret < 0)
		return -1;
	if (ret)
		*out = -1;
	*why = ret ? "missing" : "-1 (unknown)";
	return 0;
}

static int read_cpu(struct sysfs_ctx *c, struct sysfs_cpu *cpu)
{
	int sid = cpu->sid, ret;
	const char *why, *why2;
	char path[4096];
	struct dirent *d;
	long v, cl;
	DIR *dir;

	if (read_id(c, sid, "topology/physical_package_id", &cpu->package,
		    &why))
		return -1;
	if (cpu->package < 0) {
		cpu->package = 0;
		note(c, NOTE_PACKAGE, "physical_package_id %s: package 0", why);
	}
	ret = list_read(c, cpu, LIST_SMT, "topology/thread_siblings_list");
	if (ret < 0 ||
	    (ret && read_id(c, sid, "topology/core_id", &v, &why2)))
		return -1;
	if (!ret) {
		cpu->core_key = list_min(cpu->list[LIST_SMT].text);
	} else if (v >= 0) {
		cpu->core_key = MAX_SYSFS_ID + cpu->package * MAX_SYSFS_ID + v;
		note(c, NOTE_SIBLINGS, "thread_siblings_list missing: SMT siblings from core_id");
	} else {
		cpu->core_key = sid;
		note(c, NOTE_SIBLINGS, "thread_siblings_list missing, core_id %s: no SMT",
		     why2);
	}
	if (read_llc(c, cpu))
		return -1;
	if (cpu->cluster_key < 0) {
		if (read_id(c, sid, "topology/cluster_id", &cl, &why))
			return -1;
		if (cl >= 0) {
			cpu->cluster_key = MAX_SYSFS_ID + cl;
			note(c, NOTE_CLUSTER_ID, "cache information missing: clusters from cluster_id");
		} else {
			cpu->cluster_key = 2 * MAX_SYSFS_ID;
			note(c, NOTE_CLUSTER_PACKAGE,
			     "cache information missing, cluster_id %s: one cluster a package",
			     why);
		}
	}
	/* a cluster never spans packages, whatever the keys say */
	cpu->cluster_key += cpu->package * 4 * MAX_SYSFS_ID;
	ret = cpu_long(c, sid, "cpu_capacity", &v, 1, TOPOLOGY_CAPACITY_SCALE,
		       "a capacity from 1 to 1024");
	if (ret < 0)
		return -1;
	if (ret) {
		v = TOPOLOGY_CAPACITY_SCALE;
		note(c, NOTE_CAPACITY, "cpu_capacity missing: capacity 1024");
	}
	cpu->type.capacity = (unsigned int)v;
	read_idle(c, sid, &cpu->type);
	read_opps(c, sid, &cpu->type);
	cpu->node = 0;
	snprintf(path, sizeof(path), "%s/cpu%d", c->root, sid);
	dir = opendir(path);
	while (dir && (d = readdir(dir)))
		if (!strncmp(d->d_name, "node", 4) &&
		    !parse_long(d->d_name + 4, &v) && v >= 0) {
			cpu->node = v;
			break;
		}
	if (dir)
		closedir(dir);
	return 0;
}

/* Group the CPUs into types; name them by capacity when there are several. */
static int make_types(struct sysfs_ctx *c, struct topology *t, char *err,
		      size_t errlen)
{
	unsigned int max = 0;
	int i, j, k;

	t->nr_types = 0;
	for (i = 0; i < c->nr; i++) {
		for (j = 0; j < t->nr_types; j++)
			if (same_type(&t->types[j], &c->cpu[i].type))
				break;
		if (j == t->nr_types) {
			if (j == TOPOLOGY_MAX_TYPES) {
				snprintf(err, errlen,
					 "topology from sysfs '%s': more than %d kinds of CPU (capacity, idle states, frequencies)",
					 c->root, TOPOLOGY_MAX_TYPES);
				return -1;
			}
			t->types[t->nr_types++] = c->cpu[i].type;
		}
		t->cpu[i].type = j;
	}
	for (j = 0; j < t->nr_types; j++)
		if (t->types[j].capacity > max)
			max = t->types[j].capacity;
	if (max != TOPOLOGY_CAPACITY_SCALE)
		note(c, NOTE_RESCALED,
		     "the biggest cpu_capacity is %u: capacities scaled to make it 1024",
		     max);
	for (j = 0; j < t->nr_types; j++) {
		struct topology_type *ty = &t->types[j];
		int n = ty->nr_opps, same = 0;

		ty->capacity = (unsigned int)topology_round(
			(double)ty->capacity * TOPOLOGY_CAPACITY_SCALE / max);
		if (!ty->capacity)
			ty->capacity = 1;
		for (k = 0; k < n; k++) {
			uint64_t cap = topology_round((double)ty->capacity *
						      ty->opps[k].khz /
						      ty->opps[n - 1].khz);

			ty->opps[k].capacity = cap ? (unsigned int)cap : 1;
		}
		for (k = 0; k < j; k++)
			same += t->types[k].capacity == ty->capacity;
		if (t->nr_types == 1)
			snprintf(ty->name, sizeof(ty->name), "cpu");
		else if (!same)
			snprintf(ty->name, sizeof(ty->name), "cpu%u",
				 ty->capacity);
		else
			snprintf(ty->name, sizeof(ty->name), "cpu%u-%d",
				 ty->capacity, same + 1);
	}
	for (i = 0; i < c->nr; i++)
		t->cpu[i].capacity = t->types[t->cpu[i].type].capacity;
	return 0;
}

int topology_from_sysfs(struct topology *out, const char *root, char *err,
			size_t errlen)
{
	long key[TOPOLOGY_MAX_CPUS];
	struct topology_fault f;
	struct sysfs_ctx *c;
	int i, ret = -1;

	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "topology from sysfs: out of memory");
		return -1;
	}
	c->root = root ? root : "/sys/devices/system/cpu";
	c->err = err;
	c->errlen = errlen;
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "sysfs");
	snprintf(out->description, sizeof(out->description),
		 "captured from %.100s", c->root);
	if (list_cpus(c, err, errlen))
		goto cleanup;
	out->nr_cpus = c->nr;
	for (i = 0; i < c->nr; i++)
		if (read_cpu(c, &c->cpu[i]))
			goto cleanup;
	if (check_lists(c, LIST_SMT) || check_lists(c, LIST_LLC))
		goto cleanup;
	for (i = 0; i < c->nr; i++)
		key[i] = c->cpu[i].package;
	densify(key, c->nr);
	for (i = 0; i < c->nr; i++) {
		out->cpu[i].package = (int)key[i];
		key[i] = c->cpu[i].cluster_key;
	}
	densify(key, c->nr);
	for (i = 0; i < c->nr; i++) {
		out->cpu[i].cluster = (int)key[i];
		key[i] = c->cpu[i].core_key;
	}
	densify(key, c->nr);
	for (i = 0; i < c->nr; i++)
		out->cpu[i].core = (int)key[i];
	if (make_types(c, out, err, errlen))
		goto cleanup;
	read_nodes(c, out);
	if (topology_check(out, &f, err, errlen)) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "topology from sysfs '%s': %s", c->root,
			 msg);
		goto cleanup;
	}
	snprintf(err, errlen, "%s", c->note);
	ret = 0;
cleanup:
	free(c);
	return ret;
}
