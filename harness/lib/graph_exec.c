/* graph_exec.c — segmentation of a graph by target support and execution of the
 * segments, each as a compact sub-graph prepared once on its target, with guard bytes
 * after every output buffer and device timers where the target has them. A control-flow
 * node (If, Loop, Scan) is a segment of its own that the host runs: each of its
 * sub-graphs is a graph executor of its own on the same target (and fallback), run once
 * per branch taken or iteration, the loop-carried values kept in host memory. */
#include "graph_exec.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../models/control_eval.h"
#include "../../ops/control.h"
#include "stats.h"

typedef struct segment {
    const cc_target_iface *t;
    void *ctx;
    int first;             /* index in the whole graph of the segment's first node */
    cc_graph g;            /* compact: its own values array */
    int *global;           /* local value -> global value */
    void *plan;
    void **in_buf, **out_buf;
    /* a control-flow node that the host runs (t is NULL): its sub-graphs' executors
     * (If: then, else; Loop, Scan: body) */
    const cc_node *control;
    cc_graph_exec *sub[2];
    /* lazy: an input's shape follows the data (a data-dependent output upstream), so the
     * segment is prepared at run time for the shapes its inputs have, again when they
     * change; in_shape holds the shapes of its last preparation */
    int lazy, prepared;
    cc_shape in_shape[CC_MAX_IO];
} segment;

struct cc_graph_exec {
    const cc_graph *g;
    const cc_target_iface *fb;  /* the fallback target, if any (messages) */
    int n_seg;
    segment *seg;
    cc_tensor *host;       /* one host tensor per global value that crosses a boundary,
                              with room for the guard bytes after its data */
    size_t *host_cap;      /* bytes of data each host tensor has room for */
    unsigned char *dyn;    /* per value: its shape follows the data (cc_graph_dynamic_values) */
    int dyn_inputs;        /* the graph inputs may come smaller than declared (a sub-graph
                              reading values of data-dependent shape): treated as such */
    int overrun;           /* the last run found a changed guard byte */
};

static cc_status exec_create(const cc_graph *g, const cc_target_iface *t, void *ctx, const cc_target_iface *fb,
                             void *fb_ctx, int dyn_inputs, cc_graph_exec **out, cc_graph_exec_info *info, cc_err *err);

/* A host tensor of desc's dtype and shape with CC_GUARD_BYTES of room after the data
 * (freed by cc_tensor_free). */
static cc_status host_alloc(cc_tensor *t, const cc_tensor *desc, cc_err *err)
{
    size_t bytes = cc_tensor_bytes(desc), padded = (bytes + CC_GUARD_BYTES + 63) / 64 * 64;
    void *p = aligned_alloc(64, padded);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "out of memory allocating %zu bytes", padded);
    memset(p, 0, padded);
    t->dtype = desc->dtype;
    t->shape = desc->shape;
    t->data = p;
    return CC_OK;
}

/* Host tensor of value v with room for desc's bytes (and the guard bytes), its shape desc's:
 * allocated at first use, again where an actual shape needs more than the room it has. */
static cc_status host_ensure(cc_graph_exec *x, int v, const cc_tensor *desc, cc_err *err)
{
    size_t bytes = cc_tensor_bytes(desc);
    if (!x->host[v].data || bytes > x->host_cap[v]) {
        cc_tensor_free(&x->host[v]);
        cc_status st = host_alloc(&x->host[v], desc, err);
        if (st) return st;
        x->host_cap[v] = bytes;
    }
    x->host[v].dtype = desc->dtype;
    x->host[v].shape = desc->shape;
    return CC_OK;
}

/* Fills a new output buffer of the target: canary over the data (all-ones bytes for
 * floats, a NaN; the guard byte for other types), then the guard bytes. */
static cc_status arm_output(const segment *s, void *buf, const cc_tensor *desc, cc_err *err)
{
    size_t bytes = cc_tensor_bytes(desc);
    unsigned char *p = malloc(bytes + CC_GUARD_BYTES);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    memset(p, cc_dtype_is_float(desc->dtype) ? 0xFF : CC_GUARD_BYTE, bytes);
    memset(p + bytes, CC_GUARD_BYTE, CC_GUARD_BYTES);
    cc_status st = s->t->upload(s->ctx, buf, p, bytes + CC_GUARD_BYTES, err);
    free(p);
    return st;
}

/* Releases the segment's plan and target buffers (a lazy one is prepared again). */
static void segment_unprepare(segment *s)
{
    if (s->plan) s->t->release(s->ctx, s->plan);
    s->plan = NULL;
    for (int i = 0; s->in_buf && i < s->g.n_inputs; i++)
        if (s->in_buf[i]) s->t->buffer_free(s->ctx, s->in_buf[i]);
    for (int j = 0; s->out_buf && j < s->g.n_outputs; j++)
        if (s->out_buf[j]) s->t->buffer_free(s->ctx, s->out_buf[j]);
    free(s->in_buf);
    free(s->out_buf);
    s->in_buf = s->out_buf = NULL;
    s->prepared = 0;
}

