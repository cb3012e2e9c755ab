/* guest/backend-nettle-ec.c - ECDH and ECDSA on P-256 in Nettle's
 * libhogweed (3.5 and later: nettle_get_secp_256r1), opened when a
 * public-key algorithm is first asked for (guest_pk_nettle_hogweed), as
 * X25519's and Ed25519's are.
 *
 * Nettle's ECC API works on GMP integers: a key here holds the private
 * scalar (struct ecc_scalar) and its public point (struct ecc_point),
 * computed at import (ecc_point_mul_g), as OpenSSL's import computes it,
 * and the GMP integers and points each operation reuses. derive reads
 * the peer's raw point into integers in every call (ecc_point_set, which
 * checks that it is on the curve) and multiplies (ecc_point_mul); the
 * secret is the result's X. ECDSA hashes the message with Nettle's
 * SHA-256 (nettle_sha256_*, a context on the stack) and signs the digest
 * (ecdsa_sign) or verifies (ecdsa_verify). ecdsa_sign draws its nonce
 * from the random function it is given: here a deterministic xorshift64*
 * stream of the key's (as backend-mbedtls-pk.c's blinding), not a
 * cryptographic generator - every signature still has a new nonce, and
 * the generator's own cost (a few ns) is left out, where an application
 * would pay its CSPRNG's. Signatures are then randomised.
 *
 * Every entry point is resolved through libhogweed's handle (dlsym
 * searches the libraries it needs too: libnettle's SHA-256 and GMP's
 * mpz_init / mpz_clear, under their exported names __gmpz_*).
 * Prototypes restate <nettle/ecc.h>, <nettle/ecdsa.h>, <nettle/dsa.h>,
 * <nettle/bignum.h> and <nettle/sha2.h> (3.5 to 3.10); struct ecc_point
 * and struct ecc_scalar are a curve pointer and a limb pointer, struct
 * dsa_signature two mpz_t, an mpz_t { int, int, pointer } (GMP 6). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

/* mpz_t, struct ecc_point, struct ecc_scalar, struct dsa_signature */
struct nt_mpz {
	int alloc, size;
	void *d;
};
struct nt_point {
	const void *ecc;
	void *p;
};
struct nt_sig {
	struct nt_mpz r, s;
};

/* Room for struct sha256_ctx (112 bytes in 3.5 to 3.10). */
#define SHA256_CTX_BYTES 256

typedef void nt_random_fn(void *ctx, size_t length, uint8_t *dst);

static struct {
	bool tried, ecdh, ecdsa;
	const void *curve;	/* nettle_get_secp_256r1() */
	const void *(*get_curve)(void);
	void (*mpz_init)(struct nt_mpz *x);
	void (*mpz_clear)(struct nt_mpz *x);
	void (*mpz_set_256)(struct nt_mpz *x, size_t length,
			    const uint8_t *s);
	void (*mpz_get_256)(size_t length, uint8_t *s,
			    const struct nt_mpz *x);
	void (*point_init)(struct nt_point *p, const void *ecc);
	void (*point_clear)(struct nt_point *p);
	int (*point_set)(struct nt_point *p, const struct nt_mpz *x,
			 const struct nt_mpz *y);
	void (*point_get)(const struct nt_point *p, struct nt_mpz *x,
			  struct nt_mpz *y);
	void (*scalar_init)(struct nt_point *s, const void *ecc);
	void (*scalar_clear)(struct nt_point *s);
	int (*scalar_set)(struct nt_point *s, const struct nt_mpz *z);
	void (*mul_g)(struct nt_point *r, const struct nt_point *n);
	void (*mul)(struct nt_point *r, const struct nt_point *n,
		    const struct nt_point *p);
	void (*sig_init)(struct nt_sig *s);
	void (*sig_clear)(struct nt_sig *s);
	void (*sign)(const struct nt_point *key, void *random_ctx,
		     nt_random_fn *random, size_t digest_length,
		     const uint8_t *digest, struct nt_sig *signature);
	int (*verify)(const struct nt_point *pub, size_t length,
		      const uint8_t *digest, const struct nt_sig *signature);
	void (*sha_init)(void *ctx);
	void (*sha_update)(void *ctx, size_t length, const uint8_t *data);
	void (*sha_digest)(void *ctx, size_t length, uint8_t *digest);
} pk;

/* A key: the scalar (a private key's only), the public point, a point
 * for the peer's key and one for a product, two integers, a signature
 * and the nonce generator's state. */
