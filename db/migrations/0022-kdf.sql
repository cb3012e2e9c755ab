-- Migration 22: key derivation results (guest/PROTOCOL.md, "Key
-- derivation": the guest's `kdfresult` and `kdfcheck` lines, with --kdf).
--
-- kdf_results: one row per invocation, library and key derivation
-- function (pbkdf2-sha256, hkdf-sha256, scrypt, argon2id, ...), keyed
-- like pubkey_results: the invocation (its run and image) and the library
-- row (its version, package and package version). The cost the library
-- derived with: params (text, e.g. 'N=16384,r=8,p=1,dklen=32'),
-- iterations (PBKDF2 c, scrypt N, Argon2 t; 1 for HKDF), memory_kib
-- (Argon2 m, scrypt 128 N r / 1024; 0 for PBKDF2 and HKDF), parallelism
-- (Argon2 or scrypt p; 1 otherwise) and output_bytes (the derived key's
-- length). The timing is the guest's, per batch of calls_per_batch
-- derivations, as in pubkey_results: median_ns, min_ns, p25_ns, p75_ns
-- (ns per batch), cv (a fraction), reruns, noisy, tsc_cycles (NULL
-- without a TSC), repetitions (samples per set); ns_per_op (median_ns /
-- calls_per_batch, ns per derivation) and ops_per_s (derivations per
-- second at the median); samples_ns, every timed batch as a JSON array
-- of integers. verified is the guest's: the known answers that ran in
-- this library passed, its derived key equals that of at least one
-- other library whose own known answers passed (or it ran its own
-- known answers and there was no other) and differs from none of them.
-- kat_ok is the known answers alone (1 all passed, 0 one failed, NULL
-- none reported), confirmed_by and rejected_by the `kdfcheck` line's
-- libraries, comma-separated ('' none).
CREATE TABLE kdf_results (
	id		INTEGER PRIMARY KEY,
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	params		TEXT NOT NULL,
	iterations	INTEGER NOT NULL CHECK (iterations >= 0),
	memory_kib	INTEGER NOT NULL CHECK (memory_kib >= 0),
	parallelism	INTEGER NOT NULL CHECK (parallelism >= 0),
	output_bytes	INTEGER NOT NULL CHECK (output_bytes >= 0),
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
	UNIQUE (invocation_id, library_id, algorithm)
);

-- One readable row per key derivation result, as pubkey_v (the cost
-- columns in place of operation), and last the build, as results_v:
-- 'shipped' or the build's name. Its first columns are stable; new ones
-- are added at the end.
CREATE VIEW kdf_v AS
SELECT
	k.id			AS kdf_result_id,
	inv.run_id		AS run_id,
	im.distro		AS distro,
	im.release		AS release,
	l.name			AS library,
	l.version		AS library_version,
	l.package_version	AS package_version,
	k.algorithm		AS algorithm,
	k.params		AS params,
	k.iterations		AS iterations,
	k.memory_kib		AS memory_kib,
	k.parallelism		AS parallelism,
	k.output_bytes		AS output_bytes,
	k.ops_per_s		AS ops_per_s,
	k.median_ns		AS median_ns,
	k.verified		AS verified,
	inv.variant		AS variant,
	k.invocation_id		AS invocation_id,
	inv.round		AS round,
	ru.uuid			AS run_uuid,
	ru.host			AS host,
	ru.started_at		AS run_started_at,
	c.model_name		AS cpu_model,
	l.package		AS package,
	l.build_id		AS build_id,
	k.calls_per_batch	AS calls_per_batch,
	k.ns_per_op		AS ns_per_op,
	k.min_ns		AS min_ns,
	k.p25_ns		AS p25_ns,
	k.p75_ns		AS p75_ns,
	k.cv			AS cv,
	k.reruns		AS reruns,
	k.noisy			AS noisy,
	k.tsc_cycles		AS tsc_cycles,
	k.kat_ok		AS kat_ok,
	k.confirmed_by		AS confirmed_by,
	k.rejected_by		AS rejected_by,
	coalesce(b.name, 'shipped') AS build
FROM kdf_results k
JOIN invocations inv ON inv.id = k.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = k.library_id
LEFT JOIN builds b ON b.id = l.build_ref;
