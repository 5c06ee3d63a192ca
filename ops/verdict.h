/* verdict.h — what a check of one execution concludes: the verdict, the input regime it
 * ran in and the error metrics against the golden model. Beside the numerics that decide
 * them (check.h, policy.h); the results store and the reports persist and show them. */
#ifndef CC_VERDICT_H
#define CC_VERDICT_H

#include <stdint.h>

#define CC_REASON_MAX 256   /* bytes of a verdict's one-line reason, NUL included */

typedef enum cc_verdict {
    CC_PASSED = 0,
    CC_FAILED,        /* numerics out of bound */
    CC_MISTRUSTED,    /* within bound, but the check could not mean much (constant/zero output) */
    CC_UNSUPPORTED,   /* the target said it cannot run this, with a reason */
    CC_ERROR,         /* the target returned an error status */
    CC_CRASHED,       /* the worker process died */
    CC_TIMEOUT,       /* the worker exceeded the per-case time limit */
    CC_VERDICT_COUNT
} cc_verdict;

const char *cc_verdict_name(cc_verdict v);              /* "passed", ... */
int cc_verdict_parse(const char *name, cc_verdict *out); /* 0 ok, -1 unknown */

typedef enum cc_regime {
    CC_REGIME_EXACT = 0,   /* small integers: FP32 results exact, wrong indexing shows at zero tolerance */
    CC_REGIME_RANDOM = 1   /* realistic random values: exercises rounding */
} cc_regime;

const char *cc_regime_name(cc_regime r);

/* Error of a target's output against the golden output (all outputs of the case together). */
typedef struct cc_metrics {
    int64_t n;             /* elements compared */
    int64_t n_bad;         /* elements outside the bound */
    double max_abs;        /* max |y - yhat| */
    double max_rel;        /* max |y - yhat| / |yhat| over yhat != 0 */
    double max_ulp;        /* max distance in ulps of the output dtype */
    double nmse;           /* sum (y-yhat)^2 / sum yhat^2 */
    double cosine;         /* cosine similarity of y and yhat */
    double bound_ratio;    /* max |y - yhat| / bound: the smallest tolerance scale that passes (<= 1 passes) */
    int64_t worst_index;   /* flat index (over outputs concatenated) of the worst element */
    double worst_got, worst_want;
} cc_metrics;

#endif
