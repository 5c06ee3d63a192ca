/* model.c — the model builder, model bookkeeping (parameters, MACs, per-node case ids)
 * and golden evaluation of a whole graph. */
#include "model.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/control.h"
#include "../ops/policy.h"
#include "control_eval.h"
#include "detect.h"

struct cc_model_builder {
    char name[64];
    int n_values, cap_values;
    cc_tensor *values;
    char (*names)[CC_VALUE_NAME_MAX];
    int n_nodes, cap_nodes;
    cc_node *nodes;
    int n_inputs, inputs[CC_MAX_IO];
    int n_outputs, outputs[CC_MAX_IO];
    int n_folded;
    int n_subs;
    cc_graph *subs;        /* the sub-graphs of its control-flow nodes */
    /* per value (cap_values of each): its shape follows the data (a node of data-dependent
     * shape made it, or one reading such a value), and the range of its values where it is a
     * short integer vector computed at run time whose range is known (NULL: none) */
    unsigned char *dyn;
    unsigned char *vary; /* where dyn: bit d set when dim d may differ from the bound (vary_of) */
    struct vrange **range;
};

/* The values of a short integer vector computed at run time: element i lies in [lo[i],
 * hi[i]] (lo == hi: known). */
#define RANGE_MAX (2 * CC_MAX_RANK)
typedef struct vrange {
    int n;
    int64_t lo[RANGE_MAX], hi[RANGE_MAX];
} vrange;

cc_status cc_mb_create(const char *name, cc_model_builder **out, cc_err *err)
{
    cc_model_builder *b = calloc(1, sizeof *b);
    if (!b) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    snprintf(b->name, sizeof b->name, "%s", name);
    *out = b;
    return CC_OK;
}

static void free_values(cc_tensor *values, int n)
{
    for (int i = 0; i < n; i++) cc_tensor_free(&values[i]);
}

void cc_graph_free_contents(cc_graph *g)
{
    if (!g) return;
    free_values(g->values, g->n_values);
    free(g->values);
    free(g->nodes);
    for (int s = 0; s < g->n_subgraphs; s++) cc_graph_free_contents(&g->subgraphs[s]);
    free(g->subgraphs);
    memset(g, 0, sizeof *g);
}

cc_status cc_graph_copy(const cc_graph *src, cc_graph *dst, cc_err *err)
{
    memset(dst, 0, sizeof *dst);
    *dst = *src;
    dst->values = calloc((size_t)src->n_values + 1, sizeof *dst->values);
    dst->nodes = malloc(sizeof *dst->nodes * ((size_t)src->n_nodes + 1));
    dst->subgraphs = calloc((size_t)src->n_subgraphs + 1, sizeof *dst->subgraphs);
    dst->n_values = dst->n_subgraphs = 0;
    cc_status st = CC_OK;
    if (!dst->values || !dst->nodes || !dst->subgraphs) st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < src->n_values && !st; i++, dst->n_values++) {
        dst->values[i] = src->values[i];
        if (!src->values[i].data) continue;
        st = cc_tensor_alloc(&dst->values[i], src->values[i].dtype, &src->values[i].shape, err);
        if (!st) memcpy(dst->values[i].data, src->values[i].data, cc_tensor_bytes(&src->values[i]));
        else dst->values[i].data = NULL;
    }
    if (!st && src->n_nodes) memcpy(dst->nodes, src->nodes, sizeof *dst->nodes * (size_t)src->n_nodes);
    for (int s = 0; s < src->n_subgraphs && !st; s++)
        if (!(st = cc_graph_copy(&src->subgraphs[s], &dst->subgraphs[s], err))) dst->n_subgraphs++;
    if (st) cc_graph_free_contents(dst);
    return st;
}

cc_status cc_mb_copy_subgraphs(cc_model_builder *b, const cc_graph *g, cc_err *err)
{
    if (b->n_subs) return cc_err_set(err, CC_ERR_INTERNAL, "%s: the builder has sub-graphs already", b->name);
    if (!g->n_subgraphs) return CC_OK;
    b->subs = calloc((size_t)g->n_subgraphs, sizeof *b->subs);
    if (!b->subs) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    for (int s = 0; s < g->n_subgraphs; s++) {
        cc_status st = cc_graph_copy(&g->subgraphs[s], &b->subs[s], err);
        if (st) return st;
        b->n_subs++;
    }
    return CC_OK;
}

void cc_mb_destroy(cc_model_builder *b)
{
    if (!b) return;
    free_values(b->values, b->n_values);
    free(b->values);
    free(b->names);
    free(b->nodes);
    for (int s = 0; s < b->n_subs; s++) cc_graph_free_contents(&b->subs[s]);
    free(b->subs);
    for (int i = 0; b->range && i < b->cap_values; i++) free(b->range[i]);
    free(b->range);
    free(b->dyn);
    free(b->vary);
    free(b);
}

