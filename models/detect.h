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
 * union area, 0 when the union is empty; computed in double.
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

#endif
