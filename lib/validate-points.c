/* validate-points.c - check the measured points of guest output lines
 * (`result` and `keysetup`): their timing against their own samples
 * (guest/PROTOCOL.md, "Samples"), their throughput against their timing
 * (see validate.h). */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/guest-resources.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "lib/stats.h"
#include "lib/validate.h"

/* qsort order of int64_t values, ascending. */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The optional 'sets' member of O into t->sets (1 when absent: a
 * guest older than the member measured one set), and t->nsamples; after
 * t->repetitions is read. */
static int get_sets(json_t *o, size_t lineno, struct guest_timing *t,
		    bo_err *err)
{
	t->sets = 1;
	if (json_object_get(o, "sets") &&
	    guest_field_int(o, "sets", 1, GUEST_MAX_SETS, lineno, &t->sets,
			    err) < 0)
		return -1;
	t->nsamples = t->repetitions * t->sets;
	if (t->nsamples > GUEST_MAX_REPETITIONS)
		return bo_err_set(err, "guest output line %zu: 'repetitions' x 'sets' is %lld, more than %d samples",
				  lineno, (long long)t->nsamples,
				  GUEST_MAX_REPETITIONS);
	return 0;
}

/* The samples_ns array of O: exactly T->nsamples integers 1 ..
 * GUEST_MAX_BATCH_NS, into a new array in t->samples_ns. */
static int get_samples(json_t *o, size_t lineno, struct guest_timing *t,
		       bo_err *err)
{
	json_t *a = json_object_get(o, "samples_ns"), *v;
	size_t i, n;

	if (!a || !json_is_array(a))
		return bo_err_set(err, "guest output line %zu: 'samples_ns' must be an array of integers",
				  lineno);
	n = json_array_size(a);
	if ((int64_t)n != t->nsamples)
		return bo_err_set(err, "guest output line %zu: 'samples_ns' has %zu samples, 'repetitions' x 'sets' says %lld",
				  lineno, n, (long long)t->nsamples);
	t->samples_ns = xcalloc(n, sizeof(*t->samples_ns));
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > GUEST_MAX_BATCH_NS) {
			free(t->samples_ns);
			t->samples_ns = NULL;
			return bo_err_set(err, "guest output line %zu: 'samples_ns' must hold integers 1 .. 2^50 (ns per batch)",
					  lineno);
		}
		t->samples_ns[i] = (int64_t)json_integer_value(v);
	}
	return 0;
}

/* The median of the sets' medians of T's samples (guest/PROTOCOL.md,
 * "Samples"), each median as stats_quartile's quartile 2; ns per batch. */
static int64_t median_of_sets(const struct guest_timing *t)
{
	int64_t *one = xcalloc((size_t)t->repetitions, sizeof(*one));
	int64_t *medians = xcalloc((size_t)t->sets, sizeof(*medians)), m;
	int64_t k;

	for (k = 0; k < t->sets; k++) {
		memcpy(one, t->samples_ns + k * t->repetitions,
		       (size_t)t->repetitions * sizeof(*one));
		qsort(one, (size_t)t->repetitions, sizeof(*one), cmp_i64);
		medians[k] = stats_quartile(one, (size_t)t->repetitions, 2);
	}
	qsort(medians, (size_t)t->sets, sizeof(*medians), cmp_i64);
	m = stats_quartile(medians, (size_t)t->sets, 2);
	free(one);
	free(medians);
	return m;
}

/* The timing members of a result or keysetup line into *t (samples
 * allocated; the caller owns them on success), each checked against the
 * samples: min_ns, p25_ns and p75_ns must be the quartiles of all the
 * samples as PROTOCOL.md defines them (stats_quartile), median_ns the
 * median of the sets' medians (the samples are 'sets' sets of
 * 'repetitions', set after set; 'sets' absent means 1), cv the
 * coefficient of variation of all samples (to 10^-6). */
