/* test_detect.c — class-aware NMS, IoU, matching and precision/recall/AP on boxes worked
 * out by hand; post-NMS detections compared as sets (matching, near-ties, the judgement). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/cctest.h"
#include "../detect.h"
#include "../judge.h"
#include "../model.h"

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
    /* boxes without area: the same point is one box; another point, or a point inside a
       box, 0 */
    cc_detection z = box(1, 1, 1, 1, 1, 0), z2 = box(1, 2, 1, 2, 1, 0);
    CHECK(cc_detect_iou(&z, &z) == 1);
    CHECK(cc_detect_iou(&z, &z2) == 0 && cc_detect_iou(&z, &c) == 0 && cc_detect_iou(&c, &z) == 0);
    /* segments on the line x = 104: y in [35, 44] and [36, 45]: overlap 8, union 10 */
    cc_detection s1 = box(104, 35, 104, 44, 1, 0), s2 = box(104, 36, 104, 45, 1, 0), s3 = box(105, 36, 105, 45, 1, 0);
    CHECK_NEAR(cc_detect_iou(&s1, &s2), 0.8, 1e-12);
    CHECK(cc_detect_iou(&s1, &s3) == 0); /* parallel lines */
    /* horizontal segments on y = 7: x in [0, 4] and [2, 6]: overlap 2, union 6 */
    cc_detection h1 = box(0, 7, 4, 7, 1, 0), h2 = box(2, 7, 6, 7, 1, 0);
    CHECK_NEAR(cc_detect_iou(&h1, &h2), 2.0 / 6.0, 1e-12);
    CHECK(cc_detect_iou(&h1, &s1) == 0);
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

/* ---- post-NMS detections compared as sets ------------------------------------------- */

static cc_detect_agree agree_of(const cc_detection *g, int ng, const cc_detection *c, int nc, double band)
{
    cc_detect_agree a;
    cc_detect_agree_init(&a, "golden");
    CHECK_OK(cc_detect_agree_add(&a, g, ng, c, nc, band, NULL));
    return a;
}

static void test_agree_permuted(void)
{
    /* the same three detections in another order (equal scores: any order is right) */
    cc_detection g[3] = { box(0, 0, 10, 10, 0.5f, 1), box(20, 20, 30, 30, 0.5f, 1), box(40, 0, 50, 10, 0.25f, 2) };
    cc_detection c[3] = { g[1], g[0], g[2] };
    cc_detect_agree a = agree_of(g, 3, c, 3, 1e-3);
    CHECK(a.n_matched == 3 && a.n_tolerated == 0 && a.n_disagree == 0);
    CHECK(isinf(cc_detect_agree_sqnr(&a)) && cc_detect_agree_sqnr(&a) > 0);
    CHECK(a.first[0] == '\0');
    /* element-wise those lists differ: the first box [0,0,10,10] against [20,20,30,30] */
}

