/* build.c - image_ensure(): find or build the image for a spec.
 *
 * Images live in STATE/images/<distro>-<release>/ with the root filesystem
 * in rootfs/, the description in image.json and the builder's output in
 * build.log. A build happens in STATE/images/.build-<name>-XXXXXX/, under
 * the lock STATE/images/.lock, and is renamed into place only when it is
 * complete, so a directory with an image.json is always a whole image. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "images/archive.h"
#include "images/digest.h"
#include "images/image.h"
#include "images/osrelease.h"
#include "images/recipe.h"
#include "images/previous.h"
#include "images/store.h"
#include "images/tarball.h"
#include "lib/spawn.h"

/* A bootstrap tool must finish within this time (ns). */
#define BUILD_TIMEOUT_NS (3600ull * 1000000000ull)
/* Bytes of a log scanned for the line that explains a failure. */
#define LOG_TAIL 65536

/* Everything one build needs. */
struct build {
	const struct image_ctx *ctx;
	const struct recipe *recipe;
	const struct recipe_release *rel;
	const char *display;	/* "debian:bookworm" */
	const char *name;	/* "debian-bookworm" */
	const char *images_dir;	/* STATE/images */
	const char *dir;	/* STATE/images/debian-bookworm */
	const char *method;	/* chosen method */
	const char *tool;	/* absolute path of its program */
	const char *mirror;	/* "" = tool default */
	const char *import_file;	/* image_import(): the tarball */
	struct tarball_result tb;	/* tarball method / import */
	char *tmp;		/* STATE/images/.build-NAME-XXXXXX */
	char *rootfs;		/* tmp/rootfs */
	char *log;		/* tmp/build.log */
	char *keyring;		/* bootstrap builds: the one keyring trusted
				 * (absolute path) */
	char *no_parts;		/* mmdebstrap: an empty directory given as
				 * apt's TrustedParts, tmp/apt-trusted.d */
};

/* Fill a NULL-terminated argv for the chosen tool; strings borrowed from
 * the build or newly allocated into *owned (freed by the caller). */
typedef int (*argv_fn)(const struct build *b, const char ***ret_argv,
		       char ***owned, size_t *nowned, bo_err *err);

struct method {
	const char *name;	/* as in recipes and image.json */
	const char *program;	/* looked up in PATH */
	const char *package;	/* the Debian package shipping it */
	argv_fn make_argv;
};

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

/* One plain progress line for a build step: "benchorch: MSG" on stderr, or
 * MSG to ctx->progress_sink when set; nothing unless ctx->progress. */
