/* runstate.h - a stored run's seed and CPU state (migration 4), read back
 * for people: `results` and `report` show it next to the run's CPU. */
#ifndef BENCHORCH_RUNSTATE_H
#define BENCHORCH_RUNSTATE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/cpustate.h"
#include "lib/util.h"

struct run_state {
	int64_t run_id;
	char *cpu_model;	/* cpus.model_name, "" if none */
	int recorded;		/* 1: the run has a seed or CPU state (runs
				 * from before migration 4, or a database
				 * older than it, have none) */
	int seeded;		/* 1: seed is known */
	uint64_t seed;
	struct cpustate state;	/* cpu = runs.pinned_cpu (-1 unknown),
				 * freq_khz = freq_before_khz; cpufreq -1 */
	int64_t freq_after_khz;	/* kHz, -1 unknown */
	char *warnings;		/* runs.cpu_warnings, one per line, or NULL */
	size_t rounds;		/* highest round of its invocations, 0 none */
};

/* Read run RUN_ID's state from DB (any schema version benchorch can read:
 * an older one has no state, recorded = 0). Returns 0 and fills *ret
 * (release with run_state_release), or -1 with err set (database error,
 * no such run). */
int run_state_read(sqlite3 *db, int64_t run_id, struct run_state *ret,
		   bo_err *err);

/* Free what s owns. */
void run_state_release(struct run_state *s);

/* One line for people: "run 3: Intel(R) Xeon(R) CPU @ 2.20GHz; cpu 1:
 * governor performance, boost on, scaling frequency 2200 -> 2200 MHz,
 * hypervisor KVMKVMKVM; seed 42, 8 rounds", ending in "; numbers may
 * have drifted" when the run has warnings; "run 3: MODEL; CPU state not
 * recorded" for a run without. Newly allocated; caller frees. */
char *run_state_describe(const struct run_state *s);

/* The CPU part of the line alone ("cpu 1: governor ...") or "not
 * recorded". Newly allocated; caller frees. */
char *run_state_cpu(const struct run_state *s);

/* "run N is stored as STATUS (ERROR)" (without the parenthesis when
 * ERROR is NULL), for the messages about a run that did not finish
 * normally. Newly allocated; caller frees. */
char *cli_stored_as(int64_t run_id, const char *status, const char *error);

/* Warn on stderr when run RUN_ID of DB did not finish normally (stored
 * as aborted or failed, or still running): "warning: run N is stored as
 * aborted (ERROR): its results are partial". Prints nothing for a run
 * that finished ('done'), is not there, or on a database error. */
void cli_warn_partial_run(sqlite3 *db, int64_t run_id);

#endif
