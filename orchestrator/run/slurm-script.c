/* slurm-script.c - the shell script that submits a benchorch run to Slurm:
 * the per-node tasks and the merge job after them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/run/slurm.h"

char *slurm_shell_quote(const char *s)
{
	size_t n = 3, i, o = 0;
	char *q;

	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	q = xmalloc(n);
	q[o++] = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(q + o, "'\\''", 4);
			o += 4;
		} else {
			q[o++] = s[i];
		}
	}
	q[o++] = '\'';
	q[o] = '\0';
	return q;
}

/* Print "NAME=QUOTED-VALUE" as a line of the script. */
static void assign(FILE *f, const char *name, const char *value)
{
	char *q = slurm_shell_quote(value);

	fprintf(f, "%s=%s\n", name, q);
	free(q);
}

/* The shell function check_spool, that stops the script with one line
 * unless $spool passes slurm_spool_check's rules (find -P does not
 * follow a symlink given as its start: a link is no directory). */
static const char check_spool_fn[] =
	"check_spool() {\n"
	"\t[ -n \"$(find \"$spool\" -maxdepth 0 -type d \\( -user 0 -o -user \"$(id -u)\" \\) \\\n"
	"\t\t! -perm /022 2>/dev/null)\" ] || {\n"
	"\t\techo \"benchorch: refusing spool '$spool': not a directory of this user or root that only its owner may write\" >&2\n"
	"\t\texit 1\n"
	"\t}\n"
	"}\n";

/* The shell functions of the submitting script: need_sbatch stops it
 * with one line when there is no sbatch to run; job_id ID WHAT checks
 * that ID, what `sbatch --parsable` printed for WHAT (its cluster name cut
 * off), is a job id, and stops the script with one line saying what it
 * printed when it is not, before the id is used anywhere, and adds it to
 * $queued; refused WHAT says sbatch refused WHAT. Both cancel the jobs
 * queued before (scancel) and stop the script. sbatch's own message,
 * when it refuses, goes to stderr as it wrote it. */
static const char submit_fns[] =
	"need_sbatch() {\n"
	"\tcommand -v sbatch >/dev/null 2>&1 || {\n"
	"\t\techo \"benchorch: no sbatch in PATH: submit from a host with the Slurm client commands\" >&2\n"
	"\t\texit 1\n"
	"\t}\n"
	"}\n"
	"# the jobs queued so far: cancelled when a later one fails, so that\n"
	"# no task runs without the merge job\n"
	"queued=\n"
	"unqueue() {\n"
	"\t[ -z \"$queued\" ] || {\n"
	"\t\techo \"benchorch: cancelling the jobs queued so far:$queued\" >&2\n"
	"\t\tscancel $queued || :\n"
	"\t}\n"
	"}\n"
	"job_id() {\n"
	"\tcase $1 in\n"
	"\t''|*[!0-9]*)\n"
	"\t\techo \"benchorch: sbatch --parsable printed '$1' for $2, not a job id\" >&2\n"
	"\t\tunqueue\n"
	"\t\texit 1 ;;\n"
	"\tesac\n"
	"\tqueued=\"$queued $1\"\n"
	"}\n"
	"# refused WHAT: sbatch refused WHAT; stops the script after sbatch's\n"
	"# own message\n"
	"refused() {\n"
	"\techo \"benchorch: sbatch refused $1 (its message is above)\" >&2\n"
	"\tunqueue\n"
	"\texit 1\n"
	"}\n";

/* The lines of one task, a script of its own: run benchorch, recording
 * node and exit status. IN_STEP: the task is one of a job step's (srun),
 * named JOB_RANK; else the batch script of a job of its own, named JOB. */
