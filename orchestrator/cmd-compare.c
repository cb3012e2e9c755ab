/* cmd-compare.c - `benchorch compare`: what changed between two runs. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/cli.h"
#include "orchestrator/compare-machines.h"
#include "orchestrator/compare.h"
#include "orchestrator/format.h"
#include "orchestrator/paths.h"
#include "orchestrator/report-fmt.h"

static const char usage[] =
"Usage: benchorch compare [OPTIONS] BASE NEW\n"
"       benchorch compare [OPTIONS] --latest 2\n"
"       benchorch compare --machines [--size SIZE] [--format F] [RUN...]\n"
"\n"
"Compare run NEW against run BASE (run ids) point by point: for each\n"
"distro, library, algorithm, operation and buffer size measured in both,\n"
"the change in median throughput (MB/s) and whether it is significant.\n"
"\n"
"Significance: a change is significant when it exceeds the threshold AND,\n"
"where both runs stored at least 5 raw samples (one per timed batch) of\n"
"the point, a two-sided Mann-Whitney rank test on them gives p < 0.05.\n"
"Points without them (runs stored before samples were kept, --quick runs\n"
"of 3 repetitions) are judged by their median and best (minimum-time)\n"
"batch instead: the [median, best] throughput ranges of the two runs must\n"
"not overlap (a slowdown counts only if even the new best is below the\n"
"old median). json gives each point's method and p-value.\n"
"\n"
"Each regression and improvement is annotated with the version change of\n"
"the library's package, and every image package that changed between the\n"
"two runs is listed per distro. The header names each run's variants (hw,\n"
"nohw for a run with --nohw) and says so when the runs share none. BASE\n"
"and NEW must be different runs.\n"
"\n"
"--machines puts several machines side by side instead (runs merged from\n"
"many hosts, e.g. by 'benchorch slurm'): one column per machine (host and\n"
"CPU) with the MB/s it measured at --size, one row per distro, library,\n"
"algorithm and operation. The machines are those of the RUNs given (a\n"
"machine with several: its latest), or the latest run of every machine.\n"
"\n"
"Options:\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    where the default database lives\n"
"      --latest 2         compare the two most recent runs\n"
"      --threshold PCT    ignore changes of at most PCT % (default: 3)\n"
"      --all              list every point, not only significant ones\n"
"      --format FORMAT    table, csv or json (default: table)\n"
"      --fail-on-regression  exit 4 when a regression is found\n"
"      --machines         one column per machine (see above)\n"
"      --size SIZE        buffer size of --machines (default: 16KiB)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 compared; 2 usage error; 3 the database cannot be read or\n"
"a run does not exist; 4 a regression was found and --fail-on-regression\n"
"was given.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_LATEST, OPT_THRESHOLD, OPT_ALL,
       OPT_FORMAT, OPT_FAIL, OPT_MACHINES, OPT_SIZE };

static const struct option options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "latest", required_argument, NULL, OPT_LATEST },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fail-on-regression", no_argument, NULL, OPT_FAIL },
	{ "machines", no_argument, NULL, OPT_MACHINES },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The largest --threshold, in %: far beyond any change worth reporting;
 * a bound only so that a typo is caught. */
#define THRESHOLD_MAX_PCT 10000.0

/* Parse --threshold PCT ("5", "2.5", "5%": a number from 0 to
 * THRESHOLD_MAX_PCT, one '%' allowed after it) into a fraction (0.05) in
 * *ret. Returns 0, or -1 with err set ("'x' is not a percentage ..."). */
static int parse_threshold(const char *s, double *ret, bo_err *err)
{
	size_t len = strlen(s);
	char *num = xstrdup(s);
	double pct;
	int rc;

	if (len && num[len - 1] == '%')
		num[len - 1] = '\0';
	rc = cli_parse_double(num, 0, THRESHOLD_MAX_PCT, &pct, err);
	free(num);
	if (rc < 0)
		return bo_err_set(err, "'%s' is not a percentage from 0 to %g",
				  s, THRESHOLD_MAX_PCT);
	*ret = pct / 100.0;
	return 0;
}

/* compare --machines on DB_OPT/STATE_OPT's database: run ids in
 * ARGV[0..ARGC). */
