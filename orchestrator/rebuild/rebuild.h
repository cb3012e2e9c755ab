/* rebuild.h - build one crypto library from its distribution's own source
 * package, with another compiler or other optimisation flags, in a
 * throwaway copy of an image, keeping only the shared objects the guest
 * loads (images/builds.h: STATE/builds/IMAGE/NAME). */
#ifndef BENCHORCH_REBUILD_H
#define BENCHORCH_REBUILD_H

#include "images/builds.h"
#include "images/image.h"
#include "lib/util.h"

/* The script run inside the container (rebuild-script.c). */
extern const char rebuild_script[];

/* What to build. Strings borrowed. */
struct rebuild_req {
	const char *state_dir;	/* builds go to STATE/builds */
	const struct image *img;	/* a Debian or Ubuntu image
					 * (rebuild_image_check) */
	const char *library;	/* guest backend name: "libsodium" */
	const char *name;	/* the build's name (build_name_check) */
	const char *cc;		/* rebuild_cc_check */
	const char *flags;	/* replace the packaging's -O flags; may be
				 * "" */
	int progress;		/* print one line per step on stderr */
};

/* How a failed build failed, for the exit status. */
enum rebuild_fail {
	REBUILD_FAILED = 1,	/* the build (or the archive) failed */
	REBUILD_BAD_INPUT,	/* the release ships no such compiler; a
				 * build of that name exists already */
	REBUILD_INTERRUPTED,	/* SIGINT, SIGTERM */
};

/* Check that IMG can be rebuilt in: a Debian or Ubuntu image made by a
 * bootstrap tool (it has a release with a source archive). Returns 0, or
 * -1 with err set ("no source archive for image 'X' (alpine): rebuild
 * supports Debian and Ubuntu images"). */
int rebuild_image_check(const struct image *img, bo_err *err);

/* Check the compiler CC: "gcc", "clang", or either with a version
 * ("gcc-12", "clang-16"). On 0, *ret_pkg is its package's name (points
 * into CC). Returns 0, or -1 with err set ("unknown compiler 'X' (gcc,
 * clang, gcc-N, clang-N)"). Whether the release ships it is only known
 * in the container (REBUILD_BAD_INPUT). */
int rebuild_cc_check(const char *cc, const char **ret_pkg, bo_err *err);

/* Build R's library in a throwaway overlay of R->img's rootfs (the image
 * itself is never written) under systemd-nspawn, confined as the guest's
 * container is except that it may write its copy, reach the network
 * (the archive) and keep the capabilities apt and dpkg need as root.
 * Everything happens in a directory STATE/builds/.tmp-PID-* renamed to
 * STATE/builds/IMAGE/NAME only when complete; on any failure or
 * interruption it is deleted, so nothing is left half made (and the
 * overlay, mounted in the container's own mount namespace only, goes
 * with the container). Such directories left by a build killed with
 * SIGKILL are removed first (builds_clean_stale; a warning on stderr
 * when that fails).
 * Returns 0 with the new build in *ret (build_info_free), or -1 with err
 * set (one line naming what failed), *ret_fail saying how, and when the
 * build log says more, *ret_tail its last lines (newly allocated, free();
 * else NULL). */
int rebuild_run(const struct rebuild_req *r, struct build_info **ret,
		enum rebuild_fail *ret_fail, char **ret_tail, bo_err *err);

#endif