static void test_agree_sqnr(void)
{
    /* one pair: boxes (0,0,10,10) and (0,0,10,11): signal 0+0+100+100 = 200, noise 1:
       10 log10 200 = 23.0103 dB; scores 0.5 and 0.4: signal 0.25, noise 0.01: 13.9794 dB;
       the agreement is the lower */
    cc_detection g = box(0, 0, 10, 10, 0.5f, 0), c = box(0, 0, 10, 11, 0.4f, 0);
    cc_detect_agree a = agree_of(&g, 1, &c, 1, 1.0);
    CHECK(a.n_matched == 1);
    CHECK_NEAR(cc_detect_agree_sqnr(&a), 10 * log10(0.25 / 0.01), 1e-4);
    CHECK_NEAR(a.max_box_diff, 1.0, 1e-12);
    CHECK_NEAR(a.max_score_diff, 0.1, 1e-6);
    /* the same scores: the boxes' 23.0103 dB */
    c.score = 0.5f;
    a = agree_of(&g, 1, &c, 1, 1.0);
    CHECK_NEAR(cc_detect_agree_sqnr(&a), 10 * log10(200.0), 1e-9);
    /* IoU 100/110 >= 0.5 matched; a box of another label is not (a higher detection of
       the same label in both lists keeps the two off the cut; 0.5 and 0.4 are not within
       a band of 0.1) */
    cc_detection g2[2] = { g, box(50, 50, 60, 60, 0.1f, 0) }, c2[2] = { c, g2[1] };
    c2[0].cls = 1;
    c2[0].score = 0.4f;
    a = agree_of(g2, 2, c2, 2, 0.1);
    CHECK(a.n_matched == 1 && a.n_disagree == 2 && a.n_tolerated == 0);
    /* pairs by IoU, highest first: G2 and C are the same box; G1 (higher score) overlaps C
       at IoU 80/120 but is left unmatched rather than taking G2's partner */
    cc_detection gg[2] = { box(0, 0, 10, 10, 0.9f, 0), box(2, 0, 12, 10, 0.8f, 0) }, cg = box(2, 0, 12, 10, 0.8f, 0);
    a = agree_of(gg, 2, &cg, 1, 1e-3);
    CHECK(a.n_matched == 1 && a.max_box_diff == 0 && a.n_disagree == 1 && strstr(a.first, "golden detection 0"));
    /* a segment x = 104, y in [45, 53] against a box of width 0.6 beside it: no IoU, but
       every coordinate within 0.6 of the other's: a pair at a band of 0.01 (scale 104), not
       at 0.001 */
    cc_detection seg = box(104, 45, 104, 53, 0.5f, 2), thin = box(104, 45.2f, 104.6f, 52.9f, 0.5f, 2);
    CHECK(cc_detect_iou(&seg, &thin) == 0);
    a = agree_of(&seg, 1, &thin, 1, 0.01);
    CHECK(a.n_matched == 1 && a.n_disagree == 0);
    cc_detection seg2[2] = { seg, box(0, 0, 50, 50, 0.1f, 2) }, thin2[2] = { thin, seg2[1] };
    a = agree_of(seg2, 2, thin2, 2, 0.001);
    CHECK(a.n_matched == 1 && a.n_disagree == 2);
    /* identical boxes without area are one box (corners given the other way round are
       ordered by cc_detect_unpack: test_unpack) */
    cc_detection p1 = box(5, 5, 5, 5, 0.5f, 0), p2 = box(0, 0, 10, 10, 0.6f, 0);
    cc_detection gp[2] = { p1, p2 }, cp[2] = { p2, p1 };
    a = agree_of(gp, 2, cp, 2, 0.0);
    CHECK(a.n_matched == 2 && a.n_disagree == 0);
    /* no detections on either side: agreement, no noise */
    a = agree_of(NULL, 0, NULL, 0, 0.0);
    CHECK(a.n_disagree == 0 && isinf(cc_detect_agree_sqnr(&a)));
}

static void test_agree_tail(void)
{
    /* the cut at k = 3 passes between two near-equal scores: the golden keeps C (0.30001),
       the target D (0.30000) elsewhere; both are within 1e-3 of their list's lowest score */
    cc_detection g[3] = { box(0, 0, 10, 10, 0.9f, 0), box(20, 0, 30, 10, 0.5f, 0), box(40, 0, 50, 10, 0.30001f, 0) };
    cc_detection c[3] = { g[0], g[1], box(60, 0, 70, 10, 0.30000f, 0) };
    cc_detect_agree a = agree_of(g, 3, c, 3, 1e-3);
    CHECK(a.n_matched == 2 && a.n_tolerated == 2 && a.n_disagree == 0);
    /* with a band of 1e-6 they are not: C (0.30001) is above the target's lowest score
       (0.30000) by more than the band, so the target should have kept it; D is at the cut */
    a = agree_of(g, 3, c, 3, 1e-6);
    CHECK(a.n_tolerated == 1 && a.n_disagree == 1 && strstr(a.first, "golden detection 2"));
    /* a missing detection that is not at the tail: the golden's B (0.5) has no match and no
       near-equal overlapping partner: a disagreement, described */
    cc_detection c2[3] = { g[0], box(60, 0, 70, 10, 0.30000f, 0), g[2] };
    a = agree_of(g, 3, c2, 3, 1e-3);
    CHECK(a.n_matched == 2 && a.n_disagree == 1 && a.n_tolerated == 1);
    CHECK(strstr(a.first, "golden detection 1") && strstr(a.first, "score 0.5"));
    /* the accuracy's lists leave the near-ties out: the golden's C, the target's D */
    cc_detection go[3], co[3];
    int ngo = -1, nco = -1;
    CHECK_OK(cc_detect_determinate(g, 3, c, 3, 1e-3, go, &ngo, co, &nco, NULL));
    CHECK(ngo == 2 && nco == 2 && go[1].score == 0.5f && co[1].score == 0.5f);
    /* with c2 the golden's B (a disagreement) stays, D (a near-tie) goes */
    CHECK_OK(cc_detect_determinate(g, 3, c2, 3, 1e-3, go, &ngo, co, &nco, NULL));
    CHECK(ngo == 3 && nco == 2 && co[1].x1 == 40);
    /* a target that lists fewer detections than the golden, the missing one at the top */
    a = agree_of(g, 3, &g[1], 2, 1e-3);
    CHECK(a.n_matched == 2 && a.n_disagree == 1 && strstr(a.first, "golden detection 0"));
}

