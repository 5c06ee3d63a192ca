/* merge.c — copies runs between results databases: each input opened read-only, each run
 * copied with its machine, targets, results and samples in one transaction of the
 * target database, cases matched by case id. The column lists are constant text built
 * from the tables below; they must follow schema.c (test_merge checks the counts). */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store_int.h"
#include "store_query.h"

#define RUN_COLS                                                                        \
    "uid, started_at, finished_at, status, tag, config, seed, quick, command, version, " \
    "git_commit, libraries, shard_index, shard_count, shard_source, scheduler_jobs"
#define RUN_QMARKS "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
#define N_RUN_COLS 16
#define ENV_COLS                                                                          \
    "cpu_model, cpu_flags, cores, memory_bytes, os, hostname, compiler, load_start, "      \
    "governor_start, mhz_start, max_mhz_start, load_end, governor_end, mhz_end, max_mhz_end, " \
    "others_cpu, busy"
#define ENV_QMARKS "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
#define N_ENV_COLS 17
#define TARGET_COLS "name, available, reason, device, driver, library, peak_gflops, peak_gbps, peak_source"
#define TARGET_QMARKS "?, ?, ?, ?, ?, ?, ?, ?, ?"
#define N_TARGET_COLS 9
#define RESULT_COLS                                                                          \
    "target, regime, seed, verdict, reason, n, n_bad, max_abs, max_rel, max_ulp, nmse, "     \
    "cosine, bound_ratio, worst_index, worst_got, worst_want, n_samples, device_timer, "     \
    "t_median, t_mean, t_stddev, t_mad, t_min, t_max, t_p90, t_p99, t_cv, t_ci_lo, t_ci_hi, " \
    "gflops, gbps, flops, bytes, plan, tol_c, tol_r, tol_atol, policy_version, created_at, t_ref"
#define RESULT_QMARKS                                                                   \
    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " \
    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
#define N_RESULT_COLS 40
#define MODEL_COLS                                                                             \
    "model, target, precision, n_images, verdict, reason, conf_cosine, conf_sqnr_db, conf_top1, " \
    "top1, top5, cosine, sqnr_db, det_precision, det_recall, det_map50, n_nodes, n_fallback, "   \
    "fallback_ops, support_rate, lat_samples, lat_p50, lat_p90, lat_p99, tp_batch, throughput, " \
    "gflops, peak_share, layers, divergent, seed, created_at, plan, config, lat_device_timer, rec_sets, "    \
    "rec_verdict, rec_sqnr_db, rec_golden_sqnr_db, rec_max_abs, rec_reason"
#define MODEL_QMARKS                                                                    \
    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " \
    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
#define N_MODEL_COLS 41

/* The statements of one merge: reads on an input (S_*), writes on the target (D_*). */
enum { S_RUNS, S_ENV, S_TARGETS, S_RESULTS, S_SAMPLES, S_MODELS, S_MODEL_SAMPLES, S_COUNT };
enum { D_HAS_UID, D_DROP_RUN, D_RUN, D_ENV, D_TARGET, D_CASE, D_CASE_FIND, D_RESULT, D_SAMPLE, D_MODEL, D_MODEL_SAMPLE, D_COUNT };

static const char *const src_sql[S_COUNT] = {
    [S_RUNS] = "SELECT id, " RUN_COLS " FROM runs ORDER BY started_at, id",
    [S_ENV] = "SELECT " ENV_COLS " FROM environments WHERE run_id = ?",
    [S_TARGETS] = "SELECT " TARGET_COLS " FROM run_targets WHERE run_id = ? ORDER BY id",
    [S_RESULTS] = "SELECT r.id, c.case_id, c.op, c.dtype, " RESULT_COLS
                  " FROM results r JOIN cases c ON c.id = r.case_ref WHERE r.run_id = ? ORDER BY r.id",
    [S_SAMPLES] = "SELECT idx, seconds FROM timing_samples WHERE result_id = ? ORDER BY idx",
    [S_MODELS] = "SELECT id, " MODEL_COLS " FROM model_results WHERE run_id = ? ORDER BY id",
    [S_MODEL_SAMPLES] = "SELECT idx, seconds FROM model_samples WHERE model_result_id = ? ORDER BY idx",
};

