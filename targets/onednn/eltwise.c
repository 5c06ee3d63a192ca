/* eltwise.c — onednn builders of the elementwise ops: the unary activations on oneDNN's
 * eltwise primitive, Add/Sub/Mul/Div, the comparisons and the logical ops on its binary
 * primitive, Sum and Mean on its sum primitive (or a chain of binaries where inputs
 * broadcast), Min and Max of more than two inputs as a chain of binaries, PRelu on its
 * prelu primitive. The unary mapping is also what a graph plan's fused post-ops use
 * (cc_onednn_unary_algs).
 *
 * Unary mapping (oneDNN 2.6 algorithms): Relu = relu (alpha 0), LeakyRelu = relu with
 * alpha, Sigmoid = logistic, Tanh = tanh, Exp = exp, Sqrt = sqrt, HardSwish = hardswish,
 * Clip = clip_v2 with the constant bounds (an absent bound is infinite), Abs = abs, Round =
 * round (half to even), Elu = elu with alpha, Neg = linear (-1 x + 0). Log is not mapped:
 * 2.6's eltwise log (avx2 jit) is accurate to about 1.4e-6 absolute, not relative (log 1
 * = -1.43e-6, log 5 off by 2.8e-6), far outside a few ulps near 1; nor is Softplus (its
 * soft_relu misses the transcendental bound by up to 14x: 0.0181498528 for 0.0181499279
 * near x = -4, from the same log). oneDNN
 * 2.6 has no hard-sigmoid or selu algorithm: HardSigmoid is linear (alpha x + beta)
 * followed by clip_v2 to [0, 1] in place, Selu elu (alpha) followed by linear (gamma x),
 * two eltwise primitives each.
 *
 * Both keep the layout their input is stored in (a graph plan's blocked or channels-last
 * layout between primitives); binary does when both operands have the output's shape and
 * the same layout, and reads dense data otherwise.
 *
 * Binary (Add, Sub, Mul, Div, and Min and Max of two inputs): operands are given oneDNN with
 * the output's rank (leading 1s); oneDNN broadcasts a dimension of 1 of the second source.
 * When only the first operand needs broadcasting, Add, Mul, Min and Max swap their operands; Sub and
 * Div keep them and oneDNN says whether it broadcasts the first source. A broadcast that
 * only oneDNN's reference kernel implements (2.6's jit kernels broadcast a scalar, per
 * channel or per channel and spatial, not e.g. [1,3,80,80,2] by [1,3,1,1,2]) is taken away
 * in build mode when the broadcast operand is a constant: it is expanded once to the
 * output's shape, and the jit kernel reads two operands of one shape. oneDNN's binary
 * computes in f32 and rounds integer results to nearest, which is neither exact for int32
 * operands beyond 2^24 nor ONNX's truncating integer Div, so integer dtypes are not claimed,
 * except Min and Max of int8/uint8 (a selection, exact in f32), Clip of int8/uint8 (binary
 * max and min with the bounds: oneDNN 2.6's eltwise clip refuses 8-bit data) and bool, one
 * byte 0 or 1 (And = min, Or = max, Xor = ne, Not = eq 0, Equal = eq). */
#include "onednn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl_debug.h>

/* ---- unary ------------------------------------------------------------------------------ */

/* The ops that are one eltwise primitive; alpha and beta come from the named float
 * attributes (NULL: 0). */
static const struct {
    const char *op;
    dnnl_alg_kind_t alg;
    const char *alpha, *beta;
} single_algs[] = {
    { "Relu", dnnl_eltwise_relu, NULL, NULL },
    { "LeakyRelu", dnnl_eltwise_relu, "alpha", NULL },
    { "Sigmoid", dnnl_eltwise_logistic, NULL, NULL },
    { "Tanh", dnnl_eltwise_tanh, NULL, NULL },
    { "Exp", dnnl_eltwise_exp, NULL, NULL },
    { "Sqrt", dnnl_eltwise_sqrt, NULL, NULL },
    { "HardSwish", dnnl_eltwise_hardswish, NULL, NULL },
    /* HardSigmoid's first step; the clip to [0, 1] follows (cc_onednn_unary_algs) */
    { "HardSigmoid", dnnl_eltwise_linear, "alpha", "beta" },
    { "Abs", dnnl_eltwise_abs, NULL, NULL },
    { "Round", dnnl_eltwise_round, NULL, NULL },
    { "Elu", dnnl_eltwise_elu, "alpha", NULL },
    /* Selu's first step, elu with alpha; the product by gamma follows */
    { "Selu", dnnl_eltwise_elu, "alpha", NULL },
};

