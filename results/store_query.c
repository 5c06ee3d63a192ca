/* store_query.c — read-only queries for comparisons, histories and exports: run
 * references, run lists, a run's samples and medians, a case's series over runs. Each
 * statement is prepared from constant text for the call and bound; nothing here writes. */
#include "store_query.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema.h"
#include "store_int.h"

/* Runs in chronological order: the order every "latest" and every series uses. */
#define RUN_ORDER " ORDER BY r.started_at, r.id"

static cc_status prepare(cc_db *s, const char *sql, sqlite3_stmt **st, cc_err *err)
{
    if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) {
        *st = NULL;
        return cc_db_error(s, "preparing a query", err);
    }
    return CC_OK;
}

/* Grows *arr (of elem-byte items) so that it holds at least n + 1 items. */
static int grow(void **arr, int64_t *cap, int64_t n, size_t elem)
{
    if (n < *cap) return 0;
    int64_t nc = *cap ? 2 * *cap : 64;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

/* ---- opening without writing ------------------------------------------------------------ */

/* The application id and schema version of the file, read through a read-only connection;
 * -1 in both when it cannot be read. */
static void peek(const char *path, int *app_id, int *version)
{
    sqlite3 *db = NULL;
    *app_id = *version = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        const char *sql[2] = { "PRAGMA application_id", "PRAGMA user_version" };
        int *dst[2] = { app_id, version };
        for (int i = 0; i < 2; i++) {
            sqlite3_stmt *st = NULL;
            if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
                *dst[i] = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
        }
    }
    sqlite3_close(db);
}

void cc_store_remove_snapshot(const char *snapshot)
{
    if (!snapshot || !snapshot[0]) return;
    char side[4200];
    unlink(snapshot);
    snprintf(side, sizeof side, "%s-wal", snapshot);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", snapshot);
    unlink(side);
}

