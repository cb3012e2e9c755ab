/* options-measure.c - the measurement option rows of run, confirm and
 * submit (see options-measure.h). */
#include "config.h"

#include <stddef.h>

#include "lib/numbers.h"
#include "lib/shuffle.h"
#include "orchestrator/cli/options-measure.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/request-check.h"
#include "orchestrator/run/run.h"

/* --min-batch-ms MS: 0.001 to 60000 ms, into a uint64_t in ns. */
static int parse_min_batch(const char *arg, void *dest, bo_err *err)
{
	return cli_parse_min_batch_ms(arg, dest, err);
}

/* --repetitions N: 1 to 150, into an unsigned. */
static int parse_repetitions(const char *arg, void *dest, bo_err *err)
{
	return cli_parse_repetitions(arg, dest, err);
}

/* --max-reruns N: 0 to 9, into a struct measure_count. */
static int parse_max_reruns(const char *arg, void *dest, bo_err *err)
{
	struct measure_count *c = dest;

	if (cli_parse_max_reruns(arg, &c->n, err) < 0)
		return -1;
	c->set = 1;
	return 0;
}

/* --seed N: 0 to SHUFFLE_SEED_MAX, into a struct measure_seed. */
static int parse_seed(const char *arg, void *dest, bo_err *err)
{
	struct measure_seed *s = dest;
	long long v;

	if (cli_parse_ll(arg, 0, (long long)SHUFFLE_SEED_MAX, &v, err) < 0)
		return -1;
	s->n = (uint64_t)v;
	s->set = 1;
	return 0;
}

/* --runner KIND, into an enum runner_kind. */
static int parse_runner(const char *arg, void *dest, bo_err *err)
{
	return runner_kind_parse(arg, dest, err);
}

/* --timeout SECONDS: 1 s to 7 days, into a long. */
static int parse_timeout(const char *arg, void *dest, bo_err *err)
{
	long long v;

	if (cli_parse_ll(arg, 1, 86400 * 7, &v, err) < 0)
		return -1;
	*(long *)dest = (long)v;
	return 0;
}

int measure_parse_libs(const char *arg, void *dest, bo_err *err)
{
	if (request_check_libs(arg, "--libs", err) < 0)
		return -1;
	*(const char **)dest = arg;
	return 0;
}

int measure_parse_algos(const char *arg, void *dest, bo_err *err)
{
	if (request_check_algos(arg, "--algos", err) < 0)
		return -1;
	*(const char **)dest = arg;
	return 0;
}

int measure_parse_run_algos(const char *arg, void *dest, bo_err *err)
{
	if (request_check_run_algos(arg, "--algos", err) < 0)
		return -1;
	*(const char **)dest = arg;
	return 0;
}

const struct opt_def measure_quick_options[] = {
	{ .name = "quick", .kind = OPT_FLAG,
	  .offset = offsetof(struct measure_opts, quick),
	  .help = "a short run: 4 buffer sizes, short batches" },
	{ .kind = OPT_END },
};

const struct opt_def measure_seed_options[] = {
	{ .name = "seed", .kind = OPT_VALUE, .arg = "N",
	  .offset = offsetof(struct measure_opts, seed),
	  .parse = parse_seed, .msg_prefix = "--seed: ",
	  .help = "draw the run's order from N (0..4294967295;\n"
		  "default: a random seed, printed and stored)" },
	{ .kind = OPT_END },
};

const struct opt_def measure_options[] = {
	{ .kind = OPT_GROUP, .group = measure_quick_options },
	{ .name = "min-batch-ms", .kind = OPT_VALUE, .arg = "MS",
	  .offset = offsetof(struct measure_opts, min_batch_ns),
	  .parse = parse_min_batch, .msg_prefix = "--min-batch-ms: ",
	  .help = "shortest timed batch (one sample), in ms, 0.001 to\n"
		  "60000 (the guest's default 0.5; 1 with --sequential\n"
		  "and in a duet, --quick 0.5)" },
	{ .name = "repetitions", .kind = OPT_VALUE, .arg = "N",
	  .offset = offsetof(struct measure_opts, repetitions),
	  .parse = parse_repetitions, .msg_prefix = "--repetitions: ",
	  .help = "samples per set, measured --sequential, 1 to 150\n"
		  "(the guest's default 2; --quick 3)" },
	{ .name = "max-reruns", .kind = OPT_VALUE, .arg = "N",
	  .offset = offsetof(struct measure_opts, max_reruns),
	  .parse = parse_max_reruns, .msg_prefix = "--max-reruns: ",
	  .help = "measured --sequential, every point in N + 1 sets\n"
		  "of --repetitions samples, always, 0 to 9 (the\n"
		  "guest's default 2; --quick 0); a point is the\n"
		  "median of its sets' medians; repetitions x sets is\n"
		  "at most 150" },
	{ .kind = OPT_GROUP, .group = measure_seed_options },
	{ .kind = OPT_END },
};

const struct opt_def measure_guest_options[] = {
	{ .name = "runner", .kind = OPT_VALUE, .arg = "KIND",
	  .offset = offsetof(struct measure_opts, runner),
	  .parse = parse_runner,
	  .help = "auto, nspawn or chroot (default: auto: nspawn,\n"
		  "chroot when nspawn is missing or cannot start)" },
	{ .name = "timeout", .kind = OPT_VALUE, .arg = "SECONDS",
	  .offset = offsetof(struct measure_opts, timeout_s),
	  .parse = parse_timeout, .msg_prefix = "--timeout takes seconds: ",
	  .help = "kill a guest that runs longer (default: 1800)" },
	{ .kind = OPT_END },
};

void measure_init(struct measure_opts *m)
{
	*m = (struct measure_opts){ .runner = RUNNER_AUTO,
				    .timeout_s = MEASURE_DEFAULT_TIMEOUT_S };
}

void measure_to_run(const struct measure_opts *m, struct run_config *c)
{
	c->quick = m->quick;
	c->min_batch_ns = m->min_batch_ns;
	c->repetitions = m->repetitions;
	c->max_reruns_set = m->max_reruns.set;
	c->max_reruns = m->max_reruns.n;
	c->seed_set = m->seed.set;
	c->seed = m->seed.n;
	c->kind = m->runner;
	c->timeout_s = m->timeout_s;
}

void measure_to_confirm(const struct measure_opts *m,
			struct confirm_config *cc)
{
	cc->quick = m->quick;
	cc->min_batch_ns = m->min_batch_ns;
	cc->repetitions = m->repetitions;
	cc->max_reruns_set = m->max_reruns.set;
	cc->max_reruns = m->max_reruns.n;
	cc->seed_set = m->seed.set;
	cc->seed = m->seed.n;
	cc->kind = m->runner;
	cc->timeout_s = m->timeout_s;
}
