/* store_read.c — the results store's queries: resumable and latest runs, one run with its
 * machine, result lookups and counts, and loading a run's results, targets and samples. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* ---- reading ------------------------------------------------------------------------ */

/* Runs a statement whose first column of the first row is an integer; *value = dflt when it
 * returns no row. */
static cc_status query_int(cc_db *s, sqlite3_stmt *st, int64_t dflt, int64_t *value,
                           const char *what, cc_err *err)
{
    int rc = sqlite3_step(st);
    cc_status status = CC_OK;
    if (rc == SQLITE_ROW) *value = sqlite3_column_int64(st, 0);
    else if (rc == SQLITE_DONE) *value = dflt;
    else status = cc_db_error(s, what, err);
    sqlite3_reset(st);
    return status;
}

cc_status cc_store_find_resumable(cc_db *store, const char *config, int64_t *run_id,
                                  cc_err *err)
{
    if (!store || !config || !run_id)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_find_resumable: NULL argument");
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_FIND_RESUMABLE, &st, err);
    if (status != CC_OK) return status;
    cc_db_bind_text(st, 1, config);
    return query_int(store, st, 0, run_id, "looking for a resumable run", err);
}

cc_status cc_store_latest_run(cc_db *store, int64_t *run_id, cc_err *err)
{
    if (!store || !run_id) return cc_err_set(err, CC_ERR_ARG, "cc_store_latest_run: NULL argument");
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_LATEST_RUN, &st, err);
    if (status != CC_OK) return status;
    return query_int(store, st, 0, run_id, "looking for the latest run", err);
}

cc_status cc_store_has_result(cc_db *store, int64_t run_id, const char *case_id,
                              const char *target, cc_regime regime, int *has, cc_err *err)
{
    if (!store || !case_id || !target || !has)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_has_result: NULL argument");
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_HAS_RESULT, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, case_id);
    cc_db_bind_text(st, 3, target);
    cc_db_bind_text(st, 4, cc_regime_name(regime));
    int64_t v = 0;
    status = query_int(store, st, 0, &v, "looking up a result", err);
    if (status == CC_OK) *has = v != 0;
    return status;
}

cc_status cc_store_count_results(cc_db *store, int64_t run_id, int verdict_filter,
                                 int64_t *count, cc_err *err)
{
    if (!store || !count) return cc_err_set(err, CC_ERR_ARG, "cc_store_count_results: NULL argument");
    if (verdict_filter >= CC_VERDICT_COUNT)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_count_results: invalid verdict %d",
                          verdict_filter);
    sqlite3_stmt *st = NULL;
    cc_status status =
        cc_db_stmt(store, verdict_filter >= 0 ? ST_COUNT_VERDICT : ST_COUNT_RESULTS, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    if (verdict_filter >= 0) cc_db_bind_text(st, 2, cc_verdict_name((cc_verdict)verdict_filter));
    return query_int(store, st, 0, count, "counting results", err);
}

cc_status cc_store_get_run(cc_db *store, int64_t run_id, cc_run_info *out, cc_err *err)
{
    if (!store || !out) return cc_err_set(err, CC_ERR_ARG, "cc_store_get_run: NULL argument");
    cc_run_info *info = calloc(1, sizeof *info);
    if (!info) return cc_err_set(err, CC_ERR_NOMEM, "cc_store_get_run: out of memory");
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_GET_RUN, &st, err);
    if (status != CC_OK) goto done;
    sqlite3_bind_int64(st, 1, run_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        status = cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld",
                            store->path, (long long)run_id);
    } else if (rc != SQLITE_ROW) {
        status = cc_db_error(store, "reading a run", err);
    } else {
        info->id = sqlite3_column_int64(st, 0);
        cc_db_column_text(st, 1, info->uid, sizeof info->uid);
        cc_db_column_text(st, 2, info->started_at, sizeof info->started_at);
        cc_db_column_text(st, 3, info->finished_at, sizeof info->finished_at);
        cc_db_column_text(st, 4, info->status, sizeof info->status);
        cc_db_column_text(st, 5, info->tag, sizeof info->tag);
        cc_db_column_text(st, 6, info->config, sizeof info->config);
        info->seed = (uint64_t)sqlite3_column_int64(st, 7);
        info->quick = sqlite3_column_int(st, 8);
        cc_db_column_text(st, 9, info->command, sizeof info->command);
        cc_db_column_text(st, 10, info->version, sizeof info->version);
        cc_db_column_text(st, 11, info->git_commit, sizeof info->git_commit);
        cc_db_column_text(st, 12, info->libraries, sizeof info->libraries);
        info->shard_index = sqlite3_column_int(st, 13);
        info->shard_count = sqlite3_column_int(st, 14);
        cc_db_column_text(st, 15, info->shard_source, sizeof info->shard_source);
        cc_db_column_text(st, 16, info->scheduler_jobs, sizeof info->scheduler_jobs);
        cc_db_column_text(st, 17, info->cpu_model, sizeof info->cpu_model);
        cc_db_column_text(st, 18, info->cpu_flags, sizeof info->cpu_flags);
        info->cores = sqlite3_column_int(st, 19);
        info->memory_bytes = sqlite3_column_int64(st, 20);
        cc_db_column_text(st, 21, info->os, sizeof info->os);
        cc_db_column_text(st, 22, info->hostname, sizeof info->hostname);
        cc_db_column_text(st, 23, info->compiler, sizeof info->compiler);
        cc_db_read_env_state(st, 24, &info->at_start);
        cc_db_read_env_state(st, 28, &info->at_end);
        info->others_cpu = cc_db_column_real(st, 32);
        info->busy = sqlite3_column_type(st, 33) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 33);
        *out = *info;
    }
    sqlite3_reset(st);
