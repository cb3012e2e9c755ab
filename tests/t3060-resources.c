/* t3060-resources - the resource members of the guest protocol
 * (guest/PROTOCOL.md, "Resources"): validated, turned into per-algorithm
 * peaks, stored (migration 9), printed by `results --resources` and
 * carried by merge. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "db/resources.h"
#include "lib/guest-resources.h"
#include "lib/judge.h"
#include "orchestrator/results/merge.h"
#include "orchestrator/results/results-resources.h"
#include "tests/tap.h"

#define HELLO "{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}"
#define LIB(name, extra) "{\"type\":\"library\",\"library\":\"" name "\",\"status\":\"loaded\",\"soname\":\"lib.so\",\"path\":\"/l\",\"version\":\"1\",\"build_id\":\"\"" extra "}"
/* one result: 16 000 ns per batch of 1000 calls of SIZE bytes */
#define RESULT(lib, algo, op, size, mbs, extra) "{\"type\":\"result\",\"library\":\"" lib "\",\"algorithm\":\"" algo "\",\"operation\":\"" op "\",\"mode\":\"bulk\",\"buffer_bytes\":" #size ",\"calls_per_batch\":1000,\"bytes_per_batch\":" #size "000,\"repetitions\":1,\"median_ns\":16000,\"min_ns\":16000,\"p25_ns\":16000,\"p75_ns\":16000,\"cv\":0.0,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":" mbs ",\"verified\":true" extra ",\"samples_ns\":[16000]}"
#define DONE(n, extra) "{\"type\":\"done\",\"results\":" #n ",\"measure_ns\":999,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0" extra "}"

/* openssl with a footprint, nettle without (as an older guest prints
 * it), botan absent; the peaks after each point as the guest reads them
 * (the sha-256 16-byte point below the previous peak: the kernel's
 * high-water reading is approximate). */
static const char *good[] = {
	HELLO,
	LIB("openssl", ",\"rss_before_load_kib\":4000,\"footprint_kib\":9000"),
	LIB("nettle", ""),
	"{\"type\":\"library\",\"library\":\"botan\",\"status\":\"absent\"}",
	RESULT("openssl", "aes-128-cbc", "encrypt", 16, "1000.0", ",\"maxrss_kib\":9100"),
	RESULT("openssl", "aes-128-cbc", "encrypt", 1024, "64000.0", ",\"maxrss_kib\":9500"),
	RESULT("openssl", "sha-256", "hash", 16, "1000.0", ",\"maxrss_kib\":9400"),
	RESULT("openssl", "sha-256", "hash", 1024, "64000.0", ",\"maxrss_kib\":11000"),
	RESULT("nettle", "aes-128-cbc", "encrypt", 16, "1000.0", ",\"maxrss_kib\":6000"),
	RESULT("nettle", "sha-256", "hash", 16, "1000.0", ""),
	DONE(6, ",\"rusage\":[{\"library\":\"openssl\",\"user_us\":250000,\"sys_us\":12000,\"maxrss_kib\":11200},"
		"{\"library\":\"nettle\",\"user_us\":1000,\"sys_us\":0,\"maxrss_kib\":6100},"
		"{\"library\":\"botan\",\"user_us\":0,\"sys_us\":0,\"maxrss_kib\":3000}]"),
};

static const char *text(sqlite3 *db, const char *sql)
{
	static char buf[512];
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return "(error)";
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, sizeof(buf), "%s", sqlite3_column_text(st, 0));
	else if (sqlite3_column_type(st, 0) == SQLITE_NULL)
		snprintf(buf, sizeof(buf), "NULL");
	sqlite3_finalize(st);
	return buf;
}

/* Feed LINES (N) to a fresh *OUT; returns the 1-based line that failed
 * (its message in err), or 0 when all passed and the output is complete. */
static size_t feed(struct guest_output *out, const char *const *lines,
		   size_t n, bo_err *err)
{
	guest_output_init(out);
	for (size_t i = 0; i < n; i++)
		if (guest_output_add_line(out, lines[i], strlen(lines[i]),
					  i + 1, err) < 0)
			return i + 1;
	return guest_output_finish(out, err) < 0 ? n + 1 : 0;
}

