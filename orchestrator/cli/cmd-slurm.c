/* cmd-slurm.c - `benchorch slurm`: the subcommand table and `slurm
 * submit`, which runs benchorch on the nodes of a Slurm cluster (collect
 * and status are in cmd-slurm-collect.c and cmd-slurm-status.c). */
#include "config.h"

#include <errno.h>
#include <limits.h>
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
#include "orchestrator/run/slurm.h"
#include "lib/spawn.h"

const char slurm_usage[] =
"Usage: benchorch slurm submit [--partition P] [--nodes N | --nodelist LIST]\n"
"                              [--spool DIR] [--db PATH] [--time LIMIT]\n"
"                              [--dry-run] RUN-OPTIONS...\n"
"       benchorch slurm status [--spool DIR] JOB\n"
"       benchorch slurm collect [--spool DIR] [--db PATH] [--report FILE] JOB\n"
"\n"
"submit: run 'benchorch run RUN-OPTIONS' on N nodes of a Slurm cluster at\n"
"once, each node alone (--exclusive), and merge their results into one\n"
"database. RUN-OPTIONS are those of 'benchorch run' (--distros, --quick,\n"
"--libs, --state-dir, ...), checked here first with run's own errors.\n"
"It submits an array of N tasks (with --nodelist: one job per node of\n"
"LIST), each running 'benchorch run RUN-OPTIONS --db DIR/HOST-TASK.db'\n"
"with its log in DIR/TASK.log, then a job that waits for all of them\n"
"(--dependency=afterany: a failed, cancelled or timed-out task does not\n"
"block it) and runs 'benchorch slurm collect JOB': every task's database\n"
"is merged into the central one (--db) and a report is written to\n"
"DIR/JOB.report.html. It prints 'job JOB', 'tasks ...' and 'merge ID'.\n"
"Images are cached where RUN-OPTIONS' --state-dir says on each node\n"
"(default /var/lib/benchorch: node-local); a shared --state-dir also\n"
"works once the images are built. The spool DIR must be a directory that\n"
"every node and this host share, with the same path.\n"
"\n"
"status: each task's node and state (done, failed, running, pending,\n"
"stopped), whether its database is there, and the merge job.\n"
"\n"
"collect: what the merge job runs. Merges every task's database of JOB\n"
"into --db and names each task that left none, why (its exit status, or\n"
"that it was stopped) and the end of its log; writes the report.\n"
"\n"
"Options:\n"
"  -p, --partition P      submit to partition P (default: the cluster's)\n"
"  -N, --nodes N          N tasks, one node each, 1 to 10000 (default 1)\n"
"  -w, --nodelist LIST    one task on each node of the Slurm host list\n"
"                         LIST (e.g. 'node[1-4]')\n"
"      --spool DIR        shared directory for the tasks' databases and\n"
"                         logs (default: STATE/slurm, STATE from\n"
"                         --state-dir, $BENCHORCH_STATE_DIR or\n"
"                         /var/lib/benchorch)\n"
"      --db PATH          the central database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"  -t, --time LIMIT       time limit of each task (sbatch --time, e.g. 2:00:00)\n"
"      --dry-run          print the submission script (sh) on stdout instead\n"
"                         of running it, to adapt it and run it with sh\n"
"      --report FILE      collect: where the report goes\n"
"                         (default: DIR/JOB.report.html)\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 submitted (collect: every task merged); 1 collect: some\n"
"task left no database, the others are merged; 2 usage error (also bad\n"
"RUN-OPTIONS); 3 sbatch missing or refused, a database unusable, or\n"
"collect: the report not written.\n";


/* The value of a slurm option at ARGV[*I], as "--name VALUE" or
 * "--name=VALUE" (or "-x VALUE" for SHORT): NULL when ARGV[*I] is not
 * that option; "" after a usage error (no value). */
const char *slurm_opt_value(int argc, char **argv, int *i, const char *name,
			     const char *shrt, int *bad)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n) == 0 && a[n] == '=')
		return a + n + 1;
	if (strcmp(a, name) != 0 && !(shrt && strcmp(a, shrt) == 0))
		return NULL;
	if (*i + 1 >= argc) {
		cli_usage_error("slurm", "option '%s' needs a value", a);
		*bad = 1;
		return "";
	}
	return argv[++*i];
}

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
	int dry_run, help;
	char **run_argv;	/* "run", then RUN-OPTIONS; owned array */
};

/* Split ARGV into slurm's options and RUN-OPTIONS. Returns -1 on success,
 * else an exit status. */
