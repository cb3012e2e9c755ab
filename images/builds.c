/* builds.c - the store of rebuilt libraries (STATE/builds/IMAGE/NAME):
 * their recipes read and written, listed, removed. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "images/builds.h"
#include "images/digest.h"
#include "images/recipe.h"

char *builds_dir_abs(const char *state_dir, bo_err *err)
{
	char *cwd, *out;

	if (state_dir[0] == '/')
		return xasprintf("%s/builds", state_dir);
	cwd = getcwd(NULL, 0);
	if (!cwd) {
		bo_err_set(err, "cannot get the current directory: %s",
			   strerror(errno));
		return NULL;
	}
	out = xasprintf("%s/%s/builds", cwd, state_dir);
	free(cwd);
	return out;
}

int build_name_check(const char *name, bo_err *err)
{
	bo_err why;

	if (image_name_check(name, &why) < 0)
		return bo_err_set(err, "invalid build name '%s': it %s",
				  name ? name : "", why.msg);
	/* run --builds names the distribution's own libraries so */
	if (strcmp(name, "shipped") == 0)
		return bo_err_set(err, "invalid build name 'shipped': it names "
				  "the libraries the distribution ships");
	return 0;
}

/* The string fields of struct build_info with their JSON keys. */
#define BUILD_FIELDS(X) \
	X(image) X(name) X(library) X(package) X(source) X(version) X(cc) \
	X(cc_version) X(cc_package_version) X(flags) X(cflags) \
	X(created_at) X(digest)

int build_json_write(const struct build_info *bi, const char *path,
		     bo_err *err)
{
	json_t *root = json_object(), *files = json_array();
	char *text, *withnl;
	size_t i, len;
	int rc;

	if (!root || !files) {
		json_decref(root);
		json_decref(files);
		return bo_err_set(err, "out of memory writing '%s'", path);
	}
#define SET(f) json_object_set_new(root, #f, json_string(bi->f ? bi->f : ""));
	BUILD_FIELDS(SET)
#undef SET
	json_object_set_new(root, "build_seconds", json_real(bi->build_seconds));
	for (i = 0; i < bi->nfiles; i++)
		json_array_append_new(files, json_string(bi->files[i]));
	json_object_set_new(root, "files", files);
	json_object_set_new(root, "log", json_string(BUILD_LOG));
	text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS |
			  JSON_REAL_PRECISION(6));
	json_decref(root);
	if (!text)
		return bo_err_set(err, "cannot encode '%s' (invalid UTF-8 in "
				  "a compiler's version or the flags?)", path);
	len = strlen(text);
	withnl = xasprintf("%s\n", text);
	free(text);
	rc = bo_write_file_atomic(path, withnl, len + 1, err);
	free(withnl);
	return rc;
}

