/* guest/backend-openssl-pq.c - ML-KEM-768 and ML-DSA-65 in OpenSSL's
 * libcrypto (3.5 and later; older releases leave both unsupported).
 *
 * What each operation costs (guest/PROTOCOL.md, "Public key"):
 *  - keygen: EVP_PKEY_CTX_new_from_name, EVP_PKEY_fromdata_init and
 *    EVP_PKEY_fromdata of the seed alone (OSSL_PKEY_PARAM_ML_KEM_SEED /
 *    OSSL_PKEY_PARAM_ML_DSA_SEED, both "seed"), which expands it into the
 *    whole key pair - FIPS 203's and FIPS 204's KeyGen_internal - and the
 *    context freed;
 *  - encaps, decaps: as an application does per message: EVP_PKEY_CTX_new
 *    of the key, EVP_PKEY_encapsulate_init / _decapsulate_init, one
 *    EVP_PKEY_encapsulate / _decapsulate, the context freed;
 *  - sign, verify: EVP_PKEY_CTX_new of the key, EVP_PKEY_sign_message_init
 *    / _verify_message_init with the ML-DSA-65 signature algorithm
 *    (fetched once at load), one EVP_PKEY_sign / EVP_PKEY_verify of the
 *    message (pure ML-DSA, empty context, OpenSSL's default hedged
 *    signing), the context freed.
 * Public keys come out with EVP_PKEY_get_octet_string_param("pub") and
 * go in with EVP_PKEY_new_raw_public_key_ex. For the known answers only
 * (guest/pubkey-kat-pq.c): an ML-KEM-768 decapsulation key goes in with
 * EVP_PKEY_fromdata of its FIPS 203 encoding as OSSL_PKEY_PARAM_PRIV_KEY
 * ("priv", EVP_PKEY-ML-KEM(7)), and an ML-DSA-65 verification takes a
 * context string as OSSL_SIGNATURE_PARAM_CONTEXT_STRING
 * ("context-string", EVP_SIGNATURE-ML-DSA(7)) among the parameters of
 * EVP_PKEY_verify_message_init. Prototypes restated from
 * <openssl/evp.h>, <openssl/core.h> and <openssl/params.h> (stable ABI,
 * opaque types; OSSL_PARAM is a public struct). */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

typedef struct ossl_pkey EVP_PKEY;
typedef struct ossl_pkey_ctx EVP_PKEY_CTX;
typedef struct ossl_signature EVP_SIGNATURE;
typedef struct ossl_lib_ctx OSSL_LIB_CTX;
typedef struct ossl_engine ENGINE;

/* struct ossl_param_st of <openssl/core.h>. */
typedef struct {
	const char *key;
	unsigned int data_type;
	void *data;
	size_t data_size;
	size_t return_size;
} OSSL_PARAM;

#define OSSL_PARAM_OCTET_STRING 5	/* <openssl/core.h> */
#define OSSL_PARAM_UNMODIFIED ((size_t)-1)	/* <openssl/params.h> */
#define OSSL_EVP_PKEY_KEYPAIR 0x87	/* EVP_PKEY_KEYPAIR, <openssl/evp.h> */

/* The OpenSSL names of the algorithms. */
#define KEM_NAME "ML-KEM-768"
#define DSA_NAME "ML-DSA-65"

