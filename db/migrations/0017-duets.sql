-- Migration 17: duets (`benchorch duet BASE NEW`): two images measured
-- side by side, their guests taking turns round by round on one CPU, and
-- each curve judged from the paired rounds (orchestrator/run/,
-- orchestrator/results/verdicts.md "Paired verdicts").
--
-- A duet is not a run: it has no invocations and is in no run view; the
-- latest run is never one. merge does not carry duets (as it does not
-- carry verdicts).
--
-- duets: one row per duet: when (started_at, finished_at, ISO 8601 UTC),
-- where (host, cpu_model, the CPU both guests were pinned to), the two
-- images (name and digest), how (quick, rounds, seed, threshold as a
-- fraction, the --libs and --algos given, NULL for all) and the median
-- minimum detectable effect of the tested libraries' curves (a fraction).
-- status: 'done'; 'failed' with error (a guest failed: nothing was
-- judged); 'aborted' (interrupted: nothing was judged). confirmation_run_id, distro, release: a duet
-- a confirmation made (the previous image a rebuild kept against the new
-- one, for a distribution whose packages changed), the confirmation run
-- it belongs to; NULL for a duet of its own (`benchorch duet`).
CREATE TABLE duets (
	id		INTEGER PRIMARY KEY,
	started_at	TEXT NOT NULL,
	finished_at	TEXT,
	host		TEXT NOT NULL,
	cpu_model	TEXT NOT NULL DEFAULT '',
	pinned_cpu	INTEGER,
	base_image	TEXT NOT NULL,
	base_digest	TEXT NOT NULL,
	new_image	TEXT NOT NULL,
	new_digest	TEXT NOT NULL,
	quick		INTEGER NOT NULL CHECK (quick IN (0, 1)),
	rounds		INTEGER NOT NULL CHECK (rounds > 0),
	seed		INTEGER NOT NULL,
	threshold	REAL NOT NULL CHECK (threshold > 0),
	libs		TEXT,
	algos		TEXT,
	mde_median	REAL,
	status		TEXT NOT NULL CHECK (status IN ('done', 'failed', 'aborted')),
	error		TEXT,
	confirmation_run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
	distro		TEXT,
	release		TEXT
);

CREATE INDEX duets_by_confirmation ON duets (confirmation_run_id);

-- duet_libraries: each side's libraries as its guest loaded them (side
-- 'base' or 'new'), with the package that ships each in that image and
-- its version, and tested: 1 for a library under test (its build id,
-- version or package version differs between the sides, or none does),
-- 0 for a control.
CREATE TABLE duet_libraries (
	duet_id		INTEGER NOT NULL REFERENCES duets (id) ON DELETE CASCADE,
	side		TEXT NOT NULL CHECK (side IN ('base', 'new')),
	library		TEXT NOT NULL,
	version		TEXT,
	build_id	TEXT,
	package		TEXT,
	package_version	TEXT,
	tested		INTEGER NOT NULL CHECK (tested IN (0, 1)),
	PRIMARY KEY (duet_id, side, library)
) WITHOUT ROWID;

-- duet_curves: one row per curve both sides measured: the effect of NEW
-- against BASE (a fraction: -0.05 is 5 % slower), its 95 % interval (low,
-- high), the two-sided p-value, the verdict, the rounds judged, the
-- minimum detectable effect (mde, a fraction) and the sizes the round
-- statistic took the median over.
CREATE TABLE duet_curves (
	duet_id		INTEGER NOT NULL REFERENCES duets (id) ON DELETE CASCADE,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'hash')),
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot')),
	tested		INTEGER NOT NULL CHECK (tested IN (0, 1)),
	verdict		TEXT NOT NULL CHECK (verdict IN ('slower', 'faster', 'same', 'undecided')),
	effect		REAL NOT NULL,
	low		REAL NOT NULL CHECK (low <= effect),
	high		REAL NOT NULL CHECK (high >= effect),
	p		REAL NOT NULL CHECK (p >= 0 AND p <= 1),
	rounds		INTEGER NOT NULL CHECK (rounds > 0),
	mde		REAL NOT NULL CHECK (mde >= 0),
	sizes		INTEGER NOT NULL CHECK (sizes > 0),
	PRIMARY KEY (duet_id, library, algorithm, operation, mode)
) WITHOUT ROWID;

-- duet_points: what was measured, per side and point: the calls per
-- block and each round's block in ns, in round order (a JSON array; the
-- k-th of one side is the twin of the k-th of the other).
CREATE TABLE duet_points (
	duet_id		INTEGER NOT NULL REFERENCES duets (id) ON DELETE CASCADE,
	side		TEXT NOT NULL CHECK (side IN ('base', 'new')),
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'hash')),
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot')),
	buffer_bytes	INTEGER NOT NULL CHECK (buffer_bytes > 0),
	calls_per_block	INTEGER NOT NULL CHECK (calls_per_block > 0),
	mb_per_s	REAL NOT NULL,
	block_ns	TEXT NOT NULL,
	PRIMARY KEY (duet_id, side, library, algorithm, operation, mode,
		     buffer_bytes)
) WITHOUT ROWID;

-- duet_curves_v: the curves with their duet's images, newest duet first.
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
