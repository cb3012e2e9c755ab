/* confirm-duet.c - the duet part of a confirmation: the previous image
 * against the new one side by side, and the run record of a confirmation
 * that is only a duet (see confirm-duet.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/output.h"
#include "images/image.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "orchestrator/run/confirm-duet.h"
#include "orchestrator/run/db-image.h"
#include "orchestrator/run/duet.h"
#include "orchestrator/run/run-open.h"

/* Whether two strings, either NULL, differ. */
static int differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

/* Whether LIBRARY's package differs between the images A and B: another
 * package, or another version of it (as duet.c's tested_libraries judges
 * the packages). */
static int package_changed(const struct image *a, const struct image *b,
			   const char *library)
{
	const char *pa = image_library_package(a, library);
	const char *pb = image_library_package(b, library);

	return differ(pa, pb) ||
	       (pa && pb && differ(image_package_version(a, pa),
				   image_package_version(b, pb)));
}

int confirm_duet_libraries(sqlite3 *db, int64_t run,
			   struct confirm_target *t, bo_err *err)
{
	static const char sql[] =
		"SELECT DISTINCT l.name, r.algorithm FROM results r"
		" JOIN invocations i ON i.id = r.invocation_id"
		" JOIN libraries l ON l.id = r.library_id"
		" JOIN images im ON im.id = i.image_id"
		" WHERE i.run_id = ?1 AND im.distro = ?2 AND im.release = ?3"
		" AND im.digest = ?4 ORDER BY 1, 2";
	sqlite3_stmt *st;
	char *libs = NULL, *algos = NULL;
	int rc;

	if (!t->img || !t->prev)
		return 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, t->distro, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, t->release, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, t->digest, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *lib = (const char *)sqlite3_column_text(st, 0);
		const char *alg = (const char *)sqlite3_column_text(st, 1);

		if (!lib || !alg || !package_changed(t->prev, t->img, lib))
			continue;
		bo_list_add(&libs, lib);
		bo_list_add(&algos, alg);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(libs);
		free(algos);
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	}
	free(t->duet_libs);
	free(t->duet_algos);
	t->duet_libs = libs;
	t->duet_algos = algos;
	return 0;
}

int confirm_image_row(sqlite3 *db, const struct image *img, bo_err *err)
{
	struct db_image d;
	int64_t id;
	int rc;

	run_db_image(img, &d);
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0) {
		run_db_image_release(&d);
		return -1;
	}
	rc = db_image_id(db, &d, &id, err);
	if (rc == 0)
		rc = db_exec(db, "COMMIT", err);
	if (rc < 0)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	run_db_image_release(&d);
	return rc;
}

/* The duet of T's previous against its image for confirmation run
 * RUN_ID over LIBS and ALGOS (see confirm_duets). */
static void one_duet(const struct confirm_config *cc,
		     struct confirm_target *t, int64_t run_id, int quick,
		     int nohw, int print, const char *libs, const char *algos)
{
	struct duet_request r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.base = t->prev->name;
	r.new_name = t->name;	/* the image the run measured */
	r.libs = libs;
	r.algos = algos;
	r.quick = quick;
	r.nohw = nohw;
	r.seed_set = cc->seed_set;
	r.seed = cc->seed;
	r.threshold = DUET_DEFAULT_THRESHOLD;
	r.kind = cc->kind;
	r.timeout_s = cc->timeout_s;
	r.format = cc->format;
	r.quiet = cc->quiet;
	r.state_dir = cc->state_dir;
	r.data_dir = cc->data_dir;
	r.guest = cc->guest;
	r.db_path = cc->db_path;
	r.no_print = !print;
	r.confirmation_run = run_id;
	r.distro = t->distro;
	r.release = t->release;
	r.ret_duet_id = &t->duet_id;
	if (!cc->quiet)
		fprintf(stderr, "benchorch: %s: the previous image '%s' against '%s' side by side (a duet), libraries %s, algorithms %s\n",
			t->spec, t->prev->name, t->name, libs, algos);
	rc = duet_execute(&r);
	if (!t->duet_id && !bo_interrupted)
		cli_warn(t->ncurves ?
			 "%s: the duet of the previous and the new image failed (status %d): the alternating rounds of run %lld decide" :
			 "%s: the duet of the previous and the new image failed (status %d): confirmation run %lld has no verdict",
			 t->spec, rc, (long long)run_id);
}

void confirm_duets(const struct confirm_config *cc, struct confirm_target *t,
		   size_t nt, int64_t run_id, int quick, int nohw, int print)
{
	for (size_t i = 0; i < nt && !bo_interrupted; i++) {
		char *libs = NULL, *algos = NULL, *save = NULL, *tok, *copy;

		if (!t[i].prev || !t[i].img || !run_id ||
		    (!t[i].ncurves && !t[i].duet_libs))
			continue;
		for (size_t k = 0; k < t[i].ncurves; k++) {
			bo_list_add(&libs, t[i].curves[k].library);
			bo_list_add(&algos, t[i].curves[k].algorithm);
		}
		/* the libraries whose package changed, with the run's
		 * algorithms: whatever looks changed */
		for (int pass = 0; pass < 2; pass++) {
			const char *src = pass ? t[i].duet_algos : t[i].duet_libs;

			if (!src)
				continue;
			copy = xstrdup(src);
			for (tok = strtok_r(copy, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				bo_list_add(pass ? &algos : &libs, tok);
			free(copy);
		}
		one_duet(cc, &t[i], run_id, quick, nohw,
			 print && !t[i].ncurves && !cc->no_summary, libs,
			 algos);
		free(libs);
		free(algos);
	}
}

int confirm_duet_only_open(const struct confirm_config *cc, int quick,
			   int argc, char **argv, int64_t *ret_run_id)
{
	struct run_config c;
	struct run_open_opts o = { .quick = quick, .seeded = cc->seed_set,
				   .seed = cc->seed };
	struct run_open ro;
	int rc;

	memset(&c, 0, sizeof(c));
	c.db_path = (char *)cc->db_path;
	c.argc = argc;
	c.argv = argv;
	*ret_run_id = 0;
	rc = run_open(&c, &o, &ro);
	if (rc != EXIT_OK)
		return rc;
	*ret_run_id = ro.run_id;
	run_open_release(&ro);
	return EXIT_OK;
}

int confirm_duet_only_finish(const struct confirm_config *cc, int64_t run_id,
			     const struct confirm_target *t, size_t nt)
{
	const char *status = "done";
	char *why = NULL;
	sqlite3 *db = NULL;
	bo_err err;
	int rc = EXIT_OK;

	for (size_t i = 0; i < nt; i++)
		if (t[i].duet_libs && t[i].img && t[i].prev && !t[i].duet_id &&
		    !why)
			why = xasprintf("%s: the duet of the previous and the new image failed",
					t[i].spec);
	if (bo_interrupted) {
		status = "aborted";
		rc = cli_interrupted_status(bo_interrupted);
	} else if (why) {
		status = "failed";
		rc = EXIT_FAILED;
	}
	if (db_open(cc->db_path, &db, &err) < 0 ||
	    db_run_finish(db, run_id, status, bo_interrupted ? "interrupted" :
			  why, NULL, 0, &err) < 0) {
		cli_error("cannot store the status of confirmation run %lld in '%s': %s",
			  (long long)run_id, cc->db_path, err.msg);
		if (rc == EXIT_OK)
			rc = EXIT_ENV;
	}
	sqlite3_close(db);
	free(why);
	return rc;
}
