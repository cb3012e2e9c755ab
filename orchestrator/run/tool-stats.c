/* tool-stats.c - trimmed means of the tool mode's samples (tool-stats.h). */
#include "config.h"

#include <stdlib.h>

#include "orchestrator/run/tool-stats.h"
#include "lib/util.h"

size_t tool_trim_count(size_t n)
{
	size_t k = (n + 10) / 20;	/* round(n * 5 / 100), halves up */

	while (k > 0 && n - 2 * k < 1)
		k--;
	return k;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double tool_trimmed_mean(const uint64_t *v, size_t n)
{
	uint64_t *c;
	size_t k = tool_trim_count(n), i;
	double sum = 0;

	if (n == 0)
		return 0;
	c = xcalloc(n, sizeof(*c));
	for (i = 0; i < n; i++)
		c[i] = v[i];
	qsort(c, n, sizeof(*c), cmp_u64);
	for (i = k; i < n - k; i++)
		sum += (double)c[i];
	free(c);
	return sum / (double)(n - 2 * k);
}

int tool_summarise(const struct db_tool_sample *s, size_t n,
		   struct db_tool_row *row)
{
	uint64_t *v;
	size_t i;

	if (n == 0)
		return -1;
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = s[i].user_ns + s[i].sys_ns;
	row->cpu_ns = tool_trimmed_mean(v, n);
	for (i = 0; i < n; i++)
		v[i] = s[i].user_ns;
	row->user_ns = tool_trimmed_mean(v, n);
	for (i = 0; i < n; i++)
		v[i] = s[i].sys_ns;
	row->sys_ns = tool_trimmed_mean(v, n);
	for (i = 0; i < n; i++)
		v[i] = s[i].wall_ns;
	row->wall_ns = tool_trimmed_mean(v, n);
	for (i = 0; i < n; i++)
		v[i] = s[i].max_rss_kib;
	row->max_rss_kib = tool_trimmed_mean(v, n);
	free(v);
	row->kept = n - 2 * tool_trim_count(n);
	if (row->wall_ns <= 0)
		return -1;
	/* bytes per ns x 10^9 = bytes per s; / 10^6 = MB/s */
	row->mb_per_s = (double)row->bytes * 1e3 / row->wall_ns;
	return 0;
}
