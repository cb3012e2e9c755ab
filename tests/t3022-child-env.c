/* t3022-child-env - what benchorch hands to the programs it starts: the
 * guest's fixed environment, the builders' allowlist (proxies and TMPDIR
 * pass, anything that steers a library, the loader, apt or gpg does not),
 * a child started with either sees exactly that, the nspawn machine name
 * per image, and the guest's per-library limit derived from --timeout. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/run/run.h"
#include "orchestrator/run/runner.h"
#include "lib/spawn.h"
#include "lib/util.h"
#include "tests/tap.h"

/* 1 when the NULL-terminated ENV has an entry starting with PREFIX. */
static int has(const char *const *env, const char *prefix)
{
	size_t i;

	for (i = 0; env[i]; i++)
		if (strncmp(env[i], prefix, strlen(prefix)) == 0)
			return 1;
	return 0;
}

static size_t count(const char *const *env)
{
	size_t n = 0;

	while (env[n])
		n++;
	return n;
}

/* The environment a child started with ENV prints (env(1)), one line per
 * variable, appended to *text. */
struct lines {
	char *text;
};

static int on_line(void *ctx, const char *line, size_t len, int truncated)
{
	struct lines *l = ctx;
	char *t = xasprintf("%s%.*s\n", l->text ? l->text : "", (int)len, line);

	(void)truncated;
	free(l->text);
	l->text = t;
	return 0;
}

static char *child_env(const char *const *env)
{
	const char *argv[] = { "env", NULL };
	struct lines l = { NULL };
	struct spawn_opts o = {
		.argv = argv, .cpu = -1, .on_line = on_line, .line_ctx = &l,
		.log_fd = -1, .envp = env,
	};
	struct spawn_result res;
	bo_err err;

	if (spawn_run(&o, &res, &err) < 0 || res.status != SPAWN_EXITED ||
	    res.exit_code != 0) {
		free(l.text);
		return NULL;
	}
	return l.text ? l.text : xstrdup("");
}

int main(void)
{
	static const char *const poison[] = {
		"OPENSSL_ia32cap=~0x200000200000000", "LD_PRELOAD=/nonexistent.so",
		"LD_LIBRARY_PATH=/nonexistent", "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2",
		"NETTLE_FAT_OVERRIDE=none", "GNUTLS_CPUID_OVERRIDE=0x1",
		"BOTAN_CLEAR_CPUID=aes_ni", "LIBGCRYPT_FORCE_FIPS_MODE=1",
		"MALLOC_PERTURB_=165", "APT_CONFIG=/nonexistent",
		"GNUPGHOME=/nonexistent", "CURL_HOME=/nonexistent",
		"http_proxy=http://proxy.invalid:3128", "NO_PROXY=localhost",
		"TMPDIR=/var/tmp", NULL,
	};
	const char *const *g;
	char **b, *text, name[80];
	size_t i;

	for (i = 0; poison[i]; i++)
		putenv((char *)poison[i]);

	g = spawn_env_guest();
	tap_ok(count(g) == 2 && strcmp(g[0], "PATH=/usr/sbin:/usr/bin:/sbin:/bin") == 0 &&
	       strcmp(g[1], "LC_ALL=C") == 0,
	       "the guest's environment is PATH and LC_ALL=C, nothing else");
	text = child_env(g);
	tap_ok(text && strcmp(text, "PATH=/usr/sbin:/usr/bin:/sbin:/bin\nLC_ALL=C\n") == 0,
	       "a child started with it sees exactly that, whatever the caller exported: %s",
	       text ? text : "(could not run env)");
	free(text);

	b = spawn_env_builder();
	tap_ok(has((const char *const *)b, "http_proxy=http://proxy.invalid:3128") &&
	       has((const char *const *)b, "NO_PROXY=localhost") &&
	       has((const char *const *)b, "TMPDIR=/var/tmp") &&
	       has((const char *const *)b, "DEBIAN_FRONTEND=noninteractive") &&
	       has((const char *const *)b, "LC_ALL=C") &&
	       has((const char *const *)b, "PATH=/usr/local/sbin:"),
	       "the builders get PATH, LC_ALL, DEBIAN_FRONTEND, the caller's proxies and TMPDIR");
	tap_ok(!has((const char *const *)b, "APT_CONFIG") &&
	       !has((const char *const *)b, "GNUPGHOME") &&
	       !has((const char *const *)b, "CURL_HOME") &&
	       !has((const char *const *)b, "LD_") &&
	       !has((const char *const *)b, "GLIBC_") &&
	       !has((const char *const *)b, "OPENSSL_") &&
	       !has((const char *const *)b, "MALLOC_") &&
	       count((const char *const *)b) == 6,
	       "and nothing else (no APT_CONFIG, GNUPGHOME, CURL_HOME, LD_*, ...)");
	text = child_env((const char *const *)b);
	tap_ok(text && !strstr(text, "APT_CONFIG") && !strstr(text, "LD_PRELOAD") &&
	       strstr(text, "http_proxy=http://proxy.invalid:3128\n"),
	       "a builder started with it sees just that");
	free(text);
	spawn_env_free(b);

	tap_ok(strcmp(runner_machine_name("debian-bookworm", name, sizeof(name)),
		      "benchorch-debian-bookworm") == 0,
	       "machine name of debian-bookworm: %s", name);
	tap_ok(strcmp(runner_machine_name("my_distro.v2", name, sizeof(name)),
		      "benchorch-my-distro-v2") == 0,
	       "other characters become '-': %s", name);
	runner_machine_name("a-very-long-image-name-that-goes-on-and-on-and-on-for-ever-and-ever",
			    name, sizeof(name));
	tap_ok(strlen(name) <= 64 && strncmp(name, "benchorch-a-very-long", 21) == 0,
	       "at most 64 characters: %s (%zu)", name, strlen(name));
	runner_machine_name("x", name, 8);
	tap_ok(strcmp(name, "benchor") == 0, "cut to the buffer: %s", name);

	tap_ok(run_lib_timeout_s(1800) == 900 && run_lib_timeout_s(20) == 10 &&
	       run_lib_timeout_s(3) == 1 && run_lib_timeout_s(1) == 1 &&
	       run_lib_timeout_s(100000) == RUN_LIB_TIMEOUT_MAX_S &&
	       run_lib_timeout_s(0) == RUN_LIB_TIMEOUT_MAX_S,
	       "the guest's per-library limit: half of --timeout, 1 s to 900 s (900 s without one)");
	return tap_done();
}