done:
    free(info);
    return status;
}

/* Grows *arr (of elem-byte items) so that it holds at least n + 1 items. */
static int grow(void **arr, int *cap, int n, size_t elem)
{
    if (n < *cap) return 0;
    int nc = *cap ? 2 * *cap : 64;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

cc_status cc_store_load_results(cc_db *store, int64_t run_id, cc_result **out, int *n,
                                cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_results: NULL argument");
    cc_result *arr = NULL;
    int count = 0, cap = 0, rc;
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_LOAD_RESULTS, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&arr, &cap, count, sizeof *arr)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_load_results: out of memory");
            goto fail;
        }
        cc_result *r = &arr[count];
        memset(r, 0, sizeof *r);
        cc_db_column_text(st, 0, r->case_id, sizeof r->case_id);
        cc_db_column_text(st, 1, r->op, sizeof r->op);
        cc_db_column_text(st, 2, r->dtype, sizeof r->dtype);
        cc_db_column_text(st, 3, r->target, sizeof r->target);
        const char *regime = (const char *)sqlite3_column_text(st, 4);
        r->seed = (uint64_t)sqlite3_column_int64(st, 5);
        const char *verdict = (const char *)sqlite3_column_text(st, 6);
        if (!regime || cc_db_regime_parse(regime, &r->regime) || !verdict ||
            cc_verdict_parse(verdict, &r->verdict)) {
            status = cc_err_set(err, CC_ERR_DB,
                                "results database '%s': result of '%.200s' has unknown regime '%s' "
                                "or verdict '%s'",
                                store->path, r->case_id, regime ? regime : "",
                                verdict ? verdict : "");
            goto fail;
        }
        cc_db_column_text(st, 7, r->reason, sizeof r->reason);
        cc_db_column_text(st, 8, r->plan, sizeof r->plan);
        cc_db_read_result_fields(st, 9, r);
        count++;
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading results", err);
        goto fail;
    }
    sqlite3_reset(st);
    *out = arr;
    *n = count;
    return CC_OK;

fail:
    sqlite3_reset(st);
    free(arr);
    return status;
}

cc_status cc_store_load_targets(cc_db *store, int64_t run_id, cc_run_target **out, int *n,
                                cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_load_targets: NULL argument");
    cc_run_target *arr = NULL;
    int count = 0, cap = 0, rc;
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_LOAD_TARGETS, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&arr, &cap, count, sizeof *arr)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_load_targets: out of memory");
            goto fail;
        }
        cc_run_target *t = &arr[count++];
        memset(t, 0, sizeof *t);
        cc_db_column_text(st, 0, t->name, sizeof t->name);
        t->available = sqlite3_column_int(st, 1);
        cc_db_column_text(st, 2, t->reason, sizeof t->reason);
        cc_db_column_text(st, 3, t->desc.name, sizeof t->desc.name);
        cc_db_column_text(st, 4, t->desc.driver, sizeof t->desc.driver);
        cc_db_column_text(st, 5, t->desc.library, sizeof t->desc.library);
        t->desc.peak_gflops = cc_db_column_real(st, 6);
        t->desc.peak_gbps = cc_db_column_real(st, 7);
        cc_db_column_text(st, 8, t->desc.peak_source, sizeof t->desc.peak_source);
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading targets", err);
        goto fail;
    }
    sqlite3_reset(st);
    *out = arr;
    *n = count;
    return CC_OK;

fail:
    sqlite3_reset(st);
    free(arr);
    return status;
}

cc_status cc_store_load_samples(cc_db *store, int64_t run_id, const char *case_id,
                                const char *target, cc_regime regime, double **out, int *n,
                                cc_err *err)
{
    if (!store || !case_id || !target || !out || !n)
        return cc_err_set(err, CC_ERR_ARG, "cc_store_load_samples: NULL argument");
    double *arr = NULL;
    int count = 0, cap = 0, rc;
    sqlite3_stmt *st = NULL;
    cc_status status = cc_db_stmt(store, ST_LOAD_SAMPLES, &st, err);
    if (status != CC_OK) return status;
    sqlite3_bind_int64(st, 1, run_id);
    cc_db_bind_text(st, 2, case_id);
    cc_db_bind_text(st, 3, target);
    cc_db_bind_text(st, 4, cc_regime_name(regime));
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow((void **)&arr, &cap, count, sizeof *arr)) {
            status = cc_err_set(err, CC_ERR_NOMEM, "cc_store_load_samples: out of memory");
            goto fail;
        }
        arr[count++] = cc_db_column_real(st, 0);
    }
    if (rc != SQLITE_DONE) {
        status = cc_db_error(store, "reading timing samples", err);
        goto fail;
    }
    sqlite3_reset(st);
    *out = arr;
    *n = count;
    return CC_OK;

fail:
    sqlite3_reset(st);
    free(arr);
    return status;
}
