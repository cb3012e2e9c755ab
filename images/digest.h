/* digest.h - content digests of directory trees and files (SHA-256 through
 * the host's libcrypto). */
#ifndef BENCHORCH_DIGEST_H
#define BENCHORCH_DIGEST_H

#include <stddef.h>
#include "lib/util.h"

/* Length of "sha256:" + 64 hex digits + NUL. */
#define DIGEST_STR_LEN 72

/* Digest the tree under ROOT (a directory) into buf (>= DIGEST_STR_LEN
 * bytes) as "sha256:<64 lowercase hex>".
 *
 * The walk is canonical: entries are visited depth-first with the names in
 * each directory sorted bytewise, and for each entry the hash covers its
 * path relative to ROOT, its type, permission bits (mode & 07777), numeric
 * owner and group, and: for a regular file its size and contents; for a
 * symlink its target (never followed); for a device its major/minor
 * numbers. Timestamps, inode numbers, hard-link structure and extended
 * attributes are not covered. The result depends only on content, so two
 * copies of a tree digest the same.
 *
 * The bytes hashed (format "benchorch-tree-v1"): that string, then per
 * entry, the root first as ".", "\n<type> <mode as %04o> <uid> <gid> "
 * and the relative path as "<length>:<bytes>"; then for a regular file
 * " <size> " and its contents, for a symlink " " and "<length>:<target>",
 * for a device " <major>,<minor>". Types: f d l c b p s. tests/t2030
 * pins one tree's digest worked out by hand from this.
 *
 * Polls bo_interrupted between files. Returns 0, or -1 with err set
 * (unreadable entry, interrupted). */
int digest_tree(const char *root, char *buf, size_t len, bo_err *err);

/* SHA-256 of the contents of the file PATH as 64 lowercase hex digits
 * (no prefix) into buf (>= 65 bytes). Returns 0, or -1 with err set. */
int digest_file_sha256(const char *path, char *buf, size_t len, bo_err *err);

/* Hash algorithms for digest_file_hex(). */
enum digest_alg { DIGEST_SHA256, DIGEST_SHA512 };

/* Hash the contents of the file PATH with ALG into buf as lowercase hex
 * (64 digits for SHA-256, 128 for SHA-512; no prefix). len: size of buf in
 * bytes, at least digits + 1. Polls bo_interrupted between reads. Returns
 * 0, or -1 with err set. */
int digest_file_hex(const char *path, enum digest_alg alg, char *buf,
		    size_t len, bo_err *err);

/* The same for the file open for reading at FD (seekable; SHOWN names it
 * in messages): hashed from its start to its end, then rewound to its
 * start so that the caller reads the very bytes that were hashed. FD is
 * not closed. Returns 0, or -1 with err set. */
int digest_fd_hex(int fd, const char *shown, enum digest_alg alg, char *buf,
		  size_t len, bo_err *err);

#endif
