/* eltwise_unary.c — the unary elementwise ops of the catalog (ONNX opset 17 semantics):
 * the activations (Relu, LeakyRelu, Sigmoid, Tanh, HardSigmoid, HardSwish, Clip, Softplus,
 * Elu, Selu, Celu, ThresholdedRelu, Softsign, Shrink) and the math functions (Exp, Sqrt,
 * Neg, Abs, Sign, Ceil, Floor, Round, Reciprocal, Log, Erf, the trigonometric and
 * hyperbolic functions and their inverses). One table row per op drives the shared shape
 * inference, cost and golden reference; each op's cases are sweep rows. */
#include <math.h>

#include "op.h"
#include "sweep.h"

#define FLOATS CC_DTYPES_FLOAT
#define SIGNED_INTS (CC_DTYPE_BIT(CC_I8) | CC_DTYPE_BIT(CC_I32) | CC_DTYPE_BIT(CC_I64))
#define ALL_INTS (SIGNED_INTS | CC_DTYPE_BIT(CC_U8))

/* ---- the per-element functions ------------------------------------------------------
 * Each returns the exact value in double and writes S, the magnitude term of its error
 * bound (ops/policy.h); p holds the op's parameters (see param_of). */

typedef double (*unary_fn)(double x, const double *p, double *s);

static double relu_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = x > 0 ? x : 0.0;
    *s = fabs(v);
    return v;
}

/* LeakyRelu: one product alpha*x on the negative side. A target holds alpha in its
 * compute precision (one more rounding of alpha itself), so the error is at most
 * 2u|value|: S = |value| with K = 2. */
static double leaky_relu_fn(double x, const double *p, double *s)
{
    double v = x < 0 ? p[0] * x : x;
    *s = fabs(v);
    return v;
}

/* Sigmoid in the form that never overflows exp(). */
static double sigmoid_fn(double x, const double *p, double *s)
{
    (void)p;
    double v;
    if (x >= 0) {
        v = 1.0 / (1.0 + exp(-x));
    } else {
        double e = exp(x);
        v = e / (1.0 + e);
    }
    *s = fabs(v);
    return v;
}

static double tanh_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = tanh(x);
    *s = fabs(v);
    return v;
}

static double clamp01(double t) { return t < 0 ? 0.0 : t > 1 ? 1.0 : t; }

/* HardSigmoid: y = max(0, min(1, alpha*x + beta)). A target rounds alpha (u|alpha x|),
 * the product (u|alpha x|) and the sum (u|t|, t = alpha x + beta); clamping does not add
 * error. So |err| <= 2u(|alpha x| + |t|): S = |alpha x| + |t| with K = 2. */
static double hard_sigmoid_fn(double x, const double *p, double *s)
{
    double ax = p[0] * x;
    double t = ax + p[1];
    *s = fabs(ax) + fabs(t);
    return clamp01(t);
}

/* HardSwish (opset 14): y = x * max(0, min(1, x/6 + 1/2)). Two common target forms:
 * x * clamp(alpha x + beta) with alpha rounded (error of the clamp term as for
 * HardSigmoid: 2u(|x|/6 + |t|), times |x|, plus u|y| for the product), and
 * x * clamp(x + 3, 0, 6) / 6 (u|x t| + 2u|y|). Both stay within
 * 2u(|x|(|x|/6 + |h|) + |y|) with h the clamped t (clamping makes the t term at most
 * about 1 where it is active): S = |x|(|x|/6 + |h|) + |y| with K = 2. */
static double hard_swish_fn(double x, const double *p, double *s)
{
    (void)p;
    double h = clamp01(x / 6.0 + 0.5);
    double v = x * h;
    *s = fabs(x) * (fabs(x) / 6.0 + h) + fabs(v);
    return v;
}

/* Clip (opset 13) is Min(max, Max(input, min)) in the spec's words: "When 'min' is
 * greater than 'max', the clip operator sets all the 'input' values to the value of
 * 'max'." Absent bounds are +-infinity. A NaN input stays NaN. */
static double clip_fn(double x, const double *p, double *s)
{
    double v = x;
    if (v < p[0]) v = p[0];
    if (v > p[1]) v = p[1];
    *s = fabs(v);
    return v;
}

