/* spawn.c - run a child with a timeout, a private mount namespace if asked,
 * line-wise stdout capture, and a guaranteed reap of its process group. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>

#include "lib/spawn.h"

#define KILL_GRACE_NS 2000000000ull

extern char **environ;

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)	/* linux/close_range.h, Linux 5.11 */
#endif

int spawn_cloexec_inherited(void)
{
	DIR *d;
	struct dirent *e;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
#endif
	/* older kernels: every descriptor this process has open */
	d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end != '\0' || end == e->d_name || fd < 3 ||
		    fd == dirfd(d))
			continue;
		fcntl((int)fd, F_SETFD, fcntl((int)fd, F_GETFD) | FD_CLOEXEC);
	}
	closedir(d);
	return 0;
}

/* Child side: report a failure through the error pipe and exit 127. */
static void child_fail(int errfd, const char *msg)
{
	size_t len = strlen(msg);

	if (write(errfd, msg, len) < 0) {
		/* nothing more we can do */
	}
	_exit(127);
}

static void child_run(const struct spawn_opts *o, int outfd, int logfd,
		      int errfd, pid_t parent)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
	sigset_t none;
	bo_err err;
	int devnull;
	size_t i;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction cur;

		/* An ignored SIGHUP stays ignored (the daemon's job: only
		 * the daemon acts on a hang-up); a handled one is reset. */
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_IGN)
			continue;
		signal(sigs[i], SIG_DFL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (o->new_mount_ns) {
		if (unshare(CLONE_NEWNS) < 0) {
			snprintf(err.msg, sizeof(err.msg),
				 "cannot create a mount namespace: %s",
				 strerror(errno));
			child_fail(errfd, err.msg);
		}
		/* "none" rather than NULL for the source and type, which
		 * the kernel ignores here: valgrind reads both as strings */
		if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0) {
			snprintf(err.msg, sizeof(err.msg),
				 "cannot make mounts private: %s",
				 strerror(errno));
			child_fail(errfd, err.msg);
		}
	}
	if (o->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(o->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			snprintf(err.msg, sizeof(err.msg),
				 "cannot pin to cpu %d: %s", o->cpu,
				 strerror(errno));
			child_fail(errfd, err.msg);
		}
	}
	devnull = open("/dev/null", O_RDWR);
	if (devnull < 0)
		child_fail(errfd, "cannot open /dev/null");
	dup2(o->in_fd > 2 ? o->in_fd : devnull, 0);
	if (logfd >= 0) {
		dup2(logfd, 2);
	} else {
		dup2(devnull, 2);
	}
	dup2(outfd >= 0 ? outfd : (logfd >= 0 ? logfd : devnull), 1);
	if (o->setup) {
		err.msg[0] = '\0';
		if (o->setup(o->setup_ctx, &err) < 0)
			child_fail(errfd, err.msg[0] ? err.msg : "setup failed");
	}
	/* what the caller left open (a lock, a test harness's descriptors)
	 * is not the child's: mmdebstrap's shell hooks, for one, fail on
	 * descriptor numbers above 9 */
	if (spawn_cloexec_inherited() < 0)
		child_fail(errfd, "cannot close inherited file descriptors");
	if (o->envp)
		execvpe(o->argv[0], (char *const *)o->argv,
			(char *const *)o->envp);
	else
		execvp(o->argv[0], (char *const *)o->argv);
	snprintf(err.msg, sizeof(err.msg), "cannot run '%s': %s", o->argv[0],
		 strerror(errno));
	child_fail(errfd, err.msg);
}

/* Line splitter state for the captured stdout. */
struct linebuf {
	char *buf;
	size_t len, cap, max;
	int discarding;		/* inside an over-long line already passed on */
};

/* Feed n bytes; call on_line for each complete line. Returns -1 when the
 * callback asked to stop. */
static int lines_feed(struct linebuf *lb, const char *p, size_t n,
		      const struct spawn_opts *o)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			if (!lb->discarding &&
			    o->on_line(o->line_ctx, lb->buf, lb->len, 0) < 0)
				return -1;
			lb->len = 0;
			lb->discarding = 0;
			continue;
		}
		if (lb->discarding)
			continue;
		if (lb->len == lb->max) {
			lb->buf[lb->len] = '\0';
			if (o->on_line(o->line_ctx, lb->buf, lb->len, 1) < 0)
				return -1;
			lb->discarding = 1;
			lb->len = 0;
			continue;
		}
		lb->buf[lb->len++] = p[i];
		lb->buf[lb->len] = '\0';
	}
	return 0;
}

