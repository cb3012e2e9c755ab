/* slurm-time.c - is a time limit one sbatch --time takes: checked before
 * anything is submitted, so that a typo is a usage error here rather
 * than a refusal on the cluster (or a limit sbatch reads otherwise). */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "orchestrator/run/slurm.h"

/* Read up to MAX_DIGITS digits at *P into *V, advancing *P. Returns 0, or
 * -1 when there is no digit or too many. */
static int field(const char **p, long *v, int max_digits)
{
	int n = 0;

	*v = 0;
	while (isdigit((unsigned char)**p)) {
		if (++n > max_digits)
			return -1;
		*v = *v * 10 + (**p - '0');
		(*p)++;
	}
	return n ? 0 : -1;
}

int slurm_time_check(const char *s, bo_err *err)
{
	const char *p = s;
	long f[4];
	int n = 0, days = 0;

	if (!strcmp(s, "INFINITE") || !strcmp(s, "UNLIMITED") ||
	    !strcmp(s, "infinite") || !strcmp(s, "unlimited"))
		return 0;
	if (field(&p, &f[n++], 7) < 0)
		goto bad;
	if (*p == '-') {
		days = 1;
		p++;
		if (field(&p, &f[n++], 2) < 0)
			goto bad;
	}
	while (*p == ':' && n < 4) {
		p++;
		if (field(&p, &f[n++], 2) < 0)
			goto bad;
	}
	if (*p)
		goto bad;
	/* MM, MM:SS, HH:MM:SS; D-HH, D-HH:MM, D-HH:MM:SS */
	if ((!days && n > 3) || (days && (n < 2 || f[1] > 23)))
		goto bad;
	if (n >= 2 && f[n - 1] > 59 && !(days && n == 2))
		goto bad;
	if (n >= 3 && f[n - 2] > 59 && !(days && n == 3))
		goto bad;
	if (!days && n == 3 && f[0] > 99999)
		goto bad;
	return 0;
bad:
	return bo_err_set(err, "'%s' is not a Slurm time limit (MINUTES, "
			  "MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, "
			  "DAYS-HOURS:MINUTES, DAYS-HOURS:MINUTES:SECONDS or "
			  "UNLIMITED)", s);
}
