/* t0020-spawn - the child runner: lines, exit codes, signals, timeouts,
 * over-long lines, interruption and start failures. */
#include "config.h"

#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "tests/tap.h"

struct lines {
	int n;
	int truncated;
	char last[128];
	int stop_at;
};

static int on_line(void *ctx, const char *line, size_t len, int truncated)
{
	struct lines *l = ctx;

	l->n++;
	l->truncated += truncated;
	snprintf(l->last, sizeof(l->last), "%.*s", (int)(len < 100 ? len : 100),
		 line);
	return l->stop_at && l->n >= l->stop_at ? -1 : 0;
}

static int run(const char *script, uint64_t timeout_ns, struct lines *l,
	       struct spawn_result *r, size_t max_line, bo_err *err)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct spawn_opts o = { .argv = argv, .timeout_ns = timeout_ns,
				.cpu = -1, .on_line = on_line, .line_ctx = l,
				.max_line = max_line, .log_fd = -1 };

	l->n = 0;
	l->truncated = 0;
	l->last[0] = '\0';
	return spawn_run(&o, r, err);
}

/* 1 when PID no longer runs: absent, or a zombie waiting for a reaper. */
static int dead_now(int pid)
{
	char path[64], buf[512];
	FILE *f;
	char *p;
	int dead = 1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		dead = p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
	fclose(f);
	return dead;
}

/* 1 when PID stops running within 2 s: a SIGKILL is delivered
 * asynchronously, so a process killed a moment ago may still show as
 * running. */
static int gone(int pid)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (dead_now(pid))
			return 1;
		usleep(10000);
	}
	return 0;
}

int main(void)
{
	struct spawn_result r;
	struct lines l = { 0 };
	bo_err err = { "" };
	uint64_t t0;

	tap_ok(run("printf 'a\\nb\\nc'", 0, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_EXITED && r.exit_code == 0 && l.n == 3 &&
	       strcmp(l.last, "c") == 0,
	       "passes every line, the last one unterminated too");
	tap_ok(run("exit 3", 0, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_EXITED && r.exit_code == 3,
	       "reports the exit status");
	tap_ok(run("kill -SEGV $$", 0, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_SIGNALED && r.term_signal == SIGSEGV,
	       "reports death by a signal");
	t0 = bo_now_ns();
	tap_ok(run("echo started; sleep 30", 300000000ull, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_TIMEOUT && l.n == 1 &&
	       bo_now_ns() - t0 < 5000000000ull,
	       "kills a child that outlives its timeout");
	t0 = bo_now_ns();
	tap_ok(run("trap '' TERM; sleep 30", 200000000ull, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_TIMEOUT && bo_now_ns() - t0 < 6000000000ull,
	       "kills a child that ignores SIGTERM");
	tap_ok(run("printf '%0100d\\nshort\\n' 0", 0, &l, &r, 10, &err) == 0 &&
	       l.truncated == 1 && l.n == 2 && strcmp(l.last, "short") == 0,
	       "passes an over-long line once, truncated, and goes on");
	l.stop_at = 2;
	tap_ok(run("while :; do echo y; done", 0, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_STOPPED && l.n == 2,
	       "stops the child when the line callback says so");
	l.stop_at = 0;
	{
		const char *argv[] = { "/nonexistent/benchorch-nothing", NULL };
		struct spawn_opts o = { .argv = argv, .cpu = -1, .log_fd = -1 };

		tap_ok(spawn_run(&o, &r, &err) < 0 &&
		       r.status == SPAWN_SETUP_FAILED &&
		       strstr(err.msg, "cannot run '/nonexistent/benchorch-nothing'"),
		       "a program that cannot start is an error (%s)", err.msg);
	}
	bo_interrupted = SIGINT;
	tap_ok(run("sleep 30", 0, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_INTERRUPTED,
	       "an interruption stops the child");
	bo_interrupted = 0;
	/* The grandchild's pid comes from its own line: without that line
	 * there is no pid to look at, and the point fails. */
	tap_ok(run("sleep 30 & echo $!; wait", 200000000ull, &l, &r, 0, &err) == 0 &&
	       r.status == SPAWN_TIMEOUT && l.n == 1 && atoi(l.last) > 1 &&
	       gone(atoi(l.last)),
	       "the child's whole process group is killed (pid '%s' gone)", l.last);
	/* A descriptor the caller left open without close-on-exec (a lock, a
	 * harness's pipe) does not reach the child: the child's shell lists
	 * its own descriptors, and its last line is the highest. Above 9,
	 * where a POSIX shell cannot name it, as mmdebstrap's hooks did. */
	{
		int fd = open("/dev/null", O_RDONLY), high = -1;

		if (fd >= 0) {
			high = dup2(fd, 12);
			close(fd);
		}
		tap_ok(high == 12 &&
		       run("ls /proc/$$/fd | sort -n", 0, &l, &r, 0, &err) == 0 &&
		       r.status == SPAWN_EXITED && r.exit_code == 0 && l.n >= 3 &&
		       atoi(l.last) < 12,
		       "a descriptor the caller left open is not inherited (highest '%s')",
		       l.last);
		if (high >= 0)
			close(high);
	}
	return tap_done();
}
