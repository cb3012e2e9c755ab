/* confirm-targets.c - the distributions of a run being confirmed, their
 * images and curves (confirm-targets.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "images/image.h"
#include "images/previous.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "orchestrator/run/confirm-targets.h"

/* The distributions RUN measured (an image and a guest that ran). */
int confirm_targets_load(sqlite3 *db, int64_t run,
			 struct confirm_target **ret, size_t *ret_n,
			 bo_err *err)
{
	sqlite3_stmt *st;
	struct confirm_target *v = NULL;
	size_t n = 0;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT im.distro, im.release,"
			       " im.digest FROM invocations inv JOIN images im"
			       " ON im.id = inv.image_id WHERE inv.run_id = ?1"
			       " AND inv.status = 'ok' ORDER BY 1, 2, 3", -1,
			       &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xrealloc(v, (n + 1) * sizeof(*v));
		memset(&v[n], 0, sizeof(*v));
		v[n].distro = db_column_dup_or_empty(st, 0);
		v[n].release = db_column_dup_or_empty(st, 1);
		v[n].digest = db_column_dup_or_empty(st, 2);
		v[n].spec = xasprintf("%s:%s", v[n].distro, v[n].release);
		n++;
	}
	sqlite3_finalize(st);
	*ret = v;
	*ret_n = n;
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* Find T's image under STATE_DIR (the one with its distro and release,
 * not a previous) and the previous kept beside it. Says on stderr why
 * when there is none or it changed since the run. */
void confirm_target_find_images(const struct confirm_config *cc,
				int64_t run, struct confirm_target *t)
{
	struct image **v;
	size_t n, i;
	bo_err err;

	if (image_list(cc->state_dir, &v, &n, &err) < 0) {
		cli_warn("%s", err.msg);
		return;
	}
	for (i = 0; i < n && !t->img; i++)
		if (!v[i]->previous && !strcmp(v[i]->distro, t->distro) &&
		    !strcmp(v[i]->release, t->release) &&
		    !strcmp(v[i]->digest, t->digest)) {
			t->img = v[i];
			v[i] = NULL;
		}
	image_list_free(v, n);
	if (!t->img) {
		cli_warn("%s: the image run %lld measured is gone or was "
			 "rebuilt since; not confirmed", t->spec,
			 (long long)run);
		return;
	}
	if (image_previous_find(t->img, &t->prev, &err) < 0)
		cli_warn("%s: cannot read its previous image: %s", t->spec,
			 err.msg);
}

/* The curves of T: those given (ALL, every distribution) or those of
 * CHANGED for T's distribution. */
void confirm_target_pick_curves(struct confirm_target *t,
				const struct confirm_curve *all, size_t nall,
				const struct confirm_curve *changed,
				size_t nchanged)
{
	const struct confirm_curve *src = all ? all : changed;
	size_t n = all ? nall : nchanged, i;

	for (i = 0; i < n; i++) {
		struct confirm_curve *c;

		if (!all && strcmp(src[i].distro, t->spec) != 0)
			continue;
		t->curves = xrealloc(t->curves, (t->ncurves + 1) *
				     sizeof(*t->curves));
		c = &t->curves[t->ncurves++];
		c->distro = xstrdup(t->spec);
		c->library = xstrdup(src[i].library);
		c->algorithm = xstrdup(src[i].algorithm);
		c->operation = xstrdup(src[i].operation);
		c->mode = xstrdup(src[i].mode);
		c->kind = src[i].kind;
	}
	t->dbc = xcalloc(t->ncurves + 1, sizeof(*t->dbc));
	for (i = 0; i < t->ncurves; i++)
		t->dbc[i] = (struct db_confirm_curve){
			.library = t->curves[i].library,
			.algorithm = t->curves[i].algorithm,
			.operation = t->curves[i].operation,
			.mode = t->curves[i].mode,
		};
}

/* Remove T's previous image (its confirmation is done). Returns 0, or -1
 * after saying why. */
int confirm_target_remove_previous(const struct confirm_config *cc,
				   struct confirm_target *t)
{
	struct image_ctx ictx = {
		.state_dir = cc->state_dir,
		.data_dir = cc->data_dir,
	};
	bo_err err;

	if (image_remove(&ictx, t->prev, &err) < 0) {
		cli_warn("%s: cannot remove the previous image: %s", t->spec,
			 err.msg);
		return -1;
	}
	return 0;
}

void confirm_targets_free(struct confirm_target *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(t[i].distro);
		free(t[i].release);
		free(t[i].digest);
		free(t[i].spec);
		image_free(t[i].img);
		image_free(t[i].prev);
		confirm_curves_free(t[i].curves, t[i].ncurves);
		free(t[i].dbc);
		free(t[i].duet_libs);
		free(t[i].duet_algos);
	}
	free(t);
}

/* The number of distributions of run RUN in DB whose image (the one the
 * run measured) has a previous kept beside it under STATE_DIR, in
 * *RET. Returns 0, or -1 with err set on a database error. */
int confirm_kept_previous(sqlite3 *db, const char *state_dir, int64_t run,
			  size_t *ret, bo_err *err)
{
	struct confirm_target *t;
	struct image **v;
	size_t nt, n, i, k, found = 0;
	bo_err ierr;	/* an image that cannot be read counts as none */

	*ret = 0;
	if (confirm_targets_load(db, run, &t, &nt, err) < 0)
		return -1;
	if (image_list(state_dir, &v, &n, &ierr) == 0) {
		for (i = 0; i < nt; i++)
			for (k = 0; k < n; k++) {
				struct image *prev = NULL;

				if (v[k]->previous ||
				    strcmp(v[k]->distro, t[i].distro) ||
				    strcmp(v[k]->release, t[i].release) ||
				    strcmp(v[k]->digest, t[i].digest))
					continue;
				if (image_previous_find(v[k], &prev, &ierr) == 0 &&
				    prev)
					found++;
				image_free(prev);
			}
		image_list_free(v, n);
	}
	confirm_targets_free(t, nt);
	*ret = found;
	return 0;
}
