/* cmd-slurm-collect.c - `benchorch slurm collect`, the merge job of a
 * submission: merge every task's database, name the missing ones, report. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/merge.h"
#include "lib/paths.h"
#include "orchestrator/results/report.h"
#include "orchestrator/cli/slurm-cli.h"
#include "orchestrator/cli/slurm-job.h"
#include "orchestrator/run/slurm.h"

/* Add to *IDS the central run ids of the finished runs of the task database
 * PATH, found by uuid in DB (at DB_PATH). Returns 0, or -1 after saying
 * on stderr which database could not be read. */
static int runs_of(sqlite3 *db, const char *db_path, const char *path,
		   int64_t **ids, size_t *n)
{
	sqlite3 *src;
	sqlite3_stmt *q = NULL, *get = NULL;
	int rc, k = SQLITE_DONE;

	if (cli_db_open(path, 0, &src) != 0)
		return -1;
	if (sqlite3_prepare_v2(src, "SELECT uuid FROM runs WHERE status <> 'running'",
			       -1, &q, NULL) != SQLITE_OK) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(src));
		sqlite3_close(src);
		return -1;
	}
	if (sqlite3_prepare_v2(db, "SELECT id FROM runs WHERE uuid = ?", -1,
			       &get, NULL) != SQLITE_OK) {
		cli_error("database error in '%s': %s", db_path, sqlite3_errmsg(db));
		sqlite3_finalize(q);
		sqlite3_close(src);
		return -1;
	}
	while (k == SQLITE_DONE && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		sqlite3_reset(get);
		sqlite3_bind_text(get, 1, (const char *)sqlite3_column_text(q, 0),
				  -1, SQLITE_TRANSIENT);
		k = sqlite3_step(get);
		if (k == SQLITE_ROW) {
			*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
			(*ids)[(*n)++] = sqlite3_column_int64(get, 0);
			k = SQLITE_DONE;
		}
	}
	if (k != SQLITE_DONE)
		cli_error("database error in '%s': %s", db_path, sqlite3_errmsg(db));
	else if (rc != SQLITE_DONE)
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(src));
	sqlite3_finalize(q);
	sqlite3_finalize(get);
	sqlite3_close(src);
	return k == SQLITE_DONE && rc == SQLITE_DONE ? 0 : -1;
}

/* Write the report of runs IDS (N) in DB to PATH. Returns 0 or -1 after
 * saying why on stderr. */
static int write_report(sqlite3 *db, const int64_t *ids, size_t n,
			const char *path)
{
	struct report_opts o = { .runs = ids, .nruns = n };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	bo_err err;
	int rc;

	if (!mem) {
		cli_error("out of memory");
		return -1;
	}
	rc = report_write_html(db, &o, mem, &err);
	fclose(mem);
	if (rc < 0)
		cli_error("no report: %s", err.msg);
	else if (bo_write_file_atomic(path, buf, len, &err) < 0) {
		cli_error("%s", err.msg);
		rc = -1;
	}
	free(buf);
	return rc < 0 ? -1 : 0;
}

int slurm_collect_cmd(int argc, char **argv)
{
	struct slurm_job_args a = { 0 };
	struct slurm_task *t;
	struct merge_stats st;
	int64_t *ids = NULL;
	size_t nids = 0;
	char *spool, *path, *report;
	long n, i, missing = 0;
	int rc = slurm_job_parse("collect", argc, argv, &a, 1), unread = 0;
	sqlite3 *db;
	bo_err err;

	if (rc >= 0)
		return rc;
	n = slurm_job_tasks(&a, &spool, &t);
	if (n < 0)
		return EXIT_ENV;
	path = paths_db(a.db, a.state);
	if (cli_db_open(path, 1, &db) != 0) {
		slurm_tasks_free(t, n);
		free(spool);
		free(path);
		return EXIT_ENV;
	}
	rc = EXIT_OK;
	for (i = 0; i < n; i++) {
		char why[128];

		if (t[i].db && merge_from(db, t[i].db, NULL, 0, &st, &err) == 0) {
			printf("task %s on node %s: merged %ld run%s (%ld results) from '%s'\n",
			       t[i].id, t[i].node, st.runs_added,
			       st.runs_added == 1 ? "" : "s", st.results_added, t[i].db);
			/* a task whose runs cannot be listed: no report,
			 * which would leave them out */
			if (runs_of(db, path, t[i].db, &ids, &nids) < 0)
				unread = 1;
			continue;
		}
		missing++;
		if (t[i].db) {
			snprintf(why, sizeof(why), "its database cannot be merged");
			cli_error("%s", err.msg);
		}
		printf("task %s on node %s: missing: %s; log '%s':\n", t[i].id,
		       t[i].node ? t[i].node : "(none)",
		       t[i].db ? why : slurm_task_why(&t[i], why, sizeof(why)),
		       t[i].log);
		{
			char *tail = slurm_log_tail(t[i].log, 10, "  | ");

			fputs(tail, stdout);
			free(tail);
		}
	}
	printf("%ld of %ld task%s merged into '%s'", n - missing, n,
	       n == 1 ? "" : "s", path);
	if (missing)
		printf("; %ld missing", missing);
	putchar('\n');
	report = a.report ? xstrdup(a.report) :
			    xasprintf("%s/%s.report.html", spool, a.job);
	rc = unread ? EXIT_ENV : missing ? EXIT_FAILED : EXIT_OK;
	if (!unread && nids && write_report(db, ids, nids, report) == 0)
		printf("report '%s'\n", report);
	else if (!unread && nids)
		rc = EXIT_ENV;	/* said why */
	else if (!unread)
		cli_warn("no run to report");
	sqlite3_close(db);
	slurm_tasks_free(t, n);
	free(ids);
	free(report);
	free(spool);
	free(path);
	return rc;
}
