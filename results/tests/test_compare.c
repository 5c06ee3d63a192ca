/* test_compare.c — the regression gate: the Mann-Whitney U test against brute-force
 * enumeration and hand-worked values; then synthetic runs with planted truths: A/A runs
 * of one build (no regression), a 30% slower op family (regression, exit 1, exactly those
 * rows), a numerics regression with unchanged timing, improvements only (exit 4), nothing
 * in common and a different machine (not enough data, exit 3), the family rule (a lone
 * mover unconfirmed, a family of one judged) with thresholds from A/A history, the lone
 * rule only for a candidate from a quiet machine (a busy one's lone mover is noise), model
 * results, model latencies judged on their raw samples (a planted 30% slowdown flagged
 * with its U test, unconfirmed under a wide A/A history), a schema 3 database migrated
 * (its model results judged on p50 alone), run references, and an older database read
 * through an upgraded copy without touching it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "harness/cctest.h"
#include "results/compare.h"
#include "results/conformance.h"
#include "results/model_result.h"
#include "results/store_query.h"
#include "synth.h"

/* ---- the U test -------------------------------------------------------------------------- */

/* p-value by enumerating every way to choose which na of the pooled values form the first
 * sample (no ties): the share of splits with U at least as extreme, doubled. */
static double brute_p(const double *a, int na, const double *b, int nb)
{
    double pool[24];
    int n = na + nb;
    memcpy(pool, a, sizeof *a * (size_t)na);
    memcpy(pool + na, b, sizeof *b * (size_t)nb);
    double u_obs = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) u_obs += a[i] > b[j];
    double le = 0, ge = 0, total = 0;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        if (__builtin_popcount(mask) != na) continue;
        double u = 0;
        for (int i = 0; i < n; i++)
            if (mask & (1u << i))
                for (int j = 0; j < n; j++)
                    if (!(mask & (1u << j))) u += pool[i] > pool[j];
        total++;
        le += u <= u_obs;
        ge += u >= u_obs;
    }
    double p = 2 * fmin(le, ge) / total;
    return p > 1 ? 1 : p;
}

static void test_mwu(void)
{
    cc_mwu r;
    cc_err err = { 0 };
    /* complete separation, 5 vs 5: U = 0, P(U <= 0) = 1 / C(10,5) = 1/252, two-sided 2/252 */
    double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
    CHECK_OK(cc_mann_whitney(a, 5, b, 5, &r, &err));
    CHECK(r.exact);
    CHECK_NEAR(r.u, 0, 0);
    CHECK_NEAR(r.p, 2.0 / 252.0, 1e-15);
    CHECK_OK(cc_mann_whitney(b, 5, a, 5, &r, &err));
    CHECK_NEAR(r.u, 25, 0);
    CHECK_NEAR(r.p, 2.0 / 252.0, 1e-15);

    /* exact p against enumeration, random tie-free samples of several sizes */
    cc_rng rng;
    cc_rng_seed(&rng, 42);
    const int sizes[][2] = { { 3, 4 }, { 5, 5 }, { 6, 8 }, { 7, 9 }, { 2, 12 }, { 9, 9 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int rep = 0; rep < 4; rep++) {
            double x[16], y[16];
            int na = sizes[k][0], nb = sizes[k][1];
            for (int i = 0; i < na; i++) x[i] = cc_rng_normal(&rng) + 0.4 * rep;
            for (int i = 0; i < nb; i++) y[i] = cc_rng_normal(&rng);
            CHECK_OK(cc_mann_whitney(x, na, y, nb, &r, &err));
            CHECK(r.exact);
            CHECK_NEAR(r.p, brute_p(x, na, y, nb), 1e-12);
        }
    }

    /* ties: normal approximation. a = {1,2,2,3}, b = {2,3,3,4}; pooled ranks: 1 -> 1,
     * the 2s share (2+3+4)/3 = 3, the 3s share (5+6+7)/3 = 6, 4 -> 8; rank sum of a =
     * 1 + 3 + 3 + 6 = 13, U = 13 - 4*5/2 = 3 (pair count: a=2 ties b=2 twice: 1; a=3 beats
     * b=2 and ties two 3s: 2). Mean 8. */
    double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 3, 4 };
    CHECK_OK(cc_mann_whitney(ta, 4, tb, 4, &r, &err));
    CHECK(!r.exact);
    CHECK_NEAR(r.u, 3.0, 1e-12);
    /* variance with ties: n1 n2 / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))), two groups
     * of 3: sum = 24 + 24 = 48, N = 8 -> 16/12 * (9 - 48/56); continuity 1/2 toward 8 */
    double var = 16.0 / 12.0 * (9.0 - 48.0 / 56.0);
    double z = (3.0 - 8.0 + 0.5) / sqrt(var);
    CHECK_NEAR(r.z, z, 1e-12);
    CHECK_NEAR(r.p, erfc(fabs(z) / sqrt(2.0)), 1e-12);

    /* identical samples: no evidence at all */
    double same[60];
    for (int i = 0; i < 60; i++) same[i] = 1.0;
    CHECK_OK(cc_mann_whitney(same, 30, same + 30, 30, &r, &err));
    CHECK_NEAR(r.p, 1.0, 0);

    /* large samples, 5% shift, normal approximation: clearly significant */
    double big_a[500], big_b[500];
    for (int i = 0; i < 500; i++) {
        big_a[i] = exp(0.02 * cc_rng_normal(&rng));
        big_b[i] = 1.05 * exp(0.02 * cc_rng_normal(&rng));
    }
    CHECK_OK(cc_mann_whitney(big_a, 500, big_b, 500, &r, &err));
    CHECK(!r.exact);
    CHECK(r.p < 1e-20);

    CHECK(cc_mann_whitney(a, 0, b, 5, &r, &err) == CC_ERR_ARG);
    double nan_a[] = { 1, NAN };
    CHECK(cc_mann_whitney(nan_a, 2, b, 5, &r, &err) == CC_ERR_ARG);
}

/* ---- synthetic runs ------------------------------------------------------------------------ */

