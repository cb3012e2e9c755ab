/* validate-fields.c - read one member of a guest output line, checked
 * for type and range (see validate.h). */
#include "config.h"

#include <jansson.h>
#include <string.h>

#include "lib/validate.h"

int guest_field_str(json_t *o, const char *key, int allow_empty, size_t lineno,
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
	if (n > GUEST_MAX_STR)
		return bo_err_set(err, "guest output line %zu: '%s' is longer than %d bytes",
				  lineno, key, GUEST_MAX_STR);
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

int guest_field_name(json_t *o, const char *key, size_t lineno,
		     const char **ret, bo_err *err)
{
	const char *s;
	size_t i;

	if (guest_field_str(o, key, 0, lineno, &s, err) < 0)
		return -1;
	if (strlen(s) > 64)
		return bo_err_set(err, "guest output line %zu: '%s' is too long",
				  lineno, key);
	for (i = 0; s[i]; i++) {
		char c = s[i];

		/* '@': a build's library, "LIBRARY@NAME" (PROTOCOL.md,
		 * "Builds") */
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.' ||
		      (c == '@' && i > 0 && s[i + 1] && !strchr(s + i + 1, '@') &&
		       (strcmp(key, "library") == 0 ||
			strcmp(key, "versus") == 0))))
			return bo_err_set(err, "guest output line %zu: '%s' has an invalid name",
					  lineno, key);
	}
	*ret = s;
	return 0;
}

int guest_field_int(json_t *o, const char *key, int64_t min, int64_t max,
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

int guest_field_bool(json_t *o, const char *key, size_t lineno, int *ret,
		     bo_err *err)
{
	json_t *v = json_object_get(o, key);

	if (!v || !json_is_boolean(v))
		return bo_err_set(err, "guest output line %zu: '%s' must be true or false",
				  lineno, key);
	*ret = json_is_true(v);
	return 0;
}

struct guest_library *guest_field_library(struct guest_output *out,
					  const char *name)
{
	size_t i;

	for (i = 0; i < out->nlibraries; i++)
		if (strcmp(out->libraries[i].name, name) == 0)
			return &out->libraries[i];
	return NULL;
}

int guest_field_loaded_library(struct guest_output *out, json_t *o,
			       size_t lineno, const char **ret, bo_err *err)
{
	struct guest_library *l;

	if (guest_field_name(o, "library", lineno, ret, err) < 0)
		return -1;
	l = guest_field_library(out, *ret);
	if (!l || !l->loaded)
		return bo_err_set(err, "guest output line %zu: library '%s' was not reported loaded",
				  lineno, *ret);
	return 0;
}

int guest_field_algorithm(json_t *o, size_t lineno, const char **ret,
			  const struct algorithm **ret_algo, bo_err *err)
{
	if (guest_field_name(o, "algorithm", lineno, ret, err) < 0)
		return -1;
	*ret_algo = algorithm_find(*ret);
	if (!*ret_algo)
		return bo_err_set(err, "guest output line %zu: unknown algorithm '%s'",
				  lineno, *ret);
	return 0;
}