static void test_agree_swap(void)
{
    /* NMS kept E on the golden side and F (IoU 0.2 with E) on the target's: their scores
       0.8 and 0.8004 are within a band of 1e-3 (0.0004 <= 0.0008), neither is at a tail
       (lowest 0.3) */
    cc_detection e = box(0, 0, 10, 10, 0.8f, 3), f = box(5, 0, 15, 10, 0.8004f, 3), low = box(50, 50, 60, 60, 0.3f, 3);
    cc_detection g[2] = { e, low }, c[2] = { f, low };
    CHECK_NEAR(cc_detect_iou(&e, &f), 50.0 / 150.0, 1e-12);
    cc_detect_agree a = agree_of(g, 2, c, 2, 1e-3);
    CHECK(a.n_matched == 1 && a.n_tolerated == 2 && a.n_disagree == 0);
    /* a band of 1e-4: 0.0004 > 0.00008: both unmatched are disagreements */
    a = agree_of(g, 2, c, 2, 1e-4);
    CHECK(a.n_disagree == 2 && a.n_tolerated == 0);
    /* near-equal scores but no overlap: not a swap */
    cc_detection far = box(30, 30, 40, 40, 0.8004f, 3), c3[2] = { far, low };
    a = agree_of(g, 2, c3, 2, 1e-3);
    CHECK(a.n_disagree == 2);
    /* the same box with another label at a near-equal score (two classes' scores tied) */
    cc_detection relabel = e;
    relabel.cls = 4;
    relabel.score = 0.8002f;
    cc_detection c4[2] = { relabel, low };
    a = agree_of(g, 2, c4, 2, 1e-3);
    CHECK(a.n_matched == 1 && a.n_tolerated == 2 && a.n_disagree == 0);
    CHECK(cc_detect_agree_add(&a, g, 2, c, 2, -1, NULL) == CC_ERR_ARG);
    CHECK(cc_detect_agree_add(&a, g, 2, c, 2, NAN, NULL) == CC_ERR_ARG);
}

