/* validate-pairs.c - the guest's `pair` lines (guest/PROTOCOL.md,
 * "Interleaved measurement"): one library against the fastest at a point,
 * from blocks that took turns. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "lib/build-name.h"
#include "lib/guest_output.h"
#include "lib/util.h"
#include "lib/validate.h"

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
	const struct algorithm *a;
	const struct guest_result *mine;
	struct guest_pair p, *q;
	const char *lib, *versus;

	memset(&p, 0, sizeof(p));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_name(o, "versus", lineno, &versus, err) < 0 ||
	    guest_field_algorithm(o, lineno, (const char **)&p.algorithm, &a,
				  err) < 0 ||
	    guest_field_name(o, "operation", lineno,
			     (const char **)&p.operation, err) < 0 ||
	    guest_field_name(o, "mode", lineno, (const char **)&p.mode,
			     err) < 0 ||
	    guest_field_int(o, "buffer_bytes", 1, GUEST_MAX_BUFFER, lineno,
			    &p.buffer_bytes, err) < 0 ||
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
	if (!algorithm_has_operation(a, p.operation))
		return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
				  lineno, p.operation, p.algorithm);
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
	mine = point_result(out, lib, &p);
	if (!mine || !point_result(out, versus, &p))
		return bo_err_set(err, "guest output line %zu: a pair of %s and %s at %s %s %s %lld B, where one of them has no result",
				  lineno, lib, versus, p.algorithm, p.operation,
				  p.mode, (long long)p.buffer_bytes);
	if (mine->t.nsamples < p.rounds)
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
