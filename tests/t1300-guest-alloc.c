/* tests/t1300-guest-alloc.c - the allocation rules of the guest's timed
 * paths (guest/PROTOCOL.md, "Timing modes"), checked on every backend
 * whose library this host has: once a bulk context has made its first
 * call, further bulk calls allocate nothing, for every algorithm and
 * operation the library supports (one exception, stated in
 * guest/PROTOCOL.md: OpenSSL 3.0's EVP_DigestInit_ex re-creates its
 * provider's digest state on every init of a reused EVP_MD_CTX, one
 * allocation per message that no public call avoids - EVP_Digest, used
 * before, made three); and a one-shot message of a library
 * whose contexts the caller allocates (Nettle) costs exactly one
 * allocation, of libsodium (no context at all) none.
 *
 * Allocations are counted by defining malloc, calloc, realloc,
 * posix_memalign, aligned_alloc and memalign in this program, which the
 * dynamic linker then binds the dlopen()ed libraries to as well
 * (interposition by the executable), forwarding to glibc's __libc_*
 * functions. That needs glibc, and a program AddressSanitizer does not
 * instrument: ASan owns malloc itself and aborts on a second definition
 * (the test skips there). The guest itself does none of this.
 * Prints TAP. */
#include "guest/compat.h"
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guest/algo.h"
#include "guest/backend.h"
#include "tests/tap.h"

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static volatile int counting;
static volatile unsigned long allocs;

static void note(void)
{
	if (counting)
		allocs++;
}

void *malloc(size_t n)
{
	note();
	return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	note();
	return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
	note();
	return __libc_realloc(p, n);
}

