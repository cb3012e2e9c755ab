/* cli.c - what every command shares: the paths options, the parse of a
 * command line from the command table, --help, opening the database. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "lib/format.h"
#include "lib/paths.h"
#include "lib/runlock.h"
#include "orchestrator/results/report-fmt.h"
#include "lib/util.h"

int cli_path_arg(const char *cmd, const char *opt, const char *arg)
{
	if (!arg || !*arg)
		return cli_usage_error(cmd, "%s must not be empty", opt);
	return 0;
}

static void on_run_lock_wait(void *ctx, const char *path)
{
	(void)ctx;
	fprintf(stderr, "benchorch: another run holds '%s'; waiting for it to finish\n",
		path);
}

int cli_run_lock(bo_err *err)
{
	return bo_run_lock(BENCHORCH_RUN_LOCK_DIR, on_run_lock_wait, NULL, err);
}

int cli_check_db_writable(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct stat st;
	sqlite3 *db;
	bo_err err;
	int rc = EXIT_OK;

	/* the directory first: SQLite's own message for it names neither */
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	if (stat(dir, &st) < 0) {
		cli_error("cannot open database '%s': '%s': %s", path, dir,
			  strerror(errno));
		rc = EXIT_ENV;
	} else if (!S_ISDIR(st.st_mode)) {
		cli_error("cannot open database '%s': '%s' is not a directory",
			  path, dir);
		rc = EXIT_ENV;
	} else if (access(path, F_OK) != 0 && access(dir, W_OK | X_OK) != 0) {
		/* SQLite would only say "unable to open database file" */
		cli_error("cannot open database '%s': cannot create it in '%s': %s",
			  path, dir, strerror(errno));
		rc = EXIT_ENV;
	} else if (db_open(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	} else {
		sqlite3_close(db);
	}
	free(dir);
	return rc;
}

int cli_check_runs(const char *cmd, sqlite3 *db,
		   const char *path, const int64_t *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int k = db_run_exists(db, runs[i]);

		if (k < 0) {
			cli_error("database error in '%s': %s", path,
				  sqlite3_errmsg(db));
			return EXIT_ENV;
		}
		if (k == 0)
			return cli_usage_error(cmd, "no run %lld in '%s'",
					       (long long)runs[i], path);
	}
	return EXIT_OK;
}

int cli_check_library_runs(const char *cmd, sqlite3 *db, const char *path,
			   const int64_t *runs, size_t n)
{
	int rc = cli_check_runs(cmd, db, path, runs, n);

	for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
		int k = db_run_is_tool_run(db, runs[i]);

		if (k < 0) {
			cli_error("database error in '%s': %s", path,
				  sqlite3_errmsg(db));
			rc = EXIT_ENV;
		} else if (k) {
			rc = cli_usage_error(cmd, "run %lld is a tool run (run --tools): %s takes library runs ('benchorch results --tools --run %lld' shows it)",
					     (long long)runs[i], cmd,
					     (long long)runs[i]);
		}
	}
	return rc;
}

const struct opt_def cli_db_options[] = {
	{ .name = "db", .kind = OPT_PATH,
	  .offset = offsetof(struct cli_paths, db), .arg = "PATH",
	  .help = "database (default: $BENCHORCH_DB, or\n"
		  "STATE/results.db, or /var/lib/benchorch/results.db)" },
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .kind = OPT_END },
};

const struct opt_def cli_state_options[] = {
	{ .name = "state-dir", .kind = OPT_PATH,
	  .offset = offsetof(struct cli_paths, state), .arg = "DIR",
	  .help = "state directory: images, logs and the default\n"
		  "database (default: $BENCHORCH_STATE_DIR or\n"
		  "/var/lib/benchorch)" },
	{ .kind = OPT_END },
};

