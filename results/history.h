/* history.h — a case's history over the runs of a database, one series per (machine,
 * target), and change-point detection over a series of times.
 *
 * Change points: a penalised piecewise-constant fit of the log-times, solved exactly by
 * optimal partitioning (dynamic programming over every segmentation):
 *   minimise  sum over segments of sum_i |y_i - median(segment)|  +  beta * (segments - 1)
 * with y = ln(time), every segment at least min_segment points long, and
 *   beta = penalty * sigma * ln(max(n, 20)),
 *   sigma = max(sigma_floor, 1.4826 * MAD(diff(y)) / sqrt 2)
 * (a robust noise scale from successive differences: a step adds one large difference, a
 * spike two, so neither inflates it). The absolute-deviation cost makes a lone outlier
 * cost the same wherever the boundaries fall, so a spike shorter than half of min_segment
 * can never pay for a segment of its own; a persistent step of enough runs does. Last,
 * adjacent segments whose medians differ by less than min_shift (relative) are merged,
 * repeatedly, smallest difference first. The result depends only on the input: no
 * randomness, no iteration limits. */
#ifndef CC_HISTORY_H
#define CC_HISTORY_H

#include "store_query.h"

typedef struct cc_changepoint_options {
    int min_segment;       /* default 3 */
    double penalty;        /* default 3 (see beta above) */
    double min_shift;      /* default 0.05 */
    double sigma_floor;    /* default 0.005 (0.5% in log terms) */
} cc_changepoint_options;

void cc_changepoint_options_default(cc_changepoint_options *opt);

/* A run of consecutive points with one level. */
typedef struct cc_segment {
    int first, n;          /* points first .. first + n - 1 of the input */
    double level;          /* the segment's median, in the input's units */
} cc_segment;

/* Segments x[0..n-1] (every x > 0, finite). opt may be NULL (defaults). One segment when n
 * is below 2 * min_segment. *segs is malloc'd (caller frees with free()), in order and
 * covering every point; the change points are segs[1..].first. CC_ERR_ARG for n < 1, a
 * non-positive or non-finite value, or bad options. */
cc_status cc_changepoints(const double *x, int n, const cc_changepoint_options *opt,
                          cc_segment **segs, int *n_segs, cc_err *err);

/* ---- a case's history ------------------------------------------------------------------ */

typedef struct cc_history_point {
    cc_series_point p;
    int run;               /* index into cc_history.runs */
    int segment;           /* its segment in the series (timed points only), else -1 */
    int change;            /* 1: a new level starts at this point */
} cc_history_point;

typedef struct cc_history_series {
    char target[CC_NAME_MAX];   /* for a model: "target precision" */
    int machine;           /* index into cc_history.machines */
    cc_history_point *pts;
    int n;
    cc_segment *segs;      /* over the timed points, first/n index pts */
    int n_segs;
} cc_history_series;

typedef struct cc_history {
    char name[CC_CASE_ID_MAX];  /* the case id, or the model name */
    int is_model;               /* 1: a model's history (series per target and precision) */
    cc_run_info *runs;     /* every run of the database, in time order */
    int n_runs;
    char (*machines)[512]; /* distinct machine keys (cc_env_machine_key) */
    int n_machines;
    cc_history_series *series;  /* ordered by machine, then target */
    int n_series;
} cc_history;

/* The history of case_id in store: for every target (or only `target` when non-NULL) and
 * every machine, the runs holding the case in time order, with change points over the
 * timed points. A case the database does not hold gives n_series == 0 (still CC_OK).
 * opt may be NULL. On success the caller owns *out (cc_history_free). */
cc_status cc_history_case(cc_db *store, const char *case_id, const char *target,
                          const cc_changepoint_options *opt, cc_history **out, cc_err *err);

/* The history of a model: for every (target, precision) (only `target` when non-NULL) and
 * every machine, the runs holding the model in time order, the latency p50 as the
 * median time (models store percentiles, not raw samples) and the throughput in the
 * gflops field; change points over the p50 series. Same ownership as cc_history_case. */
cc_status cc_history_model(cc_db *store, const char *model, const char *target,
                           const cc_changepoint_options *opt, cc_history **out, cc_err *err);
void cc_history_free(cc_history *h);

#endif