static void segment_free(segment *s)
{
    for (int i = 0; i < 2; i++) cc_graph_exec_destroy(s->sub[i]);
    if (s->control) return;
    segment_unprepare(s);
    free(s->g.values);
    free(s->g.nodes);
    free(s->global);
}

void cc_graph_exec_destroy(cc_graph_exec *x)
{
    if (!x) return;
    for (int s = 0; s < x->n_seg; s++) segment_free(&x->seg[s]);
    free(x->seg);
    if (x->host)
        for (int i = 0; i < x->g->n_values; i++) cc_tensor_free(&x->host[i]);
    free(x->host);
    free(x->host_cap);
    free(x->dyn);
    free(x);
}

void cc_graph_exec_describe(const cc_graph_exec *x, char *buf, size_t n)
{
    if (!n) return;
    buf[0] = '\0';
    size_t len = 0;
    for (int i = 0; x && i < x->n_seg && len + 1 < n; i++) {
        const segment *s = &x->seg[i];
        char text[2048] = "";
        if (s->control) {
            char sub[2][900] = { "", "" };
            for (int b = 0; b < 2; b++) cc_graph_exec_describe(s->sub[b], sub[b], sizeof sub[b]);
            snprintf(text, sizeof text, "host %s (%s%s%s)", s->control->op->name, sub[0], sub[1][0] ? "; " : "", sub[1]);
            int k = snprintf(buf + len, n - len, "%s%s", len ? " | " : "", text);
            if (k < 0) break;
            len += (size_t)k < n - len ? (size_t)k : n - len - 1;
            continue;
        }
        if (!s->plan || !CC_TARGET_HAS(s->t, describe_plan)) continue;
        s->t->describe_plan(s->ctx, s->plan, text, sizeof text);
        if (!text[0]) continue;
        int k;
        if (x->n_seg > 1)
            k = snprintf(buf + len, n - len, "%s%s nodes %d-%d: %s", len ? " | " : "", s->t->name, s->first,
                         s->first + s->g.n_nodes - 1, text);
        else
            k = snprintf(buf + len, n - len, "%s%s", len ? " | " : "", text);
        if (k < 0) break;
        len += (size_t)k < n - len ? (size_t)k : n - len - 1;
    }
}

/* Builds the compact sub-graph of nodes [a, b) of g. */
static cc_status build_segment(const cc_graph *g, int a, int b, segment *s, cc_err *err)
{
    int *local = malloc(sizeof(int) * (size_t)g->n_values);
    s->global = malloc(sizeof(int) * (size_t)g->n_values);
    s->g.values = calloc((size_t)g->n_values, sizeof(cc_tensor));
    s->g.nodes = calloc((size_t)(b - a), sizeof(cc_node));
    if (!local || !s->global || !s->g.values || !s->g.nodes) {
        free(local);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < g->n_values; i++) local[i] = -1;
    int nv = 0;
#define LOCAL(v) (local[v] >= 0 ? local[v] : (s->global[nv] = (v), s->g.values[nv] = g->values[v], local[v] = nv++))
    /* produced inside the segment */
    unsigned char *inside = calloc((size_t)g->n_values, 1);
    if (!inside) {
        free(local);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    for (int k = a; k < b; k++)
        for (int j = 0; j < g->nodes[k].n_out; j++) inside[g->nodes[k].out[j]] = 1;
    s->g.n_nodes = b - a;
    for (int k = a; k < b; k++) {
        cc_node nd = g->nodes[k];
        for (int i = 0; i < nd.n_in; i++) {
            int v = nd.in[i];
            if (v < 0) continue;
            int fresh = local[v] < 0;
            nd.in[i] = LOCAL(v);
            if (fresh && !g->values[v].data && !inside[v]) {
                if (s->g.n_inputs == CC_MAX_IO) goto too_many;
                s->g.inputs[s->g.n_inputs++] = nd.in[i];
            }
        }
        for (int j = 0; j < nd.n_out; j++) nd.out[j] = LOCAL(nd.out[j]);
        s->g.nodes[k - a] = nd;
    }
    /* outputs: values made here and read after b or graph outputs */
    for (int k = a; k < b; k++)
        for (int j = 0; j < g->nodes[k].n_out; j++) {
            int v = g->nodes[k].out[j], used = 0;
            for (int o = 0; o < g->n_outputs; o++) used |= g->outputs[o] == v;
            for (int m = b; m < g->n_nodes && !used; m++)
                for (int i = 0; i < g->nodes[m].n_in; i++) used |= g->nodes[m].in[i] == v;
            if (!used) continue;
            if (s->g.n_outputs == CC_MAX_IO) goto too_many;
            s->g.outputs[s->g.n_outputs++] = local[v];
        }
#undef LOCAL
    s->g.n_values = nv;
    free(local);
    free(inside);
    return CC_OK;
too_many:
    free(local);
    free(inside);
    return cc_err_set(err, CC_ERR_UNSUPPORTED, "a graph segment needs more than %d inputs or outputs", CC_MAX_IO);
}

/* The end e <= b of the longest run of nodes [a, e) one segment can hold: at most CC_MAX_IO
 * inputs (values read from before a, constants aside) and outputs (values made in it and
 * read at or after e, or graph outputs: last_use[v] >= e); at least a + 1. mark: n_values
 * zero bytes, left zero. */
static int segment_fit_end(const cc_graph *g, const int *last_use, unsigned char *mark, int a, int b)
{
    int best = a + 1, n_in = 0, k;
    for (k = a; k < b; k++) {
        const cc_node *nd = &g->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            int v = nd->in[i];
            if (v < 0 || g->values[v].data || mark[v]) continue;
            mark[v] = 1;
            n_in++;
        }
        for (int j = 0; j < nd->n_out; j++) mark[nd->out[j]] = 1;
        if (n_in > CC_MAX_IO) break;
        int n_out = 0;
        for (int m = a; m <= k; m++)
            for (int j = 0; j < g->nodes[m].n_out; j++) n_out += last_use[g->nodes[m].out[j]] > k;
        if (n_out <= CC_MAX_IO) best = k + 1;
    }
    for (int m = a; m <= k && m < b; m++) {
        for (int i = 0; i < g->nodes[m].n_in; i++)
            if (g->nodes[m].in[i] >= 0) mark[g->nodes[m].in[i]] = 0;
        for (int j = 0; j < g->nodes[m].n_out; j++) mark[g->nodes[m].out[j]] = 0;
    }
    return best;
}

