/* schema.h — internal to results/: the database schema as an ordered list of migration
 * steps, and the function that brings a database up to a version. Exposed beside
 * store.c only so that tests can drive the migration mechanism with steps of their own. */
#ifndef CC_SCHEMA_H
#define CC_SCHEMA_H

#include <sqlite3.h>

#include "../ops/core/cc.h"

/* PRAGMA application_id of a crosscheck results database ("ccRS"). */
#define CC_STORE_APPLICATION_ID 0x63635253

/* One step: SQL that takes a database from version - 1 to version. The SQL must end by
 * setting PRAGMA user_version to `version`; cc_schema_migrate checks that it did. */
typedef struct cc_migration {
    int version;
    const char *what;      /* one line for error messages: "create the initial tables" */
    const char *sql;
} cc_migration;

/* The schema of this code: steps[i].version == i + 1; the last is CC_STORE_SCHEMA_VERSION. */
extern const cc_migration cc_schema_steps[];
extern const int cc_schema_step_count;

/* Reads PRAGMA user_version into *version. CC_ERR_DB (naming path) when it cannot. */
cc_status cc_schema_version(sqlite3 *db, const char *path, int *version, cc_err *err);

/* Applies, in order, every step of steps[0..n-1] whose version is above the database's
 * user_version, each in its own transaction (BEGIN IMMEDIATE ... COMMIT). A step that
 * fails is rolled back, leaving the database at the previous version, and is reported as
 * CC_ERR_DB naming path, the step and SQLite's message. Steps must be numbered 1..n in
 * order (CC_ERR_INTERNAL otherwise). A database already at version n is left alone. */
cc_status cc_schema_migrate(sqlite3 *db, const char *path, const cc_migration *steps, int n,
                            cc_err *err);

#endif
