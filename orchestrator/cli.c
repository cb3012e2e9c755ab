/* cli.c - messages and exit statuses shared by every command. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "orchestrator/cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("benchorch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("benchorch: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_progress_enabled(void)
{
	return isatty(2);
}

void cli_progress(const char *fmt, ...)
{
	va_list ap;

	if (!cli_progress_enabled())
		return;
	fputs("benchorch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_interrupted_status(int sig)
{
	return 128 + (sig > 0 ? sig : 2);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "benchorch %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'benchorch %s --help'.\n", cmd);
	return EXIT_USAGE;
}
