/* test_detect.c — class-aware NMS, IoU, matching and precision/recall/AP on boxes worked
 * out by hand. */
#include <math.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../detect.h"

/* one prediction row of a 2-class output: cx, cy, w, h, obj, cls0, cls1 */
static void row(float *p, float cx, float cy, float w, float h, float obj, float c0, float c1)
{
    p[0] = cx, p[1] = cy, p[2] = w, p[3] = h, p[4] = obj, p[5] = c0, p[6] = c1;
}

static cc_detection box(float x1, float y1, float x2, float y2, float score, int cls)
{
    return (cc_detection){ .x1 = x1, .y1 = y1, .x2 = x2, .y2 = y2, .score = score, .cls = cls };
}

static void test_iou(void)
{
    /* A = [5,15]x[5,15], B = [7,17]x[5,15]: intersection 8*10 = 80, union 100+100-80 = 120 */
    cc_detection a = box(5, 5, 15, 15, 1, 0), b = box(7, 5, 17, 15, 1, 0);
    CHECK_NEAR(cc_detect_iou(&a, &b), 80.0 / 120.0, 1e-12);
    /* contained: [0,4]^2 and [1,3]^2: 4 / 16 */
    cc_detection c = box(0, 0, 4, 4, 1, 0), d = box(1, 1, 3, 3, 1, 0);
    CHECK_NEAR(cc_detect_iou(&c, &d), 0.25, 1e-12);
    /* touching edges: no area in common */
    cc_detection e = box(4, 0, 8, 4, 1, 0);
    CHECK(cc_detect_iou(&c, &e) == 0);
    /* degenerate boxes: union empty */
    cc_detection z = box(1, 1, 1, 1, 1, 0);
    CHECK(cc_detect_iou(&z, &z) == 0);
}

static void test_nms(void)
{
    float p[4 * 7];
    cc_detection out[4];
    int n = -1;
    /* A: centre (10,10) size 10, score 1 * 0.75 = 0.75 class 0;
     * B: centre (12,10) size 10, score 0.5 * 1 = 0.5 class 0; IoU(A,B) = 2/3 */
    row(p, 10, 10, 10, 10, 1.0f, 0.75f, 0.25f);
    row(p + 7, 12, 10, 10, 10, 0.5f, 1.0f, 0.0f);
    CHECK_OK(cc_detect_nms(p, 2, 2, 0.25f, 0.5f, 4, out, &n, NULL));
    CHECK(n == 1);
    CHECK(out[0].box == 0 && out[0].cls == 0 && out[0].score == 0.75f);
    CHECK(out[0].x1 == 5 && out[0].y1 == 5 && out[0].x2 == 15 && out[0].y2 == 15);
    /* IoU 2/3 is not above a threshold of 0.7: both kept, best first */
    CHECK_OK(cc_detect_nms(p, 2, 2, 0.25f, 0.7f, 4, out, &n, NULL));
    CHECK(n == 2 && out[0].box == 0 && out[1].box == 1);
    /* B of class 1 (0.5 * 1.0 beats 0.5 * 0.25): different classes never suppress */
    row(p + 7, 12, 10, 10, 10, 0.5f, 0.25f, 1.0f);
    CHECK_OK(cc_detect_nms(p, 2, 2, 0.25f, 0.5f, 4, out, &n, NULL));
    CHECK(n == 2 && out[1].cls == 1 && out[1].score == 0.5f);
    /* score threshold is strict: 0.75 > 0.75 fails, 0.5 > 0.5 fails */
    CHECK_OK(cc_detect_nms(p, 2, 2, 0.75f, 0.5f, 4, out, &n, NULL));
    CHECK(n == 0);
    CHECK_OK(cc_detect_nms(p, 2, 2, 0.5f, 0.5f, 4, out, &n, NULL));
    CHECK(n == 1 && out[0].box == 0);
    /* max_det: three disjoint boxes of scores 0.3, 0.9, 0.6 -> the best two, in order */
    row(p, 10, 10, 4, 4, 1, 0.3f, 0);
    row(p + 7, 50, 10, 4, 4, 1, 0.9f, 0);
    row(p + 14, 90, 10, 4, 4, 1, 0.6f, 0);
    CHECK_OK(cc_detect_nms(p, 3, 2, 0.1f, 0.5f, 2, out, &n, NULL));
    CHECK(n == 2 && out[0].box == 1 && out[1].box == 2);
    /* equal scores: the lower box index first */
    row(p, 10, 10, 4, 4, 1, 0.5f, 0);
    row(p + 7, 50, 10, 4, 4, 1, 0.5f, 0);
    CHECK_OK(cc_detect_nms(p, 2, 2, 0.1f, 0.5f, 1, out, &n, NULL));
    CHECK(n == 1 && out[0].box == 0);
    /* NaN scores never pass the threshold; bad arguments are rejected */
    row(p, 10, 10, 4, 4, NAN, 0.5f, 0);
    CHECK_OK(cc_detect_nms(p, 1, 2, 0.1f, 0.5f, 4, out, &n, NULL));
    CHECK(n == 0);
    cc_err e = { 0 };
    CHECK(cc_detect_nms(p, 1, 0, 0.1f, 0.5f, 4, out, &n, &e) == CC_ERR_ARG);
    CHECK(cc_detect_nms(p, 1, 2, 0.1f, 0.5f, -1, out, &n, &e) == CC_ERR_ARG);
}

