/* migrations.h - the schema migrations embedded from db/migrations/. */
#ifndef BENCHORCH_DB_MIGRATIONS_H
#define BENCHORCH_DB_MIGRATIONS_H

/* SQL text of migration N (1-based) is db_migrations[N - 1]; applying it
 * moves PRAGMA user_version from N - 1 to N. */
extern const char *const db_migrations[];
extern const unsigned db_migrations_count;

#endif
