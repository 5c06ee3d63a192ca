/* graph_exec.c — segmentation of a graph by target support and execution of the
 * segments, each as a compact sub-graph prepared once on its target, with guard bytes
 * after every output buffer and device timers where the target has them. */
#include "graph_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

typedef struct segment {
    const cc_target_iface *t;
    void *ctx;
    int first;             /* index in the whole graph of the segment's first node */
    cc_graph g;            /* compact: its own values array */
    int *global;           /* local value -> global value */
    void *plan;
    void **in_buf, **out_buf;
} segment;

struct cc_graph_exec {
    const cc_graph *g;
    int n_seg;
    segment *seg;
    cc_tensor *host;       /* one host tensor per global value that crosses a boundary,
                              with room for the guard bytes after its data */
    int overrun;           /* the last run found a changed guard byte */
};

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

static void segment_free(segment *s)
{
    if (s->plan) s->t->release(s->ctx, s->plan);
    for (int i = 0; s->in_buf && i < s->g.n_inputs; i++) s->t->buffer_free(s->ctx, s->in_buf[i]);
    for (int j = 0; s->out_buf && j < s->g.n_outputs; j++) s->t->buffer_free(s->ctx, s->out_buf[j]);
    free(s->in_buf);
    free(s->out_buf);
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
    free(x);
}

void cc_graph_exec_describe(const cc_graph_exec *x, char *buf, size_t n)
{
    if (!n) return;
    buf[0] = '\0';
    size_t len = 0;
    for (int i = 0; x && i < x->n_seg && len + 1 < n; i++) {
        const segment *s = &x->seg[i];
        if (!CC_TARGET_HAS(s->t, describe_plan)) continue;
        char text[2048] = "";
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

cc_status cc_graph_exec_create(const cc_graph *g, const cc_target_iface *t, void *ctx, const cc_target_iface *fb,
                               void *fb_ctx, cc_graph_exec **out, cc_graph_exec_info *info, cc_err *err)
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
    for (int k = 0; k < g->n_nodes; k++) {
        char why[256] = "";
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
    x->host = calloc((size_t)g->n_values, sizeof(cc_tensor));
    if (!x->seg || !x->host) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int a = 0; a < g->n_nodes;) {
        int b = a + 1;
        while (b < g->n_nodes && on_target[b] == on_target[a]) b++;
        segment *s = &x->seg[x->n_seg++];
        s->t = on_target[a] ? t : fb;
        s->ctx = on_target[a] ? ctx : fb_ctx;
        s->first = a;
        st = build_segment(g, a, b, s, err);
        if (st) goto fail;
        cc_err e = { 0 };
        st = s->t->prepare(s->ctx, &s->g, &s->plan, &e);
        if (st) {
            s->plan = NULL;
            if (fb) st = cc_err_set(err, st, "%s: prepare of nodes %d..%d: %s", s->t->name, a, b - 1, e.msg);
            else *err = e;
            goto fail;
        }
        s->in_buf = calloc((size_t)s->g.n_inputs + 1, sizeof(void *));
        s->out_buf = calloc((size_t)s->g.n_outputs + 1, sizeof(void *));
        if (!s->in_buf || !s->out_buf) {
            st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < s->g.n_inputs; i++) {
            st = s->t->buffer_alloc(s->ctx, cc_tensor_bytes(&s->g.values[s->g.inputs[i]]) + 1, &s->in_buf[i], err);
            if (st) goto fail;
        }
        for (int j = 0; j < s->g.n_outputs; j++) {
            int v = s->global[s->g.outputs[j]];
            st = s->t->buffer_alloc(s->ctx, cc_tensor_bytes(&g->values[v]) + CC_GUARD_BYTES, &s->out_buf[j], err);
            if (!st) st = arm_output(s, s->out_buf[j], &g->values[v], err);
            if (st) goto fail;
            if (!x->host[v].data && (st = host_alloc(&x->host[v], &g->values[v], err))) goto fail;
        }
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

static cc_status run_segment(cc_graph_exec *x, segment *s, int upload, cc_err *err)
{
    cc_status st = CC_OK;
    if (upload)
        for (int i = 0; i < s->g.n_inputs && !st; i++) {
            int v = s->global[s->g.inputs[i]];
            st = s->t->upload(s->ctx, s->in_buf[i], x->host[v].data, cc_tensor_bytes(&x->g->values[v]), err);
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
        size_t bytes = cc_tensor_bytes(&x->g->values[v]);
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
        x->host[v].shape = x->g->values[v].shape;
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

cc_status cc_graph_exec_bind(cc_graph_exec *x, const cc_tensor *in, cc_err *err)
{
    const cc_graph *g = x->g;
    /* one segment: its inputs are uploaded straight from the caller's tensors and stay
     * resident for run_bound */
    if (x->n_seg == 1) {
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
        if (!x->host[v].data) {
            cc_status st = host_alloc(&x->host[v], &g->values[v], err);
            if (st) return st;
        }
        memcpy(x->host[v].data, in[i].data, cc_tensor_bytes(&g->values[v]));
    }
    return CC_OK;
}

cc_status cc_graph_exec_run_bound(cc_graph_exec *x, cc_err *err)
{
    if (x->n_seg == 1) return run_segment(x, &x->seg[0], 0, err);
    for (int s = 0; s < x->n_seg; s++) {
        cc_status st = run_segment(x, &x->seg[s], 1, err);
        if (!st) st = download_segment(x, &x->seg[s], err);
        if (st) return st;
    }
    return CC_OK;
}

cc_status cc_graph_exec_run_timed(cc_graph_exec *x, double *seconds, int *device, cc_err *err)
{
    if (x->n_seg == 1 && CC_TARGET_HAS(x->seg[0].t, run_timed)) {
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
        st = run_segment(x, &x->seg[s], x->n_seg > 1, err); /* one segment: bound above */
        if (!st) st = download_segment(x, &x->seg[s], err);
        if (st) return st;
    }
    const cc_graph *g = x->g;
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        const void *src = x->host[v].data;
        for (int k = 0; k < g->n_inputs && !src; k++) /* a graph input passed through */
            if (g->inputs[k] == v) src = in[k].data;
        if (!src) src = g->values[v].data; /* a constant */
        if (!src) return cc_err_set(err, CC_ERR_INTERNAL, "graph output %d was not computed", j);
        if (src == x->host[v].data) out[j].shape = x->host[v].shape; /* the actual shape */
        memcpy(out[j].data, src, cc_tensor_bytes(&out[j]));
    }
    return CC_OK;
}

const char *cc_graph_node_label(const cc_node *nd, char *buf, size_t n)
{
    if (strncmp(nd->name, "node ", 5) == 0) snprintf(buf, n, "%s", nd->name);
    else snprintf(buf, n, "node %s (%s)", nd->name, nd->op->name);
    return buf;
}
