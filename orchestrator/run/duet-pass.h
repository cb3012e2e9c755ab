/* duet-pass.h - more rounds for the curves a duet has not decided yet.
 *
 * A duet judges its curves at looks (paired-verdict.h): the first after
 * --rounds rounds, then at twice as many, up to --max-rounds. The curves
 * still undecided at a look are measured again in a further pass: a new
 * pair of guests, side by side as the first, of just their libraries and
 * algorithms, with as many rounds as measured so far. Its blocks are
 * appended to the first pass's points as further rounds. A later pass is
 * a new pair of processes with another seed (block order, placement),
 * so that the rounds of a curve come from more than one process of each
 * image. */
#ifndef BENCHORCH_DUET_PASS_H
#define BENCHORCH_DUET_PASS_H

#include <stddef.h>

#include "lib/guest_output.h"
#include "orchestrator/run/duet-judge.h"

/* The libraries and the algorithms of the curves of C (N of them) whose
 * verdict is PV_MORE, as comma-separated lists in *LIBS and *ALGOS (new
 * strings, the caller frees them; NULL when there is none). Returns how
 * many curves are PV_MORE. */
size_t duet_pass_undecided(const struct duet_curve *c, size_t n,
			   char **libs, char **algos);

/* Append to each result of INTO whose curve (library, algorithm,
 * operation, mode) is PV_MORE in C (N of them) the blocks of its twin in
 * FROM (the same point measured by a later pass; every result when C is
 * NULL), as further rounds: each
 * block scaled from FROM's calls per block to INTO's (ns x calls_into /
 * calls_from, so that its throughput is kept), up to
 * GUEST_MAX_REPETITIONS rounds in all. The result's statistics (min,
 * quartiles, median, cv, MB/s) are recomputed over all its rounds.
 * Results of decided curves and results without a twin are left as they
 * are. Returns how many results got rounds. */
size_t duet_pass_merge(struct guest_output *into,
		       const struct guest_output *from,
		       const struct duet_curve *c, size_t n);

/* A duet's public-key and key derivation points as results, so that
 * they are judged, merged, printed and stored as the others: each
 * `pkresult` and `kdfresult` of OUT that holds one block a round (one
 * set) is appended to out->results with mode DUET_PK_MODE (operation
 * the pkresult's) or DUET_KDF_MODE (operation "derive"), buffer_bytes 1
 * (one operation a call: its bytes per batch are its calls, its "MB/s"
 * 10^6 operations per second) and the same blocks. Returns how many
 * were added. */
#define DUET_PK_MODE "pubkey"
#define DUET_KDF_MODE "kdf"
size_t duet_pk_results(struct guest_output *out);

/* LIST (comma-separated, NULL = every protocol algorithm) split for the
 * guest: its protocol algorithms into *SYM ("none" when it names none;
 * NULL when LIST is NULL), its public-key algorithms into *PK and its
 * key derivation functions into *KDF (NULL when none). New strings, the
 * caller frees them. */
void duet_split_algos(const char *list, char **sym, char **pk, char **kdf);

#endif /* BENCHORCH_DUET_PASS_H */
