/* latest-pick.c - the run a command shows when none is named. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "orchestrator/results/latest-pick.h"

int64_t latest_pick(sqlite3 *db, enum db_run_kind kind)
{
	int64_t id = db_latest_run(db, kind);
	char *skipped;

	if (id < 0 || db_latest_skipped(db, kind, id, &skipped) < 0)
		return -1;
	if (skipped && id > 0)
		fprintf(stderr, "benchorch: %s; showing run %lld, the latest"
			" finished %s run\n", skipped, (long long)id,
			db_run_kind_name(kind));
	else if (skipped)
		fprintf(stderr, "benchorch: %s; no finished %s run to show\n",
			skipped, db_run_kind_name(kind));
	free(skipped);
	return id;
}
