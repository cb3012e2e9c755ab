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
check_PROGRAMS += tests/t0000-validate tests/t4010-db tests/t0020-spawn
tests_t0000_validate_SOURCES = tests/t0000-validate.c tests/tap.h
tests_t0000_validate_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0000_validate_LDADD = $(ORCH_TEST_LDADD)
tests_t4010_db_SOURCES = tests/t4010-db.c tests/tap.h
check_PROGRAMS += tests/t4016-db-canaries
tests_t4016_db_canaries_SOURCES = tests/t4016-db-canaries.c tests/tap.h
tests_t4016_db_canaries_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t4016_db_canaries_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t4016-db-canaries
# What each guest library can measure, and a selection that measures
# nothing refused before anything runs.
check_PROGRAMS += tests/t0060-library-support
tests_t0060_library_support_SOURCES = tests/t0060-library-support.c tests/tap.h
tests_t0060_library_support_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0060_library_support_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t0060-library-support tests/t7530-selection.sh
EXTRA_DIST += tests/t7530-selection.sh
TESTS += tests/t7540-input-files.sh
EXTRA_DIST += tests/t7540-input-files.sh
tests_t4010_db_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t4010_db_LDADD = $(ORCH_TEST_LDADD)
tests_t0020_spawn_SOURCES = tests/t0020-spawn.c tests/tap.h
tests_t0020_spawn_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0020_spawn_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t0000-validate tests/t4010-db tests/t0020-spawn
# Resource figures: protocol members, per-algorithm peaks, storage, merge.
check_PROGRAMS += tests/t3060-resources
tests_t3060_resources_SOURCES = tests/t3060-resources.c tests/tap.h
tests_t3060_resources_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3060_resources_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3060-resources
# A run stores each invocation when it ends, then shrinks its output.
check_PROGRAMS += tests/t4065-store-invocation
tests_t4065_store_invocation_SOURCES = tests/t4065-store-invocation.c tests/tap.h
tests_t4065_store_invocation_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t4065_store_invocation_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t4065-store-invocation
check_PROGRAMS += tests/t4015-db-open
tests_t4015_db_open_SOURCES = tests/t4015-db-open.c tests/tap.h
tests_t4015_db_open_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t4015_db_open_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t4015-db-open
# Package versions changed since the previous run (migration 3).
check_PROGRAMS += tests/t4012-db-package-changes
tests_t4012_db_package_changes_SOURCES = tests/t4012-db-package-changes.c tests/tap.h
tests_t4012_db_package_changes_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t4012_db_package_changes_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t4012-db-package-changes
TESTS += tests/t5030-cli.sh tests/t5032-path-options.sh
EXTRA_DIST += tests/lib.sh tests/t5030-cli.sh tests/t5032-path-options.sh
# Integration tests: real debootstrap, real systemd-nspawn, real SQLite.
TESTS += tests/t3100-run-debian.sh tests/t3110-run-interrupt.sh \
	tests/t3120-run-bad-guest.sh
EXTRA_DIST += tests/t3100-run-debian.sh tests/t3110-run-interrupt.sh \
	tests/t3120-run-bad-guest.sh tests/fixtures/guest-garbage.sh \
	tests/fixtures/guest-crash.sh tests/fixtures/guest-hang.sh \
	tests/fixtures/guest-bad-late.sh tests/fixtures/guest-clock-lie.sh \
	tests/fixtures/guest-clock-true.sh tests/fixtures/guest-usage.sh \
	tests/fixtures/guest-stderr-flood.sh
