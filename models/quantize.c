/* quantize.c — INT8 post-training quantization: the quantized graph built from the
 * batch-norm-folded FP32 model and its calibrated ranges (the scheme is described in
 * quantize.h). */
#include "quantize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "precision.h"
#include "rewrite.h"

/* Per source value: its float and 8-bit representations in the new graph. */
typedef struct qstate {
    cc_rewrite rw;
    const cc_calib_range *range;
    const cc_calib_options *opt;
    cc_dtype act;                /* u8 or i8 */
    double qmin, qmax;
    int *fv, *qv;                /* new value of the float / 8-bit copy, -1 if none */
    int *sc, *zc;                /* constants holding the 8-bit copy's scale and zero point */
    double *scale, *zp;
    unsigned char *needs_q;      /* the value is stored in 8 bits (mark_needs) */
    unsigned char *named;        /* the source name is taken by a new value */
    unsigned char *skip;         /* node already emitted (a Relu folded into its Conv) */
    cc_quant_report rep;
    int n_types;
    char types[32][32];
    int type_count[32];
} qstate;

/* Ops that only move or select values (CC_TRAIT_INT8_MOVER) run on the 8-bit copy (their
 * outputs keep its scale and zero point): max commutes with the monotone quantization map,
 * and nearest resizing copies values. */
static int is_mover(const cc_node *nd)
{
    if (!cc_op_has_trait(nd->op, CC_TRAIT_INT8_MOVER)) return 0;
    if (nd->op->id == CC_OP_ID_MaxPool) return nd->n_out == 1; /* not with Indices */
    if (nd->op->id == CC_OP_ID_Resize) /* copies, unless it extrapolates a float */
        return strcmp(cc_attr_s(nd, "mode"), "nearest") == 0 &&
               strcmp(cc_attr_s(nd, "coordinate_transformation_mode"), "tf_crop_and_resize") != 0;
    return 1;
}

static const cc_tensor *val(const qstate *q, int v)
{
    return &q->rw.src->graph.values[v];
}

static int is_const(const qstate *q, int v)
{
    return v >= 0 && val(q, v)->data != NULL;
}

static int is_activation(const qstate *q, int v)
{
    return v >= 0 && !is_const(q, v) && val(q, v)->dtype == CC_F32 && q->range[v].valid;
}

static int qconv_able(const qstate *q, const cc_node *nd)
{
    if (nd->op->id != CC_OP_ID_Conv || nd->n_out != 1) return 0;
    if (!is_activation(q, nd->in[0]) || !is_activation(q, nd->out[0])) return 0;
    if (!is_const(q, nd->in[1]) || val(q, nd->in[1])->dtype != CC_F32 || val(q, nd->in[1])->shape.rank < 3) return 0;
    return nd->n_in < 3 || nd->in[2] < 0 || (is_const(q, nd->in[2]) && val(q, nd->in[2])->dtype == CC_F32);
}

static int qmatmul_able(const qstate *q, const cc_node *nd)
{
    int gemm = nd->op->id == CC_OP_ID_Gemm;
    if ((!gemm && nd->op->id != CC_OP_ID_MatMul) || nd->n_out != 1) return 0;
    if (!is_activation(q, nd->in[0]) || !is_const(q, nd->in[1])) return 0;
    const cc_tensor *a = val(q, nd->in[0]), *b = val(q, nd->in[1]);
    if (b->dtype != CC_F32 || b->shape.rank != 2 || a->shape.rank < 2) return 0;
    if (!gemm) return 1;
    if (cc_attr_i(nd, "transA") != 0) return 0;
    if (nd->n_in < 3 || nd->in[2] < 0) return 1;
    const cc_tensor *c = val(q, nd->in[2]);
    int64_t n = cc_attr_i(nd, "transB") ? b->shape.dims[0] : b->shape.dims[1], cn = cc_tensor_numel(c);
    if (!c->data || c->dtype != CC_F32 || (cn != 1 && cn != n)) return 0;
    return c->shape.rank <= 1 || (c->shape.rank == 2 && c->shape.dims[0] == 1);
}

/* The Relu that alone reads Conv node nd's output, or -1. */
static int folded_relu(const qstate *q, const cc_node *nd)
{
    int y = nd->out[0], k = q->rw.consumer[y];
    if (k < 0 || q->rw.uses[y] != 1 || q->rw.is_output[y]) return -1;
    const cc_node *r = &q->rw.src->graph.nodes[k];
    return r->op->id == CC_OP_ID_Relu && is_activation(q, r->out[0]) ? k : -1;
}

