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
#include "images/build.h"
#include "images/digest.h"
#include "images/image.h"
#include "images/osrelease.h"
#include "images/recipe.h"
#include "images/previous.h"
#include "images/store.h"
#include "images/tarball.h"
#include "lib/spawn.h"

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
		if (tarball_import_local(b->import_file, &b->tb, err) < 0)
			return fail(b, err);
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
	/* The descriptor that was verified, not the path again. */
	if (archive_unpack_fd(b->tb.fd, b->tb.file, b->rootfs, &n, err) < 0)
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

	/* the image directory stays closed to other users (so does the
	 * store around it: images_store_ready) */
	if (chmod(b->tmp, 0700) < 0)
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
		if (bootstrap_choose_method(b, &m, &tool, err) < 0)
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
		rc = bootstrap_run_tool(b, m, err);
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
	if (!images_dir || images_store_ready(images_dir, 0, err) < 0)
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
	if (images_store_ready(images_dir, 1, err) < 0)
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
	if (images_store_ready(images_dir, 1, err) < 0)
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
