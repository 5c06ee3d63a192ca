/* fuse.c — fusion groups of onednn graph plans: the nodes after a convolution that one
 * oneDNN primitive computes with it through post-ops, the folded weights of a
 * BatchNormalization, and the labels describe_plan shows.
 *
 * A group starts at a convolution and follows its output through nodes that are its only
 * reader; a value inside a group has no reader outside it and is not a graph output, so
 * computing the group in the place of its last node changes nothing another node sees.
 *
 * Float groups (Conv on f32 or bf16):
 *   Conv -> BatchNormalization   folded into the weights and bias at prepare (weights,
 *                                bias and the four parameters constant, inference mode)
 *        -> activations          eltwise post-ops: the ops with CC_TRAIT_FUSABLE
 *                                (ops/ops.def: Relu, LeakyRelu, Clip with constant
 *                                bounds, HardSwish, HardSigmoid, Sigmoid, Tanh); Sigmoid(x)
 *                                read only by Mul(x, Sigmoid(x)) is swish (SiLU)
 *        -> Add(., r)            a sum post-op, once per group and before any activation
 *                                (oneDNN 2.6's jit kernels): r not constant, of the
 *                                output's shape and type; the primitive overwrites r in
 *                                place when nothing reads r later, else r is copied into
 *                                the destination first
 *        -> activations
 * INT8 groups (QLinearConv, as models/quantize.c writes INT8 graphs): QLinearConv ->
 *   DequantizeLinear -> the float steps above, where the Add's r is DequantizeLinear(q) of
 *   an 8-bit q read by that Add alone (the sum post-op's scale and zero point are q's), and
 *   one QuantizeLinear -> DequantizeLinear round trip (the same scale and zero point) may
 *   sit between them -> QuantizeLinear, whose output is the group's (q must have that
 *   output's type: it is overwritten in place, or copied into the destination first).
 *   The primitive computes in real values: its output scales carry the dequantization
 *   (x_scale * w_scale / y_scale * s), then
 *     clip to s (qmin - z), s (qmax - z)        the QLinearConv output's saturation
 *     float steps                              eltwise, swish, sum
 *     clip to the round trip's 8-bit range     (its rounding is not repeated)
 *     x 1/s' (the last eltwise's scale); round; + z' (linear, or the destination zero
 *     point: both add an integer)              QuantizeLinear; the conversion to 8 bits
 *                                              saturates
 *   The rounding of the QLinearConv output and of a round trip is left out: one rounding
 *   of a value already carried in f32, the only way the fused group differs from the nodes
 *   (besides f32 products where the golden model divides in double).
 * Requantizing concats (INT8 graphs run Concat of tensors with different scales in
 *   float): Concat of DequantizeLinear(q_i), each read by the Concat alone, read by a
 *   QuantizeLinear alone: each q_i is reordered straight into its place in the 8-bit
 *   output with scale s_i / s and both zero points (the reorder adds the output's zero
 *   point before rounding and multiplies in f32: it differs from the nodes at rounding
 *   ties only).
 * Integer matmuls with a bias: MatMulInteger -> Add of a constant i32 vector (ONNX
 *   quantizers write Gemm's bias so): one matmul adding the vector in integers
 *   (matmul.c).
 * oneDNN 2.6's jit post-op injectors keep one eltwise injector per algorithm, so a chain
 * repeating an algorithm with other parameters computes the second with the first's:
 * every algorithm appears at most once in a group (clip and clip_v2 are two), and a chain
 * stops where it would repeat one. Scales and zero points of the Quantize/DequantizeLinear
 * nodes must be constant scalars. A group oneDNN rejects is built node by node instead
 * (plan.c). */
#include "onednn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct walk {
    const cc_graph *g;
    const cc_onednn_value *vals;
    int *start;           /* readers of value v: reader[start[v] .. start[v + 1]) */
    int *reader;          /* node indices, once per input naming the value */
    unsigned char *is_out;
    const int *group_of;  /* nodes already in a group */
} walk;

