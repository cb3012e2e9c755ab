-- Migration 11: per-curve verdicts between two stored measurements
-- (orchestrator/results/verdicts.md), kept so that a verdict can be re-derived and the
-- last one shown by `benchorch status`.
--
-- verdicts: one comparison. A side is a run and optionally one image of
-- it (base_image / new_image NULL: every image of the run); two images of
-- one run compare a previous and a new image measured in alternating
-- rounds.
--  * source: who asked ('compare --store', the daemon after a nightly
--    run, or a confirmation run).
--  * method: the method's name and version, so that an older row is
--    read with the rules it was made with.
--  * threshold, alpha: the smallest change reported and the false
--    discovery rate of the Benjamini-Hochberg step (fractions).
--  * curves, changed, confirmed, flagged, regressions: counts; caveats:
--    what made the two sides unlike, one per line ('' when none).
-- verdict_curves: one row per curve (distro, library, algorithm,
-- operation, mode, variant) judged.
--  * effect, ci_low, ci_high: new / base throughput - 1, with its 95 %
--    interval (fractions); shape: which sizes decided ('shift': all,
--    'start-up': the smaller half, 'per-byte': the larger half).
--  * p: two-sided p-value (Bonferroni over the shapes tried); q: the
--    Benjamini-Hochberg adjusted p-value over the curves compared.
--  * noise: the standard deviation of the log effect the curve was judged
--    against (log units, about a fraction); noise_within and
--    noise_history: its two measured estimates (NULL when not available);
--    noise_source: which one was used ('assumed': neither existed;
--    'curves': without history, the spread of every curve's effect in
--    the comparison was larger).
--  * history_runs: earlier runs the history used; clock_ratio: new / base
--    mean measured core clock (NULL when not stored), shown, not
--    corrected for.
--  * halves: 1 the effect held in both halves of each side's invocations,
--    0 it did not, NULL not testable; canary_moved: a canary moved.
--  * state: 'unchanged', 'changed', 'confirmed' or 'flagged' (a canary
--    moved: no verdict).
--  * package, base_version, new_version: the library's package.

CREATE TABLE verdicts (
	id		INTEGER PRIMARY KEY,
	base_run	INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	base_image	INTEGER REFERENCES images (id),
	new_run		INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	new_image	INTEGER REFERENCES images (id),
	created_at	TEXT NOT NULL,		-- ISO 8601 UTC
	source		TEXT NOT NULL CHECK (source IN ('compare', 'daemon', 'confirm')),
	method		TEXT NOT NULL,
	threshold	REAL NOT NULL,		-- fraction
	alpha		REAL NOT NULL,		-- fraction
	curves		INTEGER NOT NULL,
	changed		INTEGER NOT NULL,
	confirmed	INTEGER NOT NULL,
	flagged		INTEGER NOT NULL,
	regressions	INTEGER NOT NULL,	-- changed and slower
	confirmed_regressions INTEGER NOT NULL,
	caveats		TEXT NOT NULL DEFAULT ''
);

CREATE TABLE verdict_curves (
	verdict_id	INTEGER NOT NULL REFERENCES verdicts (id) ON DELETE CASCADE,
	distro		TEXT NOT NULL,		-- distro:release
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL,
	mode		TEXT NOT NULL,
	variant		TEXT NOT NULL,		-- '*': sides of other variants
	sizes		INTEGER NOT NULL,
	base_invocations INTEGER NOT NULL,
	new_invocations	INTEGER NOT NULL,
	effect		REAL NOT NULL,		-- fraction
	ci_low		REAL NOT NULL,		-- fraction
	ci_high		REAL NOT NULL,		-- fraction
	shape		TEXT NOT NULL CHECK (shape IN ('shift', 'start-up', 'per-byte')),
	p		REAL NOT NULL,
	q		REAL NOT NULL,
	noise		REAL NOT NULL,		-- log units
	noise_within	REAL,
	noise_history	REAL,
	noise_source	TEXT NOT NULL CHECK (noise_source IN ('invocations', 'history', 'assumed', 'curves')),
	history_runs	INTEGER NOT NULL,
	clock_ratio	REAL,
	halves		INTEGER CHECK (halves IN (0, 1)),
	canary_moved	INTEGER NOT NULL CHECK (canary_moved IN (0, 1)),
	state		TEXT NOT NULL CHECK (state IN ('unchanged', 'changed', 'confirmed', 'flagged')),
	package		TEXT NOT NULL DEFAULT '',
	base_version	TEXT NOT NULL DEFAULT '',
	new_version	TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (verdict_id, distro, library, algorithm, operation, mode, variant)
) WITHOUT ROWID;

CREATE INDEX verdicts_by_new_run ON verdicts (new_run);
