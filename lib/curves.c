/* curves.c - fit each curve of one invocation (see curves.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/curves.h"
#include "lib/stats.h"
#include "lib/util.h"

/* Order of results by curve, then buffer size (qsort on pointers). */
static int cmp_curve(const struct guest_result *a,
		     const struct guest_result *b)
{
	int c = strcmp(a->library, b->library);

	if (!c)
		c = strcmp(a->algorithm, b->algorithm);
	if (!c)
		c = strcmp(a->operation, b->operation);
	if (!c)
		c = strcmp(a->mode, b->mode);
	return c;
}

static int cmp_result(const void *pa, const void *pb)
{
	const struct guest_result *a = *(const struct guest_result *const *)pa;
	const struct guest_result *b = *(const struct guest_result *const *)pb;
	int c = cmp_curve(a, b);

	if (c)
		return c;
	return (a->buffer_bytes > b->buffer_bytes) -
	       (a->buffer_bytes < b->buffer_bytes);
}

size_t curves_fit(const struct guest_output *out, struct curve_fit **ret)
{
	const struct guest_result **r;
	struct curve_fit *fits = NULL;
	double *x, *t, hz = 0;
	size_t n = out->nresults, nfits = 0, i, j, k;

	*ret = NULL;
	if (n == 0)
		return 0;
	if (out->clock_start_hz > 0 && out->clock_end_hz > 0)
		hz = ((double)out->clock_start_hz +
		      (double)out->clock_end_hz) / 2;
	r = xcalloc(n, sizeof(*r));
	x = xcalloc(n, sizeof(*x));
	t = xcalloc(n, sizeof(*t));
	for (i = 0; i < n; i++)
		r[i] = &out->results[i];
	qsort(r, n, sizeof(*r), cmp_result);
	for (i = 0; i < n; i = j) {
		struct curve_fit f;

		for (j = i; j < n && cmp_curve(r[i], r[j]) == 0; j++) {
			k = j - i;
			x[k] = (double)r[j]->buffer_bytes;
			t[k] = (double)r[j]->t.median_ns /
			       (double)r[j]->calls_per_batch;
		}
		memset(&f, 0, sizeof(f));
		if (stats_fit_linear(x, t, j - i, &f.overhead_ns,
				     &f.ns_per_byte) < 0)
			continue;	/* one size: nothing to fit */
		f.library = r[i]->library;
		f.algorithm = r[i]->algorithm;
		f.operation = r[i]->operation;
		f.mode = r[i]->mode;
		f.points = j - i;
		f.cycles_per_byte = hz > 0 ? f.ns_per_byte * hz / 1e9 : -1;
		fits = xrealloc(fits, (nfits + 1) * sizeof(*fits));
		fits[nfits++] = f;
	}
	free(r);
	free(x);
	free(t);
	*ret = fits;
	return nfits;
}
