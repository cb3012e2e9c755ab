/* guest/backend-libgcrypt-ec.c - ECDH and ECDSA on P-256 in libgcrypt
 * through its S-expression API, as an application (GnuPG) uses it.
 *
 * A private key is the S-expression
 *   (private-key (ecc (curve "NIST P-256") (q Q) (d D)))
 * with Q the 65-byte uncompressed public point and D the 32-byte scalar;
 * the import computes Q first through an elliptic-curve context made
 * from (d D) alone (gcry_mpi_ec_new, gcry_mpi_ec_get_mpi "q", which
 * derives Q from D and returns it encoded), as the Ed25519 backend does.
 * A public key is (public-key (ecc (curve "NIST P-256") (q Q))).
 *
 * derive: libgcrypt's ECDH is its ECC decryption, as GnuPG's ECDH uses
 * it: gcry_pk_decrypt of (enc-val (ecdh (e PEER))), the peer's raw point
 * built into an S-expression in every call, with the private key gives
 * (value S), S the encoded product point (libgcrypt checks that PEER is
 * on the curve); the secret is S's X. gcry_pk_encrypt would compute an
 * ephemeral key too, a second multiplication.
 *
 * sign, verify: the message hashed with libgcrypt's SHA-256
 * (gcry_md_hash_buffer), then gcry_pk_sign / gcry_pk_verify of
 *   (data (flags raw) (value DIGEST))
 * and (sig-val (ecdsa (r R) (s S))), as GnuPG builds them per message.
 * libgcrypt's nonces are random here (no rfc6979 flag). R and S come back
 * as MPIs, whose bytes may carry a leading zero or lack leading zeros:
 * they are brought to 32 bytes each.
 *
 * Prototypes restate gcrypt.h of libgcrypt 1.10.1 (see
 * backend-libgcrypt-pk.c); GCRY_MD_SHA256 = 8, GCRYMPI_FMT_USG = 5. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define GC_MD_SHA256 8	/* GCRY_MD_SHA256, <gcrypt.h> */
#define GC_FMT_USG 5	/* GCRYMPI_FMT_USG, <gcrypt.h> */

typedef struct gcry_sexp *gc_sexp;
typedef struct gcry_mpi *gc_mpi;
typedef struct gcry_context *gc_ctx;

static struct {
	unsigned int (*sexp_build)(gc_sexp *retsexp, size_t *erroff,
				   const char *format, ...);
	void (*sexp_release)(gc_sexp sexp);
	gc_sexp (*sexp_find_token)(gc_sexp list, const char *tok,
				   size_t toklen);
	const char *(*sexp_nth_data)(const gc_sexp list, int number,
				     size_t *datalen);
	unsigned int (*pk_sign)(gc_sexp *result, gc_sexp data, gc_sexp skey);
	unsigned int (*pk_verify)(gc_sexp sigval, gc_sexp data,
				  gc_sexp pkey);
	unsigned int (*pk_decrypt)(gc_sexp *result, gc_sexp data,
				   gc_sexp skey);
	unsigned int (*ec_new)(gc_ctx *r_ctx, gc_sexp keyparam,
			       const char *curvename);
	gc_mpi (*ec_get_mpi)(const char *name, gc_ctx ctx, int copy);
	unsigned int (*mpi_print)(int format, unsigned char *buffer,
				  size_t buflen, size_t *nwritten,
				  const gc_mpi a);
	void (*mpi_release)(gc_mpi a);
	void (*ctx_release)(gc_ctx ctx);
	void (*md_hash_buffer)(int algo, void *digest, const void *buffer,
			       size_t length);
	bool ok;
} pk;

/* A key: its S-expression (private or public) and public point. */
struct gc_ec_key {
	enum guest_pk_algo algo;
	gc_sexp sexp;
	uint8_t pub[GUEST_PK_P256_PUB_BYTES];
};

/* Resolve the entry points in HANDLE (libgcrypt's, initialised by
 * backend-libgcrypt.c); both algorithms need every one. */
