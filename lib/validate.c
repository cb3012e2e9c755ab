/* validate.c - parse and check the guest's JSON lines. The guest runs
 * inside a rootfs we do not trust, so every member is checked for type and
 * range before anything is kept. The members are read by
 * validate-fields.c, the measured points checked by validate-points.c. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/guest-resources.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "lib/validate.h"

static int add_hello(struct guest_output *out, json_t *o, size_t lineno,
		     bo_err *err)
{
	const char *ver, *libc, *variant;
	int64_t proto, cpu, clock_hz;

	if (guest_field_int(o, "protocol", 0, 1000, lineno, &proto, err) < 0)
		return -1;
	if (proto != GUEST_PROTOCOL)
		return bo_err_set(err, "guest output line %zu: protocol %lld, expected %d",
				  lineno, (long long)proto, GUEST_PROTOCOL);
	if (guest_field_str(o, "guest_version", 0, lineno, &ver, err) < 0 ||
	    guest_field_str(o, "libc", 0, lineno, &libc, err) < 0 ||
	    guest_field_int(o, "cpu", -1, 4095, lineno, &cpu, err) < 0 ||
	    guest_field_str(o, "variant", 0, lineno, &variant, err) < 0 ||
	    guest_field_int(o, "clock_hz", GUEST_MIN_CLOCK_HZ,
			    GUEST_MAX_CLOCK_HZ, lineno, &clock_hz, err) < 0)
		return -1;
	if (strcmp(variant, "hw") != 0 && strcmp(variant, "nohw") != 0)
		return bo_err_set(err, "guest output line %zu: 'variant' must be hw or nohw",
				  lineno);
	out->variant = xstrdup(variant);
	out->guest_version = xstrdup(ver);
	out->libc = xstrdup(libc);
	out->cpu = (int)cpu;
	out->clock_start_hz = clock_hz;
	/* optional: the --seed that ordered libraries and algorithms */
	if (json_object_get(o, "seed") &&
	    guest_field_int(o, "seed", 0, 4294967295LL, lineno, &out->seed,
			    err) < 0)
		return -1;
	out->have_hello = 1;
	return 0;
}

static int add_library(struct guest_output *out, json_t *o, size_t lineno,
		       bo_err *err)
{
	const char *name, *status, *soname = NULL, *path = NULL, *ver = NULL;
	const char *bid = NULL, *msg = NULL;
	struct guest_library *l, res;
	int loaded, failed = 0;

	if (guest_field_name(o, "library", lineno, &name, err) < 0 ||
	    guest_field_str(o, "status", 0, lineno, &status, err) < 0)
		return -1;
	if (strcmp(status, "loaded") == 0)
		loaded = 1;
	else if (strcmp(status, "absent") == 0)
		loaded = 0;
	else if (strcmp(status, "failed") == 0)
		loaded = 0, failed = 1;
	else
		return bo_err_set(err, "guest output line %zu: 'status' must be loaded, absent or failed",
				  lineno);
	if (failed && guest_field_str(o, "message", 0, lineno, &msg, err) < 0)
		return -1;
	if (guest_field_library(out, name))
		return bo_err_set(err, "guest output line %zu: library '%s' reported twice",
				  lineno, name);
	if (loaded &&
	    (guest_field_str(o, "soname", 0, lineno, &soname, err) < 0 ||
	     guest_field_str(o, "path", 0, lineno, &path, err) < 0 ||
	     guest_field_str(o, "version", 1, lineno, &ver, err) < 0 ||
	     guest_field_str(o, "build_id", 1, lineno, &bid, err) < 0))
		return -1;
	if (bid && (strlen(bid) > 128 ||
		    strspn(bid, "0123456789abcdef") != strlen(bid)))
		return bo_err_set(err, "guest output line %zu: 'build_id' must be lowercase hex",
				  lineno);
	if (guest_resources_library(o, lineno, &res, err) < 0)
		return -1;
	out->libraries = xrealloc(out->libraries,
				  (out->nlibraries + 1) * sizeof(*l));
	l = &out->libraries[out->nlibraries++];
	l->name = xstrdup(name);
	l->loaded = loaded;
	l->failed = failed;
	l->message = msg ? xstrdup(msg) : NULL;
	l->soname = soname ? xstrdup(soname) : NULL;
	l->path = path ? xstrdup(path) : NULL;
	l->version = ver ? xstrdup(ver) : NULL;
	l->build_id = bid ? xstrdup(bid) : NULL;
	l->rss_before_load_kib = res.rss_before_load_kib;
	l->footprint_kib = res.footprint_kib;
	return 0;
}

