/* tests/t1000-guest-json.c - unit test of the guest's JSON line writer
 * (guest/json.c). Prints TAP. */
#include "guest/compat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "guest/json.h"

static int tests, failures;

/* Report one TAP test. */
static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

/* Does J hold exactly the line WANT (with its newline)? */
static int is_line(struct json_line *j, const char *want)
{
	if (json_end(j) != 0) {
		printf("# json_end failed\n");
		return 0;
	}
	if (strcmp(j->buf, want) != 0 || j->len != strlen(want)) {
		printf("# got:  %s# want: %s", j->buf, want);
		return 0;
	}
	return 1;
}

/* One string member with VALUE must be written as WANT_VALUE. */
static int str_is(const char *value, const char *want_value)
{
	struct json_line j;
	char want[256];

	json_begin(&j);
	json_add_str(&j, "s", value);
	snprintf(want, sizeof(want), "{\"s\":%s}\n", want_value);
	return is_line(&j, want);
}

/* One double member with VALUE must be written as WANT_VALUE. */
static int double_is(double value, const char *want_value)
{
	struct json_line j;
	char want[256];

	json_begin(&j);
	json_add_double(&j, "d", value);
	snprintf(want, sizeof(want), "{\"d\":%s}\n", want_value);
	return is_line(&j, want);
}

int main(void)
{
	struct json_line j;
	char big[8192];

	printf("1..26\n");

	json_begin(&j);
	ok(is_line(&j, "{}\n"), "empty object");

	json_begin(&j);
	json_add_str(&j, "type", "hello");
	json_add_int(&j, "protocol", 1);
	json_add_int(&j, "cpu", -1);
	json_add_bool(&j, "ok", true);
	json_add_bool(&j, "no", false);
	json_add_uint(&j, "n", 18446744073709551615ULL);
	ok(is_line(&j, "{\"type\":\"hello\",\"protocol\":1,\"cpu\":-1,"
		   "\"ok\":true,\"no\":false,\"n\":18446744073709551615}\n"),
	   "members of every kind, in order");

	json_begin(&j);
	json_add_int(&j, "min", -9223372036854775807LL - 1);
	ok(is_line(&j, "{\"min\":-9223372036854775808}\n"), "INT64_MIN");

	ok(str_is("a\"b\\c/d", "\"a\\\"b\\\\c/d\""), "quote and backslash");
	ok(str_is("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\""), "short escapes");
	ok(str_is("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""),
	   "other control bytes and DEL as \\u00XX");
	ok(str_is("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""),
	   "valid UTF-8 (2, 3, 4 bytes) passes through");
	ok(str_is("a\xff" "b", "\"a\\ufffdb\""), "stray byte 0xff");
	ok(str_is("\xc0\xaf", "\"\\ufffd\\ufffd\""), "overlong '/' rejected");
	ok(str_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""),
	   "UTF-16 surrogate rejected");
	ok(str_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""),
	   "code point above U+10FFFF rejected");
	ok(str_is("\xe2\x82", "\"\\ufffd\\ufffd\""),
	   "sequence truncated by the end of the string");

	{
		static const uint64_t v[] = { 1, 20, 18446744073709551615ULL };
		uint64_t many[600];

		json_begin(&j);
		json_add_uint_array(&j, "a", v, 3);
		json_add_uint_array(&j, "e", v, 0);
		ok(is_line(&j, "{\"a\":[1,20,18446744073709551615],\"e\":[]}\n"),
		   "integer arrays, and an empty one");
		for (size_t i = 0; i < 600; i++)
			many[i] = 1000000000;	/* 11 bytes each with the comma */
		json_begin(&j);
		json_add_uint_array(&j, "a", many, 300);
		ok(json_end(&j) == 0 && j.len == 7 + 300 * 11 - 1 + 2,
		   "an array of 300 ten-digit numbers fits");
		json_begin(&j);
		json_add_uint_array(&j, "a", many, 600);
		ok(json_end(&j) == -1, "an array too long for a line fails it");
	}

	ok(double_is(734.515562, "734.515562"), "double with a fraction");
	ok(double_is(100.0, "100.0"), "integral double keeps a fraction");
	ok(double_is(1.5e-7, "1.5e-07"), "small double in exponent form");

	json_begin(&j);
	json_add_double(&j, "d", NAN);
	ok(json_end(&j) == -1, "NaN fails the line");
	json_begin(&j);
	json_add_double(&j, "d", INFINITY);
	ok(json_end(&j) == -1, "infinity fails the line");

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	json_begin(&j);
	json_add_str(&j, "s", big);
	ok(json_end(&j) == -1, "overlong string fails json_add_str");

	json_begin(&j);
	json_add_str_max(&j, "s", big, 4000);
	ok(json_end(&j) == 0 && j.len == 4000 + 9 &&
	   j.len <= JSON_LINE_MAX, "json_add_str_max cuts to its budget");

	json_begin(&j);
	json_add_str_max(&j, "s", "\xc3\xa9\xc3\xa9\xc3\xa9", 5);
	ok(is_line(&j, "{\"s\":\"\xc3\xa9\xc3\xa9\"}\n"),
	   "cut at a character boundary");

	json_begin(&j);
	json_add_str_max(&j, "s", "ab\n", 3);
	ok(is_line(&j, "{\"s\":\"ab\"}\n"), "an escape is never split");

	/* The longest possible line is exactly JSON_LINE_MAX bytes. */
	json_begin(&j);
	big[JSON_LINE_MAX - 9] = '\0';	/* {"s":"..."}\n: 9 + value */
	json_add_str(&j, "s", big);
	ok(json_end(&j) == 0 && j.len == JSON_LINE_MAX,
	   "a line of exactly JSON_LINE_MAX bytes fits");
	json_begin(&j);
	big[JSON_LINE_MAX - 9] = 'x';
	big[JSON_LINE_MAX - 8] = '\0';
	json_add_str(&j, "s", big);
	ok(json_end(&j) == -1, "one byte more does not");

	return failures ? 1 : 0;
}
