/* merge.h - move results between machines: copy runs from one benchorch
 * database into another without duplicating them, or export a database. */
#ifndef BENCHORCH_MERGE_H
#define BENCHORCH_MERGE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* What merge_from did. */
struct merge_stats {
	long runs_added;	/* copied into the destination */
	long runs_present;	/* skipped: a run with that uuid is there */
	long runs_running;	/* skipped: still 'running' in the source */
	long results_added;
};

/* Copy runs from the benchorch database at SRC_PATH into DST (opened with
 * db_open, so at this program's schema) in one transaction: RUNS (NRUNS
 * source run ids; NULL/0 = every run) except those whose uuid DST already
 * has (so merging twice adds nothing) and those still 'running'. With each
 * run come its invocations and everything hanging off them (results, KATs,
 * library loads, key setups, cross-checks, errors, ...: every table with
 * an invocation_id column, found in the schema), the images and their
 * package lists, libraries and CPUs, which are shared with DST's rows when
 * equal (same natural key) and added otherwise; row ids are renumbered,
 * and the raw samples of results and key setups (samples,
 * keysetup_samples) follow their renumbered rows, and so do the
 * confirmations a run made (confirmations, confirmation_curves; the
 * confirmed run found by uuid, NULL when DST has not got it).
 * Columns are those both schemas have, so a source at an older schema
 * version merges (the destination's defaults fill the rest). SRC_PATH is
 * only read (see merge_from_ids). Returns 0 with *stats filled, or -1 with err set (not a
 * benchorch database, newer schema, a requested run id missing, database
 * error such as a full disk, named with both files; nothing is changed:
 * the transaction is rolled back). */
int merge_from(sqlite3 *dst, const char *src_path, const int64_t *runs,
	       size_t nruns, struct merge_stats *stats, bo_err *err);

/* merge_from, and besides: when IDS is not NULL, DST's ids of every run
 * of SRC_PATH that is not 'running' (those merged now and those DST
 * already had) are appended to *IDS (realloc'd; the caller frees it),
 * *NIDS counting them; on failure *IDS may have grown. SRC_PATH is
 * opened once, attached to DST's connection in SQLite's defensive mode
 * and with trusted_schema off for as long as it is attached (DST's
 * settings are restored after): a view or trigger of the foreign file
 * cannot call functions with side effects. */
int merge_from_ids(sqlite3 *dst, const char *src_path, const int64_t *runs,
		   size_t nruns, struct merge_stats *stats, int64_t **ids,
		   size_t *nids, bo_err *err);

/* Copy the whole database SRC_PATH to the new file OUT_PATH with SQLite's
 * online backup API (a consistent snapshot even while SRC is written).
 * OUT_PATH must not exist; it is left as one file, in rollback journal
 * mode, with no -wal or -shm beside it (db_close_single_file). A copy
 * that fails db_quick_check (SRC_PATH is damaged) is removed again.
 * Returns 0, or -1 with err set (and no OUT_PATH, -wal or -shm left
 * behind). */
int export_all(const char *src_path, const char *out_path, bo_err *err);

#endif
