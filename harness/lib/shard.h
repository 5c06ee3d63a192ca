/* shard.h — splitting the case list of a run across N machines or jobs (CI matrices, Slurm
 * job arrays, Kubernetes indexed jobs): shard I of N keeps the cases whose case-id hash is
 * I - 1 modulo N. The hash is 64-bit FNV-1a of the canonical case id, so the split is the
 * same on every machine, needs no coordination, and a case keeps its shard when other
 * cases are added or removed. Shards are numbered 1..N. */
#ifndef CC_SHARD_H
#define CC_SHARD_H

#include "../../ops/case.h"

/* 1 when shard i of n (1 <= i <= n) runs case_id, else 0; 0 for invalid i, n or a NULL id. */
int cc_shard_keep(const char *case_id, int i, int n);

/* Parses "I/N" (1 <= I <= N <= 100000) into *i and *n. CC_ERR_ARG with a one-line message
 * otherwise; *i and *n untouched then. */
cc_status cc_shard_parse(const char *text, int *i, int *n, cc_err *err);

/* Keeps, in order, the cases of cases[0..*n-1] that shard i of n runs; *n becomes their
 * count. */
void cc_shard_filter(cc_case *cases, int *n, int i, int n_shards);

/* ---- the shard from a scheduler's environment ------------------------------------------
 *
 * `crosscheck run` without --shard takes its shard from the job scheduler that started it:
 *
 *  Slurm job array (SLURM_ARRAY_TASK_ID set):
 *   - with CROSSCHECK_SHARD_COUNT=N: the task id is the shard number, 1..N (submit
 *     --array=1-N; a shard resubmitted alone, --array=3, stays shard 3 of N);
 *   - without it: the array as submitted is the set of shards. Its ids must be a regular
 *     range MIN, MIN+STEP, ..., MAX (SLURM_ARRAY_TASK_MIN/MAX/STEP/COUNT: --array=0-3,
 *     --array=1-4 and --array=0-6:2 are four shards), and task ID is shard
 *     (ID - MIN) / STEP + 1 of COUNT. A list of ids that is not such a range (--array=1,3,7)
 *     and a one-task array (a shard resubmitted alone would otherwise run everything) are
 *     refused: they need CROSSCHECK_SHARD_COUNT. `scontrol requeue` keeps the array's
 *     variables, so a requeued task keeps its shard.
 *  Kubernetes Indexed Job (JOB_COMPLETION_INDEX set): shard index + 1 of
 *     CROSSCHECK_SHARD_COUNT, which is required (Kubernetes does not export the completion
 *     count: the manifest sets the variable to spec.completions).
 *
 * Both schedulers' variables at once, CROSSCHECK_SHARD_COUNT without either, and values
 * that are not decimal numbers or fall outside their range are refused. An empty
 * variable counts as unset. */

#define CC_SHARD_COUNT_ENV "CROSSCHECK_SHARD_COUNT"

/* Where a run's shard came from, as stored with the run (runs.shard_source). */
#define CC_SHARD_SOURCE_OPTION "option"         /* --shard I/N: a CI matrix, a hand */
#define CC_SHARD_SOURCE_SLURM "slurm"
#define CC_SHARD_SOURCE_KUBERNETES "kubernetes"

typedef struct cc_shard_origin {
    int index, count;          /* shard index of count; count 0: no scheduler asked for one */
    char source[16];           /* CC_SHARD_SOURCE_*; "" when count is 0 */
    char job[128];             /* the scheduler's name for this task: "slurm 1234_3 (job 1240)",
                                  "kubernetes pod suite-3-x7k2p"; "" unknown */
} cc_shard_origin;

/* Reads one environment variable: its value, or NULL when unset. */
typedef const char *(*cc_shard_getenv)(const char *name, void *user);

/* The shard the environment names (above), read through get (getenv in the program, a
 * table in the tests). *out is zeroed first; out->count is 0 when no scheduler variable is
 * set. CC_ERR_ARG with one line naming the variable and its value otherwise. */
cc_status cc_shard_from_env(cc_shard_getenv get, void *user, cc_shard_origin *out, cc_err *err);

#endif