cc_status cc_store_open_readonly(const char *path, cc_db **out, char *snapshot, size_t n,
                                 cc_err *err)
{
    if (!path || !out || !snapshot || n < 64)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_open_readonly: bad argument");
    snapshot[0] = '\0';
    int app_id, version;
    peek(path, &app_id, &version);
    if (app_id != CC_STORE_APPLICATION_ID || version < 1 || version >= CC_STORE_SCHEMA_VERSION)
        return cc_store_open(path, 1, out, err);

    const char *dir = getenv("TMPDIR");
    snprintf(snapshot, n, "%s/crosscheck-snapshot-XXXXXX.db", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemps(snapshot, 3);
    if (fd < 0) {
        cc_status st = cc_err_set(err, CC_ERR_IO, "results database '%s': schema version %d is older than %d "
                                  "and no temporary copy could be made to upgrade", path, version,
                                  CC_STORE_SCHEMA_VERSION);
        snapshot[0] = '\0';
        return st;
    }
    close(fd);
    sqlite3 *src = NULL, *dst = NULL;
    cc_status st = CC_OK;
    int rc = sqlite3_open_v2(path, &src, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_open_v2(snapshot, &dst, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
        if (!b) rc = sqlite3_errcode(dst);
        else {
            sqlite3_backup_step(b, -1);
            rc = sqlite3_backup_finish(b);
        }
    }
    if (rc != SQLITE_OK)
        st = cc_err_set(err, CC_ERR_DB, "results database '%s': copying it to upgrade its schema: %s", path,
                        sqlite3_errstr(rc));
    sqlite3_close(src);
    sqlite3_close(dst);
    cc_db *db = NULL;
    if (st == CC_OK) st = cc_store_open(snapshot, 0, &db, err);  /* migrates the copy */
    cc_store_close(db);
    db = NULL;
    if (st == CC_OK) st = cc_store_open(snapshot, 1, &db, err);
    if (st != CC_OK) {
        cc_store_remove_snapshot(snapshot);
        snapshot[0] = '\0';
        return st;
    }
    *out = db;
    return CC_OK;
}

/* ---- run references -------------------------------------------------------------- */

/* The id of the first row of a query with one optional text parameter; 0 when none. */
static cc_status first_id(cc_db *s, const char *sql, const char *param, int64_t *id, cc_err *err)
{
    sqlite3_stmt *st;
    cc_status status = prepare(s, sql, &st, err);
    if (status != CC_OK) return status;
    if (param) cc_db_bind_text(st, 1, param);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *id = sqlite3_column_int64(st, 0);
    else if (rc == SQLITE_DONE) *id = 0;
    else status = cc_db_error(s, "resolving a run reference", err);
    sqlite3_finalize(st);
    return status;
}

static int all_digits(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return 0;
    return 1;
}

static int all_hex(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (!isxdigit((unsigned char)*s)) return 0;
    return 1;
}

cc_status cc_store_resolve_run(cc_db *store, const char *ref, int64_t *run_id, cc_err *err)
{
    if (!store || !ref || !run_id)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_resolve_run: NULL argument");
    if (!ref[0]) return cc_err_set(err, CC_ERR_ARG, "an empty run reference");

    int64_t id = 0;
    cc_status status;
    if (strncmp(ref, "latest", 6) == 0 && (ref[6] == '\0' || ref[6] == '~')) {
        long long back = 0;
        if (ref[6] == '~') {
            if (!all_digits(ref + 7) || strlen(ref + 7) > 9)
                return cc_err_set(err, CC_ERR_ARG,
                                  "run reference '%s': after 'latest~' comes a number of runs back",
                                  ref);
            back = atoll(ref + 7);
        }
        char n[32];
        snprintf(n, sizeof n, "%lld", back);
        status = first_id(store,
                          "SELECT r.id FROM runs r ORDER BY r.started_at DESC, r.id DESC"
                          " LIMIT 1 OFFSET CAST(?1 AS INTEGER)",
                          n, &id, err);
        if (status == CC_OK) *run_id = id;
        return status;
    }
    if (all_digits(ref) && strlen(ref) <= 18) {
        status = first_id(store, "SELECT r.id FROM runs r WHERE r.id = CAST(?1 AS INTEGER)", ref,
                          &id, err);
        if (status != CC_OK) return status;
        if (id) {
            *run_id = id;
            return CC_OK;
        }
    }
    status = first_id(store,
                      "SELECT r.id FROM runs r WHERE r.tag = ?1"
                      " ORDER BY r.started_at DESC, r.id DESC LIMIT 1",
                      ref, &id, err);
    if (status != CC_OK) return status;
    if (id) {
        *run_id = id;
        return CC_OK;
    }
    size_t len = strlen(ref);
    if (len >= 4 && len <= 32 && all_hex(ref)) {
        sqlite3_stmt *st;
        status = prepare(store,
                         "SELECT r.id FROM runs r WHERE substr(r.uid, 1, length(?1)) = lower(?1)"
                         " LIMIT 2", &st, err);
        if (status != CC_OK) return status;
        cc_db_bind_text(st, 1, ref);
        int found = 0, rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            if (found++ == 0) id = sqlite3_column_int64(st, 0);
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) return cc_db_error(store, "resolving a run uid", err);
        if (found > 1)
            return cc_err_set(err, CC_ERR_ARG, "run reference '%s' matches several run uids; give more digits",
                              ref);
        if (found == 1) {
            *run_id = id;
            return CC_OK;
        }
    }
    if (len >= 4) {
        status = first_id(store,
                          "SELECT r.id FROM runs r WHERE r.git_commit <> ''"
                          " AND substr(r.git_commit, 1, length(?1)) = ?1"
                          " ORDER BY r.started_at DESC, r.id DESC LIMIT 1",
                          ref, &id, err);
        if (status != CC_OK) return status;
    }
    *run_id = id;
    return CC_OK;
}

/* ---- runs ------------------------------------------------------------------------ */

cc_status cc_store_list_runs(cc_db *store, cc_run_info **out, int *n, cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_list_runs: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store, "SELECT r.id FROM runs r" RUN_ORDER, &st, err);
    if (status != CC_OK) return status;
    int64_t *ids = NULL, count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&ids, &cap, count, sizeof *ids)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_list_runs: out of memory");
            goto done;
        }
        ids[count++] = sqlite3_column_int64(st, 0);
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "listing runs", err);
        goto done;
    }
    cc_run_info *runs = NULL;
    if (count) {
        runs = calloc((size_t)count, sizeof *runs);
        if (!runs) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_list_runs: out of memory");
            goto done;
        }
    }
    for (int64_t i = 0; i < count; i++) {
        status = cc_store_get_run(store, ids[i], &runs[i], err);
        if (status != CC_OK) {
            free(runs);
            goto done;
        }
    }
    *out = runs;
    *n = (int)count;
