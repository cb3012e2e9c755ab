/* guest/json.c - a tiny writer for one-line JSON objects (see json.h). */
#include "compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

/* Room kept free at all times for the closing "}\n". */
#define JSON_TAIL 2

/* Bytes still available for members (keeping room for the tail). */
static size_t room(const struct json_line *j)
{
	return JSON_LINE_MAX - JSON_TAIL - j->len;
}

/* Append N bytes of S, or fail the line. */
static void put(struct json_line *j, const char *s, size_t n)
{
	if (j->failed)
		return;
	if (n > room(j)) {
		j->failed = true;
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

/* Length of the well-formed UTF-8 sequence starting at S (2..4), or 0 if
 * the bytes there are not one (RFC 3629 table 3). S is NUL-terminated. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* no overlongs */
		else if (c == 0xed)
			hi = 0x9f;	/* no UTF-16 surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;	/* no overlongs */
		else if (c == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;	/* also stops at the NUL */
	return n;
}

/* Escape the character at *S into OUT (>= 7 bytes); return its escaped
 * length and advance *S past it. */
static size_t escape_one(const unsigned char **s, char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = **s;
	size_t n;

	if (c >= 0x80) {
		n = utf8_seq(*s);
		if (n == 0) {
			*s += 1;
			memcpy(out, "\\ufffd", 6);
			return 6;
		}
		memcpy(out, *s, n);
		*s += n;
		return n;
	}
	*s += 1;
	switch (c) {
	case '"':  memcpy(out, "\\\"", 2); return 2;
	case '\\': memcpy(out, "\\\\", 2); return 2;
	case '\b': memcpy(out, "\\b", 2); return 2;
	case '\f': memcpy(out, "\\f", 2); return 2;
	case '\n': memcpy(out, "\\n", 2); return 2;
	case '\r': memcpy(out, "\\r", 2); return 2;
	case '\t': memcpy(out, "\\t", 2); return 2;
	default:
		break;
	}
	if (c < 0x20 || c == 0x7f) {
		memcpy(out, "\\u00", 4);
		out[4] = hex[c >> 4];
		out[5] = hex[c & 15];
		return 6;
	}
	out[0] = (char)c;
	return 1;
}

/* Append VALUE as a quoted, escaped JSON string. At most MAX bytes go
 * between the quotes; with CUT the value is truncated there, without it an
 * overlong value fails the line. */
static void put_string(struct json_line *j, const char *value, size_t max,
		       bool cut)
{
	const unsigned char *s = (const unsigned char *)value;
	size_t used = 0;
	char esc[8];

	put(j, "\"", 1);
	while (!j->failed && *s) {
		const unsigned char *next = s;
		size_t n = escape_one(&next, esc);

		if (used + n > max) {
			if (!cut)
				j->failed = true;
			break;
		}
		put(j, esc, n);
		used += n;
		s = next;
	}
	put(j, "\"", 1);
}

/* Append the separator and "KEY": for a new member. */
static void put_key(struct json_line *j, const char *key)
{
	if (j->members++ > 0)
		put(j, ",", 1);
	put_string(j, key, JSON_LINE_MAX, false);
	put(j, ":", 1);
}

void json_begin(struct json_line *j)
{
	j->len = 0;
	j->members = 0;
	j->failed = false;
	j->buf[0] = '\0';
	put(j, "{", 1);
}

void json_add_str(struct json_line *j, const char *key, const char *value)
{
	put_key(j, key);
	put_string(j, value, JSON_LINE_MAX, false);
}

void json_add_str_max(struct json_line *j, const char *key, const char *value,
		      size_t max_bytes)
{
	put_key(j, key);
	put_string(j, value, max_bytes, true);
}

/* Append the first N bytes of a formatted number, failing the line if
 * snprintf failed or truncated. */
static void put_number(struct json_line *j, const char *text, int n,
		       size_t cap)
{
	if (n < 0 || (size_t)n >= cap) {
		j->failed = true;
		return;
	}
	put(j, text, (size_t)n);
}

void json_add_int(struct json_line *j, const char *key, long long value)
{
	char num[32];

	put_key(j, key);
	put_number(j, num, snprintf(num, sizeof(num), "%lld", value),
		   sizeof(num));
}

void json_add_uint(struct json_line *j, const char *key,
		   unsigned long long value)
{
	char num[32];

	put_key(j, key);
	put_number(j, num, snprintf(num, sizeof(num), "%llu", value),
		   sizeof(num));
}

void json_add_uint_array(struct json_line *j, const char *key,
			 const uint64_t *values, size_t n)
{
	char num[32];

	put_key(j, key);
	put(j, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			put(j, ",", 1);
		put_number(j, num, snprintf(num, sizeof(num), "%llu",
					    (unsigned long long)values[i]),
			   sizeof(num));
	}
	put(j, "]", 1);
}

void json_add_raw(struct json_line *j, const char *key, const char *text,
		  size_t len)
{
	put_key(j, key);
	put(j, text, len);
}

void json_add_double(struct json_line *j, const char *key, double value)
{
	char num[48];
	int n;

	put_key(j, key);
	if (!isfinite(value)) {
		j->failed = true;
		return;
	}
	n = snprintf(num, sizeof(num), "%.10g", value);
	if (n > 0 && (size_t)n + 2 < sizeof(num) &&
	    !strchr(num, '.') && !strchr(num, 'e')) {
		/* "%g" dropped the fraction: make it read as a real. */
		num[n++] = '.';
		num[n++] = '0';
		num[n] = '\0';
	}
	put_number(j, num, n, sizeof(num));
}

void json_add_bool(struct json_line *j, const char *key, bool value)
{
	put_key(j, key);
	if (value)
		put(j, "true", 4);
	else
		put(j, "false", 5);
}

int json_end(struct json_line *j)
{
	if (j->failed)
		return -1;
	/* room() always kept JSON_TAIL bytes free for this. */
	memcpy(j->buf + j->len, "}\n", 3);
	j->len += 2;
	return 0;
}
