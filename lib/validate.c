/* validate.c - parse and check the guest's JSON lines. The guest runs
 * inside a rootfs we do not trust, so every member is checked for type and
 * range before anything is kept. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/algorithms.h"
#include "lib/guest_output.h"
#include "lib/guest-resources.h"
#include "lib/stats.h"

/* Longest string member accepted (bytes): names, versions, paths. */
#define MAX_STR 1024
/* Largest ns per batch accepted (2^50 ns: 13 days). */
#define MAX_BATCH_NS (INT64_C(1) << 50)
/* Measured clocks accepted, Hz: 1 MHz .. 100 GHz. */
#define MIN_CLOCK_HZ INT64_C(1000000)
#define MAX_CLOCK_HZ INT64_C(100000000000)

void guest_output_init(struct guest_output *out)
{
	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	out->seed = -1;
}

void guest_output_release(struct guest_output *out)
{
	size_t i;

	free(out->guest_version);
	free(out->libc);
	free(out->variant);
	for (i = 0; i < out->nlibraries; i++) {
		free(out->libraries[i].name);
		free(out->libraries[i].soname);
		free(out->libraries[i].path);
		free(out->libraries[i].version);
		free(out->libraries[i].build_id);
		free(out->libraries[i].message);
	}
	free(out->libraries);
	guest_resources_release(out);
	for (i = 0; i < out->nkats; i++) {
		free(out->kats[i].library);
		free(out->kats[i].algorithm);
		free(out->kats[i].source);
	}
	free(out->kats);
	for (i = 0; i < out->nunsupported; i++) {
		free(out->unsupported[i].library);
		free(out->unsupported[i].algorithm);
	}
	free(out->unsupported);
	for (i = 0; i < out->nerrors; i++) {
		free(out->errors[i].library);
		free(out->errors[i].algorithm);
		free(out->errors[i].message);
	}
	free(out->errors);
	for (i = 0; i < out->nresults; i++) {
		free(out->results[i].t.samples_ns);
		free(out->results[i].library);
		free(out->results[i].algorithm);
		free(out->results[i].operation);
		free(out->results[i].mode);
	}
	free(out->results);
	for (i = 0; i < out->nkeysetups; i++) {
		free(out->keysetups[i].t.samples_ns);
		free(out->keysetups[i].library);
		free(out->keysetups[i].algorithm);
		free(out->keysetups[i].operation);
	}
	free(out->keysetups);
	for (i = 0; i < out->ncrosschecks; i++) {
		free(out->crosschecks[i].library);
		free(out->crosschecks[i].algorithm);
	}
	free(out->crosschecks);
	for (i = 0; i < out->ncanaries; i++) {
		free(out->canaries[i].library);
		free(out->canaries[i].algorithm);
		free(out->canaries[i].operation);
		free(out->canaries[i].mode);
	}
	free(out->canaries);
	guest_output_init(out);
}

void guest_output_shrink(struct guest_output *out)
{
	int64_t start = out->clock_start_hz, end = out->clock_end_hz;
	int64_t host = out->host_elapsed_ns;

	guest_output_release(out);
	guest_output_init(out);
	out->clock_start_hz = start;
	out->clock_end_hz = end;
	out->host_elapsed_ns = host;
}

/* Field getters: each returns 0, or -1 with err naming line and member. */

static int get_str(json_t *o, const char *key, int allow_empty, size_t lineno,
		   const char **ret, bo_err *err)
{
	json_t *v = json_object_get(o, key);
	const char *s;
	size_t i, n;

	if (!v || !json_is_string(v))
		return bo_err_set(err, "guest output line %zu: '%s' must be a string",
				  lineno, key);
	s = json_string_value(v);
	n = json_string_length(v);
	if (n > MAX_STR)
		return bo_err_set(err, "guest output line %zu: '%s' is longer than %d bytes",
				  lineno, key, MAX_STR);
	if (n == 0 && !allow_empty)
		return bo_err_set(err, "guest output line %zu: '%s' must not be empty",
				  lineno, key);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return bo_err_set(err, "guest output line %zu: '%s' contains a control character",
					  lineno, key);
	*ret = s;
	return 0;
}