done:
    sqlite3_finalize(st);
    free(ids);
    return status;
}

/* ---- samples and medians --------------------------------------------------------------- */

static int regime_of(sqlite3_stmt *st, int col, cc_regime *out)
{
    const char *t = (const char *)sqlite3_column_text(st, col);
    return t ? cc_db_regime_parse(t, out) : -1;
}

static int key_cmp(const char *ca, const char *ta, cc_regime ra, const char *cb, const char *tb,
                   cc_regime rb)
{
    int c = strcmp(ca, cb);
    if (c) return c;
    c = strcmp(ta, tb);
    if (c) return c;
    return (int)ra - (int)rb;
}

static int set_cmp(const void *a, const void *b)
{
    const cc_sample_set *x = a, *y = b;
    return key_cmp(x->case_id, x->target, x->regime, y->case_id, y->target, y->regime);
}

static int median_cmp(const void *a, const void *b)
{
    const cc_median_row *x = a, *y = b;
    return key_cmp(x->case_id, x->target, x->regime, y->case_id, y->target, y->regime);
}

void cc_run_samples_free(cc_run_samples *rs)
{
    if (!rs) return;
    free(rs->sets);
    free(rs->samples);
    memset(rs, 0, sizeof *rs);
}

cc_status cc_store_load_run_samples(cc_db *store, int64_t run_id, cc_run_samples *out,
                                    cc_err *err)
{
    if (!store || !out) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_run_samples: NULL argument");
    /* sets first (one row per timed result), then the samples in result order */
    sqlite3_stmt *st = NULL;
    cc_run_samples rs = { 0 };
    int64_t set_cap = 0, n_sets = 0, cap = 0;
    int64_t *ids = NULL, ids_cap = 0;
    int rc;
    cc_status status = prepare(store,
                               "SELECT r.id, c.case_id, r.target, r.regime FROM results r"
                               " JOIN cases c ON c.id = r.case_ref WHERE r.run_id = ?"
                               " AND EXISTS (SELECT 1 FROM timing_samples s WHERE s.result_id = r.id)"
                               " ORDER BY r.id", &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&rs.sets, &set_cap, n_sets, sizeof *rs.sets) ||
            grow((void **)&ids, &ids_cap, n_sets, sizeof *ids))
            goto nomem;
        cc_sample_set *set = &rs.sets[n_sets];
        memset(set, 0, sizeof *set);
        ids[n_sets] = sqlite3_column_int64(st, 0);
        cc_db_column_text(st, 1, set->case_id, sizeof set->case_id);
        cc_db_column_text(st, 2, set->target, sizeof set->target);
        if (regime_of(st, 3, &set->regime)) {
            status = cc_err_set(err, CC_ERR_DB, "results database '%s': a result with an unknown regime",
                                store->path);
            goto fail;
        }
        n_sets++;
    }
    if (rc != SQLITE_DONE) goto dberr;
    sqlite3_finalize(st);
    st = NULL;

    status = prepare(store,
                     "SELECT s.result_id, s.seconds FROM results r JOIN timing_samples s"
                     " ON s.result_id = r.id WHERE r.run_id = ? ORDER BY s.result_id, s.idx",
                     &st, err);
    if (status != CC_OK) goto fail;
    sqlite3_bind_int64(st, 1, run_id);
    int64_t k = -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t rid = sqlite3_column_int64(st, 0);
        if (k < 0 || ids[k] != rid) {
            k++;
            while (k < n_sets && ids[k] != rid) k++;
            if (k >= n_sets) {
                status = cc_err_set(err, CC_ERR_DB, "results database '%s': samples changed while read",
                                    store->path);
                goto fail;
            }
            rs.sets[k].first = rs.n_samples;
        }
        if (grow((void **)&rs.samples, &cap, rs.n_samples, sizeof *rs.samples)) goto nomem;
        rs.samples[rs.n_samples++] = cc_db_column_real(st, 1);
        rs.sets[k].n++;
    }
    if (rc != SQLITE_DONE) goto dberr;
    sqlite3_finalize(st);
    free(ids);
    rs.n_sets = (int)n_sets;
    if (n_sets > 1) qsort(rs.sets, (size_t)n_sets, sizeof *rs.sets, set_cmp);
    *out = rs;
    return CC_OK;

