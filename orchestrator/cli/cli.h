/* cli.h - the subcommand table and what every command shares. */
#ifndef BENCHORCH_CLI_H
#define BENCHORCH_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "lib/exitcode.h"
#include "lib/format.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/util.h"
#include "orchestrator/cli/options.h"


/* What a command needs set up before it runs. */
enum {
	CMD_NEEDS_ROOT = 1 << 0,
};

/* --db and --state-dir as given (NULL when not), for a command whose
 * options struct starts with this one and whose table holds the group
 * cli_db_options or cli_state_options. */
struct cli_paths {
	const char *db;
	const char *state;
};

/* The rows of --db PATH and --state-dir DIR (both OPT_PATH, offsets in
 * struct cli_paths), and of --state-dir alone. */
extern const struct opt_def cli_db_options[];
extern const struct opt_def cli_state_options[];

/* The run ids of a repeatable --run ID, in the order given. */
struct cli_runs {
	int64_t *ids;	/* NULL when none; the command frees it */
	size_t n;
};

/* The row of --run ID (repeatable), for a group row whose offset is
 * that of a struct cli_runs in the command's options struct. A value
 * that is not a run id: "--run takes a run id: MESSAGE". */
extern const struct opt_def cli_run_options[];

/* An OPT_VALUE parse function: --format FORMAT (table, csv or json) into
 * the enum format at DEST. Returns 0, or -1 with format_parse's message
 * in err ("unknown format 'X' (known: table, csv, json)"). */
int cli_parse_format(const char *arg, void *dest, bo_err *err);

/* An OPT_VALUE parse function: --threshold PCT ("5", "2.5", "5%": a
 * number from 0 to 10000, one '%' allowed after it) into a fraction
 * (0.05) in the double DEST. Returns 0, or -1 with err set ("'x' is not a
 * percentage from 0 to 10000"). */
int cli_parse_threshold(const char *arg, void *dest, bo_err *err);

/* The row of --format FORMAT (table, csv or json; format_parse's
 * message), for a group row whose offset is that of an enum format. */
extern const struct opt_def cli_format_options[];

/* A buffer size option's value: BYTES, and ARG as given (NULL when not
 * given; it points into argv) for the messages that name it. */
struct cli_size {
	int64_t bytes;
	const char *arg;
};

/* The parse callback (struct opt_def) of a --size SIZE: reads ARG with
 * parse_size ("16384", "16K", "16KiB", "1MiB") into the struct cli_size DEST.
 * Returns 0, or -1 with err set to parse_size's message. */
int cli_parse_size_opt(const char *arg, void *dest, bo_err *err);

/* What the command table hands a command: its entry, the whole command
 * line (ARGV[0] the command's name; `run` stores it), and the paths its
 * options name. */
struct cmd_ctx {
	const struct cmd_entry *cmd;
	int argc;
	char **argv;
	char *db_path;		/* paths_db() of struct cli_paths, or NULL
				 * when the command has none; owned here */
	char *state_dir;	/* paths_state_dir() likewise */
};

struct cmd_entry {
	const char *name;
	const char *summary;	/* one line for `benchorch --help` */
	/* `--help`: USAGE (from "Usage:" to the options' heading), the
	 * options of OPTIONS (generated; none when OPTIONS is NULL), then
	 * EPILOG (NULL: nothing). */
	const char *usage;
	const struct opt_def *options;
	const char *epilog;
	int flags;
	/* A command with an option table: its options struct (OPTS_SIZE
	 * bytes, zeroed, then INIT sets the defaults when not NULL), at
	 * most MAX_ARGS arguments (-1: any); RUN gets them in ARGV[0..ARGC-1]
	 * with the options parsed. */
	size_t opts_size;
	void (*init)(void *opts);
	int max_args;
	int (*run)(const struct cmd_ctx *ctx, void *opts, int argc,
		   char **argv);
	/* A command of subcommands (OPTIONS NULL) reads its own command
	 * line, ARGV[0] its name, with opts_parse. */
	int (*fn)(int argc, char **argv);
};

/* Print command CMD's --help text on F (struct cmd_entry). CTX is the
 * entry (a const struct cmd_entry *), so that it serves as opts_parse's
 * help callback. */
void cli_help(FILE *f, const void *cmd);

/* Parse ARGV (ARGC entries from the command's name) for command CMD into
 * OPTS (CMD->opts_size bytes, zeroed and initialised by the caller) and
 * fill CTX (its paths when OPTS starts with struct cli_paths: every
 * command whose table has cli_db_options or cli_state_options). On 0 the
 * arguments are ARGV[*first..ARGC-1]. Returns 0, -1 after --help, or
 * EXIT_USAGE after the message. Release CTX with cli_ctx_release. */
int cli_parse(const struct cmd_entry *cmd, int argc, char **argv,
	      void *opts, struct cmd_ctx *ctx, int *first);

