/* t4010-db - schema, migrations, storing a run and the results_v view, on a
 * real SQLite file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "db/db.h"
#include "db/migrations.h"
#include "orchestrator/run/db-image.h"
#include "tests/tap.h"

static const char *text(sqlite3 *db, const char *sql)
{
	static char buf[512];
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return "(error)";
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, sizeof(buf), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

static const char *lines[] = {
	"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}",
	"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/usr/lib/x86_64-linux-gnu/libcrypto.so.3\",\"version\":\"OpenSSL 3.0.11\",\"build_id\":\"4ca7b79d\"}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"NIST SP 800-38A F.2.1\"}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"ok\":false,\"source\":\"FIPS 180-4 one-block\"}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"ok\":true,\"source\":\"FIPS 180-4 two-block\"}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-ctr\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"bulk\",\"buffer_bytes\":1024,\"calls_per_batch\":10,\"bytes_per_batch\":10240,\"repetitions\":5,\"median_ns\":10240,\"min_ns\":10000,\"p25_ns\":10120,\"p75_ns\":10360,\"cv\":0.01852897067,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[10240,10000,10480,10120,10360]}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"oneshot\",\"buffer_bytes\":16,\"calls_per_batch\":100,\"bytes_per_batch\":1600,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":100.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
	"{\"type\":\"keysetup\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"calls_per_batch\":1000,\"repetitions\":5,\"median_ns\":200000,\"min_ns\":190000,\"p25_ns\":195000,\"p75_ns\":205000,\"cv\":0.03952847075,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"ns_per_call\":200.0,\"verified\":true,\"samples_ns\":[200000,190000,210000,195000,205000]}",
	"{\"type\":\"crosscheck\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"input_bytes\":131072,\"output_bytes\":131072,\"digest\":\"0123456789abcdef\",\"roundtrip\":true}",
	"{\"type\":\"done\",\"results\":4,\"measure_ns\":999,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}",
};

/* Protocol 2 data in the database: timing modes, key setup, the
 * cross-check and its effect on verified, variants, build-ids; and a
 * schema-1 database migrated in place. */
