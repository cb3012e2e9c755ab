/* verdict.c - judge each curve measured on both sides of a comparison:
 * effect, interval, p and q, the noise it was judged against, and its
 * state (orchestrator/results/verdicts.md). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/confirmations.h"
#include "db/db.h"
#include "db/duets.h"
#include "orchestrator/results/verdict-curve.h"
#include "orchestrator/results/verdict-duet.h"
#include "orchestrator/results/verdict-judge.h"
#include "orchestrator/results/verdict-load.h"
#include "orchestrator/results/verdict-stats.h"
#include "orchestrator/results/verdict.h"

static void free_strs(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}


static int compare_sides(sqlite3 *db, struct verdict_sel base,
			 struct verdict_sel new, double threshold, double alpha,
			 int with_confirmation, struct verdict_result *ret,
			 bo_err *err);


/* The latest duet of confirmation run CONF for DISTRO ("NAME:RELEASE")
 * into *RET (0 = none). Returns 0, or -1 with err set. */
static int duet_of(sqlite3 *db, int64_t conf, const char *distro,
		   int64_t *ret, bo_err *err)
{
	const char *colon = strchr(distro, ':');
	char *name = xstrdup(distro);
	int rc;

	*ret = 0;
	if (!colon) {
		free(name);
		return 0;
	}
	name[colon - distro] = '\0';
	rc = db_duet_of_confirmation(db, conf, name, colon + 1, ret, err);
	free(name);
	return rc < 0 ? -1 : 0;
}

/* Let duet DUET of confirmation run CONF, read into D, decide R's curves
 * of DISTRO whose library it had under test (verdict_apply_duet), and
 * say so in a caveat naming those libraries. */
static void duet_decides(struct verdict_result *r, const char *distro,
			 int64_t conf, int64_t duet,
			 const struct verdict_result *d)
{
	size_t decided = 0, slower = 0, faster = 0;
	char *libs = xstrdup("");

	verdict_apply_duet(r, distro, d, &decided, &slower, &faster);
	if (!decided) {
		free(libs);
		return;
	}
	for (size_t i = 0; i < d->ncurves; i++) {
		const struct verdict_curve *w = &d->curves[i];
		char *s;

		if (!w->paired || (i > 0 && w[-1].paired &&
				   !strcmp(w[-1].library, w->library)))
			continue;	/* sorted by library */
		s = xasprintf("%s%s%s", libs, *libs ? ", " : "", w->library);
		free(libs);
		libs = s;
	}
	verdict_add_caveat(r, "confirmation run %lld's duet %lld decides the %zu curve%s of %s's librar%s whose package or build changed (%s), whatever the runs alone show: %zu slower, %zu faster",
			   (long long)conf, (long long)duet, decided,
			   decided == 1 ? "" : "s", distro,
			   strchr(libs, ',') ? "ies" : "y", libs, slower,
			   faster);
	free(libs);
}

/* When both sides of R are whole runs and the new run has a finished
 * confirmation run, decide R's "confirmed" from that run's verdicts,
 * distribution by distribution (orchestrator/results/verdicts.md); a
 * duet of the confirmation decides the curves of the libraries under
 * test in it whatever R found (also when nothing looked changed). A
 * distribution whose confirmation cannot be judged keeps the rule
 * without, with a caveat. Returns 0 (also when there is no
 * confirmation), or -1 with err set on a database error. */