cc_status cc_onednn_unary_algs(const cc_onednn_build *b, cc_onednn_eltwise *s, int *n, cc_err *err)
{
    const char *op = b->node->op->name;
    *n = 1;
    s[0].alpha = s[0].beta = 0;
    if (strcmp(op, "Clip") == 0) {
        cc_status st;
        if ((st = cc_onednn_need_const(b, 1, "bounds are eltwise parameters", err)) ||
            (st = cc_onednn_need_const(b, 2, "bounds are eltwise parameters", err)))
            return st;
        double lo = b->in[1] ? cc_onednn_const_at(b->in[1], 0) : -INFINITY;
        double hi = b->in[2] ? cc_onednn_const_at(b->in[2], 0) : INFINITY;
        if (lo > hi)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "Clip: min > max (ONNX gives max everywhere; oneDNN's clip_v2 assumes "
                              "min <= max)");
        s[0].alg = dnnl_eltwise_clip_v2;
        s[0].alpha = (float)lo;
        s[0].beta = (float)hi;
        return CC_OK;
    }
    for (size_t i = 0; i < sizeof single_algs / sizeof single_algs[0]; i++) {
        if (strcmp(single_algs[i].op, op) != 0) continue;
        s[0].alg = single_algs[i].alg;
        if (single_algs[i].alpha) s[0].alpha = (float)cc_attr_f(b->node, single_algs[i].alpha);
        if (single_algs[i].beta) s[0].beta = (float)cc_attr_f(b->node, single_algs[i].beta);
        if (strcmp(op, "HardSigmoid") == 0) {
            s[1].alg = dnnl_eltwise_clip_v2;
            s[1].alpha = 0;
            s[1].beta = 1;
            *n = 2;
        }
        if (strcmp(op, "Selu") == 0) {
            s[1].alg = dnnl_eltwise_linear;
            s[1].alpha = (float)cc_attr_f(b->node, "gamma");
            s[1].beta = 0;
            *n = 2;
        }
        return CC_OK;
    }
    if (strcmp(op, "Reciprocal") == 0) { /* 1 / x = pow with alpha 1, beta -1 */
        s[0].alg = dnnl_eltwise_pow;
        s[0].alpha = 1;
        s[0].beta = -1;
        return CC_OK;
    }
    if (strcmp(op, "Neg") == 0) { /* -x = linear with alpha -1, beta 0 */
        s[0].alg = dnnl_eltwise_linear;
        s[0].alpha = -1;
        return CC_OK;
    }
    return cc_err_set(err, CC_ERR_INTERNAL, "onednn: %s is not a unary eltwise op", op);
}

static cc_status clip_8bit(cc_onednn_build *b, dnnl_data_type_t dt, cc_err *err);

/* Unary ops: one or two eltwise primitives on the layout the input is stored in (any
 * layout: an eltwise primitive maps elements one to one), the second in place. */
static cc_status unary(cc_onednn_build *b, cc_err *err)
{
    cc_onednn_eltwise s[2];
    int n;
    dnnl_data_type_t dt;
    if (b->node->op->id == CC_OP_ID_Clip && (b->in[0]->dtype == CC_I8 || b->in[0]->dtype == CC_U8))
        return clip_8bit(b, b->in[0]->dtype == CC_I8 ? dnnl_s8 : dnnl_u8, err);
    if (b->in[0]->dtype == CC_I32)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: oneDNN's eltwise computes in f32: not exact for i32 values beyond 2^24",
                          b->node->op->name);
    cc_status st = cc_onednn_dt(b->node->op->name, b->in[0]->dtype, &dt, err);
    if (!st) st = cc_onednn_unary_algs(b, s, &n, err);
    if (st) return st;
    dnnl_memory_desc_t plain, md;
    if ((st = cc_onednn_md_shape(&plain, &b->in[0]->shape, dt, err))) return st;
    cc_onednn_in_md(b, 0, &plain, &md);
    dnnl_memory_t src = NULL, dst = NULL;
    for (int i = 0; i < n; i++) {
        char what[96];
        snprintf(what, sizeof what, "%s for %s", dnnl_alg_kind2str(s[i].alg), cc_onednn_dt_name(dt));
        dnnl_eltwise_desc_t ed;
        st = cc_onednn_status(
            dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, s[i].alg, &md, s[i].alpha, s[i].beta),
            what, err);
        if (st) return st;
        dnnl_primitive_desc_t pd = NULL;
        if ((st = cc_onednn_pd(b, &ed, NULL, what, &pd, err))) return st;
        if (i == 0 && ((st = cc_onednn_input(b, 0, &plain, &md, &src, err)) ||
                       (st = cc_onednn_output(b, 0, &md, &dst, err)))) {
            dnnl_primitive_desc_destroy(pd);
            return st;
        }
        /* later steps work in place on the output */
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_SRC, i == 0 ? src : dst }, { DNNL_ARG_DST, dst } };
        if ((st = cc_onednn_step_add(b, pd, args, 2, i == 0, err))) return st;
        if (i > 0) cc_onednn_note(b, " then %s in place", dnnl_alg_kind2str(s[i].alg));
    }
    return cc_onednn_output_finish(b, 0, err);
}

/* ---- binary ----------------------------------------------------------------------------- */

/* dims of shape s right-aligned to rank r (leading 1s). */
static void align_dims(const cc_shape *s, int r, int64_t *d)
{
    for (int i = 0; i < r; i++) {
        int j = i - (r - s->rank);
        d[i] = j >= 0 ? s->dims[j] : 1;
    }
}

/* Appends binary alg of src0 (descriptor md: the output's dims, dense) and a scalar constant
 * (one element, bytes of cell) into dst, in place where src0 == dst. */