nomem:
    status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_load_run_samples: out of memory");
    goto fail;
dberr:
    status = cc_db_error(store, "reading timing samples", err);
fail:
    sqlite3_finalize(st);
    free(ids);
    cc_run_samples_free(&rs);
    return status;
}

const cc_sample_set *cc_run_samples_find(const cc_run_samples *rs, const char *case_id,
                                         const char *target, cc_regime regime)
{
    int lo = 0, hi = rs->n_sets - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const cc_sample_set *s = &rs->sets[mid];
        int c = key_cmp(s->case_id, s->target, s->regime, case_id, target, regime);
        if (c == 0) return s;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return NULL;
}

cc_status cc_store_load_medians(cc_db *store, int64_t run_id, cc_median_row **out, int *n,
                                cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_medians: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store,
                               "SELECT c.case_id, r.target, r.regime, r.n_samples, r.t_median,"
                               " CASE WHEN r.device_timer THEN NULL ELSE r.t_ref END"
                               " FROM results r JOIN cases c ON c.id = r.case_ref"
                               " WHERE r.run_id = ? AND r.n_samples > 0", &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    cc_median_row *rows = NULL;
    int64_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&rows, &cap, count, sizeof *rows)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_load_medians: out of memory");
            goto fail;
        }
        cc_median_row *m = &rows[count];
        cc_db_column_text(st, 0, m->case_id, sizeof m->case_id);
        cc_db_column_text(st, 1, m->target, sizeof m->target);
        if (regime_of(st, 2, &m->regime)) continue;
        m->n_samples = sqlite3_column_int(st, 3);
        m->median = cc_db_column_real(st, 4);
        m->ref = cc_db_column_real(st, 5);
        count++;
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading medians", err);
        goto fail;
    }
    sqlite3_finalize(st);
    if (count > 1) qsort(rows, (size_t)count, sizeof *rows, median_cmp);
    *out = rows;
    *n = (int)count;
    return CC_OK;
fail:
    sqlite3_finalize(st);
    free(rows);
    return status;
}