# The image's code confined under either runner (issue 32, item 1).
TESTS += tests/t3125-run-confine.sh
EXTRA_DIST += tests/t3125-run-confine.sh
# A run waits for a database another writer holds; it drops nothing.
TESTS += tests/t3195-run-db-busy.sh
EXTRA_DIST += tests/t3195-run-db-busy.sh
# A confirmation run: previous and new image in alternating rounds.
TESTS += tests/t3135-confirm.sh
EXTRA_DIST += tests/t3135-confirm.sh tests/bench/confirm.sh
TESTS += tests/t3136-confirm-duet.sh
EXTRA_DIST += tests/t3136-confirm-duet.sh
TESTS += tests/t3137-confirm-image.sh
EXTRA_DIST += tests/t3137-confirm-image.sh
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
# run --tools: the trimmed summary and the guest's tool lines; the tool
# mode on the cached image (root, under nspawn and chroot).
check_PROGRAMS += tests/t3185-tool-stats
tests_t3185_tool_stats_SOURCES = tests/t3185-tool-stats.c tests/tap.h
tests_t3185_tool_stats_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3185_tool_stats_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3185-tool-stats tests/t3180-run-tools.sh
EXTRA_DIST += tests/t3180-run-tools.sh
# A full disk: export, merge, report -o and a run into a small tmpfs
# (runs as root).
TESTS += tests/t3190-disk-full.sh
EXTRA_DIST += tests/t3190-disk-full.sh
# The answer a run ends with, and its progress (t3141 runs as root).
TESTS += tests/t3140-run-summary.sh tests/t3141-run-progress.sh
EXTRA_DIST += tests/t3140-run-summary.sh tests/t3141-run-progress.sh
# Ties of public-key operations and KDFs in the summary, results and
# report, from a fixture database (no guest, no root).
TESTS += tests/t3142-run-ops-ties.sh
EXTRA_DIST += tests/t3142-run-ops-ties.sh
# What each library's process cost besides time (runs as root, a real run).
TESTS += tests/t3150-run-resources.sh tests/t7025-results-resources.sh
TESTS += tests/t3155-run-pubkey.sh
EXTRA_DIST += tests/t3155-run-pubkey.sh
EXTRA_DIST += tests/t3150-run-resources.sh tests/bench/resources.sh \
	tests/t7025-results-resources.sh
# The libraries taking turns in a run, and the pairs stored (root).
TESTS += tests/t3160-run-interleave.sh
EXTRA_DIST += tests/t3160-run-interleave.sh
TESTS += tests/t3170-duet.sh tests/t3172-duet-pubkey.sh tests/t3178-duet-build.sh
EXTRA_DIST += tests/t3170-duet.sh tests/t3172-duet-pubkey.sh tests/t3178-duet-build.sh
# The report's overview (heat maps, fastest per algorithm).
TESTS += tests/t7210-report-overview.sh
EXTRA_DIST += tests/t7210-report-overview.sh
# The report's public-key and key derivation heat maps.
TESTS += tests/t7218-report-ops.sh
EXTRA_DIST += tests/t7218-report-ops.sh tests/fixtures/ops-rows.sql
# compare's public-key and key derivation ratios, a description only.
TESTS += tests/t7115-compare-ops.sh
EXTRA_DIST += tests/t7115-compare-ops.sh
# The summary's ties, from pairs (run --interleave).
TESTS += tests/t7215-summary-ties.sh
EXTRA_DIST += tests/t7215-summary-ties.sh
TESTS += tests/t7216-cpb-labels.sh
EXTRA_DIST += tests/t7216-cpb-labels.sh
TESTS += tests/t7217-run-slope.sh
EXTRA_DIST += tests/t7217-run-slope.sh
CLEANFILES += tests/t7210-report-overview.png
TESTS += tests/t7211-cli-names.sh
EXTRA_DIST += tests/t7211-cli-names.sh
EXTRA_DIST += tests/t7200-report.sh
CLEANFILES += tests/t7200-report.png
TESTS += tests/t7300-merge.sh tests/t7400-db-readme.sh tests/t7405-latest-run.sh \
	tests/t7500-cli.sh tests/t7510-size-spellings.sh \
	tests/t7520-unknown-run.sh
