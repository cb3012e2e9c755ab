-- Migration 23: the build column (migration 20) in the other views of a
-- library's figures: keysetups_v and pubkey_v end with build, 'shipped'
-- or the name of the build (`benchorch rebuild`, `run --builds`) the
-- library row was loaded from (appended, so that the columns before keep
-- their places). kdf_v has it from its start (migration 22); pairs_v has
-- build and versus_build (migration 21); resources_v names a build's
-- library as the guest does, "LIBRARY@NAME".
DROP VIEW keysetups_v;
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
	inv.variant		AS variant,
	coalesce(b.name, 'shipped') AS build
FROM keysetups k
JOIN invocations inv ON inv.id = k.invocation_id
LEFT JOIN images im ON im.id = inv.image_id
JOIN libraries l ON l.id = k.library_id
LEFT JOIN builds b ON b.id = l.build_ref;

DROP VIEW pubkey_v;
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
	p.rejected_by		AS rejected_by,
	coalesce(b.name, 'shipped') AS build
FROM pubkey_results p
JOIN invocations inv ON inv.id = p.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = p.library_id
LEFT JOIN builds b ON b.id = l.build_ref;
