/* cmd-runs.c - `benchorch runs`: list the stored runs, newest first. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "lib/format.h"
#include "lib/paths.h"
#include "lib/util.h"

static const char usage[] =
"Usage: benchorch runs [OPTIONS]\n"
"\n"
"List the runs stored in the database, newest first: run id (what\n"
"results --run, compare, report --run and export --run take), start and\n"
"end time (UTC), status (running, done, failed or aborted), quick (1 for\n"
"a --quick run), the distributions as given (distros; a confirmation's\n"
"as the run it confirms was given them), the host and\n"
"what the run measured (kind): libraries (the guest's benchmark of the\n"
"crypto libraries), tools (run --tools) or confirmation (the curves of\n"
"another run measured again: the run it confirmed is in confirms).\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 listed (possibly no run); 2 usage error; 3 the database\n"
"cannot be read.\n";

struct runs_opts {
	struct cli_paths paths;	/* first: cli_parse reads it */
	enum format fmt;
};

static const struct opt_def options[] = {
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct runs_opts, fmt), .parse = cli_parse_format,
	  .help = "table, csv or json (default: table)" },
	{ .kind = OPT_END },
};

/* One row per run; distros in the order the run first invoked them,
 * each spelled by SPEC_SQL; kind and confirms from KIND_SQL when the
 * database has the tables they read (tool_results: migration 10,
 * confirmations: 12), else a run of the libraries. */
static const char runs_sql[] =
	"SELECT r.id, r.started_at, r.finished_at, r.status, r.quick,"
	" (SELECT group_concat(spec, ',') FROM"
	"  (SELECT %s AS spec FROM invocations i"
	"   LEFT JOIN images im ON im.id = i.image_id WHERE i.run_id = r.id"
	"   GROUP BY 1 ORDER BY min(i.id))) AS distros,"
	" r.host, %s"
	" FROM runs r ORDER BY r.id DESC";
/* A distribution as its run was given it; a confirmation run invokes
 * images by their names ("debian-bookworm", and the previous image
 * beside it), so its distributions are spelled as the run it confirms
 * was given them ("debian"): one spelling for one distribution. */
static const char spec_confirmed_sql[] =
	"coalesce((SELECT i2.spec FROM confirmations c"
	"  JOIN invocations i2 ON i2.run_id = c.confirmed_run_id"
	"  JOIN images im2 ON im2.id = i2.image_id"
	"  WHERE c.run_id = r.id AND im2.distro = im.distro"
	"  AND im2.release = im.release ORDER BY i2.id LIMIT 1), i.spec)";
static const char kind_sql[] =
	"CASE WHEN EXISTS (SELECT 1 FROM confirmations c"
	"  WHERE c.run_id = r.id) THEN 'confirmation'"
	" WHEN EXISTS (SELECT 1 FROM invocations i JOIN tool_results t"
	"  ON t.invocation_id = i.id WHERE i.run_id = r.id) THEN 'tools'"
	" ELSE 'libraries' END AS kind,"
	" (SELECT min(c.confirmed_run_id) FROM confirmations c"
	"  WHERE c.run_id = r.id) AS confirms";
static const char kind_none_sql[] =
	"'libraries' AS kind, NULL AS confirms";

static int cmd_runs(const struct cmd_ctx *ctx, void *opts, int argc,
		    char **argv)
{
	const struct runs_opts *o = opts;
	const char *path = ctx->db_path;
	sqlite3_stmt *st = NULL;
	sqlite3 *db;
	char *sql;
	bo_err err;
	int rc, confirms, tools;

	(void)argc;
	(void)argv;
	rc = cli_db_open(ctx->db_path, 0, &db);
	if (rc != 0)
		return rc;
	confirms = db_has(db, "confirmations");
	tools = confirms < 0 ? -1 : db_has(db, "tool_results");
	sql = xasprintf(runs_sql, confirms > 0 ? spec_confirmed_sql : "i.spec",
			confirms > 0 && tools > 0 ? kind_sql : kind_none_sql);
	if (tools < 0 ||
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		cli_error("cannot read the runs of '%s': %s", path,
			  sqlite3_errmsg(db));
		rc = EXIT_ENV;
	} else if (format_stmt(stdout, st, o->fmt, &err) < 0) {
		cli_error("cannot read the runs of '%s': %s", path, err.msg);
		rc = EXIT_ENV;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(sql);
	return rc;
}

const struct cmd_entry cmd_runs_entry = {
	.name = "runs",
	.summary = "list the stored runs: ids, times, status, distributions",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct runs_opts),
	.max_args = 0,
	.run = cmd_runs,
};
