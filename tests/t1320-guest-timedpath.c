/* tests/t1320-guest-timedpath.c - the guest's checks of the timed path
 * (guest/kat.h: kat_roundtrip, kat_cbc_chain) catch a backend that breaks
 * the rules of guest/PROTOCOL.md ("Timing modes", "Buffers"). A stand-in
 * backend with toy primitives (not cryptography: a byte-wise keyed
 * permutation as the block cipher, a counter-derived keystream, a keyed
 * checksum as the tag) runs once correctly and once with each fault:
 *  - CBC that does not chain (each block alone, the IV ignored);
 *  - a stream cipher that restarts its counter on every timed call (what
 *    the libsodium backend did);
 *  - an AEAD whose timed decryption accepts any tag;
 *  - a timed path whose output is wrong only above 64 KiB.
 * Each check must pass on the correct backend and fail on the faulty one.
 * Then a block's placement (point_place_buffers, guest/place.h) on the
 * correct stand-in: an AEAD's message and tag move with the input, so
 * that its timed decryption (which checks the tag) still succeeds at
 * every offset; the output lands at its offset; closing the point puts
 * the message back where it was.
 * Prints TAP. */
#include "guest/compat.h"
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guest/algo.h"
#include "guest/backend.h"
#include "guest/kat.h"
#include "guest/place.h"
#include "guest/point.h"
#include "tests/tap.h"

/* The faults the stand-in can have. */
enum fault { NONE, NO_CHAIN, STREAM_RESTART, ANY_TAG, BAD_ABOVE_64K };
static enum fault fault;

struct toy {
	enum guest_algo algo;
	enum guest_op op;
	uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV], nonce[GUEST_MAX_IV];
	uint64_t counter;	/* stream: bytes of keystream used */
};

/* The toy block cipher on 16 bytes (a keyed byte-wise permutation) and
 * its inverse. */
static void toy_enc(const uint8_t *k, const uint8_t *in, uint8_t *out)
{
	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)((uint8_t)(in[i] + k[i]) ^ k[(i + 1) % 16]);
}

static void toy_dec(const uint8_t *k, const uint8_t *in, uint8_t *out)
{
	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)((uint8_t)(in[i] ^ k[(i + 1) % 16]) - k[i]);
}

/* Keystream byte number POS for key K and nonce N (64-byte blocks). */
static uint8_t toy_ks(const uint8_t *k, const uint8_t *n, uint64_t pos)
{
	uint64_t block = pos / 64, j = pos % 64;

	return (uint8_t)(k[j % 32] ^ n[j % 12] ^ (uint8_t)(block * 131 + j * 7));
}

/* The toy tag: a keyed checksum of the text. */
static void toy_tag(const uint8_t *k, const uint8_t *text, size_t len,
		    uint8_t tag[16])
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ text[i]) * 1099511628211u;
	for (int i = 0; i < 16; i++)
		tag[i] = (uint8_t)((h >> (8 * (i % 8))) ^ k[i]);
}

static bool toy_supports(enum guest_algo algo)
{
	return algo == GUEST_AES_128_CBC || algo == GUEST_CHACHA20 ||
	       algo == GUEST_AES_128_GCM;
}

static void *toy_new(enum guest_algo algo, enum guest_op op,
		     const uint8_t *key, const uint8_t *iv)
{
	struct toy *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->algo = algo;
	t->op = op;
	memcpy(t->key, key, algo_info(algo)->key_bytes);
	memcpy(t->iv, iv, algo_info(algo)->iv_bytes);
	memcpy(t->nonce, iv, algo_info(algo)->iv_bytes);
	return t;
}

static void toy_free(void *p)
{
	free(p);
}

