/* t1149-guest-pq-kat - the known answers of ML-KEM-768 decapsulation and
 * ML-DSA-65 verification (guest/pubkey-kat-pq.c) catch a wrong library:
 * run on a stand-in backend that answers from the vectors themselves,
 * every row passes, and each fault - a shared secret with one bit
 * flipped, a verification that accepts a signature with a bit flipped,
 * one that rejects the valid signature, one that drops the context, a
 * backend without the key import or the context - makes the rows it
 * touches fail. No library is loaded; the real one (OpenSSL 3.5) is
 * checked in a trixie guest by t1148. Prints TAP. */
#include "../guest/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "../guest/pubkey-kat.h"

enum fault {
	FAULT_NONE,
	FAULT_SECRET,		/* decaps: one bit of the secret flipped */
	FAULT_ACCEPT,		/* verify_ctx: every signature valid */
	FAULT_REJECT,		/* verify_ctx: every signature rejected */
	FAULT_NO_CONTEXT,	/* verify_ctx: checks as if the context were
				 * empty (what a library that ignores the
				 * parameter does) */
};

static enum fault fault;
static int stand_in_key;	/* the stand-in's only key object */

/* The stand-in's answers: the pq table's rows, decoded on demand.
 * Returns row I when it is of ALGO, else NULL. */
static const struct pk_kat *row(size_t i, enum guest_pk_algo algo)
{
	size_t n;
	const struct pk_kat *v = pk_kat_pq_table(&n);

	return i < n && v[i].algo == algo ? &v[i] : NULL;
}

/* Is the hex string HEX exactly the LEN bytes of B (LEN at most 8192,
 * more than any value of the vectors)? */
static bool same(const char *hex, const uint8_t *b, size_t len)
{
	static uint8_t buf[8192];

	return strlen(hex) == 2 * len && len <= sizeof(buf) &&
	       pk_kat_unhex(hex, buf, len) == len && memcmp(buf, b, len) == 0;
}

/* struct guest_pk_ops: the stand-in has the two post-quantum
 * algorithms. */
static bool fake_supports(enum guest_pk_algo a)
{
	return a == GUEST_PK_ML_KEM_768 || a == GUEST_PK_ML_DSA_65;
}

/* Any decapsulation key of a row; the stand-in's key, or NULL. */
static void *fake_dk_new(enum guest_pk_algo a, const uint8_t *dk)
{
	for (size_t i = 0; i < 64; i++) {
		const struct pk_kat *v = row(i, a);

		if (v && same(v->hex[0], dk, GUEST_PK_MLKEM_DK_BYTES))
			return &stand_in_key;
	}
	return NULL;
}

/* Any public key of an ML-DSA row; the stand-in's key, or NULL. */
static void *fake_pub_new(enum guest_pk_algo a, const uint8_t *pub)
{
	for (size_t i = 0; i < 64; i++) {
		const struct pk_kat *v = row(i, a);

		if (v && same(v->hex[0], pub, GUEST_PK_MLDSA_PUB_BYTES))
			return &stand_in_key;
	}
	return NULL;
}

/* struct guest_pk_ops: the stand-in's key is static; nothing to free. */
static void fake_free(void *key)
{
	(void)key;
}

/* The secret of the row whose ciphertext CT is, into SS (with the
 * FAULT_SECRET bit flipped); -1 for an unknown ciphertext. */
static int fake_decaps(void *key, const uint8_t *ct, uint8_t *ss)
{
	(void)key;
	for (size_t i = 0; i < 64; i++) {
		const struct pk_kat *v = row(i, GUEST_PK_ML_KEM_768);

		if (!v || !same(v->hex[1], ct, GUEST_PK_MLKEM_CT_BYTES))
			continue;
		pk_kat_unhex(v->hex[2], ss, GUEST_PK_KEY_BYTES);
		if (fault == FAULT_SECRET)
			ss[GUEST_PK_KEY_BYTES - 1] ^= 0x80;
		return 0;
	}
	return -1;
}

/* Valid (0) only for a row's message, context and signature exactly
 * (1 otherwise), as a correct ML-DSA verification is on these vectors;
 * or the fault's answer. */
