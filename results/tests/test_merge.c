/* test_merge.c — merging databases: two shards merged equal the unsharded run (the same
 * results, verdicts and samples, compared field by field), runs keep their uid, a second
 * merge adds nothing, the inputs are left byte-identical, a database merged into itself
 * is refused, a missing input is refused, an input of an older schema is read without
 * being touched, model results travel along, and the column
 * lists of the merge cover every column of the schema. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "harness/cctest.h"
#include "results/merge.h"
#include "results/model_result.h"
#include "results/store_query.h"
#include "synth.h"

static unsigned char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n;
    return buf;
}

static int columns(const char *path, const char *table)
{
    sqlite3 *db = NULL;
    int n = 0;
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s')", table);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

/* 1 when the results (every loaded field) and samples of run a in da equal those of run b in db. */
static int same_run(cc_db *da, int64_t a, cc_db *db, int64_t b)
{
    cc_result *ra = NULL, *rb = NULL;
    int na = 0, nb = 0, same = 1;
    cc_err err = { 0 };
    if (cc_store_load_results(da, a, &ra, &na, &err) || cc_store_load_results(db, b, &rb, &nb, &err)) same = 0;
    if (na != nb) same = 0;
    for (int i = 0; same && i < na; i++) {
        if (memcmp(&ra[i], &rb[i], sizeof ra[i]) != 0) same = 0;
        double *sa = NULL, *sb = NULL;
        int ka = 0, kb = 0;
        cc_store_load_samples(da, a, ra[i].case_id, ra[i].target, ra[i].regime, &sa, &ka, &err);
        cc_store_load_samples(db, b, rb[i].case_id, rb[i].target, rb[i].regime, &sb, &kb, &err);
        if (ka != kb || (ka && memcmp(sa, sb, sizeof *sa * (size_t)ka) != 0)) same = 0;
        free(sa);
        free(sb);
    }
    free(ra);
    free(rb);
    return same;
}