# merge_from and a hostile source: opened once, defensive, no trusted schema
# (the source databases from results-mkdb).
check_PROGRAMS += tests/t7310-merge-untrusted
tests_t7310_merge_untrusted_SOURCES = tests/t7310-merge-untrusted.c tests/tap.h
tests_t7310_merge_untrusted_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t7310_merge_untrusted_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t7310-merge-untrusted
TESTS += tests/t7110-compare-nohw.sh
# Per-curve verdicts: their statistics, and compare on stored runs of
# known noise.
check_PROGRAMS += tests/t7120-verdict-stats
tests_t7120_verdict_stats_SOURCES = tests/t7120-verdict-stats.c tests/tap.h
tests_t7120_verdict_stats_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t7120_verdict_stats_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t7120-verdict-stats tests/t7130-compare-verdicts.sh
check_PROGRAMS += tests/t7125-paired-verdict
tests_t7125_paired_verdict_SOURCES = tests/t7125-paired-verdict.c tests/tap.h
tests_t7125_paired_verdict_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t7125_paired_verdict_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t7125-paired-verdict
check_PROGRAMS += tests/t7140-daemon-verdict
tests_t7140_daemon_verdict_SOURCES = tests/t7140-daemon-verdict.c tests/tap.h
tests_t7140_daemon_verdict_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t7140_daemon_verdict_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t7140-daemon-verdict
EXTRA_DIST += tests/t7130-compare-verdicts.sh tests/fixtures/verdict-runs.py
EXTRA_DIST += tests/t7110-compare-nohw.sh
EXTRA_DIST += tests/t7300-merge.sh tests/t7400-db-readme.sh tests/t7405-latest-run.sh db/README \
	tests/t7500-cli.sh tests/t7510-size-spellings.sh \
	tests/t7520-unknown-run.sh
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
# The clients of the daemon against a stand-in answering canned replies.
TESTS += tests/t6015-daemon-client.sh
EXTRA_DIST += tests/t6015-daemon-client.sh
check_PROGRAMS += tests/t6120-schedule-dst
tests_t6120_schedule_dst_SOURCES = tests/t6120-schedule-dst.c tests/tap.h
tests_t6120_schedule_dst_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t6120_schedule_dst_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t6120-schedule-dst
TESTS += tests/t6130-daemon-reload.sh tests/t6140-daemon-config-check.sh \
	tests/t6150-daemon-dst.sh tests/t6160-daemon-hup-socket.sh \
	tests/t6170-units.sh tests/t6180-daemon-status-db.sh \
	tests/t6190-daemon-slurm-hang.sh
EXTRA_DIST += tests/t6130-daemon-reload.sh tests/t6140-daemon-config-check.sh \
	tests/t6150-daemon-dst.sh tests/t6160-daemon-hup-socket.sh \
	tests/t6170-units.sh tests/t6180-daemon-status-db.sh \
	tests/t6190-daemon-slurm-hang.sh
EXTRA_DIST += tests/t6010-daemon-cli.sh
# The guest's timing statistics: quartiles, CV, re-runs, calibration, the
# longest protocol line (built from the guest's own sources, like t1000).
check_PROGRAMS += tests/t1040-guest-stats
tests_t1040_guest_stats_SOURCES = tests/t1040-guest-stats.c tests/tap.h \
	guest/samples.c guest/samples.h guest/bench.c guest/bench.h \
	guest/cpuclock.c guest/cpuclock.h guest/tsc.c guest/tsc.h \
	guest/emit.c guest/emit.h \
	guest/rusage.c guest/rusage.h \
	guest/json.c guest/json.h guest/compat.h
tests_t1040_guest_stats_CFLAGS = $(GUEST_CFLAGS)
tests_t1040_guest_stats_LDADD = -lm
TESTS += tests/t1040-guest-stats
# The contention canary: its judgement, and re-measuring in the guest.
check_PROGRAMS += tests/t1050-guest-canary
tests_t1050_guest_canary_SOURCES = tests/t1050-guest-canary.c tests/tap.h \
	guest/canary.c guest/canary.h guest/samples.c guest/samples.h \
	guest/bench.c guest/bench.h guest/cpuclock.c guest/cpuclock.h \
	guest/tsc.c guest/tsc.h guest/compat.h