#define N_CASES 24

static const char *const ops[] = { "Conv", "MatMul", "Relu", "Add" };

/* The baseline's rows: 6 cases per op, medians 10 us .. 1 ms, 3% log-normal spread. */
static void base_rows(synth_row *rows, char ids[][64])
{
    for (int i = 0; i < N_CASES; i++) {
        const char *op = ops[i / 6];
        snprintf(ids[i], 64, "%s(x=%dx%d:f32)", op, 1 + i % 6, 8 + i);
        rows[i] = (synth_row){ ids[i], op, "f32", "cpu", CC_PASSED, 0.05, 1e-5 * (1 + 3 * i), 0.03, 200 };
    }
}

static cc_comparison *compare(cc_db *db, int64_t a, int64_t b, const cc_compare_options *o)
{
    cc_comparison *c = NULL;
    cc_err err = { 0 };
    cc_status st = cc_compare_runs(db, a, db, b, o, &c, &err);
    if (st != CC_OK) fprintf(stderr, "compare: %s\n", err.msg);
    CHECK(st == CC_OK);
    return c;
}

static const cc_compare_row *row_of(const cc_comparison *c, const char *case_id, cc_regime regime)
{
    for (int i = 0; i < c->n_rows; i++)
        if (strcmp(c->rows[i].case_id, case_id) == 0 && c->rows[i].regime == regime) return &c->rows[i];
    return NULL;
}

/* Records run's conditions as the runner does at its end: others_cpu is the share of the
 * machine other processes used (>= 0.25: busy, cc_env_is_busy). */
static void set_conditions(cc_db *db, int64_t run, double others_cpu)
{
    cc_env_state at_end = { .load1 = NAN, .mhz = NAN, .max_mhz = NAN };
    cc_err err = { 0 };
    CHECK_OK(cc_store_run_conditions(db, run, &at_end, others_cpu, &err));
}

static void test_runs(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "cmp.db");
    cc_rng rng;
    cc_rng_seed(&rng, 7);
    cc_run_info info;
    synth_row rows[N_CASES], mod[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);

    /* A/A: two runs of one build from one distribution */
    synth_run_info(&info, "aa", "abc123");
    int64_t a1 = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    int64_t a2 = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    cc_comparison *c = compare(db, a1, a2, NULL);
    CHECK(c->outcome == CC_OUTCOME_NO_CHANGE);
    CHECK(cc_compare_exit_code(c->outcome) == 0);
    CHECK(c->n_rows == 2 * N_CASES);      /* exact and random regimes */
    CHECK(c->n_timed == N_CASES);
    CHECK(c->n_stable_diffs == 0);
    cc_comparison_free(c);

    /* a 30% slower Conv family: exactly the 6 Conv rows regress */
    memcpy(mod, rows, sizeof mod);
    for (int i = 0; i < 6; i++) mod[i].median *= 1.3;
    synth_run_info(&info, "slow", "def456");
    int64_t slow = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    c = compare(db, a1, slow, NULL);
    CHECK(c->outcome == CC_OUTCOME_REGRESSION);
    CHECK(cc_compare_exit_code(c->outcome) == 1);
    CHECK(c->n_regressions == 6);
    for (int i = 0; i < c->n_rows; i++) {
        const cc_compare_row *r = &c->rows[i];
        int conv = strcmp(r->op, "Conv") == 0 && r->regime == CC_REGIME_RANDOM;
        CHECK((r->change_kind == CC_CHANGE_REGRESSION) == conv);
        if (conv) {
            CHECK(r->timing_change == CC_CHANGE_REGRESSION);
            CHECK(r->verdict_change == CC_CHANGE_NONE);
            CHECK(r->p < 1e-10);
            CHECK(r->change > 0.2 && r->change < 0.4);
        }
    }
    cc_comparison_free(c);

    /* numerics regressions with unchanged timing: a verdict and an accuracy change */
    memcpy(mod, rows, sizeof mod);
    mod[7].verdict = CC_FAILED;          /* MatMul #1: passed -> failed */
    mod[13].bound_ratio = 0.6;           /* Relu #1: 0.05 -> 0.6: 12x and above 0.25 */
    mod[14].bound_ratio = 0.09;          /* Relu #2: 0.05 -> 0.09: under the floor, unchanged */
    synth_run_info(&info, "numerics", "def456");
    int64_t num = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    c = compare(db, a1, num, NULL);
    CHECK(c->outcome == CC_OUTCOME_REGRESSION);
    const cc_compare_row *r = row_of(c, ids[7], CC_REGIME_EXACT);
    CHECK(r && r->verdict_change == CC_CHANGE_REGRESSION && r->change_kind == CC_CHANGE_REGRESSION);
    r = row_of(c, ids[7], CC_REGIME_RANDOM);
    CHECK(r && r->verdict_change == CC_CHANGE_REGRESSION && isnan(r->p)); /* timing not judged */
    r = row_of(c, ids[13], CC_REGIME_RANDOM);
    CHECK(r && r->accuracy_change == CC_CHANGE_REGRESSION && r->timing_change == CC_CHANGE_NONE);
    r = row_of(c, ids[14], CC_REGIME_RANDOM);
    CHECK(r && r->change_kind == CC_CHANGE_NONE);
    CHECK(c->n_regressions == 4);        /* MatMul #1 in both regimes, Relu #1 in both */
    cc_comparison_free(c);

    /* the reverse direction of the verdict change is an improvement, exit 4 */
    c = compare(db, num, a2, NULL);
    CHECK(c->outcome == CC_OUTCOME_IMPROVEMENT);
    CHECK(cc_compare_exit_code(c->outcome) == 4);
    CHECK(c->n_regressions == 0 && c->n_improvements == 4);
    cc_comparison_free(c);

    /* a 30% faster op family alone: improvement */
    memcpy(mod, rows, sizeof mod);
    for (int i = 18; i < 24; i++) mod[i].median /= 1.3;
    int64_t fast = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    c = compare(db, a1, fast, NULL);
    CHECK(c->outcome == CC_OUTCOME_IMPROVEMENT);
    CHECK(c->n_improvements == 6);
    cc_comparison_free(c);

    /* failed -> crashed stays "changed", not judged */
    memcpy(mod, rows, sizeof mod);
    mod[7].verdict = CC_CRASHED;
    int64_t crash = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    c = compare(db, num, crash, NULL);
    r = row_of(c, ids[7], CC_REGIME_EXACT);
    CHECK(r && r->verdict_change == CC_CHANGE_NEUTRAL && r->change_kind == CC_CHANGE_NEUTRAL);
    cc_comparison_free(c);

    /* no case in common: not enough data, exit 3 */
    synth_row other[2] = { { "Gemm(a=2x2:f32,b=2x2)", "Gemm", "f32", "cpu", CC_PASSED, 0, 1e-5, 0.03, 50 },
                           { "Gemm(a=4x4:f32,b=4x4)", "Gemm", "f32", "cpu", CC_PASSED, 0, 1e-5, 0.03, 50 } };
    int64_t disjoint = synth_store_run(db, &info, "Synthetic CPU", other, 2, &rng);
    c = compare(db, a1, disjoint, NULL);
    CHECK(c->outcome == CC_OUTCOME_NO_DATA);
    CHECK(cc_compare_exit_code(c->outcome) == 5);
    CHECK(strstr(c->reason, "in common") != NULL);
    cc_comparison_free(c);

    /* another machine: refused unless --cross-env; its hostname is volatile */
    synth_run_info(&info, "other-machine", "abc123");
    snprintf(info.cpu_model, sizeof info.cpu_model, "Other CPU 1");
    snprintf(info.hostname, sizeof info.hostname, "host-b");
    int64_t elsewhere = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    c = compare(db, a1, elsewhere, NULL);
    CHECK(c->outcome == CC_OUTCOME_NO_DATA);
    CHECK(c->n_stable_diffs == 1);
    CHECK(strstr(c->reason, "cpu model") != NULL);
    int volatile_host = 0;
    for (int i = 0; i < c->n_diffs; i++) volatile_host |= !c->diffs[i].stable && strcmp(c->diffs[i].what, "hostname") == 0;
    CHECK(volatile_host);
    cc_comparison_free(c);
    cc_compare_options o;
    cc_compare_options_default(&o);
    o.cross_env = 1;
    c = compare(db, a1, elsewhere, &o);
    CHECK(c->outcome == CC_OUTCOME_NO_CHANGE);
    cc_comparison_free(c);

    /* a different device on the same target is a stable difference too */
    synth_run_info(&info, "other-device", "abc123");
    int64_t dev = synth_store_run(db, &info, "Another device", rows, N_CASES, &rng);
    c = compare(db, a1, dev, NULL);
    CHECK(c->outcome == CC_OUTCOME_NO_DATA);
    CHECK(strstr(c->reason, "device of target cpu") != NULL);
    cc_comparison_free(c);

    /* timing off: the 30% slowdown is not judged */
    o.cross_env = 0;
    o.timing = 0;
    c = compare(db, a1, slow, &o);
    CHECK(c->outcome == CC_OUTCOME_NO_CHANGE);
    cc_comparison_free(c);

    cc_store_close(db);
}

