/* cmd-merge.c - `benchorch merge` and `benchorch export`: move results
 * between machines. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/merge.h"

static const char merge_usage[] =
"Usage: benchorch merge [OPTIONS] OTHER.db...\n"
"\n"
"Copy every finished run of each OTHER.db (e.g. made on another host, or\n"
"by 'benchorch export') into the database. Runs are identified by their\n"
"globally unique uuid: a run already present is skipped, so merging twice\n"
"adds nothing. Images, libraries and CPUs equal to ones already stored are\n"
"shared; row ids are renumbered. Runs still 'running' are skipped.\n"
"\n"
"Options:\n";

static const char merge_epilog[] =
"\n"
"Every OTHER.db is checked first, and each one missing, unreadable or not\n"
"a benchorch database is named on a line of its own: any of them stops the\n"
"merge before the database is created or changed. A database\n"
"created by a merge that then merged nothing is removed again.\n"
"\n"
"Exit status: 0 merged (possibly nothing new); 2 usage error, or an OTHER.db\n"
"that cannot be read (missing, no permission; nothing merged); 3 a database\n"
"cannot be opened or written (nothing merged when found before merging,\n"
"else nothing of that OTHER.db).\n";

static const char export_usage[] =
"Usage: benchorch export [OPTIONS] -o OUT.db\n"
"\n"
"Write a new SQLite file holding the whole database (SQLite's online\n"
"backup, consistent while runs are written), or with --run only the\n"
"selected runs and what they reference: one file, without -wal or -shm\n"
"beside it. Carry it to another machine and 'benchorch merge' it there.\n"
"\n"
"Options:\n";

static const char export_epilog[] =
"\n"
"Exit status: 0 written; 2 usage error, or a run the database does not\n"
"hold (nothing written); 3 the database cannot be read or fails SQLite's\n"
"PRAGMA quick_check, or OUT.db cannot be written (no OUT.db is left).\n";

/* The options of merge and export. */
struct move_opts {
	struct cli_paths paths;	/* first: cli_parse reads it */
	const char *out;	/* -o OUT.db */
	struct cli_runs runs;
};

/* -o OUT.db: a name into the const char * DEST. SQLite takes "" for a
 * temporary database: the export would vanish with a success status. */
static int parse_output(const char *arg, void *dest, bo_err *err)
{
	if (!*arg)
		return bo_err_set(err, "-o needs a file name");
	*(const char **)dest = arg;
	return 0;
}

static const struct opt_def export_options[] = {
	{ .name = "output", .short_name = 'o', .kind = OPT_VALUE,
	  .arg = "OUT.db", .offset = offsetof(struct move_opts, out),
	  .parse = parse_output, .help = "the new file (must not exist)" },
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .kind = OPT_GROUP, .group = cli_run_options,
	  .offset = offsetof(struct move_opts, runs) },
	{ .kind = OPT_END },
};

/* merge takes -o and --run only to refuse them with its own message. */
static const struct opt_def merge_options[] = {
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .name = "output", .short_name = 'o', .kind = OPT_VALUE,
	  .offset = offsetof(struct move_opts, out), .parse = parse_output,
	  .hidden = 1 },
	{ .kind = OPT_GROUP, .group = cli_run_options,
	  .offset = offsetof(struct move_opts, runs), .hidden = 1 },
	{ .kind = OPT_END },
};

/* Check the N sources SRC of a merge into the database at PATH before it
 * is created or changed: each can be read (cli_input_files: every one
 * that cannot is named, then EXIT_USAGE), is not that database (SQLite
 * would only say "database is locked") and is a benchorch database this
 * program can read (else EXIT_ENV; every one that is not is named).
 * Returns EXIT_OK, or EXIT_ENV or EXIT_USAGE after the messages. */
static int check_sources(const char *path, int n, char **src)
{
	int i, rc = EXIT_OK;
	bo_err err;

	/* every source first, each one said: one that cannot be read
	 * creates no database here */
	if (cli_input_files("merge", n, src,
			    "a database to merge is made on its host with 'benchorch export -o FILE'"))
		return EXIT_USAGE;
	/* a source that is the database itself (by another name, too) */
	for (i = 0; i < n; i++) {
		struct stat s1, s2;

		if (stat(src[i], &s1) == 0 && stat(path, &s2) == 0 &&
		    s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino) {
			cli_error("'%s' is the database it would be merged into ('%s'): nothing to merge",
				  src[i], path);
			rc = EXIT_USAGE;
		}
	}
	for (i = 0; rc != EXIT_USAGE && i < n; i++) {
		sqlite3 *db;

		if (db_open_readonly(src[i], &db, &err) < 0) {
			cli_error("%s; nothing merged", err.msg);
			rc = EXIT_ENV;
		} else {
			sqlite3_close(db);
		}
	}
	return rc;
}

