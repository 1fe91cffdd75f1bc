// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched topology - list, show and capture machines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "topologies/topologies.h"

static const char usage_topology[] =
"usage: linsched topology list\n"
"       linsched topology show T\n"
"       linsched topology --from-sysfs [ROOT] [-o FILE]\n"
"\n"
"  list                the presets: name, CPUs, CPU types, NUMA nodes\n"
"  show T              print machine T as JSON: a preset, a PxCxT shape\n"
"                      or a JSON file (format: topologies/README.md)\n"
"  --from-sysfs [ROOT] capture this machine from sysfs (ROOT: its cpu\n"
"                      directory, default /sys/devices/system/cpu); what\n"
"                      sysfs does not say is noted on standard error\n"
"  -o FILE             write the JSON to FILE, not standard output\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0 done, 1 error, 2 usage (also: a sysfs tree that cannot be\n"
"captured: missing, or saying what no machine is).\n";

static int usage_error(const char *fmt, const char *arg)
{
	fputs("error: ", stderr);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n\n%s", usage_topology);
	return 2;
}

static int list(void)
{
	static struct topology t;
	const char *const *names;
	char err[512];
	size_t n, i;

	names = topology_presets(&n);
	printf("%-24s %4s %5s %5s  %s\n", "NAME", "CPUS", "TYPES", "NODES",
	       "DESCRIPTION");
	for (i = 0; i < n; i++) {
		if (topology_from_spec(&t, names[i], err, sizeof(err))) {
			fprintf(stderr, "error: %s\n", err);
			return 1;
		}
		printf("%-24s %4d %5d %5d  %s\n", names[i], t.nr_cpus,
		       t.nr_types, t.nr_nodes, t.description);
	}
	return 0;
}

static int write_json(const struct topology *t, const char *file)
{
	char *json = topology_to_json(t);
	int ret = 0, err = 0;

	if (!json) {
		fprintf(stderr, "error: out of memory\n");
		return 1;
	}
	if (file && strcmp(file, "-")) {
		FILE *f = fopen(file, "w");

		if (!f) {
			fprintf(stderr, "error: cannot write '%s': %s\n", file,
				strerror(errno));
			free(json);
			return 1;
		}
		if (fputs(json, f) == EOF) {
			err = errno;
			ret = 1;
		}
		if (fclose(f) && !ret) {
			err = errno;
			ret = 1;
		}
	} else if (fputs(json, stdout) == EOF || fflush(stdout)) {
		err = errno;
		ret = 1;
		clearerr(stdout);	/* said here, with its errno, not again */
	}
	if (ret)
		fprintf(stderr, "error: cannot write '%s': %s\n",
			file && strcmp(file, "-") ? file : "standard output",
			strerror(err));
	free(json);
	return ret;
}

static int show(const char *spec)
{
	static struct topology t;
	char err[1024];

	if (topology_from_spec(&t, spec, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return 1;
	}
	return write_json(&t, NULL);
}

static int from_sysfs(int argc, char **argv)
{
	static struct topology t;
	const char *root = NULL, *file = NULL;
	char note[4096], *line, *save = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (++i == argc)
				return usage_error("%s needs a file", argv[i - 1]);
			file = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("unknown option '%s'", argv[i]);
		} else if (!root) {
			root = argv[i];
		} else {
			return usage_error("unexpected argument '%s'", argv[i]);
		}
	}
	if (topology_from_sysfs(&t, root, note, sizeof(note))) {
		fprintf(stderr, "error: %s\n", note);
		return 2;	/* the tree given cannot be captured */
	}
	for (line = strtok_r(note, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(stderr, "note: %s\n", line);
	return write_json(&t, file);
}

int cmd_topology(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub)
		return usage_error("%s", "a subcommand is needed");
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") ||
	    !strcmp(sub, "help")) {
		fputs(usage_topology, stdout);
		return 0;
	}
	if (!strcmp(sub, "list"))
		return argc == 2 ? list() :
		       usage_error("unexpected argument '%s'", argv[2]);
	if (!strcmp(sub, "show")) {
		if (argc != 3)
			return usage_error("%s", "show takes one topology");
		return show(argv[2]);
	}
	if (!strcmp(sub, "--from-sysfs") || !strcmp(sub, "from-sysfs"))
		return from_sysfs(argc - 1, argv + 1);
	return usage_error("unknown subcommand '%s'", sub);
}
