-- Migration 13: points_v, one row per point of a run; and whether a
-- curve's sweep was measured again for its contention canary.
--
-- canaries.remeasured: 1 when the canary moved during the curve's first
-- sweep, so that the guest dropped it and measured the sweep again (the
-- row's times are the second sweep's; moved = 1 when it moved again), 0
-- when the first sweep was kept; NULL on rows stored before.
ALTER TABLE canaries ADD COLUMN remeasured INTEGER
	CHECK (remeasured IN (0, 1));

-- points_v:
-- A run measures every point (distribution image, library, algorithm,
-- operation, mode, variant, buffer size) in more than one guest
-- invocation (orchestrator/run/plan.h: every algorithm in two rounds), so
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
--  * p25_ns, p75_ns: the lowest of the invocations' first quartiles and
--    the highest of their third (per call, at calls_per_batch; rounded
--    outwards), so that median_ns lies between them as it does for one
--    invocation; cv: the largest of the invocations' (a point measured
--    once keeps its own).
--  * result_id, calls_per_batch, repetitions, runner, build_id, reruns,
--    tsc_cycles and the curve's overhead_ns, ns_per_byte and
--    cycles_per_byte: those of one invocation, the one at the lower
--    median (for two, the faster).
--  * invocations: how many invocations measured the point;
--    invocation_spread: (slowest - fastest) / median of their ns per
--    call, a fraction (0 for one invocation): the run's own
--    between-invocation spread of the point.
-- results_v is unchanged: one row per invocation, for whoever needs them.

CREATE VIEW points_v AS
SELECT
	result_id, run_id, run_uuid, host, run_started_at, distro, release,
	image_digest, cpu_model, library, library_version, package,
	package_version, library_path, algorithm, operation, buffer_bytes,
	CASE WHEN p_n = 1 THEN median_ns
		ELSE CAST(round(a_ns * calls_per_batch) AS INTEGER)
		END AS median_ns,
	CASE WHEN p_n = 1 THEN min_ns
		ELSE CAST(round(a_min * calls_per_batch) AS INTEGER)
		END AS min_ns,
	calls_per_batch, repetitions,
	CASE WHEN p_n = 1 THEN mb_per_s
		ELSE buffer_bytes * 1000.0 / a_ns END AS mb_per_s,
	a_verified AS verified, runner, mode, variant, build_id,
	CASE WHEN p_n = 1 THEN p25_ns
		ELSE CAST(a_p25 * calls_per_batch AS INTEGER) END AS p25_ns,
	CASE WHEN p_n = 1 THEN p75_ns
		ELSE CAST(a_p75 * calls_per_batch AS INTEGER) +
			(a_p75 * calls_per_batch >
			 CAST(a_p75 * calls_per_batch AS INTEGER)) END AS p75_ns,
	CASE WHEN p_n = 1 THEN cv ELSE a_cv END AS cv,
	reruns, a_noisy AS noisy, tsc_cycles, overhead_ns,
	ns_per_byte, cycles_per_byte,
	p_n AS invocations,
	a_range / a_ns AS invocation_spread
FROM (
	-- every invocation of a point, with the point's aggregates: the
	-- median of the ns per call (the mean of the middle one or two)
	SELECT *,
		avg(p_ns) FILTER (WHERE p_k IN ((p_n + 1) / 2, (p_n + 2) / 2))
			OVER pt AS a_ns,
		min(min_ns * 1.0 / calls_per_batch) OVER pt AS a_min,
		max(p_ns) OVER pt - min(p_ns) OVER pt AS a_range,
		min(verified) OVER pt AS a_verified,
		max(noisy) OVER pt AS a_noisy,
		min(p25_ns * 1.0 / calls_per_batch) OVER pt AS a_p25,
		max(p75_ns * 1.0 / calls_per_batch) OVER pt AS a_p75,
		max(cv) OVER pt AS a_cv
	FROM (
		-- every invocation of a point, ranked by its ns per call
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
	)
	WINDOW pt AS (PARTITION BY run_id, p_image, p_library, algorithm,
		operation, mode, variant, buffer_bytes)
)
-- the invocation at the lower median stands for the point
WHERE p_k = (p_n + 1) / 2;
