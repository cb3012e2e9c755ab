/* guest-output.c - a guest_output's life (init, release, shrink) and
 * the look-ups of its results (see guest_output.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/algorithms.h"
#include "lib/guest-resources.h"
#include "lib/guest_output.h"

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
	for (i = 0; i < out->npairs; i++) {
		free(out->pairs[i].library);
		free(out->pairs[i].versus);
		free(out->pairs[i].algorithm);
		free(out->pairs[i].operation);
		free(out->pairs[i].mode);
	}
	free(out->pairs);
	for (i = 0; i < out->npkresults; i++) {
		free(out->pkresults[i].t.samples_ns);
		free(out->pkresults[i].library);
		free(out->pkresults[i].algorithm);
		free(out->pkresults[i].operation);
	}
	free(out->pkresults);
	for (i = 0; i < out->npkchecks; i++) {
		free(out->pkchecks[i].library);
		free(out->pkchecks[i].algorithm);
		free(out->pkchecks[i].confirmed_by);
		free(out->pkchecks[i].rejected_by);
	}
	free(out->pkchecks);
	for (i = 0; i < out->nkdfresults; i++) {
		free(out->kdfresults[i].t.samples_ns);
		free(out->kdfresults[i].library);
		free(out->kdfresults[i].algorithm);
		free(out->kdfresults[i].params);
	}
	free(out->kdfresults);
	for (i = 0; i < out->nkdfchecks; i++) {
		free(out->kdfchecks[i].library);
		free(out->kdfchecks[i].algorithm);
		free(out->kdfchecks[i].confirmed_by);
		free(out->kdfchecks[i].rejected_by);
	}
	free(out->kdfchecks);
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