static const char *const dst_sql[D_COUNT] = {
    [D_HAS_UID] = "SELECT id, status, coalesce(finished_at, '') FROM runs WHERE uid = ?",
    [D_DROP_RUN] = "DELETE FROM runs WHERE id = ?",
    [D_RUN] = "INSERT INTO runs (" RUN_COLS ") VALUES (" RUN_QMARKS ")",
    [D_ENV] = "INSERT INTO environments (run_id, " ENV_COLS ") VALUES (?, " ENV_QMARKS ")",
    [D_TARGET] = "INSERT INTO run_targets (run_id, " TARGET_COLS ") VALUES (?, " TARGET_QMARKS ")",
    [D_CASE] = "INSERT INTO cases (case_id, op, dtype) VALUES (?, ?, ?) ON CONFLICT (case_id) DO NOTHING",
    [D_CASE_FIND] = "SELECT id, op, dtype FROM cases WHERE case_id = ?",
    [D_RESULT] = "INSERT INTO results (run_id, case_ref, " RESULT_COLS ") VALUES (?, ?, " RESULT_QMARKS ")",
    [D_SAMPLE] = "INSERT INTO timing_samples (result_id, idx, seconds) VALUES (?, ?, ?)",
    [D_MODEL] = "INSERT INTO model_results (run_id, " MODEL_COLS ") VALUES (?, " MODEL_QMARKS ")",
    [D_MODEL_SAMPLE] = "INSERT INTO model_samples (model_result_id, idx, seconds) VALUES (?, ?, ?)",
};

typedef struct merge_ctx {
    cc_db *src, *dst;
    sqlite3_stmt *s[S_COUNT];
    sqlite3_stmt *d[D_COUNT];
    cc_merge_stats stats;
} merge_ctx;

static cc_status prepare_all(cc_db *db, const char *const *sql, int n, sqlite3_stmt **st,
                             cc_err *err)
{
    for (int i = 0; i < n; i++)
        if (sqlite3_prepare_v2(db->db, sql[i], -1, &st[i], NULL) != SQLITE_OK)
            return cc_db_error(db, "preparing a merge statement", err);
    return CC_OK;
}

static void finalize_all(sqlite3_stmt **st, int n)
{
    for (int i = 0; i < n; i++) {
        sqlite3_finalize(st[i]);
        st[i] = NULL;
    }
}

static sqlite3_stmt *fresh(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return st;
}

/* Binds columns first..first+n-1 of row `from` to parameters at..at+n-1 of `to`. */
static void bind_columns(sqlite3_stmt *to, int at, sqlite3_stmt *from, int first, int n)
{
    for (int i = 0; i < n; i++) sqlite3_bind_value(to, at + i, sqlite3_column_value(from, first + i));
}

static cc_status step_done(cc_db *db, sqlite3_stmt *st, const char *what, cc_err *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? CC_OK : cc_db_error(db, what, err);
}

static cc_status exec(cc_db *db, const char *sql, cc_err *err)
{
    return sqlite3_exec(db->db, sql, NULL, NULL, NULL) == SQLITE_OK ? CC_OK
                                                                     : cc_db_error(db, sql, err);
}

