/* algorithms.h - algorithm names of the guest protocol. */
#ifndef BENCHORCH_ALGORITHMS_H
#define BENCHORCH_ALGORITHMS_H

#include <stddef.h>

/* struct algorithm, its kinds and the table itself. */
#include "lib/algorithm-table.h"

/* The algorithm called NAME, or NULL. Returned pointer is static. */
const struct algorithm *algorithm_find(const char *name);

/* The I-th algorithm name (0-based, protocol order), or NULL past the
 * end. Static storage. */
const char *algorithm_name(size_t i);

/* 1 if NAME is a library (backend) name the guest knows, else 0. */
int library_known(const char *name);

/* The I-th library name (0-based, the guest's default order), or NULL past
 * the end. Static storage. */
const char *library_name(size_t i);

/* The position of library NAME in the guest's default order (0-based, as
 * library_name), or -1 when NAME is not a library the guest knows. */
int library_index(const char *name);

/* 1 if OP ("encrypt", "decrypt", "hash") applies to algorithm A. */
int algorithm_has_operation(const struct algorithm *a, const char *op);

#endif
