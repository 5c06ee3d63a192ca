/* model_store.c — model results in the store: one row per (run, model, target,
 * precision) with its raw latency samples, written in one transaction and read back in
 * report order. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model_result.h"
#include "store_int.h"

/* Numeric columns, in table order after `reason`. */
typedef struct mfield {
    const char *col;
    size_t off;
    int is_int;
} mfield;

#define R(f) { #f, offsetof(cc_model_result, f), 0 }
#define I(f) { #f, offsetof(cc_model_result, f), 1 }
static const mfield fields[] = {
    R(conf_cosine), R(conf_sqnr_db), R(conf_top1), R(top1), R(top5), R(cosine), R(sqnr_db),
    R(det_precision), R(det_recall), R(det_map50), I(n_nodes), I(n_fallback), R(support_rate),
    I(lat_samples), R(lat_p50), R(lat_p90), R(lat_p99), I(tp_batch), R(throughput), R(gflops),
    R(peak_share), I(lat_device_timer), I(rec_sets), R(rec_sqnr_db), R(rec_golden_sqnr_db), R(rec_max_abs),
};
#undef R
#undef I
#define N_FIELDS ((int)(sizeof fields / sizeof fields[0]))

static const char delete_sql[] =
    "DELETE FROM model_results WHERE run_id = ? AND model = ? AND target = ? AND precision = ?";

static const char sample_sql[] = "INSERT INTO model_samples (model_result_id, idx, seconds) VALUES (?, ?, ?)";

static const char load_samples_sql[] =
    "SELECT s.seconds FROM model_samples s JOIN model_results m ON m.id = s.model_result_id"
    " WHERE m.run_id = ? AND m.model = ? AND m.target = ? AND m.precision = ? ORDER BY s.idx";

static const char insert_sql[] =
    "INSERT INTO model_results (run_id, model, target, precision, n_images, verdict, reason,"
    " conf_cosine, conf_sqnr_db, conf_top1, top1, top5, cosine, sqnr_db, det_precision, det_recall,"
    " det_map50, n_nodes, n_fallback, support_rate, lat_samples, lat_p50, lat_p90, lat_p99, tp_batch,"
    " throughput, gflops, peak_share, lat_device_timer, rec_sets, rec_sqnr_db, rec_golden_sqnr_db, rec_max_abs,"
    " fallback_ops, layers, divergent, seed, plan, config, rec_verdict, rec_reason)"
    " VALUES (?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?)";

static const char select_sql[] =
    "SELECT model, target, precision, n_images, verdict, reason,"
    " conf_cosine, conf_sqnr_db, conf_top1, top1, top5, cosine, sqnr_db, det_precision, det_recall,"
    " det_map50, n_nodes, n_fallback, support_rate, lat_samples, lat_p50, lat_p90, lat_p99, tp_batch,"
    " throughput, gflops, peak_share, lat_device_timer, rec_sets, rec_sqnr_db, rec_golden_sqnr_db, rec_max_abs,"
    " fallback_ops, layers, divergent, seed, plan, config, rec_verdict, rec_reason"
    " FROM model_results WHERE run_id = ? ORDER BY model, target, precision";

/* Deletes the row of (run, model, target, precision), if any. */
static cc_status delete_row(cc_db *store, int64_t run_id, const cc_model_result *r, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db, delete_sql, -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing a model result", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, r->model);
    cc_db_bind_text(st, 3, r->target);
    cc_db_bind_text(st, 4, r->precision);
    cc_status status = CC_OK;
    if (sqlite3_step(st) != SQLITE_DONE) status = cc_db_error(store, "replacing a model result", err);
    sqlite3_finalize(st);
    return status;
}

static cc_status insert_row(cc_db *store, int64_t run_id, const cc_model_result *r, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db, insert_sql, -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing a model result", err);
    int c = 1;
    sqlite3_bind_int64(st, c++, run_id);
    cc_db_bind_text(st, c++, r->model);
    cc_db_bind_text(st, c++, r->target);
    cc_db_bind_text(st, c++, r->precision);
    sqlite3_bind_int(st, c++, r->n_images);
    cc_db_bind_text(st, c++, cc_verdict_name(r->verdict));
    cc_db_bind_text(st, c++, r->reason);
    for (int i = 0; i < N_FIELDS; i++) {
        const char *p = (const char *)r + fields[i].off;
        if (fields[i].is_int) sqlite3_bind_int(st, c++, *(const int *)p);
        else cc_db_bind_real(st, c++, *(const double *)p);
    }
    cc_db_bind_text(st, c++, r->fallback_ops);
    cc_db_bind_text(st, c++, r->layers);
    cc_db_bind_text(st, c++, r->divergent);
    sqlite3_bind_int64(st, c++, (sqlite3_int64)r->seed);
    cc_db_bind_text(st, c++, r->plan);
    cc_db_bind_text(st, c++, r->config);
    int rec = (r->rec_sets > 0 || r->rec_reason[0]) && r->rec_verdict >= 0 && r->rec_verdict < CC_VERDICT_COUNT;
    cc_db_bind_text(st, c++, rec ? cc_verdict_name((cc_verdict)r->rec_verdict) : "");
    cc_db_bind_text(st, c++, r->rec_reason);
    cc_status status = CC_OK;
    if (sqlite3_step(st) != SQLITE_DONE) status = cc_db_error(store, "storing a model result", err);
    sqlite3_finalize(st);
    return status;
}