/* last_use[v]: the last node reading value v (-1: none), INT_MAX for a graph output. */
static int *last_uses(const cc_graph *g)
{
    int *last = malloc(sizeof(int) * ((size_t)g->n_values + 1));
    if (!last) return NULL;
    for (int v = 0; v < g->n_values; v++) last[v] = -1;
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k].n_in; i++)
            if (g->nodes[k].in[i] >= 0) last[g->nodes[k].in[i]] = k;
    for (int o = 0; o < g->n_outputs; o++) last[g->outputs[o]] = INT_MAX;
    return last;
}

/* The segment of control-flow node k: an executor per sub-graph on t (and fb), host
 * buffers for its outputs; the sub-graphs' nodes and fallbacks count in info. */
static cc_status control_segment(cc_graph_exec *x, int k, const cc_target_iface *t, void *ctx,
                                 const cc_target_iface *fb, void *fb_ctx, segment *s, cc_graph_exec_info *info,
                                 cc_err *err)
{
    const cc_graph *g = x->g;
    const cc_node *nd = &g->nodes[k];
    s->control = nd;
    s->first = k;
    s->g.n_nodes = 1;
    const char *attrs[2] = { nd->op->id == CC_OP_ID_If ? "then_branch" : "body",
                             nd->op->id == CC_OP_ID_If ? "else_branch" : NULL };
    char label[160];
    cc_graph_node_label(nd, label, sizeof label);
    for (int b = 0; b < 2 && attrs[b]; b++) {
        int idx = cc_control_subgraph(nd, attrs[b]);
        if (idx < 0 || idx >= g->n_subgraphs)
            return cc_err_set(err, CC_ERR_INTERNAL, "%s: %s names no sub-graph", label, attrs[b]);
        cc_graph_exec_info si;
        cc_err e = { 0 };
        int dyn_in = 0; /* it reads values of data-dependent shape */
        for (int i = 0; i < nd->n_in; i++) dyn_in |= nd->in[i] >= 0 && x->dyn[nd->in[i]];
        cc_status st = exec_create(&g->subgraphs[idx], t, ctx, fb, fb_ctx, dyn_in, &s->sub[b], &si, &e);
        if (st) return cc_err_set(err, st, "%s: %s: %s", label, attrs[b], e.msg);
        info->n_nodes += si.n_nodes;
        info->n_fallback += si.n_fallback;
        if (!info->first_unsupported[0] && si.first_unsupported[0])
            snprintf(info->first_unsupported, sizeof info->first_unsupported, "%s", si.first_unsupported);
        size_t len = strlen(info->fallback_ops);
        if (si.fallback_ops[0] && !strstr(info->fallback_ops, si.fallback_ops) &&
            len + strlen(si.fallback_ops) + 3 < sizeof info->fallback_ops)
            snprintf(info->fallback_ops + len, sizeof info->fallback_ops - len, "%s%s", len ? ", " : "", si.fallback_ops);
    }
    for (int j = 0; j < nd->n_out; j++) {
        int v = nd->out[j];
        cc_status st = host_ensure(x, v, &g->values[v], err);
        if (st) return st;
    }
    return CC_OK;
}

/* Prepares segment s on its target for the shapes of s->g, with its buffers. */
static cc_status segment_prepare(cc_graph_exec *x, segment *s, cc_err *err)
{
    cc_err e = { 0 };
    cc_status st = s->t->prepare(s->ctx, &s->g, &s->plan, &e);
    if (st) {
        s->plan = NULL;
        int b = s->first + s->g.n_nodes - 1;
        if (x->fb) return cc_err_set(err, st, "%s: prepare of nodes %d..%d: %s", s->t->name, s->first, b, e.msg);
        *err = e;
        return st;
    }
    s->in_buf = calloc((size_t)s->g.n_inputs + 1, sizeof(void *));
    s->out_buf = calloc((size_t)s->g.n_outputs + 1, sizeof(void *));
    if (!s->in_buf || !s->out_buf) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < s->g.n_inputs; i++) {
        st = s->t->buffer_alloc(s->ctx, cc_tensor_bytes(&s->g.values[s->g.inputs[i]]) + 1, &s->in_buf[i], err);
        if (st) return st;
        s->in_shape[i] = s->g.values[s->g.inputs[i]].shape;
    }
    for (int j = 0; j < s->g.n_outputs; j++) {
        const cc_tensor *d = &s->g.values[s->g.outputs[j]];
        st = s->t->buffer_alloc(s->ctx, cc_tensor_bytes(d) + CC_GUARD_BYTES, &s->out_buf[j], err);
        if (!st) st = arm_output(s, s->out_buf[j], d, err);
        if (!st) st = host_ensure(x, s->global[s->g.outputs[j]], d, err);
        if (st) return st;
    }
    s->prepared = 1;
    return CC_OK;
}

