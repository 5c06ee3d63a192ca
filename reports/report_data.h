/* report_data.h — internal to reports/: one run loaded from the store and indexed the
 * way the Markdown sections read it (ops, dtypes and targets in display order, distinct
 * cases, and each case's outcome on each target). */
#ifndef CC_REPORT_DATA_H
#define CC_REPORT_DATA_H

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
    cc_run_target *targets;   /* the run's targets, then any named only by results */
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
} cc_rdata;

/* Display rank of an op: its catalog index; ops outside the catalog after them. */
int cc_report_op_order(const char *name);
/* Display rank of a dtype name: the dtype enum order; unknown names after them. */
int cc_report_dtype_order(const char *name);

/* Loads and indexes run run_id (<= 0: latest). On error d holds nothing to free. */
cc_status cc_rdata_load(cc_db *store, int64_t run_id, const cc_report_options *opt,
                        cc_rdata *d, cc_err *err);
void cc_rdata_free(cc_rdata *d);

/* The model section (models.c): nothing when the run has no model results. */
cc_status cc_report_models(cc_db *store, int64_t run_id, cc_text *t, cc_err *err);

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

/* Sections written by details.c. */
void cc_report_failures(const cc_rdata *d, cc_text *t);
void cc_report_unsupported(const cc_rdata *d, cc_text *t);
void cc_report_performance(const cc_rdata *d, cc_text *t);

#endif
