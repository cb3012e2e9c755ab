/* runner.h - run the guest inside a rootfs (systemd-nspawn, or chroot in a
 * private mount namespace) and collect its validated output. */
#ifndef BENCHORCH_RUNNER_H
#define BENCHORCH_RUNNER_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/guest_output.h"
#include "lib/spawn.h"
#include "lib/util.h"

/* Where the guest appears inside the rootfs (a read-only bind mount on a
 * tmpfs, so the image itself is never written). */
#define RUNNER_GUEST_PATH "/run/benchorch/guest"

/* Where the confiner (guest/confine.c) appears inside the rootfs, bound
 * read-only like the guest: it is what the runner starts, as root, and it
 * executes the guest as an unprivileged user with no capabilities. */
#define RUNNER_CONFINE_PATH "/run/benchorch/confine"

/* The most of a guest's (and nspawn's) stderr one invocation adds to its
 * log, bytes; the rest is counted and left out (spawn_opts.max_log_bytes):
 * the guest writes into a pipe, never into the log file itself. */
#define RUNNER_MAX_LOG_BYTES ((size_t)1 << 20)

enum runner_kind { RUNNER_AUTO, RUNNER_NSPAWN, RUNNER_CHROOT };

struct runner_opts {
	enum runner_kind kind;	/* AUTO: nspawn, chroot if nspawn is missing
				 * or cannot start a container on this
				 * host (see runner_run) */
	const char *rootfs;	/* absolute path of the image's root */
	const char *guest;	/* host path of the guest binary */
	const char *const *guest_args;	/* NULL-terminated, after argv[0] */
	uint64_t timeout_ns;	/* kill the guest after this long */
	int cpu;		/* pin to this CPU, -1 = no pinning */
	int log_fd;		/* guest's and nspawn's stderr, appended to
				 * by the runner, at most
				 * RUNNER_MAX_LOG_BYTES; -1 = none.
				 * Open it for reading too (O_RDWR): the
				 * guest's own reason for ending before any
				 * output ("benchorch-guest: ...") is read
				 * back from it */
	/* Called after each line of guest output is accepted, with the
	 * output so far (progress); NULL = none. */
	void (*on_output)(void *ctx, const struct guest_output *out);
	void *output_ctx;
	const char *machine;	/* nspawn: the image's name, made into the
				 * machine name "benchorch-NAME" (see
				 * runner_machine_name); NULL = nspawn's own
				 * default (the rootfs directory's name) */
	/* The tool mode (`benchorch-guest tool`): each line goes to
	 * parse_line instead of the guest protocol's checks, and runner_run
	 * neither finishes *out nor compares clocks (the caller checks the
	 * end of its own output); out->have_hello is set at the first line,
	 * so that a fallback to chroot happens only before any output.
	 * parse_line returns 0, or -1 with err set to reject the
	 * invocation. NULL = the benchmark protocol. */
	int (*parse_line)(void *ctx, const char *line, size_t len,
			  bo_err *err);
	void *parse_ctx;
	int in_fd;		/* the guest's stdin when above 2 (a duet's
				 * token pipe, guest/turns.h); else
				 * /dev/null */
	/* Host directories bound read-only (and nosuid, nodev) into the
	 * rootfs for the guest to read: bind_src[i] (absolute host path)
	 * at bind_dst[i] (absolute path under RUNNER_BUILDS_PATH); nbinds
	 * at most RUNNER_MAX_BINDS, 0 = none. Borrowed. */
	size_t nbinds;
	const char *const *bind_src;
	const char *const *bind_dst;
};

/* Where the rebuilt libraries of a run (`run --builds`) appear inside
 * the rootfs, each in a directory of its own, read-only. */
#define RUNNER_BUILDS_PATH "/run/benchorch/builds"
#define RUNNER_MAX_BINDS 8

/* The systemd-nspawn machine name for image NAME into buf (len bytes):
 * "benchorch-NAME" with every character other than a letter, digit or
 * '-' made '-', at most 64 bytes (a valid host name, as nspawn wants), so
 * that each image's containers have their own name. Returns buf. */
