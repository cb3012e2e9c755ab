# tests/: TAP tests run by `make check` through tap-driver.sh.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir;

# Unit tests of the orchestrator library (C programs printing TAP).
ORCH_TEST_CFLAGS = $(AM_CFLAGS) $(ORCH_CFLAGS)
ORCH_TEST_LDADD = $(ORCH_LIBS) -lm
check_PROGRAMS += tests/t3000-validate tests/t3010-db tests/t3020-spawn
tests_t3000_validate_SOURCES = tests/t3000-validate.c tests/tap.h
tests_t3000_validate_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3000_validate_LDADD = $(ORCH_TEST_LDADD)
tests_t3010_db_SOURCES = tests/t3010-db.c tests/tap.h
tests_t3010_db_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3010_db_LDADD = $(ORCH_TEST_LDADD)
tests_t3020_spawn_SOURCES = tests/t3020-spawn.c tests/tap.h
tests_t3020_spawn_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3020_spawn_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3000-validate tests/t3010-db tests/t3020-spawn
check_PROGRAMS += tests/t3015-db-open
tests_t3015_db_open_SOURCES = tests/t3015-db-open.c tests/tap.h
tests_t3015_db_open_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3015_db_open_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3015-db-open
# Package versions changed since the previous run (migration 3).
check_PROGRAMS += tests/t3012-db-package-changes
tests_t3012_db_package_changes_SOURCES = tests/t3012-db-package-changes.c tests/tap.h
tests_t3012_db_package_changes_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3012_db_package_changes_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3012-db-package-changes
TESTS += tests/t3030-cli.sh
EXTRA_DIST += tests/lib.sh tests/t3030-cli.sh
# Integration tests: real debootstrap, real systemd-nspawn, real SQLite.
TESTS += tests/t3100-run-debian.sh tests/t3110-run-interrupt.sh \
	tests/t3120-run-bad-guest.sh
EXTRA_DIST += tests/t3100-run-debian.sh tests/t3110-run-interrupt.sh \
	tests/t3120-run-bad-guest.sh tests/fixtures/guest-garbage.sh \
	tests/fixtures/guest-crash.sh tests/fixtures/guest-hang.sh \
	tests/fixtures/guest-bad-late.sh tests/fixtures/guest-clock-lie.sh \
	tests/fixtures/guest-clock-true.sh
# Results, compare, report, export/merge (issue #7): a fixture database
# built through the real migrations and run API.
check_PROGRAMS += tests/fixtures/results-mkdb tests/t7010-stats
tests_fixtures_results_mkdb_SOURCES = tests/fixtures/results-mkdb.c
tests_fixtures_results_mkdb_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_fixtures_results_mkdb_LDADD = $(ORCH_TEST_LDADD)
tests_t7010_stats_SOURCES = tests/t7010-stats.c tests/tap.h
tests_t7010_stats_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t7010_stats_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t7010-stats tests/t7000-results.sh tests/t7100-compare.sh
EXTRA_DIST += tests/t7000-results.sh tests/t7100-compare.sh
TESTS += tests/t7200-report.sh
EXTRA_DIST += tests/t7200-report.sh
CLEANFILES += tests/t7200-report.png
TESTS += tests/t7300-merge.sh tests/t7400-db-readme.sh tests/t7500-cli.sh
TESTS += tests/t7110-compare-nohw.sh
EXTRA_DIST += tests/t7110-compare-nohw.sh
EXTRA_DIST += tests/t7300-merge.sh tests/t7400-db-readme.sh db/README \
	tests/t7500-cli.sh
# The daemon (issue #6): configuration, schedules, control protocol; then
# a real daemon on the cached Debian image.
check_PROGRAMS += tests/t6000-daemon-config
tests_t6000_daemon_config_SOURCES = tests/t6000-daemon-config.c tests/tap.h
tests_t6000_daemon_config_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t6000_daemon_config_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t6000-daemon-config tests/t6100-daemon-run.sh \
	tests/t6110-daemon-signal.sh