/* The family rule: a whole op family that moves is judged, a result that moves alone is
 * unconfirmed, a family of one is confirmed by its own change; and thresholds from the
 * machine's A/A history: a family whose level wanders between A/A runs gets a wide one. */
static void test_noise(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "noise.db");
    cc_rng rng;
    cc_rng_seed(&rng, 99);
    synth_row rows[N_CASES + 1], mod[N_CASES + 1];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    rows[N_CASES] = (synth_row){ "Gemm(a=8x8:f32,b=8x8)", "Gemm", "f32", "cpu", CC_PASSED, 0.05, 2e-5, 0.03, 200 };
    cc_run_info info;
    synth_run_info(&info, "aa", "build1");
    /* four A/A runs in which the Conv family (cases 0-5) wanders by up to 25% between runs */
    const double wander[4] = { 1.0, 1.25, 0.95, 1.1 };
    int64_t ids_aa[4];
    for (int k = 0; k < 4; k++) {
        memcpy(mod, rows, sizeof mod);
        for (int i = 0; i < 6; i++) mod[i].median *= wander[k];
        ids_aa[k] = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES + 1, &rng);
    }
    /* candidate: the Conv and MatMul families 15% slower than the baseline (run 0), one Relu
     * case 40% slower alone, the lone Gemm case 30% slower */
    memcpy(mod, rows, sizeof mod);
    for (int i = 0; i < 12; i++) mod[i].median *= 1.15;
    mod[12].median *= 1.4;
    mod[N_CASES].median *= 1.3;
    synth_run_info(&info, "cand", "build2");
    int64_t cand = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES + 1, &rng);
    set_conditions(db, cand, 0.05);                        /* a quiet machine: lone rule on */

    cc_compare_options o;
    cc_compare_options_default(&o);
    CHECK(o.noise_auto == 1);
    o.noise_auto = 0;                                      /* the 5% family floor alone */
    cc_comparison *c = compare(db, ids_aa[0], cand, &o);
    CHECK(c->noise_history == 0);
    CHECK(c->n_regressions == 13);                         /* Conv 6, MatMul 6, Gemm */
    CHECK(c->n_unconfirmed == 1);
    const cc_compare_row *relu = row_of(c, ids[12], CC_REGIME_RANDOM);
    CHECK(relu && relu->unconfirmed == 1 && relu->change_kind == CC_CHANGE_NONE && relu->change > 0.3);
    CHECK(relu && relu->family_rows == 6 && fabs(relu->family_change) < 0.05);
    CHECK(relu && relu->p < 1e-10);                        /* the row test alone would flag it */
    CHECK(relu && relu->lone == 0 && isnan(relu->own_spread));   /* no history: never lone */
    const cc_compare_row *gemm = row_of(c, "Gemm(a=8x8:f32,b=8x8)", CC_REGIME_RANDOM);
    CHECK(gemm && gemm->family_rows == 1 && gemm->timing_change == CC_CHANGE_REGRESSION);
    CHECK(gemm && gemm->family_change == gemm->change);
    cc_comparison_free(c);

    o.noise_auto = 1;
    c = compare(db, ids_aa[0], cand, &o);
    CHECK(c->noise_history == 4);
    const cc_compare_row *r0 = row_of(c, ids[0], CC_REGIME_RANDOM), *r6 = row_of(c, ids[6], CC_REGIME_RANDOM);
    CHECK(r0 && r6);
    if (r0 && r6) {
        /* Conv: levels 0 (the baseline), log 1.25, log 0.95, log 1.1; threshold 2 x the spread:
         * (1.25 / 0.95)^2 - 1 = 73%: the 15% move is within this machine's noise */
        CHECK_NEAR(r0->family_threshold, pow(1.25 / 0.95, 2) - 1, 1e-9);
        CHECK(r0->noise_runs == 4 && r0->family_rows == 6);
        CHECK(r0->change_kind == CC_CHANGE_NONE && r0->unconfirmed == 1);
        /* MatMul: identical levels in the history -> the 5% floor: flagged */
        CHECK_NEAR(r6->family_threshold, 0.05, 1e-12);
        CHECK(r6->change_kind == CC_CHANGE_REGRESSION);
        CHECK(r6->change > 0.1 && r6->family_change > 0.1);
    }
    /* the Relu case moved 40% alone, with overwhelming p, against a flat A/A history of
     * its own: strong evidence, judged alone (a kernel off its fast path); without history
     * (above) the same case stays unconfirmed */
    relu = row_of(c, ids[12], CC_REGIME_RANDOM);
    CHECK(relu && relu->lone == 1 && relu->change_kind == CC_CHANGE_REGRESSION && relu->unconfirmed == 0);
    CHECK(relu && relu->own_spread == 0);
    CHECK(r0 && r0->lone == 0 && r0->own_spread > 0.25);   /* Conv: 15% is within its own noise */
    CHECK(c->n_regressions == 8);                          /* MatMul 6, Gemm, the Relu case */
    CHECK(c->n_unconfirmed == 6);                          /* Conv 6 */
    CHECK(c->outcome == CC_OUTCOME_REGRESSION);
    cc_comparison_free(c);
    o.lone_alpha = 0;                                      /* the lone rule off */
    c = compare(db, ids_aa[0], cand, &o);
    CHECK(c->n_regressions == 7 && c->n_unconfirmed == 7);
    cc_comparison_free(c);

    /* the history is the baseline's build only: from the candidate's build there is none */
    c = compare(db, cand, ids_aa[1], &o);
    CHECK(c->noise_history == 1);                          /* the baseline alone */
    cc_comparison_free(c);
    cc_store_close(db);
}