/* One image, three classes:
 *  class 0: golden G1 [0,10]^2, G2 [20,30]x[0,10], G3 [40,50]x[0,10]; candidates by score
 *    C1 0.9 = G1 (IoU 1)                      TP  P = 1/1  R = 1/3
 *    C2 0.8 [100,110]x[0,10] (nothing)       FP  P = 1/2  R = 1/3
 *    C3 0.7 [20,30]x[0,6] on G2: IoU 60/100  TP  P = 2/3  R = 2/3
 *    C4 0.6 = G1 again, G1 already matched   FP  P = 2/4  R = 2/3
 *    interpolated precision at the recall steps: max(1, 1/2, 2/3, 1/2) = 1 at 1/3 and
 *    max(2/3, 1/2) = 2/3 at 2/3; AP = 1/3 * 1 + 1/3 * 2/3 = 5/9.
 *  class 1: golden G4 [0,10]x[20,30], candidate C5 0.5 = G4: AP = 1.
 *  class 2: candidate C6 0.95, no golden box: a false positive, not in the mAP.
 *  precision = 3 TP / 6 = 0.5, recall = 3 / 4, mAP = (5/9 + 1) / 2 = 7/9. */
static void test_ap(void)
{
    cc_detection gold[4] = { box(0, 0, 10, 10, 1, 0), box(20, 0, 30, 10, 1, 0), box(40, 0, 50, 10, 1, 0),
                             box(0, 20, 10, 30, 1, 1) };
    cc_detection cand[6] = { box(20, 0, 30, 6, 0.7f, 0), box(0, 0, 10, 10, 0.9f, 0), box(0, 0, 10, 10, 0.6f, 0),
                             box(100, 0, 110, 10, 0.8f, 0), box(0, 20, 10, 30, 0.5f, 1),
                             box(60, 60, 70, 70, 0.95f, 2) };
    cc_detect_metrics m;
    CHECK_OK(cc_detect_compare(gold, 4, cand, 6, 3, 0.5, &m, NULL));
    CHECK(m.n_tp == 3 && m.n_golden == 4 && m.n_candidate == 6 && m.n_classes_present == 2);
    CHECK_NEAR(m.precision, 0.5, 1e-12);
    CHECK_NEAR(m.recall, 0.75, 1e-12);
    CHECK_NEAR(m.map50, 7.0 / 9.0, 1e-12);
    /* at IoU 0.65 the IoU-0.6 match of C3 no longer counts: class 0 has TP, FP, FP, FP,
     * AP = 1/3; mAP = (1/3 + 1) / 2 */
    CHECK_OK(cc_detect_compare(gold, 4, cand, 6, 3, 0.65, &m, NULL));
    CHECK_NEAR(m.map50, (1.0 / 3.0 + 1.0) / 2.0, 1e-12);
    /* IoU exactly 0.5 matches ([20,30]x[0,5] on G2: 50 / 100) */
    cc_detection half = box(20, 0, 30, 5, 0.9f, 0);
    CHECK_OK(cc_detect_compare(&gold[1], 1, &half, 1, 3, 0.5, &m, NULL));
    CHECK(m.n_tp == 1);
    CHECK_NEAR(m.map50, 1, 1e-12);
    /* a candidate matching a box of another class is a false positive */
    cc_detection other = box(0, 0, 10, 10, 0.9f, 1);
    CHECK_OK(cc_detect_compare(&gold[0], 1, &other, 1, 3, 0.5, &m, NULL));
    CHECK(m.n_tp == 0 && m.map50 == 0 && m.precision == 0 && m.recall == 0);
}