static int n_readers(const walk *w, int v)
{
    return w->start[v + 1] - w->start[v];
}

static const cc_node *node_at(const walk *w, int k)
{
    return &w->g->nodes[k];
}

static int is_op(const cc_node *n, cc_op_id op)
{
    return n->op->id == op;
}

static int is_const(const walk *w, int v)
{
    return v >= 0 && w->vals[v].desc.data != NULL;
}

static const cc_tensor *desc(const walk *w, int v)
{
    return &w->vals[v].desc;
}

/* A constant scalar (numel 1) as a double into *x; absent (v < 0) gives dflt. */
static int const_scalar(const walk *w, int v, double dflt, double *x)
{
    if (v < 0) {
        *x = dflt;
        return 1;
    }
    if (!is_const(w, v) || cc_tensor_numel(desc(w, v)) != 1) return 0;
    *x = cc_load(desc(w, v)->data, desc(w, v)->dtype, 0);
    return 1;
}

static int input_or_none(const cc_node *n, int i)
{
    return i < n->n_in ? n->in[i] : -1;
}

/* Scale and zero point of a Quantize/DequantizeLinear node, constant scalars. */
static int qparams(const walk *w, const cc_node *n, double *scale, double *zp)
{
    return const_scalar(w, input_or_none(n, 1), 1, scale) && const_scalar(w, input_or_none(n, 2), 0, zp) &&
           *scale > 0 && isfinite(*scale);
}

/* The single node reading v (once), or -1; never a node already grouped. */
static int only_reader(const walk *w, int v)
{
    if (w->is_out[v] || n_readers(w, v) != 1) return -1;
    int k = w->reader[w->start[v]];
    return w->group_of[k] < 0 ? k : -1;
}

typedef struct chain {
    cc_onednn_fusion f;
    int cur;              /* the value the chain has computed so far */
    int sum_used;
    int int8;
} chain;

static int add_fused(chain *c, int k)
{
    if (c->f.n_fused >= CC_ONEDNN_MAX_FUSED) return 0;
    c->f.fused[c->f.n_fused++] = k;
    return 1;
}

static int alg_used(const chain *c, dnnl_alg_kind_t alg)
{
    for (int i = 0; i < c->f.n_post; i++)
        if (c->f.post[i].kind == CC_ONEDNN_POST_ELTWISE && c->f.post[i].alg == alg) return 1;
    return 0;
}

/* Appends an eltwise post-op; 0 when the chain is full or already uses alg. */
static int add_eltwise(chain *c, dnnl_alg_kind_t alg, float alpha, float beta)
{
    if (c->f.n_post >= CC_ONEDNN_MAX_POST || alg_used(c, alg)) return 0;
    cc_onednn_post *p = &c->f.post[c->f.n_post++];
    memset(p, 0, sizeof *p);
    p->kind = CC_ONEDNN_POST_ELTWISE;
    p->alg = alg;
    p->alpha = alpha;
    p->beta = beta;
    p->scale = 1.0f;
    return 1;
}

/* Multiplies the running value by k: the scale of the last eltwise post-op (it scales
 * that post-op's result), the output scales when there is no post-op yet, else a linear
 * post-op. 0 when none is possible. */
static int scale_by(chain *c, double k)
{
    if (c->f.n_post == 0) {
        c->f.oscale *= (float)k;
        return 1;
    }
    cc_onednn_post *last = &c->f.post[c->f.n_post - 1];
    if (last->kind == CC_ONEDNN_POST_ELTWISE) {
        last->scale *= (float)k;
        return 1;
    }
    return add_eltwise(c, dnnl_eltwise_linear, (float)k, 0.0f);
}