static void protocol2_tests(const char *dir, const struct cpuinfo *ci)
{
	static const char *lib2 =
		"{\"type\":\"library\",\"library\":\"nettle\",\"status\":\"loaded\",\"soname\":\"libnettle.so.8\",\"path\":\"/n\",\"version\":\"Nettle 3.8\",\"build_id\":\"\"}";
	static const char *lib3 =
		"{\"type\":\"library\",\"library\":\"libgcrypt\",\"status\":\"loaded\",\"soname\":\"libgcrypt.so.20\",\"path\":\"/g\",\"version\":\"1.10.1\",\"build_id\":\"ab\"}";
	const char *more[] = {
		"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"nohw\",\"clock_hz\":3000000000}",
		lines[1], lib2, lib3, lines[2],
		"{\"type\":\"kat\",\"library\":\"nettle\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"x\"}",
		"{\"type\":\"kat\",\"library\":\"libgcrypt\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"x\"}",
		lines[5],
		"{\"type\":\"result\",\"library\":\"nettle\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		"{\"type\":\"result\",\"library\":\"libgcrypt\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":5,\"median_ns\":16000,\"min_ns\":15000,\"p25_ns\":15500,\"p75_ns\":16500,\"cv\":0.04941058844,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":1000.0,\"verified\":true,\"samples_ns\":[16000,15000,17000,15500,16500]}",
		lines[10],
		"{\"type\":\"crosscheck\",\"library\":\"nettle\",\"algorithm\":\"aes-128-cbc\",\"input_bytes\":131072,\"output_bytes\":131072,\"digest\":\"0123456789abcdef\",\"roundtrip\":true}",
		"{\"type\":\"crosscheck\",\"library\":\"libgcrypt\",\"algorithm\":\"aes-128-cbc\",\"input_bytes\":131072,\"output_bytes\":131072,\"digest\":\"fedcba9876543210\",\"roundtrip\":true}",
		"{\"type\":\"done\",\"results\":3,\"measure_ns\":999,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}",
	};
	struct db_run run = { .uuid = "55555555-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = (long)getpid(),
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run --nohw", .cpu = ci };
	struct guest_output out;
	struct db_invocation inv;
	struct guest_judgement judged;
	bo_err err = { "" };
	char *path = xasprintf("%s/p2.db", dir), *old = xasprintf("%s/v1.db", dir);
	sqlite3 *db;
	int64_t run_id;
	size_t i;
	long n;
	FILE *devnull = fopen("/dev/null", "w");

	guest_output_init(&out);
	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (guest_output_add_line(&out, more[i], strlen(more[i]), i + 1,
					  &err) < 0)
			tap_diag("%s", err.msg);
	tap_ok(guest_output_finish(&out, &err) == 0, "a three-library invocation validates (%s)",
	       err.msg);
	guest_output_judge(&out, &judged);
	db_open(path, &db, &err);
	db_run_begin(db, &run, &run_id, &err);
	memset(&inv, 0, sizeof(inv));
	inv = (struct db_invocation){ .spec = "debian", .runner = "chroot",
		.started_at = "2026-01-01T00:00:01Z", .out = &out,
		.judged = &judged, .variant = "hw" };
	tap_ok(db_run_finish(db, run_id, "done", NULL, &inv, 1, &err) == 0,
	       "stores it (%s)", err.msg);
	tap_ok(db_query_int(db, "SELECT verified FROM results_v WHERE library = 'openssl'") == 1 &&
	       db_query_int(db, "SELECT verified FROM results_v WHERE library = 'nettle'") == 1 &&
	       db_query_int(db, "SELECT verified FROM results_v WHERE library = 'libgcrypt'") == 0,
	       "the library that disagrees in the cross-check is stored unverified, the two that agree verified");
	tap_ok(db_query_int(db, "SELECT count(*) FROM crosschecks WHERE agrees = 1") == 2 &&
	       db_query_int(db, "SELECT agrees FROM crosschecks WHERE library = 'libgcrypt'") == 0,
	       "the cross-check verdicts are stored");
	n = db_crosscheck_failures(db, run_id, devnull);
	tap_ok(n == 1, "db_crosscheck_failures names the one disagreeing pair (%ld)", n);
	tap_ok(strcmp(text(db, "SELECT DISTINCT variant FROM results_v"), "nohw") == 0,
	       "the variant the guest reports (nohw) is stored, whatever the caller assumed");
	tap_ok(strcmp(text(db, "SELECT build_id FROM library_loads WHERE name = 'libgcrypt'"), "ab") == 0 &&
	       strcmp(text(db, "SELECT build_id FROM results_v WHERE library = 'libgcrypt'"), "ab") == 0,
	       "build-ids are stored per load and per library");
	sqlite3_close(db);
	guest_judgement_release(&judged);
	guest_output_release(&out);
	if (devnull)
		fclose(devnull);

	/* a schema-1 database with a result is migrated, the result kept */
	sqlite3_open(old, &db);
	db_exec(db, db_migrations[0].sql, &err);
	db_exec(db, "PRAGMA user_version = 1;"
		"INSERT INTO runs (uuid, host, pid, started_at, command_line)"
		" VALUES ('u', 'h', 1, 't', 'c');"
		"INSERT INTO invocations (run_id, spec, started_at, status)"
		" VALUES (1, 'debian', 't', 'ok');"
		"INSERT INTO libraries (name) VALUES ('openssl');"
		"INSERT INTO results (invocation_id, library_id, algorithm,"
		" operation, buffer_bytes, calls_per_batch, bytes_per_batch,"
		" repetitions, median_ns, min_ns, mb_per_s, verified) VALUES"
		" (1, 1, 'sha-256', 'hash', 16, 1, 16, 1, 16, 16, 1.0, 1)", &err);
	sqlite3_close(db);
	tap_ok(db_open(old, &db, &err) == 0 &&
	       db_query_int(db, "PRAGMA user_version") == db_schema_version(),
	       "a schema-1 database is migrated (%s)", err.msg);
	tap_ok(strcmp(text(db, "SELECT mode || variant || median_ns FROM results_v"),
		      "bulkhw16") == 0,
	       "its results survive as bulk, hw");
	tap_ok(strcmp(text(db, "PRAGMA foreign_key_check"), "") == 0 &&
	       strcmp(text(db, "PRAGMA integrity_check"), "ok") == 0,
	       "and the migrated database is consistent");
	tap_ok(db_query_int(db, "SELECT count(*) FROM samples") == 0 &&
	       db_query_int(db, "SELECT count(*) FROM results WHERE p25_ns IS NULL"
		      " AND cv IS NULL AND noisy IS NULL") == 1,
	       "migration 5 (after the gap from 2) adds samples; old rows have NULL statistics");
	sqlite3_close(db);
	free(path);
	free(old);
}

/* Protocol 3 in the database: raw samples in measurement order, the
 * statistics per result and key setup, the measured clocks, the curve
 * fits with cycles per byte at the measured clock. */
static void protocol3_tests(const char *dir, const struct cpuinfo *ci)
{
	/* sha-256 bulk: 100 ns + 0.5 ns/B per call, 1000 calls per batch,
	 * at 16 B, 1 KiB and 16 KiB; one-shot at 16 B only (no curve) */
	static const char *l3[] = {
		"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000}",
		"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/l\",\"version\":\"OpenSSL 3.0.11\",\"build_id\":\"\"}",
		"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"ok\":true,\"source\":\"x\"}",
		"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"ok\":true,\"source\":\"x\"}",
		"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":3,\"median_ns\":108000,\"min_ns\":107000,\"p25_ns\":107500,\"p75_ns\":109500,\"cv\":0.01915643558,\"reruns\":1,\"noisy\":false,\"tsc_cycles\":226800,\"mb_per_s\":148.1481481,\"verified\":true,\"samples_ns\":[111000,107000,108000]}",
		"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"bulk\",\"buffer_bytes\":1024,\"calls_per_batch\":1000,\"bytes_per_batch\":1024000,\"repetitions\":3,\"median_ns\":612000,\"min_ns\":612000,\"p25_ns\":612000,\"p75_ns\":612000,\"cv\":0.0,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":1285200,\"mb_per_s\":1673.202614,\"verified\":true,\"samples_ns\":[612000,612000,612000]}",
		"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"bulk\",\"buffer_bytes\":16384,\"calls_per_batch\":1000,\"bytes_per_batch\":16384000,\"repetitions\":3,\"median_ns\":8292000,\"min_ns\":8292000,\"p25_ns\":8292000,\"p75_ns\":9292000,\"cv\":0.1288920083,\"reruns\":2,\"noisy\":true,\"tsc_cycles\":17413200,\"mb_per_s\":1975.880367,\"verified\":true,\"samples_ns\":[8292000,10292000,8292000]}",
		"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"oneshot\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":1,\"median_ns\":200000,\"min_ns\":200000,\"p25_ns\":200000,\"p75_ns\":200000,\"cv\":0.0,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":420000,\"mb_per_s\":80.0,\"verified\":true,\"samples_ns\":[200000]}",
		"{\"type\":\"keysetup\",\"library\":\"openssl\",\"algorithm\":\"aes-128-cbc\",\"operation\":\"encrypt\",\"calls_per_batch\":1000,\"repetitions\":2,\"median_ns\":150000,\"min_ns\":140000,\"p25_ns\":145000,\"p75_ns\":155000,\"cv\":0.09428090416,\"reruns\":0,\"noisy\":false,\"tsc_cycles\":315000,\"ns_per_call\":150.0,\"verified\":true,\"samples_ns\":[160000,140000]}",
		"{\"type\":\"done\",\"results\":4,\"measure_ns\":999,\"elapsed_ns\":2000000000,\"clock_hz\":2800000000,\"tsc_hz\":2100000000}",
	};
	struct db_run run = { .uuid = "66666666-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = (long)getpid(),
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run", .cpu = ci };
	struct guest_output out;
	struct db_invocation inv;
	struct guest_judgement judged;
	bo_err err = { "" };
	char *path = xasprintf("%s/p3.db", dir);
	sqlite3 *db;
	int64_t run_id;
	size_t i;
	int bad = 0;

	guest_output_init(&out);
	for (i = 0; i < sizeof(l3) / sizeof(l3[0]); i++)
		if (guest_output_add_line(&out, l3[i], strlen(l3[i]), i + 1,
					  &err) < 0) {
			tap_diag("%s", err.msg);
			bad = 1;
		}
	tap_ok(!bad && guest_output_finish(&out, &err) == 0 &&
	       guest_output_check_clock(&out, 2010000000, &err) == 0,
	       "a protocol 3 invocation validates, its clock agrees (%s)",
	       err.msg);
	guest_output_judge(&out, &judged);
	db_open(path, &db, &err);
	db_run_begin(db, &run, &run_id, &err);
	inv = (struct db_invocation){ .spec = "debian", .runner = "chroot",
		.started_at = "2026-01-01T00:00:01Z", .out = &out,
		.judged = &judged };
	tap_ok(db_run_finish(db, run_id, "done", NULL, &inv, 1, &err) == 0,
	       "stores it (%s)", err.msg);
	tap_ok(db_query_int(db, "SELECT count(*) FROM samples") == 10 &&
	       db_query_int(db, "SELECT count(*) FROM results r WHERE repetitions ="
		      " (SELECT count(*) FROM samples s WHERE s.result_id = r.id)") == 4,
	       "every sample is stored: as many per result as repetitions");
	tap_ok(strcmp(text(db, "SELECT group_concat(ns, ' ') FROM (SELECT ns FROM"
			   " samples s JOIN results r ON r.id = s.result_id WHERE"
			   " r.buffer_bytes = 16 AND r.mode = 'bulk' ORDER BY rep)"),
		      "111000 107000 108000") == 0,
	       "in the order measured");
	tap_ok(strcmp(text(db, "SELECT group_concat(ns, ' ') FROM (SELECT ns FROM"
			   " keysetup_samples ORDER BY rep)"), "160000 140000") == 0 &&
	       db_query_int(db, "SELECT p25_ns + p75_ns FROM keysetups") == 300000,
	       "key setups keep their samples and quartiles too");
	tap_ok(strcmp(text(db, "SELECT p25_ns || ' ' || p75_ns || ' ' || round(cv, 4)"
			   " || ' ' || reruns || ' ' || noisy || ' ' || tsc_cycles FROM"
			   " results WHERE buffer_bytes = 16 AND mode = 'bulk'"),
		      "107500 109500 0.0192 1 0 226800") == 0 &&
	       db_query_int(db, "SELECT count(*) FROM results WHERE noisy = 1") == 1,
	       "quartiles, cv, re-runs, noisy flag and TSC cycles per result");
	tap_ok(strcmp(text(db, "SELECT clock_start_hz || ' ' || clock_end_hz || ' '"
			   " || tsc_hz || ' ' || guest_elapsed_ns || ' ' ||"
			   " host_elapsed_ns FROM invocations"),
		      "3000000000 2800000000 2100000000 2000000000 2010000000") == 0,
	       "the measured clocks and both elapsed times per invocation");
	tap_ok(db_query_int(db, "SELECT count(*) FROM curves") == 1 &&
	       strcmp(text(db, "SELECT algorithm || ' ' || operation || ' ' || mode"
			   " || ' ' || points || ' ' || round(overhead_ns, 3) || ' '"
			   " || round(ns_per_byte, 6) || ' ' || round(cycles_per_byte, 6)"
			   " FROM curves"), "sha-256 hash bulk 3 100.0 0.5 1.45") == 0,
	       "one curve fitted (one-shot has a single size): 100 ns + 0.5 ns/B, 1.45 cycles/B at 2.9 GHz (%s)",
	       text(db, "SELECT overhead_ns || ' ' || ns_per_byte || ' ' || cycles_per_byte FROM curves"));
	tap_ok(strcmp(text(db, "PRAGMA foreign_key_check"), "") == 0,
	       "foreign keys hold");
	tap_ok(db_exec(db, "DELETE FROM runs", &err) == 0 &&
	       db_query_int(db, "SELECT count(*) FROM samples") == 0 &&
	       db_query_int(db, "SELECT count(*) FROM keysetup_samples") == 0 &&
	       db_query_int(db, "SELECT count(*) FROM curves") == 0,
	       "deleting a run deletes its samples and curves");
	sqlite3_close(db);
	guest_judgement_release(&judged);
	guest_output_release(&out);
	free(path);
}

/* Migration 4: a run's seed and CPU state, invocations in rounds, the
 * order of the libraries; and the migration runner's numbering. */
static void cpu_state_tests(const char *dir, const struct cpuinfo *ci)
{
	static const char *hello =
		"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"hw\",\"clock_hz\":3000000000,\"seed\":77}";
	static const char *lib2 =
		"{\"type\":\"library\",\"library\":\"nettle\",\"status\":\"absent\"}";
	struct cpustate cs = { .cpu = 1, .cpufreq = 1, .governor = "powersave",
			       .boost = 1, .freq_khz = 2800000,
			       .virtualized = 1, .hypervisor = NULL };
	struct db_run run = { .uuid = "66666666-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = (long)getpid(),
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run --seed 12", .cpu = ci,
			      .seeded = 1, .seed = 4294967295u, .state = &cs };
	const char *in[] = { hello, lib2, lines[1], "{\"type\":\"done\",\"results\":0,\"measure_ns\":1,\"elapsed_ns\":1000000,\"clock_hz\":3000000000,\"tsc_hz\":0}" };
	struct guest_output out;
	struct db_invocation inv;
	struct guest_judgement judged;
	bo_err err = { "" };
	char *path = xasprintf("%s/cs.db", dir);
	sqlite3 *db;
	int64_t run_id;
	size_t i;
	unsigned n;
	int ordered = 1, have4 = 0;

	for (n = 0; n < db_migrations_count; n++) {
		if (n > 0 && db_migrations[n].version <= db_migrations[n - 1].version)
			ordered = 0;
		if (db_migrations[n].version == 4 && db_migrations[n].sql)
			have4 = 1;
	}
	tap_ok(db_migrations_count >= 1 && ordered && have4 &&
	       (int)db_migrations[db_migrations_count - 1].version == db_schema_version(),
	       "migrations are numbered by file name (0004 is version 4), in increasing order, the last one the schema version");

	guest_output_init(&out);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		if (guest_output_add_line(&out, in[i], strlen(in[i]), i + 1, &err) < 0)
			tap_diag("%s", err.msg);
	db_open(path, &db, &err);
	tap_ok(db_run_begin(db, &run, &run_id, &err) == 0, "records a run with its seed and CPU state (%s)",
	       err.msg);
	tap_ok(strcmp(text(db, "SELECT seed || '|' || pinned_cpu || '|' || governor || '|' ||"
			   " boost || '|' || freq_before_khz || '|' || virtualized ||"
			   " '|' || coalesce(hypervisor, 'NULL') || '|' ||"
			   " coalesce(freq_after_khz, 'NULL') FROM runs"),
		      "4294967295|1|powersave|1|2800000|1|NULL|NULL") == 0,
	       "seed, pinned CPU, governor, boost, kHz before and virtualization are stored, the unknown vendor NULL (%s)",
	       text(db, "SELECT seed || '|' || pinned_cpu || '|' || governor FROM runs"));
	tap_ok(db_run_cpu_after(db, run_id, 2000000, "a\nb", &err) == 0 &&
	       db_query_int(db, "SELECT freq_after_khz FROM runs") == 2000000 &&
	       strcmp(text(db, "SELECT cpu_warnings FROM runs"), "a\nb") == 0,
	       "the frequency after the run and the warnings are stored (%s)", err.msg);
	memset(&inv, 0, sizeof(inv));
	guest_output_judge(&out, &judged);
	inv = (struct db_invocation){ .spec = "debian", .runner = "nspawn",
		.started_at = "2026-01-01T00:00:01Z", .out = &out,
		.judged = &judged, .round = 3,
		.algorithms = "sha-256,aes-128-cbc" };
	tap_ok(db_run_finish(db, run_id, "done", NULL, &inv, 1, &err) == 0,
	       "stores an invocation of round 3 (%s)", err.msg);
	tap_ok(strcmp(text(db, "SELECT round || '|' || algorithms || '|' || seed FROM invocations"),
		      "3|sha-256,aes-128-cbc|77") == 0,
	       "with its round, its algorithms in order and the guest's seed");
	tap_ok(strcmp(text(db, "SELECT group_concat(name, ',') FROM (SELECT name FROM"
			   " library_loads ORDER BY position)"), "nettle,openssl") == 0,
	       "library_loads keep the order the guest ran the libraries in");
	run.uuid = "77777777-2222-3333-4444-555555555555";
	run.seeded = 0;
	run.state = NULL;
	db_run_begin(db, &run, &run_id, &err);
	tap_ok(db_query_int(db, "SELECT count(*) FROM runs WHERE seed IS NULL AND governor IS NULL"
		      " AND pinned_cpu IS NULL AND boost IS NULL") == 1,
	       "a run without seed or CPU state stores NULLs, nothing invented");
	sqlite3_close(db);
	guest_judgement_release(&judged);
	guest_output_release(&out);
	free(path);
}

int main(void)
{
	char dir[] = "/tmp/benchorch-t4010-XXXXXX";
	char *path;
	sqlite3 *db;
	bo_err err = { "" };
	struct cpuinfo ci = { .vendor = "GenuineTest", .model_name = "Test CPU",
			      .family = 6, .model = 85, .stepping = 7,
			      .microcode = "0x1", .flags = "fpu aes",
			      .kernel = "Linux 6.1 x86_64" };
	struct image_package pkgs[] = { { "libssl3", "3.0.11-1~deb12u2" },
					 { "zlib1g", "1:1.2.13" } };
	struct image_libpkg lp[] = { { "openssl", "libssl3" } };
	struct image img = { .name = "debian-bookworm", .distro = "debian",
			     .release = "bookworm", .digest = "sha256:00",
			     .created_at = "2026-01-01T00:00:00Z",
			     .method = "debootstrap", .npackages = 2,
			     .packages = pkgs, .nlibpkgs = 1, .libpkgs = lp };
	struct guest_output out;
	struct db_run run = { .uuid = "11111111-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = (long)getpid(),
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run", .cpu = &ci };
	struct db_invocation inv[2];
	struct guest_judgement judged;
	struct db_image dimg;
	int64_t run_id, run2;
	size_t i;
	pid_t dead;

	if (!mkdtemp(dir))
		return 99;
	path = xasprintf("%s/results.db", dir);

	tap_ok(db_open(path, &db, &err) == 0, "creates a new database (%s)",
	       err.msg);
	tap_ok(db_query_int(db, "PRAGMA user_version") == db_schema_version(),
	       "migrates to the current schema version");
	tap_ok(strcmp(text(db, "PRAGMA journal_mode"), "wal") == 0,
	       "uses WAL");
	sqlite3_close(db);
	tap_ok(db_open(path, &db, &err) == 0 &&
	       db_query_int(db, "PRAGMA user_version") == db_schema_version(),
	       "re-opening migrates nothing twice");

	tap_ok(db_run_begin(db, &run, &run_id, &err) == 0 && run_id > 0,
	       "records a run (%s)", err.msg);
	tap_ok(strcmp(text(db, "SELECT status FROM runs"), "running") == 0,
	       "a new run is 'running'");

	guest_output_init(&out);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (guest_output_add_line(&out, lines[i], strlen(lines[i]),
					  i + 1, &err) < 0)
			tap_diag("%s", err.msg);
	memset(inv, 0, sizeof(inv));
	guest_output_judge(&out, &judged);
	run_db_image(&img, &dimg);
	inv[0] = (struct db_invocation){ .spec = "debian", .image = &dimg,
		.runner = "nspawn", .started_at = "2026-01-01T00:00:01Z",
		.wall_ns = 5, .out = &out, .judged = &judged };
	inv[1] = (struct db_invocation){ .spec = "debian:trixie", .image = NULL,
		.runner = "", .started_at = "2026-01-01T00:00:02Z",
		.out = &out, .error = "cannot build image" };
	tap_ok(db_run_finish(db, run_id, "failed", "one failed", inv, 2, &err) == 0,
	       "stores a run in one transaction (%s)", err.msg);
	tap_ok(db_query_int(db, "SELECT count(*) FROM results_v") == 4,
	       "results_v has one row per result of the good invocation only");
	tap_ok(db_query_int(db, "SELECT count(*) FROM results_v WHERE mode = 'oneshot'") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM results_v WHERE algorithm = 'aes-128-cbc'"
		      " AND operation = 'encrypt' AND buffer_bytes = 16") == 2,
	       "bulk and one-shot results of the same point are both stored");
	tap_ok(db_query_int(db, "SELECT count(*) FROM keysetups_v WHERE ns_per_key = 200.0"
		      " AND verified = 1") == 1,
	       "key setup is stored, verified by the KAT");
	tap_ok(db_query_int(db, "SELECT count(*) FROM crosschecks WHERE agrees IS NULL") == 1,
	       "a library alone in the cross-check is stored with agrees NULL");
	tap_ok(strcmp(text(db, "SELECT package_version FROM results_v LIMIT 1"),
		      "3.0.11-1~deb12u2") == 0,
	       "results carry the package version from the image");
	tap_ok(strcmp(text(db, "SELECT cpu_model || '|' || distro || '|' || release ||"
			   " '|' || library_version FROM results_v LIMIT 1"),
		      "Test CPU|debian|bookworm|OpenSSL 3.0.11") == 0,
	       "results_v joins cpu, image and library");
	tap_ok(db_query_int(db, "SELECT min(verified) FROM results_v WHERE algorithm = 'aes-128-cbc'") == 1,
	       "a result whose KAT passed is verified");
	tap_ok(db_query_int(db, "SELECT verified FROM results_v WHERE algorithm = 'sha-256'") == 0,
	       "a result with one failed KAT is not verified, whatever the guest and its other KATs say");
	tap_ok(db_query_int(db, "SELECT verified FROM results_v WHERE algorithm = 'aes-128-ctr'") == 0,
	       "a result without a KAT is not verified");
	tap_ok(db_query_int(db, "SELECT count(*) FROM invocations WHERE status = 'failed'"
		      " AND error = 'cannot build image'") == 1,
	       "the failed invocation is recorded with its error");
	tap_ok(db_query_int(db, "SELECT count(*) FROM kats WHERE algorithm = 'sha-256'") == 2,
	       "every KAT vector is stored, not only one per algorithm");
	tap_ok(db_query_int(db, "SELECT count(*) FROM image_packages") == 2,
	       "the image's packages are stored");
	tap_ok(strcmp(text(db, "SELECT status FROM runs WHERE id = 1"), "failed") == 0 &&
	       db_query_int(db, "SELECT finished_at IS NOT NULL FROM runs") == 1,
	       "the run is finished with its status");

	/* the same image and library are not duplicated by a second run */
	run.uuid = "22222222-2222-3333-4444-555555555555";
	db_run_begin(db, &run, &run2, &err);
	db_run_finish(db, run2, "done", NULL, inv, 1, &err);
	tap_ok(db_query_int(db, "SELECT count(*) FROM images") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM libraries") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM cpus") == 1,
	       "images, libraries and cpus are shared between runs");
	tap_ok(db_run_begin(db, &run, &run2, &err) < 0,
	       "a duplicate run uuid is refused (%s)", err.msg);

	/* a run whose process died is reaped as aborted */
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	run.uuid = "33333333-2222-3333-4444-555555555555";
	run.pid = (long)dead;
	db_run_begin(db, &run, &run2, &err);
	run.uuid = "44444444-2222-3333-4444-555555555555";
	run.pid = (long)getpid();
	db_run_begin(db, &run, &run2, &err);
	tap_ok(db_reap_stale_runs(db, "testhost", &err) == 1,
	       "reaps exactly the run whose process is gone");
	tap_ok(strcmp(text(db, "SELECT status FROM runs WHERE uuid LIKE '3333%'"),
		      "aborted") == 0 &&
	       strcmp(text(db, "SELECT status FROM runs WHERE uuid LIKE '4444%'"),
		      "running") == 0,
	       "the dead run is aborted, the live one still running");
	tap_ok(strcmp(text(db, "PRAGMA integrity_check"), "ok") == 0,
	       "integrity_check is ok");
	tap_ok(strcmp(text(db, "PRAGMA foreign_key_check"), "") == 0,
	       "foreign keys are consistent");
	sqlite3_close(db);

	tap_ok(db_open_readonly(path, &db, &err) == 0, "opens read-only");
	tap_ok(db_exec(db, "DELETE FROM runs", &err) < 0,
	       "a read-only handle cannot write");
	sqlite3_close(db);

	/* a database from a newer benchorch is refused, not downgraded */
	db_open(path, &db, &err);
	db_exec(db, "PRAGMA user_version = 99", &err);
	sqlite3_close(db);
	tap_ok(db_open(path, &db, &err) < 0 && strstr(err.msg, "newer"),
	       "refuses a newer schema (%s)", err.msg);

	{
		char *bad = xasprintf("%s/no/such/dir/x.db", dir);

		tap_ok(db_open(bad, &db, &err) < 0 &&
		       strstr(err.msg, "cannot open database"),
		       "names the path it cannot open (%s)", err.msg);
		free(bad);
	}
	guest_judgement_release(&judged);
	run_db_image_release(&dimg);
	guest_output_release(&out);
	protocol2_tests(dir, &ci);
	protocol3_tests(dir, &ci);
	cpu_state_tests(dir, &ci);
	{
		char *cmd = xasprintf("rm -rf '%s'", dir);

		if (system(cmd) != 0)
			tap_diag("cannot remove %s", dir);
		free(cmd);
	}
	free(path);
	return tap_done();
}
