/* options.h - every command's options from one table: the rows a command
 * declares, the one parser that reads a command line into them, and the
 * one generator of its --help text.
 *
 * A row names an option, says what kind of value it takes and where that
 * value goes: an offset into the command's own options struct (BASE,
 * which the command owns and zeroes). The parser (opts_parse, and
 * opts_parse_pass for a command that hands other options on) is the only
 * caller of getopt_long in the program; its usage errors are the same for
 * every command:
 *   benchorch CMD: option '--x' needs a value
 *   benchorch CMD: unknown option '--x'
 *   benchorch CMD: unexpected argument 'x'
 * each followed by the --help hint (cli_usage_error), exit status 2.
 */
#ifndef BENCHORCH_OPTIONS_H
#define BENCHORCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

enum opt_kind {
	OPT_END = 0,	/* ends a table */
	OPT_FLAG,	/* no value: the int at offset becomes 1 */
	OPT_STRING,	/* const char * at offset: the value as given (not
			 * copied: it points into argv) */
	OPT_PATH,	/* as OPT_STRING, an empty value refused ("--x must
			 * not be empty", cli_path_arg) */
	OPT_INPUT,	/* as OPT_PATH, and the file must be readable
			 * (cli_input_file: "cannot read 'X': REASON") */
	OPT_INPUT_NOFOLLOW,	/* as OPT_INPUT, and not a symbolic link
			 * (cli_input_file_nofollow): for a file the
			 * command opens with O_NOFOLLOW */
	OPT_INT,	/* long long at offset: a whole decimal number from
			 * min to max (cli_parse_ll) */
	OPT_NUMBER,	/* double at offset: a finite decimal number from
			 * dmin to dmax (cli_parse_double) */
	OPT_VALUE,	/* parse(ARG, BASE + offset, err) reads the value */
	OPT_GROUP,	/* the rows of group, their offsets counted from
			 * BASE + offset (a struct inside the command's) */
};

struct opt_def {
	const char *name;	/* long name without "--" (NULL for a group) */
	int short_name;		/* 'q' for -q, or 0 */
	enum opt_kind kind;
	size_t offset;		/* bytes from BASE to where the value goes */
	const char *arg;	/* the value's name in --help ("PATH"); NULL
				 * for a flag */
	const char *help;	/* --help text; '\n' starts a continuation
				 * line */
	long long min, max;	/* OPT_INT: the range */
	double dmin, dmax;	/* OPT_NUMBER: the range */
	/* How a malformed value is reported: "PREFIX" then the parser's
	 * message. NULL: "--NAME: " for OPT_INT and OPT_NUMBER, nothing for
	 * OPT_VALUE (its parse function writes the whole message). */
	const char *msg_prefix;
	/* OPT_VALUE: read ARG into DEST (BASE + offset); returns 0, or -1
	 * with err set to the message. */
	int (*parse)(const char *arg, void *dest, bo_err *err);
	const struct opt_def *group;	/* OPT_GROUP: its rows */
	/* 1: parsed but not listed in --help (a group row: none of its
	 * rows), for an option a command takes only to refuse it with its
	 * own message */
	int hidden;
};

/* Parse ARGV (ARGC entries; ARGV[0] is the command's name and is
 * skipped) against the rows of TABLE, storing each value at BASE +
 * offset, for command CMD (in messages: "benchorch CMD: ..."). Options
 * and arguments may be mixed ("--" ends the options); the arguments are
 * gathered, in order, in ARGV[*first] to ARGV[ARGC - 1] (getopt's
 * permutation). At most MAX_ARGS arguments are accepted (-1: any number);
 * one more is "unexpected argument 'X'". "--help" and "-h" print HELP (if
 * not NULL) on stdout and return -1.
 *
 * Returns 0, -1 after --help, or EXIT_USAGE after printing the usage
 * error. A table's rows are read only; values point into ARGV. */
int opts_parse(const char *cmd, const struct opt_def *table, void *base,
	       int argc, char **argv, int max_args, int *first,
	       void (*help)(FILE *f, const void *ctx), const void *help_ctx);

/* Parse ARGV as opts_parse does, for a command that hands on what TABLE
 * does not name (slurm submit: run's options, to run) or judges it itself
 * (slurm status and collect: the job id). An option of TABLE counts only
 * spelled whole, "--NAME", "--NAME=VALUE" or "-X" followed by its value
 * (neither abbreviated nor in a cluster of short options), so that
 * another parser's option passes intact; every other element of ARGV (an
 * argument, another option, its value, "--") is handed to OTHER(ELEMENT,
 * OTHER_CTX) in order, when it is met. OTHER returns 0 to go on, or an
 * exit status (after printing its message) that ends the parse.
 *
 * Returns 0, -1 after --help (HELP as in opts_parse), EXIT_USAGE after a
 * usage error of TABLE's options ("option '--x' needs a value", a bad
 * value), or what OTHER returned. Nothing is permuted; values point into
 * ARGV. */
int opts_parse_pass(const char *cmd, const struct opt_def *table, void *base,
		    int argc, char **argv,
		    int (*other)(const char *arg, void *ctx), void *other_ctx,
		    void (*help)(FILE *f, const void *ctx),
		    const void *help_ctx);

/* Write the option list of TABLE (groups expanded, in order, hidden rows
 * left out) to F, one
 * option per line as --help shows it ("  -d, --distros LIST     ...",
 * continuation lines indented to the help column), then the line for
 * "-h, --help". */
void opts_help(FILE *f, const struct opt_def *table);

/* Look up the row of long option NAME (without "--") in TABLE and its
 * groups. Returns it, or NULL. */
const struct opt_def *opts_find(const struct opt_def *table, const char *name);

#endif
