/* result.h — what one (case, target, regime) execution produced: the verdict with its
 * reason, the error metrics against the golden model, and timing statistics. Shared by
 * the runner (which fills it), the store (which persists it) and the reports. */
#ifndef CC_RESULT_H
#define CC_RESULT_H

#include <stdint.h>

#include "../ops/op.h"

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

typedef struct cc_timing {
    int n_samples;         /* 0: not timed */
    int device_timer;      /* 1: samples are device-side times */
    double median, mean, stddev, mad, min, max, p90, p99, cv;
    double ci_lo, ci_hi;   /* 95% confidence interval of the median */
    double gflops, gbps;   /* from the median and the op's cost */
} cc_timing;

#define CC_REASON_MAX 256
#define CC_NAME_MAX 64

typedef struct cc_result {
    char case_id[CC_CASE_ID_MAX];
    char op[CC_NAME_MAX];
    char dtype[8];                 /* case dtype name */
    char target[CC_NAME_MAX];
    cc_regime regime;
    uint64_t seed;
    cc_verdict verdict;
    char reason[CC_REASON_MAX];    /* why (unsupported reason, error message, signal, worst element) */
    cc_metrics metrics;
    cc_timing timing;
    double flops, bytes;           /* cost of one execution */
    char plan[CC_REASON_MAX];      /* how the target ran it (kernel/algorithm), "" if unknown */
    double tol_c, tol_r, tol_atol; /* the policy constants used (see ops/policy.h) */
    int policy_version;
} cc_result;

#endif
