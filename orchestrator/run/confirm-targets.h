/* confirm-targets.h - the distributions of a run being confirmed
 * (confirm.h): which images the run measured, whether they are still
 * there with a previous kept beside them, and the curves to measure
 * again in each. */
#ifndef BENCHORCH_CONFIRM_TARGETS_H
#define BENCHORCH_CONFIRM_TARGETS_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "db/confirmations.h"
#include "lib/util.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-curves.h"

/* A distribution of the run being confirmed. Every pointer is owned by
 * the target (confirm_targets_free). */
struct confirm_target {
	char *distro, *release, *digest;	/* as the run measured it */
	char *spec;				/* "distro:release" */
	char *name;		/* the image's name the run measured
				 * (image_measured_name), e.g.
				 * "debian-bookworm" or an imported one */
	int gone;		/* 1: no image of that name is left */
	struct image *img;		/* its image now, or NULL */
	struct image *prev;		/* its kept previous, or NULL */
	struct confirm_curve *curves;	/* to measure again */
	size_t ncurves;
	struct db_confirm_curve *dbc;	/* the same, for the database (its
					 * strings borrowed from curves) */
	char *duet_libs;	/* the run's libraries whose package changed
				 * between prev and img, comma-separated;
				 * NULL = none (confirm_duet_libraries) */
	char *duet_algos;	/* the algorithms the run measured them
				 * with; NULL with duet_libs */
	int64_t duet_id;	/* the duet stored of prev against img, 0
				 * = none (yet) */
};

/* The images run RUN in DB measured (an image and a guest that ran),
 * one target each, named as the run's invocations' specs gave them then
 * (image_measured_name with DATA_DIR's recipes and the release stored
 * with the image; a second spec of the same name is one target), ordered
 * by distro, release, digest and spec, into *RET (*RET_N of them; img,
 * prev and the curves not set yet). The caller frees *RET with
 * confirm_targets_free, also after an error (whatever was read). Returns
 * 0, or -1 with ERR set ("database error: MESSAGE", or a stored spec
 * that does not parse). */
int confirm_targets_load(sqlite3 *db, const char *data_dir, int64_t run,
			 struct confirm_target **ret, size_t *ret_n,
			 bo_err *err);

/* Set T->img to the image T's run measured: the one named T->name under
 * CC->state_dir, never another with the same distro, release and digest
 * (an imported copy), and T->prev to the previous kept beside it (both
 * owned by T; NULL when none). When that image is gone, says so on
 * stderr in one line and sets T->gone; when it was rebuilt since run RUN
 * (another digest) or its previous cannot be read, says so too; nothing
 * is returned. */
void confirm_target_find_images(const struct confirm_config *cc,
				int64_t run, struct confirm_target *t);

/* Fill T's curves (and dbc, the same for the database): copies of the
 * NALL curves at ALL (given for every distribution) when ALL is not NULL,
 * else of those of the NCHANGED at CHANGED that are of T's distribution
 * (confirm_curve.distro equal to T->spec). Both arrays stay the
 * caller's. */
void confirm_target_pick_curves(struct confirm_target *t,
				const struct confirm_curve *all, size_t nall,
				const struct confirm_curve *changed,
				size_t nchanged);

/* Remove T's previous image T->prev from CC->state_dir (its confirmation
 * is done; T->prev itself stays allocated). Returns 0, or -1 after
 * saying on stderr why it could not. */
int confirm_target_remove_previous(const struct confirm_config *cc,
				   struct confirm_target *t);

/* Free the N targets at T and what each holds. T may be NULL with N 0. */
void confirm_targets_free(struct confirm_target *t, size_t n);

/* The number of images run RUN in DB measured (found under STATE_DIR by
 * the names the run used, as confirm_targets_load with DATA_DIR) that
 * have a previous kept beside them, in *RET (an image that cannot be
 * read, is gone or was rebuilt counts as none). Returns 0, or -1 with
 * ERR set on a database error (*RET 0). */
int confirm_kept_previous(sqlite3 *db, const char *state_dir,
			  const char *data_dir, int64_t run, size_t *ret,
			  bo_err *err);

#endif