/* A lazy segment for the shapes its inputs have now: where they differ from its last
 * preparation (or it has none), every value of the segment is inferred again from them
 * and the segment prepared anew. */
static cc_status segment_reshape(cc_graph_exec *x, segment *s, cc_err *err)
{
    int same = s->prepared;
    for (int i = 0; i < s->g.n_inputs && same; i++)
        same = cc_shape_equal(&x->host[s->global[s->g.inputs[i]]].shape, &s->in_shape[i]);
    if (same) return CC_OK;
    segment_unprepare(s);
    for (int i = 0; i < s->g.n_inputs; i++) s->g.values[s->g.inputs[i]].shape = x->host[s->global[s->g.inputs[i]]].shape;
    for (int k = 0; k < s->g.n_nodes; k++) {
        const cc_node *nd = &s->g.nodes[k];
        const cc_tensor *in[CC_MAX_IO] = { 0 };
        cc_tensor outs[CC_MAX_IO];
        memset(outs, 0, sizeof outs);
        for (int i = 0; i < nd->n_in; i++)
            if (nd->in[i] >= 0) in[i] = &s->g.values[nd->in[i]];
        cc_err e = { 0 };
        cc_status st = CC_OK;
        if (cc_op_runtime_shape_input(nd->op, nd->n_in, in) >= 0) {
            /* its shape follows a shape input's values, which change while shapes stay: the
               graph's bound, within which its kernel writes the actual shape */
            for (int j = 0; j < nd->n_out; j++) outs[j] = x->g->values[s->global[nd->out[j]]];
        } else {
            st = nd->op->infer(nd, in, nd->n_out, outs, &e);
        }
        if (st) {
            char label[160];
            return cc_err_set(err, st, "%s, for the shapes its inputs have at run time: %s",
                              cc_graph_node_label(nd, label, sizeof label), e.msg);
        }
        for (int j = 0; j < nd->n_out; j++) {
            s->g.values[nd->out[j]].dtype = outs[j].dtype;
            s->g.values[nd->out[j]].shape = outs[j].shape;
        }
    }
    return segment_prepare(x, s, err);
}

cc_status cc_graph_exec_create(const cc_graph *g, const cc_target_iface *t, void *ctx, const cc_target_iface *fb,
                               void *fb_ctx, cc_graph_exec **out, cc_graph_exec_info *info, cc_err *err)
{
    return exec_create(g, t, ctx, fb, fb_ctx, 0, out, info, err);
}

