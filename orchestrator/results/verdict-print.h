/* verdict-print.h - what compare prints about per-curve verdicts. */
#ifndef BENCHORCH_VERDICT_PRINT_H
#define BENCHORCH_VERDICT_PRINT_H

#include <jansson.h>
#include <stdio.h>

#include "lib/format.h"
#include "orchestrator/results/verdict.h"

/* Print R to F.
 * FORMAT_TABLE: the summary (curves compared, changed with effect and
 * interval, flagged, caveats, packages changed, per library the minimum
 * detectable effect), then a table of the changed and flagged curves
 * (every curve with ALL).
 * FORMAT_CSV: one row per curve with every field.
 * FORMAT_JSON: one object with the counts, caveats, package_changes,
 * min_detectable_effect (library -> fraction) and curves (every field of
 * every curve); EXTRA's members (e.g. "points"), when EXTRA is not NULL,
 * are added to it (EXTRA is borrowed). */
void verdict_print(FILE *f, const struct verdict_result *r, enum format fmt,
		   int all, json_t *extra);

/* The one-paragraph summary of R (the table format's first lines) to F. */
void verdict_print_summary(FILE *f, const struct verdict_result *r);

#endif