static int get_timing(json_t *o, size_t lineno, struct guest_timing *t,
		      bo_err *err)
{
	static const char *const names[] = { "min_ns", "p25_ns", "median_ns",
					     "p75_ns" };
	int64_t *sorted, want[4];
	json_t *v;
	double cv;
	unsigned k;

	memset(t, 0, sizeof(*t));
	if (guest_field_int(o, "repetitions", 1, GUEST_MAX_REPETITIONS, lineno,
			    &t->repetitions, err) < 0 ||
	    guest_field_int(o, "median_ns", 1, GUEST_MAX_BATCH_NS, lineno,
			    &t->median_ns, err) < 0 ||
	    guest_field_int(o, "min_ns", 1, GUEST_MAX_BATCH_NS, lineno,
			    &t->min_ns, err) < 0 ||
	    guest_field_int(o, "p25_ns", 1, GUEST_MAX_BATCH_NS, lineno,
			    &t->p25_ns, err) < 0 ||
	    guest_field_int(o, "p75_ns", 1, GUEST_MAX_BATCH_NS, lineno,
			    &t->p75_ns, err) < 0 ||
	    guest_field_int(o, "reruns", 0, GUEST_MAX_RERUNS, lineno,
			    &t->reruns, err) < 0 ||
	    get_sets(o, lineno, t, err) < 0 ||
	    guest_field_bool(o, "noisy", lineno, &t->noisy, err) < 0 ||
	    guest_field_int(o, "tsc_cycles", 0, INT64_C(1) << 62, lineno,
			    &t->tsc_cycles, err) < 0)
		return -1;
	if (t->min_ns > t->median_ns)
		return bo_err_set(err, "guest output line %zu: 'min_ns' exceeds 'median_ns'",
				  lineno);
	/* the median of an even number of sets' medians can lie outside
	 * [p25, p75] of all the samples; it is recomputed below */
	if (t->p25_ns < t->min_ns || t->p75_ns < t->p25_ns)
		return bo_err_set(err, "guest output line %zu: quartiles out of order (min_ns <= p25_ns <= p75_ns)",
				  lineno);
	v = json_object_get(o, "cv");
	if (!v || !json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) < 0)
		return bo_err_set(err, "guest output line %zu: 'cv' must be a number >= 0",
				  lineno);
	t->cv = json_number_value(v);
	if (get_samples(o, lineno, t, err) < 0)
		return -1;
	sorted = xcalloc((size_t)t->nsamples, sizeof(*sorted));
	memcpy(sorted, t->samples_ns, (size_t)t->nsamples * sizeof(*sorted));
	qsort(sorted, (size_t)t->nsamples, sizeof(*sorted), cmp_i64);
	for (k = 0; k < 4; k++)
		want[k] = stats_quartile(sorted, (size_t)t->nsamples, k);
	free(sorted);
	want[2] = median_of_sets(t);
	cv = stats_cv(t->samples_ns, (size_t)t->nsamples);
	if (want[0] != t->min_ns || want[1] != t->p25_ns ||
	    want[2] != t->median_ns || want[3] != t->p75_ns) {
		int64_t got[4] = { t->min_ns, t->p25_ns, t->median_ns,
				   t->p75_ns };

		for (k = 0; k < 4 && want[k] == got[k]; k++)
			;
		bo_err_set(err, "guest output line %zu: '%s' is %lld, its samples give %lld",
			   lineno, names[k], (long long)got[k],
			   (long long)want[k]);
		goto fail;
	}
	if (fabs(t->cv - cv) > 1e-6 * cv + 1e-9) {
		bo_err_set(err, "guest output line %zu: 'cv' is %g, its samples give %g",
			   lineno, t->cv, cv);
		goto fail;
	}
	return 0;
fail:
	free(t->samples_ns);
	t->samples_ns = NULL;
	return -1;
}

/* The member KEY of O, a finite number above 0, into *RET. Returns 0, or
 * -1 with err set ("'KEY' must be a positive number", at LINENO). */
static int positive_number(json_t *o, const char *key, size_t lineno,
			   double *ret, bo_err *err)
{
	json_t *v = json_object_get(o, key);

	if (!v || !json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) <= 0)
		return bo_err_set(err, "guest output line %zu: '%s' must be a positive number",
				  lineno, key);
	*ret = json_number_value(v);
	return 0;
}

/* Whether NS_PER_CALL is T's median over CALLS calls (within 1 %).
 * Returns 0, or -1 with err set and T's samples freed (the caller's
 * record is dropped). */
static int check_ns_per_call(struct guest_timing *t, int64_t calls,
			     double ns_per_call, size_t lineno, bo_err *err)
{
	double expect = (double)t->median_ns / (double)calls;

	if (fabs(ns_per_call - expect) <= 0.01 * expect + 1e-6)
		return 0;
	free(t->samples_ns);
	t->samples_ns = NULL;
	return bo_err_set(err, "guest output line %zu: 'ns_per_call' is not median_ns / calls_per_batch",
			  lineno);
}

/* The timing members of O (get_timing) into *T, and its ns_per_call
 * NS_PER_CALL checked against them and CALLS (check_ns_per_call): the
 * common part of keysetup, pkresult and kdfresult. Returns 0, or -1
 * with err set. */
static int get_op_timing(json_t *o, size_t lineno, int64_t calls,
			 double ns_per_call, struct guest_timing *t,
			 bo_err *err)
{
	if (get_timing(o, lineno, t, err) < 0)
		return -1;
	return check_ns_per_call(t, calls, ns_per_call, lineno, err);
}

