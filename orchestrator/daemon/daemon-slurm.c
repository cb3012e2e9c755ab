/* daemon-slurm.c - a schedule sent to Slurm instead of run here. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "orchestrator/daemon/daemon-slurm.h"
#include "lib/spawn.h"

static void push(char ***argv, int *argc, char *s)
{
	*argv = xrealloc(*argv, (size_t)(*argc + 2) * sizeof(char *));
	(*argv)[(*argc)++] = s;
	(*argv)[*argc] = NULL;
}

char **daemon_slurm_argv(const char *argv0, const struct conf *c,
			 const struct sched *s, int *ret_argc)
{
	const struct sched_slurm *sl = s->slurm;
	char **argv = NULL;
	int argc = 0;

	push(&argv, &argc, xstrdup(argv0));
	push(&argv, &argc, xstrdup("slurm"));
	push(&argv, &argc, xstrdup("submit"));
	if (sl && sl->partition)
		push(&argv, &argc, xasprintf("--partition=%s", sl->partition));
	if (sl && sl->nodes)
		push(&argv, &argc, xasprintf("--nodes=%ld", sl->nodes));
	if (sl && sl->nodelist)
		push(&argv, &argc, xasprintf("--nodelist=%s", sl->nodelist));
	if (sl && sl->spool)
		push(&argv, &argc, xasprintf("--spool=%s", sl->spool));
	if (sl && sl->time)
		push(&argv, &argc, xasprintf("--time=%s", sl->time));
	push(&argv, &argc, xasprintf("--db=%s", c->db_path));
	push(&argv, &argc, xasprintf("--distros=%s", s->distros));
	if (s->libs)
		push(&argv, &argc, xasprintf("--libs=%s", s->libs));
	if (s->quick)
		push(&argv, &argc, xstrdup("--quick"));
	if (s->refresh)
		push(&argv, &argc, xstrdup("--refresh"));
	push(&argv, &argc, xasprintf("--state-dir=%s", c->state_dir));
	push(&argv, &argc, xasprintf("--runner=%s",
				     c->kind == RUNNER_NSPAWN ? "nspawn" :
				     c->kind == RUNNER_CHROOT ? "chroot" : "auto"));
	push(&argv, &argc, xasprintf("--timeout=%ld", c->timeout_s));
	if (c->mirror)
		push(&argv, &argc, xasprintf("--mirror=%s", c->mirror));
	*ret_argc = argc;
	return argv;
}

void daemon_slurm_argv_free(char **argv)
{
	size_t i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* A line `slurm submit` printed on stdout (a spawn_line_fn): appended to
 * the stream CTX. */
static int submit_line(void *ctx, const char *line, size_t len, int truncated)
{
	(void)truncated;
	fprintf(ctx, "%.*s\n", (int)len, line);
	return 0;
}

/* The last at most 600 bytes of what FD (a file at its end, LEN bytes)
 * holds, on one line. Newly allocated; the caller frees it. */
static char *last_words(int fd)
{
	char buf[601];
	off_t end = lseek(fd, 0, SEEK_END);
	ssize_t got;
	size_t n;

	if (end < 0)
		return xstrdup("");
	got = pread(fd, buf, sizeof(buf) - 1,
		    end > (off_t)sizeof(buf) - 1 ? end - (off_t)sizeof(buf) + 1 : 0);
	n = got > 0 ? (size_t)got : 0;
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	for (got = 0; buf[got]; got++)
		if (buf[got] == '\n')
			buf[got] = ' ';
	return xstrdup(buf);
}

int daemon_slurm_submit(const struct conf *c, const struct sched *s,
			char **ret_out, bo_err *err)
{
	char **argv, *buf = NULL, *last;
	size_t len = 0;
	struct spawn_result r;
	struct spawn_opts o = {
		.cpu = -1, .on_line = submit_line,
		.timeout_ns = (uint64_t)DAEMON_SLURM_TIMEOUT_S * 1000000000u,
		.max_log_bytes = 65536,
	};
	FILE *mem;
	char how[128];
	int argc, fd, rc;

	fd = memfd_create("benchorch-slurm-submit", MFD_CLOEXEC);
	if (fd < 0)
		return bo_err_set(err, "cannot create a file for its messages: %s",
				  strerror(errno));
	mem = open_memstream(&buf, &len);
	if (!mem) {
		close(fd);
		return bo_err_set(err, "out of memory");
	}
	argv = daemon_slurm_argv("/proc/self/exe", c, s, &argc);
	o.argv = (const char *const *)argv;
	o.line_ctx = mem;
	o.log_fd = fd;
	rc = spawn_run(&o, &r, err);
	daemon_slurm_argv_free(argv);
	fclose(mem);
	if (rc == 0 && r.status == SPAWN_EXITED && r.exit_code == 0) {
		close(fd);
		*ret_out = buf;
		return 0;
	}
	free(buf);
	if (rc < 0) {
		close(fd);
		return -1;
	}
	/* its last words (sbatch's message and submit's), on one line */
	last = last_words(fd);
	close(fd);
	if (r.status == SPAWN_EXITED)
		bo_err_set(err, "'benchorch slurm submit' exited with status %d: %s",
			   r.exit_code, *last ? last : "(no message)");
	else
		bo_err_set(err, "'benchorch slurm submit' did not finish (%s): %s",
			   spawn_describe(&r, &o, how, sizeof(how)),
			   *last ? last : "(no message)");
	free(last);
	return -1;
}
