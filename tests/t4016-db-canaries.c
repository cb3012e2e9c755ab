/* t4016-db-canaries - the contention canary from the guest's line to the
 * database: the validator keeps canary lines and refuses inconsistent
 * ones, a run stores one row per curve in canaries (library mapped to its
 * row), and merge and export carry them to another database. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/results/merge.h"
#include "orchestrator/run/db-image.h"
#include "lib/util.h"
#include "tests/tap.h"

#define HELLO "{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}"
#define LIB "{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/usr/lib/libcrypto.so.3\",\"version\":\"OpenSSL 3.0.11\",\"build_id\":\"4ca7b79d\"}"
#define RESULT "{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}"
/* calm: 1 % against 3 %; moved: 300000 / 200000 - 1 = 50 % against 3 % */
#define CALM "{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":202000,\"noise\":0.03,\"moved\":false,\"remeasured\":false}"
#define MOVED "{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":300000,\"noise\":0.03,\"moved\":true,\"remeasured\":true}"
#define DONE "{\"type\":\"done\",\"results\":1,\"measure_ns\":999,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}"

/* Feed HELLO, LIB, then the N lines L into *out; the first error or "". */
static const char *feed(struct guest_output *out, const char *const *l,
			size_t n)
{
	static bo_err err;
	const char *head[] = { HELLO, LIB };
	size_t i;

	guest_output_init(out);
	err.msg[0] = '\0';
	for (i = 0; i < 2; i++)
		if (guest_output_add_line(out, head[i], strlen(head[i]), i + 1,
					  &err) < 0)
			return err.msg;
	for (i = 0; i < n; i++)
		if (guest_output_add_line(out, l[i], strlen(l[i]), i + 3,
					  &err) < 0)
			return err.msg;
	return "";
}

static void expect_bad(const char *line, const char *needle,
		       const char *what)
{
	struct guest_output out;
	const char *l[] = { RESULT, CALM, line };
	const char *msg = feed(&out, l, 3);

	tap_ok(msg[0] && strstr(msg, needle) != NULL, "rejects %s (%s)", what,
	       msg);
	guest_output_release(&out);
}

/* Rows of canaries in DB, as "library algorithm operation mode before
 * after noise moved remeasured" lines joined by '|', in key order. */
static char *rows(sqlite3 *db)
{
	sqlite3_stmt *st;
	char *s = xstrdup(""), *t;

	if (sqlite3_prepare_v2(db, "SELECT l.name || ' ' || c.algorithm || ' ' ||"
			       " c.operation || ' ' || c.mode || ' ' || c.before_ns ||"
			       " ' ' || c.after_ns || ' ' || c.noise || ' ' || c.moved ||"
			       " ' ' || c.remeasured"
			       " FROM canaries c JOIN libraries l ON l.id = c.library_id"
			       " ORDER BY c.operation DESC", -1, &st, NULL) != SQLITE_OK)
		return s;
	while (sqlite3_step(st) == SQLITE_ROW) {
		t = xasprintf("%s%s%s", s, *s ? "|" : "",
			      (const char *)sqlite3_column_text(st, 0));
		free(s);
		s = t;
	}
	sqlite3_finalize(st);
	return s;
}

