/* guest/backend.h - the interface every crypto library backend implements.
 *
 * One backend = one file guest/backend-NAME.c exporting one
 * `const struct guest_backend guest_backend_NAME`, declared below, plus one
 * line in the table in guest/backends.c (and its file in guest/local.mk). A backend
 * never links against its library: load() dlopen()s it by soname, resolves
 * entry points with dlsym() and declares the prototypes and ABI constants it
 * needs itself, so the guest runs wherever libc does and reports a missing
 * library as absent.
 *
 * All lengths are in bytes. Keys, IVs, tags and digests have the sizes given
 * by algo_info() (guest/algo.h).
 *
 * What the timed path (bulk_run) does, for every backend alike:
 *  - GUEST_KIND_CIPHER (ECB, CBC, CTR, stream ciphers): one keyed context
 *    is reused and the buffer is streamed through it, one update call per
 *    call, the chaining state / counter carrying over from call to call,
 *    as `openssl speed -evp` does (EVP_Update_loop). No padding. ChaCha20
 *    and Salsa20 get whole 64-byte keystream blocks only
 *    (algo_stream_block).
 *  - GUEST_KIND_AEAD: every call is one complete AEAD message: reset the
 *    nonce to the context's IV, authenticate GUEST_AEAD_AAD_BYTES of
 *    guest_aead_aad, process the buffer, then produce (encrypt) or check
 *    (decrypt) the tag. The caller gives a valid ciphertext and tag to
 *    decrypt, so every timed decryption authenticates and does the full
 *    work (some libraries skip decryption when the tag is wrong).
 *  - GUEST_KIND_HASH: every call hashes the buffer from scratch into the
 *    digest, on a context reused from call to call where the library
 *    has one (init, update, final).
 *  - every kind: out of place (IN and OUT are different buffers), and
 *    nothing allocated after the context's first call; an AEAD's tag
 *    (AUX) right after the text: OUT + len to encrypt, IN + len to
 *    decrypt (guest/PROTOCOL.md, "Timing modes" and "Buffers").
 *
 * Each backend keeps its own loop over the calls, with the library's entry
 * point called directly in it, although the loops look alike: a loop
 * shared in backends.c would reach the backend through one more indirect
 * call per call, about 1 ns, and one 16-byte AES-128-CBC call takes about
 * 16 ns (1 GB/s) - a 6 % error at the sizes where the fidelity benchmark
 * (tests/bench/fidelity.sh) must stay within 2 % of `openssl speed`.
 */
#ifndef GUEST_BACKEND_H
#define GUEST_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algo.h"

/* What load() reports about the library it found. */
struct guest_lib_info {
	char soname[128];	/* soname that was dlopen()ed */
	char path[1024];	/* resolved file path (inside the rootfs) */
	char version[256];	/* the library's own version string */
	char build_id[96];	/* ELF NT_GNU_BUILD_ID of the file at path,
				 * lowercase hex, "" when it has none; set
				 * by the caller (backend_build_id), not by
				 * load() */
	uint64_t rss_before_load_kib;	/* resident set of the measuring
				 * process before load(), KiB; 0 = unknown;
				 * set by the caller (guest/rusage.h) */
	uint64_t footprint_kib;	/* its resident set right after load()
				 * returned, KiB; 0 = unknown; set by the
				 * caller */
};

/* Arguments of one one-shot operation (known-answer tests, round trips). */
struct guest_oneshot {
	const uint8_t *key;	/* key_bytes; unused for hashes */
	const uint8_t *iv;	/* iv_bytes; unused for hashes */
	const uint8_t *aad;	/* AEAD only; may be NULL when aad_bytes == 0 */
	size_t aad_bytes;
	const uint8_t *in;	/* len bytes of input */
	size_t len;
	uint8_t *out;		/* len bytes (ciphers) or digest_bytes
				 * (hashes); may equal in for ciphers */
	uint8_t *tag;		/* AEAD: tag_bytes, written by encrypt, read
				 * (expected tag) by decrypt; else unused */
};

/* Public-key algorithms, in the order of lib/pubkey-table.h
 * (guest/PROTOCOL.md, "Public key"). */
