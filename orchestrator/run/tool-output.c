/* tool-output.c - check the guest's tool-mode lines (tool-output.h). */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/run/tool-output.h"

/* Most samples per line the guest may print (guest/tools.c MAX_REPS). */
#define TOOL_MAX_REPS 40

void tool_output_init(struct tool_output *out)
{
	memset(out, 0, sizeof(*out));
}

void tool_output_release(struct tool_output *out)
{
	size_t i;

	for (i = 0; i < out->ncases; i++) {
		free(out->cases[i].name);
		free(out->cases[i].tool);
		free(out->cases[i].cipher);
		free(out->cases[i].version);
		free(out->cases[i].hwf_hw);
		free(out->cases[i].hwf_nohw);
	}
	for (i = 0; i < out->nresults; i++) {
		free(out->results[i].direction);
		free(out->results[i].variant);
		free(out->results[i].message);
		free(out->results[i].samples);
	}
	free(out->cases);
	free(out->results);
	tool_output_init(out);
}

/* A name: 1 to 64 of [a-z0-9.-]. */
static int is_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
		      s[i] == '.'))
			return 0;
	return 1;
}

static const char *str_member(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int uint_member(json_t *o, const char *key, uint64_t *ret)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*ret = (uint64_t)json_integer_value(v);
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int add_case(struct tool_output *out, json_t *o, bo_err *err,
		    size_t ln)
{
	const char *name = str_member(o, "case"), *tool = str_member(o, "tool");
	const char *cipher = str_member(o, "cipher");
	const char *status = str_member(o, "status");
	const char *version = str_member(o, "version");
	struct tool_case_out *c;
	size_t i;

	if (!name || !tool || !cipher || !status || !is_name(name) ||
	    !is_name(tool) || !is_name(cipher))
		return bo_err_set(err, "tool output line %zu: a tool line needs case, tool, cipher and status names",
				  ln);
	if (strcmp(status, "present") != 0 && strcmp(status, "absent") != 0)
		return bo_err_set(err, "tool output line %zu: unknown status '%s'",
				  ln, status);
	for (i = 0; i < out->ncases; i++)
		if (strcmp(out->cases[i].name, name) == 0)
			return bo_err_set(err, "tool output line %zu: case '%s' twice",
					  ln, name);
	out->cases = xrealloc(out->cases, (out->ncases + 1) * sizeof(*c));
	c = &out->cases[out->ncases++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->tool = xstrdup(tool);
	c->cipher = xstrdup(cipher);
	c->present = strcmp(status, "present") == 0;
	c->version = xstrdup(version ? version : "");
	c->hwf_hw = dup_or_null(str_member(o, "hwf_hw"));
	c->hwf_nohw = dup_or_null(str_member(o, "hwf_nohw"));
	return 0;
}

/* The integer array KEY of O into a newly allocated array *RET (N
 * entries). Returns its length, or -1. */
static long uint_array(json_t *o, const char *key, uint64_t **ret)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i, n;

	if (!json_is_array(a) || json_array_size(a) > TOOL_MAX_REPS)
		return -1;
	n = json_array_size(a);
	*ret = xcalloc(n + 1, sizeof(**ret));
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			free(*ret);
			return -1;
		}
		(*ret)[i] = (uint64_t)json_integer_value(v);
	}
	return (long)n;
}

