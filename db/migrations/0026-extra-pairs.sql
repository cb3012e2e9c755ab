-- Migration 26: the pairs of the public-key operations and key
-- derivation functions (`benchorch run --interleave` with --pubkey or
-- --kdf; guest/PROTOCOL.md "Interleaved measurement"). Each operation of
-- a public-key algorithm (import, derive, sign, verify, encaps, decaps,
-- a post-quantum keygen) is a point of mode 'pubkey', each KDF one of
-- operation 'derive' and mode 'kdf', buffer_bytes 1 in both; ratio is
-- then the library's operations per second as a fraction of versus'.
-- Their operations are not CHECKed (as in pkresults); the ciphers' and
-- hashes' rows keep theirs. SQLite cannot alter a CHECK: the table is
-- made anew, and pairs_v over it, as migration 21 made it.
CREATE TABLE pairs_new (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	versus_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL,
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot', 'pubkey', 'kdf')),
	buffer_bytes	INTEGER NOT NULL CHECK (buffer_bytes > 0),
	ratio		REAL NOT NULL CHECK (ratio > 0),
	low		REAL NOT NULL CHECK (low > 0 AND low <= ratio),
	high		REAL NOT NULL CHECK (high >= ratio),
	coverage	REAL NOT NULL CHECK (coverage >= 0 AND coverage <= 1),
	rounds		INTEGER NOT NULL CHECK (rounds > 0),
	tie		INTEGER NOT NULL CHECK (tie IN (0, 1)),
	span_ns		INTEGER NOT NULL CHECK (span_ns >= 0),
	CHECK (mode IN ('pubkey', 'kdf') OR operation IN ('encrypt', 'decrypt', 'hash')),
	CHECK (mode NOT IN ('pubkey', 'kdf') OR buffer_bytes = 1),
	PRIMARY KEY (invocation_id, library_id, algorithm, operation, mode,
		     buffer_bytes, versus_id)
) WITHOUT ROWID;
INSERT INTO pairs_new SELECT invocation_id, library_id, versus_id,
	algorithm, operation, mode, buffer_bytes, ratio, low, high, coverage,
	rounds, tie, span_ns FROM pairs;
DROP VIEW pairs_v;
DROP TABLE pairs;
ALTER TABLE pairs_new RENAME TO pairs;

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
	p.span_ns		AS span_ns,
	coalesce(lb.name, 'shipped') AS build,
	coalesce(vb.name, 'shipped') AS versus_build
FROM pairs p
JOIN invocations inv ON inv.id = p.invocation_id
LEFT JOIN images im ON im.id = inv.image_id
JOIN libraries l ON l.id = p.library_id
JOIN libraries v ON v.id = p.versus_id
LEFT JOIN builds lb ON lb.id = l.build_ref
LEFT JOIN builds vb ON vb.id = v.build_ref;
