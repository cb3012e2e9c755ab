/* t7140-daemon-verdict - the verdict the daemon keeps after a run: its run
 * against the previous run of the same CPU made alike (--quick, variant,
 * --interleave; no confirmation), stored with
 * source 'daemon', and the last one as status shows it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "orchestrator/daemon/daemon-verdict.h"
#include "tests/tap.h"

/* Runs 1 and 2 on CPU 1 (run 2: libgcrypt's one curve 20 % slower,
 * openssl's alike), run 3 on CPU 2; two invocations each, three sizes,
 * the invocations 0.2 % apart. */
static int fill(sqlite3 *db, bo_err *err)
{
	char sql[1024];
	int run, k, l, s;

	if (db_exec(db, "INSERT INTO cpus (id, model_name) VALUES (1, 'a'), (2, 'b');"
		    " INSERT INTO images (id, distro, release, digest) VALUES"
		    "  (1, 'debian', 'bookworm', 'sha256:1');"
		    " INSERT INTO libraries (id, name, package, package_version) VALUES"
		    "  (1, 'openssl', 'libssl3', '3.0'), (2, 'libgcrypt', 'libgcrypt20', '1.10')",
		    err) < 0)
		return -1;
	/* 1-3 as named in main; 4 a --nohw run, 5 a confirmation of run 2,
	 * 6 a run like 2: none of 4 and 5 is a base for 6 */
	for (run = 1; run <= 6; run++) {
		snprintf(sql, sizeof(sql), "INSERT INTO runs (id, uuid, host, pid,"
			 " started_at, status, command_line, cpu_id) VALUES (%d,"
			 " 'u%d', 'h', 1, '2026-01-0%dT00:00:00Z', 'done', 'run', %d)",
			 run, run, run, run == 3 ? 2 : 1);
		if (db_exec(db, sql, err) < 0)
			return -1;
		for (k = 0; k < 2; k++) {
			int inv = run * 10 + k;

			snprintf(sql, sizeof(sql), "INSERT INTO invocations (id, run_id,"
				 " image_id, spec, started_at, status, variant) VALUES"
				 " (%d, %d, 1, 'debian', 't', 'ok', '%s')", inv, run,
				 run == 4 ? "nohw" : "hw");
			if (db_exec(db, sql, err) < 0)
				return -1;
			for (l = 0; l < 2; l++)
				for (s = 0; s < 3; s++) {
					long long bytes = 16LL << (4 * s);
					double ns = 1000.0 * (double)bytes * (1 + 0.002 * k) *
						    ((run == 2 || run == 6) && l == 1 ? 1.25 :
						     run == 4 || run == 5 ? 2.0 : 1.0);

					snprintf(sql, sizeof(sql), "INSERT INTO results"
						 " (invocation_id, library_id, algorithm,"
						 " operation, buffer_bytes, calls_per_batch,"
						 " bytes_per_batch, repetitions, median_ns, min_ns,"
						 " mb_per_s, verified) VALUES (%d, %d, 'sha-256',"
						 " 'hash', %lld, 1, %lld, 5, %lld, %lld, 1, 1)",
						 inv, l + 1, bytes, bytes, (long long)ns,
						 (long long)ns);
					if (db_exec(db, sql, err) < 0)
						return -1;
				}
		}
	}
	return db_exec(db, "INSERT INTO confirmations (run_id, confirmed_run_id,"
		       " distro, release, image_id) VALUES (5, 2, 'debian',"
		       " 'bookworm', 1)", err);
}

