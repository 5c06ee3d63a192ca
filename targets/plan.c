/* plan.c — the graph planner of the built-in backends (plan.h): checks, shape inference,
 * dispatch by op id, value storage with reuse of intermediate buffers, binding, the run
 * loop, release and the plan description. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

cc_status cc_kernel_table_build(cc_kernel_table *t, const cc_kernel_list *const *lists, int n,
                                const char *backend, cc_err *err)
{
    memset(t, 0, sizeof *t);
    for (int l = 0; l < n; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            const cc_kernel *k = &lists[l]->kernels[i];
            if ((int)k->op < 0 || k->op >= CC_OP_ID_COUNT || !k->run)
                return cc_err_set(err, CC_ERR_INTERNAL, "%s: kernel %d of list %d names no op or has no run()",
                                  backend, i, l);
            if (t->by_id[k->op])
                return cc_err_set(err, CC_ERR_INTERNAL, "%s: two kernels for %s", backend,
                                  cc_op_info_of(k->op)->name);
            t->by_id[k->op] = k;
        }
    return CC_OK;
}

/* ---- plans ------------------------------------------------------------------------------ */

enum { V_UNUSED, V_INPUT, V_CONST, V_PRODUCED };

typedef struct plan_node {
    const cc_node *node;
    const cc_kernel *kernel;
    void *state;
    char note[CC_BACKEND_NOTE_MAX];
    int dynamic;               /* CC_TRAIT_DYNAMIC_SHAPE: its kernel writes its outputs' shapes */
} plan_node;

struct cc_plan {
    const cc_plan_backend *b;
    void *ctx;
    const cc_graph *g;
    cc_tensor *desc;           /* value descriptions: shapes inferred; data = a constant's host data */
    void **buf;                /* the buffer of each value at run time */
    unsigned char *kind;       /* V_* */
    unsigned char *is_output;  /* a graph output: bound at run, never pooled */
    unsigned char *own;        /* buf[v] is a constant's upload owned by the plan */
    int *pool_of;              /* the intermediate buffer a value lives in, -1: none */
    void **pool;
    size_t *pool_bytes;
    int n_pool;
    size_t separate_bytes;
    plan_node *nodes;
    int n_nodes;               /* nodes whose kernel state exists */
    cc_shape out_shape[CC_MAX_IO]; /* each graph output's shape after the last run */
};

static const cc_kernel *kernel_of(const cc_plan_backend *b, const cc_node *node)
{
    if (!node->op || (int)node->op->id < 0 || node->op->id >= CC_OP_ID_COUNT) return NULL;
    return b->kernels->by_id[node->op->id];
}

/* The node's inputs as descriptions from desc (NULL for absent ones); its outputs inferred
 * into out (CC_MAX_IO entries, data NULL): for a node whose shape input is computed at run
 * time, g's descriptions of them (the bound). */
static cc_status node_describe(const cc_graph *g, const cc_tensor *desc, const cc_node *node, const cc_tensor **in,
                               cc_tensor *out, cc_err *err)
{
    for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
    for (int i = 0; i < node->n_in; i++) in[i] = node->in[i] >= 0 ? &desc[node->in[i]] : NULL;
    memset(out, 0, sizeof(cc_tensor) * CC_MAX_IO);
    cc_status st = CC_OK;
    if (cc_op_runtime_shape_input(node->op, node->n_in, in) >= 0)
        for (int j = 0; j < node->n_out; j++) out[j] = g->values[node->out[j]];
    else st = node->op->infer(node, in, node->n_out, out, err);
    for (int j = 0; j < node->n_out; j++) out[j].data = NULL;
    return st;
}

