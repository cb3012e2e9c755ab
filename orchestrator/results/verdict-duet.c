/* verdict-duet.c - a confirmation's duet as a verdict (see
 * verdict-duet.h). */
#include "config.h"

#include <string.h>

#include "orchestrator/results/verdict-duet.h"

/* Column I of ST as a new string, "" for NULL. */
static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s ? (const char *)s : "");
}

int verdict_from_duet(sqlite3 *db, int64_t duet_id, const char *distro,
		      struct verdict_result *ret, bo_err *err)
{
	static const char sql[] =
		"SELECT library, algorithm, operation, mode, verdict, effect,"
		" low, high, p FROM duet_curves WHERE duet_id = ?1"
		" ORDER BY library, algorithm, operation, mode";
	sqlite3_stmt *st;
	size_t cap = 0;
	int step;

	memset(ret, 0, sizeof(*ret));
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, duet_id);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct verdict_curve *c;
		const char *v = (const char *)sqlite3_column_text(st, 4);
		int moved = v && (!strcmp(v, "slower") || !strcmp(v, "faster"));

		if (ret->ncurves == cap) {
			cap = cap ? 2 * cap : 16;
			ret->curves = xrealloc(ret->curves,
					       cap * sizeof(*ret->curves));
		}
		c = &ret->curves[ret->ncurves++];
		memset(c, 0, sizeof(*c));
		c->distro = xstrdup(distro);
		c->library = col(st, 0);
		c->algorithm = col(st, 1);
		c->operation = col(st, 2);
		c->mode = col(st, 3);
		c->variant = xstrdup("*");
		c->package = xstrdup("");
		c->base_version = xstrdup("");
		c->new_version = xstrdup("");
		c->effect = sqlite3_column_double(st, 5);
		c->ci_low = sqlite3_column_double(st, 6);
		c->ci_high = sqlite3_column_double(st, 7);
		c->p = c->q = sqlite3_column_double(st, 8);
		c->noise_within = c->noise_history = -1;
		c->confirmation = -1;
		c->halves = -1;
		c->state = moved ? VERDICT_CHANGED : VERDICT_UNCHANGED;
		if (moved) {
			ret->nchanged++;
			if (c->effect < 0)
				ret->nregressions++;
			else
				ret->nimprovements++;
		}
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		verdict_result_free(ret);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	return 0;
}
