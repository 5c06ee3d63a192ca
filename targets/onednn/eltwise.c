/* eltwise.c — onednn builders of the elementwise ops: the unary activations on oneDNN's
 * eltwise primitive, Add/Sub/Mul/Div and the comparisons on its binary primitive, PRelu on
 * its prelu primitive. The unary mapping is
 * also what a graph plan's fused post-ops use (cc_onednn_unary_algs).
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
 * except Min and Max of int8/uint8 (a selection, exact in f32). */
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

/* Unary ops: one or two eltwise primitives on the layout the input is stored in (any
 * layout: an eltwise primitive maps elements one to one), the second in place. */
static cc_status unary(cc_onednn_build *b, cc_err *err)
{
    cc_onednn_eltwise s[2];
    int n;
    dnnl_data_type_t dt;
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
                          "(values beyond 2^24, truncating integer Div)",
                          op, cc_dtype_name(ct));
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

/* Min and Max of exactly two inputs: oneDNN's binary min and max (a variadic node with one or
 * more than two inputs is not one primitive). */
static cc_status minmax(cc_onednn_build *b, cc_err *err)
{
    const cc_node *n = b->node;
    if (n->n_in != 2 || !b->in[0] || !b->in[1])
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: oneDNN's binary %s takes two inputs, the node has %d",
                          n->op->name, n->op->id == CC_OP_ID_Min ? "min" : "max", n->n_in);
    return binary(b, err);
}

/* Equal, Greater, GreaterOrEqual, Less, LessOrEqual: oneDNN's binary comparisons, which
 * write 1 or 0 in the destination's type (u8: a bool) and compare in f32, exactly for the
 * float types and 8-bit integers (not for i32 beyond 2^24); broadcasting as the binary
 * primitive does, in dense layouts. */
static cc_status compare(cc_onednn_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    cc_dtype ct = b->in[0]->dtype;
    dnnl_data_type_t dt;
    cc_status st = cc_onednn_dt(op, ct, &dt, err);
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
    /* oneDNN broadcasts the second source only: where the first one is the smaller, the
     * comparison is mirrored (a > b is b < a) */
    int first = memcmp(da, dd, sizeof(int64_t) * (size_t)r) != 0;
    if (first && memcmp(db, dd, sizeof(int64_t) * (size_t)r) != 0)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s: both inputs broadcast; oneDNN's binary broadcasts one", op);
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
    { "PRelu", prelu },
    { "Equal", compare },
    { "Greater", compare },
    { "GreaterOrEqual", compare },
    { "Less", compare },
    { "LessOrEqual", compare },
};

const cc_onednn_family cc_onednn_family_eltwise = { (int)(sizeof eltwise_ops / sizeof eltwise_ops[0]),
                                                    eltwise_ops };
