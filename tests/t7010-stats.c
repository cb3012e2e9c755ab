/* t7010-stats - human units, significance, the rank test and the
 * overhead/slope fit used by results, compare and report. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "orchestrator/results/report-fmt.h"
#include "lib/stats.h"
#include "tests/tap.h"

int main(void)
{
	char b[32];
	int64_t n = 0;
	bo_err err = { "" };
	struct stats_point base = { 100, 102, NULL, 0 }, p;
	struct stats_verdict v;
	double x[9], t[9], o = 0, s = 0;
	double a[] = { 10, 11, 12, 13, 14, 15 }, c[] = { 20, 21, 22, 23, 24, 25 };
	size_t i;

	tap_ok(strcmp(fmt_size(16, b, sizeof(b)), "16 B") == 0, "16 -> '%s'", b);
	tap_ok(strcmp(fmt_size(1024, b, sizeof(b)), "1 KiB") == 0, "1024 -> '%s'", b);
	tap_ok(strcmp(fmt_size(16384, b, sizeof(b)), "16 KiB") == 0, "16384 -> '%s'", b);
	tap_ok(strcmp(fmt_size(1536, b, sizeof(b)), "1.5 KiB") == 0, "1536 -> '%s'", b);
	tap_ok(strcmp(fmt_size(1048576, b, sizeof(b)), "1 MiB") == 0, "1048576 -> '%s'", b);
	tap_ok(strcmp(fmt_mbps(1234.567, b, sizeof(b)), "1235") == 0, "1234.567 MB/s -> '%s'", b);
	tap_ok(strcmp(fmt_mbps(12.345, b, sizeof(b)), "12.3") == 0, "12.345 MB/s -> '%s'", b);
	tap_ok(strcmp(fmt_mbps(1.2345, b, sizeof(b)), "1.23") == 0, "1.2345 MB/s -> '%s'", b);
	tap_ok(parse_size("16", &n, &err) == 0 && n == 16, "parses '16'");
	tap_ok(parse_size("1KiB", &n, &err) == 0 && n == 1024, "parses '1KiB'");
	tap_ok(parse_size("1 MiB", &n, &err) == 0 && n == 1048576, "parses '1 MiB'");
	tap_ok(parse_size("16K", &n, &err) == 0 && n == 16384, "parses '16K'");
	tap_ok(parse_size("16384B", &n, &err) == 0 && n == 16384, "parses '16384B'");
	tap_ok(parse_size("1M", &n, &err) == 0 && n == 1048576, "parses '1M'");
	/* the documented spellings only: KB (1000 or 1024?) and another
	 * case are refused, not read as KiB */
	{
		static const char *const bad[] = {
			"16KB", "16kib", "16k", "16kb", "16Kib", "16KIB", "1mib",
			"1MB", "16  KiB", "16 ", "16 B ", "16b",
		};
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			tap_ok(parse_size(bad[i], &n, &err) < 0 &&
			       strstr(err.msg, "accepted: 16384, 16384B, 16K, 16KiB, 1M or 1MiB") != NULL,
			       "refuses '%s', listing the spellings (%s)", bad[i], err.msg);
	}
	tap_ok(parse_size("1 parsec", &n, &err) < 0 &&
	       strncmp(err.msg, "invalid size '1 parsec' (accepted: ", 35) == 0,
	       "refuses '1 parsec' (%s)", err.msg);
	tap_ok(parse_size("-4", &n, &err) < 0, "refuses '-4'");

	p = (struct stats_point){ 50, 51, NULL, 0 };
	v = stats_compare(&base, &p, 0.03);
	tap_ok(v.significant && fabs(v.change + 0.5) < 1e-9 && v.method == STATS_RANGES,
	       "halved throughput is a significant -50 %% change (%.3f)", v.change);
	p = (struct stats_point){ 98, 101, NULL, 0 };
	v = stats_compare(&base, &p, 0.03);
	tap_ok(!v.significant, "-2 %% is below the 3 %% threshold");
	p = (struct stats_point){ 95, 100.5, NULL, 0 };
	v = stats_compare(&base, &p, 0.03);
	tap_ok(!v.significant, "-5 %% whose best overlaps the old median is not significant");
	p = (struct stats_point){ 95, 99, NULL, 0 };
	v = stats_compare(&base, &p, 0.03);
	tap_ok(v.significant && v.change < 0, "-5 %% with the new best below the old median is");
	p = (struct stats_point){ 105, 106, NULL, 0 };
	v = stats_compare(&base, &p, 0.03);
	tap_ok(v.significant && v.change > 0, "+5 %% above the old best is an improvement");
	p = base;
	v = stats_compare(&base, &p, 0.03);
	tap_ok(!v.significant && v.change == 0, "identical points: no change");

	/* No ties: U = 0, mean 18, variance 6*6*13/12 = 39,
	 * z = (18 - 0.5) / sqrt(39) = 2.8022; p = erfc(z / sqrt 2) =
	 * 0.00507487 (same method and sources as the worked case below). */
	tap_ok(fabs(stats_mann_whitney(a, 6, c, 6) - 0.00507487) < 1e-8,
	       "rank test: disjoint samples differ, p = 0.00507487 (%.8f)",
	       stats_mann_whitney(a, 6, c, 6));
	tap_ok(stats_mann_whitney(a, 6, a, 6) == 1.0,
	       "rank test: identical samples give p = 1 exactly (%.17g)",
	       stats_mann_whitney(a, 6, a, 6));
	{
		/* A case with ties, worked by hand from the large-sample
		 * approximation with the tie-corrected variance and the
		 * continuity correction (Sheskin, Handbook of Parametric
		 * and Nonparametric Statistical Procedures, Test 12; Siegel
		 * & Castellan, Nonparametric Statistics for the Behavioral
		 * Sciences, 6.4): midranks of A sum to R = 28.5, so
		 * U = R - 6*7/2 = 7.5; mean 6*7/2 = 21; ties 2.0 (x3) and
		 * 3.5 (x2) give sum(t^3 - t) = 30, variance
		 * 6*7/12 * (14 - 30/(13*12)) = 48.326923...;
		 * z = (|7.5 - 21| - 0.5) / sqrt(48.3269) = 1.8700309;
		 * p = erfc(z / sqrt 2) = 0.0614795288 (python3: math.erfc). */
		static const double ta[] = { 1.1, 2.0, 2.0, 3.5, 4.2, 5.0 };
		static const double tb[] = { 2.0, 3.5, 4.8, 6.1, 7.0, 7.3, 8.0 };
		double pa = stats_mann_whitney(ta, 6, tb, 7);
		double pb = stats_mann_whitney(tb, 7, ta, 6);

		tap_ok(fabs(pa - 0.0614795288) < 1e-9 && fabs(pb - pa) < 1e-12,
		       "rank test: a worked case with ties, p = 0.0614795288 "
		       "either way round (%.10f, %.10f)", pa, pb);
	}
	{
		static const double same[] = { 3, 3, 3, 3, 3 };

		tap_ok(stats_mann_whitney(same, 5, same, 3) == 1.0,
		       "rank test: all values tied give p = 1");
	}
	base = (struct stats_point){ 12.5, 15, a, 6 };
	p = (struct stats_point){ 22.5, 25, c, 6 };
	v = stats_compare(&base, &p, 0.03);
	tap_ok(v.method == STATS_MANN_WHITNEY && v.significant,
	       "with raw samples the rank test decides");

	for (i = 0; i < 9; i++) {
		x[i] = (double)(16 << (2 * i));
		t[i] = 200 + x[i] * 0.25;
	}
	tap_ok(stats_fit_linear(x, t, 9, &o, &s) == 0 && fabs(o - 200) < 1e-6 &&
	       fabs(s - 0.25) < 1e-9, "fit recovers 200 ns + 0.25 ns/B (%.3f, %.5f)",
	       o, s);
	tap_ok(stats_fit_linear(x, t, 1, &o, &s) < 0, "one point cannot be fitted");
	{
		/* quartiles (type 7, rounded half up) and the coefficient of
		 * variation, hand-computed: R's quantile() gives 1.75, 2.5 and
		 * 3.25 for 1..4; sd(c(2,4,4,4,5,5,7,9)) / 5 = sqrt(32/7) / 5 */
		static const int64_t five[] = { 10, 20, 30, 40, 50 };
		static const int64_t four[] = { 1, 2, 3, 4 };
		static const int64_t halves[] = { 0, 1 };
		static const int64_t spread[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
		static const int64_t same[] = { 7, 7, 7 };

		tap_ok(stats_quartile(five, 5, 0) == 10 && stats_quartile(five, 5, 1) == 20 &&
		       stats_quartile(five, 5, 2) == 30 && stats_quartile(five, 5, 3) == 40 &&
		       stats_quartile(five, 5, 4) == 50, "quartiles of 10..50");
		tap_ok(stats_quartile(four, 4, 1) == 2 && stats_quartile(four, 4, 2) == 3 &&
		       stats_quartile(four, 4, 3) == 3,
		       "quartiles of 1..4: 1.75 -> 2, 2.5 -> 3, 3.25 -> 3");
		tap_ok(stats_quartile(halves, 2, 1) == 0 && stats_quartile(halves, 2, 2) == 1 &&
		       stats_quartile(halves, 2, 3) == 1, "rounded half up");
		tap_ok(stats_quartile(five, 0, 2) == -1 && stats_quartile(five, 5, 5) == -1,
		       "no values, or k > 4: -1");
		tap_ok(fabs(stats_cv(spread, 8) - sqrt(32.0 / 7.0) / 5.0) < 1e-12 &&
		       stats_cv(same, 3) == 0 && stats_cv(five, 1) == 0,
		       "cv: sample standard deviation over mean (%.5f); 0 for equal values or one",
		       stats_cv(spread, 8));
	}
	tap_ok(fabs(stats_nominal_ghz("Intel(R) Xeon(R) CPU @ 2.20GHz") - 2.2) < 1e-9 &&
	       stats_nominal_ghz("AMD EPYC 7B13") == 0,
	       "nominal GHz from the model name, 0 when absent");
	return tap_done();
}
