/* t4015-db-open - opening databases that are not (yet) benchorch's,
 * reading one without the right to write beside it, and telling a table
 * or column an older schema lacks from a schema that cannot be read. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/db.h"
#include "tests/tap.h"

int main(void)
{
	char dir[] = "/tmp/benchorch-t4015-XXXXXX";
	char *foreign, *ours, *zero, *missing, *cmd;
	sqlite3 *db;
	bo_err err = { "" };
	FILE *f;

	if (!mkdtemp(dir))
		return 99;
	foreign = xasprintf("%s/foreign.db", dir);
	ours = xasprintf("%s/ours.db", dir);
	zero = xasprintf("%s/zero.db", dir);
	missing = xasprintf("%s/missing.db", dir);

	/* someone else's SQLite file */
	sqlite3_open(foreign, &db);
	sqlite3_exec(db, "CREATE TABLE customers (name TEXT)", NULL, NULL, NULL);
	sqlite3_close(db);
	tap_ok(db_open(foreign, &db, &err) < 0 &&
	       strstr(err.msg, "not benchorch's"),
	       "refuses to write into another program's database (%s)", err.msg);
	sqlite3_open(foreign, &db);
	tap_ok(db_query_int(db, "SELECT count(*) FROM sqlite_master") == 1 &&
	       db_query_int(db, "PRAGMA user_version") == 0,
	       "and leaves it as it was");
	sqlite3_close(db);

	/* an empty file is a new database */
	f = fopen(zero, "w");
	if (f)
		fclose(f);
	tap_ok(db_open_readonly(zero, &db, &err) < 0 &&
	       strstr(err.msg, "not a benchorch database"),
	       "reading an empty file says it is not a benchorch database (%s)",
	       err.msg);
	tap_ok(db_open(zero, &db, &err) == 0, "but run may create the schema in it");
	sqlite3_close(db);

	tap_ok(db_open_readonly(missing, &db, &err) < 0 &&
	       strstr(err.msg, "'benchorch run' creates it") &&
	       access(missing, F_OK) != 0,
	       "reading a missing database names it and creates nothing (%s)",
	       err.msg);

	/* --db naming a directory: said so, by both ways of opening
	 * (SQLite itself says "disk I/O error") */
	tap_ok(db_open(dir, &db, &err) < 0 && strstr(err.msg, dir) &&
	       strstr(err.msg, "it is a directory"),
	       "opening a directory as the database says it is one (%s)",
	       err.msg);
	tap_ok(db_open_readonly(dir, &db, &err) < 0 &&
	       strstr(err.msg, "it is a directory"),
	       "reading a directory as the database says it is one");

	/* a reader who cannot create files beside the database */
	tap_ok(db_open(ours, &db, &err) == 0, "creates a database");
	{
		sqlite3_stmt *st;

		tap_ok(db_has_column(db, "runs", "cpu_warnings") == 1 &&
		       db_has_column(db, "results_v", "mode") == 1 &&
		       db_has_column(db, "runs", "nosuch") == 0 &&
		       db_has_column(db, "nosuch", "id") == 0 &&
		       db_prepare_optional(db, "SELECT nosuch FROM runs", &st) == 0 &&
		       !st,
		       "a column or table the schema lacks is none, not an error");
	}
	sqlite3_close(db);
	/* the schema (page 1 after its header) overwritten: every probe
	 * of it is a database error, not a column or table it lacks */
	cmd = xasprintf("cp '%s' '%s/damaged.db' && head -c 3996 /dev/zero |"
			" tr '\\000' '\\125' | dd of='%s/damaged.db' bs=1"
			" seek=100 conv=notrunc 2>/dev/null", ours, dir, dir);
	if (system(cmd) == 0) {
		char *damaged = xasprintf("%s/damaged.db", dir);
		sqlite3_stmt *st = NULL;
		int k = -2, c = -2, p = -2;

		if (db_open_readonly(damaged, &db, &err) == 0) {
			k = db_has(db, "runs");
			c = db_has_column(db, "runs", "cpu_warnings");
			p = db_prepare_optional(db, "SELECT id FROM runs", &st);
			sqlite3_close(db);
		}
		tap_ok(k == -1 && c == -1 && p == -1 && st == NULL,
		       "a schema that cannot be read is a database error to db_has, db_has_column and db_prepare_optional (%d %d %d)",
		       k, c, p);
		free(damaged);
	} else {
		tap_ok(0, "a copy of the database with its schema overwritten");
	}
	free(cmd);
	if (geteuid() == 0) {
		pid_t pid;
		int st = -1;

		chmod(dir, 0755);
		chmod(ours, 0644);
		pid = fork();
		if (pid == 0) {
			bo_err e2 = { "" };
			sqlite3 *rdb;

			if (setgid(65534) < 0 || setuid(65534) < 0)
				_exit(3);
			if (db_open_readonly(ours, &rdb, &e2) < 0)
				_exit(1);
			_exit(db_query_int(rdb, "SELECT count(*) FROM runs") == 0 ? 0 : 2);
		}
		waitpid(pid, &st, 0);
		tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "a user who may only read the file can query it (status %d)",
		       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	} else {
		printf("ok %d # SKIP needs root to switch users\n", ++tap_count);
	}

	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		tap_diag("cannot remove %s", dir);
	free(cmd);
	free(foreign);
	free(ours);
	free(zero);
	free(missing);
	return tap_done();
}