int main(void)
{
    synth_init();
    char shard[2][512], merged[512], into_self[512];
    synth_path(shard[0], sizeof shard[0], "shard1.db");
    synth_path(shard[1], sizeof shard[1], "shard2.db");
    synth_path(merged, sizeof merged, "merged.db");
    cc_err err = { 0 };

    /* 12 cases; shard 1 holds the even ones, shard 2 the odd ones, each its own run with its
     * own samples */
    synth_row rows[12];
    char ids[12][64];
    for (int i = 0; i < 12; i++) {
        snprintf(ids[i], sizeof ids[i], "Add(a=%dx4:f32,b=%dx4)", i + 1, i + 1);
        rows[i] = (synth_row){ ids[i], "Add", "f32", "cpu", i == 5 ? CC_FAILED : CC_PASSED, 0.1, 1e-6 * (i + 1), 0.05, 20 };
    }
    synth_row part[2][6];
    for (int i = 0; i < 12; i++) part[i % 2][i / 2] = rows[i];
    cc_run_info info;
    int64_t shard_run[2];
    for (int s = 0; s < 2; s++) {
        cc_db *db = NULL;
        CHECK_OK(cc_store_open(shard[s], 0, &db, &err));
        cc_rng rng;
        cc_rng_seed(&rng, 10 + s);
        synth_run_info(&info, s ? "shard 2/2" : "shard 1/2", "c1");
        shard_run[s] = synth_store_run(db, &info, "dev", part[s], 6, &rng);
        cc_model_result m;
        memset(&m, 0, sizeof m);
        snprintf(m.model, sizeof m.model, "yolo");
        snprintf(m.target, sizeof m.target, "cpu");
        snprintf(m.precision, sizeof m.precision, s ? "f16" : "f32");
        m.verdict = CC_PASSED;
        m.lat_samples = 10;
        m.lat_p50 = 0.02;
        m.lat_device_timer = s; /* shard 2's latencies are device times */
        snprintf(m.plan, sizeof m.plan, "plan of shard %d", s + 1);
        double lat[10];
        for (int i = 0; i < 10; i++) lat[i] = 0.02 + 0.001 * i + s;
        CHECK_OK(cc_store_put_model_result(db, shard_run[s], &m, lat, 10, &err));
        cc_env_state end = { .load1 = 1.5, .governor = "powersave", .mhz = 1200, .max_mhz = 3500 };
        CHECK_OK(cc_store_run_conditions(db, shard_run[s], &end, 0.4, &err));
        cc_store_close(db);
    }

    long size0 = 0, size1 = 0;
    unsigned char *before0 = slurp(shard[0], &size0), *before1 = slurp(shard[1], &size1);
    const char *inputs[2] = { shard[0], shard[1] };
    cc_merge_stats st;
    CHECK_OK(cc_merge_databases(inputs, 2, merged, &st, &err));
    CHECK(st.runs_copied == 2 && st.runs_present == 0 && st.runs_running == 0);
    CHECK(st.results == 24);     /* 12 cases x 2 regimes */
    CHECK(st.samples == 12 * 20 + 2 * 10);   /* op results' and model latencies */
    CHECK(st.model_results == 2);

    /* the inputs are byte-identical after the merge */
    long after0 = 0, after1 = 0;
    unsigned char *a0 = slurp(shard[0], &after0), *a1 = slurp(shard[1], &after1);
    CHECK(a0 && before0 && after0 == size0 && memcmp(a0, before0, (size_t)size0) == 0);
    CHECK(a1 && before1 && after1 == size1 && memcmp(a1, before1, (size_t)size1) == 0);
    free(a0);
    free(a1);

    /* every run of the merge equals its shard, uid and machine included */
    cc_db *m = NULL, *s0 = NULL, *s1 = NULL;
    CHECK_OK(cc_store_open(merged, 1, &m, &err));
    CHECK_OK(cc_store_open(shard[0], 1, &s0, &err));
    CHECK_OK(cc_store_open(shard[1], 1, &s1, &err));
    cc_run_info *runs = NULL;
    int n = 0;
    CHECK_OK(cc_store_list_runs(m, &runs, &n, &err));
    CHECK(n == 2);
    cc_db *src[2] = { s0, s1 };
    for (int k = 0; k < n && k < 2; k++) {
        cc_run_info orig;
        CHECK_OK(cc_store_get_run(src[k], shard_run[k], &orig, &err));
        CHECK(strcmp(runs[k].uid, orig.uid) == 0);
        CHECK(strcmp(runs[k].tag, orig.tag) == 0);
        CHECK(strcmp(runs[k].started_at, orig.started_at) == 0);
        CHECK(strcmp(runs[k].cpu_model, orig.cpu_model) == 0);
        CHECK(strcmp(runs[k].status, "finished") == 0);
        /* the run's conditions travel with it */
        CHECK(runs[k].at_start.load1 == 0.5 && strcmp(runs[k].at_start.governor, "performance") == 0);
        CHECK(runs[k].at_start.mhz == 2900 && runs[k].at_start.max_mhz == 3500);
        CHECK(runs[k].at_end.load1 == 1.5 && strcmp(runs[k].at_end.governor, "powersave") == 0);
        CHECK(runs[k].at_end.mhz == 1200 && runs[k].others_cpu == 0.4 && runs[k].busy == 1);
        CHECK(same_run(src[k], shard_run[k], m, runs[k].id));
        cc_run_target *ta = NULL, *tb = NULL;
        int nta = 0, ntb = 0;
        CHECK_OK(cc_store_load_targets(src[k], shard_run[k], &ta, &nta, &err));
        CHECK_OK(cc_store_load_targets(m, runs[k].id, &tb, &ntb, &err));
        CHECK(nta == 1 && ntb == 1 && strcmp(ta[0].desc.name, tb[0].desc.name) == 0);
        free(ta);
        free(tb);
        cc_model_result *mr = NULL;
        int nm = 0;
        CHECK_OK(cc_store_load_model_results(m, runs[k].id, &mr, &nm, &err));
        CHECK(nm == 1 && strcmp(mr[0].precision, k ? "f16" : "f32") == 0);
        char plan[32];
        snprintf(plan, sizeof plan, "plan of shard %d", k + 1);
        CHECK(nm == 1 && strcmp(mr[0].plan, plan) == 0);
        CHECK(nm == 1 && mr[0].lat_device_timer == k);
        double *lat = NULL;
        int nl = 0;
        if (nm == 1) CHECK_OK(cc_store_load_model_samples(m, runs[k].id, "yolo", "cpu", mr[0].precision, &lat, &nl, &err));
        CHECK(nl == 10 && lat && lat[0] == 0.02 + k && lat[9] == 0.02 + 0.001 * 9 + k);
        free(lat);
        free(mr);
    }
    /* the union of the shards' verdicts is the whole case list, each case once */
    int seen[12] = { 0 };
    for (int k = 0; k < n; k++) {
        cc_result *res = NULL;
        int nr = 0;
        CHECK_OK(cc_store_load_results(m, runs[k].id, &res, &nr, &err));
        for (int i = 0; i < nr; i++)
            for (int c = 0; c < 12; c++)
                if (strcmp(res[i].case_id, ids[c]) == 0 && res[i].regime == CC_REGIME_RANDOM) {
                    seen[c]++;
                    CHECK(res[i].verdict == rows[c].verdict);
                }
        free(res);
    }
    for (int c = 0; c < 12; c++) CHECK(seen[c] == 1);
    free(runs);
    cc_store_close(m);
    cc_store_close(s0);
    cc_store_close(s1);

    /* merging again adds nothing */
    CHECK_OK(cc_merge_databases(inputs, 2, merged, &st, &err));
    CHECK(st.runs_copied == 0 && st.runs_present == 2 && st.results == 0);

    /* into itself: refused, named, nothing written */
    snprintf(into_self, sizeof into_self, "%s", shard[0]);
    const char *self[1] = { shard[1] };
    cc_status s = cc_merge_databases(self, 1, shard[1], &st, &err);
    CHECK(s == CC_ERR_ARG);
    CHECK(strstr(err.msg, "itself") != NULL);
    /* the same file under another name */
    char alias[600];
    snprintf(alias, sizeof alias, "%s/../%s/shard1.db", synth_dir, strrchr(synth_dir, '/') + 1);
    const char *via_alias[1] = { alias };
    CHECK(cc_merge_databases(via_alias, 1, into_self, &st, &err) == CC_ERR_ARG);
    long after_self = 0;
    unsigned char *again = slurp(shard[0], &after_self);
    CHECK(again && after_self == size0 && memcmp(again, before0, (size_t)size0) == 0);
    free(again);
    free(before0);
    free(before1);

    /* an input of the older schema 1 (no model results table) is read through an upgraded
     * copy and left as it was */
    char old_db[512], into_old[512];
    synth_path(old_db, sizeof old_db, "old.db");
    synth_path(into_old, sizeof into_old, "from-old.db");
    {
        cc_db *o = NULL;
        CHECK_OK(cc_store_open(old_db, 0, &o, &err));
        cc_rng rng;
        cc_rng_seed(&rng, 3);
        synth_run_info(&info, "old", "c0");
        synth_store_run(o, &info, "dev", rows, 3, &rng);
        cc_store_close(o);
        sqlite3 *raw = NULL;
        CHECK(sqlite3_open(old_db, &raw) == SQLITE_OK);
        CHECK(sqlite3_exec(raw, "PRAGMA journal_mode = DELETE;" SYNTH_DOWNGRADE_TO_V1,
                           NULL, NULL, NULL) == SQLITE_OK);
        sqlite3_close(raw);
    }
    long old_size = 0, old_after = 0;
    unsigned char *old_before = slurp(old_db, &old_size);
    const char *olds[1] = { old_db };
    CHECK_OK(cc_merge_databases(olds, 1, into_old, &st, &err));
    CHECK(st.runs_copied == 1 && st.results == 6);
    unsigned char *old_now = slurp(old_db, &old_after);
    CHECK(old_before && old_now && old_after == old_size && memcmp(old_before, old_now, (size_t)old_size) == 0);
    free(old_before);
    free(old_now);

    /* a missing input */
    char missing[512];
    synth_path(missing, sizeof missing, "nope.db");
    const char *none[1] = { missing };
    CHECK(cc_merge_databases(none, 1, merged, &st, &err) == CC_ERR_ARG);
    CHECK(cc_merge_databases(inputs, 0, merged, &st, &err) == CC_ERR_ARG);

    /* the merge's column lists cover the schema: results has id, run_id, case_ref and the
     * 40 copied; runs id and 16; environments run_id and 17; run_targets id, run_id and 9;
     * model_results id, run_id and 41; model_samples 3; conformance_results and
     * scan_results id, run_id and the 6 copy_rows copies */
    CHECK(columns(merged, "results") == 3 + 40);
    CHECK(columns(merged, "runs") == 1 + 16);
    CHECK(columns(merged, "environments") == 1 + 17);
    CHECK(columns(merged, "run_targets") == 2 + 9);
    CHECK(columns(merged, "model_results") == 2 + 41);
    CHECK(columns(merged, "conformance_results") == 2 + 6);
    CHECK(columns(merged, "scan_results") == 2 + 6);
    CHECK(columns(merged, "timing_samples") == 3);
    CHECK(columns(merged, "model_samples") == 3);
    return CC_TEST_RESULT();
}
