/* migrations.h - the schema migrations embedded from db/migrations/. */
#ifndef BENCHORCH_DB_MIGRATIONS_H
#define BENCHORCH_DB_MIGRATIONS_H

/* One migration: db/migrations/NNNN-name.sql. Applying it leaves PRAGMA
 * user_version at VERSION (NNNN). */
struct db_migration {
	unsigned version;	/* > the previous migration's; gaps allowed */
	const char *sql;	/* statements, run in one transaction */
};

/* Every migration, by increasing version (db/sql2c.sh checks the order). A
 * database at user_version V gets each migration whose version is above V,
 * in order. A number without a migration (a gap) is simply skipped; a
 * migration is never applied to a database whose version is already at or
 * above its own, so a new migration must be numbered above every released
 * one. */
extern const struct db_migration db_migrations[];
extern const unsigned db_migrations_count;

#endif
