/* t3176-duet-pass - more rounds for a duet's undecided curves
 * (orchestrator/run/duet-pass.h), on synthetic outputs:
 *  - the libraries and algorithms of the undecided (PV_MORE) curves, each
 *    named once;
 *  - a later pass's blocks are appended to the undecided curves' points
 *    only, scaled to the first pass's calls per block so that the
 *    throughput of each block is kept, and the point's statistics are
 *    recomputed over all its rounds (quartiles as guest/PROTOCOL.md:
 *    Hyndman and Fan type 7);
 *  - a point without a twin in the later pass is left as it was;
 *  - the rounds never exceed GUEST_MAX_REPETITIONS;
 *  - judged again with looks at 4 and 8 rounds, an A/B of a 10 % slower
 *    new side undecided at 4 rounds (too few) is slower at 8;
 *  - rounds from two pairs of guests that disagree: the pairs' variance
 *    pooled over the library's curves widens each interval. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "orchestrator/run/duet-judge.h"
#include "orchestrator/run/duet-pass.h"
#include "tests/tap.h"

/* Fill R as a duet's point: LIB ALGO encrypt bulk at SIZE bytes, CALLS
 * calls per block, N blocks of NS[k] ns. */
static void point(struct guest_result *r, const char *lib, const char *algo,
		  int64_t size, int64_t calls, const int64_t *ns, int64_t n)
{
	memset(r, 0, sizeof(*r));
	r->library = xstrdup(lib);
	r->algorithm = xstrdup(algo);
	r->operation = xstrdup("encrypt");
	r->mode = xstrdup("bulk");
	r->buffer_bytes = size;
	r->calls_per_batch = calls;
	r->bytes_per_batch = calls * size;
	r->t.repetitions = n;
	r->t.sets = 1;
	r->t.nsamples = n;
	r->t.samples_ns = xcalloc((size_t)n, sizeof(int64_t));
	memcpy(r->t.samples_ns, ns, (size_t)n * sizeof(int64_t));
	r->t.median_ns = ns[0];
	r->mb_per_s = (double)r->bytes_per_batch * 1e3 / (double)ns[0];
}

static void output(struct guest_output *o, size_t n)
{
	memset(o, 0, sizeof(*o));
	o->results = xcalloc(n, sizeof(*o->results));
	o->nresults = n;
}

static void release(struct guest_output *o)
{
	for (size_t i = 0; i < o->nresults; i++) {
		struct guest_result *r = &o->results[i];

		free(r->library);
		free(r->algorithm);
		free(r->operation);
		free(r->mode);
		free(r->t.samples_ns);
	}
	free(o->results);
}

static struct duet_curve curve(const char *lib, const char *algo,
			       enum pv_verdict v)
{
	struct duet_curve c;

	memset(&c, 0, sizeof(c));
	c.library = lib;
	c.algorithm = algo;
	c.operation = "encrypt";
	c.mode = "bulk";
	c.r.verdict = v;
	return c;
}

static void test_undecided(void)
{
	struct duet_curve c[4] = {
		curve("openssl", "aes-128-ctr", PV_MORE),
		curve("openssl", "sha-256", PV_SAME),
		curve("nettle", "aes-128-ctr", PV_MORE),
		curve("openssl", "aes-128-ctr", PV_MORE),
	};
	char *libs, *algos;
	size_t n = duet_pass_undecided(c, 4, &libs, &algos);

	tap_ok(n == 3 && libs && algos && !strcmp(libs, "openssl,nettle") &&
	       !strcmp(algos, "aes-128-ctr"),
	       "undecided: 3 curves, libraries 'openssl,nettle', algorithms "
	       "'aes-128-ctr' (got %zu, %s, %s)", n, libs ? libs : "NULL",
	       algos ? algos : "NULL");
	free(libs);
	free(algos);
	c[0].r.verdict = c[2].r.verdict = c[3].r.verdict = PV_SLOWER;
	n = duet_pass_undecided(c, 4, &libs, &algos);
	tap_ok(n == 0 && !libs && !algos, "nothing undecided: no lists");
}

