/* run-open.c - the start every run shares (run-open.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/numbers.h"
#include "lib/paths.h"
#include "orchestrator/run/run-open.h"

/* A random (version 4) UUID from the kernel, into buf (>= 37 bytes).
 * Returns 0, or -1 with err set. */
static int new_uuid(char *buf, size_t len, bo_err *err)
{
	char *s;
	size_t n;

	if (bo_read_file("/proc/sys/kernel/random/uuid", 64, &s, &n, err) < 0)
		return -1;
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	snprintf(buf, len, "%s", s);
	free(s);
	return 0;
}

/* The command line as one string, arguments with spaces quoted. Caller
 * frees. */
static char *join_argv(int argc, char **argv)
{
	size_t cap = 32, len, i;
	char *s = xmalloc(cap);

	strcpy(s, "benchorch");
	len = strlen(s);
	for (i = 0; i < (size_t)argc; i++) {
		int quote = strpbrk(argv[i], " \t'\"") != NULL;
		size_t need = len + strlen(argv[i]) + 4;

		if (need > cap) {
			cap = need * 2;
			s = xrealloc(s, cap);
		}
		len += (size_t)sprintf(s + len, quote ? " '%s'" : " %s", argv[i]);
	}
	return s;
}

/* The CPU part of run_open: choice, information, state. Returns 0, or
 * -1 after saying why on stderr (nothing left to release). */
static int open_cpu(const struct run_open_opts *o, struct run_open *r)
{
	bo_err err;

	r->sysfs = paths_sysfs();
	if (cpuchoice_pick_self(r->sysfs, &r->choice) < 0) {
		if (o->say_errno)
			cli_error("cannot choose a CPU to pin the guests to: %s",
				  strerror(errno));
		else
			cli_error("cannot choose a CPU to pin the guests to");
		free(r->sysfs);
		r->sysfs = NULL;
		return -1;
	}
	if (cpuinfo_read("/proc/cpuinfo", &r->ci, &err) < 0) {
		cli_error("%s", err.msg);
		cpuchoice_release(&r->choice);
		free(r->sysfs);
		r->sysfs = NULL;
		return -1;
	}
	cpustate_read(r->sysfs, r->choice.cpu, r->ci.flags, &r->cs);
	if (o->probe_hypervisor && r->cs.virtualized == 1 && !r->cs.hypervisor)
		r->cs.hypervisor = cpustate_cpuid_hypervisor();
	return 0;
}

/* Release the CPU part of run_open. */
static void release_cpu(struct run_open *r)
{
	cpustate_release(&r->cs);
	cpuinfo_release(&r->ci);
	cpuchoice_release(&r->choice);
	free(r->sysfs);
	r->sysfs = NULL;
}

int run_open(const struct run_config *c, const struct run_open_opts *o,
	     struct run_open *r)
{
	struct db_run run;
	bo_err err;

	memset(r, 0, sizeof(*r));
	if (open_cpu(o, r) < 0)
		return EXIT_ENV;
	if (db_open(c->db_path, &r->db, &err) < 0) {
		cli_error("%s", err.msg);
		release_cpu(r);
		return EXIT_ENV;
	}
	gethostname(r->host, sizeof(r->host) - 1);
	if (db_reap_stale_runs(r->db, r->host, &err) < 0)
		cli_warn("%s", err.msg);
	if (new_uuid(r->uuid, sizeof(r->uuid), &err) < 0) {
		cli_error("%s", err.msg);
		sqlite3_close(r->db);
		release_cpu(r);
		return EXIT_ENV;
	}
	r->cmdline = join_argv(c->argc, c->argv);
	run = (struct db_run){
		.uuid = r->uuid,
		.host = r->host,
		.pid = (long)getpid(),
		.started_at = bo_utc_now(r->started, sizeof(r->started)),
		.command_line = r->cmdline,
		.cpu = &r->ci,
		.quick = o->quick,
		.seeded = o->seeded,
		.seed = o->seed,
		.state = &r->cs,
	};
	if (db_run_begin(r->db, &run, &r->run_id, &err) < 0) {
		cli_error("cannot record the run in '%s': %s", c->db_path,
			  err.msg);
		run_open_release(r);
		return EXIT_ENV;
	}
	return EXIT_OK;
}

void run_open_release(struct run_open *r)
{
	free(r->cmdline);
	r->cmdline = NULL;
	if (r->db)
		sqlite3_close(r->db);
	r->db = NULL;
	release_cpu(r);
}
