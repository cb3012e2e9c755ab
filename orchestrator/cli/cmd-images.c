/* cmd-images.c - `benchorch images list|build|import|show|remove`: manage
 * the cached root filesystem images. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "images/image.h"
#include "orchestrator/cli/cli.h"
#include "lib/format.h"
#include "lib/paths.h"
#include "orchestrator/run/request-check.h"

static const char usage[] =
"Usage: benchorch images list [--format FORMAT]\n"
"       benchorch images build SPEC [--refresh] [--mirror URL]\n"
"                             [--from FILE [--digests FILE]] [--keyring FILE]\n"
"                             [--no-verify] [--quiet]\n"
"       benchorch images import NAME FILE [--refresh] [--quiet]\n"
"       benchorch images show NAME [--format FORMAT]\n"
"       benchorch images remove NAME\n"
"\n"
"Manage the root filesystem images under STATE/images. Options (--state-dir\n"
"with every subcommand) may come before or after the subcommand:\n"
"'images --state-dir DIR list' is 'images list --state-dir DIR'.\n"
"\n"
"  list     every image: name, distro, release, method, creation time,\n"
"           digest, verification (the table cuts the digest to 12 hex\n"
"           digits and counts a keyring's keys; --format csv|json and\n"
"           'images show' give them whole)\n"
"  build    build SPEC (NAME[:RELEASE], e.g. debian:trixie, ubuntu:noble,\n"
"           gentoo, alpine:3.20) unless it is cached; --refresh rebuilds\n"
"  import   turn any root filesystem tarball (tar, tar.gz, tar.xz, tar.zst,\n"
"           ...) into the image NAME, runnable with 'run --distros NAME'\n"
"  show     an image's crypto library packages and versions, size,\n"
"           creation time, digest and verification\n"
"  remove   delete an image\n"
"\n"
"Options:\n"
"      --state-dir DIR    images live in DIR/images (default:\n"
"                         $BENCHORCH_STATE_DIR or /var/lib/benchorch)\n"
"      --format FORMAT    table, csv or json (list, show; default: table)\n"
"      --refresh          rebuild (build) or replace (import) an image\n"
"      --mirror URL       package mirror or tarball site (build)\n"
"      --from FILE        a local tarball instead of downloading (gentoo,\n"
"                         alpine); its checksum file is expected next to it\n"
"      --digests FILE     the checksum file for --from (Gentoo DIGESTS,\n"
"                         Alpine .sha256)\n"
"      --keyring FILE     tarballs: also verify the PGP signature with gpgv;\n"
"                         debian, ubuntu: the only archive keyring trusted,\n"
"                         instead of the recipe's (e.g. an Ubuntu keyring on\n"
"                         Debian); its keys are recorded with the image\n"
"      --no-verify        skip checksum verification (recorded on the image)\n"
"  -q, --quiet            no progress lines on stderr (build, import)\n"
"  -h, --help             show this help\n"
"\n"
"Tarballs are unpacked refusing absolute paths, '..', writes through\n"
"symlinks, hard links out of the image, device nodes, FIFOs and sockets\n"
"(the whole archive is refused). A build or import happens in a temporary\n"
"directory renamed into place on success. Its progress goes to stderr, one\n"
"line per step, on a terminal or not.\n"
"\n"
"Exit status: 0 success; 1 the build, import or removal failed; 2 usage\n"
"error, no such image, or an input FILE (import FILE, --from, --digests,\n"
"--keyring) that cannot be read; 3 not root (build, import); 130/143\n"
"interrupted.\n";

/* --format as given: the format, and whether it was given at all (a
 * subcommand that takes none refuses even "--format table"). */
struct format_opt {
	enum format fmt;
	int set;
};

struct opts {
	struct cli_paths paths;	/* --state-dir (cli_state_options) */
	struct image_ctx ctx;	/* --refresh, --mirror, --from, ... */
	struct format_opt format;
	int quiet;
	char *state_dir;
	char *data_dir;
	const struct images_sub *sub;
	char **args;		/* positional arguments after the subcommand */
	int nargs;
};

/* --format FORMAT: table, csv or json (format_parse). */
static int parse_format(const char *arg, void *dest, bo_err *err)
{
	struct format_opt *f = dest;

	f->set = 1;
	return format_parse(arg, &f->fmt, err);
}

/* --mirror URL: checked as run checks it (request_check_mirror). */
static int parse_mirror(const char *arg, void *dest, bo_err *err)
{
	if (request_check_mirror(arg, "--mirror", err) < 0)
		return -1;
	*(const char **)dest = arg;
	return 0;
}

