/* t3185-tool-stats - the tool mode's trimmed summary (5 % of the samples
 * dropped at each end) and the checks of the guest's tool lines. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "orchestrator/run/tool-output.h"
#include "orchestrator/run/tool-stats.h"
#include "tests/tap.h"

static int add(struct tool_output *o, const char *line, bo_err *err)
{
	return tool_output_add_line(o, line, strlen(line), err);
}

#define HELLO "{\"type\":\"tool_hello\",\"protocol\":3,\"guest_version\":\"x\",\"cpu\":1,\"bytes\":4194304,\"repetitions\":3}"
#define CASE_OSSL "{\"type\":\"tool\",\"case\":\"openssl-aes-256-cbc\",\"tool\":\"openssl\",\"cipher\":\"aes-256-cbc\",\"status\":\"present\",\"path\":\"/usr/bin/openssl\",\"version\":\"OpenSSL 3.0.15\"}"
#define CASE_AGE "{\"type\":\"tool\",\"case\":\"age\",\"tool\":\"age\",\"cipher\":\"chacha20-poly1305\",\"status\":\"absent\",\"path\":\"\",\"version\":\"\"}"
#define RESULT(dir, variant, verified, extra, wall) \
	"{\"type\":\"tool_result\",\"case\":\"openssl-aes-256-cbc\",\"direction\":\"" dir "\",\"variant\":\"" variant "\",\"bytes\":4194304,\"verified\":" verified extra ",\"user_ns\":[1,2,3],\"sys_ns\":[4,5,6],\"wall_ns\":" wall ",\"max_rss_kib\":[100,200,300]}"

/* A fresh output that has had HELLO and both case lines. */
static void start(struct tool_output *o)
{
	bo_err err;

	tool_output_init(o);
	add(o, HELLO, &err);
	add(o, CASE_OSSL, &err);
	add(o, CASE_AGE, &err);
}

/* Does LINE, after start(), fail with a message containing WANT? */
static int refused(const char *line, const char *want)
{
	struct tool_output o;
	bo_err err = { "" };
	int rc;

	start(&o);
	rc = add(&o, line, &err);
	tool_output_release(&o);
	if (rc == 0 || !strstr(err.msg, want)) {
		tap_diag("rc %d, message '%s'", rc, err.msg);
		return 0;
	}
	return 1;
}

