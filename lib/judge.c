/* judge.c - verified results, library faults, curve fits and memory
 * peaks of one invocation's output (see judge.h). */
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

/* Does an error line with MESSAGE say that its library's process died,
 * or that the library wrote to stdout (guest/PROTOCOL.md, "Crash
 * isolation")? */
static int is_fault_message(const char *m)
{
	static const char *const prefixes[] = { "library crashed",
		"library hung", "library process ended",
		"library wrote to stdout", NULL };
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

/* The footprint OUT reported for LIBRARY, KiB, or -1. */
static int64_t footprint(const struct guest_output *out, const char *library)
{
	for (size_t i = 0; i < out->nlibraries; i++)
		if (strcmp(out->libraries[i].name, library) == 0)
			return out->libraries[i].footprint_kib;
	return -1;
}

size_t guest_output_algo_peaks(const struct guest_output *out,
			       struct guest_algo_peak **ret)
{
	struct guest_algo_peak *v = NULL, *cur = NULL;
	const char *lib = NULL;
	int64_t mark = -1;	/* the library's mark before the current
				 * algorithm, -1 = unknown */
	size_t n = 0;

	for (size_t i = 0; i < out->nresults; i++) {
		const struct guest_result *r = &out->results[i];

		if (r->maxrss_kib <= 0)
			continue;
		if (!lib || strcmp(lib, r->library) != 0) {
			lib = r->library;
			mark = footprint(out, lib);
			if (mark <= 0)
				mark = -1;
			cur = NULL;
		}
		if (!cur || strcmp(cur->algorithm, r->algorithm) != 0) {
			if (cur && cur->peak_kib > mark && mark >= 0)
				mark = cur->peak_kib;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			cur = &v[n++];
			cur->library = r->library;
			cur->algorithm = r->algorithm;
			cur->peak_kib = r->maxrss_kib;
			cur->raise_kib = -1;
		}
		if (r->maxrss_kib > cur->peak_kib)
			cur->peak_kib = r->maxrss_kib;
		if (mark >= 0)
			cur->raise_kib = cur->peak_kib > mark ?
					 cur->peak_kib - mark : 0;
	}
	*ret = v;
	return n;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

/* The relative interquartile range of timing T, (p75 - p25) / median. */
static double rel_iqr(const struct guest_timing *t)
{
	return t->median_ns > 0 ? (double)(t->p75_ns - t->p25_ns) /
				  (double)t->median_ns : 0;
}

/* Flag in NOISY each of the N relative spreads W above JUDGE_NOISE_FACTOR
 * times their median. Returns how many are flagged. */
static size_t flag_wide(const double *w, size_t n, int *noisy)
{
	double *v, typical;
	size_t i, count = 0;

	if (n == 0)
		return 0;
	v = xcalloc(n, sizeof(*v));
	memcpy(v, w, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	typical = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++) {
		noisy[i] = w[i] > JUDGE_NOISE_FACTOR * typical;
		count += noisy[i];
	}
	free(v);
	return count;
}

size_t guest_output_noisy(const struct guest_output *out, int *noisy)
{
	double *w = xcalloc(out->nresults ? out->nresults : 1, sizeof(*w));
	size_t i, count;

	for (i = 0; i < out->nresults; i++)
		w[i] = rel_iqr(&out->results[i].t);
	count = flag_wide(w, out->nresults, noisy);
	free(w);
	return count;
}

size_t guest_output_keysetups_noisy(const struct guest_output *out,
				    int *noisy)
{
	double *w = xcalloc(out->nkeysetups ? out->nkeysetups : 1,
			    sizeof(*w));
	size_t i, count;

	for (i = 0; i < out->nkeysetups; i++)
		w[i] = rel_iqr(&out->keysetups[i].t);
	count = flag_wide(w, out->nkeysetups, noisy);
	free(w);
	return count;
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
	if (out->nresults) {
		ret->result_noisy = xcalloc(out->nresults,
					    sizeof(*ret->result_noisy));
		guest_output_noisy(out, ret->result_noisy);
	}
	ret->nkeysetups = out->nkeysetups;
	if (out->nkeysetups) {
		ret->keysetup_verified = xcalloc(out->nkeysetups,
						 sizeof(*ret->keysetup_verified));
		ret->keysetup_noisy = xcalloc(out->nkeysetups,
					      sizeof(*ret->keysetup_noisy));
		guest_output_keysetups_noisy(out, ret->keysetup_noisy);
	}
	for (i = 0; i < out->nkeysetups; i++) {
		const struct guest_keysetup *k = &out->keysetups[i];

		ret->keysetup_verified[i] = point_verified(out, k->verified,
							   k->library,
							   k->algorithm);
	}
	ret->nfaults = guest_output_faults(out, &ret->faults);
	ret->partial = ret->nfaults > 0;
	ret->ncurves = curves_fit(out, &ret->curves);
	ret->nalgo_peaks = guest_output_algo_peaks(out, &ret->algo_peaks);
}

void guest_judgement_noisy_by_guest(struct guest_judgement *j,
				    const struct guest_output *out)
{
	size_t i;

	for (i = 0; i < j->nresults && i < out->nresults; i++)
		j->result_noisy[i] = out->results[i].t.noisy != 0;
	for (i = 0; i < j->nkeysetups && i < out->nkeysetups; i++)
		j->keysetup_noisy[i] = out->keysetups[i].t.noisy != 0;
}

void guest_judgement_release(struct guest_judgement *j)
{
	free(j->result_verified);
	free(j->result_noisy);
	free(j->keysetup_verified);
	free(j->keysetup_noisy);
	free(j->faults);
	free(j->curves);
	free(j->algo_peaks);
	memset(j, 0, sizeof(*j));
}
