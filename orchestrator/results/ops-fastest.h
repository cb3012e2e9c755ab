/* ops-fastest.h - the fastest library of each public-key operation and
 * key derivation function, and the libraries the pairs of a run (the
 * libraries taking turns) do not tell apart from it: the mark the report
 * and the end of a run give, "openssl = libgcrypt". */
#ifndef BENCHORCH_OPS_FASTEST_H
#define BENCHORCH_OPS_FASTEST_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"
#include "orchestrator/results/ops-load.h"

/* Are A and B in one group, whose fastest is one library: the same run,
 * distribution, variant, algorithm and operation (key derivation: cost
 * parameters)? ops_rows_load gives a group's rows adjacent. */
int ops_same_group(const struct ops_row *a, const struct ops_row *b);

/* Mark the N rows V of KIND (ops_rows_load's, groups adjacent):
 * fastest = 1 on the row of each group (ops_same_group) with the highest
 * rate (> 0; the first in V's order of equal ones), tie = 1 on the rows
 * the pairs of their run (pairs_v, mode 'pubkey' at the row's operation,
 * or 'kdf' at 'derive' for any cost parameters of the algorithm; a build
 * named LIBRARY@BUILD) do not tell apart from it (fastest_pair_tied, the
 * rule of the ciphers and hashes). A database without such pairs (a
 * schema before 26, opened read-only) marks no tie. ops_rows_load calls
 * it. Returns 0, or -1 with err set ("database error: ...") on a
 * database error (fastest marks stay set, ties may be partial). */
int ops_mark_ties(sqlite3 *db, enum ops_kind kind, struct ops_row *v,
		  size_t n, bo_err *err);

/* The fastest of the group V[0 .. N-1] (rows of one group, marked by
 * ops_mark_ties) and those tied with it, by rate: "openssl", "openssl =
 * libgcrypt" (builds as LIBRARY@BUILD). Newly allocated (caller frees),
 * or NULL when the group has no fastest (no rate above 0). Sets *ret_tie
 * (when not NULL) to 1 when some library is tied, else 0. */
char *ops_fastest_names(const struct ops_row *v, size_t n, int *ret_tie);

/* Print to F, for run RUN_ID, one line per group of its KIND results
 * (ops_rows_load): "Fastest per operation:" (key derivation: "Fastest
 * per function and parameters:") under a blank line, then per group its
 * distribution (with " (nohw)" for another variant than hw), algorithm,
 * operation or parameters, ops_fastest_names and the fastest's rate
 * ("50.0k/s", three significant digits), in aligned columns; when a
 * library is tied, a legend line saying what "a = b" means. Prints
 * nothing when the run has no such results. Returns the number of
 * groups, or -1 with err set on a database error (nothing printed). */
long ops_fastest_print(FILE *f, sqlite3 *db, enum ops_kind kind,
		       int64_t run_id, bo_err *err);

#endif
