/* detect.h — detector post-processing and the detection comparison: class-aware
 * non-maximum suppression of a YOLO-style output, and precision, recall and mAP@IoU of
 * a candidate's detections taking the FP32 golden model's detections as ground truth.
 *
 * NMS (cc_detect_nms), per box of pred [n_boxes, 5 + n_classes] = cx, cy, w, h,
 * objectness, class scores (after sigmoid, as a CC_TASK_DETECT model outputs them):
 *  - the box's class is its best class score (lowest index on ties) and its score
 *    obj * that class score (one label per box, as YOLOv5's deployment NMS does);
 *  - boxes with score > score_thr (strictly) are candidates;
 *  - candidates are visited by score, highest first (equal scores: lower box index
 *    first); a candidate is kept unless its IoU with an already kept box of the same
 *    class is > iou_thr (boxes of different classes never suppress each other);
 *  - at most max_det boxes are kept, in that order.
 * IoU of corner boxes (x1 = cx - w/2, x2 = cx + w/2, same for y): intersection area over
 * union area, computed in double. Boxes without area (zero width or height) have none to
 * compare: two segments on the same line compare by the IoU of their extents along it, two
 * points are 1 when equal, anything else with a box without area is 0.
 *
 * Comparison (cc_detect_eval_*): per image and class, the candidate's detections in
 * score order are each matched to the not yet matched golden box of the same class with
 * the highest IoU, when that IoU is >= iou_thr (true positive), else they are false
 * positives (COCO's greedy matching). Per class over all images, detections are ranked
 * by score (ties: the order they were added) and AP is the area under the precision-
 * recall curve with all-point interpolation (PASCAL VOC 2010+: precision at each recall
 * replaced by the best precision at any recall >= it, summed over the recall steps).
 *  - precision = TP / candidate detections (1 when there are none),
 *  - recall = TP / golden detections (1 when there are none),
 *    both counting only the candidate detections above the evaluator's operating point
 *    (cc_detect_eval_set_operating_point; by default every detection),
 *  - mAP = mean AP over the classes with at least one golden detection, over every
 *    candidate detection; when no class has one: 1 if the candidate has no detections
 *    above the operating point either, else 0.
 *
 * The suite's protocol (cc_detect_eval_add_outputs, used by model runs): the golden
 * detections are the FP32 golden model's at the deployment threshold CC_DETECT_SCORE;
 * the candidate's detections are ranked down to CC_DETECT_RANK_SCORE, as COCO-style
 * evaluations (YOLOv5's val.py: 0.001) rank them, so mAP measures how well the candidate
 * ranks the golden boxes and not only which side of the deployment threshold a
 * borderline box falls; precision and recall are taken at CC_DETECT_SCORE, the boxes a
 * deployment would show. Greedy NMS and greedy matching visit boxes by score, so the
 * boxes above CC_DETECT_SCORE and their matches are the same as with a candidate list
 * cut at CC_DETECT_SCORE. */
#ifndef CC_DETECT_H
#define CC_DETECT_H

#include "../ops/op.h"
#include "metrics.h"

#define CC_DETECT_SCORE 0.25f       /* deployment score threshold: golden boxes, precision, recall */
#define CC_DETECT_RANK_SCORE 0.001f /* candidate boxes ranked for mAP */
#define CC_DETECT_IOU 0.45f         /* NMS IoU threshold */
#define CC_DETECT_MAX 300           /* boxes kept per image */

typedef struct cc_detection {
    float x1, y1, x2, y2;   /* corners, in the units of pred (input pixels) */
    float score;            /* objectness x class score */
    int cls;                /* class index */
    int box;                /* row of pred it came from */
} cc_detection;

/* Class-aware NMS as described above. out has room for max_det detections (may be NULL
 * when max_det is 0); *n_out receives the number kept. n_boxes < 0, n_classes < 1,
 * max_det < 0 or a NaN threshold: CC_ERR_ARG. */
cc_status cc_detect_nms(const float *pred, int n_boxes, int n_classes, float score_thr, float iou_thr,
                        int max_det, cc_detection *out, int *n_out, cc_err *err);

/* IoU of two detections' boxes. */
double cc_detect_iou(const cc_detection *a, const cc_detection *b);

