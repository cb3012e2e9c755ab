/* t3050-plan - a run's order drawn from its seed: rounds cover every
 * algorithm exactly twice (the second half of the rounds mirrors the
 * first), or with three passes exactly three times, once in each third
 * of the run, the round numbers of every algorithm summing to the same
 * (symmetric about the middle); every round measures every distribution
 * exactly once, the invocations of a point differ in order, the same
 * seed gives the same plan and another seed another. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/shuffle.h"
#include "lib/algorithms.h"
#include "orchestrator/run/plan.h"
#include "lib/util.h"
#include "tests/tap.h"

/* 1 when plans A and B are identical. */
static int same_plan(const struct plan *a, const struct plan *b)
{
	size_t i;

	if (a->nrounds != b->nrounds || a->nsteps != b->nsteps)
		return 0;
	for (i = 0; i < a->nrounds; i++)
		if (strcmp(a->algos[i], b->algos[i]) != 0)
			return 0;
	for (i = 0; i < a->nsteps; i++)
		if (a->steps[i].round != b->steps[i].round ||
		    a->steps[i].spec != b->steps[i].spec ||
		    a->steps[i].guest_seed != b->steps[i].guest_seed)
			return 0;
	return 1;
}

/* 1 when the comma-separated list B is list A reversed. */
static int mirrored(const char *a, const char *b)
{
	char *ca = xstrdup(a), *cb = xstrdup(b), *ta[64], *tb[64], *s = NULL;
	size_t na = 0, nb = 0, i;
	int ok = 1;

	for (char *t = strtok_r(ca, ",", &s); t && na < 64;
	     t = strtok_r(NULL, ",", &s))
		ta[na++] = t;
	s = NULL;
	for (char *t = strtok_r(cb, ",", &s); t && nb < 64;
	     t = strtok_r(NULL, ",", &s))
		tb[nb++] = t;
	ok = na == nb;
	for (i = 0; ok && i < na; i++)
		ok = strcmp(ta[i], tb[na - 1 - i]) == 0;
	free(ca);
	free(cb);
	return ok;
}

/* 1 when the rounds of P hold each of the N names exactly twice, in two
 * different rounds, in groups whose sizes differ by at most one, round
 * nrounds - 1 - i holding the algorithms of round i in the reverse
 * order. */
static int covers(const struct plan *p, const char *const *names, size_t n)
{
	size_t i, total = 0, min = (size_t)-1, max = 0;
	int *seen = xcalloc(n, sizeof(int)), ok = 1;
	int *seen_in = xcalloc(n, sizeof(int));

	if (p->nrounds % 2)
		ok = 0;
	for (i = 0; ok && i < p->nrounds / 2; i++)
		if (!mirrored(p->algos[i], p->algos[p->nrounds - 1 - i]))
			ok = 0;
	for (i = 0; i < p->nrounds; i++) {
		char *copy = xstrdup(p->algos[i]), *tok, *save = NULL;
		size_t k = 0;

		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save), k++) {
			size_t j;

			for (j = 0; j < n && strcmp(names[j], tok) != 0; j++)
				;
			if (j == n || seen[j] >= 2 ||
			    (seen[j] == 1 && (size_t)seen_in[j] == i))
				ok = 0;
			if (j < n) {
				seen[j]++;
				seen_in[j] = (int)i;
			}
			total++;
		}
		min = k < min ? k : min;
		max = k > max ? k : max;
		free(copy);
	}
	free(seen);
	free(seen_in);
	return ok && total == 2 * n && max - min <= 1;
}

/* 1 when P (three passes of H = nrounds / 3 rounds) holds each of the N
 * NAMES exactly once in each third of its rounds, the three round
 * numbers of every name summing to the same, the groups of each pass
 * the same sets, whose sizes differ by at most one. */
static int covers_thrice(const struct plan *p, const char *const *names,
			 size_t n)
{
	size_t h = p->nrounds / 3, i, k, sum0 = 0, min = (size_t)-1, max = 0;
	int ok = p->nrounds % 3 == 0 && h > 0;

	for (k = 0; ok && k < n; k++) {
		size_t len = strlen(names[k]), sum = 0, where[3], seen = 0;

		for (i = 0; i < p->nrounds; i++)
			for (const char *c = p->algos[i];
			     (c = strstr(c, names[k])); c += len)
				if ((c == p->algos[i] || c[-1] == ',') &&
				    (c[len] == ',' || c[len] == '\0')) {
					if (seen < 3)
						where[seen] = i;
					seen++;
					sum += i;
				}
		ok = seen == 3 && where[0] < h && where[1] >= h &&
		     where[1] < 2 * h && where[2] >= 2 * h;
		if (k == 0)
			sum0 = sum;
		ok = ok && sum == sum0;
	}
	for (i = 0; ok && i < p->nrounds; i++) {
		size_t count = 1;

		for (const char *c = p->algos[i]; *c; c++)
			count += *c == ',';
		min = count < min ? count : min;
		max = count > max ? count : max;
	}
	return ok && max - min <= 1;
}

