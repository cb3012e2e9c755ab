/* util.h - error reporting, allocation and path helpers shared by every part
 * of the orchestrator library. */
#ifndef BENCHORCH_UTIL_H
#define BENCHORCH_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* An error message filled in by library functions that fail. Library code
 * never prints: it returns -1 (or a negative errno) and describes the
 * failure here in one line, lowercase, naming the thing in quotes, e.g.
 * "cannot open 'x.db': permission denied". */
typedef struct bo_err {
	char msg[1024];
} bo_err;

/* Set err->msg from a printf format. err may be NULL (then nothing is
 * written). Always returns -1 so callers can "return bo_err_set(...)". */
int bo_err_set(bo_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set by the SIGINT/SIGTERM handler (see bo_signals_install); long-running
 * library code polls it and stops with an "interrupted" error. */
extern volatile sig_atomic_t bo_interrupted;

/* Install SIGINT, SIGTERM and SIGHUP handlers that set bo_interrupted to the
 * signal number (without SA_RESTART, so blocking calls return EINTR). */
void bo_signals_install(void);

/* Allocation wrappers: abort the program with a message on out-of-memory,
 * so every error path that remains is a real error. Caller frees. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Create directory PATH and its parents with mode 0755. Returns 0, or -1
 * with err set. */
int bo_mkdir_p(const char *path, bo_err *err);

/* Remove PATH and everything below it (lib/rmtree.c). The path leading to
 * PATH is trusted; below it every entry is reached relative to its
 * directory's descriptor (openat O_DIRECTORY|O_NOFOLLOW, fstatat
 * AT_SYMLINK_NOFOLLOW, unlinkat), so a symlink is removed, never followed,
 * even one swapped in for a directory while the tree is removed. A file
 * system mounted inside is not entered: the removal fails there, naming
 * it. Runs to its end even when bo_interrupted is set (it is how an
 * interrupted build is cleaned up). Returns 0 (also when PATH does
 * not exist), or -1 with err set. */
int bo_rm_rf(const char *path, bo_err *err);

/* Read the whole file PATH (at most max_bytes) into a NUL-terminated buffer
 * that the caller frees; *ret_len (may be NULL) gets the length in bytes.
 * Returns 0, or -1 with err set. */
int bo_read_file(const char *path, size_t max_bytes, char **ret_buf,
		 size_t *ret_len, bo_err *err);

/* Write LEN bytes to PATH atomically: a temporary file in the same
 * directory, fsync, rename. Returns 0, or -1 with err set. */
int bo_write_file_atomic(const char *path, const void *buf, size_t len,
			 bo_err *err);

/* Called once by bo_lock_wait when the lock is held by another process,
 * before it starts waiting. */
typedef void (*bo_lock_wait_fn)(void *ctx, const char *path);

/* Open (creating, mode 0644, never through a symlink) the lock file PATH
 * and take an exclusive flock(2) on it, waiting as long as another process
 * holds it: on_wait (may be NULL) is told once, then the lock is polled
 * every 100 ms. Gives up when bo_interrupted is set. Returns the locked fd
 * (the lock lasts until it is closed), or -1 with err set. */
int bo_lock_wait(const char *path, bo_lock_wait_fn on_wait, void *ctx,
		 bo_err *err);

/* Take an exclusive flock(2) on the open file FD (PATH names it in
 * messages), waiting as bo_lock_wait does. Returns FD, locked; or -1 with
 * err set, FD then closed. */
int bo_flock_wait(int fd, const char *path, bo_lock_wait_fn on_wait,
		  void *ctx, bo_err *err);

/* The value of option OPT (e.g. "--min-batch-ms") in the command line
 * CMDLINE as runs.command_line stores it (arguments joined by spaces),
 * given as "OPT VALUE" or "OPT=VALUE"; NULL when it is not there. The
 * caller frees it. */
char *bo_cmdline_option(const char *cmdline, const char *opt);

/* Does the flag OPT (e.g. "--sequential") stand as a word of its own in
 * the command line CMDLINE (as bo_cmdline_option reads it; NULL reads as
 * empty)? 1 yes, 0 no. */
int bo_cmdline_flag(const char *cmdline, const char *opt);

/* Nanoseconds from CLOCK_MONOTONIC. */
uint64_t bo_now_ns(void);

/* A seed for a run or a duet without --seed: 32 random bits from the
 * kernel (getrandom(2)), or from the clock and pid if it has none to
 * give; 0 .. 2^32 - 1. */
uint64_t bo_random_seed(void);

/* Is NAME one of the items of the comma-separated LIST ("a,b"; NULL is
 * the empty list)? 1 yes, 0 no. */
int bo_list_has(const char *list, const char *name);

/* Append NAME to the comma-separated list *LIST ("a,b") unless it is one
 * of its items already; *LIST NULL is the empty list. *LIST is replaced by
 * a new string (the caller frees it); never fails (xmalloc). */
void bo_list_add(char **list, const char *name);

/* Current UTC time as ISO 8601 "YYYY-MM-DDTHH:MM:SSZ" into buf (>= 21
 * bytes). Returns buf. */
char *bo_utc_now(char *buf, size_t len);

#endif
