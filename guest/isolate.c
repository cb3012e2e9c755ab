/* guest/isolate.c - one library in a child process of its own, and what
 * the parent says when it ends early (see isolate.h). */
#include "compat.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "algo.h"
#include "bench.h"
#include "emit.h"
#include "isolate.h"
#include "options.h"
#include "rusage.h"

void isolate_stray_drain(struct isolate_stray *s, int timeout_ms)
{
	struct pollfd p;
	char buf[4096];
	ssize_t n;

	if (s->fd < 0) {
		if (timeout_ms > 0)
			poll(NULL, 0, timeout_ms);
		return;
	}
	p.fd = s->fd;
	p.events = POLLIN;
	while (poll(&p, 1, timeout_ms) > 0) {
		n = read(s->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(s->fd);
			s->fd = -1;
			return;
		}
		for (ssize_t i = 0; i < n && s->nhead < STRAY_QUOTE; i++) {
			unsigned char c = (unsigned char)buf[i];

			s->head[s->nhead++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		}
		s->head[s->nhead] = '\0';
		s->bytes += (size_t)n;
		timeout_ms = 0;
	}
}

/* In the child: protocol lines to a copy of stdout, descriptor 1 to
 * STRAY_W (the pipe's write end, or stderr when it is -1), then the
 * library; ends with ISOLATE_DONE_STATUS through exit(3). */
static void child(struct run *run, const struct guest_backend *b,
		  int stray_r, int stray_w)
{
	int out = dup(1);

	if (stray_r >= 0)
		close(stray_r);
	if (out >= 0) {
		emit_set_fd(out);
		dup2(stray_w >= 0 ? stray_w : 2, 1);
	}
	if (stray_w >= 0)
		close(stray_w);
	check_emit_flag(&run->counts->stdout_gone);
	run_library(run, b);
	run->counts->finished = 1;
	exit(ISOLATE_DONE_STATUS);
}

void isolate_wait(const struct run *run, pid_t pid, struct isolate_stray *s,
		  struct isolate_end *e, struct rusage *ru)
{
	uint64_t deadline = bench_now_ns() +
			    run->o->lib_timeout_s * UINT64_C(1000000000);
	pid_t w;

	memset(e, 0, sizeof(*e));
	memset(ru, 0, sizeof(*ru));
	for (;;) {
		w = wait4(pid, &e->status, WNOHANG, ru);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (!e->killed && bench_now_ns() > deadline) {
			kill(pid, SIGKILL);
			e->killed = true;
		}
		isolate_stray_drain(s, 20);
	}
	e->reaped = w == pid;
	isolate_stray_drain(s, 0);
	if (s->fd >= 0)
		close(s->fd);	/* a process the library started holds it */
	s->fd = -1;
}

/* Where the child was when it ended: " while loading" before its library
 * line, " during ALGO", " at exit" after its list, or "". */
static void where(const struct shared_counts *c, char *buf, size_t len)
{
	int a = c->algo;

	if (!c->reported)
		snprintf(buf, len, " while loading");
	else if (a >= 0 && a < GUEST_ALGO_COUNT)
		snprintf(buf, len, " during %s",
			 algo_info((enum guest_algo)a)->name);
	else if (c->finished)
		snprintf(buf, len, " at exit");
	else
		buf[0] = '\0';
}

/* The message for an early end E of a child that got as far as C says,
 * into MSG (LEN bytes); false when it ended as it should. */
static bool end_message(const struct run *run, const struct shared_counts *c,
			const struct isolate_end *e, char *msg, size_t len)
{
	char at[64];

	where(c, at, sizeof(at));
	if (e->killed)
		snprintf(msg, len, "library hung: killed after %llu s%s",
			 (unsigned long long)run->o->lib_timeout_s, at);
	else if (!e->reaped)
		snprintf(msg, len, "library process ended: lost to wait4%s",
			 at);
	else if (WIFSIGNALED(e->status))
		snprintf(msg, len, "library crashed: killed by signal %d (%s)%s",
			 WTERMSIG(e->status), strsignal(WTERMSIG(e->status)),
			 at);
	else if (WIFEXITED(e->status) &&
		 WEXITSTATUS(e->status) == ISOLATE_DONE_STATUS && c->finished)
		return false;
	else if (WIFEXITED(e->status))
		snprintf(msg, len, "library process ended: exit status %d%s",
			 WEXITSTATUS(e->status), at);
	else
		snprintf(msg, len, "library process ended: wait status %d%s",
			 e->status, at);
	return true;
}

void isolate_report(const struct run *run, const struct shared_counts *c,
		    const struct guest_backend *b, const struct isolate_end *e,
		    const struct isolate_stray *s)
{
	int a = c->algo;
	const char *aname = c->reported && a >= 0 && a < GUEST_ALGO_COUNT ?
			    algo_info((enum guest_algo)a)->name : "";
	char msg[512], stray[128];
	bool ended = end_message(run, c, e, msg, sizeof(msg));

	if (s->bytes > 0)
		snprintf(stray, sizeof(stray),
			 "library wrote to stdout: %zu bytes, starting \"%s\"",
			 s->bytes, s->head);
	if (!c->reported && (ended || s->bytes > 0))
		check_emit(emit_library_failed(b->name, ended ? msg : stray));
	if (ended)
		check_emit(emit_error(b->name, aname, "%s", msg));
	if (s->bytes > 0)
		check_emit(emit_error(b->name, aname, "%s", stray));
}

void isolate_run_library(struct run *run, const struct guest_backend *b)
{
	struct isolate_stray s;
	struct isolate_end e;
	struct rusage ru;
	int p[2] = { -1, -1 };
	pid_t pid;

	run->counts->algo = -1;
	run->counts->finished = 0;
	run->counts->reported = 0;
	run->counts->stdout_gone = 0;
	if (pipe(p) < 0)
		p[0] = p[1] = -1;
	pid = fork();
	if (pid < 0) {
		if (p[0] >= 0) {
			close(p[0]);
			close(p[1]);
		}
		run_library(run, b);
		return;
	}
	if (pid == 0)
		child(run, b, p[0], p[1]);
	if (p[1] >= 0)
		close(p[1]);
	memset(&s, 0, sizeof(s));
	s.fd = p[0];
	isolate_wait(run, pid, &s, &e, &ru);
	if (e.reaped && run->nrusage < MAX_LIBS)
		rusage_from(&run->rusage[run->nrusage++], b->name, &ru);
	if (run->counts->stdout_gone)
		exit(1);	/* the child said so on stderr */
	isolate_report(run, run->counts, b, &e, &s);
}
