/* merge.c - copy runs between benchorch databases (ATTACH + SQL). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/results/merge.h"

static int exec(sqlite3 *db, const char *sql, bo_err *err)
{
	return db_exec(db, sql, err);
}

/* Comma-separated columns of TABLE present in both main and src,
 * excluding those in SKIP (NULL-terminated). With PREFIX each name is
 * written PREFIX.name. Newly allocated, "" when none; NULL on error. */
static char *common_cols(sqlite3 *db, const char *table,
			 const char *const *skip, const char *prefix,
			 bo_err *err)
{
	sqlite3_stmt *st;
	char *out = xstrdup(""), *t;
	int rc;

	if (sqlite3_prepare_v2(db,
			       "SELECT m.name FROM pragma_table_info(?1, 'main') m"
			       " JOIN pragma_table_info(?1, 'src') s ON s.name = m.name"
			       " ORDER BY m.cid", -1, &st, NULL) != SQLITE_OK) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		free(out);
		return NULL;
	}
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *const *k;
		int skipped = 0;

		for (k = skip; k && *k; k++)
			skipped |= strcmp(*k, name) == 0;
		if (skipped)
			continue;
		t = xasprintf("%s%s%s%s\"%s\"", out, *out ? ", " : "",
			      prefix ? prefix : "", prefix ? "." : "", name);
		free(out);
		out = t;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		free(out);
		return NULL;
	}
	return out;
}

/* The select list for copying TABLE from src AS s: each common column
 * (minus SKIP) as s.col, except the foreign keys run_id, image_id,
 * library_id, cpu_id and invocation_id, which go through the temp map
 * tables. Fills *cols (the insert list). Both newly allocated. */
static int copy_lists(sqlite3 *db, const char *table, const char *const *skip,
		      char **cols, char **sel, bo_err *err)
{
	static const char *const maps[][2] = {
		{ "run_id", "(SELECT new FROM temp.map_run WHERE old = s.run_id)" },
		{ "image_id", "(SELECT new FROM temp.map_image WHERE old = s.image_id)" },
		{ "library_id", "(SELECT new FROM temp.map_lib WHERE old = s.library_id)" },
		{ "cpu_id", "(SELECT new FROM temp.map_cpu WHERE old = s.cpu_id)" },
		{ "invocation_id", "(SELECT new FROM temp.map_inv WHERE old = s.invocation_id)" },
		{ "result_id", "(SELECT new FROM temp.map_result WHERE old = s.result_id)" },
		{ "keysetup_id", "(SELECT new FROM temp.map_keysetup WHERE old = s.keysetup_id)" },
		{ "build_ref", "(SELECT new FROM temp.map_build WHERE old = s.build_ref)" },
	};
	char *list = common_cols(db, table, skip, NULL, err), *p, *save = NULL;
	char *out = xstrdup(""), *t;

	if (!list) {
		free(out);
		return -1;
	}
	for (p = strtok_r(list, ", ", &save); p; p = strtok_r(NULL, ", ", &save)) {
		const char *expr = NULL;
		size_t i;

		for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
			char q[64];

			snprintf(q, sizeof(q), "\"%s\"", maps[i][0]);
			if (strcmp(p, q) == 0)
				expr = maps[i][1];
		}
		if (expr)
			t = xasprintf("%s%s%s", out, *out ? ", " : "", expr);
		else
			t = xasprintf("%s%ss.%s", out, *out ? ", " : "", p);
		free(out);
		out = t;
	}
	free(list);
	*cols = common_cols(db, table, skip, NULL, err);
	*sel = out;
	return *cols ? 0 : (free(out), -1);
}

/* INSERT [OR IGNORE] INTO main.TABLE (common columns minus SKIP) SELECT
 * them (foreign keys mapped) FROM src.TABLE s WHERE WHERE. */
