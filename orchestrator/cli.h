/* cli.h - the subcommand table and what every command shares. */
#ifndef BENCHORCH_CLI_H
#define BENCHORCH_CLI_H

#include <stdio.h>

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
extern const struct cmd_entry cmd_daemon_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_submit_entry;
extern const struct cmd_entry cmd_cancel_entry;
extern const struct cmd_entry cmd_images_entry;
extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_merge_entry;

/* Print "benchorch: MSG" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "benchorch: warning: MSG" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a progress line on stderr, only when stderr is a terminal. */
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 1 when stderr is a terminal (progress is shown). */
int cli_progress_enabled(void);

/* Exit status for an interruption by signal SIG (128 + SIG). */
int cli_interrupted_status(int sig);

/* Print a usage error for command CMD and return EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
