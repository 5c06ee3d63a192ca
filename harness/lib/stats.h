/* stats.h — timing statistics over raw samples (GSL), and the monotonic clock. */
#ifndef CC_STATS_H
#define CC_STATS_H

#include "../../results/result.h"

/* Seconds on the monotonic clock. */
double cc_now(void);

/* Fills the statistical fields of *t from n samples (seconds; n >= 1): median, mean,
 * standard deviation, MAD (median absolute deviation, unscaled), min, max, p90, p99,
 * coefficient of variation (stddev / mean), and the distribution-free 95% confidence
 * interval of the median from binomial order statistics (for n < 6 the interval is
 * [min, max]). flops/bytes of one execution give gflops/gbps from the median (0 when
 * unknown). samples are not modified. */
void cc_stats_compute(const double *samples, int n, double flops, double bytes, cc_timing *t);

#endif