static double exp_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = exp(x);
    *s = fabs(v);
    return v;
}

/* Sqrt of a negative number is NaN (IEEE); generated inputs stay in [0, hi]. */
static double sqrt_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = sqrt(x);
    *s = fabs(v);
    return v;
}

/* Softplus: log(1 + exp(x)), as max(x, 0) + log1p(exp(-|x|)), which never overflows and
 * keeps the tiny values of large negative x. */
static double softplus_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = (x > 0 ? x : 0.0) + log1p(exp(-fabs(x)));
    *s = fabs(v);
    return v;
}

/* The exact operations: negation, absolute value, sign, the three roundings to an
 * integer and ThresholdedRelu's selection. */
static double neg_fn(double x, const double *p, double *s)
{
    (void)p;
    *s = fabs(x);
    return -x;
}

static double abs_fn(double x, const double *p, double *s)
{
    (void)p;
    *s = fabs(x);
    return fabs(x);
}

/* Sign: 1, -1, 0 (a NaN stays NaN) */
static double sign_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    *s = fabs(v);
    return v;
}

static double ceil_fn(double x, const double *p, double *s)
{
    (void)p;
    *s = fabs(ceil(x));
    return ceil(x);
}

static double floor_fn(double x, const double *p, double *s)
{
    (void)p;
    *s = fabs(floor(x));
    return floor(x);
}

/* Round: to the nearest integer, halves to the even one ("round half to even", the spec's
 * words), written out rather than taken from the rounding mode. */
static double round_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = x;
    if (isfinite(x)) {
        double f = floor(x), d = x - f;
        v = d < 0.5 ? f : d > 0.5 ? f + 1 : (fmod(f, 2.0) == 0 ? f : f + 1);
        if (v == 0) v = copysign(0.0, x);
    }
    *s = fabs(v);
    return v;
}

/* ThresholdedRelu: x where x > alpha, else 0 */
static double thresholded_relu_fn(double x, const double *p, double *s)
{
    double v = x > p[0] ? x : 0.0;
    *s = fabs(v);
    return v;
}

/* Reciprocal: one division; 1/0 is infinite with the zero's sign. */
static double reciprocal_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = 1.0 / x;
    *s = fabs(v);
    return v;
}

/* The functions of the C library: value in double, S = |value| (each is within a few ulps
 * of the exact value in a target's float library). */
#define LIBM_FN(name, f)                                           \
    static double name##_fn(double x, const double *p, double *s)  \
    {                                                              \
        (void)p;                                                   \
        double v = f(x);                                           \
        *s = fabs(v);                                              \
        return v;                                                  \
    }
LIBM_FN(log, log)
LIBM_FN(erf, erf)
LIBM_FN(sin, sin)
LIBM_FN(cos, cos)
LIBM_FN(tan, tan)
LIBM_FN(asin, asin)
LIBM_FN(acos, acos)
LIBM_FN(atan, atan)
LIBM_FN(sinh, sinh)
LIBM_FN(cosh, cosh)
LIBM_FN(asinh, asinh)
LIBM_FN(acosh, acosh)
LIBM_FN(atanh, atanh)
#undef LIBM_FN

/* Elu below 0: alpha * (exp(x) - 1). A target may compute exp(x) - 1 directly: exp's
 * rounding is u*exp(x) absolute, which the difference does not shrink, then the
 * difference and the product round once each. So S = |alpha| (exp(x) + |exp(x) - 1|) + |y|.
 * Above 0 the value is x itself. */
static double elu_fn(double x, const double *p, double *s)
{
    if (!(x < 0)) {
        *s = fabs(x);
        return x;
    }
    double e = exp(x), v = p[0] * expm1(x);
    *s = fabs(p[0]) * (e + fabs(e - 1)) + fabs(v);
    return v;
}

/* Selu: gamma * x above 0, gamma * alpha * (exp(x) - 1) at and below 0 (the spec writes
 * alpha * exp(x) - alpha): as Elu, with one more product (gamma) counted in S. */
static double selu_fn(double x, const double *p, double *s)
{
    if (x > 0) {
        double v = p[1] * x;
        *s = 2 * fabs(v);
        return v;
    }
    double e = exp(x), v = p[1] * p[0] * expm1(x);
    *s = fabs(p[1] * p[0]) * (e + fabs(e - 1)) + 2 * fabs(v);
    return v;
}

/* Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)). Below 0 as Elu at t = x / alpha,
 * and the rounding of t moves exp(t) by about u |t| exp(t), alpha times that in the value:
 * S = |alpha| (exp(t) + |exp(t) - 1|) + |x| exp(t) + |y|. */
static double celu_fn(double x, const double *p, double *s)
{
    if (!(x < 0)) {
        *s = fabs(x);
        return x;
    }
    double t = x / p[0], e = exp(t), v = p[0] * expm1(t);
    *s = fabs(p[0]) * (e + fabs(e - 1)) + fabs(x) * e + fabs(v);
    return v;
}

/* Softsign: x / (1 + |x|): the sum and the division round once each (K = 2). */
static double softsign_fn(double x, const double *p, double *s)
{
    (void)p;
    double v = x / (1 + fabs(x));
    *s = fabs(v);
    return v;
}

/* Shrink: x + bias below -lambd, x - bias above lambd, 0 between: one rounding. */
static double shrink_fn(double x, const double *p, double *s)
{
    double lambd = p[0], bias = p[1];
    double v = x < -lambd ? x + bias : x > lambd ? x - bias : 0.0;
    *s = fabs(v);
    return v;
}

/* ---- the table ------------------------------------------------------------------- */

typedef struct unary_info {
    unsigned allowed;      /* input dtypes ONNX allows (within crosscheck's dtypes) */
    const char *allowed_text;
    unary_fn fn;
    double k;              /* reduction length K reported with every output */
    double flops;          /* per element: one per arithmetic operation or comparison,
                              a transcendental function counts as one */
    const char *p0, *p1;   /* float attributes read into p[0], p[1] (NULL: none) */
} unary_info;

/* HardSigmoid and HardSwish take bf16 only from opset 22 on; the catalog accepts it with
 * the same formula, since the semantics do not change with the type. */
static const unary_info infos[CC_OP_ID_COUNT] = {
    [CC_OP_ID_Relu]        = { FLOATS | SIGNED_INTS, "float or signed integer types", relu_fn,         1, 1 },
    [CC_OP_ID_LeakyRelu]   = { FLOATS, "float types only",                            leaky_relu_fn,   2, 2, "alpha" },
    [CC_OP_ID_Sigmoid]     = { FLOATS, "float types only",                            sigmoid_fn,      1, 4 },
    [CC_OP_ID_Tanh]        = { FLOATS, "float types only",                            tanh_fn,         1, 1 },
    [CC_OP_ID_HardSigmoid] = { FLOATS, "float types only",                            hard_sigmoid_fn, 2, 4, "alpha", "beta" },
    [CC_OP_ID_HardSwish]   = { FLOATS, "float types only",                            hard_swish_fn,   2, 5 },
    [CC_OP_ID_Clip]        = { FLOATS | ALL_INTS, "numeric types",                    clip_fn,         1, 2 },
    [CC_OP_ID_Exp]         = { FLOATS, "float types only",                            exp_fn,          1, 1 },
    [CC_OP_ID_Sqrt]        = { FLOATS, "float types only",                            sqrt_fn,         1, 1 },
    [CC_OP_ID_Softplus]    = { FLOATS, "float types only",                            softplus_fn,     1, 4 },
    [CC_OP_ID_Neg]         = { FLOATS | SIGNED_INTS, "float or signed integer types", neg_fn,          1, 1 },
    [CC_OP_ID_Abs]         = { FLOATS | ALL_INTS, "numeric types",                    abs_fn,          1, 1 },
    [CC_OP_ID_Sign]        = { FLOATS | ALL_INTS, "numeric types",                    sign_fn,         1, 2 },
    [CC_OP_ID_Ceil]        = { FLOATS, "float types only",                            ceil_fn,         1, 1 },
    [CC_OP_ID_Floor]       = { FLOATS, "float types only",                            floor_fn,        1, 1 },
    [CC_OP_ID_Round]       = { FLOATS, "float types only",                            round_fn,        1, 1 },
    [CC_OP_ID_Reciprocal]  = { FLOATS, "float types only",                            reciprocal_fn,   1, 1 },
    [CC_OP_ID_Log]         = { FLOATS, "float types only",                            log_fn,          1, 1 },
    [CC_OP_ID_Erf]         = { FLOATS, "float types only",                            erf_fn,          1, 1 },
    [CC_OP_ID_Sin]         = { FLOATS, "float types only",                            sin_fn,          1, 1 },
    [CC_OP_ID_Cos]         = { FLOATS, "float types only",                            cos_fn,          1, 1 },
    [CC_OP_ID_Tan]         = { FLOATS, "float types only",                            tan_fn,          1, 1 },
    [CC_OP_ID_Asin]        = { FLOATS, "float types only",                            asin_fn,         1, 1 },
    [CC_OP_ID_Acos]        = { FLOATS, "float types only",                            acos_fn,         1, 1 },
    [CC_OP_ID_Atan]        = { FLOATS, "float types only",                            atan_fn,         1, 1 },
    [CC_OP_ID_Sinh]        = { FLOATS, "float types only",                            sinh_fn,         1, 1 },
    [CC_OP_ID_Cosh]        = { FLOATS, "float types only",                            cosh_fn,         1, 1 },
    [CC_OP_ID_Asinh]       = { FLOATS, "float types only",                            asinh_fn,        1, 1 },
    [CC_OP_ID_Acosh]       = { FLOATS, "float types only",                            acosh_fn,        1, 1 },
    [CC_OP_ID_Atanh]       = { FLOATS, "float types only",                            atanh_fn,        1, 1 },
    [CC_OP_ID_Elu]         = { FLOATS, "float types only",                            elu_fn,          1, 4, "alpha" },
    [CC_OP_ID_Selu]        = { FLOATS, "float types only",                            selu_fn,         1, 5, "alpha", "gamma" },
    [CC_OP_ID_Celu]        = { FLOATS, "float types only",                            celu_fn,         1, 5, "alpha" },
    [CC_OP_ID_ThresholdedRelu] = { FLOATS, "float types only",                        thresholded_relu_fn, 1, 1, "alpha" },
    [CC_OP_ID_Softsign]    = { FLOATS, "float types only",                            softsign_fn,     2, 3 },
    [CC_OP_ID_Shrink]      = { FLOATS, "float types (the catalog's)",                 shrink_fn,       1, 3, "lambd", "bias" },
};

