/* guest/backend-botan-ec.c - ECDH and ECDSA on P-256 ("secp256r1")
 * through Botan 2's FFI, when the build exports them (Debian bookworm's
 * 2.19 does).
 *
 * import makes what Botan needs to use a key, as backend-botan-pk.c
 * does: the key object (botan_privkey_load_ecdh / _ecdsa of the scalar
 * as a botan_mp_t, which computes the public point) and its operation
 * object (key agreement with KDF "Raw"; signature with "EMSA1(SHA-256)",
 * Botan 2's name for ECDSA over a SHA-256 digest). The public point is
 * read with botan_pk_op_key_agreement_export_public (ECDH) or from the
 * key's SubjectPublicKeyInfo (botan_pubkey_export, DER: its last 65
 * bytes; ECDSA - Botan writes an ECDH key's with its own algorithm OID);
 * a public key for verify is loaded from one (botan_pubkey_load). derive takes the peer's raw point in every call
 * (botan_pk_op_key_agreement; Botan checks it is on the curve); the
 * secret is the X coordinate. Signatures are r || s, Botan's default
 * format (IEEE 1363); Botan 2's ECDSA signer takes its nonce from RFC
 * 6979 (deterministic) and the generator it is given only for blinding.
 * Prototypes restate <botan/ffi.h> (2.19); return value 0 is success,
 * BOTAN_FFI_INVALID_VERIFIER (1) a rejected signature;
 * BOTAN_PRIVKEY_EXPORT_FLAG_DER = 0. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define BO_EXPORT_DER 0	/* BOTAN_PRIVKEY_EXPORT_FLAG_DER, <botan/ffi.h> */

typedef void *bh;	/* an opaque Botan FFI object */

/* RFC 5480 2: the DER of a P-256 SubjectPublicKeyInfo before its
 * 65-byte point (id-ecPublicKey, prime256v1, BIT STRING of 66). */
static const uint8_t spki_head[26] = {
	0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
	0x07, 0x03, 0x42, 0x00
};
#define SPKI_BYTES (sizeof(spki_head) + GUEST_PK_P256_PUB_BYTES)

static struct {
	int (*mp_init)(bh *mp);
	int (*mp_from_bin)(bh mp, const uint8_t *bin, size_t len);
	int (*mp_destroy)(bh mp);
	int (*load_ecdh)(bh *key, bh scalar, const char *curve);
	int (*load_ecdsa)(bh *key, bh scalar, const char *curve);
	int (*pub_load)(bh *key, const uint8_t *bits, size_t len);
	int (*pub_export)(bh key, uint8_t *out, size_t *out_len,
			  uint32_t flags);
	int (*export_pub)(bh *pub, bh priv);
	int (*priv_destroy)(bh key);
	int (*pub_destroy)(bh key);
	int (*ka_create)(bh *op, bh key, const char *kdf, uint32_t flags);
	int (*ka)(bh op, uint8_t *out, size_t *out_len, const uint8_t *other,
		  size_t other_len, const uint8_t *salt, size_t salt_len);
	int (*ka_destroy)(bh op);
	int (*ka_export)(bh key, uint8_t *out, size_t *out_len);
	int (*sign_create)(bh *op, bh key, const char *padding,
			   uint32_t flags);
	int (*sign_update)(bh op, const uint8_t *in, size_t len);
	int (*sign_finish)(bh op, bh rng, uint8_t *sig, size_t *sig_len);
	int (*sign_destroy)(bh op);
	int (*verify_create)(bh *op, bh key, const char *padding,
			     uint32_t flags);
	int (*verify_update)(bh op, const uint8_t *in, size_t len);
	int (*verify_finish)(bh op, const uint8_t *sig, size_t sig_len);
	int (*verify_destroy)(bh op);
	int (*rng_init)(bh *rng, const char *type);
	bool ecdh, ecdsa;
	bh rng;		/* the signer's, made at load */
} pk;

/* A key: ALGO's Botan private (or, for verify, public) key object, its
 * operation object and its public point's bytes. */
struct bo_ec_key {
	enum guest_pk_algo algo;
	bool is_public;
	bh key, op;
	uint8_t pub[GUEST_PK_P256_PUB_BYTES];
};

