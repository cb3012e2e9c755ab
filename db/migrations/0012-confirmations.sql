-- Migration 12: confirmation runs.
--
-- When a curve looks changed after a distribution's packages changed, the
-- previous image (kept beside the new one after the rebuild) and the new
-- image are measured again in alternating rounds within one run, a
-- confirmation run; without a package change, the curve is measured once
-- more in the current image. The confirmation run is an ordinary run
-- (runs, invocations, results; invocations.image_id tells previous from
-- new); these tables say what it confirmed, so that a regression is
-- called confirmed only when a confirmation run measured it again.
--
-- confirmations: one row per confirmation run and distribution.
--  * run_id: the confirmation run.
--  * confirmed_run_id: the run whose changed-looking curves it measured
--    again (NULL when that run is no longer in the database).
--  * distro, release: the distribution.
--  * image_id: the image measured as new (the confirmed run's).
--  * previous_image_id: the previous image measured beside it; NULL when
--    no package changed and the curves were only measured once more.
--  * previous_removed: 1 when the kept previous image was deleted from
--    disk after the confirmation (its rows here stay).
-- confirmation_curves: the curves it was asked to measure again, one row
--  per (run, distribution, library, algorithm, operation, mode).
-- Runs stored before this migration have no rows here. A confirmation
-- run is never the "previous run" of a distribution for package_changes.

CREATE TABLE confirmations (
	run_id		INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	confirmed_run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
	distro		TEXT NOT NULL,
	release		TEXT NOT NULL,
	image_id	INTEGER REFERENCES images (id),
	previous_image_id INTEGER REFERENCES images (id),
	previous_removed INTEGER NOT NULL DEFAULT 0
			CHECK (previous_removed IN (0, 1)),
	PRIMARY KEY (run_id, distro, release)
);

CREATE INDEX confirmations_by_confirmed ON confirmations (confirmed_run_id);

CREATE TABLE confirmation_curves (
	run_id		INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	distro		TEXT NOT NULL,
	release		TEXT NOT NULL,
	library		TEXT NOT NULL,
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL DEFAULT '',	-- '' = every operation
	mode		TEXT NOT NULL DEFAULT '',	-- '' = every mode
	PRIMARY KEY (run_id, distro, release, library, algorithm, operation,
		     mode),
	FOREIGN KEY (run_id, distro, release)
		REFERENCES confirmations (run_id, distro, release)
		ON DELETE CASCADE
);