typedef struct cc_detect_metrics {
    int n_images;
    int n_golden, n_candidate, n_tp;   /* n_candidate, n_tp: above the operating point */
    int n_ranked;                       /* every candidate detection */
    int n_classes_present;   /* classes with a golden detection */
    double precision, recall, map50;   /* map50: mAP at the evaluator's IoU threshold */
} cc_detect_metrics;

typedef struct cc_detect_eval cc_detect_eval;

/* An evaluator for n_classes classes matching at IoU >= iou_thr (0.5 for mAP@0.5).
 * n_classes < 1 or iou_thr outside [0, 1]: CC_ERR_ARG. */
cc_status cc_detect_eval_create(int n_classes, double iou_thr, cc_detect_eval **out, cc_err *err);
void cc_detect_eval_destroy(cc_detect_eval *e);
/* Precision and recall count only candidate detections with score > score (strictly).
 * After the first cc_detect_eval_add, or a NaN score: CC_ERR_ARG, nothing changed. */
cc_status cc_detect_eval_set_operating_point(cc_detect_eval *e, double score, cc_err *err);
/* Adds one image: the golden detections and the candidate's. A class outside
 * [0, n_classes): CC_ERR_ARG, nothing added. */
cc_status cc_detect_eval_add(cc_detect_eval *e, const cc_detection *gold, int n_gold, const cc_detection *cand,
                             int n_cand, cc_err *err);
/* Adds one image by the suite's protocol (above): NMS of the golden output gold_pred at
 * CC_DETECT_SCORE and of the candidate's cand_pred at CC_DETECT_RANK_SCORE (both
 * [n_boxes, 5 + n_classes], IoU CC_DETECT_IOU, at most CC_DETECT_MAX boxes each), then
 * cc_detect_eval_add. Errors as cc_detect_nms and cc_detect_eval_add; nothing added. */
cc_status cc_detect_eval_add_outputs(cc_detect_eval *e, const float *gold_pred, const float *cand_pred, int n_boxes,
                                     int n_classes, cc_err *err);
/* The figures over every image added so far. */
cc_status cc_detect_eval_result(const cc_detect_eval *e, cc_detect_metrics *out, cc_err *err);

/* One image: create, add, result, destroy. */
cc_status cc_detect_compare(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand,
                            int n_classes, double iou_thr, cc_detect_metrics *out, cc_err *err);

/* The boxes and classes of a detector's output 0, [N, boxes, 5 + classes]
 * (CC_TASK_DETECT: cx, cy, w, h, objectness, class scores). */
void cc_detect_output_layout(const int64_t *dims, int *n_boxes, int *n_classes);

/* 1 when m's mAP is within b->map50; else 0 and a one-line reason with the figures. */
int cc_budget_check_detect(const cc_budget *b, const cc_detect_metrics *m, char *reason, size_t n);

/* ---- post-NMS detections (CC_TASK_DETECTIONS) ------------------------------------------
 * A model whose outputs are its detections after NMS, as torchvision's detectors export
 * them: boxes [k, 4] (corners x1, y1, x2, y2, as ONNX's NonMaxSuppression takes them by
 * default), scores [k] and, optionally, labels [k] (integers), k following the data. Two
 * correct targets may list different detections for one input: equal or nearly equal scores
 * are ordered differently (TopK and NMS visit boxes by score), a near-tie decides which of
 * two overlapping boxes NMS keeps, which class of a box wins, which box takes the k-th place
 * or passes the score threshold. Element by element such lists are not comparable, so they
 * are compared as sets of detections (cc_detect_agree_add), per input:
 *  - matching: of every pair of a golden and a candidate detection with the same label and
 *    IoU >= CC_DETECT_AGREE_IOU, the pairs are taken by IoU, highest first (ties: the
 *    golden's by score, then positions), each detection in one pair at most: two lists of
 *    the same boxes pair each box with itself, whatever the order. Boxes are read as any
 *    diagonal pair of corners (as NonMaxSuppression reads them), boxes without area by
 *    cc_detect_iou's rule; a pair below that IoU whose every coordinate lies within the band
 *    of the other (scaled by the larger coordinate of the two, at least 1) pairs too, after
 *    the rest (IoU is blind to boxes of almost no area: a segment and its neighbour of width
 *    0.6 share none);
 *  - matched pairs are compared element-wise: the SQNR of the boxes' coordinates and the
 *    SQNR of the scores, each over every pair of every input; the agreement's SQNR is the
 *    lower of the two (cc_detect_agree_sqnr), judged as any model's conformance SQNR;
 *  - an unmatched detection d (of either list) is a near-tie, tolerated, when
 *      tail: d's score is at most the band above the lowest score of both lists (the cut
 *            at k boxes or at the score threshold passed between near-equal scores: a
 *            detection scored clearly above what the other list kept would be in it), or
 *      swap: an unmatched detection of the other list overlaps d (IoU > 0) with a score
 *            within the band (NMS kept the other of two near-equal overlapping boxes, or a
 *            near-tie between two classes' scores gave the box another label);
 *    "a within the band of b": |a - b| <= band * max(|a|, |b|), band the relative noise
 *    the comparison allows (model runs: 10^(-need/20) for the conformance SQNR need);
 *    whether an unmatched detection is a near-tie is decided against the matches alone;
 *  - any other unmatched detection is a disagreement; the first is described in `first`.
 * The accuracy against FP32 is cc_detect_eval_add (mAP@0.5, precision and recall over every
 * detection) of the lists without their near-ties (cc_detect_determinate): a precision whose
 * rounding moves the cut between two near-equal scores has not lost a detection. */
