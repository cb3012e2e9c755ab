/* runs.c - the rows of runs and their invocations: a run begun, each
 * invocation stored (its output by output.c), the run finished, its CPU
 * recorded, stale runs reaped; and the run's cross-check failures. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "db/output.h"
#include "db/package-changes.h"
#include "db/stmt.h"

/* The id of the cpus row of CI in *RET, inserting it when new. Returns 0,
 * or -1 with err set. */
static int cpu_id(sqlite3 *db, const struct cpuinfo *ci, int64_t *ret,
		  bo_err *err)
{
	static const char *ins =
		"INSERT OR IGNORE INTO cpus (vendor, model_name, family, model,"
		" stepping, microcode, flags) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
	static const char *sel =
		"SELECT id FROM cpus WHERE vendor = ?1 AND model_name = ?2 AND"
		" family = ?3 AND model = ?4 AND stepping = ?5 AND"
		" microcode = ?6 AND flags = ?7";
	const char *sqls[2] = { ins, sel };
	int i, rc = -1;

	for (i = 0; i < 2; i++) {
		sqlite3_stmt *st;

		if (db_prep(db, sqls[i], &st, err) < 0)
			return -1;
		db_bind_text(st, 1, ci->vendor);
		db_bind_text(st, 2, ci->model_name);
		sqlite3_bind_int(st, 3, ci->family);
		sqlite3_bind_int(st, 4, ci->model);
		sqlite3_bind_int(st, 5, ci->stepping);
		db_bind_text(st, 6, ci->microcode);
		db_bind_text(st, 7, ci->flags);
		rc = i == 0 ? db_step_done(db, st, err) :
		     db_step_id(db, st, ret, err);
		sqlite3_finalize(st);
		if (rc < 0)
			return -1;
	}
	return rc == 1 ? 0 : bo_err_set(err, "database error: cpu row missing");
}

/* Bind the CPU state S (may be NULL) to parameters FIRST .. FIRST + 4:
 * governor, boost, freq_before_khz, virtualized, hypervisor; unknown
 * values stay NULL. */
static void bind_state(sqlite3_stmt *st, int first, const struct cpustate *s)
{
	if (!s)
		return;
	if (s->governor)
		db_bind_text(st, first, s->governor);
	if (s->boost >= 0)
		sqlite3_bind_int(st, first + 1, s->boost);
	if (s->freq_khz > 0)
		sqlite3_bind_int64(st, first + 2, s->freq_khz);
	if (s->virtualized >= 0)
		sqlite3_bind_int(st, first + 3, s->virtualized);
	if (s->hypervisor)
		db_bind_text(st, first + 4, s->hypervisor);
}