/* A line that must be refused: LINE replaces good[AT]. */
static void refused(size_t at, const char *line, const char *what,
		    const char *needle)
{
	const char *lines[sizeof(good) / sizeof(good[0])];
	struct guest_output out;
	bo_err err = { "" };
	size_t n = sizeof(good) / sizeof(good[0]), bad;

	memcpy(lines, good, sizeof(lines));
	lines[at] = line;
	bad = feed(&out, lines, n, &err);
	tap_ok(bad == at + 1 && tap_contains(err.msg, needle),
	       "refused: %s (%s)", what, err.msg);
	guest_output_release(&out);
}

static void validation_tests(void)
{
	static const char *old[] = {
		HELLO, LIB("openssl", ""),
		RESULT("openssl", "sha-256", "hash", 16, "1000.0", ""),
		DONE(1, ""),
	};
	struct guest_output out;
	bo_err err = { "" };
	size_t bad;

	bad = feed(&out, good, sizeof(good) / sizeof(good[0]), &err);
	tap_ok(bad == 0, "an invocation with every resource member validates (%s)",
	       err.msg);
	tap_ok(out.libraries[0].rss_before_load_kib == 4000 &&
	       out.libraries[0].footprint_kib == 9000 &&
	       out.libraries[1].footprint_kib == -1 &&
	       out.libraries[1].rss_before_load_kib == -1 &&
	       out.libraries[2].footprint_kib == -1,
	       "footprints are read; a library line without them leaves -1");
	tap_ok(out.results[0].maxrss_kib == 9100 &&
	       out.results[3].maxrss_kib == 11000 &&
	       out.results[5].maxrss_kib == -1,
	       "the peak after each point is read, -1 where absent");
	tap_ok(out.nrusage == 3 &&
	       strcmp(out.rusage[0].library, "openssl") == 0 &&
	       out.rusage[0].user_us == 250000 && out.rusage[0].sys_us == 12000 &&
	       out.rusage[0].maxrss_kib == 11200 &&
	       guest_resources_find(&out, "botan") &&
	       guest_resources_find(&out, "botan")->maxrss_kib == 3000 &&
	       !guest_resources_find(&out, "libgcrypt"),
	       "done's rusage is read, one entry per library");
	guest_output_release(&out);

	bad = feed(&out, old, sizeof(old) / sizeof(old[0]), &err);
	tap_ok(bad == 0 && out.nrusage == 0 && !out.rusage &&
	       out.libraries[0].footprint_kib == -1 &&
	       out.results[0].maxrss_kib == -1,
	       "an older guest's output, without any of them, is accepted (%s)",
	       err.msg);
	guest_output_release(&out);

	refused(1, LIB("openssl", ",\"rss_before_load_kib\":4000,\"footprint_kib\":0"),
		"a footprint of 0 KiB", "'footprint_kib' out of range");
	refused(1, LIB("openssl", ",\"rss_before_load_kib\":-1,\"footprint_kib\":9000"),
		"a negative resident set", "'rss_before_load_kib' out of range");
	refused(1, LIB("openssl", ",\"footprint_kib\":9000"),
		"a footprint without the resident set before loading",
		"come together");
	refused(1, LIB("openssl", ",\"rss_before_load_kib\":4000,\"footprint_kib\":\"9000\""),
		"a footprint as a string", "'footprint_kib' must be an integer");
	refused(1, LIB("openssl", ",\"rss_before_load_kib\":4000,\"footprint_kib\":2000000000"),
		"a footprint above 1 TiB", "'footprint_kib' out of range");
	refused(4, RESULT("openssl", "aes-128-cbc", "encrypt", 16, "1000.0", ",\"maxrss_kib\":0"),
		"a peak of 0 KiB after a point", "'maxrss_kib' out of range");
	refused(4, RESULT("openssl", "aes-128-cbc", "encrypt", 16, "1000.0", ",\"maxrss_kib\":1.5"),
		"a fractional peak", "'maxrss_kib' must be an integer");
	refused(10, DONE(6, ",\"rusage\":{\"library\":\"openssl\"}"),
		"rusage that is not an array", "'rusage' must be an array");
	refused(10, DONE(6, ",\"rusage\":[{\"library\":\"wolfssl\",\"user_us\":1,\"sys_us\":1,\"maxrss_kib\":1}]"),
		"rusage of a library the guest never reported",
		"library 'wolfssl' that was not reported");
	refused(10, DONE(6, ",\"rusage\":[{\"library\":\"openssl\",\"user_us\":1,\"sys_us\":1,\"maxrss_kib\":1},{\"library\":\"openssl\",\"user_us\":1,\"sys_us\":1,\"maxrss_kib\":1}]"),
		"a library twice in rusage", "twice");
	refused(10, DONE(6, ",\"rusage\":[{\"library\":\"openssl\",\"user_us\":1,\"maxrss_kib\":1}]"),
		"an rusage entry without sys_us", "needs user_us, sys_us and maxrss_kib");
	refused(10, DONE(6, ",\"rusage\":[{\"library\":\"openssl\",\"user_us\":1,\"sys_us\":-5,\"maxrss_kib\":1}]"),
		"negative CPU time", "'sys_us' out of range");
	refused(10, DONE(6, ",\"rusage\":[7]"),
		"an rusage entry that is not an object", "must be an object");
}

