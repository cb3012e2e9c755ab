/* cmd-slurm-status.c - `benchorch slurm status`: each task of a
 * submission, from the spool directory and squeue. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/messages.h"
#include "lib/spawn.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/slurm-cli.h"
#include "orchestrator/cli/slurm-job.h"
#include "orchestrator/run/slurm.h"

/* How long status waits for squeue, in seconds: a controller that does
 * not answer leaves the states unknown, not status hanging. */
#define SQUEUE_TIMEOUT_S 30

/* A line of squeue's output (a spawn_line_fn): appended to the stream
 * CTX. */
static int squeue_line(void *ctx, const char *line, size_t len, int truncated)
{
	(void)truncated;
	fprintf(ctx, "%.*s\n", (int)len, line);
	return 0;
}

/* squeue's state of each job and array task of JOBS (comma-separated ids),
 * as "ID STATE" lines, or NULL when squeue cannot tell (missing, failed,
 * or no answer in SQUEUE_TIMEOUT_S). Caller frees. */
static char *squeue_states(const char *jobs)
{
	const char *argv[] = { "squeue", "-h", "-j", jobs, "-o", "%i %T", NULL };
	struct spawn_opts o = {
		.argv = argv, .cpu = -1, .log_fd = -1, .on_line = squeue_line,
		.timeout_ns = (uint64_t)SQUEUE_TIMEOUT_S * 1000000000u,
	};
	struct spawn_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	bo_err err;
	int rc;

	if (!mem)
		return NULL;
	o.line_ctx = mem;
	rc = spawn_run(&o, &r, &err);
	fclose(mem);
	if (rc < 0 || r.status != SPAWN_EXITED || r.exit_code != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The state squeue gives task ID in STATES ("RUNNING", ...), lowercase in
 * BUF, or NULL when it is not queued. The tasks JOB_RANK of a job of N
 * nodes (one task per node) have the state of the job, "JOB"; a pending
 * array (of older submissions) shows as "JOB_[1-3]": such a line counts
 * for every index of JOB not listed alone. */
static const char *queued_state(const char *states, const char *id, char *buf,
				size_t len)
{
	const char *line = states, *pending = NULL;
	size_t idlen = strlen(id), joblen = strcspn(id, "_");
	size_t i;

	if (!states)
		return NULL;
	for (; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *sp = strchr(line, ' ');

		if (!sp)
			continue;
		if ((size_t)(sp - line) == idlen && strncmp(line, id, idlen) == 0) {
			pending = sp + 1;
			break;
		}
		if (id[joblen] == '_' && strncmp(line, id, joblen) == 0 &&
		    ((size_t)(sp - line) == joblen ||
		     (line[joblen] == '_' && line[joblen + 1] == '[')))
			pending = sp + 1;
	}
	if (!pending)
		return NULL;
	for (i = 0; i + 1 < len && pending[i] && pending[i] != '\n'; i++)
		buf[i] = (char)(pending[i] >= 'A' && pending[i] <= 'Z' ?
				pending[i] - 'A' + 'a' : pending[i]);
	buf[i] = '\0';
	return buf;
}

int slurm_status_cmd(int argc, char **argv)
{
	struct slurm_job_args a = { 0 };
	struct slurm_task *t;
	char *spool, *jobs, *states, *path, *merge;
	long n, i;
	size_t jl = 0;
	int rc = slurm_job_parse("status", argc, argv, &a, 0);
	bo_err err;
	struct stat st;

	if (rc >= 0)
		return rc;
	n = slurm_job_tasks(&a, &spool, &t);
	if (n < 0)
		return EXIT_USAGE;
	jobs = xstrdup(a.job);
	for (i = 0; i < n; i++) {
		size_t l = strcspn(t[i].id, "_");

		if (strncmp(t[i].id, a.job, l) == 0 && a.job[l] == '\0')
			continue;
		jl = strlen(jobs);
		jobs = xrealloc(jobs, jl + l + 2);
		jobs[jl] = ',';
		memcpy(jobs + jl + 1, t[i].id, l);
		jobs[jl + 1 + l] = '\0';
	}
	path = xasprintf("%s/%s.merge", spool, a.job);
	merge = NULL;
	if (slurm_spool_read(path, 64, &merge, &err) == 0) {
		merge[strcspn(merge, "\n")] = '\0';
		if (!*merge || strspn(merge, "0123456789") != strlen(merge)) {
			free(merge);
			merge = NULL;
		} else {
			char *j2 = xasprintf("%s,%s", jobs, merge);

			free(jobs);
			jobs = j2;
		}
	}
	free(path);
	states = squeue_states(jobs);
	printf("%-16s %-20s %-44s %s\n", "TASK", "NODE", "STATE", "DATABASE");
	for (i = 0; i < n; i++) {
		char buf[64], qb[32];
		const char *q = queued_state(states, t[i].id, qb, sizeof(qb));
		const char *s;
		char *node, *dbp;

		if (t[i].exit_set && t[i].exit_status == 0)
			s = "done";
		else if (t[i].exit_set)
			snprintf(buf, sizeof(buf), "failed (exit status %d)",
				 t[i].exit_status), s = buf;
		else if (q)
			s = q;
		else if (!states)
			s = t[i].node ? "unknown (squeue cannot tell)" :
					"not started or unknown";
		else
			s = t[i].node ? "stopped (killed, cancelled or timed out)" :
					"never started";
		/* the node's name, and the database path made of it,
		 * come from the spool */
		node = msg_escaped(t[i].node ? t[i].node : "-");
		dbp = msg_escaped(t[i].db ? t[i].db : "-");
		printf("%-16s %-20s %-44s %s\n", t[i].id, node, s, dbp);
		free(node);
		free(dbp);
	}
	if (merge) {
		char qb[32];
		const char *q = queued_state(states, merge, qb, sizeof(qb));
		char *rep = xasprintf("%s/%s.report.html", spool, a.job);

		if (q)
			printf("merge job %s: %s\n", merge, q);
		else if (stat(rep, &st) == 0)
			printf("merge job %s: finished, report '%s'\n", merge, rep);
		else
			printf("merge job %s: not queued, no report (log '%s/%s.merge.log')\n",
			       merge, spool, a.job);
		free(rep);
	}
	free(states);
	free(merge);
	free(jobs);
	slurm_tasks_free(t, n);
	free(spool);
	return EXIT_OK;
}
