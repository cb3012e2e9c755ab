/* guest/backend-mbedtls-ec.c - ECDH and ECDSA on P-256 in Mbed TLS
 * through its ECP, ECDH and ECDSA modules (ecp.h, ecdh.h, ecdsa.h,
 * bignum.h), the same calls in 2.28 (Debian bookworm) and 3.6.
 *
 * import: the group MBEDTLS_ECP_DP_SECP256R1 loaded, the scalar read
 * (mbedtls_mpi_read_binary, big-endian) and checked
 * (mbedtls_ecp_check_privkey), the public point computed (mbedtls_ecp_mul
 * with the generator read from its encoding, SEC 2 2.4.2, rather than
 * taken from the group's G, whose offset differs between versions).
 * derive: the peer's raw point read in every call
 * (mbedtls_ecp_point_read_binary), then mbedtls_ecdh_compute_shared
 * (whose multiplication checks that the point is on the curve), the
 * secret written big-endian. sign: SHA-256 of the message
 * (mbedtls_sha256_ret in 2.28, mbedtls_sha256 in 3.x), then
 * mbedtls_ecdsa_sign_det_ext - RFC 6979's deterministic nonce, the
 * signing Mbed TLS offers without a caller's generator for the nonce;
 * verify: mbedtls_ecdsa_verify. The digest's id is asked of the library
 * (mbedtls_md_info_from_string "SHA256", mbedtls_md_get_type): its enum
 * changed in 3.x.
 *
 * The multiplications' blinding takes a random generator: a key here
 * hands them a deterministic xorshift64* stream, as
 * backend-mbedtls-pk.c does (the blinding never changes a result).
 * Structures are given far more room than they need and their fields
 * never read, as there. Prototypes restate Mbed TLS 2.28.3's headers
 * (unchanged in 3.6). Constants: MBEDTLS_ECP_DP_SECP256R1 = 3 (ecp.h),
 * MBEDTLS_ECP_PF_UNCOMPRESSED = 0, MBEDTLS_ERR_ECP_VERIFY_FAILED =
 * -0x4E00. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include "backend-pk.h"

#define MB_ECP_DP_SECP256R1 3	/* <mbedtls/ecp.h> */
#define MB_ECP_PF_UNCOMPRESSED 0	/* <mbedtls/ecp.h> */
#define MB_ERR_ECP_VERIFY_FAILED (-0x4E00)	/* <mbedtls/ecp.h> */

/* Bytes given to each caller-allocated Mbed TLS structure. */
#define GRP_BYTES 1024
#define POINT_BYTES 256
#define MPI_BYTES 128

/* SEC 2 2.4.2: the generator of secp256r1, uncompressed. */
static const unsigned char generator[GUEST_PK_P256_PUB_BYTES] = {
	0x04,
	0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6,
	0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb,
	0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
	0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb,
	0x4a, 0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31,
	0x5e, 0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
};

typedef int (*mb_rng)(void *p_rng, unsigned char *out, size_t len);

static struct {
	void (*group_init)(void *grp);
	void (*group_free)(void *grp);
	int (*group_load)(void *grp, int id);
	void (*point_init)(void *pt);
	void (*point_free)(void *pt);
	int (*point_read_binary)(const void *grp, void *pt,
				 const unsigned char *buf, size_t ilen);
	int (*point_write_binary)(const void *grp, const void *pt, int format,
				  size_t *olen, unsigned char *buf,
				  size_t buflen);
	int (*check_privkey)(const void *grp, const void *d);
	int (*ecp_mul)(void *grp, void *r, const void *m, const void *p,
		       mb_rng f_rng, void *p_rng);
	int (*compute_shared)(void *grp, void *z, const void *q, const void *d,
			      mb_rng f_rng, void *p_rng);
	void (*mpi_init)(void *x);
	void (*mpi_free)(void *x);
	int (*mpi_read_binary)(void *x, const unsigned char *buf,
			       size_t buflen);
	int (*mpi_write_binary)(const void *x, unsigned char *buf,
				size_t buflen);
	int (*sha256)(const unsigned char *in, size_t ilen,
		      unsigned char *out, int is224);
	const void *(*md_from_string)(const char *name);
	int (*md_get_type)(const void *info);
	int (*sign_det_ext)(void *grp, void *r, void *s, const void *d,
			    const unsigned char *buf, size_t blen, int md_alg,
			    mb_rng f_rng_blind, void *p_rng_blind);
	int (*verify)(void *grp, const unsigned char *buf, size_t blen,
		      const void *q, const void *r, const void *s);
	int md_sha256;		/* MBEDTLS_MD_SHA256 of the loaded version */
	bool ecdh, ecdsa;
} pk;

