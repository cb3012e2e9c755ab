/* runner.c - run the guest under systemd-nspawn or chroot. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/image.h"
#include "orchestrator/run/runner.h"

#define MAX_ARGS 64

int runner_kind_parse(const char *s, enum runner_kind *ret, bo_err *err)
{
	if (strcmp(s, "nspawn") == 0)
		*ret = RUNNER_NSPAWN;
	else if (strcmp(s, "chroot") == 0)
		*ret = RUNNER_CHROOT;
	else if (strcmp(s, "auto") == 0)
		*ret = RUNNER_AUTO;
	else
		return bo_err_set(err, "unknown runner '%s' (known: auto, nspawn, chroot)",
				  s);
	return 0;
}

int runner_default_cpu(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &set))
			return i;
	return -1;
}

/* Is PROG an executable file in PATH? */
static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	int found = 0;

	copy = xstrdup(path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", dir, prog);

		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

struct line_ctx {
	const struct runner_opts *o;
	struct guest_output *out;
	size_t lineno;
	bo_err err;
	int failed;
	uint64_t hello_ns, done_ns;	/* when hello and done arrived
					 * (CLOCK_MONOTONIC); 0 = not yet */
};

static int on_line(void *vctx, const char *line, size_t len, int truncated)
{
	struct line_ctx *c = vctx;

	c->lineno++;
	if (truncated) {
		bo_err_set(&c->err, "guest output line %zu: longer than %d bytes",
			   c->lineno, GUEST_MAX_LINE);
		c->failed = 1;
		return -1;
	}
	if (c->o->parse_line) {
		c->out->have_hello = 1;
		if (c->o->parse_line(c->o->parse_ctx, line, len, &c->err) < 0) {
			c->failed = 1;
			return -1;
		}
		return 0;
	}
	if (guest_output_add_line(c->out, line, len, c->lineno, &c->err) < 0) {
		c->failed = 1;
		return -1;
	}
	if (c->out->have_hello && !c->hello_ns)
		c->hello_ns = bo_now_ns();
	if (c->out->have_done && !c->done_ns)
		c->done_ns = bo_now_ns();
	if (c->o->on_output)
		c->o->on_output(c->o->output_ctx, c->out);
	return 0;
}

/* chroot setup, run in the child inside its private mount namespace: the
 * rootfs bound read-only onto itself, tmpfs on /run and /dev, the guest
 * bound read-only, /proc mounted, then chroot. */
struct chroot_ctx {
	const char *rootfs;
	const char *guest;
};

static int bind_file(const char *src, const char *dst, int ro, bo_err *err)
{
	int fd = open(dst, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return bo_err_set(err, "cannot create '%s': %s", dst,
				  strerror(errno));
	close(fd);
	/* "none" for the source and type the kernel ignores in bind mounts
	 * and remounts (NULL would do, but valgrind reads both as strings) */
	if (mount(src, dst, "none", MS_BIND, NULL) < 0)
		return bo_err_set(err, "cannot bind '%s' on '%s': %s", src, dst,
				  strerror(errno));
	if (ro && mount("none", dst, "none", MS_BIND | MS_REMOUNT | MS_RDONLY |
			MS_NOSUID | MS_NODEV, NULL) < 0)
		return bo_err_set(err, "cannot make '%s' read-only: %s", dst,
				  strerror(errno));
	return 0;
}

static int chroot_setup(void *vctx, bo_err *err)
{
	static const char *const devs[] = { "null", "zero", "full", "random",
					    "urandom", NULL };
	struct chroot_ctx *c = vctx;
	char *p;
	int i, rc = -1;

	if (mount(c->rootfs, c->rootfs, "none", MS_BIND | MS_REC, NULL) < 0 ||
	    mount("none", c->rootfs, "none", MS_BIND | MS_REMOUNT | MS_RDONLY,
		  NULL) < 0)
		return bo_err_set(err, "cannot bind '%s' read-only: %s",
				  c->rootfs, strerror(errno));
	p = xasprintf("%s/run", c->rootfs);
	if (mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0) {
		bo_err_set(err, "cannot mount tmpfs on '%s': %s", p,
			   strerror(errno));
		goto out;
	}
	free(p);
	p = xasprintf("%s/run/benchorch", c->rootfs);
	if (mkdir(p, 0755) < 0) {
		bo_err_set(err, "cannot create '%s': %s", p, strerror(errno));
		goto out;
	}
	free(p);
	p = xasprintf("%s%s", c->rootfs, RUNNER_GUEST_PATH);
	if (bind_file(c->guest, p, 1, err) < 0)
		goto out;
	free(p);
	p = xasprintf("%s/dev", c->rootfs);
	if (mount("tmpfs", p, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755") < 0) {
		bo_err_set(err, "cannot mount tmpfs on '%s': %s", p,
			   strerror(errno));
		goto out;
	}
	for (i = 0; devs[i]; i++) {
		char *src = xasprintf("/dev/%s", devs[i]);
		char *dst = xasprintf("%s/dev/%s", c->rootfs, devs[i]);
		int r = bind_file(src, dst, 0, err);

		free(src);
		free(dst);
		if (r < 0)
			goto out;
	}
	free(p);
	p = xasprintf("%s/proc", c->rootfs);
	if (mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) <
	    0) {
		bo_err_set(err, "cannot mount proc on '%s': %s", p,
			   strerror(errno));
		goto out;
	}
	if (chroot(c->rootfs) < 0 || chdir("/") < 0) {
		bo_err_set(err, "cannot chroot to '%s': %s", c->rootfs,
			   strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(p);
	return rc;
}

char *runner_machine_name(const char *name, char *buf, size_t len)
{
	size_t i, n;

	snprintf(buf, len < 65 ? len : 65, "benchorch-%s", name);
	n = strlen(buf);
	for (i = 0; i < n; i++)
		if (!((buf[i] >= 'a' && buf[i] <= 'z') ||
		      (buf[i] >= 'A' && buf[i] <= 'Z') ||
		      (buf[i] >= '0' && buf[i] <= '9') || buf[i] == '-'))
			buf[i] = '-';
	while (n > 0 && buf[n - 1] == '-')	/* no trailing '-' */
		buf[--n] = '\0';
	return buf;
}

/* Build the argv for KIND into args (pointers into o and bufs). */
static void build_argv(const struct runner_opts *o, enum runner_kind kind,
		       const char **args, char *bind, size_t bindlen,
		       char *machine, size_t machinelen)
{
	size_t n = 0, i;

	if (kind == RUNNER_NSPAWN) {
		snprintf(bind, bindlen, "--bind-ro=%s:%s", o->guest,
			 RUNNER_GUEST_PATH);
		args[n++] = "systemd-nspawn";
		if (o->machine) {
			char name[80];

			snprintf(machine, machinelen, "--machine=%s",
				 runner_machine_name(o->machine, name,
						     sizeof(name)));
			args[n++] = machine;
		}
		/* not --quiet: it would hide "terminated by signal SEGV" */
		args[n++] = "--register=no";
		/* nspawn gives the container its own environment, not
		 * ours (see spawn_env_guest): the same PATH and LC_ALL as
		 * under chroot, over nspawn's own */
		args[n++] = "--setenv=PATH=/usr/sbin:/usr/bin:/sbin:/bin";
		args[n++] = "--setenv=LC_ALL=C";
		args[n++] = "--keep-unit";
		args[n++] = "--private-network";
		args[n++] = "--read-only";
		args[n++] = "--console=pipe";
		/* not PID 1: a crash then kills the guest as anywhere else */
		args[n++] = "--as-pid2";
		args[n++] = "-D";
		args[n++] = o->rootfs;
		args[n++] = bind;
		args[n++] = "--";
	}
	args[n++] = RUNNER_GUEST_PATH;
	for (i = 0; o->guest_args && o->guest_args[i] && n < MAX_ARGS - 1; i++)
		args[n++] = o->guest_args[i];
	args[n] = NULL;
}

/* The prefix of every line the guest itself writes on stderr (its usage
 * errors and other complaints, guest/options.c and guest/tools-work.c). */
#define GUEST_SAYS "benchorch-guest: "

/* The last line the guest wrote of its own (one beginning GUEST_SAYS) in
 * the log on FD from byte FROM on, at most LEN - 1 bytes of it into BUF.
 * Returns BUF, or NULL when there is none or the log cannot be read (FD
 * -1 or not open for reading, FROM -1). */
static char *guest_complaint(int fd, long long from, char *buf, size_t len)
{
	char chunk[16384];
	long long end;
	ssize_t n;
	char *line, *found = NULL, *save = NULL;

	if (fd < 0 || from < 0 || len == 0)
		return NULL;
	end = (long long)lseek(fd, 0, SEEK_END);
	if (end <= from)
		return NULL;
	if (end - from > (long long)sizeof(chunk) - 1)	/* its tail */
		from = end - (long long)sizeof(chunk) + 1;
	n = pread(fd, chunk, (size_t)(end - from), (off_t)from);
	if (n <= 0)
		return NULL;
	chunk[n] = '\0';
	for (line = strtok_r(chunk, "\r\n", &save); line;
	     line = strtok_r(NULL, "\r\n", &save))
		if (!strncmp(line, GUEST_SAYS, strlen(GUEST_SAYS)) &&
		    line[strlen(GUEST_SAYS)] != '\0' &&
		    strncasecmp(line + strlen(GUEST_SAYS), "try '", 5))
			found = line;	/* not its hint "try '... --help'" */
	if (!found)
		return NULL;
	snprintf(buf, len, "%s", found);
	return buf;
}

static int run_once(const struct runner_opts *o, enum runner_kind kind,
		    struct guest_output *out, struct spawn_result *res,
		    long long log_from, bo_err *err)
{
	const char *args[MAX_ARGS];
	char bind[4096], machine[96];
	struct chroot_ctx cc = { o->rootfs, o->guest };
	struct line_ctx lc = { .o = o, .out = out };
	struct spawn_opts so = {
		.argv = args,
		.timeout_ns = o->timeout_ns,
		.cpu = o->cpu,
		.on_line = on_line,
		.line_ctx = &lc,
		.max_line = GUEST_MAX_LINE,
		.log_fd = o->log_fd,
		/* an allowlist under every runner: nothing the caller
		 * exported reaches nspawn or the guest */
		.envp = spawn_env_guest(),
	};
	char how[128], said[512];

	build_argv(o, kind, args, bind, sizeof(bind), machine, sizeof(machine));
	if (kind == RUNNER_CHROOT) {
		if (rootfs_make_path(o->rootfs, "run", 0, err) < 0 ||
		    rootfs_make_path(o->rootfs, "dev", 0, err) < 0 ||
		    rootfs_make_path(o->rootfs, "proc", 0, err) < 0)
			return -1;
		so.new_mount_ns = 1;
		so.setup = chroot_setup;
		so.setup_ctx = &cc;
	}
	if (spawn_run(&so, res, err) < 0)
		return -1;
	if (lc.failed) {
		*err = lc.err;
		return -1;
	}
	if (res->status == SPAWN_INTERRUPTED)
		return bo_err_set(err, "interrupted");
	if (res->status != SPAWN_EXITED || res->exit_code != 0) {
		spawn_describe(res, &so, how, sizeof(how));
		if (out->have_hello && !out->have_done)
			return bo_err_set(err, "guest %s after %zu lines of output",
					  how, out->lines);
		/* before any output: the guest's own reason, when it gave
		 * one (status 2: it rejected its arguments) */
		if (res->status == SPAWN_EXITED && !out->have_hello &&
		    guest_complaint(o->log_fd, log_from, said, sizeof(said)))
			return bo_err_set(err, "guest %s%s: %s", how,
					  res->exit_code == 2 ?
					  " (a usage error)" : "", said);
		if (res->status == SPAWN_EXITED && res->exit_code == 2 &&
		    !out->have_hello)
			return bo_err_set(err, "guest %s (a usage error)", how);
		return bo_err_set(err, "guest %s", how);
	}
	if (o->parse_line)	/* the caller checks its own output */
		return 0;
	if (guest_output_finish(out, err) < 0)
		return -1;
	/* the guest's clock against ours: its times are only as good as
	 * its clock */
	return guest_output_check_clock(out, (int64_t)(lc.done_ns - lc.hello_ns),
					err);
}

/* Where the log on FD ends now, or -1. */
static long long log_end(int fd)
{
	return fd >= 0 ? (long long)lseek(fd, 0, SEEK_END) : -1;
}

int runner_run(const struct runner_opts *o, struct guest_output *out,
	       const char **ret_used, struct spawn_result *ret_res,
	       struct runner_fallback *ret_fb, bo_err *err)
{
	struct stat st;
	enum runner_kind kind = o->kind;
	char said[512];
	long long from;

	if (ret_fb)
		memset(ret_fb, 0, sizeof(*ret_fb));
	if (stat(o->guest, &st) < 0 || !S_ISREG(st.st_mode))
		return bo_err_set(err, "guest binary '%s' not found", o->guest);
	if (kind == RUNNER_AUTO)
		kind = in_path("systemd-nspawn") ? RUNNER_NSPAWN : RUNNER_CHROOT;
	else if (kind == RUNNER_NSPAWN && !in_path("systemd-nspawn"))
		return bo_err_set(err, "systemd-nspawn not found: install the systemd-container package or use --runner chroot");
	*ret_used = kind == RUNNER_NSPAWN ? "nspawn" : "chroot";
	from = log_end(o->log_fd);
	if (run_once(o, kind, out, ret_res, from, err) == 0)
		return 0;
	/* nspawn that failed before the guest said anything: fall back.
	 * nspawn fails with status 1 (EXIT_FAILURE) and passes any other
	 * status on from the guest, so another status (2: the guest's
	 * usage error, 255: it died of a signal) is the guest's own end,
	 * as is status 1 when the guest said why in the log. */
	if (o->kind == RUNNER_AUTO && kind == RUNNER_NSPAWN &&
	    !out->have_hello && !bo_interrupted &&
	    ret_res->status == SPAWN_EXITED && ret_res->exit_code == 1 &&
	    !guest_complaint(o->log_fd, from, said, sizeof(said))) {
		if (ret_fb) {
			ret_fb->happened = 1;
			ret_fb->why = *err;
			ret_fb->log_from = from;
			ret_fb->log_to = log_end(o->log_fd);
		}
		guest_output_release(out);
		*ret_used = "chroot";
		return run_once(o, RUNNER_CHROOT, out, ret_res,
				log_end(o->log_fd), err);
	}
	return -1;
}