char *runner_machine_name(const char *name, char *buf, size_t len);

/* Parse "nspawn", "chroot" or "auto". Returns 0, or -1 with err set. */
int runner_kind_parse(const char *s, enum runner_kind *ret, bo_err *err);

/* Why runner_run chose chroot for kind RUNNER_AUTO. */
struct runner_fallback {
	int happened;		/* 1: this call found that systemd-nspawn is
				 * missing or cannot start a container here,
				 * and ran the guest under chroot (said once
				 * per process: later calls choose chroot
				 * again with happened 0) */
	bo_err why;		/* "systemd-nspawn not found", or how nspawn
				 * ended and its last line */
};

/* Run the guest and validate every line it prints into *out (initialised by
 * the caller with guest_output_init). *ret_used gets the runner that ran
 * ("nspawn" or "chroot", static string). *ret_res gets how the child ended.
 * Returns 0 when the guest ran to completion, its output is complete and
 * valid and its clock agrees with the host's (guest_output_check_clock on
 * the time between receiving hello and done); -1 with err set otherwise
 * (bad line, crash, timeout, clocks that disagree, interruption - check
 * bo_interrupted). A guest, or the confiner, that exited before its first
 * line with a line of its own in the log ("benchorch-guest: ...",
 * "benchorch-confine: ...", e.g. the guest's usage error, status 2) has
 * that line in err ("guest exited with status 2 (a usage error):
 * benchorch-guest: unknown option '--x'").
 *
 * Under either runner the runner starts the confiner (guest/confine.c),
 * which executes the guest as uid and gid 65534 with no supplementary
 * group, no capability (the bounding set empty too) and no_new_privs, in
 * PID, network, IPC, UTS and mount namespaces of its own, on the rootfs
 * read-only with a tmpfs /tmp and /run; the image's code never runs with
 * more. Under chroot the rootfs is also nosuid and nodev.
 *
 * RUNNER_AUTO means systemd-nspawn when it is installed and starts a
 * container here (checked once per process by running the confiner's
 * --check, on an empty tree, never on an image), else chroot, with
 * *ret_fb (if not NULL) saying why; what a guest does never changes the
 * runner, and a guest's failure is reported as it is, never retried.
 * The guest and nspawn get the fixed environment of spawn_env_guest()
 * under every runner. Nothing stays mounted either way:
 * every mount lives in a mount namespace that dies with the child. */
int runner_run(const struct runner_opts *o, struct guest_output *out,
	       const char **ret_used, struct spawn_result *ret_res,
	       struct runner_fallback *ret_fb, bo_err *err);

/* The runner KIND stands for on this host: KIND itself, or for
 * RUNNER_AUTO nspawn or chroot as runner_run would choose (once per
 * process), with *ret_fb (if not NULL) saying why chroot. For callers
 * that start guests from several threads: runner_run with the kind this
 * returns decides nothing more. Returns the kind, or -1 with err set when
 * interrupted. */
int runner_choose(enum runner_kind kind, struct runner_fallback *ret_fb,
		  bo_err *err);

/* Say on stderr, once, why FB chose chroot ("SPEC: systemd-nspawn cannot
 * start a container on this host (WHY): running the guests under chroot
 * instead"); nothing when fb->happened is 0. */
void runner_warn_fallback(const struct runner_fallback *fb, const char *spec);

/* The last line of the log at PATH, from byte FROM on (what one
 * invocation wrote) up to byte TO (-1: the end), worth quoting in an error
 * (nspawn's "terminated by signal" or the guest's own complaint; not
 * nspawn's chatter of every start and exit), at most 200 bytes, or NULL
 * when there is none or the log cannot be read. Caller frees. */
char *runner_log_last_line(const char *path, off_t from, off_t to);

/* The CPU the guest is pinned to by default: the highest-numbered CPU this
 * process may run on (the lowest usually takes more interrupts), or -1. */
int runner_default_cpu(void);

#endif