int build_load(const char *dir, struct build_info **ret, bo_err *err)
{
	char *path = xasprintf("%s/%s", dir, BUILD_JSON);
	struct build_info *bi;
	json_error_t jerr;
	json_t *root, *v;
	size_t i;

	*ret = NULL;
	root = json_load_file(path, 0, &jerr);
	if (!root || !json_is_object(root)) {
		bo_err_set(err, "invalid build recipe '%s': %s", path,
			   root ? "not a JSON object" : jerr.text);
		json_decref(root);
		free(path);
		return -1;
	}
	bi = xcalloc(1, sizeof(*bi));
	bi->dir = xstrdup(dir);
#define GET(f) \
	v = json_object_get(root, #f); \
	if (!json_is_string(v)) \
		goto bad; \
	bi->f = xstrdup(json_string_value(v));
	BUILD_FIELDS(GET)
#undef GET
	v = json_object_get(root, "build_seconds");
	if (!json_is_number(v))
		goto bad;
	bi->build_seconds = json_number_value(v);
	v = json_object_get(root, "files");
	if (!json_is_array(v))
		goto bad;
	bi->files = xcalloc(json_array_size(v) + 1, sizeof(*bi->files));
	for (i = 0; i < json_array_size(v); i++) {
		json_t *f = json_array_get(v, i);

		if (!json_is_string(f))
			goto bad;
		bi->files[bi->nfiles++] = xstrdup(json_string_value(f));
	}
	json_decref(root);
	free(path);
	*ret = bi;
	return 0;
bad:
	bo_err_set(err, "invalid build recipe '%s': a field is missing or "
		   "of the wrong type", path);
	json_decref(root);
	free(path);
	build_info_free(bi);
	return -1;
}

void build_info_free(struct build_info *bi)
{
	size_t i;

	if (!bi)
		return;
#define FREE(f) free(bi->f);
	BUILD_FIELDS(FREE)
#undef FREE
	for (i = 0; i < bi->nfiles; i++)
		free(bi->files[i]);
	free(bi->files);
	free(bi->dir);
	free(bi);
}

/* Call FN(IMAGE, NAME, DIR, ARG) for every build directory DIR =
 * STATE_DIR/builds/IMAGE/NAME (of IMAGE only when ONLY is not NULL),
 * entries starting with '.' left out, in directory order. Returns 0 (no
 * STATE/builds is none), or -1 with err set. */
static int each_build_dir(const char *state_dir, const char *only,
			  void (*fn)(const char *image, const char *name,
				     const char *dir, void *arg),
			  void *arg, bo_err *err)
{
	char *top = builds_dir_abs(state_dir, err);
	struct dirent *de, *be;
	DIR *d, *bd;

	if (!top)
		return -1;
	d = opendir(top);
	if (!d) {
		int e = errno;

		if (e != ENOENT)
			bo_err_set(err, "cannot read '%s': %s", top,
				   strerror(e));
		free(top);
		return e == ENOENT ? 0 : -1;
	}
	while ((de = readdir(d)) != NULL) {
		char *idir;

		if (de->d_name[0] == '.' ||
		    (only && strcmp(only, de->d_name) != 0))
			continue;
		idir = xasprintf("%s/%s", top, de->d_name);
		bd = opendir(idir);
		while (bd && (be = readdir(bd)) != NULL) {
			char *dir;

			if (be->d_name[0] == '.')
				continue;
			dir = xasprintf("%s/%s", idir, be->d_name);
			fn(de->d_name, be->d_name, dir, arg);
			free(dir);
		}
		if (bd)
			closedir(bd);
		free(idir);
	}
	closedir(d);
	free(top);
	return 0;
}

/* builds_list's growing array. */
struct build_vec {
	struct build_info **v;
	size_t n;
};

/* each_build_dir's callback for builds_list: append the build in DIR
 * when its build.json loads. */
static void add_build(const char *image, const char *name, const char *dir,
		      void *arg)
{
	struct build_vec *bv = arg;
	struct build_info *bi;
	bo_err e;

	(void)image;
	(void)name;
	if (build_load(dir, &bi, &e) == 0) {
		bv->v = xrealloc(bv->v, (bv->n + 1) * sizeof(*bv->v));
		bv->v[bv->n++] = bi;
	}
}

static int cmp_build(const void *a, const void *b)
{
	const struct build_info *x = *(struct build_info *const *)a;
	const struct build_info *y = *(struct build_info *const *)b;
	int c = strcmp(x->dir, y->dir);

	return c;
}

int builds_list(const char *state_dir, const char *image,
		struct build_info ***ret, size_t *ret_n, bo_err *err)
{
	struct build_vec bv = { NULL, 0 };

	*ret = NULL;
	*ret_n = 0;
	if (each_build_dir(state_dir, image, add_build, &bv, err) < 0) {
		builds_list_free(bv.v, bv.n);
		return -1;
	}
	if (bv.n)
		qsort(bv.v, bv.n, sizeof(*bv.v), cmp_build);
	*ret = bv.v;
	*ret_n = bv.n;
	return 0;
}

int build_broken(const char *state_dir, const char *image, const char *name,
		 bo_err *err)
{
	char *top = builds_dir_abs(state_dir, err), *dir;
	struct build_info *bi = NULL;
	struct stat sb;
	int broken = 0;

	if (!top)
		return 0;
	dir = xasprintf("%s/%s/%s", top, image, name);
	if (name[0] != '.' && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	    build_load(dir, &bi, err) < 0)
		broken = 1;
	build_info_free(bi);
	free(dir);
	free(top);
	return broken;
}

/* builds_each_broken's state. */
struct broken_walk {
	void (*fn)(const char *image, const char *name, const char *why,
		   void *arg);
	void *arg;
	long count;
};

/* each_build_dir's callback for builds_each_broken. */
static void report_broken(const char *image, const char *name,
			  const char *dir, void *arg)
{
	struct broken_walk *w = arg;
	struct build_info *bi = NULL;
	bo_err why;

	if (build_load(dir, &bi, &why) < 0) {
		w->fn(image, name, why.msg, w->arg);
		w->count++;
	}
	build_info_free(bi);
}

long builds_each_broken(const char *state_dir, const char *image,
			void (*fn)(const char *image, const char *name,
				   const char *why, void *arg),
			void *arg, bo_err *err)
{
	struct broken_walk w = { fn, arg, 0 };

	if (each_build_dir(state_dir, image, report_broken, &w, err) < 0)
		return -1;
	return w.count;
}

void builds_list_free(struct build_info **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		build_info_free(v[i]);
	free(v);
}

/* Rename DIR away into TOP (STATE/builds) and delete it; WHAT names it
 * in messages. Returns 0, or -1 with err set. */
static int remove_dir(const char *top, const char *dir, const char *what,
		      bo_err *err)
{
	char *old = xasprintf("%s/.old-XXXXXX", top);
	int rc = 0;

	if (!mkdtemp(old) || rename(dir, old) < 0) {
		rc = bo_err_set(err, "cannot remove %s: %s", what,
				strerror(errno));
		rmdir(old);
	} else if (bo_rm_rf(old, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		rc = bo_err_set(err, "%s is gone but not all removed: %s",
				what, msg);
	}
	free(old);
	return rc;
}

int build_remove(const char *state_dir, const char *image, const char *name,
		 int *ret_missing, bo_err *err)
{
	char *top = builds_dir_abs(state_dir, err), *dir, *idir, *what;
	struct stat st;
	int rc;

	*ret_missing = 0;
	if (!top)
		return -1;
	idir = xasprintf("%s/%s", top, image);
	dir = xasprintf("%s/%s", idir, name);
	what = xasprintf("build '%s' of image '%s'", name, image);
	if (image_name_ok(image) == 0 || image_name_ok(name) == 0 ||
	    lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		*ret_missing = 1;
		rc = bo_err_set(err, "no build '%s' of image '%s'", name, image);
	} else {
		rc = remove_dir(top, dir, what, err);
		if (rc == 0)
			(void)rmdir(idir);	/* only when left empty */
	}
	free(what);
	free(dir);
	free(idir);
	free(top);
	return rc;
}

int builds_remove_image(const char *state_dir, const char *image,
			bo_err *err)
{
	char *top = builds_dir_abs(state_dir, err), *dir, *what;
	struct stat st;
	int rc = 0;

	if (!top)
		return -1;
	dir = xasprintf("%s/%s", top, image);
	if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		what = xasprintf("the builds of image '%s'", image);
		rc = remove_dir(top, dir, what, err);
		free(what);
	}
	free(dir);
	free(top);
	return rc;
}

char *build_tmp_create(const char *top, const char *image, const char *name,
		       bo_err *err)
{
	char *tmp = xasprintf("%s/" BUILD_TMP_PREFIX "%ld-%s-%s-XXXXXX", top,
			      (long)getpid(), image, name);

	if (!mkdtemp(tmp)) {
		bo_err_set(err, "cannot create a directory in '%s': %s", top,
			   strerror(errno));
		free(tmp);
		return NULL;
	}
	return tmp;
}

long build_tmp_owner(const char *entry)
{
	const char *p = entry + strlen(BUILD_TMP_PREFIX);
	long pid = 0;

	if (strncmp(entry, BUILD_TMP_PREFIX, strlen(BUILD_TMP_PREFIX)) != 0)
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (pid > 99999999)
			return 0;	/* no such pid (pid_max <= 2^22) */
		pid = pid * 10 + (*p - '0');
	}
	return *p == '-' ? pid : 0;
}