static int add_result(struct tool_output *out, json_t *o, bo_err *err,
		      size_t ln)
{
	const char *name = str_member(o, "case");
	const char *dir = str_member(o, "direction");
	const char *variant = str_member(o, "variant");
	const char *message = str_member(o, "message");
	json_t *verified = json_object_get(o, "verified");
	uint64_t *arr[4] = { NULL, NULL, NULL, NULL }, bytes;
	static const char *const keys[4] = { "user_ns", "sys_ns", "wall_ns",
					     "max_rss_kib" };
	struct tool_result_out *r;
	long n[4];
	size_t ci, i;
	int rc = -1;

	if (!name || !dir || !variant || !json_is_boolean(verified))
		return bo_err_set(err, "tool output line %zu: a tool_result line needs case, direction, variant and verified",
				  ln);
	for (ci = 0; ci < out->ncases; ci++)
		if (strcmp(out->cases[ci].name, name) == 0)
			break;
	if (ci == out->ncases || !out->cases[ci].present)
		return bo_err_set(err, "tool output line %zu: result of case '%s', which is not a present tool",
				  ln, name);
	if ((strcmp(dir, "encrypt") != 0 && strcmp(dir, "decrypt") != 0) ||
	    (strcmp(variant, "hw") != 0 && strcmp(variant, "nohw") != 0))
		return bo_err_set(err, "tool output line %zu: bad direction '%s' or variant '%s'",
				  ln, dir, variant);
	if (uint_member(o, "bytes", &bytes) < 0 || bytes != out->bytes)
		return bo_err_set(err, "tool output line %zu: bytes differ from tool_hello's",
				  ln);
	for (i = 0; i < out->nresults; i++) {
		r = &out->results[i];
		if (r->case_index == ci && strcmp(r->direction, dir) == 0 &&
		    strcmp(r->variant, variant) == 0)
			return bo_err_set(err, "tool output line %zu: %s %s %s twice",
					  ln, name, dir, variant);
	}
	for (i = 0; i < 4; i++) {
		n[i] = uint_array(o, keys[i], &arr[i]);
		if (n[i] < 0 || n[i] != n[0]) {
			bo_err_set(err, "tool output line %zu: '%s' is not an array of at most %d counts as long as user_ns",
				   ln, keys[i], TOOL_MAX_REPS);
			goto out;
		}
	}
	if (json_is_true(verified)) {
		if ((uint64_t)n[0] != out->repetitions) {
			bo_err_set(err, "tool output line %zu: a verified result with %ld samples, not %llu",
				   ln, n[0], (unsigned long long)out->repetitions);
			goto out;
		}
		for (i = 0; i < (size_t)n[0]; i++)
			if (arr[2][i] == 0) {
				bo_err_set(err, "tool output line %zu: a wall time of 0 ns",
					   ln);
				goto out;
			}
	} else if (!message || !*message) {
		bo_err_set(err, "tool output line %zu: an unverified result without a message",
			   ln);
		goto out;
	}
	out->results = xrealloc(out->results,
				(out->nresults + 1) * sizeof(*r));
	r = &out->results[out->nresults++];
	memset(r, 0, sizeof(*r));
	r->case_index = ci;
	r->direction = xstrdup(dir);
	r->variant = xstrdup(variant);
	r->verified = json_is_true(verified);
	r->message = r->verified ? NULL : xstrdup(message);
	r->nsamples = (size_t)n[0];
	r->samples = xcalloc(r->nsamples + 1, sizeof(*r->samples));
	for (i = 0; i < r->nsamples; i++) {
		r->samples[i].user_ns = arr[0][i];
		r->samples[i].sys_ns = arr[1][i];
		r->samples[i].wall_ns = arr[2][i];
		r->samples[i].max_rss_kib = arr[3][i];
	}
	rc = 0;
out:
	for (i = 0; i < 4; i++)
		free(arr[i]);
	return rc;
}

int tool_output_add_line(struct tool_output *out, const char *line,
			 size_t len, bo_err *err)
{
	json_error_t je;
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	const char *type;
	size_t ln = ++out->lines;
	int rc = -1;

	if (!json_is_object(o)) {
		bo_err_set(err, "tool output line %zu: not a JSON object", ln);
		goto out;
	}
	type = str_member(o, "type");
	if (!type) {
		bo_err_set(err, "tool output line %zu: no type", ln);
		goto out;
	}
	if (out->have_done) {
		bo_err_set(err, "tool output line %zu: after tool_done", ln);
		goto out;
	}
	if (!out->have_hello && strcmp(type, "tool_hello") != 0) {
		bo_err_set(err, "tool output line %zu: '%s' before tool_hello",
			   ln, type);
		goto out;
	}
	if (strcmp(type, "tool_hello") == 0) {
		uint64_t proto;

		if (out->have_hello) {
			bo_err_set(err, "tool output line %zu: tool_hello twice", ln);
			goto out;
		}
		if (uint_member(o, "protocol", &proto) < 0 || proto != 3 ||
		    uint_member(o, "bytes", &out->bytes) < 0 || out->bytes == 0 ||
		    uint_member(o, "repetitions", &out->repetitions) < 0 ||
		    out->repetitions == 0 || out->repetitions > TOOL_MAX_REPS) {
			bo_err_set(err, "tool output line %zu: tool_hello needs protocol 3, bytes and 1 to %d repetitions",
				   ln, TOOL_MAX_REPS);
			goto out;
		}
		out->have_hello = 1;
		rc = 0;
	} else if (strcmp(type, "tool") == 0) {
		rc = add_case(out, o, err, ln);
	} else if (strcmp(type, "tool_result") == 0) {
		rc = add_result(out, o, err, ln);
	} else if (strcmp(type, "tool_done") == 0) {
		if (uint_member(o, "elapsed_ns", &out->elapsed_ns) < 0) {
			bo_err_set(err, "tool output line %zu: tool_done needs elapsed_ns",
				   ln);
			goto out;
		}
		out->have_done = 1;
		rc = 0;
	} else {
		bo_err_set(err, "tool output line %zu: unknown type '%s'", ln,
			   type);
	}
out:
	json_decref(o);
	return rc;
}

int tool_output_finish(const struct tool_output *out, bo_err *err)
{
	if (!out->have_hello)
		return bo_err_set(err, "the guest printed no tool_hello");
	if (!out->have_done)
		return bo_err_set(err, "the guest's tool output ended before tool_done");
	return 0;
}
