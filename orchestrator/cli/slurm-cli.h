/* slurm-cli.h - what the `benchorch slurm` subcommands share: the usage
 * text, option scanning and the arguments of collect and status. */
#ifndef BENCHORCH_SLURM_CLI_H
#define BENCHORCH_SLURM_CLI_H

/* The `benchorch slurm --help` text. */
extern const char slurm_usage[];

/* The value of the slurm option NAME (or SHRT, may be NULL) at ARGV[*I],
 * as "--name VALUE" (*I then moves to VALUE) or "--name=VALUE": NULL
 * when ARGV[*I] is not that option; "" with *BAD set after a usage error
 * (no value left). */
const char *slurm_opt_value(int argc, char **argv, int *i, const char *name,
			    const char *shrt, int *bad);

/* Options of collect and status; strings borrowed from argv. */
struct slurm_job_args {
	const char *spool, *db, *state, *report, *job;
};

/* Parse collect's (COLLECT = 1: --db and --report too) or status's
 * arguments for subcommand CMD. Returns -1 when A is filled, else the
 * exit status to return (help printed, or a usage error). */
int slurm_job_parse(const char *cmd, int argc, char **argv,
		    struct slurm_job_args *a, int collect);

/* The spool directory of A: --spool, else STATE/slurm. Newly allocated. */
char *slurm_job_spool(const struct slurm_job_args *a);

/* `benchorch slurm collect` and `benchorch slurm status`: ARGV[0] is the
 * subcommand. Return an exit status (benchorch(1)). */
int slurm_collect_cmd(int argc, char **argv);
int slurm_status_cmd(int argc, char **argv);

#endif
