/* lib/numbers.h - option values read as numbers, whole and exactly:
 * no suffix, no silent clamping, one message for each way to be wrong. */
#ifndef BENCHORCH_NUMBERS_H
#define BENCHORCH_NUMBERS_H

#include <stdint.h>

#include "lib/util.h"

/* Parse the option value S as a whole decimal number (an optional '-',
 * then digits only: no space, '+', fraction or suffix) from MIN to MAX.
 * Returns 0 with the number in *ret, or -1 with err set ("'S' is not a
 * whole number", "'S' is out of range (MIN to MAX)"); numbers beyond
 * long long are out of range, never clamped. */
int cli_parse_ll(const char *s, long long min, long long max,
		 long long *ret, bo_err *err);

/* The same for a decimal number with an optional fraction and exponent
 * ("3", "2.5", "1e-1"; not "inf", "nan" or hexadecimal): finite, from MIN
 * to MAX. Returns 0, or -1 with err set ("'S' is not a number", "'S' is
 * out of range (MIN to MAX)"). */
int cli_parse_double(const char *s, double min, double max, double *ret,
		     bo_err *err);

/* The largest run id: a run id is an SQLite rowid (a signed 64-bit
 * integer), and benchorch's start at 1. */
#define CLI_RUN_ID_MAX INT64_MAX

/* Parse S as a run id, 1 to CLI_RUN_ID_MAX, with cli_parse_ll. Returns 0,
 * or -1 with err set. */
int cli_parse_run_id(const char *s, int64_t *ret, bo_err *err);

/* The guests' measurement options as `run` and `confirm` take them, each
 * parsed from ARG with err set on a value that is malformed or out of
 * range (0, or -1): --min-batch-ms (0.001 to 60000 ms; *ns in
 * nanoseconds), --repetitions (1 to 150 samples a set), --max-reruns (0
 * to 9 sets after the first). */
int cli_parse_min_batch_ms(const char *arg, uint64_t *ns, bo_err *err);
int cli_parse_repetitions(const char *arg, unsigned *ret, bo_err *err);
int cli_parse_max_reruns(const char *arg, unsigned *ret, bo_err *err);

#endif
