/* precision.c — retyping a model to FP16/BF16/FP32 (float constants converted; Cast,
 * EyeLike and ConstantOfShape naming a float type name the new one; an op defined for
 * float32 only, NonMaxSuppression, and control flow, whose sub-graphs keep the types they
 * were imported with, kept in float32 between Casts) and folding batch norms
 * into the convolutions before them. */
#include "precision.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"

/* Whether input i of node nd takes the node's floating compute type: ordinary data
 * inputs do, and attribute-inputs whose schema says "the dtype of the first input". */
static int follows_compute_type(const cc_node *nd, int i)
{
    const cc_op_def *op = nd->op;
    if (op->inputs[i].role == CC_IN_DATA) return 1;
    if (op->inputs[i].role != CC_IN_ATTR) return 0;
    for (int a = 0; a < op->n_attrs; a++)
        if (op->attrs[a].input == i) return op->attrs[a].input_dtype == CC_DTYPE_COUNT;
    return 0;
}

/* ONNX's TensorProto.DataType number of a floating dtype. */
static int64_t onnx_float_type(cc_dtype d)
{
    return d == CC_F16 ? 10 : d == CC_BF16 ? 16 : 1;
}

/* Attributes that name a floating output type take the model's precision: Cast's and
 * EyeLike's target type, ConstantOfShape's value (rounded to it). 1 where attrs changed. */
static int retype_attrs(const cc_node *nd, cc_dtype dt, cc_attr_value *attrs)
{
    int changed = 0;
    const char *names[2] = { "to", "dtype" };
    for (int n = 0; n < 2; n++) {
        int a = cc_attr_index(nd->op, names[n]);
        if (a < 0 || nd->op->attrs[a].kind != CC_ATTR_INT || !attrs[a].set) continue;
        cc_dtype t;
        if (cc_dtype_from_onnx(attrs[a].i, &t, NULL) == 0 && cc_dtype_is_float(t) && t != dt) {
            attrs[a].i = onnx_float_type(dt);
            changed = 1;
        }
    }
    int v = nd->op->id == CC_OP_ID_ConstantOfShape ? cc_attr_index(nd->op, "value") : -1;
    if (v >= 0 && attrs[v].set && cc_dtype_is_float(attrs[v].tdtype) && attrs[v].tdtype != dt) {
        attrs[v].tdtype = dt;
        for (int k = 0; k < attrs[v].n; k++) attrs[v].floats[k] = cc_round_to(dt, attrs[v].floats[k]);
        changed = 1;
    }
    return changed;
}

/* Node k of an op defined for float32 only (NonMaxSuppression): kept in float32 inside a
 * model of dtype dt, its float inputs cast up (constants copied unconverted) and its float
 * outputs cast back down to dt. */
static cc_status keep_f32(cc_rewrite *rw, int k, cc_dtype dt, cc_err *err)
{
    const cc_graph *g = &rw->src->graph;
    const cc_node *nd = &g->nodes[k];
    int in[CC_MAX_IO];
    cc_status st = CC_OK;
    char name[CC_VALUE_NAME_MAX];
    for (int i = 0; i < nd->n_in && !st; i++) {
        int v = nd->in[i];
        in[i] = -2;
        if (v < 0 || g->values[v].data || !cc_dtype_is_float(g->values[v].dtype)) continue;
        int nv;
        if ((st = cc_rewrite_value(rw, v, &nv, err))) break;
        if (cc_mb_value(rw->b, nv)->dtype == CC_F32) continue;
        snprintf(name, sizeof name, "%.40s/f32_in%d", nd->name, i);
        st = cc_mb_node(rw->b, "Cast", name, "to=1", 1, &nv, 1, &in[i], NULL, err);
    }
    if (!st) st = cc_rewrite_copy_node(rw, k, in, err);
    for (int j = 0; j < nd->n_out && !st; j++) {
        int v = nd->out[j], nv = rw->map[v], back;
        if (cc_mb_value(rw->b, nv)->dtype != CC_F32) continue;
        char attrs[16];
        snprintf(attrs, sizeof attrs, "to=%lld", (long long)onnx_float_type(dt));
        snprintf(name, sizeof name, "%.40s/%s_out%d", nd->name, cc_dtype_name(dt), j);
        if (!(st = cc_mb_node(rw->b, "Cast", name, attrs, 1, &nv, 1, &back, NULL, err))) cc_rewrite_set(rw, v, back);
    }
    return st;
}