/* Kill the child's process group: SIGTERM, then SIGKILL after a grace
 * period; reaps the child. Returns its wait status. */
static int kill_and_reap(pid_t pid)
{
	uint64_t deadline;
	int st = 0;

	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	deadline = bo_now_ns() + KILL_GRACE_NS;
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			break;
		if (bo_now_ns() > deadline) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			break;
		}
		usleep(10000);
	}
	kill(-pid, SIGKILL); /* stragglers left in the group */
	return st;
}

/* Wait for the exec of child PID: the error pipe whose read end is
 * ERRFD (closed here) closes on a successful exec, or carries why it
 * failed. Returns 0, or -1 with err set to the child's message (the
 * child killed and reaped). */
static int wait_exec(pid_t pid, int errfd, bo_err *err)
{
	char ebuf[sizeof(((bo_err *)0)->msg)];
	size_t elen = 0;
	ssize_t n;

	while ((n = read(errfd, ebuf + elen, sizeof(ebuf) - 1 - elen)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		elen += (size_t)n;
		if (elen >= sizeof(ebuf) - 1)
			break;
	}
	close(errfd);
	if (elen > 0) {
		ebuf[elen] = '\0';
		kill_and_reap(pid);
		return bo_err_set(err, "%s", ebuf);
	}
	return 0;
}

/* Fork the child O describes, in a process group of its own, and wait
 * until it has executed its program. *RET_PID gets its pid, *RET_OUT the
 * read end of its stdout pipe when O->on_line is set, else -1 (the
 * caller closes it). Returns 0, or -1 with err set (no pipe, no fork, or
 * the child's setup or exec failed: then it is reaped already and
 * nothing is left open). */
/* Close both ends of pipe P that are open (-1: closed). */
static void close_pipe(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/* Fork the child O describes, in a process group of its own, and wait
 * until it has executed its program. *RET_PID gets its pid, *RET_OUT the
 * read end of its stdout pipe when O->on_line is set, else -1, and
 * *RET_LOG the read end of its stderr pipe when O->max_log_bytes is set
 * and there is a log, else -1 (the caller closes both). Returns 0, or -1
 * with err set (no pipe, no fork, or the child's setup or exec failed:
 * then it is reaped already and nothing is left open). */
static int start_child(const struct spawn_opts *o, pid_t *ret_pid,
		       int *ret_out, int *ret_log, bo_err *err)
{
	int outp[2] = { -1, -1 }, logp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	pid_t parent = getpid(), pid;

	*ret_out = *ret_log = -1;
	if (pipe2(errp, O_CLOEXEC) < 0 ||
	    (o->on_line && pipe2(outp, O_CLOEXEC) < 0) ||
	    (o->max_log_bytes && o->log_fd >= 0 && pipe2(logp, O_CLOEXEC) < 0)) {
		bo_err_set(err, "cannot create a pipe: %s", strerror(errno));
		close_pipe(errp);
		close_pipe(outp);
		close_pipe(logp);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		bo_err_set(err, "cannot fork: %s", strerror(errno));
		close_pipe(errp);
		close_pipe(outp);
		close_pipe(logp);
		return -1;
	}
	if (pid == 0) {
		close(errp[0]);
		if (outp[0] >= 0)
			close(outp[0]);
		if (logp[0] >= 0)
			close(logp[0]);
		child_run(o, outp[1], logp[1] >= 0 ? logp[1] : o->log_fd,
			  errp[1], parent);
	}
	setpgid(pid, pid); /* also in the parent, to win the race */
	close(errp[1]);
	if (outp[1] >= 0)
		close(outp[1]);
	if (logp[1] >= 0)
		close(logp[1]);
	if (wait_exec(pid, errp[0], err) < 0) {
		if (outp[0] >= 0)
			close(outp[0]);
		if (logp[0] >= 0)
			close(logp[0]);
		return -1;
	}
	*ret_pid = pid;
	*ret_out = outp[0];
	*ret_log = logp[0];
	return 0;
}

/* The last bytes of the child's stderr kept past the bound, so that its
 * last words (an error, a signal) reach the log however much came before. */
#define LOG_TAIL_BYTES 4096

/* The child's stderr pipe, copied into the log up to a bound. */
struct logcopy {
	int fd;			/* read end, -1 once at its end */
	int log_fd;		/* where it goes */
	size_t max, written;	/* bytes */
	unsigned long long past;	/* bytes past max, the tail's included */
	char tail[LOG_TAIL_BYTES];	/* the last of them, a ring */
	size_t tail_at;			/* where the next byte goes */
};

/* Keep the N bytes at P past the bound in the tail ring. */
static void logcopy_tail(struct logcopy *lc, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		lc->tail[lc->tail_at] = p[i];
		lc->tail_at = (lc->tail_at + 1) % LOG_TAIL_BYTES;
	}
	lc->past += n;
}

/* Copy what the pipe has now (one read) into the log, within the bound;
 * close it at its end. Returns the bytes read, 0 at its end, -1 when it
 * has nothing now. */
static ssize_t logcopy_read(struct logcopy *lc)
{
	char chunk[16384];
	ssize_t n = read(lc->fd, chunk, sizeof(chunk));
	size_t keep;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return -1;
	if (n <= 0) {
		close(lc->fd);
		lc->fd = -1;
		return 0;
	}
	keep = lc->max - lc->written < (size_t)n ? lc->max - lc->written :
						   (size_t)n;
	if (keep && write(lc->log_fd, chunk, keep) < 0)
		keep = 0;	/* a log that cannot be written loses it */
	lc->written += keep;
	logcopy_tail(lc, chunk + keep, (size_t)n - keep);
	return n;
}

/* Read the rest the pipe holds without waiting (a process the child left
 * may keep it open), close it, and end the log with what went past the
 * bound: how many bytes were left out, then the last LOG_TAIL_BYTES. */
static void logcopy_finish(struct logcopy *lc)
{
	size_t kept, first;
	char note[160];
	int n;

	if (lc->fd >= 0) {
		fcntl(lc->fd, F_SETFL, fcntl(lc->fd, F_GETFL) | O_NONBLOCK);
		while (lc->fd >= 0 && logcopy_read(lc) > 0)
			;
		if (lc->fd >= 0)
			close(lc->fd);
		lc->fd = -1;
	}
	kept = lc->past < LOG_TAIL_BYTES ? (size_t)lc->past : LOG_TAIL_BYTES;
	first = (lc->tail_at + LOG_TAIL_BYTES - kept) % LOG_TAIL_BYTES;
	if (lc->past > kept) {
		n = snprintf(note, sizeof(note),
			     "\n[%llu more bytes of this output left out: the log keeps the first %zu and the last %d]\n",
			     lc->past - kept, lc->max, LOG_TAIL_BYTES);
		if (n > 0 && write(lc->log_fd, note, (size_t)n) < 0)
			return;
	}
	/* the ring from its oldest byte on, in at most two pieces */
	if (kept && first + kept > LOG_TAIL_BYTES) {
		if (write(lc->log_fd, lc->tail + first, LOG_TAIL_BYTES - first) < 0 ||
		    write(lc->log_fd, lc->tail, first + kept - LOG_TAIL_BYTES) < 0)
			return;
	} else if (kept && write(lc->log_fd, lc->tail + first, kept) < 0) {
		return;
	}
}

/* Follow the running child PID until it ends (reaped here, its wait
 * status in *ST), a signal interrupts (bo_interrupted), its deadline
 * (O->timeout_ns after START, ns) passes or O->on_line asks to stop,
 * passing its stdout from *OUTFD (-1: none) to O->on_line line by line;
 * *OUTFD is closed and set to -1 at its end of file. RET->status is
 * left SPAWN_EXITED, or set to why it stopped. Returns 1 when the child
 * was reaped, 0 when it is still to be killed and reaped. */
static int watch_child(const struct spawn_opts *o, pid_t pid, int *outfd,
		       struct logcopy *lc, uint64_t start,
		       struct spawn_result *ret, int *st)
{
	struct linebuf lb = { 0 };
	uint64_t deadline = o->timeout_ns ? start + o->timeout_ns : 0;
	ssize_t n;
	int reaped = 0;

	if (o->on_line) {
		lb.max = o->max_line ? o->max_line : 65536;
		lb.buf = xmalloc(lb.max + 1);
		lb.buf[0] = '\0';
	}
	for (;;) {
		char chunk[16384];
		struct pollfd pfd[2] = { { .fd = *outfd, .events = POLLIN },
					 { .fd = lc->fd, .events = POLLIN } };
		int pr;

		if (bo_interrupted) {
			ret->status = SPAWN_INTERRUPTED;
			break;
		}
		if (deadline && bo_now_ns() > deadline) {
			ret->status = SPAWN_TIMEOUT;
			break;
		}
		if (*outfd < 0) {
			pid_t r = waitpid(pid, st, WNOHANG);

			if (r == pid) {
				reaped = 1;
				break;
			}
			if (lc->fd >= 0) {	/* its stderr, meanwhile */
				if (poll(&pfd[1], 1, 20) > 0)
					logcopy_read(lc);
			} else {
				usleep(20000);
			}
			continue;
		}
		pr = poll(pfd, 2, 100);
		if (pr <= 0)
			continue;
		if (pfd[1].revents)
			logcopy_read(lc);
		if (!pfd[0].revents)
			continue;
		n = read(*outfd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			n = 0;
		}
		if (n == 0) {
			/* EOF: flush a last unterminated line, then reap. */
			if (lb.len > 0 && !lb.discarding &&
			    o->on_line(o->line_ctx, lb.buf, lb.len, 0) < 0) {
				ret->status = SPAWN_STOPPED;
				break;
			}
			close(*outfd);
			*outfd = -1;
			continue;
		}
		if (lines_feed(&lb, chunk, (size_t)n, o) < 0) {
			ret->status = SPAWN_STOPPED;
			break;
		}
	}
	free(lb.buf);
	return reaped;
}

int spawn_run(const struct spawn_opts *o, struct spawn_result *ret,
	      bo_err *err)
{
	uint64_t start = bo_now_ns();
	pid_t pid = 0;		/* set by start_child */
	struct logcopy lc = { .fd = -1, .log_fd = o->log_fd,
			      .max = o->max_log_bytes };
	int outfd, st = 0, reaped;

	memset(ret, 0, sizeof(*ret));
	ret->status = SPAWN_SETUP_FAILED;
	if (start_child(o, &pid, &outfd, &lc.fd, err) < 0)
		return -1;
	ret->status = SPAWN_EXITED;
	reaped = watch_child(o, pid, &outfd, &lc, start, ret, &st);
	if (!reaped)
		st = kill_and_reap(pid);
	else
		kill(-pid, SIGKILL);
	if (outfd >= 0)
		close(outfd);
	logcopy_finish(&lc);
	ret->wall_ns = bo_now_ns() - start;
	if (ret->status == SPAWN_EXITED) {
		if (WIFEXITED(st)) {
			ret->exit_code = WEXITSTATUS(st);
		} else if (WIFSIGNALED(st)) {
			ret->status = SPAWN_SIGNALED;
			ret->term_signal = WTERMSIG(st);
		}
	}
	return 0;
}

const char *spawn_describe(const struct spawn_result *r,
			   const struct spawn_opts *o, char *buf, size_t len)
{
	switch (r->status) {
	case SPAWN_EXITED:
		snprintf(buf, len, "exited with status %d", r->exit_code);
		break;
	case SPAWN_SIGNALED:
		snprintf(buf, len, "killed by signal %d (%s)", r->term_signal,
			 strsignal(r->term_signal));
		break;
	case SPAWN_TIMEOUT:
		snprintf(buf, len, "timed out after %llu s",
			 (unsigned long long)(o->timeout_ns / 1000000000u));
		break;
	case SPAWN_INTERRUPTED:
		snprintf(buf, len, "interrupted");
		break;
	case SPAWN_STOPPED:
		snprintf(buf, len, "stopped after bad output");
		break;
	default:
		snprintf(buf, len, "could not be started");
		break;
	}
	return buf;
}
