/* lib/pubkey-table.h - the public-key algorithm names of the guest
 * protocol and their operations (guest/PROTOCOL.md, "Public key"). Data
 * only and libc-free, built into the orchestrator (the validator) and the
 * guest (guest/pubkey.c), as lib/algorithm-table.c is. Kept apart from
 * algorithm_table: these algorithms have no buffer sizes, modes or
 * cross-check digests; their results go to their own table
 * (db/migrations/0019-pubkey.sql). */
#ifndef BENCHORCH_PUBKEY_TABLE_H
#define BENCHORCH_PUBKEY_TABLE_H

/* Number of public-key algorithms; the guest's enum guest_pk_algo has
 * exactly these, in this order. */
#define PUBKEY_COUNT 10

/* Most operations of one algorithm. */
#define PUBKEY_MAX_OPS 4

struct pubkey_algorithm {
	const char *name;			/* "x25519", "x448", "ed25519",
						 * "ecdh-p256", "ecdsa-p256",
						 * "rsa-2048", "rsa-3072",
						 * "rsa-pss-2048", "ml-kem-768",
						 * "ml-dsa-65" */
	const char *ops[PUBKEY_MAX_OPS];	/* its operations, in order;
						 * unused slots NULL */
};

/* The public-key algorithms in protocol order. Static, read-only. */
extern const struct pubkey_algorithm pubkey_table[PUBKEY_COUNT];

/* The algorithm called NAME, or NULL (NAME NUL-terminated). */
const struct pubkey_algorithm *pubkey_find(const char *name);

/* 1 if OP (NUL-terminated) is an operation of A, else 0. */
int pubkey_has_op(const struct pubkey_algorithm *a, const char *op);

#endif
