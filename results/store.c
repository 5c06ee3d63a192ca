/* store.c — the SQLite results store: opening (with the checks that keep a file the store
 * does not understand untouched), the statement table and its helpers, and writing runs,
 * targets, results and timing samples. Every statement is prepared once per handle from
 * constant text and bound; the schema lives in schema.c, the queries in store_read.c. */
#include "store.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "schema.h"
#include "store_int.h"

#define BUSY_TIMEOUT_MS 5000
#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%SZ','now')"

/* ---- result columns: one table drives the INSERT, the SELECT and the binding ---------- */

enum { F_REAL, F_I64, F_INT };

#define RESULT_FIELDS(X)                                                                \
    X(n, metrics.n, F_I64) X(n_bad, metrics.n_bad, F_I64)                               \
    X(max_abs, metrics.max_abs, F_REAL) X(max_rel, metrics.max_rel, F_REAL)             \
    X(max_ulp, metrics.max_ulp, F_REAL) X(nmse, metrics.nmse, F_REAL)                   \
    X(cosine, metrics.cosine, F_REAL) X(bound_ratio, metrics.bound_ratio, F_REAL)       \
    X(worst_index, metrics.worst_index, F_I64) X(worst_got, metrics.worst_got, F_REAL)  \
    X(worst_want, metrics.worst_want, F_REAL)                                           \
    X(n_samples, timing.n_samples, F_INT) X(device_timer, timing.device_timer, F_INT)   \
    X(t_median, timing.median, F_REAL) X(t_mean, timing.mean, F_REAL)                   \
    X(t_stddev, timing.stddev, F_REAL) X(t_mad, timing.mad, F_REAL)                     \
    X(t_min, timing.min, F_REAL) X(t_max, timing.max, F_REAL)                           \
    X(t_p90, timing.p90, F_REAL) X(t_p99, timing.p99, F_REAL) X(t_cv, timing.cv, F_REAL) \
    X(t_ci_lo, timing.ci_lo, F_REAL) X(t_ci_hi, timing.ci_hi, F_REAL)                   \
    X(gflops, timing.gflops, F_REAL) X(gbps, timing.gbps, F_REAL)                       \
    X(t_ref, timing.ref, F_REAL)                                                        \
    X(flops, flops, F_REAL) X(bytes, bytes, F_REAL)                                     \
    X(tol_c, tol_c, F_REAL) X(tol_r, tol_r, F_REAL) X(tol_atol, tol_atol, F_REAL)       \
    X(policy_version, policy_version, F_INT)

#define COL_NAME(col, member, kind) #col ", "
#define COL_QMARK(col, member, kind) "?, "
#define COL_SELECT(col, member, kind) "r." #col ", "
#define COL_ENTRY(col, member, kind) { offsetof(cc_result, member), kind },

static const struct {
    size_t off;
    int kind;
} result_fields[] = { RESULT_FIELDS(COL_ENTRY) };

#define N_RESULT_FIELDS ((int)(sizeof result_fields / sizeof result_fields[0]))

