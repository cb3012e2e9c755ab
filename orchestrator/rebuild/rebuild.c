/* rebuild.c - one library built from source in a throwaway overlay of an
 * image, under systemd-nspawn, its shared objects kept (rebuild.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/digest.h"
#include "lib/spawn.h"
#include "orchestrator/rebuild/rebuild.h"

/* The longest a build may take, and the most bytes of its log kept. */
#define REBUILD_TIMEOUT_NS (4ull * 3600 * 1000000000ull)
#define REBUILD_MAX_LOG (256u << 20)
/* Lines of the build log quoted after a failure. */
#define REBUILD_TAIL_LINES 15

/* The capabilities taken from the build's container: those the guest's
 * container loses too (orchestrator/run/runner.c), but for the ones apt
 * and dpkg use as the container's root on its own copy (CAP_CHOWN,
 * CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_FSETID, CAP_KILL,
 * CAP_SETUID, CAP_SETGID, CAP_SETPCAP: apt's downloads run as _apt). */
#define REBUILD_DROP_CAPS "--drop-capability=" \
	"CAP_AUDIT_CONTROL,CAP_AUDIT_READ,CAP_AUDIT_WRITE,CAP_BLOCK_SUSPEND," \
	"CAP_IPC_LOCK,CAP_IPC_OWNER,CAP_LEASE,CAP_LINUX_IMMUTABLE," \
	"CAP_MAC_ADMIN,CAP_MAC_OVERRIDE,CAP_MKNOD,CAP_NET_ADMIN," \
	"CAP_NET_BIND_SERVICE,CAP_NET_BROADCAST,CAP_NET_RAW,CAP_SETFCAP," \
	"CAP_SYSLOG,CAP_SYS_ADMIN,CAP_SYS_BOOT,CAP_SYS_CHROOT," \
	"CAP_SYS_MODULE,CAP_SYS_NICE,CAP_SYS_PACCT,CAP_SYS_PTRACE," \
	"CAP_SYS_RAWIO,CAP_SYS_RESOURCE,CAP_SYS_TIME,CAP_SYS_TTY_CONFIG," \
	"CAP_WAKE_ALARM"

int rebuild_image_check(const struct image *img, bo_err *err)
{
	int deb = strcmp(img->distro, "debian") == 0 ||
		  strcmp(img->distro, "ubuntu") == 0;
	int boot = strcmp(img->method, "debootstrap") == 0 ||
		   strcmp(img->method, "mmdebstrap") == 0;

	if (deb && boot && !img->previous)
		return 0;
	return bo_err_set(err, "no source archive for image '%s' (%s%s): "
			  "rebuild supports Debian and Ubuntu images",
			  img->name, img->distro, boot ? "" : ", imported");
}

int rebuild_cc_check(const char *cc, const char **ret_pkg, bo_err *err)
{
	const char *v = NULL;

	if (strncmp(cc, "gcc", 3) == 0)
		v = cc + 3;
	else if (strncmp(cc, "clang", 5) == 0)
		v = cc + 5;
	if (v && (*v == '\0' || (v[0] == '-' && v[1] &&
				 strspn(v + 1, "0123456789") == strlen(v + 1)))) {
		*ret_pkg = cc;
		return 0;
	}
	return bo_err_set(err, "unknown compiler '%s' (gcc, clang, gcc-N, "
			  "clang-N)", cc);
}

/* The child's setup in its own mount namespace: the overlay of the
 * image's rootfs (lower, never written) and the build's upper directory
 * on MERGED, gone with the namespace when the container ends. */
struct overlay_ctx {
	char *opts;
	const char *merged;
};

static int overlay_setup(void *vctx, bo_err *err)
{
	struct overlay_ctx *c = vctx;

	if (mount("overlay", c->merged, "overlay", MS_NODEV, c->opts) < 0)
		return bo_err_set(err, "cannot mount an overlay on '%s': %s",
				  c->merged, strerror(errno));
	return 0;
}