/* 1 when P's rounds hold each of the N names in NAMES exactly once
 * and their group sizes differ by at most one. */
static int once_each(const struct plan *p, const char *const *names, size_t n)
{
	size_t i, k, min = (size_t)-1, max = 0, total = 0;
	int ok = 1;

	for (i = 0; i < p->nrounds; i++) {
		size_t count = 1;

		for (const char *c = p->algos[i]; *c; c++)
			count += *c == ',';
		total += count;
		min = count < min ? count : min;
		max = count > max ? count : max;
	}
	for (k = 0; k < n; k++) {
		size_t seen = 0, len = strlen(names[k]);

		for (i = 0; i < p->nrounds; i++)
			for (const char *c = p->algos[i]; (c = strstr(c, names[k]));
			     c += len)
				if ((c == p->algos[i] || c[-1] == ',') &&
				    (c[len] == ',' || c[len] == '\0'))
					seen++;
		ok &= seen == 1;
	}
	return ok && total == n && max - min <= 1;
}

/* 1 when every round of P runs each of NSPECS distributions once, the
 * rounds one after the other. */
static int rounds_complete(const struct plan *p, size_t nspecs)
{
	size_t r, k;

	for (r = 0; r < p->nrounds; r++) {
		int seen[16] = { 0 };

		for (k = 0; k < nspecs; k++) {
			const struct plan_step *s = &p->steps[r * nspecs + k];

			if (s->round != r || s->spec >= nspecs || seen[s->spec]++ ||
			    s->guest_seed > SHUFFLE_SEED_MAX)
				return 0;
		}
	}
	return p->nsteps == p->nrounds * nspecs;
}

