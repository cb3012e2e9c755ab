-- Migration 16: the libraries of a point measured taking turns, and judged
-- in pairs (guest --interleave, guest/PROTOCOL.md "Interleaved
-- measurement"; `benchorch run --interleave`).
--
-- pairs: one row per invocation, point and library but the point's
-- fastest (versus), from blocks that took turns within milliseconds:
--  * ratio: the median over rounds of the library's throughput as a
--    fraction of versus' (t_versus / t_library per round, t in ns per
--    byte); low, high: the sign-test interval of that median, of
--    confidence coverage (0 .. 1);
--  * tie: 1 when the interval holds 1: the two are not told apart, and
--    whatever shows the point says "library = versus";
--  * rounds: the blocks each side had; span_ns: ns from the point's first
--    block to its last.
-- Runs measured without --interleave have no rows here.
CREATE TABLE pairs (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	versus_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'hash')),
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot')),
	buffer_bytes	INTEGER NOT NULL CHECK (buffer_bytes > 0),
	ratio		REAL NOT NULL CHECK (ratio > 0),
	low		REAL NOT NULL CHECK (low > 0 AND low <= ratio),
	high		REAL NOT NULL CHECK (high >= ratio),
	coverage	REAL NOT NULL CHECK (coverage >= 0 AND coverage <= 1),
	rounds		INTEGER NOT NULL CHECK (rounds > 0),
	tie		INTEGER NOT NULL CHECK (tie IN (0, 1)),
	span_ns		INTEGER NOT NULL CHECK (span_ns >= 0),
	PRIMARY KEY (invocation_id, library_id, algorithm, operation, mode,
		     buffer_bytes)
) WITHOUT ROWID;

-- pairs_v: the pairs with the names a reader queries by.
CREATE VIEW pairs_v AS
SELECT
	inv.run_id		AS run_id,
	inv.id			AS invocation_id,
	im.distro		AS distro,
	im.release		AS release,
	inv.variant		AS variant,
	l.name			AS library,
	l.version		AS library_version,
	v.name			AS versus,
	v.version		AS versus_version,
	p.algorithm		AS algorithm,
	p.operation		AS operation,
	p.mode			AS mode,
	p.buffer_bytes		AS buffer_bytes,
	p.ratio			AS ratio,
	p.low			AS low,
	p.high			AS high,
	p.coverage		AS coverage,
	p.rounds		AS rounds,
	p.tie			AS tie,
	p.span_ns		AS span_ns
FROM pairs p
JOIN invocations inv ON inv.id = p.invocation_id
LEFT JOIN images im ON im.id = inv.image_id
JOIN libraries l ON l.id = p.library_id
JOIN libraries v ON v.id = p.versus_id;