/* Is member "algorithm" of O a public-key algorithm (lib/pubkey-table.h)
 * or a key derivation function (lib/kdf-table.h)? Their `kat` and
 * `unsupported` lines are kept with the others' (the tables kats and
 * unsupported take any algorithm name). */
static int names_pubkey(json_t *o)
{
	json_t *a = json_object_get(o, "algorithm");

	return a && json_is_string(a) &&
	       (pubkey_find(json_string_value(a)) ||
		kdf_find(json_string_value(a)));
}

/* The library names of array member KEY of O (at most 64 names of
 * libraries OUT reported loaded: the guest's own, and builds, "LIBRARY@
 * NAME") joined by "," into *RET (caller frees; "" for none). Returns 0,
 * or -1 with err set (*RET untouched). */
static int library_list(struct guest_output *out, json_t *o, const char *key,
			size_t lineno, char **ret, bo_err *err)
{
	json_t *arr = json_object_get(o, key), *v;
	size_t i, len = 0;
	char *s;

	if (!arr || !json_is_array(arr) || json_array_size(arr) > 64)
		return bo_err_set(err, "guest output line %zu: '%s' must be an array of library names",
				  lineno, key);
	json_array_foreach(arr, i, v) {
		struct guest_library *l = json_is_string(v) ?
			guest_field_library(out, json_string_value(v)) : NULL;

		if (!l || !l->loaded)
			return bo_err_set(err, "guest output line %zu: '%s' must be an array of names of loaded libraries",
					  lineno, key);
		len += strlen(json_string_value(v)) + 1;
	}
	s = xcalloc(len + 1, 1);
	json_array_foreach(arr, i, v) {
		if (i)
			strcat(s, ",");
		strcat(s, json_string_value(v));
	}
	*ret = s;
	return 0;
}

/* `pkcheck` (guest/PROTOCOL.md, "Public key"), or with KDF `kdfcheck`
 * ("Key derivation"): a loaded library, a public-key algorithm (a key
 * derivation function), and the arrays confirmed_by and rejected_by of
 * library names; appended to out->pkchecks (out->kdfchecks). */
static int add_pkcheck(struct guest_output *out, json_t *o, size_t lineno,
		       int kdf, bo_err *err)
{
	const char *lib, *alg;
	char *conf = NULL, *rej = NULL;
	struct guest_pkcheck *p, **arr = kdf ? &out->kdfchecks : &out->pkchecks;
	size_t *n = kdf ? &out->nkdfchecks : &out->npkchecks;

	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_name(o, "algorithm", lineno, &alg, err) < 0)
		return -1;
	if (kdf ? !kdf_find(alg) : !pubkey_find(alg))
		return bo_err_set(err, "guest output line %zu: unknown %s '%s'",
				  lineno, kdf ? "key derivation function" :
				  "public-key algorithm", alg);
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*arr)[i].library, lib) == 0 &&
		    strcmp((*arr)[i].algorithm, alg) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate %s for %s %s",
					  lineno, kdf ? "kdfcheck" : "pkcheck",
					  lib, alg);
	if (library_list(out, o, "confirmed_by", lineno, &conf, err) < 0)
		return -1;
	if (library_list(out, o, "rejected_by", lineno, &rej, err) < 0) {
		free(conf);
		return -1;
	}
	*arr = xrealloc(*arr, (*n + 1) * sizeof(*p));
	p = &(*arr)[(*n)++];
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->confirmed_by = conf;
	p->rejected_by = rej;
	return 0;
}

/* The "algorithm" of O: a protocol algorithm, or a public-key one
 * (lib/pubkey-table.h), into *RET (borrowed from O). */
static int kat_algorithm(json_t *o, size_t lineno, const char **ret,
			 bo_err *err)
{
	const struct algorithm *a;

	if (names_pubkey(o))
		return guest_field_name(o, "algorithm", lineno, ret, err);
	return guest_field_algorithm(o, lineno, ret, &a, err);
}

static int add_kat(struct guest_output *out, json_t *o, size_t lineno,
		   bo_err *err)
{
	const char *lib, *alg, *src;
	struct guest_kat *k;
	int ok = 0;

	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    kat_algorithm(o, lineno, &alg, err) < 0 ||
	    guest_field_bool(o, "ok", lineno, &ok, err) < 0 ||
	    guest_field_str(o, "source", 0, lineno, &src, err) < 0)
		return -1;
	out->kats = xrealloc(out->kats, (out->nkats + 1) * sizeof(*k));
	k = &out->kats[out->nkats++];
	k->library = xstrdup(lib);
	k->algorithm = xstrdup(alg);
	k->source = xstrdup(src);
	k->ok = ok;
	return 0;
}

