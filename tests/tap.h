/* tap.h - a minimal TAP producer for the C unit tests (Test Anything
 * Protocol, read by automake's tap-driver.sh). Each test program prints
 * "ok N - ..." / "not ok N - ..." lines and the plan last, and exits 1
 * when a test point failed. */
#ifndef BENCHORCH_TAP_H
#define BENCHORCH_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failures;

__attribute__((format(printf, 2, 3), unused))
static int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond)
		tap_failures++;
	return cond;
}

__attribute__((format(printf, 1, 2), unused))
static void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

__attribute__((format(printf, 2, 3), unused))
static void tap_skip(int n, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (i = 0; i < n; i++)
		printf("ok %d # SKIP %s\n", ++tap_count, why);
	fflush(stdout);
}

/* 1 when haystack contains needle (both may be NULL). */
__attribute__((unused))
static int tap_contains(const char *haystack, const char *needle)
{
	return haystack && needle && strstr(haystack, needle) != NULL;
}

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

/* Directory of the source tree (for fixtures): $top_srcdir when set by the
 * test harness, else the one configure saw. */
__attribute__((unused))
static const char *tap_srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s && *s ? s : BENCHORCH_SRCDIR;
}

/* The root filesystem of the integration tests' cached Debian image:
 * $BENCHORCH_TEST_ROOTFS when set, else
 * ${BENCHORCH_TEST_STATE:-/var/cache/benchorch-test}/images/debian-bookworm/rootfs
 * (the state directory of tests/lib.sh, whose require_test_image builds
 * it). Returns a malloc'd path the caller frees. */
__attribute__((unused))
static char *tap_test_rootfs(void)
{
	const char *r = getenv("BENCHORCH_TEST_ROOTFS");
	const char *state = getenv("BENCHORCH_TEST_STATE");
	size_t n;
	char *p;

	if (r && *r) {
		p = malloc(strlen(r) + 1);
		if (p)
			strcpy(p, r);
	} else {
		if (!state || !*state)
			state = "/var/cache/benchorch-test";
		n = strlen(state) + sizeof("/images/debian-bookworm/rootfs");
		p = malloc(n);
		if (p)
			snprintf(p, n, "%s/images/debian-bookworm/rootfs", state);
	}
	if (!p)
		abort();
	return p;
}

#endif
