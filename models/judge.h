/* judge.h — a model's verdict on a target from what its run measured: conformance to the
 * golden model of its precision first, then accuracy against FP32 within the budget.
 *
 * Conformance: two correct implementations of one precision round differently in every
 * layer, and in a deep network those roundings compound: a target's distance to the
 * golden model of its precision is of the order of that precision's own rounding noise
 * (the golden model at that precision against FP32), never of the order of a wrong layer.
 * A target conforms when its SQNR against the golden model of its precision is at most
 * CC_CONF_MARGIN_DB below that noise (capped at CC_CONF_CAP_DB, which also sets the bar
 * for FP32). The budget (models/metrics.h, detect.h) then bounds the accuracy cost of the
 * precision against FP32: top-1/top-5 agreement for a classifier, precision, recall and
 * mAP@0.5 for a detector.
 *
 * A model whose outputs are post-NMS detections (CC_TASK_DETECTIONS) is compared as sets of
 * detections (models/detect.h): its conformance SQNR is that of the matched pairs (the lower
 * of boxes and scores), and it conforms when that SQNR meets the same need and no detection
 * of either list is left unmatched beyond the near-ties (agree->n_disagree == 0); its
 * budget is the detector's (mAP@0.5 against FP32's detections). */
#ifndef CC_JUDGE_H
#define CC_JUDGE_H

#include "../ops/verdict.h"
#include "detect.h"
#include "metrics.h"
#include "model.h"

#define CC_CONF_MARGIN_DB 6.0
#define CC_CONF_CAP_DB 60.0

/* The SQNR in dB a target must reach against the golden model of a precision whose own
 * SQNR against FP32 is noise_db (infinite for FP32). */
double cc_model_conf_need(double noise_db);

/* What a model's run on a target measured. */
typedef struct cc_model_measured {
    const char *prec;              /* "f32", "bf16", "int8", ... */
    double noise_db;               /* the precision's golden model against FP32 */
    double conf_sqnr_db;           /* the target against the golden model of its precision */
    cc_model_task task;            /* what the accuracy budget looks at */
    const cc_class_metrics *acc;   /* the target against FP32 (classification) */
    const cc_detect_metrics *det;  /* the detector's figures against FP32; NULL: not computed */
    const cc_detect_agree *agree;  /* DETECTIONS: the sets against the golden model of the precision */
    const char *pass_note;         /* the reason of a pass (the quantization report line) */
} cc_model_measured;

/* CC_PASSED or CC_FAILED, with the reason in reason[0..n). *conforms is 0 when the target
 * does not conform to the golden model of its precision (the caller then looks for the
 * layer where it diverges). */
cc_verdict cc_model_judge(const cc_model_measured *m, const cc_budget *budget, int *conforms, char *reason,
                          size_t n);

#endif
