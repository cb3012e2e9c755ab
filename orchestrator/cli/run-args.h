/* run-args.h - check `benchorch run` options without running, for commands
 * that hand them on (slurm submit). */
#ifndef BENCHORCH_RUN_ARGS_H
#define BENCHORCH_RUN_ARGS_H

/* Parse ARGV (ARGC entries, ARGV[0] a command name, the rest `benchorch
 * run` options) exactly as `run` does and check the distributions it names
 * against the recipes and imported images, printing the same usage errors
 * as `run` on stderr, but as CMD's ("benchorch CMD: ...", "Try 'benchorch
 * CMD --help'"; CMD e.g. "slurm submit", kept by the caller). Nothing is
 * created or run. Returns 0 when run would accept them, else EXIT_USAGE
 * (also for --help, whose text, run's, is printed on stdout). Resets
 * getopt's optind. */
int run_args_check(const char *cmd, int argc, char **argv);

#endif
