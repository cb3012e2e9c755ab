/* run.h - one benchmark run over a list of distributions: the work behind
 * `benchorch run`, kept apart from option parsing so the daemon can share
 * it. */
#ifndef BENCHORCH_RUN_H
#define BENCHORCH_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "lib/format.h"
#include "orchestrator/run/runner.h"

/* Where a run stands, passed to run_config.on_progress: once when the run is
 * recorded (done = 0, spec = NULL), before each guest invocation (spec
 * and round set) and once at the end (spec = NULL; done = total unless
 * interrupted). Strings are only valid during the call. */
struct run_progress {
	int64_t run_id;		/* row in runs */
	const char *uuid;
	size_t done, total;	/* guest invocations finished (or skipped
				 * after their distribution failed) / planned:
				 * rounds x distributions */
	const char *spec;	/* the distribution starting now, or NULL */
	size_t round, rounds;	/* its round (1-based; 0 with no spec) and
				 * the number of rounds */
};

struct run_config {
	const char *distros;	/* as given, comma-separated */
	char **specs;		/* split and checked; owned */
	size_t nspecs;
	char *state_dir, *db_path, *data_dir, *guest;	/* owned */
	enum runner_kind kind;
	int quick, refresh;
	const char *libs;	/* guest --libs list; NULL = every library */
	const char *builds;	/* --builds: "shipped" and the names of
				 * builds (images/builds.h), comma-separated,
				 * checked (run_builds_check); NULL = none */
	const char *algos;	/* guest --algos list; NULL = every algorithm */
	int nohw;		/* 1: mask hardware acceleration (guest --nohw),
				 * stored as variant 'nohw' */
	int sequential;		/* 1: the libraries one after the other
				 * (--sequential: guest without
				 * --interleave), a contention canary per
				 * curve; 0 (the default): the libraries
				 * of a point take turns (guest
				 * --interleave), pairs stored */
	/* The guest's timing, passed on as given; 0 or NULL = the guest's
	 * default (guest/PROTOCOL.md): */
	uint64_t min_batch_ns;	/* --min-batch-ns: shortest timed batch, ns */
	unsigned repetitions;	/* --repetitions: samples per measurement */
	char max_cv[16];	/* --max-cv: a fraction 0..1 in plain decimal;
				 * "" = the guest's default */
	int max_reruns_set;	/* 1: --max-reruns given */
	unsigned max_reruns;	/* --max-reruns, when max_reruns_set */
	int seed_set;		/* 1: seed below orders the run (--seed); 0: a
				 * random seed is drawn */
	uint64_t seed;		/* 0 .. 2^32 - 1 */
	int no_confirm;		/* 1: --no-confirm: no confirmation after
				 * the run (run_and_confirm) */
	int tools;		/* 1: the tool mode (tools-run.h), not the
				 * libraries */
	unsigned tool_size_mib;	/* its input, MiB (--tool-size) */
	unsigned tool_reps;	/* its repetitions (--tool-reps) */
	const char *mirror;	/* NULL = recipe default */
	long timeout_s;		/* per guest invocation, seconds */
	enum format format;	/* of the summary on stdout */
	int argc;		/* command line, recorded with the run */
	char **argv;
	int no_summary;		/* 1: print no summary on stdout and no
				 * package changes on stderr (daemon) */
	int quiet;		/* 1: no progress lines on stderr (--quiet) */
	/* Where the progress lines go instead of stderr (one line each,
	 * without newline; the daemon's log); NULL = stderr. */
	void (*progress_sink)(void *ctx, const char *line);
	void *progress_sink_ctx;
	/* A confirmation run (confirm.h): with interleave_rounds > 0 the
	 * plan is plan_make_interleaved's (plan-interleave.h) with that many
	 * rounds, interleave_group[i] the group of specs[i] (owned by the
	 * caller), instead of plan_make's. */
	size_t interleave_rounds;
	const size_t *interleave_group;
	/* Per spec (owned by the caller; NULL, or a NULL entry = as for any
	 * run): the guest's --libs instead of libs, and its --algos instead
	 * of the round's, so that a confirmation measures each library only
	 * with the algorithms asked of it. */
	const char *const *spec_libs;
	const char *const *spec_algos;
	void (*on_progress)(void *ctx, const struct run_progress *p);
	void *progress_ctx;	/* NULL on_progress = no callback */
};

/* Free what parse/check allocated in c (not c itself). */
void run_config_release(struct run_config *c);

/* Do the run: pin the guests to one CPU (cpuchoice.h, the choice and its
 * reason stored with the run, busy siblings warned about) and read its
 * state (cpustate.h), open the database, record the run with its seed
 * (c->seed, or a random one) and that state, ensure every spec's image,
 * then run the plan (plan.h): PLAN_ROUNDS rounds, in each every
 * distribution's guest measuring one group of algorithms, the
 * distributions shuffled per round, each invocation stored as soon as it
 * ends, in a transaction of its own (db_run_store_invocation); read the
 * CPU's frequency again, record the package versions that changed since
 * the previous run of each distribution and the run's status
 * (db_run_finish), print the summary
 * on stdout and those changes on stderr (unless c->no_summary) and the
 * seed and CPU state on stderr, calling c->on_progress as it goes.
 * Warnings on stderr (and cpu_warnings on the run) when the governor is
 * not performance, the scaling frequency moved by more than
 * CPUSTATE_FREQ_TOLERANCE_PCT, or the core clock the guests measured
 * spread by more than that. A distribution whose image or guest fails
 * is reported on stderr and left out of the later rounds; the others go
 * on. A run in which no guest measured anything is stored as failed.
 * A library that could not be loaded, crashed or hung in a guest that
 * ran to its end is reported on stderr (distribution, library, what
 * happened); the invocation is stored partial with the other libraries'
 * results. A store that fails (a full disk) stops the run at once: no
 * further invocation, one line on stderr naming the database and the
 * reason, the invocations stored before kept, the run marked 'failed'
 * with that reason (one UPDATE, no package changes), EXIT_ENV.
 * Returns an exit status: EXIT_OK, EXIT_FAILED (some distro or
 * library failed, or nothing was measured),
 * EXIT_ENV (database unusable or full, no CPU to pin to) or 128+signal when
 * interrupted (the run is then stored as 'aborted'). */
int run_execute(const struct run_config *c);

/* The guest's own limit per library (its --lib-timeout), in seconds,
 * derived from the run's --timeout per invocation TIMEOUT_S (seconds):
 * half of it, at least 1 and at most RUN_LIB_TIMEOUT_MAX_S (the guest's
 * default; also when TIMEOUT_S is 0, no limit), so that a library that hangs is killed and recorded alone,
 * with time left for the others, before the invocation's own limit. */
#define RUN_LIB_TIMEOUT_MAX_S 900
long run_lib_timeout_s(long timeout_s);

#endif