/* The option rows, each shared by the subcommands that take it. */
static const struct opt_def format_rows[] = {	/* list, show */
	{ .name = "format", .kind = OPT_VALUE, .arg = "FORMAT",
	  .offset = offsetof(struct opts, format), .parse = parse_format },
	{ .kind = OPT_END },
};

static const struct opt_def change_rows[] = {	/* build, import */
	{ .name = "refresh", .kind = OPT_FLAG,
	  .offset = offsetof(struct opts, ctx.refresh) },
	{ .name = "quiet", .short_name = 'q', .kind = OPT_FLAG,
	  .offset = offsetof(struct opts, quiet) },
	{ .kind = OPT_END },
};

static const struct opt_def source_rows[] = {	/* build */
	{ .name = "mirror", .kind = OPT_VALUE, .arg = "URL",
	  .offset = offsetof(struct opts, ctx.mirror), .parse = parse_mirror },
	{ .name = "from", .kind = OPT_INPUT_NOFOLLOW, .arg = "FILE",
	  .offset = offsetof(struct opts, ctx.from) },
	{ .name = "digests", .kind = OPT_INPUT_NOFOLLOW, .arg = "FILE",
	  .offset = offsetof(struct opts, ctx.digests) },
	{ .name = "keyring", .kind = OPT_INPUT, .arg = "FILE",
	  .offset = offsetof(struct opts, ctx.keyring) },
	{ .name = "no-verify", .kind = OPT_FLAG,
	  .offset = offsetof(struct opts, ctx.no_verify) },
	{ .kind = OPT_END },
};

/* Each subcommand's table: --state-dir and the rows it takes. */
static const struct opt_def list_options[] = {	/* list, show */
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .kind = OPT_GROUP, .group = format_rows },
	{ .kind = OPT_END },
};

static const struct opt_def build_options[] = {
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .kind = OPT_GROUP, .group = change_rows },
	{ .kind = OPT_GROUP, .group = source_rows },
	{ .kind = OPT_END },
};

static const struct opt_def import_options[] = {
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .kind = OPT_GROUP, .group = change_rows },
	{ .kind = OPT_END },
};

static const struct opt_def remove_options[] = {
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .kind = OPT_END },
};

/* Every option of every subcommand: what the command line is parsed
 * with, as options may come before the subcommand is known. */
static const struct opt_def all_options[] = {
	{ .kind = OPT_GROUP, .group = cli_state_options },
	{ .kind = OPT_GROUP, .group = format_rows },
	{ .kind = OPT_GROUP, .group = change_rows },
	{ .kind = OPT_GROUP, .group = source_rows },
	{ .kind = OPT_END },
};

static int do_list(struct opts *o);
static int do_build(struct opts *o);
static int do_import(struct opts *o);
static int do_show(struct opts *o);
static int do_remove(struct opts *o);

/* A subcommand: its name, the options it takes, what it does. */
struct images_sub {
	const char *name;
	const struct opt_def *options;
	int (*run)(struct opts *o);
};

static const struct images_sub subs[] = {
	{ "list", list_options, do_list },
	{ "build", build_options, do_build },
	{ "import", import_options, do_import },
	{ "show", list_options, do_show },
	{ "remove", remove_options, do_remove },
	{ NULL, NULL, NULL },
};

/* The first option O was given that subcommand SUB does not take (its
 * long name, in the order the --help lists them), or NULL. */
