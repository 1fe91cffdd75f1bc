/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * coverage - line coverage of the kernel's own code over a set of runs of
 * a build made with --instrument coverage (gcov): the runs' counts summed
 * (gcov-tool merge), read back through gcov's JSON (gcov --json-format),
 * and reduced per source file and per function, with the biggest
 * functions no run reached. Host side; runs gcc's gcov and gcov-tool.
 */
#ifndef LSB_COVERAGE_H
#define LSB_COVERAGE_H

#include <stddef.h>

struct cJSON;

/**
 * struct coverage_file - a source file's line coverage
 * @name: its path in the tree, "kernel/sched/fair.c" (a file that
 *	build_policy.c or build_utility.c includes is itself: idle.c, rt.c)
 * @lines: its executable lines (gcov's lines: those with code)
 * @executed: those at least one run executed
 */
struct coverage_file {
	char *name;
	long lines;
	long executed;
};

/**
 * struct coverage_function - a function the compiler emitted, as gcov
 *	lists it (a static function inlined into every caller has no body
 *	and is not listed; its lines count in its file's figure)
 * @name: its name
 * @file: its file's index in struct coverage's @files
 * @start: its first line
 * @end: its last line
 * @lines: executable lines from @start to @end
 * @executed: those executed, inlined copies included
 * @calls: entries of its own body (calls to inlined copies not counted)
 */
struct coverage_function {
	char *name;
	size_t file;
	int start;
	int end;
	long lines;
	long executed;
	unsigned long long calls;
};

struct coverage_line;

/**
 * struct coverage - what gcov said of some objects, summed
 * @files: the source files kept, sorted by name
 * @nr_files: their number
 * @funcs: their functions, sorted by file then first line
 * @nr_funcs: their number
 * @lines: (internal) the line records, one per file and line once
 *	coverage_finish() has run
 * @nr_lines: (internal)
 * @cap_lines, @cap_files, @cap_funcs: (internal) allocated sizes
 *
 * Zero it (or coverage_init()), add gcov's documents with
 * coverage_add_gcov_json() or coverage_gcov(), then coverage_finish();
 * free with coverage_release().
 */
struct coverage {
	struct coverage_file *files;
	size_t nr_files;
	struct coverage_function *funcs;
	size_t nr_funcs;
	struct coverage_line *lines;
	size_t nr_lines;
	size_t cap_lines, cap_files, cap_funcs;
};

void coverage_init(struct coverage *c);
void coverage_release(struct coverage *c);

/**
 * coverage_add_gcov_json() - add one document of gcov --json-format
 * @c: the coverage
 * @json: the document (gcc 12's format 1: files, their lines with
 *	line_number and count, their functions with name, start_line,
 *	end_line and execution_count)
 * @subdir: keep only the C files directly in this directory of the tree
 *	("kernel/sched": a file named ".../kernel/sched/fair.c", or
 *	"kernel/sched/fair.c"); headers and other directories are left out
 *
 * A line or function given twice (by two documents, or twice in one) is
 * one, its counts summed.
 *
 * Return: 0, or -1 with coverage_last_error() saying what was wrong with
 * the document.
 */
int coverage_add_gcov_json(struct coverage *c, const char *json,
			   const char *subdir);

/**
 * coverage_finish() - sum what was added: each file's and function's
 *	executable and executed lines
 * @c: the coverage
 *
 * Return: 0, or -1 (out of memory) with coverage_last_error() set.
 */
int coverage_finish(struct coverage *c);

/**
 * coverage_find_file() - a file by its name in the tree
 * @c: the coverage, finished
 * @name: "kernel/sched/fair.c"
 *
 * Return: its index in @c->files, or -1.
 */
long coverage_find_file(const struct coverage *c, const char *name);

