/* t0005-guest-faults - the orchestrator's side of library faults: a
 * `library` line with status `failed` and the loader's message is
 * accepted and kept (and one without a message, or with an unknown status,
 * is refused), and guest_output_faults lists each failed library once:
 * loads that failed, and error lines saying that a library's process
 * crashed, hung or ended early, or that the library wrote to stdout
 * (guest/PROTOCOL.md, "Crash isolation"), but not other errors. A library
 * whose process ended before it reported itself is reported `failed` by
 * the guest's parent, with the error line and done's rusage naming it:
 * accepted, one fault; a rusage entry naming a library that only an
 * error line named is still refused. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/guest_output.h"
#include "lib/util.h"
#include "tests/tap.h"

static const char *const good[] = {
	"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}",
	"{\"type\":\"library\",\"library\":\"libsodium\",\"status\":\"failed\",\"message\":\"cannot load libsodium.so.23: libdep.so.1: cannot open shared object file: No such file or directory\"}",
	"{\"type\":\"error\",\"library\":\"libsodium\",\"algorithm\":\"\",\"message\":\"cannot load libsodium.so.23: libdep.so.1: cannot open shared object file: No such file or directory\"}",
	"{\"type\":\"library\",\"library\":\"wolfssl\",\"status\":\"absent\"}",
	"{\"type\":\"library\",\"library\":\"libmcrypt\",\"status\":\"loaded\",\"soname\":\"libmcrypt.so.4\",\"path\":\"/usr/lib/libmcrypt.so.4\",\"version\":\"2.5.8\",\"build_id\":\"\"}",
	"{\"type\":\"error\",\"library\":\"libmcrypt\",\"algorithm\":\"aes-128-cbc\",\"message\":\"round trip on a 16-byte buffer failed\"}",
	"{\"type\":\"error\",\"library\":\"libmcrypt\",\"algorithm\":\"aes-128-cbc\",\"message\":\"library crashed: killed by signal 11 (Segmentation fault) during aes-128-cbc\"}",
	"{\"type\":\"library\",\"library\":\"nettle\",\"status\":\"loaded\",\"soname\":\"libnettle.so.8\",\"path\":\"/usr/lib/libnettle.so.8\",\"version\":\"3.8\",\"build_id\":\"\"}",
	"{\"type\":\"error\",\"library\":\"nettle\",\"algorithm\":\"aes-128-cbc\",\"message\":\"cross-check: encryption failed\"}",
	"{\"type\":\"library\",\"library\":\"libtomcrypt\",\"status\":\"loaded\",\"soname\":\"libtomcrypt.so.1\",\"path\":\"/usr/lib/libtomcrypt.so.1\",\"version\":\"1.18\",\"build_id\":\"\"}",
	"{\"type\":\"error\",\"library\":\"libtomcrypt\",\"algorithm\":\"\",\"message\":\"library hung: killed after 10 s\"}",
	"{\"type\":\"error\",\"library\":\"libtomcrypt\",\"algorithm\":\"\",\"message\":\"library process ended abnormally (status 256)\"}",
	NULL,
};

/* A library that crashed in its version call, before its library line
 * (what the guest's parent prints for it), one that wrote to stdout,
 * and Nettle measured; then done with every child's rusage. */
static const char *const early[] = {
	"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}",
	"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"failed\",\"message\":\"library crashed: killed by signal 11 (Segmentation fault) while loading\"}",
	"{\"type\":\"error\",\"library\":\"openssl\",\"algorithm\":\"\",\"message\":\"library crashed: killed by signal 11 (Segmentation fault) while loading\"}",
	"{\"type\":\"library\",\"library\":\"libmcrypt\",\"status\":\"loaded\",\"soname\":\"libmcrypt.so.4\",\"path\":\"/usr/lib/libmcrypt.so.4\",\"version\":\"2.5.8\",\"build_id\":\"\"}",
	"{\"type\":\"error\",\"library\":\"libmcrypt\",\"algorithm\":\"\",\"message\":\"library wrote to stdout: 9 bytes, starting \\\"garbage??\\\"\"}",
	"{\"type\":\"library\",\"library\":\"nettle\",\"status\":\"loaded\",\"soname\":\"libnettle.so.8\",\"path\":\"/usr/lib/libnettle.so.8\",\"version\":\"3.8\",\"build_id\":\"\"}",
	"{\"type\":\"done\",\"results\":0,\"measure_ns\":0,\"elapsed_ns\":1000,\"clock_hz\":3000000000,\"clock_source\":\"tsc\",\"tsc_hz\":0,\"rusage\":[{\"library\":\"openssl\",\"user_us\":1,\"sys_us\":1,\"maxrss_kib\":1000},{\"library\":\"libmcrypt\",\"user_us\":1,\"sys_us\":1,\"maxrss_kib\":1000},{\"library\":\"nettle\",\"user_us\":1,\"sys_us\":1,\"maxrss_kib\":1000}]}",
	NULL,
};

/* Feed LINES to a fresh *OUT; returns the first failure, or
 * guest_output_finish's result. */
