/* guest/point.c - one measured point of a library (see point.h). */
#include "compat.h"

#include <string.h>

#include "algo.h"
#include "backend.h"
#include "bench.h"
#include "place.h"
#include "point.h"

int point_bulk_batch(void *p, uint64_t calls)
{
	struct batch_arg *a = p;

	return a->b->bulk_run(a->ctx, a->in, a->out, a->len, calls, a->aux);
}

int point_oneshot_batch(void *p, uint64_t calls)
{
	struct batch_arg *a = p;
	struct guest_oneshot io;

	memset(&io, 0, sizeof(io));
	io.key = a->key;
	io.iv = a->iv;
	io.in = a->in;
	io.len = a->len;
	io.out = a->out;
	io.tag = a->aux;
	if (algo_info(a->algo)->kind == GUEST_KIND_AEAD) {
		io.aad = guest_aead_aad;
		io.aad_bytes = GUEST_AEAD_AAD_BYTES;
	}
	if (algo_info(a->algo)->kind == GUEST_KIND_HASH)
		io.out = a->aux;
	for (uint64_t i = 0; i < calls; i++)
		if (backend_oneshot(a->b, a->algo, a->op, &io) != 0)
			return -1;
	return 0;
}

int point_rekey_batch(void *p, uint64_t calls)
{
	struct batch_arg *a = p;

	return a->b->rekey(a->ctx, a->key, a->iv, calls);
}

int point_open(struct point *p, const struct guest_backend *b,
	       enum guest_algo algo, enum guest_op op, size_t len,
	       bool oneshot, uint8_t *pt, uint8_t *ct, uint8_t *work,
	       const uint8_t *tag, const uint8_t *key, const uint8_t *iv)
{
	const struct guest_algo_info *ai = algo_info(algo);
	struct batch_arg *a = &p->arg;

	memset(p, 0, sizeof(*p));
	p->oneshot = oneshot;
	a->b = b;
	a->algo = algo;
	a->op = op;
	a->len = len;
	a->aux = p->aux;
	a->key = key;
	a->iv = iv;
	/* one layout for every library and mode (guest/PROTOCOL.md,
	 * "Buffers"): out of place, the input read from pt (encrypt, hash)
	 * or ct (decrypt), the output written to work; an AEAD's tag right
	 * after its text */
	a->in = op == GUEST_OP_DECRYPT ? ct : pt;
	a->out = work;
	p->in_bytes = len;
	if (ai->kind == GUEST_KIND_AEAD && op == GUEST_OP_DECRYPT) {
		memcpy(ct + len, tag, ai->tag_bytes);
		a->aux = ct + len;
		p->in_bytes += ai->tag_bytes;
	} else if (ai->kind == GUEST_KIND_AEAD) {
		a->aux = work + len;
	}
	p->in_base = (uint8_t *)a->in;
	p->out_base = a->out;
	if (oneshot)
		return 0;
	a->ctx = b->bulk_new(algo, op, key, iv);
	return a->ctx ? 0 : -1;
}

bench_batch_fn point_fn(const struct point *p)
{
	return p->oneshot ? point_oneshot_batch : point_bulk_batch;
}

/* One batch of a point, for place_call. */
struct placed_batch {
	struct point *p;
	uint64_t calls;
};

/* place_call's function: the batch of a->p. */
static int placed_thunk(void *arg)
{
	struct placed_batch *a = arg;

	return point_fn(a->p)(&a->p->arg, a->calls);
}

/* bench_batch_fn of point_measure: point ARG's batch of CALLS calls, at
 * the stack offset of its next batch number. */
static int placed_batch(void *arg, uint64_t calls)
{
	struct point *p = arg;
	struct placed_batch a = { p, calls };
	uint32_t off = place_offset(p->place_seed, (unsigned)p->arg.algo,
				    (unsigned)p->arg.op, p->oneshot,
				    p->arg.len, p->place_n++);

	return place_call(off, placed_thunk, &a);
}

int point_measure(struct point *p, const struct bench_params *params,
		  struct bench_hint *hint, struct bench_result *r)
{
	int rc = bench_measure(placed_batch, p, p->arg.len, params, hint, r);

	if (rc == 0)
		p->calls = r->calls_per_batch;
	return rc;
}

int point_calibrate(struct point *p, const struct bench_params *params,
		    const struct bench_hint *hint, uint64_t *spent_ns)
{
	struct bench_result r;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = bench_calibrate(point_fn(p), &p->arg, p->arg.len, params, hint,
			     &p->calls, &r);
	*spent_ns += r.spent_ns;
	return rc;
}

int point_block(struct point *p, bool tsc, uint64_t *ns, uint64_t *ticks,
		uint64_t *spent_ns)
{
	if (p->calls < 1)
		return -1;
	return bench_batch(point_fn(p), &p->arg, p->calls, tsc, ns, ticks,
			   spent_ns);
}

/* Point *P's input and output at IN and OUT: the input's bytes moved
 * there, the AEAD tag pointer after whichever holds it. */
static void buffers_at(struct point *p, uint8_t *in, uint8_t *out)
{
	struct batch_arg *a = &p->arg;
	bool aead = algo_info(a->algo)->kind == GUEST_KIND_AEAD;

	if (in != a->in)
		memmove(in, a->in, p->in_bytes);
	a->in = in;
	a->out = out;
	if (aead)
		a->aux = (a->op == GUEST_OP_DECRYPT ? in : out) + a->len;
}

void point_place_buffers(struct point *p, uint32_t in_off, uint32_t out_off)
{
	if (!p->in_base)
		return;
	buffers_at(p, p->in_base + in_off % PLACE_SPAN,
		   p->out_base + out_off % PLACE_SPAN);
}

void point_close(struct point *p)
{
	if (p->in_base)
		buffers_at(p, p->in_base, p->out_base);
	if (p->arg.ctx)
		p->arg.b->bulk_free(p->arg.ctx);
	p->arg.ctx = NULL;
}
