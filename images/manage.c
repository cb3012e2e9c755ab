/* manage.c - the images that exist: find, list, remove, measure. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/builds.h"
#include "images/image.h"
#include "images/previous.h"
#include "images/recipe.h"
#include "images/store.h"

static int has_image(const char *dir)
{
	char *p = xasprintf("%s/%s", dir, IMAGE_JSON);
	int ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

int image_spec_name(const char *data_dir, const char *spec, char **ret_name,
		    bo_err *err)
{
	char *distro, *release;
	const struct recipe_release *rel;
	struct recipe *r;
	int rc = 0;

	if (image_spec_parse(spec, &distro, &release, err) < 0)
		return -1;
	if (!release && !recipe_exists(data_dir, distro)) {
		*ret_name = distro;
		return 0;
	}
	if (recipe_load(data_dir, distro, &r, err) < 0) {
		rc = -1;
	} else {
		rel = recipe_release_find(r, release ? release : r->default_release);
		if (rel)
			*ret_name = xasprintf("%s-%s", distro, rel->name);
		else
			rc = bo_err_set(err, "unknown release '%s' of distro '%s'",
					release ? release : r->default_release,
					distro);
		recipe_free(r);
	}
	free(distro);
	free(release);
	return rc;
}

int image_measured_name(const char *data_dir, const char *spec,
			const char *release, char **ret_name, bo_err *err)
{
	char *distro, *rel;

	if (image_spec_parse(spec, &distro, &rel, err) < 0)
		return -1;
	if (!rel && !recipe_exists(data_dir, distro)) {
		*ret_name = distro;	/* an image's own name */
		return 0;
	}
	/* a recipe's distro: the release the image had, not the recipe's
	 * default of today */
	*ret_name = xasprintf("%s-%s", distro, rel ? rel : release);
	free(distro);
	free(rel);
	return 0;
}

int image_spec_check(const char *data_dir, const char *state_dir,
		     const char *spec, bo_err *err)
{
	char *distro, *release, *images_dir, *dir, *known;
	int rc = 0;

	if (image_spec_parse(spec, &distro, &release, err) < 0)
		return -1;
	if (recipe_exists(data_dir, distro)) {
		struct recipe *r;

		/* the release too, before any work starts */
		if (recipe_load(data_dir, distro, &r, err) < 0) {
			rc = -1;
			goto out;
		}
		if (release && !recipe_release_find(r, release)) {
			char *names = recipe_release_names(r);

			rc = bo_err_set(err, "unknown release '%s' of distro '%s' (known: %s)",
					release, distro, names);
			free(names);
		}
		recipe_free(r);
		goto out;
	}
	if (!release) {
		images_dir = images_dir_abs(state_dir, err);
		if (!images_dir) {
			rc = -1;
			goto out;
		}
		dir = xasprintf("%s/%s", images_dir, distro);
		rc = has_image(dir) ? 0 : -1;
		free(dir);
		free(images_dir);
		if (rc == 0)
			goto out;
	}
	known = image_known_distros(data_dir);
	rc = bo_err_set(err, "unknown distro '%s' (known: %s; or an imported "
			"image's name)", distro, known && *known ? known :
			"none: no recipes found");
	free(known);
out:
	free(distro);
	free(release);
	return rc;
}

int image_find(const struct image_ctx *ctx, const char *name,
	       struct image **ret, bo_err *err)
{
	char *images_dir, *dir = NULL;
	int rc = -1;

	*ret = NULL;
	images_dir = images_dir_abs(ctx->state_dir, err);
	if (!images_dir)
		return -1;
	if (images_store_ready(images_dir, 0, err) < 0) {
		free(images_dir);
		return -1;
	}
	if (image_name_ok(name)) {	/* a directory name */
		dir = xasprintf("%s/%s", images_dir, name);
		if (!has_image(dir)) {
			free(dir);
			dir = NULL;
		}
	}
	if (!dir) {			/* a spec */
		char *distro, *release;
		struct recipe *r;
		bo_err e;

		if (image_spec_parse(name, &distro, &release, &e) == 0) {
			if (!release && recipe_load(ctx->data_dir, distro, &r,
						    &e) == 0) {
				release = xstrdup(r->default_release);
				recipe_free(r);
			}
			if (release)
				dir = xasprintf("%s/%s-%s", images_dir, distro,
						release);
			free(distro);
			free(release);
		}
		if (dir && !has_image(dir)) {
			free(dir);
			dir = NULL;
		}
	}
	if (!dir)
		bo_err_set(err, "no image '%s' in '%s'", name, images_dir);
	else
		rc = image_load(dir, ret, err);
	free(dir);
	free(images_dir);
	return rc;
}

static int cmp_img(const void *a, const void *b)
{
	return strcmp((*(struct image *const *)a)->name,
		      (*(struct image *const *)b)->name);
}