/* The op's row; NULL for an op that is not a unary op of this file. */
static const unary_info *info_of(const cc_op_def *op)
{
    return (unsigned)op->id < CC_OP_ID_COUNT && infos[op->id].fn ? &infos[op->id] : NULL;
}

/* The op's parameters: the float attributes its row names (LeakyRelu's alpha, HardSigmoid's
 * alpha and beta, ...: float32 attributes in ONNX; op.c already rounds parsed values to
 * float32, the cast keeps that true for nodes built by hand), the bounds for Clip (read
 * from the constant inputs). */
static void param_of(const cc_node *node, const cc_tensor *const *in, double *p)
{
    const unary_info *info = info_of(node->op);
    p[0] = p[1] = 0;
    if (info && info->p0) p[0] = (float)cc_attr_f(node, info->p0);
    if (info && info->p1) p[1] = (float)cc_attr_f(node, info->p1);
    if (node->op->id == CC_OP_ID_Clip) {
        p[0] = -INFINITY;
        p[1] = INFINITY;
        if (node->n_in > 1 && in[1] && in[1]->data) p[0] = cc_load(in[1]->data, in[1]->dtype, 0);
        if (node->n_in > 2 && in[2] && in[2]->data) p[1] = cc_load(in[2]->data, in[2]->dtype, 0);
    }
}

/* ---- infer, cost, golden shared by every unary op ---------------------------------- */

