// SPDX-License-Identifier: GPL-2.0-only
/*
 * Machines in JSON (the format is in topologies/README.md).
 *
 * cJSON keeps no positions, so after parsing, the text is walked once more
 * alongside the tree (both in document order) to note where each value and
 * its key start: any message can then give line:column.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "topologies/topologies_internal.h"

#define MAX_US 100000000.0	/* 100 s: an idle state longer is a typo */
#define MAX_KHZ 100000000.0	/* 100 GHz */
#define MAX_MW 10000000.0	/* 10 kW */

struct jpos {
	const cJSON *node;
	int key, val;		/* offsets; key -1 for array items and root */
};

struct jctx {
	const char *text, *name;
	struct jpos *pos;
	int nr_pos, cap_pos;
	char *err;
	size_t errlen;
	const cJSON *cpu_node[TOPOLOGY_MAX_CPUS];	/* by CPU id */
	const cJSON *type_node[TOPOLOGY_MAX_TYPES];
	const cJSON *dist_node;
};

/* ---- positions ---- */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *skip_string(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : p;
}

static int note_pos(struct jctx *c, const cJSON *node, int key, int val)
{
	if (c->nr_pos == c->cap_pos) {
		int cap = c->cap_pos ? 2 * c->cap_pos : 256;
		struct jpos *n = realloc(c->pos, cap * sizeof(*n));

		if (!n)
			return -1;
		c->pos = n;
		c->cap_pos = cap;
	}
	c->pos[c->nr_pos++] = (struct jpos){ node, key, val };
	return 0;
}

/* Walk the text from *pp in step with @node; cJSON already accepted it. */
static int walk(struct jctx *c, const cJSON *node, const char **pp, int key)
{
	const char *p = skip_ws(*pp);
	const cJSON *child;

	if (note_pos(c, node, key, (int)(p - c->text)))
		return -1;
	if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
		p++;
		for (child = node->child; child; child = child->next) {
			int k = -1;

			p = skip_ws(p);
			if (*p == ',')
				p = skip_ws(p + 1);
			if (cJSON_IsObject(node)) {
				k = (int)(p - c->text);
				p = skip_ws(skip_string(p));
				p++;	/* ':' */
			}
			if (walk(c, child, &p, k))
				return -1;
		}
		p = skip_ws(p);
		if (*p)
			p++;
	} else if (cJSON_IsString(node)) {
		p = skip_string(p);
	} else {
		while (*p && !strchr(",]} \t\r\n", *p))
			p++;
	}
	*pp = p;
	return 0;
}

