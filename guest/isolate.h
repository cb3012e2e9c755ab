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

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "backend.h"
#include "measure.h"

/* The exit status of a library's child process that got through its
 * list and returned from main's path (exit(3), so that the library's
 * own exit handlers and destructors run and can be caught failing). Any
 * other end, _exit(0) by the library included, is a fault. */
#define ISOLATE_DONE_STATUS 64

/* How many bytes of what a library wrote to stdout are quoted. */
#define STRAY_QUOTE 40

/* What a library wrote to its descriptor 1: the read end of the pipe
 * (-1 once at its end, or when there is none), the bytes read and the
 * first of them, printable. */
struct isolate_stray {
	int fd;
	size_t bytes;
	char head[STRAY_QUOTE + 1];
	size_t nhead;
};

/* How a library's child process ended, as the parent saw it. */
struct isolate_end {
	bool reaped;		/* wait4 returned it */
	bool killed;		/* the parent killed it at --lib-timeout */
	int status;		/* wait4's status, when reaped */
};

/* Read what S's pipe holds, waiting at most TIMEOUT_MS ms for the first
 * byte (just the wait when there is no pipe). Closes the pipe at its
 * end. */
void isolate_stray_drain(struct isolate_stray *s, int timeout_ms);

/* Wait for the library's child PID, draining S, at most --lib-timeout
 * seconds (then SIGKILL, and wait on); how it ended into *E, its
 * rusage into *RU. Closes S's pipe. */
void isolate_wait(const struct run *run, pid_t pid, struct isolate_stray *s,
		  struct isolate_end *e, struct rusage *ru);

/* Print what the parent says of library B's child process, whose shared
 * counts are C: its end E and what it wrote to stdout, S - the lines
 * isolate_run_library() documents; nothing when it ended as it should
 * (exit status ISOLATE_DONE_STATUS with c->finished) and wrote nothing. */
void isolate_report(const struct run *run, const struct shared_counts *c,
		    const struct guest_backend *b, const struct isolate_end *e,
		    const struct isolate_stray *s);

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
