/* progress.h - what a run shows while it measures: on a terminal a live
 * line (round, distribution, library, ETA), elsewhere one plain line per
 * finished guest invocation, so that a log or a pipe sees the run move. */
#ifndef BENCHORCH_PROGRESS_H
#define BENCHORCH_PROGRESS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum progress_mode {
	PROGRESS_OFF,		/* --quiet */
	PROGRESS_LINES,		/* one line per finished invocation */
	PROGRESS_LIVE,		/* the same, and a live line redrawn while a
				 * guest runs (a terminal) */
};

struct progress {
	enum progress_mode mode;
	FILE *f;		/* where the lines go (stderr) */
	void (*sink)(void *ctx, const char *line);	/* instead of F when
							 * set (the daemon's
							 * log) */
	void *sink_ctx;
	size_t total, done;	/* guest invocations planned / finished */
	size_t rounds;
	int64_t previous_ns;	/* the previous run's guest time, ns; 0 =
				 * unknown: no ETA */
	uint64_t first_ns;	/* CLOCK_MONOTONIC when the first guest
				 * started; 0 = none yet */
	uint64_t drawn_ns;	/* when the live line was last drawn */
	int live_shown;		/* 1: a live line is on the terminal */
	char spec[128];		/* the running invocation's distribution */
	char library[64];	/* and the library it measures now */
	size_t round;
	const char *stage;	/* NULL: lines name the round ("round 2/8");
				 * else this word instead, and no noisy
				 * count (a duet: "duet") */
};

/* Start P for a run of TOTAL guest invocations in ROUNDS rounds, writing
 * to F: MODE as given; PREVIOUS_NS (ns, 0 = unknown) the guest time of the
 * previous comparable run (progress_previous_ns), for the ETA. */
void progress_init(struct progress *p, enum progress_mode mode, FILE *f,
		   size_t total, size_t rounds, int64_t previous_ns);

/* The mode for a run: PROGRESS_OFF when QUIET, PROGRESS_LIVE when F is a
 * terminal, PROGRESS_LINES otherwise. */
enum progress_mode progress_mode_for(int quiet, FILE *f);

/* The guest of distribution SPEC starts its ROUND (1-based). */
void progress_begin(struct progress *p, const char *spec, size_t round);

/* The running guest reported a result for LIBRARY: redraw the live line
 * (at most every 200 ms). */
void progress_library(struct progress *p, const char *library);

/* The guest of SPEC in ROUND ended after WALL_NS ns (host wall clock),
 * having measured POINTS results of which NOISY stayed noisy, or FAILED.
 * Clears the live line and prints "round 2/8 debian:bookworm: 12.3 s,
 * 55 points, 1 noisy" (or "... failed after 12.3 s"; "... interrupted
 * after 12.3 s" once bo_interrupted is set). With P->stage set, the
 * line begins with the stage instead of the round and counts no noisy
 * points: "duet base bookworm: 12.3 s, 55 points". */
void progress_end(struct progress *p, const char *spec, size_t round,
		  uint64_t wall_ns, size_t points, size_t noisy, int failed);

/* The guest time (sum of the invocations' host wall clock, ns) of the
 * latest finished ('done') run on HOST, other than EXCLUDE_RUN, whose
 * command line is CMDLINE but for its --seed; 0 when there is none or on
 * a database error. */
int64_t progress_previous_ns(sqlite3 *db, const char *host,
			     const char *cmdline, int64_t exclude_run);

/* Format NS as "45 s", "3 min 20 s" or "1 h 05 min" into BUF of LEN
 * bytes. Returns BUF. */
char *progress_fmt_duration(uint64_t ns, char *buf, size_t len);

#endif
