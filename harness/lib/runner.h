/* runner.h — the suite: selects cases and targets, runs every (case, regime, target) job
 * in the isolated worker, commits each result to the store as it arrives, and resumes an
 * interrupted run. Progress goes to a caller-supplied callback (library code never prints). */
#ifndef CC_RUNNER_H
#define CC_RUNNER_H

#include "../../results/store.h"
#include "worker.h"

#define CC_RUN_MAX_TARGETS 32
#define CC_RUN_MAX_OPS 256

typedef struct cc_selection {
    int n_ops;                        /* 0: every catalog op */
    const cc_op_def *ops[CC_RUN_MAX_OPS];
    unsigned dtypes;                  /* mask of case dtypes; 0: all */
    const char *case_id;              /* non-NULL: exactly this case */
    int quick;
    unsigned tags;                    /* CC_SWEEP_* mask (--tags): only sweep cases with one
                                         of these tags; 0: every case */
    const cc_case *cases;             /* non-NULL: exactly these n_cases (--cases-file) */
    int n_cases;
    const char *cases_file;           /* where cases came from (part of the config text) */
    int shard_i, shard_n;             /* shard_n > 0: only shard shard_i of shard_n (lib/shard.h) */
    int random_n;                     /* > 0: that many cases drawn at random from the selected
                                         ops (ops/random.h), with random_seed */
    uint64_t random_seed;
} cc_selection;

typedef struct cc_run_options {
    const char *db_path;
    int n_targets;
    const cc_target_iface *targets[CC_RUN_MAX_TARGETS];
    const char *devices[CC_RUN_MAX_TARGETS]; /* "" default device */
    cc_selection sel;
    uint64_t seed;
    double timeout_s;                 /* per job */
    size_t mem_limit_mb;
    cc_exec_params params;
    int resume;
    const char *shard_source;         /* where sel's shard came from (lib/shard.h's
                                         CC_SHARD_SOURCE_*), stored with the run; NULL when
                                         the run is not a shard */
    const char *scheduler_job;        /* the scheduler's name for this task, added to the
                                         run's scheduler_jobs (a resumed run's too); NULL none */
    const char *tag;
    const char *command_line;
    const char *libraries;            /* library versions text for the fingerprint */
    const char *git_commit;
    const char *version;
    volatile int *interrupt;          /* set non-zero (by a signal handler) to stop */
} cc_run_options;

typedef enum cc_progress_event {
    CC_PROGRESS_START,     /* total known */
    CC_PROGRESS_TARGET,    /* a target was probed: name, available, reason, desc */
    CC_PROGRESS_RESULT,    /* a result was stored */
    CC_PROGRESS_SKIPPED    /* a job already in the resumed run */
} cc_progress_event;

typedef struct cc_progress {
    cc_progress_event event;
    int done, total;
    int not_passed;                   /* failed + error + crashed + timeout so far */
    double elapsed;                   /* seconds since start */
    const cc_result *result;          /* CC_PROGRESS_RESULT */
    const char *target;               /* CC_PROGRESS_TARGET */
    int available;
    const char *reason;
    const cc_device_desc *desc;
    int64_t run_id;
    int resumed;
    const char *shrunk_from;          /* CC_PROGRESS_RESULT of a shrunk case: the drawn case
                                         it was shrunk from; NULL otherwise */
} cc_progress;

typedef void (*cc_progress_fn)(void *user, const cc_progress *p);

typedef struct cc_run_summary {
    int64_t run_id;
    int resumed;
    int interrupted;
    int counts[CC_VERDICT_COUNT];
    int jobs, skipped;
    double wall_s;
} cc_run_summary;

/* Expands a selection into parsed cases (catalog sweeps or the single case id). *out is
 * malloc'd (free()). CC_ERR_ARG for a malformed case id; CC_ERR_INTERNAL when a
 * generator emits a bad case. */
cc_status cc_select_cases(const cc_selection *sel, cc_case **out, int *n, cc_err *err);

/* The canonical text of a run's selection, used to find the run to resume. */
void cc_run_config_text(const cc_run_options *o, char *buf, size_t n);

/* In random mode (sel.random_n > 0) every failed, error or crashed job is then shrunk:
 * the shrinker's candidates (ops/random.h) run on the same target in the same regime
 * until none fails the same way, and the smallest failing case is recorded as a result
 * of its own (reason ending "(shrunk from ID)"), so its case id is its repro line. At
 * most CC_SHRINK_PER_KEY failures per (op, target, verdict) and CC_SHRINK_MAX per run are
 * shrunk, each with at most CC_SHRINK_RUNS candidate runs. */
#define CC_SHRINK_PER_KEY 2
#define CC_SHRINK_MAX 40
#define CC_SHRINK_RUNS 300

/* Runs the suite. Results already committed stay in the database whatever happens.
 * Errors: CC_ERR_DB (database unusable: open, or a write failed mid-run), CC_ERR_ARG
 * (selection), CC_ERR_INTERNAL (fork/pipe). An interrupt is not an error: the run is
 * marked "interrupted" and sum->interrupted is set. */
cc_status cc_run_suite(const cc_run_options *o, cc_progress_fn fn, void *user, cc_run_summary *sum,
                       cc_err *err);

#endif
