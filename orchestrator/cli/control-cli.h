/* control-cli.h - what the daemon's client commands (status, submit,
 * cancel) share: the options that find the socket, and the call. */
#ifndef BENCHORCH_CONTROL_CLI_H
#define BENCHORCH_CONTROL_CLI_H

#include <jansson.h>

#include "orchestrator/cli/options.h"

/* Options every client command takes (the rows of control_cli_options). */
struct control_cli {
	const char *socket, *config, *state;
};

/* --socket PATH, --config FILE and --state-dir DIR (OPT_PATH: an empty
 * one is refused), offsets in struct control_cli: a command embeds one
 * and includes this group at its offset. The values point into argv. */
extern const struct opt_def control_cli_options[];

/* Send REQ (reference stolen) for command CMD ("submit", ...) to the
 * daemon cc names. Returns 0 and the reply in *ret (json_decref), or
 * prints the error and returns an exit status: EXIT_ENV when the daemon
 * cannot be reached ("benchorch: ..."), EXIT_USAGE when it refused the
 * request's names (an unknown distribution or library: CMD's usage error,
 * "benchorch CMD: ..." and the --help hint, as the command's own checks
 * print it), EXIT_FAILED when it refused otherwise (e.g. its queue is
 * full: "benchorch CMD: ..."). */
int control_cli_call(const char *cmd, const struct control_cli *cc,
		     json_t *req, json_t **ret);

#endif
