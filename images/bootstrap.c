/* images/bootstrap.c - the bootstrap tools that fill an image's root
 * filesystem (debootstrap, mmdebstrap): their command lines from the
 * recipe, the keyring they trust, finding and running them (see
 * build.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/archive.h"
#include "images/build.h"
#include "lib/spawn.h"

/* A bootstrap tool must finish within this time (ns). */
#define BUILD_TIMEOUT_NS (3600ull * 1000000000ull)
/* Bytes of a log scanned for the line that explains a failure. */
#define LOG_TAIL 65536

/* Growing argv. */
struct args {
	const char **v;
	size_t n, cap;
	char **owned;
	size_t nowned;
};

static void args_add(struct args *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void args_add_owned(struct args *a, char *s)
{
	a->owned = xrealloc(a->owned, (a->nowned + 1) * sizeof(char *));
	a->owned[a->nowned++] = s;
	args_add(a, s);
}

/* "a,b,c" from an array of strings; NULL when empty. */
static char *join_commas(char *const *v, size_t n)
{
	size_t i, len = 1;
	char *s;

	if (n == 0)
		return NULL;
	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, v[i]);
	}
	return s;
}

/* Extra command-line options the recipe gives for this method:
 * "options": { "<method>": ["--opt", ...] }. */
static int add_recipe_options(const struct build *b, struct args *a,
			      bo_err *err)
{
	json_t *opts = json_object_get(b->recipe->json, "options"), *list;
	size_t i;

	if (!opts)
		return 0;
	if (!json_is_object(opts))
		return bo_err_set(err, "invalid recipe '%s': 'options' must be "
				  "an object", b->recipe->path);
	list = json_object_get(opts, b->method);
	if (!list)
		return 0;
	if (!json_is_array(list))
		goto bad;
	for (i = 0; i < json_array_size(list); i++) {
		json_t *s = json_array_get(list, i);

		if (!json_is_string(s) || json_string_value(s)[0] != '-')
			goto bad;
		/* the keyring is added by bootstrap_common (the user's
		 * --keyring, else this one: bound_keyring) */
		if (strncmp(json_string_value(s), "--keyring=", 10) == 0)
			continue;
		args_add(a, json_string_value(s));
	}
	return 0;
bad:
	return bo_err_set(err, "invalid recipe '%s': 'options.%s' must be an "
			  "array of options starting with '-'",
			  b->recipe->path, b->method);
}

/* The keyring a bootstrap build trusts: what is in it (gpg). */
static char *find_program(const char *program);

#define GPG_TIMEOUT_NS (60ull * 1000000000ull)

struct fpr_ctx {
	char *list;		/* "A, B" so far, or NULL */
	int after_pub;		/* in a primary key's records, before its
				 * fingerprint */
};

/* gpg --with-colons: a "pub" record, then (after "rvk" records, if any)
 * its "fpr" record, field 10 the fingerprint; subkeys ("sub") have theirs
 * too, which are skipped. */
static int fpr_on_line(void *vctx, const char *line, size_t len, int truncated)
{
	struct fpr_ctx *c = vctx;
	const char *p = line;
	int field;

	(void)len;
	if (truncated)
		return 0;
	if (strncmp(line, "pub:", 4) == 0) {
		c->after_pub = 1;
		return 0;
	}
	if (strncmp(line, "sub:", 4) == 0 || strncmp(line, "ssb:", 4) == 0)
		c->after_pub = 0;
	if (strncmp(line, "fpr:", 4) != 0 || !c->after_pub)
		return 0;
	c->after_pub = 0;
	for (field = 1; field < 10 && p; field++) {
		p = strchr(p, ':');
		if (p)
			p++;
	}
	if (p && *p && *p != ':') {
		size_t n = strcspn(p, ":");
		char *s = c->list ? xasprintf("%s, %.*s", c->list, (int)n, p) :
			  xasprintf("%.*s", (int)n, p);

		free(c->list);
		c->list = s;
	}
	return 0;
}

