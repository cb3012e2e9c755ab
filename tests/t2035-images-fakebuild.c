/* t2035-images-fakebuild - the whole build pipeline of image_ensure with a
 * stand-in bootstrap tool (tests/fixtures/images-fakebin): no network and
 * a few seconds, but root (the builder gets a private mount namespace).
 * Covers method choice and fallback, the command line, image.json, the
 * cache, refresh, failure messages, interruption, mounts and the lock. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "images/digest.h"
#include "images/image.h"
#include "tests/tap.h"

static char *state;

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* 1 when some entry of STATE/images starts with PREFIX. */
static int has_entry(const char *prefix)
{
	char *dir = xasprintf("%s/images", state);
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	free(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			found = 1;
	closedir(d);
	return found;
}

/* 1 when process PID is gone (or a zombie waiting for init), polling for
 * up to two seconds. */
static int process_gone(pid_t pid)
{
	int i;

	for (i = 0; i < 40; i++) {
		char *p = xasprintf("/proc/%d/stat", (int)pid);
		char *buf = NULL, *rp;
		bo_err err;
		int zombie = 0;

		if (bo_read_file(p, 4096, &buf, NULL, &err) == 0) {
			rp = strrchr(buf, ')');
			zombie = rp && rp[1] == ' ' && rp[2] == 'Z';
			free(buf);
		}
		free(p);
		if (zombie || (kill(pid, 0) < 0 && errno == ESRCH))
			return 1;
		usleep(50000);
	}
	return 0;
}

/* 1 when /proc/self/mountinfo mentions the state directory. */
static int mounted_below_state(void)
{
	char *buf;
	bo_err err;
	int r;

	if (bo_read_file("/proc/self/mountinfo", 1 << 22, &buf, NULL,
			 &err) < 0)
		return 1;
	r = strstr(buf, state) != NULL;
	free(buf);
	return r;
}

/* The whole arguments file written by the fake tool, or "". */
static char *args_text(const char *path)
{
	char *buf;
	bo_err err;

	if (bo_read_file(path, 1 << 20, &buf, NULL, &err) < 0)
		return xstrdup("");
	return buf;
}

/* What the fake tool does next (STATE/fake-mode: it gets a fixed
 * environment, not ours). */
static void fake_mode(const char *mode)
{
	char *p = xasprintf("%s/fake-mode", state);
	FILE *f = fopen(p, "w");

	if (f) {
		fprintf(f, "%s\n", mode);
		fclose(f);
	}
	free(p);
}

static void on_alarm(int sig)
{
	bo_interrupted = sig;
}

/* Rebuild debian:trixie from a copy of SRC's Debian recipe in which trixie
 * is "archived" (data directory STATE/data). Returns image_ensure's
 * result; restores CTX's data directory. */
static int build_archived(struct image_ctx *ctx, const char *src,
			  const char *state, struct image **ret, bo_err *err)
{
	char *in = xasprintf("%s/images/debian.json", src);
	char *dir = xasprintf("%s/data", state);
	char *sub = xasprintf("%s/data/images", state);
	char *out = xasprintf("%s/data/images/debian.json", state);
	const char *saved = ctx->data_dir;
	json_t *root = json_load_file(in, 0, NULL), *rel;
	int rc = -1;

	rel = root ? json_object_get(json_object_get(root, "releases"),
				     "trixie") : NULL;
	if (rel && json_object_set_new(rel, "archived", json_true()) == 0 &&
	    (mkdir(dir, 0700) == 0 || errno == EEXIST) &&
	    (mkdir(sub, 0700) == 0 || errno == EEXIST) &&
	    json_dump_file(root, out, JSON_INDENT(2)) == 0) {
		ctx->data_dir = dir;
		rc = image_ensure(ctx, "debian:trixie", ret, err);
		ctx->data_dir = saved;
	} else {
		bo_err_set(err, "cannot make an archived copy of '%s'", in);
	}
	json_decref(root);
	free(in);
	free(dir);
	free(sub);
	free(out);
	return rc;
}

int main(void)
{
	const char *src = tap_srcdir();
	char tmpl[] = "/tmp/t2035-images-XXXXXX";
	char *fakebin, *fakebin_mm, *argsf, *pidf, *path_saved, *args;
	char *idir, *ijson, *rootfs, *failed_log;
	struct image_ctx ctx = { 0 };
	struct image *img = NULL, *img2 = NULL;
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
	fakebin_mm = xasprintf("%s/tests/fixtures/images-fakebin-mm:%s", src,
			       fakebin);
	argsf = xasprintf("%s/args", state);
	pidf = xasprintf("%s/pid", state);
	idir = xasprintf("%s/images/debian-trixie", state);
	ijson = xasprintf("%s/image.json", idir);
	rootfs = xasprintf("%s/rootfs", idir);
	failed_log = xasprintf("%s/images/debian-trixie.failed.log", state);
	path_saved = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", fakebin, 1);	/* only the fake debootstrap */
	ctx.state_dir = state;
	ctx.data_dir = src;

	/* 1. A build, falling back to debootstrap. */
	fake_mode("ok");
	rc = image_ensure(&ctx, "debian:trixie", &img, &err);
	tap_ok(rc == 0, "fake build succeeds%s%s", rc ? ": " : "",
	       rc ? err.msg : "");
	if (rc < 0)
		goto out;
	args = args_text(argsf);
	tap_ok(strncmp(args, "debootstrap\n", 12) == 0,
	       "mmdebstrap absent: debootstrap is used");
	tap_ok(tap_contains(args, "\n--variant=minbase\n") &&
	       tap_contains(args, "\n--include=libssl3t64,openssl,") &&
	       tap_contains(args, "\n--components=main\n") &&
	       tap_contains(args, "\n--keyring=/usr/share/keyrings/debian-archive-keyring.gpg\ntrixie\n") &&
	       tap_contains(args, "/.build-debian-trixie-") &&
	       !tap_contains(args, "--hook-dir"),
	       "command line: variant, include, components, the recipe's keyring, suite, target");
	tap_ok(img->verification &&
	       tap_contains(img->verification, "keyring '/usr/share/keyrings/debian-archive-keyring.gpg' alone (OpenPGP keys ") &&
	       !tap_contains(img->verification, "keys )"),
	       "image: the keyring and its keys' fingerprints recorded: %s",
	       img->verification ? img->verification : "(none)");
	free(args);
	tap_ok(strcmp(img->method, "debootstrap") == 0 &&
	       strcmp(img->name, "debian-trixie") == 0 &&
	       strcmp(img->release, "trixie") == 0 &&
	       strcmp(img->dir, idir) == 0 && strcmp(img->rootfs, rootfs) == 0,
	       "image: method, name, release, dir, rootfs");
	tap_ok(img->npackages == 3 && image_package_version(img, "libc6") &&
	       strcmp(image_package_version(img, "libssl3t64"), "3.9.9-1")
	       == 0, "image: packages from the dpkg status");
	tap_ok(img->nlibpkgs == 2 &&
	       strcmp(image_library_package(img, "openssl"), "libssl3t64")
	       == 0 && image_library_package(img, "libgcrypt") &&
	       !image_library_package(img, "wolfssl"),
	       "image: only libraries whose package is installed");
	{
		char d[DIGEST_STR_LEN];

		tap_ok(digest_tree(rootfs, d, sizeof(d), &err) == 0 &&
		       strcmp(d, img->digest) == 0,
		       "image: digest is the rootfs digest");
	}
	{
		char *log = xasprintf("%s/build.log", idir);
		char *text = args_text(log);

		tap_ok(tap_contains(text, "Base system installed") &&
		       strncmp(text, "+ ", 2) == 0,
		       "build.log kept with the command and the tool's output");
		free(text);
		free(log);
	}
	tap_ok(!has_entry(".build-") && !mounted_below_state(),
	       "no build directory and nothing mounted left");

	/* 2. Cached: the tool does not run again. */
	unlink(argsf);
	rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
	tap_ok(rc == 0 && !exists(argsf) &&
	       strcmp(img2->created_at, img->created_at) == 0 &&
	       strcmp(img2->digest, img->digest) == 0,
	       "second call uses the cached image");
	image_free(img2);
	img2 = NULL;

	/* 3. Refresh with a mirror; mmdebstrap preferred when present. */
	setenv("PATH", fakebin_mm, 1);
	ctx.refresh = 1;
	ctx.mirror = "http://mirror.invalid/debian";
	rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
	args = args_text(argsf);
	tap_ok(rc == 0 && strcmp(img2->method, "mmdebstrap") == 0 &&
	       strncmp(args, "mmdebstrap\n", 11) == 0 &&
	       tap_contains(args, "\n--hook-dir=") &&
	       tap_contains(args, "\n--keyring=/usr/share/keyrings/debian-archive-keyring.gpg\n") &&
	       tap_contains(args, "/apt-trusted.d\n--skip=check/signed-by\n") &&
	       tap_contains(args, "\n--\ntrixie\n") &&
	       tap_contains(args, "/rootfs\nhttp://mirror.invalid/debian\n"),
	       "refresh: rebuilt with mmdebstrap, recipe options, the keyring alone (no host TrustedParts, no signed-by guess) and mirror%s%s",
	       rc ? ": " : "", rc ? err.msg : "");
	free(args);
	tap_ok(rc == 0 && strcmp(img2->digest, img->digest) != 0 &&
	       !has_entry(".old-") && !has_entry(".build-"),
	       "refresh: new content replaced the old image, nothing left");
	image_free(img);
	img = img2;
	img2 = NULL;

	/* 3b. apt's check that a Release file has not expired stays on,
	 * but for a release the recipe marks archived. */
	args = args_text(argsf);
	tap_ok(!tap_contains(args, "Check-Valid-Until"),
	       "a current release: apt still refuses an expired Release file");
	free(args);
	rc = build_archived(&ctx, src, state, &img2, &err);
	args = args_text(argsf);
	tap_ok(rc == 0 &&
	       tap_contains(args, "\n--aptopt=Acquire::Check-Valid-Until \"false\"\n--\ntrixie\n"),
	       "an archived release: its Release files may have expired%s%s",
	       rc ? ": " : "", rc ? err.msg : "");
	free(args);
	image_free(img);
	img = img2;
	img2 = NULL;

	/* 4. A failing tool: message with its reason, old image kept. */
	fake_mode("fail");
	rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
	{
		char *want = xasprintf("cannot build image 'debian:trixie': "
				       "mmdebstrap exited with status 1: E: "
				       "Failed getting release file "
				       "http://mirror.invalid/debian/dists/"
				       "trixie/Release (log: %s)", failed_log);

		tap_ok(rc == -1 && !img2 && strcmp(err.msg, want) == 0,
		       "failure: %s", err.msg);
		free(want);
	}
	tap_ok(exists(failed_log) && !has_entry(".build-"),
	       "failure: build directory removed, log kept aside");
	rc = image_load(idir, &img2, &err);
	tap_ok(rc == 0 && strcmp(img2->digest, img->digest) == 0,
	       "failure: the previous image is intact");
	image_free(img2);
	img2 = NULL;

	/* 5. A tool that succeeds without a dpkg database. */
	fake_mode("nostatus");
	rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
	tap_ok(rc == -1 && tap_contains(err.msg, "var/lib/dpkg/status") &&
	       !has_entry(".build-"), "no dpkg status: %s", err.msg);

	/* 6. Interrupted while the tool runs (and has mounted something). */
	fake_mode("hang");
	unlink(pidf);
	{
		struct sigaction sa;
		uint64_t t0 = bo_now_ns();
		pid_t child = 0;
		FILE *f;

		pid_t watcher;
		int seen = 0, wfd[2];

		/* A watcher proves the tool had something mounted in its own
		 * namespace (and we do not see it in ours), then interrupts
		 * us with SIGUSR1; SIGALRM is the safety net. */
		if (pipe(wfd) < 0)
			wfd[0] = wfd[1] = -1;
		watcher = fork();
		if (watcher == 0) {
			int i, found = 0;

			for (i = 0; i < 500 && !found; i++) {
				char *buf = NULL, *mi;
				int p = 0;
				FILE *pf = fopen(pidf, "r");

				usleep(20000);
				if (!pf)
					continue;
				if (fscanf(pf, "%d", &p) != 1)
					p = 0;
				fclose(pf);
				mi = xasprintf("/proc/%d/mountinfo", p);
				if (p > 0 && bo_read_file(mi, 1 << 22, &buf,
							  NULL, &err) == 0 &&
				    strstr(buf, "fake-proc") &&
				    strstr(buf, state) && !mounted_below_state())
					found = 1;
				free(buf);
				free(mi);
			}
			/* The answer goes through a pipe: under valgrind the
			 * exit status of a forked child is not ours. */
			if (write(wfd[1], found ? "1" : "0", 1) != 1)
				found = 0;
			kill(getppid(), SIGUSR1);
			_exit(0);
		}
		close(wfd[1]);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		sigaction(SIGUSR1, &sa, NULL);
		alarm(30);
		rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
		alarm(0);
		if (watcher > 0) {
			char c = '0';

			if (read(wfd[0], &c, 1) == 1)
				seen = c == '1';
			waitpid(watcher, NULL, 0);
		}
		close(wfd[0]);
		tap_ok(seen, "interrupt: the tool had a mount in its private "
		       "namespace, invisible outside");
		tap_ok(rc == -1 && strcmp(err.msg, "cannot build image "
					  "'debian:trixie': interrupted") == 0 &&
		       bo_now_ns() - t0 < 25000000000ull,
		       "interrupt: %s", err.msg);
		f = fopen(pidf, "r");
		if (f) {
			if (fscanf(f, "%d", &child) != 1)
				child = 0;
			fclose(f);
		}
		tap_ok(child > 0 && process_gone(child),
		       "interrupt: the tool's children are gone (pid %d)",
		       (int)child);
		tap_ok(!has_entry(".build-") && !mounted_below_state(),
		       "interrupt: no build directory, nothing mounted");
		bo_interrupted = 0;
	}
	rc = image_load(idir, &img2, &err);
	tap_ok(rc == 0 && strcmp(img2->digest, img->digest) == 0,
	       "interrupt: the previous image is intact");
	image_free(img2);
	img2 = NULL;

	/* 7. The lock: a build waits while another process holds it. */
	fake_mode("ok");
	{
		char *lock = xasprintf("%s/images/.lock", state);
		int fds[2];
		pid_t pid;

		if (pipe(fds) < 0)
			fds[0] = fds[1] = -1;
		pid = fork();
		if (pid == 0) {
			int fd = open(lock, O_RDWR);
			char c = 'x';

			flock(fd, LOCK_EX);
			if (write(fds[1], &c, 1) < 0)
				_exit(1);
			usleep(1500000);
			_exit(0);
		}
		if (pid > 0) {
			char c;
			uint64_t t0;

			close(fds[1]);
			if (read(fds[0], &c, 1) != 1)
				tap_diag("lock holder did not start");
			t0 = bo_now_ns();
			rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
			tap_ok(rc == 0 && bo_now_ns() - t0 > 1000000000ull,
			       "lock: waited for the holder, then built "
			       "(%.1f s)", (double)(bo_now_ns() - t0) / 1e9);
			waitpid(pid, NULL, 0);
			close(fds[0]);
		}
		image_free(img2);
		img2 = NULL;
		free(lock);
	}

	/* 8. Without any tool. */
	setenv("PATH", state, 1);
	rc = image_ensure(&ctx, "debian:trixie", &img2, &err);
	tap_ok(rc == -1 && strcmp(err.msg, "debootstrap not found: install "
				  "the debootstrap package") == 0,
	       "no tool: %s", err.msg);
out:
	setenv("PATH", path_saved, 1);
	image_free(img);
	if (bo_rm_rf(state, &err) < 0)
		tap_diag("%s", err.msg);
	free(fakebin);
	free(fakebin_mm);
	free(argsf);
	free(pidf);
	free(idir);
	free(ijson);
	free(rootfs);
	free(failed_log);
	free(path_saved);
	return tap_done();
}
