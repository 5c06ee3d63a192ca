/* compare.h — a candidate run judged against a baseline run: verdict changes, accuracy
 * changes and timing changes, each row with its evidence, and one outcome that decides
 * the exit code and the report's verdict line.
 *
 * The rules, in the words the report prints them:
 *  - Rows are (case, target, regime) present in both runs; rows in only one run are
 *    counted, never judged.
 *  - Verdicts fall in three classes, good (passed, mistrusted) < unsupported < bad
 *    (failed, error, crashed, timeout). Moving to a worse class is a regression whatever
 *    the timing (passed -> failed; passed -> unsupported: support lost); moving to a
 *    better class is an improvement. Changes inside a class are shown, not judged.
 *  - Accuracy (both verdicts good): bound_ratio (max error / tolerance bound, <= 1 passes)
 *    regresses when the candidate's is >= acc_floor and >= acc_factor x the baseline's
 *    (defaults 0.25 and 2: the error grew at least twofold and now uses a quarter of the
 *    tolerance); the mirror image is an improvement.
 *  - Timing (both verdicts good, both with >= min_samples raw samples) is judged in two
 *    stages, because on a shared machine the level of a single result moves between runs
 *    far more than its own samples spread (the machine's state changes: other processes,
 *    clocks, thread wake-ups), while a change in the code moves a whole op family.
 *    1. Row test: a two-sided Mann-Whitney U test on the raw samples (cc_mann_whitney,
 *       p < alpha) AND a change of medians beyond min_effect (default 10%; slower:
 *       cand/base - 1 > T, faster: base/cand - 1 > T).
 *    2. Family confirmation: a row's change counts only when the level of its op family
 *       moved the same way beyond the family threshold. A family is the timed rows of one
 *       op on one target (all dtypes); its level is the median over its rows of
 *       log(cand median / base median). The family threshold is log(1 + noise_floor)
 *       (default 5%); with noise_auto (the default) it is raised to noise_factor
 *       (default 2) x the spread (highest - lowest) of the family's level over the A/A
 *       history, when that holds at least one run beside the baseline: the finished runs
 *       in the baseline's database with the baseline's git commit and stable environment,
 *       started no later than the candidate (the history as it stood; baseline and
 *       candidate excluded), each run's level taken over the family's rows it timed,
 *       relative to the baseline's stored medians (the baseline's own level is 0), each
 *       row's ratio divided by how much slower its reference loop ran than the
 *       baseline's (host timings that stored one), as the candidate's samples are.
 *    A row that passes the row test while its family did not move is "unconfirmed": shown
 *    and counted, never a regression or an improvement; unless its own evidence is strong
 *    ("lone"): the candidate ran on a quiet machine (its stored busy flag, cc_env_is_busy,
 *    is 0: other processes used less than a quarter of the CPU while it ran; a busy
 *    candidate, or one whose conditions are unknown, gets no lone judgement), its A/A
 *    history holds at least two runs beside the baseline, its U test p < lone_alpha
 *    (default 1e-6, which 5 samples a side can never reach) and its change
 *    |log(cand/base)| exceeds both log(1 + lone_effect) (default 20%) and lone_factor
 *    (default 3) x the spread of its own level over those runs. So one kernel falling off
 *    a fast path is flagged even when the rest of its family holds still, while a case
 *    that merely moved with the machine's noise is not. The quiet machine is required
 *    because a case is timed in one short window (milliseconds): on a busy machine
 *    contention can slow that whole window, which its own samples cannot tell from a code
 *    change (whatever the p-value) and an A/A history of a few runs does not foresee
 *    (measured on a loaded 2-core machine, in an A/A pair: one 6.5 us Conv 2.1x slower,
 *    p ~ 1e-210, against an own spread of 5%). A family of one row is confirmed by its
 *    own change, so a lone case still counts once it clears both thresholds.
 *  - Models (model, target, precision): the same verdict classes; accuracy regresses when
 *    top-1 agreement (classifiers) or mAP@0.5 (detectors) against the FP32 golden model
 *    drops by more than model_acc_drop (default 0.01, one point). Latency (batch 1) is
 *    judged like a case's timing, a model being its own family: the row test on the raw
 *    latency samples (U test p < alpha and a change of medians beyond min_effect), then
 *    the family stage with the model's own change as its level: it must pass the family
 *    threshold, the floor raised to noise_factor x the spread of the model's p50 over the
 *    A/A history (the same runs as above, each run's level log(its p50 / the baseline's))
 *    when that holds at least one run beside the baseline; else "unconfirmed". Model
 *    results stored without raw samples (before schema 4) are judged on the p50 change
 *    alone (p is NaN), with the same thresholds.
 *  - ONNX node tests (conformance results, a run of `crosscheck conformance` or one it
 *    joined): (test, target) in both runs, judged by verdict class as cases are.
 *  - Like with like: the stable parts of the environment (CPU model, cores, the
 *    libraries text, the device name of every target both runs hold) must match, else
 *    the outcome is "not comparable" unless cross_env is set. Volatile parts (host, OS,
 *    memory, compiler, git commit, drivers, dates) are listed, never judged; so are the
 *    runs' conditions (load average, frequency governor, clocks, busy), shown beside
 *    each run.
 *  - Outcome: regression if any row regressed; else improvement if any improved; else
 *    no change; "not enough data" when nothing could be compared (no rows in common, or
 *    environments differ without cross_env). */
