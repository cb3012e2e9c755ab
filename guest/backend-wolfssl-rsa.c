/* guest/backend-wolfssl-rsa.c - the RSA signatures (RSASSA-PKCS1-v1_5
 * and RSASSA-PSS with SHA-256) in wolfCrypt (wc_Rsa*), when the build at
 * hand exports them (Debian bookworm's 5.5.4 does).
 *
 * RsaKey is a caller-allocated struct whose size depends on the build
 * (its math library's integers); wolfCrypt 5.5 has no allocator for it:
 * a key here gets RSA_KEY_BYTES zeroed bytes, far more than a 5.5 build
 * with 8192-bit integers needs, and wc_InitRsaKey initialises it.
 * import: wc_RsaPrivateKeyDecode of the RSAPrivateKey DER of the fixed
 * test key (guest/rsa-keys.h; the DER written from its components first,
 * a copy of about a kilobyte), as wolfSSL loads a key file; a public key
 * is wc_RsaPublicKeyDecodeRaw of n and e. Each key has its WC_RNG
 * (wc_rng_new), the blinding's generator (wc_RsaSetRNG) and PSS's salt.
 *
 * sign hashes with wc_Sha256Hash, then wc_RsaSSL_Sign of the DigestInfo
 * and the digest (PKCS #1 v1.5 pads it as given) or wc_RsaPSS_Sign_ex of
 * the digest (MGF1 with SHA-256, a 32-byte salt); verify: wc_RsaSSL_Verify
 * (which recovers the DigestInfo, compared here) or wc_RsaPSS_VerifyCheck
 * (the salt as long as the digest, 32 bytes).
 *
 * keygen: wc_MakeRsaKey (e 65537) on a new RsaKey with its WC_RNG
 * (builds without WOLFSSL_KEY_GEN lack it: not timed), the modulus
 * flattened.
 *
 * Prototypes and constants restate wolfCrypt's public ABI
 * (wolfssl/wolfcrypt/rsa.h, hash.h, random.h, sha256.h of 5.5):
 * WC_HASH_TYPE_SHA256 = 6, WC_MGF1SHA256 = 1. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"
#include "rsa-keys.h"

typedef unsigned char byte;
typedef unsigned int word32;
typedef struct ws_rng WC_RNG;

/* WC_HASH_TYPE_SHA256 (enum wc_HashType), <wolfssl/wolfcrypt/types.h> */
#define WS_HASH_SHA256 6
#define WS_MGF1SHA256 1	/* WC_MGF1SHA256, <wolfssl/wolfcrypt/rsa.h> */
#define PSS_SALT_BYTES 32
#define RSA_KEY_BYTES 65536
#define DIGESTINFO_BYTES (RSA_SHA256_DIGESTINFO_BYTES + 32)

static struct {
	int (*init)(void *key, void *heap);
	int (*rsa_free)(void *key);
	int (*priv_decode)(const byte *input, word32 *idx, void *key,
			   word32 sz);
	int (*pub_decode_raw)(const byte *n, word32 n_sz, const byte *e,
			      word32 e_sz, void *key);
	int (*flatten_public)(void *key, byte *e, word32 *e_sz, byte *n,
			      word32 *n_sz);
	int (*set_rng)(void *key, WC_RNG *rng);
	int (*ssl_sign)(const byte *in, word32 in_len, byte *out,
			word32 out_len, void *key, WC_RNG *rng);
	int (*ssl_verify)(const byte *in, word32 in_len, byte *out,
			  word32 out_len, void *key);
	int (*pss_sign_ex)(const byte *in, word32 in_len, byte *out,
			   word32 out_len, int hash, int mgf, int salt_len,
			   void *key, WC_RNG *rng);
	int (*pss_verify_check)(byte *in, word32 in_len, byte *out,
				word32 out_len, const byte *digest,
				word32 digest_len, int hash, int mgf,
				void *key);
	int (*sha256)(const byte *data, word32 len, byte *hash);
	WC_RNG *(*rng_new)(byte *nonce, word32 nonce_size, void *heap);
	void (*rng_free)(WC_RNG *rng);
	int (*make_key)(void *key, int size, long e, WC_RNG *rng);
	bool ok;
} pk;

/* A key: its algorithm, the modulus's bytes, the RsaKey and its
 * generator. */