/* Whether the kernel k of backend b runs node: the reason in reason[0..n) otherwise. */
static cc_support kernel_check(const cc_plan_backend *b, void *ctx, const cc_kernel *k,
                               const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                               char *reason, size_t n)
{
    if (!k) {
        /* a recurrence is a chain of small dependent steps, and an output whose extent
         * depends on the data needs the host before anything can be sized: the device
         * backends leave both to the host (a model falls back to cpu for them) */
        int recurrent = node->op && strcmp(node->op->family, "recurrent") == 0;
        int dynamic = node->op && cc_op_has_trait(node->op, CC_TRAIT_DYNAMIC_SHAPE);
        snprintf(reason, n, "%s has no kernel for %s%s", b->name, node->op ? node->op->name : "?",
                 recurrent ? ": recurrent ops run step by step on the host (cpu)"
                 : dynamic ? ": its output's shape depends on the data, computed on the host (cpu)"
                           : "");
        return CC_SUPPORT_NO;
    }
    /* a shape input computed at run time is read where the node runs: a host backend's
       kernel infers the shape from it (the cpu backend), a device backend leaves it */
    int k_in = in ? cc_op_runtime_shape_input(node->op, node->n_in, in) : -1;
    if (k_in >= 0 && !b->host_memory) {
        snprintf(reason, n, "%s: %s's %s is computed at run time and sets the output's shape: read on the host (cpu)",
                 b->name, node->op->name, node->op->inputs[k_in].name);
        return CC_SUPPORT_NO;
    }
    return k->supports ? k->supports(ctx, node, in, out, reason, n) : CC_SUPPORT_YES;
}

cc_support cc_plan_supports(const cc_plan_backend *b, void *ctx, const cc_graph *g,
                            const cc_node *node, char *reason, size_t n)
{
    if (n) reason[0] = '\0';
    const cc_kernel *k = kernel_of(b, node);
    if (!k) return kernel_check(b, ctx, k, node, NULL, NULL, reason, n);
    if (node->n_in < 0 || node->n_in > CC_MAX_IO || node->n_out < 0 || node->n_out > CC_MAX_IO) {
        snprintf(reason, n, "%s: a node with %d inputs and %d outputs", b->name, node->n_in, node->n_out);
        return CC_SUPPORT_NO;
    }
    if (!cc_backend_inputs_valid(g, node, reason, n)) return CC_SUPPORT_NO;
    const cc_tensor *in[CC_MAX_IO];
    cc_tensor out[CC_MAX_IO];
    cc_err e = { 0 };
    if (node_describe(g, g->values, node, in, out, &e)) {
        snprintf(reason, n, "%s: %s", b->name, e.msg);
        return CC_SUPPORT_NO;
    }
    return kernel_check(b, ctx, k, node, in, out, reason, n);
}

void cc_plan_release(cc_plan *p)
{
    if (!p) return;
    cc_err e;
    if (p->b->enter) p->b->enter(p->ctx, &e);
    p->b->sync(p->ctx, &e); /* nothing may still use what is freed */
    for (int i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kernel->release) p->nodes[i].kernel->release(p->nodes[i].state);
    for (int i = 0; i < p->n_pool; i++) p->b->free(p->ctx, p->pool[i]);
    if (p->own)
        for (int v = 0; v < p->g->n_values; v++)
            if (p->own[v]) p->b->free(p->ctx, p->buf[v]);
    free(p->desc);
    free(p->buf);
    free(p->kind);
    free(p->is_output);
    free(p->own);
    free(p->pool_of);
    free(p->pool);
    free(p->pool_bytes);
    free(p->nodes);
    free(p);
}

/* Shapes and support of every node in order; the graph outputs' declared descriptions
 * checked against what their nodes give. */
static cc_status infer_all(cc_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO];
        cc_status st = node_describe(g, p->desc, node, in, out, err);
        if (st) return st;
        plan_node *pn = &p->nodes[n];
        pn->node = node;
        pn->kernel = kernel_of(p->b, node);
        char reason[256] = "";
        if (kernel_check(p->b, p->ctx, pn->kernel, node, in, out, reason, sizeof reason) != CC_SUPPORT_YES)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s",
                              reason[0] ? reason : "the backend does not run this node");
        if ((st = cc_backend_dynamic_outputs_check(p->g, node, p->b->name, err))) return st;
        pn->dynamic = cc_node_dynamic_shape(p->g, node);
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            const cc_tensor *want = &g->values[v];
            if (p->is_output[v] && (want->dtype != out[j].dtype || !cc_shape_equal(&want->shape, &out[j].shape))) {
                char a[96], b[96];
                return cc_err_set(err, CC_ERR_ARG, "%s: graph output value %d is %s:%s, but %s gives %s:%s",
                                  p->b->name, v, cc_shape_format(&want->shape, a, sizeof a),
                                  cc_dtype_name(want->dtype), node->op->name,
                                  cc_shape_format(&out[j].shape, b, sizeof b), cc_dtype_name(out[j].dtype));
            }
            p->desc[v] = out[j];
        }
    }
    return CC_OK;
}