/* The fingerprints of the primary keys in the OpenPGP keyring FILE
 * (binary or ASCII-armoured), uppercase hex as gpg prints them, read with
 * `gpg --show-keys --with-colons` in a throwaway home directory under
 * TMPDIR (removed again). On success returns 0 and a newly allocated
 * "FPR1, FPR2, ..." in *ret (caller frees). Returns -1 with err set when
 * gpg cannot be run or fails, or when FILE holds no key (fail closed: an
 * empty keyring trusts nothing). */
static int keyring_fingerprints(const char *file, const char *tmpdir,
				char **ret, bo_err *err)
{
	char *home = xasprintf("%s/gnupg-XXXXXX", tmpdir), **env;
	char *gpg = find_program("gpg");
	const char *argv[] = { gpg ? gpg : "/usr/bin/gpg", "--batch", "--quiet", "--no-options",
		"--no-default-keyring", "--homedir", home, "--with-colons",
		"--show-keys", file, NULL };
	struct fpr_ctx c = { 0 };
	struct spawn_opts o;
	struct spawn_result res;
	int rc;

	if (!mkdtemp(home)) {
		rc = bo_err_set(err, "cannot create '%s': %s", home,
				strerror(errno));
		free(home);
		free(gpg);
		return rc;
	}
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_ns = GPG_TIMEOUT_NS;
	o.cpu = -1;
	o.on_line = fpr_on_line;
	o.line_ctx = &c;
	o.log_fd = -1;
	env = spawn_env_builder();
	o.envp = (const char *const *)env;
	rc = spawn_run(&o, &res, err);
	spawn_env_free(env);
	free(gpg);
	{
		/* gpg leaves a few files in its home: remove them */
		char *cmd[] = { "pubring.kbx", "pubring.kbx~", "trustdb.gpg",
				"public-keys.d", NULL };
		for (size_t i = 0; cmd[i]; i++) {
			char *p = xasprintf("%s/%s", home, cmd[i]);

			if (unlink(p) < 0)
				rmdir(p);
			free(p);
		}
		rmdir(home);
	}
	free(home);
	if (rc < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		free(c.list);
		return bo_err_set(err, "cannot read keyring '%s': %s", file,
				  msg);
	}
	if (res.status != SPAWN_EXITED || res.exit_code != 0) {
		free(c.list);
		return bo_err_set(err, "cannot read keyring '%s': gpg "
				  "--show-keys failed", file);
	}
	if (!c.list)
		return bo_err_set(err, "keyring '%s' holds no OpenPGP key",
				  file);
	*ret = c.list;
	return 0;
}

/* The keyring the recipe names for this method (its first
 * "--keyring=FILE" option), or NULL. Borrowed from the recipe. */
static const char *recipe_keyring(const struct build *b)
{
	json_t *opts = json_object_get(b->recipe->json, "options"), *list;
	size_t i;

	list = opts ? json_object_get(opts, b->method) : NULL;
	for (i = 0; list && json_is_array(list) && i < json_array_size(list);
	     i++) {
		const char *s = json_string_value(json_array_get(list, i));

		if (s && strncmp(s, "--keyring=", 10) == 0)
			return s + 10;
	}
	return NULL;
}

/* Bind a bootstrap build to one keyring: the user's (images build
 * --keyring FILE), else the recipe's. Fails closed: no keyring, an
 * unreadable one or one without keys is an error, never a build that
 * trusts whatever the host has. Sets b->keyring, b->no_parts (mmdebstrap)
 * and b->tb.verification (stored with the image: the keyring and its
 * keys' fingerprints). Returns 0, or -1 with err set. */
