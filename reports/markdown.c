/* markdown.c — the op-support report of one run as GitHub-flavoured Markdown: summary,
 * targets, verdict counts, the op x (target, dtype) support matrix and support rates.
 * Failures, unsupported reasons and performance are written by details.c. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"

/* CPU features worth naming in the machine line, in the order shown. */
static const char *const notable_flags[] = {
    "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512_bf16", "avx512_fp16",
    "avx512_vnni", "avx_vnni", "amx_tile", "amx_bf16", "amx_int8",
    "asimd", "asimdhp", "asimddp", "sve", "sve2", "bf16", "i8mm",
};

static const char *const legend[CC_VERDICT_COUNT] = {
    [CC_PASSED] = "all passed",
    [CC_FAILED] = "wrong results (numerics out of bound)",
    [CC_MISTRUSTED] = "passed a check that could not mean much",
    [CC_UNSUPPORTED] = "the target does not run it",
    [CC_ERROR] = "the target returned an error",
    [CC_CRASHED] = "the worker process died",
    [CC_TIMEOUT] = "over the time limit",
};

/* Display order of verdict columns: best to worst. */
static const cc_verdict verdict_order[CC_VERDICT_COUNT] = {
    CC_PASSED, CC_UNSUPPORTED, CC_MISTRUSTED, CC_ERROR, CC_TIMEOUT, CC_FAILED, CC_CRASHED,
};

static int has_flag(const char *flags, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = flags; (p = strstr(p, flag)) != NULL; p += n)
        if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    return 0;
}

static void summary(const cc_rdata *d, cc_text *t)
{
    const cc_run_info *run = d->run;
    cc_text_put(t, "# ");
    cc_text_md(t, d->opt.title);
    cc_text_put(t, "\n\n- **Run** ");
    cc_text_md_code(t, run->uid, 0);
    cc_text_printf(t, " (id %lld) · started ", (long long)run->id);
    cc_text_md(t, run->started_at);
    if (run->finished_at[0]) {
        cc_text_put(t, " · finished ");
        cc_text_md(t, run->finished_at);
    }
    cc_text_put(t, " · status **");
    cc_text_md(t, run->status);
    cc_text_put(t, "**");
    if (run->tag[0]) {
        cc_text_put(t, " · tag ");
        cc_text_md_code(t, run->tag, 0);
    }

    cc_text_put(t, "\n- **Machine** ");
    cc_text_md(t, run->hostname[0] ? run->hostname : "unknown host");
    cc_text_put(t, " · ");
    cc_text_md(t, run->cpu_model[0] ? run->cpu_model : "unknown CPU");
    cc_text_printf(t, " · %d cores · %.1f GiB", run->cores,
                   (double)run->memory_bytes / (1024.0 * 1024.0 * 1024.0));
    if (run->os[0]) {
        cc_text_put(t, " · ");
        cc_text_md(t, run->os);
    }
    int any = 0;
    for (size_t i = 0; i < sizeof notable_flags / sizeof notable_flags[0]; i++) {
        if (!has_flag(run->cpu_flags, notable_flags[i])) continue;
        cc_text_put(t, any ? " " : " · ISA ");
        cc_text_md(t, notable_flags[i]);
        any = 1;
    }

    cc_text_put(t, "\n- **Build** crosscheck ");
    cc_text_md(t, run->version[0] ? run->version : "?");
    if (run->git_commit[0]) {
        cc_text_put(t, " (git ");
        cc_text_md_code(t, run->git_commit, 0);
        cc_text_put(t, ")");
    }
    if (run->compiler[0]) {
        cc_text_put(t, " · ");
        cc_text_md(t, run->compiler);
    }
    if (run->libraries[0]) {
        cc_text_put(t, " · ");
        cc_text_md(t, run->libraries);
    }
    cc_text_put(t, "\n- **Conditions** ");
    cc_report_conditions(t, run);
    cc_text_printf(t, "\n- **Selection** seed %llu · %s sweep", (unsigned long long)run->seed,
                   run->quick ? "quick" : "full");
    if (run->config[0]) {
        cc_text_put(t, " · ");
        cc_text_md_code(t, run->config, 0);
    }
    if (run->command[0]) {
        cc_text_put(t, "\n- **Command** ");
        cc_text_md_code(t, run->command, 0);
    }
    cc_text_put(t, "\n\n");

    if (strcmp(run->status, "finished") != 0) {
        cc_text_put(t, "> ⚠️ This run is **");
        cc_text_md(t, run->status);
        cc_text_put(t, "**: its results are incomplete.\n\n");
    }

    long count[CC_VERDICT_COUNT] = {0};
    for (int i = 0; i < d->n_res; i++) count[d->res[i].verdict]++;
    long bad = d->n_res - count[CC_PASSED] - count[CC_UNSUPPORTED];
    if (d->n_res == 0) {
        cc_text_put(t, "**Overall: · no results.**\n\n");
        return;
    }
    if (bad == 0) {
        cc_text_printf(t, "**Overall: ✅ all %ld supported results passed** (%ld unsupported).\n\n",
                       count[CC_PASSED], count[CC_UNSUPPORTED]);
        return;
    }
    cc_text_printf(t, "**Overall: ❌ %ld of %ld supported results did not pass**", bad,
                   d->n_res - count[CC_UNSUPPORTED]);
    const char *sep = " — ";
    for (int k = CC_VERDICT_COUNT - 1; k >= 0; k--) {
        cc_verdict v = verdict_order[k];
        if (v == CC_PASSED || !count[v]) continue;
        cc_text_printf(t, "%s%s %ld %s", sep, cc_report_verdict_symbol(v), count[v],
                       cc_verdict_name(v));
        sep = " · ";
    }
    cc_text_printf(t, " · ✅ %ld passed.\n\n", count[CC_PASSED]);
}