/* The per-algorithm peaks of good[]: the mark starts at openssl's
 * footprint (9000); aes-128-cbc raises it to 9500 (+500), sha-256 to
 * 11000 (+1500, its 9400 reading notwithstanding); nettle has no
 * footprint, so no raise; its sha-256 point reported no peak. */
static void peak_tests(void)
{
	struct guest_output out;
	struct guest_algo_peak *p;
	bo_err err = { "" };
	size_t n;

	feed(&out, good, sizeof(good) / sizeof(good[0]), &err);
	n = guest_output_algo_peaks(&out, &p);
	tap_ok(n == 3, "one peak per library and algorithm with a reading (%zu)", n);
	tap_ok(n == 3 && strcmp(p[0].library, "openssl") == 0 &&
	       strcmp(p[0].algorithm, "aes-128-cbc") == 0 &&
	       p[0].peak_kib == 9500 && p[0].raise_kib == 500,
	       "aes-128-cbc: peak 9500 KiB, 500 above the footprint (%lld, %lld)",
	       n ? (long long)p[0].peak_kib : -1, n ? (long long)p[0].raise_kib : -1);
	tap_ok(n == 3 && strcmp(p[1].algorithm, "sha-256") == 0 &&
	       p[1].peak_kib == 11000 && p[1].raise_kib == 1500,
	       "sha-256: peak 11000 KiB, 1500 above the mark aes-128-cbc left (%lld, %lld)",
	       n > 1 ? (long long)p[1].peak_kib : -1,
	       n > 1 ? (long long)p[1].raise_kib : -1);
	tap_ok(n == 3 && strcmp(p[2].library, "nettle") == 0 &&
	       p[2].peak_kib == 6000 && p[2].raise_kib == -1,
	       "nettle without a footprint: peak 6000 KiB, no raise");
	free(p);
	guest_output_release(&out);
}

