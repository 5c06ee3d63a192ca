/* policy.c — the versioned tolerance table (see policy.h for the formula): one row per op
 * of ops/ops.def, indexed by op id, built from the named presets below. A row holds for
 * every dtype of its op; an op that needs other constants at some dtype gets a table of
 * (op, dtype) rows consulted before this one. There is no default: a row left out is
 * zero, its why is NULL, cc_policy_of returns NULL and the catalog test names the op.
 * Changing a constant changes what "passed" means: bump CC_POLICY_VERSION with it. */
#include "policy.h"

#include <stddef.h>

#define CC_TOL(c_, r_, atol_, exact_, why_) \
    { .c = (c_), .r = (r_), .atol = (atol_), .sqrt_gamma = 0, .exact = (exact_), .why = (why_) }

/* no error allowed: an exact operation whose result is representable */
#define CC_TOL_EXACT(why_) CC_TOL(0.0, 0.0, 0.0, 1, why_)
/* data movement and exact selections */
#define CC_TOL_COPY CC_TOL_EXACT("values are copied or selected: any difference is a bug")
/* one rounding of an exact operation */
#define CC_TOL_ROUNDING CC_TOL(1.0, 1.0, 0.0, 1, "one rounding of an exact operation")
/* dot products: gamma(K)*u*sum|a*b| is the classical bound for any summation order */
#define CC_TOL_DOT CC_TOL(1.0, 1.0, 0.0, 1, "dot product: gamma(K)*u*sum|a*b| holds for any summation order")
/* c roundings where a target may take another path than the exact one (a reciprocal, a
 * product with a float32 constant): not bit-exact in the exact regime */
#define CC_TOL_ROUNDINGS(c_, why_) CC_TOL(c_, 1.0, 0.0, 0, why_)
/* averages: a sum of K terms then a division */
#define CC_TOL_AVERAGE CC_TOL_ROUNDINGS(1.0, "a sum of K terms then a division")
/* transcendental functions: a few ulps of a libm-quality exp/tanh, composed */
#define CC_TOL_TRANSCENDENTAL(why_) CC_TOL_ROUNDINGS(4.0, why_)
/* requantization: a float32 rescale may land on the other side of a .5 tie than the exact
 * value does, one unit of the 8-bit output */
#define CC_TOL_REQUANTIZE(exact_, why_) CC_TOL(0.0, 0.0, 1.0, exact_, why_)

/* clang-format off */
static const cc_tol table[CC_OP_ID_COUNT] = {
    [CC_OP_ID_Conv]               = CC_TOL_DOT,
    [CC_OP_ID_Gemm]               = CC_TOL_DOT,
    [CC_OP_ID_MatMul]             = CC_TOL_DOT,
    /* integer products accumulate exactly in int32 */
    [CC_OP_ID_ConvInteger]        = CC_TOL_EXACT("int32 accumulation is exact"),
    [CC_OP_ID_MatMulInteger]      = CC_TOL_EXACT("int32 accumulation is exact"),
    /* not bit-exact even in the exact regime: with full-range 8-bit inputs and thousands of
     * terms the int32 accumulator passes 2^24, where a float32 rescale (oneDNN's) rounds */
    [CC_OP_ID_QLinearConv]        = CC_TOL_REQUANTIZE(0, "requantizing in float32 can flip a rounding tie; accumulators pass 2^24"),
    [CC_OP_ID_QLinearMatMul]      = CC_TOL_REQUANTIZE(0, "requantizing in float32 can flip a rounding tie; accumulators pass 2^24"),
    [CC_OP_ID_QuantizeLinear]     = CC_TOL_REQUANTIZE(1, "x / scale in float32 can flip a rounding tie; exact-regime scales are powers of two"),
    [CC_OP_ID_DequantizeLinear]   = CC_TOL(2.0, 1.0, 0.0, 1, "(x - zp) * scale: one subtraction, one product"),

    [CC_OP_ID_Relu]               = CC_TOL_COPY,
    [CC_OP_ID_MaxPool]            = CC_TOL_COPY,
    [CC_OP_ID_ReduceMax]          = CC_TOL_COPY,
    [CC_OP_ID_Clip]               = CC_TOL_COPY,
    [CC_OP_ID_Flatten]            = CC_TOL_COPY,
    [CC_OP_ID_Reshape]            = CC_TOL_COPY,
    [CC_OP_ID_Transpose]          = CC_TOL_COPY,
    [CC_OP_ID_Concat]             = CC_TOL_COPY,
    [CC_OP_ID_Split]              = CC_TOL_COPY,
    [CC_OP_ID_Slice]              = CC_TOL_COPY,

    [CC_OP_ID_Add]                = CC_TOL_ROUNDING,
    [CC_OP_ID_Sub]                = CC_TOL_ROUNDING,
    [CC_OP_ID_Mul]                = CC_TOL_ROUNDING,
    [CC_OP_ID_Div]                = CC_TOL_ROUNDINGS(2.0, "a reciprocal then a product in fast paths"),
    [CC_OP_ID_Sqrt]               = CC_TOL_ROUNDINGS(2.0, "two roundings: a target's square root need not be correctly rounded"),
    [CC_OP_ID_LeakyRelu]          = CC_TOL_ROUNDINGS(1.0, "alpha is a float32 product"),

    [CC_OP_ID_Exp]                = CC_TOL_TRANSCENDENTAL("expf is within a few ulps"),
    [CC_OP_ID_Sigmoid]            = CC_TOL_TRANSCENDENTAL("1/(1+exp(-x)): exp, add, divide"),
    [CC_OP_ID_Tanh]               = CC_TOL_TRANSCENDENTAL("tanhf is within a few ulps"),
    [CC_OP_ID_Softmax]            = CC_TOL_TRANSCENDENTAL("exp, a sum of K terms, a division: up to (K+4)u, so c = 4 covers K >= 2"),
    [CC_OP_ID_HardSigmoid]        = CC_TOL_ROUNDINGS(2.0, "alpha*x + beta: a product and a sum"),
    [CC_OP_ID_HardSwish]          = CC_TOL_ROUNDINGS(2.0, "x * HardSigmoid(x): a product with the rounded alpha*x + beta"),

    [CC_OP_ID_AveragePool]        = CC_TOL_AVERAGE,
    [CC_OP_ID_GlobalAveragePool]  = CC_TOL_AVERAGE,
    [CC_OP_ID_ReduceMean]         = CC_TOL_AVERAGE,
    [CC_OP_ID_BatchNormalization] = CC_TOL_ROUNDINGS(2.0, "folded to scale*x+shift: rounding of the folded constants"),
    [CC_OP_ID_Resize]             = CC_TOL_ROUNDINGS(2.0, "coordinate transform and interpolation weights in float32"),
};
/* clang-format on */

const cc_tol *cc_policy_of(const cc_op_def *op, cc_dtype dt)
{
    if ((unsigned)op->id >= CC_OP_ID_COUNT || (unsigned)dt >= CC_DTYPE_COUNT || !table[op->id].why) return NULL;
    return &table[op->id];
}

const cc_tol *cc_policy_lookup(const char *op, cc_dtype dt)
{
    const cc_op_def *def = cc_catalog_find(op);
    return def ? cc_policy_of(def, dt) : NULL;
}
