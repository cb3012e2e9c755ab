/* guest/interleave.c - the libraries measured in blocks that take turns
 * (see interleave.h). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "bench.h"
#include "emit.h"
#include "interleave.h"
#include "kdf.h"
#include "lib/build-name.h"
#include "lib/shuffle.h"
#include "pairs.h"
#include "place.h"
#include "pubkey.h"
#include "samples.h"
#include "turns.h"
#include "worker.h"

/* What one library has of the point being measured. */
struct lib_point {
	size_t lib;			/* index into the workers */
	bool ok;			/* every block so far was timed */
	bool verified;
	uint64_t calls;			/* per batch */
	uint64_t ns[PAIRS_MAX_ROUNDS];	/* each round's block */
	uint64_t ticks[PAIRS_MAX_ROUNDS];
	uint64_t maxrss_kib;
};

/* The state of one interleaved run. */
struct sched {
	struct run *run;
	struct worker w[MAX_LIBS];
	size_t nlibs;
	bool supports[MAX_LIBS];	/* the current algorithm */
	struct shuffle_rng rng;
	uint64_t seed;			/* the block order's and placement's */
	unsigned rounds;
	struct lib_point lp[MAX_LIBS];	/* the current point */
	double t[MAX_LIBS * PAIRS_MAX_ROUNDS];	/* ns per byte, pairs.h */
};

/* Command Q to worker I; the ns its reply spent are counted. Returns
 * 0 with *R, or -1 (the worker failed: reported, dead). A worker's own
 * refusal (status -1, its error line printed) is 0 with r->status -1. */
static int call(struct sched *s, size_t i, const struct worker_req *q,
		struct worker_reply *r)
{
	if (worker_call(s->run, &s->w[i], q, r) < 0)
		return -1;
	s->run->counts->measure_ns += r->spent_ns;
	return 0;
}

/* The timing of library point LP, one set of its rounds' blocks, into
 * *R (all but mb_per_s and maxrss_kib). */
static void lib_point_timing(struct sched *s, const struct lib_point *lp,
			     struct bench_result *rp)
{
	struct bench_result r;
	struct samples_summary sum;
	uint64_t sorted[PAIRS_MAX_ROUNDS];

	memset(&r, 0, sizeof(r));
	samples_summarise(lp->ns, s->rounds, &sum);
	memcpy(r.samples_ns, lp->ns, s->rounds * sizeof(lp->ns[0]));
	r.calls_per_batch = lp->calls;
	r.repetitions = s->rounds;
	r.sets = 1;
	r.median_ns = sum.median_ns;
	r.min_ns = sum.min_ns;
	r.p25_ns = sum.p25_ns;
	r.p75_ns = sum.p75_ns;
	r.cv = sum.cv;
	r.noisy = sum.cv > s->run->params.max_cv;
	if (s->run->params.tsc) {
		memcpy(sorted, lp->ticks, s->rounds * sizeof(sorted[0]));
		samples_sort(sorted, s->rounds);
		r.tsc_cycles = samples_quartile(sorted, s->rounds, 2);
	}
	*rp = r;
}

/* The `result` line of library point LP at LEN bytes. */
static void emit_lib_point(struct sched *s, const struct lib_point *lp,
			   enum guest_algo algo, enum guest_op op,
			   bool oneshot, size_t len)
{
	struct bench_result r;

	lib_point_timing(s, lp, &r);
	r.mb_per_s = (double)len * (double)lp->calls /
		     (double)r.median_ns * 1000.0;
	r.maxrss_kib = lp->maxrss_kib;
	check_emit(emit_result(s->w[lp->lib].b->name, algo_info(algo)->name,
			       op_name(op), oneshot ? "oneshot" : "bulk", len,
			       &r, lp->verified));
	s->run->counts->results++;
}

/* The names a point's `pair` lines give it (guest/PROTOCOL.md,
 * "Interleaved measurement"): a cipher's or hash's, or a public-key
 * operation's (mode "pubkey") or a KDF's (mode "kdf"), LEN 1 (t per
 * call). LATER: the lines wait for interleave_emit_late_pairs, after the
 * `pkresult` and `kdfresult` lines they pair. */
struct point_names {
	const char *algo, *op, *mode;
	size_t len;
	bool later;
};

/* A `pair` line held for interleave_emit_late_pairs; the names are the
 * tables' and the workers' backends', which outlive it. */
struct late_pair {
	const char *lib, *versus;
	struct point_names pn;
	struct pair_est e;
	uint64_t span_ns;
};

/* The pairs of the public-key operations and KDFs, in the order made. */
static struct late_pair *late;
static size_t nlate;

