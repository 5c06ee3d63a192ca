/* merge.h — combining results databases from several machines or CI shards into one:
 * every run is copied with its uid, machine and conditions, targets, results, raw timing
 * samples and model results; cases are matched by case id. */
#ifndef CC_MERGE_H
#define CC_MERGE_H

#include "store.h"

typedef struct cc_merge_stats {
    int runs_copied;
    int runs_present;      /* skipped: a run with the same uid is already in the target */
    int runs_updated;      /* copied again: the target's copy was unfinished (interrupted or
                              killed) and the input's is finished or ended later */
    int runs_running;      /* skipped: still "running" in its input (in progress or killed) */
    int64_t results;       /* results copied */
    int64_t samples;       /* timing samples copied (op results' and model latencies) */
    int64_t model_results; /* model results copied */
    int64_t conformance_results; /* conformance results copied */
    int64_t scan_results;  /* model scan rows copied */
} cc_merge_stats;

/* Merges the databases inputs[0..n_inputs-1] into the database at `into`, which is
 * created when missing and migrated to the current schema when older. Inputs are opened
 * read-only and never modified; an input of an older schema is read through an upgraded
 * temporary copy (cc_store_open_readonly), one of a newer schema is refused. Runs are
 * copied in each input's time order, each in its own transaction, keeping uid, dates,
 * status, tag, selection, shard, machine and targets; a run whose uid is already in `into`
 * is skipped (merging the same shard twice adds nothing), unless `into` holds it unfinished
 * ("interrupted" or "running") and the input holds it "finished" or ended later (a shard
 * resumed since): then `into`'s copy is replaced, results and all, in the same transaction.
 * A run still "running" in its input is skipped.
 * Cases are matched by case id; a case id stored with another op or dtype is CC_ERR_DB.
 * CC_ERR_ARG when there are no inputs, an input does not exist, or `into` is the same
 * file as an input (merging a database into itself); CC_ERR_DB when a database is
 * unusable (its message names it); runs copied before an error stay copied.
 * stats may be NULL; it is written only on success. */
cc_status cc_merge_databases(const char *const *inputs, int n_inputs, const char *into,
                             cc_merge_stats *stats, cc_err *err);

#endif