static int add_unsupported(struct guest_output *out, json_t *o, size_t lineno,
			   bo_err *err)
{
	const char *lib, *alg;
	struct guest_unsupported *u;

	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    kat_algorithm(o, lineno, &alg, err) < 0)
		return -1;
	out->unsupported = xrealloc(out->unsupported,
				    (out->nunsupported + 1) * sizeof(*u));
	u = &out->unsupported[out->nunsupported++];
	u->library = xstrdup(lib);
	u->algorithm = xstrdup(alg);
	return 0;
}

static int add_error(struct guest_output *out, json_t *o, size_t lineno,
		     bo_err *err)
{
	const char *lib, *alg, *msg;
	struct guest_error *e;

	if (guest_field_str(o, "library", 1, lineno, &lib, err) < 0 ||
	    guest_field_str(o, "algorithm", 1, lineno, &alg, err) < 0 ||
	    guest_field_str(o, "message", 0, lineno, &msg, err) < 0)
		return -1;
	out->errors = xrealloc(out->errors, (out->nerrors + 1) * sizeof(*e));
	e = &out->errors[out->nerrors++];
	e->library = xstrdup(lib);
	e->algorithm = xstrdup(alg);
	e->message = xstrdup(msg);
	return 0;
}

static int add_crosscheck(struct guest_output *out, json_t *o, size_t lineno,
			  bo_err *err)
{
	const char *lib, *alg, *digest;
	const struct algorithm *a;
	struct guest_crosscheck c, *p;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    guest_field_int(o, "input_bytes", 1, GUEST_MAX_BUFFER, lineno,
			    &c.input_bytes, err) < 0 ||
	    guest_field_int(o, "output_bytes", 1, GUEST_MAX_BUFFER + 64, lineno,
			    &c.output_bytes, err) < 0 ||
	    guest_field_str(o, "digest", 0, lineno, &digest, err) < 0 ||
	    guest_field_bool(o, "roundtrip", lineno, &c.roundtrip, err) < 0)
		return -1;
	if (strlen(digest) != 16 || strspn(digest, "0123456789abcdef") != 16)
		return bo_err_set(err, "guest output line %zu: 'digest' must be 16 lowercase hex digits",
				  lineno);
	for (i = 0; i < out->ncrosschecks; i++)
		if (strcmp(out->crosschecks[i].library, lib) == 0 &&
		    strcmp(out->crosschecks[i].algorithm, alg) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate crosscheck for %s %s",
					  lineno, lib, alg);
	memcpy(c.digest, digest, 17);
	out->crosschecks = xrealloc(out->crosschecks,
				    (out->ncrosschecks + 1) * sizeof(*p));
	p = &out->crosschecks[out->ncrosschecks++];
	*p = c;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	guest_output_crosscheck(out);
	return 0;
}

/* A canary line: a loaded library's curve, each at most once; the times
 * 1 .. GUEST_MAX_BATCH_NS ns, noise a finite fraction >= 0, and moved as the
 * times and noise say (|after / before - 1| > noise), or the line is
 * not believed. */
