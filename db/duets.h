/* duets.h - a duet in the database (migration 17: duets, duet_libraries,
 * duet_curves, duet_points): `benchorch duet`'s verdicts and what they
 * were judged from. */
#ifndef BENCHORCH_DB_DUETS_H
#define BENCHORCH_DB_DUETS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/guest_output.h"
#include "lib/util.h"

/* A duet's row (strings borrowed; NULL libs, algos, error, finished_at
 * are stored as NULL). */
struct db_duet {
	const char *started_at, *finished_at;	/* ISO 8601 UTC */
	const char *host, *cpu_model;
	int pinned_cpu;				/* -1 = none */
	const char *base_image, *base_digest;
	const char *new_image, *new_digest;
	int quick;
	unsigned rounds;
	uint64_t seed;
	double threshold;			/* a fraction */
	const char *libs, *algos;		/* as given; NULL = all */
	double mde_median;			/* a fraction; < 0 = none */
	const char *status;			/* "done", "failed" or
						 * "aborted" */
	const char *error;
	int64_t confirmation_run_id;		/* 0 = none */
	const char *distro, *release;		/* of the confirmation */
	int nohw;				/* 1: variant 'nohw' */
	unsigned max_rounds;			/* the most rounds of an
						 * undecided curve; 0 =
						 * unknown (NULL) */
	const char *base_build, *new_build;	/* the build loaded in
						 * place of its library
						 * on that side; NULL =
						 * shipped (schema 24) */
};

/* A side's library (duet_libraries). */
struct db_duet_library {
	const char *side;			/* "base" or "new" */
	const char *library, *version, *build_id;
	const char *package, *package_version;	/* NULL when unknown */
	int tested;
	const char *path;			/* the file the guest loaded
						 * (schema 24); NULL = unknown */
};

/* A curve's verdict (duet_curves); effects are fractions. */
struct db_duet_curve {
	const char *library, *algorithm, *operation, *mode;
	int tested;
	const char *verdict;	/* "slower", "faster", "same", "undecided" */
	double effect, low, high, p, mde;
	unsigned rounds;
	size_t sizes;
};

/* Store duet D with its NL libraries L, its NC curves C and the points
 * of its two guests' outputs OUT[0] (base) and OUT[1] (new; either may
 * be NULL: not stored) in one BEGIN IMMEDIATE transaction. The database
 * must be migrated to schema 18 or later (db_open does). Returns 0 with
 * *RET_ID the duet's id, or -1 with err set ("database error: ...";
 * nothing is stored then). */
int db_duet_store(sqlite3 *db, const struct db_duet *d,
		  const struct db_duet_library *l, size_t nl,
		  const struct db_duet_curve *c, size_t nc,
		  const struct guest_output *const out[2], int64_t *ret_id,
		  bo_err *err);

/* The latest duet stored with status 'done' for confirmation run RUN and
 * distribution DISTRO, RELEASE: 1 with *RET_ID, 0 when there is none
 * (also on a schema before 17), -1 with err set on a database error. */
int db_duet_of_confirmation(sqlite3 *db, int64_t run, const char *distro,
			    const char *release, int64_t *ret_id,
			    bo_err *err);

#endif /* BENCHORCH_DB_DUETS_H */