int main(void)
{
	const char *all[64];
	const char *two[] = { "sha-256", "aes-128-cbc" };
	struct plan a, b;
	size_t n, i, differ;
	uint64_t seed;
	int ok;

	for (n = 0; n < 64 && (all[n] = algorithm_name(n)); n++)
		;
	plan_make(12345, all, n, 3, PLAN_ROUNDS, PLAN_PASSES, &a);
	tap_ok(a.nrounds == 2 * PLAN_ROUNDS && a.nsteps == 6 * PLAN_ROUNDS,
	       "%zu algorithms, 3 distributions: %d rounds, %d invocations",
	       n, 2 * PLAN_ROUNDS, 6 * PLAN_ROUNDS);
	tap_ok(covers(&a, all, n),
	       "every algorithm in exactly two rounds, the second half mirroring the first, groups of even size");
	tap_ok(rounds_complete(&a, 3), "every round runs every distribution exactly once");
	plan_make(12345, all, n, 3, PLAN_ROUNDS, PLAN_PASSES, &b);
	tap_ok(same_plan(&a, &b), "the same seed gives the same plan");
	plan_release(&b);

	differ = 0;
	for (seed = 0; seed < 100; seed++) {
		plan_make(seed, all, n, 3, PLAN_ROUNDS, PLAN_PASSES, &b);
		if (!same_plan(&a, &b) && strcmp(a.algos[0], b.algos[0]) != 0)
			differ++;
		ok = covers(&b, all, n) && rounds_complete(&b, 3);
		plan_release(&b);
		if (!ok)
			break;
	}
	tap_ok(differ == 100 && ok,
	       "100 other seeds give other orders (%zu), each complete", differ);

	ok = 0;
	for (i = 1; i < a.nrounds; i++)
		if (a.steps[i * 3].spec != a.steps[0].spec)
			ok = 1;
	tap_ok(ok, "the distributions are not measured in the same order every round");
	ok = 1;
	for (i = 0; i < a.nsteps; i++)
		for (size_t j = i + 1; j < a.nsteps; j++)
			if (a.steps[i].guest_seed == a.steps[j].guest_seed)
				ok = 0;
	tap_ok(ok && a.nsteps > 2,
	       "every invocation gets its own guest seed, pairwise distinct (%zu seeds)",
	       a.nsteps);
	plan_release(&a);

	/* a point's two invocations differ in order: for every seed tried,
	 * every distribution's guest seeds are pairwise distinct, so its
	 * libraries run in another order the second time */
	ok = 1;
	for (seed = 0; seed < 200 && ok; seed++) {
		plan_make(seed, two, 2, 2, PLAN_ROUNDS, PLAN_PASSES, &b);
		for (i = 0; i < b.nsteps; i++)
			for (size_t j = i + 1; j < b.nsteps; j++)
				if (b.steps[i].spec == b.steps[j].spec &&
				    b.steps[i].guest_seed == b.steps[j].guest_seed)
					ok = 0;
		plan_release(&b);
	}
	tap_ok(ok, "a distribution never gets the same guest seed twice (200 plans)");

	/* fewer algorithms than rounds, and a single round per pass */
	plan_make(7, two, 2, 1, PLAN_ROUNDS, PLAN_PASSES, &a);
	tap_ok(a.nrounds == 4 && a.nsteps == 4 && covers(&a, two, 2) &&
	       !strchr(a.algos[0], ','),
	       "two algorithms: four rounds of one (%s | %s | %s | %s)",
	       a.algos[0], a.algos[1], a.algos[2], a.algos[3]);
	plan_release(&a);
	plan_make(7, two, 2, 2, 1, PLAN_PASSES, &a);
	tap_ok(a.nrounds == 2 && a.nsteps == 4 && covers(&a, two, 2) &&
	       strcmp(a.algos[0], a.algos[1]) != 0,
	       "one round per pass: everything in two invocations per distribution, in opposite orders (%s | %s)",
	       a.algos[0], a.algos[1]);
	plan_release(&a);
	plan_make(7, two, 1, 1, PLAN_ROUNDS, PLAN_PASSES, &a);
	tap_ok(a.nrounds == 2 && a.steps[0].guest_seed != a.steps[1].guest_seed,
	       "one algorithm: two rounds with different guest seeds");
	plan_release(&a);

	/* taking turns: three passes */
	plan_make(12345, all, n, 3, PLAN_INTERLEAVED_ROUNDS,
		  PLAN_INTERLEAVED_PASSES, &a);
	tap_ok(a.nrounds == 9 && a.nsteps == 27 && covers_thrice(&a, all, n) &&
	       rounds_complete(&a, 3),
	       "three passes: 9 rounds, every algorithm once in each third, "
	       "its round numbers summing to the same as every other's");
	ok = 1;
	for (seed = 0; seed < 100 && ok; seed++) {
		plan_make(seed, all, n, 2, PLAN_INTERLEAVED_ROUNDS,
			  PLAN_INTERLEAVED_PASSES, &b);
		ok = covers_thrice(&b, all, n) && rounds_complete(&b, 2);
		for (i = 0; ok && i < b.nsteps; i++)
			for (size_t j = i + 1; j < b.nsteps; j++)
				if (b.steps[i].spec == b.steps[j].spec &&
				    b.steps[i].guest_seed ==
					    b.steps[j].guest_seed)
					ok = 0;
		plan_release(&b);
	}
	tap_ok(ok, "three passes, 100 seeds: each complete and symmetric, "
	       "no guest seed twice for a distribution");
	a.pubkey = xstrdup("all");
	a.kdf = xstrdup("all");
	ok = 1;
	for (i = 0; i < a.nrounds; i++)
		ok &= plan_round_has_pubkey(&a, i) ==
		      (i == 0 || i == a.nrounds - 1) &&
		      plan_round_has_kdf(&a, i) == (i == 0);
	tap_ok(ok, "three passes: public key in the first and the last "
	       "round, key derivation in the first");
	plan_release(&a);
	plan_make(7, two, 2, 1, PLAN_INTERLEAVED_ROUNDS,
		  PLAN_INTERLEAVED_PASSES, &a);
	tap_ok(a.nrounds == 3 && covers_thrice(&a, two, 2) &&
	       strchr(a.algos[0], ','),
	       "three passes of two algorithms: an odd count of rounds per "
	       "pass, so one, both algorithms in each (%s | %s | %s)",
	       a.algos[0], a.algos[1], a.algos[2]);
	plan_release(&a);
	plan_make(7, all, 5, 1, 5, PLAN_INTERLEAVED_PASSES, &a);
	tap_ok(a.nrounds == 15 && covers_thrice(&a, all, 5),
	       "three passes of five rounds: symmetric too");
	plan_release(&a);

	/* --quick: one pass, every algorithm once */
	plan_make(12345, all, n, 3, PLAN_ROUNDS, PLAN_QUICK_PASSES, &a);
	tap_ok(a.nrounds == PLAN_ROUNDS && a.nsteps == 3 * PLAN_ROUNDS &&
	       rounds_complete(&a, 3) && once_each(&a, all, n),
	       "one pass: %d rounds, %d invocations, every algorithm in exactly one round, groups of even size",
	       PLAN_ROUNDS, 3 * PLAN_ROUNDS);
	a.pubkey = xstrdup("all");
	a.kdf = xstrdup("all");
	ok = 1;
	for (i = 0; i < a.nrounds; i++)
		ok &= plan_round_has_pubkey(&a, i) == (i == a.nrounds - 1) &&
		      plan_round_has_kdf(&a, i) == (i == 0);
	tap_ok(ok, "one pass: public key in the last round only, key derivation in the first");
	plan_release(&a);
	plan_make(12345, all, n, 3, PLAN_ROUNDS, PLAN_PASSES, &a);
	a.pubkey = xstrdup("x25519");
	ok = 1;
	for (i = 0; i < a.nrounds; i++)
		ok &= plan_round_has_pubkey(&a, i) ==
		      (i == 0 || i == a.nrounds - 1) &&
		      !plan_round_has_kdf(&a, i);
	tap_ok(ok, "two passes: public key in the first and the last round, no key derivation asked for");
	plan_release(&a);
	return tap_done();
}