/* Resolve the entry points in HANDLE (libbotan, loaded by
 * backend-botan.c); an algorithm whose entry points are not all there
 * stays unsupported. */
void guest_ec_botan_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.mp_init, "botan_mp_init" },
		{ &pk.mp_from_bin, "botan_mp_from_bin" },
		{ &pk.mp_destroy, "botan_mp_destroy" },
		{ &pk.pub_export, "botan_pubkey_export" },
		{ &pk.export_pub, "botan_privkey_export_pubkey" },
		{ &pk.priv_destroy, "botan_privkey_destroy" },
		{ &pk.pub_destroy, "botan_pubkey_destroy" },
	};
	const struct backend_symbol dh[] = {
		{ &pk.load_ecdh, "botan_privkey_load_ecdh" },
		{ &pk.ka_create, "botan_pk_op_key_agreement_create" },
		{ &pk.ka, "botan_pk_op_key_agreement" },
		{ &pk.ka_destroy, "botan_pk_op_key_agreement_destroy" },
		{ &pk.ka_export, "botan_pk_op_key_agreement_export_public" },
	};
	const struct backend_symbol sig[] = {
		{ &pk.load_ecdsa, "botan_privkey_load_ecdsa" },
		{ &pk.pub_load, "botan_pubkey_load" },
		{ &pk.sign_create, "botan_pk_op_sign_create" },
		{ &pk.sign_update, "botan_pk_op_sign_update" },
		{ &pk.sign_finish, "botan_pk_op_sign_finish" },
		{ &pk.sign_destroy, "botan_pk_op_sign_destroy" },
		{ &pk.verify_create, "botan_pk_op_verify_create" },
		{ &pk.verify_update, "botan_pk_op_verify_update" },
		{ &pk.verify_finish, "botan_pk_op_verify_finish" },
		{ &pk.verify_destroy, "botan_pk_op_verify_destroy" },
		{ &pk.rng_init, "botan_rng_init" },
	};
	char why[128];

	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) < 0)
		return;
	pk.ecdh = backend_require(handle, dh, sizeof(dh) / sizeof(dh[0]), why,
				  sizeof(why)) == 0;
	pk.ecdsa = backend_require(handle, sig, sizeof(sig) / sizeof(sig[0]),
				   why, sizeof(why)) == 0 &&
		   pk.rng_init(&pk.rng, "system") == 0;
}

/* struct guest_pk_ops: ECDH and ECDSA on P-256, where resolved. */
static bool bo_ec_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ECDH_P256 ? pk.ecdh :
	       algo == GUEST_PK_ECDSA_P256 ? pk.ecdsa : false;
}

/* Release KEY (struct bo_ec_key, with its Botan objects); NULL is
 * ignored. */
static void bo_ec_free(void *key)
{
	struct bo_ec_key *k = key;

	if (!k)
		return;
	if (k->op)
		(k->algo == GUEST_PK_ECDH_P256 ? pk.ka_destroy :
		 k->is_public ? pk.verify_destroy : pk.sign_destroy)(k->op);
	if (k->key)
		(k->is_public ? pk.pub_destroy : pk.priv_destroy)(k->key);
	free(k);
}

/* The 65-byte point of public key object PUB into OUT, from its
 * SubjectPublicKeyInfo. Returns 0, or -1 when Botan gave another. */