int builds_clean_stale(const char *state_dir, size_t *ret_removed,
		       bo_err *err)
{
	char *top = builds_dir_abs(state_dir, err);
	struct dirent *de;
	size_t removed = 0;
	int rc = 0;
	DIR *d;

	if (ret_removed)
		*ret_removed = 0;
	if (!top)
		return -1;
	d = opendir(top);
	if (!d) {
		if (errno != ENOENT)
			rc = bo_err_set(err, "cannot read '%s': %s", top,
					strerror(errno));
		free(top);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		long pid = build_tmp_owner(de->d_name);
		char *dir;
		bo_err e;

		if (pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		dir = xasprintf("%s/%s", top, de->d_name);
		if (bo_rm_rf(dir, &e) == 0)
			removed++;
		else if (rc == 0)
			rc = bo_err_set(err, "cannot remove the unfinished "
					"build '%s': %s", dir, e.msg);
		free(dir);
	}
	closedir(d);
	free(top);
	if (ret_removed)
		*ret_removed = removed;
	return rc;
}

int build_verify(const struct build_info *bi, bo_err *err)
{
	char digest[DIGEST_STR_LEN], *lib = xasprintf("%s/%s", bi->dir,
						      BUILD_LIBDIR);
	int rc = digest_tree(lib, digest, sizeof(digest), err);

	free(lib);
	if (rc < 0)
		return -1;
	if (strcmp(digest, bi->digest) != 0)
		return bo_err_set(err, "build '%s' of image '%s' changed since "
				  "it was built (its files' digest is not the "
				  "one in its build.json): remove it and "
				  "rebuild", bi->name, bi->image);
	return 0;
}
