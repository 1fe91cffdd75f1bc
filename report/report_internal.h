/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_internal.h - shared between the files of report/, not installed.
 */
#ifndef LSB_REPORT_INTERNAL_H
#define LSB_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

/* Set the message report_last_error() returns. */
void report_set_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * The number formats of the text and the HTML ("-" for NAN): the tests
 * hold them to the JSON's numbers.
 */
void report_fmt_value(char *buf, size_t len, double v);
void report_fmt_pct(char *buf, size_t len, double v);

/* "3 in 2 of 3 runs": WARNs, the runs with one, the runs counted. */
void report_fmt_warnings(char *buf, size_t len,
			 const struct report_warnings *w);

/*
 * The sides of rows that had a WARN, in row order, OLD before NEW: their
 * number, and the @i-th's row and side when @row is not NULL.
 */
size_t report_warned(const struct report *rep, size_t i,
		     const struct report_row **row, int *side);

/* The last part of report_timeline_dir(): "TOPO-PATTERN-old". */
void report_timeline_name(const struct report *rep,
			  const struct report_row *row, int side, char *buf,
			  size_t len);

/* The first tag (by name) of @commit, or NULL (trend.c). */
const char *report_tag_of(const char *commit, const struct bisect_tag *tags,
			  size_t nr_tags);

/* The header report.txt and report.html start with (text.c). */
void report_text_header(FILE *f, const struct report *rep);

#endif
