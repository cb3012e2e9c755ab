/* run.h - one benchmark run over a list of distributions: the work behind
 * `benchorch run`, kept apart from option parsing so the daemon can share
 * it. */
#ifndef BENCHORCH_RUN_H
#define BENCHORCH_RUN_H

#include <stddef.h>

#include "orchestrator/format.h"
#include "orchestrator/runner.h"

struct run_config {
	const char *distros;	/* as given, comma-separated */
	char **specs;		/* split and checked; owned */
	size_t nspecs;
	char *state_dir, *db_path, *data_dir, *guest;	/* owned */
	enum runner_kind kind;
	int quick, refresh;
	const char *libs;	/* guest --libs list; NULL = every library */
	const char *algos;	/* guest --algos list; NULL = every algorithm */
	int nohw;		/* 1: mask hardware acceleration (guest --nohw),
				 * stored as variant 'nohw' */
	const char *mirror;	/* NULL = recipe default */
	long timeout_s;		/* per guest invocation, seconds */
	enum format format;	/* of the summary on stdout */
	int argc;		/* command line, recorded with the run */
	char **argv;
};

/* Free what parse/check allocated in c (not c itself). */
void run_config_release(struct run_config *c);

/* Do the run: open the database, record the run, for each spec ensure the
 * image and run the guest, store everything in one transaction, print the
 * summary on stdout. Per-distro failures are reported on stderr and the
 * others go on. Returns an exit status: EXIT_OK, EXIT_FAILED (some distro
 * failed), EXIT_ENV (database unusable) or 128+signal when interrupted (the
 * run is then stored as 'aborted'). */
int run_execute(const struct run_config *c);

#endif
