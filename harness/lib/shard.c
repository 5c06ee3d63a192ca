/* shard.c — deterministic case sharding by FNV-1a hash of the case id. */
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHARDS 100000

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    return h;
}

int cc_shard_keep(const char *case_id, int i, int n)
{
    if (!case_id || n < 1 || i < 1 || i > n) return 0;
    return fnv1a(case_id) % (uint64_t)n == (uint64_t)(i - 1);
}

static int parse_int(const char *s, size_t len, long *out)
{
    if (len == 0 || len > 6) return -1;
    long v = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9') return -1;
        v = v * 10 + (s[k] - '0');
    }
    *out = v;
    return 0;
}

cc_status cc_shard_parse(const char *text, int *i, int *n, cc_err *err)
{
    const char *slash = text ? strchr(text, '/') : NULL;
    long a = 0, b = 0;
    if (!slash || parse_int(text, (size_t)(slash - text), &a) || parse_int(slash + 1, strlen(slash + 1), &b))
        return cc_err_set(err, CC_ERR_ARG, "--shard takes I/N (shard I of N, counting from 1), got '%s'",
                          text ? text : "");
    if (b < 1 || b > MAX_SHARDS || a < 1 || a > b)
        return cc_err_set(err, CC_ERR_ARG, "--shard %s: need 1 <= I <= N <= %d", text, MAX_SHARDS);
    *i = (int)a;
    *n = (int)b;
    return CC_OK;
}

void cc_shard_filter(cc_case *cases, int *n, int i, int n_shards)
{
    int k = 0;
    for (int j = 0; j < *n; j++)
        if (cc_shard_keep(cases[j].id, i, n_shards)) {
            if (k != j) cases[k] = cases[j];
            k++;
        }
    *n = k;
}

/* ---- the shard from a scheduler's environment ------------------------------------------ */

/* A variable's value, NULL when unset or empty. */
static const char *env(cc_shard_getenv get, void *user, const char *name)
{
    const char *v = get(name, user);
    return v && v[0] ? v : NULL;
}

/* A non-negative decimal number of at most 9 digits (no sign, no spaces): 0, else -1. */
static int env_number(const char *v, long *out)
{
    size_t len = strlen(v);
    if (len == 0 || len > 9 || strspn(v, "0123456789") != len) return -1;
    *out = strtol(v, NULL, 10);
    return 0;
}

/* Reads variable name as a number into *out: CC_ERR_ARG naming it when it is not one. */
static cc_status read_number(cc_shard_getenv get, void *user, const char *name, long *out, cc_err *err)
{
    const char *v = env(get, user, name);
    if (!v) return cc_err_set(err, CC_ERR_ARG, "%s is not set (needed to find this task's shard)", name);
    if (env_number(v, out))
        return cc_err_set(err, CC_ERR_ARG, "%s must be a non-negative integer, got '%.60s'", name, v);
    return CC_OK;
}

