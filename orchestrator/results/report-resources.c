/* report-resources.c - the report's resource table (see
 * report-resources.h). */
#include "config.h"

#include "db/db.h"
#include "orchestrator/results/report-resources.h"
#include "orchestrator/results/svg.h"

/* Per run, distribution, variant and library, over the run's invocations
 * (rounds); ?1 is the run. The algorithm that raised a process's peak
 * most, over all of them. */
static const char rows_sql[] =
	"SELECT coalesce(v.distro || ':' || v.release, v.spec), v.variant,"
	" v.library, coalesce(max(v.library_version), ''), count(*),"
	" printf('%.3f', sum(v.user_us + v.sys_us) / 1e6),"
	" printf('%.1f', max(v.maxrss_kib) / 1024.0),"
	" coalesce(printf('%.1f', max(v.footprint_kib) / 1024.0), ''),"
	" coalesce((SELECT ar.algorithm || ' +' || ar.raise_kib || ' KiB'"
	"  FROM algorithm_resources ar JOIN invocations i"
	"  ON i.id = ar.invocation_id WHERE i.run_id = v.run_id"
	"  AND i.spec = v.spec AND i.variant = v.variant"
	"  AND ar.library = v.library AND ar.raise_kib > 0"
	"  ORDER BY ar.raise_kib DESC, ar.algorithm LIMIT 1), '')"
	" FROM resources_v v WHERE v.run_id = ?1 AND v.status = 'loaded'"
	" GROUP BY v.spec, v.variant, v.library"
	" ORDER BY 1, v.variant, v.library";

long report_write_resources(FILE *f, sqlite3 *db, const int64_t *runs,
			    size_t nruns, bo_err *err)
{
	sqlite3_stmt *st;
	long n = 0;
	int rc = SQLITE_DONE;

	switch (db_has(db, "resources_v")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	/* resources_v is there: a query that does not compile is a
	 * database error, not an empty section */
	if (sqlite3_prepare_v2(db, rows_sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	for (size_t i = 0; i < nruns && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, runs[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (n++ == 0)
				fputs("<section id=\"resources\"><h2>Resources</h2>\n"
				      "<table class=\"resources\"><caption>Per library:"
				      " the CPU time (user + system) of its processes,"
				      " summed over the run's invocations; the largest"
				      " peak resident set of one of them (it includes"
				      " the guest's own 4 MiB of buffers); the resident"
				      " set right after loading; and the algorithm that"
				      " raised the peak most</caption>\n<tr><th>run</th>"
				      "<th>distro</th><th>variant</th><th>library</th>"
				      "<th>version</th><th>invocations</th><th>CPU (s)</th>"
				      "<th>peak (MiB)</th><th>footprint (MiB)</th>"
				      "<th>raised most by</th></tr>\n", f);
			fprintf(f, "<tr><td>%lld</td>", (long long)runs[i]);
			for (int k = 0; k < 9; k++) {
				const unsigned char *s = sqlite3_column_text(st, k);

				fputs(k >= 4 && k <= 7 ? "<td class=\"num\">" :
				      "<td>", f);
				svg_escape(f, s ? (const char *)s : "");
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (n > 0)
		fputs("</table>\n</section>\n", f);
	return n;
}