cc_status cc_mb_subgraph(cc_model_builder *b, cc_model *sub, int *index, cc_err *err)
{
    cc_graph *subs = realloc(b->subs, sizeof *subs * (size_t)(b->n_subs + 1));
    if (!subs) {
        cc_model_free(sub);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    b->subs = subs;
    b->subs[b->n_subs] = sub->graph;
    memset(&sub->graph, 0, sizeof sub->graph);
    cc_model_free(sub);
    *index = b->n_subs++;
    return CC_OK;
}

static cc_status add_value(cc_model_builder *b, const char *name, const cc_tensor *t, int *v, cc_err *err)
{
    if (b->n_values == b->cap_values) {
        int cap = b->cap_values ? b->cap_values * 2 : 256;
        cc_tensor *vals = realloc(b->values, sizeof *vals * (size_t)cap);
        if (!vals) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        b->values = vals;
        char (*names)[CC_VALUE_NAME_MAX] = realloc(b->names, sizeof *names * (size_t)cap);
        if (!names) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        b->names = names;
        unsigned char *dyn = realloc(b->dyn, (size_t)cap);
        if (!dyn) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        b->dyn = dyn;
        unsigned char *vary = realloc(b->vary, (size_t)cap);
        if (!vary) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        b->vary = vary;
        vrange **range = realloc(b->range, sizeof *range * (size_t)cap);
        if (!range) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        for (int i = b->cap_values; i < cap; i++) range[i] = NULL;
        b->range = range;
        b->cap_values = cap;
    }
    b->dyn[b->n_values] = 0;
    b->vary[b->n_values] = 0;
    b->values[b->n_values] = *t;
    snprintf(b->names[b->n_values], CC_VALUE_NAME_MAX, "%s", name);
    *v = b->n_values++;
    return CC_OK;
}

cc_status cc_mb_input(cc_model_builder *b, const char *name, cc_dtype dt, const cc_shape *s, int *v,
                      cc_err *err)
{
    if (b->n_inputs == CC_MAX_IO) return cc_err_set(err, CC_ERR_ARG, "%s: more than %d graph inputs", b->name, CC_MAX_IO);
    int64_t n;
    cc_status st = cc_shape_numel_checked(s, &n, err);
    if (st) return st;
    cc_tensor t = { .dtype = dt, .shape = *s, .data = NULL };
    st = add_value(b, name, &t, v, err);
    if (st) return st;
    b->inputs[b->n_inputs++] = *v;
    return CC_OK;
}

cc_status cc_mb_const(cc_model_builder *b, const char *name, cc_tensor *t, int *v, cc_err *err)
{
    cc_status st = add_value(b, name, t, v, err);
    if (st) cc_tensor_free(t);
    t->data = NULL;
    return st;
}

/* A node of op named name with attrs and inputs in[0..n_in) (value indices, -1 absent),
 * their descriptions in inp; CC_ERR_ARG for an unknown value or a missing required input. */
static cc_status node_start(const cc_model_builder *b, const cc_op_def *op, const char *name,
                            const cc_attr_value *attrs, int n_in, const int *in, cc_node *node,
                            const cc_tensor **inp, cc_err *err)
{
    memset(node, 0, sizeof *node);
    node->op = op;
    memcpy(node->attrs, attrs, sizeof node->attrs);
    snprintf(node->name, sizeof node->name, "%s", name);
    node->n_in = n_in;
    for (int i = 0; i < n_in; i++) {
        if (in[i] >= b->n_values)
            return cc_err_set(err, CC_ERR_ARG, "node %s: input %d refers to an unknown value", name, i);
        node->in[i] = in[i];
        inp[i] = in[i] >= 0 ? &b->values[in[i]] : NULL;
        if (!inp[i] && !op->inputs[i].optional)
            return cc_err_set(err, CC_ERR_ARG, "node %s: %s input '%s' is required", name, op->name,
                              op->inputs[i].name);
    }
    return CC_OK;
}

/* ---- the values of short integer vectors computed at run time ------------------------------ */

/* The range of value v where known: a short integer constant's own values, or what
 * range_outputs worked out (integers, or integer-valued floats cast from them). 0 when
 * none. */
static int range_of(const cc_model_builder *b, int v, vrange *r)
{
    const cc_tensor *t = &b->values[v];
    if (!t->data) {
        if (!b->range[v]) return 0;
        *r = *b->range[v];
        return 1;
    }
    int64_t n = cc_tensor_numel(t);
    if ((t->dtype != CC_I64 && t->dtype != CC_I32) || n > RANGE_MAX) return 0;
    r->n = (int)n;
    for (int64_t i = 0; i < n; i++)
        r->lo[i] = r->hi[i] = t->dtype == CC_I64 ? ((const int64_t *)t->data)[i] : ((const int32_t *)t->data)[i];
    return 1;
}

/* How an op's outputs follow its inputs' values, for ranges: 1 nondecreasing in every
 * input (selections, Max, Min), 2 the same for inputs >= 0 (Add, Mul, ReduceSum,
 * ReduceProd), 3 nondecreasing in input 0 with the other inputs constant (Sub, and Div by
 * positive constants), 4 a selection from input 0 by constant other inputs, 5 one of
 * inputs 1 and 2 by input 0 (Where: within the union of their ranges); 0 unknown. */
static int range_rule(cc_op_id id)
{
    switch (id) {
    case CC_OP_ID_Concat: case CC_OP_ID_Max: case CC_OP_ID_Min: case CC_OP_ID_Identity: case CC_OP_ID_Cast:
    case CC_OP_ID_ReduceMax: case CC_OP_ID_ReduceMin: return 1;
    case CC_OP_ID_Add: case CC_OP_ID_Mul: case CC_OP_ID_ReduceSum: case CC_OP_ID_ReduceProd: return 2;
    case CC_OP_ID_Sub: case CC_OP_ID_Div: return 3;
    case CC_OP_ID_Gather: case CC_OP_ID_Unsqueeze: case CC_OP_ID_Squeeze: case CC_OP_ID_Reshape:
    case CC_OP_ID_Slice: case CC_OP_ID_Expand: return 4;
    case CC_OP_ID_Where: return 5;
    default: return 0;
    }
}

/* Golden output buffers for outputs outs[0..n_out) (descriptions): 0 on success, -1 out of
 * memory (what was allocated is freed by cc_golden_free). */
static int golden_buffers(cc_golden *go, const cc_tensor *outs, int n_out)
{
    memset(go, 0, sizeof(cc_golden) * CC_MAX_IO);
    for (int j = 0; j < n_out; j++)
        if (cc_golden_alloc(&go[j], &outs[j], NULL)) return -1;
    return 0;
}

/* Evaluates node's golden model on inputs in (data set) into the integer vectors
 * got[j][0..n[j]). 0 on success. */
static int eval_ints(const cc_node *node, const cc_tensor *const *in, int n_out, const cc_tensor *outs,
                     int64_t got[][RANGE_MAX])
{
    cc_golden go[CC_MAX_IO];
    cc_err e = { 0 };
    int bad = golden_buffers(go, outs, n_out);
    if (!bad) bad = node->op->golden(node, in, n_out, go, &e) != CC_OK;
    for (int j = 0; j < n_out && !bad; j++)
        for (int64_t i = 0; i < cc_tensor_numel(&outs[j]); i++) got[j][i] = (int64_t)go[j].value[i];
    cc_golden_free(go, CC_MAX_IO);
    return bad;
}

/* The ranges of node's outputs (just added to b) where they are short integer vectors
 * computed at run time: Shape and Size of a value whose shape follows the data (each dim
 * between 0 and its bound), and the ops of range_rule over inputs of known range, evaluated
 * by their golden models at the inputs' lower and upper ends. */
static void range_outputs(cc_model_builder *b, const cc_node *node)
{
    const cc_op_def *op = node->op;
    const cc_tensor *inp[CC_MAX_IO] = { 0 };
    for (int i = 0; i < node->n_in; i++) inp[i] = node->in[i] >= 0 ? &b->values[node->in[i]] : NULL;
    cc_tensor outs[CC_MAX_IO];
    for (int j = 0; j < node->n_out; j++) {
        outs[j] = b->values[node->out[j]];
        /* integers; or a Cast of integers to float (integer values still: Range's float
           start and limit made from a count) */
        int ints = outs[j].dtype == CC_I64 || outs[j].dtype == CC_I32;
        int cast_of_ints = op->id == CC_OP_ID_Cast && cc_dtype_is_float(outs[j].dtype) && inp[0] &&
                           (inp[0]->dtype == CC_I64 || inp[0]->dtype == CC_I32);
        if (outs[j].data || !(ints || cast_of_ints) || cc_tensor_numel(&outs[j]) > RANGE_MAX) return;
        outs[j].data = NULL;
    }
    int64_t lo[CC_MAX_IO][RANGE_MAX], hi[CC_MAX_IO][RANGE_MAX];
    if (op->id == CC_OP_ID_Shape || op->id == CC_OP_ID_Size) {
        if (!inp[0] || inp[0]->data || !b->dyn[node->in[0]]) return;
        if (eval_ints(node, inp, node->n_out, outs, hi)) return; /* the bound's dims */
        /* a dim that may vary lies in [0, bound], the others are the bound's (vary_of) */
        unsigned char vary = b->vary[node->in[0]];
        int rank = inp[0]->shape.rank;
        int64_t start = 0;
        if (op->id == CC_OP_ID_Shape) {
            start = cc_attr_i(node, "start");
            if (start < 0) start += rank;
            if (start < 0) start = 0;
        }
        for (int64_t i = 0; i < cc_tensor_numel(&outs[0]); i++)
            lo[0][i] = op->id == CC_OP_ID_Size ? (vary ? 0 : hi[0][i]) : (vary >> (start + i) & 1u) ? 0 : hi[0][i];
    } else if (range_rule(op->id) == 5) { /* either value, element by element: the union */
        vrange ra, rb;
        int64_t n = cc_tensor_numel(&outs[0]);
        if (node->n_in != 3 || node->n_out != 1 || !inp[1] || !inp[2] || !range_of(b, node->in[1], &ra) ||
            !range_of(b, node->in[2], &rb) || ra.n != n || rb.n != n)
            return;
        for (int64_t i = 0; i < n; i++) {
            lo[0][i] = ra.lo[i] < rb.lo[i] ? ra.lo[i] : rb.lo[i];
            hi[0][i] = ra.hi[i] > rb.hi[i] ? ra.hi[i] : rb.hi[i];
        }
    } else {
        int rule = range_rule(op->id), any = 0;
        if (!rule) return;
        vrange r[CC_MAX_IO];
        for (int i = 0; i < node->n_in; i++) {
            if (!inp[i]) continue;
            if (!range_of(b, node->in[i], &r[i]) || r[i].n != cc_tensor_numel(inp[i])) return;
            any |= !inp[i]->data;
            if (i > 0 && (rule == 3 || rule == 4) && !inp[i]->data) return; /* constants only */
            for (int k = 0; k < r[i].n; k++) {
                if (rule == 2 && r[i].lo[k] < 0) return;
                if (op->id == CC_OP_ID_Div && i > 0 && r[i].lo[k] <= 0) return;
            }
        }
        if (!any) return;
        /* the inputs at their lower ends, then at their upper ends */
        cc_tensor sub[2][CC_MAX_IO];
        int64_t vals[2][CC_MAX_IO][RANGE_MAX];
        const cc_tensor *in2[2][CC_MAX_IO];
        for (int end = 0; end < 2; end++)
            for (int i = 0; i < node->n_in; i++) {
                in2[end][i] = inp[i];
                if (!inp[i] || inp[i]->data) continue;
                sub[end][i] = *inp[i];
                for (int k = 0; k < r[i].n; k++) {
                    int64_t v = end ? r[i].hi[k] : r[i].lo[k];
                    if (inp[i]->dtype == CC_I32) ((int32_t *)vals[end][i])[k] = (int32_t)v;
                    else if (inp[i]->dtype == CC_I64) vals[end][i][k] = v;
                    else cc_store(vals[end][i], inp[i]->dtype, (size_t)k, (double)v); /* integer-valued floats */
                }
                sub[end][i].data = vals[end][i];
                in2[end][i] = &sub[end][i];
            }
        if (eval_ints(node, in2[0], node->n_out, outs, lo) || eval_ints(node, in2[1], node->n_out, outs, hi)) return;
    }
    for (int j = 0; j < node->n_out; j++) {
        int64_t n = cc_tensor_numel(&outs[j]);
        for (int64_t i = 0; i < n; i++)
            if (lo[j][i] > hi[j][i]) return;
        vrange *r = malloc(sizeof *r);
        if (!r) return; /* no range: the consumer reports it unbounded */
        r->n = (int)n;
        memcpy(r->lo, lo[j], sizeof(int64_t) * (size_t)n);
        memcpy(r->hi, hi[j], sizeof(int64_t) * (size_t)n);
        free(b->range[node->out[j]]);
        b->range[node->out[j]] = r;
    }
}

/* Which dims of output j (description out) of node nd may differ from the bound at run time,
 * as a mask (bit d: dim d), for a node reading values whose shape follows the data or of
 * data-dependent shape itself. Sound by construction: an op without a rule here has every
 * dim vary. The data-dependent ops by what their count sets (NonZero its dim 1, a
 * NonMaxSuppression's selection its dim 0, Compress, TopK and Unique their axis, Unique's
 * other outputs their dim 0); the elementwise family by broadcasting (dim d of the output
 * follows the aligned dims of the inputs); Transpose by its permutation; Slice, with
 * constant bounds, and the unary movers dim by dim; Gather by its data's other dims and its
 * indices' dims; Unsqueeze and Squeeze with constant axes by the dims they keep; Concat by
 * every input (its axis whenever any input's does). */
static unsigned char vary_of(const cc_model_builder *b, const cc_node *nd, const int *in, const cc_tensor *const *inp,
                             int data_dependent, int j, const cc_tensor *out)
{
    int r = out->shape.rank;
    unsigned char all = (unsigned char)(r >= 8 ? 0xff : (1u << r) - 1);
    cc_op_id id = nd->op->id;
    const cc_tensor *x = inp[0];
    unsigned char vx = nd->n_in > 0 && in[0] >= 0 && b->dyn[in[0]] ? b->vary[in[0]] : 0;
    if (data_dependent) {
        if (id == CC_OP_ID_NonZero) return (unsigned char)(r == 2 ? 2 : all);
        if (id == CC_OP_ID_NonMaxSuppression) return 1;
        if (id == CC_OP_ID_Unique) {
            if (j > 0) return 1;
            const cc_attr_value *a = cc_attr_get(nd, "axis");
            if (!a->set) return 1;
            int ax = (int)(a->i < 0 ? a->i + r : a->i);
            return (unsigned char)((ax >= 0 && ax < r ? 1u << ax : all) | vx);
        }
        if (id == CC_OP_ID_Compress || id == CC_OP_ID_TopK) {
            const cc_attr_value *a = cc_attr_get(nd, "axis");
            if (id == CC_OP_ID_Compress && !a->set) return 1;
            int ax = (int)(a->i < 0 ? a->i + r : a->i);
            return (unsigned char)((ax >= 0 && ax < r ? 1u << ax : all) | vx);
        }
        return all;
    }
    if (id == CC_OP_ID_Shape || id == CC_OP_ID_Size) return 0; /* [rank] or a scalar */
    /* infer() is a function of its inputs' shapes and constants: none of those varies, nor
       does the output */
    int any = 0;
    for (int i = 0; i < nd->n_in; i++) any |= inp[i] && in[i] >= 0 && b->dyn[in[i]] && b->vary[in[i]];
    if (!any) return 0;
    if (!strcmp(nd->op->family, "eltwise")) {
        unsigned m = 0;
        for (int i = 0; i < nd->n_in; i++) {
            if (!inp[i] || in[i] < 0 || !b->dyn[in[i]]) continue;
            int ri = inp[i]->shape.rank;
            for (int d = 0; d < ri; d++)
                if (b->vary[in[i]] & (1u << d)) m |= 1u << (d + r - ri);
        }
        return (unsigned char)(m & all);
    }
    switch (id) {
    case CC_OP_ID_Identity: case CC_OP_ID_Dropout: case CC_OP_ID_Softmax: case CC_OP_ID_LogSoftmax:
        return j == 0 && x && x->shape.rank == r ? vx : all;
    case CC_OP_ID_Slice:
        return x && x->shape.rank == r ? vx : all; /* constant bounds: data-dependent otherwise */
    case CC_OP_ID_Transpose: {
        const cc_attr_value *p = cc_attr_get(nd, "perm");
        unsigned m = 0;
        for (int d = 0; d < r; d++) {
            int from = p->set && d < p->n ? (int)p->ints[d] : r - 1 - d;
            if (from < 0 || from >= r) return all;
            if (vx & (1u << from)) m |= 1u << d;
        }
        return (unsigned char)m;
    }
    case CC_OP_ID_Gather: {
        if (!x || nd->n_in < 2 || !inp[1]) return all;
        int xr = x->shape.rank, qr = inp[1]->shape.rank;
        int ax = (int)cc_attr_i(nd, "axis");
        if (ax < 0) ax += xr;
        if (ax < 0 || ax >= xr || xr - 1 + qr != r) return all;
        unsigned char vq = in[1] >= 0 && b->dyn[in[1]] ? b->vary[in[1]] : 0;
        unsigned m = 0;
        for (int d = 0; d < ax; d++) m |= (vx >> d & 1u) << d;
        for (int d = 0; d < qr; d++) m |= (vq >> d & 1u) << (ax + d);
        for (int d = ax + 1; d < xr; d++) m |= (vx >> d & 1u) << (d - 1 + qr);
        return (unsigned char)m;
    }
    case CC_OP_ID_Unsqueeze: case CC_OP_ID_Squeeze: {
        /* the dims kept, in order: an output dim of the input's size-1... mapping by skipping
           the axes (constant: else the op is data-dependent) */
        if (!x || nd->n_in < 2 || !inp[1] || !inp[1]->data) return all;
        int64_t n_ax = cc_tensor_numel(inp[1]);
        int big = id == CC_OP_ID_Unsqueeze ? r : x->shape.rank;
        unsigned char is_axis[CC_MAX_RANK] = { 0 };
        for (int64_t k = 0; k < n_ax; k++) {
            int64_t a = cc_load_i64(inp[1]->data, inp[1]->dtype, (size_t)k);
            if (a < 0) a += big;
            if (a < 0 || a >= big) return all;
            is_axis[a] = 1;
        }
        unsigned m = 0;
        for (int d = 0, src = 0, dst = 0; d < big; d++) {
            if (is_axis[d]) { /* a dim of 1 inserted (fixed) or removed */
                if (id == CC_OP_ID_Unsqueeze) dst++;
                else src++;
                continue;
            }
            if (vx & (1u << src)) m |= 1u << dst;
            src++, dst++;
        }
        return (unsigned char)(m & all);
    }
    case CC_OP_ID_Concat: {
        int ax = (int)cc_attr_i(nd, "axis");
        if (ax < 0) ax += r;
        unsigned m = 0;
        for (int i = 0; i < nd->n_in; i++) {
            if (!inp[i] || in[i] < 0 || !b->dyn[in[i]]) continue;
            if (inp[i]->shape.rank != r) return all;
            m |= b->vary[in[i]];
        }
        return (unsigned char)(m & all);
    }
    default: return all;
    }
}

cc_status cc_mb_node_values(cc_model_builder *b, const cc_op_def *op, const char *name,
                            const cc_attr_value *attrs, int n_in, const int *in, int n_out, int *out,
                            const char *const *out_names, cc_err *err)
{
    if (n_in > op->n_inputs || n_in > CC_MAX_IO)
        return cc_err_set(err, CC_ERR_ARG, "node %s: %s takes at most %d inputs, got %d", name, op->name,
                          op->n_inputs, n_in);
    if (n_out < op->min_outputs || n_out > op->max_outputs)
        return cc_err_set(err, CC_ERR_ARG, "node %s: %s has %d to %d outputs, got %d", name, op->name,
                          op->min_outputs, op->max_outputs, n_out);
    cc_node node;
    const cc_tensor *inp[CC_MAX_IO] = { 0 };
    cc_status st = node_start(b, op, name, attrs, n_in, in, &node, inp, err);
    if (st) return st;
    node.n_out = n_out;
    cc_tensor outs[CC_MAX_IO];
    memset(outs, 0, sizeof outs);
    cc_err e = { 0 };
    /* shape inputs computed at run time whose values have known ranges: the outputs'
       shapes at the ranges' ends bound them */
    vrange r[CC_MAX_IO];
    const int64_t *rlo[CC_MAX_IO] = { 0 }, *rhi[CC_MAX_IO] = { 0 };
    int bounded = cc_op_runtime_shape_input(op, n_in, inp) >= 0;
    for (int i = 0; bounded && i < n_in; i++) {
        if (!inp[i] || inp[i]->data || !cc_op_shape_input(op, i)) continue;
        bounded = range_of(b, in[i], &r[i]) && r[i].n == cc_tensor_numel(inp[i]);
        rlo[i] = r[i].lo;
        rhi[i] = r[i].hi;
    }
    if (bounded)
        st = cc_op_infer_bound(&node, inp, rlo, rhi, n_out, outs, &e);
    else if (cc_op_has_trait(op, CC_TRAIT_SUBGRAPH))
        st = cc_control_infer(&node, b->subs, b->n_subs, inp, n_out, outs, &e);
    else st = op->infer(&node, inp, n_out, outs, &e);
    if (st) return cc_err_set(err, st, "node %s: %s", name, e.msg);
    int dyn = cc_op_dynamic_shape(op, n_in, inp); /* or reads a value whose shape follows the data */
    for (int i = 0; i < n_in; i++) dyn |= in[i] >= 0 && b->dyn[in[i]];
    /* which dims may vary, before add_value moves the values inp points into */
    unsigned char vary[CC_MAX_IO] = { 0 };
    int data_dependent = cc_op_dynamic_shape(op, n_in, inp) || cc_op_has_trait(op, CC_TRAIT_SUBGRAPH);
    for (int j = 0; j < n_out && dyn; j++) vary[j] = vary_of(b, &node, in, inp, data_dependent, j, &outs[j]);
    for (int j = 0; j < n_out; j++) {
        char vname[CC_VALUE_NAME_MAX];
        if (out_names && out_names[j]) snprintf(vname, sizeof vname, "%s", out_names[j]);
        else snprintf(vname, sizeof vname, "%s:%d", name, j);
        outs[j].data = NULL;
        st = add_value(b, vname, &outs[j], &node.out[j], err);
        if (st) return st;
        b->dyn[node.out[j]] = (unsigned char)dyn;
        b->vary[node.out[j]] = vary[j];
        out[j] = node.out[j];
    }
    range_outputs(b, &node);
    if (b->n_nodes == b->cap_nodes) {
        int cap = b->cap_nodes ? b->cap_nodes * 2 : 128;
        cc_node *nodes = realloc(b->nodes, sizeof *nodes * (size_t)cap);
        if (!nodes) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        b->nodes = nodes;
        b->cap_nodes = cap;
    }
    b->nodes[b->n_nodes++] = node;
    return CC_OK;
}

/* A value computed at run time whose values are known at import (a range with lo == hi:
 * the fixed dim of a Shape, a Gather of it) as a constant tensor in *t (free it); 0 when it
 * has none. */
static int exact_value(const cc_model_builder *b, int v, cc_tensor *t)
{
    vrange r;
    const cc_tensor *d = &b->values[v];
    if (!range_of(b, v, &r) || r.n != cc_tensor_numel(d)) return 0;
    for (int k = 0; k < r.n; k++)
        if (r.lo[k] != r.hi[k]) return 0;
    if (cc_tensor_alloc(t, d->dtype, &d->shape, NULL)) return 0;
    for (int k = 0; k < r.n; k++) {
        if (d->dtype == CC_I64) ((int64_t *)t->data)[k] = r.lo[k];
        else cc_store(t->data, d->dtype, (size_t)k, (double)r.lo[k]); /* i32, or integers cast to float */
    }
    return 1;
}

static cc_status fold_now(cc_model_builder *b, const cc_op_def *op, const char *name, cc_node *nodep,
                          const cc_tensor *const *inp, int reads_shape, int has_data_input, int n_out, int *out,
                          const char *const *out_names, int *folded, cc_err *err);

cc_status cc_mb_fold_node(cc_model_builder *b, const cc_op_def *op, const char *name, const cc_attr_value *attrs,
                          int n_in, const int *in, int n_out, int *out, const char *const *out_names, int *folded,
                          cc_err *err)
{
    *folded = 0;
    if (n_in > op->n_inputs || n_in > CC_MAX_IO || n_out < op->min_outputs || n_out > op->max_outputs)
        return CC_OK; /* cc_mb_node_values reports it */
    int reads_shape = op->id == CC_OP_ID_Shape || op->id == CC_OP_ID_Size, has_data_input = 0;
    for (int i = 0; i < op->n_inputs; i++) has_data_input |= op->inputs[i].role == CC_IN_DATA;
    cc_node node;
    const cc_tensor *inp[CC_MAX_IO] = { 0 };
    cc_err e0;
    if (node_start(b, op, name, attrs, n_in, in, &node, inp, &e0)) return CC_OK; /* cc_mb_node_values reports it */
    node.n_out = n_out;
    /* the shape of a value that follows the data, where a dim of it may vary */
    if (reads_shape && in[0] >= 0 && b->dyn[in[0]] && b->vary[in[0]]) return CC_OK;
    /* inputs computed at run time: only those whose values are known at import */
    cc_tensor known[CC_MAX_IO];
    memset(known, 0, sizeof known);
    cc_status st = CC_OK;
    int foldable = 1;
    for (int i = 0; i < n_in && foldable; i++)
        if (inp[i] && !inp[i]->data && !(reads_shape && i == 0)) {
            foldable = exact_value(b, in[i], &known[i]);
            inp[i] = &known[i];
        }
    if (foldable) st = fold_now(b, op, name, &node, inp, reads_shape, has_data_input, n_out, out, out_names, folded, err);
    for (int i = 0; i < n_in; i++) cc_tensor_free(&known[i]);
    return st;
}

/* Folds node (its inputs inp, constants) into constants where its outputs are small and,
 * for float outputs of a data op, exact (cc_mb_fold_node). */
static cc_status fold_now(cc_model_builder *b, const cc_op_def *op, const char *name, cc_node *nodep,
                          const cc_tensor *const *inp, int reads_shape, int has_data_input, int n_out, int *out,
                          const char *const *out_names, int *folded, cc_err *err)
{
    cc_node node = *nodep;
    cc_tensor outs[CC_MAX_IO];
    memset(outs, 0, sizeof outs);
    cc_err e = { 0 };
    if (op->infer(&node, inp, n_out, outs, &e)) return CC_OK; /* cc_mb_node_values reports it */
    int64_t total = 0;
    int float_out = 0; /* float arithmetic of a data op: folded only small and exact */
    for (int j = 0; j < n_out; j++) {
        total += cc_tensor_numel(&outs[j]);
        float_out |= !reads_shape && has_data_input && cc_dtype_is_float(outs[j].dtype);
    }
    if (total > (float_out ? CC_MB_FOLD_FLOAT_MAX : CC_MB_FOLD_MAX)) return CC_OK;
    cc_golden go[CC_MAX_IO];
    cc_status st = golden_buffers(go, outs, n_out) ? cc_err_set(err, CC_ERR_NOMEM, "out of memory") : CC_OK;
    if (!st && (st = op->golden(&node, inp, n_out, go, &e))) {
        if (float_out) { /* not folded: the node reports it */
            cc_golden_free(go, CC_MAX_IO);
            return CC_OK;
        }
        st = cc_err_set(err, st, "node %s: folding %s: %s", name, op->name, e.msg);
    }
    /* a float result folds only where its dtype holds the exact value (the image-size
       arithmetic of a detector's resize: Div, Ceil, Mul of small integers), so the
       constant is what any correctly rounded target computes */
    for (int j = 0; j < n_out && !st && float_out; j++) {
        if (!cc_dtype_is_float(go[j].dtype)) continue;
        for (int64_t i = 0; i < cc_tensor_numel(&outs[j]); i++) {
            double v = go[j].value[i], back;
            uint64_t cell = 0;
            cc_store(&cell, go[j].dtype, 0, v);
            back = cc_load(&cell, go[j].dtype, 0);
            if (!(back == v)) {
                cc_golden_free(go, CC_MAX_IO);
                return CC_OK;
            }
        }
    }
    for (int j = 0; j < n_out && !st; j++) {
        cc_tensor t = { 0 };
        if ((st = cc_tensor_alloc(&t, outs[j].dtype, &outs[j].shape, err))) break;
        int64_t n = cc_tensor_numel(&t);
        for (int64_t i = 0; i < n; i++) cc_golden_store(&go[j], t.data, i);
        char vname[CC_VALUE_NAME_MAX];
        if (out_names && out_names[j]) snprintf(vname, sizeof vname, "%s", out_names[j]);
        else snprintf(vname, sizeof vname, "%s:%d", name, j);
        st = cc_mb_const(b, vname, &t, &out[j], err);
    }
    cc_golden_free(go, CC_MAX_IO);
    if (!st) {
        *folded = 1;
        b->n_folded++;
    }
    return st;
}

cc_status cc_mb_node(cc_model_builder *b, const char *op_name, const char *name, const char *attrs,
                     int n_in, const int *in, int n_out, int *out, const char *const *out_names,
                     cc_err *err)
{
    const cc_op_def *op = cc_catalog_find(op_name);
    if (!op) return cc_err_set(err, CC_ERR_ARG, "node %s: op '%s' is not in the catalog", name, op_name);
    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = op;
    cc_status st = cc_node_set_defaults(&tmp, err);
    if (st) return st;
    /* attributes: name=value items separated by top-level commas (outside brackets and
       quoted strings) */
    const char *p = attrs ? attrs : "";
    while (*p) {
        const char *q = cc_attr_text_end(p, p + strlen(p), ",");
        char item[512];
        size_t len = (size_t)(q - p);
        if (len == 0 || len >= sizeof item)
            return cc_err_set(err, CC_ERR_ARG, "node %s: malformed attributes '%s'", name, attrs);
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (!eq) return cc_err_set(err, CC_ERR_ARG, "node %s: expected name=value, got '%s'", name, item);
        *eq = '\0';
        int a = cc_attr_index(op, item);
        if (a < 0) return cc_err_set(err, CC_ERR_ARG, "node %s: %s has no attribute '%s'", name, op->name, item);
        cc_err e;
        if (cc_attr_parse(op->attrs[a].kind, eq + 1, &tmp.attrs[a], &e))
            return cc_err_set(err, CC_ERR_ARG, "node %s: attribute %s: %s", name, item, e.msg);
        p = *q ? q + 1 : q;
    }
    return cc_mb_node_values(b, op, name, tmp.attrs, n_in, in, n_out, out, out_names, err);
}

cc_status cc_mb_order_inputs(cc_model_builder *b, int n, const int *v, cc_err *err)
{
    if (n != b->n_inputs) return cc_err_set(err, CC_ERR_INTERNAL, "%s: %d inputs ordered, the graph has %d", b->name, n, b->n_inputs);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < n && !found; j++) found = b->inputs[j] == v[i];
        for (int j = 0; j < i && found; j++) found = v[j] != v[i];
        if (!found) return cc_err_set(err, CC_ERR_INTERNAL, "%s: the inputs ordered are not the graph's", b->name);
    }
    memcpy(b->inputs, v, sizeof(int) * (size_t)n);
    return CC_OK;
}

