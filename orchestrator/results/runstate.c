/* runstate.c - read a run's seed and CPU state back from the database. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "lib/messages.h"
#include "orchestrator/results/runstate.h"

/* Columns of migration 4; the first query needs them, the second is for
 * a database that predates them. */
static const char state_sql[] =
	"SELECT coalesce(c.model_name, ''), r.seed, r.pinned_cpu, r.governor,"
	" r.boost, r.freq_before_khz, r.freq_after_khz, r.virtualized,"
	" r.hypervisor, r.cpu_warnings,"
	" (SELECT coalesce(max(i.round), 0) FROM invocations i"
	"  WHERE i.run_id = r.id)"
	" FROM runs r LEFT JOIN cpus c ON c.id = r.cpu_id WHERE r.id = ?1";
static const char old_sql[] =
	"SELECT coalesce(c.model_name, '') FROM runs r LEFT JOIN cpus c"
	" ON c.id = r.cpu_id WHERE r.id = ?1";

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? xstrdup((const char *)s) : NULL;
}

static int64_t col_int(sqlite3_stmt *st, int i, int64_t unknown)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? unknown :
	       (int64_t)sqlite3_column_int64(st, i);
}

int run_state_read(sqlite3 *db, int64_t run_id, struct run_state *s,
		   bo_err *err)
{
	sqlite3_stmt *st;
	int full, rc;

	memset(s, 0, sizeof(*s));
	s->run_id = run_id;
	s->state.cpu = s->state.cpufreq = s->state.boost = -1;
	s->state.virtualized = -1;
	s->state.freq_khz = s->freq_after_khz = -1;
	/* a schema before the CPU's state (4): the run's row alone */
	full = db_prepare_optional(db, state_sql, &st);
	if (full < 0 || (full == 0 && sqlite3_prepare_v2(db, old_sql, -1, &st,
							 NULL) != SQLITE_OK))
		return bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			bo_err_set(err, "no run '%lld' in the database",
				   (long long)run_id);
		else
			bo_err_set(err, "database error: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	s->cpu_model = col_text(st, 0);
	if (!s->cpu_model)
		s->cpu_model = xstrdup("");
	if (full) {
		s->seeded = sqlite3_column_type(st, 1) != SQLITE_NULL;
		s->seed = (uint64_t)col_int(st, 1, 0);
		s->state.cpu = (int)col_int(st, 2, -1);
		s->state.governor = col_text(st, 3);
		s->state.boost = (int)col_int(st, 4, -1);
		s->state.freq_khz = col_int(st, 5, -1);
		s->freq_after_khz = col_int(st, 6, -1);
		s->state.virtualized = (int)col_int(st, 7, -1);
		s->state.hypervisor = col_text(st, 8);
		s->warnings = col_text(st, 9);
		s->rounds = (size_t)col_int(st, 10, 0);
		s->recorded = s->seeded || s->state.cpu >= 0;
	}
	sqlite3_finalize(st);
	return 0;
}

void run_state_release(struct run_state *s)
{
	free(s->cpu_model);
	free(s->warnings);
	cpustate_release(&s->state);
	memset(s, 0, sizeof(*s));
}

char *run_state_cpu(const struct run_state *s)
{
	if (!s->recorded || s->state.cpu < 0)
		return xstrdup("not recorded");
	return cpustate_describe(&s->state, s->freq_after_khz);
}

char *run_state_describe(const struct run_state *s)
{
	char *cpu, *out, *seed;

	if (!s->recorded)
		return xasprintf("run %lld: %s; CPU state not recorded",
				 (long long)s->run_id,
				 *s->cpu_model ? s->cpu_model : "unknown CPU");
	cpu = run_state_cpu(s);
	seed = s->seeded ? xasprintf("seed %llu", (unsigned long long)s->seed) :
			   xstrdup("no seed");
	out = xasprintf("run %lld: %s; %s; %s, %zu round%s%s",
			(long long)s->run_id,
			*s->cpu_model ? s->cpu_model : "unknown CPU", cpu, seed,
			s->rounds, s->rounds == 1 ? "" : "s",
			s->warnings && *s->warnings ?
			"; numbers may have drifted" : "");
	free(cpu);
	free(seed);
	return out;
}

char *cli_stored_as(int64_t run_id, const char *status, const char *error)
{
	return xasprintf("run %lld is stored as %s%s%s%s", (long long)run_id,
			 status, error ? " (" : "", error ? error : "",
			 error ? ")" : "");
}

void cli_warn_partial_run(sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT status, error FROM runs WHERE id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *status = (const char *)sqlite3_column_text(st, 0);
		const char *error = (const char *)sqlite3_column_text(st, 1);

		if (status && strcmp(status, "done") != 0) {
			char *what = cli_stored_as(run_id, status, error);

			cli_warn("%s: its results are partial", what);
			free(what);
		}
	}
	sqlite3_finalize(st);
}
