/* guest/emit.h - the protocol lines of guest/PROTOCOL.md, written to stdout.
 *
 * Each function builds one JSON object line (guest/json.h) and writes it to
 * file descriptor 1 with write(2), unbuffered, so that a line is complete on
 * the pipe as soon as it is printed (and atomic: lines are at most 4096
 * bytes, PIPE_BUF on Linux). Strings from outside the guest (paths, version
 * strings, messages) are cut so that a line always fits.
 *
 * Every function returns 0, or -1 if the line could not be written (stdout
 * closed, ...): the caller should then exit with status 1.
 */
#ifndef GUEST_EMIT_H
#define GUEST_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "bench.h"
#include "canary.h"
#include "json.h"
#include "pairs.h"
#include "rusage.h"

/* Protocol version implemented. */
#define GUEST_PROTOCOL 3

/* Write every later line to file descriptor FD (>= 0) instead of 1: a
 * library's child process keeps its protocol lines on a copy of stdout
 * and gives the library a descriptor 1 of its own (guest/isolate.h). */
void emit_set_fd(int fd);

/* hello: CPU is the CPU the guest is pinned to, or -1; VARIANT is "hw"
 * or "nohw" (hardware acceleration masked, --nohw); CLOCK_HZ the core
 * clock measured at start (guest/cpuclock.h), in Hz, and CLOCK_SOURCE how
 * (a CPUCLOCK_* string); SEED the --seed that ordered the libraries and
 * algorithms, or -1 for none (no member). */
int emit_hello(const char *guest_version, const char *libc, int cpu,
	       const char *variant, uint64_t clock_hz,
	       const char *clock_source, int64_t seed);

/* library: INFO describes the loaded library (build_id included, and
 * when INFO->footprint_kib > 0 the members rss_before_load_kib and
 * footprint_kib, in KiB), or is NULL for `absent`. */
int emit_library(const char *library, const struct guest_lib_info *info);

/* library with status `failed`: the library's file is there but it could
 * not be loaded or used; MESSAGE says why (the loader's message for each
 * soname tried, or the missing symbol), cut at 3072 bytes. */
int emit_library_failed(const char *library, const char *message);

/* kat: OK for one vector, SOURCE its citation. */
int emit_kat(const char *library, const char *algorithm, bool ok,
	     const char *source);

/* unsupported: LIBRARY lacks ALGORITHM. */
int emit_unsupported(const char *library, const char *algorithm);

/* error: LIBRARY and ALGORITHM may be "" ; the message is printf-formatted
 * from FMT. */
int emit_error(const char *library, const char *algorithm, const char *fmt,
	       ...) __attribute__((format(printf, 3, 4)));

/* result: one measurement (bench.h) of OPERATION on BUFFER_BYTES-byte
 * buffers; MODE is "bulk" (keyed context reused) or "oneshot" (context
 * created, keyed, used and freed in every call); R->maxrss_kib, when > 0,
 * becomes the member maxrss_kib (KiB). */
int emit_result(const char *library, const char *algorithm,
		const char *operation, const char *mode, size_t buffer_bytes,
		const struct bench_result *r, bool verified);

/* The result line emit_result writes, built into *J (json_end not yet
 * called) - for tests of its length. */
void emit_format_result(struct json_line *j, const char *library,
			const char *algorithm, const char *operation,
			const char *mode, size_t buffer_bytes,
			const struct bench_result *r, bool verified);

/* keysetup: one measurement of key setup alone (bench.h; a call = one key
 * setup) for OPERATION ("encrypt" or "decrypt"). */
int emit_keysetup(const char *library, const char *algorithm,
		  const char *operation, const struct bench_result *r,
		  bool verified);

/* The keysetup line emit_keysetup writes, built into *J (json_end not yet
 * called) - for tests of its length. */
void emit_format_keysetup(struct json_line *j, const char *library,
			  const char *algorithm, const char *operation,
			  const struct bench_result *r, bool verified);

/* pkresult: one measurement (bench.h; a call = one operation) of public-key
 * OPERATION ("import", "derive", "sign", "verify", "keygen", "encaps",
 * "decaps") of ALGORITHM
 * (lib/pubkey-table.h: "x25519", "x448", "ed25519", "ecdh-p256",
 * "ecdsa-p256", "rsa-2048", "rsa-3072", "rsa-pss-2048", "ml-kem-768",
 * "ml-dsa-65"),
 * with ns_per_call = median_ns / calls_per_batch
 * and ops_per_s = 10^9 x calls_per_batch / median_ns (guest/PROTOCOL.md,
 * "Public key"). */