cc_status cc_mb_output(cc_model_builder *b, int v, cc_err *err)
{
    if (v < 0 || v >= b->n_values) return cc_err_set(err, CC_ERR_ARG, "%s: output refers to an unknown value", b->name);
    if (b->n_outputs == CC_MAX_IO) return cc_err_set(err, CC_ERR_ARG, "%s: more than %d graph outputs", b->name, CC_MAX_IO);
    b->outputs[b->n_outputs++] = v;
    return CC_OK;
}

cc_status cc_mb_narrow(cc_model_builder *b, int v, const cc_shape *s, cc_err *err)
{
    if (v < 0 || v >= b->n_values || b->values[v].data)
        return cc_err_set(err, CC_ERR_INTERNAL, "%s: narrowing a value that is no computed value", b->name);
    cc_tensor *t = &b->values[v];
    int ok = s->rank == t->shape.rank;
    for (int d = 0; ok && d < s->rank; d++) ok = s->dims[d] >= 0 && s->dims[d] <= t->shape.dims[d];
    if (!ok) {
        char a[96], c[96];
        return cc_err_set(err, CC_ERR_ARG, "%s: value %s is declared %s, outside its bound %s", b->name, b->names[v],
                          cc_shape_format(s, a, sizeof a), cc_shape_format(&t->shape, c, sizeof c));
    }
    t->shape = *s;
    return CC_OK;
}

