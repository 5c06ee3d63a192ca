/* eltwise.c — elementwise ops and Softmax on XNNPACK. Unary ops run on the tensor as one
 * contiguous row (layout does not matter); Relu and Clip are XNNPACK's clamp. Binary ops
 * use XNNPACK's N-d operators, which broadcast like numpy (and so like ONNX) up to
 * XNN_MAX_TENSOR_DIMS dimensions. Softmax has an operator for the innermost axis only. */
#include <math.h>
#include <string.h>

#include "xnnpack_plugin.h"

#define F32 CC_DTYPE_BIT(CC_F32)
#define F16 CC_DTYPE_BIT(CC_F16)

/* ---- unary ------------------------------------------------------------------------------ */

#define SETUP_NC(fn, xfn)                                                                     \
    static enum xnn_status fn(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp) \
    {                                                                                         \
        return xfn(np->op, np->batch, src[0], dst, tp);                                       \
    }

SETUP_NC(setup_clamp_f32, xnn_setup_clamp_nc_f32)
SETUP_NC(setup_clamp_f16, xnn_setup_clamp_nc_f16)
SETUP_NC(setup_leaky_f32, xnn_setup_leaky_relu_nc_f32)
SETUP_NC(setup_leaky_f16, xnn_setup_leaky_relu_nc_f16)
SETUP_NC(setup_sigmoid_f32, xnn_setup_sigmoid_nc_f32)
SETUP_NC(setup_hswish_f32, xnn_setup_hardswish_nc_f32)
SETUP_NC(setup_hswish_f16, xnn_setup_hardswish_nc_f16)
SETUP_NC(setup_sqrt_f32, xnn_setup_square_root_nc_f32)
SETUP_NC(setup_softmax_f32, xnn_setup_softmax_nc_f32)

/* Common start of a unary op over the whole tensor: dtype check, operand, batch. */
static cc_status unary_begin(xp_build *b, unsigned dtypes, cc_err *err)
{
    cc_status st = xp_dtype(b, b->in[0]->dtype, dtypes, err);
    if (st) return st;
    xp_src(b, 0, 0, 0);
    xp_dst(b, 0);
    b->np->batch = (size_t)cc_tensor_numel(b->in[0]);
    return CC_OK;
}

