/* conformance.h — results of the official ONNX node tests run on targets (`crosscheck
 * conformance`, harness/lib/conformance.h): one row per (run, test, target). Stored by
 * cc_store_put_conformance (results/conformance_store.c). */
#ifndef CC_CONFORMANCE_RESULT_H
#define CC_CONFORMANCE_RESULT_H

#include "result.h"
#include "store.h"

typedef struct cc_conformance_result {
    char test[128];               /* the test's folder name, e.g. test_conv_with_strides_padding */
    char op[CC_NAME_MAX];         /* the op the test is about (its name's op) */
    char target[CC_NAME_MAX];
    cc_verdict verdict;           /* passed, failed, unsupported, error, crashed, timeout */
    double ratio;                 /* largest |got - expected| / bound over the outputs; NaN when
                                     nothing was compared */
    char reason[CC_REASON_MAX];
} cc_conformance_result;

/* Stores r for run_id, replacing an earlier row of the same test and target, committed
 * before it returns. CC_ERR_ARG for bad arguments, CC_ERR_DB on failure. */
cc_status cc_store_put_conformance(cc_db *store, int64_t run_id, const cc_conformance_result *r, cc_err *err);
/* Every conformance result of a run, ordered by op, test, target; *out malloc'd (NULL when
 * *n is 0), caller frees. A database opened read-only before schema 8 has none. */
cc_status cc_store_load_conformance(cc_db *store, int64_t run_id, cc_conformance_result **out, int *n, cc_err *err);

#endif