static cc_status unary_infer(const cc_node *node, const cc_tensor *const *in, int n_out,
                             cc_tensor *out, cc_err *err)
{
    const char *name = node->op->name;
    const unary_info *info = info_of(node->op);
    if (!info) return cc_err_set(err, CC_ERR_INTERNAL, "%s: not a unary eltwise op", name);
    if (n_out != 1) return cc_err_set(err, CC_ERR_ARG, "%s: has 1 output, asked for %d", name, n_out);
    if (node->n_in < 1 || !in[0])
        return cc_err_set(err, CC_ERR_ARG, "%s: input %s is missing", name, node->op->inputs[0].name);
    const cc_tensor *x = in[0];
    if ((unsigned)x->dtype >= CC_DTYPE_COUNT || !(info->allowed & CC_DTYPE_BIT(x->dtype)))
        return cc_err_set(err, CC_ERR_ARG, "%s: input dtype %s is not allowed (%s)", name,
                          cc_dtype_name(x->dtype), info->allowed_text);
    int64_t n;
    cc_err e;
    if (cc_shape_numel_checked(&x->shape, &n, &e))
        return cc_err_set(err, CC_ERR_ARG, "%s: input: %s", name, e.msg);
    if (node->n_in > node->op->n_inputs)
        return cc_err_set(err, CC_ERR_ARG, "%s: %d inputs given, at most %d", name, node->n_in,
                          node->op->n_inputs);
    /* Clip: min and max "must be a scalar (tensor of empty shape)" of the input's type. */
    for (int i = 1; i < node->n_in; i++) {
        const cc_tensor *b = in[i];
        if (!b) continue;
        const char *bn = node->op->inputs[i].name;
        if (b->shape.rank != 0) {
            char buf[96];
            return cc_err_set(err, CC_ERR_ARG, "%s: %s must be a scalar (rank 0), got shape %s",
                              name, bn, cc_shape_format(&b->shape, buf, sizeof buf));
        }
        if (b->dtype != x->dtype)
            return cc_err_set(err, CC_ERR_ARG, "%s: %s is %s but input is %s (must match)", name,
                              bn, cc_dtype_name(b->dtype), cc_dtype_name(x->dtype));
    }
    out[0].dtype = x->dtype;
    out[0].shape = x->shape;
    out[0].data = NULL;
    return CC_OK;
}

static void unary_cost(const cc_node *node, const cc_tensor *const *in, int n_out,
                       const cc_tensor *out, double *flops, double *bytes)
{
    (void)n_out;
    const unary_info *info = info_of(node->op);
    double n = (double)cc_tensor_numel(in[0]);
    *flops = n * (info ? info->flops : 1);
    *bytes = n * (double)cc_dtype_size(in[0]->dtype) +
             (double)cc_tensor_numel(&out[0]) * (double)cc_dtype_size(out[0].dtype);
    /* Clip's bounds are read once too */
    for (int i = 1; i < node->n_in; i++)
        if (in[i]) *bytes += (double)cc_tensor_bytes(in[i]);
}

static cc_status unary_golden(const cc_node *node, const cc_tensor *const *in, int n_out,
                              cc_golden *out, cc_err *err)
{
    const unary_info *info = info_of(node->op);
    if (!info) return cc_err_set(err, CC_ERR_INTERNAL, "%s: not a unary eltwise op", node->op->name);
    if (n_out != 1 || !in[0] || !in[0]->data)
        return cc_err_set(err, CC_ERR_ARG, "%s: golden needs input data and 1 output", node->op->name);
    double p[2];
    param_of(node, in, p);
    const cc_tensor *x = in[0];
    int is_float = cc_dtype_is_float(x->dtype);
    int64_t n = cc_tensor_numel(x);
    cc_op_id id = node->op->id;
    int exact = out[0].exact && (id == CC_OP_ID_Neg || id == CC_OP_ID_Abs || id == CC_OP_ID_Sign);
    for (int64_t i = 0; i < n; i++) {
        if (exact) { /* i64 in 64 bits (Neg and Abs of INT64_MIN wrap to it, as the targets' do) */
            int64_t v = ((const int64_t *)x->data)[i];
            int64_t r = id == CC_OP_ID_Sign ? (v > 0) - (v < 0)
                        : id == CC_OP_ID_Neg || v < 0 ? (int64_t)(0u - (uint64_t)v) : v;
            cc_golden_put_int(&out[0], i, r);
            continue;
        }
        double s;
        out[0].value[i] = info->fn(cc_load(x->data, x->dtype, (size_t)i), p, &s);
        out[0].mag[i] = is_float ? s : 0.0; /* integer outputs: S = 0, atol decides */
    }
    out[0].k = info->k;
    return CC_OK;
}