const cc_tensor *cc_mb_value(const cc_model_builder *b, int v)
{
    return v >= 0 && v < b->n_values ? &b->values[v] : NULL;
}

cc_status cc_mb_finish(cc_model_builder *b, cc_model_task task, int n_classes, cc_model **out, cc_err *err)
{
    cc_status st = CC_OK;
    cc_model *m = NULL;
    if (b->n_outputs == 0) {
        st = cc_err_set(err, CC_ERR_ARG, "%s: the model has no output", b->name);
        goto done;
    }
    m = calloc(1, sizeof *m);
    if (!m) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto done;
    }
    snprintf(m->name, sizeof m->name, "%s", b->name);
    m->task = task;
    m->n_classes = n_classes;
    m->n_folded = b->n_folded;
    m->graph.n_values = b->n_values;
    m->graph.values = b->values;
    m->graph.n_nodes = b->n_nodes;
    m->graph.nodes = b->nodes;
    m->graph.n_inputs = b->n_inputs;
    memcpy(m->graph.inputs, b->inputs, sizeof b->inputs);
    m->graph.n_outputs = b->n_outputs;
    memcpy(m->graph.outputs, b->outputs, sizeof b->outputs);
    m->graph.n_subgraphs = b->n_subs;
    m->graph.subgraphs = b->subs;
    b->n_subs = 0;
    b->subs = NULL;
    m->value_names = b->names;
    b->values = NULL;
    b->names = NULL;
    b->nodes = NULL;
    b->n_values = 0;
    m->det_out[0] = m->det_out[1] = m->det_out[2] = -1;
    if (m->task == CC_TASK_DETECTIONS && !cc_detect_outputs_find(&m->graph, m->det_out))
        m->task = CC_TASK_GENERIC;
    *out = m;
