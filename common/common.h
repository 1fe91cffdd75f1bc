/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common - small file-system and string helpers the host-side modules
 * share (the simulator runtime does not use them).
 */
#ifndef LSB_COMMON_H
#define LSB_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * lsb_pathf() - snprintf() for paths and messages
 * @buf: destination
 * @len: its size
 * @fmt: format
 *
 * Return: the length written, or -1 when it did not fit (@buf then holds
 * the truncated text).
 */
int lsb_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * lsb_vformat() - vsnprintf() into @buf, for error setters
 * @buf: destination
 * @len: its size
 * @fmt: format
 * @ap: arguments
 */
void lsb_vformat(char *buf, size_t len, const char *fmt, va_list ap);

/**
 * lsb_mkdir_p() - make a directory and its parents
 * @path: the directory
 *
 * Return: 0 (also when it exists), -1 with errno set.
 */
int lsb_mkdir_p(const char *path);

/**
 * lsb_out_dir() - make an output directory and hold it for this process
 * @dir: the directory (made with its parents)
 * @who: the command, as the next one refused names it ("linsched report")
 * @err: receives what went wrong
 * @len: its size
 *
 * One command at a time writes in a directory: DIR/.lock is locked with
 * fcntl() (lsb_lock_take()) and holds the holder's pid and @who
 * (lsb_lock_holder()), so that a second command, refused, can say who
 * holds it. The lock is released when the process ends; nothing else in
 * the process may open and close DIR/.lock meanwhile (that would release
 * it); children do not hold it.
 *
 * Return: the lock's descriptor, or -1 with @err set (the directory
 * cannot be made, or another process holds it: errno EWOULDBLOCK).
 */
int lsb_out_dir(const char *dir, const char *who, char *err, size_t len);

/**
 * lsb_lock_take() - lock an output directory's lock file, or say who has it
 * @fd: DIR/.lock, open for writing
 * @dir: the directory, for the message
 * @lock: the file's path, for the message
 * @err: receives why not: "another NAME works in 'DIR': the lock 'LOCK' is
 *	held by pid PID" (NAME as the holder wrote it, PID as fcntl() says)
 * @len: its size
 *
 * Return: 0 (held until the process ends or closes a descriptor of the
 * file), or -1 with @err and errno set (EWOULDBLOCK: held by another).
 */
int lsb_lock_take(int fd, const char *dir, const char *lock, char *err,
		  size_t len);

/**
 * lsb_lock_holder() - write "PID WHO" into a lock file this process holds
 * @fd: the lock file
 * @who: the command ("lsbisect")
 */
void lsb_lock_holder(int fd, const char *who);

/**
 * lsb_rm_rf() - remove a tree, not following symbolic links
 * @path: the tree
 */
void lsb_rm_rf(const char *path);

/**
 * lsb_read_file() - a whole file, NUL-terminated
 * @path: the file
 * @len: receives its length (may be NULL)
 *
 * Return: a malloc()ed buffer the caller frees, or NULL with errno set.
 */
char *lsb_read_file(const char *path, size_t *len);

/*
 * lsb_last_line() - the last line of @s that is not empty, for messages;
 * trailing line breaks and spaces are cut from @s
 */
const char *lsb_last_line(char *s);

/**
 * lsb_write_atomic() - replace a file's content all at once
 * @path: the file
 * @buf: the content
 * @len: its length
 *
 * Writes PATH.tmp.PID, fsync()s it and renames it over @path, so a reader
 * (another process, a node of a cluster) sees the old file or the whole
 * new one, never a part; the temporary file is removed on failure.
 *
 * Return: 0, or -1 with errno set.
 */
int lsb_write_atomic(const char *path, const void *buf, size_t len);

/* The tool's version, as git describe gave it when it was built. */
const char *lsb_version(void);

struct cJSON;

/*
 * @json as text, as cJSON_Print() (@formatted) or cJSON_PrintUnformatted()
 * print it but with every number exact: cJSON keeps 15 significant digits
 * when they read back within an epsilon, which loses the last bit of some
 * doubles; here a number reads back as the very double it was. Integers
 * below 10^15 are their digits, printed for far less work than cJSON's
 * sprintf() and sscanf() round trip. @json is changed while it prints and
 * restored: no other thread may read it meanwhile. Free the text.
 * Return: the text, or NULL when out of memory.
 */
char *lsb_json_print(const struct cJSON *json, int formatted);

/**
 * lsb_json_number() - a double as lsb_json_print() prints it
 * @buf: receives the text (32 bytes hold any double)
 * @size: size of @buf
 * @d: the number
 *
 * Integers below 10^15 as their digits, else the shorter of %.15g and
 * %.17g that strtod() reads back as @d.
 */
void lsb_json_number(char *buf, size_t size, double d);

/*
 * Replace @path, as lsb_write_atomic() does, with @json as lsb_json_print()
 * prints it and a newline. Return 0, or -1 with errno set.
 */
int lsb_write_json(const char *path, const struct cJSON *json);

