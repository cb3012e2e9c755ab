-- Migration 25: a duet's public-key operations and key derivation
-- functions (`benchorch duet --algos x25519,ed25519,pbkdf2-sha256,...`;
-- guest/PROTOCOL.md "Duet"). Each operation of a public-key algorithm
-- (import, derive, sign, verify, encaps, decaps, a post-quantum keygen)
-- is a curve of one point, mode 'pubkey', and each KDF one of operation
-- 'derive', mode 'kdf': in duet_points buffer_bytes is 1 (one operation
-- a call), calls_per_block the operations per block and mb_per_s 10^6
-- operations per second at the median. Their names are not CHECKed (as
-- in pkresults); the ciphers' and hashes' rows keep their operations.
-- SQLite cannot alter a CHECK: both tables are made anew, and the view
-- over duet_curves.
CREATE TABLE duet_curves_new (
	duet_id		INTEGER NOT NULL REFERENCES duets (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL,
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot', 'pubkey', 'kdf')),
	tested		INTEGER NOT NULL CHECK (tested IN (0, 1)),
	verdict		TEXT NOT NULL CHECK (verdict IN ('slower', 'faster', 'same', 'undecided')),
	effect		REAL NOT NULL,
	low		REAL NOT NULL CHECK (low <= effect),
	high		REAL NOT NULL CHECK (high >= effect),
	p		REAL NOT NULL CHECK (p >= 0 AND p <= 1),
	rounds		INTEGER NOT NULL CHECK (rounds > 0),
	mde		REAL NOT NULL CHECK (mde >= 0),
	sizes		INTEGER NOT NULL CHECK (sizes > 0),
	CHECK (mode IN ('pubkey', 'kdf') OR operation IN ('encrypt', 'decrypt', 'hash')),
	PRIMARY KEY (duet_id, library, algorithm, operation, mode)
) WITHOUT ROWID;
INSERT INTO duet_curves_new SELECT duet_id, library, algorithm, operation,
	mode, tested, verdict, effect, low, high, p, rounds, mde, sizes
	FROM duet_curves;

CREATE TABLE duet_points_new (
	duet_id		INTEGER NOT NULL REFERENCES duets (id) ON DELETE CASCADE,
	side		TEXT NOT NULL CHECK (side IN ('base', 'new')),
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL,
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot', 'pubkey', 'kdf')),
	buffer_bytes	INTEGER NOT NULL CHECK (buffer_bytes > 0),
	calls_per_block	INTEGER NOT NULL CHECK (calls_per_block > 0),
	mb_per_s	REAL NOT NULL,
	block_ns	TEXT NOT NULL,
	CHECK (mode IN ('pubkey', 'kdf') OR operation IN ('encrypt', 'decrypt', 'hash')),
	CHECK (mode NOT IN ('pubkey', 'kdf') OR buffer_bytes = 1),
	PRIMARY KEY (duet_id, side, library, algorithm, operation, mode,
		     buffer_bytes)
) WITHOUT ROWID;
INSERT INTO duet_points_new SELECT duet_id, side, library, algorithm,
	operation, mode, buffer_bytes, calls_per_block, mb_per_s, block_ns
	FROM duet_points;

DROP VIEW duet_curves_v;
DROP TABLE duet_curves;
DROP TABLE duet_points;
ALTER TABLE duet_curves_new RENAME TO duet_curves;
ALTER TABLE duet_points_new RENAME TO duet_points;

-- duet_curves_v: as migration 17 made it.
CREATE VIEW duet_curves_v AS
SELECT
	d.id		AS duet_id,
	d.started_at	AS started_at,
	d.base_image	AS base_image,
	d.new_image	AS new_image,
	c.library	AS library,
	c.algorithm	AS algorithm,
	c.operation	AS operation,
	c.mode		AS mode,
	c.tested	AS tested,
	c.verdict	AS verdict,
	c.effect	AS effect,
	c.low		AS low,
	c.high		AS high,
	c.rounds	AS rounds,
	c.mde		AS mde
FROM duet_curves c JOIN duets d ON d.id = c.duet_id
ORDER BY d.id DESC, c.library, c.algorithm, c.operation, c.mode;