#ifndef CC_COMPARE_H
#define CC_COMPARE_H

#include "store.h"

/* ---- the rank test ------------------------------------------------------------------- */

typedef struct cc_mwu {
    double u;        /* U of the first sample: pairs (a_i, b_j) with a_i > b_j, ties 1/2 */
    double z;        /* normal score with tie and continuity corrections; 0 when exact */
    double p;        /* two-sided p-value */
    int exact;       /* 1: p from the exact null distribution of U */
} cc_mwu;

/* Two-sided Mann-Whitney U (Wilcoxon rank-sum) test of a[0..na-1] against b[0..nb-1].
 * Exact p-value (the distribution of U from the Gaussian binomial generating function)
 * when na < 50, nb < 50 and there are no ties; otherwise the normal approximation with
 * tie correction of the variance and a continuity correction of 1/2. NaN samples are
 * CC_ERR_ARG, as are na < 1 or nb < 1. a and b are not modified. */
cc_status cc_mann_whitney(const double *a, int na, const double *b, int nb, cc_mwu *out,
                          cc_err *err);

/* ---- options ------------------------------------------------------------------------- */

typedef struct cc_compare_options {
    double alpha;          /* significance level of the U test (default 0.01) */
    double min_effect;     /* row test: relative change of medians that counts (default 0.10) */
    int noise_auto;        /* 1 (default): family thresholds from the A/A history (see above) */
    double noise_factor;   /* default 2 */
    double noise_floor;    /* family threshold without history (default 0.05) */
    int min_samples;       /* fewer raw samples in either run: timing not judged (default 5) */
    int timing;            /* 0: verdicts and accuracy only (default 1) */
    int cross_env;         /* 1: compare even when stable environment parts differ */
    double acc_factor;     /* default 2 */
    double acc_floor;      /* default 0.25 */
    double model_acc_drop; /* default 0.01 */
    double lone_alpha;     /* a lone mover's U test bound (default 1e-6; 0 disables) */
    double lone_effect;    /* a lone mover's minimum change (default 0.20) */
    double lone_factor;    /* ... and its multiple of its own A/A spread (default 3) */
} cc_compare_options;

void cc_compare_options_default(cc_compare_options *opt);

/* ---- environment fingerprint ------------------------------------------------------------ */

