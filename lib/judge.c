/* judge.c - verified results, library faults and curve fits of one
 * invocation's output (see judge.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/judge.h"
#include "lib/util.h"

int guest_output_kat_passed(const struct guest_output *out,
			    const char *library, const char *algorithm)
{
	size_t i;
	int seen = 0;

	for (i = 0; i < out->nkats; i++)
		if (strcmp(out->kats[i].library, library) == 0 &&
		    strcmp(out->kats[i].algorithm, algorithm) == 0) {
			if (!out->kats[i].ok)
				return 0;
			seen = 1;
		}
	return seen;
}

/* Does the point the guest marked VERIFIED of LIBRARY's ALGORITHM count
 * as verified (see struct guest_judgement)? 1 yes, 0 no. */
static int point_verified(const struct guest_output *out, int verified,
			  const char *library, const char *algorithm)
{
	return verified &&
	       guest_output_kat_passed(out, library, algorithm) &&
	       guest_output_crosscheck_ok(out, library, algorithm);
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

void guest_output_judge(const struct guest_output *out,
			struct guest_judgement *ret)
{
	size_t i;

	memset(ret, 0, sizeof(*ret));
	ret->nresults = out->nresults;
	if (out->nresults)
		ret->result_verified = xcalloc(out->nresults,
					       sizeof(*ret->result_verified));
	for (i = 0; i < out->nresults; i++) {
		const struct guest_result *r = &out->results[i];

		ret->result_verified[i] = point_verified(out, r->verified,
							 r->library,
							 r->algorithm);
	}
	ret->nkeysetups = out->nkeysetups;
	if (out->nkeysetups)
		ret->keysetup_verified = xcalloc(out->nkeysetups,
						 sizeof(*ret->keysetup_verified));
	for (i = 0; i < out->nkeysetups; i++) {
		const struct guest_keysetup *k = &out->keysetups[i];

		ret->keysetup_verified[i] = point_verified(out, k->verified,
							   k->library,
							   k->algorithm);
	}
	ret->nfaults = guest_output_faults(out, &ret->faults);
	ret->partial = ret->nfaults > 0;
	ret->ncurves = curves_fit(out, &ret->curves);
}

void guest_judgement_release(struct guest_judgement *j)
{
	free(j->result_verified);
	free(j->keysetup_verified);
	free(j->faults);
	free(j->curves);
	memset(j, 0, sizeof(*j));
}
