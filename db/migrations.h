/* migrations.h - the schema migrations embedded from db/migrations/. */
#ifndef BENCHORCH_DB_MIGRATIONS_H
#define BENCHORCH_DB_MIGRATIONS_H

/* SQL text of migration N (1-based, the number its file name
 * db/migrations/NNNN-name.sql starts with) is db_migrations[N - 1];
 * applying it moves PRAGMA user_version from N - 1 to N. A number with no
 * file is a NULL element: the runner skips it, moving the version on. A
 * database migrated past such a gap never applies a migration added later
 * under that number, so a gap must be filled before a database is
 * migrated past it anywhere that matters (a release). db_migrations_count
 * is the highest number. */
extern const char *const db_migrations[];
extern const unsigned db_migrations_count;

#endif