static cc_status exec_create(const cc_graph *g, const cc_target_iface *t, void *ctx, const cc_target_iface *fb,
                             void *fb_ctx, int dyn_inputs, cc_graph_exec **out, cc_graph_exec_info *info, cc_err *err)
{
    cc_status st = CC_OK;
    memset(info, 0, sizeof *info);
    info->n_nodes = g->n_nodes;
    cc_graph_exec *x = calloc(1, sizeof *x);
    int *on_target = calloc((size_t)g->n_nodes + 1, sizeof(int));
    if (!x || !on_target) {
        free(x);
        free(on_target);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    x->g = g;
    x->fb = fb;
    x->dyn_inputs = dyn_inputs;
    for (int k = 0; k < g->n_nodes; k++) {
        char why[256] = "";
        if (cc_op_has_trait(g->nodes[k].op, CC_TRAIT_SUBGRAPH)) {
            on_target[k] = 2; /* the host runs it */
            continue;
        }
        on_target[k] = cc_target_supports(t, ctx, g, &g->nodes[k], why, sizeof why) == CC_SUPPORT_YES;
        if (!on_target[k]) {
            if (!fb) {
                char label[160];
                st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s",
                                cc_graph_node_label(&g->nodes[k], label, sizeof label), why);
                goto fail;
            }
            if (!info->first_unsupported[0])
                snprintf(info->first_unsupported, sizeof info->first_unsupported, "%s: %.200s", g->nodes[k].op->name, why);
            info->n_fallback++;
            size_t len = strlen(info->fallback_ops);
            if (!strstr(info->fallback_ops, g->nodes[k].op->name) && len + 40 < sizeof info->fallback_ops)
                snprintf(info->fallback_ops + len, sizeof info->fallback_ops - len, "%s%s", len ? ", " : "",
                         g->nodes[k].op->name);
        }
    }
    x->seg = calloc((size_t)g->n_nodes + 1, sizeof(segment));
    x->host = calloc((size_t)g->n_values + 1, sizeof(cc_tensor));
    x->host_cap = calloc((size_t)g->n_values + 1, sizeof(size_t));
    x->dyn = calloc((size_t)g->n_values + 1, 1);
    if (!x->seg || !x->host || !x->host_cap || !x->dyn) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    cc_graph_dynamic_values(g, x->dyn);
    if (dyn_inputs) { /* the inputs follow the data, and so does what reads them */
        for (int i = 0; i < g->n_inputs; i++) x->dyn[g->inputs[i]] = 1;
        for (int k = 0; k < g->n_nodes; k++) {
            const cc_node *nd = &g->nodes[k];
            int d = 0;
            for (int i = 0; i < nd->n_in && !d; i++) d = nd->in[i] >= 0 && x->dyn[nd->in[i]];
            for (int j = 0; j < nd->n_out && d; j++) x->dyn[nd->out[j]] = 1;
        }
    }
    for (int a = 0; a < g->n_nodes;) {
        /* a segment ends with a node of data-dependent output shape: what reads its outputs
         * is prepared once their actual shapes are known */
        int b = a + 1;
        while (b < g->n_nodes && on_target[b] == on_target[a] && on_target[a] != 2 &&
               !cc_node_dynamic_shape(g, &g->nodes[b - 1]))
            b++;
        segment *s = &x->seg[x->n_seg++];
        if (on_target[a] == 2) {
            if ((st = control_segment(x, a, t, ctx, fb, fb_ctx, s, info, err))) goto fail;
            a = b;
            continue;
        }
        s->t = on_target[a] ? t : fb;
        s->ctx = on_target[a] ? ctx : fb_ctx;
        s->first = a;
        st = build_segment(g, a, b, s, err);
        if (st == CC_ERR_UNSUPPORTED && b - a > 1) {
            /* more inputs or outputs than one segment holds: the longest run that fits, the
               rest in the next segments */
            segment_free(s);
            memset(s, 0, sizeof *s);
            int *last = last_uses(g);
            unsigned char *mark = calloc((size_t)g->n_values + 1, 1);
            if (!last || !mark) {
                free(last);
                free(mark);
                st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                goto fail;
            }
            b = segment_fit_end(g, last, mark, a, b);
            free(last);
            free(mark);
            s->t = on_target[a] ? t : fb;
            s->ctx = on_target[a] ? ctx : fb_ctx;
            s->first = a;
            st = build_segment(g, a, b, s, err);
        }
        if (st) goto fail;
        for (int i = 0; i < s->g.n_inputs; i++) s->lazy |= x->dyn[s->global[s->g.inputs[i]]];
        if (s->lazy) { /* prepared at run time; host room for the outputs' bounds meanwhile */
            for (int j = 0; j < s->g.n_outputs && !st; j++)
                st = host_ensure(x, s->global[s->g.outputs[j]], &g->values[s->global[s->g.outputs[j]]], err);
            if (st) goto fail;
            a = b;
            continue;
        }
        if ((st = segment_prepare(x, s, err))) goto fail;
        a = b;
    }
    info->n_segments = x->n_seg;
    free(on_target);
    *out = x;
    return CC_OK;
fail:
    free(on_target);
    cc_graph_exec_destroy(x);
    return st;
}

static const cc_tensor *host_value(const cc_graph_exec *x, int v);

static cc_status run_segment(cc_graph_exec *x, segment *s, int upload, cc_err *err)
{
    cc_status st = CC_OK;
    if (upload)
        for (int i = 0; i < s->g.n_inputs && !st; i++) {
            int v = s->global[s->g.inputs[i]];
            st = s->t->upload(s->ctx, s->in_buf[i], host_value(x, v)->data, cc_tensor_bytes(&s->g.values[s->g.inputs[i]]),
                              err);
        }
    if (!st) st = s->t->run(s->ctx, s->plan, s->in_buf, s->out_buf, err);
    if (!st) st = s->t->sync(s->ctx, err);
    return st;
}

/* Downloads the segment's outputs with their guard bytes and checks those. */
static cc_status download_segment(cc_graph_exec *x, segment *s, cc_err *err)
{
    for (int j = 0; j < s->g.n_outputs; j++) {
        int v = s->global[s->g.outputs[j]];
        const cc_tensor *d = &s->g.values[s->g.outputs[j]]; /* a lazy segment's: this run's shapes */
        size_t bytes = cc_tensor_bytes(d);
        cc_status st = s->t->download(s->ctx, s->out_buf[j], x->host[v].data, bytes + CC_GUARD_BYTES, err);
        if (st) return st;
        const unsigned char *guard = (const unsigned char *)x->host[v].data + bytes;
        for (size_t b = 0; b < CC_GUARD_BYTES; b++)
            if (guard[b] != CC_GUARD_BYTE) {
                x->overrun = 1;
                return cc_err_set(err, CC_ERR_DEVICE, "%s wrote past the end of output %d (guard byte %zu changed)",
                                  s->t->name, j, b);
            }
        /* an output of data-dependent shape: the actual shape the target reports, within
         * the bound its buffer was sized for */
        x->host[v].shape = d->shape;
        if (CC_TARGET_HAS(s->t, output_shape)) {
            cc_shape sh;
            if ((st = s->t->output_shape(s->ctx, s->plan, j, &sh, err))) return st;
            if (sh.rank != x->host[v].shape.rank || cc_shape_numel(&sh) > cc_shape_numel(&x->host[v].shape))
                return cc_err_set(err, CC_ERR_DEVICE, "%s reports output %d larger than its bound", s->t->name, j);
            x->host[v].shape = sh;
        }
    }
    return CC_OK;
}

