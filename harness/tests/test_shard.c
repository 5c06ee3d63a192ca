/* test_shard.c — case sharding: the hash is FNV-1a (published test vectors decide the
 * shard of "a" and "foobar"), every case lands in exactly one shard for several N, the
 * shards of the quick sweep are balanced, a case keeps its shard when others come and go,
 * and "I/N" parsing rejects what it must. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cctest.h"
#include "harness/lib/runner.h"
#include "harness/lib/shard.h"

int main(void)
{
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