static size_t bytes_of(const cc_tensor *t)
{
    size_t n = cc_tensor_bytes(t);
    return n ? n : 1;
}

/* Intermediate buffers: each intermediate value takes a free buffer (the smallest large
 * enough, else the largest free one, grown) when its node runs, and gives it back after
 * the last node that reads it, so values whose lifetimes do not overlap share storage. A
 * node's outputs never share a buffer with its inputs. */
static cc_status assign_pool(cc_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    int nv = g->n_values;
    int *last = malloc((size_t)(nv ? nv : 1) * sizeof *last);
    int *free_ids = malloc((size_t)(nv ? nv : 1) * sizeof *free_ids);
    p->pool = malloc((size_t)(nv ? nv : 1) * sizeof *p->pool);
    p->pool_bytes = calloc((size_t)(nv ? nv : 1), sizeof *p->pool_bytes);
    if (!last || !free_ids || !p->pool || !p->pool_bytes) {
        free(last);
        free(free_ids);
        return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", p->b->name);
    }
    for (int v = 0; v < nv; v++) last[v] = -1;
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        for (int j = 0; j < node->n_out; j++) last[node->out[j]] = n;
        for (int i = 0; i < node->n_in; i++)
            if (node->in[i] >= 0) last[node->in[i]] = n;
    }
    int n_free = 0;
    for (int n = 0; n < g->n_nodes; n++) {
        const cc_node *node = &g->nodes[n];
        for (int j = 0; j < node->n_out; j++) {
            int v = node->out[j];
            if (p->is_output[v]) continue;
            size_t need = bytes_of(&p->desc[v]);
            p->separate_bytes += need;
            int best = -1;
            for (int f = 0; f < n_free; f++) {
                size_t have = p->pool_bytes[free_ids[f]];
                if (best < 0) {
                    best = f;
                    continue;
                }
                size_t bh = p->pool_bytes[free_ids[best]];
                if (bh >= need ? (have >= need && have < bh) : have > bh) best = f;
            }
            int id;
            if (best >= 0) {
                id = free_ids[best];
                free_ids[best] = free_ids[--n_free];
            } else {
                id = p->n_pool++;
                p->pool_bytes[id] = 0;
            }
            if (p->pool_bytes[id] < need) p->pool_bytes[id] = need;
            p->pool_of[v] = id;
        }
        /* give back what this node read for the last time, and outputs nothing reads */
        for (int k = 0; k < node->n_in + node->n_out; k++) {
            int v = k < node->n_in ? node->in[k] : node->out[k - node->n_in];
            if (v < 0 || p->pool_of[v] < 0 || last[v] != n) continue;
            int dup = 0;
            for (int f = 0; f < n_free; f++) dup |= free_ids[f] == p->pool_of[v];
            if (!dup) free_ids[n_free++] = p->pool_of[v];
        }
    }
    free(last);
    free(free_ids);
    for (int i = 0; i < p->n_pool; i++) p->pool[i] = NULL;
    for (int i = 0; i < p->n_pool; i++) {
        cc_status st = p->b->alloc(p->ctx, p->pool_bytes[i], &p->pool[i], err);
        if (st) {
            for (int k = i; k < p->n_pool; k++) p->pool[k] = NULL;
            p->n_pool = i;
            return st;
        }
    }
    for (int v = 0; v < nv; v++)
        if (p->pool_of[v] >= 0) p->buf[v] = p->pool[p->pool_of[v]];
    return CC_OK;
}

/* Constants a node reads or the graph outputs: read in place on host backends, else
 * uploaded once into buffers the plan owns. */
static cc_status place_constants(cc_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    for (int n = 0; n <= g->n_nodes; n++) {
        int count = n < g->n_nodes ? g->nodes[n].n_in : g->n_outputs;
        for (int i = 0; i < count; i++) {
            int v = n < g->n_nodes ? g->nodes[n].in[i] : g->outputs[i];
            if (v < 0 || p->kind[v] != V_CONST || p->buf[v]) continue;
            const cc_tensor *t = &g->values[v];
            if (p->b->host_memory) {
                p->buf[v] = t->data;
                continue;
            }
            cc_status st = p->b->alloc(p->ctx, bytes_of(t), &p->buf[v], err);
            if (st) return st;
            p->own[v] = 1;
            size_t bytes = cc_tensor_bytes(t);
            if (bytes && (st = p->b->upload(p->ctx, p->buf[v], t->data, bytes, err))) return st;
        }
    }
    return CC_OK;
}

