/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bugs - the catalogue of real upstream scheduler bugs: per bug, the
 * upstream fix, the workload and machine that show it, the figure that
 * tells the buggy kernel from the fixed one, and how the pair is made (two
 * releases that straddle the fix, or a release and the same release with
 * the bug put back by an edit, committed by bisect_commit_edits()). A
 * finding is a behaviour with no upstream fix: the entry names the
 * upstream change it comes from, and its edits take that change out of
 * the release instead (the fixed side is the edited one).
 */
#ifndef LSB_BUGS_H
#define LSB_BUGS_H

#include <stddef.h>

#include "bisect/bisect.h"

/**
 * struct bug - one entry of the catalogue (bugs/catalogue/NAME.json)
 * @name: the entry's name, its file's name without ".json"
 * @fix_commit: the upstream fix's commit id (abbreviated as upstream
 *	cites it); for a finding, the upstream change the behaviour comes from
 * @fix_subject: its subject line
 * @finding: no upstream fix: the entry is a finding ("finding" instead of
 *	"fix"), and @edits take the change out of @fixed
 * @source: where the bug is known from ("kSTEP", "Debian stable 6.1.178")
 * @series: the kernel series the entry runs on ("6.12")
 * @summary: mechanism, trigger and effect, a paragraph
 * @files: the kernel files of the fix
 * @nr_files: their number
 * @workload: the workload file (a path the catalogue's loader resolved)
 * @topology: a topology preset or shape, or a machine file of the
 *	entry's own (NAME.json, beside the workloads: the path it resolved)
 * @duration: simulated time ("5s")
 * @seed: the seed
 * @metric: the figure, as metric_value() reads it
 * @buggy_above: the bug shows as @metric above @threshold (else below)
 * @threshold: the boundary between the buggy and the fixed figure
 * @signal_task: the figure drawn over time: the CPU share of the tasks
 *	whose name starts with this; NULL when @signal_cpu is used
 * @signal_cpu: or the busy share of this CPU (-1: not used)
 * @signal_work: or the kernel's work (an instrumented build's
 *	lsb_kernel_work trace lines): BUG_WORK_SUM, the function calls of
 *	each window; BUG_WORK_MAX, the worst single interrupt's (0: not used)
 * @instrument: the build variant both sides are built as: "work" (the
 *	kernel's work is counted, --instrument work) or NULL (plain)
 * @cpuidle: the revision's cpuidle governor both sides run ("teo",
 *	"ladder", "menu": --cpuidle), or NULL (the revision's default)
 * @starvation: the starvation invariant's bound both sides run with
 *	("200ms": --starvation), or NULL (the simulator's default)
 * @buggy: the buggy revision; with @edits (not a finding), the revision
 *	they edit
 * @fixed: the fixed revision; with the @edits of a finding, the revision
 *	they edit
 * @edits: substitutions that put the bug back into @buggy, or for a
 *	finding take the change out of @fixed
 * @nr_edits: their number (0: both sides are releases as they are)
 */
enum { BUG_WORK_SUM = 1, BUG_WORK_MAX };

struct bug {
	char *name;
	char *fix_commit;
	char *fix_subject;
	int finding;
	char *source;
	char *series;
	char *summary;
	char **files;
	size_t nr_files;
	char *workload;
	char *topology;
	char *duration;
	unsigned long long seed;
	char *metric;
	int buggy_above;
	double threshold;
	char *signal_task;
	int signal_cpu;
	int signal_work;
	char *instrument;
	char *cpuidle;
	char *starvation;
	char *buggy;
	char *fixed;
	struct bisect_edit *edits;
	size_t nr_edits;
};

/**
 * bugs_load() - read the catalogue
 * @dir: its directory: NAME.json entries, their workloads in workloads/
 * @out: receives the entries, sorted by name; free with bugs_free()
 * @n: receives their number
 *
 * Every entry is checked: its keys, their types, its workload file's
 * existence. An unknown key is an error, so a misspelt one is never
 * silently ignored.
 *
 * Return: 0, or -1 with bugs_last_error() naming the file and the key.
 */
int bugs_load(const char *dir, struct bug **out, size_t *n);

/**
 * bugs_free() - free what bugs_load() made
 * @bugs: the entries; NULL is allowed
 * @n: their number
 */
void bugs_free(struct bug *bugs, size_t n);

/**
 * bug_find() - an entry by name
 * @bugs: the catalogue
 * @n: its size
 * @name: the name
 *
 * Return: the entry, or NULL.
 */
const struct bug *bug_find(const struct bug *bugs, size_t n,
			   const char *name);

/**
 * bug_revisions() - the commits of an entry's buggy and fixed kernels
 * @b: the entry
 * @r: the repository of its releases; an edited revision (the buggy one,
 *	or a finding's fixed one) is committed there, under
 *	refs/lsbisect/bugs/NAME
 * @buggy_hex: receives the buggy commit
 * @fixed_hex: receives the fixed commit
 *
 * Return: 0, or -1 with bugs_last_error() set (a release that is not
 * there, an edit that no longer applies).
 */
int bug_revisions(const struct bug *b, bisect_repo *r, char buggy_hex[41],
		  char fixed_hex[41]);

/**
 * bug_is_buggy() - whether a figure is on the buggy side of the entry's
 *	threshold
 * @b: the entry
 * @value: the figure
 */
int bug_is_buggy(const struct bug *b, double value);

/**
 * bug_signal() - the entry's signal over time, from a run's trace
 * @b: the entry
 * @trace: the trace file (ftrace text, as the simulator writes it)
 * @end_us: the run's length in microseconds
 * @bins: the number of windows the run is cut into
 * @out: receives @bins values, the share (0 to 1, or more CPUs' worth for
 *	several tasks) of each window the signal's tasks ran, or its CPU
 *	was busy; or the kernel calls of the window (all, or its worst
 *	interrupt's)
 *
 * Return: 0, or -1 with bugs_last_error() set.
 */
int bug_signal(const struct bug *b, const char *trace, unsigned long long end_us,
	       size_t bins, double *out);

/**
 * bugs_last_error() - the message of the module's last failure
 */
const char *bugs_last_error(void);

#endif
