/* cmd-rebuild.c - `benchorch rebuild`: build a library from its
 * distribution's source package with another compiler or flags, and
 * list or remove such builds. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images/builds.h"
#include "images/image.h"
#include "lib/paths.h"
#include "orchestrator/cli/cli.h"
#include "orchestrator/rebuild/rebuild.h"

static const char usage[] =
"Usage: benchorch rebuild IMAGE LIBRARY --name NAME [--cc COMPILER]\n"
"                         [--cflags FLAGS] [--quiet]\n"
"       benchorch rebuild --list [IMAGE] [--format FORMAT]\n"
"       benchorch rebuild --remove IMAGE NAME\n"
"\n"
"Build LIBRARY (a name the guest knows: openssl, nettle, libsodium,\n"
"libgcrypt, ...) from the distribution's own source package, in a\n"
"throwaway copy of the image IMAGE (an overlay: the image is never\n"
"written), under systemd-nspawn: the release's source archive enabled,\n"
"the build dependencies and the compiler installed, the package built\n"
"with its own build system and the packaging's flags, FLAGS replacing\n"
"its optimisation flags (-O*). Only the shared objects of the library's\n"
"runtime package are kept (e.g. libhogweed beside libnettle), in\n"
"STATE/builds/IMAGE/NAME/lib, with build.json (source package and\n"
"version, compiler and its version, effective CFLAGS, build time,\n"
"digest of the files) and build.log. Debian and Ubuntu images only;\n"
"the container needs the network to reach the archive.\n"
"\n"
"Options:\n";

static const char epilog[] =
"\n"
"One progress line per step goes to stderr. A failed or interrupted\n"
"build leaves nothing under STATE/builds; its error names what failed\n"
"and quotes the last lines of the build log; the temporary directory of\n"
"a build killed with SIGKILL is removed by the next rebuild or --list.\n"
"--list --format csv|json shows every field of build.json but its list\n"
"of files. 'images remove' removes an image's builds with it.\n"
"\n"
"Exit status: 0 success; 1 the build failed; 2 usage error, unknown image\n"
"or library, an image with no source archive (not Debian or Ubuntu), a\n"
"compiler the release does not ship, a build NAME that exists already;\n"
"3 not root (a build); 130/143 interrupted.\n";

/* --format as given: the format, and whether it was given at all (only
 * --list takes it). */
struct format_opt {
	enum format fmt;
	int set;
};

struct rebuild_opts {
	struct cli_paths paths;	/* first: cli_parse reads it */
	const char *name;
	const char *cc;
	const char *cflags;
	int list;
	int remove;
	int quiet;
	struct format_opt format;	/* --list */
};

static void init(void *vo)
{
	struct rebuild_opts *o = vo;

	o->format.fmt = FORMAT_TABLE;
}

/* --format FORMAT: table, csv or json (cli_parse_format), into the
 * struct format_opt at DEST. */
static int parse_format(const char *arg, void *dest, bo_err *err)
{
	struct format_opt *f = dest;

	f->set = 1;
	return cli_parse_format(arg, &f->fmt, err);
}

static const struct opt_def options[] = {
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .name = "name", .kind = OPT_STRING, .arg = "NAME",
	  .offset = offsetof(struct rebuild_opts, name),
	  .help = "the build's name, its directory (required)" },
	{ .name = "cc", .kind = OPT_STRING, .arg = "COMPILER",
	  .offset = offsetof(struct rebuild_opts, cc),
	  .help = "gcc, clang, gcc-N or clang-N, as the release\n"
		  "ships it (default: gcc)" },
	{ .name = "cflags", .kind = OPT_STRING, .arg = "FLAGS",
	  .offset = offsetof(struct rebuild_opts, cflags),
	  .help = "replace the packaging's optimisation flags\n"
		  "(default: keep them)" },
	{ .name = "list", .kind = OPT_FLAG,
	  .offset = offsetof(struct rebuild_opts, list),
	  .help = "list the builds (of IMAGE only, when given)" },
	{ .name = "remove", .kind = OPT_FLAG,
	  .offset = offsetof(struct rebuild_opts, remove),
	  .help = "remove the build NAME of IMAGE" },
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct rebuild_opts, format), .parse = parse_format,
	  .help = "table, csv or json (--list; default: table)" },
	{ .name = "quiet", .short_name = 'q', .kind = OPT_FLAG,
	  .offset = offsetof(struct rebuild_opts, quiet),
	  .help = "no progress lines" },
	{ .kind = OPT_END },
};

