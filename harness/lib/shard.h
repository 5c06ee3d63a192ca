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

#endif
