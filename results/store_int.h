/* store_int.h — internal to results/: the store handle and the statement helpers that
 * store.c (opening, writing) and store_read.c (reading) share. */
#ifndef CC_STORE_INT_H
#define CC_STORE_INT_H

#include <sqlite3.h>

#include "store.h"

/* The prepared statements of a handle; their SQL is the table in store.c. */
enum {
    ST_BEGIN, ST_COMMIT, ST_ROLLBACK,
    ST_RUN_INSERT, ST_ENV_INSERT, ST_ENV_START, ST_ENV_END, ST_RUN_EXISTS, ST_RUN_STATUS, ST_RUN_RESUME,
    ST_RUN_ADD_JOB,
    ST_TARGET_PUT, ST_CASE_INSERT, ST_CASE_FIND, ST_RESULT_DELETE, ST_RESULT_INSERT,
    ST_SAMPLE_INSERT, ST_FIND_RESUMABLE, ST_LATEST_RUN, ST_GET_RUN, ST_HAS_RESULT,
    ST_COUNT_RESULTS, ST_COUNT_VERDICT, ST_LOAD_RESULTS, ST_LOAD_TARGETS, ST_LOAD_SAMPLES,
    ST_COUNT
};

/* An open database: the connection, its path for messages, and the statement cache. */
struct cc_db {
    sqlite3 *db;
    char *path;
    int readonly;
    int version;
    sqlite3_stmt *stmt[ST_COUNT];
};

/* CC_ERR_DB: "results database '<path>': <what>: <sqlite message>". */
cc_status cc_db_error(const cc_db *s, const char *what, cc_err *err);
/* The statement `which`, prepared on first use, else reset with bindings cleared. */
cc_status cc_db_stmt(cc_db *s, int which, sqlite3_stmt **out, cc_err *err);
/* Steps a statement that returns no row, then resets it; CC_ERR_DB naming what. */
cc_status cc_db_step_done(cc_db *s, sqlite3_stmt *st, const char *what, cc_err *err);

int cc_db_bind_text(sqlite3_stmt *st, int i, const char *text);   /* NULL binds "" */
int cc_db_bind_real(sqlite3_stmt *st, int i, double v);           /* NaN binds NULL */
double cc_db_column_real(sqlite3_stmt *st, int i);                /* NULL reads NaN */
void cc_db_column_text(sqlite3_stmt *st, int i, char *dst, size_t n); /* cut to n - 1 bytes */
int cc_db_regime_parse(const char *name, cc_regime *out);         /* 0 ok, -1 unknown */
/* Reads a cc_env_state stored as (load, governor, mhz, max_mhz) from column first on. */
void cc_db_read_env_state(sqlite3_stmt *st, int first, cc_env_state *out);
/* Reads the numeric result columns (metrics, timing, cost, policy) starting at column first,
 * in the order ST_LOAD_RESULTS selects them. */
void cc_db_read_result_fields(sqlite3_stmt *st, int first, cc_result *r);

#endif