/* A short identifier: library and algorithm names. */
static int get_name(json_t *o, const char *key, size_t lineno,
		    const char **ret, bo_err *err)
{
	const char *s;
	size_t i;

	if (get_str(o, key, 0, lineno, &s, err) < 0)
		return -1;
	if (strlen(s) > 64)
		return bo_err_set(err, "guest output line %zu: '%s' is too long",
				  lineno, key);
	for (i = 0; s[i]; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			return bo_err_set(err, "guest output line %zu: '%s' has an invalid name",
					  lineno, key);
	}
	*ret = s;
	return 0;
}

static int get_int(json_t *o, const char *key, int64_t min, int64_t max,
		   size_t lineno, int64_t *ret, bo_err *err)
{
	json_t *v = json_object_get(o, key);
	json_int_t x;

	if (!v || !json_is_integer(v))
		return bo_err_set(err, "guest output line %zu: '%s' must be an integer",
				  lineno, key);
	x = json_integer_value(v);
	if (x < min || x > max)
		return bo_err_set(err, "guest output line %zu: '%s' out of range (%lld)",
				  lineno, key, (long long)x);
	*ret = (int64_t)x;
	return 0;
}

static int get_bool(json_t *o, const char *key, size_t lineno, int *ret,
		    bo_err *err)
{
	json_t *v = json_object_get(o, key);

	if (!v || !json_is_boolean(v))
		return bo_err_set(err, "guest output line %zu: '%s' must be true or false",
				  lineno, key);
	*ret = json_is_true(v);
	return 0;
}

static struct guest_library *find_library(struct guest_output *out,
					  const char *name)
{
	size_t i;

	for (i = 0; i < out->nlibraries; i++)
		if (strcmp(out->libraries[i].name, name) == 0)
			return &out->libraries[i];
	return NULL;
}

/* The library named by member "library" must have been reported loaded. */
static int get_loaded_library(struct guest_output *out, json_t *o,
			      size_t lineno, const char **ret, bo_err *err)
{
	struct guest_library *l;

	if (get_name(o, "library", lineno, ret, err) < 0)
		return -1;
	l = find_library(out, *ret);
	if (!l || !l->loaded)
		return bo_err_set(err, "guest output line %zu: library '%s' was not reported loaded",
				  lineno, *ret);
	return 0;
}

static int get_algorithm(json_t *o, size_t lineno, const char **ret,
			 const struct algorithm **ret_algo, bo_err *err)
{
	if (get_name(o, "algorithm", lineno, ret, err) < 0)
		return -1;
	*ret_algo = algorithm_find(*ret);
	if (!*ret_algo)
		return bo_err_set(err, "guest output line %zu: unknown algorithm '%s'",
				  lineno, *ret);
	return 0;
}

static int add_hello(struct guest_output *out, json_t *o, size_t lineno,
		     bo_err *err)
{
	const char *ver, *libc, *variant;
	int64_t proto, cpu, clock_hz;

	if (get_int(o, "protocol", 0, 1000, lineno, &proto, err) < 0)
		return -1;
	if (proto != GUEST_PROTOCOL)
		return bo_err_set(err, "guest output line %zu: protocol %lld, expected %d",
				  lineno, (long long)proto, GUEST_PROTOCOL);
	if (get_str(o, "guest_version", 0, lineno, &ver, err) < 0 ||
	    get_str(o, "libc", 0, lineno, &libc, err) < 0 ||
	    get_int(o, "cpu", -1, 4095, lineno, &cpu, err) < 0 ||
	    get_str(o, "variant", 0, lineno, &variant, err) < 0 ||
	    get_int(o, "clock_hz", MIN_CLOCK_HZ, MAX_CLOCK_HZ, lineno,
		    &clock_hz, err) < 0)
		return -1;
	if (strcmp(variant, "hw") != 0 && strcmp(variant, "nohw") != 0)
		return bo_err_set(err, "guest output line %zu: 'variant' must be hw or nohw",
				  lineno);
	out->variant = xstrdup(variant);
	out->guest_version = xstrdup(ver);
	out->libc = xstrdup(libc);
	out->cpu = (int)cpu;
	out->clock_start_hz = clock_hz;
	/* optional: the --seed that ordered libraries and algorithms */
	if (json_object_get(o, "seed") &&
	    get_int(o, "seed", 0, 4294967295LL, lineno, &out->seed, err) < 0)
		return -1;
	out->have_hello = 1;
	return 0;
}

