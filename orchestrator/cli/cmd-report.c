/* cmd-report.c - `benchorch report`: one self-contained HTML file. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/db.h"
#include "lib/algorithms.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/runstate.h"
#include "orchestrator/results/db-names.h"
#include "orchestrator/results/latest-pick.h"
#include "orchestrator/results/ops-load.h"
#include "orchestrator/results/report-fmt.h"
#include "orchestrator/results/report.h"

static const char usage[] =
"Usage: benchorch report [OPTIONS] -o FILE\n"
"\n"
"Write a self-contained HTML report (no script, no network) of one or\n"
"more runs (the latest by default): per algorithm and operation, an SVG\n"
"chart of throughput against buffer size (log scale, 16 B to 1 MiB) with\n"
"one line per library and distro; a distro x library table at one size;\n"
"each curve's start-up overhead and fitted cost per byte (slope cyc/B), the\n"
"fastest library's cycles per byte at the 16 KiB point (cyc/B@16K), both at\n"
"the core clock the guest measured (runs stored before it measured one:\n"
"at the nominal clock the CPU model states, marked *); each invocation's\n"
"measured clocks and noisy points; the runs' CPU and package versions.\n"
"Runs of several machines (host and CPU): one line per library, distro\n"
"and machine, and tables with one column per machine (its latest run).\n"
"Public-key and key derivation results get heat maps of their own; runs\n"
"with those alone get them without the symmetric sections (the default\n"
"run is the latest finished run with results of any kind).\n"
"A FILE ending in .svg gets the first chart alone (see --algo); another\n"
"extension than .html, .htm or .svg is refused.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 written; 1 no results to report; 2 usage error, or a run\n"
"the database does not hold; 3 the database cannot be read or FILE cannot\n"
"be written.\n";

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

/* report's options. */
struct report_cli {
	struct cli_paths paths;	/* first: cli_parse reads it */
	const char *out;	/* -o FILE */
	struct cli_runs runs;
	const char *algo;
	struct cli_size size;	/* bytes 0: the default, 16 KiB */
};

/* -o FILE: a name (or "-") into the const char * DEST. */
static int parse_output(const char *arg, void *dest, bo_err *err)
{
	if (!*arg)
		return bo_err_set(err, "-o needs a file name (or - for standard output)");
	*(const char **)dest = arg;
	return 0;
}

/* --algo NAME: an algorithm the guest knows, into the const char *
 * DEST. */
static int parse_algo(const char *arg, void *dest, bo_err *err)
{
	if (!algorithm_find(arg))
		return bo_err_set(err, "--algo: unknown algorithm '%s'", arg);
	*(const char **)dest = arg;
	return 0;
}

static const struct opt_def options[] = {
	{ .name = "output", .short_name = 'o', .kind = OPT_VALUE,
	  .arg = "FILE", .offset = offsetof(struct report_cli, out),
	  .parse = parse_output,
	  .help = "where to write (.html or .svg; - = stdout)" },
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .kind = OPT_GROUP, .group = cli_run_options,
	  .offset = offsetof(struct report_cli, runs) },
	{ .name = "algo", .kind = OPT_VALUE, .arg = "NAME",
	  .offset = offsetof(struct report_cli, algo), .parse = parse_algo,
	  .help = "only algorithm NAME (aes-256-gcm, ...)" },
	{ .name = "size", .kind = OPT_VALUE, .arg = "SIZE",
	  .offset = offsetof(struct report_cli, size),
	  .parse = cli_parse_size_opt,
	  .help = "buffer size of the tables (default: 16KiB;\n"
		  "16384, 16K, 16KiB, 1M, 1MiB)" },
	{ .kind = OPT_END },
};

/* Check what the report of O needs from DB (at PATH): its runs (a run DB
 * does not hold is an unknown name) and its table size (one its runs have
 * no results at likewise); warn about the runs that did not finish.
 * Returns EXIT_OK, EXIT_USAGE or EXIT_ENV after the message. */