enum guest_pk_algo {
	GUEST_PK_X25519,	/* RFC 7748: 32-byte scalars and u-coordinates */
	GUEST_PK_X448,		/* RFC 7748: 56-byte scalars, u-coordinates
				 * and shared secrets */
	GUEST_PK_ED25519,	/* RFC 8032 5.1: 32-byte seeds and public
				 * keys, 64-byte signatures */
	GUEST_PK_ECDH_P256,	/* ECDH on NIST P-256 (SEC 1 3.3.1): 32-byte
				 * big-endian private scalars, 65-byte
				 * uncompressed public points (0x04 || X ||
				 * Y), the shared secret X (32 bytes) */
	GUEST_PK_ECDSA_P256,	/* ECDSA on P-256 with SHA-256 (FIPS 186-4
				 * 6): keys as ECDH's, signatures raw r || s
				 * (32 bytes each, big-endian) */
	GUEST_PK_RSA_2048,	/* RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017
				 * 8.2), the fixed 2048-bit test key of
				 * guest/rsa-keys.c: public keys the
				 * modulus (256 bytes, e = 65537),
				 * signatures 256 bytes */
	GUEST_PK_RSA_3072,	/* the same with the 3072-bit test key: 384
				 * bytes */
	GUEST_PK_RSA_PSS_2048,	/* RSASSA-PSS (RFC 8017 8.1) with SHA-256,
				 * MGF1-SHA-256 and a 32-byte salt, the
				 * 2048-bit key of GUEST_PK_RSA_2048 */
	GUEST_PK_ML_KEM_768,	/* ML-KEM-768 (FIPS 203): keys from the
				 * 64-byte seed d || z (KeyGen_internal),
				 * 1184-byte encapsulation keys, 1088-byte
				 * ciphertexts, 32-byte shared secrets */
	GUEST_PK_ML_DSA_65,	/* ML-DSA-65 (FIPS 204, pure, empty
				 * context): keys from the 32-byte seed xi
				 * (KeyGen_internal), 1952-byte public keys,
				 * 3309-byte signatures */
	GUEST_PK_COUNT
};

/* Sizes of the public-key algorithms' values, bytes. */
#define GUEST_PK_KEY_BYTES 32	/* private scalar / seed; X25519 and
				 * Ed25519 public key; every shared
				 * secret but X448's */
#define GUEST_PK_X448_BYTES 56	/* X448 scalar, u-coordinate and shared
				 * secret */
#define GUEST_PK_SECRET_MAX 56	/* the largest shared secret (X448) */
#define GUEST_PK_SIG_BYTES 64	/* Ed25519 signature; ECDSA P-256 r || s */
#define GUEST_PK_P256_PUB_BYTES 65	/* uncompressed P-256 point */
#define GUEST_PK_RSA2048_BYTES 256	/* RSA-2048 modulus and signature */
#define GUEST_PK_RSA3072_BYTES 384	/* RSA-3072 modulus and signature */
#define GUEST_PK_MLKEM_SEED_BYTES 64	/* ML-KEM d || z */
#define GUEST_PK_MLKEM_EK_BYTES 1184	/* ML-KEM-768 encapsulation key */
#define GUEST_PK_MLKEM_CT_BYTES 1088	/* ML-KEM-768 ciphertext */
#define GUEST_PK_MLKEM_DK_BYTES 2400	/* ML-KEM-768 decapsulation key,
					 * FIPS 203's encoding */
#define GUEST_PK_MLDSA_PUB_BYTES 1952	/* ML-DSA-65 public key */
#define GUEST_PK_MLDSA_SIG_BYTES 3309	/* ML-DSA-65 signature */
#define GUEST_PK_PUB_MAX 1952	/* the largest public key (ML-DSA-65) */
#define GUEST_PK_PRIV_MAX 64	/* the largest private key / seed */
#define GUEST_PK_SIG_MAX 3309	/* the largest signature (ML-DSA-65) */
#define GUEST_PK_OUT_MAX 3309	/* the largest output a timed path
				 * keeps: a signature, or an ML-KEM
				 * ciphertext and its shared secret */