static struct {
	EVP_PKEY_CTX *(*ctx_new_from_name)(OSSL_LIB_CTX *lib, const char *name,
					   const char *propq);
	EVP_PKEY_CTX *(*ctx_new)(EVP_PKEY *pkey, ENGINE *e);
	void (*ctx_free)(EVP_PKEY_CTX *ctx);
	int (*fromdata_init)(EVP_PKEY_CTX *ctx);
	int (*fromdata)(EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey, int selection,
			OSSL_PARAM *params);
	void (*pkey_free)(EVP_PKEY *pkey);
	int (*get_octets)(const EVP_PKEY *pkey, const char *name,
			  unsigned char *buf, size_t max, size_t *len);
	EVP_PKEY *(*new_raw_public)(OSSL_LIB_CTX *lib, const char *name,
				    const char *propq,
				    const unsigned char *pub, size_t len);
	int (*encaps_init)(EVP_PKEY_CTX *ctx, const OSSL_PARAM *params);
	int (*encaps)(EVP_PKEY_CTX *ctx, unsigned char *ct, size_t *ctlen,
		      unsigned char *ss, size_t *sslen);
	int (*decaps_init)(EVP_PKEY_CTX *ctx, const OSSL_PARAM *params);
	int (*decaps)(EVP_PKEY_CTX *ctx, unsigned char *ss, size_t *sslen,
		      const unsigned char *ct, size_t ctlen);
	EVP_SIGNATURE *(*sig_fetch)(OSSL_LIB_CTX *lib, const char *name,
				    const char *propq);
	int (*sign_init)(EVP_PKEY_CTX *ctx, EVP_SIGNATURE *alg,
			 const OSSL_PARAM *params);
	int (*sign)(EVP_PKEY_CTX *ctx, unsigned char *sig, size_t *siglen,
		    const unsigned char *tbs, size_t tbslen);
	int (*verify_init)(EVP_PKEY_CTX *ctx, EVP_SIGNATURE *alg,
			   const OSSL_PARAM *params);
	int (*verify)(EVP_PKEY_CTX *ctx, const unsigned char *sig,
		      size_t siglen, const unsigned char *tbs, size_t tbslen);
	EVP_SIGNATURE *dsa;	/* the fetched ML-DSA-65 (kept) */
	bool kem, mldsa;
} pq;

/* A key: the algorithm and OpenSSL's key. */
struct ossl_pq_key {
	enum guest_pk_algo algo;
	EVP_PKEY *pkey;
};

/* Can OpenSSL make keys of the algorithm NAME (its provider has it)? */
static bool has_keytype(const char *name)
{
	EVP_PKEY_CTX *ctx = pq.ctx_new_from_name(NULL, name, NULL);

	if (!ctx)
		return false;
	pq.ctx_free(ctx);
	return true;
}

/* Resolve the entry points in HANDLE (libcrypto, loaded by
 * backend-openssl.c) and ask the providers for the algorithms; one whose
 * entry points or provider implementation are missing (every release
 * before 3.5) stays unsupported. */
void guest_pq_openssl_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pq.ctx_new_from_name, "EVP_PKEY_CTX_new_from_name" },
		{ &pq.ctx_new, "EVP_PKEY_CTX_new" },
		{ &pq.ctx_free, "EVP_PKEY_CTX_free" },
		{ &pq.fromdata_init, "EVP_PKEY_fromdata_init" },
		{ &pq.fromdata, "EVP_PKEY_fromdata" },
		{ &pq.pkey_free, "EVP_PKEY_free" },
		{ &pq.get_octets, "EVP_PKEY_get_octet_string_param" },
		{ &pq.new_raw_public, "EVP_PKEY_new_raw_public_key_ex" },
	};
	const struct backend_symbol kem[] = {
		{ &pq.encaps_init, "EVP_PKEY_encapsulate_init" },
		{ &pq.encaps, "EVP_PKEY_encapsulate" },
		{ &pq.decaps_init, "EVP_PKEY_decapsulate_init" },
		{ &pq.decaps, "EVP_PKEY_decapsulate" },
	};
	const struct backend_symbol sig[] = {
		{ &pq.sig_fetch, "EVP_SIGNATURE_fetch" },
		{ &pq.sign_init, "EVP_PKEY_sign_message_init" },
		{ &pq.sign, "EVP_PKEY_sign" },
		{ &pq.verify_init, "EVP_PKEY_verify_message_init" },
		{ &pq.verify, "EVP_PKEY_verify" },
	};
	char why[128];

	pq.kem = pq.mldsa = false;
	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) < 0)
		return;
	pq.kem = backend_require(handle, kem, sizeof(kem) / sizeof(kem[0]),
				 why, sizeof(why)) == 0 &&
		 has_keytype(KEM_NAME);
	pq.mldsa = backend_require(handle, sig, sizeof(sig) / sizeof(sig[0]),
				   why, sizeof(why)) == 0 &&
		   has_keytype(DSA_NAME) &&
		   (pq.dsa = pq.sig_fetch(NULL, DSA_NAME, NULL)) != NULL;
}

/* struct guest_pk_ops: ML-KEM-768 and ML-DSA-65, where there. */
static bool ossl_pq_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ML_KEM_768 ? pq.kem :
	       algo == GUEST_PK_ML_DSA_65 ? pq.mldsa : false;
}

/* OpenSSL's name of ALGO. */
static const char *name_of(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ML_KEM_768 ? KEM_NAME : DSA_NAME;
}

