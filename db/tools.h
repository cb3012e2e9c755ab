/* db/tools.h - store the tool mode's measurements (migration 10:
 * tool_results, tool_samples). */
#ifndef BENCHORCH_DB_TOOLS_H
#define BENCHORCH_DB_TOOLS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* One timed invocation of a tool, from wait4's rusage and the guest's
 * CLOCK_MONOTONIC around fork and reap. */
struct db_tool_sample {
	uint64_t user_ns, sys_ns;	/* CPU time in user and kernel mode, ns */
	uint64_t wall_ns;		/* elapsed, ns */
	uint64_t max_rss_kib;		/* peak resident set, KiB */
};

/* One row of tool_results. Strings may be NULL (stored as '' or NULL as
 * the schema says). For status "measured" the summary members are the
 * trimmed means (orchestrator/run/tool-stats.h) and SAMPLES (NSAMPLES) are
 * stored in tool_samples; for "absent" and "failed" both are ignored. */
struct db_tool_row {
	const char *tool, *cipher;
	const char *direction;		/* "encrypt" or "decrypt" */
	const char *variant;		/* "hw" or "nohw" */
	const char *status;		/* "measured", "absent" or "failed" */
	const char *error;		/* why it failed; NULL otherwise */
	const char *tool_version, *package, *package_version;
	const char *hw_features;	/* NULL = unknown */
	uint64_t bytes;			/* input size, bytes */
	size_t nsamples;
	const struct db_tool_sample *samples;
	size_t kept;			/* samples in the means below */
	double cpu_ns, user_ns, sys_ns, wall_ns;	/* ns */
	double max_rss_kib;		/* KiB */
	double mb_per_s;		/* 10^6 bytes per second of wall time */
};

/* Insert ROWS (N) for the invocation INVOCATION_ID, with their samples,
 * inside the caller's transaction. Returns 0, or -1 with err set (a
 * database error, or a row the schema refuses). */
int db_tools_store(sqlite3 *db, int64_t invocation_id,
		   const struct db_tool_row *rows, size_t n, bo_err *err);

#endif