/* The activation node k as post-ops (k reads c->cur as its input 0). */
static int step_activation(const walk *w, chain *c, int k)
{
    const cc_node *n = node_at(w, k);
    /* the activations that are eltwise post-ops (cc_onednn_unary_algs maps them) */
    if (!cc_op_has_trait(n->op, CC_TRAIT_FUSABLE) || n->n_out != 1 || n->in[0] != c->cur) return 0;
    cc_onednn_build tb;
    memset(&tb, 0, sizeof tb);
    tb.node = n;
    for (int i = 0; i < n->n_in && i < CC_MAX_IO; i++) tb.in[i] = n->in[i] >= 0 ? desc(w, n->in[i]) : NULL;
    cc_onednn_eltwise e[2];
    int ne = 0;
    cc_err err = { 0 };
    if (cc_onednn_unary_algs(&tb, e, &ne, &err) != CC_OK) return 0;
    if (c->f.n_post + ne > CC_ONEDNN_MAX_POST || c->f.n_fused >= CC_ONEDNN_MAX_FUSED) return 0;
    for (int i = 0; i < ne; i++)
        if (alg_used(c, e[i].alg) || (i > 0 && e[i].alg == e[0].alg)) return 0;
    for (int i = 0; i < ne; i++) add_eltwise(c, e[i].alg, e[i].alpha, e[i].beta);
    add_fused(c, k);
    c->cur = n->out[0];
    return 1;
}

/* Sigmoid(cur) read only by Mul(cur, Sigmoid(cur)) (cur read by the two alone): swish. */
static int step_silu(const walk *w, chain *c)
{
    int v = c->cur;
    if (w->is_out[v] || n_readers(w, v) != 2) return 0;
    int a = w->reader[w->start[v]], b = w->reader[w->start[v] + 1];
    if (is_op(node_at(w, b), CC_OP_ID_Sigmoid)) {
        int t = a;
        a = b;
        b = t;
    }
    const cc_node *s = node_at(w, a), *m = node_at(w, b);
    if (w->group_of[a] >= 0 || w->group_of[b] >= 0 || !is_op(s, CC_OP_ID_Sigmoid) || !is_op(m, CC_OP_ID_Mul) ||
        s->n_out != 1 || m->n_out != 1 || m->n_in != 2)
        return 0;
    int so = s->out[0];
    if (only_reader(w, so) != b) return 0;
    if (!((m->in[0] == v && m->in[1] == so) || (m->in[0] == so && m->in[1] == v))) return 0;
    if (c->f.n_fused + 2 > CC_ONEDNN_MAX_FUSED || !add_eltwise(c, dnnl_eltwise_swish, 1.0f, 0.0f)) return 0;
    add_fused(c, a < b ? a : b);
    add_fused(c, a < b ? b : a);
    c->cur = m->out[0];
    return 1;
}

/* 1 for an eltwise algorithm that is not piecewise linear (exp, logistic, swish, ...). */
static int transcendental(dnnl_alg_kind_t alg)
{
    switch (alg) {
    case dnnl_eltwise_linear:
    case dnnl_eltwise_round:
    case dnnl_eltwise_clip:
    case dnnl_eltwise_clip_v2:
    case dnnl_eltwise_relu:
    case dnnl_eltwise_bounded_relu:
    case dnnl_eltwise_abs: return 0;
    default: return 1;
    }
}

/* Add(cur, r) as a sum post-op (k is the Add). In an INT8 chain r must be
 * DequantizeLinear(q) read by the Add alone; the sum then reads q. */