static int copy_table(sqlite3 *db, const char *table, const char *const *skip,
		      int ignore, const char *where, bo_err *err)
{
	char *cols, *sel, *sql;
	int rc;

	if (copy_lists(db, table, skip, &cols, &sel, err) < 0)
		return -1;
	sql = xasprintf("INSERT %sINTO main.\"%s\" (%s) SELECT %s FROM src.\"%s\" s"
			" WHERE %s", ignore ? "OR IGNORE " : "", table, cols, sel,
			table, where);
	rc = exec(db, sql, err);
	free(sql);
	free(cols);
	free(sel);
	return rc;
}

/* temp.MAP(old, new) for TABLE joined on KEY columns (NULL = every common
 * column but id), restricted to source rows with id IN (IDS). */
static int make_map(sqlite3 *db, const char *map, const char *table,
		    const char *const *key, const char *ids, bo_err *err)
{
	static const char *const skip_id[] = { "id", NULL };
	char *on = xstrdup(""), *t, *sql;
	int rc;

	if (key) {
		const char *const *k;

		for (k = key; *k; k++) {
			t = xasprintf("%s%sm.\"%s\" IS s.\"%s\"", on, *on ? " AND " : "",
				      *k, *k);
			free(on);
			on = t;
		}
	} else {
		char *list = common_cols(db, table, skip_id, NULL, err), *p, *save;

		if (!list) {
			free(on);
			return -1;
		}
		for (p = strtok_r(list, ", ", &save); p;
		     p = strtok_r(NULL, ", ", &save)) {
			t = xasprintf("%s%sm.%s IS s.%s", on, *on ? " AND " : "", p, p);
			free(on);
			on = t;
		}
		free(list);
	}
	/* old is the key: every row copied looks its new id up here */
	sql = xasprintf("CREATE TEMP TABLE %s (old INTEGER PRIMARY KEY, new INTEGER);"
			" INSERT OR IGNORE INTO temp.%s SELECT s.id, m.id"
			" FROM src.\"%s\" s JOIN main.\"%s\" m ON %s WHERE s.id IN (%s)"
			" ORDER BY s.id, m.id",
			map, map, table, table, on, ids);
	rc = exec(db, sql, err);
	free(sql);
	free(on);
	return rc;
}

/* Whether TABLE exists in both main and src (an older schema lacks
 * some): 1 yes, 0 no, -1 with err set on a database error. */
static int in_both(sqlite3 *db, const char *table, bo_err *err)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM main.sqlite_master"
			       " WHERE type = 'table' AND name = ?1) + (SELECT count(*)"
			       " FROM src.sqlite_master WHERE type = 'table' AND name = ?1)",
			       -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	else
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return n < 0 ? -1 : n == 2;
}

/* Whether the source database has table NAME: 1 yes, 0 no, -1 with err
 * set on a database error. */
