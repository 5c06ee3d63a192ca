/* plan.c — graph plans of the onednn backend: a graph (an op case or a segment of a
 * model) compiled once in prepare into oneDNN primitives, executed in order by run.
 *
 * prepare:
 *  1. infers every value's shape and type node by node;
 *  2. finds the fusion groups (fuse.c): a convolution and the nodes after it that one
 *     primitive computes through post-ops, or an INT8 concat requantized in one pass, run
 *     in the place of the group's last node;
 *  3. builds each node, or each group at its last node, in node order. A value between
 *     two primitives of the plan (not a graph input or output) is stored in the layout its
 *     producer's primitive prefers, and readers that take any layout read it as it is;
 *     graph inputs and outputs are dense, so reorders are left at the graph's edges and
 *     before readers that need dense data (cc_onednn_input/_output in build.c). A group
 *     oneDNN rejects (a post-op it lacks) is built node by node instead;
 *  4. gives each intermediate value a buffer once its producer has chosen its layout:
 *     buffers are pooled, a value taking one whose previous values are read by no step
 *     after its producer's (steps run in slot order); a value that a sum post-op
 *     overwrites in place passes its buffer on to the group's output.
 * Every primitive, weight reorder and folded constant is made here; run only binds the
 * graph's input and output buffers and executes the steps.
 *
 * describe_plan names each primitive by the nodes it computes
 * ("Conv+BatchNormalization+Relu: brgconv:avx512_core"), counts identical entries, then
 * lists which nodes each group absorbed. */
#include "onednn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl_debug.h>

/* A buffer of the plan's pool: its values' data, busy up to slot `end`. */
typedef struct pool_buf {
    void *ptr;
    size_t bytes;
    int end;
} pool_buf;

typedef struct onednn_plan {
    const cc_graph *g;
    cc_tensor *desc;            /* per value: shape, dtype; data only for constants */
    cc_onednn_value *vals;      /* per value: layout, alias (build.c) */
    void **ptr;                 /* per value: the data a run reads or writes */
    int *buf_of;                /* per value: its pool buffer, -1 for none */
    pool_buf *pool;
    int n_pool;
    cc_onednn_node_plan *nodes; /* per node; a group's in the slot of its last node */
    int n_nodes;
    cc_onednn_fusion *groups;
    int n_groups;
    int *group_of; /* per node: its group, -1 for none (or a group built node by node) */
    int *exec_pos; /* per node: the slot whose steps compute it */
} onednn_plan;

static void node_plan_free(cc_onednn_node_plan *p)
{
    for (int i = 0; i < p->n_steps; i++) dnnl_primitive_destroy(p->steps[i].prim);
    for (int i = 0; i < p->n_mems; i++) dnnl_memory_destroy(p->mems[i]);
    memset(p, 0, sizeof *p);
}

void cc_onednn_release(void *ctx, void *plan)
{
    (void)ctx;
    onednn_plan *p = plan;
    if (!p) return;
    if (p->nodes)
        for (int i = 0; i < p->n_nodes; i++) node_plan_free(&p->nodes[i]);
    for (int i = 0; p->pool && i < p->n_pool; i++) free(p->pool[i].ptr);
    free(p->pool);
    free(p->buf_of);
    free(p->desc);
    free(p->vals);
    free(p->ptr);
    free(p->nodes);
    free(p->groups);
    free(p->group_of);
    free(p->exec_pos);
    free(p);
}

static int in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return 1;
    return 0;
}

/* The value whose buffer v uses: v itself, or the end of its chain of aliases. */
static int alias_root(const onednn_plan *p, int v)
{
    while (p->vals[v].alias >= 0) v = p->vals[v].alias;
    return v;
}

