/* cmd-compare.c - `benchorch compare`: what changed between two runs. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/compare-machines.h"
#include "orchestrator/results/compare.h"
#include "orchestrator/results/db-names.h"
#include "lib/format.h"
#include "lib/paths.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/verdict-load.h"
#include "orchestrator/results/verdict-print.h"
#include "orchestrator/results/verdict.h"

static const char usage[] =
"Usage: benchorch compare [OPTIONS] BASE NEW\n"
"       benchorch compare [OPTIONS] --latest 2\n"
"       benchorch compare [OPTIONS] --base-image ID --new-image ID RUN RUN\n"
"       benchorch compare --machines [--size SIZE] [--format F] [RUN...]\n"
"\n"
"Compare run NEW against run BASE (run ids) curve by curve. A curve is a\n"
"distro, library, algorithm, operation, mode and variant over its buffer\n"
"sizes. A curve has changed when its throughput moved consistently across\n"
"its sizes (the median over the sizes of the log-ratio new/base), or\n"
"across the smaller half of its sizes (start-up cost) or the larger half\n"
"(cost per byte), by more than the noise this machine shows between\n"
"invocations, between earlier runs of the same packages and across the\n"
"curves compared (when there is no history), with a false\n"
"discovery rate of 5 % over the curves compared (Benjamini-Hochberg) and\n"
"by at least the threshold. A change at one size only is not a change of\n"
"the curve. An invocation whose contention canary moved around a curve\n"
"is left out of it when another invocation of the same run measured the\n"
"curve undisturbed; a curve whose canary moved in every invocation of a\n"
"run is flagged, never judged. orchestrator/results/verdicts.md describes the\n"
"method.\n"
"\n"
"The output starts with a summary: curves compared, curves changed,\n"
"caveats (the runs differ in --quick, repetitions, batch length, variants\n"
"or CPU, a CPU warning, a clock that moved), the packages that changed\n"
"and, per library, the smallest change this machine can detect at its\n"
"measured noise. Then it lists the changed and flagged curves, each with\n"
"its effect and 95 % interval, q-value, the noise it was judged against\n"
"and where that came from, the clock ratio new/base (shown, not\n"
"corrected for), its state and its library's package change.\n"
"\n"
"A change is confirmed when the finished confirmation run of NEW\n"
"('benchorch confirm') measured the curve again and found the same change\n"
"(its previous image against its new one, or BASE against it when it\n"
"measured the current image once more); one it did not hold is\n"
"unchanged (not reported), and a caveat says so. A curve no confirmation measured is\n"
"confirmed when its change holds in both halves of each run's\n"
"invocations (alternate invocations in measuring order; a point must have\n"
"been measured by two invocations or more on each side) and exceeds every\n"
"change seen between earlier runs of the same packages on this CPU.\n"
"\n"
"--points adds the former point-by-point comparison: each distro,\n"
"library, algorithm, operation and buffer size measured in both runs,\n"
"judged alone (a Mann-Whitney rank test on the stored samples, or the\n"
"[median, best] ranges). With --format csv it prints the points instead\n"
"of the curves; with json it adds them as \"points\", \"regressions\" and\n"
"\"improvements\".\n"
"\n"
"--base-image and --new-image compare two images measured in one run (or\n"
"in two): each side is then the given image's invocations only.\n"
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
"      --latest 2         compare the most recent finished run with the\n"
"                         one before it made alike (quick or not, the\n"
"                         hardware acceleration masked or not;\n"
"                         confirmation runs aside)\n"
"      --threshold PCT    ignore changes of at most PCT % (default: 3)\n"
"      --all              list every curve (with --points: every point)\n"
"      --points           add the point-by-point comparison (see above)\n"
"      --base-image ID    BASE is this image of the run only\n"
"      --new-image ID     NEW is this image of the run only\n"
"      --store            keep the verdict in the database (table verdicts)\n"
"      --format FORMAT    table, csv or json (default: table)\n"
"      --fail-on-regression  exit 4 when a confirmed regression is found\n"
"      --machines         one column per machine (see above)\n"
"      --size SIZE        buffer size of --machines (default: 16KiB)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 compared; 1 nothing compared (the runs have no curve in\n"
"common, or --latest 2 found no two runs made alike); 2 usage error, or a\n"
"run, image or --size the database (or the runs) do not hold;\n"
"3 the database cannot be read or written; 4 a confirmed regression was\n"
"found and --fail-on-regression was given.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_LATEST, OPT_THRESHOLD, OPT_ALL,
       OPT_FORMAT, OPT_FAIL, OPT_MACHINES, OPT_SIZE, OPT_POINTS,
       OPT_BASE_IMAGE, OPT_NEW_IMAGE, OPT_STORE };

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
	{ "points", no_argument, NULL, OPT_POINTS },
	{ "base-image", required_argument, NULL, OPT_BASE_IMAGE },
	{ "new-image", required_argument, NULL, OPT_NEW_IMAGE },
	{ "store", no_argument, NULL, OPT_STORE },
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
 * ARGV[0..ARGC), at BYTES per call (SIZE_ARG: the --size given, NULL for
 * the default). A size the database has no result at, or the runs have no
 * bulk result at, is an unknown name (exit 2), as for results and report.
 * Returns the exit status. */