/* ---- statements ---------------------------------------------------------------------- */

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_RUN_INSERT] =
        "INSERT INTO runs (uid, started_at, status, tag, config, seed, quick, command, version,"
        " git_commit, libraries, shard_index, shard_count, shard_source, scheduler_jobs)"
        " VALUES (?, " NOW_SQL ", 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [ST_ENV_INSERT] =
        "INSERT INTO environments (run_id, cpu_model, cpu_flags, cores, memory_bytes, os,"
        " hostname, compiler, load_start, governor_start, mhz_start, max_mhz_start)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [ST_ENV_START] = "SELECT load_start, cores FROM environments WHERE run_id = ?",
    [ST_ENV_END] =
        "UPDATE environments SET load_end = ?, governor_end = ?, mhz_end = ?, max_mhz_end = ?,"
        " others_cpu = ?, busy = ? WHERE run_id = ?",
    [ST_RUN_EXISTS] = "SELECT 1 FROM runs WHERE id = ?",
    [ST_RUN_STATUS] = "UPDATE runs SET status = ?, finished_at = " NOW_SQL " WHERE id = ?",
    [ST_RUN_RESUME] = "UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?",
    [ST_RUN_ADD_JOB] =
        "UPDATE runs SET scheduler_jobs = CASE"
        " WHEN scheduler_jobs = '' THEN ?1"
        " WHEN scheduler_jobs = ?1 OR substr(scheduler_jobs, -length(?1) - 2) = ', ' || ?1"
        "   OR length(scheduler_jobs) + 2 + length(?1) > 255 THEN scheduler_jobs"
        " ELSE scheduler_jobs || ', ' || ?1 END WHERE id = ?2",
    [ST_TARGET_PUT] =
        "INSERT INTO run_targets (run_id, name, available, reason, device, driver, library,"
        " peak_gflops, peak_gbps, peak_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (run_id, name) DO UPDATE SET available = excluded.available,"
        " reason = excluded.reason, device = excluded.device, driver = excluded.driver,"
        " library = excluded.library, peak_gflops = excluded.peak_gflops,"
        " peak_gbps = excluded.peak_gbps, peak_source = excluded.peak_source",
    [ST_CASE_INSERT] =
        "INSERT INTO cases (case_id, op, dtype) VALUES (?, ?, ?) ON CONFLICT (case_id) DO NOTHING",
    [ST_CASE_FIND] = "SELECT id, op, dtype FROM cases WHERE case_id = ?",
    [ST_RESULT_DELETE] =
        "DELETE FROM results WHERE run_id = ? AND case_ref = ? AND target = ? AND regime = ?",
    [ST_RESULT_INSERT] =
        "INSERT INTO results (run_id, case_ref, target, regime, seed, verdict, reason, plan, "
        RESULT_FIELDS(COL_NAME) "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
        RESULT_FIELDS(COL_QMARK) NOW_SQL ")",
    [ST_SAMPLE_INSERT] = "INSERT INTO timing_samples (result_id, idx, seconds) VALUES (?, ?, ?)",
    [ST_FIND_RESUMABLE] =
        "SELECT id FROM runs WHERE config = ? AND status IN ('running', 'interrupted')"
        " ORDER BY id DESC LIMIT 1",
    [ST_LATEST_RUN] = "SELECT id FROM runs ORDER BY id DESC LIMIT 1",
    [ST_GET_RUN] =
        "SELECT r.id, r.uid, r.started_at, coalesce(r.finished_at, ''), r.status, r.tag,"
        " r.config, r.seed, r.quick, r.command, r.version, r.git_commit, r.libraries,"
        " coalesce(r.shard_index, 0), coalesce(r.shard_count, 0), r.shard_source, r.scheduler_jobs,"
        " e.cpu_model, e.cpu_flags, e.cores, e.memory_bytes, e.os, e.hostname, e.compiler,"
        " e.load_start, e.governor_start, e.mhz_start, e.max_mhz_start,"
        " e.load_end, e.governor_end, e.mhz_end, e.max_mhz_end, e.others_cpu, e.busy"
        " FROM runs r LEFT JOIN environments e ON e.run_id = r.id WHERE r.id = ?",
    [ST_HAS_RESULT] =
        "SELECT 1 FROM results r JOIN cases c ON c.id = r.case_ref WHERE r.run_id = ?"
        " AND c.case_id = ? AND r.target = ? AND r.regime = ?",
    [ST_COUNT_RESULTS] = "SELECT count(*) FROM results WHERE run_id = ?",
    [ST_COUNT_VERDICT] = "SELECT count(*) FROM results WHERE run_id = ? AND verdict = ?",
    [ST_LOAD_RESULTS] =
        "SELECT c.case_id, c.op, c.dtype, r.target, r.regime, r.seed, r.verdict, r.reason,"
        " r.plan, " RESULT_FIELDS(COL_SELECT) "r.id FROM results r JOIN cases c"
        " ON c.id = r.case_ref WHERE r.run_id = ?"
        " ORDER BY c.op, c.dtype, c.case_id, r.target, r.regime",
    [ST_LOAD_TARGETS] =
        "SELECT name, available, reason, device, driver, library, peak_gflops, peak_gbps,"
        " peak_source FROM run_targets WHERE run_id = ? ORDER BY id",
    [ST_LOAD_SAMPLES] =
        "SELECT s.seconds FROM timing_samples s JOIN results r ON r.id = s.result_id"
        " JOIN cases c ON c.id = r.case_ref WHERE r.run_id = ? AND c.case_id = ?"
        " AND r.target = ? AND r.regime = ? ORDER BY s.idx",
};

