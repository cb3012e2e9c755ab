/* guest/measure.c - the measuring loop of one library (see measure.h). */
#include "compat.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo.h"
#include "backend.h"
#include "bench.h"
#include "canary.h"
#include "emit.h"
#include "kat.h"
#include "measure.h"
#include "kdf.h"
#include "pubkey.h"
#include "options.h"
#include "place.h"
#include "point.h"
#include "rusage.h"

/* The cross-library check's input: this many bytes of fill_pattern(). */
#define CROSSCHECK_BYTES ((size_t)128 * 1024)

/* --quick's sizes: 256 KiB, not 1 MiB, as the largest, whose throughput
 * is that of 1 MiB within a few per cent for every algorithm (both well
 * past the per-call cost) but costs a quarter: at 1 MiB, the slow
 * ciphers' bulk points (3DES ~40 ms a call) took 9.5 s of a 24 s quick
 * pass on a 2-core machine (Debian bookworm, 10 libraries). */
static const size_t quick_sizes[] = { 16, 1024, 16384, 262144 };

/* Set by check_emit() when stdout is gone (check_emit_flag). */
static int *emit_gone;

void check_emit_flag(int *flag)
{
	emit_gone = flag;
}

void check_emit(int rc)
{
	if (rc < 0) {
		complain("cannot write to stdout");
		if (emit_gone)
			*emit_gone = 1;
		_exit(1);
	}
}

int alloc_buffers(struct buffers *bufs)
{
	void *p[4];

	for (int i = 0; i < 4; i++) {
		if (posix_memalign(&p[i], 64, BUFFER_BYTES) != 0)
			return -1;
		memset(p[i], 0, BUFFER_BYTES);
	}
	bufs->pt = p[0];
	bufs->ct = p[1];
	bufs->work = p[2];
	bufs->scratch = p[3];
	return 0;
}

void free_buffers(struct buffers *bufs)
{
	free(bufs->pt);
	free(bufs->ct);
	free(bufs->work);
	free(bufs->scratch);
}

void fill_pattern(uint8_t *buf, size_t len)
{
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)(x >> 32);
	}
}

/* Time OP of ALGO on LEN-byte buffers (pt/ct/tag prepared by the caller)
 * in MODE ("bulk" or "oneshot") and print the result (or an error line).
 * HINT is the previous point of the same curve (bench.h), updated here.
 * Returns true when a result line was printed. */
static bool measure_op(struct run *run, const struct guest_backend *b,
		       enum guest_algo algo, enum guest_op op, size_t len,
		       const uint8_t *tag, bool verified, bool oneshot,
		       struct bench_hint *hint)
{
	const char *aname = algo_info(algo)->name;
	struct point p;
	struct bench_result r;
	int rc;

	if (point_open(&p, b, algo, op, len, oneshot, run->bufs.pt,
		       run->bufs.ct, run->bufs.work, tag, run->key,
		       run->iv) < 0) {
		check_emit(emit_error(b->name, aname,
				      "cannot create a %s context (%zu bytes)",
				      op_name(op), len));
		return false;
	}
	/* the batches' stack placements from the seed (guest/place.h) */
	p.place_seed = run->o->seed_set ? run->o->seed : PLACE_SEED;
	rc = point_measure(&p, &run->params, hint, &r);
	point_close(&p);
	run->counts->measure_ns += r.spent_ns;
	/* the high-water mark after the point: which point raised the
	 * library's peak (PROTOCOL.md, "Resources"); outside the timing */
	r.maxrss_kib = rusage_peak_kib();
	if (rc < 0) {
		check_emit(emit_error(b->name, aname,
				      "%s %s of %zu-byte buffers failed",
				      oneshot ? "one-shot" : "bulk",
				      op_name(op), len));
		return false;
	}
	check_emit(emit_result(b->name, aname, op_name(op),
			       oneshot ? "oneshot" : "bulk", len, &r,
			       verified));
	run->counts->held++;
	return true;
}

/* Time key setup alone for OP of cipher ALGO in B (if B can) and print a
 * keysetup line. */