/* Is ALGO one of the RSA signatures (fixed keys, guest/rsa-keys.h)? */
static inline bool guest_pk_is_rsa(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_RSA_2048 || algo == GUEST_PK_RSA_3072 ||
	       algo == GUEST_PK_RSA_PSS_2048;
}

/* The bytes of a public key of ALGO: 32 (X25519, Ed25519), 56 (X448),
 * 65 (the P-256 algorithms), the RSA modulus (256, 384), 1184
 * (ML-KEM-768) or 1952 (ML-DSA-65). */
static inline size_t guest_pk_pub_bytes(enum guest_pk_algo algo)
{
	switch (algo) {
	case GUEST_PK_X448:
		return GUEST_PK_X448_BYTES;
	case GUEST_PK_ECDH_P256:
	case GUEST_PK_ECDSA_P256:
		return GUEST_PK_P256_PUB_BYTES;
	case GUEST_PK_RSA_2048:
	case GUEST_PK_RSA_PSS_2048:
		return GUEST_PK_RSA2048_BYTES;
	case GUEST_PK_RSA_3072:
		return GUEST_PK_RSA3072_BYTES;
	case GUEST_PK_ML_KEM_768:
		return GUEST_PK_MLKEM_EK_BYTES;
	case GUEST_PK_ML_DSA_65:
		return GUEST_PK_MLDSA_PUB_BYTES;
	default:
		return GUEST_PK_KEY_BYTES;
	}
}

/* The bytes of the private key (seed) key_new takes for ALGO: 64
 * (ML-KEM-768's d || z), 56 (X448's scalar), else 32 (RSA: not read). */
static inline size_t guest_pk_priv_bytes(enum guest_pk_algo algo)
{
	if (algo == GUEST_PK_X448)
		return GUEST_PK_X448_BYTES;
	return algo == GUEST_PK_ML_KEM_768 ? GUEST_PK_MLKEM_SEED_BYTES
					   : GUEST_PK_KEY_BYTES;
}

/* The bytes of the shared secret of key agreement or KEM ALGO (derive,
 * encaps, decaps): 56 for X448, else 32. */
static inline size_t guest_pk_secret_bytes(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X448 ? GUEST_PK_X448_BYTES : GUEST_PK_KEY_BYTES;
}

/* Is ALGO a key encapsulation mechanism (encaps, decaps)? */
static inline bool guest_pk_is_kem(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ML_KEM_768;
}

/* Is ALGO post-quantum (guest_backend's pq operations)? */
static inline bool guest_pk_is_pq(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ML_KEM_768 || algo == GUEST_PK_ML_DSA_65;
}

/* The bytes of a signature of signature algorithm ALGO: 64 (Ed25519,
 * ECDSA P-256 r || s), the RSA modulus's (256, 384) or 3309
 * (ML-DSA-65). */
static inline size_t guest_pk_sig_bytes(enum guest_pk_algo algo)
{
	if (algo == GUEST_PK_ML_DSA_65)
		return GUEST_PK_MLDSA_SIG_BYTES;
	return guest_pk_is_rsa(algo) ? guest_pk_pub_bytes(algo)
				     : GUEST_PK_SIG_BYTES;
}

/* Is ALGO a key agreement (derive) rather than a signature (sign,
 * verify)? */
static inline bool guest_pk_is_agreement(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_X25519 || algo == GUEST_PK_X448 ||
	       algo == GUEST_PK_ECDH_P256;
}

/* A backend's public-key operations (optional: NULL in struct
 * guest_backend means every public-key algorithm is unsupported). Keys
 * are opaque objects of the backend, made by key_new or pub_new and
 * released with key_free; the operations never allocate for the caller.
 * The guest calls them through these pointers in its timed loops (one
 * indirect call, about 1 ns, against tens of microseconds per
 * operation). Return values: 0 success, -1 error, and verify 1 for a
 * rejected signature. */
