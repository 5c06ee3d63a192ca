/* test_store.c — the results store: round trips of runs, targets, results (every field,
 * NaN and infinities included) and samples; replacement; resumable runs; the migration
 * mechanism; refusal of newer, corrupt, foreign, read-only and directory paths without
 * touching them; and a writer killed with SIGKILL losing nothing it had committed. */
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "harness/cctest.h"
#include "results/schema.h"
#include "results/store.h"

static char dir[256];

static void path_in(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_DP) {
        chmod(p, 0700);
        return rmdir(p);
    }
    return unlink(p);
}

/* Whole contents of a regular file (malloc'd), or NULL when it is not one. */
static unsigned char *slurp(const char *path, long *size)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return NULL;
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

static int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Runs one SQL text on a raw connection; returns the first column of its first row as an
 * integer (or -1). */
static long long raw_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static int raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

static void fill_info(cc_run_info *info, const char *config, const char *tag)
{
    memset(info, 0, sizeof *info);
    cc_env_collect(info);
    snprintf(info->tag, sizeof info->tag, "%s", tag);
    snprintf(info->config, sizeof info->config, "%s", config);
    info->seed = 0xfedcba9876543210ull;
    info->quick = 1;
    snprintf(info->command, sizeof info->command, "crosscheck run --quick --tag '%s'", tag);
    snprintf(info->version, sizeof info->version, "0.1.0");
    snprintf(info->git_commit, sizeof info->git_commit, "abcdef123456");
    snprintf(info->libraries, sizeof info->libraries, "OpenBLAS 0.3.21; SQLite %s",
             sqlite3_libversion());
}

/* A result whose every numeric field has a distinct value. */
static void fill_result(cc_result *r, const char *case_id, const char *target, cc_regime regime,
                        cc_verdict v, double base)
{
    memset(r, 0, sizeof *r);
    snprintf(r->case_id, sizeof r->case_id, "%s", case_id);
    snprintf(r->op, sizeof r->op, "%.*s", (int)strcspn(case_id, "("), case_id);
    snprintf(r->dtype, sizeof r->dtype, "f32");
    snprintf(r->target, sizeof r->target, "%s", target);
    r->regime = regime;
    r->seed = 0x8000000000000001ull + (uint64_t)base;
    r->verdict = v;
    snprintf(r->reason, sizeof r->reason, "worst at [3]: got 1.5, want 1 | 'quoted' \"x\"");
    r->metrics = (cc_metrics){ .n = 1000 + (int64_t)base, .n_bad = 3, .max_abs = base + 0.5,
                               .max_rel = base + 0.25, .max_ulp = base + 7, .nmse = 1e-300,
                               .cosine = 0.999999, .bound_ratio = base + 1.125,
                               .worst_index = (int64_t)1 << 40, .worst_got = -2.5,
                               .worst_want = 4.75 };
    r->timing = (cc_timing){ .n_samples = 5, .device_timer = 1, .median = 1e-3 * base,
                             .mean = 2e-3, .stddev = 3e-4, .mad = 4e-5, .min = 5e-4, .max = 6e-3,
                             .p90 = 7e-3, .p99 = 8e-3, .cv = 0.09, .ci_lo = 9e-4, .ci_hi = 1.1e-3,
                             .gflops = 123.5, .gbps = 45.25 };
    r->flops = 2.0e9 + base;
    r->bytes = 3.0e6;
    snprintf(r->plan, sizeof r->plan, "gemm-6x16 | avx2");
    r->tol_c = 2.0;
    r->tol_r = 1.0;
    r->tol_atol = 1e-7;
    r->policy_version = 1;
}