cc_status cc_model_to_precision(const cc_model *m, cc_dtype dt, cc_model **out, cc_err *err)
{
    if (!cc_dtype_is_float(dt))
        return cc_err_set(err, CC_ERR_ARG, "precision must be f32, f16 or bf16, got %s (INT8 is made by quantization)",
                          cc_dtype_name(dt));
    const cc_graph *g = &m->graph;
    cc_rewrite rw;
    cc_status st = cc_rewrite_begin(m, dt, &rw, err);
    if (st) return st;
    /* constants converted to dt, made on first use (the originals go through rw.map) */
    int *conv = malloc(sizeof *conv * ((size_t)g->n_values + 1));
    if (!conv) {
        cc_rewrite_abort(&rw);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < g->n_values; i++) conv[i] = -1;
    for (int k = 0; k < g->n_nodes && !st; k++) {
        const cc_node *nd = &g->nodes[k];
        /* float32-only ops, and control flow (its sub-graphs stay as they were made) */
        if (dt != CC_F32 && (nd->op->dtypes == CC_DTYPE_BIT(CC_F32) || cc_op_has_trait(nd->op, CC_TRAIT_SUBGRAPH))) {
            st = keep_f32(&rw, k, dt, err);
            continue;
        }
        int in[CC_MAX_IO];
        for (int i = 0; i < nd->n_in && !st; i++) {
            int v = nd->in[i];
            in[i] = -2;
            if (v < 0 || !g->values[v].data || !cc_dtype_is_float(g->values[v].dtype) ||
                !follows_compute_type(nd, i) || g->values[v].dtype == dt)
                continue;
            if (conv[v] < 0) {
                cc_tensor t;
                if ((st = cc_rewrite_convert_tensor(&g->values[v], dt, &t, err))) break;
                if ((st = cc_mb_const(rw.b, m->value_names[v], &t, &conv[v], err))) break;
            }
            in[i] = conv[v];
        }
        cc_attr_value attrs[CC_MAX_ATTRS];
        memcpy(attrs, nd->attrs, sizeof attrs);
        if (!st) st = retype_attrs(nd, dt, attrs) ? cc_rewrite_copy_node_attrs(&rw, k, in, attrs, err)
                                                  : cc_rewrite_copy_node(&rw, k, in, err);
    }
    free(conv);
    if (st) {
        cc_rewrite_abort(&rw);
        return st;
    }
    return cc_rewrite_finish(&rw, out, err);
}

/* ---- batch-norm folding ----------------------------------------------------------- */

/* Whether node k (a BatchNormalization) can be folded into the node producing its x:
 * writes that Conv's index to *conv_k. */
static int foldable(const cc_rewrite *rw, int k, int *conv_k)
{
    const cc_graph *g = &rw->src->graph;
    const cc_node *bn = &g->nodes[k];
    if (bn->op->id != CC_OP_ID_BatchNormalization || bn->n_out != 1 || bn->n_in < 5) return 0;
    int x = bn->in[0];
    if (x < 0 || rw->uses[x] != 1 || rw->is_output[x]) return 0;
    for (int i = 1; i < 5; i++)
        if (bn->in[i] < 0 || !g->values[bn->in[i]].data) return 0;
    for (int j = 0; j < k; j++) {
        const cc_node *c = &g->nodes[j];
        if (c->n_out < 1 || c->out[0] != x) continue;
        if (c->op->id != CC_OP_ID_Conv) return 0;
        if (c->in[1] < 0 || !g->values[c->in[1]].data) return 0;
        if (c->n_in > 2 && c->in[2] >= 0 && !g->values[c->in[2]].data) return 0;
        if (g->values[bn->in[1]].shape.dims[0] != g->values[c->in[1]].shape.dims[0]) return 0;
        *conv_k = j;
        return 1;
    }
    return 0;
}