static int in_src(sqlite3 *db, const char *name, bo_err *err)
{
	char *sql = xasprintf("SELECT count(*) FROM src.sqlite_master WHERE"
			      " type = 'table' AND name = '%s'", name);
	long long n = db_query_int(db, sql);

	free(sql);
	if (n < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return n > 0;
}

/* Copy the rows of src.TABLE (an invocation's child with an INTEGER
 * PRIMARY KEY id) of the selected invocations into main with ids
 * allocated in advance after main's highest, recorded in temp.MAP (old,
 * new), so that tables referring to them can be mapped too. */
static int copy_keeping_ids(sqlite3 *db, const char *table, const char *map,
			    bo_err *err)
{
	static const char *const skip_id[] = { "id", NULL };
	char *cols = NULL, *sel = NULL, *sql;
	int rc;

	sql = xasprintf("DROP TABLE IF EXISTS temp.%s;"
			" CREATE TEMP TABLE %s (old INTEGER PRIMARY KEY, new INTEGER);"
			" INSERT INTO temp.%s SELECT id,"
			" (SELECT coalesce(max(id), 0) FROM main.\"%s\")"
			"  + row_number() OVER (ORDER BY id)"
			" FROM src.\"%s\" WHERE invocation_id IN"
			" (SELECT id FROM temp.sel_inv)", map, map, map, table, table);
	rc = exec(db, sql, err);
	free(sql);
	if (rc < 0 || copy_lists(db, table, skip_id, &cols, &sel, err) < 0)
		return -1;
	sql = xasprintf("INSERT INTO main.\"%s\" (id, %s) SELECT"
			" (SELECT new FROM temp.%s WHERE old = s.id), %s"
			" FROM src.\"%s\" s WHERE s.id IN (SELECT old FROM temp.%s)",
			table, cols, map, sel, table, map);
	rc = exec(db, sql, err);
	free(sql);
	free(cols);
	free(sel);
	return rc;
}

/* The ids every step of a merge keeps. */
static const char *const skip_id[] = { "id", NULL };

/* temp.want: the run ids NRUNS of RUNS asked for (all of the source's
 * when NRUNS is 0). Returns 0, or -1 with err set (a run the source has
 * not: "no run 'N' in the source database"). */
static int want_runs(sqlite3 *db, const int64_t *runs, size_t nruns,
		     bo_err *err)
{
	sqlite3_stmt *st;
	long long missing;
	size_t i;
	int rc;

	if (exec(db, "DROP TABLE IF EXISTS temp.want;"
		 " CREATE TEMP TABLE want (id INTEGER PRIMARY KEY)", err) < 0)
		return -1;
	if (nruns) {
		if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO temp.want VALUES (?1)",
				       -1, &st, NULL) != SQLITE_OK)
			return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		for (i = 0, rc = SQLITE_DONE; i < nruns && rc == SQLITE_DONE;
		     i++) {
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, runs[i]);
			rc = sqlite3_step(st);
		}
		if (rc != SQLITE_DONE) {
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
		missing = db_query_int(db, "SELECT min(id) FROM temp.want WHERE id NOT IN"
				 " (SELECT id FROM src.runs)");
		if (missing < 0)
			return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		if (missing > 0)
			return bo_err_set(err, "no run '%lld' in the source database",
					  missing);
	} else if (exec(db, "INSERT INTO temp.want SELECT id FROM src.runs", err) < 0) {
		return -1;
	}
	return 0;
}

/* STATS' runs_present (wanted runs the destination has, by uuid) and
 * runs_running (wanted runs still running: not merged). Returns 0, or -1
 * with err set. */
