/* cli.h - the subcommand table and what every command shares. */
#ifndef BENCHORCH_CLI_H
#define BENCHORCH_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/util.h"


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




/* Check the value ARG of a path option OPT ("--db", "--state-dir") of
 * command CMD: an empty path names nothing (each command would read it
 * its own way: "/results.db", the current directory), so it is refused.
 * Returns 0, or prints "benchorch CMD: OPT must not be empty" with the
 * --help hint and returns EXIT_USAGE. Every command's --db and
 * --state-dir go through it. */
int cli_path_arg(const char *cmd, const char *opt, const char *arg);



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
