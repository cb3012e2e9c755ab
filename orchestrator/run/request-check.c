/* request-check.c - check distribution, library and algorithm lists the
 * same way for run, the configuration file and submit. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "images/builds.h"
#include "images/image.h"
#include "lib/algorithms.h"
#include "lib/library-support.h"
#include "lib/kdf-table.h"
#include "lib/pubkey-table.h"
#include "orchestrator/run/request-check.h"
#include "orchestrator/run/runner.h"

/* 1 when LIST is empty, starts or ends with a comma or holds ",,". */
static int has_empty_item(const char *list)
{
	size_t len = strlen(list);

	return len == 0 || list[0] == ',' || list[len - 1] == ',' ||
	       strstr(list, ",,") != NULL;
}

int request_check_distros(const char *list, const char *what,
			  const char *data_dir, const char *state_dir,
			  char ***ret_specs, size_t *ret_n, bo_err *err)
{
	char *copy, *tok, *save = NULL, **specs = NULL, **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (has_empty_item(list))
		return bo_err_set(err, "empty name in %s '%s'", what, list);
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *distro, *release;

		if (image_spec_parse(tok, &distro, &release, err) < 0) {
			rc = -1;
			break;
		}
		free(distro);
		free(release);
		for (i = 0; i < n && !rc; i++)
			if (strcmp(specs[i], tok) == 0)
				rc = bo_err_set(err, "'%s' is named twice in %s",
						tok, what);
		/* A distro with a recipe, or an imported image's name. */
		if (!rc && image_spec_check(data_dir, state_dir, tok, err) < 0)
			rc = -1;
		if (rc)
			break;
		/* two spellings of one image ("debian", "debian:bookworm",
		 * "debian-bookworm") would measure it twice in one run */
		names = xrealloc(names, (n + 1) * sizeof(char *));
		if (image_spec_name(data_dir, tok, &names[n], err) < 0) {
			rc = -1;
			break;
		}
		for (i = 0; i < n && !rc; i++)
			if (strcmp(names[i], names[n]) == 0)
				rc = bo_err_set(err, "'%s' and '%s' in %s name the same image '%s'",
						specs[i], tok, what, names[n]);
		specs = xrealloc(specs, (n + 1) * sizeof(char *));
		specs[n++] = xstrdup(tok);
	}
	free(copy);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!rc && n == 0)
		rc = bo_err_set(err, "%s names no distribution", what);
	if (rc || !ret_specs) {
		for (i = 0; i < n; i++)
			free(specs[i]);
		free(specs);
		return rc;
	}
	*ret_specs = specs;
	*ret_n = n;
	return 0;
}

/* Whether NAME occurs as a whole comma-separated item of LIST before
 * byte offset END. */
static int named_before(const char *list, const char *name, size_t end)
{
	size_t len = strlen(name), at = 0;

	while (at < end) {
		size_t item = strcspn(list + at, ",");

		if (item == len && strncmp(list + at, name, len) == 0)
			return 1;
		at += item + 1;
	}
	return 0;
}

/* Check LIST against KNOWN; NAME(i) lists the known names for the
 * message; a name given twice is an error too. */
static int check_names(const char *list, const char *what,
		       int (*known)(const char *),
		       const char *(*name)(size_t), bo_err *err)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i, len = 0;
		char names[1024] = "";
		const char *nm;

		if (known(tok)) {
			/* a name given twice would be measured once: say so
			 * rather than accept a list that is not what it says */
			if (named_before(list, tok, (size_t)(tok - copy)))
				rc = bo_err_set(err, "%s: '%s' is named twice",
						what, tok);
			continue;
		}
		for (i = 0; (nm = name(i)); i++)
			len += (size_t)snprintf(names + len,
				len < sizeof(names) ? sizeof(names) - len : 0,
				"%s%s", i ? ", " : "", nm);
		rc = bo_err_set(err, "%s: unknown name '%s' (known: %s)", what,
				tok, names);
	}
	free(copy);
	if (!rc && has_empty_item(list))
		rc = bo_err_set(err, "%s: empty item in '%s'", what, list);
	return rc;
}

