/* metrics.h — the accuracy cost of a precision against the FP32 golden model:
 * classification agreement (top-1, top-5), cosine similarity and SQNR of the logits,
 * and accuracy budgets (with defaults per precision) that turn those figures, and the
 * detection figures of detect.h, into a verdict with a one-line reason.
 *
 * Definitions, over N inputs with golden logits g and candidate logits x:
 *  - ranking: a class ranks above another when its logit is larger, or equal with a
 *    smaller index; NaN ranks below everything.
 *  - top-1 agreement: fraction of inputs whose candidate top-1 class is the golden top-1.
 *  - top-5 agreement: fraction of inputs whose golden top-1 class is among the
 *    candidate's top 5 (min(5, classes)): "the candidate still ranks the reference answer
 *    highly", the question top-5 accuracy asks with the golden answer as the label.
 *  - cosine: sum g*x / sqrt(sum g^2 * sum x^2) over all N x classes logits (1 when both
 *    are all zero, 0 when only one is); cosine_min: the smallest per-input cosine.
 *  - SQNR (dB): 10 log10(sum g^2 / sum (g - x)^2) over all logits (+inf when x == g).
 * Sums in double. */
#ifndef CC_METRICS_H
#define CC_METRICS_H

#include "../ops/core/cc.h"
#include "../ops/core/dtype.h"

typedef struct cc_class_metrics {
    int n;                 /* inputs */
    int top1_agree, top5_agree;   /* counts */
    double top1, top5;     /* fractions of n */
    double cosine, cosine_min;
    double sqnr_db;
    /* running sums (used by cc_class_metrics_add) */
    double sum_gg, sum_xx, sum_gx, sum_ee;
} cc_class_metrics;

/* Starts an empty accumulation. */
void cc_class_metrics_init(cc_class_metrics *m);
/* Adds n_inputs inputs of n_classes logits each (row-major) and updates every figure.
 * n_classes < 1 or n_inputs < 0: CC_ERR_ARG. */
cc_status cc_class_metrics_add(cc_class_metrics *m, const float *golden, const float *cand, int n_inputs,
                               int n_classes, cc_err *err);
/* Index of the largest of v[0..n-1] (ties: the smallest index; NaN never wins unless all
 * are NaN, then 0). */
int cc_argmax(const float *v, int n);
/* The k best classes of v in rank order into idx[0..k-1] (k <= n). */
void cc_topk(const float *v, int n, int k, int *idx);
/* Cosine similarity and SQNR of two vectors (definitions above). */
double cc_cosine(const float *a, const float *b, int64_t n);
double cc_sqnr_db(const float *ref, const float *x, int64_t n);

/* ---- budgets ------------------------------------------------------------------------ */

/* Minimums a precision must reach against FP32 golden; -INFINITY disables a bound (any
 * figure passes it, NaN included); against any other bound a NaN figure fails. */
typedef struct cc_budget {
    double top1;       /* top-1 agreement */
    double top5;       /* top-5 agreement */
    double cosine;     /* pooled cosine of the logits */
    double sqnr_db;    /* SQNR of the logits */
    double map50;      /* detection: mAP@0.5 against the FP32 golden detections */
} cc_budget;

/* Default budget for precision dt (f32, f16, bf16; i8/u8 mean INT8):
 *            top1   top5   cosine   sqnr   mAP@0.5
 *   f32      0.99   0.999  0.99999  50 dB  0.99
 *   f16      0.99   0.999  0.999    30 dB  0.98
 *   bf16     0.99   0.999  0.995    20 dB  0.98
 *   int8     0.99   0.99   0.98     14 dB  0.90
 * Why: top-1 >= 99% follows MLPerf's rule for ResNet50 quantized against FP32. MLPerf
 * asks for 99% of the FP32 *accuracy* on labelled data; with synthetic inputs there are
 * no labels, and per-input agreement with FP32 is the stricter stand-in (a flip from
 * wrong to wrong counts against it). The golden top-1 must stay in the top 5. Cosine and
 * SQNR bound the same thing twice (cosine c ~ 1 - 10^(-SQNR/10) / 2 for logits of
 * small mean): 0.999 ~ 27 dB, 0.995 ~ 20 dB, 0.98 ~ 14 dB. They follow the unit
 * roundoff: a 16-bit float keeps 11 (f16) or 8 (bf16) bits per rounding, 66 or 48 dB,
 * less what the network's depth amplifies (on the synthetic ResNet50 about 28 dB:
 * f16 37 dB, bf16 21 dB measured at 224x224); per-tensor 8-bit activations inject about
 * 35-40 dB per layer, and trained networks end near 20 dB. mAP: 0.98 for 16-bit floats,
 * 0.90 for INT8, where box coordinates and scores move enough to reorder detections
 * near the thresholds. */
cc_budget cc_budget_default(cc_dtype dt);
/* Overrides fields from "top1=0.995,cosine=0.99,sqnr=20,map50=0.9,top5=1" (any subset;
 * "off" disables a bound). Unknown key or bad number: CC_ERR_ARG; b unchanged then. */
cc_status cc_budget_parse(const char *text, cc_budget *b, cc_err *err);
/* 1 when m is within b; else 0 and a one-line reason with the figures in reason, e.g.
 * "top-1 agreement 97.0% (97/100) < 99.0%; cosine 0.99512 < 0.999". */
int cc_budget_check_classify(const cc_budget *b, const cc_class_metrics *m, char *reason, size_t n);

#endif
