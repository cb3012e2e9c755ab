/* guest/backend-wolfssl-ec.c - ECDH and ECDSA on P-256 in wolfCrypt
 * (wc_ecc_*), when the build at hand exports them (Debian bookworm's
 * 5.5.4 does).
 *
 * Keys come from wc_ecc_key_new, which allocates an ecc_key of the
 * build's own size (its struct depends on the build's options). import:
 * wc_ecc_import_private_key_ex of the scalar alone, then wc_ecc_make_pub
 * computes and stores the public point (the work OpenSSL's import does);
 * the point is read back with wc_ecc_export_x963. A public key for verify
 * is wc_ecc_import_x963_ex of the raw point.
 *
 * derive takes the peer's raw point in every call as an ecc_point
 * (wc_ecc_import_point_der, which despite its name reads the X9.63
 * encoding), checks that it is on the curve (wc_ecc_point_is_on_curve:
 * wolfCrypt's shared secret does not check by itself, where OpenSSL's,
 * libgcrypt's, Nettle's and Mbed TLS's do), and computes the secret with
 * wc_ecc_shared_secret_ex (the X coordinate, 32 bytes).
 *
 * sign hashes with wc_Sha256Hash and signs the digest with
 * wc_ecc_sign_hash, randomised nonces from a WC_RNG (wc_rng_new, one per
 * key, also the key's blinding generator, wc_ecc_set_rng), into DER;
 * verify converts r || s to DER and calls wc_ecc_verify_hash (0 and *res
 * 1: valid).
 *
 * Prototypes and constants restate wolfCrypt's public ABI
 * (wolfssl/wolfcrypt/ecc.h, random.h, sha256.h of 5.5): ecc_curve_id
 * ECC_SECP256R1 = 7. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "ecdsa-der.h"

typedef unsigned char byte;
typedef unsigned int word32;
typedef struct ws_ecc_key ecc_key;
typedef struct ws_ecc_point ecc_point;
typedef struct ws_rng WC_RNG;

#define WS_ECC_SECP256R1 7	/* ECC_SECP256R1, <wolfssl/wolfcrypt/ecc.h> */

static struct {
	ecc_key *(*key_new)(void *heap);
	void (*key_free)(ecc_key *key);
	int (*import_private)(const byte *priv, word32 priv_size,
			      const byte *pub, word32 pub_size, ecc_key *key,
			      int curve_id);
	int (*make_pub)(ecc_key *key, ecc_point *pub_out);
	int (*export_x963)(ecc_key *key, byte *out, word32 *out_len);
	int (*import_x963)(const byte *in, word32 in_len, ecc_key *key,
			   int curve_id);
	int (*set_rng)(ecc_key *key, WC_RNG *rng);
	int (*get_curve_idx)(int curve_id);
	ecc_point *(*new_point)(void);
	void (*del_point)(ecc_point *p);
	int (*import_point)(const byte *in, word32 in_len, int curve_idx,
			    ecc_point *point);
	int (*on_curve)(ecc_point *p, int curve_idx);
	int (*shared_ex)(ecc_key *priv, ecc_point *point, byte *out,
			 word32 *out_len);
	int (*sign_hash)(const byte *in, word32 in_len, byte *out,
			 word32 *out_len, WC_RNG *rng, ecc_key *key);
	int (*verify_hash)(const byte *sig, word32 sig_len, const byte *hash,
			   word32 hash_len, int *res, ecc_key *key);
	int (*sha256)(const byte *data, word32 len, byte *hash);
	WC_RNG *(*rng_new)(byte *nonce, word32 nonce_size, void *heap);
	void (*rng_free)(WC_RNG *rng);
	int curve_idx;
	bool ecdh, ecdsa;
} pk;

/* A key: the ecc_key, its generator, the point a derive imports the
 * peer's key into, and the public point's bytes. */
struct ws_ec_key {
	enum guest_pk_algo algo;
	bool priv;
	ecc_key *key;
	WC_RNG *rng;
	ecc_point *peer;
	uint8_t pub[GUEST_PK_P256_PUB_BYTES];
};

/* Resolve the entry points in HANDLE (libwolfssl, loaded by
 * backend-wolfssl.c); an algorithm whose entry points are not all there
 * (or a build without P-256) stays unsupported. */
void guest_ec_wolfssl_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.key_new, "wc_ecc_key_new" },
		{ &pk.key_free, "wc_ecc_key_free" },
		{ &pk.import_private, "wc_ecc_import_private_key_ex" },
		{ &pk.make_pub, "wc_ecc_make_pub" },
		{ &pk.export_x963, "wc_ecc_export_x963" },
		{ &pk.set_rng, "wc_ecc_set_rng" },
		{ &pk.get_curve_idx, "wc_ecc_get_curve_idx" },
		{ &pk.rng_new, "wc_rng_new" },
		{ &pk.rng_free, "wc_rng_free" },
	};
	const struct backend_symbol dh[] = {
		{ &pk.new_point, "wc_ecc_new_point" },
		{ &pk.del_point, "wc_ecc_del_point" },
		{ &pk.import_point, "wc_ecc_import_point_der" },
		{ &pk.on_curve, "wc_ecc_point_is_on_curve" },
		{ &pk.shared_ex, "wc_ecc_shared_secret_ex" },
	};
	const struct backend_symbol sig[] = {
		{ &pk.import_x963, "wc_ecc_import_x963_ex" },
		{ &pk.sign_hash, "wc_ecc_sign_hash" },
		{ &pk.verify_hash, "wc_ecc_verify_hash" },
		{ &pk.sha256, "wc_Sha256Hash" },
	};
	char why[128];

	pk.ecdh = pk.ecdsa = false;
	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) != 0 ||
	    (pk.curve_idx = pk.get_curve_idx(WS_ECC_SECP256R1)) < 0)
		return;
	pk.ecdh = backend_require(handle, dh, sizeof(dh) / sizeof(dh[0]), why,
				  sizeof(why)) == 0;
	pk.ecdsa = backend_require(handle, sig, sizeof(sig) / sizeof(sig[0]),
				   why, sizeof(why)) == 0;
}

