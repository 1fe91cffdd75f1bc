/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * common - small file-system and string helpers the host-side modules
 * share (the simulator runtime does not use them).
 */
#ifndef LSB_COMMON_H
#define LSB_COMMON_H

#include <stdarg.h>
#include <stddef.h>

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

#endif
