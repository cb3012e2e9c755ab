/* guest/point.h - one measured point of a library: the batch functions
 * the timed calls run in (bulk, one-shot, key setup), and a point kept
 * open between blocks of batches, so that the interleaved scheduler
 * (guest/interleave.h) can time it a block at a time while other
 * libraries take their turns. */
#ifndef GUEST_POINT_H
#define GUEST_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"
#include "backend.h"
#include "bench.h"

/* What one timed batch needs. */
struct batch_arg {
	const struct guest_backend *b;
	enum guest_algo algo;
	enum guest_op op;
	void *ctx;		/* bulk and key setup: bulk_new()'s context */
	const uint8_t *in;
	uint8_t *out;
	size_t len;		/* bytes per call */
	uint8_t *aux;		/* tag or digest (backend.h, bulk_run) */
	const uint8_t *key, *iv;
};

/* bench_batch_fn for a backend's bulk_run on ARG (a struct batch_arg). */
int point_bulk_batch(void *arg, uint64_t calls);

/* bench_batch_fn for one-shot calls: every call creates, keys, uses and
 * frees a context (backend_oneshot()). */
int point_oneshot_batch(void *arg, uint64_t calls);

/* bench_batch_fn for key setup alone (the backend's rekey()). */
int point_rekey_batch(void *arg, uint64_t calls);

/* An open point: OP of ALGO on LEN-byte buffers in bulk or one-shot
 * mode, with its call count once calibrated. */
struct point {
	struct batch_arg arg;
	bool oneshot;
	uint64_t calls;			/* per batch; 0 = not calibrated */
	uint8_t aux[GUEST_MAX_DIGEST];	/* a hash's digest, else unused */
	uint8_t *in_base, *out_base;	/* where point_open put the input
					 * and output; arg.in and arg.out
					 * move from there by
					 * point_place_buffers */
	size_t in_bytes;		/* the input's bytes (an AEAD's
					 * tag after the text included) */
	uint64_t place_seed;		/* point_measure: each batch at the
					 * stack offset place_offset draws
					 * from this seed (guest/place.h) */
	unsigned place_n;		/* batches so placed */
};

/* Open point *P: OP of ALGO in B on LEN-byte buffers, in one-shot mode
 * when ONESHOT. The buffers follow guest/PROTOCOL.md "Buffers": input PT
 * (encrypt, hash) or CT (decrypt; an AEAD's valid tag TAG is copied right
 * after its text), output WORK; PT, CT and WORK are the caller's, of at
 * least LEN + GUEST_MAX_TAG bytes, and must outlive the point. KEY and IV
 * likewise. Returns 0, or -1 when the bulk context could not be created
 * (nothing to close then). */
int point_open(struct point *p, const struct guest_backend *b,
	       enum guest_algo algo, enum guest_op op, size_t len,
	       bool oneshot, uint8_t *pt, uint8_t *ct, uint8_t *work,
	       const uint8_t *tag, const uint8_t *key, const uint8_t *iv);

/* The batch function and its argument of the open point *P. */
bench_batch_fn point_fn(const struct point *p);

/* Measure the open point *P in full (bench_measure: calibration, then
 * the sets of PARAMS) into *R, the call count predicted from and then
 * written to HINT (may be NULL). Returns 0, or -1 when a call failed. */
/* (point_measure runs every batch, calibration included, at the stack
 * offset place_offset(p->place_seed, the point, batch number) draws: a
 * figure is an average over placements, the same ones in every process
 * given the seed; the placing costs a call and an alloca inside the
 * timed batch, tens of ns against its 0.5 ms or more.) */
int point_measure(struct point *p, const struct bench_params *params,
		  struct bench_hint *hint, struct bench_result *r);

/* Calibrate the open point *P (bench_calibrate) to batches of at least
 * PARAMS->min_batch_ns, predicted from HINT (may be NULL): sets
 * p->calls; adds the ns spent to *SPENT_NS. Returns 0, or -1 when a call
 * failed. */
int point_calibrate(struct point *p, const struct bench_params *params,
		    const struct bench_hint *hint, uint64_t *spent_ns);

/* One timed batch of p->calls calls (calibrated first) into *NS (ns of
 * the thread's CPU time, >= 1) and, with TSC, its TSC ticks into *TICKS;
 * adds to *SPENT_NS. Returns 0, or -1 when a call failed. */
int point_block(struct point *p, bool tsc, uint64_t *ns, uint64_t *ticks,
		uint64_t *spent_ns);

/* Place the open point *P's input IN_OFF bytes and its output OUT_OFF
 * bytes past where point_open put them (each below PLACE_SPAN,
 * guest/place.h; the buffers hold PLACE_SPAN bytes more than the
 * largest point). The input's bytes (with an AEAD's tag) move there, so
 * every block reads the same message; an AEAD's tag pointer follows. Not
 * timed: call it between blocks. */
void point_place_buffers(struct point *p, uint32_t in_off, uint32_t out_off);

/* Release what point_open() made (the bulk context), the input moved
 * back to where point_open found it. */
void point_close(struct point *p);

#endif /* GUEST_POINT_H */
