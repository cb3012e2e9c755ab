/* daemon-verdict.h - the verdict the daemon keeps after each run (the
 * run against the previous one), and the last one for `benchorch
 * status`. */
#ifndef BENCHORCH_DAEMON_VERDICT_H
#define BENCHORCH_DAEMON_VERDICT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* Judge run RUN_ID of the database DB_PATH against the previous run
 * (db_base_run with DB_BASE_SAME_CPU: the newest finished library run
 * started before it, no confirmation, made alike - --quick, variant,
 * --interleave - on the same CPU) with verdict_compare at the default
 * threshold and alpha, and store the verdict (source "daemon"). SUMMARY
 * (LEN bytes) gets one line for the log ("run 7 against run 6: 118
 * curves, 2 changed (1 confirmed regression), 0 flagged"). Returns 1
 * stored, 0 no previous run to compare with (nothing stored, SUMMARY
 * says so), or -1 with err set. */
int daemon_verdict_after_run(const char *db_path, int64_t run_id,
			     char *summary, size_t len, bo_err *err);

/* Add to the status object O "last_verdict": the newest verdict the
 * daemon stored in DB_PATH, an object with base_run, new_run,
 * created_at, curves, changed, confirmed_regressions, flagged, caveats
 * (a string, one per line) and changed_curves (up to
 * DAEMON_VERDICT_SHOWN objects: distro, library, algorithm, operation,
 * mode, effect, ci_low, ci_high, state, package, base_version,
 * new_version; the largest effects first); null when there is none or
 * the database cannot be read ("database_error" of O then says why). */
#define DAEMON_VERDICT_SHOWN 5
void daemon_last_verdict_json(const char *db_path, json_t *o);

#endif