/* ---- small helpers -------------------------------------------------------------------- */

cc_status cc_db_error(const cc_db *s, const char *what, cc_err *err)
{
    return cc_err_set(err, CC_ERR_DB, "results database '%s': %s: %s", s->path, what,
                      sqlite3_errmsg(s->db));
}

/* The statement `which`, prepared on first use, reset and with bindings cleared. */
cc_status cc_db_stmt(cc_db *s, int which, sqlite3_stmt **out, cc_err *err)
{
    if (!s->stmt[which]) {
        if (sqlite3_prepare_v2(s->db, stmt_sql[which], -1, &s->stmt[which], NULL) != SQLITE_OK)
            return cc_db_error(s, "preparing a statement", err);
    } else {
        sqlite3_reset(s->stmt[which]);
        sqlite3_clear_bindings(s->stmt[which]);
    }
    *out = s->stmt[which];
    return CC_OK;
}

/* Steps a statement that returns no row. */
cc_status cc_db_step_done(cc_db *s, sqlite3_stmt *st, const char *what, cc_err *err)
{
    int rc = sqlite3_step(st);
    cc_status status = rc == SQLITE_DONE ? CC_OK : cc_db_error(s, what, err);
    sqlite3_reset(st);
    return status;
}

static cc_status exec_stmt(cc_db *s, int which, const char *what, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(s, which, &st, err);
    if (status != CC_OK) return status;
    return cc_db_step_done(s, st, what, err);
}

/* Binds a cc_env_state as (load, governor, mhz, max_mhz) from parameter first on. */
static void bind_env_state(sqlite3_stmt *st, int first, const cc_env_state *e)
{
    cc_db_bind_real(st, first, e->load1);
    cc_db_bind_text(st, first + 1, memchr(e->governor, '\0', sizeof e->governor) ? e->governor : "");
    cc_db_bind_real(st, first + 2, e->mhz);
    cc_db_bind_real(st, first + 3, e->max_mhz);
}

void cc_db_read_env_state(sqlite3_stmt *st, int first, cc_env_state *out)
{
    out->load1 = cc_db_column_real(st, first);
    cc_db_column_text(st, first + 1, out->governor, sizeof out->governor);
    out->mhz = cc_db_column_real(st, first + 2);
    out->max_mhz = cc_db_column_real(st, first + 3);
}

static void rollback(cc_db *s)
{
    sqlite3_stmt *st = NULL;
    if (cc_db_stmt(s, ST_ROLLBACK, &st, NULL) == CC_OK) cc_db_step_done(s, st, "rollback", NULL);
}

int cc_db_bind_text(sqlite3_stmt *st, int i, const char *text)
{
    return sqlite3_bind_text(st, i, text ? text : "", -1, SQLITE_TRANSIENT);
}

int cc_db_bind_real(sqlite3_stmt *st, int i, double v)
{
    return isnan(v) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, v);
}

double cc_db_column_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

void cc_db_column_text(sqlite3_stmt *st, int i, char *dst, size_t n)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    snprintf(dst, n, "%s", t ? (const char *)t : "");
}

/* 1 when the fixed-size field holds a non-empty NUL-terminated string. */
static int field_ok(const char *f, size_t n)
{
    return f[0] != '\0' && memchr(f, '\0', n) != NULL;
}

int cc_db_regime_parse(const char *name, cc_regime *out)
{
    if (strcmp(name, "exact") == 0) *out = CC_REGIME_EXACT;
    else if (strcmp(name, "random") == 0) *out = CC_REGIME_RANDOM;
    else return -1;
    return 0;
}

static cc_status run_exists(cc_db *s, int64_t run_id, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(s, ST_RUN_EXISTS, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) status = CC_OK;
    else if (rc == SQLITE_DONE)
        status = cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld", s->path,
                            (long long)run_id);
    else status = cc_db_error(s, "looking up a run", err);
    sqlite3_reset(st);
    return status;
}

