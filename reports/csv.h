/* csv.h — CSV exports (RFC 4180 text written with libcsv's csv_fwrite, so every text
 * field is quoted and its quotes doubled): the results of a run or of every run, the rows
 * of a comparison, and a case's history. A header row names the columns; numbers are
 * written with %.17g (round-trip exact), NaN as an empty field. The caller owns the
 * stream: these functions write to it and never close it. */
#ifndef CC_CSV_H
#define CC_CSV_H

#include <stdio.h>

#include "../results/compare.h"
#include "../results/history.h"

/* Every result of run run_id (run_id <= 0: of every run, in time order), one row each,
 * prefixed with its run's uid, id, start date, tag, git commit and hostname.
 * CC_ERR_ARG for a run that does not exist, CC_ERR_DB, CC_ERR_IO when writing fails. */
cc_status cc_csv_export_results(cc_db *store, int64_t run_id, FILE *f, cc_err *err);
/* The same for model results: one row per (model, target, precision) with its run's
 * columns, conformance, accuracy cost, fallbacks, latency, throughput, slowest layers,
 * first divergent node and plan. */
cc_status cc_csv_export_model_results(cc_db *store, int64_t run_id, FILE *f, cc_err *err);

/* One row per compared (case, target, regime): verdicts, bound ratios, medians, change,
 * p-value, threshold, the op family's change and threshold, whether the row moved alone
 * ("unconfirmed": slower, faster or empty) and the judgement. CC_ERR_IO when writing
 * fails. */
cc_status cc_csv_export_comparison(const cc_comparison *c, FILE *f, cc_err *err);
/* One row per compared (model, target, precision): verdicts, the accuracy metric on both
 * sides, p50 latencies, change, p-value, thresholds, unconfirmed, throughputs and the
 * judgement. CC_ERR_IO when writing fails. */
cc_status cc_csv_export_model_comparison(const cc_comparison *c, FILE *f, cc_err *err);

/* One row per point of every series: machine, target, run, verdict, median, level and
 * whether a change point starts there. CC_ERR_IO when writing fails. */
cc_status cc_csv_export_history(const cc_history *h, FILE *f, cc_err *err);

#endif
