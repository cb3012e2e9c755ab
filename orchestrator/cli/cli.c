/* cli.c - messages and exit statuses shared by every command. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/cli/cli.h"
#include "lib/util.h"

int cli_path_arg(const char *cmd, const char *opt, const char *arg)
{
	if (!arg || !*arg)
		return cli_usage_error(cmd, "%s must not be empty", opt);
	return 0;
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

int cli_check_runs(const char *cmd, const char *opt, sqlite3 *db,
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
			return cli_usage_error(cmd, "%s%sno run %lld in '%s'",
					       opt ? opt : "", opt ? ": " : "",
					       (long long)runs[i], path);
	}
	return EXIT_OK;
}

