/* models.c — the model section of the report: for each model, a table of target x
 * precision with verdict, op support and fallbacks, latency, throughput, accuracy against
 * the FP32 golden model and conformance to the golden model at the same precision; a
 * throughput pivot (target rows, precision columns) in the form this field publishes;
 * the slowest layers and first divergent node of each run; and, collapsed, what each
 * target chose for the model (its plan). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../results/model_result.h"
#include "report.h"
#include "text.h"

static const char *const precisions[] = { "f32", "f16", "bf16", "int8" };
#define N_PREC 4

static void num_or_dash(cc_text *t, double v, const char *fmt)
{
    if (isnan(v) || v < 0) cc_text_put(t, "—");
    else cc_text_printf(t, fmt, v);
}

static void one_model(cc_text *t, const cc_model_result *r, int n)
{
    const char *model = r[0].model;
    int detect = !isnan(r[0].det_map50);
    cc_text_printf(t, "### Model `%s`\n\n", model);
    /* the pivot */
    cc_text_put(t, "| target | op support | fallbacks |");
    for (int p = 0; p < N_PREC; p++) cc_text_printf(t, " %s images/s |", precisions[p]);
    cc_text_put(t, " f32 latency p50 |\n| --- | ---: | ---: |");
    for (int p = 0; p < N_PREC; p++) cc_text_put(t, " ---: |");
    cc_text_put(t, " ---: |\n");
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int j = 0; j < i; j++) first &= strcmp(r[j].target, r[i].target) != 0;
        if (!first) continue;
        const cc_model_result *f32 = NULL;
        for (int j = 0; j < n; j++)
            if (!strcmp(r[j].target, r[i].target) && !strcmp(r[j].precision, "f32")) f32 = &r[j];
        const cc_model_result *any = f32 ? f32 : &r[i];
        cc_text_printf(t, "| `%s` | %.0f%% | %d of %d |", r[i].target, 100 * any->support_rate, any->n_fallback,
                       any->n_nodes);
        for (int p = 0; p < N_PREC; p++) {
            const cc_model_result *c = NULL;
            for (int j = 0; j < n; j++)
                if (!strcmp(r[j].target, r[i].target) && !strcmp(r[j].precision, precisions[p])) c = &r[j];
            cc_text_put(t, " ");
            if (!c) cc_text_put(t, "·");
            else if (c->verdict == CC_UNSUPPORTED || c->throughput <= 0) cc_text_put(t, cc_report_verdict_symbol(c->verdict));
            else {
                cc_text_printf(t, "%.3g", c->throughput);
                if (c->verdict != CC_PASSED) cc_text_printf(t, " %s", cc_report_verdict_symbol(c->verdict));
            }
            cc_text_put(t, " |");
        }
        cc_text_put(t, " ");
        cc_text_seconds(t, f32 ? f32->lat_p50 : 0);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
    /* the detail table */
    cc_text_put(t, "| target | precision | verdict | latency p50 / p90 / p99 | images/s (batch) | GFLOP/s | ");
    cc_text_put(t, detect ? "precision / recall at score 0.25 / mAP@0.5 vs FP32 |" : "top-1 / top-5 agreement vs FP32 |");
    cc_text_put(t, " cosine | SQNR dB | conformance cosine | fallback ops |\n");
    cc_text_put(t, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (int i = 0; i < n; i++) {
        const cc_model_result *c = &r[i];
        cc_text_printf(t, "| `%s` | %s | %s %s | ", c->target, c->precision, cc_report_verdict_symbol(c->verdict),
                       cc_verdict_name(c->verdict));
        cc_text_seconds(t, c->lat_p50);
        cc_text_put(t, " / ");
        cc_text_seconds(t, c->lat_p90);
        cc_text_put(t, " / ");
        cc_text_seconds(t, c->lat_p99);
        cc_text_put(t, " | ");
        if (c->throughput > 0) cc_text_printf(t, "%.3g (%d)", c->throughput, c->tp_batch);
        else cc_text_put(t, "—");
        cc_text_put(t, " | ");
        num_or_dash(t, c->gflops, "%.3g");
        if (c->peak_share > 0) cc_text_printf(t, " (%.0f%% of peak)", 100 * c->peak_share);
        cc_text_put(t, " | ");
        if (detect) {
            num_or_dash(t, c->det_precision * 100, "%.1f%%");
            cc_text_put(t, " / ");
            num_or_dash(t, c->det_recall * 100, "%.1f%%");
            cc_text_put(t, " / ");
            num_or_dash(t, c->det_map50, "%.3f");
        } else {
            num_or_dash(t, c->top1 * 100, "%.1f%%");
            cc_text_put(t, " / ");
            num_or_dash(t, c->top5 * 100, "%.1f%%");
        }
        cc_text_put(t, " | ");
        num_or_dash(t, c->cosine, "%.6f");
        cc_text_put(t, " | ");
        num_or_dash(t, c->sqnr_db, "%.1f");
        cc_text_put(t, " | ");
        num_or_dash(t, c->conf_cosine, "%.6f");
        cc_text_put(t, " | ");
        cc_text_md(t, c->fallback_ops[0] ? c->fallback_ops : "—");
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
    for (int i = 0; i < n; i++) {
        const cc_model_result *c = &r[i];
        if (c->reason[0] && c->verdict != CC_PASSED) {
            cc_text_printf(t, "- `%s` %s: %s — ", c->target, c->precision, cc_verdict_name(c->verdict));
            cc_text_md(t, c->reason);
            cc_text_put(t, "\n");
        }
        if (c->divergent[0]) {
            cc_text_printf(t, "- `%s` %s: first divergent node: ", c->target, c->precision);
            cc_text_md(t, c->divergent);
            cc_text_put(t, "\n");
        }
        if (c->layers[0]) {
            cc_text_printf(t, "- `%s` %s: slowest layers: ", c->target, c->precision);
            cc_text_md(t, c->layers);
            cc_text_put(t, "\n");
        }
    }
    cc_text_put(t, "\n");
    /* what each target chose (its describe_plan text), collapsed: long and rarely read */
    int plans = 0;
    for (int i = 0; i < n; i++) plans += r[i].plan[0] != '\0';
    if (!plans) return;
    cc_text_put(t, "<details><summary>Plans: what each target chose for ");
    cc_text_md(t, r[0].model);
    cc_text_put(t, "</summary>\n\n");
    for (int i = 0; i < n; i++) {
        if (!r[i].plan[0]) continue;
        cc_text_printf(t, "- `%s` %s: ", r[i].target, r[i].precision);
        cc_text_md(t, r[i].plan);
        cc_text_put(t, "\n");
    }
    cc_text_put(t, "\n</details>\n\n");
}

cc_status cc_report_models(cc_db *store, int64_t run_id, cc_text *t, cc_err *err)
{
    cc_model_result *r = NULL;
    int n = 0;
    cc_status st = cc_store_load_model_results(store, run_id, &r, &n, err);
    if (st || n == 0) {
        free(r);
        return st;
    }
    cc_text_put(t, "## Models\n\nEach model on each target and precision: throughput, latency at batch 1, "
                   "accuracy against the FP32 golden model, conformance to the golden model at the same "
                   "precision, and the nodes that fell back to `cpu`.\n\n");
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && strcmp(r[j].model, r[i].model) == 0) j++;
        one_model(t, &r[i], j - i);
        i = j;
    }
    free(r);
    return CC_OK;
}
