/* guest/backend-openssl-ec.c - ECDH and ECDSA on P-256 in OpenSSL's
 * libcrypto through EVP_PKEY (1.1.1 and 3.x).
 *
 * What each operation costs (guest/PROTOCOL.md, "Public key"):
 *  - import: d2i_PrivateKey of the SEC 1 ECPrivateKey (RFC 5915) with
 *    the 32-byte scalar and the curve's OID and without the public
 *    point, which OpenSSL computes from the scalar, as it does loading a
 *    key file; for ECDSA also the EVP_MD_CTX initialised for signing with
 *    SHA-256 (EVP_DigestSignInit), once;
 *  - derive: a new peer as libssl takes one in a handshake: EVP_PKEY_new,
 *    EVP_PKEY_copy_parameters from the own key, the peer's raw point set
 *    (EVP_PKEY_set1_encoded_public_key, 3.x; EVP_PKEY_set1_tls_encodedpoint,
 *    1.1.1), then EVP_PKEY_CTX_new, _derive_init, _derive_set_peer,
 *    _derive, and both freed - as the X25519 backend does;
 *  - sign, verify: the context of the import copied (EVP_MD_CTX_copy_ex:
 *    EVP_DigestSign hashes into its context, so a context signs one
 *    message), then one EVP_DigestSign / EVP_DigestVerify; the DER
 *    signature converted from and to r || s (guest/ecdsa-der.h).
 *    OpenSSL's nonces are random (3.0: no RFC 6979).
 * The public key is read back with i2d_PUBKEY (SubjectPublicKeyInfo: its
 * last 65 bytes are the uncompressed point). Prototypes restated from
 * <openssl/evp.h> and <openssl/x509.h> (stable ABI, opaque types). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "ecdsa-der.h"

typedef struct ossl_pkey EVP_PKEY;
typedef struct ossl_pkey_ctx EVP_PKEY_CTX;
typedef struct ossl_md_ctx EVP_MD_CTX;
typedef struct ossl_md EVP_MD;
typedef struct ossl_engine ENGINE;

/* EVP_PKEY_EC (NID_X9_62_id_ecPublicKey, <openssl/obj_mac.h>). */
#define OSSL_PKEY_EC 408	/* <openssl/evp.h> */

/* SEC 1 C.4 / RFC 5915 3: ECPrivateKey { version 1, privateKey OCTET
 * STRING (32), [0] parameters namedCurve prime256v1 (1.2.840.10045.3.1.7)
 * }: the DER before the scalar and after it. */
static const unsigned char sec1_head[7] = {
	0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20
};
static const unsigned char sec1_tail[12] = {
	0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07
};

/* RFC 5480 2: the DER of a P-256 SubjectPublicKeyInfo before its
 * 65-byte point (id-ecPublicKey, prime256v1, BIT STRING of 66). */
static const unsigned char spki_head[26] = {
	0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
	0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
	0x07, 0x03, 0x42, 0x00
};
#define SPKI_BYTES (sizeof(spki_head) + GUEST_PK_P256_PUB_BYTES)

typedef int sigver_init_fn(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx,
			   const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);

static struct {
	EVP_PKEY *(*d2i_private)(int type, EVP_PKEY **a,
				 const unsigned char **pp, long length);
	EVP_PKEY *(*d2i_pubkey)(EVP_PKEY **a, const unsigned char **pp,
				long length);
	int (*i2d_pubkey)(EVP_PKEY *a, unsigned char **pp);
	EVP_PKEY *(*pkey_new)(void);
	void (*pkey_free)(EVP_PKEY *pkey);
	int (*copy_parameters)(EVP_PKEY *to, const EVP_PKEY *from);
	/* EVP_PKEY_set1_encoded_public_key (3.x) or
	 * EVP_PKEY_set1_tls_encodedpoint (1.1.1) */
	int (*set1_point)(EVP_PKEY *pkey, const unsigned char *pt,
			  size_t ptlen);
	EVP_PKEY_CTX *(*ctx_new)(EVP_PKEY *pkey, ENGINE *e);
	void (*ctx_free)(EVP_PKEY_CTX *ctx);
	int (*derive_init)(EVP_PKEY_CTX *ctx);
	int (*derive_set_peer)(EVP_PKEY_CTX *ctx, EVP_PKEY *peer);
	int (*derive)(EVP_PKEY_CTX *ctx, unsigned char *key, size_t *len);
	const EVP_MD *(*sha256)(void);
	EVP_MD_CTX *(*md_new)(void);
	void (*md_free)(EVP_MD_CTX *ctx);
	int (*md_copy)(EVP_MD_CTX *out, const EVP_MD_CTX *in);
	sigver_init_fn *sign_init, *verify_init;
	int (*sign)(EVP_MD_CTX *ctx, unsigned char *sig, size_t *siglen,
		    const unsigned char *tbs, size_t tbslen);
	int (*verify)(EVP_MD_CTX *ctx, const unsigned char *sig,
		      size_t siglen, const unsigned char *tbs, size_t tbslen);
	bool ecdh, ecdsa;
} pk;