/* Value v as the host holds it: a constant, or the last value computed or bound. */
static const cc_tensor *host_value(const cc_graph_exec *x, int v)
{
    return x->g->values[v].data ? &x->g->values[v] : &x->host[v];
}

/* Copies the block src (n_bytes per block, `outer` blocks) to or from position p of an
 * axis of length len in dst: block o of src is at (o * len + p) of dst, in units of
 * n_bytes. to_whole = 0 reads position p of whole into part instead. */
static void move_slice(char *whole, char *part, size_t n_bytes, int64_t outer, int64_t len, int64_t p, int to_whole)
{
    for (int64_t o = 0; o < outer; o++) {
        char *w = whole + (size_t)(o * len + p) * n_bytes, *q = part + (size_t)o * n_bytes;
        memcpy(to_whole ? w : q, to_whole ? q : w, n_bytes);
    }
}

/* Elements of shape sh before axis a, and bytes of one slice at a (those after it). */
static void split_bytes(const cc_shape *sh, int a, cc_dtype dt, int64_t *outer, size_t *inner)
{
    *outer = 1;
    *inner = cc_dtype_size(dt);
    for (int d = 0; d < sh->rank; d++) {
        if (d < a) *outer *= sh->dims[d];
        if (d > a) *inner *= (size_t)sh->dims[d];
    }
}

/* Host tensors of a sub-graph's outputs (its output shapes), freed with free_outputs. */
static cc_status alloc_outputs(const cc_graph *sg, cc_tensor *outs, cc_err *err)
{
    memset(outs, 0, sizeof(cc_tensor) * CC_MAX_IO);
    for (int j = 0; j < sg->n_outputs; j++) {
        const cc_tensor *d = &sg->values[sg->outputs[j]];
        cc_status st = cc_tensor_alloc(&outs[j], d->dtype, &d->shape, err);
        if (st) return st;
    }
    return CC_OK;
}

static void free_outputs(cc_tensor *outs)
{
    for (int j = 0; j < CC_MAX_IO; j++) cc_tensor_free(&outs[j]);
}

static int64_t attr_int(const cc_node *nd, const char *name)
{
    return nd->attrs[cc_attr_index(nd->op, name)].i;
}