struct guest_pk_ops {
	/* Does the loaded library implement ALGO? */
	bool (*supports)(enum guest_pk_algo algo);
	/* Import a private key of ALGO from its guest_pk_priv_bytes(ALGO)
	 * raw bytes PRIV (X25519, X448: the scalar, RFC 7748 5; Ed25519: the
	 * seed, RFC 8032 5.1.5; P-256: the scalar, big-endian, 1 .. n - 1;
	 * ML-KEM-768: the seed d || z, FIPS 203 6.1; ML-DSA-65: the seed xi,
	 * FIPS 204 6.1), with whatever the library derives at import
	 * (Ed25519, P-256: the public key; ML-KEM, ML-DSA: the whole key
	 * pair, which is their key generation).
	 * RSA: PRIV is not read; the key is ALGO's fixed test key
	 * (guest/rsa-keys.h), imported from its components.
	 * Returns the key (caller owns: key_free) or NULL. */
	void *(*key_new)(enum guest_pk_algo algo, const uint8_t *priv);
	/* Import a public key of a signature algorithm or a KEM
	 * (guest_pk_pub_bytes(ALGO) bytes of PUB) for verify or encaps. Returns the
	 * key (caller owns: key_free) or NULL. */
	void *(*pub_new)(enum guest_pk_algo algo, const uint8_t *pub);
	/* Release a key from key_new or pub_new; NULL is ignored. */
	void (*key_free)(void *key);
	/* The public key of private KEY (guest_pk_pub_bytes of its algorithm
	 * into PUB). */
	int (*public_key)(void *key, uint8_t *pub);
	/* Key agreement: the shared secret (guest_pk_secret_bytes: 32,
	 * X448 56) of private KEY and the peer's raw public key PEER
	 * (guest_pk_pub_bytes) into OUT, as an application does for a new
	 * peer: the peer's key is taken raw in every call. */
	int (*derive)(void *key, const uint8_t *peer, uint8_t *out);
	/* Signatures: sign the LEN bytes of MSG with private KEY into SIG
	 * (guest_pk_sig_bytes of its algorithm; ECDSA and RSA hash MSG with
	 * SHA-256 themselves). */
	int (*sign)(void *key, const uint8_t *msg, size_t len, uint8_t *sig);
	/* Signatures: check SIG (guest_pk_sig_bytes) over the LEN bytes of
	 * MSG with public key PUB (from pub_new): 0 valid, 1 rejected. */
	int (*verify)(void *pub, const uint8_t *msg, size_t len,
		      const uint8_t *sig);
	/* Optional (NULL: not timed), RSA: generate a new key pair of
	 * ALGO's size (guest_pk_pub_bytes x 8 bits, e = 65537) with the
	 * library's own generator, as an application asks for one, write its
	 * modulus (guest_pk_pub_bytes of ALGO, big-endian) into N and release
	 * it. Takes tens to hundreds of ms. Returns 0, or -1 on an error. */
	int (*keygen)(enum guest_pk_algo algo, uint8_t *n);
	/* KEMs only (NULL elsewhere): encapsulate to public key PUB (from
	 * pub_new) with the library's own randomness, the ciphertext
	 * (GUEST_PK_MLKEM_CT_BYTES) into CT and the shared secret
	 * (GUEST_PK_KEY_BYTES) into SS. */
	int (*encaps)(void *pub, uint8_t *ct, uint8_t *ss);
	/* KEMs only: decapsulate the ciphertext CT with private KEY into SS
	 * (GUEST_PK_KEY_BYTES); an invalid ciphertext gives ML-KEM's
	 * implicit rejection secret and success, as FIPS 203 says. */
	int (*decaps)(void *key, const uint8_t *ct, uint8_t *ss);
	/* Optional (NULL: a decapsulation known answer fails), KEMs: import
	 * the private key of ALGO from its FIPS 203 decapsulation key DK
	 * (GUEST_PK_MLKEM_DK_BYTES: dk_PKE || ek || H(ek) || z, as NIST's
	 * test vectors give it), for decaps. Returns the key (caller owns:
	 * key_free) or NULL. */
	void *(*dk_new)(enum guest_pk_algo algo, const uint8_t *dk);
	/* Optional (NULL: a known answer with a context fails), ML-DSA:
	 * verify as verify does, with the FIPS 204 context string CTX
	 * (CTX_LEN bytes, 0 .. 255) in place of the empty one. */
	int (*verify_ctx)(void *pub, const uint8_t *msg, size_t len,
			  const uint8_t *ctx, size_t ctx_len,
			  const uint8_t *sig);
};

