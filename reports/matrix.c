/* matrix.c — the op-support section of the report: one compact matrix (rows ops, columns
 * the targets that ran op cases; a cell lists the dtypes the op was tested in on that target, grouped by the
 * worst verdict over the op's cases in each dtype), its legend, and per target a collapsed
 * op x dtype table with the symbol of the worst verdict and passed / cases. */
#include <stdlib.h>

#include "report_data.h"

static const char *const legend[CC_VERDICT_COUNT] = {
    [CC_PASSED] = "all passed",
    [CC_FAILED] = "wrong results (numerics out of bound)",
    [CC_MISTRUSTED] = "passed a check that could not mean much",
    [CC_UNSUPPORTED] = "the target does not run it",
    [CC_ERROR] = "the target returned an error",
    [CC_CRASHED] = "the worker process died",
    [CC_TIMEOUT] = "over the time limit",
};

/* The outcomes of an op's cases of one dtype on one target. */
typedef struct cell {
    int n, passed;
    cc_verdict worst;
} cell;

/* cells[(op * n_targets + target) * n_dtypes + dtype]; totals[op * n_dtypes + dtype]:
 * the run's cases of that op and dtype. */
typedef struct grid {
    const cc_rdata *d;
    cell *cells;
    int *totals;
    cc_rsupport *support;   /* per target */
} grid;

static const cell *at(const grid *m, int op, int target, int dtype)
{
    const cc_rdata *d = m->d;
    return &m->cells[((size_t)op * d->n_targets + target) * d->n_dtypes + dtype];
}

static int fill(grid *m, const cc_rdata *d)
{
    m->d = d;
    m->cells = calloc((size_t)d->n_ops * d->n_targets * d->n_dtypes + 1, sizeof *m->cells);
    m->totals = calloc((size_t)d->n_ops * d->n_dtypes + 1, sizeof *m->totals);
    m->support = calloc((size_t)d->n_targets + 1, sizeof *m->support);
    if (!m->cells || !m->totals || !m->support) return -1;
    for (int g = 0; g < d->n_targets; g++) m->support[g] = cc_rdata_support(d, g);
    for (int c = 0; c < d->n_cases; c++) m->totals[d->cases[c].op * d->n_dtypes + d->cases[c].dtype]++;
    for (int i = 0; i < d->n_oc; i++) {
        const cc_routcome *o = &d->oc[i];
        const cc_rcase *c = &d->cases[o->kase];
        cell *x = (cell *)at(m, c->op, o->target, c->dtype);
        if (x->n == 0 || cc_report_verdict_rank(o->worst) > cc_report_verdict_rank(x->worst))
            x->worst = o->worst;
        x->n++;
        x->passed += o->worst == CC_PASSED;
    }
    return 0;
}

/* A compact cell: "✅ f32 f16 · ❌ bf16", groups best first, dtypes in display order;
 * "·" when the target has no case of the op. */
static void compact_cell(cc_text *t, const grid *m, int op, int target)
{
    const cc_rdata *d = m->d;
    int groups = 0;
    for (int k = 0; k < CC_VERDICT_COUNT; k++) {
        cc_verdict v = cc_report_verdict_order[k];
        int in_group = 0;
        for (int dt = 0; dt < d->n_dtypes; dt++) {
            const cell *x = at(m, op, target, dt);
            if (x->n == 0 || x->worst != v) continue;
            if (!in_group) cc_text_printf(t, "%s%s", groups++ ? " · " : "", cc_report_verdict_symbol(v));
            in_group = 1;
            cc_text_put(t, " ");
            cc_text_md(t, d->dtypes[dt]);
        }
    }
    if (!groups) cc_text_put(t, "·");
}