done:
    cc_mb_destroy(b);
    return st;
}

void cc_model_free(cc_model *m)
{
    if (!m) return;
    cc_graph_free_contents(&m->graph);
    free(m->value_names);
    free(m);
}

int cc_model_find_value(const cc_model *m, const char *name)
{
    for (int i = 0; i < m->graph.n_values; i++)
        if (strcmp(m->value_names[i], name) == 0) return i;
    return -1;
}

/* A constant counts as a parameter when some node reads it as an ordinary data input,
 * except BatchNormalization's running mean and variance (statistics, not trained
 * parameters, as frameworks count them), int64 shape-like tensors, and constants named
 * "buffer.*" (fixed tensors such as a detector's grids and anchors). */
double cc_model_params(const cc_model *m)
{
    const cc_graph *g = &m->graph;
    unsigned char *counted = calloc((size_t)g->n_values + 1, 1);
    if (!counted) return 0;
    double n = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            int v = nd->in[i];
            if (v < 0 || !g->values[v].data || counted[v]) continue;
            if (nd->op->inputs[i].role != CC_IN_DATA) continue;
            if (g->values[v].dtype == CC_I64) continue;
            if (strncmp(m->value_names[v], "buffer.", 7) == 0) continue; /* decode grids, anchors */
            if (nd->op->id == CC_OP_ID_BatchNormalization && i >= 3) continue;
            counted[v] = 1;
            n += (double)cc_tensor_numel(&g->values[v]);
        }
    }
    free(counted);
    return n;
}

