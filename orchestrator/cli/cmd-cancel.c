/* cmd-cancel.c - `benchorch cancel`: stop the daemon's current run. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"

static const char usage[] =
"Usage: benchorch cancel [--socket PATH | --config FILE | --state-dir DIR]\n"
"\n"
"Stop the daemon's current run: the guest is stopped, nothing stays\n"
"mounted and the run is stored as 'aborted'. Queued runs stay queued.\n"
"\n"
"Options:\n"
CONTROL_CLI_USAGE
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 cancelling; 1 no run in progress; 3 no daemon answers, or\n"
"no permission to use its socket.\n";

static const struct option options[] = {
	CONTROL_CLI_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int cmd_cancel(int argc, char **argv)
{
	struct control_cli cc = { 0 };
	json_t *reply;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		int k = control_cli_option(&cc, "cancel", opt, optarg);

		if (k < 0)
			return EXIT_USAGE;
		if (k)
			continue;
		switch (opt) {
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error("cancel", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("cancel", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("cancel", "unexpected argument '%s'",
				       argv[optind]);
	rc = control_cli_call(&cc, json_pack("{s:s}", "type", "cancel"),
			      &reply);
	if (rc)
		return rc;
	printf("cancelling job %lld\n",
	       (long long)json_integer_value(json_object_get(reply, "job")));
	json_decref(reply);
	return EXIT_OK;
}

const struct cmd_entry cmd_cancel_entry = {
	.name = "cancel",
	.summary = "stop the daemon's current run",
	.usage = usage,
	.flags = 0,
	.fn = cmd_cancel,
};
