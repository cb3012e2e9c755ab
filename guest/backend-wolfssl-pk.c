/* guest/backend-wolfssl-pk.c - X25519 (wc_curve25519_*), X448
 * (wc_curve448_*) and Ed25519 (wc_ed25519_*) in wolfCrypt, when the
 * build at hand exports them (Debian bookworm's 5.5.4 exports all
 * three).
 *
 * Keys: curve25519_key and ed25519_key are caller-allocated structs whose
 * size depends on the build; a key here gets KEY_BYTES zeroed bytes for
 * each, far more than 5.5's structs (under 1 KiB on x86_64) and few
 * enough: keys are made at import, not per operation.
 *
 * Byte order: wolfCrypt's X25519 raw import and export are big-endian
 * unless told otherwise; RFC 7748 keys are little-endian, so the _ex
 * functions with EC25519_LITTLE_ENDIAN (0 in curve25519.h's enum;
 * EC25519_BIG_ENDIAN is 1) are used. wolfCrypt refuses a
 * scalar that is not clamped and a peer u-coordinate with its top bit
 * set; RFC 7748 5 has the receiver clamp the one and mask the other, so
 * import clamps the scalar and derive masks the peer's top bit, as an
 * application calling wolfCrypt does - neither changes the result.
 *
 * X448 is the same with wc_curve448_*: 56-byte values, the _ex functions
 * with EC448_LITTLE_ENDIAN (RFC 7748's byte order), the scalar clamped
 * at import as RFC 7748 5 decodeScalar448 does (newer wolfCrypt refuses
 * an unclamped one; the result is the same). An X448 u-coordinate has no
 * unused top bit (RFC 7748 5), so derive passes the peer's key as it
 * is.
 *
 * Prototypes and constants restate wolfCrypt's public ABI
 * (wolfssl/wolfcrypt/curve25519.h, curve448.h and ed25519.h of 5.5). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

typedef unsigned char byte;
typedef unsigned int word32;

#define EC25519_LITTLE_ENDIAN 0	/* <wolfssl/wolfcrypt/curve25519.h> */
#define EC448_LITTLE_ENDIAN 0	/* <wolfssl/wolfcrypt/curve448.h> */
#define KEY_BYTES 4096

static struct {
	int (*c_init)(void *key);
	void (*c_free)(void *key);
	int (*c_make_pub)(int pub_size, byte *pub, int priv_size,
			  const byte *priv);
	int (*c_import_private)(const byte *priv, word32 priv_size,
				const byte *pub, word32 pub_size, void *key,
				int endian);
	int (*c_import_public)(const byte *in, word32 in_len, void *key,
			       int endian);
	int (*c_shared)(void *priv, void *pub, byte *out, word32 *out_len,
			int endian);
	int (*x_init)(void *key);
	void (*x_free)(void *key);
	int (*x_make_pub)(int pub_size, byte *pub, int priv_size,
			  const byte *priv);
	int (*x_import_private)(const byte *priv, word32 priv_size,
				const byte *pub, word32 pub_size, void *key,
				int endian);
	int (*x_import_public)(const byte *in, word32 in_len, void *key,
			       int endian);
	int (*x_shared)(void *priv, void *pub, byte *out, word32 *out_len,
			int endian);
	int (*e_init)(void *key);
	void (*e_free)(void *key);
	int (*e_import_private_only)(const byte *priv, word32 priv_size,
				     void *key);
	int (*e_make_public)(void *key, byte *pub, word32 pub_size);
	int (*e_import_private_key)(const byte *priv, word32 priv_size,
				    const byte *pub, word32 pub_size,
				    void *key);
	int (*e_import_public)(const byte *in, word32 in_len, void *key);
	int (*e_sign)(const byte *in, word32 in_len, byte *out,
		      word32 *out_len, void *key);
	int (*e_verify)(const byte *sig, word32 sig_len, const byte *msg,
			word32 msg_len, int *res, void *key);
	bool x25519, x448, ed25519;
} pk;

/* A key: ALGO's wolfCrypt key (and, for X25519 and X448, a second one
 * the peer's public key is imported into in every derive), its public
 * key (guest_pk_pub_bytes(ALGO) bytes). */
struct ws_key {
	enum guest_pk_algo algo;
	int inited, peer_inited;
	uint8_t pub[GUEST_PK_X448_BYTES];
	void *key, *peer;
};

