/* lib/algorithm-table.h - the one list of the guest protocol's algorithm
 * names, in protocol order. Data only and libc-free, so that both the
 * orchestrator (lib/algorithms.c) and the guest (guest/algo.c, which
 * compiles lib/algorithm-table.c into the guest binary, as it does
 * lib/shuffle.c) build the same table: a name added or renamed here is
 * added or renamed in both. */
#ifndef BENCHORCH_ALGORITHM_TABLE_H
#define BENCHORCH_ALGORITHM_TABLE_H

/* Number of algorithms of the protocol; the guest's enum guest_algo has
 * exactly these, in this order (guest/algo.c checks the count). */
#define ALGORITHM_COUNT 32

/* Room for the longest name ("chacha20-poly1305") and its NUL. */
#define ALGORITHM_NAME_SIZE 24

enum algorithm_kind { ALGO_CIPHER, ALGO_HASH };

struct algorithm {
	char name[ALGORITHM_NAME_SIZE];	/* as in the protocol:
					 * "aes-128-cbc", NUL-terminated */
	enum algorithm_kind kind;	/* ALGO_CIPHER for ciphers and AEADs,
					 * ALGO_HASH for hashes */
};

/* The algorithms in protocol order (the order of enum guest_algo and of
 * `benchorch-guest --list`). Static, read-only storage. */
extern const struct algorithm algorithm_table[ALGORITHM_COUNT];

#endif