cc_status cc_store_load_briefs(cc_db *store, int64_t run_id, cc_result_brief **out, int *n,
                               cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_briefs: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store,
                               "SELECT r.case_ref, c.op, c.dtype, r.target, r.regime, r.verdict,"
                               " r.n_samples, r.gflops FROM results r JOIN cases c ON c.id = r.case_ref"
                               " WHERE r.run_id = ? ORDER BY r.case_ref, r.target, r.regime", &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    cc_result_brief *rows = NULL;
    int64_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&rows, &cap, count, sizeof *rows)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_load_briefs: out of memory");
            goto fail;
        }
        cc_result_brief *b = &rows[count];
        b->case_ref = sqlite3_column_int64(st, 0);
        cc_db_column_text(st, 1, b->op, sizeof b->op);
        cc_db_column_text(st, 2, b->dtype, sizeof b->dtype);
        cc_db_column_text(st, 3, b->target, sizeof b->target);
        const char *verdict = (const char *)sqlite3_column_text(st, 5);
        if (regime_of(st, 4, &b->regime) || !verdict || cc_verdict_parse(verdict, &b->verdict)) {
            status = cc_err_set(err, CC_ERR_DB, "results database '%s': a result of run %lld has an unknown "
                                "regime or verdict", store->path, (long long)run_id);
            goto fail;
        }
        b->n_samples = sqlite3_column_int(st, 6);
        b->gflops = cc_db_column_real(st, 7);
        count++;
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading results", err);
        goto fail;
    }
    sqlite3_finalize(st);
    *out = rows;
    *n = (int)count;
    return CC_OK;
fail:
    sqlite3_finalize(st);
    free(rows);
    return status;
}

/* ---- a case over runs ------------------------------------------------------------------ */

/* Worst first: the same order as the report's verdict ranks. */
static int verdict_rank(cc_verdict v)
{
    static const int rank[CC_VERDICT_COUNT] = {
        [CC_PASSED] = 0, [CC_UNSUPPORTED] = 1, [CC_MISTRUSTED] = 2, [CC_ERROR] = 3,
        [CC_TIMEOUT] = 4, [CC_FAILED] = 5, [CC_CRASHED] = 6,
    };
    return (int)v >= 0 && v < CC_VERDICT_COUNT ? rank[v] : -1;
}

cc_status cc_store_case_series(cc_db *store, const char *case_id, const char *target,
                               cc_series_point **out, int *n, cc_err *err)
{
    if (!store || !case_id || !target || !out || !n)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_case_series: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store,
                               "SELECT r.id, x.verdict, x.n_samples, x.t_median, x.t_ci_lo,"
                               " x.t_ci_hi, x.gflops, x.bound_ratio FROM results x"
                               " JOIN cases c ON c.id = x.case_ref JOIN runs r ON r.id = x.run_id"
                               " WHERE c.case_id = ? AND x.target = ?"
                               RUN_ORDER ", x.regime", &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, case_id);
    cc_db_bind_text(st, 2, target);
    cc_series_point *pts = NULL;
    int64_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t run = sqlite3_column_int64(st, 0);
        const char *vt = (const char *)sqlite3_column_text(st, 1);
        cc_verdict v;
        if (!vt || cc_verdict_parse(vt, &v)) {
            status = cc_err_set(err, CC_ERR_DB, "results database '%s': unknown verdict '%s'",
                                store->path, vt ? vt : "");
            goto fail;
        }
        int ns = sqlite3_column_int(st, 2);
        double br = cc_db_column_real(st, 7);
        cc_series_point *p;
        if (count > 0 && pts[count - 1].run_id == run) {
            p = &pts[count - 1];
            if (verdict_rank(v) > verdict_rank(p->verdict)) p->verdict = v;
            if (!isnan(br) && (isnan(p->bound_ratio) || br > p->bound_ratio)) p->bound_ratio = br;
        } else {
            if (grow((void **)&pts, &cap, count, sizeof *pts)) {
                status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_case_series: out of memory");
                goto fail;
            }
            p = &pts[count++];
            p->run_id = run;
            p->verdict = v;
            p->n_samples = 0;
            p->median = p->ci_lo = p->ci_hi = p->gflops = NAN;
            p->bound_ratio = br;
        }
        if (ns > p->n_samples) {
            p->n_samples = ns;
            p->median = cc_db_column_real(st, 3);
            p->ci_lo = cc_db_column_real(st, 4);
            p->ci_hi = cc_db_column_real(st, 5);
            p->gflops = cc_db_column_real(st, 6);
        }
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading a case's history", err);
        goto fail;
    }
    sqlite3_finalize(st);
    *out = pts;
    *n = (int)count;
    return CC_OK;