int guest_validate_result(struct guest_output *out, json_t *o, size_t lineno,
			  bo_err *err)
{
	const char *lib, *alg, *op, *mode;
	const struct algorithm *a;
	struct guest_result r, *p;

	memset(&r, 0, sizeof(r));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    guest_field_name(o, "operation", lineno, &op, err) < 0 ||
	    guest_field_name(o, "mode", lineno, &mode, err) < 0)
		return -1;
	if (strcmp(mode, "bulk") != 0 && strcmp(mode, "oneshot") != 0)
		return bo_err_set(err, "guest output line %zu: 'mode' must be bulk or oneshot",
				  lineno);
	if (!algorithm_has_operation(a, op))
		return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
				  lineno, op, alg);
	if (guest_field_int(o, "buffer_bytes", 1, GUEST_MAX_BUFFER, lineno,
			    &r.buffer_bytes, err) < 0 ||
	    guest_field_int(o, "calls_per_batch", 1, INT64_C(1) << 40, lineno,
			    &r.calls_per_batch, err) < 0 ||
	    guest_field_int(o, "bytes_per_batch", 1, INT64_C(1) << 60, lineno,
			    &r.bytes_per_batch, err) < 0 ||
	    guest_field_bool(o, "verified", lineno, &r.verified, err) < 0 ||
	    guest_resources_result(o, lineno, &r, err) < 0)
		return -1;
	if (r.bytes_per_batch != r.buffer_bytes * r.calls_per_batch)
		return bo_err_set(err, "guest output line %zu: 'bytes_per_batch' is not buffer_bytes x calls_per_batch",
				  lineno);
	if (positive_number(o, "mb_per_s", lineno, &r.mb_per_s, err) < 0)
		return -1;
	if (guest_output_find(out, lib, alg, op, mode, r.buffer_bytes))
		return bo_err_set(err, "guest output line %zu: duplicate result for %s %s %s %s %lld",
				  lineno, lib, alg, op, mode,
				  (long long)r.buffer_bytes);
	if (get_timing(o, lineno, &r.t, err) < 0)
		return -1;
	/* mb_per_s must follow from bytes and median (1 % slack for rounding). */
	{
		double expect = (double)r.bytes_per_batch * 1e3 /
				(double)r.t.median_ns;

		if (fabs(r.mb_per_s - expect) > 0.01 * expect + 1e-6) {
			free(r.t.samples_ns);
			return bo_err_set(err, "guest output line %zu: 'mb_per_s' does not match bytes_per_batch / median_ns",
					  lineno);
		}
	}
	out->results = xrealloc(out->results,
				(out->nresults + 1) * sizeof(*p));
	p = &out->results[out->nresults++];
	*p = r;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->operation = xstrdup(op);
	p->mode = xstrdup(mode);
	return 0;
}

int guest_validate_keysetup(struct guest_output *out, json_t *o,
			    size_t lineno, bo_err *err)
{
	const char *lib, *alg, *op;
	const struct algorithm *a;
	struct guest_keysetup k, *p;
	size_t i;

	memset(&k, 0, sizeof(k));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    guest_field_name(o, "operation", lineno, &op, err) < 0)
		return -1;
	if (a->kind != ALGO_CIPHER || !algorithm_has_operation(a, op))
		return bo_err_set(err, "guest output line %zu: key setup '%s' does not apply to '%s'",
				  lineno, op, alg);
	if (guest_field_int(o, "calls_per_batch", 1, INT64_C(1) << 40, lineno,
			    &k.calls_per_batch, err) < 0 ||
	    guest_field_bool(o, "verified", lineno, &k.verified, err) < 0)
		return -1;
	if (positive_number(o, "ns_per_call", lineno, &k.ns_per_call, err) < 0)
		return -1;
	for (i = 0; i < out->nkeysetups; i++)
		if (strcmp(out->keysetups[i].library, lib) == 0 &&
		    strcmp(out->keysetups[i].algorithm, alg) == 0 &&
		    strcmp(out->keysetups[i].operation, op) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate keysetup for %s %s %s",
					  lineno, lib, alg, op);
	if (get_op_timing(o, lineno, k.calls_per_batch, k.ns_per_call,
			  &k.t, err) < 0)
		return -1;
	out->keysetups = xrealloc(out->keysetups,
				  (out->nkeysetups + 1) * sizeof(*p));
	p = &out->keysetups[out->nkeysetups++];
	*p = k;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->operation = xstrdup(op);
	return 0;
}