/* 32 hex digits from the kernel's random source (SQLite's generator as a fallback). */
static void make_uid(char uid[33])
{
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) sqlite3_randomness(sizeof b, b);
    for (int i = 0; i < 16; i++) snprintf(uid + 2 * i, 3, "%02x", b[i]);
}

/* ---- opening ------------------------------------------------------------------------ */

/* Reads the database's identity. Fails (CC_ERR_DB) on a file that is not SQLite. */
static cc_status inspect(cc_db *s, int *app_id, int *version, int *n_objects, cc_err *err)
{
    static const char *const sql[3] = { "SELECT count(*) FROM sqlite_schema",
                                        "PRAGMA application_id", "PRAGMA user_version" };
    int vals[3];
    for (int i = 0; i < 3; i++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(s->db, sql[i], -1, &st, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        if (rc != SQLITE_ROW) {
            int code = sqlite3_errcode(s->db) & 0xff;
            cc_status status =
                code == SQLITE_NOTADB || code == SQLITE_CORRUPT
                    ? cc_err_set(err, CC_ERR_DB, "results database '%s': not a readable SQLite database (%s)",
                                 s->path, sqlite3_errmsg(s->db))
                    : cc_db_error(s, "reading the file header", err);
            sqlite3_finalize(st);
            return status;
        }
        vals[i] = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    *n_objects = vals[0];
    *app_id = vals[1];
    *version = vals[2];
    return CC_OK;
}

static cc_status set_pragma(cc_db *s, const char *sql, const char *want, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    cc_status status = CC_OK;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    /* Switching to WAL needs the database to itself: a process opening a new database at
     * the same moment makes it SQLITE_BUSY at once, without the busy handler. Retried
     * within the busy timeout. */
    for (int waited = 0; (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED; waited += 10) {
        if (waited >= BUSY_TIMEOUT_MS) break;
        sqlite3_reset(st);
        sqlite3_sleep(10);
        rc = sqlite3_step(st);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        status = cc_db_error(s, sql, err);
    } else if (want) {
        const unsigned char *got = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
        if (!got || strcmp((const char *)got, want) != 0)
            status = cc_err_set(err, CC_ERR_DB, "results database '%s': %s gave '%s', not '%s'",
                                s->path, sql, got ? (const char *)got : "", want);
    }
    sqlite3_finalize(st);
    return status;
}

/* Why a database file cannot be created or get its WAL files beside it: its folder is
 * missing or not writable. NULL when the folder looks fine. */
static const char *folder_problem(const char *path)
{
    char folder[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(folder, sizeof folder, ".");
    else if (slash == path) snprintf(folder, sizeof folder, "/");
    else snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
    struct stat sb;
    if (stat(folder, &sb) != 0 || !S_ISDIR(sb.st_mode)) return "its folder does not exist";
    if (access(folder, W_OK | X_OK) != 0) return "its folder is not writable";
    return NULL;
}

/* Opens the connection, checks what the file is, and (writable) sets WAL mode and migrates. */
static cc_status open_checked(cc_db *s, int readonly, cc_err *err)
{
    int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(s->path, &s->db, flags, NULL);
    if (rc != SQLITE_OK) {
        const char *why = folder_problem(s->path);
        if (why)
            return cc_err_set(err, CC_ERR_DB, "results database '%s': cannot create it: %s",
                              s->path, why);
        return cc_err_set(err, CC_ERR_DB, "results database '%s': cannot open: %s", s->path,
                          s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);

    int app_id = 0, version = 0, n_objects = 0;
    cc_status status = inspect(s, &app_id, &version, &n_objects, err);
    if (status != CC_OK) return status;

    int fresh = app_id == 0 && version == 0 && n_objects == 0;
    if (app_id != CC_STORE_APPLICATION_ID && !fresh)
        return cc_err_set(err, CC_ERR_DB,
                          "results database '%s': a SQLite database of something else, not "
                          "crosscheck results (application_id %d, %d schema objects); left untouched",
                          s->path, app_id, n_objects);
    if (version > CC_STORE_SCHEMA_VERSION)
        return cc_err_set(err, CC_ERR_DB,
                          "results database '%s': schema version %d is newer than this crosscheck "
                          "understands (%d); use a newer crosscheck",
                          s->path, version, CC_STORE_SCHEMA_VERSION);
    if (readonly) {
        if (version < CC_STORE_SCHEMA_VERSION)
            return cc_err_set(err, CC_ERR_DB,
                              "results database '%s': schema version %d is older than %d; open it "
                              "once for writing to upgrade it",
                              s->path, version, CC_STORE_SCHEMA_VERSION);
        s->version = version;
        return set_pragma(s, "PRAGMA foreign_keys = ON", NULL, err);
    }

    if (sqlite3_db_readonly(s->db, "main") == 1)
        return cc_err_set(err, CC_ERR_DB,
                          "results database '%s': the file is read-only (open it read-only, or "
                          "make it writable)", s->path);
    status = set_pragma(s, "PRAGMA journal_mode = WAL", "wal", err);
    if (status != CC_OK && folder_problem(s->path))
        return cc_err_set(err, CC_ERR_DB,
                          "results database '%s': %s (WAL mode needs the -wal and -shm files "
                          "beside the database)", s->path, folder_problem(s->path));
    if (status == CC_OK) status = set_pragma(s, "PRAGMA synchronous = NORMAL", NULL, err);
    if (status == CC_OK) status = set_pragma(s, "PRAGMA foreign_keys = ON", NULL, err);
    if (status == CC_OK)
        status = cc_schema_migrate(s->db, s->path, cc_schema_steps, cc_schema_step_count, err);
    if (status == CC_OK) status = cc_schema_version(s->db, s->path, &s->version, err);
    return status;
}

cc_status cc_store_open(const char *path, int readonly, cc_db **out, cc_err *err)
{
    if (!path || !path[0] || !out)
        return cc_err_set(err, CC_ERR_ARG, "results database: no path given");

    struct stat sb;
    int created = 0;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return cc_err_set(err, CC_ERR_DB, "results database '%s': is a directory", path);
        if (!S_ISREG(sb.st_mode))
            return cc_err_set(err, CC_ERR_DB, "results database '%s': not a regular file", path);
    } else if (errno == ENOENT) {
        if (readonly)
            return cc_err_set(err, CC_ERR_DB, "results database '%s': no such file", path);
        /* made here with O_EXCL, so that "created" means this call made it: a process
         * creating the same database at the same moment finds it made and leaves it be */
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            created = 1;
            close(fd);
        }
    } else {
        return cc_err_set(err, CC_ERR_DB, "results database '%s': %s", path, strerror(errno));
    }

    cc_db *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "results database: out of memory");
    s->readonly = readonly != 0;
    s->path = strdup(path);
    if (!s->path) {
        free(s);
        return cc_err_set(err, CC_ERR_NOMEM, "results database: out of memory");
    }

    cc_status status = open_checked(s, readonly, err);
    if (status != CC_OK) goto fail;
    *out = s;
    return CC_OK;

fail:
    cc_store_close(s);
    if (created) {
        /* Remove what this call created and nothing else: only an empty new database. */
        struct stat now;
        if (stat(path, &now) == 0 && S_ISREG(now.st_mode) && now.st_size == 0) unlink(path);
    }
    return status;
}

void cc_store_close(cc_db *store)
{
    if (!store) return;
    for (int i = 0; i < ST_COUNT; i++) sqlite3_finalize(store->stmt[i]);
    sqlite3_close(store->db);
    free(store->path);
    free(store);
}

int cc_store_schema_version(const cc_db *store)
{
    return store ? store->version : 0;
}

/* ---- runs ----------------------------------------------------------------------------- */

cc_status cc_store_run_begin(cc_db *store, const cc_run_info *info, int64_t *run_id,
                             cc_err *err)
{
    if (!store || !info || !run_id)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_run_begin: NULL argument");
    char uid[33];
    make_uid(uid);

    sqlite3_stmt *st = NULL;
    cc_status status = exec_stmt(store, ST_BEGIN, "starting a run", err);
    if (status != CC_OK) return status;

    status = cc_db_stmt(store, ST_RUN_INSERT, &st, err);
    if (status != CC_OK) goto fail;
    cc_db_bind_text(st, 1, uid);
    cc_db_bind_text(st, 2, info->tag);
    cc_db_bind_text(st, 3, info->config);
    sqlite3_bind_int64(st, 4, (int64_t)info->seed);
    sqlite3_bind_int(st, 5, info->quick);
    cc_db_bind_text(st, 6, info->command);
    cc_db_bind_text(st, 7, info->version);
    cc_db_bind_text(st, 8, info->git_commit);
    cc_db_bind_text(st, 9, info->libraries);
    if (info->shard_count > 0) {
        sqlite3_bind_int(st, 10, info->shard_index);
        sqlite3_bind_int(st, 11, info->shard_count);
    }
    cc_db_bind_text(st, 12, info->shard_count > 0 ? info->shard_source : "");
    cc_db_bind_text(st, 13, info->scheduler_jobs);
    status = cc_db_step_done(store, st, "inserting a run", err);
    if (status != CC_OK) goto fail;
    int64_t id = sqlite3_last_insert_rowid(store->db);

    status = cc_db_stmt(store, ST_ENV_INSERT, &st, err);
    if (status != CC_OK) goto fail;
    sqlite3_bind_int64(st, 1, id);
    cc_db_bind_text(st, 2, info->cpu_model);
    cc_db_bind_text(st, 3, info->cpu_flags);
    sqlite3_bind_int(st, 4, info->cores);
    sqlite3_bind_int64(st, 5, info->memory_bytes);
    cc_db_bind_text(st, 6, info->os);
    cc_db_bind_text(st, 7, info->hostname);
    cc_db_bind_text(st, 8, info->compiler);
    bind_env_state(st, 9, &info->at_start);
    status = cc_db_step_done(store, st, "inserting a run's environment", err);
    if (status != CC_OK) goto fail;

    status = exec_stmt(store, ST_COMMIT, "committing a new run", err);
    if (status != CC_OK) goto fail;
    *run_id = id;
    return CC_OK;

fail:
    rollback(store);
    return status;
}

static cc_status update_run(cc_db *store, int which, int64_t run_id, const char *status_text,
                            cc_err *err)
{
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, which, &st, err);
    if (status != CC_OK) return status;
    if (status_text) {
        cc_db_bind_text(st, 1, status_text);
        sqlite3_bind_int64(st, 2, run_id);
    } else {
        sqlite3_bind_int64(st, 1, run_id);
    }
    status = cc_db_step_done(store, st, "updating a run's status", err);
    if (status != CC_OK) return status;
    if (sqlite3_changes(store->db) != 1)
        return cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld",
                          store->path, (long long)run_id);
    return CC_OK;
}