/* Ranking across images: image 1 has golden g and a TP at 0.6; image 2 has golden g, a
 * misplaced FP at 0.9 and a TP at 0.3. Ranked: FP 0.9 (P 0, R 0), TP 0.6 (P 1/2, R 1/2),
 * TP 0.3 (P 2/3, R 1). Interpolated: 2/3 at both recall steps: AP = 2/3. */
static void test_images(void)
{
    cc_detect_eval *e;
    CHECK_OK(cc_detect_eval_create(1, 0.5, &e, NULL));
    cc_detection g = box(0, 0, 10, 10, 1, 0);
    cc_detection c1 = box(0, 0, 10, 10, 0.6f, 0);
    cc_detection c2[2] = { box(50, 50, 60, 60, 0.9f, 0), box(1, 0, 10, 10, 0.3f, 0) };
    CHECK_OK(cc_detect_eval_add(e, &g, 1, &c1, 1, NULL));
    CHECK_OK(cc_detect_eval_add(e, &g, 1, c2, 2, NULL));
    cc_detect_metrics m;
    CHECK_OK(cc_detect_eval_result(e, &m, NULL));
    CHECK(m.n_images == 2 && m.n_tp == 2);
    CHECK_NEAR(m.map50, 2.0 / 3.0, 1e-12);
    CHECK_NEAR(m.precision, 2.0 / 3.0, 1e-12);
    CHECK_NEAR(m.recall, 1, 1e-12);
    /* a class outside the range is rejected and nothing is added */
    cc_detection bad = box(0, 0, 1, 1, 0.5f, 3);
    cc_err err = { 0 };
    CHECK(cc_detect_eval_add(e, &g, 1, &bad, 1, &err) == CC_ERR_ARG);
    CHECK_OK(cc_detect_eval_result(e, &m, NULL));
    CHECK(m.n_images == 2 && m.n_candidate == 3);
    cc_detect_eval_destroy(e);
    /* nothing on either side: perfect agreement; golden empty, candidate not: mAP 0 */
    CHECK_OK(cc_detect_compare(NULL, 0, NULL, 0, 2, 0.5, &m, NULL));
    CHECK(m.map50 == 1 && m.precision == 1 && m.recall == 1);
    CHECK_OK(cc_detect_compare(NULL, 0, &g, 1, 2, 0.5, &m, NULL));
    CHECK(m.map50 == 0 && m.precision == 0 && m.recall == 1);
    CHECK(cc_detect_eval_create(0, 0.5, &e, &err) == CC_ERR_ARG);
    CHECK(cc_detect_eval_create(2, 1.5, &e, &err) == CC_ERR_ARG);
}

/* The operating point: the ranking of test_images (FP 0.9, TP 0.6, TP 0.3) with precision
 * and recall above 0.5: one TP and one FP of two golden boxes, P 1/2, R 1/2; AP still
 * ranks all three (2/3). */
static void test_operating_point(void)
{
    cc_detect_eval *e;
    cc_err err = { 0 };
    CHECK_OK(cc_detect_eval_create(1, 0.5, &e, NULL));
    CHECK(cc_detect_eval_set_operating_point(e, NAN, &err) == CC_ERR_ARG);
    CHECK_OK(cc_detect_eval_set_operating_point(e, 0.5, NULL));
    cc_detection g = box(0, 0, 10, 10, 1, 0);
    cc_detection c1 = box(0, 0, 10, 10, 0.6f, 0);
    cc_detection c2[2] = { box(50, 50, 60, 60, 0.9f, 0), box(1, 0, 10, 10, 0.3f, 0) };
    CHECK_OK(cc_detect_eval_add(e, &g, 1, &c1, 1, NULL));
    CHECK(cc_detect_eval_set_operating_point(e, 0.1, &err) == CC_ERR_ARG);
    CHECK_OK(cc_detect_eval_add(e, &g, 1, c2, 2, NULL));
    cc_detect_metrics m;
    CHECK_OK(cc_detect_eval_result(e, &m, NULL));
    CHECK(m.n_tp == 1 && m.n_candidate == 2 && m.n_ranked == 3 && m.n_golden == 2);
    CHECK_NEAR(m.precision, 0.5, 1e-12);
    CHECK_NEAR(m.recall, 0.5, 1e-12);
    CHECK_NEAR(m.map50, 2.0 / 3.0, 1e-12);
    cc_detect_eval_destroy(e);
}

