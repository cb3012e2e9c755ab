/* tool-stats.h - the tool mode's trimmed summary of repeated timings. */
#ifndef BENCHORCH_TOOL_STATS_H
#define BENCHORCH_TOOL_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "db/tools.h"

/* How many samples of N the trimmed mean drops at each end: the fastest
 * and the slowest 5 %, as in the study the tool mode follows (120 runs,
 * 6 dropped at each end), rounded to the nearest whole sample, halves up
 * (round(N / 20): 0 for N < 10, 1 for N = 10 .. 29, 6 for 120), and never
 * so many that nothing is left. */
size_t tool_trim_count(size_t n);

/* The trimmed mean of the N values of V (N > 0): sorted, tool_trim_count(N)
 * dropped at each end, the rest averaged. V is not changed; a copy is
 * sorted (allocated and freed here). */
double tool_trimmed_mean(const uint64_t *v, size_t n);

/* Fill the summary members of *ROW (kept, cpu_ns = user + sys, user_ns,
 * sys_ns, wall_ns in ns, max_rss_kib in KiB and mb_per_s = ROW->bytes /
 * wall_ns in 10^6 bytes per second) from its N > 0 samples S, each
 * figure its own trimmed mean (tool_trimmed_mean). Returns 0, or -1 when
 * N is 0 or the trimmed wall time is 0. */
int tool_summarise(const struct db_tool_sample *s, size_t n,
		   struct db_tool_row *row);

#endif