static cc_status slurm_shard(cc_shard_getenv get, void *user, long count_env, cc_shard_origin *o, cc_err *err)
{
    long id = 0, n = 0, lo = 0, hi = 0, step = 1;
    cc_status st = read_number(get, user, "SLURM_ARRAY_TASK_ID", &id, err);
    if (st) return st;
    if (count_env > 0) {
        if (id < 1 || id > count_env)
            return cc_err_set(err, CC_ERR_ARG,
                              "SLURM_ARRAY_TASK_ID %ld is not a shard of " CC_SHARD_COUNT_ENV "=%ld: the task ids are "
                              "the shard numbers 1..%ld (--array=1-%ld)",
                              id, count_env, count_env, count_env);
        o->index = (int)id;
        o->count = (int)count_env;
    } else {
        if ((st = read_number(get, user, "SLURM_ARRAY_TASK_COUNT", &n, err)) ||
            (st = read_number(get, user, "SLURM_ARRAY_TASK_MIN", &lo, err)) ||
            (st = read_number(get, user, "SLURM_ARRAY_TASK_MAX", &hi, err)))
            return st;
        if (env(get, user, "SLURM_ARRAY_TASK_STEP") &&
            (st = read_number(get, user, "SLURM_ARRAY_TASK_STEP", &step, err)))
            return st;
        if (n < 1 || n > MAX_SHARDS)
            return cc_err_set(err, CC_ERR_ARG, "SLURM_ARRAY_TASK_COUNT %ld: need 1 to %d tasks", n, MAX_SHARDS);
        if (n == 1)
            return cc_err_set(err, CC_ERR_ARG,
                              "a one-task Slurm array (task %ld) would run every case: for a shard resubmitted "
                              "alone set " CC_SHARD_COUNT_ENV " to the number of shards, or give --shard I/N",
                              id);
        if (step < 1 || hi < lo || hi - lo != (n - 1) * step)
            return cc_err_set(err, CC_ERR_ARG,
                              "the Slurm array's task ids (%ld tasks from %ld to %ld, step %ld) are not a regular "
                              "range: set " CC_SHARD_COUNT_ENV " and number the tasks 1..N, or give --shard I/N",
                              n, lo, hi, step);
        if (id < lo || id > hi || (id - lo) % step != 0)
            return cc_err_set(err, CC_ERR_ARG, "SLURM_ARRAY_TASK_ID %ld is not in the array %ld-%ld:%ld", id, lo,
                              hi, step);
        o->index = (int)((id - lo) / step + 1);
        o->count = (int)n;
    }
    snprintf(o->source, sizeof o->source, "%s", CC_SHARD_SOURCE_SLURM);
    const char *array = env(get, user, "SLURM_ARRAY_JOB_ID"), *job = env(get, user, "SLURM_JOB_ID");
    if (array)
        snprintf(o->job, sizeof o->job, "slurm %.40s_%ld%s%.40s%s", array, id, job ? " (job " : "", job ? job : "",
                 job ? ")" : "");
    else if (job) snprintf(o->job, sizeof o->job, "slurm job %.40s", job);
    return CC_OK;
}

cc_status cc_shard_from_env(cc_shard_getenv get, void *user, cc_shard_origin *out, cc_err *err)
{
    memset(out, 0, sizeof *out);
    const char *slurm = env(get, user, "SLURM_ARRAY_TASK_ID");
    const char *k8s = env(get, user, "JOB_COMPLETION_INDEX");
    const char *count_text = env(get, user, CC_SHARD_COUNT_ENV);
    long count = 0;
    if (count_text && (env_number(count_text, &count) || count < 1 || count > MAX_SHARDS))
        return cc_err_set(err, CC_ERR_ARG, CC_SHARD_COUNT_ENV " must be a number of shards from 1 to %d, got '%.60s'",
                          MAX_SHARDS, count_text);
    if (slurm && k8s)
        return cc_err_set(err, CC_ERR_ARG,
                          "both SLURM_ARRAY_TASK_ID (%.20s) and JOB_COMPLETION_INDEX (%.20s) are set: give --shard I/N",
                          slurm, k8s);
    cc_shard_origin o;
    memset(&o, 0, sizeof o);
    if (slurm) {
        cc_status st = slurm_shard(get, user, count, &o, err);
        if (st) return st;
    } else if (k8s) {
        long idx = 0;
        cc_status st = read_number(get, user, "JOB_COMPLETION_INDEX", &idx, err);
        if (st) return st;
        if (!count)
            return cc_err_set(err, CC_ERR_ARG,
                              "JOB_COMPLETION_INDEX is set but " CC_SHARD_COUNT_ENV " is not: set it to the Job's "
                              "spec.completions (Kubernetes does not export the count)");
        if (idx >= count)
            return cc_err_set(err, CC_ERR_ARG, "JOB_COMPLETION_INDEX %ld is outside " CC_SHARD_COUNT_ENV "=%ld (0..%ld)",
                              idx, count, count - 1);
        o.index = (int)idx + 1;
        o.count = (int)count;
        snprintf(o.source, sizeof o.source, "%s", CC_SHARD_SOURCE_KUBERNETES);
        const char *pod = env(get, user, "HOSTNAME");
        if (pod) snprintf(o.job, sizeof o.job, "kubernetes pod %.100s", pod);
    } else if (count) {
        return cc_err_set(err, CC_ERR_ARG,
                          CC_SHARD_COUNT_ENV " is set (%ld) but neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX "
                          "is: give --shard I/N",
                          count);
    }
    *out = o;
    return CC_OK;
}