fail:
    sqlite3_finalize(st);
    free(pts);
    return status;
}

cc_status cc_store_model_series(cc_db *store, const char *model, const char *target,
                                const char *precision, cc_series_point **out, int *n,
                                cc_err *err)
{
    if (!store || !model || !target || !precision || !out || !n)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_model_series: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store,
                               "SELECT r.id, m.verdict, m.lat_samples, m.lat_p50, m.throughput"
                               " FROM model_results m JOIN runs r ON r.id = m.run_id"
                               " WHERE m.model = ? AND m.target = ? AND m.precision = ?" RUN_ORDER,
                               &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, model);
    cc_db_bind_text(st, 2, target);
    cc_db_bind_text(st, 3, precision);
    cc_series_point *pts = NULL;
    int64_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *vt = (const char *)sqlite3_column_text(st, 1);
        cc_verdict v;
        if (!vt || cc_verdict_parse(vt, &v)) continue;
        if (grow((void **)&pts, &cap, count, sizeof *pts)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_model_series: out of memory");
            goto fail;
        }
        cc_series_point *p = &pts[count++];
        p->run_id = sqlite3_column_int64(st, 0);
        p->verdict = v;
        p->n_samples = sqlite3_column_int(st, 2);
        p->median = p->n_samples > 0 ? cc_db_column_real(st, 3) : NAN;
        p->ci_lo = p->ci_hi = p->bound_ratio = NAN;
        p->gflops = cc_db_column_real(st, 4);
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading a model's history", err);
        goto fail;
    }
    sqlite3_finalize(st);
    *out = pts;
    *n = (int)count;
    return CC_OK;
fail:
    sqlite3_finalize(st);
    free(pts);
    return status;
}

cc_status cc_store_model_keys(cc_db *store, const char *model, char (**out)[CC_NAME_MAX],
                              int *n, cc_err *err)
{
    if (!store || !model || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_model_keys: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store,
                               "SELECT DISTINCT target, precision FROM model_results WHERE model = ?"
                               " ORDER BY target, precision", &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, model);
    char(*names)[CC_NAME_MAX] = NULL;
    int64_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&names, &cap, 2 * count + 1, sizeof *names)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_model_keys: out of memory");
            goto fail;
        }
        cc_db_column_text(st, 0, names[2 * count], CC_NAME_MAX);
        cc_db_column_text(st, 1, names[2 * count + 1], CC_NAME_MAX);
        count++;
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading a model's targets", err);
        goto fail;
    }
    sqlite3_finalize(st);
    *out = names;
    *n = (int)count;
    return CC_OK;
fail:
    sqlite3_finalize(st);
    free(names);
    return status;
}

cc_status cc_store_case_targets(cc_db *store, const char *case_id, char (**out)[CC_NAME_MAX],
                                int *n, cc_err *err)
{
    if (!store || !case_id || !out || !n)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_case_targets: NULL argument");
    sqlite3_stmt *st;
    cc_status status = prepare(store,
                               "SELECT DISTINCT x.target FROM results x JOIN cases c"
                               " ON c.id = x.case_ref WHERE c.case_id = ? ORDER BY x.target",
                               &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, case_id);
    char(*names)[CC_NAME_MAX] = NULL;
    int64_t count = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&names, &cap, count, sizeof *names)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_case_targets: out of memory");
            goto fail;
        }
        cc_db_column_text(st, 0, names[count++], CC_NAME_MAX);
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading a case's targets", err);
        goto fail;
    }
    sqlite3_finalize(st);
    *out = names;
    *n = (int)count;
    return CC_OK;
fail:
    sqlite3_finalize(st);
    free(names);
    return status;
}
