/* guest/backend-openssl-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) in OpenSSL's libcrypto through EVP_PKEY
 * (1.1.1 and 3.x).
 *
 * What each operation costs (guest/PROTOCOL.md, "Public key"):
 *  - import: d2i_PrivateKey of the RSAPrivateKey DER of the fixed test
 *    key (guest/rsa-keys.h; the DER is written from the components
 *    first, a copy of about a kilobyte), as OpenSSL loads a key file, and
 *    the EVP_MD_CTX initialised for signing with SHA-256 and the padding
 *    (PSS: salt length 32; MGF1 defaults to the signature's hash), once;
 *  - sign, verify: the context of the import copied (EVP_MD_CTX_copy_ex:
 *    a context signs one message), then one EVP_DigestSign /
 *    EVP_DigestVerify, as backend-openssl-ec.c does.
 * The padding is set with EVP_PKEY_CTX_set_rsa_padding and
 * EVP_PKEY_CTX_set_rsa_pss_saltlen where they are functions (3.x), else
 * with the EVP_PKEY_CTX_ctrl that 1.1.1's macros of those names expand
 * to. The modulus is read back with RSA_get0_key and BN_bn2binpad (both
 * in 1.1.1 and 3.x). keygen: EVP_PKEY_keygen on a context of
 * EVP_PKEY_CTX_new_id(EVP_PKEY_RSA) with the key size set
 * (EVP_PKEY_CTX_set_rsa_keygen_bits, or its 1.1.1 macro's ctrl; e is
 * OpenSSL's default, 65537), as `openssl genpkey` does. Prototypes restated from <openssl/evp.h>,
 * <openssl/rsa.h> and <openssl/bn.h> (stable ABI, opaque types). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

typedef struct ossl_pkey EVP_PKEY;
typedef struct ossl_pkey_ctx EVP_PKEY_CTX;
typedef struct ossl_md_ctx EVP_MD_CTX;
typedef struct ossl_md EVP_MD;
typedef struct ossl_engine ENGINE;
typedef struct ossl_rsa RSA;
typedef struct ossl_bignum BIGNUM;

/* EVP_PKEY_RSA (NID_rsaEncryption), RSA_PKCS1_PADDING,
 * RSA_PKCS1_PSS_PADDING, and the EVP_PKEY_CTX_ctrl commands
 * EVP_PKEY_CTRL_RSA_PADDING and EVP_PKEY_CTRL_RSA_PSS_SALTLEN
 * (EVP_PKEY_ALG_CTRL + 1, + 2), <openssl/rsa.h>, 1.1.1 and 3.x. */
#define OSSL_PKEY_RSA 6	/* <openssl/evp.h> */
#define OSSL_PKCS1_PADDING 1	/* <openssl/rsa.h> */
#define OSSL_PKCS1_PSS_PADDING 6	/* <openssl/rsa.h> */
#define OSSL_CTRL_RSA_PADDING 0x1001	/* <openssl/rsa.h> */
#define OSSL_CTRL_RSA_PSS_SALTLEN 0x1002	/* <openssl/rsa.h> */
#define OSSL_CTRL_RSA_KEYGEN_BITS 0x1003	/* <openssl/rsa.h> */
/* EVP_PKEY_OP_KEYGEN, <openssl/evp.h>, 1.1.1 and 3.x */
#define OSSL_OP_KEYGEN (1 << 2)
#define PSS_SALT_BYTES 32

typedef int sigver_init_fn(EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx,
			   const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey);

static struct {
	EVP_PKEY *(*d2i_private)(int type, EVP_PKEY **a,
				 const unsigned char **pp, long length);
	EVP_PKEY *(*d2i_public)(int type, EVP_PKEY **a,
				const unsigned char **pp, long length);
	void (*pkey_free)(EVP_PKEY *pkey);
	RSA *(*get0_rsa)(EVP_PKEY *pkey);	/* const in 3.x */
	void (*get0_key)(const RSA *r, const BIGNUM **n, const BIGNUM **e,
			 const BIGNUM **d);
	int (*bn2binpad)(const BIGNUM *a, unsigned char *to, int tolen);
	/* NULL in 1.1.1 (macros there): EVP_PKEY_CTX_ctrl is used */
	int (*set_padding)(EVP_PKEY_CTX *ctx, int pad);
	int (*set_saltlen)(EVP_PKEY_CTX *ctx, int len);
	int (*ctrl)(EVP_PKEY_CTX *ctx, int keytype, int optype, int cmd,
		    int p1, void *p2);
	EVP_PKEY_CTX *(*ctx_new_id)(int id, ENGINE *e);
	void (*ctx_free)(EVP_PKEY_CTX *ctx);
	int (*keygen_init)(EVP_PKEY_CTX *ctx);
	int (*keygen)(EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey);
	int (*set_keygen_bits)(EVP_PKEY_CTX *ctx, int bits);	/* NULL in
				 * 1.1.1 (a macro there): the ctrl is used */
	bool gen;
	const EVP_MD *(*sha256)(void);
	EVP_MD_CTX *(*md_new)(void);
	void (*md_free)(EVP_MD_CTX *ctx);
	int (*md_copy)(EVP_MD_CTX *out, const EVP_MD_CTX *in);
	sigver_init_fn *sign_init, *verify_init;
	int (*sign)(EVP_MD_CTX *ctx, unsigned char *sig, size_t *siglen,
		    const unsigned char *tbs, size_t tbslen);
	int (*verify)(EVP_MD_CTX *ctx, const unsigned char *sig,
		      size_t siglen, const unsigned char *tbs, size_t tbslen);
	bool ok;
} pk;

