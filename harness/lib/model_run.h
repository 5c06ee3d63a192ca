/* model_run.h — `crosscheck model run`: a model (built in or ONNX) on every selected
 * target in every selected precision, each (target, precision) job in a forked child
 * with a time limit. Per job: conformance against the golden model at the same
 * precision, accuracy cost against the FP32 golden model (judged by a budget), fallbacks
 * to `cpu`, latency at batch 1, throughput at a larger batch, the slowest layers, and —
 * when a result is out of bound — the first divergent node with its case id. Each result
 * is committed to the store as it arrives. */
#ifndef CC_MODEL_RUN_H
#define CC_MODEL_RUN_H

#include "../../results/model_result.h"
#include "../../models/model.h"
#include "runner.h"

#define CC_MODEL_MAX_PREC 4

typedef struct cc_model_run_options {
    const char *db_path;
    const char *model;                /* built-in name or path to a .onnx file */
    const char *testdata;             /* an ONNX test-data folder (model.onnx beside
                                         test_data_set_N/input_K.pb, output_K.pb) when the
                                         model came from one, model then its model.onnx:
                                         the FP32 jobs also compare with its recorded
                                         outputs (models/testdata.h); NULL otherwise */
    int n_rec_inputs, n_rec_expected; /* one recorded set from loose files (--inputs,
                                         --expected: .pb TensorProtos or .npy), compared
                                         like a test-data folder's set; 0: none */
    const char *rec_inputs[CC_MAX_IO], *rec_expected[CC_MAX_IO];
    int n_targets;
    const cc_target_iface *targets[CC_RUN_MAX_TARGETS];
    const char *devices[CC_RUN_MAX_TARGETS];
    int n_prec;
    char precisions[CC_MODEL_MAX_PREC][8]; /* "f32", "f16", "bf16", "int8" */
    int n_images;                     /* inputs compared (default 8) */
    int batch;                        /* throughput batch (default 8; 1 disables) */
    int batches[CC_RUN_MAX_TARGETS];  /* per target (same index): its own batch; 0: batch */
    int image_size;                   /* 0: the model's default */
    uint64_t seed;
    const char *weights_path;         /* NULL: synthetic weights */
    const char *name;                 /* an ONNX model's name (NULL: its file's) */
    int n_shapes;                     /* shapes bound to an ONNX model's inputs (--input-shape) */
    const char *shape_names[CC_MAX_IO];
    cc_shape shapes[CC_MAX_IO];
    const char *budget;               /* overrides, e.g. "top1=0.995,cosine=0.99" */
    int calib_images;                 /* INT8 calibration inputs (default 8) */
    const char *calib_method;         /* "minmax" (default) or "percentile" */
    double timeout_s;                 /* per job */
    size_t mem_limit_mb;              /* the most the model may need (cc_model_mem_need),
                                         and each job's backstop; 0: none */
    double min_time;                  /* latency sampling (default 1 s) */
    int min_samples;                  /* (default 10) */
    int layers;                       /* 1: per-layer breakdown */
    const char *join_run;             /* NULL: a run of its own; else a run reference
                                         (cc_store_resolve_run) whose run the results join */
    const char *tag, *command_line, *libraries, *git_commit, *version;
    volatile int *interrupt;
} cc_model_run_options;

typedef void (*cc_model_progress_fn)(void *user, const char *line, const cc_model_result *r);

typedef struct cc_model_summary {
    int64_t run_id;
    int counts[CC_VERDICT_COUNT];
    int rec_bad;                      /* FP32 jobs whose recorded outputs they failed to
                                         match (rec_verdict failed or error) */
    int interrupted;
    double wall_s;
} cc_model_summary;

/* Bytes a model run needs, from the model's shapes alone (so a model is judged the same
 * on every host): its weights twice (the host model and a target's copy), every value of
 * the graph at batch 1 in its dtype plus 16 bytes per element (the golden evaluation
 * keeps them all, with value and magnitude, for locating a divergence), and every value
 * at `batch` in its dtype (a target holding them all). m is the batch-1 model. A model
 * whose batch-1 need passes mem_limit_mb is unsupported on every target and precision;
 * a throughput batch whose need passes it is not run (throughput stays at batch 1). */
double cc_model_mem_need(const cc_model *m, int batch);

/* Parses a --batch value into o->batch and o->batches: a comma-separated list of B (every
 * target's batch) and TARGET=B items, TARGET one of o's targets, B in 1..4096, e.g.
 * "8,cuda=64". Call after o's targets are set. A malformed item or a target not in o:
 * CC_ERR_ARG with one line, o unchanged. */
cc_status cc_model_run_parse_batch(cc_model_run_options *o, const char *spec, cc_err *err);

/* Runs the model. CC_ERR_ARG for an unknown model, a malformed ONNX file, bad options
 * (one line naming the problem, nothing recorded); CC_ERR_DB for the database. Results
 * already committed stay whatever happens. */
cc_status cc_model_run(const cc_model_run_options *o, cc_model_progress_fn fn, void *user,
                       cc_model_summary *sum, cc_err *err);

#endif
