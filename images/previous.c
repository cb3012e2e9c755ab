/* previous.c - the previous version of an image kept after a rebuild. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/previous.h"
#include "images/store.h"

int image_packages_differ(const struct image *a, const struct image *b)
{
	size_t i;

	if (a->npackages != b->npackages)
		return 1;
	for (i = 0; i < a->npackages; i++)
		if (strcmp(a->packages[i].name, b->packages[i].name) != 0 ||
		    strcmp(a->packages[i].version, b->packages[i].version) != 0)
			return 1;
	return 0;
}

int image_previous_keep(const char *images_dir, const char *name,
			const char *old_dir, bo_err *err)
{
	char *dst = xasprintf("%s/%s%s", images_dir, name,
			      IMAGE_PREVIOUS_SUFFIX);
	char *gone = NULL;
	struct stat st;
	int rc = 0;

	if (lstat(dst, &st) == 0) {
		/* never more than one previous: the older one goes */
		gone = xasprintf("%s/.old-%s%s-XXXXXX", images_dir, name,
				 IMAGE_PREVIOUS_SUFFIX);
		if (!mkdtemp(gone) || rename(dst, gone) < 0) {
			rc = bo_err_set(err, "cannot move the previous image "
					"'%s' away: %s", dst, strerror(errno));
			rmdir(gone);
			goto out;
		}
	}
	if (rename(old_dir, dst) < 0) {
		rc = bo_err_set(err, "cannot keep '%s' as '%s': %s", old_dir,
				dst, strerror(errno));
		goto out;
	}
	if (gone) {
		bo_err e;

		/* a leftover .old-* is removed by the next build if this
		 * fails */
		(void)bo_rm_rf(gone, &e);
	}
out:
	free(gone);
	free(dst);
	return rc;
}

int image_previous_find(const struct image *img, struct image **ret,
			bo_err *err)
{
	char *dir = xasprintf("%s%s", img->dir, IMAGE_PREVIOUS_SUFFIX);
	char *json = xasprintf("%s/image.json", dir);
	int rc = 0;

	*ret = NULL;
	if (access(json, F_OK) == 0)
		rc = image_load(dir, ret, err);
	free(json);
	free(dir);
	return rc;
}
