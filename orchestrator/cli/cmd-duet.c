/* cmd-duet.c - `benchorch duet BASE NEW`: two images side by side (the
 * engine is orchestrator/run/duet.h). */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/messages.h"
#include "lib/paths.h"
#include "lib/shuffle.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/options-measure.h"
#include "orchestrator/run/duet.h"
#include "orchestrator/run/request-check.h"

static const char usage[] =
"Usage: benchorch duet BASE NEW [OPTIONS]\n"
"\n"
"Measure two images side by side and say, per curve (library, algorithm,\n"
"operation, mode), whether NEW is slower, faster or the same as BASE:\n"
"is trixie's libgcrypt faster than bookworm's, is this rebuilt package\n"
"slower? BASE and NEW are image names or specs ('benchorch images\n"
"list'); neither is built here. An image against itself (duet IMAGE\n"
"IMAGE) is an A/A test: every library is under test and no curve\n"
"should be slower or faster; it shows what this machine can resolve.\n"
"With --new-build NAME, NEW's guest loads that build of a library\n"
"(benchorch rebuild) in its place: duet IMAGE IMAGE --new-build NAME\n"
"judges the build against the library the distribution ships, the\n"
"other libraries being the controls.\n"
"\n"
"Both guests start at once, each in its own container, pinned to the\n"
"same CPU, and take turns: one measures a round of a point (a block per\n"
"library) while the other waits, then the other (in the order ABBA), so\n"
"that both see the same host, milliseconds apart. Per round, the\n"
"difference of log throughput between the twin blocks, the median over a\n"
"few sizes, is one paired sample; the effect is their mean over the\n"
"rounds, half of them from one pair of guests and half from a second\n"
"(another seed), with a 95 % interval (Student's t) that holds both the\n"
"rounds' spread and the pairs' disagreement. A curve is 'slower' or\n"
"'faster' when the effect is significant (alpha 0.05 over the library's\n"
"curves and looks) and at least the threshold, 'same' when its 90 %\n"
"interval lies within +-threshold. A curve neither is measured again,\n"
"by a new pair of guests, with as many rounds more (up to --max-rounds);\n"
"then 'undecided'. The libraries whose build, version\n"
"or package differs between the images are under test; the others are\n"
"controls, judged and shown but never a regression. When no library\n"
"differs, every library is under test.\n""\n"
"Public-key algorithms named in --algos (x25519, ed25519, ecdsa-p256,\n"
"rsa-2048, ...) and key derivation functions (pbkdf2-sha256,\n"
"hkdf-sha256, scrypt, argon2id) are measured after the ciphers and\n"
"hashes in the same way: each operation (import, derive, sign, verify,\n"
"...; a KDF's derive) is a curve of one point, mode 'pubkey' or 'kdf',\n"
"whose blocks (one calibrated batch of the operation) take turns; a\n"
"round's sample is the log ratio of the two sides' ns per operation.\n"
"rsa-2048's keygen is not judged (a new key's time varies by nature).\n"
"\n"
"stdout: per library the curves slower, faster, same and undecided, the\n"
"median effect and the median minimum detectable effect (MDE), then the\n"
"curves that changed; --format csv or json: every curve. Progress on\n"
"stderr. Guest logs: STATE/logs/duet-*.log. The duet is stored in the\n"
"database: tables duets, duet_libraries, duet_curves (the verdicts) and\n"
"duet_points (each round's block), view duet_curves_v.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 done, 1 a guest or a library in it failed (what was\n"
"measured is still printed), 2 usage error or unknown image, 3\n"
"environment (not root, no log directory, a database that cannot be\n"
"written), 4 a tested library has a\n"
"slower curve and --fail-on-regression was given, 130/143 interrupted.\n";

struct duet_opts {
	struct cli_paths paths;		/* first: cli_parse reads it */
	struct measure_opts measure;
	const char *libs, *algos;
	const char *base_build, *new_build;
	long long rounds, max_rounds;
	double threshold;
	enum format format;
	int fail_on_regression;
	int nohw;
	int quiet;
};