/* The lone rule under load (issue 12): on a busy machine contention can slow one case's
 * whole measurement window, so an unchanged build's candidate shows one case 2.1x slower
 * with an overwhelming U test against a quiet, flat A/A history (own spread ~0), the rest
 * of its family still. From a busy candidate that is unconfirmed (no regression, exit 0);
 * from a quiet one the same move is judged alone; unknown conditions count as busy; and a
 * whole family slowed 30% in a busy candidate is still a regression. */
static void test_lone_busy(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "busy.db");
    cc_rng rng;
    cc_rng_seed(&rng, 12);
    synth_row rows[N_CASES], mod[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    cc_run_info info;
    synth_run_info(&info, "aa", "quiet1");
    int64_t base = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    for (int k = 0; k < 3; k++) {                          /* the A/A history: quiet and flat */
        int64_t aa = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
        set_conditions(db, aa, 0.05);
    }
    memcpy(mod, rows, sizeof mod);
    mod[3].median *= 2.1;                                  /* Conv #3: its window hit */
    synth_run_info(&info, "cand", "quiet2");
    int64_t busy = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    set_conditions(db, busy, 0.6);
    int64_t quiet = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    set_conditions(db, quiet, 0.05);
    int64_t unknown = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    for (int i = 6; i < 12; i++) mod[i].median *= 1.3;    /* and the MatMul family 30% slower */
    int64_t busy_slow = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    set_conditions(db, busy_slow, 0.6);

    cc_comparison *c = compare(db, base, busy, NULL);
    CHECK(c->cand.busy == 1 && c->lone_rule == 0 && c->noise_history == 4);
    const cc_compare_row *r = row_of(c, ids[3], CC_REGIME_RANDOM);
    CHECK(r != NULL);
    if (r) {
        /* every piece of the lone rule's own evidence holds, but the candidate ran busy */
        CHECK(r->p < 1e-10 && r->change > 0.9 && fabs(r->family_change) < 0.05);
        CHECK(r->noise_runs == 4 && r->own_spread < 0.05);
        CHECK(r->lone == 0 && r->unconfirmed == 1 && r->change_kind == CC_CHANGE_NONE);
    }
    CHECK(c->n_regressions == 0 && c->n_improvements == 0 && c->n_unconfirmed == 1);
    CHECK(c->outcome == CC_OUTCOME_NO_CHANGE && cc_compare_exit_code(c->outcome) == 0);
    cc_comparison_free(c);

    c = compare(db, base, quiet, NULL);
    CHECK(c->cand.busy == 0 && c->lone_rule == 1);
    r = row_of(c, ids[3], CC_REGIME_RANDOM);
    CHECK(r && r->lone == 1 && r->unconfirmed == 0 && r->change_kind == CC_CHANGE_REGRESSION);
    CHECK(c->n_regressions == 1 && c->outcome == CC_OUTCOME_REGRESSION);
    cc_comparison_free(c);

    c = compare(db, base, unknown, NULL);                  /* conditions never recorded */
    CHECK(c->cand.busy == -1 && c->lone_rule == 0);
    CHECK(c->n_regressions == 0 && c->n_unconfirmed == 1 && c->outcome == CC_OUTCOME_NO_CHANGE);
    cc_comparison_free(c);

    c = compare(db, base, busy_slow, NULL);
    CHECK(c->lone_rule == 0 && c->n_regressions == 6 && c->outcome == CC_OUTCOME_REGRESSION);
    for (int i = 6; i < 12; i++) {
        r = row_of(c, ids[i], CC_REGIME_RANDOM);
        CHECK(r && r->change_kind == CC_CHANGE_REGRESSION && r->lone == 0 && r->family_change > 0.2);
    }
    r = row_of(c, ids[3], CC_REGIME_RANDOM);
    CHECK(r && r->unconfirmed == 1 && r->change_kind == CC_CHANGE_NONE);
    cc_comparison_free(c);
    cc_store_close(db);
}

