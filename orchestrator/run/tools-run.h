/* tools-run.h - `benchorch run --tools`: the distributions' own
 * command-line encryption tools, timed inside each image. */
#ifndef BENCHORCH_TOOLS_RUN_H
#define BENCHORCH_TOOLS_RUN_H

#include "orchestrator/run/run.h"

/* Default input size (MiB) and repetitions of the tool mode; the guest's
 * defaults (guest/tools.c), passed on explicitly. */
#define TOOLS_DEFAULT_SIZE_MIB 64
#define TOOLS_MAX_SIZE_MIB 1024
#define TOOLS_DEFAULT_REPS 10
#define TOOLS_MAX_REPS 40

/* Do a tool run: pin to one CPU (cpuchoice.h) and record its state,
 * record the run, then for every distribution of C ensure its image and
 * run `benchorch-guest tool` in it (C->tool_size_mib MiB, C->tool_reps
 * repetitions, hw and nohw), check its output (tool-output.h), and store
 * per distribution one invocation with its tool results in one
 * transaction: a case whose every round trip restored the input as
 * 'measured' with its trimmed summary (tool-stats.h) and raw samples,
 * a tool the rootfs lacks as 'absent', anything else as 'failed' without
 * figures. Prints the results (tools-print.h, C->format) on stdout and
 * progress and failures on stderr. Returns EXIT_OK; EXIT_FAILED when a
 * distribution or a measurement failed (an absent tool is no failure);
 * EXIT_ENV (database unusable, no CPU); 128+signal when interrupted (the
 * run is stored 'aborted'). */
int tools_execute(const struct run_config *c);

#endif
