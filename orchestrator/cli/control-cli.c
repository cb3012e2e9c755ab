/* control-cli.c - socket options and the call shared by status, submit
 * and cancel. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"
#include "orchestrator/daemon/control.h"

const struct opt_def control_cli_options[] = {
	{ .name = "socket", .kind = OPT_STRING, .arg = "PATH",
	  .offset = offsetof(struct control_cli, socket),
	  .help = "the daemon's control socket" },
	{ .name = "config", .kind = OPT_INPUT, .arg = "FILE",
	  .offset = offsetof(struct control_cli, config),
	  .help = "the daemon's configuration, for its socket\n"
		  "(default: /etc/benchorch/benchorch.conf if any)" },
	{ .name = "state-dir", .kind = OPT_PATH, .arg = "DIR",
	  .offset = offsetof(struct control_cli, state),
	  .help = "the daemon's state directory (default:\n"
		  "$BENCHORCH_STATE_DIR, else the configuration's):\n"
		  "DIR/control.sock unless it names a socket" },
	{ .kind = OPT_END },
};

int control_cli_call(const char *cmd, const struct control_cli *cc,
		     json_t *req, json_t **ret)
{
	char *path;
	bo_err err;
	int rc;

	path = control_socket_path(cc->socket, cc->config, cc->state, &err);
	if (!path) {
		json_decref(req);
		cli_error("%s", err.msg);
		return EXIT_ENV;
	}
	rc = control_call(path, req, ret, &err);
	json_decref(req);
	free(path);
	/* the daemon's refusals are the command's, said as the command's
	 * own checks say theirs */
	if (rc == -3)
		return cli_usage_error(cmd, "%s", err.msg);
	if (rc == -2) {
		cli_cmd_error(cmd, "%s", err.msg);
		return EXIT_FAILED;
	}
	if (rc < 0) {
		cli_error("%s", err.msg);
		return EXIT_ENV;
	}
	return 0;
}
