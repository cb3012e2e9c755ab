/* tarball.h - obtain a distribution's root filesystem tarball (a local
 * file or a download) and verify it against its published checksums. */
#ifndef BENCHORCH_TARBALL_H
#define BENCHORCH_TARBALL_H

#include "images/image.h"
#include "images/recipe.h"

/* Checksum file formats. */
enum sums_format {
	SUMS_SHA256SUM,		/* "<64 hex>  NAME" lines (Alpine .sha256) */
	SUMS_GENTOO_DIGESTS,	/* Gentoo DIGESTS: "# SHA512 HASH" sections
				 * of "<128 hex>  NAME" lines, possibly
				 * PGP clear-signed */
};

/* Parse "sha256sum" or "gentoo-digests". Returns 0, or -1 with err set. */
int sums_format_parse(const char *s, enum sums_format *ret, bo_err *err);

/* Open the tarball (or checksum file) PATH once, for every check and use
 * that follows: O_RDONLY | O_NOFOLLOW | O_CLOEXEC, and it must be a
 * regular file (a symlink as the last component, a FIFO or a device is
 * refused). *ret_fd gets the descriptor (caller closes), -1 on error.
 * Returns 0, or -1 with err set ("cannot read 'PATH': ..."). */
int tarball_open(const char *path, int *ret_fd, bo_err *err);

/* Verify the tarball open at FD (from tarball_open(); FILE names it)
 * against the checksum file SUMS (format FMT): the entry for FILE's base
 * name (NAME when not NULL) must exist and match the digest of FD's
 * contents. With KEYRING (a gpgv keyring file; NULL = no signature check)
 * the signature must verify too: SUMS itself when it is clear-signed, else
 * SIG (a detached signature of SUMS for Gentoo, of the tarball for
 * sha256sum; NULL = SUMS.asc or FILE.asc). gpgv reads the signed data from
 * the same descriptors that are digested and parsed (FD, and SUMS opened
 * once), never from their paths again. FD is left at its start. Fails
 * closed: a mismatch, a missing entry, an unreadable keyring or a missing
 * or bad signature is an error. LOGDIR: where gpgv's output goes
 * (LOGDIR/gpgv.log). *ret_how (newly allocated) describes what was
 * checked, e.g. "sha512 (DIGESTS), gpg". Returns 0, or -1 with err set. */
int tarball_verify(int fd, const char *file, const char *name,
		   const char *sums, enum sums_format fmt, const char *keyring,
		   const char *sig, const char *logdir, char **ret_how,
		   bo_err *err);

/* What tarball_obtain() found. Strings newly allocated. */
struct tarball_result {
	char *file;		/* local path of the verified tarball */
	int fd;			/* open on it (tarball_open()) while file is
				 * set: the descriptor that was verified,
				 * to be unpacked; tarball_result_free()
				 * closes it */
	int downloaded;		/* file lives in the work dir */
	char *source;		/* URL or the --from path */
	char *verification;	/* see tarball_verify(); "none (--no-verify)" */
};

/* Get the tarball for release REL of recipe R into WORKDIR and verify it.
 * ctx->from: use that local file, with ctx->digests (or the recipe's
 * checksum file name next to it) as checksums; else expand the recipe's
 * URL templates (release keys override recipe keys: "url", "latest",
 * "checksums", "checksum_format", "signature", "version"; placeholders
 * {mirror} {release} {version} {latest} {url}) and download with curl
 * (http, https and file URLs). ctx->no_verify skips verification;
 * ctx->keyring adds a signature check. Returns 0, or -1 with err set. */
int tarball_obtain(const struct image_ctx *ctx, const struct recipe *r,
		   const struct recipe_release *rel, const char *mirror,
		   const char *workdir, struct tarball_result *res,
		   bo_err *err);

/* Close res->fd (when res->file is set) and free the strings; res is left
 * empty (fd -1). */
void tarball_result_free(struct tarball_result *res);

/* `images import`: the local tarball FILE, unverified, as RES: file,
 * fd (tarball_open()), source (its absolute path) and verification "none
 * (imported local file)". Returns 0, or -1 with err set and RES empty. */
int tarball_import_local(const char *file, struct tarball_result *res,
			 bo_err *err);

#endif
