-- Migration 1: the initial schema.
-- Every measurement is keyed by distribution (+ image digest), CPU and
-- library version. Units: *_ns in nanoseconds, *_bytes in bytes, mb_per_s in
-- 10^6 bytes per second.

CREATE TABLE cpus (
	id		INTEGER PRIMARY KEY,
	vendor		TEXT NOT NULL DEFAULT '',
	model_name	TEXT NOT NULL DEFAULT '',
	family		INTEGER NOT NULL DEFAULT -1,
	model		INTEGER NOT NULL DEFAULT -1,
	stepping	INTEGER NOT NULL DEFAULT -1,
	microcode	TEXT NOT NULL DEFAULT '',
	flags		TEXT NOT NULL DEFAULT '',
	UNIQUE (vendor, model_name, family, model, stepping, microcode, flags)
);

CREATE TABLE runs (
	id		INTEGER PRIMARY KEY,
	uuid		TEXT NOT NULL UNIQUE,	-- globally unique run id
	host		TEXT NOT NULL,
	pid		INTEGER NOT NULL,	-- of the orchestrator, to detect dead runs
	started_at	TEXT NOT NULL,		-- ISO 8601 UTC
	finished_at	TEXT,
	status		TEXT NOT NULL DEFAULT 'running'
			CHECK (status IN ('running', 'done', 'failed', 'aborted')),
	command_line	TEXT NOT NULL,
	cpu_id		INTEGER REFERENCES cpus (id),
	kernel		TEXT NOT NULL DEFAULT '',
	quick		INTEGER NOT NULL DEFAULT 0 CHECK (quick IN (0, 1)),
	error		TEXT
);

CREATE TABLE images (
	id		INTEGER PRIMARY KEY,
	distro		TEXT NOT NULL,
	release		TEXT NOT NULL,
	digest		TEXT NOT NULL,		-- sha256:<hex> of the rootfs content
	method		TEXT NOT NULL DEFAULT '',
	created_at	TEXT NOT NULL DEFAULT '',
	UNIQUE (distro, release, digest)
);

CREATE TABLE image_packages (
	image_id	INTEGER NOT NULL REFERENCES images (id) ON DELETE CASCADE,
	package		TEXT NOT NULL,
	version		TEXT NOT NULL,
	PRIMARY KEY (image_id, package)
);

CREATE TABLE libraries (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL,		-- guest backend: openssl, libgcrypt, ...
	version		TEXT NOT NULL DEFAULT '', -- as the library reports it
	soname		TEXT NOT NULL DEFAULT '',
	path		TEXT NOT NULL DEFAULT '', -- resolved inside the rootfs
	package		TEXT NOT NULL DEFAULT '',
	package_version	TEXT NOT NULL DEFAULT '',
	UNIQUE (name, version, soname, path, package, package_version)
);

-- One execution of the guest in one image.
CREATE TABLE invocations (
	id		INTEGER PRIMARY KEY,
	run_id		INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	image_id	INTEGER REFERENCES images (id),
	spec		TEXT NOT NULL,		-- as given: debian, debian:trixie
	runner		TEXT NOT NULL DEFAULT '' CHECK (runner IN ('', 'nspawn', 'chroot')),
	guest_version	TEXT NOT NULL DEFAULT '',
	libc		TEXT NOT NULL DEFAULT '',
	cpu		INTEGER NOT NULL DEFAULT -1, -- CPU the guest was pinned to
	started_at	TEXT NOT NULL,
	wall_ns		INTEGER NOT NULL DEFAULT 0, -- host wall clock, spawn to reap
	measure_ns	INTEGER NOT NULL DEFAULT 0, -- guest's own timed total
	status		TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	error		TEXT
);

CREATE TABLE library_loads (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	name		TEXT NOT NULL,
	status		TEXT NOT NULL CHECK (status IN ('loaded', 'absent')),
	library_id	INTEGER REFERENCES libraries (id),
	PRIMARY KEY (invocation_id, name)
);

CREATE TABLE kats (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	ok		INTEGER NOT NULL CHECK (ok IN (0, 1)),
	source		TEXT NOT NULL DEFAULT '',	-- the vector's citation
	PRIMARY KEY (invocation_id, library, algorithm, source)
);

CREATE TABLE unsupported (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	PRIMARY KEY (invocation_id, library, algorithm)
);

CREATE TABLE guest_errors (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library		TEXT NOT NULL DEFAULT '',
	algorithm	TEXT NOT NULL DEFAULT '',
	message		TEXT NOT NULL
);

CREATE TABLE results (
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
	UNIQUE (invocation_id, library_id, algorithm, operation, buffer_bytes)
);

CREATE INDEX results_by_algorithm ON results (algorithm, buffer_bytes);
CREATE INDEX invocations_by_run ON invocations (run_id);

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
	inv.runner		AS runner
FROM results r
JOIN invocations inv ON inv.id = r.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN cpus c ON c.id = ru.cpu_id
JOIN libraries l ON l.id = r.library_id;