static void measure_keysetup(struct run *run, const struct guest_backend *b,
			     enum guest_algo algo, enum guest_op op,
			     bool verified)
{
	struct batch_arg arg;
	struct bench_result r;
	int rc;

	if (!b->rekey)
		return;
	memset(&arg, 0, sizeof(arg));
	arg.b = b;
	arg.algo = algo;
	arg.op = op;
	arg.key = run->key;
	arg.iv = run->iv;
	arg.ctx = b->bulk_new(algo, op, run->key, run->iv);
	if (!arg.ctx) {
		check_emit(emit_error(b->name, algo_info(algo)->name,
				      "cannot create a %s context for key setup",
				      op_name(op)));
		return;
	}
	if (b->rekey(arg.ctx, run->key, run->iv, 1) == 1) {
		b->bulk_free(arg.ctx);	/* no separate key setup */
		return;
	}
	rc = bench_measure(point_rekey_batch, &arg, 1, &run->params, NULL, &r);
	b->bulk_free(arg.ctx);
	run->counts->measure_ns += r.spent_ns;
	if (rc < 0) {
		check_emit(emit_error(b->name, algo_info(algo)->name,
				      "%s key setup failed", op_name(op)));
		return;
	}
	check_emit(emit_keysetup(b->name, algo_info(algo)->name, op_name(op),
				 &r, verified));
}

/* FNV-1a, 64-bit (G. Fowler, L. C. Noll, K.-P. Vo; offset basis
 * 14695981039346656037, prime 1099511628211, as in the IETF draft
 * draft-eastlake-fnv): a checksum, not a cryptographic hash, used to
 * compare outputs across libraries (accidental agreement is what it guards
 * against; nobody is choosing these inputs). H is the running value:
 * start with FNV1A64_INIT. */