static cc_status binary_scalar(cc_onednn_build *b, dnnl_alg_kind_t alg, const dnnl_memory_desc_t *md,
                               dnnl_memory_t src0, dnnl_memory_t dst, const void *cell, int main, cc_err *err)
{
    int64_t ones[DNNL_MAX_NDIMS];
    for (int k = 0; k < md->ndims; k++) ones[k] = 1;
    dnnl_memory_desc_t smd;
    dnnl_binary_desc_t bd;
    dnnl_primitive_desc_t pd = NULL;
    char what[96];
    snprintf(what, sizeof what, "%s for %s with a scalar", dnnl_alg_kind2str(alg), cc_onednn_dt_name(md->data_type));
    cc_status st = cc_onednn_md(&smd, md->ndims, ones, md->data_type, 0, err);
    if (!st) st = cc_onednn_status(dnnl_binary_desc_init(&bd, alg, md, &smd, md), what, err);
    if (!st) st = cc_onednn_pd(b, &bd, NULL, what, &pd, err);
    if (st) return st;
    dnnl_memory_t c = NULL;
    if ((st = cc_onednn_mem_new(b, &smd, cell, &c, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, src0 }, { DNNL_ARG_SRC_1, c }, { DNNL_ARG_DST, dst } };
    return cc_onednn_step_add(b, pd, args, 3, main, err);
}

/* Clip of int8 or uint8 data, which oneDNN 2.6's eltwise clip refuses: binary max with the
 * lower bound, then min with the upper one in place (a selection: exact on 8-bit values),
 * an absent bound skipped (neither: a copy). min > max gives max, as ONNX's min(max(x, min),
 * max) does. */
static cc_status clip_8bit(cc_onednn_build *b, dnnl_data_type_t dt, cc_err *err)
{
    cc_status st;
    if ((st = cc_onednn_need_const(b, 1, "bounds are scalar operands", err)) ||
        (st = cc_onednn_need_const(b, 2, "bounds are scalar operands", err)))
        return st;
    const cc_tensor *lo = b->node->n_in > 1 ? b->in[1] : NULL, *hi = b->node->n_in > 2 ? b->in[2] : NULL;
    int r = b->in[0]->shape.rank > 0 ? b->in[0]->shape.rank : 1;
    int64_t d[CC_MAX_RANK];
    align_dims(&b->in[0]->shape, r, d);
    dnnl_memory_desc_t md;
    if ((st = cc_onednn_md(&md, r, d, dt, 0, err))) return st;
    if (cc_tensor_numel(b->in[0]) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &md, &md, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err)))
        return st;
    int steps = 0;
    if (lo && (st = binary_scalar(b, dnnl_binary_max, &md, src, dst, lo->data, 1, err))) return st;
    steps += lo != NULL;
    if (hi && (st = binary_scalar(b, dnnl_binary_min, &md, steps ? dst : src, dst, hi->data, !steps, err))) return st;
    steps += hi != NULL;
    if (!steps) {
        dnnl_primitive_desc_t pd = NULL;
        if ((st = cc_onednn_reorder_pd(b, &md, &md, NULL, "reorder (copy: no bound)", &pd, err))) return st;
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
        return cc_onednn_step_add(b, pd, args, 2, 1, err);
    }
    cc_onednn_note(b, " (%s%s%s)", lo ? "max with min" : "", lo && hi ? ", then " : "", hi ? "min with max" : "");
    return CC_OK;
}

/* Largest output (elements) for which a broadcast constant operand is expanded. */
#define EXPAND_MAX ((int64_t)1 << 22)

static const char *impl_name(const_dnnl_primitive_desc_t pd)
{
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || !impl) return "?";
    return impl;
}

/* 1 when operand i (dims d, aligned to rank r) either has the output's dims dd or is a
 * constant of the output's type that expand_const can broadcast within EXPAND_MAX. */
static int expandable(const cc_onednn_build *b, int i, int r, const int64_t *d, const int64_t *dd)
{
    if (memcmp(d, dd, sizeof(int64_t) * (size_t)r) == 0 && b->in[i]->shape.rank == r) return 1;
    int64_t n = 1;
    for (int k = 0; k < r; k++) n *= dd[k];
    return b->in[i]->data && b->in[i]->dtype == b->in[0]->dtype && n <= EXPAND_MAX;
}

/* A memory of the node's own (descriptor md, dense of dims dd, rank r) holding constant
 * input i broadcast to dd. NULL in check mode. */
static cc_status expand_const(cc_onednn_build *b, int i, int r, const int64_t *dd, const dnnl_memory_desc_t *md,
                              dnnl_memory_t *mem, cc_err *err)
{
    *mem = NULL;
    if (!b->plan) return CC_OK;
    const cc_tensor *t = b->in[i];
    int64_t ds[CC_MAX_RANK], ss[CC_MAX_RANK], idx[CC_MAX_RANK] = { 0 }, n = 1, s = 1;
    align_dims(&t->shape, r, ds);
    for (int k = r - 1; k >= 0; k--) {
        ss[k] = ds[k] == 1 ? 0 : s; /* a broadcast dimension repeats the same elements */
        s *= ds[k];
        n *= dd[k];
    }
    size_t es = cc_dtype_size(t->dtype);
    unsigned char *buf = malloc((size_t)n * es);
    if (!buf) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", b->node->op->name);
    const unsigned char *src = t->data;
    for (int64_t e = 0; e < n; e++) {
        int64_t off = 0;
        for (int k = 0; k < r; k++) off += idx[k] * ss[k];
        memcpy(buf + (size_t)e * es, src + (size_t)off * es, es);
        for (int k = r - 1; k >= 0 && ++idx[k] == dd[k]; k--) idx[k] = 0;
    }
    cc_status st = cc_onednn_mem_new(b, md, buf, mem, err);
    free(buf);
    return st;
}

