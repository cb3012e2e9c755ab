/* cmd-results.c - `benchorch results`: print stored measurements. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/cli.h"
#include "orchestrator/format.h"
#include "orchestrator/paths.h"

static const char usage[] =
"Usage: benchorch results [OPTIONS]\n"
"\n"
"Print the measurements of one run (the latest by default), one row per\n"
"library, algorithm, operation and buffer size. Throughput in MB/s\n"
"(10^6 bytes per second), median time per batch in ns.\n"
"\n"
"Options:\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    where the default database lives\n"
"      --run ID           show run ID instead of the latest\n"
"      --all              show every run\n"
"      --format FORMAT    table, csv or json (default: table)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 rows printed; 1 no matching results; 2 usage error;\n"
"3 the database cannot be read.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_RUN, OPT_ALL, OPT_FORMAT };

static const struct option options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char results_sql[] =
	"SELECT run_id, distro, release, library, library_version,"
	" package_version, algorithm, operation, buffer_bytes,"
	" round(mb_per_s, 2) AS mb_per_s, median_ns, verified"
	" FROM results_v"
	" WHERE (?1 = 1 OR run_id = coalesce(?2,"
	"   (SELECT max(run_id) FROM results_v)))"
	" ORDER BY run_id, distro, release, library, algorithm,"
	"  operation DESC, buffer_bytes";

static int cmd_results(int argc, char **argv)
{
	const char *db_opt = NULL, *state_opt = NULL;
	enum format fmt = FORMAT_TABLE;
	long long run = -1;
	int all = 0, opt, rc = EXIT_OK;
	sqlite3 *db;
	sqlite3_stmt *st;
	char *path;
	bo_err err;
	long n;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_DB:
			db_opt = optarg;
			break;
		case OPT_STATE:
			state_opt = optarg;
			break;
		case OPT_RUN: {
			char *end;

			run = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end || run <= 0)
				return cli_usage_error("results", "--run takes a run id, not '%s'",
						       optarg);
			break;
		}
		case OPT_ALL:
			all = 1;
			break;
		case OPT_FORMAT:
			if (format_parse(optarg, &fmt, &err) < 0)
				return cli_usage_error("results", "%s", err.msg);
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error("results", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("results", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("results", "unexpected argument '%s'",
				       argv[optind]);
	path = paths_db(db_opt, state_opt);
	if (db_open_readonly(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		free(path);
		return EXIT_ENV;
	}
	if (sqlite3_prepare_v2(db, results_sql, -1, &st, NULL) != SQLITE_OK) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		free(path);
		return EXIT_ENV;
	}
	sqlite3_bind_int(st, 1, all);
	if (run > 0)
		sqlite3_bind_int64(st, 2, run);
	n = format_stmt(stdout, st, fmt, &err);
	if (n < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	} else if (n == 0) {
		if (run > 0)
			cli_error("no results for run %lld in '%s'", run, path);
		else
			cli_error("no results in '%s'", path);
		rc = EXIT_FAILED;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
	return rc;
}

const struct cmd_entry cmd_results_entry = {
	.name = "results",
	.summary = "print stored measurements (table, csv, json)",
	.usage = usage,
	.flags = 0,
	.fn = cmd_results,
};