/* The index among the N libraries IDX of the point of the shipped
 * library whose build is the library at K ("nettle" for "nettle@o0"),
 * or -1: K is no build, or its shipped library is not at the point. */
static int shipped_of(const struct sched *s, const size_t *idx, size_t n,
		      size_t k)
{
	const char *name = s->w[s->lp[idx[k]].lib].b->name;

	for (size_t j = 0; j < n; j++)
		if (build_is_of(name, s->w[s->lp[idx[j]].lib].b->name))
			return (int)j;
	return -1;
}

/* One `pair` line: the library at K against the one at REF (indices
 * into IDX, the point's libraries with every block). */
static void emit_pair_of(struct sched *s, const size_t *idx, size_t k,
			 size_t ref, const struct point_names *pn,
			 uint64_t span_ns)
{
	const char *lib = s->w[s->lp[idx[k]].lib].b->name;
	const char *versus = s->w[s->lp[idx[ref]].lib].b->name;
	struct pair_est e;
	struct late_pair *l;

	if (pairs_estimate(&s->t[ref * s->rounds], &s->t[k * s->rounds],
			   s->rounds, &e) < 0)
		return;
	if (!pn->later) {
		check_emit(emit_pair(lib, pn->algo, pn->op, pn->mode, pn->len,
				     versus, &e, span_ns));
		return;
	}
	if (!(l = realloc(late, (nlate + 1) * sizeof(*late)))) {
		complain("out of memory");
		exit(1);
	}
	late = l;
	late[nlate++] = (struct late_pair){ lib, versus, *pn, e, span_ns };
}

void interleave_emit_late_pairs(void)
{
	for (size_t i = 0; i < nlate; i++) {
		const struct late_pair *l = &late[i];

		check_emit(emit_pair(l->lib, l->pn.algo, l->pn.op, l->pn.mode,
				     l->pn.len, l->versus, &l->e, l->span_ns));
	}
	free(late);
	late = NULL;
	nlate = 0;
}

/* The `pair` lines of the point: each library that has every block
 * against the fastest of them, and each build (--build) against its
 * shipped library as well; SPAN_NS from the start of the point's first
 * block to the end of its last. */
static void emit_pairs(struct sched *s, size_t m,
		       const struct point_names *pn, uint64_t span_ns)
{
	size_t idx[MAX_LIBS], n = 0;
	int ref;

	for (size_t k = 0; k < m; k++) {
		const struct lib_point *lp = &s->lp[k];

		if (!lp->ok)
			continue;
		for (unsigned r = 0; r < s->rounds; r++)
			s->t[n * s->rounds + r] =
				(double)lp->ns[r] /
				((double)lp->calls * (double)pn->len);
		idx[n++] = k;
	}
	ref = pairs_reference(s->t, n, s->rounds);
	if (ref < 0 || n < 2)
		return;
	for (size_t k = 0; k < n; k++) {
		int sh = shipped_of(s, idx, n, k);

		if ((int)k != ref)
			emit_pair_of(s, idx, k, (size_t)ref, pn, span_ns);
		if (sh >= 0 && sh != ref)
			emit_pair_of(s, idx, k, (size_t)sh, pn, span_ns);
	}
}

static size_t open_rounds(struct sched *s, struct worker_req *q,
			  unsigned place_algo, unsigned place_op,
			  bool oneshot, size_t len, uint64_t *start);

/* One point: every library that has ALGO opens and calibrates it, then
 * s->rounds rounds of one block each, the libraries in a new random
 * order each round; then the results and the pairs. In a duet a turn
 * ends after the calibration and after each round, whether or not a
 * library has the point, so that both guests end as many turns at every
 * point (turns.h). */
static void run_point(struct sched *s, enum guest_algo algo,
		      enum guest_op op, bool oneshot, size_t len)
{
	struct point_names pn = { algo_info(algo)->name, op_name(op),
				  oneshot ? "oneshot" : "bulk", len, false };
	struct worker_req q;
	uint64_t start;
	size_t m;

	memset(&q, 0, sizeof(q));
	q.cmd = WORKER_POINT;
	q.algo = (uint32_t)algo;
	q.op = (uint32_t)op;
	q.oneshot = oneshot;
	q.len = len;
	m = open_rounds(s, &q, algo, op, oneshot, len, &start);
	for (size_t k = 0; k < m; k++)
		if (s->lp[k].ok)
			emit_lib_point(s, &s->lp[k], algo, op, oneshot, len);
	emit_pairs(s, m, &pn, bench_now_ns() - start);
}