int cc_onednn_plan_overwritable(const cc_onednn_build *b, int v)
{
    const onednn_plan *p = b->graph_plan;
    if (!p || !b->fuse || v < 0 || !p->vals[v].free_layout || !p->vals[b->fuse->out_value].free_layout) return 0;
    const cc_graph *g = p->g;
    int root = alias_root(p, v);
    /* every value sharing v's buffer (a Reshape's alias, an earlier in-place sum) */
    for (int u = 0; u < g->n_values; u++) {
        if (u != v && (p->vals[u].alias < 0 || alias_root(p, u) != root) && u != root) continue;
        for (int i = 0; i < b->node->n_in; i++)
            if (b->node->in[i] == u) return 0;
        for (int k = 0; k < g->n_nodes; k++) {
            if (p->group_of[k] >= 0 && &p->groups[p->group_of[k]] == b->fuse) continue;
            if (in_list(g->nodes[k].in, g->nodes[k].n_in, u) && p->exec_pos[k] >= b->fuse->anchor) return 0;
        }
    }
    return 1;
}

/* The last slot whose steps read value v (-1 when none does). */
static int last_use(const onednn_plan *p, int v)
{
    int last = -1;
    const cc_graph *g = p->g;
    for (int k = 0; k < g->n_nodes; k++)
        if (in_list(g->nodes[k].in, g->nodes[k].n_in, v) && p->exec_pos[k] > last) last = p->exec_pos[k];
    return last;
}

/* Storage for intermediate value v, produced in slot `at`, once its producer has fixed
 * its layout: the best-fitting pool buffer free before `at` (the largest, grown, when none
 * is big enough), else a new one. */
static cc_status alloc_value(onednn_plan *p, int v, int at, cc_err *err)
{
    cc_onednn_value *x = &p->vals[v];
    if (!x->free_layout || p->ptr[v]) return CC_OK;
    int end = last_use(p, v);
    if (end < at) end = at;
    if (x->alias >= 0) {
        int b = p->buf_of[x->alias];
        p->ptr[v] = p->ptr[x->alias];
        p->buf_of[v] = b;
        if (b >= 0 && p->pool[b].end < end) p->pool[b].end = end;
        return CC_OK;
    }
    size_t bytes = x->has_md ? dnnl_memory_desc_get_size(&x->md) : cc_tensor_bytes(&x->desc);
    bytes = (bytes + 63) / 64 * 64 + 64;
    int fit = -1, big = -1;
    for (int i = 0; i < p->n_pool; i++) {
        if (p->pool[i].end >= at) continue;
        if (p->pool[i].bytes >= bytes && (fit < 0 || p->pool[i].bytes < p->pool[fit].bytes)) fit = i;
        if (big < 0 || p->pool[i].bytes > p->pool[big].bytes) big = i;
    }
    if (fit < 0 && big >= 0) { /* grow the largest free buffer; its earlier values are dead */
        void *np = aligned_alloc(64, bytes);
        if (!np) return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory for value %d", v);
        free(p->pool[big].ptr);
        p->pool[big].ptr = np;
        p->pool[big].bytes = bytes;
        for (int u = 0; u < p->g->n_values; u++)
            if (p->buf_of[u] == big) p->ptr[u] = np;
        fit = big;
    }
    if (fit < 0) {
        pool_buf *grown = realloc(p->pool, sizeof *grown * (size_t)(p->n_pool + 1));
        if (!grown) return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
        p->pool = grown;
        fit = p->n_pool;
        p->pool[fit].ptr = aligned_alloc(64, bytes);
        p->pool[fit].bytes = bytes;
        if (!p->pool[fit].ptr) return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory for value %d", v);
        p->n_pool++;
    }
    p->pool[fit].end = end;
    p->buf_of[v] = fit;
    p->ptr[v] = p->pool[fit].ptr;
    return CC_OK;
}

