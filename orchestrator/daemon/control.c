/* control.c - the control socket protocol: checking requests, encoding
 * messages, listening and calling. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "orchestrator/daemon/config-file.h"
#include "orchestrator/daemon/control.h"
#include "lib/paths.h"

void control_req_release(struct control_req *r)
{
	free(r->distros);
	free(r->libs);
	memset(r, 0, sizeof(*r));
}

/* A string member of at most CONTROL_MAX_FIELD bytes, printable ASCII. */
static int get_string(json_t *v, const char *key, char **ret, bo_err *err)
{
	const char *s;
	size_t n, i;

	if (!json_is_string(v))
		return bo_err_set(err, "'%s' must be a string", key);
	s = json_string_value(v);
	n = json_string_length(v);
	if (n == 0 || n > CONTROL_MAX_FIELD)
		return bo_err_set(err, "'%s' must be 1 to %d bytes", key,
				  CONTROL_MAX_FIELD);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return bo_err_set(err, "'%s' must be printable ASCII",
					  key);
	*ret = xstrdup(s);
	return 0;
}

int control_req_parse(const void *buf, size_t len, struct control_req *ret,
		      bo_err *err)
{
	json_error_t jerr;
	json_t *root, *v;
	const char *key, *type;
	struct control_req r;

	memset(&r, 0, sizeof(r));
	if (len == 0)
		return bo_err_set(err, "empty message");
	if (len > CONTROL_MAX_MSG)
		return bo_err_set(err, "message of %zu bytes exceeds the %d-byte limit",
				  len, CONTROL_MAX_MSG);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return bo_err_set(err, "not JSON: %s", jerr.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return bo_err_set(err, "message must be a JSON object");
	}
	v = json_object_get(root, "version");
	if (!json_is_integer(v)) {
		json_decref(root);
		return bo_err_set(err, "'version' must be an integer");
	}
	if (json_integer_value(v) != CONTROL_VERSION) {
		bo_err_set(err, "protocol version %lld is not supported (this daemon speaks %d)",
			   (long long)json_integer_value(v), CONTROL_VERSION);
		json_decref(root);
		return -1;
	}
	v = json_object_get(root, "type");
	if (!json_is_string(v)) {
		json_decref(root);
		return bo_err_set(err, "'type' must be a string");
	}
	type = json_string_value(v);
	if (strcmp(type, "status") == 0)
		r.type = CONTROL_STATUS;
	else if (strcmp(type, "submit") == 0)
		r.type = CONTROL_SUBMIT;
	else if (strcmp(type, "cancel") == 0)
		r.type = CONTROL_CANCEL;
	else {
		bo_err_set(err, "unknown message type '%.64s'", type);
		json_decref(root);
		return -1;
	}
	json_object_foreach(root, key, v) {
		int rc = 0;

		if (strcmp(key, "version") == 0 || strcmp(key, "type") == 0)
			continue;
		if (r.type != CONTROL_SUBMIT) {
			rc = bo_err_set(err, "unexpected key '%.64s' in '%s'",
					key, type);
		} else if (strcmp(key, "distros") == 0) {
			free(r.distros);
			r.distros = NULL;
			rc = get_string(v, key, &r.distros, err);
		} else if (strcmp(key, "libs") == 0) {
			free(r.libs);
			r.libs = NULL;
			rc = get_string(v, key, &r.libs, err);
		} else if (strcmp(key, "quick") == 0 ||
			   strcmp(key, "refresh") == 0) {
			if (!json_is_boolean(v))
				rc = bo_err_set(err, "'%s' must be true or false",
						key);
			else if (key[0] == 'q')
				r.quick = json_is_true(v);
			else
				r.refresh = json_is_true(v);
		} else {
			rc = bo_err_set(err, "unexpected key '%.64s' in '%s'",
					key, type);
		}
		if (rc < 0) {
			json_decref(root);
			control_req_release(&r);
			return -1;
		}
	}
	json_decref(root);
	if (r.type == CONTROL_SUBMIT && !r.distros) {
		control_req_release(&r);
		return bo_err_set(err, "'submit' needs 'distros'");
	}
	if (r.libs && strcmp(r.libs, "all") == 0) {
		free(r.libs);
		r.libs = NULL;
	}
	*ret = r;
	return 0;
}

char *control_encode(json_t *msg, bo_err *err)
{
	char *s;

	json_object_set_new(msg, "version", json_integer(CONTROL_VERSION));
	s = json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS);
	if (!s) {
		bo_err_set(err, "cannot encode a control message");
		return NULL;
	}
	if (strlen(s) > CONTROL_MAX_MSG) {
		bo_err_set(err, "control message of %zu bytes exceeds the %d-byte limit",
			   strlen(s), CONTROL_MAX_MSG);
		free(s);
		return NULL;
	}
	return s;
}

static int fill_addr(const char *path, struct sockaddr_un *sa, bo_err *err)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (!*path)
		return bo_err_set(err, "the socket path is empty");
	if (strlen(path) >= sizeof(sa->sun_path))
		return bo_err_set(err, "socket path '%s' is too long", path);
	strcpy(sa->sun_path, path);
	return 0;
}

/* 1 when something accepts a connection on the socket SA. */
static int socket_answers(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return 0;
	rc = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0 ||
	     errno == EAGAIN;
	close(fd);
	return rc;
}