/* Inputs away from the poles. Reciprocal's io range is |x| in [0.5, 2] (exact regime 1..4),
 * so that 1/x stays within f16 and away from 0; gen gives each value a random sign. Atanh's
 * exact-regime values are the quarters -3/4..3/4 of its io range -3..3 (the integers -1,
 * 0, 1 of (-1, 1) would be its poles and a zero). */
static cc_status unary_gen(const cc_node *node, cc_tensor *in, cc_rng *rng, int exact, cc_err *err)
{
    (void)err;
    if (!rng || !in[0].data) return CC_OK; /* only validating (op.h) */
    int64_t n = cc_tensor_numel(&in[0]);
    for (int64_t i = 0; i < n; i++) {
        double v = cc_load(in[0].data, in[0].dtype, (size_t)i);
        if (node->op->id == CC_OP_ID_Reciprocal && (cc_rng_next(rng) >> 63)) v = -v;
        else if (node->op->id == CC_OP_ID_Atanh && exact) v *= 0.25;
        cc_store(in[0].data, in[0].dtype, (size_t)i, v);
    }
    return CC_OK;
}

/* ---- case sweeps ------------------------------------------------------------------
 * Every unary op runs on the shared shape class (ops/sweep.c); ops with attributes or
 * bounds add rows of their own. */

#define Q CC_SWEEP_QUICK
#define EDGE CC_SWEEP_EDGE
#define MODEL CC_SWEEP_MODEL

static const cc_sweep_row unary_sweep[] = {
    { Q, "@eltwise" },
};

static const cc_sweep_row leaky_relu_sweep[] = {
    { Q, "@eltwise" },
    { Q | MODEL, "x=1x16x32x32", "alpha=0.1" },   /* YOLOv3/v4 */
    { 0, "x=3x5x7", "alpha=0.2" },
    { EDGE, "x=3x5x7", "alpha=0|-0.5" },          /* Relu; a negative slope is valid */
    { MODEL, "x=1x64x208x208", "alpha=0.1" },     /* YOLOv3-tiny at 416 */
};

static const cc_sweep_row hard_sigmoid_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=1x16x32x32", "alpha=0.16666667" },    /* torch.nn.Hardsigmoid export */
    { 0, "x=3x5x7", "alpha=1,beta=0" },
    { MODEL, "x=1x576x1x1", "alpha=0.16666667" }, /* MobileNetV3 squeeze-excite */
};

/* Domains: Log above 0 (exact regime 1..16), Acosh from 1, Asin and Acos within [-1, 1],
 * Atanh within (-1, 1) (unary_gen); their io ranges say so. */
static const cc_sweep_row elu_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=3x5x7", "alpha=0.5|2" },
    { EDGE, "x=3x5x7", "alpha=0" },
};

static const cc_sweep_row selu_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=3x5x7", "alpha=1.5,gamma=2|0.5" },
};

static const cc_sweep_row celu_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=3x5x7", "alpha=0.5|2" },
};

/* ThresholdedRelu and Shrink draw random inputs in [-4, 4], past their thresholds (1 and
 * 0.5 by default). */
static const cc_sweep_row thresholded_relu_sweep[] = {
    { Q, "@eltwise" },
    { Q, "x=3x5x7", "alpha=0|0.25|-0.5" },
};

static const cc_sweep_row shrink_sweep[] = {
    { Q, "@eltwise" },
    { Q, "input=3x5x7", "lambd=0|0.25|1.5,bias=0|0.5" },
};

/* A Clip without bounds is valid (the identity): it runs on the shared shapes. */
static const cc_sweep_row clip_sweep[] = {
    { Q, "@eltwise" },
    { Q | MODEL, "input=1x16x32x32", "min=0,max=6" },  /* ReLU6 */
    { Q, "input=3x5x7", "max=0.25" },                  /* only an upper bound */
    { Q, "input=3x5x7", "min=-0.25" },                 /* only a lower bound */
    { 0, "input=3x5x7", "min=-0.5,max=0.5" },
    /* min > max: every output is max (the check mistrusts a constant result; a wrong one
     * still fails) */
    { EDGE, "input=3x5x7", "min=0.5,max=-0.5" },
    { MODEL, "input=1x32x112x112", "min=0,max=6" },    /* MobileNetV2 stem */
    { EDGE, "input=1", "min=0,max=6" },
    { EDGE, "input=scalar", "min=-1,max=1" },
};

