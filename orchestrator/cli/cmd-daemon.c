/* cmd-daemon.c - `benchorch daemon`: run the schedules of benchorch.conf(5)
 * and serve the control socket; `--check` validates and prints the
 * configuration instead. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/daemon/config-file.h"
#include "orchestrator/daemon/daemon.h"
#include "lib/paths.h"

static const char usage[] =
"Usage: benchorch daemon [--config FILE] [--foreground] [--state-dir DIR]\n"
"       benchorch daemon --check [--config FILE] [--state-dir DIR]\n"
"\n"
"Run the schedules of the configuration file, one run at a time, refreshing\n"
"the images first, and answer `benchorch status`, `submit` and `cancel` on\n"
"a control socket. SIGTERM or SIGINT stops the current run (stored as\n"
"'aborted') and exits 0; SIGHUP reloads the configuration.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"See benchorch-daemon(8) and benchorch.conf(5). Exit status: 0 clean\n"
"shutdown or valid configuration; 2 bad configuration, or a --config FILE\n"
"that cannot be read; 3 cannot start\n"
"(not root, another daemon holds STATE/daemon.lock).\n";

struct daemon_cli_opts {
	struct daemon_opts d;
	int check;		/* --check */
};

/* --state-dir DIR: not empty, absolute (the daemon changes directory),
 * into a const char *. */
static int parse_state_dir(const char *arg, void *dest, bo_err *err)
{
	if (!*arg)
		return bo_err_set(err, "--state-dir must not be empty");
	if (arg[0] != '/')
		return bo_err_set(err, "--state-dir must be an absolute path, not '%s'",
				  arg);
	*(const char **)dest = arg;
	return 0;
}

static const struct opt_def options[] = {
	{ .name = "config", .short_name = 'c', .kind = OPT_INPUT,
	  .arg = "FILE", .offset = offsetof(struct daemon_cli_opts,
					    d.config_path),
	  .help = "configuration (default: " BENCHORCH_DEFAULT_CONFIG ";\n"
		  "when it is missing, defaults and no schedule)" },
	{ .name = "foreground", .short_name = 'f', .kind = OPT_FLAG,
	  .offset = offsetof(struct daemon_cli_opts, d.foreground),
	  .help = "stay in the foreground, log to stderr (for\n"
		  "systemd); otherwise detach and log to\n"
		  "STATE/daemon.log" },
	{ .name = "state-dir", .kind = OPT_VALUE, .arg = "DIR",
	  .offset = offsetof(struct daemon_cli_opts, d.state_opt),
	  .parse = parse_state_dir,
	  .help = "state directory, over $BENCHORCH_STATE_DIR, over\n"
		  "the file's state-dir ($BENCHORCH_DB likewise over\n"
		  "the file's database)" },
	{ .name = "check", .short_name = 'n', .kind = OPT_FLAG,
	  .offset = offsetof(struct daemon_cli_opts, check),
	  .help = "check the configuration, print it normalised\n"
		  "with the paths the daemon would use, exit" },
	{ .kind = OPT_END },
};

/* --check: parse the file PATH (NULL: the default, or the defaults when
 * it is missing), settle its paths with --state-dir STATE_OPT (may be
 * NULL) and the environment as the daemon does, check the distros, print
 * the normalised form. Returns an exit status. */
static int check_only(const char *path, const char *state_opt)
{
	struct conf *c;
	char *data = paths_data_dir();
	bo_err err;
	int rc = EXIT_OK;

	/* As the daemon itself: a missing default file means the defaults
	 * and no schedule; a file named with --config must exist. */
	if (!path && access(BENCHORCH_DEFAULT_CONFIG, F_OK) != 0) {
		cli_warn("no '%s': the defaults and no schedule",
			 BENCHORCH_DEFAULT_CONFIG);
		c = conf_default(NULL);
	} else if (conf_load(path ? path : BENCHORCH_DEFAULT_CONFIG, &c,
			     &err) < 0) {
		cli_error("%s", err.msg);
		free(data);
		return EXIT_USAGE;
	}
	if (conf_resolve_paths(c, state_opt, &err) < 0 ||
	    conf_check_distros(c, data, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_USAGE;
	} else {
		conf_print(stdout, c);
	}
	conf_free(c);
	free(data);
	return rc;
}

static int cmd_daemon(const struct cmd_ctx *ctx, void *opts, int argc,
		      char **argv)
{
	const struct daemon_cli_opts *o = opts;

	(void)ctx;
	(void)argc;
	(void)argv;
	if (o->check)
		return check_only(o->d.config_path, o->d.state_opt);
	if (geteuid() != 0) {
		cli_error("'daemon' must be run as root: it builds root filesystems and starts containers");
		return EXIT_ENV;
	}
	return daemon_main(&o->d);
}

const struct cmd_entry cmd_daemon_entry = {
	.name = "daemon",
	.summary = "run scheduled benchmarks, serve status/submit/cancel",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.flags = 0,	/* root checked after --check */
	.opts_size = sizeof(struct daemon_cli_opts),
	.max_args = 0,
	.run = cmd_daemon,
};
