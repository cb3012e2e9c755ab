/* t3065-spool - a guest invocation's output kept on disk between the
 * invocation and storing the run (orchestrator/spool.h): read back it is
 * the same output, the shrunk one keeps only what the run reads later,
 * and a damaged spool is refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "orchestrator/spool.h"
#include "tests/tap.h"

static const char *lines[] = {
	"{\"type\":\"hello\",\"protocol\":3,\"guest_version\":\"0.1.0\",\"libc\":\"glibc 2.36\",\"cpu\":1,\"variant\":\"nohw\",\"clock_hz\":3000000000}",
	"{\"type\":\"library\",\"library\":\"openssl\",\"status\":\"loaded\",\"soname\":\"libcrypto.so.3\",\"path\":\"/l\",\"version\":\"OpenSSL 3.0.11\",\"build_id\":\"\",\"rss_before_load_kib\":4000,\"footprint_kib\":9000}",
	"{\"type\":\"kat\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"ok\":true,\"source\":\"x\"}",
	"{\"type\":\"result\",\"library\":\"openssl\",\"algorithm\":\"sha-256\",\"operation\":\"hash\",\"mode\":\"bulk\",\"buffer_bytes\":16,\"calls_per_batch\":1000,\"bytes_per_batch\":16000,\"repetitions\":3,\"median_ns\":108000,\"min_ns\":107000,\"p25_ns\":107500,\"p75_ns\":109500,\"cv\":0.01915643558,\"reruns\":1,\"noisy\":false,\"tsc_cycles\":0,\"mb_per_s\":148.1481481,\"verified\":true,\"maxrss_kib\":9100,\"samples_ns\":[111000,107000,108000]}",
	"{\"type\":\"done\",\"results\":1,\"measure_ns\":999,\"elapsed_ns\":2000000000,\"clock_hz\":2800000000,\"tsc_hz\":0,\"rusage\":[{\"library\":\"openssl\",\"user_us\":5,\"sys_us\":6,\"maxrss_kib\":9200}]}",
};
#define NLINES (sizeof(lines) / sizeof(lines[0]))

/* db_invocation.load over a spool. */
static int load(void *ctx, struct guest_output *out, bo_err *err)
{
	guest_output_release(out);
	return spool_load(ctx, 5, out, err);
}

/* The run's store reads the invocation back from the spool SP: stored
 * as if it had been in memory. */
static void store_test(FILE *sp)
{
	char dir[] = "/tmp/benchorch-t3065-XXXXXX";
	struct cpuinfo ci = { .vendor = "GenuineTest", .model_name = "Test CPU",
			      .microcode = "0x1", .flags = "fpu",
			      .kernel = "Linux 6.1 x86_64" };
	struct db_run run = { .uuid = "88888888-2222-3333-4444-555555555555",
			      .host = "testhost", .pid = 1,
			      .started_at = "2026-01-01T00:00:00Z",
			      .command_line = "benchorch run", .cpu = &ci };
	struct guest_output empty;
	struct db_invocation inv;
	bo_err err = { "" };
	int64_t run_id;
	sqlite3 *db = NULL;
	char *path, *cmd;

	if (!mkdtemp(dir)) {
		tap_ok(0, "a temporary directory");
		return;
	}
	path = xasprintf("%s/s.db", dir);
	guest_output_init(&empty);
	inv = (struct db_invocation){ .spec = "debian", .runner = "chroot",
		.started_at = "2026-01-01T00:00:01Z", .out = &empty,
		.variant = "hw", .round = 1, .load = load, .load_ctx = sp };
	tap_ok(db_open(path, &db, &err) == 0 &&
	       db_run_begin(db, &run, &run_id, &err) == 0 &&
	       db_run_finish(db, run_id, "done", NULL, &inv, 1, &err) == 0 &&
	       db_query_int(db, "SELECT count(*) FROM results") == 1 &&
	       db_query_int(db, "SELECT count(*) FROM samples") == 3 &&
	       db_query_int(db, "SELECT footprint_kib FROM library_resources") == 9000 &&
	       db_query_int(db, "SELECT host_elapsed_ns FROM invocations") == 5 &&
	       db_query_int(db, "SELECT count(*) FROM invocations WHERE variant = 'nohw'") == 1,
	       "db_run_finish stores an invocation read back through its loader (%s)",
	       err.msg);
	sqlite3_close(db);
	guest_output_release(&empty);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		tap_diag("cannot remove %s", dir);
	free(cmd);
	free(path);
}

int main(void)
{
	struct guest_output out, back;
	bo_err err = { "" };
	FILE *sp;
	size_t i;
	int ok = 1;

	sp = spool_open(&err);
	tap_ok(sp != NULL, "a spool opens (%s)", err.msg);
	if (!sp)
		return tap_done();
	guest_output_init(&out);
	for (i = 0; i < NLINES; i++)
		ok &= guest_output_add_line(&out, lines[i], strlen(lines[i]),
					    i + 1, &err) == 0 &&
		      spool_add(sp, lines[i], strlen(lines[i]), &err) == 0;
	ok &= guest_output_finish(&out, &err) == 0 &&
	      guest_output_check_clock(&out, INT64_C(2010000000), &err) == 0;
	tap_ok(ok, "the lines are parsed and spooled (%s)", err.msg);

	spool_shrink(&out);
	tap_ok(out.nresults == 0 && !out.results && out.nlibraries == 0 &&
	       !out.libraries && out.nrusage == 0 && !out.guest_version &&
	       out.clock_start_hz == 3000000000 &&
	       out.clock_end_hz == 2800000000 &&
	       out.host_elapsed_ns == 2010000000,
	       "shrunk, it holds no result but the clocks and the host's time");

	tap_ok(spool_load(sp, out.host_elapsed_ns, &back, &err) == 0,
	       "read back (%s)", err.msg);
	tap_ok(back.nresults == 1 && back.nlibraries == 1 && back.nkats == 1 &&
	       back.have_done && strcmp(back.variant, "nohw") == 0 &&
	       back.results[0].t.repetitions == 3 &&
	       back.results[0].t.samples_ns[2] == 108000 &&
	       back.results[0].maxrss_kib == 9100 &&
	       back.libraries[0].footprint_kib == 9000 &&
	       back.nrusage == 1 && back.rusage[0].maxrss_kib == 9200 &&
	       back.clock_start_hz == 3000000000 && back.elapsed_ns == 2000000000 &&
	       back.host_elapsed_ns == 2010000000,
	       "the output read back is the one parsed: results, samples, libraries, resources, clocks");
	guest_output_release(&back);
	tap_ok(spool_load(sp, 1, &back, &err) == 0 && back.nresults == 1,
	       "it can be read again (%s)", err.msg);
	guest_output_release(&back);
	store_test(sp);

	/* a spool cut short: the done line is missing */
	fclose(sp);
	sp = spool_open(&err);
	for (i = 0; sp && i + 1 < NLINES; i++)
		spool_add(sp, lines[i], strlen(lines[i]), &err);
	tap_ok(sp && spool_load(sp, 1, &back, &err) < 0 &&
	       tap_contains(err.msg, "ended before 'done'") &&
	       back.nresults == 0 && !back.results,
	       "a spool without its done line is refused, nothing kept (%s)",
	       err.msg);
	if (sp)
		fclose(sp);
	guest_output_release(&out);
	return tap_done();
}