static int point_of(bh pub, uint8_t *out)
{
	uint8_t der[SPKI_BYTES + 16];
	size_t n = sizeof(der);

	if (pk.pub_export(pub, der, &n, BO_EXPORT_DER) != 0 ||
	    n != SPKI_BYTES || memcmp(der, spki_head, sizeof(spki_head)) != 0)
		return -1;
	memcpy(out, der + sizeof(spki_head), GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* A private key of ALGO of the 32-byte big-endian scalar PRIV, its
 * operation object made. Returns it (caller owns: bo_ec_free) or NULL
 * when unsupported, out of memory or refused. */
static void *bo_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct bo_ec_key *k;
	bh mp = NULL, pub = NULL;
	int rc;

	if (!bo_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	if (pk.mp_init(&mp) != 0) {
		free(k);
		return NULL;
	}
	rc = pk.mp_from_bin(mp, priv, GUEST_PK_KEY_BYTES) == 0 ?
	     (algo == GUEST_PK_ECDH_P256 ? pk.load_ecdh :
	      pk.load_ecdsa)(&k->key, mp, "secp256r1") : -1;
	pk.mp_destroy(mp);
	if (rc != 0) {
		k->key = NULL;
		goto fail;
	}
	if (algo == GUEST_PK_ECDH_P256) {
		size_t n = sizeof(k->pub);

		if (pk.ka_export(k->key, k->pub, &n) != 0 ||
		    n != GUEST_PK_P256_PUB_BYTES || k->pub[0] != 0x04)
			goto fail;
	} else {
		if (pk.export_pub(&pub, k->key) != 0)
			goto fail;
		rc = point_of(pub, k->pub);
		pk.pub_destroy(pub);
		if (rc != 0)
			goto fail;
	}
	if ((algo == GUEST_PK_ECDH_P256 ?
	     pk.ka_create(&k->op, k->key, "Raw", 0) :
	     pk.sign_create(&k->op, k->key, "EMSA1(SHA-256)", 0)) != 0) {
		k->op = NULL;
		goto fail;
	}
	return k;
fail:
	bo_ec_free(k);
	return NULL;
}

/* An ECDSA public key of the 65-byte point PUB (loaded as a
 * SubjectPublicKeyInfo), its verify object made. Returns it (caller
 * owns: bo_ec_free) or NULL. */
static void *bo_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	uint8_t der[SPKI_BYTES];
	struct bo_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !bo_ec_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->is_public = true;
	memcpy(k->pub, pub, GUEST_PK_P256_PUB_BYTES);
	memcpy(der, spki_head, sizeof(spki_head));
	memcpy(der + sizeof(spki_head), pub, GUEST_PK_P256_PUB_BYTES);
	if (pk.pub_load(&k->key, der, sizeof(der)) != 0) {
		k->key = NULL;
		goto fail;
	}
	if (pk.verify_create(&k->op, k->key, "EMSA1(SHA-256)", 0) != 0) {
		k->op = NULL;
		goto fail;
	}
	return k;
fail:
	bo_ec_free(k);
	return NULL;
}

/* The 65-byte public point of KEY into PUB; cannot fail (0). */
static int bo_ec_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct bo_ec_key *)key)->pub, GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* ECDH of KEY and the peer's 65-byte point PEER into OUT (32 bytes).
 * Returns 0, or -1 when Botan refused. */
static int bo_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct bo_ec_key *k = key;
	size_t len = GUEST_PK_KEY_BYTES;

	return k->algo == GUEST_PK_ECDH_P256 &&
	       pk.ka(k->op, out, &len, peer, GUEST_PK_P256_PUB_BYTES, NULL,
		     0) == 0 && len == GUEST_PK_KEY_BYTES ? 0 : -1;
}

/* ECDSA: sign the LEN bytes of MSG with KEY into SIG (r || s). Returns
 * 0, or -1 when Botan failed. */
static int bo_ec_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct bo_ec_key *k = key;
	size_t n = GUEST_PK_SIG_BYTES;

	return !k->is_public && pk.sign_update(k->op, msg, len) == 0 &&
	       pk.sign_finish(k->op, pk.rng, sig, &n) == 0 &&
	       n == GUEST_PK_SIG_BYTES ? 0 : -1;
}

/* ECDSA: check SIG (r || s) over the LEN bytes of MSG with public key
 * PUB: 0 valid, 1 rejected, -1 when the message could not be given. */
static int bo_ec_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct bo_ec_key *k = pub;

	if (pk.verify_update(k->op, msg, len) != 0)
		return -1;
	return pk.verify_finish(k->op, sig, GUEST_PK_SIG_BYTES) == 0 ? 0 : 1;
}

const struct guest_pk_ops guest_ec_botan = {
	.supports = bo_ec_supports,
	.key_new = bo_ec_key_new,
	.pub_new = bo_ec_pub_new,
	.key_free = bo_ec_free,
	.public_key = bo_ec_public,
	.derive = bo_ec_derive,
	.sign = bo_ec_sign,
	.verify = bo_ec_verify,
};
