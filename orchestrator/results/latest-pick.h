/* latest-pick.h - the run a command shows when none is named, said on
 * stderr when it is not the newest run. */
#ifndef BENCHORCH_LATEST_PICK_H
#define BENCHORCH_LATEST_PICK_H

#include <sqlite3.h>
#include <stdint.h>

#include "db/latest.h"

/* The latest finished run of KIND in DB (db_latest_run). When newer runs
 * were skipped, say so on stderr, one line: "benchorch: run 7 was
 * aborted, run 8 is a tool run; showing run 6, the latest finished
 * library run", or "...; no finished library run to show" when there is
 * none. stdout is untouched. Returns the run id (> 0), 0 when DB has no
 * such run, or -1 on a database error (the message is
 * sqlite3_errmsg(DB); nothing printed). */
int64_t latest_pick(sqlite3 *db, enum db_run_kind kind);

#endif