void guest_ec_libgcrypt_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.sexp_build, "gcry_sexp_build" },
		{ &pk.sexp_release, "gcry_sexp_release" },
		{ &pk.sexp_find_token, "gcry_sexp_find_token" },
		{ &pk.sexp_nth_data, "gcry_sexp_nth_data" },
		{ &pk.pk_sign, "gcry_pk_sign" },
		{ &pk.pk_verify, "gcry_pk_verify" },
		{ &pk.pk_decrypt, "gcry_pk_decrypt" },
		{ &pk.ec_new, "gcry_mpi_ec_new" },
		{ &pk.ec_get_mpi, "gcry_mpi_ec_get_mpi" },
		{ &pk.mpi_print, "gcry_mpi_print" },
		{ &pk.mpi_release, "gcry_mpi_release" },
		{ &pk.ctx_release, "gcry_ctx_release" },
		{ &pk.md_hash_buffer, "gcry_md_hash_buffer" },
	};
	char why[128];

	pk.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0;
}

/* struct guest_pk_ops: ECDH and ECDSA on P-256. */
static bool gc_ec_supports(enum guest_pk_algo algo)
{
	return (algo == GUEST_PK_ECDH_P256 || algo == GUEST_PK_ECDSA_P256) &&
	       pk.ok;
}

/* Release KEY (struct gc_ec_key, with its S-expression); NULL is
 * ignored. */
static void gc_ec_free(void *key)
{
	struct gc_ec_key *k = key;

	if (!k)
		return;
	if (k->sexp)
		pk.sexp_release(k->sexp);
	free(k);
}

/* The public point of the 32-byte scalar D into PUB (65 bytes), through
 * an elliptic-curve context. Returns 0, or -1 when libgcrypt refused. */
static int ec_public(const uint8_t *d, uint8_t *pub)
{
	gc_sexp s = NULL;
	gc_ctx ctx = NULL;
	gc_mpi q = NULL;
	size_t n = 0;
	int rc = -1;

	if (pk.sexp_build(&s, NULL,
			  "(private-key (ecc (curve \"NIST P-256\") (d %b)))",
			  GUEST_PK_KEY_BYTES, d) != 0 ||
	    pk.ec_new(&ctx, s, NULL) != 0 ||
	    !(q = pk.ec_get_mpi("q", ctx, 1)))
		goto out;
	if (pk.mpi_print(GC_FMT_USG, pub, GUEST_PK_P256_PUB_BYTES, &n, q) == 0 &&
	    n == GUEST_PK_P256_PUB_BYTES && pub[0] == 0x04)
		rc = 0;
out:
	if (q)
		pk.mpi_release(q);
	if (ctx)
		pk.ctx_release(ctx);
	if (s)
		pk.sexp_release(s);
	return rc;
}

/* A private key of ALGO of the 32-byte scalar PRIV: its public point
 * computed, its S-expression built. Returns it (caller owns:
 * gc_ec_free) or NULL when unsupported, out of memory or refused. */
static void *gc_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct gc_ec_key *k;

	if (!gc_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	if (ec_public(priv, k->pub) != 0 ||
	    pk.sexp_build(&k->sexp, NULL,
			  "(private-key (ecc (curve \"NIST P-256\")"
			  " (q %b) (d %b)))", GUEST_PK_P256_PUB_BYTES, k->pub,
			  GUEST_PK_KEY_BYTES, priv) != 0) {
		gc_ec_free(k);
		return NULL;
	}
	return k;
}

/* An ECDSA public key of the 65-byte point PUB. Returns it (caller
 * owns: gc_ec_free) or NULL. */
static void *gc_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct gc_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !gc_ec_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->pub, pub, GUEST_PK_P256_PUB_BYTES);
	if (pk.sexp_build(&k->sexp, NULL,
			  "(public-key (ecc (curve \"NIST P-256\") (q %b)))",
			  GUEST_PK_P256_PUB_BYTES, pub) != 0) {
		gc_ec_free(k);
		return NULL;
	}
	return k;
}

/* The 65-byte public point of KEY into PUB; cannot fail (0). */
static int gc_ec_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct gc_ec_key *)key)->pub, GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* The datum of token NAME of S-expression S as a big-endian unsigned
 * number of exactly N bytes into OUT (leading zeros dropped or added).
 * Returns 0, or -1 when it is missing or longer. */
