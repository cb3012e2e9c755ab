/* cmd-run.c - `benchorch run`: build or reuse each distro's image, run the
 * guest in it, validate what it prints and store one run in the database. */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "images/image.h"
#include "lib/algorithms.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/options-measure.h"
#include "lib/cpuinfo.h"
#include "lib/format.h"
#include "lib/paths.h"
#include "orchestrator/run/request-check.h"
#include "orchestrator/run/run.h"
#include "orchestrator/run/run-confirm.h"
#include "orchestrator/cli/run-args.h"
#include "orchestrator/run/runner.h"
#include "orchestrator/run/tools-run.h"

static const char usage[] =
"Usage: benchorch run [OPTIONS]\n"
"\n"
"Build (or reuse) a root filesystem for each distribution, run the guest\n"
"benchmark inside it against the distribution's own crypto libraries, store\n"
"every measurement (with its raw samples) in the database and print a\n"
"summary on stdout: per distribution and algorithm the fastest library at\n"
"16 KiB (with MB/s and cyc/B@16K, the cycles per byte of that point, not\n"
"the fitted slope) and at 16 B, the runner-up and the\n"
"slowest as a fraction of the fastest, and with several distributions how\n"
"far each library moves between them (`benchorch results --summary`\n"
"prints it again; --format csv or json prints the point table instead).\n"
"A run that measured no cipher or hash prints its public-key and key\n"
"derivation results instead, as `benchorch results --pubkey` and --kdf\n"
"do (csv: one table after the other; json: {\"pubkey\": [...], \"kdf\":\n"
"[...]}). stderr says how many measurements stayed noisy, and why a key\n"
"derivation is not verified. A\n"
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
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 all distributions measured; 1 some failed, or nothing was\n"
"measured (the libraries asked for are absent or support none of the\n"
"algorithms asked for); 2 usage error; 3 not root, or the database is\n"
"unusable or cannot take a result (a full disk: measuring stops there,\n"
"the invocations stored before are kept, the run is stored as failed);\n"
"130/143 interrupted. Each invocation is stored as it ends: 'benchorch\n"
"results --run N' shows a run still going.\n";

struct run_opts {
	struct cli_paths paths;		/* first: cli_parse reads it */
	struct measure_opts measure;	/* copied into c */
	struct run_config c;		/* the rest, as given */
	int interleave;			/* --interleave: the default, said */
};

/* --mirror URL: a URL a recipe can take (request-check.h), into a const
 * char *. */
static int parse_mirror(const char *arg, void *dest, bo_err *err)
{
	if (request_check_mirror(arg, "--mirror", err) < 0)
		return -1;
	*(const char **)dest = arg;
	return 0;
}

/* --max-cv F: 0 to 1, into run_config's max_cv in plain decimal for the
 * guest, which takes no exponent or sign ("2e-2" -> "0.020000000"). */
static int parse_max_cv(const char *arg, void *dest, bo_err *err)
{
	double v;

	if (cli_parse_double(arg, 0, 1, &v, err) < 0)
		return -1;
	snprintf(dest, sizeof(((struct run_config *)NULL)->max_cv), "%.9f",
		 v == 0 ? 0.0 : v);
	return 0;
}

/* The value ARG of the tool mode's option OPT: digits only, 1 to MAX,
 * into the unsigned DEST. */
static int parse_tool_count(const char *arg, const char *opt, long max,
			    unsigned *dest, bo_err *err)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end || v < 1 || v > max)
		return bo_err_set(err, "%s takes 1 to %ld, not '%s'", opt, max,
				  arg);
	*dest = (unsigned)v;
	return 0;
}

/* --tool-size MIB: 1 to TOOLS_MAX_SIZE_MIB. */
static int parse_tool_size(const char *arg, void *dest, bo_err *err)
{
	return parse_tool_count(arg, "--tool-size", TOOLS_MAX_SIZE_MIB, dest,
				err);
}