/* What the script said on its protocol lines (rebuild-script.c). */
struct proto {
	int progress;
	const char *library;
	uint64_t start_ns;
	char step[512];		/* the step under way */
	char fail[512];		/* its "fail" line, or "" */
	char nocompiler[512];	/* its "nocompiler" package, or "" */
	int done;
	int log_fd;
};

static int on_line(void *vctx, const char *line, size_t len, int truncated)
{
	struct proto *p = vctx;
	char buf[512];

	(void)truncated;
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < 400 ? len : 400), line);
	if (strncmp(buf, "step ", 5) == 0) {
		snprintf(p->step, sizeof(p->step), "%s", buf + 5);
		if (p->progress)
			fprintf(stderr, "benchorch: rebuild %s: %.0f s: %s\n",
				p->library,
				(double)(bo_now_ns() - p->start_ns) / 1e9,
				buf + 5);
	} else if (strncmp(buf, "fail ", 5) == 0) {
		snprintf(p->fail, sizeof(p->fail), "%s", buf + 5);
	} else if (strncmp(buf, "nocompiler ", 11) == 0) {
		snprintf(p->nocompiler, sizeof(p->nocompiler), "%s", buf + 11);
	} else if (strcmp(buf, "done") == 0) {
		p->done = 1;
	}
	return 0;
}

/* The last REBUILD_TAIL_LINES lines of the log at PATH, or NULL. */
static char *log_tail(const char *path)
{
	char *buf, *p, *out;
	size_t len;
	int lines = 0;
	bo_err e;

	if (bo_read_file(path, REBUILD_MAX_LOG + 4096, &buf, &len, &e) < 0 ||
	    len == 0) {
		if (len == 0)
			free(buf);
		return NULL;
	}
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	for (p = buf + len; p > buf; p--)
		if (p[-1] == '\n' && ++lines == REBUILD_TAIL_LINES)
			break;
	out = xstrdup(p);
	free(buf);
	return out;
}

/* The systemd-nspawn command line of the build, in ARGS. */
static void build_argv(const char **args, const char *merged,
		       const char *pkg, const char *cc, const char *ccpkg,
		       const char *flags)
{
	size_t n = 0;

	args[n++] = "systemd-nspawn";
	args[n++] = "--register=no";
	args[n++] = "--keep-unit";
	args[n++] = "--setenv=PATH=/usr/sbin:/usr/bin:/sbin:/bin";
	args[n++] = "--setenv=LC_ALL=C";
	args[n++] = "--setenv=DEBIAN_FRONTEND=noninteractive";
	/* the archive is on the network: no --private-network; the host's
	 * resolver copied into the throwaway copy */
	args[n++] = "--resolv-conf=copy-host";
	args[n++] = "--console=pipe";
	args[n++] = "--no-new-privileges=yes";
	args[n++] = REBUILD_DROP_CAPS;
	/* the container's root is an unprivileged user of the host: a
	 * user namespace of its own, the copy's files chowned into its
	 * range (an overlay cannot be idmapped here) */
	args[n++] = "--private-users=pick";
	args[n++] = "--private-users-ownership=chown";
	args[n++] = "--as-pid2";
	args[n++] = "-D";
	args[n++] = merged;
	args[n++] = "--";
	args[n++] = "/bin/sh";
	args[n++] = "-c";
	args[n++] = rebuild_script;
	args[n++] = "benchorch-rebuild";
	args[n++] = pkg;
	args[n++] = cc;
	args[n++] = ccpkg;
	args[n++] = flags;
	args[n] = NULL;
}

