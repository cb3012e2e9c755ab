/* lib/messages.h - one-line messages on stderr: errors, warnings and
 * usage errors, with what an argument could smuggle in made visible. */
#ifndef BENCHORCH_MESSAGES_H
#define BENCHORCH_MESSAGES_H

#include <stddef.h>
#include <stdio.h>

/* The most bytes of a message cli_error, cli_warn and cli_usage_error
 * print; the rest is counted ("... (N bytes more)"): an argument
 * echoed back in full could run to any length. */
#define CLI_MSG_MAX 2000

/* Write the LEN bytes of S to F with every control character made
 * visible: a newline as \n, a tab as \t, any other byte below 0x20 and
 * DEL as \xNN; every other byte as it is. For text from outside (an
 * argument echoed back, a file's contents, a node's name) printed on
 * a terminal or into a log: it can neither break the line nor send an
 * escape sequence. */
void msg_put_escaped(FILE *f, const char *s, size_t len);

/* The NUL-terminated S as msg_put_escaped writes it. Newly allocated;
 * the caller frees it. Never fails (out of memory aborts). */
char *msg_escaped(const char *s);

/* Print "benchorch: MSG" on stderr, on one line: control characters in
 * MSG (a newline or terminal escape sequence in an argument echoed
 * back) as \n, \t or \xNN, at most CLI_MSG_MAX bytes of it. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "benchorch CMD: MSG" on stderr, as cli_error prints MSG: an
 * error of command CMD that is no usage error (no --help hint), e.g. a
 * request the daemon refused. */
void cli_cmd_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print "benchorch: warning: MSG" on stderr, as cli_error prints. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exit status for an interruption by signal SIG (128 + SIG). */
int cli_interrupted_status(int sig);

/* Print a usage error for command CMD ("benchorch CMD: MSG", MSG as
 * cli_error prints it, then a line naming CMD's --help) and return
 * EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