/* 1 when a and b are equal or both NaN. */
static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static int same_result(const cc_result *a, const cc_result *b)
{
    const cc_metrics *m = &a->metrics, *n = &b->metrics;
    const cc_timing *t = &a->timing, *u = &b->timing;
    return !strcmp(a->case_id, b->case_id) && !strcmp(a->op, b->op) &&
           !strcmp(a->dtype, b->dtype) && !strcmp(a->target, b->target) &&
           a->regime == b->regime && a->seed == b->seed && a->verdict == b->verdict &&
           !strcmp(a->reason, b->reason) && !strcmp(a->plan, b->plan) && m->n == n->n &&
           m->n_bad == n->n_bad && same(m->max_abs, n->max_abs) && same(m->max_rel, n->max_rel) &&
           same(m->max_ulp, n->max_ulp) && same(m->nmse, n->nmse) && same(m->cosine, n->cosine) &&
           same(m->bound_ratio, n->bound_ratio) && m->worst_index == n->worst_index &&
           same(m->worst_got, n->worst_got) && same(m->worst_want, n->worst_want) &&
           t->n_samples == u->n_samples && t->device_timer == u->device_timer &&
           same(t->median, u->median) && same(t->mean, u->mean) && same(t->stddev, u->stddev) &&
           same(t->mad, u->mad) && same(t->min, u->min) && same(t->max, u->max) &&
           same(t->p90, u->p90) && same(t->p99, u->p99) && same(t->cv, u->cv) &&
           same(t->ci_lo, u->ci_lo) && same(t->ci_hi, u->ci_hi) && same(t->gflops, u->gflops) &&
           same(t->gbps, u->gbps) && same(a->flops, b->flops) && same(a->bytes, b->bytes) &&
           same(a->tol_c, b->tol_c) && same(a->tol_r, b->tol_r) &&
           same(a->tol_atol, b->tol_atol) && a->policy_version == b->policy_version;
}