tests_t1050_guest_canary_CFLAGS = $(GUEST_CFLAGS)
tests_t1050_guest_canary_LDADD = -lm
TESTS += tests/t1050-guest-canary tests/t1055-guest-canary.sh
EXTRA_DIST += tests/t1055-guest-canary.sh
# The --nohw environment and its stand-in of the same size.
check_PROGRAMS += tests/t1060-guest-hwmask
tests_t1060_guest_hwmask_SOURCES = tests/t1060-guest-hwmask.c tests/tap.h \
	guest/hwmask.c guest/hwmask.h guest/compat.h
tests_t1060_guest_hwmask_CFLAGS = $(GUEST_CFLAGS)
TESTS += tests/t1060-guest-hwmask
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
	lib/shuffle.c lib/shuffle.h guest/compat.h
TESTS += tests/t1045-guest-shuffle
# The allocation rules of the guest's timed paths, on the host's libraries.
GUEST_BACKEND_SOURCES = guest/compat.h guest/algo.c guest/algo.h \
	lib/algorithm-table.c lib/algorithm-table.h \
	guest/backend.h guest/backends.c guest/backend-openssl.c \
	guest/backend-libgcrypt.c guest/backend-nettle.c \
	guest/backend-libsodium.c guest/backend-mbedtls.c \
	guest/backend-gnutls.c guest/backend-wolfssl.c \
	guest/backend-botan.c guest/backend-libtomcrypt.c \
	guest/backend-libmcrypt.c \
	guest/backend-pk.h guest/backend-openssl-pk.c \
	guest/backend-libsodium-pk.c guest/backend-nettle-pk.c \
	guest/backend-libgcrypt-pk.c guest/backend-wolfssl-pk.c \
	guest/backend-botan-pk.c guest/backend-gnutls-pk.c \
	guest/backend-mbedtls-pk.c \
	guest/backend-kdf.h guest/backend-openssl-kdf.c \
	guest/backend-libgcrypt-kdf.c guest/backend-nettle-kdf.c \
	guest/backend-gnutls-kdf.c guest/backend-libsodium-kdf.c \
	guest/backend-mbedtls-kdf.c guest/backend-wolfssl-kdf.c \
	guest/backend-botan-kdf.c \
	guest/ecdsa-der.c guest/ecdsa-der.h \
	guest/backend-openssl-ec.c guest/backend-nettle-ec.c \
	guest/backend-openssl-pq.c \
	guest/backend-libgcrypt-ec.c guest/backend-mbedtls-ec.c \
	guest/backend-wolfssl-ec.c guest/backend-botan-ec.c \
	guest/backend-gnutls-ec.c guest/backend-gnutls-kx.c \
	guest/rsa-keys.c guest/rsa-keys.h \
	guest/backend-openssl-rsa.c guest/backend-libgcrypt-rsa.c \
	guest/backend-nettle-rsa.c guest/backend-gnutls-rsa.c \
	guest/backend-mbedtls-rsa.c \
	guest/backend-wolfssl-rsa.c \
	guest/backend-botan-rsa.c
check_PROGRAMS += tests/t1300-guest-alloc
tests_t1300_guest_alloc_SOURCES = tests/t1300-guest-alloc.c tests/tap.h \
	$(GUEST_BACKEND_SOURCES)
tests_t1300_guest_alloc_CFLAGS = $(GUEST_CFLAGS)
tests_t1300_guest_alloc_LDADD = -ldl
# linked without AddressSanitizer even in an --enable-asan build (whose
# AM_LDFLAGS add it): the test defines malloc itself, which ASan owns
tests_t1300_guest_alloc_LDFLAGS =
TESTS += tests/t1300-guest-alloc
# The guest's core-clock measurement.
check_PROGRAMS += tests/t1310-guest-clock
tests_t1310_guest_clock_SOURCES = tests/t1310-guest-clock.c tests/tap.h \
	guest/cpuclock.c guest/cpuclock.h guest/tsc.c guest/tsc.h \
	guest/bench.c guest/bench.h guest/samples.c guest/samples.h guest/compat.h