/* A key: its group, scalar d (a private key's), public point q, a point
 * for the peer's key (and, at import, the generator), the bignums z
 * (shared secret), r and s, the public point's bytes and the generator's
 * state. */
struct mb_ec_key {
	_Alignas(16) unsigned char grp[GRP_BYTES];
	_Alignas(16) unsigned char d[MPI_BYTES];
	_Alignas(16) unsigned char q[POINT_BYTES];
	_Alignas(16) unsigned char peer[POINT_BYTES];
	_Alignas(16) unsigned char z[MPI_BYTES];
	_Alignas(16) unsigned char r[MPI_BYTES];
	_Alignas(16) unsigned char s[MPI_BYTES];
	uint8_t pub[GUEST_PK_P256_PUB_BYTES];
	uint64_t rng;
	bool inited, priv;
};

/* Resolve the entry points in HANDLE (libmbedcrypto, loaded by
 * backend-mbedtls.c); each algorithm is supported when its entry points
 * are there and the library has P-256 (a trial group load). */
void guest_ec_mbedtls_load(void *handle)
{
	const struct backend_symbol common[] = {
		{ &pk.group_init, "mbedtls_ecp_group_init" },
		{ &pk.group_free, "mbedtls_ecp_group_free" },
		{ &pk.group_load, "mbedtls_ecp_group_load" },
		{ &pk.point_init, "mbedtls_ecp_point_init" },
		{ &pk.point_free, "mbedtls_ecp_point_free" },
		{ &pk.point_read_binary, "mbedtls_ecp_point_read_binary" },
		{ &pk.point_write_binary, "mbedtls_ecp_point_write_binary" },
		{ &pk.check_privkey, "mbedtls_ecp_check_privkey" },
		{ &pk.ecp_mul, "mbedtls_ecp_mul" },
		{ &pk.mpi_init, "mbedtls_mpi_init" },
		{ &pk.mpi_free, "mbedtls_mpi_free" },
		{ &pk.mpi_read_binary, "mbedtls_mpi_read_binary" },
		{ &pk.mpi_write_binary, "mbedtls_mpi_write_binary" },
	};
	const struct backend_symbol sig[] = {
		{ &pk.md_from_string, "mbedtls_md_info_from_string" },
		{ &pk.md_get_type, "mbedtls_md_get_type" },
		{ &pk.sign_det_ext, "mbedtls_ecdsa_sign_det_ext" },
		{ &pk.verify, "mbedtls_ecdsa_verify" },
	};
	_Alignas(16) unsigned char grp[GRP_BYTES];
	const void *md;
	char why[128];
	bool p256;

	pk.ecdh = pk.ecdsa = false;
	if (backend_require(handle, common, sizeof(common) / sizeof(common[0]),
			    why, sizeof(why)) != 0)
		return;
	memset(grp, 0, sizeof(grp));
	pk.group_init(grp);
	p256 = pk.group_load(grp, MB_ECP_DP_SECP256R1) == 0;
	pk.group_free(grp);
	if (!p256)
		return;
	pk.ecdh = backend_sym(handle, &pk.compute_shared,
			      "mbedtls_ecdh_compute_shared") == 0;
	/* 2.28's int-returning SHA-256 is _ret; 3.x renamed it */
	if (backend_sym(handle, &pk.sha256, "mbedtls_sha256_ret") != 0 &&
	    backend_sym(handle, &pk.sha256, "mbedtls_sha256") != 0)
		return;
	pk.ecdsa = backend_require(handle, sig, sizeof(sig) / sizeof(sig[0]),
				   why, sizeof(why)) == 0 &&
		   (md = pk.md_from_string("SHA256")) != NULL;
	if (pk.ecdsa)
		pk.md_sha256 = pk.md_get_type(md);
}

