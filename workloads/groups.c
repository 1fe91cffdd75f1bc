// SPDX-License-Identifier: GPL-2.0-only
/*
 * Task groups of a workload: paths as rt-app's "taskgroup" names them
 * (rt-app makes every directory of the path), and the control-file
 * writes of our extension, checked as far as they can be without the
 * kernel: the cpu controller's own handlers in the revision read the
 * cpu.* values; the cpuset values are the simulator's to apply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/topologies.h"
#include "workloads/workloads.h"

static int find(const struct workload *wl, const char *path, size_t len)
{
	int i;

	for (i = 0; i < wl->nr_groups; i++)
		if (strlen(wl->groups[i].path) == len &&
		    !strncmp(wl->groups[i].path, path, len))
			return i;
	return -1;
}

static int add(struct workload *wl, const char *path, size_t len, int parent)
{
	struct workload_group *g;

	if (wl->nr_groups == WORKLOAD_MAX_GROUPS)
		return -1;
	g = realloc(wl->groups, (wl->nr_groups + 1) * sizeof(*g));
	if (!g)
		return -1;
	wl->groups = g;
	g = &wl->groups[wl->nr_groups];
	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%.*s", (int)len, path);
	g->parent = parent;
	return wl->nr_groups++;
}

int workload_group(struct workload *wl, const char *path, char *err,
		   size_t errlen)
{
	char norm[WORKLOAD_GROUP_PATH_MAX] = "", why[80];
	const char *s = path;
	size_t len = 0;
	int parent, g;

	if (path[0] != '/' || strlen(path) >= sizeof(norm)) {
		snprintf(err, errlen, "taskgroup '%s': expected an absolute path of at most %zu characters, such as /a/b",
			 path, sizeof(norm) - 1);
		return -1;
	}
	/* the results name the groups by their paths */
	if (topology_unprintable(path, why, sizeof(why))) {
		snprintf(err, errlen, "taskgroup '%s': holds %s: not a path of names",
			 path, why);
		return -1;
	}
	if (!wl->nr_groups && add(wl, "/", 1, -1) < 0)
		goto full;
	parent = 0;
	/* rt-app makes the directories of "/a//b/" as of "/a/b" */
	for (;;) {
		size_t n;

		while (*s == '/')
			s++;
		n = strcspn(s, "/");
		if (!n)
			break;
		if ((n == 1 && s[0] == '.') || (n == 2 && !strncmp(s, "..", 2))) {
			snprintf(err, errlen, "taskgroup '%s': '.' and '..' name no new group",
				 path);
			return -1;
		}
		len += (size_t)snprintf(norm + len, sizeof(norm) - len, "/%.*s",
					(int)n, s);
		s += n;
		g = find(wl, norm, len);
		if (g < 0 && (g = add(wl, norm, len, parent)) < 0)
			goto full;
		parent = g;
	}
	return parent + 1;
full:
	snprintf(err, errlen, "taskgroup '%s': more than %d groups", path,
		 WORKLOAD_MAX_GROUPS);
	return -1;
}

static const char *const cpu_files[] = {
	"weight", "weight.nice", "max", "max.burst", "idle", "uclamp.min",
	"uclamp.max", "shares", "cfs_quota_us", "cfs_period_us",
	"cfs_burst_us", NULL,
};

int workload_setting(struct workload_setting *out, const char *file,
		     const char *value, char *err, size_t errlen)
{
	char why[80];
	size_t i;
	int n;

	memset(out, 0, sizeof(*out));
	if (strlen(value) >= sizeof(out->value)) {
		snprintf(err, errlen, "'%s': a value of more than %zu characters",
			 file, sizeof(out->value) - 1);
		return -1;
	}
	/* what the results' system_events say was written */
	if (topology_unprintable(value, why, sizeof(why))) {
		snprintf(err, errlen, "'%s': the value '%s' holds %s", file,
			 value, why);
		return -1;
	}
	if (!strncmp(file, "cpu.", 4)) {
		for (i = 0; cpu_files[i]; i++)
			if (!strcmp(file + 4, cpu_files[i]))
				break;
		if (!cpu_files[i])
			goto unknown;
	} else if (!strcmp(file, "cpuset.cpus")) {
		if (topology_cpulist(value, WORKLOAD_MAX_CPUS, NULL, &n)) {
			snprintf(err, errlen, "'%s': expected a list of CPUs such as 0-3,6, got '%s'",
				 file, value);
			return -1;
		}
	} else if (!strcmp(file, "cpuset.cpus.partition")) {
		if (strcmp(value, "member") && strcmp(value, "root") &&
		    strcmp(value, "isolated")) {
			snprintf(err, errlen, "'%s': expected member, root or isolated, got '%s'",
				 file, value);
			return -1;
		}
	} else {
		goto unknown;
	}
	snprintf(out->file, sizeof(out->file), "%s", file);
	snprintf(out->value, sizeof(out->value), "%s", value);
	return 0;
unknown:
	snprintf(err, errlen, "unknown control file '%s' (expected cpu.weight, cpu.weight.nice, cpu.max, cpu.max.burst, cpu.idle, cpu.uclamp.min, cpu.uclamp.max, cgroup v1's cpu.shares, cpu.cfs_quota_us, cpu.cfs_period_us, cpu.cfs_burst_us, or cpuset.cpus, cpuset.cpus.partition)",
		 file);
	return -1;
}
