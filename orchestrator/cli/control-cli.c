/* control-cli.c - socket options and the call shared by status, submit
 * and cancel. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "orchestrator/cli/cli.h"
#include "orchestrator/cli/control-cli.h"
#include "orchestrator/daemon/control.h"

int control_cli_option(struct control_cli *cc, const char *cmd, int opt,
		       const char *arg)
{
	switch (opt) {
	case 1001:
		cc->socket = arg;
		return 1;
	case 1002:
		cc->config = arg;
		return 1;
	case 1003:
		if (cli_path_arg(cmd, "--state-dir", arg))
			return -1;
		cc->state = arg;
		return 1;
	}
	return 0;
}

int control_cli_call(const struct control_cli *cc, json_t *req,
		     json_t **ret)
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
	if (rc < 0) {
		cli_error("%s", err.msg);
		return rc == -2 ? EXIT_FAILED : EXIT_ENV;
	}
	return 0;
}
