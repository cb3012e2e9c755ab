/* verdict-duet.h - a confirmation's duet read back as a verdict: the
 * previous image against the new one, side by side (duet_curves,
 * orchestrator/run/duet.h), in the shape verdict_apply_confirmation
 * takes. */
#ifndef BENCHORCH_VERDICT_DUET_H
#define BENCHORCH_VERDICT_DUET_H

#include <sqlite3.h>
#include <stdint.h>

#include "lib/util.h"
#include "orchestrator/results/verdict.h"

/* Fill *RET (zeroed first; free with verdict_result_free) with the curves
 * of duet DUET_ID in DB, each of distribution DISTRO ("debian:bookworm")
 * and any variant ("*"): a curve the duet judged slower or faster is
 * changed, with its effect, interval and p (q = p: the duet divided alpha
 * among each library's curves itself); same and undecided are unchanged.
 * A curve of a library under test in the duet (its package or build
 * differs) has paired 1, and its package (the new side's) and versions
 * (base_version, new_version) from duet_libraries, "" when unknown.
 * Returns 0, or -1 with err set on a database error. */
int verdict_from_duet(sqlite3 *db, int64_t duet_id, const char *distro,
		      struct verdict_result *ret, bo_err *err);

/* Let the duet's verdict D (verdict_from_duet) stand for R's curves of
 * distro DISTRO whose library was under test in the duet, whatever R's
 * own state: a curve D judged slower or faster becomes confirmed with
 * D's effect, interval, p and q (confirmation 1); one D judged same or
 * undecided becomes unchanged (confirmation 0 when R had it changed or
 * flagged). Either way the curve gets paired 1, and D's package and
 * versions when D knows them. Controls of the duet and curves it did
 * not measure are left alone. R's counts are derived again from the
 * states. Adds the curves decided to *RET_DECIDED, those confirmed
 * slower to *RET_SLOWER and faster to *RET_FASTER. */
void verdict_apply_duet(struct verdict_result *r, const char *distro,
			const struct verdict_result *d, size_t *ret_decided,
			size_t *ret_slower, size_t *ret_faster);

#endif /* BENCHORCH_VERDICT_DUET_H */