int control_listen(const char *path, bo_err *err)
{
	struct sockaddr_un sa;
	struct stat st;
	char *dir, *slash;
	mode_t old;
	int fd;

	if (fill_addr(path, &sa, err) < 0)
		return -1;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (bo_mkdir_p(dir, err) < 0) {
			free(dir);
			return -1;
		}
	}
	free(dir);
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return bo_err_set(err, "'%s' exists and is not a socket",
					  path);
		/* daemon.lock only keeps out a daemon of the same state
		 * directory: one of another may serve this socket. Only a
		 * socket nobody answers on is stale. */
		if (socket_answers(&sa))
			return bo_err_set(err, "another daemon answers on '%s'",
					  path);
		if (unlink(path) < 0)
			return bo_err_set(err, "cannot remove stale socket '%s': %s",
					  path, strerror(errno));
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return bo_err_set(err, "cannot create a socket: %s",
				  strerror(errno));
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		umask(old);
		bo_err_set(err, "cannot bind '%s': %s", sa.sun_path,
			   strerror(errno));
		close(fd);
		return -1;
	}
	umask(old);
	/* The messages name sa.sun_path, the same string as PATH: GCC's
	 * -Wformat-overflow, under -fsanitize=address, took PATH for a
	 * possible NULL here. */
	if (chmod(path, 0600) < 0 || listen(fd, 16) < 0) {
		bo_err_set(err, "cannot listen on '%s': %s", sa.sun_path,
			   strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

int control_call(const char *path, json_t *req, json_t **ret, bo_err *err)
{
	struct sockaddr_un sa;
	struct pollfd pfd;
	char *msg, buf[CONTROL_MAX_MSG + 1];
	json_error_t jerr;
	json_t *reply, *v;
	ssize_t n;
	int fd, rc, usage;

	if (fill_addr(path, &sa, err) < 0)
		return -1;
	msg = control_encode(req, err);
	if (!msg)
		return -1;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		free(msg);
		return bo_err_set(err, "cannot create a socket: %s",
				  strerror(errno));
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		struct stat st;
		int e = errno;

		if (e == EACCES || e == EPERM)
			bo_err_set(err, "not allowed to use the daemon's socket '%s': %s (it answers root and its own user only)",
				   path, strerror(e));
		else if (e == ECONNREFUSED && stat(path, &st) == 0 &&
			 !S_ISSOCK(st.st_mode))
			bo_err_set(err, "cannot connect to the daemon at '%s': it is not a socket",
				   path);
		else if (e == ECONNREFUSED)
			bo_err_set(err, "cannot connect to the daemon at '%s': nothing listens there (start it with 'benchorch daemon', or name its socket with --socket)",
				   path);
		else if (e == ENOENT)
			bo_err_set(err, "cannot connect to the daemon at '%s': no such socket (start it with 'benchorch daemon', or name its socket with --socket)",
				   path);
		else
			bo_err_set(err, "cannot connect to the daemon at '%s': %s",
				   path, strerror(errno));
		goto fail;
	}
	if (send(fd, msg, strlen(msg), MSG_NOSIGNAL) < 0) {
		bo_err_set(err, "cannot send to '%s': %s", path,
			   strerror(errno));
		goto fail;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	do
		rc = poll(&pfd, 1, CONTROL_TIMEOUT_MS);
	while (rc < 0 && errno == EINTR && !bo_interrupted);
	if (rc <= 0) {
		bo_err_set(err, "no reply from the daemon at '%s' within %d s",
			   path, CONTROL_TIMEOUT_MS / 1000);
		goto fail;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n <= 0 || (size_t)n > CONTROL_MAX_MSG) {
		bo_err_set(err, "bad reply from the daemon at '%s'", path);
		goto fail;
	}
	close(fd);
	free(msg);
	reply = json_loadb(buf, (size_t)n, 0, &jerr);
	if (!json_is_object(reply) ||
	    json_integer_value(json_object_get(reply, "version")) !=
	    CONTROL_VERSION ||
	    !json_is_boolean(json_object_get(reply, "ok"))) {
		json_decref(reply);
		return bo_err_set(err, "malformed reply from the daemon at '%s'",
				  path);
	}
	if (!json_is_true(json_object_get(reply, "ok"))) {
		v = json_object_get(reply, "error");
		bo_err_set(err, "%s", json_is_string(v) ?
			   json_string_value(v) : "the daemon refused");
		usage = json_is_true(json_object_get(reply, "usage"));
		json_decref(reply);
		return usage ? -3 : -2;
	}
	*ret = reply;
	return 0;
fail:
	close(fd);
	free(msg);
	return -1;
}

char *control_socket_path(const char *socket_opt, const char *config_opt,
			  const char *state_opt, bo_err *err)
{
	struct conf *c;
	char *s, *path;

	if (socket_opt)
		return xstrdup(socket_opt);
	/* the socket the daemon started with this configuration, this
	 * --state-dir and this environment listens on */
	if (config_opt || access(BENCHORCH_DEFAULT_CONFIG, F_OK) == 0) {
		if (conf_load(config_opt ? config_opt : BENCHORCH_DEFAULT_CONFIG,
			      &c, err) < 0)
			return NULL;
		if (conf_resolve_paths(c, state_opt, err) < 0) {
			conf_free(c);
			return NULL;
		}
		path = xstrdup(c->socket_path);
		conf_free(c);
		return path;
	}
	s = paths_state_dir(state_opt);
	path = xasprintf("%s/control.sock", s);
	free(s);
	return path;
}