/* The reference loop: a candidate whose machine ran 18% slower everywhere (the reference
 * loop too) is no regression, each row's speed is that 1.18 and its change ~0; a 30% slower
 * Conv family on that slower machine is still six regressions; without references on one
 * side the samples are taken as they are (speed 1) and the machine's slowdown shows. */
static void test_reference_speed(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "speed.db");
    cc_rng rng;
    cc_rng_seed(&rng, 21);
    synth_row rows[N_CASES], mod[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    for (int i = 0; i < N_CASES; i++) rows[i].ref = 1.2e-6;
    cc_run_info info;
    synth_run_info(&info, "aa", "quiet1");
    int64_t base = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    for (int k = 0; k < 3; k++) synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    memcpy(mod, rows, sizeof mod);
    for (int i = 0; i < N_CASES; i++) {
        mod[i].median *= 1.18;
        mod[i].ref *= 1.18;
    }
    synth_run_info(&info, "cand", "quiet2");
    int64_t slow_machine = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    for (int i = 0; i < 6; i++) mod[i].median *= 1.3;      /* the Conv family, on top */
    int64_t slow_conv = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    for (int i = 0; i < N_CASES; i++) mod[i].ref = 0;
    int64_t no_refs = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);

    cc_comparison *c = compare(db, base, slow_machine, NULL);
    CHECK(c->n_regressions == 0 && c->outcome == CC_OUTCOME_NO_CHANGE);
    const cc_compare_row *r = row_of(c, ids[8], CC_REGIME_RANDOM);
    CHECK(r && fabs(r->speed - 1.18) < 1e-9 && fabs(r->change) < 0.03);
    cc_comparison_free(c);

    c = compare(db, base, slow_conv, NULL);
    CHECK(c->n_regressions == 6 && c->outcome == CC_OUTCOME_REGRESSION);
    for (int i = 0; i < N_CASES; i++) {
        r = row_of(c, ids[i], CC_REGIME_RANDOM);
        CHECK(r && (r->change_kind == CC_CHANGE_REGRESSION) == (i < 6));
        if (r && i < 6) CHECK(fabs(r->change - 0.3) < 0.05);
    }
    cc_comparison_free(c);

    c = compare(db, base, no_refs, NULL);
    r = row_of(c, ids[8], CC_REGIME_RANDOM);
    CHECK(r && r->speed == 1 && r->change > 0.15);
    CHECK(c->n_regressions == N_CASES);
    cc_comparison_free(c);
    cc_store_close(db);
}

/* The A/A history is read like the candidate: an A/A run made in one of the machine's slow
 * periods (every median and its reference loop 30% slower) does not widen the family
 * thresholds, so a 30% slower Conv family is still a regression. Without the references
 * (the same runs stored without them) that history raises the thresholds past it. */
static void test_history_speed(void)
{
    for (int with_refs = 1; with_refs >= 0; with_refs--) {
        char path[512];
        cc_db *db = synth_open(path, sizeof path, with_refs ? "hist-speed.db" : "hist-raw.db");
        cc_rng rng;
        cc_rng_seed(&rng, 23);
        synth_row rows[N_CASES], mod[N_CASES];
        char ids[N_CASES][64];
        base_rows(rows, ids);
        for (int i = 0; i < N_CASES; i++) rows[i].ref = with_refs ? 1.2e-6 : 0;
        cc_run_info info;
        synth_run_info(&info, "aa", "quiet1");
        int64_t base = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
        for (int k = 0; k < 2; k++) synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
        memcpy(mod, rows, sizeof mod);
        for (int i = 0; i < N_CASES; i++) {
            mod[i].median *= 1.3;
            mod[i].ref *= 1.3;
        }
        synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng); /* the slow period */
        memcpy(mod, rows, sizeof mod);
        for (int i = 0; i < 6; i++) mod[i].median *= 1.3;                 /* the Conv family */
        synth_run_info(&info, "cand", "quiet2");
        int64_t slow_conv = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
        cc_comparison *c = compare(db, base, slow_conv, NULL);
        const cc_compare_row *r = row_of(c, ids[0], CC_REGIME_RANDOM);
        CHECK(r && r->noise_runs == 4);
        if (with_refs) {
            CHECK(c->ref_unsteady == 0);
            CHECK(c->n_regressions == 6 && c->outcome == CC_OUTCOME_REGRESSION);
            CHECK(r && r->family_threshold < 0.15);
        } else {
            CHECK(c->n_regressions == 0);
            CHECK(r && r->family_threshold > 0.5);
        }
        cc_comparison_free(c);
        cc_store_close(db);
    }
}

/* A reference loop that moves without the cases (one A/A run's loop 1.3x slower while its
 * cases ran as fast as ever; the candidate's too): scaling by it would widen the A/A
 * history and hide the candidate's slower Conv family, so compare judges unscaled
 * (ref_unsteady) and finds the 6 Conv regressions. Where the loop moved with the cases
 * (test_history_speed) the scaling stays. */
