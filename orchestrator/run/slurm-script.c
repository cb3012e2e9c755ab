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

/* The body of one task: run benchorch, recording node and exit status. */
static void write_task_body(FILE *f, const struct slurm_submit *s)
{
	char *bin = slurm_shell_quote(s->benchorch);
	char *spool = slurm_shell_quote(s->spool);
	int i;

	fputs("task_body() {\n"
	      "\tcat <<'EOF'\n"
	      "#!/bin/sh\n"
	      "# One benchorch task: its node alone (--exclusive).\n"
	      "task=${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}${SLURM_ARRAY_TASK_ID:+_$SLURM_ARRAY_TASK_ID}\n"
	      "host=$(hostname -s)\n", f);
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
	      "exit $rc\n"
	      "EOF\n"
	      "}\n", f);
	free(bin);
	free(spool);
}

void slurm_script_write(FILE *f, const struct slurm_submit *s)
{
	char *bin = slurm_shell_quote(s->benchorch);
	char *db = slurm_shell_quote(s->db);

	fputs("#!/bin/sh\n"
	      "# Submit a benchorch run to Slurm: one exclusive task per node, each\n"
	      "# 'benchorch run' into its own database in the spool directory, then a\n"
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
	fputs("sbatch_opts=\"--parsable --exclusive --nodes=1\"\n", f);
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
	write_task_body(f, s);
	if (s->nodelist) {
		assign(f, "nodelist", s->nodelist);
		fputs("# One job per node of the list: an array task cannot be sent\n"
		      "# to a node of its own choosing.\n"
		      "job= tasks= deps=\n"
		      "for node in $(scontrol show hostnames \"$nodelist\"); do\n"
		      "\tid=$(task_body | sbatch $sbatch_opts ${part:+\"$part\"} ${limit:+\"$limit\"} \\\n"
		      "\t\t--job-name=benchorch --nodelist=\"$node\" --output=\"$spool/%j.log\") ||\n"
		      "\t\trefused \"the task for node $node\"\n"
		      "\tid=${id%%;*}\n"
		      "\tjob_id \"$id\" \"the task for node $node\"\n"
		      "\tjob=${job:-$id}\n"
		      "\ttasks=\"$tasks${tasks:+ }$id\"\n"
		      "\tdeps=\"$deps:$id\"\n"
		      "done\n"
		      "[ -n \"$job\" ] || { echo \"benchorch: no node in '$nodelist'\" >&2; exit 1; }\n",
		      f);
	} else {
		fprintf(f, "nodes=%ld\n", s->nodes);
		fputs("job=$(task_body | sbatch $sbatch_opts ${part:+\"$part\"} ${limit:+\"$limit\"} \\\n"
		      "\t--job-name=benchorch --array=0-$((nodes - 1)) --output=\"$spool/%A_%a.log\") ||\n"
		      "\trefused \"the array of $nodes tasks\"\n"
		      "job=${job%%;*}\n"
		      "job_id \"$job\" \"the array of $nodes tasks\"\n"
		      "tasks= i=0\n"
		      "while [ $i -lt $nodes ]; do\n"
		      "\ttasks=\"$tasks${tasks:+ }${job}_$i\"\n"
		      "\ti=$((i + 1))\n"
		      "done\n"
		      "deps=\":$job\"\n", f);
	}
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