/* struct guest_pk_ops: ECDH and ECDSA on P-256, where resolved. */
static bool ws_ec_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ECDH_P256 ? pk.ecdh :
	       algo == GUEST_PK_ECDSA_P256 ? pk.ecdsa : false;
}

/* Release KEY (struct ws_ec_key, with its wolfCrypt objects); NULL is
 * ignored. */
static void ws_ec_free(void *key)
{
	struct ws_ec_key *k = key;

	if (!k)
		return;
	if (k->peer)
		pk.del_point(k->peer);
	if (k->key)
		pk.key_free(k->key);
	if (k->rng)
		pk.rng_free(k->rng);
	free(k);
}

/* A new key record of ALGO with its ecc_key and generator (and, for
 * ECDH, the peer's point), or NULL. */
static struct ws_ec_key *key_alloc(enum guest_pk_algo algo)
{
	struct ws_ec_key *k;

	if (!ws_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	if (!(k->key = pk.key_new(NULL)) ||
	    !(k->rng = pk.rng_new(NULL, 0, NULL)) ||
	    pk.set_rng(k->key, k->rng) != 0 ||
	    (algo == GUEST_PK_ECDH_P256 && !(k->peer = pk.new_point()))) {
		ws_ec_free(k);
		return NULL;
	}
	return k;
}

/* A private key of ALGO of the 32-byte big-endian scalar PRIV, its
 * public point computed and read back. Returns it (caller owns:
 * ws_ec_free) or NULL when unsupported, out of memory or refused. */
static void *ws_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct ws_ec_key *k = key_alloc(algo);
	word32 n = GUEST_PK_P256_PUB_BYTES;

	if (!k)
		return NULL;
	k->priv = true;
	if (pk.import_private(priv, GUEST_PK_KEY_BYTES, NULL, 0, k->key,
			      WS_ECC_SECP256R1) != 0 ||
	    pk.make_pub(k->key, NULL) != 0 ||
	    pk.export_x963(k->key, k->pub, &n) != 0 ||
	    n != GUEST_PK_P256_PUB_BYTES) {
		ws_ec_free(k);
		return NULL;
	}
	return k;
}

/* An ECDSA public key of the 65-byte point PUB. Returns it (caller
 * owns: ws_ec_free) or NULL when unsupported or refused. */
static void *ws_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct ws_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !(k = key_alloc(algo)))
		return NULL;
	memcpy(k->pub, pub, GUEST_PK_P256_PUB_BYTES);
	if (pk.import_x963(pub, GUEST_PK_P256_PUB_BYTES, k->key,
			   WS_ECC_SECP256R1) != 0) {
		ws_ec_free(k);
		return NULL;
	}
	return k;
}

/* The 65-byte public point of KEY into PUB; cannot fail (0). */
static int ws_ec_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct ws_ec_key *)key)->pub, GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* ECDH of KEY and the peer's 65-byte point PEER into OUT (32 bytes).
 * Returns 0, or -1 when wolfCrypt refused or PEER is off the curve. */
static int ws_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct ws_ec_key *k = key;
	word32 n = GUEST_PK_KEY_BYTES;

	return k->priv &&
	       pk.import_point(peer, GUEST_PK_P256_PUB_BYTES, pk.curve_idx,
			       k->peer) == 0 &&
	       pk.on_curve(k->peer, pk.curve_idx) == 0 &&
	       pk.shared_ex(k->key, k->peer, out, &n) == 0 &&
	       n == GUEST_PK_KEY_BYTES ? 0 : -1;
}

/* ECDSA: sign the LEN bytes of MSG with KEY into SIG (r || s). Returns
 * 0, or -1 when wolfCrypt failed or gave a signature that is not DER. */
static int ws_ec_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct ws_ec_key *k = key;
	byte digest[32], der[ECDSA_P256_DER_MAX];
	word32 n = sizeof(der);

	return k->priv && pk.sha256(msg, (word32)len, digest) == 0 &&
	       pk.sign_hash(digest, sizeof(digest), der, &n, k->rng,
			    k->key) == 0 &&
	       ecdsa_der_to_rs(der, n, sig) == 0 ? 0 : -1;
}

/* ECDSA: check SIG (r || s) over the LEN bytes of MSG with public key
 * PUB: 0 valid, 1 rejected (a non-zero return or *res 0), -1 when the
 * hash failed. */
static int ws_ec_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct ws_ec_key *k = pub;
	byte digest[32], der[ECDSA_P256_DER_MAX];
	word32 n = (word32)ecdsa_rs_to_der(sig, der);
	int res = 0;

	if (pk.sha256(msg, (word32)len, digest) != 0)
		return -1;
	return pk.verify_hash(der, n, digest, sizeof(digest), &res,
			      k->key) == 0 && res == 1 ? 0 : 1;
}

const struct guest_pk_ops guest_ec_wolfssl = {
	.supports = ws_ec_supports,
	.key_new = ws_ec_key_new,
	.pub_new = ws_ec_pub_new,
	.key_free = ws_ec_free,
	.public_key = ws_ec_public,
	.derive = ws_ec_derive,
	.sign = ws_ec_sign,
	.verify = ws_ec_verify,
};
