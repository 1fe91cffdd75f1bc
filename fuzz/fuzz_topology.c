// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_topology - libFuzzer harness of the topology parsers.
 *
 * An input whose first byte is 0x01 is a topology spec (a preset name or
 * a PxCxT shape; the rest, as a string); any other input is JSON text for
 * topology_from_json(). A machine that parses must validate, and must come
 * back identical through topology_to_json() and topology_from_json(), as
 * topologies.h promises: a difference aborts, so the fuzzer reports it.
 *
 * With FUZZ_WRITE_SEEDS=DIR in the environment, the harness writes every
 * preset as DIR/NAME.json and DIR/spec-NAME (the spec form) and exits: the
 * seed corpus comes from the parser's own presets.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topologies/topologies.h"

#define SPEC_MAX 256

static struct topology machine, again;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_file(const char *dir, const char *name, const char *prefix,
		      const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(prefix, f);
	fputs(text, f);
	return fclose(f);
}

static void write_seeds(const char *dir)
{
	const char *const *names;
	char err[1024], file[512];
	size_t n, i;
	char *text;

	names = topology_presets(&n);
	for (i = 0; i < n; i++) {
		if (topology_from_spec(&machine, names[i], err, sizeof(err))) {
			fprintf(stderr, "fuzz_topology: preset '%s': %s\n",
				names[i], err);
			exit(1);
		}
		text = topology_to_json(&machine);
		snprintf(file, sizeof(file), "%s.json", names[i]);
		if (!text || write_file(dir, file, "", text)) {
			fprintf(stderr, "fuzz_topology: cannot write seed '%s'\n",
				file);
			exit(1);
		}
		free(text);
		snprintf(file, sizeof(file), "spec-%s", names[i]);
		write_file(dir, file, "\001", names[i]);
	}
	write_file(dir, "spec-shape", "\001", "2x4x2");
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_WRITE_SEEDS");

	(void)argc;
	(void)argv;
	if (dir && *dir)
		write_seeds(dir);
	return 0;
}

static void round_trip(void)
{
	char err[1024];
	char *text;

	if (topology_validate(&machine, err, sizeof(err))) {
		fprintf(stderr, "fuzz_topology: parsed but invalid: %s\n", err);
		abort();
	}
	text = topology_to_json(&machine);
	if (!text)
		return;
	if (topology_from_json(&again, text, "round-trip", err, sizeof(err))) {
		fprintf(stderr, "fuzz_topology: its own JSON does not parse: %s\n%s\n",
			err, text);
		abort();
	}
	if (memcmp(&machine, &again, sizeof(machine))) {
		fprintf(stderr, "fuzz_topology: the JSON round trip changes the machine:\n%s\n",
			text);
		abort();
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], spec[SPEC_MAX + 1];
	char *text;
	int ret;

	if (size && data[0] == 1) {
		if (size - 1 > SPEC_MAX)
			return 0;
		memcpy(spec, data + 1, size - 1);
		spec[size - 1] = '\0';
		/* a spec naming a file reads it: keep to presets and shapes */
		if (strchr(spec, '/') || !access(spec, F_OK))
			return 0;
		if (!topology_from_spec(&machine, spec, err, sizeof(err)))
			round_trip();
		return 0;
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = topology_from_json(&machine, text, "fuzz", err, sizeof(err));
	free(text);
	if (!ret)
		round_trip();
	return 0;
}
