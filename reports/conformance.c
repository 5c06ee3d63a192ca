/* conformance.c — the conformance section of the report: the official ONNX node tests
 * (`crosscheck conformance`) per target (verdict counts and the share passed) and, per op
 * the tests are about, each target's passed / tests with the worst verdict; then every
 * test that failed, crashed, timed out or errored, with its reason and how to repeat it,
 * and, collapsed, the mistrusted ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"

/* The distinct targets of the conformance results: in the run's target order, then any
 * other in first-seen order. */
static int conf_targets(const cc_rdata *d, const char **names, int max)
{
    int n = 0;
    for (int g = 0; g < d->n_targets && n < max; g++)
        for (int i = 0; i < d->n_conf; i++)
            if (!strcmp(d->conf[i].target, d->targets[g].name)) {
                names[n++] = d->targets[g].name;
                break;
            }
    for (int i = 0; i < d->n_conf; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++) seen = strcmp(names[k], d->conf[i].target) == 0;
        if (!seen && n < max) names[n++] = d->conf[i].target;
    }
    return n;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The table of the results that failed, crashed, timed out or errored (mistrusted = 0) or
 * of the mistrusted ones (mistrusted = 1), at most opt.max_failures rows. */
static void listing(const cc_rdata *d, cc_text *t, int mistrusted)
{
    cc_text_put(t, "| test | op | target | verdict | largest difference / bound | reason |\n|---|---|---|---|---:|---|\n");
    int max = d->opt.max_failures > 0 ? d->opt.max_failures : d->n_conf, shown = 0, all = 0;
    for (int i = 0; i < d->n_conf; i++) {
        const cc_conformance_result *r = &d->conf[i];
        int bad = r->verdict == CC_FAILED || r->verdict == CC_CRASHED || r->verdict == CC_TIMEOUT || r->verdict == CC_ERROR;
        if (mistrusted ? r->verdict != CC_MISTRUSTED : !bad) continue;
        if (all++ >= max) continue;
        shown++;
        cc_report_test_cells(t, r->test, r->op, r->target);
        cc_text_printf(t, " %s %s | ", cc_report_verdict_symbol(r->verdict), cc_verdict_name(r->verdict));
        if (isnan(r->ratio)) cc_text_put(t, "—");
        else cc_text_printf(t, "%.3g", r->ratio);
        cc_text_put(t, " | ");
        cc_text_md(t, r->reason);
        cc_text_put(t, " |\n");
    }
    if (all > shown) cc_text_printf(t, "\n(%d more not shown)\n", all - shown);
    cc_text_put(t, "\n");
}

void cc_report_test_cells(cc_text *t, const char *test, const char *op, const char *target)
{
    cc_text_put(t, "| ");
    cc_text_md_code(t, test, 1);
    cc_text_put(t, " | ");
    cc_text_md(t, op);
    cc_text_put(t, " | ");
    cc_text_md_code(t, target, 1);
    cc_text_put(t, " |");
}

