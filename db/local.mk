# db/: schema, migrations and the store of runs and results.
DB_MIGRATIONS = db/migrations/0001-initial.sql \
	db/migrations/0002-protocol2.sql \
	db/migrations/0003-package-changes.sql \
	db/migrations/0004-cpu-state.sql \
	db/migrations/0005-samples.sql \
	db/migrations/0006-results-view.sql \
	db/migrations/0007-cpu-choice.sql \
	db/migrations/0008-canaries.sql \
	db/migrations/0009-resources.sql \
	db/migrations/0010-tools.sql \
	db/migrations/0011-verdicts.sql \
	db/migrations/0012-confirmations.sql \
	db/migrations/0013-points-view.sql \
	db/migrations/0014-verdict-inputs.sql \
	db/migrations/0015-latest-runs.sql \
	db/migrations/0016-pairs.sql \
	db/migrations/0017-duets.sql \
	db/migrations/0018-duet-variant.sql \
	db/migrations/0019-pubkey.sql \
	db/migrations/0020-builds.sql \
	db/migrations/0021-build-pairs.sql \
	db/migrations/0022-kdf.sql \
	db/migrations/0023-build-views.sql \
	db/migrations/0024-duet-builds.sql \
	db/migrations/0025-duet-pubkey.sql \
	db/migrations/0026-extra-pairs.sql
EXTRA_DIST += $(DB_MIGRATIONS) db/sql2c.sh
BUILT_SOURCES += db/migrations-sql.c
CLEANFILES += db/migrations-sql.c
db/migrations-sql.c: $(DB_MIGRATIONS) $(top_srcdir)/db/sql2c.sh
	$(AM_V_GEN)mkdir -p db && $(SHELL) $(top_srcdir)/db/sql2c.sh $@ $(DB_MIGRATIONS:%=$(top_srcdir)/%)

liborch_a_SOURCES += \
	db/db.c db/db.h \
	db/duets.c db/duets.h \
	db/runs.c \
	db/output.c db/output.h \
	db/stmt.c db/stmt.h \
	db/package-changes.c db/package-changes.h \
	db/confirmations.c db/confirmations.h \
	db/latest.c db/latest.h \
	db/tools.c db/tools.h \
	db/resources.c db/resources.h \
	db/migrations.h
nodist_liborch_a_SOURCES = db/migrations-sql.c