static void test_merge(void)
{
	static const int64_t first[4] = { 1000, 1100, 1200, 1300 };
	static const int64_t later[4] = { 2000, 2200, 2400, 2600 };
	static const int64_t kept[4] = { 500, 500, 500, 500 };
	struct duet_curve c[2] = {
		curve("openssl", "aes-128-ctr", PV_MORE),
		curve("openssl", "sha-256", PV_SAME),
	};
	struct guest_output into, from;
	const struct guest_result *r;
	size_t n;
	int ok = 1;

	output(&into, 3);
	point(&into.results[0], "openssl", "aes-128-ctr", 16, 100, first, 4);
	point(&into.results[1], "openssl", "sha-256", 16, 100, kept, 4);
	point(&into.results[2], "openssl", "aes-128-ctr", 1024, 10, first, 4);
	output(&from, 2);
	/* twice the calls per block: the same throughput takes twice the
	 * time */
	point(&from.results[0], "openssl", "aes-128-ctr", 16, 200, later, 4);
	point(&from.results[1], "openssl", "sha-256", 16, 200, later, 4);
	n = duet_pass_merge(&into, &from, c, 2);
	r = &into.results[0];
	tap_ok(n == 1 && r->t.nsamples == 8 && r->t.repetitions == 8 &&
	       r->t.sets == 1, "one point got 4 rounds more (merged %zu; %lld "
	       "rounds)", n, (long long)r->t.nsamples);
	for (int k = 0; k < 4; k++)
		ok &= r->t.samples_ns[4 + k] == later[k] / 2 &&
		      r->t.samples_ns[k] == first[k];
	tap_ok(ok, "the later blocks scaled to the first pass's calls per "
	       "block (2000 ns for 200 calls is 1000 ns for 100), after its "
	       "own");
	/* sorted: 1000 1000 1100 1100 1200 1200 1300 1300; type 7: quartile
	 * 1 at 1.75 (1075), 2 at 3.5 (1150), 3 at 5.25 (1225) */
	tap_ok(r->t.min_ns == 1000 && r->t.median_ns == 1150 &&
	       r->t.p25_ns == 1075 && r->t.p75_ns == 1225 &&
	       fabs(r->mb_per_s - 1600.0 * 1e3 / 1150) < 1e-9,
	       "its statistics over all 8 rounds: min 1000, quartiles 1075 "
	       "1150 1225 ns, MB/s at the median (%lld %lld %lld %lld, %.3f)",
	       (long long)r->t.min_ns, (long long)r->t.p25_ns,
	       (long long)r->t.median_ns, (long long)r->t.p75_ns,
	       r->mb_per_s);
	tap_ok(into.results[1].t.nsamples == 4 &&
	       into.results[1].t.samples_ns[0] == 500,
	       "a decided curve's point keeps its rounds");
	tap_ok(into.results[2].t.nsamples == 4,
	       "a point without a twin in the later pass keeps its rounds");
	release(&into);
	release(&from);
}

static void test_cap(void)
{
	int64_t ns[GUEST_MAX_REPETITIONS];
	struct duet_curve c = curve("openssl", "aes-128-ctr", PV_MORE);
	struct guest_output into, from;

	for (int k = 0; k < GUEST_MAX_REPETITIONS; k++)
		ns[k] = 1000 + k;
	output(&into, 1);
	point(&into.results[0], "openssl", "aes-128-ctr", 16, 100, ns,
	      GUEST_MAX_REPETITIONS - 10);
	output(&from, 1);
	point(&from.results[0], "openssl", "aes-128-ctr", 16, 100, ns, 100);
	duet_pass_merge(&into, &from, &c, 1);
	tap_ok(into.results[0].t.nsamples == GUEST_MAX_REPETITIONS,
	       "rounds stop at %d (got %lld)", GUEST_MAX_REPETITIONS,
	       (long long)into.results[0].t.nsamples);
	release(&into);
	release(&from);
}

/* An A/B: NEW 10 % slower than BASE at every block, with a deterministic
 * wobble of 6 to 8 % per round on the new side. Judged with looks at 4
 * and 8 rounds: undecided (PV_MORE) at 4, slower at 8 once a later pass
 * is merged. */
static void test_looks(void)
{
	static const double wobble[8] = { 0.08, -0.07, 0.06, -0.08,
					  0.07, -0.06, 0.08, -0.07 };
	int64_t b[8], nw[8];
	struct guest_output base, neu, base2, neu2;
	struct duet_judge_params jp = { .threshold = 0.03, .alpha = 0.05,
					.first_look = 4, .max_rounds = 8 };
	struct duet_curve *c = NULL;
	size_t n;

	for (int k = 0; k < 8; k++) {
		b[k] = 100000;
		nw[k] = llround(100000 / 0.9 * (1 + wobble[k]));
	}
	output(&base, 1);
	output(&neu, 1);
	point(&base.results[0], "openssl", "aes-128-ctr", 16, 100, b, 4);
	point(&neu.results[0], "openssl", "aes-128-ctr", 16, 100, nw, 4);
	n = duet_judge(&base, &neu, &jp, &c);
	tap_ok(n == 1 && c[0].r.verdict == PV_MORE && c[0].r.rounds == 4,
	       "4 rounds of a 10 %% slowdown: more rounds wanted (%s)",
	       n ? pv_verdict_name(c[0].r.verdict) : "no curve");
	output(&base2, 1);
	output(&neu2, 1);
	point(&base2.results[0], "openssl", "aes-128-ctr", 16, 100, b + 4, 4);
	point(&neu2.results[0], "openssl", "aes-128-ctr", 16, 100, nw + 4, 4);
	duet_pass_merge(&base, &base2, c, n);
	duet_pass_merge(&neu, &neu2, c, n);
	free(c);
	n = duet_judge(&base, &neu, &jp, &c);
	tap_ok(n == 1 && c[0].r.verdict == PV_SLOWER && c[0].r.rounds == 8 &&
	       c[0].r.effect < -0.08 && c[0].r.effect > -0.12,
	       "with the later pass's 4 rounds: slower at 8 rounds, effect "
	       "%.3f", n ? c[0].r.effect : 0);
	free(c);
	release(&base);
	release(&neu);
	release(&base2);
	release(&neu2);
}