/* --run ID: append the run id ARG to the struct cli_runs DEST. */
static int parse_run_opt(const char *arg, void *dest, bo_err *err)
{
	struct cli_runs *r = dest;
	int64_t v;

	if (cli_parse_run_id(arg, &v, err) < 0)
		return -1;
	r->ids = xrealloc(r->ids, (r->n + 1) * sizeof(*r->ids));
	r->ids[r->n++] = v;
	return 0;
}

const struct opt_def cli_run_options[] = {
	{ .name = "run", .kind = OPT_VALUE, .arg = "ID",
	  .parse = parse_run_opt, .msg_prefix = "--run takes a run id: ",
	  .help = "run ID (repeat for several runs)" },
	{ .kind = OPT_END },
};

/* The largest --threshold, in %: far beyond any change worth reporting;
 * a bound only so that a typo is caught. */
#define THRESHOLD_MAX_PCT 10000.0

int cli_parse_threshold(const char *s, void *dest, bo_err *err)
{
	double *ret = dest;
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

int cli_parse_format(const char *arg, void *dest, bo_err *err)
{
	return format_parse(arg, dest, err);
}

const struct opt_def cli_format_options[] = {
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .parse = cli_parse_format,
	  .help = "table, csv or json (default: table)" },
	{ .kind = OPT_END },
};

int cli_parse_size_opt(const char *arg, void *dest, bo_err *err)
{
	struct cli_size *s = dest;

	if (parse_size(arg, &s->bytes, err) < 0)
		return -1;
	s->arg = arg;
	return 0;
}

void cli_help(FILE *f, const void *ctx)
{
	const struct cmd_entry *cmd = ctx;

	fputs(cmd->usage, f);
	if (cmd->options) {
		opts_help(f, cmd->options);
		if (cmd->epilog)
			fputs(cmd->epilog, f);
	}
}

/* 1 if TABLE (groups expanded) holds the row ROW. */
static int has_group(const struct opt_def *table, const struct opt_def *row)
{
	for (; table->kind != OPT_END; table++)
		if (table->kind == OPT_GROUP &&
		    (table->group == row || has_group(table->group, row)))
			return 1;
	return 0;
}

int cli_parse(const struct cmd_entry *cmd, int argc, char **argv,
	      void *opts, struct cmd_ctx *ctx, int *first)
{
	int rc;

	memset(ctx, 0, sizeof(*ctx));
	ctx->cmd = cmd;
	ctx->argc = argc;
	ctx->argv = argv;
	rc = opts_parse(cmd->name, cmd->options, opts, argc, argv,
			cmd->max_args, first, cli_help, cmd);
	if (rc != 0)
		return rc;
	/* the paths group sits at offset 0 of the options struct */
	if (has_group(cmd->options, cli_db_options) ||
	    has_group(cmd->options, cli_state_options)) {
		const struct cli_paths *p = opts;

		ctx->state_dir = paths_state_dir(p->state);
		if (has_group(cmd->options, cli_db_options))
			ctx->db_path = paths_db(p->db, p->state);
	}
	return 0;
}

void cli_ctx_release(struct cmd_ctx *ctx)
{
	free(ctx->db_path);
	free(ctx->state_dir);
	ctx->db_path = ctx->state_dir = NULL;
}

int cli_db_open(const char *path, int writable, sqlite3 **db)
{
	bo_err err;

	if ((writable ? db_open(path, db, &err) :
	     db_open_readonly(path, db, &err)) < 0) {
		cli_error("%s", err.msg);
		return EXIT_ENV;
	}
	return 0;
}

sqlite3 *cli_scratch_db(const char *schema)
{
	sqlite3 *db = NULL;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

void cli_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int cli_insert_row(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	cli_error("cannot format output: %s", sqlite3_errmsg(db));
	return -1;
}

int cli_print_query(sqlite3 *db, const char *sql, enum format fmt)
{
	sqlite3_stmt *st = NULL;
	bo_err err;
	long n;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		cli_error("cannot format output: %s", sqlite3_errmsg(db));
		return EXIT_FAILED;
	}
	n = format_stmt(stdout, st, fmt, &err);
	sqlite3_finalize(st);
	if (n < 0) {
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}