static int bound_keyring(struct build *b, bo_err *err)
{
	const char *want = b->ctx->keyring ? b->ctx->keyring : recipe_keyring(b);
	char *fprs = NULL;

	if (!want)
		return bo_err_set(err, "cannot build image '%s': recipe '%s' "
				  "names no keyring for %s; give one with "
				  "'images build --keyring FILE'", b->display,
				  b->recipe->path, b->method);
	b->keyring = realpath(want, NULL);
	if (!b->keyring || access(b->keyring, R_OK) < 0)
		return bo_err_set(err, "cannot read keyring '%s': %s", want,
				  strerror(errno));
	if (keyring_fingerprints(b->keyring, b->tmp, &fprs, err) < 0)
		return -1;
	free(b->tb.verification);
	b->tb.verification = xasprintf("archive signatures, keyring '%s' "
				       "alone (OpenPGP keys %s)", b->keyring,
				       fprs);
	free(fprs);
	if (strcmp(b->method, "mmdebstrap") == 0) {
		b->no_parts = xasprintf("%s/apt-trusted.d", b->tmp);
		if (mkdir(b->no_parts, 0755) < 0)
			return bo_err_set(err, "cannot create '%s': %s",
					  b->no_parts, strerror(errno));
	}
	return 0;
}

/* Common part of debootstrap and mmdebstrap command lines. */
static int bootstrap_common(const struct build *b, struct args *a,
			    bo_err *err)
{
	const struct recipe *r = b->recipe;
	char *s;

	args_add(a, b->tool);
	if (r->variant)
		args_add_owned(a, xasprintf("--variant=%s", r->variant));
	s = join_commas(b->rel->packages, b->rel->npackages);
	if (s) {
		args_add_owned(a, xasprintf("--include=%s", s));
		free(s);
	}
	s = join_commas(r->components, r->ncomponents);
	if (s) {
		args_add_owned(a, xasprintf("--components=%s", s));
		free(s);
	}
	/* the one keyring trusted (bound_keyring): debootstrap checks the
	 * Release signature with gpgv against it alone; mmdebstrap's apt
	 * would also trust the host's /etc/apt/trusted.gpg.d and add a
	 * signed-by for the distribution's own keyring when it finds one,
	 * so it gets an empty directory as its TrustedParts and no such
	 * check */
	args_add_owned(a, xasprintf("--keyring=%s", b->keyring));
	if (b->no_parts) {
		args_add_owned(a, xasprintf("--keyring=%s", b->no_parts));
		args_add(a, "--skip=check/signed-by");
	}
	return add_recipe_options(b, a, err);
}

static int debootstrap_argv(const struct build *b, const char ***ret_argv,
			    char ***owned, size_t *nowned, bo_err *err)
{
	struct args a = { 0 };

	if (bootstrap_common(b, &a, err) < 0)
		goto fail;
	if (b->rel->script && !*b->mirror) {
		bo_err_set(err, "invalid recipe '%s': release '%s' names a "
			   "debootstrap script but no mirror",
			   b->recipe->path, b->rel->name);
		goto fail;
	}
	/* debootstrap takes no "--": the positional arguments are checked
	 * not to start with '-' (build()). */
	args_add(&a, b->rel->suite);
	args_add(&a, b->rootfs);
	if (*b->mirror)
		args_add(&a, b->mirror);
	if (b->rel->script)
		args_add(&a, b->rel->script);
	*ret_argv = a.v;
	*owned = a.owned;
	*nowned = a.nowned;
	return 0;
fail:
	free(a.v);
	while (a.nowned)
		free(a.owned[--a.nowned]);
	free(a.owned);
	return -1;
}

static int mmdebstrap_argv(const struct build *b, const char ***ret_argv,
			   char ***owned, size_t *nowned, bo_err *err)
{
	struct args a = { 0 };

	if (bootstrap_common(b, &a, err) < 0) {
		free(a.v);
		while (a.nowned)
			free(a.owned[--a.nowned]);
		free(a.owned);
		return -1;
	}
	/* only an archived release's Release files may have expired; for
	 * any other, apt's check stays on (debootstrap has none) */
	if (b->rel->archived)
		args_add(&a, "--aptopt=Acquire::Check-Valid-Until \"false\"");
	args_add(&a, "--");
	args_add(&a, b->rel->suite);
	args_add(&a, b->rootfs);
	if (*b->mirror)
		args_add(&a, b->mirror);
	*ret_argv = a.v;
	*owned = a.owned;
	*nowned = a.nowned;
	return 0;
}

