/* spawn-env.c - fixed environments (allowlists) for child programs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/spawn.h"
#include "lib/util.h"

static const char *const guest_env[] = {
	"PATH=/usr/sbin:/usr/bin:/sbin:/bin",
	"LC_ALL=C",
	NULL,
};

const char *const *spawn_env_guest(void)
{
	return guest_env;
}

/* The builders' fixed part, then the names whose values pass through. */
static const char *const builder_fixed[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"LC_ALL=C",
	"DEBIAN_FRONTEND=noninteractive",
	NULL,
};

static const char *const builder_pass[] = {
	"http_proxy", "https_proxy", "ftp_proxy", "no_proxy", "all_proxy",
	"HTTP_PROXY", "HTTPS_PROXY", "FTP_PROXY", "NO_PROXY", "ALL_PROXY",
	"TMPDIR",
	NULL,
};

char **spawn_env_builder(void)
{
	size_t nf = sizeof(builder_fixed) / sizeof(builder_fixed[0]) - 1;
	size_t np = sizeof(builder_pass) / sizeof(builder_pass[0]) - 1;
	char **env = xcalloc(nf + np + 1, sizeof(*env));
	size_t i, n = 0;

	for (i = 0; i < nf; i++)
		env[n++] = xstrdup(builder_fixed[i]);
	for (i = 0; i < np; i++) {
		const char *v = getenv(builder_pass[i]);

		if (v)
			env[n++] = xasprintf("%s=%s", builder_pass[i], v);
	}
	env[n] = NULL;
	return env;
}

void spawn_env_free(char **env)
{
	size_t i;

	if (!env)
		return;
	for (i = 0; env[i]; i++)
		free(env[i]);
	free(env);
}
