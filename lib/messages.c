/* lib/messages.c - one-line messages on stderr (see messages.h). */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/util.h"

void msg_put_escaped(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
}

char *msg_escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	msg_put_escaped(f, s, strlen(s));
	if (fclose(f) != 0 || !buf) {
		fputs("benchorch: out of memory\n", stderr);
		abort();
	}
	return buf;
}

/* Write the message FMT with AP to F as one line: each control
 * character (a newline or an escape sequence in an argument echoed back)
 * escaped as msg_put_escaped does, so that no argument can break the
 * line or drive the terminal; at most CLI_MSG_MAX bytes of it, then how
 * many more there were. */
static void put_msg(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list cp;
	int n;
	size_t len;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = xmalloc((size_t)n + 1);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
	}
	len = (size_t)n;
	msg_put_escaped(f, buf, len < CLI_MSG_MAX ? len : CLI_MSG_MAX);
	if (len > CLI_MSG_MAX)
		fprintf(f, "... (%zu bytes more)", len - CLI_MSG_MAX);
	if (buf != small)
		free(buf);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("benchorch: ", stderr);
	va_start(ap, fmt);
	put_msg(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "benchorch %s: ", cmd);
	va_start(ap, fmt);
	put_msg(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("benchorch: warning: ", stderr);
	va_start(ap, fmt);
	put_msg(stderr, fmt, ap);
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
	put_msg(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'benchorch %s --help'.\n", cmd);
	return EXIT_USAGE;
}
