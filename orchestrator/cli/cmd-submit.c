/* cmd-submit.c - `benchorch submit`: queue a run in the daemon now. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"

static const char usage[] =
"Usage: benchorch submit --distros LIST [--quick] [--refresh] [--libs LIST]\n"
"                        [--socket PATH | --config FILE | --state-dir DIR]\n"
"\n"
"Queue a run in the daemon: it starts at once when the daemon is idle,\n"
"else when the runs before it finish. The distributions and libraries are\n"
"checked as `benchorch run` checks them.\n"
"\n"
"Options:\n"
"  -d, --distros LIST     comma-separated NAME[:RELEASE]\n"
"      --quick            a short run\n"
"      --refresh          rebuild the images first\n"
"      --libs LIST        only these guest libraries (default: all)\n"
CONTROL_CLI_USAGE
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 queued or started; 1 the daemon refused (e.g. an unknown\n"
"distribution or library); 2 usage; 3 no daemon answers, or no permission\n"
"to use its socket.\n";

enum { OPT_QUICK = 256, OPT_REFRESH, OPT_LIBS };

static const struct option options[] = {
	{ "distros", required_argument, NULL, 'd' },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "refresh", no_argument, NULL, OPT_REFRESH },
	{ "libs", required_argument, NULL, OPT_LIBS },
	CONTROL_CLI_OPTIONS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int cmd_submit(int argc, char **argv)
{
	struct control_cli cc = { 0 };
	const char *distros = NULL, *libs = NULL;
	json_t *req, *reply;
	int opt, quick = 0, refresh = 0, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:h", options, NULL)) != -1) {
		int k = control_cli_option(&cc, "submit", opt, optarg);

		if (k < 0)
			return EXIT_USAGE;
		if (k)
			continue;
		switch (opt) {
		case 'd':
			distros = optarg;
			break;
		case OPT_QUICK:
			quick = 1;
			break;
		case OPT_REFRESH:
			refresh = 1;
			break;
		case OPT_LIBS:
			libs = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_OK;
		case ':':
			return cli_usage_error("submit", "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("submit", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("submit", "unexpected argument '%s'",
				       argv[optind]);
	if (!distros)
		return cli_usage_error("submit", "--distros is required");
	req = json_pack("{s:s, s:s, s:b, s:b}", "type", "submit", "distros",
			distros, "quick", quick, "refresh", refresh);
	if (libs)
		json_object_set_new(req, "libs", json_string(libs));
	rc = control_cli_call(&cc, req, &reply);
	if (rc)
		return rc;
	if (json_is_true(json_object_get(reply, "started")))
		printf("job %lld started\n", (long long)json_integer_value(
			       json_object_get(reply, "job")));
	else
		printf("job %lld queued (position %lld: after %lld run%s)\n",
		       (long long)json_integer_value(json_object_get(reply, "job")),
		       (long long)json_integer_value(json_object_get(reply, "position")),
		       (long long)json_integer_value(json_object_get(reply, "position")),
		       json_integer_value(json_object_get(reply, "position")) == 1 ?
		       "" : "s");
	json_decref(reply);
	return EXIT_OK;
}

const struct cmd_entry cmd_submit_entry = {
	.name = "submit",
	.summary = "queue a run in the daemon now",
	.usage = usage,
	.flags = 0,
	.fn = cmd_submit,
};