struct nt_ec_key {
	enum guest_pk_algo algo;
	bool priv, inited;
	struct nt_point scalar, pub, peer, prod;
	struct nt_mpz x, y;
	struct nt_sig sig;
	uint64_t rng;
	uint8_t pubkey[GUEST_PK_P256_PUB_BYTES];
};

/* Resolve the entry points in libhogweed, once. */
static void resolve(void)
{
	const struct backend_symbol common[] = {
		{ &pk.get_curve, "nettle_get_secp_256r1" },
		{ &pk.mpz_init, "__gmpz_init" },
		{ &pk.mpz_clear, "__gmpz_clear" },
		{ &pk.mpz_set_256, "nettle_mpz_set_str_256_u" },
		{ &pk.mpz_get_256, "nettle_mpz_get_str_256" },
		{ &pk.point_init, "nettle_ecc_point_init" },
		{ &pk.point_clear, "nettle_ecc_point_clear" },
		{ &pk.point_set, "nettle_ecc_point_set" },
		{ &pk.point_get, "nettle_ecc_point_get" },
		{ &pk.scalar_init, "nettle_ecc_scalar_init" },
		{ &pk.scalar_clear, "nettle_ecc_scalar_clear" },
		{ &pk.scalar_set, "nettle_ecc_scalar_set" },
		{ &pk.mul_g, "nettle_ecc_point_mul_g" },
		{ &pk.sig_init, "nettle_dsa_signature_init" },
		{ &pk.sig_clear, "nettle_dsa_signature_clear" },
	};
	const struct backend_symbol dh[] = {
		{ &pk.mul, "nettle_ecc_point_mul" },
	};
	const struct backend_symbol sig[] = {
		{ &pk.sign, "nettle_ecdsa_sign" },
		{ &pk.verify, "nettle_ecdsa_verify" },
		{ &pk.sha_init, "nettle_sha256_init" },
		{ &pk.sha_update, "nettle_sha256_update" },
		{ &pk.sha_digest, "nettle_sha256_digest" },
	};
	void *h = guest_pk_nettle_hogweed();
	char why[128];

	pk.tried = true;
	if (!h || backend_require(h, common, sizeof(common) / sizeof(common[0]),
				  why, sizeof(why)) != 0 ||
	    !(pk.curve = pk.get_curve()))
		return;
	pk.ecdh = backend_require(h, dh, sizeof(dh) / sizeof(dh[0]), why,
				  sizeof(why)) == 0;
	pk.ecdsa = backend_require(h, sig, sizeof(sig) / sizeof(sig[0]), why,
				   sizeof(why)) == 0;
}

/* struct guest_pk_ops: ECDH and ECDSA on P-256, where resolved. */
static bool nt_ec_supports(enum guest_pk_algo algo)
{
	if (!pk.tried)
		resolve();
	return algo == GUEST_PK_ECDH_P256 ? pk.ecdh :
	       algo == GUEST_PK_ECDSA_P256 ? pk.ecdsa : false;
}

/* Release KEY (struct nt_ec_key, with what GMP allocated); NULL is
 * ignored. */
static void nt_ec_free(void *key)
{
	struct nt_ec_key *k = key;

	if (!k)
		return;
	if (k->inited) {
		pk.scalar_clear(&k->scalar);
		pk.point_clear(&k->pub);
		pk.point_clear(&k->peer);
		pk.point_clear(&k->prod);
		pk.mpz_clear(&k->x);
		pk.mpz_clear(&k->y);
		pk.sig_clear(&k->sig);
	}
	free(k);
}

/* A new key record of ALGO, its Nettle and GMP objects initialised, or
 * NULL. */
static struct nt_ec_key *key_alloc(enum guest_pk_algo algo)
{
	struct nt_ec_key *k;

	if (!nt_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->rng = UINT64_C(0x9e3779b97f4a7c15);
	pk.scalar_init(&k->scalar, pk.curve);
	pk.point_init(&k->pub, pk.curve);
	pk.point_init(&k->peer, pk.curve);
	pk.point_init(&k->prod, pk.curve);
	pk.mpz_init(&k->x);
	pk.mpz_init(&k->y);
	pk.sig_init(&k->sig);
	k->inited = true;
	return k;
}

/* Set point P from the 65-byte uncompressed RAW through K's integers.
 * Returns 0, or -1 when RAW is not uncompressed or not on the curve. */
static int point_from(struct nt_ec_key *k, struct nt_point *p,
		      const uint8_t *raw)
{
	if (raw[0] != 0x04)
		return -1;
	pk.mpz_set_256(&k->x, 32, raw + 1);
	pk.mpz_set_256(&k->y, 32, raw + 33);
	return pk.point_set(p, &k->x, &k->y) == 1 ? 0 : -1;
}

/* A private key of ALGO of the 32-byte big-endian scalar PRIV, its
 * public point computed. Returns it (caller owns: nt_ec_free) or NULL
 * when unsupported, out of memory or out of range (0, or n and above). */
static void *nt_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct nt_ec_key *k = key_alloc(algo);

