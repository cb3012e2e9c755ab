/* t4065-store-invocation - a run stores each guest invocation as soon as
 * it ends, in a transaction of its own (db_run_store_invocation), then
 * shrinks its output to what the run reads at its end
 * (guest_output_shrink); the run's end (db_run_finish with no
 * invocations) keeps them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "tests/tap.h"

static const char *lines[] = {
	"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"nohw\",\"clock_hz\":3000000000}",
	"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/l\",\"version\":\"OpenSSL 3.0.11\",\"build_id\":\"\",\"rss_before_load_kib\":4000,\"footprint_kib\":9000}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"ok\":true,\"source\":\"x\"}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":3,\"median_ns\":108000,\"min_ns\":107000,\"p25_ns\":107500,\"p75_ns\":109500,\"cv\":0.01915643558,\"reruns\":1,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":148.1481481,\"verified\":true,\"maxrss_kib\":9100,\"samples_ns\":[111000,107000,108000]}",
	"{\"type\":\"done\",\"results\":1,\"measure_ns\":999,\"elapsed_ns\":2000000000,\"clock_hz\":2800000000,\"tsc_hz\":0,\"rusage\":[{\"library\":\"openssl\",\"user_us\":5,\"sys_us\":6,\"maxrss_kib\":9200}]}",
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

int main(void)
{
	char dir[] = "/tmp/benchorch-t4065-XXXXXX";
	struct cpuinfo ci = { .vendor = "GenuineTest", .model_name = "Test CPU",
			      .microcode = "0x1", .flags = "fpu",
			      .kernel = "Linux 6.1 x86_64" };
	struct db_run run = { .uuid = "88888888-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = 1,
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run", .cpu = &ci };
	struct guest_output out, none;
	struct db_invocation inv;
	struct guest_judgement judged;
	bo_err err = { "" };
	int64_t run_id = 0;
	sqlite3 *db = NULL;
	char *path, *cmd;
	size_t i;
	int ok = 1;

	guest_output_init(&out);
	for (i = 0; i < NLINES; i++)
		ok &= guest_output_add_line(&out, lines[i], strlen(lines[i]),
					    i + 1, &err) == 0;
	ok &= guest_output_finish(&out, &err) == 0 &&
	      guest_output_check_clock(&out, INT64_C(2010000000), &err) == 0;
	tap_ok(ok, "the guest's lines are parsed (%s)", err.msg);
	if (!mkdtemp(dir)) {
		tap_ok(0, "a temporary directory");
		guest_output_release(&out);
		return tap_done();
	}
	path = xasprintf("%s/s.db", dir);
	guest_output_judge(&out, &judged);
	inv = (struct db_invocation){ .spec = "debian", .runner = "chroot",
		.started_at = "2026-01-01T00:00:01Z", .out = &out,
		.judged = &judged, .variant = "hw", .round = 1 };
	tap_ok(db_open(path, &db, &err) == 0 &&
	       db_run_begin(db, &run, &run_id, &err) == 0 &&
	       db_run_store_invocation(db, run_id, &inv, &err) == 0,
	       "the invocation is stored while the run is still going (%s)",
	       err.msg);
	guest_judgement_release(&judged);
	tap_ok(db && db_query_int(db, "SELECT count(*) FROM results") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM samples") == 3 &&
	       db_query_int(db, "SELECT footprint_kib FROM library_resources") == 9000 &&
	       db_query_int(db, "SELECT host_elapsed_ns FROM invocations") == 2010000000 &&
	       db_query_int(db, "SELECT count(*) FROM invocations WHERE variant = 'nohw'") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM runs WHERE status = 'running'") == 1,
	       "its result, samples, resources, host time and variant (the guest's hello: nohw) are in, the run still 'running'");

	guest_output_shrink(&out);
	tap_ok(out.nresults == 0 && !out.results && out.nlibraries == 0 &&
	       !out.libraries && out.nrusage == 0 && !out.guest_version &&
	       out.clock_start_hz == 3000000000 &&
	       out.clock_end_hz == 2800000000 &&
	       out.host_elapsed_ns == 2010000000,
	       "shrunk, the output holds no result but the clocks and the host's time");

	/* a failed invocation: stored as such, none of its output */
	guest_output_init(&none);
	inv = (struct db_invocation){ .spec = "debian", .runner = "chroot",
		.started_at = "2026-01-01T00:00:02Z", .out = &none,
		.error = "guest exited with status 1", .round = 2 };
	tap_ok(db && db_run_store_invocation(db, run_id, &inv, &err) == 0 &&
	       db_query_int(db, "SELECT count(*) FROM invocations WHERE status = 'failed' AND round = 2") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM results") == 1,
	       "a failed invocation is stored failed, with nothing of its output (%s)",
	       err.msg);
	guest_output_release(&none);

	tap_ok(db && db_run_finish(db, run_id, "done", NULL, NULL, 0, &err) == 0 &&
	       db_query_int(db, "SELECT count(*) FROM runs WHERE status = 'done'") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM invocations") == 2 &&
	       db_query_int(db, "SELECT count(*) FROM results") == 1,
	       "the run's end keeps the invocations stored before (%s)", err.msg);

	/* no transaction is left open: another connection can write */
	{
		sqlite3 *db2 = NULL;

		tap_ok(db_open(path, &db2, &err) == 0 &&
		       db_exec(db2, "BEGIN IMMEDIATE; COMMIT", &err) == 0,
		       "no transaction left open (%s)", err.msg);
		sqlite3_close(db2);
	}
	sqlite3_close(db);
	guest_output_release(&out);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		tap_diag("cannot remove %s", dir);
	free(cmd);
	free(path);
	return tap_done();
}