static void test_round_trip(void)
{
    char path[512];
    path_in(path, sizeof path, "round.db");
    cc_db *s = NULL;
    cc_err err = {0};
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    if (!s) return;
    CHECK(cc_store_schema_version(s) == CC_STORE_SCHEMA_VERSION);
    CHECK(raw_int(path, "PRAGMA application_id") == CC_STORE_APPLICATION_ID);

    int64_t latest = -1;
    CHECK(cc_store_latest_run(s, &latest, &err) == CC_OK && latest == 0);

    static cc_run_info info, back;
    fill_info(&info, "targets=ref,cpu;ops=*;dtypes=f32;quick=1;seed=1", "nightly");
    CHECK(info.cores > 0);
    CHECK(info.memory_bytes > 0);
    CHECK(info.os[0] != '\0' && info.compiler[0] != '\0');
    int64_t run = 0;
    CHECK(cc_store_run_begin(s, &info, &run, &err) == CC_OK && run > 0);
    CHECK(cc_store_get_run(s, run, &back, &err) == CC_OK);
    CHECK(back.id == run);
    CHECK(strlen(back.uid) == 32 && strspn(back.uid, "0123456789abcdef") == 32);
    CHECK(strcmp(back.status, "running") == 0);
    CHECK(strlen(back.started_at) == 20 && back.started_at[19] == 'Z');
    CHECK(back.finished_at[0] == '\0');
    CHECK(!strcmp(back.tag, info.tag) && !strcmp(back.config, info.config));
    CHECK(back.seed == info.seed && back.quick == 1);
    CHECK(!strcmp(back.command, info.command) && !strcmp(back.version, info.version));
    CHECK(!strcmp(back.git_commit, info.git_commit) && !strcmp(back.libraries, info.libraries));
    CHECK(!strcmp(back.cpu_model, info.cpu_model) && !strcmp(back.cpu_flags, info.cpu_flags));
    CHECK(back.cores == info.cores && back.memory_bytes == info.memory_bytes);
    CHECK(!strcmp(back.os, info.os) && !strcmp(back.hostname, info.hostname));
    CHECK(!strcmp(back.compiler, info.compiler));

    /* A second run gets a different uid. */
    int64_t run2 = 0;
    static cc_run_info back2;
    CHECK(cc_store_run_begin(s, &info, &run2, &err) == CC_OK && run2 > run);
    CHECK(cc_store_get_run(s, run2, &back2, &err) == CC_OK && strcmp(back.uid, back2.uid) != 0);
    CHECK(cc_store_latest_run(s, &latest, &err) == CC_OK && latest == run2);
    CHECK(cc_store_get_run(s, 9999, &back2, &err) == CC_ERR_ARG);

    /* Targets: order of first put kept, a re-put replaces. */
    cc_device_desc d = { .name = "Test CPU (2 cores)", .driver = "none", .library = "OpenBLAS",
                         .peak_gflops = 100.5, .peak_gbps = NAN };
    CHECK(cc_store_put_target(s, run, "ref", &d, 1, NULL, &err) == CC_OK);
    CHECK(cc_store_put_target(s, run, "cuda", NULL, 0, "no CUDA device", &err) == CC_OK);
    snprintf(d.driver, sizeof d.driver, "v2");
    CHECK(cc_store_put_target(s, run, "ref", &d, 1, "", &err) == CC_OK);
    CHECK(cc_store_put_target(s, 9999, "ref", &d, 1, "", &err) == CC_ERR_ARG);
    CHECK(cc_store_put_target(s, run, "", &d, 1, "", &err) == CC_ERR_ARG);
    cc_run_target *tg = NULL;
    int nt = 0;
    CHECK(cc_store_load_targets(s, run, &tg, &nt, &err) == CC_OK && nt == 2);
    if (nt == 2) {
        CHECK(!strcmp(tg[0].name, "ref") && tg[0].available == 1);
        CHECK(!strcmp(tg[0].desc.name, d.name) && !strcmp(tg[0].desc.driver, "v2"));
        CHECK(!strcmp(tg[0].desc.library, "OpenBLAS") && tg[0].desc.peak_gflops == 100.5);
        CHECK(isnan(tg[0].desc.peak_gbps));
        CHECK(!strcmp(tg[1].name, "cuda") && tg[1].available == 0);
        CHECK(!strcmp(tg[1].reason, "no CUDA device") && tg[1].desc.name[0] == '\0');
    }
    free(tg);

    /* Results: every field, NaN and infinities, samples. */
    cc_result r[3], *got = NULL;
    fill_result(&r[0], "Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,1])", "ref", CC_REGIME_EXACT,
                CC_PASSED, 1);
    fill_result(&r[1], "Conv(x=1x3x8x8:f32,w=4x3x3x3,pads=[1,1,1,1])", "ref", CC_REGIME_RANDOM,
                CC_FAILED, 2);
    r[1].metrics.max_rel = INFINITY;
    r[1].metrics.cosine = NAN;
    r[1].metrics.worst_got = -INFINITY;
    r[1].timing.cv = NAN;
    fill_result(&r[2], "Add(a=4:f32,b=4)", "cuda", CC_REGIME_EXACT, CC_UNSUPPORTED, 3);
    r[2].timing = (cc_timing){0};
    double samples[5] = { 1e-3, 2e-3, NAN, 4e-3, 5e-3 };
    CHECK(cc_store_put_result(s, run, &r[0], samples, 5, &err) == CC_OK);
    CHECK(cc_store_put_result(s, run, &r[1], samples, 2, &err) == CC_OK);
    CHECK(cc_store_put_result(s, run, &r[2], NULL, 0, &err) == CC_OK);
    int n = 0;
    CHECK(cc_store_load_results(s, run, &got, &n, &err) == CC_OK && n == 3);
    if (n == 3) {
        /* Ordered by op, dtype, case id, target, regime: Add first. */
        CHECK(same_result(&got[0], &r[2]));
        CHECK(same_result(&got[1], &r[0]));
        CHECK(same_result(&got[2], &r[1]));
        CHECK(isinf(got[2].metrics.max_rel) && got[2].metrics.max_rel > 0);
        CHECK(isinf(got[2].metrics.worst_got) && got[2].metrics.worst_got < 0);
        CHECK(isnan(got[2].metrics.cosine) && isnan(got[2].timing.cv));
    }
    free(got);

    double *smp = NULL;
    int ns = 0;
    CHECK(cc_store_load_samples(s, run, r[0].case_id, "ref", CC_REGIME_EXACT, &smp, &ns, &err) ==
          CC_OK);
    CHECK(ns == 5);
    if (ns == 5)
        CHECK(smp[0] == 1e-3 && smp[1] == 2e-3 && isnan(smp[2]) && smp[3] == 4e-3 &&
              smp[4] == 5e-3);
    free(smp);

    /* A re-put replaces the result and its samples. */
    r[0].verdict = CC_TIMEOUT;
    snprintf(r[0].reason, sizeof r[0].reason, "exceeded 10 s");
    double two[2] = { 7.0, 8.0 };
    CHECK(cc_store_put_result(s, run, &r[0], two, 2, &err) == CC_OK);
    int64_t count = 0;
    CHECK(cc_store_count_results(s, run, -1, &count, &err) == CC_OK && count == 3);
    CHECK(cc_store_count_results(s, run, CC_TIMEOUT, &count, &err) == CC_OK && count == 1);
    CHECK(cc_store_count_results(s, run, CC_PASSED, &count, &err) == CC_OK && count == 0);
    CHECK(raw_int(path, "SELECT count(*) FROM timing_samples") == 4);
    CHECK(cc_store_load_samples(s, run, r[0].case_id, "ref", CC_REGIME_EXACT, &smp, &ns, &err) ==
          CC_OK && ns == 2);
    if (ns == 2) CHECK(smp[0] == 7.0 && smp[1] == 8.0);
    free(smp);
    CHECK(cc_store_load_results(s, run, &got, &n, &err) == CC_OK && n == 3);
    if (n == 3) CHECK(same_result(&got[1], &r[0]));
    free(got);
    CHECK(cc_store_load_samples(s, run, "Nope()", "ref", CC_REGIME_EXACT, &smp, &ns, &err) ==
          CC_OK && ns == 0 && smp == NULL);

    int has = -1;
    CHECK(cc_store_has_result(s, run, r[1].case_id, "ref", CC_REGIME_RANDOM, &has, &err) ==
          CC_OK && has == 1);
    CHECK(cc_store_has_result(s, run, r[1].case_id, "cpu", CC_REGIME_RANDOM, &has, &err) ==
          CC_OK && has == 0);
    CHECK(cc_store_has_result(s, run2, r[1].case_id, "ref", CC_REGIME_RANDOM, &has, &err) ==
          CC_OK && has == 0);

    /* Bad results are refused and store nothing. */
    cc_result bad = r[2];
    snprintf(bad.op, sizeof bad.op, "Mul");
    CHECK(cc_store_put_result(s, run, &bad, NULL, 0, &err) == CC_ERR_ARG);
    CHECK(strstr(err.msg, "Add(a=4:f32,b=4)") != NULL);
    bad = r[2];
    bad.target[0] = '\0';
    CHECK(cc_store_put_result(s, run, &bad, NULL, 0, &err) == CC_ERR_ARG);
    bad = r[2];
    bad.verdict = CC_VERDICT_COUNT;
    CHECK(cc_store_put_result(s, run, &bad, NULL, 0, &err) == CC_ERR_ARG);
    CHECK(cc_store_put_result(s, 4242, &r[2], NULL, 0, &err) == CC_ERR_ARG);
    CHECK(cc_store_put_result(s, run, &r[2], NULL, 3, &err) == CC_ERR_ARG);
    CHECK(cc_store_count_results(s, run, -1, &count, &err) == CC_OK && count == 3);
    CHECK(cc_store_count_results(s, 4242, -1, &count, &err) == CC_OK && count == 0);

    /* The CHECK constraint on verdicts holds even against raw SQL. */
    CHECK(raw_exec(path, "UPDATE results SET verdict = 'great'") != SQLITE_OK);

    /* Ending. */
    CHECK(cc_store_run_end(s, run, "done", &err) == CC_ERR_ARG);
    CHECK(cc_store_run_end(s, 777, "finished", &err) == CC_ERR_ARG);
    CHECK(cc_store_run_end(s, run, "finished", &err) == CC_OK);
    CHECK(cc_store_get_run(s, run, &back, &err) == CC_OK);
    CHECK(!strcmp(back.status, "finished") && strlen(back.finished_at) == 20);
    cc_store_close(s);

    /* Read-only reopen sees everything and refuses writes. */
    s = NULL;
    CHECK(cc_store_open(path, 1, &s, &err) == CC_OK);
    if (s) {
        CHECK(cc_store_count_results(s, run, -1, &count, &err) == CC_OK && count == 3);
        err = (cc_err){0};
        CHECK(cc_store_put_result(s, run, &r[2], NULL, 0, &err) == CC_ERR_DB);
        CHECK(strstr(err.msg, path) != NULL && strstr(err.msg, "readonly") != NULL);
        CHECK(cc_store_run_end(s, run2, "finished", &err) == CC_ERR_DB);
    }
    cc_store_close(s);
    cc_store_close(NULL);
}

