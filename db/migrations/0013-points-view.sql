-- Migration 13: points_v, one row per point of a run.
--
-- A run measures every point (distribution image, library, algorithm,
-- operation, mode, variant, buffer size) in more than one guest
-- invocation (orchestrator/plan.h: every algorithm in two rounds), so
-- results_v has one row per invocation of a point. points_v folds them
-- into one, for everything that shows a run's figures (results, report,
-- summary, fastest, compare --machines): the same columns as results_v,
-- in the same order, then two more:
--  * median_ns, mb_per_s: the median of the invocations' medians, taken
--    on ns per call (median_ns / calls_per_batch; the calls per batch of
--    two invocations differ), i.e. for two invocations the mean of their
--    ns per call; median_ns is that times calls_per_batch.
--  * min_ns: the fastest batch of any invocation, at calls_per_batch.
--    (A point measured once keeps its stored median_ns, min_ns and
--    mb_per_s as they are.)
--  * verified: 1 only when every invocation's result was verified;
--    noisy: 1 when any invocation's was.
--  * result_id, calls_per_batch, repetitions, runner, build_id, p25_ns,
--    p75_ns, cv, reruns, tsc_cycles and the curve's overhead_ns,
--    ns_per_byte and cycles_per_byte: those of one invocation, the one
--    at the lower median (for two, the faster).
--  * invocations: how many invocations measured the point;
--    invocation_spread: (slowest - fastest) / median of their ns per
--    call, a fraction (0 for one invocation): the run's own
--    between-invocation spread of the point.
-- results_v is unchanged: one row per invocation, for whoever needs them.

CREATE VIEW points_v AS
WITH per AS (
	SELECT v.*, inv.image_id AS p_image, r.library_id AS p_library,
		v.median_ns * 1.0 / v.calls_per_batch AS p_ns,
		row_number() OVER (PARTITION BY v.run_id, inv.image_id,
			r.library_id, v.algorithm, v.operation, v.mode,
			v.variant, v.buffer_bytes
			ORDER BY v.median_ns * 1.0 / v.calls_per_batch,
			v.result_id) AS p_k,
		count(*) OVER (PARTITION BY v.run_id, inv.image_id,
			r.library_id, v.algorithm, v.operation, v.mode,
			v.variant, v.buffer_bytes) AS p_n
	FROM results_v v
	JOIN results r ON r.id = v.result_id
	JOIN invocations inv ON inv.id = r.invocation_id
), agg AS (
	SELECT run_id, p_image, p_library, algorithm, operation, mode,
		variant, buffer_bytes,
		avg(p_ns) FILTER (WHERE p_k IN ((p_n + 1) / 2, (p_n + 2) / 2))
			AS a_ns,
		min(min_ns * 1.0 / calls_per_batch) AS a_min,
		max(p_ns) - min(p_ns) AS a_range,
		min(verified) AS a_verified,
		max(noisy) AS a_noisy,
		count(*) AS a_n
	FROM per
	GROUP BY run_id, p_image, p_library, algorithm, operation, mode,
		variant, buffer_bytes
)
SELECT
	p.result_id		AS result_id,
	p.run_id		AS run_id,
	p.run_uuid		AS run_uuid,
	p.host			AS host,
	p.run_started_at	AS run_started_at,
	p.distro		AS distro,
	p.release		AS release,
	p.image_digest		AS image_digest,
	p.cpu_model		AS cpu_model,
	p.library		AS library,
	p.library_version	AS library_version,
	p.package		AS package,
	p.package_version	AS package_version,
	p.library_path		AS library_path,
	p.algorithm		AS algorithm,
	p.operation		AS operation,
	p.buffer_bytes		AS buffer_bytes,
	CASE WHEN a.a_n = 1 THEN p.median_ns
		ELSE CAST(round(a.a_ns * p.calls_per_batch) AS INTEGER)
		END AS median_ns,
	CASE WHEN a.a_n = 1 THEN p.min_ns
		ELSE CAST(round(a.a_min * p.calls_per_batch) AS INTEGER)
		END AS min_ns,
	p.calls_per_batch	AS calls_per_batch,
	p.repetitions		AS repetitions,
	CASE WHEN a.a_n = 1 THEN p.mb_per_s
		ELSE p.buffer_bytes * 1000.0 / a.a_ns END AS mb_per_s,
	a.a_verified		AS verified,
	p.runner		AS runner,
	p.mode			AS mode,
	p.variant		AS variant,
	p.build_id		AS build_id,
	p.p25_ns		AS p25_ns,
	p.p75_ns		AS p75_ns,
	p.cv			AS cv,
	p.reruns		AS reruns,
	a.a_noisy		AS noisy,
	p.tsc_cycles		AS tsc_cycles,
	p.overhead_ns		AS overhead_ns,
	p.ns_per_byte		AS ns_per_byte,
	p.cycles_per_byte	AS cycles_per_byte,
	a.a_n			AS invocations,
	a.a_range / a.a_ns	AS invocation_spread
FROM per p
JOIN agg a ON a.run_id = p.run_id AND a.p_image IS p.p_image
	AND a.p_library = p.p_library AND a.algorithm = p.algorithm
	AND a.operation = p.operation AND a.mode IS p.mode
	AND a.variant IS p.variant AND a.buffer_bytes = p.buffer_bytes
WHERE p.p_k = (p.p_n + 1) / 2;
