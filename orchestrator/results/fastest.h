/* fastest.h - which library is fastest: per run, distribution and
 * algorithm, every library's throughput at 16 KiB and 16 B ranked, read
 * from the database; shared by run's summary and the report's overview. */
#ifndef BENCHORCH_FASTEST_H
#define BENCHORCH_FASTEST_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* The two buffer sizes the answer is given at, in bytes: a large buffer
 * (throughput of the bulk loop) and a small one (per-call overhead
 * dominates). */
#define FASTEST_LARGE 16384
#define FASTEST_SMALL 16

/* One library's figures for one (run, distribution, algorithm). A
 * throughput of -1 means "not measured at that size". */
struct fastest_lib {
	char *library;		/* "openssl"; owned */
	char *version;		/* short: "3.0.11" (fastest_short_version);
				 * owned */
	double large_mbps;	/* MB/s (10^6 B/s) at FASTEST_LARGE, or -1 */
	double small_mbps;	/* MB/s at FASTEST_SMALL, or -1 */
	int large_noisy, small_noisy;	/* 1: the point stayed noisy */
	int large_unverified, small_unverified;	/* 1: stored verified = 0 */
	double large_cpb;	/* cycles per byte at FASTEST_LARGE: the
				 * clock (Hz) / (MB/s x 10^6); -1 unknown */
	int cpb_nominal;	/* 1: large_cpb uses the CPU model name's
				 * nominal clock (the run measured none) */
	int large_tie;		/* 1: the run's pairs (run --interleave) do
				 * not tell it apart from its group's
				 * fastest at FASTEST_LARGE (fastest_mark_ties) */
};

/* One (run, distribution, algorithm): its libraries, fastest first at
 * FASTEST_LARGE (those without a FASTEST_LARGE point last, by name). The
 * operation is encryption for ciphers and hashing for hash functions
 * (bulk mode). */
struct fastest_group {
	int64_t run_id;
	char *distro;		/* "debian:bookworm"; owned */
	char *algorithm;	/* owned */
	char *operation;	/* "encrypt" or "hash"; owned */
	struct fastest_lib *libs;	/* owned */
	size_t nlibs;
};

struct fastest_table {
	struct fastest_group *groups;	/* by run, distribution, algorithm */
	size_t ngroups;
	size_t ndistros;	/* distinct (run, distribution) pairs */
};

/* Load the groups of the NRUNS runs in RUNS (bulk results at
 * FASTEST_LARGE and FASTEST_SMALL, operation encrypt or hash) from DB into
 * *t (caller releases with fastest_release). Works on a database of an
 * older schema opened read-only (no noisy flag, no measured clock: the
 * nominal clock, or none). Returns the number of groups (0 when the runs
 * have no such results), or -1 with err set on a database error. */
long fastest_load(sqlite3 *db, const int64_t *runs, size_t nruns,
		  struct fastest_table *t, bo_err *err);

/* The rule of a tie with the fastest, for any kind of point: of one
 * pair (pairs_v: LIB's rate as the fraction RATIO of VERSUS's, TIE 1
 * when its interval holds 1) at a point whose fastest over the run is
 * FASTEST (names as the caller labels them), the library the pair does
 * not tell apart from FASTEST: LIB when it tied with FASTEST, VERSUS when
 * LIB is FASTEST and was not the faster of the two by its interval (the
 * invocations disagree on which is faster); else NULL. The result is LIB
 * or VERSUS (borrowed). Never fails. */
const char *fastest_pair_tied(const char *fastest, const char *lib,
			      const char *versus, double ratio, int tie);

/* Mark, in every group of T, the libraries the pairs of T's runs
 * (pairs_v, run --interleave; bulk encryption or hashing at
 * FASTEST_LARGE) do not tell apart from the group's fastest,
 * t->groups[].libs[0]: large_tie = 1 when, in some invocation, the pair
 * of the library against the fastest was a tie, or the fastest was the
 * slower of the two (the invocations disagree; fastest_pair_tied). A
 * database without pairs marks nothing. fastest_load calls it. Returns
 * 0, or -1 with err set on a database error. */
int fastest_mark_ties(sqlite3 *db, struct fastest_table *t, bo_err *err);

/* Free everything *t owns and empty it. */
void fastest_release(struct fastest_table *t);

/* The library with the highest FASTEST_SMALL throughput in G, or NULL
 * when none was measured there. Borrowed from G. */
const struct fastest_lib *fastest_small_leader(const struct fastest_group *g);

/* The spread of one library between distributions (same run, same
 * algorithm, MB/s at FASTEST_LARGE), over the algorithms it was measured
 * on in at least two distributions. */
struct fastest_spread {
	const char *library;	/* borrowed from the table */
	int64_t run_id;
	size_t nalgos;		/* algorithms measured in >= 2 distributions */
	double median_pct;	/* median over them of (max / min - 1) x 100 */
	double max_pct;		/* the largest of them */
	const char *max_algorithm;	/* where it is largest; borrowed */
	const char *max_fast, *max_slow;	/* its fastest and slowest
						 * distribution; borrowed */
};

/* The spreads of every library of T measured in at least two
 * distributions of the same run, by run and library name, into *ret (an
 * array the caller frees; its strings stay owned by T). Returns the count
 * (0 when no run has two distributions). */
size_t fastest_spreads(const struct fastest_table *t,
		       struct fastest_spread **ret);

/* A short version for display: the first word of FULL that starts with a
 * digit and has a dot ("Botan 2.19.3 (unreleased, revision unknown)" ->
 * "2.19.3", "OpenSSL 3.0.11 19 Sep 2023" -> "3.0.11", "1.10.1" ->
 * "1.10.1"), its trailing punctuation dropped; else FULL cut to 12
 * characters; "" for NULL. The full string stays in the database.
 * Newly allocated; caller frees. */
char *fastest_short_version(const char *full);

#endif
