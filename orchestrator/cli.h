/* cli.h - the subcommand table and what every command shares. */
#ifndef BENCHORCH_CLI_H
#define BENCHORCH_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "orchestrator/util.h"

/* Exit statuses (documented in benchorch(1)). */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,	/* the work ran but something in it failed */
	EXIT_USAGE = 2,		/* bad command line or unknown name */
	EXIT_ENV = 3,		/* not root, missing tool, unusable database */
	EXIT_REGRESSION = 4,	/* reserved: compare --fail-on-regression */
	EXIT_INTERRUPTED = 130,	/* 128 + SIGINT; SIGTERM gives 143 */
};

/* What a command needs set up before it runs. */
enum {
	CMD_NEEDS_ROOT = 1 << 0,
};

struct cmd_entry {
	const char *name;
	const char *summary;	/* one line for `benchorch --help` */
	const char *usage;	/* full `--help` text, starting with Usage: */
	int flags;
	int (*fn)(int argc, char **argv);
};

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_results_entry;
extern const struct cmd_entry cmd_runs_entry;
extern const struct cmd_entry cmd_daemon_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_submit_entry;
extern const struct cmd_entry cmd_cancel_entry;
extern const struct cmd_entry cmd_images_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_confirm_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_merge_entry;
extern const struct cmd_entry cmd_slurm_entry;

/* The most bytes of a message cli_error, cli_warn and cli_usage_error
 * print; the rest is counted ("... (N bytes more)"): an argument
 * echoed back in full could run to any length. */
#define CLI_MSG_MAX 2000

/* Print "benchorch: MSG" on stderr, on one line: control characters in
 * MSG (a newline or terminal escape sequence in an argument echoed
 * back) as \n, \t or \xNN, at most CLI_MSG_MAX bytes of it. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "benchorch: warning: MSG" on stderr, as cli_error prints. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exit status for an interruption by signal SIG (128 + SIG). */
int cli_interrupted_status(int sig);

/* Parse the option value S as a whole decimal number (an optional '-',
 * then digits only: no space, '+', fraction or suffix) from MIN to MAX.
 * Returns 0 with the number in *ret, or -1 with err set ("'S' is not a
 * whole number", "'S' is out of range (MIN to MAX)"); numbers beyond
 * long long are out of range, never clamped. */
int cli_parse_ll(const char *s, long long min, long long max,
		 long long *ret, bo_err *err);

/* The same for a decimal number with an optional fraction and exponent
 * ("3", "2.5", "1e-1"; not "inf", "nan" or hexadecimal): finite, from MIN
 * to MAX. Returns 0, or -1 with err set ("'S' is not a number", "'S' is
 * out of range (MIN to MAX)"). */
int cli_parse_double(const char *s, double min, double max, double *ret,
		     bo_err *err);

/* The largest run id: a run id is an SQLite rowid (a signed 64-bit
 * integer), and benchorch's start at 1. */
#define CLI_RUN_ID_MAX INT64_MAX

/* Parse S as a run id, 1 to CLI_RUN_ID_MAX, with cli_parse_ll. Returns 0,
 * or -1 with err set. */
int cli_parse_run_id(const char *s, int64_t *ret, bo_err *err);

/* Print a usage error for command CMD ("benchorch CMD: MSG", MSG as
 * cli_error prints it, then a line naming CMD's --help) and return
 * EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Check the value ARG of a path option OPT ("--db", "--state-dir") of
 * command CMD: an empty path names nothing (each command would read it
 * its own way: "/results.db", the current directory), so it is refused.
 * Returns 0, or prints "benchorch CMD: OPT must not be empty" with the
 * --help hint and returns EXIT_USAGE. Every command's --db and
 * --state-dir go through it. */
int cli_path_arg(const char *cmd, const char *opt, const char *arg);

/* The guests' measurement options as `run` and `confirm` take them, each
 * parsed from ARG with err set on a value that is malformed or out of
 * range (0, or -1): --min-batch-ms (0.001 to 60000 ms; *ns in
 * nanoseconds), --repetitions (1 to 150 samples a set), --max-reruns (0
 * to 9 sets after the first). */
int cli_parse_min_batch_ms(const char *arg, uint64_t *ns, bo_err *err);
int cli_parse_repetitions(const char *arg, unsigned *ret, bo_err *err);
int cli_parse_max_reruns(const char *arg, unsigned *ret, bo_err *err);

/* "run N is stored as STATUS (ERROR)" (without the parenthesis when
 * ERROR is NULL), for the messages about a run that did not finish
 * normally. Newly allocated; caller frees. */
char *cli_stored_as(int64_t run_id, const char *status, const char *error);

/* Warn on stderr when run RUN_ID of DB did not finish normally (stored
 * as aborted or failed, or still running): "warning: run N is stored as
 * aborted (ERROR): its results are partial". Prints nothing for a run
 * that finished ('done'), is not there, or on a database error. */
void cli_warn_partial_run(sqlite3 *db, int64_t run_id);

/* Check, before a command waits for the run lock, that the database at
 * PATH can be opened for writing as the command will open it (db_open:
 * created if missing, migrated), so that an unusable one is reported at
 * once rather than after the wait. PATH's directory must exist ("cannot
 * open database 'PATH': 'DIR': No such file or directory"), and let this
 * process create PATH there when PATH is missing ("...: cannot create it
 * in 'DIR': Read-only file system"); then PATH is
 * opened and closed again (a directory, a read-only file or file system,
 * a database of something else or of a newer benchorch are refused with
 * db_open's message). Prints "benchorch: MESSAGE" and returns EXIT_ENV, or
 * returns EXIT_OK. Allocates nothing that outlives the call. */
int cli_check_db_writable(const char *path);

/* Check that the database DB (at PATH, for the messages) holds each of
 * the N run ids RUNS, given to command CMD by option OPT (NULL: as
 * arguments). A run it does not hold is an unknown name: prints "benchorch
 * CMD: OPT: no run ID in 'PATH'" and returns EXIT_USAGE; a database error
 * prints it and returns EXIT_ENV; else EXIT_OK. */
int cli_check_runs(const char *cmd, const char *opt, sqlite3 *db,
		   const char *path, const int64_t *runs, size_t n);

#endif
