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
 * Returns 0, or -1 with err set on a database error. */
int verdict_from_duet(sqlite3 *db, int64_t duet_id, const char *distro,
		      struct verdict_result *ret, bo_err *err);

#endif /* BENCHORCH_VERDICT_DUET_H */
