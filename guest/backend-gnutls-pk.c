/* guest/backend-gnutls-pk.c - Ed25519, X25519 and X448 in GnuTLS through
 * its abstract key API (gnutls/abstract.h): gnutls_privkey_sign_data2 and
 * gnutls_pubkey_verify_data2 with GNUTLS_SIGN_EDDSA_ED25519 (GnuTLS 3.6
 * and later; Debian bookworm has 3.7.9), and for X25519 and X448
 * gnutls_privkey_derive_secret (GnuTLS 3.8.2 and later,
 * guest/backend-gnutls-kx.c).
 *
 * Import: GnuTLS's raw import of an Ed25519 private key
 * (gnutls_privkey_import_ecc_raw) needs the public key beside the seed,
 * and trusts it - a wrong one gives wrong signatures (checked on 3.7.9)
 * - while the import of the key as PKCS #8 (RFC 8410 7: the seed in an
 * OCTET STRING) computes it from the seed. So a key is imported as an
 * application reading a PKCS #8 key does: the fixed 16-byte DER prefix of RFC 8410
 * 10.3 and the 32-byte seed through gnutls_x509_privkey_import_pkcs8
 * (DER, unencrypted), the result made a gnutls_privkey_t that owns it
 * (gnutls_privkey_import_x509, GNUTLS_PRIVKEY_IMPORT_AUTO_RELEASE); the
 * public key is then read back with gnutls_privkey_export_ecc_raw2. The
 * import's time includes GnuTLS's decoding of those 48 bytes, small
 * beside the scalar multiplication (on 3.7.9 the whole import takes
 * about what Nettle's ed25519_sha512_public_key does).
 * gnutls_privkey_import_x509_raw would do the same in one call, but it
 * auto-detects the key's format (as gnutls_x509_privkey_import2 does)
 * and took three times as long on 3.7.9: the cost of guessing a format,
 * not of setting up a key.
 *
 * sign and verify take the message as a gnutls_datum_t; a signature
 * comes back in memory GnuTLS allocates (gnutls_malloc), released with
 * gnutls_free in every call, as an application does. verify imports
 * nothing per call: the public key is imported once (pub_new,
 * gnutls_pubkey_import_ecc_raw with the 32 bytes as x).
 *
 * X25519 and X448: GnuTLS 3.7's public API has no raw key agreement (it
 * does them only inside TLS handshakes): both are unsupported where
 * gnutls_privkey_derive_secret (3.8.2) does not resolve. Where it does,
 * a key is imported as Ed25519's is, as PKCS #8 (RFC 8410 7, the scalar
 * in an OCTET STRING; the prefixes of RFC 8410 10.3's example with the
 * OIDs of RFC 8410 3, id-X25519 1.3.101.110 and id-X448 1.3.101.111,
 * and X448's lengths for its 56 bytes): GnuTLS's raw import of an X25519
 * or X448 private key stores the scalar alone and computes no public key
 * (gnutls_x509_privkey_import_ecc_raw, 3.8.9), while the PKCS #8 import
 * computes it (its fixup: Nettle's curve25519_mul_g, curve448_mul_g),
 * which is read back with gnutls_privkey_export_ecc_raw2. So the import's
 * time is the scalar multiplication by the base point and the decoding
 * of 48 (X448: 72) bytes, what every other library's import does. A
 * derive takes the peer's raw u-coordinate in every call
 * (guest_kx_gnutls_derive, guest/backend-gnutls-kx.c).
 *
 * Prototypes restate gnutls/abstract.h and gnutls/gnutls.h of 3.7.9;
 * gnutls_privkey_t and gnutls_pubkey_t are opaque pointers. Constants,
 * from gnutls/gnutls.h (3.7.9, unchanged in 3.8.9): gnutls_ecc_curve_t
 * GNUTLS_ECC_CURVE_X25519 = 6, GNUTLS_ECC_CURVE_ED25519 = 7,
 * GNUTLS_ECC_CURVE_X448 = 20 (INVALID 0, SECP224R1 .. SECP192R1 1 .. 5,
 * X25519 6, ED25519 7, GOST256CPA .. GOST256D 8 .. 19, X448 20),
 * gnutls_sign_algorithm_t GNUTLS_SIGN_EDDSA_ED25519 = 35,
 * gnutls_x509_crt_fmt_t GNUTLS_X509_FMT_DER = 0, gnutls_pkcs_encrypt_flags_t
 * GNUTLS_PKCS_PLAIN = 1 (gnutls/x509.h), gnutls_privkey_flags_t
 * GNUTLS_PRIVKEY_IMPORT_AUTO_RELEASE = 1 (gnutls/abstract.h), the error code
 * GNUTLS_E_PK_SIG_VERIFY_FAILED = -89. gnutls_free is not a function but
 * an exported variable holding one (extern gnutls_free_function
 * gnutls_free). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define GT_ECC_CURVE_X25519 6	/* <gnutls/gnutls.h> */