static cc_status binary(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    cc_dtype ct = b->in[0]->dtype;
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, ct, &dt, err);
    if (st) return st;
    dnnl_alg_kind_t alg = strcmp(op, "Add") == 0   ? dnnl_binary_add
                          : strcmp(op, "Sub") == 0 ? dnnl_binary_sub
                          : strcmp(op, "Mul") == 0 ? dnnl_binary_mul
                          : strcmp(op, "Min") == 0 ? dnnl_binary_min
                          : strcmp(op, "Max") == 0 ? dnnl_binary_max
                                                   : dnnl_binary_div;
    int select = alg == dnnl_binary_min || alg == dnnl_binary_max; /* exact on 8-bit values */
    if (ct == CC_I32 || ((ct == CC_I8 || ct == CC_U8) && !select))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: oneDNN's binary computes in f32 and rounds to nearest: not exact for %s "
                          "(values beyond 2^24%s)",
                          op, cc_dtype_name(ct), alg == dnnl_binary_div ? ", truncating integer Div" : "");
    const cc_shape *os = &b->out[0].shape;
    int r = os->rank > 0 ? os->rank : 1;
    int64_t da[CC_MAX_RANK], db[CC_MAX_RANK], dd[CC_MAX_RANK];
    align_dims(&b->in[0]->shape, r, da);
    align_dims(&b->in[1]->shape, r, db);
    align_dims(os, r, dd);
    /* which node input is oneDNN's first source */
    int first = 0;
    if (memcmp(da, dd, sizeof(int64_t) * (size_t)r) != 0 &&
        memcmp(db, dd, sizeof(int64_t) * (size_t)r) == 0 &&
        (alg == dnnl_binary_add || alg == dnnl_binary_mul || alg == dnnl_binary_min || alg == dnnl_binary_max))
        first = 1;
    dnnl_memory_desc_t m0, m1, md;
    if ((st = cc_onednn_md(&m0, r, first ? db : da, dt, 0, err)) ||
        (st = cc_onednn_md(&m1, r, first ? da : db, dt, 0, err)) ||
        (st = cc_onednn_md(&md, r, dd, dt, 0, err)))
        return st;
    /* operands of the output's shape stored in one layout are read and written in it */
    dnnl_memory_desc_t l0 = m0, l1 = m1, ld = md;
    if (b->in[0]->shape.rank == r && b->in[1]->shape.rank == r && memcmp(da, dd, sizeof(int64_t) * (size_t)r) == 0 &&
        memcmp(db, dd, sizeof(int64_t) * (size_t)r) == 0) {
        cc_onednn_in_md(b, first, &m0, &l0);
        cc_onednn_in_md(b, 1 - first, &m1, &l1);
        if (dnnl_memory_desc_equal(&l0, &l1))
            ld = l0;
        else
            l0 = m0, l1 = m1;
    }
    char what[96];
    snprintf(what, sizeof what, "%s for %s", dnnl_alg_kind2str(alg), cc_onednn_dt_name(dt));
    dnnl_binary_desc_t bd;
    if ((st = cc_onednn_status(dnnl_binary_desc_init(&bd, alg, &l0, &l1, &ld), what, err))) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &bd, NULL, what, &pd, err))) return st;
    /* a broadcast oneDNN's jit kernels lack (the reference kernel chosen): constant
     * operands are expanded to the output's shape once, when that leaves no broadcast */
    int expand[2] = { 0, 0 };
    if (b->plan && strncmp(impl_name(pd), "ref", 3) == 0 && expandable(b, first, r, first ? db : da, dd) &&
        expandable(b, 1 - first, r, first ? da : db, dd)) {
        dnnl_primitive_desc_destroy(pd);
        pd = NULL;
        for (int k = 0; k < 2; k++) expand[k] = !b->in[k == 0 ? first : 1 - first]->shape.rank ||
                                                memcmp(k == 0 ? m0.dims : m1.dims, dd, sizeof(int64_t) * (size_t)r);
        l0 = expand[0] ? md : l0;
        l1 = expand[1] ? md : l1;
        if ((st = cc_onednn_status(dnnl_binary_desc_init(&bd, alg, &l0, &l1, &ld), what, err)) ||
            (st = cc_onednn_pd(b, &bd, NULL, what, &pd, err)))
            return st;
    }
    dnnl_memory_t s0 = NULL, s1 = NULL, dst = NULL;
    if ((st = expand[0] ? expand_const(b, first, r, dd, &md, &s0, err)
                        : cc_onednn_input(b, first, &m0, &l0, &s0, err)) ||
        (st = expand[1] ? expand_const(b, 1 - first, r, dd, &md, &s1, err)
                        : cc_onednn_input(b, 1 - first, &m1, &l1, &s1, err)) ||
        (st = cc_onednn_output(b, 0, &ld, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, s0 }, { DNNL_ARG_SRC_1, s1 }, { DNNL_ARG_DST, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 3, 1, err))) return st;
    if (expand[0] || expand[1]) cc_onednn_note(b, " (broadcast constant expanded)");
    return cc_onednn_output_finish(b, 0, err);
}

/* ---- variadic: Sum, Mean, Min, Max ------------------------------------------------------ */

/* The node's inputs, which a variadic node gives without gaps: their count, or 0 with a gap. */
static int variadic_inputs(const cc_onednn_build *b)
{
    for (int i = 0; i < b->node->n_in; i++)
        if (!b->in[i]) return 0;
    return b->node->n_in;
}

/* One input: the output is a copy of it (of any type; oneDNN lacks i64 and bool, moved as
 * bytes), one reorder. */