tests_t1310_guest_clock_CFLAGS = $(GUEST_CFLAGS)
tests_t1310_guest_clock_LDADD = -lm
TESTS += tests/t1310-guest-clock
# The guest's timed-path checks, on a stand-in backend with faults.
check_PROGRAMS += tests/t1320-guest-timedpath
tests_t1320_guest_timedpath_SOURCES = tests/t1320-guest-timedpath.c \
	tests/tap.h guest/kat.c guest/kat.h guest/point.c guest/point.h \
	guest/place.c guest/place.h guest/bench.c guest/bench.h \
	guest/cpuclock.c guest/cpuclock.h guest/tsc.c guest/tsc.h \
	guest/samples.c guest/samples.h lib/shuffle.c lib/shuffle.h \
	$(GUEST_BACKEND_SOURCES)
tests_t1320_guest_timedpath_CFLAGS = $(GUEST_CFLAGS)
tests_t1320_guest_timedpath_LDADD = -ldl
TESTS += tests/t1320-guest-timedpath
# The guest's paired estimates (interleaved measurement).
check_PROGRAMS += tests/t1325-guest-pairs
tests_t1325_guest_pairs_SOURCES = tests/t1325-guest-pairs.c tests/tap.h \
	guest/pairs.c guest/pairs.h guest/compat.h
tests_t1325_guest_pairs_CFLAGS = $(GUEST_CFLAGS)
TESTS += tests/t1325-guest-pairs
# Where a timed block runs on the stack (guest/place.h).
check_PROGRAMS += tests/t1326-guest-place
tests_t1326_guest_place_SOURCES = tests/t1326-guest-place.c tests/tap.h \
	guest/place.c guest/place.h lib/shuffle.c lib/shuffle.h \
	guest/compat.h
tests_t1326_guest_place_CFLAGS = $(GUEST_CFLAGS)
TESTS += tests/t1326-guest-place
# The choice of the CPU the guests are pinned to.
check_PROGRAMS += tests/t0010-rmtree tests/t0030-run-lock
tests_t0010_rmtree_SOURCES = tests/t0010-rmtree.c tests/tap.h
tests_t0010_rmtree_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0010_rmtree_LDADD = $(ORCH_TEST_LDADD)
tests_t0030_run_lock_SOURCES = tests/t0030-run-lock.c tests/tap.h
tests_t0030_run_lock_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0030_run_lock_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t0010-rmtree tests/t0030-run-lock

check_PROGRAMS += tests/t0050-cpuchoice
tests_t0050_cpuchoice_SOURCES = tests/t0050-cpuchoice.c tests/tap.h
tests_t0050_cpuchoice_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0050_cpuchoice_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t0050-cpuchoice
# The CPU state recorded with every run, on fixture sysfs trees.
check_PROGRAMS += tests/t0040-cpustate
tests_t0040_cpustate_SOURCES = tests/t0040-cpustate.c tests/tap.h
tests_t0040_cpustate_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0040_cpustate_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t0040-cpustate
EXTRA_DIST += tests/fixtures/sysfs-intel tests/fixtures/sysfs-acpi \
	tests/fixtures/sysfs-none
# The order of a run: rounds, distributions, guest seeds.
check_PROGRAMS += tests/t3050-plan
tests_t3050_plan_SOURCES = tests/t3050-plan.c tests/tap.h
tests_t3050_plan_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3050_plan_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3050-plan
check_PROGRAMS += tests/t3056-plan-interleave
tests_t3056_plan_interleave_SOURCES = tests/t3056-plan-interleave.c tests/tap.h
tests_t3056_plan_interleave_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3056_plan_interleave_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3056-plan-interleave
check_PROGRAMS += tests/t3176-duet-pass
tests_t3176_duet_pass_SOURCES = tests/t3176-duet-pass.c tests/tap.h
tests_t3176_duet_pass_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3176_duet_pass_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3176-duet-pass
check_PROGRAMS += tests/t3057-confirm-curves
tests_t3057_confirm_curves_SOURCES = tests/t3057-confirm-curves.c tests/tap.h
tests_t3057_confirm_curves_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t3057_confirm_curves_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t3057-confirm-curves
# Last: memcheck over the unit tests.
TESTS += tests/t3900-valgrind.sh
EXTRA_DIST += tests/t3900-valgrind.sh tests/bench/overhead.sh \
	tests/bench/aa.sh tests/bench/ab.sh tests/bench/ranking.sh
