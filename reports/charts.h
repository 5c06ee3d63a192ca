/* charts.h — internal to reports/: chart lists and the throughput bar chart shared by the
 * regression, history and fleet reports. */
#ifndef CC_REPORT_CHARTS_H
#define CC_REPORT_CHARTS_H

#include "regression.h"
#include "svg.h"

/* Appends a chart, taking ownership of svg (freed here when the append fails). */
cc_status cc_charts_add(cc_charts *s, const char *name, char *svg, cc_err *err);

/* Throughput samples: the geometric mean of GFLOP/s per (series, dtype). */
typedef struct cc_tput {
    char series[96];
    char dtype[8];
    double log_sum;
    int n;
} cc_tput;

typedef struct cc_tput_set {
    cc_tput *v;
    int n, cap;
    int failed;            /* an allocation failed: the chart reports out of memory */
} cc_tput_set;

/* Adds one result's GFLOP/s (ignored unless finite and > 0). */
void cc_tput_add(cc_tput_set *s, const char *series, const char *dtype, double gflops);
void cc_tput_free(cc_tput_set *s);
/* The bar chart: dtypes along x (dtype order), one bar per series. *svg NULL (CC_OK)
 * when the set holds nothing. */
cc_status cc_tput_chart(const cc_tput_set *s, const char *title, char **svg, cc_err *err);

#endif
