/* cmd-submit.c - `benchorch submit`: queue a run in the daemon now. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"
#include "orchestrator/cli/options-measure.h"
#include "orchestrator/run/request-check.h"

static const char usage[] =
"Usage: benchorch submit --distros LIST [--quick] [--refresh] [--libs LIST]\n"
"                        [--socket PATH | --config FILE | --state-dir DIR]\n"
"\n"
"Queue a run in the daemon: it starts at once when the daemon is idle,\n"
"else when the runs before it finish. The distributions and libraries are\n"
"checked as `benchorch run` checks them.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"Exit status: 0 queued or started; 1 the daemon refused (e.g. its queue is\n"
"full); 2 usage: an unknown option, or a distribution or library the daemon\n"
"(or, for libraries, this command) does not know, as for run, or a --config\n"
"FILE that cannot be read; 3 no daemon\n"
"answers, or no permission to use its socket.\n";

struct submit_opts {
	const char *distros, *libs;
	struct measure_opts measure;	/* --quick only */
	int refresh;
	struct control_cli cc;
};

static const struct opt_def options[] = {
	{ .name = "distros", .short_name = 'd', .kind = OPT_STRING,
	  .arg = "LIST", .offset = offsetof(struct submit_opts, distros),
	  .help = "comma-separated NAME[:RELEASE]" },
	{ .kind = OPT_GROUP, .group = measure_quick_options,
	  .offset = offsetof(struct submit_opts, measure) },
	{ .name = "refresh", .kind = OPT_FLAG,
	  .offset = offsetof(struct submit_opts, refresh),
	  .help = "rebuild the images first" },
	{ .name = "libs", .kind = OPT_STRING, .arg = "LIST",
	  .offset = offsetof(struct submit_opts, libs),
	  .help = "only these guest libraries (default: all)" },
	{ .kind = OPT_GROUP, .group = control_cli_options,
	  .offset = offsetof(struct submit_opts, cc) },
	{ .kind = OPT_END },
};

static int cmd_submit(const struct cmd_ctx *ctx, void *opts, int argc,
		      char **argv)
{
	const struct submit_opts *o = opts;
	json_t *req, *reply;
	bo_err err;
	int rc;

	(void)ctx;
	(void)argc;
	(void)argv;
	if (!o->distros)
		return cli_usage_error("submit", "--distros is required");
	/* the guest's libraries are the same here and in the daemon: said
	 * before the socket is tried; the distributions are the daemon's
	 * (its state directory's images), checked there (exit 2 too) */
	if (o->libs && (request_check_libs(o->libs, "--libs", &err) < 0 ||
			request_check_selection(o->libs, NULL, &err) < 0))
		return cli_usage_error("submit", "%s", err.msg);
	req = json_pack("{s:s, s:s, s:b, s:b}", "type", "submit", "distros",
			o->distros, "quick", o->measure.quick, "refresh",
			o->refresh);
	if (o->libs)
		json_object_set_new(req, "libs", json_string(o->libs));
	rc = control_cli_call("submit", &o->cc, req, &reply);
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
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct submit_opts),
	.max_args = 0,
	.run = cmd_submit,
};