EXTRA_DIST += tests/t6100-daemon-run.sh tests/t6110-daemon-signal.sh
TESTS += tests/t6010-daemon-cli.sh
EXTRA_DIST += tests/t6010-daemon-cli.sh
# The guest's timing statistics: quartiles, CV, re-runs, calibration, the
# longest protocol line (built from the guest's own sources, like t1000).
check_PROGRAMS += tests/t1040-guest-stats
tests_t1040_guest_stats_SOURCES = tests/t1040-guest-stats.c tests/tap.h \
	guest/samples.c guest/samples.h guest/bench.c guest/bench.h \
	guest/cpuclock.c guest/cpuclock.h guest/emit.c guest/emit.h \
	guest/json.c guest/json.h guest/compat.h
tests_t1040_guest_stats_CFLAGS = $(GUEST_CFLAGS)
tests_t1040_guest_stats_LDADD = -lm
TESTS += tests/t1040-guest-stats
# The musl guest and the choice of guest flavour per rootfs (issue #3).
check_PROGRAMS += tests/t1210-guest-flavour
tests_t1210_guest_flavour_SOURCES = tests/t1210-guest-flavour.c tests/tap.h
tests_t1210_guest_flavour_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t1210_guest_flavour_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t1200-guest-musl.sh tests/t1210-guest-flavour
EXTRA_DIST += tests/t1200-guest-musl.sh
# The seeded order of a run: the guest's generator and permutations.
check_PROGRAMS += tests/t1045-guest-shuffle
tests_t1045_guest_shuffle_SOURCES = tests/t1045-guest-shuffle.c tests/tap.h \
	guest/shuffle.c guest/shuffle.h guest/compat.h
TESTS += tests/t1045-guest-shuffle
# The CPU state recorded with every run, on fixture sysfs trees.
check_PROGRAMS += tests/t3040-cpustate
tests_t3040_cpustate_SOURCES = tests/t3040-cpustate.c tests/tap.h
tests_t3040_cpustate_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3040_cpustate_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3040-cpustate
EXTRA_DIST += tests/fixtures/sysfs-intel tests/fixtures/sysfs-acpi \
	tests/fixtures/sysfs-none
# The order of a run: rounds, distributions, guest seeds.
check_PROGRAMS += tests/t3050-plan
tests_t3050_plan_SOURCES = tests/t3050-plan.c tests/tap.h
tests_t3050_plan_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3050_plan_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3050-plan
# Last: memcheck over the unit tests.
TESTS += tests/t3900-valgrind.sh
EXTRA_DIST += tests/t3900-valgrind.sh tests/bench/overhead.sh
# The guest's fixed environment under both runners.
TESTS += tests/t3130-run-env.sh
EXTRA_DIST += tests/t3130-run-env.sh tests/fixtures/guest-env.sh
# Library faults inside an image, through a whole run.
TESTS += tests/t1120-run-library-faults.sh
EXTRA_DIST += tests/t1120-run-library-faults.sh
# Read-only commands for users who may not write beside the database.
TESTS += tests/t3035-db-readers.sh
EXTRA_DIST += tests/t3035-db-readers.sh
# images build binds a bootstrap build to one keyring (network, root).
TESTS += tests/t2150-images-keyring.sh
EXTRA_DIST += tests/t2150-images-keyring.sh
# What benchorch hands to its children: environments, machine names,
# the guest's per-library limit.
check_PROGRAMS += tests/t3022-child-env
tests_t3022_child_env_SOURCES = tests/t3022-child-env.c tests/tap.h
tests_t3022_child_env_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3022_child_env_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3022-child-env
# Fits whose start-up overhead comes out below zero are clamped.
check_PROGRAMS += tests/t7015-fit-clamp
tests_t7015_fit_clamp_SOURCES = tests/t7015-fit-clamp.c tests/tap.h
tests_t7015_fit_clamp_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t7015_fit_clamp_LDADD = $(ORCH_TEST_LDADD) -lm
TESTS += tests/t7015-fit-clamp tests/t7210-report-fit-clamp.sh
EXTRA_DIST += tests/t7210-report-fit-clamp.sh
# Library faults as the orchestrator reads them from the guest.
check_PROGRAMS += tests/t3005-guest-faults
tests_t3005_guest_faults_SOURCES = tests/t3005-guest-faults.c tests/tap.h
tests_t3005_guest_faults_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3005_guest_faults_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3005-guest-faults