/* A key: the EVP_PKEY and, for ECDSA, the context initialised for
 * signing (private) or verifying (public) and the one each operation
 * works on, a copy of it. */
struct ossl_ec_key {
	enum guest_pk_algo algo;
	EVP_PKEY *pkey;
	EVP_MD_CTX *md, *work;
};

/* Resolve the entry points in HANDLE (libcrypto, loaded by
 * backend-openssl.c); an algorithm whose entry points are not all there
 * stays unsupported. */
void guest_ec_openssl_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.d2i_private, "d2i_PrivateKey" },
		{ &pk.d2i_pubkey, "d2i_PUBKEY" },
		{ &pk.i2d_pubkey, "i2d_PUBKEY" },
		{ &pk.pkey_free, "EVP_PKEY_free" },
	};
	const struct backend_symbol dh[] = {
		{ &pk.pkey_new, "EVP_PKEY_new" },
		{ &pk.copy_parameters, "EVP_PKEY_copy_parameters" },
		{ &pk.ctx_new, "EVP_PKEY_CTX_new" },
		{ &pk.ctx_free, "EVP_PKEY_CTX_free" },
		{ &pk.derive_init, "EVP_PKEY_derive_init" },
		{ &pk.derive_set_peer, "EVP_PKEY_derive_set_peer" },
		{ &pk.derive, "EVP_PKEY_derive" },
	};
	const struct backend_symbol sig[] = {
		{ &pk.sha256, "EVP_sha256" },
		{ &pk.md_new, "EVP_MD_CTX_new" },
		{ &pk.md_free, "EVP_MD_CTX_free" },
		{ &pk.md_copy, "EVP_MD_CTX_copy_ex" },
		{ &pk.sign_init, "EVP_DigestSignInit" },
		{ &pk.verify_init, "EVP_DigestVerifyInit" },
		{ &pk.sign, "EVP_DigestSign" },
		{ &pk.verify, "EVP_DigestVerify" },
	};
	char why[128];

	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) < 0)
		return;
	if (backend_sym(handle, &pk.set1_point,
			"EVP_PKEY_set1_encoded_public_key") != 0 &&
	    backend_sym(handle, &pk.set1_point,
			"EVP_PKEY_set1_tls_encodedpoint") != 0)
		pk.set1_point = NULL;
	pk.ecdh = pk.set1_point &&
		  backend_require(handle, dh, sizeof(dh) / sizeof(dh[0]), why,
				  sizeof(why)) == 0;
	pk.ecdsa = backend_require(handle, sig, sizeof(sig) / sizeof(sig[0]),
				   why, sizeof(why)) == 0;
}

/* struct guest_pk_ops: ECDH and ECDSA on P-256, where resolved. */
static bool ossl_ec_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ECDH_P256 ? pk.ecdh :
	       algo == GUEST_PK_ECDSA_P256 ? pk.ecdsa : false;
}

/* Release KEY (struct ossl_ec_key and its OpenSSL objects); NULL is
 * ignored. */
static void ossl_ec_free(void *key)
{
	struct ossl_ec_key *k = key;

	if (!k)
		return;
	if (k->work)
		pk.md_free(k->work);
	if (k->md)
		pk.md_free(k->md);
	if (k->pkey)
		pk.pkey_free(k->pkey);
	free(k);
}

/* For ECDSA: K's contexts, initialised to sign (PRIV) or verify with
 * SHA-256. Returns 0, or -1 when OpenSSL refused. */
static int sig_contexts(struct ossl_ec_key *k, bool priv)
{
	if (k->algo != GUEST_PK_ECDSA_P256)
		return 0;
	return (k->md = pk.md_new()) && (k->work = pk.md_new()) &&
	       (priv ? pk.sign_init : pk.verify_init)(k->md, NULL, pk.sha256(),
						      NULL, k->pkey) == 1 ? 0 : -1;
}

/* A P-256 private key of ALGO of the 32-byte big-endian scalar PRIV, its
 * public point computed by OpenSSL. Returns it (caller owns:
 * ossl_ec_free) or NULL when unsupported, out of memory or refused. */