# The C tests that read the cached test image (t2000, t2030) get it built
# first when it is missing, so that a subset of the tests or make -j does
# not quietly skip them; the shell tests call require_test_image.
tests/t2000-images-dpkg.log tests/t2030-images-digest.log: tests-image-ready
tests-image-ready: benchorch$(EXEEXT)
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(SHELL) $(top_srcdir)/tests/test-image.sh
.PHONY: tests-image-ready
EXTRA_DIST += tests/test-image.sh
# scripts/check.sh counts the results of the tests in TESTS only: their
# .trs files, one per line.
check-trs-list:
	@for f in $(TEST_LOGS); do echo "$${f%.log}.trs"; done
.PHONY: check-trs-list
# The guest's known-answer tests reject a wrong library, end to end: a
# stand-in libsodium with a wrong cipher, one accepting forged tags.
TESTS += tests/t1130-guest-kat-reject.sh
EXTRA_DIST += tests/t1130-guest-kat-reject.sh tests/fixtures/standin-libsodium.c
# Public-key algorithms (--pubkey): known answers, timing, cross-check.
TESTS += tests/t1140-guest-pubkey.sh tests/t1145-guest-pubkey-wrong.sh
EXTRA_DIST += tests/t1140-guest-pubkey.sh tests/t1145-guest-pubkey-wrong.sh \
	tests/fixtures/standin-hogweed.c
# ML-KEM-768 and ML-DSA-65 in a trixie image, when one is cached.
TESTS += tests/t1148-guest-pq.sh
EXTRA_DIST += tests/t1148-guest-pq.sh
# Their decapsulation and verification known answers catch a wrong
# library (a stand-in backend with faults; no library loaded).
check_PROGRAMS += tests/t1149-guest-pq-kat
tests_t1149_guest_pq_kat_SOURCES = tests/t1149-guest-pq-kat.c tests/tap.h \
	guest/pubkey-kat.c guest/pubkey-kat-pq.c guest/pubkey-kat.h \
	guest/rsa-keys.c guest/rsa-keys.h guest/backend.h guest/compat.h
tests_t1149_guest_pq_kat_CFLAGS = $(GUEST_CFLAGS)
TESTS += tests/t1149-guest-pq-kat
# Key derivation functions (--kdf): known answers, timing, cross-check.
TESTS += tests/t1170-guest-kdf.sh tests/t1175-guest-kdf-wrong.sh
EXTRA_DIST += tests/t1170-guest-kdf.sh tests/t1175-guest-kdf-wrong.sh
# The guest's interleaved measurement: pairs, A/A, a failing worker.
TESTS += tests/t1330-guest-interleave.sh
EXTRA_DIST += tests/t1330-guest-interleave.sh
TESTS += tests/t1335-duet-shim.sh
EXTRA_DIST += tests/t1335-duet-shim.sh
TESTS += tests/t1337-guest-turns.sh
EXTRA_DIST += tests/t1337-guest-turns.sh
# Many machines: benchorch on a Slurm cluster (t8120 starts a real one-node
# cluster: munged, slurmctld, slurmd).
TESTS += tests/t8100-slurm-cli.sh tests/t8110-slurm-collect.sh \
	tests/t8115-slurm-spool.sh \
	tests/t8120-slurm-cluster.sh tests/t8130-machines.sh
EXTRA_DIST += tests/bench/merge-scale.sh tests/bench/slurm-overhead.sh \
	tests/t8100-slurm-cli.sh tests/t8110-slurm-collect.sh tests/t8115-slurm-spool.sh \
	tests/t8120-slurm-cluster.sh tests/slurm-lib.sh tests/t8130-machines.sh