static int token_be(gc_sexp s, const char *name, uint8_t *out, size_t n)
{
	gc_sexp t = pk.sexp_find_token(s, name, 0);
	const char *p;
	size_t len = 0;
	int rc = -1;

	if (!t)
		return -1;
	p = pk.sexp_nth_data(t, 1, &len);
	while (p && len > n && *p == 0) {
		p++;
		len--;
	}
	if (p && len <= n) {
		memset(out, 0, n - len);
		memcpy(out + n - len, p, len);
		rc = 0;
	}
	pk.sexp_release(t);
	return rc;
}

/* ECDH of KEY and the peer's 65-byte point PEER into OUT (the product's
 * 32-byte X), through gcry_pk_decrypt. Returns 0, or -1 when libgcrypt
 * refused (PEER off the curve among others). */
static int gc_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct gc_ec_key *k = key;
	gc_sexp e = NULL, r = NULL;
	uint8_t s[GUEST_PK_P256_PUB_BYTES];
	int rc = -1;

	if (pk.sexp_build(&e, NULL, "(enc-val (ecdh (e %b)))",
			  GUEST_PK_P256_PUB_BYTES, peer) != 0)
		return -1;
	if (pk.pk_decrypt(&r, e, k->sexp) == 0 &&
	    token_be(r, "value", s, sizeof(s)) == 0 && s[0] == 0x04) {
		memcpy(out, s + 1, GUEST_PK_KEY_BYTES);
		rc = 0;
	}
	if (r)
		pk.sexp_release(r);
	pk.sexp_release(e);
	return rc;
}

/* The data S-expression of the SHA-256 digest of the LEN bytes of MSG
 * into *DATA (caller releases it). Returns 0, or -1 when refused. */
static int ec_data(const uint8_t *msg, size_t len, gc_sexp *data)
{
	uint8_t digest[32];

	pk.md_hash_buffer(GC_MD_SHA256, digest, msg, len);
	*data = NULL;
	return pk.sexp_build(data, NULL, "(data (flags raw) (value %b))",
			     (int)sizeof(digest), digest) == 0 ? 0 : -1;
}

/* ECDSA: sign the LEN bytes of MSG with KEY into SIG (r || s). Returns
 * 0, or -1 when a step failed. */
static int gc_ec_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct gc_ec_key *k = key;
	gc_sexp data, s = NULL;
	int rc = -1;

	if (ec_data(msg, len, &data) != 0)
		return -1;
	if (pk.pk_sign(&s, data, k->sexp) == 0 &&
	    token_be(s, "r", sig, 32) == 0 && token_be(s, "s", sig + 32, 32) == 0)
		rc = 0;
	if (s)
		pk.sexp_release(s);
	pk.sexp_release(data);
	return rc;
}

/* ECDSA: check SIG (r || s) over the LEN bytes of MSG with public key
 * PUB: 0 valid, 1 rejected (any refusal of gcry_pk_verify), -1 when an
 * S-expression could not be built. */
static int gc_ec_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct gc_ec_key *k = pub;
	gc_sexp data, s = NULL;
	int rc;

	if (ec_data(msg, len, &data) != 0)
		return -1;
	if (pk.sexp_build(&s, NULL, "(sig-val (ecdsa (r %b) (s %b)))", 32,
			  sig, 32, sig + 32) != 0)
		rc = -1;
	else
		rc = pk.pk_verify(s, data, k->sexp) == 0 ? 0 : 1;
	if (s)
		pk.sexp_release(s);
	pk.sexp_release(data);
	return rc;
}

const struct guest_pk_ops guest_ec_libgcrypt = {
	.supports = gc_ec_supports,
	.key_new = gc_ec_key_new,
	.pub_new = gc_ec_pub_new,
	.key_free = gc_ec_free,
	.public_key = gc_ec_public,
	.derive = gc_ec_derive,
	.sign = gc_ec_sign,
	.verify = gc_ec_verify,
};
