/* config-file.h - the daemon's configuration file, benchorch.conf(5):
 * paths, runner settings and schedules, one directive per line. (Not named
 * config.h: that is autoconf's, and a quoted include would find this one
 * first.) */
#ifndef BENCHORCH_CONFIG_FILE_H
#define BENCHORCH_CONFIG_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "orchestrator/daemon/config-slurm.h"
#include "orchestrator/run/runner.h"
#include "lib/util.h"

#define BENCHORCH_DEFAULT_CONFIG "/etc/benchorch/benchorch.conf"

/* Longest line, and longest schedule name, a configuration may hold. */
#define CONF_MAX_LINE 4096
#define CONF_MAX_NAME 64

enum sched_kind {
	SCHED_DAILY,		/* every day at hour:min:sec, local time */
	SCHED_INTERVAL,		/* every interval_s seconds */
};

/* One "schedule" line. Strings owned by the containing config. */
struct sched {
	char *name;		/* [A-Za-z0-9._-], unique in the file */
	enum sched_kind kind;
	int hour, min, sec;	/* SCHED_DAILY */
	long interval_s;	/* SCHED_INTERVAL, seconds >= 1 */
	char *distros;		/* comma-separated NAME[:RELEASE] */
	char *libs;		/* guest --libs list, NULL = all */
	int quick;		/* short runs */
	int refresh;		/* rebuild the images first (default 1) */
	struct sched_slurm *slurm;	/* NULL: run here; else submitted to
					 * Slurm (config-slurm.h); owned */
	int line;		/* its line in the file, for messages */
};

/* The whole file. Free with conf_free(). */
struct conf {
	char *path;		/* where it was read from */
	char *state_dir;	/* default /var/lib/benchorch */
	char *db_path;		/* default STATE/results.db */
	char *socket_path;	/* default STATE/control.sock */
	int db_set, socket_set;	/* 1 when the file gave database, socket
				 * (else they follow the state directory) */
	char *mirror;		/* NULL = the recipes' */
	enum runner_kind kind;	/* default auto */
	long timeout_s;		/* per guest, default 1800 */
	struct sched *scheds;
	size_t nscheds;
};

/* Parse the configuration text BUF (LEN bytes) read from PATH (used in
 * messages only). A schedule's libs are checked as `run --libs` checks
 * them (request-check.h). Text without a single directive (an empty
 * file) or whose last line has no newline (a file cut short, e.g. read
 * while being written) is refused. Returns 0 and a new conf in *ret
 * (conf_free), or -1 with err set to "'PATH' line N: what is wrong" (or
 * "'PATH': ..." for the whole file). */
int conf_parse(const char *path, const char *buf, size_t len,
	       struct conf **ret, bo_err *err);

/* Read and parse the file PATH (at most 1 MiB). Returns 0 and *ret, or -1
 * with err set. */
int conf_load(const char *path, struct conf **ret, bo_err *err);

/* A configuration with every default and no schedule, for when the default
 * file does not exist. STATE_DIR may be NULL (the default). Never fails. */
struct conf *conf_default(const char *state_dir);

/* Apply the one precedence rule of benchorch's paths to C (as read from
 * its file, or the defaults): the command line, else the environment,
 * else the configuration file, else the default. The state directory is
 * STATE_OPT (--state-dir; may be NULL), else $BENCHORCH_STATE_DIR, else
 * the file's state-dir, else BENCHORCH_DEFAULT_STATE_DIR; the database is
 * $BENCHORCH_DB, else the file's database, else STATE/results.db; the
 * socket is the file's socket, else STATE/control.sock. An empty variable
 * counts as unset. Every path of the daemon is absolute (it runs from
 * "/", and the file's paths are), so a relative variable is refused:
 * returns 0, or -1 with err set ("$BENCHORCH_STATE_DIR must be an
 * absolute path, not 'x'") and c unchanged. c keeps owning its strings. */
int conf_resolve_paths(struct conf *c, const char *state_opt, bo_err *err);

/* Write c to F in normalised form: every setting, defaults included, one
 * per line; parsing the output gives the same configuration. */
void conf_print(FILE *f, const struct conf *c);

/* Check every schedule's distros as `run --distros` checks them
 * (request-check.h): a recipe under DATA_DIR/images or an image imported
 * into c->state_dir, none empty or named twice. Returns 0, or -1 with err
 * set to "'PATH' line N: schedule 'NAME': what is wrong". */
int conf_check_distros(const struct conf *c, const char *data_dir,
		       bo_err *err);

/* Free c and everything it owns; c may be NULL. */
void conf_free(struct conf *c);

#endif
