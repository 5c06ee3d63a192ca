/* test_history.c — change points on synthetic histories with planted truths: a persistent
 * step is found at its run, a one-run spike and pure noise are not flagged (over many
 * seeds), two steps are both found; and a case's history read from a database holding
 * runs from two machines comes back as one series per machine with the step marked, and
 * a model's history as one series per precision. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "results/history.h"
#include "results/model_result.h"
#include "synth.h"

static int segments(const double *x, int n, cc_segment **segs)
{
    int k = 0;
    cc_err err = { 0 };
    CHECK_OK(cc_changepoints(x, n, NULL, segs, &k, &err));
    return k;
}

/* n points around 1 ms with 3% log-normal noise. */
static void noise(double *x, int n, cc_rng *rng)
{
    for (int i = 0; i < n; i++) x[i] = 1e-3 * exp(0.03 * cc_rng_normal(rng));
}

static void test_planted(void)
{
    cc_rng rng;
    double x[200];
    cc_segment *s = NULL;

    /* a 25% step at run 30 of 50 that persists: found exactly there */
    int found = 0;
    for (int seed = 0; seed < 50; seed++) {
        cc_rng_seed(&rng, 100 + seed);
        noise(x, 50, &rng);
        for (int i = 30; i < 50; i++) x[i] *= 1.25;
        int k = segments(x, 50, &s);
        if (k == 2 && s[1].first == 30 && fabs(s[1].level / s[0].level - 1.25) < 0.05) found++;
        free(s);
    }
    CHECK(found == 50);

    /* the step in the last 4 runs only (it has just happened): still found */
    found = 0;
    for (int seed = 0; seed < 50; seed++) {
        cc_rng_seed(&rng, 300 + seed);
        noise(x, 40, &rng);
        for (int i = 36; i < 40; i++) x[i] *= 1.3;
        int k = segments(x, 40, &s);
        if (k == 2 && s[1].first == 36) found++;
        free(s);
    }
    CHECK(found >= 48);

    /* a one-run spike (3x) anywhere, even at the very end: never a change */
    int flagged = 0;
    for (int seed = 0; seed < 50; seed++) {
        cc_rng_seed(&rng, 500 + seed);
        noise(x, 30, &rng);
        x[seed % 30] *= 3;
        int k = segments(x, 30, &s);
        flagged += k != 1;
        free(s);
    }
    CHECK(flagged == 0);

    /* pure noise: no change point in 150 series of 25 to 150 runs; in 10-run series,
     * whose noise estimate rests on 9 differences, at most 1 in 100 (about 0.5% measured
     * over 10^4 series) */
    flagged = 0;
    const int lengths[3] = { 25, 60, 150 };
    for (int seed = 0; seed < 150; seed++) {
        cc_rng_seed(&rng, 900 + seed);
        int n = lengths[seed % 3];
        noise(x, n, &rng);
        int k = segments(x, n, &s);
        flagged += k != 1;
        free(s);
    }
    CHECK(flagged == 0);
    flagged = 0;
    for (int seed = 0; seed < 100; seed++) {
        cc_rng_seed(&rng, 2000 + seed);
        noise(x, 10, &rng);
        int k = segments(x, 10, &s);
        flagged += k != 1;
        free(s);
    }
    CHECK(flagged <= 1);

    /* two steps, up then down: both found */
    cc_rng_seed(&rng, 77);
    noise(x, 60, &rng);
    for (int i = 20; i < 40; i++) x[i] *= 1.4;
    int k = segments(x, 60, &s);
    CHECK(k == 3);
    if (k == 3) {
        CHECK(s[1].first == 20);
        CHECK(s[2].first == 40);
        CHECK(s[0].n + s[1].n + s[2].n == 60);
    }
    free(s);

    /* a deterministic series (no noise at all) with a 10% step */
    for (int i = 0; i < 20; i++) x[i] = i < 12 ? 2e-6 : 2.2e-6;
    k = segments(x, 20, &s);
    CHECK(k == 2 && s[1].first == 12);
    if (k == 2) CHECK_NEAR(s[1].level, 2.2e-6, 1e-15);
    free(s);

    /* a 3% step is below min_shift (5%): merged away */
    for (int i = 0; i < 20; i++) x[i] = i < 10 ? 1.0 : 1.03;
    k = segments(x, 20, &s);
    CHECK(k == 1);
    free(s);

    /* too short to split, and bad input */
    k = segments(x, 5, &s);
    CHECK(k == 1 && s[0].n == 5);
    free(s);
    cc_err err = { 0 };
    double bad[3] = { 1, 0, 1 };
    int n = 0;
    CHECK(cc_changepoints(bad, 3, NULL, &s, &n, &err) == CC_ERR_ARG);
    CHECK(cc_changepoints(bad, 0, NULL, &s, &n, &err) == CC_ERR_ARG);
}