int request_check_libs(const char *list, const char *what, bo_err *err)
{
	return check_names(list, what, library_known, library_name, err);
}

static int algorithm_known(const char *name)
{
	return algorithm_find(name) != NULL;
}

int request_check_algos(const char *list, const char *what, bo_err *err)
{
	return check_names(list, what, algorithm_known, algorithm_name, err);
}

/* A protocol or public-key algorithm, or a key derivation function? */
static int run_algorithm_known(const char *name)
{
	return algorithm_find(name) != NULL || pubkey_find(name) != NULL ||
	       kdf_find(name) != NULL;
}

/* The I-th name run_algorithm_known knows: the protocol's, then the
 * public-key ones; NULL past the end. */
static const char *run_algorithm_name(size_t i)
{
	const char *n = algorithm_name(i);
	size_t k = 0;

	if (n)
		return n;
	while (algorithm_name(k))
		k++;
	if (i - k < PUBKEY_COUNT)
		return pubkey_table[i - k].name;
	k += PUBKEY_COUNT;
	return i - k < KDF_COUNT ? kdf_table[i - k].name : NULL;
}

int request_check_run_algos(const char *list, const char *what, bo_err *err)
{
	return check_names(list, what, run_algorithm_known,
			   run_algorithm_name, err);
}

/* The I-th item of the comma-separated LIST, or of every library
 * (IS_LIBS) or algorithm when LIST is NULL, into BUF (BYTES); NULL past
 * the end. */
static const char *item(const char *list, int is_libs, size_t i, char *buf,
			size_t bytes)
{
	size_t len;

	if (!list)
		return is_libs ? library_name(i) : algorithm_name(i);
	for (; i > 0 && list; i--)
		if ((list = strchr(list, ',')))
			list++;
	if (!list)
		return NULL;
	len = strcspn(list, ",");
	if (len >= bytes)
		len = bytes - 1;
	memcpy(buf, list, len);
	buf[len] = '\0';
	return buf;
}

/* Whether NAME, a library (IS_LIBS) or an algorithm, measures something
 * with an item of OTHER (the other kind's list, NULL: all of it). */
static int measures_any(const char *name, int is_libs, const char *other)
{
	char buf[64];
	const char *o;
	size_t i;

	for (i = 0; (o = item(other, !is_libs, i, buf, sizeof(buf))); i++)
		if (is_libs ? library_supports(name, o) :
			      library_supports(o, name))
			return 1;
	return 0;
}

int request_check_selection(const char *libs, const char *algos,
			    bo_err *err)
{
	char buf[64], who[512];
	const char *a, *l;
	size_t i, j, len;

	for (i = 0; algos && (a = item(algos, 0, i, buf, sizeof(buf))); i++) {
		if (measures_any(a, 0, libs))
			continue;
		len = 0;
		who[0] = '\0';
		for (j = 0; (l = library_name(j)); j++)
			if (library_supports(l, a) && len < sizeof(who))
				len += (size_t)snprintf(who + len,
					sizeof(who) - len, "%s%s",
					len ? ", " : "", l);
		return bo_err_set(err, "--algos: no library of --libs '%s' measures '%s' (%s %s)",
				  libs ? libs : "all", a, len ? who : "no library",
				  len ? (strchr(who, ',') ? "do" : "does")
				      : "does");
	}
	/* a library of LIBS with none of ALGOS, beside others that have
	 * them, measures nothing itself but costs nothing either: the guest
	 * says it is unsupported (and a library that fails to load is still
	 * said to have failed) */
	return 0;
}

int request_check_mirror(const char *url, const char *what, bo_err *err)
{
	const char *p = url;

	/* RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) */
	if (!isalpha((unsigned char)*p))
		p = NULL;
	else
		while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' ||
		       *p == '.')
			p++;
	if (!p || strncmp(p, "://", 3) != 0 || !p[3])
		return bo_err_set(err, "%s: '%s' is not a URL (e.g. http://deb.debian.org/debian)",
				  what, url);
	return 0;
}

