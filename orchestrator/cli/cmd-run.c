/* cmd-run.c - `benchorch run`: build or reuse each distro's image, run the
 * guest in it, validate what it prints and store one run in the database. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "lib/shuffle.h"
#include "images/image.h"
#include "lib/algorithms.h"
#include "orchestrator/cli/cli.h"
#include "lib/cpuinfo.h"
#include "lib/format.h"
#include "lib/paths.h"
#include "orchestrator/run/request-check.h"
#include "orchestrator/run/run.h"
#include "orchestrator/run/run-confirm.h"
#include "orchestrator/cli/run-args.h"
#include "orchestrator/run/runner.h"
#include "orchestrator/run/tools-run.h"

#define DEFAULT_TIMEOUT_S 1800

static const char usage[] =
"Usage: benchorch run [OPTIONS]\n"
"\n"
"Build (or reuse) a root filesystem for each distribution, run the guest\n"
"benchmark inside it against the distribution's own crypto libraries, store\n"
"every measurement (with its raw samples) in the database and print a\n"
"summary on stdout: per distribution and algorithm the fastest library at\n"
"16 KiB (with MB/s and cycles per byte) and at 16 B, the runner-up and the\n"
"slowest as a fraction of the fastest, and with several distributions how\n"
"far each library moves between them (`benchorch results --summary`\n"
"prints it again; --format csv or json prints the point table instead).\n"
"stderr says how many measurements stayed noisy. A\n"
"guest whose clock disagrees with the host's (more than 5 % + 20 ms from\n"
"its first line to its last) fails, nothing of it stored.\n"
"The package versions that changed since the previous run of each\n"
"distribution are stored with the run and listed on stderr.\n"
"Progress goes to stderr: a line per finished guest invocation (round,\n"
"distribution, seconds, points, noisy points) and, on a terminal, a live\n"
"line with the library being measured and the time left, estimated from\n"
"the previous finished run with the same command line (--seed aside).\n"
"\n"
"Confirm before alarming: when curves look changed against the previous\n"
"run of the same distributions (benchorch compare's verdict), the run\n"
"measures them once more in a confirmation run right after it - the\n"
"previous image beside the new one in alternating rounds when the image\n"
"was rebuilt with other packages, else the current image again - and\n"
"compare reports only the changes that held (--no-confirm leaves it out).\n"
"\n"
"The run is made of rounds: in each, every distribution's guest measures\n"
"one group of the algorithms, the distributions in a new random order, and\n"
"each guest runs its libraries and algorithms in a random order; one seed\n"
"draws it all. The seed and the state of the CPU the guests are pinned to\n"
"(governor, boost, scaling frequency, hypervisor) are printed on stderr\n"
"and stored with the run.\n"
"\n"
"Options:\n"
"  -d, --distros LIST     comma-separated NAME[:RELEASE] (default: debian)\n"
"      --db PATH          database (default: $BENCHORCH_DB, or\n"
"                         STATE/results.db, or /var/lib/benchorch/results.db)\n"
"      --state-dir DIR    images and logs (default: $BENCHORCH_STATE_DIR or\n"
"                         /var/lib/benchorch)\n"
"      --runner KIND      auto, nspawn or chroot (default: auto: nspawn,\n"
"                         chroot when nspawn is missing or cannot start)\n"
"      --quick            a short run: 4 buffer sizes, short batches\n"
"      --libs LIST        only these libraries (openssl, libgcrypt, nettle,\n"
"                         libsodium, ...; default: all)\n"
"      --algos LIST       only these algorithms (e.g. aes-128-cbc,sha-256;\n"
"                         default: all)\n"
"      --seed N           draw the run's order from N (0..4294967295;\n"
"                         default: a random seed, printed and stored)\n"
"      --nohw             mask the libraries' hardware acceleration (AES-NI,\n"
"                         PCLMUL, SIMD) where they allow it; stored as\n"
"                         variant 'nohw'\n"
"      --min-batch-ms MS  shortest timed batch (one sample), in ms, 0.001 to\n"
"                         60000 (default 1; --quick 0.5)\n"
"      --repetitions N    samples per set, 1 to 150 (default 2; --quick 3)\n"
"      --max-cv F         store a measurement whose samples' coefficient of\n"
"                         variation exceeds the fraction F, 0 to 1 (0.02),\n"
"                         as noisy\n"
"      --max-reruns N     measure every point in N + 1 sets of --repetitions\n"
"                         samples, always, 0 to 9 (default 2; --quick 0);\n"
"                         a point is the median of its sets' medians;\n"
"                         repetitions x sets is at most 150\n"
"      --tools            the tool mode instead: time the distribution's own\n"
"                         command-line tools (openssl enc aes-256-cbc and\n"
"                         chacha20, gpg --symmetric AES256, age) encrypting\n"
"                         and decrypting a file in the container's tmpfs,\n"
"                         with and without hardware acceleration; stores\n"
"                         user+sys and wall time, peak RSS and MB/s\n"
"                         (trimmed means, raw samples kept) for round trips\n"
"                         that restored the file, a missing tool as absent,\n"
"                         and prints them (`benchorch results --tools`)\n"
"      --tool-size MIB    the tool mode's file, 1 to 1024 MiB (default 64)\n"
"      --tool-reps N      its repetitions, 1 to 40 (default 10)\n"
"      --mirror URL       package mirror for images built now\n"
"      --refresh          rebuild the images even if cached\n"
"      --no-confirm       do not measure again what looks changed against\n"
"                         the previous run\n"
"      --timeout SECONDS  kill a guest that runs longer (default: 1800)\n"
"      --format FORMAT    table (the summary; default), or csv or json: a\n"
"                         row per distribution, library, algorithm,\n"
"                         operation and variant with its bulk MB/s at 16 B,\n"
"                         1 KiB, 16 KiB and 1 MiB (mb_per_s_16 ...\n"
"                         mb_per_s_1048576; not the other sizes), versions\n"
"                         and verified 1/0 (--tools: its table)\n"
"  -q, --quiet            no progress lines on stderr\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 all distributions measured; 1 some failed, or nothing was\n"
"measured (the libraries asked for are absent or support none of the\n"
"algorithms asked for); 2 usage error; 3 not root, or the database is\n"
"unusable or cannot take a result (a full disk: measuring stops there,\n"
"the invocations stored before are kept, the run is stored as failed);\n"
"130/143 interrupted. Each invocation is stored as it ends: 'benchorch\n"
"results --run N' shows a run still going.\n";

enum { OPT_DB = 256, OPT_STATE, OPT_RUNNER, OPT_QUICK, OPT_MIRROR,
       OPT_REFRESH, OPT_TIMEOUT, OPT_FORMAT, OPT_LIBS, OPT_ALGOS, OPT_NOHW,
       OPT_SEED, OPT_MIN_BATCH, OPT_REPETITIONS, OPT_MAX_CV, OPT_MAX_RERUNS,
       OPT_TOOLS, OPT_TOOL_SIZE, OPT_TOOL_REPS, OPT_NO_CONFIRM };

static const struct option options[] = {
	{ "distros", required_argument, NULL, 'd' },
	{ "db", required_argument, NULL, OPT_DB },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "runner", required_argument, NULL, OPT_RUNNER },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "mirror", required_argument, NULL, OPT_MIRROR },
	{ "refresh", no_argument, NULL, OPT_REFRESH },
	{ "no-confirm", no_argument, NULL, OPT_NO_CONFIRM },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "libs", required_argument, NULL, OPT_LIBS },
	{ "algos", required_argument, NULL, OPT_ALGOS },
	{ "nohw", no_argument, NULL, OPT_NOHW },
	{ "tools", no_argument, NULL, OPT_TOOLS },
	{ "tool-size", required_argument, NULL, OPT_TOOL_SIZE },
	{ "tool-reps", required_argument, NULL, OPT_TOOL_REPS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "min-batch-ms", required_argument, NULL, OPT_MIN_BATCH },
	{ "repetitions", required_argument, NULL, OPT_REPETITIONS },
	{ "max-cv", required_argument, NULL, OPT_MAX_CV },
	{ "max-reruns", required_argument, NULL, OPT_MAX_RERUNS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Check the list given to OPT with CHECK (request-check.h). Returns 0,
 * or -1 after a usage error naming the first bad item and the known
 * names. */
