/* t4012-db-package-changes - the package versions that changed since the
 * previous run of a distribution, recorded by db_run_finish in the run's
 * transaction (table package_changes, view package_changes_v), and the
 * same rows computed by migration 3 for runs stored before it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "db/migrations.h"
#include "db/package-changes.h"
#include "orchestrator/run/db-image.h"
#include "tests/tap.h"

static int same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static const struct cpuinfo cpu = { .vendor = "GenuineTest",
	.model_name = "Test CPU", .family = 6, .model = 85, .stepping = 7,
	.microcode = "0x1", .flags = "fpu aes", .kernel = "Linux 6.1" };

/* Images of debian:bookworm before and after an update (libssl3 newer,
 * libfoo gone, libbar new), and one of alpine. */
static struct image_package old_pkgs[] = {
	{ "libc6", "2.36-9" }, { "libfoo", "1" }, { "libssl3", "3.0.11-1" } };
static struct image_package new_pkgs[] = {
	{ "libbar", "2" }, { "libc6", "2.36-9" }, { "libssl3", "3.0.13-1" } };
static struct image_package alpine_pkgs[] = { { "musl", "1.2.5" } };
static struct image old_img = { .name = "debian-bookworm",
	.distro = "debian", .release = "bookworm", .digest = "sha256:01",
	.created_at = "t", .method = "debootstrap", .npackages = 3,
	.packages = old_pkgs };
static struct image new_img = { .name = "debian-bookworm",
	.distro = "debian", .release = "bookworm", .digest = "sha256:02",
	.created_at = "t", .method = "debootstrap", .npackages = 3,
	.packages = new_pkgs };
static struct image alpine_img = { .name = "alpine-3.20",
	.distro = "alpine", .release = "3.20", .digest = "sha256:03",
	.created_at = "t", .method = "tarball", .npackages = 1,
	.packages = alpine_pkgs };

/* Store a run with N invocations, invocation i on image IMGS[i] (failed
 * before the guest ran, which is enough for package records), with status
 * STATUS. Returns its id, or -1. */
static int64_t store_run(sqlite3 *db, const char *uuid, const char *status,
			 const struct image *const *imgs,
			 const char *const *specs, size_t n)
{
	struct db_run run = { .uuid = uuid, .host = "testhost",
			      .pid = (long)getpid(), .started_at = "t",
			      .command_line = "benchorch run", .cpu = &cpu };
	struct db_invocation inv[4];
	struct db_image dimg[4];
	int64_t id;
	bo_err err;
	size_t i;
	int rc = 0;

	memset(inv, 0, sizeof(inv));
	memset(dimg, 0, sizeof(dimg));
	for (i = 0; i < n; i++) {
		if (imgs[i])
			run_db_image(imgs[i], &dimg[i]);
		inv[i] = (struct db_invocation){ .spec = specs[i],
			.image = imgs[i] ? &dimg[i] : NULL, .runner = "nspawn",
			.started_at = "t", .error = "the guest crashed" };
	}
	if (db_run_begin(db, &run, &id, &err) < 0 ||
	    db_run_finish(db, id, status, NULL, inv, n, &err) < 0) {
		tap_diag("%s", err.msg);
		rc = -1;
	}
	for (i = 0; i < n; i++)
		run_db_image_release(&dimg[i]);
	return rc < 0 ? -1 : id;
}

