/* t2161-images-builds - the store of rebuilt libraries (images/builds.h)
 * on a temporary state directory: a recipe written and loaded back
 * field for field, malformed recipes refused; builds listed sorted, of
 * one image or all, skipping what is not a build; one build, then an
 * image's builds removed; the directories of builds under way named
 * after their process, and those whose process is gone removed while a
 * live one's are kept. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "images/builds.h"
#include "tests/tap.h"

static char *state;

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Write TEXT to STATE/REL. */
static void put(const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", state, rel);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

/* mkdir -p STATE/REL. */
static void mk(const char *rel)
{
	char *p = xasprintf("%s/%s", state, rel);
	bo_err err;

	if (bo_mkdir_p(p, &err) < 0)
		tap_diag("%s", err.msg);
	free(p);
}

/* A build of IMAGE named NAME, its recipe written into
 * STATE/builds/IMAGE/NAME. Returns 0 or -1 (err.msg in a diagnostic). */
static int make_build(const char *image, const char *name, const char *lib)
{
	char *files[] = { "libsodium.so.23", "libsodium.so.23.3.0" };
	struct build_info bi = {
		.image = (char *)image, .name = (char *)name,
		.library = (char *)lib, .package = "libsodium23",
		.source = "libsodium", .version = "1.0.18-1+deb12u1",
		.cc = "gcc", .cc_version = "gcc (Debian 12.2.0-14) 12.2.0",
		.cc_package_version = "4:12.2.0-3", .flags = "-O3",
		.cflags = "-g -O2 -O3", .created_at = "2026-12-07T10:00:00Z",
		.build_seconds = 151.25, .digest = "sha256:00ff",
		.nfiles = 2, .files = files,
	};
	char *dir = xasprintf("%s/builds/%s/%s", state, image, name);
	char *path = xasprintf("%s/%s", dir, BUILD_JSON);
	bo_err err;
	int rc;

	rc = bo_mkdir_p(dir, &err) < 0 ? -1 : build_json_write(&bi, path, &err);
	if (rc < 0)
		tap_diag("%s", err.msg);
	free(path);
	free(dir);
	return rc;
}

static void test_names(void)
{
	char *abs, *cwd = getcwd(NULL, 0), *want;
	bo_err err;

	abs = builds_dir_abs("/x/state", &err);
	tap_ok(abs && strcmp(abs, "/x/state/builds") == 0,
	       "builds_dir_abs of an absolute state directory (%s)",
	       abs ? abs : err.msg);
	free(abs);
	abs = builds_dir_abs("rel", &err);
	want = xasprintf("%s/rel/builds", cwd);
	tap_ok(abs && strcmp(abs, want) == 0,
	       "builds_dir_abs of a relative one starts at the current "
	       "directory");
	free(abs);
	free(want);
	free(cwd);
	tap_ok(build_name_check("o3-clang.16", &err) == 0,
	       "build_name_check: o3-clang.16 is a name");
	tap_ok(build_name_check("../x", &err) < 0 &&
	       tap_contains(err.msg, "invalid build name '../x'"),
	       "build_name_check: ../x is not (%s)", err.msg);
	tap_ok(build_name_check(".hidden", &err) < 0 &&
	       build_name_check("", &err) < 0,
	       "build_name_check: nor a name starting with '.' or empty");
}

static void test_recipe(void)
{
	char *dir = xasprintf("%s/builds/deb/o3", state);
	struct build_info *bi = NULL;
	bo_err err;
	int rc;

	tap_ok(make_build("deb", "o3", "libsodium") == 0,
	       "build_json_write writes a recipe");
	rc = build_load(dir, &bi, &err);
	tap_ok(rc == 0, "build_load reads it back (%s)",
	       rc ? err.msg : "ok");
	if (rc == 0) {
		tap_ok(!strcmp(bi->image, "deb") && !strcmp(bi->name, "o3") &&
		       !strcmp(bi->library, "libsodium") &&
		       !strcmp(bi->package, "libsodium23") &&
		       !strcmp(bi->source, "libsodium") &&
		       !strcmp(bi->version, "1.0.18-1+deb12u1") &&
		       !strcmp(bi->cc, "gcc") &&
		       !strcmp(bi->cc_version, "gcc (Debian 12.2.0-14) 12.2.0") &&
		       !strcmp(bi->cc_package_version, "4:12.2.0-3") &&
		       !strcmp(bi->flags, "-O3") &&
		       !strcmp(bi->cflags, "-g -O2 -O3") &&
		       !strcmp(bi->created_at, "2026-12-07T10:00:00Z") &&
		       !strcmp(bi->digest, "sha256:00ff") &&
		       bi->build_seconds == 151.25,
		       "every field as written");
		tap_ok(bi->nfiles == 2 &&
		       !strcmp(bi->files[0], "libsodium.so.23") &&
		       !strcmp(bi->files[1], "libsodium.so.23.3.0") &&
		       !strcmp(bi->dir, dir),
		       "the files in order, and the directory it was read "
		       "from");
	} else {
		tap_skip(2, "no recipe");
	}
	build_info_free(bi);
	build_info_free(NULL);

	put("builds/deb/o3/" BUILD_JSON, "[1, 2]\n");
	tap_ok(build_load(dir, &bi, &err) < 0 && bi == NULL &&
	       tap_contains(err.msg, "invalid build recipe") &&
	       tap_contains(err.msg, "not a JSON object"),
	       "a recipe that is not an object is refused (%s)", err.msg);
	put("builds/deb/o3/" BUILD_JSON, "{\"image\": \"deb\"");
	tap_ok(build_load(dir, &bi, &err) < 0 && bi == NULL &&
	       tap_contains(err.msg, "invalid build recipe"),
	       "a truncated recipe is refused (%s)", err.msg);
	put("builds/deb/o3/" BUILD_JSON,
	    "{\"image\": \"deb\", \"name\": \"o3\"}\n");
	tap_ok(build_load(dir, &bi, &err) < 0 && bi == NULL &&
	       tap_contains(err.msg, "a field is missing"),
	       "a recipe with fields missing is refused (%s)", err.msg);
	make_build("deb", "o3", "libsodium");
	{
		char *p = xasprintf("%s/%s", dir, BUILD_JSON);
		json_t *root = json_load_file(p, 0, NULL);

		json_object_set_new(root, "files", json_integer(7));
		json_dump_file(root, p, 0);
		json_decref(root);
		tap_ok(build_load(dir, &bi, &err) < 0 && bi == NULL,
		       "a recipe whose files are not an array is refused");
		free(p);
	}
	tap_ok(build_load("/nonexistent-dir", &bi, &err) < 0 && bi == NULL,
	       "no recipe: an error (%s)", err.msg);
	free(dir);
}

static void test_list_remove(void)
{
	struct build_info **v = NULL;
	size_t n = 99;
	bo_err err;
	int missing = -1, rc;
	char *p;

	p = xasprintf("%s/none", state);
	tap_ok(builds_list(p, NULL, &v, &n, &err) == 0 && n == 0 && !v,
	       "builds_list: no STATE/builds is no build");
	free(p);

	make_build("deb", "o3", "libsodium");
	make_build("deb", "clang", "libsodium");
	make_build("alp", "a", "nettle");
	mk("builds/deb/half-made");		/* no build.json */
	mk("builds/deb/.hidden");
	mk("builds/.tmp-1-deb-x-abcdef");
	put("builds/deb/junk", "not a build\n");
	rc = builds_list(state, NULL, &v, &n, &err);
	tap_ok(rc == 0 && n == 3 &&
	       !strcmp(v[0]->image, "alp") && !strcmp(v[1]->name, "clang") &&
	       !strcmp(v[2]->name, "o3") &&
	       !strcmp(v[0]->library, "nettle"),
	       "builds_list: every build, sorted by image then name, what "
	       "is not a build skipped (%zu)", n);
	builds_list_free(v, n);
	tap_ok(builds_list(state, "deb", &v, &n, &err) == 0 && n == 2 &&
	       !strcmp(v[0]->image, "deb") && !strcmp(v[1]->image, "deb"),
	       "builds_list: those of one image");
	builds_list_free(v, n);
	tap_ok(builds_list(state, "nosuch", &v, &n, &err) == 0 && n == 0,
	       "builds_list: of an image with none, none");
	builds_list_free(v, n);

	tap_ok(build_remove(state, "deb", "nosuch", &missing, &err) < 0 &&
	       missing == 1 &&
	       tap_contains(err.msg, "no build 'nosuch' of image 'deb'"),
	       "build_remove of a build that does not exist: missing (%s)",
	       err.msg);
	tap_ok(build_remove(state, "deb", "../deb", &missing, &err) < 0 &&
	       missing == 1,
	       "build_remove of a name that is not one: missing");
	tap_ok(build_remove(state, "alp", "a", &missing, &err) == 0 &&
	       missing == 0,
	       "build_remove removes a build");
	p = xasprintf("%s/builds/alp", state);
	tap_ok(!exists(p), "and the image's directory, left empty");
	free(p);
	tap_ok(build_remove(state, "deb", "o3", &missing, &err) == 0,
	       "build_remove removes another");
	p = xasprintf("%s/builds/deb/clang/%s", state, BUILD_JSON);
	tap_ok(exists(p) && builds_list(state, NULL, &v, &n, &err) == 0 &&
	       n == 1,
	       "the other build of its image is kept, and its directory");
	builds_list_free(v, n);
	free(p);

	tap_ok(builds_remove_image(state, "deb", &err) == 0,
	       "builds_remove_image removes an image's builds");
	p = xasprintf("%s/builds/deb", state);
	tap_ok(!exists(p), "its directory is gone");
	free(p);
	tap_ok(builds_remove_image(state, "deb", &err) == 0,
	       "builds_remove_image of an image with no build is fine");
	p = xasprintf("%s/builds", state);
	{
		char *old = NULL;
		DIR *d = opendir(p);
		struct dirent *de;

		while (d && (de = readdir(d)) != NULL)
			if (!strncmp(de->d_name, ".old-", 5))
				old = xstrdup(de->d_name);
		if (d)
			closedir(d);
		tap_ok(!old, "nothing renamed away is left (%s)",
		       old ? old : "none");
		free(old);
	}
	free(p);
}

static void test_tmp(void)
{
	char *top = xasprintf("%s/builds", state), *tmp, *want, *p;
	const char *base;
	size_t removed = 99;
	pid_t dead;
	bo_err err;
	int rc;

	tmp = build_tmp_create(top, "deb", "o3", &err);
	want = xasprintf("%s/.tmp-%ld-deb-o3-", top, (long)getpid());
	tap_ok(tmp && !strncmp(tmp, want, strlen(want)) &&
	       strlen(tmp) == strlen(want) + 6 && exists(tmp),
	       "build_tmp_create: .tmp-PID-IMAGE-NAME-XXXXXX (%s)",
	       tmp ? tmp : err.msg);
	free(want);
	base = tmp ? strrchr(tmp, '/') + 1 : "";
	tap_ok(build_tmp_owner(base) == (long)getpid(),
	       "build_tmp_owner: its pid");
	tap_ok(build_tmp_owner(".tmp-123-x-y-abcdef") == 123 &&
	       build_tmp_owner(".tmp-x-y-abcdef") == 0 &&
	       build_tmp_owner(".tmp-123") == 0 &&
	       build_tmp_owner(".old-123-x") == 0 &&
	       build_tmp_owner("deb") == 0 &&
	       build_tmp_owner(".tmp-99999999999999999999-x") == 0,
	       "build_tmp_owner: 0 for what is not such a name");
	p = xasprintf("%s/nope", top);
	tap_ok(build_tmp_create(p, "deb", "o3", &err) == NULL &&
	       tap_contains(err.msg, "cannot create a directory"),
	       "build_tmp_create where it cannot: NULL (%s)", err.msg);
	free(p);

	/* a process that is gone: a child reaped */
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	p = xasprintf("builds/.tmp-%ld-deb-gone-abcdef/upper/usr/lib",
		      (long)dead);
	mk(p);
	free(p);
	p = xasprintf("builds/.tmp-%ld-deb-live-abcdef", (long)getppid());
	mk(p);
	free(p);
	mk("builds/.tmp-0-deb-zero-abcdef");
	mk("builds/.old-abcdef");
	make_build("deb", "kept", "libsodium");
	rc = builds_clean_stale(state, &removed, &err);
	tap_ok(rc == 0 && removed == 1,
	       "builds_clean_stale removes one directory (%zu)", removed);
	p = xasprintf("%s/.tmp-%ld-deb-gone-abcdef", top, (long)dead);
	tap_ok(!exists(p), "that of the process gone");
	free(p);
	p = xasprintf("%s/.tmp-%ld-deb-live-abcdef", top, (long)getppid());
	tap_ok(exists(p) && tmp && exists(tmp),
	       "those of a live process and of this one are kept");
	free(p);
	p = xasprintf("%s/deb/kept/%s", top, BUILD_JSON);
	want = xasprintf("%s/.old-abcdef", top);
	tap_ok(exists(p) && exists(want),
	       "and the builds, and what is not a build under way");
	free(want);
	free(p);
	p = xasprintf("%s/none", state);
	tap_ok(builds_clean_stale(p, &removed, &err) == 0 && removed == 0,
	       "no STATE/builds: nothing to do");
	free(p);
	tap_ok(builds_clean_stale(state, NULL, &err) == 0,
	       "the count may be left out");
	free(tmp);
	free(top);
}

int main(void)
{
	char tmpl[] = "/tmp/t2161-XXXXXX";
	bo_err err;

	if (!mkdtemp(tmpl)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	state = xasprintf("%s/state", tmpl);
	test_names();
	test_recipe();
	test_list_remove();
	test_tmp();
	if (bo_rm_rf(tmpl, &err) < 0)
		tap_diag("%s", err.msg);
	free(state);
	return tap_done();
}
