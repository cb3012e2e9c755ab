/* guest/backend-libgcrypt-pk.c - X25519 in libgcrypt through
 * gcry_ecc_mul_point (libgcrypt 1.9 and later; older ones lack it, and
 * X25519 is then unsupported). Ed25519 (gcry_pk_sign on S-expressions)
 * is not done yet: unsupported.
 *
 * gcry_ecc_mul_point takes raw keys in every call, so a key here is the
 * raw scalar and the public key import derives from it (the scalar times
 * the base point), the work OpenSSL's import does too. Prototype and
 * constant as gcrypt.h (1.10.1) declares them: enum gcry_ecc_curves
 * GCRY_ECC_CURVE25519 = 1; a NULL point means the base point. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define GC_ECC_CURVE25519 1

static struct {
	unsigned int (*mul_point)(int curve, unsigned char *result,
				  const unsigned char *scalar,
				  const unsigned char *point);
} pk;

struct gc_key {
	uint8_t priv[GUEST_PK_KEY_BYTES];
	uint8_t pub[GUEST_PK_KEY_BYTES];
};

void guest_pk_libgcrypt_load(void *handle)
{
	backend_sym(handle, &pk.mul_point, "gcry_ecc_mul_point");
}

static bool gc_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 && pk.mul_point;
}

static void *gc_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct gc_key *k;

	if (!gc_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	memcpy(k->priv, priv, GUEST_PK_KEY_BYTES);
	if (pk.mul_point(GC_ECC_CURVE25519, k->pub, priv, NULL) != 0) {
		free(k);
		return NULL;
	}
	return k;
}

/* No Ed25519 here, so no public key to import. */
static void *gc_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	(void)algo;
	(void)pub;
	return NULL;
}

static void gc_pk_free(void *key)
{
	free(key);
}

static int gc_pk_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct gc_key *)key)->pub, GUEST_PK_KEY_BYTES);
	return 0;
}

static int gc_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	return pk.mul_point(GC_ECC_CURVE25519, out,
			    ((struct gc_key *)key)->priv, peer) == 0 ? 0 : -1;
}

/* Ed25519 is unsupported: never called. */
static int gc_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	(void)key;
	(void)msg;
	(void)len;
	(void)sig;
	return -1;
}

static int gc_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	(void)pub;
	(void)msg;
	(void)len;
	(void)sig;
	return -1;
}

const struct guest_pk_ops guest_pk_libgcrypt = {
	.supports = gc_pk_supports,
	.key_new = gc_pk_key_new,
	.pub_new = gc_pk_pub_new,
	.key_free = gc_pk_free,
	.public_key = gc_pk_public,
	.derive = gc_pk_derive,
	.sign = gc_pk_sign,
	.verify = gc_pk_verify,
};
