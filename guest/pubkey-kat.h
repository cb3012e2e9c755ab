/* guest/pubkey-kat.h - the known-answer tests of the public-key
 * algorithms (pubkey-kat.c): RFC 7748's X25519 and X448 vectors, RFC
 * 8032's Ed25519 vectors, a NIST CAVP ECC CDH vector (ECDH P-256), RFC 6979's
 * P-256 / SHA-256 signature (ECDSA P-256), the fixed RSA test keys'
 * signatures (guest/rsa-keys.c), and NIST ACVP key-generation vectors of
 * ML-KEM-768 and ML-DSA-65 (keys from seeds) with an encapsulation /
 * signature round trip; and in pubkey-kat-pq.c NIST ACVP vectors of
 * ML-KEM-768 decapsulation and ML-DSA-65 signature verification; run
 * through a backend's struct guest_pk_ops. */
#ifndef GUEST_PUBKEY_KAT_H
#define GUEST_PUBKEY_KAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* One known-answer test of ALGO; SOURCE cites where its values come
 * from (the `kat` line's `source`). */
struct pk_kat {
	enum guest_pk_algo algo;
	const char *source;
	bool (*check)(const struct guest_pk_ops *pk, const struct pk_kat *v);
	const char *hex[5];	/* its values, lowercase hex, as check()
				 * reads them (see pubkey-kat.c) */
};

/* The vectors, every algorithm's in a row; sets *COUNT. Static. */
const struct pk_kat *pk_kat_table(size_t *count);

/* The vectors of pubkey-kat-pq.c (ML-KEM-768 decapsulation, ML-DSA-65
 * verification), every algorithm's in a row; sets *COUNT. Static. A
 * library's known answers of an algorithm are its rows of both tables,
 * pk_kat_table's first. */
const struct pk_kat *pk_kat_pq_table(size_t *count);

/* Decode the 2 x N lowercase hex digits of HEX into OUT (room for N
 * bytes); stops early at the end of HEX. Returns the byte count, or
 * (size_t)-1 on a bad digit. */
size_t pk_kat_unhex(const char *hex, uint8_t *out, size_t n);

/* Run V with PK (a loaded backend's operations that support V->algo).
 * Returns true when every value came out as the source says. Allocates
 * only through PK (keys, freed before it returns). */
bool pk_kat_run(const struct guest_pk_ops *pk, const struct pk_kat *v);

#endif /* GUEST_PUBKEY_KAT_H */