static int add_library(struct guest_output *out, json_t *o, size_t lineno,
		       bo_err *err)
{
	const char *name, *status, *soname = NULL, *path = NULL, *ver = NULL;
	const char *bid = NULL, *msg = NULL;
	struct guest_library *l, res;
	int loaded, failed = 0;

	if (get_name(o, "library", lineno, &name, err) < 0 ||
	    get_str(o, "status", 0, lineno, &status, err) < 0)
		return -1;
	if (strcmp(status, "loaded") == 0)
		loaded = 1;
	else if (strcmp(status, "absent") == 0)
		loaded = 0;
	else if (strcmp(status, "failed") == 0)
		loaded = 0, failed = 1;
	else
		return bo_err_set(err, "guest output line %zu: 'status' must be loaded, absent or failed",
				  lineno);
	if (failed && get_str(o, "message", 0, lineno, &msg, err) < 0)
		return -1;
	if (find_library(out, name))
		return bo_err_set(err, "guest output line %zu: library '%s' reported twice",
				  lineno, name);
	if (loaded && (get_str(o, "soname", 0, lineno, &soname, err) < 0 ||
		       get_str(o, "path", 0, lineno, &path, err) < 0 ||
		       get_str(o, "version", 1, lineno, &ver, err) < 0 ||
		       get_str(o, "build_id", 1, lineno, &bid, err) < 0))
		return -1;
	if (bid && (strlen(bid) > 128 ||
		    strspn(bid, "0123456789abcdef") != strlen(bid)))
		return bo_err_set(err, "guest output line %zu: 'build_id' must be lowercase hex",
				  lineno);
	if (guest_resources_library(o, lineno, &res, err) < 0)
		return -1;
	out->libraries = xrealloc(out->libraries,
				  (out->nlibraries + 1) * sizeof(*l));
	l = &out->libraries[out->nlibraries++];
	l->name = xstrdup(name);
	l->loaded = loaded;
	l->failed = failed;
	l->message = msg ? xstrdup(msg) : NULL;
	l->soname = soname ? xstrdup(soname) : NULL;
	l->path = path ? xstrdup(path) : NULL;
	l->version = ver ? xstrdup(ver) : NULL;
	l->build_id = bid ? xstrdup(bid) : NULL;
	l->rss_before_load_kib = res.rss_before_load_kib;
	l->footprint_kib = res.footprint_kib;
	return 0;
}

static int add_kat(struct guest_output *out, json_t *o, size_t lineno,
		   bo_err *err)
{
	const char *lib, *alg, *src;
	const struct algorithm *a;
	struct guest_kat *k;
	int ok = 0;

	if (get_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    get_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    get_bool(o, "ok", lineno, &ok, err) < 0 ||
	    get_str(o, "source", 0, lineno, &src, err) < 0)
		return -1;
	out->kats = xrealloc(out->kats, (out->nkats + 1) * sizeof(*k));
	k = &out->kats[out->nkats++];
	k->library = xstrdup(lib);
	k->algorithm = xstrdup(alg);
	k->source = xstrdup(src);
	k->ok = ok;
	return 0;
}

static int add_unsupported(struct guest_output *out, json_t *o, size_t lineno,
			   bo_err *err)
{
	const char *lib, *alg;
	const struct algorithm *a;
	struct guest_unsupported *u;

	if (get_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    get_algorithm(o, lineno, &alg, &a, err) < 0)
		return -1;
	out->unsupported = xrealloc(out->unsupported,
				    (out->nunsupported + 1) * sizeof(*u));
	u = &out->unsupported[out->nunsupported++];
	u->library = xstrdup(lib);
	u->algorithm = xstrdup(alg);
	return 0;
}

