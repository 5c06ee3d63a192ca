/* eltwise.c — cuda kernels of the elementwise family: the unary activations (Relu,
 * LeakyRelu, Sigmoid, Tanh, HardSigmoid, HardSwish, Clip, Exp, Sqrt), Add/Sub/Mul/Div,
 * Pow, PRelu and Mod with multidirectional (numpy) broadcasting, the variadic Min,
 * Max, Sum and Mean as a chain of broadcasting steps, and the logic family (the
 * comparisons, Where, And, Or, Xor, Not, IsNaN, IsInf, BitShift), and Cast and CastLike.
 *
 * Relu, Sigmoid, Tanh and Clip(min = 0, max = c >= 0) on f32 and f16 run through
 * cudnnActivationForward (RELU, SIGMOID, TANH, CLIPPED_RELU: the same functions, NaN
 * propagated); everything else, bf16 and the integer Relu/Clip, runs the project's
 * kernels (kernels_eltwise.cu). Binary ops walk the output with per-operand strides
 * (0 along broadcast dims), dims merged where contiguous in every operand. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

static int is_int(cc_dtype d) { return d == CC_I8 || d == CC_U8 || d == CC_I32 || d == CC_I64; }

/* ---- unary --------------------------------------------------------------------------- */

typedef struct unary_state {
    int op;                          /* CC_CUDA_* */
    float a, b, lo, hi;
    int64_t ilo, ihi;
    cudnnActivationDescriptor_t act; /* non-NULL: cudnnActivationForward */
    cudnnTensorDescriptor_t td;
} unary_state;

static const struct {
    const char *name;
    int op;
    const char *p0, *p1;   /* float attributes bound to the formula's p0, p1 */
} unary_ops[] = {
#define X(Op, name, P0, P1, F) { #Op, CC_CUDA_ACT_##Op, P0, P1 },
    CC_ACTIVATIONS(X)
#undef X
    { "Clip", CC_CUDA_CLIP, "", "" },
};

static int unary_index(const char *name)
{
    for (size_t i = 0; i < sizeof unary_ops / sizeof unary_ops[0]; i++)
        if (strcmp(unary_ops[i].name, name) == 0) return (int)i;
    return -1;
}

static int unary_op_of(const char *name)
{
    int i = unary_index(name);
    return i < 0 ? -1 : unary_ops[i].op;
}

/* Clip's bound input i (1: min, 2: max) when given: 1 with its host value (a constant),
 * 0 when absent, -1 when given but not constant or not a single value. */
static int clip_bound(const cc_node *node, const cc_tensor *const *in, int i, double *v)
{
    if (i >= node->n_in || !in[i]) return 0;
    if (!in[i]->data || cc_tensor_numel(in[i]) != 1) return -1;
    *v = cc_load(in[i]->data, in[i]->dtype, 0);
    return 1;
}

