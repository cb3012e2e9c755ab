/* control.h - the daemon's control socket: one message type header for the
 * daemon and its clients (`status`, `submit`, `cancel`), after OpenBSD
 * ntpd/ntpctl.
 *
 * Transport: a SOCK_SEQPACKET Unix socket, mode 0600, so each message
 * arrives whole or not at all and its size is known. A message is one JSON
 * object of at most CONTROL_MAX_MSG bytes carrying "version":
 * CONTROL_VERSION. Requests carry "type" ("status", "submit", "cancel");
 * replies carry "ok" (true/false) and, when false, "error" (a string). The
 * daemon answers every request, a malformed one with an error, and keeps
 * the connection for further requests. */
#ifndef BENCHORCH_CONTROL_H
#define BENCHORCH_CONTROL_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"

#define CONTROL_VERSION 1
#define CONTROL_MAX_MSG 8192		/* bytes, either direction */
#define CONTROL_MAX_FIELD 1024		/* bytes in a string field */
#define CONTROL_TIMEOUT_MS 10000	/* client wait for a reply */

enum control_type {
	CONTROL_STATUS,
	CONTROL_SUBMIT,		/* queue a run now */
	CONTROL_CANCEL,		/* stop the current run (stored 'aborted') */
};

/* A checked request. Strings owned; release with control_req_release(). */
struct control_req {
	enum control_type type;
	char *distros;		/* submit: NAME[:RELEASE],... (required) */
	char *libs;		/* submit: guest --libs, NULL = all */
	int quick;		/* submit: default 0 */
	int refresh;		/* submit: rebuild the images, default 0 */
};

/* Check and decode one request of LEN bytes at BUF (not NUL-terminated):
 * a JSON object, at most CONTROL_MAX_MSG bytes, "version" the integer
 * CONTROL_VERSION, "type" a known string, and for submit "distros" a
 * non-empty string, "libs" a string, "quick"/"refresh" booleans; any other
 * key, a wrong type or an over-long string is refused. Returns 0 and fills
 * *ret, or -1 with err set to a message fit to send back. */
int control_req_parse(const void *buf, size_t len, struct control_req *ret,
		      bo_err *err);

/* Free the strings r owns and zero it (not r itself). */
void control_req_release(struct control_req *r);

/* Serialise MSG (an object; "version" is set on it) compactly. Returns a
 * newly allocated string, or NULL with err set when it would exceed
 * CONTROL_MAX_MSG. */
char *control_encode(json_t *msg, bo_err *err);

/* Create the listening socket at PATH, replacing a stale socket file (one
 * nobody accepts connections on) but refusing to replace anything that is
 * not a socket or a socket another daemon answers on, mode 0600, parent
 * directory created 0755 if missing. Returns the fd (close-on-exec,
 * non-blocking), or -1 with err set. */
int control_listen(const char *path, bo_err *err);

/* Client side: connect to PATH, send REQ (borrowed; "version" set on it)
 * and wait up to CONTROL_TIMEOUT_MS for the reply. Returns 0 with the reply
 * object in *ret (json_decref) when the daemon answered "ok": true; -1 with
 * err set when it could not be asked (cannot connect, timeout, malformed
 * reply); -2 with err set to the daemon's own "error" when it refused,
 * -3 when it refused the request's names ("usage": true in the reply: an
 * unknown distribution or library, as `run` refuses with exit 2). */
int control_call(const char *path, json_t *req, json_t **ret, bo_err *err);

/* Which socket a client should use: SOCKET_OPT if not NULL; else the one
 * a daemon started with the same configuration, --state-dir and
 * environment listens on: with the configuration CONFIG_OPT (an error if
 * it cannot be read), or the default configuration file when that exists,
 * its paths settled by conf_resolve_paths (config-file.h) with STATE_OPT
 * (may be NULL): its "socket", else STATE/control.sock; without a file,
 * STATE/control.sock with STATE from STATE_OPT / $BENCHORCH_STATE_DIR /
 * the default. Returns a newly allocated path, or NULL with err set. */
char *control_socket_path(const char *socket_opt, const char *config_opt,
			  const char *state_opt, bo_err *err);

#endif
