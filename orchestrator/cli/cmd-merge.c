/* cmd-merge.c - `benchorch merge` and `benchorch export`: move results
 * between machines. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/results/merge.h"
#include "lib/paths.h"

static const char merge_usage[] =
"Usage: benchorch merge [OPTIONS] OTHER.db...\n"
"\n"
"Copy every finished run of each OTHER.db (e.g. made on another host, or\n"
"by 'benchorch export') into the database. Runs are identified by their\n"
"globally unique uuid: a run already present is skipped, so merging twice\n"
"adds nothing. Images, libraries and CPUs equal to ones already stored are\n"
"shared; row ids are renumbered. Runs still 'running' are skipped.\n"
"\n"
"Options:\n"
"      --db PATH          database to merge into (default: $BENCHORCH_DB,\n"
"                         or STATE/results.db, or /var/lib/benchorch/results.db;\n"
"                         created if missing)\n"
"      --state-dir DIR    where the default database lives\n"
"  -h, --help             show this help\n"
"\n"
"Every OTHER.db is checked first: one missing or not a benchorch database\n"
"stops the merge before the database is created or changed. A database\n"
"created by a merge that then merged nothing is removed again.\n"
"\n"
"Exit status: 0 merged (possibly nothing new); 2 usage error; 3 a database\n"
"cannot be read or written (nothing merged when found before merging,\n"
"else nothing of that OTHER.db).\n";

static const char export_usage[] =
"Usage: benchorch export [OPTIONS] -o OUT.db\n"
"\n"
"Write a new SQLite file holding the whole database (SQLite's online\n"
"backup, consistent while runs are written), or with --run only the\n"
"selected runs and what they reference: one file, without -wal or -shm\n"
"beside it. Carry it to another machine and 'benchorch merge' it there.\n"
"\n"
"Options:\n"
"  -o, --output OUT.db    the new file (must not exist)\n"
"      --db PATH          database to export (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    where the default database lives\n"
"      --run ID           export run ID only (repeat for several runs)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 written; 2 usage error, or a run the database does not\n"
"hold (nothing written); 3 the database cannot be read or fails SQLite's\n"
"PRAGMA quick_check, or OUT.db cannot be written (no OUT.db is left).\n";

enum { OPT_DB = 256, OPT_STATE, OPT_RUN };

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *db, *state, *out;
	int64_t *runs;
	size_t nruns;
};

/* Parse the options shared by merge and export. Returns -1 on success
 * (optind at the first operand), else the exit status to return. */
static int parse(const char *cmd, const char *usage, int argc, char **argv,
		 struct args *a)
{
	bo_err err;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":ho:", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			/* SQLite takes "" for a temporary database: the export
			 * would vanish with a success status */
			if (!*optarg)
				return cli_usage_error(cmd, "-o needs a file name");
			a->out = optarg;
			break;
		case OPT_DB:
			if (cli_path_arg(cmd, "--db", optarg))
				return EXIT_USAGE;
			a->db = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg(cmd, "--state-dir", optarg))
				return EXIT_USAGE;
			a->state = optarg;
			break;
		case OPT_RUN: {
			int64_t v;

			if (cli_parse_run_id(optarg, &v, &err) < 0)
				return cli_usage_error(cmd, "--run takes a run id: %s",
						       err.msg);
			a->runs = xrealloc(a->runs, (a->nruns + 1) * sizeof(*a->runs));
			a->runs[a->nruns++] = v;
			break;
		}
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error(cmd, "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error(cmd, "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	return -1;
}

