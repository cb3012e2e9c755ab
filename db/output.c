/* output.c - store what one guest invocation reported, as judged before
 * (see output.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/output.h"
#include "db/resources.h"
#include "db/stmt.h"

/* Insert the image and its packages if new; *ret gets its id. */
int db_image_id(sqlite3 *db, const struct db_image *img, int64_t *ret,
		bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	if (db_prep(db, "SELECT id FROM images WHERE distro = ?1 AND release = ?2"
		    " AND digest = ?3", &st, err) < 0)
		return -1;
	db_bind_text(st, 1, img->distro);
	db_bind_text(st, 2, img->release);
	db_bind_text(st, 3, img->digest);
	rc = db_step_id(db, st, ret, err);
	sqlite3_finalize(st);
	if (rc != 0)
		return rc < 0 ? -1 : 0;

	if (db_prep(db, "INSERT INTO images (distro, release, digest, method,"
		    " created_at) VALUES (?1, ?2, ?3, ?4, ?5)", &st, err) < 0)
		return -1;
	db_bind_text(st, 1, img->distro);
	db_bind_text(st, 2, img->release);
	db_bind_text(st, 3, img->digest);
	db_bind_text(st, 4, img->method);
	db_bind_text(st, 5, img->created_at);
	rc = db_step_done(db, st, err);
	sqlite3_finalize(st);
	if (rc < 0)
		return -1;
	*ret = sqlite3_last_insert_rowid(db);

	if (db_prep(db, "INSERT OR REPLACE INTO image_packages (image_id, package,"
		    " version) VALUES (?1, ?2, ?3)", &st, err) < 0)
		return -1;
	for (i = 0; i < img->npackages; i++) {
		sqlite3_bind_int64(st, 1, *ret);
		db_bind_text(st, 2, img->packages[i].name);
		db_bind_text(st, 3, img->packages[i].version);
		if (db_step_done(db, st, err) < 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* The first package of IMG (NULL = none) that ships LIBRARY, or NULL. */
static const struct db_library_package *
library_package(const struct db_image *img, const char *library)
{
	size_t i;

	if (!img)
		return NULL;
	for (i = 0; i < img->nlibpkgs; i++)
		if (strcmp(img->libpkgs[i].library, library) == 0)
			return &img->libpkgs[i];
	return NULL;
}

/* The build of IMG that the guest's library name NAME ("LIBRARY@BUILD")
 * names, with LIBRARY's length in *RET_LIBLEN; NULL (and *ret_liblen
 * strlen(NAME)) for a name without '@', the shipped library. A name
 * with '@' that names no build of IMG: NULL with err set and *RET_BAD 1. */
static const struct db_build *name_build(const struct db_image *img,
					 const char *name, size_t *ret_liblen,
					 int *ret_bad, bo_err *err)
{
	const char *at = strchr(name, '@');
	size_t i, n;

	*ret_bad = 0;
	*ret_liblen = strlen(name);
	if (!at)
		return NULL;
	n = (size_t)(at - name);
	*ret_liblen = n;
	for (i = 0; img && i < img->nbuilds; i++)
		if (strcmp(img->builds[i].name, at + 1) == 0 &&
		    strlen(img->builds[i].library) == n &&
		    strncmp(img->builds[i].library, name, n) == 0)
			return &img->builds[i];
	*ret_bad = 1;
	bo_err_set(err, "guest library '%s' names no build of this run", name);
	return NULL;
}

/* The id of build B's row in *RET (image IMAGE_ID), inserting it when
 * new. Returns 0, or -1 with err set. */
static int build_id(sqlite3 *db, const struct db_build *b, int64_t image_id,
		    int64_t *ret, bo_err *err)
{
	static const char *sqls[2] = {
		"INSERT OR IGNORE INTO builds (image_id, name, digest, library,"
		" package, source, source_version, compiler, compiler_version,"
		" cflags) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
		"SELECT id FROM builds WHERE image_id = ?1 AND name = ?2 AND"
		" digest = ?3",
	};
	int i, rc = -1;

	for (i = 0; i < 2; i++) {
		sqlite3_stmt *st;

		if (db_prep(db, sqls[i], &st, err) < 0)
			return -1;
		sqlite3_bind_int64(st, 1, image_id);
		db_bind_text(st, 2, b->name);
		db_bind_text(st, 3, b->digest);
		if (i == 0) {
			db_bind_text(st, 4, b->library);
			db_bind_text(st, 5, b->package ? b->package : "");
			db_bind_text(st, 6, b->source ? b->source : "");
			db_bind_text(st, 7, b->source_version ?
				     b->source_version : "");
			db_bind_text(st, 8, b->compiler ? b->compiler : "");
			db_bind_text(st, 9, b->compiler_version ?
				     b->compiler_version : "");
			db_bind_text(st, 10, b->cflags ? b->cflags : "");
		}
		rc = i == 0 ? db_step_done(db, st, err) :
		     db_step_id(db, st, ret, err);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return rc == 1 ? 0 : bo_err_set(err, "database error: build row missing");
}

/* The id of loaded library L's row in *RET, inserting it when new; its
 * package and package version come from IMG (NULL = none), or for a
 * build's library ("LIBRARY@NAME", see name_build) from the build, whose
 * row (of image IMAGE_ID) it refers to. Returns 0, or -1 with err set. */
static int library_id(sqlite3 *db, const struct guest_library *l,
		      const struct db_image *img, int64_t image_id,
		      int64_t *ret, bo_err *err)
{
	const struct db_library_package *lp;
	const struct db_build *b;
	const char *pkg, *pver;
	static const char *sqls[2] = {
		"INSERT OR IGNORE INTO libraries (name, version, soname, path,"
		" package, package_version, build_id, build_ref) VALUES (?1,"
		" ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
		"SELECT id FROM libraries WHERE name = ?1 AND version = ?2 AND"
		" soname = ?3 AND path = ?4 AND package = ?5 AND"
		" package_version = ?6 AND build_ref IS ?8",
	};
	int64_t bid = 0;
	size_t liblen;
	char *name;
	int i, bad, rc = -1;

	b = name_build(img, l->name, &liblen, &bad, err);
	if (bad)
		return -1;
	if (b && build_id(db, b, image_id, &bid, err) < 0)
		return -1;
	name = xmalloc(liblen + 1);
	memcpy(name, l->name, liblen);
	name[liblen] = '\0';
	lp = library_package(img, name);
	pkg = b ? b->package : lp ? lp->package : NULL;
	pver = b ? b->source_version : lp ? lp->version : NULL;
	for (i = 0; i < 2; i++) {
		sqlite3_stmt *st;

		if (db_prep(db, sqls[i], &st, err) < 0)
			goto out;
		db_bind_text(st, 1, name);
		db_bind_text(st, 2, l->version);
		db_bind_text(st, 3, l->soname);
		db_bind_text(st, 4, l->path);
		db_bind_text(st, 5, pver ? pkg : NULL);
		db_bind_text(st, 6, pver);
		if (i == 0)
			db_bind_text(st, 7, l->build_id);
		if (b)
			sqlite3_bind_int64(st, 8, bid);
		rc = i == 0 ? db_step_done(db, st, err) :
		     db_step_id(db, st, ret, err);
		sqlite3_finalize(st);
		if (rc < 0)
			goto out;
	}
	if (rc != 1)
		rc = bo_err_set(err, "database error: library row missing");
	else
		rc = 0;
out:
	free(name);
	return rc < 0 ? -1 : 0;
}

/* Index in out->libraries of the loaded library NAME, or nlibraries. */
static size_t loaded_index(const struct guest_output *out, const char *name)
{
	size_t j;

	for (j = 0; j < out->nlibraries; j++)
		if (strcmp(out->libraries[j].name, name) == 0)
			return out->libraries[j].loaded ? j : out->nlibraries;
	return out->nlibraries;
}

/* Bind the statistics of T to ST's parameters FIRST .. FIRST + 5: p25_ns,
 * p75_ns, cv, reruns, noisy, tsc_cycles (NULL when 0: no TSC). */
static void bind_timing(sqlite3_stmt *st, int first,
			const struct guest_timing *t)
{
	sqlite3_bind_int64(st, first, t->p25_ns);
	sqlite3_bind_int64(st, first + 1, t->p75_ns);
	sqlite3_bind_double(st, first + 2, t->cv);
	sqlite3_bind_int64(st, first + 3, t->reruns);
	sqlite3_bind_int(st, first + 4, t->noisy ? 1 : 0);
	if (t->tsc_cycles > 0)
		sqlite3_bind_int64(st, first + 5, t->tsc_cycles);
}

/* Store T's samples for row ID with ST (INSERT of (id, rep, ns)): every
 * set, rep = set x repetitions + index in the set, so that the row's
 * repetitions column (samples per set) splits them into their sets. */
static int store_samples(sqlite3 *db, sqlite3_stmt *st, int64_t id,
			 const struct guest_timing *t, bo_err *err)
{
	int64_t i;

	for (i = 0; i < t->nsamples; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, i);
		sqlite3_bind_int64(st, 3, t->samples_ns[i]);
		if (db_step_done(db, st, err) < 0)
			return -1;
	}
	return 0;
}

/* Store the library_loads row of every library of OUT for invocation
 * INV_ID, in the order reported, and the libraries row of every loaded
 * one (library_id), whose ids go to LIB_IDS (indexed like
 * out->libraries; 0 for a library not loaded). */
static int store_library_loads(sqlite3 *db, int64_t inv_id,
			       const struct guest_output *out,
			       const struct db_image *img, int64_t *lib_ids,
			       bo_err *err)
{
	sqlite3_stmt *st;
	int64_t image_id = 0;
	size_t i;
	int rc = -1;

	/* the image of the invocation, which a build's row names */
	if (img && img->nbuilds > 0) {
		if (db_prep(db, "SELECT image_id FROM invocations WHERE id = ?1",
			    &st, err) < 0)
			return -1;
		sqlite3_bind_int64(st, 1, inv_id);
		rc = db_step_id(db, st, &image_id, err);
		sqlite3_finalize(st);
		if (rc != 1)
			return rc < 0 ? -1 : bo_err_set(err, "database error: invocation row missing");
		rc = -1;
	}

	if (db_prep(db, "INSERT INTO library_loads (invocation_id, name, status,"
		    " library_id, build_id, position, message) VALUES (?1, ?2,"
		    " ?3, ?4, ?5, ?6, ?7)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->nlibraries; i++) {
		const struct guest_library *l = &out->libraries[i];

		if (l->loaded && library_id(db, l, img, image_id, &lib_ids[i],
					    err) < 0)
			goto out;
		sqlite3_bind_int64(st, 1, inv_id);
		db_bind_text(st, 2, l->name);
		db_bind_text(st, 3, l->loaded ? "loaded" :
			     l->failed ? "failed" : "absent");
		if (l->loaded)
			sqlite3_bind_int64(st, 4, lib_ids[i]);
		db_bind_text(st, 5, l->build_id);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)i);
		if (l->message)		/* NULL unless it failed */
			db_bind_text(st, 7, l->message);
		if (db_step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Store OUT's known-answer tests, unsupported algorithms and error lines
 * for invocation INV_ID (tables kats, unsupported, guest_errors). */
static int store_kats(sqlite3 *db, int64_t inv_id,
		      const struct guest_output *out, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;

	/* a vector reported twice counts as failed if it failed once */
	if (db_prep(db, "INSERT INTO kats (invocation_id, library, algorithm,"
		    " ok, source) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO"
		    " UPDATE SET ok = min(ok, excluded.ok)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->nkats; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		db_bind_text(st, 2, out->kats[i].library);
		db_bind_text(st, 3, out->kats[i].algorithm);
		sqlite3_bind_int(st, 4, out->kats[i].ok);
		db_bind_text(st, 5, out->kats[i].source);
		if (db_step_done(db, st, err) < 0)
			goto fail;
	}
	sqlite3_finalize(st);

	if (db_prep(db, "INSERT OR IGNORE INTO unsupported (invocation_id,"
		    " library, algorithm) VALUES (?1, ?2, ?3)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->nunsupported; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		db_bind_text(st, 2, out->unsupported[i].library);
		db_bind_text(st, 3, out->unsupported[i].algorithm);
		if (db_step_done(db, st, err) < 0)
			goto fail;
	}
	sqlite3_finalize(st);

	if (db_prep(db, "INSERT INTO guest_errors (invocation_id, library,"
		    " algorithm, message) VALUES (?1, ?2, ?3, ?4)", &st,
		    err) < 0)
		return -1;
	for (i = 0; i < out->nerrors; i++) {
		sqlite3_bind_int64(st, 1, inv_id);
		db_bind_text(st, 2, out->errors[i].library);
		db_bind_text(st, 3, out->errors[i].algorithm);
		db_bind_text(st, 4, out->errors[i].message);
		if (db_step_done(db, st, err) < 0)
			goto fail;
	}
	sqlite3_finalize(st);
	return 0;
fail:
	sqlite3_finalize(st);
	return -1;
}

/* Store OUT's results for invocation INV_ID, each with its samples and
 * verified as JUDGED says; LIB_IDS indexed like out->libraries. */
static int store_results(sqlite3 *db, int64_t inv_id,
			 const struct guest_output *out,
			 const struct guest_judgement *judged,
			 const int64_t *lib_ids, bo_err *err)
{
	sqlite3_stmt *st = NULL, *ss = NULL;
	size_t i, j;
	int rc = -1;

	if (db_prep(db, "INSERT INTO results (invocation_id, library_id,"
		    " algorithm, operation, buffer_bytes, calls_per_batch,"
		    " bytes_per_batch, repetitions, median_ns, min_ns, mb_per_s,"
		    " verified, mode, p25_ns, p75_ns, cv, reruns, noisy,"
		    " tsc_cycles) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
		    " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)", &st,
		    err) < 0 ||
	    db_prep(db, "INSERT INTO samples (result_id, rep, ns) VALUES (?1,"
		    " ?2, ?3)", &ss, err) < 0)
		goto out;
	for (i = 0; i < out->nresults; i++) {
		const struct guest_result *r = &out->results[i];

		j = loaded_index(out, r->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "result for library '%s' that was not loaded",
				   r->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		db_bind_text(st, 3, r->algorithm);
		db_bind_text(st, 4, r->operation);
		sqlite3_bind_int64(st, 5, r->buffer_bytes);
		sqlite3_bind_int64(st, 6, r->calls_per_batch);
		sqlite3_bind_int64(st, 7, r->bytes_per_batch);
		sqlite3_bind_int64(st, 8, r->t.repetitions);
		sqlite3_bind_int64(st, 9, r->t.median_ns);
		sqlite3_bind_int64(st, 10, r->t.min_ns);
		sqlite3_bind_double(st, 11, r->mb_per_s);
		sqlite3_bind_int(st, 12, judged->result_verified[i]);
		db_bind_text(st, 13, r->mode);
		bind_timing(st, 14, &r->t);
		sqlite3_bind_int(st, 18, judged->result_noisy[i]);
		if (db_step_done(db, st, err) < 0 ||
		    store_samples(db, ss, sqlite3_last_insert_rowid(db), &r->t,
				  err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(ss);
	return rc;
}

/* Store OUT's key setups for invocation INV_ID, each with its samples
 * and verified as JUDGED says; LIB_IDS indexed like out->libraries. */
static int store_keysetups(sqlite3 *db, int64_t inv_id,
			   const struct guest_output *out,
			   const struct guest_judgement *judged,
			   const int64_t *lib_ids, bo_err *err)
{
	sqlite3_stmt *st = NULL, *ss = NULL;
	size_t i, j;
	int rc = -1;

	if (db_prep(db, "INSERT INTO keysetups (invocation_id, library_id,"
		    " algorithm, operation, calls_per_batch, repetitions,"
		    " median_ns, min_ns, ns_per_key, verified, p25_ns, p75_ns,"
		    " cv, reruns, noisy, tsc_cycles) VALUES (?1, ?2, ?3, ?4, ?5,"
		    " ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)", &st,
		    err) < 0 ||
	    db_prep(db, "INSERT INTO keysetup_samples (keysetup_id, rep, ns)"
		    " VALUES (?1, ?2, ?3)", &ss, err) < 0)
		goto out;
	for (i = 0; i < out->nkeysetups; i++) {
		const struct guest_keysetup *k = &out->keysetups[i];

		j = loaded_index(out, k->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "keysetup for library '%s' that was not loaded",
				   k->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		db_bind_text(st, 3, k->algorithm);
		db_bind_text(st, 4, k->operation);
		sqlite3_bind_int64(st, 5, k->calls_per_batch);
		sqlite3_bind_int64(st, 6, k->t.repetitions);
		sqlite3_bind_int64(st, 7, k->t.median_ns);
		sqlite3_bind_int64(st, 8, k->t.min_ns);
		sqlite3_bind_double(st, 9, k->ns_per_call);
		sqlite3_bind_int(st, 10, judged->keysetup_verified[i]);
		bind_timing(st, 11, &k->t);
		sqlite3_bind_int(st, 15, judged->keysetup_noisy[i]);
		if (db_step_done(db, st, err) < 0 ||
		    store_samples(db, ss, sqlite3_last_insert_rowid(db), &k->t,
				  err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(ss);
	return rc;
}

/* Store the curve fits of JUDGED (those of OUT, lib/curves.h) for
 * invocation INV_ID; LIB_IDS are the ids of out->libraries. */
static int store_curves(sqlite3 *db, int64_t inv_id,
			const struct guest_output *out,
			const struct guest_judgement *judged,
			const int64_t *lib_ids, bo_err *err)
{
	const struct curve_fit *f = judged->curves;
	sqlite3_stmt *st;
	size_t i, j;
	int rc = 0;

	if (judged->ncurves == 0)
		return 0;
	if (db_prep(db, "INSERT INTO curves (invocation_id, library_id,"
		    " algorithm, operation, mode, points, overhead_ns,"
		    " ns_per_byte, cycles_per_byte) VALUES (?1, ?2, ?3, ?4, ?5,"
		    " ?6, ?7, ?8, ?9)", &st, err) < 0)
		return -1;
	for (i = 0; i < judged->ncurves && rc == 0; i++) {
		j = loaded_index(out, f[i].library);
		if (j == out->nlibraries)
			continue;	/* cannot happen: results were checked */
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		db_bind_text(st, 3, f[i].algorithm);
		db_bind_text(st, 4, f[i].operation);
		db_bind_text(st, 5, f[i].mode);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)f[i].points);
		sqlite3_bind_double(st, 7, f[i].overhead_ns);
		sqlite3_bind_double(st, 8, f[i].ns_per_byte);
		if (f[i].cycles_per_byte >= 0)
			sqlite3_bind_double(st, 9, f[i].cycles_per_byte);
		rc = db_step_done(db, st, err);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Store OUT's cross-library check for invocation INV_ID (table
 * crosschecks; agrees NULL when there was no other library to compare
 * with). */
static int store_crosschecks(sqlite3 *db, int64_t inv_id,
			     const struct guest_output *out, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc = -1;

	if (db_prep(db, "INSERT INTO crosschecks (invocation_id, library,"
		    " algorithm, input_bytes, output_bytes, digest, roundtrip,"
		    " agrees) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &st,
		    err) < 0)
		return -1;
	for (i = 0; i < out->ncrosschecks; i++) {
		const struct guest_crosscheck *c = &out->crosschecks[i];

		sqlite3_bind_int64(st, 1, inv_id);
		db_bind_text(st, 2, c->library);
		db_bind_text(st, 3, c->algorithm);
		sqlite3_bind_int64(st, 4, c->input_bytes);
		sqlite3_bind_int64(st, 5, c->output_bytes);
		db_bind_text(st, 6, c->digest);
		sqlite3_bind_int(st, 7, c->roundtrip);
		if (c->agrees >= 0)
			sqlite3_bind_int(st, 8, c->agrees);
		if (db_step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Bind a curve's key to ST's parameters 1 to 5: invocation INV_ID,
 * library LIB_ID, ALGORITHM, OPERATION and MODE (the first columns of
 * canaries and pairs). */
static void bind_curve(sqlite3_stmt *st, int64_t inv_id, int64_t lib_id,
		       const char *algorithm, const char *operation,
		       const char *mode)
{
	sqlite3_bind_int64(st, 1, inv_id);
	sqlite3_bind_int64(st, 2, lib_id);
	db_bind_text(st, 3, algorithm);
	db_bind_text(st, 4, operation);
	db_bind_text(st, 5, mode);
}

/* Store the contention canary of every curve of OUT (table canaries,
 * schema 8; remeasured schema 13): before_ns, after_ns, noise, moved and
 * remeasured as the guest judged them, LIB_IDS indexed like
 * out->libraries. */
static int store_canaries(sqlite3 *db, int64_t inv_id,
			  const struct guest_output *out,
			  const int64_t *lib_ids, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i, j;
	int rc = -1;

	if (db_prep(db, "INSERT INTO canaries (invocation_id, library_id,"
		    " algorithm, operation, mode, before_ns, after_ns, noise,"
		    " moved, remeasured) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
		    " ?9, ?10)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->ncanaries; i++) {
		const struct guest_canary *c = &out->canaries[i];

		j = loaded_index(out, c->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "canary for library '%s' that was not loaded",
				   c->library);
			goto out;
		}
		bind_curve(st, inv_id, lib_ids[j], c->algorithm, c->operation,
			   c->mode);
		sqlite3_bind_int64(st, 6, c->before_ns);
		sqlite3_bind_int64(st, 7, c->after_ns);
		sqlite3_bind_double(st, 8, c->noise);
		sqlite3_bind_int(st, 9, c->moved);
		sqlite3_bind_int(st, 10, c->remeasured);
		if (db_step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Store the pairs of OUT (table pairs, schema 16): each library against
 * the point's fastest, LIB_IDS indexed like out->libraries. */
static int store_pairs(sqlite3 *db, int64_t inv_id,
		       const struct guest_output *out, const int64_t *lib_ids,
		       bo_err *err)
{
	sqlite3_stmt *st;
	size_t i, j, k;
	int rc = -1;

	if (out->npairs == 0)
		return 0;
	if (db_prep(db, "INSERT INTO pairs (invocation_id, library_id,"
		    " algorithm, operation, mode, versus_id, buffer_bytes,"
		    " ratio, low, high, coverage, rounds, tie, span_ns)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
		    " ?12, ?13, ?14)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->npairs; i++) {
		const struct guest_pair *p = &out->pairs[i];

		j = loaded_index(out, p->library);
		k = loaded_index(out, p->versus);
		if (j == out->nlibraries || k == out->nlibraries) {
			bo_err_set(err, "pair of %s and %s, one of them not loaded",
				   p->library, p->versus);
			goto out;
		}
		bind_curve(st, inv_id, lib_ids[j], p->algorithm, p->operation,
			   p->mode);
		sqlite3_bind_int64(st, 6, lib_ids[k]);
		sqlite3_bind_int64(st, 7, p->buffer_bytes);
		sqlite3_bind_double(st, 8, p->ratio);
		sqlite3_bind_double(st, 9, p->low);
		sqlite3_bind_double(st, 10, p->high);
		sqlite3_bind_double(st, 11, p->coverage);
		sqlite3_bind_int64(st, 12, p->rounds);
		sqlite3_bind_int(st, 13, p->tie);
		sqlite3_bind_int64(st, 14, p->span_ns);
		if (db_step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* The known answers of LIBRARY's ALGORITHM in OUT: 1 all passed, 0 one
 * failed, -1 none reported. */
static int kats_of(const struct guest_output *out, const char *library,
		   const char *algorithm)
{
	int seen = -1;

	for (size_t i = 0; i < out->nkats; i++)
		if (strcmp(out->kats[i].library, library) == 0 &&
		    strcmp(out->kats[i].algorithm, algorithm) == 0) {
			if (!out->kats[i].ok)
				return 0;
			seen = 1;
		}
	return seen;
}

/* The samples of T as a JSON array of integers (ns per batch, in the
 * order measured). Caller frees. */
static char *samples_json(const struct guest_timing *t)
{
	size_t len = 3 + (size_t)t->nsamples * 21, at = 0;
	char *s = xcalloc(len, 1);

	s[at++] = '[';
	for (int64_t i = 0; i < t->nsamples; i++)
		at += (size_t)snprintf(s + at, len - at, "%s%lld",
				       i ? "," : "",
				       (long long)t->samples_ns[i]);
	s[at++] = ']';
	return s;
}

/* The `pkcheck` (or `kdfcheck`) line of LIBRARY and ALGORITHM among the
 * N checks V, or NULL. */
static const struct guest_pkcheck *check_of(const struct guest_pkcheck *v,
					    size_t n, const char *library,
					    const char *algorithm)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(v[k].library, library) == 0 &&
		    strcmp(v[k].algorithm, algorithm) == 0)
			return &v[k];
	return NULL;
}

/* Bind a result counted in operations (pubkey_results, kdf_results) to
 * ST's parameters FIRST .. FIRST + 16, in those tables' order:
 * calls_per_batch CALLS, repetitions, median_ns and min_ns of T, its
 * statistics (bind_timing), ns_per_op NS_PER_CALL, ops_per_s OPS_PER_S,
 * verified VERIFIED, kat_ok KAT (1, 0; NULL when -1: none reported),
 * confirmed_by and rejected_by of the check C ("" when NULL), and
 * samples_ns (T's samples as JSON). */
static void bind_op_result(sqlite3_stmt *st, int first, int64_t calls,
			   const struct guest_timing *t, double ns_per_call,
			   double ops_per_s, int verified, int kat,
			   const struct guest_pkcheck *c)
{
	char *samples = samples_json(t);

	sqlite3_bind_int64(st, first, calls);
	sqlite3_bind_int64(st, first + 1, t->repetitions);
	sqlite3_bind_int64(st, first + 2, t->median_ns);
	sqlite3_bind_int64(st, first + 3, t->min_ns);
	bind_timing(st, first + 4, t);
	sqlite3_bind_double(st, first + 10, ns_per_call);
	sqlite3_bind_double(st, first + 11, ops_per_s);
	sqlite3_bind_int(st, first + 12, verified ? 1 : 0);
	if (kat >= 0)
		sqlite3_bind_int(st, first + 13, kat);
	else
		sqlite3_bind_null(st, first + 13);
	db_bind_text(st, first + 14, c ? c->confirmed_by : "");
	db_bind_text(st, first + 15, c ? c->rejected_by : "");
	sqlite3_bind_text(st, first + 16, samples, -1, SQLITE_TRANSIENT);
	free(samples);
}

/* Store OUT's public-key results for invocation INV_ID (table
 * pubkey_results, schema 19), each with its library's known answers and
 * `pkcheck` line (when the guest printed one) and its samples; LIB_IDS
 * indexed like out->libraries. */
static int store_pubkey(sqlite3 *db, int64_t inv_id,
			const struct guest_output *out,
			const int64_t *lib_ids, bo_err *err)
{
	sqlite3_stmt *st;
	size_t i, j;
	int rc = -1;

	if (out->npkresults == 0)
		return 0;
	if (db_prep(db, "INSERT INTO pubkey_results (invocation_id, library_id,"
		    " algorithm, operation, calls_per_batch, repetitions,"
		    " median_ns, min_ns, p25_ns, p75_ns, cv, reruns, noisy,"
		    " tsc_cycles, ns_per_op, ops_per_s, verified, kat_ok,"
		    " confirmed_by, rejected_by, samples_ns) VALUES (?1, ?2, ?3,"
		    " ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
		    " ?17, ?18, ?19, ?20, ?21)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->npkresults; i++) {
		const struct guest_pkresult *r = &out->pkresults[i];
		j = loaded_index(out, r->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "pkresult for library '%s' that was not loaded",
				   r->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		db_bind_text(st, 3, r->algorithm);
		db_bind_text(st, 4, r->operation);
		bind_op_result(st, 5, r->calls_per_batch, &r->t,
			       r->ns_per_call, r->ops_per_s, r->verified,
			       kats_of(out, r->library, r->algorithm),
			       check_of(out->pkchecks, out->npkchecks,
					r->library, r->algorithm));
		if (db_step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}


/* Store OUT's key derivation results for invocation INV_ID (table
 * kdf_results, schema 22), each with its cost, its library's known
 * answers and `kdfcheck` line (when the guest printed one) and its
 * samples; LIB_IDS indexed like out->libraries. */
static int store_kdf(sqlite3 *db, int64_t inv_id,
		     const struct guest_output *out, const int64_t *lib_ids,
		     bo_err *err)
{
	sqlite3_stmt *st;
	size_t i, j;
	int rc = -1;

	if (out->nkdfresults == 0)
		return 0;
	if (db_prep(db, "INSERT INTO kdf_results (invocation_id, library_id,"
		    " algorithm, params, iterations, memory_kib, parallelism,"
		    " output_bytes, calls_per_batch, repetitions, median_ns,"
		    " min_ns, p25_ns, p75_ns, cv, reruns, noisy, tsc_cycles,"
		    " ns_per_op, ops_per_s, verified, kat_ok, confirmed_by,"
		    " rejected_by, samples_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
		    " ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"
		    " ?19, ?20, ?21, ?22, ?23, ?24, ?25)", &st, err) < 0)
		return -1;
	for (i = 0; i < out->nkdfresults; i++) {
		const struct guest_kdfresult *r = &out->kdfresults[i];
		j = loaded_index(out, r->library);
		if (j == out->nlibraries) {
			bo_err_set(err, "kdfresult for library '%s' that was not loaded",
				   r->library);
			goto out;
		}
		sqlite3_bind_int64(st, 1, inv_id);
		sqlite3_bind_int64(st, 2, lib_ids[j]);
		db_bind_text(st, 3, r->algorithm);
		db_bind_text(st, 4, r->params);
		sqlite3_bind_int64(st, 5, r->iterations);
		sqlite3_bind_int64(st, 6, r->memory_kib);
		sqlite3_bind_int64(st, 7, r->parallelism);
		sqlite3_bind_int64(st, 8, r->output_bytes);
		bind_op_result(st, 9, r->calls_per_batch, &r->t,
			       r->ns_per_call, r->ops_per_s, r->verified,
			       kats_of(out, r->library, r->algorithm),
			       check_of(out->kdfchecks, out->nkdfchecks,
					r->library, r->algorithm));
		if (db_step_done(db, st, err) < 0)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

int db_store_output(sqlite3 *db, int64_t inv_id,
		    const struct guest_output *out,
		    const struct guest_judgement *judged,
		    const struct db_image *img, bo_err *err)
{
	int64_t *lib_ids = xcalloc(out->nlibraries + 1, sizeof(*lib_ids));
	int rc = -1;

	if (store_library_loads(db, inv_id, out, img, lib_ids, err) == 0 &&
	    store_kats(db, inv_id, out, err) == 0 &&
	    store_results(db, inv_id, out, judged, lib_ids, err) == 0 &&
	    store_keysetups(db, inv_id, out, judged, lib_ids, err) == 0 &&
	    store_curves(db, inv_id, out, judged, lib_ids, err) == 0 &&
	    db_store_resources(db, inv_id, out, judged, err) == 0 &&
	    store_crosschecks(db, inv_id, out, err) == 0 &&
	    store_canaries(db, inv_id, out, lib_ids, err) == 0 &&
	    store_pairs(db, inv_id, out, lib_ids, err) == 0 &&
	    store_pubkey(db, inv_id, out, lib_ids, err) == 0 &&
	    store_kdf(db, inv_id, out, lib_ids, err) == 0)
		rc = 0;
	free(lib_ids);
	return rc;
}