static void through_the_run_api(const char *dir)
{
	const struct image *one_old[] = { &old_img };
	const struct image *new_and_alpine[] = { &new_img, &alpine_img };
	const struct image *one_new[] = { &new_img };
	const struct image *twice_old[] = { &old_img, &old_img };
	const char *debian[] = { "debian" };
	const char *both[] = { "debian", "alpine" };
	const char *two_specs[] = { "debian", "debian:bookworm" };
	char *path = xasprintf("%s/runs.db", dir);
	struct pkg_change *v = NULL;
	int64_t r1, r2, r3, r4;
	size_t n = 0;
	sqlite3 *db;
	bo_err err;
	long added;
	int rc;

	if (db_open(path, &db, &err) < 0) {
		tap_ok(0, "open: %s", err.msg);
		free(path);
		return;
	}
	r1 = store_run(db, "run-1", "failed", one_old, debian, 1);
	tap_ok(r1 > 0 && db_package_changes(db, r1, &v, &n, &err) == 0 &&
	       n == 0 && !v,
	       "the first run of a distribution records no change");
	pkg_changes_free(v, n);

	r2 = store_run(db, "run-2", "failed", new_and_alpine, both, 2);
	rc = r2 > 0 ? db_package_changes(db, r2, &v, &n, &err) : -1;
	tap_ok(rc == 0 && n == 3,
	       "a run on an updated image records 3 changes (%zu)", n);
	tap_ok(n == 3 && same(v[0].spec, "debian:bookworm") &&
	       same(v[0].package, "libbar") && !v[0].old_version &&
	       same(v[0].new_version, "2") && v[0].previous_run == r1,
	       "a new package: no old version, compared with run %lld",
	       (long long)r1);
	tap_ok(n == 3 && same(v[1].package, "libfoo") &&
	       same(v[1].old_version, "1") && !v[1].new_version,
	       "a package gone: no new version");
	tap_ok(n == 3 && same(v[2].package, "libssl3") &&
	       same(v[2].old_version, "3.0.11-1") &&
	       same(v[2].new_version, "3.0.13-1"),
	       "a package updated: 3.0.11-1 -> 3.0.13-1");
	pkg_changes_free(v, n);
	tap_ok(db_query_int(db, "SELECT count(*) FROM package_changes_v WHERE"
		      " distro = 'alpine'") == 0,
	       "alpine, not run before, records nothing");
	tap_ok(db_query_int(db, "SELECT count(*) FROM package_changes_v WHERE"
		      " run_id = 2 AND spec = 'debian' AND release = 'bookworm'"
		      " AND previous_run_id = 1 AND previous_run_uuid = 'run-1'"
		      " AND run_uuid = 'run-2'") == 3,
	       "package_changes_v: run, spec, distro, release, previous run");

	added = db_package_changes_record(db, r2, &err);
	tap_ok(added == 0 && db_query_int(db, "SELECT count(*) FROM package_changes") == 3,
	       "recording a run again adds nothing (%ld)", added);

	r3 = store_run(db, "run-3", "done", one_new, debian, 1);
	tap_ok(r3 > 0 && db_package_changes(db, r3, &v, &n, &err) == 0 &&
	       n == 0, "the same image as the previous run: no change");
	pkg_changes_free(v, n);

	/* back to the old image, named twice: each change listed once, and
	 * an aborted run counts (its image was on disk) */
	r4 = store_run(db, "run-4", "aborted", twice_old, two_specs, 2);
	rc = r4 > 0 ? db_package_changes(db, r4, &v, &n, &err) : -1;
	tap_ok(rc == 0 && n == 3 && same(v[2].package, "libssl3") &&
	       same(v[2].old_version, "3.0.13-1") &&
	       same(v[2].new_version, "3.0.11-1") && v[2].previous_run == r3,
	       "a downgrade against run 3, listed once for two specs (%zu)", n);
	pkg_changes_free(v, n);
	tap_ok(db_query_int(db, "SELECT count(*) FROM package_changes pc JOIN"
		      " invocations i ON i.id = pc.invocation_id WHERE"
		      " i.run_id = 4") == 6,
	       "stored per invocation: 3 changes for each of the 2 specs");
	tap_ok(db_package_changes(db, 99, &v, &n, &err) == 0 && n == 0,
	       "an unknown run: no change");
	pkg_changes_free(v, n);

	/* the rows go with their runs */
	tap_ok(db_exec(db, "PRAGMA foreign_keys = ON; DELETE FROM runs WHERE"
		       " id = 4", &err) == 0 &&
	       db_query_int(db, "SELECT count(*) FROM package_changes") == 3,
	       "deleting a run deletes its package changes");
	tap_ok(db_query_int(db, "SELECT count(*) FROM pragma_foreign_key_check") == 0,
	       "foreign keys are consistent");
	sqlite3_close(db);
	free(path);
}

