/* models.c — the model section of the report: for each model, its settings, a table of
 * target x precision with verdict, op support and fallbacks, latency, throughput (its
 * share of the target's peak, saying which kind of peak), accuracy against the FP32
 * golden model and conformance to the golden model at the same precision; a throughput
 * pivot (target rows, precision columns) in the form this field publishes; the reason
 * and repro line of every result that did not pass, the slowest layers and first
 * divergent node of each run; and, collapsed, what each target chose for the model (its
 * plan). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../models/judge.h"
#include "report_data.h"

static void num_or_dash(cc_text *t, double v, const char *fmt)
{
    if (isnan(v) || v < 0) cc_text_put(t, "—");
    else cc_text_printf(t, fmt, v);
}

/* "`target` precision", the label of one model result in the lists under the tables. */
static void label(cc_text *t, const cc_model_result *c)
{
    cc_text_md_code(t, c->target, 0);
    cc_text_put(t, " ");
    cc_text_md(t, c->precision);
}

void cc_report_model_repro(cc_text *t, const cc_model_result *r)
{
    static const char *const keys[] = { "images", "batch", "size", "seed" };
    cc_text_printf(t, "crosscheck model run %s --targets %s --precisions %s", r->model, r->target,
                   r->precision);
    int seed = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t n = strlen(keys[k]);
        for (const char *p = r->config; *p;) {
            const char *end = strchr(p, ';');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len > n && strncmp(p, keys[k], n) == 0 && p[n] == '=') {
                cc_text_printf(t, " --%s %.*s", keys[k], (int)(len - n - 1), p + n + 1);
                seed |= k == 3;
            }
            p += len + (end != NULL);
        }
    }
    if (!seed) cc_text_printf(t, " --seed %llu", (unsigned long long)r->seed);
}

/* The kind of peak (measured, estimated) of the target c ran on. */
static const char *peak_kind(const cc_rdata *d, const cc_model_result *c)
{
    int g = d->model_target[c - d->models];
    return cc_report_peak_kind(d->targets[g].desc.peak_source);
}