/* The ways to build an image. A new method (a tarball import, another
 * bootstrapper) is one more entry here and a recipe that names it. */
static const struct method methods[] = {
	{ "mmdebstrap", "mmdebstrap", "mmdebstrap", mmdebstrap_argv },
	{ "debootstrap", "debootstrap", "debootstrap", debootstrap_argv },
	/* A verified tarball unpacked with libarchive (tarball.c); curl is
	 * only needed to download, not with --from. */
	{ "tarball", NULL, "curl", NULL },
};

static const struct method *method_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	return NULL;
}

/* Absolute path of PROGRAM found in $PATH (or the usual system path when
 * PATH is unset), or NULL. Caller frees. */
static char *find_program(const char *program)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (!path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
			"/sbin:/bin";
	for (p = path; ; p = end + 1) {
		struct stat st;
		char *cand;
		size_t len;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		len = (size_t)(end - p);
		if (len > 0 && p[0] == '/') {
			cand = xasprintf("%.*s/%s", (int)len, p, program);
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(cand, X_OK) == 0)
				return cand;
			free(cand);
		}
		if (*end == '\0')
			return NULL;
	}
}

/* The line of a failed tool's log that best explains the failure: the
 * first "E: " line (mmdebstrap follows the cause with generic "E: ... failed"
 * lines), else the first "W: Failure" line (debootstrap's failed second
 * stage), else the last non-empty line. Newly allocated, or NULL. */
static char *log_reason(const char *path)
{
	char *buf, *line, *best_e = NULL, *best_w = NULL, *last = NULL, *out;
	struct stat st;
	ssize_t n;
	off_t off = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > LOG_TAIL)
		off = st.st_size - LOG_TAIL;
	buf = xmalloc(LOG_TAIL + 1);
	n = pread(fd, buf, LOG_TAIL, off);
	close(fd);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	for (line = buf; line && *line; ) {
		char *nl = strchr(line, '\n'), *e;

		if (nl)
			*nl = '\0';
		e = line + strlen(line);
		while (e > line && (e[-1] == '\r' || e[-1] == ' ' ||
				    e[-1] == '\t'))
			*--e = '\0';
		if (*line) {
			last = line;
			if (strncmp(line, "E: ", 3) == 0 && !best_e)
				best_e = line;
			else if (strncmp(line, "W: Failure", 10) == 0 &&
				 !best_w)
				best_w = line;
		}
		line = nl ? nl + 1 : NULL;
	}
	out = best_e ? best_e : best_w ? best_w : last;
	out = out ? xstrdup(out) : NULL;
	free(buf);
	if (out && strlen(out) > 400)
		strcpy(out + 397, "...");
	return out;
}

/* Append the last LOG_TAIL bytes of RELPATH inside ROOTFS (if it is there
 * and a regular file) to the open log fd, under a title. The file is
 * opened with rootfs_open(), every symlink resolved inside ROOTFS: a log
 * the tool left as a link to a host file copies nothing of the host. */
static void append_tail(int fd, const char *rootfs, const char *relpath)
{
	struct stat st;
	char *buf;
	ssize_t n;
	off_t off = 0;
	int in = rootfs_open(rootfs, relpath, O_NONBLOCK);

	if (in < 0)
		return;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(in);
		return;
	}
	if (st.st_size > LOG_TAIL)
		off = st.st_size - LOG_TAIL;
	buf = xmalloc(LOG_TAIL);
	n = pread(in, buf, LOG_TAIL, off);
	close(in);
	if (n > 0 && dprintf(fd, "\n==== %s ====\n", relpath) > 0) {
		const char *p = buf;
		size_t left = (size_t)n;

		while (left > 0) {
			ssize_t w = write(fd, p, left);

			if (w <= 0)
				break;
			p += w;
			left -= (size_t)w;
		}
	}
	free(buf);
}