static void write_task_lines(FILE *f, const struct slurm_submit *s,
			     int in_step)
{
	char *bin = slurm_shell_quote(s->benchorch);
	char *spool = slurm_shell_quote(s->spool);
	int i;

	fputs("#!/bin/sh\n"
	      "# One benchorch task: its node alone (--exclusive).\n", f);
	fputs(in_step ? "task=${SLURM_JOB_ID}_$SLURM_PROCID\n" :
			"task=$SLURM_JOB_ID\n", f);
	fputs("host=$(hostname -s)\n", f);
	fprintf(f, "spool=%s\n", spool);
	fputs(check_spool_fn, f);
	fputs("# no file is written over, nor through a link to one\n"
	      "set -C\n"
	      "check_spool\n"
	      "echo \"benchorch: task $task on node $host\" >&2\n"
	      "# 'benchorch run' needs root: said here, in the task's log, and\n"
	      "# recorded as its exit status 3 (where the spool lets this user)\n"
	      "if [ \"$(id -u)\" -ne 0 ]; then\n"
	      "\techo \"benchorch: task $task on node $host runs as user $(id -un 2>/dev/null || id -u), not root: 'benchorch run' needs root (systemd-nspawn, mounts); submit as a user Slurm runs as root\" >&2\n"
	      "\tprintf '%s\\n' \"$host\" >\"$spool/$task.node\" 2>/dev/null || :\n"
	      "\tprintf '3\\n\\n' >\"$spool/$task.exit\" 2>/dev/null || :\n"
	      "\texit 3\n"
	      "fi\n"
	      "printf '%s\\n' \"$host\" >\"$spool/$task.node\"\n", f);
	fputs("# the run writes its database on this node, not on the shared\n"
	      "# file system (SQLite's locks and write-ahead log need a local one)\n"
	      "part=\n"
	      "local=$(mktemp -d \"${TMPDIR:-/tmp}/benchorch-task.XXXXXX\") || {\n"
	      "\techo \"benchorch: task $task on node $host: cannot make a directory in '${TMPDIR:-/tmp}'\" >&2\n"
	      "\tprintf '3\\n\\n' >\"$spool/$task.exit\"\n"
	      "\texit 3\n"
	      "}\n", f);
	fprintf(f, "%s run", bin);
	for (i = 0; i < s->run_argc; i++) {
		char *q = slurm_shell_quote(s->run_argv[i]);

		fprintf(f, " %s", q);
		free(q);
	}
	fputs(" --db \"$local/results.db\"\n"
	      "rc=$?\n"
	      "# the database, closed by run (its write-ahead log folded in),\n"
	      "# goes into the spool whole: copied beside its name, then renamed\n"
	      "# to it, so that a file of that name is always a complete one; its\n"
	      "# digest is recorded, and collect merges no other\n"
	      "db=\"$spool/$host-$task.db\" digest=\n"
	      "if [ -f \"$local/results.db\" ] && sum=$(sha256sum <\"$local/results.db\") &&\n"
	      "\tpart=$(mktemp \"$spool/.$host-$task.db.XXXXXX\") &&\n"
	      "\tcat \"$local/results.db\" >|\"$part\" && mv -f \"$part\" \"$db\"; then\n"
	      "\tdigest=sha256:${sum%% *}\n"
	      "elif [ -f \"$local/results.db\" ]; then\n"
	      "\techo \"benchorch: task $task on node $host: cannot copy its database into '$spool'\" >&2\n"
	      "\t[ -z \"$part\" ] || rm -f \"$part\"\n"
	      "fi\n"
	      "rm -rf \"$local\"\n"
	      "printf '%s\\n%s\\n' \"$rc\" \"$digest\" >\"$spool/$task.exit\"\n"
	      "exit $rc\n", f);
	free(bin);
	free(spool);
}

/* The shell function task_body, that prints the batch script of a job
 * of one task (one node of --nodelist). */
static void write_task_body(FILE *f, const struct slurm_submit *s)
{
	fputs("task_body() {\n"
	      "\tcat <<'EOF'\n", f);
	write_task_lines(f, s, 0);
	fputs("EOF\n"
	      "}\n", f);
}