/* Release KEY (struct ossl_pq_key and its EVP_PKEY); NULL is ignored. */
static void ossl_pq_free(void *key)
{
	struct ossl_pq_key *k = key;

	if (!k)
		return;
	if (k->pkey)
		pq.pkey_free(k->pkey);
	free(k);
}

/* The key pair of ALGO from the LEN bytes of BYTES given as OpenSSL's
 * key parameter PNAME ("seed" or "priv"), through EVP_PKEY_fromdata.
 * Returns it (caller owns: ossl_pq_free) or NULL when unsupported, out
 * of memory or refused (OpenSSL checks a "priv" for FIPS 203's hash of
 * ek). */
static void *key_from(enum guest_pk_algo algo, const char *pname,
		      const uint8_t *bytes, size_t len)
{
	OSSL_PARAM params[2] = {
		{ pname, OSSL_PARAM_OCTET_STRING, (void *)bytes, len,
		  OSSL_PARAM_UNMODIFIED },
		{ NULL, 0, NULL, 0, 0 },
	};
	EVP_PKEY_CTX *ctx;
	struct ossl_pq_key *k;

	if (!ossl_pq_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	ctx = pq.ctx_new_from_name(NULL, name_of(algo), NULL);
	if (!ctx || pq.fromdata_init(ctx) != 1 ||
	    pq.fromdata(ctx, &k->pkey, OSSL_EVP_PKEY_KEYPAIR, params) != 1) {
		if (ctx)
			pq.ctx_free(ctx);
		ossl_pq_free(k);
		return NULL;
	}
	pq.ctx_free(ctx);
	return k;
}

/* The key pair of ALGO from its seed PRIV (guest_pk_priv_bytes: 64 bytes
 * d || z, or 32 bytes xi). Returns it (caller owns: ossl_pq_free) or
 * NULL when unsupported, out of memory or refused. */
static void *ossl_pq_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	return key_from(algo, "seed", priv, guest_pk_priv_bytes(algo));
}

/* ML-KEM-768: the private key from its GUEST_PK_MLKEM_DK_BYTES FIPS 203
 * decapsulation key DK. Returns it (caller owns: ossl_pq_free) or NULL
 * when not ML-KEM, unsupported, out of memory or refused. */
static void *ossl_pq_dk_new(enum guest_pk_algo algo, const uint8_t *dk)
{
	if (algo != GUEST_PK_ML_KEM_768)
		return NULL;
	return key_from(algo, "priv", dk, GUEST_PK_MLKEM_DK_BYTES);
}

/* A public key of ALGO from its guest_pk_pub_bytes(ALGO) raw bytes PUB.
 * Returns it (caller owns: ossl_pq_free) or NULL when unsupported, out
 * of memory or refused. */
static void *ossl_pq_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct ossl_pq_key *k;

	if (!ossl_pq_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->algo = algo;
	if (!(k->pkey = pq.new_raw_public(NULL, name_of(algo), NULL, pub,
					  guest_pk_pub_bytes(algo)))) {
		ossl_pq_free(k);
		return NULL;
	}
	return k;
}

/* The raw public key of KEY (guest_pk_pub_bytes of its algorithm) into
 * PUB. Returns 0, or -1 when OpenSSL gave none or one of another size. */
static int ossl_pq_public(void *key, uint8_t *pub)
{
	struct ossl_pq_key *k = key;
	size_t len = 0, want = guest_pk_pub_bytes(k->algo);

	return pq.get_octets(k->pkey, "pub", pub, want, &len) == 1 &&
	       len == want ? 0 : -1;
}

/* ML-KEM-768: encapsulate to PUB, the 1088-byte ciphertext into CT and
 * the 32-byte shared secret into SS. Returns 0, or -1 on failure. */
static int ossl_pq_encaps(void *pub, uint8_t *ct, uint8_t *ss)
{
	struct ossl_pq_key *k = pub;
	EVP_PKEY_CTX *ctx = pq.ctx_new(k->pkey, NULL);
	size_t ctlen = GUEST_PK_MLKEM_CT_BYTES, sslen = GUEST_PK_KEY_BYTES;
	int rc = -1;

	if (ctx && pq.encaps_init(ctx, NULL) == 1 &&
	    pq.encaps(ctx, ct, &ctlen, ss, &sslen) == 1 &&
	    ctlen == GUEST_PK_MLKEM_CT_BYTES && sslen == GUEST_PK_KEY_BYTES)
		rc = 0;
	if (ctx)
		pq.ctx_free(ctx);
	return rc;
}

