/* cmd-compare.c - `benchorch compare`: what changed between two runs. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/compare-machines.h"
#include "orchestrator/results/compare.h"
#include "orchestrator/results/compare-ops.h"
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
"Public-key and key derivation results both runs have (the same distro,\n"
"variant, build, library, algorithm and operation or cost parameters)\n"
"follow, each with the ratio of its operations per second new/base.\n"
"They are a description only: the runs measured them minutes apart, not\n"
"taking turns, so none is a regression or an improvement and none counts\n"
"for --fail-on-regression ('benchorch duet' measures two side by side).\n"
"With --format json they are the arrays \"pubkey\" and \"kdf\"; with\n"
"--format csv and --ops they are printed instead of the curves. Not with\n"
"--base-image or --new-image.\n"
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
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 compared; 1 nothing compared (the runs have no curve in\n"
"common, or --latest 2 found no two runs made alike); 2 usage error, or a\n"
"run, image or --size the database (or the runs) do not hold;\n"
"3 the database cannot be read or written; 4 a confirmed regression was\n"
"found and --fail-on-regression was given.\n";

/* compare --machines found no result at SIZE (SIZE->arg as given, NULL
 * for the default) in the runs of the machines of C, in DB (at PATH):
 * a usage error naming the sizes those runs have, said as results and
 * report say it. Frees C. Returns EXIT_USAGE, or EXIT_ENV on a database
 * error, after the message. */
static int machines_size_unknown(sqlite3 *db, const char *path,
				 const struct cli_size *size,
				 struct machines_cmp *c)
{
	int64_t *runs = xcalloc(c->nm + 1, sizeof(*runs));
	char *sizes, *where, buf[32];
	int rc;

	for (size_t m = 0; m < c->nm; m++)
		runs[m] = c->m[m].run;
	sizes = db_names_sizes(db, runs, c->nm);
	where = db_names_scope(runs, c->nm, path);
	if (!sizes) {
		cli_error("database error in '%s': %s", path,
			  sqlite3_errmsg(db));
		rc = EXIT_ENV;
	} else if (size->arg) {
		rc = cli_usage_error("compare", "--size: no results at '%s' in %s (it has: %s)",
				     size->arg, where, sizes);
	} else {
		rc = cli_usage_error("compare", "no results at %s in %s (it has: %s)",
				     fmt_size(size->bytes, buf, sizeof(buf)),
				     where, sizes);
	}
	free(where);
	free(sizes);
	free(runs);
	compare_machines_free(c);
	return rc;
}

/* compare --machines on the database at PATH: run ids in ARGV[0..ARGC),
 * at SIZE->bytes per call (SIZE->arg: the --size given, NULL for the
 * default). A size the machines' runs (those given, a machine's latest;
 * else every machine's latest) have no bulk result at is an unknown name
 * (exit 2) naming the sizes they have, as for results and report.
 * Returns the exit status. */
