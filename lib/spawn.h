/* spawn.h - run a child process with a timeout, optional private mount
 * namespace, captured output and clean-up on interruption. */
#ifndef BENCHORCH_SPAWN_H
#define BENCHORCH_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include "lib/util.h"

/* Called once per line the child writes to stdout, without the trailing
 * newline. len is in bytes. A line longer than spawn_opts.max_line is passed
 * with truncated = 1 (its first max_line bytes). Return 0 to continue, -1 to
 * stop the child (the run then ends with SPAWN_STOPPED). */
typedef int (*spawn_line_fn)(void *ctx, const char *line, size_t len,
			     int truncated);

/* Runs in the child after fork, before exec; return -1 (with a message in
 * err) to make the spawn fail with SPAWN_SETUP_FAILED. Used to set up mounts
 * in the child's private mount namespace and to chroot. */
typedef int (*spawn_setup_fn)(void *ctx, bo_err *err);

struct spawn_opts {
	const char *const *argv;	/* argv[0] is looked up in PATH */
	uint64_t timeout_ns;		/* 0 = none; then SIGTERM, 2 s, SIGKILL */
	int new_mount_ns;		/* child unshares a private mount ns */
	int cpu;			/* pin the child to this CPU; -1 = no */
	spawn_setup_fn setup;		/* may be NULL */
	void *setup_ctx;
	spawn_line_fn on_line;		/* NULL: stdout goes to log_fd */
	void *line_ctx;
	size_t max_line;		/* bytes; 0 = 65536 */
	int log_fd;			/* stderr (and stdout if no on_line)
					 * go here; -1 = /dev/null */
	size_t max_log_bytes;		/* 0: the child writes to log_fd
					 * itself. Else its stderr is a
					 * pipe that spawn_run appends to
					 * log_fd, at most this many bytes
					 * (then one line saying how many
					 * more were left out): the child
					 * can neither fill the disk nor
					 * rewrite what the log held */
	const char *const *envp;	/* NULL = inherit the environment;
					 * see spawn_env_guest() */
	int in_fd;			/* the child's stdin when above 2
					 * (a pipe's read end); else
					 * /dev/null */
};

enum spawn_status {
	SPAWN_EXITED = 0,	/* exit_code is valid */
	SPAWN_SIGNALED,		/* term_signal is valid */
	SPAWN_TIMEOUT,		/* killed after timeout_ns */
	SPAWN_INTERRUPTED,	/* killed because bo_interrupted was set */
	SPAWN_STOPPED,		/* killed because on_line returned -1 */
	SPAWN_SETUP_FAILED,	/* fork/exec/setup failed; see err */
};

struct spawn_result {
	enum spawn_status status;
	int exit_code;
	int term_signal;
	uint64_t wall_ns;	/* fork to reap, ns */
};

/* Mark every file descriptor above 2 of the calling process close-on-exec,
 * so that a program it executes next inherits only stdin, stdout and
 * stderr. For a child between fork and exec. Returns 0, or -1 when the
 * descriptors cannot be listed (no close_range and no /proc). */
int spawn_cloexec_inherited(void);

/* Run the child described by opts and wait for it, reaping it and its
 * process group whatever happens. Returns 0 when the child ran (inspect
 * ret->status; a non-zero exit is not an error here), or -1 with err set when
 * it could not be started (ret->status = SPAWN_SETUP_FAILED). The child is
 * killed (SIGKILL) if the orchestrator dies (PR_SET_PDEATHSIG). */
int spawn_run(const struct spawn_opts *opts, struct spawn_result *ret,
	      bo_err *err);

/* Describe a finished child in words ("exited with status 2", "killed by
 * signal 11 (Segmentation fault)", "timed out after 600 s"). Returns buf. */
const char *spawn_describe(const struct spawn_result *r,
			   const struct spawn_opts *o, char *buf, size_t len);

/* Fixed environments (allowlists, spawn-env.c) for the programs benchorch
 * starts, so that nothing the caller exported (a variable that steers a
 * crypto library, the dynamic loader, malloc, apt or gpg) reaches them
 * unless it is named here. */
/* The whole environment of the guest and of systemd-nspawn, under every
 * runner: PATH=/usr/sbin:/usr/bin:/sbin:/bin and LC_ALL=C, nothing else
 * (inside the container systemd-nspawn sets the same two, with --setenv,
 * and adds its own fixed variables: container=systemd-nspawn,
 * container_uuid, container_host_id, container_host_version_id, HOME,
 * USER, LOGNAME, TERM, LANG, NOTIFY_SOCKET, none of them the caller's).
 * The guest's --nohw is the only way to mask hardware acceleration.
 * NULL-terminated, static: do not free. */
const char *const *spawn_env_guest(void);

/* The environment of the image builders (debootstrap, mmdebstrap, curl,
 * gpgv): PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin,
 * LC_ALL=C, DEBIAN_FRONTEND=noninteractive, plus the caller's own values
 * of the proxy variables (http_proxy, https_proxy, ftp_proxy, no_proxy,
 * all_proxy, in lower and upper case) and TMPDIR, when set; nothing else
 * (no APT_CONFIG, GNUPGHOME, LD_*, ...). Returns a NULL-terminated array
 * the caller frees with spawn_env_free. Never fails (allocation failures
 * abort, as everywhere in benchorch). */
char **spawn_env_builder(void);

/* Free an array from spawn_env_builder (NULL is fine). */
void spawn_env_free(char **env);

#endif
