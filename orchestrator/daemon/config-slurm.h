/* config-slurm.h - the Slurm words of a schedule in benchorch.conf(5):
 * "slurm [partition=P] [nodes=N | nodelist=LIST] [spool=DIR] [time=T]"
 * sends the schedule's run to a Slurm cluster instead of running it here. */
#ifndef BENCHORCH_CONFIG_SLURM_H
#define BENCHORCH_CONFIG_SLURM_H

#include <stdio.h>

#include "lib/util.h"

/* Where and how a schedule goes to Slurm (benchorch slurm submit's
 * options). Strings owned; NULL = submit's default. */
struct sched_slurm {
	int enabled;		/* the word "slurm" was given */
	char *partition;	/* --partition */
	long nodes;		/* --nodes, 1 to 10000; 0 = not given (1) */
	char *nodelist;		/* --nodelist */
	char *spool;		/* --spool, an absolute path */
	char *time;		/* --time, sbatch's syntax */
};

/* Take WORD of a schedule line if it is one of the Slurm words, into *S
 * (allocated on first use). Returns 1 when taken, 0 when WORD is not a
 * Slurm word, -1 with err set when it is one with a bad value
 * ("nodes=0", "spool=relative", an empty value). */
int conf_slurm_word(struct sched_slurm **s, const char *word, bo_err *err);

/* Check S once its schedule line is read: a value word without "slurm",
 * or nodes= with nodelist=, is an error. S may be NULL. Returns 0, or -1
 * with err set. */
int conf_slurm_check(const struct sched_slurm *s, bo_err *err);

/* Print S's words (with a leading space each) to F, in the order
 * conf_slurm_word reads them; nothing for NULL. */
void conf_slurm_print(FILE *f, const struct sched_slurm *s);

/* Free S; NULL is fine. */
void conf_slurm_free(struct sched_slurm *s);

#endif