/* Free what cli_parse stored in CTX. */
void cli_ctx_release(struct cmd_ctx *ctx);

/* Open the database at PATH (a command's ctx->db_path, or a path it was
 * given) for reading only (WRITABLE 0: db_open_readonly) or for writing
 * (1: db_open, created when missing, migrated), with the message every
 * command prints when it cannot ("benchorch: MESSAGE"). Returns 0 with
 * *db set (sqlite3_close), or EXIT_ENV. */
int cli_db_open(const char *path, int writable, sqlite3 **db);

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
extern const struct cmd_entry cmd_duet_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_merge_entry;
extern const struct cmd_entry cmd_slurm_entry;
extern const struct cmd_entry cmd_rebuild_entry;




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

/* Check that PATH, an input file named on command CMD's command line (an
 * OPT_INPUT option's value or an argument: a tarball, a keyring, a
 * configuration, a database to merge), can be read: it exists, this
 * process can open it for reading, and it is no directory. A file that
 * cannot be read is a bad command line, the same in every command:
 * prints "benchorch CMD: cannot read 'PATH': REASON" (strerror), then
 * " (NOTE)" when NOTE is not NULL (where such a file comes from), and the
 * --help hint, and returns EXIT_USAGE; else returns 0. Nothing is read,
 * nothing allocated survives the call. */
int cli_input_file(const char *cmd, const char *path, const char *note);

/* cli_input_file for an input file that the command then opens without
 * following a symbolic link (images import's tarball): PATH being a
 * symbolic link is refused the same way, before anything is done,
 * "benchorch CMD: cannot read 'PATH': it is a symbolic link (name the
 * file itself)" and the --help hint, EXIT_USAGE. Returns 0 when PATH can
 * be read. Nothing is read, nothing allocated survives the call. */
int cli_input_file_nofollow(const char *cmd, const char *path);

/* cli_input_file for each of the N input files PATHS of command CMD,
 * every one of them checked: each that cannot be read gets its line as
 * cli_input_file prints it ("benchorch CMD: cannot read 'PATH': REASON
 * (NOTE)"), and the --help hint follows the last one; returns EXIT_USAGE
 * when any cannot be read, else 0. Nothing is read, nothing allocated
 * survives the call. */
int cli_input_files(const char *cmd, int n, char *const *paths,
		    const char *note);

/* Take the machine's run lock (bo_run_lock on BENCHORCH_RUN_LOCK_DIR),
 * saying once on stderr "benchorch: another run holds 'PATH'; waiting for
 * it to finish" while another run holds it. Returns the locked fd (the
 * caller closes it to unlock), or -1 with err set (a lock directory or
 * file of another user is refused; interrupted: bo_interrupted is set). */
int cli_run_lock(bo_err *err);

/* Check that the database DB (at PATH, for the messages) holds each of
 * the N run ids RUNS given to command CMD (by --run or as arguments). A
 * run it does not hold is an unknown name, the same in every command:
 * prints "benchorch CMD: no run ID in 'PATH'" and the --help hint and
 * returns EXIT_USAGE; a database error prints it and returns EXIT_ENV;
 * else EXIT_OK. */
int cli_check_runs(const char *cmd, sqlite3 *db,
		   const char *path, const int64_t *runs, size_t n);

/* cli_check_runs, and then each of the N RUNS must be a library run: a
 * tool run (run --tools) is a usage error of CMD naming it and the
 * command that shows it. Returns EXIT_OK, EXIT_USAGE or EXIT_ENV (after
 * the message). */
int cli_check_library_runs(const char *cmd, sqlite3 *db, const char *path,
			   const int64_t *runs, size_t n);

/* Output through format_stmt() for a command whose rows are not in the
 * database (images list, rebuild --list): the rows go into a table of a
 * scratch in-memory database, printed with a SELECT. */
/* A new in-memory database with SCHEMA executed in it. Returns the
 * database (sqlite3_close), or NULL when it cannot be made (out of
 * memory, or a SCHEMA that is not valid SQL). */
sqlite3 *cli_scratch_db(const char *schema);

/* Bind S (a NUL-terminated string, copied; NULL binds SQL NULL) to the
 * parameter I (1-based) of ST. */
void cli_bind_text(sqlite3_stmt *st, int i, const char *s);

/* Step ST, an INSERT into a scratch table of DB, and reset it for the
 * next row. Returns 0, or -1 after saying why on stderr ("benchorch:
 * cannot format output: ..."). */
int cli_insert_row(sqlite3 *db, sqlite3_stmt *st);

/* Print the rows of the query SQL on DB to stdout in format FMT
 * (format_stmt: a table, CSV or JSON). Returns EXIT_OK, or EXIT_FAILED
 * after saying why on stderr. */
int cli_print_query(sqlite3 *db, const char *sql, enum format fmt);

#endif