/* A schema-2 database, as a benchorch before migration 3 wrote it:
 * three runs of debian:bookworm (image 1, image 2 with libssl3 updated,
 * libfoo removed, libbar added, image 2 again) and alpine in run 2. */
static const char schema2_sql[] =
"INSERT INTO runs (id, uuid, host, pid, started_at, command_line, status) VALUES"
" (1, 'u1', 'h', 1, '2026-11-27T03:00:00Z', 'x', 'done'),"
" (2, 'u2', 'h', 1, '2026-11-28T03:00:00Z', 'x', 'done'),"
" (3, 'u3', 'h', 1, '2026-11-29T03:00:00Z', 'x', 'done');"
"INSERT INTO images (id, distro, release, digest) VALUES"
" (1, 'debian', 'bookworm', 'sha256:1'), (2, 'debian', 'bookworm', 'sha256:2'),"
" (3, 'alpine', '3.20', 'sha256:3');"
"INSERT INTO image_packages VALUES"
" (1, 'libc6', '2.36-9'), (1, 'libssl3', '3.0.11-1'), (1, 'libfoo', '1'),"
" (2, 'libc6', '2.36-9'), (2, 'libssl3', '3.0.13-1'), (2, 'libbar', '2'),"
" (3, 'musl', '1.2.5');"
"INSERT INTO invocations (run_id, image_id, spec, started_at, status) VALUES"
" (1, 1, 'debian', 'x', 'ok'), (2, 2, 'debian', 'x', 'ok'),"
" (2, 3, 'alpine', 'x', 'ok'), (3, 2, 'debian', 'x', 'ok');";

static void migration_backfill(const char *dir)
{
	char *path = xasprintf("%s/schema2.db", dir);
	struct pkg_change *v = NULL;
	sqlite3 *db = NULL;
	size_t n = 0;
	bo_err err = { "" };
	int rc;

	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    db_exec(db, db_migrations[0].sql, &err) < 0 ||
	    db_exec(db, db_migrations[1].sql, &err) < 0 ||
	    db_exec(db, "PRAGMA user_version = 2", &err) < 0 ||
	    db_exec(db, schema2_sql, &err) < 0) {
		tap_ok(0, "a schema-2 database: %s", err.msg);
		sqlite3_close(db);
		free(path);
		return;
	}
	sqlite3_close(db);
	tap_ok(db_open(path, &db, &err) == 0 &&
	       db_query_int(db, "PRAGMA user_version") == db_schema_version(),
	       "a schema-2 database is migrated (%s)", err.msg);
	rc = db_package_changes(db, 2, &v, &n, &err);
	tap_ok(rc == 0 && n == 3 && same(v[0].package, "libbar") &&
	       !v[0].old_version && same(v[1].package, "libfoo") && !v[1].new_version &&
	       same(v[2].package, "libssl3") &&
	       same(v[2].old_version, "3.0.11-1") &&
	       same(v[2].new_version, "3.0.13-1") && v[2].previous_run == 1,
	       "the migration records the changes of the runs stored before it (%zu)",
	       n);
	pkg_changes_free(v, n);
	tap_ok(db_query_int(db, "SELECT count(*) FROM package_changes") == 3,
	       "and none for a first run, the same image, or alpine");
	sqlite3_close(db);
	free(path);
}

int main(void)
{
	char dir[] = "/tmp/benchorch-t4012-XXXXXX";
	bo_err err;

	if (!mkdtemp(dir))
		return 99;
	through_the_run_api(dir);
	migration_backfill(dir);
	if (bo_rm_rf(dir, &err) < 0)
		tap_diag("%s", err.msg);
	return tap_done();
}
