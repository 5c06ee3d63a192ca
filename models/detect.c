/* detect.c — class-aware NMS and the precision/recall/mAP comparison of detections
 * (definitions in detect.h). */
#include "detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IoU of two intervals [a0, a1] and [b0, b1], each of positive length */
static double iou_1d(double a0, double a1, double b0, double b1)
{
    double inter = fmax(0.0, fmin(a1, b1) - fmax(a0, b0));
    return inter / ((a1 - a0) + (b1 - b0) - inter);
}

double cc_detect_iou(const cc_detection *a, const cc_detection *b)
{
    double aw = fmax(0.0, (double)a->x2 - a->x1), ah = fmax(0.0, (double)a->y2 - a->y1);
    double bw = fmax(0.0, (double)b->x2 - b->x1), bh = fmax(0.0, (double)b->y2 - b->y1);
    if (aw > 0 && ah > 0 && bw > 0 && bh > 0) {
        double iw = fmin(a->x2, b->x2) - fmax(a->x1, b->x1);
        double ih = fmin(a->y2, b->y2) - fmax(a->y1, b->y1);
        double inter = iw > 0 && ih > 0 ? iw * ih : 0;
        return inter / (aw * ah + bw * bh - inter);
    }
    /* boxes without area (a detector's regression of 0 on two sides gives a segment or a
       point): two segments on one line by the overlap of their extents along it, two
       points by whether they are one; anything else 0 */
    if (aw == 0 && bw == 0 && ah > 0 && bh > 0) return a->x1 == b->x1 ? iou_1d(a->y1, a->y2, b->y1, b->y2) : 0;
    if (ah == 0 && bh == 0 && aw > 0 && bw > 0) return a->y1 == b->y1 ? iou_1d(a->x1, a->x2, b->x1, b->x2) : 0;
    if (aw == 0 && ah == 0 && bw == 0 && bh == 0) return a->x1 == b->x1 && a->y1 == b->y1;
    return 0;
}

/* score desc, then box index asc */
static int by_score(const void *pa, const void *pb)
{
    const cc_detection *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return (a->box > b->box) - (a->box < b->box);
}

cc_status cc_detect_nms(const float *pred, int n_boxes, int n_classes, float score_thr, float iou_thr, int max_det,
                        cc_detection *out, int *n_out, cc_err *err)
{
    if (n_boxes < 0 || n_classes < 1 || max_det < 0)
        return cc_err_set(err, CC_ERR_ARG, "NMS: %d boxes, %d classes, max_det %d", n_boxes, n_classes, max_det);
    if (isnan(score_thr) || isnan(iou_thr))
        return cc_err_set(err, CC_ERR_ARG, "NMS: thresholds must be numbers");
    cc_detection *cand = malloc(sizeof *cand * (size_t)(n_boxes ? n_boxes : 1));
    if (!cand) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    int nc = 0, stride = 5 + n_classes;
    for (int b = 0; b < n_boxes; b++) {
        const float *p = pred + (size_t)b * (size_t)stride;
        int best = 0;
        for (int c = 1; c < n_classes; c++)
            if (p[5 + c] > p[5 + best]) best = c;
        float score = p[4] * p[5 + best];
        if (!(score > score_thr)) continue;
        double cx = p[0], cy = p[1], hw = p[2] / 2.0, hh = p[3] / 2.0;
        cand[nc++] = (cc_detection){ .x1 = (float)(cx - hw), .y1 = (float)(cy - hh), .x2 = (float)(cx + hw),
                                     .y2 = (float)(cy + hh), .score = score, .cls = best, .box = b };
    }
    qsort(cand, (size_t)nc, sizeof *cand, by_score);
    int kept = 0;
    for (int i = 0; i < nc && kept < max_det; i++) {
        int suppressed = 0;
        for (int j = 0; j < kept && !suppressed; j++)
            suppressed = out[j].cls == cand[i].cls && cc_detect_iou(&out[j], &cand[i]) > iou_thr;
        if (!suppressed) out[kept++] = cand[i];
    }
    free(cand);
    *n_out = kept;
    return CC_OK;
}

/* ---- comparison --------------------------------------------------------------------- */

typedef struct record {
    float score;
    int tp;
    long seq;   /* order of addition, for ties */
} record;

struct cc_detect_eval {
    int n_classes;
    double iou_thr;
    double op_score;   /* precision and recall count detections above it */
    int n_images, n_golden, n_candidate, n_tp, n_ranked;
    int *golden_per_class;
    record *rec;
    int *rec_class;
    long n_rec, cap_rec;
};

