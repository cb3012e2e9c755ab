/* t0000-validate - the guest output validator accepts the protocol
 * (guest/PROTOCOL.md) and rejects every malformed line, naming it. */
#include "config.h"

#include <string.h>

#include "lib/guest_output.h"
#include "tests/tap.h"

static const char *good[] = {
	"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}",
	"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/usr/lib/x86_64-linux-gnu/libcrypto.so.3\",\"version\":\"OpenSSL 3.0.11\",\"build_id\":\"4ca7b79d\"}",
	"{\"type\":\"library\",\"library\":\"nettle\",\"status\":\"absent\"}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"NIST SP 800-38A F.2.1\"}",
	"{\"type\":\"unsupported\",\"library\":\"openssl\",\"algorithm\":\"chacha20-poly1305\"}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
	"{\"type\":\"error\",\"library\":\"\",\"algorithm\":\"\",\"message\":\"something odd\"}",
	"{\"type\":\"done\",\"results\":1,\"measure_ns\":123456,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}",
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

/* Feed LINES (N of them, after a hello) into *out; returns the first
 * error message or "". */
static const char *feed_lines(struct guest_output *out, const char **lines,
			      size_t n)
{
	static bo_err err;
	size_t i;

	guest_output_init(out);
	err.msg[0] = '\0';
	if (guest_output_add_line(out, good[0], strlen(good[0]), 1, &err) < 0)
		return err.msg;
	for (i = 0; i < n; i++)
		if (guest_output_add_line(out, lines[i], strlen(lines[i]), i + 2,
					  &err) < 0)
			return err.msg;
	return "";
}

#define LIB(n) "{\"type\":\"library\",\"library\":\"" n "\",\"status\":\"loaded\",\"soname\":\"x.so\",\"path\":\"/x\",\"version\":\"1\",\"build_id\":\"\"}"
#define CC(lib, alg, digest, rt) "{\"type\":\"crosscheck\",\"library\":\"" lib "\",\"algorithm\":\"" alg "\",\"input_bytes\":131072,\"output_bytes\":131072,\"digest\":\"" digest "\",\"roundtrip\":" rt "}"
#define D1 "00112233445566aa"
#define D2 "00112233445566bb"

static void keysetup_and_crosscheck(void)
{
	static const char *ks[] = {
		LIB("openssl"),
		"{\"type\":\"keysetup\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"calls_per_batch\":1000,\"repetitions\":5,\"median_ns\":200000,\"min_ns\":190000,\"p25_ns\":195000,\"p75_ns\":205000,\"cv\":0.03952847075,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"ns_per_call\":200.0,\"verified\":true,\"samples_ns\":[200000,190000,210000,195000,205000]}",
	};
	static const char *ks_hash[] = {
		LIB("openssl"),
		"{\"type\":\"keysetup\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"encrypt\",\"calls_per_batch\":1000,\"repetitions\":5,\"median_ns\":200000,\"min_ns\":190000,\"p25_ns\":195000,\"p75_ns\":205000,\"cv\":0.03952847075,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"ns_per_call\":200.0,\"verified\":true,\"samples_ns\":[200000,190000,210000,195000,205000]}",
	};
	static const char *ks_bad[] = {
		LIB("openssl"),
		"{\"type\":\"keysetup\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"calls_per_batch\":1000,\"repetitions\":5,\"median_ns\":200000,\"min_ns\":190000,\"p25_ns\":195000,\"p75_ns\":205000,\"cv\":0.03952847075,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"ns_per_call\":2.0,\"verified\":true,\"samples_ns\":[200000,190000,210000,195000,205000]}",
	};
	/* three libraries, one odd; two that differ; one alone; one whose
	 * decryption failed next to one that worked */
	static const char *cc[] = {
		LIB("openssl"), LIB("libgcrypt"), LIB("nettle"),
		CC("openssl", "aes-128-cbc", D1, "true"),
		CC("libgcrypt", "aes-128-cbc", D1, "true"),
		CC("nettle", "aes-128-cbc", D2, "true"),
		CC("openssl", "rc4", D1, "true"),
		CC("nettle", "rc4", D2, "true"),
		CC("libgcrypt", "salsa20", D1, "true"),
		CC("openssl", "chacha20", D1, "true"),
		CC("nettle", "chacha20", D1, "false"),
	};
	/* a library that failed the known answers has no vote: two that
	 * differ, one of them wrong by its own tests; and two wrong ones
	 * that agree with each other against one right one */
#define KAT(lib, alg, ok) "{\"type\":\"kat\",\"library\":\"" lib "\",\"algorithm\":\"" alg "\",\"ok\":" ok ",\"source\":\"RFC 7539 2.4.2\"}"
	static const char *cc_kat[] = {
		LIB("openssl"), LIB("libgcrypt"), LIB("nettle"),
		KAT("openssl", "chacha20", "true"),
		KAT("nettle", "chacha20", "false"),
		CC("openssl", "chacha20", D1, "true"),
		CC("nettle", "chacha20", D2, "true"),
		KAT("openssl", "salsa20", "true"),
		KAT("libgcrypt", "salsa20", "false"),
		KAT("nettle", "salsa20", "false"),
		CC("openssl", "salsa20", D1, "true"),
		CC("libgcrypt", "salsa20", D2, "true"),
		CC("nettle", "salsa20", D2, "true"),
	};
#undef KAT
	static const char *cc_bad[] = {
		LIB("openssl"), CC("openssl", "aes-128-cbc", "xyz", "true"),
	};
	static const char *cc_dup[] = {
		LIB("openssl"), CC("openssl", "aes-128-cbc", D1, "true"),
		CC("openssl", "aes-128-cbc", D1, "true"),
	};
	struct guest_output out;
	const char *msg;

	msg = feed_lines(&out, ks, 2);
	tap_ok(!msg[0] && out.nkeysetups == 1 &&
	       out.keysetups[0].ns_per_call == 200.0 &&
	       strcmp(out.keysetups[0].operation, "decrypt") == 0,
	       "accepts and keeps a keysetup line (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, ks_hash, 2);
	tap_ok(strstr(msg, "line 3: key setup 'encrypt' does not apply to 'sha-256'") != NULL,
	       "rejects a key setup of a hash (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, ks_bad, 2);
	tap_ok(strstr(msg, "'ns_per_call' is not median_ns / calls_per_batch") != NULL,
	       "rejects an ns_per_call that does not follow (%s)", msg);
	guest_output_release(&out);

	msg = feed_lines(&out, cc, sizeof(cc) / sizeof(cc[0]));
	tap_ok(!msg[0] && out.ncrosschecks == 8, "accepts crosscheck lines (%s)",
	       msg);
	tap_ok(guest_output_crosscheck_ok(&out, "openssl", "aes-128-cbc") &&
	       guest_output_crosscheck_ok(&out, "libgcrypt", "aes-128-cbc") &&
	       !guest_output_crosscheck_ok(&out, "nettle", "aes-128-cbc"),
	       "the odd one of three disagrees, the two that match agree");
	tap_ok(!guest_output_crosscheck_ok(&out, "openssl", "rc4") &&
	       !guest_output_crosscheck_ok(&out, "nettle", "rc4"),
	       "two libraries that differ: neither is trusted");
	tap_ok(guest_output_crosscheck_ok(&out, "libgcrypt", "salsa20") &&
	       out.crosschecks[5].agrees == -1,
	       "a library alone on an algorithm has nothing to disagree with");
	tap_ok(guest_output_crosscheck_ok(&out, "openssl", "chacha20") &&
	       out.crosschecks[6].agrees == -1 &&
	       !guest_output_crosscheck_ok(&out, "nettle", "chacha20"),
	       "a failed round trip disagrees; its peer is then alone");
	tap_ok(guest_output_crosscheck_ok(&out, "openssl", "sha-256"),
	       "an algorithm without a crosscheck line is not marked");
	guest_output_release(&out);
	msg = feed_lines(&out, cc_kat, sizeof(cc_kat) / sizeof(cc_kat[0]));
	tap_ok(!msg[0] && guest_output_crosscheck_ok(&out, "openssl", "chacha20") &&
	       out.crosschecks[0].agrees == -1 &&
	       !guest_output_crosscheck_ok(&out, "nettle", "chacha20"),
	       "a library that failed the known answers has no vote: the one it differs from is alone, not distrusted (%s)",
	       msg);
	tap_ok(guest_output_crosscheck_ok(&out, "openssl", "salsa20") &&
	       !guest_output_crosscheck_ok(&out, "libgcrypt", "salsa20") &&
	       !guest_output_crosscheck_ok(&out, "nettle", "salsa20"),
	       "two libraries wrong by their own tests do not outvote a right one");
	guest_output_release(&out);
	msg = feed_lines(&out, cc_bad, 2);
	tap_ok(strstr(msg, "'digest' must be 16 lowercase hex digits") != NULL,
	       "rejects a malformed digest (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, cc_dup, 3);
	tap_ok(strstr(msg, "line 4: duplicate crosscheck") != NULL,
	       "rejects a second crosscheck of the same pair (%s)", msg);
	guest_output_release(&out);
}

/* A result line (line 6 of good[]) with TIMING (the members from
 * repetitions to tsc_cycles) and SAMPLES (the samples_ns value). */
static const char *result_with(const char *timing, const char *samples)
{
	static char line[GUEST_MAX_LINE * 2];

	snprintf(line, sizeof(line),
		 "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,%s,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":%s}",
		 timing, samples);
	return line;
}

#define T5 "\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0"
#define S5 "[16000,15000,17000,15500,16500]"
#define TS3 "\"repetitions\":2,\"sets\":3,\"median_ns\":16000,\"min_ns\":8000,\"p25_ns\":13000,\"p75_ns\":23000,\"cv\":1.960867155,\"reruns\":2,\"noisy\":true,\"tsc_cycles\":0"
#define SS3 "[8000,16000,24000,400000,12000,20000]"

static void samples_and_clock(void)
{
	struct guest_output out;
	char big[GUEST_MAX_LINE + 64];
	size_t line, i, n;
	bo_err err = { "" };

	expect_bad(5, result_with(T5, "[16000,15000,17000,15500]"),
		   "line 6: 'samples_ns' has 4 samples, 'repetitions' x 'sets' says 5",
		   "a sample count other than repetitions");
	expect_bad(5, result_with(T5, "[16000,15000,17000.5,15500,16500]"),
		   "line 6: 'samples_ns' must hold integers",
		   "a sample that is not an integer");
	expect_bad(5, result_with(T5, "[16000,15000,\"17000\",15500,16500]"),
		   "line 6: 'samples_ns' must hold integers",
		   "a sample that is a string");
	expect_bad(5, result_with(T5, "[16000,0,17000,15500,16500]"),
		   "line 6: 'samples_ns' must hold integers 1 .. 2^50",
		   "a zero sample");
	expect_bad(5, result_with(T5, "16000"),
		   "line 6: 'samples_ns' must be an array of integers",
		   "samples that are not an array");
	expect_bad(5, result_with("\"repetitions\":5,\"median_ns\":16000,\"min_ns\":17000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0", S5),
		   "line 6: 'min_ns' exceeds 'median_ns'", "min above median (with samples)");
	expect_bad(5, result_with("\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":16200,\"p75_ns\":16100,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0", S5),
		   "line 6: quartiles out of order", "p75 below p25");
	expect_bad(5, result_with("\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15400,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0", S5),
		   "line 6: 'p25_ns' is 15400, its samples give 15500",
		   "a p25 its samples do not give");
	expect_bad(5, result_with(T5, "[16100,15000,17000,15500,16500]"),
		   "line 6: 'median_ns' is 16000, its samples give 16100",
		   "a median its samples do not give");
	expect_bad(5, result_with("\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.05,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0", S5),
		   "line 6: 'cv' is 0.05, its samples give 0.0494106",
		   "a coefficient of variation its samples do not give");
	expect_bad(5, result_with("\"repetitions\":151,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.05,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0", S5),
		   "line 6: 'repetitions' out of range (151)",
		   "more repetitions than a line can hold");
	expect_bad(5, result_with("\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":\"no\",\"tsc_cycles\":0", S5),
		   "line 6: 'noisy' must be true or false", "a noisy flag that is not a boolean");
	expect_bad(5, result_with("\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":33600", S5),
		   "TSC cycles but no TSC rate", "TSC cycles without a TSC rate in done");
	/* three sets of two: the median is that of the sets' medians (12000,
	 * 208000, 16000 -> 16000), the other quartiles and cv of all six
	 * samples (type 7: 8000 13000 18000 23000 400000) */
	{
		const char *m = feed(5, result_with(TS3, SS3), &line);

		tap_ok(m[0] == '\0',
		       "accepts three sets of two with the median of the sets' medians (%s)",
		       m);
	}
	expect_bad(5, result_with("\"repetitions\":2,\"sets\":3,\"median_ns\":18000,\"min_ns\":8000,\"p25_ns\":13000,\"p75_ns\":23000,\"cv\":1.960867155,\"reruns\":2,\"noisy\":true,\"tsc_cycles\":0", SS3),
		   "line 6: 'median_ns' is 18000, its samples give 16000",
		   "the median of all samples where the sets' is due");
	expect_bad(5, result_with("\"repetitions\":3,\"sets\":3,\"median_ns\":16000,\"min_ns\":8000,\"p25_ns\":13000,\"p75_ns\":23000,\"cv\":1.960867155,\"reruns\":2,\"noisy\":true,\"tsc_cycles\":0", SS3),
		   "line 6: 'samples_ns' has 6 samples, 'repetitions' x 'sets' says 9",
		   "fewer samples than repetitions x sets");
	expect_bad(5, result_with("\"repetitions\":2,\"sets\":11,\"median_ns\":16000,\"min_ns\":8000,\"p25_ns\":13000,\"p75_ns\":23000,\"cv\":1.960867155,\"reruns\":2,\"noisy\":true,\"tsc_cycles\":0", SS3),
		   "line 6: 'sets' out of range (11)", "eleven sets");
	expect_bad(5, result_with("\"repetitions\":100,\"sets\":2,\"median_ns\":16000,\"min_ns\":8000,\"p25_ns\":13000,\"p75_ns\":23000,\"cv\":1.960867155,\"reruns\":2,\"noisy\":true,\"tsc_cycles\":0", SS3),
		   "line 6: 'repetitions' x 'sets' is 200, more than 150 samples",
		   "more samples than a line may hold");
	/* 150 samples of 26 characters each: more than a line may hold */
	n = (size_t)snprintf(big, sizeof(big), "[");
	for (i = 0; i < 150 && n < sizeof(big) - 32; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%s1000000000000000000000000",
				      i ? "," : "");
	snprintf(big + n, sizeof(big) - n, "]");
	expect_bad(5, result_with(T5, big), "line 6: longer than 4096 bytes",
		   "a line too long for its samples");
	tap_ok(feed((size_t)-1, NULL, &line)[0] == '\0',
	       "(the same invocation with good samples is accepted)");

	/* the clock cross-check: 5 % of the host's time + 20 ms */
	guest_output_init(&out);
	out.elapsed_ns = 1000000000;	/* the guest says 1 s */
	tap_ok(guest_output_check_clock(&out, 1000000000, &err) == 0 &&
	       out.host_elapsed_ns == 1000000000,
	       "clocks that agree pass, the host's time is kept");
	tap_ok(guest_output_check_clock(&out, 1060000000, &err) == 0,
	       "1 s against 1.06 s: 60 ms is within 53 ms + 20 ms");
	tap_ok(guest_output_check_clock(&out, 1100000000, &err) < 0 &&
	       strstr(err.msg, "guest clock disagrees with the host: the guest timed 1.000 s from 'hello' to 'done', the host 1.100 s (allowed: 5 % + 20 ms)"),
	       "1 s against 1.1 s is rejected, naming both (%s)", err.msg);
	tap_ok(guest_output_check_clock(&out, 900000000, &err) < 0,
	       "a guest clock running fast is rejected too");
	out.elapsed_ns = 1000;
	tap_ok(guest_output_check_clock(&out, 15000000, &err) == 0,
	       "a short run is held to the 20 ms allowance only");
	guest_output_release(&out);
}

/* `turn` lines (guest/PROTOCOL.md, "Duet"): numbered from 1, one after
 * the other; counted in out.turns. */
static void turn_lines(void)
{
	struct guest_output out;
	const char *msg;
	const char *ok[] = { LIB("openssl"), "{\"type\":\"turn\",\"n\":1}",
			     "{\"type\":\"turn\",\"n\":2}" };
	const char *skip[] = { LIB("openssl"), "{\"type\":\"turn\",\"n\":1}",
			       "{\"type\":\"turn\",\"n\":3}" };
	const char *zero[] = { LIB("openssl"), "{\"type\":\"turn\",\"n\":0}" };

	msg = feed_lines(&out, ok, 3);
	tap_ok(msg[0] == '\0' && out.turns == 2,
	       "turn lines 1 and 2 are accepted and counted (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, skip, 3);
	tap_ok(strstr(msg, "turn 3 after turn 1") != NULL,
	       "rejects a turn out of order (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, zero, 2);
	tap_ok(strstr(msg, "'n'") != NULL, "rejects turn 0 (%s)", msg);
	guest_output_release(&out);
}

#define RES(lib) "{\"type\":\"result\",\"library\":\"" lib "\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}"
#define PAIR(lib, versus, ratio, low, high, tie, rounds) "{\"type\":\"pair\",\"library\":\"" lib "\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"versus\":\"" versus "\",\"ratio\":" ratio ",\"low\":" low ",\"high\":" high ",\"coverage\":0.96875,\"rounds\":" rounds ",\"tie\":" tie ",\"span_ns\":1200000}"

/* A build's pairs (PROTOCOL.md, "Interleaved measurement"): against the
 * fastest and against its shipped library, both kept; the pair against
 * the shipped library given twice is refused, and so is a second
 * reference for a library that is no build. */
static void build_pair_lines(void)
{
	struct guest_output out;
	const char *msg;
	const char *lines[] = {
		LIB("openssl"), LIB("nettle"), LIB("nettle@o0"), RES("openssl"),
		RES("nettle"), RES("nettle@o0"),
		PAIR("nettle", "openssl", "0.9", "0.8", "0.95", "false", "5"),
		PAIR("nettle@o0", "openssl", "0.5", "0.4", "0.6", "false", "5"),
		PAIR("nettle@o0", "nettle", "0.55", "0.5", "0.6", "false", "5"),
		PAIR("nettle@o0", "nettle", "0.55", "0.5", "0.6", "false", "5"),
	};

	msg = feed_lines(&out, lines, 9);
	tap_ok(msg[0] == '\0' && out.npairs == 3 &&
	       strcmp(out.pairs[2].library, "nettle@o0") == 0 &&
	       strcmp(out.pairs[2].versus, "nettle") == 0 &&
	       out.pairs[2].ratio == 0.55,
	       "a build's pair against its shipped library is kept beside its pair against the fastest (%s)",
	       msg);
	guest_output_release(&out);
	msg = feed_lines(&out, lines, 10);
	tap_ok(strstr(msg, "duplicate pair") != NULL,
	       "rejects a build's pair against its shipped library given twice (%s)",
	       msg);
	guest_output_release(&out);
	lines[8] = PAIR("nettle", "nettle@o0", "1.8", "1.6", "2", "false", "5");
	msg = feed_lines(&out, lines, 9);
	tap_ok(strstr(msg, "two references") != NULL,
	       "rejects a shipped library paired with its build as a second reference (%s)",
	       msg);
	guest_output_release(&out);
}

/* `pair` lines (guest/PROTOCOL.md, "Interleaved measurement"): kept when
 * sound; refused when the tie flag, the interval, the rounds or the
 * results of the point disagree with the line. */
static void pair_lines(void)
{
	struct guest_output out;
	const char *msg;
	static const char *head[] = { LIB("openssl"), LIB("nettle"),
				      LIB("libgcrypt"), RES("openssl"),
				      RES("nettle") };
	static const struct {
		const char *pair, *needle, *what;
	} bad[] = {
		{ PAIR("nettle", "openssl", "0.9", "0.8", "0.95", "true", "5"),
		  "'tie' is true", "a tie whose interval does not hold 1" },
		{ PAIR("nettle", "openssl", "0.9", "0.8", "1.05", "false", "5"),
		  "'tie' is false", "no tie where the interval holds 1" },
		{ PAIR("nettle", "openssl", "0.7", "0.8", "0.95", "false", "5"),
		  "outside its interval", "a ratio outside its interval" },
		{ PAIR("nettle", "nettle", "1", "1", "1", "true", "5"),
		  "with itself", "a library paired with itself" },
		{ PAIR("libgcrypt", "openssl", "0.9", "0.8", "0.95", "false", "5"),
		  "has no result", "a pair where one side has no result" },
		{ PAIR("nettle", "openssl", "0.9", "0.8", "0.95", "false", "6"),
		  "exceeds the result's blocks", "more rounds than blocks" },
		{ PAIR("nettle", "openssl", "-1", "0.8", "0.95", "false", "5"),
		  "'ratio' must be", "a negative ratio" },
	};
	const char *lines[7];

	memcpy(lines, head, sizeof(head));
	lines[5] = PAIR("nettle", "openssl", "0.9", "0.8", "0.95", "false", "5");
	msg = feed_lines(&out, lines, 6);
	tap_ok(msg[0] == '\0' && out.npairs == 1 &&
	       strcmp(out.pairs[0].versus, "openssl") == 0 &&
	       out.pairs[0].ratio == 0.9 && out.pairs[0].low == 0.8 &&
	       out.pairs[0].high == 0.95 && out.pairs[0].tie == 0 &&
	       out.pairs[0].rounds == 5 && out.pairs[0].span_ns == 1200000,
	       "a pair line is accepted and kept (%s)", msg);
	guest_output_release(&out);
	lines[6] = lines[5];
	msg = feed_lines(&out, lines, 7);
	tap_ok(strstr(msg, "duplicate pair") != NULL,
	       "rejects a second pair of one library at a point (%s)", msg);
	guest_output_release(&out);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		lines[5] = bad[i].pair;
		msg = feed_lines(&out, lines, 6);
		tap_ok(strstr(msg, bad[i].needle) != NULL, "rejects %s (%s)",
		       bad[i].what, msg);
		guest_output_release(&out);
	}
	build_pair_lines();
}

#define PKL(lib, alg, op) "{\"type\":\"pkresult\",\"library\":\"" lib "\",\"algorithm\":\"" alg "\",\"operation\":\"" op "\",\"calls_per_batch\":10,\"repetitions\":5,\"median_ns\":200000,\"min_ns\":190000,\"p25_ns\":195000,\"p75_ns\":205000,\"cv\":0.03952847075,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"ns_per_call\":20000.0,\"ops_per_s\":50000.0,\"verified\":true,\"samples_ns\":[200000,190000,210000,195000,205000]}"
#define XPAIR(alg, op, mode, bytes) "{\"type\":\"pair\",\"library\":\"nettle\",\"algorithm\":\"" alg "\",\"operation\":\"" op "\",\"mode\":\"" mode "\",\"buffer_bytes\":" bytes ",\"versus\":\"openssl\",\"ratio\":0.9,\"low\":0.8,\"high\":0.95,\"coverage\":0.96875,\"rounds\":5,\"tie\":false,\"span_ns\":1200000}"

/* The pairs of public-key operations and KDFs (PROTOCOL.md,
 * "Interleaved measurement"): mode "pubkey" or "kdf", buffer_bytes 1,
 * after the pkresult or kdfresult lines of both sides; refused with
 * another size, an operation the algorithm lacks, or a side without its
 * result. */
static void extra_pair_lines(void)
{
	struct guest_output out;
	const char *msg;
	static const char *head[] = { LIB("openssl"), LIB("nettle"),
				      PKL("openssl", "x25519", "derive"),
				      PKL("nettle", "x25519", "derive") };
	static const struct {
		const char *pair, *needle, *what;
	} bad[] = {
		{ XPAIR("x25519", "derive", "pubkey", "16"), "'buffer_bytes' 1",
		  "a public-key pair of 16 bytes" },
		{ XPAIR("x25519", "sign", "pubkey", "1"), "does not apply",
		  "a public-key pair of an operation the algorithm lacks" },
		{ XPAIR("x25519", "import", "pubkey", "1"), "has no result",
		  "a public-key pair without its pkresult lines" },
		{ XPAIR("aes-128-cbc", "derive", "pubkey", "1"),
		  "unknown public-key algorithm", "a cipher as a public-key pair" },
		{ XPAIR("pbkdf2-sha256", "derive", "kdf", "1"), "has no result",
		  "a KDF pair without its kdfresult lines" },
		{ XPAIR("pbkdf2-sha256", "sign", "kdf", "1"), "'derive', not",
		  "a KDF pair of another operation" },
		{ XPAIR("x25519", "derive", "kdf", "1"),
		  "unknown key derivation function", "a public-key algorithm as a KDF pair" },
	};
	const char *lines[5];

	memcpy(lines, head, sizeof(head));
	lines[4] = XPAIR("x25519", "derive", "pubkey", "1");
	msg = feed_lines(&out, lines, 5);
	tap_ok(msg[0] == '\0' && out.npairs == 1 &&
	       strcmp(out.pairs[0].mode, "pubkey") == 0 &&
	       strcmp(out.pairs[0].operation, "derive") == 0 &&
	       out.pairs[0].buffer_bytes == 1 && out.pairs[0].rounds == 5,
	       "a public-key pair after both sides' pkresult lines is accepted and kept (%s)",
	       msg);
	guest_output_release(&out);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		lines[4] = bad[i].pair;
		msg = feed_lines(&out, lines, 5);
		tap_ok(strstr(msg, bad[i].needle) != NULL, "rejects %s (%s)",
		       bad[i].what, msg);
		guest_output_release(&out);
	}
}

/* Public-key lines (PROTOCOL.md, "Public key"): accepted and kept (the
 * kat and unsupported lines with the others, pkresult and pkcheck in
 * their own lists); a wrong operation, an ns_per_call that does not
 * follow, an unknown verifier and a second pkresult of one operation
 * rejected; the P-256 algorithms' lines alike. */
#define PK(alg, op, nspc) "{\"type\":\"pkresult\",\"library\":\"openssl\",\"algorithm\":\"" alg "\",\"operation\":\"" op "\",\"calls_per_batch\":10,\"repetitions\":5,\"median_ns\":200000,\"min_ns\":190000,\"p25_ns\":195000,\"p75_ns\":205000,\"cv\":0.03952847075,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"ns_per_call\":" nspc ",\"ops_per_s\":50000.0,\"verified\":true,\"samples_ns\":[200000,190000,210000,195000,205000]}"
static void pubkey_lines(void)
{
	static const char *good_pk[] = {
		LIB("openssl"), LIB("libsodium"),
		"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"x25519\",\"ok\":true,\"source\":\"RFC 7748 5.2\"}",
		"{\"type\":\"unsupported\",\"library\":\"libsodium\",\"algorithm\":\"ed25519\"}",
		PK("x25519", "derive", "20000.0"),
		PK("ed25519", "verify", "20000.0"),
		"{\"type\":\"pkcheck\",\"library\":\"openssl\",\"algorithm\":\"x25519\",\"confirmed_by\":[\"libsodium\"],\"rejected_by\":[]}",
	};
	static const char *bad_op[] = { LIB("openssl"), PK("x25519", "sign", "20000.0") };
	static const char *bad_ns[] = { LIB("openssl"), PK("ed25519", "sign", "2.0") };
	static const char *twice[] = {
		LIB("openssl"), PK("x25519", "derive", "20000.0"),
		PK("x25519", "derive", "20000.0"),
	};
	static const char *p256[] = {
		LIB("openssl"), PK("ecdh-p256", "derive", "20000.0"),
		PK("ecdsa-p256", "sign", "20000.0"),
	};
	static const char *p256_bad_op[] = {
		LIB("openssl"), PK("ecdh-p256", "sign", "20000.0"),
	};
	static const char *build_check[] = {
		LIB("openssl"), LIB("openssl@o3"),
		"{\"type\":\"pkcheck\",\"library\":\"openssl\",\"algorithm\":\"ed25519\",\"confirmed_by\":[\"openssl@o3\"],\"rejected_by\":[]}",
	};
	static const char *unloaded_check[] = {
		LIB("openssl"),
		"{\"type\":\"pkcheck\",\"library\":\"openssl\",\"algorithm\":\"ed25519\",\"confirmed_by\":[],\"rejected_by\":[\"nettle\"]}",
	};
	static const char *rsa[] = {
		LIB("openssl"), PK("rsa-2048", "sign", "20000.0"),
		PK("rsa-3072", "verify", "20000.0"),
		PK("rsa-pss-2048", "import", "20000.0"),
	};
	static const char *rsa_bad_op[] = {
		LIB("openssl"), PK("rsa-3072", "derive", "20000.0"),
	};
	static const char *bad_check[] = {
		LIB("openssl"),
		"{\"type\":\"pkcheck\",\"library\":\"openssl\",\"algorithm\":\"ed25519\",\"confirmed_by\":[\"nosuchlib\"],\"rejected_by\":[]}",
	};
	struct guest_output out;
	const char *msg;

	msg = feed_lines(&out, good_pk, sizeof(good_pk) / sizeof(good_pk[0]));
	tap_ok(!msg[0] && out.nkats == 1 && out.nunsupported == 1 &&
	       out.nresults == 0 && out.nkeysetups == 0 &&
	       out.npkresults == 2 && out.npkchecks == 1,
	       "accepts public-key kat, unsupported, pkresult and pkcheck lines and keeps them (%s)",
	       msg);
	tap_ok(out.npkresults == 2 &&
	       strcmp(out.pkresults[0].algorithm, "x25519") == 0 &&
	       strcmp(out.pkresults[0].operation, "derive") == 0 &&
	       out.pkresults[0].calls_per_batch == 10 &&
	       out.pkresults[0].ops_per_s == 50000.0 &&
	       out.pkresults[0].t.nsamples == 5 &&
	       out.pkresults[0].t.samples_ns[2] == 210000 &&
	       out.pkresults[1].verified == 1,
	       "a pkresult keeps its operation, timing, ops/s and samples");
	tap_ok(out.npkchecks == 1 &&
	       strcmp(out.pkchecks[0].confirmed_by, "libsodium") == 0 &&
	       strcmp(out.pkchecks[0].rejected_by, "") == 0,
	       "a pkcheck keeps its libraries joined by commas");
	guest_output_release(&out);
	msg = feed_lines(&out, twice, 3);
	tap_ok(strstr(msg, "line 4: duplicate pkresult for openssl x25519 derive") != NULL,
	       "rejects a second pkresult of the same operation (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, bad_op, 2);
	tap_ok(strstr(msg, "line 3: 'sign' is not an operation of 'x25519'") != NULL,
	       "rejects a pkresult of an operation the algorithm lacks (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, bad_ns, 2);
	tap_ok(strstr(msg, "'ns_per_call' is not median_ns / calls_per_batch") != NULL,
	       "rejects a pkresult whose ns_per_call does not follow (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, p256, 3);
	tap_ok(!msg[0] && out.npkresults == 2 &&
	       strcmp(out.pkresults[1].algorithm, "ecdsa-p256") == 0,
	       "accepts pkresult lines of ecdh-p256 and ecdsa-p256 (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, p256_bad_op, 2);
	tap_ok(strstr(msg, "line 3: 'sign' is not an operation of 'ecdh-p256'") != NULL,
	       "rejects an ecdh-p256 sign (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, rsa, 4);
	tap_ok(!msg[0] && out.npkresults == 3 &&
	       strcmp(out.pkresults[2].algorithm, "rsa-pss-2048") == 0,
	       "accepts pkresult lines of rsa-2048, rsa-3072 and rsa-pss-2048 (%s)",
	       msg);
	guest_output_release(&out);
	msg = feed_lines(&out, rsa_bad_op, 2);
	tap_ok(strstr(msg, "line 3: 'derive' is not an operation of 'rsa-3072'") != NULL,
	       "rejects an rsa-3072 derive (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, bad_check, 2);
	tap_ok(strstr(msg, "'confirmed_by' must be an array of names of loaded libraries") != NULL,
	       "rejects a pkcheck naming an unknown library (%s)", msg);
	guest_output_release(&out);
	msg = feed_lines(&out, build_check, 3);
	tap_ok(!msg[0] && out.npkchecks == 1 &&
	       strcmp(out.pkchecks[0].confirmed_by, "openssl@o3") == 0,
	       "accepts a pkcheck confirmed by a build, a loaded library (%s)",
	       msg);
	guest_output_release(&out);
	msg = feed_lines(&out, unloaded_check, 2);
	tap_ok(strstr(msg, "'rejected_by' must be an array of names of loaded libraries") != NULL,
	       "rejects a pkcheck naming a library the output did not load (%s)",
	       msg);
	guest_output_release(&out);
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
	pair_lines();
	extra_pair_lines();
	pubkey_lines();
	turn_lines();

	/* and keeps what it read */
	guest_output_init(&out);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		guest_output_add_line(&out, good[i], strlen(good[i]), i + 1, &err);
	tap_ok(out.nresults == 1 && out.results[0].buffer_bytes == 16 &&
	       out.results[0].t.median_ns == 16000 && out.nlibraries == 2 &&
	       out.results[0].t.p25_ns == 15500 &&
	       out.results[0].t.p75_ns == 16500 &&
	       out.results[0].t.repetitions == 5 &&
	       out.results[0].t.samples_ns[2] == 17000 &&
	       out.clock_start_hz == 3000000000 &&
	       out.clock_end_hz == 3000000000 && out.elapsed_ns == 1000000 &&
	       out.libraries[1].loaded == 0 && out.cpu == 1 &&
	       out.measure_ns == 123456 && out.nkats == 1 &&
	       out.nunsupported == 1 && out.nerrors == 1 && out.seed == -1,
	       "keeps every field it validated (no seed: -1)");
	tap_ok(guest_output_find(&out, "openssl", "aes-128-cbc", "encrypt", "bulk", 16) &&
	       !guest_output_find(&out, "openssl", "aes-128-cbc", "encrypt", "oneshot", 16) &&
	       !guest_output_find(&out, "openssl", "aes-128-cbc", "decrypt", "bulk", 16),
	       "finds a result by its key");
	guest_output_release(&out);

	expect_bad(0, "{\"type\":\"hello\",\"protocol\":1,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0}",
		   "line 1: protocol 1, expected 3", "protocol 1 (only 3 is spoken)");
	expect_bad(0, "{\"type\":\"hello\",\"protocol\":2,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0,\"variant\":\"hw\"}",
		   "line 1: protocol 2, expected 3", "protocol 2 (only 3 is spoken)");
	expect_bad(0, "{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0,\"variant\":\"hw\",\"clock_hz\":12}",
		   "line 1: 'clock_hz' out of range", "a measured clock of 12 Hz");
	expect_bad(0, "{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0,\"variant\":\"fast\",\"clock_hz\":3000000000}",
		   "line 1: 'variant' must be hw or nohw", "an unknown variant");
	expect_bad(1, "{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"a\",\"path\":\"b\",\"version\":\"c\",\"build_id\":\"XYZ\"}",
		   "line 2: 'build_id' must be lowercase hex", "a build-id that is not hex");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"twice\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		   "line 6: 'mode' must be bulk or oneshot", "an unknown timing mode");
	expect_bad(0, NULL, "line 1: expected 'hello' first", "a missing hello");
	{
		static const char *hello_seed =
			"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0,\"variant\":\"hw\",\"clock_hz\":3000000000,\"seed\":4294967295}";

		guest_output_init(&out);
		tap_ok(guest_output_add_line(&out, hello_seed, strlen(hello_seed), 1, &err) == 0 &&
		       out.seed == 4294967295LL,
		       "hello's optional seed is accepted and kept (%s)", err.msg);
		guest_output_release(&out);
	}
	expect_bad(0, "{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0,\"variant\":\"hw\",\"clock_hz\":3000000000,\"seed\":4294967296}",
		   "line 1: 'seed' out of range", "a seed above 2^32 - 1");
	expect_bad(0, "{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"x\",\"libc\":\"y\",\"cpu\":0,\"variant\":\"hw\",\"clock_hz\":3000000000,\"seed\":\"7\"}",
		   "line 1: 'seed' must be an integer", "a seed that is a string");
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
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		   "line 6: operation 'encrypt' does not apply to 'sha-256'",
		   "an operation a hash does not have");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":2097152,\"calls_per_batch\":1,\"bytes_per_batch\":2097152,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":131072.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		   "line 6: 'buffer_bytes' out of range", "a buffer above 1 MiB");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16001,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		   "line 6: 'bytes_per_batch' is not", "inconsistent batch bytes");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":17000,\"p25_ns\":16000,\"p75_ns\":16000,\"cv\":0.0,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,16000,16000,16000,16000]}",
		   "line 6: 'min_ns' exceeds 'median_ns'", "min above median");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":2000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		   "line 6: 'mb_per_s' does not match", "a throughput that does not follow from the timing");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":0,\"min_ns\":0,\"p25_ns\":0,\"p75_ns\":0,\"cv\":0.0,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[0,0,0,0,0]}",
		   "line 6: 'median_ns' out of range", "a zero time");
	expect_bad(5, "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":\"fast\",\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		   "line 6: 'mb_per_s' must be a positive number", "a string for a number");
	expect_bad(7, "{\"type\":\"done\",\"results\":2,\"measure_ns\":1,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}",
		   "reported 2 results in 'done' but printed 1",
		   "a result count that does not match");
	expect_bad(7, NULL, "ended before 'done'", "a missing done");
	expect_bad(7, "{\"type\":\"done\",\"results\":1,\"measure_ns\":2000000,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}",
		   "line 8: 'measure_ns' exceeds 'elapsed_ns'",
		   "more time in timed batches than from hello to done");

	/* protocol 2's keysetup and crosscheck lines */
	keysetup_and_crosscheck();

	/* protocol 3's samples, and the clock cross-check */
	samples_and_clock();

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
