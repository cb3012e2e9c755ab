/* guest/backend-nettle-pk.c - X25519 (curve25519_mul), X448
 * (curve448_mul) and Ed25519 (ed25519_sha512_*) in Nettle, whose
 * public-key half is libhogweed: libhogweed.so.6 beside libnettle.so.8,
 * .5 beside .7, .4 beside .6 (Nettle 3.1 and later have X25519 and
 * Ed25519; X448 came with 3.6, libhogweed.so.6, and is unsupported in
 * an older one).
 *
 * libhogweed (and the GMP it needs) is opened only when a public-key
 * algorithm is first asked for (supports), so that a run without
 * --pubkey loads exactly what it loaded before and its footprint is
 * unchanged.
 *
 * Nettle takes raw keys in every call, so a key here is the raw bytes
 * and the public key import derives from them (curve25519_mul_g,
 * curve448_mul_g, ed25519_sha512_public_key), the work OpenSSL's import
 * does too; sign hashes the private key again in every call (RFC 8032
 * 5.1.6), as OpenSSL and libsodium do. Prototypes as
 * <nettle/curve25519.h>, <nettle/curve448.h> (3.6 to 3.10) and
 * <nettle/eddsa.h> (3.1 to 3.10) declare them, under their exported
 * names (nettle_ prefix). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

/* Indexed like backend-nettle.c's sonames. */
static const char *const hogweed[] = {
	"libhogweed.so.6", "libhogweed.so.5", "libhogweed.so.4"
};

static struct {
	size_t which;		/* libnettle's soname index; SIZE_MAX: none */
	bool tried;		/* libhogweed was looked for */
	void (*mul)(uint8_t *q, const uint8_t *n, const uint8_t *p);
	void (*mul_g)(uint8_t *q, const uint8_t *n);
	void (*mul448)(uint8_t *q, const uint8_t *n, const uint8_t *p);
	void (*mul448_g)(uint8_t *q, const uint8_t *n);
	void (*public_key)(uint8_t *pub, const uint8_t *priv);
	void (*sign)(const uint8_t *pub, const uint8_t *priv, size_t length,
		     const uint8_t *msg, uint8_t *signature);
	int (*verify)(const uint8_t *pub, size_t length, const uint8_t *msg,
		      const uint8_t *signature);
	bool x25519, x448, ed25519;
	void *handle;		/* libhogweed's, once opened */
} pk = { .which = (size_t)-1 };

/* A key: the raw private key (none for a public key) and the public,
 * guest_pk_pub_bytes(ALGO) bytes each. */
struct nt_key {
	enum guest_pk_algo algo;
	uint8_t priv[GUEST_PK_X448_BYTES];
	uint8_t pub[GUEST_PK_X448_BYTES];
};

void guest_pk_nettle_load(size_t which)
{
	pk.which = which;
}

/* Open libhogweed and resolve the entry points, once. */
static void open_hogweed(void)
{
	const struct backend_symbol x[] = {
		{ &pk.mul, "nettle_curve25519_mul" },
		{ &pk.mul_g, "nettle_curve25519_mul_g" },
	};
	const struct backend_symbol x448[] = {
		{ &pk.mul448, "nettle_curve448_mul" },
		{ &pk.mul448_g, "nettle_curve448_mul_g" },
	};
	const struct backend_symbol ed[] = {
		{ &pk.public_key, "nettle_ed25519_sha512_public_key" },
		{ &pk.sign, "nettle_ed25519_sha512_sign" },
		{ &pk.verify, "nettle_ed25519_sha512_verify" },
	};
	char why[256];
	size_t i;
	void *h;

	pk.tried = true;
	if (pk.which >= sizeof(hogweed) / sizeof(hogweed[0]) ||
	    !(h = backend_dlopen(&hogweed[pk.which], 1, &i, why, sizeof(why))))
		return;
	pk.handle = h;
	pk.x25519 = backend_require(h, x, sizeof(x) / sizeof(x[0]), why,
				    sizeof(why)) == 0;
	pk.x448 = backend_require(h, x448, sizeof(x448) / sizeof(x448[0]),
				  why, sizeof(why)) == 0;
	pk.ed25519 = backend_require(h, ed, sizeof(ed) / sizeof(ed[0]), why,
				     sizeof(why)) == 0;
}

void *guest_pk_nettle_hogweed(void)
{
	if (!pk.tried)
		open_hogweed();
	return pk.handle;
}

static bool nt_pk_supports(enum guest_pk_algo algo)
{
	if (!pk.tried)
		open_hogweed();
	return algo == GUEST_PK_X25519 ? pk.x25519 :
	       algo == GUEST_PK_X448 ? pk.x448 :
	       algo == GUEST_PK_ED25519 ? pk.ed25519 : false;
}

/* A private key of ALGO from the guest_pk_priv_bytes(ALGO) bytes of PRIV
 * (32, X448 56), its public key derived. Returns it (caller owns:
 * nt_pk_free) or NULL when unsupported or out of memory. */
static void *nt_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct nt_key *k;

	if (!nt_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->priv, priv, guest_pk_priv_bytes(algo));
	if (algo == GUEST_PK_X25519)
		pk.mul_g(k->pub, priv);
	else if (algo == GUEST_PK_X448)
		pk.mul448_g(k->pub, priv);
	else
		pk.public_key(k->pub, priv);
	return k;
}

static void *nt_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct nt_key *k;

	if (algo != GUEST_PK_ED25519 || !nt_pk_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(k->pub, pub, GUEST_PK_KEY_BYTES);
	return k;
}

static void nt_pk_free(void *key)
{
	free(key);
}

/* The public key of KEY (guest_pk_pub_bytes of its algorithm) into PUB;
 * cannot fail (0). */
static int nt_pk_public(void *key, uint8_t *pub)
{
	struct nt_key *k = key;

	memcpy(pub, k->pub, guest_pk_pub_bytes(k->algo));
	return 0;
}

/* X25519 or X448 of KEY's scalar and the raw u-coordinate PEER into OUT
 * (32 bytes each, X448 56). curve25519_mul and curve448_mul are void:
 * every input gives an output (an all-zero one for a low-order peer
 * point, which the cross-check would show as a disagreement), so this
 * always returns 0. */
static int nt_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct nt_key *k = key;

	(k->algo == GUEST_PK_X448 ? pk.mul448 : pk.mul)(out, k->priv, peer);
	return 0;
}

static int nt_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct nt_key *k = key;

	pk.sign(k->pub, k->priv, len, msg, sig);
	return 0;
}

static int nt_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	return pk.verify(((struct nt_key *)pub)->pub, len, msg, sig) == 1 ? 0
									  : 1;
}

const struct guest_pk_ops guest_pk_nettle = {
	.supports = nt_pk_supports,
	.key_new = nt_pk_key_new,
	.pub_new = nt_pk_pub_new,
	.key_free = nt_pk_free,
	.public_key = nt_pk_public,
	.derive = nt_pk_derive,
	.sign = nt_pk_sign,
	.verify = nt_pk_verify,
};