/* Builds node k alone into its own slot. */
static cc_status build_node(const cc_onednn_ctx *c, onednn_plan *p, int k, cc_err *err)
{
    const cc_node *node = &p->g->nodes[k];
    cc_onednn_build_fn fn = cc_onednn_find_builder(node->op->name);
    if (!fn) return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN has no primitive for %s", node->op->name);
    cc_onednn_build b;
    cc_tensor out[CC_MAX_IO];
    cc_status st = cc_onednn_build_begin(c, p->desc, node, out, &b, err);
    if (st) return st;
    cc_onednn_node_plan *np = &p->nodes[k];
    np->node = node;
    b.plan = np;
    b.graph = p->g;
    b.vals = p->vals;
    b.graph_plan = p;
    int64_t written = 0; /* an empty output has nothing to compute (oneDNN 2.6 divides by a 0 dim in some
                            primitives: SIGFPE on a detector's empty result) */
    for (int j = 0; j < node->n_out; j++) written += cc_tensor_numel(&out[j]);
    if (written == 0) cc_onednn_note(&b, "empty output: no step");
    else if ((st = fn(&b, err))) return st;
    for (int j = 0; j < node->n_out; j++)
        if ((st = alloc_value(p, node->out[j], p->exec_pos[k], err))) return st;
    return CC_OK;
}

/* Builds group f into the slot of its last node. */
static cc_status build_group(const cc_onednn_ctx *c, onednn_plan *p, const cc_onednn_fusion *f, cc_err *err)
{
    const cc_node *node = &p->g->nodes[f->main];
    cc_onednn_build_fn fn = cc_onednn_find_builder(node->op->name);
    if (!fn) return cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN has no primitive for %s", node->op->name);
    cc_onednn_build b;
    cc_tensor out[CC_MAX_IO];
    cc_status st = cc_onednn_build_begin(c, p->desc, node, out, &b, err);
    if (st) return st;
    cc_onednn_node_plan *np = &p->nodes[f->anchor];
    np->node = node;
    np->fuse = f;
    b.plan = np;
    b.graph = p->g;
    b.vals = p->vals;
    b.graph_plan = p;
    b.fuse = f;
    if (cc_tensor_numel(&p->desc[f->out_value]) == 0) cc_onednn_note(&b, "empty output: no step");
    else if ((st = fn(&b, err))) return st;
    return alloc_value(p, f->out_value, f->anchor, err);
}

/* Builds group gi, or its nodes one by one when oneDNN rejects the fused primitive. */
static cc_status build_or_split(const cc_onednn_ctx *c, onednn_plan *p, int gi, cc_err *err)
{
    cc_onednn_fusion *f = &p->groups[gi];
    cc_err e = { 0 };
    cc_status st = build_group(c, p, f, &e);
    if (st != CC_ERR_UNSUPPORTED) {
        if (st) *err = e;
        return st;
    }
    node_plan_free(&p->nodes[f->anchor]);
    cc_onednn_value *out = &p->vals[f->out_value];
    out->has_md = 0;
    out->alias = -1;
    out->view = 0;
    int members[CC_ONEDNN_MAX_FUSED + 1], n = 0;
    members[n++] = f->main;
    for (int i = 0; i < f->n_fused; i++) members[n++] = f->fused[i];
    for (int i = 0; i < n; i++) { /* node order */
        int m = i;
        for (int j = i + 1; j < n; j++)
            if (members[j] < members[m]) m = j;
        int t = members[i];
        members[i] = members[m];
        members[m] = t;
    }
    for (int i = 0; i < n; i++) {
        p->group_of[members[i]] = -1;
        p->exec_pos[members[i]] = members[i];
    }
    for (int i = 0; i < n; i++)
        if ((st = build_node(c, p, members[i], err))) return st;
    return CC_OK;
}