double cc_model_macs(const cc_model *m)
{
    const cc_graph *g = &m->graph;
    double total = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        const cc_tensor *in[CC_MAX_IO] = { 0 };
        for (int i = 0; i < nd->n_in; i++) in[i] = nd->in[i] >= 0 ? &g->values[nd->in[i]] : NULL;
        double flops = 0, bytes = 0;
        if (nd->op->cost) nd->op->cost(nd, in, nd->n_out, &g->values[nd->out[0]], &flops, &bytes);
        total += flops;
    }
    return total / 2;
}

/* Whether any element of t is non-zero (0 when t holds no data). */
static int any_nonzero(const cc_tensor *t)
{
    int64_t cnt = t->data ? cc_tensor_numel(t) : 0;
    for (int64_t e = 0; e < cnt; e++)
        if (cc_load(t->data, t->dtype, (size_t)e) != 0) return 1;
    return 0;
}

/* The knobs of node nd's op (the case-generator settings a case id carries beside the
 * ONNX attributes), read off the node's generated inputs (scales, zero points), whose
 * values a case id does not carry: the case draws its own, of the same kind.
 *  - per_channel, per_axis, per_column: 1 when a generated scale has more than one
 *    element;
 *  - zp: 1 when a zero point is given; x_zp, w_zp: 1 when x's / w's zero point is
 *    non-zero;
 *  - to: the output's dtype;
 *  - outputs: how many outputs the node asks for (MaxPool's Indices, LayerNormalization's
 *    Mean and InvStdDev, ...).
 * A knob is set only where its value differs from its default (the case id stays the
 * one a sweep would write); other knobs keep their defaults. */
static void infer_knobs(const cc_graph *g, const cc_node *nd, cc_attr_value *attrs)
{
    const cc_op_def *op = nd->op;
    int vector_scale = 0, zp_given = 0;
    const cc_tensor *xz = NULL, *wz = NULL;
    for (int i = 0; i < nd->n_in; i++) {
        if (nd->in[i] < 0 || op->inputs[i].role != CC_IN_GEN) continue;
        const cc_tensor *t = &g->values[nd->in[i]];
        const char *name = op->inputs[i].name;
        if (strstr(name, "scale") && cc_tensor_numel(t) > 1) vector_scale = 1;
        if (strstr(name, "zero_point")) zp_given = 1;
        if (!strcmp(name, "x_zero_point")) xz = t;
        if (!strcmp(name, "w_zero_point")) wz = t;
    }
    for (int a = 0; a < op->n_attrs; a++) {
        const cc_attr_def *d = &op->attrs[a];
        if (!d->knob) continue;
        cc_attr_value v;
        memset(&v, 0, sizeof v);
        v.set = 1;
        if (!strcmp(d->name, "per_channel") || !strcmp(d->name, "per_axis") || !strcmp(d->name, "per_column"))
            v.i = vector_scale;
        else if (!strcmp(d->name, "zp"))
            v.i = zp_given;
        else if (!strcmp(d->name, "x_zp"))
            v.i = xz && any_nonzero(xz);
        else if (!strcmp(d->name, "w_zp"))
            v.i = wz && any_nonzero(wz);
        else if (!strcmp(d->name, "outputs")) {
            if (!op->count_outputs || nd->n_out == op->count_outputs(nd)) continue; /* the op's default count */
            v.i = nd->n_out;
        } else if (!strcmp(d->name, "to") && nd->n_out > 0) {
            cc_dtype out = g->values[nd->out[0]].dtype, first = nd->n_in > 0 && nd->in[0] >= 0 ? g->values[nd->in[0]].dtype : out;
            if (!d->def && out == first) continue;
            snprintf(v.s, sizeof v.s, "%s", cc_dtype_name(out));
        } else
            continue;
        cc_attr_value dv;
        if (d->def && cc_attr_parse(d->kind, d->def, &dv, NULL) == CC_OK && cc_attr_equal(d->kind, &dv, &v)) continue;
        attrs[a] = v;
    }
}

cc_status cc_model_node_case_id(const cc_model *m, int k, char *buf, size_t n, cc_err *err)
{
    const cc_graph *g = &m->graph;
    const cc_node *nd = &g->nodes[k];
    const cc_op_def *op = nd->op;
    if (cc_op_has_trait(op, CC_TRAIT_SUBGRAPH)) {
        snprintf(buf, n, "%s runs sub-graphs", op->name);
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s runs sub-graphs, which a case id cannot write", op->name);
    }
    size_t len = (size_t)snprintf(buf, n, "%s(", op->name);
    int first = 1, ok = 1;
    cc_dtype first_dt = CC_DTYPE_COUNT;
    cc_attr_value attrs[CC_MAX_ATTRS];
    memcpy(attrs, nd->attrs, sizeof attrs);
    for (int i = 0; i < nd->n_in && len < n; i++) {
        if (nd->in[i] < 0) continue;
        const cc_tensor *t = &g->values[nd->in[i]];
        const cc_io_def *io = &op->inputs[i];
        if (io->role == CC_IN_DATA) {
            char dims[160];
            cc_shape_format(&t->shape, dims, sizeof dims);
            if (first_dt == CC_DTYPE_COUNT || t->dtype != first_dt)
                len += (size_t)snprintf(buf + len, n - len, "%s%s=%s:%s", first ? "" : ",", io->name, dims,
                                        cc_dtype_name(t->dtype));
            else
                len += (size_t)snprintf(buf + len, n - len, ",%s=%s", io->name, dims);
            if (first_dt == CC_DTYPE_COUNT) first_dt = t->dtype;
            first = 0;
        } else if (io->role == CC_IN_ATTR && t->data) {
            int a = -1;
            for (int j = 0; j < op->n_attrs; j++)
                if (op->attrs[j].input == i && !op->attrs[j].knob) a = j;
            if (a < 0) {
                ok = 0;
                continue;
            }
            cc_attr_value *v = &attrs[a];
            memset(v, 0, sizeof *v);
            v->set = 1;
            int64_t cnt = cc_tensor_numel(t);
            if (op->attrs[a].kind == CC_ATTR_INT) v->i = cc_load_i64(t->data, t->dtype, 0);
            else if (op->attrs[a].kind == CC_ATTR_FLOAT) v->f = cc_load(t->data, t->dtype, 0);
            else if (cnt > CC_MAX_INTS) ok = 0;
            else {
                v->n = (int)cnt;
                for (int64_t e = 0; e < cnt; e++) {
                    v->ints[e] = t->dtype == CC_I64 ? ((const int64_t *)t->data)[e] : cc_load_i64(t->data, t->dtype, (size_t)e);
                    v->floats[e] = cc_load(t->data, t->dtype, (size_t)e);
                }
            }
        }
    }
    infer_knobs(g, nd, attrs);
    for (int a = 0; a < op->n_attrs && len < n; a++) {
        if (!attrs[a].set) continue;
        cc_attr_value dv;
        if (op->attrs[a].def && cc_attr_parse(op->attrs[a].kind, op->attrs[a].def, &dv, NULL) == CC_OK &&
            cc_attr_equal(op->attrs[a].kind, &dv, &attrs[a]))
            continue;
        char v[CC_CASE_ID_MAX];
        cc_attr_format(op->attrs[a].kind, &attrs[a], v, sizeof v);
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", first ? "" : ",", op->attrs[a].name, v);
        first = 0;
    }
    if (len < n) snprintf(buf + len, n - len, ")");
    if (!ok) return cc_err_set(err, CC_ERR_UNSUPPORTED, "node %s has inputs a case id cannot express", nd->name);
    return CC_OK;
}

