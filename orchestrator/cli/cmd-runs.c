/* cmd-runs.c - `benchorch runs`: list the stored runs, newest first. */
#include "config.h"

#include <getopt.h>
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
"a --quick run), the distributions as given (distros), the host and\n"
"what the run measured (kind): libraries (the guest's benchmark of the\n"
"crypto libraries), tools (run --tools) or confirmation (the curves of\n"
"another run measured again: the run it confirmed is in confirms).\n"
"\n"
"Options:\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    where the default database lives\n"
"      --format FORMAT    table, csv or json (default: table)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 listed (possibly no run); 2 usage error; 3 the database\n"
"cannot be read.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_FORMAT };

static const struct option options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One row per run; distros in the order the run first invoked them;
 * kind and confirms from KIND_SQL when the database has the tables they
 * read (tool_results: migration 10, confirmations: 12), else a run of
 * the libraries. */
static const char runs_sql[] =
	"SELECT r.id, r.started_at, r.finished_at, r.status, r.quick,"
	" (SELECT group_concat(spec, ',') FROM"
	"  (SELECT spec FROM invocations i WHERE i.run_id = r.id"
	"   GROUP BY spec ORDER BY min(i.id))) AS distros,"
	" r.host, %s"
	" FROM runs r ORDER BY r.id DESC";
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

static int cmd_runs(int argc, char **argv)
{
	const char *db_opt = NULL, *state_opt = NULL;
	enum format fmt = FORMAT_TABLE;
	sqlite3_stmt *st = NULL;
	sqlite3 *db;
	char *path, *sql;
	bo_err err;
	int opt, rc = EXIT_OK, confirms, tools;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_DB:
			if (cli_path_arg("runs", "--db", optarg))
				return EXIT_USAGE;
			db_opt = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg("runs", "--state-dir", optarg))
				return EXIT_USAGE;
			state_opt = optarg;
			break;
		case OPT_FORMAT:
			if (format_parse(optarg, &fmt, &err) < 0)
				return cli_usage_error("runs", "%s", err.msg);
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error("runs", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("runs", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("runs", "unexpected argument '%s'",
				       argv[optind]);
	path = paths_db(db_opt, state_opt);
	if (db_open_readonly(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		free(path);
		return EXIT_ENV;
	}
	confirms = db_has(db, "confirmations");
	tools = confirms < 0 ? -1 : db_has(db, "tool_results");
	sql = xasprintf(runs_sql, confirms > 0 && tools > 0 ? kind_sql :
			kind_none_sql);
	if (tools < 0 ||
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		cli_error("cannot read the runs of '%s': %s", path,
			  sqlite3_errmsg(db));
		rc = EXIT_ENV;
	} else if (format_stmt(stdout, st, fmt, &err) < 0) {
		cli_error("cannot read the runs of '%s': %s", path, err.msg);
		rc = EXIT_ENV;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(sql);
	free(path);
	return rc;
}

const struct cmd_entry cmd_runs_entry = {
	.name = "runs",
	.summary = "list the stored runs: ids, times, status, distributions",
	.usage = usage,
	.flags = 0,
	.fn = cmd_runs,
};