/* Step 1: every node's output shapes and types; the values a plan lays out freely. */
static cc_status infer_values(const cc_onednn_ctx *c, onednn_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    for (int i = 0; i < g->n_values; i++) {
        p->desc[i] = g->values[i];
        p->ptr[i] = g->values[i].data; /* constants; others are allocated or bound at run */
        p->vals[i].alias = -1;
        p->buf_of[i] = -1;
    }
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        cc_onednn_build b;
        cc_tensor out[CC_MAX_IO];
        cc_status st = cc_onednn_build_begin(c, p->desc, node, out, &b, err);
        if (st) return st;
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            int is_output = in_list(g->outputs, g->n_outputs, v);
            if (is_output) {
                const cc_tensor *want = &g->values[v];
                if (want->dtype != out[j].dtype || !cc_shape_equal(&want->shape, &out[j].shape)) {
                    char a[96], bb[96];
                    return cc_err_set(err, CC_ERR_ARG, "onednn: graph output value %d is %s:%s, but %s gives %s:%s",
                                      v, cc_shape_format(&want->shape, a, sizeof a), cc_dtype_name(want->dtype),
                                      node->op->name, cc_shape_format(&out[j].shape, bb, sizeof bb),
                                      cc_dtype_name(out[j].dtype));
                }
            }
            p->desc[v] = out[j];
            p->desc[v].data = NULL;
            p->vals[v].free_layout = !is_output;
        }
    }
    for (int i = 0; i < g->n_values; i++) p->vals[i].desc = p->desc[i];
    return CC_OK;
}

cc_status cc_onednn_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    cc_onednn_ctx *c = ctx;
    cc_status st = CC_OK;
    unsigned char *produced = NULL;
    onednn_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1;
    size_t nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->desc = calloc(nv, sizeof *p->desc);
    p->vals = calloc(nv, sizeof *p->vals);
    p->ptr = calloc(nv, sizeof *p->ptr);
    p->buf_of = calloc(nv, sizeof *p->buf_of);
    p->nodes = calloc(nn, sizeof *p->nodes);
    p->group_of = calloc(nn, sizeof *p->group_of);
    p->exec_pos = calloc(nn, sizeof *p->exec_pos);
    produced = calloc(nv, 1);
    if (!p->desc || !p->vals || !p->ptr || !p->buf_of || !p->nodes || !p->group_of || !p->exec_pos || !produced) {
        st = cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
        goto fail;
    }
    p->n_nodes = g->n_nodes;
    if ((st = cc_graph_check(g, "onednn", produced, err))) goto fail;
    for (int n = 0; n < g->n_nodes; n++)
        if (!cc_onednn_find_builder(g->nodes[n].op->name)) {
            st = cc_err_set(err, CC_ERR_UNSUPPORTED, "oneDNN has no primitive for %s", g->nodes[n].op->name);
            goto fail;
        }
    if ((st = infer_values(c, p, err))) goto fail;
    if ((st = cc_onednn_fuse(g, p->vals, &p->groups, &p->n_groups, p->group_of, err))) goto fail;
    for (int k = 0; k < g->n_nodes; k++)
        p->exec_pos[k] = p->group_of[k] >= 0 ? p->groups[p->group_of[k]].anchor : k;
    for (int k = 0; k < g->n_nodes; k++) {
        int gi = p->group_of[k];
        if (gi >= 0 && p->groups[gi].anchor != k) continue; /* built at the group's last node */
        st = gi >= 0 ? build_or_split(c, p, gi, err) : build_node(c, p, k, err);
        if (st) goto fail;
    }
    free(produced);
    *plan = p;
    return CC_OK;

fail:
    free(produced);
    cc_onednn_release(ctx, p);
    return st;
}