/* Runs Loop or Scan node nd: the body once per iteration. */
static cc_status run_iterations(cc_graph_exec *x, segment *s, const cc_tensor *const *in, cc_err *err)
{
    const cc_node *nd = s->control;
    const cc_graph *body = s->sub[0]->g;
    int loop = nd->op->id == CC_OP_ID_Loop, n = (int)attr_int(nd, "carried"), k = nd->n_out - n;
    int m = loop ? 0 : (int)attr_int(nd, "num_scan_inputs");
    int first_carried = loop ? 2 : 0, first_out = loop ? 1 : 0; /* Loop's body takes and gives cond first */
    int64_t trips = loop ? (in[0] ? *(const int64_t *)in[0]->data : INT64_MAX) : 0;
    int cond = loop && nd->n_in > 1 && in[1] ? cc_load(in[1]->data, CC_BOOL, 0) != 0 : 1;
    int iax[CC_MAX_IO] = { 0 }, idir[CC_MAX_IO] = { 0 }, oax[CC_MAX_IO] = { 0 }, odir[CC_MAX_IO] = { 0 };
    const cc_attr_value *lists[4] = { NULL, NULL, NULL, NULL };
    if (!loop) {
        const char *names[4] = { "scan_input_axes", "scan_input_directions", "scan_output_axes", "scan_output_directions" };
        int *vals[4] = { iax, idir, oax, odir };
        for (int l = 0; l < 4; l++) {
            lists[l] = &nd->attrs[cc_attr_index(nd->op, names[l])];
            for (int i = 0; lists[l]->set && i < lists[l]->n && i < CC_MAX_IO; i++) vals[l][i] = (int)lists[l]->ints[i];
        }
        for (int j = 0; j < m; j++)
            if (iax[j] < 0) iax[j] += in[n + j]->shape.rank;
        for (int j = 0; j < k; j++)
            if (oax[j] < 0) oax[j] += x->g->values[nd->out[n + j]].shape.rank;
        trips = in[n]->shape.dims[iax[0]];
    }
    int64_t bound = k > 0 ? x->g->values[nd->out[n]].shape.dims[loop ? 0 : oax[0]] : INT64_MAX;
    cc_tensor ins[CC_MAX_IO], outs[CC_MAX_IO], carried[CC_MAX_IO], it = { 0 }, cd = { 0 };
    memset(carried, 0, sizeof carried);
    cc_status st = alloc_outputs(body, outs, err);
    for (int i = 0; i < n && !st; i++) {
        st = cc_tensor_alloc(&carried[i], in[first_carried + i]->dtype, &in[first_carried + i]->shape, err);
        if (!st) memcpy(carried[i].data, in[first_carried + i]->data, cc_tensor_bytes(in[first_carried + i]));
    }
    for (int j = 0; j < m && !st; j++) { /* Scan's slices */
        const cc_tensor *d = &body->values[body->inputs[n + j]];
        st = cc_tensor_alloc(&carried[n + j], d->dtype, &d->shape, err);
    }
    if (!st && loop) st = cc_tensor_alloc(&it, CC_I64, &body->values[body->inputs[0]].shape, err);
    if (!st && loop) st = cc_tensor_alloc(&cd, CC_BOOL, &body->values[body->inputs[1]].shape, err);
    int64_t t = 0;
    for (; !st && t < trips && cond; t++) {
        if (loop && t >= bound) {
            st = cc_err_set(err, CC_ERR_ARG, "Loop: iteration %lld of a loop whose stacked outputs were sized for %lld",
                            (long long)t + 1, (long long)bound);
            break;
        }
        if (t >= CC_LOOP_MAX_ITERATIONS) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: more than %d iterations", nd->op->name, CC_LOOP_MAX_ITERATIONS);
            break;
        }
        int q = 0;
        if (loop) {
            *(int64_t *)it.data = t;
            cc_store(cd.data, CC_BOOL, 0, 1);
            ins[q++] = it;
            ins[q++] = cd;
        }
        for (int i = 0; i < n; i++) ins[q++] = carried[i];
        for (int j = 0; j < m; j++) {
            const cc_tensor *src = in[n + j];
            int64_t outer;
            size_t inner;
            split_bytes(&src->shape, iax[j], src->dtype, &outer, &inner);
            move_slice(src->data, carried[n + j].data, inner, outer, trips, idir[j] ? trips - 1 - t : t, 0);
            ins[q++] = carried[n + j];
        }
        for (int i = first_carried + n + m; i < nd->n_in; i++) ins[q++] = *in[i];
        if ((st = cc_graph_exec_run(s->sub[0], ins, outs, err))) break;
        if (cc_graph_exec_overrun(s->sub[0])) x->overrun = 1;
        if (loop) cond = cc_load(outs[0].data, CC_BOOL, 0) != 0;
        for (int i = 0; i < n; i++) memcpy(carried[i].data, outs[first_out + i].data, cc_tensor_bytes(&carried[i]));
        for (int j = 0; j < k; j++) {
            const cc_tensor *o = &outs[first_out + n + j];
            cc_tensor *dst = &x->host[nd->out[n + j]];
            int64_t outer = 1;
            size_t inner = cc_tensor_bytes(o);
            if (!loop) split_bytes(&dst->shape, oax[j], dst->dtype, &outer, &inner);
            move_slice(dst->data, o->data, inner, outer, bound, loop || !odir[j] ? t : trips - 1 - t, 1);
        }
    }
    for (int i = 0; i < n && !st; i++) {
        cc_tensor *dst = &x->host[nd->out[i]];
        dst->shape = carried[i].shape;
        memcpy(dst->data, carried[i].data, cc_tensor_bytes(&carried[i]));
    }
    for (int j = 0; j < k && !st && loop; j++) {
        cc_tensor *dst = &x->host[nd->out[n + j]];
        dst->shape = x->g->values[nd->out[n + j]].shape;
        dst->shape.dims[0] = t; /* the stacked outputs' actual length */
    }
    for (int i = 0; i < CC_MAX_IO; i++) cc_tensor_free(&carried[i]);
    free_outputs(outs);
    cc_tensor_free(&it);
    cc_tensor_free(&cd);
    return st;
}

/* Runs the control-flow node of segment s on the host values of its inputs. */
static cc_status run_control(cc_graph_exec *x, segment *s, cc_err *err)
{
    const cc_node *nd = s->control;
    const cc_tensor *in[CC_MAX_IO] = { 0 };
    for (int i = 0; i < nd->n_in; i++)
        if (nd->in[i] >= 0) in[i] = host_value(x, nd->in[i]);
    cc_status st;
    if (nd->op->id != CC_OP_ID_If) {
        st = run_iterations(x, s, in, err);
    } else {
        cc_graph_exec *br = s->sub[cc_load(in[0]->data, CC_BOOL, 0) != 0 ? 0 : 1];
        cc_tensor ins[CC_MAX_IO], outs[CC_MAX_IO];
        for (int i = 1; i < nd->n_in; i++) ins[i - 1] = *in[i];
        for (int j = 0; j < nd->n_out; j++) {
            outs[j] = x->host[nd->out[j]];
            outs[j].shape = x->g->values[nd->out[j]].shape;
        }
        st = cc_graph_exec_run(br, ins, outs, err);
        if (cc_graph_exec_overrun(br)) x->overrun = 1;
        for (int j = 0; j < nd->n_out && !st; j++) x->host[nd->out[j]].shape = outs[j].shape;
    }
    if (st) {
        char label[160], m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        cc_err_set(err, st, "%s: %s", cc_graph_node_label(nd, label, sizeof label), m);
    }
    return st;
}

