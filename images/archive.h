/* archive.h - unpack root filesystem tarballs safely (libarchive), and the
 * package databases found inside root filesystems. */
#ifndef BENCHORCH_ARCHIVE_H
#define BENCHORCH_ARCHIVE_H

#include <stddef.h>
#include <stdio.h>
#include "images/image.h"

/* Limits on what one archive may unpack to: a decompression bomb is
 * refused before it fills the disk. */
struct archive_limits {
	unsigned long long max_bytes;	/* total size of the entries, bytes */
	size_t max_entries;		/* number of entries */
};

/* Defaults: 16 GiB and 2 million entries (a Gentoo stage3 is about
 * 1.5 GiB and 40000 entries unpacked). */
#define ARCHIVE_MAX_BYTES_DEFAULT (16ull << 30)
#define ARCHIVE_MAX_ENTRIES_DEFAULT 2000000ull

/* The limits in force: BENCHORCH_UNPACK_MAX_BYTES and
 * BENCHORCH_UNPACK_MAX_ENTRIES (whole numbers above 0; unset or empty =
 * the defaults above) into *lim. Returns 0, or -1 with err set on a
 * malformed value. */
int archive_limits_get(struct archive_limits *lim, bo_err *err);

/* Unpack the tar archive open for reading at FD (a regular file; read from
 * its start, not closed; FILE names it in messages) into the existing,
 * empty directory DEST. Only the tar family is read (ustar, pax, GNU and
 * older tar), uncompressed or through gzip, bzip2, xz, lzma, zstd or lz4
 * when libarchive has them built in; anything else is refused as "not a
 * tar archive".
 *
 * Refused, failing the whole archive: entries with an absolute path or a
 * ".." component, hard links whose target is absolute or contains "..",
 * any write through a symlink (libarchive's ARCHIVE_EXTRACT_SECURE_*),
 * character and block devices, FIFOs and sockets (a root filesystem for
 * the guest needs none: it runs with a fresh /dev), more bytes (the sum of
 * the entries' sizes, sparse ones at their full size) or more entries than
 * archive_limits_get() allows, an archive with no entries, and a damaged
 * or unreadable archive. Symlink targets are kept verbatim (absolute ones
 * included: they are only ever resolved inside the rootfs). Owners are
 * kept numerically (no lookup of names on the host); permissions and
 * times are restored; of the extended attributes only security.capability
 * (file capabilities); no ACLs and no file flags (immutable, append-only).
 * bo_interrupted is checked between entries.
 *
 * On failure DEST may hold part of the archive: the caller removes it.
 * *ret_entries (may be NULL) gets the number of entries written. Returns 0,
 * or -1 with err set to one line naming FILE (and the entry). */
int archive_unpack_fd(int fd, const char *file, const char *dest,
		      size_t *ret_entries, bo_err *err);

/* Check that ROOTFS has the shape of a root filesystem: a directory etc/
 * and a bin/ or usr/ (directory or symlink). SHOWN names the source in the
 * message. Returns 0, or -1 with err set ("... is not a root filesystem"). */
int rootfs_check_shape(const char *rootfs, const char *shown, bo_err *err);

/* Open RELPATH (relative) inside ROOTFS for reading, resolving every
 * symlink as if ROOTFS were "/" (openat2 RESOLVE_IN_ROOT), so an absolute
 * or climbing symlink in the image never reaches the host. On kernels
 * without openat2, no symlink is followed at all. FLAGS: extra open flags
 * (O_DIRECTORY). Returns a new fd (caller closes), or -1 with errno set. */
int rootfs_open(const char *rootfs, const char *relpath, int flags);

/* 1 when this kernel (and whatever runs the program: valgrind has no
 * openat2) serves openat2 with RESOLVE_IN_ROOT, as rootfs_open() uses it;
 * 0 when rootfs_open() takes its no-symlink path. */
int rootfs_openat2_available(void);

/* Test hook: nonzero makes rootfs_open() take its path for kernels
 * without openat2 even where openat2 exists (tests/t2120). 0 by default. */
extern int rootfs_open_force_fallback;

/* Which package database an image has. */
enum pkgdb_kind { PKGDB_NONE = 0, PKGDB_DPKG, PKGDB_APK, PKGDB_PORTAGE };

/* "dpkg", "apk", "portage" or "none". */
const char *pkgdb_kind_name(enum pkgdb_kind k);

/* Parse a dpkg status file from the open stream F (SHOWN names it in
 * errors); same result as dpkg_status_read(). Does not close F. */
int dpkg_status_read_stream(FILE *f, const char *shown,
			    struct image_package **ret, size_t *ret_n,
			    bo_err *err);

/* Parse an apk database (/lib/apk/db/installed): stanzas of "X:value"
 * lines separated by blank lines; P: is the package, V: its version.
 * Returns the packages sorted by name (free with image_packages_free), 0;
 * or -1 with err set. Does not close F. */
int apk_installed_read_stream(FILE *f, const char *shown,
			      struct image_package **ret, size_t *ret_n,
			      bo_err *err);

/* Read Gentoo's installed-package database: the directory open at DIRFD
 * (ROOTFS/var/db/pkg; not closed) holds CATEGORY/PF/ directories, PF being
 * NAME-VERSION (e.g. dev-libs/openssl-3.0.13-r1). Packages are returned as
 * "CATEGORY/NAME" -> "VERSION" ("dev-libs/openssl" -> "3.0.13-r1"), sorted
 * by name. Entries that are not valid PF names are skipped. Returns 0, or
 * -1 with err set. */
int portage_vdb_read_fd(int dirfd, const char *shown,
			struct image_package **ret, size_t *ret_n,
			bo_err *err);

/* Split a Gentoo PF ("openssl-3.0.13-r1") into name and version at the
 * first '-' followed by a valid version (digits[.digits]*[a-z]?
 * (_suffix[digits])*(-rN)?). Returns the offset of that '-' or 0 when PF
 * has no valid version. */
size_t portage_split_pf(const char *pf);

/* Read the installed packages of the root filesystem ROOTFS from whichever
 * database it has (dpkg, then apk, then portage), every path resolved
 * inside ROOTFS. *ret_kind gets the kind (PKGDB_NONE with an empty list
 * when there is none). Returns 0, or -1 with err set. */
int image_read_packages(const char *rootfs, struct image_package **ret,
			size_t *ret_n, enum pkgdb_kind *ret_kind,
			bo_err *err);

#endif
