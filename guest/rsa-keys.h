/* guest/rsa-keys.h - the fixed RSA test keys (2048 and 3072 bits, e =
 * 65537) of the RSA public-key algorithms (guest/PROTOCOL.md, "Public
 * key"), their known-answer signatures of the run's 64-byte message, and
 * the DER forms (RFC 8017 A.1) that some libraries import. Data and
 * byte shuffling only: no library calls. Made with OpenSSL, how is told
 * in rsa-keys.c; test keys only. */
#ifndef GUEST_RSA_KEYS_H
#define GUEST_RSA_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* One key pair: every value big-endian and unsigned, N, D and the
 * signatures BYTES long, the CRT values (P, Q, DP, DQ, QINV) BYTES / 2
 * long, leading zeros kept. Static, read-only. */
struct rsa_test_key {
	unsigned bits;			/* 2048 or 3072 */
	size_t bytes;			/* of the modulus: 256 or 384 */
	const uint8_t *n, *e;		/* the public key */
	size_t e_bytes;			/* 3 (65537) */
	const uint8_t *d, *p, *q, *dp, *dq, *qinv;
	const uint8_t *sig_pkcs1;	/* RSASSA-PKCS1-v1_5 / SHA-256 of the
					 * message (the only one there is) */
	const uint8_t *sig_pss;		/* RSASSA-PSS / SHA-256 / MGF1-SHA-256,
					 * salt 32, of the message (one of
					 * many); NULL but for 2048 bits */
};

/* The test key of RSA algorithm ALGO (GUEST_PK_RSA_2048 and
 * GUEST_PK_RSA_PSS_2048 share one), or NULL for any other algorithm. */
const struct rsa_test_key *rsa_test_key_of(enum guest_pk_algo algo);

/* The DER prefix of a SHA-256 DigestInfo (RFC 8017 9.2, note 1): a
 * PKCS#1 v1.5 signature pads these 19 bytes and the 32-byte hash. */
#define RSA_SHA256_DIGESTINFO_BYTES 19
extern const uint8_t rsa_sha256_digestinfo[RSA_SHA256_DIGESTINFO_BYTES];

/* Room for the DER of a private key of up to 3072 bits, bytes. */
#define RSA_DER_PRIVATE_MAX 1800
/* Room for the DER of a public key of up to 3072 bits, bytes. */
#define RSA_DER_PUBLIC_MAX 400

/* The DER RSAPrivateKey (RFC 8017 A.1.2, version 0) of K into OUT (CAP
 * bytes). Returns its length, or 0 when CAP is too small. */
size_t rsa_der_private(const struct rsa_test_key *k, uint8_t *out, size_t cap);

/* The DER RSAPublicKey (RFC 8017 A.1.1) of the modulus N (BYTES) and the
 * exponent E (E_BYTES), big-endian, into OUT (CAP bytes). Returns its
 * length, or 0 when CAP is too small. */
size_t rsa_der_public(const uint8_t *n, size_t bytes, const uint8_t *e,
		      size_t e_bytes, uint8_t *out, size_t cap);

#endif /* GUEST_RSA_KEYS_H */