cc_status cc_onednn_run(void *ctx, void *plan, void *const *inputs, void *const *outputs, cc_err *err)
{
    cc_onednn_ctx *c = ctx;
    onednn_plan *p = plan;
    const cc_graph *g = p->g;
    /* a produced output is written straight into the first output buffer naming it */
    for (int j = g->n_outputs - 1; j >= 0; j--) {
        int v = g->outputs[j];
        if (!g->values[v].data && !in_list(g->inputs, g->n_inputs, v)) p->ptr[v] = outputs[j];
    }
    for (int i = 0; i < g->n_inputs; i++) p->ptr[g->inputs[i]] = inputs[i];

    for (int n = 0; n < p->n_nodes; n++) {
        cc_onednn_node_plan *np = &p->nodes[n];
        for (int k = 0; k < np->n_binds; k++) {
            dnnl_status_t s = dnnl_memory_set_data_handle(np->binds[k].mem, p->ptr[np->binds[k].value]);
            if (s != dnnl_success)
                return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: binding value %d of %s failed (dnnl_%s)",
                                  np->binds[k].value, np->node->op->name, dnnl_status2str(s));
        }
        for (int k = 0; k < np->n_steps; k++) {
            const cc_onednn_step *s = &np->steps[k];
            dnnl_status_t r = dnnl_primitive_execute(s->prim, c->stream, s->n_args, s->args);
            if (r != dnnl_success)
                return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: executing %s (step %d) failed (dnnl_%s)",
                                  np->node->op->name, k, dnnl_status2str(r));
        }
    }
    dnnl_status_t s = dnnl_stream_wait(c->stream);
    if (s != dnnl_success)
        return cc_err_set(err, CC_ERR_DEVICE, "oneDNN: stream wait failed (dnnl_%s)", dnnl_status2str(s));
    /* outputs no node wrote into their buffer: pass-through inputs and constants, and a
     * value listed as more than one output */
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        if (p->ptr[v] != outputs[j]) memcpy(outputs[j], p->ptr[v], cc_tensor_bytes(&p->desc[v]));
    }
    return CC_OK;
}

/* The describe_plan entry of slot k: "Conv+BatchNormalization+Relu: brgconv:avx512_core
 * +1 reorder". */
static void entry_of(const onednn_plan *p, int k, char *buf, size_t n)
{
    const cc_onednn_node_plan *a = &p->nodes[k];
    char label[160];
    cc_onednn_fusion_label(a, p->g, label, sizeof label);
    char reorders[32] = "";
    if (a->n_reorders)
        snprintf(reorders, sizeof reorders, " +%d reorder%s", a->n_reorders, a->n_reorders > 1 ? "s" : "");
    snprintf(buf, n, "%s: %s%s", label, a->impl[0] ? a->impl : "no primitive", reorders);
}

/* Node k's name, or "#k" for a node without one. */
static const char *node_name(const cc_graph *g, int k, char *tmp, size_t n)
{
    if (g->nodes[k].name[0]) return g->nodes[k].name;
    snprintf(tmp, n, "#%d", k);
    return tmp;
}

/* Writes the entries with identical ones counted ("... x3"), then "; fused: conv1 <- bn1,
 * relu; ..." while room is left. */
void cc_onednn_describe_plan(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    onednn_plan *p = plan;
    if (!n) return;
    buf[0] = '\0';
    if (!p) return;
    size_t len = 0;
    char a[320], o[320];
    for (int i = 0; i < p->n_nodes && len < n; i++) {
        if (!p->nodes[i].node) continue;
        entry_of(p, i, a, sizeof a);
        int seen = 0, count = 0;
        for (int k = 0; k < p->n_nodes && !seen; k++) {
            if (!p->nodes[k].node) continue;
            entry_of(p, k, o, sizeof o);
            if (strcmp(a, o) != 0) continue;
            if (k < i) seen = 1;
            count++;
        }
        if (seen) continue;
        char times[16] = "";
        if (count > 1) snprintf(times, sizeof times, " x%d", count);
        int w = snprintf(buf + len, n - len, "%s%s%s", len ? "; " : "", a, times);
        if (w < 0) break;
        len += (size_t)w;
    }
    int first = 1;
    for (int i = 0; i < p->n_nodes && len < n; i++) {
        const cc_onednn_node_plan *np = &p->nodes[i];
        if (!np->node || !np->fuse) continue;
        char tmp[16];
        int w = snprintf(buf + len, n - len, "%s%s <-", first ? "; fused: " : "; ",
                         node_name(p->g, np->fuse->main, tmp, sizeof tmp));
        for (int k = 0; k < np->fuse->n_fused && w >= 0 && len + (size_t)w < n; k++)
            w += snprintf(buf + len + w, n - len - (size_t)w, "%s %s", k ? "," : "",
                          node_name(p->g, np->fuse->fused[k], tmp, sizeof tmp));
        if (w < 0) break;
        len += (size_t)w;
        first = 0;
    }
    if (len >= n) buf[n - 1] = '\0';
}