cc_status cc_store_run_resume(cc_db *store, int64_t run_id, cc_err *err)
{
    if (!store) return cc_err_set(err, CC_ERR_ARG, "cc_store_run_resume: NULL store");
    return update_run(store, ST_RUN_RESUME, run_id, NULL, err);
}

cc_status cc_store_run_add_job(cc_db *store, int64_t run_id, const char *job, cc_err *err)
{
    if (!store) return cc_err_set(err, CC_ERR_ARG, "cc_store_run_add_job: NULL store");
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, job && job[0] ? ST_RUN_ADD_JOB : ST_RUN_EXISTS, &st, err);
    if (status != CC_OK) return status;
    if (job && job[0]) {
        cc_db_bind_text(st, 1, job);
        sqlite3_bind_int64(st, 2, run_id);
        status = cc_db_step_done(store, st, "adding a scheduler task to a run", err);
        if (status == CC_OK && sqlite3_changes(store->db) != 1)
            status = cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld", store->path,
                                (long long)run_id);
        return status;
    }
    sqlite3_bind_int64(st, 1, run_id);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_ROW) return CC_OK;
    if (rc == SQLITE_DONE)
        return cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld", store->path,
                          (long long)run_id);
    return cc_db_error(store, "looking up a run", err);
}

cc_status cc_store_run_end(cc_db *store, int64_t run_id, const char *status, cc_err *err)
{
    if (!store || !status) return cc_err_set(err, CC_ERR_ARG, "cc_store_run_end: NULL argument");
    if (strcmp(status, "finished") != 0 && strcmp(status, "interrupted") != 0)
        return cc_err_set(err, CC_ERR_ARG,
                          "cc_store_run_end: status must be 'finished' or 'interrupted', got '%s'",
                          status);
    return update_run(store, ST_RUN_STATUS, run_id, status, err);
}