static int compare_machines_cmd(const char *path, enum format fmt,
				const struct cli_size *size, int argc,
				char **argv)
{
	struct machines_cmp c;
	int64_t *runs = xcalloc((size_t)argc + 1, sizeof(*runs));
	sqlite3 *db;
	bo_err err;
	int i, k, rc = EXIT_OK;

	for (i = 0; i < argc; i++)
		if (cli_parse_run_id(argv[i], &runs[i], &err) < 0) {
			free(runs);
			return cli_usage_error("compare", "invalid run id: %s", err.msg);
		}
	rc = cli_db_open(path, 0, &db);
	if (rc == EXIT_OK) {
		/* a run the database does not hold is an unknown name */
		rc = cli_check_runs("compare", db, path, runs,
				    (size_t)argc);
		if (rc == EXIT_OK &&
		    (k = compare_machines(db, runs, (size_t)argc, size->bytes,
					  &c, &err)) < 0) {
			if (k == -2) {
				rc = machines_size_unknown(db, path, size, &c);
			} else {
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
	free(runs);
	return rc;
}

/* What the curve comparison of one invocation of compare needs. */
struct cmp_opts {
	struct verdict_sel base, new;
	double threshold;
	enum format fmt;
	int all, points, store, fail;
	int ops;	/* --ops: csv of the public-key and KDF ratios */
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
	struct compare_ops ops = { 0 };
	json_t *extra = NULL;
	sqlite3 *db;
	bo_err err;
	int rc = EXIT_OK, k;

	if (cli_db_open(path, o->store, &db) != 0)
		return EXIT_ENV;
	if (latest && (k = compare_latest_two(db, &base.run, &new.run,
					      &err)) < 0) {
		cli_error("%s in '%s'", err.msg, path);
		sqlite3_close(db);
		return k == -2 ? EXIT_FAILED : EXIT_ENV;
	}
	/* a run or image the database does not hold is an unknown name;
	 * a run said as every command says it */
	if (!latest) {
		int64_t runs[2] = { base.run, new.run };

		/* curves are of library runs: a tool run has none,
		 * refused before anything is printed */
		rc = cli_check_library_runs("compare", db, path, runs, 2);
		if (rc != EXIT_OK) {
			sqlite3_close(db);
			return rc;
		}
	}
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
	/* whole runs only: an image of a run has no ratio of its own */
	if (!base.image && !new.image &&
	    compare_ops_load(db, base.run, new.run, &ops, &err) < 0) {
		cli_error("%s in '%s'", err.msg, path);
		if (o->points)
			compare_result_free(&r);
		verdict_result_free(&v);
		sqlite3_close(db);
		return EXIT_ENV;
	}
	if (o->ops && o->fmt == FORMAT_CSV) {
		compare_ops_print_csv(stdout, &ops);
	} else if (o->points && o->fmt == FORMAT_CSV) {
		compare_print(stdout, &r, o->fmt, o->all);
	} else if (o->points && o->fmt == FORMAT_TABLE) {
		verdict_print_summary(stdout, &v);
		fputc('\n', stdout);
		compare_print(stdout, &r, o->fmt, o->all);
		compare_ops_print_table(stdout, &ops);
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
		if (o->fmt == FORMAT_JSON) {
			/* beside the curves, under keys of their own */
			json_t *oj = compare_ops_json(&ops);

			if (!extra)
				extra = json_object();
			json_object_update(extra, oj);
			json_decref(oj);
		}
		verdict_print(stdout, &v, o->fmt, o->all, extra);
		json_decref(extra);
		if (o->fmt == FORMAT_TABLE)
			compare_ops_print_table(stdout, &ops);
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
	if (rc == EXIT_OK && o->fail && verdict_gating_regressions(&v))
		rc = EXIT_REGRESSION;
	else if (rc == EXIT_OK && o->fail && v.nconfirmed_regressions)
		cli_warn("compare: %zu confirmed regression%s without a package, "
			 "variant or image that differs: the host's drift, "
			 "not a failure", v.nconfirmed_regressions,
			 v.nconfirmed_regressions == 1 ? "" : "s");
	if (o->points)
		compare_result_free(&r);
	compare_ops_free(&ops);
	verdict_result_free(&v);
	sqlite3_close(db);
	return rc;
}

/* compare's options. */
struct compare_cli {
	struct cli_paths paths;	/* first: cli_parse reads it */
	struct cmp_opts cmp;
	int latest, machines;
	struct cli_size size;	/* --size of --machines */
};

/* Defaults: --threshold 3, --format table, --size 16KiB. */
static void compare_init(void *opts)
{
	struct compare_cli *o = opts;

	o->cmp.threshold = COMPARE_DEFAULT_THRESHOLD;
	o->cmp.fmt = FORMAT_TABLE;
	o->size.bytes = 16384;
}

/* --latest 2: the int DEST becomes 1; any other value is refused. */
static int parse_latest(const char *arg, void *dest, bo_err *err)
{
	if (strcmp(arg, "2") != 0)
		return bo_err_set(err, "--latest takes 2, not '%s'", arg);
	*(int *)dest = 1;
	return 0;
}

/* --base-image ID, --new-image ID: an image id into the int64_t DEST. */
static int parse_image(const char *arg, void *dest, bo_err *err)
{
	return cli_parse_run_id(arg, dest, err);
}

static const struct opt_def options[] = {
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .name = "latest", .kind = OPT_VALUE, .arg = "2",
	  .offset = offsetof(struct compare_cli, latest),
	  .parse = parse_latest,
	  .help = "compare the most recent finished run with the\n"
		  "one before it made alike (quick or not, the\n"
		  "hardware acceleration masked or not;\n"
		  "confirmation runs aside)" },
	{ .name = "threshold", .kind = OPT_VALUE, .arg = "PCT",
	  .offset = offsetof(struct compare_cli, cmp.threshold),
	  .parse = cli_parse_threshold, .msg_prefix = "--threshold: ",
	  .help = "ignore changes of at most PCT % (default: 3)" },
	{ .name = "all", .kind = OPT_FLAG,
	  .offset = offsetof(struct compare_cli, cmp.all),
	  .help = "list every curve (with --points: every point)" },
	{ .name = "points", .kind = OPT_FLAG,
	  .offset = offsetof(struct compare_cli, cmp.points),
	  .help = "add the point-by-point comparison (see above)" },
	{ .name = "ops", .kind = OPT_FLAG,
	  .offset = offsetof(struct compare_cli, cmp.ops),
	  .help = "with --format csv: the public-key and key\n"
		  "derivation ratios instead of the curves" },
	{ .name = "base-image", .kind = OPT_VALUE, .arg = "ID",
	  .offset = offsetof(struct compare_cli, cmp.base.image),
	  .parse = parse_image, .msg_prefix = "invalid image id: ",
	  .help = "BASE is this image of the run only" },
	{ .name = "new-image", .kind = OPT_VALUE, .arg = "ID",
	  .offset = offsetof(struct compare_cli, cmp.new.image),
	  .parse = parse_image, .msg_prefix = "invalid image id: ",
	  .help = "NEW is this image of the run only" },
	{ .name = "store", .kind = OPT_FLAG,
	  .offset = offsetof(struct compare_cli, cmp.store),
	  .help = "keep the verdict in the database (table verdicts)" },
	{ .kind = OPT_GROUP, .group = cli_format_options,
	  .offset = offsetof(struct compare_cli, cmp.fmt) },
	{ .name = "fail-on-regression", .kind = OPT_FLAG,
	  .offset = offsetof(struct compare_cli, cmp.fail),
	  .help = "exit 4 when a confirmed regression is found" },
	{ .name = "machines", .kind = OPT_FLAG,
	  .offset = offsetof(struct compare_cli, machines),
	  .help = "one column per machine (see above)" },
	{ .name = "size", .kind = OPT_VALUE, .arg = "SIZE",
	  .offset = offsetof(struct compare_cli, size),
	  .parse = cli_parse_size_opt,
	  .help = "buffer size of --machines (default: 16KiB;\n"
		  "16384, 16K, 16KiB, 1M, 1MiB)" },
	{ .kind = OPT_END },
};

/* Check the options and run ids (ARGV[0..ARGC)) of a curve comparison
 * (not --machines), setting O's BASE and NEW runs from them. Returns 0,
 * or EXIT_USAGE after the message. */
static int check_curves_args(struct compare_cli *o, int argc, char **argv)
{
	struct cmp_opts *c = &o->cmp;
	bo_err err;

	/* any --size given, the default's spelling too: it would be
	 * ignored, the curves being compared at every size */
	if (o->size.arg)
		return cli_usage_error("compare", "--size %s: --size goes with --machines (the curve comparison compares every size)",
				       o->size.arg);
	if (o->latest && argc > 0)
		return cli_usage_error("compare", "give two run ids or --latest 2, not both");
	if (c->ops && c->fmt != FORMAT_CSV)
		return cli_usage_error("compare", "--ops goes with --format csv (the table and json show the ratios anyway)");
	if (c->ops && c->points)
		return cli_usage_error("compare", "--ops and --points are two csv outputs: give one");
	if (c->ops && (c->base.image || c->new.image))
		return cli_usage_error("compare", "--ops compares whole runs: it takes no --base-image or --new-image");
	if (c->points && (c->base.image || c->new.image))
		return cli_usage_error("compare", "--points compares whole runs: it takes no --base-image or --new-image");
	if (o->latest)
		return 0;
	if (argc != 2)
		return cli_usage_error("compare", "needs two run ids, BASE and NEW (or --latest 2)");
	if (cli_parse_run_id(argv[0], &c->base.run, &err) < 0 ||
	    cli_parse_run_id(argv[1], &c->new.run, &err) < 0)
		return cli_usage_error("compare", "invalid run id: %s", err.msg);
	if (c->base.run == c->new.run && c->base.image == c->new.image)
		return cli_usage_error("compare", c->base.image ?
				       "BASE and NEW are the same image of the same run" :
				       "BASE and NEW are the same run (%lld)",
				       (long long)c->base.run);
	if (c->base.run == c->new.run && (!c->base.image || !c->new.image))
		return cli_usage_error("compare", "one run against itself needs --base-image and --new-image");
	return 0;
}

static int cmd_compare(const struct cmd_ctx *ctx, void *opts, int argc,
		       char **argv)
{
	struct compare_cli *o = opts;
	const struct cmp_opts *c = &o->cmp;
	int rc;

	if (o->machines && (o->latest || c->all || c->fail || c->points || c->ops ||
			    c->store || c->base.image || c->new.image ||
			    c->threshold != COMPARE_DEFAULT_THRESHOLD))
		return cli_usage_error("compare", "--machines takes no --latest, --all, --threshold, --points, --ops, --store, --base-image, --new-image or --fail-on-regression");
	if (o->machines)
		return compare_machines_cmd(ctx->db_path, c->fmt, &o->size,
					    argc, argv);
	rc = check_curves_args(o, argc, argv);
	if (rc != 0)
		return rc;
	return compare_curves(ctx->db_path, c, o->latest);
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.summary = "compare two runs curve by curve: changes, their noise, package changes",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct compare_cli),
	.init = compare_init,
	.max_args = -1,
	.run = cmd_compare,
};