static void test_ref_unsteady(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "ref-unsteady.db");
    cc_rng rng;
    cc_rng_seed(&rng, 31);
    synth_row rows[N_CASES], mod[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    for (int i = 0; i < N_CASES; i++) rows[i].ref = 1.2e-6;
    cc_run_info info;
    synth_run_info(&info, "aa", "quiet1");
    int64_t base = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    for (int k = 0; k < 2; k++) synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    memcpy(mod, rows, sizeof mod);
    for (int i = 0; i < N_CASES; i++) mod[i].ref *= 1.3;
    synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng); /* the loop alone slow */
    for (int i = 0; i < 6; i++) mod[i].median *= 1.3;                 /* the Conv family, loop slow too */
    synth_run_info(&info, "cand", "quiet2");
    int64_t slow_conv = synth_store_run(db, &info, "Synthetic CPU", mod, N_CASES, &rng);
    cc_comparison *c = compare(db, base, slow_conv, NULL);
    CHECK(c->ref_unsteady == 1);
    CHECK(c->n_regressions == 6 && c->outcome == CC_OUTCOME_REGRESSION);
    const cc_compare_row *r = row_of(c, ids[0], CC_REGIME_RANDOM);
    CHECK(r && r->speed == 1 && r->family_threshold < 0.15);
    cc_comparison_free(c);
    cc_store_close(db);
}

/* ONNX node tests: (test, target) in both runs judged by verdict class; tests in one run
 * only are counted, never judged. */
static void test_conformance_rows(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "conf.db");
    cc_rng rng;
    cc_rng_seed(&rng, 29);
    synth_row rows[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    cc_run_info info;
    synth_run_info(&info, "conf", "c1");
    int64_t base = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    synth_run_info(&info, "conf", "c2");
    int64_t cand = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
    static const struct {
        const char *test;
        cc_verdict base, cand;
    } tests[] = {
        { "test_relu", CC_PASSED, CC_FAILED },               /* regression */
        { "test_add", CC_FAILED, CC_PASSED },                /* improvement */
        { "test_exp", CC_UNSUPPORTED, CC_PASSED },           /* improvement: support gained */
        { "test_conv", CC_PASSED, CC_MISTRUSTED },           /* within the good class */
        { "test_tanh", CC_PASSED, CC_PASSED },               /* unchanged */
        { "test_sigmoid", CC_PASSED, CC_VERDICT_COUNT },     /* baseline only */
    };
    cc_err err = { 0 };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        cc_conformance_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.test, sizeof r.test, "%s", tests[i].test);
        snprintf(r.op, sizeof r.op, "Op%zu", i);
        snprintf(r.target, sizeof r.target, "cpu");
        r.ratio = NAN;
        r.verdict = tests[i].base;
        CHECK_OK(cc_store_put_conformance(db, base, &r, &err));
        if (tests[i].cand == CC_VERDICT_COUNT) continue;
        r.verdict = tests[i].cand;
        CHECK_OK(cc_store_put_conformance(db, cand, &r, &err));
    }
    cc_comparison *c = compare(db, base, cand, NULL);
    CHECK(c->n_crows == 5 && c->only_base_conf == 1 && c->only_cand_conf == 0);
    int reg = 0, imp = 0, neu = 0;
    for (int i = 0; i < c->n_crows; i++) {
        reg += c->crows[i].change_kind == CC_CHANGE_REGRESSION && !strcmp(c->crows[i].test, "test_relu");
        imp += c->crows[i].change_kind == CC_CHANGE_IMPROVEMENT;
        neu += c->crows[i].change_kind == CC_CHANGE_NEUTRAL && !strcmp(c->crows[i].test, "test_conv");
    }
    CHECK(reg == 1 && imp == 2 && neu == 1);
    CHECK(c->outcome == CC_OUTCOME_REGRESSION && c->n_regressions >= 1);
    cc_comparison_free(c);
    cc_store_close(db);
}

static void test_models(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "models.db");
    cc_err err = { 0 };
    cc_rng rng;
    cc_rng_seed(&rng, 5);
    synth_row rows[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    cc_run_info info;
    synth_run_info(&info, "m", "b1");
    int64_t runs[2];
    for (int k = 0; k < 2; k++) {
        runs[k] = synth_store_run(db, &info, "Synthetic CPU", rows, N_CASES, &rng);
        const char *prec[3] = { "f32", "f16", "int8" };
        for (int p = 0; p < 3; p++) {
            cc_model_result m;
            memset(&m, 0, sizeof m);
            snprintf(m.model, sizeof m.model, "resnet50");
            snprintf(m.target, sizeof m.target, "cpu");
            snprintf(m.precision, sizeof m.precision, "%s", prec[p]);
            m.verdict = CC_PASSED;
            m.top1 = 1.0;
            m.top5 = m.cosine = 1.0;
            m.det_precision = m.det_recall = m.det_map50 = NAN;
            m.conf_cosine = m.conf_sqnr_db = m.conf_top1 = m.sqnr_db = NAN;
            m.lat_samples = 20;
            m.lat_p50 = m.lat_p90 = m.lat_p99 = 0.01;
            m.throughput = 100;
            if (k == 1 && p == 1) m.lat_p50 = 0.013;                 /* f16 30% slower */
            if (k == 1 && p == 2) m.top1 = 0.95;                     /* int8 loses 5 points */
            CHECK_OK(cc_store_put_model_result(db, runs[k], &m, NULL, 0, &err));
        }
    }
    cc_comparison *c = compare(db, runs[0], runs[1], NULL);
    CHECK(c->n_mrows == 3);
    CHECK(c->outcome == CC_OUTCOME_REGRESSION);
    CHECK(c->n_regressions == 2);
    for (int i = 0; i < c->n_mrows; i++) {
        const cc_compare_model_row *m = &c->mrows[i];
        if (strcmp(m->precision, "f16") == 0) CHECK(m->timing_change == CC_CHANGE_REGRESSION);
        else if (strcmp(m->precision, "int8") == 0)
            CHECK(m->accuracy_change == CC_CHANGE_REGRESSION && strcmp(m->metric, "top1") == 0);
        else CHECK(m->change_kind == CC_CHANGE_NONE);
    }
    cc_comparison_free(c);
    cc_store_close(db);
}

/* One model result of resnet50 on cpu in precision prec with 30 latency samples around
 * p50 (uniform within +-2%). */