static int compare_machines_cmd(const char *db_opt, const char *state_opt,
				enum format fmt, int64_t bytes,
				const char *size_arg, int argc, char **argv)
{
	struct machines_cmp c;
	int64_t *runs = xcalloc((size_t)argc + 1, sizeof(*runs));
	sqlite3 *db;
	char *path;
	bo_err err;
	int i, k, rc = EXIT_OK;

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
		/* a run the database does not hold is an unknown name */
		rc = cli_check_runs("compare", NULL, db, path, runs,
				    (size_t)argc);
		if (rc == EXIT_OK && size_arg) {
			k = db_names_size_known(db, bytes);
			if (k < 0) {
				cli_error("database error in '%s': %s", path,
					  sqlite3_errmsg(db));
				rc = EXIT_ENV;
			} else if (k == 0) {
				char *sizes = db_names_sizes(db);

				if (!sizes) {
					cli_error("database error in '%s': %s",
						  path, sqlite3_errmsg(db));
					rc = EXIT_ENV;
				} else {
					rc = cli_usage_error("compare", "--size: no results at '%s' in '%s' (it has: %s)",
							     size_arg, path, sizes);
				}
				free(sizes);
			}
		}
		if (rc == EXIT_OK &&
		    (k = compare_machines(db, runs, (size_t)argc, bytes, &c,
					  &err)) < 0) {
			if (k == -2)
				rc = cli_usage_error("compare", "%s%s in '%s'",
						     size_arg ? "--size: " : "",
						     err.msg, path);
			else {
				cli_error("%s in '%s'", err.msg, path);
				rc = EXIT_ENV;
			}
		} else if (rc == EXIT_OK) {
			for (size_t m = 0; m < c.nm; m++)
				cli_warn_partial_run(db, c.m[m].run);
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

/* What the curve comparison of one invocation of compare needs. */
struct cmp_opts {
	struct verdict_sel base, new;
	double threshold;
	enum format fmt;
	int all, points, store, fail;
};

/* Judge the curves (and with --points the points) of O on the database
 * at PATH, print them, store the verdict with --store. Returns the exit
 * status. */
static int compare_curves(const char *path, const struct cmp_opts *o,
			  int latest)
{
	struct verdict_sel base = o->base, new = o->new;
	struct verdict_result v;
	struct compare_result r;
	json_t *extra = NULL;
	sqlite3 *db;
	bo_err err;
	int rc = EXIT_OK, k;

	if ((o->store ? db_open(path, &db, &err) :
	     db_open_readonly(path, &db, &err)) < 0) {
		cli_error("%s", err.msg);
		return EXIT_ENV;
	}
	if (latest && (k = compare_latest_two(db, &base.run, &new.run,
					      &err)) < 0) {
		cli_error("%s in '%s'", err.msg, path);
		sqlite3_close(db);
		return k == -2 ? EXIT_FAILED : EXIT_ENV;
	}
	/* a run or image the database does not hold is an unknown name */
	if (!latest && ((k = vload_check_sel(db, base, &err)) < 0 ||
			(k = vload_check_sel(db, new, &err)) < 0)) {
		sqlite3_close(db);
		if (k == -2)
			return cli_usage_error("compare", "%s", err.msg);
		cli_error("%s in '%s'", err.msg, path);
		return EXIT_ENV;
	}
	if (verdict_compare(db, base, new, o->threshold, VERDICT_DEFAULT_ALPHA,
			    &v, &err) < 0) {
		cli_error("%s in '%s'", err.msg, path);
		sqlite3_close(db);
		return EXIT_ENV;
	}
	if (o->points && compare_runs(db, base.run, new.run, o->threshold, &r,
				      &err) < 0) {
		cli_error("%s in '%s'", err.msg, path);
		verdict_result_free(&v);
		sqlite3_close(db);
		return EXIT_ENV;
	}
	if (o->points && o->fmt == FORMAT_CSV) {
		compare_print(stdout, &r, o->fmt, o->all);
	} else if (o->points && o->fmt == FORMAT_TABLE) {
		verdict_print_summary(stdout, &v);
		fputc('\n', stdout);
		compare_print(stdout, &r, o->fmt, o->all);
	} else {
		if (o->points) {
			json_t *pj = compare_json(&r);

			/* the points' own lists, beside (not instead of)
			 * the curves' counts "regressions", "improvements" */
			extra = json_pack("{s:O, s:O, s:O}", "points",
					  json_object_get(pj, "points"),
					  "point_regressions", json_object_get(pj, "regressions"),
					  "point_improvements", json_object_get(pj, "improvements"));
			json_decref(pj);
		}
		verdict_print(stdout, &v, o->fmt, o->all, extra);
		json_decref(extra);
	}
	/* a run that did not finish: a change against it may be only that */
	cli_warn_partial_run(db, base.run);
	if (new.run != base.run)
		cli_warn_partial_run(db, new.run);
	if (v.ncurves == 0) {
		/* nothing compared is not "no regression": a gate must see it */
		cli_error("runs %lld and %lld have no curve in common: nothing compared",
			  (long long)base.run, (long long)new.run);
		rc = EXIT_FAILED;
	}
	if (o->store && verdict_store(db, &v, "compare", NULL, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	}
	if (rc == EXIT_OK && o->fail && v.nconfirmed_regressions)
		rc = EXIT_REGRESSION;
	if (o->points)
		compare_result_free(&r);
	verdict_result_free(&v);
	sqlite3_close(db);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	int machines = 0;
	int64_t bytes = 16384;
	const char *size_arg = NULL;
	const char *db_opt = NULL, *state_opt = NULL;
	struct cmp_opts o = { .threshold = COMPARE_DEFAULT_THRESHOLD,
			      .fmt = FORMAT_TABLE };
	int latest = 0, opt, rc;
	char *path;
	bo_err err;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_DB:
			if (cli_path_arg("compare", "--db", optarg))
				return EXIT_USAGE;
			db_opt = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg("compare", "--state-dir", optarg))
				return EXIT_USAGE;
			state_opt = optarg;
			break;
		case OPT_LATEST:
			if (strcmp(optarg, "2") != 0)
				return cli_usage_error("compare", "--latest takes 2, not '%s'",
						       optarg);
			latest = 1;
			break;
		case OPT_THRESHOLD:
			if (parse_threshold(optarg, &o.threshold, &err) < 0)
				return cli_usage_error("compare", "--threshold: %s",
						       err.msg);
			break;
		case OPT_ALL:
			o.all = 1;
			break;
		case OPT_FORMAT:
			if (format_parse(optarg, &o.fmt, &err) < 0)
				return cli_usage_error("compare", "%s", err.msg);
			break;
		case OPT_FAIL:
			o.fail = 1;
			break;
		case OPT_MACHINES:
			machines = 1;
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &bytes, &err) < 0)
				return cli_usage_error("compare", "%s", err.msg);
			size_arg = optarg;
			break;
		case OPT_POINTS:
			o.points = 1;
			break;
		case OPT_STORE:
			o.store = 1;
			break;
		case OPT_BASE_IMAGE:
		case OPT_NEW_IMAGE:
			if (cli_parse_run_id(optarg, opt == OPT_BASE_IMAGE ?
					     &o.base.image : &o.new.image, &err) < 0)
				return cli_usage_error("compare", "invalid image id: %s",
						       err.msg);
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
	if (machines && (latest || o.all || o.fail || o.points || o.store ||
			 o.base.image || o.new.image ||
			 o.threshold != COMPARE_DEFAULT_THRESHOLD))
		return cli_usage_error("compare", "--machines takes no --latest, --all, --threshold, --points, --store, --base-image, --new-image or --fail-on-regression");
	if (machines)
		return compare_machines_cmd(db_opt, state_opt, o.fmt, bytes,
					    size_arg, argc - optind,
					    argv + optind);
	if (bytes != 16384)
		return cli_usage_error("compare", "--size goes with --machines");
	if (latest && optind < argc)
		return cli_usage_error("compare", "give two run ids or --latest 2, not both");
	if (o.points && (o.base.image || o.new.image))
		return cli_usage_error("compare", "--points compares whole runs: it takes no --base-image or --new-image");
	if (!latest) {
		if (argc - optind != 2)
			return cli_usage_error("compare", "needs two run ids, BASE and NEW (or --latest 2)");
		if (cli_parse_run_id(argv[optind], &o.base.run, &err) < 0 ||
		    cli_parse_run_id(argv[optind + 1], &o.new.run, &err) < 0)
			return cli_usage_error("compare", "invalid run id: %s", err.msg);
		if (o.base.run == o.new.run && o.base.image == o.new.image)
			return cli_usage_error("compare", o.base.image ?
					       "BASE and NEW are the same image of the same run" :
					       "BASE and NEW are the same run (%lld)",
					       (long long)o.base.run);
		if (o.base.run == o.new.run && (!o.base.image || !o.new.image))
			return cli_usage_error("compare", "one run against itself needs --base-image and --new-image");
	}
	path = paths_db(db_opt, state_opt);
	rc = compare_curves(path, &o, latest);
	free(path);
	return rc;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.summary = "compare two runs curve by curve: changes, their noise, package changes",
	.usage = usage,
	.flags = 0,
	.fn = cmd_compare,
};