static void test_resumable(void)
{
    char path[512];
    path_in(path, sizeof path, "resume.db");
    cc_db *s = NULL;
    cc_err err = {0};
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    if (!s) return;
    static cc_run_info info, back;
    int64_t a1, a2, b1, a3, found = -1;
    fill_info(&info, "A", "");
    CHECK(cc_store_run_begin(s, &info, &a1, &err) == CC_OK);
    CHECK(cc_store_run_end(s, a1, "interrupted", &err) == CC_OK);
    CHECK(cc_store_run_begin(s, &info, &a2, &err) == CC_OK); /* left running (killed) */
    fill_info(&info, "B", "");
    CHECK(cc_store_run_begin(s, &info, &b1, &err) == CC_OK);
    CHECK(cc_store_run_end(s, b1, "finished", &err) == CC_OK);
    fill_info(&info, "A", "");
    CHECK(cc_store_run_begin(s, &info, &a3, &err) == CC_OK);
    CHECK(cc_store_run_end(s, a3, "finished", &err) == CC_OK);

    CHECK(cc_store_find_resumable(s, "A", &found, &err) == CC_OK && found == a2);
    CHECK(cc_store_find_resumable(s, "B", &found, &err) == CC_OK && found == 0);
    CHECK(cc_store_find_resumable(s, "C", &found, &err) == CC_OK && found == 0);
    CHECK(cc_store_find_resumable(s, "a", &found, &err) == CC_OK && found == 0);

    CHECK(cc_store_run_end(s, a2, "interrupted", &err) == CC_OK);
    CHECK(cc_store_find_resumable(s, "A", &found, &err) == CC_OK && found == a2);
    CHECK(cc_store_run_resume(s, a2, &err) == CC_OK);
    CHECK(cc_store_get_run(s, a2, &back, &err) == CC_OK);
    CHECK(!strcmp(back.status, "running") && back.finished_at[0] == '\0');
    CHECK(cc_store_run_resume(s, 12345, &err) == CC_ERR_ARG);
    CHECK(cc_store_run_end(s, a2, "finished", &err) == CC_OK);
    CHECK(cc_store_find_resumable(s, "A", &found, &err) == CC_OK && found == a1);
    cc_store_close(s);
}