/* The target's id for a case (inserted when new). */
static cc_status case_ref(merge_ctx *m, sqlite3_stmt *res, int64_t *ref, cc_err *err)
{
    sqlite3_stmt *st = fresh(m->d[D_CASE]);
    bind_columns(st, 1, res, 1, 3);
    cc_status status = step_done(m->dst, st, "storing a case", err);
    if (status != CC_OK) return status;
    st = fresh(m->d[D_CASE_FIND]);
    sqlite3_bind_value(st, 1, sqlite3_column_value(res, 1));
    if (sqlite3_step(st) != SQLITE_ROW) {
        status = cc_db_error(m->dst, "looking up a case", err);
    } else {
        const char *op = (const char *)sqlite3_column_text(st, 1);
        const char *dt = (const char *)sqlite3_column_text(st, 2);
        const char *want_op = (const char *)sqlite3_column_text(res, 2);
        const char *want_dt = (const char *)sqlite3_column_text(res, 3);
        if (!op || !dt || !want_op || !want_dt || strcmp(op, want_op) || strcmp(dt, want_dt))
            status = cc_err_set(err, CC_ERR_DB,
                                "merge: case '%.200s' is op %s dtype %s in '%s' but %s %s in '%s'",
                                (const char *)sqlite3_column_text(res, 1), want_op ? want_op : "?",
                                want_dt ? want_dt : "?", m->src->path, op ? op : "?", dt ? dt : "?",
                                m->dst->path);
        else *ref = sqlite3_column_int64(st, 0);
    }
    sqlite3_reset(st);
    return status;
}

/* Copies run src_id (the current row of S_RUNS) with everything that hangs off it. */
/* The rows of source run src_id of one table into dst_id: sel selects six columns of run
 * ? in row order, ins inserts (run_id, those six) (sources before schema `since` have
 * none). */
static cc_status copy_rows(merge_ctx *m, int since, const char *sel, const char *ins, int64_t src_id, int64_t dst_id,
                           int64_t *copied, cc_err *err)
{
    if (cc_store_schema_version(m->src) < since) return CC_OK;
    sqlite3_stmt *src = NULL, *dst = NULL;
    cc_status status = CC_OK;
    if (sqlite3_prepare_v2(m->src->db, sel, -1, &src, NULL) != SQLITE_OK)
        status = cc_db_error(m->src, "preparing a merge statement", err);
    else if (sqlite3_prepare_v2(m->dst->db, ins, -1, &dst, NULL) != SQLITE_OK)
        status = cc_db_error(m->dst, "preparing a merge statement", err);
    int rc = SQLITE_DONE;
    if (status == CC_OK) {
        sqlite3_bind_int64(src, 1, src_id);
        while ((rc = sqlite3_step(src)) == SQLITE_ROW) {
            fresh(dst);
            sqlite3_bind_int64(dst, 1, dst_id);
            bind_columns(dst, 2, src, 0, 6);
            if ((status = step_done(m->dst, dst, "copying a row", err)) != CC_OK) break;
            (*copied)++;
        }
        if (status == CC_OK && rc != SQLITE_DONE) status = cc_db_error(m->src, "reading rows to merge", err);
    }
    sqlite3_finalize(src);
    sqlite3_finalize(dst);
    return status;
}