struct ws_rsa_key {
	enum guest_pk_algo algo;
	bool priv, inited;
	size_t bytes;
	void *key;
	WC_RNG *rng;
};

/* Resolve the entry points in HANDLE (libwolfssl, loaded by
 * backend-wolfssl.c); without all of them RSA stays unsupported. */
void guest_rsa_wolfssl_load(void *handle)
{
	const struct backend_symbol sym[] = {
		{ &pk.init, "wc_InitRsaKey" },
		{ &pk.rsa_free, "wc_FreeRsaKey" },
		{ &pk.priv_decode, "wc_RsaPrivateKeyDecode" },
		{ &pk.pub_decode_raw, "wc_RsaPublicKeyDecodeRaw" },
		{ &pk.flatten_public, "wc_RsaFlattenPublicKey" },
		{ &pk.set_rng, "wc_RsaSetRNG" },
		{ &pk.ssl_sign, "wc_RsaSSL_Sign" },
		{ &pk.ssl_verify, "wc_RsaSSL_Verify" },
		{ &pk.pss_sign_ex, "wc_RsaPSS_Sign_ex" },
		{ &pk.pss_verify_check, "wc_RsaPSS_VerifyCheck" },
		{ &pk.sha256, "wc_Sha256Hash" },
		{ &pk.rng_new, "wc_rng_new" },
		{ &pk.rng_free, "wc_rng_free" },
	};
	char why[128];

	pk.ok = backend_require(handle, sym, sizeof(sym) / sizeof(sym[0]), why,
				sizeof(why)) == 0;
	if (backend_sym(handle, &pk.make_key, "wc_MakeRsaKey") != 0)
		pk.make_key = NULL;
}

/* struct guest_pk_ops: the RSA algorithms, where resolved. */
static bool ws_rsa_supports(enum guest_pk_algo algo)
{
	return guest_pk_is_rsa(algo) && pk.ok;
}

/* Release KEY (struct ws_rsa_key, its RsaKey and generator); NULL is
 * ignored. */
static void ws_rsa_free(void *key)
{
	struct ws_rsa_key *k = key;

	if (!k)
		return;
	if (k->inited)
		pk.rsa_free(k->key);
	if (k->rng)
		pk.rng_free(k->rng);
	free(k->key);
	free(k);
}

/* A new key of ALGO, its RsaKey initialised with a generator (nothing
 * imported yet), or NULL when unsupported, out of memory or refused. */
static struct ws_rsa_key *key_alloc(enum guest_pk_algo algo)
{
	struct ws_rsa_key *k;

	if (!ws_rsa_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	k->bytes = guest_pk_pub_bytes(algo);
	if (!(k->key = calloc(1, RSA_KEY_BYTES)) ||
	    pk.init(k->key, NULL) != 0) {
		ws_rsa_free(k);
		return NULL;
	}
	k->inited = true;
	if (!(k->rng = pk.rng_new(NULL, 0, NULL)) ||
	    pk.set_rng(k->key, k->rng) != 0) {
		ws_rsa_free(k);
		return NULL;
	}
	return k;
}

/* The fixed private key of ALGO (PRIV is not read), from its DER.
 * Returns it (caller owns: ws_rsa_free) or NULL. */
static void *ws_rsa_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	byte der[RSA_DER_PRIVATE_MAX];
	struct ws_rsa_key *k = key_alloc(algo);
	word32 idx = 0;
	size_t n;

	(void)priv;
	if (!k)
		return NULL;
	k->priv = true;
	n = rsa_der_private(rsa_test_key_of(algo), der, sizeof(der));
	if (!n || pk.priv_decode(der, &idx, k->key, (word32)n) != 0) {
		ws_rsa_free(k);
		return NULL;
	}
	return k;
}

/* A public key of ALGO of the modulus PUB (e = 65537). Returns it
 * (caller owns: ws_rsa_free) or NULL. */
static void *ws_rsa_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	const struct rsa_test_key *t = rsa_test_key_of(algo);
	struct ws_rsa_key *k = key_alloc(algo);

	if (!k)
		return NULL;
	if (pk.pub_decode_raw(pub, (word32)k->bytes, t->e, (word32)t->e_bytes,
			      k->key) != 0) {
		ws_rsa_free(k);
		return NULL;
	}
	return k;
}

/* The modulus of KEY into PUB (right-aligned, zero-padded). Returns 0,
 * or -1 when wolfCrypt refused. */
