// SPDX-License-Identifier: GPL-2.0-only
/*
 * lsbisect - find the kernel commit that made the scheduler worse for a
 * workload. The bisection itself is not built yet: this prints its usage.
 */
#include <stdio.h>
#include <string.h>

#include "version.h"

static const char usage[] =
"usage: lsbisect GOOD BAD WORKLOAD [options]\n"
"\n"
"Bisect the kernel history between GOOD and BAD to the first commit whose\n"
"scheduler scores WORKLOAD worse than GOOD does.\n"
"\n"
"Not implemented yet: until the bisection lands, run single revisions with\n"
"'linsched run REV --workload W --topology T'.\n";

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("lsbisect %s\n", LSB_VERSION);
		return 0;
	}
	fputs(usage, stderr);
	return 2;
}
