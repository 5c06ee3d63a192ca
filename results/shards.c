/* shards.c — shard sets: the runs of a database that ran the shards of one selection,
 * grouped by (selection without its shard, shard count, tag, git commit), with the run that
 * stands for each shard. One read of the runs table; nothing here writes. */
#include "shards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

#define SHARD_RUNS_SQL                                                                            \
    "SELECT id, config, tag, git_commit, status, shard_index, shard_count FROM runs"             \
    " WHERE shard_count > 0 ORDER BY started_at, id"

/* One run of the table, as the grouping reads it. */
typedef struct shard_run {
    int64_t id;
    char selection[4096];
    char tag[128], git_commit[64], status[16];
    int index, count;
} shard_run;

/* config without the ";shard=I/N" at its end (when it is there). */
static void selection_of(const char *config, int index, int count, char *buf, size_t n)
{
    char suffix[48];
    int k = snprintf(suffix, sizeof suffix, ";shard=%d/%d", index, count);
    size_t len = strlen(config);
    if (k > 0 && (size_t)k <= len && strcmp(config + len - (size_t)k, suffix) == 0) len -= (size_t)k;
    snprintf(buf, n, "%.*s", (int)len, config);
}

static int read_row(sqlite3_stmt *st, shard_run *r)
{
    char config[4096];
    r->id = sqlite3_column_int64(st, 0);
    cc_db_column_text(st, 1, config, sizeof config);
    cc_db_column_text(st, 2, r->tag, sizeof r->tag);
    cc_db_column_text(st, 3, r->git_commit, sizeof r->git_commit);
    cc_db_column_text(st, 4, r->status, sizeof r->status);
    r->index = sqlite3_column_int(st, 5);
    r->count = sqlite3_column_int(st, 6);
    selection_of(config, r->index, r->count, r->selection, sizeof r->selection);
    return r->index >= 1 && r->index <= r->count;
}

static int same_set(const cc_shard_set *s, const shard_run *r)
{
    return s->count == r->count && strcmp(s->selection, r->selection) == 0 && strcmp(s->tag, r->tag) == 0 &&
           strcmp(s->git_commit, r->git_commit) == 0;
}

static cc_status start_set(cc_shard_set *s, const shard_run *r, cc_err *err)
{
    memset(s, 0, sizeof *s);
    s->members = calloc((size_t)r->count, sizeof *s->members);
    if (!s->members) return cc_err_set(err, CC_ERR_NOMEM, "shard sets: out of memory");
    s->count = r->count;
    memcpy(s->selection, r->selection, sizeof s->selection);
    memcpy(s->tag, r->tag, sizeof s->tag);
    memcpy(s->git_commit, r->git_commit, sizeof s->git_commit);
    return CC_OK;
}

/* Adds run r (rows come oldest first): the latest finished run of an index stands for it,
 * else the latest run. */
static void add_run(cc_shard_set *s, const shard_run *r)
{
    cc_shard_member *m = &s->members[r->index - 1];
    m->n_runs++;
    if (m->run_id == 0 || strcmp(r->status, "finished") == 0 || strcmp(m->status, "finished") != 0) {
        m->run_id = r->id;
        memcpy(m->status, r->status, sizeof m->status);
    }
}

static void count_members(cc_shard_set *s)
{
    s->n_finished = s->n_unfinished = s->n_missing = 0;
    for (int i = 0; i < s->count; i++) {
        if (s->members[i].run_id == 0) s->n_missing++;
        else if (strcmp(s->members[i].status, "finished") == 0) s->n_finished++;
        else s->n_unfinished++;
    }
}

void cc_shard_set_free(cc_shard_set *set)
{
    if (!set) return;
    free(set->members);
    set->members = NULL;
}

void cc_shard_sets_free(cc_shard_set *sets, int n)
{
    for (int i = 0; sets && i < n; i++) cc_shard_set_free(&sets[i]);
    free(sets);
}

