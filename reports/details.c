/* details.c — the detailed sections of the op-support report: failures with their repro
 * lines (model results that did not pass are counted there and listed by the model
 * section), unsupported reasons grouped with counts, and performance (the most expensive
 * timed cases on every target, and a per-op summary with speedups over a baseline). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"

/* ---- failures ------------------------------------------------------------------------- */

/* The repro line as a code span: crosscheck run --case '<id>' --targets <target> --seed <s>,
 * with the run's seed, from which the case's input seeds derive. */
static void repro(cc_text *t, const cc_result *r, uint64_t seed)
{
    cc_text cmd = {0};
    cc_text_put(&cmd, "crosscheck run --case '");
    for (const char *p = r->case_id; *p; p++) {
        if (*p == '\'') cc_text_put(&cmd, "'\\''");
        else cc_text_putn(&cmd, p, 1);
    }
    cc_text_put(&cmd, "' --targets ");
    cc_text_put(&cmd, r->target);
    cc_text_printf(&cmd, " --seed %llu", (unsigned long long)seed);
    if (cmd.failed) t->failed = 1;
    else cc_text_md_code(t, cmd.s, 1);
    cc_text_free(&cmd);
}

static void metric(cc_text *t, const cc_result *r, double v)
{
    cc_text_put(t, " | ");
    if (r->metrics.n <= 0) cc_text_put(t, "—");
    else cc_text_num(t, v);
}

void cc_report_failures(const cc_rdata *d, cc_text *t)
{
    long total = 0, shown = 0;
    for (int i = 0; i < d->n_res; i++)
        total += d->res[i].verdict != CC_PASSED && d->res[i].verdict != CC_UNSUPPORTED;
    long models = 0;
    for (int i = 0; i < d->n_models; i++)
        models += d->models[i].verdict != CC_PASSED && d->models[i].verdict != CC_UNSUPPORTED;
    cc_text_put(t, "## Failures\n\n");
    if (models > 0)
        cc_text_printf(t, "%ld model result(s) did not pass: the Models section gives their reasons and "
                          "repro lines. The op results follow.\n\n", models);
    if (total == 0) {
        cc_text_put(t, "None: every op result passed or is unsupported.\n\n");
        return;
    }
    cc_text_printf(t, "%ld result(s) neither passed nor unsupported, worst first. The repro "
                      "line reruns one case on one target.\n\n"
                      "| verdict | target | regime | repro | max abs | max rel | max ulp | "
                      "bound ratio | reason |\n"
                      "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n", total);
    long limit = d->opt.max_failures > 0 ? d->opt.max_failures : total;
    for (int rank = cc_report_verdict_rank(CC_CRASHED); rank > 0 && shown < limit; rank--) {
        for (int i = 0; i < d->n_res && shown < limit; i++) {
            const cc_result *r = &d->res[i];
            if (r->verdict == CC_UNSUPPORTED || cc_report_verdict_rank(r->verdict) != rank)
                continue;
            cc_text_printf(t, "| %s %s | ", cc_report_verdict_symbol(r->verdict),
                           cc_verdict_name(r->verdict));
            cc_text_md_code(t, r->target, 1);
            cc_text_printf(t, " | %s | ", cc_regime_name(r->regime));
            repro(t, r, d->run->seed);
            metric(t, r, r->metrics.max_abs);
            metric(t, r, r->metrics.max_rel);
            metric(t, r, r->metrics.max_ulp);
            metric(t, r, r->metrics.bound_ratio);
            cc_text_put(t, " | ");
            cc_text_md(t, r->reason[0] ? r->reason : "—");
            cc_text_put(t, " |\n");
            shown++;
        }
    }
    if (shown < total) cc_text_printf(t, "\n… and %ld more not shown.\n", total - shown);
    cc_text_put(t, "\n");
}

/* ---- unsupported reasons ------------------------------------------------------------ */

typedef struct reason_row {
    int target;
    const char *reason;
    long count;
} reason_row;

static int by_target_reason(const void *a, const void *b)
{
    const reason_row *x = a, *y = b;
    if (x->target != y->target) return x->target < y->target ? -1 : 1;
    return strcmp(x->reason, y->reason);
}