void cc_report_conformance(const cc_rdata *d, cc_text *t)
{
    if (d->n_conf == 0) return;
    enum { MAXT = 32 };
    const char *tg[MAXT];
    int nt = conf_targets(d, tg, MAXT);
    /* tests: distinct names */
    const char **tests = malloc(sizeof *tests * (size_t)d->n_conf);
    if (!tests) return;
    for (int i = 0; i < d->n_conf; i++) tests[i] = d->conf[i].test;
    qsort(tests, (size_t)d->n_conf, sizeof *tests, cmp_str);
    int n_tests = 0;
    for (int i = 0; i < d->n_conf; i++)
        if (i == 0 || strcmp(tests[i], tests[i - 1])) n_tests++;
    free(tests);

    cc_text_printf(t, "## ONNX conformance (official node tests)\n\n");
    cc_text_printf(t,
                   "%d official ONNX node tests (Debian's libonnx-testdata) run on each target and compared with "
                   "the tests' expected outputs: passed within twice the policy's bound of the node that computes "
                   "each output; mistrusted where the golden model is out of that bound too (the expected values "
                   "disagree with it); unsupported where an op is outside the catalog, the importer refuses the "
                   "model, or the target declines a node (no fallback here).\n\n",
                   n_tests);
    cc_text_put(t, "| target | tests |");
    for (int k = 0; k < CC_VERDICT_COUNT; k++)
        cc_text_printf(t, " %s %s |", cc_report_verdict_symbol(cc_report_verdict_order[k]),
                       cc_verdict_name(cc_report_verdict_order[k]));
    cc_text_put(t, " passed / tests |\n|---|---:|");
    for (int k = 0; k < CC_VERDICT_COUNT; k++) cc_text_put(t, "---:|");
    cc_text_put(t, "---:|\n");
    for (int g = 0; g < nt; g++) {
        long cnt[CC_VERDICT_COUNT] = { 0 }, all = 0;
        for (int i = 0; i < d->n_conf; i++)
            if (!strcmp(d->conf[i].target, tg[g])) {
                cnt[d->conf[i].verdict]++;
                all++;
            }
        cc_text_put(t, "| ");
        cc_text_md_code(t, tg[g], 1);
        cc_text_printf(t, " | %ld |", all);
        for (int k = 0; k < CC_VERDICT_COUNT; k++) cc_text_printf(t, " %ld |", cnt[cc_report_verdict_order[k]]);
        cc_text_printf(t, " %.1f%% |\n", all ? 100.0 * (double)cnt[CC_PASSED] / (double)all : 0.0);
    }
    cc_text_put(t, "\n");

    /* per op: for each target the worst verdict and passed / tests */
    cc_text_put(t, "<details><summary>Node tests per op and target</summary>\n\n| op | tests |");
    for (int g = 0; g < nt; g++) {
        cc_text_put(t, " ");
        cc_text_md_code(t, tg[g], 1);
        cc_text_put(t, " |");
    }
    cc_text_put(t, "\n|---|---:|");
    for (int g = 0; g < nt; g++) cc_text_put(t, "---|");
    cc_text_put(t, "\n");
    for (int i = 0; i < d->n_conf;) {
        int j = i;
        while (j < d->n_conf && !strcmp(d->conf[j].op, d->conf[i].op)) j++;
        int per_target = 0;
        for (int k = i; k < j; k++) per_target += !strcmp(d->conf[k].target, d->conf[i].target);
        cc_text_put(t, "| ");
        cc_text_md(t, d->conf[i].op);
        cc_text_printf(t, " | %d |", per_target);
        for (int g = 0; g < nt; g++) {
            int passed = 0, n = 0, worst = -1;
            for (int k = i; k < j; k++) {
                if (strcmp(d->conf[k].target, tg[g])) continue;
                n++;
                passed += d->conf[k].verdict == CC_PASSED;
                if (worst < 0 || cc_report_verdict_rank(d->conf[k].verdict) > cc_report_verdict_rank(worst))
                    worst = d->conf[k].verdict;
            }
            if (n) cc_text_printf(t, " %s" CC_NBSP "%d/%d |", cc_report_verdict_symbol(worst), passed, n);
            else cc_text_put(t, " · |");
        }
        cc_text_put(t, "\n");
        i = j;
    }
    cc_text_put(t, "\n</details>\n\n");

    /* what did not pass, unsupported aside: failures in the open, mistrusted collapsed */
    int bad = 0, mistrusted = 0;
    for (int i = 0; i < d->n_conf; i++) {
        cc_verdict v = d->conf[i].verdict;
        mistrusted += v == CC_MISTRUSTED;
        bad += v == CC_FAILED || v == CC_CRASHED || v == CC_TIMEOUT || v == CC_ERROR;
    }
    if (bad) {
        cc_text_printf(t, "Node tests that failed, crashed, timed out or errored (%d):\n\n", bad);
        listing(d, t, 0);
        cc_text_put(t, "Repeat one: `crosscheck conformance --tests NAME --targets TARGET`.\n\n");
    }
    if (mistrusted) {
        cc_text_printf(t, "<details><summary>Mistrusted node tests (%d): expected values the golden model disagrees "
                       "with, or a graph's miss beyond its last node's bound</summary>\n\n", mistrusted);
        listing(d, t, 1);
        cc_text_put(t, "</details>\n\n");
    }
}
