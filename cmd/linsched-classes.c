// SPDX-License-Identifier: GPL-2.0-only
/*
 * linsched classes - list the commits of a range with their subset hashes
 * and classes, as lsbisect, trend and report see them; nothing is built.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "bisect/bisect.h"
#include "cmd/cmd.h"
#include "common/common.h"
#include "driver/driver.h"

static const char usage_classes[] =
"usage: linsched classes GOOD..BAD [options]\n"
"\n"
"List the revisions a bisection of the range searches, without building\n"
"anything: GOOD, then the commits reachable from BAD and not from GOOD,\n"
"oldest first, one a line:\n"
"  CLASS COMMIT SUBSET\n"
"CLASS is 0 for GOOD and counts from 1 the classes of consecutive commits\n"
"with one subset hash (SUBSET, the content hash of the build subset,\n"
"bisect/subset.list); the commits of a class export the same files. A\n"
"summary line goes to standard error: commits, merges, classes, seconds.\n"
"\n"
"      --first-parent  follow only BAD's first parents\n"
"  -r, --repo R        kernel repository (default: the bundled history)\n"
"  -s, --summary       print only the summary line\n"
"  -h, --help          this text\n"
"\n"
"Exit status: 0, 1 (repository or revision error), 2 (usage).\n";

int cmd_classes(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "first-parent", no_argument, NULL, 'F' },
		{ "summary", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct driver_paths paths;
	const char *repo = NULL;
	int first_parent = 0, summary = 0, c, ret = 1;
	char good[256], bad[256];
	struct bisect_classes *cls = NULL;
	bisect_repo *r = NULL;
	size_t i, j;
	double t0;

	while ((c = getopt_long(argc, argv, "r:sh", opts, NULL)) != -1) {
		switch (c) {
		case 'r': repo = optarg; break;
		case 'F': first_parent = 1; break;
		case 's': summary = 1; break;
		case 'h':
			fputs(usage_classes, stdout);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "error: linsched classes takes one range GOOD..BAD\n");
		goto usage;
	}
	if (cmd_split_range(argv[optind], good, bad, sizeof(good)))
		goto usage;
	if (!repo) {
		if (driver_paths_init(&paths)) {
			fprintf(stderr, "error: %s\n", driver_last_error());
			return 1;
		}
		repo = paths.repo;
	}
	t0 = lsb_now();
	if (bisect_repo_open(&r, repo) ||
	    bisect_classes_new(&cls, r, good, bad, first_parent)) {
		fprintf(stderr, "error: %s\n", bisect_last_error());
		goto out;
	}
	fprintf(stderr, "%s: %zu commits (%zu merges) in %zu classes (%s), %.3f s\n",
		argv[optind], cls->nr_commits, cls->nr_merges,
		cls->nr_classes, first_parent ? "first parents" :
		"full history", lsb_now() - t0);
	if (!summary) {
		printf("0 %s %s\n", cls->good, cls->good_subset);
		for (i = 0; i < cls->nr_classes; i++)
			for (j = 0; j < cls->classes[i].n; j++)
				printf("%zu %s %s\n", i + 1,
				       cls->commits[cls->classes[i].first + j],
				       cls->classes[i].subset);
	}
	ret = fflush(stdout) ? 1 : 0;
out:
	bisect_classes_free(cls);
	bisect_repo_free(r);
	return ret;
usage:
	fputs(usage_classes, stderr);
	return 2;
}