static int add_error(struct guest_output *out, json_t *o, size_t lineno,
		     bo_err *err)
{
	const char *lib, *alg, *msg;
	struct guest_error *e;

	if (get_str(o, "library", 1, lineno, &lib, err) < 0 ||
	    get_str(o, "algorithm", 1, lineno, &alg, err) < 0 ||
	    get_str(o, "message", 0, lineno, &msg, err) < 0)
		return -1;
	out->errors = xrealloc(out->errors, (out->nerrors + 1) * sizeof(*e));
	e = &out->errors[out->nerrors++];
	e->library = xstrdup(lib);
	e->algorithm = xstrdup(alg);
	e->message = xstrdup(msg);
	return 0;
}

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
	    get_int(o, "sets", 1, GUEST_MAX_SETS, lineno, &t->sets, err) < 0)
		return -1;
	t->nsamples = t->repetitions * t->sets;
	if (t->nsamples > GUEST_MAX_REPETITIONS)
		return bo_err_set(err, "guest output line %zu: 'repetitions' x 'sets' is %lld, more than %d samples",
				  lineno, (long long)t->nsamples,
				  GUEST_MAX_REPETITIONS);
	return 0;
}

/* The samples_ns array of O: exactly T->nsamples integers 1 ..
 * MAX_BATCH_NS, into a new array in t->samples_ns. */
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
		    json_integer_value(v) > MAX_BATCH_NS) {
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
	if (get_int(o, "repetitions", 1, GUEST_MAX_REPETITIONS, lineno,
		    &t->repetitions, err) < 0 ||
	    get_int(o, "median_ns", 1, MAX_BATCH_NS, lineno, &t->median_ns,
		    err) < 0 ||
	    get_int(o, "min_ns", 1, MAX_BATCH_NS, lineno, &t->min_ns, err) < 0 ||
	    get_int(o, "p25_ns", 1, MAX_BATCH_NS, lineno, &t->p25_ns, err) < 0 ||
	    get_int(o, "p75_ns", 1, MAX_BATCH_NS, lineno, &t->p75_ns, err) < 0 ||
	    get_int(o, "reruns", 0, GUEST_MAX_RERUNS, lineno, &t->reruns,
		    err) < 0 ||
	    get_sets(o, lineno, t, err) < 0 ||
	    get_bool(o, "noisy", lineno, &t->noisy, err) < 0 ||
	    get_int(o, "tsc_cycles", 0, INT64_C(1) << 62, lineno,
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

static int add_result(struct guest_output *out, json_t *o, size_t lineno,
		      bo_err *err)
{
	const char *lib, *alg, *op, *mode;
	const struct algorithm *a;
	struct guest_result r, *p;
	json_t *mb;

	memset(&r, 0, sizeof(r));
	if (get_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    get_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    get_name(o, "operation", lineno, &op, err) < 0 ||
	    get_name(o, "mode", lineno, &mode, err) < 0)
		return -1;
	if (strcmp(mode, "bulk") != 0 && strcmp(mode, "oneshot") != 0)
		return bo_err_set(err, "guest output line %zu: 'mode' must be bulk or oneshot",
				  lineno);
	if (!algorithm_has_operation(a, op))
		return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
				  lineno, op, alg);
	if (get_int(o, "buffer_bytes", 1, GUEST_MAX_BUFFER, lineno,
		    &r.buffer_bytes, err) < 0 ||
	    get_int(o, "calls_per_batch", 1, INT64_C(1) << 40, lineno,
		    &r.calls_per_batch, err) < 0 ||
	    get_int(o, "bytes_per_batch", 1, INT64_C(1) << 60, lineno,
		    &r.bytes_per_batch, err) < 0 ||
	    get_bool(o, "verified", lineno, &r.verified, err) < 0 ||
	    guest_resources_result(o, lineno, &r, err) < 0)
		return -1;
	if (r.bytes_per_batch != r.buffer_bytes * r.calls_per_batch)
		return bo_err_set(err, "guest output line %zu: 'bytes_per_batch' is not buffer_bytes x calls_per_batch",
				  lineno);
	mb = json_object_get(o, "mb_per_s");
	if (!mb || !json_is_number(mb) || !isfinite(json_number_value(mb)) ||
	    json_number_value(mb) <= 0)
		return bo_err_set(err, "guest output line %zu: 'mb_per_s' must be a positive number",
				  lineno);
	r.mb_per_s = json_number_value(mb);
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

static int add_keysetup(struct guest_output *out, json_t *o, size_t lineno,
			bo_err *err)
{
	const char *lib, *alg, *op;
	const struct algorithm *a;
	struct guest_keysetup k, *p;
	json_t *v;
	size_t i;

	memset(&k, 0, sizeof(k));
	if (get_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    get_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    get_name(o, "operation", lineno, &op, err) < 0)
		return -1;
	if (a->kind != ALGO_CIPHER || !algorithm_has_operation(a, op))
		return bo_err_set(err, "guest output line %zu: key setup '%s' does not apply to '%s'",
				  lineno, op, alg);
	if (get_int(o, "calls_per_batch", 1, INT64_C(1) << 40, lineno,
		    &k.calls_per_batch, err) < 0 ||
	    get_bool(o, "verified", lineno, &k.verified, err) < 0)
		return -1;
	v = json_object_get(o, "ns_per_call");
	if (!v || !json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) <= 0)
		return bo_err_set(err, "guest output line %zu: 'ns_per_call' must be a positive number",
				  lineno);
	k.ns_per_call = json_number_value(v);
	for (i = 0; i < out->nkeysetups; i++)
		if (strcmp(out->keysetups[i].library, lib) == 0 &&
		    strcmp(out->keysetups[i].algorithm, alg) == 0 &&
		    strcmp(out->keysetups[i].operation, op) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate keysetup for %s %s %s",
					  lineno, lib, alg, op);
	if (get_timing(o, lineno, &k.t, err) < 0)
		return -1;
	{
		double expect = (double)k.t.median_ns /
				(double)k.calls_per_batch;

		if (fabs(k.ns_per_call - expect) > 0.01 * expect + 1e-6) {
			free(k.t.samples_ns);
			return bo_err_set(err, "guest output line %zu: 'ns_per_call' is not median_ns / calls_per_batch",
					  lineno);
		}
	}
	out->keysetups = xrealloc(out->keysetups,
				  (out->nkeysetups + 1) * sizeof(*p));
	p = &out->keysetups[out->nkeysetups++];
	*p = k;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->operation = xstrdup(op);
	return 0;
}

static int add_crosscheck(struct guest_output *out, json_t *o, size_t lineno,
			  bo_err *err)
{
	const char *lib, *alg, *digest;
	const struct algorithm *a;
	struct guest_crosscheck c, *p;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (get_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    get_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    get_int(o, "input_bytes", 1, GUEST_MAX_BUFFER, lineno,
		    &c.input_bytes, err) < 0 ||
	    get_int(o, "output_bytes", 1, GUEST_MAX_BUFFER + 64, lineno,
		    &c.output_bytes, err) < 0 ||
	    get_str(o, "digest", 0, lineno, &digest, err) < 0 ||
	    get_bool(o, "roundtrip", lineno, &c.roundtrip, err) < 0)
		return -1;
	if (strlen(digest) != 16 || strspn(digest, "0123456789abcdef") != 16)
		return bo_err_set(err, "guest output line %zu: 'digest' must be 16 lowercase hex digits",
				  lineno);
	for (i = 0; i < out->ncrosschecks; i++)
		if (strcmp(out->crosschecks[i].library, lib) == 0 &&
		    strcmp(out->crosschecks[i].algorithm, alg) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate crosscheck for %s %s",
					  lineno, lib, alg);
	memcpy(c.digest, digest, 17);
	out->crosschecks = xrealloc(out->crosschecks,
				    (out->ncrosschecks + 1) * sizeof(*p));
	p = &out->crosschecks[out->ncrosschecks++];
	*p = c;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	guest_output_crosscheck(out);
	return 0;
}

/* A canary line: a loaded library's curve, each at most once; the times
 * 1 .. MAX_BATCH_NS ns, noise a finite fraction >= 0, and moved as the
 * times and noise say (|after / before - 1| > noise), or the line is
 * not believed. */
static int add_canary(struct guest_output *out, json_t *o, size_t lineno,
		      bo_err *err)
{
	const char *lib, *alg, *op, *mode;
	const struct algorithm *a;
	struct guest_canary c, *p;
	json_t *v;
	double change;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (get_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    get_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    get_name(o, "operation", lineno, &op, err) < 0 ||
	    get_name(o, "mode", lineno, &mode, err) < 0 ||
	    get_int(o, "before_ns", 1, MAX_BATCH_NS, lineno, &c.before_ns,
		    err) < 0 ||
	    get_int(o, "after_ns", 1, MAX_BATCH_NS, lineno, &c.after_ns,
		    err) < 0 ||
	    get_bool(o, "moved", lineno, &c.moved, err) < 0 ||
	    get_bool(o, "remeasured", lineno, &c.remeasured, err) < 0)
		return -1;
	if (strcmp(mode, "bulk") != 0 && strcmp(mode, "oneshot") != 0)
		return bo_err_set(err, "guest output line %zu: 'mode' must be bulk or oneshot",
				  lineno);
	if (!algorithm_has_operation(a, op))
		return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
				  lineno, op, alg);
	v = json_object_get(o, "noise");
	if (!v || !json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) < 0)
		return bo_err_set(err, "guest output line %zu: 'noise' must be a number >= 0",
				  lineno);
	c.noise = json_number_value(v);
	change = fabs((double)c.after_ns / (double)c.before_ns - 1);
	/* a hair of slack: noise is printed with 10 significant digits */
	if (c.moved != (change > c.noise) &&
	    fabs(change - c.noise) > 1e-9 * (c.noise + 1))
		return bo_err_set(err, "guest output line %zu: 'moved' is %s, but after_ns / before_ns - 1 = %.4f against noise %.4f",
				  lineno, c.moved ? "true" : "false",
				  (double)c.after_ns / (double)c.before_ns - 1,
				  c.noise);
	for (i = 0; i < out->ncanaries; i++)
		if (strcmp(out->canaries[i].library, lib) == 0 &&
		    strcmp(out->canaries[i].algorithm, alg) == 0 &&
		    strcmp(out->canaries[i].operation, op) == 0 &&
		    strcmp(out->canaries[i].mode, mode) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate canary for %s %s %s %s",
					  lineno, lib, alg, op, mode);
	out->canaries = xrealloc(out->canaries,
				 (out->ncanaries + 1) * sizeof(*p));
	p = &out->canaries[out->ncanaries++];
	*p = c;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->operation = xstrdup(op);
	p->mode = xstrdup(mode);
	return 0;
}