static cc_status variadic_copy(cc_onednn_build *b, cc_err *err)
{
    dnnl_data_type_t dt;
    int bytes;
    cc_onednn_move_type(b->in[0]->dtype, &dt, &bytes);
    int64_t n = cc_tensor_numel(b->in[0]), d[2];
    if (n == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    int r = cc_onednn_with_bytes(1, &n, NULL, bytes, d, NULL);
    dnnl_memory_desc_t md;
    cc_status st = cc_onednn_md(&md, r, d, dt, 0, err);
    if (st) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_reorder_pd(b, &md, &md, NULL, "reorder (copy of the one input)", &pd, err))) return st;
    dnnl_memory_t src = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &md, &md, &src, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, dst } };
    if ((st = cc_onednn_step_add(b, pd, args, 2, 1, err))) return st;
    cc_onednn_note(b, " of the one input");
    if (bytes) cc_onednn_note(b, " (%s moved as %d x u8)", cc_dtype_name(b->in[0]->dtype), bytes);
    return CC_OK;
}

/* Appends the division of out (descriptor md, in place) by n: oneDNN's binary div with the
 * scalar n (exact in every float type for n <= 32) broadcast as the second source, one
 * correct rounding. */
static cc_status divide_step(cc_onednn_build *b, dnnl_memory_t out, const dnnl_memory_desc_t *md, int n, cc_err *err)
{
    int64_t ones[DNNL_MAX_NDIMS];
    for (int k = 0; k < md->ndims; k++) ones[k] = 1;
    dnnl_memory_desc_t nmd;
    dnnl_binary_desc_t bd;
    dnnl_primitive_desc_t pd = NULL;
    cc_status st = cc_onednn_md(&nmd, md->ndims, ones, md->data_type, 0, err);
    if (!st) st = cc_onednn_status(dnnl_binary_desc_init(&bd, dnnl_binary_div, md, &nmd, md), "binary_div by N", err);
    if (!st) st = cc_onednn_pd(b, &bd, NULL, "binary_div by N", &pd, err);
    if (st) return st;
    unsigned char cell[8];
    cc_store(cell, b->out[0].dtype, 0, (double)n);
    dnnl_memory_t nmem = NULL;
    if ((st = cc_onednn_mem_new(b, &nmd, cell, &nmem, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, out }, { DNNL_ARG_SRC_1, nmem }, { DNNL_ARG_DST, out } };
    st = cc_onednn_step_add(b, pd, args, 3, 0, err);
    if (!st) cc_onednn_note(b, " then binary_div by %d in place", n);
    return st;
}

/* The n inputs combined by binary alg into output 0 (dense): a chain of binary primitives,
 * the first from an input of the output's shape (or, where every input broadcasts, from a
 * reorder of input 0 broadcast into the output: stride 0), each later one in place over the
 * output with the next input as its (broadcast) second source; then, divide != 0, the
 * division by n (Mean). Data type dt, checked by the caller. */
static cc_status binary_chain(cc_onednn_build *b, dnnl_alg_kind_t alg, int n, int divide, dnnl_data_type_t dt,
                              cc_err *err)
{
    const char *op = b->node->op->name;
    const cc_shape *os = &b->out[0].shape;
    int r = os->rank > 0 ? os->rank : 1;
    int64_t dd[CC_MAX_RANK], dk[CC_MAX_RANK];
    align_dims(os, r, dd);
    int first = -1;
    for (int k = 0; k < n && first < 0; k++) {
        align_dims(&b->in[k]->shape, r, dk);
        if (memcmp(dk, dd, sizeof(int64_t) * (size_t)r) == 0) first = k;
    }
    int steps = (first >= 0 ? n - 1 : n) + (divide != 0);
    if (steps > CC_ONEDNN_MAX_STEPS)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %d inputs are more binary steps than a node plan holds (%d)",
                          op, n, CC_ONEDNN_MAX_STEPS);
    if (cc_tensor_numel(&b->out[0]) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_memory_desc_t md;
    cc_status st = cc_onednn_md(&md, r, dd, dt, 0, err);
    dnnl_memory_t out = NULL;
    if (st || (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &out, err))) return st;
    if (first < 0) { /* input 0 broadcast into the output */
        int64_t st0[CC_MAX_RANK], acc = 1;
        align_dims(&b->in[0]->shape, r, dk);
        for (int d = r - 1; d >= 0; d--) {
            st0[d] = dk[d] == 1 ? 0 : acc;
            acc *= dk[d];
        }
        dnnl_memory_desc_t view;
        dnnl_primitive_desc_t pd = NULL;
        dnnl_memory_t src = NULL;
        int copied;
        if ((st = cc_onednn_md_strides(&view, r, dd, st0, dt, err)) ||
            (st = cc_onednn_reorder_pd(b, &view, &md, NULL, "reorder (broadcast of the first input)", &pd, err)))
            return st;
        if ((st = cc_onednn_input_through(b, 0, &view, &src, &copied, err))) {
            dnnl_primitive_desc_destroy(pd);
            return st;
        }
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, src }, { DNNL_ARG_TO, out } };
        if ((st = cc_onednn_step_add(b, pd, args, 2, 0, err))) return st;
    }
    int done = 0, skip = first >= 0 ? first : 0;
    char what[96];
    snprintf(what, sizeof what, "%s for %s", dnnl_alg_kind2str(alg), cc_onednn_dt_name(dt));
    for (int k = 0; k < n; k++) {
        if (k == skip) continue;
        int a = done ? -1 : first; /* the first source: input `first`, else the output in place */
        dnnl_memory_desc_t m1;
        align_dims(&b->in[k]->shape, r, dk);
        if ((st = cc_onednn_md(&m1, r, dk, dt, 0, err))) return st;
        dnnl_binary_desc_t bd;
        dnnl_primitive_desc_t pd = NULL;
        if ((st = cc_onednn_status(dnnl_binary_desc_init(&bd, alg, &md, &m1, &md), what, err)) ||
            (st = cc_onednn_pd(b, &bd, NULL, what, &pd, err)))
            return st;
        dnnl_memory_t s0 = out, s1 = NULL;
        if ((a >= 0 && (st = cc_onednn_input(b, a, &md, &md, &s0, err))) ||
            (st = cc_onednn_input(b, k, &m1, &m1, &s1, err))) {
            dnnl_primitive_desc_destroy(pd);
            return st;
        }
        dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, s0 }, { DNNL_ARG_SRC_1, s1 }, { DNNL_ARG_DST, out } };
        if ((st = cc_onednn_step_add(b, pd, args, 3, done == 0, err))) return st;
        done++;
    }
    cc_onednn_note(b, " x%d%s, in place over the output", done, first >= 0 ? "" : " after a broadcast");
    return divide ? divide_step(b, out, &md, n, err) : CC_OK;
}

