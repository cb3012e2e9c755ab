/* slurm-cli.h - the `benchorch slurm` subcommands that cmd-slurm.c hands
 * a command line to (what they share with it is in slurm-job.h). */
#ifndef BENCHORCH_SLURM_CLI_H
#define BENCHORCH_SLURM_CLI_H

/* `benchorch slurm collect` and `benchorch slurm status`: ARGV (ARGC
 * entries) from the subcommand's name on. Return an exit status
 * (benchorch(1)): collect 0 every task merged, 1 some missing, 2 usage
 * error, 3 the submission, a database or the report unusable;
 * status 0 listed, 2 usage
 * error or no such submission. */
int slurm_collect_cmd(int argc, char **argv);
int slurm_status_cmd(int argc, char **argv);

#endif