static int ws_rsa_public(void *key, uint8_t *pub)
{
	struct ws_rsa_key *k = key;
	byte n[GUEST_PK_PUB_MAX], e[16];
	word32 n_sz = sizeof(n), e_sz = sizeof(e);

	if (pk.flatten_public(k->key, e, &e_sz, n, &n_sz) != 0 ||
	    n_sz > k->bytes)
		return -1;
	memset(pub, 0, k->bytes - n_sz);
	memcpy(pub + k->bytes - n_sz, n, n_sz);
	return 0;
}

/* The DigestInfo of the SHA-256 digest of the LEN bytes of MSG into DI
 * (DIGESTINFO_BYTES; the digest is its last 32). Returns 0, or -1 when
 * the hash failed. */
static int digest_info(const uint8_t *msg, size_t len, byte *di)
{
	memcpy(di, rsa_sha256_digestinfo, RSA_SHA256_DIGESTINFO_BYTES);
	return pk.sha256(msg, (word32)len, di + RSA_SHA256_DIGESTINFO_BYTES) ==
	       0 ? 0 : -1;
}

/* Sign the LEN bytes of MSG with private KEY into SIG (the modulus's
 * bytes). Returns 0, or -1 when wolfCrypt failed. */
static int ws_rsa_sign(void *key, const uint8_t *msg, size_t len,
		       uint8_t *sig)
{
	struct ws_rsa_key *k = key;
	byte di[DIGESTINFO_BYTES];
	int rc;

	if (!k->priv || digest_info(msg, len, di) != 0)
		return -1;
	if (k->algo == GUEST_PK_RSA_PSS_2048)
		rc = pk.pss_sign_ex(di + RSA_SHA256_DIGESTINFO_BYTES, 32, sig,
				    (word32)k->bytes, WS_HASH_SHA256,
				    WS_MGF1SHA256, PSS_SALT_BYTES, k->key,
				    k->rng);
	else
		rc = pk.ssl_sign(di, sizeof(di), sig, (word32)k->bytes, k->key,
				 k->rng);
	return rc == (int)k->bytes ? 0 : -1;
}

/* Check SIG (the modulus's bytes) over the LEN bytes of MSG with public
 * key PUB: 0 valid, 1 rejected (any refusal, or another DigestInfo), -1
 * when the hash failed. */
static int ws_rsa_verify(void *pub, const uint8_t *msg, size_t len,
			 const uint8_t *sig)
{
	struct ws_rsa_key *k = pub;
	byte di[DIGESTINFO_BYTES], in[GUEST_PK_SIG_MAX], out[GUEST_PK_SIG_MAX];
	int rc;

	if (digest_info(msg, len, di) != 0)
		return -1;
	memcpy(in, sig, k->bytes);
	if (k->algo == GUEST_PK_RSA_PSS_2048) {
		rc = pk.pss_verify_check(in, (word32)k->bytes, out, sizeof(out),
					 di + RSA_SHA256_DIGESTINFO_BYTES, 32,
					 WS_HASH_SHA256, WS_MGF1SHA256, k->key);
		return rc > 0 ? 0 : 1;
	}
	rc = pk.ssl_verify(in, (word32)k->bytes, out, sizeof(out), k->key);
	return rc == (int)sizeof(di) && memcmp(out, di, sizeof(di)) == 0 ? 0 : 1;
}

/* A new key pair of ALGO's size (e = 65537); its modulus into N.
 * Returns 0, or -1 when wolfCrypt failed. */
static int ws_rsa_keygen(enum guest_pk_algo algo, uint8_t *n)
{
	struct ws_rsa_key *k = pk.make_key ? key_alloc(algo) : NULL;
	int rc;

	if (!k)
		return -1;
	rc = pk.make_key(k->key, (int)k->bytes * 8, 65537, k->rng) == 0 &&
	     ws_rsa_public(k, n) == 0 ? 0 : -1;
	ws_rsa_free(k);
	return rc;
}

const struct guest_pk_ops guest_rsa_wolfssl = {
	.supports = ws_rsa_supports,
	.key_new = ws_rsa_key_new,
	.pub_new = ws_rsa_pub_new,
	.key_free = ws_rsa_free,
	.public_key = ws_rsa_public,
	.sign = ws_rsa_sign,
	.verify = ws_rsa_verify,
	.keygen = ws_rsa_keygen,
};