static void count_float_op(qstate *q, const char *type)
{
    q->rep.n_float_ops++;
    for (int i = 0; i < q->n_types; i++)
        if (strcmp(q->types[i], type) == 0) {
            q->type_count[i]++;
            return;
        }
    if (q->n_types == 32) return;
    snprintf(q->types[q->n_types], sizeof q->types[0], "%s", type);
    q->type_count[q->n_types++] = 1;
}

/* Name for a new value derived from source value v: the source name while it is free
 * (the float copy of v), else name + suffix. */
static void derived_name(qstate *q, int v, const char *suffix, int take, char *buf, size_t n)
{
    if (take && !q->named[v]) {
        snprintf(buf, n, "%s", q->rw.src->value_names[v]);
        q->named[v] = 1;
    } else {
        snprintf(buf, n, "%s%s", q->rw.src->value_names[v], suffix);
    }
}

/* Scale and zero point for source value v from its calibrated range ([lo, hi] widened to
 * contain 0; relu: [0, hi]); creates their constants. */
static cc_status set_params(qstate *q, int v, cc_err *err)
{
    const cc_calib_range *r = &q->range[v];
    double lo = r->lo < 0 ? r->lo : 0, hi = r->hi > 0 ? r->hi : 0;
    float s = (float)((hi - lo) / (q->qmax - q->qmin));
    if (!(s > 0) || !isfinite(s)) s = 1;
    double z = nearbyint(q->qmin - lo / s);
    if (z < q->qmin) z = q->qmin;
    if (z > q->qmax) z = q->qmax;
    q->scale[v] = s;
    q->zp[v] = z;
    char name[CC_VALUE_NAME_MAX + 16];
    cc_status st;
    snprintf(name, sizeof name, "%s/scale", q->rw.src->value_names[v]);
    if ((st = cc_rewrite_add_scalar(&q->rw, name, CC_F32, s, &q->sc[v], err))) return st;
    snprintf(name, sizeof name, "%s/zero_point", q->rw.src->value_names[v]);
    if ((st = cc_rewrite_add_scalar(&q->rw, name, q->act, z, &q->zc[v], err))) return st;
    /* statistics */
    cc_quant_report *rep = &q->rep;
    double width = r->max - r->min, chosen = r->hi - r->lo;
    if (rep->n_ranges == 0 || s < rep->scale_min) rep->scale_min = s;
    if (rep->n_ranges == 0 || s > rep->scale_max) rep->scale_max = s;
    if (rep->n_ranges == 0 || hi - lo > rep->widest_hi - rep->widest_lo) {
        snprintf(rep->widest, sizeof rep->widest, "%s", q->rw.src->value_names[v]);
        rep->widest_lo = lo;
        rep->widest_hi = hi;
    }
    rep->clipped_mean += r->clipped;
    if (r->clipped > rep->clipped_max) rep->clipped_max = r->clipped;
    rep->shrink_mean += width > 0 ? chosen / width : 1;
    rep->n_ranges++;
    return CC_OK;
}

/* The float copy of source value v (a constant: copied; an 8-bit value: dequantized). */
static cc_status get_float(qstate *q, int v, int *out, cc_err *err)
{
    if (is_const(q, v)) return cc_rewrite_value(&q->rw, v, out, err);
    if (q->fv[v] >= 0) {
        *out = q->fv[v];
        return CC_OK;
    }
    if (q->qv[v] < 0)
        return cc_err_set(err, CC_ERR_INTERNAL, "quantize: value %s read before it is produced",
                          q->rw.src->value_names[v]);
    char name[CC_VALUE_NAME_MAX + 8], node[CC_VALUE_NAME_MAX + 8];
    derived_name(q, v, "/dq", 1, name, sizeof name);
    snprintf(node, sizeof node, "%s/dequantize", q->rw.src->value_names[v]);
    int in[3] = { q->qv[v], q->sc[v], q->zc[v] };
    const char *names[1] = { name };
    cc_status st = cc_mb_node(q->rw.b, "DequantizeLinear", node, NULL, 3, in, 1, &q->fv[v], names, err);
    if (st) return st;
    q->rep.n_dequantize++;
    *out = q->fv[v];
    return CC_OK;
}