/* Do cross-check entries A and B compare the same thing? */
static int same_check(const struct guest_crosscheck *a,
		      const struct guest_crosscheck *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       a->input_bytes == b->input_bytes;
}

void guest_output_crosscheck(struct guest_output *out)
{
	size_t i, j;

	for (i = 0; i < out->ncrosschecks; i++) {
		struct guest_crosscheck *c = &out->crosschecks[i];
		size_t peers = 0, mine = 0, best_other = 0;

		/* peers: other libraries whose round trip worked */

		for (j = 0; j < out->ncrosschecks; j++) {
			const struct guest_crosscheck *d = &out->crosschecks[j];
			size_t k, n = 0;

			if (!same_check(c, d))
				continue;
			if (!d->roundtrip)
				continue;
			if (j != i)
				peers++;	/* round-tripping others */
			/* how many round-tripping libraries share d's digest */
			for (k = 0; k < out->ncrosschecks; k++)
				if (same_check(c, &out->crosschecks[k]) &&
				    out->crosschecks[k].roundtrip &&
				    strcmp(out->crosschecks[k].digest,
					   d->digest) == 0)
					n++;
			if (strcmp(d->digest, c->digest) == 0)
				mine = n;
			else if (n > best_other)
				best_other = n;
		}
		if (!c->roundtrip)
			c->agrees = 0;
		else if (peers == 0)
			c->agrees = -1;
		else
			c->agrees = c->roundtrip && mine > best_other &&
				    mine >= 2;
	}
}

