/* stats.c — timing statistics with GSL: order statistics on a sorted copy of the samples. */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double cc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Ranks (0-based, inclusive) [lo, hi] of the sorted sample that bracket the median with
 * at least 95% confidence: the smallest symmetric interval with
 * P(lo < B <= hi) >= 0.95 for B ~ Binomial(n, 1/2), i.e. the classical sign-test interval. */
static void median_ci_ranks(int n, int *lo, int *hi)
{
    *lo = 0;
    *hi = n - 1;
    if (n < 6) return;
    for (int j = n / 2; j >= 1; j--) {
        /* interval [x_(j), x_(n-j+1)] in 1-based order statistics covers the median with
         * probability 1 - 2 P(B <= j-1) */
        double cover = 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(j - 1), 0.5, (unsigned)n);
        if (cover >= 0.95) {
            *lo = j - 1;
            *hi = n - j;
            return;
        }
    }
}

void cc_stats_compute(const double *samples, int n, double flops, double bytes, cc_timing *t)
{
    int device_timer = t->device_timer;
    memset(t, 0, sizeof *t);
    t->device_timer = device_timer;
    if (n <= 0) return;
    double *s = malloc(sizeof(double) * (size_t)n);
    double *dev = malloc(sizeof(double) * (size_t)n);
    if (!s || !dev) {
        free(s);
        free(dev);
        return;
    }
    memcpy(s, samples, sizeof(double) * (size_t)n);
    gsl_sort(s, 1, (size_t)n);
    t->n_samples = n;
    t->median = gsl_stats_median_from_sorted_data(s, 1, (size_t)n);
    t->mean = gsl_stats_mean(s, 1, (size_t)n);
    t->stddev = n > 1 ? gsl_stats_sd_m(s, 1, (size_t)n, t->mean) : 0;
    t->min = s[0];
    t->max = s[n - 1];
    t->p90 = gsl_stats_quantile_from_sorted_data(s, 1, (size_t)n, 0.90);
    t->p99 = gsl_stats_quantile_from_sorted_data(s, 1, (size_t)n, 0.99);
    t->cv = t->mean > 0 ? t->stddev / t->mean : 0;
    for (int i = 0; i < n; i++) dev[i] = s[i] > t->median ? s[i] - t->median : t->median - s[i];
    gsl_sort(dev, 1, (size_t)n);
    t->mad = gsl_stats_median_from_sorted_data(dev, 1, (size_t)n);
    int lo, hi;
    median_ci_ranks(n, &lo, &hi);
    t->ci_lo = s[lo];
    t->ci_hi = s[hi];
    if (t->median > 0) {
        t->gflops = flops / t->median * 1e-9;
        t->gbps = bytes / t->median * 1e-9;
    }
    free(s);
    free(dev);
}