/* The shell function job_body, that prints the batch script of the job
 * of N nodes: srun starts the task once on each node of the job. Slurm
 * gives a job of --nodes=N N distinct nodes, where an array's tasks may
 * run one after the other on one node; --ntasks-per-node=1 puts one task
 * on each. A task that fails stops no other (--kill-on-bad-exit=0), nor
 * does a node that fails (sbatch --no-kill). The step uses all of each
 * node (srun's default since Slurm 21.08). Each task's output goes to
 * SPOOL/JOB_RANK.log, the batch script's (srun's messages) to
 * SPOOL/JOB.log. */
static void write_job_body(FILE *f, const struct slurm_submit *s)
{
	fputs("job_body() {\n"
	      "\tcat <<'EOF'\n"
	      "#!/bin/sh\n"
	      "# One benchorch job on N distinct nodes: srun starts the task below\n"
	      "# once on each of them (--ntasks-per-node=1), each task named\n"
	      "# JOB_RANK; one that fails stops no other.\n", f);
	assign(f, "spool", s->spool);
	fputs("task=$(cat <<'TASK'\n", f);
	write_task_lines(f, s, 1);
	fputs("TASK\n"
	      ")\n"
	      "exec srun --nodes=\"$SLURM_JOB_NUM_NODES\" --ntasks=\"$SLURM_JOB_NUM_NODES\" \\\n"
	      "\t--ntasks-per-node=1 --kill-on-bad-exit=0 --output=\"$spool/%j_%t.log\" \\\n"
	      "\t/bin/sh -c \"$task\"\n"
	      "EOF\n"
	      "}\n", f);
}

/* The submission of the job per node of S->nodelist (each node once),
 * setting $job (the first), $tasks and $deps. */
static void write_submit_list(FILE *f, const struct slurm_submit *s)
{
	write_task_body(f, s);
	assign(f, "nodelist", s->nodelist);
	fputs("# One job per node of the list, each node once: an array task\n"
	      "# cannot be sent to a node of its own choosing.\n"
	      "job= tasks= deps=\n"
	      "for node in $(scontrol show hostnames \"$nodelist\" | awk '!seen[$0]++'); do\n"
	      "\tid=$(task_body | sbatch --parsable $sbatch_opts ${part:+\"$part\"} ${limit:+\"$limit\"} \\\n"
	      "\t\t--nodes=1 --job-name=benchorch --nodelist=\"$node\" --output=\"$spool/%j.log\") ||\n"
	      "\t\trefused \"the task for node $node\"\n"
	      "\tid=${id%%;*}\n"
	      "\tjob_id \"$id\" \"the task for node $node\"\n"
	      "\tjob=${job:-$id}\n"
	      "\ttasks=\"$tasks${tasks:+ }$id\"\n"
	      "\tdeps=\"$deps:$id\"\n"
	      "done\n"
	      "[ -n \"$job\" ] || { echo \"benchorch: no node in '$nodelist'\" >&2; exit 1; }\n",
	      f);
}

/* The submission of the one job of S->nodes nodes, tried first with
 * sbatch --test-only, setting $job, $tasks and $deps. */
static void write_submit_nodes(FILE *f, const struct slurm_submit *s)
{
	write_job_body(f, s);
	fprintf(f, "nodes=%ld\n", s->nodes);
	fprintf(f, "of='%ld node%s'\n", s->nodes, s->nodes == 1 ? "" : "s");
	fputs("# one job of N nodes, not an array: Slurm gives a job N distinct\n"
	      "# nodes, where array tasks may run one after another on one node.\n"
	      "# sbatch --test-only first: a cluster that does not enforce its\n"
	      "# partitions' limits (EnforcePartLimits=NO, the default) would queue\n"
	      "# a job of more nodes than the partition has up, for ever\n"
	      "job_opts=\"--nodes=$nodes --ntasks-per-node=1 --no-kill --job-name=benchorch\"\n"
	      "what=\"the job of $of, one task on each (no node is measured twice: the partition needs $of up; sinfo lists them)\"\n"
	      "why=$(job_body | sbatch --test-only $sbatch_opts ${part:+\"$part\"} ${limit:+\"$limit\"} \\\n"
	      "\t$job_opts 2>&1 >/dev/null) || {\n"
	      "\tprintf '%s\\n' \"$why\" >&2\n"
	      "\trefused \"$what\"\n"
	      "}\n"
	      "job=$(job_body | sbatch --parsable $sbatch_opts ${part:+\"$part\"} ${limit:+\"$limit\"} \\\n"
	      "\t$job_opts --output=\"$spool/%j.log\") || refused \"$what\"\n"
	      "job=${job%%;*}\n"
	      "job_id \"$job\" \"the job of $of\"\n"
	      "tasks= i=0\n"
	      "while [ $i -lt $nodes ]; do\n"
	      "\ttasks=\"$tasks${tasks:+ }${job}_$i\"\n"
	      "\ti=$((i + 1))\n"
	      "done\n"
	      "deps=\":$job\"\n", f);
}