static int add_canary(struct guest_output *out, json_t *o, size_t lineno,
		      bo_err *err)
{
	const char *lib, *alg, *op, *mode;
	const struct algorithm *a;
	struct guest_canary c, *p;
	json_t *v;
	double change;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (guest_field_loaded_library(out, o, lineno, &lib, err) < 0 ||
	    guest_field_algorithm(o, lineno, &alg, &a, err) < 0 ||
	    guest_field_name(o, "operation", lineno, &op, err) < 0 ||
	    guest_field_name(o, "mode", lineno, &mode, err) < 0 ||
	    guest_field_int(o, "before_ns", 1, GUEST_MAX_BATCH_NS, lineno,
			    &c.before_ns, err) < 0 ||
	    guest_field_int(o, "after_ns", 1, GUEST_MAX_BATCH_NS, lineno,
			    &c.after_ns, err) < 0 ||
	    guest_field_bool(o, "moved", lineno, &c.moved, err) < 0 ||
	    guest_field_bool(o, "remeasured", lineno, &c.remeasured, err) < 0)
		return -1;
	if (strcmp(mode, "bulk") != 0 && strcmp(mode, "oneshot") != 0)
		return bo_err_set(err, "guest output line %zu: 'mode' must be bulk or oneshot",
				  lineno);
	if (!algorithm_has_operation(a, op))
		return bo_err_set(err, "guest output line %zu: operation '%s' does not apply to '%s'",
				  lineno, op, alg);
	v = json_object_get(o, "noise");
	if (!v || !json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) < 0)
		return bo_err_set(err, "guest output line %zu: 'noise' must be a number >= 0",
				  lineno);
	c.noise = json_number_value(v);
	change = fabs((double)c.after_ns / (double)c.before_ns - 1);
	/* a hair of slack: noise is printed with 10 significant digits */
	if (c.moved != (change > c.noise) &&
	    fabs(change - c.noise) > 1e-9 * (c.noise + 1))
		return bo_err_set(err, "guest output line %zu: 'moved' is %s, but after_ns / before_ns - 1 = %.4f against noise %.4f",
				  lineno, c.moved ? "true" : "false",
				  (double)c.after_ns / (double)c.before_ns - 1,
				  c.noise);
	for (i = 0; i < out->ncanaries; i++)
		if (strcmp(out->canaries[i].library, lib) == 0 &&
		    strcmp(out->canaries[i].algorithm, alg) == 0 &&
		    strcmp(out->canaries[i].operation, op) == 0 &&
		    strcmp(out->canaries[i].mode, mode) == 0)
			return bo_err_set(err, "guest output line %zu: duplicate canary for %s %s %s %s",
					  lineno, lib, alg, op, mode);
	out->canaries = xrealloc(out->canaries,
				 (out->ncanaries + 1) * sizeof(*p));
	p = &out->canaries[out->ncanaries++];
	*p = c;
	p->library = xstrdup(lib);
	p->algorithm = xstrdup(alg);
	p->operation = xstrdup(op);
	p->mode = xstrdup(mode);
	return 0;
}

static int add_done(struct guest_output *out, json_t *o, size_t lineno,
		    bo_err *err)
{
	if (guest_field_int(o, "results", 0, INT64_C(1) << 40, lineno,
			    &out->done_results, err) < 0 ||
	    guest_field_int(o, "measure_ns", 0, INT64_C(1) << 62, lineno,
			    &out->measure_ns, err) < 0 ||
	    guest_field_int(o, "elapsed_ns", 0, INT64_C(1) << 62, lineno,
			    &out->elapsed_ns, err) < 0 ||
	    guest_field_int(o, "clock_hz", GUEST_MIN_CLOCK_HZ,
			    GUEST_MAX_CLOCK_HZ, lineno, &out->clock_end_hz,
			    err) < 0 ||
	    guest_field_int(o, "tsc_hz", 0, GUEST_MAX_CLOCK_HZ, lineno,
			    &out->tsc_hz, err) < 0)
		return -1;
	if (out->tsc_hz != 0 && out->tsc_hz < GUEST_MIN_CLOCK_HZ)
		return bo_err_set(err, "guest output line %zu: 'tsc_hz' out of range (%lld)",
				  lineno, (long long)out->tsc_hz);
	/* every timed batch ran between hello and done */
	if (out->measure_ns > out->elapsed_ns)
		return bo_err_set(err, "guest output line %zu: 'measure_ns' exceeds 'elapsed_ns'",
				  lineno);
	if (guest_resources_done(out, o, lineno, err) < 0)
		return -1;
	out->have_done = 1;
	return 0;
}

/* A `turn` line (a duet's, guest --duet): its number is the next. */
static int add_turn(struct guest_output *out, json_t *o, size_t lineno,
		    bo_err *err)
{
	int64_t n;

	if (guest_field_int(o, "n", 1, INT64_C(1) << 40, lineno, &n, err) < 0)
		return -1;
	if (n != out->turns + 1)
		return bo_err_set(err, "guest output line %zu: turn %lld after turn %lld",
				  lineno, (long long)n, (long long)out->turns);
	out->turns = n;
	return 0;
}