int db_run_begin(sqlite3 *db, const struct db_run *run, int64_t *ret_id,
		 bo_err *err)
{
	sqlite3_stmt *st;
	int64_t cid;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (cpu_id(db, run->cpu, &cid, err) < 0)
		goto fail;
	if (db_prep(db, "INSERT INTO runs (uuid, host, pid, started_at, status,"
		    " command_line, cpu_id, kernel, quick, seed, pinned_cpu,"
		    " governor, boost, freq_before_khz, virtualized, hypervisor)"
		    " VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7, ?8, ?9, ?10,"
		    " ?11, ?12, ?13, ?14, ?15)", &st, err) < 0)
		goto fail;
	db_bind_text(st, 1, run->uuid);
	db_bind_text(st, 2, run->host);
	sqlite3_bind_int64(st, 3, run->pid);
	db_bind_text(st, 4, run->started_at);
	db_bind_text(st, 5, run->command_line);
	sqlite3_bind_int64(st, 6, cid);
	db_bind_text(st, 7, run->cpu->kernel);
	sqlite3_bind_int(st, 8, run->quick ? 1 : 0);
	if (run->seeded)
		sqlite3_bind_int64(st, 9, (sqlite3_int64)run->seed);
	if (run->state && run->state->cpu >= 0)
		sqlite3_bind_int(st, 10, run->state->cpu);
	bind_state(st, 11, run->state);
	if (db_step_done(db, st, err) < 0) {
		sqlite3_finalize(st);
		goto fail;
	}
	sqlite3_finalize(st);
	*ret_id = sqlite3_last_insert_rowid(db);
	if (db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction
	 * open: roll it back, so the next one can begin */
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Insert the invocations row of INV in run RUN_ID with OUT, its output
 * (NULL when it failed: nothing of it is stored), then what hangs off it
 * (inv->store_more) and OUT with its judgement JUDGED (db_store_output;
 * not NULL when OUT is not). Returns 0, or -1 with err set. */
static int store_invocation_out(sqlite3 *db, int64_t run_id,
				const struct db_invocation *inv,
				const struct guest_output *out,
				const struct guest_judgement *judged,
				bo_err *err)
{
	sqlite3_stmt *st;
	int64_t img_id = 0, inv_id;
	int rc;

	if (inv->image && db_image_id(db, inv->image, &img_id, err) < 0)
		return -1;
	if (db_prep(db, "INSERT INTO invocations (run_id, image_id, spec, runner,"
		    " guest_version, libc, cpu, started_at, wall_ns, measure_ns,"
		    " status, error, variant, clock_start_hz, clock_end_hz, tsc_hz,"
		    " guest_elapsed_ns, host_elapsed_ns, round, algorithms, seed,"
		    " partial)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)", &st, err) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (inv->image)
		sqlite3_bind_int64(st, 2, img_id);
	db_bind_text(st, 3, inv->spec);
	db_bind_text(st, 4, inv->runner);
	db_bind_text(st, 5, out ? out->guest_version : NULL);
	db_bind_text(st, 6, out ? out->libc : NULL);
	sqlite3_bind_int(st, 7, out ? out->cpu : -1);
	db_bind_text(st, 8, inv->started_at);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)inv->wall_ns);
	sqlite3_bind_int64(st, 10, out ? out->measure_ns : 0);
	db_bind_text(st, 11, inv->error ? "failed" : "ok");
	if (inv->error)
		db_bind_text(st, 12, inv->error);
	db_bind_text(st, 13, out && out->variant ? out->variant :
		     inv->variant ? inv->variant : "hw");
	if (out) {
		sqlite3_bind_int64(st, 14, out->clock_start_hz);
		sqlite3_bind_int64(st, 15, out->clock_end_hz);
		if (out->tsc_hz > 0)
			sqlite3_bind_int64(st, 16, out->tsc_hz);
		sqlite3_bind_int64(st, 17, out->elapsed_ns);
		if (out->host_elapsed_ns > 0)
			sqlite3_bind_int64(st, 18, out->host_elapsed_ns);
	}
	if (inv->round > 0)
		sqlite3_bind_int(st, 19, inv->round);
	if (inv->algorithms)
		db_bind_text(st, 20, inv->algorithms);
	if (out && out->seed >= 0)
		sqlite3_bind_int64(st, 21, out->seed);
	/* partial: the guest ran to its end, a library of it failed */
	sqlite3_bind_int(st, 22, out ? judged->partial : 0);
	rc = db_step_done(db, st, err);
	sqlite3_finalize(st);
	if (rc < 0)
		return -1;
	inv_id = sqlite3_last_insert_rowid(db);
	if (inv->store_more && inv->store_more(db, inv_id, inv->store_ctx,
					       err) < 0)
		return -1;
	return out ? db_store_output(db, inv_id, out, judged, inv->image, err) :
	       0;
}

/* Store INV with its output (none when it failed), which must come
 * judged (inv->judged, of inv->out). Returns 0, or -1 with err set. */
static int store_invocation(sqlite3 *db, int64_t run_id,
			    const struct db_invocation *inv, bo_err *err)
{
	const struct guest_output *out = inv->error ? NULL : inv->out;
	const struct guest_judgement *j = inv->judged;

	if (out && (!j || j->nresults != out->nresults ||
		    j->nkeysetups != out->nkeysetups))
		return bo_err_set(err, "database error: the output of invocation '%s' comes without its judgement (guest_output_judge)",
				  inv->spec);
	return store_invocation_out(db, run_id, inv, out, out ? j : NULL, err);
}

int db_run_store_invocation(sqlite3 *db, int64_t run_id,
			    const struct db_invocation *inv, bo_err *err)
{
	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return (sqlite3_errcode(db) & 0xff) == SQLITE_BUSY ? DB_BUSY : -1;
	if (store_invocation(db, run_id, inv, err) == 0 &&
	    db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction open */
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* UPDATE run RUN_ID's status, finish time and error (NULL = none), in
 * the caller's transaction or none. Returns 0, or -1 with err set. */
static int set_status(sqlite3 *db, int64_t run_id, const char *status,
		      const char *error, bo_err *err)
{
	sqlite3_stmt *st;
	char now[32];
	int rc;

	if (db_prep(db, "UPDATE runs SET status = ?1, finished_at = ?2, error = ?3"
		    " WHERE id = ?4", &st, err) < 0)
		return -1;
	db_bind_text(st, 1, status);
	db_bind_text(st, 2, bo_utc_now(now, sizeof(now)));
	if (error)
		db_bind_text(st, 3, error);
	sqlite3_bind_int64(st, 4, run_id);
	rc = db_step_done(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int db_run_set_status(sqlite3 *db, int64_t run_id, const char *status,
		      const char *error, bo_err *err)
{
	return set_status(db, run_id, status, error, err);
}

int db_run_finish(sqlite3 *db, int64_t run_id, const char *status,
		  const char *error, const struct db_invocation *invs,
		  size_t ninvs, bo_err *err)
{
	size_t i;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	for (i = 0; i < ninvs; i++)
		if (store_invocation(db, run_id, &invs[i], err) < 0)
			goto fail;
	/* also for the invocations stored before, one at a time
	 * (db_run_store_invocation); a run without any records nothing */
	if (db_package_changes_record(db, run_id, err) < 0 ||
	    set_status(db, run_id, status, error, err) < 0)
		goto fail;
	if (db_exec(db, "COMMIT", err) == 0)
		return 0;
	/* a COMMIT that failed (disk full) may leave the transaction
	 * open: roll it back, so the next one can begin */
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int db_run_cpu_after(sqlite3 *db, int64_t run_id, int64_t freq_after_khz,
		     const char *warnings, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prep(db, "UPDATE runs SET freq_after_khz = ?1, cpu_warnings = ?2"
		    " WHERE id = ?3", &st, err) < 0)
		return -1;
	if (freq_after_khz > 0)
		sqlite3_bind_int64(st, 1, freq_after_khz);
	if (warnings)
		db_bind_text(st, 2, warnings);
	sqlite3_bind_int64(st, 3, run_id);
	rc = db_step_done(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int db_run_cpu_choice(sqlite3 *db, int64_t run_id, const char *reason,
		      const char *siblings, bo_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (db_prep(db, "UPDATE runs SET cpu_choice = ?1, cpu_siblings = ?2"
		    " WHERE id = ?3", &st, err) < 0)
		return -1;
	if (reason)
		db_bind_text(st, 1, reason);
	if (siblings)
		db_bind_text(st, 2, siblings);
	sqlite3_bind_int64(st, 3, run_id);
	rc = db_step_done(db, st, err);
	sqlite3_finalize(st);
	return rc;
}

int db_reap_stale_runs(sqlite3 *db, const char *host, bo_err *err)
{
	sqlite3_stmt *sel, *upd;
	char now[32];
	int n = 0, rc;

	if (db_exec(db, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (db_prep(db, "SELECT id, pid FROM runs WHERE status = 'running' AND"
		    " host = ?1", &sel, err) < 0)
		goto fail;
	if (db_prep(db, "UPDATE runs SET status = 'aborted', finished_at = ?1,"
		    " error = 'the benchorch process running it disappeared'"
		    " WHERE id = ?2", &upd, err) < 0) {
		sqlite3_finalize(sel);
		goto fail;
	}
	db_bind_text(sel, 1, host);
	bo_utc_now(now, sizeof(now));
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		long pid = (long)sqlite3_column_int64(sel, 1);

		if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;	/* still alive */
		db_bind_text(upd, 1, now);
		sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
		if (db_step_done(db, upd, err) < 0) {
			rc = SQLITE_ERROR;
			break;
		}
		n++;
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	if (rc != SQLITE_DONE) {
		if (rc != SQLITE_ERROR)
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		goto fail;
	}
	if (db_exec(db, "COMMIT", err) == 0)
		return n;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

long db_crosscheck_failures(sqlite3 *db, int64_t run_id, FILE *f)
{
	sqlite3_stmt *st;
	long n = 0;
	int rc;

	if (sqlite3_prepare_v2(db,
		"SELECT coalesce(im.distro || ':' || im.release, inv.spec),"
		" inv.variant, c.library, c.algorithm, c.roundtrip,"
		" (SELECT count(*) FROM crosschecks o WHERE"
		"  o.invocation_id = c.invocation_id AND"
		"  o.algorithm = c.algorithm AND o.library <> c.library)"
		" FROM crosschecks c JOIN invocations inv ON"
		" inv.id = c.invocation_id LEFT JOIN images im ON"
		" im.id = inv.image_id WHERE inv.run_id = ?1 AND c.agrees = 0"
		" ORDER BY 1, 2, 3, 4", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (!f)
			continue;
		fprintf(f, "  %s (%s) %s %s: %s\n", sqlite3_column_text(st, 0),
			sqlite3_column_text(st, 1), sqlite3_column_text(st, 2),
			sqlite3_column_text(st, 3),
			!sqlite3_column_int(st, 4) ?
			"decryption did not restore the input" :
			"output differs from the other libraries (no majority"
			" agrees with it)");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -1;
}

int db_run_exists(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM runs WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_run_is_tool_run(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *st;
	int rc, has = db_has(db, "tool_results");

	if (has <= 0)
		return has;	/* older than the tool mode: none is */
	if (sqlite3_prepare_v2(db, "SELECT EXISTS (SELECT 1 FROM invocations i"
			       " JOIN tool_results t ON t.invocation_id = i.id"
			       " WHERE i.run_id = ?1) AND NOT EXISTS (SELECT 1"
			       " FROM invocations i JOIN results r ON"
			       " r.invocation_id = i.id WHERE i.run_id = ?1)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = sqlite3_column_int(st, 0);
	else
		rc = rc == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}
