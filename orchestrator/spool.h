/* spool.h - keep a guest invocation's output on disk instead of in
 * memory: each accepted line goes to an unlinked temporary file while it
 * is parsed (runner_opts.spool), the parsed output can be dropped and
 * parsed again from the file later. A run (run.c) no longer needs the
 * file: it stores every invocation as soon as it ends, then drops its
 * output with spool_shrink, so its memory does not grow with the number
 * of results and no temporary file can fill /tmp.
 */
#ifndef BENCHORCH_SPOOL_H
#define BENCHORCH_SPOOL_H

#include <stdint.h>
#include <stdio.h>

#include "orchestrator/guest_output.h"
#include "orchestrator/util.h"

/* A new spool: an anonymous temporary file (tmpfile(3): $TMPDIR is not
 * consulted, /tmp is used), removed when closed. Returns it, or NULL with
 * err set. Close with fclose. */
FILE *spool_open(bo_err *err);

/* Append LINE (LEN bytes, no newline) and a newline to SPOOL. Returns 0,
 * or -1 with err set (disk full, ...). */
int spool_add(FILE *spool, const char *line, size_t len, bo_err *err);

/* Release what OUT holds but the figures a run reads after its
 * invocations (the clocks measured at start and end, the host's elapsed
 * time), so that OUT costs no memory per result; spool_load gives it
 * back. */
void spool_shrink(struct guest_output *out);

/* Parse SPOOL again from its start into OUT (initialised here; release
 * with guest_output_release), validated as the first time
 * (guest_output_add_line, guest_output_finish), with HOST_ELAPSED_NS the
 * host's time the first reading measured. Returns 0, or -1 with err set
 * (OUT released). */
int spool_load(FILE *spool, int64_t host_elapsed_ns, struct guest_output *out,
	       bo_err *err);

#endif