int guest_validate_pkresult(struct guest_output *out, json_t *o,
			    size_t lineno, bo_err *err)
{
	const char *lib, *alg, *op;
	const struct pubkey_algorithm *a;
	struct guest_pkresult r, *p;
	size_t i;

	memset(&r, 0, sizeof(r));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_name(o, "algorithm", lineno, &alg, err) < 0 ||
	    guest_field_name(o, "operation", lineno, &op, err) < 0)
		return -1;
	if (!(a = pubkey_find(alg)))
		return bo_err_set(err, "guest output line %zu: unknown public-key algorithm '%s'",
				  lineno, alg);
	if (!pubkey_has_op(a, op))
		return bo_err_set(err, "guest output line %zu: '%s' is not an operation of '%s'",
				  lineno, op, alg);
	if (guest_field_int(o, "calls_per_batch", 1, INT64_C(1) << 40, lineno,
			    &r.calls_per_batch, err) < 0 ||
	    guest_field_bool(o, "verified", lineno, &r.verified, err) < 0)
		return -1;
	if (positive_number(o, "ns_per_call", lineno, &r.ns_per_call, err) < 0 ||
	    positive_number(o, "ops_per_s", lineno, &r.ops_per_s, err) < 0)
		return -1;
	for (i = 0; i < out->npkresults; i++)
		if (strcmp(out->pkresults[i].library, lib) == 0 &&
		    strcmp(out->pkresults[i].algorithm, alg) == 0 &&
		    strcmp(out->pkresults[i].operation, op) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate pkresult for %s %s %s",
					  lineno, lib, alg, op);
	if (get_op_timing(o, lineno, r.calls_per_batch, r.ns_per_call,
			  &r.t, err) < 0)
		return -1;
	out->pkresults = xrealloc(out->pkresults,
				  (out->npkresults + 1) * sizeof(*p));
	p = &out->pkresults[out->npkresults++];
	*p = r;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->operation = xstrdup(op);
	return 0;
}

int guest_validate_kdfresult(struct guest_output *out, json_t *o,
			     size_t lineno, bo_err *err)
{
	const char *lib, *alg, *params;
	const struct kdf_algorithm *a;
	struct guest_kdfresult r, *p;
	size_t i;

	memset(&r, 0, sizeof(r));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_name(o, "algorithm", lineno, &alg, err) < 0 ||
	    guest_field_str(o, "params", 0, lineno, &params, err) < 0)
		return -1;
	if (!(a = kdf_find(alg)))
		return bo_err_set(err, "guest output line %zu: unknown key derivation function '%s'",
				  lineno, alg);
	if (guest_field_int(o, "iterations", 0, INT64_C(1) << 40, lineno,
			    &r.iterations, err) < 0 ||
	    guest_field_int(o, "memory_kib", 0, INT64_C(1) << 40, lineno,
			    &r.memory_kib, err) < 0 ||
	    guest_field_int(o, "parallelism", 0, INT64_C(1) << 24, lineno,
			    &r.parallelism, err) < 0 ||
	    guest_field_int(o, "output_bytes", 0, INT64_C(1) << 24, lineno,
			    &r.output_bytes, err) < 0)
		return -1;
	if (strcmp(params, a->params) != 0 ||
	    r.iterations != (int64_t)a->iterations ||
	    r.memory_kib != (int64_t)a->memory_kib ||
	    r.parallelism != (int64_t)a->parallelism ||
	    r.output_bytes != (int64_t)a->output_bytes)
		return bo_err_set(err, "guest output line %zu: %s's cost is %s, not '%.60s'",
				  lineno, alg, a->params, params);
	if (guest_field_int(o, "calls_per_batch", 1, INT64_C(1) << 40, lineno,
			    &r.calls_per_batch, err) < 0 ||
	    guest_field_bool(o, "verified", lineno, &r.verified, err) < 0)
		return -1;
	if (positive_number(o, "ns_per_call", lineno, &r.ns_per_call, err) < 0 ||
	    positive_number(o, "ops_per_s", lineno, &r.ops_per_s, err) < 0)
		return -1;
	for (i = 0; i < out->nkdfresults; i++)
		if (strcmp(out->kdfresults[i].library, lib) == 0 &&
		    strcmp(out->kdfresults[i].algorithm, alg) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate kdfresult for %s %s",
					  lineno, lib, alg);
	if (get_op_timing(o, lineno, r.calls_per_batch, r.ns_per_call,
			  &r.t, err) < 0)
		return -1;
	out->kdfresults = xrealloc(out->kdfresults,
				   (out->nkdfresults + 1) * sizeof(*p));
	p = &out->kdfresults[out->nkdfresults++];
	*p = r;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->params = xstrdup(params);
	return 0;
}