typedef struct cc_env_diff {
    char what[80];         /* "cpu model", "device of target cpu", "hostname", ... */
    char base[256];
    char cand[256];
    int stable;            /* 1: a stable part (blocks the comparison without cross_env) */
} cc_env_diff;

/* The environment differences between two runs (with their targets): every stable part
 * that differs, then every volatile part that differs. *out malloc'd (NULL when *n is 0),
 * freed with free(); *n_stable counts the stable differences. */
cc_status cc_env_compare(const cc_run_info *a, const cc_run_target *ta, int na,
                         const cc_run_info *b, const cc_run_target *tb, int nb,
                         cc_env_diff **out, int *n, int *n_stable, cc_err *err);

/* The machine part of the stable fingerprint as one line (CPU model, cores, libraries):
 * runs with equal text ran on the same kind of machine and build environment. */
void cc_env_machine_key(const cc_run_info *run, char *buf, size_t n);

/* ---- comparison -------------------------------------------------------------------------- */

typedef enum cc_change {
    CC_CHANGE_NONE = 0,
    CC_CHANGE_REGRESSION,
    CC_CHANGE_IMPROVEMENT,
    CC_CHANGE_NEUTRAL      /* changed, but not judged (e.g. failed -> crashed) */
} cc_change;

typedef enum cc_outcome {
    CC_OUTCOME_NO_CHANGE = 0,
    CC_OUTCOME_REGRESSION,
    CC_OUTCOME_IMPROVEMENT,
    CC_OUTCOME_NO_DATA
} cc_outcome;

/* One (case, target, regime) in both runs. Timing fields are NaN (n_* = 0) when not
 * timed; p and the family fields are NaN when the test did not run. */
typedef struct cc_compare_row {
    char case_id[CC_CASE_ID_MAX];
    char op[CC_NAME_MAX];
    char dtype[8];
    char target[CC_NAME_MAX];
    cc_regime regime;
    cc_verdict base_verdict, cand_verdict;
    cc_change verdict_change;
    double base_bound_ratio, cand_bound_ratio;
    double base_max_rel, cand_max_rel;
    cc_change accuracy_change;
    int base_n, cand_n;            /* raw samples */
    double base_median, cand_median;
    double base_gflops, cand_gflops;
    double change;                 /* cand_median / base_median - 1 */
    double speed;                  /* the candidate's reference-loop median over the
                                      baseline's (results.t_ref, both host-timed; else 1):
                                      how much slower the candidate's machine ran while this
                                      case was sampled. The candidate's samples are divided
                                      by it before the medians, the change and the U test */
    double p;                      /* U test p-value */
    double threshold;              /* the row's effect threshold (min_effect) */
    double family_change;          /* level change of the row's op family (NaN: not timed) */
    double family_threshold;       /* the family's threshold, as a relative change */
    int family_rows;               /* timed rows in the family */
    int noise_runs;                /* A/A runs behind the family threshold, the baseline
                                      included (0: the floor alone) */
    int unconfirmed;               /* +1 slower / -1 faster by the row test while the family
                                      did not move: not judged */
    int lone;                      /* 1: judged on its own strong evidence although its
                                      family did not move (see the rule; never when the
                                      candidate ran busy) */
    double own_spread;             /* the spread of the row's own level over its A/A runs,
                                      as a relative change (NaN: fewer than two) */
    cc_change timing_change;
    cc_change change_kind;         /* regression if any part regressed, else improvement if
                                      any improved, else neutral if a verdict changed */
} cc_compare_row;