#define GT_ECC_CURVE_ED25519 7	/* <gnutls/gnutls.h> */
#define GT_ECC_CURVE_X448 20	/* <gnutls/gnutls.h> */
#define GT_SIGN_EDDSA_ED25519 35	/* <gnutls/gnutls.h> */
#define GT_X509_FMT_DER 0	/* <gnutls/gnutls.h> */
#define GT_PKCS_PLAIN 1	/* <gnutls/x509.h> */
#define GT_PRIVKEY_IMPORT_AUTO_RELEASE 1	/* <gnutls/abstract.h> */
#define GT_E_PK_SIG_VERIFY_FAILED (-89)	/* <gnutls/gnutls.h> */

/* gnutls_datum_t */
struct gt_datum {
	unsigned char *data;
	unsigned int size;
};

typedef struct gnutls_privkey_st *gt_privkey;
typedef struct gnutls_pubkey_st *gt_pubkey;
typedef struct gnutls_x509_privkey_int *gt_x509_privkey;

static struct {
	int (*privkey_init)(gt_privkey *key);
	void (*privkey_deinit)(gt_privkey key);
	int (*x509_privkey_init)(gt_x509_privkey *key);
	void (*x509_privkey_deinit)(gt_x509_privkey key);
	int (*x509_privkey_import_pkcs8)(gt_x509_privkey key,
					 const struct gt_datum *data,
					 int format, const char *password,
					 unsigned int flags);
	int (*privkey_import_x509)(gt_privkey pkey, gt_x509_privkey key,
				   unsigned int flags);
	int (*privkey_export_ecc_raw2)(gt_privkey key, int *curve,
				       struct gt_datum *x, struct gt_datum *y,
				       struct gt_datum *k, unsigned flags);
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
	bool import;	/* the PKCS #8 import resolved */
	bool ed25519;	/* ... and signing and verification */
	bool kx;	/* ... and gnutls_privkey_derive_secret (3.8.2) */
} pk;

/* The PKCS #8 form of each algorithm's private key (RFC 8410 7 and its
 * 10.3 example): the DER of a OneAsymmetricKey up to its private key
 * (SEQUENCE, version 0, AlgorithmIdentifier with the OID of RFC 8410 3,
 * OCTET STRING of an OCTET STRING of BYTES), BYTES the key's length, and
 * the gnutls_ecc_curve_t GnuTLS reports for the key. */
static const struct gt_form {
	enum guest_pk_algo algo;
	int curve;
	size_t bytes;
	unsigned char prefix[16];
} forms[] = {
	{ GUEST_PK_X25519, GT_ECC_CURVE_X25519, GUEST_PK_KEY_BYTES,
	  { 0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,	/* id-X25519 */
	    0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20 } },
	{ GUEST_PK_X448, GT_ECC_CURVE_X448, GUEST_PK_X448_BYTES,
	  { 0x30, 0x46, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,	/* id-X448 */
	    0x03, 0x2b, 0x65, 0x6f, 0x04, 0x3a, 0x04, 0x38 } },
	{ GUEST_PK_ED25519, GT_ECC_CURVE_ED25519, GUEST_PK_KEY_BYTES,
	  { 0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06,	/* id-Ed25519 */
	    0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20 } },
};

/* A key: its algorithm's form, GnuTLS's private key object (key_new) or
 * public key object (pub_new, Ed25519 only), and the public key's bytes
 * (32, X448 56). */
struct gt_key {
	const struct gt_form *form;
	gt_privkey priv;
	gt_pubkey pub;
	uint8_t pubkey[GUEST_PK_X448_BYTES];
};

