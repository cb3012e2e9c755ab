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

/* The first line of the small file PATH, or NULL. Caller frees. */
static char *first_line(const char *path)
{
	char *buf = NULL;
	bo_err err;

	if (bo_read_file(path, 4096, &buf, NULL, &err) < 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0]) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void task_fill(struct slurm_task *t, const char *spool)
{
	char *path, *s;
	struct stat st;

	path = xasprintf("%s/%s.node", spool, t->id);
	t->node = first_line(path);
	free(path);
	path = xasprintf("%s/%s.exit", spool, t->id);
	s = first_line(path);
	free(path);
	if (s) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end != s && !*end && v >= 0 && v <= 255) {
			t->exit_set = 1;
			t->exit_status = (int)v;
		}
		free(s);
	}
	if (t->node && !strchr(t->node, '/')) {
		path = xasprintf("%s/%s-%s.db", spool, t->node, t->id);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
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
	path = xasprintf("%s/%s.tasks", spool, job);
	if (bo_read_file(path, 1 << 20, &buf, NULL, err) < 0) {
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
		free(t[i].log);
	}
	free(t);
}

char *slurm_log_tail(const char *path, int max_lines, const char *prefix)
{
	char buf[65536], *start, *out;
	size_t plen = strlen(prefix), olen = 0, cap;
	ssize_t got;
	off_t size;
	int fd, lines = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xasprintf("%s(no log '%s': %s)\n", prefix, path,
				 strerror(errno));
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
	cap = (size_t)(buf + got - start) + (size_t)(max_lines + 1) * (plen + 1) + 2;
	out = xmalloc(cap);
	while (*start) {
		size_t l = strcspn(start, "\n");

		olen += (size_t)snprintf(out + olen, cap - olen, "%s%.*s\n", prefix,
					 (int)l, start);
		start += l;
		if (*start == '\n')
			start++;
	}
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
