/* store_query.h — read-only queries over a results database beyond those of store.h:
 * resolving a run reference as users write it, listing runs with their machines, every
 * timing sample of a run in one pass, the medians of a run, and a case's series over
 * runs. None of these functions writes to the database; all work on a handle opened
 * read-only. */
#ifndef CC_STORE_QUERY_H
#define CC_STORE_QUERY_H

#include "store.h"

/* Opens the database at path for reading, like cc_store_open(path, 1, ...), except that a
 * database of an older schema is not refused: it is copied (SQLite's backup API, read
 * through a read-only connection) to a temporary file, the copy is migrated and opened.
 * snapshot (n bytes) receives the copy's path, or "" when path was opened directly; after
 * cc_store_close the caller removes the copy with cc_store_remove_snapshot. The file at
 * path is never written. Errors as cc_store_open (a newer schema is refused). */
cc_status cc_store_open_readonly(const char *path, cc_db **out, char *snapshot, size_t n,
                                 cc_err *err);
/* Removes a snapshot made by cc_store_open_readonly with its -wal and -shm files.
 * Accepts NULL and "". */
void cc_store_remove_snapshot(const char *snapshot);

/* Resolves a run reference to a run id. Forms, tried in this order:
 *   "latest"            the latest run (runs are ordered by started_at, then id)
 *   "latest~N"          the Nth run before the latest in that order (latest~0 = latest)
 *   digits              the run with that id, when one exists
 *   a tag               the latest run whose tag equals the reference
 *   a uid prefix        (4..32 hex digits) the one run whose uid starts with it
 *   a git commit prefix (>= 4 characters) the latest run whose git commit starts with it
 * *run_id = 0 when the reference is well formed but matches no run (still CC_OK).
 * CC_ERR_ARG for an empty or malformed reference ("latest~x") or a uid prefix that
 * matches several runs; CC_ERR_DB when the database fails. */
cc_status cc_store_resolve_run(cc_db *store, const char *ref, int64_t *run_id, cc_err *err);

/* Every run of the database with its machine, ordered by started_at then id. *out is
 * malloc'd (NULL when *n is 0); the caller frees it with free(). */
cc_status cc_store_list_runs(cc_db *store, cc_run_info **out, int *n, cc_err *err);

/* The timing samples of one result. */
typedef struct cc_sample_set {
    char case_id[CC_CASE_ID_MAX];
    char target[CC_NAME_MAX];
    cc_regime regime;
    int64_t first;             /* index of its first sample in cc_run_samples.samples */
    int n;                     /* number of samples */
} cc_sample_set;

/* Every sample of a run, grouped by result, sets sorted by (case_id, target, regime)
 * with strcmp order on the strings. */
typedef struct cc_run_samples {
    cc_sample_set *sets;
    int n_sets;
    double *samples;
    int64_t n_samples;
} cc_run_samples;

/* Loads every timing sample of run run_id (none: an empty, valid *out). On success the
 * caller owns *out (free with cc_run_samples_free); on error *out is untouched. */
cc_status cc_store_load_run_samples(cc_db *store, int64_t run_id, cc_run_samples *out,
                                    cc_err *err);
void cc_run_samples_free(cc_run_samples *rs);
/* The set of (case_id, target, regime) in rs by binary search; NULL when absent. */
const cc_sample_set *cc_run_samples_find(const cc_run_samples *rs, const char *case_id,
                                         const char *target, cc_regime regime);

/* The median time and sample count of one result, for noise estimates over many runs. */
typedef struct cc_median_row {
    char case_id[CC_CASE_ID_MAX];
    char target[CC_NAME_MAX];
    cc_regime regime;
    int n_samples;
    double median;             /* seconds; NaN when not timed */
    double ref;                /* the reference loop's median stored beside it (results.t_ref,
                                  seconds) for host-timed results; NaN for device timings and
                                  results stored before schema 7 */
} cc_median_row;

/* The timed results (n_samples > 0) of a run, sorted like cc_run_samples' sets. *out is
 * malloc'd (NULL when *n is 0); the caller frees it with free(). */
cc_status cc_store_load_medians(cc_db *store, int64_t run_id, cc_median_row **out, int *n,
                                cc_err *err);

/* One result in brief, for summaries over many runs (the fleet report). */
typedef struct cc_result_brief {
    int64_t case_ref;          /* the case's row id: equal ids are the same case id in this
                                  database */
    char op[CC_NAME_MAX];
    char dtype[8];
    char target[CC_NAME_MAX];
    cc_regime regime;
    cc_verdict verdict;
    int n_samples;
    double gflops;             /* NaN when not timed */
} cc_result_brief;

/* Every result of a run in brief, sorted by (case_ref, target, regime). *out is malloc'd
 * (NULL when *n is 0); the caller frees it with free(). A stored verdict or regime this
 * code does not know is CC_ERR_DB. */
cc_status cc_store_load_briefs(cc_db *store, int64_t run_id, cc_result_brief **out, int *n,
                               cc_err *err);

/* One run's result for a case on a target: a point of the case's history. */
typedef struct cc_series_point {
    int64_t run_id;
    cc_verdict verdict;        /* the worst over the case's regimes in that run */
    int n_samples;             /* samples of the timed result (0: not timed) */
    double median;             /* seconds, NaN when not timed */
    double ci_lo, ci_hi;       /* 95% confidence interval of the median */
    double gflops;
    double bound_ratio;        /* the largest over the regimes */
} cc_series_point;

/* The history of case_id on target: one point per run holding a result for it, ordered
 * by the run's started_at then id. "Worst" uses cc_report_verdict_rank's order (crashed >
 * failed > timeout > error > mistrusted > unsupported > passed). *out is malloc'd (NULL
 * when *n is 0); the caller frees it with free(). */
cc_status cc_store_case_series(cc_db *store, const char *case_id, const char *target,
                               cc_series_point **out, int *n, cc_err *err);

/* The history of a model on target in precision: one point per run (time order) with
 * median = latency p50 (seconds), n_samples = latency samples, gflops = throughput in
 * images per second, bound_ratio NaN. Allocation as cc_store_case_series. */
cc_status cc_store_model_series(cc_db *store, const char *model, const char *target,
                                const char *precision, cc_series_point **out, int *n,
                                cc_err *err);

/* The distinct (target, precision) pairs holding a result of model, sorted; *out is a
 * malloc'd array of 2 * n names of CC_NAME_MAX bytes (target, precision, target, ...),
 * NULL when *n is 0, freed with free(). */
cc_status cc_store_model_keys(cc_db *store, const char *model, char (**out)[CC_NAME_MAX],
                              int *n, cc_err *err);

/* The distinct targets that hold a result for case_id, sorted by name. *out is a malloc'd
 * array of n names of CC_NAME_MAX bytes each (NULL when *n is 0), freed with free(). */
cc_status cc_store_case_targets(cc_db *store, const char *case_id, char (**out)[CC_NAME_MAX],
                                int *n, cc_err *err);

#endif