static int by_target_count(const void *a, const void *b)
{
    const reason_row *x = a, *y = b;
    if (x->target != y->target) return x->target < y->target ? -1 : 1;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->reason, y->reason);
}

void cc_report_unsupported(const cc_rdata *d, cc_text *t)
{
    reason_row *rows = malloc(((size_t)d->n_res + 1) * sizeof *rows);
    if (!rows) {
        t->failed = 1;
        return;
    }
    int n = 0;
    for (int i = 0; i < d->n_res; i++)
        if (d->res[i].verdict == CC_UNSUPPORTED)
            rows[n++] = (reason_row){ d->res_target[i],
                                      d->res[i].reason[0] ? d->res[i].reason : "no reason given", 1 };
    cc_text_put(t, "## Unsupported\n\n");
    if (n == 0) {
        cc_text_put(t, "Every target ran every case it was given.\n\n");
        free(rows);
        return;
    }
    qsort(rows, (size_t)n, sizeof *rows, by_target_reason);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && rows[m - 1].target == rows[i].target &&
            strcmp(rows[m - 1].reason, rows[i].reason) == 0)
            rows[m - 1].count++;
        else rows[m++] = rows[i];
    }
    qsort(rows, (size_t)m, sizeof *rows, by_target_count);
    cc_text_put(t, "Reasons the targets gave, with the number of results each covers.\n\n"
                   "| target | reason | results |\n| --- | --- | ---: |\n");
    int limit = d->opt.max_reasons > 0 && d->opt.max_reasons < m ? d->opt.max_reasons : m;
    for (int i = 0; i < limit; i++) {
        cc_text_put(t, "| ");
        cc_text_md_code(t, d->targets[rows[i].target].name, 1);
        cc_text_put(t, " | ");
        cc_text_md(t, rows[i].reason);
        cc_text_printf(t, " | %ld |\n", rows[i].count);
    }
    if (limit < m) cc_text_printf(t, "\n… and %d more reasons not shown.\n", m - limit);
    cc_text_put(t, "\n");
    free(rows);
}

/* ---- performance -------------------------------------------------------------------- */

static double rate(double amount, double seconds, double stored)
{
    if (stored > 0) return stored;
    if (amount > 0 && seconds > 0) return amount / seconds * 1e-9;
    return NAN;
}

static double gflops(const cc_result *r)
{
    return rate(r->flops, r->timing.median, r->timing.gflops);
}

static double gbps(const cc_result *r)
{
    return rate(r->bytes, r->timing.median, r->timing.gbps);
}

typedef struct perf_case {
    int kase;
    double flops;
} perf_case;

static int by_flops(const void *a, const void *b)
{
    const perf_case *x = a, *y = b;
    if (x->flops != y->flops) return x->flops > y->flops ? -1 : 1;
    return x->kase - y->kase;
}

static void perf_cases(const cc_rdata *d, cc_text *t, const int *timed, const perf_case *pc,
                       int n_pc)
{
    int nt = d->n_targets, shown = n_pc < d->opt.perf_cases ? n_pc : d->opt.perf_cases;
    cc_text_printf(t, "%d case(s) were timed; the %d with the most FLOPs are shown. Times are "
                      "medians; CV is the coefficient of variation of the samples.\n\n"
                      "| case | target | median | GFLOP/s | GB/s | CV | samples | speedup over ",
                   n_pc, shown);
    cc_text_md_code(t, d->opt.baseline, 1);
    cc_text_put(t, " |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < shown; i++) {
        int c = pc[i].kase, first = 1;
        int base = d->baseline >= 0 ? timed[c * nt + d->baseline] : -1;
        for (int g = 0; g < nt; g++) {
            int ri = timed[c * nt + g];
            if (ri < 0) continue;
            const cc_result *r = &d->res[ri];
            cc_text_put(t, "| ");
            if (first) cc_text_md_code(t, r->case_id, 1);
            first = 0;
            cc_text_put(t, " | ");
            cc_text_md_code(t, r->target, 1);
            cc_text_put(t, " | ");
            cc_text_seconds(t, r->timing.median);
            cc_text_put(t, " | ");
            cc_text_num(t, gflops(r));
            cc_text_put(t, " | ");
            cc_text_num(t, gbps(r));
            cc_text_put(t, " | ");
            if (isnan(r->timing.cv)) cc_text_put(t, "—");
            else cc_text_printf(t, "%.1f%%", 100.0 * r->timing.cv);
            cc_text_printf(t, " | %d%s | ", r->timing.n_samples,
                           r->timing.device_timer ? " (device)" : "");
            if (g == d->baseline) cc_text_put(t, "baseline");
            else if (base >= 0)
                cc_text_printf(t, "%.2f×", d->res[base].timing.median / r->timing.median);
            else cc_text_put(t, "—");
            cc_text_put(t, " |\n");
        }
    }
    cc_text_put(t, "\n");
}