static void *ossl_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	unsigned char der[sizeof(sec1_head) + GUEST_PK_KEY_BYTES +
			  sizeof(sec1_tail)];
	const unsigned char *p = der;
	struct ossl_ec_key *k;

	if (!ossl_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(der, sec1_head, sizeof(sec1_head));
	memcpy(der + sizeof(sec1_head), priv, GUEST_PK_KEY_BYTES);
	memcpy(der + sizeof(sec1_head) + GUEST_PK_KEY_BYTES, sec1_tail,
	       sizeof(sec1_tail));
	if (!(k->pkey = pk.d2i_private(OSSL_PKEY_EC, NULL, &p,
				       (long)sizeof(der))) ||
	    sig_contexts(k, true) != 0) {
		ossl_ec_free(k);
		return NULL;
	}
	return k;
}

/* An ECDSA P-256 public key of the 65-byte uncompressed point PUB (as a
 * SubjectPublicKeyInfo). Returns it (caller owns: ossl_ec_free) or NULL
 * when unsupported, out of memory or refused. */
static void *ossl_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	unsigned char der[SPKI_BYTES];
	const unsigned char *p = der;
	struct ossl_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !ossl_ec_supports(algo) ||
	    !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	memcpy(der, spki_head, sizeof(spki_head));
	memcpy(der + sizeof(spki_head), pub, GUEST_PK_P256_PUB_BYTES);
	if (!(k->pkey = pk.d2i_pubkey(NULL, &p, (long)sizeof(der))) ||
	    sig_contexts(k, false) != 0) {
		ossl_ec_free(k);
		return NULL;
	}
	return k;
}

/* The 65-byte uncompressed public point of KEY into PUB, from its
 * SubjectPublicKeyInfo. Returns 0, or -1 when OpenSSL gave another. */
static int ossl_ec_public(void *key, uint8_t *pub)
{
	struct ossl_ec_key *k = key;
	unsigned char der[SPKI_BYTES + 16], *p = der;

	if (pk.i2d_pubkey(k->pkey, NULL) != (int)SPKI_BYTES ||
	    pk.i2d_pubkey(k->pkey, &p) != (int)SPKI_BYTES ||
	    memcmp(der, spki_head, sizeof(spki_head)) != 0)
		return -1;
	memcpy(pub, der + sizeof(spki_head), GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* ECDH of KEY and the peer's 65-byte point PEER into OUT (the 32-byte
 * X coordinate). Returns 0, or -1 when OpenSSL refused (a point off the
 * curve among others). */
static int ossl_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct ossl_ec_key *k = key;
	EVP_PKEY *p = pk.pkey_new();
	EVP_PKEY_CTX *ctx = NULL;
	size_t len = GUEST_PK_KEY_BYTES;
	int rc = -1;

	if (p && pk.copy_parameters(p, k->pkey) == 1 &&
	    pk.set1_point(p, peer, GUEST_PK_P256_PUB_BYTES) == 1 &&
	    (ctx = pk.ctx_new(k->pkey, NULL)) && pk.derive_init(ctx) == 1 &&
	    pk.derive_set_peer(ctx, p) == 1 &&
	    pk.derive(ctx, out, &len) == 1 && len == GUEST_PK_KEY_BYTES)
		rc = 0;
	if (ctx)
		pk.ctx_free(ctx);
	if (p)
		pk.pkey_free(p);
	return rc;
}

/* ECDSA: sign the LEN bytes of MSG with KEY into SIG (r || s). Returns
 * 0, or -1 when OpenSSL failed or gave a signature that is not DER. */
static int ossl_ec_sign(void *key, const uint8_t *msg, size_t len,
			uint8_t *sig)
{
	struct ossl_ec_key *k = key;
	unsigned char der[ECDSA_P256_DER_MAX];
	size_t n = sizeof(der);

	return pk.md_copy(k->work, k->md) == 1 &&
	       pk.sign(k->work, der, &n, msg, len) == 1 &&
	       ecdsa_der_to_rs(der, n, sig) == 0 ? 0 : -1;
}

/* ECDSA: check SIG (r || s) over the LEN bytes of MSG with public key
 * PUB. EVP_DigestVerify gives 1 valid, 0 invalid, below 0 an error
 * (which a malformed signature can also give): anything but 1 is a
 * rejection (1); -1 when the context could not be copied. */
static int ossl_ec_verify(void *pub, const uint8_t *msg, size_t len,
			  const uint8_t *sig)
{
	struct ossl_ec_key *k = pub;
	unsigned char der[ECDSA_P256_DER_MAX];
	size_t n = ecdsa_rs_to_der(sig, der);

	if (pk.md_copy(k->work, k->md) != 1)
		return -1;
	return pk.verify(k->work, der, n, msg, len) == 1 ? 0 : 1;
}

const struct guest_pk_ops guest_ec_openssl = {
	.supports = ossl_ec_supports,
	.key_new = ossl_ec_key_new,
	.pub_new = ossl_ec_pub_new,
	.key_free = ossl_ec_free,
	.public_key = ossl_ec_public,
	.derive = ossl_ec_derive,
	.sign = ossl_ec_sign,
	.verify = ossl_ec_verify,
};
