/* package-changes.h - the package versions that changed between the image
 * a run used and the image the previous run of that distribution used
 * (table package_changes, migration 3). */
#ifndef BENCHORCH_DB_PACKAGE_CHANGES_H
#define BENCHORCH_DB_PACKAGE_CHANGES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* One package whose version differs between two images of one
 * distribution and release. */
struct pkg_change {
	char *spec;		/* "debian:bookworm" (distro:release) */
	char *package;
	char *old_version;	/* NULL: new package */
	char *new_version;	/* NULL: removed */
	int64_t previous_run;	/* id of the run compared with; 0 when that
				 * run is not in this database (merged
				 * without it) */
};

/* Record, for every invocation of run RUN_ID that has an image, each
 * package whose version differs from the image of the latest earlier run
 * (smaller run id, any status, not a confirmation run: migration 12) of
 * the same distribution and release:
 * nothing when there is none or it is the same image, and nothing for a
 * confirmation run (recorded in confirmations before it is stored). Runs no
 * transaction of its own: db_run_finish calls it inside the run's. Rows
 * already recorded for the run are kept (a second call adds nothing).
 * Returns the number of rows added, or -1 with err set. */
long db_package_changes_record(sqlite3 *db, int64_t run_id, bo_err *err);

/* Read the changes recorded for run RUN_ID, ordered by spec and package.
 * Returns 0 and a new array in *ret, its length in *ret_n (free with
 * pkg_changes_free; NULL and 0 when there are none, also for an unknown
 * run), or -1 with err set. */
int db_package_changes(sqlite3 *db, int64_t run_id, struct pkg_change **ret,
		       size_t *ret_n, bo_err *err);

/* Free the N changes at C and the array; C may be NULL. */
void pkg_changes_free(struct pkg_change *c, size_t n);

#endif
