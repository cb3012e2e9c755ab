/* output.h - store what one guest invocation reported, as judged before
 * (lib/judge.h): images and their packages, libraries, known-answer
 * tests, results and key setups with their samples, curve fits, resource
 * figures, cross-checks and canaries. Not for callers outside db/: they
 * store invocations with db_run_store_invocation or db_run_finish. */
#ifndef BENCHORCH_DB_OUTPUT_H
#define BENCHORCH_DB_OUTPUT_H

#include <sqlite3.h>
#include <stdint.h>

#include "db/db.h"
#include "lib/guest_output.h"
#include "lib/judge.h"
#include "lib/util.h"

/* The id of image IMG's row in *RET, inserting it and its packages when
 * the database has no image of its distro, release and digest. Call in
 * the caller's transaction. Returns 0, or -1 with err set. */
int db_image_id(sqlite3 *db, const struct db_image *img, int64_t *ret,
		bo_err *err);

/* Store OUT, the output of invocation INV_ID, with JUDGED, its judgement
 * (guest_output_judge(OUT)): one row per library load, KAT, unsupported
 * algorithm, guest error, result, key setup (verified as JUDGED says),
 * sample, curve fit (JUDGED's), resource figure (the algorithms' peaks
 * JUDGED's), cross-check, canary and pair, and one row of pubkey_results
 * per `pkresult` (verified as the guest judged it; its known answers,
 * `pkcheck` libraries and samples with it), and one row of kdf_results
 * per `kdfresult` (likewise, with its cost and `kdfcheck` libraries).
 * IMG (NULL = none) gives each loaded library its package and package
 * version (img->libpkgs). Call in the caller's transaction. Returns 0, or -1 with err
 * set (a point of a library that was not loaded, or a database error). */
int db_store_output(sqlite3 *db, int64_t inv_id,
		    const struct guest_output *out,
		    const struct guest_judgement *judged,
		    const struct db_image *img, bo_err *err);

#endif