static cc_status copy_run(merge_ctx *m, sqlite3_stmt *run, int64_t src_id, cc_err *err)
{
    sqlite3_stmt *st = fresh(m->d[D_RUN]);
    bind_columns(st, 1, run, 1, N_RUN_COLS);
    cc_status status = step_done(m->dst, st, "copying a run", err);
    if (status != CC_OK) return status;
    int64_t dst_id = sqlite3_last_insert_rowid(m->dst->db);

    sqlite3_stmt *src = fresh(m->s[S_ENV]);
    sqlite3_bind_int64(src, 1, src_id);
    int rc;
    while ((rc = sqlite3_step(src)) == SQLITE_ROW) {
        st = fresh(m->d[D_ENV]);
        sqlite3_bind_int64(st, 1, dst_id);
        bind_columns(st, 2, src, 0, N_ENV_COLS);
        if ((status = step_done(m->dst, st, "copying a run's environment", err)) != CC_OK) return status;
    }
    if (rc != SQLITE_DONE) return cc_db_error(m->src, "reading an environment", err);

    src = fresh(m->s[S_TARGETS]);
    sqlite3_bind_int64(src, 1, src_id);
    while ((rc = sqlite3_step(src)) == SQLITE_ROW) {
        st = fresh(m->d[D_TARGET]);
        sqlite3_bind_int64(st, 1, dst_id);
        bind_columns(st, 2, src, 0, N_TARGET_COLS);
        if ((status = step_done(m->dst, st, "copying a target", err)) != CC_OK) return status;
    }
    if (rc != SQLITE_DONE) return cc_db_error(m->src, "reading targets", err);

    sqlite3_stmt *res = fresh(m->s[S_RESULTS]);
    sqlite3_bind_int64(res, 1, src_id);
    while ((rc = sqlite3_step(res)) == SQLITE_ROW) {
        int64_t ref = 0;
        if ((status = case_ref(m, res, &ref, err)) != CC_OK) return status;
        st = fresh(m->d[D_RESULT]);
        sqlite3_bind_int64(st, 1, dst_id);
        sqlite3_bind_int64(st, 2, ref);
        bind_columns(st, 3, res, 4, N_RESULT_COLS);
        if ((status = step_done(m->dst, st, "copying a result", err)) != CC_OK) return status;
        int64_t result_id = sqlite3_last_insert_rowid(m->dst->db);
        m->stats.results++;

        sqlite3_stmt *smp = fresh(m->s[S_SAMPLES]);
        sqlite3_bind_int64(smp, 1, sqlite3_column_int64(res, 0));
        int rs;
        while ((rs = sqlite3_step(smp)) == SQLITE_ROW) {
            st = fresh(m->d[D_SAMPLE]);
            sqlite3_bind_int64(st, 1, result_id);
            bind_columns(st, 2, smp, 0, 2);
            if ((status = step_done(m->dst, st, "copying a timing sample", err)) != CC_OK) return status;
            m->stats.samples++;
        }
        if (rs != SQLITE_DONE) return cc_db_error(m->src, "reading timing samples", err);
    }
    if (rc != SQLITE_DONE) return cc_db_error(m->src, "reading results", err);

    src = fresh(m->s[S_MODELS]);
    sqlite3_bind_int64(src, 1, src_id);
    while ((rc = sqlite3_step(src)) == SQLITE_ROW) {
        st = fresh(m->d[D_MODEL]);
        sqlite3_bind_int64(st, 1, dst_id);
        bind_columns(st, 2, src, 1, N_MODEL_COLS);
        if ((status = step_done(m->dst, st, "copying a model result", err)) != CC_OK) return status;
        int64_t model_id = sqlite3_last_insert_rowid(m->dst->db);
        m->stats.model_results++;

        sqlite3_stmt *smp = fresh(m->s[S_MODEL_SAMPLES]);
        sqlite3_bind_int64(smp, 1, sqlite3_column_int64(src, 0));
        int rs;
        while ((rs = sqlite3_step(smp)) == SQLITE_ROW) {
            st = fresh(m->d[D_MODEL_SAMPLE]);
            sqlite3_bind_int64(st, 1, model_id);
            bind_columns(st, 2, smp, 0, 2);
            if ((status = step_done(m->dst, st, "copying a model latency sample", err)) != CC_OK) return status;
            m->stats.samples++;
        }
        if (rs != SQLITE_DONE) return cc_db_error(m->src, "reading model latency samples", err);
    }
    if (rc != SQLITE_DONE) return cc_db_error(m->src, "reading model results", err);
    status = copy_rows(m, 8,
                       "SELECT test, op, target, verdict, ratio, reason FROM conformance_results"
                       " WHERE run_id = ? ORDER BY id",
                       "INSERT INTO conformance_results (run_id, test, op, target, verdict, ratio, reason)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)",
                       src_id, dst_id, &m->stats.conformance_results, err);
    if (status == CC_OK)
        status = copy_rows(m, 10,
                           "SELECT model, target, op, nodes, supported, reason FROM scan_results"
                           " WHERE run_id = ? ORDER BY id",
                           "INSERT INTO scan_results (run_id, model, target, op, nodes, supported, reason)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           src_id, dst_id, &m->stats.scan_results, err);
    return status;
}

static cc_status merge_one(merge_ctx *m, cc_err *err)
{
    cc_status status = prepare_all(m->src, src_sql, S_COUNT, m->s, err);
    if (status != CC_OK) return status;
    sqlite3_stmt *runs = m->s[S_RUNS];
    int rc;
    while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
        const char *run_status = (const char *)sqlite3_column_text(runs, 4);
        if (run_status && strcmp(run_status, "running") == 0) {
            m->stats.runs_running++;
            continue;
        }
        /* a run already there is copied again only when the input holds a later state of
         * it: an interrupted or killed shard since resumed (finished, or ended later) */
        sqlite3_stmt *has = fresh(m->d[D_HAS_UID]);
        sqlite3_bind_value(has, 1, sqlite3_column_value(runs, 1));
        int hr = sqlite3_step(has);
        int64_t stale = 0;
        if (hr == SQLITE_ROW) {
            const char *dst_status = (const char *)sqlite3_column_text(has, 1);
            const char *dst_end = (const char *)sqlite3_column_text(has, 2);
            const char *src_end = (const char *)sqlite3_column_text(runs, 3);
            int later = run_status && strcmp(run_status, "finished") == 0;
            if (!later && src_end && dst_end) later = strcmp(src_end, dst_end) > 0;
            if (dst_status && strcmp(dst_status, "finished") != 0 && later) stale = sqlite3_column_int64(has, 0);
        }
        sqlite3_reset(has);
        if (hr == SQLITE_ROW && !stale) {
            m->stats.runs_present++;
            continue;
        }
        if (hr != SQLITE_ROW && hr != SQLITE_DONE) return cc_db_error(m->dst, "looking up a run uid", err);
        if ((status = exec(m->dst, "BEGIN IMMEDIATE", err)) != CC_OK) return status;
        if (stale) {
            sqlite3_stmt *drop = fresh(m->d[D_DROP_RUN]);
            sqlite3_bind_int64(drop, 1, stale);
            status = step_done(m->dst, drop, "replacing an unfinished run", err);
        }
        if (status == CC_OK) status = copy_run(m, runs, sqlite3_column_int64(runs, 0), err);
        if (status == CC_OK) status = exec(m->dst, "COMMIT", err);
        if (status != CC_OK) {
            sqlite3_exec(m->dst->db, "ROLLBACK", NULL, NULL, NULL);
            return status;
        }
        if (stale) m->stats.runs_updated++;
        else m->stats.runs_copied++;
    }
    if (rc != SQLITE_DONE) return cc_db_error(m->src, "reading runs", err);
    return CC_OK;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

cc_status cc_merge_databases(const char *const *inputs, int n_inputs, const char *into,
                             cc_merge_stats *stats, cc_err *err)
{
    if (!inputs || n_inputs < 1 || !into || !into[0])
        return cc_err_set(err, CC_ERR_ARG, "merge: give at least one input database and the database to merge into");
    struct stat target_sb;
    int target_exists = stat(into, &target_sb) == 0;
    for (int i = 0; i < n_inputs; i++) {
        struct stat sb;
        if (!inputs[i] || stat(inputs[i], &sb) != 0)
            return cc_err_set(err, CC_ERR_ARG, "merge: no database at '%s'", inputs[i] ? inputs[i] : "");
        if ((target_exists && same_file(&sb, &target_sb)) || strcmp(inputs[i], into) == 0)
            return cc_err_set(err, CC_ERR_ARG,
                              "merge: '%s' is both an input and the database to merge into; "
                              "merging a database into itself is refused", inputs[i]);
    }

    merge_ctx m;
    memset(&m, 0, sizeof m);
    cc_status status = cc_store_open(into, 0, &m.dst, err);
    if (status != CC_OK) return status;
    status = prepare_all(m.dst, dst_sql, D_COUNT, m.d, err);
    for (int i = 0; i < n_inputs && status == CC_OK; i++) {
        char snapshot[4096];
        status = cc_store_open_readonly(inputs[i], &m.src, snapshot, sizeof snapshot, err);
        if (status != CC_OK) break;
        status = merge_one(&m, err);
        finalize_all(m.s, S_COUNT);
        cc_store_close(m.src);
        cc_store_remove_snapshot(snapshot);
        m.src = NULL;
    }
    finalize_all(m.d, D_COUNT);
    cc_store_close(m.dst);
    if (status == CC_OK && stats) *stats = m.stats;
    return status;
}
