/* guest/tools-work.h - the files and processes of `benchorch-guest tool`
 * (tools-work.c): its work directory in memory, the input it encrypts,
 * and running a tool as a child process with its cost measured. Private
 * to tools.c, which calls down into it. */
#ifndef GUEST_TOOLS_WORK_H
#define GUEST_TOOLS_WORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Work-directory layout under DIR. */
struct work {
	char dir[160];
	char plain[192], enc[192], dec[192], pass[192], gnupg[192];
	char agekey[192], gcrypt_top[192];
};

/* What one child process cost. */
struct cost {
	uint64_t user_ns, sys_ns, wall_ns, rss_kib;
};

/* Print "benchorch-guest: MESSAGE\n" on stderr (printf-style FMT; cut
 * at 1 KiB). Errors ignored. */
void tools_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC now, in ns. */
uint64_t tools_now_ns(void);

/* Find PROG in the fixed PATH of the container: its path into BUF (LEN
 * bytes, the caller's), "" when absent. */
void tools_find_tool(const char *prog, char *buf, size_t len);

/* Fill *w with the paths of the work directory DIR (cut to fit). */
void tools_work_paths(struct work *w, const char *dir);

/* Make the work directory w->dir, in memory only (the container's tmpfs,
 * never a disk), with the input (SIZE bytes), the passphrase and
 * libgcrypt's deny file. Returns 0, or -1 after printing why. */
int tools_work_setup(struct work *w, uint64_t size);

/* Run ARGV (ARGV[0] a path) with ENV, stdin from /dev/null, stdout to
 * OUT_FD (-1: our stderr), stderr to ours; for NOHW_GCRYPT with W's layer
 * over /etc. Fills *COST from wait4's rusage and CLOCK_MONOTONIC around
 * fork and reap. Returns the exit status (0..255), 256 + signal when
 * killed, or -1 when it could not be started, with a message in MSG
 * (MSGLEN bytes, the caller's). */
int tools_run_child(char *const argv[], char *const env[], int out_fd,
		    const struct work *w, bool nohw_gcrypt, struct cost *cost,
		    char *msg, size_t msglen);

/* Run ARGV and keep its stdout (at most LEN - 1 bytes) in BUF, untimed.
 * Returns its exit status as tools_run_child() does. */
int tools_run_capture(char *const argv[], char *const env[],
		      const struct work *w, bool nohw_gcrypt, char *buf,
		      size_t len);

#endif /* GUEST_TOOLS_WORK_H */