static int step_add(const walk *w, chain *c, int k)
{
    const cc_node *n = node_at(w, k);
    if (c->sum_used || !is_op(n, CC_OP_ID_Add) || n->n_in != 2 || n->n_out != 1) return 0;
    /* oneDNN 2.6's jit convolutions take a sum post-op after a requantization (round, a
     * linear scale, a clip) or a relu, but not after a transcendental activation: then the
     * primitive falls back to the reference kernel (YOLOv5s's Conv+BN+SiLU+Add ran as
     * ref:any, 19x slower than unfused at 320 px). The Add then stays a primitive of its own. */
    for (int i = 0; i < c->f.n_post; i++)
        if (c->f.post[i].kind == CC_ONEDNN_POST_ELTWISE && transcendental(c->f.post[i].alg)) return 0;
    int r = n->in[0] == c->cur ? n->in[1] : n->in[0];
    if (r == c->cur || r < 0 || is_const(w, r) || (n->in[0] != c->cur && n->in[1] != c->cur)) return 0;
    const cc_tensor *tr = desc(w, r), *tc = desc(w, c->cur), *to = desc(w, n->out[0]);
    if (tr->dtype != tc->dtype || !cc_shape_equal(&tr->shape, &tc->shape) || !cc_shape_equal(&to->shape, &tc->shape))
        return 0;
    double scale = 1, zp = 0;
    int value = r, deq = -1;
    if (c->int8) {
        /* r = DequantizeLinear(q), q 8-bit of the group's output type */
        int found = -1;
        for (int j = 0; j < k && found < 0; j++)
            for (int o = 0; o < node_at(w, j)->n_out; o++)
                if (node_at(w, j)->out[o] == r) found = j;
        if (found < 0 || w->group_of[found] >= 0 || only_reader(w, r) != k) return 0;
        const cc_node *d = node_at(w, found);
        if (!is_op(d, CC_OP_ID_DequantizeLinear) || d->n_out != 1 || d->in[0] < 0 || !qparams(w, d, &scale, &zp))
            return 0;
        value = d->in[0];
        if (is_const(w, value) || w->is_out[r]) return 0;
        deq = found;
    }
    if (c->f.n_post >= CC_ONEDNN_MAX_POST || c->f.n_fused + (deq >= 0) + 1 > CC_ONEDNN_MAX_FUSED) return 0;
    cc_onednn_post *p = &c->f.post[c->f.n_post++];
    memset(p, 0, sizeof *p);
    p->kind = CC_ONEDNN_POST_SUM;
    p->value = value;
    p->scale = (float)scale;
    p->zero_point = (int32_t)zp;
    if (deq >= 0) add_fused(c, deq);
    add_fused(c, k);
    c->sum_used = 1;
    c->cur = n->out[0];
    return 1;
}

/* 1 when an INT8 chain's sum post-op (if any) reads a value of the output type qt: the
 * primitive overwrites that value in place, or a copy of it. */
static int sum_type_ok(const walk *w, const chain *c, cc_dtype qt)
{
    for (int i = 0; i < c->f.n_post; i++)
        if (c->f.post[i].kind == CC_ONEDNN_POST_SUM && desc(w, c->f.post[i].value)->dtype != qt) return 0;
    return 1;
}

/* Follows the chain from c->cur through float steps. An INT8 chain also goes through
 * QuantizeLinear -> DequantizeLinear round trips, and *best receives the longest chain
 * that ends in a QuantizeLinear (best->f.main stays -1 when there is none). */
static void follow(const walk *w, chain *c, chain *best)
{
    for (;;) {
        int k = only_reader(w, c->cur);
        if (k < 0) {
            if (!step_silu(w, c)) return;
            continue;
        }
        if (step_activation(w, c, k) || step_add(w, c, k)) continue;
        if (!c->int8) return;
        const cc_node *n = node_at(w, k);
        double s, zp;
        if (!is_op(n, CC_OP_ID_QuantizeLinear) || n->n_out != 1 || n->in[0] != c->cur || !qparams(w, n, &s, &zp))
            return;
        cc_dtype qt = desc(w, n->out[0])->dtype;
        if (qt != CC_U8 && qt != CC_I8) return;
        /* the chain may end here: x / s rounded, plus the zero point (the conversion to qt
         * saturates) */
        chain end = *c;
        if (scale_by(&end, 1.0 / s) && add_eltwise(&end, dnnl_eltwise_round, 0, 0) && add_fused(&end, k) &&
            sum_type_ok(w, &end, qt)) {
            if (zp != 0 && !add_eltwise(&end, dnnl_eltwise_linear, 1.0f, (float)zp)) end.f.dst_zero_point = (int32_t)zp;
            end.f.out_value = n->out[0];
            end.cur = n->out[0];
            *best = end;
        }
        /* or on through a DequantizeLinear with the same scale and zero point: saturated
         * to the 8-bit range (the rounding is not repeated) */
        int d = only_reader(w, n->out[0]);
        double ds, dz;
        if (d < 0 || !is_op(node_at(w, d), CC_OP_ID_DequantizeLinear) || node_at(w, d)->n_out != 1 ||
            node_at(w, d)->in[0] != n->out[0] || !qparams(w, node_at(w, d), &ds, &dz) || ds != s || dz != zp ||
            c->f.n_fused + 2 > CC_ONEDNN_MAX_FUSED ||
            !add_eltwise(c, dnnl_eltwise_clip, (float)(s * (cc_dtype_min(qt) - zp)),
                         (float)(s * (cc_dtype_max(qt) - zp))))
            return;
        add_fused(c, k);
        add_fused(c, d);
        c->cur = node_at(w, d)->out[0];
    }
}