/* Sum and Mean of float inputs (integer types are declined: oneDNN computes in f32, inexact
 * beyond 2^24, saturating where ONNX wraps). Inputs of the output's shape: oneDNN's sum
 * primitive (in f32, rounded once to the output's type), in the inputs' layout where they
 * share one; inputs that broadcast: a chain of binary adds over the output (one rounding per
 * addition, n - 1 as Sum's bound counts). Mean scales each term by 1/n in the sum where n is
 * a power of two (exact), and otherwise divides the sum by n (binary div, correctly
 * rounded): a scale fl(1/n) would add its own rounding to every term, n u S + u |mean| to
 * first order, all of Mean's bound (gamma(n) u S + u |mean|) with nothing to spare, where
 * the division leaves u S of it. */
static cc_status sum_mean(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    int n = variadic_inputs(b), mean = b->node->op->id == CC_OP_ID_Mean;
    if (n == 1) return variadic_copy(b, err);
    if (n == 0) return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: absent inputs between given ones", op);
    cc_dtype ct = b->in[0]->dtype;
    if (!cc_dtype_is_float(ct))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: oneDNN computes sums in f32: not exact for %s (values beyond 2^24, wrapping sums)", op,
                          cc_dtype_name(ct));
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, ct, &dt, err);
    if (st) return st;
    const cc_shape *os = &b->out[0].shape;
    int pow2 = (n & (n - 1)) == 0;
    for (int k = 0; k < n; k++)
        if (!cc_shape_equal(&b->in[k]->shape, os)) return binary_chain(b, dnnl_binary_add, n, mean, dt, err);
    if (cc_tensor_numel(&b->out[0]) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_memory_desc_t plain, src[CC_MAX_IO], dmd;
    if ((st = cc_onednn_md_shape(&plain, os, dt, err))) return st;
    int same = 1;
    for (int k = 0; k < n; k++) {
        cc_onednn_in_md(b, k, &plain, &src[k]);
        same &= dnnl_memory_desc_equal(&src[k], &src[0]);
    }
    if (!same)
        for (int k = 0; k < n; k++) src[k] = plain;
    dmd = src[0];
    float scales[CC_MAX_IO];
    for (int k = 0; k < n; k++) scales[k] = mean && pow2 ? 1.0f / (float)n : 1.0f;
    char what[64];
    snprintf(what, sizeof what, "sum of %d %s inputs", n, cc_onednn_dt_name(dt));
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_status(dnnl_sum_primitive_desc_create(&pd, &dmd, n, scales, src, NULL, b->ctx->engine), what,
                               err)))
        return st;
    dnnl_exec_arg_t args[CC_MAX_IO + 1];
    for (int k = 0; k < n && !st; k++) {
        args[k].arg = DNNL_ARG_MULTIPLE_SRC + k;
        st = cc_onednn_input(b, k, &plain, &src[k], &args[k].memory, err);
    }
    args[n].arg = DNNL_ARG_DST;
    if (!st) st = cc_onednn_output(b, 0, &dmd, &args[n].memory, err);
    if (st) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    if ((st = cc_onednn_step_add(b, pd, args, n + 1, 1, err))) return st;
    if (mean && pow2) cc_onednn_note(b, " scaled by 1/%d", n);
    if (mean && !pow2 && (st = divide_step(b, args[n].memory, &dmd, n, err))) return st;
    return cc_onednn_output_finish(b, 0, err);
}

/* Min and Max: two inputs, oneDNN's binary min or max; one input, a copy; more, a chain of
 * binary primitives (binary_chain). Integer types but 8-bit ones are declined as binary
 * declines them (f32 arithmetic; a selection is exact for 8-bit values), and whatever
 * oneDNN lacks (f16 binary on CPUs without AVX512-FP16) with oneDNN's reason. */