/* A point's opening (command QP, to every library that has the
 * algorithm, s->supports) and its rounds of blocks (BLOCK, PKBLOCK
 * after PKOP, KDFBLOCK after KDFOP), the libraries in a new random
 * order each round, each round at the placement of (PLACE_ALGO,
 * PLACE_OP, ONESHOT, LEN); a turn ends after the opening and after each
 * round. *START gets the time the first block began. Returns the count
 * of libraries in s->lp. */
static size_t open_rounds(struct sched *s, struct worker_req *qp,
			  unsigned place_algo, unsigned place_op,
			  bool oneshot, size_t len, uint64_t *start)
{
	size_t order[MAX_LIBS], m = 0;
	struct worker_req q = *qp;
	struct worker_reply r;

	shuffle_permutation(&s->rng, order, s->nlibs);
	for (size_t k = 0; k < s->nlibs; k++) {
		size_t i = order[k];
		struct lib_point *lp = &s->lp[m];

		if (!s->supports[i] || !s->w[i].alive ||
		    call(s, i, &q, &r) < 0 || r.status != 0)
			continue;
		memset(lp, 0, sizeof(*lp));
		lp->lib = i;
		lp->ok = true;
		lp->verified = r.verified != 0;
		lp->calls = r.calls;
		m++;
	}
	turns_pass();
	q.cmd = q.cmd == WORKER_PKOP ? WORKER_PKBLOCK :
		q.cmd == WORKER_KDFOP ? WORKER_KDFBLOCK : WORKER_BLOCK;
	*start = bench_now_ns();
	for (unsigned round = 0; round < s->rounds; round++) {
		/* one placement per round for every library, and for the
		 * other guest of a duet (the same seed) */
		q.place = place_offset(s->seed, place_algo, place_op, oneshot,
				       len, round);
		q.buffers = place_buffers(s->seed, place_algo, place_op,
					  oneshot, len, round);
		shuffle_permutation(&s->rng, order, m);
		for (size_t k = 0; k < m; k++) {
			struct lib_point *lp = &s->lp[order[k]];

			if (!lp->ok)
				continue;
			if (call(s, lp->lib, &q, &r) < 0 || r.status != 0) {
				lp->ok = false;
				continue;
			}
			lp->ns[round] = r.ns;
			lp->ticks[round] = r.ticks;
			if (r.maxrss_kib > lp->maxrss_kib)
				lp->maxrss_kib = r.maxrss_kib;
		}
		turns_pass();
	}
	return m;
}

/* Send Q (an algorithm's set-up: WORKER_ALGO, WORKER_PKALGO or
 * WORKER_KDFALGO) to every live worker, in a new random order, and note
 * in s->supports which have the algorithm (its known answers and set-up
 * lines printed by the worker); then end the turn. Returns whether any
 * library has it. */
static bool ask_support(struct sched *s, const struct worker_req *q)
{
	size_t order[MAX_LIBS];
	struct worker_reply r;
	bool any = false;

	shuffle_permutation(&s->rng, order, s->nlibs);
	for (size_t k = 0; k < s->nlibs; k++) {
		size_t i = order[k];

		s->supports[i] = s->w[i].alive && call(s, i, q, &r) == 0 &&
				 r.status == 0 && r.supported;
		any = any || s->supports[i];
	}
	turns_pass();
	return any;
}

/* Every point of ALGO: the sizes of the run; at each, as the sequential
 * sweep does (measure.c), bulk where the size is whole keystream blocks
 * and one-shot up to --oneshot-max; encryption then decryption. In a
 * duet a turn ends after the libraries' ALGO, and the points of an
 * algorithm no library has still take their (empty) turns: the turns of
 * both guests depend on the options alone. */
static void run_algo(struct sched *s, enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	size_t sizes[FULL_SIZES], nsizes;
	struct worker_req q;
	bool any;

	memset(&q, 0, sizeof(q));
	q.cmd = WORKER_ALGO;
	q.algo = (uint32_t)algo;
	any = ask_support(s, &q);
	if (!any && !s->run->o->duet)
		return;
	nsizes = measure_sizes(s->run->o, sizes);
	for (size_t k = 0; k < nsizes; k++) {
		size_t len = sizes[k];
		bool one = len <= s->run->o->oneshot_max;
		bool bulk = len % algo_stream_block(algo) == 0;

		for (int m = 0; m < 2; m++) {
			bool oneshot = m == 1;

			if (oneshot ? !one : !bulk)
				continue;
			if (ai->kind == GUEST_KIND_HASH) {
				run_point(s, algo, GUEST_OP_HASH, oneshot, len);
				continue;
			}
			run_point(s, algo, GUEST_OP_ENCRYPT, oneshot, len);
			run_point(s, algo, GUEST_OP_DECRYPT, oneshot, len);
		}
	}
}

