/*
 * file: whole-file reads and writes of small kernel files (/proc, /sys/fs/cgroup).
 *
 * These files are read and written in one system call each, which is what the kernel's
 * interfaces expect (a cgroup limit written in two pieces is two writes).
 */
#ifndef VERDICT_FILE_H
#define VERDICT_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* Reads up to cap-1 bytes of path into buf and NUL-terminates it. Returns the number of bytes
 * read, or a negative errno (-ENOENT, -EACCES, ...). Content beyond cap-1 is silently cut:
 * callers size buf for the file they expect. */
ssize_t file_read(const char *path, char *buf, size_t cap);

/* Writes the string s to path in a single write(2) (no O_CREAT, no O_TRUNC: kernel files).
 * Returns 0 or a negative errno (the kernel's answer to the write, e.g. -EINVAL). */
int file_write(const char *path, const char *s);

#endif
