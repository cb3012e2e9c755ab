/* report-ops.h - the report's sections of public-key and key derivation
 * results: per run and distribution a heat map of algorithm and
 * operation by library, in operations per second. */
#ifndef BENCHORCH_REPORT_OPS_H
#define BENCHORCH_REPORT_OPS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"
#include "orchestrator/results/ops-load.h"

/* Write to F a <section id="pubkey"> (KIND OPS_PUBKEY, "Public key") or
 * <section id="kdf"> (OPS_KDF, "Key derivation") for the NRUNS runs in
 * RUNS (ops_rows_load): per run, distribution and variant a
 * <table class="heatmap ops" data-kind="pubkey|kdf" data-run data-distro
 * data-variant>, one row per algorithm and operation (key derivation:
 * algorithm and cost parameters), one column per library (a build of it
 * as LIBRARY@BUILD), in name order. A cell holds the operations (or
 * derivations) per second with three significant digits (fmt_ops), its
 * data-ops the exact rate and data-ratio its fraction of the fastest
 * library of the row, coloured as the overview's heat maps
 * (hsl(report_overview_hue(ratio), 70%, 72%)); an unverified result has
 * the class "unverified", a "!" after its number and, where it is known
 * (key derivation, ops_row.why), why at the end of its title; a library
 * without that algorithm and operation a <td class="none">-</td>. A last
 * column, "fastest", names the row's fastest library and those the run's
 * pairs do not tell apart from it (ops_fastest_names: "openssl =
 * libgcrypt", <td class="fastest tie">; "-" when none); a tied library's
 * cell has the class "tie" and an "=" after its number. Writes nothing
 * when the runs have no such results or the schema predates them.
 * Returns the number of results (cells) written, or -1 with err set on
 * a database error. */
long report_write_ops(FILE *f, sqlite3 *db, enum ops_kind kind,
		      const int64_t *runs, size_t nruns, bo_err *err);

#endif