/* Key derivation functions, in the order of lib/kdf-table.h
 * (guest/PROTOCOL.md, "Key derivation"). */
enum guest_kdf_algo {
	GUEST_KDF_PBKDF2_SHA256,	/* RFC 8018 5.2 with HMAC-SHA-256 */
	GUEST_KDF_HKDF_SHA256,		/* RFC 5869, extract then expand */
	GUEST_KDF_SCRYPT,		/* RFC 7914 */
	GUEST_KDF_ARGON2ID,		/* RFC 9106, version 0x13 */
	GUEST_KDF_COUNT
};

/* The inputs of one derivation; lengths in bytes. Which members an
 * algorithm reads: PBKDF2 pass, salt, cost (c); HKDF pass (the input
 * keying material), salt, info; scrypt pass, salt, cost (N), block (r),
 * lanes (p); Argon2id pass, salt, secret and ad (both may be empty),
 * cost (t), memory_kib (m), lanes (p). */
struct guest_kdf_input {
	const uint8_t *pass;
	size_t pass_bytes;
	const uint8_t *salt;
	size_t salt_bytes;
	const uint8_t *info;		/* HKDF */
	size_t info_bytes;
	const uint8_t *secret;		/* Argon2 K */
	size_t secret_bytes;
	const uint8_t *ad;		/* Argon2 X */
	size_t ad_bytes;
	uint64_t cost;			/* iterations / N / passes */
	uint32_t block;			/* scrypt r */
	uint32_t memory_kib;		/* Argon2 m, KiB */
	uint32_t lanes;			/* scrypt or Argon2 p */
	size_t out_bytes;		/* the derived key's length */
};

/* A backend's key derivation functions (optional: NULL in struct
 * guest_backend means every KDF is unsupported). */
struct guest_kdf_ops {
	/* Does the loaded library implement ALGO? */
	bool (*supports)(enum guest_kdf_algo algo);
	/* One complete derivation of ALGO from IN into OUT (in->out_bytes),
	 * as an application makes it (whatever the library's API sets up
	 * per derivation included). Returns 0, 1 when the library's API
	 * cannot take these inputs (e.g. an Argon2 secret, a scrypt r
	 * other than 8) and nothing was derived, -1 on an error. Allocates
	 * nothing that outlives the call. */
	int (*derive)(enum guest_kdf_algo algo,
		      const struct guest_kdf_input *in, uint8_t *out);
};

/* Return values of load(). */
enum guest_load {
	GUEST_LOAD_OK = 0,	/* loaded, info filled */
	GUEST_LOAD_ABSENT = 1,	/* no such library in this rootfs */
	GUEST_LOAD_BROKEN = -1	/* found but unusable; reason in why */
};

struct guest_backend {
	/* Short library name used on the command line and in the protocol,
	 * e.g. "openssl". */
	const char *name;

	/* Find and load the library: dlopen() its sonames in order of
	 * preference and resolve every entry point. Fills *info on success.
	 * On GUEST_LOAD_ABSENT / _BROKEN writes a NUL-terminated reason of at
	 * most why_bytes bytes (including the NUL) to why. Called once. */
	enum guest_load (*load)(struct guest_lib_info *info, char *why,
				size_t why_bytes);

	/* Does the loaded library implement ALGO? False is reported as
	 * `unsupported`, never as a failure. */
	bool (*supports)(enum guest_algo algo);

	/* Optional: NULL unless the library has a dedicated one-shot API that
	 * is cheaper than its context API (the backend says why). One
	 * complete operation OP of ALGO with fresh state, as described by io
	 * (see struct guest_oneshot). Returns 0 on success, 1 when an AEAD
	 * decryption is rejected because the tag does not match, -1 on any
	 * other error. Callers use backend_oneshot(), which falls back to the
	 * generic one-shot built on bulk_new, bulk_run / aead and bulk_free. */
	int (*oneshot)(enum guest_algo algo, enum guest_op op,
		       const struct guest_oneshot *io);

	/* Create the reusable context of the timed path for OP of ALGO, keyed
	 * with KEY (key_bytes) and IV (iv_bytes); both unused for hashes.
	 * Returns an opaque context owned by the caller, to be released with
	 * bulk_free(), or NULL on error. */
	void *(*bulk_new)(enum guest_algo algo, enum guest_op op,
			  const uint8_t *key, const uint8_t *iv);