static void test_database(void)
{
    synth_init();
    char path[512];
    cc_db *db = synth_open(path, sizeof path, "hist.db");
    cc_err err = { 0 };
    cc_rng rng;
    cc_rng_seed(&rng, 11);
    synth_row row = { "Conv(x=1x8x8x8:f32,w=8x8x3x3)", "Conv", "f32", "cpu", CC_PASSED, 0.1, 1e-4, 0.02, 30 };
    cc_run_info a, b;
    synth_run_info(&a, "nightly", "c1");
    synth_run_info(&b, "nightly", "c1");
    snprintf(b.cpu_model, sizeof b.cpu_model, "Other CPU");
    /* machine A: 12 runs, 40% slower from its 8th run; machine B interleaved, flat, 2x slower */
    for (int i = 0; i < 12; i++) {
        synth_row r = row;
        if (i >= 7) r.median *= 1.4;
        synth_store_run(db, &a, "dev", &r, 1, &rng);
        r = row;
        r.median *= 2;
        if (i < 6) synth_store_run(db, &b, "dev", &r, 1, &rng);
    }
    cc_history *h = NULL;
    CHECK_OK(cc_history_case(db, row.case_id, NULL, NULL, &h, &err));
    CHECK(h && h->n_machines == 2);
    CHECK(h && h->n_series == 2);
    if (h && h->n_series == 2) {
        const cc_history_series *sa = &h->series[0], *sb = &h->series[1];
        CHECK(sa->machine == 0 && sb->machine == 1);
        CHECK(strcmp(sa->target, "cpu") == 0);
        CHECK(sa->n == 12 && sb->n == 6);
        CHECK(sa->n_segs == 2 && sb->n_segs == 1);
        if (sa->n_segs == 2) {
            CHECK(sa->segs[1].first == 7);
            CHECK(sa->pts[7].change == 1);
            CHECK(sa->pts[6].change == 0);
        }
        for (int i = 1; i < sa->n; i++)
            CHECK(strcmp(h->runs[sa->pts[i - 1].run].started_at, h->runs[sa->pts[i].run].started_at) <= 0);
    }
    cc_history_free(h);
    CHECK_OK(cc_history_case(db, "Relu(x=1:f32)", NULL, NULL, &h, &err));
    CHECK(h && h->n_series == 0);
    cc_history_free(h);

    /* a model: one series per (target, precision), latency p50 with a step from run 6 */
    cc_run_info m;
    synth_run_info(&m, "models", "c2");
    for (int i = 0; i < 10; i++) {
        int64_t id = synth_store_run(db, &m, "dev", &row, 1, &rng);
        for (int p = 0; p < 2; p++) {
            cc_model_result r;
            memset(&r, 0, sizeof r);
            snprintf(r.model, sizeof r.model, "resnet50");
            snprintf(r.target, sizeof r.target, "cpu");
            snprintf(r.precision, sizeof r.precision, p ? "int8" : "f32");
            r.verdict = CC_PASSED;
            r.lat_samples = 20;
            r.lat_p50 = (p ? 0.004 : 0.01) * (i >= 5 && p == 0 ? 1.5 : 1.0) * exp(0.01 * cc_rng_normal(&rng));
            r.throughput = 1 / r.lat_p50;
            CHECK_OK(cc_store_put_model_result(db, id, &r, NULL, 0, &err));
        }
    }
    CHECK_OK(cc_history_model(db, "resnet50", NULL, NULL, &h, &err));
    CHECK(h && h->is_model && h->n_series == 2);
    if (h && h->n_series == 2) {
        CHECK(strcmp(h->series[0].target, "cpu f32") == 0 && strcmp(h->series[1].target, "cpu int8") == 0);
        CHECK(h->series[0].n == 10 && h->series[0].n_segs == 2 && h->series[0].segs[1].first == 5);
        CHECK(h->series[1].n_segs == 1);
        CHECK_NEAR(h->series[0].pts[0].p.median, 0.01, 0.001);
    }
    cc_history_free(h);
    CHECK_OK(cc_history_model(db, "resnet50", "ref", NULL, &h, &err));
    CHECK(h && h->n_series == 0);
    cc_history_free(h);
    cc_store_close(db);
}

int main(void)
{
    test_planted();
    test_database();
    return CC_TEST_RESULT();
}
