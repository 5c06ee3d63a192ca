/* report.h — report renderers: the report of one run (op cases and models) as
 * GitHub-flavoured Markdown, and any such Markdown as one self-contained HTML page
 * (cmark-gfm with its table extension). Renderers return text; they never print or write
 * files. */
#ifndef CC_REPORT_H
#define CC_REPORT_H

#include "../results/store.h"

typedef struct cc_report_options {
    const char *title;        /* first heading; NULL: "crosscheck report" */
    const char *baseline;     /* target the performance table compares with; NULL: "ref" */
    int perf_cases;           /* cases in the performance table, most FLOPs first;
                                 0: 20; < 0: no performance section */
    int max_failures;         /* failure rows shown (the rest are counted); 0: all */
    int max_reasons;          /* unsupported-reason rows shown; 0: all */
    int machines;             /* 0: the machines appendix when the database holds runs of
                                 more than one machine; < 0: never */
} cc_report_options;

/* Fills opt with the defaults described above. */
void cc_report_options_default(cc_report_options *opt);

/* Renders the report of run run_id (<= 0: the latest) from store: everything the run
 * holds, op results and model results (a suite run holds both; a `model run` alone only
 * model results). Sections in order:
 *  - summary: run uid, dates, status, tag, machine one-liner, crosscheck version, the
 *    run's conditions (load average at start and end, governor, clocks, CPU used by other
 *    processes, busy), the selection, the settings of each model job, and the overall
 *    line over op results and model results, each counted ("✅ all 1234 supported op
 *    results and 24 supported model results passed (56 op results unsupported)"; "❌ n of
 *    m supported ... did not pass — " with the verdicts of each kind); "no results" only
 *    when the run holds neither;
 *  - at a glance: per target its status (available, or unavailable and why) and, when
 *    the run has op results, its support rate: passed / all cases of the run, passed /
 *    cases it claims (those whose verdict is not unsupported); per model and target, for
 *    each precision the verdict symbol, throughput and accuracy cost against the FP32
 *    golden model (top-1 agreement for classifiers, mAP@0.5 for detectors);
 *  - targets: status, device, driver, library, the peak with how it was found (its
 *    peak_source: measured or estimated), bandwidth;
 *  - verdict counts per target: op results (one per case and regime) and model results
 *    (one per model and precision) as separate rows, op rows only when there are op
 *    results;
 *  - models (when there are model results): per model its settings, a throughput pivot
 *    and a target x precision table (latency, throughput, GFLOP/s with its share of the
 *    measured or estimated peak, accuracy, conformance, fallbacks), reasons and repro
 *    lines of what did not pass, and the plans, collapsed;
 *  - when there are op results: the op-support matrix (rows: ops; columns: targets; a
 *    cell groups the dtypes tested by the worst verdict over the op's cases in that dtype,
 *    best group first, e.g. "✅ f32 f16 · ❌ bf16") with its legend, then per target a
 *    collapsed table of op x dtype (worst verdict symbol and passed / cases); failures:
 *    every op result neither passed nor unsupported, with its repro line
 *    `crosscheck run --case '<id>' --targets <target> --seed <run seed>`, regime,
 *    verdict, reason, error metrics (model results that did not pass are counted there);
 *    unsupported reasons grouped with counts; performance: median time, GFLOP/s, GB/s, CV
 *    and speedup over opt->baseline of the most expensive timed cases, and a per-op
 *    summary;
 *  - machines (a database merged from several machines, opt->machines >= 0): per machine
 *    fingerprint its hosts, runs and latest conditions, support rate per target, op
 *    support, and throughput per target and dtype over the results all of them timed.
 * A collapsed block is "<details><summary>...</summary>" ... "</details>", which GitHub
 * and cc_report_html render; text from the database is escaped everywhere else.
 * A case's verdict on a target is the worst over its regimes, in the order
 * crashed > failed > timeout > error > mistrusted > unsupported > passed.
 * opt may be NULL (defaults). On success *out_md is a malloc'd NUL-terminated string the
 * caller frees with free(). CC_ERR_ARG for a run that does not exist or an empty
 * database, CC_ERR_DB from the store, CC_ERR_NOMEM. */
cc_status cc_report_markdown(cc_db *store, int64_t run_id, const cc_report_options *opt,
                             char **out_md, cc_err *err);

/* Renders markdown (GFM, pipe tables included) to one HTML5 document with inline CSS and
 * no external resource; title (NULL: "crosscheck report") goes into <title>, escaped. Raw
 * HTML inside markdown is not passed through, except a block that is exactly
 * "<details><summary>TEXT</summary>" (TEXT without tags) or "</details>": the collapsed
 * blocks the report writes. On success *out_html is malloc'd (caller
 * frees with free()). CC_ERR_ARG for NULL markdown, CC_ERR_INTERNAL when cmark-gfm lacks
 * its table extension, CC_ERR_NOMEM. */
cc_status cc_report_html(const char *markdown, const char *title, char **out_html, cc_err *err);

/* The one-character (one-glyph) symbol of a verdict in the support matrix
 * ("✅", "❌", "⚠️", "⛔", "❗", "💥", "⏱"); "·" for an invalid value (no cases). */
const char *cc_report_verdict_symbol(int verdict);

/* Rank of a verdict from best (passed: 0) to worst (crashed: 6); the matrix and a case's
 * verdict over its regimes take the highest rank. -1 for an invalid value. */
int cc_report_verdict_rank(int verdict);

#endif
