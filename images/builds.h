/* builds.h - the store of rebuilt libraries, STATE/builds/IMAGE/NAME/:
 * the shared objects of one library built from its distribution's source
 * package in a throwaway copy of IMAGE, and their recipe (build.json).
 * Written by `benchorch rebuild` (orchestrator/rebuild/), read by the
 * commands that list, remove or (later) run them. */
#ifndef BENCHORCH_BUILDS_H
#define BENCHORCH_BUILDS_H

#include <stddef.h>
#include "lib/util.h"

/* The recipe file inside a build directory, and the build log beside it. */
#define BUILD_JSON "build.json"
#define BUILD_LOG "build.log"
/* The shared objects kept, in this subdirectory of a build directory. */
#define BUILD_LIBDIR "lib"

/* One build, as its build.json describes it. Strings owned by the
 * struct; free with build_info_free(). */
struct build_info {
	char *image;		/* the image built in: "debian-bookworm" */
	char *name;		/* the build's name (its directory) */
	char *library;		/* guest backend name: "libsodium" */
	char *package;		/* the runtime package whose shared objects
				 * are kept: "libsodium23" */
	char *source;		/* source package: "libsodium" */
	char *version;		/* its version: "1.0.18-1+deb12u1" */
	char *cc;		/* compiler as given: "gcc", "clang-16" */
	char *cc_version;	/* its first --version line */
	char *cc_package_version;	/* its package's version */
	char *flags;		/* the optimisation flags given: "-O3" */
	char *cflags;		/* effective CFLAGS (dpkg-buildflags) */
	char *created_at;	/* ISO 8601 UTC, when the build ended */
	double build_seconds;	/* wall time of the container, in s */
	char *digest;		/* digest_tree() of lib/: "sha256:..." */
	size_t nfiles;
	char **files;		/* names under lib/, sorted */
	char *dir;		/* STATE/builds/IMAGE/NAME (not stored) */
};

/* STATE_DIR/builds as an absolute path (a relative STATE_DIR taken from
 * the current directory). Newly allocated, or NULL with err set. */
char *builds_dir_abs(const char *state_dir, bo_err *err);

/* Check NAME as a build's name: the rules of an image name
 * (image_name_check: [a-z0-9._-], at most 64 bytes, not starting with '.'
 * or '-'). Returns 0, or -1 with err set ("invalid build name 'X': it
 * ..."). */
int build_name_check(const char *name, bo_err *err);

/* Write BI's recipe to PATH atomically as a JSON object with every field
 * of struct build_info but dir (strings; build_seconds a number; files an
 * array of strings) and "log": BUILD_LOG. Returns 0, or -1 with err set. */
int build_json_write(const struct build_info *bi, const char *path,
		     bo_err *err);

/* Load the build in DIR (its build.json). Returns 0 with a new
 * build_info in *ret (build_info_free), or -1 with err set (unreadable
 * or malformed: "invalid build recipe 'PATH': ..."). */
int build_load(const char *dir, struct build_info **ret, bo_err *err);

/* Free BI and every string it owns; NULL is fine. */
void build_info_free(struct build_info *bi);

/* Check that BI's shared objects (BI->dir/lib) are what was built: the
 * digest of the tree (digest_tree) is BI->digest. Returns 0, or -1 with
 * err set ("build 'NAME' of image 'IMAGE' changed since it was built",
 * or why the tree cannot be read). */
int build_verify(const struct build_info *bi, bo_err *err);

/* Every build under STATE_DIR/builds, of the image IMAGE only when not
 * NULL, sorted by image then name, in a new array (builds_list_free).
 * Entries starting with '.' (builds under way) and directories without
 * a loadable build.json are skipped; no STATE/builds is no build.
 * Returns 0, or -1 with err set. */
int builds_list(const char *state_dir, const char *image,
		struct build_info ***ret, size_t *ret_n, bo_err *err);

/* Is there a directory STATE_DIR/builds/IMAGE/NAME whose build.json does
 * not load (builds_list skips it)? Returns 1 with err set to why
 * (build_load's message), or 0 when it loads or there is no such
 * directory. For the message where a name is not found among the
 * listed builds. */
int build_broken(const char *state_dir, const char *image, const char *name,
		 bo_err *err);

/* Call FN(IMAGE, NAME, WHY, ARG) for every directory under
 * STATE_DIR/builds (of IMAGE only, when not NULL) that builds_list skips
 * because its build.json does not load (WHY: build_load's message), in
 * directory order. Returns the count, or -1 with err set when
 * STATE_DIR/builds cannot be read. */
long builds_each_broken(const char *state_dir, const char *image,
			void (*fn)(const char *image, const char *name,
				   const char *why, void *arg),
			void *arg, bo_err *err);

/* Free the N builds of V (from builds_list) and V itself; NULL with N 0
 * is fine. */
void builds_list_free(struct build_info **v, size_t n);

/* Remove the build NAME of IMAGE: renamed away first (it disappears at
 * once), then deleted; STATE/builds/IMAGE goes too when it is left
 * empty. A build that does not exist: -1 with err "no build 'NAME' of
 * image 'IMAGE'" and *ret_missing 1 (else 0). Returns 0, or -1 with err
 * set. */
int build_remove(const char *state_dir, const char *image, const char *name,
		 int *ret_missing, bo_err *err);

/* Remove every build of IMAGE (STATE/builds/IMAGE, renamed away then
 * deleted), as `images remove` does with the image. Nothing to remove is
 * fine. Returns 0, or -1 with err set. */
int builds_remove_image(const char *state_dir, const char *image,
			bo_err *err);

/* A build under way lives in a directory STATE/builds/.tmp-PID-IMAGE-NAME-
 * XXXXXX, PID the building process's (decimal), until it is complete and
 * renamed to STATE/builds/IMAGE/NAME. */
#define BUILD_TMP_PREFIX ".tmp-"

/* Create the directory of a build of NAME in IMAGE by this process under
 * TOP (builds_dir_abs(), which must exist): TOP/.tmp-PID-IMAGE-NAME-XXXXXX,
 * mode 0700, PID getpid(). Returns its path, newly allocated (the caller
 * frees it and removes the directory), or NULL with err set. */
char *build_tmp_create(const char *top, const char *image, const char *name,
		       bo_err *err);

/* The process that owns the build directory named ENTRY (a name in
 * STATE/builds, not a path): the PID of ".tmp-PID-...", or 0 when ENTRY
 * is not such a name. */
long build_tmp_owner(const char *entry);

/* Remove the directories of builds under way whose process is gone (a
 * build killed with SIGKILL, or on a machine that went down): every
 * STATE_DIR/builds/.tmp-PID-* with no process PID (kill(PID, 0) fails
 * with ESRCH). Those of live processes, of this process, and any other
 * entry are left alone; no STATE/builds is nothing to do. *RET_REMOVED
 * (may be NULL) gets how many were removed. Returns 0, or -1 with err
 * set on the first that cannot be read or removed (the others are still
 * tried). */
int builds_clean_stale(const char *state_dir, size_t *ret_removed,
		       bo_err *err);

#endif
