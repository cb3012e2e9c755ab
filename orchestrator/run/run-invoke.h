/* run-invoke.h - the steps of a run (run.c) for one distribution: its
 * image and guest made ready, one guest invocation, and its store in the
 * database as soon as it ends. */
#ifndef BENCHORCH_RUN_INVOKE_H
#define BENCHORCH_RUN_INVOKE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "images/builds.h"
#include "images/image.h"
#include "lib/util.h"
#include "orchestrator/run/plan.h"
#include "orchestrator/run/progress.h"
#include "orchestrator/run/run.h"

/* A distribution of the run: its image and guest, prepared once, used in
 * every round. The run owns it (image_free, free, close). */
struct run_dist {
	const char *spec;	/* borrowed from run_config.specs */
	struct image *image;	/* NULL when it could not be had (owned) */
	char *musl_guest;	/* the musl flavour for a musl rootfs, or NULL
				 * (c->guest) (owned) */
	char *logpath;		/* its guests' stderr, all rounds
				 * (owned) */
	int log_fd;		/* -1 = none */
	int failed;		/* 1: left out of the remaining rounds */
	struct build_info **builds;	/* the builds of run_config.builds
				 * of this image, measured beside its
				 * shipped libraries (builds_list_free) */
	size_t nbuilds;
};

/* Per-invocation bookkeeping, kept for the run's end (its output is
 * dropped once stored, but for the clocks). The run releases out
 * (guest_output_release) and frees error. */
struct run_inv {
	size_t dist;		/* index into the run's distributions */
	int round;		/* 1-based; 0 = none (the image failed) */
	const char *algos;	/* the guest's --algos (the plan's), or
				 * NULL */
	const char *pubkey;	/* its --pubkey (the plan's), NULL = none */
	const char *kdf;	/* its --kdf (the plan's), NULL = none */
	struct guest_output out;
	char started_at[32];	/* ISO 8601 UTC */
	char *error;		/* why it failed, or NULL (owned) */
	const char *runner;	/* "nspawn", "chroot" or "" (static) */
	uint64_t wall_ns;	/* the guest's wall time, ns */
	size_t measured;	/* results, key setups and public-key
				 * results it printed */
	int stored;		/* 1: in the database */
};

/* Get D's image (image_ensure under C's state and data directories, with
 * C's mirror, --refresh and progress) and guest flavour, and open its log
 * STATE/logs/UUID-IMAGE.log (truncated; D->log_fd -1 when it cannot be
 * opened). Fills D (D->spec set by the caller). Returns 0, or -1 with
 * *ERROR set to why (owned by the caller). */
int run_dist_prepare(const struct run_config *c, const char *uuid,
		     struct run_dist *d, char **error);

/* Say on stderr which libraries of S (an invocation of D in plan P)
 * failed (could not be loaded, crashed, hung) although the guest ran to
 * its end. Returns their count. */
size_t run_report_faults(const struct run_dist *d, const struct plan *p,
			 const struct run_inv *s);

/* Run the guest of D once, for round STEP->round of plan P, pinned to
 * CPU, with C's guest settings and timeout (C->timeout_s seconds; the
 * guest's own per-library limit run_lib_timeout_s), showing the library
 * measured on PG. Fills S (its output and clocks). Returns 0, or -1
 * with S->error set (owned by S; the guest log's last line worth quoting
 * added). A fallback from systemd-nspawn to chroot is warned about on
 * stderr. */
int run_invoke(const struct run_config *c, const struct plan *p,
	       const struct plan_step *step, struct run_dist *d, int cpu,
	       struct run_inv *s, struct progress *pg);

/* How many results of OUT are noisy: by their spread against the
 * invocation's typical one (guest_output_noisy), or with BY_GUEST (run
 * --max-cv given) by the guest's own flag. */
size_t run_count_noisy(const struct guest_output *out, int by_guest);

/* Store S, an invocation of D in run RUN_ID of C (its guest's error, or
 * its output), in DB in a transaction of its own
 * (db_run_store_invocation), then drop its output but for the clocks the
 * run's end reads (guest_output_shrink): the run's memory does not grow
 * with its results.
 * Returns 0 (s->stored set), or -1 with err set (nothing of S stored:
 * the output was validated as it was read, so what the database refuses
 * is the database's fault - a full disk, an I/O error, a lock held too
 * long). */
int run_store_now(sqlite3 *db, int64_t run_id, const struct run_config *c,
		  const struct run_dist *d, struct run_inv *s, bo_err *err);

/* Say on stderr, in one line, that the store of S (an invocation of D in
 * run RUN_ID of ROUNDS rounds, C's database) failed with ERR and
 * measuring stops, and how many invocations (NSTORED) are kept. Returns
 * the reason to store with the run (the caller frees it). */
char *run_store_failed_why(const struct run_config *c, int64_t run_id,
			   const struct run_dist *d, const struct run_inv *s,
			   size_t rounds, size_t nstored, const bo_err *err);

#endif
