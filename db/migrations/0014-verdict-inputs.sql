-- Migration 14: what else a curve's verdict was derived with, so that it
-- can be re-derived from the stored row (migration 11 kept the noise, not
-- its degrees of freedom nor the host-speed adjustment).
--
-- verdict_curves:
--  * noise_df: the degrees of freedom of noise, those of Student's t the
--    p-value and interval came from (1e6: the noise was taken as known:
--    assumed, or the spread across the curves compared). NULL in rows
--    stored before this migration.
--  * regime_slope: the slope by which the curve's log throughput was
--    adjusted for the host's speed, per unit of the canary's log time
--    (<= 0; 0 not adjusted; orchestrator/results/verdicts.md, "The host's speed").
--    NULL in rows stored before this migration.
--  * confirmation: for a changed curve, 1 the confirmation run measured
--    the same change, 0 it measured the curve and did not; NULL when no
--    confirmation measured it, or the curve did not look changed.

ALTER TABLE verdict_curves ADD COLUMN noise_df REAL;
ALTER TABLE verdict_curves ADD COLUMN regime_slope REAL;
ALTER TABLE verdict_curves ADD COLUMN confirmation INTEGER
	CHECK (confirmation IN (0, 1));