/* A float group from Conv node k, or none (returns 0). */
static int float_group(const walk *w, int k, cc_onednn_fusion *out)
{
    const cc_node *n = node_at(w, k);
    if (n->n_out != 1 || n->n_in < 2) return 0;
    cc_dtype dt = desc(w, n->in[0])->dtype;
    if (dt != CC_F32 && dt != CC_BF16) return 0;
    chain c;
    memset(&c, 0, sizeof c);
    c.f.main = k;
    c.f.bn = -1;
    c.f.oscale = 1.0f;
    c.cur = n->out[0];
    /* a BatchNormalization right after the convolution */
    int r = only_reader(w, c.cur);
    if (r >= 0 && is_op(node_at(w, r), CC_OP_ID_BatchNormalization)) {
        const cc_node *bn = node_at(w, r);
        int ok = bn->n_out == 1 && bn->n_in == 5 && bn->in[0] == c.cur && cc_attr_i(bn, "training_mode") == 0 &&
                 is_const(w, n->in[1]) && (input_or_none(n, 2) < 0 || is_const(w, n->in[2]));
        for (int i = 1; i < 5 && ok; i++) ok = is_const(w, bn->in[i]);
        if (ok) {
            c.f.bn = r;
            add_fused(&c, r);
            c.cur = bn->out[0];
        }
    }
    follow(w, &c, NULL);
    if (c.f.n_fused == 0) return 0;
    c.f.out_value = c.cur;
    *out = c.f;
    return 1;
}

/* An INT8 group from QLinearConv node k, or none. */
static int int8_group(const walk *w, int k, cc_onednn_fusion *out)
{
    const cc_node *n = node_at(w, k);
    if (n->n_out != 1 || n->n_in < 8) return 0;
    double ys, yz;
    if (!const_scalar(w, input_or_none(n, 6), 1, &ys) || !const_scalar(w, input_or_none(n, 7), 0, &yz)) return 0;
    int d = only_reader(w, n->out[0]);
    double ds, dz;
    if (d < 0 || !is_op(node_at(w, d), CC_OP_ID_DequantizeLinear) || node_at(w, d)->n_out != 1 ||
        node_at(w, d)->in[0] != n->out[0] || !qparams(w, node_at(w, d), &ds, &dz))
        return 0;
    cc_dtype qt = desc(w, n->out[0])->dtype;
    chain c;
    memset(&c, 0, sizeof c);
    c.f.main = k;
    c.f.bn = -1;
    c.f.int8 = 1;
    c.f.oscale = (float)ds; /* the output scales give ds (q - yz), q before rounding */
    c.int8 = 1;
    if (yz != dz) add_eltwise(&c, dnnl_eltwise_linear, 1.0f, (float)((yz - dz) * ds));
    add_eltwise(&c, dnnl_eltwise_clip_v2, (float)(ds * (cc_dtype_min(qt) - dz)), (float)(ds * (cc_dtype_max(qt) - dz)));
    add_fused(&c, d);
    c.cur = node_at(w, d)->out[0];
    if (desc(w, c.cur)->dtype != CC_F32) return 0;
    chain best = c;
    best.f.main = -1;
    follow(w, &c, &best);
    if (best.f.main < 0) return 0;
    *out = best.f;
    return 1;
}

