/* daemon.h - `benchorch daemon`: scheduled runs, one at a time, a control
 * socket for status/submit/cancel, clean shutdown on SIGTERM. */
#ifndef BENCHORCH_DAEMON_H
#define BENCHORCH_DAEMON_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <sqlite3.h>

#include "db/package-changes.h"
#include "lib/util.h"

struct daemon_opts {
	const char *config_path;	/* NULL = BENCHORCH_DEFAULT_CONFIG,
					 * defaults when that is missing */
	const char *state_opt;		/* --state-dir: over the environment
					 * and the file (conf_resolve_paths) */
	int foreground;			/* 0: detach, log to STATE/daemon.log */
};

/* Run the daemon until SIGTERM/SIGINT. Errors before it is serving (bad
 * configuration, another daemon holds STATE/daemon.lock, socket) are
 * printed on stderr; then it logs with syslog levels to stderr. Returns an
 * exit status: EXIT_OK after a clean shutdown, EXIT_USAGE for a bad
 * configuration, EXIT_ENV when it cannot start. */
int daemon_main(const struct daemon_opts *o);

/* How many changed packages the daemon keeps of its last run to show in
 * `benchorch status` (the count covers all): a few lines, "briefly"; the
 * database's package_changes_v has every one. */
#define DAEMON_STATUS_CHANGES 5

/* The package changes of a run as the daemon reports them. */
struct daemon_changes {
	long total;		/* changes recorded; -1 = not reported */
	struct pkg_change *shown;	/* the first DAEMON_STATUS_CHANGES */
	size_t nshown;
};

/* Child side: send TOTAL and the first DAEMON_STATUS_CHANGES of the N
 * changes at V down the pipe FD to the daemon, one line each ("C TOTAL",
 * then "c\tSPEC\tPACKAGE\tOLD\tNEW", an empty field for a NULL
 * version, each field cut at 100 bytes). Returns 0, or -1 with err set
 * when the pipe cannot be written. */
int daemon_changes_send(int fd, const struct pkg_change *v, size_t n,
			bo_err *err);

/* Parent side: take one line LINE (without its newline) of what
 * daemon_changes_send wrote into DC. Returns 1 when LINE was such a line,
 * 0 when it is not one (DC untouched). */
int daemon_changes_parse(struct daemon_changes *dc, const char *line);

/* Add to the status object O "package_changes" (the total, -1 = not
 * reported) and "changed_packages" (an array of objects with spec,
 * package, old_version and new_version, null for none). */
void daemon_changes_json(const struct daemon_changes *dc, json_t *o);

/* Set "database_error" of the status object O to the message FMT makes
 * (one line, cut at 1,200 bytes), unless an earlier error is set: the
 * first fault status met reading the database. */
void daemon_database_error(json_t *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Open the database DB_PATH read-only for a status request. Returns 1
 * with *DB open (the caller closes it), 0 when the file does not exist
 * (no run yet: *DB NULL, nothing wrong), or -1 when it exists but cannot
 * be opened or is no benchorch database (*DB NULL, "database_error" of O
 * set). */
int daemon_status_db_open(const char *db_path, json_t *o, sqlite3 **db);

/* Add to the status object O "latest_run": the newest run in the database
 * DB_PATH whoever started it (a manual `benchorch run` included), an
 * object with id, status, started_at and finished_at (ISO 8601 UTC as
 * stored, finished_at null while it runs) and command_line; null when the
 * database is missing, empty or cannot be read (status answers anyway).
 * A database that exists but cannot be read sets "database_error". */
void daemon_latest_run_json(const char *db_path, json_t *o);

/* Free what DC holds and set it to "not reported". */
void daemon_changes_reset(struct daemon_changes *dc);

#endif