static void compact(cc_text *t, const grid *m)
{
    const cc_rdata *d = m->d;
    cc_text_put(t, "## Op support\n\nEach cell: the dtypes the op was tested in on that target, grouped "
                   "by the worst verdict over the op's cases in that dtype. Passed / cases per dtype "
                   "are in the per-target tables below.\n\n| op |");
    for (int g = 0; g < d->n_targets; g++) {
        if (!m->support[g].ran) continue;  /* only the model jobs used it */
        cc_text_put(t, " ");
        cc_text_md(t, d->targets[g].name);
        cc_text_put(t, " |");
    }
    cc_text_put(t, "\n| --- |");
    for (int g = 0; g < d->n_targets; g++)
        if (m->support[g].ran) cc_text_put(t, " --- |");
    cc_text_put(t, "\n");
    for (int o = 0; o < d->n_ops; o++) {
        cc_text_put(t, "| ");
        cc_text_md(t, d->ops[o]);
        for (int g = 0; g < d->n_targets; g++) {
            if (!m->support[g].ran) continue;
            cc_text_put(t, " | ");
            compact_cell(t, m, o, g);
        }
        cc_text_put(t, " |\n");
    }
    cc_text_put(t, "\nLegend:");
    for (int k = 0; k < CC_VERDICT_COUNT; k++)
        cc_text_printf(t, " %s %s;", cc_report_verdict_symbol(cc_report_verdict_order[k]),
                       legend[cc_report_verdict_order[k]]);
    cc_text_put(t, " · no cases.\n\n");
}

/* 1 when target g has a case of dtype k (of any op). */
static int dtype_on(const grid *m, int g, int k)
{
    for (int o = 0; o < m->d->n_ops; o++)
        if (at(m, o, g, k)->n > 0) return 1;
    return 0;
}

/* 1 when target g has a case of op o (in any dtype). */
static int op_on(const grid *m, int g, int o)
{
    for (int k = 0; k < m->d->n_dtypes; k++)
        if (at(m, o, g, k)->n > 0) return 1;
    return 0;
}

/* One target's op x dtype table, collapsed: only the ops and dtypes it has cases of. */
static void per_target(cc_text *t, const grid *m, int g)
{
    const cc_rdata *d = m->d;
    const cc_rsupport *s = &m->support[g];
    if (s->ran == 0) return;  /* a target only the model jobs used */
    cc_text_details_open(t, "%s — op × dtype, passed / cases (%ld of its %ld case%s passed)", d->targets[g].name,
                         s->passed, s->ran, s->ran == 1 ? "" : "s");
    cc_text_put(t, "| op |");
    for (int k = 0; k < d->n_dtypes; k++) {
        if (!dtype_on(m, g, k)) continue;
        cc_text_put(t, " ");
        cc_text_md(t, d->dtypes[k]);
        cc_text_put(t, " |");
    }
    cc_text_put(t, "\n| --- |");
    for (int k = 0; k < d->n_dtypes; k++)
        if (dtype_on(m, g, k)) cc_text_put(t, " :---: |");
    cc_text_put(t, "\n");
    for (int o = 0; o < d->n_ops; o++) {
        if (!op_on(m, g, o)) continue;
        cc_text_put(t, "| ");
        cc_text_md(t, d->ops[o]);
        for (int k = 0; k < d->n_dtypes; k++) {
            if (!dtype_on(m, g, k)) continue;
            const cell *x = at(m, o, g, k);
            if (x->n == 0) cc_text_put(t, " | ·");
            else
                cc_text_printf(t, " | %s %d/%d", cc_report_verdict_symbol(x->worst), x->passed,
                               m->totals[o * d->n_dtypes + k]);
        }
        cc_text_put(t, " |\n");
    }
    cc_text_details_close(t);
}

void cc_report_matrix(const cc_rdata *d, cc_text *t)
{
    grid m;
    if (fill(&m, d)) {
        t->failed = 1;
    } else {
        compact(t, &m);
        for (int g = 0; g < d->n_targets; g++) per_target(t, &m, g);
    }
    free(m.cells);
    free(m.totals);
    free(m.support);
}