static cc_status clamp(xp_build *b, float lo, float hi, cc_err *err)
{
    enum xnn_status s;
    if (b->in[0]->dtype == CC_F32) {
        s = xnn_create_clamp_nc_f32(1, 1, 1, lo, hi, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_clamp_f32;
        strcpy(b->np->impl, "clamp_nc_f32");
    } else {
        s = xnn_create_clamp_nc_f16(1, 1, 1, lo, hi, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_clamp_f16;
        strcpy(b->np->impl, "clamp_nc_f16");
    }
    return xp_check(s, b->np->impl, err);
}

static cc_status build_relu(xp_build *b, cc_err *err)
{
    cc_status st = unary_begin(b, F32 | F16, err);
    return st ? st : clamp(b, 0.0f, INFINITY, err);
}

static cc_status build_clip(xp_build *b, cc_err *err)
{
    cc_status st = unary_begin(b, F32 | F16, err);
    if (st) return st;
    float lim[2] = { -INFINITY, INFINITY };
    for (int i = 1; i <= 2; i++) {
        if (i >= b->node->n_in || !b->in[i]) continue;
        if ((st = xp_need_const(b, i, "XNNPACK's clamp fixes its bounds at creation", err))) return st;
        lim[i - 1] = (float)xp_const_at(b->in[i], 0);
    }
    return clamp(b, lim[0], lim[1], err);
}

static cc_status build_leaky(xp_build *b, cc_err *err)
{
    cc_status st = unary_begin(b, F32 | F16, err);
    if (st) return st;
    int ai = cc_attr_index(b->node->op, "alpha");
    float alpha = ai >= 0 && b->node->attrs[ai].set ? (float)b->node->attrs[ai].f : 0.01f;
    enum xnn_status s;
    if (b->in[0]->dtype == CC_F32) {
        s = xnn_create_leaky_relu_nc_f32(1, 1, 1, alpha, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_leaky_f32;
        strcpy(b->np->impl, "leaky_relu_nc_f32");
    } else {
        s = xnn_create_leaky_relu_nc_f16(1, 1, 1, alpha, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_leaky_f16;
        strcpy(b->np->impl, "leaky_relu_nc_f16");
    }
    return xp_check(s, b->np->impl, err);
}

static cc_status build_sigmoid(xp_build *b, cc_err *err)
{
    cc_status st = unary_begin(b, F32, err);
    if (st) return st;
    b->np->setup = setup_sigmoid_f32;
    strcpy(b->np->impl, "sigmoid_nc_f32");
    return xp_check(xnn_create_sigmoid_nc_f32(1, 1, 1, b->ctx->xnn_flags, &b->np->op), b->np->impl, err);
}

static cc_status build_hardswish(xp_build *b, cc_err *err)
{
    cc_status st = unary_begin(b, F32 | F16, err);
    if (st) return st;
    enum xnn_status s;
    if (b->in[0]->dtype == CC_F32) {
        s = xnn_create_hardswish_nc_f32(1, 1, 1, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_hswish_f32;
        strcpy(b->np->impl, "hardswish_nc_f32");
    } else {
        s = xnn_create_hardswish_nc_f16(1, 1, 1, b->ctx->xnn_flags, &b->np->op);
        b->np->setup = setup_hswish_f16;
        strcpy(b->np->impl, "hardswish_nc_f16");
    }
    return xp_check(s, b->np->impl, err);
}

static cc_status build_sqrt(xp_build *b, cc_err *err)
{
    cc_status st = unary_begin(b, F32, err);
    if (st) return st;
    b->np->setup = setup_sqrt_f32;
    strcpy(b->np->impl, "square_root_nc_f32");
    return xp_check(xnn_create_square_root_nc_f32(1, 1, 1, b->ctx->xnn_flags, &b->np->op), b->np->impl, err);
}

static cc_status build_softmax(xp_build *b, cc_err *err)
{
    const cc_tensor *x = b->in[0];
    cc_status st = xp_dtype(b, x->dtype, F32, err);
    if (st) return st;
    int ai = cc_attr_index(b->node->op, "axis");
    int64_t axis = ai >= 0 && b->node->attrs[ai].set ? b->node->attrs[ai].i : -1;
    int r = x->shape.rank;
    if (axis < 0) axis += r;
    if (r > 0 && axis != r - 1)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: softmax only along the innermost axis (axis=%lld of a rank-%d tensor)",
                          (long long)axis, r);
    size_t c = r > 0 ? (size_t)x->shape.dims[r - 1] : 1;
    xp_src(b, 0, 0, 0);
    xp_dst(b, 0);
    b->np->batch = c ? (size_t)cc_tensor_numel(x) / c : 0;
    b->np->setup = setup_softmax_f32;
    strcpy(b->np->impl, "softmax_nc_f32");
    return xp_check(xnn_create_softmax_nc_f32(c, c, c, b->ctx->xnn_flags, &b->np->op), b->np->impl, err);
}

/* ---- binary ----------------------------------------------------------------------------- */

#define SETUP_ND(fn, xfn)                                                                                  \
    static enum xnn_status fn(xp_node *np, const void *const *src, void *dst, pthreadpool_t tp)              \
    {                                                                                                      \
        return xfn(np->op, np->nd[0], np->shape[0], np->nd[1], np->shape[1], src[0], src[1], dst, tp);     \
    }

SETUP_ND(setup_add_f32, xnn_setup_add_nd_f32)
SETUP_ND(setup_add_f16, xnn_setup_add_nd_f16)
SETUP_ND(setup_sub_f32, xnn_setup_subtract_nd_f32)
SETUP_ND(setup_mul_f32, xnn_setup_multiply_nd_f32)
SETUP_ND(setup_mul_f16, xnn_setup_multiply_nd_f16)
SETUP_ND(setup_div_f32, xnn_setup_divide_nd_f32)

typedef enum xnn_status (*create_nd_fn)(float, float, uint32_t, xnn_operator_t *);

typedef struct binary_kind {
    const char *op;
    cc_dtype dt;
    create_nd_fn create;
    xp_setup_fn setup;
    const char *impl;
} binary_kind;

/* The f16 creators take the same arguments; their kernels read and write IEEE halves. */
static const binary_kind binaries[] = {
    { "Add", CC_F32, xnn_create_add_nd_f32, setup_add_f32, "add_nd_f32" },
    { "Add", CC_F16, xnn_create_add_nd_f16, setup_add_f16, "add_nd_f16" },
    { "Sub", CC_F32, xnn_create_subtract_nd_f32, setup_sub_f32, "subtract_nd_f32" },
    { "Mul", CC_F32, xnn_create_multiply_nd_f32, setup_mul_f32, "multiply_nd_f32" },
    { "Mul", CC_F16, xnn_create_multiply_nd_f16, setup_mul_f16, "multiply_nd_f16" },
    { "Div", CC_F32, xnn_create_divide_nd_f32, setup_div_f32, "divide_nd_f32" },
};

static cc_status build_binary(xp_build *b, cc_err *err)
{
    const char *op = b->node->op->name;
    const cc_tensor *a = b->in[0], *c = b->in[1];
    unsigned have = 0;
    const binary_kind *k = NULL;
    for (size_t i = 0; i < sizeof binaries / sizeof binaries[0]; i++) {
        if (strcmp(binaries[i].op, op) != 0) continue;
        have |= CC_DTYPE_BIT(binaries[i].dt);
        if (binaries[i].dt == a->dtype) k = &binaries[i];
    }
    cc_status st = xp_dtype(b, a->dtype, have, err);
    if (st) return st;
    if (c->dtype != a->dtype) return cc_err_set(err, CC_ERR_ARG, "xnnpack: %s of mixed dtypes", op);
    const cc_tensor *t[2] = { a, c };
    for (int i = 0; i < 2; i++) {
        if (t[i]->shape.rank > XNN_MAX_TENSOR_DIMS)
            return cc_err_set(err, CC_ERR_UNSUPPORTED, "xnnpack: %s of a rank-%d tensor (N-d operators go to %d)", op,
                              t[i]->shape.rank, XNN_MAX_TENSOR_DIMS);
        b->np->nd[i] = (size_t)t[i]->shape.rank;
        for (int d = 0; d < t[i]->shape.rank; d++) b->np->shape[i][d] = (size_t)t[i]->shape.dims[d];
        xp_src(b, i, i, 0);
    }
    xp_dst(b, 0);
    b->np->setup = k->setup;
    strcpy(b->np->impl, k->impl);
    return xp_check(k->create(-INFINITY, INFINITY, b->ctx->xnn_flags, &b->np->op), k->impl, err);
}

static const xp_op ops[] = {
    { "Relu", build_relu },       { "Clip", build_clip },       { "LeakyRelu", build_leaky },
    { "Sigmoid", build_sigmoid }, { "HardSwish", build_hardswish }, { "Sqrt", build_sqrt },
    { "Softmax", build_softmax }, { "Add", build_binary },      { "Sub", build_binary },
    { "Mul", build_binary },      { "Div", build_binary },
};

const xp_family xp_family_eltwise = { (int)(sizeof ops / sizeof ops[0]), ops };