/* The protocol on raw outputs (2 classes): the golden output has A (score 0.3 > 0.25) and
 * B (0.2, below the deployment threshold: not a golden box); the candidate scores A 0.2
 * (under the threshold but ranked) and B 0.5 (a box the golden model does not show).
 * Ranked: B FP (P 0), A TP (P 1/2): AP 1/2. At the operating point: B only, P 0, R 0. */
static void test_protocol(void)
{
    float g[2 * 7], c[2 * 7];
    row(g, 10, 10, 10, 10, 1, 0.3f, 0);
    row(g + 7, 50, 50, 10, 10, 1, 0.2f, 0);
    row(c, 10, 10, 10, 10, 1, 0.2f, 0);
    row(c + 7, 50, 50, 10, 10, 1, 0.5f, 0);
    cc_detect_eval *e;
    CHECK_OK(cc_detect_eval_create(2, 0.5, &e, NULL));
    CHECK_OK(cc_detect_eval_set_operating_point(e, CC_DETECT_SCORE, NULL));
    CHECK_OK(cc_detect_eval_add_outputs(e, g, c, 2, 2, NULL));
    cc_detect_metrics m;
    CHECK_OK(cc_detect_eval_result(e, &m, NULL));
    CHECK(m.n_golden == 1 && m.n_ranked == 2 && m.n_candidate == 1 && m.n_tp == 0);
    CHECK_NEAR(m.map50, 0.5, 1e-12);
    CHECK(m.precision == 0 && m.recall == 0);
    /* a score below CC_DETECT_RANK_SCORE is not ranked at all: recall and AP 0 */
    row(c, 10, 10, 10, 10, 1, 0.0005f, 0);
    cc_detect_eval_destroy(e);
    CHECK_OK(cc_detect_eval_create(2, 0.5, &e, NULL));
    CHECK_OK(cc_detect_eval_add_outputs(e, g, c, 2, 2, NULL));
    CHECK_OK(cc_detect_eval_result(e, &m, NULL));
    CHECK(m.n_ranked == 1 && m.map50 == 0);
    cc_err err = { 0 };
    CHECK(cc_detect_eval_add_outputs(e, g, c, 2, 0, &err) == CC_ERR_ARG);
    cc_detect_eval_destroy(e);
}

static void test_budget(void)
{
    cc_budget b = cc_budget_default(CC_I8);
    CHECK_NEAR(b.map50, 0.90, 1e-12);
    CHECK_NEAR(cc_budget_default(CC_F16).map50, 0.98, 1e-12);
    cc_detect_metrics m = { .n_images = 4, .n_golden = 20, .n_candidate = 19, .n_tp = 17,
                            .precision = 17.0 / 19, .recall = 0.85, .map50 = 0.85 };
    char why[256];
    CHECK(cc_budget_check_detect(&b, &m, why, sizeof why) == 0);
    CHECK(strstr(why, "mAP@0.5 0.850 < 0.900") != NULL);
    CHECK(strstr(why, "17 of 20") != NULL && strstr(why, "recall 0.850") != NULL);
    m.map50 = 0.9;
    CHECK(cc_budget_check_detect(&b, &m, why, sizeof why) == 1 && why[0] == '\0');
    m.map50 = NAN;
    CHECK(cc_budget_check_detect(&b, &m, why, sizeof why) == 0);
}

int main(void)
{
    test_iou();
    test_nms();
    test_ap();
    test_images();
    test_operating_point();
    test_protocol();
    test_budget();
    return CC_TEST_RESULT();
}