/* ---- op definitions -------------------------------------------------------------- */

#define UNARY_FNS                 \
    .min_outputs = 1,             \
    .max_outputs = 1,             \
    .dtypes = FLOATS,             \
    .infer = unary_infer,         \
    .cost = unary_cost,           \
    .golden = unary_golden

const cc_op_def cc_op_Relu = {
    .id = CC_OP_ID_Relu,
    .name = "Relu", .domain = "", .since_version = 14, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_LeakyRelu = {
    .id = CC_OP_ID_LeakyRelu,
    .name = "LeakyRelu", .domain = "", .since_version = 16, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = CC_ONNX_NATTRS(LeakyRelu, 16),
    .attrs = { CC_ONNX_ATTRS(LeakyRelu, 16) },
    CC_SWEEP(leaky_relu_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Sigmoid = {
    .id = CC_OP_ID_Sigmoid,
    .name = "Sigmoid", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Tanh = {
    .id = CC_OP_ID_Tanh,
    .name = "Tanh", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_HardSigmoid = {
    .id = CC_OP_ID_HardSigmoid,
    .name = "HardSigmoid", .domain = "", .since_version = 6, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = CC_ONNX_NATTRS(HardSigmoid, 6),
    .attrs = { CC_ONNX_ATTRS(HardSigmoid, 6) },
    CC_SWEEP(hard_sigmoid_sweep),
    UNARY_FNS,
};

/* HardSwish has no attributes: alpha = 1/6 and beta = 0.5 are fixed by the spec. Inputs
 * reach [-4, 4] in the exact regime, which covers both kinks at -3 and 3. */
const cc_op_def cc_op_HardSwish = {
    .id = CC_OP_ID_HardSwish,
    .name = "HardSwish", .domain = "", .since_version = 14, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

/* Clip (opset 13): min and max are optional scalar inputs of the input's type; in a case
 * they are constants written like attributes (Clip(input=...,min=0,max=6)); absent means
 * unbounded on that side. */
const cc_op_def cc_op_Clip = {
    .id = CC_OP_ID_Clip,
    .name = "Clip", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 3,
    .inputs = {
        { .name = "input", .role = CC_IN_DATA },
        { .name = "min", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
        { .name = "max", .role = CC_IN_ATTR, .optional = 1, .constant = 1 },
    },
    .n_attrs = 2,
    .attrs = {
        { .name = "min", .kind = CC_ATTR_FLOAT, .def = NULL, .input = 1,
          .input_dtype = CC_DTYPE_COUNT },
        { .name = "max", .kind = CC_ATTR_FLOAT, .def = NULL, .input = 2,
          .input_dtype = CC_DTYPE_COUNT },
    },
    CC_SWEEP(clip_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Exp = {
    .id = CC_OP_ID_Exp,
    .name = "Exp", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

/* Sqrt: generated inputs stay in the domain x >= 0 (random [0, 4], exact 0..16, which
 * holds the perfect squares 0, 1, 4, 9, 16). */
const cc_op_def cc_op_Sqrt = {
    .id = CC_OP_ID_Sqrt,
    .name = "Sqrt", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA, .lo = 0, .hi = 4, .ilo = 0, .ihi = 16 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Softplus = {
    .id = CC_OP_ID_Softplus,
    .name = "Softplus", .domain = "", .since_version = 1, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Neg = {
    .id = CC_OP_ID_Neg,
    .name = "Neg", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Abs = {
    .id = CC_OP_ID_Abs,
    .name = "Abs", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Sign = {
    .id = CC_OP_ID_Sign,
    .name = "Sign", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Ceil = {
    .id = CC_OP_ID_Ceil,
    .name = "Ceil", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Floor = {
    .id = CC_OP_ID_Floor,
    .name = "Floor", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Round = {
    .id = CC_OP_ID_Round,
    .name = "Round", .domain = "", .since_version = 11, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Reciprocal = {
    .id = CC_OP_ID_Reciprocal,
    .name = "Reciprocal", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA, .lo = 0.5, .hi = 2, .ilo = 1, .ihi = 4 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    .gen = unary_gen,
    UNARY_FNS,
};

const cc_op_def cc_op_Log = {
    .id = CC_OP_ID_Log,
    .name = "Log", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA, .lo = 0, .hi = 4, .ilo = 1, .ihi = 16 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Erf = {
    .id = CC_OP_ID_Erf,
    .name = "Erf", .domain = "", .since_version = 13, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Sin = {
    .id = CC_OP_ID_Sin,
    .name = "Sin", .domain = "", .since_version = 7, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Cos = {
    .id = CC_OP_ID_Cos,
    .name = "Cos", .domain = "", .since_version = 7, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Tan = {
    .id = CC_OP_ID_Tan,
    .name = "Tan", .domain = "", .since_version = 7, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Asin = {
    .id = CC_OP_ID_Asin,
    .name = "Asin", .domain = "", .since_version = 7, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA, .lo = -1, .hi = 1, .ilo = -1, .ihi = 1 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Acos = {
    .id = CC_OP_ID_Acos,
    .name = "Acos", .domain = "", .since_version = 7, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA, .lo = -1, .hi = 1, .ilo = -1, .ihi = 1 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Atan = {
    .id = CC_OP_ID_Atan,
    .name = "Atan", .domain = "", .since_version = 7, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Sinh = {
    .id = CC_OP_ID_Sinh,
    .name = "Sinh", .domain = "", .since_version = 9, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Cosh = {
    .id = CC_OP_ID_Cosh,
    .name = "Cosh", .domain = "", .since_version = 9, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Asinh = {
    .id = CC_OP_ID_Asinh,
    .name = "Asinh", .domain = "", .since_version = 9, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Acosh = {
    .id = CC_OP_ID_Acosh,
    .name = "Acosh", .domain = "", .since_version = 9, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA, .lo = 1, .hi = 4, .ilo = 1, .ihi = 16 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Atanh = {
    .id = CC_OP_ID_Atanh,
    .name = "Atanh", .domain = "", .since_version = 9, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA, .lo = -0.99, .hi = 0.99, .ilo = -3, .ihi = 3 } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    .gen = unary_gen,
    UNARY_FNS,
};

const cc_op_def cc_op_Elu = {
    .id = CC_OP_ID_Elu,
    .name = "Elu", .domain = "", .since_version = 6, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = CC_ONNX_NATTRS(Elu, 6),
    .attrs = { CC_ONNX_ATTRS(Elu, 6) },
    CC_SWEEP(elu_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Selu = {
    .id = CC_OP_ID_Selu,
    .name = "Selu", .domain = "", .since_version = 6, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = CC_ONNX_NATTRS(Selu, 6),
    .attrs = { CC_ONNX_ATTRS(Selu, 6) },
    CC_SWEEP(selu_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Celu = {
    .id = CC_OP_ID_Celu,
    .name = "Celu", .domain = "", .since_version = 12, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA } },
    .n_attrs = CC_ONNX_NATTRS(Celu, 12),
    .attrs = { CC_ONNX_ATTRS(Celu, 12) },
    CC_SWEEP(celu_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_ThresholdedRelu = {
    .id = CC_OP_ID_ThresholdedRelu,
    .name = "ThresholdedRelu", .domain = "", .since_version = 10, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "x", .role = CC_IN_DATA, .lo = -4, .hi = 4, .ilo = -4, .ihi = 4 } },
    .n_attrs = CC_ONNX_NATTRS(ThresholdedRelu, 10),
    .attrs = { CC_ONNX_ATTRS(ThresholdedRelu, 10) },
    CC_SWEEP(thresholded_relu_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Softsign = {
    .id = CC_OP_ID_Softsign,
    .name = "Softsign", .domain = "", .since_version = 1, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA } },
    .n_attrs = 0,
    CC_SWEEP(unary_sweep),
    UNARY_FNS,
};

const cc_op_def cc_op_Shrink = {
    .id = CC_OP_ID_Shrink,
    .name = "Shrink", .domain = "", .since_version = 9, .family = "eltwise",
    .n_inputs = 1,
    .inputs = { { .name = "input", .role = CC_IN_DATA, .lo = -4, .hi = 4, .ilo = -4, .ihi = 4 } },
    .n_attrs = CC_ONNX_NATTRS(Shrink, 9),
    .attrs = { CC_ONNX_ATTRS(Shrink, 9) },
    CC_SWEEP(shrink_sweep),
    UNARY_FNS,
};