static int check_report(sqlite3 *db, const char *path,
			const struct report_opts *o, const char *size_arg)
{
	int rc = cli_check_library_runs("report", db, path, o->runs,
				o->nruns);
	int k;

	if (rc != EXIT_OK)
		return rc;
	/* a run that did not finish: its results are partial */
	for (size_t i = 0; i < o->nruns; i++)
		cli_warn_partial_run(db, o->runs[i]);
	if (!o->table_bytes)
		return EXIT_OK;
	/* the sizes of the runs reported, not of the whole database */
	k = db_names_size_known(db, o->runs, o->nruns, o->table_bytes);
	if (k <= 0) {
		char *sizes = k < 0 ? NULL :
			db_names_sizes(db, o->runs, o->nruns);
		char *where = db_names_scope(o->runs, o->nruns, path);

		if (!sizes)
			k = -1;
		if (k < 0)
			cli_error("database error in '%s': %s", path,
				  sqlite3_errmsg(db));
		else
			cli_usage_error("report", "--size: no results at '%s' in %s (it has: %s)",
					size_arg, where, sizes);
		free(where);
		free(sizes);
		return k < 0 ? EXIT_ENV : EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Without --run, O shows the latest finished library run of DB (at
 * PATH), or the latest run of public-key or key derivation results
 * alone when it is later (ops_latest_run): says on stderr which newer
 * runs it skipped (latest_pick, db_latest_skipped), and puts it in
 * *LATEST, O's only run (none: report says there is nothing to report).
 * Returns EXIT_OK, or EXIT_ENV after the message. */
static int pick_latest(sqlite3 *db, const char *path, struct report_opts *o,
		       int64_t *latest)
{
	int64_t lib, ops;
	char *skipped = NULL;

	if (o->nruns)
		return EXIT_OK;
	lib = db_latest_run(db, DB_RUN_LIBRARY);
	ops = lib < 0 ? -1 : ops_latest_run(db);
	if (ops > 0 && ops != lib) {
		/* its results are public key or key derivation alone */
		if (db_latest_skipped(db, DB_RUN_LIBRARY, ops, &skipped) < 0)
			ops = -1;
		else if (skipped)
			fprintf(stderr, "benchorch: %s; showing run %lld, the"
				" latest finished run with results\n", skipped,
				(long long)ops);
		free(skipped);
		*latest = ops;
	} else {
		*latest = ops < 0 ? -1 : latest_pick(db, DB_RUN_LIBRARY);
	}
	if (*latest < 0) {
		cli_error("database error in '%s': %s", path, sqlite3_errmsg(db));
		return EXIT_ENV;
	}
	if (*latest > 0) {
		o->runs = latest;
		o->nruns = 1;
	}
	return EXIT_OK;
}

/* Write the report of O from DB (at PATH, for the messages) to OUT
 * ("-": stdout; a name ending in .svg: the first chart alone), whole or
 * not at all. Returns EXIT_OK, EXIT_FAILED (nothing to report) or
 * EXIT_ENV after the message. */
static int write_report(sqlite3 *db, const char *path,
			const struct report_opts *o, const char *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	bo_err err;
	int n, rc = EXIT_OK;

	mem = open_memstream(&buf, &len);
	if (!mem) {
		cli_error("out of memory");
		return EXIT_ENV;
	}
	if (ends_with(out, ".svg"))
		n = report_write_svg(db, o, mem, &err);
	else
		n = report_write_html(db, o, mem, &err);
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
	return rc;
}

static int cmd_report(const struct cmd_ctx *ctx, void *opts, int argc,
		      char **argv)
{
	struct report_cli *c = opts;
	struct report_opts o = { .runs = c->runs.ids, .nruns = c->runs.n,
				 .table_bytes = c->size.bytes,
				 .algorithm = c->algo };
	int64_t latest = 0;
	sqlite3 *db;
	int rc;

	(void)argc;
	(void)argv;
	if (!c->out)
		rc = cli_usage_error("report", "needs -o FILE (.html or .svg)");
	else if (!known_extension(c->out))
		rc = cli_usage_error("report", "cannot tell the format of '%s': "
				     "name it .html, .htm or .svg (or - for HTML on "
				     "standard output)", c->out);
	else
		rc = cli_db_open(ctx->db_path, 0, &db);
	if (rc == EXIT_OK) {
		rc = pick_latest(db, ctx->db_path, &o, &latest);
		if (rc == EXIT_OK)
			rc = check_report(db, ctx->db_path, &o, c->size.arg);
		if (rc == EXIT_OK)
			rc = write_report(db, ctx->db_path, &o, c->out);
		sqlite3_close(db);
	}
	free(c->runs.ids);
	return rc;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.summary = "write an HTML report with SVG charts (or one chart as SVG)",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct report_cli),
	.max_args = 0,
	.run = cmd_report,
};