/* The public-key algorithm ALGO, interleaved (pubkey.h,
 * "Interleaved"): every library's known answers and keys (and, but in
 * a duet, its RSA key generation timed alone), then each operation a
 * point of one size whose blocks take turns as a cipher's do; the
 * blocks go to run->pk as that library's timing of the operation (its
 * `pkresult`, printed by pubkey_finish after the cross-check), and its
 * `pair` lines wait for them (mode "pubkey"). The turns depend on the
 * options alone, as run_algo's. */
static void run_pk(struct sched *s, int algo)
{
	const struct pubkey_algorithm *t = &pubkey_table[algo];
	struct point_names pn = { t->name, NULL, "pubkey", 1, true };
	uint64_t start;
	struct worker_req q;

	memset(&q, 0, sizeof(q));
	q.cmd = WORKER_PKALGO;
	q.algo = (uint32_t)algo;
	ask_support(s, &q);
	for (int op = 0; op < PUBKEY_MAX_OPS && t->ops[op]; op++) {
		size_t m;

		if (!pubkey_duet_has_op(algo, op))
			continue;
		q.cmd = WORKER_PKOP;
		q.op = (uint32_t)op;
		/* placements of their own: past the ciphers' algorithms */
		m = open_rounds(s, &q, GUEST_ALGO_COUNT + (unsigned)algo,
				(unsigned)op, false, 0, &start);
		pn.op = t->ops[op];
		emit_pairs(s, m, &pn, bench_now_ns() - start);
		for (size_t k = 0; k < m; k++) {
			const struct lib_point *lp = &s->lp[k];
			struct pk_outcome *o = &s->run->pk->o[lp->lib][algo];

			if (!lp->ok)
				continue;
			lib_point_timing(s, lp, &o->r[op]);
			o->r[op].maxrss_kib = lp->maxrss_kib;
			o->have[op] = true;
		}
	}
}

/* The key derivation function ALGO, interleaved, as run_pk: every
 * library's known answers, then one point (a batch of derivations a
 * block) whose blocks take turns; the blocks go to run->kdf (its
 * `kdfresult`, printed by kdf_finish), its `pair` lines (mode "kdf",
 * operation "derive") wait for them. */
static void run_kdf(struct sched *s, int algo)
{
	struct point_names pn = { kdf_table[algo].name, "derive", "kdf", 1,
				  true };
	size_t m;
	uint64_t start;
	struct worker_req q;

	memset(&q, 0, sizeof(q));
	q.cmd = WORKER_KDFALGO;
	q.algo = (uint32_t)algo;
	ask_support(s, &q);
	q.cmd = WORKER_KDFOP;
	/* placements of their own: past the public-key algorithms' */
	m = open_rounds(s, &q, GUEST_ALGO_COUNT + GUEST_PK_COUNT +
			       (unsigned)algo, 0, false, 0, &start);
	emit_pairs(s, m, &pn, bench_now_ns() - start);
	for (size_t k = 0; k < m; k++) {
		const struct lib_point *lp = &s->lp[k];
		struct kdf_outcome *o = &s->run->kdf->o[lp->lib][algo];

		if (!lp->ok)
			continue;
		lib_point_timing(s, lp, &o->r);
		o->r.maxrss_kib = lp->maxrss_kib;
		o->have = true;
	}
}

void interleave_run(struct run *run)
{
	const struct options *o = run->o;
	struct sched *s = calloc(1, sizeof(*s));

	if (!s) {
		complain("out of memory");
		exit(1);
	}
	s->run = run;
	s->nlibs = o->nlibs;
	s->rounds = o->rounds;
	s->seed = o->seed_set ? o->seed : INTERLEAVE_SEED;
	shuffle_seed(&s->rng, s->seed);
	turns_start(o->duet);
	for (size_t i = 0; i < s->nlibs; i++) {
		if (worker_start(run, o->libs[i], &s->w[i]) < 0) {
			check_emit(emit_library_failed(o->libs[i]->name,
						       "cannot start the library's process"));
			check_emit(emit_error(o->libs[i]->name, "",
					      "cannot start the library's process"));
		}
	}
	turns_pass();
	for (size_t a = 0; a < o->nalgos; a++)
		run_algo(s, o->algos[a]);
	/* the public-key algorithms and key derivation functions: points
	 * that take turns too */
	if (run->pk)
		for (int a = 0; a < GUEST_PK_COUNT; a++)
			if (o->pk[a])
				run_pk(s, a);
	if (run->kdf)
		for (int a = 0; a < GUEST_KDF_COUNT; a++)
			if (o->kdf[a])
				run_kdf(s, a);
	for (size_t i = 0; i < s->nlibs; i++)
		worker_stop(run, &s->w[i]);
	free(s);
}
