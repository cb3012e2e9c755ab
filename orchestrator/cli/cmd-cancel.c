/* cmd-cancel.c - `benchorch cancel`: stop the daemon's current run. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"

static const char usage[] =
"Usage: benchorch cancel [--socket PATH | --config FILE | --state-dir DIR]\n"
"\n"
"Stop the daemon's current run: the guest is stopped, nothing stays\n"
"mounted and the run is stored as 'aborted'. Queued runs stay queued.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 cancelling; 1 no run in progress; 2 usage error, or a\n"
"--config FILE that cannot be read; 3 no daemon answers, or no permission\n"
"to use its socket.\n";

struct cancel_opts {
	struct control_cli cc;
};

static const struct opt_def options[] = {
	{ .kind = OPT_GROUP, .group = control_cli_options,
	  .offset = offsetof(struct cancel_opts, cc) },
	{ .kind = OPT_END },
};

static int cmd_cancel(const struct cmd_ctx *ctx, void *opts, int argc,
		      char **argv)
{
	const struct cancel_opts *o = opts;
	json_t *reply;
	int rc;

	(void)ctx;
	(void)argc;
	(void)argv;
	rc = control_cli_call("cancel", &o->cc,
			      json_pack("{s:s}", "type", "cancel"),
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
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct cancel_opts),
	.max_args = 0,
	.run = cmd_cancel,
};
