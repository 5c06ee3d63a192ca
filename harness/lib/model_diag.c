/* model_diag.c — a model's diagnosis on one target (model_diag.h): per-node runs on the
 * executor, the slowest layers, the first node over its bound and the propagated error. */
#include "model_diag.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../models/metrics.h"
#include "../../ops/check.h"
#include "graph_exec.h"
#include "stats.h"

void cc_diag_put(char *dst, size_t n, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t len = strlen(buf);
    if (len >= n) len = n - 1;
    memcpy(dst, buf, len);
    dst[len] = '\0';
}

float *cc_model_float_copy(const cc_tensor *t)
{
    int64_t n = cc_tensor_numel(t);
    float *f = malloc(sizeof(float) * (size_t)(n ? n : 1));
    if (f)
        for (int64_t i = 0; i < n; i++) f[i] = (float)cc_load(t->data, t->dtype, (size_t)i);
    return f;
}

float *cc_model_floats_concat(const cc_tensor *const *t, int n)
{
    int64_t total = 0;
    for (int j = 0; j < n; j++) total += cc_tensor_numel(t[j]);
    float *f = malloc(sizeof(float) * (size_t)(total ? total : 1));
    for (int j = 0, at = 0; f && j < n; j++)
        for (int64_t i = 0; i < cc_tensor_numel(t[j]); i++) f[at++] = (float)cc_load(t[j]->data, t[j]->dtype, (size_t)i);
    return f;
}

int64_t cc_model_outputs_numel(const cc_graph *g)
{
    int64_t total = 0;
    for (int j = 0; j < g->n_outputs; j++) total += cc_tensor_numel(&g->values[g->outputs[j]]);
    return total;
}

/* Runs node k of g alone on t with inputs taken from vals (constants from g); writes
 * its outputs to out[j] (allocated here). CC_ERR_UNSUPPORTED for a node whose shapes
 * follow the data. */
static cc_status run_node(const cc_graph *g, int k, const cc_tensor *vals, const cc_target_iface *t, void *ctx,
                          cc_tensor *out, double *seconds, cc_err *err)
{
    const cc_node *nd = &g->nodes[k];
    /* a node whose shapes follow the data is not run alone: its inputs' values have their
       actual shapes, the graph's descriptions the bounds */
    if (cc_node_dynamic_shape(g, nd)) return cc_err_set(err, CC_ERR_UNSUPPORTED, "shapes follow the data");
    for (int i = 0; i < nd->n_in; i++)
        if (nd->in[i] >= 0 && !g->values[nd->in[i]].data &&
            !cc_shape_equal(&vals[nd->in[i]].shape, &g->values[nd->in[i]].shape))
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "input %d's shape follows the data", i);
    cc_graph one = *g;
    one.n_nodes = 1;
    one.nodes = (cc_node *)nd;
    one.n_inputs = 0;
    cc_tensor in[CC_MAX_IO];
    for (int i = 0; i < nd->n_in; i++) {
        int v = nd->in[i];
        if (v < 0 || g->values[v].data) continue;
        int dup = 0;
        for (int q = 0; q < one.n_inputs; q++) dup |= one.inputs[q] == v;
        if (dup) continue;
        in[one.n_inputs] = vals[v];
        one.inputs[one.n_inputs++] = v;
    }
    one.n_outputs = nd->n_out;
    for (int j = 0; j < nd->n_out; j++) one.outputs[j] = nd->out[j];
    cc_graph_exec *x = NULL;
    cc_graph_exec_info info;
    cc_status st = cc_graph_exec_create(&one, t, ctx, NULL, NULL, &x, &info, err);
    if (st) return st;
    memset(out, 0, sizeof(cc_tensor) * (size_t)nd->n_out);
    for (int j = 0; j < nd->n_out && !st; j++)
        st = cc_tensor_alloc(&out[j], g->values[nd->out[j]].dtype, &g->values[nd->out[j]].shape, err);
    if (!st) st = cc_graph_exec_run(x, in, out, err);
    if (!st && seconds) {
        double best[64];
        int n = 0;
        double start = cc_now();
        st = cc_graph_exec_bind(x, in, err);
        while (!st && n < 64 && (n < 3 || cc_now() - start < 0.02)) {
            double t0 = cc_now();
            st = cc_graph_exec_run_bound(x, err);
            best[n++] = cc_now() - t0;
        }
        cc_timing tm = { 0 };
        cc_stats_compute(best, n, 0, 0, &tm);
        *seconds = tm.median;
    }
    cc_graph_exec_destroy(x);
    if (st)
        for (int j = 0; j < nd->n_out; j++) cc_tensor_free(&out[j]);
    return st;
}

typedef struct layer_time {
    int k;
    double s;
} layer_time;

static int by_time(const void *a, const void *b)
{
    double x = ((const layer_time *)a)->s, y = ((const layer_time *)b)->s;
    return x < y ? 1 : x > y ? -1 : 0;
}

void cc_model_layers(const cc_model *m, const cc_model_eval *e0, const cc_target_iface *t, void *ctx,
                     cc_model_result *r)
{
    const cc_graph *g = &m->graph;
    layer_time *lt = calloc((size_t)g->n_nodes + 1, sizeof *lt);
    if (!lt) return;
    double total = 0;
    int n = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        cc_tensor out[CC_MAX_IO];
        cc_err e = { 0 };
        double s = 0;
        if (run_node(g, k, e0->vals, t, ctx, out, &s, &e)) continue; /* not on this target */
        for (int j = 0; j < g->nodes[k].n_out; j++) cc_tensor_free(&out[j]);
        lt[n].k = k;
        lt[n++].s = s;
        total += s;
    }
    qsort(lt, (size_t)n, sizeof *lt, by_time);
    size_t len = 0;
    for (int i = 0; i < n && i < 5 && total > 0; i++)
        len += (size_t)snprintf(r->layers + len, len < sizeof r->layers ? sizeof r->layers - len : 0, "%s%s (%s) %.1f%%",
                                i ? "; " : "", g->nodes[lt[i].k].name, g->nodes[lt[i].k].op->name, 100 * lt[i].s / total);
    free(lt);
}

