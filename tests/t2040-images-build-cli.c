/* t2040-images-build-cli - a tiny driver around image_ensure() for the
 * integration tests (not the benchorch CLI).
 *
 *   t2040-images-build-cli STATE DATA SPEC [--refresh] [--mirror=URL]
 *
 * Prints key=value lines describing the image on stdout and exits 0, or
 * prints "error: MESSAGE" on stderr and exits 1. Progress goes to stderr.
 * SIGINT/SIGTERM interrupt a build (bo_signals_install). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "images/image.h"

int main(int argc, char **argv)
{
	struct image_ctx ctx = { 0 };
	struct image *img = NULL;
	bo_err err;
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: %s STATE DATA SPEC [--refresh] "
			"[--mirror=URL]\n", argv[0]);
		return 2;
	}
	ctx.state_dir = argv[1];
	ctx.data_dir = argv[2];
	ctx.progress = 1;
	for (i = 4; i < argc; i++) {
		if (strcmp(argv[i], "--refresh") == 0)
			ctx.refresh = 1;
		else if (strncmp(argv[i], "--mirror=", 9) == 0)
			ctx.mirror = argv[i] + 9;
		else {
			fprintf(stderr, "unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	bo_signals_install();
	if (image_ensure(&ctx, argv[3], &img, &err) < 0) {
		fprintf(stderr, "error: %s\n", err.msg);
		return 1;
	}
	printf("name=%s\ndistro=%s\nrelease=%s\ndir=%s\nrootfs=%s\n"
	       "digest=%s\ncreated_at=%s\nmethod=%s\npackages=%zu\n"
	       "libpkgs=%zu\n", img->name, img->distro, img->release, img->dir,
	       img->rootfs, img->digest, img->created_at, img->method,
	       img->npackages, img->nlibpkgs);
	for (i = 0; i < (int)img->nlibpkgs; i++) {
		const char *pkg = img->libpkgs[i].package;
		const char *ver = image_package_version(img, pkg);

		printf("lib.%s=%s %s\n", img->libpkgs[i].library, pkg,
		       ver ? ver : "?");
	}
	image_free(img);
	return 0;
}
