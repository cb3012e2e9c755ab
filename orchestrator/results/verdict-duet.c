/* verdict-duet.c - a confirmation's duet as a verdict (see
 * verdict-duet.h). */
#include "config.h"

#include <stdlib.h>
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
	/* the package of the new side, its version on each side */
#define LIBCOL(what, side) \
	" (SELECT " what " FROM duet_libraries l WHERE l.duet_id ="	\
	" c.duet_id AND l.library = c.library AND l.side = '" side "'"	\
	" LIMIT 1)"
	static const char sql[] =
		"SELECT library, algorithm, operation, mode, verdict, effect,"
		" low, high, p, tested," LIBCOL("package", "new") ","
		LIBCOL("package_version", "base") ","
		LIBCOL("package_version", "new")
		" FROM duet_curves c WHERE duet_id = ?1"
		" ORDER BY library, algorithm, operation, mode";
#undef LIBCOL
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
		c->package = col(st, 10);
		c->base_version = col(st, 11);
		c->new_version = col(st, 12);
		c->effect = sqlite3_column_double(st, 5);
		c->ci_low = sqlite3_column_double(st, 6);
		c->ci_high = sqlite3_column_double(st, 7);
		c->p = c->q = sqlite3_column_double(st, 8);
		c->paired = sqlite3_column_int(st, 9) != 0;
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

/* The curve of D (a duet's verdict, variant "*") that names the curve
 * V, or NULL. */
static const struct verdict_curve *duet_twin(const struct verdict_result *d,
					     const struct verdict_curve *v)
{
	for (size_t k = 0; k < d->ncurves; k++) {
		const struct verdict_curve *w = &d->curves[k];

		if (!strcmp(v->distro, w->distro) &&
		    !strcmp(v->library, w->library) &&
		    !strcmp(v->algorithm, w->algorithm) &&
		    !strcmp(v->operation, w->operation) &&
		    !strcmp(v->mode, w->mode))
			return w;
	}
	return NULL;
}

/* Replace the string *DST by a copy of SRC. */
static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = xstrdup(src);
}

/* Count R's curves by state again (as verdict_decide counts them). */
static void recount(struct verdict_result *r)
{
	r->nchanged = r->nconfirmed = r->nflagged = 0;
	r->nregressions = r->nimprovements = r->nconfirmed_regressions = 0;
	for (size_t i = 0; i < r->ncurves; i++) {
		const struct verdict_curve *v = &r->curves[i];

		if (v->state == VERDICT_FLAGGED) {
			r->nflagged++;
			continue;
		}
		if (v->state == VERDICT_UNCHANGED)
			continue;
		r->nchanged++;
		if (v->effect < 0)
			r->nregressions++;
		else
			r->nimprovements++;
		if (v->state == VERDICT_CONFIRMED) {
			r->nconfirmed++;
			if (v->effect < 0)
				r->nconfirmed_regressions++;
		}
	}
}

void verdict_apply_duet(struct verdict_result *r, const char *distro,
			const struct verdict_result *d, size_t *ret_decided,
			size_t *ret_slower, size_t *ret_faster)
{
	for (size_t i = 0; i < r->ncurves; i++) {
		struct verdict_curve *v = &r->curves[i];
		const struct verdict_curve *w;

		if (strcmp(v->distro, distro))
			continue;
		w = duet_twin(d, v);
		if (!w || !w->paired)
			continue;	/* a control, or not measured */
		v->paired = 1;
		(*ret_decided)++;
		if (w->package[0]) {
			set_str(&v->package, w->package);
			set_str(&v->base_version, w->base_version);
			set_str(&v->new_version, w->new_version);
		}
		if (w->state == VERDICT_UNCHANGED) {
			if (v->state != VERDICT_UNCHANGED)
				v->confirmation = 0;
			v->state = VERDICT_UNCHANGED;
			continue;
		}
		v->state = VERDICT_CONFIRMED;
		v->confirmation = 1;
		v->effect = w->effect;
		v->ci_low = w->ci_low;
		v->ci_high = w->ci_high;
		v->p = w->p;
		v->q = w->q;
		if (w->effect < 0)
			(*ret_slower)++;
		else
			(*ret_faster)++;
	}
	recount(r);
}