/**
 * coverage_unreached() - the biggest functions of a file no run reached
 * @c: the coverage, finished
 * @file: the file's index
 * @out: receives indexes into @c->funcs: functions with executable lines
 *	none of which ran, most lines first (then by first line)
 * @max: the size of @out
 *
 * Return: the number written.
 */
size_t coverage_unreached(const struct coverage *c, size_t file,
			  size_t *out, size_t max);

/**
 * coverage_percent() - @executed of @lines as a percentage, rounded to
 *	two decimals (0 for no lines)
 */
double coverage_percent(long executed, long lines);

/**
 * coverage_to_json() - the figures as JSON
 * @c: the coverage, finished
 * @top: how many never-reached functions each file lists
 * @root: the object they are added to, or NULL for a new one
 *
 * Return: the object (@root, when given) with "files" (per file its name,
 * lines, executed lines and percent), "total", "unreached" (per file its
 * @top biggest functions never reached: name, first and last line,
 * lines) and "functions" (every function: file, name, first and last
 * line, lines, executed lines, calls), or NULL when out of memory. The
 * same coverage gives the same bytes.
 */
struct cJSON *coverage_to_json(const struct coverage *c, size_t top,
			       struct cJSON *root);

/**
 * coverage_to_text() - the figures as a table, then the biggest functions
 *	never reached in @files
 * @c: the coverage, finished
 * @files: names of files to list the functions of ("kernel/sched/fair.c")
 * @nr_files: their number
 * @top: how many functions each lists
 *
 * Return: the text (malloc()ed), or NULL when out of memory.
 */
char *coverage_to_text(const struct coverage *c, const char *const *files,
		       size_t nr_files, size_t top);

/**
 * typedef coverage_progress_fn - told after each merge step
 * @done: run directories merged so far
 * @total: all of them
 * @arg: as given
 */
typedef void (*coverage_progress_fn)(size_t done, size_t total, void *arg);

/**
 * coverage_merge() - sum the counts of several runs into one directory
 * @out: the directory made (replaced if it exists); the sum is made in
 *	@out.tmp and appears by rename(2) when it is whole
 * @dirs: directories of .gcda files, each as one run wrote them, of the
 *	same build's objects and in the same layout ("KEY/o/kernel/sched":
 *	@out gets fair.gcda, core.gcda, ...)
 * @n: their number, at least 1
 * @jobs: processes summing at once (each a part of @dirs, their sums
 *	summed at the end; fewer when the parts would be small)
 * @progress: called as directories are summed, or NULL
 * @arg: passed to @progress
 *
 * The sum is `gcov-tool merge` of one directory after another (a single
 * directory is copied by `gcov-tool rewrite`): every count is the sum of
 * the runs'. gcov-tool must be gcc's, the compiler's that built the
 * objects.
 *
 * Return: 0, or -1 with coverage_last_error() naming the step that failed
 * and gcov-tool's first words.
 */
int coverage_merge(const char *out, const char *const *dirs, size_t n,
		   int jobs, coverage_progress_fn progress, void *arg);

/**
 * coverage_gcov() - run gcov on some objects and add what it says
 * @c: the coverage
 * @counts: a directory of .gcda files (coverage_merge()'s @out)
 * @objs: the build's directory of the same objects' .gcno files
 *	("BUILD/o/kernel/sched")
 * @subdir: the tree's directory of the C files to keep ("kernel/sched";
 *	coverage_add_gcov_json())
 *
 * Each OBJS/NAME.gcno is linked beside COUNTS/NAME.gcda and `gcov
 * --json-format --stdout` reads the pair (an object without counts is
 * read as never run).
 *
 * Return: 0, or -1 with coverage_last_error() set (no .gcno in @objs,
 * gcov failed, its output did not parse).
 */
int coverage_gcov(struct coverage *c, const char *counts, const char *objs,
		  const char *subdir);

/**
 * coverage_last_error() - the message of the last failure in this thread
 *
 * Return: a borrowed string, "" if none.
 */
const char *coverage_last_error(void);

#endif