/* A requantizing concat group from Concat node k, or none. */
static int concat_group(const walk *w, int k, cc_onednn_fusion *out)
{
    const cc_node *n = node_at(w, k);
    /* one reorder per input, and one left for a dense output */
    if (n->n_out != 1 || n->n_in < 1 || n->n_in > CC_ONEDNN_MAX_STEPS - 1) return 0;
    cc_onednn_fusion f;
    memset(&f, 0, sizeof f);
    f.main = k;
    f.bn = -1;
    f.oscale = 1.0f;
    for (int i = 0; i < n->n_in; i++) {
        int v = n->in[i], d = -1;
        if (v < 0 || is_const(w, v) || only_reader(w, v) != k) return 0;
        for (int j = 0; j < k && d < 0; j++)
            if (node_at(w, j)->n_out == 1 && node_at(w, j)->out[0] == v) d = j;
        double s, z;
        if (d < 0 || w->group_of[d] >= 0 || !is_op(node_at(w, d), CC_OP_ID_DequantizeLinear) ||
            !qparams(w, node_at(w, d), &s, &z))
            return 0;
        int q = node_at(w, d)->in[0];
        cc_dtype qt = q >= 0 ? desc(w, q)->dtype : CC_F32;
        if (q < 0 || is_const(w, q) || (qt != CC_U8 && qt != CC_I8)) return 0;
        for (int j = 0; j < f.n_fused; j++)
            if (f.fused[j] == d) return 0; /* the same DequantizeLinear twice */
        if (f.n_fused >= CC_ONEDNN_MAX_FUSED - 1) return 0;
        f.fused[f.n_fused++] = d;
        f.cat_value[f.n_cat] = q;
        f.cat_scale[f.n_cat] = (float)s;
        f.cat_zero_point[f.n_cat++] = (int32_t)z;
    }
    int q = only_reader(w, n->out[0]);
    double s, z;
    if (q < 0 || !is_op(node_at(w, q), CC_OP_ID_QuantizeLinear) || node_at(w, q)->n_out != 1 ||
        node_at(w, q)->in[0] != n->out[0] || !qparams(w, node_at(w, q), &s, &z))
        return 0;
    cc_dtype qt = desc(w, node_at(w, q)->out[0])->dtype;
    if (qt != CC_U8 && qt != CC_I8) return 0;
    for (int i = 0; i < f.n_cat; i++) f.cat_scale[i] = (float)(f.cat_scale[i] / s);
    f.out_zero_point = (int32_t)z;
    f.fused[f.n_fused++] = q;
    f.out_value = node_at(w, q)->out[0];
    *out = f;
    return 1;
}

int cc_onednn_bias_add(const cc_graph *g, const cc_node *add, int *mm, int *bias)
{
    if (!is_op(add, CC_OP_ID_Add) || add->n_in != 2 || add->n_out != 1) return 0;
    for (int side = 0; side < 2; side++) {
        int y = add->in[side], c = add->in[1 - side];
        if (y < 0 || c < 0 || y == c || !g->values[c].data || g->values[c].dtype != CC_I32) continue;
        int producer = -1, readers = 0;
        for (int k = 0; k < g->n_nodes; k++) {
            const cc_node *n = &g->nodes[k];
            if (n->n_out == 1 && n->out[0] == y) producer = k;
            for (int i = 0; i < n->n_in; i++) readers += n->in[i] == y;
        }
        for (int j = 0; j < g->n_outputs; j++) readers += g->outputs[j] == y;
        if (producer < 0 || readers != 1 || !is_op(&g->nodes[producer], CC_OP_ID_MatMulInteger)) continue;
        const cc_shape *ys = &g->values[y].shape, *cs = &g->values[c].shape;
        if (ys->rank < 1 || cs->rank > ys->rank || !cc_shape_equal(ys, &g->values[add->out[0]].shape)) continue;
        int ok = 1;
        if (cc_shape_numel(cs) != 1) {
            for (int i = 0; i < cs->rank - 1; i++) ok &= cs->dims[i] == 1;
            ok &= cs->dims[cs->rank - 1] == ys->dims[ys->rank - 1];
        }
        if (!ok) continue;
        *mm = producer;
        *bias = c;
        return 1;
    }
    return 0;
}

