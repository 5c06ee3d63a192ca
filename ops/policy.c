/* policy.c — the versioned tolerance table (see policy.h for the formula). Rows are
 * matched most-specific first: (op, dtype), then (op, any dtype), then the default row.
 * Changing a constant changes what "passed" means: bump CC_POLICY_VERSION with it. */
#include "policy.h"

#include <string.h>

/* clang-format off */
static const cc_tol table[] = {
    /* op                 dtype  c    r    atol sqrt exact  why */
    { "*",                  -1,  1.0, 1.0, 0.0, 0,   0,  "default: deterministic bound gamma(K) = K, one output rounding" },

    /* dot products: gamma(K)*u*sum|a*b| is the classical bound for any summation order */
    { "Conv",               -1,  1.0, 1.0, 0.0, 0,   1,  NULL },
    { "Gemm",               -1,  1.0, 1.0, 0.0, 0,   1,  NULL },
    { "MatMul",             -1,  1.0, 1.0, 0.0, 0,   1,  NULL },
    /* integer products accumulate exactly in int32 */
    { "ConvInteger",        -1,  0.0, 0.0, 0.0, 0,   1,  "int32 accumulation is exact" },
    { "MatMulInteger",      -1,  0.0, 0.0, 0.0, 0,   1,  "int32 accumulation is exact" },
    /* requantization: acc * (sx*sw/sy) computed in float32 by a target may land on the
     * other side of a .5 tie than the exact product does */
    /* not bit-exact even in the exact regime: with full-range 8-bit inputs and thousands of
     * terms the int32 accumulator passes 2^24, where a float32 rescale (oneDNN's) rounds */
    { "QLinearConv",        -1,  0.0, 0.0, 1.0, 0,   0,  "requantizing in float32 can flip a rounding tie; accumulators pass 2^24" },
    { "QLinearMatMul",      -1,  0.0, 0.0, 1.0, 0,   0,  "requantizing in float32 can flip a rounding tie; accumulators pass 2^24" },
    { "QuantizeLinear",     -1,  0.0, 0.0, 1.0, 0,   1,  "x / scale in float32 can flip a rounding tie; exact-regime scales are powers of two" },
    { "DequantizeLinear",   -1,  2.0, 1.0, 0.0, 0,   1,  "(x - zp) * scale: one subtraction, one product" },

    /* data movement and exact selections */
    { "Relu",               -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "MaxPool",            -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "ReduceMax",          -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Clip",               -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Flatten",            -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Reshape",            -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Transpose",          -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Concat",             -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Split",              -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },
    { "Slice",              -1,  0.0, 0.0, 0.0, 0,   1,  "values are copied or selected: any difference is a bug" },

    /* one rounding of an exact operation */
    { "Add",                -1,  1.0, 1.0, 0.0, 0,   1,  NULL },
    { "Sub",                -1,  1.0, 1.0, 0.0, 0,   1,  NULL },
    { "Mul",                -1,  1.0, 1.0, 0.0, 0,   1,  NULL },
    { "Div",                -1,  2.0, 1.0, 0.0, 0,   0,  "a reciprocal then a product in fast paths" },
    { "Sqrt",               -1,  2.0, 1.0, 0.0, 0,   0,  NULL },
    { "LeakyRelu",          -1,  1.0, 1.0, 0.0, 0,   0,  "alpha is a float32 product" },

    /* transcendental functions: a few ulps of a libm-quality exp/tanh, composed */
    { "Exp",                -1,  4.0, 1.0, 0.0, 0,   0,  "expf is within a few ulps" },
    { "Sigmoid",            -1,  4.0, 1.0, 0.0, 0,   0,  "1/(1+exp(-x)): exp, add, divide" },
    { "Tanh",               -1,  4.0, 1.0, 0.0, 0,   0,  "tanhf is within a few ulps" },
    { "HardSigmoid",        -1,  2.0, 1.0, 0.0, 0,   0,  NULL },
    { "HardSwish",          -1,  2.0, 1.0, 0.0, 0,   0,  NULL },
    { "Softmax",            -1,  4.0, 1.0, 0.0, 0,   0,  "exp, a sum of K terms, a division: up to (K+4)u, so c = 4 covers K >= 2" },

    /* averages: a sum of K terms then a division */
    { "AveragePool",        -1,  1.0, 1.0, 0.0, 0,   0,  NULL },
    { "GlobalAveragePool",  -1,  1.0, 1.0, 0.0, 0,   0,  NULL },
    { "ReduceMean",         -1,  1.0, 1.0, 0.0, 0,   0,  NULL },
    { "BatchNormalization", -1,  2.0, 1.0, 0.0, 0,   0,  "folded to scale*x+shift: rounding of the folded constants" },
    { "Resize",             -1,  2.0, 1.0, 0.0, 0,   0,  "coordinate transform and interpolation weights in float32" },
};
/* clang-format on */

const cc_tol *cc_policy_lookup(const char *op, cc_dtype dt)
{
    const cc_tol *any = NULL;
    for (size_t i = 1; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].op, op) != 0) continue;
        if (table[i].dtype == (int)dt) return &table[i];
        if (table[i].dtype == -1 && !any) any = &table[i];
    }
    return any ? any : &table[0];
}