void guest_pk_wolfssl_load(void *handle)
{
	const struct backend_symbol x[] = {
		{ &pk.c_init, "wc_curve25519_init" },
		{ &pk.c_free, "wc_curve25519_free" },
		{ &pk.c_make_pub, "wc_curve25519_make_pub" },
		{ &pk.c_import_private, "wc_curve25519_import_private_raw_ex" },
		{ &pk.c_import_public, "wc_curve25519_import_public_ex" },
		{ &pk.c_shared, "wc_curve25519_shared_secret_ex" },
	};
	const struct backend_symbol x448[] = {
		{ &pk.x_init, "wc_curve448_init" },
		{ &pk.x_free, "wc_curve448_free" },
		{ &pk.x_make_pub, "wc_curve448_make_pub" },
		{ &pk.x_import_private, "wc_curve448_import_private_raw_ex" },
		{ &pk.x_import_public, "wc_curve448_import_public_ex" },
		{ &pk.x_shared, "wc_curve448_shared_secret_ex" },
	};
	const struct backend_symbol ed[] = {
		{ &pk.e_init, "wc_ed25519_init" },
		{ &pk.e_free, "wc_ed25519_free" },
		{ &pk.e_import_private_only, "wc_ed25519_import_private_only" },
		{ &pk.e_make_public, "wc_ed25519_make_public" },
		{ &pk.e_import_private_key, "wc_ed25519_import_private_key" },
		{ &pk.e_import_public, "wc_ed25519_import_public" },
		{ &pk.e_sign, "wc_ed25519_sign_msg" },
		{ &pk.e_verify, "wc_ed25519_verify_msg" },
	};
	char why[128];

	pk.x25519 = backend_require(handle, x, sizeof(x) / sizeof(x[0]), why,
				    sizeof(why)) == 0;
	pk.x448 = backend_require(handle, x448, sizeof(x448) / sizeof(x448[0]),
				  why, sizeof(why)) == 0;
	pk.ed25519 = backend_require(handle, ed, sizeof(ed) / sizeof(ed[0]),
				     why, sizeof(why)) == 0;
}

static bool ws_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? pk.x25519 :
	       algo == GUEST_PK_X448 ? pk.x448 :
	       algo == GUEST_PK_ED25519 ? pk.ed25519 : false;
}

typedef int key_init_fn(void *key);
typedef void key_free_fn(void *key);

/* wolfCrypt's init and free of ALGO's key type (never NULL once ALGO is
 * supported). */
static key_init_fn *init_of(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? pk.c_init :
	       algo == GUEST_PK_X448 ? pk.x_init : pk.e_init;
}

static key_free_fn *free_of(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? pk.c_free :
	       algo == GUEST_PK_X448 ? pk.x_free : pk.e_free;
}

/* Release KEY (struct ws_key, with its wolfCrypt keys); NULL is
 * ignored. */
static void ws_pk_free(void *key)
{
	struct ws_key *k = key;

	if (!k)
		return;
	if (k->inited)
		free_of(k->algo)(k->key);
	if (k->peer_inited)
		free_of(k->algo)(k->peer);
	free(k->key);
	free(k->peer);
	free(k);
}

/* A new key record of ALGO with its wolfCrypt key initialised (and the
 * peer's, for X25519 and X448), or NULL. */
static struct ws_key *key_alloc(enum guest_pk_algo algo)
{
	bool agree = guest_pk_is_agreement(algo);
	struct ws_key *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->algo = algo;
	if (!(k->key = calloc(1, KEY_BYTES)) ||
	    (agree && !(k->peer = calloc(1, KEY_BYTES))))
		goto fail;
	if (init_of(algo)(k->key) != 0)
		goto fail;
	k->inited = 1;
	if (agree) {
		if (init_of(algo)(k->peer) != 0)
			goto fail;
		k->peer_inited = 1;
	}
	return k;
fail:
	ws_pk_free(k);
	return NULL;
}

/* Set up X448 key K from the 56-byte scalar PRIV: clamped (RFC 7748 5,
 * decodeScalar448), its public key computed and both imported
 * little-endian. Returns 0, or -1 when wolfCrypt refused. */
static int x448_import(struct ws_key *k, const uint8_t *priv)
{
	uint8_t s[GUEST_PK_X448_BYTES];

	memcpy(s, priv, sizeof(s));
	s[0] &= 252;
	s[55] |= 128;
	return pk.x_make_pub(GUEST_PK_X448_BYTES, k->pub, GUEST_PK_X448_BYTES,
			     s) == 0 &&
	       pk.x_import_private(s, GUEST_PK_X448_BYTES, k->pub,
				   GUEST_PK_X448_BYTES, k->key,
				   EC448_LITTLE_ENDIAN) == 0 ? 0 : -1;
}