static int cmd_merge(int argc, char **argv)
{
	struct args a = { 0 };
	int rc = parse("merge", merge_usage, argc, argv, &a), i, created,
	    merged = 0;
	struct merge_stats st;
	sqlite3 *db;
	char *path;
	bo_err err;

	if (rc < 0 && (a.out || a.nruns))
		rc = cli_usage_error("merge", "merge takes no -o or --run");
	if (rc < 0 && optind >= argc)
		rc = cli_usage_error("merge", "needs the database(s) to merge");
	if (rc >= 0) {
		free(a.runs);
		return rc;
	}
	/* every source first: a missing one creates no database here */
	rc = EXIT_OK;
	for (i = optind; i < argc; i++)
		if (access(argv[i], F_OK) != 0) {
			cli_error("cannot open '%s': %s (a database to merge is made on its host with 'benchorch export -o FILE')",
				  argv[i], strerror(errno));
			rc = EXIT_ENV;
		}
	if (rc != EXIT_OK) {
		free(a.runs);
		return rc;
	}
	path = paths_db(a.db, a.state);
	/* a source that is the database itself (by another name, too):
	 * SQLite would only say "database is locked" */
	for (i = optind; i < argc; i++) {
		struct stat s1, s2;

		if (stat(argv[i], &s1) == 0 && stat(path, &s2) == 0 &&
		    s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino) {
			cli_error("'%s' is the database it would be merged into ('%s'): nothing to merge",
				  argv[i], path);
			rc = EXIT_USAGE;
		}
	}
	/* and every source a benchorch database this program can read,
	 * before the destination is created or migrated */
	for (i = optind; rc == EXIT_OK && i < argc; i++) {
		sqlite3 *src;

		if (db_open_readonly(argv[i], &src, &err) < 0) {
			cli_error("%s; nothing merged", err.msg);
			rc = EXIT_ENV;
		} else {
			sqlite3_close(src);
		}
	}
	if (rc != EXIT_OK) {
		free(a.runs);
		free(path);
		return rc;
	}
	created = access(path, F_OK) != 0;
	if (db_open(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		if (created)
			db_remove_files(path);
		free(path);
		return EXIT_ENV;
	}
	for (i = optind; i < argc; i++) {
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
	free(path);
	return rc;
}

static int cmd_export(int argc, char **argv)
{
	struct args a = { 0 };
	int rc = parse("export", export_usage, argc, argv, &a);
	struct merge_stats st;
	struct stat sb;
	sqlite3 *out;
	char *path;
	bo_err err;

	if (rc < 0 && optind < argc)
		rc = cli_usage_error("export", "unexpected argument '%s'", argv[optind]);
	if (rc < 0 && !a.out)
		rc = cli_usage_error("export", "needs -o OUT.db");
	if (rc >= 0) {
		free(a.runs);
		return rc;
	}
	path = paths_db(a.db, a.state);
	if (!a.nruns) {
		if (export_all(path, a.out, &err) < 0) {
			cli_error("%s", err.msg);
			rc = EXIT_ENV;
		} else {
			rc = EXIT_OK;
		}
		free(path);
		return rc;
	}
	/* a run the database does not hold is an unknown name, said before
	 * OUT.db is made */
	if (db_open_readonly(path, &out, &err) < 0) {
		cli_error("%s", err.msg);
		free(path);
		free(a.runs);
		return EXIT_ENV;
	}
	rc = cli_check_runs("export", "--run", out, path, a.runs, a.nruns);
	/* a damaged database is not exported, not even in part */
	if (rc == EXIT_OK && db_quick_check(out, &err) < 0) {
		cli_error("cannot export '%s': %s", path, err.msg);
		rc = EXIT_ENV;
	}
	sqlite3_close(out);
	if (rc != EXIT_OK) {
		free(path);
		free(a.runs);
		return rc;
	}
	if (stat(a.out, &sb) == 0) {
		cli_error("'%s' exists; export writes a new file", a.out);
		free(path);
		free(a.runs);
		return EXIT_ENV;
	}
	rc = EXIT_OK;
	if (db_open(a.out, &out, &err) < 0) {
		cli_error("%s", err.msg);
		/* OUT.db did not exist: what db_open made of it goes */
		db_remove_files(a.out);
		rc = EXIT_ENV;
	} else {
		if (merge_from(out, path, a.runs, a.nruns, &st, &err) < 0) {
			cli_error("%s", err.msg);
			rc = EXIT_ENV;
		} else if (st.runs_running) {
			cli_warn("%ld run%s still running not exported", st.runs_running,
				 st.runs_running == 1 ? "" : "s");
		}
		if (rc == EXIT_OK) {
			/* one file to carry: no -wal or -shm beside it */
			if (db_close_single_file(out, a.out, &err) < 0) {
				cli_error("%s", err.msg);
				rc = EXIT_ENV;
			}
		} else {
			sqlite3_close(out);
		}
		if (rc != EXIT_OK)
			db_remove_files(a.out);
	}
	free(path);
	free(a.runs);
	return rc;
}

const struct cmd_entry cmd_merge_entry = {
	.name = "merge",
	.summary = "merge runs from other databases, without duplicates",
	.usage = merge_usage,
	.flags = 0,
	.fn = cmd_merge,
};

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.summary = "copy the database, or some runs, into a new SQLite file",
	.usage = export_usage,
	.flags = 0,
	.fn = cmd_export,
};