static void test_unpack(void)
{
    /* a graph whose outputs are scores [k], boxes [k, 4] and labels [k], in that order */
    cc_tensor v[3];
    memset(v, 0, sizeof v);
    v[0].dtype = CC_F32, v[0].shape = (cc_shape){ 1, { 4 } };
    v[1].dtype = CC_F32, v[1].shape = (cc_shape){ 2, { 4, 4 } };
    v[2].dtype = CC_I64, v[2].shape = (cc_shape){ 1, { 4 } };
    cc_graph g = { .n_values = 3, .values = v, .n_outputs = 3, .outputs = { 0, 1, 2 } };
    const int det_out[3] = { 1, 0, 2 };
    /* two detections: scores 0.9, 0.4; boxes (1,2,3,4), (5,6,7,8); labels 7, 0 */
    const float y[12] = { 0.9f, 0.4f, 1, 2, 3, 4, 5, 6, 7, 8, 7, 0 };
    cc_detection *d = NULL;
    int k = -1;
    CHECK_OK(cc_detect_unpack(&g, det_out, y, 12, &d, &k, NULL));
    CHECK(k == 2);
    if (k == 2) {
        CHECK(d[0].x1 == 1 && d[0].y1 == 2 && d[0].x2 == 3 && d[0].y2 == 4 && d[0].score == 0.9f && d[0].cls == 7);
        CHECK(d[1].x1 == 5 && d[1].y2 == 8 && d[1].score == 0.4f && d[1].cls == 0 && d[1].box == 1);
    }
    free(d);
    /* corners given the other way round are ordered */
    const float yr[12] = { 0.9f, 0.4f, 3, 4, 1, 2, 5, 8, 7, 6, 7, 0 };
    CHECK_OK(cc_detect_unpack(&g, det_out, yr, 12, &d, &k, NULL));
    CHECK(k == 2 && d && d[0].x1 == 1 && d[0].y1 == 2 && d[0].x2 == 3 && d[0].y2 == 4);
    CHECK(k == 2 && d && d[1].x1 == 5 && d[1].y1 == 6 && d[1].x2 == 7 && d[1].y2 == 8);
    free(d);
    CHECK_OK(cc_detect_unpack(&g, det_out, y, 0, &d, &k, NULL));
    CHECK(k == 0 && d == NULL);
    cc_err e = { 0 };
    CHECK(cc_detect_unpack(&g, det_out, y, 11, &d, &k, &e) == CC_ERR_ARG && strstr(e.msg, "6 per detection"));
    const float bad[6] = { 0.5f, 0, 0, 1, 1, 2.5f };
    CHECK(cc_detect_unpack(&g, det_out, bad, 6, &d, &k, &e) == CC_ERR_ARG && strstr(e.msg, "label 2.5"));
    const float neg[6] = { 0.5f, 0, 0, 1, 1, -1 };
    CHECK(cc_detect_unpack(&g, det_out, neg, 6, &d, &k, &e) == CC_ERR_ARG);
    /* positions that are not the graph's outputs (a model without the signature) */
    const int none[3] = { -1, -1, -1 };
    CHECK(cc_detect_unpack(&g, none, y, 12, &d, &k, &e) == CC_ERR_ARG && d == NULL);
    /* without labels: 5 values each, every label 0 */
    const int no_labels[3] = { 1, 0, -1 };
    g.n_outputs = 2;
    CHECK_OK(cc_detect_unpack(&g, no_labels, y, 10, &d, &k, NULL));
    CHECK(k == 2 && d && d[1].x1 == 5 && d[1].cls == 0);
    free(d);
}

static void test_judge_sets(void)
{
    cc_detect_agree ok;
    cc_detect_agree_init(&ok, "golden");
    ok.n_gold = ok.n_cand = 20, ok.n_matched = 19, ok.n_tolerated = 2;
    cc_detect_metrics dm = { .map50 = 0.995 };
    cc_budget b = cc_budget_default(CC_F32);
    cc_model_measured m = { .prec = "f32", .noise_db = INFINITY, .conf_sqnr_db = 80, .task = CC_TASK_DETECTIONS,
                            .det = &dm, .agree = &ok };
    int conforms = -1;
    char why[CC_REASON_MAX];
    CHECK(cc_model_judge(&m, &b, &conforms, why, sizeof why) == CC_PASSED && conforms == 1);
    CHECK(strstr(why, "19 of 20 golden detections matched, 2 near-ties"));
    /* a disagreement fails whatever the SQNR, naming the detection */
    cc_detect_agree bad = ok;
    bad.n_disagree = 1;
    snprintf(bad.first, sizeof bad.first, "input 0: golden detection 4 (...) has no match");
    m.agree = &bad;
    CHECK(cc_model_judge(&m, &b, &conforms, why, sizeof why) == CC_FAILED && conforms == 0);
    CHECK(strstr(why, "golden detection 4") && strstr(why, "1 of 40 detections unmatched"));
    /* the matched pairs below the need (f32: 54 dB) */
    m.agree = &ok;
    m.conf_sqnr_db = 40;
    CHECK(cc_model_judge(&m, &b, &conforms, why, sizeof why) == CC_FAILED && conforms == 0);
    CHECK(strstr(why, "matched detections' SQNR 40.0 dB, needs 54.0"));
    /* conforming, but mAP against FP32 below the budget */
    m.conf_sqnr_db = 80;
    dm.map50 = 0.9;
    CHECK(cc_model_judge(&m, &b, &conforms, why, sizeof why) == CC_FAILED && conforms == 1);
    CHECK(strstr(why, "outside budget") && strstr(why, "mAP@0.5 0.900"));
}

