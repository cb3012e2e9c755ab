/* guest/backend-gnutls-kx.c - GnuTLS's raw key agreement, shared by
 * X25519 and X448 (guest/backend-gnutls-pk.c) and ECDH on P-256
 * (guest/backend-gnutls-ec.c): gnutls_privkey_derive_secret
 * (gnutls/abstract.h), added in GnuTLS 3.8.2 (its NEWS: "Add API
 * functions to perform ECDH and DH key agreement"; symbol version
 * GNUTLS_3_8_2). Before 3.8.2 GnuTLS did these agreements only inside
 * TLS handshakes: where the symbol does not resolve (Debian bookworm's
 * 3.7.9) all three stay unsupported; trixie's 3.8.9 has it.
 *
 * A derive does per call what an application does with a new peer's raw
 * public key (guest/PROTOCOL.md, "Public key": the peer's key is taken
 * raw in every call, as OpenSSL's backend makes an EVP_PKEY of it): a
 * gnutls_pubkey_t made (gnutls_pubkey_init), the raw key imported
 * (gnutls_pubkey_import_ecc_raw: X25519's and X448's u-coordinate as x,
 * P-256's X and Y), the secret computed (gnutls_privkey_derive_secret,
 * no nonce, flags 0) into memory GnuTLS allocates, copied out and
 * released with gnutls_free, and the public key released
 * (gnutls_pubkey_deinit). GnuTLS's derive (3.8.9, lib/nettle/pk.c) checks
 * a P-256 point to be on the curve (Nettle's ecc_point_set) and gives
 * its product's X coordinate, 32 bytes; X25519 and X448 are Nettle's
 * curve25519_mul and curve448_mul, an all-zero secret refused.
 *
 * The private key must be an X.509-backed gnutls_privkey_t (as
 * gnutls_privkey_import_ecc_raw and gnutls_privkey_import_x509 make)
 * whose algorithm is the public key's: P-256's GNUTLS_PK_EC (=
 * GNUTLS_PK_ECDSA), GNUTLS_PK_ECDH_X25519 or GNUTLS_PK_ECDH_X448.
 *
 * Prototypes restate gnutls/abstract.h of 3.8.9 (derive_secret) and of
 * 3.7.9 (the others, unchanged in 3.8); gnutls_pubkey_t and
 * gnutls_privkey_t are opaque pointers, gnutls_free an exported variable
 * holding a function (extern gnutls_free_function gnutls_free). */
#include "compat.h"

#include <string.h>

#include "backend-pk.h"

/* gnutls_datum_t */
struct gt_datum {
	unsigned char *data;
	unsigned int size;
};

typedef struct gnutls_pubkey_st *gt_pubkey;

static struct {
	int (*derive_secret)(struct gnutls_privkey_st *privkey,
			     gt_pubkey pubkey, const struct gt_datum *nonce,
			     struct gt_datum *secret, unsigned int flags);
	int (*pubkey_init)(gt_pubkey *key);
	void (*pubkey_deinit)(gt_pubkey key);
	int (*pubkey_import_ecc_raw)(gt_pubkey key, int curve,
				     const struct gt_datum *x,
				     const struct gt_datum *y);
	void (**free_fn)(void *ptr);	/* the variable gnutls_free */
	bool ok;
} kx;

/* Resolve gnutls_privkey_derive_secret and the calls a derive makes in
 * HANDLE (libgnutls, loaded by backend-gnutls.c); may be called more
 * than once (each caller's load). Returns true when every one is there
 * (GnuTLS 3.8.2 and later), false otherwise (key agreement
 * unsupported). */
bool guest_kx_gnutls_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &kx.derive_secret, "gnutls_privkey_derive_secret" },
		{ &kx.pubkey_init, "gnutls_pubkey_init" },
		{ &kx.pubkey_deinit, "gnutls_pubkey_deinit" },
		{ &kx.pubkey_import_ecc_raw, "gnutls_pubkey_import_ecc_raw" },
		{ &kx.free_fn, "gnutls_free" },
	};
	char why[128];

	kx.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0 &&
		*kx.free_fn != NULL;
	return kx.ok;
}

/* The shared secret of private key PRIV (X.509-backed, see the top of
 * the file) and the peer's raw public key on gnutls_ecc_curve_t CURVE:
 * X (COORD_BYTES bytes) and, for a Weierstrass curve, Y (COORD_BYTES;
 * NULL for X25519 and X448), written to OUT (SECRET_BYTES bytes: 32
 * for X25519 and P-256, 56 for X448). Nothing of GnuTLS's outlives the
 * call. Returns 0, or -1 when key agreement is unsupported, GnuTLS
 * refused the peer's key or the derivation (a P-256 point off the
 * curve, an all-zero X25519 secret, out of memory), or gave a secret of
 * another size. */
int guest_kx_gnutls_derive(struct gnutls_privkey_st *priv, int curve,
			   const uint8_t *x, const uint8_t *y,
			   size_t coord_bytes, uint8_t *out,
			   size_t secret_bytes)
{
	struct gt_datum dx = { (unsigned char *)x, (unsigned int)coord_bytes };
	struct gt_datum dy = { (unsigned char *)y, (unsigned int)coord_bytes };
	struct gt_datum s = { NULL, 0 };
	gt_pubkey pub = NULL;
	int rc = -1;

	if (!kx.ok || !priv || kx.pubkey_init(&pub) != 0)
		return -1;
	if (kx.pubkey_import_ecc_raw(pub, curve, &dx, y ? &dy : NULL) == 0 &&
	    kx.derive_secret(priv, pub, NULL, &s, 0) == 0 && s.data &&
	    s.size == secret_bytes) {
		memcpy(out, s.data, secret_bytes);
		rc = 0;
	}
	if (s.data)
		(*kx.free_fn)(s.data);
	kx.pubkey_deinit(pub);
	return rc;
}
