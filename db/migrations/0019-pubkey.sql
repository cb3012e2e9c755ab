-- Migration 19: public-key results (guest/PROTOCOL.md, "Public key":
-- the guest's `pkresult` and `pkcheck` lines, with --pubkey).
--
-- pubkey_results: one row per invocation, library, algorithm (x25519,
-- ed25519, ...) and operation (import, derive, sign, verify), keyed like
-- results: the invocation (its run and image) and the library row (its
-- version, package and package version). The timing is the guest's, per
-- batch of calls_per_batch operations: median_ns, min_ns, p25_ns,
-- p75_ns (ns per batch), cv (a fraction), reruns, noisy, tsc_cycles
-- (NULL without a TSC), repetitions (samples per set); ns_per_op
-- (median_ns / calls_per_batch) and ops_per_s (operations per second at
-- the median: 10^9 x calls_per_batch / median_ns); samples_ns, every
-- timed batch in the order measured, as a JSON array of integers (ns per
-- batch; read it with json_each) - kept in the row rather than in a
-- table of their own, so that the row is whole wherever it is copied.
-- verified is the guest's: the algorithm's known answers passed in this
-- library, its timed output was confirmed by another library that has
-- the algorithm (when there is one) and rejected by none. kat_ok is the
-- known answers alone (1 all passed, 0 one failed, NULL none reported;
-- the vectors themselves are in kats), confirmed_by and rejected_by the
-- `pkcheck` line's libraries, comma-separated ('' none).
-- The names are not CHECKed: new public-key algorithms and operations
-- (KEMs, KDFs) come with the guest, not with a schema change.
CREATE TABLE pubkey_results (
	id		INTEGER PRIMARY KEY,
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL,
	calls_per_batch	INTEGER NOT NULL CHECK (calls_per_batch > 0),
	repetitions	INTEGER NOT NULL CHECK (repetitions > 0),
	median_ns	INTEGER NOT NULL CHECK (median_ns > 0),	-- per batch
	min_ns		INTEGER NOT NULL,	-- per batch
	p25_ns		INTEGER,		-- per batch
	p75_ns		INTEGER,		-- per batch
	cv		REAL,			-- fraction
	reruns		INTEGER,
	noisy		INTEGER CHECK (noisy IN (0, 1)),
	tsc_cycles	INTEGER,		-- per batch
	ns_per_op	REAL NOT NULL,		-- median_ns / calls_per_batch
	ops_per_s	REAL NOT NULL CHECK (ops_per_s > 0),
	verified	INTEGER NOT NULL CHECK (verified IN (0, 1)),
	kat_ok		INTEGER CHECK (kat_ok IN (0, 1)),
	confirmed_by	TEXT NOT NULL DEFAULT '',
	rejected_by	TEXT NOT NULL DEFAULT '',
	samples_ns	TEXT NOT NULL DEFAULT '[]',	-- JSON array, ns per batch
	UNIQUE (invocation_id, library_id, algorithm, operation)
);

-- One readable row per public-key result. Its first columns are stable;
-- new ones are added at the end.
CREATE VIEW pubkey_v AS
SELECT
	p.id			AS pubkey_result_id,
	inv.run_id		AS run_id,
	im.distro		AS distro,
	im.release		AS release,
	l.name			AS library,
	l.version		AS library_version,
	l.package_version	AS package_version,
	p.algorithm		AS algorithm,
	p.operation		AS operation,
	p.ops_per_s		AS ops_per_s,
	p.median_ns		AS median_ns,
	p.verified		AS verified,
	inv.variant		AS variant,
	p.invocation_id		AS invocation_id,
	inv.round		AS round,
	ru.uuid			AS run_uuid,
	ru.host			AS host,
	ru.started_at		AS run_started_at,
	c.model_name		AS cpu_model,
	l.package		AS package,
	l.build_id		AS build_id,
	p.calls_per_batch	AS calls_per_batch,
	p.ns_per_op		AS ns_per_op,
	p.min_ns		AS min_ns,
	p.p25_ns		AS p25_ns,
	p.p75_ns		AS p75_ns,
	p.cv			AS cv,
	p.reruns		AS reruns,
	p.noisy			AS noisy,
	p.tsc_cycles		AS tsc_cycles,
	p.kat_ok		AS kat_ok,
	p.confirmed_by		AS confirmed_by,
	p.rejected_by		AS rejected_by
FROM pubkey_results p
JOIN invocations inv ON inv.id = p.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = p.library_id;
