-- Migration 18: how a duet measured, beyond migration 17's columns.
--
-- duets.variant: 'hw' (the libraries as they run) or 'nohw' (hardware
-- acceleration masked, `duet --nohw`, or a confirmation of a --nohw run:
-- the guest's --nohw). Duets stored before this migration measured 'hw'.
-- duets.max_rounds: the most rounds a curve undecided at a look got
-- (`duet --max-rounds`: further passes of new guests, doubling from
-- rounds); NULL for a duet stored before this migration (one look at
-- rounds).
ALTER TABLE duets ADD COLUMN variant TEXT NOT NULL DEFAULT 'hw'
	CHECK (variant IN ('hw', 'nohw'));
ALTER TABLE duets ADD COLUMN max_rounds INTEGER CHECK (max_rounds > 0);