static const char *refused_option(const struct opts *o,
				  const struct images_sub *sub)
{
	const struct {
		const char *name;
		int given;
	} given[] = {
		{ "format", o->format.set },
		{ "refresh", o->ctx.refresh },
		{ "mirror", o->ctx.mirror != NULL },
		{ "from", o->ctx.from != NULL },
		{ "digests", o->ctx.digests != NULL },
		{ "keyring", o->ctx.keyring != NULL },
		{ "no-verify", o->ctx.no_verify },
		{ "quiet", o->quiet },
	};
	size_t i;

	for (i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		if (given[i].given && !opts_find(sub->options, given[i].name))
			return given[i].name;
	return NULL;
}

/* --help: the one text of every subcommand (opts_parse's callback). */
static void images_help(FILE *f, const void *ctx)
{
	(void)ctx;
	fputs(usage, f);
}

/* Parse ARGV (ARGC entries, ARGV[0] "images") into O: the options, which
 * may come before the subcommand as after it, then the subcommand (the
 * first argument), which must take each option given. Returns 0, -1
 * after --help, or EXIT_USAGE after the message. O's state_dir and
 * data_dir are the caller's to free. */
static int parse(int argc, char **argv, struct opts *o)
{
	const char *refused;
	int first, rc;

	memset(o, 0, sizeof(*o));
	o->format.fmt = FORMAT_TABLE;
	rc = opts_parse("images", all_options, o, argc, argv, -1, &first,
			images_help, NULL);
	if (rc != 0)
		return rc;
	if (first >= argc)
		return cli_usage_error("images", "a subcommand is needed: list, "
				       "build, import, show or remove");
	for (o->sub = subs; o->sub->name; o->sub++)
		if (strcmp(o->sub->name, argv[first]) == 0)
			break;
	if (!o->sub->name)
		return cli_usage_error("images", "unknown subcommand '%s' "
				       "(list, build, import, show, remove)",
				       argv[first]);
	if ((refused = refused_option(o, o->sub)))
		return cli_usage_error("images", "'%s' takes no option '--%s'",
				       o->sub->name, refused);
	o->args = argv + first + 1;
	o->nargs = argc - first - 1;
	if (o->ctx.digests && !o->ctx.from)
		return cli_usage_error("images", "--digests goes with --from");
	if (o->ctx.no_verify && (o->ctx.digests || o->ctx.keyring))
		return cli_usage_error("images", "--no-verify contradicts "
				       "--digests and --keyring");
	o->state_dir = paths_state_dir(o->paths.state);
	o->data_dir = paths_data_dir();
	o->ctx.state_dir = o->state_dir;
	o->ctx.data_dir = o->data_dir;
	/* one line per build step on stderr, a terminal or a log alike */
	o->ctx.progress = !o->quiet;
	return 0;
}

static int want_args(const struct opts *o, int n, const char *what)
{
	if (o->nargs < n)
		return cli_usage_error("images", "'%s' needs %s", o->sub->name, what);
	if (o->nargs > n)
		return cli_usage_error("images", "unexpected argument '%s'",
				       o->args[n]);
	return 0;
}

/* How IMG was verified, for people and for csv/json alike: its recorded
 * verification (for a debootstrap/mmdebstrap build, the keyring and its
 * keys), or for such a build made before that was recorded the archive
 * signatures the bootstrap tool checked. */
static const char *verification_of(const struct image *img)
{
	return img->verification ? img->verification :
		"archive signatures (bootstrap tool)";
}

/* IMG's verification as the table of `images list` shows it (newly
 * allocated, caller frees): the keys of a keyring counted, not listed
 * ("... alone (9 OpenPGP keys)"; `images show` and csv/json list them),
 * so that a row fits a terminal. The table's digest is cut likewise
 * (TABLE_DIGEST_CHARS: "sha256:" and 12 hex digits). */
#define TABLE_DIGEST_CHARS 19
static char *verification_short(const struct image *img)
{
	const char *v = verification_of(img), *keys = strstr(v, " (OpenPGP keys ");
	size_t n = 1;

	if (!keys)
		return xstrdup(v);
	for (const char *p = keys; *p && *p != ')'; p++)
		n += *p == ',';
	return xasprintf("%.*s (%zu OpenPGP key%s)", (int)(keys - v), v, n,
			 n == 1 ? "" : "s");
}

static int do_list(struct opts *o)
{
	struct image **v;
	size_t n, i;
	sqlite3 *db;
	sqlite3_stmt *st;
	bo_err err;
	int rc;

	if ((rc = want_args(o, 0, "")) != 0)
		return rc;
	if (image_list(o->state_dir, &v, &n, &err) < 0) {
		cli_error("%s", err.msg);
		return EXIT_FAILED;
	}
	db = cli_scratch_db("CREATE TABLE t (name, distro, release, method, "
		     "created_at, digest, verification)");
	if (!db || sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?,?,?,?,?,?,"
				      "?)", -1, &st, NULL) != SQLITE_OK) {
		cli_error("cannot format output: out of memory");
		sqlite3_close(db);
		image_list_free(v, n);
		return EXIT_FAILED;
	}
	for (i = 0; i < n; i++) {
		char *ver = o->format.fmt == FORMAT_TABLE ? verification_short(v[i]) :
			    xstrdup(verification_of(v[i]));

		cli_bind_text(st, 1, v[i]->name);
		cli_bind_text(st, 2, v[i]->distro);
		cli_bind_text(st, 3, v[i]->release);
		cli_bind_text(st, 4, v[i]->method);
		cli_bind_text(st, 5, v[i]->created_at);
		if (o->format.fmt == FORMAT_TABLE && v[i]->digest &&
		    strlen(v[i]->digest) > TABLE_DIGEST_CHARS)
			sqlite3_bind_text(st, 6, v[i]->digest, TABLE_DIGEST_CHARS,
					  SQLITE_TRANSIENT);
		else
			cli_bind_text(st, 6, v[i]->digest);
		cli_bind_text(st, 7, ver);
		rc = cli_insert_row(db, st);
		free(ver);
		if (rc < 0)
			break;
	}
	sqlite3_finalize(st);
	rc = i < n ? EXIT_FAILED :
	     cli_print_query(db, "SELECT * FROM t ORDER BY name", o->format.fmt);
	sqlite3_close(db);
	image_list_free(v, n);
	return rc;
}

