/* validate.h - the parts of the guest-output validator its files share:
 * the member getters (validate-fields.c) and the checks of the measured
 * points (validate-points.c). Not for callers outside the validator:
 * they use lib/guest_output.h. Every getter names the line and member in
 * its error ("guest output line 3: 'cpu' must be an integer"). */
#ifndef BENCHORCH_VALIDATE_H
#define BENCHORCH_VALIDATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/algorithms.h"
#include "lib/guest_output.h"

/* Longest string member accepted (bytes): names, versions, paths. */
#define GUEST_MAX_STR 1024
/* Largest ns per batch accepted (2^50 ns: 13 days). */
#define GUEST_MAX_BATCH_NS (INT64_C(1) << 50)
/* Measured clocks accepted, Hz: 1 MHz .. 100 GHz. */
#define GUEST_MIN_CLOCK_HZ INT64_C(1000000)
#define GUEST_MAX_CLOCK_HZ INT64_C(100000000000)

/* String member KEY of line O (line LINENO) into *RET, borrowed from O: at
 * most GUEST_MAX_STR bytes, no control character, empty only when
 * ALLOW_EMPTY. Returns 0, or -1 with err set. */
int guest_field_str(json_t *o, const char *key, int allow_empty,
		    size_t lineno, const char **ret, bo_err *err);

/* A short identifier (library and algorithm names): a non-empty string
 * member of at most 64 of [a-z0-9._-], into *RET (borrowed from O); for
 * KEY "library" or "versus" also a build's library, "LIBRARY@NAME" (one
 * '@', neither part empty).
 * Returns 0, or -1 with err set. */
int guest_field_name(json_t *o, const char *key, size_t lineno,
		     const char **ret, bo_err *err);

/* Integer member KEY, MIN .. MAX, into *RET. Returns 0, or -1 with err
 * set ("must be an integer", "out of range (N)"). */
int guest_field_int(json_t *o, const char *key, int64_t min, int64_t max,
		    size_t lineno, int64_t *ret, bo_err *err);

/* Boolean member KEY into *RET (1 true, 0 false). Returns 0, or -1 with
 * err set. */
int guest_field_bool(json_t *o, const char *key, size_t lineno, int *ret,
		     bo_err *err);

/* The library NAME as OUT's library lines reported it, or NULL (points
 * into OUT). */
struct guest_library *guest_field_library(struct guest_output *out,
					  const char *name);

/* Member "library" of O, which must name a library OUT reported loaded,
 * into *RET (borrowed from O). Returns 0, or -1 with err set. */
int guest_field_loaded_library(struct guest_output *out, json_t *o,
			       size_t lineno, const char **ret, bo_err *err);

/* Member "algorithm" of O, a name of protocol GUEST_PROTOCOL, into *RET
 * (borrowed from O) and its table entry into *RET_ALGO. Returns 0, or -1
 * with err set ("unknown algorithm 'x'"). */
int guest_field_algorithm(json_t *o, size_t lineno, const char **ret,
			  const struct algorithm **ret_algo, bo_err *err);

/* Check `result` line O (line LINENO) - its names, sizes, throughput
 * (10^6 B/s, following from bytes_per_batch and median_ns) and timing
 * against its own samples - and append it to out->results (strings and
 * samples copied, owned by OUT). Returns 0, or -1 with err set (OUT
 * unchanged). */
int guest_validate_result(struct guest_output *out, json_t *o, size_t lineno,
			  bo_err *err);

/* Check `keysetup` line O the same way (ns_per_call following from
 * median_ns and calls_per_batch, one line per library, algorithm and
 * operation) and append it to out->keysetups. Returns 0, or -1 with err
 * set (OUT unchanged). */
int guest_validate_keysetup(struct guest_output *out, json_t *o,
			    size_t lineno, bo_err *err);

/* Check `pair` line O (guest/PROTOCOL.md, "Interleaved measurement"):
 * names, the ratio inside its interval, tie as the interval says, both
 * libraries with a result at the point (printed right before), one line
 * per library and one reference per point; append it to out->pairs
 * (strings copied, owned by OUT). Returns 0, or -1 with err set (OUT
 * unchanged). */
int guest_validate_pair(struct guest_output *out, json_t *o, size_t lineno,
			bo_err *err);

/* Check `pkresult` line O (guest/PROTOCOL.md, "Public key"): a library
 * reported loaded, an algorithm and operation of lib/pubkey-table.h, its
 * timing against its own samples, ns_per_call = median_ns /
 * calls_per_batch, ops_per_s > 0, no second line of the same library,
 * algorithm and operation; append it to out->pkresults (strings and
 * samples owned by OUT). Returns 0, or -1 with err set (OUT
 * unchanged). */
/* Check `kdfresult` line O (guest/PROTOCOL.md, "Key derivation"): a
 * library reported loaded, a key derivation function of lib/kdf-table.h
 * with that table's cost (params, iterations, memory_kib, parallelism,
 * output_bytes), its timing, ns_per_call and ops_per_s, at most one per
 * library and function; append it to out->kdfresults (strings and
 * samples copied). Returns 0, or -1 with ERR set (line LINENO). */
int guest_validate_kdfresult(struct guest_output *out, json_t *o,
			     size_t lineno, bo_err *err);

int guest_validate_pkresult(struct guest_output *out, json_t *o,
			    size_t lineno, bo_err *err);

#endif
