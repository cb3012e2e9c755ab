/* request-check.h - the one check of what a run is asked to measure,
 * shared by `benchorch run`, the schedules of benchorch.conf(5) and
 * `benchorch submit` (checked by the daemon), so all three accept and
 * refuse the same lists with the same messages. */
#ifndef BENCHORCH_REQUEST_CHECK_H
#define BENCHORCH_REQUEST_CHECK_H

#include <stddef.h>

#include "lib/util.h"

/* Check the comma-separated distribution list LIST (NAME[:RELEASE] specs)
 * as given to WHAT (an option or directive name for the messages, e.g.
 * "--distros"): no empty item, no spec named twice, each spec well formed
 * and either a distro with a recipe under DATA_DIR/images or an image
 * imported under STATE_DIR/images. Returns 0, and when RET_SPECS is not
 * NULL a new array of *RET_N new strings (the caller frees each and the
 * array); or -1 with err set ("empty name in WHAT 'LIST'", "'SPEC' is
 * named twice in WHAT", "WHAT names no distribution", or the image
 * layer's "unknown distro 'x' (known: ...)"), *RET_SPECS untouched. */
int request_check_distros(const char *list, const char *what,
			  const char *data_dir, const char *state_dir,
			  char ***ret_specs, size_t *ret_n, bo_err *err);

/* Check the comma-separated guest library list LIST given to WHAT: every
 * item one of the guest's libraries (algorithms.h), none empty. Returns
 * 0, or -1 with err set ("WHAT: unknown name 'x' (known: a, b, ...)",
 * "WHAT: empty item in 'LIST'"). */
int request_check_libs(const char *list, const char *what, bo_err *err);

/* The same for the algorithm list LIST given to WHAT (the guest
 * protocol's algorithm names, algorithms.h). */
int request_check_algos(const char *list, const char *what, bo_err *err);

/* The same for `run --algos`, which takes the public-key algorithms
 * (lib/pubkey-table.h: x25519, x448, ed25519, ecdh-p256, ecdsa-p256,
 * rsa-2048, rsa-3072, rsa-pss-2048, ml-kem-768, ml-dsa-65) and the
 * key derivation functions (lib/kdf-table.h) besides the protocol's. */
int request_check_run_algos(const char *list, const char *what, bo_err *err);

/* Check a selection of libraries and algorithms against what each
 * library can measure (lib/library-support.h), after each list passed
 * its own check above. LIBS and ALGOS are the comma-separated lists as
 * given to --libs and --algos, or NULL for every library or algorithm.
 * Refused: an algorithm of ALGOS that no library of the selection
 * measures (it would be asked for and measure nothing; a library of LIBS
 * with none of ALGOS beside others that have them is not refused: the
 * guest says it is unsupported). Returns 0, or -1 with err set to one
 * line ("--algos: no library of --libs 'openssl' measures 'salsa20'
 * (libgcrypt, nettle, ... do)"). */
int request_check_selection(const char *libs, const char *algos,
			    bo_err *err);

/* Check the comma-separated build list LIST given to WHAT ("--builds"):
 * "shipped" (the distributions' own libraries, always measured) and
 * names of builds under STATE_DIR/builds (images/builds.h), none empty
 * or named twice, at most RUNNER_MAX_BINDS builds. Each build name must
 * be that of a build of one of the run's images (the images of the N
 * SPECS, checked before by request_check_distros, named with DATA_DIR's
 * recipes), of a library of LIBS (the --libs list, NULL = every one),
 * and short enough for the guest ("LIBRARY@NAME" at most 64 bytes).
 * Returns 0, or -1 with err set to one line ("WHAT: unknown build 'x'",
 * "WHAT: build 'x' is of image 'y', not one of the run's distributions",
 * ...). */
int request_check_builds(const char *list, const char *what,
			 const char *state_dir, const char *data_dir,
			 char *const *specs, size_t n, const char *libs,
			 bo_err *err);

/* Check the package mirror URL given to WHAT: SCHEME://REST with a scheme
 * of letters, digits, '+', '-' or '.' (RFC 3986, section 3.1: http,
 * https, file, copy, mirror+file, ... as apt and debootstrap take them)
 * and something after it. Returns 0, or -1 with err set ("WHAT: 'x' is
 * not a URL (e.g. http://deb.debian.org/debian)"). */
int request_check_mirror(const char *url, const char *what, bo_err *err);

#endif