static void targets(const cc_rdata *d, cc_text *t)
{
    cc_text_put(t, "## Targets\n\n| target | status | device | driver | library | peak GFLOP/s | peak GB/s |\n"
                   "| --- | --- | --- | --- | --- | ---: | ---: |\n");
    for (int i = 0; i < d->n_targets; i++) {
        const cc_run_target *g = &d->targets[i];
        cc_text_put(t, "| ");
        cc_text_md_code(t, g->name, 1);
        if (g->available > 0) {
            cc_text_put(t, " | ✅ available");
        } else if (g->available == 0) {
            cc_text_put(t, " | ⛔ unavailable: ");
            cc_text_md(t, g->reason[0] ? g->reason : "no reason given");
        } else {
            cc_text_put(t, " | not in the run's target list");
        }
        const char *cols[3] = { g->desc.name, g->desc.driver, g->desc.library };
        for (int c = 0; c < 3; c++) {
            cc_text_put(t, " | ");
            cc_text_md(t, cols[c][0] ? cols[c] : "—");
        }
        cc_text_put(t, " | ");
        cc_text_num(t, g->desc.peak_gflops > 0 ? g->desc.peak_gflops : (double)NAN);
        cc_text_put(t, " | ");
        cc_text_num(t, g->desc.peak_gbps > 0 ? g->desc.peak_gbps : (double)NAN);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

static void verdict_counts(const cc_rdata *d, cc_text *t)
{
    cc_text_put(t, "## Verdicts\n\nResults per target (one per case and input regime).\n\n| target |");
    for (int k = 0; k < CC_VERDICT_COUNT; k++)
        cc_text_printf(t, " %s %s |", cc_report_verdict_symbol(verdict_order[k]),
                       cc_verdict_name(verdict_order[k]));
    cc_text_put(t, " total |\n| --- |");
    for (int k = 0; k <= CC_VERDICT_COUNT; k++) cc_text_put(t, " ---: |");
    cc_text_put(t, "\n");
    for (int g = 0; g < d->n_targets; g++) {
        long count[CC_VERDICT_COUNT] = {0}, total = 0;
        for (int i = 0; i < d->n_res; i++)
            if (d->res_target[i] == g) {
                count[d->res[i].verdict]++;
                total++;
            }
        cc_text_put(t, "| ");
        cc_text_md_code(t, d->targets[g].name, 1);
        for (int k = 0; k < CC_VERDICT_COUNT; k++)
            cc_text_printf(t, " | %ld", count[verdict_order[k]]);
        cc_text_printf(t, " | %ld |\n", total);
    }
    cc_text_put(t, "\n");
}

/* One cell of the matrix: outcomes of an op's cases of one dtype on one target. */
typedef struct cell {
    int n, passed;
    cc_verdict worst;
} cell;

static void matrix(const cc_rdata *d, cc_text *t, cell *cells, int *totals)
{
    int nt = d->n_targets, nd = d->n_dtypes;
    for (int c = 0; c < d->n_cases; c++) totals[d->cases[c].op * nd + d->cases[c].dtype]++;
    for (int i = 0; i < d->n_oc; i++) {
        const cc_routcome *o = &d->oc[i];
        const cc_rcase *c = &d->cases[o->kase];
        cell *x = &cells[(c->op * nt + o->target) * nd + c->dtype];
        if (x->n == 0 || cc_report_verdict_rank(o->worst) > cc_report_verdict_rank(x->worst))
            x->worst = o->worst;
        x->n++;
        x->passed += o->worst == CC_PASSED;
    }

    cc_text_put(t, "## Op support\n\nEach cell: the worst verdict over the op's cases on that "
                   "target and dtype, then passed / cases.\n\n| op |");
    for (int g = 0; g < nt; g++)
        for (int k = 0; k < nd; k++) {
            cc_text_put(t, " ");
            cc_text_md(t, d->targets[g].name);
            cc_text_put(t, " ");
            cc_text_md(t, d->dtypes[k]);
            cc_text_put(t, " |");
        }
    cc_text_put(t, "\n| --- |");
    for (int i = 0; i < nt * nd; i++) cc_text_put(t, " :---: |");
    cc_text_put(t, "\n");
    for (int o = 0; o < d->n_ops; o++) {
        cc_text_put(t, "| ");
        cc_text_md(t, d->ops[o]);
        for (int g = 0; g < nt; g++)
            for (int k = 0; k < nd; k++) {
                const cell *x = &cells[(o * nt + g) * nd + k];
                if (x->n == 0) cc_text_put(t, " | ·");
                else
                    cc_text_printf(t, " | %s %d/%d", cc_report_verdict_symbol(x->worst), x->passed,
                                   totals[o * nd + k]);
            }
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\nLegend:");
    for (int k = 0; k < CC_VERDICT_COUNT; k++)
        cc_text_printf(t, " %s %s;", cc_report_verdict_symbol(verdict_order[k]),
                       legend[verdict_order[k]]);
    cc_text_put(t, " · no cases.\n\n");
}

static void support_rate(const cc_rdata *d, cc_text *t)
{
    cc_text_printf(t, "## Support rate\n\nA case passes on a target when every input regime "
                      "passed. Claimed cases are those not unsupported.\n\n"
                      "| target | passed / all %d cases | passed / claimed cases |\n"
                      "| --- | ---: | ---: |\n", d->n_cases);
    for (int g = 0; g < d->n_targets; g++) {
        long passed = 0, claimed = 0;
        for (int i = 0; i < d->n_oc; i++) {
            if (d->oc[i].target != g) continue;
            passed += d->oc[i].worst == CC_PASSED;
            claimed += d->oc[i].worst != CC_UNSUPPORTED;
        }
        cc_text_put(t, "| ");
        cc_text_md_code(t, d->targets[g].name, 1);
        cc_text_put(t, " | ");
        cc_text_percent(t, passed, d->n_cases);
        cc_text_put(t, " | ");
        cc_text_percent(t, passed, claimed);
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\n");
}

cc_status cc_report_markdown(cc_db *store, int64_t run_id, const cc_report_options *opt,
                             char **out_md, cc_err *err)
{
    if (!store || !out_md) return cc_err_set(err, CC_ERR_ARG, "cc_report_markdown: NULL argument");
    cc_rdata d;
    cc_status s = cc_rdata_load(store, run_id, opt, &d, err);
    if (s != CC_OK) return s;

    cc_text t = {0};
    size_t n_cells = (size_t)d.n_ops * d.n_targets * d.n_dtypes + 1;
    cell *cells = calloc(n_cells, sizeof *cells);
    int *totals = calloc((size_t)d.n_ops * d.n_dtypes + 1, sizeof *totals);
    if (!cells || !totals) {
        s = cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
        goto done;
    }
    summary(&d, &t);
    targets(&d, &t);
    verdict_counts(&d, &t);
    s = cc_report_models(store, d.run->id, &t, err);
    if (s != CC_OK) goto done;
    if (d.n_res > 0) {
        matrix(&d, &t, cells, totals);
        support_rate(&d, &t);
        cc_report_failures(&d, &t);
        cc_report_unsupported(&d, &t);
        cc_report_performance(&d, &t);
    }
    if (d.opt.machines >= 0) {
        s = cc_report_machines(store, 2, "Machines in this database", &t, err);
        if (s != CC_OK) goto done;
    }
    if (t.failed || !t.s) {
        s = cc_err_set(err, CC_ERR_NOMEM, "report: out of memory");
        goto done;
    }
    *out_md = t.s;
    t.s = NULL;

done:
    cc_text_free(&t);
    free(cells);
    free(totals);
    cc_rdata_free(&d);
    return s;
}
