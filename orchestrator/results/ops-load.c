/* ops-load.c - read the public-key and key derivation results of runs
 * (see ops-load.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/results/ops-fastest.h"
#include "orchestrator/results/ops-load.h"
#include "orchestrator/results/results-kdf.h"

/* %1$s the view, %2$s the build expression, %3$s the operation column,
 * %4$s the order of the operations within an algorithm, %5$s why a
 * result is not verified (NULL: not known). ?1 is the run. */
static const char rows_fmt[] =
	"SELECT coalesce(v.distro || coalesce(':' || v.release, ''), ''),"
	" v.variant, %2$s AS o_build, v.library, coalesce(max(v.package_version), ''),"
	" v.algorithm, %3$s, 1e9 / avg(v.ns_per_op), min(v.verified),"
	" count(*), %5$s FROM %1$s v WHERE v.run_id = ?1"
	" GROUP BY 1, 2, 3, 4, 6, 7"
	" ORDER BY 1, 2, 6, %4$s 7, o_build <> 'shipped', 3, 4";

/* pubkey_v predates builds (schema 20): the build of its library row */
static const char pubkey_build[] =
	"coalesce((SELECT b.name FROM pubkey_results p JOIN libraries l"
	" ON l.id = p.library_id JOIN builds b ON b.id = l.build_ref"
	" WHERE p.id = v.pubkey_result_id), 'shipped')";

const char *ops_kind_name(enum ops_kind kind)
{
	return kind == OPS_KDF ? "key derivation" : "public key";
}

/* The query for KIND in DB, newly allocated. Returns NULL with err set
 * on a database error. */
static char *rows_sql(sqlite3 *db, enum ops_kind kind, bo_err *err)
{
	int builds;

	if (kind == OPS_KDF)
		return xasprintf(rows_fmt, results_kdf_source(), "v.build",
				 "v.params",
				 "min(v.memory_kib), min(v.iterations),",
				 "min(v.unverified_reason)");
	builds = db_has(db, "builds");
	if (builds < 0) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		return NULL;
	}
	return xasprintf(rows_fmt, "pubkey_v",
			 builds ? pubkey_build : "'shipped'", "v.operation", "",
			 "NULL");
}

long ops_rows_load(sqlite3 *db, enum ops_kind kind, const int64_t *runs,
		   size_t nruns, struct ops_row **ret, bo_err *err)
{
	struct ops_row *v = NULL;
	sqlite3_stmt *st;
	char *sql;
	size_t n = 0;
	int rc = SQLITE_DONE;

	*ret = NULL;
	switch (db_has(db, kind == OPS_KDF ? "kdf_v" : "pubkey_v")) {
	case 0:
		return 0;
	case -1:
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	sql = rows_sql(db, kind, err);
	if (!sql)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		free(sql);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	free(sql);
	for (size_t i = 0; i < nruns && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, runs[i]);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			struct ops_row *r;

			v = xrealloc(v, (n + 1) * sizeof(*v));
			r = &v[n++];
			r->run_id = runs[i];
			r->distro = db_column_dup_or_empty(st, 0);
			r->variant = db_column_dup_or_empty(st, 1);
			r->build = db_column_dup_or_empty(st, 2);
			r->library = db_column_dup_or_empty(st, 3);
			r->version = db_column_dup_or_empty(st, 4);
			r->algorithm = db_column_dup_or_empty(st, 5);
			r->operation = db_column_dup_or_empty(st, 6);
			r->ops_per_s = sqlite3_column_double(st, 7);
			r->verified = sqlite3_column_int(st, 8) == 1;
			r->invocations = sqlite3_column_int(st, 9);
			r->why = sqlite3_column_type(st, 10) == SQLITE_NULL ?
				 NULL : db_column_dup_or_empty(st, 10);
		}
	}
	if (rc != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		ops_rows_free(v, n);
		return -1;
	}
	sqlite3_finalize(st);
	if (ops_mark_ties(db, kind, v, n, err) < 0) {
		ops_rows_free(v, n);
		return -1;
	}
	*ret = v;
	return (long)n;
}

char *ops_row_label(const struct ops_row *r)
{
	return strcmp(r->build, "shipped") == 0 ? xstrdup(r->library) :
	       xasprintf("%s@%s", r->library, r->build);
}

void ops_rows_free(struct ops_row *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].distro);
		free(v[i].variant);
		free(v[i].build);
		free(v[i].library);
		free(v[i].version);
		free(v[i].algorithm);
		free(v[i].operation);
		free(v[i].why);
	}
	free(v);
}

int64_t ops_latest_run(sqlite3 *db)
{
	static const char *const tables[] = { "pubkey_results", "kdf_results" };
	char *sql = xstrdup(""), *t;
	sqlite3_stmt *st;
	int64_t id = 0;
	int k, conf = db_has(db, "confirmations");

	if (conf < 0)
		goto fail;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		k = db_has(db, tables[i]);
		if (k < 0)
			goto fail;
		if (!k)
			continue;
		t = xasprintf("%s%sEXISTS (SELECT 1 FROM invocations i JOIN %s x"
			      " ON x.invocation_id = i.id WHERE i.run_id = r.id)",
			      sql, *sql ? " OR " : "", tables[i]);
		free(sql);
		sql = t;
	}
	if (!*sql) {
		free(sql);
		return 0;
	}
	t = xasprintf("SELECT r.id FROM runs r WHERE r.status = 'done'%s AND"
		      " (%s) ORDER BY r.started_at DESC, r.id DESC LIMIT 1",
		      conf ? " AND r.id NOT IN (SELECT run_id FROM"
			     " confirmations)" : "", sql);
	free(sql);
	sql = t;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto fail;
	free(sql);
	k = sqlite3_step(st);
	if (k == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return k == SQLITE_ROW || k == SQLITE_DONE ? id : -1;
fail:
	free(sql);
	return -1;
}

long ops_runs_count(sqlite3 *db, const int64_t *runs, size_t nruns,
		    bo_err *err)
{
	long total = 0;

	for (int kind = OPS_PUBKEY; kind <= OPS_KDF; kind++) {
		struct ops_row *v;
		long n = ops_rows_load(db, (enum ops_kind)kind, runs, nruns,
				       &v, err);

		if (n < 0)
			return -1;
		ops_rows_free(v, (size_t)n);
		total += n;
	}
	return total;
}
