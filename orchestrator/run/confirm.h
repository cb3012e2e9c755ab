/* confirm.h - a confirmation run: the curves of a run that look changed
 * are measured again before they are reported. When the distribution's
 * packages changed and the rebuild kept the previous image
 * (images/previous.h), the previous and the new image are measured in
 * alternating rounds within one run (plan-interleave.h), both stored
 * (invocations.image_id tells them apart), and the previous image is
 * deleted once the run is done; without a previous image the curves are
 * measured once more in the current image. What was confirmed is
 * recorded in the confirmations tables (db/confirmations.h). */
#ifndef BENCHORCH_CONFIRM_H
#define BENCHORCH_CONFIRM_H

#include <stddef.h>
#include <stdint.h>

#include "orchestrator/run/confirm-curves.h"
#include "lib/format.h"
#include "orchestrator/run/runner.h"

struct confirm_config {
	/* Borrowed, not freed: */
	const char *state_dir, *db_path, *data_dir, *guest;
	enum runner_kind kind;
	int quick;		/* the guests' --quick (shorter batches) */
	int nohw;		/* 1: the guests' --nohw; also set when the
				 * confirmed run measured variant 'nohw' */
	uint64_t min_batch_ns;	/* the guests' --min-batch-ns; 0 = default */
	unsigned repetitions;	/* the guests' --repetitions; 0 = default */
	int max_reruns_set;	/* 1: max_reruns below is given */
	unsigned max_reruns;	/* the guests' --max-reruns */
	long timeout_s;		/* per guest invocation, seconds */
	int64_t run_id;		/* the run to confirm; 0 = the latest run
				 * that finished ('done') and is neither
				 * itself a confirmation nor a tool run
				 * (run --tools) */
	const char *curves;	/* LIBRARY/ALGORITHM[/OPERATION[/MODE]],...
				 * for every distribution of the run; NULL =
				 * those that look changed
				 * (confirm-curves.h) */
	int changed_known;	/* 1: the curves that look changed are
				 * CHANGED below, already found by
				 * confirm_changed_curves against
				 * confirm_base_run (not found again) */
	const struct confirm_curve *changed;	/* borrowed */
	size_t nchanged;
	size_t rounds;		/* rounds of previous + new; 0 =
				 * PLAN_INTERLEAVE_ROUNDS (2 rounds of the
				 * image alone when no distribution has a
				 * previous image) */
	int seed_set;		/* 1: seed below orders the run */
	uint64_t seed;		/* 0 .. 2^32 - 1 */
	enum format format;	/* of the result on stdout */
	int no_summary;		/* 1: print nothing on stdout (daemon) */
	int quiet;		/* 1: no progress lines on stderr */
	int argc;		/* command line, recorded with the run */
	char **argv;
	void (*progress_sink)(void *ctx, const char *line);
	void *progress_sink_ctx;	/* as in run_config */
};

/* Confirm run CC->run_id in the database CC->db_path: for each of its
 * images (under CC->state_dir, by the name it measured, never another
 * image of the same digest) still the ones it measured, the curves to measure again (CC->curves, or those that look
 * changed against confirm_base_run), and where a previous image is kept
 * the libraries the run measured whose package changed between it and
 * the image (confirm_duet_libraries); a distribution with neither has
 * nothing to confirm and its kept previous image is deleted. The curves
 * are measured in one run (run_execute; its guests restricted to the
 * curves' libraries and algorithms): each image and its previous in
 * alternating rounds, order drawn per round, or the image alone in two
 * rounds. Then each previous image is measured against its image in a
 * duet (confirm_duets) of the curves' libraries and those whose package
 * changed, stored with the confirmation run. When no distribution has a
 * curve to measure, the confirmation run is recorded without guests of
 * its own and holds the duets alone (done when each stored its duet,
 * else failed and the previous images kept); stdout then gets the
 * duets' verdicts.
 * The confirmation is recorded before the guests start (so that the run
 * itself records no package changes) and completed after. When the run
 * is stored 'done', every previous image it measured is deleted (and
 * marked so); when it fails or is interrupted they are kept for a later
 * confirmation. Prints on stdout (unless CC->no_summary), per point of
 * the curves, the median throughput over the invocations of the previous
 * and of the new image and the change; progress and what happened on
 * stderr. *RET_RUN_ID gets the confirmation run's id (0 when nothing was
 * run). Returns an exit status: EXIT_OK (also when there was nothing to
 * confirm), EXIT_FAILED (the run or a library in it failed), EXIT_USAGE
 * (no such run; a run that is itself a confirmation, "run N is itself a
 * confirmation (of run M)", or a tool run, "run N is a tool run (run
 * --tools): nothing to confirm"; a malformed curve or one the guest does
 * not know, confirm_curves_parse), all said before anything runs,
 * EXIT_ENV (database unusable; or an image the run measured is gone,
 * said on stderr in one line, nothing measured for it:
 * confirm_target_find_images) or 128+signal when interrupted. */
int confirm_execute(const struct confirm_config *cc, int64_t *ret_run_id);

#endif
