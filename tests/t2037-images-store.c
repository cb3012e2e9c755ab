/* t2037-images-store - the image store is closed to other users: built
 * with the stand-in bootstrap tool (tests/fixtures/images-fakebin; root,
 * the builder gets a private mount namespace), STATE/images and each image
 * directory are 0700; a store left open (as older versions made it) is
 * tightened when it is next used; a store of another user, or a symlink in
 * its place, is refused. A failed build's debootstrap.log is read inside
 * the rootfs: one that is a symlink to a host file copies nothing of it
 * into the kept log. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/image.h"
#include "tests/tap.h"

#define OTHER_UID 65534

static char *state;

static mode_t mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? st.st_mode & 07777 : 0;
}

/* Write TEXT into STATE/NAME. */
static void put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", state, name);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

/* The failed build's kept log, after building with fake mode MODE. */
static char *failed_log_after(struct image_ctx *ctx, const char *mode)
{
	char *log = xasprintf("%s/images/debian-trixie.failed.log", state);
	struct image *img = NULL;
	char *text = NULL;
	bo_err err;

	put("fake-mode", mode);
	unlink(log);
	if (image_ensure(ctx, "debian:trixie", &img, &err) == 0)
		tap_diag("the build of mode %s did not fail", mode);
	image_free(img);
	if (bo_read_file(log, 1 << 20, &text, NULL, &err) < 0)
		text = xstrdup("");
	free(log);
	return text;
}

int main(void)
{
	const char *src = tap_srcdir();
	char tmpl[] = "/tmp/t2037-images-XXXXXX";
	char *fakebin, *images, *idir, *path_saved, *link, *text;
	struct image_ctx ctx = { 0 };
	struct image *img = NULL;
	bo_err err;
	int rc;

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (private mount namespace)\n");
		return 0;
	}
	state = mkdtemp(tmpl);
	if (!state) {
		tap_ok(0, "mkdtemp");
		return tap_done();
	}
	fakebin = xasprintf("%s/tests/fixtures/images-fakebin", src);
	images = xasprintf("%s/images", state);
	idir = xasprintf("%s/debian-trixie", images);
	link = xasprintf("%s/debian-old", images);
	path_saved = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", fakebin, 1);
	ctx.state_dir = state;
	ctx.data_dir = src;

	/* 1. A new store and a new image: closed. */
	put("fake-mode", "ok");
	rc = image_ensure(&ctx, "debian:trixie", &img, &err);
	tap_ok(rc == 0, "fake build succeeds%s%s", rc ? ": " : "",
	       rc ? err.msg : "");
	image_free(img);
	img = NULL;
	tap_ok(mode_of(images) == 0700, "STATE/images is created 0700 (%o)",
	       mode_of(images));
	tap_ok(mode_of(idir) == 0700, "the image directory is 0700 (%o)",
	       mode_of(idir));

	/* 2. A store left open is tightened when it is used again. */
	chmod(images, 0755);
	chmod(idir, 0755);
	mkdir(link, 0755);
	rc = image_ensure(&ctx, "debian:trixie", &img, &err);
	image_free(img);
	img = NULL;
	tap_ok(rc == 0 && mode_of(images) == 0700 && mode_of(idir) == 0700 &&
	       mode_of(link) == 0700,
	       "an open store and its directories are tightened to 0700 "
	       "(%o, %o, %o)", mode_of(images), mode_of(idir), mode_of(link));
	rmdir(link);

	/* 3. Another user's store, or a symlink in its place: refused. */
	if (chown(images, OTHER_UID, OTHER_UID) < 0)
		tap_diag("chown: %s", strerror(errno));
	rc = image_ensure(&ctx, "debian:trixie", &img, &err);
	tap_ok(rc < 0 && tap_contains(err.msg, images) &&
	       tap_contains(err.msg, "uid 65534"),
	       "a store of another user is refused, named: %s",
	       rc < 0 ? err.msg : "(used)");
	image_free(img);
	img = NULL;
	if (chown(images, 0, 0) < 0)
		tap_diag("chown: %s", strerror(errno));
	{
		char *real = xasprintf("%s/real-images", state);

		rename(images, real);
		symlink(real, images);
		rc = image_ensure(&ctx, "debian:trixie", &img, &err);
		tap_ok(rc < 0 && tap_contains(err.msg, images) &&
		       tap_contains(err.msg, "symbolic link"),
		       "a symlink in the store's place is refused: %s",
		       rc < 0 ? err.msg : "(used)");
		image_free(img);
		img = NULL;
		unlink(images);
		rename(real, images);
		free(real);
	}

	/* 4. The debootstrap.log of a failed build, read in the rootfs. */
	ctx.refresh = 1;
	text = failed_log_after(&ctx, "faillog");
	tap_ok(tap_contains(text, "==== debootstrap/debootstrap.log ====") &&
	       tap_contains(text, "the log inside the image"),
	       "a failed build's debootstrap.log is appended to its log");
	free(text);
	put("host-file", "a secret of the host\n");
	text = failed_log_after(&ctx, "faillink");
	tap_ok(tap_contains(text, "Couldn't install the base system") &&
	       !tap_contains(text, "a secret of the host"),
	       "a debootstrap.log that is a symlink to a host file copies "
	       "nothing of it");
	free(text);

	setenv("PATH", path_saved, 1);
	if (bo_rm_rf(state, &err) < 0)
		tap_diag("%s", err.msg);
	free(fakebin);
	free(images);
	free(idir);
	free(link);
	free(path_saved);
	return tap_done();
}