int main(void)
{
	static const char want[] =
		"openssl aes-128-cbc encrypt bulk 200000 202000 0.03 0 0|"
		"openssl aes-128-cbc decrypt bulk 200000 300000 0.03 1 1";
	const char *good[] = { RESULT, CALM, MOVED, DONE };
	char dir[] = "/tmp/benchorch-t4016-XXXXXX";
	struct cpuinfo ci = { .vendor = "GenuineTest", .model_name = "Test CPU",
			      .family = 6, .model = 85, .stepping = 7,
			      .microcode = "0x1", .flags = "fpu aes",
			      .kernel = "Linux 6.1 x86_64" };
	struct image img = { .name = "debian-bookworm", .distro = "debian",
			     .release = "bookworm", .digest = "sha256:00",
			     .created_at = "2026-01-01T00:00:00Z",
			     .method = "debootstrap" };
	struct db_run run = { .uuid = "11111111-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = (long)getpid(),
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run", .cpu = &ci };
	struct db_invocation inv;
	struct guest_judgement judged;
	struct db_image dimg;
	struct guest_output out;
	struct merge_stats ms;
	bo_err err = { "" };
	char *a, *b, *c, *got;
	const char *msg;
	sqlite3 *db;
	int64_t run_id;

	if (!mkdtemp(dir))
		return 99;
	a = xasprintf("%s/a.db", dir);
	b = xasprintf("%s/b.db", dir);
	c = xasprintf("%s/c.db", dir);

	msg = feed(&out, good, 4);
	tap_ok(!msg[0] && out.ncanaries == 2 &&
	       out.canaries[1].before_ns == 200000 &&
	       out.canaries[1].after_ns == 300000 &&
	       out.canaries[1].moved && out.canaries[1].remeasured &&
	       !out.canaries[0].moved && out.canaries[0].noise == 0.03,
	       "keeps canary lines and every member (%s)", msg);

	expect_bad("{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":300000,\"noise\":0.03,\"moved\":false,\"remeasured\":true}",
		   "'moved' is false, but after_ns / before_ns - 1 = 0.5000 against noise 0.0300",
		   "a canary that moved by 50 % but says it did not");
	expect_bad("{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":202000,\"noise\":0.03,\"moved\":true,\"remeasured\":false}",
		   "'moved' is true", "a calm canary that says it moved");
	expect_bad(CALM, "duplicate canary for openssl aes-128-cbc encrypt bulk",
		   "a second canary of one curve");
	expect_bad("{\"type\":\"canary\",\"library\":\"nettle\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":202000,\"noise\":0.03,\"moved\":false,\"remeasured\":false}",
		   "nettle", "a canary of a library that was not loaded");
	expect_bad("{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":202000,\"noise\":0.03,\"moved\":false,\"remeasured\":false}",
		   "operation 'decrypt' does not apply to 'sha-256'",
		   "a canary of an operation the algorithm lacks");
	expect_bad("{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":0,\"after_ns\":202000,\"noise\":0.03,\"moved\":false,\"remeasured\":false}",
		   "'before_ns'", "a canary time of 0");
	expect_bad("{\"type\":\"canary\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"decrypt\",\"mode\":\"bulk\",\"before_ns\":200000,\"after_ns\":202000,\"noise\":-1,\"moved\":true,\"remeasured\":false}",
		   "'noise' must be a number >= 0", "a negative noise");

	/* stored with the run */
	memset(&inv, 0, sizeof(inv));
	guest_output_judge(&out, &judged);
	run_db_image(&img, &dimg);
	inv = (struct db_invocation){ .spec = "debian", .image = &dimg,
		.runner = "nspawn", .started_at = "2026-01-01T00:00:01Z",
		.wall_ns = 5, .out = &out, .judged = &judged, .round = 1 };
	tap_ok(db_open(a, &db, &err) == 0 &&
	       db_run_begin(db, &run, &run_id, &err) == 0 &&
	       db_run_finish(db, run_id, "done", NULL, &inv, 1, &err) == 0,
	       "stores a run with two canaries (%s)", err.msg);
	got = rows(db);
	tap_ok(strcmp(got, want) == 0, "one row per curve, as the guest judged it (%s)",
	       got);
	free(got);
	sqlite3_close(db);
	guest_judgement_release(&judged);
	run_db_image_release(&dimg);
	guest_output_release(&out);

	/* carried by merge and by export */
	tap_ok(db_open(b, &db, &err) == 0 &&
	       merge_from(db, a, NULL, 0, &ms, &err) == 0 && ms.runs_added == 1,
	       "merges the run into another database (%s)", err.msg);
	got = rows(db);
	tap_ok(strcmp(got, want) == 0, "merge carries the canaries (%s)", got);
	free(got);
	sqlite3_close(db);
	tap_ok(export_all(a, c, &err) == 0 && db_open(c, &db, &err) == 0,
	       "exports the database (%s)", err.msg);
	got = rows(db);
	tap_ok(strcmp(got, want) == 0, "export carries the canaries (%s)", got);
	free(got);
	sqlite3_close(db);

	unlink(a);
	unlink(b);
	unlink(c);
	{
		char *cmd = xasprintf("rm -rf '%s'", dir);

		if (system(cmd) != 0)
			tap_diag("cannot remove %s", dir);
		free(cmd);
	}
	free(a);
	free(b);
	free(c);
	return tap_done();
}
