/* cmd-confirm.c - `benchorch confirm`: measure again, in one run, the
 * curves of a run that look changed, in its distributions' previous and
 * new images in alternating rounds. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/shuffle.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-curves.h"
#include "lib/paths.h"

#define DEFAULT_TIMEOUT_S 1800

static const char usage[] =
"Usage: benchorch confirm [OPTIONS]\n"
"\n"
"Measure again, before they are reported, the curves of a run that look\n"
"changed. When a distribution's packages changed, the rebuild ('images\n"
"build --refresh', 'run --refresh', the daemon) kept the image it replaced\n"
"as NAME.previous; confirm measures the previous and the new image in\n"
"alternating rounds within one run (each round both images, in an order\n"
"drawn per round), stores both (invocations.image_id tells them apart),\n"
"records what it confirmed and then deletes the previous image. Without a\n"
"previous image the curves are measured once more in the current image\n"
"(in two rounds, so that one disturbed round does not decide).\n"
"A distribution with no curve to measure again has nothing to confirm:\n"
"its previous image is deleted. A confirmation that fails or is\n"
"interrupted keeps the previous image for a later one.\n"
"'run' and the daemon confirm by themselves after a run in which curves\n"
"look changed (run --no-confirm leaves it out). A confirmation measures\n"
"as the run it confirms did: with its --quick, --nohw, batch length,\n"
"repetitions and sets, as stored with the run, unless given here; the\n"
"confirmation's stored command line names those it took from the run.\n"
"\n"
"A curve is a distribution's LIBRARY/ALGORITHM[/OPERATION[/MODE]]. Without\n"
"--curves, those that look changed against the previous run of the same\n"
"distributions made with the same --quick flag (its variant may differ):\n"
"the curves 'compare' calls changed or confirmed (its\n"
"per-curve verdicts at the default threshold), and those it flagged\n"
"because their canary moved (measured again, they get a verdict).\n"
"\n"
"stdout: per point of those curves, the median MB/s over the previous\n"
"image's invocations and over the new one's, the change and the number\n"
"of invocations; without a previous image, the confirmed run's own\n"
"median and invocations ('run N') beside the confirmation's ('again');\n"
"progress on stderr.\n"
"\n"
"Options:\n"
"      --run N            the run to confirm (default: the latest finished\n"
"                         run that is neither a confirmation nor a tool run);\n"
"                         a confirmation or a tool run (run --tools) is not\n"
"                         confirmed\n"
"      --curves LIST      comma-separated LIBRARY/ALGORITHM[/OPERATION[/MODE]]\n"
"                         (e.g. openssl/aes-128-cbc/encrypt/bulk), in every\n"
"                         distribution of the run: the guest's library and\n"
"                         algorithm names (run --libs, --algos), an\n"
"                         operation the algorithm has (encrypt or decrypt\n"
"                         for a cipher, hash for a hash), checked before\n"
"                         anything runs\n"
"      --rounds N         rounds of previous and new image, 1 to 50 (default\n"
"                         2)\n"
"      --quick            the guests' short run: 4 buffer sizes\n"
"      --min-batch-ms MS  shortest timed batch, 0.001 to 60000\n"
"      --repetitions N    samples per set, 1 to 150\n"
"      --max-reruns N     sets after the first, 0 to 9\n"
"      --seed N           draw the order from N (0..4294967295)\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    images and logs (default: $BENCHORCH_STATE_DIR or\n"
"                         /var/lib/benchorch)\n"
"      --runner KIND      auto, nspawn or chroot (default: auto)\n"
"      --timeout SECONDS  kill a guest that runs longer (default: 1800)\n"
"      --format FMT       table (default), csv or json\n"
"  -q, --quiet            no progress lines on stderr\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 confirmed (or nothing to confirm), 1 the run or a library\n"
"in it failed, 2 usage error or no such run, 3 environment (not root,\n"
"database), 130/143 interrupted.\n";

enum { OPT_RUN = 256, OPT_CURVES, OPT_ROUNDS, OPT_QUICK, OPT_SEED, OPT_DB,
       OPT_STATE, OPT_RUNNER, OPT_TIMEOUT, OPT_FORMAT, OPT_MIN_BATCH,
       OPT_REPETITIONS, OPT_MAX_RERUNS };

static const struct option options[] = {
	{ "run", required_argument, NULL, OPT_RUN },
	{ "curves", required_argument, NULL, OPT_CURVES },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "min-batch-ms", required_argument, NULL, OPT_MIN_BATCH },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "max-reruns", required_argument, NULL, OPT_MAX_RERUNS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "runner", required_argument, NULL, OPT_RUNNER },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *state_opt, *db_opt;

static int parse_args(int argc, char **argv, struct confirm_config *c)
{
	long long v;
	bo_err err;
	int opt;

	optind = 1;
	opterr = 0;
	state_opt = db_opt = NULL;
	c->kind = RUNNER_AUTO;
	c->timeout_s = DEFAULT_TIMEOUT_S;
	c->format = FORMAT_TABLE;
	while ((opt = getopt_long(argc, argv, ":hq", options, NULL)) != -1) {
		switch (opt) {
		case OPT_RUN:
			if (cli_parse_ll(optarg, 1, CLI_RUN_ID_MAX, &v, &err) < 0)
				return cli_usage_error("confirm", "--run: %s",
						       err.msg);
			c->run_id = (int64_t)v;
			break;
		case OPT_CURVES: {
			struct confirm_curve *cv;
			size_t ncv;

			/* every name checked before anything runs */
			if (confirm_curves_parse(optarg, NULL, &cv, &ncv,
						 &err) < 0)
				return cli_usage_error("confirm", "--curves: %s",
						       err.msg);
			confirm_curves_free(cv, ncv);
			c->curves = optarg;
			break;
		}
		case OPT_ROUNDS:
			if (cli_parse_ll(optarg, 1, 50, &v, &err) < 0)
				return cli_usage_error("confirm", "--rounds: %s",
						       err.msg);
			c->rounds = (size_t)v;
			break;
		case OPT_QUICK:
			c->quick = 1;
			break;
		case OPT_MIN_BATCH:
			if (cli_parse_min_batch_ms(optarg, &c->min_batch_ns,
						   &err) < 0)
				return cli_usage_error("confirm", "--min-batch-ms: %s",
						       err.msg);
			break;
		case OPT_REPETITIONS:
			if (cli_parse_repetitions(optarg, &c->repetitions,
						  &err) < 0)
				return cli_usage_error("confirm", "--repetitions: %s",
						       err.msg);
			break;
		case OPT_MAX_RERUNS:
			if (cli_parse_max_reruns(optarg, &c->max_reruns,
						 &err) < 0)
				return cli_usage_error("confirm", "--max-reruns: %s",
						       err.msg);
			c->max_reruns_set = 1;
			break;
		case OPT_SEED:
			if (cli_parse_ll(optarg, 0, (long long)SHUFFLE_SEED_MAX,
					 &v, &err) < 0)
				return cli_usage_error("confirm", "--seed: %s",
						       err.msg);
			c->seed = (uint64_t)v;
			c->seed_set = 1;
			break;
		case OPT_DB:
			if (cli_path_arg("confirm", "--db", optarg))
				return EXIT_USAGE;
			db_opt = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg("confirm", "--state-dir", optarg))
				return EXIT_USAGE;
			state_opt = optarg;
			break;
		case OPT_RUNNER:
			if (runner_kind_parse(optarg, &c->kind, &err) < 0)
				return cli_usage_error("confirm", "%s", err.msg);
			break;
		case OPT_TIMEOUT:
			if (cli_parse_ll(optarg, 1, 86400 * 7, &v, &err) < 0)
				return cli_usage_error("confirm", "--timeout takes seconds: %s",
						       err.msg);
			c->timeout_s = (long)v;
			break;
		case OPT_FORMAT:
			if (format_parse(optarg, &c->format, &err) < 0)
				return cli_usage_error("confirm", "%s", err.msg);
			break;
		case 'q':
			c->quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case ':':
			return cli_usage_error("confirm", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("confirm", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("confirm", "unexpected argument '%s'",
				       argv[optind]);
	return 0;
}

static void on_run_lock_wait(void *ctx, const char *path)
{
	(void)ctx;
	fprintf(stderr, "benchorch: another run holds '%s'; waiting for it to finish\n",
		path);
}

static int cmd_confirm(int argc, char **argv)
{
	struct confirm_config c;
	char *state = NULL, *db = NULL, *data = NULL, *guest = NULL;
	int64_t run_id;
	bo_err err;
	int rc, lock;

	memset(&c, 0, sizeof(c));
	rc = parse_args(argc, argv, &c);
	if (rc != 0)
		return rc < 0 ? EXIT_OK : rc;
	c.state_dir = state = paths_state_dir(state_opt);
	c.db_path = db = paths_db(db_opt, state_opt);
	c.data_dir = data = paths_data_dir();
	c.guest = guest = paths_guest(GUEST_FLAVOUR_GLIBC);
	c.argc = argc;
	c.argv = argv;
	bo_signals_install();
	/* an unusable database is said at once, not after the wait */
	rc = cli_check_db_writable(db);
	if (rc == EXIT_OK) {
		lock = bo_mkdir_p("/run/lock", &err) < 0 ? -1 :
		       bo_lock_wait(BENCHORCH_RUN_LOCK, on_run_lock_wait, NULL,
				    &err);
		if (lock < 0) {
			cli_error("%s", err.msg);
			rc = bo_interrupted ?
			     cli_interrupted_status(bo_interrupted) : EXIT_ENV;
		} else {
			rc = confirm_execute(&c, &run_id);
			close(lock);
		}
	}
	free(state);
	free(db);
	free(data);
	free(guest);
	return rc;
}

const struct cmd_entry cmd_confirm_entry = {
	.name = "confirm",
	.summary = "measure what looks changed again, previous and new image side by side",
	.usage = usage,
	.flags = CMD_NEEDS_ROOT,
	.fn = cmd_confirm,
};