cc_status cc_store_run_conditions(cc_db *store, int64_t run_id, const cc_env_state *at_end,
                                  double others_cpu, cc_err *err)
{
    if (!store || !at_end) return cc_err_set(err, CC_ERR_ARG, "cc_store_run_conditions: NULL argument");
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_ENV_START, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    int rc = sqlite3_step(st);
    double load_start = rc == SQLITE_ROW ? cc_db_column_real(st, 0) : NAN;
    int cores = rc == SQLITE_ROW ? sqlite3_column_int(st, 1) : 0;
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld", store->path,
                          (long long)run_id);
    if (rc != SQLITE_ROW) return cc_db_error(store, "reading a run's environment", err);

    int busy = cc_env_is_busy(others_cpu, load_start, cores);
    status = cc_db_stmt(store, ST_ENV_END, &st, err);
    if (status != CC_OK) return status;
    bind_env_state(st, 1, at_end);
    cc_db_bind_real(st, 5, others_cpu);
    if (busy < 0) sqlite3_bind_null(st, 6);
    else sqlite3_bind_int(st, 6, busy);
    sqlite3_bind_int64(st, 7, run_id);
    return cc_db_step_done(store, st, "storing a run's conditions", err);
}

/* ---- targets and results -------------------------------------------------------------- */

