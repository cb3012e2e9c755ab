/* lib-faults.c - list the libraries that failed in a stored run. */
#include "config.h"

#include "db/db.h"
#include "orchestrator/results/lib-faults.h"

/* Loads that failed (schema 6), then the guest's error lines that say a
 * library's process died or that it wrote to stdout (guest/PROTOCOL.md,
 * "Crash isolation"), of the invocations that were stored (status ok);
 * an error line that repeats its library's failed load (a process that
 * ended before the library reported itself) is listed once, as the load. */
static const char faults_sql[] =
	"SELECT i.spec, i.round, l.name, l.message, i.id, 0 AS k"
	" FROM library_loads l JOIN invocations i ON i.id = l.invocation_id"
	" WHERE i.run_id = ?1 AND i.status = 'ok' AND l.status = 'failed'"
	" UNION ALL "
	"SELECT i.spec, i.round, e.library, e.message, i.id, 1 AS k"
	" FROM guest_errors e JOIN invocations i ON i.id = e.invocation_id"
	" WHERE i.run_id = ?1 AND i.status = 'ok' AND e.library <> ''"
	" AND (e.message LIKE 'library crashed%' OR e.message LIKE"
	" 'library hung%' OR e.message LIKE 'library process ended%'"
	" OR e.message LIKE 'library wrote to stdout%')"
	" AND NOT EXISTS (SELECT 1 FROM library_loads f"
	" WHERE f.invocation_id = e.invocation_id AND f.name = e.library"
	" AND f.status = 'failed' AND f.message = e.message)"
	" ORDER BY 5, 6";

static const char faults_sql_old[] =
	"SELECT i.spec, i.round, e.library, e.message, i.id, 1 AS k"
	" FROM guest_errors e JOIN invocations i ON i.id = e.invocation_id"
	" WHERE i.run_id = ?1 AND i.status = 'ok' AND e.library <> ''"
	" AND (e.message LIKE 'library crashed%' OR e.message LIKE"
	" 'library hung%' OR e.message LIKE 'library process ended%'"
	" OR e.message LIKE 'library wrote to stdout%')"
	" ORDER BY 5";

long lib_faults_print(FILE *out, sqlite3 *db, int64_t run_id,
		      const char *prefix)
{
	sqlite3_stmt *st;
	long n = 0;
	int rc = db_prepare_optional(db, faults_sql, &st);

	/* a schema before failed loads (6): the crashes and hangs alone */
	if (rc == 0 && sqlite3_prepare_v2(db, faults_sql_old, -1, &st, NULL) !=
	    SQLITE_OK)
		rc = -1;
	if (rc < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *spec = (const char *)sqlite3_column_text(st, 0);
		const char *lib = (const char *)sqlite3_column_text(st, 2);
		const char *what = (const char *)sqlite3_column_text(st, 3);

		fprintf(out, "%srun %lld: library '%s' failed in %s", prefix,
			(long long)run_id, lib ? lib : "?", spec ? spec : "?");
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			fprintf(out, " (round %d)", sqlite3_column_int(st, 1));
		fprintf(out, ": %s\n", what ? what : "no reason stored");
		n++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -1;
}
