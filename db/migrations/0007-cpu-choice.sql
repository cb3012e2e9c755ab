-- Migration 7: why a run's guests were pinned to their CPU.
--
-- runs.pinned_cpu (migration 4) says which CPU; the run now chooses it
-- deliberately (lib/cpuchoice.h): a performance core on a hybrid
-- part, then the highest maximum clock, then the highest number.
--
-- runs:
--  * cpu_choice: the reason, one line, e.g. "cpu 3: a performance core
--    (devices/cpu_core/cpus 0-7), highest maximum clock 5600 MHz (2 of 16
--    CPUs), highest-numbered of those; SMT siblings 2".
--  * cpu_siblings: the pinned CPU's SMT siblings but itself, as a kernel
--    CPU list ("2", "2,66"); NULL when it has none or the kernel does not
--    say. A busy sibling is named in cpu_warnings.
--  Both NULL for runs stored before this migration.

ALTER TABLE runs ADD COLUMN cpu_choice TEXT;
ALTER TABLE runs ADD COLUMN cpu_siblings TEXT;