/* A key: its algorithm, the EVP_PKEY, the context initialised for
 * signing (private) or verifying (public) and the one each operation
 * works on, a copy of it. */
struct ossl_rsa_key {
	enum guest_pk_algo algo;
	size_t bytes;		/* of the modulus */
	EVP_PKEY *pkey;
	EVP_MD_CTX *md, *work;
};

/* Resolve the entry points in HANDLE (libcrypto, loaded by
 * backend-openssl.c); without all of them RSA stays unsupported. */
void guest_rsa_openssl_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.d2i_private, "d2i_PrivateKey" },
		{ &pk.d2i_public, "d2i_PublicKey" },
		{ &pk.pkey_free, "EVP_PKEY_free" },
		{ &pk.get0_rsa, "EVP_PKEY_get0_RSA" },
		{ &pk.get0_key, "RSA_get0_key" },
		{ &pk.bn2binpad, "BN_bn2binpad" },
		{ &pk.ctrl, "EVP_PKEY_CTX_ctrl" },
		{ &pk.sha256, "EVP_sha256" },
		{ &pk.md_new, "EVP_MD_CTX_new" },
		{ &pk.md_free, "EVP_MD_CTX_free" },
		{ &pk.md_copy, "EVP_MD_CTX_copy_ex" },
		{ &pk.sign_init, "EVP_DigestSignInit" },
		{ &pk.verify_init, "EVP_DigestVerifyInit" },
		{ &pk.sign, "EVP_DigestSign" },
		{ &pk.verify, "EVP_DigestVerify" },
	};
	const struct backend_symbol gen[] = {
		{ &pk.ctx_new_id, "EVP_PKEY_CTX_new_id" },
		{ &pk.ctx_free, "EVP_PKEY_CTX_free" },
		{ &pk.keygen_init, "EVP_PKEY_keygen_init" },
		{ &pk.keygen, "EVP_PKEY_keygen" },
	};
	char why[128];

	pk.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0;
	pk.gen = pk.ok && backend_require(handle, gen, sizeof(gen) /
					  sizeof(gen[0]), why, sizeof(why)) == 0;
	if (backend_sym(handle, &pk.set_keygen_bits,
			"EVP_PKEY_CTX_set_rsa_keygen_bits") != 0)
		pk.set_keygen_bits = NULL;
	if (backend_sym(handle, &pk.set_padding,
			"EVP_PKEY_CTX_set_rsa_padding") != 0)
		pk.set_padding = NULL;
	if (backend_sym(handle, &pk.set_saltlen,
			"EVP_PKEY_CTX_set_rsa_pss_saltlen") != 0)
		pk.set_saltlen = NULL;
}