/* Store good[], read it back, print it, merge it. */
static void store_tests(const char *dir)
{
	struct cpuinfo ci = { .vendor = "GenuineTest", .model_name = "Test CPU",
			      .family = 6, .model = 85, .stepping = 7,
			      .microcode = "0x1", .flags = "fpu aes",
			      .kernel = "Linux 6.1 x86_64" };
	struct db_run run = { .uuid = "77777777-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = (long)getpid(),
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run", .cpu = &ci };
	struct resources_filter rf = { 0 };
	struct merge_stats ms;
	struct guest_output out;
	struct db_invocation inv;
	struct guest_judgement judged;
	char *path = xasprintf("%s/r.db", dir), *dst = xasprintf("%s/m.db", dir);
	char *csv = xasprintf("%s/r.csv", dir), buf[4096];
	bo_err err = { "" };
	int64_t run_id;
	sqlite3 *db;
	FILE *f;
	long n;
	size_t len;

	feed(&out, good, sizeof(good) / sizeof(good[0]), &err);
	guest_output_judge(&out, &judged);
	db_open(path, &db, &err);
	db_run_begin(db, &run, &run_id, &err);
	inv = (struct db_invocation){ .spec = "debian", .runner = "chroot",
		.started_at = "2026-01-01T00:00:01Z", .out = &out,
		.judged = &judged, .variant = "hw", .round = 1 };
	tap_ok(db_run_finish(db, run_id, "done", NULL, &inv, 1, &err) == 0,
	       "the invocation is stored (%s)", err.msg);
	tap_ok(strcmp(text(db, "SELECT group_concat(library || ':' || user_us || ':' || sys_us"
			   " || ':' || maxrss_kib || ':' || coalesce(rss_before_load_kib, 'NULL')"
			   " || ':' || coalesce(footprint_kib, 'NULL'), ' ') FROM"
			   " (SELECT * FROM library_resources ORDER BY library)"),
		      "botan:0:0:3000:NULL:NULL nettle:1000:0:6100:NULL:NULL"
		      " openssl:250000:12000:11200:4000:9000") == 0,
	       "library_resources: CPU times, peak, footprint; NULL where not reported (%s)",
	       text(db, "SELECT group_concat(library || ':' || coalesce(footprint_kib, 'NULL'), ' ') FROM library_resources"));
	tap_ok(strcmp(text(db, "SELECT group_concat(library || ':' || algorithm || ':' || peak_kib"
			   " || ':' || coalesce(raise_kib, 'NULL'), ' ') FROM"
			   " (SELECT * FROM algorithm_resources ORDER BY library, algorithm)"),
		      "nettle:aes-128-cbc:6000:NULL openssl:aes-128-cbc:9500:500"
		      " openssl:sha-256:11000:1500") == 0,
	       "algorithm_resources: peak and raise per algorithm");
	tap_ok(strcmp(text(db, "SELECT top_algorithm || ' ' || top_raise_kib || ' ' || status"
			   " FROM resources_v WHERE library = 'openssl'"),
		      "sha-256 1500 loaded") == 0 &&
	       strcmp(text(db, "SELECT status FROM resources_v WHERE library = 'botan'"),
		      "absent") == 0,
	       "resources_v names the algorithm that raised the peak most and the load status");

	f = fopen(csv, "w+");
	rf.all = 1;
	n = f ? results_resources(f, db, &rf, FORMAT_CSV, &err) : -1;
	len = 0;
	if (f) {
		rewind(f);
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[len] = '\0';
	tap_ok(n == 3 &&
	       tap_contains(buf, "run_id,distro,release,variant,round,library,library_version,status,user_us,sys_us,maxrss_kib,rss_before_load_kib,footprint_kib,top_algorithm,top_raise_kib\r\n") &&
	       tap_contains(buf, "1,,,hw,1,openssl,1,loaded,250000,12000,11200,4000,9000,sha-256,1500\r\n") &&
	       tap_contains(buf, "1,,,hw,1,botan,,absent,0,0,3000,,,,\r\n"),
	       "results --resources --format csv: one row per library, stored units (%ld rows)", n);
	rf.lib = "openssl";
	rf.algo = "sha-256";
	f = fopen(csv, "w+");
	n = f ? results_resources(f, db, &rf, FORMAT_JSON, &err) : -1;
	len = 0;
	if (f) {
		rewind(f);
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[len] = '\0';
	tap_ok(n == 1 && tap_contains(buf, "\"algorithm\": \"sha-256\"") &&
	       tap_contains(buf, "\"peak_kib\": 11000") &&
	       tap_contains(buf, "\"raise_kib\": 1500"),
	       "with --algo: that algorithm's peak and raise (json, %ld row)", n);
	sqlite3_close(db);

	db_open(dst, &db, &err);
	tap_ok(merge_from(db, path, NULL, 0, &ms, &err) == 0 &&
	       db_query_int(db, "SELECT count(*) FROM library_resources") == 3 &&
	       db_query_int(db, "SELECT count(*) FROM algorithm_resources") == 3 &&
	       db_query_int(db, "SELECT footprint_kib FROM resources_v WHERE library = 'openssl'") == 9000,
	       "merge carries both tables (%s)", err.msg);
	sqlite3_close(db);
	guest_judgement_release(&judged);
	guest_output_release(&out);
	free(path);
	free(dst);
	free(csv);
}

int main(void)
{
	char dir[] = "/tmp/benchorch-t3060-XXXXXX";
	char *cmd;

	if (!mkdtemp(dir))
		return 99;
	validation_tests();
	peak_tests();
	store_tests(dir);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		tap_diag("cannot remove %s", dir);
	free(cmd);
	return tap_done();
}
