/* lib/numbers.c - option values read as numbers (see numbers.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numbers.h"
#include "lib/util.h"

int cli_parse_ll(const char *s, long long min, long long max,
		 long long *ret, bo_err *err)
{
	const char *digits = *s == '-' ? s + 1 : s;
	long long v;
	char *end;

	if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits))
		return bo_err_set(err, "'%s' is not a whole number", s);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		return bo_err_set(err, "'%s' is out of range (%lld to %lld)", s,
				  min, max);
	*ret = v;
	return 0;
}

int cli_parse_double(const char *s, double min, double max, double *ret,
		     bo_err *err)
{
	double v;
	char *end;

	/* strtod also takes leading space, "inf", "nan" and hexadecimal */
	if (*s == '\0' || !strchr("-.0123456789", *s) ||
	    strspn(s, "-+.0123456789eE") != strlen(s))
		return bo_err_set(err, "'%s' is not a number", s);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return bo_err_set(err, "'%s' is not a number", s);
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return bo_err_set(err, "'%s' is out of range (%g to %g)", s,
				  min, max);
	*ret = v;
	return 0;
}

int cli_parse_run_id(const char *s, int64_t *ret, bo_err *err)
{
	long long v;

	if (cli_parse_ll(s, 1, CLI_RUN_ID_MAX, &v, err) < 0)
		return -1;
	*ret = (int64_t)v;
	return 0;
}

int cli_parse_min_batch_ms(const char *arg, uint64_t *ns, bo_err *err)
{
	double ms;

	/* 1 us to 60 s: the guest's own limits are 1 ns and 60 s */
	if (cli_parse_double(arg, 0.001, 60000, &ms, err) < 0)
		return -1;
	*ns = (uint64_t)(ms * 1e6 + 0.5);
	return 0;
}

int cli_parse_repetitions(const char *arg, unsigned *ret, bo_err *err)
{
	long long v;

	if (cli_parse_ll(arg, 1, 150, &v, err) < 0)
		return -1;
	*ret = (unsigned)v;
	return 0;
}

int cli_parse_max_reruns(const char *arg, unsigned *ret, bo_err *err)
{
	long long v;

	if (cli_parse_ll(arg, 0, 9, &v, err) < 0)
		return -1;
	*ret = (unsigned)v;
	return 0;
}