static int compare_machines_cmd(const char *db_opt, const char *state_opt,
				enum format fmt, int64_t bytes, int argc,
				char **argv)
{
	struct machines_cmp c;
	int64_t *runs = xcalloc((size_t)argc + 1, sizeof(*runs));
	sqlite3 *db;
	char *path;
	bo_err err;
	int i, rc = EXIT_OK;

	for (i = 0; i < argc; i++)
		if (cli_parse_run_id(argv[i], &runs[i], &err) < 0) {
			free(runs);
			return cli_usage_error("compare", "invalid run id: %s", err.msg);
		}
	path = paths_db(db_opt, state_opt);
	if (db_open_readonly(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	} else {
		if (compare_machines(db, runs, (size_t)argc, bytes, &c, &err) < 0) {
			cli_error("%s in '%s'", err.msg, path);
			rc = EXIT_ENV;
		} else {
			compare_machines_print(stdout, &c, fmt);
			if (c.nm < 2)
				cli_warn("the runs are of one machine only");
			compare_machines_free(&c);
		}
		sqlite3_close(db);
	}
	free(path);
	free(runs);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	int machines = 0;
	int64_t bytes = 16384;
	const char *db_opt = NULL, *state_opt = NULL;
	enum format fmt = FORMAT_TABLE;
	double threshold = COMPARE_DEFAULT_THRESHOLD;
	int latest = 0, all = 0, fail = 0, opt, rc = EXIT_OK;
	int64_t base = 0, new = 0;
	struct compare_result r;
	sqlite3 *db;
	char *path;
	bo_err err;

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
		case OPT_LATEST:
			if (strcmp(optarg, "2") != 0)
				return cli_usage_error("compare", "--latest takes 2, not '%s'",
						       optarg);
			latest = 1;
			break;
		case OPT_THRESHOLD:
			if (parse_threshold(optarg, &threshold, &err) < 0)
				return cli_usage_error("compare", "--threshold: %s",
						       err.msg);
			break;
		case OPT_ALL:
			all = 1;
			break;
		case OPT_FORMAT:
			if (format_parse(optarg, &fmt, &err) < 0)
				return cli_usage_error("compare", "%s", err.msg);
			break;
		case OPT_FAIL:
			fail = 1;
			break;
		case OPT_MACHINES:
			machines = 1;
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &bytes, &err) < 0)
				return cli_usage_error("compare", "%s", err.msg);
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error("compare", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("compare", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (machines && (latest || all || fail || threshold != COMPARE_DEFAULT_THRESHOLD))
		return cli_usage_error("compare", "--machines takes no --latest, --all, --threshold or --fail-on-regression");
	if (machines)
		return compare_machines_cmd(db_opt, state_opt, fmt, bytes,
					    argc - optind, argv + optind);
	if (bytes != 16384)
		return cli_usage_error("compare", "--size goes with --machines");
	if (latest && optind < argc)
		return cli_usage_error("compare", "give two run ids or --latest 2, not both");
	if (!latest) {
		if (argc - optind != 2)
			return cli_usage_error("compare", "needs two run ids, BASE and NEW (or --latest 2)");
		if (cli_parse_run_id(argv[optind], &base, &err) < 0 ||
		    cli_parse_run_id(argv[optind + 1], &new, &err) < 0)
			return cli_usage_error("compare", "invalid run id: %s", err.msg);
		if (base == new)
			return cli_usage_error("compare", "BASE and NEW are the same run (%lld)",
					       (long long)base);
	}
	path = paths_db(db_opt, state_opt);
	if (db_open_readonly(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		free(path);
		return EXIT_ENV;
	}
	if ((latest && compare_latest_two(db, &base, &new, &err) < 0) ||
	    compare_runs(db, base, new, threshold, &r, &err) < 0) {
		cli_error("%s", err.msg);
		sqlite3_close(db);
		free(path);
		return EXIT_ENV;
	}
	compare_print(stdout, &r, fmt, all);
	if (r.npoints == 0)
		cli_warn("runs %lld and %lld have no point in common",
			 (long long)base, (long long)new);
	if (fail && r.nregressions)
		rc = EXIT_REGRESSION;
	compare_result_free(&r);
	sqlite3_close(db);
	free(path);
	return rc;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.summary = "compare two runs: regressions, improvements, package changes",
	.usage = usage,
	.flags = 0,
	.fn = cmd_compare,
};
