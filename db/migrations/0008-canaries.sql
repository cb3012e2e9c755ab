-- Migration 8: a contention canary around each curve.
--
-- The guest times a fixed reference kernel that depends on libc alone
-- (the same work on every distribution and in every run) right before and
-- right after it measures one curve: one (library, algorithm, operation,
-- mode) over all its buffer sizes. When the kernel's time moved between
-- the two beyond its own noise, something else on the machine (another
-- process, a clock change, a migrated page) disturbed the curve, and the
-- curve must be measured again or flagged, never turned into a verdict.
--
-- canaries: one row per invocation and curve.
--  * before_ns, after_ns: the reference kernel's median time per batch in
--    ns, before and after the curve.
--  * noise: the kernel's own relative spread (a fraction) that "moved"
--    was judged against.
--  * moved: 1 when |after_ns / before_ns - 1| exceeded that noise.
-- Runs stored before this migration have no rows here.

CREATE TABLE canaries (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'hash')),
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot')),
	before_ns	INTEGER NOT NULL CHECK (before_ns > 0),	-- per batch
	after_ns	INTEGER NOT NULL CHECK (after_ns > 0),	-- per batch
	noise		REAL NOT NULL CHECK (noise >= 0),	-- fraction
	moved		INTEGER NOT NULL CHECK (moved IN (0, 1)),
	PRIMARY KEY (invocation_id, library_id, algorithm, operation, mode)
) WITHOUT ROWID;