int image_list(const char *state_dir, struct image ***ret, size_t *ret_n,
	       bo_err *err)
{
	char *images_dir = images_dir_abs(state_dir, err);
	struct image **v = NULL;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	*ret = NULL;
	*ret_n = 0;
	if (!images_dir)
		return -1;
	if (images_store_ready(images_dir, 0, err) < 0) {
		free(images_dir);
		return -1;
	}
	d = opendir(images_dir);
	if (!d) {
		int e = errno;

		if (e == ENOENT) {
			free(images_dir);
			return 0;
		}
		bo_err_set(err, "cannot read '%s': %s", images_dir,
			   strerror(e));
		free(images_dir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		struct image *img;
		char *dir;
		bo_err e;

		if (de->d_name[0] == '.')
			continue;	/* ., .., .lock, .build-*, .old-* */
		dir = xasprintf("%s/%s", images_dir, de->d_name);
		if (has_image(dir) && image_load(dir, &img, &e) == 0) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = img;
		}
		free(dir);
	}
	closedir(d);
	free(images_dir);
	if (n)
		qsort(v, n, sizeof(*v), cmp_img);
	*ret = v;
	*ret_n = n;
	return 0;
}

void image_list_free(struct image **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		image_free(v[i]);
	free(v);
}

/* Rename DIR (the image NAME) away under IMAGES_DIR and delete it; the
 * caller holds the images lock. Returns 0, or -1 with err set. */
static int remove_locked(const char *images_dir, const char *name,
			 const char *dir, bo_err *err)
{
	char *old = xasprintf("%s/.old-%s-XXXXXX", images_dir, name);
	int rc = 0;

	if (!mkdtemp(old) || rename(dir, old) < 0) {
		rc = bo_err_set(err, "cannot remove image '%s': %s", name,
				strerror(errno));
		rmdir(old);
	} else if (bo_rm_rf(old, err) < 0) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		rc = bo_err_set(err, "image '%s' is unregistered but not all "
				"removed: %s", name, msg);
	}
	free(old);
	return rc;
}

int image_remove(const struct image_ctx *ctx, const struct image *img,
		 bo_err *err)
{
	char *images_dir = images_dir_abs(ctx->state_dir, err), *prev;
	struct stat st;
	int lockfd, rc;

	if (!images_dir)
		return -1;
	if (images_store_ready(images_dir, 0, err) < 0) {
		free(images_dir);
		return -1;
	}
	lockfd = images_lock(ctx, images_dir, err);
	if (lockfd < 0) {
		free(images_dir);
		return -1;
	}
	rc = remove_locked(images_dir, img->name, img->dir, err);
	/* an image goes with the previous kept beside it */
	prev = xasprintf("%s%s", img->dir, IMAGE_PREVIOUS_SUFFIX);
	if (rc == 0 && !img->previous && lstat(prev, &st) == 0) {
		char *name = xasprintf("%s%s", img->name,
				       IMAGE_PREVIOUS_SUFFIX);

		rc = remove_locked(images_dir, name, prev, err);
		free(name);
	}
	free(prev);
	/* and with its builds (images/builds.h) */
	if (rc == 0 && !img->previous)
		rc = builds_remove_image(ctx->state_dir, img->name, err);
	close(lockfd);
	free(images_dir);
	return rc;
}

/* Inodes of regular files already counted (hard links count once). */
struct seen {
	struct { dev_t dev; ino_t ino; } *v;
	size_t n, cap;
};

static int seen_add(struct seen *s, const struct stat *st)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].dev == st->st_dev && s->v[i].ino == st->st_ino)
			return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n].dev = st->st_dev;
	s->v[s->n].ino = st->st_ino;
	s->n++;
	return 1;
}

static int size_walk(int dfd, const char *shown, struct seen *seen,
		     unsigned long long *total, bo_err *err)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = bo_err_set(err, "cannot read '%s': %s", shown,
				strerror(errno));
		close(dfd);
		return rc;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) < 0)
			continue;	/* vanished */
		if (S_ISREG(st.st_mode) && st.st_nlink > 1 &&
		    !seen_add(seen, &st))
			continue;
		*total += (unsigned long long)st.st_size;
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), de->d_name, O_RDONLY |
					 O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0)
				continue;
			rc = size_walk(sub, shown, seen, total, err);
		}
	}
	closedir(d);
	return rc;
}

int image_rootfs_size(const char *rootfs, unsigned long long *ret_bytes,
		      bo_err *err)
{
	struct seen seen = { 0 };
	int fd = open(rootfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	*ret_bytes = 0;
	if (fd < 0)
		return bo_err_set(err, "cannot open '%s': %s", rootfs,
				  strerror(errno));
	rc = size_walk(fd, rootfs, &seen, ret_bytes, err);
	free(seen.v);
	return rc;
}
