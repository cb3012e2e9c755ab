-- Migration 4: the state of the CPU with every run, and runs made of
-- rounds in a seeded order.
--
-- A run is now several guest invocations per distribution: in each round
-- every distribution's guest measures one group of algorithms, the
-- distributions in a shuffled order, so that a slow drift of the machine
-- spreads over all of them instead of showing up as a difference between
-- them. One seed orders it all.
--
-- runs (run-level state; cpus still identifies the CPU model only):
--  * seed: the seed that drew the run's order (benchorch run --seed),
--    0 .. 2^32 - 1; NULL for runs stored before this migration.
--  * pinned_cpu: the CPU every guest of the run was pinned to.
--  * governor: that CPU's cpufreq scaling governor (performance,
--    powersave, schedutil, ...).
--  * boost: turbo/boost on (1) or off (0), from intel_pstate/no_turbo or
--    cpufreq/boost.
--  * freq_before_khz, freq_after_khz: that CPU's scaling_cur_freq in kHz
--    before the first and after the last invocation.
--  * virtualized: the CPU flags have (1) or lack (0) "hypervisor".
--  * hypervisor: its vendor, from /sys/hypervisor/type or CPUID leaf
--    0x40000000 ("xen", "KVMKVMKVM", ...).
--  * cpu_warnings: NULL, or why the numbers may have drifted (a governor
--    other than performance, a scaling frequency that moved by more than
--    the tolerance), one warning per line.
--  NULL in governor, boost, freq_*, virtualized or hypervisor means unknown
--  (a virtual machine often shows no cpufreq at all): never guessed.
--
-- invocations:
--  * round: which round of its run (1-based); NULL before this migration
--    (one invocation per distribution measured everything).
--  * algorithms: the comma-separated algorithms it measured, in the
--    order given to the guest (--algos).
--  * seed: the guest's own seed (its hello), which ordered its libraries
--    and algorithms.
--
-- library_loads.position: 0-based order in which the guest reported (and
-- ran) the library within its invocation.

ALTER TABLE runs ADD COLUMN seed INTEGER
	CHECK (seed BETWEEN 0 AND 4294967295);
ALTER TABLE runs ADD COLUMN pinned_cpu INTEGER CHECK (pinned_cpu >= 0);
ALTER TABLE runs ADD COLUMN governor TEXT;
ALTER TABLE runs ADD COLUMN boost INTEGER CHECK (boost IN (0, 1));
ALTER TABLE runs ADD COLUMN freq_before_khz INTEGER
	CHECK (freq_before_khz > 0);
ALTER TABLE runs ADD COLUMN freq_after_khz INTEGER
	CHECK (freq_after_khz > 0);
ALTER TABLE runs ADD COLUMN virtualized INTEGER
	CHECK (virtualized IN (0, 1));
ALTER TABLE runs ADD COLUMN hypervisor TEXT;
ALTER TABLE runs ADD COLUMN cpu_warnings TEXT;

ALTER TABLE invocations ADD COLUMN round INTEGER CHECK (round >= 1);
ALTER TABLE invocations ADD COLUMN algorithms TEXT;
ALTER TABLE invocations ADD COLUMN seed INTEGER
	CHECK (seed BETWEEN 0 AND 4294967295);

ALTER TABLE library_loads ADD COLUMN position INTEGER
	CHECK (position >= 0);
