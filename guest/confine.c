/* guest/confine.c - benchorch-confine, the first program that runs inside
 * a rootfs: it gives up every privilege, then executes the guest.
 *
 *   benchorch-confine [--pid-ns] -- PROGRAM [ARG...]
 *   benchorch-confine --check
 *
 * The runner (orchestrator/run/runner.c) starts it as root, under
 * systemd-nspawn or in its chroot, in place of the guest. It is linked
 * statically, so nothing of the image (its loader, its libc) runs before the
 * privileges are gone: the first code of the image that runs is the guest's
 * loader, already as CONFINE_UID:CONFINE_GID, with no supplementary groups,
 * an empty capability bounding set, no permitted, effective, inheritable or
 * ambient capabilities, and no_new_privs set (so no setuid-root binary or
 * file capability of the image gives any of them back).
 *
 * --pid-ns (the chroot runner, which has unshared a PID namespace before
 * executing this): fork the namespace's PID 1, which mounts /proc for that
 * namespace, reaps every orphan, and runs PROGRAM as PID 2 (a crash of the
 * guest then kills it as anywhere else; PID 1 ignores most signals). This
 * process waits in the runner's namespace and ends the way PROGRAM ended:
 * the same exit status, or killed by the same signal. When PID 1 ends, the
 * kernel kills whatever is left in the namespace.
 *
 * --check: drop the privileges as for a guest and exit 0 when every one of
 * them is gone (the runner's check that a runner confines on this host,
 * run on no image's code).
 *
 * Errors: one line "benchorch-confine: ..." on stderr; exit status 126 when
 * a privilege cannot be dropped, 127 when PROGRAM cannot be executed, 2 for
 * a usage error. Depends on libc alone. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

/* The unprivileged user and group the guest runs as: the overflow ("nobody")
 * ids of Linux, which own nothing of the host's or the image's. */
#define CONFINE_UID 65534
#define CONFINE_GID 65534

#define EXIT_DROP 126
#define EXIT_EXEC 127

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, "benchorch-confine: ", 19) < 0 || write(2, buf, (size_t)n) < 0)
		return;
}

/* Every capability gone from *this* process's sets (capget, version 3: two
 * 32-bit words per set). Returns 1 when all of them are empty, 0 if not,
 * -1 when they cannot be read. */
static int caps_empty(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	return !(d[0].effective | d[0].permitted | d[0].inheritable |
		 d[1].effective | d[1].permitted | d[1].inheritable);
}

/* Empty the capability bounding set (needs CAP_SETPCAP; a capability
 * already outside the set is fine). Returns 0, or -1 with errno set. */
static int drop_bounding(void)
{
	int cap;

	for (cap = 0; cap < 64; cap++) {
		int in = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);

		if (in < 0 && errno == EINVAL)	/* past the kernel's last */
			break;
		if (in < 0)
			return -1;
		if (in == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return -1;
	}
	return 0;
}

/* Give up every privilege of this process, for good (see the head of this
 * file), and check that each is gone. Returns 0, or -1 after saying what
 * could not be dropped. */
static int drop_privileges(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0 && errno != EINVAL) {
		say("cannot clear keep-caps: %s", strerror(errno));
		return -1;
	}
	if (setgroups(0, NULL) < 0) {
		say("cannot drop the supplementary groups: %s", strerror(errno));
		return -1;
	}
	if (setresgid(CONFINE_GID, CONFINE_GID, CONFINE_GID) < 0) {
		say("cannot change to group %d: %s", CONFINE_GID,
		    strerror(errno));
		return -1;
	}
	if (drop_bounding() < 0) {
		say("cannot empty the capability bounding set: %s",
		    strerror(errno));
		return -1;
	}
	/* kernels before 4.3 have no ambient set */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL) {
		say("cannot clear the ambient capabilities: %s", strerror(errno));
		return -1;
	}
	if (setresuid(CONFINE_UID, CONFINE_UID, CONFINE_UID) < 0) {
		say("cannot change to user %d: %s", CONFINE_UID, strerror(errno));
		return -1;
	}
	/* the change of uid emptied the permitted and effective sets, not
	 * the inheritable one */
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capset, &h, d) < 0) {
		say("cannot clear the capabilities: %s", strerror(errno));
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		say("cannot set no_new_privs: %s", strerror(errno));
		return -1;
	}
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0 ||
	    ru != CONFINE_UID || eu != CONFINE_UID || su != CONFINE_UID ||
	    rg != CONFINE_GID || eg != CONFINE_GID || sg != CONFINE_GID ||
	    getgroups(0, NULL) != 0 || caps_empty() != 1 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1 ||
	    prctl(PR_CAPBSET_READ, 0, 0, 0, 0) != 0) {
		say("a privilege is still there after dropping them all");
		return -1;
	}
	return 0;
}