/* In the builder child, before exec: a sane umask for the files it makes. */
static int child_setup(void *ctx, bo_err *err)
{
	(void)ctx;
	(void)err;
	umask(022);
	return 0;
}

/* Keep the log of a failed build as STATE/images/NAME.failed.log (the
 * build directory itself is removed). Returns the new path or NULL. */
static char *keep_failed_log(const struct build *b)
{
	char *dst = xasprintf("%s/%s.failed.log", b->images_dir, b->name);
	int fd = open(b->log, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0) {
		append_tail(fd, b->rootfs, "debootstrap/debootstrap.log");
		close(fd);
	}
	if (rename(b->log, dst) < 0) {
		free(dst);
		return NULL;
	}
	return dst;
}

int bootstrap_run_tool(struct build *b, const struct method *m, bo_err *err)
{
	struct spawn_opts o;
	struct spawn_result res;
	const char **argv = NULL;
	char **owned = NULL, **env;
	size_t nowned = 0;
	char how[128];
	int logfd, rc;

	if (bound_keyring(b, err) < 0 ||
	    m->make_argv(b, &argv, &owned, &nowned, err) < 0)
		return -1;
	logfd = open(b->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		     O_NOFOLLOW, 0644);
	if (logfd < 0) {
		rc = bo_err_set(err, "cannot create '%s': %s", b->log,
				strerror(errno));
		goto out;
	}
	{
		size_t i;

		dprintf(logfd, "+");
		for (i = 0; argv[i]; i++)
			dprintf(logfd, " %s", argv[i]);
		dprintf(logfd, "\n");
	}
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout_ns = BUILD_TIMEOUT_NS;
	o.new_mount_ns = 1;	/* whatever the tool mounts dies with it */
	o.cpu = -1;
	o.setup = child_setup;
	o.log_fd = logfd;
	env = spawn_env_builder();	/* no APT_CONFIG, LD_*, ... */
	o.envp = (const char *const *)env;
	rc = spawn_run(&o, &res, err);
	spawn_env_free(env);
	close(logfd);
	if (rc < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		rc = bo_err_set(err, "cannot build image '%s': %s", b->display,
				msg);
		goto out;
	}
	if (res.status == SPAWN_INTERRUPTED) {
		rc = bo_err_set(err, "cannot build image '%s': interrupted",
				b->display);
		goto out;
	}
	if (res.status != SPAWN_EXITED || res.exit_code != 0) {
		char *reason = log_reason(b->log);
		char *kept;

		spawn_describe(&res, &o, how, sizeof(how));
		kept = keep_failed_log(b);
		rc = bo_err_set(err, "cannot build image '%s': %s %s%s%s%s%s%s",
				b->display, m->name, how,
				reason ? ": " : "", reason ? reason : "",
				kept ? " (log: " : "", kept ? kept : "",
				kept ? ")" : "");
		free(reason);
		free(kept);
		goto out;
	}
	rc = 0;
out:
	free(argv);
	while (nowned)
		free(owned[--nowned]);
	free(owned);
	return rc;
}

int bootstrap_choose_method(struct build *b, const struct method **ret,
			    char **ret_tool, bo_err *err)
{
	const struct method *last = NULL;
	size_t i;

	for (i = 0; i < b->recipe->nmethods; i++) {
		const struct method *m = method_find(b->recipe->methods[i]);
		char *tool;

		if (!m)
			return bo_err_set(err, "invalid recipe '%s': unknown "
					  "method '%s'", b->recipe->path,
					  b->recipe->methods[i]);
		last = m;
		if (!m->program) {	/* built in */
			*ret = m;
			*ret_tool = NULL;
			return 0;
		}
		tool = find_program(m->program);
		if (tool) {
			*ret = m;
			*ret_tool = tool;
			return 0;
		}
	}
	if (!last)
		return bo_err_set(err, "invalid recipe '%s': no method",
				  b->recipe->path);
	return bo_err_set(err, "%s not found: install the %s package",
			  last->program, last->package);
}