static cc_support unary_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                 const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    const char *op = node->op->name;
    cc_dtype d = in[0]->dtype;
    int u = unary_op_of(op);
    if (!cc_dtype_is_float(d) && !(is_int(d) && (u == CC_CUDA_RELU || u == CC_CUDA_CLIP))) {
        snprintf(reason, n, "%s: cuda has no kernel for dtype %s", op, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    double v;
    if (u == CC_CUDA_CLIP && (clip_bound(node, in, 1, &v) < 0 || clip_bound(node, in, 2, &v) < 0)) {
        snprintf(reason, n, "Clip: cuda needs min and max as constant scalars");
        return CC_SUPPORT_NO;
    }
    return CC_SUPPORT_YES;
}

static void unary_release(void *state)
{
    unary_state *s = state;
    if (!s) return;
    if (s->act) cudnnDestroyActivationDescriptor(s->act);
    if (s->td) cudnnDestroyTensorDescriptor(s->td);
    free(s);
}

/* The cuDNN activation mode for this node, or -1 when cuDNN does not compute exactly this
 * function on this data. */
static int dnn_mode(const unary_state *s, cc_dtype d, int64_t n)
{
    if ((d != CC_F32 && d != CC_F16) || n < 1 || n > INT_MAX) return -1;
    switch (s->op) {
    case CC_CUDA_RELU: return CUDNN_ACTIVATION_RELU;
    case CC_CUDA_ACT_Sigmoid: return CUDNN_ACTIVATION_SIGMOID;
    case CC_CUDA_ACT_Tanh: return CUDNN_ACTIVATION_TANH;
    case CC_CUDA_CLIP:
        return s->lo == 0.0f && s->hi >= 0.0f && isfinite(s->hi) ? CUDNN_ACTIVATION_CLIPPED_RELU : -1;
    default: return -1;
    }
}

static cc_status unary_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                               int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    (void)out;
    const char *op = node->op->name;
    unary_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    s->op = unary_op_of(op);
    s->lo = -INFINITY;
    s->hi = INFINITY;
    s->ilo = INT64_MIN;
    s->ihi = INT64_MAX;
    int k = unary_index(op);
    if (k >= 0 && unary_ops[k].p0[0]) s->a = (float)cc_attr_f(node, unary_ops[k].p0);
    if (k >= 0 && unary_ops[k].p1[0]) s->b = (float)cc_attr_f(node, unary_ops[k].p1);
    if (s->op == CC_CUDA_CLIP) {
        double v;
        if (clip_bound(node, in, 1, &v) > 0) {
            s->lo = (float)v;
            s->ilo = (int64_t)v;
        }
        if (clip_bound(node, in, 2, &v) > 0) {
            s->hi = (float)v;
            s->ihi = (int64_t)v;
        }
    }
    cc_status st = CC_OK;
    cc_dtype d = in[0]->dtype;
    int64_t n = cc_tensor_numel(in[0]);
    int mode = dnn_mode(s, d, n);
    if (mode >= 0) {
        if ((st = cc_cuda_dnn_check(cudnnCreateActivationDescriptor(&s->act),
                                    "cudnnCreateActivationDescriptor", err))) {
            s->act = NULL;
            goto fail;
        }
        if ((st = cc_cuda_dnn_check(cudnnCreateTensorDescriptor(&s->td), "cudnnCreateTensorDescriptor",
                                    err))) {
            s->td = NULL;
            goto fail;
        }
        double coef = s->op == CC_CUDA_CLIP ? (double)s->hi : 0.0;
        if ((st = cc_cuda_dnn_check(cudnnSetActivationDescriptor(s->act, (cudnnActivationMode_t)mode,
                                                                 CUDNN_PROPAGATE_NAN, coef),
                                    "cudnnSetActivationDescriptor", err)))
            goto fail;
        if ((st = cc_cuda_dnn_check(cudnnSetTensor4dDescriptor(s->td, CUDNN_TENSOR_NCHW,
                                                               (cudnnDataType_t)cc_cuda_dnn_type(d),
                                                               1, 1, 1, (int)n),
                                    "cudnnSetTensor4dDescriptor", err)))
            goto fail;
        cc_backend_note("cudnnActivationForward");
    } else {
        cc_backend_note("cuda kernel");
    }
    *state = s;
    return CC_OK;
fail:
    unary_release(s);
    return st;
}

static cc_status unary_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                           int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    unary_state *s = state;
    if (s->act) {
        const float one = 1.0f, zero = 0.0f;
        return cc_cuda_dnn_check(cudnnActivationForward(c->dnn, s->act, &one, s->td, in[0]->data,
                                                        &zero, s->td, out[0].data),
                                 node->op->name, err);
    }
    return cc_cuda_check(cc_cuda_unary(c->stream, s->op, in[0]->dtype, in[0]->data, out[0].data,
                                       cc_tensor_numel(in[0]), s->a, s->b, s->lo, s->hi, s->ilo,
                                       s->ihi),
                         node->op->name, err);
}

/* ---- binary ---------------------------------------------------------------------------- */

typedef struct binary_state {
    int op;
    int exp_dtype; /* Pow with a float base: an integer exponent's dtype, else 0 */
    cc_cuda_walk w;
} binary_state;