int main(void)
{
	char dir[] = "/tmp/t7140.XXXXXX", path[64], line[256];
	sqlite3 *db;
	bo_err err = { "" };
	json_t *o, *v, *c;
	int rc;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tap_ok(db_open(path, &db, &err) == 0 && fill(db, &err) == 0,
	       "a database of six runs (%s)", err.msg);
	sqlite3_close(db);

	o = json_object();
	daemon_last_verdict_json(path, o);
	tap_ok(json_is_null(json_object_get(o, "last_verdict")),
	       "no verdict yet: last_verdict is null");
	json_decref(o);

	rc = daemon_verdict_after_run(path, 1, line, sizeof(line), &err);
	tap_ok(rc == 0 && strstr(line, "no previous run"),
	       "the first run has nothing to compare with (%d: %s)", rc, line);
	rc = daemon_verdict_after_run(path, 3, line, sizeof(line), &err);
	tap_ok(rc == 0, "a run on another CPU is not compared with the others (%d: %s)",
	       rc, line);
	rc = daemon_verdict_after_run(path, 2, line, sizeof(line), &err);
	tap_ok(rc == 1 && strcmp(line, "run 2 against run 1: 2 curves, 1 changed"
				 " (1 confirmed regression), 0 flagged") == 0,
	       "run 2 against run 1, stored (%d: %s%s)", rc, line,
	       rc < 0 ? err.msg : "");

	o = json_object();
	daemon_last_verdict_json(path, o);
	v = json_object_get(o, "last_verdict");
	c = json_array_get(json_object_get(v, "changed_curves"), 0);
	tap_ok(json_integer_value(json_object_get(v, "base_run")) == 1 &&
	       json_integer_value(json_object_get(v, "new_run")) == 2 &&
	       json_integer_value(json_object_get(v, "changed")) == 1 &&
	       json_integer_value(json_object_get(v, "confirmed_regressions")) == 1 &&
	       json_array_size(json_object_get(v, "changed_curves")) == 1,
	       "status: the last verdict, run 2 against run 1, one confirmed regression");
	tap_ok(c && strcmp(json_string_value(json_object_get(c, "library")), "libgcrypt") == 0 &&
	       json_real_value(json_object_get(c, "effect")) < -0.19 &&
	       json_real_value(json_object_get(c, "effect")) > -0.21 &&
	       strcmp(json_string_value(json_object_get(c, "state")), "confirmed") == 0,
	       "its changed curve: libgcrypt sha-256, -20 %%, confirmed");
	json_decref(o);

	/* like with like: a --nohw run (4) and a confirmation run (5) in
	 * between are no base, both 2 times slower */
	rc = daemon_verdict_after_run(path, 6, line, sizeof(line), &err);
	tap_ok(rc == 1 && strncmp(line, "run 6 against run 2: 2 curves, 0 changed",
				  strlen("run 6 against run 2: 2 curves, 0 changed")) == 0,
	       "run 6 against run 2, past a --nohw run and a confirmation (%d: %s%s)",
	       rc, line, rc < 0 ? err.msg : "");

	/* and made the same way of taking turns: run 6 measured
	 * interleaved (a pair stored) has no interleaved run before it */
	{
		sqlite3 *db;

		rc = db_open(path, &db, &err);
		if (rc == 0) {
			rc = db_exec(db, "INSERT INTO pairs (invocation_id,"
				     " library_id, versus_id, algorithm,"
				     " operation, mode, buffer_bytes, ratio, low,"
				     " high, coverage, rounds, tie, span_ns)"
				     " VALUES (60, 2, 1, 'sha-256', 'hash',"
				     " 'bulk', 16, 1, 1, 1, 0.9, 6, 1, 0)", &err);
			sqlite3_close(db);
		}
	}
	if (rc == 0)
		rc = daemon_verdict_after_run(path, 6, line, sizeof(line),
					      &err);
	tap_ok(rc == 0 && strstr(line, "no previous run"),
	       "an interleaved run 6 has no base among the runs measured "
	       "library after library (%d: %s%s)", rc, line,
	       rc < 0 ? err.msg : "");

	snprintf(line, sizeof(line), "rm -rf '%s'", dir);
	if (system(line) != 0)
		tap_diag("cannot remove %s", dir);
	return tap_done();
}