/* CBC over LEN bytes, the chain in t->iv carried over. */
static void toy_cbc(struct toy *t, const uint8_t *in, uint8_t *out,
		    size_t len)
{
	uint8_t x[16], prev[16];

	for (size_t o = 0; o < len; o += 16) {
		bool chain = fault != NO_CHAIN;

		if (t->op == GUEST_OP_ENCRYPT) {
			for (int i = 0; i < 16; i++)
				x[i] = (uint8_t)(in[o + i] ^
						 (chain ? t->iv[i] : 0));
			toy_enc(t->key, x, out + o);
			memcpy(t->iv, out + o, 16);
		} else {
			memcpy(prev, in + o, 16);
			toy_dec(t->key, in + o, x);
			for (int i = 0; i < 16; i++)
				out[o + i] = (uint8_t)(x[i] ^
						       (chain ? t->iv[i] : 0));
			memcpy(t->iv, prev, 16);
		}
	}
}

/* One AEAD message: stream from 0 with the nonce, tag over the
 * ciphertext. Returns 0, 1 (tag mismatch) or -1. */
static int toy_aead(void *ctx, const uint8_t *aad, size_t aad_bytes,
		    const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
	struct toy *t = ctx;
	uint8_t want[16];

	(void)aad;
	(void)aad_bytes;
	if (t->op == GUEST_OP_DECRYPT) {
		toy_tag(t->key, in, len, want);
		if (memcmp(want, tag, 16) != 0)
			return 1;
	}
	for (size_t i = 0; i < len; i++)
		out[i] = in[i] ^ toy_ks(t->key, t->nonce, i);
	if (t->op == GUEST_OP_ENCRYPT)
		toy_tag(t->key, out, len, tag);
	return 0;
}

static int toy_run(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
		   uint64_t calls, uint8_t *aux)
{
	struct toy *t = ctx;

	for (uint64_t c = 0; c < calls; c++) {
		if (t->algo == GUEST_AES_128_CBC) {
			toy_cbc(t, in, out, len);
		} else if (t->algo == GUEST_CHACHA20) {
			if (fault == STREAM_RESTART)
				t->counter = 0;
			for (size_t i = 0; i < len; i++)
				out[i] = in[i] ^
					 toy_ks(t->key, t->nonce, t->counter++);
		} else {
			int rc;

			if (fault == ANY_TAG && t->op == GUEST_OP_DECRYPT) {
				uint8_t tag[16];

				toy_tag(t->key, in, len, tag);
				rc = toy_aead(t, NULL, 0, in, out, len, tag);
			} else {
				rc = toy_aead(t, NULL, 0, in, out, len, aux);
			}
			if (rc != 0)
				return -1;
		}
		if (fault == BAD_ABOVE_64K && len > 65536)
			out[len - 1] ^= 1;
	}
	return 0;
}

static const struct guest_backend toy = {
	.name = "toy",
	.supports = toy_supports,
	.bulk_new = toy_new,
	.bulk_run = toy_run,
	.aead = toy_aead,
	.bulk_free = toy_free,
};

#define BIG ((size_t)1 << 20)
static uint8_t *pt, *ct, *scratch;
static uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV], tag[GUEST_MAX_DIGEST];

/* kat_roundtrip of ALGO on the stand-in with fault F at LEN bytes. */
static bool roundtrip(enum fault f, enum guest_algo algo, size_t len)
{
	fault = f;
	memset(tag, 0, sizeof(tag));
	return kat_roundtrip(&toy, algo, key, iv, pt, len, ct, tag, scratch);
}

/* kat_cbc_chain on the stand-in with fault F. */
static bool chain(enum fault f)
{
	fault = f;
	return kat_cbc_chain(&toy, GUEST_AES_128_CBC, key, iv);
}

/* The AEAD decryption of LEN bytes placed at input and output offsets
 * drawn for 8 rounds (and at the page's last line): every timed call
 * accepts the tag and writes the plaintext at the output's offset;
 * closing puts ct back. WORK holds the output. Returns the number of
 * checks failed. */
