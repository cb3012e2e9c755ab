/* cmd-slurm-collect.c - `benchorch slurm collect`, the merge job of a
 * submission: merge every task's database, name the missing ones, report. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "images/digest.h"
#include "lib/messages.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/merge.h"
#include "lib/paths.h"
#include "orchestrator/results/report.h"
#include "orchestrator/cli/slurm-cli.h"
#include "orchestrator/cli/slurm-job.h"
#include "orchestrator/run/slurm.h"

/* Whether task T's database is the one it wrote: its digest now is the
 * one T recorded in its TASK.exit. Returns 1, or 0 with why in WHY
 * (LEN bytes). */
static int task_db_genuine(const struct slurm_task *t, char *why, size_t len)
{
	char hex[DIGEST_STR_LEN];
	bo_err err;

	if (!t->digest) {
		snprintf(why, len, "its database is not merged: the task recorded no digest of it");
		return 0;
	}
	if (slurm_db_digest(t->db, hex, sizeof(hex), &err) < 0) {
		snprintf(why, len, "its database cannot be read: %s", err.msg);
		return 0;
	}
	if (strcmp(hex, t->digest) != 0) {
		snprintf(why, len, "its database is not merged: it is not the one the task wrote (its SHA-256 differs from the one recorded)");
		return 0;
	}
	return 1;
}

/* Print one line of collect's output: "task ID on node NODE: ", then
 * TAIL, with its control characters escaped (msg_put_escaped): NODE
 * comes from the spool, and so do the database paths in TAIL. */
static void task_line(const struct slurm_task *t, const char *tail)
{
	char *line = xasprintf("task %s on node %s: %s", t->id,
			       t->node ? t->node : "(none)", tail);

	msg_put_escaped(stdout, line, strlen(line));
	putchar('\n');
	free(line);
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
	int rc = slurm_job_parse("collect", argc, argv, &a, 1);
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
		char why[1200], *msg;
		int ok = t[i].db && task_db_genuine(&t[i], why, sizeof(why));

		if (ok && merge_from_ids(db, t[i].db, NULL, 0, &st, &ids, &nids,
					 &err) == 0) {
			msg = xasprintf("merged %ld run%s (%ld results) from '%s'",
					st.runs_added, st.runs_added == 1 ? "" : "s",
					st.results_added, t[i].db);
			task_line(&t[i], msg);
			free(msg);
			continue;
		}
		missing++;
		if (ok) {
			snprintf(why, sizeof(why), "its database cannot be merged");
			cli_error("%s", err.msg);
		}
		msg = xasprintf("missing: %s; log '%s':", t[i].db ? why :
				slurm_task_why(&t[i], why, sizeof(why)), t[i].log);
		task_line(&t[i], msg);
		free(msg);
		msg = slurm_log_tail(t[i].log, 10, "  | ");
		fputs(msg, stdout);
		free(msg);
	}
	printf("%ld of %ld task%s merged into '%s'", n - missing, n,
	       n == 1 ? "" : "s", path);
	if (missing)
		printf("; %ld missing", missing);
	putchar('\n');
	report = a.report ? xstrdup(a.report) :
			    xasprintf("%s/%s.report.html", spool, a.job);
	rc = missing ? EXIT_FAILED : EXIT_OK;
	if (nids && write_report(db, ids, nids, report) == 0)
		printf("report '%s'\n", report);
	else if (nids)
		rc = EXIT_ENV;	/* said why */
	else
		cli_warn("no run to report");
	sqlite3_close(db);
	slurm_tasks_free(t, n);
	free(ids);
	free(report);
	free(spool);
	free(path);
	return rc;
}
