/* guest/json.h - a tiny writer for one-line JSON objects.
 *
 * Builds one object of string / integer / double / boolean / integer
 * array members into a fixed buffer of JSON_LINE_MAX bytes (newline
 * included), as the guest protocol requires (guest/PROTOCOL.md: lines are
 * at most 4096 bytes).
 * No allocation; a struct json_line lives on the caller's stack or wherever
 * the caller likes.
 *
 * Strings are C strings of arbitrary bytes. They are written as valid
 * UTF-8 JSON: '"' and '\\' escaped, \b \f \n \r \t as such, every other
 * control byte (0x00-0x1f) and DEL (0x7f) as \u00XX; well-formed UTF-8
 * sequences (RFC 3629: no overlongs, no surrogates, <= U+10FFFF) are passed
 * through; every byte that is not part of one is written as \ufffd.
 *
 * Errors are sticky: a member that does not fit, or a non-finite double,
 * marks the line failed and json_end() reports it.
 */
#ifndef GUEST_JSON_H
#define GUEST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest line the writer produces, in bytes, including the final '\n'. */
#define JSON_LINE_MAX 4096

struct json_line {
	char buf[JSON_LINE_MAX + 1];	/* text so far, NUL-terminated */
	size_t len;			/* bytes in buf, excluding the NUL */
	unsigned members;		/* members added so far */
	bool failed;			/* some member did not fit / was bad */
};

/* Start a new object in j (any previous content is discarded). */
void json_begin(struct json_line *j);

/* Add member KEY (a C string) with string VALUE (a C string of any bytes,
 * escaped as described above). Fails the line if it does not fit. */
void json_add_str(struct json_line *j, const char *key, const char *value);

/* Like json_add_str, but the escaped value (between its quotes) is cut to at
 * most MAX_BYTES bytes, at a character boundary, instead of failing the line.
 * For untrusted strings of unbounded length (paths, messages). The line
 * still fails if even the cut member does not fit. */
void json_add_str_max(struct json_line *j, const char *key, const char *value,
		      size_t max_bytes);

/* Add member KEY with a signed integer value. */
void json_add_int(struct json_line *j, const char *key, long long value);

/* Add member KEY with an unsigned integer value. */
void json_add_uint(struct json_line *j, const char *key,
		   unsigned long long value);

/* Add member KEY with an array of the N unsigned integers of VALUES ([]
 * when N is 0). Fails the line if it does not fit. */
void json_add_uint_array(struct json_line *j, const char *key,
			 const uint64_t *values, size_t n);

/* Add member KEY with a number that is always written with a fraction or
 * exponent (so JSON parsers read it as a real), 10 significant digits.
 * NaN and infinities fail the line (JSON has no such numbers). */
void json_add_double(struct json_line *j, const char *key, double value);

/* Add member KEY with true or false. */
void json_add_bool(struct json_line *j, const char *key, bool value);

/* Add member KEY whose value is TEXT, LEN bytes of JSON the caller built
 * (e.g. an object made with another struct json_line), copied as it is.
 * Fails the line if it does not fit. */
void json_add_raw(struct json_line *j, const char *key, const char *text,
		  size_t len);

/* Close the object and append '\n'. Returns 0 when j->buf now holds the
 * complete line (j->len bytes, <= JSON_LINE_MAX), -1 if any member failed
 * (j->buf then holds no usable line). */
int json_end(struct json_line *j);

#endif /* GUEST_JSON_H */
