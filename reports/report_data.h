/* report_data.h — internal to reports/: one run loaded from the store and indexed the
 * way the Markdown sections read it (ops, dtypes and targets in display order, distinct
 * cases, each case's outcome on each target, and the run's model results). */
#ifndef CC_REPORT_DATA_H
#define CC_REPORT_DATA_H

#include "../results/conformance.h"
#include "../results/model_result.h"
#include "../results/shards.h"
#include "report.h"
#include "text.h"

/* A distinct case of the run. */
typedef struct cc_rcase {
    int first;       /* index of its first result */
    int op, dtype;   /* indices into ops / dtypes */
} cc_rcase;

/* A case on a target: the worst verdict over its regimes. */
typedef struct cc_routcome {
    int first, n;    /* its results: res[first .. first + n - 1] */
    int kase;        /* index into cases */
    int target;      /* index into targets */
    cc_verdict worst;
} cc_routcome;

typedef struct cc_rdata {
    cc_report_options opt;
    cc_run_info *run;
    cc_run_target *targets;   /* the run's targets, then any named only by results (op
                                 results first, then model results) */
    int n_targets;
    int n_listed;             /* targets[0 .. n_listed-1] came from the run's target list */
    cc_result *res;
    int n_res;
    int *res_target;          /* target index of each result */
    cc_rcase *cases;
    int n_cases;
    cc_routcome *oc;
    int n_oc;
    const char **ops;         /* catalog order, then by name */
    int n_ops;
    const char **dtypes;      /* dtype enum order, then by name */
    int n_dtypes;
    int baseline;             /* index of opt.baseline among targets, -1 if absent */
    cc_model_result *models;  /* the run's model results: by model, target, precision */
    int n_models;
    int *model_target;        /* target index of each model result */
    cc_conformance_result *conf; /* the run's ONNX node test results: by op, test, target */
    int n_conf;
    cc_scan_result *scans;    /* the run's model scans: by model, then as stored */
    int n_scans;
    cc_shard_set shards;      /* the run is a shard (shards.count > 0): everything above holds
                                 the results of every shard's run of its set (the run asked
                                 for stands for its own shard), targets in the order first
                                 seen; shards.members[i].run_id 0 where shard i + 1 is missing */
} cc_rdata;

/* A target's op cases: those it ran (0 for a target only the model jobs used), passed
 * (every regime passed) and claimed (not unsupported). */
typedef struct cc_rsupport {
    long ran, passed, claimed;
} cc_rsupport;

/* A no-break space (UTF-8): keeps a verdict symbol with its word in narrow table cells. */
#define CC_NBSP "\xc2\xa0"

/* Verdicts from best to worst (by cc_report_verdict_rank): the display order of verdict
 * columns, legends and matrix cells. */
extern const cc_verdict cc_report_verdict_order[CC_VERDICT_COUNT];

/* Model precisions in display order ("f32", "f16", "bf16", "int8"). */
#define CC_N_PRECISIONS 4
extern const char *const cc_report_precisions[CC_N_PRECISIONS];
/* Display rank of a precision: its index in cc_report_precisions; CC_N_PRECISIONS for any
 * other. */
int cc_report_precision_order(const char *precision);

/* Display rank of an op: its catalog index; ops outside the catalog after them. */
int cc_report_op_order(const char *name);
/* Display rank of a dtype name: the dtype enum order; unknown names after them. */
int cc_report_dtype_order(const char *name);

/* Loads and indexes run run_id (<= 0: latest); a shard's run with the other shards of its
 * set (results/shards.h). On error d holds nothing to free. */
cc_status cc_rdata_load(cc_db *store, int64_t run_id, const cc_report_options *opt,
                        cc_rdata *d, cc_err *err);
void cc_rdata_free(cc_rdata *d);

/* Op support of target index g over the run's distinct cases. */
cc_rsupport cc_rdata_support(const cc_rdata *d, int g);

/* Cell text for a target's status: "✅ available", "⛔ unavailable: <reason>" (reason
 * escaped), or "not in the run's target list". */
void cc_report_target_status(cc_text *t, const cc_run_target *g);

/* What kind of peak a peak_source names, to follow "x% of ": "measured peak",
 * "estimated peak", or "peak, source unknown". */
const char *cc_report_peak_kind(const char *peak_source);

/* The model section (models.c): nothing when the run has no model results. */
void cc_report_models(const cc_rdata *d, cc_text *t);
/* The conformance section (ONNX node tests per target and op), when the run has them
 * (conformance.c). */
void cc_report_conformance(const cc_rdata *d, cc_text *t);
/* "| `test` | op | `target` |": the first cells of a node test's table row (conformance.c;
 * the regression report's node tests too). */
void cc_report_test_cells(cc_text *t, const char *test, const char *op, const char *target);
/* The model scans' section (op support per model and target before running), when the run
 * has them (scan.c). */
void cc_report_scans(const cc_rdata *d, cc_text *t);

/* The command that reruns one model result, e.g. "crosscheck model run resnet50 --targets
 * cpu --precisions f16 --images 2 --batch 2 --size 64 --seed 1" (options from r->config;
 * --seed from r->seed when config has none). Plain text: the caller escapes it. */
void cc_report_model_repro(cc_text *t, const cc_model_result *r);

/* A run's volatile conditions as one line of Markdown (machines.c): load average at the
 * start and the end, governor, clocks, the share of the CPU other processes used, busy. */
void cc_report_conditions(cc_text *t, const cc_run_info *run);

/* The machines of a database (machines.c), when it holds runs of at least min_machines
 * machines (cc_env_machine_key); nothing otherwise. Per machine, from its latest build
 * (git commit): the latest finished run of each distinct selection, so that shards add
 * up, each (case, target, regime) taken from the newest of those runs holding it. Writes
 * a "## <heading>" section: the machines, support rate per target, op support per
 * machine and target, and the geometric mean GFLOP/s per target and dtype over the
 * results that passed and were timed on every machine running that target. */
cc_status cc_report_machines(cc_db *store, int min_machines, const char *heading, cc_text *t,
                             cc_err *err);

/* The "At a glance" section (glance.c): per target its status and op support rate; per
 * model and target, throughput and accuracy cost per precision with the verdict. */
void cc_report_glance(const cc_rdata *d, cc_text *t);

/* The op-support section (matrix.c): the compact matrix (ops x targets, a cell groups the
 * dtypes by worst verdict), its legend, and per target a collapsed op x dtype table. */
void cc_report_matrix(const cc_rdata *d, cc_text *t);

/* Sections written by details.c. */
void cc_report_failures(const cc_rdata *d, cc_text *t);
void cc_report_unsupported(const cc_rdata *d, cc_text *t);
void cc_report_performance(const cc_rdata *d, cc_text *t);

#endif