/* Two pairs of guests whose processes disagree: each of a library's six
 * curves (four sizes) is 8 rounds, the first 4 from a pair where NEW is
 * 7 % slower and the last 4 from a pair where it is 3 % slower, with a
 * small wobble per round. One pair per curve (no pass starts): the
 * rounds' spread alone calls the curves slower; with the pass starts
 * {0, 4}, the pairs' disagreement, pooled over the curves, widens every
 * interval (two processes per side cannot tell -7 % from -3 %), and no
 * curve is called. Also: a merge with
 * no curves given (C NULL, the first look's second pair) appends to
 * every point. */
static void test_pairs(void)
{
	static const char *const algos[6] = { "a1", "a2", "a3", "a4", "a5",
					      "a6" };
	static const double shift[2] = { -0.07, -0.03 };
	static const unsigned start[2] = { 0, 4 };
	struct guest_output base, neu, base2, neu2;
	struct duet_judge_params jp = { .threshold = 0.03, .alpha = 0.05,
					.first_look = 8, .max_rounds = 8 };
	struct duet_curve *c = NULL;
	size_t n, called = 0, wider = 0, merged;
	double width[6] = { 0 };

	output(&base, 24);
	output(&neu, 24);
	output(&base2, 24);
	output(&neu2, 24);
	for (int a = 0; a < 6; a++)
		for (int z = 0; z < 4; z++) {
			int64_t b[4], nw[2][4];
			int i = a * 4 + z;

			for (int k = 0; k < 4; k++) {
				double w = 0.004 * ((a + z + k) % 3 - 1);

				b[k] = 100000;
				for (int p = 0; p < 2; p++)
					nw[p][k] = llround(100000 /
						(1 + shift[p] + w));
			}
			point(&base.results[i], "openssl", algos[a], 16 << z,
			      100, b, 4);
			point(&neu.results[i], "openssl", algos[a], 16 << z,
			      100, nw[0], 4);
			point(&base2.results[i], "openssl", algos[a], 16 << z,
			      100, b, 4);
			point(&neu2.results[i], "openssl", algos[a], 16 << z,
			      100, nw[1], 4);
		}
	merged = duet_pass_merge(&base, &base2, NULL, 0) +
		 duet_pass_merge(&neu, &neu2, NULL, 0);
	tap_ok(merged == 48 && base.results[23].t.nsamples == 8,
	       "a merge without curves appends to every point (%zu merged)",
	       merged);
	n = duet_judge(&base, &neu, &jp, &c);
	for (size_t i = 0; i < n && i < 6; i++) {
		called += c[i].r.verdict == PV_SLOWER;
		width[i] = c[i].r.high - c[i].r.low;
	}
	tap_ok(n == 6 && called == 6, "the rounds alone: %zu of 6 curves "
	       "slower (%.3f .. %.3f)", called, n ? c[0].r.low : 0,
	       n ? c[0].r.high : 0);
	free(c);
	jp.pass_start = start;
	jp.npasses = 2;
	called = 0;
	n = duet_judge(&base, &neu, &jp, &c);
	for (size_t i = 0; i < n; i++) {
		called += c[i].r.verdict == PV_SLOWER ||
			  c[i].r.verdict == PV_FASTER;
		wider += i < 6 && c[i].r.high - c[i].r.low > 2 * width[i];
	}
	tap_ok(n == 6 && called == 0 && wider == 6,
	       "with the two pairs' starts: %zu of 6 called, %zu intervals "
	       "twice as wide (%.3f .. %.3f, %s)", called, wider,
	       n ? c[0].r.low : 0, n ? c[0].r.high : 0,
	       n ? pv_verdict_name(c[0].r.verdict) : "none");
	free(c);
	release(&base);
	release(&neu);
	release(&base2);
	release(&neu2);
}

int main(void)
{
	test_pairs();
	test_undecided();
	test_merge();
	test_cap();
	test_looks();
	return tap_done();
}
