/* guest/backend-openssl-pk.c - X25519, X448 and Ed25519 in OpenSSL's
 * libcrypto through EVP_PKEY (1.1.1 and 3.x; 1.1.0 and older lack the
 * raw-key functions, and the algorithms are then unsupported). X448 is
 * X25519 with another key type (EVP_PKEY_X448) and 56-byte values.
 *
 * What each operation costs (guest/PROTOCOL.md, "Public key"):
 *  - import: EVP_PKEY_new_raw_private_key (Ed25519 derives the public key
 *    there), and for Ed25519 the EVP_MD_CTX initialised for signing
 *    (EVP_DigestSignInit), as `openssl speed ed25519` sets it up once;
 *  - derive: a new peer: EVP_PKEY_new_raw_public_key of the peer's raw
 *    key, EVP_PKEY_CTX_new, EVP_PKEY_derive_init, _set_peer, _derive,
 *    and both freed - what an application does per key exchange;
 *  - sign, verify: one EVP_DigestSign / EVP_DigestVerify on the context
 *    initialised at import, as `openssl speed` loops (where OpenSSL
 *    takes it, 3.x, the context initialised again first with its key
 *    kept, as `openssl speed` of 3.5 does: struct ossl_key).
 * Prototypes restated from <openssl/evp.h> (stable ABI, opaque types). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

typedef struct ossl_pkey EVP_PKEY;
typedef struct ossl_pkey_ctx EVP_PKEY_CTX;
typedef struct ossl_md_ctx EVP_MD_CTX;
typedef struct ossl_md EVP_MD;
typedef struct ossl_engine ENGINE;

/* EVP_PKEY_X25519, EVP_PKEY_X448 and EVP_PKEY_ED25519 (NID_X25519,
 * NID_X448, NID_ED25519 in <openssl/obj_mac.h>, the same in 1.1.1 and
 * 3.x). */
#define OSSL_PKEY_X25519 1034	/* <openssl/evp.h> */
#define OSSL_PKEY_X448 1035	/* <openssl/evp.h> */
#define OSSL_PKEY_ED25519 1087	/* <openssl/evp.h> */

typedef int sigver_init_fn(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx,
			   const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);

static struct {
	EVP_PKEY *(*new_private)(int type, ENGINE *e, const unsigned char *k,
				 size_t len);
	EVP_PKEY *(*new_public)(int type, ENGINE *e, const unsigned char *k,
				size_t len);
	int (*get_public)(const EVP_PKEY *pkey, unsigned char *pub,
			  size_t *len);
	void (*pkey_free)(EVP_PKEY *pkey);
	EVP_PKEY_CTX *(*ctx_new)(EVP_PKEY *pkey, ENGINE *e);
	void (*ctx_free)(EVP_PKEY_CTX *ctx);
	int (*derive_init)(EVP_PKEY_CTX *ctx);
	int (*derive_set_peer)(EVP_PKEY_CTX *ctx, EVP_PKEY *peer);
	int (*derive)(EVP_PKEY_CTX *ctx, unsigned char *key, size_t *len);
	EVP_MD_CTX *(*md_new)(void);
	void (*md_free)(EVP_MD_CTX *ctx);
	sigver_init_fn *sign_init, *verify_init;
	int (*sign)(EVP_MD_CTX *ctx, unsigned char *sig, size_t *siglen,
		    const unsigned char *tbs, size_t tbslen);
	int (*verify)(EVP_MD_CTX *ctx, const unsigned char *sig,
		      size_t siglen, const unsigned char *tbs, size_t tbslen);
	bool xdh, ed25519;	/* X25519 and X448; Ed25519 */
} pk;

/* A key: the EVP_PKEY and, for Ed25519, the context initialised for
 * signing (private) or verifying (public), and whether that context is
 * initialised again before each one-shot call (reinit: OpenSSL 3.5
 * refuses a second EVP_DigestSign or EVP_DigestVerify on a context
 * without it, and takes EVP_DigestSignInit(ctx, NULL, NULL, NULL, NULL)
 * to keep its key and parameters, as its own `openssl speed` does per
 * call; an OpenSSL that refuses that re-initialisation, 1.1.1 and 3.0,
 * repeats the one-shot call on the same context, as their `openssl
 * speed` does). */
struct ossl_key {
	enum guest_pk_algo algo;
	EVP_PKEY *pkey;
	EVP_MD_CTX *md;
	bool priv;
	bool reinit;
};

void guest_pk_openssl_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.new_private, "EVP_PKEY_new_raw_private_key" },
		{ &pk.new_public, "EVP_PKEY_new_raw_public_key" },
		{ &pk.get_public, "EVP_PKEY_get_raw_public_key" },
		{ &pk.pkey_free, "EVP_PKEY_free" },
	};
	const struct backend_symbol x[] = {
		{ &pk.ctx_new, "EVP_PKEY_CTX_new" },
		{ &pk.ctx_free, "EVP_PKEY_CTX_free" },
		{ &pk.derive_init, "EVP_PKEY_derive_init" },
		{ &pk.derive_set_peer, "EVP_PKEY_derive_set_peer" },
		{ &pk.derive, "EVP_PKEY_derive" },
	};
	const struct backend_symbol ed[] = {
		{ &pk.md_new, "EVP_MD_CTX_new" },
		{ &pk.md_free, "EVP_MD_CTX_free" },
		{ &pk.sign_init, "EVP_DigestSignInit" },
		{ &pk.verify_init, "EVP_DigestVerifyInit" },
		{ &pk.sign, "EVP_DigestSign" },
		{ &pk.verify, "EVP_DigestVerify" },
	};
	char why[128];

	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) < 0)
		return;
	pk.xdh = backend_require(handle, x, sizeof(x) / sizeof(x[0]), why,
				    sizeof(why)) == 0;
	pk.ed25519 = backend_require(handle, ed, sizeof(ed) / sizeof(ed[0]),
				     why, sizeof(why)) == 0;
}