/* An integer matmul with its bias from MatMulInteger node k (cc_onednn_bias_add), or
 * none; never an Add already grouped. */
static int mm_bias_group(const walk *w, int k, cc_onednn_fusion *out)
{
    const cc_node *n = node_at(w, k);
    if (n->n_out != 1) return 0;
    int r = only_reader(w, n->out[0]), mm = -1, c = -1;
    if (r < 0 || !cc_onednn_bias_add(w->g, node_at(w, r), &mm, &c) || mm != k) return 0;
    cc_onednn_fusion f;
    memset(&f, 0, sizeof f);
    f.main = k;
    f.bn = -1;
    f.oscale = 1.0f;
    f.fused[f.n_fused++] = r;
    f.out_value = node_at(w, r)->out[0];
    f.mm_bias = c;
    *out = f;
    return 1;
}

static int by_anchor(const void *a, const void *b)
{
    const cc_onednn_fusion *x = a, *y = b;
    return (x->anchor > y->anchor) - (x->anchor < y->anchor);
}

cc_status cc_onednn_fuse(const cc_graph *g, const cc_onednn_value *vals, cc_onednn_fusion **groups, int *n,
                         int *group_of, cc_err *err)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.g = g;
    w.vals = vals;
    w.group_of = group_of;
    int total = 0;
    for (int k = 0; k < g->n_nodes; k++) total += g->nodes[k].n_in;
    w.start = calloc((size_t)g->n_values + 2, sizeof *w.start);
    w.reader = calloc((size_t)total + 1, sizeof *w.reader);
    w.is_out = calloc((size_t)g->n_values + 1, 1);
    cc_onednn_fusion *list = calloc((size_t)g->n_nodes + 1, sizeof *list);
    if (!w.start || !w.reader || !w.is_out || !list) {
        free(w.start);
        free(w.reader);
        free(w.is_out);
        free(list);
        return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
    }
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k].n_in; i++)
            if (g->nodes[k].in[i] >= 0) w.start[g->nodes[k].in[i] + 1]++;
    for (int v = 0; v < g->n_values; v++) w.start[v + 1] += w.start[v];
    int *fill = calloc((size_t)g->n_values + 1, sizeof *fill);
    if (!fill) {
        free(w.start);
        free(w.reader);
        free(w.is_out);
        free(list);
        return cc_err_set(err, CC_ERR_NOMEM, "onednn: out of memory");
    }
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k].n_in; i++) {
            int v = g->nodes[k].in[i];
            if (v >= 0) w.reader[w.start[v] + fill[v]++] = k;
        }
    free(fill);
    for (int j = 0; j < g->n_outputs; j++) w.is_out[g->outputs[j]] = 1;
    for (int k = 0; k < g->n_nodes; k++) group_of[k] = -1;

    int ng = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        if (group_of[k] >= 0) continue;
        const cc_node *nd = &g->nodes[k];
        cc_onednn_fusion f;
        int found = is_op(nd, CC_OP_ID_Conv)            ? float_group(&w, k, &f)
                    : is_op(nd, CC_OP_ID_QLinearConv)   ? int8_group(&w, k, &f)
                    : is_op(nd, CC_OP_ID_Concat)        ? concat_group(&w, k, &f)
                    : is_op(nd, CC_OP_ID_MatMulInteger) ? mm_bias_group(&w, k, &f)
                                                        : 0;
        if (!found) continue;
        f.anchor = k;
        for (int i = 0; i < f.n_fused; i++)
            if (f.fused[i] > f.anchor) f.anchor = f.fused[i];
        group_of[k] = ng;
        for (int i = 0; i < f.n_fused; i++) group_of[f.fused[i]] = ng;
        list[ng++] = f;
    }
    qsort(list, (size_t)ng, sizeof *list, by_anchor);
    for (int i = 0; i < ng; i++) {
        group_of[list[i].main] = i;
        for (int j = 0; j < list[i].n_fused; j++) group_of[list[i].fused[j]] = i;
    }
    free(w.start);
    free(w.reader);
    free(w.is_out);
    *groups = list;
    *n = ng;
    return CC_OK;
}