/**
 * LSB_DEFINE_LAST_ERROR() - a module's last-error message, per thread
 * @mod: the module's prefix
 *
 * Defines mod_set_error(fmt, ...), mod_vset_error(fmt, ap) and
 * mod_last_error(), over one thread-local buffer of the module; the
 * module's headers declare the ones it makes public.
 */
#define LSB_DEFINE_LAST_ERROR(mod)                                        \
	static __thread char mod##_error_text[4096];                      \
	static __attribute__((unused)) void               \
	mod##_vset_error(const char *fmt, va_list ap)              \
	{                                                                 \
		lsb_vformat(mod##_error_text, sizeof(mod##_error_text), fmt, \
			    ap);                                          \
	}                                                                 \
	void mod##_set_error(const char *fmt, ...)                        \
	{                                                                 \
		va_list ap;                                               \
		va_start(ap, fmt);                                        \
		mod##_vset_error(fmt, ap);                                \
		va_end(ap);                                               \
	}                                                                 \
	const char *mod##_last_error(void)                                \
	{                                                                 \
		return mod##_error_text;                                  \
	}

/**
 * lsb_grow() - make room in a growing array
 * @p: the address of the array's pointer (NULL-initialised)
 * @cap: its capacity in elements
 * @need: the number of elements it must hold
 * @size: the size of one element
 *
 * Doubles the capacity (at least 16) until @need fits, as git's
 * ALLOC_GROW; new elements are zeroed. On failure the array is unchanged.
 *
 * Return: 0, or -1 with errno set (ENOMEM, EOVERFLOW).
 */
int lsb_grow(void *p, size_t *cap, size_t need, size_t size);

/* lsb_grow() for an array @a of capacity @cap (size_t), to hold @need. */
#define LSB_GROW(a, need, cap) lsb_grow(&(a), &(cap), (need), sizeof(*(a)))

/**
 * lsb_blob_id() - the git blob id of some bytes
 * @buf: the bytes (may be NULL when @len is 0)
 * @len: their number
 * @out: receives 40 hex digits and a NUL
 *
 * The id git gives the bytes as a file's content (`git hash-object`): the
 * content checksum of caches and keys.
 *
 * Return: 0, or -1.
 */
int lsb_blob_id(const void *buf, size_t len, char out[41]);

/**
 * lsb_short_name() - a workload or topology as a plot's title names it
 * @buf: receives the name
 * @len: its size
 * @spec: a file's path, or a spec (a preset, a shape, a compact workload:
 *	these hold no '/')
 *
 * A file is named by its last part without ".json"
 * ("bugs/catalogue/workloads/x.json" gives "x"); a spec is itself.
 *
 * Return: @buf.
 */
const char *lsb_short_name(char *buf, size_t len, const char *spec);

/**
 * lsb_safe_name() - make a string safe as one file name
 * @s: the string, changed in place
 *
 * Every byte but ASCII letters, digits and "._+-=" becomes '_'.
 */
void lsb_safe_name(char *s);

/**
 * lsb_parse_long() - a whole string as a decimal integer in a range
 * @s: the text
 * @lo: the smallest value allowed
 * @hi: the largest
 * @out: receives the value
 *
 * Leading and trailing blanks, signs other than a leading '-' or '+',
 * other bases, an empty string and trailing text are refused.
 *
 * Return: 0, or -1 (@out untouched).
 */
int lsb_parse_long(const char *s, long lo, long hi, long *out);

/**
 * lsb_parse_double() - a whole string as a finite number in a range
 * @s: the text
 * @lo: the smallest value allowed
 * @hi: the largest
 * @out: receives the value
 *
 * NaN, infinities, an empty string and trailing text are refused.
 *
 * Return: 0, or -1 (@out untouched).
 */
int lsb_parse_double(const char *s, double lo, double hi, double *out);

/**
 * lsb_median() - the median of some numbers
 * @v: the numbers (no NaN), sorted in place
 * @k: their count
 *
 * Return: the middle one, the mean of the middle two for an even @k, NAN
 * when @k is 0.
 */
double lsb_median(double *v, size_t k);

/**
 * lsb_ranges_text() - ascending numbers as "3, 5-7, 9"
 * @out: receives the text, cut to @len bytes (always NUL-terminated)
 * @len: its size, at least 1
 * @v: the numbers, ascending
 * @n: their count ("" for none)
 */
void lsb_ranges_text(char *out, size_t len, const long *v, size_t n);

/**
 * lsb_now() - seconds on the monotonic clock
 */
double lsb_now(void);

/**
 * lsb_trace_line() - the fields of a line of a trace in ftrace's text
 *	format ("comm-pid [003] ..... 0.506000: sched_switch: ...", 6 or 9
 *	decimals: tracefs, trace-cmd report -t and the simulator)
 * @line: the line
 * @cpu: receives the CPU
 * @t_us: receives the time in microseconds
 * @event: receives where the event's name starts
 *
 * Return: 0; -1 for a comment or a line of another shape.
 */
int lsb_trace_line(const char *line, int *cpu, uint64_t *t_us,
		   const char **event);

