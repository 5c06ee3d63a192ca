/* detect_set.c — post-NMS detections compared as sets: the outputs' signature, their
 * unpacking and the matching with its near-tie rules (definitions in detect.h). */
#include "detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_float(cc_dtype dt)
{
    return dt == CC_F32 || dt == CC_F16 || dt == CC_BF16 || dt == CC_F64;
}

static int is_integer(cc_dtype dt)
{
    return dt == CC_I8 || dt == CC_U8 || dt == CC_I16 || dt == CC_U16 || dt == CC_I32 || dt == CC_U32 ||
           dt == CC_I64 || dt == CC_U64;
}

int cc_detect_outputs_find(const cc_graph *g, int det_out[3])
{
    if (g->n_outputs < 2 || g->n_outputs > 3) return 0;
    int found[3] = { -1, -1, -1 };
    int64_t k = -1;
    for (int j = 0; j < g->n_outputs; j++) {
        const cc_tensor *t = &g->values[g->outputs[j]];
        int role = -1;
        if (is_float(t->dtype) && t->shape.rank == 2 && t->shape.dims[1] == 4) role = 0;
        else if (is_float(t->dtype) && t->shape.rank == 1) role = 1;
        else if (is_integer(t->dtype) && t->shape.rank == 1) role = 2;
        if (role < 0 || found[role] >= 0) return 0;
        if (k >= 0 && t->shape.dims[0] != k) return 0;
        k = t->shape.dims[0];
        found[role] = j;
    }
    if (found[0] < 0 || found[1] < 0 || (g->n_outputs == 3 && found[2] < 0)) return 0;
    unsigned char *dyn = malloc((size_t)g->n_values + 1);
    if (!dyn) return 0;
    cc_graph_dynamic_values(g, dyn);
    int follows = dyn[g->outputs[found[0]]] && dyn[g->outputs[found[1]]];
    free(dyn);
    if (!follows) return 0;
    memcpy(det_out, found, sizeof found);
    return 1;
}

cc_status cc_detect_unpack(const cc_graph *g, const int det_out[3], const float *y, int64_t n, cc_detection **out,
                           int *k, cc_err *err)
{
    *out = NULL;
    *k = 0;
    int no = g->n_outputs;
    if (det_out[0] < 0 || det_out[0] >= no || det_out[1] < 0 || det_out[1] >= no || det_out[2] < -1 ||
        det_out[2] >= no)
        return cc_err_set(err, CC_ERR_ARG, "detections: the model's outputs are not boxes, scores and labels");
    int per = det_out[2] >= 0 ? 6 : 5;
    if (n < 0 || n % per != 0 || n / per > INT32_MAX)
        return cc_err_set(err, CC_ERR_ARG, "detections: %lld values are not %d per detection", (long long)n, per);
    int64_t m = n / per;
    if (m == 0) return CC_OK;
    /* where each output starts: the outputs before it, m detections each */
    int64_t start[CC_MAX_IO];
    int64_t at = 0;
    for (int j = 0; j < g->n_outputs; j++) {
        start[j] = at;
        at += m * (j == det_out[0] ? 4 : 1);
    }
    cc_detection *d = malloc(sizeof *d * (size_t)m);
    if (!d) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    const float *bx = y + start[det_out[0]], *sc = y + start[det_out[1]];
    const float *lb = det_out[2] >= 0 ? y + start[det_out[2]] : NULL;
    for (int64_t i = 0; i < m; i++) {
        float l = lb ? lb[i] : 0;
        if (!(l >= 0 && l <= CC_DETECT_MAX_LABEL) || l != floorf(l)) {
            free(d);
            return cc_err_set(err, CC_ERR_ARG, "detection %lld has label %g, not an integer in 0..%d", (long long)i,
                              (double)l, CC_DETECT_MAX_LABEL);
        }
        const float *b = bx + 4 * i; /* any diagonal pair of corners, ordered here */
        d[i] = (cc_detection){ .x1 = fminf(b[0], b[2]), .y1 = fminf(b[1], b[3]), .x2 = fmaxf(b[0], b[2]),
                               .y2 = fmaxf(b[1], b[3]), .score = sc[i], .cls = (int)l, .box = (int)i };
    }
    *out = d;
    *k = (int)m;
    return CC_OK;
}

void cc_detect_agree_init(cc_detect_agree *a, const char *ref_name)
{
    memset(a, 0, sizeof *a);
    snprintf(a->ref_name, sizeof a->ref_name, "%s", ref_name ? ref_name : "reference");
}

double cc_detect_band(double need_db)
{
    return pow(10.0, -need_db / 20.0);
}

static int within(double a, double b, double band)
{
    double m = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= band * m;
}

enum { MATCHED = 1, NEAR_TIE, DISAGREE };

/* a list's positions in score order, ties by position */
typedef struct ranked {
    float score;
    int pos;
} ranked;