static bool ossl_pk_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 || algo == GUEST_PK_X448 ? pk.xdh :
	       algo == GUEST_PK_ED25519 ? pk.ed25519 : false;
}

static void ossl_pk_free(void *key)
{
	struct ossl_key *k = key;

	if (!k)
		return;
	if (k->md)
		pk.md_free(k->md);
	if (k->pkey)
		pk.pkey_free(k->pkey);
	free(k);
}

/* The EVP_PKEY type of ALGO (X25519, X448 or Ed25519). */
static int pkey_type(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 ? OSSL_PKEY_X25519 :
	       algo == GUEST_PK_X448 ? OSSL_PKEY_X448 : OSSL_PKEY_ED25519;
}

/* A key of ALGO from RAW (guest_pk_pub_bytes(ALGO) bytes), private (PRIV)
 * or public. Returns it (caller owns: ossl_pk_free), or NULL when
 * unsupported, out of memory or refused. */
static void *ossl_pk_key(enum guest_pk_algo algo, const uint8_t *raw,
			 bool priv)
{
	struct ossl_key *k;

	if (!ossl_pk_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->pkey = (priv ? pk.new_private : pk.new_public)(
		pkey_type(algo), NULL, raw, guest_pk_pub_bytes(algo));
	if (!k->pkey)
		goto fail;
	k->priv = priv;
	if (algo == GUEST_PK_ED25519 &&
	    (!(k->md = pk.md_new()) ||
	     (priv ? pk.sign_init : pk.verify_init)(k->md, NULL, NULL, NULL,
						    k->pkey) != 1))
		goto fail;
	/* can this OpenSSL initialise the context again with its key
	 * kept? (a refusal leaves the context as it was) */
	if (algo == GUEST_PK_ED25519)
		k->reinit = (priv ? pk.sign_init : pk.verify_init)(
			k->md, NULL, NULL, NULL, NULL) == 1;
	return k;
fail:
	ossl_pk_free(k);
	return NULL;
}

static void *ossl_pk_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	return ossl_pk_key(algo, priv, true);
}

static void *ossl_pk_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	return algo == GUEST_PK_ED25519 ? ossl_pk_key(algo, pub, false) : NULL;
}

/* The raw public key of KEY (guest_pk_pub_bytes of its algorithm) into
 * PUB. Returns 0, or -1 when OpenSSL refused. */
static int ossl_pk_public(void *key, uint8_t *pub)
{
	struct ossl_key *k = key;
	size_t want = guest_pk_pub_bytes(k->algo), len = want;

	return pk.get_public(k->pkey, pub, &len) == 1 && len == want ? 0 : -1;
}

/* X25519 or X448 of KEY and the peer's raw public key PEER into OUT
 * (guest_pk_secret_bytes of KEY's algorithm), the peer's EVP_PKEY made
 * and freed in the call. Returns 0, or -1 when OpenSSL refused. */
static int ossl_pk_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct ossl_key *k = key;
	EVP_PKEY *p = pk.new_public(pkey_type(k->algo), NULL, peer,
				    guest_pk_pub_bytes(k->algo));
	EVP_PKEY_CTX *ctx = p ? pk.ctx_new(k->pkey, NULL) : NULL;
	size_t want = guest_pk_secret_bytes(k->algo), len = want;
	int rc = -1;

	if (ctx && pk.derive_init(ctx) == 1 &&
	    pk.derive_set_peer(ctx, p) == 1 &&
	    pk.derive(ctx, out, &len) == 1 && len == want)
		rc = 0;
	if (ctx)
		pk.ctx_free(ctx);
	if (p)
		pk.pkey_free(p);
	return rc;
}

static int ossl_pk_sign(void *key, const uint8_t *msg, size_t len,
			uint8_t *sig)
{
	struct ossl_key *k = key;
	size_t siglen = GUEST_PK_SIG_BYTES;

	if (k->reinit && pk.sign_init(k->md, NULL, NULL, NULL, NULL) != 1)
		return -1;
	return pk.sign(k->md, sig, &siglen, msg, len) == 1 &&
	       siglen == GUEST_PK_SIG_BYTES ? 0 : -1;
}

/* EVP_DigestVerify: 1 valid, 0 invalid, below 0 an error (which a
 * malformed signature can also give): anything but 1 is a rejection. */
static int ossl_pk_verify(void *pub, const uint8_t *msg, size_t len,
			  const uint8_t *sig)
{
	struct ossl_key *k = pub;

	if (k->reinit && pk.verify_init(k->md, NULL, NULL, NULL, NULL) != 1)
		return 1;
	return pk.verify(k->md, sig, GUEST_PK_SIG_BYTES, msg, len) == 1 ? 0 : 1;
}

const struct guest_pk_ops guest_pk_openssl = {
	.supports = ossl_pk_supports,
	.key_new = ossl_pk_key_new,
	.pub_new = ossl_pk_pub_new,
	.key_free = ossl_pk_free,
	.public_key = ossl_pk_public,
	.derive = ossl_pk_derive,
	.sign = ossl_pk_sign,
	.verify = ossl_pk_verify,
};
