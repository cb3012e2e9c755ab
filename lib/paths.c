/* paths.c - locate data, guest, state and database. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/paths.h"
#include "lib/util.h"

/* 1 when /proc/self/exe lives in the build tree (tests, uninstalled use). */
static int in_build_tree(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t blen = strlen(BENCHORCH_BUILDDIR);

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	return strncmp(exe, BENCHORCH_BUILDDIR, blen) == 0 && exe[blen] == '/';
}

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

char *paths_data_dir(void)
{
	const char *v = env_nonempty("BENCHORCH_DATA_DIR");

	if (v)
		return xstrdup(v);
	return xstrdup(in_build_tree() ? BENCHORCH_SRCDIR : BENCHORCH_PKGDATADIR);
}

char *paths_guest(enum guest_flavour f)
{
	int musl = f == GUEST_FLAVOUR_MUSL;
	const char *v = env_nonempty(musl ? "BENCHORCH_GUEST_MUSL" :
				     "BENCHORCH_GUEST");
	const char *name = musl ? "benchorch-guest-musl" : "benchorch-guest";

	if (v)
		return xstrdup(v);
	if (in_build_tree())
		return xasprintf("%s/guest/%s", BENCHORCH_BUILDDIR, name);
	return xasprintf("%s/%s", BENCHORCH_PKGLIBEXECDIR, name);
}

char *paths_confine(void)
{
	const char *v = env_nonempty("BENCHORCH_CONFINE");

	if (v)
		return xstrdup(v);
	if (in_build_tree())
		return xasprintf("%s/guest/benchorch-confine", BENCHORCH_BUILDDIR);
	return xasprintf("%s/benchorch-confine", BENCHORCH_PKGLIBEXECDIR);
}

char *paths_state_dir(const char *opt)
{
	const char *v = opt ? opt : env_nonempty("BENCHORCH_STATE_DIR");

	return xstrdup(v ? v : BENCHORCH_DEFAULT_STATE_DIR);
}

char *paths_db(const char *opt, const char *state_opt)
{
	const char *v = opt ? opt : env_nonempty("BENCHORCH_DB");

	if (v)
		return xstrdup(v);
	if (state_opt || env_nonempty("BENCHORCH_STATE_DIR")) {
		char *s = paths_state_dir(state_opt);
		char *db = xasprintf("%s/results.db", s);

		free(s);
		return db;
	}
	return xstrdup(BENCHORCH_DEFAULT_DB);
}

char *paths_db_opt(const char *db_path)
{
	char *abs, *q, *o;
	const char *p;
	size_t n = 0;

	if (!db_path || !strcmp(db_path, BENCHORCH_DEFAULT_DB))
		return xstrdup("");
	abs = realpath(db_path, NULL);
	p = abs ? abs : db_path;
	if (!strcmp(p, BENCHORCH_DEFAULT_DB)) {
		free(abs);
		return xstrdup("");
	}
	q = xmalloc(4 * strlen(p) + 1);
	for (; *p; p++) {
		if (*p == '\'') {
			memcpy(q + n, "'\\''", 4);
			n += 4;
		} else {
			q[n++] = *p;
		}
	}
	q[n] = '\0';
	o = xasprintf(" --db '%s'", q);
	free(q);
	free(abs);
	return o;
}

char *paths_sysfs(void)
{
	const char *v = env_nonempty("BENCHORCH_SYSFS");

	return xstrdup(v ? v : "/sys");
}
