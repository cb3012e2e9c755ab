/* lib/kdf-table.h - the key derivation functions of the guest protocol
 * and their fixed cost parameters (guest/PROTOCOL.md, "Key derivation").
 * Data only and libc-free, built into the orchestrator (the validator)
 * and the guest (guest/kdf.c), as lib/pubkey-table.c is. Their results
 * go to their own table (db/migrations/0022-kdf.sql). */
#ifndef BENCHORCH_KDF_TABLE_H
#define BENCHORCH_KDF_TABLE_H

/* Number of KDFs; the guest's enum guest_kdf_algo has exactly these, in
 * this order. */
#define KDF_COUNT 4

/* One KDF and the cost every library derives with. */
struct kdf_algorithm {
	const char *name;		/* "pbkdf2-sha256", ... */
	const char *params;		/* the cost as text, e.g.
					 * "c=10000,dklen=32" */
	unsigned long iterations;	/* PBKDF2 c, Argon2 t, scrypt N;
					 * HKDF 1 */
	unsigned long memory_kib;	/* memory the derivation needs, KiB:
					 * Argon2 m, scrypt 128 x N x r / 1024;
					 * 0 for PBKDF2 and HKDF */
	unsigned parallelism;		/* Argon2 p, scrypt p; 1 otherwise */
	unsigned block_size;		/* scrypt r; 0 otherwise */
	unsigned output_bytes;		/* derived key length, bytes */
};

/* The KDFs in protocol order. Static, read-only. */
extern const struct kdf_algorithm kdf_table[KDF_COUNT];

/* The KDF called NAME, or NULL (NAME NUL-terminated). */
const struct kdf_algorithm *kdf_find(const char *name);

#endif
