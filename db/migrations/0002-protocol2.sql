-- Migration 2: guest protocol 2 (guest/PROTOCOL.md).
--  * results.mode: 'bulk' (one keyed context reused, as before: every row
--    of migration 1 is one) or 'oneshot' (context created, keyed, used and
--    freed for every buffer); part of the row's identity.
--  * keysetups: key setup alone, ns per key.
--  * crosschecks: every library's output on the shared cross-check input
--    and whether it agreed with the other libraries (agrees NULL: there was
--    no other library to compare with).
--  * invocations.variant: 'hw', or 'nohw' when the libraries' hardware
--    acceleration was masked (benchorch run --nohw).
--  * libraries.build_id, library_loads.build_id: the ELF build-id of the
--    loaded file (lowercase hex, '' when it has none).
-- results_v keeps every column of migration 1 and adds mode, variant,
-- build_id at the end.

ALTER TABLE invocations ADD COLUMN variant TEXT NOT NULL DEFAULT 'hw'
	CHECK (variant IN ('hw', 'nohw'));
ALTER TABLE libraries ADD COLUMN build_id TEXT NOT NULL DEFAULT '';
ALTER TABLE library_loads ADD COLUMN build_id TEXT NOT NULL DEFAULT '';

-- results gains mode in its UNIQUE constraint: SQLite cannot alter a
-- constraint, so the table is rebuilt (nothing references it).
DROP VIEW results_v;
CREATE TABLE results_new (
	id		INTEGER PRIMARY KEY,
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'hash')),
	buffer_bytes	INTEGER NOT NULL CHECK (buffer_bytes > 0),
	calls_per_batch	INTEGER NOT NULL CHECK (calls_per_batch > 0),
	bytes_per_batch	INTEGER NOT NULL,
	repetitions	INTEGER NOT NULL CHECK (repetitions > 0),
	median_ns	INTEGER NOT NULL,	-- per batch
	min_ns		INTEGER NOT NULL,	-- per batch
	mb_per_s	REAL NOT NULL,		-- 10^6 B/s at the median
	verified	INTEGER NOT NULL CHECK (verified IN (0, 1)),
	mode		TEXT NOT NULL DEFAULT 'bulk' CHECK (mode IN ('bulk', 'oneshot')),
	UNIQUE (invocation_id, library_id, algorithm, operation, mode, buffer_bytes)
);
INSERT INTO results_new (id, invocation_id, library_id, algorithm, operation,
	buffer_bytes, calls_per_batch, bytes_per_batch, repetitions, median_ns,
	min_ns, mb_per_s, verified, mode)
SELECT id, invocation_id, library_id, algorithm, operation, buffer_bytes,
	calls_per_batch, bytes_per_batch, repetitions, median_ns, min_ns,
	mb_per_s, verified, 'bulk'
FROM results;
DROP TABLE results;
ALTER TABLE results_new RENAME TO results;
CREATE INDEX results_by_algorithm ON results (algorithm, buffer_bytes);

CREATE TABLE keysetups (
	id		INTEGER PRIMARY KEY,
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt')),
	calls_per_batch	INTEGER NOT NULL CHECK (calls_per_batch > 0),
	repetitions	INTEGER NOT NULL CHECK (repetitions > 0),
	median_ns	INTEGER NOT NULL,	-- per batch
	min_ns		INTEGER NOT NULL,	-- per batch
	ns_per_key	REAL NOT NULL,		-- median_ns / calls_per_batch
	verified	INTEGER NOT NULL CHECK (verified IN (0, 1)),
	UNIQUE (invocation_id, library_id, algorithm, operation)
);

CREATE TABLE crosschecks (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	input_bytes	INTEGER NOT NULL,
	output_bytes	INTEGER NOT NULL,
	digest		TEXT NOT NULL,		-- FNV-1a 64 of the output, hex
	roundtrip	INTEGER NOT NULL CHECK (roundtrip IN (0, 1)),
	agrees		INTEGER CHECK (agrees IN (0, 1)),
	PRIMARY KEY (invocation_id, library, algorithm)
);

-- One readable row per measurement.
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
	l.build_id		AS build_id
FROM results r
JOIN invocations inv ON inv.id = r.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = r.library_id;

-- One readable row per key setup measurement.
CREATE VIEW keysetups_v AS
SELECT
	k.id			AS keysetup_id,
	inv.run_id		AS run_id,
	im.distro		AS distro,
	im.release		AS release,
	l.name			AS library,
	l.version		AS library_version,
	l.package_version	AS package_version,
	k.algorithm		AS algorithm,
	k.operation		AS operation,
	k.ns_per_key		AS ns_per_key,
	k.median_ns		AS median_ns,
	k.min_ns		AS min_ns,
	k.calls_per_batch	AS calls_per_batch,
	k.repetitions		AS repetitions,
	k.verified		AS verified,
	inv.variant		AS variant
FROM keysetups k
JOIN invocations inv ON inv.id = k.invocation_id
LEFT JOIN images im ON im.id = inv.image_id
JOIN libraries l ON l.id = k.library_id;