	/* The timed path: CALLS (>= 1) calls on len-byte buffers, as described
	 * at the top of this file. IN and OUT are len bytes and may be the same
	 * buffer; hashes leave OUT alone (it may be NULL then). AUX: AEAD
	 * encrypt writes the tag of the last call there, AEAD decrypt reads
	 * the expected tag from there, hashes write the digest of the last
	 * call there (GUEST_MAX_DIGEST bytes available); unused by ciphers.
	 * Returns 0 when every call succeeded, -1 otherwise (including a
	 * rejected tag). */
	int (*bulk_run)(void *ctx, const uint8_t *in, uint8_t *out, size_t len,
			uint64_t calls, uint8_t *aux);

	/* Required when the backend supports any AEAD (NULL otherwise). One
	 * complete AEAD message on CTX, a context from bulk_new() for an AEAD:
	 * nonce reset to the context's IV, AAD_BYTES of AAD (may be 0 and AAD
	 * NULL), LEN bytes IN -> OUT (may be the same buffer), then the tag
	 * written to TAG (encrypt) or checked against TAG (decrypt), tag_bytes.
	 * The same work as one bulk_run call, with the caller's AAD. Returns 0,
	 * 1 when decryption rejects the tag, -1 on any other error. */
	int (*aead)(void *ctx, const uint8_t *aad, size_t aad_bytes,
		    const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag);

	/* Release a context from bulk_new(); NULL is ignored. */
	void (*bulk_free)(void *ctx);

	/* Optional (NULL: key setup is not timed in this library). Key setup
	 * alone, for ciphers: CALLS (>= 1) times set KEY (key_bytes) and IV
	 * (iv_bytes; unused when 0) on CTX, a context from bulk_new() for the
	 * same algorithm and operation, as the library's API does it for a
	 * fresh message with a new key (key schedule, and whatever state the
	 * library derives from the key). CTX stays usable. Returns 0, 1 when
	 * the library's API has no key setup separate from processing for
	 * this algorithm (nothing is timed then), or -1 on any error. */
	int (*rekey)(void *ctx, const uint8_t *key, const uint8_t *iv,
		     uint64_t calls);

	/* Optional (NULL: no public-key algorithm): the public-key
	 * operations (struct guest_pk_ops), usable after load(). */
	const struct guest_pk_ops *pk;

	/* Optional (NULL: no key derivation function): the KDFs (struct
	 * guest_kdf_ops), usable after load(). */
	const struct guest_kdf_ops *kdf;
	/* Optional (NULL: no P-256 algorithm): the operations of ECDH and
	 * ECDSA on P-256 (GUEST_PK_ECDH_P256, GUEST_PK_ECDSA_P256), with
	 * keys of their own, usable after load(); guest_pk_ops_of picks. */
	const struct guest_pk_ops *ec;
	/* Optional (NULL: no RSA): the operations of the RSA signatures
	 * (guest_pk_is_rsa), usable after load(); guest_pk_ops_of picks. */
	const struct guest_pk_ops *rsa;
	/* Optional (NULL: no post-quantum algorithm): the operations of
	 * ML-KEM-768 and ML-DSA-65 (GUEST_PK_ML_KEM_768, GUEST_PK_ML_DSA_65),
	 * usable after load(); guest_pk_ops_of picks. */
	const struct guest_pk_ops *pq;
};

/* The operations of B that handle ALGO: B->ec for the P-256
 * algorithms, B->rsa for RSA, B->pq for the post-quantum ones, else
 * B->pk (any may be NULL: unsupported). */
static inline const struct guest_pk_ops *
guest_pk_ops_of(const struct guest_backend *b, enum guest_pk_algo algo)
{
	if (guest_pk_is_rsa(algo))
		return b->rsa;
	if (guest_pk_is_pq(algo))
		return b->pq;
	return algo == GUEST_PK_ECDH_P256 || algo == GUEST_PK_ECDSA_P256 ?
	       b->ec : b->pk;
}