int emit_pkresult(const char *library, const char *algorithm,
		  const char *operation, const struct bench_result *r,
		  bool verified);

/* pkcheck: which other libraries confirmed (NCONFIRMED names in
 * CONFIRMED) and which rejected (NREJECTED in REJECTED) the output of
 * LIBRARY's timed path for ALGORITHM. */
int emit_pkcheck(const char *library, const char *algorithm,
		 const char *const *confirmed, size_t nconfirmed,
		 const char *const *rejected, size_t nrejected);

/* kdfresult: one measurement (bench.h; a call = one derivation) of the
 * key derivation function T (lib/kdf-table.h, whose cost parameters the
 * line carries), with ns_per_call = median_ns / calls_per_batch and
 * ops_per_s = 10^9 x calls_per_batch / median_ns (guest/PROTOCOL.md,
 * "Key derivation"). */
struct kdf_algorithm;
int emit_kdfresult(const char *library, const struct kdf_algorithm *t,
		   const struct bench_result *r, bool verified);

/* kdfcheck: which other libraries derived the same key (NCONFIRMED names
 * in CONFIRMED) and which another (NREJECTED in REJECTED) as LIBRARY's
 * timed derivation of ALGORITHM. */
int emit_kdfcheck(const char *library, const char *algorithm,
		  const char *const *confirmed, size_t nconfirmed,
		  const char *const *rejected, size_t nrejected);

/* crosscheck: LIBRARY's one-shot output for ALGORITHM on the shared
 * INPUT_BYTES-byte pattern: OUTPUT_BYTES bytes (ciphertext then tag, or the
 * digest) whose FNV-1a 64-bit hash is DIGEST; ROUNDTRIP: decryption
 * restored the pattern (always true for hashes). */
int emit_crosscheck(const char *library, const char *algorithm,
		    size_t input_bytes, size_t output_bytes, uint64_t digest,
		    bool roundtrip);

/* canary: the contention canary of the curve (LIBRARY, ALGORITHM,
 * OPERATION, MODE), guest/canary.h; REMEASURED when its first sweep's
 * canary moved and these are the second's. */
int emit_canary(const char *library, const char *algorithm,
		const char *operation, const char *mode,
		const struct canary *c, bool remeasured);

/* Hold the lines written from now on in memory instead of writing them
 * (up to EMIT_HOLD_MAX bytes; past that, what is held and every later
 * line is written after all, and emit_release can no longer drop them).
 * For a sweep that may have to be measured again. */
#define EMIT_HOLD_MAX ((size_t)512 * 1024)
void emit_hold(void);

/* Stop holding: with KEEP write the held lines, one write(2) each;
 * without, drop them. Returns 0, 1 when lines were to be dropped but had
 * been written already (the hold overflowed), or -1 if a line could not
 * be written. */
int emit_release(bool keep);

/* pair: at one point (ALGORITHM, OPERATION, MODE, BUFFER_BYTES),
 * LIBRARY's throughput against VERSUS, the fastest library there, from
 * the blocks they took turns in (guest/pairs.h): ratio, its interval and
 * the interval's coverage, the rounds, and whether the interval holds 1
 * (a tie); SPAN_NS, the ns from the start of the point's first block to
 * the end of its last (CLOCK_MONOTONIC). */
int emit_pair(const char *library, const char *algorithm,
	      const char *operation, const char *mode, size_t buffer_bytes,
	      const char *versus, const struct pair_est *e, uint64_t span_ns);

/* turn: the end of turn N (from 1) of a duet (--duet, guest/turns.h);
 * the orchestrator hands the token to the other guest when it reads it.
 * Returns 0, or -1 when stdout cannot be written. */
int emit_turn(uint64_t n);

/* done: RESULTS result lines were printed; MEASURE_NS ns were spent in
 * timed batches, calibration and warm-up included; ELAPSED_NS ns passed
 * between writing hello and now (CLOCK_MONOTONIC); CLOCK_HZ is the core
 * clock measured at the end, in Hz, and CLOCK_SOURCE how (a CPUCLOCK_*
 * string); TSC_HZ the invariant TSC's rate measured over those
 * ELAPSED_NS, in ticks per second (0 = no invariant TSC); LIBS, when not
 * NULL, the NLIBS libraries' child processes as wait4() reported them
 * (member `rusage`, guest/rusage.h; NULL with --no-fork: no member). */
int emit_done(uint64_t results, uint64_t measure_ns, uint64_t elapsed_ns,
	      uint64_t clock_hz, const char *clock_source, uint64_t tsc_hz,
	      const struct rusage_lib *libs, size_t nlibs);

#endif /* GUEST_EMIT_H */
