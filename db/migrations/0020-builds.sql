-- Migration 20: rebuilt libraries measured beside the shipped ones
-- (`benchorch run --builds shipped,NAME,...`).
--
-- builds: one build of a library (`benchorch rebuild`) as a run measured
-- it: name (the build's name, unique per image), image_id (the image it
-- was built in and measured in), library (guest backend), package (the
-- runtime package whose shared objects it holds), source and
-- source_version (the source package built), compiler (as given: gcc,
-- clang-16), compiler_version (its first --version line), cflags (the
-- effective CFLAGS), digest (of its shared objects, "sha256:..."). The
-- same name rebuilt with other content is a new row.
CREATE TABLE builds (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL,
	image_id	INTEGER NOT NULL REFERENCES images (id),
	library		TEXT NOT NULL,
	package		TEXT NOT NULL DEFAULT '',
	source		TEXT NOT NULL DEFAULT '',
	source_version	TEXT NOT NULL DEFAULT '',
	compiler	TEXT NOT NULL DEFAULT '',
	compiler_version TEXT NOT NULL DEFAULT '',
	cflags		TEXT NOT NULL DEFAULT '',
	digest		TEXT NOT NULL,
	UNIQUE (image_id, name, digest)
);

-- libraries.build_ref: the build a library row was loaded from, NULL
-- for the library the distribution ships. A build's row has the build's
-- package and source version, and the path it was loaded from (which
-- names the build's digest, so that a build rebuilt under the same name
-- is a row of its own). Everything measured refers to a libraries row,
-- so results, key setups, curves and the rest are keyed by the build.
ALTER TABLE libraries ADD COLUMN build_ref INTEGER REFERENCES builds (id);

-- results_v and points_v: a last column build, 'shipped' or the build's
-- name, beside variant as a key of every point (appended, so that the
-- columns before keep their places).
DROP VIEW points_v;
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
	cu.cycles_per_byte	AS cycles_per_byte,
	coalesce(b.name, 'shipped') AS build
FROM results r
JOIN invocations inv ON inv.id = r.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = r.library_id
LEFT JOIN builds b ON b.id = l.build_ref
LEFT JOIN curves cu ON cu.invocation_id = r.invocation_id
	AND cu.library_id = r.library_id AND cu.algorithm = r.algorithm
	AND cu.operation = r.operation AND cu.mode = r.mode;

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
	a_range / a_ns AS invocation_spread,
	build
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
