/* algorithms.h - algorithm names of the guest protocol. */
#ifndef BENCHORCH_ALGORITHMS_H
#define BENCHORCH_ALGORITHMS_H

enum algorithm_kind { ALGO_CIPHER, ALGO_HASH };

struct algorithm {
	const char *name;	/* as in the protocol: "aes-128-cbc" */
	enum algorithm_kind kind;
};

/* The algorithm called NAME, or NULL. Returned pointer is static. */
const struct algorithm *algorithm_find(const char *name);

/* 1 if OP ("encrypt", "decrypt", "hash") applies to algorithm A. */
int algorithm_has_operation(const struct algorithm *a, const char *op);

#endif