/* A shared object name the guest could load: "lib*.so.*", no '/'. */
static int so_name_ok(const char *s)
{
	return strncmp(s, "lib", 3) == 0 && strstr(s, ".so.") &&
	       !strchr(s, '/');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Move the shared objects the script left in UPPER/benchorch-out/lib (what
 * the container wrote: trusted for nothing, every component opened
 * without following a symlink) to OUT/lib, into BI->files. Only regular
 * files and symlinks to plain names, all named lib*.so.*. Returns 0, or
 * -1 with err set. */
static int collect(const char *upper, const char *out, struct build_info *bi,
		   bo_err *err)
{
	char *dst = xasprintf("%s/%s", out, BUILD_LIBDIR);
	int ufd = -1, ofd = -1, lfd = -1, dfd = -1, rc = -1;
	struct dirent *de;
	DIR *d = NULL;

	if (mkdir(dst, 0755) < 0 ||
	    (dfd = open(dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (ufd = open(upper, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC)) < 0 ||
	    (ofd = openat(ufd, "benchorch-out", O_RDONLY | O_DIRECTORY |
			  O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    (lfd = openat(ofd, BUILD_LIBDIR, O_RDONLY | O_DIRECTORY |
			  O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    !(d = fdopendir(lfd))) {
		bo_err_set(err, "cannot collect the shared objects: %s",
			   strerror(errno));
		goto out;
	}
	lfd = -1;	/* d owns it */
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char target[256];
		ssize_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!so_name_ok(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))) {
			bo_err_set(err, "the build left '%s', not a shared "
				   "object", de->d_name);
			goto out;
		}
		if (S_ISLNK(st.st_mode) &&
		    ((n = readlinkat(dirfd(d), de->d_name, target,
				     sizeof(target) - 1)) <= 0 ||
		     (target[n] = '\0', strchr(target, '/')))) {
			bo_err_set(err, "the build left '%s', a link out of "
				   "its directory", de->d_name);
			goto out;
		}
		/* the container's user made it: root's, as the image's
		 * own libraries are */
		if (renameat(dirfd(d), de->d_name, dfd, de->d_name) < 0 ||
		    fchownat(dfd, de->d_name, 0, 0, AT_SYMLINK_NOFOLLOW) < 0) {
			bo_err_set(err, "cannot keep '%s': %s", de->d_name,
				   strerror(errno));
			goto out;
		}
		bi->files = xrealloc(bi->files, (bi->nfiles + 1) *
				     sizeof(*bi->files));
		bi->files[bi->nfiles++] = xstrdup(de->d_name);
	}
	if (bi->nfiles == 0) {
		bo_err_set(err, "package '%s' holds no shared object",
			   bi->package);
		goto out;
	}
	qsort(bi->files, bi->nfiles, sizeof(*bi->files), cmp_str);
	rc = 0;
out:
	if (d)
		closedir(d);
	if (lfd >= 0)
		close(lfd);
	if (ofd >= 0)
		close(ofd);
	if (ufd >= 0)
		close(ufd);
	if (dfd >= 0)
		close(dfd);
	free(dst);
	return rc;
}

/* Read the script's UPPER/benchorch-out/info ("key=value" lines) into
 * BI. Returns 0, or -1 with err set. */
static int read_info(const char *upper, struct build_info *bi, bo_err *err)
{
	char buf[8192], *line, *save = NULL;
	int ufd, ofd, fd;
	struct stat st;
	ssize_t n;

	ufd = open(upper, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ofd = ufd < 0 ? -1 : openat(ufd, "benchorch-out", O_RDONLY |
				    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	fd = ofd < 0 ? -1 : openat(ofd, "info", O_RDONLY | O_NOFOLLOW |
				   O_CLOEXEC | O_NONBLOCK);
	n = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ?
	    read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (ofd >= 0)
		close(ofd);
	if (ufd >= 0)
		close(ufd);
	if (n <= 0)
		return bo_err_set(err, "the build left no description");
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq++ = '\0';
#define KEY(k, f) \
		if (strcmp(line, k) == 0) { free(bi->f); bi->f = xstrdup(eq); }
		KEY("source", source)
		KEY("version", version)
		KEY("cc_version", cc_version)
		KEY("ccpkg_version", cc_package_version)
		KEY("cflags", cflags)
#undef KEY
	}
	if (!bi->source || !bi->version || !bi->cflags)
		return bo_err_set(err, "the build left an incomplete "
				  "description");
	return 0;
}

/* Make the build directory OUT (complete but for build.json) into BI's
 * recipe and rename it to FINAL. Returns 0, or -1 with err set and
 * *FAIL set. */
static int finish(const char *top, const char *out, const char *final,
		  struct build_info *bi, enum rebuild_fail *fail, bo_err *err)
{
	char digest[DIGEST_STR_LEN], when[32], *p, *idir;
	int rc;

	p = xasprintf("%s/%s", out, BUILD_LIBDIR);
	rc = digest_tree(p, digest, sizeof(digest), err);
	free(p);
	if (rc < 0)
		return -1;
	bi->digest = xstrdup(digest);
	bi->created_at = xstrdup(bo_utc_now(when, sizeof(when)));
	p = xasprintf("%s/%s", out, BUILD_JSON);
	rc = build_json_write(bi, p, err);
	free(p);
	if (rc < 0)
		return -1;
	idir = xasprintf("%s/%s", top, bi->image);
	if (mkdir(idir, 0755) < 0 && errno != EEXIST)
		rc = bo_err_set(err, "cannot create '%s': %s", idir,
				strerror(errno));
	else if (rename(out, final) < 0) {
		if (errno == EEXIST || errno == ENOTEMPTY) {
			*fail = REBUILD_BAD_INPUT;
			rc = bo_err_set(err, "a build '%s' of image '%s' "
					"exists already", bi->name, bi->image);
		} else {
			rc = bo_err_set(err, "cannot rename the build to '%s': "
					"%s", final, strerror(errno));
		}
	}
	free(idir);
	return rc;
}

/* Run the container on the overlay of TMP's upper directory; its
 * protocol into *P, its log to LOG. Returns 0 when it ran to "done", or
 * -1 with err, *fail and *ret_tail set. */
static int run_container(const struct rebuild_req *r, const char *tmp,
			 const char *pkg, const char *ccpkg, int log_fd,
			 const char *log, struct proto *p,
			 enum rebuild_fail *fail, char **ret_tail, bo_err *err)
{
	char *merged = xasprintf("%s/merged", tmp), how[128];
	struct overlay_ctx oc = {
		/* metacopy: the container's user namespace takes the copy
		 * over by a chown of every file (--private-users-ownership=
		 * chown), which then copies up inodes, not their data */
		.opts = xasprintf("lowerdir=%s,upperdir=%s/upper,workdir=%s/"
				  "work,redirect_dir=on,metacopy=on",
				  r->img->rootfs, tmp, tmp),
		.merged = merged,
	};
	const char *args[32];
	struct spawn_result res;
	struct spawn_opts so = {
		.argv = args, .timeout_ns = REBUILD_TIMEOUT_NS, .cpu = -1,
		.new_mount_ns = 1, .setup = overlay_setup, .setup_ctx = &oc,
		.on_line = on_line, .line_ctx = p, .log_fd = log_fd,
		.max_log_bytes = REBUILD_MAX_LOG, .envp = spawn_env_guest(),
	};
	int rc = -1, life[2];

	/* the container's lifeline (rebuild_script): its stdin, a pipe
	 * whose write end only this process holds */
	if (pipe2(life, O_CLOEXEC) < 0) {
		bo_err_set(err, "cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	so.in_fd = life[0];
	build_argv(args, merged, pkg, r->cc, ccpkg, r->flags);
	rc = spawn_run(&so, &res, err);
	close(life[0]);
	close(life[1]);
	if (rc < 0)
		goto out;
	rc = -1;
	if (res.status == SPAWN_INTERRUPTED) {
		*fail = REBUILD_INTERRUPTED;
		bo_err_set(err, "interrupted");
		goto out;
	}
	if (res.status == SPAWN_EXITED && res.exit_code == 0 && p->done) {
		rc = 0;
		goto out;
	}
	*ret_tail = log_tail(log);
	if (p->nocompiler[0]) {
		*fail = REBUILD_BAD_INPUT;
		bo_err_set(err, "image '%s' (%s %s) ships no compiler '%s'",
			   r->img->name, r->img->distro, r->img->release,
			   p->nocompiler);
	} else {
		bo_err_set(err, "rebuild of '%s' in '%s' failed at '%s': %s "
			   "(%s)", r->library, r->img->name,
			   p->step[0] ? p->step : "start",
			   p->fail[0] ? p->fail : "the container",
			   spawn_describe(&res, &so, how, sizeof(how)));
	}
out:
	free(oc.opts);
	free(merged);
	return rc;
}

int rebuild_run(const struct rebuild_req *r, struct build_info **ret,
		enum rebuild_fail *ret_fail, char **ret_tail, bo_err *err)
{
	const char *pkg = image_library_package(r->img, r->library), *ccpkg;
	char *top, *tmp = NULL, *out = NULL, *log = NULL, *final = NULL;
	struct proto p = { .progress = r->progress, .library = r->library,
			   .start_ns = bo_now_ns(), .log_fd = -1 };
	struct build_info *bi = NULL;
	struct stat st;
	int rc = -1;
	bo_err e;

	*ret = NULL;
	*ret_tail = NULL;
	*ret_fail = REBUILD_FAILED;
	if (!pkg)
		return bo_err_set(err, "no library '%s' in image '%s'",
				  r->library, r->img->name);
	if (rebuild_cc_check(r->cc, &ccpkg, err) < 0)
		return -1;
	if (strpbrk(r->img->rootfs, ",:\\"))
		return bo_err_set(err, "cannot overlay '%s': a ',', ':' or "
				  "'\\' in its path", r->img->rootfs);
	top = builds_dir_abs(r->state_dir, err);
	if (!top)
		return -1;
	final = xasprintf("%s/%s/%s", top, r->img->name, r->name);
	if (lstat(final, &st) == 0) {
		*ret_fail = REBUILD_BAD_INPUT;
		bo_err_set(err, "a build '%s' of image '%s' exists already",
			   r->name, r->img->name);
		goto out;
	}
	if (bo_mkdir_p(top, err) < 0)
		goto out;
	if (builds_clean_stale(r->state_dir, NULL, &e) < 0)
		fprintf(stderr, "benchorch: warning: %s\n", e.msg);
	tmp = build_tmp_create(top, r->img->name, r->name, err);
	if (!tmp)
		goto out;
	out = xasprintf("%s/out", tmp);
	log = xasprintf("%s/%s", out, BUILD_LOG);
	{
		const char *sub[] = { "upper", "work", "merged", "out" };
		size_t i;

		for (i = 0; i < 4; i++) {
			char *d = xasprintf("%s/%s", tmp, sub[i]);
			int k = mkdir(d, 0755);

			free(d);
			if (k < 0) {
				bo_err_set(err, "cannot create a directory in "
					   "'%s': %s", tmp, strerror(errno));
				goto out;
			}
		}
	}
	p.log_fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (p.log_fd < 0) {
		bo_err_set(err, "cannot create '%s': %s", log, strerror(errno));
		goto out;
	}
	if (run_container(r, tmp, pkg, ccpkg, p.log_fd, log, &p, ret_fail,
			  ret_tail, err) < 0)
		goto out;
	bi = xcalloc(1, sizeof(*bi));
	bi->image = xstrdup(r->img->name);
	bi->name = xstrdup(r->name);
	bi->library = xstrdup(r->library);
	bi->package = xstrdup(pkg);
	bi->cc = xstrdup(r->cc);
	bi->flags = xstrdup(r->flags);
	bi->build_seconds = (double)(bo_now_ns() - p.start_ns) / 1e9;
	{
		char *upper = xasprintf("%s/upper", tmp);

		rc = read_info(upper, bi, err) < 0 ||
		     collect(upper, out, bi, err) < 0 ? -1 : 0;
		free(upper);
	}
	if (rc == 0 && bo_interrupted) {
		*ret_fail = REBUILD_INTERRUPTED;
		rc = bo_err_set(err, "interrupted");
	}
	if (rc == 0)
		rc = finish(top, out, final, bi, ret_fail, err);
	if (rc == 0) {
		free(bi->dir);
		bi->dir = xstrdup(final);
		*ret = bi;
		bi = NULL;
	}
out:
	if (p.log_fd >= 0)
		close(p.log_fd);
	if (tmp)
		(void)bo_rm_rf(tmp, &e);	/* never half a build */
	build_info_free(bi);
	free(tmp);
	free(out);
	free(log);
	free(final);
	free(top);
	return rc;
}