# The guest's fixed environment under both runners.
TESTS += tests/t3130-run-env.sh
EXTRA_DIST += tests/t3130-run-env.sh tests/fixtures/guest-env.sh
# A library that fails at any moment, in any way, costs only itself: the
# guest in the image, its output through the validator (guest-check).
check_PROGRAMS += tests/fixtures/guest-check
tests_fixtures_guest_check_SOURCES = tests/fixtures/guest-check.c
tests_fixtures_guest_check_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_fixtures_guest_check_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t1115-guest-lib-faults.sh
EXTRA_DIST += tests/t1115-guest-lib-faults.sh
# Library faults inside an image, through a whole run.
TESTS += tests/t1120-run-library-faults.sh
EXTRA_DIST += tests/t1120-run-library-faults.sh
# Read-only commands for users who may not write beside the database.
TESTS += tests/t4035-db-readers.sh
EXTRA_DIST += tests/t4035-db-readers.sh
# A database SQLite finds malformed: exit 3 naming it, never "no results".
TESTS += tests/t4036-db-corrupt.sh
EXTRA_DIST += tests/t4036-db-corrupt.sh
# One table of a database malformed, the rest sound: what reads it says
# so (exit 3), never an empty answer, a missing caveat or warning.
TESTS += tests/t4037-db-side-tables.sh
EXTRA_DIST += tests/t4037-db-side-tables.sh
# images build binds a bootstrap build to one keyring (network, root).
TESTS += tests/t2150-images-keyring.sh
EXTRA_DIST += tests/t2150-images-keyring.sh
# The store of rebuilt libraries (images/builds.h).
check_PROGRAMS += tests/t2161-images-builds
tests_t2161_images_builds_SOURCES = tests/t2161-images-builds.c tests/tap.h
tests_t2161_images_builds_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t2161_images_builds_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t2161-images-builds
# benchorch rebuild: one library built from source in a throwaway overlay
# of a copy of the cached image (root, network).
TESTS += tests/t2160-images-rebuild.sh
EXTRA_DIST += tests/t2160-images-rebuild.sh
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
TESTS += tests/t7015-fit-clamp tests/t7212-report-fit-clamp.sh tests/t7020-points.sh
EXTRA_DIST += tests/t7212-report-fit-clamp.sh tests/t7020-points.sh
# Library faults as the orchestrator reads them from the guest.
check_PROGRAMS += tests/t0005-guest-faults
tests_t0005_guest_faults_SOURCES = tests/t0005-guest-faults.c tests/tap.h
tests_t0005_guest_faults_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_t0005_guest_faults_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t0005-guest-faults

# The benchmark scripts and programs (run by hand on a quiet machine; the
# figures they print go into the notes, not into the test suite).
EXTRA_DIST += tests/bench/fidelity.sh tests/bench/findings.sh \
	tests/bench/full-run.sh tests/bench/image-build.sh \
	tests/bench/noisefloor.sh tests/bench/order.sh \
	tests/bench/pubkey-speed.sh tests/bench/regimes.c \
	tests/bench/spread.py \
	tests/bench/repeatability.sh tests/bench/samework.sh \
	tests/bench/speed-loop.c tests/bench/tools.sh
# The duets' known truth: image copies and the stand-in libcrypto.so.3
# (tests/duet-images.sh), and the duet benchmarks on them.
EXTRA_DIST += tests/duet-images.sh tests/fixtures/duet-shim.c \
	tests/bench/duet-aa.sh tests/bench/duet-ab.sh tests/bench/builds.sh
EXTRA_DIST += tests/README
# Rebuilt libraries measured beside the shipped ones (run --builds): a
# stand-in build (fake-build: the image's own library, with a recipe
# written by build_json_write) in a real run on the cached image.
check_PROGRAMS += tests/fixtures/fake-build
tests_fixtures_fake_build_SOURCES = tests/fixtures/fake-build.c
tests_fixtures_fake_build_CFLAGS = $(ORCH_TEST_CFLAGS)
tests_fixtures_fake_build_LDADD = $(ORCH_TEST_LDADD)
TESTS += tests/t2162-run-builds.sh
EXTRA_DIST += tests/t2162-run-builds.sh