int guest_output_add_line(struct guest_output *out, const char *line,
			  size_t len, size_t lineno, bo_err *err)
{
	json_error_t jerr;
	json_t *o, *t;
	const char *type;
	int rc;

	if (len > GUEST_MAX_LINE)
		return bo_err_set(err, "guest output line %zu: longer than %d bytes",
				  lineno, GUEST_MAX_LINE);
	if (out->have_done)
		return bo_err_set(err, "guest output line %zu: output after 'done'",
				  lineno);
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o)
		return bo_err_set(err, "guest output line %zu: not JSON: %s",
				  lineno, jerr.text);
	if (!json_is_object(o)) {
		json_decref(o);
		return bo_err_set(err, "guest output line %zu: not a JSON object",
				  lineno);
	}
	t = json_object_get(o, "type");
	if (!t || !json_is_string(t)) {
		json_decref(o);
		return bo_err_set(err, "guest output line %zu: missing 'type'",
				  lineno);
	}
	type = json_string_value(t);
	if (!out->have_hello && strcmp(type, "hello") != 0) {
		json_decref(o);
		return bo_err_set(err, "guest output line %zu: expected 'hello' first",
				  lineno);
	}
	if (strcmp(type, "hello") == 0)
		rc = out->have_hello ?
			bo_err_set(err, "guest output line %zu: second 'hello'",
				   lineno) :
			add_hello(out, o, lineno, err);
	else if (strcmp(type, "library") == 0)
		rc = add_library(out, o, lineno, err);
	else if (strcmp(type, "kat") == 0)
		rc = add_kat(out, o, lineno, err);
	else if (strcmp(type, "unsupported") == 0)
		rc = add_unsupported(out, o, lineno, err);
	else if (strcmp(type, "error") == 0)
		rc = add_error(out, o, lineno, err);
	else if (strcmp(type, "result") == 0)
		rc = guest_validate_result(out, o, lineno, err);
	else if (strcmp(type, "keysetup") == 0)
		rc = guest_validate_keysetup(out, o, lineno, err);
	else if (strcmp(type, "pkresult") == 0)
		rc = guest_validate_pkresult(out, o, lineno, err);
	else if (strcmp(type, "pkcheck") == 0)
		rc = add_pkcheck(out, o, lineno, 0, err);
	else if (strcmp(type, "kdfresult") == 0)
		rc = guest_validate_kdfresult(out, o, lineno, err);
	else if (strcmp(type, "kdfcheck") == 0)
		rc = add_pkcheck(out, o, lineno, 1, err);
	else if (strcmp(type, "crosscheck") == 0)
		rc = add_crosscheck(out, o, lineno, err);
	else if (strcmp(type, "canary") == 0)
		rc = add_canary(out, o, lineno, err);
	else if (strcmp(type, "pair") == 0)
		rc = guest_validate_pair(out, o, lineno, err);
	else if (strcmp(type, "turn") == 0)
		rc = add_turn(out, o, lineno, err);
	else if (strcmp(type, "done") == 0)
		rc = add_done(out, o, lineno, err);
	else
		rc = bo_err_set(err, "guest output line %zu: unknown type '%.40s'",
				lineno, type);
	json_decref(o);
	if (rc == 0)
		out->lines++;
	return rc;
}

int guest_output_finish(const struct guest_output *out, bo_err *err)
{
	if (!out->have_hello)
		return bo_err_set(err, "guest printed nothing");
	if (!out->have_done)
		return bo_err_set(err, "guest output ended before 'done' (after %zu lines)",
				  out->lines);
	if ((size_t)out->done_results != out->nresults)
		return bo_err_set(err, "guest reported %lld results in 'done' but printed %zu",
				  (long long)out->done_results, out->nresults);
	if (out->tsc_hz == 0) {
		size_t i;

		for (i = 0; i < out->nresults; i++)
			if (out->results[i].t.tsc_cycles != 0)
				return bo_err_set(err, "guest reported TSC cycles but no TSC rate in 'done'");
		for (i = 0; i < out->nkeysetups; i++)
			if (out->keysetups[i].t.tsc_cycles != 0)
				return bo_err_set(err, "guest reported TSC cycles but no TSC rate in 'done'");
		for (i = 0; i < out->npkresults; i++)
			if (out->pkresults[i].t.tsc_cycles != 0)
				return bo_err_set(err, "guest reported TSC cycles but no TSC rate in 'done'");
		for (i = 0; i < out->nkdfresults; i++)
			if (out->kdfresults[i].t.tsc_cycles != 0)
				return bo_err_set(err, "guest reported TSC cycles but no TSC rate in 'done'");
	}
	return 0;
}

int guest_output_check_clock(struct guest_output *out,
			     int64_t host_elapsed_ns, bo_err *err)
{
	double allowed = GUEST_CLOCK_TOLERANCE * (double)host_elapsed_ns +
			 (double)GUEST_CLOCK_SLACK_NS;
	double diff = (double)out->elapsed_ns - (double)host_elapsed_ns;

	out->host_elapsed_ns = host_elapsed_ns;
	if (fabs(diff) <= allowed)
		return 0;
	return bo_err_set(err, "guest clock disagrees with the host: the guest timed %.3f s from 'hello' to 'done', the host %.3f s (allowed: %.0f %% + %.0f ms)",
			  (double)out->elapsed_ns / 1e9,
			  (double)host_elapsed_ns / 1e9,
			  100 * GUEST_CLOCK_TOLERANCE,
			  (double)GUEST_CLOCK_SLACK_NS / 1e6);
}