int guest_output_crosscheck_ok(const struct guest_output *out,
			       const char *library, const char *algorithm)
{
	size_t i;

	for (i = 0; i < out->ncrosschecks; i++)
		if (strcmp(out->crosschecks[i].library, library) == 0 &&
		    strcmp(out->crosschecks[i].algorithm, algorithm) == 0)
			return out->crosschecks[i].agrees != 0;
	return 1;
}

static int add_done(struct guest_output *out, json_t *o, size_t lineno,
		    bo_err *err)
{
	if (get_int(o, "results", 0, INT64_C(1) << 40, lineno,
		    &out->done_results, err) < 0 ||
	    get_int(o, "measure_ns", 0, INT64_C(1) << 62, lineno,
		    &out->measure_ns, err) < 0 ||
	    get_int(o, "elapsed_ns", 0, INT64_C(1) << 62, lineno,
		    &out->elapsed_ns, err) < 0 ||
	    get_int(o, "clock_hz", MIN_CLOCK_HZ, MAX_CLOCK_HZ, lineno,
		    &out->clock_end_hz, err) < 0 ||
	    get_int(o, "tsc_hz", 0, MAX_CLOCK_HZ, lineno, &out->tsc_hz,
		    err) < 0)
		return -1;
	if (out->tsc_hz != 0 && out->tsc_hz < MIN_CLOCK_HZ)
		return bo_err_set(err, "guest output line %zu: 'tsc_hz' out of range (%lld)",
				  lineno, (long long)out->tsc_hz);
	/* every timed batch ran between hello and done */
	if (out->measure_ns > out->elapsed_ns)
		return bo_err_set(err, "guest output line %zu: 'measure_ns' exceeds 'elapsed_ns'",
				  lineno);
	if (guest_resources_done(out, o, lineno, err) < 0)
		return -1;
	out->have_done = 1;
	return 0;
}

