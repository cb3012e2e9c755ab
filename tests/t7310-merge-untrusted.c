/* t7310-merge-untrusted - merge_from treats the source as foreign: it is
 * opened once (one open of its file), attached while the connection is
 * in SQLite's defensive mode and trusts no schema (a view of the source
 * that calls a function with side effects is refused, the function never
 * called), and the destination's settings are back after. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/results/merge.h"
#include "tests/tap.h"

static sqlite3_vfs *real_vfs;
static sqlite3 *watched;	/* the destination whose settings are seen */
static const char *src_name;	/* the source's path */
static int src_opens, seen_defensive = -1, seen_trusted = -1;
static int probe_calls;

/* The default VFS's xOpen, counting the opens of the source's main file
 * and noting the destination's settings at that moment. */
static int counting_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
			 int flags, int *out)
{
	(void)vfs;
	if (name && src_name && (flags & SQLITE_OPEN_MAIN_DB) &&
	    strcmp(name, src_name) == 0) {
		src_opens++;
		if (watched) {
			sqlite3_db_config(watched, SQLITE_DBCONFIG_DEFENSIVE, -1,
					  &seen_defensive);
			sqlite3_db_config(watched, SQLITE_DBCONFIG_TRUSTED_SCHEMA,
					  -1, &seen_trusted);
		}
	}
	return real_vfs->xOpen(real_vfs, name, f, flags, out);
}

/* probe(): a function with a side effect, not marked innocuous. */
static void probe(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	probe_calls++;
	sqlite3_result_int(ctx, 1);
}

static int mkdb(const char *path, const char *host)
{
	char *cmd = xasprintf("tests/fixtures/results-mkdb '%s' %s", path, host);
	int rc = system(cmd);

	free(cmd);
	return rc == 0 ? 0 : -1;
}

static int open_dst(const char *path, sqlite3 **db, bo_err *err)
{
	if (db_open(path, db, err) < 0)
		return -1;
	sqlite3_create_function(*db, "probe", 0, SQLITE_UTF8, NULL, probe,
				NULL, NULL);
	return 0;
}

int main(void)
{
	static sqlite3_vfs vfs;
	char dir[] = "/tmp/t7310-XXXXXX", *src, *evil, *dst, *dst2;
	struct merge_stats ms;
	sqlite3 *db, *e;
	bo_err err = { "" };
	int v = -1, t = -1, rc;

	if (!mkdtemp(dir))
		return 1;
	src = xasprintf("%s/src.db", dir);
	evil = xasprintf("%s/evil.db", dir);
	dst = xasprintf("%s/dst.db", dir);
	dst2 = xasprintf("%s/dst2.db", dir);
	real_vfs = sqlite3_vfs_find(NULL);
	vfs = *real_vfs;
	vfs.zName = "t7310-counting";
	vfs.xOpen = counting_open;
	sqlite3_vfs_register(&vfs, 1);

	tap_ok(mkdb(src, "node-a") == 0 && mkdb(evil, "node-e") == 0,
	       "two source databases");
	tap_ok(open_dst(dst, &db, &err) == 0, "a destination (%s)", err.msg);
	watched = db;
	src_name = src;
	rc = merge_from(db, src, NULL, 0, &ms, &err);
	tap_ok(rc == 0 && ms.runs_added == 3, "merges the source's three runs (%s)",
	       err.msg);
	tap_ok(src_opens == 1, "the source is opened once (%d opens)", src_opens);
	tap_ok(seen_defensive == 1, "it is attached in defensive mode (%d)",
	       seen_defensive);
	tap_ok(seen_trusted == 0, "it is attached with trusted_schema off (%d)",
	       seen_trusted);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &v);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &t);
	tap_ok(v == 0 && t == 1, "the destination's settings are back after (defensive %d, trusted_schema %d)",
	       v, t);
	watched = NULL;
	sqlite3_close(db);

	/* a source whose runs table is a view calling probe() */
	rc = sqlite3_open(evil, &e);
	sqlite3_create_function(e, "probe", 0, SQLITE_UTF8, NULL, probe, NULL,
				NULL);
	rc = rc == SQLITE_OK ? sqlite3_exec(e, "PRAGMA foreign_keys = OFF;"
			      " ALTER TABLE runs RENAME TO runs_real;"
			      " CREATE VIEW runs AS SELECT * FROM runs_real WHERE probe()",
			      NULL, NULL, NULL) : rc;
	tap_ok(rc == SQLITE_OK, "a source whose runs are a view calling probe() (%s)",
	       sqlite3_errmsg(e));
	sqlite3_close(e);
	probe_calls = 0;
	tap_ok(open_dst(dst2, &db, &err) == 0, "another destination (%s)", err.msg);
	rc = merge_from(db, evil, NULL, 0, &ms, &err);
	tap_ok(probe_calls == 0, "the view's function is never called (%d calls)",
	       probe_calls);
	tap_ok(rc < 0 && tap_contains(err.msg, "probe"),
	       "the merge is refused, naming the function (%s)", err.msg);
	tap_ok(db_query_int(db, "SELECT count(*) FROM runs") == 0,
	       "nothing of it is merged");
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &t);
	tap_ok(t == 1, "trusted_schema is back on after a refused merge too");
	tap_ok(sqlite3_exec(db, "SELECT * FROM src.runs", NULL, NULL, NULL) != SQLITE_OK,
	       "and the source is no longer attached");
	sqlite3_close(db);

	db_remove_files(src);
	db_remove_files(evil);
	db_remove_files(dst);
	db_remove_files(dst2);
	rmdir(dir);
	free(src);
	free(evil);
	free(dst);
	free(dst2);
	return tap_done();
}
