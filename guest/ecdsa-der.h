/* guest/ecdsa-der.h - an ECDSA P-256 signature between the guest's raw
 * form (r || s, 32 bytes each, big-endian) and the DER of RFC 3279 2.2.3
 * (SEQUENCE { INTEGER r, INTEGER s }) that OpenSSL, GnuTLS and wolfSSL
 * sign into and verify from. Pure functions, no allocation. */
#ifndef GUEST_ECDSA_DER_H
#define GUEST_ECDSA_DER_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes of a P-256 signature's DER: 2 + 2 × (2 + 33). */
#define ECDSA_P256_DER_MAX 72

/* Encode RS (64 bytes: r || s) as DER into DER (room for
 * ECDSA_P256_DER_MAX bytes). Returns the DER's length. Any 64 bytes
 * encode, zero and out-of-range values included (the verifier rejects
 * them). */
size_t ecdsa_rs_to_der(const uint8_t *rs, uint8_t *der);

/* Decode the LEN bytes of DER (a SEQUENCE of two non-negative INTEGERs
 * of at most 32 significant bytes each, short-form lengths) into RS (64
 * bytes: r || s, each left-padded with zeros). Returns 0, or -1 when DER
 * is not such a signature (RS then undefined). */
int ecdsa_der_to_rs(const uint8_t *der, size_t len, uint8_t *rs);

#endif /* GUEST_ECDSA_DER_H */
