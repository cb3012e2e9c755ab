/* duet-pass.c - more rounds for a duet's undecided curves (see
 * duet-pass.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

size_t duet_pk_results(struct guest_output *out)
{
	size_t added = 0;

	for (size_t i = 0; i < out->npkresults; i++) {
		const struct guest_pkresult *p = &out->pkresults[i];
		struct guest_result *r;

		if (p->t.sets != 1 || !p->t.samples_ns || p->t.nsamples < 1 ||
		    p->calls_per_batch <= 0 || p->t.median_ns <= 0)
			continue;
		out->results = xrealloc(out->results, (out->nresults + 1) *
						      sizeof(*out->results));
		r = &out->results[out->nresults++];
		memset(r, 0, sizeof(*r));
		r->library = xstrdup(p->library);
		r->algorithm = xstrdup(p->algorithm);
		r->operation = xstrdup(p->operation);
		r->mode = xstrdup(DUET_PK_MODE);
		r->buffer_bytes = 1;
		r->calls_per_batch = p->calls_per_batch;
		r->bytes_per_batch = p->calls_per_batch;
		r->t = p->t;
		r->t.samples_ns = xcalloc((size_t)p->t.nsamples,
					  sizeof(*r->t.samples_ns));
		memcpy(r->t.samples_ns, p->t.samples_ns,
		       (size_t)p->t.nsamples * sizeof(*r->t.samples_ns));
		r->mb_per_s = (double)r->bytes_per_batch * 1e3 /
			      (double)r->t.median_ns;
		r->verified = p->verified;
		r->maxrss_kib = -1;
		added++;
	}
	return added;
}

void duet_split_algos(const char *list, char **sym, char **pk)
{
	char *copy, *tok, *save = NULL;

	*sym = *pk = NULL;
	if (!list)
		return;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		bo_list_add(pubkey_find(tok) ? pk : sym, tok);
	free(copy);
	if (!*sym)
		*sym = xstrdup("none");
}
