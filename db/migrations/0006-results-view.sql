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
