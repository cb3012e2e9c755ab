/* tap.h - a minimal TAP producer for the C unit tests (Test Anything
 * Protocol, read by automake's tap-driver.sh). */
#ifndef BENCHORCH_TAP_H
#define BENCHORCH_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

/* Report one test point: "ok N - NAME" when cond is true, else "not ok". */
static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

/* Print a diagnostic line. */
#define tap_diag(...) (printf("# "), printf(__VA_ARGS__), printf("\n"))

/* Print the plan (at the end) and return the exit status. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
