/* shard.c — deterministic case sharding by FNV-1a hash of the case id. */
#include "shard.h"

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
