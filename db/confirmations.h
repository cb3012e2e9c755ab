/* confirmations.h - what a confirmation run measured again (tables
 * confirmations and confirmation_curves, migration 12): which run it
 * confirmed, per distribution the new and the previous image, and the
 * curves it was asked for. */
#ifndef BENCHORCH_DB_CONFIRMATIONS_H
#define BENCHORCH_DB_CONFIRMATIONS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* A curve asked for: library and algorithm, operation and mode ("" =
 * every one). Strings owned by the caller. */
struct db_confirm_curve {
	const char *library, *algorithm, *operation, *mode;
};

/* One distribution of a confirmation run. Strings owned by the caller. */
struct db_confirmation {
	const char *distro, *release;
	const char *digest;		/* the new image's, "sha256:..." */
	const char *previous_digest;	/* the previous image's; NULL = a
					 * re-measure of the current image */
	const struct db_confirm_curve *curves;
	size_t ncurves;
};

/* Record that run RUN_ID measures again, for C->distro and C->release,
 * the curves C->curves of run CONFIRMED_RUN_ID (0 = none recorded), in
 * the image of digest C->digest and, unless NULL, the previous image of
 * C->previous_digest. Image ids are looked up by (distro, release,
 * digest) and left NULL while that image has no row yet; calling again
 * after the run is stored fills them and adds nothing else. One
 * transaction of its own. Returns 0, or -1 with err set. */
int db_confirmation_record(sqlite3 *db, int64_t run_id,
			   int64_t confirmed_run_id,
			   const struct db_confirmation *c, bo_err *err);

/* Mark that the previous image of DISTRO and RELEASE measured by
 * confirmation run RUN_ID was deleted from disk. Returns 0, or -1 with
 * err set. */
int db_confirmation_previous_removed(sqlite3 *db, int64_t run_id,
				     const char *distro, const char *release,
				     bo_err *err);

/* The latest confirmation run of RUN_ID that finished ('done'): its id
 * (> 0), 0 when none, or -1 on a database error. */
int64_t db_confirmed_by(sqlite3 *db, int64_t run_id);

#endif