static int submit_parse(int argc, char **argv, struct submit_args *a)
{
	int i, bad = 0;

	a->run_argv = xcalloc((size_t)argc + 1, sizeof(char *));
	a->run_argv[0] = "run";
	a->s.run_argc = 0;
	for (i = 1; i < argc && !bad; i++) {
		const char *v;

		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			a->help = 1;
		} else if (strcmp(argv[i], "--dry-run") == 0) {
			a->dry_run = 1;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--partition", "-p", &bad))) {
			a->s.partition = v;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--nodes", "-N", &bad))) {
			a->nodes_s = v;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--nodelist", "-w", &bad))) {
			a->s.nodelist = v;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--spool", NULL, &bad))) {
			a->spool = v;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--db", NULL, &bad))) {
			a->db = v;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--time", "-t", &bad))) {
			a->s.time = v;
		} else {
			/* a run option: --state-dir also places the spool */
			if (strcmp(argv[i], "--state-dir") == 0 && i + 1 < argc)
				a->state = argv[i + 1];
			else if (strncmp(argv[i], "--state-dir=", 12) == 0)
				a->state = argv[i] + 12;
			a->run_argv[1 + a->s.run_argc++] = argv[i];
		}
	}
	if (bad)
		return EXIT_USAGE;
	if (a->help) {
		fputs(slurm_usage, stdout);
		return EXIT_OK;
	}
	if (a->s.partition && !*a->s.partition)
		return cli_usage_error("slurm", "--partition: empty name");
	if (a->s.time && !*a->s.time)
		return cli_usage_error("slurm", "--time: empty limit");
	if ((a->db && cli_path_arg("slurm", "--db", a->db)) ||
	    (a->state && cli_path_arg("slurm", "--state-dir", a->state)))
		return EXIT_USAGE;
	if (a->nodes_s && a->s.nodelist)
		return cli_usage_error("slurm", "--nodes and --nodelist exclude each other");
	if (a->s.nodelist && !*a->s.nodelist)
		return cli_usage_error("slurm", "--nodelist: empty list");
	a->s.nodes = 1;
	if (a->nodes_s) {
		long long v;
		bo_err err;

		if (cli_parse_ll(a->nodes_s, 1, 10000, &v, &err) < 0)
			return cli_usage_error("slurm", "--nodes: %s", err.msg);
		a->s.nodes = (long)v;
	}
	return -1;
}

static int cmd_submit(int argc, char **argv)
{
	struct submit_args a;
	char *state, *spool, *db, *bin, *script = NULL;
	int rc, status, bad;
	bo_err err;
	FILE *f;
	pid_t pid;

	memset(&a, 0, sizeof(a));
	rc = submit_parse(argc, argv, &a);
	if (rc >= 0)
		goto out_args;
	/* RUN-OPTIONS as `run` takes them, with run's messages */
	rc = run_args_check(a.s.run_argc + 1, a.run_argv);
	if (rc != 0)
		goto out_args;
	bin = realpath("/proc/self/exe", NULL);
	if (!bin) {
		cli_error("cannot find this program's path: %s", strerror(errno));
		rc = EXIT_ENV;
		goto out_args;
	}
	state = paths_state_dir(a.state);
	spool = absolute(a.spool ? a.spool : "");
	if (!a.spool) {
		free(spool);
		spool = xasprintf("%s/slurm", state);
		if (spool[0] != '/') {
			char *abs = absolute(spool);

			free(spool);
			spool = abs;
		}
	}
	{
		char *d = paths_db(a.db, a.state);

		db = absolute(d);
		free(d);
	}
	a.s.benchorch = bin;
	a.s.spool = spool;
	a.s.db = db;
	a.s.run_argv = a.run_argv + 1;
	if (a.dry_run) {
		slurm_script_write(stdout, &a.s);
		rc = EXIT_OK;
		goto out;
	}
	if (bo_mkdir_p(spool, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
		goto out;
	}
	script = xasprintf("%s/submit-%ld-%ld.sh", spool, (long)time(NULL),
			   (long)getpid());
	f = fopen(script, "w");
	if (!f) {
		cli_error("cannot write '%s': %s", script, strerror(errno));
		rc = EXIT_ENV;
		goto out;
	}
	slurm_script_write(f, &a.s);
	/* a full disk: no half-written script is left (or run) */
	errno = 0;
	bad = fflush(f) != 0 || ferror(f);
	if (fclose(f) != 0 || bad) {
		cli_error("cannot write '%s': %s", script,
			  strerror(errno ? errno : EIO));
		unlink(script);
		rc = EXIT_ENV;
		goto out;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		cli_error("cannot fork: %s", strerror(errno));
		rc = EXIT_ENV;
		goto out;
	}
	if (pid == 0) {
		spawn_cloexec_inherited();
		execl("/bin/sh", "sh", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		cli_error("cannot submit to slurm: '%s' failed (is sbatch installed and the cluster up?)",
			  script);
		rc = EXIT_ENV;
	} else {
		rc = EXIT_OK;
	}
out:
	free(script);
	free(bin);
	free(state);
	free(spool);
	free(db);
out_args:
	free(a.run_argv);
	return rc;
}

int slurm_job_parse(const char *cmd, int argc, char **argv, struct slurm_job_args *a,
		     int collect)
{
	int i, bad = 0;

	for (i = 1; i < argc && !bad; i++) {
		const char *v;

		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(slurm_usage, stdout);
			return EXIT_OK;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--spool", NULL, &bad))) {
			a->spool = v;
		} else if ((v = slurm_opt_value(argc, argv, &i, "--state-dir", NULL, &bad))) {
			a->state = v;
		} else if (collect && (v = slurm_opt_value(argc, argv, &i, "--db", NULL, &bad))) {
			a->db = v;
		} else if (collect && (v = slurm_opt_value(argc, argv, &i, "--report", NULL, &bad))) {
			a->report = v;
		} else if (argv[i][0] == '-') {
			return cli_usage_error("slurm", "%s: unknown option '%s'",
					       cmd, argv[i]);
		} else if (a->job) {
			return cli_usage_error("slurm", "%s: unexpected argument '%s'",
					       cmd, argv[i]);
		} else {
			a->job = argv[i];
		}
	}
	if (bad || (a->db && cli_path_arg("slurm", "--db", a->db)) ||
	    (a->state && cli_path_arg("slurm", "--state-dir", a->state)))
		return EXIT_USAGE;
	if (!a->job)
		return cli_usage_error("slurm", "%s needs the job id that submit printed",
				       cmd);
	return -1;
}

char *slurm_job_spool(const struct slurm_job_args *a)
{
	char *state, *s;

	if (a->spool)
		return xstrdup(a->spool);
	state = paths_state_dir(a->state);
	s = xasprintf("%s/slurm", state);
	free(state);
	return s;
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