/* --tool-reps N: 1 to TOOLS_MAX_REPS. */
static int parse_tool_reps(const char *arg, void *dest, bo_err *err)
{
	return parse_tool_count(arg, "--tool-reps", TOOLS_MAX_REPS, dest, err);
}

static const struct opt_def options[] = {
	{ .name = "distros", .short_name = 'd', .kind = OPT_STRING,
	  .arg = "LIST", .offset = offsetof(struct run_opts, c.distros),
	  .help = "comma-separated NAME[:RELEASE] (default: debian)" },
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .kind = OPT_GROUP, .group = measure_guest_options,
	  .offset = offsetof(struct run_opts, measure) },
	{ .name = "libs", .kind = OPT_VALUE, .arg = "LIST",
	  .offset = offsetof(struct run_opts, c.libs), .parse = measure_parse_libs,
	  .help = "only these libraries (openssl, libgcrypt, nettle,\n"
		  "libsodium, ...; default: all)" },
	{ .name = "builds", .kind = OPT_STRING, .arg = "LIST",
	  .offset = offsetof(struct run_opts, c.builds),
	  .help = "shipped and the names of builds (benchorch rebuild)\n"
		  "to measure beside the shipped libraries, in the same\n"
		  "guest, each in the distributions it was built in;\n"
		  "stored with build = 'shipped' or its name; a build's\n"
		  "ratio to the shipped library is a pair (pairs_v):\n"
		  "the shipped one is measured too, named or not; not\n"
		  "with --sequential" },
	{ .name = "algos", .kind = OPT_VALUE, .arg = "LIST",
	  .offset = offsetof(struct run_opts, c.algos),
	  .parse = measure_parse_run_algos,
	  .help = "only these algorithms (e.g. aes-128-cbc,sha-256;\n"
		  "public key: x25519, x448, ed25519, ecdh-p256,\n"
		  "ecdsa-p256, rsa-2048, rsa-3072, rsa-pss-2048,\n"
		  "ml-kem-768, ml-dsa-65, measured in the first and\n"
		  "last round; key derivation: pbkdf2-sha256,\n"
		  "hkdf-sha256, scrypt, argon2id, measured in the\n"
		  "first round; default: all)" },
	{ .name = "nohw", .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, c.nohw),
	  .help = "mask the libraries' hardware acceleration (AES-NI,\n"
		  "PCLMUL, SIMD) where they allow it; stored as\n"
		  "variant 'nohw'" },
	{ .name = "interleave", .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, interleave),
	  .help = "the default: the libraries of each point take\n"
		  "turns, a block at a time, in a new random order\n"
		  "every round, and each library's ratio to the\n"
		  "fastest is stored with its interval (pairs_v; a\n"
		  "tie where the interval holds 1); public-key\n"
		  "operations and key derivation functions too\n"
		  "(rsa-2048's keygen alone in each library)" },
	{ .name = "sequential", .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, c.sequential),
	  .help = "measure the libraries one after the other instead,\n"
		  "each curve between two timings of a contention\n"
		  "canary; no pairs" },
	{ .kind = OPT_GROUP, .group = measure_options,
	  .offset = offsetof(struct run_opts, measure) },
	{ .name = "max-cv", .kind = OPT_VALUE, .arg = "F",
	  .offset = offsetof(struct run_opts, c.max_cv),
	  .parse = parse_max_cv, .msg_prefix = "--max-cv: ",
	  .help = "store a measurement whose samples' coefficient of\n"
		  "variation exceeds the fraction F, 0 to 1, as noisy\n"
		  "(default: a spread above 3 times its invocation's\n"
		  "typical one)" },
	{ .name = "tools", .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, c.tools),
	  .help = "the tool mode instead: time the distribution's own\n"
		  "command-line tools (openssl enc aes-256-cbc and\n"
		  "chacha20, gpg --symmetric AES256, age) encrypting\n"
		  "and decrypting a file in the container's tmpfs,\n"
		  "with and without hardware acceleration; stores\n"
		  "user+sys and wall time, peak RSS and MB/s\n"
		  "(trimmed means, raw samples kept) for round trips\n"
		  "that restored the file, a missing tool as absent,\n"
		  "and prints them (`benchorch results --tools`)" },
	{ .name = "tool-size", .kind = OPT_VALUE, .arg = "MIB",
	  .offset = offsetof(struct run_opts, c.tool_size_mib),
	  .parse = parse_tool_size,
	  .help = "the tool mode's file, 1 to 1024 MiB (default 64)" },
	{ .name = "tool-reps", .kind = OPT_VALUE, .arg = "N",
	  .offset = offsetof(struct run_opts, c.tool_reps),
	  .parse = parse_tool_reps,
	  .help = "its repetitions, 1 to 40 (default 10)" },
	{ .name = "mirror", .kind = OPT_VALUE, .arg = "URL",
	  .offset = offsetof(struct run_opts, c.mirror),
	  .parse = parse_mirror,
	  .help = "package mirror for images built now" },
	{ .name = "refresh", .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, c.refresh),
	  .help = "rebuild the images even if cached" },
	{ .name = "no-confirm", .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, c.no_confirm),
	  .help = "do not measure again what looks changed against\n"
		  "the previous run" },
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct run_opts, c.format),
	  .parse = cli_parse_format,
	  .help = "table (the summary; default), or csv or json: a\n"
		  "row per distribution, library, algorithm,\n"
		  "operation and variant with its bulk MB/s at 16 B,\n"
		  "1 KiB, 16 KiB, 256 KiB and 1 MiB (mb_per_s_16\n"
		  "... mb_per_s_1048576; not the other sizes),\n"
		  "versions and verified 1/0 (--tools: its table)" },
	{ .name = "quiet", .short_name = 'q', .kind = OPT_FLAG,
	  .offset = offsetof(struct run_opts, c.quiet),
	  .help = "no progress lines on stderr" },
	{ .kind = OPT_END },
};