static void line_col(const char *text, int off, int *line, int *col)
{
	int i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int verr(struct jctx *c, const cJSON *node, int at_key,
		const char *fmt, va_list ap)
{
	int i, off = -1, line, col;
	size_t n;

	for (i = 0; node && i < c->nr_pos; i++)
		if (c->pos[i].node == node) {
			off = at_key && c->pos[i].key >= 0 ? c->pos[i].key :
			      c->pos[i].val;
			break;
		}
	if (off >= 0) {
		line_col(c->text, off, &line, &col);
		snprintf(c->err, c->errlen, "topology '%s':%d:%d: ", c->name,
			 line, col);
	} else {
		snprintf(c->err, c->errlen, "topology '%s': ", c->name);
	}
	n = strlen(c->err);
	if (n < c->errlen)
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	return -1;
}

/* An error at @node's value. */
static int err_at(struct jctx *c, const cJSON *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int err_at(struct jctx *c, const cJSON *node, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = verr(c, node, 0, fmt, ap);
	va_end(ap);
	return ret;
}

/* An error at @node's key (for unknown and duplicate keys). */
static int err_key(struct jctx *c, const cJSON *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int err_key(struct jctx *c, const cJSON *node, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = verr(c, node, 1, fmt, ap);
	va_end(ap);
	return ret;
}

/* ---- typed getters ---- */

static const char *describe(const cJSON *v, char *buf, size_t len)
{
	if (cJSON_IsString(v))
		snprintf(buf, len, "the string \"%.40s\"", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%g", v->valuedouble);
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNull(v))
		snprintf(buf, len, "null");
	else if (cJSON_IsArray(v))
		snprintf(buf, len, "an array");
	else
		snprintf(buf, len, "an object");
	return buf;
}

/*
 * Check @obj is an object whose keys are all in @allowed (NULL-ended), each
 * once.  @what names it in messages.
 */
static int check_keys(struct jctx *c, const cJSON *obj, const char *what,
		      const char *const *allowed)
{
	const cJSON *m, *o;
	char buf[64], list[256] = "";
	int i;

	if (!cJSON_IsObject(obj))
		return err_at(c, obj, "%s: expected an object, got %s", what,
			      describe(obj, buf, sizeof(buf)));
	for (m = obj->child; m; m = m->next) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp(m->string, allowed[i]))
				break;
		if (!allowed[i]) {
			for (i = 0; allowed[i]; i++)
				snprintf(list + strlen(list),
					 sizeof(list) - strlen(list), "%s%s",
					 i ? (allowed[i + 1] ? ", " : " or ") :
					 "", allowed[i]);
			return err_key(c, m,
				       "%s: unknown key '%s' (expected %s)",
				       what, m->string, list);
		}
		for (o = obj->child; o != m; o = o->next)
			if (!strcmp(o->string, m->string))
				return err_key(c, m,
					       "%s: key '%s' is given twice",
					       what, m->string);
	}
	return 0;
}

static const cJSON *member(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* Return: 0 set, 1 absent (*out untouched), -1 error. */
static int get_num(struct jctx *c, const cJSON *obj, const char *what,
		   const char *key, double min, double max, double *out)
{
	const cJSON *v = member(obj, key);
	char buf[64];

	if (!v)
		return 1;
	if (!cJSON_IsNumber(v) || v->valuedouble < min ||
	    v->valuedouble > max)
		return err_at(c, v, "%s: '%s': expected a number from %g to %g, got %s",
			      what, key, min, max,
			      describe(v, buf, sizeof(buf)));
	*out = v->valuedouble;
	return 0;
}

static int get_int(struct jctx *c, const cJSON *obj, const char *what,
		   const char *key, long min, long max, long *out)
{
	const cJSON *v = member(obj, key);
	char buf[64];

	if (!v)
		return 1;
	if (!cJSON_IsNumber(v) || v->valuedouble < min ||
	    v->valuedouble > max ||
	    v->valuedouble != (double)(long)v->valuedouble)
		return err_at(c, v, "%s: '%s': expected an integer from %ld to %ld, got %s",
			      what, key, min, max,
			      describe(v, buf, sizeof(buf)));
	*out = (long)v->valuedouble;
	return 0;
}

static int get_str(struct jctx *c, const cJSON *obj, const char *what,
		   const char *key, char *out, size_t size)
{
	const cJSON *v = member(obj, key);
	char buf[64];

	if (!v)
		return 1;
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return err_at(c, v, "%s: '%s': expected a non-empty string, got %s",
			      what, key, describe(v, buf, sizeof(buf)));
	/* names go into traces and results as they are */
	if (topology_unprintable(v->valuestring, buf, sizeof(buf)))
		return err_at(c, v, "%s: '%s': \"%.40s\" holds %s", what, key,
			      v->valuestring, buf);
	if (strlen(v->valuestring) >= size)
		return err_at(c, v, "%s: '%s': \"%s\" is longer than %zu characters",
			      what, key, v->valuestring, size - 1);
	snprintf(out, size, "%s", v->valuestring);
	return 0;
}

static int need(struct jctx *c, int ret, const cJSON *obj, const char *what,
		const char *key)
{
	if (ret == 1)
		return err_at(c, obj, "%s: '%s' is required", what, key);
	return ret;
}

static int get_array(struct jctx *c, const cJSON *obj, const char *what,
		     const char *key, int max, const cJSON **out)
{
	const cJSON *v = member(obj, key);
	char buf[64];

	if (!v)
		return 1;
	if (!cJSON_IsArray(v))
		return err_at(c, v, "%s: '%s': expected an array, got %s", what,
			      key, describe(v, buf, sizeof(buf)));
	if (cJSON_GetArraySize(v) > max)
		return err_at(c, v, "%s: '%s': %d entries, at most %d", what,
			      key, cJSON_GetArraySize(v), max);
	*out = v;
	return 0;
}

/* ---- the parts ---- */

static const char *const state_keys[] = {
	"name", "exit_latency_us", "target_residency_us", "power_mw", NULL,
};

static int parse_states(struct jctx *c, const cJSON *arr, const char *tname,
			struct topology_type *ty)
{
	const cJSON *s;
	char what[96];
	double us = 0;
	int i = 0;

	for (s = arr->child; s; s = s->next, i++) {
		struct topology_idle_state *st = &ty->states[i];

		snprintf(what, sizeof(what), "cpu_types.%s.idle_states[%d]",
			 tname, i);
		if (check_keys(c, s, what, state_keys) ||
		    need(c, get_str(c, s, what, "name", st->name,
				    sizeof(st->name)), s, what, "name") ||
		    need(c, get_num(c, s, what, "exit_latency_us", 0, MAX_US,
				    &us), s, what, "exit_latency_us"))
			return -1;
		st->exit_latency_ns = topology_round(us * 1000);
		if (need(c, get_num(c, s, what, "target_residency_us", 0,
				    MAX_US, &us), s, what,
			 "target_residency_us"))
			return -1;
		st->target_residency_ns = topology_round(us * 1000);
		if (get_num(c, s, what, "power_mw", 0, MAX_MW,
			    &st->power_mw) < 0)
			return -1;
	}
	ty->nr_states = i;
	return 0;
}

static const char *const opp_keys[] = { "khz", "capacity", "power_mw", NULL };

static int parse_opps(struct jctx *c, const cJSON *arr, const char *tname,
		      struct topology_type *ty)
{
	int has_cap[TOPOLOGY_MAX_OPPS];
	const cJSON *o;
	char what[96];
	long v = 0;
	int i = 0, n;

	for (o = arr->child; o; o = o->next, i++) {
		struct topology_opp *op = &ty->opps[i];
		int r;

		snprintf(what, sizeof(what), "cpu_types.%s.opps[%d]", tname, i);
		if (check_keys(c, o, what, opp_keys) ||
		    need(c, get_int(c, o, what, "khz", 1, (long)MAX_KHZ, &v), o,
			 what, "khz"))
			return -1;
		op->khz = (uint64_t)v;
		r = get_int(c, o, what, "capacity", 1, TOPOLOGY_CAPACITY_SCALE,
			    &v);
		if (r < 0)
			return -1;
		has_cap[i] = !r;
		op->capacity = r ? 0 : (unsigned int)v;
		if (get_num(c, o, what, "power_mw", 0, MAX_MW,
			    &op->power_mw) < 0)
			return -1;
	}
	ty->nr_opps = n = i;
	for (i = 1, o = n ? arr->child->next : NULL; o; o = o->next, i++)
		if (ty->opps[i].khz <= ty->opps[i - 1].khz)
			return err_at(c, o, "cpu_types.%s.opps[%d]: 'khz' %llu is not above OPP %d's %llu: OPPs go in ascending frequency",
				      tname, i,
				      (unsigned long long)ty->opps[i].khz,
				      i - 1,
				      (unsigned long long)ty->opps[i - 1].khz);
	/* unwritten capacities scale with frequency from the type's */
	for (i = 0; i < n; i++)
		if (!has_cap[i] && ty->opps[n - 1].khz) {
			uint64_t cap = topology_round((double)ty->capacity *
						      ty->opps[i].khz /
						      ty->opps[n - 1].khz);

			ty->opps[i].capacity = cap ? (unsigned int)cap : 1;
		}
	return 0;
}

static const char *const type_keys[] = {
	"capacity", "idle_states", "polling_state", "opps", "dvfs",
	"smt_speed", NULL,
};

static int parse_types(struct jctx *c, const cJSON *types, struct topology *t)
{
	const cJSON *m, *arr;
	char what[64], buf[64];
	int i = 0, n = cJSON_GetArraySize(types), r;
	long v = 0;

	if (!cJSON_IsObject(types))
		return err_at(c, types, "'cpu_types': expected an object, got %s",
			      describe(types, buf, sizeof(buf)));
	if (!n)
		return err_at(c, types, "'cpu_types' is empty: describe at least one type, or leave it out for the default");
	if (n > TOPOLOGY_MAX_TYPES)
		return err_at(c, types, "'cpu_types': %d types, at most %d", n,
			      TOPOLOGY_MAX_TYPES);
	for (m = types->child; m; m = m->next, i++) {
		struct topology_type *ty = &t->types[i];
		const cJSON *o;

		c->type_node[i] = m;
		for (o = types->child; o != m; o = o->next)
			if (!strcmp(o->string, m->string))
				return err_key(c, m, "cpu_types: type '%s' is defined twice",
					       m->string);
		if (!m->string[0] || strlen(m->string) >= sizeof(ty->name))
			return err_key(c, m, "cpu_types: a type's name has 1 to %zu characters",
				       sizeof(ty->name) - 1);
		if (topology_unprintable(m->string, buf, sizeof(buf)))
			return err_key(c, m, "cpu_types: type '%s' holds %s",
				       m->string, buf);
		snprintf(what, sizeof(what), "cpu_types.%s", m->string);
		if (check_keys(c, m, what, type_keys))
			return -1;
		snprintf(ty->name, sizeof(ty->name), "%s", m->string);
		r = get_int(c, m, what, "capacity", 1, TOPOLOGY_CAPACITY_SCALE,
			    &v);
		if (r < 0)
			return -1;
		if (r && n > 1)
			return err_at(c, m, "%s: 'capacity' is required when there are several types",
				      what);
		ty->capacity = r ? TOPOLOGY_CAPACITY_SCALE : (unsigned int)v;
		r = get_array(c, m, what, "idle_states", TOPOLOGY_MAX_STATES,
			      &arr);
		if (r < 0)
			return -1;
		if (r) {
			struct topology_type def;

			topology_default_type(&def);
			ty->nr_states = def.nr_states;
			memcpy(ty->states, def.states, sizeof(def.states));
		} else if (parse_states(c, arr, ty->name, ty)) {
			return -1;
		}
		o = member(m, "polling_state");
		if (o && !cJSON_IsBool(o))
			return err_at(c, o, "%s: 'polling_state': expected true (the cpuidle driver has a POLL state 0, as x86's) or false (none, as Arm's), got %s",
				      what, describe(o, buf, sizeof(buf)));
		ty->no_polling_state = o && cJSON_IsFalse(o);
		r = get_array(c, m, what, "opps", TOPOLOGY_MAX_OPPS, &arr);
		if (r < 0 || (!r && parse_opps(c, arr, ty->name, ty)))
			return -1;
		r = get_str(c, m, what, "dvfs", buf, sizeof(buf));
		if (r < 0)
			return -1;
		if (!r && strcmp(buf, "cluster") && strcmp(buf, "core"))
			return err_at(c, member(m, "dvfs"),
				      "%s: 'dvfs': \"%s\": expected \"cluster\" (the cluster's CPUs share a frequency) or \"core\" (each core has its own)",
				      what, buf);
		ty->dvfs_per_core = !r && !strcmp(buf, "core");
		r = get_num(c, m, what, "smt_speed", 0.01, 1, &ty->smt_speed);
		if (r < 0)
			return -1;
	}
	t->nr_types = i;
	return 0;
}

static int type_index(const struct topology *t, const char *name)
{
	int i;

	for (i = 0; i < t->nr_types; i++)
		if (!strcmp(t->types[i].name, name))
			return i;
	return -1;
}

static void type_list(const struct topology *t, char *buf, size_t len)
{
	int i;

	buf[0] = 0;
	for (i = 0; i < t->nr_types; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? ", " : "", t->types[i].name);
}

static const char *const cpu_keys[] = {
	"id", "type", "package", "cluster", "core", "node", NULL,
};

/* @max_node: nodes defined by node_distances, or 0 when it is absent. */
static int parse_cpus(struct jctx *c, const cJSON *cpus, struct topology *t,
		      int max_node)
{
	int seen[TOPOLOGY_MAX_CPUS];
	int n = cJSON_GetArraySize(cpus), i = 0, r;
	char what[32], name[32], list[300];
	const cJSON *e;
	long v = 0;

	if (!n)
		return err_at(c, cpus, "'cpus' is empty: a machine has at least one CPU");
	for (i = 0; i < n; i++)
		seen[i] = -1;
	i = 0;
	for (e = cpus->child; e; e = e->next, i++) {
		struct topology_cpu cpu = { 0 };
		int id;

		snprintf(what, sizeof(what), "cpus[%d]", i);
		if (check_keys(c, e, what, cpu_keys) ||
		    need(c, get_int(c, e, what, "id", 0, TOPOLOGY_MAX_CPUS - 1,
				    &v), e, what, "id"))
			return -1;
		id = (int)v;
		if (id >= n)
			return err_at(c, member(e, "id"),
				      "%s: 'id' %d is out of range: %d CPUs are listed, so ids go from 0 to %d",
				      what, id, n, n - 1);
		if (seen[id] >= 0)
			return err_at(c, member(e, "id"),
				      "%s: CPU id %d is given twice (also cpus[%d])",
				      what, id, seen[id]);
		seen[id] = i;
		c->cpu_node[id] = e;
		r = get_str(c, e, what, "type", name, sizeof(name));
		if (r < 0)
			return -1;
		if (r && t->nr_types > 1)
			return err_at(c, e, "%s (cpu %d): 'type' is required when there are several types",
				      what, id);
		cpu.type = r ? 0 : type_index(t, name);
		if (cpu.type < 0) {
			type_list(t, list, sizeof(list));
			return err_at(c, member(e, "type"),
				      "%s (cpu %d): type '%s' is not defined in cpu_types (defined: %s)",
				      what, id, name, list);
		}
		cpu.capacity = t->types[cpu.type].capacity;
		r = get_int(c, e, what, "package", 0, TOPOLOGY_MAX_CPUS - 1, &v);
		if (r < 0)
			return -1;
		cpu.package = r ? 0 : (int)v;
		r = get_int(c, e, what, "cluster", 0, TOPOLOGY_MAX_CPUS - 1, &v);
		if (r < 0)
			return -1;
		cpu.cluster = r ? cpu.package : (int)v;
		r = get_int(c, e, what, "core", 0, TOPOLOGY_MAX_CPUS - 1, &v);
		if (r < 0)
			return -1;
		cpu.core = r ? id : (int)v;
		r = get_int(c, e, what, "node", 0, TOPOLOGY_MAX_NODES - 1, &v);
		if (r < 0)
			return -1;
		cpu.node = r ? 0 : (int)v;
		if (max_node && cpu.node >= max_node)
			return err_at(c, member(e, "node"),
				      "%s (cpu %d): node %d is not defined: node_distances describes %d node%s",
				      what, id, cpu.node, max_node,
				      max_node > 1 ? "s" : "");
		if (!max_node && cpu.node >= t->nr_nodes)
			t->nr_nodes = cpu.node + 1;
		t->cpu[id] = cpu;
	}
	t->nr_cpus = n;
	return 0;
}

static const char *const shape_keys[] = {
	"packages", "clusters_per_package", "cores_per_cluster",
	"threads_per_core", "type", "node_per_package", NULL,
};

static int parse_shape(struct jctx *c, const cJSON *s, struct topology *t,
		       int max_node)
{
	static const char *const what = "shape";
	long v[4] = { 1, 1, 1, 1 };
	const cJSON *npp;
	char name[32], msg[256], list[300];
	int i, r, per_node = 0, type = 0;

	if (check_keys(c, s, what, shape_keys))
		return -1;
	for (i = 0; i < 4; i++)
		if (get_int(c, s, what, shape_keys[i], 1, TOPOLOGY_MAX_CPUS,
			    &v[i]) < 0)
			return -1;
	npp = member(s, "node_per_package");
	if (npp && !cJSON_IsBool(npp))
		return err_at(c, npp, "shape: 'node_per_package': expected true or false, got %s",
			      describe(npp, msg, sizeof(msg)));
	per_node = npp && cJSON_IsTrue(npp);
	r = get_str(c, s, what, "type", name, sizeof(name));
	if (r < 0)
		return -1;
	if (r && t->nr_types > 1)
		return err_at(c, s, "shape: 'type' is required when there are several types");
	type = r ? 0 : type_index(t, name);
	if (type < 0) {
		type_list(t, list, sizeof(list));
		return err_at(c, member(s, "type"),
			      "shape: type '%s' is not defined in cpu_types (defined: %s)",
			      name, list);
	}
	if (max_node && per_node && v[0] > max_node)
		return err_at(c, member(s, "packages"),
			      "shape: %ld packages, one node each, but node_distances describes %d node%s",
			      v[0], max_node, max_node > 1 ? "s" : "");
	if (max_node && !per_node && max_node > 1)
		return err_at(c, s, "shape: node_distances describes %d nodes, but all CPUs are in node 0 (set \"node_per_package\": true)",
			      max_node);
	if ((long)v[0] * v[1] * v[2] * v[3] > TOPOLOGY_MAX_CPUS ||
	    topology_build_shape(t, (int)v[0], (int)v[1], (int)v[2], (int)v[3],
				 per_node, msg, sizeof(msg)))
		return err_at(c, s, "shape: %ld x %ld x %ld x %ld CPUs: at most %d",
			      v[0], v[1], v[2], v[3], TOPOLOGY_MAX_CPUS);
	for (i = 0; i < t->nr_cpus; i++) {
		t->cpu[i].type = type;
		t->cpu[i].capacity = t->types[type].capacity;
		c->cpu_node[i] = s;
	}
	return 0;
}

static int parse_distances(struct jctx *c, const cJSON *d, struct topology *t)
{
	const cJSON *row, *e;
	char buf[64];
	int n = cJSON_GetArraySize(d), i = 0, j;

	if (!cJSON_IsArray(d))
		return err_at(c, d, "'node_distances': expected an array of arrays, got %s",
			      describe(d, buf, sizeof(buf)));
	if (n < 1 || n > TOPOLOGY_MAX_NODES)
		return err_at(c, d, "'node_distances': %d nodes: expected 1 to %d",
			      n, TOPOLOGY_MAX_NODES);
	for (row = d->child; row; row = row->next, i++) {
		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != n)
			return err_at(c, row, "node_distances[%d]: expected an array of %d distances (one per node), got %s",
				      i, n, cJSON_IsArray(row) ?
				      "another length" :
				      describe(row, buf, sizeof(buf)));
		j = 0;
		for (e = row->child; e; e = e->next, j++) {
			if (!cJSON_IsNumber(e) || e->valuedouble < 10 ||
			    e->valuedouble > 254 ||
			    e->valuedouble != (int)e->valuedouble)
				return err_at(c, e, "node_distances[%d][%d]: expected an integer from 10 to 254, got %s",
					      i, j, describe(e, buf, sizeof(buf)));
			t->distance[i][j] = (int)e->valuedouble;
		}
	}
	t->nr_nodes = n;
	return 0;
}

/* The JSON node that best shows where topology_check() found a fault. */
static const cJSON *fault_node(const struct jctx *c, const struct topology_fault *f)
{
	const cJSON *n;

	if (f->type >= 0) {
		n = c->type_node[f->type];
		if (n && f->opp >= 0 && member(n, "opps"))
			return cJSON_GetArrayItem(member(n, "opps"), f->opp);
		if (n && f->state >= 0 && member(n, "idle_states"))
			return cJSON_GetArrayItem(member(n, "idle_states"),
						  f->state);
		return n;
	}
	if (f->cpu >= 0)
		return c->cpu_node[f->cpu];
	if (f->node >= 0 && c->dist_node)
		return cJSON_GetArrayItem(cJSON_GetArrayItem(c->dist_node,
							     f->node),
					  f->node2);
	return NULL;
}

static const char *const top_keys[] = {
	"name", "description", "cpu_types", "cpus", "shape", "node_distances",
	"cmdline", NULL,
};

int topology_from_json(struct topology *out, const char *text,
		       const char *name_for_errors, char *err, size_t errlen)
{
	struct jctx ctx, *c = &ctx;
	const char *end = NULL, *p;
	const cJSON *cpus, *shape, *v;
	struct topology_fault f;
	char cmdline[sizeof(out->cmdline)] = "", msg[512];
	cJSON *root;
	int ret = -1, line, col;

	memset(out, 0, sizeof(*out));
	memset(c, 0, sizeof(*c));
	c->text = text;
	c->name = name_for_errors;
	c->err = err;
	c->errlen = errlen;
	if ((p = topology_json_nul(text))) {
		line_col(text, (int)(p - text), &line, &col);
		snprintf(err, errlen, "topology '%s':%d:%d: \\u0000 in a string: no name or value may hold a NUL character",
			 name_for_errors, line, col);
		topology_printable(err, errlen);
		return -1;
	}
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (!root) {
		line_col(text, end ? (int)(end - text) : 0, &line, &col);
		snprintf(err, errlen, "topology '%s':%d:%d: malformed JSON%s",
			 name_for_errors, line, col,
			 end && !*end ? " (unexpected end)" : "");
		topology_printable(err, errlen);
		return -1;
	}
	p = text;
	if (!strncmp(p, "\xEF\xBB\xBF", 3))	/* cJSON skips a UTF-8 BOM */
		p += 3;
	if (walk(c, root, &p, -1)) {
		snprintf(err, errlen, "topology '%s': out of memory",
			 name_for_errors);
		goto cleanup;
	}
	if (check_keys(c, root, "the machine", top_keys))
		goto cleanup;
	if (get_str(c, root, "the machine", "name", out->name,
		    sizeof(out->name)) < 0 ||
	    get_str(c, root, "the machine", "description", out->description,
		    sizeof(out->description)) < 0 ||
	    get_str(c, root, "the machine", "cmdline", cmdline,
		    sizeof(cmdline)) < 0)
		goto cleanup;
	if (!out->name[0])
		snprintf(out->name, sizeof(out->name), "%s", name_for_errors);
	v = member(root, "cpu_types");
	if (v) {
		if (parse_types(c, v, out))
			goto cleanup;
	} else {
		out->nr_types = 1;
		topology_default_type(&out->types[0]);
	}
	c->dist_node = member(root, "node_distances");
	if (c->dist_node && parse_distances(c, c->dist_node, out))
		goto cleanup;
	cpus = member(root, "cpus");
	shape = member(root, "shape");
	if (cpus && shape) {
		err_key(c, shape, "give either 'cpus' or 'shape', not both");
		goto cleanup;
	}
	if (!cpus && !shape) {
		err_at(c, root, "no CPUs: give 'cpus' (a list) or 'shape' (counts)");
		goto cleanup;
	}
	if (cpus) {
		const cJSON *arr;

		if (!c->dist_node)
			out->nr_nodes = 1;
		if (get_array(c, root, "the machine", "cpus", TOPOLOGY_MAX_CPUS,
			      &arr) ||
		    parse_cpus(c, arr, out, c->dist_node ? out->nr_nodes : 0))
			goto cleanup;
	} else if (parse_shape(c, shape, out,
			       c->dist_node ? out->nr_nodes : 0)) {
		goto cleanup;
	}
	if (!c->dist_node)
		topology_default_distances(out);
	else if (shape)	/* topology_build_shape wrote the defaults */
		parse_distances(c, c->dist_node, out);
	if (topology_check(out, &f, err, errlen)) {
		snprintf(msg, sizeof(msg), "%s", err);
		err_at(c, fault_node(c, &f), "%s", msg);
		goto cleanup;
	}
	/* checked against the CPUs, so once they are known */
	if (cmdline[0] && topology_set_cmdline(out, cmdline, msg, sizeof(msg))) {
		err_at(c, member(root, "cmdline"), "%s", msg);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (ret)
		topology_printable(err, errlen);
	cJSON_Delete(root);
	free(c->pos);
	c->pos = NULL;
	return ret;
}

int topology_from_file(struct topology *out, const char *path, char *err,
		       size_t errlen)
{
	char *text = topology_read_input(path, "topology", NULL, err, errlen);
	int ret;

	if (!text) {
		topology_printable(err, errlen);
		return -1;
	}
	ret = topology_from_json(out, text, path, err, errlen);
	free(text);
	return ret;
}

/* ---- writing ---- */

struct buf {
	char *s;
	size_t len, cap;
	int oom;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += n;
			return;
		}
		{
			size_t cap = 2 * b->cap + n + 1;
			char *s = realloc(b->s, cap);

			if (!s) {
				b->oom = 1;
				return;
			}
			b->s = s;
			b->cap = cap;
		}
	}
}