/* ---- golden evaluation --------------------------------------------------------------- */

double cc_golden_bound(const cc_graph *g, int k, const cc_golden *go, int64_t i)
{
    const cc_node *nd = &g->nodes[k];
    cc_dtype case_dt = nd->n_in > 0 && nd->in[0] >= 0 ? g->values[nd->in[0]].dtype : go->dtype;
    const cc_tol *tol = cc_policy_of(nd->op, case_dt);
    if (!tol) return 0;
    if (!cc_dtype_is_float(go->dtype)) return tol->atol;
    double u = cc_dtype_unit_roundoff(cc_dtype_is_float(case_dt) ? case_dt : CC_F32);
    double gamma = tol->sqrt_gamma ? sqrt(go->k) : go->k;
    return tol->atol + tol->c * gamma * u * go->mag[i] + tol->r * cc_dtype_unit_roundoff(go->dtype) * fabs(go->value[i]) +
           cc_dtype_min_subnormal(go->dtype) / 2;
}

int cc_golden_int_range(const cc_graph *g, int k, const cc_golden *go, int64_t i, double factor, double *lo, double *hi)
{
    if (!go->real || cc_dtype_is_float(go->dtype)) return -1;
    const cc_node *nd = &g->nodes[k];
    cc_dtype case_dt = nd->n_in > 0 && nd->in[0] >= 0 ? g->values[nd->in[0]].dtype : go->dtype;
    const cc_tol *tol = cc_policy_of(nd->op, case_dt);
    double u = cc_dtype_unit_roundoff(cc_dtype_is_float(case_dt) ? case_dt : CC_F32);
    double gamma = tol && tol->sqrt_gamma ? sqrt(go->k) : go->k;
    cc_tol_int_range(tol, tol ? factor * tol->c * gamma * u * go->mag[i] : 0, go->real[i], go->dtype, lo, hi);
    return 0;
}

void cc_model_eval_free(cc_model_eval *e)
{
    if (!e) return;
    for (int i = 0; i < e->n_values; i++) {
        if (e->err) free(e->err[i]);
        if (e->prop) free(e->prop[i]);
    }
    free(e->err);
    free(e->prop);
    if (e->vals) {
        for (int i = 0; i < e->n_values; i++) cc_tensor_free(&e->vals[i]);
        free(e->vals);
    }
    if (e->gold) {
        for (int k = 0; k < e->n_nodes; k++) cc_golden_free(&e->gold[k * CC_MAX_IO], CC_MAX_IO);
        free(e->gold);
    }
    memset(e, 0, sizeof *e);
}

/* go[0..n_out-1] allocated at odesc's shapes (the caller frees them with cc_golden_free,
 * also on failure). */
static cc_status golden_alloc(const cc_node *nd, const cc_tensor *odesc, cc_golden *go, cc_err *err)
{
    memset(go, 0, sizeof(cc_golden) * CC_MAX_IO);
    for (int j = 0; j < nd->n_out; j++) {
        cc_status st = cc_golden_alloc(&go[j], &odesc[j], err);
        if (st) return st;
    }
    return CC_OK;
}

/* Golden outputs of node nd on inputs inp into go[0..n_out-1], allocated at odesc's
 * shapes (the caller frees them with cc_golden_free, also on failure). */
static cc_status node_golden(const cc_node *nd, const cc_tensor **inp, const cc_tensor *odesc, cc_golden *go,
                             cc_err *err)
{
    cc_status st = golden_alloc(nd, odesc, go, err);
    if (st) return st;
    cc_err e2 = { 0 };
    st = nd->op->golden(nd, inp, nd->n_out, go, &e2);
    if (st) return cc_err_set(err, st, "golden model of node %s: %s", nd->name, e2.msg);
    return CC_OK;
}

/* Control-flow node k (CC_TRAIT_SUBGRAPH): its sub-graphs evaluated (models/control_eval.c)
 * into go, allocated here at odesc; with CC_EVAL_PROPAGATE, e->err of its float outputs is
 * their own bound (a copy's) plus what the sub-graphs pass on, which is also e->prop. */
static cc_status control_golden(const cc_graph *g, int k, const cc_tensor **inp, const cc_tensor *odesc, cc_golden *go,
                                cc_model_eval *e, cc_err *err)
{
    const cc_node *nd = &g->nodes[k];
    cc_status st = golden_alloc(nd, odesc, go, err);
    if (st) return st;
    double *in_err[CC_MAX_IO] = { 0 }, *out_err[CC_MAX_IO] = { 0 };
    for (int i = 0; e->err && i < nd->n_in; i++)
        if (nd->in[i] >= 0) in_err[i] = e->err[nd->in[i]];
    cc_err e2 = { 0 };
    st = cc_control_evaluate(g, k, inp, in_err, go, e->err ? out_err : NULL, &e2);
    if (st) {
        for (int j = 0; j < CC_MAX_IO; j++) free(out_err[j]);
        return cc_err_set(err, st, "golden model of node %s: %s", nd->name, e2.msg);
    }
    for (int j = 0; j < nd->n_out; j++) {
        int v = nd->out[j];
        if (!out_err[j]) continue;
        int64_t n = cc_shape_numel(&go[j].shape);
        e->err[v] = out_err[j];
        e->prop[v] = malloc(sizeof(double) * (size_t)(n ? n : 1));
        if (!e->prop[v]) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        for (int64_t q = 0; q < n; q++) {
            e->prop[v][q] = out_err[j][q];
            e->err[v][q] += cc_golden_bound(g, k, &go[j], q);
        }
    }
    return CC_OK;
}

/* The perturbation's scale: h = PROP_LAMBDA * err is thousands of units in the last place of
 * the input (err is at least the producer's rounding), so storing x + s*h in the input's
 * dtype keeps the step to within a part in a thousand, and still small enough for the
 * first-order (linear) response of a smooth op. */
#define PROP_LAMBDA 4096.0

