/* osrelease.h - read an image's os-release file (os-release(5)). */
#ifndef BENCHORCH_OSRELEASE_H
#define BENCHORCH_OSRELEASE_H

#include <stdio.h>

/* The fields of os-release(5) an image is described with. Each is a
 * malloc'ed string owned by the struct, or NULL when the file lacks it. */
struct os_release {
	char *id;		/* ID, e.g. "debian", "alpine" */
	char *version_id;	/* VERSION_ID, e.g. "12", "3.20.3" */
	char *version_codename;	/* VERSION_CODENAME, e.g. "bookworm" */
};

/* Parse os-release(5) lines from F into *ret: KEY=value, the value bare or
 * in double quotes (escapes \" \\ \$ \`) or single quotes; comments and
 * blank lines skipped; a malformed line or an empty value is ignored (the
 * field stays NULL). Returns 0, or -1 when out of memory. Free with
 * os_release_release. */
int os_release_parse(FILE *f, struct os_release *ret);

/* Read ROOTFS/etc/os-release, else ROOTFS/usr/lib/os-release, resolving
 * symlinks inside ROOTFS only (rootfs_open), into *ret. Returns 0, or -1
 * with errno set (ENOENT when neither exists). */
int os_release_read(const char *rootfs, struct os_release *ret);

/* 1 when S is usable as an image release: 1 to 64 characters of
 * [a-z0-9._-] (the characters of NAME[:RELEASE] specs), else 0. */
int os_release_token_ok(const char *s);

/* Free the strings of *o and zero it. */
void os_release_release(struct os_release *o);

#endif
