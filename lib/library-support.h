/* lib/library-support.h - which algorithms each guest library can
 * measure at most: a static table derived from the guest's backends
 * (guest/backend-NAME.c), so that a selection no library can measure
 * (`run --libs openssl --algos salsa20`) is refused before anything runs.
 * An upper bound: a library's build or version may still lack an
 * algorithm listed here, which the guest then reports unsupported. */
#ifndef BENCHORCH_LIBRARY_SUPPORT_H
#define BENCHORCH_LIBRARY_SUPPORT_H

/* 1 when LIBRARY (a guest library name, lib/algorithms.h) has a backend
 * for ALGORITHM (a protocol algorithm name, or a public-key one of
 * lib/pubkey-table.h) or key derivation function (lib/kdf-table.h), 0 when it has none or either name is unknown. Both are NUL-terminated strings the caller keeps. */
int library_supports(const char *library, const char *algorithm);

#endif
