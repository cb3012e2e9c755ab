/* guest/kdf-kat.h - the known-answer tests of the key derivation
 * functions (kdf-kat.c): RFC 7914's PBKDF2-HMAC-SHA256 and scrypt
 * vectors, RFC 5869's HKDF vector and RFC 9106's Argon2id vector, run
 * through a backend's struct guest_kdf_ops. */
#ifndef GUEST_KDF_KAT_H
#define GUEST_KDF_KAT_H

#include <stdbool.h>
#include <stddef.h>

#include "backend.h"

/* One known-answer test of ALGO: the inputs (strings of lowercase hex
 * digits, "" for none) and costs, and the key it must give; SOURCE cites
 * where its values come from (the `kat` line's `source`). */
struct kdf_kat {
	enum guest_kdf_algo algo;
	const char *source;
	const char *pass, *salt, *info, *secret, *ad;	/* hex */
	uint64_t cost;
	uint32_t block, memory_kib, lanes;
	const char *out;				/* hex */
};

/* Outcomes of kdf_kat_run. */
enum kdf_kat_rc {
	KDF_KAT_PASS,		/* the key came out as the source says */
	KDF_KAT_FAIL,		/* another key, or the derivation failed */
	KDF_KAT_SKIP		/* the library's API cannot take the inputs */
};

/* The vectors, every algorithm's in a row; sets *COUNT. Static. */
const struct kdf_kat *kdf_kat_table(size_t *count);

/* Run V with KDF (a loaded backend's operations that support V->algo).
 * Allocates nothing that outlives the call. */
enum kdf_kat_rc kdf_kat_run(const struct guest_kdf_ops *kdf,
			    const struct kdf_kat *v);

#endif /* GUEST_KDF_KAT_H */
