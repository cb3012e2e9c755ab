/* validate-pairs.c - the guest's `pair` lines (guest/PROTOCOL.md,
 * "Interleaved measurement"): one library against the fastest at a point,
 * from blocks that took turns. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "lib/build-name.h"
#include "lib/guest_output.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "lib/util.h"
#include "lib/validate.h"

/* Whether P is a public-key operation's or a KDF's pair (mode "pubkey"
 * or "kdf"), not a cipher's or hash's. */
static int extra_mode(const struct guest_pair *p)
{
	return strcmp(p->mode, "pubkey") == 0 || strcmp(p->mode, "kdf") == 0;
}

/* The blocks of LIB at the public-key or KDF point of P: the samples of
 * its `pkresult` or `kdfresult` in OUT (printed before the pairs, at
 * the end), or -1 when it has none. */
static int64_t extra_samples(const struct guest_output *out, const char *lib,
			     const struct guest_pair *p)
{
	if (strcmp(p->mode, "pubkey") == 0) {
		for (size_t i = 0; i < out->npkresults; i++) {
			const struct guest_pkresult *r = &out->pkresults[i];

			if (strcmp(r->library, lib) == 0 &&
			    strcmp(r->algorithm, p->algorithm) == 0 &&
			    strcmp(r->operation, p->operation) == 0)
				return r->t.nsamples;
		}
		return -1;
	}
	for (size_t i = 0; i < out->nkdfresults; i++) {
		const struct guest_kdfresult *r = &out->kdfresults[i];

		if (strcmp(r->library, lib) == 0 &&
		    strcmp(r->algorithm, p->algorithm) == 0)
			return r->t.nsamples;
	}
	return -1;
}

/* The point of pair line O (line LINENO) into P's algorithm,
 * operation, mode and buffer_bytes (pointers into O): a cipher's or
 * hash's, or with mode "pubkey" a public-key operation (buffer_bytes 1)
 * or with mode "kdf" a KDF (operation "derive", buffer_bytes 1).
 * Returns 0, or -1 with ERR set. */
static int pair_point(json_t *o, size_t lineno, struct guest_pair *p,
		      bo_err *err)
{
	const struct algorithm *a;
	const struct pubkey_algorithm *pk;

	if (guest_field_name(o, "mode", lineno, (const char **)&p->mode,
			     err) < 0 ||
	    guest_field_name(o, "operation", lineno,
			     (const char **)&p->operation, err) < 0 ||
	    guest_field_int(o, "buffer_bytes", 1, GUEST_MAX_BUFFER, lineno,
			    &p->buffer_bytes, err) < 0)
		return -1;
	if (!extra_mode(p)) {
		if (guest_field_algorithm(o, lineno,
					  (const char **)&p->algorithm, &a,
					  err) < 0)
			return -1;
		if (!algorithm_has_operation(a, p->operation))
			return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
					  lineno, p->operation, p->algorithm);
		return 0;
	}
	if (guest_field_name(o, "algorithm", lineno,
			     (const char **)&p->algorithm, err) < 0)
		return -1;
	if (p->buffer_bytes != 1)
		return bo_err_set(err, "guest output line %zu: a %s pair has 'buffer_bytes' 1, not %lld",
				  lineno, p->mode, (long long)p->buffer_bytes);
	if (strcmp(p->mode, "kdf") == 0) {
		if (!kdf_find(p->algorithm))
			return bo_err_set(err, "guest output line %zu: unknown key derivation function '%s'",
					  lineno, p->algorithm);
		if (strcmp(p->operation, "derive") != 0)
			return bo_err_set(err, "guest output line %zu: a kdf pair's operation is 'derive', not '%s'",
					  lineno, p->operation);
		return 0;
	}
	if (!(pk = pubkey_find(p->algorithm)))
		return bo_err_set(err, "guest output line %zu: unknown public-key algorithm '%s'",
				  lineno, p->algorithm);
	if (!pubkey_has_op(pk, p->operation))
		return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
				  lineno, p->operation, p->algorithm);
	return 0;
}

/* The result of LIB at the point of P among OUT's last results (a pair
 * line follows the result lines of its point), or NULL. */
static const struct guest_result *point_result(const struct guest_output *out,
					       const char *lib,
					       const struct guest_pair *p)
{
	for (size_t i = out->nresults; i > 0; i--) {
		const struct guest_result *r = &out->results[i - 1];

		if (r->buffer_bytes != p->buffer_bytes ||
		    strcmp(r->algorithm, p->algorithm) != 0 ||
		    strcmp(r->operation, p->operation) != 0 ||
		    strcmp(r->mode, p->mode) != 0)
			return NULL;	/* past the point's results */
		if (strcmp(r->library, lib) == 0)
			return r;
	}
	return NULL;
}