/* Resolve the entry points in HANDLE (libgnutls, loaded and initialised
 * by backend-gnutls.c): Ed25519 is supported when the import's and the
 * signature's are all there, X25519 and X448 when the import's are and
 * guest_kx_gnutls_load finds the key agreement (GnuTLS 3.8.2). */
void guest_pk_gnutls_load(void *handle)
{
	const struct backend_symbol imp[] = {
		{ &pk.privkey_init, "gnutls_privkey_init" },
		{ &pk.privkey_deinit, "gnutls_privkey_deinit" },
		{ &pk.x509_privkey_init, "gnutls_x509_privkey_init" },
		{ &pk.x509_privkey_deinit, "gnutls_x509_privkey_deinit" },
		{ &pk.x509_privkey_import_pkcs8,
		  "gnutls_x509_privkey_import_pkcs8" },
		{ &pk.privkey_import_x509, "gnutls_privkey_import_x509" },
		{ &pk.privkey_export_ecc_raw2, "gnutls_privkey_export_ecc_raw2" },
		{ &pk.free_fn, "gnutls_free" },
	};
	const struct backend_symbol ed[] = {
		{ &pk.privkey_sign_data2, "gnutls_privkey_sign_data2" },
		{ &pk.pubkey_init, "gnutls_pubkey_init" },
		{ &pk.pubkey_deinit, "gnutls_pubkey_deinit" },
		{ &pk.pubkey_import_ecc_raw, "gnutls_pubkey_import_ecc_raw" },
		{ &pk.pubkey_verify_data2, "gnutls_pubkey_verify_data2" },
	};
	char why[128];

	pk.import = backend_require(handle, imp, sizeof(imp) / sizeof(imp[0]),
				    why, sizeof(why)) == 0 &&
		    *pk.free_fn != NULL;
	pk.ed25519 = pk.import &&
		     backend_require(handle, ed, sizeof(ed) / sizeof(ed[0]),
				     why, sizeof(why)) == 0;
	pk.kx = pk.import && guest_kx_gnutls_load(handle);
}

/* struct guest_pk_ops: Ed25519, and X25519 and X448 from GnuTLS 3.8.2
 * (see the top of the file). */
static bool gt_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ED25519 ? pk.ed25519 :
	       algo == GUEST_PK_X25519 || algo == GUEST_PK_X448 ? pk.kx : false;
}

/* The PKCS #8 form of ALGO (forms[]), or NULL when it has none. */
static const struct gt_form *form_of(enum guest_pk_algo algo)
{
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (forms[i].algo == algo)
			return &forms[i];
	return NULL;
}

/* Release KEY (struct gt_key, with its GnuTLS objects); NULL is
 * ignored. */
static void gt_pk_free(void *key)
{
	struct gt_key *k = key;

	if (!k)
		return;
	if (k->priv)
		pk.privkey_deinit(k->priv);
	if (k->pub)
		pk.pubkey_deinit(k->pub);
	free(k);
}

/* A private key of ALGO of PRIV (the Ed25519 seed or the X25519
 * scalar, 32 bytes; the X448 scalar, 56), imported as PKCS #8 (see the
 * top of the file), its public key read back. Returns it (caller owns:
 * gt_pk_free) or NULL when unsupported, out of memory or refused by
 * GnuTLS. */
static void *gt_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	const struct gt_form *f = form_of(algo);
	unsigned char der[sizeof(f->prefix) + GUEST_PK_X448_BYTES];
	struct gt_datum d, x = { NULL, 0 };
	gt_x509_privkey xk = NULL;
	struct gt_key *k;
	int curve = 0;

	if (!f || !gt_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->form = f;
	memcpy(der, f->prefix, sizeof(f->prefix));
	memcpy(der + sizeof(f->prefix), priv, f->bytes);
	d.data = der;
	d.size = (unsigned int)(sizeof(f->prefix) + f->bytes);
	if (pk.privkey_init(&k->priv) != 0) {
		k->priv = NULL;
		goto fail;
	}
	if (pk.x509_privkey_init(&xk) != 0) {
		xk = NULL;
		goto fail;
	}
	if (pk.x509_privkey_import_pkcs8(xk, &d, GT_X509_FMT_DER, NULL,
					 GT_PKCS_PLAIN) != 0 ||
	    pk.privkey_import_x509(k->priv, xk,
				   GT_PRIVKEY_IMPORT_AUTO_RELEASE) != 0)
		goto fail;
	xk = NULL;	/* k->priv owns it now */
	if (pk.privkey_export_ecc_raw2(k->priv, &curve, &x, NULL, NULL,
				       0) != 0)
		goto fail;
	if (curve != f->curve || !x.data || x.size != f->bytes) {
		(*pk.free_fn)(x.data);
		goto fail;
	}
	memcpy(k->pubkey, x.data, f->bytes);
	(*pk.free_fn)(x.data);
	return k;
fail:
	if (xk)
		pk.x509_privkey_deinit(xk);
	gt_pk_free(k);
	return NULL;
}

