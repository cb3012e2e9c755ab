-- Migration 15: the run a reader shows when none is named.
--
-- "The latest run" is the latest finished run of the kind asked for:
-- results, results --summary, report and compare --latest show the
-- latest finished library run, results --tools and the report's tool
-- section the latest finished tool run. benchorch reads this view (on a
-- database older than it, opened read-only, it defines the same view
-- for the connection alone, from this file); the example queries of
-- db/README read it too.
--
-- latest_runs_v: one row per finished run (status 'done') and kind:
--  * kind 'library': it has library results (results) and is not a
--    confirmation run;
--  * kind 'tools': it has tool results (`run --tools`, tool_results);
--  * kind 'confirmation': a confirmation run (confirmations), which
--    measures a few curves of another run again.
--  A run that was aborted, failed or is still running is in none; a
--  finished run with nothing stored is in none either.
--  nth: 1 for the latest run of its kind, 2 for the one before, ...:
--  latest by started_at, then by id (a run merged from another host
--  keeps its own start time).
--  Then run_id, run_uuid, host, started_at, finished_at and quick (as in
--  runs).

CREATE VIEW latest_runs_v AS
WITH kinds (id, kind) AS (
	SELECT r.id, 'confirmation' FROM runs r
	WHERE r.id IN (SELECT run_id FROM confirmations)
	UNION ALL
	SELECT r.id, 'library' FROM runs r
	WHERE r.id NOT IN (SELECT run_id FROM confirmations)
	  AND EXISTS (SELECT 1 FROM invocations i
		      JOIN results x ON x.invocation_id = i.id
		      WHERE i.run_id = r.id)
	UNION ALL
	SELECT r.id, 'tools' FROM runs r
	WHERE r.id NOT IN (SELECT run_id FROM confirmations)
	  AND EXISTS (SELECT 1 FROM invocations i
		      JOIN tool_results t ON t.invocation_id = i.id
		      WHERE i.run_id = r.id)
)
SELECT k.kind AS kind,
       row_number() OVER (PARTITION BY k.kind
			  ORDER BY r.started_at DESC, r.id DESC) AS nth,
       r.id AS run_id, r.uuid AS run_uuid, r.host AS host,
       r.started_at AS started_at, r.finished_at AS finished_at,
       r.quick AS quick
FROM kinds k JOIN runs r ON r.id = k.id
WHERE r.status = 'done';
