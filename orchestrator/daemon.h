/* daemon.h - `benchorch daemon`: scheduled runs, one at a time, a control
 * socket for status/submit/cancel, clean shutdown on SIGTERM. */
#ifndef BENCHORCH_DAEMON_H
#define BENCHORCH_DAEMON_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "orchestrator/util.h"

struct daemon_opts {
	const char *config_path;	/* NULL = BENCHORCH_DEFAULT_CONFIG,
					 * defaults when that is missing */
	const char *state_opt;		/* --state-dir, overrides the file */
	int foreground;			/* 0: detach, log to STATE/daemon.log */
};

/* Run the daemon until SIGTERM/SIGINT. Errors before it is serving (bad
 * configuration, another daemon holds STATE/daemon.lock, socket) are
 * printed on stderr; then it logs with syslog levels to stderr. Returns an
 * exit status: EXIT_OK after a clean shutdown, EXIT_USAGE for a bad
 * configuration, EXIT_ENV when it cannot start. */
int daemon_main(const struct daemon_opts *o);

/* One package whose version differs between two images of one
 * distribution/release. */
struct pkg_change {
	char *spec;		/* "debian:bookworm" */
	char *package;
	char *old_version;	/* NULL: new package */
	char *new_version;	/* NULL: removed */
};

/* For every invocation of run RUN_ID, compare the packages of its image
 * with those of the image the latest earlier run of the same
 * distribution/release used (nothing when there is none, or when it is the
 * same image). Returns 0 and a new array in *ret, *ret_n (free with
 * pkg_changes_free), or -1 with err set. */
int pkg_changes_since_previous(sqlite3 *db, int64_t run_id,
			       struct pkg_change **ret, size_t *ret_n,
			       bo_err *err);

/* Free the N changes at C and the array; C may be NULL. */
void pkg_changes_free(struct pkg_change *c, size_t n);

#endif
