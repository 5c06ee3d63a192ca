/* regression.h — the reports over more than one run: a comparison as a Markdown
 * regression report (the verdict first, then regressions, improvements and unchanged
 * counts, each row with its evidence), a case's history with its change points, and the
 * runs of a database grouped by machine. Charts are SVG documents returned beside the
 * Markdown, which refers to them by file name (the caller writes them next to the
 * Markdown file); cc_report_inline_charts puts them inline into the HTML page instead. */
#ifndef CC_REGRESSION_H
#define CC_REGRESSION_H

#include "../results/compare.h"
#include "../results/history.h"

typedef struct cc_chart {
    char name[256];        /* file name the Markdown refers to, e.g. "report-throughput.svg" */
    char *svg;             /* the document (owned) */
} cc_chart;

typedef struct cc_charts {
    cc_chart *c;
    int n;
} cc_charts;

/* Frees every chart's document and the array; leaves *s empty. Accepts NULL. */
void cc_charts_free(cc_charts *s);

typedef struct cc_regression_options {
    const char *title;          /* NULL: "crosscheck regression report" */
    const char *chart_prefix;   /* charts "<prefix>-throughput.svg", "<prefix>-history-<k>.svg";
                                   NULL: no charts and no image links */
    int max_rows;               /* rows listed per section, the rest counted (0: 50) */
    cc_db *history_db;          /* non-NULL: a history chart for the first regressions */
    int history_charts;         /* how many (0: 3) */
} cc_regression_options;

void cc_regression_options_default(cc_regression_options *opt);

/* Renders comparison c. Its first lines are the title and the verdict line, which names
 * cc_outcome_name(c->outcome) and the exit code cc_compare_exit_code(c->outcome). opt may
 * be NULL. On success *md is malloc'd (caller frees) and *charts holds the charts the
 * Markdown refers to (caller frees with cc_charts_free); charts may be NULL when
 * opt->chart_prefix is NULL. CC_ERR_ARG, CC_ERR_DB (history), CC_ERR_NOMEM. */
cc_status cc_report_regression(const cc_comparison *c, const cc_regression_options *opt,
                               char **md, cc_charts *charts, cc_err *err);

/* Renders a case's history: per series (machine, target) a table of the runs with their
 * verdicts, medians and fitted levels, the change points with the size of each step, and
 * (chart_prefix non-NULL) a line chart "<prefix>-<k>.svg" per series. Same ownership as
 * cc_report_regression. */
cc_status cc_report_history(const cc_history *h, const char *chart_prefix, char **md,
                            cc_charts *charts, cc_err *err);

/* Renders the runs of a database grouped by machine (cc_env_machine_key): per machine its
 * runs (date, tag, commit, status, verdict counts) and targets; with two machines or more,
 * support rate, op support and throughput per machine side by side (as the `report`
 * appendix); and (chart_prefix non-NULL) a bar chart "<prefix>-throughput.svg" of the
 * latest run of each machine.
 * Same ownership as cc_report_regression. */
cc_status cc_report_fleet(cc_db *store, const char *chart_prefix, char **md, cc_charts *charts,
                          cc_err *err);

/* Replaces every <img src="NAME" ...> of the HTML whose NAME is a chart of charts with
 * that chart's inline <svg>. On success *out is malloc'd (caller frees). */
cc_status cc_report_inline_charts(const char *html, const cc_charts *charts, char **out,
                                  cc_err *err);

#endif