/* builds_each_broken's callback: one warning per build --list leaves
 * out. */
static void warn_broken(const char *image, const char *name, const char *why,
			void *arg)
{
	(void)arg;
	cli_warn("build '%s' of image '%s' is not listed: %s (`benchorch rebuild --remove %s %s` removes it)",
		 name, image, why, image, name);
}

static int do_list(const struct cmd_ctx *ctx, const struct rebuild_opts *o,
		   int argc, char **argv)
{
	struct build_info **v;
	sqlite3_stmt *st;
	size_t n, i;
	sqlite3 *db;
	bo_err err;
	int rc;

	if (argc > 1)
		return cli_usage_error("rebuild", "unexpected argument '%s'",
				       argv[1]);
	/* builds killed with SIGKILL: their directories are removed */
	if (builds_clean_stale(ctx->state_dir, NULL, &err) < 0)
		cli_warn("%s", err.msg);
	if (builds_list(ctx->state_dir, argc ? argv[0] : NULL, &v, &n,
			&err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	db = cli_scratch_db("CREATE TABLE t (image, name, library, package, "
			    "source, version, cc, cc_version, flags, cflags, "
			    "created_at, build_seconds REAL, digest)");
	if (!db || sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?,?,?,?,?,?,"
				      "?,?,?,?,?,?,?)", -1, &st,
				      NULL) != SQLITE_OK) {
		cli_error("cannot format output: out of memory");
		sqlite3_close(db);
		builds_list_free(v, n);
		return EXIT_FAILED;
	}
	for (i = 0; i < n; i++) {
		cli_bind_text(st, 1, v[i]->image);
		cli_bind_text(st, 2, v[i]->name);
		cli_bind_text(st, 3, v[i]->library);
		cli_bind_text(st, 4, v[i]->package);
		cli_bind_text(st, 5, v[i]->source);
		cli_bind_text(st, 6, v[i]->version);
		cli_bind_text(st, 7, v[i]->cc);
		cli_bind_text(st, 8, v[i]->cc_version);
		cli_bind_text(st, 9, v[i]->flags);
		cli_bind_text(st, 10, v[i]->cflags);
		cli_bind_text(st, 11, v[i]->created_at);
		sqlite3_bind_double(st, 12, v[i]->build_seconds);
		cli_bind_text(st, 13, v[i]->digest);
		if (cli_insert_row(db, st) < 0)
			break;
	}
	sqlite3_finalize(st);
	/* the table fits a terminal; csv and json have every field but the
	 * files */
	rc = i < n ? EXIT_FAILED :
	     cli_print_query(db, o->format.fmt == FORMAT_TABLE ?
			     "SELECT image, name, library, version, cc, flags, "
			     "created_at FROM t ORDER BY image, name" :
			     "SELECT * FROM t ORDER BY image, name",
			     o->format.fmt);
	sqlite3_close(db);
	builds_list_free(v, n);
	if (builds_each_broken(ctx->state_dir, argc ? argv[0] : NULL,
			       warn_broken, NULL, &err) < 0)
		cli_warn("%s", err.msg);
	return rc;
}

static int do_remove(const struct cmd_ctx *ctx, int argc, char **argv)
{
	int missing;
	bo_err err;

	if (argc != 2)
		return cli_usage_error("rebuild", "--remove needs IMAGE and "
				       "NAME");
	if (build_remove(ctx->state_dir, argv[0], argv[1], &missing,
			 &err) < 0) {
		if (missing)
			return cli_usage_error("rebuild", "%s", err.msg);
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	printf("removed %s/%s\n", argv[0], argv[1]);
	return EXIT_OK;
}

/* The status of a build that failed as FAIL says. */
static int fail_status(enum rebuild_fail fail)
{
	if (fail == REBUILD_INTERRUPTED || bo_interrupted)
		return cli_interrupted_status(bo_interrupted);
	return fail == REBUILD_BAD_INPUT ? EXIT_USAGE : EXIT_FAILED;
}

static int do_build(const struct cmd_ctx *ctx, const struct rebuild_opts *o,
		    int argc, char **argv)
{
	struct image_ctx ictx = { .state_dir = ctx->state_dir };
	struct rebuild_req req = { .state_dir = ctx->state_dir };
	struct build_info *bi;
	enum rebuild_fail fail;
	struct image *img;
	const char *ccpkg;
	char *tail;
	bo_err err;
	int rc;

	if (argc != 2)
		return cli_usage_error("rebuild", "needs IMAGE and LIBRARY");
	if (!o->name)
		return cli_usage_error("rebuild", "--name NAME is needed");
	if (build_name_check(o->name, &err) < 0 ||
	    rebuild_cc_check(o->cc ? o->cc : "gcc", &ccpkg, &err) < 0)
		return cli_usage_error("rebuild", "%s", err.msg);
	/* before the image store, which a user may not read either */
	if (geteuid() != 0) {
		cli_error("'rebuild' must be run as root: it starts a "
			  "container");
		return EXIT_ENV;
	}
	ictx.data_dir = paths_data_dir();
	rc = image_find(&ictx, argv[0], &img, &err);
	free((char *)ictx.data_dir);
	if (rc < 0)
		return cli_usage_error("rebuild", "%s", err.msg);
	if (rebuild_image_check(img, &err) < 0) {
		rc = cli_usage_error("rebuild", "%s", err.msg);
		goto out;
	}
	if (!image_library_package(img, argv[1])) {
		char *known = NULL;
		size_t i;

		for (i = 0; i < img->nlibpkgs; i++) {
			char *k = xasprintf("%s%s%s", known ? known : "",
					    known ? ", " : "",
					    img->libpkgs[i].library);
			free(known);
			known = k;
		}
		rc = cli_usage_error("rebuild", "unknown library '%s' in image "
				     "'%s' (known: %s)", argv[1], img->name,
				     known ? known : "none");
		free(known);
		goto out;
	}
	req.img = img;
	req.library = argv[1];
	req.name = o->name;
	req.cc = o->cc ? o->cc : "gcc";
	req.flags = o->cflags ? o->cflags : "";
	req.progress = !o->quiet;
	/* SIGINT, SIGTERM, SIGHUP stop the container and remove the build's
	 * directory (without a handler they would kill benchorch at once
	 * and leave the directory; ignored, as in a background job of a
	 * shell without job control, they would do nothing) */
	bo_signals_install();
	if (rebuild_run(&req, &bi, &fail, &tail, &err) < 0) {
		cli_error("%s", err.msg);
		if (tail)
			fprintf(stderr, "%s\n", tail);
		free(tail);
		rc = fail_status(fail);
		goto out;
	}
	printf("built %s/%s: %s %s with %s, CFLAGS %s, in %.0f s\n",
	       bi->image, bi->name, bi->source, bi->version, bi->cc,
	       bi->cflags, bi->build_seconds);
	build_info_free(bi);
	rc = EXIT_OK;
out:
	image_free(img);
	return rc;
}

static int cmd_rebuild(const struct cmd_ctx *ctx, void *opts, int argc,
		       char **argv)
{
	const struct rebuild_opts *o = opts;

	if (o->list + o->remove > 1)
		return cli_usage_error("rebuild", "--list and --remove "
				       "exclude each other");
	if ((o->list || o->remove) && (o->name || o->cflags || o->cc))
		return cli_usage_error("rebuild", "--%s takes no --name, --cc "
				       "or --cflags", o->list ? "list" : "remove");
	if (o->format.set && !o->list)
		return cli_usage_error("rebuild", "--format goes with --list");
	if (o->list)
		return do_list(ctx, o, argc, argv);
	if (o->remove)
		return do_remove(ctx, argc, argv);
	return do_build(ctx, o, argc, argv);
}

const struct cmd_entry cmd_rebuild_entry = {
	.name = "rebuild",
	.summary = "build a library from source with another compiler or flags",
	.usage = usage,
	.options = options,
	.epilog = epilog,
	.opts_size = sizeof(struct rebuild_opts),
	.init = init,
	.max_args = 2,
	.run = cmd_rebuild,
};