static int check_names(const char *list, const char *opt,
		       int (*check)(const char *, const char *, bo_err *))
{
	bo_err err;

	if (check(list, opt, &err) < 0) {
		cli_usage_error("run", "%s", err.msg);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct run_config *c)
{
	const char *db = NULL, *state = NULL;
	bo_err err;
	int opt;

	optind = 1;
	opterr = 0;
	c->distros = "debian";
	c->kind = RUNNER_AUTO;
	c->timeout_s = DEFAULT_TIMEOUT_S;
	c->format = FORMAT_TABLE;
	while ((opt = getopt_long(argc, argv, ":d:hq", options, NULL)) != -1) {
		switch (opt) {
		case 'd':
			c->distros = optarg;
			break;
		case OPT_DB:
			if (cli_path_arg("run", "--db", optarg))
				return EXIT_USAGE;
			db = optarg;
			break;
		case OPT_STATE:
			if (cli_path_arg("run", "--state-dir", optarg))
				return EXIT_USAGE;
			state = optarg;
			break;
		case OPT_RUNNER:
			if (runner_kind_parse(optarg, &c->kind, &err) < 0)
				return cli_usage_error("run", "%s", err.msg);
			break;
		case OPT_QUICK:
			c->quick = 1;
			break;
		case OPT_MIRROR:
			if (request_check_mirror(optarg, "--mirror", &err) < 0)
				return cli_usage_error("run", "%s", err.msg);
			c->mirror = optarg;
			break;
		case OPT_REFRESH:
			c->refresh = 1;
			break;
		case OPT_NO_CONFIRM:
			c->no_confirm = 1;
			break;
		case OPT_TIMEOUT: {
			long long v;

			if (cli_parse_ll(optarg, 1, 86400 * 7, &v, &err) < 0)
				return cli_usage_error("run", "--timeout takes seconds: %s",
						       err.msg);
			c->timeout_s = (long)v;
			break;
		}
		case OPT_FORMAT:
			if (format_parse(optarg, &c->format, &err) < 0)
				return cli_usage_error("run", "%s", err.msg);
			break;
		case OPT_LIBS:
			if (check_names(optarg, "--libs", request_check_libs) < 0)
				return EXIT_USAGE;
			c->libs = optarg;
			break;
		case OPT_ALGOS:
			if (check_names(optarg, "--algos", request_check_algos) < 0)
				return EXIT_USAGE;
			c->algos = optarg;
			break;
		case OPT_TOOLS:
			c->tools = 1;
			break;
		case OPT_TOOL_SIZE:
		case OPT_TOOL_REPS: {
			int size = opt == OPT_TOOL_SIZE;
			long max = size ? TOOLS_MAX_SIZE_MIB : TOOLS_MAX_REPS;
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*optarg < '0' || *optarg > '9' || *end || v < 1 ||
			    v > max)
				return cli_usage_error("run", "%s takes 1 to %ld, not '%s'",
						       size ? "--tool-size" : "--tool-reps",
						       max, optarg);
			if (size)
				c->tool_size_mib = (unsigned)v;
			else
				c->tool_reps = (unsigned)v;
			break;
		}
		case OPT_NOHW:
			c->nohw = 1;
			break;
		case OPT_MIN_BATCH:
			if (cli_parse_min_batch_ms(optarg, &c->min_batch_ns,
						   &err) < 0)
				return cli_usage_error("run", "--min-batch-ms: %s",
						       err.msg);
			break;
		case OPT_REPETITIONS:
			if (cli_parse_repetitions(optarg, &c->repetitions,
						  &err) < 0)
				return cli_usage_error("run", "--repetitions: %s",
						       err.msg);
			break;
		case OPT_MAX_CV: {
			double v;

			if (cli_parse_double(optarg, 0, 1, &v, &err) < 0)
				return cli_usage_error("run", "--max-cv: %s",
						       err.msg);
			/* plain decimal for the guest, which takes no
			 * exponent or sign ("2e-2" -> "0.020000000") */
			snprintf(c->max_cv, sizeof(c->max_cv), "%.9f",
				 v == 0 ? 0.0 : v);
			break;
		}
		case OPT_MAX_RERUNS:
			if (cli_parse_max_reruns(optarg, &c->max_reruns,
						 &err) < 0)
				return cli_usage_error("run", "--max-reruns: %s",
						       err.msg);
			c->max_reruns_set = 1;
			break;
		case OPT_SEED: {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end || errno ||
			    v > SHUFFLE_SEED_MAX)
				return cli_usage_error("run", "--seed takes a number from 0 to %llu, not '%s'",
						       (unsigned long long)SHUFFLE_SEED_MAX,
						       optarg);
			c->seed = v;
			c->seed_set = 1;
			break;
		}
		case 'q':
			c->quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		case ':':
			return cli_usage_error("run", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("run", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	/* the guest's defaults: 2 samples in 3 sets, --quick 3 in 1 */
	if ((c->repetitions ? c->repetitions : c->quick ? 3 : 2) *
	    (c->max_reruns_set ? c->max_reruns + 1 : c->quick ? 1 : 3) > 150)
		return cli_usage_error("run", "--repetitions x sets (--max-reruns + 1): more than 150 samples per point");
	if (optind < argc)
		return cli_usage_error("run", "unexpected argument '%s'",
				       argv[optind]);
	if (!c->tools && (c->tool_size_mib || c->tool_reps))
		return cli_usage_error("run", "--tool-size and --tool-reps need --tools");
	/* the tool mode measures hw and nohw itself, every tool, its own
	 * repetitions */
	if (c->tools && (c->libs || c->algos || c->nohw || c->quick ||
			 c->min_batch_ns || c->repetitions || c->max_cv[0] ||
			 c->max_reruns_set || c->seed_set))
		return cli_usage_error("run", "--tools takes none of --libs, --algos, --nohw, --quick, --seed, --min-batch-ms, --repetitions, --max-cv, --max-reruns");
	if (!c->tool_size_mib)
		c->tool_size_mib = TOOLS_DEFAULT_SIZE_MIB;
	if (!c->tool_reps)
		c->tool_reps = TOOLS_DEFAULT_REPS;
	c->state_dir = paths_state_dir(state);
	c->db_path = paths_db(db, state);
	c->data_dir = paths_data_dir();
	c->guest = paths_guest(GUEST_FLAVOUR_GLIBC);
	return 0;
}

/* Split c->distros and check every name against the recipes, before any
 * work starts (request-check.h: the same check as the daemon's). Returns
 * 0, or EXIT_USAGE after printing why. */
static int check_distros(struct run_config *c)
{
	bo_err err;

	if (request_check_distros(c->distros, "--distros", c->data_dir,
				  c->state_dir, &c->specs, &c->nspecs,
				  &err) < 0)
		return cli_usage_error("run", "%s", err.msg);
	return 0;
}

static void on_run_lock_wait(void *ctx, const char *path)
{
	(void)ctx;
	fprintf(stderr, "benchorch: another run holds '%s'; waiting for it to finish\n",
		path);
}

static int cmd_run(int argc, char **argv)
{
	struct run_config c;
	bo_err err;
	int rc, lock;

	memset(&c, 0, sizeof(c));
	rc = parse_args(argc, argv, &c);
	if (rc != 0)
		goto out;
	rc = check_distros(&c);
	if (rc != 0)
		goto out;
	bo_signals_install();
	if (bo_mkdir_p(c.state_dir, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_ENV;
		goto out;
	}
	rc = cli_check_db_writable(c.db_path);
	if (rc != 0)
		goto out;
	lock = bo_mkdir_p("/run/lock", &err) < 0 ? -1 :
	       bo_lock_wait(BENCHORCH_RUN_LOCK, on_run_lock_wait, NULL, &err);
	if (lock < 0) {
		cli_error("%s", err.msg);
		rc = bo_interrupted ? cli_interrupted_status(bo_interrupted) :
				      EXIT_ENV;
		goto out;
	}
	c.argc = argc;
	c.argv = argv;
	/* the run, then the confirmation of what looks changed in it */
	if (c.tools)
		rc = tools_execute(&c);
	else
		rc = run_and_confirm(&c, NULL, NULL, NULL);
	close(lock);
out:
	run_config_release(&c);
	return rc < 0 ? EXIT_OK : rc;
}

int run_args_check(int argc, char **argv)
{
	struct run_config c;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = parse_args(argc, argv, &c);
	if (rc == 0)
		rc = check_distros(&c);
	run_config_release(&c);
	return rc < 0 ? EXIT_USAGE : rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.summary = "benchmark the distributions' crypto libraries",
	.usage = usage,
	.flags = CMD_NEEDS_ROOT,
	.fn = cmd_run,
};
