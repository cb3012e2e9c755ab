/* run-confirm.h - a run and, right after it, the confirmation of what
 * looks changed in it: the sequence `benchorch run` and the daemon's jobs
 * share. */
#ifndef BENCHORCH_RUN_CONFIRM_H
#define BENCHORCH_RUN_CONFIRM_H

#include <stdint.h>

#include "orchestrator/run/run.h"

/* Called by run_and_confirm between the run and its confirmation, when
 * the run was recorded (RUN_ID >= 0, its row in runs) and no signal
 * stopped it. C is the configuration the run was made with; CTX is the
 * caller's (run_and_confirm's after_ctx). Nothing is returned: what it
 * does is its own to report. */
typedef void run_after_fn(void *ctx, const struct run_config *c,
			  int64_t run_id);

/* Do the run C (run_execute), then, unless C->no_confirm, a signal
 * stopped it, or it ended with another status than EXIT_OK or
 * EXIT_FAILED, confirm what looks changed in it (confirm_after_run:
 * previous image beside the new one when an image was rebuilt with other
 * packages and the previous kept, else the current image). AFTER_RUN
 * (NULL = none) is called with AFTER_CTX between the two, as
 * run_after_fn says. C->on_progress is still called as the run goes (the
 * run's id is taken from its calls on the way). *RET_RUN_ID (NULL = not
 * wanted) gets the run's id, or -1 when the run was never recorded.
 * Returns the run's exit status (run_execute); when that is EXIT_OK and
 * a confirmation ran, the confirmation's (confirm_after_run). Nothing is
 * allocated that the caller must free; C is not changed. */
int run_and_confirm(const struct run_config *c, run_after_fn *after_run,
		    void *after_ctx, int64_t *ret_run_id);

/* The step after run RUN_ID made with C (`run`, the daemon's runs): when
 * curves of the run look changed against the previous run of its
 * distributions (confirm_base_run), confirm the run (confirm_execute with
 * the curves that look changed: the previous image beside the new one
 * when an image was rebuilt with other packages and the previous kept,
 * else the current image once more; C's state, database, guest, runner,
 * --quick, --nohw, batch length, repetitions, sets, timeout, quietness
 * and progress sink; nothing on stdout) and say on stderr which run
 * confirmed it. Nothing happens when the run has no earlier run to
 * compare with. Returns EXIT_OK (also when nothing was confirmed),
 * EXIT_ENV after a warning on stderr when the database cannot tell
 * whether anything looks changed (it cannot be opened or read), or
 * confirm_execute's exit status. */
int confirm_after_run(const struct run_config *c, int64_t run_id);

#endif
