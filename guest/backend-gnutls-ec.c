/* guest/backend-gnutls-ec.c - ECDSA and ECDH on P-256 in GnuTLS through
 * its abstract key API (gnutls/abstract.h): gnutls_privkey_sign_data2 and
 * gnutls_pubkey_verify_data2 with GNUTLS_SIGN_ECDSA_SHA256 (GnuTLS 3.6
 * and later; Debian bookworm has 3.7.9), and gnutls_privkey_derive_secret
 * (GnuTLS 3.8.2 and later; Debian trixie has 3.8.9).
 *
 * import (both algorithms the same): GnuTLS's import of an EC private
 * key needs the public point beside the scalar -
 * gnutls_privkey_import_ecc_raw takes x, y and k, and a SEC 1 key
 * without the point is refused ("Error in DER parsing", checked on
 * 3.7.9) - and GnuTLS has no call that computes the point.
 * GnuTLS's own elliptic-curve arithmetic is Nettle's (libhogweed, which
 * libgnutls links): the import computes the point there, resolved through
 * libgnutls's handle (nettle_ecc_point_mul_g, as GnuTLS's key generation
 * computes it), then imports x, y and k. The import's time is that of
 * the multiplication and GnuTLS's import.
 *
 * sign and verify take the message as a gnutls_datum_t; GnuTLS hashes
 * it; signatures are DER (converted from and to r || s,
 * guest/ecdsa-der.h), randomised (no GNUTLS_PRIVKEY_FLAG_REPRODUCIBLE);
 * a signature comes back in memory GnuTLS allocates, released with
 * gnutls_free in every call, as an application does. verify imports
 * nothing per call: the public key is imported once (pub_new,
 * gnutls_pubkey_import_ecc_raw).
 *
 * ECDH: GnuTLS before 3.8.2 has no raw key agreement in its public API
 * (it does ECDH only inside TLS handshakes): gnutls_privkey_derive_secret
 * came with GnuTLS 3.8.2 (its NEWS and symbol version GNUTLS_3_8_2), so
 * ECDH P-256 is unsupported where that symbol does not resolve (Debian
 * bookworm's 3.7.9). Where it does, derive takes the peer's raw point in
 * every call - X and Y imported into a new gnutls_pubkey_t, the secret
 * derived, both released (guest_kx_gnutls_derive,
 * guest/backend-gnutls-kx.c); GnuTLS checks the point to be on the curve
 * and gives the product's X, 32 bytes.
 *
 * Prototypes restate gnutls/abstract.h and gnutls/gnutls.h of 3.7.9 and
 * <nettle/ecc.h>, <nettle/bignum.h> (see backend-nettle-ec.c). Constants
 * (gnutls/gnutls.h, 3.7.9): GNUTLS_ECC_CURVE_SECP256R1 = 2,
 * GNUTLS_SIGN_ECDSA_SHA256 = 14, GNUTLS_E_PK_SIG_VERIFY_FAILED = -89. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "ecdsa-der.h"

#define GT_ECC_CURVE_SECP256R1 2	/* <gnutls/gnutls.h> */
#define GT_SIGN_ECDSA_SHA256 14	/* <gnutls/gnutls.h> */
#define GT_E_PK_SIG_VERIFY_FAILED (-89)	/* <gnutls/gnutls.h> */

/* gnutls_datum_t */
struct gt_datum {
	unsigned char *data;
	unsigned int size;
};

/* GMP's mpz_t, Nettle's struct ecc_point and struct ecc_scalar */
struct nt_mpz {
	int alloc, size;
	void *d;
};
struct nt_point {
	const void *ecc;
	void *p;
};

typedef struct gnutls_privkey_st *gt_privkey;
typedef struct gnutls_pubkey_st *gt_pubkey;

static struct {
	int (*privkey_init)(gt_privkey *key);
	void (*privkey_deinit)(gt_privkey key);
	int (*privkey_import_ecc_raw)(gt_privkey key, int curve,
				      const struct gt_datum *x,
				      const struct gt_datum *y,
				      const struct gt_datum *k);
	int (*privkey_sign_data2)(gt_privkey signer, int algo,
				  unsigned int flags,
				  const struct gt_datum *data,
				  struct gt_datum *signature);
	int (*pubkey_init)(gt_pubkey *key);
	void (*pubkey_deinit)(gt_pubkey key);
	int (*pubkey_import_ecc_raw)(gt_pubkey key, int curve,
				     const struct gt_datum *x,
				     const struct gt_datum *y);
	int (*pubkey_verify_data2)(gt_pubkey pubkey, int algo,
				   unsigned int flags,
				   const struct gt_datum *data,
				   const struct gt_datum *signature);
	void (**free_fn)(void *ptr);	/* the variable gnutls_free */
	/* libhogweed's, through libgnutls */
	const void *(*get_curve)(void);
	void (*mpz_init)(struct nt_mpz *x);
	void (*mpz_clear)(struct nt_mpz *x);
	void (*mpz_set_256)(struct nt_mpz *x, size_t length,
			    const uint8_t *s);
	void (*mpz_get_256)(size_t length, uint8_t *s,
			    const struct nt_mpz *x);
	void (*point_init)(struct nt_point *p, const void *ecc);
	void (*point_clear)(struct nt_point *p);
	void (*point_get)(const struct nt_point *p, struct nt_mpz *x,
			  struct nt_mpz *y);
	void (*scalar_init)(struct nt_point *s, const void *ecc);
	void (*scalar_clear)(struct nt_point *s);
	int (*scalar_set)(struct nt_point *s, const struct nt_mpz *z);
	void (*mul_g)(struct nt_point *r, const struct nt_point *n);
	bool ecdsa;	/* every entry point above resolved */
	bool ecdh;	/* ... and gnutls_privkey_derive_secret (3.8.2) */
} pk;