static cc_support binary_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                  const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[0]->dtype;
    cc_op_id id = node->op->id;
    if (id == CC_OP_ID_Pow && cc_dtype_is_float(d) && (in[1]->dtype == CC_I32 || in[1]->dtype == CC_I64))
        return CC_SUPPORT_YES;
    if (id == CC_OP_ID_Pow && in[1]->dtype != d) {
        snprintf(reason, n, "Pow: cuda has no kernel for a %s exponent of a %s base",
                 cc_dtype_name(in[1]->dtype), cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if ((id == CC_OP_ID_Pow || id == CC_OP_ID_PRelu) && is_int(d)) {
        snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
        return CC_SUPPORT_NO;
    }
    if (cc_dtype_is_float(d) || is_int(d)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

static cc_status binary_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *op = node->op->name;
    binary_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    switch (node->op->id) {
    case CC_OP_ID_Add: s->op = CC_CUDA_ADD; break;
    case CC_OP_ID_Sub: s->op = CC_CUDA_SUB; break;
    case CC_OP_ID_Mul: s->op = CC_CUDA_MUL; break;
    case CC_OP_ID_Pow:
        s->op = CC_CUDA_POW;
        if (in[1]->dtype != in[0]->dtype) s->exp_dtype = in[1]->dtype;
        break;
    case CC_OP_ID_PRelu: s->op = CC_CUDA_PRELU; break;
    case CC_OP_ID_Mod: s->op = cc_attr_i(node, "fmod") ? CC_CUDA_FMOD : CC_CUDA_IMOD; break;
    default: s->op = CC_CUDA_DIV; break;
    }
    const cc_shape *o = &out[0].shape;
    s->w.rank = o->rank;
    for (int i = 0; i < o->rank; i++) s->w.dims[i] = o->dims[i];
    if (cc_backend_broadcast_strides(&in[0]->shape, o, s->w.st[0]) ||
        cc_backend_broadcast_strides(&in[1]->shape, o, s->w.st[1])) {
        free(s);
        return cc_err_set(err, CC_ERR_ARG, "%s: the inputs do not broadcast to the output", op);
    }
    cc_cuda_strides(o, s->w.st[2]);
    cc_cuda_walk_simplify(&s->w, 3);
    if (s->w.rank == 1 && s->w.st[0][0] == 1 && s->w.st[1][0] == 1) cc_backend_note("same shape");
    else cc_backend_note("broadcast, %d merged dims", s->w.rank);
    *state = s;
    return CC_OK;
}

static cc_status binary_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                            int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    binary_state *s = state;
    if (s->exp_dtype)
        return cc_cuda_check(cc_cuda_pow_int_exp(c->stream, in[0]->dtype, s->exp_dtype, in[0]->data, in[1]->data,
                                                 out[0].data, &s->w),
                             node->op->name, err);
    return cc_cuda_check(cc_cuda_binary(c->stream, s->op, in[0]->dtype, in[0]->data, in[1]->data,
                                        out[0].data, &s->w),
                         node->op->name, err);
}

/* ---- variadic: Min, Max, Sum, Mean ------------------------------------------------------ */

/* A chain of broadcasting steps into the output: y = x0 op x1, then y = y op xk for each
 * further present input (one input: y = x0); Mean divides by the count at the end. Each
 * step rounds to the output dtype. */
typedef struct variadic_state {
    int op, mean, n;
    int idx[CC_MAX_IO];             /* the present inputs */
    cc_cuda_walk w[CC_MAX_IO];      /* step k's walk */
} variadic_state;

static cc_support variadic_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                    const cc_tensor *out, char *reason, size_t n)
{
    (void)ctx;
    (void)in;
    cc_dtype d = out->dtype;
    if (cc_dtype_is_float(d) || is_int(d)) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

static cc_status variadic_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                  int n_out, const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *op = node->op->name;
    variadic_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", op);
    cc_op_id id = node->op->id;
    s->op = id == CC_OP_ID_Min ? CC_CUDA_MIN : id == CC_OP_ID_Max ? CC_CUDA_MAX : CC_CUDA_ADD;
    s->mean = id == CC_OP_ID_Mean;
    for (int i = 0; i < node->n_in && i < CC_MAX_IO; i++)
        if (in[i]) s->idx[s->n++] = i;
    const cc_shape *o = &out[0].shape;
    for (int k = 0; k < s->n; k++) {
        const cc_shape *as = k == 0 ? &in[s->idx[0]]->shape : o;
        const cc_shape *bs = &in[s->idx[k == 0 && s->n > 1 ? 1 : k]]->shape;
        cc_cuda_walk *w = &s->w[k];
        w->rank = o->rank;
        for (int i = 0; i < o->rank; i++) w->dims[i] = o->dims[i];
        if (cc_backend_broadcast_strides(as, o, w->st[0]) || cc_backend_broadcast_strides(bs, o, w->st[1])) {
            free(s);
            return cc_err_set(err, CC_ERR_ARG, "%s: the inputs do not broadcast to the output", op);
        }
        cc_cuda_strides(o, w->st[2]);
        cc_cuda_walk_simplify(w, 3);
    }
    if (s->n == 0) {
        free(s);
        return cc_err_set(err, CC_ERR_ARG, "%s: no input", op);
    }
    cc_backend_note("%d broadcasting steps", s->n > 1 ? s->n - 1 : 1);
    *state = s;
    return CC_OK;
}