/* Exit status for a failed build/import. */
static int failed(void)
{
	return bo_interrupted ? cli_interrupted_status(bo_interrupted) :
		EXIT_FAILED;
}

static int need_root(const struct opts *o)
{
	if (geteuid() != 0) {
		cli_error("'images %s' must be run as root: it creates root "
			  "filesystems with their owners", o->sub->name);
		return EXIT_ENV;
	}
	return 0;
}

static int do_build(struct opts *o)
{
	struct image *img;
	bo_err err;
	int rc;

	if ((rc = want_args(o, 1, "an image spec NAME[:RELEASE]")) != 0 ||
	    (rc = need_root(o)) != 0)
		return rc;
	if (image_spec_check(o->data_dir, o->state_dir, o->args[0], &err) < 0)
		return cli_usage_error("images", "%s", err.msg);
	bo_signals_install();
	if (bo_mkdir_p(o->state_dir, &err) < 0 ||
	    image_ensure(&o->ctx, o->args[0], &img, &err) < 0) {
		cli_error("%s", err.msg);
		return failed();
	}
	printf("%s %s\n", img->name, img->digest);
	image_free(img);
	return EXIT_OK;
}

static int do_import(struct opts *o)
{
	struct image *img;
	bo_err err;
	int rc;

	if ((rc = want_args(o, 2, "NAME and FILE")) != 0)
		return rc;
	if (image_import_name_check(o->data_dir, o->args[0], &err) < 0)
		return cli_usage_error("images", "%s", err.msg);
	if ((rc = cli_input_file_nofollow("images", o->args[1])) != 0)
		return rc;
	if ((rc = need_root(o)) != 0)
		return rc;
	bo_signals_install();
	if (bo_mkdir_p(o->state_dir, &err) < 0 ||
	    image_import(&o->ctx, o->args[0], o->args[1], &img, &err) < 0) {
		cli_error("%s", err.msg);
		return failed();
	}
	printf("%s %s\n", img->name, img->digest);
	image_free(img);
	return EXIT_OK;
}

/* `show` as JSON: one object. */
static int show_json(const struct image *img, unsigned long long size)
{
	json_t *o = json_object(), *libs = json_array();
	size_t i;
	char *s;

	json_object_set_new(o, "name", json_string(img->name));
	json_object_set_new(o, "distro", json_string(img->distro));
	json_object_set_new(o, "release", json_string(img->release));
	json_object_set_new(o, "method", json_string(img->method));
	json_object_set_new(o, "created_at", json_string(img->created_at));
	json_object_set_new(o, "size_bytes", json_integer((json_int_t)size));
	json_object_set_new(o, "digest", json_string(img->digest));
	json_object_set_new(o, "verification",
			    json_string(verification_of(img)));
	json_object_set_new(o, "no_verify", json_boolean(img->verification &&
			    strstr(img->verification, "--no-verify")));
	json_object_set_new(o, "source", img->source ?
			    json_string(img->source) : json_null());
	json_object_set_new(o, "pkgdb", img->pkgdb ? json_string(img->pkgdb) :
			    json_null());
	json_object_set_new(o, "packages", json_integer((json_int_t)
							img->npackages));
	for (i = 0; i < img->nlibpkgs; i++) {
		json_t *l = json_object();
		const char *ver = image_package_version(img,
						img->libpkgs[i].package);

		json_object_set_new(l, "library",
				    json_string(img->libpkgs[i].library));
		json_object_set_new(l, "package",
				    json_string(img->libpkgs[i].package));
		json_object_set_new(l, "version", ver ? json_string(ver) :
				    json_null());
		json_array_append_new(libs, l);
	}
	json_object_set_new(o, "libraries", libs);
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				FORMAT_JSON_REAL);
	json_decref(o);
	if (!s) {
		cli_error("cannot encode the description of '%s'", img->name);
		return EXIT_FAILED;
	}
	printf("%s\n", s);
	free(s);
	return EXIT_OK;
}

