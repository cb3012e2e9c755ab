-- Migration 6: results_v shows what the guest measured about each point,
-- so that a sqlite3 user can tell a noisy point from a clean one without
-- joining tables: it keeps every column it had, in the same order, and
-- adds at the end p25_ns and p75_ns (quartiles, ns per batch), cv
-- (coefficient of variation of the samples, a fraction), reruns (sets
-- measured after the first), noisy (1: cv stayed above the guest's limit
-- after the re-runs), tsc_cycles (median TSC ticks per batch), and from
-- the point's curve (same invocation, library, algorithm, operation and
-- mode) overhead_ns (ns per call), ns_per_byte and cycles_per_byte (at the
-- clock the guest measured). They are NULL on rows stored before schema 5
-- and where a curve has no fit (fewer than two sizes).
-- Library faults are kept apart from absence:
--  * library_loads.status gains 'failed' (the library's file is in the
--    image but it could not be loaded or used: a dependency missing or
--    broken, a symbol missing), and library_loads.message says why (the
--    loader's message for each soname tried); 'absent' means that no
--    soname file exists. Rebuilt, since SQLite cannot alter a CHECK;
--    nothing references it.
--  * invocations.partial: 1 when the guest ran to its end but a library
--    of it failed (could not be loaded, crashed, or hung and was killed),
--    so the invocation holds the other libraries' results only; 0
--    otherwise (and on every invocation stored before schema 6).

DROP VIEW results_v;
CREATE VIEW results_v AS
SELECT
	r.id			AS result_id,
	inv.run_id		AS run_id,
	ru.uuid			AS run_uuid,
	ru.host			AS host,
	ru.started_at		AS run_started_at,
	im.distro		AS distro,
	im.release		AS release,
	im.digest		AS image_digest,
	c.model_name		AS cpu_model,
	l.name			AS library,
	l.version		AS library_version,
	l.package		AS package,
	l.package_version	AS package_version,
	l.path			AS library_path,
	r.algorithm		AS algorithm,
	r.operation		AS operation,
	r.buffer_bytes		AS buffer_bytes,
	r.median_ns		AS median_ns,
	r.min_ns		AS min_ns,
	r.calls_per_batch	AS calls_per_batch,
	r.repetitions		AS repetitions,
	r.mb_per_s		AS mb_per_s,
	r.verified		AS verified,
	inv.runner		AS runner,
	r.mode			AS mode,
	inv.variant		AS variant,
	l.build_id		AS build_id,
	r.p25_ns		AS p25_ns,
	r.p75_ns		AS p75_ns,
	r.cv			AS cv,
	r.reruns		AS reruns,
	r.noisy			AS noisy,
	r.tsc_cycles		AS tsc_cycles,
	cu.overhead_ns		AS overhead_ns,
	cu.ns_per_byte		AS ns_per_byte,
	cu.cycles_per_byte	AS cycles_per_byte
FROM results r
JOIN invocations inv ON inv.id = r.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = r.library_id
LEFT JOIN curves cu ON cu.invocation_id = r.invocation_id
	AND cu.library_id = r.library_id AND cu.algorithm = r.algorithm
	AND cu.operation = r.operation AND cu.mode = r.mode;

CREATE TABLE library_loads_new (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	name		TEXT NOT NULL,
	status		TEXT NOT NULL CHECK (status IN ('loaded', 'absent', 'failed')),
	library_id	INTEGER REFERENCES libraries (id),
	build_id	TEXT NOT NULL DEFAULT '',
	position	INTEGER CHECK (position >= 0),
	message		TEXT,
	PRIMARY KEY (invocation_id, name)
);
INSERT INTO library_loads_new (invocation_id, name, status, library_id,
	build_id, position)
	SELECT invocation_id, name, status, library_id, build_id, position
	FROM library_loads;
DROP TABLE library_loads;
ALTER TABLE library_loads_new RENAME TO library_loads;

ALTER TABLE invocations ADD COLUMN partial INTEGER NOT NULL DEFAULT 0
	CHECK (partial IN (0, 1));
