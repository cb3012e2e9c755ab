/* guest/emit.c - the protocol lines, written to stdout (see emit.h). */
#include "compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "emit.h"
#include "lib/kdf-table.h"
#include "rusage.h"
#include "json.h"

/* Budgets (escaped bytes) for strings from outside the guest; together
 * with the fixed members they keep every line under JSON_LINE_MAX. */
#define MAX_NAME 128
#define MAX_SONAME 256
#define MAX_PATH_OUT 2048
#define MAX_VERSION 1024
#define MAX_MESSAGE 3072

/* Lines held by emit_hold, and whether holding. */
static char held[EMIT_HOLD_MAX];
static size_t held_len;
static bool holding, hold_overflowed;

/* Where the lines go: stdout, or what emit_set_fd() chose. */
static int out_fd = 1;

void emit_set_fd(int fd)
{
	out_fd = fd;
}

/* Write the LEN bytes at P to the protocol's file descriptor. */
static int put(const char *p, size_t left)
{
	while (left > 0) {
		ssize_t n = write(out_fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

/* Write the held lines, one write(2) each (a line stays atomic on a
 * pipe), and empty the hold. */
static int put_held(void)
{
	size_t at = 0;

	while (at < held_len) {
		const char *nl = memchr(held + at, '\n', held_len - at);
		size_t len = nl ? (size_t)(nl - (held + at)) + 1 : held_len - at;

		if (put(held + at, len) < 0)
			return -1;
		at += len;
	}
	held_len = 0;
	return 0;
}

/* Finish J and write it to stdout, or to the hold. */
static int flush(struct json_line *j)
{
	if (json_end(j) < 0)
		return -1;
	if (holding && held_len + j->len > sizeof(held)) {
		/* too much to hold: what is held goes out after all */
		hold_overflowed = true;
		holding = false;
		if (put_held() < 0)
			return -1;
	}
	if (holding) {
		memcpy(held + held_len, j->buf, j->len);
		held_len += j->len;
		return 0;
	}
	return put(j->buf, j->len);
}

void emit_hold(void)
{
	holding = true;
	hold_overflowed = false;
	held_len = 0;
}

int emit_release(bool keep)
{
	bool overflowed = hold_overflowed;

	holding = false;
	hold_overflowed = false;
	if (!keep) {
		held_len = 0;
		return overflowed ? 1 : 0;
	}
	return put_held();
}


/* Start a line of protocol type TYPE. */
static void begin(struct json_line *j, const char *type)
{
	json_begin(j);
	json_add_str(j, "type", type);
}

int emit_hello(const char *guest_version, const char *libc, int cpu,
	       const char *variant, uint64_t clock_hz,
	       const char *clock_source, int64_t seed)
{
	struct json_line j;

	begin(&j, "hello");
	json_add_int(&j, "protocol", GUEST_PROTOCOL);
	json_add_str_max(&j, "guest_version", guest_version, MAX_NAME);
	json_add_str_max(&j, "libc", libc, MAX_NAME);
	json_add_int(&j, "cpu", cpu);
	json_add_str(&j, "variant", variant);
	json_add_uint(&j, "clock_hz", clock_hz);
	json_add_str(&j, "clock_source", clock_source);
	json_add_str(&j, "timer", bench_timer_name());
	if (seed >= 0)
		json_add_int(&j, "seed", (long long)seed);
	return flush(&j);
}

int emit_library(const char *library, const struct guest_lib_info *info)
{
	struct json_line j;

	begin(&j, "library");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str(&j, "status", info ? "loaded" : "absent");
	if (info) {
		json_add_str_max(&j, "soname", info->soname, MAX_SONAME);
		json_add_str_max(&j, "path", info->path, MAX_PATH_OUT);
		json_add_str_max(&j, "version", info->version, MAX_VERSION);
		json_add_str_max(&j, "build_id", info->build_id, MAX_NAME);
		if (info->footprint_kib > 0) {
			json_add_uint(&j, "rss_before_load_kib",
				      info->rss_before_load_kib);
			json_add_uint(&j, "footprint_kib", info->footprint_kib);
		}
	}
	return flush(&j);
}

int emit_library_failed(const char *library, const char *message)
{
	struct json_line j;

	begin(&j, "library");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str(&j, "status", "failed");
	json_add_str_max(&j, "message", message, MAX_MESSAGE);
	return flush(&j);
}

int emit_kat(const char *library, const char *algorithm, bool ok,
	     const char *source)
{
	struct json_line j;

	begin(&j, "kat");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	json_add_bool(&j, "ok", ok);
	json_add_str_max(&j, "source", source, MAX_SONAME);
	return flush(&j);
}

int emit_unsupported(const char *library, const char *algorithm)
{
	struct json_line j;

	begin(&j, "unsupported");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	return flush(&j);
}

int emit_error(const char *library, const char *algorithm, const char *fmt,
	       ...)
{
	struct json_line j;
	char msg[MAX_MESSAGE + 1];
	va_list ap;

	va_start(ap, fmt);
	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = '\0';
	va_end(ap);
	begin(&j, "error");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	json_add_str_max(&j, "message", msg, MAX_MESSAGE);
	return flush(&j);
}

int emit_canary(const char *library, const char *algorithm,
		const char *operation, const char *mode,
		const struct canary *c, bool remeasured)
{
	struct json_line j;

	begin(&j, "canary");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	json_add_str(&j, "operation", operation);
	json_add_str(&j, "mode", mode);
	json_add_uint(&j, "before_ns", c->before_ns);
	json_add_uint(&j, "after_ns", c->after_ns);
	json_add_double(&j, "noise", c->noise);
	json_add_bool(&j, "moved", c->moved);
	json_add_bool(&j, "remeasured", remeasured);
	return flush(&j);
}

/* The members every measurement (result or keysetup) shares, after
 * calls_per_batch: repetitions, sets, median_ns, min_ns, p25_ns, p75_ns, cv,
 * reruns, noisy, tsc_cycles. */
static void add_timing(struct json_line *j, const struct bench_result *r)
{
	json_add_uint(j, "repetitions", r->repetitions);
	json_add_uint(j, "sets", r->sets);
	json_add_uint(j, "median_ns", r->median_ns);
	json_add_uint(j, "min_ns", r->min_ns);
	json_add_uint(j, "p25_ns", r->p25_ns);
	json_add_uint(j, "p75_ns", r->p75_ns);
	json_add_double(j, "cv", r->cv);
	json_add_uint(j, "reruns", r->reruns);
	json_add_bool(j, "noisy", r->noisy);
	json_add_uint(j, "tsc_cycles", r->tsc_cycles);
}

void emit_format_result(struct json_line *j, const char *library,
			const char *algorithm, const char *operation,
			const char *mode, size_t buffer_bytes,
			const struct bench_result *r, bool verified)
{
	begin(j, "result");
	json_add_str_max(j, "library", library, MAX_NAME);
	json_add_str_max(j, "algorithm", algorithm, MAX_NAME);
	json_add_str(j, "operation", operation);
	json_add_str(j, "mode", mode);
	json_add_uint(j, "buffer_bytes", buffer_bytes);
	json_add_uint(j, "calls_per_batch", r->calls_per_batch);
	json_add_uint(j, "bytes_per_batch",
		      (unsigned long long)buffer_bytes * r->calls_per_batch);
	add_timing(j, r);
	json_add_double(j, "mb_per_s", r->mb_per_s);
	json_add_bool(j, "verified", verified);
	if (r->maxrss_kib > 0)
		json_add_uint(j, "maxrss_kib", r->maxrss_kib);
	json_add_uint_array(j, "samples_ns", r->samples_ns,
			    (size_t)r->repetitions * r->sets);
}

int emit_result(const char *library, const char *algorithm,
		const char *operation, const char *mode, size_t buffer_bytes,
		const struct bench_result *r, bool verified)
{
	struct json_line j;

	emit_format_result(&j, library, algorithm, operation, mode,
			   buffer_bytes, r, verified);
	return flush(&j);
}

void emit_format_keysetup(struct json_line *j, const char *library,
			  const char *algorithm, const char *operation,
			  const struct bench_result *r, bool verified)
{
	begin(j, "keysetup");
	json_add_str_max(j, "library", library, MAX_NAME);
	json_add_str_max(j, "algorithm", algorithm, MAX_NAME);
	json_add_str(j, "operation", operation);
	json_add_uint(j, "calls_per_batch", r->calls_per_batch);
	add_timing(j, r);
	json_add_double(j, "ns_per_call",
			(double)r->median_ns / (double)r->calls_per_batch);
	json_add_bool(j, "verified", verified);
	json_add_uint_array(j, "samples_ns", r->samples_ns,
			    (size_t)r->repetitions * r->sets);
}

int emit_keysetup(const char *library, const char *algorithm,
		  const char *operation, const struct bench_result *r,
		  bool verified)
{
	struct json_line j;

	emit_format_keysetup(&j, library, algorithm, operation, r, verified);
	return flush(&j);
}

int emit_pkresult(const char *library, const char *algorithm,
		  const char *operation, const struct bench_result *r,
		  bool verified)
{
	struct json_line j;

	begin(&j, "pkresult");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	json_add_str(&j, "operation", operation);
	json_add_uint(&j, "calls_per_batch", r->calls_per_batch);
	add_timing(&j, r);
	json_add_double(&j, "ns_per_call",
			(double)r->median_ns / (double)r->calls_per_batch);
	json_add_double(&j, "ops_per_s", 1e9 * (double)r->calls_per_batch /
					 (double)r->median_ns);
	json_add_bool(&j, "verified", verified);
	json_add_uint_array(&j, "samples_ns", r->samples_ns,
			    (size_t)r->repetitions * r->sets);
	return flush(&j);
}

/* Add member KEY: a JSON array of the N names of NAMES (library names:
 * [a-z0-9], nothing to escape). */
static void add_names(struct json_line *j, const char *key,
		      const char *const *names, size_t n)
{
	char text[1024];
	size_t len = 0;

	text[len++] = '[';
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]);

		if (len + l + 4 > sizeof(text))
			break;
		if (i > 0)
			text[len++] = ',';
		text[len++] = '"';
		memcpy(text + len, names[i], l);
		len += l;
		text[len++] = '"';
	}
	text[len++] = ']';
	json_add_raw(j, key, text, len);
}

