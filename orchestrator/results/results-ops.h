/* results-ops.h - the stored results counted in operations per second
 * (public key, pubkey_v; key derivation, kdf_v): the query `benchorch
 * results --pubkey` and `--kdf` print, and the line `run` ends with. The
 * shared part of results-pubkey.c and results-kdf.c. */
#ifndef BENCHORCH_RESULTS_OPS_H
#define BENCHORCH_RESULTS_OPS_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/format.h"
#include "lib/util.h"

/* Which rows to print. */
struct ops_filter {
	int all;		/* every run */
	const int64_t *runs;	/* these runs (nruns > 0), else the latest
				 * finished run with such results */
	size_t nruns;
	const char *distro;	/* NAME or NAME:RELEASE, NULL = any */
	const char *lib;	/* library name, NULL = any */
	const char *algo;	/* algorithm name, NULL = any */
};

/* One kind of results: VIEW its view (pubkey_v, kdf_v); FROM what the
 * query reads (VIEW, or a subquery of it); TABLE_COLS and MACHINE_COLS
 * the "SELECT ..." of the table and of csv and json; GROUP_ORDER the
 * GROUP BY and ORDER BY after the filters. */
struct ops_query {
	const char *view, *from;
	const char *table_cols, *machine_cols, *group_order;
};

/* The FROM of a table of results counted in operations: the rows of
 * INNER (a view, or a subquery) with a column more, tied: the libraries
 * (LIBRARY@BUILD for a build) each row's library was not told apart
 * from at its point in some invocation of its run, as "= a,b" -
 * a pairs_v row of mode MODE ('pubkey' or 'kdf'), operation OP_EXPR (an
 * SQL expression over INNER's row x), whose interval holds 1, with the
 * library on either side - or NULL. INNER needs run_id, distro,
 * release, variant, library, build and algorithm. Caller frees. */
char *results_ops_tied_from(const char *inner, const char *mode,
			    const char *op_expr);

/* Print to OUT in FMT the rows of Q that F selects (format_stmt). An
 * empty table prints nothing (csv its header, json []). Returns the
 * number of rows (0 also when DB has no Q->view, a schema before it),
 * or -1 with err set on a database error. */
long results_ops_print(FILE *out, sqlite3 *db, const struct ops_query *q,
		       const struct ops_filter *f, enum format fmt,
		       bo_err *err);

/* One line to OUT about run RUN_ID's rows of VIEW, "benchorch: run N:
 * WHAT: R results (ALGORITHMS) of L libraries, V verified; `benchorch
 * results OPTION --run N` shows them", with a newline, or nothing when
 * it has none. Returns the number of results (0: nothing printed), or
 * -1 with err set on a database error. */
long results_ops_line(FILE *out, sqlite3 *db, int64_t run_id,
		      const char *view, const char *what, const char *option,
		      bo_err *err);

#endif