static void progress(const struct image_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct image_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->progress)
		return;
	if (ctx->progress_sink) {
		char line[1024];

		va_start(ap, fmt);
		vsnprintf(line, sizeof(line), fmt, ap);
		va_end(ap);
		ctx->progress_sink(ctx->progress_sink_ctx, line);
		return;
	}
	fputs("benchorch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static void on_images_lock_wait(void *vctx, const char *path)
{
	progress(vctx, "waiting for another benchorch to finish building "
		 "images (lock '%s')...", path);
}

/* Take the images lock (blocking, but giving up when interrupted). Returns
 * the locked fd, or -1 with err set. */
int images_lock(const struct image_ctx *ctx, const char *images_dir,
		bo_err *err)
{
	char *path = xasprintf("%s/.lock", images_dir);
	int fd = bo_lock_wait(path, on_images_lock_wait, (void *)ctx, err);

	free(path);
	return fd;
}

/* Remove what killed builds left behind: .build-* and .old-* directories.
 * Only called with the lock held, so none of them is in use. */
static void remove_leftovers(const struct image_ctx *ctx,
			     const char *images_dir)
{
	DIR *d = opendir(images_dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;
		bo_err e;

		if (strncmp(de->d_name, ".build-", 7) != 0 &&
		    strncmp(de->d_name, ".old-", 5) != 0)
			continue;
		p = xasprintf("%s/%s", images_dir, de->d_name);
		progress(ctx, "removing leftover '%s'", p);
		if (bo_rm_rf(p, &e) < 0)
			progress(ctx, "warning: %s", e.msg);
		free(p);
	}
	closedir(d);
}

/* Remove a build directory. Processes killed a moment ago may still be
 * finishing a system call in it, so retry briefly. */
static void remove_tree(const char *path)
{
	int i;

	for (i = 0; i < 20; i++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		bo_err e;

		if (bo_rm_rf(path, &e) == 0)
			return;
		nanosleep(&ts, NULL);
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
	int fd = open(path, O_RDONLY | O_CLOEXEC);

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

/* Append the tail of SRC (if it exists) to the open log fd. */
static void append_tail(int fd, const char *src, const char *title)
{
	char *buf;
	size_t len;
	bo_err e;

	if (bo_read_file(src, 16u << 20, &buf, &len, &e) < 0)
		return;
	if (dprintf(fd, "\n==== %s ====\n", title) > 0) {
		const char *p = len > LOG_TAIL ? buf + len - LOG_TAIL : buf;
		size_t n = len > LOG_TAIL ? LOG_TAIL : len;

		while (n > 0) {
			ssize_t w = write(fd, p, n);

			if (w <= 0)
				break;
			p += w;
			n -= (size_t)w;
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
	char *dlog = xasprintf("%s/debootstrap/debootstrap.log", b->rootfs);
	int fd = open(b->log, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd >= 0) {
		append_tail(fd, dlog, "debootstrap/debootstrap.log");
		close(fd);
	}
	free(dlog);
	if (rename(b->log, dst) < 0) {
		free(dst);
		return NULL;
	}
	return dst;
}

/* Run the tool into b->rootfs. Returns 0, or -1 with err set. */
static int run_tool(struct build *b, const struct method *m, bo_err *err)
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

/* Add LIBRARY -> PACKAGE to the image's owned libpkgs unless LIBRARY is
 * there already or PACKAGE is not installed. */
static void add_libpkg(struct image *img, const char *library,
		       const char *package)
{
	if (!image_package_version(img, package) ||
	    image_library_package(img, library))
		return;
	img->libpkgs = xrealloc(img->libpkgs, (img->nlibpkgs + 1) *
				sizeof(*img->libpkgs));
	img->libpkgs[img->nlibpkgs].library = xstrdup(library);
	img->libpkgs[img->nlibpkgs].package = xstrdup(package);
	img->nlibpkgs++;
}

/* For an imported image (no recipe of its own): the crypto library
 * packages any recipe under data_dir knows that are installed in img. */
static void guess_libpkgs(const char *data_dir, struct image *img)
{
	char *known = image_known_distros(data_dir), *tok, *save = NULL;

	for (tok = strtok_r(known, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		struct recipe *r;
		size_t i, j;
		bo_err e;

		if (recipe_load(data_dir, tok, &r, &e) < 0)
			continue;
		for (i = 0; i < r->nreleases; i++)
			for (j = 0; j < r->releases[i].nlibraries; j++)
				add_libpkg(img,
					   r->releases[i].libraries[j].library,
					   r->releases[i].libraries[j].package);
		recipe_free(r);
	}
	free(known);
}

/* "cannot build image 'x': " or "cannot import image 'x': " + msg. */
static int fail(const struct build *b, bo_err *err)
{
	char msg[sizeof(err->msg)];

	snprintf(msg, sizeof(msg), "%s", err->msg);
	return bo_err_set(err, "cannot %s image '%s': %s",
			  b->import_file ? "import" : "build", b->display, msg);
}

/* After a successful build: read packages, digest, write image.json in
 * the build directory. */
static int describe(struct build *b, double seconds, bo_err *err)
{
	struct image img;
	enum pkgdb_kind kind = PKGDB_NONE;
	char *json = xasprintf("%s/%s", b->tmp, IMAGE_JSON);
	char digest[DIGEST_STR_LEN], when[32];
	struct os_release osr = { 0 };
	size_t i;
	int rc = -1;

	memset(&img, 0, sizeof(img));
	if (image_read_packages(b->rootfs, &img.packages, &img.npackages,
				&kind, err) < 0) {
		fail(b, err);
		goto out;
	}
	if (img.npackages == 0 && b->rel && strcmp(b->method, "tarball")) {
		bo_err_set(err, "cannot build image '%s': no installed "
			   "packages in '%s/var/lib/dpkg/status'", b->display,
			   b->rootfs);
		goto out;
	}
	/* Only libraries whose package actually got installed. */
	if (b->rel) {
		for (i = 0; i < b->rel->nlibraries; i++)
			add_libpkg(&img, b->rel->libraries[i].library,
				   b->rel->libraries[i].package);
	} else {
		guess_libpkgs(b->ctx->data_dir, &img);
	}
	progress(b->ctx, "computing the digest of image '%s'...", b->display);
	if (digest_tree(b->rootfs, digest, sizeof(digest), err) < 0) {
		fail(b, err);
		goto out;
	}
	img.name = (char *)b->name;
	img.distro = b->recipe ? b->recipe->distro : (char *)b->name;
	img.release = b->rel ? b->rel->name : (char *)"imported";
	if (!b->rel) {
		/* an import: the release the rootfs says it is, from its
		 * os-release (codename, else version), when usable */
		if (os_release_read(b->rootfs, &osr) == 0) {
			if (os_release_token_ok(osr.version_codename))
				img.release = osr.version_codename;
			else if (os_release_token_ok(osr.version_id))
				img.release = osr.version_id;
		}
	}
	img.digest = digest;
	img.created_at = bo_utc_now(when, sizeof(when));
	img.method = (char *)b->method;
	img.source = b->tb.source;
	img.verification = b->tb.verification;
	img.pkgdb = (char *)pkgdb_kind_name(kind);
	rc = image_json_write(&img, b->mirror, seconds, json, err);
out:
	image_packages_free(img.packages, img.npackages);
	for (i = 0; i < img.nlibpkgs; i++) {
		free(img.libpkgs[i].library);
		free(img.libpkgs[i].package);
	}
	free(img.libpkgs);
	free(json);
	os_release_release(&osr);
	return rc;
}

/* The tarball method and imports: get (and verify) the tarball, unpack
 * it into b->rootfs, check its shape. */
static int unpack(struct build *b, bo_err *err)
{
	size_t n;

	if (b->import_file) {
		char *abs = realpath(b->import_file, NULL);

		if (!abs) {
			bo_err_set(err, "cannot read '%s': %s", b->import_file,
				   strerror(errno));
			return fail(b, err);
		}
		b->tb.file = xstrdup(b->import_file);
		b->tb.source = abs;
		b->tb.verification = xstrdup("none (imported local file)");
	} else if (tarball_obtain(b->ctx, b->recipe, b->rel, b->mirror, b->tmp,
				  &b->tb, err) < 0) {
		return fail(b, err);
	}
	if (mkdir(b->rootfs, 0755) < 0) {
		bo_err_set(err, "cannot create '%s': %s", b->rootfs,
			   strerror(errno));
		return fail(b, err);
	}
	progress(b->ctx, "unpacking '%s'...", b->tb.file);
	if (archive_unpack(b->tb.file, b->rootfs, &n, err) < 0)
		return fail(b, err);
	if (b->tb.downloaded)
		unlink(b->tb.file);
	if (rootfs_check_shape(b->rootfs, b->tb.source, err) < 0)
		return fail(b, err);
	return 0;
}

/* After a rebuild: keep the old image, moved away to OLD, as the
 * previous of B when its packages differ from the new one's, so that a
 * confirmation can measure both. Returns 1 when kept, 0 when OLD is still
 * there to be removed (same packages, or it could not be kept). */
static int keep_as_previous(const struct build *b, const char *old)
{
	struct image *was = NULL, *now = NULL;
	int kept = 0;
	bo_err e;

	if (image_load(old, &was, &e) == 0 && image_load(b->dir, &now, &e) == 0 &&
	    image_packages_differ(was, now)) {
		if (image_previous_keep(b->images_dir, b->name, old, &e) == 0)
			kept = 1;
		else
			progress(b->ctx, "warning: %s", e.msg);
	}
	image_free(was);
	image_free(now);
	return kept;
}

/* Move the finished build into place, replacing an old image (kept as
 * its previous when the packages changed). */
static int install(struct build *b, bo_err *err)
{
	struct stat st;
	char *old = NULL;
	int rc = 0;

	if (chmod(b->tmp, 0755) < 0)
		return bo_err_set(err, "cannot chmod '%s': %s", b->tmp,
				  strerror(errno));
	if (lstat(b->dir, &st) == 0) {
		old = xasprintf("%s/.old-%s-XXXXXX", b->images_dir, b->name);
		if (!mkdtemp(old) || rename(b->dir, old) < 0) {
			rc = bo_err_set(err, "cannot move the old image '%s' "
					"away: %s", b->dir, strerror(errno));
			rmdir(old);
			free(old);
			return rc;
		}
	}
	if (rename(b->tmp, b->dir) < 0) {
		rc = bo_err_set(err, "cannot rename '%s' to '%s': %s", b->tmp,
				b->dir, strerror(errno));
		if (old && rename(old, b->dir) < 0)
			rc = bo_err_set(err, "cannot rename '%s' to '%s' nor "
					"put the old image back from '%s': %s",
					b->tmp, b->dir, old, strerror(errno));
		free(old);
		return rc;
	}
	if (old) {
		bo_err e;

		if (keep_as_previous(b, old))
			progress(b->ctx, "kept the previous '%s' (its packages "
				 "differ) as '%s%s' until it is confirmed",
				 b->name, b->name, IMAGE_PREVIOUS_SUFFIX);
		else if (bo_rm_rf(old, &e) < 0)
			progress(b->ctx, "warning: %s", e.msg);
		free(old);
	}
	return 0;
}

/* Choose the first method of the recipe whose program is installed. */
static int choose_method(struct build *b, const struct method **ret,
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

/* Build the image described by b into b->dir. Lock held by the caller. */
static int build(struct build *b, bo_err *err)
{
	const struct method *m = NULL;
	char *tool = NULL, *failed_log;
	uint64_t t0;
	double secs;
	int rc = -1;

	if (b->import_file) {
		b->method = "import";
	} else {
		if (b->rel->suite[0] == '-' || b->mirror[0] == '-' ||
		    (b->rel->script && b->rel->script[0] == '-'))
			return bo_err_set(err, "cannot build image '%s': suite, "
					  "mirror and script must not start "
					  "with '-'", b->display);
		if (choose_method(b, &m, &tool, err) < 0)
			return -1;
		b->method = m->name;
		b->tool = tool;
	}
	b->tmp = xasprintf("%s/.build-%s-XXXXXX", b->images_dir, b->name);
	if (!mkdtemp(b->tmp)) {
		bo_err_set(err, "cannot create a directory in '%s': %s",
			   b->images_dir, strerror(errno));
		free(b->tmp);
		b->tmp = NULL;
		free(tool);
		return -1;
	}
	b->rootfs = xasprintf("%s/rootfs", b->tmp);
	b->log = xasprintf("%s/build.log", b->tmp);

	progress(b->ctx, "%s image '%s' with %s...", b->import_file ?
		 "importing" : "building", b->display, b->method);
	t0 = bo_now_ns();
	if (m && m->make_argv) {
		rc = run_tool(b, m, err);
		if (b->no_parts)
			rmdir(b->no_parts);
		rc = rc < 0 ? -1 : 0;
		if (rc < 0)
			goto out;
		rc = -1;
	} else if (unpack(b, err) < 0) {
		goto out;
	}
	secs = (double)(bo_now_ns() - t0) / 1e9;
	if (describe(b, secs, err) < 0)
		goto out;
	if (bo_interrupted) {
		bo_err_set(err, "cannot %s image '%s': interrupted",
			   b->import_file ? "import" : "build", b->display);
		goto out;
	}
	if (install(b, err) < 0)
		goto out;
	free(b->tmp);
	b->tmp = NULL;
	failed_log = xasprintf("%s/%s.failed.log", b->images_dir, b->name);
	unlink(failed_log);
	free(failed_log);
	progress(b->ctx, "%s image '%s' in %.1f s", b->import_file ?
		 "imported" : "built", b->display, secs);
	rc = 0;
out:
	if (b->tmp) {
		remove_tree(b->tmp);
		free(b->tmp);
		b->tmp = NULL;
	}
	tarball_result_free(&b->tb);
	free(b->rootfs);
	free(b->log);
	free(b->keyring);
	free(b->no_parts);
	b->rootfs = b->log = b->keyring = b->no_parts = NULL;
	free(tool);
	b->tool = NULL;
	return rc;
}

char *images_dir_abs(const char *state_dir, bo_err *err)
{
	char *cwd;
	char *out;

	if (state_dir[0] == '/')
		return xasprintf("%s/images", state_dir);
	/* Absolute, so image->dir and rootfs are too. */
	cwd = getcwd(NULL, 0);
	if (!cwd) {
		bo_err_set(err, "cannot get the current directory: %s",
			   strerror(errno));
		return NULL;
	}
	out = xasprintf("%s/%s/images", cwd, state_dir);
	free(cwd);
	return out;
}

int recipe_exists(const char *data_dir, const char *distro)
{
	char *p = xasprintf("%s/images/%s.json", data_dir, distro);
	int ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

static int has_image(const char *dir)
{
	char *p = xasprintf("%s/%s", dir, IMAGE_JSON);
	int ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

int image_ensure(const struct image_ctx *ctx, const char *spec,
		 struct image **ret, bo_err *err)
{
	struct recipe *r = NULL;
	const struct recipe_release *rel;
	char *distro = NULL, *release = NULL, *name = NULL, *display = NULL;
	char *images_dir = NULL, *dir = NULL;
	int lockfd = -1, rc = -1;

	*ret = NULL;
	if (image_spec_parse(spec, &distro, &release, err) < 0)
		return -1;
	images_dir = images_dir_abs(ctx->state_dir, err);
	if (!images_dir)
		goto out;
	if (!release && !recipe_exists(ctx->data_dir, distro)) {
		/* An imported image: runnable by its name, never built. */
		dir = xasprintf("%s/%s", images_dir, distro);
		if (has_image(dir)) {
			rc = image_load(dir, ret, err);
			goto out;
		}
		free(dir);
		dir = NULL;
	}
	if (recipe_load(ctx->data_dir, distro, &r, err) < 0)
		goto out;
	rel = recipe_release_find(r, release ? release : r->default_release);
	if (!rel) {
		char *known = recipe_release_names(r);

		bo_err_set(err, "unknown release '%s' of distro '%s' (known: "
			   "%s)", release, distro, known);
		free(known);
		goto out;
	}
	name = xasprintf("%s-%s", distro, rel->name);
	display = xasprintf("%s:%s", distro, rel->name);
	dir = xasprintf("%s/%s", images_dir, name);

	if (!ctx->refresh && has_image(dir)) {
		rc = image_load(dir, ret, err);
		goto out;
	}
	if (bo_mkdir_p(images_dir, err) < 0)
		goto out;
	lockfd = images_lock(ctx, images_dir, err);
	if (lockfd < 0)
		goto out;
	/* Another process may have built it while we waited. */
	if (!ctx->refresh && has_image(dir)) {
		rc = image_load(dir, ret, err);
		goto out;
	}
	remove_leftovers(ctx, images_dir);
	{
		struct build b;

		memset(&b, 0, sizeof(b));
		b.ctx = ctx;
		b.recipe = r;
		b.rel = rel;
		b.display = display;
		b.name = name;
		b.images_dir = images_dir;
		b.dir = dir;
		b.mirror = ctx->mirror ? ctx->mirror :
			rel->mirror ? rel->mirror : r->mirror;
		if (build(&b, err) < 0)
			goto out;
	}
	rc = image_load(dir, ret, err);
out:
	if (lockfd >= 0)
		close(lockfd);	/* releases the lock */
	recipe_free(r);
	free(distro);
	free(release);
	free(name);
	free(display);
	free(images_dir);
	free(dir);
	return rc;
}

int image_import_name_check(const char *data_dir, const char *name,
			    bo_err *err)
{
	bo_err e;

	if (image_name_check(name, &e) < 0)
		return bo_err_set(err, "invalid image name '%s': it %s", name,
				  e.msg);
	if (recipe_exists(data_dir, name))
		return bo_err_set(err, "image name '%s' is a distro with a "
				  "recipe: choose another name", name);
	if (image_name_is_previous(name))
		return bo_err_set(err, "image name '%s' ends in '%s', which "
				  "names the previous image a rebuild keeps: "
				  "choose another name", name,
				  IMAGE_PREVIOUS_SUFFIX);
	return 0;
}

int image_import(const struct image_ctx *ctx, const char *name,
		 const char *file, struct image **ret, bo_err *err)
{
	char *images_dir = NULL, *dir = NULL;
	int lockfd = -1, rc = -1;

	*ret = NULL;
	if (image_import_name_check(ctx->data_dir, name, err) < 0)
		return -1;
	if (access(file, R_OK) < 0)
		return bo_err_set(err, "cannot read '%s': %s", file,
				  strerror(errno));
	images_dir = images_dir_abs(ctx->state_dir, err);
	if (!images_dir)
		return -1;
	dir = xasprintf("%s/%s", images_dir, name);
	if (bo_mkdir_p(images_dir, err) < 0)
		goto out;
	lockfd = images_lock(ctx, images_dir, err);
	if (lockfd < 0)
		goto out;
	if (!ctx->refresh && has_image(dir)) {
		bo_err_set(err, "image '%s' exists (--refresh replaces it)",
			   name);
		goto out;
	}
	remove_leftovers(ctx, images_dir);
	{
		struct build b;

		memset(&b, 0, sizeof(b));
		b.ctx = ctx;
		b.display = name;
		b.name = name;
		b.images_dir = images_dir;
		b.dir = dir;
		b.mirror = "";
		b.import_file = file;
		if (build(&b, err) < 0)
			goto out;
	}
	rc = image_load(dir, ret, err);
out:
	if (lockfd >= 0)
		close(lockfd);
	free(images_dir);
	free(dir);
	return rc;
}
