/* confirm-curves.h - which curves of a run look changed and so are
 * measured again before anything is reported (`benchorch confirm`). The
 * one place that decides it, from the per-curve verdicts of compare
 * (verdict_compare, orchestrator/results/verdicts.md). */
#ifndef BENCHORCH_CONFIRM_CURVES_H
#define BENCHORCH_CONFIRM_CURVES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* A curve: one distribution's (library, algorithm, operation, mode) over
 * its buffer sizes. All strings owned. */
struct confirm_curve {
	char *distro;		/* "debian:bookworm" */
	char *library, *algorithm;
	char *operation;	/* "encrypt", "decrypt", "hash"; "" = all */
	char *mode;		/* "bulk", "oneshot"; "" = all */
	int kind;		/* -1 looks slower, +1 faster, 0 asked for
				 * (--curves) */
};

/* The curves of run NEW_RUN to measure again against run BASE_RUN in DB:
 * those verdict_compare (the two whole runs, VERDICT_DEFAULT_THRESHOLD
 * and VERDICT_DEFAULT_ALPHA, as compare uses them) calls changed or
 * confirmed, and those it flagged (their canary moved: no verdict until
 * they are measured undisturbed); unchanged ones are not. One
 * entry per (distro, library, algorithm, operation, mode), whatever the
 * variants; kind -1 when the effect is negative (slower), +1 when
 * faster. Returns 0 with a new array in *ret and its length in *ret_n
 * (free with confirm_curves_free; NULL and 0 for none), or -1 with err
 * set (verdict_compare's error). */
int confirm_changed_curves(sqlite3 *db, int64_t base_run, int64_t new_run,
			   struct confirm_curve **ret, size_t *ret_n,
			   bo_err *err);

/* The run a confirmation of RUN_ID compares it with: its base as
 * compare --latest 2 takes it (db_base_run: the latest earlier finished
 * library run, not a confirmation, made alike - the same --quick flag,
 * variant and --interleave or not) that also measured one of RUN_ID's
 * distributions (distro and release; DB_BASE_SHARED_DISTRO). A --nohw
 * run in between is passed over, as compare does. Returns its id, 0 when
 * there is none, or -1 on a database error (the message is
 * sqlite3_errmsg(DB)). */
int64_t confirm_base_run(sqlite3 *db, int64_t run_id);

/* Parse LIST, comma-separated LIBRARY/ALGORITHM[/OPERATION[/MODE]] (e.g.
 * "openssl/aes-128-cbc/encrypt/bulk,nettle/sha-256"), into curves of
 * DISTRO (may be NULL: every distribution) with kind 0. Each item is
 * checked against the guest's names (algorithms.h): a known library, a
 * known algorithm, an operation that algorithm has (encrypt and decrypt
 * for a cipher, hash for a hash) and mode bulk or oneshot. Returns 0
 * with a new array (free with confirm_curves_free), or -1 with err set
 * naming the first item that is not a curve and why ("invalid curve
 * 'openssl/x': unknown algorithm 'x' (known: ...)"), *ret NULL and
 * *ret_n 0. */
int confirm_curves_parse(const char *list, const char *distro,
			 struct confirm_curve **ret, size_t *ret_n,
			 bo_err *err);

void confirm_curves_free(struct confirm_curve *v, size_t n);

#endif
