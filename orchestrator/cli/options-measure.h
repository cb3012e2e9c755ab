/* options-measure.h - the option rows of how the guests measure, shared
 * by the commands that start guests or have them started: run and
 * confirm (and, through run's table, slurm submit) take them all, submit
 * takes --quick.
 *
 * A command embeds a struct measure_opts in its options struct, includes
 * the groups below at its offset, and after parsing copies it into the
 * engine's configuration with measure_to_run or measure_to_confirm.
 */
#ifndef BENCHORCH_OPTIONS_MEASURE_H
#define BENCHORCH_OPTIONS_MEASURE_H

#include <stdint.h>

#include "orchestrator/cli/options.h"
#include "orchestrator/run/runner.h"

/* The default of --timeout: seconds a guest invocation may run. */
#define MEASURE_DEFAULT_TIMEOUT_S 1800

/* A count that may be given or not. */
struct measure_count {
	int set;		/* 1: given */
	unsigned n;
};

/* A seed that may be given or not. */
struct measure_seed {
	int set;		/* 1: given; else one is drawn */
	uint64_t n;		/* 0 .. SHUFFLE_SEED_MAX */
};

/* The values of the rows below; 0 (or not set) = the guest's default,
 * except for runner and timeout_s, which measure_init sets. */
struct measure_opts {
	int quick;			/* --quick */
	uint64_t min_batch_ns;		/* --min-batch-ms, in ns */
	unsigned repetitions;		/* --repetitions: samples a set */
	struct measure_count max_reruns; /* --max-reruns: sets after the
					  * first */
	struct measure_seed seed;	/* --seed */
	enum runner_kind runner;	/* --runner */
	long timeout_s;			/* --timeout, seconds */
};

/* OPT_VALUE parse functions of --libs LIST and --algos LIST: every name
 * one the guest knows (request-check.h: "--libs: unknown name 'x'
 * (known: ...)"), the list as given into the const char * at DEST.
 * Return 0, or -1 with err set. */
int measure_parse_libs(const char *arg, void *dest, bo_err *err);
int measure_parse_algos(const char *arg, void *dest, bo_err *err);
/* The same for `run --algos LIST`, which also takes the public-key
 * algorithms (x25519, x448, ed25519, ecdh-p256, ecdsa-p256, rsa-2048,
 * rsa-3072, rsa-pss-2048, ml-kem-768, ml-dsa-65:
 * request_check_run_algos). */
int measure_parse_run_algos(const char *arg, void *dest, bo_err *err);

/* --quick alone (OPT_FLAG; offsets in struct measure_opts). */
extern const struct opt_def measure_quick_options[];

/* --seed N alone (offset of the struct measure_seed in struct
 * measure_opts); "--seed: 'x' is not a whole number". */
extern const struct opt_def measure_seed_options[];

/* --quick, --min-batch-ms MS, --repetitions N, --max-reruns N and --seed
 * N (offsets in struct measure_opts). A malformed value is "--NAME: " and
 * cli_parse_ll's or cli_parse_double's message, --seed's too ("--seed:
 * 'x' is not a whole number"). */
extern const struct opt_def measure_options[];

/* --runner KIND ("auto", "nspawn" or "chroot"; runner_kind_parse's
 * message) and --timeout SECONDS (1 to 7 days; "--timeout takes seconds:
 * " and cli_parse_ll's message), offsets in struct measure_opts. */
extern const struct opt_def measure_guest_options[];

/* Set M's defaults: every value 0 but runner RUNNER_AUTO and timeout_s
 * MEASURE_DEFAULT_TIMEOUT_S. */
void measure_init(struct measure_opts *m);

struct run_config;
struct confirm_config;

/* Copy M into the fields of C (run.h) or CC (confirm.h) that hold the
 * same values: quick, min_batch_ns, repetitions, max_reruns(_set),
 * seed(_set), kind and timeout_s. Nothing else is touched; nothing is
 * allocated. */
void measure_to_run(const struct measure_opts *m, struct run_config *c);
void measure_to_confirm(const struct measure_opts *m,
			struct confirm_config *cc);

#endif