/* The 8-bit copy of source value v, quantizing its float copy where there is none. */
static cc_status get_quant(qstate *q, int v, cc_err *err)
{
    if (q->qv[v] >= 0) return CC_OK;
    int f;
    cc_status st = get_float(q, v, &f, err);
    if (st) return st;
    if (!q->range[v].valid)
        return cc_err_set(err, CC_ERR_INTERNAL, "quantize: no calibrated range for %s", q->rw.src->value_names[v]);
    if ((st = set_params(q, v, err))) return st;
    char name[CC_VALUE_NAME_MAX + 8], node[CC_VALUE_NAME_MAX + 8];
    snprintf(name, sizeof name, "%s/q", q->rw.src->value_names[v]);
    snprintf(node, sizeof node, "%s/quantize", q->rw.src->value_names[v]);
    int in[3] = { f, q->sc[v], q->zc[v] };
    const char *names[1] = { name };
    if ((st = cc_mb_node(q->rw.b, "QuantizeLinear", node, NULL, 3, in, 1, &q->qv[v], names, err))) return st;
    q->rep.n_quantize++;
    return CC_OK;
}

/* After a float op produced source value v: where an integer op reads v, v is stored in
 * 8 bits and every later reader reads that copy. */
static cc_status store(qstate *q, int v, cc_err *err)
{
    if (!q->needs_q[v]) return CC_OK;
    cc_status st = get_quant(q, v, err);
    if (!st) q->fv[v] = -1;
    return st;
}

/* ---- integer ops --------------------------------------------------------------------- */

/* Symmetric per-channel int8: w[c * per + i] for nc channels (column-major when
 * stride_c == 1: element (i, c) at i * nc + c). Writes scales and the quantized values. */
static void quantize_weights(const double *w, int64_t nc, int64_t per, int columns, double *scale, double *wq)
{
    for (int64_t c = 0; c < nc; c++) {
        double mx = 0;
        for (int64_t i = 0; i < per; i++) {
            double a = fabs(w[columns ? i * nc + c : c * per + i]);
            if (a > mx) mx = a;
        }
        float s = (float)(mx / 127);
        if (!(s > 0) || !isfinite(s)) s = 1;
        scale[c] = s;
        for (int64_t i = 0; i < per; i++) {
            int64_t e = columns ? i * nc + c : c * per + i;
            double v = nearbyint(w[e] / s);
            wq[e] = v > 127 ? 127 : v < -127 ? -127 : v;
        }
    }
}

static double clamp_i32(double v)
{
    return v > 2147483647.0 ? 2147483647.0 : v < -2147483648.0 ? -2147483648.0 : v;
}