/* One row of a model's detail table. */
static void detail_row(const cc_rdata *d, cc_text *t, const cc_model_result *c, int detect)
{
    cc_text_put(t, "| ");
    cc_text_md_code(t, c->target, 1);
    cc_text_put(t, " | ");
    cc_text_md(t, c->precision);
    cc_text_printf(t, " | %s" CC_NBSP "%s | ", cc_report_verdict_symbol(c->verdict), cc_verdict_name(c->verdict));
    cc_text_seconds(t, c->lat_p50);
    cc_text_put(t, " / ");
    cc_text_seconds(t, c->lat_p90);
    cc_text_put(t, " / ");
    cc_text_seconds(t, c->lat_p99);
    if (c->lat_device_timer) cc_text_put(t, " (device)");
    cc_text_put(t, " | ");
    if (c->throughput > 0) cc_text_printf(t, "%.3g (%d)", c->throughput, c->tp_batch);
    else cc_text_put(t, "—");
    cc_text_put(t, " | ");
    num_or_dash(t, c->gflops, "%.3g");
    if (c->peak_share > 0) cc_text_printf(t, " (%.0f%% of %s)", 100 * c->peak_share, peak_kind(d, c));
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

/* An SQNR in dB: "∞ (equal)", "—" when not measured, else the figure (negative too). */
static void db_cell(cc_text *t, double db)
{
    if (isnan(db)) cc_text_put(t, "—");
    else if (isinf(db)) cc_text_put(t, db > 0 ? "∞ (equal)" : "-∞");
    else cc_text_printf(t, "%.1f", db);
}

/* The FP32 jobs' comparison with the recorded outputs (the model's test data sets: what
 * the framework computed on the original machine), when any job made one. */
static void recorded_table(cc_text *t, const cc_model_result *r, int n)
{
    int any = 0;
    for (int i = 0; i < n; i++) any |= r[i].rec_verdict >= 0;
    if (!any) return;
    cc_text_printf(t, "Against the recorded outputs (the test data sets beside the model: what the framework "
                      "computed where the model came from), FP32; a target matches them at %.0f dB SQNR or more:\n\n",
                   CC_CONF_CAP_DB);
    cc_text_put(t, "| target | verdict | sets | SQNR dB | golden model's SQNR dB | largest difference | reason |\n");
    cc_text_put(t, "| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
    for (int i = 0; i < n; i++) {
        const cc_model_result *c = &r[i];
        if (c->rec_verdict < 0) continue;
        cc_text_put(t, "| ");
        cc_text_md_code(t, c->target, 1);
        cc_text_printf(t, " | %s" CC_NBSP "%s | %d | ", cc_report_verdict_symbol(c->rec_verdict),
                       cc_verdict_name((cc_verdict)c->rec_verdict), c->rec_sets);
        db_cell(t, c->rec_sqnr_db);
        cc_text_put(t, " | ");
        db_cell(t, c->rec_golden_sqnr_db);
        cc_text_put(t, " | ");
        num_or_dash(t, c->rec_max_abs, "%.3g");
        cc_text_put(t, " | ");
        cc_text_md(t, c->rec_reason[0] ? c->rec_reason : "—");
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

static void one_model(const cc_rdata *d, cc_text *t, const cc_model_result *r, int n)
{
    int detect = 0;
    for (int i = 0; i < n; i++) detect |= !isnan(r[i].det_map50);
    cc_text_put(t, "### Model ");
    cc_text_md_code(t, r[0].model, 0);
    cc_text_put(t, "\n\n");
    /* the settings the model job ran with (one line per distinct text) */
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= strcmp(r[j].config, r[i].config) == 0;
        if (seen || !r[i].config[0]) continue;
        cc_text_put(t, "Settings: ");
        cc_text_md_code(t, r[i].config, 0);
        cc_text_put(t, "\n\n");
    }
    /* the pivot */
    cc_text_put(t, "| target | op support | fallbacks |");
    for (int p = 0; p < CC_N_PRECISIONS; p++) cc_text_printf(t, " %s images/s |", cc_report_precisions[p]);
    cc_text_put(t, " f32 latency p50 |\n| --- | ---: | ---: |");
    for (int p = 0; p < CC_N_PRECISIONS; p++) cc_text_put(t, " ---: |");
    cc_text_put(t, " ---: |\n");
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int j = 0; j < i; j++) first &= strcmp(r[j].target, r[i].target) != 0;
        if (!first) continue;
        const cc_model_result *f32 = NULL;
        for (int j = 0; j < n; j++)
            if (!strcmp(r[j].target, r[i].target) && !strcmp(r[j].precision, "f32")) f32 = &r[j];
        const cc_model_result *any = f32 ? f32 : &r[i];
        cc_text_put(t, "| ");
        cc_text_md_code(t, r[i].target, 1);
        cc_text_printf(t, " | %.0f%% | %d of %d |", 100 * any->support_rate, any->n_fallback, any->n_nodes);
        for (int p = 0; p < CC_N_PRECISIONS; p++) {
            const cc_model_result *c = NULL;
            for (int j = 0; j < n; j++)
                if (!strcmp(r[j].target, r[i].target) && !strcmp(r[j].precision, cc_report_precisions[p])) c = &r[j];
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
    cc_text_put(t, detect ? "precision / recall / mAP@0.5 vs FP32 |" : "top-1 / top-5 agreement vs FP32 |");
    cc_text_put(t, " cosine | SQNR dB | conformance cosine | fallback ops |\n");
    cc_text_put(t, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    /* by target, then precision in the order f32, f16, bf16, int8, others */
    for (int i = 0; i < n;) {
        int end = i + 1;
        while (end < n && strcmp(r[end].target, r[i].target) == 0) end++;
        for (int rank = 0; rank <= CC_N_PRECISIONS; rank++)
            for (int j = i; j < end; j++)
                if (cc_report_precision_order(r[j].precision) == rank) detail_row(d, t, &r[j], detect);
        i = end;
    }
    cc_text_put(t, "\n");
    recorded_table(t, r, n);
    for (int i = 0; i < n; i++) {
        const cc_model_result *c = &r[i];
        if (c->verdict != CC_PASSED) {
            cc_text_put(t, "- ");
            label(t, c);
            cc_text_printf(t, ": %s %s — ", cc_report_verdict_symbol(c->verdict), cc_verdict_name(c->verdict));
            cc_text_md(t, c->reason[0] ? c->reason : "no reason given");
            if (c->verdict != CC_UNSUPPORTED) {
                cc_text repro = { 0 };
                cc_report_model_repro(&repro, c);
                cc_text_put(t, " · repro ");
                if (repro.failed) t->failed = 1;
                else cc_text_md_code(t, repro.s, 0);
                cc_text_free(&repro);
            }
            cc_text_put(t, "\n");
        }
        if (c->divergent[0]) {
            cc_text_put(t, "- ");
            label(t, c);
            cc_text_put(t, ": first divergent node: ");
            cc_text_md(t, c->divergent);
            cc_text_put(t, "\n");
        }
        if (c->layers[0]) {
            cc_text_put(t, "- ");
            label(t, c);
            cc_text_put(t, ": slowest layers: ");
            cc_text_md(t, c->layers);
            cc_text_put(t, "\n");
        }
    }
    cc_text_put(t, "\n");
    /* what each target chose (its describe_plan text), collapsed: long and rarely read */
    int plans = 0;
    for (int i = 0; i < n; i++) plans += r[i].plan[0] != '\0';
    if (!plans) return;
    cc_text_details_open(t, "Plans: what each target chose for %s", r[0].model);
    for (int i = 0; i < n; i++) {
        if (!r[i].plan[0]) continue;
        cc_text_put(t, "- ");
        label(t, &r[i]);
        cc_text_put(t, ": ");
        cc_text_md(t, r[i].plan);
        cc_text_put(t, "\n");
    }
    cc_text_details_close(t);
}

void cc_report_models(const cc_rdata *d, cc_text *t)
{
    if (d->n_models == 0) return;
    cc_text_put(t, "## Models\n\nEach model on each target and precision: throughput, latency at batch 1, "
                   "accuracy against the FP32 golden model, conformance to the golden model at the same "
                   "precision, and the nodes that fell back to `cpu`.\n\n");
    const cc_model_result *r = d->models;
    for (int i = 0; i < d->n_models;) {
        int j = i + 1;
        while (j < d->n_models && strcmp(r[j].model, r[i].model) == 0) j++;
        one_model(d, t, &r[i], j - i);
        i = j;
    }
}
