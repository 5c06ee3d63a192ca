/* test_metrics.c — ranking, top-k agreement, cosine, SQNR and classification budgets on
 * values worked out by hand. */
#include <string.h>

#include "../../harness/cctest.h"
#include "../metrics.h"

static void test_ranking(void)
{
    float ties[4] = { 1, 3, 3, 2 };
    CHECK(cc_argmax(ties, 4) == 1);
    float nan1[3] = { NAN, 1, 2 };
    CHECK(cc_argmax(nan1, 3) == 2);
    float v[6] = { 0.1f, 0.5f, 0.3f, 0.5f, 0.2f, 0.9f };
    int idx[5];
    cc_topk(v, 6, 5, idx);
    CHECK(idx[0] == 5 && idx[1] == 1 && idx[2] == 3 && idx[3] == 2 && idx[4] == 4);
    cc_topk(v, 6, 1, idx);
    CHECK(idx[0] == 5);
}

static void test_cosine_sqnr(void)
{
    float a[2] = { 1, 0 }, b[2] = { 1, 1 };
    CHECK_NEAR(cc_cosine(a, b, 2), 1 / sqrt(2.0), 1e-15);
    float c[3] = { 1, 2, 3 }, d[3] = { 2, 4, 6 };
    CHECK_NEAR(cc_cosine(c, d, 3), 1, 1e-15);
    float z[2] = { 0, 0 };
    CHECK(cc_cosine(z, z, 2) == 1 && cc_cosine(z, a, 2) == 0);
    /* signal 3^2 + 4^2 = 25, noise (4 - 3)^2 = 1: 10 log10 25 */
    float r[2] = { 3, 4 }, x[2] = { 3, 3 };
    CHECK_NEAR(cc_sqnr_db(r, x, 2), 13.979400086720377, 1e-12);
    CHECK(isinf(cc_sqnr_db(r, r, 2)) && cc_sqnr_db(r, r, 2) > 0);
}

/* Two inputs of two classes: g = [1,0 ; 0,1], x = [1,0 ; 1,0].
 * input 1 agrees; input 2: golden top-1 is class 1, candidate's is class 0, but class 1
 * is in the candidate's top "5" (both classes): top1 = 1/2, top5 = 1.
 * pooled: sum gx = 1, sum gg = 2, sum xx = 2: cosine 1/2; per input 1 and 0: min 0.
 * noise (0-1)^2 + (1-0)^2 = 2 = signal: SQNR 0 dB. */
static void test_classify(void)
{
    float g[4] = { 1, 0, 0, 1 }, x[4] = { 1, 0, 1, 0 };
    cc_class_metrics m;
    cc_class_metrics_init(&m);
    CHECK_OK(cc_class_metrics_add(&m, g, x, 2, 2, NULL));
    CHECK(m.n == 2 && m.top1_agree == 1 && m.top5_agree == 2);
    CHECK_NEAR(m.top1, 0.5, 0);
    CHECK_NEAR(m.top5, 1, 0);
    CHECK_NEAR(m.cosine, 0.5, 1e-15);
    CHECK_NEAR(m.cosine_min, 0, 1e-15);
    CHECK_NEAR(m.sqnr_db, 0, 1e-12);

    /* 7 classes, the golden top-1 (class 6) ranked 6th by the candidate: outside the
     * top 5, so neither agreement counts */
    float g7[7] = { 0, 0, 0, 0, 0, 0, 9 }, x7[7] = { 7, 6, 5, 4, 3, 2, 2.5f };
    cc_class_metrics_init(&m);
    CHECK_OK(cc_class_metrics_add(&m, g7, x7, 1, 7, NULL));
    CHECK(m.top1_agree == 0 && m.top5_agree == 0);
    /* ... ranked 5th: counts for top-5 */
    x7[6] = 3.5f;
    cc_class_metrics_init(&m);
    CHECK_OK(cc_class_metrics_add(&m, g7, x7, 1, 7, NULL));
    CHECK(m.top1_agree == 0 && m.top5_agree == 1);
    /* accumulating over calls: add the two-class case again with identical logits */
    cc_class_metrics_init(&m);
    CHECK_OK(cc_class_metrics_add(&m, g, g, 2, 2, NULL));
    CHECK(m.top1 == 1 && m.cosine == 1 && isinf(m.sqnr_db));
    CHECK_OK(cc_class_metrics_add(&m, g, x, 2, 2, NULL));
    CHECK(m.n == 4 && m.top1_agree == 3);
    /* pooled: gg = 4, xx = 4, gx = 3 -> 0.75; noise 2, signal 4 -> 10 log10 2 */
    CHECK_NEAR(m.cosine, 0.75, 1e-15);
    CHECK_NEAR(m.sqnr_db, 3.0102999566398120, 1e-12);
    cc_err e = { 0 };
    CHECK(cc_class_metrics_add(&m, g, x, 1, 0, &e) == CC_ERR_ARG);
}

static void test_budget(void)
{
    cc_budget b = cc_budget_default(CC_I8);
    CHECK(b.top1 == 0.99);
    cc_class_metrics m;
    cc_class_metrics_init(&m);
    m.n = 100;
    m.top1_agree = 97;
    m.top5_agree = 100;
    m.top1 = 0.97;
    m.top5 = 1;
    m.cosine = 0.995;
    m.sqnr_db = 20;
    char why[256];
    CHECK(cc_budget_check_classify(&b, &m, why, sizeof why) == 0);
    CHECK(strcmp(why, "top-1 agreement 97.0% (97/100) < 99.0%") == 0);
    /* the f16 budget also asks cosine >= 0.999 and SQNR >= 30 dB */
    cc_budget f = cc_budget_default(CC_F16);
    CHECK(cc_budget_check_classify(&f, &m, why, sizeof why) == 0);
    CHECK(strstr(why, "cosine 0.995 < 0.999") != NULL);
    CHECK(strstr(why, "SQNR 20.0 dB < 30.0 dB") != NULL);
    m.top1 = 0.99;
    CHECK(cc_budget_check_classify(&b, &m, why, sizeof why) == 1 && why[0] == '\0');
    m.cosine = NAN;
    CHECK(cc_budget_check_classify(&b, &m, why, sizeof why) == 0);
    /* overrides */
    CHECK_OK(cc_budget_parse("top1=0.995,cosine=off", &b, NULL));
    CHECK(b.top1 == 0.995 && isinf(b.cosine) && b.sqnr_db == 14);
    CHECK(cc_budget_check_classify(&b, &m, why, sizeof why) == 0); /* top-1 0.99 < 0.995 */
    CHECK(strstr(why, "cosine") == NULL);
    cc_err e = { 0 };
    cc_budget keep = b;
    CHECK(cc_budget_parse("top1=0.9,speed=3", &b, &e) == CC_ERR_ARG);
    CHECK(strstr(e.msg, "speed") != NULL);
    CHECK(memcmp(&keep, &b, sizeof b) == 0);
    CHECK(cc_budget_parse("top1=x", &b, &e) == CC_ERR_ARG);
}

int main(void)
{
    test_ranking();
    test_cosine_sqnr();
    test_classify();
    test_budget();
    return CC_TEST_RESULT();
}