static cc_status minmax(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    int n = variadic_inputs(b);
    if (n == 2) return binary(b, err);
    if (n == 1) return variadic_copy(b, err);
    if (n == 0) return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: absent inputs between given ones", op);
    cc_dtype ct = b->in[0]->dtype;
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, ct, &dt, err);
    if (st) return st;
    if (!cc_dtype_is_float(ct) && ct != CC_I8 && ct != CC_U8)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "%s: oneDNN's binary computes in f32 and rounds to nearest: not exact for %s (values beyond "
                          "2^24)",
                          op, cc_dtype_name(ct));
    return binary_chain(b, b->node->op->id == CC_OP_ID_Min ? dnnl_binary_min : dnnl_binary_max, n, 0, dt, err);
}

/* Equal, Greater, GreaterOrEqual, Less, LessOrEqual: oneDNN's binary comparisons, which
 * write 1 or 0 in the destination's type (u8: a bool) and compare in f32, exactly for the
 * float types, 8-bit integers and bool (Equal; u8 bytes 0 or 1), not for i32 beyond 2^24;
 * broadcasting as the binary primitive does, in dense layouts. */
static cc_status compare(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    cc_dtype ct = b->in[0]->dtype;
    dnnl_data_type_t dt = dnnl_u8; /* bool (Equal): bytes 0 or 1 */
    cc_status st = ct == CC_BOOL ? CC_OK : cc_onednn_dt(op, ct, &dt, err);
    if (st) return st;
    if (ct == CC_I32)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN's binary compares in f32: not exact for i32 beyond 2^24", op);
    dnnl_alg_kind_t alg = b->node->op->id == CC_OP_ID_Equal            ? dnnl_binary_eq
                          : b->node->op->id == CC_OP_ID_Greater        ? dnnl_binary_gt
                          : b->node->op->id == CC_OP_ID_GreaterOrEqual ? dnnl_binary_ge
                          : b->node->op->id == CC_OP_ID_Less           ? dnnl_binary_lt
                                                                       : dnnl_binary_le;
    const cc_shape *os = &b->out[0].shape;
    int r = os->rank > 0 ? os->rank : 1;
    int64_t da[CC_MAX_RANK], db[CC_MAX_RANK], dd[CC_MAX_RANK];
    align_dims(&b->in[0]->shape, r, da);
    align_dims(&b->in[1]->shape, r, db);
    align_dims(os, r, dd);
    /* where only the first source broadcasts, the comparison is mirrored (a > b is b < a)
     * so that oneDNN's jit kernels, which broadcast the second, take it; where both do,
     * oneDNN says whether it broadcasts the first */
    int first = memcmp(da, dd, sizeof(int64_t) * (size_t)r) != 0 && memcmp(db, dd, sizeof(int64_t) * (size_t)r) == 0;
    if (first)
        alg = alg == dnnl_binary_gt ? dnnl_binary_lt : alg == dnnl_binary_lt ? dnnl_binary_gt
              : alg == dnnl_binary_ge ? dnnl_binary_le : alg == dnnl_binary_le ? dnnl_binary_ge : alg;
    dnnl_memory_desc_t m0, m1, md;
    if ((st = cc_onednn_md(&m0, r, first ? db : da, dt, 0, err)) ||
        (st = cc_onednn_md(&m1, r, first ? da : db, dt, 0, err)) || (st = cc_onednn_md(&md, r, dd, dnnl_u8, 0, err)))
        return st;
    char what[96];
    snprintf(what, sizeof what, "%s for %s into u8", dnnl_alg_kind2str(alg), cc_onednn_dt_name(dt));
    dnnl_binary_desc_t bd;
    if ((st = cc_onednn_status(dnnl_binary_desc_init(&bd, alg, &m0, &m1, &md), what, err))) return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &bd, NULL, what, &pd, err))) return st;
    dnnl_memory_t s0 = NULL, s1 = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, first, &m0, &m0, &s0, err)) || (st = cc_onednn_input(b, 1 - first, &m1, &m1, &s1, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, s0 }, { DNNL_ARG_SRC_1, s1 }, { DNNL_ARG_DST, dst } };
    return cc_onednn_step_add(b, pd, args, 3, 1, err);
}

/* And, Or, Xor and Not of bool tensors (one byte, 0 or 1: u8 to oneDNN): binary min, max
 * and ne of the operands, Not binary eq with a scalar 0; oneDNN selects or compares in f32,
 * exact on 0 and 1, and writes 1 or 0 into a u8 destination. Where only the first operand
 * broadcasts the operands swap (the ops are symmetric), as in compare. */
