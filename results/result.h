/* result.h — what one (case, target, regime) execution produced: the verdict with its
 * reason, the error metrics against the golden model (ops/verdict.h), and timing statistics. Shared by
 * the runner (which fills it), the store (which persists it) and the reports. */
#ifndef CC_RESULT_H
#define CC_RESULT_H

#include <stdint.h>

#include "../ops/op.h"
#include "../ops/verdict.h"

typedef struct cc_timing {
    int n_samples;         /* 0: not timed */
    int device_timer;      /* 1: samples are device-side times */
    double median, mean, stddev, mad, min, max, p90, p99, cv;
    double ci_lo, ci_hi;   /* 95% confidence interval of the median */
    double gflops, gbps;   /* from the median and the op's cost */
    double ref;            /* median seconds of the reference loop timed after each sample
                              (host timings; 0: none): the machine's speed while the case ran */
} cc_timing;

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