static void *ws_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct ws_key *k;

	if (!ws_pk_supports(algo) || !(k = key_alloc(algo)))
		return NULL;
	if (algo == GUEST_PK_X448) {
		if (x448_import(k, priv) != 0)
			goto fail;
	} else if (algo == GUEST_PK_X25519) {
		uint8_t s[GUEST_PK_KEY_BYTES];

		/* RFC 7748 5, decodeScalar25519: the clamping X25519 does */
		memcpy(s, priv, sizeof(s));
		s[0] &= 248;
		s[31] &= 127;
		s[31] |= 64;
		if (pk.c_make_pub(GUEST_PK_KEY_BYTES, k->pub, GUEST_PK_KEY_BYTES,
				  s) != 0 ||
		    pk.c_import_private(s, GUEST_PK_KEY_BYTES, k->pub,
					GUEST_PK_KEY_BYTES, k->key,
					EC25519_LITTLE_ENDIAN) != 0)
			goto fail;
	} else if (pk.e_import_private_only(priv, GUEST_PK_KEY_BYTES,
					    k->key) != 0 ||
		   pk.e_make_public(k->key, k->pub, GUEST_PK_KEY_BYTES) != 0 ||
		   pk.e_import_private_key(priv, GUEST_PK_KEY_BYTES, k->pub,
					   GUEST_PK_KEY_BYTES, k->key) != 0) {
		goto fail;
	}
	return k;
fail:
	ws_pk_free(k);
	return NULL;
}

static void *ws_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct ws_key *k;

	if (algo != GUEST_PK_ED25519 || !ws_pk_supports(algo) ||
	    !(k = key_alloc(algo)))
		return NULL;
	memcpy(k->pub, pub, GUEST_PK_KEY_BYTES);
	if (pk.e_import_public(pub, GUEST_PK_KEY_BYTES, k->key) != 0) {
		ws_pk_free(k);
		return NULL;
	}
	return k;
}

/* The public key of KEY (guest_pk_pub_bytes of its algorithm) into PUB;
 * cannot fail (0). */
static int ws_pk_public(void *key, uint8_t *pub)
{
	struct ws_key *k = key;

	memcpy(pub, k->pub, guest_pk_pub_bytes(k->algo));
	return 0;
}

/* X448 of KEY and the peer's 56-byte u-coordinate PEER into OUT (56
 * bytes), the peer's key imported in the call. Returns 0, or -1 when
 * wolfCrypt refused. */
static int x448_derive(struct ws_key *k, const uint8_t *peer, uint8_t *out)
{
	word32 len = GUEST_PK_X448_BYTES;

	return pk.x_import_public(peer, GUEST_PK_X448_BYTES, k->peer,
				  EC448_LITTLE_ENDIAN) == 0 &&
	       pk.x_shared(k->key, k->peer, out, &len,
			   EC448_LITTLE_ENDIAN) == 0 &&
	       len == GUEST_PK_X448_BYTES ? 0 : -1;
}

/* X25519 or X448 of KEY and the peer's raw public key PEER into OUT
 * (guest_pk_secret_bytes). The peer's key is imported in every call
 * (X25519's masked: RFC 7748 5). Returns 0, or -1 when wolfCrypt
 * refused. */
static int ws_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct ws_key *k = key;
	uint8_t u[GUEST_PK_KEY_BYTES];
	word32 len = GUEST_PK_KEY_BYTES;

	if (k->algo == GUEST_PK_X448)
		return x448_derive(k, peer, out);
	memcpy(u, peer, sizeof(u));
	u[31] &= 127;
	if (pk.c_import_public(u, GUEST_PK_KEY_BYTES, k->peer,
			       EC25519_LITTLE_ENDIAN) != 0 ||
	    pk.c_shared(k->key, k->peer, out, &len,
			EC25519_LITTLE_ENDIAN) != 0 ||
	    len != GUEST_PK_KEY_BYTES)
		return -1;
	return 0;
}

static int ws_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct ws_key *k = key;
	word32 n = GUEST_PK_SIG_BYTES;

	return pk.e_sign(msg, (word32)len, sig, &n, k->key) == 0 &&
	       n == GUEST_PK_SIG_BYTES ? 0 : -1;
}

/* wc_ed25519_verify_msg: 0 and *res 1 for a valid signature; an invalid
 * one is a non-zero return (SIG_VERIFY_E) or *res 0. */
static int ws_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct ws_key *k = pub;
	int res = 0;

	return pk.e_verify(sig, GUEST_PK_SIG_BYTES, msg, (word32)len, &res,
			   k->key) == 0 && res == 1 ? 0 : 1;
}

const struct guest_pk_ops guest_pk_wolfssl = {
	.supports = ws_pk_supports,
	.key_new = ws_pk_key_new,
	.pub_new = ws_pk_pub_new,
	.key_free = ws_pk_free,
	.public_key = ws_pk_public,
	.derive = ws_pk_derive,
	.sign = ws_pk_sign,
	.verify = ws_pk_verify,
};
