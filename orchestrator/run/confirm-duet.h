/* confirm-duet.h - the duet part of a confirmation (confirm.h): the
 * previous image against the new one side by side (duet.h), for the
 * curves that look changed and for every library of the confirmed run
 * whose package changed between the two images, whatever compare found;
 * and the run record of a confirmation that is only a duet (no curve to
 * measure in alternating rounds). */
#ifndef BENCHORCH_CONFIRM_DUET_H
#define BENCHORCH_CONFIRM_DUET_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "images/image.h"
#include "lib/util.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-targets.h"

/* Set T->duet_libs and T->duet_algos (owned by T, freed with it): the
 * libraries run RUN in DB measured in T's image (distro, release, digest)
 * whose package differs between T->prev and T->img as their image.json
 * files say (another package, or another version of it; a rebuild at the
 * same version is not seen before a guest runs), and every algorithm the
 * run measured them with. Both stay NULL when T has no image or no
 * previous, or no such library. Returns 0, or -1 with ERR set
 * ("database error: MESSAGE"; T unchanged). */
int confirm_duet_libraries(sqlite3 *db, int64_t run,
			   struct confirm_target *t, bo_err *err);

/* Make sure image IMG (a previous image, perhaps never measured in a
 * run) has its row in DB's images table, so that a confirmation can name
 * it (confirmations.previous_image_id). Returns 0, or -1 with ERR set. */
int confirm_image_row(sqlite3 *db, const struct image *img, bo_err *err);

/* For each of the NT targets at T with an image, a previous and
 * something to confirm (curves or duet_libs): a duet of the previous
 * (base) against the new image over the curves' libraries and
 * algorithms and T->duet_libs with T->duet_algos, with QUICK and NOHW (the
 * guests' --quick and --nohw, as the confirmed run measured) and CC's seed, kind, timeout and paths, stored with
 * confirmation run RUN_ID (duets.confirmation_run_id) in CC->db_path;
 * T->duet_id gets the stored duet's id (0: none stored). PRINT: the duet
 * of a target without curves prints its verdicts on stdout in
 * CC->format (it is that confirmation's summary). A duet that fails is
 * said on stderr; stops at an interruption (bo_interrupted). */
void confirm_duets(const struct confirm_config *cc, struct confirm_target *t,
		   size_t nt, int64_t run_id, int quick, int nohw, int print);

/* Record a confirmation run that measures nothing in alternating rounds
 * (its duets carry the verdict): the run's row (run_open, status
 * 'running', CC->db_path) with the command line ARGC, ARGV ("benchorch"
 * prepended) and QUICK, into *RET_RUN_ID. Returns EXIT_OK, or EXIT_ENV
 * after one line on stderr. */
int confirm_duet_only_open(const struct confirm_config *cc, int quick,
			   int argc, char **argv, int64_t *ret_run_id);

/* End the run RUN_ID that confirm_duet_only_open recorded, after the
 * duets of the NT targets at T: 'aborted' when interrupted, 'done' when
 * each target with duet_libs got its duet stored (duet_id), else
 * 'failed' with the reason. Returns the exit status: EXIT_OK (done),
 * EXIT_FAILED (failed), 128+signal (interrupted), EXIT_ENV (the status
 * could not be stored; said on stderr). */
int confirm_duet_only_finish(const struct confirm_config *cc, int64_t run_id,
			     const struct confirm_target *t, size_t nt);

#endif /* BENCHORCH_CONFIRM_DUET_H */