#define CC_DETECT_AGREE_IOU 0.5
#define CC_DETECT_MAX_LABEL 65535

/* Whether g's outputs are post-NMS detections: two or three outputs, one float [k, 4]
 * (boxes), one float [k] (scores) and with three an integer [k] (labels), k the same bound
 * and following the data (cc_graph_dynamic_values). Then det_out[0..2] = the positions of
 * boxes, scores and labels among g's outputs (labels -1 when absent) and 1; else 0. */
int cc_detect_outputs_find(const cc_graph *g, int det_out[3]);

/* The detections in one input's outputs y (n values: every output of g one after another,
 * as floats, det_out as found by cc_detect_outputs_find): *out (malloc'd, free it; NULL when
 * there are none) and their count *k; each detection's box is its position, its corners
 * ordered (x1 <= x2, y1 <= y2: the file's may be any diagonal pair). n not a
 * multiple of a detection's values (5, or 6 with labels), or a label that is not an integer
 * in [0, CC_DETECT_MAX_LABEL]: CC_ERR_ARG naming it. */
cc_status cc_detect_unpack(const cc_graph *g, const int det_out[3], const float *y, int64_t n, cc_detection **out,
                           int *k, cc_err *err);

typedef struct cc_detect_agree {
    int n_images, n_gold, n_cand, n_matched;
    int n_tolerated;          /* unmatched near-ties (both lists) */
    int n_disagree;           /* unmatched beyond them (both lists) */
    double box_sig, box_noise, score_sig, score_noise;
    double max_box_diff, max_score_diff;  /* over matched pairs */
    char first[200];          /* the first disagreement, one line; "" when none */
    char ref_name[24];        /* what the reference list is called in it ("golden", ...) */
} cc_detect_agree;

/* An empty agreement; ref_name names the reference list in `first`. */
void cc_detect_agree_init(cc_detect_agree *a, const char *ref_name);
/* Adds one input: the golden list (the reference) and the candidate's, by the rules above.
 * band < 0 or NaN: CC_ERR_ARG, nothing added. */
cc_status cc_detect_agree_add(cc_detect_agree *a, const cc_detection *gold, int n_gold, const cc_detection *cand,
                              int n_cand, double band, cc_err *err);
/* The detections of gold and cand that are not near-ties (matched, or disagreements), in
 * their order, into gold_out (room for n_gold) and cand_out (n_cand), their counts into
 * *n_gold_out and *n_cand_out. Errors as cc_detect_agree_add. */
cc_status cc_detect_determinate(const cc_detection *gold, int n_gold, const cc_detection *cand, int n_cand,
                                double band, cc_detection *gold_out, int *n_gold_out, cc_detection *cand_out,
                                int *n_cand_out, cc_err *err);
/* The lower of the boxes' and the scores' SQNR over the matched pairs, in dB: +inf without
 * noise (no pairs at all included), -inf for noise on a zero signal. */
double cc_detect_agree_sqnr(const cc_detect_agree *a);
/* The band for a conformance need in dB (10^(-need/20)). */
double cc_detect_band(double need_db);

#endif