int guest_output_add_line(struct guest_output *out, const char *line,
			  size_t len, size_t lineno, bo_err *err)
{
	json_error_t jerr;
	json_t *o, *t;
	const char *type;
	int rc;

	if (len > GUEST_MAX_LINE)
		return bo_err_set(err, "guest output line %zu: longer than %d bytes",
				  lineno, GUEST_MAX_LINE);
	if (out->have_done)
		return bo_err_set(err, "guest output line %zu: output after 'done'",
				  lineno);
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o)
		return bo_err_set(err, "guest output line %zu: not JSON: %s",
				  lineno, jerr.text);
	if (!json_is_object(o)) {
		json_decref(o);
		return bo_err_set(err, "guest output line %zu: not a JSON object",
				  lineno);
	}
	t = json_object_get(o, "type");
	if (!t || !json_is_string(t)) {
		json_decref(o);
		return bo_err_set(err, "guest output line %zu: missing 'type'",
				  lineno);
	}
	type = json_string_value(t);
	if (!out->have_hello && strcmp(type, "hello") != 0) {
		json_decref(o);
		return bo_err_set(err, "guest output line %zu: expected 'hello' first",
				  lineno);
	}
	if (strcmp(type, "hello") == 0)
		rc = out->have_hello ?
			bo_err_set(err, "guest output line %zu: second 'hello'",
				   lineno) :
			add_hello(out, o, lineno, err);
	else if (strcmp(type, "library") == 0)
		rc = add_library(out, o, lineno, err);
	else if (strcmp(type, "kat") == 0)
		rc = add_kat(out, o, lineno, err);
	else if (strcmp(type, "unsupported") == 0)
		rc = add_unsupported(out, o, lineno, err);
	else if (strcmp(type, "error") == 0)
		rc = add_error(out, o, lineno, err);
	else if (strcmp(type, "result") == 0)
		rc = add_result(out, o, lineno, err);
	else if (strcmp(type, "keysetup") == 0)
		rc = add_keysetup(out, o, lineno, err);
	else if (strcmp(type, "crosscheck") == 0)
		rc = add_crosscheck(out, o, lineno, err);
	else if (strcmp(type, "canary") == 0)
		rc = add_canary(out, o, lineno, err);
	else if (strcmp(type, "done") == 0)
		rc = add_done(out, o, lineno, err);
	else
		rc = bo_err_set(err, "guest output line %zu: unknown type '%.40s'",
				lineno, type);
	json_decref(o);
	if (rc == 0)
		out->lines++;
	return rc;
}

