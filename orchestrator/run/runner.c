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
#include <sys/syscall.h>
#include <unistd.h>

#include "images/image.h"
#include "lib/messages.h"
#include "lib/paths.h"
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
 * rootfs bound read-only (nosuid, nodev) onto itself, tmpfs on /run, /tmp
 * and /dev, the guest and the confiner bound read-only under /run/benchorch,
 * then new PID, network, IPC and UTS namespaces, and the rootfs made the
 * root of the mount namespace (pivot_root). The
 * confiner (guest/confine.c, --pid-ns) mounts /proc as the new PID
 * namespace's PID 1 and drops every privilege before the image's code
 * runs. */
struct chroot_ctx {
	const char *rootfs;
	const char *guest;
	const char *confine;
	const struct runner_opts *o;	/* its binds */
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

/* Bind the host directory SRC read-only (nosuid, nodev) on the new
 * directory DST, and its parents under ROOTFS/run (a tmpfs here). */
static int bind_dir_ro(const char *src, const char *dst, bo_err *err)
{
	if (bo_mkdir_p(dst, err) < 0)
		return -1;
	if (mount(src, dst, "none", MS_BIND, NULL) < 0)
		return bo_err_set(err, "cannot bind '%s' on '%s': %s", src, dst,
				  strerror(errno));
	if (mount("none", dst, "none", MS_BIND | MS_REMOUNT | MS_RDONLY |
		  MS_NOSUID | MS_NODEV, NULL) < 0)
		return bo_err_set(err, "cannot make '%s' read-only: %s", dst,
				  strerror(errno));
	return 0;
}

/* Mount a tmpfs of MODE (octal string) with FLAGS on ROOTFS/DIR. */
static int mount_tmpfs(const char *rootfs, const char *dir,
		       unsigned long flags, const char *mode, bo_err *err)
{
	char *p = xasprintf("%s/%s", rootfs, dir), *opts = xasprintf("mode=%s", mode);
	int rc = 0;

	if (mount("tmpfs", p, "tmpfs", flags, opts) < 0)
		rc = bo_err_set(err, "cannot mount tmpfs on '%s': %s", p,
				strerror(errno));
	free(p);
	free(opts);
	return rc;
}

/* The device nodes the chroot's /dev holds, bound from the host's. */
static int bind_devices(const char *rootfs, bo_err *err)
{
	static const char *const devs[] = { "null", "zero", "full", "random",
					    "urandom", NULL };
	int i;

	for (i = 0; devs[i]; i++) {
		char *src = xasprintf("/dev/%s", devs[i]);
		char *dst = xasprintf("%s/dev/%s", rootfs, devs[i]);
		int r = bind_file(src, dst, 0, err);

		free(src);
		free(dst);
		if (r < 0)
			return -1;
	}
	return 0;
}

static int chroot_setup(void *vctx, bo_err *err)
{
	struct chroot_ctx *c = vctx;
	char *p;
	int rc = -1;

	if (mount(c->rootfs, c->rootfs, "none", MS_BIND | MS_REC, NULL) < 0 ||
	    mount("none", c->rootfs, "none", MS_BIND | MS_REMOUNT | MS_RDONLY |
		  MS_NOSUID | MS_NODEV, NULL) < 0)
		return bo_err_set(err, "cannot bind '%s' read-only: %s",
				  c->rootfs, strerror(errno));
	if (mount_tmpfs(c->rootfs, "run", MS_NOSUID | MS_NODEV, "0755", err) < 0 ||
	    mount_tmpfs(c->rootfs, "tmp", MS_NOSUID | MS_NODEV, "1777", err) < 0 ||
	    mount_tmpfs(c->rootfs, "dev", MS_NOSUID | MS_NOEXEC, "0755", err) < 0 ||
	    bind_devices(c->rootfs, err) < 0)
		return -1;
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
	p = xasprintf("%s%s", c->rootfs, RUNNER_CONFINE_PATH);
	if (bind_file(c->confine, p, 1, err) < 0)
		goto out;
	for (size_t i = 0; i < c->o->nbinds; i++) {
		free(p);
		p = xasprintf("%s%s", c->rootfs, c->o->bind_dst[i]);
		if (bind_dir_ro(c->o->bind_src[i], p, err) < 0)
			goto out;
	}
	/* the confiner becomes PID 1 of the new PID namespace (its first
	 * child) and mounts /proc there */
	if (unshare(CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) <
	    0) {
		bo_err_set(err, "cannot make the guest's namespaces: %s",
			   strerror(errno));
		goto out;
	}
	/* the rootfs becomes the root of the mount namespace, the host's
	 * root is detached (pivot_root(2) with new and old root the same
	 * directory): no way back up, unlike a chroot, and a user namespace
	 * (the tool mode's, guest/tools-work.c) can be made inside, which
	 * the kernel refuses in a chroot */
	if (chdir(c->rootfs) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0 || chdir("/") < 0) {
		bo_err_set(err, "cannot make '%s' the root: %s", c->rootfs,
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

/* The capabilities systemd-nspawn takes away from the container (every
 * one it would give, and more), all but CAP_SETUID, CAP_SETGID and
 * CAP_SETPCAP, which only the confiner uses, to drop them and every other
 * privilege before the image's code runs (guest/confine.c). Names as
 * capabilities(7) spells them. */
#define NSPAWN_DROP_CAPS "--drop-capability=" \
	"CAP_AUDIT_CONTROL,CAP_AUDIT_READ,CAP_AUDIT_WRITE,CAP_BLOCK_SUSPEND," \
	"CAP_CHOWN,CAP_DAC_OVERRIDE,CAP_DAC_READ_SEARCH,CAP_FOWNER," \
	"CAP_FSETID,CAP_IPC_LOCK,CAP_IPC_OWNER,CAP_KILL,CAP_LEASE," \
	"CAP_LINUX_IMMUTABLE,CAP_MAC_ADMIN,CAP_MAC_OVERRIDE,CAP_MKNOD," \
	"CAP_NET_ADMIN,CAP_NET_BIND_SERVICE,CAP_NET_BROADCAST,CAP_NET_RAW," \
	"CAP_SETFCAP,CAP_SYSLOG,CAP_SYS_ADMIN,CAP_SYS_BOOT,CAP_SYS_CHROOT," \
	"CAP_SYS_MODULE,CAP_SYS_NICE,CAP_SYS_PACCT,CAP_SYS_PTRACE," \
	"CAP_SYS_RAWIO,CAP_SYS_RESOURCE,CAP_SYS_TIME,CAP_SYS_TTY_CONFIG," \
	"CAP_WAKE_ALARM"

/* The systemd-nspawn options of every container, into args from *n on:
 * MACHINE ("--machine=NAME", or NULL) and ROOTFS, read-only. The caller
 * adds its --bind-ro options, "--" and the command. */
static void nspawn_options(const char **args, size_t *n, const char *rootfs,
			   const char *machine)
{
	args[(*n)++] = "systemd-nspawn";
	if (machine)
		args[(*n)++] = machine;
	/* not --quiet: it would hide "terminated by signal SEGV" */
	args[(*n)++] = "--register=no";
	/* nspawn gives the container its own environment, not ours (see
	 * spawn_env_guest): the same PATH and LC_ALL as under chroot, over
	 * nspawn's own */
	args[(*n)++] = "--setenv=PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	args[(*n)++] = "--setenv=LC_ALL=C";
	args[(*n)++] = "--keep-unit";
	args[(*n)++] = "--private-network";
	args[(*n)++] = "--read-only";
	args[(*n)++] = "--console=pipe";
	/* nothing in the container gains a privilege by exec (a setuid
	 * binary, file capabilities), and it starts with only those the
	 * confiner needs to give up the rest */
	args[(*n)++] = "--no-new-privileges=yes";
	args[(*n)++] = NSPAWN_DROP_CAPS;
	/* not PID 1: a crash then kills the guest as anywhere else */
	args[(*n)++] = "--as-pid2";
	args[(*n)++] = "-D";
	args[(*n)++] = rootfs;
}

/* Build the argv for KIND into args (pointers into o and bufs): the
 * confiner, which drops every privilege and then executes the guest. */
static void build_argv(const struct runner_opts *o, enum runner_kind kind,
		       const char *confine, const char **args, char *bind,
		       char *bind2, char (*bindn)[4096], size_t bindlen,
		       char *machine, size_t machinelen)
{
	size_t n = 0, i;

	if (kind == RUNNER_NSPAWN) {
		const char *m = NULL;

		if (o->machine) {
			char name[80];

			snprintf(machine, machinelen, "--machine=%s",
				 runner_machine_name(o->machine, name,
						     sizeof(name)));
			m = machine;
		}
		nspawn_options(args, &n, o->rootfs, m);
		snprintf(bind, bindlen, "--bind-ro=%s:%s", o->guest,
			 RUNNER_GUEST_PATH);
		snprintf(bind2, bindlen, "--bind-ro=%s:%s", confine,
			 RUNNER_CONFINE_PATH);
		args[n++] = bind;
		args[n++] = bind2;
		for (i = 0; i < o->nbinds && i < RUNNER_MAX_BINDS; i++) {
			snprintf(bindn[i], bindlen, "--bind-ro=%s:%s",
				 o->bind_src[i], o->bind_dst[i]);
			args[n++] = bindn[i];
		}
		args[n++] = "--";
	}
	args[n++] = RUNNER_CONFINE_PATH;
	if (kind == RUNNER_CHROOT)	/* nspawn brings a PID namespace */
		args[n++] = "--pid-ns";
	args[n++] = "--";
	args[n++] = RUNNER_GUEST_PATH;
	for (i = 0; o->guest_args && o->guest_args[i] && n < MAX_ARGS - 1; i++)
		args[n++] = o->guest_args[i];
	args[n] = NULL;
}

/* The prefixes of the lines the guest and the confiner write on stderr
 * of their own (their usage errors and other complaints: guest/options.c,
 * guest/tools-work.c, guest/confine.c). */
static const char *const own_prefixes[] = { "benchorch-guest: ",
					    "benchorch-confine: ", NULL };

/* The length of the prefix of LINE when it is one of own_prefixes and
 * something follows it, else 0. */
static size_t own_prefix(const char *line)
{
	size_t i, n;

	for (i = 0; own_prefixes[i]; i++) {
		n = strlen(own_prefixes[i]);
		if (!strncmp(line, own_prefixes[i], n) && line[n] != '\0')
			return n;
	}
	return 0;
}

/* The last line the guest or the confiner wrote of its own (one beginning
 * with one of own_prefixes) in the log on FD from byte FROM on, at most
 * LEN - 1 bytes of it into BUF. Returns BUF, or NULL when there is none or
 * the log cannot be read (FD -1 or not open for reading, FROM -1). */
static char *guest_complaint(int fd, long long from, char *buf, size_t len)
{
	char chunk[16384];
	long long end;
	ssize_t n;
	char *line, *found = NULL, *save = NULL;
	size_t pre;

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
		if ((pre = own_prefix(line)) &&
		    strncasecmp(line + pre, "try '", 5))
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
	char bind[4096], bind2[4096], machine[96];
	char bindn[RUNNER_MAX_BINDS][4096];
	char *confine = paths_confine();
	struct chroot_ctx cc = { o->rootfs, o->guest, confine, o };
	struct line_ctx lc = { .o = o, .out = out };
	struct spawn_opts so = {
		.argv = args,
		.timeout_ns = o->timeout_ns,
		.cpu = o->cpu,
		.on_line = on_line,
		.line_ctx = &lc,
		.max_line = GUEST_MAX_LINE,
		.log_fd = o->log_fd,
		.max_log_bytes = RUNNER_MAX_LOG_BYTES,
		/* an allowlist under every runner: nothing the caller
		 * exported reaches nspawn or the guest */
		.envp = spawn_env_guest(),
		.in_fd = o->in_fd,
	};
	char how[128], said[512];
	int rc;

	build_argv(o, kind, confine, args, bind, bind2, bindn, sizeof(bind),
		   machine, sizeof(machine));
	if (kind == RUNNER_CHROOT) {
		if (rootfs_make_path(o->rootfs, "run", 0, err) < 0 ||
		    rootfs_make_path(o->rootfs, "tmp", 0, err) < 0 ||
		    rootfs_make_path(o->rootfs, "dev", 0, err) < 0 ||
		    rootfs_make_path(o->rootfs, "proc", 0, err) < 0) {
			free(confine);
			return -1;
		}
		so.new_mount_ns = 1;
		so.setup = chroot_setup;
		so.setup_ctx = &cc;
	}
	rc = spawn_run(&so, res, err);
	free(confine);
	if (rc < 0)
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

/* nspawn's own chatter, printed on every start and exit: not worth
 * quoting (its "terminated by signal SEGV" is). */
static const char *const log_noise[] = {
	"Attempted to remove disk file system",
	"Spawning container ",
	"Press ^] three times",
	" exited successfully.",
	" failed with error code ",
	"Try 'benchorch-guest --help'",	/* the hint after its usage error */
	NULL,
};

/* The last line of the log at PATH, from byte FROM on (what one
 * invocation wrote) up to byte TO (-1: the end), worth quoting in an error
 * (nspawn's "terminated by signal" or the guest's own complaint), or NULL.
 * Caller frees. */
char *runner_log_last_line(const char *path, off_t from, off_t to)
{
	char *buf, *line, *save = NULL, *last = NULL;
	size_t len;
	bo_err err;

	if (bo_read_file(path, 1u << 20, &buf, &len, &err) < 0)
		return NULL;
	if (to >= 0 && (size_t)to < len)
		buf[len = (size_t)to] = '\0';
	if (from < 0 || (size_t)from > len)
		from = (off_t)len;
	for (line = strtok_r(buf + from, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t i;

		for (i = 0; log_noise[i]; i++)
			if (strstr(line, log_noise[i]))
				break;
		if (!log_noise[i] && line[strspn(line, " \t\r")] != '\0')
			last = line;
	}
	last = last ? xasprintf("%.200s", last) : NULL;
	free(buf);
	return last;
}


/* The directories systemd-nspawn wants in a tree it starts (with
 * --read-only it cannot make them). */
static const char *const probe_dirs[] = { "usr", "tmp", "run", "etc", "proc",
					  "dev", "sys", "var", "root", NULL };

/* Start one container of the benchmark's kind (nspawn_options) on a tree
 * of nothing but empty directories, running the confiner's --check: our
 * own code, none of any image's. Returns 1 when it exits 0, 0 with why set
 * (nspawn's last line) otherwise; -1 when interrupted. */
static int nspawn_probe(bo_err *why)
{
	char dir[] = "/tmp/benchorch-nspawn-XXXXXX", how[128], bind[4096];
	const char *args[MAX_ARGS];
	char *root, *logpath, *confine, *last;
	struct spawn_result res;
	struct spawn_opts so = { .argv = args, .timeout_ns = 60000000000ull,
				 .cpu = -1, .max_log_bytes = RUNNER_MAX_LOG_BYTES,
				 .envp = spawn_env_guest() };
	size_t n = 0, i;
	bo_err e;
	int ok = 0, rc;

	if (!mkdtemp(dir)) {
		bo_err_set(why, "cannot create a directory in /tmp: %s",
			   strerror(errno));
		return 0;
	}
	root = xasprintf("%s/root", dir);
	logpath = xasprintf("%s/log", dir);
	confine = paths_confine();
	if (mkdir(root, 0755) < 0) {
		bo_err_set(why, "cannot create '%s': %s", root, strerror(errno));
		goto out;
	}
	for (i = 0; probe_dirs[i]; i++) {
		char *p = xasprintf("%s/%s", root, probe_dirs[i]);

		rc = mkdir(p, 0755);
		free(p);
		if (rc < 0) {
			bo_err_set(why, "cannot create a directory in '%s': %s",
				   root, strerror(errno));
			goto out;
		}
	}
	so.log_fd = open(logpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (so.log_fd < 0) {
		bo_err_set(why, "cannot create '%s': %s", logpath, strerror(errno));
		goto out;
	}
	nspawn_options(args, &n, root, NULL);
	snprintf(bind, sizeof(bind), "--bind-ro=%s:%s", confine,
		 RUNNER_CONFINE_PATH);
	args[n++] = bind;
	args[n++] = "--";
	args[n++] = RUNNER_CONFINE_PATH;
	args[n++] = "--check";
	args[n] = NULL;
	rc = spawn_run(&so, &res, &e);
	close(so.log_fd);
	if (rc < 0) {
		*why = e;
	} else if (res.status == SPAWN_INTERRUPTED) {
		ok = -1;
	} else if (res.status == SPAWN_EXITED && res.exit_code == 0) {
		ok = 1;
	} else {
		last = runner_log_last_line(logpath, 0, -1);
		bo_err_set(why, "systemd-nspawn %s%s%s",
			   spawn_describe(&res, &so, how, sizeof(how)),
			   last ? ": " : "", last ? last : "");
		free(last);
	}
out:
	(void)bo_rm_rf(dir, &e);	/* a leftover says nothing of nspawn */
	free(root);
	free(logpath);
	free(confine);
	return ok;
}

/* Which runner AUTO means on this host: nspawn when it is installed and
 * starts a confined container (nspawn_probe, once per process), else
 * chroot, with the reason in *ret_fb when this call made the choice.
 * Never decided by what an image's guest does. Returns the kind, or -1
 * when interrupted. */
static int auto_kind(struct runner_fallback *ret_fb)
{
	static int known = -1;	/* the kind chosen, -1 = not yet */
	bo_err why;
	int r;

	if (known >= 0)
		return known;
	if (!in_path("systemd-nspawn")) {
		bo_err_set(&why, "systemd-nspawn not found");
		r = 0;
	} else {
		r = nspawn_probe(&why);
		if (r < 0)
			return -1;
	}
	known = r ? RUNNER_NSPAWN : RUNNER_CHROOT;
	if (!r && ret_fb) {
		ret_fb->happened = 1;
		ret_fb->why = why;
	}
	return known;
}

int runner_choose(enum runner_kind kind, struct runner_fallback *ret_fb,
		  bo_err *err)
{
	int k = kind;

	if (ret_fb)
		memset(ret_fb, 0, sizeof(*ret_fb));
	if (k == RUNNER_AUTO && (k = auto_kind(ret_fb)) < 0)
		return bo_err_set(err, "interrupted");
	return k;
}

int runner_run(const struct runner_opts *o, struct guest_output *out,
	       const char **ret_used, struct spawn_result *ret_res,
	       struct runner_fallback *ret_fb, bo_err *err)
{
	struct stat st;
	int kind = o->kind;

	if (ret_fb)
		memset(ret_fb, 0, sizeof(*ret_fb));
	memset(ret_res, 0, sizeof(*ret_res));
	if (stat(o->guest, &st) < 0 || !S_ISREG(st.st_mode))
		return bo_err_set(err, "guest binary '%s' not found", o->guest);
	if (kind == RUNNER_AUTO && (kind = auto_kind(ret_fb)) < 0) {
		ret_res->status = SPAWN_INTERRUPTED;
		return bo_err_set(err, "interrupted");
	}
	if (kind == RUNNER_NSPAWN && !in_path("systemd-nspawn"))
		return bo_err_set(err, "systemd-nspawn not found: install the systemd-container package or use --runner chroot");
	*ret_used = kind == RUNNER_NSPAWN ? "nspawn" : "chroot";
	return run_once(o, (enum runner_kind)kind, out, ret_res,
			log_end(o->log_fd), err);
}

void runner_warn_fallback(const struct runner_fallback *fb, const char *spec)
{
	if (fb->happened)
		cli_warn("%s: systemd-nspawn cannot start a container on this "
			 "host (%s): running the guests under chroot instead",
			 spec, fb->why.msg);
}
