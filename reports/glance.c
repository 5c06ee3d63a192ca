/* glance.c — the "At a glance" section that follows the report's summary: what a reader
 * asks first. Per target: whether it was available (or why not) and its op support rate
 * over the run's cases; per model and target: throughput and accuracy cost against the
 * FP32 golden model for each precision, with the verdict. */
#include <math.h>
#include <string.h>

#include "report_data.h"

#define MAX_PREC 16

/* The distinct precisions of the run's model results, in display order, others after the
 * known ones by name. */
static int before(const char *a, const char *b)
{
    int oa = cc_report_precision_order(a), ob = cc_report_precision_order(b);
    return oa < ob || (oa == ob && strcmp(a, b) < 0);
}

static int precisions(const cc_rdata *d, const char **out)
{
    int n = 0;
    for (int i = 0; i < d->n_models && n < MAX_PREC; i++) {
        const char *p = d->models[i].precision;
        int seen = 0;
        for (int k = 0; k < n; k++) seen |= strcmp(out[k], p) == 0;
        if (seen) continue;
        int j = n++;
        for (; j > 0 && before(p, out[j - 1]); j--) out[j] = out[j - 1];
        out[j] = p;
    }
    return n;
}

static void targets(const cc_rdata *d, cc_text *t)
{
    int ops = d->n_cases > 0;
    cc_text_put(t, "| target | status |");
    if (ops)
        cc_text_printf(t, " op cases passed / all %d | passed / claimed |", d->n_cases);
    cc_text_put(t, ops ? "\n| --- | --- | ---: | ---: |\n" : "\n| --- | --- |\n");
    for (int g = 0; g < d->n_targets; g++) {
        cc_text_put(t, "| ");
        cc_text_md_code(t, d->targets[g].name, 1);
        cc_text_put(t, " | ");
        cc_report_target_status(t, &d->targets[g]);
        cc_rsupport s = cc_rdata_support(d, g);
        if (ops && s.ran == 0) {
            /* a target only the model jobs used: no op case was asked of it */
            cc_text_put(t, " | no op cases run | —");
        } else if (ops) {
            cc_text_put(t, " | ");
            cc_text_percent(t, s.passed, d->n_cases);
            cc_text_put(t, " | ");
            cc_text_percent(t, s.passed, s.claimed);
        }
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

/* One model result in a cell: "✅ 25.5 img/s · top-1 100.0%", "⛔ unsupported". */
static void model_cell(cc_text *t, const cc_model_result *r, int detect)
{
    cc_text_put(t, cc_report_verdict_symbol(r->verdict));
    double acc = detect ? r->det_map50 : r->top1;
    int parts = 0;
    if (r->verdict != CC_UNSUPPORTED && r->throughput > 0) {
        cc_text_printf(t, " %.3g img/s", r->throughput);
        parts++;
    }
    if (r->verdict != CC_UNSUPPORTED && !isnan(acc) && acc >= 0) {
        cc_text_put(t, parts ? " · " : " ");
        if (detect) cc_text_printf(t, "mAP %.3f", acc);
        else cc_text_printf(t, "top-1 %.1f%%", 100 * acc);
        parts++;
    }
    if (!parts) cc_text_printf(t, " %s", cc_verdict_name(r->verdict));
}

static void models(const cc_rdata *d, cc_text *t)
{
    const char *prec[MAX_PREC];
    int np = precisions(d, prec);
    cc_text_put(t, "Models: images/s at the throughput batch, then the accuracy cost against the FP32 "
                   "golden model (top-1 agreement for classifiers, mAP@0.5 for detectors); the symbol "
                   "is the verdict.\n\n| model | target |");
    for (int p = 0; p < np; p++) {
        cc_text_put(t, " ");
        cc_text_md(t, prec[p]);
        cc_text_put(t, " |");
    }
    cc_text_put(t, "\n| --- | --- |");
    for (int p = 0; p < np; p++) cc_text_put(t, " --- |");
    cc_text_put(t, "\n");
    for (int i = 0; i < d->n_models;) {
        const cc_model_result *r = &d->models[i];
        int end = i + 1, detect = 0;
        while (end < d->n_models && strcmp(d->models[end].model, r->model) == 0) end++;
        for (int k = i; k < end; k++) detect |= !isnan(d->models[k].det_map50);
        /* one row per target of the model (results are ordered by model, target) */
        for (int j = i; j < end;) {
            int row_end = j + 1;
            while (row_end < end && strcmp(d->models[row_end].target, d->models[j].target) == 0) row_end++;
            cc_text_put(t, "| ");
            cc_text_md_code(t, r->model, 1);
            cc_text_put(t, " | ");
            cc_text_md_code(t, d->models[j].target, 1);
            for (int p = 0; p < np; p++) {
                const cc_model_result *c = NULL;
                for (int k = j; k < row_end; k++)
                    if (strcmp(d->models[k].precision, prec[p]) == 0) c = &d->models[k];
                cc_text_put(t, " | ");
                if (c) model_cell(t, c, detect);
                else cc_text_put(t, "·");
            }
            cc_text_put(t, " |\n");
            j = row_end;
        }
        i = end;
    }
    cc_text_put(t, "\n");
}

void cc_report_glance(const cc_rdata *d, cc_text *t)
{
    cc_text_put(t, "## At a glance\n\n");
    if (d->n_cases > 0)
        cc_text_put(t, "Op cases: a case passes on a target when every input regime passed; claimed "
                       "cases are those the target did not call unsupported.\n\n");
    targets(d, t);
    if (d->n_models > 0) models(d, t);
}