/* Set by main() before any library is loaded when the run masks hardware
 * acceleration (--nohw): backends whose library has an API switch for it
 * (rather than an environment variable, which main() sets) use it in
 * load(). */
extern bool guest_nohw;

/* The backends: one per guest/backend-NAME.c, listed in guest/backends.c. */
extern const struct guest_backend guest_backend_openssl;
extern const struct guest_backend guest_backend_libgcrypt;
extern const struct guest_backend guest_backend_nettle;
extern const struct guest_backend guest_backend_libsodium;
extern const struct guest_backend guest_backend_mbedtls;
extern const struct guest_backend guest_backend_gnutls;
extern const struct guest_backend guest_backend_wolfssl;
extern const struct guest_backend guest_backend_botan;
extern const struct guest_backend guest_backend_libtomcrypt;
extern const struct guest_backend guest_backend_libmcrypt;

/* The backends compiled into this guest, in default order. Sets *count;
 * the array has static storage. */
const struct guest_backend *const *guest_backends(size_t *count);

/* The backend named NAME, or NULL if there is none. */
const struct guest_backend *guest_backend_by_name(const char *name);

/* Most rebuilt libraries a run takes (--build), and the longest
 * directory a build's files are in, bytes with the NUL. */
#define GUEST_MAX_BUILDS 8
#define GUEST_BUILD_DIR_MAX 256

/* A rebuilt library (--build NAME=LIBRARY:DIR, guest/PROTOCOL.md
 * "Builds"): a new backend that is BASE in every operation but its
 * name, "LIBRARY@NAME" (BASE->name, '@', NAME), and that loads BASE's
 * sonames from the directory DIR (an absolute path) instead of the
 * loader's search path; the libraries they need come from the rootfs
 * as usual. NAME is [a-z0-9._-], the whole name at most 64 bytes; DIR
 * shorter than GUEST_BUILD_DIR_MAX. Returns the backend (static
 * storage, one of GUEST_MAX_BUILDS, lives as long as the process), or
 * NULL with a message of at most WHY_BYTES bytes in WHY (invalid NAME
 * or DIR, too many builds). With NAME NULL the build takes BASE's place
 * under BASE's own name (--replace: a duet of a build against the
 * library the distribution ships). */
const struct guest_backend *guest_backend_build(const struct guest_backend *base,
						const char *name,
						const char *dir, char *why,
						size_t why_bytes);

/* Load backend B's library (B->load) into INFO, WHY as for load(): a
 * build's (guest_backend_build) from its directory, any other from the
 * loader's search path. Every load goes through here. */
enum guest_load backend_load(const struct guest_backend *b,
			     struct guest_lib_info *info, char *why,
			     size_t why_bytes);

/* One complete operation OP of ALGO in B with fresh state, as described by
 * io (struct guest_oneshot): B's own oneshot() when it has one, else the
 * generic one-shot on B's bulk operations - bulk_new() (context, key, IV),
 * one bulk_run() call (ciphers, hashes) or one aead() message (AEADs, with
 * io's AAD), bulk_free() - so that a one-shot pays for everything an
 * application pays for one message with a new key. Hashes write
 * digest_bytes to io->out. Returns 0, 1 when an AEAD decryption rejects
 * the tag, -1 on any other error (also: ALGO unsupported, OP not one of
 * ALGO's operations). */
int backend_oneshot(const struct guest_backend *b, enum guest_algo algo,
		    enum guest_op op, const struct guest_oneshot *io);

/* Helpers for backends (guest/backends.c). */

/* Is OP an operation of ALGO (GUEST_OP_HASH for hashes, encrypt or decrypt
 * for ciphers)? */
bool backend_op_fits(enum guest_algo algo, enum guest_op op);

/* The timed-path context of a library whose API hands out one opaque
 * handle per keyed use (OpenSSL's EVP_CIPHER_CTX, libgcrypt's
 * gcry_cipher_hd_t, GnuTLS's cipher handles, Botan's objects, libmcrypt's
 * MCRYPT, ...): created by backend_hctx_new(), released by
 * backend_hctx_free(), which a backend can use as its bulk_free. */
