/* cmd-slurm.c - `benchorch slurm`: the subcommand table and `slurm
 * submit`, which runs benchorch on the nodes of a Slurm cluster (collect
 * and status are in cmd-slurm-collect.c and cmd-slurm-status.c; what the
 * three share, in slurm-job.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "orchestrator/cli/cli.h"
#include "lib/paths.h"
#include "orchestrator/cli/run-args.h"
#include "orchestrator/cli/slurm-cli.h"
#include "orchestrator/cli/slurm-job.h"
#include "orchestrator/run/slurm.h"
#include "lib/spawn.h"

/* An absolute version of PATH (relative to the current directory). Newly
 * allocated. */
static char *absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

struct submit_args {
	struct slurm_submit s;
	const char *spool, *db, *state, *nodes_s;
	int dry_run;
	int state_next;		/* the last RUN-OPTION was --state-dir */
	char **run_argv;	/* "run", then RUN-OPTIONS; owned array */
};

/* submit's own options: strings, checked after the parse (submit_check)
 * in the order they always were. Every other element is a RUN-OPTION. */
static const struct opt_def submit_options[] = {
	{ .name = "partition", .short_name = 'p', .kind = OPT_STRING,
	  .arg = "P", .offset = offsetof(struct submit_args, s.partition) },
	{ .name = "nodes", .short_name = 'N', .kind = OPT_STRING, .arg = "N",
	  .offset = offsetof(struct submit_args, nodes_s) },
	{ .name = "nodelist", .short_name = 'w', .kind = OPT_STRING,
	  .arg = "LIST", .offset = offsetof(struct submit_args, s.nodelist) },
	{ .name = "spool", .kind = OPT_STRING, .arg = "DIR",
	  .offset = offsetof(struct submit_args, spool) },
	{ .name = "db", .kind = OPT_STRING, .arg = "PATH",
	  .offset = offsetof(struct submit_args, db) },
	{ .name = "time", .short_name = 't', .kind = OPT_STRING,
	  .arg = "LIMIT", .offset = offsetof(struct submit_args, s.time) },
	{ .name = "dry-run", .kind = OPT_FLAG,
	  .offset = offsetof(struct submit_args, dry_run) },
	{ .kind = OPT_END },
};

/* A RUN-OPTION (an opts_parse_pass callback): appended to run_argv as
 * given; --state-dir's value also places the spool. Returns 0. */
static int submit_run_arg(const char *arg, void *ctx)
{
	struct submit_args *a = ctx;

	if (a->state_next)
		a->state = arg;
	a->state_next = strcmp(arg, "--state-dir") == 0;
	if (strncmp(arg, "--state-dir=", 12) == 0)
		a->state = arg + 12;
	a->run_argv[1 + a->s.run_argc++] = (char *)arg;
	return 0;
}

/* Check slurm's own options of A, once parsed. Returns -1 when they
 * hold (a->s.nodes set), else EXIT_USAGE after the message. */
static int submit_check(struct submit_args *a)
{
	long long v;
	bo_err err;

	if (a->s.partition && !*a->s.partition)
		return cli_usage_error("slurm submit", "--partition: empty name");
	if (a->s.time && !*a->s.time)
		return cli_usage_error("slurm submit", "--time: empty limit");
	if (a->s.time && slurm_time_check(a->s.time, &err) < 0)
		return cli_usage_error("slurm submit", "--time: %s", err.msg);
	if ((a->db && cli_path_arg("slurm submit", "--db", a->db)) ||
	    (a->state && cli_path_arg("slurm submit", "--state-dir", a->state)))
		return EXIT_USAGE;
	/* the tasks run in another directory on other nodes: a relative
	 * state directory would name another one on each */
	if (a->state && a->state[0] != '/')
		return cli_usage_error("slurm submit", "--state-dir must be an absolute path, not '%s': the tasks run on other nodes, in another directory",
				       a->state);
	if (a->nodes_s && a->s.nodelist)
		return cli_usage_error("slurm submit", "--nodes and --nodelist exclude each other");
	if (a->s.nodelist && !*a->s.nodelist)
		return cli_usage_error("slurm submit", "--nodelist: empty list");
	a->s.nodes = 1;
	if (a->nodes_s) {
		if (cli_parse_ll(a->nodes_s, 1, 10000, &v, &err) < 0)
			return cli_usage_error("slurm submit", "--nodes: %s", err.msg);
		a->s.nodes = (long)v;
	}
	return -1;
}

/* Split ARGV into slurm's options and RUN-OPTIONS (a->run_argv, which the
 * caller frees). Returns -1 on success, else an exit status (EXIT_OK
 * after --help). */
static int submit_parse(int argc, char **argv, struct submit_args *a)
{
	int rc;

	a->run_argv = xcalloc((size_t)argc + 1, sizeof(char *));
	a->run_argv[0] = "run";
	a->s.run_argc = 0;
	rc = opts_parse_pass("slurm submit", submit_options, a, argc, argv,
			     submit_run_arg, a, slurm_help, NULL);
	if (rc < 0)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	return submit_check(a);
}

/* The absolute paths of A's submission: the spool (--spool) and the
 * central database (--db), both given, in *SPOOL and *DB (newly
 * allocated; the caller frees them). */
static void submit_paths(const struct submit_args *a, char **spool, char **db)
{
	*spool = absolute(a->spool);
	*db = absolute(a->db);
}