/* A `pkcheck` or `kdfcheck` line (TYPE): emit_pkcheck, emit_kdfcheck. */
static int emit_check(const char *type, const char *library,
		      const char *algorithm, const char *const *confirmed,
		      size_t nconfirmed, const char *const *rejected,
		      size_t nrejected)
{
	struct json_line j;

	begin(&j, type);
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	add_names(&j, "confirmed_by", confirmed, nconfirmed);
	add_names(&j, "rejected_by", rejected, nrejected);
	return flush(&j);
}

int emit_pkcheck(const char *library, const char *algorithm,
		 const char *const *confirmed, size_t nconfirmed,
		 const char *const *rejected, size_t nrejected)
{
	return emit_check("pkcheck", library, algorithm, confirmed,
			  nconfirmed, rejected, nrejected);
}

int emit_kdfresult(const char *library, const struct kdf_algorithm *t,
		   const struct bench_result *r, bool verified)
{
	struct json_line j;

	begin(&j, "kdfresult");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", t->name, MAX_NAME);
	json_add_str(&j, "params", t->params);
	json_add_uint(&j, "iterations", t->iterations);
	json_add_uint(&j, "memory_kib", t->memory_kib);
	json_add_uint(&j, "parallelism", t->parallelism);
	json_add_uint(&j, "output_bytes", t->output_bytes);
	json_add_uint(&j, "calls_per_batch", r->calls_per_batch);
	add_timing(&j, r);
	json_add_double(&j, "ns_per_call",
			(double)r->median_ns / (double)r->calls_per_batch);
	json_add_double(&j, "ops_per_s", 1e9 * (double)r->calls_per_batch /
					 (double)r->median_ns);
	json_add_bool(&j, "verified", verified);
	json_add_uint_array(&j, "samples_ns", r->samples_ns,
			    (size_t)r->repetitions * r->sets);
	return flush(&j);
}