void slurm_script_write(FILE *f, const struct slurm_submit *s)
{
	char *bin = slurm_shell_quote(s->benchorch);
	char *db = slurm_shell_quote(s->db);

	fputs("#!/bin/sh\n"
	      "# Submit a benchorch run to Slurm: one exclusive task on each of N\n"
	      "# distinct nodes (one job of N nodes; with a node list, one job per\n"
	      "# node), each 'benchorch run' into its own database in the spool, then a\n"
	      "# job that merges them (after every task, whether it succeeded or not)\n"
	      "# into the central database and writes a report. Written by\n"
	      "# 'benchorch slurm submit'; run it with sh. The spool directory must be\n"
	      "# one that every node and this host share.\n"
	      "# The tasks need root on the nodes: 'benchorch run' starts containers\n"
	      "# (systemd-nspawn) and mounts file systems. Slurm runs a job as the\n"
	      "# user who submitted it, so submit as root (or where Slurm runs jobs\n"
	      "# as root); a task that is not root stops with one line, status 3.\n"
	      "set -eu\n", f);
	assign(f, "spool", s->spool);
	fputs("sbatch_opts=--exclusive\n", f);
	if (s->partition) {
		char *p = xasprintf("--partition=%s", s->partition);
		char *q = slurm_shell_quote(p);

		fprintf(f, "part=%s\n", q);
		free(p);
		free(q);
	} else {
		fputs("part=\n", f);
	}
	if (s->time) {
		char *p = xasprintf("--time=%s", s->time);
		char *q = slurm_shell_quote(p);

		fprintf(f, "limit=%s\n", q);
		free(p);
		free(q);
	} else {
		fputs("limit=\n", f);
	}
	fputs(submit_fns, f);
	fputs("need_sbatch\n", f);
	fputs("mkdir -p \"$spool\"\n", f);
	fputs(check_spool_fn, f);
	fputs("check_spool\n"
	      "# no file is written over, nor through a link to one\n"
	      "set -C\n", f);
	if (s->nodelist)
		write_submit_list(f, s);
	else
		write_submit_nodes(f, s);
	fputs("printf '%s\\n' $tasks >\"$spool/$job.tasks\"\n", f);
	fputs("merge=$(sbatch --parsable ${part:+\"$part\"} --job-name=benchorch-merge \\\n"
	      "\t--dependency=\"afterany$deps\" --output=\"$spool/$job.merge.log\" \\\n"
	      "\t--export=ALL,BENCHORCH_SLURM_JOB=\"$job\" <<'EOF'\n"
	      "#!/bin/sh\n"
	      "# Merge every task's database into the central one, and report.\n", f);
	{
		char *spool = slurm_shell_quote(s->spool);

		fprintf(f, "exec %s slurm collect --spool %s --db %s \"$BENCHORCH_SLURM_JOB\"\n",
			bin, spool, db);
		free(spool);
	}
	fputs("EOF\n"
	      ") || refused \"the merge job\"\n"
	      "merge=${merge%%;*}\n"
	      "job_id \"$merge\" \"the merge job\"\n"
	      "printf '%s\\n' \"$merge\" >\"$spool/$job.merge\"\n"
	      "printf 'job %s\\ntasks %s\\nmerge %s\\n' \"$job\" \"$tasks\" \"$merge\"\n",
	      f);
	free(bin);
	free(db);
}
