/* test_shard.c — case sharding: the hash is FNV-1a (published test vectors decide the
 * shard of "a" and "foobar"), every case lands in exactly one shard for several N, the
 * shards of the quick sweep are balanced, a case keeps its shard when others come and go,
 * "I/N" parsing rejects what it must, and the shard a scheduler's environment names (Slurm
 * arrays numbered from 0, from 1, with a step, sparse or resubmitted alone; Kubernetes
 * Indexed Jobs) maps as shard.h says, every bad value refused in one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/runner.h"
#include "harness/lib/shard.h"

/* A fake environment: NAME=VALUE strings, NULL-terminated. */
static const char *fake_getenv(const char *name, void *user)
{
    size_t len = strlen(name);
    for (const char *const *e = user; *e; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=') return *e + len + 1;
    return NULL;
}

/* The shard of environment env: 1 when it maps to index/count from source, else 0. */
static int maps(const char *const *env, int index, int count, const char *source)
{
    cc_shard_origin o;
    cc_err err = { 0 };
    if (cc_shard_from_env(fake_getenv, (void *)env, &o, &err) != CC_OK) {
        fprintf(stderr, "refused: %s\n", err.msg);
        return 0;
    }
    if (o.index != index || o.count != count || strcmp(o.source, source) != 0) {
        fprintf(stderr, "mapped to %d/%d (%s), expected %d/%d (%s)\n", o.index, o.count, o.source, index, count,
                source);
        return 0;
    }
    return 1;
}

/* 1 when env is refused with CC_ERR_ARG and a one-line message naming `names`. */
static int refused(const char *const *env, const char *names)
{
    cc_shard_origin o;
    cc_err err = { 0 };
    if (cc_shard_from_env(fake_getenv, (void *)env, &o, &err) != CC_ERR_ARG) return 0;
    if (!strstr(err.msg, names) || strchr(err.msg, '\n')) {
        fprintf(stderr, "message '%s' does not name '%s'\n", err.msg, names);
        return 0;
    }
    return o.count == 0;
}

static void scheduler_environment(void)
{
    /* no scheduler: no shard */
    const char *none[] = { "HOME=/root", "SLURM_JOB_ID=7", NULL };
    CHECK(maps(none, 0, 0, ""));
    const char *empty[] = { "SLURM_ARRAY_TASK_ID=", "JOB_COMPLETION_INDEX=", "CROSSCHECK_SHARD_COUNT=", NULL };
    CHECK(maps(empty, 0, 0, ""));

    /* Slurm arrays numbered from 0 and from 1 give the same shards */
    for (int id = 0; id < 4; id++) {
        char t0[40], t1[40];
        snprintf(t0, sizeof t0, "SLURM_ARRAY_TASK_ID=%d", id);
        snprintf(t1, sizeof t1, "SLURM_ARRAY_TASK_ID=%d", id + 1);
        const char *zero[] = { t0, "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=3",
                               "SLURM_ARRAY_TASK_STEP=1", NULL };
        const char *one[] = { t1, "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4",
                              NULL };
        CHECK(maps(zero, id + 1, 4, "slurm"));
        CHECK(maps(one, id + 1, 4, "slurm"));
    }
    /* --array=10-13 and --array=0-6:2 */
    const char *offset[] = { "SLURM_ARRAY_TASK_ID=12", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=10",
                             "SLURM_ARRAY_TASK_MAX=13", NULL };
    CHECK(maps(offset, 3, 4, "slurm"));
    const char *stepped[] = { "SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=0",
                              "SLURM_ARRAY_TASK_MAX=6", "SLURM_ARRAY_TASK_STEP=2", NULL };
    CHECK(maps(stepped, 3, 4, "slurm"));
    const char *off_step[] = { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=0",
                               "SLURM_ARRAY_TASK_MAX=6", "SLURM_ARRAY_TASK_STEP=2", NULL };
    CHECK(refused(off_step, "SLURM_ARRAY_TASK_ID 3"));
    /* the scheduler's name for the task is kept */
    const char *named[] = { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_MIN=1",
                            "SLURM_ARRAY_TASK_MAX=2", "SLURM_ARRAY_JOB_ID=1234", "SLURM_JOB_ID=1236", NULL };
    cc_shard_origin o;
    cc_err err = { 0 };
    CHECK_OK(cc_shard_from_env(fake_getenv, (void *)named, &o, &err));
    CHECK(strcmp(o.job, "slurm 1234_2 (job 1236)") == 0);

    /* sparse (--array=1,3,6) and one-task arrays (a resubmitted shard) need the count */
    const char *sparse[] = { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1",
                             "SLURM_ARRAY_TASK_MAX=6", "SLURM_ARRAY_TASK_STEP=1", NULL };
    CHECK(refused(sparse, "CROSSCHECK_SHARD_COUNT"));
    const char *alone[] = { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=1", "SLURM_ARRAY_TASK_MIN=3",
                            "SLURM_ARRAY_TASK_MAX=3", NULL };
    CHECK(refused(alone, "CROSSCHECK_SHARD_COUNT"));
    /* with the count, the task id is the shard number: resubmitted alone or in a sparse list */
    const char *alone_n[] = { "SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=1", "SLURM_ARRAY_TASK_MIN=3",
                              "SLURM_ARRAY_TASK_MAX=3", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(maps(alone_n, 3, 4, "slurm"));
    const char *sparse_n[] = { "SLURM_ARRAY_TASK_ID=6", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1",
                               "SLURM_ARRAY_TASK_MAX=6", "CROSSCHECK_SHARD_COUNT=8", NULL };
    CHECK(maps(sparse_n, 6, 8, "slurm"));
    const char *zero_n[] = { "SLURM_ARRAY_TASK_ID=0", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(refused(zero_n, "1..4"));
    const char *past_n[] = { "SLURM_ARRAY_TASK_ID=5", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(refused(past_n, "SLURM_ARRAY_TASK_ID 5"));
    /* missing or malformed array variables */
    const char *no_count[] = { "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", NULL };
    CHECK(refused(no_count, "SLURM_ARRAY_TASK_COUNT"));
    const char *bad[][6] = {
        { "SLURM_ARRAY_TASK_ID=x", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", NULL },
        { "SLURM_ARRAY_TASK_ID=-1", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", NULL },
        { "SLURM_ARRAY_TASK_ID= 2", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", NULL },
        { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=4x", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", NULL },
        { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4",
          "SLURM_ARRAY_TASK_STEP=0", NULL },
        { "SLURM_ARRAY_TASK_ID=9999999999", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1",
          "SLURM_ARRAY_TASK_MAX=4", NULL },
        { "SLURM_ARRAY_TASK_ID=5", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=4", NULL },
        { "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=200000", "SLURM_ARRAY_TASK_MIN=1",
          "SLURM_ARRAY_TASK_MAX=200000", NULL },
    };
    const char *bad_names[] = { "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_ID",
                                "SLURM_ARRAY_TASK_COUNT", "step 0", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_ID 5",
                                "SLURM_ARRAY_TASK_COUNT 200000" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        if (!refused(bad[k], bad_names[k])) fprintf(stderr, "bad Slurm environment %zu accepted\n", k);
        CHECK(refused(bad[k], bad_names[k]));
    }

    /* Kubernetes: index from 0, count from CROSSCHECK_SHARD_COUNT */
    const char *k8s[] = { "JOB_COMPLETION_INDEX=0", "CROSSCHECK_SHARD_COUNT=4", "HOSTNAME=suite-0-abcde", NULL };
    CHECK(maps(k8s, 1, 4, "kubernetes"));
    CHECK_OK(cc_shard_from_env(fake_getenv, (void *)k8s, &o, &err));
    CHECK(strcmp(o.job, "kubernetes pod suite-0-abcde") == 0);
    const char *k8s_last[] = { "JOB_COMPLETION_INDEX=3", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(maps(k8s_last, 4, 4, "kubernetes"));
    const char *k8s_past[] = { "JOB_COMPLETION_INDEX=4", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(refused(k8s_past, "JOB_COMPLETION_INDEX 4"));
    const char *k8s_no_count[] = { "JOB_COMPLETION_INDEX=1", NULL };
    CHECK(refused(k8s_no_count, "CROSSCHECK_SHARD_COUNT"));
    const char *k8s_bad[] = { "JOB_COMPLETION_INDEX=one", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(refused(k8s_bad, "JOB_COMPLETION_INDEX"));
    const char *count_bad[][3] = { { "JOB_COMPLETION_INDEX=0", "CROSSCHECK_SHARD_COUNT=0", NULL },
                                   { "JOB_COMPLETION_INDEX=0", "CROSSCHECK_SHARD_COUNT=100001", NULL },
                                   { "JOB_COMPLETION_INDEX=0", "CROSSCHECK_SHARD_COUNT=four", NULL } };
    for (size_t k = 0; k < 3; k++) CHECK(refused(count_bad[k], "CROSSCHECK_SHARD_COUNT"));
    /* both schedulers, or a count alone */
    const char *both[] = { "JOB_COMPLETION_INDEX=0", "SLURM_ARRAY_TASK_ID=1", "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(refused(both, "both"));
    const char *count_only[] = { "CROSSCHECK_SHARD_COUNT=4", NULL };
    CHECK(refused(count_only, "neither"));
}

int main(void)
{
    scheduler_environment();

    /* FNV-1a 64 test vectors: "a" -> 0xaf63dc4c8601ec8c, "foobar" -> 0x85944171f73967e8 */
    CHECK(cc_shard_keep("a", (int)(0xaf63dc4c8601ec8cULL % 7) + 1, 7));
    CHECK(!cc_shard_keep("a", (int)((0xaf63dc4c8601ec8cULL + 1) % 7) + 1, 7));
    CHECK(cc_shard_keep("foobar", (int)(0x85944171f73967e8ULL % 10) + 1, 10));
    CHECK(cc_shard_keep("anything", 1, 1));
    CHECK(!cc_shard_keep("a", 0, 3));
    CHECK(!cc_shard_keep("a", 4, 3));
    CHECK(!cc_shard_keep(NULL, 1, 1));

    /* the quick sweep: a partition, balanced */
    cc_selection sel;
    memset(&sel, 0, sizeof sel);
    sel.quick = 1;
    cc_case *cases = NULL;
    int n = 0;
    cc_err err = { 0 };
    CHECK_OK(cc_select_cases(&sel, &cases, &n, &err));
    if (n < 50) CC_TEST_SKIP("the catalog is too small to test sharding");
    const int ns[4] = { 2, 3, 4, 8 };
    for (int k = 0; k < 4; k++) {
        int shards = ns[k], total = 0;
        for (int c = 0; c < n; c++) {
            int in = 0;
            for (int i = 1; i <= shards; i++) in += cc_shard_keep(cases[c].id, i, shards);
            CHECK(in == 1);
        }
        for (int i = 1; i <= shards; i++) {
            cc_case *copy = malloc(sizeof *copy * (size_t)n);
            memcpy(copy, cases, sizeof *copy * (size_t)n);
            int m = n;
            cc_shard_filter(copy, &m, i, shards);
            total += m;
            double share = (double)m / n;
            CHECK(share > 0.6 / shards && share < 1.4 / shards);
            /* order kept */
            for (int j = 1; j < m; j++) {
                int a = -1, b = -1;
                for (int c = 0; c < n; c++) {
                    if (strcmp(cases[c].id, copy[j - 1].id) == 0) a = c;
                    if (strcmp(cases[c].id, copy[j].id) == 0) b = c;
                }
                CHECK(a < b);
            }
            free(copy);
        }
        CHECK(total == n);
    }
    /* a case's shard does not depend on the rest of the list */
    int m = 1;
    cc_case one = cases[n / 2];
    int home = 0;
    for (int i = 1; i <= 4; i++)
        if (cc_shard_keep(one.id, i, 4)) home = i;
    cc_shard_filter(&one, &m, home, 4);
    CHECK(m == 1);
    free(cases);

    int i = 0, k = 0;
    CHECK_OK(cc_shard_parse("2/5", &i, &k, &err));
    CHECK(i == 2 && k == 5);
    const char *bad[] = { "0/3", "4/3", "1/0", "1/", "/2", "a/b", "1-2", "1/2/3", "", "-1/2", "1/1000000" };
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
        i = k = 77;
        CHECK(cc_shard_parse(bad[j], &i, &k, &err) == CC_ERR_ARG);
        CHECK(i == 77 && k == 77);
    }
    return CC_TEST_RESULT();
}
