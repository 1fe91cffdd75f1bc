// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_workload - libFuzzer harness of the workload parsers.
 *
 * An input whose first byte is 0x01 is a compact spec (the rest, as a
 * string); any other input is the text of an rt-app JSON file, which
 * workload_parse() reads from a file of its own (it takes paths only).
 * A parsed workload is also checked against an 8-CPU machine, then
 * released: ASan's leak check sees everything the parser keeps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/workloads.h"

#define SPEC_MAX 4096

static char path[64];

static void remove_file(void)
{
	unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "/tmp/fuzz_workload.XXXXXX.json");
	fd = mkstemps(path, 5);
	if (fd < 0) {
		perror("fuzz_workload: mkstemps");
		exit(1);
	}
	close(fd);
	atexit(remove_file);
	return 0;
}

static void parse(const char *spec)
{
	struct workload wl;
	char err[1024];

	if (workload_parse(&wl, spec, err, sizeof(err)))
		return;
	workload_check(&wl, 8, err, sizeof(err));
	workload_release(&wl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[SPEC_MAX + 1];
	FILE *f;

	if (size && data[0] == 1) {
		if (size - 1 > SPEC_MAX)
			return 0;
		memcpy(spec, data + 1, size - 1);
		spec[size - 1] = '\0';
		/* a spec naming a file reads it: keep to specs, not /dev/zero */
		if (strchr(spec, '/') || strstr(spec, ".json"))
			return 0;
		if (!access(spec, F_OK))
			return 0;
		parse(spec);
		return 0;
	}
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	parse(path);
	return 0;
}
