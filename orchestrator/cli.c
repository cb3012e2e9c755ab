/* cli.c - messages and exit statuses shared by every command. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/cli.h"
#include "orchestrator/util.h"

/* Write the message FMT with AP to F as one line: each control
 * character (a newline or an escape sequence in an argument echoed back)
 * as \n, \t or \xNN, so that no argument can break the line or drive
 * the terminal; at most CLI_MSG_MAX bytes of it, then how many more
 * there were. */
static void put_msg(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *buf = small;
	va_list cp;
	int n;
	size_t i, len;

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
	for (i = 0; i < len && i < CLI_MSG_MAX; i++) {
		unsigned char ch = (unsigned char)buf[i];

		if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
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

int cli_path_arg(const char *cmd, const char *opt, const char *arg)
{
	if (!arg || !*arg)
		return cli_usage_error(cmd, "%s must not be empty", opt);
	return 0;
}

int cli_parse_min_batch_ms(const char *arg, uint64_t *ns, bo_err *err)
{
	double ms;

	/* 1 us to 60 s: the guest's own limits are 1 ns and 60 s */
	if (cli_parse_double(arg, 0.001, 60000, &ms, err) < 0)
		return -1;
	*ns = (uint64_t)(ms * 1e6 + 0.5);
	return 0;
}

int cli_parse_repetitions(const char *arg, unsigned *ret, bo_err *err)
{
	long long v;

	if (cli_parse_ll(arg, 1, 150, &v, err) < 0)
		return -1;
	*ret = (unsigned)v;
	return 0;
}

int cli_parse_max_reruns(const char *arg, unsigned *ret, bo_err *err)
{
	long long v;

	if (cli_parse_ll(arg, 0, 9, &v, err) < 0)
		return -1;
	*ret = (unsigned)v;
	return 0;
}

char *cli_stored_as(int64_t run_id, const char *status, const char *error)
{
	return xasprintf("run %lld is stored as %s%s%s%s", (long long)run_id,
			 status, error ? " (" : "", error ? error : "",
			 error ? ")" : "");
}

void cli_warn_partial_run(sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT status, error FROM runs WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *status = (const char *)sqlite3_column_text(st, 0);
		const char *error = (const char *)sqlite3_column_text(st, 1);

		if (status && strcmp(status, "done") != 0) {
			char *what = cli_stored_as(run_id, status, error);

			cli_warn("%s: its results are partial", what);
			free(what);
		}
	}
	sqlite3_finalize(st);
}

int cli_check_db_writable(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct stat st;
	sqlite3 *db;
	bo_err err;
	int rc = EXIT_OK;

	/* the directory first: SQLite's own message for it names neither */
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	if (stat(dir, &st) < 0) {
		cli_error("cannot open database '%s': '%s': %s", path, dir,
			  strerror(errno));
		rc = EXIT_ENV;
	} else if (!S_ISDIR(st.st_mode)) {
		cli_error("cannot open database '%s': '%s' is not a directory",
			  path, dir);
		rc = EXIT_ENV;
	} else if (access(path, F_OK) != 0 && access(dir, W_OK | X_OK) != 0) {
		/* SQLite would only say "unable to open database file" */
		cli_error("cannot open database '%s': cannot create it in '%s': %s",
			  path, dir, strerror(errno));
		rc = EXIT_ENV;
	} else if (db_open(path, &db, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
	} else {
		sqlite3_close(db);
	}
	free(dir);
	return rc;
}

int cli_check_runs(const char *cmd, const char *opt, sqlite3 *db,
		   const char *path, const int64_t *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int k = db_run_exists(db, runs[i]);

		if (k < 0) {
			cli_error("database error in '%s': %s", path,
				  sqlite3_errmsg(db));
			return EXIT_ENV;
		}
		if (k == 0)
			return cli_usage_error(cmd, "%s%sno run %lld in '%s'",
					       opt ? opt : "", opt ? ": " : "",
					       (long long)runs[i], path);
	}
	return EXIT_OK;
}

int cli_parse_ll(const char *s, long long min, long long max,
		 long long *ret, bo_err *err)
{
	const char *digits = *s == '-' ? s + 1 : s;
	long long v;
	char *end;

	if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits))
		return bo_err_set(err, "'%s' is not a whole number", s);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		return bo_err_set(err, "'%s' is out of range (%lld to %lld)", s,
				  min, max);
	*ret = v;
	return 0;
}

int cli_parse_double(const char *s, double min, double max, double *ret,
		     bo_err *err)
{
	double v;
	char *end;

	/* strtod also takes leading space, "inf", "nan" and hexadecimal */
	if (*s == '\0' || !strchr("-.0123456789", *s) ||
	    strspn(s, "-+.0123456789eE") != strlen(s))
		return bo_err_set(err, "'%s' is not a number", s);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return bo_err_set(err, "'%s' is not a number", s);
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return bo_err_set(err, "'%s' is out of range (%g to %g)", s,
				  min, max);
	*ret = v;
	return 0;
}

int cli_parse_run_id(const char *s, int64_t *ret, bo_err *err)
{
	long long v;

	if (cli_parse_ll(s, 1, CLI_RUN_ID_MAX, &v, err) < 0)
		return -1;
	*ret = (int64_t)v;
	return 0;
}