static int fake_verify_ctx(void *pub, const uint8_t *msg, size_t len,
			   const uint8_t *ctx, size_t ctx_len,
			   const uint8_t *sig)
{
	(void)pub;
	if (fault == FAULT_ACCEPT)
		return 0;
	if (fault == FAULT_REJECT)
		return 1;
	if (fault == FAULT_NO_CONTEXT)
		ctx_len = 0;
	for (size_t i = 0; i < 64; i++) {
		const struct pk_kat *v = row(i, GUEST_PK_ML_DSA_65);

		if (v && same(v->hex[1], msg, len) &&
		    same(v->hex[2], ctx, ctx_len) &&
		    same(v->hex[3], sig, GUEST_PK_MLDSA_SIG_BYTES))
			return 0;
	}
	return 1;
}

static struct guest_pk_ops ops = {
	.supports = fake_supports,
	.pub_new = fake_pub_new,
	.key_free = fake_free,
	.decaps = fake_decaps,
	.dk_new = fake_dk_new,
	.verify_ctx = fake_verify_ctx,
};

/* How many rows of ALGO the table has (*ROWS), and how many pass with
 * the stand-in and the current fault (*PASSED). */
static void run(enum guest_pk_algo algo, size_t *rows, size_t *passed)
{
	size_t n;
	const struct pk_kat *v = pk_kat_pq_table(&n);

	*rows = *passed = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].algo != algo)
			continue;
		(*rows)++;
		*passed += pk_kat_run(&ops, &v[i]);
	}
}

int main(void)
{
	size_t n, rows, passed, cited = 0;
	const struct pk_kat *v = pk_kat_pq_table(&n);

	for (size_t i = 0; i < n; i++)
		cited += strstr(v[i].source, "NIST ACVP-Server") &&
			 strstr(v[i].source, "tgId") &&
			 strstr(v[i].source, "tcId");
	tap_ok(n == 3 && cited == n,
	       "3 vectors, each citing NIST ACVP-Server, tgId and tcId (%zu, %zu)",
	       n, cited);

	fault = FAULT_NONE;
	run(GUEST_PK_ML_KEM_768, &rows, &passed);
	tap_ok(rows == 2 && passed == 2,
	       "a correct decapsulation passes both ML-KEM-768 rows (%zu of %zu)",
	       passed, rows);
	run(GUEST_PK_ML_DSA_65, &rows, &passed);
	tap_ok(rows == 1 && passed == 1,
	       "a correct verification passes the ML-DSA-65 row (%zu of %zu)",
	       passed, rows);

	fault = FAULT_SECRET;
	run(GUEST_PK_ML_KEM_768, &rows, &passed);
	tap_ok(passed == 0,
	       "a shared secret with one bit flipped fails every decapsulation row (%zu passed)",
	       passed);

	fault = FAULT_ACCEPT;
	run(GUEST_PK_ML_DSA_65, &rows, &passed);
	tap_ok(passed == 0,
	       "a verification accepting the signature with a bit flipped fails (%zu passed)",
	       passed);
	fault = FAULT_REJECT;
	run(GUEST_PK_ML_DSA_65, &rows, &passed);
	tap_ok(passed == 0,
	       "a verification rejecting the valid signature fails (%zu passed)",
	       passed);
	fault = FAULT_NO_CONTEXT;
	run(GUEST_PK_ML_DSA_65, &rows, &passed);
	tap_ok(passed == 0,
	       "a verification that drops the context fails (%zu passed)",
	       passed);

	fault = FAULT_NONE;
	ops.dk_new = NULL;
	ops.verify_ctx = NULL;
	run(GUEST_PK_ML_KEM_768, &rows, &passed);
	tap_ok(passed == 0,
	       "a backend without a decapsulation key import fails, not passes (%zu passed)",
	       passed);
	run(GUEST_PK_ML_DSA_65, &rows, &passed);
	tap_ok(passed == 0,
	       "a backend without a context in its verification fails, not passes (%zu passed)",
	       passed);
	return tap_done();
}