/* Emits Conv node ck with BN node bk folded into it. */
static cc_status emit_folded(cc_rewrite *rw, int ck, int bk, cc_err *err)
{
    const cc_model *m = rw->src;
    const cc_graph *g = &m->graph;
    const cc_node *c = &g->nodes[ck], *bn = &g->nodes[bk];
    const cc_tensor *w = &g->values[c->in[1]];
    const cc_tensor *b = c->n_in > 2 && c->in[2] >= 0 ? &g->values[c->in[2]] : NULL;
    const cc_tensor *p[4];
    for (int i = 0; i < 4; i++) p[i] = &g->values[bn->in[1 + i]];
    double eps = cc_attr_f(bn, "epsilon");
    int64_t mo = w->shape.dims[0], per = cc_tensor_numel(w) / (mo ? mo : 1);
    double *wv = malloc(sizeof *wv * (size_t)(cc_tensor_numel(w) + mo + 1));
    if (!wv) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    double *bv = wv + cc_tensor_numel(w);
    for (int64_t o = 0; o < mo; o++) {
        double scale = cc_load(p[0]->data, p[0]->dtype, (size_t)o), beta = cc_load(p[1]->data, p[1]->dtype, (size_t)o);
        double mean = cc_load(p[2]->data, p[2]->dtype, (size_t)o), var = cc_load(p[3]->data, p[3]->dtype, (size_t)o);
        double a = scale / sqrt(var + eps);
        for (int64_t i = 0; i < per; i++)
            wv[o * per + i] = cc_load(w->data, w->dtype, (size_t)(o * per + i)) * a;
        double b0 = b ? cc_load(b->data, b->dtype, (size_t)o) : 0;
        bv[o] = (b0 - mean) * a + beta;
    }
    char name[CC_VALUE_NAME_MAX + 16];
    int in[CC_MAX_IO];
    cc_status st;
    in[0] = -2;
    snprintf(name, sizeof name, "%s.folded", m->value_names[c->in[1]]);
    if ((st = cc_rewrite_add_const(rw, name, w->dtype, &w->shape, wv, &in[1], err))) goto done;
    cc_shape bs = cc_shape_make(1, &mo);
    snprintf(name, sizeof name, "%s.bias", bn->name);
    if ((st = cc_rewrite_add_const(rw, name, w->dtype, &bs, bv, &in[2], err))) goto done;
    if ((st = cc_rewrite_value(rw, c->in[0], &in[0], err))) goto done;
    const char *out_name = m->value_names[bn->out[0]];
    int y;
    st = cc_mb_node_values(rw->b, c->op, c->name, c->attrs, 3, in, 1, &y, &out_name, err);
    if (!st) cc_rewrite_set(rw, bn->out[0], y);
done:
    free(wv);
    return st;
}

cc_status cc_model_fold_bn(const cc_model *m, cc_model **out, int *n_folded, cc_err *err)
{
    const cc_graph *g = &m->graph;
    cc_rewrite rw;
    cc_status st = cc_rewrite_begin(m, CC_DTYPE_COUNT, &rw, err);
    if (st) return st;
    /* fold_into[j] = the BN folded into Conv j; done[k] = 1 for a BN emitted with its Conv */
    int *fold_into = malloc(sizeof *fold_into * ((size_t)g->n_nodes + 1));
    unsigned char *done = calloc((size_t)g->n_nodes + 1, 1);
    if (!fold_into || !done) {
        free(fold_into);
        free(done);
        cc_rewrite_abort(&rw);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    int folds = 0;
    for (int k = 0; k < g->n_nodes; k++) fold_into[k] = -1;
    for (int k = 0; k < g->n_nodes; k++) {
        int ck;
        if (foldable(&rw, k, &ck) && fold_into[ck] < 0) {
            fold_into[ck] = k;
            done[k] = 1;
            folds++;
        }
    }
    for (int k = 0; k < g->n_nodes && !st; k++) {
        if (fold_into[k] >= 0) {
            st = emit_folded(&rw, k, fold_into[k], err);
            continue;
        }
        if (!done[k]) st = cc_rewrite_copy_node(&rw, k, NULL, err);
    }
    free(fold_into);
    free(done);
    if (st) {
        cc_rewrite_abort(&rw);
        return st;
    }
    st = cc_rewrite_finish(&rw, out, err);
    if (!st && n_folded) *n_folded = folds;
    return st;
}
