/* daemon-slurm.c - a schedule sent to Slurm instead of run here. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

int daemon_slurm_submit(const struct conf *c, const struct sched *s,
			char **ret_out, bo_err *err)
{
	char **argv, *buf = NULL, *last;
	size_t len = 0, cap = 0;
	int p[2], argc, status;
	ssize_t got;
	pid_t pid;

	if (pipe(p) < 0)
		return bo_err_set(err, "cannot create a pipe: %s", strerror(errno));
	argv = daemon_slurm_argv("benchorch", c, s, &argc);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		daemon_slurm_argv_free(argv);
		return bo_err_set(err, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		sigset_t none;
		int i;

		sigemptyset(&none);
		for (i = 1; i < NSIG; i++)
			signal(i, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(p[0]);
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		if (p[1] > STDERR_FILENO)
			close(p[1]);
		spawn_cloexec_inherited();
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(p[1]);
	daemon_slurm_argv_free(argv);
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		got = read(p[0], buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(p[0]);
	buf[len] = '\0';
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		*ret_out = buf;
		return 0;
	}
	/* its last lines (sbatch's message and submit's), on one line */
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	last = buf + (len > 600 ? len - 600 : 0);
	for (got = 0; last[got]; got++)
		if (last[got] == '\n')
			last[got] = ' ';
	if (status != -1 && WIFEXITED(status))
		bo_err_set(err, "'benchorch slurm submit' exited with status %d: %s",
			   WEXITSTATUS(status), *last ? last : "(no message)");
	else
		bo_err_set(err, "'benchorch slurm submit' did not finish: %s",
			   *last ? last : "(no message)");
	free(buf);
	return -1;
}