static cc_status emit_qconv(qstate *q, int k, cc_err *err)
{
    const cc_graph *g = &q->rw.src->graph;
    const cc_node *nd = &g->nodes[k];
    const cc_tensor *w = val(q, nd->in[1]);
    const cc_tensor *b = nd->n_in > 2 && nd->in[2] >= 0 ? val(q, nd->in[2]) : NULL;
    int relu = folded_relu(q, nd), x = nd->in[0], y = relu >= 0 ? g->nodes[relu].out[0] : nd->out[0];
    int64_t m = w->shape.dims[0], nw = cc_tensor_numel(w), per = nw / (m ? m : 1);
    cc_status st = get_quant(q, x, err);
    if (st) return st;
    double *buf = malloc(sizeof *buf * (size_t)(2 * nw + 2 * m + 2));
    if (!buf) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    double *wd = buf, *wq = buf + nw, *ws = wq + nw, *bq = ws + m;
    for (int64_t i = 0; i < nw; i++) wd[i] = cc_load(w->data, CC_F32, (size_t)i);
    quantize_weights(wd, m, per, 0, ws, wq);
    for (int64_t c = 0; c < m; c++) /* bias in units of x_scale * w_scale[c] */
        bq[c] = b ? clamp_i32(nearbyint(cc_load(b->data, CC_F32, (size_t)c) / (q->scale[x] * ws[c]))) : 0;
    if ((st = set_params(q, y, err))) goto done;
    const char *wn = q->rw.src->value_names[nd->in[1]];
    char name[CC_VALUE_NAME_MAX + 16];
    int in[9] = { q->qv[x], q->sc[x], q->zc[x], -1, -1, -1, q->sc[y], q->zc[y], -1 };
    cc_shape cs = cc_shape_make(1, &m);
    snprintf(name, sizeof name, "%s/q", wn);
    if ((st = cc_rewrite_add_const(&q->rw, name, CC_I8, &w->shape, wq, &in[3], err))) goto done;
    snprintf(name, sizeof name, "%s/scale", wn);
    if ((st = cc_rewrite_add_const(&q->rw, name, CC_F32, &cs, ws, &in[4], err))) goto done;
    for (int64_t c = 0; c < m; c++) wd[c] = 0; /* wd is free now: the zero points */
    snprintf(name, sizeof name, "%s/zero_point", wn);
    if ((st = cc_rewrite_add_const(&q->rw, name, CC_I8, &cs, wd, &in[5], err))) goto done;
    int n_in = 8;
    if (b) {
        snprintf(name, sizeof name, "%s/q", q->rw.src->value_names[nd->in[2]]);
        if ((st = cc_rewrite_add_const(&q->rw, name, CC_I32, &cs, bq, &in[8], err))) goto done;
        n_in = 9;
    }
    /* QLinearConv's attributes: the Conv's window attributes, per-channel weights */
    const cc_op_def *op = cc_catalog_by_id(CC_OP_ID_QLinearConv);
    if (!op) {
        st = cc_err_set(err, CC_ERR_UNSUPPORTED, "quantize: the catalog has no QLinearConv");
        goto done;
    }
    cc_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.op = op;
    if ((st = cc_node_set_defaults(&tmp, err))) goto done;
    for (int a = 0; a < op->n_attrs; a++) {
        int ca = cc_attr_index(nd->op, op->attrs[a].name);
        if (ca >= 0) tmp.attrs[a] = nd->attrs[ca];
    }
    int pc = cc_attr_index(op, "per_channel");
    if (pc >= 0) tmp.attrs[pc].i = 1;
    snprintf(name, sizeof name, "%s/q", q->rw.src->value_names[y]);
    const char *names[1] = { name };
    if ((st = cc_mb_node_values(q->rw.b, op, nd->name, tmp.attrs, n_in, in, 1, &q->qv[y], names, err))) goto done;
    q->rep.n_qconv++;
    if (relu >= 0) {
        q->skip[relu] = 1;
        q->rep.n_relu_folded++;
    }
done:
    free(buf);
    return st;
}

