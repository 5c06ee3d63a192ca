/* svg.h — the charts of the reports, written as standalone SVG 1.1 text by the project
 * (no library): a grouped bar chart (throughput per target and dtype) and a line chart of
 * one series over runs with its levels and change points marked. Every label is
 * XML-escaped; the output embeds in HTML as inline <svg> or stands alone as a file. */
#ifndef CC_SVG_H
#define CC_SVG_H

#include "../ops/core/cc.h"

/* Bars: n_groups categories along x (e.g. dtypes), n_series bars in each (e.g. targets),
 * values[g * n_series + s] >= 0; NaN draws no bar. The y axis starts at 0. */
typedef struct cc_svg_bars {
    const char *title;
    const char *y_label;                /* "GFLOP/s" */
    int n_groups, n_series;
    const char *const *groups;
    const char *const *series;
    const double *values;
} cc_svg_bars;

/* A horizontal level over points first .. first + n - 1 (a fitted segment). */
typedef struct cc_svg_level {
    int first, n;
    double value;
} cc_svg_level;

/* Line: n points y[i] > 0 (NaN: no point, the line breaks), drawn on a log y axis when
 * log_y, every value is positive and they span more than a decade, else on a linear axis
 * around the data. bad[i] != 0 marks point i (a failing verdict);
 * changes[] are the indices where a new level starts (dashed vertical lines). x_labels
 * (may be NULL) label some points along x. */
typedef struct cc_svg_line {
    const char *title;
    const char *y_label;                /* "median time (s)" */
    int n;
    const double *y;
    const int *bad;                     /* may be NULL */
    const char *const *x_labels;        /* may be NULL */
    int n_changes;
    const int *changes;
    int n_levels;
    const cc_svg_level *levels;
    int log_y;
} cc_svg_line;

/* Render a chart. On success *out is a malloc'd NUL-terminated SVG document (caller frees
 * with free()). CC_ERR_ARG for NULL or inconsistent arguments (no groups or series, a
 * negative bar, a change index outside the series), CC_ERR_NOMEM. */
cc_status cc_svg_bar_chart(const cc_svg_bars *c, char **out, cc_err *err);
cc_status cc_svg_line_chart(const cc_svg_line *c, char **out, cc_err *err);

#endif