static void perf_ops(const cc_rdata *d, cc_text *t, const int *timed)
{
    int nt = d->n_targets;
    cc_text_put(t, "### Per op\n\nGeometric means over the op's timed cases.\n\n"
                   "| op | target | timed cases | GFLOP/s | speedup over ");
    cc_text_md_code(t, d->opt.baseline, 1);
    cc_text_put(t, " |\n| --- | --- | ---: | ---: | ---: |\n");
    for (int o = 0; o < d->n_ops; o++) {
        for (int g = 0; g < nt; g++) {
            int n = 0, ng = 0, ns = 0;
            double lg = 0, ls = 0;
            for (int c = 0; c < d->n_cases; c++) {
                int ri = d->cases[c].op == o ? timed[c * nt + g] : -1;
                if (ri < 0) continue;
                n++;
                double gf = gflops(&d->res[ri]);
                if (gf > 0) {
                    lg += log(gf);
                    ng++;
                }
                int base = d->baseline >= 0 ? timed[c * nt + d->baseline] : -1;
                if (base >= 0) {
                    ls += log(d->res[base].timing.median / d->res[ri].timing.median);
                    ns++;
                }
            }
            if (n == 0) continue;
            cc_text_put(t, "| ");
            cc_text_md(t, d->ops[o]);
            cc_text_put(t, " | ");
            cc_text_md_code(t, d->targets[g].name, 1);
            cc_text_printf(t, " | %d | ", n);
            cc_text_num(t, ng ? exp(lg / ng) : (double)NAN);
            cc_text_put(t, " | ");
            if (g == d->baseline) cc_text_put(t, "baseline");
            else if (ns) cc_text_printf(t, "%.2f×", exp(ls / ns));
            else cc_text_put(t, "—");
            cc_text_put(t, " |\n");
        }
    }
    cc_text_put(t, "\n");
}

void cc_report_performance(const cc_rdata *d, cc_text *t)
{
    if (d->opt.perf_cases < 0) return;
    int nt = d->n_targets;
    int *timed = malloc(((size_t)d->n_cases * nt + 1) * sizeof *timed);
    perf_case *pc = malloc(((size_t)d->n_cases + 1) * sizeof *pc);
    if (!timed || !pc) {
        t->failed = 1;
        goto done;
    }
    for (int i = 0; i < d->n_cases * nt; i++) timed[i] = -1;
    /* A case's timing on a target: its last timed regime (random sorts after exact). */
    for (int i = 0; i < d->n_oc; i++) {
        const cc_routcome *o = &d->oc[i];
        for (int k = o->first; k < o->first + o->n; k++)
            if (d->res[k].timing.n_samples > 0 && d->res[k].timing.median > 0)
                timed[o->kase * nt + o->target] = k;
    }
    int n_pc = 0;
    for (int c = 0; c < d->n_cases; c++) {
        double flops = -1;
        for (int g = 0; g < nt; g++) {
            int ri = timed[c * nt + g];
            if (ri >= 0 && d->res[ri].flops > flops) flops = d->res[ri].flops;
        }
        if (flops >= 0) pc[n_pc++] = (perf_case){ c, flops };
    }
    cc_text_put(t, "## Performance\n\n");
    if (n_pc == 0) {
        cc_text_put(t, "No case was timed.\n\n");
        goto done;
    }
    qsort(pc, (size_t)n_pc, sizeof *pc, by_flops);
    perf_cases(d, t, timed, pc, n_pc);
    perf_ops(d, t, timed);

done:
    free(timed);
    free(pc);
}