static cc_status emit_qmatmul(qstate *q, int k, cc_err *err)
{
    const cc_graph *g = &q->rw.src->graph;
    const cc_node *nd = &g->nodes[k];
    int gemm = nd->op->id == CC_OP_ID_Gemm, a = nd->in[0], y = nd->out[0];
    const cc_tensor *bt = val(q, nd->in[1]);
    const cc_tensor *c = gemm && nd->n_in > 2 && nd->in[2] >= 0 ? val(q, nd->in[2]) : NULL;
    int tb = gemm && cc_attr_i(nd, "transB");
    double alpha = gemm ? cc_attr_f(nd, "alpha") : 1, beta = gemm ? cc_attr_f(nd, "beta") : 1;
    int64_t kk = tb ? bt->shape.dims[1] : bt->shape.dims[0], n = tb ? bt->shape.dims[0] : bt->shape.dims[1];
    cc_status st = get_quant(q, a, err);
    if (st) return st;
    double *buf = malloc(sizeof *buf * (size_t)(2 * kk * n + 3 * n + 1));
    if (!buf) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    double *wd = buf, *wq = wd + kk * n, *ws = wq + kk * n, *cs = ws + n, *bq = cs + n;
    for (int64_t i = 0; i < kk; i++)
        for (int64_t j = 0; j < n; j++)
            wd[i * n + j] = alpha * cc_load(bt->data, CC_F32, (size_t)(tb ? j * kk + i : i * n + j));
    quantize_weights(wd, n, kk, 1, ws, wq);
    for (int64_t j = 0; j < n; j++) {
        cs[j] = (float)(q->scale[a] * ws[j]);
        double bias = c ? beta * cc_load(c->data, CC_F32, cc_tensor_numel(c) == 1 ? 0 : (size_t)j) : 0;
        bq[j] = clamp_i32(nearbyint(bias / cs[j]));
    }
    const char *wn = q->rw.src->value_names[nd->in[1]], *yn = q->rw.src->value_names[y];
    char name[CC_VALUE_NAME_MAX + 16], node[CC_VALUE_NAME_MAX + 16], attrs[48];
    const char *names[1] = { name };
    int acc, wqv;
    cc_shape ws_shape = cc_shape_make(2, (int64_t[]){ kk, n }), ns = cc_shape_make(1, &n);
    snprintf(name, sizeof name, "%s/q", wn);
    if ((st = cc_rewrite_add_const(&q->rw, name, CC_I8, &ws_shape, wq, &wqv, err))) goto done;
    /* MatMulInteger(a, b, a_zero_point): b_zero_point absent, the weights are symmetric */
    int mi[3] = { q->qv[a], wqv, q->zc[a] };
    snprintf(name, sizeof name, "%s/acc", yn);
    if ((st = cc_mb_node(q->rw.b, "MatMulInteger", nd->name, NULL, 3, mi, 1, &acc, names, err))) goto done;
    if (c) {
        int bc, sum;
        snprintf(name, sizeof name, "%s/q", q->rw.src->value_names[nd->in[2]]);
        if ((st = cc_rewrite_add_const(&q->rw, name, CC_I32, &ns, bq, &bc, err))) goto done;
        snprintf(name, sizeof name, "%s/acc_bias", yn);
        snprintf(node, sizeof node, "%s/bias", nd->name);
        int ai[2] = { acc, bc };
        if ((st = cc_mb_node(q->rw.b, "Add", node, NULL, 2, ai, 1, &sum, names, err))) goto done;
        acc = sum;
    }
    int sv;
    snprintf(name, sizeof name, "%s/acc_scale", yn);
    if ((st = cc_rewrite_add_const(&q->rw, name, CC_F32, &ns, cs, &sv, err))) goto done;
    derived_name(q, y, "/dq", 1, name, sizeof name);
    snprintf(node, sizeof node, "%s/dequantize", nd->name);
    snprintf(attrs, sizeof attrs, "axis=%d,per_axis=1,zp=0", val(q, a)->shape.rank - 1);
    int di[2] = { acc, sv };
    if ((st = cc_mb_node(q->rw.b, "DequantizeLinear", node, attrs, 2, di, 1, &q->fv[y], names, err))) goto done;
    q->rep.n_dequantize++;
    q->rep.n_qmatmul++;
    st = store(q, y, err);
done:
    free(buf);
    return st;
}

/* ---- other ops ------------------------------------------------------------------------ */

/* A data-movement op (or MaxPool) on the 8-bit copy of its input: outputs share its
 * scale and zero point. */
static cc_status emit_mover(qstate *q, int k, cc_err *err)
{
    const cc_graph *g = &q->rw.src->graph;
    const cc_node *nd = &g->nodes[k];
    int x = nd->in[0], in[CC_MAX_IO], out[CC_MAX_IO];
    char names_buf[CC_MAX_IO][CC_VALUE_NAME_MAX + 8];
    const char *names[CC_MAX_IO];
    cc_status st = get_quant(q, x, err);
    if (st) return st;
    in[0] = q->qv[x];
    for (int i = 1; i < nd->n_in; i++) {
        in[i] = -1;
        if (nd->in[i] >= 0 && (st = get_float(q, nd->in[i], &in[i], err))) return st;
    }
    for (int j = 0; j < nd->n_out; j++) {
        snprintf(names_buf[j], sizeof names_buf[j], "%s/q", q->rw.src->value_names[nd->out[j]]);
        names[j] = names_buf[j];
    }
    if ((st = cc_mb_node_values(q->rw.b, nd->op, nd->name, nd->attrs, nd->n_in, in, nd->n_out, out, names, err)))
        return st;
    for (int j = 0; j < nd->n_out; j++) {
        int y = nd->out[j];
        q->qv[y] = out[j];
        q->sc[y] = q->sc[x];
        q->zc[y] = q->zc[x];
        q->scale[y] = q->scale[x];
        q->zp[y] = q->zp[x];
    }
    q->rep.n_int8_moves++;
    return CC_OK;
}

