/* slurm-job.c - what the `benchorch slurm` subcommands share: the --help
 * text and the options of collect and status (see slurm-job.h). */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/paths.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/slurm-job.h"
#include "orchestrator/run/slurm.h"

const char slurm_usage[] =
"Usage: benchorch slurm submit [--partition P] [--nodes N | --nodelist LIST]\n"
"                              --spool DIR --db PATH [--time LIMIT]\n"
"                              [--dry-run] RUN-OPTIONS...\n"
"       benchorch slurm status [--spool DIR] JOB\n"
"       benchorch slurm collect [--spool DIR] [--db PATH] [--report FILE] JOB\n"
"\n"
"submit: run 'benchorch run RUN-OPTIONS' on N nodes of a Slurm cluster at\n"
"once, each node alone (--exclusive), and merge their results into one\n"
"database. RUN-OPTIONS are those of 'benchorch run' (--distros, --quick,\n"
"--libs, --state-dir, ...), checked here first as run checks them.\n"
"It submits one job of N nodes that starts one task on each (srun\n"
"--ntasks-per-node=1): Slurm gives it N distinct nodes, so no node is\n"
"measured twice, where an array's tasks could run one after the other on\n"
"one node; it waits until N nodes are free, and is first tried with\n"
"sbatch --test-only, which refuses it when the partition has fewer than N\n"
"nodes up (no array: MaxArraySize does not apply). With\n"
"--nodelist: one job per node of LIST, each node once. Each task runs\n"
"'benchorch run RUN-OPTIONS' into a database on its node ($TMPDIR), then\n"
"copies it whole into DIR/HOST-TASK.db (a copy renamed into place), with\n"
"its log in DIR/TASK.log (TASK: JOB_RANK), then a job that waits for\n"
"all of them\n"
"(--dependency=afterany: a failed, cancelled or timed-out task does not\n"
"block it) and runs 'benchorch slurm collect JOB': every task's database\n"
"is merged into the central one (--db) and a report is written to\n"
"DIR/JOB.report.html. It prints 'job JOB', 'tasks ...' and 'merge ID'.\n"
"submit needs --spool and --db, both on a file system every node shares\n"
"(the defaults under the state directory are local to each node); a\n"
"--state-dir in RUN-OPTIONS, when given, must be absolute.\n"
"Images are cached where RUN-OPTIONS' --state-dir says on each node\n"
"(default /var/lib/benchorch: node-local); a shared --state-dir also\n"
"works once the images are built. The spool DIR must be a directory that\n"
"every node and this host share, with the same path, owned by this user\n"
"or root and writable by no one else (not a symlink); any other is\n"
"refused. Each task records the SHA-256 of its database in DIR/TASK.exit\n"
"and collect merges no other. sbatch gets 300 seconds to answer.\n"
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
"  -N, --nodes N          N distinct nodes, one task each, 1 to 10000\n"
"                         (default 1)\n"
"  -w, --nodelist LIST    one task on each node of the Slurm host list\n"
"                         LIST (e.g. 'node[1-4]')\n"
"      --spool DIR        shared directory for the tasks' databases and\n"
"                         logs (submit: required; status, collect:\n"
"                         default STATE/slurm, STATE from --state-dir,\n"
"                         $BENCHORCH_STATE_DIR or /var/lib/benchorch)\n"
"      --db PATH          the central database (submit: required, shared;\n"
"                         collect: default $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"  -t, --time LIMIT       time limit of each job, so of its tasks, which\n"
"                         run at once (sbatch --time: MINUTES,\n"
"                         MM:SS, HH:MM:SS, D-HH[:MM[:SS]], UNLIMITED)\n"
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

void slurm_help(FILE *f, const void *ctx)
{
	(void)ctx;
	fputs(slurm_usage, f);
}

/* status's options; its rows are collect's first ones. Strings, checked
 * after the parse, as they always were. */
static const struct opt_def status_options[] = {
	{ .name = "spool", .kind = OPT_STRING, .arg = "DIR",
	  .offset = offsetof(struct slurm_job_args, spool) },
	{ .name = "state-dir", .kind = OPT_STRING, .arg = "DIR",
	  .offset = offsetof(struct slurm_job_args, state) },
	{ .kind = OPT_END },
};

static const struct opt_def collect_options[] = {
	{ .kind = OPT_GROUP, .group = status_options },
	{ .name = "db", .kind = OPT_STRING, .arg = "PATH",
	  .offset = offsetof(struct slurm_job_args, db) },
	{ .name = "report", .kind = OPT_STRING, .arg = "FILE",
	  .offset = offsetof(struct slurm_job_args, report) },
	{ .kind = OPT_END },
};

/* What job_arg needs: the subcommand (for its messages) and the args. */
struct job_parse {
	const char *cmd;
	struct slurm_job_args *a;
};

/* An element of the command line that is no option of the table (an
 * opts_parse_pass callback): the job id, once; another option is
 * unknown, another argument unexpected. */
static int job_arg(const char *arg, void *ctx)
{
	struct job_parse *p = ctx;

	if (arg[0] == '-')
		return cli_usage_error(p->cmd, "unknown option '%s'", arg);
	if (p->a->job)
		return cli_usage_error(p->cmd, "unexpected argument '%s'",
				       arg);
	p->a->job = arg;
	return 0;
}

int slurm_job_parse(const char *cmd, int argc, char **argv,
		    struct slurm_job_args *a, int collect)
{
	/* messages in the subcommand's name, "benchorch slurm status: " */
	char name[32];
	struct job_parse p = { name, a };
	int rc;

	snprintf(name, sizeof(name), "slurm %s", cmd);
	rc = opts_parse_pass(name, collect ? collect_options :
				 status_options, a, argc, argv, job_arg, &p,
				 slurm_help, NULL);

	if (rc < 0)
		return EXIT_OK;
	if (rc != 0 || (a->db && cli_path_arg(name, "--db", a->db)) ||
	    (a->state && cli_path_arg(name, "--state-dir", a->state)))
		return EXIT_USAGE;
	if (!a->job)
		return cli_usage_error(name, "needs the job id that submit printed");
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

long slurm_job_tasks(const struct slurm_job_args *a, char **spool,
		     struct slurm_task **tasks)
{
	bo_err err;
	long n;

	*spool = slurm_job_spool(a);
	n = slurm_tasks_read(*spool, a->job, tasks, &err);
	if (n < 0) {
		cli_error("%s", err.msg);
		free(*spool);
		*spool = NULL;
	}
	return n;
}