/* *RET from number member KEY of O, finite and in [MIN, MAX]. */
static int field_fraction(json_t *o, const char *key, double min, double max,
			  size_t lineno, double *ret, bo_err *err)
{
	json_t *v = json_object_get(o, key);

	if (!v || !json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) < min || json_number_value(v) > max)
		return bo_err_set(err, "guest output line %zu: '%s' must be a number in %g .. %g",
				  lineno, key, min, max);
	*ret = json_number_value(v);
	return 0;
}

int guest_validate_pair(struct guest_output *out, json_t *o, size_t lineno,
			bo_err *err)
{
	const struct guest_result *mine;
	struct guest_pair p, *q;
	const char *lib, *versus;
	int64_t blocks, theirs;

	memset(&p, 0, sizeof(p));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_name(o, "versus", lineno, &versus, err) < 0 ||
	    pair_point(o, lineno, &p, err) < 0 ||
	    guest_field_int(o, "rounds", 1, GUEST_MAX_REPETITIONS, lineno,
			    &p.rounds, err) < 0 ||
	    guest_field_int(o, "span_ns", 0, INT64_C(1) << 50, lineno,
			    &p.span_ns, err) < 0 ||
	    guest_field_bool(o, "tie", lineno, &p.tie, err) < 0 ||
	    field_fraction(o, "ratio", 1e-12, 1e12, lineno, &p.ratio, err) < 0 ||
	    field_fraction(o, "low", 1e-12, 1e12, lineno, &p.low, err) < 0 ||
	    field_fraction(o, "high", 1e-12, 1e12, lineno, &p.high, err) < 0 ||
	    field_fraction(o, "coverage", 0, 1, lineno, &p.coverage, err) < 0)
		return -1;
	if (strcmp(versus, lib) == 0)
		return bo_err_set(err, "guest output line %zu: a pair of '%s' with itself",
				  lineno, lib);
	if (!(p.low <= p.ratio && p.ratio <= p.high))
		return bo_err_set(err, "guest output line %zu: 'ratio' %g outside its interval %g .. %g",
				  lineno, p.ratio, p.low, p.high);
	if (p.tie != (p.low <= 1 && p.high >= 1))
		return bo_err_set(err, "guest output line %zu: 'tie' is %s, but the interval is %g .. %g",
				  lineno, p.tie ? "true" : "false", p.low,
				  p.high);
	/* both sides measured at this point, each block a round */
	if (extra_mode(&p)) {
		blocks = extra_samples(out, lib, &p);
		theirs = extra_samples(out, versus, &p);
	} else {
		mine = point_result(out, lib, &p);
		blocks = mine ? mine->t.nsamples : -1;
		theirs = point_result(out, versus, &p) ? 1 : -1;
	}
	if (blocks < 0 || theirs < 0)
		return bo_err_set(err, "guest output line %zu: a pair of %s and %s at %s %s %s %lld B, where one of them has no result",
				  lineno, lib, versus, p.algorithm, p.operation,
				  p.mode, (long long)p.buffer_bytes);
	if (blocks < p.rounds)
		return bo_err_set(err, "guest output line %zu: 'rounds' %lld exceeds the result's blocks",
				  lineno, (long long)p.rounds);
	for (size_t i = out->npairs; i > 0; i--) {
		const struct guest_pair *x = &out->pairs[i - 1];

		if (x->buffer_bytes != p.buffer_bytes ||
		    strcmp(x->algorithm, p.algorithm) != 0 ||
		    strcmp(x->operation, p.operation) != 0 ||
		    strcmp(x->mode, p.mode) != 0)
			break;
		/* a build's pair against its shipped library comes beside
		 * its pair against the reference */
		if (strcmp(x->library, lib) == 0 &&
		    strcmp(x->versus, versus) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate pair for %s",
					  lineno, lib);
		if (!build_is_of(lib, versus) &&
		    !build_is_of(x->library, x->versus) &&
		    strcmp(x->versus, versus) != 0)
			return bo_err_set(err, "guest output line %zu: two references at one point (%s, %s)",
					  lineno, x->versus, versus);
	}
	out->pairs = xrealloc(out->pairs, (out->npairs + 1) * sizeof(*q));
	q = &out->pairs[out->npairs++];
	*q = p;
	q->library = xstrdup(lib);
	q->versus = xstrdup(versus);
	q->algorithm = xstrdup(p.algorithm);
	q->operation = xstrdup(p.operation);
	q->mode = xstrdup(p.mode);
	return 0;
}