/* An op left in float: float copies in, float out (stored in 8 bits where needed). */
static cc_status emit_float(qstate *q, int k, cc_err *err)
{
    const cc_node *nd = &q->rw.src->graph.nodes[k];
    int in[CC_MAX_IO], out[CC_MAX_IO];
    char names_buf[CC_MAX_IO][CC_VALUE_NAME_MAX + 8];
    const char *names[CC_MAX_IO];
    cc_status st;
    for (int i = 0; i < nd->n_in; i++) {
        in[i] = -1;
        if (nd->in[i] >= 0 && (st = get_float(q, nd->in[i], &in[i], err))) return st;
    }
    for (int j = 0; j < nd->n_out; j++) {
        derived_name(q, nd->out[j], "/f", 1, names_buf[j], sizeof names_buf[j]);
        names[j] = names_buf[j];
    }
    if ((st = cc_mb_node_values(q->rw.b, nd->op, nd->name, nd->attrs, nd->n_in, in, nd->n_out, out, names, err)))
        return st;
    if (!is_mover(nd)) count_float_op(q, nd->op->name);
    for (int j = 0; j < nd->n_out; j++) {
        q->fv[nd->out[j]] = out[j];
        if ((st = store(q, nd->out[j], err))) return st;
    }
    return CC_OK;
}

/* Float-op pairs a deployment fuses: the first op's output, read by the second alone,
 * stays float (SiLU's Sigmoid->Mul, a residual block's Add->Relu). */
static const struct { cc_op_id producer, reader; } fused_pairs[] = {
    { CC_OP_ID_Sigmoid, CC_OP_ID_Mul },
    { CC_OP_ID_Add, CC_OP_ID_Relu },
};

static int fused(const qstate *q, int producer, int v)
{
    const cc_graph *g = &q->rw.src->graph;
    int k = q->rw.consumer[v];
    if (producer < 0 || k < 0 || q->rw.uses[v] != 1 || q->rw.is_output[v]) return 0;
    for (size_t i = 0; i < sizeof fused_pairs / sizeof *fused_pairs; i++)
        if (g->nodes[producer].op->id == fused_pairs[i].producer && g->nodes[k].op->id == fused_pairs[i].reader)
            return 1;
    return 0;
}

/* Marks the activations stored in 8 bits: those from which an integer op can be reached
 * (walking the graph backwards), except the first of a fused pair. Activations after the
 * last integer op (a detector's decoding, the outputs) stay float. */
static cc_status mark_needs(qstate *q, cc_err *err)
{
    const cc_graph *g = &q->rw.src->graph;
    unsigned char *reach = calloc((size_t)g->n_values + 1, 1);
    int *producer = malloc(sizeof *producer * ((size_t)g->n_values + 1));
    if (!reach || !producer) {
        free(reach);
        free(producer);
        return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    }
    for (int v = 0; v < g->n_values; v++) producer[v] = -1;
    for (int k = 0; k < g->n_nodes; k++)
        for (int j = 0; j < g->nodes[k].n_out; j++) producer[g->nodes[k].out[j]] = k;
    for (int k = g->n_nodes - 1; k >= 0; k--) {
        const cc_node *nd = &g->nodes[k];
        int r = qconv_able(q, nd) || qmatmul_able(q, nd);
        for (int j = 0; j < nd->n_out && !r; j++) r = reach[nd->out[j]];
        if (!r) continue;
        for (int i = 0; i < nd->n_in; i++)
            if (nd->in[i] >= 0) reach[nd->in[i]] = 1;
    }
    for (int v = 0; v < g->n_values; v++)
        q->needs_q[v] = reach[v] && is_activation(q, v) && !fused(q, producer[v], v);
    free(reach);
    free(producer);
    return CC_OK;
}

static void qstate_free(qstate *q)
{
    free(q->fv);
    free(q->qv);
    free(q->sc);
    free(q->zc);
    free(q->scale);
    free(q->zp);
    free(q->needs_q);
    free(q->named);
    free(q->skip);
}

/* Emits the whole quantized graph from the folded model f. */
static cc_status build(qstate *q, cc_err *err)
{
    const cc_graph *g = &q->rw.src->graph;
    cc_status st = CC_OK;
    for (int i = 0; i < g->n_inputs; i++) {
        int v = g->inputs[i];
        q->fv[v] = q->rw.map[v];
        q->named[v] = 1;
        if ((st = store(q, v, err))) return st;
    }
    for (int k = 0; k < g->n_nodes && !st; k++) {
        const cc_node *nd = &g->nodes[k];
        if (q->skip[k]) continue;
        if (qconv_able(q, nd)) st = emit_qconv(q, k, err);
        else if (qmatmul_able(q, nd)) st = emit_qmatmul(q, k, err);
        else if (is_mover(nd) && is_activation(q, nd->in[0]) && q->fv[nd->in[0]] < 0 && q->qv[nd->in[0]] >= 0)
            st = emit_mover(q, k, err); /* its input is stored in 8 bits */
        else st = emit_float(q, k, err);
    }
    for (int i = 0; i < g->n_outputs && !st; i++) {
        int v = g->outputs[i], nv;
        if (!is_const(q, v) && !cc_dtype_is_float(val(q, v)->dtype)) nv = q->fv[v]; /* integer */
        else if ((st = get_float(q, v, &nv, err))) break;
        cc_rewrite_set(&q->rw, v, nv);
    }
    return st;
}

