/* cmd-confirm.c - `benchorch confirm`: measure again, in one run, the
 * curves of a run that look changed, in its distributions' previous and
 * new images in alternating rounds. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/options-measure.h"
#include "orchestrator/run/confirm.h"
#include "orchestrator/run/confirm-curves.h"
#include "lib/paths.h"

static const char usage[] =
"Usage: benchorch confirm [OPTIONS]\n"
"\n"
"Measure again, before they are reported, the curves of a run that look\n"
"changed. When a distribution's packages changed, the rebuild ('images\n"
"build --refresh', 'run --refresh', the daemon) kept the image it replaced\n"
"as NAME.previous; confirm measures the previous and the new image in\n"
"alternating rounds within one run (each round both images, in an order\n"
"drawn per round), stores both (invocations.image_id tells them apart),\n"
"then measures the two side by side in a duet ('benchorch duet', stored\n"
"with the run: its paired verdicts decide what held), records what it\n"
"confirmed and then deletes the previous image. Without a\n"
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
"--curves, those that look changed against the run's base, as 'compare\n"
"--latest 2' takes it: the latest earlier finished run made alike (the\n"
"same --quick flag, --nohw or not, --sequential or not; a --nohw run in\n"
"between is passed over) that measured one of its distributions:\n"
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
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 confirmed (or nothing to confirm), 1 the run or a library\n"
"in it failed, 2 usage error or no such run, 3 environment (not root,\n"
"database, an image the run measured is gone), 130/143 interrupted.\n";

struct confirm_opts {
	struct cli_paths paths;		/* first: cli_parse reads it */
	struct measure_opts measure;	/* copied into c */
	struct confirm_config c;	/* the rest, as given */
};

/* --run N: a run id, into an int64_t. */
static int parse_run(const char *arg, void *dest, bo_err *err)
{
	return cli_parse_run_id(arg, dest, err);
}

/* --curves LIST: every name checked before anything runs; the list as
 * given into a const char *. */
static int parse_curves(const char *arg, void *dest, bo_err *err)
{
	struct confirm_curve *cv;
	size_t ncv;

	if (confirm_curves_parse(arg, NULL, &cv, &ncv, err) < 0)
		return -1;
	confirm_curves_free(cv, ncv);
	*(const char **)dest = arg;
	return 0;
}

/* --rounds N: 1 to 50, into a size_t. */
static int parse_rounds(const char *arg, void *dest, bo_err *err)
{
	long long v;

	if (cli_parse_ll(arg, 1, 50, &v, err) < 0)
		return -1;
	*(size_t *)dest = (size_t)v;
	return 0;
}

static const struct opt_def options[] = {
	{ .name = "run", .kind = OPT_VALUE, .arg = "N",
	  .offset = offsetof(struct confirm_opts, c.run_id),
	  .parse = parse_run, .msg_prefix = "--run: ",
	  .help = "the run to confirm (default: the latest finished\n"
		  "run that is neither a confirmation nor a tool run);\n"
		  "a confirmation or a tool run (run --tools) is not\n"
		  "confirmed" },
	{ .name = "curves", .kind = OPT_VALUE, .arg = "LIST",
	  .offset = offsetof(struct confirm_opts, c.curves),
	  .parse = parse_curves, .msg_prefix = "--curves: ",
	  .help = "comma-separated\n"
		  "LIBRARY/ALGORITHM[/OPERATION[/MODE]]\n"
		  "(e.g. openssl/aes-128-cbc/encrypt/bulk), in every\n"
		  "distribution of the run: the guest's library and\n"
		  "algorithm names (run --libs, --algos), an\n"
		  "operation the algorithm has (encrypt or decrypt\n"
		  "for a cipher, hash for a hash), checked before\n"
		  "anything runs" },
	{ .name = "rounds", .kind = OPT_VALUE, .arg = "N",
	  .offset = offsetof(struct confirm_opts, c.rounds),
	  .parse = parse_rounds, .msg_prefix = "--rounds: ",
	  .help = "rounds of previous and new image, 1 to 50\n"
		  "(default 2)" },
	{ .kind = OPT_GROUP, .group = measure_options,
	  .offset = offsetof(struct confirm_opts, measure) },
	{ .kind = OPT_GROUP, .group = cli_db_options },
	{ .kind = OPT_GROUP, .group = measure_guest_options,
	  .offset = offsetof(struct confirm_opts, measure) },
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct confirm_opts, c.format),
	  .parse = cli_parse_format,
	  .help = "table (default), csv or json" },
	{ .name = "quiet", .short_name = 'q', .kind = OPT_FLAG,
	  .offset = offsetof(struct confirm_opts, c.quiet),
	  .help = "no progress lines on stderr" },
	{ .kind = OPT_END },
};

/* cmd_confirm_entry.init: the defaults. */
static void init_opts(void *opts)
{
	struct confirm_opts *o = opts;

	measure_init(&o->measure);
	o->c.format = FORMAT_TABLE;
}

/* Whether the database at PATH holds run RUN: EXIT_OK, or EXIT_USAGE
 * after cli_check_runs's message (the same as every command's), or
 * EXIT_ENV after the database's error. */
static int check_run(const char *path, int64_t run)
{
	sqlite3 *db;
	int rc = cli_db_open(path, 0, &db);

	if (rc != EXIT_OK)
		return rc;
	rc = cli_check_runs("confirm", db, path, &run, 1);
	sqlite3_close(db);
	return rc;
}

static int cmd_confirm(const struct cmd_ctx *ctx, void *opts, int argc,
		       char **argv)
{
	const struct confirm_opts *o = opts;
	struct confirm_config c = o->c;
	char *data, *guest;
	int64_t run_id;
	bo_err err;
	int rc, lock;

	(void)argc;
	(void)argv;
	measure_to_confirm(&o->measure, &c);
	c.state_dir = ctx->state_dir;
	c.db_path = ctx->db_path;
	c.data_dir = data = paths_data_dir();
	c.guest = guest = paths_guest(GUEST_FLAVOUR_GLIBC);
	c.argc = ctx->argc;
	c.argv = ctx->argv;
	bo_signals_install();
	/* an unusable database, and a run it does not hold, are said at
	 * once, not after the wait for the run lock */
	rc = cli_check_db_writable(c.db_path);
	if (rc == EXIT_OK && c.run_id)
		rc = check_run(c.db_path, c.run_id);
	if (rc == EXIT_OK) {
		lock = cli_run_lock(&err);
		if (lock < 0) {
			cli_error("%s", err.msg);
			rc = bo_interrupted ?
			     cli_interrupted_status(bo_interrupted) : EXIT_ENV;
		} else {
			rc = confirm_execute(&c, &run_id);
			close(lock);
		}
	}
	free(data);
	free(guest);
	return rc;
}

const struct cmd_entry cmd_confirm_entry = {
	.name = "confirm",
	.summary = "measure what looks changed again, previous and new image side by side",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.flags = CMD_NEEDS_ROOT,
	.opts_size = sizeof(struct confirm_opts),
	.init = init_opts,
	.max_args = 0,
	.run = cmd_confirm,
};
