/* conformance.h — results of the official ONNX node tests run on targets (`crosscheck
 * conformance`, harness/lib/conformance.h): one row per (run, test, target); and model
 * scans (`crosscheck scan`): per (run, model, target, op type) the nodes a target would
 * run. Stored by results/conformance_store.c. */
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

typedef struct cc_scan_result {
    char model[CC_NAME_MAX];
    char target[CC_NAME_MAX];     /* "" : the catalog itself (supported: the op is in it) */
    char op[CC_NAME_MAX];         /* the op type ("com.microsoft.X" for another domain) */
    int nodes;                    /* the model's nodes of that op */
    int supported;                /* of them, those the target would run */
    char reason[CC_REASON_MAX];   /* why the first declined node is declined ("" when none is) */
} cc_scan_result;

/* Stores r for run_id, replacing an earlier row of the same model, target and op. */
cc_status cc_store_put_scan(cc_db *store, int64_t run_id, const cc_scan_result *r, cc_err *err);
/* Every scan result of a run, ordered by model, then the catalog's row and the targets as
 * stored (row id), op in stored order; *out malloc'd (NULL when *n is 0), caller frees. */
cc_status cc_store_load_scans(cc_db *store, int64_t run_id, cc_scan_result **out, int *n, cc_err *err);

#endif
