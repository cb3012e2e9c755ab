/* guest/backend-libsodium-pk.c - X25519 (crypto_scalarmult) and Ed25519
 * (crypto_sign_seed_keypair, crypto_sign_detached,
 * crypto_sign_verify_detached) in libsodium; every 1.0.x has them.
 * libsodium has no X448 (up to 1.0.20): unsupported.
 *
 * libsodium takes raw keys in every call, so a key here is the raw bytes
 * and what import derives from them, the work OpenSSL's import does too
 * (EVP_PKEY_new_raw_private_key computes the public key): X25519's
 * public key (crypto_scalarmult_base), Ed25519's key pair
 * (crypto_sign_seed_keypair: SHA-512 of the seed and a base-point
 * multiplication). Sign hashes the seed
 * again in every call, as RFC 8032 5.1.6 and OpenSSL do. Prototypes as
 * <sodium.h> (1.0.18) declares them. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

typedef unsigned char uc;
typedef unsigned long long ull;

static struct {
	int (*scalarmult)(uc *q, const uc *n, const uc *p);
	int (*scalarmult_base)(uc *q, const uc *n);
	int (*seed_keypair)(uc *pk, uc *sk, const uc *seed);
	int (*sign)(uc *sig, ull *siglen, const uc *m, ull mlen,
		    const uc *sk);
	int (*verify)(const uc *sig, const uc *m, ull mlen, const uc *pk);
	bool x25519, ed25519;
} pk;

/* A key: X25519's scalar (priv), or Ed25519's secret key (seed and
 * public key, libsodium's 64-byte form) and public key. */
struct na_key {
	enum guest_pk_algo algo;
	uint8_t priv[GUEST_PK_KEY_BYTES];
	uint8_t sk[2 * GUEST_PK_KEY_BYTES];
	uint8_t pub[GUEST_PK_KEY_BYTES];
};

void guest_pk_libsodium_load(void *handle)
{
	const struct backend_symbol x[] = {
		{ &pk.scalarmult, "crypto_scalarmult" },
		{ &pk.scalarmult_base, "crypto_scalarmult_base" },
	};
	const struct backend_symbol ed[] = {
		{ &pk.seed_keypair, "crypto_sign_seed_keypair" },
		{ &pk.sign, "crypto_sign_detached" },
		{ &pk.verify, "crypto_sign_verify_detached" },
	};
	char why[128];

	pk.x25519 = backend_require(handle, x, sizeof(x) / sizeof(x[0]), why,
				    sizeof(why)) == 0;
	pk.ed25519 = backend_require(handle, ed, sizeof(ed) / sizeof(ed[0]),
				     why, sizeof(why)) == 0;
}

static bool na_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? pk.x25519 :
	       algo == GUEST_PK_ED25519 ? pk.ed25519 : false;
}

static void *na_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct na_key *k;

	if (!na_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->priv, priv, GUEST_PK_KEY_BYTES);
	if (algo == GUEST_PK_X25519 ? pk.scalarmult_base(k->pub, priv) != 0 :
	    pk.seed_keypair(k->pub, k->sk, priv) != 0) {
		free(k);
		return NULL;
	}
	return k;
}

static void *na_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct na_key *k;

	if (algo != GUEST_PK_ED25519 || !na_pk_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->pub, pub, GUEST_PK_KEY_BYTES);
	return k;
}

static void na_pk_free(void *key)
{
	free(key);
}

static int na_pk_public(void *key, uint8_t *pub)
{
	struct na_key *k = key;

	memcpy(pub, k->pub, GUEST_PK_KEY_BYTES);
	return 0;
}

/* crypto_scalarmult returns -1 for an all-zero result (a low-order peer
 * point), which RFC 7748 6.1 lets an implementation refuse. */
static int na_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct na_key *k = key;

	return pk.scalarmult(out, k->priv, peer) == 0 ? 0 : -1;
}

static int na_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct na_key *k = key;

	return pk.sign(sig, NULL, msg, len, k->sk) == 0 ? 0 : -1;
}

static int na_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct na_key *k = pub;

	return pk.verify(sig, msg, len, k->pub) == 0 ? 0 : 1;
}

const struct guest_pk_ops guest_pk_libsodium = {
	.supports = na_pk_supports,
	.key_new = na_pk_key_new,
	.pub_new = na_pk_pub_new,
	.key_free = na_pk_free,
	.public_key = na_pk_public,
	.derive = na_pk_derive,
	.sign = na_pk_sign,
	.verify = na_pk_verify,
};
