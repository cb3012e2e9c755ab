/* duet-pass.c - more rounds for a duet's undecided curves (see
 * duet-pass.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "lib/stats.h"
#include "lib/util.h"
#include "orchestrator/run/duet-pass.h"

size_t duet_pass_undecided(const struct duet_curve *c, size_t n,
			   char **libs, char **algos)
{
	size_t k = 0;

	*libs = NULL;
	*algos = NULL;
	for (size_t i = 0; i < n; i++) {
		if (c[i].r.verdict != PV_MORE)
			continue;
		bo_list_add(libs, c[i].library);
		bo_list_add(algos, c[i].algorithm);
		k++;
	}
	return k;
}

/* Whether R's curve is PV_MORE in C (N of them); always when C is NULL. */
static int undecided(const struct guest_result *r,
		     const struct duet_curve *c, size_t n)
{
	if (!c)
		return 1;	/* every curve */
	for (size_t i = 0; i < n; i++)
		if (c[i].r.verdict == PV_MORE &&
		    !strcmp(c[i].library, r->library) &&
		    !strcmp(c[i].algorithm, r->algorithm) &&
		    !strcmp(c[i].operation, r->operation) &&
		    !strcmp(c[i].mode, r->mode))
			return 1;
	return 0;
}

/* R's twin in OUT: the same library, algorithm, operation, mode and
 * size, with blocks; or NULL. */
static const struct guest_result *twin(const struct guest_output *out,
				       const struct guest_result *r)
{
	for (size_t i = 0; i < out->nresults; i++) {
		const struct guest_result *t = &out->results[i];

		if (t->buffer_bytes == r->buffer_bytes &&
		    t->calls_per_batch > 0 && t->t.samples_ns &&
		    !strcmp(t->library, r->library) &&
		    !strcmp(t->algorithm, r->algorithm) &&
		    !strcmp(t->operation, r->operation) &&
		    !strcmp(t->mode, r->mode))
			return t;
	}
	return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Recompute T's statistics (one set of all its samples) and R's MB/s. */
static void restat(struct guest_result *r)
{
	struct guest_timing *t = &r->t;
	size_t n = (size_t)t->nsamples;
	int64_t *v = xcalloc(n, sizeof(*v));

	memcpy(v, t->samples_ns, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_i64);
	t->repetitions = t->nsamples;
	t->sets = 1;
	t->min_ns = v[0];
	t->p25_ns = stats_quartile(v, n, 1);
	t->median_ns = stats_quartile(v, n, 2);
	t->p75_ns = stats_quartile(v, n, 3);
	t->cv = stats_cv(t->samples_ns, n);
	if (t->median_ns > 0)
		r->mb_per_s = (double)r->bytes_per_batch * 1e3 /
			      (double)t->median_ns;
	free(v);
}

size_t duet_pass_merge(struct guest_output *into,
		       const struct guest_output *from,
		       const struct duet_curve *c, size_t n)
{
	size_t merged = 0;

	for (size_t i = 0; i < into->nresults; i++) {
		struct guest_result *r = &into->results[i];
		const struct guest_result *t;
		int64_t add, k;
		double scale;

		if (!r->t.samples_ns || r->calls_per_batch <= 0 ||
		    r->t.sets != 1 || !undecided(r, c, n) ||
		    !(t = twin(from, r)) || t->t.sets != 1)
			continue;
		add = t->t.nsamples;
		if (r->t.nsamples + add > GUEST_MAX_REPETITIONS)
			add = GUEST_MAX_REPETITIONS - r->t.nsamples;
		if (add <= 0)
			continue;
		scale = (double)r->calls_per_batch / (double)t->calls_per_batch;
		r->t.samples_ns = xrealloc(r->t.samples_ns,
					   (size_t)(r->t.nsamples + add) *
					   sizeof(*r->t.samples_ns));
		for (k = 0; k < add; k++) {
			int64_t ns = llround((double)t->t.samples_ns[k] * scale);

			r->t.samples_ns[r->t.nsamples + k] = ns > 0 ? ns : 1;
		}
		r->t.nsamples += add;
		restat(r);
		merged++;
	}
	return merged;
}

/* Append to OUT's results one of mode MODE for LIBRARY, ALGORITHM and
 * OPERATION with CALLS a block and timing T (one set), unless T is not
 * that. Returns 1 when appended. */
static size_t add_result(struct guest_output *out, const char *library,
			 const char *algorithm, const char *operation,
			 const char *mode, int64_t calls,
			 const struct guest_timing *t, int verified)
{
	struct guest_result *r;

	if (t->sets != 1 || !t->samples_ns || t->nsamples < 1 ||
	    calls <= 0 || t->median_ns <= 0)
		return 0;
	out->results = xrealloc(out->results, (out->nresults + 1) *
					      sizeof(*out->results));
	r = &out->results[out->nresults++];
	memset(r, 0, sizeof(*r));
	r->library = xstrdup(library);
	r->algorithm = xstrdup(algorithm);
	r->operation = xstrdup(operation);
	r->mode = xstrdup(mode);
	r->buffer_bytes = 1;
	r->calls_per_batch = calls;
	r->bytes_per_batch = calls;
	r->t = *t;
	r->t.samples_ns = xcalloc((size_t)t->nsamples, sizeof(*t->samples_ns));
	memcpy(r->t.samples_ns, t->samples_ns,
	       (size_t)t->nsamples * sizeof(*t->samples_ns));
	r->mb_per_s = (double)calls * 1e3 / (double)t->median_ns;
	r->verified = verified;
	r->maxrss_kib = -1;
	return 1;
}

size_t duet_pk_results(struct guest_output *out)
{
	size_t added = 0;

	for (size_t i = 0; i < out->npkresults; i++) {
		const struct guest_pkresult *p = &out->pkresults[i];

		added += add_result(out, p->library, p->algorithm,
				    p->operation, DUET_PK_MODE,
				    p->calls_per_batch, &p->t, p->verified);
	}
	for (size_t i = 0; i < out->nkdfresults; i++) {
		const struct guest_kdfresult *k = &out->kdfresults[i];

		added += add_result(out, k->library, k->algorithm, "derive",
				    DUET_KDF_MODE, k->calls_per_batch, &k->t,
				    k->verified);
	}
	return added;
}

void duet_split_algos(const char *list, char **sym, char **pk, char **kdf)
{
	char *copy, *tok, *save = NULL;

	*sym = *pk = *kdf = NULL;
	if (!list)
		return;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		bo_list_add(pubkey_find(tok) ? pk : kdf_find(tok) ? kdf : sym,
			    tok);
	free(copy);
	if (!*sym)
		*sym = xstrdup("none");
}
