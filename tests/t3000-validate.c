/* t3000-validate - the guest output validator accepts the protocol
 * (guest/PROTOCOL.md) and rejects every malformed line, naming it. */
#include "config.h"

#include <string.h>

#include "orchestrator/guest_output.h"
#include "tests/tap.h"

static const char *good[] = {
	"{\"type\":\"hello\",\"protocol\":1,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1}",
	"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/usr/lib/x86_64-linux-gnu/libcrypto.so.3\",\"version\":\"OpenSSL 3.0.11\"}",
	"{\"type\":\"library\",\"library\":\"nettle\",\"status\":\"absent\"}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"NIST SP 800-38A F.2.1\"}",
	"{\"type\":\"unsupported\",\"library\":\"openssl\",\"algorithm\":\"chacha20-poly1305\"}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"mb_per_s\":1000.0,\"verified\":true}",
	"{\"type\":\"error\",\"library\":\"\",\"algorithm\":\"\",\"message\":\"something odd\"}",
	"{\"type\":\"done\",\"results\":1,\"measure_ns\":123456}",
};

/* Feed the good lines, replacing line REPLACE (0-based) with BAD (or
 * dropping it when BAD is NULL); return the error message or "" when all
 * lines and the finish check pass. */
static const char *feed(size_t replace, const char *bad, size_t *bad_line)
{
	static bo_err err;
	struct guest_output out;
	size_t i, lineno = 0;
	int rc = 0;

	guest_output_init(&out);
	err.msg[0] = '\0';
	for (i = 0; i < sizeof(good) / sizeof(good[0]) && rc == 0; i++) {
		const char *l = i == replace ? bad : good[i];

		if (!l)
			continue;
		lineno++;
		rc = guest_output_add_line(&out, l, strlen(l), lineno, &err);
	}
	if (rc == 0)
		rc = guest_output_finish(&out, &err);
	*bad_line = lineno;
	guest_output_release(&out);
	return rc == 0 ? "" : err.msg;
}

static void expect_bad(size_t replace, const char *bad, const char *needle,
		       const char *what)
{
	size_t line;
	const char *msg = feed(replace, bad, &line);

	tap_ok(msg[0] && strstr(msg, needle) != NULL, "rejects %s (%s)", what,
	       msg);
}

int main(void)
{
	struct guest_output out;
	char longline[GUEST_MAX_LINE + 10];
	size_t line, i;
	bo_err err = { "" };
	const char *msg;

	msg = feed((size_t)-1, NULL, &line);
	tap_ok(msg[0] == '\0', "accepts a complete, valid invocation (%s)", msg);

	/* and keeps what it read */
	guest_output_init(&out);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		guest_output_add_line(&out, good[i], strlen(good[i]), i + 1, &err);
	tap_ok(out.nresults == 1 && out.results[0].buffer_bytes == 16 &&
	       out.results[0].median_ns == 16000 && out.nlibraries == 2 &&
	       out.libraries[1].loaded == 0 && out.cpu == 1 &&
	       out.measure_ns == 123456 && out.nkats == 1 &&
	       out.nunsupported == 1 && out.nerrors == 1,
	       "keeps every field it validated");
	tap_ok(guest_output_find(&out, "openssl", "aes-128-cbc", "encrypt", 16) &&
	       !guest_output_find(&out, "openssl", "aes-128-cbc", "decrypt", 16),
	       "finds a result by its key");
	guest_output_release(&out);

	expect_bad(0, "{\"type\":\"hello\",\"protocol\":2,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0}",
		   "line 1: protocol 2", "another protocol version");
	expect_bad(0, NULL, "line 1: expected 'hello' first", "a missing hello");
	expect_bad(1, "this is not json", "line 2: not JSON", "garbage");
	expect_bad(1, "[1,2,3]", "line 2: not a JSON object", "a JSON array");
	expect_bad(1, "{\"type\":\"bogus\"}", "line 2: unknown type 'bogus'",
		   "an unknown type");
	expect_bad(1, "{\"type\":\"library\",\"library\":\"Open SSL\",\"status\":\"loaded\"}",
		   "line 2: 'library' has an invalid name", "a bad library name");
	expect_bad(1, "{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"a\",\"path\":\"b\\u0007\",\"version\":\"c\"}",
		   "line 2: 'path' contains a control character",
		   "a control character in a string");
	expect_bad(1, "{\"type\":\"library\",\"library\":\"openssl\",\"library\":\"x\",\"status\":\"absent\"}",
		   "line 2: not JSON", "a duplicate key");
	expect_bad(3, "{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"rot13\",\"ok\":true,\"source\":\"x\"}",
		   "line 4: unknown algorithm 'rot13'", "an unknown algorithm");
	expect_bad(3, "{\"type\":\"kat\",\"library\":\"nettle\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"x\"}",
		   "line 4: library 'nettle' was not reported loaded",
		   "a KAT of an absent library");
	expect_bad(3, "{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"ok\":1,\"source\":\"x\"}",
		   "line 4: 'ok' must be true or false", "a number for a boolean");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"mb_per_s\":1000.0,\"verified\":true}",
		   "line 6: operation 'encrypt' does not apply to 'sha-256'",
		   "an operation a hash does not have");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":2097152,\"calls_per_batch\":1,\"bytes_per_batch\":2097152,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"mb_per_s\":131072.0,\"verified\":true}",
		   "line 6: 'buffer_bytes' out of range", "a buffer above 1 MiB");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16001,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"mb_per_s\":1000.0,\"verified\":true}",
		   "line 6: 'bytes_per_batch' is not", "inconsistent batch bytes");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":17000,\"mb_per_s\":1000.0,\"verified\":true}",
		   "line 6: 'min_ns' exceeds 'median_ns'", "min above median");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"mb_per_s\":2000.0,\"verified\":true}",
		   "line 6: 'mb_per_s' does not match", "a throughput that does not follow from the timing");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":0,\"min_ns\":0,\"mb_per_s\":1000.0,\"verified\":true}",
		   "line 6: 'median_ns' out of range", "a zero time");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"mb_per_s\":\"fast\",\"verified\":true}",
		   "line 6: 'mb_per_s' must be a positive number", "a string for a number");
	expect_bad(7, "{\"type\":\"done\",\"results\":2,\"measure_ns\":1}",
		   "reported 2 results in 'done' but printed 1",
		   "a result count that does not match");
	expect_bad(7, NULL, "ended before 'done'", "a missing done");

	/* a line after done, and an over-long line */
	guest_output_init(&out);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		guest_output_add_line(&out, good[i], strlen(good[i]), i + 1, &err);
	tap_ok(guest_output_add_line(&out, good[6], strlen(good[6]), 9, &err) < 0 &&
	       strstr(err.msg, "line 9: output after 'done'"),
	       "rejects output after done (%s)", err.msg);
	guest_output_release(&out);
	guest_output_init(&out);
	memset(longline, ' ', sizeof(longline));
	tap_ok(guest_output_add_line(&out, longline, sizeof(longline), 1, &err) < 0 &&
	       strstr(err.msg, "longer than 4096 bytes"),
	       "rejects a line over the length limit (%s)", err.msg);
	guest_output_release(&out);
	return tap_done();
}