static void put_model_samples(cc_db *db, int64_t run, const char *prec, double p50, cc_rng *rng)
{
    cc_model_result m;
    memset(&m, 0, sizeof m);
    snprintf(m.model, sizeof m.model, "resnet50");
    snprintf(m.target, sizeof m.target, "cpu");
    snprintf(m.precision, sizeof m.precision, "%s", prec);
    snprintf(m.plan, sizeof m.plan, "cpu plan of %s", prec);
    m.verdict = CC_PASSED;
    m.top1 = m.top5 = m.cosine = 1.0;
    m.det_precision = m.det_recall = m.det_map50 = NAN;
    m.conf_cosine = m.conf_sqnr_db = m.conf_top1 = m.sqnr_db = NAN;
    double x[30];
    for (int i = 0; i < 30; i++) x[i] = p50 * (1 + 0.04 * (cc_rng_uniform(rng) - 0.5));
    m.lat_samples = 30;
    m.lat_p50 = m.lat_p90 = m.lat_p99 = p50;
    m.throughput = 1 / p50;
    cc_err err = { 0 };
    CHECK_OK(cc_store_put_model_result(db, run, &m, x, 30, &err));
}

static void test_model_samples(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "msamples.db");
    cc_err err = { 0 };
    cc_rng rng;
    cc_rng_seed(&rng, 8);
    cc_run_info info;
    synth_run_info(&info, "m", "ms1");
    int64_t base = synth_store_run(db, &info, "Synthetic CPU", NULL, 0, &rng);
    cc_run_info other;
    synth_run_info(&other, "m", "ms2");   /* another build: never part of ms1's A/A history */
    int64_t cand = synth_store_run(db, &other, "Synthetic CPU", NULL, 0, &rng);
    put_model_samples(db, base, "f32", 0.010, &rng);
    put_model_samples(db, base, "f16", 0.020, &rng);
    put_model_samples(db, cand, "f32", 0.010, &rng);
    put_model_samples(db, cand, "f16", 0.026, &rng);      /* 30% slower */
    /* stored as they were put, replacing samples and all */
    put_model_samples(db, cand, "f32", 0.010, &rng);
    double *x = NULL;
    int n = 0;
    CHECK_OK(cc_store_load_model_samples(db, cand, "resnet50", "cpu", "f32", &x, &n, &err));
    CHECK(n == 30 && x && fabs(x[0] / 0.010 - 1) <= 0.02);
    free(x);
    cc_model_result *mr = NULL;
    CHECK_OK(cc_store_load_model_results(db, cand, &mr, &n, &err));
    CHECK(n == 2 && strcmp(mr[0].plan, "cpu plan of f16") == 0);
    free(mr);

    cc_comparison *c = compare(db, base, cand, NULL);
    CHECK(c->n_mrows == 2 && c->outcome == CC_OUTCOME_REGRESSION && c->n_regressions == 1);
    for (int i = 0; i < c->n_mrows; i++) {
        const cc_compare_model_row *m = &c->mrows[i];
        CHECK(m->base_n == 30 && m->cand_n == 30 && !isnan(m->p));
        if (strcmp(m->precision, "f16") == 0) {
            CHECK(m->timing_change == CC_CHANGE_REGRESSION && m->p < 1e-6);
            CHECK(fabs(m->change - 0.3) < 0.05);
            CHECK(m->noise_runs == 0 && fabs(m->family_threshold - 0.05) < 1e-12);
        } else {
            CHECK(m->timing_change == CC_CHANGE_NONE && m->unconfirmed == 0);
        }
    }
    cc_comparison_free(c);

    /* an A/A history of this build whose f16 latency moved by up to 20%: the threshold is
     * raised to 2 x that spread and the 30% slowdown is unconfirmed */
    int64_t aa1 = synth_store_run(db, &info, "Synthetic CPU", NULL, 0, &rng);
    int64_t aa2 = synth_store_run(db, &info, "Synthetic CPU", NULL, 0, &rng);
    put_model_samples(db, aa1, "f16", 0.020 * 1.2, &rng);
    put_model_samples(db, aa2, "f16", 0.020 * 0.9, &rng);
    int64_t cand2 = synth_store_run(db, &other, "Synthetic CPU", NULL, 0, &rng);
    put_model_samples(db, cand2, "f16", 0.026, &rng);
    c = compare(db, base, cand2, NULL);
    CHECK(c->n_mrows == 1 && c->outcome == CC_OUTCOME_NO_CHANGE && c->n_unconfirmed == 1);
    if (c->n_mrows == 1) {
        CHECK(c->mrows[0].unconfirmed == 1 && c->mrows[0].noise_runs == 3);
        CHECK(fabs(c->mrows[0].family_threshold - expm1(2 * log(1.2 / 0.9))) < 1e-9);
    }
    cc_comparison_free(c);
    cc_compare_options o;
    cc_compare_options_default(&o);
    o.noise_auto = 0;
    c = compare(db, base, cand2, &o);
    CHECK(c->outcome == CC_OUTCOME_REGRESSION);
    cc_comparison_free(c);
    cc_store_close(db);

    /* schema 3 (no plans, no model samples) migrates to the current schema: the model
     * results stay, without plan or samples, and their latency is judged on p50 alone */
    sqlite3 *raw = NULL;
    CHECK(sqlite3_open(path, &raw) == SQLITE_OK);
    CHECK(sqlite3_exec(raw, "PRAGMA journal_mode = DELETE;" SYNTH_DOWNGRADE_TO_V3, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(raw);
    db = NULL;
    CHECK(cc_store_open(path, 1, &db, &err) == CC_ERR_DB && strstr(err.msg, "older") != NULL);
    CHECK_OK(cc_store_open(path, 0, &db, &err));
    if (!db) return;
    CHECK(cc_store_schema_version(db) == CC_STORE_SCHEMA_VERSION && CC_STORE_SCHEMA_VERSION == 11);
    CHECK_OK(cc_store_load_model_results(db, cand, &mr, &n, &err));
    CHECK(n == 2 && mr[0].plan[0] == '\0' && mr[1].lat_p50 == 0.010 && mr[1].lat_device_timer == 0);
    free(mr);
    CHECK_OK(cc_store_load_model_samples(db, cand, "resnet50", "cpu", "f16", &x, &n, &err));
    CHECK(n == 0 && x == NULL);
    c = compare(db, base, cand, &o);
    CHECK(c->outcome == CC_OUTCOME_REGRESSION && c->n_mrows == 2);
    for (int i = 0; i < c->n_mrows; i++) {
        CHECK(isnan(c->mrows[i].p) && c->mrows[i].base_n == 30);
        if (strcmp(c->mrows[i].precision, "f16") == 0) CHECK(c->mrows[i].timing_change == CC_CHANGE_REGRESSION);
    }
    cc_comparison_free(c);
    /* new results are stored with samples again */
    put_model_samples(db, cand, "bf16", 0.015, &rng);
    CHECK_OK(cc_store_load_model_samples(db, cand, "resnet50", "cpu", "bf16", &x, &n, &err));
    CHECK(n == 30);
    free(x);
    cc_store_close(db);
}

static void test_refs(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "refs.db");
    cc_err err = { 0 };
    cc_rng rng;
    cc_rng_seed(&rng, 3);
    synth_row rows[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    cc_run_info info;
    int64_t id[3];
    const char *tags[3] = { "nightly", "v1.2", "nightly" };
    const char *commits[3] = { "1111aaaa", "2222bbbb", "3333cccc" };
    for (int k = 0; k < 3; k++) {
        synth_run_info(&info, tags[k], commits[k]);
        id[k] = synth_store_run(db, &info, "Synthetic CPU", rows, 2, &rng);
    }
    cc_run_info got;
    CHECK_OK(cc_store_get_run(db, id[1], &got, &err));
    int64_t r = -1;
    CHECK_OK(cc_store_resolve_run(db, "latest", &r, &err));
    CHECK(r == id[2]);
    CHECK_OK(cc_store_resolve_run(db, "latest~1", &r, &err));
    CHECK(r == id[1]);
    CHECK_OK(cc_store_resolve_run(db, "latest~2", &r, &err));
    CHECK(r == id[0]);
    CHECK_OK(cc_store_resolve_run(db, "latest~3", &r, &err));
    CHECK(r == 0);
    char idtext[32];
    snprintf(idtext, sizeof idtext, "%lld", (long long)id[0]);
    CHECK_OK(cc_store_resolve_run(db, idtext, &r, &err));
    CHECK(r == id[0]);
    CHECK_OK(cc_store_resolve_run(db, "nightly", &r, &err));
    CHECK(r == id[2]);                   /* the latest run with the tag */
    CHECK_OK(cc_store_resolve_run(db, "v1.2", &r, &err));
    CHECK(r == id[1]);
    char prefix[9];
    snprintf(prefix, sizeof prefix, "%.8s", got.uid);
    CHECK_OK(cc_store_resolve_run(db, prefix, &r, &err));
    CHECK(r == id[1]);
    CHECK_OK(cc_store_resolve_run(db, "2222", &r, &err));   /* a git commit prefix */
    CHECK(r == id[1]);
    CHECK_OK(cc_store_resolve_run(db, "nosuchrun", &r, &err));
    CHECK(r == 0);
    CHECK(cc_store_resolve_run(db, "latest~x", &r, &err) == CC_ERR_ARG);
    CHECK(cc_store_resolve_run(db, "", &r, &err) == CC_ERR_ARG);
    cc_store_close(db);
}

/* An older database is read through an upgraded copy; the file stays byte-identical. */
static void test_older_schema(void)
{
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "old.db");
    cc_err err = { 0 };
    cc_rng rng;
    cc_rng_seed(&rng, 1);
    synth_row rows[N_CASES];
    char ids[N_CASES][64];
    base_rows(rows, ids);
    cc_run_info info;
    synth_run_info(&info, "old", "c0");
    synth_store_run(db, &info, "Synthetic CPU", rows, 4, &rng);
    cc_store_close(db);
    sqlite3 *raw = NULL;
    CHECK(sqlite3_open(path, &raw) == SQLITE_OK);
    CHECK(sqlite3_exec(raw, "PRAGMA journal_mode = DELETE;" SYNTH_DOWNGRADE_TO_V1,
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(raw);
    FILE *f = fopen(path, "rb");
    static unsigned char before[1 << 20], after[1 << 20];
    size_t nb = fread(before, 1, sizeof before, f);
    fclose(f);

    CHECK(cc_store_open(path, 1, &db, &err) == CC_ERR_DB);   /* the plain read-only open refuses */
    char snap[512];
    CHECK_OK(cc_store_open_readonly(path, &db, snap, sizeof snap, &err));
    CHECK(snap[0] != '\0');
    int64_t id = 0;
    CHECK_OK(cc_store_resolve_run(db, "latest", &id, &err));
    cc_result *res = NULL;
    int n = 0;
    CHECK_OK(cc_store_load_results(db, id, &res, &n, &err));
    CHECK(n == 8);
    free(res);
    cc_model_result *mr = NULL;
    CHECK_OK(cc_store_load_model_results(db, id, &mr, &n, &err));  /* the table exists in the copy */
    CHECK(n == 0);
    cc_store_close(db);
    cc_store_remove_snapshot(snap);
    CHECK(access(snap, F_OK) != 0);
    f = fopen(path, "rb");
    size_t na = fread(after, 1, sizeof after, f);
    fclose(f);
    CHECK(na == nb && memcmp(before, after, nb) == 0);

    /* a current database is opened directly, no copy */
    synth_path(path, sizeof path, "cmp.db");
    CHECK_OK(cc_store_open_readonly(path, &db, snap, sizeof snap, &err));
    CHECK(snap[0] == '\0');
    cc_store_close(db);
}

int main(void)
{
    synth_init();
    test_mwu();
    test_runs();
    test_noise();
    test_lone_busy();
    test_reference_speed();
    test_history_speed();
    test_ref_unsteady();
    test_conformance_rows();
    test_models();
    test_model_samples();
    test_refs();
    test_older_schema();
    return CC_TEST_RESULT();
}