/* struct guest_pk_ops: the RSA algorithms, where resolved. */
static bool ossl_rsa_supports(enum guest_pk_algo algo)
{
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* Release KEY (struct ossl_rsa_key and its OpenSSL objects); NULL is
 * ignored. */
static void ossl_rsa_free(void *key)
{
	struct ossl_rsa_key *k = key;

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

/* The padding of K's algorithm on PCTX (PSS: salt length 32). Returns
 * 0, or -1 when OpenSSL refused. */
static int set_padding(const struct ossl_rsa_key *k, EVP_PKEY_CTX *pctx)
{
	bool pss = k->algo == GUEST_PK_RSA_PSS_2048;
	int pad = pss ? OSSL_PKCS1_PSS_PADDING : OSSL_PKCS1_PADDING;

	if ((pk.set_padding ? pk.set_padding(pctx, pad)
			    : pk.ctrl(pctx, -1, -1, OSSL_CTRL_RSA_PADDING, pad,
				      NULL)) <= 0)
		return -1;
	if (!pss)
		return 0;
	return (pk.set_saltlen ? pk.set_saltlen(pctx, PSS_SALT_BYTES)
			       : pk.ctrl(pctx, -1, -1, OSSL_CTRL_RSA_PSS_SALTLEN,
					 PSS_SALT_BYTES, NULL)) > 0 ? 0 : -1;
}

/* K's contexts, initialised to sign (PRIV) or verify with SHA-256 and
 * the padding of its algorithm. Returns 0, or -1 when OpenSSL refused. */
static int sig_contexts(struct ossl_rsa_key *k, bool priv)
{
	EVP_PKEY_CTX *pctx = NULL;

	return (k->md = pk.md_new()) && (k->work = pk.md_new()) &&
	       (priv ? pk.sign_init : pk.verify_init)(k->md, &pctx, pk.sha256(),
						      NULL, k->pkey) == 1 &&
	       pctx && set_padding(k, pctx) == 0 ? 0 : -1;
}

/* A new struct ossl_rsa_key of ALGO (nothing imported yet), or NULL when
 * ALGO is unsupported or out of memory. */
static struct ossl_rsa_key *key_alloc(enum guest_pk_algo algo)
{
	struct ossl_rsa_key *k;

	if (!ossl_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	return k;
}

/* The fixed private key of ALGO (PRIV is not read), from its DER. Returns
 * it (caller owns: ossl_rsa_free) or NULL when unsupported, out of
 * memory or refused. */
static void *ossl_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	unsigned char der[RSA_DER_PRIVATE_MAX];
	const unsigned char *p = der;
	struct ossl_rsa_key *k = key_alloc(algo);
	size_t n;

	(void)priv;
	if (!k)
		return NULL;
	n = rsa_der_private(rsa_test_key_of(algo), der, sizeof(der));
	if (!n || !(k->pkey = pk.d2i_private(OSSL_PKEY_RSA, NULL, &p, (long)n)) ||
	    sig_contexts(k, true) != 0) {
		ossl_rsa_free(k);
		return NULL;
	}
	return k;
}

/* A public key of ALGO of the modulus PUB (e = 65537). Returns it
 * (caller owns: ossl_rsa_free) or NULL when unsupported, out of memory
 * or refused. */
static void *ossl_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	unsigned char der[RSA_DER_PUBLIC_MAX];
	const unsigned char *p = der;
	struct ossl_rsa_key *k = key_alloc(algo);
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	size_t n;

	if (!k)
		return NULL;
	n = rsa_der_public(pub, k->bytes, t->e, t->e_bytes, der, sizeof(der));
	if (!n || !(k->pkey = pk.d2i_public(OSSL_PKEY_RSA, NULL, &p, (long)n)) ||
	    sig_contexts(k, false) != 0) {
		ossl_rsa_free(k);
		return NULL;
	}
	return k;
}

/* The modulus of KEY into PUB (its bytes, big-endian). Returns 0, or -1
 * when OpenSSL gave none. */
static int ossl_rsa_public(void *key, uint8_t *pub)
{
	struct ossl_rsa_key *k = key;
	const BIGNUM *n = NULL;
	RSA *r = pk.get0_rsa(k->pkey);

	if (!r)
		return -1;
	pk.get0_key(r, &n, NULL, NULL);
	return n && pk.bn2binpad(n, pub, (int)k->bytes) == (int)k->bytes ? 0 : -1;
}

/* Sign the LEN bytes of MSG with KEY into SIG (the modulus's bytes).
 * Returns 0, or -1 when OpenSSL failed. */
static int ossl_rsa_sign(void *key, const uint8_t *msg, size_t len,
			 uint8_t *sig)
{
	struct ossl_rsa_key *k = key;
	size_t n = k->bytes;

	return pk.md_copy(k->work, k->md) == 1 &&
	       pk.sign(k->work, sig, &n, msg, len) == 1 && n == k->bytes ? 0 : -1;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 anything else EVP_DigestVerify says; -1 when the
 * context could not be copied. */
static int ossl_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			   const uint8_t *sig)
{
	struct ossl_rsa_key *k = pub;

	if (pk.md_copy(k->work, k->md) != 1)
		return -1;
	return pk.verify(k->work, sig, k->bytes, msg, len) == 1 ? 0 : 1;
}

/* A new key pair of ALGO's size; its modulus into N. Returns 0, or -1
 * when OpenSSL failed. */
static int ossl_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	int bits = (int)guest_pk_pub_bytes(algo) * 8, rc = -1;
	EVP_PKEY_CTX *ctx;
	EVP_PKEY *pkey = NULL;
	struct ossl_rsa_key k = { algo, guest_pk_pub_bytes(algo), NULL, NULL,
				  NULL };

	if (!pk.gen || !(ctx = pk.ctx_new_id(OSSL_PKEY_RSA, NULL)))
		return -1;
	if (pk.keygen_init(ctx) == 1 &&
	    (pk.set_keygen_bits ? pk.set_keygen_bits(ctx, bits)
				: pk.ctrl(ctx, OSSL_PKEY_RSA, OSSL_OP_KEYGEN,
					  OSSL_CTRL_RSA_KEYGEN_BITS, bits,
					  NULL)) > 0 &&
	    pk.keygen(ctx, &pkey) == 1 && pkey) {
		k.pkey = pkey;
		rc = ossl_rsa_public(&k, n);
	}
	if (pkey)
		pk.pkey_free(pkey);
	pk.ctx_free(ctx);
	return rc;
}

const struct guest_pk_ops guest_rsa_openssl = {
	.supports = ossl_rsa_supports,
	.key_new = ossl_rsa_key_new,
	.pub_new = ossl_rsa_pub_new,
	.key_free = ossl_rsa_free,
	.public_key = ossl_rsa_public,
	.sign = ossl_rsa_sign,
	.verify = ossl_rsa_verify,
	.keygen = ossl_rsa_keygen,
};