/* An Ed25519 public key of the 32 bytes of PUB (key agreement has none:
 * the peer's key is taken raw by derive). Returns it (caller owns:
 * gt_pk_free) or NULL when unsupported, out of memory or refused. */
static void *gt_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct gt_datum x;
	struct gt_key *k;

	if (algo != GUEST_PK_ED25519 || !gt_pk_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->form = form_of(algo);
	memcpy(k->pubkey, pub, GUEST_PK_KEY_BYTES);
	x.data = k->pubkey;
	x.size = GUEST_PK_KEY_BYTES;
	if (pk.pubkey_init(&k->pub) != 0) {
		k->pub = NULL;
		goto fail;
	}
	if (pk.pubkey_import_ecc_raw(k->pub, GT_ECC_CURVE_ED25519, &x,
				     NULL) != 0)
		goto fail;
	return k;
fail:
	gt_pk_free(k);
	return NULL;
}

/* The public key of KEY (32 bytes, X448 56) into PUB; cannot fail (0). */
static int gt_pk_public(void *key, uint8_t *pub)
{
	struct gt_key *k = key;

	memcpy(pub, k->pubkey, k->form->bytes);
	return 0;
}

/* X25519, X448: the shared secret of private KEY and the peer's raw
 * u-coordinate PEER (32 bytes, X448 56) into OUT (as many bytes), the
 * peer's key imported in the call (guest_kx_gnutls_derive). Returns 0,
 * or -1 when KEY is not a key agreement's private key or GnuTLS refused
 * (an all-zero secret among others). */
static int gt_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct gt_key *k = key;

	if (k->form->algo == GUEST_PK_ED25519)
		return -1;
	return guest_kx_gnutls_derive(k->priv, k->form->curve, peer, NULL,
				      k->form->bytes, out, k->form->bytes);
}

/* Sign the LEN bytes of MSG with private KEY into SIG (64 bytes).
 * GnuTLS allocates the signature; it is copied and freed here. Returns
 * 0, or -1 when GnuTLS failed or gave other than 64 bytes. */
static int gt_pk_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct gt_datum d = { (unsigned char *)msg, (unsigned int)len };
	struct gt_datum s = { NULL, 0 };
	int rc = -1;

	if (pk.privkey_sign_data2(((struct gt_key *)key)->priv,
				  GT_SIGN_EDDSA_ED25519, 0, &d, &s) != 0)
		return -1;
	if (s.data && s.size == GUEST_PK_SIG_BYTES) {
		memcpy(sig, s.data, GUEST_PK_SIG_BYTES);
		rc = 0;
	}
	(*pk.free_fn)(s.data);
	return rc;
}

/* Check the 64-byte SIG over the LEN bytes of MSG with public key PUB:
 * 0 valid, 1 rejected (GNUTLS_E_PK_SIG_VERIFY_FAILED), -1 any other
 * error of GnuTLS. */
static int gt_pk_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct gt_datum d = { (unsigned char *)msg, (unsigned int)len };
	struct gt_datum s = { (unsigned char *)sig, GUEST_PK_SIG_BYTES };
	int rc = pk.pubkey_verify_data2(((struct gt_key *)pub)->pub,
					GT_SIGN_EDDSA_ED25519, 0, &d, &s);

	return rc == 0 ? 0 : rc == GT_E_PK_SIG_VERIFY_FAILED ? 1 : -1;
}

const struct guest_pk_ops guest_pk_gnutls = {
	.supports = gt_pk_supports,
	.key_new = gt_pk_key_new,
	.pub_new = gt_pk_pub_new,
	.key_free = gt_pk_free,
	.public_key = gt_pk_public,
	.derive = gt_pk_derive,
	.sign = gt_pk_sign,
	.verify = gt_pk_verify,
};
