/* conformance_store.c — conformance results (ONNX node tests on targets) and model scans
 * in the store. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "store_int.h"

cc_status cc_store_put_conformance(cc_db *store, int64_t run_id, const cc_conformance_result *r, cc_err *err)
{
    if (!store || !r || run_id <= 0) return cc_err_set(err, CC_ERR_ARG, "cc_store_put_conformance: bad argument");
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db,
                           "INSERT OR REPLACE INTO conformance_results (run_id, test, op, target, verdict, ratio, reason)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing a conformance result", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, r->test);
    cc_db_bind_text(st, 3, r->op);
    cc_db_bind_text(st, 4, r->target);
    cc_db_bind_text(st, 5, cc_verdict_name(r->verdict));
    if (isfinite(r->ratio)) sqlite3_bind_double(st, 6, r->ratio);
    else sqlite3_bind_null(st, 6);
    cc_db_bind_text(st, 7, r->reason);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cc_db_error(store, "storing a conformance result", err);
    return CC_OK;
}

cc_status cc_store_load_conformance(cc_db *store, int64_t run_id, cc_conformance_result **out, int *n, cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_conformance: NULL argument");
    *out = NULL;
    *n = 0;
    if (cc_store_schema_version(store) < 8) return CC_OK;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db,
                           "SELECT test, op, target, verdict, ratio, reason FROM conformance_results"
                           " WHERE run_id = ? ORDER BY op, test, target",
                           -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "reading conformance results", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_conformance_result *rows = NULL;
    int count = 0, cap = 0, rc;
    cc_status status = CC_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            int ncap = cap ? 2 * cap : 256;
            cc_conformance_result *g = realloc(rows, sizeof *rows * (size_t)ncap);
            if (!g) {
                status = cc_err_set(err, CC_ERR_NOMEM, "reading conformance results: out of memory");
                break;
            }
            rows = g;
            cap = ncap;
        }
        cc_conformance_result *r = &rows[count];
        memset(r, 0, sizeof *r);
        cc_db_column_text(st, 0, r->test, sizeof r->test);
        cc_db_column_text(st, 1, r->op, sizeof r->op);
        cc_db_column_text(st, 2, r->target, sizeof r->target);
        char v[32];
        cc_db_column_text(st, 3, v, sizeof v);
        if (cc_verdict_parse(v, &r->verdict)) continue; /* a verdict this build does not know */
        r->ratio = cc_db_column_real(st, 4);
        cc_db_column_text(st, 5, r->reason, sizeof r->reason);
        count++;
    }
    if (status == CC_OK && rc != SQLITE_DONE) status = cc_db_error(store, "reading conformance results", err);
    sqlite3_finalize(st);
    if (status != CC_OK) {
        free(rows);
        return status;
    }
    *out = rows;
    *n = count;
    return CC_OK;
}

cc_status cc_store_put_scan(cc_db *store, int64_t run_id, const cc_scan_result *r, cc_err *err)
{
    if (!store || !r || run_id <= 0) return cc_err_set(err, CC_ERR_ARG, "cc_store_put_scan: bad argument");
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db,
                           "INSERT OR REPLACE INTO scan_results (run_id, model, target, op, nodes, supported, reason)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing a scan result", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, r->model);
    cc_db_bind_text(st, 3, r->target);
    cc_db_bind_text(st, 4, r->op);
    sqlite3_bind_int(st, 5, r->nodes);
    sqlite3_bind_int(st, 6, r->supported);
    cc_db_bind_text(st, 7, r->reason);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cc_db_error(store, "storing a scan result", err);
    return CC_OK;
}

cc_status cc_store_load_scans(cc_db *store, int64_t run_id, cc_scan_result **out, int *n, cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_scans: NULL argument");
    *out = NULL;
    *n = 0;
    if (cc_store_schema_version(store) < 10) return CC_OK;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db,
                           "SELECT model, target, op, nodes, supported, reason FROM scan_results"
                           " WHERE run_id = ? ORDER BY model, id",
                           -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "reading scan results", err);
    sqlite3_bind_int64(st, 1, run_id);
    cc_scan_result *rows = NULL;
    int count = 0, cap = 0, rc;
    cc_status status = CC_OK;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            int ncap = cap ? 2 * cap : 64;
            cc_scan_result *g = realloc(rows, sizeof *rows * (size_t)ncap);
            if (!g) {
                status = cc_err_set(err, CC_ERR_NOMEM, "reading scan results: out of memory");
                break;
            }
            rows = g;
            cap = ncap;
        }
        cc_scan_result *r = &rows[count++];
        memset(r, 0, sizeof *r);
        cc_db_column_text(st, 0, r->model, sizeof r->model);
        cc_db_column_text(st, 1, r->target, sizeof r->target);
        cc_db_column_text(st, 2, r->op, sizeof r->op);
        r->nodes = sqlite3_column_int(st, 3);
        r->supported = sqlite3_column_int(st, 4);
        cc_db_column_text(st, 5, r->reason, sizeof r->reason);
    }
    if (status == CC_OK && rc != SQLITE_DONE) status = cc_db_error(store, "reading scan results", err);
    sqlite3_finalize(st);
    if (status != CC_OK) {
        free(rows);
        return status;
    }
    *out = rows;
    *n = count;
    return CC_OK;
}
