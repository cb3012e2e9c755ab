/* lib/messages.h - one-line messages on stderr: errors, warnings and
 * usage errors, with what an argument could smuggle in made visible. */
#ifndef BENCHORCH_MESSAGES_H
#define BENCHORCH_MESSAGES_H

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

/* Print a usage error for command CMD ("benchorch CMD: MSG", MSG as
 * cli_error prints it, then a line naming CMD's --help) and return
 * EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