static int use_confirmation(sqlite3 *db, struct verdict_result *r,
			    bo_err *err)
{
	static const char sql[] =
		"SELECT distro || ':' || release, image_id, previous_image_id"
		" FROM confirmations WHERE run_id = ?1 AND image_id IS NOT NULL"
		" ORDER BY distro, release";
	size_t held = 0, not_held = 0, measured = 0, ch_again = 0;
	size_t fl_changed = 0, fl_quiet = 0, fl_again = 0;
	int only_duets = r->nchanged == 0 && r->nflagged == 0;
	char *names = xstrdup("");
	sqlite3_stmt *st = NULL;
	int64_t conf;
	int rc = -1, step, has;

	if (r->base.image || r->new.image || r->base.run == r->new.run) {
		free(names);
		return 0;
	}
	/* a schema before confirmations has none */
	has = db_has(db, "confirmations");
	if (has <= 0) {
		free(names);
		return has < 0 ? bo_err_set(err, "database error: %s",
					    sqlite3_errmsg(db)) : 0;
	}
	conf = db_confirmed_by(db, r->new.run);
	if (conf < 0) {
		free(names);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	if (conf == 0) {
		free(names);
		return 0;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_bind_int64(st, 1, conf);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		char *distro = xstrdup((const char *)sqlite3_column_text(st, 0));
		int64_t img = sqlite3_column_int64(st, 1);
		int64_t prev = sqlite3_column_int64(st, 2);	/* NULL: 0 */
		struct verdict_sel b = { r->base.run, 0 }, n = { conf, 0 };
		struct verdict_result c;
		int64_t duet = 0;
		int rc2;

		if (prev) {
			b.run = conf;
			b.image = prev;
			n.image = img;
		}
		/* the previous and the new image side by side: the paired
		 * verdict decides (a duet of the confirmation), else the
		 * alternating rounds */
		if (duet_of(db, conf, distro, &duet, err) < 0) {
			free(distro);
			goto out;
		}
		if (!duet && only_duets) {
			/* nothing changed that rounds could hold */
			free(distro);
			continue;
		}
		if (duet) {
			rc2 = verdict_from_duet(db, duet, distro, &c, err);
			if (rc2 == 0)
				verdict_add_caveat(r, "confirmation run %lld measured %s's previous and new image side by side (duet %lld): its paired verdicts decide",
						   (long long)conf, distro,
						   (long long)duet);
		} else {
			rc2 = compare_sides(db, b, n, r->threshold, r->alpha,
					    0, &c, err);
		}
		if (rc2 < 0) {
			/* e.g. an image it did not measure after all: the
			 * rule without a confirmation, and said so */
			verdict_add_caveat(r, "confirmation run %lld could not be judged for %s (%s): its changes keep the rule without a confirmation",
					   (long long)conf, distro, err->msg);
			free(distro);
			continue;
		}
		measured++;
		verdict_apply_confirmation(r, distro, &c, &held, &not_held, &ch_again,
				   &names);
		verdict_apply_flagged(r, distro, &c, &fl_changed, &fl_quiet, &fl_again);
		if (duet)
			duet_decides(r, distro, conf, duet, &c);
		verdict_result_free(&c);
		free(distro);
	}
	if (step != SQLITE_DONE) {
		bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		goto out;
	}
	if (measured)
		r->confirm_run = conf;
	if (ch_again)
		verdict_add_caveat(r, "confirmation run %lld measured %zu changed curve%s again while its canary moved: %s kept the rule without a confirmation",
				   (long long)conf, ch_again,
				   ch_again == 1 ? "" : "s",
				   ch_again == 1 ? "it" : "they");
	if (fl_changed || fl_quiet || fl_again)
		verdict_add_caveat(r, "confirmation run %lld measured %zu flagged curve%s again (its canary had moved): %zu changed, %zu unchanged, %zu flagged again",
				   (long long)conf, fl_changed + fl_quiet + fl_again,
				   fl_changed + fl_quiet + fl_again == 1 ? "" : "s",
				   fl_changed, fl_quiet, fl_again);
	if (held || not_held) {
		char *more = not_held > 8 ?
			     xasprintf(" and %zu more", not_held - 8) :
			     xstrdup("");

		verdict_add_caveat(r, "confirmation run %lld measured %zu changed curve%s again: %zu held (confirmed), %zu did not hold (not confirmed)%s%s%s",
				   (long long)conf, held + not_held,
				   held + not_held == 1 ? "" : "s", held,
				   not_held, not_held ? ": " : "", names, more);
		free(more);
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	free(names);
	return rc;
}

int verdict_compare(sqlite3 *db, struct verdict_sel base, struct verdict_sel new,
		    double threshold, double alpha, struct verdict_result *ret,
		    bo_err *err)
{
	return compare_sides(db, base, new, threshold, alpha, 1, ret, err);
}

/* verdict_compare; the confirmation run is looked at only when
 * WITH_CONFIRMATION (not for the confirmation's own verdict). */
static int compare_sides(sqlite3 *db, struct verdict_sel base,
			 struct verdict_sel new, double threshold, double alpha,
			 int with_confirmation, struct verdict_result *ret,
			 bo_err *err)
{
	struct verdict_result r = { .base = base, .new = new,
				    .threshold = threshold, .alpha = alpha };
	struct vrows b = { 0 }, n = { 0 }, h = { 0 };
	char *bv = NULL, *nv = NULL, **mb = NULL, **mn = NULL;
	size_t nmb = 0, nmn = 0, nc = 0;
	struct ccurve *cs = NULL;
	int any_variant, rc = -1;

	if (vload_check_sel(db, base, err) < 0 || vload_check_sel(db, new, err) < 0)
		return -1;
	if (vload_variants(db, base, &bv, err) < 0 ||
	    vload_variants(db, new, &nv, err) < 0) {
		free(bv);
		return -1;
	}
	/* sides that share no variant (a --nohw run against a normal one)
	 * are matched regardless of it, as compare --points does */
	any_variant = 1;
	{
		char *copy = xstrdup(bv), *tok, *save = NULL;

		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char *pat = xasprintf(",%s,", tok), *in = xasprintf(",%s,", nv);

			if (strstr(in, pat))
				any_variant = 0;
			free(pat);
			free(in);
		}
		free(copy);
		if (!*bv || !*nv)
			any_variant = 0;
	}
	if (vload_side(db, base, any_variant, &b, err) < 0 ||
	    vload_side(db, new, any_variant, &n, err) < 0 ||
	    vload_history(db, base, new, any_variant, &h, err) < 0)
		goto out;
	if (vload_moved_canaries(db, base, any_variant, &mb, &nmb, err) < 0 ||
	    vload_moved_canaries(db, new, any_variant, &mn, &nmn, err) < 0)
		goto out;
	nc = vc_build(&b, &n, &h, mb, nmb, mn, nmn, &cs);
	if (vload_caveats(db, &r, bv, nv, err) < 0)
		goto out;
	verdict_decide(&r, cs, nc, with_confirmation);
	verdict_mdes(&r);
	if (package_changes_load(db, r.base.run, r.base.image, r.new.run,
				 r.new.image, &r.changes, &r.nchanges,
				 err) < 0 ||
	    (with_confirmation && use_confirmation(db, &r, err) < 0))
		goto out;
	r.base_variant = xstrdup(bv);
	r.new_variant = xstrdup(nv);
	*ret = r;
	memset(&r, 0, sizeof(r));
	rc = 0;
out:
	vc_free(cs, cs ? nc : 0);
	free_strs(mb, mb ? nmb : 0);
	free_strs(mn, mn ? nmn : 0);
	vrows_free(&b);
	vrows_free(&n);
	vrows_free(&h);
	free(bv);
	free(nv);
	verdict_result_free(&r);
	return rc;
}

void verdict_result_free(struct verdict_result *r)
{
	size_t i;

	for (i = 0; i < r->ncurves; i++) {
		struct verdict_curve *v = &r->curves[i];

		free(v->distro);
		free(v->library);
		free(v->algorithm);
		free(v->operation);
		free(v->mode);
		free(v->variant);
		free(v->package);
		free(v->base_version);
		free(v->new_version);
	}
	for (i = 0; i < r->nmdes; i++)
		free(r->mdes[i].library);
	free_strs(r->caveats, r->ncaveats);
	free(r->base_variant);
	free(r->new_variant);
	free(r->curves);
	package_changes_free(r->changes, r->nchanges);
	free(r->mdes);
	memset(r, 0, sizeof(*r));
}

const char *verdict_state_name(enum verdict_state s)
{
	static const char *const n[] = { "unchanged", "changed", "confirmed",
					 "flagged" };

	return n[s];
}

const char *verdict_shape_name(enum verdict_shape s)
{
	static const char *const n[] = { "shift", "start-up", "per-byte" };

	return n[s];
}

const char *verdict_source_name(enum verdict_noise_source s)
{
	static const char *const n[] = { "invocations", "history", "assumed",
					 "curves" };

	return n[s];
}

size_t verdict_gating_regressions(const struct verdict_result *r)
{
	int deliberate = (r->base.image || r->new.image) ||
			 strcmp(r->base_variant ? r->base_variant : "",
				r->new_variant ? r->new_variant : "") != 0;
	size_t n = 0;

	for (size_t i = 0; i < r->ncurves; i++) {
		const struct verdict_curve *c = &r->curves[i];

		if (c->state != VERDICT_CONFIRMED || c->effect >= 0)
			continue;
		if (deliberate || c->paired || !c->package || !c->package[0] ||
		    strcmp(c->base_version ? c->base_version : "",
			   c->new_version ? c->new_version : "") != 0)
			n++;
	}
	return n;
}
