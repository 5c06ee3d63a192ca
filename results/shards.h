/* shards.h — the shards of one sharded run, found in a (merged) results database: the
 * runs that ran shards 1..N of the same selection, so that a report covers them whole and
 * says which shards are missing or did not finish.
 *
 * A shard set is every run with the same selection (its config text without the
 * ";shard=I/N" it ends with), shard count N, tag and git commit. The tasks of one Slurm
 * array or Kubernetes Job may run on different nodes, so the machine is not part of it;
 * the Slurm recipe tags each group of shards (scripts/slurm/). For each shard index the
 * set takes the latest finished run of that index, else the latest run of any status. */
#ifndef CC_SHARDS_H
#define CC_SHARDS_H

#include "store.h"

typedef struct cc_shard_member {
    int64_t run_id;            /* the run that stands for this shard; 0: missing */
    char status[16];           /* its status ("finished", "interrupted", "running"); "" missing */
    int n_runs;                /* runs of this shard index in the set */
} cc_shard_member;

typedef struct cc_shard_set {
    int count;                 /* N; 0: the run is not a shard (nothing else is filled) */
    char selection[4096];      /* the config text without ";shard=I/N" */
    char tag[128];
    char git_commit[64];
    cc_shard_member *members;  /* members[i - 1] is shard i; count of them */
    int n_finished, n_unfinished, n_missing;
} cc_shard_set;

/* The shard set of run run_id. out->count = 0 (and nothing allocated) when the run is not
 * a shard. On success out->members is malloc'd: free with cc_shard_set_free. CC_ERR_ARG
 * when no run has that id, CC_ERR_DB, CC_ERR_NOMEM. */
cc_status cc_store_shard_set(cc_db *store, int64_t run_id, cc_shard_set *out, cc_err *err);

/* Every shard set of the database, in the order of their first run. *out malloc'd (NULL
 * when *n is 0): free with cc_shard_sets_free(*out, *n). */
cc_status cc_store_shard_sets(cc_db *store, cc_shard_set **out, int *n, cc_err *err);

void cc_shard_set_free(cc_shard_set *set);
void cc_shard_sets_free(cc_shard_set *sets, int n);

/* The shard numbers of a set whose member has one of these states, as "1, 3, 4" ("none"
 * when there is none): which 0 missing, 1 finished, 2 unfinished (interrupted or still
 * running). Cut to n - 1 bytes with "..." at the end. */
void cc_shard_set_list(const cc_shard_set *set, int which, char *buf, size_t n);

#endif