/* One (model, target, precision) in both runs. */
typedef struct cc_compare_model_row {
    char model[CC_NAME_MAX];
    char target[CC_NAME_MAX];
    char precision[8];
    cc_verdict base_verdict, cand_verdict;
    cc_change verdict_change;
    char metric[8];                /* "top1", "mAP50" or "" (none comparable) */
    double base_acc, cand_acc;
    cc_change accuracy_change;
    int base_n, cand_n;            /* latency samples */
    double base_p50, cand_p50;     /* seconds: the median of the raw samples where stored,
                                      else the stored p50 */
    double change;                 /* cand_p50 / base_p50 - 1 */
    double p;                      /* U test p-value on the raw latency samples (NaN: not
                                      tested, e.g. results stored without samples) */
    double threshold;              /* min_effect */
    double family_threshold;       /* the model's own family threshold, as a relative
                                      change (NaN: timing not judged) */
    int noise_runs;                /* A/A runs behind family_threshold, the baseline
                                      included (0: the floor alone) */
    int unconfirmed;               /* +1 slower / -1 faster by the row test, below the
                                      family threshold: not judged */
    double base_throughput, cand_throughput;
    cc_change timing_change;
    cc_change change_kind;
} cc_compare_model_row;

/* One (ONNX node test, target) of `crosscheck conformance` in both runs: judged by its
 * verdict class alone, as a case's verdict is (a test that passed and now fails is a
 * regression; unsupported to passed, an improvement). */
typedef struct cc_compare_conf_row {
    char test[128];
    char op[CC_NAME_MAX];
    char target[CC_NAME_MAX];
    cc_verdict base_verdict, cand_verdict;
    cc_change change_kind;
} cc_compare_conf_row;

typedef struct cc_comparison {
    cc_compare_options opt;
    cc_run_info base, cand;
    cc_run_target *base_targets, *cand_targets;
    int n_base_targets, n_cand_targets;
    cc_env_diff *diffs;
    int n_diffs, n_stable_diffs;
    cc_compare_row *rows;          /* sorted by op, dtype, case id, target, regime */
    int n_rows;
    int only_base, only_cand;      /* rows in one run only */
    cc_compare_model_row *mrows;   /* sorted by model, target, precision */
    int n_mrows;
    int only_base_models, only_cand_models;
    cc_compare_conf_row *crows;    /* node tests in both runs, sorted by op, test, target */
    int n_crows;
    int only_base_conf, only_cand_conf;
    int n_regressions, n_improvements, n_neutral;   /* case, model and node test rows together */
    int n_timed;                   /* rows whose timing was judged */
    int n_unconfirmed;             /* case and model rows moved alone (see unconfirmed) */
    int noise_history;             /* A/A runs found for noise_auto, the baseline included
                                      (0: noise_auto off or nothing timed) */
    int lone_rule;                 /* 1: the lone rule was in force (timing judged, lone_alpha
                                      > 0, the candidate's busy flag 0); 0: off */
    int ref_unsteady;              /* 1: the reference loop widened the A/A history here, so
                                      timings were compared unscaled (compare_int.h) */
    cc_outcome outcome;
    char reason[256];              /* one line: why the outcome */
} cc_comparison;

/* Compares candidate run cand_run of cand_db with baseline run base_run of base_db (the
 * two handles may be the same). opt may be NULL (defaults). Reads only. An environment
 * mismatch or no rows in common is not an error: the comparison is returned with outcome
 * CC_OUTCOME_NO_DATA and the reason. CC_ERR_ARG for a run that does not exist or bad
 * options, CC_ERR_DB, CC_ERR_NOMEM. On success *out is owned by the caller
 * (cc_comparison_free). */
cc_status cc_compare_runs(cc_db *base_db, int64_t base_run, cc_db *cand_db, int64_t cand_run,
                          const cc_compare_options *opt, cc_comparison **out, cc_err *err);
void cc_comparison_free(cc_comparison *c);

/* The exit code of an outcome: 0 no change, 1 regression, 4 improvements only, 5 nothing
 * to judge (the table of harness/exit_codes.h). */
int cc_compare_exit_code(cc_outcome o);
/* "NO REGRESSION", "REGRESSION", "IMPROVEMENT", "NOT ENOUGH DATA". */
const char *cc_outcome_name(cc_outcome o);
/* "regression", "improvement", "changed", "" */
const char *cc_change_name(cc_change c);

#endif