/**
 * lsb_trace_switch() - the task a sched_switch event switches to
 * @event: from lsb_trace_line()
 * @comm: receives next_comm
 * @len: its size
 * @pid: receives next_pid (0: the CPU's idle task)
 *
 * Return: 0; -1 when @event is not a whole sched_switch.
 */
int lsb_trace_switch(const char *event, char *comm, size_t len, int *pid);

/**
 * lsb_trace_is_dat() - does @path start as trace-cmd's trace.dat does?
 * @path: a trace file
 *
 * Return: 1 or 0 (0 too when it cannot be read).
 */
int lsb_trace_is_dat(const char *path);

/**
 * lsb_trace_dat_text() - a trace.dat (trace_dat.c, through libtracecmd)
 *	as the ftrace text lsb_trace_line() and `linsched score` read: the
 *	events in time order, each printed by its own print fmt
 * @path: the trace.dat
 * @err: receives "trace 'PATH': ..." on failure
 * @len: its size
 *
 * Return: a temporary file at its start (fclose() removes it), or NULL.
 */
FILE *lsb_trace_dat_text(const char *path, char *err, size_t len);

/**
 * enum lsb_path_kind - what a command does with a path it is given
 * @LSB_OUT_FILE: writes it ('-': standard output)
 * @LSB_OUT_DIR: writes files in it, making it and its parents
 * @LSB_IN: reads it (a workload or topology file; a spec that is not a
 *	file is nothing an output could overwrite)
 */
enum lsb_path_kind { LSB_OUT_FILE, LSB_OUT_DIR, LSB_IN };

/**
 * struct lsb_path_arg - a path a command is given
 * @opt: the option that gave it ("--trace"), for the message
 * @path: the path; NULL when the option was not given
 * @kind: an enum lsb_path_kind
 */
struct lsb_path_arg {
	const char *opt;
	const char *path;
	enum lsb_path_kind kind;
};

#define LSB_MAX_PATH_ARGS 16

/**
 * lsb_check_paths() - whether a command's outputs can be written, checked
 *	before it builds or runs anything
 * @args: its outputs, and the inputs they must not overwrite
 * @n: their number (at most LSB_MAX_PATH_ARGS are read)
 * @err: receives what is wrong, naming the option and the path:
 *	"--trace '/tmp': a directory, expected a file"
 * @len: its size
 *
 * An output file has a name, is not a directory and its directory exists;
 * no two outputs are one file (the same inode, or the same name in the
 * same directory; devices and pipes excepted), nor is one the file an
 * input is read from, and only one writes to standard output. An output
 * directory has a name and nothing on its path is a file.
 *
 * Return: 0, or -1 with @err set.
 */
int lsb_check_paths(const struct lsb_path_arg *args, size_t n, char *err,
		    size_t len);

/**
 * lsb_cleanup_add() - remove a temporary if this process is stopped
 * @path: a file or directory the process is making (copied)
 *
 * When SIGINT, SIGTERM or SIGHUP stops the process (the first call
 * installs the handler; a signal the process ignores stays ignored), it
 * stops the child lsb_cleanup_child() named, removes its temporaries
 * (async-signal-safe, lsb_rm_rf_safe()) and dies of the signal as it
 * would have. A forked child does not remove its parent's.
 *
 * Return: a handle for lsb_cleanup_done(), or -1 when the table (16) is
 * full: the temporary is then left to lsb_remove_stale_tmp().
 */
int lsb_cleanup_add(const char *path);

/* The temporary @handle was renamed into place or removed: forget it. */
void lsb_cleanup_done(int handle);

/**
 * lsb_cleanup_child() - the child to stop before the temporaries go
 * @pid: a child writing into them (make, a simulator); 0 for none
 *
 * It gets SIGTERM (make passes it on to its jobs and waits for them),
 * and SIGKILL if it has not ended 5 s later.
 */
void lsb_cleanup_child(pid_t pid);

/**
 * lsb_rm_rf_safe() - lsb_rm_rf() with async-signal-safe calls only
 * @path: the tree
 *
 * Return: 0, or -1 when something is left.
 */
int lsb_rm_rf_safe(const char *path);

struct stat;

/**
 * lsb_tmp_is_stale() - whether a temporary "NAME.tmp.PID" is left over
 * @pid: the PID in its name
 * @st: its lstat()
 *
 * Return: 1 when no process @pid exists, when @pid is this process (an
 * earlier attempt of its own), or when process @pid started after the
 * temporary last changed (the PID was reused: it is not the maker); 0
 * while its maker may be writing it.
 */
int lsb_tmp_is_stale(pid_t pid, const struct stat *st);

/**
 * lsb_remove_stale_tmp() - remove the leftover temporaries of a path
 * @path: a path made by rename(2) of "PATH.tmp.PID"
 *
 * Removes each "PATH.tmp.PID" beside it that lsb_tmp_is_stale() says is
 * left over (the same host is assumed: a cache shared by machines that
 * make the same path at once is not).
 *
 * Return: how many were removed.
 */
int lsb_remove_stale_tmp(const char *path);

#endif