static cc_status variadic_run(void *ctx, const cc_node *node, const cc_tensor *const *in,
                              int n_out, cc_tensor *out, void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    variadic_state *s = state;
    cc_dtype d = out[0].dtype;
    const void *x0 = in[s->idx[0]]->data, *x1 = in[s->idx[s->n > 1 ? 1 : 0]]->data;
    cc_status st = cc_cuda_check(cc_cuda_binary(c->stream, s->n > 1 ? s->op : CC_CUDA_FIRST, d, x0, x1,
                                                out[0].data, &s->w[0]),
                                 node->op->name, err);
    for (int k = 2; k < s->n && !st; k++)
        st = cc_cuda_check(cc_cuda_binary(c->stream, s->op, d, out[0].data, in[s->idx[k]]->data, out[0].data,
                                          &s->w[k]),
                           node->op->name, err);
    if (!st && s->mean && s->n > 1)
        st = cc_cuda_check(cc_cuda_divide(c->stream, d, out[0].data, cc_tensor_numel(&out[0]), (float)s->n),
                           node->op->name, err);
    return st;
}

#define UNARY(name)                                                                          \
    { .op = CC_OP_ID_##name, .supports = unary_supports, .prepare = unary_prepare,                      \
      .release = unary_release, .run = unary_run }
#define BINARY(name)                                                                         \
    { .op = CC_OP_ID_##name, .supports = binary_supports, .prepare = binary_prepare, .release = free,   \
      .run = binary_run }

#define VARIADIC(name)                                                                       \
    { .op = CC_OP_ID_##name, .supports = variadic_supports, .prepare = variadic_prepare,               \
      .release = free, .run = variadic_run }

/* ---- the logic family: comparisons, Where, And/Or/Xor/Not, IsNaN/IsInf, BitShift ------------ */

typedef struct logic_state {
    int op;           /* CC_CUDA_EQ.. for two operands; 0 Not, 1 IsNaN, 2 IsInf for one; -1 Where */
    int neg, pos;     /* IsInf's detect_negative, detect_positive */
    cc_cuda_walk w;   /* two operands: st[0] a, st[1] b, st[2] y; Where: condition, x, y */
} logic_state;

static cc_support logic_supports(void *ctx, const cc_node *node, const cc_tensor *const *in, const cc_tensor *out,
                                 char *reason, size_t n)
{
    (void)ctx;
    (void)out;
    cc_dtype d = in[node->op->id == CC_OP_ID_Where ? 1 : 0]->dtype;
    /* infer() admits each op's dtypes; every one of them has a kernel here */
    if ((unsigned)d < CC_DTYPE_COUNT) return CC_SUPPORT_YES;
    snprintf(reason, n, "%s: cuda has no kernel for dtype %s", node->op->name, cc_dtype_name(d));
    return CC_SUPPORT_NO;
}

