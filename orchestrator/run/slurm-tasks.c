/* slurm-tasks.c - what the tasks of a Slurm submission left in the spool
 * directory: node, exit status, database and log of each. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/messages.h"
#include "orchestrator/run/slurm.h"

/* 1 if S is a Slurm job id: digits, optionally "_" and more digits. */
static int task_id_ok(const char *s, int allow_index)
{
	const char *p = s;

	if (*p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (allow_index && *p == '_' && p[1] >= '0' && p[1] <= '9') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0' && p - s < 40;
}

/* The first line of the small spool file PATH (slurm_spool_open), or
 * NULL; *SECOND (may be NULL) gets its second line, or NULL. Caller
 * frees both. */
static char *first_line(const char *path, char **second)
{
	char *buf = NULL, *rest;
	bo_err err;

	if (second)
		*second = NULL;
	if (slurm_spool_read(path, 4096, &buf, &err) < 0)
		return NULL;
	rest = buf + strcspn(buf, "\n");
	if (*rest) {
		*rest++ = '\0';
		rest[strcspn(rest, "\n")] = '\0';
		if (second && *rest)
			*second = xstrdup(rest);
	}
	if (!buf[0]) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The 64 hex digits of "sha256:HEX" in S, newly allocated, or NULL. */
static char *digest_of(const char *s)
{
	if (!s || strncmp(s, "sha256:", 7) != 0 || strlen(s + 7) != 64 ||
	    strspn(s + 7, "0123456789abcdef") != 64)
		return NULL;
	return xstrdup(s + 7);
}

static void task_fill(struct slurm_task *t, const char *spool)
{
	char *path, *s, *second;
	struct stat st;

	path = xasprintf("%s/%s.node", spool, t->id);
	t->node = first_line(path, NULL);
	free(path);
	path = xasprintf("%s/%s.exit", spool, t->id);
	s = first_line(path, &second);
	free(path);
	if (s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end != s && !*end && v >= 0 && v <= 255) {
			t->exit_set = 1;
			t->exit_status = (int)v;
		}
		t->digest = digest_of(second);
		free(s);
	}
	free(second);
	if (t->node && !strchr(t->node, '/')) {
		path = xasprintf("%s/%s-%s.db", spool, t->node, t->id);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			t->db = path;
		else
			free(path);
	}
	t->log = xasprintf("%s/%s.log", spool, t->id);
}

long slurm_tasks_read(const char *spool, const char *job,
		      struct slurm_task **ret, bo_err *err)
{
	struct slurm_task *t = NULL;
	char *path, *buf, *tok, *save = NULL;
	long n = 0;

	if (!task_id_ok(job, 0))
		return bo_err_set(err, "'%s' is not a slurm job id", job);
	if (slurm_spool_check(spool, err) < 0)
		return -1;
	path = xasprintf("%s/%s.tasks", spool, job);
	if (slurm_spool_read(path, 1 << 20, &buf, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		bo_err_set(err, "no submission '%s' in '%s': %s", job, spool, msg);
		free(path);
		return -1;
	}
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (!task_id_ok(tok, 1)) {
			bo_err_set(err, "'%s': '%s' is not a task id", path, tok);
			slurm_tasks_free(t, n);
			free(buf);
			free(path);
			return -1;
		}
		t = xrealloc(t, (size_t)(n + 1) * sizeof(*t));
		memset(&t[n], 0, sizeof(t[n]));
		t[n].id = xstrdup(tok);
		task_fill(&t[n], spool);
		n++;
	}
	free(buf);
	if (n == 0) {
		bo_err_set(err, "'%s' lists no task", path);
		free(path);
		return -1;
	}
	free(path);
	*ret = t;
	return n;
}

void slurm_tasks_free(struct slurm_task *t, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		free(t[i].id);
		free(t[i].node);
		free(t[i].db);
		free(t[i].digest);
		free(t[i].log);
	}
	free(t);
}

char *slurm_log_tail(const char *path, int max_lines, const char *prefix)
{
	char buf[65536], *start, *out = NULL;
	size_t olen = 0;
	ssize_t got;
	off_t size;
	int fd, lines = 0;
	bo_err err;
	FILE *f;

	fd = slurm_spool_open(path, &err);
	if (fd < 0) {
		size_t skip = strlen("cannot open '") + strlen(path) + 3;

		/* "cannot open 'PATH': REASON": the reason; else what the
		 * file is (a symlink, not a regular file) */
		return xasprintf("%s(no log '%s': %s)\n", prefix, path,
				 strncmp(err.msg, "cannot open '", 13) == 0 &&
				 strlen(err.msg) > skip ? err.msg + skip : err.msg);
	}
	size = lseek(fd, 0, SEEK_END);
	if (size < 0 || lseek(fd, size > (off_t)sizeof(buf) - 1 ?
			      size - (off_t)sizeof(buf) + 1 : 0, SEEK_SET) < 0) {
		close(fd);
		return xasprintf("%s(cannot read log '%s')\n", prefix, path);
	}
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got < 0)
		return xasprintf("%s(cannot read log '%s': %s)\n", prefix, path,
				 strerror(errno));
	buf[got] = '\0';
	if (got == 0)
		return xasprintf("%s(log '%s' is empty)\n", prefix, path);
	/* walk back over max_lines line ends (a final newline ends the
	 * last line and does not start another) */
	start = buf + got;
	if (start > buf && start[-1] == '\n')
		start--;
	while (start > buf) {
		if (start[-1] == '\n' && ++lines == max_lines)
			break;
		start--;
	}
	f = open_memstream(&out, &olen);
	if (!f)
		return xasprintf("%s(out of memory)\n", prefix);
	while (start < buf + got) {
		/* a NUL in the log is text too: escaped, not an end */
		char *nl = memchr(start, '\n', (size_t)(buf + got - start));
		size_t l = nl ? (size_t)(nl - start) : (size_t)(buf + got - start);

		fputs(prefix, f);
		msg_put_escaped(f, start, l);
		fputc('\n', f);
		start += l + (nl != NULL);
	}
	fclose(f);
	return out;
}

const char *slurm_task_why(const struct slurm_task *t, char *buf, size_t len)
{
	if (!t->node)
		return "never started (no node recorded)";
	if (!t->exit_set)
		return "stopped before it finished (killed, cancelled or timed out)";
	if (t->exit_status != 0) {
		snprintf(buf, len, "'benchorch run' exited with status %d",
			 t->exit_status);
		return buf;
	}
	return "exited with status 0 but wrote no database";
}
