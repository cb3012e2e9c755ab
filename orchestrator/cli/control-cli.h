/* control-cli.h - what the daemon's client commands (status, submit,
 * cancel) share: the options that find the socket, and the call. */
#ifndef BENCHORCH_CONTROL_CLI_H
#define BENCHORCH_CONTROL_CLI_H

#include <jansson.h>

/* Options every client command takes, parsed by control_cli_option. */
struct control_cli {
	const char *socket, *config, *state;
};

#define CONTROL_CLI_OPTIONS \
	{ "socket", required_argument, NULL, 1001 }, \
	{ "config", required_argument, NULL, 1002 }, \
	{ "state-dir", required_argument, NULL, 1003 }

#define CONTROL_CLI_USAGE \
"      --socket PATH      the daemon's control socket\n" \
"      --config FILE      the daemon's configuration, for its socket\n" \
"                         (default: /etc/benchorch/benchorch.conf if any)\n" \
"      --state-dir DIR    the daemon's state directory (default:\n" \
"                         $BENCHORCH_STATE_DIR, else the configuration's):\n" \
"                         DIR/control.sock unless it names a socket\n"

/* If OPT is one of CONTROL_CLI_OPTIONS, store ARG (not copied: it must
 * outlive cc) in cc and return 1; else 0. An empty --state-dir is
 * refused (cli_path_arg): prints the usage error of command CMD and
 * returns -1. */
int control_cli_option(struct control_cli *cc, const char *cmd, int opt,
		       const char *arg);

/* Send REQ (reference stolen) to the daemon cc names. Returns 0 and the
 * reply in *ret (json_decref), or prints the error and returns an exit
 * status: EXIT_ENV when the daemon cannot be reached, EXIT_FAILED when it
 * refused. */
int control_cli_call(const struct control_cli *cc, json_t *req,
		     json_t **ret);

#endif
