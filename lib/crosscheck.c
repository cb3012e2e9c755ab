/* crosscheck.c - the cross-library check of one invocation: which
 * libraries' outputs agree with the majority (see guest_output.h). */
#include "config.h"

#include <string.h>

#include "lib/guest_output.h"

/* Do cross-check entries A and B compare the same thing? */
static int same_check(const struct guest_crosscheck *a,
		      const struct guest_crosscheck *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       a->input_bytes == b->input_bytes;
}

/* Did LIBRARY fail a known-answer test of ALGORITHM in OUT? Such a
 * library has no vote in the cross-check: a library that computes wrong
 * answers costs only itself, never the libraries it differs from. */
static int kat_failed(const struct guest_output *out, const char *library,
		      const char *algorithm)
{
	for (size_t i = 0; i < out->nkats; i++)
		if (!out->kats[i].ok &&
		    strcmp(out->kats[i].library, library) == 0 &&
		    strcmp(out->kats[i].algorithm, algorithm) == 0)
			return 1;
	return 0;
}

/* Does cross-check entry D vote: its round trip worked and its library
 * passed the algorithm's known-answer tests? */
static int votes(const struct guest_output *out,
		 const struct guest_crosscheck *d)
{
	return d->roundtrip && !kat_failed(out, d->library, d->algorithm);
}

void guest_output_crosscheck(struct guest_output *out)
{
	size_t i, j;

	for (i = 0; i < out->ncrosschecks; i++) {
		struct guest_crosscheck *c = &out->crosschecks[i];
		size_t peers = 0, mine = 0, best_other = 0;

		/* peers: the other libraries that vote (round trip worked,
		 * known answers passed) */
		for (j = 0; j < out->ncrosschecks; j++) {
			const struct guest_crosscheck *d = &out->crosschecks[j];
			size_t k, n = 0;

			if (!same_check(c, d) || (j != i && !votes(out, d)))
				continue;
			if (j == i && !d->roundtrip)
				continue;
			if (j != i)
				peers++;
			/* how many voting libraries share d's digest, d
			 * itself counted */
			for (k = 0; k < out->ncrosschecks; k++)
				if (same_check(c, &out->crosschecks[k]) &&
				    (k == j || votes(out, &out->crosschecks[k])) &&
				    strcmp(out->crosschecks[k].digest,
					   d->digest) == 0)
					n++;
			if (strcmp(d->digest, c->digest) == 0)
				mine = n;
			else if (n > best_other)
				best_other = n;
		}
		if (!c->roundtrip ||
		    kat_failed(out, c->library, c->algorithm))
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