static int drop_and_exec(char **argv)
{
	if (drop_privileges() < 0)
		return EXIT_DROP;
	execv(argv[0], argv);
	say("cannot run '%s': %s", argv[0], strerror(errno));
	return EXIT_EXEC;
}

/* End this process the way wait status ST says a child ended: exit with
 * its status, or die of its signal (without a core file). */
static int mirror(int st)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t all;
	int sig;

	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (!WIFSIGNALED(st))
		return EXIT_EXEC;
	sig = WTERMSIG(st);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigaddset(&all, sig);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	raise(sig);
	return 128 + sig;
}

/* PID 1 of the namespace: mount its /proc, run ARGV as PID 2, reap every
 * process until that one ends, then write its wait status on FD. */
static void pid1(char **argv, int fd)
{
	pid_t guest, w;
	int st = 0, gst = -1;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0) {
		say("cannot mount /proc: %s", strerror(errno));
		_exit(EXIT_DROP);
	}
	guest = fork();
	if (guest < 0) {
		say("cannot fork: %s", strerror(errno));
		_exit(EXIT_EXEC);
	}
	if (guest == 0) {
		close(fd);
		_exit(drop_and_exec(argv));
	}
	for (;;) {
		w = wait(&st);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		if (w == guest) {
			gst = st;
			break;
		}
	}
	if (gst != -1 && write(fd, &gst, sizeof(gst)) != (ssize_t)sizeof(gst))
		_exit(EXIT_EXEC);
	_exit(0);
}

static int run_pid_ns(char **argv)
{
	int p[2], st = 0, gst;
	pid_t init;
	ssize_t n;

	if (pipe2(p, O_CLOEXEC) < 0) {
		say("cannot make a pipe: %s", strerror(errno));
		return EXIT_EXEC;
	}
	init = fork();
	if (init < 0) {
		say("cannot fork: %s", strerror(errno));
		return EXIT_EXEC;
	}
	if (init == 0) {
		close(p[0]);
		pid1(argv, p[1]);
	}
	close(p[1]);
	/* the runner's SIGTERM reaches the guest itself (one process
	 * group); this process waits for the end it chooses, and a SIGKILL
	 * ends all (PID 1 dies with this process: PR_SET_PDEATHSIG) */
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while (waitpid(init, &st, 0) < 0)
		if (errno != EINTR)
			return EXIT_EXEC;
	n = read(p[0], &gst, sizeof(gst));
	if (n == (ssize_t)sizeof(gst))
		return mirror(gst);
	return mirror(st);	/* PID 1 itself failed, or was killed */
}

int main(int argc, char **argv)
{
	int i = 1, pid_ns = 0;

	if (argc == 2 && strcmp(argv[1], "--check") == 0)
		return drop_privileges() < 0 ? EXIT_DROP : 0;
	if (i < argc && strcmp(argv[i], "--pid-ns") == 0) {
		pid_ns = 1;
		i++;
	}
	if (i + 1 >= argc || strcmp(argv[i], "--") != 0 || argv[i + 1][0] != '/') {
		say("usage: benchorch-confine [--pid-ns] -- /PROGRAM [ARG...] | --check");
		return 2;
	}
	return pid_ns ? run_pid_ns(argv + i + 1) : drop_and_exec(argv + i + 1);
}
