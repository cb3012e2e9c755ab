/* cmd-report.c - `benchorch report`: one self-contained HTML file. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/db.h"
#include "lib/algorithms.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/db-names.h"
#include "lib/paths.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/report.h"

static const char usage[] =
"Usage: benchorch report [OPTIONS] -o FILE\n"
"\n"
"Write a self-contained HTML report (no script, no network) of one or\n"
"more runs (the latest by default): per algorithm and operation, an SVG\n"
"chart of throughput against buffer size (log scale, 16 B to 1 MiB) with\n"
"one line per library and distro; a distro x library table at one size;\n"
"each curve's start-up overhead and cost per byte, in cycles per byte at\n"
"the core clock the guest measured (runs stored before it measured one:\n"
"at the nominal clock the CPU model states, marked *); each invocation's\n"
"measured clocks and noisy points; the runs' CPU and package versions.\n"
"Runs of several machines (host and CPU): one line per library, distro\n"
"and machine, and tables with one column per machine (its latest run).\n"
"A FILE ending in .svg gets the first chart alone (see --algo); another\n"
"extension than .html, .htm or .svg is refused.\n"
"\n"
"Options:\n"
"  -o, --output FILE      where to write (.html or .svg; - = stdout)\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    where the default database lives\n"
"      --run ID           include run ID (repeat for several runs)\n"
"      --algo NAME        only algorithm NAME (aes-256-gcm, ...)\n"
"      --size SIZE        buffer size of the tables (default: 16KiB)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 written; 1 no results to report; 2 usage error, or a run\n"
"the database does not hold; 3 the database cannot be read or FILE cannot\n"
"be written.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_RUN, OPT_ALGO, OPT_SIZE };

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "algo", required_argument, NULL, OPT_ALGO },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

/* Whether OUT names a format the report can write: "-", a name ending in
 * .html, .htm or .svg (any case), or a name with no extension at all
 * (HTML). A name such as "r.txt" or "r.json" would get HTML under a name
 * that promises something else. */
static int known_extension(const char *out)
{
	const char *base = strrchr(out, '/'), *dot;

	base = base ? base + 1 : out;
	dot = strrchr(base, '.');
	if (!strcmp(out, "-") || !dot || dot == base)
		return 1;
	return !strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm") ||
	       !strcasecmp(dot, ".svg");
}

static int cmd_report(int argc, char **argv)
{
	const char *db_opt = NULL, *state_opt = NULL, *out = NULL;
	const char *size_arg = NULL;
	struct report_opts o = { 0 };
	int64_t *runs = NULL;
	int opt, rc = EXIT_OK, n;
	sqlite3 *db;
	char *path, *buf = NULL;
	size_t len = 0;
	FILE *mem;
	bo_err err;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":ho:", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!*optarg) {
				free(runs);
				return cli_usage_error("report", "-o needs a file name (or - for standard output)");
			}
			out = optarg;
			break;
		case OPT_DB:
			if (cli_path_arg("report", "--db", optarg))
				return EXIT_USAGE;
			db_opt = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg("report", "--state-dir", optarg))
				return EXIT_USAGE;
			state_opt = optarg;
			break;
		case OPT_RUN: {
			int64_t v;

			if (cli_parse_run_id(optarg, &v, &err) < 0) {
				free(runs);
				return cli_usage_error("report", "--run takes a run id: %s",
						       err.msg);
			}
			runs = xrealloc(runs, (o.nruns + 1) * sizeof(*runs));
			runs[o.nruns++] = v;
			break;
		}
		case OPT_ALGO:
			if (!algorithm_find(optarg)) {
				free(runs);
				return cli_usage_error("report", "--algo: unknown algorithm '%s'",
						       optarg);
			}
			o.algorithm = optarg;
			break;
		case OPT_SIZE:
			size_arg = optarg;
			if (parse_size(optarg, &o.table_bytes, &err) < 0) {
				free(runs);
				return cli_usage_error("report", "%s", err.msg);
			}
			break;
		case 'h':
			free(runs);
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			free(runs);
			return cli_usage_error("report", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			free(runs);
			return cli_usage_error("report", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	o.runs = runs;
	if (optind < argc) {
		free(runs);
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	}
	if (!out) {
		free(runs);
		return cli_usage_error("report", "needs -o FILE (.html or .svg)");
	}
	if (!known_extension(out)) {
		free(runs);
		return cli_usage_error("report", "cannot tell the format of '%s': "
				       "name it .html, .htm or .svg (or - for HTML on "
				       "standard output)", out);
	}
	path = paths_db(db_opt, state_opt);
	if (db_open_readonly(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		free(path);
		free(runs);
		return EXIT_ENV;
	}
	/* a run the database does not hold is an unknown name */
	rc = cli_check_runs("report", "--run", db, path, runs, o.nruns);
	if (rc != EXIT_OK) {
		sqlite3_close(db);
		free(path);
		free(runs);
		return rc;
	}
	/* a run that did not finish: its results are partial */
	for (size_t i = 0; i < o.nruns; i++)
		cli_warn_partial_run(db, runs[i]);
	if (!o.nruns)
		cli_warn_partial_run(db, report_latest_run(db));
	if (o.table_bytes) {
		int k = db_names_size_known(db, o.table_bytes);

		if (k <= 0) {
			char *sizes = k < 0 ? NULL : db_names_sizes(db);

			if (!sizes)
				k = -1;
			if (k < 0)
				cli_error("database error in '%s': %s", path,
					  sqlite3_errmsg(db));
			else
				cli_usage_error("report", "--size: no results at '%s' in '%s' (it has: %s)",
						size_arg, path, sizes);
			free(sizes);
			sqlite3_close(db);
			free(path);
			free(runs);
			return k < 0 ? EXIT_ENV : EXIT_USAGE;
		}
	}
	mem = open_memstream(&buf, &len);
	if (!mem) {
		cli_error("out of memory");
		sqlite3_close(db);
		free(path);
		free(runs);
		return EXIT_ENV;
	}
	if (ends_with(out, ".svg"))
		n = report_write_svg(db, &o, mem, &err);
	else
		n = report_write_html(db, &o, mem, &err);
	fclose(mem);
	if (n < 0) {
		/* -2: the database cannot be read; -1: nothing to report */
		cli_error("%s in '%s'", err.msg, path);
		rc = n == -2 ? EXIT_ENV : EXIT_FAILED;
	} else if (strcmp(out, "-") == 0) {
		fwrite(buf, 1, len, stdout);
	} else if (bo_write_file_atomic(out, buf, len, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	}
	free(buf);
	sqlite3_close(db);
	free(path);
	free(runs);
	return rc;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.summary = "write an HTML report with SVG charts (or one chart as SVG)",
	.usage = usage,
	.flags = 0,
	.fn = cmd_report,
};
