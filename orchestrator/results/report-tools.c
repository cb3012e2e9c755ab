/* report-tools.c - the report's section on command-line tools. */
#include "config.h"

#include "db/db.h"
#include "db/latest.h"
#include "orchestrator/results/report-tools.h"
#include "orchestrator/results/svg.h"

long report_write_tools(FILE *f, sqlite3 *db, bo_err *err)
{
	static const char sql[] =
		"SELECT e.run_id, e.spec, e.tool, e.cipher, e.variant,"
		" e.package_version, printf('%.1f', e.mb_per_s),"
		" printf('%.1f', d.mb_per_s), printf('%.1f', e.cpu_ns / 1e6),"
		" printf('%.1f', d.cpu_ns / 1e6),"
		" printf('%.1f', max(e.max_rss_kib, d.max_rss_kib) / 1024.0)"
		" FROM tool_results_v e JOIN tool_results_v d"
		" ON d.invocation_id = e.invocation_id AND d.tool = e.tool"
		" AND d.cipher = e.cipher AND d.variant = e.variant"
		" AND d.direction = 'decrypt'"
		" WHERE e.direction = 'encrypt' AND e.status = 'measured'"
		" AND d.status = 'measured'"
		" AND e.run_id = (SELECT run_id FROM latest_runs_v"
		"  WHERE kind = 'tools' AND nth = 1)"
		" ORDER BY e.spec, e.tool, e.cipher, e.variant";
	sqlite3_stmt *st;
	long n = 0;
	int k, rc;

	/* the latest finished tool run (latest_runs_v) */
	if (db_latest_view(db) < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	rc = db_prepare_optional(db, sql, &st);

	if (rc == 0)
		return 0;	/* a database without the tool tables */
	if (rc < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n++ == 0)
			fprintf(f, "<section id=\"tools\"><h2>Command-line tools"
				" (run %lld)</h2>\n<p>The distributions' own tools"
				" (benchorch run --tools) encrypting and decrypting"
				" one file in memory: MB/s of wall time, CPU time"
				" (user + system) per run of the tool and its peak"
				" resident set, trimmed means of the repetitions;"
				" nohw without hardware acceleration. Only"
				" verified round trips are shown.</p>\n<table><tr>"
				"<th>distro</th><th>tool</th><th>cipher</th>"
				"<th>variant</th><th>package version</th>"
				"<th>encrypt MB/s</th><th>decrypt MB/s</th>"
				"<th>encrypt CPU ms</th><th>decrypt CPU ms</th>"
				"<th>peak RSS MiB</th></tr>\n",
				(long long)sqlite3_column_int64(st, 0));
		fputs("<tr>", f);
		for (k = 1; k < sqlite3_column_count(st); k++) {
			const unsigned char *s = sqlite3_column_text(st, k);

			fputs("<td>", f);
			svg_escape(f, s ? (const char *)s : "");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (n)
		fputs("</table>\n</section>\n", f);
	return n;
}