/* `show` as a table: IMG's description, before its libraries. */
static void show_header(const struct image *img, unsigned long long size)
{
	printf("name:          %s\n", img->name);
	printf("distro:        %s\n", img->distro);
	printf("release:       %s\n", img->release);
	printf("method:        %s\n", img->method);
	printf("created:       %s\n", img->created_at);
	printf("size:          %llu bytes (%.1f MiB)\n", size,
	       (double)size / 1048576.0);
	printf("digest:        %s\n", img->digest);
	printf("verification:  %s\n", verification_of(img));
	if (img->source)
		printf("source:        %s\n", img->source);
	printf("packages:      %zu (%s)\n", img->npackages,
	       img->pkgdb ? img->pkgdb : "dpkg");
	printf("\n");
}

static int do_show(struct opts *o)
{
	struct image *img;
	unsigned long long size = 0;
	sqlite3 *db;
	sqlite3_stmt *st;
	bo_err err;
	size_t i;
	int rc;

	if ((rc = want_args(o, 1, "an image name")) != 0)
		return rc;
	if (image_find(&o->ctx, o->args[0], &img, &err) < 0)
		return cli_usage_error("images", "%s", err.msg);
	if (image_rootfs_size(img->rootfs, &size, &err) < 0) {
		cli_error("%s", err.msg);
		image_free(img);
		return EXIT_FAILED;
	}
	if (o->format.fmt == FORMAT_JSON) {
		rc = show_json(img, size);
		image_free(img);
		return rc;
	}
	db = cli_scratch_db("CREATE TABLE t (name, distro, release, method, "
		     "created_at, size_bytes, digest, verification, library, "
		     "package, version)");
	if (!db || sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?,?,?,?,?,?,"
				      "?,?,?,?,?)", -1, &st, NULL) !=
	    SQLITE_OK) {
		cli_error("cannot format output: out of memory");
		sqlite3_close(db);
		image_free(img);
		return EXIT_FAILED;
	}
	for (i = 0; i < img->nlibpkgs; i++) {
		cli_bind_text(st, 1, img->name);
		cli_bind_text(st, 2, img->distro);
		cli_bind_text(st, 3, img->release);
		cli_bind_text(st, 4, img->method);
		cli_bind_text(st, 5, img->created_at);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)size);
		cli_bind_text(st, 7, img->digest);
		cli_bind_text(st, 8, verification_of(img));
		cli_bind_text(st, 9, img->libpkgs[i].library);
		cli_bind_text(st, 10, img->libpkgs[i].package);
		cli_bind_text(st, 11, image_package_version(img,
						     img->libpkgs[i].package));
		if (cli_insert_row(db, st) < 0)
			break;
	}
	sqlite3_finalize(st);
	/* a row that could not be stored: nothing printed */
	if (i < img->nlibpkgs) {
		sqlite3_close(db);
		image_free(img);
		return EXIT_FAILED;
	}
	if (o->format.fmt == FORMAT_TABLE)
		show_header(img, size);
	if (o->format.fmt == FORMAT_TABLE && img->nlibpkgs == 0)
		printf("no crypto library packages found\n");
	else
		rc = cli_print_query(db, o->format.fmt == FORMAT_TABLE ?
				 "SELECT library, package, version FROM t "
				 "ORDER BY library" :
				 "SELECT * FROM t ORDER BY library", o->format.fmt);
	sqlite3_close(db);
	image_free(img);
	return rc;
}

static int do_remove(struct opts *o)
{
	struct image *img;
	bo_err err;
	int rc;

	if ((rc = want_args(o, 1, "an image name")) != 0)
		return rc;
	if (image_find(&o->ctx, o->args[0], &img, &err) < 0)
		return cli_usage_error("images", "%s", err.msg);
	if (image_remove(&o->ctx, img, &err) < 0) {
		cli_error("%s", err.msg);
		rc = EXIT_FAILED;
	} else {
		printf("removed %s\n", img->name);
	}
	image_free(img);
	return rc;
}

static int cmd_images(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);

	if (rc == 0)
		rc = o.sub->run(&o);
	free(o.state_dir);
	free(o.data_dir);
	return rc < 0 ? EXIT_OK : rc;
}

const struct cmd_entry cmd_images_entry = {
	.name = "images",
	.summary = "list, build, import, show and remove images",
	.usage = usage,
	.flags = 0,
	.fn = cmd_images,
};