/* One segment, then its outputs into host memory. */
static cc_status run_one(cc_graph_exec *x, segment *s, int upload, cc_err *err)
{
    if (s->control) return run_control(x, s, err);
    cc_status st = s->lazy ? segment_reshape(x, s, err) : CC_OK;
    if (!st) st = run_segment(x, s, upload, err);
    if (!st) st = download_segment(x, s, err);
    return st;
}

/* A single segment on a target keeps its inputs on the target between runs. */
static int single(const cc_graph_exec *x)
{
    return x->n_seg == 1 && !x->seg[0].control && !x->dyn_inputs;
}

cc_status cc_graph_exec_bind(cc_graph_exec *x, const cc_tensor *in, cc_err *err)
{
    const cc_graph *g = x->g;
    /* one segment: its inputs are uploaded straight from the caller's tensors and stay
     * resident for run_bound */
    if (single(x)) {
        segment *s = &x->seg[0];
        for (int i = 0; i < s->g.n_inputs; i++) {
            int v = s->global[s->g.inputs[i]], k = 0;
            while (k < g->n_inputs && g->inputs[k] != v) k++;
            if (k == g->n_inputs)
                return cc_err_set(err, CC_ERR_INTERNAL, "segment input value %d is not a graph input", v);
            cc_status st = s->t->upload(s->ctx, s->in_buf[i], in[k].data, cc_tensor_bytes(&g->values[v]), err);
            if (st) return st;
        }
        return CC_OK;
    }
    /* several: the inputs go through host memory like every value between segments */
    for (int i = 0; i < g->n_inputs; i++) {
        int v = g->inputs[i];
        const cc_tensor *d = &g->values[v];
        if (x->dyn_inputs) { /* the actual shape, within the declared one */
            if (in[i].dtype != d->dtype || !cc_shape_within(&in[i].shape, &d->shape)) {
                char a[96], b[96];
                return cc_err_set(err, CC_ERR_ARG, "graph input %d is %s %s, beyond its bound %s %s", i,
                                  cc_dtype_name(in[i].dtype), cc_shape_format(&in[i].shape, a, sizeof a),
                                  cc_dtype_name(d->dtype), cc_shape_format(&d->shape, b, sizeof b));
            }
            d = &in[i];
        }
        cc_status st = host_ensure(x, v, d, err);
        if (st) return st;
        memcpy(x->host[v].data, in[i].data, cc_tensor_bytes(d));
    }
    return CC_OK;
}

cc_status cc_graph_exec_run_bound(cc_graph_exec *x, cc_err *err)
{
    if (single(x)) return run_segment(x, &x->seg[0], 0, err);
    for (int s = 0; s < x->n_seg; s++) {
        cc_status st = run_one(x, &x->seg[s], 1, err);
        if (st) return st;
    }
    return CC_OK;
}

cc_status cc_graph_exec_run_timed(cc_graph_exec *x, double *seconds, int *device, cc_err *err)
{
    if (single(x) && CC_TARGET_HAS(x->seg[0].t, run_timed)) {
        segment *s = &x->seg[0];
        *device = 1;
        return s->t->run_timed(s->ctx, s->plan, s->in_buf, s->out_buf, seconds, err);
    }
    *device = 0;
    double t0 = cc_now();
    cc_status st = cc_graph_exec_run_bound(x, err);
    *seconds = cc_now() - t0;
    return st;
}

int cc_graph_exec_overrun(const cc_graph_exec *x)
{
    return x->overrun;
}

cc_status cc_graph_exec_run(cc_graph_exec *x, const cc_tensor *in, cc_tensor *out, cc_err *err)
{
    x->overrun = 0;
    cc_status st = cc_graph_exec_bind(x, in, err);
    if (st) return st;
    for (int s = 0; s < x->n_seg; s++) {
        st = run_one(x, &x->seg[s], !single(x), err); /* one segment: bound above */
        if (st) return st;
    }
    const cc_graph *g = x->g;
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        const cc_tensor *src = x->host[v].data ? &x->host[v] : NULL;
        for (int k = 0; k < g->n_inputs && !src; k++) /* a graph input passed through */
            if (g->inputs[k] == v) src = &in[k];
        if (!src && g->values[v].data) src = &g->values[v]; /* a constant (a branch's empty result) */
        if (!src) return cc_err_set(err, CC_ERR_INTERNAL, "graph output %d was not computed", j);
        /* its actual shape, within the room of the declared one */
        if (cc_tensor_numel(src) > cc_tensor_numel(&g->values[v]))
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "graph output %d came out with more elements than its shape inferred from the "
                              "data-dependent bounds (%lld > %lld)",
                              j, (long long)cc_tensor_numel(src), (long long)cc_tensor_numel(&g->values[v]));
        out[j].shape = src->shape;
        memcpy(out[j].data, src->data, cc_tensor_bytes(&out[j]));
    }
    return CC_OK;
}

const char *cc_graph_node_label(const cc_node *nd, char *buf, size_t n)
{
    if (strncmp(nd->name, "node ", 5) == 0) snprintf(buf, n, "%s", nd->name);
    else snprintf(buf, n, "node %s (%s)", nd->name, nd->op->name);
    return buf;
}
