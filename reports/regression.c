/* regression.c — a comparison of two runs as a Markdown regression report: title and
 * verdict line (matching the exit code), the two runs, the method, the environment, then
 * regressions, improvements, changes within a verdict class and unchanged counts, and the
 * charts (throughput of both runs, the history of the first regressions). */
#include "regression.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts.h"
#include "report_data.h"
#include "text.h"

void cc_regression_options_default(cc_regression_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->title = "crosscheck regression report";
    opt->max_rows = 50;
    opt->history_charts = 3;
}

/* A chart file name: prefix and suffix with anything but [A-Za-z0-9._-] made '_'. */
static void chart_name(char *buf, size_t n, const char *prefix, const char *suffix)
{
    snprintf(buf, n, "%s-%s", prefix, suffix);
    for (char *p = buf; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_' || *p == '-'))
            *p = '_';
}

static const char *outcome_symbol(cc_outcome o)
{
    switch (o) {
    case CC_OUTCOME_NO_CHANGE: return "✅";
    case CC_OUTCOME_REGRESSION: return "❌";
    case CC_OUTCOME_IMPROVEMENT: return "🚀";
    default: return "⚠️";
    }
}

static void run_cell(cc_text *t, const cc_run_info *r, int field)
{
    switch (field) {
    case 0:
        cc_text_md_code(t, r->uid, 1);
        cc_text_printf(t, " (id %lld)", (long long)r->id);
        break;
    case 1: cc_text_md(t, r->started_at); break;
    case 2: cc_text_md(t, r->status); break;
    case 3: if (r->tag[0]) cc_text_md_code(t, r->tag, 1); break;
    case 4: if (r->git_commit[0]) cc_text_md_code(t, r->git_commit, 1); break;
    case 5:
        cc_text_md(t, r->hostname);
        cc_text_put(t, " · ");
        cc_text_md(t, r->cpu_model);
        cc_text_printf(t, " · %d cores", r->cores);
        break;
    case 6: cc_report_conditions(t, r); break;
    default: break;
    }
}

static void runs_table(cc_text *t, const cc_comparison *c)
{
    static const char *const fields[] = { "run", "started", "status", "tag", "git commit", "machine", "conditions" };
    cc_text_put(t, "| | baseline | candidate |\n|---|---|---|\n");
    for (int f = 0; f < 7; f++) {
        cc_text_printf(t, "| %s | ", fields[f]);
        run_cell(t, &c->base, f);
        cc_text_put(t, " | ");
        run_cell(t, &c->cand, f);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
    if (strcmp(c->base.status, "finished") || strcmp(c->cand.status, "finished"))
        cc_text_put(t, "> ⚠️ A run is not finished: only the results both runs hold are compared.\n\n");
    if (c->base.busy == 1 || c->cand.busy == 1)
        cc_text_printf(t, "> ⚠️ Busy machine: other processes used at least %.0f%% of the CPU while the %s ran; "
                          "timings taken so carry that noise.\n\n",
                       100 * CC_ENV_BUSY_SHARE,
                       c->base.busy == 1 && c->cand.busy == 1 ? "baseline and the candidate"
                       : c->base.busy == 1                    ? "baseline"
                                                              : "candidate");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void method(cc_text *t, const cc_comparison *c)
{
    const cc_compare_options *o = &c->opt;
    cc_text_put(t, "**Method.** ");
    if (o->timing) {
        cc_text_printf(t, "Timing: a result is slower (faster) when a two-sided Mann-Whitney U test on its raw samples "
                          "rejects (α = %g, at least %d samples per run), its median moved beyond %.3g%%, and its op "
                          "family (the op's timed results on that target) moved the same way: the median change of "
                          "the family beyond ",
                       o->alpha, o->min_samples, 100 * o->min_effect);
        if (o->noise_auto && c->noise_history >= 2) {
            cc_text_printf(t, "max(%.3g%%, %g × the spread of the family's level over %d A/A runs of build ",
                           100 * o->noise_floor, o->noise_factor, c->noise_history);
            cc_text_md_code(t, c->base.git_commit, 0);
            cc_text_put(t, " on this machine). ");
        } else {
            cc_text_printf(t, "%.3g%%", 100 * o->noise_floor);
            if (o->noise_auto) {
                cc_text_put(t, " (no A/A history: no other finished run of build ");
                cc_text_md_code(t, c->base.git_commit[0] ? c->base.git_commit : "?", 0);
                cc_text_put(t, " on this machine before the candidate)");
            }
            cc_text_put(t, ". ");
        }
        cc_text_printf(t, "A result that moves while its family does not is unconfirmed: counted, not judged; "
                          "unless it moves alone on strong evidence of its own (p < %g, change beyond %.3g%% and "
                          "%g× its own spread over at least 2 A/A runs), which is judged only when the candidate "
                          "ran on a quiet machine (%s). ",
                       o->lone_alpha, 100 * o->lone_effect, o->lone_factor,
                       c->lone_rule ? "it did" : "it did not: no result was judged alone");
        /* the reference loop: how much slower the candidate's machine ran (median over rows) */
        double *sp = malloc(sizeof *sp * (size_t)(c->n_rows > 0 ? c->n_rows : 1));
        int n_sp = 0;
        for (int i = 0; sp && i < c->n_rows; i++)
            if (c->rows[i].speed != 1 && c->rows[i].speed > 0) sp[n_sp++] = c->rows[i].speed;
        if (n_sp > 0) {
            qsort(sp, (size_t)n_sp, sizeof *sp, cmp_double);
            cc_text_printf(t, "Host timings are divided by the candidate machine's own slowdown while each case was "
                              "sampled, measured by a reference loop timed after every sample (%d results; the "
                              "candidate's machine ran the loop %.3gx the baseline's time, median). ",
                           n_sp, n_sp % 2 ? sp[n_sp / 2] : 0.5 * (sp[n_sp / 2 - 1] + sp[n_sp / 2]));
        }
        free(sp);
        if (c->ref_unsteady)
            cc_text_put(t, "Host timings are compared unscaled: dividing them by the reference loop's speed widened "
                           "the families' spread over the A/A runs on this machine (the loop does not slow down with "
                           "the cases here). ");
        cc_text_put(t, ""
                       "A model's latency is its own family: its change must also pass the family threshold, "
                       "raised by the spread of its p50 over the same A/A runs. ");
    } else {
        cc_text_put(t, "Timing not judged (`--no-timing`). ");
    }
    cc_text_printf(t, "Verdicts: passed, mistrusted < unsupported < failed, error, crashed, timeout; a move to "
                      "a worse class is a regression. Accuracy: a bound ratio (max error / tolerance) of at "
                      "least %g and %g× the baseline's is a regression.\n\n",
                   o->acc_floor, o->acc_factor);
}

static void environment(cc_text *t, const cc_comparison *c)
{
    if (c->n_diffs == 0) {
        cc_text_put(t, "**Environment.** Identical fingerprints.\n\n");
        return;
    }
    if (c->n_stable_diffs == 0) cc_text_put(t, "**Environment.** The stable parts match (CPU model, cores, libraries, devices).");
    else if (c->opt.cross_env) cc_text_put(t, "**Environment.** ⚠️ Stable parts differ; compared anyway (`--cross-env`).");
    else cc_text_put(t, "**Environment.** ⚠️ Stable parts differ: the runs were not compared.");
    cc_text_put(t, "\n\n| part | kind | baseline | candidate |\n|---|---|---|---|\n");
    for (int i = 0; i < c->n_diffs; i++) {
        const cc_env_diff *d = &c->diffs[i];
        cc_text_put(t, "| ");
        cc_text_md(t, d->what);
        cc_text_put(t, d->stable ? " | **stable** | " : " | volatile | ");
        cc_text_md(t, d->base);
        cc_text_put(t, " | ");
        cc_text_md(t, d->cand);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

static void what_changed(cc_text *t, const cc_compare_row *r, cc_change kind)
{
    int any = 0;
    if (r->verdict_change == kind || (kind == CC_CHANGE_NEUTRAL && r->verdict_change)) {
        cc_text_printf(t, "verdict %s → **%s**", cc_verdict_name(r->base_verdict), cc_verdict_name(r->cand_verdict));
        any = 1;
    }
    if (r->accuracy_change == kind) {
        cc_text_put(t, any ? "; " : "");
        cc_text_put(t, "bound ratio ");
        cc_text_num(t, r->base_bound_ratio);
        cc_text_put(t, " → ");
        cc_text_num(t, r->cand_bound_ratio);
        any = 1;
    }
    if (r->timing_change == kind) {
        cc_text_put(t, any ? "; " : "");
        cc_text_put(t, kind == CC_CHANGE_REGRESSION ? "slower" : "faster");
    }
}

/* A threshold t (slower: cand/base - 1 > t; faster: base/cand - 1 > t) as the relative
 * change a move in the direction of `change` must pass: +t, or 1/(1 + t) - 1. */
static double bound_toward(double change, double t)
{
    return change < 0 ? 1 / (1 + t) - 1 : t;
}

static void row_line(cc_text *t, const cc_compare_row *r, cc_change kind)
{
    cc_text_put(t, "| ");
    cc_text_md_code(t, r->case_id, 1);
    cc_text_put(t, " | ");
    cc_text_md(t, r->target);
    cc_text_printf(t, " | %s | ", cc_regime_name(r->regime));
    what_changed(t, r, kind);
    cc_text_put(t, " | ");
    cc_text_seconds(t, r->base_median);
    cc_text_put(t, " | ");
    cc_text_seconds(t, r->cand_median);
    cc_text_put(t, " | ");
    if (isnan(r->change)) cc_text_put(t, "—");
    else cc_text_printf(t, "%+.1f%%", 100 * r->change);
    if (!isnan(r->threshold) && !isnan(r->p))
        cc_text_printf(t, " (threshold %+.3g%%; family %+.1f%% of %d, threshold %+.3g%%%s)",
                       100 * bound_toward(r->change, r->threshold), 100 * r->family_change, r->family_rows,
                       100 * bound_toward(r->family_change, r->family_threshold), r->noise_runs ? " from A/A" : "");
    if (r->lone)
        cc_text_printf(t, " **alone**: its family held still, its own evidence is strong (own A/A spread %.3g%%)",
                       100 * r->own_spread);
    cc_text_put(t, " | ");
    if (isnan(r->p)) cc_text_put(t, "—");
    else cc_text_printf(t, "%.2g", r->p);
    cc_text_printf(t, " | %d / %d |\n", r->base_n, r->cand_n);
}

static void model_line(cc_text *t, const cc_compare_model_row *r, cc_change kind)
{
    cc_text_put(t, "| ");
    cc_text_md(t, r->model);
    cc_text_put(t, " | ");
    cc_text_md(t, r->target);
    cc_text_put(t, " | ");
    cc_text_md(t, r->precision);
    cc_text_put(t, " | ");
    int any = 0;
    if (r->verdict_change == kind || (kind == CC_CHANGE_NEUTRAL && r->verdict_change)) {
        cc_text_printf(t, "verdict %s → **%s**", cc_verdict_name(r->base_verdict), cc_verdict_name(r->cand_verdict));
        any = 1;
    }
    if (r->accuracy_change == kind) {
        cc_text_printf(t, "%s%s %.4g → %.4g", any ? "; " : "", r->metric, r->base_acc, r->cand_acc);
        any = 1;
    }
    if (r->timing_change == kind) cc_text_printf(t, "%slatency %s", any ? "; " : "", kind == CC_CHANGE_REGRESSION ? "slower" : "faster");
    cc_text_put(t, " | ");
    cc_text_seconds(t, r->base_p50);
    cc_text_put(t, " | ");
    cc_text_seconds(t, r->cand_p50);
    cc_text_put(t, " | ");
    if (isnan(r->change)) cc_text_put(t, "—");
    else if (isnan(r->family_threshold)) cc_text_printf(t, "%+.1f%% (threshold %+.3g%%)", 100 * r->change,
                                                        100 * bound_toward(r->change, r->threshold));
    else
        cc_text_printf(t, "%+.1f%% (threshold %+.3g%%; own family threshold %+.3g%%%s)", 100 * r->change,
                       100 * bound_toward(r->change, r->threshold), 100 * bound_toward(r->change, r->family_threshold),
                       r->noise_runs ? " from A/A" : "");
    cc_text_put(t, " | ");
    if (isnan(r->p)) cc_text_put(t, "—");
    else cc_text_printf(t, "%.2g", r->p);
    cc_text_put(t, " | ");
    cc_text_num(t, r->base_throughput);
    cc_text_put(t, " → ");
    cc_text_num(t, r->cand_throughput);
    cc_text_printf(t, " | %d / %d |\n", r->base_n, r->cand_n);
}

static void model_section(cc_text *t, const cc_comparison *c, cc_change kind, int max_rows)
{
    int total = 0, shown = 0;
    for (int i = 0; i < c->n_mrows; i++) total += c->mrows[i].change_kind == kind;
    if (!total) return;
    cc_text_put(t, "Models (latency at batch 1: the median of the raw samples, U test on them; p is — for results "
                   "stored without samples):\n\n| model | target | precision | what | baseline p50 | candidate p50 | "
                   "change | p | throughput (img/s) | samples |\n|---|---|---|---|--:|--:|--:|--:|--:|--:|\n");
    for (int i = 0; i < c->n_mrows && shown < max_rows; i++)
        if (c->mrows[i].change_kind == kind) {
            model_line(t, &c->mrows[i], kind);
            shown++;
        }
    if (shown < total) cc_text_printf(t, "\n… and %d more models.\n", total - shown);
    cc_text_put(t, "\n");
}

/* The ONNX node tests (conformance) whose verdict moved as `kind`. */
static void conf_section(cc_text *t, const cc_comparison *c, cc_change kind, int max_rows)
{
    int total = 0, shown = 0;
    for (int i = 0; i < c->n_crows; i++) total += c->crows[i].change_kind == kind;
    if (!total) return;
    cc_text_put(t, "ONNX node tests (`crosscheck conformance`):\n\n| test | op | target | baseline | candidate |\n"
                   "|---|---|---|---|---|\n");
    for (int i = 0; i < c->n_crows && shown < max_rows; i++) {
        const cc_compare_conf_row *r = &c->crows[i];
        if (r->change_kind != kind) continue;
        shown++;
        cc_report_test_cells(t, r->test, r->op, r->target);
        cc_text_printf(t, " %s %s | %s %s |\n", cc_report_verdict_symbol(r->base_verdict),
                       cc_verdict_name(r->base_verdict), cc_report_verdict_symbol(r->cand_verdict),
                       cc_verdict_name(r->cand_verdict));
    }
    if (shown < total) cc_text_printf(t, "\n… and %d more node tests.\n", total - shown);
    cc_text_put(t, "\n");
}

static void section(cc_text *t, const cc_comparison *c, cc_change kind, const char *title, int max_rows)
{
    int total = 0, models = 0, tests = 0;
    for (int i = 0; i < c->n_rows; i++) total += c->rows[i].change_kind == kind;
    for (int i = 0; i < c->n_mrows; i++) models += c->mrows[i].change_kind == kind;
    for (int i = 0; i < c->n_crows; i++) tests += c->crows[i].change_kind == kind;
    cc_text_printf(t, "## %s (%d)\n\n", title, total + models + tests);
    if (!total && !models && !tests) {
        cc_text_put(t, "None.\n\n");
        return;
    }
    model_section(t, c, kind, max_rows);
    conf_section(t, c, kind, max_rows);
    if (!total) return;
    cc_text_put(t, "| case | target | regime | what | baseline median | candidate median | change | p | samples |\n"
                   "|---|---|---|---|--:|--:|--:|--:|--:|\n");
    int shown = 0;
    for (int i = 0; i < c->n_rows && shown < max_rows; i++)
        if (c->rows[i].change_kind == kind) {
            row_line(t, &c->rows[i], kind);
            shown++;
        }
    if (shown < total) cc_text_printf(t, "\n… and %d more (`--format csv` lists every row).\n", total - shown);
    cc_text_put(t, "\n");
}

static void unchanged(cc_text *t, const cc_comparison *c)
{
    int compared = c->n_rows + c->n_mrows + c->n_crows;
    int same = compared - c->n_regressions - c->n_improvements - c->n_neutral;
    cc_text_put(t, "## Unchanged\n\n");
    cc_text_printf(t, "- **%d** of %d compared results unchanged (%d regressed, %d improved, %d changed verdict "
                      "within a class)",
                   same, compared, c->n_regressions, c->n_improvements, c->n_neutral);
    if (c->n_mrows) cc_text_printf(t, "; %d of them model results", c->n_mrows);
    if (c->n_crows) cc_text_printf(t, "; %d of them ONNX node tests", c->n_crows);
    cc_text_put(t, "\n");
    if (c->opt.timing) {
        cc_text_printf(t, "- timing judged on %d results (the others were not timed, had fewer than %d samples or "
                          "did not pass in both runs)\n",
                       c->n_timed, c->opt.min_samples);
        if (c->n_unconfirmed)
            cc_text_printf(t, "- %d result%s moved beyond %.3g%% while %s op family did not: unconfirmed, not judged "
                              "(`--format csv` lists them)\n",
                           c->n_unconfirmed, c->n_unconfirmed == 1 ? "" : "s", 100 * c->opt.min_effect,
                           c->n_unconfirmed == 1 ? "its" : "their");
    }
    if (c->only_base || c->only_cand)
        cc_text_printf(t, "- not compared: %d results only in the baseline, %d only in the candidate\n",
                       c->only_base, c->only_cand);
    if (c->only_base_models || c->only_cand_models)
        cc_text_printf(t, "- not compared: %d model results only in the baseline, %d only in the candidate\n",
                       c->only_base_models, c->only_cand_models);
    cc_text_put(t, "\n");
}

static cc_status throughput_chart(const cc_comparison *c, const char *prefix, cc_text *t,
                                  cc_charts *charts, cc_err *err)
{
    cc_tput_set set = { 0 };
    for (int i = 0; i < c->n_rows; i++) {
        const cc_compare_row *r = &c->rows[i];
        if (r->base_verdict != CC_PASSED || r->cand_verdict != CC_PASSED) continue;
        if (!(r->base_gflops > 0) || !(r->cand_gflops > 0)) continue;
        char name[96];
        snprintf(name, sizeof name, "%.40s baseline", r->target);
        cc_tput_add(&set, name, r->dtype, r->base_gflops);
        snprintf(name, sizeof name, "%.40s candidate", r->target);
        cc_tput_add(&set, name, r->dtype, r->cand_gflops);
    }
    char *svg = NULL;
    cc_status st = cc_tput_chart(&set, "Throughput per target and dtype", &svg, err);
    cc_tput_free(&set);
    if (st != CC_OK || !svg) return st;
    char name[256];
    chart_name(name, sizeof name, prefix, "throughput.svg");
    st = cc_charts_add(charts, name, svg, err);
    if (st == CC_OK)
        cc_text_printf(t, "## Throughput\n\nGeometric mean GFLOP/s over the results that passed and were timed in "
                          "both runs.\n\n![Throughput per target and dtype](%s)\n\n", name);
    return st;
}

static cc_status history_charts(const cc_comparison *c, const cc_regression_options *o,
                                cc_text *t, cc_charts *charts, cc_err *err)
{
    int made = 0, limit = o->history_charts > 0 ? o->history_charts : 3;
    for (int i = 0; i < c->n_rows && made < limit; i++) {
        const cc_compare_row *r = &c->rows[i];
        if (r->change_kind != CC_CHANGE_REGRESSION || r->timing_change != CC_CHANGE_REGRESSION) continue;
        cc_history *h = NULL;
        cc_status st = cc_history_case(o->history_db, r->case_id, r->target, NULL, &h, err);
        if (st != CC_OK) return st;
        char *md = NULL, prefix[256], sub[32];
        cc_charts one = { 0 };
        snprintf(sub, sizeof sub, "history-%d", made + 1);
        chart_name(prefix, sizeof prefix, o->chart_prefix, sub);
        st = cc_report_history(h, prefix, &md, &one, err);
        cc_history_free(h);
        free(md);
        if (st != CC_OK) return st;
        if (made == 0) cc_text_put(t, "## History of the first timing regressions\n\n");
        for (int k = 0; k < one.n && st == CC_OK; k++) {
            cc_text_put(t, "- ");
            cc_text_md_code(t, r->case_id, 0);
            cc_text_put(t, " on ");
            cc_text_md(t, r->target);
            cc_text_printf(t, "\n\n  ![history](%s)\n\n", one.c[k].name);
            st = cc_charts_add(charts, one.c[k].name, one.c[k].svg, err);
            one.c[k].svg = NULL;
        }
        cc_charts_free(&one);
        if (st != CC_OK) return st;
        made++;
    }
    return CC_OK;
}

cc_status cc_report_regression(const cc_comparison *c, const cc_regression_options *opt,
                               char **md, cc_charts *charts, cc_err *err)
{
    if (!c || !md || (opt && opt->chart_prefix && !charts))
        return cc_err_set(err, CC_ERR_ARG, "cc_report_regression: NULL argument");
    cc_regression_options o;
    cc_regression_options_default(&o);
    if (opt) {
        o = *opt;
        if (!o.title) o.title = "crosscheck regression report";
        if (o.max_rows <= 0) o.max_rows = 50;
    }
    cc_text t = { 0 };
    cc_charts made = { 0 };
    cc_status st = CC_OK;

    cc_text_put(&t, "# ");
    cc_text_md(&t, o.title);
    cc_text_printf(&t, "\n\n**%s %s** — ", outcome_symbol(c->outcome), cc_outcome_name(c->outcome));
    cc_text_md(&t, c->reason);
    cc_text_printf(&t, " · exit code %d\n\n", cc_compare_exit_code(c->outcome));
    runs_table(&t, c);
    method(&t, c);
    environment(&t, c);
    if (c->n_rows > 0 || c->n_mrows > 0 || c->n_crows > 0) {
        section(&t, c, CC_CHANGE_REGRESSION, "Regressions", o.max_rows);
        section(&t, c, CC_CHANGE_IMPROVEMENT, "Improvements", o.max_rows);
        if (c->n_neutral) section(&t, c, CC_CHANGE_NEUTRAL, "Verdict changes within a class", o.max_rows);
        unchanged(&t, c);
        if (o.chart_prefix) {
            st = throughput_chart(c, o.chart_prefix, &t, &made, err);
            if (st == CC_OK && o.history_db) st = history_charts(c, &o, &t, &made, err);
            if (st != CC_OK) goto fail;
        }
    }
    if (t.failed) {
        st = cc_err_set(err, CC_ERR_NOMEM, "regression report: out of memory");
        goto fail;
    }
    *md = t.s;
    if (charts) *charts = made;
    else cc_charts_free(&made);
    return CC_OK;
fail:
    cc_text_free(&t);
    cc_charts_free(&made);
    return st;
}
