/* model_result.h — what one (model, target, precision) run produced: the verdict and its
 * reason, conformance against the golden model at the same precision, the accuracy cost
 * against the FP32 golden model, fallbacks, latency (percentiles and the raw samples),
 * throughput, the slowest layers and what the target chose (its plan). Stored by
 * cc_store_put_model_result (results/model_store.c). */
#ifndef CC_MODEL_RESULT_H
#define CC_MODEL_RESULT_H

#include "result.h"
#include "store.h"

typedef struct cc_model_result {
    char model[CC_NAME_MAX];
    char target[CC_NAME_MAX];
    char precision[8];            /* "f32", "f16", "bf16", "int8" */
    int n_images;                 /* inputs compared */
    cc_verdict verdict;
    char reason[CC_REASON_MAX];
    /* conformance: target vs golden at the same precision */
    double conf_cosine, conf_sqnr_db, conf_top1;
    /* accuracy cost: target vs FP32 golden (classification; NaN where not applicable) */
    double top1, top5, cosine, sqnr_db;
    /* detection vs FP32 golden detections (NaN for classifiers) */
    double det_precision, det_recall, det_map50;
    /* graph execution */
    int n_nodes, n_fallback;
    char fallback_ops[CC_REASON_MAX];
    double support_rate;          /* nodes the target ran itself / all nodes */
    /* performance */
    int lat_samples;
    double lat_p50, lat_p90, lat_p99;     /* seconds, batch 1 */
    int lat_device_timer;                 /* 1: the latencies are device-side times */
    int tp_batch;
    double throughput;                    /* images per second at tp_batch */
    double gflops, peak_share;            /* at batch 1; peak_share 0 when the peak is unknown */
    char layers[512];             /* slowest layers: "name op share%; ..." */
    char divergent[768];          /* first node over its bound and its case id, "" if none */
    uint64_t seed;
    char plan[4096];              /* the target's describe_plan text of the batch-1 graph
                                     (fallback segments named), "" if it has none */
    /* the recorded outputs (an ONNX test-data folder's output_*.pb: what the framework
       computed on the original machine), compared in the FP32 job: a second oracle */
    int rec_sets;                 /* test data sets compared; 0: none (no recorded outputs,
                                     another precision, or results stored before schema 9) */
    int rec_verdict;              /* cc_verdict of that comparison (passed, failed,
                                     mistrusted, error); stored only with rec_sets > 0 or a
                                     rec_reason (an error before any set), read back as -1
                                     where none was stored */
    double rec_sqnr_db;           /* the target against the recorded outputs (inf: equal) */
    double rec_golden_sqnr_db;    /* the golden model against them */
    double rec_max_abs;           /* the largest |target - recorded| */
    char rec_reason[CC_REASON_MAX];
    char config[512];             /* the model job's own settings, e.g.
                                     "model=resnet50;images=2;batch=8;size=224;seed=1"
                                     ("" in results stored before schema 5) */
} cc_model_result;

/* Stores r for run_id with its raw latency samples (seconds, batch 1, in the order taken;
 * samples may be NULL when n_samples is 0), replacing an earlier row of the same model,
 * target and precision and its samples, in one transaction committed before it returns.
 * CC_ERR_ARG for bad arguments, CC_ERR_DB on failure (nothing of r stored then). */
cc_status cc_store_put_model_result(cc_db *store, int64_t run_id, const cc_model_result *r,
                                    const double *samples, int n_samples, cc_err *err);
/* Every model result of a run, ordered by model, target, precision; *out malloc'd (NULL
 * when *n is 0), caller frees. */
cc_status cc_store_load_model_results(cc_db *store, int64_t run_id, cc_model_result **out, int *n,
                                      cc_err *err);

/* The raw latency samples of (run, model, target, precision) in the order put; *out
 * malloc'd (NULL when *n is 0), caller frees with free(). A result without samples (or
 * stored before schema 4, or absent) has none: *n = 0, CC_OK. */
cc_status cc_store_load_model_samples(cc_db *store, int64_t run_id, const char *model, const char *target,
                                      const char *precision, double **out, int *n, cc_err *err);

#endif