/* Reads every shard run; with key non-NULL only the runs of key's set go into *sets. */
static cc_status group(cc_db *store, const shard_run *key, cc_shard_set **sets, int *n, cc_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db, SHARD_RUNS_SQL, -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing the shard query", err);
    shard_run *r = malloc(sizeof *r);
    cc_shard_set *v = NULL;
    int nv = 0, cap = 0, rc = SQLITE_DONE;
    cc_status status = r ? CC_OK : cc_err_set(err, CC_ERR_NOMEM, "shard sets: out of memory");
    while (status == CC_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!read_row(st, r)) continue;
        if (key && (r->count != key->count || strcmp(r->selection, key->selection) || strcmp(r->tag, key->tag) ||
                    strcmp(r->git_commit, key->git_commit)))
            continue;
        int k = 0;
        while (k < nv && !same_set(&v[k], r)) k++;
        if (k == nv) {
            if (nv == cap) {
                int nc = cap ? 2 * cap : 8;
                cc_shard_set *p = realloc(v, sizeof *p * (size_t)nc);
                if (!p) {
                    status = cc_err_set(err, CC_ERR_NOMEM, "shard sets: out of memory");
                    break;
                }
                v = p;
                cap = nc;
            }
            if ((status = start_set(&v[nv], r, err)) != CC_OK) break;
            nv++;
        }
        add_run(&v[k], r);
    }
    if (status == CC_OK && rc != SQLITE_DONE) status = cc_db_error(store, "reading the runs' shards", err);
    sqlite3_finalize(st);
    free(r);
    if (status != CC_OK) {
        cc_shard_sets_free(v, nv);
        return status;
    }
    for (int k = 0; k < nv; k++) count_members(&v[k]);
    *sets = v;
    *n = nv;
    return CC_OK;
}

cc_status cc_store_shard_sets(cc_db *store, cc_shard_set **out, int *n, cc_err *err)
{
    if (!store || !out || !n) return cc_err_set(err, CC_ERR_ARG, "cc_store_shard_sets: NULL argument");
    return group(store, NULL, out, n, err);
}

cc_status cc_store_shard_set(cc_db *store, int64_t run_id, cc_shard_set *out, cc_err *err)
{
    if (!store || !out) return cc_err_set(err, CC_ERR_ARG, "cc_store_shard_set: NULL argument");
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(store->db,
                           "SELECT id, config, tag, git_commit, status, coalesce(shard_index, 0),"
                           " coalesce(shard_count, 0) FROM runs WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return cc_db_error(store, "preparing the shard query", err);
    sqlite3_bind_int64(st, 1, run_id);
    shard_run *key = malloc(sizeof *key);
    cc_status status = key ? CC_OK : cc_err_set(err, CC_ERR_NOMEM, "shard sets: out of memory");
    int rc = status == CC_OK ? sqlite3_step(st) : SQLITE_DONE;
    int sharded = 0;
    if (status == CC_OK) {
        if (rc == SQLITE_ROW) sharded = read_row(st, key);
        else if (rc == SQLITE_DONE)
            status = cc_err_set(err, CC_ERR_ARG, "results database '%s': no run with id %lld", store->path,
                                (long long)run_id);
        else status = cc_db_error(store, "reading a run's shard", err);
    }
    sqlite3_finalize(st);
    if (status == CC_OK && sharded) {
        cc_shard_set *sets = NULL;
        int n = 0;
        status = group(store, key, &sets, &n, err);
        if (status == CC_OK && n == 1) {
            *out = sets[0];
            free(sets);
        } else {
            cc_shard_sets_free(sets, n);
            if (status == CC_OK)
                status = cc_err_set(err, CC_ERR_INTERNAL, "shard sets: run %lld is not in its own set", (long long)run_id);
        }
    }
    free(key);
    return status;
}

void cc_shard_set_list(const cc_shard_set *set, int which, char *buf, size_t n)
{
    size_t len = 0;
    int any = 0;
    buf[0] = '\0';
    for (int i = 0; i < set->count; i++) {
        const cc_shard_member *m = &set->members[i];
        int state = m->run_id == 0 ? 0 : strcmp(m->status, "finished") == 0 ? 1 : 2;
        if (state != which) continue;
        char item[16];
        int k = snprintf(item, sizeof item, "%s%d", any ? ", " : "", i + 1);
        if (len + (size_t)k + 4 >= n) {
            if (len + 4 < n) snprintf(buf + len, n - len, "...");
            return;
        }
        memcpy(buf + len, item, (size_t)k + 1);
        len += (size_t)k;
        any = 1;
    }
    if (!any) snprintf(buf, n, "none");
}
