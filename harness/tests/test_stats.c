/* test_stats.c — timing statistics against values worked out by hand. */
#include "harness/cctest.h"
#include "harness/lib/stats.h"

int main(void)
{
    /* 1..9 shuffled: median 5, mean 5, MAD = median(|x-5|) = median(0,1,1,2,2,3,3,4,4) = 2 */
    double s[9] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 };
    cc_timing t = { 0 };
    cc_stats_compute(s, 9, 2e9, 1e9, &t);
    CHECK(t.n_samples == 9);
    CHECK_NEAR(t.median, 5, 0);
    CHECK_NEAR(t.mean, 5, 1e-12);
    CHECK_NEAR(t.mad, 2, 0);
    CHECK_NEAR(t.min, 1, 0);
    CHECK_NEAR(t.max, 9, 0);
    CHECK_NEAR(t.stddev, sqrt(60.0 / 8), 1e-12); /* sum of squares 60, n-1 = 8 */
    CHECK_NEAR(t.cv, sqrt(60.0 / 8) / 5, 1e-12);
    CHECK_NEAR(t.p90, 8.2, 1e-12); /* GSL: (n-1)*0.9 = 7.2 -> 8 + 0.2 */
    CHECK_NEAR(t.gflops, 2e9 / 5 * 1e-9, 1e-12);
    CHECK_NEAR(t.gbps, 1e9 / 5 * 1e-9, 1e-12);
    /* n = 9: P(B(9,1/2) <= 1) = 10/512, 1 - 2*that = 0.961 >= 0.95, while j = 3 gives
     * 1 - 2*46/512 = 0.82: the interval is [x_(2), x_(8)] = [2, 8] */
    CHECK_NEAR(t.ci_lo, 2, 0);
    CHECK_NEAR(t.ci_hi, 8, 0);
    CHECK(s[0] == 9); /* input untouched */
    /* a single sample */
    double one = 3e-6;
    cc_stats_compute(&one, 1, 0, 0, &t);
    CHECK(t.n_samples == 1 && t.median == 3e-6 && t.stddev == 0 && t.ci_lo == 3e-6 && t.gflops == 0);
    return CC_TEST_RESULT();
}