cc_status cc_onednn_post_ops(const cc_onednn_fusion *f, const cc_onednn_value *vals, dnnl_primitive_attr_t attr,
                             cc_err *err)
{
    dnnl_post_ops_t po = NULL;
    if (dnnl_post_ops_create(&po) != dnnl_success)
        return cc_err_set(err, CC_ERR_NOMEM, "oneDNN: cannot create post-ops");
    cc_status st = CC_OK;
    for (int i = 0; i < f->n_post && !st; i++) {
        const cc_onednn_post *p = &f->post[i];
        dnnl_status_t s;
        if (p->kind == CC_ONEDNN_POST_SUM) {
            dnnl_data_type_t dt = dnnl_data_type_undef;
            if (f->int8) cc_onednn_dt("sum post-op", vals[p->value].desc.dtype, &dt, NULL);
            s = cc_onednn_append_sum(po, p->scale, p->zero_point, dt);
        } else {
            s = cc_onednn_append_eltwise(po, p->scale, p->alg, p->alpha, p->beta);
        }
        st = cc_onednn_status(s, "post-op", err);
    }
    if (!st) st = cc_onednn_status(dnnl_primitive_attr_set_post_ops(attr, po), "post-ops", err);
    dnnl_post_ops_destroy(po);
    return st;
}

cc_status cc_onednn_fold_bn(const cc_onednn_build *b, const cc_onednn_fusion *f, int wi, int bi, void **w,
                            float **bias, cc_err *err)
{
    const cc_node *bn = &b->graph->nodes[f->bn];
    const cc_tensor *wt = b->in[wi], *bt = bi < b->node->n_in ? b->in[bi] : NULL;
    const cc_tensor *par[4];
    for (int k = 0; k < 4; k++) par[k] = &b->vals[bn->in[1 + k]].desc; /* scale, B, mean, var */
    int64_t m = wt->shape.dims[0], n = cc_tensor_numel(wt), per = m > 0 ? n / m : 0;
    double eps = (double)(float)cc_attr_f(bn, "epsilon");
    void *wf = malloc(cc_tensor_bytes(wt) + 1);
    float *bf = malloc((size_t)(m > 0 ? m : 1) * sizeof *bf);
    if (!wf || !bf) {
        free(wf);
        free(bf);
        return cc_err_set(err, CC_ERR_NOMEM, "Conv: out of memory folding %s", bn->name);
    }
    for (int64_t c = 0; c < m; c++) {
        double var = cc_load(par[3]->data, par[3]->dtype, (size_t)c);
        double a = cc_load(par[0]->data, par[0]->dtype, (size_t)c) / sqrt(var + eps);
        double b0 = bt && bt->data ? cc_load(bt->data, bt->dtype, (size_t)c) : 0;
        for (int64_t i = 0; i < per; i++) {
            size_t j = (size_t)(c * per + i);
            cc_store(wf, wt->dtype, j, cc_load(wt->data, wt->dtype, j) * a);
        }
        double mean = cc_load(par[2]->data, par[2]->dtype, (size_t)c);
        bf[c] = (float)((b0 - mean) * a + cc_load(par[1]->data, par[1]->dtype, (size_t)c));
    }
    *w = wf;
    *bias = bf;
    return CC_OK;
}

void cc_onednn_fusion_label(const cc_onednn_node_plan *p, const cc_graph *g, char *buf, size_t n)
{
    if (!n) return;
    size_t len = (size_t)snprintf(buf, n, "%s", p->node->op->name);
    const cc_onednn_fusion *f = p->fuse;
    for (int i = 0; f && i < f->n_fused && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "+%s", g->nodes[f->fused[i]].op->name);
}
