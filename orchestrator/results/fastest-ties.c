/* fastest-ties.c - which libraries the pairs of a run cannot tell apart
 * from the fastest (see fastest.h, fastest_mark_ties). */
#include "config.h"

#include <string.h>

#include "db/db.h"
#include "orchestrator/results/fastest.h"

/* The group of T for (RUN, DISTRO, ALGO, OP), or NULL. */
static struct fastest_group *find_group(struct fastest_table *t, int64_t run,
					const char *distro, const char *algo,
					const char *op)
{
	for (size_t i = 0; i < t->ngroups; i++) {
		struct fastest_group *g = &t->groups[i];

		if (g->run_id == run && strcmp(g->distro, distro) == 0 &&
		    strcmp(g->algorithm, algo) == 0 &&
		    strcmp(g->operation, op) == 0)
			return g;
	}
	return NULL;
}

/* G's library NAME, or NULL. */
static struct fastest_lib *find_lib(struct fastest_group *g, const char *name)
{
	for (size_t i = 0; i < g->nlibs; i++)
		if (strcmp(g->libs[i].library, name) == 0)
			return &g->libs[i];
	return NULL;
}

const char *fastest_pair_tied(const char *fastest, const char *lib,
			      const char *versus, double ratio, int tie)
{
	/* LIB tied with the fastest in this invocation */
	if (tie && strcmp(versus, fastest) == 0)
		return lib;
	/* the fastest was the slower of the pair here, or not told apart
	 * (a build's pair against its shipped library can have it the
	 * faster, ratio > 1): the invocations disagree */
	if (strcmp(lib, fastest) == 0 && (tie || ratio <= 1))
		return versus;
	return NULL;
}

int fastest_mark_ties(sqlite3 *db, struct fastest_table *t, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = db_prepare_optional(db,
		"SELECT run_id, distro || coalesce(':' || release, ''),"
		" algorithm, operation, library, versus, tie, ratio FROM pairs_v"
		" WHERE mode = 'bulk' AND buffer_bytes = ?1"
		" AND operation IN ('encrypt', 'hash')", &st);
	if (rc < 0)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	if (rc == 0)
		return 0;	/* a schema before pairs: no pairs */
	sqlite3_bind_int(st, 1, FASTEST_LARGE);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *distro = (const char *)sqlite3_column_text(st, 1);
		const char *algo = (const char *)sqlite3_column_text(st, 2);
		const char *op = (const char *)sqlite3_column_text(st, 3);
		const char *lib = (const char *)sqlite3_column_text(st, 4);
		const char *versus = (const char *)sqlite3_column_text(st, 5);
		int tie = sqlite3_column_int(st, 6);
		struct fastest_group *g;
		struct fastest_lib *l = NULL;
		const char *tied;

		if (!distro || !algo || !op || !lib || !versus)
			continue;
		g = find_group(t, sqlite3_column_int64(st, 0), distro, algo,
			       op);
		if (!g || g->nlibs < 2 || g->libs[0].large_mbps <= 0)
			continue;
		tied = fastest_pair_tied(g->libs[0].library, lib, versus,
					 sqlite3_column_double(st, 7), tie);
		if (tied)
			l = find_lib(g, tied);
		if (l && l != &g->libs[0] && l->large_mbps > 0)
			l->large_tie = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}