static int by_rank(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* a same-label pair of a golden and a candidate detection */
typedef struct pair {
    double iou;
    int g_rank; /* the golden detection's place in score order */
    int g, c;
} pair;

/* IoU desc, then the golden's score order, then the candidate's position */
static int by_iou(const void *pa, const void *pb)
{
    const pair *a = pa, *b = pb;
    if (a->iou != b->iou) return a->iou > b->iou ? -1 : 1;
    if (a->g_rank != b->g_rank) return (a->g_rank > b->g_rank) - (a->g_rank < b->g_rank);
    return (a->c > b->c) - (a->c < b->c);
}

static double lowest_score(const cc_detection *d, int n)
{
    double lo = INFINITY;
    for (int i = 0; i < n; i++)
        if (d[i].score < lo) lo = d[i].score;
    return lo;
}

/* How well two boxes (corners ordered by cc_detect_unpack) pair: their IoU; where that is
 * below CC_DETECT_AGREE_IOU but every coordinate lies within the band of the other, scaled
 * by the larger coordinate of the two boxes (at least 1), CC_DETECT_AGREE_IOU, taken after
 * the pairs that reach it by IoU. IoU is blind to boxes of almost no area (a regression of
 * 0 on two sides gives a segment; its neighbour of width 0.6 shares no area with it). */
static double pair_iou(const cc_detection *a, const cc_detection *b, double band)
{
    double iou = cc_detect_iou(a, b);
    if (iou >= CC_DETECT_AGREE_IOU) return iou;
    const float pa[4] = { a->x1, a->y1, a->x2, a->y2 }, pb[4] = { b->x1, b->y1, b->x2, b->y2 };
    double scale = 1, gap = 0;
    for (int q = 0; q < 4; q++) {
        scale = fmax(scale, fmax(fabs((double)pa[q]), fabs((double)pb[q])));
        gap = fmax(gap, fabs((double)pa[q] - pb[q]));
    }
    return gap <= band * scale ? CC_DETECT_AGREE_IOU : iou;
}

/* Whether unmatched detection d of list `own` (n_own) is a near-tie against the other list
 * (other, n_other; state 1 where matched). */
static int near_tie(const cc_detection *d, const cc_detection *own, int n_own, const cc_detection *other,
                    const unsigned char *other_state, int n_other, double band)
{
    double cut = fmin(lowest_score(own, n_own), lowest_score(other, n_other));
    if (d->score <= cut || within(d->score, cut, band)) return 1;
    for (int i = 0; i < n_other; i++)
        if (other_state[i] != MATCHED && pair_iou(d, &other[i], band) > 0 && within(d->score, other[i].score, band))
            return 1;
    return 0;
}

static void describe(cc_detect_agree *a, const char *which, const cc_detection *d, int pos)
{
    if (a->first[0]) return;
    snprintf(a->first, sizeof a->first,
             "input %d: %s detection %d (label %d, score %.4g, box %.4g,%.4g,%.4g,%.4g) has no match", a->n_images, which,
             pos, d->cls, (double)d->score, (double)d->x1, (double)d->y1, (double)d->x2, (double)d->y2);
}

static cc_status sort_states(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand, double band,
                             unsigned char *gs, unsigned char *cs, cc_detect_agree *a, cc_err *err);

/* The rules of detect.h: each detection's state (*gs_out[0..n_gold), *cs_out[0..n_cand),
 * allocated: free them, also on failure): MATCHED, NEAR_TIE or DISAGREE; with a, the matched
 * pairs' figures and the counts added to it. A bad band or count: CC_ERR_ARG. */
static cc_status sort_out(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand, double band,
                          unsigned char **gs_out, unsigned char **cs_out, cc_detect_agree *a, cc_err *err)
{
    *gs_out = *cs_out = NULL;
    if (!(band >= 0) || n_gold < 0 || n_cand < 0)
        return cc_err_set(err, CC_ERR_ARG, "detections: band %g, %d and %d detections", band, n_gold, n_cand);
    *gs_out = malloc((size_t)n_gold + 1);
    *cs_out = malloc((size_t)n_cand + 1);
    if (!*gs_out || !*cs_out) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    return sort_states(gold, n_gold, cand, n_cand, band, *gs_out, *cs_out, a, err);
}

static cc_status sort_states(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand, double band,
                             unsigned char *gs, unsigned char *cs, cc_detect_agree *a, cc_err *err)
{
    /* every same-label pair at IoU >= CC_DETECT_AGREE_IOU, taken by IoU, highest first */
    ranked *order = malloc(sizeof *order * (size_t)(n_gold + 1));
    int *rank = malloc(sizeof *rank * (size_t)(n_gold + 1));
    size_t n_pairs = 0, cap = 0;
    pair *pairs = NULL;
    cc_status st = order && rank ? CC_OK : cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    memset(gs, 0, (size_t)n_gold);
    memset(cs, 0, (size_t)n_cand);
    if (!st) {
        for (int i = 0; i < n_gold; i++) order[i] = (ranked){ gold[i].score, i };
        qsort(order, (size_t)n_gold, sizeof *order, by_rank);
        for (int i = 0; i < n_gold; i++) rank[order[i].pos] = i;
    }
    for (int gi = 0; gi < n_gold && !st; gi++)
        for (int c = 0; c < n_cand && !st; c++) {
            if (cand[c].cls != gold[gi].cls) continue;
            double iou = pair_iou(&gold[gi], &cand[c], band);
            if (!(iou >= CC_DETECT_AGREE_IOU)) continue;
            if (n_pairs == cap) {
                cap = cap ? 2 * cap : 64;
                pair *np = realloc(pairs, sizeof *pairs * cap);
                if (!np) {
                    st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                    break;
                }
                pairs = np;
            }
            pairs[n_pairs++] = (pair){ iou, rank[gi], gi, c };
        }
    free(order);
    free(rank);
    if (st) {
        free(pairs);
        return st;
    }
    if (n_pairs) qsort(pairs, n_pairs, sizeof *pairs, by_iou);
    for (size_t p = 0; p < n_pairs; p++) {
        int gi = pairs[p].g, c = pairs[p].c;
        if (gs[gi] == MATCHED || cs[c] == MATCHED) continue;
        const cc_detection *g = &gold[gi];
        gs[gi] = cs[c] = MATCHED;
        if (!a) continue;
        a->n_matched++;
        const float gc[4] = { g->x1, g->y1, g->x2, g->y2 }, cc[4] = { cand[c].x1, cand[c].y1, cand[c].x2,
                                                                      cand[c].y2 };
        for (int q = 0; q < 4; q++) {
            double e = (double)cc[q] - gc[q];
            a->box_sig += (double)gc[q] * gc[q];
            a->box_noise += e * e;
            if (fabs(e) > a->max_box_diff || isnan(e)) a->max_box_diff = fabs(e);
        }
        double e = (double)cand[c].score - g->score;
        a->score_sig += (double)g->score * g->score;
        a->score_noise += e * e;
        if (fabs(e) > a->max_score_diff || isnan(e)) a->max_score_diff = fabs(e);
    }
    free(pairs);
    /* decided on the matches alone: which unmatched detections are near-ties does not
       depend on the order they are looked at */
    for (int i = 0; i < n_gold; i++)
        if (gs[i] != MATCHED) gs[i] = near_tie(&gold[i], gold, n_gold, cand, cs, n_cand, band) ? NEAR_TIE : DISAGREE;
    for (int i = 0; i < n_cand; i++)
        if (cs[i] != MATCHED) cs[i] = near_tie(&cand[i], cand, n_cand, gold, gs, n_gold, band) ? NEAR_TIE : DISAGREE;
    if (!a) return CC_OK;
    for (int i = 0; i < n_gold; i++) {
        a->n_tolerated += gs[i] == NEAR_TIE;
        a->n_disagree += gs[i] == DISAGREE;
        if (gs[i] == DISAGREE) describe(a, a->ref_name, &gold[i], i);
    }
    for (int i = 0; i < n_cand; i++) {
        a->n_tolerated += cs[i] == NEAR_TIE;
        a->n_disagree += cs[i] == DISAGREE;
        if (cs[i] == DISAGREE) describe(a, "the target's", &cand[i], i);
    }
    return CC_OK;
}

cc_status cc_detect_agree_add(cc_detect_agree *a, const cc_detection *gold, int n_gold, const cc_detection *cand,
                              int n_cand, double band, cc_err *err)
{
    unsigned char *gs, *cs;
    cc_status st = sort_out(gold, n_gold, cand, n_cand, band, &gs, &cs, a, err);
    if (!st) {
        a->n_gold += n_gold;
        a->n_cand += n_cand;
        a->n_images++;
    }
    free(gs);
    free(cs);
    return st;
}

cc_status cc_detect_determinate(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand,
                                double band, cc_detection *gold_out, int *n_gold_out, cc_detection *cand_out,
                                int *n_cand_out, cc_err *err)
{
    unsigned char *gs, *cs;
    cc_status st = sort_out(gold, n_gold, cand, n_cand, band, &gs, &cs, NULL, err);
    if (!st) {
        *n_gold_out = *n_cand_out = 0;
        for (int i = 0; i < n_gold; i++)
            if (gs[i] != NEAR_TIE) gold_out[(*n_gold_out)++] = gold[i];
        for (int i = 0; i < n_cand; i++)
            if (cs[i] != NEAR_TIE) cand_out[(*n_cand_out)++] = cand[i];
    }
    free(gs);
    free(cs);
    return st;
}

static double sqnr(double sig, double noise)
{
    if (noise == 0) return INFINITY;
    if (isnan(noise)) return NAN;
    return 10 * log10(sig / noise);
}

double cc_detect_agree_sqnr(const cc_detect_agree *a)
{
    double b = sqnr(a->box_sig, a->box_noise), s = sqnr(a->score_sig, a->score_noise);
    if (isnan(b) || isnan(s)) return NAN;
    return b < s ? b : s;
}