/* ML-KEM-768: decapsulate the 1088-byte CT with private KEY, the 32-byte
 * shared secret into SS. Returns 0, or -1 on failure. */
static int ossl_pq_decaps(void *key, const uint8_t *ct, uint8_t *ss)
{
	struct ossl_pq_key *k = key;
	EVP_PKEY_CTX *ctx = pq.ctx_new(k->pkey, NULL);
	size_t sslen = GUEST_PK_KEY_BYTES;
	int rc = -1;

	if (ctx && pq.decaps_init(ctx, NULL) == 1 &&
	    pq.decaps(ctx, ss, &sslen, ct, GUEST_PK_MLKEM_CT_BYTES) == 1 &&
	    sslen == GUEST_PK_KEY_BYTES)
		rc = 0;
	if (ctx)
		pq.ctx_free(ctx);
	return rc;
}

/* ML-DSA-65: sign the LEN bytes of MSG with KEY into SIG (3309 bytes).
 * Returns 0, or -1 on failure. */
static int ossl_pq_sign(void *key, const uint8_t *msg, size_t len,
			uint8_t *sig)
{
	struct ossl_pq_key *k = key;
	EVP_PKEY_CTX *ctx = pq.ctx_new(k->pkey, NULL);
	size_t n = GUEST_PK_MLDSA_SIG_BYTES;
	int rc = -1;

	if (ctx && pq.sign_init(ctx, pq.dsa, NULL) == 1 &&
	    pq.sign(ctx, sig, &n, msg, len) == 1 &&
	    n == GUEST_PK_MLDSA_SIG_BYTES)
		rc = 0;
	if (ctx)
		pq.ctx_free(ctx);
	return rc;
}

/* ML-DSA-65: check SIG (3309 bytes) over the LEN bytes of MSG with PUB
 * and the FIPS 204 context string CTX (CTX_LEN bytes, 0 .. 255; with 0,
 * CTX is not read and the initialisation has no parameters, as the
 * timed path's). EVP_PKEY_verify gives 1 valid, 0 invalid, below 0 an
 * error (which a malformed signature can also give): anything but 1 is
 * a rejection (1); -1 when the context could not be set up. */
static int ossl_pq_verify_ctx(void *pub, const uint8_t *msg, size_t len,
			      const uint8_t *ctx, size_t ctx_len,
			      const uint8_t *sig)
{
	struct ossl_pq_key *k = pub;
	EVP_PKEY_CTX *pctx;
	OSSL_PARAM params[2] = {
		{ "context-string", OSSL_PARAM_OCTET_STRING, (void *)ctx,
		  ctx_len, OSSL_PARAM_UNMODIFIED },
		{ NULL, 0, NULL, 0, 0 },
	};
	int rc = -1;

	if (ctx_len > 255)	/* FIPS 204 5.3: at most 255 bytes */
		return -1;
	pctx = pq.ctx_new(k->pkey, NULL);
	if (pctx && pq.verify_init(pctx, pq.dsa, ctx_len ? params : NULL) == 1)
		rc = pq.verify(pctx, sig, GUEST_PK_MLDSA_SIG_BYTES, msg,
			       len) == 1 ? 0 : 1;
	if (pctx)
		pq.ctx_free(pctx);
	return rc;
}

/* ML-DSA-65: check SIG (3309 bytes) over the LEN bytes of MSG with PUB,
 * empty context: 0 valid, 1 rejected, -1 no context could be set up. */
static int ossl_pq_verify(void *pub, const uint8_t *msg, size_t len,
			  const uint8_t *sig)
{
	return ossl_pq_verify_ctx(pub, msg, len, NULL, 0, sig);
}

const struct guest_pk_ops guest_pq_openssl = {
	.supports = ossl_pq_supports,
	.key_new = ossl_pq_key_new,
	.pub_new = ossl_pq_pub_new,
	.key_free = ossl_pq_free,
	.public_key = ossl_pq_public,
	.sign = ossl_pq_sign,
	.verify = ossl_pq_verify,
	.encaps = ossl_pq_encaps,
	.decaps = ossl_pq_decaps,
	.dk_new = ossl_pq_dk_new,
	.verify_ctx = ossl_pq_verify_ctx,
};