int emit_kdfcheck(const char *library, const char *algorithm,
		  const char *const *confirmed, size_t nconfirmed,
		  const char *const *rejected, size_t nrejected)
{
	return emit_check("kdfcheck", library, algorithm, confirmed,
			  nconfirmed, rejected, nrejected);
}

int emit_crosscheck(const char *library, const char *algorithm,
		    size_t input_bytes, size_t output_bytes, uint64_t digest,
		    bool roundtrip)
{
	struct json_line j;
	char hex[17];

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)digest);
	begin(&j, "crosscheck");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	json_add_uint(&j, "input_bytes", input_bytes);
	json_add_uint(&j, "output_bytes", output_bytes);
	json_add_str(&j, "digest", hex);
	json_add_bool(&j, "roundtrip", roundtrip);
	return flush(&j);
}

int emit_pair(const char *library, const char *algorithm,
	      const char *operation, const char *mode, size_t buffer_bytes,
	      const char *versus, const struct pair_est *e, uint64_t span_ns)
{
	struct json_line j;

	begin(&j, "pair");
	json_add_str_max(&j, "library", library, MAX_NAME);
	json_add_str_max(&j, "algorithm", algorithm, MAX_NAME);
	json_add_str(&j, "operation", operation);
	json_add_str(&j, "mode", mode);
	json_add_uint(&j, "buffer_bytes", buffer_bytes);
	json_add_str_max(&j, "versus", versus, MAX_NAME);
	json_add_double(&j, "ratio", e->ratio);
	json_add_double(&j, "low", e->low);
	json_add_double(&j, "high", e->high);
	json_add_double(&j, "coverage", e->coverage);
	json_add_uint(&j, "rounds", e->rounds);
	json_add_bool(&j, "tie", e->tie);
	json_add_uint(&j, "span_ns", span_ns);
	return flush(&j);
}

int emit_turn(uint64_t n)
{
	struct json_line j;

	begin(&j, "turn");
	json_add_uint(&j, "n", n);
	return flush(&j);
}

int emit_done(uint64_t results, uint64_t measure_ns, uint64_t elapsed_ns,
	      uint64_t clock_hz, const char *clock_source, uint64_t tsc_hz,
	      const struct rusage_lib *libs, size_t nlibs)
{
	struct json_line j;

	begin(&j, "done");
	json_add_uint(&j, "results", results);
	json_add_uint(&j, "measure_ns", measure_ns);
	json_add_uint(&j, "elapsed_ns", elapsed_ns);
	json_add_uint(&j, "clock_hz", clock_hz);
	json_add_str(&j, "clock_source", clock_source);
	json_add_uint(&j, "tsc_hz", tsc_hz);
	if (libs)
		rusage_add_json(&j, "rusage", libs, nlibs);
	return flush(&j);
}