static const struct opt_def options[] = {
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .name = "libs", .kind = OPT_VALUE, .arg = "LIST",
	  .offset = offsetof(struct duet_opts, libs), .parse = measure_parse_libs,
	  .help = "only these libraries (openssl, libgcrypt, nettle,\n"
		  "libsodium, ...; default: all)" },
	{ .name = "algos", .kind = OPT_VALUE, .arg = "LIST",
	  .offset = offsetof(struct duet_opts, algos), .parse = measure_parse_run_algos,
	  .help = "only these algorithms (e.g. aes-128-cbc,sha-256;\n"
		  "default: every cipher and hash); public-key ones\n"
		  "(x25519, ed25519, ecdsa-p256, rsa-2048, ...) and key\n"
		  "derivation functions (pbkdf2-sha256, ...) too, only\n"
		  "when named" },
	{ .name = "new-build", .kind = OPT_STRING, .arg = "NAME",
	  .offset = offsetof(struct duet_opts, new_build),
	  .help = "NEW's guest loads this build of NEW's image\n"
		  "(benchorch rebuild) in place of its library, under\n"
		  "the library's name: duet IMAGE IMAGE --new-build o3\n"
		  "is the build against the shipped library" },
	{ .name = "base-build", .kind = OPT_STRING, .arg = "NAME",
	  .offset = offsetof(struct duet_opts, base_build),
	  .help = "BASE's guest loads this build in place of its\n"
		  "library, as --new-build (two builds: both)" },
	{ .name = "nohw", .kind = OPT_FLAG,
	  .offset = offsetof(struct duet_opts, nohw),
	  .help = "mask the libraries' hardware acceleration in both\n"
		  "images (as run --nohw); stored as variant 'nohw'" },
	{ .kind = OPT_GROUP, .group = measure_quick_options,
	  .offset = offsetof(struct duet_opts, measure) },
	{ .name = "rounds", .kind = OPT_INT, .arg = "N",
	  .offset = offsetof(struct duet_opts, rounds), .min = 3, .max = 150,
	  .help = "rounds (paired blocks) per point before the first\n"
		  "look, 3 to 150 (default 24, 16 with --quick)" },
	{ .name = "max-rounds", .kind = OPT_INT, .arg = "N",
	  .offset = offsetof(struct duet_opts, max_rounds), .min = 3,
	  .max = 150,
	  .help = "the most rounds a curve undecided at a look gets,\n"
		  "doubling from --rounds (default twice --rounds; equal\n"
		  "to --rounds: one look)" },
	{ .name = "threshold", .kind = OPT_VALUE, .arg = "PCT",
	  .offset = offsetof(struct duet_opts, threshold),
	  .parse = cli_parse_threshold, .msg_prefix = "--threshold: ",
	  .help = "the smallest change that counts, in % (default 3)" },
	{ .kind = OPT_GROUP, .group = measure_seed_options,
	  .offset = offsetof(struct duet_opts, measure) },
	{ .kind = OPT_GROUP, .group = measure_guest_options,
	  .offset = offsetof(struct duet_opts, measure) },
	{ .name = "fail-on-regression", .kind = OPT_FLAG,
	  .offset = offsetof(struct duet_opts, fail_on_regression),
	  .help = "exit 4 when a tested library has a slower curve" },
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct duet_opts, format),
	  .parse = cli_parse_format,
	  .help = "table (default), csv or json" },
	{ .name = "quiet", .short_name = 'q', .kind = OPT_FLAG,
	  .offset = offsetof(struct duet_opts, quiet),
	  .help = "no progress lines on stderr" },
	{ .kind = OPT_END },
};

/* cmd_duet_entry.init: the defaults. */
static void init_opts(void *opts)
{
	struct duet_opts *o = opts;

	measure_init(&o->measure);
	o->threshold = DUET_DEFAULT_THRESHOLD;
	o->format = FORMAT_TABLE;
}

static int cmd_duet(const struct cmd_ctx *ctx, void *opts, int argc,
		    char **argv)
{
	const struct duet_opts *o = opts;
	struct duet_request r;
	char *data, *guest;
	bo_err err;
	int rc, lock;

	if (argc != 2)
		return cli_usage_error("duet", "want two images, BASE and NEW (got %d)",
				       argc);
	if (o->max_rounds && o->max_rounds < (o->rounds ? o->rounds :
		o->measure.quick ? DUET_QUICK_ROUNDS : DUET_ROUNDS))
		return cli_usage_error("duet", "--max-rounds: want at least the rounds of the first look (--rounds, default %d, %d with --quick)",
				       DUET_ROUNDS, DUET_QUICK_ROUNDS);
	if (o->threshold <= 0)
		return cli_usage_error("duet", "--threshold: want more than 0 %%");
	/* a selection that measures nothing, refused before anything runs */
	if (request_check_selection(o->libs, o->algos, &err) < 0)
		return cli_usage_error("duet", "%s", err.msg);
	memset(&r, 0, sizeof(r));
	r.base = argv[0];
	r.new_name = argv[1];
	r.libs = o->libs;
	r.algos = o->algos;
	r.base_build = o->base_build;
	r.new_build = o->new_build;
	r.quick = o->measure.quick;
	r.nohw = o->nohw;
	r.rounds = (unsigned)o->rounds;
	r.max_rounds = (unsigned)o->max_rounds;
	r.seed_set = o->measure.seed.set;
	r.seed = o->measure.seed.n;
	r.threshold = o->threshold;
	r.kind = o->measure.runner;
	r.timeout_s = o->measure.timeout_s;
	r.format = o->format;
	r.fail_on_regression = o->fail_on_regression;
	r.quiet = o->quiet;
	r.state_dir = ctx->state_dir;
	r.db_path = ctx->db_path;
	r.data_dir = data = paths_data_dir();
	r.guest = guest = paths_guest(GUEST_FLAVOUR_GLIBC);
	bo_signals_install();
	/* an unusable database is said at once, not after the measuring */
	rc = cli_check_db_writable(r.db_path);
	if (rc != EXIT_OK) {
		free(data);
		free(guest);
		return rc;
	}
	/* two measurements at once disturb each other: a duet waits for a
	 * run, as a run waits for a duet */
	lock = cli_run_lock(&err);
	if (lock < 0) {
		cli_error("%s", err.msg);
		rc = bo_interrupted ? cli_interrupted_status(bo_interrupted) :
				      EXIT_ENV;
	} else {
		rc = duet_execute(&r);
		close(lock);
	}
	free(data);
	free(guest);
	return rc;
}

const struct cmd_entry cmd_duet_entry = {
	.name = "duet",
	.summary = "measure two images side by side, taking turns, and judge each curve in pairs",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.flags = CMD_NEEDS_ROOT,
	.opts_size = sizeof(struct duet_opts),
	.init = init_opts,
	.max_args = 2,
	.run = cmd_duet,
};
