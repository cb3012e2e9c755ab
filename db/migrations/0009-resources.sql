-- Migration 9: what a library costs besides time: CPU time and memory.
--
-- The guest measures each library in a child process of its own
-- (guest/PROTOCOL.md, "Resources"). Sizes are in KiB (1024 bytes), CPU
-- times in microseconds.
--
-- library_resources: one row per invocation and library the guest
-- reported any resource figure for (runs stored before this migration,
-- and older guests, have none).
--  * user_us, sys_us: user and system CPU time of the library's process,
--    from start to exit (wait4's rusage): loading, the known-answer tests,
--    the cross-check, calibration and every timed batch.
--  * maxrss_kib: that process's peak resident set (wait4's ru_maxrss).
--    It includes what the process inherited from the guest at fork (the
--    guest's own code and its four 1 MiB + 64-byte buffers).
--  * rss_before_load_kib, footprint_kib: the process's resident set
--    (/proc/self/statm) right before and right after the library was
--    loaded and initialised; footprint_kib - rss_before_load_kib is what
--    loading the library cost. NULL for a library that was not loaded.
--  * NULL where the guest reported nothing (e.g. --no-fork has no
--    per-library process, hence no rusage).
--
-- algorithm_resources: per invocation, library and algorithm, from the
-- peak resident set the guest read after every measured point (the
-- high-water mark of the library's process, getrusage RUSAGE_SELF).
--  * peak_kib: the high-water mark after the algorithm's last point.
--  * raise_kib: how far the algorithm raised the mark above where it
--    stood before its first point (the footprint, or the previous
--    algorithm's peak); 0 when it needed no more than was already
--    resident. NULL when the guest reported no footprint to start from.
--    A mark only rises: an algorithm measured after a hungrier one shows
--    0, whatever it needs itself.

CREATE TABLE library_resources (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	user_us		INTEGER CHECK (user_us >= 0),
	sys_us		INTEGER CHECK (sys_us >= 0),
	maxrss_kib	INTEGER CHECK (maxrss_kib > 0),
	rss_before_load_kib INTEGER CHECK (rss_before_load_kib >= 0),
	footprint_kib	INTEGER CHECK (footprint_kib > 0),
	PRIMARY KEY (invocation_id, library)
) WITHOUT ROWID;

CREATE TABLE algorithm_resources (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	peak_kib	INTEGER NOT NULL CHECK (peak_kib > 0),
	raise_kib	INTEGER CHECK (raise_kib >= 0),
	PRIMARY KEY (invocation_id, library, algorithm)
) WITHOUT ROWID;

-- One readable row per invocation and library.
CREATE VIEW resources_v AS
SELECT
	inv.run_id		AS run_id,
	inv.id			AS invocation_id,
	inv.spec		AS spec,
	im.distro		AS distro,
	im.release		AS release,
	inv.variant		AS variant,
	inv.round		AS round,
	lr.library		AS library,
	l.version		AS library_version,
	ll.status		AS status,
	lr.user_us		AS user_us,
	lr.sys_us		AS sys_us,
	lr.maxrss_kib		AS maxrss_kib,
	lr.rss_before_load_kib	AS rss_before_load_kib,
	lr.footprint_kib	AS footprint_kib,
	(SELECT ar.algorithm FROM algorithm_resources ar
	 WHERE ar.invocation_id = lr.invocation_id AND ar.library = lr.library
	 ORDER BY ar.raise_kib DESC, ar.peak_kib DESC, ar.algorithm LIMIT 1)
				AS top_algorithm,
	(SELECT max(ar.raise_kib) FROM algorithm_resources ar
	 WHERE ar.invocation_id = lr.invocation_id AND ar.library = lr.library)
				AS top_raise_kib
FROM library_resources lr
JOIN invocations inv ON inv.id = lr.invocation_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN library_loads ll ON ll.invocation_id = lr.invocation_id
	AND ll.name = lr.library
LEFT JOIN libraries l ON l.id = ll.library_id;