/* The outputs' signature: boxes [k, 4], scores [k], labels [k] whose k follows the data
 * (NonZero of score > 0.5) are detections, in any order of the outputs; the same shapes
 * fixed at import are not (a model listing every box is compared element-wise); a model
 * finished as DETECTIONS without the signature is GENERIC. */
static void test_signature(void)
{
    for (int variant = 0; variant < 3; variant++) {
        cc_model_builder *b = NULL;
        cc_err e = { 0 };
        CHECK_OK(cc_mb_create("tail", &b, &e));
        int x, s, thr, gt, nz, ax, idx, bx, sc;
        cc_shape xs = cc_shape_make(2, (int64_t[]){ 6, 4 }), ss = cc_shape_make(1, (int64_t[]){ 6 });
        cc_shape one = cc_shape_make(1, (int64_t[]){ 1 });
        cc_tensor th = { 0 }, a0 = { 0 };
        CHECK_OK(cc_tensor_alloc(&th, CC_F32, &one, &e));
        CHECK_OK(cc_tensor_alloc(&a0, CC_I64, &one, &e));
        ((float *)th.data)[0] = 0.5f;
        ((int64_t *)a0.data)[0] = 0;
        CHECK_OK(cc_mb_input(b, "x", CC_F32, &xs, &x, &e));
        CHECK_OK(cc_mb_input(b, "s", CC_F32, &ss, &s, &e));
        CHECK_OK(cc_mb_const(b, "thr", &th, &thr, &e));
        CHECK_OK(cc_mb_const(b, "axes", &a0, &ax, &e));
        CHECK_OK(cc_mb_node(b, "Greater", "gt", NULL, 2, (int[]){ s, thr }, 1, &gt, NULL, &e));
        CHECK_OK(cc_mb_node(b, "NonZero", "nz", NULL, 1, &gt, 1, &nz, NULL, &e));
        CHECK_OK(cc_mb_node(b, "Squeeze", "sq", NULL, 2, (int[]){ nz, ax }, 1, &idx, NULL, &e));
        CHECK_OK(cc_mb_node(b, "Gather", "boxes", NULL, 2, (int[]){ x, idx }, 1, &bx, NULL, &e));
        CHECK_OK(cc_mb_node(b, "Gather", "scores", NULL, 2, (int[]){ s, idx }, 1, &sc, NULL, &e));
        if (variant == 0) { /* labels, scores, boxes */
            CHECK_OK(cc_mb_output(b, idx, &e));
            CHECK_OK(cc_mb_output(b, sc, &e));
            CHECK_OK(cc_mb_output(b, bx, &e));
        } else if (variant == 1) { /* boxes, scores */
            CHECK_OK(cc_mb_output(b, bx, &e));
            CHECK_OK(cc_mb_output(b, sc, &e));
        } else { /* every box and score: fixed shapes */
            CHECK_OK(cc_mb_output(b, x, &e));
            CHECK_OK(cc_mb_output(b, s, &e));
        }
        cc_model *m = NULL;
        CHECK_OK(cc_mb_finish(b, CC_TASK_DETECTIONS, 0, &m, &e));
        if (!m) continue;
        if (variant == 0) CHECK(m->task == CC_TASK_DETECTIONS && m->det_out[0] == 2 && m->det_out[1] == 1 && m->det_out[2] == 0);
        if (variant == 1) CHECK(m->task == CC_TASK_DETECTIONS && m->det_out[0] == 0 && m->det_out[1] == 1 && m->det_out[2] == -1);
        if (variant == 2) CHECK(m->task == CC_TASK_GENERIC);
        int d[3];
        CHECK(cc_detect_outputs_find(&m->graph, d) == (variant < 2));
        cc_model_free(m);
    }
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
    test_agree_permuted();
    test_agree_sqnr();
    test_agree_tail();
    test_agree_swap();
    test_unpack();
    test_judge_sets();
    test_signature();
    return CC_TEST_RESULT();
}