#define FNV1A64_INIT UINT64_C(14695981039346656037)
static uint64_t fnv1a64(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* The cross-library check of ALGO in B (see PROTOCOL.md): one-shot
 * encrypt (or hash) the CROSSCHECK_BYTES pattern with the run's key and
 * IV, print the output's FNV-1a 64 and whether decryption restored the
 * input. */
static void crosscheck(struct run *run, const struct guest_backend *b,
		       enum guest_algo algo)
{
	const struct guest_algo_info *ai = algo_info(algo);
	uint8_t tag[GUEST_MAX_DIGEST];
	struct guest_oneshot io;
	uint64_t h = FNV1A64_INIT;
	size_t outlen;
	bool rt = true;

	fill_pattern(run->bufs.pt, CROSSCHECK_BYTES);
	memset(tag, 0, sizeof(tag));
	memset(&io, 0, sizeof(io));
	io.key = run->key;
	io.iv = run->iv;
	io.in = run->bufs.pt;
	io.len = CROSSCHECK_BYTES;
	io.tag = tag;
	if (ai->kind == GUEST_KIND_AEAD) {
		io.aad = guest_aead_aad;
		io.aad_bytes = GUEST_AEAD_AAD_BYTES;
	}
	if (ai->kind == GUEST_KIND_HASH) {
		io.out = tag;
		if (backend_oneshot(b, algo, GUEST_OP_HASH, &io) != 0) {
			check_emit(emit_error(b->name, ai->name,
					      "cross-check: hashing failed"));
			return;
		}
		h = fnv1a64(h, tag, ai->digest_bytes);
		outlen = ai->digest_bytes;
	} else {
		io.out = run->bufs.ct;
		if (backend_oneshot(b, algo, GUEST_OP_ENCRYPT, &io) != 0) {
			check_emit(emit_error(b->name, ai->name,
					      "cross-check: encryption failed"));
			return;
		}
		h = fnv1a64(h, run->bufs.ct, CROSSCHECK_BYTES);
		h = fnv1a64(h, tag, ai->tag_bytes);
		outlen = CROSSCHECK_BYTES + ai->tag_bytes;
		io.in = run->bufs.ct;
		io.out = run->bufs.scratch;
		rt = backend_oneshot(b, algo, GUEST_OP_DECRYPT, &io) == 0 &&
		     memcmp(run->bufs.scratch, run->bufs.pt,
			    CROSSCHECK_BYTES) == 0;
	}
	check_emit(emit_crosscheck(b->name, ai->name, CROSSCHECK_BYTES, outlen,
				   h, rt));
}

/* Every size and operation (bulk and one-shot) of ALGO in B, its
 * known-answer tests passed when KAT_OK; DONE[operation][one-shot] is set
 * for each curve that printed a result (operation 0: encrypt or hash, 1:
 * decrypt). */
static void sweep_sizes(struct run *run, const struct guest_backend *b,
			enum guest_algo algo, bool kat_ok, bool done[2][2])
{
	const struct guest_algo_info *ai = algo_info(algo);
	size_t nsizes, sizes[FULL_SIZES];
	uint8_t tag[GUEST_MAX_DIGEST];
	/* per curve, the previous size's point: [operation][one-shot] */
	struct bench_hint hints[2][2];

	memset(done, 0, 4 * sizeof(bool));
	memset(hints, 0, sizeof(hints));
	nsizes = measure_sizes(run->o, sizes);
	for (size_t s = 0; s < nsizes; s++) {
		size_t len = sizes[s];
		bool rt, ok, one = len <= run->o->oneshot_max;
		/* bulk streams whole keystream blocks only (algo.h) */
		bool bulk = len % algo_stream_block(algo) == 0;

		fill_pattern(run->bufs.pt, len);
		memset(tag, 0, sizeof(tag));
		rt = kat_roundtrip(b, algo, run->key, run->iv, run->bufs.pt,
				   len, run->bufs.ct, tag, run->bufs.scratch);
		if (!rt)
			check_emit(emit_error(b->name, ai->name,
					      "round trip on a %zu-byte buffer failed",
					      len));
		ok = kat_ok && rt;
		if (ai->kind == GUEST_KIND_HASH) {
			done[0][0] |= measure_op(run, b, algo, GUEST_OP_HASH,
						 len, tag, ok, false,
						 &hints[0][0]);
			if (one)
				done[0][1] |= measure_op(run, b, algo,
							 GUEST_OP_HASH, len,
							 tag, ok, true,
							 &hints[0][1]);
			continue;
		}
		if (bulk) {
			done[0][0] |= measure_op(run, b, algo, GUEST_OP_ENCRYPT,
						 len, tag, ok, false,
						 &hints[0][0]);
			done[1][0] |= measure_op(run, b, algo, GUEST_OP_DECRYPT,
						 len, tag, ok, false,
						 &hints[1][0]);
		}
		if (one) {
			done[0][1] |= measure_op(run, b, algo, GUEST_OP_ENCRYPT,
						 len, tag, ok, true,
						 &hints[0][1]);
			done[1][1] |= measure_op(run, b, algo, GUEST_OP_DECRYPT,
						 len, tag, ok, true,
						 &hints[1][1]);
		}
	}
}

/* The sizes of ALGO in B (sweep_sizes) between two timings of the
 * contention canary (guest/canary.h). When the canary moved, and the
 * process has measured fewer sweeps again than --remeasure-max allows
 * (canary_may_remeasure), the lines of the sweep are dropped and it is
 * measured once more between two new timings; the lines of the sweep kept are followed by one canary line
 * per curve that has results, moved only when the canary moved in the
 * sweep kept (both). */
static void sweep_with_canary(struct run *run, const struct guest_backend *b,
			      enum guest_algo algo, bool kat_ok)
{
	uint64_t before[CANARY_REPS], after[CANARY_REPS];
	static const char *const modes[2] = { "bulk", "oneshot" };
	const struct guest_algo_info *ai = algo_info(algo);
	bool done[2][2];
	struct canary c;
	unsigned attempt;

	run->counts->first_sweeps++;
	for (attempt = 0;; attempt++) {
		unsigned extra = run->counts->sweeps++ <
				 run->o->canary_disturb ? 2 : 0;

		run->counts->held = 0;
		canary_time(before, CANARY_REPS, 0);
		emit_hold();
		sweep_sizes(run, b, algo, kat_ok, done);
		canary_time(after, CANARY_REPS, extra);
		canary_judge(before, after, CANARY_REPS, &c);
		if (!c.moved || attempt == 1 || !(done[0][0] || done[0][1] ||
						  done[1][0] || done[1][1]))
			break;
		/* over the allowance: kept, marked moved */
		if (!canary_may_remeasure(run->counts->first_sweeps,
					  run->counts->remeasured,
					  run->o->remeasure_max))
			break;
		/* measured again: the first sweep's lines are dropped
		 * (unless there were too many to hold) */
		if (emit_release(false) == 1)
			break;
		run->counts->remeasured++;
	}
	if (emit_release(true) < 0)
		check_emit(-1);
	run->counts->results += run->counts->held;
	run->counts->held = 0;
	for (int op = 0; op < 2; op++)
		for (int m = 0; m < 2; m++)
			if (done[op][m])
				check_emit(emit_canary(b->name, ai->name,
						       ai->kind == GUEST_KIND_HASH ?
						       "hash" : op ? "decrypt" :
						       "encrypt", modes[m], &c,
						       attempt > 0));
}

bool measure_algo_prepare(struct run *run, const struct guest_backend *b,
			  enum guest_algo algo, bool *kat_ok_ret)
{
	const struct guest_algo_info *ai = algo_info(algo);
	const struct kat_vector *v;
	size_t nv;
	bool kat_ok = true;

	*kat_ok_ret = false;
	if (!b->supports(algo)) {
		check_emit(emit_unsupported(b->name, ai->name));
		return false;
	}
	v = kat_table(&nv);
	for (size_t i = 0; i < nv; i++) {
		bool ok;

		if (v[i].algo != algo)
			continue;
		ok = kat_check(b, &v[i]);
		kat_ok = kat_ok && ok;
		check_emit(emit_kat(b->name, ai->name, ok, v[i].source));
	}
	if (ai->mode == GUEST_MODE_CBC) {
		bool ok = kat_cbc_chain(b, algo, run->key, run->iv);

		kat_ok = kat_ok && ok;
		check_emit(emit_kat(b->name, ai->name, ok,
				    KAT_CBC_CHAIN_SOURCE));
	}
	crosscheck(run, b, algo);
	if (ai->kind != GUEST_KIND_HASH) {
		measure_keysetup(run, b, algo, GUEST_OP_ENCRYPT, kat_ok);
		measure_keysetup(run, b, algo, GUEST_OP_DECRYPT, kat_ok);
	}
	*kat_ok_ret = kat_ok;
	return true;
}

size_t measure_sizes(const struct options *o, size_t *sizes)
{
	size_t n = o->quick ? sizeof(quick_sizes) / sizeof(quick_sizes[0])
			    : FULL_SIZES;

	for (size_t s = 0; s < n; s++)
		sizes[s] = o->quick ? quick_sizes[s] : (size_t)16 << s;
	return n;
}

bool measure_load(struct run *run, const struct guest_backend *b)
{
	struct guest_lib_info info;
	char why[512];
	enum guest_load rc;

	memset(&info, 0, sizeof(info));
	why[0] = '\0';
	/* the footprint: resident set before and right after loading
	 * (PROTOCOL.md, "Resources") */
	info.rss_before_load_kib = rusage_rss_now_kib();
	rc = backend_load(b, &info, why, sizeof(why));
	info.footprint_kib = rusage_rss_now_kib();
	if (rc == GUEST_LOAD_ABSENT) {
		check_emit(emit_library(b->name, NULL));
		run->counts->reported = 1;
		return false;
	}
	if (rc != GUEST_LOAD_OK) {
		/* present but not loadable: failed, not absent */
		check_emit(emit_library_failed(b->name, why));
		run->counts->reported = 1;
		check_emit(emit_error(b->name, "", "%s", why));
		return false;
	}
	backend_build_id(info.path, info.build_id, sizeof(info.build_id));
	check_emit(emit_library(b->name, &info));
	run->counts->reported = 1;
	return true;
}

void run_library(struct run *run, const struct guest_backend *b)
{
	if (!measure_load(run, b))
		return;
	for (size_t i = 0; i < run->o->nalgos; i++) {
		enum guest_algo algo = run->o->algos[i];
		bool kat_ok;

		run->counts->algo = (int)algo;
		if (measure_algo_prepare(run, b, algo, &kat_ok))
			sweep_with_canary(run, b, algo, kat_ok);
	}
	run->counts->algo = -1;
	pubkey_measure_library(run, b);
	kdf_measure_library(run, b);
}