/* An empty version-0 SQLite file is upgraded to the current schema. */
static void test_upgrade_from_v0(void)
{
    char path[512];
    path_in(path, sizeof path, "v0.db");
    CHECK(raw_exec(path, "PRAGMA page_size = 8192; PRAGMA journal_mode = DELETE; VACUUM;") ==
          SQLITE_OK);
    CHECK(raw_int(path, "PRAGMA user_version") == 0);
    cc_db *s = NULL;
    cc_err err = {0};
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    CHECK(cc_store_schema_version(s) == CC_STORE_SCHEMA_VERSION);
    cc_store_close(s);
    CHECK(raw_int(path, "PRAGMA user_version") == CC_STORE_SCHEMA_VERSION);
    CHECK(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'results'") == 1);
    CHECK(raw_int(path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'") == 1);

    /* Read-only open of an old (version-0) file: refused, nothing written. */
    char old[512];
    path_in(old, sizeof old, "v0b.db");
    CHECK(raw_exec(old, "VACUUM;") == SQLITE_OK);
    long n0, n1;
    unsigned char *before = slurp(old, &n0);
    s = NULL;
    CHECK(cc_store_open(old, 1, &s, &err) == CC_ERR_DB && s == NULL);
    CHECK(strstr(err.msg, "older") != NULL);
    unsigned char *after = slurp(old, &n1);
    CHECK(before && after && n0 == n1 && memcmp(before, after, (size_t)n0) == 0);
    free(before);
    free(after);
}

/* The migration mechanism with steps of the test's own. */
static void test_migration_steps(void)
{
    char path[512];
    path_in(path, sizeof path, "steps.db");
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    const cc_migration steps[] = {
        { 1, "make t", "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1); PRAGMA user_version = 1;" },
        { 2, "add b", "ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'; INSERT INTO t (a) VALUES (2);"
                      " PRAGMA user_version = 2;" },
        { 3, "broken", "CREATE TABLE u (x); INSERT INTO no_such_table VALUES (1);"
                       " PRAGMA user_version = 3;" },
    };
    const cc_migration forgetful[] = {
        steps[0], steps[1], { 3, "forgets the version", "CREATE TABLE v (y);" },
    };
    const cc_migration misnumbered[] = { steps[1] };
    cc_err err = {0};
    int version = -1;

    /* Steps 1 and 2 apply in order; step 3 fails and is rolled back. */
    CHECK(cc_schema_migrate(db, path, steps, 3, &err) == CC_ERR_DB);
    CHECK(strstr(err.msg, "step 3 (broken)") != NULL && strstr(err.msg, "no_such_table") != NULL);
    CHECK(cc_schema_version(db, path, &version, &err) == CC_OK && version == 2);
    CHECK(raw_int(path, "SELECT count(*) FROM t WHERE b = 'x'") == 2);
    CHECK(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'u'") == 0);

    /* Already at version 2: steps 1-2 are not run again. */
    CHECK(cc_schema_migrate(db, path, steps, 2, &err) == CC_OK);
    CHECK(raw_int(path, "SELECT count(*) FROM t") == 2);

    /* A step that does not set its version is a bug, and is rolled back too. */
    CHECK(cc_schema_migrate(db, path, forgetful, 3, &err) == CC_ERR_INTERNAL);
    CHECK(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'v'") == 0);
    CHECK(cc_schema_version(db, path, &version, &err) == CC_OK && version == 2);
    CHECK(cc_schema_migrate(db, path, misnumbered, 1, &err) == CC_ERR_INTERNAL);
    sqlite3_close(db);

    /* The real list is numbered 1..CC_STORE_SCHEMA_VERSION. */
    CHECK(cc_schema_step_count == CC_STORE_SCHEMA_VERSION);
    for (int i = 0; i < cc_schema_step_count; i++) CHECK(cc_schema_steps[i].version == i + 1);
}

/* Opening must fail with CC_ERR_DB naming the path and leave the file's bytes alone. */
static void expect_refused(const char *path, int readonly, const char *why)
{
    long n0 = -1, n1 = -2;
    unsigned char *before = slurp(path, &n0);
    cc_db *s = NULL;
    cc_err err = {0};
    CHECK(cc_store_open(path, readonly, &s, &err) == CC_ERR_DB);
    CHECK(s == NULL);
    CHECK(strstr(err.msg, path) != NULL);
    if (why && !strstr(err.msg, why)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", err.msg, why);
        CHECK(0);
    }
    CHECK(strchr(err.msg, '\n') == NULL);
    unsigned char *after = slurp(path, &n1);
    if (before) CHECK(after && n0 == n1 && memcmp(before, after, (size_t)n0) == 0);
    free(before);
    free(after);
    cc_store_close(s);
}

static void test_refusals(void)
{
    char path[512], wal[600];
    cc_err err = {0};

    /* Newer schema. */
    path_in(path, sizeof path, "newer.db");
    cc_db *s = NULL;
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    cc_store_close(s);
    CHECK(raw_exec(path, "PRAGMA user_version = 99;") == SQLITE_OK);
    expect_refused(path, 0, "newer");
    expect_refused(path, 1, "99");
    CHECK(raw_int(path, "PRAGMA user_version") == 99);

    /* Garbage bytes. */
    path_in(path, sizeof path, "garbage.db");
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        unsigned x = 12345;
        for (int i = 0; i < 8192; i++) {
            x = x * 1103515245u + 12345u;
            fputc((int)(x >> 16) & 0xff, f);
        }
        fclose(f);
    }
    expect_refused(path, 0, "not a readable SQLite database");
    expect_refused(path, 1, NULL);
    snprintf(wal, sizeof wal, "%s-wal", path);
    CHECK(!file_exists(wal));

    /* A short text file. */
    path_in(path, sizeof path, "notes.txt");
    f = fopen(path, "w");
    if (f) {
        fputs("these are my notes, not a database\n", f);
        fclose(f);
    }
    expect_refused(path, 0, NULL);

    /* Another program's SQLite database. */
    path_in(path, sizeof path, "foreign.db");
    CHECK(raw_exec(path, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ada');") ==
          SQLITE_OK);
    expect_refused(path, 0, "something else");
    CHECK(raw_int(path, "SELECT count(*) FROM sqlite_schema") == 1);

    /* A directory. */
    expect_refused(dir, 0, "is a directory");
    expect_refused(dir, 1, "is a directory");

    /* Read-only open of a missing file does not create it. */
    path_in(path, sizeof path, "missing.db");
    expect_refused(path, 1, "no such file");
    CHECK(!file_exists(path));

    /* A missing parent folder. */
    path_in(path, sizeof path, "no/such/folder/x.db");
    expect_refused(path, 0, "folder does not exist");

    /* A read-only file. Root ignores permission bits: then only the read-only open is checked. */
    path_in(path, sizeof path, "ro.db");
    s = NULL;
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    cc_store_close(s);
    CHECK(chmod(path, 0444) == 0);
    if (access(path, W_OK) != 0) {
        expect_refused(path, 0, "read-only");
    } else {
        printf("note: running as root, permission checks on read-only files skipped\n");
    }
    s = NULL;
    CHECK(cc_store_open(path, 1, &s, &err) == CC_OK);
    cc_store_close(s);

    /* A read-only folder: a new database cannot be created in it, and an existing one in
     * rollback-journal mode cannot switch to WAL there. */
    char ro_dir[300];
    path_in(ro_dir, sizeof ro_dir, "ro_dir");
    CHECK(mkdir(ro_dir, 0755) == 0);
    snprintf(path, sizeof path, "%s/old.db", ro_dir);
    s = NULL;
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    cc_store_close(s);
    CHECK(raw_exec(path, "PRAGMA journal_mode = DELETE;") == SQLITE_OK);
    CHECK(chmod(ro_dir, 0555) == 0);
    if (access(ro_dir, W_OK) != 0) {
        expect_refused(path, 0, "folder is not writable");
        snprintf(path, sizeof path, "%s/new.db", ro_dir);
        expect_refused(path, 0, "folder is not writable");
        CHECK(!file_exists(path));
    }
    chmod(ro_dir, 0755);
}

/* A writer killed with SIGKILL (after some committed results, in the middle of a
 * transaction) loses nothing committed; the database opens and passes integrity_check. */
static void test_killed_writer(void)
{
    char path[512];
    path_in(path, sizeof path, "killed.db");
    const int n_committed = 25;
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        cc_db *s = NULL;
        cc_err err = {0};
        static cc_run_info info;
        fill_info(&info, "kill-test", "");
        int64_t run = 0;
        if (cc_store_open(path, 0, &s, &err) != CC_OK ||
            cc_store_run_begin(s, &info, &run, &err) != CC_OK)
            _exit(3);
        for (int i = 0; i < n_committed; i++) {
            cc_result r;
            char id[64];
            snprintf(id, sizeof id, "Relu(x=%dx8:f32)", i + 1);
            fill_result(&r, id, "cpu", CC_REGIME_RANDOM, CC_PASSED, i);
            double smp[3] = { 1, 2, 3 };
            if (cc_store_put_result(s, run, &r, smp, 3, &err) != CC_OK) _exit(4);
            if (write(fds[1], &i, sizeof i) != (ssize_t)sizeof i) _exit(5);
        }
        /* Die in the middle of a transaction of a second connection. */
        sqlite3 *raw = NULL;
        sqlite3_open(path, &raw);
        sqlite3_exec(raw, "BEGIN IMMEDIATE; DELETE FROM timing_samples; DELETE FROM results;"
                          " INSERT INTO cases (case_id, op, dtype) VALUES ('Ghost()', 'Ghost', 'f32');",
                     NULL, NULL, NULL);
        kill(getpid(), SIGKILL);
        _exit(6);
    }
    close(fds[1]);
    int acked = 0, idx;
    while (read(fds[0], &idx, sizeof idx) == (ssize_t)sizeof idx) acked++;
    close(fds[0]);
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    CHECK(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL);
    CHECK(acked == n_committed);

    cc_db *s = NULL;
    cc_err err = {0};
    CHECK(cc_store_open(path, 0, &s, &err) == CC_OK);
    if (!s) return;
    int64_t run = 0, count = 0;
    CHECK(cc_store_find_resumable(s, "kill-test", &run, &err) == CC_OK && run > 0);
    CHECK(cc_store_count_results(s, run, -1, &count, &err) == CC_OK && count == acked);
    for (int i = 0; i < acked; i++) {
        char id[64];
        int has = 0;
        snprintf(id, sizeof id, "Relu(x=%dx8:f32)", i + 1);
        CHECK(cc_store_has_result(s, run, id, "cpu", CC_REGIME_RANDOM, &has, &err) == CC_OK &&
              has == 1);
    }
    double *smp = NULL;
    int ns = 0;
    CHECK(cc_store_load_samples(s, run, "Relu(x=1x8:f32)", "cpu", CC_REGIME_RANDOM, &smp, &ns,
                                &err) == CC_OK && ns == 3);
    free(smp);
    cc_store_close(s);
    CHECK(raw_int(path, "SELECT count(*) FROM cases WHERE op = 'Ghost'") == 0);
    CHECK(raw_int(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'") == 1);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cc_store_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) CC_TEST_SKIP("cannot make a temporary folder");

    test_round_trip();
    test_resumable();
    test_upgrade_from_v0();
    test_migration_steps();
    test_refusals();
    test_killed_writer();

    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return CC_TEST_RESULT();
}