static int placed_aead(uint8_t *work, size_t len)
{
	struct point p;
	uint8_t *saved = malloc(len + GUEST_MAX_TAG);
	int bad = 0;

	if (!saved || !roundtrip(NONE, GUEST_AES_128_GCM, len))
		return free(saved), 1;
	memcpy(saved, ct, len + GUEST_MAX_TAG);
	if (point_open(&p, &toy, GUEST_AES_128_GCM, GUEST_OP_DECRYPT, len,
		       false, pt, ct, work, tag, key, iv) < 0)
		return free(saved), 1;
	for (unsigned r = 0; r <= 8; r++) {
		uint32_t b = r < 8 ? place_buffers(5, 1, 2, false, len, r)
				   : (PLACE_SPAN - 64) * 0x10001u;
		uint32_t in = place_in_offset(b), out = place_out_offset(b);

		memset(work, 0, len + GUEST_MAX_TAG + PLACE_SPAN);
		point_place_buffers(&p, in, out);
		bad += p.arg.in != ct + in || p.arg.out != work + out;
		bad += point_bulk_batch(&p.arg, 2) != 0;
		bad += memcmp(work + out, pt, len) != 0;
	}
	point_close(&p);
	bad += memcmp(ct, saved, len + GUEST_MAX_TAG) != 0 ||
	       p.arg.in != ct || p.arg.out != work;
	free(saved);
	return bad;
}

int main(void)
{
	pt = malloc(BIG + 64);
	ct = malloc(BIG + 64);
	scratch = malloc(BIG + 64);
	if (!pt || !ct || !scratch)
		return 99;
	for (size_t i = 0; i < BIG + 64; i++)
		pt[i] = (uint8_t)(i * 131 + (i >> 9));
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x10 + i);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (uint8_t)(0xa0 + i);

	tap_ok(chain(NONE), "CBC chaining check: passes a chaining CBC");
	tap_ok(!chain(NO_CHAIN), "CBC chaining check: catches CBC that does not chain");
	tap_ok(roundtrip(NONE, GUEST_CHACHA20, 1024),
	       "stream cipher carrying its state over timed calls passes");
	tap_ok(!roundtrip(STREAM_RESTART, GUEST_CHACHA20, 1024),
	       "stream cipher restarting its counter per timed call is caught");
	tap_ok(roundtrip(NONE, GUEST_CHACHA20, 16),
	       "below a keystream block the timed path is not used, the one-shot still checked");
	tap_ok(roundtrip(NONE, GUEST_AES_128_GCM, 1024),
	       "AEAD checking its tag on the timed path passes");
	tap_ok(!roundtrip(ANY_TAG, GUEST_AES_128_GCM, 1024),
	       "AEAD accepting a forged tag on the timed path is caught");
	tap_ok(roundtrip(NONE, GUEST_AES_128_CBC, BIG) &&
	       roundtrip(NONE, GUEST_AES_128_GCM, BIG),
	       "correct timed path at 1 MiB passes (CBC, AEAD)");
	tap_ok(roundtrip(BAD_ABOVE_64K, GUEST_AES_128_CBC, 65536),
	       "a fault above 64 KiB does not show at 64 KiB");
	tap_ok(!roundtrip(BAD_ABOVE_64K, GUEST_AES_128_CBC, BIG),
	       "timed CBC output wrong above 64 KiB is caught at 1 MiB");
	tap_ok(!roundtrip(BAD_ABOVE_64K, GUEST_AES_128_GCM, BIG),
	       "timed AEAD output wrong above 64 KiB is caught at 1 MiB");
	tap_ok(!roundtrip(BAD_ABOVE_64K, GUEST_CHACHA20, BIG),
	       "timed stream output wrong above 64 KiB is caught at 1 MiB");
	{
		uint8_t *work = malloc(BIG + 64 + PLACE_SPAN);
		int bad;

		if (!work)
			return 99;
		/* placements need the room measure.h's buffers have */
		free(ct);
		ct = malloc(BIG + 64 + PLACE_SPAN);
		if (!ct)
			return 99;
		bad = placed_aead(work, 1024);
		tap_ok(bad == 0, "a placed AEAD block reads its message and "
		       "tag at the input's offset and writes at the output's "
		       "(1 KiB, 9 placements; %d checks failed)", bad);
		bad = placed_aead(work, BIG);
		tap_ok(bad == 0, "the same at 1 MiB, up to the buffers' last "
		       "line (%d checks failed)", bad);
		free(work);
	}
	free(pt);
	free(ct);
	free(scratch);
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}