static void put_str(struct buf *b, const char *s)
{
	put(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			put(b, "\\%c", ch);
		else if (ch < 0x20)
			put(b, "\\u%04x", ch);
		else
			put(b, "%c", ch);
	}
	put(b, "\"");
}

/* The shortest %g that reads back as the same double. */
static void put_num(struct buf *b, double x)
{
	char s[64];
	int prec;

	for (prec = 6; prec < 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, x);
		if (strtod(s, NULL) == x)
			break;
	}
	snprintf(s, sizeof(s), "%.*g", prec, x);
	put(b, "%s", s);
}

static void put_us(struct buf *b, uint64_t ns)
{
	if (ns % 1000)
		put(b, "%llu.%03llu", (unsigned long long)(ns / 1000),
		    (unsigned long long)(ns % 1000));
	else
		put(b, "%llu", (unsigned long long)(ns / 1000));
}

char *topology_to_json(const struct topology *t)
{
	struct buf b = { .s = malloc(4096), .cap = 4096 };
	int i, j;

	if (!b.s)
		return NULL;
	put(&b, "{\n\t\"name\": ");
	put_str(&b, t->name);
	if (t->description[0]) {
		put(&b, ",\n\t\"description\": ");
		put_str(&b, t->description);
	}
	if (t->cmdline[0]) {
		put(&b, ",\n\t\"cmdline\": ");
		put_str(&b, t->cmdline);
	}
	put(&b, ",\n\t\"cpu_types\": {");
	for (i = 0; i < t->nr_types; i++) {
		const struct topology_type *ty = &t->types[i];

		put(&b, "%s\n\t\t", i ? "," : "");
		put_str(&b, ty->name);
		put(&b, ": {\n\t\t\t\"capacity\": %u,\n\t\t\t\"idle_states\": [",
		    ty->capacity);
		for (j = 0; j < ty->nr_states; j++) {
			const struct topology_idle_state *s = &ty->states[j];

			put(&b, "%s\n\t\t\t\t{\"name\": ", j ? "," : "");
			put_str(&b, s->name);
			put(&b, ", \"exit_latency_us\": ");
			put_us(&b, s->exit_latency_ns);
			put(&b, ", \"target_residency_us\": ");
			put_us(&b, s->target_residency_ns);
			put(&b, ", \"power_mw\": ");
			put_num(&b, s->power_mw);
			put(&b, "}");
		}
		put(&b, "%s]", ty->nr_states ? "\n\t\t\t" : "");
		if (ty->no_polling_state)
			put(&b, ",\n\t\t\t\"polling_state\": false");
		put(&b, ",\n\t\t\t\"opps\": [");
		for (j = 0; j < ty->nr_opps; j++) {
			const struct topology_opp *o = &ty->opps[j];

			put(&b, "%s\n\t\t\t\t{\"khz\": %llu, \"capacity\": %u, \"power_mw\": ",
			    j ? "," : "", (unsigned long long)o->khz,
			    o->capacity);
			put_num(&b, o->power_mw);
			put(&b, "}");
		}
		put(&b, "%s]", ty->nr_opps ? "\n\t\t\t" : "");
		if (ty->dvfs_per_core)
			put(&b, ",\n\t\t\t\"dvfs\": \"core\"");
		if (ty->smt_speed > 0 && ty->smt_speed < 1) {
			put(&b, ",\n\t\t\t\"smt_speed\": ");
			put_num(&b, ty->smt_speed);
		}
		put(&b, "\n\t\t}");
	}
	put(&b, "\n\t},\n\t\"cpus\": [");
	for (i = 0; i < t->nr_cpus; i++) {
		const struct topology_cpu *c = &t->cpu[i];

		put(&b, "%s\n\t\t{\"id\": %d, \"type\": ", i ? "," : "", i);
		put_str(&b, t->types[c->type].name);
		put(&b, ", \"package\": %d, \"cluster\": %d, \"core\": %d, \"node\": %d}",
		    c->package, c->cluster, c->core, c->node);
	}
	put(&b, "\n\t],\n\t\"node_distances\": [");
	for (i = 0; i < t->nr_nodes; i++) {
		put(&b, "%s[", i ? ", " : "");
		for (j = 0; j < t->nr_nodes; j++)
			put(&b, "%s%d", j ? ", " : "", t->distance[i][j]);
		put(&b, "]");
	}
	put(&b, "]\n}\n");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