int main(void)
{
	/* the trimmed count: round(n / 20), halves up, never leaving
	 * nothing; 120 samples lose 6 at each end, as in the study */
	static const size_t n[] = { 1, 2, 9, 10, 29, 30, 49, 50, 120 };
	static const size_t k[] = { 0, 0, 0, 1, 1, 2, 2, 3, 6 };
	uint64_t v[120];
	struct db_tool_sample s[20];
	struct db_tool_row row;
	struct tool_output o;
	bo_err err = { "" };
	size_t i;
	int rc;

	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		tap_ok(tool_trim_count(n[i]) == k[i], "%zu samples: %zu dropped at each end (%zu)",
		       n[i], k[i], tool_trim_count(n[i]));
	/* 10 samples: the fastest (1) and the slowest (1000) go, the mean
	 * of 2..9 is 5.5; the input is not reordered */
	{
		uint64_t t[10] = { 1000, 2, 3, 4, 5, 6, 7, 8, 9, 1 };

		tap_ok(fabs(tool_trimmed_mean(t, 10) - 5.5) < 1e-9,
		       "trimmed mean of 10: 5.5 (%g)", tool_trimmed_mean(t, 10));
		tap_ok(t[0] == 1000 && t[9] == 1, "the samples keep their order");
	}
	/* 120 samples 1..120: 7..114 remain, mean 60.5 */
	for (i = 0; i < 120; i++)
		v[i] = 120 - i;
	tap_ok(fabs(tool_trimmed_mean(v, 120) - 60.5) < 1e-9,
	       "trimmed mean of 1..120: 60.5 (%g)", tool_trimmed_mean(v, 120));
	/* 3 samples: nothing dropped, the plain mean */
	tap_ok(fabs(tool_trimmed_mean(v, 3) - 119) < 1e-9, "3 samples: their mean");

	/* the summary: each figure its own trimmed mean; MB/s from wall */
	memset(&row, 0, sizeof(row));
	row.bytes = 64 << 20;
	for (i = 0; i < 20; i++) {
		s[i].user_ns = 100000000 + i;		/* one outlier below */
		s[i].sys_ns = 10000000;
		s[i].wall_ns = 120000000;
		s[i].max_rss_kib = 5000;
	}
	s[3].wall_ns = 900000000;	/* the slowest: dropped */
	s[7].wall_ns = 1;		/* the fastest: dropped */
	s[5].max_rss_kib = 90000;
	rc = tool_summarise(s, 20, &row);
	tap_ok(rc == 0 && row.kept == 18, "20 samples: 18 kept (%zu)", row.kept);
	tap_ok(fabs(row.wall_ns - 120000000) < 1e-6,
	       "the slowest and the fastest wall time do not count (%g)", row.wall_ns);
	tap_ok(fabs(row.max_rss_kib - 5000) < 1e-9, "nor the largest RSS (%g)",
	       row.max_rss_kib);
	tap_ok(fabs(row.user_ns - 100000009.5) < 1e-6 &&
	       fabs(row.cpu_ns - 110000009.5) < 1e-6 &&
	       fabs(row.sys_ns - 10000000) < 1e-6,
	       "user, sys and user + sys: their own trimmed means (%g %g %g)",
	       row.user_ns, row.sys_ns, row.cpu_ns);
	/* 67108864 bytes in 0.12 s: 559.24 MB/s (10^6 bytes per second) */
	tap_ok(fabs(row.mb_per_s - 67108864 / 0.12 / 1e6) < 1e-6,
	       "MB/s = bytes / wall time / 10^6 (%g)", row.mb_per_s);
	tap_ok(tool_summarise(s, 0, &row) < 0, "no samples: no summary");

	/* the guest's lines */
	start(&o);
	rc = add(&o, RESULT("encrypt", "hw", "true", "", "[10,20,30]"), &err) |
	     add(&o, RESULT("decrypt", "nohw", "false", ",\"message\":\"round trip differs\"", "[10]"), &err);
	tap_ok(rc != 0, "a result whose arrays differ in length is refused");
	tool_output_release(&o);
	start(&o);
	rc = add(&o, RESULT("encrypt", "hw", "true", "", "[10,20,30]"), &err);
	tap_ok(rc == 0 && o.nresults == 1 && o.results[0].nsamples == 3 &&
	       o.results[0].samples[2].wall_ns == 30 &&
	       o.results[0].samples[1].max_rss_kib == 200 &&
	       o.results[0].verified && o.cases[1].present == 0,
	       "a verified result: its samples are read; age is absent");
	tap_ok(tool_output_finish(&o, &err) < 0 && strstr(err.msg, "tool_done"),
	       "output without tool_done is refused at the end: %s", err.msg);
	rc = add(&o, "{\"type\":\"tool_done\",\"elapsed_ns\":5}", &err);
	tap_ok(rc == 0 && tool_output_finish(&o, &err) == 0 && o.elapsed_ns == 5,
	       "tool_done ends it");
	tap_ok(add(&o, CASE_AGE, &err) < 0 && strstr(err.msg, "after tool_done"),
	       "nothing after tool_done: %s", err.msg);
	tool_output_release(&o);

	tool_output_init(&o);
	tap_ok(add(&o, CASE_OSSL, &err) < 0 && strstr(err.msg, "before tool_hello"),
	       "a tool line before tool_hello is refused: %s", err.msg);
	tool_output_release(&o);
	tap_ok(refused("{\"type\":\"tool_result\",\"case\":\"openssl-aes-256-cbc\",\"direction\":\"encrypt\",\"variant\":\"hw\",\"bytes\":4194304,\"verified\":true,\"user_ns\":[1,2],\"sys_ns\":[1,2],\"wall_ns\":[1,2],\"max_rss_kib\":[1,2]}",
		       "verified result with 2 samples, not 3"),
	       "a verified result must have every repetition");
	tap_ok(refused(RESULT("encrypt", "hw", "true", "", "[10,0,30]"),
		       "wall time of 0"),
	       "a wall time of 0 is refused");
	tap_ok(refused(RESULT("encrypt", "hw", "false", "", "[10,20,30]"),
		       "without a message"),
	       "an unverified result must say why");
	tap_ok(refused(RESULT("sideways", "hw", "true", "", "[10,20,30]"),
		       "bad direction"),
	       "an unknown direction is refused");
	tap_ok(refused(RESULT("encrypt", "turbo", "true", "", "[10,20,30]"),
		       "variant 'turbo'"),
	       "an unknown variant is refused");
	tap_ok(refused("{\"type\":\"tool_result\",\"case\":\"age\",\"direction\":\"encrypt\",\"variant\":\"hw\",\"bytes\":4194304,\"verified\":true,\"user_ns\":[1,2,3],\"sys_ns\":[1,2,3],\"wall_ns\":[1,2,3],\"max_rss_kib\":[1,2,3]}",
		       "not a present tool"),
	       "a result of an absent tool is refused");
	tap_ok(refused("{\"type\":\"tool_result\",\"case\":\"openssl-aes-256-cbc\",\"direction\":\"encrypt\",\"variant\":\"hw\",\"bytes\":1,\"verified\":true,\"user_ns\":[1,2,3],\"sys_ns\":[1,2,3],\"wall_ns\":[1,2,3],\"max_rss_kib\":[1,2,3]}",
		       "bytes differ"),
	       "a result of another size than tool_hello's is refused");
	tap_ok(refused(CASE_OSSL, "twice"), "a case announced twice is refused");
	tap_ok(refused("{\"type\":\"tool\",\"case\":\"x y\",\"tool\":\"t\",\"cipher\":\"c\",\"status\":\"present\"}",
		       "needs case"),
	       "a case name outside [a-z0-9.-] is refused");
	tap_ok(refused("{\"type\":\"result\"}", "unknown type"),
	       "a line of the benchmark protocol is refused");
	tap_ok(refused("not json", "not a JSON object"), "a line that is not JSON is refused");
	{
		struct tool_output o2;

		start(&o2);
		add(&o2, RESULT("encrypt", "hw", "true", "", "[10,20,30]"), &err);
		rc = add(&o2, RESULT("encrypt", "hw", "true", "", "[10,20,30]"), &err);
		tap_ok(rc < 0 && strstr(err.msg, "twice"), "a result given twice is refused: %s",
		       err.msg);
		tool_output_release(&o2);
	}
	return tap_done();
}