static cc_status insert_samples(cc_db *store, int64_t id, const double *samples, int n, cc_err *err)
{
    if (n == 0) return CC_OK;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db, sample_sql, -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing a model latency sample", err);
    cc_status status = CC_OK;
    for (int i = 0; i < n && status == CC_OK; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, i);
        cc_db_bind_real(st, 3, samples[i]);
        if (sqlite3_step(st) != SQLITE_DONE) status = cc_db_error(store, "storing a model latency sample", err);
    }
    sqlite3_finalize(st);
    return status;
}

cc_status cc_store_put_model_result(cc_db *store, int64_t run_id, const cc_model_result *r,
                                    const double *samples, int n_samples, cc_err *err)
{
    if (!store || !r || n_samples < 0 || (n_samples > 0 && !samples))
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_model_result: NULL argument or bad sample count");
    if ((int)r->verdict < 0 || r->verdict >= CC_VERDICT_COUNT)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_model_result: invalid verdict %d", (int)r->verdict);
    if (sqlite3_exec(store->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return cc_db_error(store, "starting a model result transaction", err);
    /* the old row goes first; its samples follow it (ON DELETE CASCADE) */
    cc_status status = delete_row(store, run_id, r, err);
    if (status == CC_OK) status = insert_row(store, run_id, r, err);
    if (status == CC_OK) status = insert_samples(store, sqlite3_last_insert_rowid(store->db), samples, n_samples, err);
    if (status == CC_OK && sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        status = cc_db_error(store, "committing a model result", err);
    if (status != CC_OK) sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

cc_status cc_store_load_model_samples(cc_db *store, int64_t run_id, const char *model, const char *target,
                                      const char *precision, double **out, int *n, cc_err *err)
{
    if (!store || !model || !target || !precision || !out || !n)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_load_model_samples: NULL argument");
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db, load_samples_sql, -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "reading model latency samples", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, model);
    cc_db_bind_text(st, 3, target);
    cc_db_bind_text(st, 4, precision);
    double *x = NULL;
    int count = 0, cap = 0, rc;
    cc_status status = CC_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            double *grown = realloc(x, sizeof *x * (size_t)cap);
            if (!grown) {
                status = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                break;
            }
            x = grown;
        }
        x[count++] = cc_db_column_real(st, 0);
    }
    if (!status && rc != SQLITE_DONE) status = cc_db_error(store, "reading model latency samples", err);
    sqlite3_finalize(st);
    if (status) {
        free(x);
        return status;
    }
    *out = x;
    *n = count;
    return CC_OK;
}

cc_status cc_store_load_model_results(cc_db *store, int64_t run_id, cc_model_result **out, int *n, cc_err *err)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db, select_sql, -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "reading model results", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_model_result *rows = NULL;
    int count = 0, cap = 0, rc;
    cc_status status = CC_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            cc_model_result *grown = realloc(rows, sizeof *rows * (size_t)cap);
            if (!grown) {
                status = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                break;
            }
            rows = grown;
        }
        cc_model_result *r = &rows[count];
        memset(r, 0, sizeof *r);
        int c = 0;
        cc_db_column_text(st, c++, r->model, sizeof r->model);
        cc_db_column_text(st, c++, r->target, sizeof r->target);
        cc_db_column_text(st, c++, r->precision, sizeof r->precision);
        r->n_images = sqlite3_column_int(st, c++);
        char verdict[32];
        cc_db_column_text(st, c++, verdict, sizeof verdict);
        if (cc_verdict_parse(verdict, &r->verdict)) {
            status = cc_err_set(err, CC_ERR_DB, "model result with unknown verdict '%s'", verdict);
            break;
        }
        cc_db_column_text(st, c++, r->reason, sizeof r->reason);
        for (int i = 0; i < N_FIELDS; i++) {
            char *p = (char *)r + fields[i].off;
            if (fields[i].is_int) *(int *)p = sqlite3_column_int(st, c++);
            else *(double *)p = cc_db_column_real(st, c++);
        }
        cc_db_column_text(st, c++, r->fallback_ops, sizeof r->fallback_ops);
        cc_db_column_text(st, c++, r->layers, sizeof r->layers);
        cc_db_column_text(st, c++, r->divergent, sizeof r->divergent);
        r->seed = (uint64_t)sqlite3_column_int64(st, c++);
        cc_db_column_text(st, c++, r->plan, sizeof r->plan);
        cc_db_column_text(st, c++, r->config, sizeof r->config);
        char rv[32];
        cc_db_column_text(st, c++, rv, sizeof rv);
        cc_verdict rec;
        r->rec_verdict = rv[0] && !cc_verdict_parse(rv, &rec) ? (int)rec : -1;
        cc_db_column_text(st, c++, r->rec_reason, sizeof r->rec_reason);
        count++;
    }
    if (!status && rc != SQLITE_DONE) status = cc_db_error(store, "reading model results", err);
    sqlite3_finalize(st);
    if (status) {
        free(rows);
        return status;
    }
    *out = rows;
    *n = count;
    return CC_OK;
}
