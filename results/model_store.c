/* model_store.c — model results in the store: one row per (run, model, target,
 * precision), written in one statement (autocommit) and read back in report order. */
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
    R(peak_share),
};
#undef R
#undef I
#define N_FIELDS ((int)(sizeof fields / sizeof fields[0]))

static const char insert_sql[] =
    "INSERT OR REPLACE INTO model_results (run_id, model, target, precision, n_images, verdict, reason,"
    " conf_cosine, conf_sqnr_db, conf_top1, top1, top5, cosine, sqnr_db, det_precision, det_recall,"
    " det_map50, n_nodes, n_fallback, support_rate, lat_samples, lat_p50, lat_p90, lat_p99, tp_batch,"
    " throughput, gflops, peak_share, fallback_ops, layers, divergent, seed)"
    " VALUES (?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, ?,?,?,?)";

static const char select_sql[] =
    "SELECT model, target, precision, n_images, verdict, reason,"
    " conf_cosine, conf_sqnr_db, conf_top1, top1, top5, cosine, sqnr_db, det_precision, det_recall,"
    " det_map50, n_nodes, n_fallback, support_rate, lat_samples, lat_p50, lat_p90, lat_p99, tp_batch,"
    " throughput, gflops, peak_share, fallback_ops, layers, divergent, seed"
    " FROM model_results WHERE run_id = ? ORDER BY model, target, precision";

cc_status cc_store_put_model_result(cc_db *store, int64_t run_id, const cc_model_result *r, cc_err *err)
{
    if (!store || !r) return cc_err_set(err, CC_ERR_ARG, "cc_store_put_model_result: NULL argument");
    if ((int)r->verdict < 0 || r->verdict >= CC_VERDICT_COUNT)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_put_model_result: invalid verdict %d", (int)r->verdict);
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
    cc_status status = CC_OK;
    if (sqlite3_step(st) != SQLITE_DONE) status = cc_db_error(store, "storing a model result", err);
    sqlite3_finalize(st);
    return status;
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
