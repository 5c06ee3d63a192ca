/* matmul.c — Gemm, MatMul and QLinearMatMul as XNNPACK fully-connected operators: rows of
 * A (every leading dimension flattened) times constant weights B, plus a bias per output
 * column. XNNPACK packs B when it creates the operator, so B must be a constant; what a
 * fully-connected layer cannot express (transposed A, alpha != 1, a bias that is not per
 * column, batched B, per-column INT8 scales) is unsupported, with that reason. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xnnpack_plugin.h"

#define SETUP_FC(fn, xfn)                                                                     \
    static enum xnn_status fn(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp) \
    {                                                                                         \
        return xfn(np->op, np->batch, src[0], dst, tp);                                       \
    }

SETUP_FC(setup_fc_f32, xnn_setup_fully_connected_nc_f32)
SETUP_FC(setup_fc_f16, xnn_setup_fully_connected_nc_f16)
SETUP_FC(setup_fc_qs8, xnn_setup_fully_connected_nc_qs8)
SETUP_FC(setup_fc_qu8, xnn_setup_fully_connected_nc_qu8)

static int64_t attr_i(const cc_node *n, const char *name, int64_t def)
{
    int i = cc_attr_index(n->op, name);
    return i >= 0 && n->attrs[i].set ? n->attrs[i].i : def;
}

static double attr_f(const cc_node *n, const char *name, double def)
{
    int i = cc_attr_index(n->op, name);
    return i >= 0 && n->attrs[i].set ? n->attrs[i].f : def;
}

/* k, n of constant weights b: [K, N] (transposed: [N, K]) or a vector [K] (n = 1). */
static cc_status weights_shape(const xp_build *b, int bi, int trans, int64_t *k, int64_t *n, cc_err *err)
{
    const cc_tensor *w = b->in[bi];
    if (w->shape.rank == 1) {
        *k = w->shape.dims[0];
        *n = 1;
        return CC_OK;
    }
    if (w->shape.rank != 2)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s with batched weights (rank %d; fully connected takes 2-D)",
                          b->node->op->name, w->shape.rank);
    *k = w->shape.dims[trans ? 1 : 0];
    *n = w->shape.dims[trans ? 0 : 1];
    return CC_OK;
}

/* Float fully connected: x rows of k, weights (data, [k][n] unless trans), bias of n or NULL. */
static cc_status fc_float(xp_build *b, int64_t k, int64_t n, const void *w, int trans, const void *bias, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    xp_src(b, 0, 0, 0);
    xp_dst(b, 0);
    b->np->batch = k ? (size_t)(cc_tensor_numel(x) / k) : 0;
    uint32_t flags = (trans ? 0 : XNN_FLAG_TRANSPOSE_WEIGHTS) | b->ctx->xnn_flags;
    enum xnn_status s;
    if (x->dtype == CC_F32) {
        s = xnn_create_fully_connected_nc_f32((size_t)k, (size_t)n, (size_t)k, (size_t)n, w, bias, -INFINITY, INFINITY, flags,
                                              &b->np->op);
        b->np->setup = setup_fc_f32;
        strcpy(b->np->impl, "fully_connected_nc_f32");
    } else {
        s = xnn_create_fully_connected_nc_f16((size_t)k, (size_t)n, (size_t)k, (size_t)n, w, bias, -INFINITY, INFINITY, flags,
                                              &b->np->op);
        b->np->setup = setup_fc_f16;
        strcpy(b->np->impl, "fully_connected_nc_f16");
    }
    return xp_check(s, b->np->impl, err);
}

static cc_status build_gemm(xp_build *b, cc_err *err)
{
    const cc_node *nd = b->node;
    const cc_tensor *a = b->in[0], *c = nd->n_in > 2 ? b->in[2] : NULL;
    cc_status st = xp_dtype(b, a->dtype, CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16), err);
    if (st) return st;
    if ((st = xp_need_const(b, 1, "fully connected packs its weights at creation", err))) return st;
    if (attr_i(nd, "transA", 0))
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: fully connected reads A row by row (no transA=1)");
    double alpha = attr_f(nd, "alpha", 1), beta = attr_f(nd, "beta", 1);
    if (alpha != 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: fully connected has no alpha (alpha=%g)", alpha);
    int trans = (int)attr_i(nd, "transB", 0);
    int64_t k = 0, n = 0;
    if ((st = weights_shape(b, 1, trans, &k, &n, err))) return st;
    void *bias = NULL;
    if (c) {
        if ((st = xp_need_const(b, 2, "the bias is packed with the weights", err))) return st;
        if (beta != 1)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: fully connected adds C as a bias (beta=%g, not 1)", beta);
        int64_t nc = cc_tensor_numel(c);
        int per_col = nc == n && (c->shape.rank == 1 || (c->shape.rank == 2 && c->shape.dims[0] == 1));
        if (!per_col && nc != 1) {
            char s[64];
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: fully connected adds one bias per output column (C is %s)",
                              cc_shape_format(&c->shape, s, sizeof s));
        }
        /* a scalar C is the same bias in every column */
        size_t es = cc_dtype_size(c->dtype);
        if (!(bias = malloc((size_t)n * es + 1))) return cc_err_set(err, CC_ERR_NOMEM, "xnnpack: out of memory");
        for (int64_t j = 0; j < n; j++) memcpy((char *)bias + j * es, (const char *)c->data + (per_col ? j : 0) * es, es);
    }
    st = fc_float(b, k, n, b->in[1]->data, trans, bias, err);
    free(bias);
    return st;
}

