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

/* Whether V[0..N) has a target of image NAME. */
static int has_name(const struct confirm_target *v, size_t n,
		    const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return 1;
	return 0;
}

/* The images RUN measured (an image and a guest that ran), each by the
 * name its spec gave then (image_measured_name). */
int confirm_targets_load(sqlite3 *db, const char *data_dir, int64_t run,
			 struct confirm_target **ret, size_t *ret_n,
			 bo_err *err)
{
	sqlite3_stmt *st;
	struct confirm_target *v = NULL;
	size_t n = 0;
	int rc, bad = 0;

	*ret = NULL;
	*ret_n = 0;
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT im.distro, im.release,"
			       " im.digest, inv.spec FROM invocations inv"
			       " JOIN images im ON im.id = inv.image_id"
			       " WHERE inv.run_id = ?1 AND inv.status = 'ok'"
			       " ORDER BY 1, 2, 3, 4", -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *release = (const char *)sqlite3_column_text(st, 1);
		const char *spec = (const char *)sqlite3_column_text(st, 3);
		char *name;
		bo_err e;

		if (image_measured_name(data_dir, spec ? spec : "",
					release ? release : "", &name, &e) < 0) {
			bad = 1;
			bo_err_set(err, "run %lld measured the image spec '%s': %s",
				   (long long)run, spec ? spec : "", e.msg);
			break;
		}
		if (has_name(v, n, name)) {	/* "debian", "debian:bookworm" */
			free(name);
			continue;
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		memset(&v[n], 0, sizeof(*v));
		v[n].distro = db_column_dup_or_empty(st, 0);
		v[n].release = db_column_dup_or_empty(st, 1);
		v[n].digest = db_column_dup_or_empty(st, 2);
		v[n].name = name;
		v[n].spec = xasprintf("%s:%s", v[n].distro, v[n].release);
		n++;
	}
	sqlite3_finalize(st);
	*ret = v;
	*ret_n = n;
	if (bad)
		return -1;
	if (rc != SQLITE_DONE)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	return 0;
}

/* The image T's run measured, by its name under STATE_DIR (DATA_DIR's
 * recipes: image_find), into *RET (the caller frees it). Never another
 * image with the same distro, release and digest. Returns 0, 1 when it
 * was rebuilt since (another digest; *RET NULL), or -1 with ERR set when
 * it is gone ("no image 'NAME' in 'DIR'"). */
static int find_measured(const char *state_dir, const char *data_dir,
			 const struct confirm_target *t, struct image **ret,
			 bo_err *err)
{
	struct image_ctx ictx = {
		.state_dir = state_dir,
		.data_dir = data_dir,
	};

	*ret = NULL;
	if (image_find(&ictx, t->name, ret, err) < 0)
		return -1;
	if ((*ret)->previous || strcmp((*ret)->digest, t->digest)) {
		image_free(*ret);
		*ret = NULL;
		return 1;
	}
	return 0;
}

/* Find T's image under STATE_DIR (the one the run measured, by name)
 * and the previous kept beside it. Says on stderr why when it is gone
 * (T->gone set) or changed since the run. */
void confirm_target_find_images(const struct confirm_config *cc,
				int64_t run, struct confirm_target *t)
{
	bo_err err;
	int k = find_measured(cc->state_dir, cc->data_dir, t, &t->img, &err);

	if (k < 0) {
		t->gone = 1;
		cli_error("%s: the image '%s' run %lld measured is gone (%s); not confirmed",
			  t->spec, t->name, (long long)run, err.msg);
		return;
	}
	if (k > 0) {
		cli_warn("%s: the image '%s' run %lld measured was rebuilt "
			 "since; not confirmed", t->spec, t->name,
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
		free(t[i].name);
		image_free(t[i].img);
		image_free(t[i].prev);
		confirm_curves_free(t[i].curves, t[i].ncurves);
		free(t[i].dbc);
		free(t[i].duet_libs);
		free(t[i].duet_algos);
	}
	free(t);
}

/* The number of images run RUN in DB measured that have a previous kept
 * beside them under STATE_DIR (each found by the name the run used). */
int confirm_kept_previous(sqlite3 *db, const char *state_dir,
			  const char *data_dir, int64_t run, size_t *ret,
			  bo_err *err)
{
	struct confirm_target *t;
	size_t nt, i, found = 0;
	bo_err ierr;	/* an image that cannot be read counts as none */

	*ret = 0;
	if (confirm_targets_load(db, data_dir, run, &t, &nt, err) < 0) {
		confirm_targets_free(t, nt);
		return -1;
	}
	for (i = 0; i < nt; i++) {
		struct image *img = NULL, *prev = NULL;

		if (find_measured(state_dir, data_dir, &t[i], &img, &ierr) == 0 &&
		    image_previous_find(img, &prev, &ierr) == 0 && prev)
			found++;
		image_free(prev);
		image_free(img);
	}
	confirm_targets_free(t, nt);
	*ret = found;
	return 0;
}