cc_status cc_store_put_target(cc_db *store, int64_t run_id, const char *name,
                              const cc_device_desc *desc, int available, const char *reason,
                              cc_err *err)
{
    if (!store || !name || !name[0])
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_target: missing store or target name");
    cc_status status = run_exists(store, run_id, err);
    if (status != CC_OK) return status;
    static const cc_device_desc none;
    if (!desc) desc = &none;

    sqlite3_stmt *st = NULL;
    status = cc_db_stmt(store, ST_TARGET_PUT, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, name);
    sqlite3_bind_int(st, 3, available != 0);
    cc_db_bind_text(st, 4, reason);
    cc_db_bind_text(st, 5, desc->name);
    cc_db_bind_text(st, 6, desc->driver);
    cc_db_bind_text(st, 7, desc->library);
    cc_db_bind_real(st, 8, desc->peak_gflops);
    cc_db_bind_real(st, 9, desc->peak_gbps);
    cc_db_bind_text(st, 10, desc->peak_source);
    return cc_db_step_done(store, st, "storing a target", err);
}

static cc_status check_result(const cc_result *r, const double *samples, int n_samples,
                              cc_err *err)
{
    if (!field_ok(r->case_id, sizeof r->case_id) || !field_ok(r->op, sizeof r->op) ||
        !field_ok(r->dtype, sizeof r->dtype) || !field_ok(r->target, sizeof r->target))
        return cc_err_set(err, CC_ERR_ARG,
                          "cc_store_put_result: case id, op, dtype and target must be non-empty");
    if (!memchr(r->reason, '\0', sizeof r->reason) || !memchr(r->plan, '\0', sizeof r->plan))
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_result: reason or plan not terminated");
    if ((int)r->verdict < 0 || r->verdict >= CC_VERDICT_COUNT)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_result: invalid verdict %d",
                          (int)r->verdict);
    if (r->regime != CC_REGIME_EXACT && r->regime != CC_REGIME_RANDOM)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_result: invalid regime %d",
                          (int)r->regime);
    if (n_samples < 0 || (n_samples > 0 && !samples))
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_result: %d samples but no array",
                          n_samples);
    return CC_OK;
}

/* The cases row of r (inserted when new); checks op and dtype agree with an existing row. */
static cc_status case_ref(cc_db *store, const cc_result *r, int64_t *ref, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_CASE_INSERT, &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, r->case_id);
    cc_db_bind_text(st, 2, r->op);
    cc_db_bind_text(st, 3, r->dtype);
    status = cc_db_step_done(store, st, "storing a case", err);
    if (status != CC_OK) return status;

    status = cc_db_stmt(store, ST_CASE_FIND, &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, r->case_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        status = cc_db_error(store, "looking up a case", err);
    } else {
        const char *op = (const char *)sqlite3_column_text(st, 1);
        const char *dt = (const char *)sqlite3_column_text(st, 2);
        if (!op || !dt || strcmp(op, r->op) != 0 || strcmp(dt, r->dtype) != 0)
            status = cc_err_set(err, CC_ERR_ARG,
                                "results database '%s': case '%.200s' is stored as op %s dtype %s, "
                                "the result says %s %s",
                                store->path, r->case_id, op ? op : "?", dt ? dt : "?", r->op,
                                r->dtype);
        else *ref = sqlite3_column_int64(st, 0);
    }
    sqlite3_reset(st);
    return status;
}