/* Write the submission script of S to a new file in S's spool (created
 * when missing, then checked: slurm_spool_check) and return its path
 * (newly allocated), or NULL after saying why on stderr. The file has a
 * name no one can guess and is created anew (mkostemps: O_EXCL, so
 * never through a symlink), mode 0600. */
static char *submit_script(const struct slurm_submit *s)
{
	char *script;
	bo_err err;
	FILE *f;
	int bad, fd;

	if (bo_mkdir_p(s->spool, &err) < 0 ||
	    slurm_spool_check(s->spool, &err) < 0) {
		cli_error("%s", err.msg);
		return NULL;
	}
	script = xasprintf("%s/submit-XXXXXX.sh", s->spool);
	fd = mkostemps(script, 3, O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		cli_error("cannot create a script in '%s': %s", s->spool,
			  strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(script);
		}
		free(script);
		return NULL;
	}
	slurm_script_write(f, s);
	/* a full disk: no half-written script is left (or run) */
	errno = 0;
	bad = fflush(f) != 0 || ferror(f);
	if (fclose(f) != 0 || bad) {
		cli_error("cannot write '%s': %s", script,
			  strerror(errno ? errno : EIO));
		unlink(script);
		free(script);
		return NULL;
	}
	return script;
}

/* A line the submission script printed (a spawn_line_fn): to stdout. */
static int submit_line(void *ctx, const char *line, size_t len, int truncated)
{
	(void)ctx;
	(void)truncated;
	printf("%.*s\n", (int)len, line);
	return 0;
}

/* Run SCRIPT with sh, which submits, for at most SLURM_SUBMIT_TIMEOUT_S
 * (a hanging sbatch is killed, with the script's whole process group).
 * Returns EXIT_OK, 128+signal when interrupted, or EXIT_ENV after saying
 * why on stderr. */
static int submit_run(const char *script)
{
	const char *argv[] = { "/bin/sh", script, NULL };
	struct spawn_opts o = {
		.argv = argv, .cpu = -1, .log_fd = STDERR_FILENO,
		.timeout_ns = (uint64_t)SLURM_SUBMIT_TIMEOUT_S * 1000000000u,
		.on_line = submit_line,
	};
	struct spawn_result r;
	char how[128];
	bo_err err;

	fflush(stdout);
	bo_signals_install();
	if (spawn_run(&o, &r, &err) < 0) {
		cli_error("cannot submit to slurm: %s", err.msg);
		return EXIT_ENV;
	}
	fflush(stdout);
	if (r.status == SPAWN_INTERRUPTED)
		return cli_interrupted_status(bo_interrupted);
	if (r.status != SPAWN_EXITED || r.exit_code != 0) {
		/* the script said why, and sbatch before it */
		cli_error("cannot submit to slurm: '%s' %s", script,
			  spawn_describe(&r, &o, how, sizeof(how)));
		return EXIT_ENV;
	}
	return EXIT_OK;
}

static int cmd_submit(int argc, char **argv)
{
	struct submit_args a;
	char *spool = NULL, *db = NULL, *bin = NULL, *script;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = submit_parse(argc, argv, &a);
	if (rc >= 0)
		goto out;
	/* RUN-OPTIONS as `run` takes them, with run's messages */
	rc = run_args_check("slurm submit", a.s.run_argc + 1, a.run_argv);
	if (rc != 0)
		goto out;
	/* the defaults, under the state directory, are local to each node:
	 * the tasks and the merge job would each write their own */
	if (!a.spool || !a.db) {
		rc = cli_usage_error("slurm submit", "needs %s: %s every node and this host share (the default%s, under %s, %s local to each node)",
				     !a.spool && !a.db ? "--spool DIR and --db PATH" :
				     !a.spool ? "--spool DIR" : "--db PATH",
				     !a.spool && !a.db ? "a directory and a database path" :
				     !a.spool ? "a directory" : "a database path",
				     !a.spool && !a.db ? "s" : "",
				     "the state directory",
				     !a.spool && !a.db ? "are" : "is");
		goto out;
	}
	bin = realpath("/proc/self/exe", NULL);
	if (!bin) {
		cli_error("cannot find this program's path: %s", strerror(errno));
		rc = EXIT_ENV;
		goto out;
	}
	submit_paths(&a, &spool, &db);
	a.s.benchorch = bin;
	a.s.spool = spool;
	a.s.db = db;
	a.s.run_argv = a.run_argv + 1;
	if (a.dry_run) {
		slurm_script_write(stdout, &a.s);
	} else if (!(script = submit_script(&a.s))) {
		rc = EXIT_ENV;
	} else {
		rc = submit_run(script);
		free(script);
	}
out:
	free(bin);
	free(spool);
	free(db);
	free(a.run_argv);
	return rc;
}

static int cmd_slurm(int argc, char **argv)
{
	if (argc < 2) {
		return cli_usage_error("slurm", "needs a subcommand: submit, status or collect");
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(slurm_usage, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "submit") == 0)
		return cmd_submit(argc - 1, argv + 1);
	if (strcmp(argv[1], "status") == 0)
		return slurm_status_cmd(argc - 1, argv + 1);
	if (strcmp(argv[1], "collect") == 0)
		return slurm_collect_cmd(argc - 1, argv + 1);
	return cli_usage_error("slurm", "unknown subcommand '%s' (submit, status or collect)",
			       argv[1]);
}

const struct cmd_entry cmd_slurm_entry = {
	.name = "slurm",
	.summary = "run on the nodes of a Slurm cluster, merged into one database",
	.usage = slurm_usage,
	.flags = 0,
	.fn = cmd_slurm,
};