/* A key: GnuTLS's private key object (key_new) or public key object
 * (pub_new), and the public point's bytes. */
struct gt_ec_key {
	gt_privkey priv;
	gt_pubkey pub;
	uint8_t point[GUEST_PK_P256_PUB_BYTES];
};

/* Resolve the entry points in HANDLE (libgnutls, loaded and initialised
 * by backend-gnutls.c, and through it libhogweed's); ECDSA is supported
 * when every one is there, ECDH when guest_kx_gnutls_load also finds
 * the key agreement (GnuTLS 3.8.2). */
void guest_ec_gnutls_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.privkey_init, "gnutls_privkey_init" },
		{ &pk.privkey_deinit, "gnutls_privkey_deinit" },
		{ &pk.privkey_import_ecc_raw, "gnutls_privkey_import_ecc_raw" },
		{ &pk.privkey_sign_data2, "gnutls_privkey_sign_data2" },
		{ &pk.pubkey_init, "gnutls_pubkey_init" },
		{ &pk.pubkey_deinit, "gnutls_pubkey_deinit" },
		{ &pk.pubkey_import_ecc_raw, "gnutls_pubkey_import_ecc_raw" },
		{ &pk.pubkey_verify_data2, "gnutls_pubkey_verify_data2" },
		{ &pk.free_fn, "gnutls_free" },
		{ &pk.get_curve, "nettle_get_secp_256r1" },
		{ &pk.mpz_init, "__gmpz_init" },
		{ &pk.mpz_clear, "__gmpz_clear" },
		{ &pk.mpz_set_256, "nettle_mpz_set_str_256_u" },
		{ &pk.mpz_get_256, "nettle_mpz_get_str_256" },
		{ &pk.point_init, "nettle_ecc_point_init" },
		{ &pk.point_clear, "nettle_ecc_point_clear" },
		{ &pk.point_get, "nettle_ecc_point_get" },
		{ &pk.scalar_init, "nettle_ecc_scalar_init" },
		{ &pk.scalar_clear, "nettle_ecc_scalar_clear" },
		{ &pk.scalar_set, "nettle_ecc_scalar_set" },
		{ &pk.mul_g, "nettle_ecc_point_mul_g" },
	};
	char why[128];

	pk.ecdsa = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]),
				   why, sizeof(why)) == 0 &&
		   *pk.free_fn != NULL && pk.get_curve() != NULL;
	pk.ecdh = pk.ecdsa && guest_kx_gnutls_load(handle);
}

/* struct guest_pk_ops: ECDSA P-256, and ECDH P-256 from GnuTLS 3.8.2
 * (see the top of the file). */
static bool gt_ec_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ECDSA_P256 ? pk.ecdsa :
	       algo == GUEST_PK_ECDH_P256 ? pk.ecdh : false;
}

/* Release KEY (struct gt_ec_key, with its GnuTLS objects); NULL is
 * ignored. */
static void gt_ec_free(void *key)
{
	struct gt_ec_key *k = key;

	if (!k)
		return;
	if (k->priv)
		pk.privkey_deinit(k->priv);
	if (k->pub)
		pk.pubkey_deinit(k->pub);
	free(k);
}

/* The public point of the 32-byte scalar D into POINT (65 bytes,
 * uncompressed), with Nettle's arithmetic. Returns 0, or -1 when D is
 * out of range (0, or n and above). */
static int public_point(const uint8_t *d, uint8_t *point)
{
	const void *curve = pk.get_curve();
	struct nt_point s, q;
	struct nt_mpz x, y;
	int rc = -1;

	pk.mpz_init(&x);
	pk.mpz_init(&y);
	pk.scalar_init(&s, curve);
	pk.point_init(&q, curve);
	pk.mpz_set_256(&x, GUEST_PK_KEY_BYTES, d);
	if (pk.scalar_set(&s, &x) == 1) {
		pk.mul_g(&q, &s);
		pk.point_get(&q, &x, &y);
		point[0] = 0x04;
		pk.mpz_get_256(32, point + 1, &x);
		pk.mpz_get_256(32, point + 33, &y);
		rc = 0;
	}
	pk.point_clear(&q);
	pk.scalar_clear(&s);
	pk.mpz_clear(&y);
	pk.mpz_clear(&x);
	return rc;
}