static int feed(struct guest_output *out, const char *const *lines,
		bo_err *err)
{
	size_t i;
	int rc = 0;

	guest_output_init(out);
	for (i = 0; lines[i] && rc == 0; i++)
		rc = guest_output_add_line(out, lines[i], strlen(lines[i]),
					   i + 1, err);
	return rc < 0 ? rc : guest_output_finish(out, err);
}

/* Feed one line to a fresh output after hello; returns add_line's
 * result. */
static int one(const char *line, bo_err *err)
{
	struct guest_output out;
	int rc;

	guest_output_init(&out);
	rc = guest_output_add_line(&out, good[0], strlen(good[0]), 1, err);
	if (rc == 0)
		rc = guest_output_add_line(&out, line, strlen(line), 2, err);
	guest_output_release(&out);
	return rc;
}

int main(void)
{
	struct guest_output out;
	struct guest_fault *f = NULL;
	bo_err err;
	size_t i, n;
	int rc = 0;

	guest_output_init(&out);
	for (i = 0; good[i] && rc == 0; i++)
		rc = guest_output_add_line(&out, good[i], strlen(good[i]),
					   i + 1, &err);
	tap_ok(rc == 0, "a failed load, an absent library, crashes and hangs are valid output%s%s",
	       rc ? ": " : "", rc ? err.msg : "");
	tap_ok(out.nlibraries == 5 && out.libraries[0].failed &&
	       !out.libraries[0].loaded && out.libraries[0].message &&
	       strstr(out.libraries[0].message, "libdep.so.1: cannot open") &&
	       !out.libraries[1].failed && !out.libraries[1].loaded &&
	       !out.libraries[1].message,
	       "failed keeps the loader's message; absent has none");
	n = guest_output_faults(&out, &f);
	tap_ok(n == 3 && strcmp(f[0].library, "libsodium") == 0 &&
	       strncmp(f[0].what, "cannot load libsodium.so.23", 27) == 0 &&
	       strcmp(f[1].library, "libmcrypt") == 0 &&
	       strncmp(f[1].what, "library crashed: killed by signal 11", 36) == 0 &&
	       strcmp(f[2].library, "libtomcrypt") == 0 &&
	       strcmp(f[2].what, "library hung: killed after 10 s") == 0,
	       "faults: libsodium (load), libmcrypt (crash), libtomcrypt (hang, once), not nettle's other error (%zu)",
	       n);
	free(f);
	guest_output_release(&out);

	rc = one("{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"failed\"}", &err);
	tap_ok(rc < 0 && tap_contains(err.msg, "'message' must be a string"),
	       "failed without a message is refused: %s", rc < 0 ? err.msg : "accepted");
	rc = one("{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"failed\",\"message\":\"\"}", &err);
	tap_ok(rc < 0 && tap_contains(err.msg, "'message' must not be empty"),
	       "failed with an empty message is refused: %s", rc < 0 ? err.msg : "accepted");
	rc = one("{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"broken\"}", &err);
	tap_ok(rc < 0 && tap_contains(err.msg, "'status' must be loaded, absent or failed"),
	       "an unknown status is refused: %s", rc < 0 ? err.msg : "accepted");

	rc = feed(&out, early, &err);
	tap_ok(rc == 0, "a library that failed before it reported itself (its failed line printed for it) and one that wrote to stdout are valid output%s%s",
	       rc ? ": " : "", rc ? err.msg : "");
	n = guest_output_faults(&out, &f);
	tap_ok(n == 2 && strcmp(f[0].library, "openssl") == 0 &&
	       strcmp(f[0].what, "library crashed: killed by signal 11 (Segmentation fault) while loading") == 0 &&
	       strcmp(f[1].library, "libmcrypt") == 0 &&
	       strncmp(f[1].what, "library wrote to stdout: 9 bytes", 32) == 0,
	       "faults: openssl's crash while loading (once), libmcrypt's writing to stdout; not nettle (%zu)",
	       n);
	free(f);
	guest_output_release(&out);
	{
		/* the same without the failed line: the error alone, and a
		 * rusage entry naming a library never reported */
		const char *const bad[] = { early[0], early[2], early[3],
					    early[5], early[6], NULL };

		rc = feed(&out, bad, &err);
		tap_ok(rc < 0 && tap_contains(err.msg, "'rusage' names library 'openssl' that was not reported"),
		       "a rusage entry for a library only an error line named is refused: %s",
		       rc < 0 ? err.msg : "accepted");
		guest_output_release(&out);
	}
	{
		/* the parent's failed line after the child's own */
		const char *const twice[] = { early[0], early[3], early[4],
			"{\"type\":\"library\",\"library\":\"libmcrypt\",\"status\":\"failed\",\"message\":\"library crashed: killed by signal 11 (Segmentation fault) while loading\"}",
			NULL };

		rc = feed(&out, twice, &err);
		tap_ok(rc < 0 && tap_contains(err.msg, "library 'libmcrypt' reported twice"),
		       "a library reported loaded and then failed is refused: %s",
		       rc < 0 ? err.msg : "accepted");
		guest_output_release(&out);
	}

	guest_output_init(&out);
	n = guest_output_faults(&out, &f);
	tap_ok(n == 0 && f == NULL, "no output, no faults");
	guest_output_release(&out);
	return tap_done();
}