static cc_status logic_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                               const cc_tensor *out, void **state, cc_err *err)
{
    (void)ctx;
    (void)n_out;
    const char *name = node->op->name;
    logic_state *s = calloc(1, sizeof *s);
    if (!s) return cc_err_set(err, CC_ERR_NOMEM, "%s: out of memory", name);
    switch (node->op->id) {
    case CC_OP_ID_Equal: s->op = CC_CUDA_EQ; break;
    case CC_OP_ID_Greater: s->op = CC_CUDA_GT; break;
    case CC_OP_ID_GreaterOrEqual: s->op = CC_CUDA_GE; break;
    case CC_OP_ID_Less: s->op = CC_CUDA_LT; break;
    case CC_OP_ID_LessOrEqual: s->op = CC_CUDA_LE; break;
    case CC_OP_ID_And: s->op = CC_CUDA_AND; break;
    case CC_OP_ID_Or: s->op = CC_CUDA_OR; break;
    case CC_OP_ID_Xor: s->op = CC_CUDA_XOR; break;
    case CC_OP_ID_BitShift: s->op = strcmp(cc_attr_s(node, "direction"), "LEFT") ? CC_CUDA_SHR : CC_CUDA_SHL; break;
    case CC_OP_ID_Not: s->op = 0; break;
    case CC_OP_ID_IsNaN: s->op = 1; break;
    case CC_OP_ID_IsInf:
        s->op = 2;
        s->neg = cc_attr_i(node, "detect_negative") != 0;
        s->pos = cc_attr_i(node, "detect_positive") != 0;
        break;
    default: s->op = -1; break; /* Where */
    }
    int m = node->op->n_inputs;
    if (m == 1) {
        cc_backend_note("one contiguous run");
        *state = s;
        return CC_OK;
    }
    const cc_shape *o = &out[0].shape;
    s->w.rank = o->rank;
    for (int i = 0; i < o->rank; i++) s->w.dims[i] = o->dims[i];
    for (int k = 0; k < m; k++)
        if (cc_backend_broadcast_strides(&in[k]->shape, o, s->w.st[k])) {
            free(s);
            return cc_err_set(err, CC_ERR_ARG, "%s: the inputs do not broadcast to the output", name);
        }
    if (m == 2) cc_cuda_strides(o, s->w.st[2]);
    cc_cuda_walk_simplify(&s->w, 3);
    cc_backend_note("broadcast, %d merged dims", s->w.rank);
    *state = s;
    return CC_OK;
}

static cc_status logic_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                           void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    logic_state *s = state;
    cudaError_t e;
    if (s->op == -1)
        e = cc_cuda_where(c->stream, cc_dtype_size(in[1]->dtype), in[0]->data, in[1]->data, in[2]->data, out[0].data,
                          &s->w);
    else if (node->op->n_inputs == 1)
        e = cc_cuda_classify(c->stream, s->op, in[0]->dtype, in[0]->data, out[0].data, cc_tensor_numel(&out[0]),
                             s->neg, s->pos);
    else
        e = cc_cuda_logic(c->stream, s->op, in[0]->dtype, in[0]->data, in[1]->data, out[0].data, &s->w);
    return cc_cuda_check(e, node->op->name, err);
}
#define LOGIC(Op)                                                                                           \
    { .op = CC_OP_ID_##Op, .supports = logic_supports, .prepare = logic_prepare, .release = free,          \
      .run = logic_run }

/* Cast, CastLike: one conversion kernel per (source, destination) pair (kernels_data.cu). */
static cc_status cast_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out, cc_tensor *out,
                          void *state, cc_err *err)
{
    cc_cuda_ctx *c = ctx;
    (void)n_out;
    (void)state;
    return cc_cuda_check(cc_cuda_cast(c->stream, in[0]->dtype, out[0].dtype, in[0]->data, out[0].data,
                                      cc_tensor_numel(&out[0])),
                         node->op->name, err);
}

static const cc_kernel kernels[] = {
    { .op = CC_OP_ID_Cast, .run = cast_run },
    { .op = CC_OP_ID_CastLike, .run = cast_run },
#define X(Op, name, P0, P1, F) UNARY(Op),
    CC_ACTIVATIONS(X)
#undef X
    UNARY(Clip), BINARY(Add), BINARY(Sub), BINARY(Mul), BINARY(Div),
    BINARY(Pow), BINARY(PRelu), BINARY(Mod),
    VARIADIC(Min), VARIADIC(Max), VARIADIC(Sum), VARIADIC(Mean),
    LOGIC(Equal), LOGIC(Greater), LOGIC(GreaterOrEqual), LOGIC(Less), LOGIC(LessOrEqual), LOGIC(Where),
    LOGIC(And), LOGIC(Or), LOGIC(Xor), LOGIC(Not), LOGIC(IsNaN), LOGIC(IsInf), LOGIC(BitShift),
};

const cc_kernel_list cc_cuda_family_eltwise = {
    .n = (int)(sizeof kernels / sizeof kernels[0]),
    .kernels = kernels,
};