struct backend_hctx {
	enum guest_algo algo;
	enum guest_op op;
	uint8_t iv[GUEST_MAX_IV];	/* the IV it was keyed with (AEADs: the
					 * nonce, reset per message) */
	uint8_t key[GUEST_MAX_KEY];	/* the key, for APIs that take it per
					 * message; set by the backend */
	void *handle;			/* the library's handle; NULL until the
					 * backend sets it (and for hashes
					 * without one) */
	void (*release)(void *handle);	/* frees handle; may be NULL */
	uint8_t *buf;			/* scratch owned by the context
					 * (backend_hctx_buf), or NULL */
	size_t buf_bytes;
};

/* A zeroed context for OP of ALGO with IV (iv_bytes of algo_info(ALGO);
 * NULL or ignored for hashes) copied in and RELEASE recorded; handle NULL.
 * Returns NULL when OP does not fit ALGO or on out of memory. The caller
 * owns it: backend_hctx_free(). */
struct backend_hctx *backend_hctx_new(enum guest_algo algo, enum guest_op op,
				      const uint8_t *iv,
				      void (*release)(void *handle));

/* Release CTX (a struct backend_hctx *; NULL is ignored): release(handle)
 * when both are set, then its scratch buffer and the context itself. */
void backend_hctx_free(void *ctx);

/* C's scratch buffer, grown to at least BYTES bytes (contents not kept
 * when it grows). Owned by C. Returns NULL on out of memory. */
uint8_t *backend_hctx_buf(struct backend_hctx *c, size_t bytes);

/* Resolve the file a loaded library was mapped from: dladdr() on ADDR (any
 * symbol of that library), then realpath(). Writes a NUL-terminated path of
 * at most out_bytes bytes to out; on failure writes "". */
void backend_lib_path(const void *addr, char *out, size_t out_bytes);

/* The ELF build-id (NT_GNU_BUILD_ID note) of the shared object PATH, read
 * from the file's program headers (64-bit little-endian ELF only), as
 * lowercase hex into OUT (NUL-terminated, at most out_bytes bytes; 20-byte
 * SHA-1 ids need 41). Writes "" when PATH has no build-id or cannot be
 * read. */
void backend_build_id(const char *path, char *out, size_t out_bytes);

/* dlopen() the first of the N sonames in SONAMES that loads (RTLD_NOW |
 * RTLD_LOCAL); while backend_load() loads a build, the file of that name
 * in the build's directory instead. Returns the handle and sets *which to its index, or returns
 * NULL with why (why_bytes bytes, NUL-terminated) holding, for each soname
 * whose file exists but could not be loaded (a dependency missing or
 * broken, an undefined symbol, a bad ELF file), "cannot load SONAME: " and
 * the loader's message, joined by "; "; why is "" when no soname has a
 * file at all (the library is absent). */
void *backend_dlopen(const char *const *sonames, size_t n, size_t *which,
		     char *why, size_t why_bytes);

/* What load() returns after backend_dlopen() gave NULL with WHY:
 * GUEST_LOAD_ABSENT when WHY is "" (no soname file exists), else
 * GUEST_LOAD_BROKEN (present but not loadable; WHY says why). */
enum guest_load backend_not_loaded(const char *why);

/* dlsym NAME in HANDLE into *SLOT, a function pointer variable of any
 * type (written through memcpy, as POSIX allows). Returns 0 if found, -1
 * (slot set to NULL) if not. */
int backend_sym(void *handle, void *slot, const char *name);

/* One entry point a backend needs: SLOT is the address of the function
 * pointer variable to fill, NAME the symbol to resolve into it. */
struct backend_symbol {
	void *slot;
	const char *name;
};

/* Resolve each of the N symbols of SYMS in HANDLE with backend_sym().
 * Returns 0 when every one was found; else -1 with "missing symbol NAME"
 * (the first one missing; NUL-terminated, at most why_bytes bytes) in
 * why. */
int backend_require(void *handle, const struct backend_symbol *syms,
		    size_t n, char *why, size_t why_bytes);

/* Copy SRC (may be NULL: "") into OUT as a NUL-terminated string of at most
 * out_bytes bytes, truncating. */
void backend_copy(char *out, size_t out_bytes, const char *src);

#endif /* GUEST_BACKEND_H */