void *memalign(size_t a, size_t n);
void *memalign(size_t a, size_t n)
{
	note();
	return __libc_memalign(a, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	note();
	return __libc_memalign(a, n);
}

int posix_memalign(void **p, size_t a, size_t n)
{
	void *q;

	note();
	q = __libc_memalign(a, n);
	if (!q)
		return 12;	/* ENOMEM */
	*p = q;
	return 0;
}

/* Buffers laid out as the guest times (guest/PROTOCOL.md, "Buffers"):
 * input, output, each with room for a tag after it. */
#define LEN_MAX 16384
static uint8_t pt[LEN_MAX + 64], ct[LEN_MAX + 64], work[LEN_MAX + 64];
static uint8_t key[GUEST_MAX_KEY], iv[GUEST_MAX_IV];

/* Bulk calls made by bulk_allocs(). */
#define BULK_CALLS 3

/* Allocations the library itself makes per bulk call of ALGO in B that
 * PROTOCOL.md states (see the top of this file); 0 for all others. */
static long allowed_per_call(const struct guest_backend *b,
			     enum guest_algo algo)
{
	if (strcmp(b->name, "openssl") == 0 &&
	    algo_info(algo)->kind == GUEST_KIND_HASH)
		return 1;
	return 0;
}

/* Allocations made by CALLS bulk calls of OP of ALGO in B on LEN-byte
 * buffers, after one first call on the same context; -1 when a call
 * failed or no context could be made. */
static long bulk_allocs(const struct guest_backend *b, enum guest_algo algo,
			enum guest_op op, size_t len)
{
	const struct guest_algo_info *ai = algo_info(algo);
	uint8_t digest[GUEST_MAX_DIGEST];
	const uint8_t *in = op == GUEST_OP_DECRYPT ? ct : pt;
	uint8_t *aux = digest;
	void *ctx;
	long n = -1;

	if (ai->kind == GUEST_KIND_AEAD) {
		/* a valid message and its tag to decrypt */
		if (!(ctx = b->bulk_new(algo, GUEST_OP_ENCRYPT, key, iv)))
			return -1;
		if (b->bulk_run(ctx, pt, ct, len, 1, ct + len) != 0) {
			b->bulk_free(ctx);
			return -1;
		}
		b->bulk_free(ctx);
		aux = op == GUEST_OP_DECRYPT ? ct + len : work + len;
	}
	if (!(ctx = b->bulk_new(algo, op, key, iv)))
		return -1;
	if (b->bulk_run(ctx, in, work, len, 1, aux) == 0) {
		allocs = 0;
		counting = 1;
		if (b->bulk_run(ctx, in, work, len, BULK_CALLS, aux) == 0)
			n = (long)allocs;
		counting = 0;
	}
	b->bulk_free(ctx);
	return n;
}

/* Allocations made by one one-shot message (after a first one) of OP of
 * ALGO in B on LEN bytes; -1 when it failed. */
static long oneshot_allocs(const struct guest_backend *b,
			   enum guest_algo algo, enum guest_op op, size_t len)
{
	struct guest_oneshot io;
	uint8_t tag[GUEST_MAX_DIGEST];
	long n = -1;

	memset(&io, 0, sizeof(io));
	io.key = key;
	io.iv = iv;
	io.in = pt;
	io.len = len;
	io.out = op == GUEST_OP_HASH ? tag : work;
	io.tag = tag;
	if (algo_info(algo)->kind == GUEST_KIND_AEAD) {
		io.aad = guest_aead_aad;
		io.aad_bytes = GUEST_AEAD_AAD_BYTES;
	}
	if (op == GUEST_OP_DECRYPT) {	/* a valid message to decrypt */
		io.out = ct;
		if (backend_oneshot(b, algo, GUEST_OP_ENCRYPT, &io) != 0)
			return -1;
		io.in = ct;
		io.out = work;
	}
	if (backend_oneshot(b, algo, op, &io) != 0)
		return -1;
	allocs = 0;
	counting = 1;
	if (backend_oneshot(b, algo, op, &io) == 0)
		n = (long)allocs;
	counting = 0;
	return n;
}

/* Check backend B: one point for its bulk path and, when MAX_ONESHOT >= 0,
 * one for its one-shot (at most MAX_ONESHOT allocations, and at least
 * MAX_ONESHOT when EXACT). */
static void check_backend(const struct guest_backend *b, long max_oneshot,
			  bool exact)
{
	struct guest_lib_info info;
	char why[512], bad[1024] = "";
	size_t sizes[] = { 64, LEN_MAX };
	unsigned pairs = 0, failed = 0;
	bool oneshot_ok = true;
	int points = max_oneshot >= 0 ? 2 : 1;

	memset(&info, 0, sizeof(info));
	if (b->load(&info, why, sizeof(why)) != GUEST_LOAD_OK) {
		tap_skip(points, "%s not loadable here: %s", b->name, why);
		return;
	}
	for (int a = 0; a < GUEST_ALGO_COUNT; a++) {
		enum guest_algo algo = (enum guest_algo)a;
		const struct guest_algo_info *ai = algo_info(algo);
		enum guest_op ops[2] = { GUEST_OP_ENCRYPT, GUEST_OP_DECRYPT };
		int nops = 2;

		if (!b->supports(algo))
			continue;
		if (ai->kind == GUEST_KIND_HASH) {
			ops[0] = GUEST_OP_HASH;
			nops = 1;
		}
		for (int o = 0; o < nops; o++) {
			for (size_t s = 0; s < 2; s++) {
				long n = bulk_allocs(b, algo, ops[o], sizes[s]);

				pairs++;
				if (n < 0 || n > BULK_CALLS *
					     allowed_per_call(b, algo)) {
					size_t k = strlen(bad);

					failed++;
					snprintf(bad + k, sizeof(bad) - k,
						 " %s/%s/%zu:%ld", ai->name,
						 op_name(ops[o]), sizes[s], n);
				}
			}
			if (max_oneshot >= 0) {
				long n = oneshot_allocs(b, algo, ops[o], 1024);

				if (n < 0 || n > max_oneshot ||
				    (exact && n != max_oneshot)) {
					oneshot_ok = false;
					tap_diag("%s %s %s one-shot: %ld allocations",
						 b->name, ai->name,
						 op_name(ops[o]), n);
				}
			}
		}
	}
	if (failed)
		tap_diag("%s: allocations (or -1: failed) in %d bulk calls:%s",
			 b->name, BULK_CALLS, bad);
	tap_ok(pairs > 0 && failed == 0,
	       "%s %s: no allocation (but the stated ones) in %u bulk timed regions",
	       b->name, info.version, pairs);
	if (max_oneshot >= 0)
		tap_ok(oneshot_ok, "%s: %s%ld allocation(s) per one-shot message",
		       b->name, exact ? "" : "at most ", max_oneshot);
}

int main(void)
{
	size_t count;
	const struct guest_backend *const *all = guest_backends(&count);

	for (size_t i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)(i * 131 + 7);
	for (size_t i = 0; i < sizeof(key); i++)	/* as the guest's */
		key[i] = (uint8_t)(0x10 + i);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (uint8_t)(0xa0 + i);
	for (size_t i = 0; i < count; i++) {
		const struct guest_backend *b = all[i];

		if (strcmp(b->name, "nettle") == 0)
			check_backend(b, 1, true);
		else if (strcmp(b->name, "libsodium") == 0)
			check_backend(b, 0, true);
		else
			check_backend(b, -1, false);
	}
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}
#else
int main(void)
{
#ifdef __SANITIZE_ADDRESS__
	printf("1..0 # SKIP counting allocations replaces malloc, which AddressSanitizer owns\n");
#else
	printf("1..0 # SKIP counting allocations needs glibc\n");
#endif
	return 0;
}
#endif