/* cmd_run_entry.init: the defaults. */
static void init_opts(void *opts)
{
	struct run_opts *o = opts;

	measure_init(&o->measure);
	o->c.distros = "debian";
	o->c.format = FORMAT_TABLE;
}

/* Does the --builds LIST (or NULL) name a build besides "shipped"? */
static bool names_a_build(const char *list)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n > 0 && !(n == 7 && strncmp(p, "shipped", 7) == 0))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* The checks of options against each other, after parsing O. Returns 0,
 * or EXIT_USAGE after the usage error, said as CMD's ("run", or the
 * command that hands run's options on). */
static int check_opts(const char *cmd, const struct run_opts *o)
{
	const struct measure_opts *m = &o->measure;
	const struct run_config *c = &o->c;
	bo_err err;

	/* the guest's defaults: 2 samples in 3 sets, --quick 3 in 1 */
	if ((m->repetitions ? m->repetitions : m->quick ? 3 : 2) *
	    (m->max_reruns.set ? m->max_reruns.n + 1 : m->quick ? 1 : 3) > 150)
		return cli_usage_error(cmd, "--repetitions x sets (--max-reruns + 1): more than 150 samples per point");
	if (!c->tools && (c->tool_size_mib || c->tool_reps))
		return cli_usage_error(cmd, "--tool-size and --tool-reps need --tools");
	/* the tool mode measures hw and nohw itself, every tool, its own
	 * repetitions */
	if (c->tools && (c->libs || c->algos || c->nohw || m->quick ||
			 c->builds ||
			 o->interleave || c->sequential ||
			 m->min_batch_ns || m->repetitions || c->max_cv[0] ||
			 m->max_reruns.set || m->seed.set))
		return cli_usage_error(cmd, "--tools takes none of --libs, --builds, --algos, --nohw, --interleave, --sequential, --quick, --seed, --min-batch-ms, --repetitions, --max-cv, --max-reruns");
	if (o->interleave && c->sequential)
		return cli_usage_error(cmd, "--interleave and --sequential: choose one (--interleave is the default)");
	/* a build is judged against its shipped library in pairs: the
	 * libraries take turns */
	if (c->sequential && names_a_build(c->builds))
		return cli_usage_error(cmd, "--builds with a build measures it in pairs with its shipped library: not with --sequential");
	/* a library or algorithm asked for that would measure nothing */
	if (request_check_selection(c->libs, c->algos, &err) < 0)
		return cli_usage_error(cmd, "%s", err.msg);
	return 0;
}