/* Kernel preparation, with every value's description final. */
static cc_status prepare_kernels(cc_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    for (int n = 0; n < g->n_nodes; n++) {
        plan_node *pn = &p->nodes[n];
        const cc_node *node = pn->node;
        const cc_tensor *in[CC_MAX_IO];
        cc_tensor out[CC_MAX_IO];
        for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
        for (int i = 0; i < node->n_in; i++) in[i] = node->in[i] >= 0 ? &p->desc[node->in[i]] : NULL;
        for (int j = 0; j < node->n_out; j++) out[j] = p->desc[node->out[j]];
        cc_backend_note_clear();
        pn->state = NULL;
        if (pn->kernel->prepare) {
            cc_status st = pn->kernel->prepare(p->ctx, node, in, node->n_out, out, &pn->state, err);
            if (st) return st;
        }
        p->n_nodes = n + 1;
        snprintf(pn->note, sizeof pn->note, "%s", cc_backend_note_get());
    }
    return CC_OK;
}

/* One run on stand-in buffers of 0x01 bytes for the graph's inputs and outputs, waited
 * for. */
static cc_status warm_up(cc_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    void *in[CC_MAX_IO] = { 0 }, *out[CC_MAX_IO] = { 0 };
    size_t most = 1;
    for (int k = 0; k < g->n_inputs + g->n_outputs; k++) {
        int v = k < g->n_inputs ? g->inputs[k] : g->outputs[k - g->n_inputs];
        if (bytes_of(&p->desc[v]) > most) most = bytes_of(&p->desc[v]);
    }
    unsigned char *ones = malloc(most);
    if (!ones) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", p->b->name);
    memset(ones, 1, most);
    cc_status st = CC_OK;
    for (int k = 0; k < g->n_inputs + g->n_outputs && !st; k++) {
        int input = k < g->n_inputs;
        int v = input ? g->inputs[k] : g->outputs[k - g->n_inputs];
        void **slot = input ? &in[k] : &out[k - g->n_inputs];
        size_t bytes = bytes_of(&p->desc[v]);
        st = p->b->alloc(p->ctx, bytes, slot, err);
        if (!st) st = p->b->upload(p->ctx, *slot, ones, bytes, err);
    }
    free(ones);
    if (!st) st = cc_plan_run(p, in, out, err);
    cc_err e2;
    cc_status sst = p->b->sync(p->ctx, st ? &e2 : err);
    if (!st) st = sst;
    for (int k = 0; k < CC_MAX_IO; k++) {
        if (in[k]) p->b->free(p->ctx, in[k]);
        if (out[k]) p->b->free(p->ctx, out[k]);
    }
    for (int i = 0; i < g->n_inputs; i++) p->buf[g->inputs[i]] = NULL;
    for (int j = 0; j < g->n_outputs; j++)
        if (p->kind[g->outputs[j]] == V_PRODUCED) p->buf[g->outputs[j]] = NULL;
    return st;
}

cc_status cc_plan_prepare(const cc_plan_backend *b, void *ctx, const cc_graph *g, cc_plan **plan,
                          cc_err *err)
{
    cc_status st = b->enter ? b->enter(ctx, err) : CC_OK;
    if (st) return st;
    cc_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", b->name);
    p->b = b;
    p->ctx = ctx;
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1, nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->desc = calloc(nv, sizeof *p->desc);
    p->buf = calloc(nv, sizeof *p->buf);
    p->kind = calloc(nv, 1);
    p->is_output = calloc(nv, 1);
    p->own = calloc(nv, 1);
    p->pool_of = malloc(nv * sizeof *p->pool_of);
    p->nodes = calloc(nn, sizeof *p->nodes);
    if (!p->desc || !p->buf || !p->kind || !p->is_output || !p->own || !p->pool_of || !p->nodes) {
        st = cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", b->name);
        goto fail;
    }
    /* kind[v] = 1 where a node produces v */
    if ((st = cc_graph_check(g, b->name, p->kind, err))) goto fail;
    for (int v = 0; v < g->n_values; v++) {
        p->kind[v] = p->kind[v] ? V_PRODUCED : g->values[v].data ? V_CONST : V_UNUSED;
        p->desc[v] = g->values[v];
        if (p->kind[v] != V_CONST) p->desc[v].data = NULL;
        p->pool_of[v] = -1;
    }
    for (int i = 0; i < g->n_inputs; i++) p->kind[g->inputs[i]] = V_INPUT;
    for (int j = 0; j < g->n_outputs; j++) p->is_output[g->outputs[j]] = 1;

    if ((st = infer_all(p, err)) || (st = assign_pool(p, err)) || (st = place_constants(p, err)) ||
        (st = prepare_kernels(p, err)))
        goto fail;
    if (b->warm_up && (st = warm_up(p, err))) goto fail;
    *plan = p;
    return CC_OK;
fail:
    cc_plan_release(p);
    return st;
}