int guest_output_finish(const struct guest_output *out, bo_err *err)
{
	if (!out->have_hello)
		return bo_err_set(err, "guest printed nothing");
	if (!out->have_done)
		return bo_err_set(err, "guest output ended before 'done' (after %zu lines)",
				  out->lines);
	if ((size_t)out->done_results != out->nresults)
		return bo_err_set(err, "guest reported %lld results in 'done' but printed %zu",
				  (long long)out->done_results, out->nresults);
	if (out->tsc_hz == 0) {
		size_t i;

		for (i = 0; i < out->nresults; i++)
			if (out->results[i].t.tsc_cycles != 0)
				return bo_err_set(err, "guest reported TSC cycles but no TSC rate in 'done'");
		for (i = 0; i < out->nkeysetups; i++)
			if (out->keysetups[i].t.tsc_cycles != 0)
				return bo_err_set(err, "guest reported TSC cycles but no TSC rate in 'done'");
	}
	return 0;
}

int guest_output_check_clock(struct guest_output *out,
			     int64_t host_elapsed_ns, bo_err *err)
{
	double allowed = GUEST_CLOCK_TOLERANCE * (double)host_elapsed_ns +
			 (double)GUEST_CLOCK_SLACK_NS;
	double diff = (double)out->elapsed_ns - (double)host_elapsed_ns;

	out->host_elapsed_ns = host_elapsed_ns;
	if (fabs(diff) <= allowed)
		return 0;
	return bo_err_set(err, "guest clock disagrees with the host: the guest timed %.3f s from 'hello' to 'done', the host %.3f s (allowed: %.0f %% + %.0f ms)",
			  (double)out->elapsed_ns / 1e9,
			  (double)host_elapsed_ns / 1e9,
			  100 * GUEST_CLOCK_TOLERANCE,
			  (double)GUEST_CLOCK_SLACK_NS / 1e6);
}

const struct guest_result *guest_output_find(const struct guest_output *out,
					     const char *library,
					     const char *algorithm,
					     const char *operation,
					     const char *mode,
					     int64_t buffer_bytes)
{
	size_t i;

	for (i = 0; i < out->nresults; i++) {
		const struct guest_result *r = &out->results[i];

		if (r->buffer_bytes == buffer_bytes &&
		    strcmp(r->library, library) == 0 &&
		    strcmp(r->algorithm, algorithm) == 0 &&
		    strcmp(r->operation, operation) == 0 &&
		    strcmp(r->mode, mode) == 0)
			return r;
	}
	return NULL;
}

int guest_algorithm_known(const char *name)
{
	return algorithm_find(name) != NULL;
}

/* Does an error line with MESSAGE say that its library's process died? */
static int is_fault_message(const char *m)
{
	static const char *const prefixes[] = { "library crashed",
		"library hung", "library process ended", NULL };
	size_t i;

	for (i = 0; prefixes[i]; i++)
		if (strncmp(m, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

size_t guest_output_faults(const struct guest_output *out,
			   struct guest_fault **ret)
{
	struct guest_fault *v = NULL;
	size_t n = 0, i, j;

	for (i = 0; i < out->nlibraries + out->nerrors; i++) {
		const char *lib, *what;

		if (i < out->nlibraries) {
			if (!out->libraries[i].failed)
				continue;
			lib = out->libraries[i].name;
			what = out->libraries[i].message;
		} else {
			const struct guest_error *e =
				&out->errors[i - out->nlibraries];

			if (!*e->library || !is_fault_message(e->message))
				continue;
			lib = e->library;
			what = e->message;
		}
		for (j = 0; j < n && strcmp(v[j].library, lib) != 0; j++)
			;
		if (j < n)
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].library = lib;
		v[n].what = what;
		n++;
	}
	*ret = v;
	return n;
}