static int cmd_merge(const struct cmd_ctx *ctx, void *opts, int argc,
		     char **argv)
{
	const struct move_opts *a = opts;
	const char *path = ctx->db_path;
	int rc, i, created, merged = 0;
	struct merge_stats st;
	sqlite3 *db;
	bo_err err;

	free(a->runs.ids);
	if (a->out || a->runs.n)
		return cli_usage_error("merge", "merge takes no -o or --run");
	if (argc == 0)
		return cli_usage_error("merge", "needs the database(s) to merge");
	rc = check_sources(path, argc, argv);
	if (rc != EXIT_OK)
		return rc;
	created = access(path, F_OK) != 0;
	if (cli_db_open(path, 1, &db) != 0) {
		if (created)
			db_remove_files(path);
		return EXIT_ENV;
	}
	for (i = 0; i < argc; i++) {
		if (merge_from(db, argv[i], NULL, 0, &st, &err) < 0) {
			/* a message that names the source already is not
			 * prefixed with it again */
			if (strstr(err.msg, argv[i]))
				cli_error("%s", err.msg);
			else
				cli_error("cannot merge '%s': %s", argv[i],
					  err.msg);
			rc = EXIT_ENV;
			continue;
		}
		merged++;
		printf("merged %ld run%s (%ld results) from '%s'; %ld already present",
		       st.runs_added, st.runs_added == 1 ? "" : "s", st.results_added,
		       argv[i], st.runs_present);
		if (st.runs_running)
			printf("; %ld still running, skipped", st.runs_running);
		putchar('\n');
	}
	sqlite3_close(db);
	/* a destination made here that nothing went into is not left */
	if (created && !merged)
		db_remove_files(path);
	return rc;
}

/* Check, before OUT.db is made, that the database at PATH holds the N
 * runs RUNS (one it does not is an unknown name) and passes SQLite's
 * quick check (a damaged database is not exported, not even in part).
 * Returns EXIT_OK, or EXIT_USAGE or EXIT_ENV after the message. */
static int check_export(const char *path, const int64_t *runs, size_t n)
{
	sqlite3 *db;
	bo_err err;
	int rc;

	if (cli_db_open(path, 0, &db) != 0)
		return EXIT_ENV;
	rc = cli_check_runs("export", db, path, runs, n);
	if (rc == EXIT_OK && db_quick_check(db, &err) < 0) {
		cli_error("cannot export '%s': %s", path, err.msg);
		rc = EXIT_ENV;
	}
	sqlite3_close(db);
	return rc;
}

/* Export the runs of A from the database at PATH into the new file
 * A->out, left whole or not at all. Returns an exit status. */
static int export_runs(const char *path, const struct move_opts *a)
{
	struct merge_stats st;
	sqlite3 *out;
	bo_err err;
	int rc = check_export(path, a->runs.ids, a->runs.n);

	if (rc != EXIT_OK)
		return rc;
	if (cli_db_open(a->out, 1, &out) != 0) {
		/* OUT.db did not exist: what db_open made of it goes */
		db_remove_files(a->out);
		rc = EXIT_ENV;
	} else {
		if (merge_from(out, path, a->runs.ids, a->runs.n, &st, &err) < 0) {
			cli_error("%s", err.msg);
			rc = EXIT_ENV;
		} else if (st.runs_running) {
			cli_warn("%ld run%s still running not exported", st.runs_running,
				 st.runs_running == 1 ? "" : "s");
		}
		if (rc == EXIT_OK) {
			/* one file to carry: no -wal or -shm beside it */
			if (db_close_single_file(out, a->out, &err) < 0) {
				cli_error("%s", err.msg);
				rc = EXIT_ENV;
			}
		} else {
			sqlite3_close(out);
		}
		if (rc != EXIT_OK)
			db_remove_files(a->out);
	}
	return rc;
}

static int cmd_export(const struct cmd_ctx *ctx, void *opts, int argc,
		      char **argv)
{
	struct move_opts *a = opts;
	struct stat sb;
	bo_err err;
	int rc = EXIT_OK;

	(void)argc;
	(void)argv;
	if (!a->out)
		rc = cli_usage_error("export", "needs -o OUT.db");
	else if (lstat(a->out, &sb) == 0)
		/* a wrong argument, not a broken machine: a usage error, for
		 * the whole database and for --run alike (a dangling link
		 * too: it would write where it points) */
		rc = cli_usage_error("export", "'%s' exists; export writes a new file (name another, or remove it first)",
				     a->out);
	else if (a->runs.n)
		rc = export_runs(ctx->db_path, a);
	else if (export_all(ctx->db_path, a->out, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	}
	free(a->runs.ids);
	return rc;
}

const struct cmd_entry cmd_merge_entry = {
	.name = "merge",
	.summary = "merge runs from other databases, without duplicates",
	.usage = merge_usage,
	.options = merge_options,
	.epilog = merge_epilog,
	.opts_size = sizeof(struct move_opts),
	.max_args = -1,
	.run = cmd_merge,
};

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.summary = "copy the database, or some runs, into a new SQLite file",
	.usage = export_usage,
	.options = export_options,
	.epilog = export_epilog,
	.opts_size = sizeof(struct move_opts),
	.max_args = 0,
	.run = cmd_export,
};