/* Check the options O parsed from the command line CTX and fill C (zeroed
 * by the caller) from them: the paths (copies: C owns them, release with
 * run_config_release), the tool mode's defaults. Returns 0, or
 * EXIT_USAGE after the usage error. */
static int config_from_opts(const char *cmd, const struct cmd_ctx *ctx,
			    const struct run_opts *o, struct run_config *c)
{
	int rc = check_opts(cmd, o);

	if (rc != 0)
		return rc;
	*c = o->c;
	measure_to_run(&o->measure, c);
	if (!c->tool_size_mib)
		c->tool_size_mib = TOOLS_DEFAULT_SIZE_MIB;
	if (!c->tool_reps)
		c->tool_reps = TOOLS_DEFAULT_REPS;
	c->state_dir = xstrdup(ctx->state_dir);
	c->db_path = xstrdup(ctx->db_path);
	c->data_dir = paths_data_dir();
	c->guest = paths_guest(GUEST_FLAVOUR_GLIBC);
	return 0;
}

/* Split c->distros and check every name against the recipes, and the
 * builds of --builds against them, before any
 * work starts (request-check.h: the same check as the daemon's). Returns
 * 0, or EXIT_USAGE after printing why as CMD's usage error. */
static int check_distros(const char *cmd, struct run_config *c)
{
	bo_err err;

	if (request_check_distros(c->distros, "--distros", c->data_dir,
				  c->state_dir, &c->specs, &c->nspecs,
				  &err) < 0)
		return cli_usage_error(cmd, "%s", err.msg);
	/* the builds, of the run's images (request-check.h) */
	if (c->builds &&
	    request_check_builds(c->builds, "--builds", c->state_dir,
				 c->data_dir, c->specs, c->nspecs, c->libs,
				 &err) < 0)
		return cli_usage_error(cmd, "%s", err.msg);
	return 0;
}

static int cmd_run(const struct cmd_ctx *ctx, void *opts, int argc,
		   char **argv)
{
	struct run_config c;
	bo_err err;
	int rc, lock;

	(void)argc;
	(void)argv;
	memset(&c, 0, sizeof(c));
	rc = config_from_opts("run", ctx, opts, &c);
	if (rc != 0)
		goto out;
	rc = check_distros("run", &c);
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
	lock = cli_run_lock(&err);
	if (lock < 0) {
		cli_error("%s", err.msg);
		rc = bo_interrupted ? cli_interrupted_status(bo_interrupted) :
				      EXIT_ENV;
		goto out;
	}
	c.argc = ctx->argc;
	c.argv = ctx->argv;
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

int run_args_check(const char *cmd, int argc, char **argv)
{
	struct cmd_entry as = cmd_run_entry;	/* run's, in CMD's name */
	struct run_opts o;
	struct run_config c;
	struct cmd_ctx ctx;
	int first, rc;

	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	init_opts(&o);
	as.name = cmd;
	rc = cli_parse(&as, argc, argv, &o, &ctx, &first);
	if (rc == 0)
		rc = config_from_opts(cmd, &ctx, &o, &c);
	if (rc == 0)
		rc = check_distros(cmd, &c);
	run_config_release(&c);
	cli_ctx_release(&ctx);
	return rc < 0 ? EXIT_USAGE : rc;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.summary = "benchmark the distributions' crypto libraries",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.flags = CMD_NEEDS_ROOT,
	.opts_size = sizeof(struct run_opts),
	.init = init_opts,
	.max_args = 0,
	.run = cmd_run,
};