cc_status cc_detect_eval_create(int n_classes, double iou_thr, cc_detect_eval **out, cc_err *err)
{
    if (n_classes < 1) return cc_err_set(err, CC_ERR_ARG, "detection comparison: %d classes", n_classes);
    if (!(iou_thr >= 0 && iou_thr <= 1))
        return cc_err_set(err, CC_ERR_ARG, "detection comparison: IoU threshold must be in [0, 1], got %g", iou_thr);
    cc_detect_eval *e = calloc(1, sizeof *e);
    if (!e || !(e->golden_per_class = calloc((size_t)n_classes, sizeof *e->golden_per_class))) {
        free(e);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    e->n_classes = n_classes;
    e->iou_thr = iou_thr;
    e->op_score = -INFINITY;
    *out = e;
    return CC_OK;
}

cc_status cc_detect_eval_set_operating_point(cc_detect_eval *e, double score, cc_err *err)
{
    if (isnan(score)) return cc_err_set(err, CC_ERR_ARG, "detection comparison: operating point is NaN");
    if (e->n_images)
        return cc_err_set(err, CC_ERR_ARG, "detection comparison: operating point set after %d images", e->n_images);
    e->op_score = score;
    return CC_OK;
}

cc_status cc_detect_eval_add_outputs(cc_detect_eval *e, const float *gold_pred, const float *cand_pred, int n_boxes,
                                     int n_classes, cc_err *err)
{
    cc_detection *dg = malloc(sizeof *dg * CC_DETECT_MAX), *dc = malloc(sizeof *dc * CC_DETECT_MAX);
    int ng = 0, nc = 0;
    cc_status st = dg && dc ? CC_OK : cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    if (!st) st = cc_detect_nms(gold_pred, n_boxes, n_classes, CC_DETECT_SCORE, CC_DETECT_IOU, CC_DETECT_MAX, dg, &ng, err);
    if (!st)
        st = cc_detect_nms(cand_pred, n_boxes, n_classes, CC_DETECT_RANK_SCORE, CC_DETECT_IOU, CC_DETECT_MAX, dc, &nc,
                           err);
    if (!st) st = cc_detect_eval_add(e, dg, ng, dc, nc, err);
    free(dg);
    free(dc);
    return st;
}

void cc_detect_eval_destroy(cc_detect_eval *e)
{
    if (!e) return;
    free(e->golden_per_class);
    free(e->rec);
    free(e->rec_class);
    free(e);
}

cc_status cc_detect_eval_add(cc_detect_eval *e, const cc_detection *gold, int n_gold, const cc_detection *cand,
                             int n_cand, cc_err *err)
{
    if (n_gold < 0 || n_cand < 0) return cc_err_set(err, CC_ERR_ARG, "detection comparison: negative count");
    for (int i = 0; i < n_gold; i++)
        if (gold[i].cls < 0 || gold[i].cls >= e->n_classes)
            return cc_err_set(err, CC_ERR_ARG, "detection comparison: golden class %d outside [0, %d)", gold[i].cls,
                              e->n_classes);
    for (int i = 0; i < n_cand; i++)
        if (cand[i].cls < 0 || cand[i].cls >= e->n_classes)
            return cc_err_set(err, CC_ERR_ARG, "detection comparison: candidate class %d outside [0, %d)",
                              cand[i].cls, e->n_classes);
    if (e->n_rec + n_cand > e->cap_rec) {
        long cap = e->cap_rec ? e->cap_rec : 64;
        while (cap < e->n_rec + n_cand) cap *= 2;
        record *r = realloc(e->rec, sizeof *r * (size_t)cap);
        if (!r) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        e->rec = r;
        int *rc = realloc(e->rec_class, sizeof *rc * (size_t)cap);
        if (!rc) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        e->rec_class = rc;
        e->cap_rec = cap;
    }
    unsigned char *matched = calloc((size_t)(n_gold ? n_gold : 1), 1);
    cc_detection *sorted = malloc(sizeof *sorted * (size_t)(n_cand ? n_cand : 1));
    if (!matched || !sorted) {
        free(matched);
        free(sorted);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    /* score order; the box field is reused as the position for stable ties */
    for (int i = 0; i < n_cand; i++) {
        sorted[i] = cand[i];
        sorted[i].box = i;
    }
    qsort(sorted, (size_t)n_cand, sizeof *sorted, by_score);
    for (int i = 0; i < n_cand; i++) {
        int best = -1;
        double best_iou = -1;
        for (int j = 0; j < n_gold; j++) {
            if (matched[j] || gold[j].cls != sorted[i].cls) continue;
            double iou = cc_detect_iou(&sorted[i], &gold[j]);
            if (iou > best_iou) {
                best_iou = iou;
                best = j;
            }
        }
        int tp = best >= 0 && best_iou >= e->iou_thr;
        if (tp) matched[best] = 1;
        e->rec[e->n_rec] = (record){ .score = sorted[i].score, .tp = tp, .seq = e->n_rec };
        e->rec_class[e->n_rec++] = sorted[i].cls;
        if (sorted[i].score > e->op_score) {
            e->n_candidate++;
            e->n_tp += tp;
        }
    }
    for (int j = 0; j < n_gold; j++) e->golden_per_class[gold[j].cls]++;
    e->n_golden += n_gold;
    e->n_ranked += n_cand;
    e->n_images++;
    free(matched);
    free(sorted);
    return CC_OK;
}

static int by_record(const void *pa, const void *pb)
{
    const record *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* All-point interpolated AP of n records (already of one class) against n_gold boxes. */
static double average_precision(record *r, long n, int n_gold)
{
    qsort(r, (size_t)n, sizeof *r, by_record);
    double *prec = malloc(sizeof *prec * (size_t)(n ? n : 1));
    if (!prec) return NAN;
    long tp = 0;
    for (long i = 0; i < n; i++) {
        tp += r[i].tp;
        prec[i] = (double)tp / (double)(i + 1);
    }
    for (long i = n - 2; i >= 0; i--) /* envelope: best precision at any later rank */
        if (prec[i + 1] > prec[i]) prec[i] = prec[i + 1];
    double ap = 0;
    for (long i = 0; i < n; i++) /* recall grows by 1/n_gold at each true positive */
        if (r[i].tp) ap += prec[i] / n_gold;
    free(prec);
    return ap;
}

cc_status cc_detect_eval_result(const cc_detect_eval *e, cc_detect_metrics *out, cc_err *err)
{
    cc_detect_metrics m;
    memset(&m, 0, sizeof m);
    m.n_images = e->n_images;
    m.n_golden = e->n_golden;
    m.n_candidate = e->n_candidate;
    m.n_tp = e->n_tp;
    m.n_ranked = e->n_ranked;
    m.precision = e->n_candidate ? (double)e->n_tp / e->n_candidate : 1;
    m.recall = e->n_golden ? (double)e->n_tp / e->n_golden : 1;
    record *buf = malloc(sizeof *buf * (size_t)(e->n_rec ? e->n_rec : 1));
    if (!buf) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    double sum = 0;
    for (int c = 0; c < e->n_classes; c++) {
        if (!e->golden_per_class[c]) continue;
        long n = 0;
        for (long i = 0; i < e->n_rec; i++)
            if (e->rec_class[i] == c) buf[n++] = e->rec[i];
        double ap = average_precision(buf, n, e->golden_per_class[c]);
        if (isnan(ap)) {
            free(buf);
            return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        }
        sum += ap;
        m.n_classes_present++;
    }
    free(buf);
    m.map50 = m.n_classes_present ? sum / m.n_classes_present : (e->n_candidate ? 0 : 1);
    *out = m;
    return CC_OK;
}

cc_status cc_detect_compare(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand,
                            int n_classes, double iou_thr, cc_detect_metrics *out, cc_err *err)
{
    cc_detect_eval *e = NULL;
    cc_status st = cc_detect_eval_create(n_classes, iou_thr, &e, err);
    if (st) return st;
    st = cc_detect_eval_add(e, gold, n_gold, cand, n_cand, err);
    if (!st) st = cc_detect_eval_result(e, out, err);
    cc_detect_eval_destroy(e);
    return st;
}

int cc_budget_check_detect(const cc_budget *b, const cc_detect_metrics *m, char *reason, size_t n)
{
    if (n) reason[0] = '\0';
    if ((isinf(b->map50) && b->map50 < 0) || m->map50 >= b->map50) return 1;
    if (n)
        snprintf(reason, n,
                 "mAP@0.5 %.3f < %.3f (%d boxes ranked; at the operating point precision %.3f, recall %.3f: %d of %d golden boxes matched by %d boxes)",
                 m->map50, b->map50, m->n_ranked, m->precision, m->recall, m->n_tp, m->n_golden, m->n_candidate);
    return 0;
}

void cc_detect_output_layout(const int64_t *dims, int *n_boxes, int *n_classes)
{
    *n_boxes = (int)dims[1];
    *n_classes = (int)dims[2] - 5;
}