static void bind_result_fields(sqlite3_stmt *st, int first, const cc_result *r)
{
    const char *base = (const char *)r;
    for (int i = 0; i < N_RESULT_FIELDS; i++) {
        const void *p = base + result_fields[i].off;
        int col = first + i;
        switch (result_fields[i].kind) {
        case F_REAL: cc_db_bind_real(st, col, *(const double *)p); break;
        case F_I64: sqlite3_bind_int64(st, col, *(const int64_t *)p); break;
        default: sqlite3_bind_int(st, col, *(const int *)p); break;
        }
    }
}

void cc_db_read_result_fields(sqlite3_stmt *st, int first, cc_result *r)
{
    char *base = (char *)r;
    for (int i = 0; i < N_RESULT_FIELDS; i++) {
        void *p = base + result_fields[i].off;
        int col = first + i;
        switch (result_fields[i].kind) {
        case F_REAL: *(double *)p = cc_db_column_real(st, col); break;
        case F_I64: *(int64_t *)p = sqlite3_column_int64(st, col); break;
        default: *(int *)p = sqlite3_column_int(st, col); break;
        }
    }
}

cc_status cc_store_put_result(cc_db *store, int64_t run_id, const cc_result *r,
                              const double *samples, int n_samples, cc_err *err)
{
    if (!store || !r) return cc_err_set(err, CC_ERR_ARG, "cc_store_put_result: NULL argument");
    cc_status status = check_result(r, samples, n_samples, err);
    if (status != CC_OK) return status;
    const char *regime = cc_regime_name(r->regime);

    status = exec_stmt(store, ST_BEGIN, "starting a result transaction", err);
    if (status != CC_OK) return status;
    status = run_exists(store, run_id, err);
    if (status != CC_OK) goto fail;
    int64_t ref = 0;
    status = case_ref(store, r, &ref, err);
    if (status != CC_OK) goto fail;

    sqlite3_stmt *st = NULL;
    status = cc_db_stmt(store, ST_RESULT_DELETE, &st, err);
    if (status != CC_OK) goto fail;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, ref);
    cc_db_bind_text(st, 3, r->target);
    cc_db_bind_text(st, 4, regime);
    status = cc_db_step_done(store, st, "replacing a result", err);
    if (status != CC_OK) goto fail;

    status = cc_db_stmt(store, ST_RESULT_INSERT, &st, err);
    if (status != CC_OK) goto fail;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, ref);
    cc_db_bind_text(st, 3, r->target);
    cc_db_bind_text(st, 4, regime);
    sqlite3_bind_int64(st, 5, (int64_t)r->seed);
    cc_db_bind_text(st, 6, cc_verdict_name(r->verdict));
    cc_db_bind_text(st, 7, r->reason);
    cc_db_bind_text(st, 8, r->plan);
    bind_result_fields(st, 9, r);
    status = cc_db_step_done(store, st, "storing a result", err);
    if (status != CC_OK) goto fail;
    int64_t result_id = sqlite3_last_insert_rowid(store->db);

    for (int i = 0; i < n_samples; i++) {
        status = cc_db_stmt(store, ST_SAMPLE_INSERT, &st, err);
        if (status != CC_OK) goto fail;
        sqlite3_bind_int64(st, 1, result_id);
        sqlite3_bind_int(st, 2, i);
        cc_db_bind_real(st, 3, samples[i]);
        status = cc_db_step_done(store, st, "storing a timing sample", err);
        if (status != CC_OK) goto fail;
    }

    status = exec_stmt(store, ST_COMMIT, "committing a result", err);
    if (status != CC_OK) goto fail;
    return CC_OK;

fail:
    rollback(store);
    return status;
}