void cc_model_divergence(const cc_model *m, const cc_model_eval *e0, const cc_target_iface *t, void *ctx,
                         cc_model_result *r)
{
    const cc_graph *g = &m->graph;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        const cc_tensor *gin[CC_MAX_IO] = { 0 };
        for (int i = 0; i < nd->n_in; i++)
            if (nd->in[i] >= 0) gin[i] = g->values[nd->in[i]].data ? &g->values[nd->in[i]] : &e0->vals[nd->in[i]];
        cc_tensor out[CC_MAX_IO];
        cc_err e = { 0 };
        if (run_node(g, k, e0->vals, t, ctx, out, NULL, &e)) continue; /* ran on cpu: not this target's */
        cc_golden gold[CC_MAX_IO];
        memset(gold, 0, sizeof gold);
        int ok = 1;
        for (int j = 0; j < nd->n_out; j++) ok &= cc_golden_alloc(&gold[j], &out[j], NULL) == CC_OK;
        cc_verdict verdict = CC_PASSED;
        cc_metrics met;
        char why[CC_REASON_MAX] = "";
        if (ok && nd->op->golden(nd, gin, nd->n_out, gold, &e) == CC_OK) {
            cc_case c;
            memset(&c, 0, sizeof c);
            c.op = nd->op;
            for (int i = 0; i < nd->n_in; i++)
                if (gin[i] && nd->op->inputs[i].role == CC_IN_DATA) {
                    c.present[i] = 1;
                    c.in_dtype[i] = gin[i]->dtype;
                    break;
                }
            verdict = cc_check_outputs(&c, 0, nd->n_out, gold, out, &met, why, sizeof why);
        }
        cc_golden_free(gold, nd->n_out);
        if (verdict == CC_FAILED) {
            /* propagated error: t's output of this node in the full model against golden */
            double cos = NAN;
            char id[CC_CASE_ID_MAX];
            cc_err e2 = { 0 };
            if (cc_model_node_case_id(m, k, id, sizeof id, &e2)) snprintf(id, sizeof id, "(no case id: %s)", e2.msg);
            float *a = cc_model_float_copy(&out[0]);
            float *b = cc_model_float_copy(&e0->vals[nd->out[0]]);
            if (a && b) cos = cc_cosine(b, a, cc_tensor_numel(&out[0]));
            free(a);
            free(b);
            char label[160];
            cc_diag_put(r->divergent, sizeof r->divergent, "%s: local error %.3gx its bound, cosine %.6f; rerun: crosscheck run --case '%s' --targets %s",
                     cc_graph_node_label(nd, label, sizeof label), met.bound_ratio, cos, id, t->name);
            for (int j = 0; j < nd->n_out; j++) cc_tensor_free(&out[j]);
            return;
        }
        for (int j = 0; j < nd->n_out; j++) cc_tensor_free(&out[j]);
    }
    snprintf(r->divergent, sizeof r->divergent, "no node exceeds its bound alone: the error accumulates over layers");
}

void cc_model_propagated(const cc_model *m, const cc_model_eval *e0, const cc_target_iface *t, void *ctx,
                         const cc_target_iface *fb, void *fb_ctx, double need_db, cc_model_result *r)
{
    const cc_graph *g = &m->graph;
    cc_tensor *tv = calloc((size_t)g->n_values, sizeof *tv);
    if (!tv) return;
    for (int i = 0; i < g->n_inputs; i++) tv[g->inputs[i]] = e0->vals[g->inputs[i]];
    int first = -1;
    double first_db = 0, last_db = NAN;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        cc_tensor out[CC_MAX_IO];
        cc_err e = { 0 };
        if (run_node(g, k, tv, t, ctx, out, NULL, &e) && (!fb || run_node(g, k, tv, fb, fb_ctx, out, NULL, &e))) break;
        for (int j = 0; j < nd->n_out; j++) tv[nd->out[j]] = out[j];
        float *a = cc_model_float_copy(&out[0]), *b = cc_model_float_copy(&e0->vals[nd->out[0]]);
        if (a && b) {
            last_db = cc_sqnr_db(b, a, cc_tensor_numel(&out[0]));
            if (first < 0 && last_db < need_db) {
                first = k;
                first_db = last_db;
            }
        }
        free(a);
        free(b);
    }
    size_t len = strlen(r->divergent);
    if (first >= 0)
    {
        char label[160];
        cc_diag_put(r->divergent + len, sizeof r->divergent - len, "; propagated: fed its own outputs, %s first falls below %.1f dB at %s (%.1f dB)",
            t->name, need_db, cc_graph_node_label(&g->nodes[first], label, sizeof label), first_db);
    }
    else
        cc_diag_put(r->divergent + len, sizeof r->divergent - len, "; propagated: node by node the chain stays within %.1f dB (%.1f dB at the end), so the error comes from running the whole graph at once",
            need_db, last_db);
    for (int i = 0; i < g->n_values; i++) {
        int is_input = 0;
        for (int q = 0; q < g->n_inputs; q++) is_input |= g->inputs[q] == i;
        if (!is_input) cc_tensor_free(&tv[i]);
    }
    free(tv);
}