/* A P-256 private key of ALGO (ECDSA or ECDH: the same key) of the
 * 32-byte scalar PRIV, its public point computed (see the top of the
 * file) and imported with it. Returns it (caller owns: gt_ec_free) or
 * NULL when unsupported, out of memory or refused. */
static void *gt_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct gt_datum x, y, d = { (unsigned char *)priv, GUEST_PK_KEY_BYTES };
	struct gt_ec_key *k;

	if (!gt_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	x.data = k->point + 1;
	y.data = k->point + 33;
	x.size = y.size = 32;
	if (public_point(priv, k->point) != 0)
		goto fail;
	if (pk.privkey_init(&k->priv) != 0) {
		k->priv = NULL;
		goto fail;
	}
	if (pk.privkey_import_ecc_raw(k->priv, GT_ECC_CURVE_SECP256R1, &x, &y,
				      &d) != 0)
		goto fail;
	return k;
fail:
	gt_ec_free(k);
	return NULL;
}

/* An ECDSA P-256 public key of the 65-byte point PUB. Returns it
 * (caller owns: gt_ec_free) or NULL when unsupported, out of memory or
 * refused. */
static void *gt_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct gt_datum x, y;
	struct gt_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !gt_ec_supports(algo) ||
	    pub[0] != 0x04 || !(k = calloc(1, sizeof(*k))))
		return NULL;
	memcpy(k->point, pub, GUEST_PK_P256_PUB_BYTES);
	x.data = k->point + 1;
	y.data = k->point + 33;
	x.size = y.size = 32;
	if (pk.pubkey_init(&k->pub) != 0) {
		k->pub = NULL;
		goto fail;
	}
	if (pk.pubkey_import_ecc_raw(k->pub, GT_ECC_CURVE_SECP256R1, &x,
				     &y) != 0)
		goto fail;
	return k;
fail:
	gt_ec_free(k);
	return NULL;
}

/* The 65-byte public point of KEY into PUB; cannot fail (0). */
static int gt_ec_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct gt_ec_key *)key)->point, GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* ECDH: the shared secret (the product's X, 32 bytes) of private KEY and
 * the peer's raw 65-byte uncompressed point PEER into OUT, the point
 * imported in the call (see the top of the file). Returns 0, or -1 when
 * PEER is not uncompressed, KEY has no private key, or GnuTLS refused (a
 * point off the curve among others). */
static int gt_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	if (peer[0] != 0x04)
		return -1;
	return guest_kx_gnutls_derive(((struct gt_ec_key *)key)->priv,
				      GT_ECC_CURVE_SECP256R1, peer + 1,
				      peer + 33, 32, out, GUEST_PK_KEY_BYTES);
}

/* Sign the LEN bytes of MSG with private KEY into SIG (r || s). GnuTLS
 * allocates the DER signature; it is converted and freed here. Returns
 * 0, or -1 when GnuTLS failed or gave no P-256 signature. */
static int gt_ec_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct gt_ec_key *k = key;
	struct gt_datum d = { (unsigned char *)msg, (unsigned int)len };
	struct gt_datum s = { NULL, 0 };
	int rc;

	if (!k->priv || pk.privkey_sign_data2(k->priv, GT_SIGN_ECDSA_SHA256,
					      0, &d, &s) != 0)
		return -1;
	rc = s.data ? ecdsa_der_to_rs(s.data, s.size, sig) : -1;
	(*pk.free_fn)(s.data);
	return rc;
}

/* Check SIG (r || s) over the LEN bytes of MSG with public key PUB: 0
 * valid, 1 rejected (GNUTLS_E_PK_SIG_VERIFY_FAILED), -1 any other error
 * of GnuTLS. */
static int gt_ec_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	unsigned char der[ECDSA_P256_DER_MAX];
	struct gt_datum d = { (unsigned char *)msg, (unsigned int)len };
	struct gt_datum s = { der, (unsigned int)ecdsa_rs_to_der(sig, der) };
	int rc = pk.pubkey_verify_data2(((struct gt_ec_key *)pub)->pub,
					GT_SIGN_ECDSA_SHA256, 0, &d, &s);

	return rc == 0 ? 0 : rc == GT_E_PK_SIG_VERIFY_FAILED ? 1 : -1;
}

const struct guest_pk_ops guest_ec_gnutls = {
	.supports = gt_ec_supports,
	.key_new = gt_ec_key_new,
	.pub_new = gt_ec_pub_new,
	.key_free = gt_ec_free,
	.public_key = gt_ec_public,
	.derive = gt_ec_derive,
	.sign = gt_ec_sign,
	.verify = gt_ec_verify,
};
