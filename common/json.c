// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON printed exactly: see lsb_json_print() in common.h. The simulator
 * links this file too (the Makefile's SIM_SRC), for its results.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/common.h"

/* a type bit cJSON does not use, marking the numbers made raw here */
#define LSB_JSON_EXACT (1 << 14)

void lsb_json_number(char *buf, size_t size, double d)
{
	unsigned long long u;
	char *p = buf + size;

	if (d >= 0 && d < 1e15 && d == (double)(unsigned long long)d) {
		u = (unsigned long long)d;
		*--p = '\0';
		do
			*--p = (char)('0' + u % 10);
		while (u /= 10);
		memmove(buf, p, (size_t)(buf + size - p));
		return;
	}
	snprintf(buf, size, "%.15g", d);
	if (strtod(buf, NULL) != d)
		snprintf(buf, size, "%.17g", d);
}

/* numbers to exact raw text (@undo 0), or back to numbers (@undo 1) */
static int json_exact(cJSON *item, int undo)
{
	char buf[32];

	for (; item; item = item->next) {
		if (item->child && json_exact(item->child, undo))
			return -1;
		if (undo) {
			if (item->type & LSB_JSON_EXACT) {
				free(item->valuestring);
				item->valuestring = NULL;
				item->type = cJSON_Number;
			}
			continue;
		}
		/* NaN and infinities stay cJSON's null; -0 its "-0" */
		if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) ||
		    (item->valuedouble == 0 && signbit(item->valuedouble)))
			continue;
		lsb_json_number(buf, sizeof(buf), item->valuedouble);
		item->valuestring = strdup(buf);
		if (!item->valuestring)
			return -1;
		item->type = cJSON_Raw | LSB_JSON_EXACT;
	}
	return 0;
}

char *lsb_json_print(const cJSON *json, int formatted)
{
	cJSON *item = (cJSON *)json;
	char *text = NULL;

	if (!json_exact(item, 0))
		text = formatted ? cJSON_Print(item) :
				   cJSON_PrintUnformatted(item);
	json_exact(item, 1);
	return text;
}
