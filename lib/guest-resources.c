/* guest-resources.c - validate the guest's resource members (see
 * guest-resources.h and guest/PROTOCOL.md, "Resources"). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/guest-resources.h"

/* Optional integer member KEY of O in MIN .. MAX into *RET; -1 when absent.
 * Returns 0, or -1 with err set. */
static int opt_int(json_t *o, const char *key, int64_t min, int64_t max,
		   size_t lineno, int64_t *ret, bo_err *err)
{
	json_t *v = json_object_get(o, key);
	json_int_t x;

	*ret = -1;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return bo_err_set(err, "guest output line %zu: '%s' must be an integer",
				  lineno, key);
	x = json_integer_value(v);
	if (x < min || x > max)
		return bo_err_set(err, "guest output line %zu: '%s' out of range (%lld)",
				  lineno, key, (long long)x);
	*ret = (int64_t)x;
	return 0;
}

int guest_resources_library(json_t *o, size_t lineno, struct guest_library *l,
			    bo_err *err)
{
	int64_t before, fp;

	if (opt_int(o, "rss_before_load_kib", 0, GUEST_MAX_KIB, lineno,
		    &before, err) < 0 ||
	    opt_int(o, "footprint_kib", 1, GUEST_MAX_KIB, lineno, &fp,
		    err) < 0)
		return -1;
	if ((before < 0) != (fp < 0))
		return bo_err_set(err, "guest output line %zu: 'rss_before_load_kib' and 'footprint_kib' come together",
				  lineno);
	l->rss_before_load_kib = before;
	l->footprint_kib = fp;
	return 0;
}

int guest_resources_result(json_t *o, size_t lineno, struct guest_result *r,
			   bo_err *err)
{
	return opt_int(o, "maxrss_kib", 1, GUEST_MAX_KIB, lineno,
		       &r->maxrss_kib, err);
}

/* Is LIBRARY one that OUT's library lines reported? */
static int reported(const struct guest_output *out, const char *library)
{
	for (size_t i = 0; i < out->nlibraries; i++)
		if (strcmp(out->libraries[i].name, library) == 0)
			return 1;
	return 0;
}

int guest_resources_done(struct guest_output *out, json_t *o, size_t lineno,
			 bo_err *err)
{
	json_t *a = json_object_get(o, "rusage"), *e;
	struct guest_rusage *v;
	size_t n, i, j;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return bo_err_set(err, "guest output line %zu: 'rusage' must be an array",
				  lineno);
	n = json_array_size(a);
	v = xcalloc(n + 1, sizeof(*v));
	json_array_foreach(a, i, e) {
		json_t *name = json_object_get(e, "library");

		if (!json_is_object(e) || !json_is_string(name)) {
			bo_err_set(err, "guest output line %zu: 'rusage' entry %zu must be an object with a 'library'",
				   lineno, i + 1);
			goto fail;
		}
		if (!reported(out, json_string_value(name))) {
			bo_err_set(err, "guest output line %zu: 'rusage' names library '%.40s' that was not reported",
				   lineno, json_string_value(name));
			goto fail;
		}
		for (j = 0; j < i; j++)
			if (strcmp(v[j].library, json_string_value(name)) == 0) {
				bo_err_set(err, "guest output line %zu: 'rusage' names library '%.40s' twice",
					   lineno, v[j].library);
				goto fail;
			}
		v[i].library = xstrdup(json_string_value(name));
		if (opt_int(e, "user_us", 0, GUEST_MAX_CPU_US, lineno,
			    &v[i].user_us, err) < 0 ||
		    opt_int(e, "sys_us", 0, GUEST_MAX_CPU_US, lineno,
			    &v[i].sys_us, err) < 0 ||
		    opt_int(e, "maxrss_kib", 0, GUEST_MAX_KIB, lineno,
			    &v[i].maxrss_kib, err) < 0)
			goto fail;
		if (v[i].user_us < 0 || v[i].sys_us < 0 || v[i].maxrss_kib < 0) {
			bo_err_set(err, "guest output line %zu: 'rusage' entry %zu needs user_us, sys_us and maxrss_kib",
				   lineno, i + 1);
			goto fail;
		}
	}
	guest_resources_release(out);
	out->rusage = v;
	out->nrusage = n;
	return 0;
fail:
	for (j = 0; j < n; j++)
		free(v[j].library);
	free(v);
	return -1;
}

void guest_resources_release(struct guest_output *out)
{
	for (size_t i = 0; i < out->nrusage; i++)
		free(out->rusage[i].library);
	free(out->rusage);
	out->rusage = NULL;
	out->nrusage = 0;
}

const struct guest_rusage *guest_resources_find(const struct guest_output *out,
						const char *library)
{
	for (size_t i = 0; i < out->nrusage; i++)
		if (strcmp(out->rusage[i].library, library) == 0)
			return &out->rusage[i];
	return NULL;
}
