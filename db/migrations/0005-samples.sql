-- Migration 5: timing statistics that can be trusted (guest protocol 3).
--  * samples, keysetup_samples: every timed batch of a result or key
--    setup, in ns per batch, rep = 0, 1, ... in the order measured (the
--    set the guest reported: after re-runs, the one with the lowest
--    coefficient of variation).
--  * results, keysetups: p25_ns and p75_ns (quartiles, ns per batch), cv
--    (coefficient of variation of the samples, a fraction), reruns (sets
--    measured after the first), noisy (1: cv stayed above the guest's
--    limit), tsc_cycles (median TSC ticks per batch: reference cycles at
--    the TSC rate, not core cycles; NULL without an invariant TSC).
--  * invocations: the core clock the guest measured at its start and end
--    (clock_start_hz, clock_end_hz), the invariant TSC's rate (tsc_hz,
--    NULL without one), and the time from 'hello' to 'done' by the
--    guest's clock and by the host's (guest_elapsed_ns, host_elapsed_ns).
--  * curves: per invocation, library, algorithm, operation and mode, the
--    fit time per call = overhead_ns + bytes x ns_per_byte over its
--    points (buffer sizes); cycles_per_byte = ns_per_byte at the mean of
--    the measured start and end clocks.
-- Rows stored before this migration have NULL in the new columns and no
-- samples or curves. Nothing existing is rebuilt or renamed.

ALTER TABLE invocations ADD COLUMN clock_start_hz INTEGER;
ALTER TABLE invocations ADD COLUMN clock_end_hz INTEGER;
ALTER TABLE invocations ADD COLUMN tsc_hz INTEGER;
ALTER TABLE invocations ADD COLUMN guest_elapsed_ns INTEGER;
ALTER TABLE invocations ADD COLUMN host_elapsed_ns INTEGER;

ALTER TABLE results ADD COLUMN p25_ns INTEGER;		-- per batch
ALTER TABLE results ADD COLUMN p75_ns INTEGER;		-- per batch
ALTER TABLE results ADD COLUMN cv REAL;			-- fraction
ALTER TABLE results ADD COLUMN reruns INTEGER;
ALTER TABLE results ADD COLUMN noisy INTEGER CHECK (noisy IN (0, 1));
ALTER TABLE results ADD COLUMN tsc_cycles INTEGER;	-- per batch

ALTER TABLE keysetups ADD COLUMN p25_ns INTEGER;
ALTER TABLE keysetups ADD COLUMN p75_ns INTEGER;
ALTER TABLE keysetups ADD COLUMN cv REAL;
ALTER TABLE keysetups ADD COLUMN reruns INTEGER;
ALTER TABLE keysetups ADD COLUMN noisy INTEGER CHECK (noisy IN (0, 1));
ALTER TABLE keysetups ADD COLUMN tsc_cycles INTEGER;

CREATE TABLE samples (
	result_id	INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
	rep		INTEGER NOT NULL CHECK (rep >= 0),
	ns		INTEGER NOT NULL CHECK (ns > 0),	-- per batch
	PRIMARY KEY (result_id, rep)
) WITHOUT ROWID;

CREATE TABLE keysetup_samples (
	keysetup_id	INTEGER NOT NULL REFERENCES keysetups (id) ON DELETE CASCADE,
	rep		INTEGER NOT NULL CHECK (rep >= 0),
	ns		INTEGER NOT NULL CHECK (ns > 0),	-- per batch
	PRIMARY KEY (keysetup_id, rep)
) WITHOUT ROWID;

CREATE TABLE curves (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	library_id	INTEGER NOT NULL REFERENCES libraries (id),
	algorithm	TEXT NOT NULL,
	operation	TEXT NOT NULL CHECK (operation IN ('encrypt', 'decrypt', 'hash')),
	mode		TEXT NOT NULL CHECK (mode IN ('bulk', 'oneshot')),
	points		INTEGER NOT NULL CHECK (points >= 2),
	overhead_ns	REAL NOT NULL,		-- per call
	ns_per_byte	REAL NOT NULL,
	cycles_per_byte	REAL,			-- at the measured clock
	PRIMARY KEY (invocation_id, library_id, algorithm, operation, mode)
);