/* struct guest_pk_ops: ECDH and ECDSA on P-256, where resolved. */
static bool mb_ec_supports(enum guest_pk_algo algo)
{
	return algo == GUEST_PK_ECDH_P256 ? pk.ecdh :
	       algo == GUEST_PK_ECDSA_P256 ? pk.ecdsa : false;
}

/* The f_rng of the blinding: LEN bytes of the xorshift64* stream whose
 * state P_RNG (a uint64_t, never 0) points to, into OUT. Always 0. */
static int det_rng(void *p_rng, unsigned char *out, size_t len)
{
	uint64_t *st = p_rng;

	while (len) {
		uint64_t x = *st, r;
		size_t n = len < 8 ? len : 8;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*st = x;
		r = x * UINT64_C(0x2545f4914f6cdd1d);
		memcpy(out, &r, n);
		out += n;
		len -= n;
	}
	return 0;
}

/* Release KEY (struct mb_ec_key, with what Mbed TLS allocated in its
 * structures); NULL is ignored. */
static void mb_ec_free(void *key)
{
	struct mb_ec_key *k = key;

	if (!k)
		return;
	if (k->inited) {
		pk.mpi_free(k->s);
		pk.mpi_free(k->r);
		pk.mpi_free(k->z);
		pk.point_free(k->peer);
		pk.point_free(k->q);
		pk.mpi_free(k->d);
		pk.group_free(k->grp);
	}
	free(k);
}

/* A new key of ALGO, its structures initialised and its group loaded, or
 * NULL. */
static struct mb_ec_key *key_alloc(enum guest_pk_algo algo)
{
	struct mb_ec_key *k;

	if (!mb_ec_supports(algo) || !(k = calloc(1, sizeof(*k))))
		return NULL;
	k->rng = UINT64_C(0x9e3779b97f4a7c15);
	pk.group_init(k->grp);
	pk.mpi_init(k->d);
	pk.point_init(k->q);
	pk.point_init(k->peer);
	pk.mpi_init(k->z);
	pk.mpi_init(k->r);
	pk.mpi_init(k->s);
	k->inited = true;
	if (pk.group_load(k->grp, MB_ECP_DP_SECP256R1) != 0) {
		mb_ec_free(k);
		return NULL;
	}
	return k;
}

/* A private key of ALGO of the 32-byte big-endian scalar PRIV, its
 * public point computed. Returns it (caller owns: mb_ec_free) or NULL
 * when unsupported, out of memory or refused (out of range). */
static void *mb_ec_key_new(enum guest_pk_algo algo, const uint8_t *priv)
{
	struct mb_ec_key *k = key_alloc(algo);
	size_t olen = 0;

	if (!k)
		return NULL;
	k->priv = true;
	if (pk.mpi_read_binary(k->d, priv, GUEST_PK_KEY_BYTES) != 0 ||
	    pk.check_privkey(k->grp, k->d) != 0 ||
	    pk.point_read_binary(k->grp, k->peer, generator,
				 sizeof(generator)) != 0 ||
	    pk.ecp_mul(k->grp, k->q, k->d, k->peer, det_rng, &k->rng) != 0 ||
	    pk.point_write_binary(k->grp, k->q, MB_ECP_PF_UNCOMPRESSED, &olen,
				  k->pub, sizeof(k->pub)) != 0 ||
	    olen != GUEST_PK_P256_PUB_BYTES) {
		mb_ec_free(k);
		return NULL;
	}
	return k;
}

