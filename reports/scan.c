/* scan.c — the model scans' section of the report (`crosscheck scan`): per model, its op
 * types with node counts, whether the catalog has each, and per target the nodes it would
 * run (✅ all, ⛔ some or none declined) with the op-support rate over all nodes; then
 * why each target declines what it declines. */
#include <stdlib.h>
#include <string.h>

#include "report_data.h"

/* The targets of rows [a, b) of one model in stored order ("" the catalog first). */
static int scan_targets(const cc_rdata *d, int a, int b, const char **names, int max)
{
    int n = 0;
    for (int i = a; i < b; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++) seen = !strcmp(names[k], d->scans[i].target);
        if (!seen && n < max) names[n++] = d->scans[i].target;
    }
    return n;
}

static const cc_scan_result *row_of(const cc_rdata *d, int a, int b, const char *target, const char *op)
{
    for (int i = a; i < b; i++)
        if (!strcmp(d->scans[i].target, target) && !strcmp(d->scans[i].op, op)) return &d->scans[i];
    return NULL;
}

static void one_model(const cc_rdata *d, cc_text *t, int a, int b)
{
    enum { MAXT = 33 };
    const char *tg[MAXT];
    int nt = scan_targets(d, a, b, tg, MAXT);
    cc_text_put(t, "### Scan of ");
    cc_text_md_code(t, d->scans[a].model, 0);
    cc_text_put(t, "\n\n");
    /* the op-support rate per target */
    cc_text_put(t, "Op-support rate (nodes it would run / all nodes):");
    for (int g = 0; g < nt; g++) {
        long nodes = 0, ok = 0;
        for (int i = a; i < b; i++)
            if (!strcmp(d->scans[i].target, tg[g])) {
                nodes += d->scans[i].nodes;
                ok += d->scans[i].supported;
            }
        cc_text_put(t, g ? " · " : " ");
        if (tg[g][0]) cc_text_md_code(t, tg[g], 0);
        else cc_text_put(t, "the catalog");
        cc_text_printf(t, " %.1f%% (%ld of %ld)", nodes ? 100.0 * (double)ok / (double)nodes : 0.0, ok, nodes);
    }
    cc_text_put(t, "\n\n| op | nodes |");
    for (int g = 0; g < nt; g++) {
        cc_text_put(t, " ");
        if (tg[g][0]) cc_text_md_code(t, tg[g], 1);
        else cc_text_put(t, "catalog");
        cc_text_put(t, " |");
    }
    cc_text_put(t, "\n|---|---:|");
    for (int g = 0; g < nt; g++) cc_text_put(t, "---|");
    cc_text_put(t, "\n");
    for (int i = a; i < b; i++) {
        if (d->scans[i].target[0]) continue; /* one line per op: the catalog's rows */
        cc_text_put(t, "| ");
        cc_text_md(t, d->scans[i].op);
        cc_text_printf(t, " | %d |", d->scans[i].nodes);
        for (int g = 0; g < nt; g++) {
            const cc_scan_result *r = row_of(d, a, b, tg[g], d->scans[i].op);
            if (!r) cc_text_put(t, " · |");
            else cc_text_printf(t, " %s" CC_NBSP "%d/%d |", r->supported == r->nodes ? "✅" : "⛔", r->supported, r->nodes);
        }
        cc_text_put(t, "\n");
    }
    cc_text_put(t, "\n");
    int any = 0;
    for (int i = a; i < b; i++) {
        const cc_scan_result *r = &d->scans[i];
        if (!r->target[0] || r->supported == r->nodes || !r->reason[0]) continue;
        /* a reason every op of the model shares (the model did not import) once per target */
        int repeat = 0;
        for (int j = a; j < i && !repeat; j++)
            repeat = !strcmp(d->scans[j].target, r->target) && !strcmp(d->scans[j].reason, r->reason);
        if (repeat) continue;
        if (!any) cc_text_put(t, "What the targets decline:\n\n");
        any = 1;
        cc_text_put(t, "- ");
        cc_text_md_code(t, r->target, 0);
        cc_text_put(t, " ");
        cc_text_md(t, r->op);
        cc_text_printf(t, " (%d of %d): ", r->nodes - r->supported, r->nodes);
        cc_text_md(t, r->reason);
        cc_text_put(t, "\n");
    }
    if (any) cc_text_put(t, "\n");
}

void cc_report_scans(const cc_rdata *d, cc_text *t)
{
    if (d->n_scans == 0) return;
    cc_text_put(t, "## Model scans (op support before running)\n\n");
    cc_text_put(t, "Each model's op types with their node counts, whether the catalog has each, and per target "
                   "how many nodes it would run (its support check on the imported graph; nothing was run). "
                   "Nodes the importer folds into constants need no target.\n\n");
    for (int i = 0; i < d->n_scans;) {
        int j = i;
        while (j < d->n_scans && !strcmp(d->scans[j].model, d->scans[i].model)) j++;
        one_model(d, t, i, j);
        i = j;
    }
}
