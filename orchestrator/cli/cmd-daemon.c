/* cmd-daemon.c - `benchorch daemon`: run the schedules of benchorch.conf(5)
 * and serve the control socket; `--check` validates and prints the
 * configuration instead. */
#include "config.h"

#include <getopt.h>
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
"Options:\n"
"  -c, --config FILE   configuration (default: " BENCHORCH_DEFAULT_CONFIG ";\n"
"                      when it is missing, defaults and no schedule)\n"
"  -f, --foreground    stay in the foreground, log to stderr (for systemd);\n"
"                      otherwise detach and log to STATE/daemon.log\n"
"      --state-dir DIR state directory, over $BENCHORCH_STATE_DIR, over the\n"
"                      file's state-dir ($BENCHORCH_DB likewise over the\n"
"                      file's database)\n"
"  -n, --check         check the configuration, print it normalised with the\n"
"                      paths the daemon would use, exit\n"
"  -h, --help          show this help\n"
"\n"
"See benchorch-daemon(8) and benchorch.conf(5). Exit status: 0 clean\n"
"shutdown or valid configuration; 2 bad configuration; 3 cannot start\n"
"(not root, another daemon holds STATE/daemon.lock).\n";

enum { OPT_STATE = 256 };

static const struct option options[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "state-dir", required_argument, NULL, OPT_STATE },
	{ "check", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
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

static int cmd_daemon(int argc, char **argv)
{
	struct daemon_opts o = { 0 };
	int opt, check = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:fnh", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			o.config_path = optarg;
			break;
		case 'f':
			o.foreground = 1;
			break;
		case OPT_STATE:
			if (cli_path_arg("daemon", "--state-dir", optarg))
				return EXIT_USAGE;
			if (optarg[0] != '/')
				return cli_usage_error("daemon", "--state-dir must be an absolute path, not '%s'",
						       optarg);
			o.state_opt = optarg;
			break;
		case 'n':
			check = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error("daemon", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("daemon", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("daemon", "unexpected argument '%s'",
				       argv[optind]);
	if (check)
		return check_only(o.config_path, o.state_opt);
	if (geteuid() != 0) {
		cli_error("'daemon' must be run as root: it builds root filesystems and starts containers");
		return EXIT_ENV;
	}
	return daemon_main(&o);
}

const struct cmd_entry cmd_daemon_entry = {
	.name = "daemon",
	.summary = "run scheduled benchmarks, serve status/submit/cancel",
	.usage = usage,
	.flags = 0,	/* root checked after --check */
	.fn = cmd_daemon,
};