static cc_status logic(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    cc_op_id id = b->node->op->id;
    int not = id == CC_OP_ID_Not;
    dnnl_alg_kind_t alg = id == CC_OP_ID_And  ? dnnl_binary_min
                          : id == CC_OP_ID_Or ? dnnl_binary_max
                          : id == CC_OP_ID_Xor ? dnnl_binary_ne
                                               : dnnl_binary_eq;
    for (int i = 0; i < (not ? 1 : 2); i++)
        if (b->in[i]->dtype != CC_BOOL)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: %s inputs (bool only)", op, cc_dtype_name(b->in[i]->dtype));
    const cc_shape *os = &b->out[0].shape;
    int r = os->rank > 0 ? os->rank : 1;
    int64_t da[CC_MAX_RANK], db[CC_MAX_RANK], dd[CC_MAX_RANK];
    align_dims(&b->in[0]->shape, r, da);
    align_dims(os, r, dd);
    if (not)
        for (int k = 0; k < r; k++) db[k] = 1;
    else
        align_dims(&b->in[1]->shape, r, db);
    size_t row = sizeof(int64_t) * (size_t)r;
    int first = !not && memcmp(da, dd, row) != 0 && memcmp(db, dd, row) == 0;
    dnnl_memory_desc_t m0, m1, md;
    cc_status st;
    if ((st = cc_onednn_md(&m0, r, first ? db : da, dnnl_u8, 0, err)) ||
        (st = cc_onednn_md(&m1, r, first ? da : db, dnnl_u8, 0, err)) || (st = cc_onednn_md(&md, r, dd, dnnl_u8, 0, err)))
        return st;
    if (cc_tensor_numel(&b->out[0]) == 0) {
        cc_onednn_note(b, "empty output: no step");
        return CC_OK;
    }
    dnnl_memory_t s0 = NULL, s1 = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, first, &m0, &m0, &s0, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err)))
        return st;
    if (not) {
        const unsigned char zero = 0;
        st = binary_scalar(b, alg, &md, s0, dst, &zero, 1, err);
        if (!st) cc_onednn_note(b, " (x == 0)");
        return st;
    }
    char what[96];
    snprintf(what, sizeof what, "%s for bool as u8", dnnl_alg_kind2str(alg));
    dnnl_binary_desc_t bd;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_status(dnnl_binary_desc_init(&bd, alg, &m0, &m1, &md), what, err)) ||
        (st = cc_onednn_pd(b, &bd, NULL, what, &pd, err)))
        return st;
    if ((st = cc_onednn_input(b, 1 - first, &m1, &m1, &s1, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC_0, s0 }, { DNNL_ARG_SRC_1, s1 }, { DNNL_ARG_DST, dst } };
    return cc_onednn_step_add(b, pd, args, 3, 1, err);
}

/* PRelu: oneDNN's prelu primitive, the slope given with X's rank (leading 1s), which its
 * weights broadcast like ONNX's unidirectional broadcast; y = x or slope * x, one rounding
 * (float types only: oneDNN's prelu takes no integers). */
static cc_status prelu(cc_onednn_build *b, cc_err *err)
{
    const char *op = "PRelu";
    const cc_tensor *x = b->in[0];
    if (!cc_dtype_is_float(x->dtype) || b->in[1]->dtype != x->dtype)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN's prelu takes float data and slope of one type", op);
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, x->dtype, &dt, err);
    if (st) return st;
    int r = x->shape.rank > 0 ? x->shape.rank : 1;
    int64_t dx[CC_MAX_RANK], ds[CC_MAX_RANK];
    align_dims(&x->shape, r, dx);
    align_dims(&b->in[1]->shape, r, ds);
    dnnl_memory_desc_t md, wd;
    if ((st = cc_onednn_md(&md, r, dx, dt, 0, err)) || (st = cc_onednn_md(&wd, r, ds, dt, 0, err))) return st;
    char what[64];
    snprintf(what, sizeof what, "prelu for %s", cc_onednn_dt_name(dt));
    dnnl_prelu_desc_t pdesc;
    if ((st = cc_onednn_status(dnnl_prelu_forward_desc_init(&pdesc, dnnl_forward_inference, &md, &wd), what, err)))
        return st;
    dnnl_primitive_desc_t pd = NULL;
    if ((st = cc_onednn_pd(b, &pdesc, NULL, what, &pd, err))) return st;
    dnnl_memory_t src = NULL, w = NULL, dst = NULL;
    if ((st = cc_onednn_input(b, 0, &md, &md, &src, err)) || (st = cc_onednn_input(b, 1, &wd, &wd, &w, err)) ||
        (st = cc_onednn_mem_value(b, cc_onednn_out_value(b, 0), &md, &dst, err))) {
        dnnl_primitive_desc_destroy(pd);
        return st;
    }
    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, src }, { DNNL_ARG_WEIGHTS, w }, { DNNL_ARG_DST, dst } };
    return cc_onednn_step_add(b, pd, args, 3, 1, err);
}

/* Log: oneDNN has the algorithm, but not to the accuracy the policy asks (see the top). */
static cc_status log_refused(cc_onednn_build *b, cc_err *err)
{
    (void)b;
    return cc_err_set(err, CC_ERR_UNSUPPORTED,
                      "Log: oneDNN 2.6's eltwise log is accurate to about 1.4e-6 absolute (log 1 = -1.43e-6), "
                      "not to a few ulps");
}

static const cc_onednn_op eltwise_ops[] = {
    { "Relu", unary },        { "LeakyRelu", unary }, { "Sigmoid", unary }, { "Tanh", unary },
    { "HardSigmoid", unary }, { "HardSwish", unary }, { "Clip", unary },    { "Exp", unary },
    { "Sqrt", unary },        { "Add", binary },      { "Sub", binary },    { "Mul", binary },
    { "Div", binary },        { "Abs", unary },       { "Round", unary },   { "Elu", unary },
    { "Selu", unary },        { "Neg", unary },       { "Log", log_refused }, { "Min", minmax },
    { "Reciprocal", unary },
    { "Max", minmax },
    { "Sum", sum_mean },
    { "Mean", sum_mean },
    { "PRelu", prelu },
    { "Equal", compare },
    { "Greater", compare },
    { "GreaterOrEqual", compare },
    { "Less", compare },
    { "LessOrEqual", compare },
    { "And", logic },
    { "Or", logic },
    { "Xor", logic },
    { "Not", logic },
};

const cc_onednn_family cc_onednn_family_eltwise = { (int)(sizeof eltwise_ops / sizeof eltwise_ops[0]),
                                                    eltwise_ops };