/* Is NAME an item of the comma-separated LIST (NULL: every name)? */
static int list_holds(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!list)
		return 1;
	while (*list) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);

		if (len == n && strncmp(list, name, n) == 0)
			return 1;
		if (!comma)
			break;
		list = comma + 1;
	}
	return 0;
}

/* Check the build NAME against the builds V (N of them, listed from
 * STATE_DIR) and the images IMAGES (NIMAGES names) of the run, the --libs
 * list LIBS. Returns 0, or -1 with err set. */
static int check_build(const char *name, const char *what,
		       const char *state_dir,
		       struct build_info *const *v, size_t n,
		       char *const *images, size_t nimages, const char *libs,
		       bo_err *err)
{
	const struct build_info *other = NULL;
	size_t i, j;

	if (build_name_check(name, err) < 0)
		return bo_err_set(err, "%s: %s", what, err->msg);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i]->name, name) != 0)
			continue;
		for (j = 0; j < nimages; j++)
			if (strcmp(v[i]->image, images[j]) == 0)
				break;
		if (j == nimages) {
			other = v[i];
			continue;
		}
		if (!list_holds(libs, v[i]->library))
			return bo_err_set(err, "%s: build '%s' is of library '%s', not one of --libs",
					  what, name, v[i]->library);
		if (strlen(v[i]->library) + 1 + strlen(name) > 64)
			return bo_err_set(err, "%s: build name '%s' is too long for library '%s' (at most %zu bytes)",
					  what, name, v[i]->library,
					  63 - strlen(v[i]->library));
		return 0;
	}
	if (other)
		return bo_err_set(err, "%s: build '%s' is of image '%s', not one of the run's distributions",
				  what, name, other->image);
	/* a build whose build.json does not load is not listed: say so,
	 * not that it does not exist */
	for (j = 0; j < nimages; j++) {
		bo_err why;

		if (build_broken(state_dir, images[j], name, &why))
			return bo_err_set(err, "%s: build '%s' of image '%s' cannot be used: %s (`benchorch rebuild --remove %s %s` removes it)",
					  what, name, images[j], why.msg,
					  images[j], name);
	}
	return bo_err_set(err, "%s: unknown build '%s' (see benchorch rebuild --list)",
			  what, name);
}

int request_check_builds(const char *list, const char *what,
			 const char *state_dir, const char *data_dir,
			 char *const *specs, size_t n, const char *libs,
			 bo_err *err)
{
	struct build_info **v = NULL;
	char **images, *copy, *tok, *save = NULL;
	size_t nv = 0, i, k = 0, nbuilds = 0;
	int rc = -1;

	if (has_empty_item(list))
		return bo_err_set(err, "%s: empty item in '%s'", what, list);
	images = xcalloc(n + 1, sizeof(*images));
	for (i = 0; i < n; i++, k++)
		if (image_spec_name(data_dir, specs[i], &images[i], err) < 0)
			goto out;
	if (builds_list(state_dir, NULL, &v, &nv, err) < 0)
		goto out;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (named_before(list, tok, (size_t)(tok - copy))) {
			bo_err_set(err, "%s: '%s' is named twice", what, tok);
			break;
		}
		if (strcmp(tok, "shipped") == 0)
			continue;
		if (++nbuilds > RUNNER_MAX_BINDS) {
			bo_err_set(err, "%s: more than %d builds", what,
				   RUNNER_MAX_BINDS);
			break;
		}
		if (check_build(tok, what, state_dir, v, nv, images, n, libs,
				err) < 0)
			break;
	}
	rc = tok ? -1 : 0;
	free(copy);
out:
	builds_list_free(v, nv);
	for (i = 0; i < k; i++)
		free(images[i]);
	free(images);
	return rc;
}