static int count_present(sqlite3 *db, struct merge_stats *stats, bo_err *err)
{
	stats->runs_present = (long)db_query_int(db, "SELECT count(*) FROM src.runs WHERE id IN"
				     " temp.want AND uuid IN (SELECT uuid FROM main.runs)");
	stats->runs_running = (long)db_query_int(db, "SELECT count(*) FROM src.runs WHERE id IN"
				     " temp.want AND status = 'running' AND uuid NOT IN"
				     " (SELECT uuid FROM main.runs)");
	if (stats->runs_present < 0 || stats->runs_running < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* temp.sel, sel_inv and sel_lib: the runs to copy (wanted, finished, not
 * in the destination), their invocations and the libraries these
 * reference; and no map left of an earlier merge. Returns 0, or -1 with
 * err set. */
static int select_rows(sqlite3 *db, bo_err *err)
{
	int has;

	if (exec(db,
		 "DROP TABLE IF EXISTS temp.sel;"
		 " CREATE TEMP TABLE sel AS SELECT id FROM src.runs WHERE id IN temp.want"
		 "  AND status <> 'running' AND uuid NOT IN (SELECT uuid FROM main.runs);"
		 " DROP TABLE IF EXISTS temp.sel_inv;"
		 " CREATE TEMP TABLE sel_inv AS SELECT id, image_id FROM src.invocations"
		 "  WHERE run_id IN temp.sel;"
		 " DROP TABLE IF EXISTS temp.sel_lib;"
		 " CREATE TEMP TABLE sel_lib AS SELECT library_id AS id FROM src.results"
		 "  WHERE invocation_id IN (SELECT id FROM temp.sel_inv)"
		 "  UNION SELECT library_id FROM src.library_loads WHERE library_id"
		 "  IS NOT NULL AND invocation_id IN (SELECT id FROM temp.sel_inv);"
		 " DROP TABLE IF EXISTS temp.map_cpu; DROP TABLE IF EXISTS temp.map_image;"
		 " DROP TABLE IF EXISTS temp.map_lib; DROP TABLE IF EXISTS temp.map_run;"
		 " DROP TABLE IF EXISTS temp.map_inv; DROP TABLE IF EXISTS temp.map_build;"
		 " DROP TABLE IF EXISTS temp.map_result;"
		 " DROP TABLE IF EXISTS temp.map_keysetup;", err) < 0)
		return -1;
	/* libraries referenced by other invocation children (key setups) */
	if ((has = in_src(db, "keysetups", err)) < 0 ||
	    (has && exec(db, "INSERT INTO temp.sel_lib SELECT library_id FROM src.keysetups"
			 " WHERE invocation_id IN (SELECT id FROM temp.sel_inv)", err) < 0))
		return -1;
	/* and by the contention canaries (schema 8) */
	if ((has = in_src(db, "canaries", err)) < 0 ||
	    (has && exec(db, "INSERT OR IGNORE INTO temp.sel_lib SELECT library_id FROM src.canaries"
			 " WHERE invocation_id IN (SELECT id FROM temp.sel_inv)", err) < 0))
		return -1;
	return 0;
}

/* The builds (schema 20) the selected libraries were loaded from, where
 * the destination has them not, and their ids in temp.map_build, which
 * maps libraries.build_ref. Nothing when either database predates
 * builds. Returns 0, or -1 with err set. */
static int copy_builds(sqlite3 *db, bo_err *err)
{
	static const char *const build_key[] = { "name", "digest", "library",
		"compiler", "cflags", NULL };
	int both = in_both(db, "builds", err);

	if (both <= 0)
		return both;
	if (copy_table(db, "builds", skip_id, 1,
		       "id IN (SELECT build_ref FROM src.libraries WHERE id IN"
		       " (SELECT id FROM temp.sel_lib))", err) < 0)
		return -1;
	return make_map(db, "map_build", "builds", build_key,
			"SELECT build_ref FROM src.libraries WHERE id IN"
			" (SELECT id FROM temp.sel_lib) AND build_ref IS NOT"
			" NULL", err);
}

/* Copy the rows the selected runs share with others - cpus, images and
 * their packages, libraries - where the destination has them not, and
 * map their ids (temp.map_cpu, map_image, map_lib). Returns 0, or -1
 * with err set. */
static int copy_shared(sqlite3 *db, bo_err *err)
{
	static const char *const image_key[] = { "distro", "release", "digest", NULL };
	static const char *const lib_key[] = { "name", "version", "soname", "path",
		"package", "package_version", NULL };

	/* shared rows: cpus, images (+ packages), libraries */
	if (copy_table(db, "cpus", skip_id, 1,
		       "id IN (SELECT cpu_id FROM src.runs WHERE id IN temp.sel)", err) < 0 ||
	    make_map(db, "map_cpu", "cpus", NULL,
		     "SELECT cpu_id FROM src.runs WHERE id IN temp.sel", err) < 0 ||
	    copy_table(db, "images", skip_id, 1,
		       "id IN (SELECT image_id FROM temp.sel_inv)", err) < 0 ||
	    make_map(db, "map_image", "images", image_key,
		     "SELECT image_id FROM temp.sel_inv", err) < 0 ||
	    copy_table(db, "image_packages", NULL, 1,
		       "image_id IN (SELECT image_id FROM temp.sel_inv)", err) < 0 ||
	    copy_builds(db, err) < 0 ||
	    copy_table(db, "libraries", skip_id, 1,
		       "id IN (SELECT id FROM temp.sel_lib)", err) < 0 ||
	    make_map(db, "map_lib", "libraries", lib_key,
		     "SELECT id FROM temp.sel_lib", err) < 0)
		return -1;
	return 0;
}

/* Copy the selected runs and their invocations, the invocations with the
 * ids allocated in advance in temp.map_inv (temp.map_run maps the runs).
 * Returns 0, or -1 with err set. */
static int copy_runs(sqlite3 *db, bo_err *err)
{
	char *cols = NULL, *sel = NULL, *sql;
	int rc;

	/* runs, then invocations with ids allocated in advance */
	if (copy_table(db, "runs", skip_id, 0, "id IN temp.sel", err) < 0 ||
	    exec(db, "CREATE TEMP TABLE map_run (old INTEGER PRIMARY KEY, new INTEGER);"
		 " INSERT INTO temp.map_run SELECT s.id, m.id"
		 " FROM src.runs s JOIN main.runs m ON m.uuid = s.uuid"
		 " WHERE s.id IN temp.sel;"
		 " CREATE TEMP TABLE map_inv (old INTEGER PRIMARY KEY, new INTEGER);"
		 " INSERT INTO temp.map_inv SELECT id,"
		 " (SELECT coalesce(max(id), 0) FROM main.invocations)"
		 "  + row_number() OVER (ORDER BY id)"
		 " FROM temp.sel_inv", err) < 0)
		return -1;
	/* invocations keep the ids allocated in map_inv */
	if (copy_lists(db, "invocations", skip_id, &cols, &sel, err) < 0)
		return -1;
	sql = xasprintf("INSERT INTO main.invocations (id, %s) SELECT"
			" (SELECT new FROM temp.map_inv WHERE old = s.id), %s"
			" FROM src.invocations s WHERE s.id IN"
			" (SELECT id FROM temp.sel_inv)", cols, sel);
	rc = exec(db, sql, err);
	free(sql);
	free(cols);
	free(sel);
	return rc < 0 ? -1 : 0;
}

/* Copy the results and key setups of the selected invocations, with
 * their raw samples. Returns 0, or -1 with err set. */
static int copy_results(sqlite3 *db, bo_err *err)
{
	int has;

	/* results and key setups keep ids allocated in advance: their raw
	 * samples refer to them (schema 5) */
	if (copy_keeping_ids(db, "results", "map_result", err) < 0 ||
	    (has = in_both(db, "keysetups", err)) < 0 ||
	    (has && copy_keeping_ids(db, "keysetups", "map_keysetup", err) < 0))
		return -1;
	if ((has = in_both(db, "samples", err)) < 0 ||
	    (has && copy_table(db, "samples", NULL, 0,
			       "result_id IN (SELECT old FROM temp.map_result)",
			       err) < 0))
		return -1;
	if ((has = in_both(db, "keysetup_samples", err)) < 0 ||
	    (has && copy_table(db, "keysetup_samples", NULL, 0,
			       "keysetup_id IN (SELECT old FROM temp.map_keysetup)",
			       err) < 0))
		return -1;
	return 0;
}

/* Copy the confirmations of the selected runs. Returns 0, or -1 with
 * err set. */
static int copy_confirmations(sqlite3 *db, bo_err *err)
{
	int has;

	/* confirmations (migration 12) hang off runs: what a confirmation
	 * run measured again and for which run. The confirmed run is found
	 * by its uuid (merged now or before; NULL when the destination has
	 * not got it, as when it is deleted), the images by the map. */
	if ((has = in_both(db, "confirmations", err)) < 0 ||
	    (has && (has = in_both(db, "confirmation_curves", err)) < 0))
		return -1;
	if (has && exec(db,
		 "INSERT INTO main.confirmations (run_id, confirmed_run_id,"
		 " distro, release, image_id, previous_image_id, previous_removed)"
		 " SELECT mr.new, (SELECT m.id FROM main.runs m JOIN src.runs s"
		 "  ON s.uuid = m.uuid WHERE s.id = c.confirmed_run_id),"
		 " c.distro, c.release,"
		 " (SELECT new FROM temp.map_image WHERE old = c.image_id),"
		 " (SELECT new FROM temp.map_image WHERE old = c.previous_image_id),"
		 " c.previous_removed"
		 " FROM src.confirmations c JOIN temp.map_run mr ON mr.old = c.run_id;"
		 " INSERT INTO main.confirmation_curves (run_id, distro, release,"
		 " library, algorithm, operation, mode)"
		 " SELECT mr.new, c.distro, c.release, c.library, c.algorithm,"
		 " c.operation, c.mode FROM src.confirmation_curves c"
		 " JOIN temp.map_run mr ON mr.old = c.run_id", err) < 0)
		return -1;
	return 0;
}

/* Copy every other table hanging off the selected invocations. Returns
 * 0, or -1 with err set. */
static int copy_inv_children(sqlite3 *db, bo_err *err)
{
	static const char *const inv_children_skip[] = { "id", NULL };
	sqlite3_stmt *st;
	int rc;

	/* every other table hanging off invocations, found in the schema.
	 * Not copied: verdicts and verdict_curves (migration 11) hang off
	 * runs, not invocations, and are derived data - the verdict of two
	 * runs depends on the history in the database it was made in, so
	 * compare --store re-derives it in the merged one (and with the
	 * confirmations above, the same confirmed states). */
	if (sqlite3_prepare_v2(db,
			       "SELECT m.name FROM main.sqlite_master m WHERE m.type = 'table'"
			       " AND m.name NOT IN ('invocations', 'results', 'keysetups')"
			       " AND EXISTS (SELECT 1 FROM"
			       " pragma_table_info(m.name, 'main') WHERE name = 'invocation_id')"
			       " AND EXISTS (SELECT 1 FROM src.sqlite_master s"
			       " WHERE s.type = 'table' AND s.name = m.name) ORDER BY m.name",
			       -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *table = xstrdup((const char *)sqlite3_column_text(st, 0));
		int r = copy_table(db, table, inv_children_skip, 0,
				   "invocation_id IN (SELECT id FROM temp.sel_inv)", err);

		free(table);
		if (r < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* Merge the runs NRUNS of RUNS (0: all) of the attached database src
 * into DB's main, step by step, in the caller's transaction; STATS gets
 * what was and was not merged. Returns 0, or -1 with err set. */
static int do_merge(sqlite3 *db, const int64_t *runs, size_t nruns,
		    struct merge_stats *stats, bo_err *err)
{
	if (want_runs(db, runs, nruns, err) < 0 ||
	    count_present(db, stats, err) < 0 ||
	    select_rows(db, err) < 0 || copy_shared(db, err) < 0 ||
	    copy_runs(db, err) < 0 || copy_results(db, err) < 0 ||
	    copy_confirmations(db, err) < 0 || copy_inv_children(db, err) < 0)
		return -1;
	stats->runs_added = (long)db_query_int(db, "SELECT count(*) FROM temp.map_run");
	/* counted in the source: main.results has no index on invocation_id */
	stats->results_added = (long)db_query_int(db, "SELECT count(*) FROM src.results WHERE"
				      " invocation_id IN (SELECT old FROM temp.map_inv)");
	if (stats->runs_added < 0 || stats->results_added < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* What attach_src changed on DST's connection, for detach_src. */
struct attach_saved {
	int defensive, trusted;
};

/* Attach the benchorch database SRC_PATH to DST as src, the one time it
 * is opened: first DST's connection is put in SQLite's defensive mode
 * and stops trusting schemas (SQLITE_DBCONFIG_TRUSTED_SCHEMA off, as
 * PRAGMA trusted_schema = OFF: a view or trigger of the foreign file can
 * call no function with side effects), as SV records to undo; then src's
 * user_version must be one this program knows. Returns 0, or -1 with
 * err set (then nothing is left attached or changed). */
static int attach_src(sqlite3 *dst, const char *src_path,
		      struct attach_saved *sv, bo_err *err)
{
	sqlite3_stmt *st;
	int rc, v = -1, off;

	sqlite3_db_config(dst, SQLITE_DBCONFIG_DEFENSIVE, -1, &sv->defensive);
	sqlite3_db_config(dst, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &sv->trusted);
	sqlite3_db_config(dst, SQLITE_DBCONFIG_DEFENSIVE, 1, &off);
	sqlite3_db_config(dst, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &off);
	if (sqlite3_prepare_v2(dst, "ATTACH ?1 AS src", -1, &st, NULL) != SQLITE_OK) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(dst));
		goto undo;
	}
	sqlite3_bind_text(st, 1, src_path, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "cannot attach '%s': %s", src_path,
			   sqlite3_errmsg(dst));
		goto undo;
	}
	if (sqlite3_prepare_v2(dst, "PRAGMA src.user_version", -1, &st,
			       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	if (v < 0)
		bo_err_set(err, "cannot read database '%s': %s", src_path,
			   sqlite3_errmsg(dst));
	sqlite3_finalize(st);
	/* the messages of db_open_readonly, which read it before */
	if (v == 0)
		bo_err_set(err, "'%s' is not a benchorch database (no schema): 'benchorch run' creates one",
			   src_path);
	else if (v > db_schema_version())
		bo_err_set(err, "database '%s' has schema version %d, newer than this benchorch (%d)",
			   src_path, v, db_schema_version());
	if (v > 0 && v <= db_schema_version())
		return 0;
	sqlite3_exec(dst, "DETACH src", NULL, NULL, NULL);
undo:
	sqlite3_db_config(dst, SQLITE_DBCONFIG_DEFENSIVE, sv->defensive, &off);
	sqlite3_db_config(dst, SQLITE_DBCONFIG_TRUSTED_SCHEMA, sv->trusted, &off);
	return -1;
}

/* Detach src from DST and give its connection back the settings SV
 * recorded. */
static void detach_src(sqlite3 *dst, const struct attach_saved *sv)
{
	int off;

	sqlite3_exec(dst, "DETACH src", NULL, NULL, NULL);
	sqlite3_db_config(dst, SQLITE_DBCONFIG_DEFENSIVE, sv->defensive, &off);
	sqlite3_db_config(dst, SQLITE_DBCONFIG_TRUSTED_SCHEMA, sv->trusted, &off);
}

/* DST's ids of the runs of src that are not 'running' (merged now or
 * before), appended to *IDS (*N of them). Returns 0, or -1 with err set. */
static int merged_ids(sqlite3 *dst, int64_t **ids, size_t *n, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(dst, "SELECT m.id FROM main.runs m JOIN src.runs s"
			       " ON s.uuid = m.uuid WHERE s.status <> 'running'"
			       " ORDER BY m.id", -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(dst));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(dst));
	return 0;
}

int merge_from(sqlite3 *dst, const char *src_path, const int64_t *runs,
	       size_t nruns, struct merge_stats *stats, bo_err *err)
{
	return merge_from_ids(dst, src_path, runs, nruns, stats, NULL, NULL,
			      err);
}

int merge_from_ids(sqlite3 *dst, const char *src_path, const int64_t *runs,
		   size_t nruns, struct merge_stats *stats, int64_t **ids,
		   size_t *nids, bo_err *err)
{
	struct attach_saved sv;
	struct stat sb;
	int rc;

	memset(stats, 0, sizeof(*stats));
	/* a source is another host's results, not this host's runs */
	if (access(src_path, F_OK) != 0)
		return bo_err_set(err, "cannot open '%s': %s (a database to merge is made on its host with 'benchorch export -o FILE')",
				  src_path, strerror(errno));
	if (stat(src_path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return bo_err_set(err, "cannot open database '%s': it is a directory (--db names the database file)",
				  src_path);
	/* refuses what is not a benchorch database, or a newer one */
	if (attach_src(dst, src_path, &sv, err) < 0)
		return -1;
	if (exec(dst, "BEGIN IMMEDIATE", err) < 0) {
		detach_src(dst, &sv);
		return -1;
	}
	rc = do_merge(dst, runs, nruns, stats, err);
	/* With foreign keys enforced (db_open turns them on) every row was
	 * checked as it was inserted; a full check would read the whole
	 * destination, once per merged file. */
	if (rc == 0) {
		long long on = db_query_int(dst, "PRAGMA foreign_keys");
		long long broken = on == 0 ? db_query_int(dst, "SELECT count(*)"
							  " FROM pragma_foreign_key_check") : 0;

		if (on < 0 || broken < 0)
			rc = bo_err_set(err, "database error: %s",
					sqlite3_errmsg(dst));
		else if (broken > 0)
			rc = bo_err_set(err, "merging '%s' would break foreign keys; nothing merged",
					src_path);
	}
	if (rc == 0 && ids)
		rc = merged_ids(dst, ids, nids, err);
	if (rc == 0)
		rc = exec(dst, "COMMIT", err);
	if (rc < 0) {
		const char *dst_path = sqlite3_db_filename(dst, "main");

		/* a COMMIT that failed (disk full) may leave it open too */
		sqlite3_exec(dst, "ROLLBACK", NULL, NULL, NULL);
		/* SQLite's own message names no file: say which two */
		if (db_err_reason(err) != err->msg) {
			char *why = xstrdup(db_err_reason(err));

			bo_err_set(err, "cannot copy runs from '%s' into '%s': %s; nothing copied",
				   src_path, dst_path && *dst_path ? dst_path :
				   "the database", why);
			free(why);
		}
	}
	sqlite3_exec(dst, "DROP TABLE IF EXISTS temp.want; DROP TABLE IF EXISTS temp.sel;"
		     " DROP TABLE IF EXISTS temp.sel_inv; DROP TABLE IF EXISTS temp.sel_lib;"
		     " DROP TABLE IF EXISTS temp.map_cpu; DROP TABLE IF EXISTS temp.map_image;"
		     " DROP TABLE IF EXISTS temp.map_lib; DROP TABLE IF EXISTS temp.map_run;"
		     " DROP TABLE IF EXISTS temp.map_inv; DROP TABLE IF EXISTS temp.map_result;"
		     " DROP TABLE IF EXISTS temp.map_keysetup", NULL, NULL, NULL);
	detach_src(dst, &sv);
	return rc < 0 ? -1 : 0;
}

int export_all(const char *src_path, const char *out_path, bo_err *err)
{
	sqlite3 *src = NULL, *out = NULL;
	sqlite3_backup *b;
	struct stat sb;
	int rc;

	if (stat(out_path, &sb) == 0)
		return bo_err_set(err, "'%s' exists; export writes a new file", out_path);
	if (db_open_readonly(src_path, &src, err) < 0)
		return -1;
	if (sqlite3_open_v2(out_path, &out, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		bo_err_set(err, "cannot create '%s': %s", out_path,
			   out ? sqlite3_errmsg(out) : "out of memory");
		goto fail;
	}
	b = sqlite3_backup_init(out, "main", src, "main");
	if (!b) {
		bo_err_set(err, "cannot export to '%s': %s", out_path,
			   sqlite3_errmsg(out));
		goto fail;
	}
	while ((rc = sqlite3_backup_step(b, 256)) == SQLITE_OK ||
	       rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		if (rc != SQLITE_OK)
			sqlite3_sleep(50);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "cannot export to '%s': %s", out_path,
			   sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_close(src);
	src = NULL;
	/* the backup copies pages as they are: a copy of a damaged
	 * database is refused */
	if (db_quick_check(out, err) < 0) {
		char *why = xstrdup(err->msg);

		bo_err_set(err, "cannot export '%s': %s", src_path, why);
		free(why);
		goto fail;
	}
	/* one file to carry: no -wal or -shm beside it */
	if (db_close_single_file(out, out_path, err) < 0) {
		db_remove_files(out_path);
		return -1;
	}
	return 0;
fail:
	sqlite3_close(src);
	sqlite3_close(out);
	db_remove_files(out_path);
	return -1;
}
