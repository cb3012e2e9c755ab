-- Migration 10: the distributions' own command-line encryption tools.
--
-- `benchorch run --tools` runs, inside each image, the tools its users
-- run (openssl enc, gpg --symmetric, age) on a file of `bytes` bytes in
-- the container's tmpfs, encrypting and decrypting it `repetitions`
-- times, with hardware acceleration (variant 'hw') and without it
-- ('nohw': OPENSSL_ia32cap for openssl, /etc/gcrypt/hwf.deny for gpg's
-- libgcrypt, GODEBUG for age). Each tool's invocation of the guest is a
-- row of invocations (no results); these tables hang off it, so that
-- merge and export carry them like every other table with an
-- invocation_id.
--
-- tool_results: one row per tool, cipher, direction and variant.
--  * status 'measured': every repetition's decrypt(encrypt(x)) equalled
--    x (compared inside the container); the figures are trimmed means of
--    the samples (the fastest and the slowest 5 % of the samples by wall
--    time dropped, round(n / 20) each side, as the study this follows
--    did with 120 runs), `kept` samples averaged:
--    cpu_ns = user + system CPU time, user_ns, sys_ns, wall_ns (ns, one
--    invocation of the tool), max_rss_kib (KiB, the tool process's peak
--    resident set from wait4) and mb_per_s = bytes / wall time in 10^6
--    bytes per second.
--  * status 'absent': the rootfs has no such tool; no figures.
--  * status 'failed': the tool failed or its round trip did not restore
--    the input (`error` says which); no figures, no samples: such a
--    measurement is never stored.
--  * hw_features: what the tool's library reported using in this
--    variant, where it says (gpg: libgcrypt's hwflist from gpgconf
--    --show-versions); NULL when unknown.
-- tool_samples: the raw samples of every measured row, seq 0 .. n-1 in
-- the order they were taken.

CREATE TABLE tool_results (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	tool		TEXT NOT NULL,		-- openssl, gpg, age
	cipher		TEXT NOT NULL,		-- aes-256-cbc, chacha20, aes256, ...
	direction	TEXT NOT NULL CHECK (direction IN ('encrypt', 'decrypt')),
	variant		TEXT NOT NULL CHECK (variant IN ('hw', 'nohw')),
	status		TEXT NOT NULL CHECK (status IN ('measured', 'absent', 'failed')),
	error		TEXT,
	tool_version	TEXT NOT NULL DEFAULT '',	-- as the tool states it
	package		TEXT NOT NULL DEFAULT '',
	package_version	TEXT NOT NULL DEFAULT '',
	hw_features	TEXT,
	bytes		INTEGER NOT NULL CHECK (bytes > 0),
	repetitions	INTEGER NOT NULL DEFAULT 0,	-- samples taken
	kept		INTEGER NOT NULL DEFAULT 0,	-- in the trimmed mean
	cpu_ns		INTEGER,
	user_ns		INTEGER,
	sys_ns		INTEGER,
	wall_ns		INTEGER,
	max_rss_kib	INTEGER,
	mb_per_s	REAL,
	CHECK (status <> 'measured' OR (kept > 0 AND wall_ns > 0 AND
	       cpu_ns >= 0 AND max_rss_kib > 0 AND mb_per_s > 0)),
	CHECK (status = 'measured' OR (cpu_ns IS NULL AND wall_ns IS NULL AND
	       mb_per_s IS NULL)),
	PRIMARY KEY (invocation_id, tool, cipher, direction, variant)
) WITHOUT ROWID;

CREATE TABLE tool_samples (
	invocation_id	INTEGER NOT NULL,
	tool		TEXT NOT NULL,
	cipher		TEXT NOT NULL,
	direction	TEXT NOT NULL,
	variant		TEXT NOT NULL,
	seq		INTEGER NOT NULL CHECK (seq >= 0),
	user_ns		INTEGER NOT NULL CHECK (user_ns >= 0),
	sys_ns		INTEGER NOT NULL CHECK (sys_ns >= 0),
	wall_ns		INTEGER NOT NULL CHECK (wall_ns > 0),
	max_rss_kib	INTEGER NOT NULL CHECK (max_rss_kib >= 0),
	PRIMARY KEY (invocation_id, tool, cipher, direction, variant, seq),
	FOREIGN KEY (invocation_id, tool, cipher, direction, variant)
		REFERENCES tool_results (invocation_id, tool, cipher, direction, variant)
		ON DELETE CASCADE
) WITHOUT ROWID;

-- What people read: one row per tool result with its run, distribution
-- and image.
CREATE VIEW tool_results_v AS
SELECT i.run_id AS run_id, i.spec AS spec, im.distro AS distro,
       im.release AS release, t.tool, t.cipher, t.direction, t.variant,
       t.status, t.error, t.tool_version, t.package, t.package_version,
       t.hw_features, t.bytes, t.repetitions, t.kept, t.cpu_ns, t.user_ns,
       t.sys_ns, t.wall_ns, t.max_rss_kib, t.mb_per_s,
       t.invocation_id AS invocation_id
FROM tool_results t
JOIN invocations i ON i.id = t.invocation_id
LEFT JOIN images im ON im.id = i.image_id;
