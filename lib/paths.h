/* paths.h - where benchorch finds its data, its guest, its state and its
 * database. */
#ifndef BENCHORCH_PATHS_H
#define BENCHORCH_PATHS_H

#include "lib/flavour.h"

/* Default state directory (images under it) and database. */
#define BENCHORCH_DEFAULT_STATE_DIR "/var/lib/benchorch"
#define BENCHORCH_DEFAULT_DB "/var/lib/benchorch/results.db"

/* One lock for the whole machine, whatever the state directory or the
 * database: two runs measuring at once disturb each other's numbers. It is
 * BENCHORCH_RUN_LOCK_DIR/run.lock, in a directory of root's (mode 0700),
 * not in /run/lock, where any user could create and hold it
 * (lib/runlock.h, bo_run_lock). */
#define BENCHORCH_RUN_LOCK_DIR "/run/benchorch"
#define BENCHORCH_RUN_LOCK BENCHORCH_RUN_LOCK_DIR "/run.lock"

/* The directory holding images/<distro>.json: $BENCHORCH_DATA_DIR, else the
 * source tree when this binary runs from its build tree, else the installed
 * data directory. Returns a newly allocated string; caller frees. */
char *paths_data_dir(void);

/* The guest binary of flavour F (see flavour.h): $BENCHORCH_GUEST for
 * glibc, $BENCHORCH_GUEST_MUSL for musl, else the build tree's
 * (guest/benchorch-guest, guest/benchorch-guest-musl) when running from it,
 * else the installed one. Newly allocated; caller frees. */
char *paths_guest(enum guest_flavour f);

/* The confiner that starts every guest (guest/confine.c): $BENCHORCH_CONFINE,
 * else the build tree's guest/benchorch-confine when running from it, else
 * the installed one. Newly allocated; caller frees. */
char *paths_confine(void);

/* The state directory: OPT if not NULL, else $BENCHORCH_STATE_DIR, else
 * BENCHORCH_DEFAULT_STATE_DIR. Newly allocated; caller frees. */
char *paths_state_dir(const char *opt);

/* The database: OPT if not NULL, else $BENCHORCH_DB, else
 * STATE_DIR/results.db when a state directory was chosen, else
 * BENCHORCH_DEFAULT_DB. Newly allocated; caller frees. */
char *paths_db(const char *opt, const char *state_opt);

/* What a hint naming a benchorch command adds so that the command, typed
 * later in another shell, reads database DB_PATH: "" when DB_PATH is
 * BENCHORCH_DEFAULT_DB (or NULL), else " --db 'PATH'" with PATH made
 * absolute when it exists and quoted for a POSIX shell. The database is
 * named however it was chosen (--db, --state-dir, $BENCHORCH_DB,
 * $BENCHORCH_STATE_DIR). Newly allocated; caller frees. */
char *paths_db_opt(const char *db_path);

/* Where sysfs is, for the CPU state recorded with a run (cpustate.h):
 * $BENCHORCH_SYSFS (a tree with sysfs's layout, for tests), else "/sys".
 * Newly allocated; caller frees. */
char *paths_sysfs(void);

#endif
