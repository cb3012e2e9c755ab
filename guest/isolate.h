/* guest/isolate.h - one library in a child process of its own, so that a
 * library that fails at any moment costs only itself (guest/PROTOCOL.md,
 * "Crash isolation").
 *
 * The child loads the library and runs every algorithm (run_library),
 * writing its protocol lines to a copy of stdout; its descriptor 1 is a
 * pipe the parent drains, so that what the library itself writes to
 * stdout never reaches the orchestrator. The parent waits at most
 * --lib-timeout seconds (then SIGKILL) and reports how the child ended.
 */
#ifndef GUEST_ISOLATE_H
#define GUEST_ISOLATE_H

#include "backend.h"
#include "measure.h"

/* The exit status of a library's child process that got through its
 * list and returned from main's path (exit(3), so that the library's
 * own exit handlers and destructors run and can be caught failing). Any
 * other end, _exit(0) by the library included, is a fault. */
#define ISOLATE_DONE_STATUS 64

/* Run library B in a child process (run->counts shared with it) and
 * print, in the parent, what PROTOCOL.md says for an early end: an
 * `error` line (`library crashed`, `library hung`, `library process
 * ended`, `library wrote to stdout`), preceded by a `library` line with
 * status `failed` and the same message when the child ended before it
 * printed its own. Records the child's rusage in run->rusage. Falls back
 * to run_library() in this process when fork() fails. Exits with status 1
 * when the child could not write stdout (check_emit). */
void isolate_run_library(struct run *run, const struct guest_backend *b);

#endif /* GUEST_ISOLATE_H */