/* An ECDSA public key of the 65-byte point PUB. Returns it (caller
 * owns: mb_ec_free) or NULL when unsupported or refused. */
static void *mb_ec_pub_new(enum guest_pk_algo algo, const uint8_t *pub)
{
	struct mb_ec_key *k;

	if (algo != GUEST_PK_ECDSA_P256 || !(k = key_alloc(algo)))
		return NULL;
	memcpy(k->pub, pub, GUEST_PK_P256_PUB_BYTES);
	if (pk.point_read_binary(k->grp, k->q, pub,
				 GUEST_PK_P256_PUB_BYTES) != 0) {
		mb_ec_free(k);
		return NULL;
	}
	return k;
}

/* The 65-byte public point of KEY into PUB; cannot fail (0). */
static int mb_ec_public(void *key, uint8_t *pub)
{
	memcpy(pub, ((struct mb_ec_key *)key)->pub, GUEST_PK_P256_PUB_BYTES);
	return 0;
}

/* ECDH of KEY and the peer's 65-byte point PEER into OUT (32 bytes,
 * big-endian). Returns 0, or -1 when Mbed TLS refused (a point off the
 * curve among others). */
static int mb_ec_derive(void *key, const uint8_t *peer, uint8_t *out)
{
	struct mb_ec_key *k = key;

	return k->priv &&
	       pk.point_read_binary(k->grp, k->peer, peer,
				    GUEST_PK_P256_PUB_BYTES) == 0 &&
	       pk.compute_shared(k->grp, k->z, k->peer, k->d, det_rng,
				 &k->rng) == 0 &&
	       pk.mpi_write_binary(k->z, out, GUEST_PK_KEY_BYTES) == 0 ? 0 : -1;
}

/* ECDSA: sign the LEN bytes of MSG with KEY into SIG (r || s, RFC
 * 6979's deterministic nonce). Returns 0, or -1 when Mbed TLS failed. */
static int mb_ec_sign(void *key, const uint8_t *msg, size_t len,
		      uint8_t *sig)
{
	struct mb_ec_key *k = key;
	unsigned char digest[32];

	return k->priv && pk.sha256(msg, len, digest, 0) == 0 &&
	       pk.sign_det_ext(k->grp, k->r, k->s, k->d, digest,
			       sizeof(digest), pk.md_sha256, det_rng,
			       &k->rng) == 0 &&
	       pk.mpi_write_binary(k->r, sig, 32) == 0 &&
	       pk.mpi_write_binary(k->s, sig + 32, 32) == 0 ? 0 : -1;
}

/* ECDSA: check SIG (r || s) over the LEN bytes of MSG with public key
 * PUB: 0 valid, 1 rejected (MBEDTLS_ERR_ECP_VERIFY_FAILED, or a bad
 * input), -1 when the hash or the bignums failed. */
static int mb_ec_verify(void *pub, const uint8_t *msg, size_t len,
			const uint8_t *sig)
{
	struct mb_ec_key *k = pub;
	unsigned char digest[32];

	if (pk.sha256(msg, len, digest, 0) != 0 ||
	    pk.mpi_read_binary(k->r, sig, 32) != 0 ||
	    pk.mpi_read_binary(k->s, sig + 32, 32) != 0)
		return -1;
	return pk.verify(k->grp, digest, sizeof(digest), k->q, k->r, k->s) ==
	       0 ? 0 : 1;
}

const struct guest_pk_ops guest_ec_mbedtls = {
	.supports = mb_ec_supports,
	.key_new = mb_ec_key_new,
	.pub_new = mb_ec_pub_new,
	.key_free = mb_ec_free,
	.public_key = mb_ec_public,
	.derive = mb_ec_derive,
	.sign = mb_ec_sign,
	.verify = mb_ec_verify,
};