static cc_status build_matmul(xp_build *b, cc_err *err)
{
    cc_status st = xp_dtype(b, b->in[0]->dtype, CC_DTYPE_BIT(CC_F32) | CC_DTYPE_BIT(CC_F16), err);
    if (st) return st;
    if ((st = xp_need_const(b, 1, "fully connected packs its weights at creation", err))) return st;
    int64_t k = 0, n = 0;
    if ((st = weights_shape(b, 1, 0, &k, &n, err))) return st;
    /* a vector B is one output column: [K] is already the [N=1][K] layout */
    return fc_float(b, k, n, b->in[1]->data, b->in[1]->shape.rank == 1, NULL, err);
}

/* ---- QLinearMatMul ------------------------------------------------------------------------ */

enum { M_A, M_AS, M_AZ, M_B, M_BS, M_BZ, M_YS, M_YZ };

static cc_status build_qmatmul(xp_build *b, cc_err *err)
{
    const cc_tensor *a = b->in[M_A], *w = b->in[M_B], *bs = b->in[M_BS], *bz = b->in[M_BZ], *yz = b->in[M_YZ];
    cc_status st = xp_dtype(b, a->dtype, CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_U8), err);
    if (st) return st;
    for (int i = M_AS; i <= M_YZ; i++)
        if ((st = xp_need_const(b, i, "XNNPACK fixes weights and quantization parameters at creation", err))) return st;
    if (w->dtype != a->dtype || yz->dtype != a->dtype)
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "xnnpack: no fully connected of %s inputs with %s weights into %s (qs8: all i8, qu8: all u8)",
                          cc_dtype_name(a->dtype), cc_dtype_name(w->dtype), cc_dtype_name(yz->dtype));
    if (!xp_is_scalar(bs) || !xp_is_scalar(bz))
        return cc_err_set(err, CC_ERR_UNSUPPORTED,
                          "xnnpack: the 8-bit fully connected has one weight scale and zero point (per-column needs qc8 FC, absent here)");
    if (w->shape.rank != 2)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: QLinearMatMul with weights of rank %d (fully connected takes 2-D)",
                          w->shape.rank);
    int64_t k = w->shape.dims[0], n = w->shape.dims[1];
    float as = (float)xp_const_at(b->in[M_AS], 0), wsc = (float)xp_const_at(bs, 0), ys = (float)xp_const_at(b->in[M_YS], 0);
    double az = xp_const_at(b->in[M_AZ], 0), wz = xp_const_at(bz, 0), yzv = xp_const_at(yz, 0);
    xp_src(b, 0, 0, 0);
    xp_dst(b, 0);
    b->np->batch = k ? (size_t)(cc_tensor_numel(a) / k) : 0;
    uint32_t tflags = XNN_FLAG_TRANSPOSE_WEIGHTS | b->ctx->xnn_flags;
    enum xnn_status s;
    if (a->dtype == CC_I8) {
        if (wz != 0)
            return cc_err_set(err, CC_ERR_UNSUPPORTED,
                              "xnnpack: the signed fully connected takes symmetric weights only (b_zero_point must be 0)");
        s = xnn_create_fully_connected_nc_qs8((size_t)k, (size_t)n, (size_t)k, (size_t)n, (int8_t)az, as, wsc, w->data, NULL,
                                              (int8_t)yzv, ys, INT8_MIN, INT8_MAX, tflags, &b->np->op);
        b->np->setup = setup_fc_qs8;
        strcpy(b->np->impl, "fully_connected_nc_qs8");
    } else {
        s = xnn_create_fully_connected_nc_qu8((size_t)k, (size_t)n, (size_t)k, (size_t)n, (uint8_t)az, as, (uint8_t)wz, wsc,
                                              w->data, NULL, (uint8_t)yzv, ys, 0, UINT8_MAX, tflags,
                                              &b->np->op);
        b->np->setup = setup_fc_qu8;
        strcpy(b->np->impl, "fully_connected_nc_qu8");
    }
    return xp_check(s, b->np->impl, err);
}

static const xp_op ops[] = {
    { "Gemm", build_gemm },
    { "MatMul", build_matmul },
    { "QLinearMatMul", build_qmatmul },
};

const xp_family xp_family_matmul = { (int)(sizeof ops / sizeof ops[0]), ops };