static void finish_report(qstate *q, int n_folded, double p)
{
    cc_quant_report *r = &q->rep;
    r->n_bn_folded = n_folded;
    r->method = q->opt->method;
    r->percentile = p;
    r->n_images = q->opt->n_images;
    if (r->n_ranges) {
        r->clipped_mean /= r->n_ranges;
        r->shrink_mean /= r->n_ranges;
    }
    size_t len = 0;
    r->float_ops[0] = '\0';
    for (int i = 0; i < q->n_types && len < sizeof r->float_ops; i++)
        len += (size_t)snprintf(r->float_ops + len, sizeof r->float_ops - len, "%s%s x%d", i ? ", " : "",
                                q->types[i], q->type_count[i]);
}

/* ---- parameters ---------------------------------------------------------------------- */

/* The calibrated range of one value of the folded model, by name. */
typedef struct named_range {
    char name[CC_VALUE_NAME_MAX];
    cc_calib_range r;
} named_range;

struct cc_quant_params {
    cc_calib_options opt;   /* as calibrated, inputs cleared */
    int n;
    named_range *e;         /* every non-constant value, sorted by name */
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named_range *)a)->name, ((const named_range *)b)->name);
}

void cc_quant_params_free(cc_quant_params *p)
{
    if (!p) return;
    free(p->e);
    free(p);
}

static cc_status check_f32(const cc_model *m, cc_err *err)
{
    const cc_graph *g = &m->graph;
    for (int v = 0; v < g->n_values; v++)
        if (cc_dtype_is_float(g->values[v].dtype) && g->values[v].dtype != CC_F32)
            return cc_err_set(err, CC_ERR_ARG, "quantize: %s is %s; quantization starts from an FP32 model",
                              m->value_names[v], cc_dtype_name(g->values[v].dtype));
    return CC_OK;
}

/* Calibrates the folded model f into a new *out. */
static cc_status calibrate_folded(const cc_model *f, const cc_calib_options *opt, cc_quant_params **out, cc_err *err)
{
    const cc_graph *g = &f->graph;
    cc_calib_range *ranges = NULL;
    cc_status st = cc_calib_collect(f, opt, &ranges, err);
    if (st) return st;
    cc_quant_params *p = calloc(1, sizeof *p);
    if (!p || !(p->e = malloc(sizeof *p->e * ((size_t)g->n_values + 1)))) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int v = 0; v < g->n_values; v++) {
        if (g->values[v].data) continue;
        snprintf(p->e[p->n].name, sizeof p->e[p->n].name, "%s", f->value_names[v]);
        p->e[p->n++].r = ranges[v];
    }
    qsort(p->e, (size_t)p->n, sizeof *p->e, by_name);
    for (int i = 1; i < p->n; i++)
        if (!strcmp(p->e[i - 1].name, p->e[i].name)) {
            st = cc_err_set(err, CC_ERR_ARG, "quantize: two values are named %s", p->e[i].name);
            goto fail;
        }
    p->opt = *opt;
    p->opt.inputs = NULL;
    free(ranges);
    *out = p;
    return CC_OK;
fail:
    free(ranges);
    cc_quant_params_free(p);
    return st;
}