	if (!k)
		return NULL;
	k->priv = true;
	pk.mpz_set_256(&k->x, GUEST_PK_KEY_BYTES, priv);
	if (pk.scalar_set(&k->scalar, &k->x) != 1) {
		nt_ec_free(k);
		return NULL;
	}
	pk.mul_g(&k->pub, &k->scalar);
	pk.point_get(&k->pub, &k->x, &k->y);
	k->pubkey[0] = 0x04;
	pk.mpz_get_256(32, k->pubkey + 1, &k->x);
	pk.mpz_get_256(32, k->pubkey + 33, &k->y);
	return k;
}

/* An ECDSA public key of the 65-byte point PUB. Returns it (caller
 * owns: nt_ec_free) or NULL when unsupported, out of memory or PUB is
 * not a point of the curve. */
static void *nt_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct nt_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !(k = key_alloc(algo)))
		return NULL;
	memcpy(k->pubkey, pub, GUEST_PK_P256_PUB_BYTES);
	if (point_from(k, &k->pub, pub) != 0) {
		nt_ec_free(k);
		return NULL;
	}
	return k;
}

/* The 65-byte public point of KEY into PUB; cannot fail (0). */
static int nt_ec_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct nt_ec_key *)key)->pubkey,
	       GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* ECDH of KEY and the peer's 65-byte point PEER into OUT (the product's
 * 32-byte X). Returns 0, or -1 when PEER is not a point of the curve. */
static int nt_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct nt_ec_key *k = key;

	if (!k->priv || point_from(k, &k->peer, peer) != 0)
		return -1;
	pk.mul(&k->prod, &k->scalar, &k->peer);
	pk.point_get(&k->prod, &k->x, NULL);
	pk.mpz_get_256(GUEST_PK_KEY_BYTES, out, &k->x);
	return 0;
}

/* The nettle_random_func of ecdsa_sign: LENGTH bytes of the xorshift64*
 * stream whose state CTX (a uint64_t, never 0) points to, into DST. */
static void det_rng(void *ctx, size_t length, uint8_t *dst)
{
	uint64_t *s = ctx;

	while (length) {
		uint64_t x = *s, r;
		size_t n = length < 8 ? length : 8;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*s = x;
		r = x * UINT64_C(0x2545f4914f6cdd1d);
		memcpy(dst, &r, n);
		dst += n;
		length -= n;
	}
}

/* SHA-256 of the LEN bytes of MSG into DIGEST (32 bytes). */
static void sha256(const uint8_t *msg, size_t len, uint8_t *digest)
{
	_Alignas(16) unsigned char ctx[SHA256_CTX_BYTES];

	pk.sha_init(ctx);
	pk.sha_update(ctx, len, msg);
	pk.sha_digest(ctx, 32, digest);
}

/* ECDSA: sign the LEN bytes of MSG with KEY into SIG (r || s). Returns
 * 0, or -1 for a public key. */
static int nt_ec_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct nt_ec_key *k = key;
	uint8_t digest[32];

	if (!k->priv)
		return -1;
	sha256(msg, len, digest);
	pk.sign(&k->scalar, &k->rng, det_rng, sizeof(digest), digest,
		&k->sig);
	pk.mpz_get_256(32, sig, &k->sig.r);
	pk.mpz_get_256(32, sig + 32, &k->sig.s);
	return 0;
}

/* ECDSA: check SIG (r || s) over the LEN bytes of MSG with public key
 * PUB: 0 valid, 1 rejected. */
static int nt_ec_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct nt_ec_key *k = pub;
	uint8_t digest[32];

	sha256(msg, len, digest);
	pk.mpz_set_256(&k->sig.r, 32, sig);
	pk.mpz_set_256(&k->sig.s, 32, sig + 32);
	return pk.verify(&k->pub, sizeof(digest), digest, &k->sig) == 1 ? 0
									 : 1;
}

const struct guest_pk_ops guest_ec_nettle = {
	.supports = nt_ec_supports,
	.key_new = nt_ec_key_new,
	.pub_new = nt_ec_pub_new,
	.key_free = nt_ec_free,
	.public_key = nt_ec_public,
	.derive = nt_ec_derive,
	.sign = nt_ec_sign,
	.verify = nt_ec_verify,
};