cc_status cc_plan_run(cc_plan *p, void *const *inputs, void *const *outputs, cc_err *err)
{
    const cc_graph *g = p->g;
    cc_status st = p->b->enter ? p->b->enter(p->ctx, err) : CC_OK;
    if (st) return st;
    /* A produced output is written straight into the first output buffer naming it. */
    for (int j = g->n_outputs - 1; j >= 0; j--)
        if (p->kind[g->outputs[j]] == V_PRODUCED) p->buf[g->outputs[j]] = outputs[j];
    for (int i = 0; i < g->n_inputs; i++) p->buf[g->inputs[i]] = inputs[i];
    for (int j = 0; j < g->n_outputs && j < CC_MAX_IO; j++) p->out_shape[j] = p->desc[g->outputs[j]].shape;

    for (int n = 0; n < p->n_nodes; n++) {
        plan_node *pn = &p->nodes[n];
        const cc_node *node = pn->node;
        cc_tensor vin[CC_MAX_IO], out[CC_MAX_IO];
        const cc_tensor *in[CC_MAX_IO];
        for (int i = 0; i < CC_MAX_IO; i++) in[i] = NULL;
        for (int i = 0; i < node->n_in; i++) {
            int v = node->in[i];
            if (v < 0) continue;
            vin[i] = p->desc[v];
            vin[i].data = p->buf[v];
            in[i] = &vin[i];
        }
        for (int j = 0; j < node->n_out; j++) {
            out[j] = p->desc[node->out[j]];
            out[j].data = p->buf[node->out[j]];
        }
        if ((st = pn->kernel->run(p->ctx, node, in, node->n_out, out, pn->state, err))) return st;
        if (pn->dynamic)
            for (int j = 0; j < node->n_out; j++) {
                const cc_shape *bound = &p->desc[node->out[j]].shape;
                if (out[j].shape.rank != bound->rank || cc_shape_numel(&out[j].shape) > cc_shape_numel(bound))
                    return cc_err_set(err, CC_ERR_INTERNAL, "%s: %s wrote an output %d larger than its bound",
                                      p->b->name, node->op->name, j);
                for (int o = 0; o < g->n_outputs && o < CC_MAX_IO; o++)
                    if (g->outputs[o] == node->out[j]) p->out_shape[o] = out[j].shape;
            }
    }
    /* Outputs no node wrote into their buffer: graph inputs or constants passed through,
     * and a value listed as more than one output. */
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j];
        size_t bytes = cc_tensor_bytes(&p->desc[v]);
        if (p->buf[v] == outputs[j] || !bytes) continue;
        if ((st = p->b->copy(p->ctx, outputs[j], p->buf[v], bytes, err))) return st;
    }
    return CC_OK;
}

cc_status cc_plan_output_shape(const cc_plan *p, int j, cc_shape *shape, cc_err *err)
{
    if (j < 0 || j >= p->g->n_outputs || j >= CC_MAX_IO)
        return cc_err_set(err, CC_ERR_ARG, "%s: no graph output %d", p->b->name, j);
    *shape = p->out_shape[j];
    return CC_OK;
}

/* Node i of the plan for describe_plan: its op and kernel note. */
static const char *note_of(const void *plan, int i, const cc_op_def **op)
{
    const plan_node *pn = &((const cc_plan *)plan)->nodes[i];
    *op = pn->node->op;
    return pn->note;
}

void cc_plan_describe(const cc_plan *p, char *buf, size_t n)
{
    cc_backend_describe_plan(p, p ? p->n_nodes : 0, note_of, buf, n);
}

void cc_plan_memory(const cc_plan *p, size_t *pooled, size_t *separate)
{
    size_t total = 0;
    for (int i = 0; i < p->n_pool; i++) total += p->pool_bytes[i];
    *pooled = total;
    *separate = p->separate_bytes;
}