/* Quantizes the folded model f (n_folded BatchNormalizations folded) with p. */
static cc_status apply_folded(const cc_model *f, int n_folded, const cc_quant_params *p, cc_model **out,
                              cc_quant_report *rep, cc_err *err)
{
    const cc_graph *g = &f->graph;
    size_t nv = (size_t)g->n_values + 1;
    qstate q;
    memset(&q, 0, sizeof q);
    cc_calib_range *ranges = calloc(nv, sizeof *ranges);
    if (!ranges) return cc_err_set(err, CC_ERR_NOMEM, "out of memory");
    cc_status st = CC_OK;
    for (int v = 0; v < g->n_values; v++) {
        if (g->values[v].data) continue;
        named_range key;
        snprintf(key.name, sizeof key.name, "%s", f->value_names[v]);
        const named_range *e = bsearch(&key, p->e, (size_t)p->n, sizeof *p->e, by_name);
        if (e) ranges[v] = e->r;
        else if (g->values[v].dtype == CC_F32) {
            free(ranges);
            return cc_err_set(err, CC_ERR_ARG, "quantize: the parameters have no range for %s (calibrated on another model?)",
                              f->value_names[v]);
        }
    }
    if ((st = cc_rewrite_begin(f, CC_DTYPE_COUNT, &q.rw, err))) goto fail;
    q.range = ranges;
    q.opt = &p->opt;
    q.act = p->opt.signed_activations ? CC_I8 : CC_U8;
    q.qmin = cc_dtype_min(q.act);
    q.qmax = cc_dtype_max(q.act);
    q.fv = malloc(nv * sizeof *q.fv);
    q.qv = malloc(nv * sizeof *q.qv);
    q.sc = malloc(nv * sizeof *q.sc);
    q.zc = malloc(nv * sizeof *q.zc);
    q.scale = calloc(nv, sizeof *q.scale);
    q.zp = calloc(nv, sizeof *q.zp);
    q.needs_q = calloc(nv, 1);
    q.named = calloc(nv, 1);
    q.skip = calloc((size_t)g->n_nodes + 1, 1);
    if (!q.fv || !q.qv || !q.sc || !q.zc || !q.scale || !q.zp || !q.needs_q || !q.named || !q.skip) {
        st = cc_err_set(err, CC_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < nv; i++) q.fv[i] = q.qv[i] = q.sc[i] = q.zc[i] = -1;
    if ((st = mark_needs(&q, err)) || (st = build(&q, err))) goto fail;
    finish_report(&q, n_folded, p->opt.percentile > 0 ? p->opt.percentile : 99.99);
    cc_quant_report r = q.rep;
    st = cc_rewrite_finish(&q.rw, out, err);
    memset(&q.rw, 0, sizeof q.rw);
    if (!st && rep) *rep = r;
    qstate_free(&q);
    free(ranges);
    return st;
fail:
    cc_rewrite_abort(&q.rw);
    qstate_free(&q);
    free(ranges);
    return st;
}

cc_status cc_quant_calibrate(const cc_model *m, const cc_calib_options *opt, cc_quant_params **out, cc_err *err)
{
    cc_calib_options def = cc_calib_options_default();
    if (!opt) opt = &def;
    if (opt->n_images < 1) return cc_err_set(err, CC_ERR_ARG, "calibration needs at least one input");
    cc_model *f = NULL;
    int n_folded = 0;
    cc_status st = check_f32(m, err);
    if (!st) st = cc_model_fold_bn(m, &f, &n_folded, err);
    if (!st) st = calibrate_folded(f, opt, out, err);
    cc_model_free(f);
    return st;
}

cc_status cc_model_quantize_with(const cc_model *m, const cc_quant_params *p, cc_model **out, cc_quant_report *rep,
                                 cc_err *err)
{
    cc_model *f = NULL;
    int n_folded = 0;
    cc_status st = check_f32(m, err);
    if (!st) st = cc_model_fold_bn(m, &f, &n_folded, err);
    if (!st) st = apply_folded(f, n_folded, p, out, rep, err);
    cc_model_free(f);
    return st;
}

cc_status cc_model_quantize(const cc_model *m, const cc_calib_options *opt, cc_model **out, cc_quant_report *rep,
                            cc_err *err)
{
    cc_calib_options def = cc_calib_options_default();
    if (!opt) opt = &def;
    if (opt->n_images < 1) return cc_err_set(err, CC_ERR_ARG, "calibration needs at least one input");
    cc_model *f = NULL;
    cc_quant_params *p = NULL;
    int n_folded = 0;
    cc_status st = check_f32(m, err);
    if (!st) st = cc_model_fold_bn(m, &f, &n_folded, err);
    if (!st) st = calibrate_folded(f, opt, &p, err);
    if (!st) st = apply_folded(f, n_folded, p, out, rep, err);
    cc_quant_params_free(p);
    cc_model_free(f);
    return st;
}