/* e->err and e->prop of node k's float outputs (CC_EVAL_PROPAGATE): see model.h. */
static cc_status propagate(const cc_graph *g, int k, const cc_tensor **inp, const cc_tensor *odesc, cc_model_eval *e,
                           cc_err *err)
{
    const cc_node *nd = &g->nodes[k];
    const cc_golden *go = &e->gold[k * CC_MAX_IO];
    cc_status st = CC_OK;
    for (int j = 0; j < nd->n_out; j++) {
        if (!cc_dtype_is_float(go[j].dtype)) continue;
        int64_t n = cc_shape_numel(&go[j].shape);
        int v = nd->out[j];
        e->err[v] = calloc((size_t)(n ? n : 1), sizeof(double));
        e->prop[v] = calloc((size_t)(n ? n : 1), sizeof(double));
        if (!e->err[v] || !e->prop[v]) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    /* an output whose shape follows the data has no first-order neighbourhood; integer
     * outputs carry no bound to propagate */
    int skip = cc_node_dynamic_shape(g, nd), any_float = 0;
    for (int j = 0; j < nd->n_out; j++) any_float |= e->prop[nd->out[j]] != NULL;
    for (int i = 0; i < nd->n_in && !skip && any_float; i++) {
        int v = nd->in[i];
        if (v < 0 || !e->err[v] || nd->op->inputs[i].role != CC_IN_DATA || !cc_dtype_is_float(inp[i]->dtype)) continue;
        const cc_tensor *x = inp[i];
        int64_t nx = cc_tensor_numel(x);
        if (nx != cc_tensor_numel(&e->vals[v])) continue;
        cc_tensor xp;
        if ((st = cc_tensor_alloc(&xp, x->dtype, &x->shape, err))) return st;
        const cc_tensor *pin[CC_MAX_IO];
        memcpy(pin, inp, sizeof pin);
        pin[i] = &xp;
        for (int t = 0; t < 4; t++) {
            /* a step the op refuses (a root or logarithm pushed below zero, a cast out of
             * range) is retried smaller; one refused down to a unit step adds nothing, which
             * can only make the bound tighter */
            for (double lambda = PROP_LAMBDA; lambda >= 1; lambda /= 64) {
                uint32_t r = 0x9e3779b9u ^ (uint32_t)(k * 31 + i);
                for (int64_t q = 0; q < nx; q++) {
                    r = r * 1664525u + 1013904223u;
                    double s = t == 0 ? 1 : t == 1 ? -1 : (r >> 31) ? 1 : -1;
                    if (t == 3) s = -s;
                    double xv = cc_load(x->data, x->dtype, (size_t)q);
                    cc_store(xp.data, xp.dtype, (size_t)q, xv + s * lambda * e->err[v][q]);
                }
                cc_golden gp[CC_MAX_IO];
                cc_err e3 = { 0 };
                cc_status sp = node_golden(nd, pin, odesc, gp, &e3);
                if (sp == CC_ERR_NOMEM) st = cc_err_set(err, sp, "%s", e3.msg);
                for (int j = 0; j < nd->n_out && !sp; j++) {
                    int w = nd->out[j];
                    if (!e->prop[w]) continue;
                    int64_t n = cc_shape_numel(&go[j].shape);
                    double *acc = e->err[w]; /* this input's response, summed into prop below */
                    for (int64_t q = 0; q < n; q++) {
                        /* a non-finite response (an overflow, inf - inf) bounds nothing */
                        double d = fabs(gp[j].value[q] - go[j].value[q]) / lambda;
                        if (isfinite(d) && d > acc[q]) acc[q] = d;
                    }
                }
                cc_golden_free(gp, CC_MAX_IO);
                if (!sp || st) break;
            }
            if (st) break;
        }
        cc_tensor_free(&xp);
        for (int j = 0; j < nd->n_out && !st; j++) {
            int w = nd->out[j];
            if (!e->prop[w]) continue;
            int64_t n = cc_shape_numel(&go[j].shape);
            for (int64_t q = 0; q < n; q++) {
                e->prop[w][q] += e->err[w][q];
                e->err[w][q] = 0;
            }
        }
        if (st) return st;
    }
    for (int j = 0; j < nd->n_out; j++) {
        int w = nd->out[j];
        if (!e->err[w]) continue;
        int64_t n = cc_shape_numel(&go[j].shape);
        for (int64_t q = 0; q < n; q++) e->err[w][q] = cc_golden_bound(g, k, &go[j], q) + e->prop[w][q];
    }
    return CC_OK;
}

cc_status cc_model_evaluate(const cc_graph *g, const cc_tensor *in, int keep_golden, const cc_model_eval *feed,
                        cc_model_eval *out, cc_err *err)
{
    return cc_model_evaluate_err(g, in, NULL, keep_golden, feed, out, err);
}

cc_status cc_model_evaluate_err(const cc_graph *g, const cc_tensor *in, double *const *in_err, int keep_golden,
                                const cc_model_eval *feed, cc_model_eval *out, cc_err *err)
{
    cc_status st = CC_OK;
    cc_model_eval e;
    memset(&e, 0, sizeof e);
    e.n_values = g->n_values;
    e.n_nodes = g->n_nodes;
    e.vals = calloc((size_t)g->n_values, sizeof *e.vals);
    if (keep_golden) e.gold = calloc((size_t)g->n_nodes * CC_MAX_IO, sizeof *e.gold);
    if (keep_golden == CC_EVAL_PROPAGATE) {
        e.err = calloc((size_t)g->n_values, sizeof *e.err);
        e.prop = calloc((size_t)g->n_values, sizeof *e.prop);
    }
    if (!e.vals || (keep_golden && !e.gold) || (keep_golden == CC_EVAL_PROPAGATE && (!e.err || !e.prop))) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int i = 0; i < g->n_inputs; i++) {
        const cc_tensor *src = &in[i];
        const cc_tensor *v = &g->values[g->inputs[i]];
        /* its declared shape, or one within it of the same rank (a sub-graph typed by the
           bound of a value whose shape follows the data): what reads it is inferred again */
        if (src->dtype != v->dtype || !cc_shape_within(&src->shape, &v->shape)) {
            char a[128], b[128];
            st = cc_err_set(err, CC_ERR_ARG, "graph input %d is %s %s, expected %s %s", i, cc_dtype_name(src->dtype),
                            cc_shape_format(&src->shape, a, sizeof a), cc_dtype_name(v->dtype),
                            cc_shape_format(&v->shape, b, sizeof b));
            goto fail;
        }
        st = cc_tensor_alloc(&e.vals[g->inputs[i]], v->dtype, &src->shape, err);
        if (st) goto fail;
        memcpy(e.vals[g->inputs[i]].data, src->data, cc_tensor_bytes(src));
        if (e.err && in_err && in_err[i] && cc_dtype_is_float(v->dtype)) {
            int64_t n = cc_tensor_numel(src);
            double *c = malloc(sizeof(double) * (size_t)(n ? n : 1));
            if (!c) {
                st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
                goto fail;
            }
            memcpy(c, in_err[i], sizeof(double) * (size_t)n);
            e.err[g->inputs[i]] = c;
        }
    }
    for (int k = 0; k < g->n_nodes; k++) {
        const cc_node *nd = &g->nodes[k];
        const cc_tensor *inp[CC_MAX_IO] = { 0 };
        for (int i = 0; i < nd->n_in; i++) {
            int v = nd->in[i];
            if (v < 0) continue;
            if (g->values[v].data) inp[i] = &g->values[v];
            else if (feed && feed->vals[v].data) inp[i] = &feed->vals[v];
            else inp[i] = &e.vals[v];
            if (!inp[i]->data) {
                st = cc_err_set(err, CC_ERR_ARG, "node %s reads a value no node computed before it", nd->name);
                goto fail;
            }
        }
        cc_golden local[CC_MAX_IO];
        cc_golden *go = keep_golden ? &e.gold[k * CC_MAX_IO] : local;
        memset(go, 0, sizeof(cc_golden) * CC_MAX_IO);
        /* after an op of data-dependent output shape (CC_TRAIT_DYNAMIC_SHAPE), what reads its
         * outputs is inferred again from the actual shapes; so is a node whose own shape
         * follows the data (a shape input computed at run time: from its actual values) */
        cc_tensor odesc[CC_MAX_IO];
        int moved = cc_node_dynamic_shape(g, nd);
        for (int i = 0; i < nd->n_in; i++)
            moved |= nd->in[i] >= 0 && inp[i] && !cc_shape_equal(&inp[i]->shape, &g->values[nd->in[i]].shape);
        for (int j = 0; j < nd->n_out; j++) odesc[j] = g->values[nd->out[j]];
        int control = cc_op_has_trait(nd->op, CC_TRAIT_SUBGRAPH);
        if (moved) {
            cc_err e1 = { 0 };
            if ((st = control ? cc_control_infer(nd, g->subgraphs, g->n_subgraphs, inp, nd->n_out, odesc, &e1)
                              : nd->op->infer(nd, inp, nd->n_out, odesc, &e1))) {
                st = cc_err_set(err, st, "golden model of node %s: %s", nd->name, e1.msg);
                goto fail;
            }
        }
        if (control) {
            st = control_golden(g, k, inp, odesc, go, &e, err);
        } else {
            st = node_golden(nd, inp, odesc, go, err);
            if (!st && keep_golden == CC_EVAL_PROPAGATE) st = propagate(g, k, inp, odesc, &e, err);
        }
        if (st) {
            if (!keep_golden) cc_golden_free(go, CC_MAX_IO);
            goto fail;
        }
        for (int j = 0; j < nd->n_out; j++) {
            cc_tensor *dst = &e.vals[nd->out[j]];
            st = cc_tensor_alloc(dst, go[j].dtype, &go[j].shape, err); /* the actual shape */
            if (st) {
                if (!keep_golden) cc_golden_free(go, CC_MAX_IO);
                goto fail;
            }
            int64_t n = cc_tensor_numel(dst);
            for (int64_t i = 0; i < n; i++) cc_golden_store(&go[j], dst->data, i);
        }
        if (!keep_golden) cc_golden_free(go, CC_MAX_IO);
    }
    *out = e;
    return CC_OK;
fail:
    cc_model_eval_free(&e);
    return st;
}
