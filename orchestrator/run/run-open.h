/* run-open.h - the start every run shares (run.c, tools-run.c): the CPU
 * the guests are pinned to and its state, the database, a new UUID and
 * the run's row in runs. */
#ifndef BENCHORCH_RUN_OPEN_H
#define BENCHORCH_RUN_OPEN_H

#include <stdint.h>
#include <sqlite3.h>

#include "lib/cpuchoice.h"
#include "lib/cpuinfo.h"
#include "lib/cpustate.h"
#include "orchestrator/run/run.h"

/* How the run is recorded, as its caller measures. */
struct run_open_opts {
	int quick;		/* stored as runs.quick */
	int seeded;		/* 1: SEED is stored as the run's seed */
	uint64_t seed;		/* 0 .. 2^32 - 1, when seeded */
	int probe_hypervisor;	/* 1: ask CPUID for the hypervisor when the
				 * CPU's state says virtualised and names
				 * none (cpustate_cpuid_hypervisor) */
	int say_errno;		/* 1: when no CPU can be chosen, the
				 * message ends with strerror(errno) */
};

/* An opened run: everything run_open made, owned here until
 * run_open_release. */
struct run_open {
	char *sysfs;		/* paths_sysfs(), read again at the run's
				 * end (owned) */
	struct cpuchoice choice;	/* the CPU the guests are pinned to */
	struct cpuinfo ci;	/* /proc/cpuinfo */
	struct cpustate cs;	/* the chosen CPU's state before the run */
	sqlite3 *db;		/* C->db_path, read-write */
	char uuid[64];		/* the run's UUID */
	char host[256];		/* gethostname(2); "" when it has none */
	char started[32];	/* when the run was recorded, ISO 8601 UTC */
	char *cmdline;		/* C->argv joined as stored (owned) */
	int64_t run_id;		/* the run's row in runs */
};

/* Open a run of C: choose the CPU to pin the guests to (cpuchoice.h),
 * read /proc/cpuinfo and that CPU's state (cpustate.h), open the
 * database C->db_path, mark this host's stale runs aborted (a warning on
 * stderr when that fails), draw a UUID and record the run (db_run_begin)
 * with C's command line ("benchorch" and C->argv, an argument with a
 * space, tab or quote in single quotes) and O's settings. Fills *R.
 * Returns EXIT_OK, or EXIT_ENV after one line on stderr saying what
 * failed ("cannot choose a CPU to pin the guests to", the reading's or
 * the database's message, "cannot record the run in 'PATH': MESSAGE");
 * *R is then released already. On success the caller releases *R with
 * run_open_release. */
int run_open(const struct run_config *c, const struct run_open_opts *o,
	     struct run_open *r);

/* Free and close what run_open put in *R (not R itself): the database,
 * the command line, the CPU's state, information and choice, sysfs. */
void run_open_release(struct run_open *r);

#endif
